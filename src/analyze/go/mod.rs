//! Go analysis with tree-sitter-go.
//!
//! Per file (in the shared pool): `file::extract` parses once and each feature records raw
//! facts. Per project: `index::GoIndex` (modules, packages, imports, constants, declared API
//! groups) resolves them, feature by feature.

pub mod binaries;
pub mod calls;
pub mod consts;
pub mod controllers;
pub mod file;
pub mod index;
pub mod kinds;
pub mod metrics;
pub mod syntax;

use std::collections::BTreeMap;

pub use file::{GoFile, extract};
pub use index::{GoInput, GoModule, module_path};

use crate::model::{ApiPackage, Binary, Controller, Diagnostic, Metric};

/// Everything Go analysis found in one project.
#[derive(Debug, Default)]
pub struct GoFindings {
    pub controllers: Vec<Controller>,
    pub api_packages: Vec<ApiPackage>,
    pub binaries: Vec<Binary>,
    pub metrics: Vec<Metric>,
}

/// Resolves the facts of every Go file of one project.
pub fn resolve(
    files: &[GoInput],
    modules: &[GoModule],
    groups: &BTreeMap<String, String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> GoFindings {
    let index = index::GoIndex::build(files, modules, groups, diagnostics);
    let graph = calls::Graph::build(files, &index);
    GoFindings {
        controllers: controllers::resolve(files, &index, diagnostics),
        api_packages: index.api_packages(),
        binaries: binaries::resolve(files, &index, &graph, diagnostics),
        metrics: metrics::resolve(files, &index, diagnostics),
    }
}
