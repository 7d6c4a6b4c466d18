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
mod tests {
    use super::*;
    use model::CrdVersion;
    use model::minimal::{field, schema};

    fn rows(d: &VersionDiff) -> Vec<String> {
        d.changes
            .iter()
            .map(|c| format!("{} {}: {}", c.change, c.path, c.detail))
            .collect()
    }

    #[test]
    fn versions_oldest_first_by_kubernetes_priority() {
        let mut names = vec![
            "v10",
            "v2",
            "v1",
            "v11beta2",
            "v10beta3",
            "v3beta1",
            "v12alpha1",
            "v11alpha2",
            "foo1",
            "foo10",
            "v1beta",
            "vx",
        ];
        names.sort_by_key(|n| priority(n));
        assert_eq!(
            names,
            [
                "vx",
                "v1beta",
                "foo10",
                "foo1",
                "v11alpha2",
                "v12alpha1",
                "v3beta1",
                "v10beta3",
                "v11beta2",
                "v1",
                "v2",
                "v10"
            ]
        );
    }

    #[test]
    fn added_removed_and_changed_fields() {
        let mut size = field("spec.size", "integer");
        size.required = true;
        size.format = "int64".into();
        let mut mode = field("spec.mode", "string");
        mode.enum_values = vec!["\"Fast\"".into(), "\"Slow\"".into()];
        mode.default = Some("\"Fast\"".into());
        let old = schema(
            "v1alpha1",
            vec![
                field("spec", "object"),
                size.clone(),
                mode.clone(),
                field("spec.color", "string"),
                field("spec.tags[]", "array"),
            ],
        );
        size.required = false;
        size.format = "int32".into();
        mode.enum_values = vec!["\"Slow\"".into(), "\"Careful\"".into()];
        mode.default = Some("\"Slow\"".into());
        let mut tags = field("spec.tags", "string");
        tags.pattern = "^[a-z]+$".into();
        let new = schema(
            "v1beta1",
            vec![
                field("spec", "object"),
                field("spec.secretName", "string"),
                size,
                mode,
                tags,
                field("status", "object"),
                field("status.phase", "string"),
            ],
        );
        let d = between(&old, &new);
        assert_eq!((d.from.as_str(), d.to.as_str()), ("v1alpha1", "v1beta1"));
        assert_eq!(
            rows(&d),
            [
                "added spec.secretName: string",
                "changed spec.size: now optional; format: int64 → int32",
                "changed spec.mode: default: \"Fast\" → \"Slow\"; enum: added \"Careful\"; removed \"Fast\"",
                "changed spec.tags: type: array → string; pattern: none → ^[a-z]+$",
                "removed spec.color: string",
                "added status: object, 1 field under it",
            ]
        );
        assert_eq!((d.more, d.cut), (0, false));
        assert!(between(&new, &new).changes.is_empty());
    }

    #[test]
    fn an_added_subtree_is_one_row_with_its_size() {
        let old = schema("v1", vec![field("spec", "object")]);
        let mut backup = field("spec.backup", "object");
        backup.same_as = Some("spec.primary".into());
        let mut replicas = field("spec.replicas", "integer");
        replicas.default = Some("1".into());
        let new = schema(
            "v2",
            vec![
                field("spec", "object"),
                replicas,
                field("spec.primary", "object"),
                field("spec.primary.host", "string"),
                field("spec.primary.ports[]", "array"),
                field("spec.primary.ports[].number", "integer"),
                backup,
            ],
        );
        assert_eq!(
            rows(&between(&old, &new)),
            [
                "added spec.replicas: integer, default 1",
                "added spec.primary: object, 3 fields under it",
                "added spec.backup: object, 3 fields under it",
            ]
        );
    }

    #[test]
    fn a_repeated_subtree_compares_as_the_fields_it_stands_for() {
        // v1 lists spec.b's fields as a copy of spec.a; v2 spells them out, one changed.
        let mut b = field("spec.b", "object");
        b.same_as = Some("spec.a".into());
        let old = schema(
            "v1",
            vec![
                field("spec", "object"),
                field("spec.a", "object"),
                field("spec.a.x", "string"),
                field("spec.a.y", "string"),
                b,
            ],
        );
        let new = schema(
            "v2",
            vec![
                field("spec", "object"),
                field("spec.a", "object"),
                field("spec.a.x", "string"),
                field("spec.a.y", "string"),
                field("spec.b", "object"),
                field("spec.b.x", "string"),
                field("spec.b.y", "integer"),
            ],
        );
        assert_eq!(
            rows(&between(&old, &new)),
            ["changed spec.b.y: type: string → integer"]
        );
    }

    #[test]
    fn only_served_versions_with_a_schema_oldest_first() {
        let version = |name: &str, served: bool| CrdVersion {
            name: name.into(),
            served,
            storage: false,
            deprecated: false,
            printer_columns: Vec::new(),
        };
        let crd = Crd {
            group: "kennel.example.io".into(),
            kind: "Kennel".into(),
            plural: "kennels".into(),
            scope: "Namespaced".into(),
            versions: vec![
                version("v1", true),
                version("v1beta1", true),
                version("v1alpha1", false),
                version("v1alpha2", true),
            ],
            short_names: Vec::new(),
            schema: vec![
                schema("v1", vec![field("spec", "object")]),
                schema("v1alpha1", vec![]),
                schema("v1alpha2", vec![]),
            ],
            templated: false,
            bundled: false,
            area: Default::default(),
            sources: Vec::new(),
        };
        let diffs = served_versions(&crd);
        let pairs: Vec<(&str, &str)> = diffs
            .iter()
            .map(|d| (d.from.as_str(), d.to.as_str()))
            .collect();
        assert_eq!(pairs, [("v1alpha2", "v1")]);
        assert_eq!(rows(&diffs[0]), ["added spec: object"]);
    }

    #[test]
    fn long_lists_are_counted_not_listed() {
        let old = schema("v1", vec![field("spec", "object")]);
        let mut fields = vec![field("spec", "object")];
        for n in 0..MAX_CHANGES + 5 {
            fields.push(field(&format!("spec.f{n}"), "string"));
        }
        let d = between(&old, &schema("v2", fields));
        assert_eq!((d.changes.len(), d.more), (MAX_CHANGES, 5));
    }
}
