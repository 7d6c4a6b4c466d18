//! Names across a crate, resolved as rustc resolves `use`: an import naming a module of
//! the file's own crate (`use crate::types::Api;`, `use super::types::*;`, `use
//! types::Client;` from the crate root) is followed to what that module declares or
//! imports (`pub use kube::{Api, Client};`), through chains of re-exports and globs, to
//! the path in another crate it stands for. A file that gains names this way is read
//! again with them (`extract_with`), so an `Api` re-exported by the crate is kube's `Api`
//! where it is used.
//!
//! Rules: explicit imports and items of a module come before its globs; an import is seen
//! from other modules only when it is `pub` (any `pub(…)`), and from its own module's
//! descendants always; a name two globs give different paths for is not used (no guess);
//! an import of the crate naming a module that has no file here is a diagnostic. Each
//! module's table of names is computed from the others' in rounds until none changes,
//! at most `MAX_DEPTH` rounds (a chain of re-exports that long); a round reads each
//! import once (a glob copies its module's table), whatever the cycles of globs.
//!
//! Modules come from the conventional layout (`src/a/b.rs`, `src/a/b/mod.rs`; see
//! `graph::file_module`); a binary's modules are looked up in its own root first, then in
//! the library's of the same package folder.

use std::collections::{BTreeMap, BTreeSet};

use super::graph::{file_module, place};
use super::uses::Import;
use super::{CargoPackage, RustFile};
use model::Diagnostic;

/// How many names of a module imported by name are listed for the importing file.
const MAX_MODULE_NAMES: usize = 2_000;

/// How many rounds the tables are recomputed: a chain of re-exports longer than this is
/// not followed to its end.
const MAX_DEPTH: usize = 8;

/// What crate-level resolution found for one file: local names that stand for paths of
/// other crates, and modules of other crates whose every name reaches the file through
/// re-exported globs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FileNames {
    pub names: BTreeMap<String, String>,
    pub globs: Vec<String>,
}

/// A crate: its package folder and the binary whose root it is (None for the library).
type CrateKey = (String, Option<String>);

/// A module of a crate.
type ModKey = (CrateKey, Vec<String>);

/// What one module of a crate declares and imports, from every file and inline module
/// that writes it.
#[derive(Default)]
struct Module<'a> {
    imports: Vec<&'a Import>,
    items: BTreeSet<&'a str>,
}

/// Where a name leads.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    /// A path of another crate (or of `std`).
    External(String),
    /// A module of a crate of the repository.
    Module(ModKey),
    /// An item of a crate of the repository.
    Local,
}

/// The names a module gives, seen from somewhere: its items and explicit imports, which
/// shadow what its globs bring; and the other crates' modules it globs whole.
#[derive(Default, Clone, PartialEq)]
struct Table {
    explicit: BTreeMap<String, BTreeSet<Target>>,
    globbed: BTreeMap<String, BTreeSet<Target>>,
    foreign_globs: BTreeSet<String>,
}

impl Table {
    fn get(&self, name: &str) -> Option<&BTreeSet<Target>> {
        self.explicit.get(name).or_else(|| self.globbed.get(name))
    }

    /// Every name with what it leads to, the explicit ones shadowing the globbed.
    fn entries(&self) -> impl Iterator<Item = (&String, &BTreeSet<Target>)> {
        self.explicit.iter().chain(
            self.globbed
                .iter()
                .filter(|(n, _)| !self.explicit.contains_key(*n)),
        )
    }

    /// Adds one entry; true when it was new.
    fn add(&mut self, explicit: bool, name: &str, target: &Target) -> bool {
        let map = if explicit {
            &mut self.explicit
        } else {
            &mut self.globbed
        };
        match map.get_mut(name) {
            Some(set) => set.insert(target.clone()),
            None => {
                map.insert(name.to_string(), BTreeSet::from([target.clone()]));
                true
            }
        }
    }
}

/// A module's names as its descendants see them (`all`) and as other modules do.
#[derive(Default, Clone)]
struct Views {
    all: Table,
    public: Table,
}

