use super::*;

fn v(text: &str) -> Option<KubeVersion> {
    KubeVersion::parse(text)
}

#[test]
fn the_table_parses_and_names_the_well_known_removals() {
    let parsed = parse(TABLE).expect("deprecations.toml is valid");
    assert_eq!(parsed.len(), table().len());
    let removed = |g: &str, ver: &str, k: &str| lookup(g, ver, k).and_then(|e| e.removed);
    assert_eq!(removed("policy", "v1beta1", "PodSecurityPolicy"), v("1.25"));
    assert_eq!(
        removed("autoscaling", "v2beta2", "HorizontalPodAutoscaler"),
        v("1.26")
    );
    assert_eq!(
        removed("flowcontrol.apiserver.k8s.io", "v1beta2", "FlowSchema"),
        v("1.29")
    );
    assert!(lookup("policy", "v1", "PodDisruptionBudget").is_none());
    assert!(lookup("apps", "v1", "Deployment").is_none());
    // Every row removes or deprecates something, and says what to use instead.
    for e in &parsed {
        assert!(e.removed.is_some() || e.deprecated.is_some(), "{e:?}");
        assert!(!e.replacement.is_empty(), "{e:?}");
    }
}

#[test]
fn status_against_the_target() {
    let psp = lookup("policy", "v1beta1", "PodSecurityPolicy").unwrap();
    assert_eq!(Status::of(psp, v("1.33")), Status::Removed);
    assert_eq!(Status::of(psp, v("1.25")), Status::Removed);
    assert_eq!(Status::of(psp, v("1.24")), Status::Deprecated);
    assert_eq!(Status::of(psp, v("1.20")), Status::Later);
    assert_eq!(Status::of(psp, None), Status::Later);
    assert_eq!(
        Status::Deprecated.label(psp),
        "deprecated in 1.21, removed in 1.25"
    );
    let endpoints = lookup("", "v1", "Endpoints").unwrap();
    assert_eq!(Status::of(endpoints, v("1.33")), Status::Deprecated);
    assert_eq!(Status::Deprecated.label(endpoints), "deprecated in 1.33");
}

#[test]
fn versions_compare_by_number() {
    assert!(v("1.9") < v("1.10"));
    assert!(v("1.33") > v("1.29"));
    assert_eq!(v("v1.33.2"), v("1.33"));
    assert_eq!(v("1.x"), None);
    assert_eq!(v("1"), None);
}
