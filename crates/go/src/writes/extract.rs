//! Per file: each client call that writes or reads, with the object and the client as
//! written (`RawWrite`).

use crate::syntax::FIELD;
use crate::syntax::KindName;
use model::Verb;

use tree_sitter::Node;

use crate::consts::const_expr;
use crate::facts::GoFile;
use crate::facts::writes::{ClientRef, FuncFacts, RawWrite, Subresource, WriteObject};
use crate::gvr::gvr_expr;
use crate::scope::Scope;
use crate::syntax::{FuncCtx, call_arguments, condition_of, line_of, text};
use crate::types::{FuncRef, ValueType};

/// Records the candidate writes and reads of one function.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    let mut writes = Vec::new();
    let generated = file.generated;
    for (call, operand, method) in ctx.method_calls() {
        let method = text(method, src);
        // Most calls are of other methods: they are passed over before any other work.
        if typed_verb(method).is_none()
            && !matches!(method, "CreateOrUpdate" | "CreateOrPatch" | "DeleteAllOf")
        {
            continue;
        }
        let args = ctx.arguments(call);
        // Reads in generated clientsets and informers are their plumbing. A call is at most
        // one of these: a receiver is not both kinds of client.
        let mut candidates: Vec<RawWrite> =
            write_call(call, operand, method, &args, ctx, scope, src)
                .into_iter()
                .collect();
        if scope.clientset_chain_at(operand, src).is_none() && dynamic_chain(operand, src).is_none()
        {
            candidates.extend(typed_value_calls(call, &args, ctx, scope, src));
        }
        for w in candidates {
            if !(generated && w.verb.is_read()) {
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
            Verb::CreateOrUpdate
        } else {
            Verb::CreateOrPatch
        };
        return Some(RawWrite {
            verb,
            object: WriteObject::Value(scope.type_of(args[2], src, at)),
            client: ClientRef::ControllerUtil(text(operand, src).to_string()),
            line,
            condition: condition_of(call, ctx, src),
            subresource: None,
        });
    }
    // Typed clientsets: cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
    if let Some((root, group_version, resource)) = scope.clientset_chain_at(operand, src) {
        let verb = typed_verb(method)?;
        let object = typed_object(method, args, scope, src, at);
        return Some(RawWrite {
            verb,
            object: WriteObject::Clientset {
                root: scope.type_of(root, src, at),
                group_version,
                resource,
                object,
            },
            client: ClientRef::Clientset,
            line,
            condition: condition_of(call, ctx, src),
            subresource: typed_subresource(method, args, src),
        });
    }
    // Dynamic client: dyn.Resource(gvr).Namespace(ns).Create(ctx, obj, opts)
    if let Some((root, resource)) = dynamic_chain(operand, src) {
        let verb = typed_verb(method).filter(|v| !v.is_read() && !method.starts_with("Evict"))?;
        let gvr =
            gvr_expr(resource, src, scope, 0, true).ok_or_else(|| text(resource, src).to_string());
        return Some(RawWrite {
            verb,
            object: WriteObject::Dynamic {
                root: scope.type_of(root, src, at),
                gvr,
            },
            client: ClientRef::Dynamic,
            line,
            condition: condition_of(call, ctx, src),
            subresource: dynamic_subresource(method, args, src),
        });
    }
    let (verb, client_node) = match method {
        "Create" | "Update" | "Patch" | "Apply" | "Delete" | "DeleteAllOf" => {
            // `c.Status().Update(…)` / `c.SubResource("status").Patch(…)`
            if let Some(inner) = status_writer_of(operand, src) {
                match method {
                    "Update" => (Verb::StatusUpdate, inner),
                    "Patch" | "Apply" => (Verb::StatusPatch, inner),
                    _ => return None,
                }
            } else {
                let verb = match method {
                    "Create" => Verb::Create,
                    // `c.Apply(ctx, applyConfiguration, opts…)`: server-side apply.
                    "Apply" => Verb::Apply,
                    "Update" => Verb::Update,
                    "Patch"
                        if args
                            .get(2)
                            .is_some_and(|a| text(*a, src).ends_with(".Apply")) =>
                    {
                        Verb::Apply
                    }
                    "Patch" => Verb::Patch,
                    "Delete" => Verb::Delete,
                    _ => Verb::DeleteAllOf,
                };
                (verb, operand)
            }
        }
        // Reads: `c.Get(ctx, key, obj)`, `c.List(ctx, list, opts…)`.
        "Get" if args.len() >= 3 => (Verb::Get, operand),
        "List" => (Verb::List, operand),
        _ => return None,
    };
    if args.len() < 2 {
        return None;
    }
    let client = client_ref(client_node, ctx, scope, src, at)?;
    let object = if verb == Verb::Get { args[2] } else { args[1] };
    Some(RawWrite {
        verb,
        object: WriteObject::Value(scope.type_of(object, src, at)),
        client,
        line,
        condition: condition_of(call, ctx, src),
        subresource: None,
    })
}

