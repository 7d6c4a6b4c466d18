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
