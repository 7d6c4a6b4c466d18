//! Analysis: file contents in, model items and diagnostics out.
//!
//! Stage: analyze. Runs once per file in the shared rayon pool (`analyze_file`), then once per
//! project (`assemble`) to resolve what needs the whole repository.
//! **Architecture invariants:** analyzers do no IO (they are handed file contents); they never
//! fail or panic on bad input, they return findings plus diagnostics.

pub mod go;
pub mod merge;
pub mod yaml;

use std::collections::BTreeMap;

use crate::model::{
    ApiPackage, Area, ConfigMap, Controller, Crd, Diagnostic, HelmChart, HttpEndpoint, RbacRule,
    Service, Webhook,
};

/// Which analyzer a file goes to, decided from its name by the walker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Go,
    GoMod,
    Yaml,
}

impl FileKind {
    /// The analyzer for a repository-relative path, if any.
    pub fn of(path: &str) -> Option<FileKind> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if name == "go.mod" {
            Some(FileKind::GoMod)
        } else if name.ends_with(".go") {
            Some(FileKind::Go)
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            Some(FileKind::Yaml)
        } else {
            None
        }
    }
}

/// What one file yielded.
pub enum FileFacts {
    Go(go::GoFile),
    GoMod(Option<go::GoModule>),
    Yaml(yaml::YamlFindings),
}

/// Analyzes one file's text. Pure: the same input always gives the same facts.
pub fn analyze_file(kind: FileKind, path: &str, text: &str, area: Area) -> FileFacts {
    match kind {
        FileKind::Go => FileFacts::Go(go::extract(path, text)),
        FileKind::GoMod => FileFacts::GoMod(go::module_path(text).map(|module| {
            go::GoModule {
                dir: path
                    .rsplit_once('/')
                    .map(|(d, _)| d.to_string())
                    .unwrap_or_default(),
                path: module,
            }
        })),
        FileKind::Yaml => FileFacts::Yaml(yaml::analyze(path, text, area)),
    }
}

/// A project's findings once every file is analyzed and cross-file references are resolved.
#[derive(Debug, Default)]
pub struct Findings {
    pub controllers: Vec<Controller>,
    pub crds: Vec<Crd>,
    pub webhooks: Vec<Webhook>,
    pub http_endpoints: Vec<HttpEndpoint>,
    pub services: Vec<Service>,
    pub configmaps: Vec<ConfigMap>,
    pub helm_charts: Vec<HelmChart>,
    pub rbac: Vec<RbacRule>,
    pub diagnostics: Vec<Diagnostic>,
    pub api_packages: Vec<ApiPackage>,
}

/// Combines the facts of all files of one project (in path order) into findings.
pub fn assemble(files: Vec<(FileFacts, Area)>, groups: &BTreeMap<String, String>) -> Findings {
    let mut findings = Findings::default();
    let mut go_files = Vec::new();
    let mut modules = Vec::new();
    for (facts, area) in files {
        match facts {
            FileFacts::Go(mut f) => {
                findings.diagnostics.append(&mut f.diagnostics);
                go_files.push(go::GoInput { facts: f, area });
            }
            FileFacts::GoMod(Some(m)) => modules.push(m),
            FileFacts::GoMod(None) => {}
            FileFacts::Yaml(y) => {
                findings.crds.extend(y.crds);
                findings.webhooks.extend(y.webhooks);
                findings.services.extend(y.services);
                findings.configmaps.extend(y.configmaps);
                findings.helm_charts.extend(y.helm_charts);
                findings.rbac.extend(y.rbac);
                findings.diagnostics.extend(y.diagnostics);
            }
        }
    }
    let go = go::resolve(&go_files, &modules, groups, &mut findings.diagnostics);
    findings.controllers = go.controllers;
    findings.http_endpoints = go.http_endpoints;
    findings.api_packages = go.api_packages;
    merge::merge_identical(&mut findings.crds);
    merge::merge_identical(&mut findings.webhooks);
    merge::merge_identical(&mut findings.http_endpoints);
    merge::merge_identical(&mut findings.services);
    merge::merge_identical(&mut findings.configmaps);
    merge::merge_identical(&mut findings.helm_charts);
    merge::merge_identical(&mut findings.rbac);
    findings.diagnostics.sort();
    findings.diagnostics.dedup();
    findings
}
