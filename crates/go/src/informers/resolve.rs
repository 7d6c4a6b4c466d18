//! Per project: each informer's kind, through fields, wrappers, interface methods and
//! typed informers, attributed to the controller whose reconciler reaches it or listed
//! under its package.

use super::extract::MAX_SOURCE_DEPTH;
use foldhash::HashMap;

use crate::calls::{FuncId, Graph, Paths};
use crate::controllers::{HandlerOwner, Setup, TypeKey, WORKQUEUE};
use crate::facts::GoFile;
use crate::facts::informers::{Forward, HandlerRef, InformerSource, RawInformer};
use crate::gvr::gvr_kind;
use crate::index::{GoInput, dir_of};
use crate::types::{FuncRef, Root, TypeRef, ValueType};
use crate::values::{Values, describe, plural};
use model::{Controller, Diagnostic, PackageInformer, Relation, SourceRef, UNRESOLVED, Watch};

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
    reach: &Reaches,
    feeders: &Feeders,
    controllers: &mut [Controller],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<PackageInformer> {
    let Feeders { owners, putters } = *feeders;
    let mut out = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        let dir = dir_of(&file.path);
        for raw in &file.informers {
            let fed = Fed {
                values,
                graph,
                putters,
                fi,
                raw,
            };
            let unresolved = || {
                (
                    UNRESOLVED.to_string(),
                    UNRESOLVED.to_string(),
                    UNRESOLVED.to_string(),
                )
            };
            let (group, version, kind) = match outcome(values, file, &raw.source, 0) {
                Outcome::Kind(g, v, k) => (g, v, k),
                Outcome::Skip => continue,
                // A handler feeding a controller is one of its watches even when its
                // informer cannot be followed: a `?` watch, and the reason.
                Outcome::NotAnInformer(why) if fed.feeds_any(owners) => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        raw.line,
                        format!(
                            "cannot tell which kind this event handler's informer watches: {why}"
                        ),
                    ));
                    unresolved()
                }
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
                    unresolved()
                }
            };
            let sources = vec![SourceRef::new(&file.path, raw.line)];
            // An event handler feeding a controller is one of its watches.
            let mut claimed = false;
            for (c, owner) in controllers.iter_mut().zip(owners) {
                let Some(relation) = owner
                    .as_ref()
                    .and_then(|o| fed.relation(o, (&group, &version, &kind)))
                else {
                    continue;
                };
                claimed = true;
                add_watch(c, relation, (&group, &version, &kind), &sources);
            }
            if claimed {
                continue;
            }
            // The informer belongs to every controller whose Reconcile reaches the function
            // that starts it, whose reconciler type declares that function, or whose setup
            // obtains it.
            let node = values.node_of(dir, &raw.func);
            let mut owned = false;
            for (i, (c, paths)) in controllers.iter_mut().zip(reach.reconcile).enumerate() {
                let declared = Some(&c.reconciler) == raw.func.receiver.as_ref()
                    && c.sources.first().is_some_and(|s| dir_of(&s.file) == dir);
                let reached = node
                    .zip(paths.as_ref())
                    .is_some_and(|(n, p)| p.contains(graph, n));
                let set_up = node
                    .zip(reach.setup.get(i).and_then(Option::as_ref))
                    .is_some_and(|(n, s)| s.contains(graph, n));
                if !declared && !reached && !set_up {
                    continue;
                }
                owned = true;
                c.watches.push(Watch::unconditional(
                    Relation::Informer,
                    (&group, &version, &kind),
                    sources.clone(),
                ));
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

/// True when some event handler of the project feeds the controller `owner` describes.
pub fn fed(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
    putters: &Putters,
    owner: &HandlerOwner,
) -> bool {
    files.iter().enumerate().any(|(fi, input)| {
        input.facts.informers.iter().any(|raw| {
            let fed = Fed {
                values,
                graph,
                putters,
                fi,
                raw,
            };
            fed.feeds(owner)
        })
    })
}

/// An event handler registration, asked whether it feeds a controller.
struct Fed<'v, 'a, 'b, 'g> {
    values: &'v Values<'a, 'b>,
    graph: &'g Graph<'g>,
    /// The functions putting work into a struct's queue, with that struct.
    putters: &'g Putters,
    fi: usize,
    raw: &'g RawInformer,
}

/// The functions putting work into a queue a struct holds, with that struct
/// (`controllers::putters`).
pub type Putters = HashMap<FuncId, TypeKey>;

/// What each controller reaches: from its reconcile roots, and from its setup (None for
/// a controller without one).
#[derive(Clone, Copy)]
pub struct Reaches<'a> {
    pub reconcile: &'a [Option<Paths>],
    pub setup: &'a [Option<Setup>],
}

