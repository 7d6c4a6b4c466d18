//! HTTP routes of axum and actix-web.
//!
//! axum: `Router::new().route("/p", get(h).post(h2))`, `.nest("/prefix", router)` and
//! `.merge(router)`, where the nested router is built inline, held in a local variable, or
//! returned by a function of the crate (resolved per project). actix-web: `#[get("/p")]`
//! and `#[route("/p", method = "GET")]` handler attributes, `web::resource("/p")
//! .route(web::get().to(h))`, and `web::scope("/prefix")` / `App::new()` with `.route` and
//! `.service` (a handler mounted in a scope is served under the scope's prefix).

use std::collections::BTreeSet;

use syn::{Expr, ExprCall, ExprMethodCall, Item};

use super::syntax::{line, path_line, path_name, peel, str_lit, text};
use super::uses::{Uses, segments};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRoute {
    pub method: String,
    pub path: String,
    pub unresolved: bool,
    pub handler: String,
    pub framework: &'static str,
    pub line: u32,
}

/// A router (or actix scope) mounted in another under a prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    pub prefix: String,
    /// A function returning the router, a local variable holding it, or (actix) a handler
    /// function with a route attribute.
    pub target: String,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRouter {
    pub start: (usize, usize),
    /// The local variable the router is assigned to, if any.
    pub binding: Option<String>,
    pub routes: Vec<RawRoute>,
    pub mounts: Vec<Mount>,
    /// Text of nested routers that could not be followed (shown in a diagnostic).
    pub unfollowed: Vec<(String, u32)>,
}

const AXUM_METHODS: &[&str] = &[
    "get", "post", "put", "delete", "patch", "head", "options", "trace", "any",
];

/// The start position of a method chain's base call, for matching a `let` to its router.
pub fn chain_start(e: &Expr) -> Option<(usize, usize)> {
    let mut e = peel(e);
    while let Expr::MethodCall(m) = e {
        e = peel(&m.receiver);
    }
    let Expr::Call(c) = e else {
        return None;
    };
    let Expr::Path(p) = &*c.func else {
        return None;
    };
    let s = p.path.segments.first()?.ident.span().start();
    Some((s.line, s.column))
}

/// What a router chain is read with: the file's `use` names, and the calls already read
/// as part of a chain (marked so the body's visitor does not read them again).
pub struct Scope<'a> {
    pub uses: &'a Uses,
    pub seen: &'a mut BTreeSet<(usize, usize)>,
}

impl Scope<'_> {
    /// Marks the call at the start of a path expression as read.
    pub fn mark_seen(&mut self, call: &ExprCall) {
        if let Expr::Path(p) = &*call.func
            && let Some(s) = p.path.segments.first()
        {
            let s = s.ident.span().start();
            self.seen.insert((s.line, s.column));
        }
    }
}

fn is_from(v: &Scope, resolved: &str, krate: &str, tail: &str) -> bool {
    resolved.starts_with(&format!("{krate}::")) && resolved.ends_with(tail)
        || resolved == tail.trim_start_matches("::") && v.uses.uses_crate(&[krate])
}

/// Reads a router chain: `base` is its first call and `calls` its method calls, innermost
/// first. `None` when the base is not an axum or actix-web router.
pub fn router_chain(
    v: &mut Scope,
    resolved: &str,
    base: &ExprCall,
    calls: &[&ExprMethodCall],
) -> Option<RawRouter> {
    let start = chain_start(&Expr::Call(base.clone()))?;
    let mut r = RawRouter {
        start,
        binding: None,
        routes: Vec::new(),
        mounts: Vec::new(),
        unfollowed: Vec::new(),
    };
    if is_from(v, resolved, "axum", "Router::new") {
        axum_chain(v, calls, "", &mut r);
    } else if is_from(v, resolved, "actix_web", "App::new") {
        actix_chain(v, calls, "", &mut r);
    } else if is_from(v, resolved, "actix_web", "web::scope") {
        let prefix = base.args.first().and_then(str_lit)?;
        actix_chain(v, calls, &prefix, &mut r);
    } else if is_from(v, resolved, "actix_web", "web::resource") {
        let path = base.args.first().and_then(str_lit)?;
        actix_resource(calls, &path, &mut r);
    } else if is_from(v, resolved, "tonic", "Server::builder") {
        tonic_chain(v, calls, &mut r);
    } else {
        return None;
    }
    Some(r)
}

