//! gRPC services and grpc-gateway routes: what protoc-gen-go-grpc and
//! protoc-gen-grpc-gateway generate, read per file, and the catalog of services a project
//! declares (its `.proto` files and generated Go code), used when a registration
//! `pb.RegisterXServer(s, impl)` or `pb.RegisterXHandlerFromEndpoint(ctx, mux, …)` is
//! evaluated.
//!
//! Per file, only generated files are read: `var X_ServiceDesc = grpc.ServiceDesc{…}` (the
//! service's full name and its methods and streams), grpc-gateway's
//! `pattern_… = runtime.MustPattern(runtime.NewPattern(1, []int{…}, []string{…}, verb))`
//! (the path, rebuilt from its op codes) and `mux.Handle(method, pattern_…, …)` inside the
//! generated `Register…HandlerClient`/`Register…HandlerServer` functions.

use tree_sitter::Node;

use crate::facts::routes::{GatewayHandle, GrpcFacts, ServiceDesc};
use crate::syntax::{FIELD, FuncCtx, KindName, for_each_node, string_literal, text};
use manifests::proto::ProtoFile;

/// At most this many op codes and pool strings are read from one pattern.
const MAX_PATTERN: usize = 1024;

/// What kind of registration a function name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registration {
    /// `RegisterXServer(s, impl)`.
    Server,
    /// `RegisterXHandler…(ctx, mux, …)` of grpc-gateway.
    Gateway,
}

/// `RegisterXServer` → (`X`, Server); `RegisterXHandlerFromEndpoint`, `RegisterXHandler`,
/// `RegisterXHandlerServer`, `RegisterXHandlerClient` → (`X`, Gateway).
pub fn registration(name: &str) -> Option<(&str, Registration)> {
    let rest = name.strip_prefix("Register")?;
    for suffix in [
        "HandlerFromEndpoint",
        "HandlerServer",
        "HandlerClient",
        "Handler",
    ] {
        if let Some(x) = rest.strip_suffix(suffix).filter(|x| is_go_name(x)) {
            return Some((x, Registration::Gateway));
        }
    }
    let x = rest.strip_suffix("Server").filter(|x| is_go_name(x))?;
    Some((x, Registration::Server))
}

fn is_go_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Reads the service descriptors and gateway patterns of a generated file's `var`
/// declaration.
pub fn extract_vars(decl: Node, src: &[u8], facts: &mut GrpcFacts) {
    let mut specs = Vec::new();
    for_each_node(decl, |n| {
        if n.kind_name() == "var_spec" {
            specs.push(n);
        }
    });
    for spec in specs {
        let Some(name) = spec.child_by_field_id(FIELD.name).map(|n| text(n, src)) else {
            continue;
        };
        let Some(value) = spec
            .child_by_field_id(FIELD.value)
            .and_then(|v| v.named_child(0))
        else {
            continue;
        };
        if let Some(go_name) = name
            .strip_suffix("_ServiceDesc")
            .or_else(|| name.strip_prefix('_')?.strip_suffix("_serviceDesc"))
        {
            if let Some(desc) = service_desc(go_name, value, src) {
                facts.services.push(desc);
            }
        } else if name.starts_with("pattern_")
            && let Some(path) = gateway_pattern(value, src)
        {
            facts.patterns.push((name.to_string(), path));
        }
    }
}

/// `grpc.ServiceDesc{ServiceName: "p.S", Methods: […{MethodName: "M"}], Streams: […{StreamName: "N"}]}`.
fn service_desc(go_name: &str, value: Node, src: &[u8]) -> Option<ServiceDesc> {
    let is_desc = value.kind_name() == "composite_literal"
        && value
            .child_by_field_id(FIELD.ty)
            .is_some_and(|t| text(t, src).ends_with("ServiceDesc"));
    if !is_desc {
        return None;
    }
    let mut full_name = None;
    let mut methods = Vec::new();
    for_each_node(value, |n| {
        if n.kind_name() != "keyed_element" {
            return;
        }
        let key = n.child_by_field_id(FIELD.key).map(|k| text(k, src));
        let literal = n
            .child_by_field_id(FIELD.value)
            .and_then(|v| v.named_child(0))
            .and_then(|v| string_literal(v, src));
        match (key, literal) {
            (Some("ServiceName"), Some(s)) => full_name = Some(s),
            (Some("MethodName" | "StreamName"), Some(s)) if methods.len() < MAX_PATTERN => {
                methods.push(s)
            }
            _ => {}
        }
    });
    Some(ServiceDesc {
        go_name: go_name.to_string(),
        full_name: full_name?,
        methods,
    })
}

