use super::*;

#[test]
fn text_reads_like_source() {
    let ty: syn::Type = syn::parse_str("Option<Vec<std::string::String>>").unwrap();
    assert_eq!(text(&ty), "Option<Vec<std::string::String>>");
}

#[test]
fn nesting_guard() {
    let deep = format!("fn f() {{ {}1{} }}", "(".repeat(200), ")".repeat(200));
    let t: TokenStream = deep.parse().unwrap();
    assert_eq!(too_deep(t), Some(Refused::Nesting(1)));
    let bangs = format!("fn f() {{ let x = {}true; }}", "!".repeat(200));
    assert_eq!(
        too_deep(bangs.parse().unwrap()),
        Some(Refused::Operators(1))
    );
    let fine: TokenStream = "fn f() { g(h(i(1))); }".parse().unwrap();
    assert_eq!(too_deep(fine), None);
}

fn guard(src: &str) -> Option<Refused> {
    too_deep(src.parse().unwrap())
}

#[test]
fn long_chains_are_refused_where_they_cross_the_limit() {
    let n = MAX_EXPRESSION_TOKENS;
    let long = [
        format!("fn h() {{\n let _ = 1{}; }}", " + 1".repeat(n)),
        format!("fn h() {{\n x{}; }}", ".f()".repeat(n)),
        format!("fn h() {{\n f{}; }}", "()".repeat(n)),
        format!("fn h() {{\n if a {{}}{} }}", " else if a {}".repeat(n / 2)),
        format!("fn h() {{\n let _ = {}1; }}", "move || ".repeat(n)),
        format!("fn h() {{\n {}1; }}", "return ".repeat(n)),
        // Commas inside angle brackets do not end anything: `A<B, A<B, …` nests.
        format!("type T =\n {}X;", "A<B, ".repeat(n)),
        // A block followed by `[` continues the expression.
        format!("fn h() {{\n let _ = 1{}; }}", " + match x {}[0]".repeat(n)),
        // Attributes do not split an expression: syn keeps them beside its operands.
        format!("fn h() {{\n let _ = 1{}; }}", " + #[a] 1".repeat(n)),
        // Closures returning closures nest, commas in their parameters or not.
        format!("fn h() {{\n let _ = {}1; }}", "|a, b| ".repeat(n)),
        format!("fn h() {{\n let _ = {}1; }}", "move |a, b| ".repeat(n)),
    ];
    for src in &long {
        assert_eq!(guard(src), Some(Refused::Expression(2)), "{}", &src[..40]);
    }
    // The same chain split over several brackets adds up.
    let split = format!(
        "fn h() {{\n let _ = 1{} + (1{}); }}",
        " + 1".repeat(n / 4),
        " + 1".repeat(n / 4)
    );
    assert_eq!(guard(&split), Some(Refused::Expression(2)));
    let short = format!("fn h() {{\n let _ = 1{}; }}", " + 1".repeat(n / 4));
    assert_eq!(guard(&short), None);
}

#[test]
fn long_files_lists_docs_and_macros_are_not_chains() {
    let n = MAX_EXPRESSION_TOKENS;
    let items = "/// Doc.\n#[inline]\nfn f() {}\nstruct S { a: u8 }\nuse a::b;\n".repeat(n);
    let inner_docs = format!("{}fn f() {{}}", "//! Crate docs.\n".repeat(n));
    let statements = format!(
        "fn f() {{ {} }}",
        "let x = a.b(); if x {} *y = 1; ".repeat(n)
    );
    let list = format!("const T: [u8; {n}] = [{}];", "1, ".repeat(n));
    let arms = format!(
        "fn f() {{ match x {{ {} }} }}",
        "A => {} B => 1, ".repeat(n)
    );
    let generics = format!(
        "fn f<T: A<B, C>, U>(t: T) -> X<Y, Z> {{ {} }}",
        "g(t, u); ".repeat(n)
    );
    let closures = format!("fn f() {{ g({}); }}", "|a, b| a | b, x ? | y, ".repeat(n));
    let macros = format!(
        "fn f() {{ html! {{ {} }}; }}\nmacro_rules! m {{ {} }}",
        "<a> x </a>".repeat(n),
        "~".repeat(2 * n)
    );
    for src in [
        items, inner_docs, statements, list, arms, generics, closures, macros,
    ] {
        assert_eq!(guard(&src), None, "{}", &src[..60]);
    }
    // Keywords before `!` are not macros: what follows is parsed.
    let negated = format!("fn h() {{ if !(1{}) {{}} }}", " + 1".repeat(n));
    assert!(matches!(guard(&negated), Some(Refused::Expression(_))));
}
