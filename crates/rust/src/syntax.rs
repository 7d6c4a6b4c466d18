//! Small helpers over syn's tree shared by the Rust extractors: lines, doc comments,
//! literals, printed types and handler names, and the depth guard that runs before syn.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Attribute, Expr, Lit};

/// Deepest bracket nesting syn is handed. syn's parser recurses once or more per level and
/// has no limit of its own; real code stays far below this.
pub const MAX_NESTING: usize = 96;
/// Longest run of punctuation (`!!!!x`, `- - - x`, `&&&&x`) syn is handed: prefix
/// operators recurse like brackets.
pub const MAX_PUNCT_RUN: usize = 96;
/// Most tokens on one line of descent (see [`too_deep`]): `1 + 1 + …` or `x.f().f()…`
/// 3,000 long overflowed the stack. Real code stays in the low hundreds.
pub const MAX_EXPRESSION_TOKENS: usize = 1024;

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

/// A type behind references, parentheses and invisible groups.
pub fn peel_type(mut ty: &syn::Type) -> &syn::Type {
    loop {
        ty = match ty {
            syn::Type::Reference(r) => &r.elem,
            syn::Type::Paren(p) => &p.elem,
            syn::Type::Group(g) => &g.elem,
            _ => return ty,
        };
    }
}