/// The path of `runtime.MustPattern(runtime.NewPattern(1, ops, pool, verb))`.
fn gateway_pattern(value: Node, src: &[u8]) -> Option<String> {
    let mut new_pattern = None;
    for_each_node(value, |n| {
        if new_pattern.is_none()
            && n.kind_name() == "call_expression"
            && n.child_by_field_id(FIELD.function)
                .is_some_and(|f| text(f, src).ends_with("NewPattern"))
        {
            new_pattern = Some(n);
        }
    });
    let args = new_pattern?.child_by_field_id(FIELD.arguments)?;
    let mut c = args.walk();
    let args: Vec<Node> = args
        .named_children(&mut c)
        .filter(|n| n.kind_name() != "comment")
        .collect();
    let mut ops = Vec::new();
    for_each_node(*args.get(1)?, |n| {
        if n.kind_name() == "int_literal" && ops.len() < 2 * MAX_PATTERN {
            ops.push(text(n, src).parse::<usize>().unwrap_or(usize::MAX));
        }
    });
    let mut pool = Vec::new();
    for_each_node(*args.get(2)?, |n| {
        if n.kind_name() == "interpreted_string_literal"
            && pool.len() < MAX_PATTERN
            && let Some(s) = string_literal(n, src)
        {
            pool.push(s);
        }
    });
    let verb = args
        .get(3)
        .and_then(|v| string_literal(*v, src))
        .unwrap_or_default();
    rebuild_pattern(&ops, &pool, &verb)
}

/// Rebuilds a path template from grpc-gateway's compiled form: op codes (pairs of code and
/// operand: 1 push a `*` segment, 2 push the literal `pool[operand]`, 3 push `**`, 4 join the
/// top `operand` segments, 5 bind the top to the variable `pool[operand]`). None for
/// anything malformed.
pub fn rebuild_pattern(ops: &[usize], pool: &[String], verb: &str) -> Option<String> {
    if !ops.len().is_multiple_of(2) {
        return None;
    }
    let mut stack: Vec<String> = Vec::new();
    let mut segments: Vec<String> = Vec::new();
    for pair in ops.chunks(2) {
        let (op, operand) = (pair[0], pair[1]);
        match op {
            0 => {}
            1 => stack.push("*".to_string()),
            2 => stack.push(pool.get(operand)?.clone()),
            3 => stack.push("**".to_string()),
            4 => {
                let at = stack.len().checked_sub(operand)?;
                let joined = stack.split_off(at).join("/");
                stack.push(joined);
            }
            5 => {
                let value = stack.pop()?;
                let name = pool.get(operand)?;
                stack.push(if value == "*" {
                    format!("{{{name}}}")
                } else {
                    format!("{{{name}={value}}}")
                });
            }
            _ => return None,
        }
        if stack.len() > MAX_PATTERN {
            return None;
        }
    }
    segments.append(&mut stack);
    let mut path = format!("/{}", segments.join("/"));
    if !verb.is_empty() {
        path.push(':');
        path.push_str(verb);
    }
    Some(path)
}

/// Records a top-level function named like a registration, and, in a generated
/// `Register…HandlerClient`/`…HandlerServer`, its `mux.Handle(method, pattern_…, …)` calls.
pub fn extract_func(ctx: &FuncCtx, generated: bool, src: &[u8], facts: &mut GrpcFacts) {
    if ctx.receiver_name.is_some() || registration(&ctx.name).is_none() {
        return;
    }
    facts.declared.push(ctx.name.clone());
    let handles_routes = ctx.name.ends_with("HandlerClient") || ctx.name.ends_with("HandlerServer");
    if !generated || !handles_routes {
        return;
    }
    ctx.each_node(|n| {
        if n.kind_name() != "call_expression" {
            return;
        }
        let is_handle = n
            .child_by_field_id(FIELD.function)
            .filter(|f| f.kind_name() == "selector_expression")
            .and_then(|f| f.child_by_field_id(FIELD.field))
            .is_some_and(|f| text(f, src) == "Handle");
        let Some(args) = n.child_by_field_id(FIELD.arguments).filter(|_| is_handle) else {
            return;
        };
        let mut c = args.walk();
        let args: Vec<Node> = args.named_children(&mut c).collect();
        let (Some(method), Some(pattern)) = (args.first(), args.get(1)) else {
            return;
        };
        let pattern = text(*pattern, src);
        if !pattern.starts_with("pattern_") {
            return;
        }
        let method = string_literal(*method, src).or_else(|| {
            // `http.MethodGet` → GET.
            let t = text(*method, src);
            let name = t.rsplit('.').next()?.strip_prefix("Method")?;
            (!name.is_empty()).then(|| name.to_ascii_uppercase())
        });
        facts.handles.push(GatewayHandle {
            func: ctx.name.clone(),
            method,
            pattern: pattern.to_string(),
        });
    });
}

