//! Informer watches outside controller builders: controller-runtime cache informers
//! (`GetInformer(ctx, obj)`), raw `source.Kind(cache, obj, …)` sources (e.g. given to
//! `controller.Watch`), client-go informer factories (`f.Core().V1().Pods().Informer()`),
//! and dynamic-client watches (`dyn.Resource(gvr)….Watch(…)`).
//!
//! An informer in a method of a controller's reconciler belongs to that controller (relation
//! `informer`); any other is listed per package. Unknown kinds: `?` and a diagnostic.

use super::syntax::FIELD;
use super::syntax::KindName;
use std::collections::HashSet;

use tree_sitter::Node;

use super::calls::{Graph, Paths};
use super::consts::{ConstExpr, const_expr};
use super::facts::GoFile;
use super::facts::informers::{
    FieldInformer, Forward, Gvr, GvrForward, InformerSource, RawInformer,
};
use super::index::{GoInput, dir_of};
use super::scope::{Binding, Scope};
use super::syntax::{FuncCtx, call_arguments, line_of, method_of, text};
use super::types::{FuncRef, TypeRef, ValueType};
use super::values::{Values, describe, plural};
use model::{Controller, Diagnostic, PackageInformer, Relation, SourceRef, UNRESOLVED, Watch};

/// The methods that add an event handler to a client-go informer: where its watch is
/// reported when the informer is a value the code passes around.
const HANDLER_METHODS: &[&str] = &[
    "AddEventHandler",
    "AddEventHandlerWithResyncPeriod",
    "AddEventHandlerWithOptions",
];

/// Values, locals and closures are followed this many steps to an informer.
const MAX_SOURCE_DEPTH: usize = 6;

/// Follows informer values inside one function.
struct Tracer<'a, 't> {
    scope: &'a Scope<'t>,
    src: &'a [u8],
    file: &'a GoFile,
}

impl<'t> Tracer<'_, 't> {
    fn type_of(&self, node: Node<'t>) -> ValueType {
        self.scope.type_of(node, self.src, node.start_byte())
    }

    /// What informer `node` is, if it is one the analyzer can follow.
    fn source_of(&self, node: Node<'t>, depth: usize) -> Option<InformerSource> {
        if depth > MAX_SOURCE_DEPTH {
            return None;
        }
        let src = self.src;
        let n = strip(node, src);
        match n.kind_name() {
            "call_expression" => self.call_source(n, depth),
            "identifier" => match self.scope.lookup(text(n, src), n.start_byte())? {
                Binding::Value(value) => self.source_of(value, depth + 1),
                Binding::Param(..) | Binding::Typed(_) => {
                    Some(InformerSource::Typed(self.type_of(n)))
                }
                _ => None,
            },
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand)?;
                let field = text(n.child_by_field_id(FIELD.field)?, src).to_string();
                match self.type_of(operand) {
                    ValueType::Type(t) | ValueType::Param { ty: Some(t), .. }
                        if t.qualifier.is_none() && !t.collection =>
                    {
                        Some(InformerSource::Field {
                            owner: t.name,
                            field,
                        })
                    }
                    ValueType::Unknown(_) => None,
                    base => Some(InformerSource::Typed(ValueType::Field {
                        base: Box::new(base),
                        field,
                    })),
                }
            }
            _ => None,
        }
    }

    fn call_source(&self, call: Node<'t>, depth: usize) -> Option<InformerSource> {
        let src = self.src;
        if let Some(f) = factory(call, src) {
            return Some(f);
        }
        let function = super::syntax::callee(call)?;
        let args = call_arguments(call);
        if function.kind_name() == "identifier" {
            // A closure held in a local (`newInformer := func(…) … { return … }`): what its
            // return statements give, when they agree.
            if let Some(Binding::Value(value)) = self
                .scope
                .lookup(text(function, src), function.start_byte())
                && strip(value, src).kind_name() == "func_literal"
            {
                return self.closure_source(strip(value, src), depth);
            }
            return self
                .wrapper(None, text(function, src), &args, depth)
                .or_else(|| {
                    Some(InformerSource::Typed(self.scope.type_of(
                        call,
                        src,
                        call.start_byte(),
                    )))
                });
        }
        if function.kind_name() != "selector_expression" {
            return None;
        }
        let operand = function.child_by_field_id(FIELD.operand)?;
        let method = text(function.child_by_field_id(FIELD.field)?, src);
        match method {
            "Informer" if args.is_empty() => return self.source_of(operand, depth + 1),
            "ForResource" => return for_resource(self, &args, depth),
            "NewSharedIndexInformer" | "NewSharedInformer"
                if args.len() >= 2
                    && operand.kind_name() == "identifier"
                    && self.imports(text(operand, src), "k8s.io/client-go/tools/cache") =>
            {
                return Some(match self.scope.type_of(args[1], src, call.start_byte()) {
                    ValueType::Type(t)
                        if matches!(t.name.as_str(), "Unstructured" | "PartialObjectMetadata") =>
                    {
                        InformerSource::InListWatch
                    }
                    ty => InformerSource::Object(ty),
                });
            }
            _ => {}
        }
        // `pkg.F(…, gvr, …)`: a function of another package (not a local value).
        if operand.kind_name() == "identifier"
            && self
                .scope
                .lookup(text(operand, src), operand.start_byte())
                .is_none()
            && let Some(w) = self.wrapper(Some(text(operand, src)), method, &args, depth)
        {
            return Some(w);
        }
        let base = self.type_of(operand);
        if matches!(base, ValueType::Unknown(_)) {
            return None;
        }
        Some(InformerSource::Method {
            base,
            method: method.to_string(),
        })
    }

    /// `F(…, gvr, …)`: the first argument that is a GroupVersionResource expression.
    fn wrapper(
        &self,
        qualifier: Option<&str>,
        name: &str,
        args: &[Node<'t>],
        depth: usize,
    ) -> Option<InformerSource> {
        args.iter().enumerate().find_map(|(arg, a)| {
            Some(InformerSource::Wrapper {
                qualifier: qualifier.map(str::to_string),
                name: name.to_string(),
                arg,
                gvr: self.gvr(*a, depth + 1, false)?,
            })
        })
    }

    /// The informer a closure returns: every `return` of its own body (not of closures
    /// inside it) must give the same one.
    fn closure_source(&self, func: Node<'t>, depth: usize) -> Option<InformerSource> {
        let body = func.child_by_field_id(FIELD.body)?;
        let mut found: Option<InformerSource> = None;
        let mut stack = vec![body];
        let mut visited = 0usize;
        while let Some(n) = stack.pop() {
            visited += 1;
            if visited > 4096 {
                return None;
            }
            if n.kind_name() == "func_literal" {
                continue;
            }
            if n.kind_name() == "return_statement" {
                let Some(first) = n.named_child(0).map(|l| {
                    if l.kind_name() == "expression_list" {
                        l.named_child(0)
                    } else {
                        Some(l)
                    }
                }) else {
                    continue;
                };
                let first = first?;
                if text(first, self.src) == "nil" {
                    continue;
                }
                let source = self.source_of(first, depth + 1)?;
                if found.as_ref().is_some_and(|f| *f != source) {
                    return None;
                }
                found = Some(source);
                continue;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        found
    }

    /// A GroupVersionResource expression (see `gvr_expr`); package-level variables only
    /// where a GroupVersionResource is expected (`ForResource`, `Resource`).
    fn gvr(&self, node: Node<'t>, depth: usize, package_vars: bool) -> Option<Gvr> {
        gvr_expr(node, self.src, self.scope, depth, package_vars)
    }

    /// True if `qualifier` is the file's name for import `path`.
    fn imports(&self, qualifier: &str, path: &str) -> bool {
        self.file.imports.iter().any(|i| {
            i.path == path
                && match &i.alias {
                    Some(a) => a == qualifier,
                    None => path.rsplit('/').next() == Some(qualifier),
                }
        })
    }
}

/// `f.ForResource(gvr)` / `f.ForResource(ns, gvr)`: the informer of the last argument; a
/// parameter is the caller's business (`forwards`), anything else is opaque.
fn for_resource<'t>(t: &Tracer<'_, 't>, args: &[Node<'t>], depth: usize) -> Option<InformerSource> {
    let last = *args.last()?;
    if let Some(gvr) = t.gvr(last, depth + 1, true) {
        return Some(InformerSource::Resource(gvr));
    }
    let is_param = last.kind_name() == "identifier"
        && matches!(
            t.scope.lookup(text(last, t.src), last.start_byte()),
            Some(Binding::Param(..))
        );
    (!is_param).then(|| InformerSource::Opaque(text(last, t.src).to_string()))
}

