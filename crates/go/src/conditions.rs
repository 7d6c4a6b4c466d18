//! Status conditions: the condition types Go code sets on objects, with the statuses and
//! reasons set, attributed to the controllers whose `Reconcile` reaches the code.
//!
//! Recognized, per function:
//! * `meta.SetStatusCondition(&x.Status.Conditions, c)` (apimachinery's `api/meta`), `c` a
//!   `Condition` literal or a local holding one;
//! * a `metav1.Condition{Type: …}` literal (or the local holding it) handed to a call
//!   together with the object or status it belongs to (`setCondition(&obj.Status, c)`):
//!   an argument (or the receiver) whose type is a kind, or a kind's status struct;
//! * Knative's condition managers: `….Manage(h).MarkTrue(T)`, `MarkTrueWithReason`,
//!   `MarkFalse`, `MarkUnknown`, also through a local `m := ….Manage(h)`;
//! * project helpers `x.SetCondition(T, …)` where `T` is a constant declared with a type
//!   named `…ConditionType`, the status and reason read from a condition literal argument.
//!
//! The condition type must be a constant (evaluated per project); a parameter is its
//! callers' to tell (no row), anything else a diagnostic. The kind holding the condition is
//! the type of the object (`x` of `x.Status.Conditions`, `x.GetStatus()`) or the kind whose
//! `Status` field has the status struct's type; never guessed. Knative
//! `apis.NewLivingConditionSet(A, B)` / `NewBatchConditionSet` package variables are
//! condition sets, given the kind of the objects their `Manage(h)` calls (or a
//! `GetConditionSet()` method returning them) are for.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::calls::{Graph, Paths, names_import};
use super::consts::{ConstExpr, const_expr};
use super::facts::GoFile;
use super::facts::conditions::{RawCondition, RawConditionSet, TypeExpr};
use super::index::{GoInput, dir_of};
use super::scope::{Binding, Scope};
use super::syntax::{FIELD, FuncCtx, KindName, call_arguments, callee, line_of, text};
use super::types::{FuncRef, TypeRef, ValueType, type_ref};
use super::values::Values;
use super::writes::call_path;
use model::{Area, ConditionSet, Controller, Diagnostic, SourceRef, StatusCondition, UNRESOLVED};

const API_META: &str = "k8s.io/apimachinery/pkg/api/meta";
const META_V1: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";
const KNATIVE_APIS: &str = "knative.dev/pkg/apis";
/// Knative's own condition type constants (in `knative.dev/pkg/apis`, outside the repository).
const KNATIVE_TYPES: [(&str, &str); 2] = [
    ("ConditionReady", "Ready"),
    ("ConditionSucceeded", "Succeeded"),
];
/// Knative condition manager methods and the status each sets.
const MARKS: [(&str, &str); 4] = [
    ("MarkTrue", "True"),
    ("MarkTrueWithReason", "True"),
    ("MarkFalse", "False"),
    ("MarkUnknown", "Unknown"),
];

/// Records the typed constants of a `const` declaration.
pub fn collect_typed_consts(decl: Node, src: &[u8], file: &mut GoFile) {
    let mut c = decl.walk();
    for spec in decl.named_children(&mut c) {
        if spec.kind_name() != "const_spec" {
            continue;
        }
        let Some(ty) = spec
            .child_by_field_id(FIELD.ty)
            .and_then(|t| type_ref(t, src))
        else {
            continue;
        };
        for name in crate::syntax::field_children(spec, FIELD.name)
            .into_iter()
            .filter(|n| n.kind_name() == "identifier")
        {
            file.conditions
                .typed_consts
                .push((text(name, src).to_string(), ty.clone()));
        }
    }
}

