use super::*;

fn id(group: &str, kind: &str, name: &str, ns: &str, part_of: &str) -> ObjectId {
    ObjectId {
        group: group.into(),
        kind: kind.into(),
        name: name.into(),
        namespace: ns.into(),
        part_of: part_of.into(),
        crd_group: String::new(),
    }
}

fn crd(group: &str) -> ObjectId {
    ObjectId {
        crd_group: group.into(),
        ..id(
            "apiextensions.k8s.io",
            "CustomResourceDefinition",
            "x",
            "",
            "",
        )
    }
}

fn own() -> BTreeSet<String> {
    ["widgets.example.io".to_string()].into_iter().collect()
}

#[test]
fn a_control_plane_folder_of_another_project_is_bundled() {
    let mut dirs = BTreeMap::new();
    dirs.insert(
        "deploy/istio".to_string(),
        vec![
            id("", "Namespace", "app-istio-system", "", ""),
            id("apps", "Deployment", "istiod", "app-istio-system", "istio"),
            id(
                "rbac.authorization.k8s.io",
                "ClusterRole",
                "istiod",
                "",
                "istio",
            ),
            id(
                "telemetry.istio.io",
                "Telemetry",
                "mesh",
                "istio-gateway",
                "",
            ),
        ],
    );
    let b = bundled_dirs(&dirs, &own());
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].project, "Istio");
    assert_eq!(b[0].objects, 4);
    assert_eq!(
        b[0].evidence,
        vec![
            "API group telemetry.istio.io",
            "Namespace app-istio-system",
            "label app.kubernetes.io/part-of=istio"
        ]
    );
}

#[test]
fn an_object_in_another_projects_namespace_is_not_enough() {
    let mut dirs = BTreeMap::new();
    dirs.insert(
        "docs/custom-domain".to_string(),
        vec![id(
            "networking.k8s.io",
            "Ingress",
            "web",
            "istio-system",
            "",
        )],
    );
    assert!(bundled_dirs(&dirs, &own()).is_empty());
    dirs.insert(
        "hack/knative".to_string(),
        vec![
            id("", "Namespace", "knative-serving", "", ""),
            id(
                "operator.knative.dev",
                "KnativeServing",
                "ks",
                "knative-serving",
                "",
            ),
        ],
    );
    let b = bundled_dirs(&dirs, &own());
    assert_eq!(b.len(), 1);
    assert_eq!(
        (b[0].dir.as_str(), b[0].project.as_str()),
        ("hack/knative", "Knative")
    );
}

#[test]
fn one_own_object_keeps_the_folder_own() {
    let mut dirs = BTreeMap::new();
    dirs.insert(
        "deploy/mixed".to_string(),
        vec![
            id("apps", "Deployment", "istiod", "istio-system", "istio"),
            id("apps", "Deployment", "manager", "widget-system", ""),
        ],
    );
    assert!(bundled_dirs(&dirs, &own()).is_empty());
}

#[test]
fn group_evidence_alone_is_not_enough() {
    let mut dirs = BTreeMap::new();
    dirs.insert(
        "config/monitoring".to_string(),
        vec![id("monitoring.coreos.com", "ServiceMonitor", "m", "", "")],
    );
    assert!(bundled_dirs(&dirs, &own()).is_empty());
}

#[test]
fn crds_are_own_by_declared_group() {
    assert!(!crd_is_bundled("widgets.example.io", &own()));
    assert!(crd_is_bundled("gateway.networking.k8s.io", &own()));
    let mut dirs = BTreeMap::new();
    dirs.insert(
        "deploy/crds".to_string(),
        vec![crd("networking.istio.io"), crd("example.org")],
    );
    dirs.insert("config/crd".to_string(), vec![crd("widgets.example.io")]);
    let b = bundled_dirs(&dirs, &own());
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].dir, "deploy/crds");
    assert_eq!(b[0].project, "API group example.org, Istio");
}

#[test]
fn a_family_is_not_foreign_to_itself() {
    let istio_own: BTreeSet<String> = ["networking.istio.io".to_string()].into_iter().collect();
    let mut dirs = BTreeMap::new();
    dirs.insert(
        "manifests".to_string(),
        vec![id("apps", "Deployment", "istiod", "istio-system", "istio")],
    );
    assert!(bundled_dirs(&dirs, &istio_own).is_empty());
}