/// What tells which event handlers feed which controller: per controller, how it is fed
/// (None for builder controllers), and the functions filling each struct's queue.
#[derive(Clone, Copy)]
pub struct Feeders<'a> {
    pub owners: &'a [Option<HandlerOwner>],
    pub putters: &'a Putters,
}

/// Functions an event handler's method calls are followed through, looking for a put.
const MAX_HANDLER_REACH: usize = 400;

impl Fed<'_, '_, '_, '_> {
    fn feeds_any(&self, owners: &[Option<HandlerOwner>]) -> bool {
        owners.iter().flatten().any(|o| self.feeds(o))
    }

    /// Whether the registration feeds the controller `owner` describes, whatever the kind.
    fn feeds(&self, owner: &HandlerOwner) -> bool {
        let any = String::new();
        self.relation(owner, (&any, &any, &any)).is_some()
    }

    /// The relation of the registration to the controller `owner` describes, if it feeds
    /// it: `Watches` for a work queue's handlers; for a Knative controller `For` when it
    /// is the reconciled kind's informer, `Owns` when it enqueues the owner
    /// (`EnqueueControllerOf`), else `Watches`.
    fn relation(&self, owner: &HandlerOwner, gvk: (&String, &String, &String)) -> Option<Relation> {
        match owner {
            HandlerOwner::Types { key, frameworks } => {
                let in_method_of_owner = self.raw.func.receiver.as_deref()
                    == Some(key.name.as_str())
                    && self.values.index.package_of(self.graph.file(self.fi))
                        == Some(key.pkg.as_str());
                let ours = |t: &TypeKey| t == key || frameworks.contains(t);
                let feeds = self.raw.handler.iter().any(|r| {
                    let Some(t) = self.ref_type(r) else {
                        return false;
                    };
                    match &r.selected {
                        // `c.queue.Add(…)`: the controller's own queue.
                        Some(f) if ours(&t) && self.is_queue_field(&t, f) => true,
                        // `c.enqueue`, `c.handleObject`, another type's method handing
                        // the event on: a method that fills the controller's queue.
                        // A framework's queue is every holder's type: only the holder's
                        // own methods fill the instance it holds.
                        Some(m) if t == *key => self.enqueues(&t, m, &ours),
                        Some(m) => self.enqueues(&t, m, &|q: &TypeKey| q == key),
                        // The framework itself (`c.rr`), added in its holder's method.
                        None => frameworks.contains(&t) && in_method_of_owner,
                    }
                }) || (self.builds(key)
                    && self.raw.handler.iter().any(|r| self.is_queue(r)));
                feeds.then_some(Relation::Watches)
            }
            HandlerOwner::Impl {
                file,
                func,
                holders,
                reconciled,
            } => {
                if *file != self.fi || *func != self.raw.func {
                    return None;
                }
                let refs: Vec<_> = self
                    .raw
                    .handler
                    .iter()
                    .filter(|r| {
                        holders.iter().any(|h| {
                            h.root == r.root && (h.field.is_none() || h.field == r.selected)
                        })
                    })
                    .collect();
                if refs.is_empty() {
                    return None;
                }
                let enqueues = |m: &dyn Fn(&str) -> bool| {
                    refs.iter().any(|r| r.selected.as_deref().is_some_and(m))
                };
                // The reconciled kind's own informer is `For` when its handler enqueues
                // the object (`impl.Enqueue`, `EnqueueKey`, …), not when it only tells
                // the tracker (`impl.Tracker.OnDeletedObserver`). A generic reconciler's
                // own kind is the one whose handler enqueues the object itself.
                let is_reconciled = match reconciled {
                    Some((g, v, k)) => {
                        (g, v, k) == gvk
                            && enqueues(&|m| m.starts_with("Enqueue") && m != ENQUEUE_OWNER)
                    }
                    None => enqueues(&|m| m == "Enqueue"),
                };
                Some(if enqueues(&|m| m == ENQUEUE_OWNER) {
                    Relation::Owns
                } else if is_reconciled {
                    Relation::For
                } else {
                    Relation::Watches
                })
            }
        }
    }