/// The verb of a method of a client-gen typed client.
fn typed_verb(method: &str) -> Option<Verb> {
    Some(match method {
        "Create" => Verb::Create,
        "Update" => Verb::Update,
        "UpdateStatus" => Verb::StatusUpdate,
        "Patch" => Verb::Patch,
        "Apply" => Verb::Apply,
        "ApplyStatus" => Verb::StatusPatch,
        "Delete" => Verb::Delete,
        "DeleteCollection" => Verb::DeleteAllOf,
        "Get" => Verb::Get,
        "List" => Verb::List,
        "Watch" => Verb::Watch,
        // client-go's `PodExpansion`: a `create` of the `pods/eviction` subresource.
        "Evict" | "EvictV1" | "EvictV1beta1" => Verb::Create,
        _ => return None,
    })
}

/// What a typed client's method writes besides the resource: `Patch`'s subresource
/// argument, or the `Eviction` of client-go's `Evict` methods (`Evict` takes a
/// `policy/v1beta1` one).
fn typed_subresource(method: &str, args: &[Node], src: &[u8]) -> Option<Subresource> {
    match method {
        "Patch" => const_expr(*args.get(5)?, src).map(Subresource::Named),
        "Evict" | "EvictV1beta1" => Some(Subresource::Eviction("v1beta1")),
        "EvictV1" => Some(Subresource::Eviction("v1")),
        _ => None,
    }
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
        "Create" | "Update" | "UpdateStatus" | "Apply" | "ApplyStatus" => {
            args.get(1).map(|a| scope.type_of(*a, src, at))
        }
        _ => None,
    }
}

/// `X.Resource(gvr)` or `X.Resource(gvr).Namespace(ns)`: the client `X` and the resource.
fn dynamic_chain<'t>(operand: Node<'t>, src: &[u8]) -> Option<(Node<'t>, Node<'t>)> {
    let mut call = operand;
    for _ in 0..2 {
        if call.kind_name() != "call_expression" {
            return None;
        }
        let f = call
            .child_by_field_id(FIELD.function)
            .filter(|f| f.kind_name() == "selector_expression")?;
        let inner = f.child_by_field_id(FIELD.operand)?;
        match text(f.child_by_field_id(FIELD.field)?, src) {
            "Resource" => {
                let args = call_arguments(call);
                return match args[..] {
                    [gvr] => Some((inner, gvr)),
                    _ => None,
                };
            }
            "Namespace" if call == operand => call = inner,
            _ => return None,
        }
    }
    None
}

/// The subresource argument of a dynamic client's method (`Update(ctx, obj, opts,
/// "status")`).
fn dynamic_subresource(method: &str, args: &[Node], src: &[u8]) -> Option<Subresource> {
    let at = match method {
        "Create" | "Update" | "Delete" => 3,
        "Apply" => 4,
        "Patch" => 5,
        _ => return None,
    };
    const_expr(*args.get(at)?, src).map(Subresource::Named)
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
            condition: condition_of(call, ctx, src),
            subresource: typed_subresource(text(method, src), args, src),
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

/// `recv.field` of the method's receiver, or the first such value of several.
fn receiver_field_of(value: &ValueType, ctx: &FuncCtx) -> Option<ClientRef> {
    match value {
        ValueType::Field { base, field } => match base.as_ref() {
            ValueType::Type(t)
                if t.qualifier.is_none() && ctx.receiver_type.as_deref() == Some(&t.name) =>
            {
                Some(ClientRef::Field {
                    owner: t.name.clone(),
                    field: field.clone(),
                })
            }
            _ => None,
        },
        ValueType::OneOf(values) => values.iter().find_map(|v| receiver_field_of(v, ctx)),
        _ => None,
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
                ValueType::Type(t)
                | ValueType::Param { ty: Some(t), .. }
                | ValueType::Asserted { ty: t, .. } => Some(ClientRef::Typed(t)),
                ValueType::ForeignResult {
                    qualifier,
                    name,
                    index: 0,
                } => Some(ClientRef::Constructed { qualifier, name }),
                // A local given the receiver's field (`reader := r.APIReader`), on any
                // branch: the field's declared type tells whether it is a client.
                ValueType::Field { .. } | ValueType::OneOf(_) => {
                    receiver_field_of(&scope.type_of(node, src, at), ctx)
                }
                _ => scope
                    .lookup(text(node, src), at)
                    .is_none()
                    .then(|| ClientRef::PackageVar {
                        qualifier: None,
                        name: text(node, src).to_string(),
                    }),
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
            // `plugin.Client`: another package's variable.
            if operand.kind_name() == "identifier" && scope.lookup(text(operand, src), at).is_none()
            {
                return Some(ClientRef::PackageVar {
                    qualifier: Some(text(operand, src).to_string()),
                    name: field,
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
