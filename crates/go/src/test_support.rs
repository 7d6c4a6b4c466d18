//! What the Go analyzers' tests share: their files analyzed as the pipeline does, the
//! module they belong to and its package index, so each test states only its sources and
//! its rows.

use std::collections::BTreeMap;

use model::Diagnostic;

use super::file::extract;
use super::index::{GoIndex, GoModule};
use super::{GoFindings, GoInput};

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

/// The files of a multi-file fixture, in order: each starts after a line `//- PATH` and
/// runs to the next such line (lines before the first belong to no file).
pub fn fixture(text: &str) -> Vec<(&str, &str)> {
    let mut files = Vec::new();
    let mut open: Option<(&str, usize)> = None;
    let mut at = 0;
    while at < text.len() {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
        if let Some(path) = text[at..end].trim_end().strip_prefix("//- ") {
            if let Some((file, start)) = open.take() {
                files.push((file, &text[start..at]));
            }
            open = Some((path.trim(), end));
        }
        at = end;
    }
    if let Some((file, start)) = open {
        files.push((file, &text[start..]));
    }
    files
}

/// A multi-file fixture (see `fixture`) resolved as the pipeline resolves a project's Go:
/// its `go.mod` gives the module, its `.go` files are extracted and classified. Returns
/// what resolution found, and every diagnostic (the files' own and resolution's, sorted).
pub fn resolve_fixture(text: &str) -> (GoFindings, Vec<Diagnostic>) {
    let files = fixture(text);
    let module_path = files
        .iter()
        .find(|(path, _)| *path == "go.mod")
        .and_then(|(_, text)| super::index::module_path(text))
        .unwrap_or_default();
    let go_files: Vec<(&str, &str)> = files
        .into_iter()
        .filter(|(path, _)| path.ends_with(".go"))
        .collect();
    let mut inputs = inputs(&go_files);
    let mut diagnostics: Vec<Diagnostic> = inputs
        .iter_mut()
        .flat_map(|i| std::mem::take(&mut i.facts.diagnostics))
        .collect();
    let found = super::resolve(
        &inputs,
        &[module(&module_path)],
        &BTreeMap::new(),
        &[],
        &mut diagnostics,
    );
    // As `analyze::assemble` gives them.
    diagnostics.sort();
    diagnostics.dedup();
    (found, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixture_splits_at_its_path_lines() {
        let files =
            fixture("ignored\n//- go.mod\nmodule m\n//- a/b.go\npackage b\n\nfunc F() {}\n");
        assert_eq!(
            files,
            [
                ("go.mod", "module m\n"),
                ("a/b.go", "package b\n\nfunc F() {}\n")
            ]
        );
    }
}