/// A module path seen from a module: of this crate (found or missing) or not.
enum ModulePath {
    Found(ModKey),
    /// Names the crate (`crate::`, `self::`, `super::`) but no module with a file here.
    Missing(Vec<String>),
    /// Another crate's path: as written, or through a name of this crate that stands for
    /// one (`pub use kube_core as core;` makes `crate::core::Resource` kube_core's).
    Foreign(Vec<String>),
}

struct Crates<'a> {
    modules: BTreeMap<ModKey, Module<'a>>,
    tables: BTreeMap<ModKey, Views>,
    /// The repository's library crates by the name code uses for them (`my-api` is
    /// `my_api`).
    workspace: BTreeMap<String, CrateKey>,
}

/// Finds the names each file's crate-relative imports stand for and reads again the files
/// that gain some. Files are changed in place; the diagnostics of the first reading were
/// already reported and are not repeated.
pub fn resolve_files(
    files: &mut [RustFile],
    packages: &[CargoPackage],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let found: Vec<(usize, FileNames)> = {
        let crates = Crates::new(files, packages);
        files
            .iter()
            .enumerate()
            .filter_map(|(fi, f)| {
                let names = crates.file_names(f, diagnostics);
                (names != FileNames::default()).then_some((fi, names))
            })
            .collect()
    };
    for (fi, names) in found {
        let f = &files[fi];
        let Some(text) = &f.source else { continue };
        let mut again = super::extract_with(&f.path, text, f.area, &names);
        again.diagnostics.clear();
        files[fi] = again;
    }
}

impl<'a> Crates<'a> {
    fn new(files: &'a [RustFile], packages: &[CargoPackage]) -> Self {
        let mut modules: BTreeMap<ModKey, Module<'a>> = BTreeMap::new();
        for f in files {
            let Some((krate, module)) = crate_and_module(&f.path) else {
                continue;
            };
            modules.entry((krate.clone(), module.clone())).or_default();
            for i in &f.imports {
                let key = (krate.clone(), import_module(&module, i));
                modules.entry(key).or_default().imports.push(i);
            }
            for (inner, name, is_module) in &f.items {
                let mut m = module.clone();
                m.extend(inner.iter().cloned());
                if *is_module {
                    let mut child = m.clone();
                    child.push(name.clone());
                    modules.entry((krate.clone(), child)).or_default();
                }
                modules
                    .entry((krate.clone(), m))
                    .or_default()
                    .items
                    .insert(name);
            }
        }
        let workspace = packages
            .iter()
            .map(|p| (p.name.replace('-', "_"), (p.dir.clone(), None)))
            .filter(|(_, k)| modules.contains_key(&(k.clone(), Vec::new())))
            .collect();
        let mut crates = Crates {
            modules,
            tables: BTreeMap::new(),
            workspace,
        };
        crates.fill_tables();
        crates
    }