    /// True when field `field` of type `t` holds a work queue.
    fn is_queue_field(&self, t: &TypeKey, field: &str) -> bool {
        crate::controllers::is_queue_field(self.values.index, self.graph, &t.pkg, &t.name, field)
    }

    /// True when method `m` of `t` reaches a put into the queue of a type `ours` accepts.
    fn enqueues(&self, t: &TypeKey, m: &str, ours: &dyn Fn(&TypeKey) -> bool) -> bool {
        let methods = self.graph.methods_of(&t.pkg, &t.name, m);
        !methods.is_empty()
            && self.graph.reaches_within(methods, MAX_HANDLER_REACH, |id| {
                self.putters.get(&id).is_some_and(ours)
            })
    }

    /// True when the function adding the handler builds a value of type `key`.
    fn builds(&self, key: &TypeKey) -> bool {
        let file = self.graph.file(self.fi);
        let index = self.values.index;
        file.built.iter().any(|b| {
            b.func == self.raw.func
                && b.ty.name == key.name
                && index
                    .type_package(file, b.ty.qualifier.as_deref())
                    .as_deref()
                    == Some(key.pkg.as_str())
        })
    }

    /// True when a handler's value is a client-go work queue (declared so, or made by the
    /// work queue package's constructors).
    fn is_queue(&self, r: &HandlerRef) -> bool {
        let Some(chain) = &r.chain else {
            return false;
        };
        let file = self.graph.file(self.fi);
        let index = self.values.index;
        if let Root::Call {
            qualifier: Some(q), ..
        } = &chain.root
            && chain.steps.is_empty()
            && index.import_for(file, q).as_deref() == Some(WORKQUEUE)
        {
            return true;
        }
        self.graph
            .type_written(self.fi, chain)
            .is_some_and(|(at, t)| {
                crate::controllers::is_queue_type(
                    index,
                    self.graph.file(at),
                    t.qualifier.as_deref(),
                    &t.name,
                )
            })
    }

    /// The repository type a handler's value has, when it can be followed.
    fn ref_type(&self, r: &HandlerRef) -> Option<TypeKey> {
        let (at, t) = self.graph.type_written(self.fi, r.chain.as_ref()?)?;
        if t.collection {
            return None;
        }
        let pkg = self
            .values
            .index
            .type_package(self.graph.file(at), t.qualifier.as_deref())?;
        Some(TypeKey { pkg, name: t.name })
    }
}

/// Knative's `Impl` method enqueueing an object's controlling owner.
const ENQUEUE_OWNER: &str = "EnqueueControllerOf";

/// Adds a watch to a controller, or the source to the same watch already there.
fn add_watch(
    c: &mut Controller,
    relation: Relation,
    (group, version, kind): (&String, &String, &String),
    sources: &[SourceRef],
) {
    if let Some(w) = c.watches.iter_mut().find(|w| {
        w.relation == relation && &w.group == group && &w.version == version && &w.kind == kind
    }) {
        for s in sources {
            if !w.sources.contains(s) {
                w.sources.push(s.clone());
            }
        }
        return;
    }
    c.watches.push(Watch::unconditional(
        relation,
        (group, version, kind),
        sources.to_vec(),
    ));
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
            root,
            group_version,
            resource,
        } => match values.factory_kind(file, dir, root, group_version, resource) {
            Some(found) => kind(
                found,
                format!(
                    "{group_version}().{resource}() is not an accessor of the informer factory's API groups"
                ),
            ),
            None => kind(
                values.informer_accessor_kind(group_version, resource),
                format!(
                    "{group_version}().{resource}() is neither a Kubernetes API group's accessor nor one of the repository's API packages"
                ),
            ),
        },
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
            .or_else(|| injected_informer_kind(values, file, value))
            .or_else(|| constructed_informer_kind(values, file, value))
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

/// Knative's injection of informers: `Get(ctx)` of a package
/// `…/injection/…/informers/<group>/<version>/<kind>[/filtered]` is the informer of that
/// kind. injection-gen writes one package per kind, named by the kind in lower case: of
/// client-go's kinds under `knative.dev/pkg` (`kube/…`, `namespacedkube/…`), else of the
/// API module the injection package is in (its API folder named `<group>`). The kind's
/// spelling comes from the built-in table, never from the folder's name.
struct InjectionPath<'a> {
    kube: bool,
    group: &'a str,
    version: &'a str,
    lower_kind: &'a str,
}

