//! Controllers: `ctrl.NewControllerManagedBy(mgr)` / `builder.ControllerManagedBy(mgr)`
//! chains in all their forms — one expression, or split over statements through a variable
//! (`b := …; if x { b = b.Owns(…) }; b.Watches(…); return b.Complete(r)`) — with `For`,
//! `Owns`, `Watches` (object or `source.Kind` forms), `WatchesRawSource`, `Named`,
//! `Complete`/`Build`. Calls inside `if`/`switch`/loops are marked conditional.
//! `NewWebhookManagedBy(…).For(…)` is a webhook, never a watch.
//!
//! Controllers of other shapes, found per project through the call graph: client-go work
//! queues (`queue`, with `flow` for the function values a generic worker calls) and
//! Knative reconcilers behind a generated `NewImpl` (`knative`). Each is a `Shaped`: its
//! reconcile roots and the `HandlerOwner` that tells which event handlers feed it.

use super::syntax::FIELD;
use super::syntax::KindName;
use tree_sitter::Node;

use super::calls::{FuncId, Graph};
use super::facts::GoFile;
use super::facts::calls::Target;
use super::facts::controllers::{ControllerChain, ImplHolder, OptionsEvidence, RawWatch};
use super::index::GoInput;
use super::scope::Scope;
use super::syntax::{
    ChainRoot, FuncCtx, ObjectRef, Step, assigned_variable, chain_heads, condition_of,
    flatten_chain, line_of, object_ref, string_literal, text, with_arguments,
};
use super::types::{FuncRef, TypeRef, ValueType};
use super::values::Values;
use model::{Controller, Diagnostic, Relation, SourceRef, UNRESOLVED, Watch};

mod flow;
mod knative;
mod queue;
mod setup;

pub use queue::{WORKQUEUE, is_queue_field, is_queue_type, putters};
pub use setup::{Setup, setup_reach};

/// Records the controllers built in one function, the queues it takes work from and the
/// Knative controllers it constructs.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    let found = controllers_in_body(ctx, src, scope, &file.path, &mut file.diagnostics);
    file.controllers.extend(found);
    let made = controllers_from_options(ctx, src, scope, &file.imports);
    file.controllers.extend(made);
    queue::extract(ctx, scope, src, file);
    knative::extract(ctx, scope, src, file);
}

/// A struct type of the repository: its package's import path and its name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TypeKey {
    pub pkg: String,
    pub name: String,
}

/// `pkg.Type` with the import path's last element as the package (`server.Operator`).
fn type_name(key: &TypeKey) -> String {
    let pkg = key.pkg.rsplit('/').next().unwrap_or(&key.pkg);
    format!("{pkg}.{}", key.name)
}

/// A controller of a shape other than the builder's: the model controller (watches from
/// the shape itself only), the functions its reconciling starts from, and how to tell
/// which event handlers enqueue into it.
pub struct Shaped {
    pub controller: Controller,
    pub roots: Vec<FuncId>,
    pub owner: HandlerOwner,
    /// A generated reconciler of the repository running this controller's reconciler.
    pub bound: Option<Bound>,
    /// Listed only if some event handler feeds it (a struct draining its own queue may be
    /// a worker pool that code, not informers, fills).
    pub needs_feeder: bool,
}

/// A generated reconciler of the repository (Knative's `reconcilerImpl`) that holds the
/// controller's own reconciler in a field: followed for this controller, that field holds
/// only this reconciler's type, so calls it guards by an interface this type lacks
/// (`if _, ok := r.reconciler.(Finalizer); !ok { return }`) are not followed, nor are
/// other controllers' reconcile functions.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    pub holder: TypeKey,
    pub field: String,
    pub reconciler: TypeKey,
    /// Built with `SkipStatusUpdates`: the holder's functions updating the status are not
    /// this controller's.
    pub skips_status_updates: bool,
}

