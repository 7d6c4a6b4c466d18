//! Go expressions as raw values (`RawValue`), read per file: their text, string and
//! numeric constant forms, the names they use, the field or call they come from, and flag
//! targets. Shared with the features that read values flags may set (managers, metrics,
//! connections, platform checks).

use crate::syntax::FIELD;
use crate::syntax::KindName;

use tree_sitter::Node;

use crate::calls::names_import;
use crate::consts::{ConstExpr, const_expr};
use crate::facts::Import;
use crate::facts::binaries::{FieldRef, FlagTarget, RawValue};
use crate::flag_default;
use crate::scope::Scope;
use crate::syntax::callee;
use crate::syntax::{for_each_plain_identifier, text};
use crate::types::{Chain, Step};

/// The flag target a value expression denotes: `x`, `*x`, `&x`, `o.F`, `&o.A.F`.
pub fn flag_target(
    node: Node,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
) -> Option<FlagTarget> {
    let mut n = node;
    for _ in 0..4 {
        match n.kind_name() {
            "unary_expression"
                if n.child_by_field_id(FIELD.operator)
                    .is_some_and(|o| matches!(text(o, src), "&" | "*")) =>
            {
                n = n.child_by_field_id(FIELD.operand)?;
            }
            "parenthesized_expression" => n = n.named_child(0)?,
            _ => break,
        }
    }
    match n.kind_name() {
        "identifier" => {
            let name = text(n, src);
            let local = scope.lookup(name, n.start_byte()).is_some();
            Some(FlagTarget::Var {
                name: name.to_string(),
                local,
            })
        }
        "selector_expression" => value_of(n, scope, src, imports)
            .field
            .map(FlagTarget::Field),
        _ => None,
    }
}

/// Folds runs of whitespace (newlines and indentation in multi-line expressions) to one space.
pub(crate) fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `string(x)` and similar conversions to a string type leave the value unchanged.
pub(crate) fn unwrap_conversion<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut n = node;
    for _ in 0..4 {
        if n.kind_name() == "parenthesized_expression"
            && let Some(inner) = n.named_child(0)
        {
            n = inner;
            continue;
        }
        if n.kind_name() != "call_expression" {
            break;
        }
        let is_string_conv =
            callee(n).is_some_and(|f| f.kind_name() == "identifier" && text(f, src) == "string");
        let args = n.child_by_field_id(FIELD.arguments);
        match args
            .filter(|a| a.named_child_count() == 1)
            .and_then(|a| a.named_child(0))
        {
            Some(arg) if is_string_conv => n = arg,
            _ => break,
        }
    }
    n
}

/// The string constant expression `node` denotes, when none of its names is a local variable.
pub(crate) fn string_in_scope(node: Node, scope: &Scope, src: &[u8]) -> Option<ConstExpr> {
    let n = unwrap_conversion(scope.resolve_value(node, src), src);
    let expr = const_expr(n, src)?;
    let mut locals = false;
    for_each_plain_identifier(n, |id| {
        if scope.lookup(text(id, src), id.start_byte()).is_some() {
            locals = true;
        }
    });
    (!locals).then_some(expr)
}

