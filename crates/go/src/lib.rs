//! Go analysis with tree-sitter-go.
//!
//! Per file (in the shared pool): `file::extract` parses once and each feature records raw
//! facts. Per project: `index::GoIndex` (modules, packages, imports, constants, declared API
//! groups) resolves them, feature by feature.

pub mod api_docs;
pub mod binaries;
pub mod calls;
pub mod cobra;
pub mod conditions;
pub mod connections;
pub mod consts;
pub mod controllers;
pub mod envconfig;
pub mod extractor;
pub mod facts;
pub mod file;
pub mod flag_default;
pub mod gvr;
pub mod index;
pub mod informers;
pub mod kinds;
pub mod kingpin;
pub mod kong;
pub mod library_flags;
pub mod manager;
pub mod markers;
pub mod metrics;
pub mod new_expr;
pub mod platform;
pub mod routes;
pub mod scope;
pub mod syntax;
#[cfg(test)]
pub mod test_support;
pub mod types;
pub mod values;
pub mod viper;
pub mod webhooks;
pub mod writes;

use std::collections::BTreeMap;

pub use facts::GoFile;
pub use file::{extract, extract_generated, extract_vendored_api};
pub use index::{GoInput, GoModule, module_path};

use model::{
    ApiPackage, ApiType, Binary, ConditionSet, Controller, Diagnostic, ExternalConnection,
    FeatureGate, HttpEndpoint, Manager, Metric, PackageInformer, PackageOperation, PlatformCheck,
    RbacRule, StatusCondition, Webhook,
};

/// Declares each extractor's module and lists the extractors in `REGISTRY`, the one place
/// a Go extractor is registered (`extractor`; ARCHITECTURE.md, "Adding a Go extractor").
macro_rules! extractors {
    ($($module:ident::$extractor:ident),* $(,)?) => {
        $(pub mod $module;)*
        /// The registered Go extractors, in the order their tables appear.
        pub static REGISTRY: &[&dyn extractor::Registered] = &[$(&$module::$extractor),*];
    };
}

extractors! {
    // One line per extractor, `module::Type,`: its module is declared here too.
    events::Events,
}

/// Everything Go analysis found in one project.
#[derive(Debug, Default)]
pub struct GoFindings {
    pub controllers: Vec<Controller>,
    pub http_endpoints: Vec<HttpEndpoint>,
    pub api_packages: Vec<ApiPackage>,
    pub package_operations: Vec<PackageOperation>,
    /// Client reads no controller reaches, by package.
    pub package_reads: Vec<PackageOperation>,
    /// The client calls of the project's own Go code against those resolved and listed;
    /// None when the project has no Go file.
    pub client_calls: Option<model::ClientCalls>,
    pub informers: Vec<PackageInformer>,
    /// Webhooks served by builders in code, then webhooks declared by markers.
    pub webhooks: Vec<Webhook>,
    /// Rules from `+kubebuilder:rbac` markers.
    pub rbac: Vec<RbacRule>,
    pub api_types: Vec<ApiType>,
    /// The doc comments and field order of the Go types, for the CRDs (applied once the
    /// manifests are read; not part of the model).
    pub api_docs: api_docs::ApiDocs,
    pub binaries: Vec<Binary>,
    pub metrics: Vec<Metric>,
    /// Status conditions set by code no controller reaches.
    pub conditions: Vec<StatusCondition>,
    pub condition_sets: Vec<ConditionSet>,
    pub connections: Vec<ExternalConnection>,
    pub feature_gates: Vec<FeatureGate>,
    pub platform_checks: Vec<PlatformCheck>,
    /// controller-runtime managers with their options.
    pub managers: Vec<Manager>,
    /// The registered extractors' tables.
    pub tables: Vec<model::Table>,
}

/// Resolves the facts of every Go file of one project that ships no CRD manifests (the
/// feature tests' entry point).
#[cfg(test)]
pub fn resolve(
    files: &[GoInput],
    modules: &[GoModule],
    groups: &BTreeMap<String, String>,
    protos: &[manifests::proto::ProtoFile],
    diagnostics: &mut Vec<Diagnostic>,
) -> GoFindings {
    resolve_with_crds(
        files,
        modules,
        groups,
        kinds::ShippedCrds::default(),
        protos,
        diagnostics,
    )
}

/// Per controller: the functions its reconciling starts from (None: its reconciler's
/// `Reconcile`), which event handlers feed it (None: a builder's), and the generated
/// reconciler of the repository that runs it, if any.
struct Starts {
    roots: Vec<Option<Vec<calls::FuncId>>>,
    owners: Vec<Option<controllers::HandlerOwner>>,
    bounds: Vec<Option<controllers::Bound>>,
}

