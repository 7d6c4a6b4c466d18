//! One function body: the `Api<K>` values it holds, the writes and watcher informers made
//! through them, the functions it calls, and the kube-rs controller chains and HTTP routers
//! it builds. Bodies are walked with syn's `Visit` (see ARCHITECTURE.md: the nesting guard
//! in `syntax::too_deep` bounds the recursion before syn ever sees the file).

use std::collections::BTreeSet;

use syn::visit::{self, Visit};
use syn::{Expr, ExprCall, ExprMethodCall, FnArg, GenericArgument, Pat, PathArguments, Type};

use super::routes;
use super::syntax::{line, path_line, path_name, peel, peel_type, str_lit};
use super::uses::{Uses, segments};
use model::{Area, Relation, Verb};

/// The Rust type an `Api<K>` is over, or why it is not known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiKind {
    /// The type path with imports resolved (`k8s_openapi::api::core::v1::Pod`, `Document`).
    Known(String),
    Unknown(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawWatch {
    pub relation: Relation,
    pub kind: ApiKind,
    pub line: u32,
}

/// How kube-runtime's `Controller` is made: from an `Api` (`new`, `new_with`) or from a
/// stream of objects and a reader (`for_stream`, `for_shared_stream`, and their `_with`).
/// Its `owns*` and `watches*` methods come in the same two forms.
const CONTROLLER_CONSTRUCTORS: [&str; 6] = [
    "new",
    "new_with",
    "for_stream",
    "for_stream_with",
    "for_shared_stream",
    "for_shared_stream_with",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawController {
    pub kind: ApiKind,
    pub line: u32,
    /// `.owns(…)` and `.watches(…)`, in chain order.
    pub watches: Vec<RawWatch>,
    /// The function `.run(…)` is given, when it is a path: its name and how to find it.
    pub reconciler: Option<String>,
    pub reconciler_call: Option<Call>,
}

/// A call of a function of the crate, as written (imports resolved), to be matched per
/// project against the functions' module paths and impl types.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Call {
    /// `f()`, `module::f()`, `crate::a::f()`, `super::f()`: the path before the name.
    Path(Vec<String>, String),
    /// `self.m()` and `Self::m()` (type `None`: the caller's impl type), `Type::m()`.
    Method(Option<String>, String),
}

/// A request to the API server through an `Api`: a write or a read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRequest {
    pub verb: Verb,
    pub kind: ApiKind,
    pub line: u32,
}

/// What one function does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FnFacts {
    pub name: String,
    pub line: u32,
    /// Inline modules (`mod a { mod b { … } }`) the function sits in, outermost first.
    pub module: Vec<String>,
    /// The type of the `impl` block it is a method of.
    pub owner: Option<String>,
    /// `Samples` inside `#[cfg(test)]` items and for `#[test]` functions, else the file's.
    pub area: Area,
    /// Functions and methods it calls (resolved per project by `graph`).
    pub calls: BTreeSet<Call>,
    pub writes: Vec<RawRequest>,
    /// `get`, `get_opt`, `list`, `watch`, … through an `Api`.
    pub reads: Vec<RawRequest>,
    /// `watcher(api, …)` and `metadata_watcher(api, …)`.
    pub informers: Vec<RawWatch>,
    pub controllers: Vec<RawController>,
    pub routers: Vec<routes::RawRouter>,
    /// Type names whose clap `parse()` is called.
    pub parses: BTreeSet<String>,
    /// `std::env::var("X")` and friends.
    pub env_reads: Vec<(String, u32)>,
    /// Calls that open external connections (see `connections`).
    pub connections: Vec<super::connections::RawConnection>,
}

/// How many combinator calls and closures `api_of_expr` looks through.
const MAX_COMBINATOR_STEPS: usize = 16;

/// The type kube's event `Recorder` publishes.
const EVENT: &str = "k8s_openapi::api::events::v1::Event";

const API_CONSTRUCTORS: &[&str] = &[
    "all",
    "all_with",
    "namespaced",
    "namespaced_with",
    "default_namespaced",
    "default_namespaced_with",
];

