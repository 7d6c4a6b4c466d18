use super::*;

#[test]
fn versions() {
    for v in ["v1", "v2", "v1alpha1", "v1beta2", "v10"] {
        assert!(is_version(v), "{v}");
    }
    for v in ["v", "1", "va1", "v1alpha", "v1gamma1", "apps"] {
        assert!(!is_version(v), "{v}");
    }
}
