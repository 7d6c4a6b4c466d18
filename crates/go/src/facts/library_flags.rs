//! Per-file facts of libraries that register flags of their own (`library_flags`): the
//! calls that make them do it.

/// A call that makes a library register its flags.
#[derive(Debug, Clone, PartialEq)]
pub struct LibraryUse {
    pub line: u32,
    /// Index of the enclosing function in `GoFile::functions`.
    pub func: usize,
    /// `zap` or `klog`.
    pub library: &'static str,
    /// The default of `zap-devel`: the options' `Development` field, `true`/`false` when
    /// known (a literal, or a declared variable's zero value), else the Go expression.
    pub devel: Result<bool, String>,
    /// For `x.F.BindFlags(…)`: the field `F`, confirmed per project to be declared
    /// `zap.Options` in a struct of the package.
    pub field: Option<String>,
    /// The flag set argument as written when it is not the program's command line
    /// (`nil` for klog, or `flag.CommandLine`): a local flag set whose flags may be copied
    /// selectively, so the library's table is not claimed for the program.
    pub other_flag_set: Option<String>,
}
