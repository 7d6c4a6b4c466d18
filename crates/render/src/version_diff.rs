//! The changes between the served versions of one CRD: oldest to newest by Kubernetes'
//! version priority (`v1alpha1` → `v1beta1` → `v1`), each version against the one before.
//!
//! Fields are compared as `schema::diff` compares them, descriptions aside. At most
//! [`MAX_CHANGES`] rows are listed per pair, the rest counted; a cut comparison says so.

use std::cmp::Reverse;

use serde::Serialize;

use derive::schema;
use model::{Crd, CrdSchema};

/// Rows listed per pair of versions.
const MAX_CHANGES: usize = 100;

#[derive(Serialize)]
pub struct VersionDiff {
    /// The heading's anchor on the kind page (set by the page).
    pub anchor: String,
    pub from: String,
    pub to: String,
    pub changes: Vec<Change>,
    /// Changes found past [`MAX_CHANGES`], not listed.
    pub more: usize,
    /// The comparison stopped at [`schema::diff::MAX_VISITS`] fields.
    pub cut: bool,
}

#[derive(Serialize)]
pub struct Change {
    /// The field's path in the version it is in (`from` for a removed field, else `to`).
    pub path: String,
    /// `added`, `removed` or `changed`.
    pub change: &'static str,
    pub detail: String,
    /// The field's anchor on the kind page, when it has one (set by the page).
    pub anchor: String,
    /// Whether the page draws the field before a reader opens the tree (set by the page).
    pub drawn: bool,
}

/// The differences between consecutive served versions with a schema, oldest first; none
/// for a CRD with fewer than two.
pub fn served_versions(c: &Crd) -> Vec<VersionDiff> {
    let mut schemas: Vec<&CrdSchema> = c
        .versions
        .iter()
        .filter(|v| v.served)
        .filter_map(|v| c.schema.iter().find(|s| s.version == v.name))
        .collect();
    schemas.sort_by_key(|s| priority(&s.version));
    schemas.windows(2).map(|w| between(w[0], w[1])).collect()
}

/// Kubernetes' version priority, lowest first: versions not of the form `vN[alpha|betaM]`
/// (in reverse alphabetical order), then alpha, beta and GA versions, each by major and
/// minor number.
fn priority(name: &str) -> (u8, u64, u64, Reverse<&str>) {
    let parsed = name.strip_prefix('v').and_then(|rest| {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let major: u64 = rest[..digits].parse().ok()?;
        let (stage, minor) = match &rest[digits..] {
            "" => (3, "0"),
            tail => tail
                .strip_prefix("beta")
                .map(|m| (2, m))
                .or_else(|| tail.strip_prefix("alpha").map(|m| (1, m)))?,
        };
        let minor: u64 = minor
            .parse()
            .ok()
            .filter(|_| minor.starts_with(|c: char| c.is_ascii_digit()))?;
        Some((stage, major, minor))
    });
    let (stage, major, minor) = parsed.unwrap_or((0, 0, 0));
    (stage, major, minor, Reverse(name))
}

/// The changes from `old` to `new` (descriptions are not compared: versions of one CRD
/// often reword them).
pub fn between(old: &CrdSchema, new: &CrdSchema) -> VersionDiff {
    let found = schema::diff::between(old, new, false);
    let mut changes: Vec<Change> = found
        .changes
        .into_iter()
        .map(|c| Change {
            detail: c.detail(),
            path: c.path,
            change: c.change.label(),
            anchor: String::new(),
            drawn: false,
        })
        .collect();
    let more = changes.len().saturating_sub(MAX_CHANGES);
    changes.truncate(MAX_CHANGES);
    VersionDiff {
        anchor: String::new(),
        from: old.version.clone(),
        to: new.version.clone(),
        changes,
        more,
        cut: found.cut,
    }
}

#[cfg(test)]
mod tests;
