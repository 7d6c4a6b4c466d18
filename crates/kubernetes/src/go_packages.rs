//! Go API packages whose group/version cannot be read from the repository that imports
//! them: Kubernetes' own `k8s.io/api/*` packages, apiextensions, and well-known API modules
//! of other projects. Kept as data, not code; `[groups]` in projects.toml adds more.

use super::is_version;

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
    // Knative's shared API modules (every Knative-based operator imports them).
    (
        "knative.dev/networking/pkg/apis/networking",
        "networking.internal.knative.dev",
    ),
    (
        "knative.dev/caching/pkg/apis/caching",
        "caching.internal.knative.dev",
    ),
    (
        "github.com/cert-manager/cert-manager/pkg/apis/acme",
        "acme.cert-manager.io",
    ),
    // KubeVirt's API groups besides kubevirt.io, and its data importer.
    ("kubevirt.io/api/snapshot", "snapshot.kubevirt.io"),
    ("kubevirt.io/api/export", "export.kubevirt.io"),
    ("kubevirt.io/api/clone", "clone.kubevirt.io"),
    ("kubevirt.io/api/instancetype", "instancetype.kubevirt.io"),
    ("kubevirt.io/api/pool", "pool.kubevirt.io"),
    ("kubevirt.io/api/migrations", "migrations.kubevirt.io"),
    (
        "kubevirt.io/containerized-data-importer-api/pkg/apis/core",
        "cdi.kubevirt.io",
    ),
    // CSI volume snapshots (one module per major version).
    (
        "github.com/kubernetes-csi/external-snapshotter/client/v6/apis/volumesnapshot",
        "snapshot.storage.k8s.io",
    ),
    (
        "github.com/kubernetes-csi/external-snapshotter/client/v7/apis/volumesnapshot",
        "snapshot.storage.k8s.io",
    ),
    (
        "github.com/kubernetes-csi/external-snapshotter/client/v8/apis/volumesnapshot",
        "snapshot.storage.k8s.io",
    ),
    ("k8s.io/metrics/pkg/apis/metrics", "metrics.k8s.io"),
    // OpenShift's API module, one folder per group.
    ("github.com/openshift/api/config", "config.openshift.io"),
    ("github.com/openshift/api/security", "security.openshift.io"),
    ("github.com/openshift/api/image", "image.openshift.io"),
    ("github.com/openshift/api/apps", "apps.openshift.io"),
    ("github.com/openshift/api/operator", "operator.openshift.io"),
    ("github.com/openshift/api/console", "console.openshift.io"),
    ("github.com/openshift/api/build", "build.openshift.io"),
    // Batch workloads that queueing and training operators manage.
    (
        "github.com/ray-project/kuberay/ray-operator/apis/ray",
        "ray.io",
    ),
    (
        "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org",
        "kubeflow.org",
    ),
    (
        "github.com/kubeflow/mpi-operator/pkg/apis/kubeflow",
        "kubeflow.org",
    ),
    (
        "github.com/kubeflow/trainer/v2/pkg/apis/trainer",
        "trainer.kubeflow.org",
    ),
    (
        "github.com/operator-framework/api/pkg/operators",
        "operators.coreos.com",
    ),
    (
        "github.com/kserve/kserve/pkg/apis/serving",
        "serving.kserve.io",
    ),
    ("github.com/envoyproxy/gateway/api", "gateway.envoyproxy.io"),
    (
        "github.com/projectcontour/contour/apis/projectcontour",
        "projectcontour.io",
    ),
    (
        "github.com/vmware-tanzu/velero/pkg/apis/velero",
        "velero.io",
    ),
    // Knative Eventing's other groups (eventing.knative.dev is above).
    (
        "knative.dev/eventing/pkg/apis/messaging",
        "messaging.knative.dev",
    ),
    (
        "knative.dev/eventing/pkg/apis/sources",
        "sources.knative.dev",
    ),
    ("knative.dev/eventing/pkg/apis/flows", "flows.knative.dev"),
    // Argo: Workflows, CD (module majors v2 and v3) and Rollouts share one group.
    (
        "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow",
        "argoproj.io",
    ),
    (
        "github.com/argoproj/argo-cd/v2/pkg/apis/application",
        "argoproj.io",
    ),
    (
        "github.com/argoproj/argo-cd/v3/pkg/apis/application",
        "argoproj.io",
    ),
    (
        "github.com/argoproj/argo-rollouts/pkg/apis/rollouts",
        "argoproj.io",
    ),
    // Tekton Pipelines and Triggers.
    (
        "github.com/tektoncd/pipeline/pkg/apis/pipeline",
        "tekton.dev",
    ),
    (
        "github.com/tektoncd/triggers/pkg/apis/triggers",
        "triggers.tekton.dev",
    ),
    // Crossplane, before and after its v2 module.
    (
        "github.com/crossplane/crossplane/apis/apiextensions",
        "apiextensions.crossplane.io",
    ),
    (
        "github.com/crossplane/crossplane/v2/apis/apiextensions",
        "apiextensions.crossplane.io",
    ),
    (
        "github.com/crossplane/crossplane/apis/pkg",
        "pkg.crossplane.io",
    ),
    (
        "github.com/crossplane/crossplane/v2/apis/pkg",
        "pkg.crossplane.io",
    ),
    // Batch scheduling.
    ("sigs.k8s.io/kueue/apis/kueue", "kueue.x-k8s.io"),
    ("sigs.k8s.io/jobset/api/jobset", "jobset.x-k8s.io"),
    // KubeVirt's core API module.
    ("kubevirt.io/api/core", "kubevirt.io"),
    // Cluster API: the layout before v1.11 (`api/v1beta1`, `exp/api`, `bootstrap/…/api`,
    // `controlplane/…/api`) and after it (everything under `api/<group>/`).
    ("sigs.k8s.io/cluster-api/api", "cluster.x-k8s.io"),
    ("sigs.k8s.io/cluster-api/api/core", "cluster.x-k8s.io"),
    ("sigs.k8s.io/cluster-api/exp/api", "cluster.x-k8s.io"),
    (
        "sigs.k8s.io/cluster-api/bootstrap/kubeadm/api",
        "bootstrap.cluster.x-k8s.io",
    ),
    (
        "sigs.k8s.io/cluster-api/api/bootstrap/kubeadm",
        "bootstrap.cluster.x-k8s.io",
    ),
    (
        "sigs.k8s.io/cluster-api/controlplane/kubeadm/api",
        "controlplane.cluster.x-k8s.io",
    ),
    (
        "sigs.k8s.io/cluster-api/api/controlplane/kubeadm",
        "controlplane.cluster.x-k8s.io",
    ),
    (
        "sigs.k8s.io/cluster-api/api/addons",
        "addons.cluster.x-k8s.io",
    ),
    ("sigs.k8s.io/cluster-api/api/ipam", "ipam.cluster.x-k8s.io"),
    (
        "sigs.k8s.io/cluster-api/test/infrastructure/docker/api",
        "infrastructure.cluster.x-k8s.io",
    ),
    // Flux: one API module per controller.
    (
        "github.com/fluxcd/source-controller/api",
        "source.toolkit.fluxcd.io",
    ),
    (
        "github.com/fluxcd/kustomize-controller/api",
        "kustomize.toolkit.fluxcd.io",
    ),
    (
        "github.com/fluxcd/helm-controller/api",
        "helm.toolkit.fluxcd.io",
    ),
    (
        "github.com/fluxcd/notification-controller/api",
        "notification.toolkit.fluxcd.io",
    ),
    (
        "github.com/fluxcd/image-reflector-controller/api",
        "image.toolkit.fluxcd.io",
    ),
    (
        "github.com/fluxcd/image-automation-controller/api",
        "image.toolkit.fluxcd.io",
    ),
    // External Secrets Operator.
    (
        "github.com/external-secrets/external-secrets/apis/externalsecrets",
        "external-secrets.io",
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

/// Who defines an API group the portal's projects use but none of them defines: Kubernetes
/// itself, or the Go module of a well-known API (`sigs.k8s.io/gateway-api-inference-extension`).
/// None for a group the tables do not know.
pub fn defined_outside(group: &str) -> Option<String> {
    let kubernetes = group.is_empty()
        || K8S_API_GROUPS.iter().any(|(_, g)| *g == group)
        || FIXED_PACKAGES
            .iter()
            .any(|(p, g, _)| *g == group && p.starts_with("k8s.io/"));
    if kubernetes {
        return Some("Kubernetes".into());
    }
    let package = WELL_KNOWN
        .iter()
        .map(|(p, g)| (*p, *g))
        .chain(WELL_KNOWN_EXACT.iter().map(|(p, g, _)| (*p, *g)))
        .find(|(_, g)| *g == group)?
        .0;
    Some(module_of(package).to_string())
}

/// The module of a well-known API package: the path before its API folder (`api`, `apis`,
/// their experimental `apix`/`apisx`, or `pkg/apis`).
fn module_of(package: &str) -> &str {
    let mut end = 0;
    for element in package.split('/') {
        if matches!(element, "api" | "apis" | "apix" | "apisx") && end > 0 {
            return package[..end - 1]
                .strip_suffix("/pkg")
                .unwrap_or(&package[..end - 1]);
        }
        end += element.len() + 1;
    }
    package
}

/// The API package folders (the version is the next path element) of the well-known
/// module that `import_path` is in (a generated clientset of it:
/// `sigs.k8s.io/gateway-api/pkg/client/clientset/versioned` → `sigs.k8s.io/gateway-api/apis`,
/// `…/apisx`). Empty for a package of no module the tables know, and for client-go, whose
/// typed clients serve `k8s.io/api`.
pub fn module_api_folders(import_path: &str) -> Vec<&'static str> {
    let fixed = FIXED_PACKAGES
        .iter()
        .chain(WELL_KNOWN_EXACT)
        .filter_map(|(p, _, _)| p.rsplit_once('/').map(|(folder, _)| folder));
    let mut folders: Vec<&'static str> = WELL_KNOWN
        .iter()
        .map(|(f, _)| *f)
        .chain(fixed)
        .filter(|folder| {
            import_path
                .strip_prefix(module_of(folder))
                .is_some_and(|rest| rest.starts_with('/'))
        })
        .collect();
    folders.sort_unstable();
    folders.dedup();
    folders
}

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

#[cfg(test)]
mod tests;