/// Parentheses and `&` removed.
fn strip<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut n = node;
    for _ in 0..8 {
        match n.kind_name() {
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => n = inner,
                None => break,
            },
            "unary_expression"
                if n.child_by_field_id(FIELD.operator)
                    .is_some_and(|o| text(o, src) == "&") =>
            {
                match n.child_by_field_id(FIELD.operand) {
                    Some(inner) => n = inner,
                    None => break,
                }
            }
            _ => break,
        }
    }
    n
}

/// A resource name: a string expression, or `string(x)` of one (`corev1.ResourceSecrets`
/// is a `ResourceName`).
fn resource_expr(node: Node, src: &[u8]) -> Option<ConstExpr> {
    if node.kind_name() == "call_expression"
        && node
            .child_by_field_id(FIELD.function)
            .is_some_and(|f| text(f, src) == "string")
    {
        return const_expr(*call_arguments(node).first()?, src);
    }
    const_expr(node, src)
}

/// Records the informers a function starts, the informer values it stores in struct
/// fields, and the GroupVersionResource parameters it hands on.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    let func = FuncRef {
        receiver: ctx.receiver_type.clone(),
        name: ctx.name.clone(),
    };
    let (found, fields, forwards) = {
        let tracer = Tracer { scope, src, file };
        let mut handlers = handler_informers(ctx, &tracer);
        obtained_informers(ctx, &tracer, &mut handlers);
        (
            handlers.found,
            field_informers(ctx, &tracer),
            gvr_forwards(ctx, scope, src),
        )
    };
    for (source, _, line) in found {
        file.informers.push(RawInformer {
            func: func.clone(),
            source,
            line,
        });
    }
    file.informer_facts.fields.extend(fields);
    file.informer_facts.forwards.extend(forwards);
}

/// The informers one function reports: (source, byte offset, line), and what its event
/// handlers already account for.
struct Handlers {
    found: Vec<(InformerSource, usize, u32)>,
    /// `x.Informer()` calls a handler is added to (by start byte): reported at the handler.
    handled: HashSet<usize>,
    /// Values of locals a handler is added to (by start byte).
    sunk: HashSet<usize>,
}

/// The informers event handlers are added to. Handlers come first: an informer they add a
/// handler to is reported there (where the controller reacts), not where it is obtained.
fn handler_informers(ctx: &FuncCtx, tracer: &Tracer) -> Handlers {
    let (scope, src) = (tracer.scope, tracer.src);
    let mut handlers = Handlers {
        found: Vec::new(),
        handled: HashSet::new(),
        sunk: HashSet::new(),
    };
    let Handlers {
        found,
        handled,
        sunk,
    } = &mut handlers;
    for &call in &ctx.calls {
        let Some((operand, method)) = method_of(call, src) else {
            continue;
        };
        if !HANDLER_METHODS.contains(&method) || call_arguments(call).is_empty() {
            continue;
        }
        // `x.Informer().AddEventHandler(h)`: the informer of x.
        let mut target = strip(operand, src);
        if let Some((inner, "Informer", inner_args)) = method_call(target, src)
            && inner_args.is_empty()
        {
            handled.insert(target.start_byte());
            target = strip(inner, src);
        }
        if target.kind_name() == "identifier"
            && let Some(Binding::Value(value)) =
                scope.lookup(text(target, src), target.start_byte())
        {
            sunk.insert(value.start_byte());
            handled.insert(strip(value, src).start_byte());
        }
        let source = tracer
            .source_of(target, 0)
            .unwrap_or_else(|| InformerSource::Untraced(text(target, src).to_string()));
        found.push((
            source,
            call.start_byte(),
            line_of(call_field(call).unwrap_or(call)),
        ));
    }
    handlers
}

/// Informers obtained from factories and caches, in the order of the code.
fn obtained_informers(ctx: &FuncCtx, tracer: &Tracer, handlers: &mut Handlers) {
    let (scope, src) = (tracer.scope, tracer.src);
    let Handlers {
        found,
        handled,
        sunk,
    } = handlers;
    let mut via_locals: Vec<(usize, u32, InformerSource)> = Vec::new();
    for &call in &ctx.calls {
        let Some((operand, method)) = method_of(call, src) else {
            continue;
        };
        if !OBTAINING_METHODS.contains(&method) {
            continue;
        }
        let args = call_arguments(call);
        let line = line_of(call_field(call).unwrap_or(call));
        let source = match method {
            "GetInformer" if args.len() >= 2 => Some(InformerSource::Object(scope.type_of(
                args[1],
                src,
                call.start_byte(),
            ))),
            "Kind" | "TypedKind"
                if operand.kind_name() == "identifier"
                    && args.len() >= 2
                    && !inside_builder_watch(call, src) =>
            {
                Some(InformerSource::Object(scope.type_of(
                    args[1],
                    src,
                    call.start_byte(),
                )))
            }
            "Informer" | "Lister" if args.is_empty() && !handled.contains(&call.start_byte()) => {
                if let Some(direct) = obtained(tracer, operand) {
                    Some(direct)
                } else {
                    // `inf := f.Core().V1().Pods()` … `inf.Informer()`: reported once, where
                    // the local is given the accessor, unless a handler is added to it.
                    if operand.kind_name() == "identifier"
                        && let Some(Binding::Value(value)) =
                            scope.lookup(text(operand, src), operand.start_byte())
                        && !sunk.contains(&value.start_byte())
                        && let Some(direct) = obtained(tracer, strip(value, src))
                    {
                        via_locals.push((value.start_byte(), line_of(value), direct));
                    }
                    None
                }
            }
            "Watch" => dynamic_resource(tracer, operand),
            _ => None,
        };
        if let Some(source) = source {
            found.push((source, call.start_byte(), line));
        }
    }
    via_locals.sort_by_key(|(at, ..)| *at);
    via_locals.dedup_by_key(|(at, ..)| *at);
    found.extend(via_locals.into_iter().map(|(at, line, s)| (s, at, line)));
    found.sort_by_key(|(_, at, _)| *at);
}

