//! Per-project route resolution: what each recorded receiver is, and the rows its calls
//! register.
//!
//! A receiver is evaluated from evidence only: an import of a known router package, a
//! declared router type, a package variable, struct field or function result built from one,
//! or what the callers of a function pass for a parameter. Everything else evaluates to
//! nothing, and a call on nothing registers nothing.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use super::extract::ROOT_PATH;
use super::grpc::{self, Registration};
use super::helpers::{self, Served};
use super::pattern::{ANY, join, prefix_match, split_pattern};
use crate::consts::ConstExpr;
use crate::facts::routes::{Arg, Base, Chain, GrpcFacts, RouteCall, Step};
use crate::index::{GoIndex, GoInput, dir_of};
use manifests::proto::ProtoFile;
use model::{Diagnostic, HttpEndpoint, SourceRef};

/// Evidence is followed through at most this many variables, fields and parameters.
const MAX_DEPTH: usize = 12;
/// A receiver evaluates to at most this many distinct values.
const MAX_VALUES: usize = 32;
/// Evaluating one call follows at most this many pieces of evidence, so that code where
/// every function forwards a router to many others cannot make the analysis explode.
const MAX_WORK: usize = 20_000;
/// A call inside loops over literal slices expands to at most this many rows.
const MAX_EXPANSIONS: usize = 256;

const CONTROLLER_RUNTIME: &str = "controller-runtime";
const GO_RESTFUL: &str = "go-restful";
const GRPC: &str = "grpc";
const GRPC_GATEWAY: &str = "grpc-gateway";
/// The method shown for a gRPC service's methods.
pub const GRPC_METHOD: &str = "GRPC";

/// Methods on an unknown receiver that deserve a diagnostic when given a path: a route
/// registration the analysis may be missing.
const DIAGNOSED: &[&str] = &[
    "HandleFunc",
    "Handle",
    "Register",
    "AddMetricsServerExtraHandler",
];

const HTTP_METHODS: &[&str] = &[
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "CONNECT", "OPTIONS", "TRACE",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framework {
    NetHttp,
    Gorilla,
    Gin,
    Echo,
    Chi,
}

impl Framework {
    fn name(self) -> &'static str {
        match self {
            Framework::NetHttp => "net/http",
            Framework::Gorilla => "gorilla/mux",
            Framework::Gin => "gin",
            Framework::Echo => "echo",
            Framework::Chi => "chi",
        }
    }
}

/// A Go package that matters here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Known {
    Router(Framework),
    /// `sigs.k8s.io/controller-runtime` (usually imported as `ctrl`).
    ControllerRuntime,
    /// `sigs.k8s.io/controller-runtime/pkg/manager`.
    Manager,
    /// `sigs.k8s.io/controller-runtime/pkg/webhook`.
    Webhook,
    /// `google.golang.org/grpc`.
    Grpc,
    /// grpc-gateway's `runtime` package (v1 and v2).
    GatewayRuntime,
    /// `github.com/emicklei/go-restful` (v3 and older).
    Restful,
}

fn known_package(import_path: &str) -> Option<Known> {
    // Major-version suffixes (`/v5`) name the same library.
    let base = match import_path.rsplit_once('/') {
        Some((head, v))
            if v.len() > 1 && v.starts_with('v') && v[1..].chars().all(|c| c.is_ascii_digit()) =>
        {
            head
        }
        _ => import_path,
    };
    Some(match base {
        "net/http" => Known::Router(Framework::NetHttp),
        "google.golang.org/grpc" => Known::Grpc,
        "github.com/grpc-ecosystem/grpc-gateway/runtime"
        | "github.com/grpc-ecosystem/grpc-gateway/v2/runtime" => Known::GatewayRuntime,
        "github.com/emicklei/go-restful" => Known::Restful,
        "github.com/gorilla/mux" => Known::Router(Framework::Gorilla),
        "github.com/gin-gonic/gin" => Known::Router(Framework::Gin),
        "github.com/labstack/echo" => Known::Router(Framework::Echo),
        "github.com/go-chi/chi" => Known::Router(Framework::Chi),
        "sigs.k8s.io/controller-runtime" => Known::ControllerRuntime,
        "sigs.k8s.io/controller-runtime/pkg/manager" => Known::Manager,
        "sigs.k8s.io/controller-runtime/pkg/webhook" => Known::Webhook,
        _ => return None,
    })
}

/// A string that may be partly unknown; unknown parts are shown as `{expression}`.
#[derive(Debug, Clone, PartialEq, Default)]
struct Text {
    s: String,
    unresolved: bool,
}

impl Text {
    fn known(s: &str) -> Text {
        Text {
            s: s.to_string(),
            unresolved: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Prefix {
    text: Text,
    /// The router came from a declaration alone (a parameter or field of a group type), so
    /// whether it has a prefix is not known.
    unknown: bool,
}

impl Prefix {
    fn root() -> Prefix {
        Prefix {
            text: Text::default(),
            unknown: false,
        }
    }

    fn join(&self, path: &Text, how: fn(&str, &str) -> String) -> Prefix {
        Prefix {
            text: Text {
                s: how(&self.text.s, &path.s),
                unresolved: self.text.unresolved || path.unresolved,
            },
            unknown: self.unknown,
        }
    }
}

/// gorilla/mux appends a route's path template to its subrouter's, without a slash between.
fn gorilla_join(prefix: &str, path: &str) -> String {
    format!("{}{path}", prefix.trim_end_matches('/'))
}

/// A gorilla/mux route being built by a chain of matcher calls.
#[derive(Debug, Clone, PartialEq)]
struct GorillaRoute {
    prefix: Prefix,
    host: Option<Text>,
    path: Option<Text>,
    prefix_match: bool,
    methods: Vec<Text>,
    handler: Option<String>,
    line: u32,
}

/// A go-restful route being built: `ws.GET("/{id}").To(h).Doc(…)`.
#[derive(Debug, Clone, PartialEq)]
struct RestfulRoute {
    root: Prefix,
    method: Option<Text>,
    path: Option<Text>,
    handler: Option<String>,
    line: u32,
}

/// What a receiver is.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Package(String),
    Router {
        fw: Framework,
        prefix: Prefix,
    },
    Route(Box<GorillaRoute>),
    Manager,
    WebhookServer,
    /// A `*grpc.Server` (or `grpc.ServiceRegistrar`).
    GrpcServer,
    /// grpc-gateway's `*runtime.ServeMux`.
    GatewayMux,
    /// A go-restful `*WebService` with its root path.
    WebService(Prefix),
    RestfulBuilder(Box<RestfulRoute>),
    /// A value of another package's type that is none of the above: calls on it register
    /// nothing, and are not worth a diagnostic.
    Other,
}

/// A route found, before it becomes a model row.
struct Draft {
    method: Text,
    host: Text,
    path: Text,
    handler: String,
    framework: &'static str,
    implicit: bool,
    unknown_prefix: bool,
    line: u32,
}

/// Where arguments are evaluated: the file, and loop variables bound to one value each.
struct Ctx<'c> {
    file: usize,
    subst: &'c [(String, ConstExpr)],
}

type Evidence<'a> = HashMap<(String, String), Vec<(usize, &'a Chain)>>;
/// (package, function, argument index).
type SiteKey = (String, String, usize);

