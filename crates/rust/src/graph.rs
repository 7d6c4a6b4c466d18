//! Per project: crates and binaries from file paths, same-crate calls followed from each
//! controller's reconcile function and each binary's `main`, and the model rows.
//!
//! A call is followed only when it picks one function. Functions are keyed by crate, module
//! path (the file's place under `src/` plus inline `mod`s) and impl type: `self.m()` and
//! `Self::m()` look among the caller's impl type's methods, `Type::m()` among `Type`'s,
//! `f()`, `a::f()`, `crate::a::f()` and `super::f()` among the free functions of that
//! module. A bare name no module path explains (a glob import) falls back to the one free
//! function of that name in the caller's file, else in the crate's module files (not other
//! binaries' roots). An ambiguous call is not followed, so a write is never attributed to a
//! controller on a guess.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::body::{ApiKind, Call, FnFacts, RawController, RawWatch};
use super::kinds::Kinds;
use super::routes::{RawRoute, TONIC, join};
use super::{CargoPackage, RustFile, RustFindings};
use manifests::proto::ProtoFile;
use model::{
    Area, Binary, Controller, Crd, Diagnostic, EnvVar, ExternalConnection, Flag, Gvk, HttpEndpoint,
    Operation, PackageInformer, PackageOperation, Relation, SourceRef, UNRESOLVED, Verb, Watch,
};

/// A function: (file index, function index).
type FnId = (usize, usize);

/// Where a file sits in its crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) crate_dir: String,
    /// The binary this file is the root of (`src/main.rs`, `src/bin/x.rs`, `examples/x.rs`).
    pub(crate) binary: Option<String>,
}

pub(crate) fn place(path: &str) -> Place {
    let segs: Vec<&str> = path.split('/').collect();
    // The last `src` (a `tests` module folder under it is still the crate's source), else
    // the last of Cargo's other target folders.
    let Some(i) = segs.iter().rposition(|s| *s == "src").or_else(|| {
        segs.iter()
            .rposition(|s| matches!(*s, "examples" | "tests" | "benches"))
    }) else {
        let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        return Place {
            crate_dir: dir.to_string(),
            binary: None,
        };
    };
    let crate_dir = segs[..i].join("/");
    let rel = &segs[i + 1..];
    let stem = |f: &str| f.strip_suffix(".rs").unwrap_or(f).to_string();
    let binary = match (segs[i], rel) {
        ("src", ["main.rs"]) => Some(String::new()),
        ("src", ["bin", f]) | ("examples", [f]) => Some(stem(f)),
        ("src", ["bin", d, "main.rs"]) | ("examples", [d, "main.rs"]) => Some(d.to_string()),
        _ => None,
    };
    Place { crate_dir, binary }
}

/// A file's module path in its crate: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`; crate
/// and binary roots (and files outside `src/`) are the root.
pub(crate) fn file_module(path: &str, place: &Place) -> Vec<String> {
    if place.binary.is_some() {
        return Vec::new();
    }
    let segs: Vec<&str> = path.split('/').collect();
    let Some(i) = segs.iter().rposition(|s| *s == "src") else {
        return Vec::new();
    };
    let mut module: Vec<String> = segs[i + 1..]
        .iter()
        .map(|s| s.strip_suffix(".rs").unwrap_or(s).to_string())
        .collect();
    if matches!(
        module.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        module.pop();
    }
    module
}

/// The module a call's path names, seen from `module`: `crate::…` from the root,
/// `self::…` and `super::…` from here, anything else from here (a child module).
fn absolute(module: &[String], qualifier: &[String]) -> Option<Vec<String>> {
    let mut out: Vec<String> = module.to_vec();
    let mut rest = qualifier;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            out.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().map(String::as_str) == Some("super") {
        out.pop()?;
        rest = &rest[1..];
    }
    out.extend(rest.iter().cloned());
    Some(out)
}

struct Graph<'a> {
    files: &'a [RustFile],
    places: Vec<Place>,
    /// Each file's module path in its crate.
    modules: Vec<Vec<String>>,
    /// Files of modules declared `#[cfg(test)] mod x;` (or below one): samples.
    test_files: Vec<bool>,
}

/// The one function a search found, or why there is none.
enum Pick {
    One(FnId),
    Several,
    None,
}

fn pick(found: impl IntoIterator<Item = FnId>) -> Pick {
    let mut it = found.into_iter();
    match (it.next(), it.next()) {
        (Some(one), None) => Pick::One(one),
        (Some(_), Some(_)) => Pick::Several,
        _ => Pick::None,
    }
}

