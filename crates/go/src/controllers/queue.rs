//! Controllers built on client-go's work queues (the `sample-controller` shape): a struct
//! holds a queue (`workqueue.TypedRateLimitingInterface[…]`, `*cache.FIFO`, …) in a field,
//! informers' event handlers put keys into it, and a worker method takes them out
//! (`c.queue.Get()`, `(*c.queues[i]).Pop(…)`) and calls the sync handler.
//!
//! The worker methods are the controller's reconcile roots: what they reach through the
//! call graph is what the controller reads and writes. A queue-holding struct that other
//! structs of the repository hold in a field is a framework (one queue type for several
//! controllers): then each holder whose methods the framework's workers reach (through an
//! interface the holder implements) is a controller of its own, rooted at those methods.
//! Event handlers mentioning a controller's type (or, in a method of a holder, the
//! framework it holds) are its watches (`informers::resolve`).

use tree_sitter::Node;

use super::super::calls::{FuncId, Graph, arg_of};
use super::super::facts::GoFile;
use super::super::facts::controllers::{Built, FieldValue, QueueUse, Taken};
use super::super::index::{GoIndex, GoInput};
use super::super::scope::Scope;
use super::super::syntax::{
    FIELD, FuncCtx, KindName, call_arguments, first_assignments, keyed_elements, line_of, text,
};
use super::super::types::{FuncRef, TypeRef, type_ref};
use super::super::values::Values;
use super::{Shaped, TypeKey, flow, type_name};
use model::{Controller, ControllerShape, SourceRef};

/// client-go's work queue package: every queue type in it is a work queue.
pub const WORKQUEUE: &str = "k8s.io/client-go/util/workqueue";
/// client-go's `cache` package, whose FIFOs serve as queues too.
const CACHE: &str = "k8s.io/client-go/tools/cache";
const CACHE_QUEUES: [&str; 4] = ["FIFO", "DeltaFIFO", "RealFIFO", "Queue"];

/// Records the queues a function takes work items from or puts them in (a field of its
/// receiver, or a parameter), and the struct fields it gives values that may be functions.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    let func = FuncRef {
        receiver: ctx.receiver_type.clone(),
        name: ctx.name.clone(),
    };
    for (call, operand, method) in ctx.method_calls() {
        let method = text(method, src);
        if !matches!(
            method,
            "Get" | "GetWithContext" | "Pop" | "Add" | "AddRateLimited" | "AddAfter"
        ) {
            continue;
        }
        let args = call_arguments(call).len();
        let (takes, puts) = match method {
            "Get" => (args == 0, false),
            "GetWithContext" | "Pop" => (args == 1, false),
            "Add" | "AddRateLimited" => (false, args == 1),
            "AddAfter" => (false, args == 2),
            _ => (false, false),
        };
        if !takes && !puts {
            continue;
        }
        let from = match (&ctx.receiver_name, receiver_field(operand, src)) {
            (Some(name), Some((base, field))) if base == *name => Some(Taken::Field(field)),
            _ => scope.param_at(operand, src).map(Taken::Param),
        };
        if let Some(from) = from {
            file.queue_uses.push(QueueUse {
                func: func.clone(),
                from,
                put: puts,
                line: line_of(call),
            });
        }
    }
    field_values(
        ctx,
        scope,
        src,
        &func,
        &mut file.field_values,
        &mut file.built,
    );
}

/// `T{field: v}` and `recv.field = v` where `v` is a parameter or a selector; and the
/// struct types built.
fn field_values(
    ctx: &FuncCtx,
    scope: &Scope,
    src: &[u8],
    func: &FuncRef,
    out: &mut Vec<FieldValue>,
    built: &mut Vec<Built>,
) {
    let function_like =
        |v: Node| scope.param_at(v, src).is_some() || v.kind_name() == "selector_expression";
    // This function's entries start here: each type is listed once per function, and the
    // file's other functions' entries are not compared (a file of many is not quadratic).
    let first = built.len();
    for &n in &ctx.nodes {
        if n.kind_name() != "composite_literal" {
            continue;
        }
        let (Some(ty), Some(body)) = (
            n.child_by_field_id(FIELD.ty).and_then(|t| type_ref(t, src)),
            n.child_by_field_id(FIELD.body),
        ) else {
            continue;
        };
        if !ty.collection && !built[first..].iter().any(|b: &Built| b.ty == ty) {
            built.push(Built {
                func: func.clone(),
                ty: ty.clone(),
            });
        }
        for (key, value) in keyed_elements(body) {
            if key.kind_name() == "identifier" && function_like(value) {
                out.push(FieldValue {
                    func: func.clone(),
                    owner: ty.clone(),
                    field: text(key, src).to_string(),
                    value: arg_of(value, scope, src),
                });
            }
        }
    }
    let (Some(receiver), Some(name)) = (&ctx.receiver_type, &ctx.receiver_name) else {
        return;
    };
    for (left, right) in first_assignments(ctx) {
        if let Some((base, field)) = receiver_field(left, src)
            && base == *name
            && function_like(right)
        {
            out.push(FieldValue {
                func: func.clone(),
                owner: TypeRef::named(None, receiver),
                field,
                value: arg_of(right, scope, src),
            });
        }
    }
}

