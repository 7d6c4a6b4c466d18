//! Per-file facts of cobra command trees: command literals, how code names them, and
//! `AddCommand` edges.

use crate::consts::ConstExpr;

/// One `cobra.Command` literal.
#[derive(Debug, Clone, PartialEq)]
pub struct CobraCommand {
    pub line: u32,
    /// The enclosing function (or package-level entry) in `GoFile::call_facts`.
    pub func: usize,
    /// The variable it is assigned to (`cmd := &cobra.Command{…}`), if any.
    pub var: Option<String>,
    /// True for a package-level `var rootCmd = &cobra.Command{…}`.
    pub package_level: bool,
    /// True when the function returns it (directly or through its variable).
    pub returned: bool,
    pub use_: Option<ConstExpr>,
    pub short: Option<ConstExpr>,
}

/// How code names a command.
#[derive(Debug, Clone, PartialEq)]
pub enum CmdRef {
    /// A variable: local to the function, or package-level.
    Var(String),
    /// The result of `F(…)`/`pkg.F(…)`: the command literal `F` returns.
    Call(Option<String>, String),
    /// A literal written in place, by its line in the same file.
    Literal(u32),
}

/// `parent.AddCommand(children…)`.
#[derive(Debug, Clone, PartialEq)]
pub struct AddCommand {
    pub line: u32,
    pub func: usize,
    pub parent: CmdRef,
    pub children: Vec<CmdRef>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CobraFacts {
    pub commands: Vec<CobraCommand>,
    pub adds: Vec<AddCommand>,
    /// Functions that return another function's command (`cmds := newBare(); …; return
    /// cmds`): (function, the call).
    pub returns: Vec<(usize, CmdRef)>,
}