impl Graph<'_> {
    /// Where a function's rows belong: a test file's are samples whatever the file's path.
    fn area(&self, fi: usize, func: &FnFacts) -> Area {
        if self.test_files.get(fi).copied().unwrap_or(false) {
            Area::Samples
        } else {
            func.area
        }
    }

    fn func(&self, (fi, i): FnId) -> Option<&FnFacts> {
        self.files.get(fi)?.functions.get(i)
    }

    /// Functions a call from file `from` may reach: its own file's, then the crate's module
    /// files (not other binaries' roots).
    fn reachable_from(&self, from: usize) -> impl Iterator<Item = (FnId, &FnFacts)> {
        let dir = self.places.get(from).map(|p| p.crate_dir.clone());
        self.files.iter().enumerate().flat_map(move |(fi, f)| {
            let p = &self.places[fi];
            let visible = fi == from || (Some(&p.crate_dir) == dir.as_ref() && p.binary.is_none());
            f.functions
                .iter()
                .enumerate()
                .filter(move |_| visible)
                .map(move |(i, func)| ((fi, i), func))
        })
    }

    /// The one function matching `want` in the caller's file, else in the crate.
    fn unique(&self, from: usize, want: impl Fn(&FnFacts) -> bool) -> Option<FnId> {
        let matching: Vec<FnId> = self
            .reachable_from(from)
            .filter(|(_, f)| want(f))
            .map(|(id, _)| id)
            .collect();
        match pick(matching.iter().copied().filter(|(fi, _)| *fi == from)) {
            Pick::One(id) => return Some(id),
            Pick::Several => return None,
            Pick::None => {}
        }
        match pick(matching) {
            Pick::One(id) => Some(id),
            _ => None,
        }
    }

    /// A function's full module path: its file's plus its inline modules.
    fn module_of(&self, (fi, i): FnId) -> Vec<String> {
        let mut m = self.modules.get(fi).cloned().unwrap_or_default();
        if let Some(f) = self.func((fi, i)) {
            m.extend(f.module.iter().cloned());
        }
        m
    }

    /// The function a call made in `from` reaches, when exactly one is shown to.
    fn resolve_call(&self, from: FnId, call: &Call) -> Option<FnId> {
        let caller = self.func(from)?;
        match call {
            Call::Method(ty, name) => {
                let owner = ty.clone().or_else(|| caller.owner.clone())?;
                self.unique(from.0, |f| {
                    f.name == *name && f.owner.as_deref() == Some(owner.as_str())
                })
            }
            Call::Path(qualifier, name) => {
                let here = self.module_of(from);
                let target = absolute(&here, qualifier)?;
                let free = |f: &FnFacts| f.name == *name && f.owner.is_none();
                let in_target = self
                    .reachable_from(from.0)
                    .filter(|(id, f)| free(f) && self.module_of(*id) == target)
                    .map(|(id, _)| id);
                match pick(in_target) {
                    Pick::One(id) => return Some(id),
                    Pick::Several => return None,
                    Pick::None => {}
                }
                let relative = !matches!(
                    qualifier.first().map(String::as_str),
                    Some("crate" | "self" | "super")
                );
                if !relative {
                    return None;
                }
                if qualifier.is_empty() {
                    // Brought in by a glob import, or declared where no path explains.
                    return self.unique(from.0, free);
                }
                // `a::f()` where `a` was imported through a glob: a module ending in `a`.
                let ending = self
                    .reachable_from(from.0)
                    .filter(|(id, f)| free(f) && self.module_of(*id).ends_with(qualifier))
                    .map(|(id, _)| id);
                match pick(ending) {
                    Pick::One(id) => Some(id),
                    _ => None,
                }
            }
        }
    }

    /// A function of the crate by name alone (routers and handlers named in route tables).
    fn callee(&self, from: usize, name: &str) -> Option<FnId> {
        let file = self.files.get(from)?;
        let local: Vec<usize> = file
            .functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.name == name)
            .map(|(i, _)| i)
            .collect();
        match local.as_slice() {
            [one] => return Some((from, *one)),
            [] => {}
            _ => return None,
        }
        let dir = &self.places.get(from)?.crate_dir;
        let mut found = None;
        for (fi, f) in self.files.iter().enumerate() {
            let p = &self.places[fi];
            if fi == from || p.crate_dir != *dir || p.binary.is_some() {
                continue;
            }
            for (i, func) in f.functions.iter().enumerate() {
                if func.name == name {
                    if found.is_some() {
                        return None;
                    }
                    found = Some((fi, i));
                }
            }
        }
        found
    }

    /// Functions reachable from `start` through followed calls, `start` included.
    fn reachable(&self, start: FnId) -> BTreeSet<FnId> {
        let mut seen = BTreeSet::from([start]);
        let mut queue = VecDeque::from([start]);
        while let Some((fi, i)) = queue.pop_front() {
            let Some(f) = self.files.get(fi).and_then(|f| f.functions.get(i)) else {
                continue;
            };
            for call in &f.calls {
                if let Some(id) = self.resolve_call((fi, i), call)
                    && seen.insert(id)
                {
                    queue.push_back(id);
                }
            }
        }
        seen
    }

    fn package(&self, fi: usize, packages: &[CargoPackage]) -> String {
        let dir = &self.places[fi].crate_dir;
        packages
            .iter()
            .find(|p| p.dir == *dir)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| {
                dir.rsplit('/')
                    .next()
                    .filter(|s| !s.is_empty())
                    .unwrap_or("crate")
                    .to_string()
            })
    }
}

