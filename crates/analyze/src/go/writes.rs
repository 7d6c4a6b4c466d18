//! Client writes ("Programmatic Resource Operations"): create, update, patch, delete,
//! delete_all_of, status_update, status_patch, create_or_update, create_or_patch, apply —
//! through controller-runtime's client, `controllerutil`, and typed clientsets.
//!
//! A call counts only when its receiver is shown to be a client (a parameter, variable or
//! field typed `client.Client`/`Writer`/…, a reconciler embedding one, `mgr.GetClient()`, or
//! a typed clientset accessor chain), never by method name alone. The object's kind comes
//! from local declarations, parameters, composite literals, struct fields, `range` variables
//! and same-package function results; writes through helpers whose object is a parameter
//! (`func create[T client.Object](…, obj T)`) are reported at the helpers' same-package call
//! sites with the argument's kind. Each write is attributed to every controller whose
//! `Reconcile` reaches it through the call graph, else to its package; an object that is
//! still a parameter gets its kind per controller from the arguments on that controller's
//! call paths (`calls::Graph::argument_flow`). Unknown kind: `?` and a diagnostic.

use super::syntax::FIELD;
use super::syntax::KindName;
use std::collections::HashSet;

use tree_sitter::Node;

use super::calls::{Found, FuncId, Graph, Paths};
use super::facts::GoFile;
use super::facts::calls::SamePackageArgs;
use super::facts::writes::{ClientRef, FuncFacts, RawWrite, WriteObject};
use super::index::dir_of;
use super::scope::{Scope, clientset_accessor};
use super::syntax::{FuncCtx, call_arguments, condition_of, line_of, method_of, text};
use super::types::{FuncRef, TypeRef, ValueType};
use super::values::{Located, Values, describe};
use model::{CallStep, Controller, Diagnostic, Operation, PackageOperation, SourceRef, UNRESOLVED};

/// True for the verbs of reads.
pub fn is_read(verb: &str) -> bool {
    matches!(verb, "get" | "list" | "watch")
}

const CLIENT_PACKAGE: &str = "sigs.k8s.io/controller-runtime/pkg/client";
const CLIENT_TYPES: [&str; 8] = [
    "Client",
    "Writer",
    "Reader",
    "WithWatch",
    "StatusWriter",
    "SubResourceWriter",
    // `c.Status()` / `c.SubResource("status")` of these are status writers.
    "StatusClient",
    "SubResourceClientConstructor",
];
const CONTROLLERUTIL: &str = "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil";
/// controller-runtime's root package re-exports `CreateOrUpdate` (`ctrl.CreateOrUpdate`).
const CONTROLLER_RUNTIME: &str = "sigs.k8s.io/controller-runtime";

/// Patch helpers of other projects whose `Patch(ctx, obj, …)` writes `obj` (object and
/// status) through the client they were made with: (import path, type, constructor).
const PATCHERS: &[(&str, &str, &str)] = &[
    (
        "github.com/fluxcd/pkg/runtime/patch",
        "SerialPatcher",
        "NewSerialPatcher",
    ),
    ("github.com/fluxcd/pkg/runtime/patch", "Helper", "NewHelper"),
    ("sigs.k8s.io/cluster-api/util/patch", "Helper", "NewHelper"),
];

/// Records the candidate writes and reads of one function.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    let mut writes = Vec::new();
    let generated = file.generated;
    for &call in &ctx.calls {
        let Some((operand, method)) = method_of(call, src) else {
            continue;
        };
        // Most calls are of other methods: they are passed over before any other work.
        if typed_verb(method).is_none()
            && !matches!(method, "CreateOrUpdate" | "CreateOrPatch" | "DeleteAllOf")
        {
            continue;
        }
        let args = call_arguments(call);
        // Reads in generated clientsets and informers are their plumbing. A call is at most
        // one of these: a receiver is not both kinds of client.
        let mut candidates: Vec<RawWrite> =
            write_call(call, operand, method, &args, ctx, scope, src)
                .into_iter()
                .collect();
        if clientset_accessor(operand, src).is_none() {
            candidates.extend(typed_value_calls(call, &args, ctx, scope, src));
        }
        for w in candidates {
            if !(generated && is_read(w.verb)) {
                writes.push(w);
            }
        }
    }
    file.functions.push(FuncFacts {
        func: FuncRef {
            receiver: ctx.receiver_type.clone(),
            name: ctx.name.clone(),
        },
        writes,
        call_fact: 0,
    });
}

fn write_call<'t>(
    call: Node<'t>,
    operand: Node<'t>,
    method: &str,
    args: &[Node<'t>],
    ctx: &FuncCtx,
    scope: &Scope,
    src: &[u8],
) -> Option<RawWrite> {
    let at = call.start_byte();
    let line = method_line(call);
    // controllerutil.CreateOrUpdate(ctx, c, obj, mutate)
    if matches!(method, "CreateOrUpdate" | "CreateOrPatch")
        && operand.kind_name() == "identifier"
        && args.len() >= 3
    {
        let verb = if method == "CreateOrUpdate" {
            "create_or_update"
        } else {
            "create_or_patch"
        };
        return Some(RawWrite {
            verb,
            object: WriteObject::Value(scope.type_of(args[2], src, at)),
            client: ClientRef::ControllerUtil(text(operand, src).to_string()),
            line,
            condition: condition_of(call, ctx.body, src),
        });
    }
    // Typed clientsets: cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
    if let Some((group_version, resource)) = clientset_accessor(operand, src) {
        let verb = typed_verb(method)?;
        let object = typed_object(method, args, scope, src, at);
        return Some(RawWrite {
            verb,
            object: WriteObject::Clientset {
                group_version,
                resource,
                object,
            },
            client: ClientRef::Clientset,
            line,
            condition: condition_of(call, ctx.body, src),
        });
    }
    let (verb, client_node) = match method {
        "Create" | "Update" | "Patch" | "Delete" | "DeleteAllOf" => {
            // `c.Status().Update(…)` / `c.SubResource("status").Patch(…)`
            if let Some(inner) = status_writer_of(operand, src) {
                match method {
                    "Update" => ("status_update", inner),
                    "Patch" => ("status_patch", inner),
                    _ => return None,
                }
            } else {
                let verb = match method {
                    "Create" => "create",
                    "Update" => "update",
                    "Patch"
                        if args
                            .get(2)
                            .is_some_and(|a| text(*a, src).ends_with(".Apply")) =>
                    {
                        "apply"
                    }
                    "Patch" => "patch",
                    "Delete" => "delete",
                    _ => "delete_all_of",
                };
                (verb, operand)
            }
        }
        // Reads: `c.Get(ctx, key, obj)`, `c.List(ctx, list, opts…)`.
        "Get" if args.len() >= 3 => ("get", operand),
        "List" => ("list", operand),
        _ => return None,
    };
    if args.len() < 2 {
        return None;
    }
    let client = client_ref(client_node, ctx, scope, src, at)?;
    let object = if verb == "get" { args[2] } else { args[1] };
    Some(RawWrite {
        verb,
        object: WriteObject::Value(scope.type_of(object, src, at)),
        client,
        line,
        condition: condition_of(call, ctx.body, src),
    })
}

/// The verb of a method of a client-gen typed client.
fn typed_verb(method: &str) -> Option<&'static str> {
    Some(match method {
        "Create" => "create",
        "Update" => "update",
        "UpdateStatus" => "status_update",
        "Patch" => "patch",
        "Apply" => "apply",
        "ApplyStatus" => "status_patch",
        "Delete" => "delete",
        "DeleteCollection" => "delete_all_of",
        "Get" => "get",
        "List" => "list",
        "Watch" => "watch",
        _ => return None,
    })
}

