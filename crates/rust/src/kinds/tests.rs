use super::*;

fn gvk(g: &str, v: &str, k: &str) -> Gvk {
    Gvk {
        group: g.into(),
        version: v.into(),
        kind: k.into(),
    }
}

#[test]
fn k8s_openapi_paths() {
    assert_eq!(
        builtin("k8s_openapi::api::core::v1::Pod"),
        Some(gvk("", "v1", "Pod"))
    );
    assert_eq!(
        builtin("k8s_openapi::api::apps::v1::Deployment"),
        Some(gvk("apps", "v1", "Deployment"))
    );
    assert_eq!(
        builtin("k8s_openapi::api::networking::v1::Ingress"),
        Some(gvk("networking.k8s.io", "v1", "Ingress"))
    );
    assert_eq!(
        builtin(
            "k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition"
        ),
        Some(gvk(
            "apiextensions.k8s.io",
            "v1",
            "CustomResourceDefinition"
        ))
    );
    assert_eq!(builtin("k8s_openapi::api::core::Pod"), None);
    assert_eq!(builtin("crate::Document"), None);
}

#[test]
fn own_kinds_by_type_name_and_ambiguity() {
    let kinds = Kinds::new([
        (
            "api/src/lib.rs".to_string(),
            "Document".to_string(),
            gvk("kube.rs", "v1", "Document"),
        ),
        (
            "examples/a.rs".to_string(),
            "Twin".to_string(),
            gvk("a.io", "v1", "Twin"),
        ),
        (
            "examples/b.rs".to_string(),
            "Twin".to_string(),
            gvk("b.io", "v1", "Twin"),
        ),
    ]);
    assert_eq!(
        kinds.resolve("Twin", "examples/b.rs"),
        Ok(gvk("b.io", "v1", "Twin"))
    );
    assert_eq!(
        kinds.resolve("api::Document", "x.rs"),
        Ok(gvk("kube.rs", "v1", "Document"))
    );
    assert_eq!(
        kinds.resolve("Twin", "x.rs"),
        Err("`Twin` matches 2 custom resources of this project".to_string())
    );
    assert_eq!(
        kinds.resolve("Other", "x.rs"),
        Err(
            "`Other` is neither a k8s-openapi type nor a custom resource of this project"
                .to_string()
        )
    );
}