/// The framework name of tonic's gRPC services.
pub const TONIC: &str = "tonic";

/// tonic's `Server::builder()…add_service(FooServer::new(svc))`: one raw route per
/// service, whose `path` is the proto service name (`Foo`, from the generated
/// `foo_server::FooServer`) after the modules the type is reached through (`pb::v1::Foo`:
/// `include_proto!` nests a module per package component) until the project's `.proto`
/// files give its full name and methods (`graph`). A service that is not such a
/// constructor call (a variable) is kept with an empty path and `unresolved`, for a
/// diagnostic.
fn tonic_chain(v: &Scope, calls: &[&ExprMethodCall], r: &mut RawRouter) {
    for m in calls {
        let method = m.method.to_string();
        if method != "add_service" && method != "add_optional_service" {
            continue;
        }
        let line = line(m.method.span());
        // `add_optional_service(Some(FooServer::new(s)))`.
        let arg = m.args.first().map(|a| match peel(a) {
            Expr::Call(c)
                if c.args.len() == 1
                    && matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some")) =>
            {
                &c.args[0]
            }
            _ => a,
        });
        let service = arg.map(peel).and_then(|e| match e {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => {
                    let resolved = v.uses.resolve(&segments(&p.path));
                    let segs: Vec<&str> = resolved.split("::").collect();
                    let at = segs.len().checked_sub(2)?;
                    let name = segs[at].strip_suffix("Server").filter(|n| !n.is_empty())?;
                    // The modules before the generated `foo_server` module.
                    let modules = segs[..at]
                        .iter()
                        .take_while(|m| !m.ends_with("_server"))
                        .map(|m| format!("{m}::"))
                        .collect::<String>();
                    let inner = c.args.first().map(|a| handler_text(Some(a)));
                    Some((format!("{modules}{name}"), inner.unwrap_or_default()))
                }
                _ => None,
            },
            _ => None,
        });
        r.routes.push(match service {
            Some((name, handler)) => RawRoute {
                method: "GRPC".to_string(),
                path: name,
                unresolved: false,
                handler,
                framework: TONIC,
                line,
            },
            None => RawRoute {
                method: "GRPC".to_string(),
                path: String::new(),
                unresolved: true,
                handler: arg.map(text).unwrap_or_default(),
                framework: TONIC,
                line,
            },
        });
    }
}

/// A path under a mount prefix (`/api` + `/x` → `/api/x`, `/api` + `/` → `/api/`).
pub fn join(prefix: &str, path: &str) -> String {
    if prefix.is_empty() {
        return path.to_string();
    }
    let p = prefix.trim_end_matches('/');
    if path == "/" || path.is_empty() {
        format!("{p}/").replace("//", "/")
    } else {
        format!("{p}{path}")
    }
}

/// A path argument: the literal, or the expression's text in braces, unresolved.
fn path_arg(e: Option<&Expr>) -> (String, bool) {
    match e {
        Some(e) => match str_lit(e) {
            Some(s) => (s, false),
            None => (format!("{{{}}}", text(e)), true),
        },
        None => ("{}".to_string(), true),
    }
}

fn handler_text(e: Option<&Expr>) -> String {
    match e.map(peel) {
        Some(Expr::Path(p)) => segments(&p.path).join("::"),
        Some(Expr::Closure(_)) => "closure".to_string(),
        Some(Expr::Struct(s)) => format!("{} {{…}}", segments(&s.path).join("::")),
        Some(e) => text(e),
        None => String::new(),
    }
}