/// The object a typed client's method takes (`Create(ctx, obj, opts)`), if it takes one.
fn typed_object(
    method: &str,
    args: &[Node],
    scope: &Scope,
    src: &[u8],
    at: usize,
) -> Option<ValueType> {
    match method {
        "Create" | "Update" | "UpdateStatus" => args.get(1).map(|a| scope.type_of(*a, src, at)),
        _ => None,
    }
}

/// Calls that write or read if their receiver turns out to be a client-gen typed client
/// held in a value: `x.Delete(ctx, name, opts)` (a resource interface, or a local assigned
/// a clientset chain), `r.secretsIn(ns).Delete(…)` (a function's result), or
/// `x.Secrets(ns).Create(ctx, obj, opts)` (a group-version client or getter). Whether one
/// is, is only known per project from the value's type; a receiver is at most one of them.
fn typed_value_calls(
    call: Node,
    args: &[Node],
    ctx: &FuncCtx,
    scope: &Scope,
    src: &[u8],
) -> Vec<RawWrite> {
    let Some((operand, method)) = call.child_by_field_id(FIELD.function).and_then(|f| {
        Some((
            f.child_by_field_id(FIELD.operand)?,
            f.child_by_field_id(FIELD.field)?,
        ))
    }) else {
        return Vec::new();
    };
    // Every typed client method takes a context and at least one more argument.
    let (Some(verb), true) = (typed_verb(text(method, src)), args.len() >= 2) else {
        return Vec::new();
    };
    let line = method_line(call);
    let mut receivers = Vec::new();
    match operand.kind_name() {
        "identifier" | "selector_expression" => receivers.push((operand, None)),
        "call_expression" => {
            receivers.push((operand, None));
            if let Some(f) = operand
                .child_by_field_id(FIELD.function)
                .filter(|f| f.kind_name() == "selector_expression")
                && let (Some(value), Some(name)) = (
                    f.child_by_field_id(FIELD.operand),
                    f.child_by_field_id(FIELD.field).map(|n| text(n, src)),
                )
                && name.starts_with(|c: char| c.is_ascii_uppercase())
            {
                receivers.push((value, Some(name.to_string())));
            }
        }
        _ => {}
    }
    let at = call.start_byte();
    receivers
        .into_iter()
        .map(|(value, accessor)| (scope.type_of(value, src, at), accessor))
        .filter(|(receiver, _)| !matches!(receiver, ValueType::Unknown(_)))
        .map(|(receiver, accessor)| RawWrite {
            verb,
            object: WriteObject::Typed {
                receiver,
                accessor,
                object: typed_object(text(method, src), args, scope, src, at),
            },
            client: ClientRef::TypedValue,
            line,
            condition: condition_of(call, ctx.body, src),
        })
        .collect()
}

/// The line of a method call's name (a chain split over lines reports its last method).
fn method_line(call: Node) -> u32 {
    call.child_by_field_id(FIELD.function)
        .and_then(|f| f.child_by_field_id(FIELD.field))
        .map(line_of)
        .unwrap_or(line_of(call))
}

/// The client in `X.Status()` or `X.SubResource("status")`.
fn status_writer_of<'t>(operand: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    if operand.kind_name() != "call_expression" {
        return None;
    }
    let f = operand.child_by_field_id(FIELD.function)?;
    if f.kind_name() != "selector_expression" {
        return None;
    }
    let name = text(f.child_by_field_id(FIELD.field)?, src);
    let is_status = name == "Status"
        || (name == "SubResource"
            && operand
                .child_by_field_id(FIELD.arguments)
                .and_then(|a| a.named_child(0))
                .is_some_and(|a| text(a, src) == "\"status\""));
    if is_status {
        f.child_by_field_id(FIELD.operand)
    } else {
        None
    }
}

/// Evidence that `node` is a controller-runtime client, or None.
fn client_ref(
    node: Node,
    ctx: &FuncCtx,
    scope: &Scope,
    src: &[u8],
    at: usize,
) -> Option<ClientRef> {
    match node.kind_name() {
        "identifier" => {
            if Some(text(node, src)) == ctx.receiver_name.as_deref() {
                return ctx.receiver_type.clone().map(ClientRef::Embedded);
            }
            match scope.type_of(node, src, at) {
                ValueType::Type(t) | ValueType::Param { ty: Some(t), .. } => {
                    Some(ClientRef::Typed(t))
                }
                ValueType::ForeignResult {
                    qualifier,
                    name,
                    index: 0,
                } => Some(ClientRef::Constructed { qualifier, name }),
                _ => None,
            }
        }
        "selector_expression" => {
            let operand = node.child_by_field_id(FIELD.operand)?;
            let field = text(node.child_by_field_id(FIELD.field)?, src).to_string();
            if operand.kind_name() == "identifier"
                && Some(text(operand, src)) == ctx.receiver_name.as_deref()
            {
                return Some(ClientRef::Field {
                    owner: ctx.receiver_type.clone()?,
                    field,
                });
            }
            match scope.type_of(operand, src, at) {
                ValueType::Type(t) | ValueType::Param { ty: Some(t), .. }
                    if t.qualifier.is_none() =>
                {
                    Some(ClientRef::Field {
                        owner: t.name,
                        field,
                    })
                }
                _ => None,
            }
        }
        "call_expression" => {
            let f = node.child_by_field_id(FIELD.function)?;
            (f.kind_name() == "selector_expression"
                && f.child_by_field_id(FIELD.field)
                    .is_some_and(|x| matches!(text(x, src), "GetClient" | "GetAPIReader")))
            .then_some(ClientRef::Known)
        }
        _ => None,
    }
}

// ---- resolution ---------------------------------------------------------------------

/// Resolved writes of the project: attributed to controllers, or to packages.
pub struct Writes {
    pub package_operations: Vec<PackageOperation>,
}

/// A controller's `Reconcile` is followed at most this many calls deep …
const MAX_CALL_DEPTH: usize = 32;
/// … and through at most this many functions.
const MAX_REACHED: usize = 50_000;

