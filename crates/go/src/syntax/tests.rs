use super::*;

#[test]
fn the_kind_and_field_tables_agree_with_tree_sitter() {
    let src = "package p\nfunc f(x *T) { y := g.H(&v1.Pod{}, \"s\"); if y { return } }\n";
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .unwrap();
    let tree = parser.parse(src, None).unwrap();
    let mut seen = 0;
    for_each_node(tree.root_node(), |n| {
        assert_eq!(n.kind_name(), n.kind());
        seen += 1;
    });
    assert!(seen > 20, "{seen}");
    let lang: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
    for (id, name) in [(FIELD.operand, "operand"), (FIELD.ty, "type")] {
        assert_eq!(lang.field_name_for_id(id), Some(name));
    }
}

#[test]
fn plain_identifiers_skip_selector_operands() {
    let src = "package p\nvar v = f(a, pkg.Name, b.c.d, g(e))\n";
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .unwrap();
    let tree = parser.parse(src, None).unwrap();
    let mut names = Vec::new();
    for_each_plain_identifier(tree.root_node(), |n| names.push(text(n, src.as_bytes())));
    // `v` is declared, `f`/`a`/`g`/`e` are plain; `pkg` and `b` are selector operands.
    assert_eq!(names, vec!["v", "f", "a", "g", "e"]);
}