/// kube's `Api` write methods and the verbs the model uses for them (the Go analyzer's
/// names for the same requests).
fn verb(method: &str, args: &[&Expr]) -> Option<Verb> {
    let applies = args
        .get(2)
        .is_some_and(|a| matches!(peel(a), Expr::Call(c) if call_path_ends(c, "Apply")));
    Some(match method {
        "create" => Verb::Create,
        "replace" => Verb::Update,
        "replace_status" => Verb::StatusUpdate,
        "patch" | "patch_metadata" if applies => Verb::Apply,
        "patch" | "patch_metadata" => Verb::Patch,
        "patch_status" => Verb::StatusPatch,
        "delete" => Verb::Delete,
        "delete_collection" => Verb::DeleteAllOf,
        _ => return None,
    })
}

/// kube's `Api` read methods and the verbs the model uses for them.
fn read_verb(method: &str) -> Option<Verb> {
    Some(match method {
        "get" | "get_opt" | "get_metadata" | "get_metadata_opt" | "get_status" | "entry" => {
            Verb::Get
        }
        "list" | "list_metadata" => Verb::List,
        "watch" | "watch_metadata" => Verb::Watch,
        _ => return None,
    })
}

fn call_path_ends(c: &ExprCall, name: &str) -> bool {
    matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == name))
}

pub struct BodyVisitor<'a> {
    pub uses: &'a Uses,
    generics: Vec<String>,
    /// Local names in source order with the `Api` kind each holds (`None`: not an `Api`).
    /// Local names in source order with the `Api` kind each holds (`None`: not an `Api`)
    /// and whether it holds a kube event `Recorder`.
    bindings: Vec<(String, Option<ApiKind>, bool)>,
    /// Locals holding a reqwest `Client`.
    reqwest_clients: Vec<String>,
    /// Start positions of chains already read from their outermost call.
    seen: BTreeSet<(usize, usize)>,
    pub facts: FnFacts,
}

impl<'a> BodyVisitor<'a> {
    pub fn new(uses: &'a Uses, name: String, line: u32, sig: Option<&syn::Signature>) -> Self {
        let mut v = BodyVisitor {
            uses,
            generics: Vec::new(),
            bindings: Vec::new(),
            reqwest_clients: Vec::new(),
            seen: BTreeSet::new(),
            facts: FnFacts {
                name,
                line,
                ..FnFacts::default()
            },
        };
        if let Some(sig) = sig {
            v.generics = sig
                .generics
                .type_params()
                .map(|p| p.ident.to_string())
                .collect();
            for input in &sig.inputs {
                if let FnArg::Typed(t) = input
                    && let Pat::Ident(id) = &*t.pat
                {
                    let kind = v.api_of_type(&t.ty);
                    let recorder = v.is_recorder_type(&t.ty);
                    v.bindings.push((id.ident.to_string(), kind, recorder));
                }
            }
        }
        v
    }

    fn uses_kube(&self) -> bool {
        self.uses
            .uses_crate(&["kube", "kube_client", "kube_runtime"])
    }

    /// True when a resolved path is kube's item `name` (or the bare name in a file that
    /// imports kube through a glob).
    fn is_kube(&self, resolved: &str, name: &str) -> bool {
        let first = resolved.split("::").next().unwrap_or("");
        let last = resolved.rsplit("::").next().unwrap_or("");
        last == name
            && (matches!(first, "kube" | "kube_client" | "kube_runtime")
                || (resolved == name && !self.uses.is_imported(name) && self.uses_kube()))
    }

    /// True for kube's event `Recorder` type (behind references).
    fn is_recorder_type(&self, ty: &Type) -> bool {
        let Type::Path(p) = peel_type(ty) else {
            return false;
        };
        self.is_kube(&self.uses.resolve(&segments(&p.path)), "Recorder")
    }