/// Resolves every write and read, attributes each to the controllers whose `Reconcile`
/// reaches it (through calls across the repository's packages, `calls::Graph`), with the
/// call path, and fills `controllers[].operations` and `reads`. Writes no controller
/// reaches are listed per package; reads no controller reaches are not listed.
pub fn resolve(
    values: &Values,
    graph: &Graph,
    reach: &[Option<Paths>],
    controllers: &mut [Controller],
    diagnostics: &mut Vec<Diagnostic>,
) -> Writes {
    let index = values.index;
    let functions = &values.functions;
    let resolver = Resolver { values, graph };
    // Every write and read, at the line it is reported, with the function it belongs to.
    let mut resolved: Vec<(&str, Row)> = Vec::new();
    let mut ordered: Vec<_> = functions.iter().collect();
    ordered.sort_by_key(|(_, loc)| (loc.fi, loc.facts.call_fact));
    for ((dir, func), loc) in ordered {
        for w in &loc.facts.writes {
            if !resolver.is_client(loc.file, dir, w) {
                continue;
            }
            for row in resolver.operations(loc, dir, func, w, diagnostics) {
                resolved.push((dir, row));
            }
        }
    }
    // The call graph node each row is reported in, looked up once for every controller.
    let nodes: Vec<Option<FuncId>> = resolved
        .iter()
        .map(|(d, row)| values.node_of(d, row.func))
        .collect();
    let mut attributed: HashSet<usize> = HashSet::new();
    let mut told = HashSet::new();
    for (controller, paths) in controllers.iter_mut().zip(reach) {
        let Some(paths) = paths else { continue };
        for (i, (_, row)) in resolved.iter().enumerate() {
            let Some(node) = nodes[i] else {
                continue;
            };
            if !paths.contains(graph, node) {
                continue;
            }
            let ops = match &row.pending {
                None => {
                    let mut op = row.op.clone();
                    op.via = call_path(graph, paths, node);
                    vec![op]
                }
                Some((param, unknown)) => {
                    let flow = ArgumentFlow {
                        values,
                        graph,
                        paths,
                    };
                    let (ops, diags) = flow.rows(node, *param, &row.op, unknown);
                    for d in diags {
                        if told.insert((d.file.clone(), d.line, d.message.clone())) {
                            diagnostics.push(d);
                        }
                    }
                    ops
                }
            };
            for op in ops {
                if is_read(&op.verb) {
                    controller.reads.push(op);
                } else {
                    controller.operations.push(op);
                }
            }
            attributed.insert(i);
        }
        sort_operations(&mut controller.operations);
        sort_operations(&mut controller.reads);
    }
    let mut package_operations = Vec::new();
    for (i, (dir, row)) in resolved.into_iter().enumerate() {
        let Row { op, func, pending } = row;
        if attributed.contains(&i) {
            continue;
        }
        if let Some((_, unknown)) = pending {
            diagnostics.push(unknown);
        }
        if is_read(&op.verb) {
            continue;
        }
        let key = (dir.to_string(), func.clone());
        let area = functions.get(&key).map(|l| l.area).unwrap_or_default();
        let package = functions
            .get(&key)
            .and_then(|l| index.package_of(l.file).map(str::to_string))
            .unwrap_or_else(|| dir.to_string());
        package_operations.push(PackageOperation {
            package,
            function: match &func.receiver {
                Some(r) => format!("{r}.{}", func.name),
                None => func.name.clone(),
            },
            verb: op.verb,
            group: op.group,
            version: op.version,
            kind: op.kind,
            area,
            sources: op.sources,
        });
    }
    package_operations
        .sort_by(|a, b| (&a.package, &a.sources, &a.verb).cmp(&(&b.package, &b.sources, &b.verb)));
    Writes { package_operations }
}

/// For each controller, what its `Reconcile` reaches through the call graph (None when its
/// reconciler type or its `Reconcile` is not found), with a diagnostic where the walk was
/// cut short.
pub fn controller_reach(
    values: &Values,
    graph: &Graph,
    controllers: &[Controller],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Option<Paths>> {
    controllers
        .iter()
        .map(|controller| {
            let src = controller.sources.first()?;
            if controller.reconciler.is_empty() {
                return None;
            }
            let roots = reconcile_roots(values, graph, &src.file, &controller.reconciler);
            if roots.is_empty() {
                return None;
            }
            let paths = graph.paths_from(&roots, MAX_CALL_DEPTH, MAX_REACHED);
            if let Some(cut) = &paths.cut {
                diagnostics.push(Diagnostic::new(
                    &src.file,
                    src.line,
                    format!(
                        "the calls from {}.Reconcile were followed only as far as {cut}: writes, reads and informers further away are not attributed to controller {}",
                        controller.reconciler, controller.name
                    ),
                ));
            }
            Some(paths)
        })
        .collect()
}

/// The call path from a controller's `Reconcile` to `node`, for the model.
pub fn call_path(graph: &Graph, paths: &Paths, node: FuncId) -> Vec<CallStep> {
    graph
        .path_to(paths, node)
        .into_iter()
        .map(|(callee, caller_file, line)| CallStep {
            function: graph.display(callee),
            file: graph.file_path(caller_file).to_string(),
            line,
        })
        .collect()
}

/// The `Reconcile` methods a controller's reconciler type has (its own or promoted from an
/// embedded struct), as call graph nodes.
fn reconcile_roots(values: &Values, graph: &Graph, file: &str, reconciler: &str) -> Vec<FuncId> {
    let Some(facts) = values
        .index
        .files
        .iter()
        .find(|f| f.facts.path == file)
        .map(|f| &f.facts)
    else {
        return Vec::new();
    };
    let Some(pkg) = values.index.package_of(facts) else {
        return Vec::new();
    };
    graph.methods_of(pkg, reconciler, "Reconcile")
}

fn sort_operations(ops: &mut Vec<Operation>) {
    ops.sort_by(|a, b| (&a.sources, &a.verb, &a.kind).cmp(&(&b.sources, &b.verb, &b.kind)));
    ops.dedup();
}

/// One resolved write or read, before it is attributed.
struct Row<'a> {
    op: Operation,
    /// The function it is reported in.
    func: &'a FuncRef,
    /// When the object is this function's parameter of unknown kind: its position, and the
    /// diagnostic to give if no call path tells the kind.
    pending: Option<(usize, Diagnostic)>,
}

impl<'a> Row<'a> {
    fn new(op: Operation, func: &'a FuncRef) -> Self {
        Row {
            op,
            func,
            pending: None,
        }
    }
}

/// A helper's parameter is followed this many calls up a controller's call paths …
const MAX_ARG_DEPTH: usize = 8;
/// … to at most this many places its value comes from.
const MAX_ARG_SOURCES: usize = 64;

/// The kinds a helper's parameter has on the call paths of one controller.
struct ArgumentFlow<'v, 'a, 'b, 'g> {
    values: &'v Values<'a, 'b>,
    graph: &'g Graph<'g>,
    paths: &'g Paths,
}

impl ArgumentFlow<'_, '_, '_, '_> {
    fn kind_of(&self, fi: usize, t: &TypeRef) -> Option<(String, String, String)> {
        if t.collection {
            return None;
        }
        let t = TypeRef {
            qualifier: t.qualifier.clone(),
            name: t.name.clone(),
            collection: false,
        };
        self.values.type_kind(self.graph.file(fi), &t)
    }

    /// The rows of a write or read (`op`) whose object is parameter `param` of `node`: one
    /// per kind the arguments on the controller's call paths give (`Graph::argument_flow`),
    /// each with the call path that gives it; and one of unknown kind, with diagnostics
    /// saying why, if some path gives none.
    fn rows(
        &self,
        node: FuncId,
        param: usize,
        op: &Operation,
        unknown: &Diagnostic,
    ) -> (Vec<Operation>, Vec<Diagnostic>) {
        let graph = self.graph;
        let sources = graph.argument_flow(
            self.paths,
            node,
            param,
            |fi, t| self.kind_of(fi, t).is_some(),
            MAX_ARG_DEPTH,
            MAX_ARG_SOURCES,
        );
        let mut ops: Vec<Operation> = Vec::new();
        let mut diags = Vec::new();
        let mut unresolved = None;
        for source in sources {
            let mut via = match source.calls.first() {
                Some(top) => call_path(graph, self.paths, top.caller),
                None => call_path(graph, self.paths, node),
            };
            via.extend(source.calls.iter().map(|c| CallStep {
                function: graph.display(c.callee),
                file: graph.file_path(c.caller.0).to_string(),
                line: c.line,
            }));
            let reason = match &source.found {
                Found::Type(fi, t) => match self.kind_of(*fi, t) {
                    Some((group, version, kind)) => {
                        let kind = item_kind(&op.verb, kind);
                        let known = ops
                            .iter()
                            .any(|o| (&o.group, &o.version, &o.kind) == (&group, &version, &kind));
                        if !known {
                            ops.push(Operation {
                                group,
                                version,
                                kind,
                                via,
                                ..op.clone()
                            });
                        }
                        continue;
                    }
                    None => format!(
                        "the argument given is of type {}{}, which is not a known API type",
                        if t.collection { "[]" } else { "" },
                        match &t.qualifier {
                            Some(q) => format!("{q}.{}", t.name),
                            None => t.name.clone(),
                        }
                    ),
                },
                Found::Unknown(reason) => reason.clone(),
            };
            diags.push(match source.calls.first() {
                Some(top) => Diagnostic::new(
                    graph.file_path(top.caller.0),
                    top.line,
                    format!(
                        "cannot tell the kind of the object the {} at {}:{} {} through this call: {reason}",
                        op.verb,
                        unknown.file,
                        unknown.line,
                        if is_read(&op.verb) { "reads" } else { "writes" },
                    ),
                ),
                None => Diagnostic::new(
                    &unknown.file,
                    unknown.line,
                    format!("{}: {reason}", unknown.message),
                ),
            });
            unresolved.get_or_insert(Operation { via, ..op.clone() });
        }
        ops.extend(unresolved);
        if ops.is_empty() {
            diags.push(unknown.clone());
            ops.push(Operation {
                via: call_path(graph, self.paths, node),
                ..op.clone()
            });
        }
        (ops, diags)
    }
}