/// A kind for the model, or the unresolved marker with the reason as a diagnostic.
fn kind_of(
    kinds: &Kinds,
    k: &ApiKind,
    at: &SourceRef,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Gvk, Option<String>) {
    let why = match k {
        ApiKind::Known(path) => match kinds.resolve(path, &at.file) {
            Ok(gvk) => return (gvk, None),
            Err(why) => (why, path.clone()),
        },
        ApiKind::Unknown(why) => (why.clone(), String::new()),
    };
    diagnostics.push(Diagnostic::new(
        &at.file,
        at.line,
        format!("{what}: kind unknown: {}", why.0),
    ));
    let kind = why
        .1
        .rsplit("::")
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(UNRESOLVED)
        .to_string();
    (
        Gvk {
            group: UNRESOLVED.into(),
            version: String::new(),
            kind,
        },
        Some(if why.1.is_empty() {
            UNRESOLVED.to_string()
        } else {
            why.1
        }),
    )
}

/// The kind of a client request (`what`: "write" or "read") and where it is (a diagnostic
/// when the kind is unknown).
fn request_kind(
    kinds: &Kinds,
    w: &super::body::RawRequest,
    what: &str,
    file: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Gvk, SourceRef) {
    let at = SourceRef::new(file, w.line);
    let (gvk, _) = kind_of(
        kinds,
        &w.kind,
        &at,
        &format!("`{}` {what}", w.verb),
        diagnostics,
    );
    (gvk, at)
}

fn watch(kinds: &Kinds, w: &RawWatch, file: &str, diagnostics: &mut Vec<Diagnostic>) -> Watch {
    let at = SourceRef::new(file, w.line);
    let (gvk, import_path) = kind_of(
        kinds,
        &w.kind,
        &at,
        &format!("{} watch", w.relation.label()),
        diagnostics,
    );
    Watch {
        relation: w.relation,
        group: gvk.group,
        version: gvk.version,
        kind: gvk.kind,
        conditional: false,
        condition: String::new(),
        import_path,
        raw_source: false,
        sources: vec![at],
    }
}

/// Resolves the facts of every Rust file of one project.
pub fn resolve(
    files: &[RustFile],
    packages: &[CargoPackage],
    protos: &[ProtoFile],
    diagnostics: &mut Vec<Diagnostic>,
) -> RustFindings {
    let graph = Graph::new(files);
    let kinds = Kinds::new(files.iter().flat_map(|f| {
        f.crds
            .iter()
            .map(|c| (f.path.clone(), c.type_name.clone(), c.gvk.clone()))
    }));
    let mut out = RustFindings {
        crds: crds(&graph),
        ..RustFindings::default()
    };
    let mut attributed: BTreeSet<FnId> = BTreeSet::new();
    for (fi, file) in files.iter().enumerate() {
        for (func_i, func) in file.functions.iter().enumerate() {
            for raw in &func.controllers {
                out.controllers.push(controller(
                    &graph,
                    &kinds,
                    (fi, func_i),
                    raw,
                    &mut attributed,
                    diagnostics,
                ));
            }
        }
    }
    package_rows(&graph, &kinds, packages, &attributed, &mut out, diagnostics);
    out.http_endpoints = endpoints(&graph, protos, diagnostics);
    out.binaries = binaries(&graph, packages, diagnostics);
    out.connections = connections(&graph, packages);
    let metric_facts: Vec<_> = files
        .iter()
        .map(|f| (f.path.as_str(), f.area, &f.metrics))
        .collect();
    out.metrics = super::metrics::resolve(&metric_facts, diagnostics);
    out
}

