//! Analysis: file contents in, model items and diagnostics out.
//!
//! Stage: analyze. Runs once per file in the shared rayon pool (`analyze_file`), then once per
//! project (`assemble`) to resolve what needs the whole repository.
//! **Architecture invariants:** analyzers do no IO (they are handed file contents); they never
//! fail or panic on bad input, they return findings plus diagnostics.

pub mod build;
pub mod go;
pub mod helm;
pub mod kustomize;
pub mod merge;
pub mod rust;
pub mod yaml;

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{
    ApiPackage, ApiType, Area, Binary, Controller, Diagnostic, HttpEndpoint, Metric,
    PackageInformer, PackageOperation,
};

/// Which analyzer a file goes to, decided from its name by the walker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Go,
    GoMod,
    Yaml,
    /// A Helm chart's `values.schema.json` (the only JSON files analyzed).
    ValuesSchema,
    Rust,
    /// A `Cargo.toml`, read for the crate's package name.
    CargoToml,
    /// A Dockerfile, Makefile or `.goreleaser.yaml`, read for the binaries it builds.
    Build,
}

impl FileKind {
    /// The analyzer for a repository-relative path, if any.
    pub fn of(path: &str) -> Option<FileKind> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if build::BuildKind::of(name).is_some() {
            Some(FileKind::Build)
        } else if name == "go.mod" {
            Some(FileKind::GoMod)
        } else if name.ends_with(".go") {
            Some(FileKind::Go)
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            Some(FileKind::Yaml)
        } else if name == "values.schema.json" {
            Some(FileKind::ValuesSchema)
        } else if name.ends_with(".rs") {
            Some(FileKind::Rust)
        } else if name == "Cargo.toml" {
            Some(FileKind::CargoToml)
        } else {
            None
        }
    }
}

/// What one file yielded.
#[derive(Clone)]
pub enum FileFacts {
    Go(Box<go::GoFile>),
    GoMod(Option<go::GoModule>),
    Yaml(Box<yaml::YamlFile>),
    Rust(Box<rust::RustFile>),
    CargoToml(Option<rust::CargoPackage>),
    Build(Box<build::BuildFacts>),
}

/// Analyzes one file's text. Pure: the same input always gives the same facts.
pub fn analyze_file(kind: FileKind, path: &str, text: &str, area: Area) -> FileFacts {
    match kind {
        FileKind::Go => FileFacts::Go(Box::new(go::extract(path, text))),
        FileKind::GoMod => FileFacts::GoMod(go::module_path(text).map(|module| {
            go::GoModule {
                dir: path
                    .rsplit_once('/')
                    .map(|(d, _)| d.to_string())
                    .unwrap_or_default(),
                path: module,
                controller_runtime: go::webhooks::controller_runtime_version(text),
            }
        })),
        FileKind::Yaml => FileFacts::Yaml(Box::new(yaml::analyze(path, text, area))),
        FileKind::ValuesSchema => {
            FileFacts::Yaml(Box::new(yaml::analyze_values_schema(path, text, area)))
        }
        FileKind::Rust => FileFacts::Rust(Box::new(rust::extract(path, text, area))),
        FileKind::CargoToml => FileFacts::CargoToml(rust::cargo_package(path, text)),
        FileKind::Build => FileFacts::Build(Box::new(build::analyze(path, text))),
    }
}

/// A project's findings once every file is analyzed and cross-file references are resolved.
#[derive(Debug, Default)]
pub struct Findings {
    pub controllers: Vec<Controller>,
    /// Manifests, kustomizations and Helm charts, with the webhooks and RBAC rules Go code
    /// and markers declare joined in.
    pub yaml: yaml::YamlFindings,
    pub api_types: Vec<ApiType>,
    pub binaries: Vec<Binary>,
    pub metrics: Vec<Metric>,
    pub http_endpoints: Vec<HttpEndpoint>,
    pub diagnostics: Vec<Diagnostic>,
    pub api_packages: Vec<ApiPackage>,
    pub package_operations: Vec<PackageOperation>,
    pub informers: Vec<PackageInformer>,
}

/// Combines the facts of all files of one project (in path order) into findings.
pub fn assemble(files: Vec<(FileFacts, Area)>, groups: &BTreeMap<String, String>) -> Findings {
    let mut findings = Findings::default();
    let mut go_files = Vec::new();
    let mut modules = Vec::new();
    let mut yaml_files = Vec::new();
    let mut rust_files = Vec::new();
    let mut packages = Vec::new();
    let mut build_names = Vec::new();
    for (facts, area) in files {
        match facts {
            FileFacts::Go(mut f) => {
                findings.diagnostics.append(&mut f.diagnostics);
                go_files.push(go::GoInput { facts: *f, area });
            }
            FileFacts::GoMod(Some(m)) => modules.push(m),
            FileFacts::GoMod(None) => {}
            FileFacts::Yaml(y) => yaml_files.push(*y),
            FileFacts::Rust(mut r) => {
                findings.diagnostics.append(&mut r.diagnostics);
                rust_files.push(*r);
            }
            FileFacts::CargoToml(p) => packages.extend(p),
            FileFacts::Build(mut b) => {
                findings.diagnostics.append(&mut b.diagnostics);
                build_names.append(&mut b.names);
            }
        }
    }
    let go = go::resolve(&go_files, &modules, groups, &mut findings.diagnostics);
    findings.controllers = go.controllers;
    findings.http_endpoints = go.http_endpoints;
    findings.api_packages = go.api_packages;
    findings.package_operations = go.package_operations;
    findings.informers = go.informers;
    findings.api_types = go.api_types;
    findings.binaries = go.binaries;
    build::name_binaries(
        &mut findings.binaries,
        &build_names,
        &mut findings.diagnostics,
    );
    findings.metrics = go.metrics;
    let rust = rust::resolve(&rust_files, &packages, &mut findings.diagnostics);
    findings.controllers.extend(rust.controllers);
    findings.http_endpoints.extend(rust.http_endpoints);
    findings.package_operations.extend(rust.package_operations);
    findings.informers.extend(rust.informers);
    findings.binaries.extend(rust.binaries);
    // A CRD is the project's own when one of its Go API packages declares the group, or
    // its Rust code derives a custom resource in it.
    let own_groups: BTreeSet<String> = findings
        .api_packages
        .iter()
        .map(|p| p.group.clone())
        .chain(
            rust.crds
                .iter()
                .filter(|c| !c.bundled)
                .map(|c| c.group.clone()),
        )
        .collect();
    findings.yaml = yaml::resolve(yaml_files, &own_groups, &mut findings.diagnostics);
    rust::merge_crds(&mut findings.yaml.crds, rust.crds);
    // Webhooks served by code or declared by markers, and RBAC markers, join the manifests'.
    findings.yaml.webhooks.extend(go.webhooks);
    findings.yaml.rbac.extend(go.rbac);
    merge::merge_identical(&mut findings.yaml.webhooks);
    merge::merge_identical(&mut findings.yaml.rbac);
    // Only now are manifests and Go both known: compare webhook markers with both.
    let disagreements = go::markers::check_webhook_paths(
        &findings.yaml.webhooks,
        &findings.yaml.crds,
        &findings.api_types,
    );
    findings.diagnostics.extend(disagreements);
    merge::merge_identical(&mut findings.http_endpoints);
    findings.diagnostics.sort();
    findings.diagnostics.dedup();
    findings
}