/// `x.field = <informer>`: the field's informer for every method of the package.
fn field_informers(ctx: &FuncCtx, tracer: &Tracer) -> Vec<FieldInformer> {
    let (scope, src) = (tracer.scope, tracer.src);
    let mut fields = Vec::new();
    for &b in &ctx.bindings {
        if !matches!(
            b.kind_name(),
            "assignment_statement" | "short_var_declaration"
        ) {
            continue;
        }
        let (Some(left), Some(right)) = (
            b.child_by_field_id(FIELD.left),
            b.child_by_field_id(FIELD.right),
        ) else {
            continue;
        };
        let (names, values) = (super::scope::list(left), super::scope::list(right));
        for (i, name) in names.iter().enumerate() {
            let value = match values.len() {
                n if n == names.len() => values[i],
                1 if i == 0 => values[0],
                _ => continue,
            };
            if name.kind_name() != "selector_expression" {
                continue;
            }
            let (Some(owner), Some(field)) = (
                name.child_by_field_id(FIELD.operand),
                name.child_by_field_id(FIELD.field),
            ) else {
                continue;
            };
            let owner = match scope.type_of(owner, src, b.start_byte()) {
                ValueType::Type(t) | ValueType::Param { ty: Some(t), .. }
                    if t.qualifier.is_none() && !t.collection =>
                {
                    t.name
                }
                _ => continue,
            };
            if let Some(source) = tracer.source_of(value, 0) {
                fields.push(FieldInformer {
                    owner,
                    field: text(field, src).to_string(),
                    source,
                });
            }
        }
    }

    fields
}

/// A GroupVersionResource parameter handed on (plain functions only: a wrapper is called
/// as `F(…)` or `pkg.F(…)`).
fn gvr_forwards(ctx: &FuncCtx, scope: &Scope, src: &[u8]) -> Vec<GvrForward> {
    let mut forwards = Vec::new();
    if ctx.receiver_type.is_some() {
        return forwards;
    }
    for &call in &ctx.calls {
        let Some(function) = super::syntax::callee(call) else {
            continue;
        };
        for (arg, a) in call_arguments(call).into_iter().enumerate() {
            if a.kind_name() != "identifier" {
                continue;
            }
            let Some(Binding::Param(param, Some(ty))) = scope.lookup(text(a, src), a.start_byte())
            else {
                continue;
            };
            if ty.name != "GroupVersionResource" || ty.collection {
                continue;
            }
            let to = match function.kind_name() {
                "selector_expression" => {
                    let (Some(q), Some(m)) = (
                        function.child_by_field_id(FIELD.operand),
                        function.child_by_field_id(FIELD.field),
                    ) else {
                        continue;
                    };
                    match text(m, src) {
                        "ForResource" => Forward::ForResource,
                        m if q.kind_name() == "identifier"
                            && scope.lookup(text(q, src), q.start_byte()).is_none() =>
                        {
                            Forward::Call {
                                qualifier: Some(text(q, src).to_string()),
                                name: m.to_string(),
                                arg,
                            }
                        }
                        _ => continue,
                    }
                }
                "identifier" => Forward::Call {
                    qualifier: None,
                    name: text(function, src).to_string(),
                    arg,
                },
                _ => continue,
            };
            forwards.push(GvrForward {
                func: ctx.name.clone(),
                param,
                to,
            });
        }
    }
    forwards
}

/// An informer obtained directly: a factory accessor chain or `ForResource(gvr)`.
fn obtained<'t>(tracer: &Tracer<'_, 't>, node: Node<'t>) -> Option<InformerSource> {
    if let Some(f) = factory(node, tracer.src) {
        return Some(f);
    }
    let (_, method, args) = method_call(node, tracer.src)?;
    (method == "ForResource")
        .then(|| for_resource(tracer, &args, 0))
        .flatten()
}

/// `operand.method(args)`.
fn method_call<'t, 's>(
    call: Node<'t>,
    src: &'s [u8],
) -> Option<(Node<'t>, &'s str, Vec<Node<'t>>)> {
    let (operand, method) = method_of(call, src)?;
    Some((operand, method, call_arguments(call)))
}

/// The methods the second pass of `extract` looks at.
const OBTAINING_METHODS: [&str; 6] = [
    "GetInformer",
    "Kind",
    "TypedKind",
    "Informer",
    "Lister",
    "Watch",
];

/// The method name node of a call, for its line.
fn call_field(call: Node) -> Option<Node> {
    super::syntax::callee(call)?.child_by_field_id(FIELD.field)
}

/// The first result type of each method of the interfaces a type declaration declares.
pub fn collect_interface_methods(decl: Node, src: &[u8], out: &mut Vec<(String, String, TypeRef)>) {
    for (name, ty) in super::types::type_specs(decl, "interface_type") {
        let mut c = ty.walk();
        for elem in ty.named_children(&mut c) {
            if !matches!(elem.kind_name(), "method_elem" | "method_spec") {
                continue;
            }
            let Some(method) = elem.child_by_field_id(FIELD.name) else {
                continue;
            };
            let sig = super::types::signature(elem, src);
            if let Some(Some(first)) = sig.results.first() {
                out.push((
                    text(name, src).to_string(),
                    text(method, src).to_string(),
                    first.clone(),
                ));
            }
        }
    }
}

/// True for `source.Kind(…)` handed to a controller builder's `Watches`/`WatchesRawSource`,
/// which `controllers` reports as a watch of that controller.
fn inside_builder_watch(call: Node, src: &[u8]) -> bool {
    let mut n = call;
    while let Some(parent) = n.parent() {
        if parent.kind_name() == "call_expression" {
            let method = parent
                .child_by_field_id(FIELD.function)
                .and_then(|f| f.child_by_field_id(FIELD.field))
                .map(|f| text(f, src));
            if matches!(method, Some("Watches" | "WatchesRawSource")) {
                return true;
            }
        }
        if matches!(
            parent.kind_name(),
            "block" | "function_declaration" | "method_declaration"
        ) {
            return false;
        }
        n = parent;
    }
    false
}

/// `X.Core().V1().Pods()` → ("CoreV1", "Pods").
fn factory(resource_call: Node, src: &[u8]) -> Option<InformerSource> {
    let names = method_chain(resource_call, src, 3)?;
    let [group, version, resource] = [&names[0], &names[1], &names[2]];
    let version_ok =
        version.starts_with('V') && super::kinds::is_version(&version.to_ascii_lowercase());
    version_ok.then(|| InformerSource::Factory {
        group_version: format!("{group}{version}"),
        resource: resource.clone(),
    })
}

/// The last `count` method names of a chain of argument-less calls, outermost last.
fn method_chain(call: Node, src: &[u8], count: usize) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut n = call;
    while names.len() < count {
        if n.kind_name() != "call_expression" {
            return None;
        }
        let f = n.child_by_field_id(FIELD.function)?;
        names.push(text(f.child_by_field_id(FIELD.field)?, src).to_string());
        n = f.child_by_field_id(FIELD.operand)?;
    }
    names.reverse();
    Some(names)
}

