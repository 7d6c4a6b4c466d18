//! The part of controller-runtime's options portolan reads: the import paths, the fields
//! of each options type (`FIELDS`) and how a declared type maps to an options type.

use crate::calls::names_import;
use crate::facts::Import;
use crate::facts::manager::{Leaf, Shape};
use crate::types::TypeRef;

pub(super) const CTRL: &str = "sigs.k8s.io/controller-runtime";

pub(super) const MANAGER: &str = "sigs.k8s.io/controller-runtime/pkg/manager";

pub(super) const CACHE: &str = "sigs.k8s.io/controller-runtime/pkg/cache";

pub(super) const CLIENT: &str = "sigs.k8s.io/controller-runtime/pkg/client";

pub(super) const METRICS_SERVER: &str = "sigs.k8s.io/controller-runtime/pkg/metrics/server";

pub(super) const WEBHOOK: &str = "sigs.k8s.io/controller-runtime/pkg/webhook";

pub(super) enum Field {
    Nested(Shape),
    Leaf(Leaf),
}

/// The fields of each options type that portolan reports (the cache's scope, leader
/// election, serving addresses and ports, timing), from controller-runtime v0.15 to v0.22;
/// the older top-level fields keep their names. Fields not listed (`Scheme`, `Logger`,
/// `TLSOpts`, …) say nothing about the cache, memory or what the manager serves.
pub(super) const FIELDS: &[(Shape, &str, Field)] = &[
    (Shape::Manager, "Cache", Field::Nested(Shape::Cache)),
    (Shape::Manager, "Client", Field::Nested(Shape::Client)),
    (Shape::Manager, "Metrics", Field::Nested(Shape::Metrics)),
    (
        Shape::Manager,
        "WebhookServer",
        Field::Nested(Shape::WebhookServer),
    ),
    (Shape::Manager, "LeaderElection", Field::Leaf(Leaf::Bool)),
    (Shape::Manager, "LeaderElectionID", Field::Leaf(Leaf::Str)),
    (
        Shape::Manager,
        "LeaderElectionNamespace",
        Field::Leaf(Leaf::Str),
    ),
    (
        Shape::Manager,
        "LeaderElectionResourceLock",
        Field::Leaf(Leaf::Str),
    ),
    (
        Shape::Manager,
        "LeaderElectionReleaseOnCancel",
        Field::Leaf(Leaf::Bool),
    ),
    (Shape::Manager, "LeaseDuration", Field::Leaf(Leaf::Duration)),
    (Shape::Manager, "RenewDeadline", Field::Leaf(Leaf::Duration)),
    (Shape::Manager, "RetryPeriod", Field::Leaf(Leaf::Duration)),
    (
        Shape::Manager,
        "HealthProbeBindAddress",
        Field::Leaf(Leaf::Str),
    ),
    (Shape::Manager, "PprofBindAddress", Field::Leaf(Leaf::Str)),
    (
        Shape::Manager,
        "GracefulShutdownTimeout",
        Field::Leaf(Leaf::Duration),
    ),
    // Before v0.16 these were top-level fields.
    (Shape::Manager, "MetricsBindAddress", Field::Leaf(Leaf::Str)),
    (Shape::Manager, "Port", Field::Leaf(Leaf::Int)),
    (Shape::Manager, "Host", Field::Leaf(Leaf::Str)),
    (Shape::Manager, "CertDir", Field::Leaf(Leaf::Str)),
    (Shape::Manager, "SyncPeriod", Field::Leaf(Leaf::Duration)),
    (Shape::Manager, "Namespace", Field::Leaf(Leaf::Str)),
    (Shape::Manager, "NewCache", Field::Leaf(Leaf::Func)),
    (
        Shape::Cache,
        "DefaultNamespaces",
        Field::Nested(Shape::NamespaceMap),
    ),
    (Shape::Cache, "ByObject", Field::Nested(Shape::ByObjectMap)),
    (
        Shape::Cache,
        "DefaultLabelSelector",
        Field::Leaf(Leaf::Selector),
    ),
    (
        Shape::Cache,
        "DefaultFieldSelector",
        Field::Leaf(Leaf::Selector),
    ),
    (
        Shape::Cache,
        "DefaultTransform",
        Field::Leaf(Leaf::Transform),
    ),
    (
        Shape::Cache,
        "DefaultUnsafeDisableDeepCopy",
        Field::Leaf(Leaf::Bool),
    ),
    (Shape::Cache, "SyncPeriod", Field::Leaf(Leaf::Duration)),
    (Shape::Cache, "Namespaces", Field::Leaf(Leaf::Strings)),
    (Shape::ByObject, "Label", Field::Leaf(Leaf::Selector)),
    (Shape::ByObject, "Field", Field::Leaf(Leaf::Selector)),
    (
        Shape::ByObject,
        "Namespaces",
        Field::Nested(Shape::NamespaceMap),
    ),
    (Shape::ByObject, "Transform", Field::Leaf(Leaf::Transform)),
    (
        Shape::ByObject,
        "UnsafeDisableDeepCopy",
        Field::Leaf(Leaf::Bool),
    ),
    (
        Shape::CacheConfig,
        "LabelSelector",
        Field::Leaf(Leaf::Selector),
    ),
    (
        Shape::CacheConfig,
        "FieldSelector",
        Field::Leaf(Leaf::Selector),
    ),
    (
        Shape::CacheConfig,
        "Transform",
        Field::Leaf(Leaf::Transform),
    ),
    (
        Shape::CacheConfig,
        "UnsafeDisableDeepCopy",
        Field::Leaf(Leaf::Bool),
    ),
    (Shape::Client, "Cache", Field::Nested(Shape::ClientCache)),
    (Shape::ClientCache, "DisableFor", Field::Leaf(Leaf::Objects)),
    (Shape::ClientCache, "Unstructured", Field::Leaf(Leaf::Bool)),
    (Shape::Metrics, "BindAddress", Field::Leaf(Leaf::Str)),
    (Shape::Metrics, "SecureServing", Field::Leaf(Leaf::Bool)),
    (Shape::Metrics, "CertDir", Field::Leaf(Leaf::Str)),
    (Shape::Webhook, "Port", Field::Leaf(Leaf::Int)),
    (Shape::Webhook, "Host", Field::Leaf(Leaf::Str)),
    (Shape::Webhook, "CertDir", Field::Leaf(Leaf::Str)),
];

