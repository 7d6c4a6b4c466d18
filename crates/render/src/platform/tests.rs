use super::*;

fn v(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn dangerous_grants_are_flagged() {
    assert_eq!(
        dangers(&v(&[""]), &v(&["secrets"]), &v(&["get", "list", "create"])),
        v(&["reads Secrets (get, list)"])
    );
    assert_eq!(
        dangers(&v(&["*"]), &v(&["*"]), &v(&["*"])),
        v(&[
            "all verbs (*)",
            "all resources (*)",
            "all API groups (*)",
            "reads Secrets (get, list, watch)"
        ])
    );
    assert_eq!(
        dangers(
            &v(&["rbac.authorization.k8s.io"]),
            &v(&["clusterroles"]),
            &v(&["bind", "escalate"])
        ),
        v(&["escalate", "bind"])
    );
    assert!(dangers(&v(&["apps"]), &v(&["deployments"]), &v(&["get"])).is_empty());
    // Secrets in another group are not core Secrets.
    assert!(dangers(&v(&["x.io"]), &v(&["secrets"]), &v(&["get"])).is_empty());
}
