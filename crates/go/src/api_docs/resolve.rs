//! The Go types of a project by import path and name, their qualifiers resolved: what
//! `annotate` walks a CRD's schema against.

use std::collections::HashMap;

use super::super::facts::GoFile;
use super::super::index::{GoIndex, GoInput};
use super::super::syntax::PREDECLARED_TYPES;
use super::MAX_INDIRECTION;
use crate::facts::api_docs::{Shape, Wrap};

/// A type: (import path, name).
pub(super) type Key = (String, String);

/// A resolved shape: the named type (`None` for a predeclared or unnamed one) inside its
/// collections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Target {
    pub(super) key: Option<Key>,
    pub(super) wrappers: Vec<Wrap>,
}

#[derive(Debug)]
pub(super) struct TypeDoc {
    pub(super) file: String,
    pub(super) line: u32,
    pub(super) doc: String,
    pub(super) markers: Vec<String>,
    pub(super) fields: Option<Vec<FieldDoc>>,
    pub(super) underlying: Option<Target>,
}

/// A struct's fields with its inline embedded structs opened (see `flat_fields`).
#[derive(Default)]
pub(super) struct Flat<'d> {
    pub(super) fields: Vec<&'d FieldDoc>,
    pub(super) closed: Vec<String>,
}

#[derive(Debug)]
pub(super) struct FieldDoc {
    pub(super) json: String,
    pub(super) inline: bool,
    pub(super) doc: String,
    pub(super) markers: Vec<String>,
    pub(super) target: Target,
}

/// The documentation of every Go type of a project, by import path and name, and the
/// packages of each API group and version.
#[derive(Debug, Default)]
pub struct ApiDocs {
    pub(super) types: HashMap<Key, TypeDoc>,
    pub(super) packages: HashMap<(String, String), Vec<String>>,
}

impl ApiDocs {
    pub fn build(files: &[GoInput], index: &GoIndex) -> ApiDocs {
        let mut docs = ApiDocs::default();
        for input in files {
            let file = &input.facts;
            let Some(package) = index.package_of(file) else {
                continue;
            };
            for d in &file.doc_decls {
                let key = (package.to_string(), d.name.clone());
                if docs.types.contains_key(&key) {
                    continue;
                }
                let resolve = |s: &Shape| target(s, file, package, index);
                let doc = TypeDoc {
                    file: file.path.clone(),
                    line: d.line,
                    doc: d.doc.clone(),
                    markers: d.markers.clone(),
                    fields: d.fields.as_ref().map(|fields| {
                        fields
                            .iter()
                            .map(|f| FieldDoc {
                                json: f.json.clone(),
                                inline: f.inline,
                                doc: f.doc.clone(),
                                markers: f.markers.clone(),
                                target: resolve(&f.shape),
                            })
                            .collect()
                    }),
                    underlying: d.underlying.as_ref().map(resolve),
                };
                if !docs.packages.values().flatten().any(|p| p == package)
                    && let Some(gv) = index.group_version(package)
                {
                    docs.packages
                        .entry(gv)
                        .or_default()
                        .push(package.to_string());
                }
                docs.types.insert(key, doc);
            }
        }
        docs
    }

    /// The struct named `kind` in a package of `group`/`version`.
    pub(super) fn root(&self, group: &str, version: &str, kind: &str) -> Option<Key> {
        let packages = self
            .packages
            .get(&(group.to_string(), version.to_string()))?;
        packages.iter().find_map(|p| {
            let key = (p.clone(), kind.to_string());
            self.types
                .get(&key)
                .is_some_and(|t| t.fields.is_some())
                .then_some(key)
        })
    }

    /// A target with `wraps` taken off its collections, following named types to what
    /// they are defined as when the collections are inside them (`type Hosts []Host`).
    pub(super) fn inside(&self, t: &Target, wraps: &[Wrap]) -> Option<Target> {
        let mut t = t.clone();
        for _ in 0..=MAX_INDIRECTION {
            if t.wrappers.starts_with(wraps) {
                return Some(Target {
                    key: t.key,
                    wrappers: t.wrappers[wraps.len()..].to_vec(),
                });
            }
            let under = self.types.get(t.key.as_ref()?)?.underlying.as_ref()?;
            t = Target {
                key: under.key.clone(),
                wrappers: [t.wrappers.as_slice(), under.wrappers.as_slice()].concat(),
            };
        }
        None
    }

    /// The struct a target is, following named types defined as another struct.
    pub(super) fn struct_of(&self, t: &Target) -> Option<(&Key, &TypeDoc)> {
        let t = self.inside(t, &[])?;
        if !t.wrappers.is_empty() {
            return None;
        }
        let mut key = t.key?;
        for _ in 0..=MAX_INDIRECTION {
            let (k, doc) = self.types.get_key_value(&key)?;
            if doc.fields.is_some() {
                return Some((k, doc));
            }
            let under = doc.underlying.as_ref()?;
            if !under.wrappers.is_empty() {
                return None;
            }
            key = under.key.clone()?;
        }
        None
    }

    /// A struct's serialized fields in order, embedded inline structs in place, and the
    /// packages outside the repository of the inline structs that could not be opened
    /// (`metav1.TypeMeta`: `apiVersion` and `kind` are in there).
    pub(super) fn flat_fields<'d>(&'d self, doc: &'d TypeDoc) -> Flat<'d> {
        let mut flat = Flat::default();
        // (fields, next index, depth): an explicit stack, bounded by MAX_INDIRECTION.
        let mut stack: Vec<(&[FieldDoc], usize, usize)> =
            vec![(doc.fields.as_deref().unwrap_or(&[]), 0, 0)];
        while let Some((fields, i, depth)) = stack.pop() {
            let Some(f) = fields.get(i) else {
                continue;
            };
            stack.push((fields, i + 1, depth));
            if !f.inline {
                flat.fields.push(f);
                continue;
            }
            match self.struct_of(&f.target) {
                Some((_, inner)) if depth < MAX_INDIRECTION => {
                    stack.push((inner.fields.as_deref().unwrap_or(&[]), 0, depth + 1));
                }
                _ => flat
                    .closed
                    .extend(self.outside(&f.target).map(str::to_string)),
            }
        }
        flat
    }

    /// The doc of a target's named type, if the repository declares it.
    pub(super) fn type_doc(&self, t: &Target) -> Option<&TypeDoc> {
        self.types.get(t.key.as_ref()?)
    }

    /// The import path of a target's type when the repository does not declare it.
    pub(super) fn outside<'t>(&self, t: &'t Target) -> Option<&'t str> {
        let key = t.key.as_ref()?;
        (!self.types.contains_key(key)).then_some(key.0.as_str())
    }
}

fn target(s: &Shape, file: &GoFile, package: &str, index: &GoIndex) -> Target {
    let key = match &s.qualifier {
        _ if s.name.is_empty() => None,
        None if PREDECLARED_TYPES.contains(&s.name.as_str()) => None,
        None => Some((package.to_string(), s.name.clone())),
        Some(q) => index.import_for(file, q).map(|p| (p, s.name.clone())),
    };
    Target {
        key,
        wrappers: s.wrappers.clone(),
    }
}
