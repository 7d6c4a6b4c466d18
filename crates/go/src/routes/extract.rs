//! Per-file route facts: calls that may register routes, and the evidence that tells later
//! what their receivers are.
//!
//! Local variables are followed through one function body in statement order, with the
//! scopes Go gives function literals, so `mux := http.NewServeMux(); mux.HandleFunc(…)`
//! records a chain that starts at the `http` package. Nothing is decided here: whether
//! `http` is `net/http` needs the file's imports and, for in-repo packages, the project.

use crate::syntax::KindName;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::grpc;
use crate::consts::{ConstExpr, const_expr};
use crate::facts::GoFile;
use crate::facts::routes::{Arg, Base, CallSite, Chain, RouteCall, RouteFacts, Step};
use crate::syntax::{FIELD, FuncCtx, for_each_node, line_of, string_literal, text};

/// A named type as written: (package qualifier, name).
type NamedType = (Option<String>, String);

/// A `for _, v := range []string{…}` loop: the variable and the values it takes.
type LoopValues = (String, Vec<ConstExpr>);

/// A chain longer than this is not followed (its value is unknown).
const MAX_STEPS: usize = 64;

/// Arguments are shown up to this many characters.
const MAX_TEXT: usize = 60;

/// Methods whose calls are recorded: they register routes, shape a gorilla/mux route, or
/// create a controller-runtime manager (which serves endpoints of its own). Whether a call
/// really does so is decided from its receiver, never from this name alone.
const RECORDED: &[&str] = &[
    "HandleFunc",
    "Handle",
    "Handler",
    "HandlerFunc",
    "Register",
    "AddMetricsServerExtraHandler",
    "AddHealthzCheck",
    "AddReadyzCheck",
    "NewManager",
    "New",
    "GET",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "HEAD",
    "OPTIONS",
    "CONNECT",
    "TRACE",
    "Any",
    "Match",
    "Add",
    "Get",
    "Post",
    "Put",
    "Patch",
    "Delete",
    "Head",
    "Options",
    "Connect",
    "Trace",
    "Method",
    "MethodFunc",
    "Mount",
    "Methods",
    "Path",
    "PathPrefix",
    "HandlePath",
];

/// Calls whose result may be a router, a manager or a webhook server: a value built by one
/// of them is kept as evidence when it is stored in a field or passed to a function.
const DERIVING: &[&str] = &[
    "NewServeMux",
    "NewRouter",
    "NewMux",
    "New",
    "Default",
    "Group",
    "Subrouter",
    "Route",
    "With",
    "NewManager",
    "GetWebhookServer",
    "NewServer",
    "PathPrefix",
    "Path",
];

/// Other methods whose arguments the evaluation reads (gorilla/mux route matchers, the
/// handler of a go-restful route).
const ARGS_READ: &[&str] = &["Host", "To"];

/// The step go-restful's `ws.Path("/root")` statement adds to the variable `ws`: the call
/// changes the web service itself. The name cannot be a Go method's, so no other router
/// reads it (see `eval`).
pub const ROOT_PATH: &str = "(Path)";

/// True for a method name whose call the evaluation reads: the lists above, and gRPC and
/// grpc-gateway registrations (`RegisterXServer`, `RegisterXHandlerFromEndpoint`, …).
fn is_recorded(method: &str) -> bool {
    RECORDED.contains(&method)
        || grpc::registration(method).is_some()
        || super::helpers::is_helper_name(method)
        || super::helpers::default_mux_handler(method).is_some()
}

/// Methods that hand a router to a function literal: chi's `Route(p, func(r chi.Router))`
/// and `Group(func(r chi.Router))`.
const CLOSURE_ROUTERS: &[&str] = &["Route", "Group"];

struct Binding {
    chain: Chain,
    /// The byte offset from which the binding is visible.
    pos: usize,
    /// The function literal (node id) or body it belongs to.
    scope: usize,
    /// The string expression assigned, for a local `p := "/x"`.
    expr: Option<ConstExpr>,
    /// The elements of a `[]string{…}` assigned.
    list: Vec<ConstExpr>,
    disables_metrics: bool,
}

/// Local variables of one function body, with the function literals open at the node being
/// processed (nodes are processed in document order).
struct Extractor<'s> {
    src: &'s [u8],
    body_scope: usize,
    /// Open function literals: (node id, end byte), innermost last.
    open: Vec<(usize, usize)>,
    /// Open `for` statements: (end byte, range variable and literal values), innermost
    /// last. Kept in document order because tree-sitter finds a node's parent by walking
    /// down from the root, which is too slow to ask for every call of a deep file.
    loops: Vec<(usize, Option<LoopValues>)>,
    bindings: HashMap<String, Vec<Binding>>,
}

impl<'s> Extractor<'s> {
    fn new(src: &'s [u8], body_scope: usize) -> Self {
        Extractor {
            src,
            body_scope,
            open: Vec::new(),
            loops: Vec::new(),
            bindings: HashMap::new(),
        }
    }

    /// Closes the function literals and loops that end before `pos`.
    fn advance(&mut self, pos: usize) {
        while self.open.last().is_some_and(|(_, end)| *end <= pos) {
            self.open.pop();
        }
        while self.loops.last().is_some_and(|(end, _)| *end <= pos) {
            self.loops.pop();
        }
    }

    fn scope(&self) -> usize {
        self.open
            .last()
            .map(|(id, _)| *id)
            .unwrap_or(self.body_scope)
    }