/// `X.Resource(gvr)[.Namespace(ns)].Watch(…)`: the watched resource.
fn dynamic_resource<'t>(tracer: &Tracer<'_, 't>, operand: Node<'t>) -> Option<InformerSource> {
    let src = tracer.src;
    let mut n = operand;
    for _ in 0..3 {
        if n.kind_name() != "call_expression" {
            return None;
        }
        let f = n.child_by_field_id(FIELD.function)?;
        let method = text(f.child_by_field_id(FIELD.field)?, src);
        if method == "Resource" {
            let arg = *call_arguments(n).first()?;
            return Some(
                tracer
                    .gvr(arg, 0, true)
                    .map(InformerSource::Resource)
                    .unwrap_or_else(|| InformerSource::Opaque(text(arg, src).to_string())),
            );
        }
        n = f.child_by_field_id(FIELD.operand)?;
    }
    None
}

/// A GroupVersionResource expression: a literal, `gv.WithResource(r)`, a local given one,
/// or (`package_vars`) a package-level variable, `name` or `pkg.Name`.
fn gvr_expr<'t>(
    node: Node<'t>,
    src: &[u8],
    scope: &Scope<'t>,
    depth: usize,
    package_vars: bool,
) -> Option<Gvr> {
    let mut n = strip(node, src);
    for _ in 0..MAX_SOURCE_DEPTH.saturating_sub(depth) {
        match n.kind_name() {
            "composite_literal" => return gvr_literal(n, src),
            "identifier" => match scope.lookup(text(n, src), n.start_byte()) {
                Some(Binding::Value(value)) => n = strip(value, src),
                None if package_vars => {
                    return Some(Gvr::Var {
                        qualifier: None,
                        name: text(n, src).to_string(),
                    });
                }
                _ => return None,
            },
            "selector_expression" if package_vars => {
                let q = n.child_by_field_id(FIELD.operand)?;
                let local = scope.lookup(text(q, src), q.start_byte()).is_some();
                return (q.kind_name() == "identifier" && !local).then(|| Gvr::Var {
                    qualifier: Some(text(q, src).to_string()),
                    name: text(n.child_by_field_id(FIELD.field).unwrap_or(n), src).to_string(),
                });
            }
            "call_expression" => {
                let function = n.child_by_field_id(FIELD.function)?;
                if function.kind_name() != "selector_expression"
                    || text(function.child_by_field_id(FIELD.field)?, src) != "WithResource"
                {
                    return None;
                }
                let resource = call_arguments(n)
                    .first()
                    .and_then(|a| resource_expr(*a, src));
                let gv = strip(function.child_by_field_id(FIELD.operand)?, src);
                return match gv.kind_name() {
                    "composite_literal" => {
                        let (group, version, _) = literal_fields(gv, src, "GroupVersion")?;
                        Some(Gvr::Literal {
                            group,
                            version,
                            resource,
                        })
                    }
                    "selector_expression" => {
                        let q = gv.child_by_field_id(FIELD.operand)?;
                        let local = scope.lookup(text(q, src), q.start_byte()).is_some();
                        (q.kind_name() == "identifier" && !local).then(|| Gvr::Package {
                            qualifier: text(q, src).to_string(),
                            var: text(gv.child_by_field_id(FIELD.field).unwrap_or(gv), src)
                                .to_string(),
                            resource,
                        })
                    }
                    _ => None,
                };
            }
            _ => return None,
        }
    }
    None
}

/// Package-level `var x = <GroupVersionResource expression>` of a file.
pub fn collect_package_gvrs(decl: Node, src: &[u8], out: &mut Vec<(String, Gvr)>) {
    let scope = Scope::package_level();
    let mut c = decl.walk();
    let mut specs: Vec<Node> = Vec::new();
    for child in decl.named_children(&mut c) {
        match child.kind_name() {
            "var_spec" => specs.push(child),
            "var_spec_list" => {
                let mut lc = child.walk();
                specs.extend(
                    child
                        .named_children(&mut lc)
                        .filter(|n| n.kind_name() == "var_spec"),
                );
            }
            _ => {}
        }
    }
    for spec in specs {
        let mut nc = spec.walk();
        let names: Vec<Node> = spec
            .children_by_field_name("name", &mut nc)
            .filter(|n| n.kind_name() == "identifier")
            .collect();
        let values = spec
            .child_by_field_id(FIELD.value)
            .map(super::scope::list)
            .unwrap_or_default();
        if names.len() != values.len() {
            continue;
        }
        for (name, value) in names.into_iter().zip(values) {
            if let Some(gvr) = gvr_expr(value, src, &scope, 0, false) {
                out.push((text(name, src).to_string(), gvr));
            }
        }
    }
}

fn gvr_literal(node: Node, src: &[u8]) -> Option<Gvr> {
    let (group, version, resource) = literal_fields(node, src, "GroupVersionResource")?;
    Some(Gvr::Literal {
        group,
        version,
        resource,
    })
}

type Fields = (Option<ConstExpr>, Option<ConstExpr>, Option<ConstExpr>);

/// The `Group`, `Version` and `Resource` fields of a `…<type_suffix>{…}` literal.
fn literal_fields(node: Node, src: &[u8], type_suffix: &str) -> Option<Fields> {
    if node.kind_name() != "composite_literal"
        || !text(node.child_by_field_id(FIELD.ty)?, src).ends_with(type_suffix)
    {
        return None;
    }
    let body = node.child_by_field_id(FIELD.body)?;
    let (mut group, mut version, mut resource) = (None, None, None);
    let mut c = body.walk();
    for element in body
        .named_children(&mut c)
        .filter(|n| n.kind_name() == "keyed_element")
    {
        let (Some(key), Some(value)) = (element.named_child(0), element.named_child(1)) else {
            continue;
        };
        let value = resource_expr(value.named_child(0).unwrap_or(value), src);
        match text(key, src) {
            "Group" => group = value,
            "Version" => version = value,
            "Resource" => resource = value,
            _ => {}
        }
    }
    Some((group, version, resource))
}

/// What an informer source comes to.
enum Outcome {
    Kind(String, String, String),
    /// An informer whose kind is not known: a `?` row and a diagnostic.
    Unknown(String),
    /// A handler added to a value not shown to be an informer: a diagnostic, no row.
    NotAnInformer(String),
    /// Reported elsewhere (`InformerSource::InListWatch`).
    Skip,
}