fn injection_path(import: &str) -> Option<InjectionPath<'_>> {
    let (_, rest) = import.split_once("/injection/")?;
    let (clients, rest) = rest.rsplit_once("informers/")?;
    let rest = rest.strip_suffix("/filtered").unwrap_or(rest);
    let mut parts = rest.split('/');
    let (group, version, lower_kind) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || !kubernetes::is_version(version) {
        return None;
    }
    let kube = import.starts_with("knative.dev/pkg/")
        && matches!(
            clients.trim_end_matches('/').rsplit('/').next(),
            Some("kube" | "namespacedkube")
        );
    Some(InjectionPath {
        kube,
        group,
        version,
        lower_kind,
    })
}

/// The import path and function of `pkg.F(…)`'s result.
fn foreign_call<'v>(
    values: &Values,
    file: &GoFile,
    value: &'v ValueType,
) -> Option<(String, &'v str)> {
    let ValueType::ForeignResult {
        qualifier, name, ..
    } = value
    else {
        return None;
    };
    Some((values.index.import_for(file, qualifier)?, name))
}

fn injected_informer_kind(
    values: &Values,
    file: &GoFile,
    value: &ValueType,
) -> Option<(String, String, String)> {
    let (import, name) = foreign_call(values, file, value)?;
    if name != "Get" {
        return None;
    }
    let path = injection_path(&import)?;
    let (group, version) = if path.kube {
        kubernetes::go_packages::builtin_group_version(&format!(
            "k8s.io/api/{}/{}",
            path.group, path.version
        ))?
    } else {
        let folder = kubernetes::go_packages::module_api_folders(&import)
            .into_iter()
            .find(|f| f.rsplit('/').next() == Some(path.group))?;
        kubernetes::go_packages::builtin_group_version(&format!("{folder}/{}", path.version))?
    };
    let kind = kubernetes::resources::well_known_kind_named(&group, path.lower_kind)?;
    Some((group, version, kind.to_string()))
}

/// `NewPodInformer(…)` / `NewFilteredPodInformer(…)` of client-go's informers or of a
/// generated `…/informers/externalversions/<group>/<version>` package: informer-gen
/// generates them beside the `PodInformer` type, for the same kind.
fn constructed_informer_kind(
    values: &Values,
    file: &GoFile,
    value: &ValueType,
) -> Option<(String, String, String)> {
    let (import, name) = foreign_call(values, file, value)?;
    let kind = name
        .strip_prefix("NewFiltered")
        .or_else(|| name.strip_prefix("New"))?
        .strip_suffix("Informer")?;
    generated_informer_kind(values, &import, &format!("{kind}Informer"))
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
            let (g, v) =
                kubernetes::go_packages::builtin_group_version(&format!("k8s.io/api/{rest}"))?;
            return Some((g, v, kind.to_string()));
        }
    }
    // A generated package of the repository: the API package it imports that declares
    // the kind (the generator writes that import), whatever the folders are called.
    if let Some(dir) = values.index.dir_of_import(import) {
        return imported_api_kind(values, dir, kind);
    }
    let rest = import
        .split_once("/informers/externalversions/")
        .or_else(|| import.split_once("/listers/"))?
        .1;
    let (group, version) = rest.split_once('/')?;
    if version.contains('/') || !kubernetes::is_version(version) {
        return None;
    }
    let capital = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    values.informer_accessor_kind(
        &format!("{}{}", capital(group), capital(version)),
        &plural(kind),
    )
}

/// The kind `kind` of the one API package of the repository (a package with a declared
/// group and version, defining a type of that name) the files of folder `dir` import.
fn imported_api_kind(values: &Values, dir: &str, kind: &str) -> Option<(String, String, String)> {
    let index = values.index;
    let files: &[GoInput] = index.files;
    let mut found = std::collections::BTreeSet::new();
    for input in files.iter().filter(|f| dir_of(&f.facts.path) == dir) {
        for import in &input.facts.imports {
            let Some((group, version)) = index.group_version(&import.path) else {
                continue;
            };
            let defines = index.dir_of_import(&import.path).is_some_and(|api| {
                files
                    .iter()
                    .filter(|f| dir_of(&f.facts.path) == api)
                    .any(|f| f.facts.structs.iter().any(|s| s.name == kind))
            });
            if defines {
                found.insert((group, version, index.kind_name(&import.path, kind)));
            }
        }
    }
    let mut found = found.into_iter();
    match (found.next(), found.next()) {
        (Some(k), None) => Some(k),
        _ => None,
    }
}
