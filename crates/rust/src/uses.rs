//! `use` declarations of one Rust file: which full path each local name stands for.
//!
//! `use k8s_openapi::api::core::v1 as corev1;`, grouped `use a::{b, c as d}` and nested
//! groups are flattened into a table from the local name to the full path. Glob imports
//! (`use a::b::*`) are kept apart: a name they bring in cannot be known without the other
//! crate's source. Each `use` is also kept as written (`Import`) so that `names` can
//! follow the ones naming modules of the same crate (`use super::types::*`) to what those
//! modules re-export; what it finds is added with `Uses::add_resolved`.

use std::collections::BTreeMap;

use syn::{Item, UseTree, Visibility};

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Uses {
    /// Local name → full path, segments joined with `::`.
    names: BTreeMap<String, String>,
    /// Paths imported with `*`.
    globs: Vec<String>,
}

impl Uses {
    /// The `use` items at the top level of a file (and of its inline modules).
    pub fn of_items(items: &[Item]) -> Uses {
        Uses::of_imports(&imports_of(items))
    }

    /// The table of a file's imports (`imports_of`), in their order: a later import of a
    /// name replaces an earlier one.
    pub fn of_imports(imports: &[Import]) -> Uses {
        let mut uses = Uses::default();
        for i in imports {
            // `use ::http::…` is written with an empty first segment.
            let path = i.path.strip_prefix(&[String::new()]).unwrap_or(&i.path);
            match &i.name {
                Some(name) => {
                    uses.names.insert(name.clone(), path.join("::"));
                }
                None => uses.globs.push(path.join("::")),
            }
        }
        uses
    }

    /// The full path for a path as written: its first segment replaced by what it was
    /// imported as. A path whose first segment was not imported is returned as written.
    pub fn resolve(&self, segments: &[String]) -> String {
        let Some(first) = segments.first() else {
            return String::new();
        };
        // `k8s::Api`, where `k8s` is a module of the crate re-exporting `kube::Api`
        // (`names` lists such names as `k8s::Api`).
        if let [first, second, rest @ ..] = segments
            && let Some(full) = self.names.get(&format!("{first}::{second}"))
        {
            let mut full = full.clone();
            for s in rest {
                full.push_str("::");
                full.push_str(s);
            }
            return full;
        }
        let mut full = self
            .names
            .get(first)
            .cloned()
            .unwrap_or_else(|| first.clone());
        // `use v1 as core; use core::Pod;`: an import may start with another alias.
        for _ in 0..8 {
            let (head, rest) = full.split_once("::").unwrap_or((full.as_str(), ""));
            match self.names.get(head) {
                Some(next) if next != head && !next.ends_with(&format!("::{head}")) => {
                    full = if rest.is_empty() {
                        next.clone()
                    } else {
                        format!("{next}::{rest}")
                    };
                }
                _ => break,
            }
        }
        for s in segments.iter().skip(1) {
            full.push_str("::");
            full.push_str(s);
        }
        full
    }

    /// Adds what crate-level resolution found for this file: local names whose imports
    /// lead, through other modules of the crate, to `path` (replacing the crate-relative
    /// path the file wrote), and the modules of other crates whose every name reaches the
    /// file through re-exported globs.
    pub fn add_resolved(&mut self, names: &BTreeMap<String, String>, globs: &[String]) {
        for (name, path) in names {
            self.names.insert(name.clone(), path.clone());
        }
        for g in globs {
            if !self.globs.contains(g) {
                self.globs.push(g.clone());
            }
        }
    }

    /// True when the path was imported by name (not through a glob).
    pub fn is_imported(&self, name: &str) -> bool {
        self.names.contains_key(name)
    }

    /// True when some import or glob comes from one of the crates named.
    pub fn uses_crate(&self, crates: &[&str]) -> bool {
        let from = |p: &String| {
            let first = p.split("::").next().unwrap_or("");
            crates.contains(&first)
        };
        self.names.values().any(from) || self.globs.iter().any(from)
    }
}

/// One `use` of a file as written, for resolving names across the crate (`names`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The inline module it sits in (`mod a { use … }`), relative to the file's module.
    pub module: Vec<String>,
    /// The name it binds (its last segment, or the rename); None for a glob.
    pub name: Option<String>,
    /// The path as written: through the item imported, or the glob's module. A path
    /// written with a leading `::` starts with an empty segment.
    pub path: Vec<String>,
    /// Seen from other modules than its own and their descendants (`pub`, `pub(crate)`,
    /// `pub(super)`, `pub(in …)`); a private one is seen by descendants only.
    pub public: bool,
    pub line: u32,
}

/// Every `use` of the file and of its inline modules, flattened to one `Import` per
/// name or glob.
pub fn imports_of(items: &[Item]) -> Vec<Import> {
    let mut out = Vec::new();
    let mut pending: Vec<(&[Item], Vec<String>)> = vec![(items, Vec::new())];
    while let Some((items, module)) = pending.pop() {
        for item in items {
            match item {
                Item::Use(u) => {
                    let public = !matches!(u.vis, Visibility::Inherited);
                    let line = super::syntax::line(u.use_token.span);
                    // `use ::http::…` names another crate whatever the module holds.
                    let root = if u.leading_colon.is_some() {
                        vec![String::new()]
                    } else {
                        Vec::new()
                    };
                    let mut stack: Vec<(Vec<String>, &UseTree)> = vec![(root, &u.tree)];
                    while let Some((prefix, tree)) = stack.pop() {
                        let mut push = |name: Option<String>, path: Vec<String>| {
                            out.push(Import {
                                module: module.clone(),
                                name,
                                path,
                                public,
                                line,
                            });
                        };
                        match tree {
                            UseTree::Path(p) => {
                                let mut next = prefix.clone();
                                next.push(p.ident.to_string());
                                stack.push((next, &p.tree));
                            }
                            UseTree::Name(n) if n.ident == "self" => {
                                if let Some(last) = prefix.last() {
                                    push(Some(last.clone()), prefix.clone());
                                }
                            }
                            UseTree::Name(n) => {
                                let mut path = prefix.clone();
                                path.push(n.ident.to_string());
                                push(Some(n.ident.to_string()), path);
                            }
                            // `use Trait as _` binds no name.
                            UseTree::Rename(r) if r.rename == "_" => {}
                            UseTree::Rename(r) => {
                                let mut path = prefix.clone();
                                if r.ident != "self" {
                                    path.push(r.ident.to_string());
                                }
                                push(Some(r.rename.to_string()), path);
                            }
                            UseTree::Glob(_) => push(None, prefix.clone()),
                            UseTree::Group(g) => {
                                for item in &g.items {
                                    stack.push((prefix.clone(), item));
                                }
                            }
                        }
                    }
                }
                Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        let mut inner_module = module.clone();
                        inner_module.push(m.ident.to_string());
                        pending.push((inner, inner_module));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Path segments as strings (generic arguments dropped).
pub fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

#[cfg(test)]
mod tests;