/// Reads an argument or field value as written, with what can be evaluated later.
pub fn value_of(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> RawValue {
    let mut v = RawValue {
        text: fold(text(node, src)),
        string: string_in_scope(node, scope, src),
        ..RawValue::default()
    };
    let n = scope.resolve_value(node, src);
    if let Some(names) = literal_names(n, scope, src, imports) {
        v.literal = true;
        v.names = names;
    }
    if n.kind_name() == "selector_expression"
        && let Some(Chain { root, steps }) = scope.chain_of(n, src)
    {
        let path: Option<Vec<String>> = steps
            .into_iter()
            .map(|s| match s {
                Step::Field(f) => Some(f),
                Step::Call(_) | Step::Elem => None,
            })
            .collect();
        if let Some(path) = path.filter(|p| !p.is_empty()) {
            v.field = Some(FieldRef { root, path });
        }
    }
    v.call = made_by(n, scope, src);
    v.num = flag_default::num_expr(n, scope, src, imports);
    v.env = getenv_arg(n, scope, src, imports);
    v.items = slice_items(n, scope, src, imports);
    v
}

/// The elements of a slice literal (`[]string{"a"}`), none for `nil` or `[]T{}`; each
/// element read without its own elements.
fn slice_items(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<Vec<RawValue>> {
    if node.kind_name() == "nil" || (node.kind_name() == "identifier" && text(node, src) == "nil") {
        return Some(Vec::new());
    }
    if node.kind_name() != "composite_literal"
        || node
            .child_by_field_id(FIELD.ty)
            .is_none_or(|t| t.kind_name() != "slice_type")
    {
        return None;
    }
    let body = node.child_by_field_id(FIELD.body)?;
    let mut c = body.walk();
    let mut items = Vec::new();
    for element in body.named_children(&mut c) {
        if element.kind_name() == "comment" {
            continue;
        }
        let e = (element.kind_name() == "literal_element")
            .then(|| element.named_child(0))
            .flatten()?;
        let mut v = RawValue {
            text: fold(text(e, src)),
            string: string_in_scope(e, scope, src),
            ..RawValue::default()
        };
        v.num = flag_default::num_expr(e, scope, src, imports);
        items.push(v);
    }
    Some(items)
}

/// `NAME` of `os.Getenv(NAME)` with a constant name.
pub(crate) fn getenv_arg(
    node: Node,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
) -> Option<ConstExpr> {
    if node.kind_name() != "call_expression" {
        return None;
    }
    let f = callee(node).filter(|f| f.kind_name() == "selector_expression")?;
    let operand = f.child_by_field_id(FIELD.operand)?;
    if !crate::calls::is_package(operand, scope, src, imports, "os")
        || text(f.child_by_field_id(FIELD.field)?, src) != "Getenv"
    {
        return None;
    }
    let args = node.child_by_field_id(FIELD.arguments)?;
    if args.named_child_count() != 1 {
        return None;
    }
    string_in_scope(args.named_child(0)?, scope, src)
}

/// The package-level function whose result `node` is (`F(…)`, `pkg.F(…)`, behind `*`/`&`).
fn made_by(node: Node, scope: &Scope, src: &[u8]) -> Option<(Option<String>, String)> {
    let mut n = node;
    while n.kind_name() == "unary_expression" {
        n = n.child_by_field_id(FIELD.operand)?;
    }
    if n.kind_name() != "call_expression" {
        return None;
    }
    let f = callee(n)?;
    let not_local = |id: Node| scope.lookup(text(id, src), id.start_byte()).is_none();
    match f.kind_name() {
        "identifier" if not_local(f) => Some((None, text(f, src).to_string())),
        "selector_expression" => {
            let operand = f.child_by_field_id(FIELD.operand)?;
            (operand.kind_name() == "identifier" && not_local(operand)).then(|| {
                (
                    Some(text(operand, src).to_string()),
                    text(f.child_by_field_id(FIELD.field).unwrap_or(f), src).to_string(),
                )
            })
        }
        _ => None,
    }
}

const CONVERSIONS: &[&str] = &[
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "float32", "float64", "byte", "rune",
];

/// The constant names a literal-looking expression uses, or None if it is not one.
fn literal_names(
    node: Node,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
) -> Option<Vec<(Option<String>, String)>> {
    let is_time = |q: &str| names_import(imports, q, "time");
    let mut names = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind_name() {
            "int_literal"
            | "float_literal"
            | "imaginary_literal"
            | "rune_literal"
            | "interpreted_string_literal"
            | "raw_string_literal"
            | "true"
            | "false"
            | "nil"
            | "iota"
            | "comment" => {}
            "identifier" => {
                let name = text(n, src);
                if matches!(name, "true" | "false" | "nil" | "iota") {
                    continue;
                }
                if scope.lookup(name, n.start_byte()).is_some() {
                    return None;
                }
                names.push((None, name.to_string()));
            }
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand)?;
                if operand.kind_name() != "identifier"
                    || scope
                        .lookup(text(operand, src), operand.start_byte())
                        .is_some()
                {
                    return None;
                }
                let q = text(operand, src);
                if !is_time(q) {
                    let field = text(n.child_by_field_id(FIELD.field)?, src);
                    names.push((Some(q.to_string()), field.to_string()));
                }
            }
            "binary_expression"
            | "unary_expression"
            | "parenthesized_expression"
            | "literal_value"
            | "literal_element"
            | "keyed_element"
            | "argument_list" => {
                let op = n.child_by_field_id(FIELD.operator).map(|o| text(o, src));
                if matches!(op, Some("&" | "<-" | "*")) && n.kind_name() == "unary_expression" {
                    return None;
                }
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
            "composite_literal" => {
                let ty = n.child_by_field_id(FIELD.ty)?;
                if !matches!(
                    ty.kind_name(),
                    "slice_type" | "array_type" | "implicit_length_array_type" | "map_type"
                ) {
                    return None;
                }
                stack.push(n.child_by_field_id(FIELD.body)?);
            }
            "call_expression" => {
                let f = callee(n)?;
                let conversion = match f.kind_name() {
                    "identifier" => CONVERSIONS.contains(&text(f, src)),
                    "selector_expression" => {
                        f.child_by_field_id(FIELD.operand)
                            .is_some_and(|o| o.kind_name() == "identifier" && is_time(text(o, src)))
                            && f.child_by_field_id(FIELD.field)
                                .is_some_and(|x| text(x, src) == "Duration")
                    }
                    _ => false,
                };
                if !conversion {
                    return None;
                }
                stack.push(n.child_by_field_id(FIELD.arguments)?);
            }
            _ => return None,
        }
    }
    Some(names)
}