/// Which event handlers feed a controller (`informers::resolve` reads it).
#[derive(Debug, Clone, PartialEq)]
pub enum HandlerOwner {
    /// Handlers that fill this type's queue: through its queue field, a method reaching
    /// a put into it (a framework's queue only through this type's own methods), the
    /// framework value itself added in this type's method, or a work queue added in a
    /// function that builds this type.
    Types {
        key: TypeKey,
        frameworks: Vec<TypeKey>,
    },
    /// Handlers added in function `func` of file `file` that mention a value holding the
    /// controller (`impl`) or one of its fields (`c.tracker` given `impl.Tracker`).
    Impl {
        file: usize,
        func: FuncRef,
        holders: Vec<ImplHolder>,
        /// The kind `ReconcileKind` reconciles, for telling `For` from `Watches`.
        reconciled: Option<(String, String, String)>,
    },
}

/// A diagnostic for each controller of another shape with no watch: its event handlers
/// were not connected to it, so what triggers it is not listed.
pub fn say_unfed(
    controllers: &[Controller],
    owners: &[Option<HandlerOwner>],
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (c, owner) in controllers.iter().zip(owners) {
        if owner.is_some()
            && c.watches.is_empty()
            && let Some(at) = c.sources.first()
        {
            diagnostics.push(Diagnostic::new(
                &at.file,
                at.line,
                format!(
                    "controller {}: no event handler was found filling its queue, so what triggers it is not listed",
                    c.name
                ),
            ));
        }
    }
}