struct Resolver<'a> {
    index: &'a GoIndex<'a>,
    files: &'a [GoInput],
    /// The package (import path, or folder outside any module) of each file.
    packages: Vec<String>,
    vars: Evidence<'a>,
    fields: Evidence<'a>,
    funcs: Evidence<'a>,
    /// (package, function, argument index) → what callers pass.
    sites: HashMap<SiteKey, Vec<(usize, &'a Chain)>>,
    /// Evidence followed for the call being evaluated (see `MAX_WORK`).
    work: Cell<usize>,
    protos: &'a [ProtoFile],
    /// The files of each package, for the generated code a registration names.
    by_package: HashMap<String, Vec<usize>>,
    /// Diagnostics of registrations, collected while evaluating.
    notes: RefCell<Vec<Diagnostic>>,
}

/// Resolves the route facts of every Go file of one project into endpoints.
pub fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    protos: &[ProtoFile],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<HttpEndpoint> {
    let r = Resolver::new(files, index, protos);
    let mut endpoints = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let path = &input.facts.path;
        for call in &input.facts.routes.calls {
            for subst in expansions(call) {
                let ctx = Ctx {
                    file: fi,
                    subst: &subst,
                };
                let mut drafts = Vec::new();
                r.run(&ctx, &call.chain, call.own_from, &mut drafts, diagnostics);
                for d in drafts {
                    let unresolved = d.method.unresolved || d.host.unresolved || d.path.unresolved;
                    if d.unknown_prefix {
                        diagnostics.push(Diagnostic::new(
                            path,
                            d.line,
                            format!(
                                "the path prefix of the router `{} {}` is registered on is not known (it is a parameter or field of a group type that nothing in the repository assigns); the route is listed without it",
                                d.method.s, d.path.s
                            ),
                        ));
                    } else if unresolved && d.framework != GRPC {
                        // (An unresolved gRPC service has its own diagnostic, noted where
                        // the registration was evaluated.)
                        diagnostics.push(Diagnostic::new(
                            path,
                            d.line,
                            format!(
                                "cannot resolve the route `{} {}{}`: the parts in braces are not string constants; it is listed as written",
                                d.method.s, d.host.s, d.path.s
                            ),
                        ));
                    }
                    endpoints.push(HttpEndpoint {
                        method: d.method.s,
                        path: d.path.s,
                        host: d.host.s,
                        handler: d.handler,
                        framework: d.framework.to_string(),
                        implicit: d.implicit,
                        unresolved: unresolved || d.unknown_prefix,
                        area: input.area,
                        sources: vec![SourceRef::new(path, d.line)],
                    });
                }
            }
        }
    }
    diagnostics.append(&mut r.notes.borrow_mut());
    endpoints
}

/// The routes one router step registers, each under the router's prefix.
struct StepRoutes<'p> {
    fw: Framework,
    prefix: &'p Prefix,
    line: u32,
    rows: Vec<Draft>,
}

impl StepRoutes<'_> {
    fn route(&mut self, method: Text, path: Text, handler: String) {
        self.rows.push(Draft {
            method,
            host: Text::default(),
            path: Prefix::join(self.prefix, &path, join).text,
            handler,
            framework: self.fw.name(),
            implicit: false,
            unknown_prefix: self.prefix.unknown,
            line: self.line,
        });
    }
}

/// The router a step leaves unchanged (`Use`, `Group` of chi, …).
fn same_router(fw: Framework, prefix: &Prefix) -> Vec<Value> {
    vec![Value::Router {
        fw,
        prefix: prefix.clone(),
    }]
}

/// One substitution of the loop variables a call's arguments use, per combination of their
/// values; a single empty substitution when none is used.
fn expansions(call: &RouteCall) -> Vec<Vec<(String, ConstExpr)>> {
    let mut used: Vec<&(String, Vec<ConstExpr>)> = Vec::new();
    for l in &call.loops {
        let referenced = call.chain.steps.iter().any(|s| {
            s.args
                .iter()
                .any(|a| a.expr.as_ref().is_some_and(|e| refers_to(e, &l.0)))
        });
        // An inner loop's variable shadows an outer one of the same name.
        if referenced && !used.iter().any(|u| u.0 == l.0) {
            used.push(l);
        }
    }
    let mut out: Vec<Vec<(String, ConstExpr)>> = vec![Vec::new()];
    for (var, values) in used {
        let mut next = Vec::new();
        for partial in &out {
            for v in values {
                if next.len() >= MAX_EXPANSIONS {
                    break;
                }
                let mut s = partial.clone();
                s.push((var.clone(), v.clone()));
                next.push(s);
            }
        }
        out = next;
    }
    out
}

fn refers_to(expr: &ConstExpr, var: &str) -> bool {
    match expr {
        ConstExpr::Ref {
            qualifier: None,
            name,
        } => name == var,
        ConstExpr::Concat(parts) => parts.iter().any(|p| refers_to(p, var)),
        _ => false,
    }
}