/// A list's object is the list type: the kind read is its item's (`PodList` → `Pod`).
fn item_kind(verb: &str, kind: String) -> String {
    match kind.strip_suffix("List") {
        Some(item) if verb == "list" && !item.is_empty() => item.to_string(),
        _ => kind,
    }
}

/// Where else a type parameter's type shows at a call site (see `same_type_arguments`).
#[derive(Default)]
struct SameType {
    type_param: Option<usize>,
    params: Vec<usize>,
}

struct Resolver<'a, 'b> {
    values: &'b Values<'a, 'b>,
    graph: &'b Graph<'b>,
}

/// Writes through parameters are followed this many helper calls deep.
const MAX_HELPER_DEPTH: usize = 4;
/// Interfaces embedding interfaces are followed this deep.
const MAX_EMBED_DEPTH: usize = 4;

impl<'a, 'b> Resolver<'a, 'b> {
    fn is_client(&self, file: &'a GoFile, dir: &str, w: &RawWrite) -> bool {
        match &w.client {
            ClientRef::TypedValue => match &w.object {
                WriteObject::Typed {
                    receiver, accessor, ..
                } => self
                    .values
                    .typed_call_kind(file, dir, receiver, accessor.as_deref())
                    .is_some(),
                _ => false,
            },
            ClientRef::Known | ClientRef::Clientset => true,
            ClientRef::ControllerUtil(q) => matches!(
                self.values.index.import_for(file, q).as_deref(),
                Some(CONTROLLERUTIL | CONTROLLER_RUNTIME)
            ),
            ClientRef::Constructed { qualifier, name } => {
                let import = self.values.index.import_for(file, qualifier);
                PATCHERS
                    .iter()
                    .any(|(p, _, c)| import.as_deref() == Some(*p) && c == name)
            }
            ClientRef::Typed(t) => self.is_client_type(file, t),
            ClientRef::Embedded(owner) => self
                .values
                .struct_fields(dir, owner)
                .into_iter()
                .any(|(f, name, t)| name.is_none() && self.is_client_type(f, t)),
            ClientRef::Field { owner, field } => self
                .values
                .struct_field(dir, owner, field)
                .is_some_and(|(f, t)| self.is_client_type(f, &t)),
        }
    }

    fn is_client_type(&self, file: &GoFile, t: &TypeRef) -> bool {
        self.is_client_type_at(file, t, 0)
    }

    /// A controller-runtime client type, or an interface of this repository that embeds
    /// one (`type clientWithRecorder interface { client.Client; record.EventRecorder }`),
    /// followed through embeddings up to a depth.
    fn is_client_type_at(&self, file: &GoFile, t: &TypeRef, depth: usize) -> bool {
        let index = self.values.index;
        let import = t
            .qualifier
            .as_deref()
            .and_then(|q| index.import_for(file, q));
        if import.as_deref() == Some(CLIENT_PACKAGE) {
            return CLIENT_TYPES.contains(&t.name.as_str());
        }
        if PATCHERS
            .iter()
            .any(|(p, ty, _)| import.as_deref() == Some(*p) && t.name == *ty)
        {
            return true;
        }
        if t.collection || depth >= MAX_EMBED_DEPTH {
            return false;
        }
        let dir = match (&t.qualifier, &import) {
            (None, _) => dir_of(&file.path),
            (Some(_), Some(import)) => match index.dir_of_import(import) {
                Some(d) => d,
                None => return false,
            },
            (Some(_), None) => return false,
        };
        self.values
            .interface_embeds(dir, &t.name)
            .into_iter()
            .any(|(f, e)| self.is_client_type_at(f, e, depth + 1))
    }

    /// The calls of `func` made in its own package, as the call graph resolved them:
    /// (caller's file, caller, line, what the call passes), by file and line.
    fn same_package_calls(
        &self,
        dir: &str,
        func: &FuncRef,
    ) -> Vec<(&'a GoFile, &'a FuncRef, u32, &'b SamePackageArgs)> {
        let Some(node) = self.values.node_of(dir, func) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (caller, call) in self.graph.calls_into(node) {
            let (Some(args), Some(loc)) = (&call.same_package, self.values.located(caller)) else {
                continue;
            };
            if dir_of(&loc.file.path) == dir {
                out.push((loc.file, &loc.facts.func, call.line, args));
            }
        }
        out.sort_by(|a, b| (&a.0.path, a.2).cmp(&(&b.0.path, b.2)));
        out
    }

    /// For parameter `index` of `func` typed by a type parameter: the position of that type
    /// parameter and the other parameters of the same type (all have one type at a call).
    fn same_type_arguments(&self, dir: &str, func: &FuncRef, index: usize) -> SameType {
        let Some(sig) = self
            .values
            .functions
            .get(&(dir.to_string(), func.clone()))
            .map(|l| l.signature())
        else {
            return SameType::default();
        };
        let Some(Some(t)) = sig.params.get(index).map(|(_, t)| t) else {
            return SameType::default();
        };
        let Some(position) = sig.type_params.iter().position(|p| *p == t.name) else {
            return SameType::default();
        };
        if t.qualifier.is_some() || t.collection {
            return SameType::default();
        }
        SameType {
            type_param: Some(position),
            params: (0..sig.params.len())
                .filter(|i| {
                    *i != index && sig.params.get(*i).and_then(|(_, p)| p.as_ref()) == Some(t)
                })
                .collect(),
        }
    }

    /// What the argument for parameter `index` is at one call site: an explicit type
    /// argument, else the argument itself when its kind is known or it is the caller's own
    /// parameter (followed further), else another argument of the same type parameter
    /// whose kind is known, else the argument as it is (reported unknown).
    fn argument(
        &self,
        file: &'a GoFile,
        dir: &str,
        call: &SamePackageArgs,
        index: usize,
        same_type: &SameType,
    ) -> Option<ValueType> {
        if let Some(Some(t)) = same_type.type_param.and_then(|p| call.type_args.get(p)) {
            return Some(ValueType::Type(t.clone()));
        }
        let arg = call.values.get(index)?;
        if matches!(arg, ValueType::Param { .. })
            || !self.values.value_kinds(file, dir, arg).is_empty()
        {
            return Some(arg.clone());
        }
        same_type
            .params
            .iter()
            .filter_map(|i| call.values.get(*i))
            .find(|a| !self.values.value_kinds(file, dir, a).is_empty())
            .or(Some(arg))
            .cloned()
    }

