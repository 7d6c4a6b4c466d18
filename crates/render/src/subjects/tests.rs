use super::*;
use model::{Area, Kustomization};

fn kustomization(dir: &str, namespace: &str, objects: &[&str]) -> Kustomization {
    serde_json::from_value(serde_json::json!({
        "dir": dir,
        "namespace": namespace,
        "objects": objects,
        "sources": [],
    }))
    .unwrap()
}

fn binding(name: &str) -> RoleBinding {
    RoleBinding {
        kind: "ClusterRoleBinding".into(),
        name: name.into(),
        namespace: String::new(),
        role: "ClusterRole/r".into(),
        subjects: vec![],
        templated: false,
        bundled: false,
        area: Area::Component,
        sources: vec![],
    }
}

#[test]
fn a_subject_gets_the_namespace_its_kustomization_sets() {
    let p = Project {
        findings: model::Findings {
            kustomizations: vec![
                kustomization(
                    "config/rbac",
                    "",
                    &["ClusterRoleBinding b", "ServiceAccount sa"],
                ),
                kustomization(
                    "config/default",
                    "prod",
                    &["ClusterRoleBinding b", "ServiceAccount sa"],
                ),
            ],
            ..Default::default()
        },
        ..Project::default()
    };
    let ns = Namespaces::new(&p);
    let r = ns.subject(&binding("b"), "ServiceAccount sa");
    assert_eq!(r.subject, "ServiceAccount prod/sa");
    assert_eq!(
        r.why,
        "written without a namespace; namespace prod from the kustomization config/default"
    );
    assert_eq!(ns.account("", "sa").subject, "ServiceAccount prod/sa");
    // Written with a namespace: as written, whatever kustomize would do.
    let r = ns.subject(&binding("b"), "ServiceAccount other/sa");
    assert_eq!(
        (r.subject.as_str(), r.why.as_str()),
        ("ServiceAccount other/sa", "")
    );
    assert_eq!(ns.account("other", "sa").subject, "ServiceAccount other/sa");
    // Users and groups have no namespace.
    assert_eq!(
        ns.subject(&binding("b"), "User alice").subject,
        "User alice"
    );
}

#[test]
fn of_several_namespaces_the_one_written_elsewhere_is_taken_and_the_others_said() {
    let mut p = Project {
        findings: model::Findings {
            kustomizations: vec![
                kustomization("config/default", "prod", &["ClusterRoleBinding b"]),
                kustomization("config/overlays/other", "other", &["ClusterRoleBinding b"]),
            ],
            ..Default::default()
        },
        ..Project::default()
    };
    // No account written with either namespace: unknown.
    let r = Namespaces::new(&p).subject(&binding("b"), "ServiceAccount sa");
    assert_eq!(r.subject, "ServiceAccount sa");
    let mut written = binding("w");
    written.subjects = vec!["ServiceAccount prod/sa".into()];
    p.findings.role_bindings = vec![written];
    let r = Namespaces::new(&p).subject(&binding("b"), "ServiceAccount sa");
    assert_eq!(r.subject, "ServiceAccount prod/sa");
    assert_eq!(
        r.why,
        "written without a namespace; namespace prod from the kustomization config/default; put in other by the kustomization config/overlays/other instead"
    );
    // Written in both namespaces: which one is meant is not known.
    let mut also = binding("w2");
    also.subjects = vec!["ServiceAccount other/sa".into()];
    p.findings.role_bindings.push(also);
    let r = Namespaces::new(&p).subject(&binding("b"), "ServiceAccount sa");
    assert_eq!(r.subject, "ServiceAccount sa");
}

#[test]
fn unknown_or_disagreeing_namespaces_are_never_guessed() {
    let mut p = Project::default();
    let mut test = kustomization("test/overlay", "testing", &["ClusterRoleBinding t"]);
    test.area = Area::Samples;
    let mut renamed = kustomization("config/prefixed", "prod", &["ClusterRoleBinding r"]);
    renamed.name_prefix = "x-".into();
    p.findings.kustomizations = vec![
        kustomization("a", "one", &["ClusterRoleBinding b"]),
        kustomization("b", "two", &["ClusterRoleBinding b"]),
        test,
        renamed,
    ];
    let ns = Namespaces::new(&p);
    for name in ["b", "t", "r", "built-by-none"] {
        let r = ns.subject(&binding(name), "ServiceAccount sa");
        assert_eq!(
            (r.subject.as_str(), r.why.as_str()),
            ("ServiceAccount sa", ""),
            "{name}"
        );
    }
}
