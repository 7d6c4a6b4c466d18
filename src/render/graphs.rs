//! The graphs drawn with `svg::graph`, built from the model: the cross-project graph of
//! the home page, a project's service map (network page) and its RBAC graph (security
//! page). Only the project's own rows are drawn: samples and bundled dependency manifests
//! stay in their tables.

use super::svg::graph::{Edge, Graph, Item, Node};
use super::table::KindPages;
use super::views::anchor;
use crate::analyze::yaml::rbac::role_key;
use crate::analyze::yaml::value::qualified;
use crate::model::{Portal, Project};

/// Projects and the kinds that connect them: `A → [kinds] → B` when A writes or defines a
/// kind B watches. Each project's column is its longest path from a project nothing
/// points to; the kinds of an edge sit in the column between. None when no edge exists.
pub fn projects(portal: &Portal, root: &str, kinds: &KindPages) -> Option<Graph> {
    if portal.edges.is_empty() {
        return None;
    }
    let names: Vec<&str> = portal.projects.iter().map(|p| p.name.as_str()).collect();
    let n = names.len();
    let pos = |name: &str| names.iter().position(|x| *x == name);
    let mut layer = vec![0usize; n];
    // Longest-path layering, capped so that a cycle cannot grow it forever.
    for _ in 0..n {
        for e in &portal.edges {
            if let (Some(a), Some(b)) = (pos(&e.from), pos(&e.to))
                && layer[b] < layer[a] + 1
                && layer[a] + 1 < n
            {
                layer[b] = layer[a] + 1;
            }
        }
    }
    let mut nodes: Vec<Node> = portal
        .projects
        .iter()
        .enumerate()
        .map(|(i, p)| Node {
            id: format!("project-{}", p.name),
            layer: 2 * layer[i],
            class: "project".into(),
            label: p.title.clone(),
            link: format!("{root}projects/{}/", p.name),
            sub: if p.title == p.name {
                String::new()
            } else {
                p.name.clone()
            },
            items: vec![],
        })
        .collect();
    let mut edges = Vec::new();
    for e in &portal.edges {
        let (Some(a), Some(_)) = (pos(&e.from), pos(&e.to)) else {
            continue;
        };
        let id = format!("kinds-{}-{}", e.from, e.to);
        nodes.push(Node {
            id: id.clone(),
            layer: 2 * layer[a] + 1,
            class: "kinds".into(),
            label: match e.kinds.len() {
                1 => "1 kind".to_string(),
                n => format!("{n} kinds"),
            },
            link: format!("{root}projects/{}/dataflow/#controller-watches", e.to),
            sub: String::new(),
            items: e
                .kinds
                .iter()
                .map(|k| Item {
                    text: k.kind.clone(),
                    link: kinds.url(&k.group, &k.kind).unwrap_or_else(|| {
                        format!("{root}projects/{}/dataflow/#controller-watches", e.to)
                    }),
                    detail: format!("{} ({}): {}", k.kind, k.group, k.how),
                })
                .collect(),
        });
        edges.push(Edge {
            from: format!("project-{}", e.from),
            to: id.clone(),
            label: format!("{} writes or defines", e.from),
        });
        edges.push(Edge {
            from: id,
            to: format!("project-{}", e.to),
            label: format!("{} watches", e.to),
        });
    }
    Some(Graph {
        title: "Projects and the kinds that connect them".into(),
        columns: vec![],
        nodes,
        edges,
    })
}

fn matches_namespace(a: &str, b: &str) -> bool {
    a.is_empty() || b.is_empty() || a == b
}