    /// The operations a write gives: one for a known object; for an object that is the
    /// function's parameter, one per call site (reported there), followed up to a depth.
    /// An object that stays a parameter of unknown kind is left pending (`Row::pending`).
    fn operations(
        &self,
        loc: &Located<'a>,
        dir: &'a str,
        func: &'a FuncRef,
        w: &RawWrite,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Vec<Row<'a>> {
        let file = loc.file;
        // Reported at a helper's call site, the write also names the helper's own line.
        let op = |group: String, version: String, kind: String, line: u32, path: &str| {
            let mut sources = vec![SourceRef::new(path, line)];
            if (path, line) != (file.path.as_str(), w.line) {
                sources.push(SourceRef::new(&file.path, w.line));
            }
            let kind = item_kind(w.verb, kind);
            Operation {
                verb: w.verb.to_string(),
                group,
                version,
                kind,
                sources,
                via: Vec::new(),
                condition: w.condition.clone(),
            }
        };
        let object_kind = |object: &Option<ValueType>| {
            object
                .as_ref()
                .and_then(|o| self.values.value_kind(file, dir, o))
        };
        // A typed client's row: its kind, or `?` with a diagnostic naming the client.
        let mut typed_row = |kind: Option<(String, String, String)>, client: &str| {
            let (g, v, k) = kind.unwrap_or_else(|| {
                diagnostics.push(Diagnostic::new(
                    &file.path,
                    w.line,
                    format!(
                        "cannot tell the kind {} through {client}",
                        if is_read(w.verb) { "read" } else { "written" }
                    ),
                ));
                (UNRESOLVED.into(), UNRESOLVED.into(), UNRESOLVED.into())
            });
            vec![Row::new(op(g, v, k, w.line, &file.path), func)]
        };
        match &w.object {
            WriteObject::Clientset {
                group_version,
                resource,
                object,
            } => typed_row(
                object_kind(object).or_else(|| self.values.clientset_kind(group_version, resource)),
                &format!("the clientset accessor {group_version}().{resource}(…)"),
            ),
            // The receiver's type names the resource exactly (the scale client's object
            // argument is a GroupResource); the object is asked only when it cannot.
            WriteObject::Typed {
                receiver,
                accessor,
                object,
            } => match self
                .values
                .typed_call_kind(file, dir, receiver, accessor.as_deref())
            {
                Some(Ok(kind)) => typed_row(Some(kind), ""),
                Some(Err(client)) => typed_row(object_kind(object), &client),
                None => Vec::new(),
            },
            WriteObject::Value(value) => {
                let mut out = Vec::new();
                let mut pending = vec![(value.clone(), loc.file, func, w.line, 0usize)];
                while let Some((value, file, func, line, depth)) = pending.pop() {
                    if let ValueType::Param { index, ty } = &value {
                        let concrete = ty.as_ref().and_then(|t| self.values.type_kind(file, t));
                        if let Some((g, v, k)) = concrete {
                            out.push(Row::new(op(g, v, k, line, &file.path), func));
                            continue;
                        }
                        if depth < MAX_HELPER_DEPTH {
                            let sites = self.same_package_calls(dir, func);
                            if !sites.is_empty() {
                                let same_type = self.same_type_arguments(dir, func, *index);
                                for (caller_file, caller, line, args) in sites {
                                    match self.argument(caller_file, dir, args, *index, &same_type)
                                    {
                                        Some(arg) => pending.push((
                                            arg,
                                            caller_file,
                                            caller,
                                            line,
                                            depth + 1,
                                        )),
                                        None => continue,
                                    }
                                }
                                continue;
                            }
                        }
                    }
                    let kinds = self.values.value_kinds(file, dir, &value);
                    if !kinds.is_empty() {
                        for (g, v, k) in kinds {
                            out.push(Row::new(op(g, v, k, line, &file.path), func));
                        }
                        continue;
                    }
                    let unknown = Diagnostic::new(
                        &file.path,
                        line,
                        format!(
                            "cannot tell the kind of the object this {} {} ({})",
                            w.verb,
                            if is_read(w.verb) { "reads" } else { "writes" },
                            describe(&value)
                        ),
                    );
                    let mut row = Row::new(
                        op(
                            UNRESOLVED.into(),
                            UNRESOLVED.into(),
                            UNRESOLVED.into(),
                            line,
                            &file.path,
                        ),
                        func,
                    );
                    // A parameter's kind may still be told by the controllers' call paths
                    // (`argument_rows`); the diagnostic waits till then.
                    match value {
                        ValueType::Param { index, .. } => row.pending = Some((index, unknown)),
                        _ => diagnostics.push(unknown),
                    }
                    out.push(row);
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::go::controllers;
    use crate::go::file::extract;
    use crate::go::index::GoInput;
    use model::Area;

    const TYPES: &str = r#"package v1
import "k8s.io/apimachinery/pkg/runtime/schema"
var GroupVersion = schema.GroupVersion{Group: "example.io", Version: "v1"}
type Widget struct{}
"#;

    const CONTROLLER: &str = r#"package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"k8s.io/client-go/kubernetes"

	v1 "example.com/op/api/v1"
)

type WidgetReconciler struct {
	client.Client
	Clientset kubernetes.Interface
	cache     Cache
	Services  []*corev1.Service
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Status().Update(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	r.Create(ctx, &corev1.ConfigMap{})
	existing := &appsv1.Deployment{}
	r.Delete(ctx, existing)
	svc := r.desiredService()
	controllerutil.CreateOrUpdate(ctx, r.Client, svc, func() error { return nil })
	list := &corev1.SecretList{}
	for _, s := range list.Items {
		r.Patch(ctx, &s, client.Apply)
	}
	for i := range r.Services {
		r.Update(ctx, r.Services[i])
	}
	r.ensure(ctx, &corev1.Pod{})
	r.cache.Create(ctx, w)
	r.Clientset.CoreV1().ConfigMaps("ns").Delete(ctx, "name", metav1.DeleteOptions{})
	var mystery client.Object
	r.Delete(ctx, mystery)
	return ctrl.Result{}, nil
}

func (r *WidgetReconciler) desiredService() *corev1.Service { return nil }

func (r *WidgetReconciler) ensure(ctx context.Context, obj client.Object) error {
	return r.Update(ctx, obj)
}

func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}

func cleanup(ctx context.Context, c client.Client) {
	c.DeleteAllOf(ctx, &appsv1.Deployment{})
}
"#;

    /// Go inputs of test sources; a `_test.go` file is a sample.
    fn inputs_of(files: &[(&str, &str)]) -> Vec<GoInput> {
        files
            .iter()
            .map(|(p, s)| GoInput {
                facts: extract(p, s),
                area: if p.ends_with("_test.go") {
                    Area::Samples
                } else {
                    Area::Component
                },
            })
            .collect()
    }

    fn rows(files: &[(&str, &str)]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (ops, _, pkg, diags) = rows_and_reads(files);
        (ops, pkg, diags)
    }

    /// Controllers' writes, their reads, package writes and diagnostics.
    fn rows_and_reads(
        files: &[(&str, &str)],
    ) -> (Vec<String>, Vec<String>, Vec<String>, Vec<String>) {
        let inputs = inputs_of(files);
        let mut diags = Vec::new();
        let index = crate::go::test_support::index(&inputs, "example.com/op", &mut diags);
        let mut controllers = controllers::resolve(&inputs, &index, &mut diags);
        let values = Values::new(&inputs, &index);
        let graph = Graph::build(&inputs, &index);
        let reach = controller_reach(&values, &graph, &controllers, &mut diags);
        let writes = resolve(&values, &graph, &reach, &mut controllers, &mut diags);
        // Every source line: the call site, then the helper's own write line.
        let fmt = |verb: &str, g: &str, v: &str, k: &str, s: &[SourceRef]| {
            let lines: Vec<String> = s.iter().map(|s| s.line.to_string()).collect();
            format!("{verb} {g}/{v} {k} @{}", lines.join("+"))
        };
        let of = |list: fn(&Controller) -> &Vec<Operation>| -> Vec<String> {
            controllers
                .iter()
                .flat_map(|c| list(c).iter())
                .map(|o| fmt(&o.verb, &o.group, &o.version, &o.kind, &o.sources))
                .collect()
        };
        let (ops, reads) = (of(|c| &c.operations), of(|c| &c.reads));
        let pkg = writes
            .package_operations
            .iter()
            .map(|o| {
                format!(
                    "{} {}",
                    o.function,
                    fmt(&o.verb, &o.group, &o.version, &o.kind, &o.sources)
                )
            })
            .collect();
        (
            ops,
            reads,
            pkg,
            diags
                .iter()
                .map(|d| format!("{}: {}", d.line, d.message))
                .collect(),
        )
    }

    #[test]
    fn writes_get_kinds_and_are_attributed_to_the_reconciler() {
        let (ops, pkg, diags) = rows(&[
            ("api/v1/types.go", TYPES),
            ("internal/controller/widget.go", CONTROLLER),
        ]);
        assert_eq!(
            ops,
            vec![
                "status_update example.io/v1 Widget @25",
                "create /v1 ConfigMap @28",
                "delete apps/v1 Deployment @30",
                "create_or_update /v1 Service @32",
                "apply /v1 Secret @35",
                "update /v1 Service @38",
                "update /v1 Pod @40+51",
                "delete /v1 ConfigMap @42",
                "delete ?/? ? @44",
            ]
        );
        assert_eq!(pkg, vec!["cleanup delete_all_of apps/v1 Deployment @59"]);
        assert_eq!(
            diags,
            vec![
                "44: cannot tell the kind of the object this delete writes (type client.Object is not a known API type)"
            ]
        );
    }

    const GENERIC: &str = r#"package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

type writer interface {
	client.Writer
}

type kubeClient interface {
	writer
	Close() error
}

type notes interface {
	Create(ctx context.Context, obj client.Object) error
}

type WidgetReconciler struct {
	client.Client
	kube  kubeClient
	notes notes
	Pods  map[string]*corev1.Pod
}

func Apply[O client.Object, T client.Object](ctx context.Context, c kubeClient, owner O, empty, want T) error {
	cur := empty.DeepCopyObject().(T)
	if cur == nil {
		return Create(ctx, c, owner, want)
	}
	return c.Update(ctx, want)
}

func Create[O, T client.Object](ctx context.Context, c kubeClient, owner O, obj T) error {
	return c.Create(ctx, obj)
}

func Remove[T client.Object](ctx context.Context, c kubeClient, obj T) error {
	gone := obj.DeepCopyObject().(T)
	return c.Delete(ctx, gone)
}

func Note[T client.Object](ctx context.Context, n notes, obj T) error {
	return n.Create(ctx, obj)
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	Apply(ctx, r.kube, w, &corev1.ConfigMap{}, r.desired())
	Remove(ctx, r.kube, &corev1.Service{})
	Remove[*corev1.Pod](ctx, r.kube, r.Pods["a"])
	Remove(ctx, r.kube, r.mystery())
	Note(ctx, r.notes, w)
	return ctrl.Result{}, nil
}

func (r *WidgetReconciler) desired() *corev1.ConfigMap { return nil }

func (r *WidgetReconciler) mystery() client.Object { return nil }

func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

    #[test]
    fn generic_helpers_write_the_kinds_of_their_call_sites() {
        let (ops, pkg, diags) = rows(&[
            ("api/v1/types.go", TYPES),
            ("internal/controller/widget.go", GENERIC),
        ]);
        // Reported at the call sites in Reconcile; Create is reached through Apply; the
        // interface embedding an interface embedding client.Writer is a client, `notes`
        // (with a Create method of its own) is not; `Remove[*corev1.Pod]` names the kind
        // the map element does not.
        assert_eq!(
            ops,
            vec![
                "update /v1 ConfigMap @56+38",
                "create /v1 ConfigMap @56+42",
                "delete /v1 Service @57+47",
                "delete /v1 Pod @58+47",
                "delete ?/? ? @59+47",
            ]
        );
        assert!(pkg.is_empty(), "{pkg:?}");
        assert_eq!(
            diags,
            vec![
                "59: cannot tell the kind of the object this delete writes (the result of mystery is not a known API type)"
            ]
        );
    }

    /// A factory declared to return an interface: its `return` statements tell the kinds.
    const FACTORY: &str = r#"package controller

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

type Reconciler struct {
	client.Client
}

func blank(kind string) (client.Object, error) {
	switch kind {
	case "config":
		cm := &corev1.ConfigMap{}
		return cm, nil
	case "secret":
		return &corev1.Secret{}, nil
	}
	return nil, errors.New("unknown kind")
}

func opaque(kind string) client.Object {
	if kind == "" {
		return &corev1.Service{}
	}
	return lookup(kind)
}

func lookup(kind string) client.Object { return nil }

func (r *Reconciler) touch(ctx context.Context, obj client.Object) error {
	return r.Update(ctx, obj)
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj, err := blank(req.Name)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Create(ctx, obj); err != nil {
		return ctrl.Result{}, err
	}
	_ = r.touch(ctx, obj)
	_ = r.Delete(ctx, opaque(req.Name))
	return ctrl.Result{}, nil
}

func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

    #[test]
    fn a_factory_returning_an_interface_writes_the_kinds_it_returns() {
        let (ops, pkg, diags) = rows(&[
            ("api/v1/types.go", TYPES),
            ("internal/controller/widget.go", FACTORY),
        ]);
        // `blank` returns a ConfigMap or a Secret (nil is no kind): one row each, also
        // through the helper `touch`. One of `opaque`'s returns cannot be followed, so its
        // delete stays unknown rather than claiming only Service.
        assert_eq!(
            ops,
            vec![
                "create /v1 ConfigMap @47",
                "create /v1 Secret @47",
                "update /v1 ConfigMap @50+39",
                "update /v1 Secret @50+39",
                "delete ?/? ? @51",
            ]
        );
        assert!(pkg.is_empty(), "{pkg:?}");
        assert_eq!(
            diags,
            vec![
                "51: cannot tell the kind of the object this delete writes (the result of opaque is not a known API type)"
            ]
        );
    }

    /// Objects whose kind is set at run time: constant GroupVersionKinds are followed,
    /// through a list's items; a kind from a variable is not guessed.
    const SET_KIND: &str = r#"package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

const gadgetKind = "Gadget"

type Reconciler struct {
	client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	meta := &metav1.PartialObjectMetadata{}
	meta.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	if err := r.Get(ctx, req.NamespacedName, meta); err != nil {
		return ctrl.Result{}, err
	}
	_ = r.Patch(ctx, meta, client.MergeFrom(meta.DeepCopy()))

	owned := &metav1.PartialObjectMetadataList{}
	owned.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("DeploymentList"))
	_ = r.List(ctx, owned)
	for _, item := range owned.Items {
		_ = r.Delete(ctx, &item)
	}

	gadget := &unstructured.Unstructured{}
	gadget.SetGroupVersionKind(schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: gadgetKind})
	_ = r.Create(ctx, gadget)
	return ctrl.Result{}, nil
}

func (r *Reconciler) mirror(ctx context.Context, gvk schema.GroupVersionKind) error {
	obj := &unstructured.Unstructured{}
	obj.SetGroupVersionKind(gvk)
	return r.Update(ctx, obj)
}

func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	_ = r.mirror(context.Background(), schema.GroupVersionKind{})
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

    #[test]
    fn kinds_set_with_constant_group_version_kinds_are_followed() {
        let (ops, reads, pkg, diags) = rows_and_reads(&[
            ("api/v1/types.go", TYPES),
            ("internal/controller/widget.go", SET_KIND),
        ]);
        assert_eq!(
            ops,
            vec![
                "patch /v1 ConfigMap @29",
                "delete apps/v1 Deployment @35",
                "create example.io/v1 Gadget @40",
            ]
        );
        assert_eq!(
            reads,
            vec!["get /v1 ConfigMap @26", "list apps/v1 Deployment @33"]
        );
        // `mirror` is not reached from Reconcile: its write is the package's, and its kind,
        // set from a parameter, stays unknown.
        assert_eq!(pkg, vec!["Reconciler.mirror update ?/? ? @47"]);
        assert_eq!(
            diags,
            vec![
                "47: cannot tell the kind of the object this update writes (type unstructured.Unstructured is not a known API type)"
            ]
        );
    }

    /// The fixture operator `tests/fixtures/callgraph-operator`: the call path of each row
    /// as `function@line` steps after `via`, and its condition after `if`.
    fn callgraph_rows() -> (Vec<String>, Vec<String>, Vec<String>) {
        macro_rules! fixture {
            ($($path:literal),*) => {
                [$(($path, include_str!(concat!("../../../../tests/fixtures/callgraph-operator/", $path)))),*]
            };
        }
        let files = fixture!(
            "api/v1/types.go",
            "internal/controller/vessel_controller.go",
            "internal/parts/part.go",
            "internal/parts/part_test.go",
            "internal/subs/subs.go",
            "internal/base/finalizers.go",
            "internal/status/status.go",
            "internal/util/mutate.go",
            "internal/controller/dock_controller.go"
        );
        let inputs = inputs_of(&files);
        let mut diags = Vec::new();
        let index = crate::go::test_support::index(&inputs, "example.com/shipyard", &mut diags);
        let mut controllers = controllers::resolve(&inputs, &index, &mut diags);
        let values = Values::new(&inputs, &index);
        let graph = Graph::build(&inputs, &index);
        let reach = controller_reach(&values, &graph, &controllers, &mut diags);
        resolve(&values, &graph, &reach, &mut controllers, &mut diags);
        let fmt = |o: &Operation| {
            let via: Vec<String> = o
                .via
                .iter()
                .map(|s| format!("{}@{}", s.function, s.line))
                .collect();
            let mut row = format!(
                "{} {}/{} {} @{}:{}",
                o.verb, o.group, o.version, o.kind, o.sources[0].file, o.sources[0].line
            );
            if !via.is_empty() {
                row.push_str(&format!(" via {}", via.join(" > ")));
            }
            if !o.condition.is_empty() {
                row.push_str(&format!(" [{}]", o.condition));
            }
            row
        };
        // Each row after its controller's name.
        let of = |ops: fn(&Controller) -> &Vec<Operation>| {
            controllers
                .iter()
                .flat_map(|c| ops(c).iter().map(|o| format!("{}: {}", c.name, fmt(o))))
                .collect()
        };
        (
            of(|c| &c.operations),
            of(|c| &c.reads),
            diags
                .iter()
                .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
                .collect(),
        )
    }

    #[test]
    fn writes_across_packages_are_attributed_with_their_call_paths() {
        let (writes, reads, diags) = callgraph_rows();
        // The helpers' objects are parameters: each controller's call path gives the kind
        // (through `finish`'s own parameter for the dock; in a closure for `Mutate`), and
        // an argument typed only as an interface gives none.
        assert_eq!(
            writes,
            vec![
                "vessel: patch shipyard.example.com/v1 Vessel @internal/base/finalizers.go:15 via base.Finalizers.EnsureFinalizer@56",
                "vessel: status_update shipyard.example.com/v1 Vessel @internal/controller/vessel_controller.go:61 [in a closure]",
                "vessel: create /v1 ConfigMap @internal/controller/vessel_controller.go:67 via controller.VesselReconciler.reconcileLog@49",
                "vessel: create apps/v1 Deployment @internal/parts/part.go:27 via parts.Hull.Reconcile@40",
                "vessel: update /v1 Service @internal/parts/part.go:41 via parts.Mast.Reconcile@40 [if vessel.Spec.Exposed]",
                "vessel: status_update shipyard.example.com/v1 Vessel @internal/status/status.go:11 via status.MarkReady@57",
                "vessel: patch /v1 ResourceQuota @internal/subs/subs.go:23 via subs.QuotaReconciler.Reconcile@31",
                "vessel: delete networking.k8s.io/v1 Ingress @internal/subs/subs.go:44 via subs.ingressRouter.Reconcile@46",
                "vessel: create /v1 Secret @internal/subs/subs.go:59 via subs.secretSyncer.Sync@55",
                "vessel: patch /v1 ConfigMap @internal/util/mutate.go:16 via util.Mutate@59 [in a closure]",
                "dock: status_update ?/? ? @internal/status/status.go:11 via status.MarkReady@27",
                "dock: status_update shipyard.example.com/v1 Dock @internal/status/status.go:11 via controller.DockReconciler.finish@28 > status.MarkReady@33",
                "dock: patch /v1 Secret @internal/util/mutate.go:16 via util.Mutate@26 [in a closure]",
            ]
        );
        assert_eq!(
            reads,
            vec![
                "vessel: get shipyard.example.com/v1 Vessel @internal/controller/vessel_controller.go:27",
                "vessel: list /v1 Pod @internal/controller/vessel_controller.go:72 via controller.VesselReconciler.reconcileCrew@49",
                "dock: get shipyard.example.com/v1 Dock @internal/controller/dock_controller.go:23",
            ]
        );
        assert_eq!(
            diags,
            vec![
                "internal/controller/dock_controller.go:27: cannot tell the kind of the object the status_update at internal/status/status.go:11 writes through this call: the argument given is of type client.Object, which is not a known API type"
            ]
        );
    }

    const CLIENT_FORMS: &str = r#"package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"github.com/fluxcd/pkg/runtime/patch"

	v1 "example.com/op/api/v1"
	"example.com/op/pkg/generated/clientset/versioned"
)

type GadgetReconciler struct {
	client.Client
	gen     versioned.Interface
	patcher *patch.SerialPatcher
}

func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	g := &v1.Widget{}
	r.Client.Update(ctx, g)
	ctrl.CreateOrUpdate(ctx, r.Client, &corev1.Secret{}, func() error { return nil })
	sp := patch.NewSerialPatcher(g, r.Client)
	sp.Patch(ctx, g)
	r.patcher.Patch(ctx, &corev1.ConfigMap{})
	r.gen.ExampleV1().Widgets("ns").Delete(ctx, "name", metav1.DeleteOptions{})
	r.gen.ExampleV1().Gizmos("ns").Delete(ctx, "name", metav1.DeleteOptions{})
	var anything v1.Shape
	r.Delete(ctx, anything)
	return ctrl.Result{}, nil
}

