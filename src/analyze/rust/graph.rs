//! Per project: crates and binaries from file paths, same-crate calls followed from each
//! controller's reconcile function and each binary's `main`, and the model rows.
//!
//! A call is followed only when its name picks one function: first among the caller's own
//! file, else among the crate's module files (not other binaries' roots). An ambiguous
//! name is not followed, so a write is never attributed to a controller on a guess.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::body::{ApiKind, RawWatch};
use super::kinds::Kinds;
use super::routes::{RawRoute, join};
use super::{CargoPackage, RustFile, RustFindings};
use crate::model::{
    Binary, Controller, Diagnostic, EnvVar, Flag, Gvk, HttpEndpoint, Operation, PackageInformer,
    PackageOperation, Relation, SourceRef, UNRESOLVED, Watch,
};

/// A function: (file index, function index).
type FnId = (usize, usize);

/// Where a file sits in its crate.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place {
    crate_dir: String,
    /// The binary this file is the root of (`src/main.rs`, `src/bin/x.rs`, `examples/x.rs`).
    binary: Option<String>,
}

fn place(path: &str) -> Place {
    let segs: Vec<&str> = path.split('/').collect();
    let Some(i) = segs
        .iter()
        .rposition(|s| matches!(*s, "src" | "examples" | "tests" | "benches"))
    else {
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

struct Graph<'a> {
    files: &'a [RustFile],
    places: Vec<Place>,
}

impl Graph<'_> {
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
            for name in &f.calls {
                if let Some(id) = self.callee(fi, name)
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

/// The kind of a client write and where it is (a diagnostic when the kind is unknown).
fn write_kind(
    kinds: &Kinds,
    w: &super::body::RawWrite,
    file: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Gvk, SourceRef) {
    let at = SourceRef::new(file, w.line);
    let (gvk, _) = kind_of(
        kinds,
        &w.kind,
        &at,
        &format!("`{}` write", w.verb),
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
        import_path,
        sources: vec![at],
    }
}

/// Resolves the facts of every Rust file of one project.
pub fn resolve(
    files: &[RustFile],
    packages: &[CargoPackage],
    diagnostics: &mut Vec<Diagnostic>,
) -> RustFindings {
    let graph = Graph {
        files,
        places: files.iter().map(|f| place(&f.path)).collect(),
    };
    let kinds = Kinds::new(files.iter().flat_map(|f| {
        f.crds
            .iter()
            .map(|c| (f.path.clone(), c.type_name.clone(), c.gvk.clone()))
    }));
    let mut out = RustFindings {
        crds: files
            .iter()
            .flat_map(|f| f.crds.iter().map(|c| c.crd.clone()))
            .collect(),
        ..RustFindings::default()
    };
    let mut attributed: BTreeSet<FnId> = BTreeSet::new();
    for (fi, file) in files.iter().enumerate() {
        for func in &file.functions {
            for raw in &func.controllers {
                let mut watches = vec![watch(
                    &kinds,
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
                        .map(|w| watch(&kinds, w, &file.path, diagnostics)),
                );
                let mut operations: Vec<Operation> = Vec::new();
                let reconciler = raw.reconciler.as_deref().and_then(|r| graph.callee(fi, r));
                if let Some(start) = reconciler {
                    for id in graph.reachable(start) {
                        attributed.insert(id);
                        let (rfi, ri) = id;
                        let rf = &files[rfi];
                        let f = &rf.functions[ri];
                        for w in &f.writes {
                            let (gvk, at) = write_kind(&kinds, w, &rf.path, diagnostics);
                            add_operation(&mut operations, w.verb, gvk, at);
                        }
                        for w in &f.informers {
                            watches.push(watch(&kinds, w, &rf.path, diagnostics));
                        }
                    }
                } else if let Some(r) = &raw.reconciler {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        raw.line,
                        format!("reconcile function `{r}` not found, or not one function of that name in the crate: its writes are not attributed"),
                    ));
                }
                operations.sort_by(|a, b| {
                    (&a.verb, &a.group, &a.kind).cmp(&(&b.verb, &b.group, &b.kind))
                });
                out.controllers.push(Controller {
                    name,
                    reconciler: raw.reconciler.clone().unwrap_or_default(),
                    area: file.area,
                    sources: vec![SourceRef::new(&file.path, raw.line)],
                    watches,
                    operations,
                });
            }
        }
    }
    for (fi, file) in files.iter().enumerate() {
        let package = graph.package(fi, packages);
        for (i, func) in file.functions.iter().enumerate() {
            if attributed.contains(&(fi, i)) {
                continue;
            }
            for w in &func.writes {
                let (gvk, at) = write_kind(&kinds, w, &file.path, diagnostics);
                out.package_operations.push(PackageOperation {
                    package: package.clone(),
                    function: func.name.clone(),
                    verb: w.verb.to_string(),
                    group: gvk.group,
                    version: gvk.version,
                    kind: gvk.kind,
                    area: file.area,
                    sources: vec![at],
                });
            }
            for w in &func.informers {
                let at = SourceRef::new(&file.path, w.line);
                let (gvk, _) = kind_of(&kinds, &w.kind, &at, "watcher", diagnostics);
                out.informers.push(PackageInformer {
                    package: package.clone(),
                    function: func.name.clone(),
                    group: gvk.group,
                    version: gvk.version,
                    kind: gvk.kind,
                    area: file.area,
                    sources: vec![at],
                });
            }
        }
    }
    out.http_endpoints = endpoints(&graph, diagnostics);
    out.binaries = binaries(&graph, packages, diagnostics);
    out
}

fn add_operation(ops: &mut Vec<Operation>, verb: &str, gvk: Gvk, at: SourceRef) {
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
        verb: verb.to_string(),
        group: gvk.group,
        version: gvk.version,
        kind: gvk.kind,
        sources: vec![at],
    });
}

