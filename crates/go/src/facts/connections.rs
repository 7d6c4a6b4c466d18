//! Per-file facts of external connections (`connections`): connecting calls with their
//! targets as written, and the variables flags are bound to.

use crate::consts::ConstExpr;

/// A connection's target as one file tells it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawTarget {
    /// A string constant expression (evaluated per project).
    Const(ConstExpr),
    /// The constant start of a longer string.
    Prefix(ConstExpr),
    /// `os.Getenv(NAME)`.
    Env(ConstExpr),
    /// A flag registration's value, held in a local (`p := flag.String(…)`; `*p`): the
    /// registration's line in this file.
    FlagAt(u32, String),
    /// A package-level variable or a field (`redisAddr`, `opts.Addr`) that may be bound to
    /// a flag: its text, and the function it is local to (None for a package-level root).
    Var(String, Option<usize>, ConstExpr),
    /// Each address of a `[]string` literal.
    Items(Vec<RawTarget>),
    Unresolved(String),
    Library,
}

/// One connecting call.
#[derive(Debug, Clone, PartialEq)]
pub struct RawConnection {
    pub line: u32,
    /// The enclosing function's index in `GoFile::call_facts`.
    pub func: usize,
    pub kind: &'static str,
    /// The import path as written in the file.
    pub library: String,
    /// `database/sql`'s driver name argument.
    pub driver: Option<RawTarget>,
    pub call: String,
    pub target: RawTarget,
}

/// A variable a flag's value lands in: `fs.StringVar(&x, …)` or `var x = flag.String(…)`.
#[derive(Debug, Clone, PartialEq)]
pub struct FlagVar {
    /// The variable as written (`x`, `o.Addr`).
    pub text: String,
    /// The function it is local to; None for a package-level root.
    pub func: Option<usize>,
    /// The registration's line (the binaries' flag has it as its source).
    pub line: u32,
}

/// What one file contributes to connections.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConnectionFacts {
    pub calls: Vec<RawConnection>,
    pub flag_vars: Vec<FlagVar>,
}