/// Resolves informers: into their controller's watches, else per package.
pub fn resolve(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
    reach: &[Option<Paths>],
    controllers: &mut [Controller],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<PackageInformer> {
    let mut out = Vec::new();
    for input in files {
        let file = &input.facts;
        let dir = dir_of(&file.path);
        for raw in &file.informers {
            let (group, version, kind) = match outcome(values, file, &raw.source, 0) {
                Outcome::Kind(g, v, k) => (g, v, k),
                Outcome::Skip => continue,
                Outcome::NotAnInformer(why) => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        raw.line,
                        format!("an event handler is added here, but the analyzer cannot follow the value to an informer: {why}"),
                    ));
                    continue;
                }
                Outcome::Unknown(why) => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        raw.line,
                        format!("cannot tell which kind this informer watches: {why}"),
                    ));
                    (
                        UNRESOLVED.to_string(),
                        UNRESOLVED.to_string(),
                        UNRESOLVED.to_string(),
                    )
                }
            };
            let sources = vec![SourceRef::new(&file.path, raw.line)];
            // The informer belongs to every controller whose Reconcile reaches the function
            // that starts it, or, as before, whose reconciler type declares that function.
            let node = values.node_of(dir, &raw.func);
            let mut owned = false;
            for (c, paths) in controllers.iter_mut().zip(reach) {
                let declared = Some(&c.reconciler) == raw.func.receiver.as_ref()
                    && c.sources.first().is_some_and(|s| dir_of(&s.file) == dir);
                let reached = node
                    .zip(paths.as_ref())
                    .is_some_and(|(n, p)| p.contains(graph, n));
                if !declared && !reached {
                    continue;
                }
                owned = true;
                c.watches.push(Watch {
                    relation: Relation::Informer,
                    group: group.clone(),
                    version: version.clone(),
                    kind: kind.clone(),
                    conditional: false,
                    condition: String::new(),
                    import_path: None,
                    raw_source: false,
                    sources: sources.clone(),
                });
            }
            if !owned {
                out.push(PackageInformer {
                    package: values.index.package_of(file).unwrap_or(dir).to_string(),
                    function: match &raw.func.receiver {
                        Some(r) => format!("{r}.{}", raw.func.name),
                        None => raw.func.name.clone(),
                    },
                    group,
                    version,
                    kind,
                    area: input.area,
                    sources,
                });
            }
        }
    }
    out
}

/// Struct fields holding informers are followed through this many other fields.
const MAX_FIELD_DEPTH: usize = 4;

fn outcome(values: &Values, file: &GoFile, source: &InformerSource, depth: usize) -> Outcome {
    let dir = dir_of(&file.path);
    let kind = |gvk: Option<(String, String, String)>, why: String| match gvk {
        Some((g, v, k)) => Outcome::Kind(g, v, k),
        None => Outcome::Unknown(why),
    };
    match source {
        InformerSource::Object(value) => kind(values.value_kind(file, dir, value), describe(value)),
        InformerSource::Factory {
            group_version,
            resource,
        } => kind(
            values.clientset_kind(group_version, resource),
            format!(
                "{group_version}().{resource}() is neither a Kubernetes API group's accessor nor one of the repository's API packages"
            ),
        ),
        InformerSource::Resource(gvr) => match gvr_kind(values, file, gvr) {
            Ok((g, v, k)) => Outcome::Kind(g, v, k),
            Err(why) => Outcome::Unknown(why),
        },
        InformerSource::Opaque(expr) => Outcome::Unknown(format!(
            "the resource `{expr}` is not a GroupVersionResource expression the analyzer can read"
        )),
        InformerSource::Wrapper {
            qualifier,
            name,
            arg,
            gvr,
        } => {
            let called = match qualifier {
                Some(q) => format!("{q}.{name}"),
                None => name.clone(),
            };
            if !hands_on_to_informer(values, file, qualifier.as_deref(), name, *arg) {
                return Outcome::NotAnInformer(format!(
                    "`{called}` is not an in-repo function that hands its GroupVersionResource to `ForResource`"
                ));
            }
            match gvr_kind(values, file, gvr) {
                Ok((g, v, k)) => Outcome::Kind(g, v, k),
                Err(why) => Outcome::Unknown(why),
            }
        }
        InformerSource::Field { owner, field } => field_outcome(values, dir, owner, field, depth),
        InformerSource::Typed(value) => values
            .declared_type(file, dir, value)
            .and_then(|(f, t)| informer_type_kind(values, f, &t))
            .map_or_else(
                || Outcome::NotAnInformer(describe(value)),
                |(g, v, k)| Outcome::Kind(g, v, k),
            ),
        InformerSource::Method { base, method } => values
            .declared_type(file, dir, base)
            .and_then(|(f, t)| method_result(values, f, &t, method))
            .and_then(|(f, t)| informer_type_kind(values, f, &t))
            .map_or_else(
                || {
                    Outcome::NotAnInformer(format!(
                        "the result of method {method} is not a typed informer"
                    ))
                },
                |(g, v, k)| Outcome::Kind(g, v, k),
            ),
        InformerSource::InListWatch => Outcome::Skip,
        InformerSource::Untraced(expr) => Outcome::NotAnInformer(format!(
            "`{expr}` has no declaration the analyzer can follow"
        )),
    }
}

/// The informer a struct field holds: what the package assigns to it (all assignments must
/// agree), else its declared type.
fn field_outcome(values: &Values, dir: &str, owner: &str, field: &str, depth: usize) -> Outcome {
    if depth > MAX_FIELD_DEPTH {
        return Outcome::NotAnInformer(format!(
            "field {field} is assigned through too many other fields"
        ));
    }
    let mut kinds = std::collections::BTreeSet::new();
    let mut assigned = false;
    for input in values
        .index
        .files
        .iter()
        .filter(|f| dir_of(&f.facts.path) == dir)
    {
        for f in input
            .facts
            .informer_facts
            .fields
            .iter()
            .filter(|f| f.owner == owner && f.field == field)
        {
            assigned = true;
            match outcome(values, &input.facts, &f.source, depth + 1) {
                Outcome::Kind(g, v, k) => {
                    kinds.insert((g, v, k));
                }
                Outcome::Skip => {}
                Outcome::Unknown(why) => return Outcome::Unknown(why),
                Outcome::NotAnInformer(why) if kinds.is_empty() => {
                    return Outcome::NotAnInformer(why);
                }
                Outcome::NotAnInformer(why) => return Outcome::Unknown(why),
            }
        }
    }
    if assigned {
        let mut found = kinds.into_iter();
        return match (found.next(), found.next()) {
            (Some((g, v, k)), None) => Outcome::Kind(g, v, k),
            (None, _) => Outcome::Skip,
            (Some(_), Some(_)) => Outcome::Unknown(format!(
                "field {owner}.{field} is given informers of several kinds"
            )),
        };
    }
    match values.struct_field(dir, owner, field) {
        Some((f, t)) => informer_type_kind(values, f, &t).map_or_else(
            || Outcome::NotAnInformer(format!("field {owner}.{field} is not a typed informer")),
            |(g, v, k)| Outcome::Kind(g, v, k),
        ),
        None => Outcome::NotAnInformer(format!(
            "field {owner}.{field} is not declared in the package"
        )),
    }
}

