//! Per-file facts of informers (`informers`): informer values as written, and what a
//! package's functions say about them beyond one function.

pub use super::gvr::Gvr;
use crate::types::{Chain, FuncRef, TypeRef, ValueType};

#[derive(Debug, Clone, PartialEq)]
pub struct RawInformer {
    pub func: FuncRef,
    pub source: InformerSource,
    pub line: u32,
    /// For an event handler added to the informer: the values the handler mentions, which
    /// tell which controller it enqueues into. Empty for informers obtained elsewhere.
    pub handler: Vec<HandlerRef>,
}

/// A value an event handler expression mentions: `c` in `c.enqueue`, `impl` in
/// `controller.HandleAll(impl.Enqueue)`, `c.rr` when the handler is `c.rr` itself.
#[derive(Debug, Clone, PartialEq)]
pub struct HandlerRef {
    /// The value's chain, when it can be followed (for its type).
    pub chain: Option<Chain>,
    /// The local variable or parameter the value starts from.
    pub root: String,
    /// The field or method selected from it (`Enqueue` in `impl.Enqueue`), if any.
    pub selected: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum InformerSource {
    /// `GetInformer(ctx, obj)`, `source.Kind(cache, obj, …)`, or
    /// `cache.NewSharedIndexInformer(lw, obj, …)`.
    Object(ValueType),
    /// `f.Core().V1().Pods().Informer()`: ("CoreV1", "Pods").
    Factory {
        /// The factory the chain starts from (`f` of `f.Core().V1().Pods()`).
        root: ValueType,
        group_version: String,
        resource: String,
    },
    /// A dynamic-client watch, or a dynamic/metadata/generic informer factory's
    /// `ForResource(gvr)`, of a GroupVersionResource the code spells out.
    Resource(Gvr),
    /// A dynamic-client watch whose resource is not a GroupVersionResource expression.
    Opaque(String),
    /// `pkg.NewThing(…, gvr, …)`: an in-repo function given a GroupVersionResource; an
    /// informer of that resource when the function hands it on to `ForResource`.
    Wrapper {
        qualifier: Option<String>,
        name: String,
        arg: usize,
        gvr: Gvr,
    },
    /// `x.field` of a same-package struct type: whatever the package assigns to the field.
    Field { owner: String, field: String },
    /// A value known only by its Go type (a typed informer interface such as client-go's
    /// `SecretInformer`, or an in-repo interface with a lister of one kind).
    Typed(ValueType),
    /// `x.M()` where `x`'s type is known: the declared result of method `M`.
    Method { base: ValueType, method: String },
    /// `cache.NewSharedInformer(lw, &unstructured.Unstructured{}, …)`: the kind is in the
    /// ListWatch (whose dynamic-client watch is reported itself); the handler adds no row.
    InListWatch,
    /// An event handler added to a value the analyzer cannot follow to an informer.
    Untraced(String),
}

/// What a package's functions say about informer values beyond one function.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InformerFacts {
    /// `x.field = <informer>` (also `x.field, err = …`) where `x` is of a same-package type.
    pub fields: Vec<FieldInformer>,
    /// Functions that hand a GroupVersionResource parameter on.
    pub forwards: Vec<GvrForward>,
    /// First result type of each method of the file's interfaces: (interface, method, type).
    pub methods: Vec<(String, String, TypeRef)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldInformer {
    pub owner: String,
    pub field: String,
    pub source: InformerSource,
}

/// Function `func` passes its parameter `param` (a GroupVersionResource) on to `to`.
#[derive(Debug, Clone, PartialEq)]
pub struct GvrForward {
    pub func: String,
    pub param: usize,
    pub to: Forward,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Forward {
    /// `f.ForResource(…, param)`: an informer factory's informer for it.
    ForResource,
    /// `F(…, param, …)` / `pkg.F(…)` as argument `arg`.
    Call {
        qualifier: Option<String>,
        name: String,
        arg: usize,
    },
}
