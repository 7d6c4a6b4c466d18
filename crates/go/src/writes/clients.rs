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