/// Records `var X = apis.NewLivingConditionSet(…)` / `NewBatchConditionSet(…)`.
pub fn collect_sets(decl: Node, src: &[u8], file: &mut GoFile) {
    let mut stack = vec![decl];
    while let Some(node) = stack.pop() {
        match node.kind_name() {
            "var_declaration" | "var_spec_list" => {
                let mut c = node.walk();
                stack.extend(node.named_children(&mut c));
            }
            "var_spec" => {
                let (Some(name), Some(values)) = (
                    node.child_by_field_id(FIELD.name),
                    node.child_by_field_id(FIELD.value),
                ) else {
                    continue;
                };
                let Some(call) = values
                    .named_child(0)
                    .filter(|v| v.kind_name() == "call_expression")
                else {
                    continue;
                };
                let Some((q, f)) = qualified_callee(call, src) else {
                    continue;
                };
                let batch = match f {
                    "NewLivingConditionSet" => false,
                    "NewBatchConditionSet" => true,
                    _ => continue,
                };
                if !names_import(&file.imports, q, KNATIVE_APIS) {
                    continue;
                }
                let dependents = call_arguments(call)
                    .into_iter()
                    .map(|a| const_expr(a, src))
                    .collect();
                file.conditions.condition_sets.push(RawConditionSet {
                    name: text(name, src).to_string(),
                    batch,
                    dependents,
                    line: line_of(call),
                });
            }
            _ => {}
        }
    }
}

/// `q.F` of a call `q.F(…)` with `q` an identifier.
fn qualified_callee<'s>(call: Node, src: &'s [u8]) -> Option<(&'s str, &'s str)> {
    let f = callee(call)?;
    if f.kind_name() != "selector_expression" {
        return None;
    }
    let operand = f.child_by_field_id(FIELD.operand)?;
    (operand.kind_name() == "identifier").then_some(())?;
    Some((
        text(operand, src),
        text(f.child_by_field_id(FIELD.field)?, src),
    ))
}

/// Records the conditions one function sets.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    if file.generated {
        return;
    }
    let func = FuncRef {
        receiver: ctx.receiver_type.clone(),
        name: ctx.name.clone(),
    };
    let x = Extractor {
        scope,
        bindings: &ctx.bindings,
        src,
        imports: &file.imports,
    };
    let mut found = Vec::new();
    let mut uses = Vec::new();
    // Condition literals a setter call already read.
    let mut consumed: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for (call, operand, method) in ctx.method_calls() {
        let method = text(method, src);
        // Only these methods are read: their arguments are collected, no other call's.
        let read = matches!(method, "Manage" | "SetStatusCondition" | "SetCondition")
            || MARKS.iter().any(|(m, _)| *m == method);
        if !read {
            continue;
        }
        let args = call_arguments(call);
        let at = call.start_byte();
        if method == "Manage"
            && args.len() == 1
            && operand.kind_name() == "identifier"
            && scope.lookup(text(operand, src), at).is_none()
        {
            uses.push((text(operand, src).to_string(), x.holder(args[0], at)));
        }
        if method == "SetStatusCondition"
            && operand.kind_name() == "identifier"
            && names_import(x.imports, text(operand, src), API_META)
            && args.len() == 2
        {
            let literal = x.literal(args[1], at);
            let mut raw = x.read_literal(literal, &func, line_of(call), true);
            match literal {
                Some(l) => {
                    consumed.insert(l.start_byte());
                }
                // A condition handed in: the callers' literals are the rows.
                None if scope.param_at(strip_address(args[1]), src).is_some() => {
                    raw.condition_type = TypeExpr::Param
                }
                None => {
                    raw.condition_type =
                        TypeExpr::Other(text(args[1], src).chars().take(80).collect())
                }
            }
            raw.holders = vec![x.holder(args[0], at)];
            found.push(raw);
        } else if let Some(&(_, status)) = MARKS.iter().find(|(m, _)| *m == method)
            && !args.is_empty()
            && x.is_manager(operand, at)
        {
            let manage = x.scope.resolve_value(operand, src);
            let holder = call_arguments(manage)
                .first()
                .map(|h| x.holder(*h, at))
                .into_iter()
                .collect();
            let reasons = match (method, args.get(1)) {
                ("MarkTrue", _) | (_, None) => Vec::new(),
                (_, Some(r)) => x.constant(*r, at).into_iter().collect(),
            };
            found.push(RawCondition {
                func: func.clone(),
                line: line_of(call),
                condition_type: x.type_expr(args[0], at),
                typed_only: false,
                status: vec![status],
                reasons,
                holders: holder,
                setter: true,
            });
        } else if method == "SetCondition" && !args.is_empty() {
            let literal = args.get(1).and_then(|a| x.literal(*a, at));
            let mut raw = x.read_literal(literal, &func, line_of(call), false);
            if let Some(l) = literal {
                consumed.insert(l.start_byte());
            }
            raw.condition_type = x.type_expr(args[0], at);
            raw.typed_only = true;
            raw.holders = vec![x.holder(operand, at)];
            found.push(raw);
        }
    }
    // `metav1.Condition{…}` literals handed to a call with the object they belong to.
    for &node in &ctx.nodes {
        if node.kind_name() != "composite_literal"
            || consumed.contains(&node.start_byte())
            || !x.is_meta_condition(node)
        {
            continue;
        }
        let Some((call, arg)) = x.handed_to(ctx, node) else {
            continue;
        };
        let at = call.start_byte();
        let mut raw = x.read_literal(Some(node), &func, line_of(node), false);
        let mut holders: Vec<ValueType> = call_arguments(call)
            .into_iter()
            .filter(|a| a.start_byte() != arg.start_byte())
            .map(|a| x.holder(a, at))
            .collect();
        if let Some(f) = callee(call).filter(|f| f.kind_name() == "selector_expression")
            && let Some(operand) = f.child_by_field_id(FIELD.operand)
        {
            holders.push(x.holder(operand, at));
        }
        raw.holders = holders;
        found.push(raw);
    }
    if ctx.name == "GetConditionSet"
        && let Some(receiver) = &ctx.receiver_type
    {
        for ret in ctx.own_returns() {
            if let Some(v) = ret
                .named_child(0)
                .and_then(|l| l.named_child(0).or(Some(l)))
                && v.kind_name() == "identifier"
            {
                uses.push((
                    text(v, src).to_string(),
                    ValueType::Type(TypeRef::named(None, receiver)),
                ));
            }
        }
    }
    file.conditions.sets.extend(found);
    file.conditions.set_uses.extend(uses);
}

