//! Per-file facts of status conditions (`conditions`): where conditions are set, condition
//! sets and the objects they are for, and typed constants.

use crate::consts::ConstExpr;
use crate::types::{FuncRef, TypeRef, ValueType};

/// What one file contributes.
#[derive(Debug, Default, Clone)]
pub struct ConditionFacts {
    pub sets: Vec<RawCondition>,
    /// `var X = apis.NewLivingConditionSet(…)` declarations.
    pub condition_sets: Vec<RawConditionSet>,
    /// `X.Manage(h)` and `GetConditionSet() { return X }`: the objects set `X` is for.
    pub set_uses: Vec<(String, ValueType)>,
    /// Constants declared with a type (`const Ready ConditionType = "Ready"`).
    pub typed_consts: Vec<(String, TypeRef)>,
}

/// The condition type as written.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeExpr {
    Const(ConstExpr),
    /// A parameter of the function: its callers say which type.
    Param,
    /// Anything else, as written.
    Other(String),
}

/// One place a condition is set, unresolved.
#[derive(Debug, Clone, PartialEq)]
pub struct RawCondition {
    pub func: FuncRef,
    pub line: u32,
    pub condition_type: TypeExpr,
    /// The type constant must be declared with a `…ConditionType` type (a project helper
    /// whose name alone does not say it sets conditions).
    pub typed_only: bool,
    pub status: Vec<&'static str>,
    pub reasons: Vec<ConstExpr>,
    /// What the condition may belong to: the object, its status, or (for a literal handed
    /// to a call) each other argument and the receiver.
    pub holders: Vec<ValueType>,
    /// A known setter (`SetStatusCondition`, a Knative manager): a row even when the
    /// object's kind is not established.
    pub setter: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawConditionSet {
    pub name: String,
    pub batch: bool,
    pub dependents: Vec<Option<ConstExpr>>,
    pub line: u32,
}
