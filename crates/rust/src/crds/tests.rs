use super::*;

#[test]
fn serde_rename_rules() {
    assert_eq!(rename("max_replicas", Some("camelCase")), "maxReplicas");
    assert_eq!(rename("max_replicas", Some("PascalCase")), "MaxReplicas");
    assert_eq!(rename("max_replicas", Some("kebab-case")), "max-replicas");
    assert_eq!(rename("max_replicas", None), "max_replicas");
}
