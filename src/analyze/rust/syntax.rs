//! Small helpers over syn's tree shared by the Rust extractors: lines, doc comments,
//! literals, printed types and handler names, and the nesting guard that runs before syn.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Attribute, Expr, Lit};

/// Deepest bracket nesting syn is handed. syn's parser recurses once or more per level and
/// has no limit of its own; real code stays far below this.
pub const MAX_NESTING: usize = 96;
/// Longest run of punctuation (`!!!!x`, `- - - x`, `&&&&x`) syn is handed: prefix
/// operators recurse like brackets.
pub const MAX_PUNCT_RUN: usize = 96;

/// 1-based line of a span (proc-macro2's `span-locations`).
pub fn line(span: Span) -> u32 {
    u32::try_from(span.start().line).unwrap_or(u32::MAX)
}

/// The doc comment (`///` lines) of an item or field, lines trimmed and joined by spaces.
pub fn doc(attrs: &[Attribute]) -> String {
    let mut parts = Vec::new();
    for a in attrs {
        if !a.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &a.meta
            && let Some(s) = str_lit(&nv.value)
        {
            let t = s.trim();
            if !t.is_empty() {
                parts.push(t.to_string());
            }
        }
    }
    parts.join(" ")
}

/// The value of a string literal expression.
pub fn str_lit(e: &Expr) -> Option<String> {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        Expr::Group(g) => str_lit(&g.expr),
        _ => None,
    }
}

/// Source-like text of tokens: `Option<String>`, `Vec<u8>`, `5 * 60`.
pub fn text(t: &impl ToTokens) -> String {
    let s = t.to_token_stream().to_string();
    s.replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace("& ", "&")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" .", ".")
        .replace(". ", ".")
}

/// Strips references, parentheses, `.clone()` and `.await` around an expression.
pub fn peel(mut e: &Expr) -> &Expr {
    loop {
        e = match e {
            Expr::Reference(r) => &r.expr,
            Expr::Paren(p) => &p.expr,
            Expr::Group(g) => &g.expr,
            Expr::Await(a) => &a.base,
            Expr::Try(t) => &t.expr,
            Expr::MethodCall(m) if m.method == "clone" && m.args.is_empty() => &m.receiver,
            _ => return e,
        }
    }
}

/// Where a file nests deeper than syn should be asked to parse: the line of the first
/// bracket past `MAX_NESTING` or of a punctuation run past `MAX_PUNCT_RUN`. proc-macro2's
/// lexer keeps its own stack, and the token trees are walked here with an explicit one.
pub fn too_deep(tokens: TokenStream) -> Option<u32> {
    let mut stack = vec![tokens.into_iter()];
    let mut run = 0usize;
    while let Some(top) = stack.last_mut() {
        let Some(tree) = top.next() else {
            stack.pop();
            continue;
        };
        match tree {
            TokenTree::Group(g) => {
                run = 0;
                if stack.len() >= MAX_NESTING {
                    return Some(line(g.span()));
                }
                stack.push(g.stream().into_iter());
            }
            TokenTree::Punct(p) => {
                run += 1;
                if run > MAX_PUNCT_RUN {
                    return Some(line(p.span()));
                }
            }
            _ => run = 0,
        }
    }
    None
}

#[cfg(test)]
mod tests {
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
        assert_eq!(too_deep(t), Some(1));
        let bangs = format!("fn f() {{ let x = {}true; }}", "!".repeat(200));
        assert_eq!(too_deep(bangs.parse().unwrap()), Some(1));
        let fine: TokenStream = "fn f() { g(h(i(1))); }".parse().unwrap();
        assert_eq!(too_deep(fine), None);
    }
}
