//! What a client is: controller-runtime's client package and types and the patch helpers
//! that take a client (which resolution recognizes).

pub(super) const CLIENT_PACKAGE: &str = "sigs.k8s.io/controller-runtime/pkg/client";

pub(super) const CLIENT_TYPES: [&str; 8] = [
    "Client",
    "Writer",
    "Reader",
    "WithWatch",
    "StatusWriter",
    "SubResourceWriter",
    // `c.Status()` / `c.SubResource("status")` of these are status writers.
    "StatusClient",
    "SubResourceClientConstructor",
];

pub(super) const CONTROLLERUTIL: &str =
    "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil";

/// controller-runtime's root package re-exports `CreateOrUpdate` (`ctrl.CreateOrUpdate`).
pub(super) const CONTROLLER_RUNTIME: &str = "sigs.k8s.io/controller-runtime";

/// Patch helpers of other projects whose `Patch(ctx, obj, …)` writes `obj` (object and
/// status) through the client they were made with: (import path, type, constructor).
pub(super) const PATCHERS: &[(&str, &str, &str)] = &[
    (
        "github.com/fluxcd/pkg/runtime/patch",
        "SerialPatcher",
        "NewSerialPatcher",
    ),
    ("github.com/fluxcd/pkg/runtime/patch", "Helper", "NewHelper"),
    ("sigs.k8s.io/cluster-api/util/patch", "Helper", "NewHelper"),
];

/// controller-runtime's client package's functions that make a client.
pub(super) const CLIENT_CONSTRUCTORS: &[&str] = &[
    "New",
    "NewWithWatch",
    "NewNamespacedClient",
    "NewDryRunClient",
    "WithFieldOwner",
    "WithFieldValidation",
];

/// client-go's dynamic client package and its fake.
pub(super) const DYNAMIC_PACKAGES: [&str; 2] =
    ["k8s.io/client-go/dynamic", "k8s.io/client-go/dynamic/fake"];

/// The dynamic client's types, and the functions of its packages that make one.
pub(super) const DYNAMIC_TYPES: [&str; 3] = ["Interface", "DynamicClient", "FakeDynamicClient"];
pub(super) const DYNAMIC_CONSTRUCTORS: [&str; 6] = [
    "NewForConfig",
    "NewForConfigOrDie",
    "NewForConfigAndClient",
    "New",
    "NewSimpleDynamicClient",
    "NewSimpleDynamicClientWithCustomListKinds",
];

/// Functions of other modules that return client-go's dynamic client: (import path,
/// function).
pub(super) const DYNAMIC_GETTERS: &[(&str, &str)] =
    &[("knative.dev/pkg/injection/clients/dynamicclient", "Get")];
