//! What the Go analyzers' tests share: their files analyzed as the pipeline does, the
//! module they belong to and its package index, so each test states only its sources and
//! its rows.

use std::collections::BTreeMap;

use model::Diagnostic;

use super::GoInput;
use super::file::extract;
use super::index::{GoIndex, GoModule};

/// Each `(path, source)` extracted and classified as the walker would (a path under
/// `test/` or `docs/` is in that area).
pub fn inputs(files: &[(&str, &str)]) -> Vec<GoInput> {
    files
        .iter()
        .map(|(path, src)| GoInput {
            facts: extract(path, src),
            area: source::walk::classify(path),
        })
        .collect()
}

/// The one module at the repository's root, with import path `path`.
pub fn module(path: &str) -> GoModule {
    GoModule {
        dir: String::new(),
        path: path.into(),
        controller_runtime: None,
    }
}

/// The package index of `files` as the pipeline builds it: one module at the root with
/// import path `module_path`, no `[groups]` of projects.toml.
pub fn index<'a>(
    files: &'a [GoInput],
    module_path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> GoIndex<'a> {
    static NO_GROUPS: BTreeMap<String, String> = BTreeMap::new();
    GoIndex::build(files, &[module(module_path)], &NO_GROUPS, diagnostics)
}
