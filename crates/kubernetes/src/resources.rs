//! Kinds and their API resource names (plurals), in both directions.
//!
//! Stage: leaf, used by `link` and the RBAC-versus-code comparison. RBAC rules and webhook
//! rules name resources (`deployments`, `inferencepools/status`), code names kinds
//! (`Deployment`). A plural is known only from a CRD, from a `+kubebuilder:resource:path=`
//! marker, or from the built-in table of well-known resources below; it is never derived
//! from the kind's spelling, because Kubernetes' own plurals do not follow one rule
//! (`endpoints`, `ingresses`, `networkpolicies`).

use std::collections::BTreeMap;

use model::Project;

/// Well-known resources: (group, plural, kind). Official names from the Kubernetes API and
/// the API modules portolan's Go analyzer knows (see `analyze/go/kinds.rs`).
const WELL_KNOWN: &[(&str, &str, &str)] = &[
    ("", "configmaps", "ConfigMap"),
    ("", "endpoints", "Endpoints"),
    ("", "events", "Event"),
    ("", "limitranges", "LimitRange"),
    ("", "namespaces", "Namespace"),
    ("", "nodes", "Node"),
    ("", "persistentvolumeclaims", "PersistentVolumeClaim"),
    ("", "persistentvolumes", "PersistentVolume"),
    ("", "pods", "Pod"),
    ("", "podtemplates", "PodTemplate"),
    ("", "replicationcontrollers", "ReplicationController"),
    ("", "resourcequotas", "ResourceQuota"),
    ("", "secrets", "Secret"),
    ("", "serviceaccounts", "ServiceAccount"),
    ("", "services", "Service"),
    (
        "admissionregistration.k8s.io",
        "mutatingwebhookconfigurations",
        "MutatingWebhookConfiguration",
    ),
    (
        "admissionregistration.k8s.io",
        "validatingwebhookconfigurations",
        "ValidatingWebhookConfiguration",
    ),
    (
        "apiextensions.k8s.io",
        "customresourcedefinitions",
        "CustomResourceDefinition",
    ),
    ("apps", "controllerrevisions", "ControllerRevision"),
    ("apps", "daemonsets", "DaemonSet"),
    ("apps", "deployments", "Deployment"),
    ("apps", "replicasets", "ReplicaSet"),
    ("apps", "statefulsets", "StatefulSet"),
    ("authentication.k8s.io", "tokenreviews", "TokenReview"),
    (
        "authorization.k8s.io",
        "subjectaccessreviews",
        "SubjectAccessReview",
    ),
    (
        "autoscaling",
        "horizontalpodautoscalers",
        "HorizontalPodAutoscaler",
    ),
    ("batch", "cronjobs", "CronJob"),
    ("batch", "jobs", "Job"),
    ("cert-manager.io", "certificates", "Certificate"),
    ("cert-manager.io", "clusterissuers", "ClusterIssuer"),
    ("cert-manager.io", "issuers", "Issuer"),
    ("coordination.k8s.io", "leases", "Lease"),
    ("discovery.k8s.io", "endpointslices", "EndpointSlice"),
    ("events.k8s.io", "events", "Event"),
    (
        "gateway.networking.k8s.io",
        "gatewayclasses",
        "GatewayClass",
    ),
    ("gateway.networking.k8s.io", "gateways", "Gateway"),
    ("gateway.networking.k8s.io", "grpcroutes", "GRPCRoute"),
    ("gateway.networking.k8s.io", "httproutes", "HTTPRoute"),
    (
        "gateway.networking.k8s.io",
        "referencegrants",
        "ReferenceGrant",
    ),
    (
        "inference.networking.k8s.io",
        "inferencepools",
        "InferencePool",
    ),
    (
        "inference.networking.x-k8s.io",
        "inferenceobjectives",
        "InferenceObjective",
    ),
    (
        "inference.networking.x-k8s.io",
        "inferencepools",
        "InferencePool",
    ),
    (
        "leaderworkerset.x-k8s.io",
        "leaderworkersets",
        "LeaderWorkerSet",
    ),
    ("monitoring.coreos.com", "podmonitors", "PodMonitor"),
    ("monitoring.coreos.com", "servicemonitors", "ServiceMonitor"),
    ("networking.istio.io", "destinationrules", "DestinationRule"),
    ("networking.istio.io", "virtualservices", "VirtualService"),
    ("networking.k8s.io", "ingressclasses", "IngressClass"),
    ("networking.k8s.io", "ingresses", "Ingress"),
    ("networking.k8s.io", "networkpolicies", "NetworkPolicy"),
    ("policy", "poddisruptionbudgets", "PodDisruptionBudget"),
    (
        "rbac.authorization.k8s.io",
        "clusterrolebindings",
        "ClusterRoleBinding",
    ),
    ("rbac.authorization.k8s.io", "clusterroles", "ClusterRole"),
    ("rbac.authorization.k8s.io", "rolebindings", "RoleBinding"),
    ("rbac.authorization.k8s.io", "roles", "Role"),
    ("route.openshift.io", "routes", "Route"),
    (
        "autoscaling.internal.knative.dev",
        "podautoscalers",
        "PodAutoscaler",
    ),
    ("autoscaling.internal.knative.dev", "metrics", "Metric"),
    ("caching.internal.knative.dev", "images", "Image"),
    (
        "networking.internal.knative.dev",
        "certificates",
        "Certificate",
    ),
    (
        "networking.internal.knative.dev",
        "clusterdomainclaims",
        "ClusterDomainClaim",
    ),
    ("networking.internal.knative.dev", "ingresses", "Ingress"),
    (
        "networking.internal.knative.dev",
        "serverlessservices",
        "ServerlessService",
    ),
    ("serving.knative.dev", "configurations", "Configuration"),
    ("serving.knative.dev", "revisions", "Revision"),
    ("serving.knative.dev", "routes", "Route"),
    ("serving.knative.dev", "services", "Service"),
];