/// The controllers built on work queues and Knative's generated reconcilers.
pub fn resolve_shaped(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Shaped> {
    let mut out = queue::resolve(files, values, graph);
    out.extend(knative::resolve(files, values, graph, diagnostics));
    out
}

/// Resolves every controller chain of the project to model controllers.
pub fn resolve(
    files: &[GoInput],
    values: &Values,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Controller> {
    let index = values.index;
    let mut controllers = Vec::new();
    for input in files {
        let file = &input.facts;
        for chain in &file.controllers {
            if chain.options.is_some() {
                match options_controller(values, input, chain) {
                    Some(c) => controllers.push(c),
                    None if chain.options == Some(OptionsEvidence::Literal) => {
                        diagnostics.push(Diagnostic::new(
                            &file.path,
                            chain.line,
                            format!(
                                "a controller is made from these options, but the type of its reconciler `{}` cannot be followed: it is not listed",
                                chain.reconciler.as_deref().unwrap_or("?")
                            ),
                        ));
                    }
                    None => {}
                }
                continue;
            }
            let watches: Vec<Watch> = chain
                .watches
                .iter()
                .flat_map(|raw| {
                    // An object no declaration names may still be one of known values
                    // (a slice literal's elements, a variable set on branches): a watch
                    // of each kind.
                    let dir = crate::index::dir_of(&file.path);
                    let kinds = match (&raw.object, &raw.value) {
                        (ObjectRef::Unknown(_), Some(value)) => values.value_kinds(file, dir, value),
                        _ => Vec::new(),
                    };
                    if !kinds.is_empty() {
                        return kinds
                            .into_iter()
                            .map(|(group, version, kind)| Watch {
                                relation: raw.relation,
                                group,
                                version,
                                kind,
                                conditional: raw.conditional,
                                condition: raw.condition.clone(),
                                import_path: None,
                                raw_source: false,
                                sources: vec![SourceRef::new(&file.path, raw.line)],
                            })
                            .collect();
                    }
                    if let (ObjectRef::Unknown(expr), false) = (&raw.object, raw.raw_source) {
                        diagnostics.push(Diagnostic::new(
                            &file.path,
                            raw.line,
                            format!(
                                "cannot tell which kind `{}({expr}, …)` watches: the object is not a type literal",
                                raw.method
                            ),
                        ));
                    }
                    let k = index.resolve_object(file, &raw.object, raw.line, diagnostics);
                    // A raw source is named by its expression.
                    let kind = match &raw.object {
                        ObjectRef::Unknown(expr) if raw.raw_source => {
                            crate::syntax::shorten(expr, 80)
                        }
                        _ => k.kind,
                    };
                    vec![Watch {
                        relation: raw.relation,
                        group: k.group,
                        version: k.version,
                        kind,
                        conditional: raw.conditional,
                        condition: raw.condition.clone(),
                        import_path: k.import_path,
                        raw_source: raw.raw_source,
                        sources: vec![SourceRef::new(&file.path, raw.line)],
                    }]
                })
                .collect();
            // One builder run for several kinds (in a loop over a table) makes a controller
            // per kind at run time, each named after its own: none names them all.
            let mut fors = watches.iter().filter(|w| w.relation == Relation::For);
            let for_kind = match (fors.next(), fors.next()) {
                (Some(w), None) => Some(w.kind.to_lowercase()),
                _ => None,
            };
            let reconciler = declared_reconciler(values, file, chain)
                .or_else(|| chain.reconciler.clone())
                .unwrap_or_default();
            // controller-runtime names a controller after Named(…), else after its For kind.
            let name = chain
                .name
                .clone()
                .or(for_kind.filter(|k| k != UNRESOLVED))
                .unwrap_or_else(|| {
                    if reconciler.is_empty() {
                        format!("{}:{}", file.path, chain.line)
                    } else {
                        reconciler.clone()
                    }
                });
            controllers.push(Controller {
                shape: model::ControllerShape::Builder,
                entries: Vec::new(),
                conditions: Vec::new(),
                client_calls: None,
                name,
                reconciler,
                area: input.area,
                sources: vec![SourceRef::new(&file.path, chain.line)],
                watches,
                operations: Vec::new(),
                reads: Vec::new(),
            });
        }
    }
    controllers
}

/// The reconciler of a controller made without a builder: its type's package and name,
/// and where its `Reconcile` is declared. None when it has no `Reconcile` the repository
/// declares and only a field's name (`o.Reconciler = …`) said it was one.
fn options_reconciler(
    values: &Values,
    file: &GoFile,
    chain: &ControllerChain,
) -> Option<ReconcilerType> {
    let dir = super::index::dir_of(&file.path);
    let index = values.index;
    let (pkg, name) = match (&chain.reconciler_value, &chain.reconciler) {
        (Some(value), _) => {
            let (at, t) = values.declared_type(file, dir, value)?;
            (index.type_package(at, t.qualifier.as_deref())?, t.name)
        }
        (None, Some(name)) => (index.package_of(file)?.to_string(), name.clone()),
        (None, None) => return None,
    };
    let reconcile = FuncRef {
        receiver: Some(name.clone()),
        name: "Reconcile".into(),
    };
    let method = index
        .dir_of_import(&pkg)
        .and_then(|d| values.functions.get(&(d.to_string(), reconcile)));
    // controller-runtime's `Reconcile(ctx, reconcile.Request)`, not Knative's by key.
    let takes_request = method.is_some_and(|l| {
        l.signature()
            .params
            .get(1)
            .and_then(|(_, t)| t.as_ref())
            .is_some_and(|t| t.name == "Request" && !t.collection)
    });
    if !takes_request && chain.options == Some(OptionsEvidence::Field) {
        return None;
    }
    let declared =
        method.map(|l| SourceRef::new(&l.file.path, l.file.call_facts[l.facts.call_fact].line));
    Some(ReconcilerType {
        pkg,
        name,
        declared,
    })
}

struct ReconcilerType {
    pkg: String,
    name: String,
    declared: Option<SourceRef>,
}

/// A controller made without a builder: named after its reconciler's package and type (its
/// name is given at run time), found where its options are and where it reconciles.
fn options_controller(
    values: &Values,
    input: &GoInput,
    chain: &ControllerChain,
) -> Option<Controller> {
    let file = &input.facts;
    let r = options_reconciler(values, file, chain)?;
    let mut sources = vec![SourceRef::new(&file.path, chain.line)];
    sources.extend(r.declared.clone());
    Some(Controller {
        shape: model::ControllerShape::Builder,
        name: type_name(&TypeKey {
            pkg: r.pkg,
            name: r.name.clone(),
        }),
        reconciler: r.name,
        area: input.area,
        sources,
        ..Controller::default()
    })
}

/// The reconciler's type, when the value given is only known by where it comes from
/// (`r := NewReconciler(…)`) and that declares a type of the controller's own package.
fn declared_reconciler(values: &Values, file: &GoFile, chain: &ControllerChain) -> Option<String> {
    let value = chain.reconciler_value.as_ref()?;
    let (_, t) = values.declared_type(file, super::index::dir_of(&file.path), value)?;
    (t.qualifier.is_none() && !t.collection).then_some(t.name)
}

const BUILDER_CONSTRUCTORS: [&str; 3] = [
    "NewControllerManagedBy",
    "ControllerManagedBy",
    // The generic builder, `builder.TypedControllerManagedBy[reconcile.Request](mgr)`.
    "TypedControllerManagedBy",
];

/// Follows every controller builder in a function body, including chains split over
/// statements through variables (`b := …; if x { b = b.Owns(…) }; return b.Complete(r)`).
fn controllers_in_body(
    ctx: &FuncCtx,
    src: &[u8],
    scope: &Scope,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<ControllerChain> {
    let receiver_type = ctx.receiver_type.as_deref();
    let receiver_name = ctx.receiver_name.as_deref();
    let mut builders: Vec<ControllerChain> = Vec::new();
    // Variable name → index into `builders`, updated in statement order.
    let mut variables: Vec<(String, usize)> = Vec::new();
    let calls = chain_heads(&ctx.calls);
    for call in calls {
        let (root, mut steps) = flatten_chain(call, src, &BUILDER_CONSTRUCTORS);
        let index = match root {
            ChainRoot::Constructor(..) => {
                builders.push(ControllerChain {
                    line: line_of(call),
                    name: None,
                    reconciler: None,
                    reconciler_value: None,
                    map_funcs: Vec::new(),
                    watches: Vec::new(),
                    options: None,
                });
                builders.len() - 1
            }
            ChainRoot::Variable(name) => match variables.iter().rev().find(|(v, _)| *v == name) {
                Some((_, i)) => *i,
                None => continue,
            },
            ChainRoot::Other => continue,
        };
        with_arguments(&mut steps);
        // Every step of a chain is a call nested in its head, in the same statement, so they
        // share the head's condition. Asked per step, a chain of N calls (each ancestor
        // lookup walking from the root) cost N³.
        let condition = condition_of(call, ctx, src);
        for step in &steps {
            apply_step(
                &mut builders[index],
                step,
                &condition,
                src,
                receiver_type,
                receiver_name,
                scope,
                path,
                diagnostics,
            );
        }
        if let Some(var) = assigned_variable(call, src) {
            variables.push((var, index));
        }
    }
    builders
}

#[allow(clippy::too_many_arguments)]
fn apply_step(
    builder: &mut ControllerChain,
    step: &Step,
    condition: &str,
    src: &[u8],
    receiver_type: Option<&str>,
    receiver_name: Option<&str>,
    scope: &Scope,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let relation = match step.method.as_str() {
        "For" => Relation::For,
        "Owns" => Relation::Owns,
        "Watches" | "WatchesMetadata" | "WatchesRawSource" => Relation::Watches,
        "Named" => {
            match step.args.first().and_then(|a| string_literal(*a, src)) {
                Some(name) => builder.name = Some(name),
                None => diagnostics.push(Diagnostic::new(
                    path,
                    step.line,
                    format!(
                        "controller name `{}` is not a string literal; the controller is named after its reconciler",
                        step.args.first().map(|a| text(*a, src)).unwrap_or("")
                    ),
                )),
            }
            return;
        }
        "Complete" | "Build" => {
            if let Some(a) = step.args.first() {
                let (name, value) = reconciler_name(*a, src, receiver_type, receiver_name, scope);
                builder.reconciler = Some(name);
                builder.reconciler_value = value;
            }
            return;
        }
        _ => return,
    };
    let Some(first) = step.args.first() else {
        diagnostics.push(Diagnostic::new(
            path,
            step.line,
            format!("`{}` without arguments", step.method),
        ));
        return;
    };
    let object_node = if step.method == "WatchesRawSource" || is_source_kind(*first, src) {
        source_kind_object_node(*first, src)
    } else {
        Some(*first)
    };
    // A raw source that is not a kind's (`source.Channel(…)`, a cluster cache's source):
    // what it delivers is up to its code.
    let raw_source = step.method == "WatchesRawSource" && object_node.is_none();
    let object = match object_node {
        // A literal, or a variable whose declaration names its type: `pod := &corev1.Pod{}`.
        Some(node) => scope.object_of(node, src, true),
        None => ObjectRef::Unknown(text(*first, src).to_string()),
    };
    if raw_source {
        diagnostics.push(Diagnostic::new(
            path,
            step.line,
            format!(
                "`WatchesRawSource({})` watches a raw source, not a kind's: the events it delivers are chosen by its code, so it is listed as a raw source",
                text(*first, src)
            ),
        ));
    }
    let value = match (&object, object_node) {
        (ObjectRef::Unknown(_), Some(node)) if !raw_source => {
            Some(scope.type_of(node, src, node.start_byte()))
        }
        _ => None,
    };
    builder.watches.push(RawWatch {
        relation,
        object,
        value,
        method: step.method.clone(),
        conditional: !condition.is_empty(),
        condition: condition.to_string(),
        raw_source,
        line: step.line,
    });
    builder.map_funcs.extend(map_funcs(&step.args, scope, src));
}

/// controller-runtime's handlers that enqueue what a function maps an event to.
const MAP_FUNC_HANDLERS: [&str; 2] = [
    "EnqueueRequestsFromMapFunc",
    "TypedEnqueueRequestsFromMapFunc",
];

/// A watch's arguments are searched this many nodes deep for map functions.
const MAX_MAP_FUNC_NODES: usize = 200;

/// The functions a watch's handler maps events through (`EnqueueRequestsFromMapFunc(f)`).
fn map_funcs(args: &[Node], scope: &Scope, src: &[u8]) -> Vec<Target> {
    let mut out = Vec::new();
    let mut stack: Vec<Node> = args.to_vec();
    let mut seen = 0;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > MAX_MAP_FUNC_NODES {
            break;
        }
        if n.kind_name() == "call_expression"
            && let Some(f) = crate::syntax::callee(n)
        {
            let name = match f.kind_name() {
                "selector_expression" => f.child_by_field_id(FIELD.field).map(|x| text(x, src)),
                "identifier" => Some(text(f, src)),
                _ => None,
            };
            if name.is_some_and(|m| MAP_FUNC_HANDLERS.contains(&m))
                && let Some(&func) = crate::syntax::call_arguments(n).first()
                // A map function a builder returns (`mapFor(c, row)`): the builder, whose
                // body holds the function literal it returns.
                && let Some(func) = match func.kind_name() {
                    "call_expression" => crate::syntax::callee(func),
                    _ => Some(func),
                }
                // Without the imports: a standard-library function is simply not followed.
                && let Some(target) = crate::calls::target_of(func, scope, src, &[])
            {
                out.push(target);
                continue;
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

/// Per controller `resolve` gives (in its order), the functions its reconciling starts
/// from when its watches map events through functions: its reconciler's `Reconcile` and
/// those map functions; None for the others (their `Reconcile` alone).
pub fn builder_roots(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
) -> Vec<Option<Vec<FuncId>>> {
    let mut out = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for chain in &file.controllers {
            if chain.options.is_some() {
                // Its reconciler may be of another package: its `Reconcile` is the root.
                if let Some(r) = options_reconciler(values, file, chain) {
                    out.push(Some(graph.methods_of(&r.pkg, &r.name, "Reconcile")));
                }
                continue;
            }
            if chain.map_funcs.is_empty() {
                out.push(None);
                continue;
            }
            let mut roots = Vec::new();
            let reconciler =
                declared_reconciler(values, file, chain).or_else(|| chain.reconciler.clone());
            if let (Some(pkg), Some(r)) = (values.index.package_of(file), reconciler) {
                roots.extend(graph.methods_of(pkg, &r, "Reconcile"));
            }
            if roots.is_empty() {
                // No `Reconcile` to start from: the controller's reach stays unknown.
                out.push(None);
                continue;
            }
            for t in &chain.map_funcs {
                roots.extend(graph.resolve(fi, t));
            }
            roots.sort_unstable();
            roots.dedup();
            out.push(Some(roots));
        }
    }
    out
}

/// `source.Kind(…)` or the generic `source.TypedKind(…)`, type arguments given or not.
fn is_source_kind(node: Node, src: &[u8]) -> bool {
    node.kind_name() == "call_expression"
        && crate::syntax::callee(node).is_some_and(|f| {
            f.kind_name() == "selector_expression"
                && f.child_by_field_id(FIELD.field)
                    .is_some_and(|m| matches!(text(m, src), "Kind" | "TypedKind"))
        })
}

/// The object argument of `source.Kind(cache, &T{}, …)`.
fn source_kind_object_node<'t>(node: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    if is_source_kind(node, src) {
        node.child_by_field_id(FIELD.arguments)?.named_child(1)
    } else {
        None
    }
}

/// controller-runtime's controller package, whose `Options` (and `TypedOptions`) given a
/// `Reconciler` make a controller without a builder (`controller.New(name, mgr, o)`).
const CONTROLLER_PACKAGE: &str = "sigs.k8s.io/controller-runtime/pkg/controller";

/// controller-runtime's `controller.Options` or `controller.TypedOptions`.
fn is_options_type(ty: &TypeRef, imports: &[super::facts::Import]) -> bool {
    matches!(ty.name.as_str(), "Options" | "TypedOptions")
        && !ty.collection
        && ty
            .qualifier
            .as_deref()
            .is_some_and(|q| super::calls::names_import(imports, q, CONTROLLER_PACKAGE))
}

/// Controllers made without a builder in one function: `controller.Options{Reconciler: r}`,
/// and `o.Reconciler = r` on a value that is not one of this package's structs (options a
/// library made, `o := opts.ForControllerRuntime()`).
fn controllers_from_options(
    ctx: &FuncCtx,
    src: &[u8],
    scope: &Scope,
    imports: &[super::facts::Import],
) -> Vec<ControllerChain> {
    let receiver_type = ctx.receiver_type.as_deref();
    let receiver_name = ctx.receiver_name.as_deref();
    let chain = |line: u32, reconciler: Node, evidence: OptionsEvidence| {
        let (name, value) = reconciler_name(reconciler, src, receiver_type, receiver_name, scope);
        ControllerChain {
            line,
            name: None,
            reconciler: Some(name),
            reconciler_value: value,
            watches: Vec::new(),
            map_funcs: Vec::new(),
            options: Some(evidence),
        }
    };
    let mut out = Vec::new();
    for &n in &ctx.nodes {
        if n.kind_name() != "composite_literal" {
            continue;
        }
        // Most literals are of other types: theirs is not parsed.
        let (Some(ty), Some(body)) = (
            n.child_by_field_id(FIELD.ty)
                .filter(|t| text(*t, src).ends_with("Options"))
                .and_then(|t| super::types::type_ref(t, src)),
            n.child_by_field_id(FIELD.body),
        ) else {
            continue;
        };
        if !is_options_type(&ty, imports) {
            continue;
        }
        if let Some((_, r)) = super::syntax::keyed_elements(body)
            .into_iter()
            .find(|(k, _)| text(*k, src) == "Reconciler")
        {
            out.push(chain(line_of(n), r, OptionsEvidence::Literal));
        }
    }
    for (left, right) in super::syntax::first_assignments(ctx) {
        let Some((operand, field)) = super::syntax::selector(left) else {
            continue;
        };
        if text(field, src) != "Reconciler"
            || operand.kind_name() != "identifier"
            || Some(text(operand, src)) == receiver_name
        {
            continue;
        }
        // A value whose type is written (one of this package's structs, Knative's
        // `*controller.Impl`) is a controller's options only when that type is.
        let declared = match scope.type_of(operand, src, operand.start_byte()) {
            ValueType::Type(t) | ValueType::Param { ty: Some(t), .. } => Some(t),
            ValueType::Elem(inner) => match *inner {
                ValueType::Type(t) | ValueType::Param { ty: Some(t), .. } => Some(t),
                _ => None,
            },
            _ => None,
        };
        if declared.is_none_or(|t| is_options_type(&t, imports)) {
            out.push(chain(line_of(left), right, OptionsEvidence::Field));
        }
    }
    out
}

/// The reconciler type a builder completes with, by name, or its expression as written
/// with its value to resolve per project. A call of another package's function wraps the
/// reconciler it is given (`errors.WithSilentRequeueOnConflict(r)`,
/// `core.WithLeadingManager(mgr, r, &T{}, cfg)`): the reconciler is the receiver when it
/// is among the arguments, else the one argument of the controller's own package's types.
/// A function of the same package wraps the receiver when given it
/// (`WithLeadingManager(mgr, r, &T{}, cfg)` in `r`'s own method), and nothing else.
fn reconciler_name(
    arg: Node,
    src: &[u8],
    receiver_type: Option<&str>,
    receiver_name: Option<&str>,
    scope: &Scope,
) -> (String, Option<ValueType>) {
    // A value of the controller's own package: the receiver, a local type, a local
    // function's result.
    let own = |n: Node| {
        Some(text(n, src)) == receiver_name
            || matches!(
                object_ref(n, src),
                ObjectRef::Type {
                    qualifier: None,
                    ..
                }
            )
            || matches!(
                scope.type_of(n, src, n.start_byte()),
                ValueType::Type(TypeRef {
                    qualifier: None,
                    collection: false,
                    ..
                }) | ValueType::Result { .. }
            )
    };
    let mut n = arg;
    for _ in 0..MAX_WRAPPERS {
        // Another package's function, or one of this package (which wraps only the
        // receiver: given other values it may as well be their reconciler's constructor).
        let (args, foreign) = match wrapper_arguments(n, src, scope) {
            Some(args) => (args, true),
            None => match own_function_arguments(n, src, scope) {
                Some(args) => (args, false),
                None => break,
            },
        };
        let mine: Vec<Node> = match args.iter().find(|a| Some(text(**a, src)) == receiver_name) {
            Some(r) => vec![*r],
            None if !foreign => break,
            // A wrapper of one value wraps that one, of whatever package, unless it is a
            // method's result (`NewReconciler(mgr.GetClient())` is the reconciler).
            None if args.len() == 1 && !is_method_call(args[0], src, scope) => args.clone(),
            None => args.iter().copied().filter(|a| own(*a)).collect(),
        };
        match mine.as_slice() {
            [one] => n = *one,
            _ => break,
        }
    }
    let expr = text(n, src);
    if Some(expr) == receiver_name
        && let Some(ty) = receiver_type
    {
        return (ty.to_string(), None);
    }
    match object_ref(n, src) {
        ObjectRef::Type { name, .. } => (name, None),
        // `reconciler := &fooReconciler{…}; …Complete(reconciler)`
        ObjectRef::Unknown(expr) => match scope.type_of(n, src, n.start_byte()) {
            ValueType::Type(t) if t.qualifier.is_none() && !t.collection => (t.name, None),
            ValueType::Unknown(_) => (expr, None),
            value => (expr, Some(value)),
        },
    }
}

/// `v.M(…)` on a local value or parameter.
fn is_method_call(n: Node, src: &[u8], scope: &Scope) -> bool {
    n.kind_name() == "call_expression"
        && crate::syntax::callee(n).is_some_and(|f| {
            f.kind_name() == "selector_expression"
                && crate::syntax::root_identifier(f)
                    .is_some_and(|r| scope.lookup(text(r, src), r.start_byte()).is_some())
        })
}

/// The arguments of `F(…)`, a call of a function of the same package (a name no local
/// binds).
fn own_function_arguments<'t>(n: Node<'t>, src: &[u8], scope: &Scope<'t>) -> Option<Vec<Node<'t>>> {
    let f = crate::syntax::callee(n).filter(|_| n.kind_name() == "call_expression")?;
    (f.kind_name() == "identifier" && scope.lookup(text(f, src), f.start_byte()).is_none())
        .then(|| crate::syntax::call_arguments(n))
}

/// Wrappers are looked through this many deep.
const MAX_WRAPPERS: usize = 3;

/// The arguments of `pkg.Wrap(…)`, a call of another package's function.
fn wrapper_arguments<'t>(n: Node<'t>, src: &[u8], scope: &Scope<'t>) -> Option<Vec<Node<'t>>> {
    if n.kind_name() != "call_expression" {
        return None;
    }
    let (operand, _) = crate::syntax::selector_callee(n)?;
    let is_package = operand.kind_name() == "identifier"
        && scope
            .lookup(text(operand, src), operand.start_byte())
            .is_none();
    is_package.then(|| crate::syntax::call_arguments(n))
}

#[cfg(test)]
mod tests;
