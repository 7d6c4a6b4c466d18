//! Knative controllers: a reconciler type with a `ReconcileKind(ctx, *K)` method, handed to
//! the `NewImpl(ctx, r, …)` its generated reconciler package provides, or one with
//! `Reconcile(ctx, key)` handed to Knative's generic `controller.NewContext(ctx, r, …)`
//! (its kind is then its event handlers'). The controller
//! reconciles `K`; its roots are the type's `ReconcileKind`, `FinalizeKind`, `ObserveKind`
//! and `ObserveFinalizeKind`; the event handlers the constructing function adds with the
//! controller value (`controller.HandleAll(impl.Enqueue)`) are its watches.

use foldhash::{HashMap, HashMapExt};

use tree_sitter::Node;

use super::super::calls::{FuncId, Graph, names_import};
use super::super::facts::GoFile;
use super::super::facts::calls::Arg;
use super::super::facts::controllers::{ImplCall, ImplHolder};
use super::super::index::GoInput;
use super::super::scope::Scope;
use super::super::syntax::{
    FIELD, FuncCtx, KindName, assigned_variable, call_arguments, first_assignments, line_of,
    root_identifier, text,
};
use super::super::types::FuncRef;
use super::super::values::Values;
use super::{Bound, HandlerOwner, Shaped, TypeKey};
use model::{Controller, ControllerShape, Diagnostic, Relation, SourceRef, Watch};

/// The generated constructor's name, Knative's API.
const NEW_IMPL: &str = "NewImpl";

/// The reconciler methods Knative's generated reconcilers call, in that order.
const ROOT_METHODS: [&str; 4] = [
    "ReconcileKind",
    "FinalizeKind",
    "ObserveKind",
    "ObserveFinalizeKind",
];

/// Knative's controller package, whose generic constructors take a reconciler with
/// `Reconcile(ctx, key)`: `NewContext(ctx, r, opts)`, `NewImpl(r, logger, name)`,
/// `NewImplFull(r, opts)`.
const KNATIVE_CONTROLLER: &str = "knative.dev/pkg/controller";

/// Records the `pkg.NewImpl(ctx, r, …)` calls of one function, and the calls of Knative's
/// generic constructors. Generated code (the generated `NewImpl` itself) is plumbing.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    if file.generated {
        return;
    }
    for (call, operand, name) in ctx.method_calls() {
        if operand.kind_name() != "identifier" {
            continue;
        }
        // A package's function, not a method of a local value.
        let q = text(operand, src);
        if scope.lookup(q, call.start_byte()).is_some() {
            continue;
        }
        let knative = names_import(&file.imports, q, KNATIVE_CONTROLLER);
        let (generic, at) = match text(name, src) {
            "NewContext" if knative => (true, 1),
            "NewImpl" | "NewImplFull" if knative => (true, 0),
            NEW_IMPL => (false, 1),
            _ => continue,
        };
        let args = call_arguments(call);
        let Some(&reconciler) = args.get(at) else {
            continue;
        };
        file.impl_calls.push(ImplCall {
            func: FuncRef {
                receiver: ctx.receiver_type.clone(),
                name: ctx.name.clone(),
            },
            reconciler: scope.chain_of(reconciler, src),
            holders: holders(ctx, call, &args, src),
            generic,
            qualifier: q.to_string(),
            skips_status_updates: !generic
                && args
                    .iter()
                    .skip(at + 1)
                    .any(|a| skips_status_updates(*a, src, &file.imports)),
            line: line_of(call),
        });
    }
}

/// An options callback (`func(*controller.Impl) controller.Options {…}`) whose body builds
/// Knative's `controller.Options` with `SkipStatusUpdates: true`.
fn skips_status_updates(arg: Node, src: &[u8], imports: &[super::super::facts::Import]) -> bool {
    if arg.kind_name() != "func_literal" {
        return false;
    }
    super::super::syntax::nodes_of(arg).into_iter().any(|n| {
        n.kind_name() == "composite_literal"
            && n.child_by_field_id(FIELD.ty)
                .and_then(|t| super::super::types::type_ref(t, src))
                .is_some_and(|t| {
                    t.name == "Options"
                        && t.qualifier
                            .as_deref()
                            .is_some_and(|q| names_import(imports, q, KNATIVE_CONTROLLER))
                })
            && n.child_by_field_id(FIELD.body).is_some_and(|body| {
                super::super::syntax::keyed_elements(body)
                    .iter()
                    .any(|(k, v)| text(*k, src) == "SkipStatusUpdates" && text(*v, src) == "true")
            })
    })
}

