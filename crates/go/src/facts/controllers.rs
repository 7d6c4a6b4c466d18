//! Per-file facts of controllers (`controllers`): each builder chain with what it watches.

use crate::syntax::ObjectRef;
use crate::types::{Chain, FuncRef};
use model::Relation;

/// One controller builder, with every call made on it.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerChain {
    pub line: u32,
    pub name: Option<String>,
    pub reconciler: Option<String>,
    pub watches: Vec<RawWatch>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawWatch {
    pub relation: Relation,
    pub object: ObjectRef,
    pub conditional: bool,
    /// The guarding condition's text (`syntax::condition_of`), empty when unconditional.
    pub condition: String,
    /// `WatchesRawSource` of something other than a kind's source (see `model::Watch`).
    pub raw_source: bool,
    pub line: u32,
}

/// A method taking work items from a queue its receiver holds in a field:
/// `c.queue.Get()` (client-go's work queues) or `(*c.queues[i]).Pop(…)` (client-go's FIFOs).
/// Whether the field holds a queue is decided per project, from the struct's declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueTake {
    pub receiver: String,
    pub func: String,
    pub field: String,
    pub line: u32,
}

/// `pkg.NewImpl(ctx, r, …)`: Knative's generated constructor of a controller around the
/// reconciler `r` (whose `ReconcileKind` is the controller's reconcile function).
#[derive(Debug, Clone, PartialEq)]
pub struct ImplCall {
    /// The function making the call (where the controller's event handlers are added).
    pub func: FuncRef,
    /// The reconciler argument's value, when it can be followed.
    pub reconciler: Option<Chain>,
    /// The local variable the controller is assigned to (`impl := …`).
    pub local: Option<String>,
    pub line: u32,
}