    fn lookup(&self, name: &str, pos: usize) -> Option<&Binding> {
        let list = self.bindings.get(name)?;
        let scopes = self
            .open
            .iter()
            .rev()
            .map(|(id, _)| *id)
            .chain(std::iter::once(self.body_scope));
        for scope in scopes {
            let found = list
                .iter()
                .filter(|b| b.scope == scope && b.pos <= pos)
                .max_by_key(|b| b.pos);
            if found.is_some() {
                return found;
            }
        }
        None
    }

    fn bind(&mut self, name: &str, scope: usize, pos: usize, value: Option<Node>, chain: Chain) {
        if name == "_" || name.is_empty() {
            return;
        }
        let (expr, list, disables_metrics) = match value {
            Some(v) => (
                self.string_expr(v),
                self.list_of(v),
                is_options_literal(v, self.src) && self.disables_metrics(v),
            ),
            None => (None, Vec::new(), false),
        };
        self.bindings
            .entry(name.to_string())
            .or_default()
            .push(Binding {
                chain,
                pos,
                scope,
                expr,
                list,
                disables_metrics,
            });
    }

    /// What an expression's value comes from.
    fn chain_of(&self, node: Node) -> Chain {
        let node = unwrap(node, self.src);
        match node.kind_name() {
            "call_expression" => self.flatten(node).0,
            _ => self.leaf(node),
        }
    }

    /// A chain's start that is not a call: a name, a selector, a composite literal.
    fn leaf(&self, node: Node) -> Chain {
        let base = match node.kind_name() {
            "identifier" => {
                let name = text(node, self.src);
                if let Some(b) = self.lookup(name, node.start_byte()) {
                    return b.chain.clone();
                }
                Base::Name(name.to_string())
            }
            "selector_expression" => {
                let Some(field) = node.child_by_field_id(FIELD.field) else {
                    return opaque();
                };
                let operand = node.child_by_field_id(FIELD.operand).and_then(|o| {
                    let name = text(o, self.src);
                    (o.kind_name() == "identifier" && self.lookup(name, o.start_byte()).is_none())
                        .then(|| name.to_string())
                });
                Base::Selector {
                    operand,
                    field: text(field, self.src).to_string(),
                }
            }
            "composite_literal" => match node
                .child_by_field_id(FIELD.ty)
                .and_then(|t| named_type(t, self.src))
            {
                Some((qualifier, name)) => Base::Type { qualifier, name },
                None => Base::Opaque,
            },
            _ => Base::Opaque,
        };
        Chain {
            base,
            steps: Vec::new(),
        }
    }

    /// Splits `root.A(x).B(y)` into the chain of `root` followed by the steps `A`, `B`; the
    /// second value is how many steps came from `root`'s variable.
    fn flatten(&self, call: Node) -> (Chain, usize) {
        let mut steps = Vec::new();
        let mut node = call;
        let start = loop {
            match node.kind_name() {
                "call_expression" => {
                    let Some(function) = node.child_by_field_id(FIELD.function) else {
                        break opaque();
                    };
                    match function.kind_name() {
                        "selector_expression" => {
                            let (Some(field), Some(operand)) = (
                                function.child_by_field_id(FIELD.field),
                                function.child_by_field_id(FIELD.operand),
                            ) else {
                                break opaque();
                            };
                            if steps.len() >= MAX_STEPS {
                                break opaque();
                            }
                            let method = text(field, self.src);
                            // Arguments matter only to the calls the evaluation understands.
                            let args = if is_recorded(method)
                                || DERIVING.contains(&method)
                                || ARGS_READ.contains(&method)
                            {
                                self.args_of(node, method)
                            } else {
                                Vec::new()
                            };
                            steps.push(Step {
                                method: method.to_string(),
                                args,
                                line: line_of(field),
                            });
                            node = operand;
                        }
                        "identifier" if text(function, self.src) == "new" => {
                            break node
                                .child_by_field_id(FIELD.arguments)
                                .and_then(|a| a.named_child(0))
                                .and_then(|t| named_type(t, self.src))
                                .map(|(qualifier, name)| Chain {
                                    base: Base::Type { qualifier, name },
                                    steps: Vec::new(),
                                })
                                .unwrap_or_else(opaque);
                        }
                        "identifier" => {
                            break Chain {
                                base: Base::Call(text(function, self.src).to_string()),
                                steps: Vec::new(),
                            };
                        }
                        _ => break opaque(),
                    }
                }
                "parenthesized_expression" | "unary_expression" => {
                    let inner = unwrap(node, self.src);
                    if inner.id() == node.id() {
                        break opaque();
                    }
                    node = inner;
                }
                _ => break self.leaf(node),
            }
        };
        steps.reverse();
        let own_from = start.steps.len();
        if own_from + steps.len() > MAX_STEPS {
            return (opaque(), 0);
        }
        let mut all = start.steps;
        all.extend(steps);
        (
            Chain {
                base: start.base,
                steps: all,
            },
            own_from,
        )
    }

    fn args_of(&self, call: Node, method: &str) -> Vec<Arg> {
        let Some(args) = call.child_by_field_id(FIELD.arguments) else {
            return Vec::new();
        };
        // Only a manager's options can turn its metrics server off.
        let creates_manager = matches!(method, "NewManager" | "New");
        // A registration's server (or gateway mux), and the mux or manager handed to a
        // library helper, is evaluated like a receiver.
        let registers =
            grpc::registration(method).is_some() || super::helpers::is_helper_name(method);
        let mut c = args.walk();
        args.named_children(&mut c)
            .filter(|n| n.kind_name() != "comment")
            .enumerate()
            .map(|(i, n)| Arg {
                expr: self.string_expr(n),
                list: self.list_of(n),
                text: short_text(n, self.src),
                disables_metrics: creates_manager && self.disables_metrics(n),
                chain: (registers && i < 2).then(|| Box::new(self.chain_of(n))),
            })
            .collect()
    }

