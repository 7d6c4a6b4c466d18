//! Built-in knowledge of Go API packages whose group/version cannot be read from the repository:
//! Kubernetes' own `k8s.io/api/*` packages and apiextensions. Kept as data, not code.

/// `k8s.io/api/<dir>/<version>` → API group.
const K8S_API_GROUPS: &[(&str, &str)] = &[
    ("admissionregistration", "admissionregistration.k8s.io"),
    ("apiserverinternal", "internal.apiserver.k8s.io"),
    ("apps", "apps"),
    ("authentication", "authentication.k8s.io"),
    ("authorization", "authorization.k8s.io"),
    ("autoscaling", "autoscaling"),
    ("batch", "batch"),
    ("certificates", "certificates.k8s.io"),
    ("coordination", "coordination.k8s.io"),
    ("core", ""),
    ("discovery", "discovery.k8s.io"),
    ("events", "events.k8s.io"),
    ("extensions", "extensions"),
    ("flowcontrol", "flowcontrol.apiserver.k8s.io"),
    ("imagepolicy", "imagepolicy.k8s.io"),
    ("networking", "networking.k8s.io"),
    ("node", "node.k8s.io"),
    ("policy", "policy"),
    ("rbac", "rbac.authorization.k8s.io"),
    ("resource", "resource.k8s.io"),
    ("scheduling", "scheduling.k8s.io"),
    ("storage", "storage.k8s.io"),
    ("storagemigration", "storagemigration.k8s.io"),
];

/// Other packages with a fixed group/version, by exact import path.
const FIXED_PACKAGES: &[(&str, &str, &str)] = &[
    (
        "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1",
        "apiextensions.k8s.io",
        "v1",
    ),
    (
        "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1",
        "apiextensions.k8s.io",
        "v1beta1",
    ),
    (
        "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1",
        "apiregistration.k8s.io",
        "v1",
    ),
];

/// The (group, version) a well-known Go API package serves, if we know it.
pub fn builtin_group_version(import_path: &str) -> Option<(String, String)> {
    if let Some(rest) = import_path.strip_prefix("k8s.io/api/") {
        let (dir, version) = rest.split_once('/')?;
        if version.contains('/') || !is_version(version) {
            return None;
        }
        let group = K8S_API_GROUPS.iter().find(|(d, _)| *d == dir)?.1;
        return Some((group.to_string(), version.to_string()));
    }
    FIXED_PACKAGES
        .iter()
        .find(|(p, _, _)| *p == import_path)
        .map(|(_, g, v)| (g.to_string(), v.to_string()))
}

/// `v1`, `v1alpha1`, `v2beta3`: a Kubernetes API version string.
pub fn is_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    if tail.is_empty() {
        return true;
    }
    ["alpha", "beta"].iter().any(|stage| {
        tail.strip_prefix(stage)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubernetes_packages() {
        assert_eq!(
            builtin_group_version("k8s.io/api/core/v1"),
            Some(("".into(), "v1".into()))
        );
        assert_eq!(
            builtin_group_version("k8s.io/api/apps/v1"),
            Some(("apps".into(), "v1".into()))
        );
        assert_eq!(
            builtin_group_version("k8s.io/api/networking/v1"),
            Some(("networking.k8s.io".into(), "v1".into()))
        );
        assert_eq!(
            builtin_group_version("k8s.io/api/autoscaling/v2"),
            Some(("autoscaling".into(), "v2".into()))
        );
        assert_eq!(builtin_group_version("k8s.io/api/core/v1/helper"), None);
        assert_eq!(builtin_group_version("k8s.io/api/unknown/v1"), None);
        assert_eq!(
            builtin_group_version("k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"),
            Some(("apiextensions.k8s.io".into(), "v1".into()))
        );
    }

    #[test]
    fn versions() {
        for v in ["v1", "v2", "v1alpha1", "v1beta2", "v10"] {
            assert!(is_version(v), "{v}");
        }
        for v in ["v", "1", "va1", "v1alpha", "v1gamma1", "apps"] {
            assert!(!is_version(v), "{v}");
        }
    }
}
