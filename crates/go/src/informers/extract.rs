//! Per file: the informers each function obtains or adds event handlers to, traced to
//! where they come from (`InformerSource`), informers kept in struct fields,
//! GroupVersionResource parameters handed on, and package-level GroupVersionResources.

use crate::syntax::FIELD;
use crate::syntax::KindName;
use std::collections::HashSet;

use tree_sitter::Node;

use crate::facts::GoFile;
use crate::facts::informers::{
    FieldInformer, Forward, Gvr, GvrForward, HandlerRef, InformerSource, RawInformer,
};
use crate::gvr::{gvr_expr, strip};
use crate::scope::{Binding, Scope};
use crate::syntax::{FuncCtx, call_arguments, line_of, method_of, root_identifier, text};
use crate::types::{FuncRef, TypeRef, ValueType};

/// The methods that add an event handler to a client-go informer: where its watch is
/// reported when the informer is a value the code passes around.
const HANDLER_METHODS: &[&str] = &[
    "AddEventHandler",
    "AddEventHandlerWithResyncPeriod",
    "AddEventHandlerWithOptions",
];

/// Values, locals and closures are followed this many steps to an informer.
pub(crate) const MAX_SOURCE_DEPTH: usize = 6;

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
        if let Some(f) = factory(call, self.scope, src) {
            return Some(f);
        }
        let function = crate::syntax::callee(call)?;
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
        // `pkg.F(…, gvr, …)`: a function of another package (not a local value); any
        // other `pkg.F(…)` gives what F's declared result is (an injection's `Get(ctx)`).
        if operand.kind_name() == "identifier"
            && self
                .scope
                .lookup(text(operand, src), operand.start_byte())
                .is_none()
        {
            return self
                .wrapper(Some(text(operand, src)), method, &args, depth)
                .or_else(|| Some(InformerSource::Typed(self.type_of(call))));
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
    for (source, _, line, handler) in found {
        file.informers.push(RawInformer {
            func: func.clone(),
            source,
            line,
            handler,
        });
    }
    file.informer_facts.fields.extend(fields);
    file.informer_facts.forwards.extend(forwards);
}

/// The informers one function reports: (source, byte offset, line), and what its event
/// handlers already account for.
struct Handlers {
    found: Vec<(InformerSource, usize, u32, Vec<HandlerRef>)>,
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
    for (call, operand, method) in ctx.method_calls() {
        let method = text(method, src);
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
            handler_refs(scope, src, call_arguments(call)[0]),
        ));
    }
    handlers
}

/// At most this many values are recorded per event handler …
const MAX_HANDLER_REFS: usize = 16;
/// … from at most this many syntax nodes, following locals this many times.
const MAX_HANDLER_NODES: usize = 400;
const MAX_HANDLER_HOPS: usize = 3;

/// The values an event handler expression mentions (`c` of `c.enqueue`, `impl` of
/// `impl.Enqueue`, the handler value itself), following a local the handler is held in
/// (`h := cache.FilteringResourceEventHandler{…}; inf.AddEventHandler(h)`).
fn handler_refs(scope: &Scope, src: &[u8], handler: Node) -> Vec<HandlerRef> {
    let mut refs: Vec<HandlerRef> = Vec::new();
    let mut pending = vec![(handler, 0)];
    let mut visited = 0;
    while let Some((node, hops)) = pending.pop() {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            visited += 1;
            if visited > MAX_HANDLER_NODES || refs.len() >= MAX_HANDLER_REFS {
                return refs;
            }
            match n.kind_name() {
                "selector_expression" => {
                    let (Some(operand), Some(field)) = (
                        n.child_by_field_id(FIELD.operand),
                        n.child_by_field_id(FIELD.field),
                    ) else {
                        continue;
                    };
                    let root = root_identifier(operand)
                        .filter(|r| scope.lookup(text(*r, src), r.start_byte()).is_some());
                    if let Some(root) = root {
                        let root = text(root, src).to_string();
                        // The value selected from (`c` of `c.enqueue`), then the selected
                        // value itself (`c.rr`, typed when it is a field).
                        push_ref(
                            &mut refs,
                            HandlerRef {
                                chain: scope.chain_of(operand, src),
                                root: root.clone(),
                                selected: Some(text(field, src).to_string()),
                            },
                        );
                        push_ref(
                            &mut refs,
                            HandlerRef {
                                chain: scope.chain_of(n, src),
                                root,
                                selected: None,
                            },
                        );
                    }
                    if operand.kind_name() != "identifier" {
                        stack.push(operand);
                    }
                }
                "identifier" => {
                    let name = text(n, src);
                    match scope.lookup(name, n.start_byte()) {
                        // A local: itself (`queue`), and what it holds (a handler literal).
                        Some(Binding::Value(value)) if hops < MAX_HANDLER_HOPS => {
                            push_ref(
                                &mut refs,
                                HandlerRef {
                                    chain: scope.chain_of(n, src),
                                    root: name.to_string(),
                                    selected: None,
                                },
                            );
                            pending.push((value, hops + 1));
                        }
                        Some(_) => push_ref(
                            &mut refs,
                            HandlerRef {
                                chain: scope.chain_of(n, src),
                                root: name.to_string(),
                                selected: None,
                            },
                        ),
                        None => {}
                    }
                }
                _ => {
                    let mut c = n.walk();
                    stack.extend(n.named_children(&mut c));
                }
            }
        }
    }
    refs
}

