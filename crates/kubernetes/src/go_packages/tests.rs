use super::*;

#[test]
fn the_model_knows_every_kubernetes_group() {
    for (_, group) in K8S_API_GROUPS {
        assert!(model::KUBERNETES_GROUPS.contains(group), "{group}");
    }
}

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

/// Each ecosystem module package (one per API family) names its group and version.
fn assert_group_versions(cases: &[(&str, &str, &str)]) {
    for &(path, group, version) in cases {
        assert_eq!(
            builtin_group_version(path),
            Some((group.to_string(), version.to_string())),
            "{path}"
        );
    }
}

#[test]
fn argo_tekton_crossplane_and_knative_packages_name_their_group() {
    assert_group_versions(&[
        (
            "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1",
            "argoproj.io",
            "v1alpha1",
        ),
        (
            "github.com/argoproj/argo-cd/v2/pkg/apis/application/v1alpha1",
            "argoproj.io",
            "v1alpha1",
        ),
        (
            "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1",
            "argoproj.io",
            "v1alpha1",
        ),
        (
            "github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1",
            "argoproj.io",
            "v1alpha1",
        ),
        (
            "github.com/tektoncd/pipeline/pkg/apis/pipeline/v1",
            "tekton.dev",
            "v1",
        ),
        (
            "github.com/tektoncd/pipeline/pkg/apis/pipeline/v1beta1",
            "tekton.dev",
            "v1beta1",
        ),
        (
            "github.com/tektoncd/triggers/pkg/apis/triggers/v1beta1",
            "triggers.tekton.dev",
            "v1beta1",
        ),
        (
            "github.com/crossplane/crossplane/apis/apiextensions/v1",
            "apiextensions.crossplane.io",
            "v1",
        ),
        (
            "github.com/crossplane/crossplane/v2/apis/pkg/v1",
            "pkg.crossplane.io",
            "v1",
        ),
        (
            "knative.dev/eventing/pkg/apis/eventing/v1",
            "eventing.knative.dev",
            "v1",
        ),
        (
            "knative.dev/eventing/pkg/apis/messaging/v1",
            "messaging.knative.dev",
            "v1",
        ),
        (
            "knative.dev/eventing/pkg/apis/sources/v1",
            "sources.knative.dev",
            "v1",
        ),
    ]);
}

#[test]
fn shared_api_modules_of_other_operators_name_their_group() {
    assert_group_versions(&[
        (
            "knative.dev/networking/pkg/apis/networking/v1alpha1",
            "networking.internal.knative.dev",
            "v1alpha1",
        ),
        (
            "github.com/ray-project/kuberay/ray-operator/apis/ray/v1",
            "ray.io",
            "v1",
        ),
        (
            "github.com/kubernetes-csi/external-snapshotter/client/v8/apis/volumesnapshot/v1",
            "snapshot.storage.k8s.io",
            "v1",
        ),
        (
            "github.com/openshift/api/config/v1",
            "config.openshift.io",
            "v1",
        ),
    ]);
    // A clientset of the module finds the module's API folder.
    assert_eq!(
        module_api_folders("knative.dev/networking/pkg/client/clientset/versioned"),
        vec!["knative.dev/networking/pkg/apis/networking"]
    );
}

#[test]
fn kubernetes_sigs_and_kubevirt_packages_name_their_group() {
    assert_group_versions(&[
        (
            "sigs.k8s.io/kueue/apis/kueue/v1beta1",
            "kueue.x-k8s.io",
            "v1beta1",
        ),
        (
            "sigs.k8s.io/jobset/api/jobset/v1alpha2",
            "jobset.x-k8s.io",
            "v1alpha2",
        ),
        ("kubevirt.io/api/core/v1", "kubevirt.io", "v1"),
        (
            "sigs.k8s.io/cluster-api/api/v1beta1",
            "cluster.x-k8s.io",
            "v1beta1",
        ),
        (
            "sigs.k8s.io/cluster-api/api/core/v1beta2",
            "cluster.x-k8s.io",
            "v1beta2",
        ),
        (
            "sigs.k8s.io/cluster-api/bootstrap/kubeadm/api/v1beta1",
            "bootstrap.cluster.x-k8s.io",
            "v1beta1",
        ),
        (
            "sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta2",
            "controlplane.cluster.x-k8s.io",
            "v1beta2",
        ),
        (
            "sigs.k8s.io/cluster-api/test/infrastructure/docker/api/v1beta1",
            "infrastructure.cluster.x-k8s.io",
            "v1beta1",
        ),
    ]);
}