/// Adds the controllers of other shapes, found through the call graph, to the builder
/// ones, and says where each controller starts.
fn other_shapes(
    files: &[GoInput],
    values: &values::Values,
    graph: &calls::Graph,
    putters: &informers::Putters,
    controllers: &mut Vec<Controller>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Starts {
    let mut roots = controllers::builder_roots(files, values, graph);
    let mut owners = vec![None; controllers.len()];
    let mut bounds = vec![None; controllers.len()];
    let shaped = controllers::resolve_shaped(files, values, graph, diagnostics);
    // A queue no event handler fills is not a controller (a worker pool fed by code).
    let shaped = shaped
        .into_iter()
        .filter(|s| !s.needs_feeder || informers::fed(files, values, graph, putters, &s.owner));
    for shaped in shaped {
        controllers.push(shaped.controller);
        roots.push(Some(shaped.roots));
        owners.push(Some(shaped.owner));
        bounds.push(shaped.bound);
    }
    Starts {
        roots,
        owners,
        bounds,
    }
}

/// Resolves the facts of every Go file of one project, with the CRDs its manifests ship.
pub fn resolve_with_crds(
    files: &[GoInput],
    modules: &[GoModule],
    groups: &BTreeMap<String, String>,
    shipped: kinds::ShippedCrds,
    protos: &[manifests::proto::ProtoFile],
    diagnostics: &mut Vec<Diagnostic>,
) -> GoFindings {
    let index =
        index::GoIndex::build(files, modules, groups, diagnostics).with_shipped_crds(shipped);
    // Two independent lines of work at once; each keeps its own diagnostics, appended in
    // the order a serial run gives them.
    let (
        (
            (
                controllers,
                (writes, conditions),
                informers,
                binaries,
                managers,
                mut attributed,
                mut programs,
            ),
            (connections, platform_checks, tables),
        ),
        (api_docs, webhooks, marked, http_endpoints, metrics, mut declared, mut measured),
    ) = rayon::join(
        || {
            let mut attributed = Vec::new();
            let values = values::Values::new(files, &index);
            let mut controllers = controllers::resolve(files, &values, &mut attributed);
            let project = extractor::Project {
                index: &index,
                values: &values,
            };
            let tables = extractor::tables(REGISTRY, files, &project, &mut attributed);
            let graph = calls::Graph::build(files, &index);
            let putters = controllers::putters(files, &index, &graph);
            let Starts {
                roots,
                owners,
                bounds,
            } = other_shapes(
                files,
                &values,
                &graph,
                &putters,
                &mut controllers,
                &mut attributed,
            );
            // Writes and informers are attributed to controllers, so they resolve after them.
            let reach = writes::controller_reach(
                &values,
                &graph,
                &controllers,
                (&roots, &bounds),
                &mut attributed,
            );
            let writes =
                writes::resolve(&values, &graph, &reach, &mut controllers, &mut attributed);
            // Informers a work-queue controller obtains while it is set up are its own.
            let setup_keys: Vec<_> = owners
                .iter()
                .zip(&controllers)
                .map(|(owner, c)| match owner {
                    Some(controllers::HandlerOwner::Types { key, .. }) => {
                        Some((key, c.entries.as_slice()))
                    }
                    _ => None,
                })
                .collect();
            let setup = controllers::setup_reach(files, &values, &graph, &setup_keys);
            let informers = informers::resolve(
                files,
                &values,
                &graph,
                &informers::Reaches {
                    reconcile: &reach,
                    setup: &setup,
                },
                &informers::Feeders {
                    owners: &owners,
                    putters: &putters,
                },
                &mut controllers,
                &mut attributed,
            );
            controllers::say_unfed(&controllers, &owners, &mut attributed);
            let conditions = conditions::resolve(
                files,
                &values,
                &graph,
                &reach,
                &mut controllers,
                &mut attributed,
            );
            let mut programs = Vec::new();
            let binaries = binaries::resolve(files, &index, &graph, &mut programs);
            let managers = manager::resolve(
                files,
                &index,
                &values,
                &graph,
                &controllers,
                &binaries,
                &mut programs,
            );
            let packages = binaries::programs::package_names(files, &index);
            let reach = binaries::programs::program_reach(files, &packages, &graph);
            let connections = connections::resolve(files, &index, &reach, &packages, &binaries);
            let platform_checks = platform::resolve_checks(
                files,
                &index,
                &graph,
                &controllers,
                &writes.package_operations,
            );
            (
                (
                    controllers,
                    (writes, conditions),
                    informers,
                    binaries,
                    managers,
                    attributed,
                    programs,
                ),
                (connections, platform_checks, tables),
            )
        },
        || {
            let mut declared = Vec::new();
            let mut webhooks = webhooks::resolve(files, &index, modules, &mut declared);
            let mut marked = markers::resolve(files, &index, &mut declared);
            webhooks.append(&mut marked.webhooks);
            let http_endpoints = routes::resolve(files, &index, protos, &mut declared);
            let mut measured = Vec::new();
            let metrics = metrics::resolve(files, &index, &mut measured);
            let api_docs = api_docs::ApiDocs::build(files, &index);
            (
                api_docs,
                webhooks,
                marked,
                http_endpoints,
                metrics,
                declared,
                measured,
            )
        },
    );
    diagnostics.append(&mut attributed);
    diagnostics.append(&mut declared);
    diagnostics.append(&mut programs);
    diagnostics.append(&mut measured);
    let findings = GoFindings {
        controllers,
        http_endpoints,
        api_packages: index.api_packages(),
        package_operations: writes.package_operations,
        package_reads: writes.package_reads,
        client_calls: (!files.is_empty()).then_some(writes.client_calls),
        informers,
        webhooks,
        rbac: marked.rbac,
        api_types: marked.api_types,
        api_docs,
        binaries,
        metrics,
        conditions: conditions.package,
        condition_sets: conditions.sets,
        connections,
        feature_gates: platform::resolve_gates(files, &index),
        platform_checks,
        managers,
        tables,
    };
    diagnostics.extend(index.take_const_diagnostics());
    findings
}