impl<'a> Resolver<'a> {
    fn new(files: &'a [GoInput], index: &'a GoIndex<'a>, protos: &'a [ProtoFile]) -> Self {
        let packages: Vec<String> = files
            .iter()
            .map(|f| {
                index
                    .package_of(&f.facts)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("./{}", dir_of(&f.facts.path)))
            })
            .collect();
        let mut r = Resolver {
            index,
            files,
            packages,
            vars: HashMap::new(),
            fields: HashMap::new(),
            funcs: HashMap::new(),
            sites: HashMap::new(),
            work: Cell::new(0),
            protos,
            by_package: HashMap::new(),
            notes: RefCell::new(Vec::new()),
        };
        for (fi, input) in files.iter().enumerate() {
            let facts = &input.facts.routes;
            let package = r.packages[fi].clone();
            r.by_package.entry(package.clone()).or_default().push(fi);
            for (name, chain) in &facts.vars {
                r.vars
                    .entry((package.clone(), name.clone()))
                    .or_default()
                    .push((fi, chain));
            }
            for (name, chain) in &facts.fields {
                r.fields
                    .entry((package.clone(), name.clone()))
                    .or_default()
                    .push((fi, chain));
            }
            for (name, chain) in &facts.funcs {
                r.funcs
                    .entry((package.clone(), name.clone()))
                    .or_default()
                    .push((fi, chain));
            }
            for site in &facts.call_sites {
                // `pkg.F(x)` calls into `pkg`; `F(x)` and `s.m(x)` into this package.
                let target = site
                    .qualifier
                    .as_deref()
                    .and_then(|q| index.import_for(&input.facts, q))
                    .unwrap_or_else(|| package.clone());
                for (i, chain) in &site.args {
                    r.sites
                        .entry((target.clone(), site.func.clone(), *i))
                        .or_default()
                        .push((fi, chain));
                }
            }
        }
        r
    }

    /// Evaluates a recorded call: the steps before `own_from` silently, the rest reporting
    /// the routes they register.
    fn run(
        &self,
        ctx: &Ctx,
        chain: &Chain,
        own_from: usize,
        out: &mut Vec<Draft>,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        self.work.set(0);
        let mut values = self.base_values(ctx.file, &chain.base, 0);
        for (i, step) in chain.steps.iter().enumerate() {
            let own = i >= own_from;
            if own && values.is_empty() {
                if let Some(step) = chain.steps[i..]
                    .iter()
                    .find(|s| DIAGNOSED.contains(&s.method.as_str()))
                {
                    self.diagnose_unknown_receiver(ctx, step, diagnostics);
                }
                return;
            }
            let mut next = Vec::new();
            for v in &values {
                let produced =
                    self.apply(ctx, v, step, if own { Some(&mut *out) } else { None }, 0);
                push_all(&mut next, produced);
            }
            values = next;
        }
        if own_from < chain.steps.len() {
            for v in values {
                match v {
                    Value::Route(route) => emit_gorilla(&route, out),
                    Value::RestfulBuilder(route) => emit_restful(&route, out),
                    _ => {}
                }
            }
        }
    }

    fn diagnose_unknown_receiver(&self, ctx: &Ctx, step: &Step, diagnostics: &mut Vec<Diagnostic>) {
        let Some(first) = step.args.first() else {
            return;
        };
        let path = self.text_of(ctx, first);
        let looks_like_path = !path.unresolved
            && (path.s.starts_with('/')
                || path
                    .s
                    .split_once(' ')
                    .is_some_and(|(_, rest)| rest.trim_start().starts_with('/')));
        if looks_like_path {
            diagnostics.push(Diagnostic::new(
                &self.files[ctx.file].facts.path,
                step.line,
                format!(
                    "`{}(\"{}\", …)` is not listed as a route: nothing shows that its receiver is an HTTP router (net/http, gorilla/mux, gin, echo, chi) or a controller-runtime manager or webhook server",
                    step.method, path.s
                ),
            ));
        }
    }

    /// What a chain evaluates to, silently.
    fn chain_values(&self, file: usize, chain: &Chain, depth: usize) -> Vec<Value> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let ctx = Ctx { file, subst: &[] };
        let mut values = self.base_values(file, &chain.base, depth);
        for step in &chain.steps {
            if values.is_empty() {
                break;
            }
            let mut next = Vec::new();
            for v in &values {
                push_all(&mut next, self.apply(&ctx, v, step, None, depth));
            }
            values = next;
        }
        values
    }

    fn union(&self, evidence: Option<&Vec<(usize, &Chain)>>, depth: usize) -> Vec<Value> {
        let mut out = Vec::new();
        for (fi, chain) in evidence.map(Vec::as_slice).unwrap_or_default() {
            let work = self.work.get() + 1;
            if work > MAX_WORK {
                break;
            }
            self.work.set(work);
            push_all(&mut out, self.chain_values(*fi, chain, depth + 1));
        }
        out
    }

    fn base_values(&self, file: usize, base: &Base, depth: usize) -> Vec<Value> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let facts = &self.files[file].facts;
        let package = &self.packages[file];
        match base {
            Base::Name(name) => match self.index.import_for(facts, name) {
                Some(path) => vec![Value::Package(path)],
                None => self.union(self.vars.get(&(package.clone(), name.clone())), depth),
            },
            Base::Selector { operand, field } => {
                // `pkg.Var` names another package's variable; `x.f` a struct field.
                match operand
                    .as_deref()
                    .and_then(|q| self.index.import_for(facts, q))
                {
                    Some(path) if path == "net/http" && field == "DefaultServeMux" => {
                        vec![Value::Router {
                            fw: Framework::NetHttp,
                            prefix: Prefix::root(),
                        }]
                    }
                    Some(path) => self.union(self.vars.get(&(path, field.clone())), depth),
                    None => self.field_values(package, field, depth),
                }
            }
            Base::Type { qualifier, name } => self.type_values(file, qualifier.as_deref(), name),
            Base::Param {
                func,
                index,
                qualifier,
                name,
            } => {
                let passed = self.union(
                    self.sites.get(&(package.clone(), func.clone(), *index)),
                    depth,
                );
                if passed.is_empty() {
                    unknown_root(self.type_values(file, qualifier.as_deref(), name))
                } else {
                    passed
                }
            }
            // A declared result type says nothing about the root path set inside.
            Base::Call(name) => {
                unknown_root(self.union(self.funcs.get(&(package.clone(), name.clone())), depth))
            }
            Base::Opaque => Vec::new(),
        }
    }

    /// A struct field's values: those assigned to it anywhere in the package, else those
    /// of its declared type.
    fn field_values(&self, package: &str, field: &str, depth: usize) -> Vec<Value> {
        let Some(evidence) = self.fields.get(&(package.to_string(), field.to_string())) else {
            return Vec::new();
        };
        let declared =
            |c: &&(usize, &Chain)| matches!(c.1.base, Base::Type { .. }) && c.1.steps.is_empty();
        let mut out = Vec::new();
        for (fi, chain) in evidence.iter().filter(|c| !declared(c)) {
            let work = self.work.get() + 1;
            if work > MAX_WORK {
                break;
            }
            self.work.set(work);
            push_all(&mut out, self.chain_values(*fi, chain, depth + 1));
        }
        if out.is_empty() {
            for (fi, chain) in evidence.iter().filter(declared) {
                push_all(
                    &mut out,
                    unknown_root(self.chain_values(*fi, chain, depth + 1)),
                );
            }
        }
        out
    }

    /// The value of a declared type. A type of this package gives nothing (it might embed a
    /// router, which is not followed), so calls on it with a path are diagnosed. Group types (a gin `RouterGroup`, a chi `Router`, a
    /// gorilla `Router` that may be a subrouter) carry an unknown prefix.
    fn type_values(&self, file: usize, qualifier: Option<&str>, name: &str) -> Vec<Value> {
        let Some(path) = qualifier.and_then(|q| self.index.import_for(&self.files[file].facts, q))
        else {
            return Vec::new();
        };
        let router = |fw, unknown| Value::Router {
            fw,
            prefix: Prefix {
                text: Text::default(),
                unknown,
            },
        };
        let value = match (known_package(&path), name) {
            (Some(Known::Router(Framework::NetHttp)), "ServeMux") => {
                router(Framework::NetHttp, false)
            }
            (Some(Known::Router(Framework::Gorilla)), "Router") => router(Framework::Gorilla, true),
            (Some(Known::Router(Framework::Gin)), "Engine") => router(Framework::Gin, false),
            (Some(Known::Router(Framework::Gin)), "RouterGroup" | "IRouter" | "IRoutes") => {
                router(Framework::Gin, true)
            }
            (Some(Known::Router(Framework::Echo)), "Echo") => router(Framework::Echo, false),
            (Some(Known::Router(Framework::Echo)), "Group") => router(Framework::Echo, true),
            (Some(Known::Router(Framework::Chi)), "Mux") => router(Framework::Chi, false),
            (Some(Known::Router(Framework::Chi)), "Router") => router(Framework::Chi, true),
            (Some(Known::ControllerRuntime | Known::Manager), "Manager") => Value::Manager,
            (Some(Known::Webhook), "Server") => Value::WebhookServer,
            (Some(Known::Grpc), "Server" | "ServiceRegistrar") => Value::GrpcServer,
            (Some(Known::GatewayRuntime), "ServeMux") => Value::GatewayMux,
            (Some(Known::Restful), "WebService") => Value::WebService(Prefix::root()),
            _ => Value::Other,
        };
        vec![value]
    }

    /// Applies one method call to one value: the values it returns, and (when `out` is
    /// given) the routes it registers.
    fn apply(
        &self,
        ctx: &Ctx,
        value: &Value,
        step: &Step,
        out: Option<&mut Vec<Draft>>,
        depth: usize,
    ) -> Vec<Value> {
        let m = step.method.as_str();
        if m == ROOT_PATH {
            // Only a go-restful web service has its root path set by a statement.
            return match value {
                Value::WebService(root) => self.restful_root(ctx, root, step),
                other => vec![other.clone()],
            };
        }
        match value {
            Value::Package(path) => self.apply_package(ctx, path, step, out, depth),
            Value::GrpcServer => Vec::new(),
            Value::GatewayMux => {
                // `mux.HandlePath("GET", "/p", h)`.
                if m == "HandlePath"
                    && let (Some(out), Some(method), Some(p)) =
                        (out, step.args.first(), step.args.get(1))
                {
                    out.push(Draft {
                        method: self.text_of(ctx, method),
                        host: Text::default(),
                        path: self.text_of(ctx, p),
                        handler: handler_of(step, 2),
                        framework: GRPC_GATEWAY,
                        implicit: false,
                        unknown_prefix: false,
                        line: step.line,
                    });
                }
                Vec::new()
            }
            Value::WebService(root) => self.apply_web_service(ctx, root, step),
            Value::RestfulBuilder(route) => self.apply_restful_route(ctx, route, step),
            Value::Router { fw, prefix } => self.apply_router(ctx, *fw, prefix, step, out),
            Value::Route(route) => apply_route(self, ctx, route, step),
            Value::Other => Vec::new(),
            Value::Manager => {
                let row = |path: Text, handler: String, implicit: bool| Draft {
                    method: Text::known(ANY),
                    host: Text::default(),
                    path,
                    handler,
                    framework: CONTROLLER_RUNTIME,
                    implicit,
                    unknown_prefix: false,
                    line: step.line,
                };
                match m {
                    "GetWebhookServer" => return vec![Value::WebhookServer],
                    "AddMetricsServerExtraHandler" => {
                        if let (Some(out), Some(p)) = (out, step.args.first()) {
                            out.push(row(self.text_of(ctx, p), handler_of(step, 1), false));
                        }
                    }
                    "AddHealthzCheck" | "AddReadyzCheck" => {
                        if let Some(out) = out {
                            let (path, handler) = if m == "AddHealthzCheck" {
                                ("/healthz", "healthz checks")
                            } else {
                                ("/readyz", "readyz checks")
                            };
                            out.push(row(Text::known(path), handler.to_string(), true));
                        }
                    }
                    _ => {}
                }
                Vec::new()
            }
            Value::WebhookServer => {
                if m == "Register"
                    && let (Some(out), Some(p)) = (out, step.args.first())
                {
                    out.push(Draft {
                        method: Text::known(ANY),
                        host: Text::default(),
                        path: self.text_of(ctx, p),
                        handler: handler_of(step, 1),
                        framework: CONTROLLER_RUNTIME,
                        implicit: false,
                        unknown_prefix: false,
                        line: step.line,
                    });
                }
                Vec::new()
            }
        }
    }

    fn apply_package(
        &self,
        ctx: &Ctx,
        path: &str,
        step: &Step,
        out: Option<&mut Vec<Draft>>,
        depth: usize,
    ) -> Vec<Value> {
        let m = step.method.as_str();
        let router = |fw| {
            vec![Value::Router {
                fw,
                prefix: Prefix::root(),
            }]
        };
        if let Some((go_name, kind)) = grpc::registration(m)
            && known_package(path).is_none()
        {
            if let Some(out) = out {
                self.grpc_registration(ctx, path, go_name, kind, step, out, depth);
            }
            return Vec::new();
        }
        if let Some(helper) = helpers::find(path, m) {
            if let Some(out) = out {
                let framework = match helper.served {
                    Served::Mux => Framework::NetHttp.name(),
                    Served::Manager => CONTROLLER_RUNTIME,
                };
                // A mux with a prefix (a router's group) serves the paths under it.
                let mut prefixes: Vec<Prefix> = Vec::new();
                if helper.served == Served::Mux
                    && let Some(mux) = step.args.first().and_then(|a| a.chain.as_deref())
                {
                    for v in self.chain_values(ctx.file, mux, depth + 1) {
                        if let Value::Router { prefix, .. } = v
                            && !prefixes.contains(&prefix)
                        {
                            prefixes.push(prefix);
                        }
                    }
                }
                if prefixes.is_empty() {
                    prefixes.push(Prefix::root());
                }
                let short = path.rsplit('/').next().unwrap_or(path);
                for prefix in &prefixes {
                    for p in helper.paths {
                        out.push(Draft {
                            method: Text::known(ANY),
                            host: Text::default(),
                            path: prefix.join(&Text::known(p), join).text,
                            handler: format!("{short}.{m}"),
                            framework,
                            implicit: true,
                            unknown_prefix: prefix.unknown,
                            line: step.line,
                        });
                    }
                }
            }
            return Vec::new();
        }
        match (known_package(path), m) {
            (Some(Known::Grpc), "NewServer") => vec![Value::GrpcServer],
            (Some(Known::GatewayRuntime), "NewServeMux") => vec![Value::GatewayMux],
            (Some(Known::Router(Framework::NetHttp)), "NewServeMux") => router(Framework::NetHttp),
            (Some(Known::Router(Framework::NetHttp)), "HandleFunc" | "Handle") => {
                if let Some(out) = out {
                    self.serve_mux_route(ctx, Framework::NetHttp, &Prefix::root(), step, out);
                }
                Vec::new()
            }
            (Some(Known::Router(Framework::NetHttp)), _)
                if helpers::default_mux_handler(m)
                    .and_then(|i| step.args.get(i))
                    .is_some_and(|a| a.text == "nil") =>
            {
                if let Some(out) = out {
                    self.default_mux_imports(ctx, step, out);
                }
                Vec::new()
            }
            (Some(Known::Router(Framework::Gorilla)), "NewRouter") => router(Framework::Gorilla),
            (Some(Known::Router(Framework::Gin)), "New" | "Default") => router(Framework::Gin),
            (Some(Known::Router(Framework::Echo)), "New") => router(Framework::Echo),
            (Some(Known::Router(Framework::Chi)), "NewRouter" | "NewMux") => router(Framework::Chi),
            (Some(Known::ControllerRuntime), "NewManager") | (Some(Known::Manager), "New") => {
                let disabled = step.args.get(1).is_some_and(|a| a.disables_metrics);
                if let (Some(out), false) = (out, disabled) {
                    out.push(Draft {
                        method: Text::known(ANY),
                        host: Text::default(),
                        path: Text::known("/metrics"),
                        handler: "metrics".to_string(),
                        framework: CONTROLLER_RUNTIME,
                        implicit: true,
                        unknown_prefix: false,
                        line: step.line,
                    });
                }
                vec![Value::Manager]
            }
            (Some(Known::Webhook), "NewServer") => vec![Value::WebhookServer],
            (Some(_), _) => Vec::new(),
            // A function of an in-repo package: its declared result type.
            (None, _) => self.union(self.funcs.get(&(path.to_string(), m.to_string())), depth),
        }
    }

    /// The routes that packages imported by the serving call's package (`_ "net/http/pprof"`)
    /// registered on `http.DefaultServeMux`, which `http.ListenAndServe(addr, nil)` serves.
    /// Only the same package's imports are read: one linked elsewhere in the program is
    /// not shown to be there.
    fn default_mux_imports(&self, ctx: &Ctx, step: &Step, out: &mut Vec<Draft>) {
        let files = self
            .by_package
            .get(&self.packages[ctx.file])
            .map(Vec::as_slice)
            .unwrap_or_default();
        for import in helpers::DEFAULT_MUX_IMPORTS {
            let imported = files.iter().any(|fi| {
                self.files[*fi]
                    .facts
                    .imports
                    .iter()
                    .any(|i| i.path == import.import)
            });
            if !imported {
                continue;
            }
            for (method, path, handler) in import.routes {
                out.push(Draft {
                    method: Text::known(method),
                    host: Text::default(),
                    path: Text::known(path),
                    handler: handler.to_string(),
                    framework: Framework::NetHttp.name(),
                    implicit: true,
                    unknown_prefix: false,
                    line: step.line,
                });
            }
        }
    }

    /// A router's step: the values it makes (a group, a route being built, the router
    /// itself), and into `out` the routes it registers.
    fn apply_router(
        &self,
        ctx: &Ctx,
        fw: Framework,
        prefix: &Prefix,
        step: &Step,
        out: Option<&mut Vec<Draft>>,
    ) -> Vec<Value> {
        let mut routes = StepRoutes {
            fw,
            prefix,
            line: step.line,
            rows: Vec::new(),
        };
        let values = match fw {
            Framework::NetHttp => {
                if matches!(step.method.as_str(), "HandleFunc" | "Handle")
                    && let Some(out) = out
                {
                    self.serve_mux_route(ctx, fw, prefix, step, out);
                }
                return Vec::new();
            }
            Framework::Gorilla => self.apply_gorilla(ctx, prefix, step),
            Framework::Gin | Framework::Echo => self.apply_gin_or_echo(ctx, &mut routes, step),
            Framework::Chi => self.apply_chi(ctx, &mut routes, step),
        };
        if let Some(out) = out {
            out.extend(routes.rows);
        }
        values
    }

    /// A gorilla/mux router's step: a route it starts, or the router itself.
    fn apply_gorilla(&self, ctx: &Ctx, prefix: &Prefix, step: &Step) -> Vec<Value> {
        let m = step.method.as_str();
        let arg = |i: usize| step.args.get(i).map(|a| self.text_of(ctx, a));
        let new_route = || GorillaRoute {
            prefix: prefix.clone(),
            host: None,
            path: None,
            prefix_match: false,
            methods: Vec::new(),
            handler: None,
            line: step.line,
        };
        match m {
            "HandleFunc" | "Handle" => {
                let mut r = new_route();
                r.path = arg(0);
                r.handler = Some(handler_of(step, 1));
                vec![Value::Route(Box::new(r))]
            }
            "Use" | "StrictSlash" | "SkipClean" | "UseEncodedPath" => {
                same_router(Framework::Gorilla, prefix)
            }
            "Path" | "PathPrefix" | "Methods" | "Host" | "Schemes" | "Headers"
            | "HeadersRegexp" | "Queries" | "MatcherFunc" | "Name" | "NewRoute" | "Handler"
            | "HandlerFunc" => apply_route(self, ctx, &new_route(), step),
            _ => Vec::new(),
        }
    }

    /// A gin or echo router's step: the routes it registers, or the group it makes.
    fn apply_gin_or_echo(&self, ctx: &Ctx, routes: &mut StepRoutes, step: &Step) -> Vec<Value> {
        let m = step.method.as_str();
        let arg = |i: usize| step.args.get(i).map(|a| self.text_of(ctx, a));
        let handler_at = if routes.fw == Framework::Gin {
            step.args.len().saturating_sub(1)
        } else {
            1
        };
        match m {
            "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "CONNECT"
            | "TRACE" => {
                if let Some(p) = arg(0) {
                    routes.route(Text::known(m), p, handler_of(step, handler_at.max(1)));
                }
                Vec::new()
            }
            "Any" => {
                if let Some(p) = arg(0) {
                    routes.route(Text::known(ANY), p, handler_of(step, handler_at.max(1)));
                }
                Vec::new()
            }
            // gin's `Handle(method, path, handlers…)`, echo's `Add(method, path, h)`.
            "Handle" | "Add"
                if matches!(
                    (routes.fw, m),
                    (Framework::Gin, "Handle") | (Framework::Echo, "Add")
                ) =>
            {
                if let (Some(method), Some(p)) = (arg(0), arg(1)) {
                    let at = if routes.fw == Framework::Gin {
                        step.args.len().saturating_sub(1).max(2)
                    } else {
                        2
                    };
                    routes.route(method, p, handler_of(step, at));
                }
                Vec::new()
            }
            "Match" => {
                if let (Some(list), Some(p)) = (step.args.first(), arg(1)) {
                    let at = if routes.fw == Framework::Gin {
                        step.args.len().saturating_sub(1).max(2)
                    } else {
                        2
                    };
                    for method in &list.list {
                        routes.route(self.eval_text(ctx, method), p.clone(), handler_of(step, at));
                    }
                    if list.list.is_empty() {
                        routes.route(
                            Text {
                                s: format!("{{{}}}", list.text),
                                unresolved: true,
                            },
                            p,
                            handler_of(step, at),
                        );
                    }
                }
                Vec::new()
            }
            "Group" => match arg(0) {
                Some(p) => vec![Value::Router {
                    fw: routes.fw,
                    prefix: routes.prefix.join(&p, join),
                }],
                None => Vec::new(),
            },
            "Use" if routes.fw == Framework::Gin => same_router(routes.fw, routes.prefix),
            _ => Vec::new(),
        }
    }

    /// A chi router's step: the routes it registers or mounts, or the router it makes.
    fn apply_chi(&self, ctx: &Ctx, routes: &mut StepRoutes, step: &Step) -> Vec<Value> {
        let m = step.method.as_str();
        let arg = |i: usize| step.args.get(i).map(|a| self.text_of(ctx, a));
        match m {
            "Get" | "Post" | "Put" | "Patch" | "Delete" | "Head" | "Options" | "Connect"
            | "Trace" => {
                if let Some(p) = arg(0) {
                    routes.route(Text::known(&m.to_uppercase()), p, handler_of(step, 1));
                }
                Vec::new()
            }
            "Handle" | "HandleFunc" => {
                // chi accepts `"METHOD /path"` patterns, like ServeMux.
                if let Some(p) = arg(0) {
                    let (method, path) = split_method(&p);
                    routes.route(method, path, handler_of(step, 1));
                }
                Vec::new()
            }
            "Method" | "MethodFunc" => {
                if let (Some(method), Some(p)) = (arg(0), arg(1)) {
                    routes.route(method, p, handler_of(step, 2));
                }
                Vec::new()
            }
            "Mount" => {
                if let Some(p) = arg(0) {
                    let mounted = Text {
                        s: format!("{}/", p.s.trim_end_matches('/')),
                        unresolved: p.unresolved,
                    };
                    routes.rows.push(Draft {
                        method: Text::known(ANY),
                        host: Text::default(),
                        path: {
                            let joined = routes.prefix.join(&mounted, join).text;
                            Text {
                                s: prefix_match(&joined.s),
                                unresolved: joined.unresolved,
                            }
                        },
                        handler: handler_of(step, 1),
                        framework: routes.fw.name(),
                        implicit: false,
                        unknown_prefix: routes.prefix.unknown,
                        line: step.line,
                    });
                }
                Vec::new()
            }
            "Route" => match arg(0) {
                Some(p) => vec![Value::Router {
                    fw: routes.fw,
                    prefix: routes.prefix.join(&p, join),
                }],
                None => Vec::new(),
            },
            "Group" | "With" => same_router(routes.fw, routes.prefix),
            _ => Vec::new(),
        }
    }

    /// `ws.Path(p)`: the web service's root path.
    fn restful_root(&self, ctx: &Ctx, root: &Prefix, step: &Step) -> Vec<Value> {
        match step.args.first() {
            Some(p) => vec![Value::WebService(Prefix {
                text: self.text_of(ctx, p),
                // Setting the root makes it known, whatever the value was declared as.
                unknown: false,
            })],
            None => vec![Value::WebService(root.clone())],
        }
    }

    /// A method of go-restful's `WebService`: `GET(p)`… and `Method(m)` start a route;
    /// the rest configure the service and return it.
    fn apply_web_service(&self, ctx: &Ctx, root: &Prefix, step: &Step) -> Vec<Value> {
        let m = step.method.as_str();
        let arg = |i: usize| step.args.get(i).map(|a| self.text_of(ctx, a));
        let route = |method: Option<Text>, path: Option<Text>| {
            vec![Value::RestfulBuilder(Box::new(RestfulRoute {
                root: root.clone(),
                method,
                path,
                handler: None,
                line: step.line,
            }))]
        };
        match m {
            "Path" => self.restful_root(ctx, root, step),
            "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS" => {
                route(Some(Text::known(m)), arg(0))
            }
            "Method" => route(arg(0), None),
            // Route(builder), Consumes, Produces, Doc, Param, Filter, ApiVersion, …
            _ => vec![Value::WebService(root.clone())],
        }
    }

    /// A method of go-restful's `RouteBuilder`: every one returns the builder.
    fn apply_restful_route(&self, ctx: &Ctx, route: &RestfulRoute, step: &Step) -> Vec<Value> {
        let mut next = route.clone();
        let arg = |i: usize| step.args.get(i).map(|a| self.text_of(ctx, a));
        match step.method.as_str() {
            "To" => next.handler = Some(handler_of(step, 0)),
            "Path" => next.path = arg(0),
            "Method" => next.method = arg(0),
            "Build" => return Vec::new(),
            _ => {}
        }
        vec![Value::RestfulBuilder(Box::new(next))]
    }

    /// `pb.RegisterXServer(s, impl)` and grpc-gateway's `pb.RegisterXHandler…(ctx, mux, …)`
    /// where `pb` is the package at `path`. Listed only when the package is shown to be
    /// generated gRPC code (a generated file declares the function), a `.proto` of the
    /// repository names the package as its `go_package`, the service is well known, or
    /// (for a server) the first argument is shown to be a `*grpc.Server`.
    #[allow(clippy::too_many_arguments)]
    fn grpc_registration(
        &self,
        ctx: &Ctx,
        path: &str,
        go_name: &str,
        kind: Registration,
        step: &Step,
        out: &mut Vec<Draft>,
        depth: usize,
    ) {
        let file = &self.files[ctx.file].facts.path;
        let note = |message: String| {
            self.notes
                .borrow_mut()
                .push(Diagnostic::new(file, step.line, message));
        };
        let in_package: &[usize] = self
            .by_package
            .get(path)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let declared_in: Vec<usize> = in_package
            .iter()
            .copied()
            .filter(|i| {
                self.files[*i]
                    .facts
                    .routes
                    .grpc
                    .declared
                    .contains(&step.method)
            })
            .collect();
        if let Some(hand) = declared_in
            .iter()
            .find(|i| !self.files[**i].facts.generated)
        {
            // A hand-written `RegisterXHandler` is usually no gateway at all; only a
            // hand-written `RegisterXServer` is worth a word.
            if kind == Registration::Server {
                note(format!(
                    "`{}` is declared in {}, which is not generated gRPC code: not listed",
                    step.method, self.files[*hand].facts.path
                ));
            }
            return;
        }
        let facts: Vec<&GrpcFacts> = in_package
            .iter()
            .map(|i| &self.files[*i].facts.routes.grpc)
            .collect();
        let service = grpc::find_service(path, go_name, self.protos, &facts);
        let argument_is = |i: usize, wanted: &Value| {
            step.args
                .get(i)
                .and_then(|a| a.chain.as_deref())
                .is_some_and(|c| self.chain_values(ctx.file, c, depth + 1).contains(wanted))
        };
        match kind {
            Registration::Server => {
                let handler = handler_of(step, 1);
                let row = |path: String, unresolved: bool| Draft {
                    method: Text::known(GRPC_METHOD),
                    host: Text::default(),
                    path: Text {
                        s: path,
                        unresolved,
                    },
                    handler: handler.clone(),
                    framework: GRPC,
                    implicit: false,
                    unknown_prefix: false,
                    line: step.line,
                };
                match service {
                    Some(s) if s.methods.is_empty() => {
                        out.push(row(format!("/{}/*", s.full_name), false))
                    }
                    Some(s) => {
                        for m in &s.methods {
                            out.push(row(format!("/{}/{m}", s.full_name), false));
                        }
                    }
                    None if !declared_in.is_empty() || argument_is(0, &Value::GrpcServer) => {
                        note(format!(
                            "gRPC service `{go_name}` of {path}: its full name is not known (no .proto in the repository has this go_package, and no generated ServiceDesc declares it); listed as `/{go_name}/*`"
                        ));
                        out.push(row(format!("/{go_name}/*"), true));
                    }
                    None => note(format!(
                        "`{}(…)` is not listed as a gRPC service: nothing shows that {path} is generated gRPC code or that its first argument is a *grpc.Server",
                        step.method
                    )),
                }
            }
            Registration::Gateway => match service {
                Some(s) if !s.http.is_empty() => {
                    for (method, p, rpc) in &s.http {
                        out.push(Draft {
                            method: Text {
                                s: method.clone(),
                                unresolved: method.starts_with('{'),
                            },
                            host: Text::default(),
                            path: Text::known(p),
                            handler: format!("{}/{rpc}", s.full_name),
                            framework: GRPC_GATEWAY,
                            implicit: false,
                            unknown_prefix: false,
                            line: step.line,
                        });
                    }
                }
                Some(s) => note(format!(
                    "`{}(…)`: no HTTP rules found for `{}` (no google.api.http options in its .proto, no generated gateway patterns); its routes are not listed",
                    step.method, s.full_name
                )),
                None => note(format!(
                    "`{}(…)`: the service `{go_name}` of {path} is not found (no .proto with this go_package, no generated code in the repository); its routes are not listed",
                    step.method
                )),
            },
        }
    }

    /// `HandleFunc`/`Handle` on a `ServeMux` (or the `http` package): a Go 1.22 pattern.
    fn serve_mux_route(
        &self,
        ctx: &Ctx,
        fw: Framework,
        prefix: &Prefix,
        step: &Step,
        out: &mut Vec<Draft>,
    ) {
        let Some(first) = step.args.first() else {
            return;
        };
        let pattern = self.text_of(ctx, first);
        let (method, host, path) = match split_pattern(&pattern.s) {
            Some(p) => (
                Text {
                    s: p.method,
                    unresolved: pattern.unresolved,
                },
                Text {
                    s: p.host,
                    unresolved: pattern.unresolved,
                },
                Text {
                    s: p.path,
                    unresolved: pattern.unresolved,
                },
            ),
            None if pattern.unresolved => {
                let (method, path) = split_method(&pattern);
                (method, Text::default(), path)
            }
            None => {
                // `ServeMux` panics on such a pattern, so no route exists.
                return;
            }
        };
        out.push(Draft {
            method,
            host,
            path: prefix.join(&path, join).text,
            handler: handler_of(step, 1),
            framework: fw.name(),
            implicit: false,
            unknown_prefix: prefix.unknown,
            line: step.line,
        });
    }

    /// An argument's string value; an argument that is not a string expression is shown
    /// as written, in braces, and marked unresolved.
    fn text_of(&self, ctx: &Ctx, arg: &Arg) -> Text {
        match &arg.expr {
            Some(e) => self.eval_text(ctx, e),
            None => Text {
                s: format!("{{{}}}", arg.text),
                unresolved: true,
            },
        }
    }

    fn eval_text(&self, ctx: &Ctx, expr: &ConstExpr) -> Text {
        let parts: Vec<&ConstExpr> = match expr {
            ConstExpr::Concat(parts) => parts.iter().collect(),
            other => vec![other],
        };
        let mut text = Text::default();
        for part in parts {
            let part = match part {
                ConstExpr::Ref {
                    qualifier: None,
                    name,
                } => ctx
                    .subst
                    .iter()
                    .find(|(var, _)| var == name)
                    .map(|(_, value)| value)
                    .unwrap_or(part),
                _ => part,
            };
            match self.eval_const(ctx.file, part) {
                Some(s) => text.s.push_str(&s),
                None => {
                    text.unresolved = true;
                    text.s.push('{');
                    text.s.push_str(&display(part));
                    text.s.push('}');
                }
            }
        }
        text
    }

    fn eval_const(&self, file: usize, expr: &ConstExpr) -> Option<String> {
        let facts = &self.files[file].facts;
        if let ConstExpr::Ref {
            qualifier: Some(q),
            name,
        } = expr
            && let Some(path) = self.index.import_for(facts, q)
            && let Some(method) = builtin_method_constant(&path, name)
        {
            return Some(method.to_string());
        }
        self.index.eval(facts, expr)
    }
}