impl<'a> Graph<'a> {
    /// The project's files with their places and modules; a file under an out-of-line
    /// test module is a test file.
    fn new(files: &'a [RustFile]) -> Self {
        let places: Vec<Place> = files.iter().map(|f| place(&f.path)).collect();
        let modules: Vec<Vec<String>> = files
            .iter()
            .zip(&places)
            .map(|(f, p)| file_module(&f.path, p))
            .collect();
        // (crate, module path) of every out-of-line test module.
        let mut test_roots: BTreeSet<(String, Vec<String>)> = BTreeSet::new();
        for (fi, f) in files.iter().enumerate() {
            for m in &f.test_modules {
                let mut full = modules[fi].clone();
                full.extend(m.iter().cloned());
                test_roots.insert((places[fi].crate_dir.clone(), full));
            }
        }
        let test_files = modules
            .iter()
            .zip(&places)
            .map(|(m, p)| {
                test_roots.iter().any(|(dir, root)| {
                    *dir == p.crate_dir && p.binary.is_none() && m.starts_with(root)
                })
            })
            .collect();
        Graph {
            files,
            modules,
            places,
            test_files,
        }
    }
}

/// The CRDs the code derives; those of test files are samples.
fn crds(graph: &Graph) -> Vec<Crd> {
    graph
        .files
        .iter()
        .enumerate()
        .flat_map(|(fi, f)| {
            let test = graph.test_files[fi];
            f.crds.iter().map(move |c| {
                let mut crd = c.crd.clone();
                if test {
                    crd.area = Area::Samples;
                }
                crd
            })
        })
        .collect()
}