    /// The string expression of `node`, with local variables holding string expressions
    /// replaced by what they hold (`p := "/api"; mux.Handle(p+"/x", h)`). A part that is
    /// neither a literal nor a name (`"/api/" + version()`) is kept as a reference named by
    /// its own text, which no constant can be, so it stays unresolved and is shown as
    /// written. None for an expression that is not a string concatenation at all.
    fn string_expr(&self, node: Node) -> Option<ConstExpr> {
        let parts = match const_expr(node, self.src) {
            Some(ConstExpr::Concat(parts)) => parts,
            Some(other) => vec![other],
            None => self.partial_parts(node)?,
        };
        let mut out = Vec::with_capacity(parts.len());
        for part in parts {
            let local = match &part {
                ConstExpr::Ref {
                    qualifier: None,
                    name,
                } => self.lookup(name, node.start_byte()).map(|b| b.expr.clone()),
                _ => None,
            };
            match local {
                // A local of another kind (a parameter, a call result): its value is unknown.
                Some(None) => out.push(part),
                Some(Some(ConstExpr::Concat(inner))) => out.extend(inner),
                Some(Some(value)) => out.push(value),
                None => out.push(part),
            }
        }
        Some(if out.len() == 1 {
            out.pop()?
        } else {
            ConstExpr::Concat(out)
        })
    }

