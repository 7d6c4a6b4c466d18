//! Per project: which controller each write is attributed to (the functions its reconciler
//! reaches), the kind of each written object, and the package rows of the rest.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::BTreeMap;

use super::clients::{
    CLIENT_CONSTRUCTORS, CLIENT_PACKAGE, CLIENT_TYPES, CONTROLLER_RUNTIME, CONTROLLERUTIL,
    DYNAMIC_CONSTRUCTORS, DYNAMIC_GETTERS, DYNAMIC_PACKAGES, DYNAMIC_TYPES, PATCHERS,
};
use crate::calls::{Found, FuncId, Graph, Paths, RootOwners};
use crate::controllers::Bound;
use crate::facts::GoFile;
use crate::facts::calls::SamePackageArgs;
use crate::facts::writes::{ClientRef, RawWrite, Subresource, WriteObject};
use crate::gvr::gvr_kind;
use crate::index::dir_of;
use crate::types::{FuncRef, TypeRef, ValueType};
use crate::values::{Located, Values, describe};
use model::{
    CallStep, ClientCalls, Controller, ControllerShape, Diagnostic, Operation, PackageOperation,
    SourceRef, UNRESOLVED, UnresolvedCall, Verb,
};

/// Resolved writes of the project: attributed to controllers, or to packages.
pub struct Writes {
    pub package_operations: Vec<PackageOperation>,
    /// Reads no controller reaches, by package and function.
    pub package_reads: Vec<PackageOperation>,
    /// The client calls of the project's own code (not tests, docs, samples or tooling)
    /// against those resolved and listed.
    pub client_calls: ClientCalls,
}

/// A controller's `Reconcile` is followed at most this many calls deep …
const MAX_CALL_DEPTH: usize = 32;

/// … and through at most this many functions.
const MAX_REACHED: usize = 50_000;

/// Resolves every write and read, attributes each to the controllers whose `Reconcile`
/// reaches it (through calls across the repository's packages, `calls::Graph`), with the
/// call path, and fills `controllers[].operations` and `reads`. Writes no controller
/// reaches are listed per package; reads no controller reaches are not listed.
pub fn resolve(
    values: &Values,
    graph: &Graph,
    reach: &[Option<Paths>],
    controllers: &mut [Controller],
    diagnostics: &mut Vec<Diagnostic>,
) -> Writes {
    let functions = &values.functions;
    let resolver = Resolver { values, graph };
    // Every write and read, at the line it is reported, with the function it belongs to.
    let mut resolved: Vec<(&str, Row)> = Vec::new();
    // Every client call site found, once per (file, line, verb), with how it resolved.
    let mut sites: Vec<Site> = Vec::new();
    let mut site_of: HashMap<(&str, u32, Verb), usize> = HashMap::new();
    let mut ordered: Vec<_> = functions.iter().collect();
    ordered.sort_by_key(|(_, loc)| (loc.fi, loc.facts.call_fact));
    for ((dir, func), loc) in ordered {
        for w in &loc.facts.writes {
            if !resolver.is_client(loc.file, dir, w) {
                continue;
            }
            let call = *site_of
                .entry((loc.file.path.as_str(), w.line, w.verb))
                .or_insert_with(|| {
                    sites.push(Site::new(
                        w.verb,
                        SourceRef::new(&loc.file.path, w.line),
                        loc,
                    ));
                    sites.len() - 1
                });
            for mut row in resolver.operations(loc, dir, func, w, diagnostics) {
                row.call = call;
                sites[call].rows += 1;
                resolved.push((dir, row));
            }
        }
    }
    // The call graph node each row is reported in, looked up once for every controller.
    let nodes: Vec<Option<FuncId>> = resolved
        .iter()
        .map(|(d, row)| values.node_of(d, row.func))
        .collect();
    let mut attributed: HashSet<usize> = HashSet::new();
    let mut told = HashSet::new();
    for (controller, paths) in controllers.iter_mut().zip(reach) {
        let Some(paths) = paths else {
            controller.client_calls = Some(ClientCalls {
                incomplete: if controller.reconciler.is_empty() {
                    "its reconciler was not established, so no call from it was followed".into()
                } else {
                    format!(
                        "no Reconcile method of {} was found, so no call from it was followed",
                        controller.reconciler
                    )
                },
                ..ClientCalls::default()
            });
            continue;
        };
        // Per call site it reaches: the places and reasons of its rows of unknown kind.
        let mut reached: BTreeMap<usize, Vec<(Vec<SourceRef>, String)>> = BTreeMap::new();
        for (i, (_, row)) in resolved.iter().enumerate() {
            let Some(node) = nodes[i] else {
                continue;
            };
            let line = row.op.sources.first().map_or(0, |s| s.line);
            if !paths.reaches(graph, node, line) {
                continue;
            }
            let (ops, reason) = match &row.pending {
                None => {
                    let mut op = row.op.clone();
                    op.via = call_path(graph, paths, node);
                    (vec![op], row.reason.clone())
                }
                Some((param, unknown)) => {
                    let flow = ArgumentFlow {
                        values,
                        graph,
                        paths,
                    };
                    let (ops, diags) = flow.rows(node, *param, &row.op, unknown);
                    let reason = diags
                        .first()
                        .map_or_else(|| unknown.message.clone(), |d| d.message.clone());
                    for d in diags {
                        if told.insert((d.file.clone(), d.line, d.message.clone())) {
                            diagnostics.push(d);
                        }
                    }
                    (ops, reason)
                }
            };
            let places = reached.entry(row.call).or_default();
            for op in ops {
                if is_unresolved(&op) {
                    places.push((op.sources.clone(), reason.clone()));
                    sites[row.call].unresolved(&op.sources, &reason);
                }
                if op.verb.is_read() {
                    controller.reads.push(op);
                } else {
                    controller.operations.push(op);
                }
            }
            attributed.insert(i);
        }
        sort_operations(&mut controller.operations);
        sort_operations(&mut controller.reads);
        let found = reached.len();
        let unresolved: Vec<UnresolvedCall> = reached
            .into_iter()
            .filter(|(_, places)| !places.is_empty())
            .filter_map(|(call, places)| {
                let mut site = sites[call].fresh();
                for (sources, reason) in &places {
                    site.unresolved(sources, reason);
                }
                site.entry()
            })
            .collect();
        controller.client_calls = Some(ClientCalls {
            found,
            resolved: found - unresolved.len(),
            unresolved,
            incomplete: paths
                .cut
                .as_ref()
                .map(|cut| {
                    format!(
                        "the calls from {}.Reconcile were followed only as far as {cut}",
                        controller.reconciler
                    )
                })
                .or_else(|| generated_reconciler_writes(controller))
                .unwrap_or_default(),
        });
    }
    let (package_operations, package_reads) =
        package_rows(values, resolved, &attributed, &mut sites, diagnostics);
    let own: Vec<&Site> = sites.iter().filter(|s| s.component).collect();
    let mut unresolved: Vec<UnresolvedCall> = own.iter().filter_map(|s| s.entry()).collect();
    unresolved.sort_by(|a, b| (&a.sources, a.verb).cmp(&(&b.sources, b.verb)));
    Writes {
        package_operations,
        package_reads,
        client_calls: ClientCalls {
            found: own.len(),
            resolved: own.len() - unresolved.len(),
            unresolved,
            incomplete: String::new(),
        },
    }
}