/// Method-name constants of net/http (`http.MethodGet`) and echo (`echo.GET`).
fn builtin_method_constant(import_path: &str, name: &str) -> Option<&'static str> {
    let method = match known_package(import_path)? {
        Known::Router(Framework::NetHttp) => name.strip_prefix("Method")?.to_ascii_uppercase(),
        Known::Router(Framework::Echo) => name.to_string(),
        _ => return None,
    };
    HTTP_METHODS.iter().find(|m| **m == method).copied()
}

/// Applies a gorilla/mux matcher or handler call to a route being built.
fn apply_route(r: &Resolver, ctx: &Ctx, route: &GorillaRoute, step: &Step) -> Vec<Value> {
    let mut next = route.clone();
    let arg = |i: usize| step.args.get(i).map(|a| r.text_of(ctx, a));
    match step.method.as_str() {
        "Path" => next.path = arg(0),
        "PathPrefix" => {
            next.path = arg(0);
            next.prefix_match = true;
        }
        "Host" => next.host = arg(0),
        "Methods" => {
            for a in &step.args {
                next.methods.push(r.text_of(ctx, a));
            }
        }
        "Handler" | "HandlerFunc" => next.handler = Some(handler_of(step, 0)),
        "Schemes" | "Headers" | "HeadersRegexp" | "Queries" | "MatcherFunc" | "Name"
        | "NewRoute" | "BuildVarsFunc" => {}
        "Subrouter" => {
            let path = next.path.clone().unwrap_or_default();
            return vec![Value::Router {
                fw: Framework::Gorilla,
                prefix: next.prefix.join(&path, gorilla_join),
            }];
        }
        _ => return Vec::new(),
    }
    vec![Value::Route(Box::new(next))]
}