    /// True when an expression is shown to be kube's event `Recorder`: `Recorder::new(…)`
    /// or a local holding one.
    fn is_recorder(&self, e: &Expr) -> bool {
        match peel(e) {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => {
                    let resolved = self.uses.resolve(&segments(&p.path));
                    resolved
                        .rsplit_once("::")
                        .is_some_and(|(ty, ctor)| ctor == "new" && self.is_kube(ty, "Recorder"))
                }
                _ => false,
            },
            Expr::Path(p) if p.path.segments.len() == 1 => {
                let Some(name) = p.path.segments.first().map(|s| s.ident.to_string()) else {
                    return false;
                };
                self.bindings
                    .iter()
                    .rev()
                    .find(|(n, _, _)| *n == name)
                    .is_some_and(|(_, _, r)| *r)
            }
            _ => false,
        }
    }

    /// The kind of an `Api<K>` type (behind references), or `None` for any other type.
    pub fn api_of_type(&self, ty: &Type) -> Option<ApiKind> {
        let Type::Path(p) = peel_type(ty) else {
            return None;
        };
        let resolved = self.uses.resolve(&segments(&p.path));
        if !self.is_kube(&resolved, "Api") {
            return None;
        }
        let args = &p.path.segments.last()?.arguments;
        Some(
            self.first_type_arg(args)
                .unwrap_or_else(|| ApiKind::Unknown("`Api` without a type argument".to_string())),
        )
    }

    fn first_type_arg(&self, args: &PathArguments) -> Option<ApiKind> {
        let PathArguments::AngleBracketed(a) = args else {
            return None;
        };
        a.args.iter().find_map(|g| match g {
            GenericArgument::Type(t) => Some(self.type_kind(t)),
            _ => None,
        })
    }

    /// A type argument as a resolved path, unless it is a generic parameter.
    fn type_kind(&self, t: &Type) -> ApiKind {
        let Type::Path(p) = t else {
            return ApiKind::Unknown(format!("`{}` is not a named type", super::syntax::text(t)));
        };
        let segs = segments(&p.path);
        if let [one] = segs.as_slice()
            && self.generics.contains(one)
        {
            return ApiKind::Unknown(format!("`{one}` is a generic parameter"));
        }
        ApiKind::Known(self.uses.resolve(&segs))
    }

    /// The kind of the `Api` an expression evaluates to, or `None` when it is not shown to
    /// be an `Api`.
    pub fn api_of_expr(&self, e: &Expr) -> Option<ApiKind> {
        // `Option` combinators around an `Api` (`ns.map(|ns| Api::namespaced(c, ns))
        // .unwrap_or_else(|| Api::default_namespaced(c))`) are looked through, a bounded
        // number of steps; the first `Api` found decides.
        let mut pending: Vec<&Expr> = vec![e];
        let mut steps = 0;
        while let Some(e) = pending.pop() {
            steps += 1;
            if steps > MAX_COMBINATOR_STEPS {
                break;
            }
            match peel(e) {
                Expr::MethodCall(m) => {
                    let method = m.method.to_string();
                    let closures = m.args.iter().filter_map(|a| match a {
                        Expr::Closure(c) => Some(&*c.body),
                        _ => None,
                    });
                    match method.as_str() {
                        "map" | "and_then" | "map_or_else" => pending.extend(closures),
                        "unwrap_or_else" | "or_else" => {
                            pending.extend(closures);
                            pending.push(&m.receiver);
                        }
                        "unwrap_or" | "or" => {
                            pending.extend(m.args.iter());
                            pending.push(&m.receiver);
                        }
                        "unwrap" | "expect" => pending.push(&m.receiver),
                        _ => {}
                    }
                }
                Expr::Block(b) => {
                    if let Some(syn::Stmt::Expr(last, None)) = b.block.stmts.last() {
                        pending.push(last);
                    }
                }
                other => {
                    if let Some(kind) = self.api_of_plain_expr(other) {
                        return Some(kind);
                    }
                }
            }
        }
        None
    }

    /// The kind of an `Api` constructor call or of a local holding an `Api`.
    fn api_of_plain_expr(&self, e: &Expr) -> Option<ApiKind> {
        match e {
            Expr::Call(c) => {
                let Expr::Path(p) = &*c.func else {
                    return None;
                };
                let segs = &p.path.segments;
                let n = segs.len();
                if n < 2 {
                    return None;
                }
                let ctor = &segs[n - 1];
                let api = &segs[n - 2];
                if !API_CONSTRUCTORS.iter().any(|c| ctor.ident == c) {
                    return None;
                }
                let resolved = self.uses.resolve(&segments(&p.path));
                let without_ctor = resolved.rsplit_once("::").map(|(a, _)| a).unwrap_or("");
                if !self.is_kube(without_ctor, "Api") {
                    return None;
                }
                Some(self.first_type_arg(&api.arguments).unwrap_or_else(|| {
                    ApiKind::Unknown(format!(
                        "`Api::{}` without a type argument: the kind is inferred by the compiler",
                        ctor.ident
                    ))
                }))
            }
            Expr::Path(p) if p.path.segments.len() == 1 => {
                let name = p.path.segments.first()?.ident.to_string();
                self.bindings
                    .iter()
                    .rev()
                    .find(|(n, _, _)| *n == name)
                    .and_then(|(_, k, _)| k.clone())
            }
            _ => None,
        }
    }

    /// The kind a controller constructor or `owns*`/`watches*` method watches: from the `Api`
    /// passed first, or unknown (said why) for the `*_stream` forms, whose first argument
    /// is a stream of objects that portolan does not follow to its type.
    fn watched_kind(&self, method: &str, first: Option<&&Expr>) -> ApiKind {
        if method.contains("stream") {
            return ApiKind::Unknown(format!(
                "`{method}` takes a stream of objects, which portolan does not follow to its type"
            ));
        }
        self.required_api(first)
    }

    /// The kind of an `Api` argument that must be one (a controller's or watcher's).
    fn required_api(&self, e: Option<&&Expr>) -> ApiKind {
        e.and_then(|e| self.api_of_expr(e)).unwrap_or_else(|| {
            ApiKind::Unknown("the `Api` passed here could not be followed to its type".into())
        })
    }

    /// Reads a method chain from its outermost call: a controller or a router.
    fn chain(&mut self, outer: &ExprMethodCall) {
        let mut calls: Vec<&ExprMethodCall> = vec![outer];
        let mut base: &Expr = &outer.receiver;
        loop {
            match base {
                Expr::MethodCall(m) => {
                    calls.push(m);
                    base = &m.receiver;
                }
                Expr::Await(a) => base = &a.base,
                Expr::Paren(p) => base = &p.expr,
                _ => break,
            }
        }
        let Expr::Call(call) = base else {
            return;
        };
        let Expr::Path(p) = &*call.func else {
            return;
        };
        let start = p.path.segments.first().map(|s| s.ident.span().start());
        let Some(start) = start.map(|s| (s.line, s.column)) else {
            return;
        };
        if self.seen.contains(&start) {
            return;
        }
        let resolved = self.uses.resolve(&segments(&p.path));
        calls.reverse();
        let (type_path, constructor) = resolved.rsplit_once("::").unwrap_or(("", ""));
        if self.is_kube(type_path, "Controller") && CONTROLLER_CONSTRUCTORS.contains(&constructor) {
            self.seen.insert(start);
            let args: Vec<&Expr> = call.args.iter().collect();
            let mut c = RawController {
                kind: self.watched_kind(constructor, args.first()),
                line: path_line(&p.path),
                watches: Vec::new(),
                reconciler: None,
                reconciler_call: None,
            };
            for m in calls {
                let args: Vec<&Expr> = m.args.iter().collect();
                let method = m.method.to_string();
                let relation = if method == "run" {
                    c.reconciler = args.first().and_then(|a| path_name(a));
                    c.reconciler_call = args.first().and_then(|a| match peel(a) {
                        Expr::Path(p) => self.call_of_path(&p.path),
                        _ => None,
                    });
                    continue;
                } else if method.starts_with("owns") {
                    Relation::Owns
                } else if method.starts_with("watches") {
                    Relation::Watches
                } else {
                    continue;
                };
                c.watches.push(RawWatch {
                    relation,
                    kind: self.watched_kind(&method, args.first()),
                    line: line(m.method.span()),
                });
            }
            self.facts.controllers.push(c);
        } else if let Some(r) = routes::router_chain(
            &mut routes::Scope {
                uses: self.uses,
                seen: &mut self.seen,
            },
            &resolved,
            call,
            &calls,
        ) {
            self.seen.insert(start);
            self.facts.routers.push(r);
        }
    }

    /// How a path names a function of the crate, or `None` when it names something of
    /// another crate (an import from it, or `std`).
    fn call_of_path(&self, path: &syn::Path) -> Option<Call> {
        let segs = segments(path);
        let (last, qualifier) = segs.split_last()?;
        let local_root = |s: &str| matches!(s, "crate" | "self" | "super");
        match qualifier {
            [] if self.uses.is_imported(last) => {
                let resolved = self.uses.resolve(&segs);
                let full: Vec<String> = resolved.split("::").map(str::to_string).collect();
                let (name, module) = full.split_last()?;
                local_root(module.first()?).then(|| Call::Path(module.to_vec(), name.clone()))
            }
            [] => Some(Call::Path(Vec::new(), last.clone())),
            [ty] if ty == "Self" => Some(Call::Method(None, last.clone())),
            [.., ty] if ty.starts_with(|c: char| c.is_ascii_uppercase()) => {
                // A type imported from another crate has none of this crate's methods.
                let foreign = qualifier.len() == 1
                    && self.uses.is_imported(ty)
                    && !local_root(self.uses.resolve(qualifier).split("::").next()?);
                (!foreign).then(|| Call::Method(Some(ty.clone()), last.clone()))
            }
            [first, ..] if local_root(first) => Some(Call::Path(qualifier.to_vec(), last.clone())),
            [first, ..] if matches!(first.as_str(), "std" | "core" | "alloc") => None,
            [first, ..] if self.uses.is_imported(first) => {
                let resolved = self.uses.resolve(&segs);
                let full: Vec<String> = resolved.split("::").map(str::to_string).collect();
                let (name, module) = full.split_last()?;
                local_root(module.first()?).then(|| Call::Path(module.to_vec(), name.clone()))
            }
            // A child module, or a crate used without `use` (which matches no module).
            _ => Some(Call::Path(qualifier.to_vec(), last.clone())),
        }
    }

    /// True when `e` is a reqwest `Client`: made in the expression
    /// (`reqwest::Client::builder().build()?`) or held in a local that was.
    fn is_reqwest_client(&self, e: &Expr) -> bool {
        let mut e = peel(e);
        for _ in 0..MAX_COMBINATOR_STEPS {
            match e {
                Expr::Path(p) => {
                    return p
                        .path
                        .get_ident()
                        .is_some_and(|id| self.reqwest_clients.iter().any(|n| id == n));
                }
                Expr::Call(c) => {
                    return matches!(&*c.func, Expr::Path(p)
                    if super::connections::makes_reqwest_client(
                        &self.uses.resolve(&segments(&p.path)),
                    ));
                }
                // The builder's settings and `build()`, then `unwrap`/`expect`/`?`.
                Expr::MethodCall(m) => e = peel(&m.receiver),
                _ => return false,
            }
        }
        false
    }
}