/// The rows no controller's reach attributed, by package and function: writes, then
/// reads; rows of unknown kind are recorded on their call site.
fn package_rows(
    values: &Values,
    resolved: Vec<(&str, Row)>,
    attributed: &HashSet<usize>,
    sites: &mut [Site],
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<PackageOperation>, Vec<PackageOperation>) {
    let functions = &values.functions;
    let index = values.index;
    let mut package_operations = Vec::new();
    let mut package_reads = Vec::new();
    for (i, (dir, row)) in resolved.into_iter().enumerate() {
        let Row {
            op,
            func,
            pending,
            call,
            reason,
        } = row;
        if attributed.contains(&i) {
            continue;
        }
        let site = &mut sites[call];
        if let Some((_, unknown)) = pending {
            site.unresolved(&op.sources, &unknown.message);
            diagnostics.push(unknown);
        } else if is_unresolved(&op) {
            site.unresolved(&op.sources, &reason);
        }
        let key = (dir.to_string(), func.clone());
        let area = functions.get(&key).map(|l| l.area).unwrap_or_default();
        let package = functions
            .get(&key)
            .and_then(|l| index.package_of(l.file).map(str::to_string))
            .unwrap_or_else(|| dir.to_string());
        let rows = if op.verb.is_read() {
            &mut package_reads
        } else {
            &mut package_operations
        };
        rows.push(PackageOperation {
            package,
            function: match &func.receiver {
                Some(r) => format!("{r}.{}", func.name),
                None => func.name.clone(),
            },
            verb: op.verb,
            group: op.group,
            version: op.version,
            kind: op.kind,
            area,
            sources: op.sources,
        });
    }
    for rows in [&mut package_operations, &mut package_reads] {
        rows.sort_by(|a, b| {
            (&a.package, &a.sources, &a.verb).cmp(&(&b.package, &b.sources, &b.verb))
        });
    }
    (package_operations, package_reads)
}

/// A row whose kind was not established.
fn is_unresolved(op: &Operation) -> bool {
    op.group == UNRESOLVED || op.kind == UNRESOLVED
}

/// One client call site (file, line, verb) and, for the project's count, how it resolved.
#[derive(Clone)]
struct Site {
    verb: Verb,
    source: SourceRef,
    /// In the project's own code (not tests, docs, samples or tooling).
    component: bool,
    /// The rows made from it.
    rows: usize,
    /// Where rows of unknown kind were reported, other than `source` (a helper's call
    /// sites), and the first reason given.
    places: Vec<SourceRef>,
    reason: Option<String>,
}

impl Site {
    fn new(verb: Verb, source: SourceRef, loc: &Located) -> Self {
        Site {
            verb,
            source,
            component: loc.area.is_component(),
            rows: 0,
            places: Vec::new(),
            reason: None,
        }
    }

    /// The call site without what was recorded about it.
    fn fresh(&self) -> Self {
        Site {
            places: Vec::new(),
            reason: None,
            ..self.clone()
        }
    }

    /// Records a row of unknown kind reported at `sources`, and why.
    fn unresolved(&mut self, sources: &[SourceRef], reason: &str) {
        for s in sources {
            if *s != self.source && !self.places.contains(s) {
                self.places.push(s.clone());
            }
        }
        if self.reason.is_none() {
            self.reason = Some(if reason.is_empty() {
                "the kind was not established".into()
            } else {
                reason.to_string()
            });
        }
    }