func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

    const SHAPES: &str = r#"package v1

import "sigs.k8s.io/controller-runtime/pkg/client"

// Shape is what several kinds of this package have in common; it is not a kind.
type Shape interface {
	client.Object
	Sides() int
}
"#;

    #[test]
    fn every_client_form_is_a_client() {
        // An embedded client named by its field, controller-runtime's root re-export of
        // CreateOrUpdate, fluxcd's serial patcher (made in place and held in a field), the
        // repository's own generated clientset (client-gen's naming: `ExampleV1`, plural
        // `Widgets`), and an API package's interface, which is never a kind.
        let (ops, pkg, diags) = rows(&[
            ("api/v1/types.go", TYPES),
            ("api/v1/shapes.go", SHAPES),
            ("internal/controller/gadget.go", CLIENT_FORMS),
        ]);
        assert_eq!(
            ops,
            vec![
                "update example.io/v1 Widget @23",
                "create_or_update /v1 Secret @24",
                "patch example.io/v1 Widget @26",
                "patch /v1 ConfigMap @27",
                "delete example.io/v1 Widget @28",
                "delete ?/? ? @29",
                "delete ?/? ? @31",
            ]
        );
        assert!(pkg.is_empty(), "{pkg:?}");
        assert_eq!(
            diags,
            vec![
                "29: cannot tell the kind written through the clientset accessor ExampleV1().Gizmos(…)",
                "31: cannot tell the kind of the object this delete writes (type v1.Shape is not a known API type)",
            ]
        );
    }

    /// A generated typed package of the repository, named by client-gen after the API
    /// package's folder (`api`), not after the group: the accessor is the interface it
    /// declares.
    const GENERATED_TYPED: &str = r#"// Code generated by client-gen. DO NOT EDIT.