fn push_ref(refs: &mut Vec<HandlerRef>, r: HandlerRef) {
    if !refs.contains(&r) {
        refs.push(r);
    }
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
    for (call, operand, method) in ctx.method_calls() {
        let method = text(method, src);
        if !OBTAINING_METHODS.contains(&method) {
            continue;
        }
        let args = ctx.arguments(call);
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
            found.push((source, call.start_byte(), line, Vec::new()));
        }
    }
    via_locals.sort_by_key(|(at, ..)| *at);
    via_locals.dedup_by_key(|(at, ..)| *at);
    found.extend(
        via_locals
            .into_iter()
            .map(|(at, line, s)| (s, at, line, Vec::new())),
    );
    found.sort_by_key(|(_, at, _, _)| *at);
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
        let (names, values) = (crate::scope::list(left), crate::scope::list(right));
        for (i, name) in names.iter().enumerate() {
            let value = match values.len() {
                n if n == names.len() => values[i],
                1 if i == 0 => values[0],
                _ => continue,
            };
            let Some((owner, field)) = crate::syntax::selector(*name) else {
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
        let Some(function) = crate::syntax::callee(call) else {
            continue;
        };
        for (arg, &a) in ctx.arguments(call).iter().enumerate() {
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
    if let Some(f) = factory(node, tracer.scope, tracer.src) {
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
    crate::syntax::callee(call)?.child_by_field_id(FIELD.field)
}

/// The first result type of each method of the interfaces a type declaration declares.
pub fn collect_interface_methods(decl: Node, src: &[u8], out: &mut Vec<(String, String, TypeRef)>) {
    for (name, ty) in crate::types::type_specs(decl, "interface_type") {
        let mut c = ty.walk();
        for elem in ty.named_children(&mut c) {
            if !matches!(elem.kind_name(), "method_elem" | "method_spec") {
                continue;
            }
            let Some(method) = elem.child_by_field_id(FIELD.name) else {
                continue;
            };
            let sig = crate::types::signature(elem, src);
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

/// `X.Core().V1().Pods()` → ("CoreV1", "Pods"), and the factory `X`.
fn factory<'t>(resource_call: Node<'t>, scope: &Scope<'t>, src: &[u8]) -> Option<InformerSource> {
    let (names, root) = method_chain(resource_call, src, 3)?;
    let [group, version, resource] = [&names[0], &names[1], &names[2]];
    let version_ok =
        version.starts_with('V') && kubernetes::is_version(&version.to_ascii_lowercase());
    version_ok.then(|| InformerSource::Factory {
        root: scope.type_of(root, src, root.start_byte()),
        group_version: format!("{group}{version}"),
        resource: resource.clone(),
    })
}

/// The last `count` method names of a chain of argument-less calls, outermost last, and
/// the value the chain starts from.
fn method_chain<'t>(call: Node<'t>, src: &[u8], count: usize) -> Option<(Vec<String>, Node<'t>)> {
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
    Some((names, n))
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