    /// The call as an unresolved entry, or None when it resolved.
    fn entry(&self) -> Option<UnresolvedCall> {
        let reason = match &self.reason {
            Some(reason) => reason.clone(),
            None if self.rows == 0 => {
                "its object is a parameter no call site followed gives an argument for".into()
            }
            None => return None,
        };
        let mut sources = vec![self.source.clone()];
        sources.extend(self.places.iter().cloned());
        Some(UnresolvedCall {
            verb: self.verb,
            sources,
            reason,
        })
    }
}

/// For each controller, what its reconciling reaches through the call graph (None when its
/// reconciler type or its `Reconcile` is not found), with a diagnostic where the walk was
/// cut short. `roots` gives, per controller, the functions its reconciling starts from
/// when they are not its reconciler's `Reconcile` (controllers of other shapes).
pub fn controller_reach(
    values: &Values,
    graph: &Graph,
    controllers: &[Controller],
    (roots, bounds): (&[Option<Vec<FuncId>>], &[Option<Bound>]),
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Option<Paths>> {
    // A generated reconciler shared by several controllers is followed for one at a time:
    // never into another's reconcile functions.
    let owners = RootOwners::new(roots.iter().map(Option::as_ref));
    let switching: Vec<FuncId> = graph
        .files()
        .iter()
        .enumerate()
        .flat_map(|(fi, input)| {
            input
                .facts
                .call_facts
                .iter()
                .enumerate()
                .filter(|(_, f)| !f.type_switches.is_empty())
                .map(move |(i, _)| FuncId::new(fi, i))
        })
        .collect();
    controllers
        .iter()
        .enumerate()
        .map(|(i, controller)| {
            let src = controller.sources.first()?;
            if controller.reconciler.is_empty() {
                return None;
            }
            let roots = match roots.get(i) {
                Some(Some(given)) => given.clone(),
                _ => reconcile_roots(values, graph, &src.file, &controller.reconciler),
            };
            if roots.is_empty() {
                return None;
            }
            let bound = bounds.get(i).and_then(Option::as_ref);
            let skipped = bound.map(|b| status_updaters(values, b)).unwrap_or_default();
            let avoid = |id: FuncId| {
                bound.is_some()
                    && (skipped.contains(&id)
                        || (owners.of_another(i, id) && !roots.contains(&id)))
            };
            let guarded = |id: FuncId| -> Vec<(u32, u32)> {
                bound
                    .and_then(|b| guarded_end(values, graph, b, id))
                    .map(|end| vec![(end + 1, u32::MAX)])
                    .unwrap_or_default()
            };
            let mut paths =
                graph.paths_pruned(&roots, MAX_CALL_DEPTH, MAX_REACHED, avoid, guarded);
            // Walked again without the type switches' cases this controller's values
            // cannot take.
            let cases = cases_not_run(graph, &paths, &switching);
            if !cases.is_empty() {
                paths = graph.paths_pruned(&roots, MAX_CALL_DEPTH, MAX_REACHED, avoid, |id| {
                    let mut ranges = guarded(id);
                    ranges.extend(cases.get(&id).into_iter().flatten().copied());
                    ranges
                });
            }
            if let Some(cut) = &paths.cut {
                diagnostics.push(Diagnostic::new(
                    &src.file,
                    src.line,
                    format!(
                        "the calls from {} were followed only as far as {cut}: writes, reads and informers further away are not attributed to controller {}",
                        entry_names(controller), controller.name
                    ),
                ));
            }
            Some(paths)
        })
        .collect()
}

/// How far up the calls, and to how many sources, the value a type switch is on is followed.
const MAX_SWITCH_FLOW_DEPTH: usize = 8;
const MAX_SWITCH_FLOW_SOURCES: usize = 64;

/// The lines of type-switch cases no call on `paths` runs: every call the walk followed
/// into the function gives the switched parameter, through the callers' own parameters,
/// a parameter declared with a struct type of the repository, and the case names none of
/// those types; `default` does not run when every such type has its case. A case naming
/// anything else (an interface, a type of another module, `nil`) always runs, and a value
/// held in a local is not trusted (a local may have been given other types on branches).
fn cases_not_run(
    graph: &Graph,
    paths: &Paths,
    switching: &[FuncId],
) -> HashMap<FuncId, Vec<(u32, u32)>> {
    let mut out: HashMap<FuncId, Vec<(u32, u32)>> = HashMap::new();
    for &id in switching {
        if !paths.contains(graph, id) {
            continue;
        }
        for sw in &graph.file(id.file).call_facts[id.func].type_switches {
            let sources = graph.argument_flow(
                paths,
                id,
                sw.param,
                |fi, t| graph.repository_struct(fi, t).is_some(),
                MAX_SWITCH_FLOW_DEPTH,
                MAX_SWITCH_FLOW_SOURCES,
            );
            let held: Option<Vec<(String, String)>> = sources
                .iter()
                .map(|s| match &s.found {
                    Found::Type(fi, t) if s.declared => graph.repository_struct(*fi, t),
                    _ => None,
                })
                .collect();
            let Some(held) = held.filter(|h| !h.is_empty()) else {
                continue;
            };
            // Each case's types, when every one is a struct type of the repository;
            // `default` is the one case with none.
            let named: Vec<Option<Vec<(String, String)>>> = sw
                .cases
                .iter()
                .map(|c| match c.open {
                    true => None,
                    false => c
                        .types
                        .iter()
                        .map(|t| graph.repository_struct(id.file, t))
                        .collect(),
                })
                .collect();
            let cased = |h: &(String, String)| named.iter().flatten().any(|n| n.contains(h));
            for (case, types) in sw.cases.iter().zip(&named) {
                let runs = match types {
                    None => true,
                    Some(types) if types.is_empty() => !held.iter().all(cased),
                    Some(types) => held.iter().any(|h| types.contains(h)),
                };
                if !runs {
                    out.entry(id).or_default().push(case.lines);
                }
            }
        }
    }
    out
}

/// The functions of the bound generated reconciler's package that update or patch the
/// status, when the controller was built to skip status updates.
fn status_updaters(values: &Values, bound: &Bound) -> HashSet<FuncId> {
    if !bound.skips_status_updates {
        return HashSet::new();
    }
    let Some(dir) = values.index.dir_of_import(&bound.holder.pkg) else {
        return HashSet::new();
    };
    values
        .functions
        .iter()
        .filter(|((d, _), l)| {
            d == dir
                && l.facts
                    .writes
                    .iter()
                    .any(|w| matches!(w.verb, Verb::StatusUpdate | Verb::StatusPatch))
        })
        .map(|(_, l)| FuncId::new(l.fi, l.facts.call_fact))
        .collect()
}

/// For a method of the bound generated reconciler: the line of its first guard that
/// returns unless the held reconciler implements an interface the bound reconciler's type
/// does not (nothing after it runs for this controller).
fn guarded_end(values: &Values, graph: &Graph, bound: &Bound, id: FuncId) -> Option<u32> {
    let file = graph.file(id.file);
    let facts = &file.call_facts[id.func];
    if facts.receiver.as_deref() != Some(bound.holder.name.as_str())
        || values.index.package_of(file) != Some(bound.holder.pkg.as_str())
    {
        return None;
    }
    let fails = |g: &&crate::facts::calls::Guard| {
        g.field == bound.field
            && values
                .index
                .type_package(file, g.interface.qualifier.as_deref())
                .and_then(|ipkg| {
                    graph.has_methods_of(
                        (&bound.reconciler.pkg, &bound.reconciler.name),
                        (&ipkg, &g.interface.name),
                    )
                })
                == Some(false)
    };
    facts.guards.iter().filter(fails).map(|g| g.end).min()
}

/// A Knative controller built by a generated `NewImpl` runs its `ReconcileKind` inside the
/// generated reconciler, which updates the object's status and patches its finalizers
/// itself: code of another module's generator that is not followed here.
fn generated_reconciler_writes(controller: &Controller) -> Option<String> {
    // Unless that generated reconciler is the repository's and was followed (its own
    // `Reconcile` is an entry).
    let generated = controller.shape == ControllerShape::Knative
        && controller
            .entries
            .iter()
            .any(|e| e.ends_with(".ReconcileKind"))
        && !controller.entries.iter().any(|e| e.ends_with(".Reconcile"));
    generated.then(|| {
        "Knative's generated reconciler updates the reconciled object's status and patches its finalizers itself; those calls are not followed".to_string()
    })
}

/// The functions a controller's reconciling starts from, for messages.
fn entry_names(controller: &Controller) -> String {
    if controller.entries.is_empty() {
        format!("{}.Reconcile", controller.reconciler)
    } else {
        controller.entries.join(", ")
    }
}

/// The call path from a controller's `Reconcile` to `node`, for the model.
pub fn call_path(graph: &Graph, paths: &Paths, node: FuncId) -> Vec<CallStep> {
    graph
        .path_to(paths, node)
        .into_iter()
        .map(|(callee, caller_file, line)| CallStep {
            function: graph.display(callee),
            file: graph.file_path(caller_file).to_string(),
            line,
        })
        .collect()
}

/// The `Reconcile` methods a controller's reconciler type has (its own or promoted from an
/// embedded struct), as call graph nodes.
fn reconcile_roots(values: &Values, graph: &Graph, file: &str, reconciler: &str) -> Vec<FuncId> {
    let Some(facts) = values
        .index
        .files
        .iter()
        .find(|f| f.facts.path == file)
        .map(|f| &f.facts)
    else {
        return Vec::new();
    };
    let Some(pkg) = values.index.package_of(facts) else {
        return Vec::new();
    };
    graph.methods_of(pkg, reconciler, "Reconcile")
}

fn sort_operations(ops: &mut Vec<Operation>) {
    ops.sort_by(|a, b| (&a.sources, &a.verb, &a.kind).cmp(&(&b.sources, &b.verb, &b.kind)));
    ops.dedup();
}

/// A typed client call's kind, or what the client is and why its kind cannot be told.
type TypedKind = Result<(String, String, String), String>;

/// One resolved write or read, before it is attributed.
struct Row<'a> {
    op: Operation,
    /// The function it is reported in.
    func: &'a FuncRef,
    /// When the object is this function's parameter of unknown kind: its position, and the
    /// diagnostic to give if no call path tells the kind.
    pending: Option<(usize, Diagnostic)>,
    /// The call site it comes from (its index among the project's `Site`s).
    call: usize,
    /// Why its kind is `?` (the diagnostic's text); empty when the kind is known.
    reason: String,
}