    /// The parts of a `+` concatenation some of whose operands are not constants; None when
    /// `node` is not such a concatenation with at least one literal or name in it.
    fn partial_parts(&self, node: Node) -> Option<Vec<ConstExpr>> {
        let node = unwrap(node, self.src);
        if node.kind_name() != "binary_expression" {
            return None;
        }
        let mut parts = Vec::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let is_concat = n.kind_name() == "binary_expression"
                && n.child_by_field_id(FIELD.operator)
                    .is_some_and(|o| text(o, self.src) == "+");
            if is_concat {
                stack.push(n.child_by_field_id(FIELD.right)?);
                stack.push(n.child_by_field_id(FIELD.left)?);
                continue;
            }
            match const_expr(n, self.src) {
                Some(ConstExpr::Concat(inner)) => parts.extend(inner),
                Some(part) => parts.push(part),
                None => parts.push(ConstExpr::Ref {
                    qualifier: None,
                    name: short_text(n, self.src),
                }),
            }
        }
        parts
            .iter()
            .any(|p| !matches!(p, ConstExpr::Ref { name, .. } if !is_identifier(name)))
            .then_some(parts)
    }

    /// The elements of a `[]string{…}` literal, or of the local variable holding one.
    fn list_of(&self, node: Node) -> Vec<ConstExpr> {
        let node = unwrap(node, self.src);
        match node.kind_name() {
            "identifier" => self
                .lookup(text(node, self.src), node.start_byte())
                .map(|b| b.list.clone())
                .unwrap_or_default(),
            "composite_literal" => {
                let is_slice = node
                    .child_by_field_id(FIELD.ty)
                    .is_some_and(|t| matches!(t.kind_name(), "slice_type" | "array_type"));
                let Some(body) = node.child_by_field_id(FIELD.body).filter(|_| is_slice) else {
                    return Vec::new();
                };
                let mut c = body.walk();
                let elements: Vec<Node> = body.named_children(&mut c).collect();
                let mut out = Vec::with_capacity(elements.len());
                for e in elements {
                    if e.kind_name() == "comment" {
                        continue;
                    }
                    let value = if e.kind_name() == "literal_element" {
                        e.named_child(0)
                    } else {
                        None
                    };
                    match value.and_then(|v| self.string_expr(v)) {
                        Some(v) => out.push(v),
                        None => return Vec::new(),
                    }
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// True when `node` is, or names a local holding, a composite literal that sets
    /// `BindAddress: "0"`.
    fn disables_metrics(&self, node: Node) -> bool {
        let node = unwrap(node, self.src);
        match node.kind_name() {
            "identifier" => self
                .lookup(text(node, self.src), node.start_byte())
                .is_some_and(|b| b.disables_metrics),
            "composite_literal" => {
                let mut found = false;
                for_each_node(node, |n| {
                    if n.kind_name() != "keyed_element" || found {
                        return;
                    }
                    let key = n.child_by_field_id(FIELD.key).map(|k| text(k, self.src));
                    let value = n
                        .child_by_field_id(FIELD.value)
                        .and_then(|v| v.named_child(0))
                        .and_then(|v| string_literal(v, self.src));
                    found = key == Some("BindAddress") && value.as_deref() == Some("0");
                });
                found
            }
            _ => false,
        }
    }

    /// `x := v`, `x, err := f()`, `x = v`, `s.f = v`.
    fn assignment(&mut self, node: Node, facts: &mut RouteFacts) {
        if node.kind_name() == "assignment_statement"
            && node
                .child_by_field_id(FIELD.operator)
                .is_some_and(|o| text(o, self.src) != "=")
        {
            return;
        }
        let (Some(left), Some(right)) = (
            node.child_by_field_id(FIELD.left),
            node.child_by_field_id(FIELD.right),
        ) else {
            return;
        };
        let lefts = list_items(left);
        let rights = list_items(right);
        let scope = self.scope();
        let pos = node.end_byte();
        for (i, l) in lefts.iter().enumerate() {
            let value = if lefts.len() == rights.len() {
                rights.get(i).copied()
            } else if i == 0 && rights.len() == 1 {
                rights.first().copied()
            } else {
                None
            };
            match l.kind_name() {
                "identifier" => {
                    let chain = value.map(|v| self.chain_of(v)).unwrap_or_else(opaque);
                    let name = text(*l, self.src).to_string();
                    self.bind(&name, scope, pos, value, chain);
                }
                "selector_expression" => {
                    if let (Some(field), Some(chain)) = (
                        l.child_by_field_id(FIELD.field),
                        value.and_then(|v| self.evidence_of(v)),
                    ) {
                        facts
                            .fields
                            .push((text(field, self.src).to_string(), chain));
                    }
                }
                _ => {}
            }
        }
    }

    /// `var x = v`, `var x T` inside a function.
    fn var_spec(&mut self, node: Node) {
        let names = spec_names(node, self.src);
        let values = node
            .child_by_field_id(FIELD.value)
            .map(list_items)
            .unwrap_or_default();
        let declared = node
            .child_by_field_id(FIELD.ty)
            .and_then(|t| named_type(t, self.src));
        let scope = self.scope();
        let pos = node.end_byte();
        for (i, name) in names.iter().enumerate() {
            let value = if values.len() == names.len() {
                values.get(i).copied()
            } else {
                None
            };
            let chain = match (value, &declared) {
                (Some(v), _) => self.chain_of(v),
                (None, Some((qualifier, ty))) => Chain {
                    base: Base::Type {
                        qualifier: qualifier.clone(),
                        name: ty.clone(),
                    },
                    steps: Vec::new(),
                },
                (None, None) => opaque(),
            };
            self.bind(name, scope, pos, value, chain);
        }
    }

    /// `Field: v` in a composite literal: evidence about the field named `Field`.
    fn keyed_element(&self, node: Node, facts: &mut RouteFacts) {
        let key = node
            .child_by_field_id(FIELD.key)
            .and_then(|k| k.named_child(0))
            .filter(|k| matches!(k.kind_name(), "identifier" | "field_identifier"));
        let value = node
            .child_by_field_id(FIELD.value)
            .and_then(|v| v.named_child(0));
        if let (Some(key), Some(chain)) = (key, value.and_then(|v| self.evidence_of(v))) {
            facts.fields.push((text(key, self.src).to_string(), chain));
        }
    }

    /// The chain of a value stored in a field, when it is evidence. Checked cheaply first:
    /// most values stored in fields (names, literals, unrelated calls) cannot be routers.
    fn evidence_of(&self, node: Node) -> Option<Chain> {
        let inner = unwrap(node, self.src);
        let chain = match inner.kind_name() {
            "identifier" => self
                .lookup(text(inner, self.src), inner.start_byte())?
                .chain
                .clone(),
            "composite_literal" => self.leaf(inner),
            "call_expression" => {
                let plain_function = inner
                    .child_by_field_id(FIELD.function)
                    .is_some_and(|f| f.kind_name() == "identifier");
                let names = method_names(inner, self.src);
                if !plain_function && !names.iter().any(|m| DERIVING.contains(m)) {
                    return None;
                }
                self.chain_of(inner)
            }
            _ => return None,
        };
        is_evidence(&chain).then_some(chain)
    }

    /// Binds a function literal's parameters declared with a package-qualified type.
    fn func_literal(&mut self, node: Node) {
        let scope = node.id();
        self.open.push((scope, node.end_byte()));
        let Some(params) = node.child_by_field_id(FIELD.parameters) else {
            return;
        };
        for (_, name, ty) in parameters(params, self.src) {
            // A router handed in by chi's Route/Group was bound when that call was seen.
            let bound = self
                .bindings
                .get(&name)
                .is_some_and(|list| list.iter().any(|b| b.scope == scope));
            if bound {
                continue;
            }
            let chain = ty
                .and_then(|t| named_type(t, self.src))
                .map(|(qualifier, name)| Chain {
                    base: Base::Type { qualifier, name },
                    steps: Vec::new(),
                })
                .unwrap_or_else(opaque);
            self.bind(&name, scope, node.start_byte(), None, chain);
        }
    }

    fn call(&mut self, call: Node, facts: &mut RouteFacts) {
        self.call_site(call, facts);
        let names = method_names(call, self.src);
        let recorded = names.iter().any(|m| is_recorded(m));
        let hands_router = names.first().is_some_and(|m| CLOSURE_ROUTERS.contains(m));
        if !recorded && !hands_router {
            return;
        }
        let (chain, own_from) = self.flatten(call);
        let own = chain.steps.get(own_from..).unwrap_or_default();
        if own.is_empty() {
            return;
        }
        if own
            .last()
            .is_some_and(|s| CLOSURE_ROUTERS.contains(&s.method.as_str()))
        {
            self.bind_closure_router(call, &chain);
        }
        if own.iter().any(|s| is_recorded(&s.method)) {
            let loops = self.loops();
            facts.calls.push(RouteCall {
                chain,
                own_from,
                loops,
            });
        }
    }

    /// `r.Route("/x", func(r chi.Router) {…})`: the literal's parameter is the sub-router.
    fn bind_closure_router(&mut self, call: Node, chain: &Chain) {
        let Some(args) = call.child_by_field_id(FIELD.arguments) else {
            return;
        };
        let mut c = args.walk();
        let literals: Vec<Node> = args
            .named_children(&mut c)
            .filter(|n| n.kind_name() == "func_literal")
            .collect();
        for literal in literals {
            let Some(params) = literal.child_by_field_id(FIELD.parameters) else {
                continue;
            };
            if let Some((_, name, _)) = parameters(params, self.src).into_iter().next() {
                self.bind(
                    &name,
                    literal.id(),
                    literal.start_byte(),
                    None,
                    chain.clone(),
                );
            }
        }
    }

    /// Records `f(x)`, `pkg.F(x)`, `s.m(x)` with the arguments that may be routers, so a
    /// parameter can later be resolved from what its callers pass.
    fn call_site(&self, call: Node, facts: &mut RouteFacts) {
        let Some(function) = call.child_by_field_id(FIELD.function) else {
            return;
        };
        let (qualifier, func) = match function.kind_name() {
            "identifier" => (None, text(function, self.src)),
            "selector_expression" => {
                let (Some(operand), Some(field)) = (
                    function.child_by_field_id(FIELD.operand),
                    function.child_by_field_id(FIELD.field),
                ) else {
                    return;
                };
                if operand.kind_name() != "identifier" {
                    return;
                }
                (
                    Some(text(operand, self.src).to_string()),
                    text(field, self.src),
                )
            }
            _ => return,
        };
        let Some(args) = call.child_by_field_id(FIELD.arguments) else {
            return;
        };
        let mut c = args.walk();
        let mut kept = Vec::new();
        for (i, arg) in args
            .named_children(&mut c)
            .filter(|n| n.kind_name() != "comment")
            .enumerate()
        {
            let inner = unwrap(arg, self.src);
            let chain = match inner.kind_name() {
                "identifier" => match self.lookup(text(inner, self.src), inner.start_byte()) {
                    Some(b) if is_evidence(&b.chain) => b.chain.clone(),
                    Some(_) => continue,
                    None => self.leaf(inner),
                },
                "selector_expression" => self.leaf(inner),
                "call_expression" => {
                    // Only a call that builds a router, or a function's result, can be one.
                    let plain_function = inner
                        .child_by_field_id(FIELD.function)
                        .is_some_and(|f| f.kind_name() == "identifier");
                    let names = method_names(inner, self.src);
                    if !plain_function && !names.iter().any(|m| DERIVING.contains(m)) {
                        continue;
                    }
                    self.chain_of(inner)
                }
                _ => continue,
            };
            let forwards = chain.steps.is_empty()
                && matches!(chain.base, Base::Name(_) | Base::Selector { .. });
            if is_evidence(&chain) || forwards {
                kept.push((i, chain));
            }
        }
        if !kept.is_empty() {
            facts.call_sites.push(CallSite {
                qualifier,
                func: func.to_string(),
                args: kept,
            });
        }
    }

    /// `ws.Path("/root")…` as a statement, on a local variable: go-restful's `Path` sets the
    /// web service's root path, so the variable's chain gets a `ROOT_PATH` step from here on
    /// (any other router ignores it; gorilla's `Path` builds a new route and changes
    /// nothing).
    fn expression_statement(&mut self, node: Node) {
        let Some(call) = node
            .named_child(0)
            .filter(|c| c.kind_name() == "call_expression")
        else {
            return;
        };
        // The innermost call of the chain: `ws.Path(p)` in `ws.Path(p).Doc(d)`.
        let mut inner = call;
        let mut steps = 0;
        while let Some(operand) = inner
            .child_by_field_id(FIELD.function)
            .filter(|f| f.kind_name() == "selector_expression")
            .and_then(|f| f.child_by_field_id(FIELD.operand))
            .map(|o| unwrap(o, self.src))
            .filter(|o| o.kind_name() == "call_expression")
        {
            inner = operand;
            steps += 1;
            if steps > MAX_STEPS {
                return;
            }
        }
        let Some(function) = inner
            .child_by_field_id(FIELD.function)
            .filter(|f| f.kind_name() == "selector_expression")
        else {
            return;
        };
        let (Some(field), Some(operand)) = (
            function.child_by_field_id(FIELD.field),
            function.child_by_field_id(FIELD.operand),
        ) else {
            return;
        };
        if text(field, self.src) != "Path" || operand.kind_name() != "identifier" {
            return;
        }
        let name = text(operand, self.src).to_string();
        let Some(binding) = self.lookup(&name, operand.start_byte()) else {
            return;
        };
        let (scope, mut chain) = (binding.scope, binding.chain.clone());
        if chain.steps.len() >= MAX_STEPS {
            return;
        }
        chain.steps.push(Step {
            method: ROOT_PATH.to_string(),
            args: self.args_of(inner, "Path"),
            line: line_of(field),
        });
        self.bind(&name, scope, node.end_byte(), None, chain);
    }

    /// Opens a `for` statement: its range variable and values when it ranges over a literal
    /// slice, so calls in its body can be expanded once per value.
    fn for_statement(&mut self, node: Node) {
        let mut c = node.walk();
        let clause = node
            .named_children(&mut c)
            .find(|n| n.kind_name() == "range_clause");
        let values = clause.and_then(|cl| self.range_values(cl));
        self.loops.push((node.end_byte(), values));
    }

    /// The `for _, v := range []string{…}` loops open at the node being processed,
    /// innermost first.
    fn loops(&self) -> Vec<LoopValues> {
        self.loops
            .iter()
            .rev()
            .filter_map(|(_, l)| l.clone())
            .collect()
    }

    fn range_values(&self, clause: Node) -> Option<LoopValues> {
        let left = clause.child_by_field_id(FIELD.left)?;
        let right = clause.child_by_field_id(FIELD.right)?;
        // With one variable a range over a slice yields indexes, not elements.
        let value = list_items(left).get(1).copied()?;
        if value.kind_name() != "identifier" {
            return None;
        }
        let values = self.list_of(right);
        (!values.is_empty()).then(|| (text(value, self.src).to_string(), values))
    }
}

/// Records the route facts of one function or method body.
pub fn extract(ctx: &FuncCtx, src: &[u8], file: &mut GoFile) {
    let body = ctx.body;
    let decl = ctx.decl;
    if let Some(decl) = decl
        && decl.kind_name() == "function_declaration"
        && let Some(chain) = decl
            .child_by_field_id(FIELD.result)
            .and_then(|r| first_result_type(r, src))
    {
        file.routes.funcs.push((ctx.name.clone(), chain));
    }
    // A function literal walked as a body (a package-level initializer's) binds its
    // parameters itself (`func_literal`); they are no function's parameters by index.
    let params: Vec<(usize, String, Option<NamedType>)> = decl
        .filter(|d| matches!(d.kind_name(), "function_declaration" | "method_declaration"))
        .and_then(|d| d.child_by_field_id(FIELD.parameters))
        .map(|p| {
            parameters(p, src)
                .into_iter()
                .map(|(index, name, ty)| (index, name, ty.and_then(|t| named_type(t, src))))
                .collect()
        })
        .unwrap_or_default();
    let takes_router = params.iter().any(|(_, _, declared)| {
        declared
            .as_ref()
            .is_some_and(|(q, n)| q.is_some() && ROUTER_TYPES.contains(&n.as_str()))
    });
    // Most functions neither take a router nor name anything that registers routes.
    if !takes_router && !mentions_a_trigger(src.get(body.byte_range()).unwrap_or_default()) {
        return;
    }
    let mut ex = Extractor::new(src, body.id());
    if decl.is_some()
        && let Some(receiver) = &ctx.receiver_name
    {
        ex.bind(receiver, body.id(), 0, None, opaque());
    }
    for (index, name, declared) in params {
        let chain = match declared {
            Some((Some(qualifier), type_name)) => Chain {
                base: Base::Param {
                    func: ctx.name.clone(),
                    index,
                    qualifier: Some(qualifier),
                    name: type_name,
                },
                steps: Vec::new(),
            },
            _ => opaque(),
        };
        ex.bind(&name, body.id(), 0, None, chain);
    }
    let mut nodes = Vec::new();
    // Calls whose result is the receiver of another call (`r.HandleFunc(…)` in
    // `r.HandleFunc(…).Methods(…)`) are part of the outer call's chain. They are found from
    // the outer call, which comes first in document order, rather than by asking each call
    // for its parent.
    let mut inner_links = HashSet::new();
    ctx.each_node(|n| {
        let kind = n.kind_name();
        if kind == "call_expression" {
            if let Some(operand) = n
                .child_by_field_id(FIELD.function)
                .filter(|f| f.kind_name() == "selector_expression")
                .and_then(|f| f.child_by_field_id(FIELD.operand))
                .filter(|o| o.kind_name() == "call_expression")
            {
                inner_links.insert(operand.id());
            }
            if inner_links.contains(&n.id()) {
                return;
            }
        }
        if matches!(
            kind,
            "func_literal"
                | "short_var_declaration"
                | "assignment_statement"
                | "var_spec"
                | "keyed_element"
                | "call_expression"
                | "for_statement"
                | "expression_statement"
        ) {
            nodes.push(n);
        }
    });
    let facts = &mut file.routes;
    for node in nodes {
        ex.advance(node.start_byte());
        match node.kind_name() {
            "func_literal" => ex.func_literal(node),
            "short_var_declaration" | "assignment_statement" => ex.assignment(node, facts),
            "var_spec" => ex.var_spec(node),
            "keyed_element" => ex.keyed_element(node, facts),
            "for_statement" => ex.for_statement(node),
            "expression_statement" => ex.expression_statement(node),
            _ => ex.call(node, facts),
        }
    }
}

/// Records package-level variables and struct fields of one top-level declaration.
pub fn extract_top_level(decl: Node, nodes: &[Node], src: &[u8], file: &mut GoFile) {
    let ex = Extractor::new(src, decl.id());
    let facts = &mut file.routes;
    let mut specs = Vec::new();
    // Function literals in initializers are walked as function bodies (`extract`, called
    // for each from the file walk); here only what is outside them counts, since their
    // local variables are not package variables. Nodes come in document order, so a
    // literal is seen before what it contains.
    // The end of the outermost literal seen last.
    let mut literal_end = 0;
    for &n in nodes {
        let outside = n.start_byte() >= literal_end;
        match n.kind_name() {
            "func_literal" if outside => literal_end = n.end_byte(),
            // A struct type declared anywhere still declares its fields.
            "field_declaration" => specs.push(n),
            "var_spec" | "keyed_element" if outside => specs.push(n),
            _ => {}
        }
    }
    for node in specs {
        match node.kind_name() {
            "var_spec" => {
                let names = spec_names(node, src);
                let names_len = names.len();
                let values = node
                    .child_by_field_id(FIELD.value)
                    .map(list_items)
                    .unwrap_or_default();
                let declared = node
                    .child_by_field_id(FIELD.ty)
                    .and_then(|t| named_type(t, src));
                for (i, name) in names.into_iter().enumerate() {
                    let value = values.get(i).filter(|_| values.len() == names_len);
                    let chain = match (value, &declared) {
                        (Some(v), _) => ex.chain_of(*v),
                        (None, Some((qualifier, ty))) => Chain {
                            base: Base::Type {
                                qualifier: qualifier.clone(),
                                name: ty.clone(),
                            },
                            steps: Vec::new(),
                        },
                        (None, None) => opaque(),
                    };
                    if is_evidence(&chain) {
                        facts.vars.push((name, chain));
                    }
                }
            }
            "field_declaration" => {
                let Some((qualifier, ty)) = node
                    .child_by_field_id(FIELD.ty)
                    .and_then(|t| named_type(t, src))
                else {
                    continue;
                };
                if qualifier.is_none() {
                    continue;
                }
                let mut names: Vec<String> = crate::syntax::field_children(node, FIELD.name)
                    .into_iter()
                    .filter(|n| n.kind_name() == "field_identifier")
                    .map(|n| text(n, src).to_string())
                    .collect();
                if names.is_empty() {
                    // An embedded field is named after its type.
                    names.push(ty.clone());
                }
                for name in names {
                    facts.fields.push((
                        name,
                        Chain {
                            base: Base::Type {
                                qualifier: qualifier.clone(),
                                name: ty.clone(),
                            },
                            steps: Vec::new(),
                        },
                    ));
                }
            }
            "keyed_element" => ex.keyed_element(node, facts),
            _ => {}
        }
    }
}

/// The type names a router, manager or webhook server is declared with. A function taking
/// one is walked even when its body calls nothing that registers a route, because it may
/// pass the router on or store it in a field.
const ROUTER_TYPES: &[&str] = &[
    "ServeMux",
    "Router",
    "Engine",
    "RouterGroup",
    "IRouter",
    "IRoutes",
    "Echo",
    "Group",
    "Mux",
    "Manager",
    "Server",
];

/// True when the text calls something named like a method this analysis reads (`Get(`,
/// `HandleFunc(`, `NewServeMux(`, …). A function body without one registers no route and
/// builds no router, so it is not walked: walking every node of every body is most of
/// the cost of this analysis, and generated code (deep-copy functions, OpenAPI schemas) is
/// large and never matches. What such a body could still hold, a router passed on through
/// a plain variable, only costs a prefix, which is then reported as unknown.
fn mentions_a_trigger(text: &[u8]) -> bool {
    let is_name_byte = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    for (open, _) in text.iter().enumerate().filter(|(_, b)| **b == b'(') {
        let before = text.get(..open).unwrap_or_default();
        let start = before
            .iter()
            .rposition(|b| !is_name_byte(b))
            .map_or(0, |p| p + 1);
        if let Some(Ok(name)) = before.get(start..).map(std::str::from_utf8)
            && (is_recorded(name)
                || DERIVING.contains(&name)
                || CLOSURE_ROUTERS.contains(&name)
                || ARGS_READ.contains(&name))
        {
            return true;
        }
    }
    false
}

/// The method names of a call chain, outermost first: `r.Group("/a").GET(…)` → GET, Group.
fn method_names<'a>(call: Node, src: &'a [u8]) -> Vec<&'a str> {
    let mut names = Vec::new();
    let mut node = call;
    while node.kind_name() == "call_expression" && names.len() <= MAX_STEPS {
        let Some(function) = node
            .child_by_field_id(FIELD.function)
            .filter(|f| f.kind_name() == "selector_expression")
        else {
            break;
        };
        let (Some(field), Some(operand)) = (
            function.child_by_field_id(FIELD.field),
            function.child_by_field_id(FIELD.operand),
        ) else {
            break;
        };
        names.push(text(field, src));
        node = unwrap(operand, src);
    }
    names
}

/// True for a composite literal of a type named `Options` (`ctrl.Options{…}`), the only
/// literals whose `BindAddress` matters here.
fn is_options_literal(node: Node, src: &[u8]) -> bool {
    let node = unwrap(node, src);
    node.kind_name() == "composite_literal"
        && node
            .child_by_field_id(FIELD.ty)
            .is_some_and(|t| text(t, src).ends_with("Options"))
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

fn opaque() -> Chain {
    Chain {
        base: Base::Opaque,
        steps: Vec::new(),
    }
}

/// True when a chain says something about what a value is: a package-qualified type, a
/// function result, or a call that builds a router, manager or webhook server.
fn is_evidence(chain: &Chain) -> bool {
    match &chain.base {
        Base::Opaque => false,
        Base::Type { qualifier, .. } | Base::Param { qualifier, .. } => {
            qualifier.is_some() || !chain.steps.is_empty()
        }
        Base::Call(_) => true,
        Base::Name(_) | Base::Selector { .. } => chain
            .steps
            .iter()
            .any(|s| DERIVING.contains(&s.method.as_str())),
    }
}

/// Strips parentheses, `&` and `*` around an expression.
fn unwrap<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut n = node;
    // Bounded: each pass removes one wrapper, and a node has finitely many.
    loop {
        let next = match n.kind_name() {
            "parenthesized_expression" => n.named_child(0),
            "unary_expression"
                if n.child_by_field_id(FIELD.operator)
                    .is_some_and(|o| matches!(text(o, src), "&" | "*")) =>
            {
                n.child_by_field_id(FIELD.operand)
            }
            _ => None,
        };
        match next {
            Some(inner) => n = inner,
            None => return n,
        }
    }
}

/// `(qualifier, name)` of a named type: `*http.ServeMux` → (`http`, `ServeMux`).
fn named_type(ty: Node, src: &[u8]) -> Option<(Option<String>, String)> {
    let mut t = ty;
    loop {
        match t.kind_name() {
            "pointer_type" | "parenthesized_type" => t = t.named_child(0)?,
            "generic_type" => t = t.child_by_field_id(FIELD.ty)?,
            "qualified_type" => {
                return Some((
                    Some(text(t.child_by_field_id(FIELD.package)?, src).to_string()),
                    text(t.child_by_field_id(FIELD.name)?, src).to_string(),
                ));
            }
            "type_identifier" => return Some((None, text(t, src).to_string())),
            _ => return None,
        }
    }
}

/// The first result type of a function, when it is a named type.
fn first_result_type(result: Node, src: &[u8]) -> Option<Chain> {
    let ty = if result.kind_name() == "parameter_list" {
        let mut c = result.walk();
        let first = result
            .named_children(&mut c)
            .find(|n| n.kind_name() == "parameter_declaration")?;
        first.child_by_field_id(FIELD.ty)?
    } else {
        result
    };
    let (qualifier, name) = named_type(ty, src)?;
    qualifier.as_ref()?;
    Some(Chain {
        base: Base::Type { qualifier, name },
        steps: Vec::new(),
    })
}

/// `(index, name, type)` of each named parameter in a parameter list.
fn parameters<'t>(params: Node<'t>, src: &[u8]) -> Vec<(usize, String, Option<Node<'t>>)> {
    let mut out = Vec::new();
    let mut index = 0;
    let mut c = params.walk();
    for decl in params.named_children(&mut c) {
        if !matches!(
            decl.kind_name(),
            "parameter_declaration" | "variadic_parameter_declaration"
        ) {
            continue;
        }
        let ty = decl.child_by_field_id(FIELD.ty);
        let names: Vec<String> = crate::syntax::field_children(decl, FIELD.name)
            .into_iter()
            .filter(|n| n.kind_name() == "identifier")
            .map(|n| text(n, src).to_string())
            .collect();
        if names.is_empty() {
            index += 1;
            continue;
        }
        for name in names {
            out.push((index, name, ty));
            index += 1;
        }
    }
    out
}

