//! Kubernetes API versions that are deprecated or removed (the table in
//! `deprecations.toml`, with its source), and every use of them in a project: objects of
//! manifests and Helm templates (recorded by the YAML analyzer as `Project::api_uses`) and
//! the kinds Go and Rust code watches, reads and writes (the controllers' rows).
//!
//! Stage: leaf (the table) and render input (`findings`). Judged against
//! `site.target_kubernetes` when set: removed at or before the target, deprecated at or
//! before it, or removed in a later release.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::{Error, KubeVersion};
use model::{Place, Project, SourceRef};

/// One row of the table.
#[derive(Debug, Clone)]
pub struct Entry {
    pub group: String,
    pub version: String,
    /// Empty: every kind of the group/version.
    pub kinds: Vec<String>,
    pub deprecated: Option<KubeVersion>,
    pub removed: Option<KubeVersion>,
    pub replacement: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    api: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    group: String,
    version: String,
    #[serde(default)]
    kinds: Vec<String>,
    deprecated: Option<String>,
    removed: Option<String>,
    replacement: String,
}

const TABLE: &str = include_str!("deprecations.toml");

/// The table (parsed once; a unit test keeps the file valid).
pub fn table() -> &'static [Entry] {
    static PARSED: OnceLock<Vec<Entry>> = OnceLock::new();
    PARSED.get_or_init(|| parse(TABLE).unwrap_or_default())
}

fn parse(text: &str) -> Result<Vec<Entry>, Error> {
    let raw: RawTable = toml::from_str(text)?;
    raw.api
        .into_iter()
        .map(|r| {
            let version = |v: &Option<String>| -> Result<Option<KubeVersion>, Error> {
                v.as_deref()
                    .map(|t| {
                        KubeVersion::parse(t).ok_or_else(|| Error::Version {
                            text: t.to_string(),
                        })
                    })
                    .transpose()
            };
            Ok(Entry {
                deprecated: version(&r.deprecated)?,
                removed: version(&r.removed)?,
                group: r.group,
                version: r.version,
                kinds: r.kinds,
                replacement: r.replacement,
            })
        })
        .collect()
}

/// The table's row for a kind at a group/version, if it lists it.
pub fn lookup(group: &str, version: &str, kind: &str) -> Option<&'static Entry> {
    table().iter().find(|e| {
        e.group == group
            && e.version == version
            && (e.kinds.is_empty() || e.kinds.iter().any(|k| k == kind))
    })
}

/// Where the target stands with an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Not served by the target release.
    Removed,
    /// Deprecated at the target, still served.
    Deprecated,
    /// Removed or deprecated by a release after the target, or no target is set.
    Later,
}

impl Status {
    pub fn of(e: &Entry, target: Option<KubeVersion>) -> Status {
        let Some(t) = target else {
            return Status::Later;
        };
        if e.removed.is_some_and(|r| r <= t) {
            Status::Removed
        } else if e.deprecated.is_some_and(|d| d <= t) {
            Status::Deprecated
        } else {
            Status::Later
        }
    }

    pub fn label(self, e: &Entry) -> String {
        let removed = e.removed.map(|r| format!("removed in {r}"));
        let deprecated = e.deprecated.map(|d| format!("deprecated in {d}"));
        match self {
            Status::Removed => removed.unwrap_or_default(),
            Status::Deprecated | Status::Later => [deprecated, removed]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// One use of a listed API version in a project.
#[derive(Debug, Clone)]
pub struct Finding {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// `manifest`, `Helm template`, `watch (for)`, `write (create)`, `read (get)`.
    pub how: String,
    pub place: Place,
    pub sources: Vec<SourceRef>,
    pub entry: &'static Entry,
    pub status: Status,
}

impl Finding {
    /// `policy/v1beta1 PodDisruptionBudget`.
    pub fn api(&self) -> String {
        if self.group.is_empty() {
            format!("{} {}", self.version, self.kind)
        } else {
            format!("{}/{} {}", self.group, self.version, self.kind)
        }
    }
}

/// Every use in the project of an API version the table lists, removed ones first.
pub fn findings(p: &Project, target: Option<KubeVersion>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut push = |group: &str,
                    version: &str,
                    kind: &str,
                    how: String,
                    place: Place,
                    sources: &[SourceRef]| {
        if let Some(entry) = lookup(group, version, kind) {
            out.push(Finding {
                group: group.to_string(),
                version: version.to_string(),
                kind: kind.to_string(),
                how,
                place,
                sources: sources.to_vec(),
                entry,
                status: Status::of(entry, target),
            });
        }
    };
    for u in &p.findings.api_uses {
        let how = if u.object.is_empty() {
            u.how.clone()
        } else {
            format!("{} {}", u.how, u.object)
        };
        push(
            &u.group,
            &u.version,
            &u.kind,
            how,
            Place::of(u.area, u.bundled),
            &u.sources,
        );
    }
    for c in &p.findings.controllers {
        let place = Place::of(c.area, false);
        for w in &c.watches {
            let how = format!(
                "watch ({}) by {}",
                w.relation.label().to_lowercase(),
                c.name
            );
            push(&w.group, &w.version, &w.kind, how, place, &w.sources);
        }
        for (what, ops) in [("write", &c.operations), ("read", &c.reads)] {
            for o in ops {
                let how = format!("{what} ({}) by {}", o.verb, c.name);
                push(&o.group, &o.version, &o.kind, how, place, &o.sources);
            }
        }
    }
    for i in &p.findings.informers {
        let how = format!("informer in {}.{}", i.package, i.function);
        push(
            &i.group,
            &i.version,
            &i.kind,
            how,
            Place::of(i.area, false),
            &i.sources,
        );
    }
    for o in &p.findings.package_operations {
        let how = format!("write ({}) in {}.{}", o.verb, o.package, o.function);
        push(
            &o.group,
            &o.version,
            &o.kind,
            how,
            Place::of(o.area, false),
            &o.sources,
        );
    }
    out.sort_by(|a, b| {
        (
            a.status,
            a.place as u8,
            &a.group,
            &a.version,
            &a.kind,
            &a.sources,
        )
            .cmp(&(
                b.status,
                b.place as u8,
                &b.group,
                &b.version,
                &b.kind,
                &b.sources,
            ))
    });
    out
}

#[cfg(test)]
mod tests;
