//! Per-file facts of controllers (`controllers`): each builder chain with what it watches.

use crate::syntax::ObjectRef;
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
