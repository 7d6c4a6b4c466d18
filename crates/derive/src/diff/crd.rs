//! CRD changes, classified per served version.
//!
//! A CRD is matched by group and kind (copies of one kind in several files by file, see
//! `rows::pair`). **Breaking:** the CRD removed, its scope or plural changed, a version
//! removed or no longer served, the storage version changed, and every breaking schema
//! change of a version served at both sides (see `schema::diff`). **Compatible:** a CRD or
//! version added, a version newly served or deprecated, printer columns and short names,
//! and the compatible schema changes. The same change found in two copies of a CRD (a
//! chart's and `config/crd`'s) is listed once, at the first copy.

use std::collections::{BTreeMap, HashSet};

use super::rows::pair;
use super::{Category, ChangeKind, GroupKind, RowChange};
use crate::schema;
use model::{Crd, CrdVersion, Project, SourceRef};

/// The copies of one kind at the old and the new revision.
type Sides<'a> = (Vec<&'a Crd>, Vec<&'a Crd>);

/// The CRD changes from `old` to `new` (rows of tests, docs and samples left out).
pub fn changes(old: &Project, new: &Project) -> Vec<RowChange> {
    let mut by_kind: BTreeMap<(&str, &str), Sides> = BTreeMap::new();
    for c in old.findings.crds.iter().filter(|c| c.area.is_component()) {
        by_kind.entry((&c.group, &c.kind)).or_default().0.push(c);
    }
    for c in new.findings.crds.iter().filter(|c| c.area.is_component()) {
        by_kind.entry((&c.group, &c.kind)).or_default().1.push(c);
    }
    let mut out = Vec::new();
    for (_, (olds, news)) in by_kind {
        let (pairs, removed, added) =
            pair(olds, news, |c| c.sources.first().map(|s| s.file.as_str()));
        let kept = !pairs.is_empty();
        for (o, n) in pairs {
            compare(o, n, &mut out);
        }
        // One row per kind, not per copy; a copy dropped or added beside a kept one is
        // not the kind going or coming.
        for c in &removed {
            let (detail, breaking) = if kept {
                (format!("copy in {} removed", file_of(c)), false)
            } else {
                ("CRD removed".to_string(), true)
            };
            out.push(row(
                c,
                Category::Crd,
                subject(c),
                ChangeKind::Removed,
                detail,
                breaking,
            ));
            if !kept {
                break;
            }
        }
        for c in &added {
            let detail = if kept {
                format!("copy in {} added", file_of(c))
            } else {
                let versions: Vec<&str> = c.versions.iter().map(|v| v.name.as_str()).collect();
                format!("new CRD, versions {}", versions.join(", "))
            };
            out.push(row(
                c,
                Category::Crd,
                subject(c),
                ChangeKind::Added,
                detail,
                false,
            ));
            if !kept {
                break;
            }
        }
    }
    let mut seen = HashSet::new();
    out.retain(|c| seen.insert((c.category, c.subject.clone(), c.change, c.detail.clone())));
    out
}

fn file_of(c: &Crd) -> &str {
    c.sources.first().map_or("", |s| s.file.as_str())
}

/// `InferencePool.inference.networking.k8s.io`, `(bundled)` for another project's CRD.
fn subject(c: &Crd) -> String {
    format!(
        "{}.{}{}",
        c.kind,
        c.group,
        if c.bundled { " (bundled)" } else { "" }
    )
}

/// A change of CRD `c` (the new side's when there is one).
fn row(
    c: &Crd,
    category: Category,
    subject: String,
    change: ChangeKind,
    detail: String,
    breaking: bool,
) -> RowChange {
    let at: Option<SourceRef> = c.sources.first().cloned();
    RowChange {
        category,
        subject,
        change,
        detail,
        breaking,
        kind: Some(GroupKind {
            group: c.group.clone(),
            kind: c.kind.clone(),
        }),
        controller: String::new(),
        consumers: Vec::new(),
        before: if change == ChangeKind::Added {
            None
        } else {
            at.clone()
        },
        after: if change == ChangeKind::Removed {
            None
        } else {
            at
        },
    }
}

/// One CRD at both sides.
fn compare(o: &Crd, n: &Crd, out: &mut Vec<RowChange>) {
    kind_changes(o, n, out);
    for nv in &n.versions {
        version_changes(o, n, nv, out);
    }
    for ov in o
        .versions
        .iter()
        .filter(|v| !n.versions.iter().any(|x| x.name == v.name))
    {
        let mut r = both(
            o,
            n,
            row(
                n,
                Category::CrdVersion,
                format!("{} {}", subject(n), ov.name),
                ChangeKind::Removed,
                if ov.served {
                    "version removed (was served)".into()
                } else {
                    "version removed (was not served)".into()
                },
                ov.served,
            ),
        );
        r.after = None;
        out.push(r);
    }
}

