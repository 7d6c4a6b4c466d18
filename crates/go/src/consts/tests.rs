use super::*;
use tree_sitter::Parser;

fn constants(src: &str) -> Vec<Constant> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .unwrap();
    let tree = parser.parse(src, None).unwrap();
    let mut out = Vec::new();
    let mut c = tree.root_node().walk();
    for decl in tree.root_node().named_children(&mut c) {
        collect_top_level(decl, src.as_bytes(), &mut out);
    }
    out
}

fn consts(src: &str) -> Vec<(String, ConstExpr)> {
    constants(src)
        .into_iter()
        .map(|c| (c.name, c.expr))
        .collect()
}

fn s(v: &str) -> ConstExpr {
    ConstExpr::Str(v.into())
}

fn r(q: Option<&str>, n: &str) -> ConstExpr {
    ConstExpr::Ref {
        qualifier: q.map(str::to_string),
        name: n.into(),
    }
}

#[test]
fn literals_references_and_concatenation() {
    let got = consts(
        "package p\nconst (\n\tA, B = \"a\", `b`\n\tN = 3\n\tP = \"/v1\" + (Path + api.Suffix)\n)\nvar V = A\nvar W int = 2\nvar (\n\tX = \"x\"\n)\n",
    );
    assert_eq!(
        got,
        vec![
            ("A".into(), s("a")),
            ("B".into(), s("b")),
            (
                "P".into(),
                ConstExpr::Concat(vec![s("/v1"), r(None, "Path"), r(Some("api"), "Suffix")])
            ),
            ("V".into(), r(None, "A")),
            ("X".into(), s("x")),
        ]
    );
}

#[test]
fn each_constant_keeps_the_line_of_its_value() {
    let got = constants("package p\nconst (\n\tA = \"a\"\n\tB =\n\t\tA + \"b\"\n)\n");
    let lines: Vec<(&str, u32)> = got.iter().map(|c| (c.name.as_str(), c.line)).collect();
    assert_eq!(lines, [("A", 3), ("B", 5)]);
}

#[test]
fn a_long_concatenation_does_not_overflow() {
    let mut src = String::from("package p\nconst C = \"a\"");
    for _ in 0..20_000 {
        src.push_str(" + \"a\"");
    }
    src.push('\n');
    let got = consts(&src);
    assert!(matches!(&got[0].1, ConstExpr::Concat(parts) if parts.len() == 20_001));
}