/// A condition literal in a local is followed through at most this many later
/// assignments, and the calls after it searched this far for the one it is handed to: a
/// function of many literals stays linear.
const MAX_FOLLOWED: usize = 256;

struct Extractor<'a, 't> {
    scope: &'a Scope<'t>,
    bindings: &'a [Node<'t>],
    src: &'a [u8],
    imports: &'a [super::facts::Import],
}

impl<'t> Extractor<'_, 't> {
    /// The condition literal `node` is, or the local it names holds (`&` dropped).
    fn literal(&self, node: Node<'t>, _at: usize) -> Option<Node<'t>> {
        let mut n = strip_address(node);
        n = strip_address(self.scope.resolve_value(n, self.src));
        (n.kind_name() == "composite_literal").then_some(n)
    }

    /// A `Condition` literal of apimachinery's `meta/v1`.
    fn is_meta_condition(&self, node: Node) -> bool {
        let Some(ty) = node.child_by_field_id(FIELD.ty) else {
            return false;
        };
        if ty.kind_name() != "qualified_type" {
            return false;
        }
        let (Some(pkg), Some(name)) = (
            ty.child_by_field_id(FIELD.package),
            ty.child_by_field_id(FIELD.name),
        ) else {
            return false;
        };
        text(name, self.src) == "Condition"
            && names_import(self.imports, text(pkg, self.src), META_V1)
    }

    /// The call a literal is an argument of, directly or through the local it is assigned
    /// to (the first call after it that passes that local), and the argument.
    fn handed_to(&self, ctx: &FuncCtx<'t>, literal: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let mut n = literal;
        if let Some(p) = n.parent().filter(|p| p.kind_name() == "unary_expression") {
            n = p;
        }
        let parent = n.parent()?;
        if parent.kind_name() == "argument_list" {
            return Some((parent.parent()?, n));
        }
        let name = super::syntax::assigned_variable(n, self.src)?;
        // Calls are in document order: start after the literal.
        let from = ctx
            .calls
            .partition_point(|c| c.start_byte() <= literal.end_byte());
        ctx.calls[from..].iter().take(MAX_FOLLOWED).find_map(|&c| {
            call_arguments(c)
                .into_iter()
                .find(|a| {
                    let a = strip_address(*a);
                    a.kind_name() == "identifier" && text(a, self.src) == name
                })
                .map(|a| (c, a))
        })
    }

    /// Type, status and reason of a condition literal, with the status and reason that the
    /// function assigns to the local holding it afterwards (`c.Status = …`).
    fn read_literal(
        &self,
        literal: Option<Node<'t>>,
        func: &FuncRef,
        line: u32,
        setter: bool,
    ) -> RawCondition {
        let mut raw = RawCondition {
            func: func.clone(),
            line,
            condition_type: TypeExpr::Other(String::new()),
            typed_only: false,
            status: Vec::new(),
            reasons: Vec::new(),
            holders: Vec::new(),
            setter,
        };
        let Some(literal) = literal else {
            return raw;
        };
        let at = literal.start_byte();
        if let Some(body) = literal.child_by_field_id(FIELD.body) {
            let mut c = body.walk();
            for element in body.named_children(&mut c) {
                if element.kind_name() != "keyed_element" {
                    continue;
                }
                let (Some(key), Some(value)) = (element.named_child(0), element.named_child(1))
                else {
                    continue;
                };
                let value = value.named_child(0).unwrap_or(value);
                self.field(&mut raw, text(key, self.src), value, at);
            }
        }
        // Later assignments to the local's fields, in this function.
        if let Some(name) = literal_local(literal, self.src) {
            // Bindings are in document order: start after the literal.
            let from = self
                .bindings
                .partition_point(|a| a.start_byte() <= literal.end_byte());
            let later = self.bindings[from..]
                .iter()
                .take(MAX_FOLLOWED)
                .filter(|a| a.kind_name() == "assignment_statement");
            for &a in later {
                let (Some(left), Some(right)) = (
                    a.child_by_field_id(FIELD.left)
                        .and_then(|l| l.named_child(0)),
                    a.child_by_field_id(FIELD.right)
                        .and_then(|r| r.named_child(0)),
                ) else {
                    continue;
                };
                let Some((o, f)) = super::syntax::selector(left) else {
                    continue;
                };
                if text(o, self.src) == name {
                    self.field(&mut raw, text(f, self.src), right, a.start_byte());
                }
            }
        }
        raw
    }

    fn field(&self, raw: &mut RawCondition, key: &str, value: Node<'t>, at: usize) {
        match key {
            "Type" => raw.condition_type = self.type_expr(value, at),
            "Status" => {
                if let Some(s) = status_of(text(value, self.src))
                    && !raw.status.contains(&s)
                {
                    raw.status.push(s);
                }
            }
            "Reason" => {
                if let Some(r) = self.constant(value, at)
                    && !raw.reasons.contains(&r)
                {
                    raw.reasons.push(r);
                }
            }
            _ => {}
        }
    }

    /// A string constant (literal or name of a package-level constant), not a local.
    fn constant(&self, node: Node<'t>, at: usize) -> Option<ConstExpr> {
        let expr = const_expr(node, self.src)?;
        let local = |e: &ConstExpr| matches!(e, ConstExpr::Ref { qualifier: None, name } if self.scope.lookup(name, at).is_some());
        match &expr {
            ConstExpr::Concat(parts) if parts.iter().any(local) => None,
            e if local(e) => None,
            _ => Some(expr),
        }
    }

    fn type_expr(&self, node: Node<'t>, at: usize) -> TypeExpr {
        let mut n = node;
        // `string(T)`, `apis.ConditionType(T)`: a conversion of the constant.
        if n.kind_name() == "call_expression"
            && let [inner] = call_arguments(n).as_slice()
            && callee(n).is_some_and(|f| {
                let t = text(f, self.src);
                t == "string" || t.ends_with("ConditionType")
            })
        {
            n = *inner;
        }
        if n.kind_name() == "identifier"
            && matches!(
                self.scope.lookup(text(n, self.src), at),
                Some(Binding::Param(..))
            )
        {
            return TypeExpr::Param;
        }
        match self.constant(n, at) {
            Some(e) => TypeExpr::Const(e),
            None => TypeExpr::Other(text(node, self.src).chars().take(80).collect()),
        }
    }

    /// A Knative condition manager: `….Manage(h)`, directly or through a local.
    fn is_manager(&self, operand: Node<'t>, _at: usize) -> bool {
        let n = self.scope.resolve_value(operand, self.src);
        n.kind_name() == "call_expression"
            && callee(n).is_some_and(|f| {
                f.kind_name() == "selector_expression"
                    && f.child_by_field_id(FIELD.field)
                        .is_some_and(|m| text(m, self.src) == "Manage")
            })
            && call_arguments(n).len() == 1
    }

    /// The type of the object a condition is held by: `x` of `&x.Status.Conditions`,
    /// `x.Status`, `x.GetStatus()`.
    fn holder(&self, node: Node<'t>, at: usize) -> ValueType {
        let mut n = node;
        for _ in 0..8 {
            n = strip_address(n);
            match n.kind_name() {
                "selector_expression"
                    if n.child_by_field_id(FIELD.field)
                        .is_some_and(|f| matches!(text(f, self.src), "Status" | "Conditions")) =>
                {
                    match n.child_by_field_id(FIELD.operand) {
                        Some(o) => n = o,
                        None => break,
                    }
                }
                "call_expression"
                    if call_arguments(n).is_empty()
                        && callee(n).is_some_and(|f| {
                            f.kind_name() == "selector_expression"
                                && f.child_by_field_id(FIELD.field)
                                    .is_some_and(|m| text(m, self.src) == "GetStatus")
                        }) =>
                {
                    match callee(n).and_then(|f| f.child_by_field_id(FIELD.operand)) {
                        Some(o) => n = o,
                        None => break,
                    }
                }
                _ => break,
            }
        }
        self.scope.type_of(n, self.src, at)
    }
}

