use super::*;
use model::SchemaField;
use model::minimal::{field, rule, schema};

fn with_rules(mut f: SchemaField, n: usize) -> SchemaField {
    f.rules = (0..n).map(|i| rule(&format!("r{i}"))).collect();
    f
}

#[test]
fn rules_of_a_repeated_subtree_count_once_per_copy() {
    // spec.a (1 rule) holds a.x (2 rules) and a.y; spec.b is a copy of a with a rule of
    // its own; spec.c holds c.d, a copy of b: 1 + (1 + 2) + (1 + 2) + (1 + 2) + root 1.
    let mut b = with_rules(field("spec.b", "object"), 1);
    b.same_as = Some("spec.a".into());
    let mut d = field("spec.c.d", "object");
    d.same_as = Some("spec.b".into());
    d = with_rules(d, 1);
    let mut s = schema(
        "v1",
        vec![
            with_rules(field("spec", "object"), 1),
            with_rules(field("spec.a", "object"), 1),
            with_rules(field("spec.a.x", "string"), 2),
            field("spec.a.y", "string"),
            b,
            field("spec.c", "object"),
            d,
        ],
    );
    s.rules = vec![rule("root")];
    assert_eq!(schema_rules(&s), 1 + 1 + 3 + 3 + 3);
}

/// A served version of a CRD, the storage one or not.
fn version(name: &str, storage: bool) -> CrdVersion {
    CrdVersion {
        name: name.into(),
        served: true,
        storage,
        deprecated: false,
        printer_columns: Vec::new(),
    }
}

#[test]
fn a_version_that_reads_like_an_earlier_one_points_to_it() {
    // One CRD serving three versions, two with one schema (as Istio and Gateway API
    // do): the later of the two on the page points to the earlier; the third is listed.
    let same = || {
        vec![
            field("spec", "object"),
            field("spec.size", "string"),
            field("spec.color", "string"),
        ]
    };
    let p = Project {
        name: "p".into(),
        findings: model::Findings {
            crds: vec![Crd {
                group: "x.io".into(),
                kind: "Gizmo".into(),
                plural: "gizmos".into(),
                scope: "Namespaced".into(),
                versions: vec![
                    version("v1alpha1", false),
                    version("v1beta1", false),
                    version("v1", true),
                ],
                schema: vec![
                    schema(
                        "v1alpha1",
                        vec![field("spec", "object"), field("spec.count", "integer")],
                    ),
                    schema("v1beta1", same()),
                    // The same fields in another order (as one matched to a Go type lists
                    // them in the struct's order).
                    schema("v1", {
                        let mut fields = same();
                        fields.swap(1, 2);
                        fields
                    }),
                ],
                ..Crd::default()
            }],
            ..Default::default()
        },
        ..Project::default()
    };
    let pages = kind_pages(&p, "/");
    let [page] = pages.as_slice() else {
        panic!("one kind page: {}", pages.len());
    };
    let [variant] = page.variants.as_slice() else {
        panic!("one variant");
    };
    let position = |name: &str| variant.versions.iter().position(|v| v.name == name);
    let (b, one) = (position("v1beta1").unwrap(), position("v1").unwrap());
    let (listed, pointing) = if b < one { (b, one) } else { (one, b) };
    let (listed, pointing) = (&variant.versions[listed], &variant.versions[pointing]);
    assert_eq!(
        pointing.same_as,
        Some([format!("version {}", listed.name), listed.anchor.clone()])
    );
    assert!(pointing.fields.is_empty() && pointing.tree.is_empty());
    assert!(listed.same_as.is_none() && listed.fields.len() == 3);
    let alpha = &variant.versions[position("v1alpha1").unwrap()];
    assert!(alpha.same_as.is_none() && alpha.fields.len() == 2);
    // A change into the pointing version links the field where it is listed.
    let size = listed
        .fields
        .iter()
        .find(|f| f.path == "spec.size")
        .unwrap();
    let added: Vec<&str> = variant
        .changes
        .iter()
        .filter(|d| d.to == pointing.name)
        .flat_map(|d| &d.changes)
        .filter(|c| c.path == "spec.size")
        .map(|c| c.anchor.as_str())
        .collect();
    assert!(
        !added.is_empty(),
        "spec.size changes on the way to {}",
        pointing.name
    );
    assert!(added.iter().all(|a| *a == size.anchor), "{added:?}");
}

#[test]
fn a_later_variant_points_to_an_earlier_version_that_reads_alike() {
    // The same CRD shipped twice: with descriptions, and without them (the Go doc
    // comments fill them in); v1 then reads alike, v2 differs in a field.
    let described = |path: &str, go_doc: bool| SchemaField {
        description: format!("The {path}."),
        go_doc,
        ..field(path, "string")
    };
    let crd = |v1: Vec<SchemaField>, v2: Vec<SchemaField>, file: &str| Crd {
        group: "x.io".into(),
        kind: "Gizmo".into(),
        plural: "gizmos".into(),
        scope: "Namespaced".into(),
        versions: vec![version("v1", false), version("v2", true)],
        schema: vec![schema("v1", v1), schema("v2", v2)],
        sources: vec![model::SourceRef {
            file: file.into(),
            line: 1,
        }],
        ..Crd::default()
    };
    let full = crd(
        vec![
            field("spec", "object"),
            described("spec.size", false),
            described("spec.old", false),
        ],
        vec![
            field("spec", "object"),
            described("spec.size", false),
            described("spec.color", false),
            described("spec.shape", false),
        ],
        "config/crd/full.yaml",
    );
    let minimal = crd(
        vec![
            field("spec", "object"),
            described("spec.size", true),
            described("spec.old", true),
        ],
        vec![field("spec", "object"), described("spec.size", true)],
        "config/crd/minimal.yaml",
    );
    let p = Project {
        name: "p".into(),
        findings: model::Findings {
            crds: vec![minimal, full],
            ..Default::default()
        },
        ..Project::default()
    };
    let pages = kind_pages(&p, "/");
    let [page] = pages.as_slice() else {
        panic!("one kind page: {}", pages.len());
    };
    let [first, second] = page.variants.as_slice() else {
        panic!("two variants");
    };
    // The richer CRD is the first variant and lists everything.
    let first_v1 = first.versions.iter().find(|v| v.name == "v1").unwrap();
    assert_eq!(first_v1.fields.len(), 3);
    assert!(first.versions.iter().all(|v| v.same_as.is_none()));
    // The second's v1 points there; its v2, which differs, is listed.
    let v1 = second.versions.iter().find(|v| v.name == "v1").unwrap();
    assert_eq!(
        v1.same_as,
        Some([
            "variant 1's version v1".to_string(),
            first_v1.anchor.clone()
        ])
    );
    assert!(v1.fields.is_empty() && v1.tree.is_empty() && v1.example.is_empty());
    let v2 = second.versions.iter().find(|v| v.name == "v2").unwrap();
    assert!(v2.same_as.is_none());
    assert_eq!(v2.fields.len(), 2);
    // Its change from v1 to v2 (spec.old removed) links the field where it is listed.
    let removed = second
        .changes
        .iter()
        .flat_map(|d| &d.changes)
        .find(|c| c.path == "spec.old")
        .expect("spec.old is removed in v2");
    let old = first_v1
        .fields
        .iter()
        .find(|f| f.path == "spec.old")
        .unwrap();
    assert_eq!(removed.anchor, old.anchor);
}
