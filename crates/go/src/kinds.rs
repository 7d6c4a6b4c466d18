//! The CRDs a repository ships, for the group/version of Go API packages that neither their
//! code nor the built-in tables (`kubernetes::go_packages`) name; `[groups]` in
//! projects.toml adds more.

use std::collections::{BTreeMap, BTreeSet};

use model::Crd;

/// The custom resources a repository ships as CRD manifests, for Go types from modules the
/// tables do not know: `github.com/foo/bar/apis/widgets/v1alpha1.Widget` is the CRD of kind
/// `Widget` that serves `v1alpha1`, when exactly one shipped CRD does.
#[derive(Debug, Default, Clone)]
pub struct ShippedCrds {
    /// kind → (group, served versions), one entry per group.
    by_kind: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    /// (group, plural) → kind.
    by_plural: BTreeMap<(String, String), String>,
}

/// What the shipped CRDs say about one Go type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shipped {
    /// No shipped CRD has this kind and version.
    None,
    /// Exactly one: its (group, version).
    One(String, String),
    /// Several groups have this kind and version: their names.
    Several(Vec<String>),
}

impl ShippedCrds {
    pub fn new<'c>(crds: impl IntoIterator<Item = &'c Crd>) -> ShippedCrds {
        let mut shipped = ShippedCrds::default();
        for c in crds {
            if c.kind.is_empty() || c.group.is_empty() {
                continue;
            }
            let versions = shipped
                .by_kind
                .entry(c.kind.clone())
                .or_default()
                .entry(c.group.clone())
                .or_default();
            versions.extend(
                c.versions
                    .iter()
                    .filter(|v| v.served)
                    .map(|v| v.name.clone()),
            );
            if !c.plural.is_empty() {
                shipped
                    .by_plural
                    .entry((c.group.clone(), c.plural.clone()))
                    .or_insert_with(|| c.kind.clone());
            }
        }
        shipped
    }

    /// The kind of a shipped CRD's resource (`group`, plural).
    pub fn kind_of_resource(&self, group: &str, plural: &str) -> Option<&str> {
        self.by_plural
            .get(&(group.to_string(), plural.to_string()))
            .map(String::as_str)
    }

    /// The shipped CRD a type `kind` of Go package `import_path` is: same kind, serving
    /// the last version-like element of the import path.
    pub fn lookup(&self, import_path: &str, kind: &str) -> Shipped {
        let Some(version) = import_path.rsplit('/').find(|s| kubernetes::is_version(s)) else {
            return Shipped::None;
        };
        let groups: Vec<String> = self
            .by_kind
            .get(kind)
            .into_iter()
            .flatten()
            .filter(|(_, versions)| versions.contains(version))
            .map(|(group, _)| group.clone())
            .collect();
        match groups.as_slice() {
            [] => Shipped::None,
            [one] => Shipped::One(one.clone(), version.to_string()),
            _ => Shipped::Several(groups),
        }
    }
}

#[cfg(test)]
mod tests;
