//! What the Go analyzers' tests share: files of a module analyzed as the pipeline does,
//! and the module they belong to, so each test states only its sources and its rows.

use super::GoInput;
use super::file::extract;
use super::index::GoModule;

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