/// Deepest chain of routers mounted in routers that is followed.
const MAX_MOUNTS: usize = 8;

fn endpoints(graph: &Graph, diagnostics: &mut Vec<Diagnostic>) -> Vec<HttpEndpoint> {
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
                        out.push(endpoint(rf, route, &prefix, diagnostics));
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
        for (name, route) in &f.actix {
            match actix_prefixes.get(&(fi, name.clone())) {
                Some(prefixes) => {
                    let mut ps = prefixes.clone();
                    ps.sort();
                    ps.dedup();
                    for p in ps {
                        out.push(endpoint(f, route, &p, diagnostics));
                    }
                }
                None => out.push(endpoint(f, route, "", diagnostics)),
            }
        }
    }
    out.sort_by(|a, b| (&a.sources, &a.method, &a.path).cmp(&(&b.sources, &b.method, &b.path)));
    out.dedup();
    out
}

fn endpoint(
    f: &RustFile,
    r: &RawRoute,
    prefix: &str,
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
        area: f.area,
        sources: vec![SourceRef::new(&f.path, r.line)],
    }
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
    let mut loose: BTreeMap<String, (Vec<Flag>, Vec<EnvVar>, crate::model::Area)> = BTreeMap::new();
    for (fi, f) in files.iter().enumerate() {
        let package = graph.package(fi, packages);
        for (ci, c) in f.clap.iter().enumerate() {
            if used.contains(&(fi, ci)) {
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
            if reached_env.contains(&(fi, i)) {
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
mod tests {
    use super::*;

    #[test]
    fn places() {
        assert_eq!(
            place("controller/src/main.rs"),
            Place {
                crate_dir: "controller".into(),
                binary: Some(String::new())
            }
        );
        assert_eq!(
            place("src/bin/crdgen.rs"),
            Place {
                crate_dir: String::new(),
                binary: Some("crdgen".into())
            }
        );
        assert_eq!(
            place("examples/pod_watcher.rs"),
            Place {
                crate_dir: String::new(),
                binary: Some("pod_watcher".into())
            }
        );
        assert_eq!(
            place("api/src/lib.rs"),
            Place {
                crate_dir: "api".into(),
                binary: None
            }
        );
    }
}
