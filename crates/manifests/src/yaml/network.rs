//! Networking objects: Services (ports, type, selector), Ingresses, OpenShift Routes,
//! Gateway API Gateways and routes, and NetworkPolicies. Secrets named for TLS are
//! reported as references (`SecretUse`).

use serde_json::Value;

use super::documents::Object;
use super::secrets::SecretUse;
use super::value::{array_at, pairs, scalar, str_at, strings};
use kubernetes::names::qualified;
use model::{Area, Ingress, NetworkPolicy, Service, ServicePort, SourceRef};

pub fn service(o: &Object, path: &str, area: Area) -> Service {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let ports = array_at(spec, &["ports"])
        .iter()
        .map(|p| {
            let protocol = scalar(p.get("protocol"));
            ServicePort {
                name: scalar(p.get("name")),
                port: scalar(p.get("port")),
                target_port: scalar(p.get("targetPort")),
                protocol: if protocol.is_empty() {
                    "TCP".into()
                } else {
                    protocol
                },
            }
        })
        .collect();
    Service {
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        ports,
        service_type: scalar(spec.get("type")),
        selector: pairs(spec.get("selector")),
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

/// A backend `service:port` of an Ingress rule (networking.k8s.io/v1 and the older
/// `serviceName`/`servicePort` form).
fn ingress_backend(b: &Value) -> String {
    if let Some(svc) = b.get("service") {
        let port = svc.get("port").unwrap_or(&Value::Null);
        let port = match scalar(port.get("number")) {
            n if !n.is_empty() => n,
            _ => scalar(port.get("name")),
        };
        return format!("{}:{port}", scalar(svc.get("name")));
    }
    if b.get("serviceName").is_some() {
        return format!(
            "{}:{}",
            scalar(b.get("serviceName")),
            scalar(b.get("servicePort"))
        );
    }
    match b.get("resource") {
        Some(r) => format!("{} {}", scalar(r.get("kind")), scalar(r.get("name"))),
        None => "?".into(),
    }
}

/// The object an Ingress backend names, as `Kind name`, or empty when it names none.
fn backend_object(b: &Value) -> String {
    let name = scalar(
        b.get("service")
            .and_then(|s| s.get("name"))
            .or(b.get("serviceName")),
    );
    if !name.is_empty() {
        return format!("Service {name}");
    }
    match b.get("resource") {
        Some(r) => format!("{} {}", scalar(r.get("kind")), scalar(r.get("name"))),
        None => String::new(),
    }
}

/// Records a backend once; an empty or nameless one is not an object.
fn add_backend(row: &mut Ingress, object: String) {
    let named = object
        .split_once(' ')
        .is_some_and(|(kind, name)| !kind.is_empty() && !name.is_empty());
    if named && !row.backends.contains(&object) {
        row.backends.push(object);
    }
}

fn base(o: &Object, path: &str, area: Area) -> Ingress {
    Ingress {
        kind: o.kind.clone(),
        group: o.group.clone(),
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        class: String::new(),
        hosts: Vec::new(),
        listeners: Vec::new(),
        parents: Vec::new(),
        rules: Vec::new(),
        tls_secrets: Vec::new(),
        backends: Vec::new(),
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

/// A networking.k8s.io (or extensions) Ingress.
pub fn ingress(o: &Object, path: &str, area: Area, uses: &mut Vec<SecretUse>) -> Ingress {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let mut row = base(o, path, area);
    row.class = scalar(spec.get("ingressClassName"));
    if let Some(b) = spec.get("defaultBackend").or(spec.get("backend")) {
        row.rules
            .push(format!("(default) → {}", ingress_backend(b)));
        add_backend(&mut row, backend_object(b));
    }
    for rule in array_at(spec, &["rules"]) {
        let host = scalar(rule.get("host"));
        if !host.is_empty() && !row.hosts.contains(&host) {
            row.hosts.push(host.clone());
        }
        for p in array_at(rule, &["http", "paths"]) {
            let path_text = match scalar(p.get("path")) {
                s if s.is_empty() => "/".to_string(),
                s => s,
            };
            let backend = p.get("backend").map(ingress_backend).unwrap_or("?".into());
            row.rules.push(format!("{host}{path_text} → {backend}"));
            add_backend(
                &mut row,
                p.get("backend").map(backend_object).unwrap_or_default(),
            );
        }
    }
    for tls in array_at(spec, &["tls"]) {
        let secret = scalar(tls.get("secretName"));
        if !secret.is_empty() {
            uses.push(SecretUse::new(o, path, &secret, "TLS"));
            row.tls_secrets.push(secret);
        }
    }
    row
}

/// An OpenShift Route.
pub fn route(o: &Object, path: &str, area: Area) -> Ingress {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let mut row = base(o, path, area);
    let host = scalar(spec.get("host"));
    if !host.is_empty() {
        row.hosts.push(host.clone());
    }
    let to = spec.get("to").unwrap_or(&Value::Null);
    let to_kind = match scalar(to.get("kind")) {
        k if k.is_empty() => "Service".to_string(),
        k => k,
    };
    add_backend(&mut row, format!("{to_kind} {}", scalar(to.get("name"))));
    for alt in array_at(spec, &["alternateBackends"]) {
        let kind = match scalar(alt.get("kind")) {
            k if k.is_empty() => "Service".to_string(),
            k => k,
        };
        add_backend(&mut row, format!("{kind} {}", scalar(alt.get("name"))));
    }
    let port = scalar(spec.get("port").and_then(|p| p.get("targetPort")));
    let target = format!(
        "{} {}{}",
        scalar(to.get("kind")),
        scalar(to.get("name")),
        if port.is_empty() {
            String::new()
        } else {
            format!(":{port}")
        }
    );
    row.rules.push(format!(
        "{host}{} → {target}",
        match scalar(spec.get("path")) {
            s if s.is_empty() => "/".to_string(),
            s => s,
        }
    ));
    let termination = scalar(spec.get("tls").and_then(|t| t.get("termination")));
    if !termination.is_empty() {
        row.listeners.push(format!("TLS {termination}"));
    }
    row
}

/// A Gateway API Gateway or route (HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute).
pub fn gateway_api(o: &Object, path: &str, area: Area, uses: &mut Vec<SecretUse>) -> Ingress {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let mut row = base(o, path, area);
    if o.kind == "Gateway" {
        row.class = scalar(spec.get("gatewayClassName"));
        for l in array_at(spec, &["listeners"]) {
            let host = scalar(l.get("hostname"));
            if !host.is_empty() && !row.hosts.contains(&host) {
                row.hosts.push(host.clone());
            }
            row.listeners.push(format!(
                "{} {}/{}{}",
                scalar(l.get("name")),
                scalar(l.get("protocol")),
                scalar(l.get("port")),
                if host.is_empty() {
                    String::new()
                } else {
                    format!(" {host}")
                }
            ));
            for cert in array_at(l, &["tls", "certificateRefs"]) {
                let name = scalar(cert.get("name"));
                let kind = scalar(cert.get("kind"));
                if !name.is_empty() && (kind.is_empty() || kind == "Secret") {
                    uses.push(SecretUse::new(o, path, &name, "TLS certificateRef"));
                    row.tls_secrets.push(name);
                }
            }
        }
        return row;
    }
    row.hosts = strings(spec.get("hostnames"));
    for p in array_at(spec, &["parentRefs"]) {
        let kind = match scalar(p.get("kind")) {
            k if k.is_empty() => "Gateway".to_string(),
            k => k,
        };
        let ns = match scalar(p.get("namespace")) {
            n if n.is_empty() => o.namespace.clone(),
            n => n,
        };
        let section = scalar(p.get("sectionName"));
        row.parents.push(format!(
            "{kind} {}{}",
            qualified(&ns, &scalar(p.get("name"))),
            if section.is_empty() {
                String::new()
            } else {
                format!(" ({section})")
            }
        ));
    }
    for rule in array_at(spec, &["rules"]) {
        let matches: Vec<String> = array_at(rule, &["matches"])
            .iter()
            .map(route_match)
            .collect();
        for b in array_at(rule, &["backendRefs"]) {
            let kind = match scalar(b.get("kind")) {
                k if k.is_empty() => "Service".to_string(),
                k => k,
            };
            add_backend(&mut row, format!("{kind} {}", scalar(b.get("name"))));
        }
        let backends: Vec<String> = array_at(rule, &["backendRefs"])
            .iter()
            .map(|b| {
                let kind = scalar(b.get("kind"));
                let group = scalar(b.get("group"));
                let port = scalar(b.get("port"));
                format!(
                    "{}{}{}",
                    match (group.as_str(), kind.as_str()) {
                        (_, "") | ("", "Service") => String::new(),
                        (_, k) => format!("{k} "),
                    },
                    scalar(b.get("name")),
                    if port.is_empty() {
                        String::new()
                    } else {
                        format!(":{port}")
                    }
                )
            })
            .collect();
        row.rules.push(format!(
            "{} → {}",
            if matches.is_empty() {
                "(any)".to_string()
            } else {
                matches.join(" | ")
            },
            if backends.is_empty() {
                "(no backend)".to_string()
            } else {
                backends.join(", ")
            }
        ));
    }
    row
}

fn route_match(m: &Value) -> String {
    let mut parts = Vec::new();
    let method = scalar(m.get("method"));
    if !method.is_empty() {
        parts.push(method);
    }
    if let Some(p) = m.get("path") {
        let kind = scalar(p.get("type"));
        let value = scalar(p.get("value"));
        parts.push(match kind.as_str() {
            "Exact" => value,
            "RegularExpression" => format!("~{value}"),
            _ => format!("{value}*"),
        });
    }
    for h in array_at(m, &["headers"]) {
        parts.push(format!(
            "header {}={}",
            scalar(h.get("name")),
            scalar(h.get("value"))
        ));
    }
    // GRPCRoute matches name a service and method instead of a path.
    if let Some(g) = m.get("method").filter(|g| g.is_object()) {
        parts.push(format!(
            "{}/{}",
            scalar(g.get("service")),
            scalar(g.get("method"))
        ));
    }
    if parts.is_empty() {
        "(any)".into()
    } else {
        parts.join(" ")
    }
}

pub fn network_policy(o: &Object, path: &str, area: Area) -> NetworkPolicy {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let rules = |key: &str, peers: &str| -> Vec<String> {
        array_at(spec, &[key])
            .iter()
            .map(|r| {
                let peers: Vec<String> = array_at(r, &[peers]).iter().map(peer).collect();
                let ports: Vec<String> = array_at(r, &["ports"])
                    .iter()
                    .map(|p| {
                        let proto = match scalar(p.get("protocol")) {
                            s if s.is_empty() => "TCP".to_string(),
                            s => s,
                        };
                        let port = scalar(p.get("port"));
                        if port.is_empty() {
                            proto
                        } else {
                            format!("{proto}/{port}")
                        }
                    })
                    .collect();
                format!(
                    "{}; ports: {}",
                    if peers.is_empty() {
                        "any peer".to_string()
                    } else {
                        peers.join(" | ")
                    },
                    if ports.is_empty() {
                        "all".to_string()
                    } else {
                        ports.join(", ")
                    }
                )
            })
            .collect()
    };
    NetworkPolicy {
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        pod_selector: pairs(spec.get("podSelector").and_then(|s| s.get("matchLabels"))),
        policy_types: strings(spec.get("policyTypes")),
        ingress: rules("ingress", "from"),
        egress: rules("egress", "to"),
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

fn peer(p: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(ns) = p.get("namespaceSelector") {
        let labels = pairs(ns.get("matchLabels"));
        parts.push(if labels.is_empty() {
            "all namespaces".to_string()
        } else {
            format!("namespaces {}", labels.join(","))
        });
    }
    if let Some(pods) = p.get("podSelector") {
        let labels = pairs(pods.get("matchLabels"));
        parts.push(if labels.is_empty() {
            "all pods".to_string()
        } else {
            format!("pods {}", labels.join(","))
        });
    }
    if let Some(block) = p.get("ipBlock") {
        parts.push(format!("ipBlock {}", str_at(block, &["cidr"])));
    }
    parts.join(" and ")
}

#[cfg(test)]
mod tests;