fn split_chain(e: &Expr) -> (Option<&ExprCall>, Vec<&ExprMethodCall>) {
    let mut calls = Vec::new();
    let mut e = peel(e);
    while let Expr::MethodCall(m) = e {
        calls.push(m);
        e = peel(&m.receiver);
    }
    calls.reverse();
    match e {
        Expr::Call(c) => (Some(c), calls),
        _ => (None, calls),
    }
}

fn axum_chain(v: &mut Scope, calls: &[&ExprMethodCall], prefix: &str, r: &mut RawRouter) {
    for m in calls {
        let args: Vec<&Expr> = m.args.iter().collect();
        let line = line(m.method.span());
        match m.method.to_string().as_str() {
            "route" => {
                let (path, unresolved) = path_arg(args.first().copied());
                for (method, handler) in method_router(args.get(1).copied()) {
                    r.routes.push(RawRoute {
                        method,
                        path: join(prefix, &path),
                        unresolved,
                        handler,
                        framework: "axum",
                        line,
                    });
                }
            }
            name @ ("nest" | "merge") => {
                let (sub, target) = if name == "nest" {
                    let (p, _) = path_arg(args.first().copied());
                    (join(prefix, &p), args.get(1).copied())
                } else {
                    (prefix.to_string(), args.first().copied())
                };
                nested(v, &sub, target, line, r);
            }
            _ => {}
        }
    }
}

fn nested(v: &mut Scope, prefix: &str, target: Option<&Expr>, line: u32, r: &mut RawRouter) {
    let Some(target) = target else {
        return;
    };
    let (base, calls) = split_chain(target);
    if let Some(base) = base
        && let Expr::Path(p) = &*base.func
    {
        let resolved = v.uses.resolve(&segments(&p.path));
        if is_from(v, &resolved, "axum", "Router::new") {
            v.mark_seen(base);
            axum_chain(v, &calls, prefix, r);
            return;
        }
        if calls.is_empty() {
            let name = segments(&p.path).pop().unwrap_or_default();
            r.mounts.push(Mount {
                prefix: prefix.to_string(),
                target: name,
                line,
            });
            return;
        }
    }
    if calls.is_empty()
        && let Some(name) = path_name(target)
    {
        r.mounts.push(Mount {
            prefix: prefix.to_string(),
            target: name,
            line,
        });
        return;
    }
    r.unfollowed.push((text(target), line));
}

/// `get(h).post(h2)` → `[("GET", "h"), ("POST", "h2")]`.
fn method_router(e: Option<&Expr>) -> Vec<(String, String)> {
    let Some(e) = e else {
        return Vec::new();
    };
    let (base, calls) = split_chain(e);
    let mut out = Vec::new();
    if let Some(base) = base
        && let Expr::Path(p) = &*base.func
        && let Some(name) = p.path.segments.last().map(|s| s.ident.to_string())
    {
        let name = name.trim_end_matches("_service");
        if AXUM_METHODS.contains(&name) {
            out.push((method_name(name), handler_text(base.args.first())));
        }
    }
    for m in calls {
        let name = m.method.to_string();
        let name = name.trim_end_matches("_service");
        if AXUM_METHODS.contains(&name) {
            out.push((method_name(name), handler_text(m.args.first())));
        }
    }
    out
}

fn method_name(name: &str) -> String {
    if name == "any" {
        "ANY".to_string()
    } else {
        name.to_ascii_uppercase()
    }
}

