use super::*;

fn respelled(src: &str) -> String {
    respell(src).unwrap_or_else(|| src.to_string())
}

#[test]
fn expressions_are_respelled_and_types_are_not() {
    let src = "a := new(false); b := new(int32(6443)); c := new(\"x)\"); d := new(map[string]bool{}); e := new(T{A: 1}); f := new(a + b); s := new(in.Spec.Name); t := new(items[0].Name); u := new((x)); v := new(f().Name)\n\
                   g := new(Foo); h := new(pkg.Bar); i := new([]int); j := new(map[string]int); k := new(struct{ A int }); k2 := new(map[string]struct{}); l := new(*T); m := new(func() error); n := x.new(1); o := renew(1)";
    let out = respelled(src);
    assert_eq!(out.matches("NEW(").count(), 10, "{out}");
    for kept in [
        "new(Foo)",
        "new(pkg.Bar)",
        "new([]int)",
        "new(map[string]int)",
        "new(struct{ A int })",
        "new(map[string]struct{})",
        "new(*T)",
        "new(func() error)",
        "x.new(1)",
        "renew(1)",
    ] {
        assert!(out.contains(kept), "{kept} was respelled: {out}");
    }
    assert_eq!(out.len(), src.len());
}

#[test]
fn a_file_without_new_of_an_expression_is_left_alone() {
    assert_eq!(respell("x := new(Foo)\ny := new(bytes.Buffer)"), None);
    assert_eq!(respell("unclosed := new(false"), None);
}

fn errors(src: &str) -> usize {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .unwrap();
    error_count(parser.parse(src, None).unwrap().root_node())
}

#[test]
fn the_respelled_file_parses_without_errors() {
    let src = "package p\n\nfunc f() {\n\tb.WithOptions(Options{Leader: new(false), Port: new(int32(6443))}).Complete(r)\n}\n";
    assert!(errors(src) > 0, "the grammar changed: new(expr) now parses");
    assert_eq!(errors(&respelled(src)), 0);
}

#[test]
fn selectors_indexes_and_parentheses_parse_respelled() {
    let src = "package p

func f(in *T) {
	x := Options{A: new(in.Infrastructure.Naming.Template), B: new(items[0].Name), C: new((in.X))}
	g(x)
}
";
    assert!(errors(src) > 0, "the grammar changed: these now parse");
    assert_eq!(errors(&respelled(src)), 0);
}
