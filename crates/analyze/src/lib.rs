//! Analysis: file contents in, model items and diagnostics out.
//!
//! Stage: analyze. Runs once per file in the shared rayon pool (`analyze_file`), then once per
//! project (`assemble`) to resolve what needs the whole repository.
//! **Architecture invariants:** analyzers do no IO (they are handed file contents); they never
//! fail or panic on bad input, they return findings plus diagnostics.
//!
//! The analyzers live in crates of their own, which compile in parallel: `manifests`
//! (YAML, Helm, kustomize, build files, go.mod/Cargo.toml, proto, `merge_identical`),
//! `go` and `rust`. This crate hands each file to its analyzer by kind and assembles the
//! project: it is the one place where the languages meet.

pub mod memory;

use std::collections::{BTreeMap, BTreeSet};

use manifests::{build, deps, merge, proto, yaml};
use model::{Area, Findings};

pub use source::file_kind::FileKind;

/// What one file yielded.
#[derive(Clone)]
pub enum FileFacts {
    Go(Box<go::GoFile>),
    /// A go.mod: the module (for Go resolution) and its directives.
    GoMod(Option<go::GoModule>, Box<deps::Manifest>),
    Yaml(Box<yaml::YamlFile>),
    Rust(Box<rust::RustFile>),
    CargoToml(Option<rust::CargoPackage>, Box<deps::Manifest>),
    Proto(Box<proto::ProtoFile>),
    Build(Box<build::BuildFacts>),
}

/// Analyzes one file's text. Pure: the same input always gives the same facts.
pub fn analyze_file(kind: FileKind, path: &str, text: &str, area: Area) -> FileFacts {
    match kind {
        FileKind::Go => FileFacts::Go(Box::new(go::extract(path, text))),
        FileKind::GoGenerated => FileFacts::Go(Box::new(go::extract_generated(path, text))),
        FileKind::GoVendoredApi => FileFacts::Go(Box::new(go::extract_vendored_api(path, text))),
        FileKind::GoMod => FileFacts::GoMod(
            go::module_path(text).map(|module| go::GoModule {
                dir: path
                    .rsplit_once('/')
                    .map(|(d, _)| d.to_string())
                    .unwrap_or_default(),
                path: module,
                controller_runtime: go::webhooks::controller_runtime_version(text),
            }),
            Box::new(deps::go_mod(path, text)),
        ),
        FileKind::Yaml => FileFacts::Yaml(Box::new(yaml::analyze(path, text, area))),
        FileKind::ValuesSchema => {
            FileFacts::Yaml(Box::new(yaml::analyze_values_schema(path, text, area)))
        }
        FileKind::Rust => FileFacts::Rust(Box::new(rust::extract(path, text, area))),
        FileKind::CargoToml => FileFacts::CargoToml(
            rust::cargo_package(path, text),
            Box::new(deps::cargo(path, text)),
        ),
        FileKind::Proto => FileFacts::Proto(Box::new(proto::parse(path, text))),
        FileKind::HelmHelpers => FileFacts::Yaml(Box::new(yaml::analyze_helpers(path, text, area))),
        FileKind::Build => FileFacts::Build(Box::new(build::analyze(path, text))),
    }
}

/// A project once every file is analyzed and cross-file references are resolved: the
/// findings the project model embeds, and how many YAML files had to be read specially.
#[derive(Debug, Default)]
pub struct Assembled {
    pub findings: Findings,
    pub yaml_counts: yaml::YamlCounts,
}