/// `(base, field)` when `node` is `base.field`, possibly indexed, dereferenced or
/// parenthesized (`(*c.queues[i])`).
fn receiver_field(node: Node, src: &[u8]) -> Option<(String, String)> {
    let mut n = node;
    for _ in 0..6 {
        match n.kind_name() {
            "parenthesized_expression" => n = n.named_child(0)?,
            "unary_expression" => n = n.child_by_field_id(FIELD.operand)?,
            "index_expression" => n = n.child_by_field_id(FIELD.operand)?,
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand)?;
                let field = n.child_by_field_id(FIELD.field)?;
                return (operand.kind_name() == "identifier")
                    .then(|| (text(operand, src).to_string(), text(field, src).to_string()));
            }
            _ => return None,
        }
    }
    None
}

/// True when `ty` (written in `file`) is one of client-go's queue types.
pub fn is_queue_type(index: &GoIndex, file: &GoFile, qualifier: Option<&str>, name: &str) -> bool {
    let Some(q) = qualifier else { return false };
    match index.import_for(file, q).as_deref() {
        Some(WORKQUEUE) => true,
        Some(CACHE) => CACHE_QUEUES.contains(&name),
        _ => false,
    }
}

/// The work-queue controllers of the project, with their reconcile roots.
pub fn resolve(files: &[GoInput], values: &Values, graph: &Graph) -> Vec<Shaped> {
    let index = values.index;
    let mut found: Vec<(TypeKey, Vec<FuncId>, Vec<TypeKey>)> = Vec::new();
    // Types found as the methods a generic worker runs (evidence enough without a handler).
    let mut flowed: Vec<TypeKey> = Vec::new();
    let mut add = |key: TypeKey, roots: Vec<FuncId>, framework: Option<&TypeKey>| {
        let frameworks: Vec<TypeKey> = framework.into_iter().cloned().collect();
        match found.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, r, f)) => {
                r.extend(roots);
                f.extend(frameworks);
            }
            None => found.push((key, roots, frameworks)),
        }
    };
    for worker in workers(files, index, graph) {
        // A framework held by other types: each holder whose methods it calls back.
        if let Some(owner) = &worker.owner {
            let holders = holders_reached(files, index, graph, owner, &worker.roots);
            if !holders.is_empty() {
                for (holder, roots) in holders {
                    add(holder, roots, Some(owner));
                }
                continue;
            }
        }
        // A worker calling a function value: the methods given to it, by their types.
        let called = flow::called_values(values, graph, &worker.roots);
        if !called.is_empty() {
            for (key, roots) in called {
                flowed.push(key.clone());
                add(key, roots, worker.owner.as_ref());
            }
            continue;
        }
        if let Some(owner) = worker.owner {
            add(owner, worker.roots, None);
        }
    }
    found
        .into_iter()
        .filter_map(|(key, mut roots, mut frameworks)| {
            roots.sort_unstable();
            roots.dedup();
            frameworks.sort();
            frameworks.dedup();
            let direct = !flowed.contains(&key) && frameworks.is_empty();
            shaped(files, &key, roots, &frameworks, direct)
        })
        .collect()
}

/// True when field `field` of the struct `pkg.ty` (promoted fields included) is declared
/// with one of client-go's queue types.
pub fn is_queue_field(index: &GoIndex, graph: &Graph, pkg: &str, ty: &str, field: &str) -> bool {
    graph.field_type(pkg, ty, field).is_some_and(|(at, t)| {
        is_queue_type(index, graph.file(at), t.qualifier.as_deref(), &t.name)
    })
}

/// The functions putting work into a queue a struct holds in a field, with that struct:
/// an event handler reaching one of them fills that struct's queue.
pub fn putters(files: &[GoInput], index: &GoIndex, graph: &Graph) -> crate::informers::Putters {
    let mut out = crate::informers::Putters::default();
    for input in files {
        let file = &input.facts;
        let Some(pkg) = index.package_of(file) else {
            continue;
        };
        for put in file.queue_uses.iter().filter(|u| u.put) {
            let (Taken::Field(field), Some(receiver)) = (&put.from, &put.func.receiver) else {
                continue;
            };
            if !is_queue_field(index, graph, pkg, receiver, field) {
                continue;
            }
            let owner = TypeKey {
                pkg: pkg.to_string(),
                name: receiver.clone(),
            };
            for id in graph.methods_of(pkg, receiver, &put.func.name) {
                out.insert(id, owner.clone());
            }
        }
    }
    out
}

/// Functions taking work from one queue: the methods of the struct holding it in a field
/// (`owner`), or one function taking from a parameter.
struct Worker {
    owner: Option<TypeKey>,
    roots: Vec<FuncId>,
}