fn strip_address(node: Node) -> Node {
    let mut n = node;
    for _ in 0..4 {
        match n.kind_name() {
            "unary_expression" | "parenthesized_expression" => {
                match n
                    .child_by_field_id(FIELD.operand)
                    .or_else(|| n.named_child(0))
                {
                    Some(inner) => n = inner,
                    None => break,
                }
            }
            _ => break,
        }
    }
    n
}

/// The local a literal is assigned to (`c := metav1.Condition{…}`), `&` allowed.
fn literal_local(literal: Node, src: &[u8]) -> Option<String> {
    let mut n = literal;
    if let Some(p) = n.parent().filter(|p| p.kind_name() == "unary_expression") {
        n = p;
    }
    super::syntax::assigned_variable(n, src)
}

fn status_of(written: &str) -> Option<&'static str> {
    let w = written.trim_matches('"');
    let last = w.rsplit('.').next().unwrap_or(w);
    match last {
        "ConditionTrue" | "True" => Some("True"),
        "ConditionFalse" | "False" => Some("False"),
        "ConditionUnknown" | "Unknown" => Some("Unknown"),
        _ => None,
    }
}

// ---- per project ---------------------------------------------------------------------

/// The conditions no controller reaches, and the project's condition sets.
#[derive(Debug, Default)]
pub struct Resolved {
    pub package: Vec<StatusCondition>,
    pub sets: Vec<ConditionSet>,
}

