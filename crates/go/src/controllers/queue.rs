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

use super::super::calls::{FuncId, Graph};
use super::super::facts::GoFile;
use super::super::facts::controllers::QueueTake;
use super::super::index::{GoIndex, GoInput};
use super::super::syntax::{FIELD, FuncCtx, KindName, line_of, method_of, text};
use super::{Shaped, TypeKey, type_name};
use model::{Controller, ControllerShape, SourceRef};

/// client-go's work queue package: every queue type in it is a work queue.
const WORKQUEUE: &str = "k8s.io/client-go/util/workqueue";
/// client-go's `cache` package, whose FIFOs serve as queues too.
const CACHE: &str = "k8s.io/client-go/tools/cache";
const CACHE_QUEUES: [&str; 4] = ["FIFO", "DeltaFIFO", "RealFIFO", "Queue"];

/// Records the receiver fields a method takes work items from.
pub fn extract(ctx: &FuncCtx, src: &[u8], file: &mut GoFile) {
    let (Some(receiver), Some(name)) = (&ctx.receiver_type, &ctx.receiver_name) else {
        return;
    };
    for &call in &ctx.calls {
        let Some((operand, method)) = method_of(call, src) else {
            continue;
        };
        let args = super::super::syntax::call_arguments(call).len();
        let takes = match method {
            "Get" | "GetWithContext" => args == 0 || (method == "GetWithContext" && args == 1),
            "Pop" => args == 1,
            _ => false,
        };
        if !takes {
            continue;
        }
        if let Some(field) = receiver_field(operand, name, src) {
            file.queue_takes.push(QueueTake {
                receiver: receiver.clone(),
                func: ctx.name.clone(),
                field,
                line: line_of(call),
            });
        }
    }
}

/// `field` when `node` is `recv.field`, possibly indexed, dereferenced or parenthesized
/// (`(*c.queues[i])`).
fn receiver_field(node: Node, receiver: &str, src: &[u8]) -> Option<String> {
    let mut n = node;
    for _ in 0..6 {
        match n.kind_name() {
            "parenthesized_expression" => n = n.named_child(0)?,
            "unary_expression" => n = n.child_by_field_id(FIELD.operand)?,
            "index_expression" => n = n.child_by_field_id(FIELD.operand)?,
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand)?;
                let field = n.child_by_field_id(FIELD.field)?;
                return (operand.kind_name() == "identifier" && text(operand, src) == receiver)
                    .then(|| text(field, src).to_string());
            }
            _ => return None,
        }
    }
    None
}

/// True when `ty` (written in `file`) is one of client-go's queue types.
fn is_queue_type(index: &GoIndex, file: &GoFile, qualifier: Option<&str>, name: &str) -> bool {
    let Some(q) = qualifier else { return false };
    match index.import_for(file, q).as_deref() {
        Some(WORKQUEUE) => true,
        Some(CACHE) => CACHE_QUEUES.contains(&name),
        _ => false,
    }
}

/// The work-queue controllers of the project, with their reconcile roots.
pub fn resolve(files: &[GoInput], index: &GoIndex, graph: &Graph) -> Vec<Shaped> {
    let mut out = Vec::new();
    for owner in queue_owners(files, index, graph) {
        let holders = holders_reached(files, index, graph, &owner);
        if holders.is_empty() {
            out.push(shaped(files, &owner.key, owner.workers.clone(), &[]));
        } else {
            for (holder, roots) in holders {
                out.push(shaped(
                    files,
                    &holder,
                    roots,
                    std::slice::from_ref(&owner.key),
                ));
            }
        }
    }
    out
}

/// A struct type holding a queue, with the methods that take from it.
struct Owner {
    key: TypeKey,
    workers: Vec<FuncId>,
}

fn queue_owners(files: &[GoInput], index: &GoIndex, graph: &Graph) -> Vec<Owner> {
    let mut owners: Vec<Owner> = Vec::new();
    for input in files {
        let file = &input.facts;
        if file.queue_takes.is_empty() {
            continue;
        }
        let Some(pkg) = index.package_of(file) else {
            continue;
        };
        for take in &file.queue_takes {
            // The field's declared type, in the file declaring the struct.
            let Some(is_queue) =
                graph
                    .field_type(pkg, &take.receiver, &take.field)
                    .map(|(fi, t)| {
                        is_queue_type(index, graph.file(fi), t.qualifier.as_deref(), &t.name)
                    })
            else {
                continue;
            };
            if !is_queue {
                continue;
            }
            let key = TypeKey {
                pkg: pkg.to_string(),
                name: take.receiver.clone(),
            };
            let workers = graph.methods_of(pkg, &take.receiver, &take.func);
            match owners.iter_mut().find(|o| o.key == key) {
                Some(o) => o.workers.extend(workers),
                None => owners.push(Owner { key, workers }),
            }
        }
    }
    for o in &mut owners {
        o.workers.sort_unstable();
        o.workers.dedup();
    }
    owners.retain(|o| !o.workers.is_empty());
    owners
}

/// The structs holding `owner` in a field whose methods the owner's workers reach, each
/// with those methods (their own reconcile roots).
fn holders_reached(
    files: &[GoInput],
    index: &GoIndex,
    graph: &Graph,
    owner: &Owner,
) -> Vec<(TypeKey, Vec<FuncId>)> {
    let mut holders: Vec<TypeKey> = Vec::new();
    for input in files {
        let file = &input.facts;
        let Some(pkg) = index.package_of(file) else {
            continue;
        };
        for s in &file.structs {
            let holds = s.fields.iter().any(|f| {
                f.ty.name == owner.key.name
                    && index
                        .type_package(file, f.ty.qualifier.as_deref())
                        .as_deref()
                        == Some(owner.key.pkg.as_str())
            });
            let key = TypeKey {
                pkg: pkg.to_string(),
                name: s.name.clone(),
            };
            if holds && key != owner.key && !holders.contains(&key) {
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
    for id in graph.first_reached(owner.workers.iter().copied(), |id| holder_of(id).is_some()) {
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

fn shaped(files: &[GoInput], key: &TypeKey, roots: Vec<FuncId>, frameworks: &[TypeKey]) -> Shaped {
    let first = roots[0];
    let file = &files[first.file];
    let facts = &file.facts.call_facts[first.func];
    let entries = roots
        .iter()
        .map(|id| {
            let f = &files[id.file].facts.call_facts[id.func];
            format!("{}.{}", f.receiver.as_deref().unwrap_or(&key.name), f.name)
        })
        .collect();
    Shaped {
        controller: Controller {
            name: type_name(key),
            reconciler: key.name.clone(),
            shape: ControllerShape::WorkQueue,
            entries,
            area: file.area,
            sources: vec![SourceRef::new(&file.facts.path, facts.line)],
            watches: Vec::new(),
            operations: Vec::new(),
            reads: Vec::new(),
            conditions: Vec::new(),
        },
        roots,
        owner: super::HandlerOwner::Types {
            key: key.clone(),
            frameworks: frameworks.to_vec(),
        },
    }
}