fn workers(files: &[GoInput], index: &GoIndex, graph: &Graph) -> Vec<Worker> {
    let mut out: Vec<Worker> = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        let Some(pkg) = index.package_of(file) else {
            continue;
        };
        for take in file.queue_uses.iter().filter(|u| !u.put) {
            let ids: Vec<FuncId> = match &take.func.receiver {
                Some(r) => graph.methods_of(pkg, r, &take.func.name),
                None => graph.function(fi, None, &take.func.name),
            };
            match &take.from {
                Taken::Field(field) => {
                    let Some(receiver) = &take.func.receiver else {
                        continue;
                    };
                    if !is_queue_field(index, graph, pkg, receiver, field) {
                        continue;
                    }
                    let key = TypeKey {
                        pkg: pkg.to_string(),
                        name: receiver.clone(),
                    };
                    match out.iter_mut().find(|w| w.owner.as_ref() == Some(&key)) {
                        Some(w) => w.roots.extend(ids),
                        None => out.push(Worker {
                            owner: Some(key),
                            roots: ids,
                        }),
                    }
                }
                Taken::Param(i) => {
                    let is_queue = ids.iter().any(|id| {
                        let sig = &graph.file(id.file).call_facts[id.func].signature;
                        sig.params
                            .get(*i)
                            .and_then(|(_, t)| t.as_ref())
                            .is_some_and(|t| {
                                is_queue_type(
                                    index,
                                    graph.file(id.file),
                                    t.qualifier.as_deref(),
                                    &t.name,
                                )
                            })
                    });
                    if is_queue {
                        out.push(Worker {
                            owner: None,
                            roots: ids,
                        });
                    }
                }
            }
        }
    }
    for w in &mut out {
        w.roots.sort_unstable();
        w.roots.dedup();
    }
    out.retain(|w| !w.roots.is_empty());
    out
}

/// The structs holding `owner` in a field whose methods the owner's workers reach, each
/// with those methods (their own reconcile roots).
fn holders_reached(
    files: &[GoInput],
    index: &GoIndex,
    graph: &Graph,
    owner: &TypeKey,
    workers: &[FuncId],
) -> Vec<(TypeKey, Vec<FuncId>)> {
    let mut holders: Vec<TypeKey> = Vec::new();
    for input in files {
        let file = &input.facts;
        let Some(pkg) = index.package_of(file) else {
            continue;
        };
        for s in &file.structs {
            let holds = s.fields.iter().any(|f| {
                f.ty.name == owner.name
                    && index
                        .type_package(file, f.ty.qualifier.as_deref())
                        .as_deref()
                        == Some(owner.pkg.as_str())
            });
            let key = TypeKey {
                pkg: pkg.to_string(),
                name: s.name.clone(),
            };
            if holds && key != *owner && !holders.contains(&key) {
                holders.push(key);
            }
        }
    }
    if holders.is_empty() {
        return Vec::new();
    }
    // The holders' methods the workers reach first: the framework's calls back into
    // each holder (through an interface it implements), not what those methods call.
    let holder_of = |id: FuncId| -> Option<&TypeKey> {
        let receiver = graph.file(id.file).call_facts[id.func].receiver.as_ref()?;
        let pkg = index.package_of(graph.file(id.file))?;
        holders.iter().find(|h| h.pkg == pkg && &h.name == receiver)
    };
    let mut out: Vec<(TypeKey, Vec<FuncId>)> = Vec::new();
    for id in graph.first_reached(workers.iter().copied(), |id| holder_of(id).is_some()) {
        let Some(holder) = holder_of(id) else {
            continue;
        };
        match out.iter_mut().find(|(h, _)| h == holder) {
            Some((_, roots)) => roots.push(id),
            None => out.push((holder.clone(), vec![id])),
        }
    }
    for (_, roots) in &mut out {
        roots.sort_unstable();
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// `direct`: the struct holds and drains its own queue, which makes it a controller only
/// if some event handler fills the queue.
fn shaped(
    files: &[GoInput],
    key: &TypeKey,
    roots: Vec<FuncId>,
    frameworks: &[TypeKey],
    direct: bool,
) -> Option<Shaped> {
    let &first = roots.first()?;
    let file = &files[first.file];
    let facts = &file.facts.call_facts[first.func];
    let entries = roots
        .iter()
        .map(|id| {
            let f = &files[id.file].facts.call_facts[id.func];
            format!("{}.{}", f.receiver.as_deref().unwrap_or(&key.name), f.name)
        })
        .collect();
    Some(Shaped {
        controller: Controller {
            name: type_name(key),
            reconciler: key.name.clone(),
            shape: ControllerShape::WorkQueue,
            entries,
            area: file.area,
            sources: vec![SourceRef::new(&file.facts.path, facts.line)],
            ..Controller::default()
        },
        roots,
        owner: super::HandlerOwner::Types {
            key: key.clone(),
            frameworks: frameworks.to_vec(),
        },
        needs_feeder: direct,
        bound: None,
    })
}
