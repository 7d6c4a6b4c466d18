use super::*;

#[test]
fn names_drop_an_empty_namespace() {
    assert_eq!(qualified("", "n"), "n");
    assert_eq!(qualified("ns", "n"), "ns/n");
    assert_eq!(role_key("Role", "ns", "r"), "Role/ns/r");
    assert_eq!(role_key("ClusterRole", "", "r"), "ClusterRole/r");
}