    /// Each module's names, recomputed from the others' until nothing changes (or
    /// `MAX_DEPTH` rounds): a re-export of a re-export is known one round later.
    fn fill_tables(&mut self) {
        for (key, m) in &self.modules {
            let mut views = Views::default();
            for name in &m.items {
                views.all.add(true, name, &Target::Local);
                views.public.add(true, name, &Target::Local);
            }
            self.tables.insert(key.clone(), views);
        }
        for _ in 0..=MAX_DEPTH {
            let mut additions: Vec<(ModKey, bool, bool, String, Target)> = Vec::new();
            let mut glob_additions: Vec<(ModKey, bool, String)> = Vec::new();
            for (key, m) in &self.modules {
                for i in &m.imports {
                    match &i.name {
                        Some(name) => {
                            for t in self.import_targets(key, i) {
                                additions.push((key.clone(), i.public, true, name.clone(), t));
                            }
                        }
                        None => match self.module_path(key, &i.path) {
                            ModulePath::Found(p) => {
                                let Some(view) = self.view(&p, key) else {
                                    continue;
                                };
                                for (n, ts) in view.entries() {
                                    for t in ts {
                                        additions.push((
                                            key.clone(),
                                            i.public,
                                            false,
                                            n.clone(),
                                            t.clone(),
                                        ));
                                    }
                                }
                                for g in &view.foreign_globs {
                                    glob_additions.push((key.clone(), i.public, g.clone()));
                                }
                            }
                            ModulePath::Foreign(p) => {
                                glob_additions.push((key.clone(), i.public, p.join("::")))
                            }
                            ModulePath::Missing(_) => {}
                        },
                    }
                }
            }
            let mut changed = false;
            for (key, public, explicit, name, target) in additions {
                let Some(views) = self.tables.get_mut(&key) else {
                    continue;
                };
                changed |= views.all.add(explicit, &name, &target);
                if public {
                    changed |= views.public.add(explicit, &name, &target);
                }
            }
            for (key, public, glob) in glob_additions {
                let Some(views) = self.tables.get_mut(&key) else {
                    continue;
                };
                changed |= views.all.foreign_globs.insert(glob.clone());
                if public {
                    changed |= views.public.foreign_globs.insert(glob);
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The module `path` of a crate: in a binary's own root, else in its package's
    /// library.
    fn module(&self, krate: &CrateKey, path: &[String]) -> Option<ModKey> {
        let own = (krate.clone(), path.to_vec());
        if self.modules.contains_key(&own) {
            return Some(own);
        }
        let lib = ((krate.0.clone(), None), path.to_vec());
        (krate.1.is_some() && self.modules.contains_key(&lib)).then_some(lib)
    }

    /// Module `p`'s names as module `from` sees them: all of them from `p` and its
    /// descendants, the public ones from elsewhere (another crate included).
    fn view(&self, p: &ModKey, from: &ModKey) -> Option<&Table> {
        let views = self.tables.get(p)?;
        Some(if p.0 == from.0 && from.1.starts_with(&p.1) {
            &views.all
        } else {
            &views.public
        })
    }

    /// The module a path's leading segments name, seen from module `from`; a path into
    /// another crate of the repository (by its name, or through a name standing for it)
    /// is followed into that crate, a bounded number of times.
    fn module_path(&self, from: &ModKey, prefix: &[String]) -> ModulePath {
        let mut found = self.module_path_in(from, prefix);
        for _ in 0..MAX_DEPTH {
            let ModulePath::Foreign(p) = &found else {
                break;
            };
            let Some((krate, rest)) = p
                .split_first()
                .and_then(|(first, rest)| Some((self.workspace.get(first)?, rest)))
            else {
                break;
            };
            let mut path = vec!["crate".to_string()];
            path.extend(rest.iter().cloned());
            found = self.module_path_in(&(krate.clone(), Vec::new()), &path);
        }
        found
    }

    /// `module_path` within `from`'s crate.
    fn module_path_in(&self, from: &ModKey, prefix: &[String]) -> ModulePath {
        let (krate, here) = from;
        let Some(first) = prefix.first() else {
            return ModulePath::Found(from.clone());
        };
        if first.is_empty() {
            // `::http::uri`: another crate.
            return ModulePath::Foreign(prefix[1..].to_vec());
        }
        let mut at: Vec<String>;
        let mut rest = prefix;
        match first.as_str() {
            "crate" => {
                at = Vec::new();
                rest = &rest[1..];
            }
            "self" => {
                at = here.clone();
                rest = &rest[1..];
            }
            "super" => {
                at = here.clone();
                while rest.first().is_some_and(|s| s == "super") {
                    if at.pop().is_none() {
                        return ModulePath::Missing(prefix.to_vec());
                    }
                    rest = &rest[1..];
                }
            }
            // A child module of `from`, a name it imports from another crate, else
            // another crate (`kube::…`, `std::…`).
            child => {
                let mut m = here.clone();
                m.push(child.to_string());
                if self.module(krate, &m).is_none() {
                    return self
                        .alias(from, child, &rest[1..])
                        .unwrap_or_else(|| ModulePath::Foreign(prefix.to_vec()));
                }
                at = here.clone();
            }
        }
        for (k, seg) in rest.iter().enumerate() {
            let parent = at.clone();
            at.push(seg.clone());
            if self.module(krate, &at).is_none() {
                if let Some(key) = self.module(krate, &parent)
                    && let Some(found) = self.alias(&key, seg, &rest[k + 1..])
                {
                    return found;
                }
                return ModulePath::Missing(at);
            }
        }
        match self.module(krate, &at) {
            Some(key) => ModulePath::Found(key),
            None => ModulePath::Missing(at),
        }
    }

    /// What `name::rest` stands for in module `at`, when `name` is one thing there that
    /// is no module of its own: an import of another crate's module (`pub use kube_core as
    /// core;`) or of a module of the repository (`pub use my_api as api;`).
    fn alias(&self, at: &ModKey, name: &str, rest: &[String]) -> Option<ModulePath> {
        let targets = self.tables.get(at)?.all.get(name)?;
        match &targets.iter().collect::<Vec<_>>()[..] {
            [Target::External(p)] => {
                let mut out: Vec<String> = p.split("::").map(str::to_string).collect();
                out.extend(rest.iter().cloned());
                Some(ModulePath::Foreign(out))
            }
            // The rest is shorter than what led here: the walk ends.
            [Target::Module(m)] => {
                let mut path = vec!["self".to_string()];
                path.extend(rest.iter().cloned());
                Some(self.module_path_in(m, &path))
            }
            _ => None,
        }
    }

    /// Where a named import written in module `at` leads, by the tables so far.
    fn import_targets(&self, at: &ModKey, import: &Import) -> Vec<Target> {
        let Some((last, prefix)) = import.path.split_last() else {
            return Vec::new();
        };
        if prefix.is_empty() && !matches!(last.as_str(), "crate" | "self" | "super") {
            // `use kube;`, `use child;` or a crate of the repository.
            let mut m = at.1.clone();
            m.push(last.clone());
            return vec![match self.module(&at.0, &m) {
                Some(key) => Target::Module(key),
                None => match self.workspace.get(last) {
                    Some(krate) => Target::Module((krate.clone(), Vec::new())),
                    None => Target::External(last.clone()),
                },
            }];
        }
        match self.module_path(at, prefix) {
            ModulePath::Foreign(p) => vec![Target::External(format!("{}::{last}", p.join("::")))],
            ModulePath::Missing(_) => Vec::new(),
            ModulePath::Found(p) => {
                let mut child = p.1.clone();
                child.push(last.clone());
                if let Some(key) = self.module(&p.0, &child) {
                    return vec![Target::Module(key)];
                }
                self.view(&p, at)
                    .and_then(|v| v.get(last))
                    .map(|ts| ts.iter().cloned().collect())
                    .unwrap_or_default()
            }
        }
    }

    /// The names one file's crate-relative imports stand for in other crates.
    fn file_names(&self, f: &RustFile, diagnostics: &mut Vec<Diagnostic>) -> FileNames {
        let Some((krate, module)) = crate_and_module(&f.path) else {
            return FileNames::default();
        };
        // What the file's own imports of other crates already say: not found again.
        let mut own: BTreeMap<&str, String> = BTreeMap::new();
        let mut own_globs: BTreeSet<String> = BTreeSet::new();
        let mut explicit: BTreeSet<&str> = f.items.iter().map(|(_, n, _)| n.as_str()).collect();
        // Imports naming modules with no file here, by module: one diagnostic each.
        let mut missing: BTreeMap<Vec<String>, (u32, Vec<String>)> = BTreeMap::new();
        let mut out = FileNames::default();
        let mut from_globs: BTreeMap<String, BTreeSet<Target>> = BTreeMap::new();
        let mut globs: BTreeSet<String> = BTreeSet::new();
        for i in &f.imports {
            let at = (krate.clone(), import_module(&module, i));
            let prefix = match &i.name {
                Some(_) => &i.path[..i.path.len().saturating_sub(1)],
                None => &i.path[..],
            };
            let found = match self.module_path(&at, prefix) {
                ModulePath::Foreign(p) => {
                    // Written as another crate's path, or reached through this crate's
                    // names (then found here, not by the file's own `use` table).
                    let written = p.as_slice() == prefix
                        || (prefix.first().is_some_and(String::is_empty) && p == prefix[1..]);
                    let joined = p.join("::");
                    match &i.name {
                        Some(name) => {
                            explicit.insert(name);
                            let last = i.path.last().map(String::as_str).unwrap_or_default();
                            let full = format!("{joined}::{last}");
                            if written {
                                own.insert(name, full);
                            } else {
                                out.names.insert(name.clone(), full);
                            }
                        }
                        None if written => {
                            own_globs.insert(joined);
                        }
                        None => {
                            globs.insert(joined);
                        }
                    }
                    continue;
                }
                ModulePath::Missing(m) => {
                    let entry = missing.entry(m).or_insert((i.line, Vec::new()));
                    entry
                        .1
                        .push(i.name.clone().unwrap_or_else(|| "*".to_string()));
                    continue;
                }
                ModulePath::Found(p) => p,
            };
            match &i.name {
                Some(name) => {
                    explicit.insert(name);
                    match &self.import_targets(&at, i)[..] {
                        [Target::External(path)] => {
                            out.names.insert(name.clone(), path.clone());
                        }
                        // A module: the other crates' names it gives, as `name::item`.
                        [Target::Module(m)] => {
                            let Some(view) = self.view(m, &at) else {
                                continue;
                            };
                            for (item, ts) in view.entries().take(MAX_MODULE_NAMES) {
                                if let [Target::External(path)] = &ts.iter().collect::<Vec<_>>()[..]
                                {
                                    out.names.insert(format!("{name}::{item}"), path.clone());
                                }
                            }
                        }
                        _ => {}
                    }
                }
                None => {
                    let Some(view) = self.view(&found, &at) else {
                        continue;
                    };
                    for (n, ts) in view.entries() {
                        from_globs
                            .entry(n.clone())
                            .or_default()
                            .extend(ts.iter().cloned());
                    }
                    globs.extend(view.foreign_globs.iter().cloned());
                }
            }
        }
        for (m, (line, names)) in missing {
            diagnostics.push(Diagnostic::new(
                &f.path,
                line,
                format!(
                    "`use {}::{{{}}}`: no file of this crate is that module (by the layout src/…/name.rs or name/mod.rs; a module made by a macro or `#[path]` is not followed), so what these names are is not known",
                    if m.is_empty() { "crate".to_string() } else { format!("crate::{}", m.join("::")) },
                    names.join(", "),
                ),
            ));
        }
        // A name two globs give different things for is ambiguous: not used.
        for (name, targets) in from_globs {
            if explicit.contains(name.as_str()) {
                continue;
            }
            if let [Target::External(path)] = targets.iter().collect::<Vec<_>>()[..]
                && own.get(name.as_str()) != Some(path)
            {
                out.names.insert(name, path.clone());
            }
        }
        out.globs = globs.difference(&own_globs).cloned().collect();
        out
    }
}

/// The module an import is written in: the file's, then its inline modules.
fn import_module(module: &[String], import: &Import) -> Vec<String> {
    let mut m = module.to_vec();
    m.extend(import.module.iter().cloned());
    m
}

/// A file's crate and module, for files under a crate's `src/` (the layout `file_module`
/// knows); None for others (integration tests and examples are crates of their own).
fn crate_and_module(path: &str) -> Option<(CrateKey, Vec<String>)> {
    path.split('/').any(|s| s == "src").then_some(())?;
    let p = place(path);
    let module = file_module(path, &p);
    // `src/main.rs` is the root of the package's modules under `src/` when it has no
    // library; with one, both roots are taken as one (their modules rarely share names).
    let binary = p.binary.filter(|b| !b.is_empty());
    Some(((p.crate_dir, binary), module))
}

#[cfg(test)]
mod tests;