impl<'a> Row<'a> {
    fn new(op: Operation, func: &'a FuncRef) -> Self {
        Row {
            op,
            func,
            pending: None,
            call: 0,
            reason: String::new(),
        }
    }
}

/// A helper's parameter is followed this many calls up a controller's call paths …
const MAX_ARG_DEPTH: usize = 8;

/// … to at most this many places its value comes from.
const MAX_ARG_SOURCES: usize = 64;

/// The kinds a helper's parameter has on the call paths of one controller.
struct ArgumentFlow<'v, 'a, 'b, 'g> {
    values: &'v Values<'a, 'b>,
    graph: &'g Graph<'g>,
    paths: &'g Paths,
}

impl ArgumentFlow<'_, '_, '_, '_> {
    fn kind_of(&self, fi: usize, t: &TypeRef) -> Option<(String, String, String)> {
        if t.collection {
            return None;
        }
        let t = TypeRef {
            qualifier: t.qualifier.clone(),
            name: t.name.clone(),
            collection: false,
        };
        self.values.type_kind(self.graph.file(fi), &t)
    }

    /// The rows of a write or read (`op`) whose object is parameter `param` of `node`: one
    /// per kind the arguments on the controller's call paths give (`Graph::argument_flow`),
    /// each with the call path that gives it; and one of unknown kind, with diagnostics
    /// saying why, if some path gives none.
    fn rows(
        &self,
        node: FuncId,
        param: usize,
        op: &Operation,
        unknown: &Diagnostic,
    ) -> (Vec<Operation>, Vec<Diagnostic>) {
        let graph = self.graph;
        let sources = graph.argument_flow(
            self.paths,
            node,
            param,
            |fi, t| self.kind_of(fi, t).is_some(),
            MAX_ARG_DEPTH,
            MAX_ARG_SOURCES,
        );
        let mut ops: Vec<Operation> = Vec::new();
        let mut diags = Vec::new();
        let mut unresolved = None;
        for source in sources {
            let mut via = match source.calls.first() {
                Some(top) => call_path(graph, self.paths, top.caller),
                None => call_path(graph, self.paths, node),
            };
            via.extend(source.calls.iter().map(|c| CallStep {
                function: graph.display(c.callee),
                file: graph.file_path(c.caller.file).to_string(),
                line: c.line,
            }));
            let reason = match &source.found {
                Found::Type(fi, t) => match self.kind_of(*fi, t) {
                    Some((group, version, kind)) => {
                        let kind = item_kind(op.verb, kind);
                        let known = ops
                            .iter()
                            .any(|o| (&o.group, &o.version, &o.kind) == (&group, &version, &kind));
                        if !known {
                            ops.push(Operation {
                                group,
                                version,
                                kind,
                                via,
                                ..op.clone()
                            });
                        }
                        continue;
                    }
                    None => format!(
                        "the argument given is of type {}{}, which is not a known API type",
                        if t.collection { "[]" } else { "" },
                        match &t.qualifier {
                            Some(q) => format!("{q}.{}", t.name),
                            None => t.name.clone(),
                        }
                    ),
                },
                Found::Unknown(reason) => reason.clone(),
            };
            diags.push(match source.calls.first() {
                Some(top) => Diagnostic::new(
                    graph.file_path(top.caller.file),
                    top.line,
                    format!(
                        "cannot tell the kind of the object the {} at {}:{} {} through this call: {reason}",
                        op.verb,
                        unknown.file,
                        unknown.line,
                        if op.verb.is_read() { "reads" } else { "writes" },
                    ),
                ),
                None => Diagnostic::new(
                    &unknown.file,
                    unknown.line,
                    format!("{}: {reason}", unknown.message),
                ),
            });
            unresolved.get_or_insert(Operation { via, ..op.clone() });
        }
        ops.extend(unresolved);
        if ops.is_empty() {
            diags.push(unknown.clone());
            ops.push(Operation {
                via: call_path(graph, self.paths, node),
                ..op.clone()
            });
        }
        (ops, diags)
    }
}