/// The name of a type (`Foo` for `crate::a::Foo<T>` or `&Foo`), when it is a path.
pub fn type_name(ty: &syn::Type) -> Option<String> {
    match peel_type(ty) {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// Why a file is not handed to syn, with the line where it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// A bracket nested deeper than [`MAX_NESTING`].
    Nesting(u32),
    /// A run of more than [`MAX_PUNCT_RUN`] punctuation characters.
    Operators(u32),
    /// More than [`MAX_EXPRESSION_TOKENS`] tokens on one line of descent.
    Expression(u32),
}

impl Refused {
    pub fn line(self) -> u32 {
        match self {
            Refused::Nesting(l) | Refused::Operators(l) | Refused::Expression(l) => l,
        }
    }

    /// What the diagnostic says.
    pub fn message(self) -> String {
        let why = match self {
            Refused::Nesting(_) => format!("brackets nested deeper than {MAX_NESTING}"),
            Refused::Operators(_) => format!("more than {MAX_PUNCT_RUN} operators in a row"),
            Refused::Expression(_) => format!(
                "an expression longer than {MAX_EXPRESSION_TOKENS} tokens (a chain of operators, calls or `else if`s)"
            ),
        };
        format!("Rust file not analyzed: {why}; the parser would recurse once per level")
    }
}

/// Whether syn can be handed a file without its recursion (parsing, visiting, printing and
/// dropping the tree) outgrowing a worker's stack. syn builds one tree level per bracket,
/// per prefix operator, and per operator, call, method, cast, closure or `else if` of an
/// expression, so three things are bounded: bracket nesting, runs of punctuation, and the
/// tokens of the statements (or list elements) around any point, summed over the brackets
/// that hold it. proc-macro2's lexer keeps its own stack, and the token trees are walked
/// here with an explicit one.
pub fn too_deep(tokens: TokenStream) -> Option<Refused> {
    // One bracket level: its tokens, the tokens of the statements around it, its nesting,
    // and whether it is a macro's arguments (which syn keeps as tokens and never parses).
    let mut pending = vec![(
        tokens.into_iter().collect::<Vec<_>>(),
        0usize,
        1usize,
        false,
    )];
    while let Some((level, around, nesting, macro_args)) = pending.pop() {
        let mut run = 0usize;
        for tree in &level {
            match tree {
                TokenTree::Punct(p) => {
                    run += 1;
                    if run > MAX_PUNCT_RUN && !macro_args {
                        return Some(Refused::Operators(line(p.span())));
                    }
                }
                _ => run = 0,
            }
        }
        let counted = counted_tokens(&level);
        for statement in statements(&level) {
            let count = statement.clone().filter(|&i| counted[i]).count();
            if !macro_args && around + count > MAX_EXPRESSION_TOKENS {
                let mut seen = around;
                let at = statement
                    .clone()
                    .find(|&i| {
                        seen += usize::from(counted[i]);
                        seen > MAX_EXPRESSION_TOKENS
                    })
                    .unwrap_or(statement.start);
                return Some(Refused::Expression(line(level[at].span())));
            }
            for i in statement {
                let TokenTree::Group(g) = &level[i] else {
                    continue;
                };
                if nesting >= MAX_NESTING {
                    return Some(Refused::Nesting(line(g.span())));
                }
                pending.push((
                    g.stream().into_iter().collect(),
                    around + count,
                    nesting + 1,
                    macro_args || is_macro_call(&level, i),
                ));
            }
        }
    }
    None
}

/// Which tokens of a level count towards a statement's length: all but attributes (`#`,
/// `!` and the `[…]` of `#[…]` and `#![…]`; each doc comment line is one), which syn keeps
/// in a list beside the node they annotate. Their contents are still walked.
fn counted_tokens(level: &[TokenTree]) -> Vec<bool> {
    let mut counted = vec![true; level.len()];
    let punct =
        |i: usize, c: char| matches!(level.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
    let bracket = |i: usize| matches!(level.get(i), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket);
    for i in 0..level.len() {
        if !punct(i, '#') {
            continue;
        }
        let span = if bracket(i + 1) {
            i..i + 2
        } else if punct(i + 1, '!') && bracket(i + 2) {
            i..i + 3
        } else {
            continue;
        };
        for j in span {
            counted[j] = false;
        }
    }
    counted
}

/// The statements of one bracket level, as index ranges: split after `;` and `=>`, after
/// `,` outside angle brackets and closure parameters, and after a `{…}` block that nothing
/// continues. Splitting too little only over-counts, so every doubtful case (a `<` that
/// may be a comparison, a block followed by an operator or a bracket) keeps the statement
/// going; splitting inside something syn nests across would under-count, so commas in
/// `A<B, A<B, …` and in `|a, b| |a, b| …` do not split.
fn statements(level: &[TokenTree]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    // At least as many `<` as syn has open at this point (comparisons only add).
    let mut angles = 0usize;
    // Between the `|`s of a closure's parameters.
    let mut parameters = false;
    let mut skip_pipe = false;
    for (i, tree) in level.iter().enumerate() {
        let next = level.get(i + 1);
        let joined_to = |c: char| match (tree, next) {
            (TokenTree::Punct(p), Some(TokenTree::Punct(n))) => {
                p.spacing() == Spacing::Joint && n.as_char() == c
            }
            _ => false,
        };
        let after = i.checked_sub(1).and_then(|j| match &level[j] {
            TokenTree::Punct(p) if p.spacing() == Spacing::Joint => Some(p.as_char()),
            _ => None,
        });
        let ends = match tree {
            TokenTree::Punct(p) => match p.as_char() {
                ';' => true,
                ',' => angles == 0 && !parameters,
                '<' => {
                    if !joined_to('=') {
                        angles += 1;
                    }
                    false
                }
                // `=>` ends a match arm; `->` and `>=` close nothing.
                '>' if after == Some('=') => true,
                '>' => {
                    if after != Some('-') && !joined_to('=') {
                        angles = angles.saturating_sub(1);
                    }
                    false
                }
                // `||` is an empty parameter list or a logical or: neither opens a list.
                '|' if skip_pipe => {
                    skip_pipe = false;
                    false
                }
                '|' if parameters => {
                    parameters = false;
                    false
                }
                '|' if joined_to('|') => {
                    skip_pipe = true;
                    false
                }
                '|' => {
                    parameters = opens_closure(level, i);
                    false
                }
                _ => false,
            },
            TokenTree::Group(g) => g.delimiter() == Delimiter::Brace && !continues(next),
            _ => false,
        };
        if ends {
            out.push(start..i + 1);
            start = i + 1;
            angles = 0;
            parameters = false;
        }
    }
    if start < level.len() {
        out.push(start..level.len());
    }
    out
}

/// Whether the `|` at `i` starts a closure's parameters rather than being a binary or:
/// it does where no operand ends just before it (after an operator, a keyword such as
/// `move` or `return`, or at the start).
fn opens_closure(level: &[TokenTree], i: usize) -> bool {
    match i.checked_sub(1).map(|j| &level[j]) {
        None => true,
        Some(TokenTree::Punct(p)) => p.as_char() != '?',
        Some(TokenTree::Ident(name)) => KEYWORDS.contains(&name.to_string().as_str()),
        Some(TokenTree::Literal(_) | TokenTree::Group(_)) => false,
    }
}

/// Whether the token after a `{…}` block may continue its expression (`} else`, `}.f()`,
/// `} + 1`, `}[0]`, `}(x)`); an item or statement after it starts anew.
fn continues(next: Option<&TokenTree>) -> bool {
    match next {
        Some(TokenTree::Ident(i)) => i == "else" || i == "as",
        Some(TokenTree::Punct(p)) => !matches!(p.as_char(), '#' | ';' | ','),
        Some(TokenTree::Group(g)) => g.delimiter() != Delimiter::Brace,
        _ => false,
    }
}

/// Whether the group at `i` is a macro's arguments, `name!(…)` (where `name` is not a
/// keyword: `if !(…)` and `&mut !(…)` are expressions syn parses), or the body of
/// `macro_rules! name {…}`.
fn is_macro_call(level: &[TokenTree], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).map(|j| &level[j]);
    let bang = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '!');
    let name = |t: Option<&TokenTree>| match t {
        Some(TokenTree::Ident(name)) => Some(name.to_string()),
        _ => None,
    };
    let called =
        bang(before(1)) && name(before(2)).is_some_and(|n| !KEYWORDS.contains(&n.as_str()));
    let rules = name(before(1)).is_some()
        && bang(before(2))
        && name(before(3)).as_deref() == Some("macro_rules");
    called || rules
}

/// Rust's keywords, reserved ones included: none of them names a macro.
const KEYWORDS: [&str; 51] = [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
];

/// The line of a path's last segment.
pub fn path_line(p: &syn::Path) -> u32 {
    p.segments.last().map(|s| line(s.ident.span())).unwrap_or(0)
}

/// The last segment of a path expression (`reconcile`, `handlers::health` → `health`).
pub fn path_name(e: &Expr) -> Option<String> {
    match peel(e) {
        Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