impl<'ast> Visit<'ast> for BodyVisitor<'_> {
    fn visit_local(&mut self, l: &'ast syn::Local) {
        // The initializer is visited first: `let api = api.clone()` reads the old binding.
        visit::visit_local(self, l);
        let (name, ty) = match &l.pat {
            Pat::Ident(id) => (id.ident.to_string(), None),
            Pat::Type(t) => match &*t.pat {
                Pat::Ident(id) => (id.ident.to_string(), Some(&t.ty)),
                _ => return,
            },
            _ => return,
        };
        let kind = match ty {
            Some(ty) => self.api_of_type(ty),
            None => l.init.as_ref().and_then(|i| self.api_of_expr(&i.expr)),
        };
        let recorder = match ty {
            Some(ty) => self.is_recorder_type(ty),
            None => l.init.as_ref().is_some_and(|i| self.is_recorder(&i.expr)),
        };
        if let Some(init) = &l.init
            && let Some(start) = routes::chain_start(&init.expr)
            && let Some(r) = self.facts.routers.iter_mut().find(|r| r.start == start)
        {
            r.binding = Some(name.clone());
        }
        if l.init
            .as_ref()
            .is_some_and(|i| self.is_reqwest_client(&i.expr))
        {
            self.reqwest_clients.push(name.clone());
        } else {
            self.reqwest_clients.retain(|n| *n != name);
        }
        self.bindings.push((name, kind, recorder));
    }

    fn visit_expr_method_call(&mut self, m: &'ast ExprMethodCall) {
        self.chain(m);
        let method = m.method.to_string();
        let args: Vec<&Expr> = m.args.iter().collect();
        if let Some(verb) = verb(&method, &args)
            && let Some(kind) = self.api_of_expr(&m.receiver)
        {
            self.facts.writes.push(RawRequest {
                verb,
                kind,
                line: line(m.method.span()),
            });
        } else if let Some(verb) = read_verb(&method)
            && let Some(kind) = self.api_of_expr(&m.receiver)
        {
            self.facts.reads.push(RawRequest {
                verb,
                kind,
                line: line(m.method.span()),
            });
        }
        // kube's `Recorder::publish` creates an events.k8s.io/v1 Event, and merge-patches it
        // when the same event repeats (kube-runtime's events.rs).
        if method == "publish" && self.is_recorder(&m.receiver) {
            for verb in [Verb::Create, Verb::Patch] {
                self.facts.writes.push(RawRequest {
                    verb,
                    kind: ApiKind::Known(EVENT.to_string()),
                    line: line(m.method.span()),
                });
            }
        }
        if self.is_reqwest_client(&m.receiver)
            && let Some(c) = super::connections::of_request(&method, &args, line(m.method.span()))
        {
            self.facts.connections.push(c);
        }
        if matches!(peel(&m.receiver), Expr::Path(p) if p.path.is_ident("self")) {
            self.facts.calls.insert(Call::Method(None, method.clone()));
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast ExprCall) {
        if let Expr::Path(p) = &*c.func {
            let segs = segments(&p.path);
            let resolved = self.uses.resolve(&segs);
            let last = segs.last().cloned().unwrap_or_default();
            let args: Vec<&Expr> = c.args.iter().collect();
            // kube's `finalizer(&api, name, obj, reconcile)` adds and removes its finalizer
            // with JSON patches of the object, through the `Api` it is given.
            if self.is_kube(&resolved, "finalizer") && args.len() == 4 {
                self.facts.writes.push(RawRequest {
                    verb: Verb::Patch,
                    kind: self.required_api(args.first()),
                    line: path_line(&p.path),
                });
            }
            if (self.is_kube(&resolved, "watcher") || self.is_kube(&resolved, "metadata_watcher"))
                && !args.is_empty()
            {
                self.facts.informers.push(RawWatch {
                    relation: Relation::Informer,
                    kind: self.required_api(args.first()),
                    line: path_line(&p.path),
                });
            }
            if matches!(
                resolved.as_str(),
                "std::env::var" | "std::env::var_os" | "env::var" | "env::var_os"
            ) && let Some(name) = args.first().and_then(|a| str_lit(a))
            {
                self.facts.env_reads.push((name, path_line(&p.path)));
            }
            if matches!(
                last.as_str(),
                "parse" | "try_parse" | "parse_from" | "try_parse_from"
            ) && segs.len() >= 2
            {
                self.facts.parses.insert(segs[segs.len() - 2].clone());
            }
            if let Some(c) = super::connections::of_call(&resolved, &args, path_line(&p.path)) {
                self.facts.connections.push(c);
            }
            if let Some(call) = self.call_of_path(&p.path) {
                self.facts.calls.insert(call);
            }
        }
        visit::visit_expr_call(self, c);
    }

    // Items nested in a body are separate functions, analyzed on their own.
    fn visit_item(&mut self, _: &'ast syn::Item) {}

    // A macro's tokens (`tokio::pin! { let w = watcher(…); }`, `assert!(api.create(…))`)
    // are walked when they parse as statements or as comma-separated expressions (the
    // nesting guard has already bounded them); other macros are opaque.
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if let Ok(stmts) = m.parse_body_with(syn::Block::parse_within) {
            for s in &stmts {
                Visit::visit_stmt(self, s);
            }
        } else if let Ok(exprs) =
            m.parse_body_with(syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated)
        {
            for e in &exprs {
                Visit::visit_expr(self, e);
            }
        }
    }
}
