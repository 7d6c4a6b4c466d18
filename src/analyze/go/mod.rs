//! Go analysis with tree-sitter-go.
//!
//! Per file (in the shared pool): `file::extract` parses once and each feature records raw
//! facts. Per project: `index::GoIndex` (modules, packages, imports, constants, declared API
//! groups) resolves them, feature by feature.

pub mod consts;
pub mod controllers;
pub mod file;
pub mod index;
pub mod kinds;
pub mod routes;
pub mod syntax;

use std::collections::BTreeMap;

pub use file::{GoFile, extract};
pub use index::{GoInput, GoModule, module_path};

use crate::model::{ApiPackage, Controller, Diagnostic, HttpEndpoint};

/// Everything Go analysis found in one project.
#[derive(Debug, Default)]
pub struct GoFindings {
    pub controllers: Vec<Controller>,
    pub http_endpoints: Vec<HttpEndpoint>,
    pub api_packages: Vec<ApiPackage>,
}

/// Resolves the facts of every Go file of one project.
pub fn resolve(
    files: &[GoInput],
    modules: &[GoModule],
    groups: &BTreeMap<String, String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> GoFindings {
    let index = index::GoIndex::build(files, modules, groups, diagnostics);
    GoFindings {
        controllers: controllers::resolve(files, &index, diagnostics),
        http_endpoints: routes::resolve(files, &index, diagnostics),
        api_packages: index.api_packages(),
    }
}
