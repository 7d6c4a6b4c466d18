//! Which program reaches what: each `package main` with the packages it links and the
//! functions its `main` (and the `init`s it links) reach, and each file's package name.

use foldhash::{HashMap, HashMapExt, HashSet};
use std::collections::{BTreeMap, BTreeSet};

use crate::calls::{FuncId, Graph};
use crate::index::{GoIndex, GoInput, dir_of};
use model::{Area, SourceRef};

/// The package (import path, else folder) of each file.
pub fn package_names(files: &[GoInput], index: &GoIndex) -> Vec<String> {
    files
        .iter()
        .map(|input| {
            let f = &input.facts;
            index
                .package_of(f)
                .map(str::to_string)
                .unwrap_or_else(|| dir_of(&f.path).to_string())
        })
        .collect()
}

/// A program (`package main` folder) and what it is shown to reach.
pub struct ProgramReach<'p> {
    pub package: &'p str,
    /// The in-repo packages it links, itself included.
    pub linked: BTreeSet<&'p str>,
    /// Functions reached from `main`, `init`s and package-level initializers of linked
    /// packages.
    pub reach: crate::calls::Reach,
    pub main_at: Option<SourceRef>,
    pub area: Area,
}

/// Every program of the project with what it reaches (`packages` from `package_names`).
pub fn program_reach<'p>(
    files: &[GoInput],
    packages: &'p [String],
    graph: &Graph,
) -> Vec<ProgramReach<'p>> {
    let known: HashSet<&str> = packages.iter().map(String::as_str).collect();
    // In-repo imports of each package, for the packages a program links.
    let mut imports: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for (fi, input) in files.iter().enumerate() {
        let entry = imports.entry(packages[fi].as_str()).or_default();
        for imp in &input.facts.imports {
            if let Some(p) = known.get(imp.path.as_str()) {
                entry.insert(p);
            }
        }
    }
    let mut mains: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (fi, input) in files.iter().enumerate() {
        if input.facts.package == "main" {
            mains.entry(packages[fi].as_str()).or_default().push(fi);
        }
    }
    let mut programs = Vec::new();
    for (pkg, members) in &mains {
        let mut linked: BTreeSet<&str> = BTreeSet::from([*pkg]);
        let mut queue = vec![*pkg];
        while let Some(p) = queue.pop() {
            for dep in imports.get(p).into_iter().flatten() {
                if linked.insert(dep) {
                    queue.push(dep);
                }
            }
        }
        let mut roots: Vec<FuncId> = Vec::new();
        let mut main_at = None;
        for (fi, input) in files.iter().enumerate() {
            let in_main = members.contains(&fi);
            if !in_main && !linked.contains(packages[fi].as_str()) {
                continue;
            }
            for (i, f) in input.facts.call_facts.iter().enumerate() {
                let init = f.receiver.is_none() && f.name == "init";
                let main = in_main && f.receiver.is_none() && f.name == "main";
                if f.is_top_level() || init || main {
                    roots.push(FuncId::new(fi, i));
                }
                if main && main_at.is_none() {
                    main_at = Some(SourceRef::new(&input.facts.path, f.line));
                }
            }
        }
        programs.push(ProgramReach {
            package: pkg,
            linked,
            reach: graph.reachable(roots),
            main_at,
            area: members
                .first()
                .map(|&fi| files[fi].area)
                .unwrap_or_default(),
        });
    }
    programs
}
