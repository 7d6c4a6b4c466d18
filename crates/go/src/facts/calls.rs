//! Per-file facts of the call graph (`calls`): each function's signature, the calls it
//! makes with their arguments, and what it returns.

use crate::consts::ConstExpr;
use crate::types::{Chain, Signature, TypeRef, ValueType};

#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// `F(…)` (same package) or `q.F(…)`; `q` may turn out not to be an import (then the
    /// call stays unresolved).
    Func {
        qualifier: Option<String>,
        name: String,
    },
    Method {
        receiver: Chain,
        name: String,
    },
    /// A call of the function value the caller was given as its parameter (`r(ctx, key)`):
    /// never followed by the graph itself (see `controllers::flow`).
    Param(usize),
}

/// What a call passes, as far as features need to know.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// The calling function's own parameter, by position.
    Param(usize),
    Str(ConstExpr),
    /// A value whose type may be followed: a composite literal, a typed local, a field, a
    /// call's result (what `Graph::argument_flow` reads an object's type from).
    Value(Chain),
    Other,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawCall {
    pub line: u32,
    pub target: Target,
    pub args: Vec<Arg>,
    /// For a call of a function of the same package (`F(…)`, or a method on the receiver):
    /// each argument's type as the file tells it, with the explicit type arguments
    /// (`create[*corev1.Pod](…)`), for helpers whose parameter is the object they write.
    pub same_package: Option<SamePackageArgs>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SamePackageArgs {
    pub values: Vec<ValueType>,
    pub type_args: Vec<Option<TypeRef>>,
}

/// One function or method, or (with an empty `name`) a file's package-level declarations,
/// whose initializers run when the package is linked into a program.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FuncFacts {
    pub name: String,
    pub receiver: Option<String>,
    pub line: u32,
    /// Its parameters and results, to follow arguments and results and to match a method
    /// against an interface's.
    pub signature: Signature,
    pub calls: Vec<RawCall>,
    /// When the first result is declared as a named type that may be an interface (not a
    /// pointer, slice or map: `func newObject(…) client.Object`): what the first value of
    /// each of the function's own `return` statements is (`nil` left out).
    pub returned: Vec<ValueType>,
    /// Early returns on what a receiver's field holds (`if _, ok := r.f.(I); !ok { return }`):
    /// the calls after one run only when that field's value implements `I`.
    pub guards: Vec<Guard>,
    /// Type switches on a parameter (`switch o := obj.(type) { case *A: … }`): a walk that
    /// knows what every caller passes runs only the matching cases.
    pub type_switches: Vec<TypeSwitch>,
}

/// `switch v := p.(type) { … }` on parameter number `param` of the function.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeSwitch {
    pub param: usize,
    pub cases: Vec<TypeCase>,
}

/// One case of a type switch: its types (none for `default`) and its first and last line.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeCase {
    pub types: Vec<TypeRef>,
    /// A type that is not a named type (`nil`, a literal type): the case is always kept.
    pub open: bool,
    pub lines: (u32, u32),
}

/// `if _, ok := recv.field.(I); !ok { return … }`, a statement of the function's body.
#[derive(Debug, Clone, PartialEq)]
pub struct Guard {
    pub field: String,
    pub interface: TypeRef,
    /// The line the `if` ends on: what comes after runs only past the guard.
    pub end: u32,
}

impl FuncFacts {
    pub fn is_top_level(&self) -> bool {
        self.name.is_empty()
    }
}

/// A function of the project, a node of the call graph: which file, and which of that
/// file's functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FuncId {
    /// The file's index in the project's Go inputs.
    pub file: usize,
    /// The function's index in that file's `call_facts`.
    pub func: usize,
}

impl FuncId {
    pub fn new(file: usize, func: usize) -> FuncId {
        FuncId { file, func }
    }
}