package v1

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "example.com/op/api/v1"
)

type ExampleV1Interface interface {
	WidgetsGetter
}

type WidgetsGetter interface {
	Widgets(namespace string) WidgetInterface
}

type WidgetInterface interface {
	UpdateStatus(ctx context.Context, w *v1.Widget, opts metav1.UpdateOptions) (*v1.Widget, error)
}
"#;

    const TYPED_VALUES: &str = r#"package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	appsclient "k8s.io/client-go/kubernetes/typed/apps/v1"
	coreclient "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/scale"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
	exampleclient "example.com/op/pkg/generated/clientset/versioned/typed/api/v1"
	thingsclient "example.org/things/pkg/client/clientset/versioned/typed/things/v1"
	gatewayclient "sigs.k8s.io/gateway-api/pkg/client/clientset/versioned/typed/apis/v1"
)

type notebook struct{}

func (n notebook) Create(ctx context.Context, obj any, note string) error { return nil }
func (n notebook) Pages(ns string) notebook                           { return n }

type TypedReconciler struct {
	client.Client
	kube    kubernetes.Interface
	secrets coreclient.SecretInterface
	maps    coreclient.ConfigMapsGetter
	example exampleclient.ExampleV1Interface
	widgets exampleclient.WidgetInterface
	things  thingsclient.ThingInterface
	scales  scale.ScalesGetter
	notes   notebook
	core    coreclient.CoreV1Interface
	gateway gatewayclient.GatewayV1Interface
}

