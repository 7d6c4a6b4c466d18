//! Per-file facts of controllers (`controllers`): each builder chain with what it watches.

use crate::facts::calls::{Arg, Target};
use crate::syntax::ObjectRef;
use crate::types::{Chain, FuncRef, TypeRef, ValueType};
use model::Relation;

/// One controller builder, with every call made on it.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerChain {
    pub line: u32,
    pub name: Option<String>,
    pub reconciler: Option<String>,
    /// The reconciler argument's value when its type is not written where it is given
    /// (`r := NewReconciler(…)`): resolved per project to its declared type.
    pub reconciler_value: Option<ValueType>,
    pub watches: Vec<RawWatch>,
    /// The map functions its watches enqueue through
    /// (`handler.EnqueueRequestsFromMapFunc(r.mapFn)`): run by the controller, so what they
    /// reach is its.
    pub map_funcs: Vec<Target>,
    /// Made without a builder: controller-runtime's `controller.Options` given a
    /// `Reconciler` (the controller is made from those options, by `controller.New…`).
    pub options: Option<OptionsEvidence>,
}

/// How a controller made without a builder shows itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OptionsEvidence {
    /// `controller.Options{Reconciler: r}`: the type says it.
    Literal,
    /// `o.Reconciler = r` on a value of another package's type: counted only when `r`
    /// turns out to be a reconciler of the repository.
    Field,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawWatch {
    pub relation: Relation,
    pub object: ObjectRef,
    /// For an object no declaration names: its value, which may still be one of several
    /// known ones (an element of a slice literal, a variable set on branches).
    pub value: Option<ValueType>,
    /// The builder's method (`Owns`), for saying which call is not understood.
    pub method: String,
    pub conditional: bool,
    /// The guarding condition's text (`syntax::condition_of`), empty when unconditional.
    pub condition: String,
    /// `WatchesRawSource` of something other than a kind's source (see `model::Watch`).
    pub raw_source: bool,
    pub line: u32,
}

/// A function taking work items from a queue (`c.queue.Get()` on a field of its receiver
/// (client-go's work queues), `(*c.queues[i]).Pop(…)` (client-go's FIFOs), or `q.Get()`
/// on a parameter), or putting one in (`Add`, `AddRateLimited`, `AddAfter`). Whether the
/// field or parameter holds a queue is decided per project, from its declared type.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueUse {
    pub func: FuncRef,
    pub from: Taken,
    /// True for a put, false for a take.
    pub put: bool,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Taken {
    /// A field of the receiver.
    Field(String),
    /// A parameter, by position.
    Param(usize),
}

/// A struct field given a value that may be a function: `T{field: v}` or `recv.field = v`
/// where `v` is a parameter or a selector (a method value such as `impl.ProcessItem`).
/// A worker calling `c.field(…)` calls whatever the field was given.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldValue {
    /// The function giving the value.
    pub func: FuncRef,
    /// The struct type, as written in the file.
    pub owner: TypeRef,
    pub field: String,
    pub value: Arg,
}

/// `pkg.NewImpl(ctx, r, …)`: Knative's generated constructor of a controller around the
/// reconciler `r` (whose `ReconcileKind` is the controller's reconcile function).
#[derive(Debug, Clone, PartialEq)]
pub struct ImplCall {
    /// The function making the call (where the controller's event handlers are added).
    pub func: FuncRef,
    /// The reconciler argument's value, when it can be followed.
    pub reconciler: Option<Chain>,
    /// The values the function holds the controller in: the local it is assigned to
    /// (`impl := …`), the parameter of the options callback handed to the constructor
    /// (`func(impl *controller.Impl) controller.Options {…}`), and fields or locals given
    /// one of the controller's fields (`c.tracker = impl.Tracker`).
    pub holders: Vec<ImplHolder>,
    /// Knative's generic constructor (`controller.NewContext(ctx, r, …)`): the reconciler
    /// has `Reconcile(ctx, key)`, not a generated reconciler's `ReconcileKind`.
    pub generic: bool,
    /// The package qualifier of the constructor called (`routereconciler` of
    /// `routereconciler.NewImpl`), to find a generated reconciler in the repository.
    pub qualifier: String,
    /// Its options callback returns Knative's `controller.Options{SkipStatusUpdates: true}`:
    /// the generated reconciler then never updates the status.
    pub skips_status_updates: bool,
    pub line: u32,
}

/// A value holding a Knative controller, or one of its fields (`tracker` of `c.tracker`).
#[derive(Debug, Clone, PartialEq)]
pub struct ImplHolder {
    pub root: String,
    pub field: Option<String>,
}

/// A struct type a function builds with a composite literal (`&controller{…}`): event
/// handlers that function adds with a queue feed that type's controller.
#[derive(Debug, Clone, PartialEq)]
pub struct Built {
    pub func: FuncRef,
    pub ty: TypeRef,
}