/// Resolves every recorded condition: its type and reasons evaluated, the kind holding it
/// established, and the row given to each controller whose `Reconcile` reaches the
/// function that sets it (with the call path), else listed with its function.
pub fn resolve(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
    reach: &[Option<Paths>],
    controllers: &mut [Controller],
    diagnostics: &mut Vec<Diagnostic>,
) -> Resolved {
    let kinds = Kinds { files, values };
    let mut resolved = Resolved::default();
    for input in files {
        let file = &input.facts;
        if file.vendored || file.generated {
            continue;
        }
        let dir = dir_of(&file.path);
        for raw in &file.conditions.sets {
            let Some(row) = kinds.row(file, dir, raw, input.area, diagnostics) else {
                continue;
            };
            let node = values.node_of(dir, &raw.func);
            let mut reached = false;
            for (controller, paths) in controllers.iter_mut().zip(reach) {
                let (Some(paths), Some(node)) = (paths, node) else {
                    continue;
                };
                if paths.contains(graph, node) {
                    let mut r = row.clone();
                    r.via = call_path(graph, paths, node);
                    controller.conditions.push(r);
                    reached = true;
                }
            }
            if !reached {
                let mut r = row;
                let package = values
                    .index
                    .package_of(file)
                    .map(str::to_string)
                    .unwrap_or_else(|| dir.to_string());
                let name = match &raw.func.receiver {
                    Some(t) => format!("{t}.{}", raw.func.name),
                    None => raw.func.name.clone(),
                };
                r.function = format!("{package}.{name}");
                resolved.package.push(r);
            }
        }
        for set in &file.conditions.condition_sets {
            resolved
                .sets
                .push(kinds.set(file, dir, set, input.area, diagnostics));
        }
    }
    for c in controllers.iter_mut() {
        c.conditions.sort();
        c.conditions.dedup();
    }
    resolved.package.sort();
    resolved.package.dedup();
    resolved.sets.sort();
    resolved
}

