//! Controllers: their watches, client writes and reads, status conditions, and the informers
//! and writes outside any controller.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, Gvk, SourceRef, UNRESOLVED};

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, Default)]
pub struct Controller {
    pub name: String,
    /// The type whose methods reconcile (a controller-runtime reconciler, the struct holding
    /// a work queue, a Knative reconciler).
    pub reconciler: String,
    /// How the controller is built; controller-runtime's builder when absent.
    #[serde(default, skip_serializing_if = "ControllerShape::is_builder")]
    pub shape: ControllerShape,
    /// The functions its reconciling starts from, when they are not the reconciler's
    /// `Reconcile` (a work queue's worker methods, a Knative `ReconcileKind`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
    pub watches: Vec<Watch>,
    /// Client writes this controller's `Reconcile` reaches (through calls across packages).
    #[serde(default)]
    pub operations: Vec<Operation>,
    /// Direct reads (`get`, `list`, `watch` through a client) its `Reconcile` reaches; the
    /// cache's reads for watched kinds are in `watches`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Operation>,
    /// Status condition types its `Reconcile` sets (directly or through the calls it reaches).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<StatusCondition>,
    /// How complete `operations` and `reads` are: the client calls its `Reconcile` reaches
    /// against those resolved to a kind. None when they were not counted (Rust
    /// controllers, models written before the count existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_calls: Option<ClientCalls>,
}

/// Client calls found against client calls resolved. A client call is one call site
/// (file, line, verb) of a client verb (get, list, watch, create, update, patch, apply,
/// delete, delete-all-of, create-or-update, create-or-patch, status writes) whose receiver
/// was shown to be a client; a call on a receiver that could not be shown to be one is not
/// counted. A call is resolved when every row it gives names a kind (not `?`); a
/// project's count also needs each row listed, with a controller or a package.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientCalls {
    /// Client call sites found.
    pub found: usize,
    /// Of those, the ones resolved (`found` minus the `unresolved` entries).
    pub resolved: usize,
    /// The calls not resolved, by file and line, each with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<UnresolvedCall>,
    /// Why the count itself may be short, even with nothing unresolved: a controller's
    /// `Reconcile` was not found (no call was followed) or the walk from it was cut short
    /// (see the diagnostics). Empty when every call it reaches was followed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub incomplete: String,
}

impl ClientCalls {
    /// Every call found was resolved, and the count itself is not cut short.
    pub fn is_complete(&self) -> bool {
        self.unresolved.is_empty() && self.incomplete.is_empty()
    }
}

/// A client call that was not resolved.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct UnresolvedCall {
    pub verb: Verb,
    /// The call first, then where its object's kind was looked for and not found (a
    /// helper's call sites).
    pub sources: Vec<SourceRef>,
    /// Why: the diagnostic's text.
    pub reason: String,
}

/// How a controller is built, which decides where its reconciling starts and what triggers it.
#[derive(
    Serialize,
    Deserialize,
    JsonSchema,
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
)]
#[serde(rename_all = "snake_case")]
pub enum ControllerShape {
    /// controller-runtime's builder (`ctrl.NewControllerManagedBy`), kube-rs's
    /// `Controller::new`: watches declared on the builder, reconciling in `Reconcile`.
    #[default]
    Builder,
    /// client-go informers whose event handlers fill a work queue a worker method drains.
    WorkQueue,
    /// A Knative reconciler behind a generated `NewImpl`, reconciling in `ReconcileKind`.
    Knative,
}

impl ControllerShape {
    pub fn is_builder(&self) -> bool {
        *self == ControllerShape::Builder
    }

    /// How the shape is said on a page.
    pub fn label(&self) -> &'static str {
        match self {
            ControllerShape::Builder => "controller builder",
            ControllerShape::WorkQueue => "informers and a work queue",
            ControllerShape::Knative => "Knative reconciler",
        }
    }
}

/// One place where Go code sets a status condition of a type known as a constant
/// (`meta.SetStatusCondition`, a `metav1.Condition{Type: …}` literal handed to a setter with
/// the object, a Knative condition manager's `MarkTrue`/`MarkFalse`/`MarkUnknown`, a
/// project helper `x.Status.SetCondition(T, …)` with `T` declared as a `…ConditionType`).
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct StatusCondition {
    /// The condition type (`Ready`).
    #[serde(rename = "type")]
    pub condition_type: String,
    /// The kind whose status holds the condition; `?` (`UNRESOLVED`) when not established.
    pub group: String,
    pub version: String,
    pub kind: String,
    /// The statuses set here (`True`, `False`, `Unknown`), when constant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub status: Vec<String>,
    /// The reasons set here, when constant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
    /// The calls from the controller's `Reconcile` to the function that sets it (see
    /// `Operation::via`); empty for rows outside controllers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<CallStep>,
    /// For a row no controller reaches: the package and function that sets it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub function: String,
}