func (r *TypedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	r.secrets.Create(ctx, &corev1.Secret{}, metav1.CreateOptions{})
	r.maps.ConfigMaps(req.Namespace).Apply(ctx, nil, metav1.ApplyOptions{})
	r.example.Widgets(req.Namespace).Create(ctx, w, metav1.CreateOptions{})
	r.widgets.UpdateStatus(ctx, w, metav1.UpdateOptions{})
	r.things.Delete(ctx, "name", metav1.DeleteOptions{})
	r.scales.Scales(req.Namespace).Update(ctx, schema.GroupResource{}, nil, metav1.UpdateOptions{})
	slices := r.kube.DiscoveryV1().EndpointSlices(req.Namespace)
	if _, err := slices.Get(ctx, "old", metav1.GetOptions{}); err == nil {
		slices.Delete(ctx, "old", metav1.DeleteOptions{})
	}
	prune(ctx, r.kube.AppsV1().StatefulSets(req.Namespace), "old")
	r.Status().Update(ctx, w)
	r.notes.Create(ctx, w, "done")
	r.notes.Pages(req.Namespace).Create(ctx, w, "done")
	r.core.Services(req.Namespace).Delete(ctx, "old", metav1.DeleteOptions{})
	r.gateway.HTTPRoutes(req.Namespace).Delete(ctx, "old", metav1.DeleteOptions{})
	r.secretsIn(req.Namespace).Delete(ctx, "old", metav1.DeleteOptions{})
	return ctrl.Result{}, nil
}

func (r *TypedReconciler) secretsIn(ns string) coreclient.SecretInterface {
	return r.kube.CoreV1().Secrets(ns)
}

func prune(ctx context.Context, sets appsclient.StatefulSetInterface, name string) {
	sets.Patch(ctx, name, types.MergePatchType, nil, metav1.PatchOptions{})
	sets.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
}

func (r *TypedReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

    #[test]
    fn typed_client_values_write_their_kinds() {
        // Resource interfaces in fields and parameters, group-version clients and getters
        // with their accessor, a local assigned a clientset chain (delete by name), the
        // scale client, a function's result; a typed package no table or generated
        // clientset explains gives `?`; a same-package type with a `Create` method is no
        // client, and the embedded controller-runtime client still gives exactly one row.
        let (ops, reads, pkg, diags) = rows_and_reads(&[
            ("api/v1/types.go", TYPES),
            (
                "pkg/generated/clientset/versioned/typed/api/v1/example_client.go",
                GENERATED_TYPED,
            ),
            ("internal/controller/typed.go", TYPED_VALUES),
        ]);
        assert_eq!(
            ops,
            vec![
                "create /v1 Secret @44",
                "apply /v1 ConfigMap @45",
                "create example.io/v1 Widget @46",
                "status_update example.io/v1 Widget @47",
                "delete ?/? ? @48",
                "update autoscaling/v1 Scale @49",
                "delete discovery.k8s.io/v1 EndpointSlice @52",
                "status_update example.io/v1 Widget @55",
                "delete /v1 Service @58",
                "delete gateway.networking.k8s.io/v1 HTTPRoute @59",
                "delete /v1 Secret @60",
                "patch apps/v1 StatefulSet @69",
                "delete_all_of apps/v1 StatefulSet @70",
            ]
        );
        assert_eq!(reads, vec!["get discovery.k8s.io/v1 EndpointSlice @51"]);
        assert!(pkg.is_empty(), "{pkg:?}");
        assert_eq!(
            diags,
            vec![
                "48: cannot tell the kind written through the typed client thingsV1().ThingInterface"
            ]
        );
    }

    #[test]
    fn plurals_follow_client_gen() {
        for (kind, resource) in [
            ("ConfigMap", "ConfigMaps"),
            ("Ingress", "Ingresses"),
            ("NetworkPolicy", "NetworkPolicies"),
            ("Gateway", "Gateways"),
            ("StorageClass", "StorageClasses"),
            ("ComponentStatus", "ComponentStatuses"),
            ("Endpoints", "Endpoints"),
            ("Lease", "Leases"),
            ("Box", "Boxes"),
            ("Patch", "Patches"),
        ] {
            assert_eq!(crate::go::values::plural(kind), resource);
        }
        for (resource, kind) in [
            ("ConfigMaps", Some("ConfigMap")),
            ("Ingresses", Some("Ingress")),
            ("NetworkPolicies", Some("NetworkPolicy")),
            ("StorageClasses", Some("StorageClass")),
            ("ComponentStatuses", Some("ComponentStatus")),
            ("Endpoints", Some("Endpoints")),
            ("Leases", Some("Lease")),
            ("pods", None),
            ("S", None),
        ] {
            assert_eq!(
                crate::go::values::well_known_kind(resource).as_deref(),
                kind
            );
        }
    }
}