/// `r` placed at both sides: the old CRD's first source before, the new one's after.
fn both(o: &Crd, n: &Crd, mut r: RowChange) -> RowChange {
    r.before = o.sources.first().cloned();
    r.after = n.sources.first().cloned();
    r
}

/// The changes of the kind itself: scope, plural, storage version, short names, file.
fn kind_changes(o: &Crd, n: &Crd, out: &mut Vec<RowChange>) {
    let kind_row = |detail: String, breaking: bool| {
        both(
            o,
            n,
            row(
                n,
                Category::Crd,
                subject(n),
                ChangeKind::Changed,
                detail,
                breaking,
            ),
        )
    };
    if o.scope != n.scope {
        out.push(kind_row(format!("scope: {} → {}", o.scope, n.scope), true));
    }
    if o.plural != n.plural {
        out.push(kind_row(
            format!("plural: {} → {}", o.plural, n.plural),
            true,
        ));
    }
    let storage = |c: &Crd| {
        c.versions
            .iter()
            .find(|v| v.storage)
            .map_or(String::new(), |v| v.name.clone())
    };
    if storage(o) != storage(n) && !storage(o).is_empty() {
        out.push(kind_row(
            format!("storage version: {} → {}", storage(o), or_none(&storage(n))),
            true,
        ));
    }
    if o.short_names != n.short_names {
        out.push(kind_row(
            format!(
                "short names: {} → {}",
                or_none(&o.short_names.join(", ")),
                or_none(&n.short_names.join(", "))
            ),
            false,
        ));
    }
    if o.sources.first().map(|s| &s.file) != n.sources.first().map(|s| &s.file)
        && let (Some(a), Some(b)) = (o.sources.first(), n.sources.first())
    {
        out.push(kind_row(format!("moved: {} → {}", a.file, b.file), false));
    }
}

/// The changes of version `nv` of the new CRD: added, served, deprecated, printer columns,
/// and its schema's when it is served at both sides.
fn version_changes(o: &Crd, n: &Crd, nv: &CrdVersion, out: &mut Vec<RowChange>) {
    let at = format!("{} {}", subject(n), nv.name);
    let version_row = |change: ChangeKind, detail: String, breaking: bool| {
        both(
            o,
            n,
            row(
                n,
                Category::CrdVersion,
                at.clone(),
                change,
                detail,
                breaking,
            ),
        )
    };
    let Some(ov) = o.versions.iter().find(|v| v.name == nv.name) else {
        let mut r = version_row(
            ChangeKind::Added,
            format!(
                "new version{}",
                if nv.served {
                    ", served"
                } else {
                    ", not served"
                }
            ),
            false,
        );
        r.before = None;
        out.push(r);
        return;
    };
    if ov.served && !nv.served {
        out.push(version_row(
            ChangeKind::Changed,
            "no longer served".into(),
            true,
        ));
    } else if !ov.served && nv.served {
        out.push(version_row(ChangeKind::Changed, "now served".into(), false));
    }
    if !ov.deprecated && nv.deprecated {
        out.push(version_row(
            ChangeKind::Changed,
            "now deprecated".into(),
            false,
        ));
    }
    if ov.printer_columns != nv.printer_columns {
        let names = |v: &CrdVersion| {
            v.printer_columns
                .iter()
                .map(|c| c.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push(version_row(
            ChangeKind::Changed,
            format!(
                "printer columns: {} → {}",
                or_none(&names(ov)),
                or_none(&names(nv))
            ),
            false,
        ));
    }
    if ov.served && nv.served {
        schema_changes(o, n, nv, &at, out);
    }
}

/// The schema changes of version `nv` (`at`: the CRD and version), served at both sides.
fn schema_changes(o: &Crd, n: &Crd, nv: &CrdVersion, at: &str, out: &mut Vec<RowChange>) {
    let schema_of = |c: &'_ Crd| c.schema.iter().find(|s| s.version == nv.name).cloned();
    let (Some(os), Some(ns)) = (schema_of(o), schema_of(n)) else {
        return;
    };
    let found = schema::diff::between(&os, &ns, true);
    for f in found.changes {
        let change = match f.change {
            schema::diff::Change::Added => ChangeKind::Added,
            schema::diff::Change::Removed => ChangeKind::Removed,
            schema::diff::Change::Changed => ChangeKind::Changed,
        };
        let breaking = f.breaking();
        out.push(both(
            o,
            n,
            row(
                n,
                Category::CrdField,
                format!("{at} {}", f.path),
                change,
                f.detail(),
                breaking,
            ),
        ));
    }
    if found.cut {
        out.push(both(
            o,
            n,
            row(
                n,
                Category::CrdVersion,
                at.to_string(),
                ChangeKind::Changed,
                format!(
                    "schema comparison stopped after {} fields; later fields are not compared",
                    schema::diff::MAX_VISITS
                ),
                false,
            ),
        ));
    }
}

fn or_none(v: &str) -> &str {
    if v.is_empty() { "none" } else { v }
}
