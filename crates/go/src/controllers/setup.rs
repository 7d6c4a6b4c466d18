//! The functions that set a work-queue controller up: where it obtains the informers and
//! listers it keeps (a `Register` method, a `NewController` building it, a wrapper type
//! embedding it, the functions handed to its constructor). An informer obtained there is
//! one of the controller's, although its reconcile never reaches that code.
//!
//! A controller's setup roots: every function building a value of its reconciler type
//! (a composite literal), the type's methods other than the reconcile entries, the methods
//! of types of its package embedding it, and the functions named as arguments to a call of
//! one of its builders (`New(kind, NewSigner, registerInformers)`); each followed a few
//! calls deep. A function calling the builders of this controller and of no other one is
//! its setup too (the `init` registering it), itself only: followed, a `main` building one
//! controller would bring everything it runs.

use foldhash::{HashMap, HashSet};

use super::TypeKey;
use crate::calls::{FuncId, Graph, Paths, RootOwners};
use crate::consts::ConstExpr;
use crate::facts::calls::Arg;
use crate::index::GoInput;
use crate::values::Values;

/// Setup code is followed this many calls deep from its roots.
const MAX_SETUP_DEPTH: usize = 4;
/// And through at most this many functions per controller.
const MAX_SETUP_REACHED: usize = 2_000;

/// What a controller's setup reaches: the functions followed from its roots, and the
/// functions that are its setup themselves only.
pub struct Setup {
    pub paths: Paths,
    pub own: HashSet<FuncId>,
}

impl Setup {
    pub fn contains(&self, graph: &Graph, id: FuncId) -> bool {
        self.own.contains(&id) || self.paths.contains(graph, id)
    }
}

/// Per controller (`keys[i]` the reconciler type of a work-queue controller, None for the
/// others), what its setup reaches.
pub fn setup_reach(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
    keys: &[Option<(&TypeKey, &[String])>],
) -> Vec<Option<Setup>> {
    let index = values.index;
    let by_type: HashMap<(&str, &str), usize> = keys
        .iter()
        .enumerate()
        .filter_map(|(i, k)| k.map(|(k, _)| ((k.pkg.as_str(), k.name.as_str()), i)))
        .collect();
    // Every function building a value of each controller's type.
    let mut builders: HashMap<usize, Vec<FuncId>> = HashMap::default();
    for input in files {
        let file = &input.facts;
        let dir = crate::index::dir_of(&file.path);
        for b in &file.built {
            let Some(pkg) = index.type_package(file, b.ty.qualifier.as_deref()) else {
                continue;
            };
            let Some(&i) = by_type.get(&(pkg.as_str(), b.ty.name.as_str())) else {
                continue;
            };
            if let Some(id) = values.node_of(dir, &b.func) {
                builders.entry(i).or_default().push(id);
            }
        }
    }
    let builder_of: HashMap<FuncId, usize> = builders
        .iter()
        .flat_map(|(&i, ids)| ids.iter().map(move |&id| (id, i)))
        .collect();
    // Callers of builders: which controllers each builds, and the functions it hands them.
    let mut built_by: HashMap<FuncId, HashSet<usize>> = HashMap::default();
    let mut handed: HashMap<usize, Vec<FuncId>> = HashMap::default();
    for (&builder, &i) in &builder_of {
        for (caller, call) in graph.calls_into(builder) {
            built_by.entry(caller).or_default().insert(i);
            for arg in &call.args {
                if let Arg::Str(ConstExpr::Ref { qualifier, name }) = arg {
                    handed.entry(i).or_default().extend(graph.function(
                        caller.file,
                        qualifier.as_deref(),
                        name,
                    ));
                }
            }
        }
    }
    // Each package's files, and each function building one controller's type alone.
    let mut by_package: HashMap<&str, Vec<usize>> = HashMap::default();
    for (fi, input) in files.iter().enumerate() {
        if let Some(pkg) = index.package_of(&input.facts) {
            by_package.entry(pkg).or_default().push(fi);
        }
    }
    let mut own: HashMap<usize, HashSet<FuncId>> = HashMap::default();
    for (&f, built) in &built_by {
        if let [only] = built.iter().copied().collect::<Vec<_>>()[..] {
            own.entry(only).or_default().insert(f);
        }
    }
    let roots: Vec<Option<Vec<FuncId>>> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let (key, entries) = (*key)?;
            let mut roots: Vec<FuncId> = builders.get(&i).cloned().unwrap_or_default();
            roots.extend(handed.get(&i).into_iter().flatten().copied());
            let package = by_package
                .get(key.pkg.as_str())
                .map_or(&[][..], Vec::as_slice);
            // Types of its package embedding it (`struct{ *controller }`).
            let embedders: Vec<&str> = package
                .iter()
                .flat_map(|&fi| &files[fi].facts.structs)
                .filter(|s| {
                    s.fields
                        .iter()
                        .any(|f| f.embedded && f.ty.qualifier.is_none() && f.ty.name == key.name)
                })
                .map(|s| s.name.as_str())
                .collect();
            for &fi in package {
                for (j, f) in files[fi].facts.call_facts.iter().enumerate() {
                    let Some(receiver) = &f.receiver else {
                        continue;
                    };
                    let entry = entries.iter().any(|e| {
                        e.strip_prefix(receiver.as_str())
                            .and_then(|rest| rest.strip_prefix('.'))
                            == Some(f.name.as_str())
                    });
                    if (*receiver == key.name && !entry) || embedders.contains(&receiver.as_str()) {
                        roots.push(FuncId::new(fi, j));
                    }
                }
            }
            roots.sort_unstable();
            roots.dedup();
            Some(roots)
        })
        .collect();
    // Setup code reaching another controller's (a framework's `Register` called through
    // an interface every controller implements) stops there.
    let owners = RootOwners::new(roots.iter().map(Option::as_ref));
    roots
        .iter()
        .enumerate()
        .map(|(i, roots)| {
            let roots = roots.as_ref()?;
            Some(Setup {
                paths: graph.paths_avoiding(roots, MAX_SETUP_DEPTH, MAX_SETUP_REACHED, |id| {
                    owners.of_another(i, id)
                }),
                own: own.remove(&i).unwrap_or_default(),
            })
        })
        .collect()
}