fn spec_names(spec: Node, src: &[u8]) -> Vec<String> {
    crate::syntax::field_children(spec, FIELD.name)
        .into_iter()
        .filter(|n| n.kind_name() == "identifier")
        .map(|n| text(n, src).to_string())
        .collect()
}

/// The expressions of an `expression_list`, or the node itself.
fn list_items(node: Node) -> Vec<Node> {
    if node.kind_name() == "expression_list" {
        let mut c = node.walk();
        node.named_children(&mut c)
            .filter(|n| n.kind_name() != "comment")
            .collect()
    } else {
        vec![node]
    }
}

/// An argument as a short display name: function literals and composite literals are
/// abbreviated, long calls lose their arguments, and whitespace is collapsed. Reads at most
/// a few hundred bytes of the source, however large the argument is.
pub(super) fn short_text(node: Node, src: &[u8]) -> String {
    let mut n = node;
    let mut prefix = String::new();
    if n.kind_name() == "unary_expression"
        && n.child_by_field_id(FIELD.operator)
            .is_some_and(|o| text(o, src) == "&")
        && let Some(operand) = n.child_by_field_id(FIELD.operand)
    {
        prefix.push('&');
        n = operand;
    }
    match n.kind_name() {
        "func_literal" => "(anonymous func)".to_string(),
        "composite_literal" => {
            let ty = n
                .child_by_field_id(FIELD.ty)
                .map(|t| clip(t, src))
                .unwrap_or_default();
            // An admission webhook is better known by the handler it wraps.
            let handler = n.child_by_field_id(FIELD.body).and_then(|body| {
                let mut c = body.walk();
                let found = body.named_children(&mut c).find(|e| {
                    e.kind_name() == "keyed_element"
                        && e.child_by_field_id(FIELD.key)
                            .is_some_and(|k| text(k, src) == "Handler")
                });
                found
                    .and_then(|e| e.child_by_field_id(FIELD.value))
                    .and_then(|v| v.named_child(0))
            });
            match handler {
                Some(h) => {
                    let inner = match h.kind_name() {
                        "unary_expression" | "composite_literal" => {
                            let base = unwrap(h, src);
                            let amp = if base.id() != h.id() { "&" } else { "" };
                            match base.kind_name() {
                                "composite_literal" => format!(
                                    "{amp}{}{{…}}",
                                    base.child_by_field_id(FIELD.ty)
                                        .map(|t| clip(t, src))
                                        .unwrap_or_default()
                                ),
                                _ => clip(h, src),
                            }
                        }
                        _ => clip(h, src),
                    };
                    format!("{prefix}{ty}{{Handler: {inner}}}")
                }
                None => format!("{prefix}{ty}{{…}}"),
            }
        }
        "call_expression" => {
            let (full, cut) = clip_text(n, src);
            if !cut {
                return format!("{prefix}{full}");
            }
            let function = n
                .child_by_field_id(FIELD.function)
                .map(|f| clip(f, src))
                .unwrap_or_default();
            format!("{prefix}{function}(…)")
        }
        _ => format!("{prefix}{}", clip(n, src)),
    }
}

/// A node's text with whitespace collapsed, cut to `MAX_TEXT` characters.
fn clip(node: Node, src: &[u8]) -> String {
    clip_text(node, src).0
}

/// A node's text on one line (no space just inside brackets, no trailing comma before a
/// closing one), cut to `MAX_TEXT` characters; the flag says whether it was cut.
fn clip_text(node: Node, src: &[u8]) -> (String, bool) {
    let start = node.start_byte();
    let end = node.end_byte().min(start + 4 * MAX_TEXT + 8);
    let raw = src.get(start..end).unwrap_or_default();
    let raw = String::from_utf8_lossy(raw);
    let mut out = String::new();
    let mut space = false;
    for c in raw.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if matches!(c, ')' | '}' | ']') {
            if out.ends_with(',') {
                out.pop();
            }
        } else if space && !out.is_empty() && !out.ends_with(['(', '{', '[']) {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    if out.chars().count() > MAX_TEXT || end < node.end_byte() {
        let cut: String = out.chars().take(MAX_TEXT - 1).collect();
        return (format!("{cut}…"), true);
    }
    (out, false)
}

#[cfg(test)]
mod tests;