fn actix_chain(v: &mut Scope, calls: &[&ExprMethodCall], prefix: &str, r: &mut RawRouter) {
    for m in calls {
        let args: Vec<&Expr> = m.args.iter().collect();
        let line = line(m.method.span());
        match m.method.to_string().as_str() {
            "route" => {
                let (path, unresolved) = path_arg(args.first().copied());
                if let Some((method, handler)) = actix_route(args.get(1).copied()) {
                    r.routes.push(RawRoute {
                        method,
                        path: join(prefix, &path),
                        unresolved,
                        handler,
                        framework: "actix-web",
                        line,
                    });
                }
            }
            "service" => {
                let Some(target) = args.first().copied() else {
                    continue;
                };
                let (base, inner) = split_chain(target);
                if let Some(base) = base
                    && let Expr::Path(p) = &*base.func
                {
                    let resolved = v.uses.resolve(&segments(&p.path));
                    let first = base.args.first().and_then(str_lit);
                    if is_from(v, &resolved, "actix_web", "web::scope")
                        && let Some(sub) = first
                    {
                        v.mark_seen(base);
                        actix_chain(v, &inner, &join(prefix, &sub), r);
                        continue;
                    }
                    if is_from(v, &resolved, "actix_web", "web::resource")
                        && let Some(path) = first
                    {
                        v.mark_seen(base);
                        actix_resource(&inner, &join(prefix, &path), r);
                        continue;
                    }
                }
                if let Some(name) = path_name(target) {
                    r.mounts.push(Mount {
                        prefix: prefix.to_string(),
                        target: name,
                        line,
                    });
                }
            }
            _ => {}
        }
    }
}

fn actix_resource(calls: &[&ExprMethodCall], path: &str, r: &mut RawRouter) {
    for m in calls {
        let line = line(m.method.span());
        let found = match m.method.to_string().as_str() {
            "route" => actix_route(m.args.first()),
            "to" => Some(("ANY".to_string(), handler_text(m.args.first()))),
            _ => None,
        };
        if let Some((method, handler)) = found {
            r.routes.push(RawRoute {
                method,
                path: path.to_string(),
                unresolved: false,
                handler,
                framework: "actix-web",
                line,
            });
        }
    }
}

/// `web::get().to(h)` → `("GET", "h")`.
fn actix_route(e: Option<&Expr>) -> Option<(String, String)> {
    let (base, calls) = split_chain(e?);
    let Expr::Path(p) = &*base?.func else {
        return None;
    };
    let name = p.path.segments.last()?.ident.to_string();
    let method = match name.as_str() {
        "get" | "post" | "put" | "delete" | "patch" | "head" | "trace" => name.to_uppercase(),
        "route" => "ANY".to_string(),
        _ => return None,
    };
    let handler = calls
        .iter()
        .find(|m| m.method == "to")
        .map(|m| handler_text(m.args.first()))?;
    Some((method, handler))
}

const ACTIX_ATTRS: &[&str] = &[
    "get", "post", "put", "delete", "patch", "head", "options", "trace", "connect", "route",
];

/// Handler functions with actix-web route attributes: `(function name, route)`.
pub fn actix_attributes(items: &[Item], uses: &Uses) -> Vec<(String, RawRoute)> {
    let mut out = Vec::new();
    for item in items {
        let Item::Fn(f) = item else {
            continue;
        };
        for a in &f.attrs {
            let segs = segments(a.path());
            let resolved = uses.resolve(&segs);
            let Some(name) = segs.last() else {
                continue;
            };
            let actix = resolved.starts_with("actix_web::")
                || (segs.len() == 1 && !uses.is_imported(name) && uses.uses_crate(&["actix_web"]));
            if !actix || !ACTIX_ATTRS.contains(&name.as_str()) {
                continue;
            }
            let Ok(args) = a.parse_args_with(
                syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated,
            ) else {
                continue;
            };
            let Some(path) = args.first().and_then(str_lit) else {
                continue;
            };
            let mut methods: Vec<String> = if name == "route" {
                args.iter()
                    .filter_map(|e| match e {
                        Expr::Assign(a) if matches!(&*a.left, Expr::Path(p) if p.path.is_ident("method")) => {
                            str_lit(&a.right)
                        }
                        _ => None,
                    })
                    .collect()
            } else {
                vec![name.to_uppercase()]
            };
            if methods.is_empty() {
                methods.push("ANY".to_string());
            }
            for method in methods {
                out.push((
                    f.sig.ident.to_string(),
                    RawRoute {
                        method,
                        path: path.clone(),
                        unresolved: false,
                        handler: f.sig.ident.to_string(),
                        framework: "actix-web",
                        line: path_line(a.path()),
                    },
                ));
            }
        }
    }
    out
}
