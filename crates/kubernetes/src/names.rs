//! How the model names objects across files and projects: `namespace/name` for namespaced
//! objects and `Kind/…` keys for roles, so manifests, code and pages agree on one spelling.

/// `namespace/name`, or `name` when the namespace is empty.
pub fn qualified(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_string()
    } else {
        format!("{namespace}/{name}")
    }
}

/// `ClusterRole/name` or `Role/namespace/name`: how roles are named across the model.
pub fn role_key(kind: &str, namespace: &str, name: &str) -> String {
    if kind == "Role" && !namespace.is_empty() {
        format!("Role/{namespace}/{name}")
    } else {
        format!("{kind}/{name}")
    }
}

#[cfg(test)]
mod tests;
