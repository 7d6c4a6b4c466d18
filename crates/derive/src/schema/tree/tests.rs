use super::*;
use model::minimal::field;

fn names(tree: &Tree, of: &[usize]) -> Vec<String> {
    of.iter()
        .map(|&i| format!("{}{}", tree.key(i), tree.shape(i)))
        .collect()
}

#[test]
fn children_keys_and_shapes() {
    let fields = vec![
        field("spec", "object"),
        field("spec.runs[]", "array"),
        field("spec.runs[].name", "string"),
        field("spec.labels{}", "object"),
        field("spec.grid[][]", "array"),
        field("status", "object"),
    ];
    let tree = Tree::new(&fields);
    assert_eq!(names(&tree, tree.roots()), ["spec", "status"]);
    assert_eq!(
        names(&tree, tree.children(0, &[])),
        ["runs[]", "labels{}", "grid[][]"]
    );
    assert_eq!((tree.key(1), tree.shape(1)), ("runs", "[]"));
    assert_eq!((tree.key(4), tree.shape(4)), ("grid", "[][]"));
    assert_eq!(names(&tree, tree.children(1, &[0])), ["name"]);
}

#[test]
fn a_repeated_subtree_has_its_first_copys_fields() {
    let mut night = field("spec.night", "object");
    night.same_as = Some("spec.day".into());
    let fields = vec![
        field("spec", "object"),
        field("spec.day", "object"),
        field("spec.day.start", "string"),
        field("spec.day.end", "string"),
        night,
    ];
    let tree = Tree::new(&fields);
    assert_eq!(tree.origin(4), 1);
    assert_eq!(names(&tree, tree.children(4, &[0])), ["start", "end"]);
}

#[test]
fn a_subtree_that_contains_itself_stops_the_walk() {
    // A Rust struct holding a list of itself refers back to its ancestor.
    let mut again = field("spec.nodes[]", "array");
    again.same_as = Some("spec".into());
    let fields = vec![field("spec", "object"), again];
    let tree = Tree::new(&fields);
    // Expanding spec, then spec.nodes[] (whose fields are spec's): spec is on the chain.
    assert_eq!(tree.children(0, &[]), &[1]);
    assert!(tree.children(1, &[0]).is_empty());
    // And no walk goes deeper than MAX_DEPTH, whatever the chain holds.
    assert!(tree.children(0, &[99; MAX_DEPTH]).is_empty());
}

#[test]
fn types_as_a_reader_sees_them() {
    let mut list = field("a[]", "array");
    list.items = "string".into();
    let mut map = field("b{}", "object");
    map.additional_properties = "integer".into();
    assert_eq!(type_text(&list), "[]string");
    assert_eq!(type_text(&map), "map[string]integer");
    assert_eq!(type_text(&field("c", "")), "any");
    assert_eq!(type_text(&field("d", "boolean")), "boolean");
}
