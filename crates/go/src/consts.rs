//! String constants: the expressions Go code builds names from (`"POST " + ChatPath`,
//! `GroupName`, `apis.Group + "/" + Version`), kept unevaluated per file and evaluated
//! per project by `index::GoIndex::eval`, across files and in-repo packages.

use super::syntax::FIELD;
use super::syntax::KindName;
use tree_sitter::Node;

use super::syntax::{call_arguments, line_of, string_literal, text};

/// An unevaluated string expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstExpr {
    Str(String),
    /// A constant or package-level variable: `Name` or `pkg.Name`.
    Ref {
        qualifier: Option<String>,
        name: String,
    },
    Concat(Vec<ConstExpr>),
}

impl ConstExpr {
    /// The expression as written (`"a" + pkg.Name`), for diagnostics.
    pub fn written(&self) -> String {
        match self {
            ConstExpr::Str(s) => format!("{s:?}"),
            ConstExpr::Ref {
                qualifier: Some(q),
                name,
            } => format!("{q}.{name}"),
            ConstExpr::Ref {
                qualifier: None,
                name,
            } => name.clone(),
            ConstExpr::Concat(parts) => parts
                .iter()
                .map(ConstExpr::written)
                .collect::<Vec<_>>()
                .join(" + "),
        }
    }
}

/// The string expression `node` denotes, or None if it is not built from literals and
/// names with `+` only. Iterative, so long `+` chains cannot overflow the stack.
pub fn const_expr(node: Node, src: &[u8]) -> Option<ConstExpr> {
    let mut parts = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind_name() {
            "binary_expression" => {
                let op = n.child_by_field_id(FIELD.operator).map(|o| text(o, src));
                if op != Some("+") {
                    return None;
                }
                stack.push(n.child_by_field_id(FIELD.right)?);
                stack.push(n.child_by_field_id(FIELD.left)?);
            }
            "parenthesized_expression" => stack.push(n.named_child(0)?),
            // `string(x)`: converting a typed string constant keeps its value.
            "call_expression"
                if n.child_by_field_id(FIELD.function)
                    .is_some_and(|f| text(f, src) == "string") =>
            {
                match call_arguments(n).as_slice() {
                    [inner] => stack.push(*inner),
                    _ => return None,
                }
            }
            "interpreted_string_literal" | "raw_string_literal" => {
                parts.push(ConstExpr::Str(string_literal(n, src)?))
            }
            "identifier" => parts.push(ConstExpr::Ref {
                qualifier: None,
                name: text(n, src).to_string(),
            }),
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand)?;
                if operand.kind_name() != "identifier" {
                    return None;
                }
                parts.push(ConstExpr::Ref {
                    qualifier: Some(text(operand, src).to_string()),
                    name: text(n.child_by_field_id(FIELD.field)?, src).to_string(),
                });
            }
            _ => return None,
        }
    }
    if parts.len() == 1 {
        parts.pop()
    } else {
        Some(ConstExpr::Concat(parts))
    }
}

/// A top-level string constant or variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    pub name: String,
    pub expr: ConstExpr,
    /// The line of its value.
    pub line: u32,
}

/// The names a `const` or `var` spec declares, each with its value; empty when the spec
/// has no values or not one per name (`a, b = f()`).
pub fn spec_values<'t>(spec: Node<'t>, src: &[u8]) -> Vec<(String, Node<'t>)> {
    // The grammar files the commas between names under `name` too.
    let names: Vec<String> = crate::syntax::field_children(spec, FIELD.name)
        .into_iter()
        .filter(|n| n.kind_name() == "identifier")
        .map(|n| text(n, src).to_string())
        .collect();
    let Some(list) = spec.child_by_field_id(FIELD.value) else {
        return Vec::new();
    };
    let mut lc = list.walk();
    let values: Vec<Node> = list.named_children(&mut lc).collect();
    if values.len() != names.len() {
        return Vec::new();
    }
    names.into_iter().zip(values).collect()
}

/// Top-level `const` and `var` specs whose value is a string expression.
pub fn collect_top_level(decl: Node, src: &[u8], out: &mut Vec<Constant>) {
    let mut stack = vec![decl];
    while let Some(node) = stack.pop() {
        match node.kind_name() {
            "const_spec" | "var_spec" => {
                for (name, value) in spec_values(node, src) {
                    if let Some(expr) = const_expr(value, src) {
                        let line = line_of(value);
                        out.push(Constant { name, expr, line });
                    }
                }
            }
            "const_declaration" | "var_declaration" | "var_spec_list" => {
                let mut c = node.walk();
                let children: Vec<Node> = node.named_children(&mut c).collect();
                stack.extend(children.into_iter().rev());
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