/// One service as the project declares it.
#[derive(Debug, Clone, PartialEq)]
pub struct Service {
    pub full_name: String,
    /// Its methods, when known.
    pub methods: Vec<String>,
    /// grpc-gateway bindings (method, path, rpc method), when known.
    pub http: Vec<(String, String, String)>,
    /// Where the HTTP rules come from: true for a `.proto` file.
    pub http_from_proto: bool,
}

/// Well-known services of other modules that operators serve: (import path, Go name, full
/// name, methods). Methods are listed only when they are stable across versions.
const WELL_KNOWN: &[(&str, &str, &str, &[&str])] = &[
    (
        "google.golang.org/grpc/health/grpc_health_v1",
        "Health",
        "grpc.health.v1.Health",
        &[],
    ),
    (
        "github.com/container-storage-interface/spec/lib/go/csi",
        "Identity",
        "csi.v1.Identity",
        &[],
    ),
    (
        "github.com/container-storage-interface/spec/lib/go/csi",
        "Controller",
        "csi.v1.Controller",
        &[],
    ),
    (
        "github.com/container-storage-interface/spec/lib/go/csi",
        "Node",
        "csi.v1.Node",
        &[],
    ),
    (
        "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3",
        "ExternalProcessor",
        "envoy.service.ext_proc.v3.ExternalProcessor",
        &["Process"],
    ),
];

/// The service `go_name` of the Go package `import_path`: from a `.proto` whose
/// `go_package` is that package (preferred: it has the HTTP rules), else from the package's
/// generated code (`files` are the facts of the files in that package), else from the
/// well-known table.
pub fn find_service(
    import_path: &str,
    go_name: &str,
    protos: &[ProtoFile],
    files: &[&GrpcFacts],
) -> Option<Service> {
    let from_proto = protos
        .iter()
        .filter(|p| !p.go_package.is_empty() && p.go_package == import_path)
        .flat_map(|p| p.services.iter().map(move |s| (p, s)))
        .find(|(_, s)| s.name == go_name)
        .map(|(p, s)| Service {
            full_name: p.full_name(s),
            methods: s.rpcs.iter().map(|r| r.name.clone()).collect(),
            http: s
                .rpcs
                .iter()
                .flat_map(|r| {
                    r.http
                        .iter()
                        .map(move |(m, path)| (m.clone(), path.clone(), r.name.clone()))
                })
                .collect(),
            http_from_proto: true,
        });
    if from_proto.is_some() {
        return from_proto;
    }
    let desc = files
        .iter()
        .flat_map(|f| f.services.iter())
        .find(|d| d.go_name == go_name);
    if let Some(desc) = desc {
        // The gateway's generated handlers: `pattern_X_M_N` belongs to rpc `M`.
        let mut http = Vec::new();
        for f in files {
            for h in f.handles.iter().filter(|h| {
                h.func == format!("Register{go_name}HandlerClient")
                    || h.func == format!("Register{go_name}HandlerServer")
            }) {
                let Some(path) = files
                    .iter()
                    .flat_map(|f| f.patterns.iter())
                    .find(|(name, _)| *name == h.pattern)
                    .map(|(_, p)| p.clone())
                else {
                    continue;
                };
                let rpc = h
                    .pattern
                    .strip_prefix(&format!("pattern_{go_name}_"))
                    .and_then(|r| r.rsplit_once('_'))
                    .map(|(m, _)| m.to_string())
                    .unwrap_or_default();
                let method = h.method.clone().unwrap_or_else(|| "{method}".to_string());
                let row = (method, path, rpc);
                if !http.contains(&row) {
                    http.push(row);
                }
            }
        }
        return Some(Service {
            full_name: desc.full_name.clone(),
            methods: desc.methods.clone(),
            http,
            http_from_proto: false,
        });
    }
    WELL_KNOWN
        .iter()
        .find(|(path, name, _, _)| *path == import_path && *name == go_name)
        .map(|(_, _, full, methods)| Service {
            full_name: full.to_string(),
            methods: methods.iter().map(|m| m.to_string()).collect(),
            http: Vec::new(),
            http_from_proto: false,
        })
}

#[cfg(test)]
mod tests;
