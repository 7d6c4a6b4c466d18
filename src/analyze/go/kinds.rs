//! Built-in knowledge of Go API packages whose group/version cannot be read from the
//! repository: Kubernetes' own `k8s.io/api/*` packages, apiextensions, and well-known API
//! modules of other projects. Kept as data, not code; `[groups]` in projects.toml adds more.

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

/// Well-known API modules: a package folder (the version is the last path element after
/// it) → the API group its types belong to.
const WELL_KNOWN: &[(&str, &str)] = &[
    // Gateway API and its experimental channel.
    ("sigs.k8s.io/gateway-api/apis", "gateway.networking.k8s.io"),
    (
        "sigs.k8s.io/gateway-api/apisx",
        "gateway.networking.x-k8s.io",
    ),
    // Gateway API Inference Extension: InferencePool went GA in `inference.networking.k8s.io`
    // (api/v1); the alpha types and the pre-GA InferencePool are `…x-k8s.io`.
    (
        "sigs.k8s.io/gateway-api-inference-extension/api",
        "inference.networking.k8s.io",
    ),
    (
        "sigs.k8s.io/gateway-api-inference-extension/apix",
        "inference.networking.x-k8s.io",
    ),
    (
        "knative.dev/serving/pkg/apis/serving",
        "serving.knative.dev",
    ),
    (
        "knative.dev/serving/pkg/apis/autoscaling",
        "autoscaling.internal.knative.dev",
    ),
    (
        "knative.dev/eventing/pkg/apis/eventing",
        "eventing.knative.dev",
    ),
    (
        "istio.io/client-go/pkg/apis/networking",
        "networking.istio.io",
    ),
    ("istio.io/client-go/pkg/apis/security", "security.istio.io"),
    (
        "istio.io/client-go/pkg/apis/telemetry",
        "telemetry.istio.io",
    ),
    ("github.com/kedacore/keda/v2/apis/keda", "keda.sh"),
    (
        "sigs.k8s.io/lws/api/leaderworkerset",
        "leaderworkerset.x-k8s.io",
    ),
    (
        "github.com/open-telemetry/opentelemetry-operator/apis",
        "opentelemetry.io",
    ),
    (
        "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring",
        "monitoring.coreos.com",
    ),
    ("github.com/openshift/api/route", "route.openshift.io"),
    (
        "github.com/cert-manager/cert-manager/pkg/apis/certmanager",
        "cert-manager.io",
    ),
];

/// Exceptions to `WELL_KNOWN` by exact package: versions whose group differs.
const WELL_KNOWN_EXACT: &[(&str, &str, &str)] = &[
    // Before v1.0 the InferencePool lived in the experimental group under api/v1alpha2.
    (
        "sigs.k8s.io/gateway-api-inference-extension/api/v1alpha2",
        "inference.networking.x-k8s.io",
        "v1alpha2",
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
    if let Some((_, g, v)) = FIXED_PACKAGES
        .iter()
        .chain(WELL_KNOWN_EXACT)
        .find(|(p, _, _)| *p == import_path)
    {
        return Some((g.to_string(), v.to_string()));
    }
    let (folder, version) = import_path.rsplit_once('/')?;
    if !is_version(version) {
        return None;
    }
    WELL_KNOWN
        .iter()
        .find(|(f, _)| *f == folder)
        .map(|(_, g)| (g.to_string(), version.to_string()))
}

/// `v1`, `v1alpha1`, `v2beta3`: a Kubernetes API version string.
/// The API groups of the well-known modules, for naming their generated clientsets'
/// accessors (`GatewayV1()` of `gateway.networking.k8s.io`).
pub fn well_known_groups() -> impl Iterator<Item = &'static str> {
    WELL_KNOWN
        .iter()
        .map(|(_, g)| *g)
        .chain(WELL_KNOWN_EXACT.iter().map(|(_, g, _)| *g))
}

/// Groups whose generated clientset accessor is not named after the group's first label:
/// the module declares another name with `+groupGoName=` (group → name).
const GROUP_GO_NAMES: &[(&str, &str)] = &[("gateway.networking.x-k8s.io", "Experimental")];

/// The name client-gen gives a group's accessor (before the version): `+groupGoName=` if
/// the module declares one, else the group's first label.
pub fn group_go_name(group: &str) -> &str {
    GROUP_GO_NAMES
        .iter()
        .find(|(g, _)| *g == group)
        .map_or_else(|| group.split('.').next().unwrap_or(""), |(_, n)| n)
}

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
    #[test]
    fn the_model_knows_every_kubernetes_group() {
        for (_, group) in super::K8S_API_GROUPS {
            assert!(crate::model::KUBERNETES_GROUPS.contains(group), "{group}");
        }
    }

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
    fn well_known_modules() {
        let gv = |p: &str| builtin_group_version(p);
        assert_eq!(
            gv("sigs.k8s.io/gateway-api/apis/v1"),
            Some(("gateway.networking.k8s.io".into(), "v1".into()))
        );
        assert_eq!(
            gv("sigs.k8s.io/gateway-api-inference-extension/api/v1"),
            Some(("inference.networking.k8s.io".into(), "v1".into()))
        );
        assert_eq!(
            gv("sigs.k8s.io/gateway-api-inference-extension/apix/v1alpha2"),
            Some(("inference.networking.x-k8s.io".into(), "v1alpha2".into()))
        );
        assert_eq!(
            gv("sigs.k8s.io/gateway-api-inference-extension/api/v1alpha2"),
            Some(("inference.networking.x-k8s.io".into(), "v1alpha2".into()))
        );
        assert_eq!(
            gv("knative.dev/serving/pkg/apis/serving/v1"),
            Some(("serving.knative.dev".into(), "v1".into()))
        );
        assert_eq!(
            gv("github.com/kedacore/keda/v2/apis/keda/v1alpha1"),
            Some(("keda.sh".into(), "v1alpha1".into()))
        );
        assert_eq!(
            gv("istio.io/client-go/pkg/apis/networking/v1beta1"),
            Some(("networking.istio.io".into(), "v1beta1".into()))
        );
        // Not API types: duck types and the serving package's helpers.
        assert_eq!(gv("knative.dev/pkg/apis/duck/v1"), None);
        assert_eq!(gv("knative.dev/serving/pkg/apis/serving"), None);
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