/// The values function `ctx` holds the controller built by `call` in: the local it is
/// assigned to, the options callback's parameter, then (one level) the fields and locals
/// assigned a field of one of those (`c.tracker = impl.Tracker`).
fn holders(ctx: &FuncCtx, call: Node, args: &[Node], src: &[u8]) -> Vec<ImplHolder> {
    let mut names: Vec<String> = assigned_variable(call, src).into_iter().collect();
    for arg in args.iter().filter(|a| a.kind_name() == "func_literal") {
        let first = arg
            .child_by_field_id(FIELD.parameters)
            .and_then(|ps| ps.named_child(0))
            .and_then(|p| p.child_by_field_id(FIELD.name));
        if let Some(name) = first {
            names.push(text(name, src).to_string());
        }
    }
    let mut out: Vec<ImplHolder> = names
        .iter()
        .map(|n| ImplHolder {
            root: n.clone(),
            field: None,
        })
        .collect();
    for (left, right) in first_assignments(ctx) {
        let from_impl = right.kind_name() == "selector_expression"
            && root_identifier(right).is_some_and(|r| names.iter().any(|n| n == text(r, src)));
        if !from_impl {
            continue;
        }
        let holder = match left.kind_name() {
            "identifier" => Some((left, None)),
            "selector_expression" => left
                .child_by_field_id(FIELD.operand)
                .filter(|o| o.kind_name() == "identifier")
                .zip(left.child_by_field_id(FIELD.field))
                .map(|(o, f)| (o, Some(f))),
            _ => None,
        };
        if let Some((root, field)) = holder {
            out.push(ImplHolder {
                root: text(root, src).to_string(),
                field: field.map(|f| text(f, src).to_string()),
            });
        }
    }
    out
}

/// The Knative controllers of the project.
pub fn resolve(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Shaped> {
    let index = values.index;
    let mut out: Vec<Shaped> = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for call in &file.impl_calls {
            let typed = call
                .reconciler
                .as_ref()
                .and_then(|chain| graph.type_written(fi, chain));
            let Some((decl_file, ty)) = typed else {
                diagnostics.push(Diagnostic::new(
                    &file.path,
                    call.line,
                    "a Knative controller is built here (NewImpl), but the type of its reconciler argument is not known: it is not listed as a controller".to_string(),
                ));
                continue;
            };
            let Some(pkg) = index.type_package(graph.file(decl_file), ty.qualifier.as_deref())
            else {
                continue;
            };
            let methods: &[&str] = if call.generic {
                &["Reconcile"]
            } else {
                &ROOT_METHODS
            };
            let mut roots: Vec<FuncId> = methods
                .iter()
                .flat_map(|m| graph.methods_of(&pkg, &ty.name, m))
                .collect();
            let Some(&reconcile) = roots.first() else {
                // A `NewImpl` of something else: not a Knative reconciler.
                continue;
            };
            // A generic reconciler gets a key, not an object: its kind is its handlers'.
            let reconciled = (!call.generic)
                .then(|| reconciled_kind(values, graph, reconcile))
                .flatten();
            let key = TypeKey {
                pkg: pkg.clone(),
                name: ty.name.clone(),
            };
            let mut entries: Vec<String> = roots
                .iter()
                .map(|id| {
                    let f = &graph.file(id.file).call_facts[id.func];
                    format!("{}.{}", ty.name, f.name)
                })
                .collect();
            // The generated reconciler around it, when the repository has its package.
            let generated = (!call.generic)
                .then(|| {
                    let skips = call.skips_status_updates;
                    generated_reconciler(values, graph, fi, &call.qualifier, &key, skips)
                })
                .flatten();
            let bound = generated.map(|(reconcile, bound)| {
                roots.extend(&reconcile);
                entries.push(format!("{}.Reconcile", bound.holder.name));
                bound
            });
            let mut watches = Vec::new();
            if let Some((group, version, kind)) = &reconciled {
                watches.push(Watch::unconditional(
                    Relation::For,
                    (group, version, kind),
                    vec![SourceRef::new(&file.path, call.line)],
                ));
            }
            out.push(Shaped {
                controller: Controller {
                    name: package_name(&file.path, &key),
                    reconciler: ty.name.clone(),
                    shape: ControllerShape::Knative,
                    entries,
                    area: input.area,
                    sources: vec![SourceRef::new(&file.path, call.line)],
                    watches,
                    ..Controller::default()
                },
                roots,
                needs_feeder: false,
                bound,
                owner: HandlerOwner::Impl {
                    file: fi,
                    func: call.func.clone(),
                    holders: call.holders.clone(),
                    reconciled,
                },
            });
        }
    }
    unique_names(&mut out);
    out
}