/// The kind of a well-known resource (`apps`, `statefulsets` → `StatefulSet`), for code
/// that names resources (a `GroupVersionResource`) rather than kinds.
pub fn well_known_kind(group: &str, plural: &str) -> Option<&'static str> {
    WELL_KNOWN
        .iter()
        .find(|(g, p, _)| *g == group && *p == plural)
        .map(|(_, _, k)| *k)
}

/// The well-known kind of `group` whose name in lower case is `lower` (`deployment` →
/// `Deployment`), for code that names kinds in lower case (package paths).
pub fn well_known_kind_named(group: &str, lower: &str) -> Option<&'static str> {
    WELL_KNOWN
        .iter()
        .find(|(g, _, k)| *g == group && k.to_ascii_lowercase() == lower)
        .map(|(_, _, k)| *k)
}

/// Whether `kind` is a well-known kind of `group` (the built-in table).
pub fn is_well_known_kind(group: &str, kind: &str) -> bool {
    WELL_KNOWN.iter().any(|(g, _, k)| *g == group && *k == kind)
}

/// Kind ↔ plural for every group portolan knows of in one portal.
#[derive(Default, Debug)]
pub struct ResourceNames {
    kinds: BTreeMap<(String, String), String>,
    plurals: BTreeMap<(String, String), String>,
}

impl ResourceNames {
    /// The built-in table, then every project's CRDs and API types with a written plural.
    pub fn new(projects: &[Project]) -> ResourceNames {
        let mut names = ResourceNames::default();
        for (group, plural, kind) in WELL_KNOWN {
            names.add(group, plural, kind);
        }
        for p in projects {
            for c in p.findings.crds.iter().filter(|c| !c.plural.is_empty()) {
                names.add(&c.group, &c.plural, &c.kind);
            }
            for t in p.findings.api_types.iter().filter(|t| !t.plural.is_empty()) {
                names.add(&t.group, &t.plural, &t.kind);
            }
        }
        names
    }

    /// The first name recorded wins, so a repository cannot rename a built-in resource.
    fn add(&mut self, group: &str, plural: &str, kind: &str) {
        self.kinds
            .entry((group.to_string(), plural.to_string()))
            .or_insert_with(|| kind.to_string());
        self.plurals
            .entry((group.to_string(), kind.to_string()))
            .or_insert_with(|| plural.to_string());
    }

    /// The kind of `resource` (a plural, maybe with `/subresource`) in `group`.
    pub fn kind_of(&self, group: &str, resource: &str) -> Option<&str> {
        let plural = resource.split('/').next().unwrap_or(resource);
        self.kinds
            .get(&(group.to_string(), plural.to_string()))
            .map(String::as_str)
    }

    /// The plural of `kind` in `group`.
    pub fn plural_of(&self, group: &str, kind: &str) -> Option<&str> {
        self.plurals
            .get(&(group.to_string(), kind.to_string()))
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests;