/// The rows of a finished gorilla/mux route: one per method, or one for any method.
fn emit_gorilla(route: &GorillaRoute, out: &mut Vec<Draft>) {
    let Some(handler) = &route.handler else {
        return;
    };
    let path = route.path.clone().unwrap_or_default();
    let joined = route.prefix.join(&path, gorilla_join).text;
    let path = if route.prefix_match || route.path.is_none() {
        Text {
            s: prefix_match(&joined.s),
            unresolved: joined.unresolved,
        }
    } else {
        joined
    };
    let methods = if route.methods.is_empty() {
        vec![Text::known(ANY)]
    } else {
        route.methods.clone()
    };
    for method in methods {
        out.push(Draft {
            method,
            host: route.host.clone().unwrap_or_default(),
            path: path.clone(),
            handler: handler.clone(),
            framework: Framework::Gorilla.name(),
            implicit: false,
            unknown_prefix: route.prefix.unknown,
            line: route.line,
        });
    }
}

/// The row of a finished go-restful route.
fn emit_restful(route: &RestfulRoute, out: &mut Vec<Draft>) {
    let Some(method) = &route.method else {
        return;
    };
    let path = route.path.clone().unwrap_or_default();
    out.push(Draft {
        method: method.clone(),
        host: Text::default(),
        path: route.root.join(&path, join).text,
        handler: route.handler.clone().unwrap_or_default(),
        framework: GO_RESTFUL,
        implicit: false,
        unknown_prefix: route.root.unknown,
        line: route.line,
    });
}

