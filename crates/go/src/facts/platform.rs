//! Per-file facts of feature gates and platform checks (`platform`): gate specs, discovery
//! probes and the calls `if` statements test.

use crate::consts::ConstExpr;

/// A feature gate as one file declares it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawGate {
    pub line: u32,
    pub name: Result<ConstExpr, String>,
    pub default: String,
    pub stage: String,
    pub locked: bool,
    pub version: String,
}

/// What a probe or a tested call is given, as far as the file tells.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckArg {
    Const(ConstExpr),
    /// `q.SchemeGroupVersion.String()` or `q.GroupVersion.String()`: the group/version
    /// the imported API package `q` declares.
    GroupVersionOf(String),
    /// The function's own parameter (or a value derived from it, `gvk.GroupVersion()`),
    /// by position, with the expression.
    Param(usize, String),
    /// A `schema.GroupVersionKind{Group: …, Version: …, Kind: …}` literal.
    Gvk(Vec<GvkPart>),
    Other(String),
}

/// One field of a `GroupVersionKind` literal.
#[derive(Debug, Clone, PartialEq)]
pub enum GvkPart {
    Const(ConstExpr),
    /// `q.GroupVersion.Group` / `q.SchemeGroupVersion.Version` of an imported API package:
    /// (qualifier, true for the group).
    Package(String, bool),
    Other(String),
}

/// A discovery call or a no-kind-match check in a function.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    pub line: u32,
    pub func: usize,
    /// `discovery` or `no-kind-match`.
    pub method: &'static str,
    /// The group/version asked for (`ServerResourcesForGroupVersion(gv)`).
    pub arg: Option<CheckArg>,
    /// API group names (strings with a dot) the function compares values with, for
    /// `ServerGroups()` probes.
    pub compared: Vec<String>,
    /// For `IsNoMatchError(err)`: the line of the call whose result `err` holds, when the
    /// function assigns it once from one call (`err := r.Get(…)`).
    pub err_from: Option<u32>,
}

/// A call an `if` tests, and the lines of the branch it decides.
#[derive(Debug, Clone, PartialEq)]
pub struct TestedCall {
    pub line: u32,
    pub func: usize,
    pub args: Vec<CheckArg>,
    /// The `if` statement's first and last line; None for a call whose result is only
    /// assigned (`r.hasX = check(…)`).
    pub branch: Option<(u32, u32)>,
}

/// What one file contributes to feature gates and platform checks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlatformFacts {
    pub gates: Vec<RawGate>,
    pub probes: Vec<Probe>,
    pub tested: Vec<TestedCall>,
}
