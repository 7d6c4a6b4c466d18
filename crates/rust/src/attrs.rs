//! Reading derive lists and `key = value` attribute arguments (`#[kube(…)]`, `#[arg(…)]`,
//! `#[serde(…)]`) into plain values.

use syn::{Attribute, Expr};

use super::syntax::{str_lit, text};
use super::uses::{Uses, segments};

/// One argument of an attribute: `flag`, `key = value`, or `key(…)` (kept as text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    pub key: String,
    /// A string literal's value, or an expression's source text.
    pub value: Option<String>,
    /// True when `value` is not a string literal.
    pub is_expr: bool,
}

/// The arguments of every attribute named one of `names` (`#[kube(a, b = "x")]`).
pub fn args(attrs: &[Attribute], names: &[&str]) -> Vec<Arg> {
    let mut out = Vec::new();
    for a in attrs {
        if !names.iter().any(|n| a.path().is_ident(n)) {
            continue;
        }
        // A malformed attribute gives the arguments read before the error.
        let _ = a.parse_nested_meta(|meta| {
            let key = meta
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect::<Vec<_>>()
                .join("::");
            if meta.input.peek(syn::Token![=]) {
                let e: Expr = meta.value()?.parse()?;
                let (value, is_expr) = match str_lit(&e) {
                    Some(s) => (s, false),
                    None => match &e {
                        Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Char(c),
                            ..
                        }) => (c.value().to_string(), false),
                        _ => (text(&e), true),
                    },
                };
                out.push(Arg {
                    key,
                    value: Some(value),
                    is_expr,
                });
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                let inner: proc_macro2::TokenStream = content.parse()?;
                out.push(Arg {
                    key,
                    value: Some(inner.to_string()),
                    is_expr: true,
                });
            } else {
                out.push(Arg {
                    key,
                    value: None,
                    is_expr: false,
                });
            }
            Ok(())
        });
    }
    out
}

/// The first value given for `key`.
pub fn value<'a>(args: &'a [Arg], key: &str) -> Option<&'a Arg> {
    args.iter().find(|a| a.key == key)
}

pub fn has(args: &[Arg], key: &str) -> bool {
    args.iter().any(|a| a.key == key)
}

/// True when `#[derive(…)]` lists `name` from one of `crates` (or unqualified in a file that
/// imports from one of them).
pub fn derives(attrs: &[Attribute], name: &str, crates: &[&str], uses: &Uses) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            let Ok(list) = a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            ) else {
                return false;
            };
            list.iter().any(|p| {
                let segs = segments(p);
                if segs.last().map(String::as_str) != Some(name) {
                    return false;
                }
                let resolved = uses.resolve(&segs);
                let first = resolved.split("::").next().unwrap_or("");
                crates.contains(&first) || (resolved == name && uses.uses_crate(crates))
            })
        })
}

/// True for items that exist only in test builds: `#[cfg(test)]` (alone or in an `all(…)`)
/// and test functions (`#[test]`, `#[tokio::test]` and other `…::test` attributes).
pub fn only_in_tests(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        let path = a.path();
        if path.segments.last().is_some_and(|s| s.ident == "test") {
            return true;
        }
        if !path.is_ident("cfg") {
            return false;
        }
        let Ok(meta) = a.parse_args::<syn::Meta>() else {
            return false;
        };
        match meta {
            syn::Meta::Path(p) => p.is_ident("test"),
            syn::Meta::List(l) if l.path.is_ident("all") => l
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .is_ok_and(|parts| {
                    parts
                        .iter()
                        .any(|m| matches!(m, syn::Meta::Path(p) if p.is_ident("test")))
                }),
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests;