/// A list's object is the list type: the kind read is its item's (`PodList` → `Pod`).
fn item_kind(verb: Verb, kind: String) -> String {
    match kind.strip_suffix("List") {
        Some(item) if verb == Verb::List && !item.is_empty() => item.to_string(),
        _ => kind,
    }
}

/// Where else a type parameter's type shows at a call site (see `same_type_arguments`).
#[derive(Default)]
struct SameType {
    type_param: Option<usize>,
    params: Vec<usize>,
}

struct Resolver<'a, 'b> {
    values: &'b Values<'a, 'b>,
    graph: &'b Graph<'b>,
}

/// Writes through parameters are followed this many helper calls deep.
const MAX_HELPER_DEPTH: usize = 4;

/// Interfaces embedding interfaces are followed this deep.
const MAX_EMBED_DEPTH: usize = 4;

impl<'a, 'b> Resolver<'a, 'b> {
    fn is_client(&self, file: &'a GoFile, dir: &str, w: &RawWrite) -> bool {
        match &w.client {
            ClientRef::TypedValue => match &w.object {
                WriteObject::Typed {
                    receiver, accessor, ..
                } => self
                    .values
                    .typed_call_kind(file, dir, receiver, accessor.as_deref())
                    .is_some(),
                _ => false,
            },
            ClientRef::Dynamic => match &w.object {
                WriteObject::Dynamic { root, .. } => self.is_dynamic_client(file, dir, root),
                _ => false,
            },
            ClientRef::Known | ClientRef::Clientset => true,
            ClientRef::ControllerUtil(q) => matches!(
                self.values.index.import_for(file, q).as_deref(),
                Some(CONTROLLERUTIL | CONTROLLER_RUNTIME)
            ),
            ClientRef::Constructed { qualifier, name } => {
                let import = self.values.index.import_for(file, qualifier);
                PATCHERS
                    .iter()
                    .any(|(p, _, c)| import.as_deref() == Some(*p) && c == name)
                    || (import.as_deref() == Some(CLIENT_PACKAGE)
                        && CLIENT_CONSTRUCTORS.contains(&name.as_str()))
            }
            ClientRef::PackageVar { qualifier, name } => self
                .values
                .package_var(file, dir, qualifier.as_deref(), name)
                .is_some_and(|(f, t)| self.is_client_type(f, &t)),
            ClientRef::Typed(t) => self.is_client_type(file, t),
            // The receiver's struct, when it embeds a client.
            ClientRef::Embedded(owner) => self.is_client_type(file, &TypeRef::named(None, owner)),
            ClientRef::Field { owner, field } => self
                .values
                .struct_field(dir, owner, field)
                .is_some_and(|(f, t)| self.is_client_type(f, &t)),
        }
    }