/// Workloads → Services (a Service selects a workload when every `key=value` of its
/// selector is among the pod template's labels) → Ingresses, Routes and Gateway API
/// routes (by their backends) → Gateways (by a route's parents). None when the project
/// has no Service, Ingress or route of its own.
pub fn service_map(p: &Project, root: &str) -> Option<Graph> {
    let own_workloads: Vec<_> = p
        .workloads
        .iter()
        .filter(|w| w.area.is_component() && !w.bundled)
        .collect();
    let services: Vec<_> = p
        .services
        .iter()
        .filter(|s| s.area.is_component() && !s.bundled)
        .collect();
    let ingresses: Vec<_> = p
        .ingresses
        .iter()
        .filter(|i| i.area.is_component() && !i.bundled)
        .collect();
    if services.is_empty() && ingresses.is_empty() {
        return None;
    }
    let page = |page: &str, row: String| format!("{root}projects/{}/{page}/#{row}", p.name);
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    let selects = |s: &crate::model::Service, w: &crate::model::Workload| {
        !s.selector.is_empty()
            && matches_namespace(&s.namespace, &w.namespace)
            && s.selector.iter().all(|kv| w.pod_labels.contains(kv))
    };
    for w in &own_workloads {
        if !services.iter().any(|s| selects(s, w)) {
            continue;
        }
        nodes.push(Node {
            id: format!("w-{}-{}-{}", w.kind, w.namespace, w.name),
            layer: 0,
            class: "workload".into(),
            label: w.name.clone(),
            link: page(
                "configuration",
                anchor(&["workload", &w.kind, &w.namespace, &w.name]),
            ),
            sub: w.kind.clone(),
            items: vec![],
        });
    }
    for s in &services {
        let id = format!("s-{}-{}", s.namespace, s.name);
        for w in own_workloads.iter().filter(|w| selects(s, w)) {
            edges.push(Edge {
                from: format!("w-{}-{}-{}", w.kind, w.namespace, w.name),
                to: id.clone(),
                label: format!("Service {} selects {} {}", s.name, w.kind, w.name),
            });
        }
        nodes.push(Node {
            id,
            layer: 1,
            class: "service".into(),
            label: s.name.clone(),
            link: page("network", anchor(&["service", &s.namespace, &s.name])),
            sub: if s.selector.is_empty() {
                "Service (no selector)".into()
            } else {
                format!("Service {}", s.selector.join(","))
            },
            items: s
                .ports
                .iter()
                .map(|port| Item {
                    text: super::table::service_port(port),
                    link: page("network", anchor(&["service", &s.namespace, &s.name])),
                    detail: String::new(),
                })
                .collect(),
        });
    }
    let gateways: Vec<_> = ingresses.iter().filter(|i| i.kind == "Gateway").collect();
    for i in ingresses.iter().filter(|i| i.kind != "Gateway") {
        let id = format!("i-{}-{}-{}", i.kind, i.namespace, i.name);
        for b in &i.backends {
            let Some(("Service", name)) = b.split_once(' ') else {
                continue;
            };
            if let Some(s) = services
                .iter()
                .find(|s| s.name == name && matches_namespace(&s.namespace, &i.namespace))
            {
                edges.push(Edge {
                    from: format!("s-{}-{}", s.namespace, s.name),
                    to: id.clone(),
                    label: format!("{} {} routes to Service {}", i.kind, i.name, s.name),
                });
            }
        }
        for parent in &i.parents {
            // `Kind namespace/name` or `Kind name`.
            let Some((kind, rest)) = parent.split_once(' ') else {
                continue;
            };
            let (ns, name) = rest.split_once('/').unwrap_or(("", rest));
            if let Some(g) = gateways.iter().find(|g| {
                g.kind == kind
                    && g.name == name
                    && matches_namespace(
                        &g.namespace,
                        if ns.is_empty() { &i.namespace } else { ns },
                    )
            }) {
                edges.push(Edge {
                    from: id.clone(),
                    to: format!("i-{}-{}-{}", g.kind, g.namespace, g.name),
                    label: format!("{} {} attaches to {} {}", i.kind, i.name, g.kind, g.name),
                });
            }
        }
        nodes.push(ingress_node(i, 2, &page));
    }
    for g in gateways {
        nodes.push(ingress_node(g, 3, &page));
    }
    Some(Graph {
        title: format!("Service map of {}", p.title),
        columns: vec![
            "Workloads".into(),
            "Services".into(),
            "Ingresses and routes".into(),
            "Gateways".into(),
        ],
        nodes,
        edges,
    })
}

