use super::*;

fn uses(src: &str) -> Uses {
    let file = syn::parse_file(src).unwrap();
    Uses::of_items(&file.items)
}

fn resolve(u: &Uses, path: &str) -> String {
    let segs: Vec<String> = path.split("::").map(String::from).collect();
    u.resolve(&segs)
}

#[test]
fn aliases_groups_and_self() {
    let u = uses(
        "use k8s_openapi::api::core::v1 as corev1;\n\
             use kube::{api::{Api, Patch as P}, runtime::controller::{self, Controller}};\n\
             use k8s_openapi::api::apps::v1::*;\n",
    );
    assert_eq!(
        resolve(&u, "corev1::Pod"),
        "k8s_openapi::api::core::v1::Pod"
    );
    assert_eq!(resolve(&u, "Api"), "kube::api::Api");
    assert_eq!(resolve(&u, "P"), "kube::api::Patch");
    assert_eq!(
        resolve(&u, "Controller::new"),
        "kube::runtime::controller::Controller::new"
    );
    assert_eq!(
        resolve(&u, "controller::Action"),
        "kube::runtime::controller::Action"
    );
    assert_eq!(resolve(&u, "Unknown"), "Unknown");
    let chained = uses(
        "use apiexts::CustomResourceDefinition;\nuse k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1 as apiexts;\n",
    );
    assert_eq!(
        resolve(&chained, "CustomResourceDefinition"),
        "k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition"
    );
    assert_eq!(u.globs, vec!["k8s_openapi::api::apps::v1".to_string()]);
    assert!(u.uses_crate(&["kube"]));
    assert!(!u.uses_crate(&["axum"]));
}