/// Combines the facts of all files of one project (in path order) into findings.
pub fn assemble(files: Vec<(FileFacts, Area)>, groups: &BTreeMap<String, String>) -> Assembled {
    let mut findings = Findings::default();
    let mut go_files = Vec::new();
    let mut modules = Vec::new();
    let mut yaml_files = Vec::new();
    let mut rust_files = Vec::new();
    let mut packages = Vec::new();
    let mut protos = Vec::new();
    let mut build_names = Vec::new();
    let mut dockerfile_builds = Vec::new();
    let mut manifests = Vec::new();
    for (facts, area) in files {
        match facts {
            FileFacts::Go(mut f) => {
                findings.diagnostics.append(&mut f.diagnostics);
                go_files.push(go::GoInput { facts: *f, area });
            }
            FileFacts::GoMod(m, d) => {
                modules.extend(m);
                manifests.push((*d, area));
            }
            FileFacts::Yaml(y) => yaml_files.push(*y),
            FileFacts::Rust(mut r) => {
                findings.diagnostics.append(&mut r.diagnostics);
                rust_files.push(*r);
            }
            FileFacts::CargoToml(p, d) => {
                packages.extend(p);
                manifests.push((*d, area));
            }
            FileFacts::Proto(mut p) => {
                findings.diagnostics.append(&mut p.diagnostics);
                protos.push(*p);
            }
            FileFacts::Build(mut b) => {
                findings.diagnostics.append(&mut b.diagnostics);
                build_names.append(&mut b.names);
                dockerfile_builds.append(&mut b.unnamed);
                if let Some(mut d) = b.dockerfile.take() {
                    d.area = area;
                    findings.dockerfiles.push(d);
                }
            }
        }
    }
    // Go types of modules no table knows resolve through the CRDs the repository ships, so
    // the manifests' CRDs are handed to Go resolution (they need no resolution of their own).
    let shipped = go::kinds::ShippedCrds::new(yaml_files.iter().flat_map(|y| &y.crds));
    let go = go::resolve_with_crds(
        &go_files,
        &modules,
        groups,
        shipped,
        &protos,
        &mut findings.diagnostics,
    );
    // Freeing every file's facts is a measurable serial step at the end of a project:
    // it is done on a thread of its own while the project is assembled (or here, if no
    // thread can be started: the closure is then dropped, and the facts with it).
    let _ = std::thread::Builder::new().spawn(move || drop(go_files));
    findings.controllers = go.controllers;
    findings.http_endpoints = go.http_endpoints;
    findings.api_packages = go.api_packages;
    findings.package_operations = go.package_operations;
    findings.package_reads = go.package_reads;
    findings.client_calls = go.client_calls;
    findings.informers = go.informers;
    findings.api_types = go.api_types;
    findings.binaries = go.binaries;
    build::name_binaries(
        &mut findings.binaries,
        &build_names,
        &mut findings.diagnostics,
    );
    dockerfile_builds.extend(build_names.iter().cloned());
    build::dockerfile_builds(
        &mut findings.dockerfiles,
        &dockerfile_builds,
        &findings.binaries,
    );
    (findings.module_files, findings.dependencies) =
        deps::assemble(manifests, &mut findings.diagnostics);
    findings.metrics = go.metrics;
    findings.conditions = go.conditions;
    findings.condition_sets = go.condition_sets;
    findings.connections = go.connections;
    findings.feature_gates = go.feature_gates;
    findings.platform_checks = go.platform_checks;
    findings.managers = go.managers;
    findings.tables = go.tables;
    rust::names::resolve_files(&mut rust_files, &packages, &mut findings.diagnostics);
    let rust = rust::resolve(&rust_files, &packages, &protos, &mut findings.diagnostics);
    findings.controllers.extend(rust.controllers);
    findings.http_endpoints.extend(rust.http_endpoints);
    findings.package_operations.extend(rust.package_operations);
    findings.package_reads.extend(rust.package_reads);
    findings.informers.extend(rust.informers);
    findings.binaries.extend(rust.binaries);
    findings.connections.extend(rust.connections);
    if !rust.metrics.is_empty() {
        findings.metrics.extend(rust.metrics);
        findings
            .metrics
            .sort_by(|a, b| (&a.name, &a.sources).cmp(&(&b.name, &b.sources)));
        merge::merge_identical(&mut findings.metrics);
    }
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
    // YAML fills `findings` and reports into a list of its own (one borrow of each).
    let mut diagnostics = Vec::new();
    let yaml_counts = yaml::resolve(yaml_files, &own_groups, &mut findings, &mut diagnostics);
    findings.diagnostics.append(&mut diagnostics);
    rust::merge_crds(&mut findings.crds, rust.crds);
    go::api_docs::annotate(&mut findings.crds, &go.api_docs, &mut findings.diagnostics);
    // Webhooks served by code or declared by markers, and RBAC markers, join the manifests'.
    findings.webhooks.extend(go.webhooks);
    findings.rbac.extend(go.rbac);
    merge::merge_identical(&mut findings.webhooks);
    merge::merge_identical(&mut findings.rbac);
    // Only now are manifests and Go both known: compare webhook markers with both.
    let disagreements =
        go::markers::check_webhook_paths(&findings.webhooks, &findings.crds, &findings.api_types);
    findings.diagnostics.extend(disagreements);
    merge::merge_identical(&mut findings.http_endpoints);
    findings.memory_risks = memory::risks(
        &mut findings.managers,
        &findings.controllers,
        &findings.informers,
        &findings.workloads,
        &findings.binaries,
    );
    findings.diagnostics.sort();
    findings.diagnostics.dedup();
    Assembled {
        findings,
        yaml_counts,
    }
}

#[cfg(test)]
mod tests;
