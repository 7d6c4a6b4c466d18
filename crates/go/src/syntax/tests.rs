use super::*;

fn parse(src: &str) -> tree_sitter::Tree {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .unwrap();
    parser.parse(src, None).unwrap()
}

#[test]
fn the_kind_and_field_tables_agree_with_tree_sitter() {
    let src = "package p\nfunc f(x *T) { y := g.H(&v1.Pod{}, \"s\"); if y { return } }\n";
    let tree = parse(src);
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
    let tree = parse(src);
    let mut names = Vec::new();
    for_each_plain_identifier(tree.root_node(), |n| names.push(text(n, src.as_bytes())));
    // `v` is declared, `f`/`a`/`g`/`e` are plain; `pkg` and `b` are selector operands.
    assert_eq!(names, vec!["v", "f", "a", "g", "e"]);
}

#[test]
fn a_function_walk_records_each_parent_and_each_calls_arguments() {
    // Nested calls sharing a first byte, a chain, a comment among arguments, `make`'s
    // type argument, a call with none, a closure argument with calls inside.
    let src = "package p\nfunc (r *R) f(x int) {\n\ta.b(c(d(1), \"s\")).e(/* c */ f, g...)\n\ty := make([]int, 3)\n\th()\n\tgo func() { k(x, r.m()) }()\n\tif v, ok := w.(T); ok { z(v) } else { q[0](1) }\n}\n";
    let tree = parse(src);
    let root = tree.root_node();
    let decl = root.named_child(1).unwrap();
    let body = decl.child_by_field_id(FIELD.body).unwrap();
    let ctx = Kinds::of(root).func("f".into(), body, Some(decl), None, None);
    assert!(ctx.calls.len() >= 10, "{}", ctx.calls.len());
    for &call in &ctx.calls {
        assert_eq!(
            ctx.arguments(call).as_ref(),
            call_arguments(call).as_slice()
        );
    }
    let texts = |c: Node| -> Vec<&str> {
        ctx.arguments(c)
            .iter()
            .map(|a| text(*a, src.as_bytes()))
            .collect()
    };
    assert_eq!(texts(ctx.calls[0]), vec!["f", "g..."]);
    assert_eq!(texts(ctx.calls[2]), vec!["d(1)", "\"s\""]);
    for &n in &ctx.nodes[1..] {
        assert_eq!(ctx.parent_of(n), n.parent(), "{}", n.kind());
    }
    assert_eq!(ctx.parent_of(body), body.parent());
}