/// A Knative condition set declared for a kind (`apis.NewLivingConditionSet(A, B)`): the
/// happy condition (`Ready`, or `Succeeded` for a batch set) is true when every dependent is.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ConditionSet {
    /// The package variable that holds it.
    pub name: String,
    /// The kind whose conditions it manages; `?` when not established.
    pub group: String,
    pub version: String,
    pub kind: String,
    pub happy: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependents: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    For,
    Owns,
    Watches,
    Informer,
}

impl Relation {
    pub fn label(&self) -> &'static str {
        match self {
            Relation::For => "For",
            Relation::Owns => "Owns",
            Relation::Watches => "Watches",
            Relation::Informer => "Informer",
        }
    }
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    pub relation: Relation,
    pub group: String,
    pub version: String,
    pub kind: String,
    /// True when the call only runs on some paths (inside an `if`, `switch` or loop).
    pub conditional: bool,
    /// The guarding condition's text, shortened, when `conditional`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub condition: String,
    /// For an unresolved kind (`group == "?"`): the Go import path it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_path: Option<String>,
    /// A raw event source other than a kind's (`WatchesRawSource(source.Channel(…))`, a
    /// cache's source of another cluster): what it delivers is decided by its code, so its
    /// "kind" is the source expression and it is never resolved.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub raw_source: bool,
    pub sources: Vec<SourceRef>,
}

impl Watch {
    /// A watch made without a condition or a raw source (an informer, an event handler).
    pub fn unconditional(
        relation: Relation,
        (group, version, kind): (&str, &str, &str),
        sources: Vec<SourceRef>,
    ) -> Watch {
        Watch {
            relation,
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
            conditional: false,
            condition: String::new(),
            import_path: None,
            raw_source: false,
            sources,
        }
    }

    pub fn gvk(&self) -> Gvk {
        Gvk {
            group: self.group.clone(),
            version: self.version.clone(),
            kind: self.kind.clone(),
        }
    }

    pub fn is_resolved(&self) -> bool {
        self.group != UNRESOLVED
    }

    /// An unresolved watch whose kind is chosen at run time by design: an
    /// `unstructured.Unstructured` or `metav1.PartialObjectMetadata` object, or a raw
    /// source.
    pub fn is_dynamic(&self) -> bool {
        !self.is_resolved()
            && (self.raw_source
                || matches!(
                    (self.import_path.as_deref(), self.kind.as_str()),
                    (Some(DYNAMIC_PACKAGE), _) | (Some(METAV1_PACKAGE), "PartialObjectMetadata")
                ))
    }
}

/// The package of `unstructured.Unstructured`.
pub const DYNAMIC_PACKAGE: &str = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured";
/// The package of `metav1.PartialObjectMetadata`.
pub const METAV1_PACKAGE: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";

/// What a client call does to an object, as the model spells it (`create`, `status_patch`,
/// …). Variants are in the order of their spelling, so rows sort as their text does.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    /// A server-side apply patch.
    Apply,
    Create,
    /// controller-runtime's `CreateOrPatch`: get, then create or patch.
    CreateOrPatch,
    /// controller-runtime's `CreateOrUpdate`: get, then create or update.
    CreateOrUpdate,
    Delete,
    DeleteAllOf,
    Get,
    List,
    Patch,
    /// A patch of the `status` subresource.
    StatusPatch,
    /// An update of the `status` subresource.
    StatusUpdate,
    Update,
    Watch,
}

impl Verb {
    /// The model's spelling, as in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Apply => "apply",
            Verb::Create => "create",
            Verb::CreateOrPatch => "create_or_patch",
            Verb::CreateOrUpdate => "create_or_update",
            Verb::Delete => "delete",
            Verb::DeleteAllOf => "delete_all_of",
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Patch => "patch",
            Verb::StatusPatch => "status_patch",
            Verb::StatusUpdate => "status_update",
            Verb::Update => "update",
            Verb::Watch => "watch",
        }
    }

    /// A read (`get`, `list`, `watch`), not a write.
    pub fn is_read(self) -> bool {
        matches!(self, Verb::Get | Verb::List | Verb::Watch)
    }
}

impl std::fmt::Display for Verb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub verb: Verb,
    pub group: String,
    pub version: String,
    pub kind: String,
    pub sources: Vec<SourceRef>,
    /// The calls from the controller's `Reconcile` to the function that makes this call,
    /// outermost first; empty when it is made in `Reconcile` itself or outside controllers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<CallStep>,
    /// The guarding condition where the call is made (`if`/`switch`/loop text, shortened);
    /// empty when it runs unconditionally in its function.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub condition: String,
}

/// One call on the way from a controller's `Reconcile` to a write or read: the function
/// called (`pkg.Type.Method` or `pkg.Func`) and where the call is written.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct CallStep {
    pub function: String,
    pub file: String,
    pub line: u32,
}

/// An informer watch outside any controller: attributed to its package and function.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct PackageInformer {
    pub package: String,
    pub function: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A client write outside any controller's reach: attributed to its package and function.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct PackageOperation {
    pub package: String,
    pub function: String,
    pub verb: Verb,
    pub group: String,
    pub version: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}