/// True if function `name` (of the package `qualifier` names in `file`, else of `file`'s
/// package) hands its argument `arg` on to an informer factory's `ForResource`, directly or
/// through other in-repo functions.
fn hands_on_to_informer(
    values: &Values,
    file: &GoFile,
    qualifier: Option<&str>,
    name: &str,
    arg: usize,
) -> bool {
    let dir_for = |f: &GoFile, q: Option<&str>| -> Option<String> {
        match q {
            None => Some(dir_of(&f.path).to_string()),
            Some(q) => {
                let import = values.index.import_for(f, q)?;
                values.index.dir_of_import(&import).map(str::to_string)
            }
        }
    };
    let Some(start) = dir_for(file, qualifier) else {
        return false;
    };
    let mut stack = vec![(start, name.to_string(), arg, 0usize)];
    let mut seen = std::collections::HashSet::new();
    while let Some((dir, func, param, depth)) = stack.pop() {
        if depth > MAX_SOURCE_DEPTH || !seen.insert((dir.clone(), func.clone(), param)) {
            continue;
        }
        for input in values
            .index
            .files
            .iter()
            .filter(|f| dir_of(&f.facts.path) == dir)
        {
            for fw in input
                .facts
                .informer_facts
                .forwards
                .iter()
                .filter(|fw| fw.func == func && fw.param == param)
            {
                match &fw.to {
                    Forward::ForResource => return true,
                    Forward::Call {
                        qualifier,
                        name,
                        arg,
                    } => {
                        if let Some(d) = dir_for(&input.facts, qualifier.as_deref()) {
                            stack.push((d, name.clone(), *arg, depth + 1));
                        }
                    }
                }
            }
        }
    }
    false
}

/// The declared first result of method `method` of type `t`: an in-repo interface's method
/// or a method declared on an in-repo type.
fn method_result<'a>(
    values: &Values<'a, '_>,
    file: &'a GoFile,
    t: &TypeRef,
    method: &str,
) -> Option<(&'a GoFile, TypeRef)> {
    if t.collection {
        return None;
    }
    let dir = match &t.qualifier {
        None => dir_of(&file.path).to_string(),
        Some(q) => {
            let import = values.index.import_for(file, q)?;
            values.index.dir_of_import(&import)?.to_string()
        }
    };
    let files: &'a [GoInput] = values.index.files;
    for input in files.iter().filter(|f| dir_of(&f.facts.path) == dir) {
        if let Some((_, _, r)) = input
            .facts
            .informer_facts
            .methods
            .iter()
            .find(|(i, m, _)| *i == t.name && m == method)
        {
            return Some((&input.facts, r.clone()));
        }
    }
    let loc = values.functions.get(&(
        dir,
        FuncRef {
            receiver: Some(t.name.clone()),
            name: method.to_string(),
        },
    ))?;
    Some((loc.file, loc.signature().results.first()?.clone()?))
}

/// Types an informer's kind is looked for through (in-repo interfaces and their methods).
const MAX_TYPE_STEPS: usize = 32;

/// The kind a typed informer (or lister) value serves: client-go's `informers/<group>/
/// <version>.<Kind>Informer` and `listers/….<Kind>Lister`, the same of a generated
/// `informers/externalversions/<group>/<version>` package, or an in-repo interface whose
/// methods give informers or listers of exactly one kind.
fn informer_type_kind(
    values: &Values,
    file: &GoFile,
    t: &TypeRef,
) -> Option<(String, String, String)> {
    let files: &[GoInput] = values.index.files;
    let mut stack = vec![(file, t.clone())];
    let mut seen = std::collections::HashSet::new();
    let mut kinds = std::collections::BTreeSet::new();
    let mut steps = 0;
    while let Some((f, t)) = stack.pop() {
        steps += 1;
        if steps > MAX_TYPE_STEPS {
            return None;
        }
        if t.collection {
            continue;
        }
        let Some(import) = values.index.type_package(f, t.qualifier.as_deref()) else {
            continue;
        };
        if !seen.insert((import.clone(), t.name.clone())) {
            continue;
        }
        if let Some(k) = generated_informer_kind(values, &import, &t.name) {
            kinds.insert(k);
            continue;
        }
        let Some(dir) = values.index.dir_of_import(&import) else {
            continue;
        };
        for input in files.iter().filter(|x| dir_of(&x.facts.path) == dir) {
            for (_, _, r) in input
                .facts
                .informer_facts
                .methods
                .iter()
                .filter(|(i, _, _)| *i == t.name)
            {
                stack.push((&input.facts, r.clone()));
            }
        }
    }
    let mut found = kinds.into_iter();
    match (found.next(), found.next()) {
        (Some(k), None) => Some(k),
        _ => None,
    }
}

/// `k8s.io/client-go/informers/core/v1.SecretInformer`, `…/listers/core/v1.SecretLister`
/// and `SecretNamespaceLister`, and the same names of a generated
/// `…/informers/externalversions/<group>/<version>` or `…/listers/<group>/<version>`.
fn generated_informer_kind(
    values: &Values,
    import: &str,
    name: &str,
) -> Option<(String, String, String)> {
    let kind = name
        .strip_suffix("Informer")
        .or_else(|| name.strip_suffix("NamespaceLister"))
        .or_else(|| name.strip_suffix("Lister"))
        .filter(|k| k.starts_with(|c: char| c.is_ascii_uppercase()))?;
    for prefix in ["k8s.io/client-go/informers/", "k8s.io/client-go/listers/"] {
        if let Some(rest) = import.strip_prefix(prefix) {
            let (g, v) = super::kinds::builtin_group_version(&format!("k8s.io/api/{rest}"))?;
            return Some((g, v, kind.to_string()));
        }
    }
    let rest = import
        .split_once("/informers/externalversions/")
        .or_else(|| import.split_once("/listers/"))?
        .1;
    let (group, version) = rest.split_once('/')?;
    if version.contains('/') || !super::kinds::is_version(version) {
        return None;
    }
    let capital = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    values.clientset_kind(
        &format!("{}{}", capital(group), capital(version)),
        &plural(kind),
    )
}

/// Resource names of `k8s.io/api/core/v1` (`ResourceName` constants: `ResourceSecrets`),
/// which code converts with `string(…)` to build a GroupVersionResource.
const CORE_RESOURCE_NAMES: &[(&str, &str)] = &[
    ("ResourcePods", "pods"),
    ("ResourceServices", "services"),
    ("ResourceReplicationControllers", "replicationcontrollers"),
    ("ResourceQuotas", "resourcequotas"),
    ("ResourceSecrets", "secrets"),
    ("ResourceConfigMaps", "configmaps"),
    ("ResourcePersistentVolumeClaims", "persistentvolumeclaims"),
];