    /// client-go's dynamic client: a value of its type, or made by its constructors or a
    /// known getter (`DYNAMIC_GETTERS`).
    fn is_dynamic_client(&self, file: &'a GoFile, dir: &str, root: &ValueType) -> bool {
        let index = self.values.index;
        if let ValueType::ForeignResult {
            qualifier,
            name,
            index: 0,
        } = root
            && let Some(import) = index.import_for(file, qualifier)
        {
            let made = DYNAMIC_PACKAGES.contains(&import.as_str())
                && DYNAMIC_CONSTRUCTORS.contains(&name.as_str());
            if made || DYNAMIC_GETTERS.contains(&(import.as_str(), name.as_str())) {
                return true;
            }
        }
        self.values
            .declared_type(file, dir, root)
            .is_some_and(|(f, t)| {
                !t.collection
                    && DYNAMIC_TYPES.contains(&t.name.as_str())
                    && t.qualifier
                        .as_deref()
                        .and_then(|q| index.import_for(f, q))
                        .is_some_and(|i| DYNAMIC_PACKAGES.contains(&i.as_str()))
            })
    }

    fn is_client_type(&self, file: &GoFile, t: &TypeRef) -> bool {
        self.is_client_type_at(file, t, 0)
    }

    /// A controller-runtime client type, or an interface of this repository that embeds
    /// one (`type clientWithRecorder interface { client.Client; record.EventRecorder }`),
    /// followed through embeddings up to a depth.
    fn is_client_type_at(&self, file: &GoFile, t: &TypeRef, depth: usize) -> bool {
        let index = self.values.index;
        let import = t
            .qualifier
            .as_deref()
            .and_then(|q| index.import_for(file, q));
        if import.as_deref() == Some(CLIENT_PACKAGE) {
            return CLIENT_TYPES.contains(&t.name.as_str());
        }
        if PATCHERS
            .iter()
            .any(|(p, ty, _)| import.as_deref() == Some(*p) && t.name == *ty)
        {
            return true;
        }
        if t.collection || depth >= MAX_EMBED_DEPTH {
            return false;
        }
        let dir = match (&t.qualifier, &import) {
            (None, _) => dir_of(&file.path),
            (Some(_), Some(import)) => match index.dir_of_import(import) {
                Some(d) => d,
                None => return false,
            },
            (Some(_), None) => return false,
        };
        // An interface or a struct embedding a client is one (`r *Reconciler` with
        // `client.Client` embedded, handed to a helper).
        self.values
            .interface_embeds(dir, &t.name)
            .into_iter()
            .any(|(f, e)| self.is_client_type_at(f, e, depth + 1))
            || self
                .values
                .struct_fields(dir, &t.name)
                .into_iter()
                .any(|(f, name, e)| name.is_none() && self.is_client_type_at(f, e, depth + 1))
    }

    /// The calls of `func` made in its own package, as the call graph resolved them:
    /// (caller's file, caller, line, what the call passes), by file and line.
    fn same_package_calls(
        &self,
        dir: &str,
        func: &FuncRef,
    ) -> Vec<(&'a GoFile, &'a FuncRef, u32, &'b SamePackageArgs)> {
        let Some(node) = self.values.node_of(dir, func) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (caller, call) in self.graph.calls_into(node) {
            let (Some(args), Some(loc)) = (&call.same_package, self.values.located(caller)) else {
                continue;
            };
            if dir_of(&loc.file.path) == dir {
                out.push((loc.file, &loc.facts.func, call.line, args));
            }
        }
        out.sort_by(|a, b| (&a.0.path, a.2).cmp(&(&b.0.path, b.2)));
        out
    }