fn ingress_node(
    i: &crate::model::Ingress,
    layer: usize,
    page: &dyn Fn(&str, String) -> String,
) -> Node {
    Node {
        id: format!("i-{}-{}-{}", i.kind, i.namespace, i.name),
        layer,
        class: "ingress".into(),
        label: i.name.clone(),
        link: page(
            "network",
            anchor(&["ingress", &i.kind, &i.namespace, &i.name]),
        ),
        sub: i.kind.clone(),
        items: i
            .hosts
            .iter()
            .chain(i.backends.iter().filter(|b| !b.starts_with("Service ")))
            .map(|h| Item {
                text: h.clone(),
                link: page(
                    "network",
                    anchor(&["ingress", &i.kind, &i.namespace, &i.name]),
                ),
                detail: String::new(),
            })
            .collect(),
    }
}

/// At most this many rules are listed in a role's node; the table has them all.
const ROLE_RULES: usize = 8;

/// ServiceAccounts (and other subjects) → bindings → roles with their rules. None when
/// the project has no binding of its own.
pub fn rbac(p: &Project, root: &str) -> Option<Graph> {
    let bindings: Vec<_> = p
        .role_bindings
        .iter()
        .filter(|b| b.area.is_component() && !b.bundled)
        .collect();
    if bindings.is_empty() {
        return None;
    }
    let page = |row: String| format!("{root}projects/{}/security/#{row}", p.name);
    let mut nodes: Vec<Node> = Vec::new();
    let mut edges = Vec::new();
    let add_node = |nodes: &mut Vec<Node>, node: Node| {
        if !nodes.iter().any(|n| n.id == node.id) {
            nodes.push(node);
        }
    };
    for b in &bindings {
        let binding_id = format!("b-{}-{}-{}", b.kind, b.namespace, b.name);
        let binding_row = anchor(&["binding", &b.kind, &b.namespace, &b.name]);
        for subject in &b.subjects {
            let own = p.service_accounts.iter().find(|s| {
                subject == &format!("ServiceAccount {}", qualified(&s.namespace, &s.name))
                    || subject == &format!("ServiceAccount {}", s.name)
            });
            let (kind, name) = subject.split_once(' ').unwrap_or(("", subject));
            add_node(
                &mut nodes,
                Node {
                    id: format!("subject-{subject}"),
                    layer: 0,
                    class: "subject".into(),
                    label: name.to_string(),
                    link: match own {
                        Some(s) => page(anchor(&["serviceaccount", &s.namespace, &s.name])),
                        None => page(binding_row.clone()),
                    },
                    sub: kind.to_string(),
                    items: vec![],
                },
            );
            edges.push(Edge {
                from: format!("subject-{subject}"),
                to: binding_id.clone(),
                label: format!("{subject} is bound by {}", b.name),
            });
        }
        add_node(
            &mut nodes,
            Node {
                id: binding_id.clone(),
                layer: 1,
                class: "binding".into(),
                label: b.name.clone(),
                link: page(binding_row.clone()),
                sub: b.kind.clone(),
                items: vec![],
            },
        );
        let role = p
            .roles
            .iter()
            .find(|r| role_key(&r.kind, &r.namespace, &r.name) == b.role);
        let role_id = format!("role-{}", b.role);
        let link = match role {
            Some(_) => page(anchor(&["role", &b.role])),
            None => page(binding_row),
        };
        let mut items: Vec<Item> = role
            .map(|r| {
                r.rules
                    .iter()
                    .map(|rule| {
                        let text = super::manifests::rule_line(rule);
                        Item {
                            detail: text.clone(),
                            text,
                            link: link.clone(),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        if items.len() > ROLE_RULES {
            let more = items.len() - ROLE_RULES + 1;
            items.truncate(ROLE_RULES - 1);
            items.push(Item {
                text: format!("… {more} more rules"),
                link: link.clone(),
                detail: String::new(),
            });
        }
        let (kind, name) = b.role.split_once('/').unwrap_or(("", &b.role));
        add_node(
            &mut nodes,
            Node {
                id: role_id.clone(),
                layer: 2,
                class: "role".into(),
                label: name.to_string(),
                link,
                sub: if role.is_some() {
                    kind.to_string()
                } else {
                    format!("{kind} (not in the repository)")
                },
                items,
            },
        );
        edges.push(Edge {
            from: binding_id,
            to: role_id,
            label: format!("{} grants {}", b.name, b.role),
        });
    }
    Some(Graph {
        title: format!("RBAC of {}", p.title),
        columns: vec![
            "Subjects".into(),
            "Bindings".into(),
            "Roles and rules".into(),
        ],
        nodes,
        edges,
    })
}