pub(super) fn field(shape: Shape, name: &str) -> Option<&'static Field> {
    FIELDS
        .iter()
        .find(|(s, n, _)| *s == shape && *n == name)
        .map(|(_, _, f)| f)
}

/// The options type a declared type names (a function's first result).
pub(super) fn shape_of(t: &TypeRef, imports: &[Import]) -> Option<Shape> {
    let q = t.qualifier.as_deref()?;
    let is = |path: &str| names_import(imports, q, path);
    Some(match (t.name.as_str(), t.collection) {
        ("Options", false) if is(CTRL) || is(MANAGER) => Shape::Manager,
        ("Options", false) if is(CACHE) => Shape::Cache,
        ("Options", false) if is(CLIENT) => Shape::Client,
        ("CacheOptions", false) if is(CLIENT) => Shape::ClientCache,
        ("Options", false) if is(METRICS_SERVER) => Shape::Metrics,
        ("Options", false) if is(WEBHOOK) => Shape::Webhook,
        ("ByObject", false) if is(CACHE) => Shape::ByObject,
        ("ByObject", true) if is(CACHE) => Shape::ByObjectMap,
        ("Config", false) if is(CACHE) => Shape::CacheConfig,
        ("Config", true) if is(CACHE) => Shape::NamespaceMap,
        _ => return None,
    })
}
