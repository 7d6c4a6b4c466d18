//! Per-file facts of client writes and reads (`writes`): each function's client calls with
//! the object and the client as written.

use super::gvr::Gvr;
use crate::consts::ConstExpr;
use crate::types::{FuncRef, TypeRef, ValueType};
use model::Verb;

/// The writes and reads of one function.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncFacts {
    pub func: FuncRef,
    /// Client writes and reads made in this function.
    pub writes: Vec<RawWrite>,
    /// The index of this function's entry in `GoFile::call_facts` (the call graph's node).
    pub call_fact: usize,
}

/// A client call that writes or reads (`get`, `list`, `watch`: `Verb::is_read`).
#[derive(Debug, Clone, PartialEq)]
pub struct RawWrite {
    pub verb: Verb,
    pub object: WriteObject,
    pub client: ClientRef,
    pub line: u32,
    /// The guarding condition in its function (`syntax::condition_of`), or empty.
    pub condition: String,
    /// What a typed client's call writes besides the resource itself.
    pub subresource: Option<Subresource>,
}

/// The subresource a typed client's call writes.
#[derive(Debug, Clone, PartialEq)]
pub enum Subresource {
    /// `Patch(ctx, name, pt, data, opts, subresource)`: the subresource argument as written
    /// (`"status"` makes the patch a `status_patch`).
    Named(ConstExpr),
    /// client-go's `Pods(ns).Evict…(ctx, eviction)`: a `create` of a `policy` `Eviction` of
    /// this version (the `pods/eviction` subresource).
    Eviction(&'static str),
}

/// What is written.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteObject {
    Value(ValueType),
    /// A typed clientset call: the clientset (`cs` in `cs.CoreV1()…`), the group/version
    /// accessor (`CoreV1`) and resource accessor (`ConfigMaps`), used when the object itself
    /// says nothing (e.g. `Delete(ctx, name, …)`).
    Clientset {
        root: ValueType,
        group_version: String,
        resource: String,
        object: Option<ValueType>,
    },
    /// A dynamic-client call `root.Resource(gvr)[.Namespace(ns)].Verb(…)`: the client and
    /// the resource, or the argument as written when it is no GroupVersionResource
    /// expression.
    Dynamic {
        root: ValueType,
        gvr: Result<Gvr, String>,
    },
    /// A call on a value that may be a client-gen typed client (`ClientRef::TypedValue`):
    /// `receiver.Create(…)` (accessor None) or `receiver.Secrets(ns).Create(…)`; the
    /// object argument, if the method takes one.
    Typed {
        receiver: ValueType,
        accessor: Option<String>,
        object: Option<ValueType>,
    },
}

/// Why the receiver of a write is believed to be a controller-runtime client.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientRef {
    /// A parameter or variable of this declared type.
    Typed(TypeRef),
    /// The method receiver, whose struct type may embed a client.
    Embedded(String),
    /// `recv.Field` on a struct type of this package.
    Field { owner: String, field: String },
    /// `mgr.GetClient()`: a client by construction.
    Known,
    /// `q.CreateOrUpdate(…)` where `q` must turn out to be controllerutil.
    ControllerUtil(String),
    /// A typed clientset accessor chain: a client by construction.
    Clientset,
    /// A value whose declared type (or the chain it was assigned from) must turn out to be
    /// a client-gen typed client (`Values::typed_call_kind`; `WriteObject::Typed` holds it).
    TypedValue,
    /// A dynamic-client chain: a client if its root (`WriteObject::Dynamic`) is shown to be
    /// client-go's dynamic client.
    Dynamic,
    /// A package-level variable (`kc`, or `plugin.Client` of another package of the
    /// repository), a client if it is declared with a client type.
    PackageVar {
        qualifier: Option<String>,
        name: String,
    },
    /// The result of `qualifier.name(…)`, a client if that is a known constructor of one
    /// (`patch.NewSerialPatcher(obj, c)`, see `PATCHERS`).
    Constructed { qualifier: String, name: String },
}