/// One controller chain of a function, with the writes and watches of every function
/// its reconciler reaches (recorded in `attributed`).
fn controller(
    graph: &Graph,
    kinds: &Kinds,
    (fi, func_i): FnId,
    raw: &RawController,
    attributed: &mut BTreeSet<FnId>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Controller {
    let files = graph.files;
    let file = &files[fi];
    let func = &file.functions[func_i];
    let mut watches = vec![watch(
        kinds,
        &RawWatch {
            relation: Relation::For,
            kind: raw.kind.clone(),
            line: raw.line,
        },
        &file.path,
        diagnostics,
    )];
    let name = if watches[0].is_resolved() {
        watches[0].kind.to_lowercase()
    } else {
        raw.reconciler.clone().unwrap_or_else(|| func.name.clone())
    };
    watches.extend(
        raw.watches
            .iter()
            .map(|w| watch(kinds, w, &file.path, diagnostics)),
    );
    let mut operations: Vec<Operation> = Vec::new();
    let mut reads: Vec<Operation> = Vec::new();
    let reconciler = raw
        .reconciler_call
        .as_ref()
        .and_then(|call| graph.resolve_call((fi, func_i), call));
    if let Some(start) = reconciler {
        for id in graph.reachable(start) {
            attributed.insert(id);
            let (rfi, ri) = id;
            let rf = &files[rfi];
            let f = &rf.functions[ri];
            for w in &f.writes {
                let (gvk, at) = request_kind(kinds, w, "write", &rf.path, diagnostics);
                add_operation(&mut operations, w.verb, gvk, at);
            }
            for r in &f.reads {
                let (gvk, at) = request_kind(kinds, r, "read", &rf.path, diagnostics);
                add_operation(&mut reads, r.verb, gvk, at);
            }
            for w in &f.informers {
                watches.push(watch(kinds, w, &rf.path, diagnostics));
            }
        }
    } else if let Some(r) = &raw.reconciler {
        diagnostics.push(Diagnostic::new(
            &file.path,
            raw.line,
            format!("reconcile function `{r}` not found, or not one function of that name in the crate: its writes are not attributed"),
        ));
    }
    operations.sort_by(|a, b| (&a.verb, &a.group, &a.kind).cmp(&(&b.verb, &b.group, &b.kind)));
    reads.sort_by(|a, b| (&a.verb, &a.group, &a.kind).cmp(&(&b.verb, &b.group, &b.kind)));
    Controller {
        shape: Default::default(),
        // The reconcile function `run` is given: what the pages name where a Go
        // controller's is its reconciler's `Reconcile`.
        entries: raw.reconciler.iter().cloned().collect(),
        conditions: Vec::new(),
        client_calls: None,
        name,
        reconciler: raw.reconciler.clone().unwrap_or_default(),
        area: graph.area(fi, func),
        sources: vec![SourceRef::new(&file.path, raw.line)],
        watches,
        operations,
        reads,
    }
}

/// The writes, reads and watchers of functions no controller reaches, by package.
fn package_rows(
    graph: &Graph,
    kinds: &Kinds,
    packages: &[CargoPackage],
    attributed: &BTreeSet<FnId>,
    out: &mut RustFindings,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let files = graph.files;
    for (fi, file) in files.iter().enumerate() {
        let package = graph.package(fi, packages);
        for (i, func) in file.functions.iter().enumerate() {
            if attributed.contains(&(fi, i)) {
                continue;
            }
            for (requests, what) in [(&func.writes, "write"), (&func.reads, "read")] {
                for w in requests {
                    let (gvk, at) = request_kind(kinds, w, what, &file.path, diagnostics);
                    let row = PackageOperation {
                        package: package.clone(),
                        function: func.name.clone(),
                        verb: w.verb,
                        group: gvk.group,
                        version: gvk.version,
                        kind: gvk.kind,
                        area: graph.area(fi, func),
                        sources: vec![at],
                    };
                    match what {
                        "write" => out.package_operations.push(row),
                        _ => out.package_reads.push(row),
                    }
                }
            }
            for w in &func.informers {
                let at = SourceRef::new(&file.path, w.line);
                let (gvk, _) = kind_of(kinds, &w.kind, &at, "watcher", diagnostics);
                out.informers.push(PackageInformer {
                    package: package.clone(),
                    function: func.name.clone(),
                    group: gvk.group,
                    version: gvk.version,
                    kind: gvk.kind,
                    area: graph.area(fi, func),
                    sources: vec![at],
                });
            }
        }
    }
}

fn add_operation(ops: &mut Vec<Operation>, verb: Verb, gvk: Gvk, at: SourceRef) {
    if let Some(o) = ops.iter_mut().find(|o| {
        o.verb == verb && o.group == gvk.group && o.version == gvk.version && o.kind == gvk.kind
    }) {
        if !o.sources.contains(&at) {
            o.sources.push(at);
            o.sources.sort();
        }
        return;
    }
    ops.push(Operation {
        verb,
        group: gvk.group,
        version: gvk.version,
        kind: gvk.kind,
        sources: vec![at],
        via: Vec::new(),
        condition: String::new(),
    });
}

/// Deepest chain of routers mounted in routers that is followed.
const MAX_MOUNTS: usize = 8;

fn endpoints(
    graph: &Graph,
    protos: &[ProtoFile],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<HttpEndpoint> {
    let files = graph.files;
    // Functions whose routers are mounted somewhere: their routes appear only under the
    // mount's prefix. Names are collected even when the mount cannot be followed, so an
    // unfollowed router is never listed without its prefix.
    let mut mounted_names: BTreeSet<(String, String)> = BTreeSet::new();
    for (fi, f) in files.iter().enumerate() {
        for func in &f.functions {
            for r in &func.routers {
                for m in &r.mounts {
                    mounted_names.insert((graph.places[fi].crate_dir.clone(), m.target.clone()));
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut actix_prefixes: BTreeMap<(usize, String), Vec<String>> = BTreeMap::new();
    for (fi, f) in files.iter().enumerate() {
        let dir = &graph.places[fi].crate_dir;
        for func in &f.functions {
            if mounted_names.contains(&(dir.clone(), func.name.clone())) {
                continue;
            }
            let local_mounts: BTreeSet<&str> = func
                .routers
                .iter()
                .flat_map(|r| r.mounts.iter().map(|m| m.target.as_str()))
                .collect();
            for r in &func.routers {
                if r.binding
                    .as_deref()
                    .is_some_and(|b| local_mounts.contains(b))
                {
                    continue;
                }
                // (file, router, prefix, depth) still to list.
                let mut stack = vec![(fi, r, String::new(), 0usize, func)];
                while let Some((rfi, r, prefix, depth, owner)) = stack.pop() {
                    let rf = &files[rfi];
                    for route in &r.routes {
                        if route.framework == TONIC {
                            out.extend(tonic_endpoints(rf, route, protos, diagnostics));
                        } else {
                            out.push(endpoint(
                                rf,
                                route,
                                &prefix,
                                graph.area(rfi, owner),
                                diagnostics,
                            ));
                        }
                    }
                    for (text, line) in &r.unfollowed {
                        diagnostics.push(Diagnostic::new(
                            &rf.path,
                            *line,
                            format!(
                                "nested router `{text}` not followed: its routes are not listed"
                            ),
                        ));
                    }
                    for m in &r.mounts {
                        let sub = join(&prefix, &m.prefix);
                        if depth >= MAX_MOUNTS {
                            diagnostics.push(Diagnostic::new(
                                &rf.path,
                                m.line,
                                "routers nested too deep: not followed".to_string(),
                            ));
                            continue;
                        }
                        // A router held in a local variable of the same function.
                        let bound: Vec<_> = owner
                            .routers
                            .iter()
                            .filter(|x| x.binding.as_deref() == Some(m.target.as_str()))
                            .collect();
                        if !bound.is_empty() {
                            for b in bound {
                                stack.push((rfi, b, sub.clone(), depth + 1, owner));
                            }
                            continue;
                        }
                        let attribute_handler =
                            files[rfi].actix.iter().any(|(n, _)| *n == m.target)
                                || graph.callee(rfi, &m.target).is_some_and(|(cfi, _)| {
                                    files[cfi].actix.iter().any(|(n, _)| *n == m.target)
                                });
                        if attribute_handler {
                            let id = graph
                                .callee(rfi, &m.target)
                                .map(|(cfi, _)| cfi)
                                .unwrap_or(rfi);
                            actix_prefixes
                                .entry((id, m.target.clone()))
                                .or_default()
                                .push(sub);
                            continue;
                        }
                        match graph.callee(rfi, &m.target) {
                            Some((cfi, ci)) => {
                                let callee = &files[cfi].functions[ci];
                                for cr in callee.routers.iter().filter(|x| x.binding.is_none()) {
                                    stack.push((cfi, cr, sub.clone(), depth + 1, callee));
                                }
                            }
                            None => diagnostics.push(Diagnostic::new(
                                &rf.path,
                                m.line,
                                format!("router `{}` mounted at `{}` not found, or not one function of that name: its routes are not listed", m.target, sub),
                            )),
                        }
                    }
                }
            }
        }
    }
    for (fi, f) in files.iter().enumerate() {
        let file_area = if graph.test_files[fi] {
            Area::Samples
        } else {
            f.area
        };
        for (name, route) in &f.actix {
            match actix_prefixes.get(&(fi, name.clone())) {
                Some(prefixes) => {
                    let mut ps = prefixes.clone();
                    ps.sort();
                    ps.dedup();
                    for p in ps {
                        out.push(endpoint(f, route, &p, file_area, diagnostics));
                    }
                }
                None => out.push(endpoint(f, route, "", file_area, diagnostics)),
            }
        }
        // Handlers of test code: listed as samples, never mounted under a product prefix.
        for (_, route) in &f.test_actix {
            out.push(endpoint(f, route, "", Area::Samples, diagnostics));
        }
    }
    out.sort_by(|a, b| (&a.sources, &a.method, &a.path).cmp(&(&b.sources, &b.method, &b.path)));
    out.dedup();
    out
}

/// The rows of one tonic service: `/package.Service/Method` for each rpc of the one
/// `.proto` service whose generated Rust name it is; `/Service/*`, unresolved, when no
/// `.proto` (or more than one) declares it.
fn tonic_endpoints(
    f: &RustFile,
    r: &RawRoute,
    protos: &[ProtoFile],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<HttpEndpoint> {
    let row = |path: String, unresolved: bool| HttpEndpoint {
        method: r.method.clone(),
        path,
        host: String::new(),
        handler: r.handler.clone(),
        framework: TONIC.to_string(),
        implicit: false,
        unresolved,
        area: f.area,
        sources: vec![SourceRef::new(&f.path, r.line)],
    };
    if r.path.is_empty() {
        diagnostics.push(Diagnostic::new(
            &f.path,
            r.line,
            format!(
                "tonic service `{}` is not a generated `…Server::new(…)` call: not listed",
                r.handler
            ),
        ));
        return Vec::new();
    }
    let (modules, name) = r.path.rsplit_once("::").unwrap_or(("", &r.path));
    let mut found: Vec<(&ProtoFile, &manifests::proto::ProtoService)> = protos
        .iter()
        .flat_map(|p| p.services.iter().map(move |s| (p, s)))
        .filter(|(_, s)| upper_camel(&s.name) == name)
        .collect();
    if found.len() > 1 {
        // `include_proto!("a.b")` puts package `a.b` in modules `a::b`: keep the services
        // whose package the type's module path ends with.
        let module_path = format!("::{modules}::");
        let matching: Vec<_> = found
            .iter()
            .copied()
            .filter(|(p, _)| {
                !p.package.is_empty()
                    && module_path.ends_with(&format!("::{}::", p.package.replace('.', "::")))
            })
            .collect();
        if !matching.is_empty() {
            found = matching;
        }
    }
    match found.as_slice() {
        [(p, s)] if s.rpcs.is_empty() => vec![row(format!("/{}/*", p.full_name(s)), false)],
        [(p, s)] => s
            .rpcs
            .iter()
            .map(|rpc| row(format!("/{}/{}", p.full_name(s), rpc.name), false))
            .collect(),
        _ => {
            let why = if found.is_empty() {
                "no .proto file in the repository declares it".to_string()
            } else {
                format!("{} .proto services have this name", found.len())
            };
            diagnostics.push(Diagnostic::new(
                &f.path,
                r.line,
                format!(
                    "gRPC service `{name}`: its full name is not known ({why}); listed as `/{name}/*`"
                ),
            ));
            vec![row(format!("/{name}/*"), true)]
        }
    }
}

/// A proto service name as tonic names its Rust server type (without `Server`):
/// `item_store` → `ItemStore`.
fn upper_camel(name: &str) -> String {
    name.split('_')
        .map(|part| {
            let mut c = part.chars();
            match c.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

fn endpoint(
    f: &RustFile,
    r: &RawRoute,
    prefix: &str,
    area: Area,
    diagnostics: &mut Vec<Diagnostic>,
) -> HttpEndpoint {
    if r.unresolved {
        diagnostics.push(Diagnostic::new(
            &f.path,
            r.line,
            format!("route path `{}` is not a string literal", r.path),
        ));
    }
    HttpEndpoint {
        method: r.method.clone(),
        path: join(prefix, &r.path),
        host: String::new(),
        handler: r.handler.clone(),
        framework: r.framework.to_string(),
        implicit: false,
        unresolved: r.unresolved,
        area,
        sources: vec![SourceRef::new(&f.path, r.line)],
    }
}

/// Every function's connecting calls, with the binaries whose `main` reaches them.
fn connections(graph: &Graph, packages: &[CargoPackage]) -> Vec<ExternalConnection> {
    let files = graph.files;
    let mains: Vec<(String, BTreeSet<FnId>)> = files
        .iter()
        .enumerate()
        .filter(|(fi, _)| graph.places[*fi].binary.is_some())
        .filter_map(|(fi, f)| Some((graph.package(fi, packages), graph.reachable((fi, f.main?)))))
        .collect();
    let mut out = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for (i, func) in f.functions.iter().enumerate() {
            for c in &func.connections {
                let mut programs: Vec<String> = mains
                    .iter()
                    .filter(|(_, reach)| reach.contains(&(fi, i)))
                    .map(|(p, _)| p.clone())
                    .collect();
                programs.dedup();
                out.push(ExternalConnection {
                    kind: c.kind.to_string(),
                    library: c.library.clone(),
                    call: c.call.clone(),
                    target: c.target.clone(),
                    programs,
                    area: graph.area(fi, func),
                    sources: vec![SourceRef::new(&f.path, c.line)],
                });
            }
        }
    }
    out
}

fn binaries(
    graph: &Graph,
    packages: &[CargoPackage],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Binary> {
    let files = graph.files;
    let mut out = Vec::new();
    let mut used: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut reached_env: BTreeSet<FnId> = BTreeSet::new();
    for (fi, f) in files.iter().enumerate() {
        let (Some(main), Some(bin)) = (f.main, graph.places[fi].binary.as_ref()) else {
            continue;
        };
        let package = graph.package(fi, packages);
        // A `[[bin]]` table that points at this file names the binary.
        let named = packages
            .iter()
            .flat_map(|p| p.bins.iter().map(move |b| (p, b)))
            .find(|(_, (_, path, _))| *path == f.path);
        let name_from: Vec<SourceRef> = named
            .map(|(p, (_, _, line))| {
                let manifest = if p.dir.is_empty() {
                    "Cargo.toml".to_string()
                } else {
                    format!("{}/Cargo.toml", p.dir)
                };
                SourceRef::new(&manifest, *line)
            })
            .into_iter()
            .collect();
        let name = match named {
            Some((_, (n, _, _))) => n.clone(),
            None if bin.is_empty() => package.clone(),
            None => bin.clone(),
        };
        let mut flags: Vec<Flag> = Vec::new();
        let mut env: Vec<EnvVar> = Vec::new();
        let reach = graph.reachable((fi, main));
        let mut parsed: Vec<String> = Vec::new();
        for &(rfi, ri) in &reach {
            reached_env.insert((rfi, ri));
            let rf = &files[rfi];
            let func = &rf.functions[ri];
            parsed.extend(func.parses.iter().cloned());
            for (var, line) in &func.env_reads {
                add_env(&mut env, var, SourceRef::new(&rf.path, *line));
            }
        }
        // Parsed structs and the structs they flatten, each once.
        let mut stack = parsed;
        let mut visited = BTreeSet::new();
        while let Some(type_name) = stack.pop() {
            if !visited.insert(type_name.clone()) {
                continue;
            }
            let Some(id) = clap_struct(graph, fi, &type_name) else {
                continue;
            };
            used.insert(id);
            let c = &files[id.0].clap[id.1];
            flags.extend(c.flags.iter().cloned());
            for e in &c.env {
                for s in &e.sources {
                    add_env(&mut env, &e.name, s.clone());
                }
            }
            stack.extend(c.flatten.iter().cloned());
        }
        env.sort_by(|a, b| a.name.cmp(&b.name));
        let main_line = f.functions[main].line;
        out.push(Binary {
            name,
            package,
            flags,
            env,
            area: f.area,
            sources: vec![SourceRef::new(&f.path, main_line)],
            name_from,
            commands: Vec::new(),
        });
    }
    // Flags and environment reads no binary is shown to reach: one entry per crate.
    let mut loose: BTreeMap<String, (Vec<Flag>, Vec<EnvVar>, model::Area)> = BTreeMap::new();
    for (fi, f) in files.iter().enumerate() {
        let package = graph.package(fi, packages);
        for (ci, c) in f.clap.iter().enumerate() {
            if used.contains(&(fi, ci)) || graph.test_files[fi] {
                continue;
            }
            let e = loose
                .entry(package.clone())
                .or_insert_with(|| (Vec::new(), Vec::new(), f.area));
            e.0.extend(c.flags.iter().cloned());
            for v in &c.env {
                for s in &v.sources {
                    add_env(&mut e.1, &v.name, s.clone());
                }
            }
        }
        for (i, func) in f.functions.iter().enumerate() {
            // Test code's environment is no binary's.
            if reached_env.contains(&(fi, i)) || graph.area(fi, func) != f.area {
                continue;
            }
            for (var, line) in &func.env_reads {
                let e = loose
                    .entry(package.clone())
                    .or_insert_with(|| (Vec::new(), Vec::new(), f.area));
                add_env(&mut e.1, var, SourceRef::new(&f.path, *line));
            }
        }
    }
    for (package, (flags, mut env, area)) in loose {
        env.sort_by(|a, b| a.name.cmp(&b.name));
        out.push(Binary {
            name: String::new(),
            package,
            flags,
            env,
            area,
            sources: Vec::new(),
            name_from: Vec::new(),
            commands: Vec::new(),
        });
    }
    let _ = diagnostics;
    out
}

fn add_env(env: &mut Vec<EnvVar>, name: &str, at: SourceRef) {
    match env.iter_mut().find(|e| e.name == name) {
        Some(e) => {
            if !e.sources.contains(&at) {
                e.sources.push(at);
                e.sources.sort();
            }
        }
        None => env.push(EnvVar {
            name: name.to_string(),
            sources: vec![at],
        }),
    }
}

/// The clap struct a binary parses: one of that name in its crate, else in the project.
fn clap_struct(graph: &Graph, from: usize, name: &str) -> Option<(usize, usize)> {
    let dir = &graph.places[from].crate_dir;
    let all: Vec<(usize, usize)> = graph
        .files
        .iter()
        .enumerate()
        .flat_map(|(fi, f)| {
            f.clap
                .iter()
                .enumerate()
                .filter(|(_, c)| c.name == name)
                .map(move |(ci, _)| (fi, ci))
        })
        .collect();
    let same_file: Vec<_> = all.iter().filter(|(fi, _)| *fi == from).collect();
    if let [one] = same_file.as_slice() {
        return Some(**one);
    }
    let same_crate: Vec<_> = all
        .iter()
        .filter(|(fi, _)| graph.places[*fi].crate_dir == *dir)
        .collect();
    match (same_crate.as_slice(), all.as_slice()) {
        ([one], _) => Some(**one),
        ([], [one]) => Some(*one),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