/// Controllers whose folders end alike are named by as many folders as tell them apart
/// (`notifications/taskrun` and `reconciler/taskrun`); two in one folder also by their
/// type. Each round counts the names once, so this stays linear in the controllers for
/// each folder level.
pub(super) fn unique_names(out: &mut [Shaped]) {
    let dirs: Vec<Vec<String>> = out
        .iter()
        .map(|s| {
            let path = s
                .controller
                .sources
                .first()
                .map_or("", |at| at.file.as_str());
            super::super::index::dir_of(path)
                .split('/')
                .map(str::to_string)
                .collect()
        })
        .collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for s in out.iter() {
        *counts.entry(s.controller.name.as_str()).or_default() += 1;
    }
    let mut pending: Vec<usize> = (0..out.len())
        .filter(|&i| counts[out[i].controller.name.as_str()] > 1)
        .collect();
    let suffix = |i: usize, take: usize| {
        let parts = &dirs[i];
        parts[parts.len().saturating_sub(take)..].join("/")
    };
    let mut names: Vec<Option<String>> = vec![None; out.len()];
    let deepest = pending.iter().map(|&i| dirs[i].len()).max().unwrap_or(0);
    for take in 2..=deepest {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for &i in &pending {
            *seen.entry(suffix(i, take)).or_default() += 1;
        }
        pending.retain(|&i| {
            let name = suffix(i, take);
            let unique = seen[&name] == 1;
            if unique {
                names[i] = Some(name);
            }
            !unique
        });
    }
    // The same folder: its path and the reconciler's type.
    for i in pending {
        names[i] = Some(format!(
            "{}.{}",
            suffix(i, deepest.max(1)),
            out[i].controller.reconciler
        ));
    }
    for (s, name) in out.iter_mut().zip(names) {
        if let Some(name) = name {
            s.controller.name = name;
        }
    }
}

/// The generated reconciler `qualifier.NewImpl` builds, when that function is in the
/// repository: the `Reconcile` of the type it builds holding its reconciler parameter in
/// a field (`rec := &reconcilerImpl{reconciler: r}`), and that binding.
fn generated_reconciler(
    values: &Values,
    graph: &Graph,
    fi: usize,
    qualifier: &str,
    reconciler: &TypeKey,
    skips_status_updates: bool,
) -> Option<(Vec<FuncId>, Bound)> {
    for new_impl in graph.function(fi, Some(qualifier), NEW_IMPL) {
        let file = graph.file(new_impl.file);
        let Some(pkg) = values.index.package_of(file) else {
            continue;
        };
        let func = FuncRef {
            receiver: None,
            name: NEW_IMPL.to_string(),
        };
        for fv in file.field_values.iter().filter(|fv| {
            fv.func == func && fv.owner.qualifier.is_none() && fv.value == Arg::Param(1)
        }) {
            let reconcile = graph.methods_of(pkg, &fv.owner.name, "Reconcile");
            if reconcile.is_empty() {
                continue;
            }
            return Some((
                reconcile,
                Bound {
                    holder: TypeKey {
                        pkg: pkg.to_string(),
                        name: fv.owner.name.clone(),
                    },
                    field: fv.field.clone(),
                    reconciler: reconciler.clone(),
                    skips_status_updates,
                },
            ));
        }
    }
    None
}

/// The kind `ReconcileKind`'s object parameter has.
fn reconciled_kind(
    values: &Values,
    graph: &Graph,
    reconcile: FuncId,
) -> Option<(String, String, String)> {
    let facts = &graph.file(reconcile.file).call_facts[reconcile.func];
    let param = facts.signature.params.get(1)?.1.as_ref()?;
    if param.collection {
        return None;
    }
    values.type_kind(graph.file(reconcile.file), param)
}

/// The controller's name: its package's folder name (`route` for `pkg/reconciler/route`).
fn package_name(path: &str, key: &TypeKey) -> String {
    let dir = super::super::index::dir_of(path);
    match dir.rsplit('/').next() {
        Some(last) if !last.is_empty() => last.to_string(),
        _ => super::type_name(key),
    }
}
