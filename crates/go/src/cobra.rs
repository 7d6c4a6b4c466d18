//! cobra command trees: each `&cobra.Command{Use: "serve", …}` literal, the variable or
//! function that holds it, and `parent.AddCommand(child, …)` edges. Flags registered on
//! `cmd.Flags()`/`cmd.PersistentFlags()` name the command they belong to (a `CmdRef`),
//! resolved per project to one literal.

use tree_sitter::Node;

use super::calls::names_import;
use super::consts::const_expr;
use super::facts::Import;
use super::facts::cobra::{AddCommand, CmdRef, CobraCommand, CobraFacts};
use super::scope::Scope;
use super::syntax::callee;
use super::syntax::{FIELD, KindName, line_of, text};
use super::types::type_ref;

pub const COBRA: &str = "github.com/spf13/cobra";

/// Records a `return F(…)` (directly or through a variable) of a function.
pub fn returned_call(
    ret: Node,
    func: usize,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
    out: &mut CobraFacts,
) {
    let Some(list) = ret.named_child(0) else {
        return;
    };
    if list.named_child_count() != 1 {
        return;
    }
    let Some(expr) = list.named_child(0) else {
        return;
    };
    if let Some(r @ CmdRef::Call(..)) = command_ref(expr, scope, src, imports) {
        out.returns.push((func, r));
    }
}

/// True for a `cobra.Command{…}` literal.
fn is_command_literal(node: Node, src: &[u8], imports: &[Import]) -> bool {
    node.kind_name() == "composite_literal"
        && node
            .child_by_field_id(FIELD.ty)
            .and_then(|t| type_ref(t, src))
            .is_some_and(|t| {
                t.name == "Command"
                    && t.qualifier
                        .as_deref()
                        .is_some_and(|q| names_import(imports, q, COBRA))
            })
}

/// Records a command literal found at `node`, if it is one.
pub fn literal(
    node: Node,
    func: usize,
    package_level: bool,
    returns: &[Node],
    src: &[u8],
    imports: &[Import],
    out: &mut CobraFacts,
) {
    if !is_command_literal(node, src, imports) {
        return;
    }
    let mut use_ = None;
    let mut short = None;
    if let Some(body) = node.child_by_field_id(FIELD.body) {
        for (k, v) in super::syntax::keyed_elements(body) {
            match text(k, src) {
                "Use" => use_ = const_expr(v, src),
                "Short" => short = const_expr(v, src),
                _ => {}
            }
        }
    }
    // Up through `&` and the expression list to the statement that binds or returns it.
    let mut up = node.parent();
    if up.is_some_and(|u| u.kind_name() == "unary_expression") {
        up = up.and_then(|u| u.parent());
    }
    let list = up.filter(|u| u.kind_name() == "expression_list");
    let stmt = list.and_then(|l| l.parent());
    let single = list.is_some_and(|l| l.named_child_count() == 1);
    let var = stmt.filter(|_| single).and_then(|s| match s.kind_name() {
        "short_var_declaration" | "assignment_statement" => {
            let left = s.child_by_field_id(FIELD.left)?;
            (left.named_child_count() == 1)
                .then(|| left.named_child(0))
                .flatten()
                .filter(|n| n.kind_name() == "identifier")
                .map(|n| text(n, src).to_string())
        }
        "var_spec" => {
            let names: Vec<Node> = crate::syntax::field_children(s, FIELD.name);
            match names.as_slice() {
                [one] => Some(text(*one, src).to_string()),
                _ => None,
            }
        }
        _ => None,
    });
    let returned_directly = stmt.is_some_and(|s| s.kind_name() == "return_statement") && single;
    let returned_var = var.as_ref().is_some_and(|v| {
        returns.iter().any(|r| {
            r.named_child(0)
                .filter(|l| l.named_child_count() == 1)
                .and_then(|l| l.named_child(0))
                .is_some_and(|x| x.kind_name() == "identifier" && text(x, src) == v)
        })
    });
    out.commands.push(CobraCommand {
        line: line_of(node),
        func,
        var,
        package_level,
        returned: !package_level && (returned_directly || returned_var),
        use_,
        short,
    });
}

/// How `node` names a command: a variable (followed to the call that made it), a call,
/// or a literal in place.
pub fn command_ref(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<CmdRef> {
    let mut n = scope.resolve_value(node, src);
    if n.kind_name() == "unary_expression" {
        n = n.child_by_field_id(FIELD.operand)?;
    }
    match n.kind_name() {
        "identifier" => Some(CmdRef::Var(text(n, src).to_string())),
        "composite_literal" if is_command_literal(n, src, imports) => {
            Some(CmdRef::Literal(line_of(n)))
        }
        "call_expression" => {
            let f = callee(n)?;
            let not_local = |id: Node| scope.lookup(text(id, src), id.start_byte()).is_none();
            match f.kind_name() {
                "identifier" if not_local(f) => Some(CmdRef::Call(None, text(f, src).to_string())),
                "selector_expression" => {
                    let o = f.child_by_field_id(FIELD.operand)?;
                    (o.kind_name() == "identifier" && not_local(o)).then(|| {
                        CmdRef::Call(
                            Some(text(o, src).to_string()),
                            text(f.child_by_field_id(FIELD.field).unwrap_or(f), src).to_string(),
                        )
                    })
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Records `parent.AddCommand(children…)`.
pub fn add_command(
    call: Node,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
    out: &mut CobraFacts,
) {
    let Some(f) = callee(call).filter(|f| f.kind_name() == "selector_expression") else {
        return;
    };
    if f.child_by_field_id(FIELD.field).map(|m| text(m, src)) != Some("AddCommand") {
        return;
    }
    let Some(parent) = f
        .child_by_field_id(FIELD.operand)
        .and_then(|o| command_ref(o, scope, src, imports))
    else {
        return;
    };
    let Some(args) = call.child_by_field_id(FIELD.arguments) else {
        return;
    };
    let mut c = args.walk();
    let children: Vec<CmdRef> = args
        .named_children(&mut c)
        .filter(|a| a.kind_name() != "comment")
        .filter_map(|a| command_ref(a, scope, src, imports))
        .collect();
    if !children.is_empty() {
        out.adds.push(AddCommand {
            line: line_of(call),
            func,
            parent,
            children,
        });
    }
}

/// The command whose `Flags()`/`PersistentFlags()`/`LocalFlags()` a flag set expression
/// is (`cmd.Flags()`, or a variable holding it).
pub fn flags_owner(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<CmdRef> {
    let n = scope.resolve_value(node, src);
    if n.kind_name() != "call_expression" {
        return None;
    }
    let f = callee(n).filter(|f| f.kind_name() == "selector_expression")?;
    let method = text(f.child_by_field_id(FIELD.field)?, src);
    if !matches!(method, "Flags" | "PersistentFlags" | "LocalFlags") {
        return None;
    }
    command_ref(f.child_by_field_id(FIELD.operand)?, scope, src, imports)
}

/// The first word of a `Use` line (`serve [flags]` → `serve`).
pub fn command_name(use_line: &str) -> Option<String> {
    use_line.split_whitespace().next().map(str::to_string)
}