struct Kinds<'a, 'v, 'b> {
    files: &'a [GoInput],
    values: &'v Values<'a, 'b>,
}

impl<'a> Kinds<'a, '_, '_> {
    fn row(
        &self,
        file: &'a GoFile,
        dir: &str,
        raw: &RawCondition,
        area: Area,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<StatusCondition> {
        let kinds: BTreeSet<(String, String, String)> = raw
            .holders
            .iter()
            .filter_map(|h| self.holder_kind(file, dir, h))
            .collect();
        if kinds.is_empty() && !raw.setter && !raw.typed_only {
            // A condition literal handed to a call with no object of a known kind: not
            // shown to be set on anything.
            return None;
        }
        let condition_type = match &raw.condition_type {
            TypeExpr::Param => return None,
            TypeExpr::Const(expr) => {
                if raw.typed_only && !self.is_condition_type(file, expr) {
                    return None;
                }
                match self.eval_type(file, expr) {
                    Some(t) if !t.is_empty() => t,
                    _ => {
                        diagnostics.push(Diagnostic::new(
                            &file.path,
                            raw.line,
                            format!(
                                "status condition: the type {} is a constant whose value is not known here; no row",
                                expr.written()
                            ),
                        ));
                        return None;
                    }
                }
            }
            TypeExpr::Other(written) => {
                // A helper named SetCondition on something that is no kind says nothing.
                if raw.typed_only && kinds.is_empty() {
                    return None;
                }
                diagnostics.push(Diagnostic::new(
                    &file.path,
                    raw.line,
                    format!(
                        "status condition: the type `{written}` is not a constant (a variable, a map lookup, a field): which condition is set is not known; no row"
                    ),
                ));
                return None;
            }
        };
        let (group, version, kind) = match kinds.len() {
            1 => kinds.into_iter().next()?,
            n => {
                diagnostics.push(Diagnostic::new(
                    &file.path,
                    raw.line,
                    if n == 0 {
                        format!(
                            "status condition {condition_type}: the kind of the object it is set on is not established"
                        )
                    } else {
                        format!(
                            "status condition {condition_type}: handed to a call with objects of {n} kinds; which one holds it is not known"
                        )
                    },
                ));
                (UNRESOLVED.into(), UNRESOLVED.into(), UNRESOLVED.into())
            }
        };
        let mut reasons: Vec<String> = raw
            .reasons
            .iter()
            .filter_map(|r| self.values.index.eval(file, r))
            .filter(|r| !r.is_empty())
            .collect();
        reasons.sort();
        reasons.dedup();
        let mut status: Vec<String> = raw.status.iter().map(|s| s.to_string()).collect();
        status.sort();
        Some(StatusCondition {
            condition_type,
            group,
            version,
            kind,
            status,
            reasons,
            area,
            sources: vec![SourceRef::new(&file.path, raw.line)],
            via: Vec::new(),
            function: String::new(),
        })
    }

    /// A condition type's value: a constant of the repository, or Knative's own.
    fn eval_type(&self, file: &GoFile, expr: &ConstExpr) -> Option<String> {
        if let ConstExpr::Ref {
            qualifier: Some(q),
            name,
        } = expr
            && self.values.index.import_for(file, q).as_deref() == Some(KNATIVE_APIS)
        {
            return KNATIVE_TYPES
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.to_string());
        }
        self.values.index.eval(file, expr)
    }

    /// The constant is declared with a type named `…ConditionType` (in its package).
    fn is_condition_type(&self, file: &GoFile, expr: &ConstExpr) -> bool {
        let ConstExpr::Ref { qualifier, name } = expr else {
            return false;
        };
        if let Some(q) = qualifier
            && self.values.index.import_for(file, q).as_deref() == Some(KNATIVE_APIS)
        {
            return KNATIVE_TYPES.iter().any(|(n, _)| n == name);
        }
        let dir = self.values.index.package_dir(file, qualifier.as_deref());
        let Some(dir) = dir else { return false };
        self.files
            .iter()
            .filter(|f| dir_of(&f.facts.path) == dir)
            .flat_map(|f| &f.facts.conditions.typed_consts)
            .any(|(n, t)| n == name && t.name.ends_with("ConditionType"))
    }