/// The (group, version, kind) of a GroupVersionResource as written in `file`.
fn gvr_kind(values: &Values, file: &GoFile, gvr: &Gvr) -> Result<(String, String, String), String> {
    // A package-level variable: its declaration (which is not itself a variable).
    let (file, gvr) = match gvr {
        Gvr::Var { qualifier, name } => {
            let dir = values.index.package_dir(file, qualifier.as_deref());
            let files: &[GoInput] = values.index.files;
            let declared = dir.and_then(|dir| {
                files
                    .iter()
                    .filter(|f| dir_of(&f.facts.path) == dir)
                    .find_map(|f| {
                        f.facts
                            .informer_facts
                            .gvrs
                            .iter()
                            .find(|(n, _)| n == name)
                            .map(|(_, g)| (&f.facts, g))
                    })
            });
            match declared {
                Some(found) => found,
                None => {
                    let written = match qualifier {
                        Some(q) => format!("{q}.{name}"),
                        None => name.clone(),
                    };
                    return Err(format!(
                        "the resource `{written}` is not a GroupVersionResource expression the analyzer can read"
                    ));
                }
            }
        }
        other => (file, other),
    };
    let eval = |e: &Option<ConstExpr>| -> Option<String> {
        let e = e.as_ref()?;
        values.index.eval(file, e).or_else(|| match e {
            ConstExpr::Ref {
                qualifier: Some(q),
                name,
            } if values.index.import_for(file, q).as_deref() == Some("k8s.io/api/core/v1") => {
                CORE_RESOURCE_NAMES
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, r)| r.to_string())
            }
            _ => None,
        })
    };
    let (group, version, resource) = match gvr {
        Gvr::Literal {
            group,
            version,
            resource,
        } => {
            let (Some(g), Some(v), Some(r)) = (eval(group), eval(version), eval(resource)) else {
                return Err("the GroupVersionResource's fields are not all constants".into());
            };
            (g, v, r)
        }
        Gvr::Package {
            qualifier,
            var,
            resource,
        } => {
            if !matches!(var.as_str(), "SchemeGroupVersion" | "GroupVersion") {
                return Err(format!(
                    "`{qualifier}.{var}` is not the group/version its package declares"
                ));
            }
            let (g, v) = values
                .index
                .import_for(file, qualifier)
                .and_then(|i| values.index.group_version(&i))
                .ok_or_else(|| format!("the group and version of `{qualifier}` are not known"))?;
            let r =
                eval(resource).ok_or_else(|| "the resource name is not a constant".to_string())?;
            (g, v, r)
        }
        Gvr::Var { .. } => return Err("a GroupVersionResource variable is given another".into()),
    };
    match resource_kind(values, &group, &version, &resource) {
        Some(kind) => Ok((group, version, kind)),
        None => Err(format!(
            "resource `{resource}` of `{group}/{version}` has no known kind"
        )),
    }
}

/// The kind of a resource name: the built-in table, the CRDs the repository ships, then
/// the repository's API package for the group/version (its type whose plural it is).
fn resource_kind(values: &Values, group: &str, version: &str, resource: &str) -> Option<String> {
    kubernetes::resources::well_known_kind(group, resource)
        .map(str::to_string)
        .or_else(|| values.index.shipped_resource_kind(group, resource))
        .or_else(|| values.repo_resource_kind(group, version, resource))
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::go::controllers;
    use crate::go::file::extract;
    use model::Area;

    const SRC: &str = r#"package watcher

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

const podsResource = "pods"

type NodeReconciler struct{}

func (r *NodeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if _, err := mgr.GetCache().GetInformer(context.Background(), &corev1.Secret{}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Node{}).
		WatchesRawSource(source.Kind(mgr.GetCache(), &corev1.Pod{}, &handler.TypedEnqueueRequestForObject[*corev1.Pod]{})).
		Complete(r)
}

func startWatches(ctx context.Context, c controller.Controller, mgr ctrl.Manager, factory informers.SharedInformerFactory, dyn dynamic.Interface, gvr schema.GroupVersionResource) {
	_ = c.Watch(source.Kind(mgr.GetCache(), &corev1.ConfigMap{}, &handler.EnqueueRequestForObject{}))
	factory.Core().V1().Services().Informer()
	dyn.Resource(schema.GroupVersionResource{Group: "", Version: "v1", Resource: podsResource}).Namespace("x").Watch(ctx, metav1.ListOptions{})
	dyn.Resource(gvr).Watch(ctx, metav1.ListOptions{})
}
"#;

    /// Runs the Go resolution on `files` (module `example.com/toys` at the root): the
    /// controllers, the package informers as rows, and the diagnostics as `file:line message`.
    fn run(files: &[(&str, &str)]) -> (Vec<Controller>, Vec<String>, Vec<String>) {
        let inputs: Vec<GoInput> = files
            .iter()
            .map(|(path, src)| GoInput {
                facts: extract(path, src),
                area: Area::Component,
            })
            .collect();
        let mut diags = Vec::new();
        let index = crate::go::test_support::index(&inputs, "example.com/toys", &mut diags);
        let mut ctrls = controllers::resolve(&inputs, &index, &mut diags);
        let values = Values::new(&inputs, &index);
        let graph = crate::go::calls::Graph::build(&inputs, &index);
        let reach = crate::go::writes::controller_reach(&values, &graph, &ctrls, &mut diags);
        let package = resolve(&inputs, &values, &graph, &reach, &mut ctrls, &mut diags);
        let rows = package
            .iter()
            .map(|i| {
                format!(
                    "{} {}/{} {} @{}:{}",
                    i.function, i.group, i.version, i.kind, i.sources[0].file, i.sources[0].line
                )
            })
            .collect();
        let messages = diags
            .iter()
            .map(|d| format!("{}:{} {}", d.file, d.line, d.message))
            .collect();
        (ctrls, rows, messages)
    }

    #[test]
    fn informers_attach_to_their_controller_or_their_package() {
        let (ctrls, others, diags) = run(&[("pkg/watcher/w.go", SRC)]);
        let watches: Vec<String> = ctrls[0]
            .watches
            .iter()
            .map(|w| {
                format!(
                    "{:?} {}/{} {} @{}",
                    w.relation, w.group, w.version, w.kind, w.sources[0].line
                )
            })
            .collect();
        assert_eq!(
            watches,
            vec![
                "For /v1 Node @22",
                "Watches /v1 Pod @23",
                "Informer /v1 Secret @18"
            ]
        );
        assert_eq!(
            others,
            vec![
                "startWatches /v1 ConfigMap @pkg/watcher/w.go:28",
                "startWatches /v1 Service @pkg/watcher/w.go:29",
                "startWatches /v1 Pod @pkg/watcher/w.go:30",
                "startWatches ?/? ? @pkg/watcher/w.go:31",
            ]
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(diags[0].contains(
            "the resource `gvr` is not a GroupVersionResource expression the analyzer can read"
        ));
    }

    const TOYS_API: &str = r#"package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

const GroupName = "toys.example.com"

const GadgetResource = "gadgets"

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}

type Gadget struct{}
"#;

    /// An in-repo wrapper that hands its GroupVersionResource to a factory's `ForResource`
    /// through a second function, and adds handlers to informers it keeps in a slice.
    const WATCHSET: &str = r#"package watchset

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

type Factory interface {
	ForResource(namespace string, gvr schema.GroupVersionResource) (informers.GenericInformer, error)
}

type Set struct {
	items []informers.GenericInformer
}

func New(f Factory, gvr schema.GroupVersionResource) (*Set, error) {
	return build(f, gvr, nil)
}

func build(f Factory, res schema.GroupVersionResource, transform cache.TransformFunc) (*Set, error) {
	s := &Set{}
	for _, ns := range []string{"a", "b"} {
		inf, err := f.ForResource(ns, res)
		if err != nil {
			return nil, err
		}
		s.items = append(s.items, inf)
	}
	return s, nil
}

func (s *Set) AddEventHandler(h cache.ResourceEventHandler) {
	for _, i := range s.items {
		_, _ = i.Informer().AddEventHandler(h)
	}
}
"#;

    const GADGET_OPERATOR: &str = r#"package gadget

import (
	"errors"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	toysv1 "example.com/toys/api/v1"
	"example.com/toys/pkg/watchset"
)

var podsGVR = corev1.SchemeGroupVersion.WithResource(string(corev1.ResourcePods))

type Operator struct {
	gadgets   *watchset.Set
	sets      *watchset.Set
	secrets   *watchset.Set
	sprockets *watchset.Set
	nsInf     cache.SharedIndexInformer
	otherNs   cache.SharedIndexInformer
	raw       cache.SharedInformer
}

func New(f watchset.Factory, dyn dynamicinformer.DynamicSharedInformerFactory, lw cache.ListerWatcher) (*Operator, error) {
	o := &Operator{}
	var err error
	o.gadgets, err = watchset.New(f, toysv1.SchemeGroupVersion.WithResource(toysv1.GadgetResource))
	o.sets, err = watchset.New(f, appsv1.SchemeGroupVersion.WithResource("statefulsets"))
	o.secrets, err = watchset.New(f, schema.GroupVersionResource{Group: "", Version: "v1", Resource: "secrets"})
	o.sprockets, err = watchset.New(f, toysv1.SchemeGroupVersion.WithResource("sprockets"))
	newNamespaceInformer := func(o *Operator) (cache.SharedIndexInformer, error) {
		if lw == nil {
			return nil, errors.New("no lister-watcher")
		}
		return cache.NewSharedIndexInformer(lw, &corev1.Namespace{}, 0, cache.Indexers{}), nil
	}
	o.nsInf, err = newNamespaceInformer(o)
	o.otherNs = o.nsInf
	o.raw = cache.NewSharedInformer(lw, &unstructured.Unstructured{}, 0)
	pods := dyn.ForResource(podsGVR)
	_, _ = pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{})
	return o, err
}