/// A web service known only by its declared type: its root path is not known.
fn unknown_root(values: Vec<Value>) -> Vec<Value> {
    values
        .into_iter()
        .map(|v| match v {
            Value::WebService(p) if p.text.s.is_empty() && !p.text.unresolved => {
                Value::WebService(Prefix { unknown: true, ..p })
            }
            other => other,
        })
        .collect()
}

/// Splits a leading method token off a pattern that may be partly unresolved.
fn split_method(pattern: &Text) -> (Text, Text) {
    if let Some((first, rest)) = pattern.s.split_once([' ', '\t'])
        && !first.is_empty()
        && first.chars().all(|c| c.is_ascii_uppercase())
    {
        return (
            Text::known(first),
            Text {
                s: rest.trim_start().to_string(),
                unresolved: pattern.unresolved,
            },
        );
    }
    (Text::known(ANY), pattern.clone())
}

fn handler_of(step: &Step, index: usize) -> String {
    step.args
        .get(index)
        .map(|a| a.text.clone())
        .unwrap_or_default()
}

fn display(expr: &ConstExpr) -> String {
    match expr {
        ConstExpr::Str(s) => s.clone(),
        ConstExpr::Ref {
            qualifier: Some(q),
            name,
        } => format!("{q}.{name}"),
        ConstExpr::Ref {
            qualifier: None,
            name,
        } => name.clone(),
        ConstExpr::Concat(parts) => parts.iter().map(display).collect::<Vec<_>>().join("+"),
    }
}

fn push_all(into: &mut Vec<Value>, values: Vec<Value>) {
    for v in values {
        if into.len() >= MAX_VALUES {
            return;
        }
        if !into.contains(&v) {
            into.push(v);
        }
    }
}

#[cfg(test)]
mod tests;