    /// The kind of an object, or of the kind whose `Status` field has this status type.
    fn holder_kind(
        &self,
        file: &'a GoFile,
        dir: &str,
        holder: &ValueType,
    ) -> Option<(String, String, String)> {
        let Some((tfile, t)) = self.values.declared_type(file, dir, holder) else {
            return self.values.value_kind(file, dir, holder);
        };
        if t.collection {
            return None;
        }
        let owner_dir = self.values.index.package_dir(tfile, t.qualifier.as_deref());
        let Some(owner_dir) = owner_dir else {
            // A type of another module: the kind tables say.
            return self.values.value_kind(file, dir, holder);
        };
        // A struct of the repository is a kind only when it is an object (it embeds
        // `ObjectMeta`); a spec or status struct resolves to a kind of its own name.
        let structs: Vec<&super::types::StructDecl> = self
            .files
            .iter()
            .filter(|f| dir_of(&f.facts.path) == owner_dir)
            .flat_map(|f| f.facts.structs.iter().filter(|s| s.name == t.name))
            .collect();
        let object = structs.iter().any(|s| {
            s.fields
                .iter()
                .any(|f| f.embedded && f.ty.name == "ObjectMeta")
        });
        if object || structs.is_empty() {
            return self.values.value_kind(file, dir, holder);
        }
        let mut owners = self
            .files
            .iter()
            .filter(|f| dir_of(&f.facts.path) == owner_dir)
            .flat_map(|f| {
                f.facts
                    .structs
                    .iter()
                    .filter(|s| {
                        s.fields.iter().any(|fl| {
                            fl.name == "Status"
                                && !fl.embedded
                                && fl.ty.name == t.name
                                && !fl.ty.collection
                        })
                    })
                    .map(move |s| (&f.facts, s.name.clone()))
            });
        let (ofile, owner) = owners.next()?;
        if owners.next().is_some() {
            return None;
        }
        self.values.type_kind(ofile, &TypeRef::named(None, &owner))
    }

    fn set(
        &self,
        file: &'a GoFile,
        dir: &str,
        set: &RawConditionSet,
        area: Area,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> ConditionSet {
        let kinds: BTreeSet<(String, String, String)> = self
            .files
            .iter()
            .filter(|f| dir_of(&f.facts.path) == dir)
            .flat_map(|f| {
                f.facts
                    .conditions
                    .set_uses
                    .iter()
                    .filter(|(n, _)| *n == set.name)
                    .map(move |(_, h)| (&f.facts, h))
            })
            .filter_map(|(f, h)| self.holder_kind(f, dir, h))
            .collect();
        let (group, version, kind) = if kinds.len() == 1 {
            kinds.into_iter().next().unwrap_or_default()
        } else {
            diagnostics.push(Diagnostic::new(
                &file.path,
                set.line,
                format!(
                    "condition set {}: {}",
                    set.name,
                    if kinds.is_empty() {
                        "no `Manage(…)` call or `GetConditionSet()` method of its package says which kind it is for".to_string()
                    } else {
                        format!("its package uses it for {} kinds", kinds.len())
                    }
                ),
            ));
            (UNRESOLVED.into(), UNRESOLVED.into(), UNRESOLVED.into())
        };
        let mut dependents = Vec::new();
        for d in &set.dependents {
            match d.as_ref().and_then(|e| self.eval_type(file, e)) {
                Some(v) => dependents.push(v),
                None => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        set.line,
                        format!(
                            "condition set {}: a dependent condition type is not a constant known here; shown as ?",
                            set.name
                        ),
                    ));
                    dependents.push(UNRESOLVED.to_string());
                }
            }
        }
        ConditionSet {
            name: set.name.clone(),
            group,
            version,
            kind,
            happy: if set.batch { "Succeeded" } else { "Ready" }.to_string(),
            dependents,
            area,
            sources: vec![SourceRef::new(&file.path, set.line)],
        }
    }
}

#[cfg(test)]
mod tests;