#[test]
fn flux_and_external_secrets_packages_name_their_group() {
    assert_group_versions(&[
        (
            "github.com/fluxcd/source-controller/api/v1",
            "source.toolkit.fluxcd.io",
            "v1",
        ),
        (
            "github.com/fluxcd/kustomize-controller/api/v1",
            "kustomize.toolkit.fluxcd.io",
            "v1",
        ),
        (
            "github.com/fluxcd/helm-controller/api/v2",
            "helm.toolkit.fluxcd.io",
            "v2",
        ),
        (
            "github.com/fluxcd/notification-controller/api/v1beta3",
            "notification.toolkit.fluxcd.io",
            "v1beta3",
        ),
        (
            "github.com/external-secrets/external-secrets/apis/externalsecrets/v1beta1",
            "external-secrets.io",
            "v1beta1",
        ),
        (
            "github.com/external-secrets/external-secrets/apis/externalsecrets/v1",
            "external-secrets.io",
            "v1",
        ),
    ]);
}

#[test]
fn neighbouring_packages_of_ecosystem_families_stay_unknown() {
    for path in [
        "github.com/crossplane/crossplane/apis/pkg/meta/v1",
        "github.com/crossplane/crossplane/apis/apiextensions/fn/proto/v1",
        "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow",
        "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    ] {
        assert_eq!(builtin_group_version(path), None, "{path}");
    }
}

#[test]
fn groups_no_project_defines_name_who_does() {
    assert_eq!(defined_outside("").as_deref(), Some("Kubernetes"));
    assert_eq!(defined_outside("apps").as_deref(), Some("Kubernetes"));
    assert_eq!(
        defined_outside("apiextensions.k8s.io").as_deref(),
        Some("Kubernetes")
    );
    assert_eq!(
        defined_outside("inference.networking.k8s.io").as_deref(),
        Some("sigs.k8s.io/gateway-api-inference-extension")
    );
    assert_eq!(
        defined_outside("gateway.networking.k8s.io").as_deref(),
        Some("sigs.k8s.io/gateway-api")
    );
    assert_eq!(defined_outside("example.io"), None);
}

#[test]
fn clientsets_of_well_known_modules_find_their_api_folders() {
    assert_eq!(
        module_api_folders("sigs.k8s.io/gateway-api/pkg/client/clientset/versioned"),
        vec![
            "sigs.k8s.io/gateway-api/apis",
            "sigs.k8s.io/gateway-api/apisx"
        ]
    );
    assert_eq!(
        module_api_folders("istio.io/client-go/pkg/clientset/versioned/typed/networking/v1"),
        vec![
            "istio.io/client-go/pkg/apis/networking",
            "istio.io/client-go/pkg/apis/security",
            "istio.io/client-go/pkg/apis/telemetry",
        ]
    );
    assert_eq!(
        module_api_folders("k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"),
        vec!["k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"]
    );
    // A neighbouring module, a module whose name only starts the same, and client-go.
    for unknown in [
        "knative.dev/networking-extra/pkg/client/clientset/versioned",
        "sigs.k8s.io/gateway-api-extra/pkg/client/clientset/versioned",
        "k8s.io/client-go/kubernetes",
    ] {
        assert!(module_api_folders(unknown).is_empty(), "{unknown}");
    }
}
