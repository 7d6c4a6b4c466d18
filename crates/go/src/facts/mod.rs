//! What one Go file contributes to its project's analysis: `GoFile`, the per-file facts
//! every feature reads and writes, and in its submodules (one per feature) the plain data
//! types those facts are made of. Data only: it and its submodules import no feature code
//! (only the shared vocabulary of `consts`, `types` and `syntax`), so `file` (the hub that
//! runs every feature's `extract`) and the features depend on it, and it on no code of
//! theirs: the features never import each other in a circle through it.

pub mod api_docs;
pub mod binaries;
pub mod calls;
pub mod cobra;
pub mod conditions;
pub mod connections;
pub mod controllers;
pub mod flag_default;
pub mod gvr;
pub mod informers;
pub mod library_flags;
pub mod manager;
pub mod markers;
pub mod metrics;
pub mod platform;
pub mod routes;
pub mod webhooks;
pub mod writes;

use std::any::Any;
use std::fmt;

use super::consts::{self, ConstExpr};
use super::types::{InterfaceDecl, StructDecl, TypeRef};
use api_docs::DocDecl;
use binaries::BinaryFacts;
use conditions::ConditionFacts;
use connections::ConnectionFacts;
use controllers::{Built, ControllerChain, FieldValue, ImplCall, QueueUse};
use informers::{InformerFacts, RawInformer};
use manager::ManagerFacts;
use markers::{Marker, TypeMarkers};
use metrics::MetricFacts;
use model::Diagnostic;
use platform::PlatformFacts;
use routes::RouteFacts;
use webhooks::{MethodDecl, WebhookBuilder};

/// What one Go file contributes to its project's analysis.
#[derive(Debug, Default, Clone)]
pub struct GoFile {
    pub path: String,
    pub package: String,
    pub imports: Vec<Import>,
    /// Top-level `const` and `var` string expressions, by name.
    pub consts: Vec<consts::Constant>,
    /// `schema.GroupVersion{Group: …, Version: …}` literals at top level.
    pub group_versions: Vec<GroupVersionDecl>,
    /// `+groupName=` marker in the file's comments.
    pub group_name_marker: Option<String>,
    /// A vendored module's API declarations (`extract_vendored_api`), not the project's code.
    pub vendored: bool,
    pub controllers: Vec<ControllerChain>,
    /// Functions taking work items from a queue, or putting them in (see `controllers`).
    pub queue_uses: Vec<QueueUse>,
    /// Knative `NewImpl(ctx, r, …)` calls.
    pub impl_calls: Vec<ImplCall>,
    /// Struct fields given values that may be functions (see `controllers`).
    pub field_values: Vec<FieldValue>,
    /// The struct types each function builds with composite literals.
    pub built: Vec<Built>,
    /// Every function's calls and candidate client writes (see `writes`).
    pub functions: Vec<writes::FuncFacts>,
    pub informers: Vec<RawInformer>,
    /// Informer values kept in struct fields, GroupVersionResource parameters handed on,
    /// interface method results (see `informers`).
    pub informer_facts: InformerFacts,
    /// Package-level variables given a GroupVersionResource expression.
    pub gvrs: Vec<(String, gvr::Gvr)>,
    /// `ctrl.NewWebhookManagedBy(…)` builders.
    pub webhook_builders: Vec<WebhookBuilder>,
    /// Methods that decide what a webhook builder serves (`Default()`, `Hub()`, …).
    pub webhook_methods: Vec<MethodDecl>,
    /// Package-level kubebuilder markers (`+kubebuilder:rbac`, `+kubebuilder:webhook`).
    pub package_markers: Vec<Marker>,
    /// Type-level kubebuilder markers, by type.
    pub type_markers: Vec<TypeMarkers>,
    /// Functions with their calls, and the file's package-level entry (see `calls`).
    pub call_facts: Vec<calls::FuncFacts>,
    pub structs: Vec<StructDecl>,
    /// Type declarations with their doc comments, for the CRD reference (see `api_docs`).
    pub doc_decls: Vec<DocDecl>,
    /// Interface declarations: their methods, for calls through interfaces, and the types
    /// they embed (a local interface embedding `client.Client` makes its values clients).
    pub interfaces: Vec<InterfaceDecl>,
    /// Types registered under a kind name of their own
    /// (`scheme.AddKnownTypeWithName(gv.WithKind("postgresql"), &Postgresql{})`):
    /// (type, kind).
    pub kind_names: Vec<(String, ConstExpr)>,
    /// Package-level variables declared with a type: (name, type).
    pub typed_vars: Vec<(String, TypeRef)>,
    /// Package-level variables initialized with a struct literal.
    pub var_literals: Vec<crate::types::VarLiteral>,
    pub binaries: BinaryFacts,
    /// Status conditions set, condition sets and typed constants (see `conditions`).
    pub conditions: ConditionFacts,
    /// `NewManager` calls and functions that return manager or cache options.
    pub managers: ManagerFacts,
    pub metrics: MetricFacts,
    pub routes: RouteFacts,
    /// Calls that open external connections, and the variables flags are bound to.
    pub connections: ConnectionFacts,
    /// Feature-gate specs and platform checks (see `platform`).
    pub platform: PlatformFacts,
    /// The facts of the registered extractors (see `extractor`).
    pub extracted: Extracted,
    pub diagnostics: Vec<Diagnostic>,
    pub parse_errors: bool,
    /// Marked `// Code generated … DO NOT EDIT.` (clientsets, informers, deepcopy).
    pub generated: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// The alias as written (`corev1`, `.`, `_`), if any.
    pub alias: Option<String>,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GroupVersionDecl {
    pub group: ConstExpr,
    pub version: ConstExpr,
    pub line: u32,
}

/// The registered extractors' facts of one file, one slot per registered extractor.
#[derive(Default)]
pub struct Extracted(Vec<Option<Box<dyn Facts>>>);

impl Extracted {
    /// The facts in slot `index`, if that extractor kept any.
    pub fn slot(&self, index: usize) -> Option<&dyn Facts> {
        self.0.get(index)?.as_deref()
    }

    /// The first `count` slots, to fill (made empty when missing).
    pub fn slots(&mut self, count: usize) -> &mut [Option<Box<dyn Facts>>] {
        if self.0.len() < count {
            self.0.resize_with(count, || None);
        }
        &mut self.0[..count]
    }
}

impl Clone for Extracted {
    fn clone(&self) -> Self {
        Extracted(
            self.0
                .iter()
                .map(|slot| slot.as_deref().map(Facts::clone_boxed))
                .collect(),
        )
    }
}

impl fmt::Debug for Extracted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

/// An extractor's facts behind the erased slot: `Any` to give them back typed, and the
/// `Clone` and `Debug` that `GoFile` has.
pub trait Facts: Any + fmt::Debug + Send + Sync {
    fn clone_boxed(&self) -> Box<dyn Facts>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone + fmt::Debug + Send + Sync> Facts for T {
    fn clone_boxed(&self) -> Box<dyn Facts> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