func (o *Operator) addHandlers(h cache.ResourceEventHandler) {
	o.gadgets.AddEventHandler(h)
	o.sets.AddEventHandler(h)
	o.secrets.AddEventHandler(h)
	o.sprockets.AddEventHandler(h)
	_, _ = o.nsInf.AddEventHandler(h)
	_, _ = o.otherNs.AddEventHandler(h)
	_, _ = o.raw.AddEventHandler(h)
}
"#;

    #[test]
    fn event_handlers_on_gvr_informers_through_wrappers_fields_and_closures() {
        let (_, rows, messages) = run(&[
            ("api/v1/register.go", TOYS_API),
            ("pkg/watchset/set.go", WATCHSET),
            ("pkg/gadget/operator.go", GADGET_OPERATOR),
        ]);
        let at = |line: u32| format!("@pkg/gadget/operator.go:{line}");
        assert_eq!(
            rows,
            vec![
                format!("New /v1 Pod {}", at(46)),
                format!("Operator.addHandlers toys.example.com/v1 Gadget {}", at(51)),
                format!("Operator.addHandlers apps/v1 StatefulSet {}", at(52)),
                format!("Operator.addHandlers /v1 Secret {}", at(53)),
                format!("Operator.addHandlers ?/? ? {}", at(54)),
                format!("Operator.addHandlers /v1 Namespace {}", at(55)),
                format!("Operator.addHandlers /v1 Namespace {}", at(56)),
            ]
        );
        assert_eq!(
            messages,
            vec![
                "pkg/watchset/set.go:35 an event handler is added here, but the analyzer cannot follow the value to an informer: `i` has no declaration the analyzer can follow",
                "pkg/gadget/operator.go:54 cannot tell which kind this informer watches: resource `sprockets` of `toys.example.com/v1` has no known kind",
            ]
        );
    }

    const INFORMER_SET: &str = r#"package informerset

import (
	networkingv1informers "k8s.io/client-go/informers/networking/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

type Factory interface {
	Start(stop <-chan struct{})
	Ingresses() networkingv1informers.IngressInformer
	Secrets() SecretInformer
}

type SecretInformer interface {
	Informer() Informer
	Lister() SecretLister
}

type SecretLister interface {
	Secrets(namespace string) corev1listers.SecretNamespaceLister
}

type Informer interface {
	AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error)
	HasSynced() bool
}
"#;

    const WIDGET_CONTROLLER: &str = r#"package widgetctl

import (
	"k8s.io/client-go/informers"
	appsv1informers "k8s.io/client-go/informers/apps/v1"
	"k8s.io/client-go/tools/cache"

	toysinformers "example.com/toys/pkg/client/informers/externalversions/toys/v1"
	"example.com/toys/pkg/informerset"
)

type Context struct {
	Kube   informerset.Factory
	Shared informers.SharedInformerFactory
}

type controller struct {
	deployments appsv1informers.DeploymentInformer
	events      *EventBus
}

type EventBus struct{}

func (b *EventBus) AddEventHandler(h func()) {}

func Register(ctx *Context, gadgets toysinformers.GadgetInformer, h cache.ResourceEventHandler) {
	secrets := ctx.Kube.Secrets()
	secrets.Informer().AddEventHandler(h)
	ctx.Kube.Ingresses().Informer().AddEventHandler(h)
	gadgets.Informer().AddEventHandler(h)
	cmInf := ctx.Shared.Core().V1().ConfigMaps().Informer()
	cmInf.AddEventHandler(h)
	pods := ctx.Shared.Core().V1().Pods()
	_ = pods.Lister()
	_ = pods.Informer().HasSynced
	svcs := ctx.Shared.Core().V1().Services()
	_ = svcs.Lister()
	svcs.Informer().AddEventHandler(h)
	func(c *Context) {
		c.Kube.Secrets().Informer().AddEventHandler(h)
	}(ctx)
}

func (c *controller) run(h cache.ResourceEventHandler) {
	c.deployments.Informer().AddEventHandler(h)
	c.events.AddEventHandler(func() {})
}
"#;

    #[test]
    fn event_handlers_on_typed_informers_and_factory_locals() {
        let (_, rows, messages) = run(&[
            ("api/v1/register.go", TOYS_API),
            ("pkg/informerset/set.go", INFORMER_SET),
            ("pkg/widgetctl/controller.go", WIDGET_CONTROLLER),
        ]);
        let at = |line: u32| format!("@pkg/widgetctl/controller.go:{line}");
        assert_eq!(
            rows,
            vec![
                format!("Register /v1 Secret {}", at(28)),
                format!("Register networking.k8s.io/v1 Ingress {}", at(29)),
                format!("Register toys.example.com/v1 Gadget {}", at(30)),
                format!("Register /v1 ConfigMap {}", at(32)),
                // Obtained and used without a handler: reported once, where it is obtained.
                format!("Register /v1 Pod {}", at(33)),
                format!("Register /v1 Service {}", at(38)),
                format!("Register /v1 Secret {}", at(40)),
                format!("controller.run apps/v1 Deployment {}", at(45)),
            ]
        );
        assert_eq!(
            messages,
            vec![
                "pkg/widgetctl/controller.go:46 an event handler is added here, but the analyzer cannot follow the value to an informer: field controller.events is not a typed informer",
            ]
        );
    }
}