    /// The kinds field `field` of parameter `index` of `func` holds: that field of the
    /// argument every same-package call gives it. Empty unless each call's tells kinds.
    fn field_of_arguments(
        &self,
        dir: &str,
        func: &FuncRef,
        index: usize,
        field: &str,
    ) -> Vec<(String, String, String)> {
        let sites = self.same_package_calls(dir, func);
        let mut kinds: Vec<(String, String, String)> = Vec::new();
        for (caller_file, _, _, args) in &sites {
            let Some(arg) = args.values.get(index) else {
                return Vec::new();
            };
            let given = ValueType::Field {
                base: Box::new(arg.clone()),
                field: field.to_string(),
            };
            let found = self.values.value_kinds(caller_file, dir, &given);
            if found.is_empty() {
                return Vec::new();
            }
            for k in found {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
        }
        kinds
    }

    /// For parameter `index` of `func` typed by a type parameter: the position of that type
    /// parameter and the other parameters of the same type (all have one type at a call).
    fn same_type_arguments(&self, dir: &str, func: &FuncRef, index: usize) -> SameType {
        let Some(sig) = self
            .values
            .functions
            .get(&(dir.to_string(), func.clone()))
            .map(|l| l.signature())
        else {
            return SameType::default();
        };
        let Some(Some(t)) = sig.params.get(index).map(|(_, t)| t) else {
            return SameType::default();
        };
        let Some(position) = sig.type_params.iter().position(|p| *p == t.name) else {
            return SameType::default();
        };
        if t.qualifier.is_some() || t.collection {
            return SameType::default();
        }
        SameType {
            type_param: Some(position),
            params: (0..sig.params.len())
                .filter(|i| {
                    *i != index && sig.params.get(*i).and_then(|(_, p)| p.as_ref()) == Some(t)
                })
                .collect(),
        }
    }

    /// What the argument for parameter `index` is at one call site: an explicit type
    /// argument, else the argument itself when its kind is known or it is the caller's own
    /// parameter (followed further), else another argument of the same type parameter
    /// whose kind is known, else the argument as it is (reported unknown).
    fn argument(
        &self,
        file: &'a GoFile,
        dir: &str,
        call: &SamePackageArgs,
        index: usize,
        same_type: &SameType,
    ) -> Option<ValueType> {
        if let Some(Some(t)) = same_type.type_param.and_then(|p| call.type_args.get(p)) {
            return Some(ValueType::Type(t.clone()));
        }
        let arg = call.values.get(index)?;
        if matches!(arg, ValueType::Param { .. })
            || !self.values.value_kinds(file, dir, arg).is_empty()
        {
            return Some(arg.clone());
        }
        same_type
            .params
            .iter()
            .filter_map(|i| call.values.get(*i))
            .find(|a| !self.values.value_kinds(file, dir, a).is_empty())
            .or(Some(arg))
            .cloned()
    }

    /// The verb and kind a typed or dynamic client's call writes, given the kind of its
    /// client: a patch or apply of the `status` subresource is a `status_patch`, an update
    /// of it a `status_update`; client-go's `Evict` on a
    /// `Pod` or `Eviction` client creates a `policy` `Eviction` (None on a client of another
    /// kind: the method is not client-go's).
    fn subresource_write(
        &self,
        file: &GoFile,
        w: &RawWrite,
        kind: TypedKind,
    ) -> Option<(Verb, TypedKind)> {
        match &w.subresource {
            Some(Subresource::Eviction(version)) => match kind {
                Ok((g, _, k)) if g.is_empty() && k == "Pod" => Some((
                    Verb::Create,
                    Ok(("policy".into(), version.to_string(), "Eviction".into())),
                )),
                // client-go's eviction client's own `Evict`.
                Ok((g, v, k)) if g == "policy" && k == "Eviction" => {
                    Some((Verb::Create, Ok((g, v, k))))
                }
                Ok(_) => None,
                Err(why) => Some((Verb::Create, Err(why))),
            },
            Some(Subresource::Named(name))
                if self.values.index.eval(file, name).as_deref() == Some("status") =>
            {
                let verb = match w.verb {
                    Verb::Patch | Verb::Apply => Verb::StatusPatch,
                    Verb::Update => Verb::StatusUpdate,
                    verb => verb,
                };
                Some((verb, kind))
            }
            _ => Some((w.verb, kind)),
        }
    }

    /// The operations a write gives: one for a known object; for an object that is the
    /// function's parameter, one per call site (reported there), followed up to a depth.
    /// An object that stays a parameter of unknown kind is left pending (`Row::pending`).
    fn operations(
        &self,
        loc: &Located<'a>,
        dir: &'a str,
        func: &'a FuncRef,
        w: &RawWrite,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Vec<Row<'a>> {
        let file = loc.file;
        // Reported at a helper's call site, the write also names the helper's own line.
        let op_of =
            |verb: Verb, group: String, version: String, kind: String, line: u32, path: &str| {
                let mut sources = vec![SourceRef::new(path, line)];
                if (path, line) != (file.path.as_str(), w.line) {
                    sources.push(SourceRef::new(&file.path, w.line));
                }
                let kind = item_kind(verb, kind);
                Operation {
                    verb,
                    group,
                    version,
                    kind,
                    sources,
                    via: Vec::new(),
                    condition: w.condition.clone(),
                }
            };
        let op = |group, version, kind, line, path: &str| {
            op_of(w.verb, group, version, kind, line, path)
        };
        let object_kind = |object: &Option<ValueType>| {
            object
                .as_ref()
                .and_then(|o| self.values.value_kind(file, dir, o))
        };
        // A typed client's row: its kind, or `?` with a diagnostic naming the client and why.
        let mut typed_row = |kind: TypedKind| {
            let Some((verb, kind)) = self.subresource_write(file, w, kind) else {
                return Vec::new();
            };
            let mut reason = String::new();
            let (g, v, k) = kind.unwrap_or_else(|client| {
                reason = format!(
                    "cannot tell the kind {} through {client}",
                    if w.verb.is_read() { "read" } else { "written" }
                );
                diagnostics.push(Diagnostic::new(&file.path, w.line, reason.clone()));
                (UNRESOLVED.into(), UNRESOLVED.into(), UNRESOLVED.into())
            });
            let mut row = Row::new(op_of(verb, g, v, k, w.line, &file.path), func);
            row.reason = reason;
            vec![row]
        };
        match &w.object {
            WriteObject::Clientset {
                root,
                group_version,
                resource,
                object,
            } => typed_row(object_kind(object).map_or_else(
                || {
                    self.values
                        .chain_kind(file, dir, root, group_version, resource)
                        .map_err(|why| {
                            format!("the clientset accessor {group_version}().{resource}(…): {why}")
                        })
                },
                Ok,
            )),
            WriteObject::Dynamic { gvr, .. } => typed_row(
                match gvr {
                    Ok(gvr) => gvr_kind(self.values, file, gvr),
                    Err(written) => Err(format!(
                        "the resource `{written}` is not a GroupVersionResource expression the analyzer can read"
                    )),
                }
                .map_err(|why| format!("the dynamic client: {why}")),
            ),
            // The receiver's type names the resource exactly (the scale client's object
            // argument is a GroupResource); the object is asked only when it cannot.
            WriteObject::Typed {
                receiver,
                accessor,
                object,
            } => match self
                .values
                .typed_call_kind(file, dir, receiver, accessor.as_deref())
            {
                Some(Ok(kind)) => typed_row(Ok(kind)),
                Some(Err(client)) => typed_row(object_kind(object).ok_or(client)),
                None => Vec::new(),
            },
            WriteObject::Value(value) => {
                let mut out = Vec::new();
                let mut pending = vec![(value.clone(), loc.file, func, w.line, 0usize)];
                while let Some((value, file, func, line, depth)) = pending.pop() {
                    // Asserted to an interface (`o.(client.ObjectList)`): what it holds.
                    let value = match value {
                        ValueType::Asserted { ty, value }
                            if self.values.type_kind(file, &ty).is_none() =>
                        {
                            *value
                        }
                        value => value,
                    };
                    // A field of a parameter (`cfg.list`): that field of what every
                    // same-package caller passes, read here.
                    if let ValueType::Field { base, field } = &value
                        && let ValueType::Param { index, .. } = base.as_ref()
                        && self.values.value_kinds(file, dir, &value).is_empty()
                    {
                        let kinds = self.field_of_arguments(dir, func, *index, field);
                        if !kinds.is_empty() {
                            for (g, v, k) in kinds {
                                out.push(Row::new(op(g, v, k, line, &file.path), func));
                            }
                            continue;
                        }
                    }
                    // An element of a slice parameter (`for _, o := range objs`): the
                    // elements of what each same-package caller passes.
                    // (A slice of a concrete type, `[]corev1.Pod`, says it itself.)
                    if let ValueType::Elem(inner) = &value
                        && let ValueType::Param { index, .. } = inner.as_ref()
                        && depth < MAX_HELPER_DEPTH
                        && self.values.value_kinds(file, dir, &value).is_empty()
                    {
                        let sites = self.same_package_calls(dir, func);
                        for (caller_file, caller, line, args) in &sites {
                            if let Some(arg) = args.values.get(*index) {
                                let element = ValueType::Elem(Box::new(arg.clone()));
                                pending.push((element, caller_file, caller, *line, depth + 1));
                            }
                        }
                        if !sites.is_empty() {
                            continue;
                        }
                    }
                    if let ValueType::Param { index, ty } = &value {
                        let concrete = ty.as_ref().and_then(|t| self.values.type_kind(file, t));
                        if let Some((g, v, k)) = concrete {
                            out.push(Row::new(op(g, v, k, line, &file.path), func));
                            continue;
                        }
                        if depth < MAX_HELPER_DEPTH {
                            let sites = self.same_package_calls(dir, func);
                            if !sites.is_empty() {
                                let same_type = self.same_type_arguments(dir, func, *index);
                                for (caller_file, caller, line, args) in sites {
                                    match self.argument(caller_file, dir, args, *index, &same_type)
                                    {
                                        Some(arg) => pending.push((
                                            arg,
                                            caller_file,
                                            caller,
                                            line,
                                            depth + 1,
                                        )),
                                        None => continue,
                                    }
                                }
                                continue;
                            }
                        }
                    }
                    let kinds = self.values.value_kinds(file, dir, &value);
                    if !kinds.is_empty() {
                        for (g, v, k) in kinds {
                            out.push(Row::new(op(g, v, k, line, &file.path), func));
                        }
                        continue;
                    }
                    let unknown = Diagnostic::new(
                        &file.path,
                        line,
                        format!(
                            "cannot tell the kind of the object this {} {} ({})",
                            w.verb,
                            if w.verb.is_read() { "reads" } else { "writes" },
                            describe(&value)
                        ),
                    );
                    let mut row = Row::new(
                        op(
                            UNRESOLVED.into(),
                            UNRESOLVED.into(),
                            UNRESOLVED.into(),
                            line,
                            &file.path,
                        ),
                        func,
                    );
                    row.reason = unknown.message.clone();
                    // A parameter's kind may still be told by the controllers' call paths
                    // (`argument_rows`); the diagnostic waits till then.
                    match value {
                        ValueType::Param { index, .. } => row.pending = Some((index, unknown)),
                        _ => diagnostics.push(unknown),
                    }
                    out.push(row);
                }
                out
            }
        }
    }
}
