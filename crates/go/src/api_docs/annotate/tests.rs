use super::*;

fn field(path: &str, depth: u32, same_as: Option<&str>) -> SchemaField {
    SchemaField {
        path: path.into(),
        depth,
        field_type: "object".into(),
        same_as: same_as.map(str::to_string),
        ..SchemaField::default()
    }
}

#[test]
fn copies_of_a_crd_with_the_same_finding_get_one_diagnostic() {
    let said = vec![
        Diagnostic::new("config/crd/full/pumps.yaml", 3, "CRD Pump: 2 of 5"),
        Diagnostic::new("config/crd/minimal/pumps.yaml", 3, "CRD Pump: 1 of 2"),
        Diagnostic::new("charts/pumps/templates/pumps.yaml", 5, "CRD Pump: 2 of 5"),
    ];
    let out = once_per_copy(said);
    let messages: Vec<(&str, &str)> = out
        .iter()
        .map(|d| (d.file.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        messages,
        vec![
            (
                "config/crd/full/pumps.yaml",
                "CRD Pump: 2 of 5 (the same in 1 other copy of this CRD: charts/pumps/templates/pumps.yaml)"
            ),
            ("config/crd/minimal/pumps.yaml", "CRD Pump: 1 of 2"),
        ]
    );
}

#[test]
fn a_subtree_moves_to_its_first_copy_with_every_reference_to_it() {
    // After reordering, `a` (depth 0) says it is the same as `z.b[]` (depth 1), which
    // comes later; `y` refers to a field inside `z.b[]`.
    let mut fields = vec![
        field("a", 0, Some("z.b[]")),
        field("y", 0, Some("z.b[].c")),
        field("z", 0, None),
        field("z.b[]", 1, None),
        field("z.b[].c", 2, None),
        field("z.b[].c.d", 3, None),
        field("z.q", 1, Some("z.b[]")),
    ];
    first_copies_first(&mut fields);
    let rows: Vec<(&str, u32, Option<&str>)> = fields
        .iter()
        .map(|f| (f.path.as_str(), f.depth, f.same_as.as_deref()))
        .collect();
    assert_eq!(
        rows,
        vec![
            ("a", 0, None),
            ("a.c", 1, None),
            ("a.c.d", 2, None),
            ("y", 0, Some("a.c")),
            ("z", 0, None),
            ("z.b[]", 1, Some("a")),
            ("z.q", 1, Some("a")),
        ]
    );
}
