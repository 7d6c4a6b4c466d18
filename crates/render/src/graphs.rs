//! The graphs drawn with `svg::graph`, built from the model: the cross-project graph of
//! the home page, a project's service map (network page) and its RBAC graph (security
//! page). Only the project's own rows are drawn: samples and bundled dependency manifests
//! stay in their tables.

use std::collections::HashMap;

use super::svg::graph::{Edge, Graph, Item, Node};
use super::table::KindPages;
use super::views::anchor;
use kubernetes::names::role_key;
use model::{Connection, Portal, Project};

/// Projects and the kinds that connect them: `A → [kinds] → B` for each box of
/// `Portal::connections`, with an arrow from each project of its writing side and to each
/// project of its watching side. Each project's column is its longest path from a project
/// nothing points to (arrows that close a cycle left out); a box sits in the column after
/// the last of its writers. Linear in the boxes' sides. None when no box exists.
pub fn projects(portal: &Portal, root: &str, kinds: &KindPages) -> Option<Graph> {
    if portal.connections.is_empty() {
        return None;
    }
    let index: HashMap<&str, usize> = portal
        .projects
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    let n = portal.projects.len();
    // Nodes 0..n are the projects, n.. the boxes.
    let mut arrows: Vec<(usize, usize)> = Vec::new();
    for (b, c) in portal.connections.iter().enumerate() {
        arrows.extend(
            c.from
                .iter()
                .filter_map(|e| index.get(e.project.as_str()))
                .map(|&p| (p, n + b)),
        );
        arrows.extend(
            c.to.iter()
                .filter_map(|e| index.get(e.project.as_str()))
                .map(|&p| (n + b, p)),
        );
    }
    let layer = longest_path_layers(n + portal.connections.len(), &arrows);
    let mut nodes: Vec<Node> = portal
        .projects
        .iter()
        .enumerate()
        .map(|(i, p)| Node {
            id: format!("project-{}", p.name),
            layer: layer[i],
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
    for (b, c) in portal.connections.iter().enumerate() {
        let id = format!("kinds-{b}");
        let watcher = c.to.first().map(|e| e.project.as_str()).unwrap_or_default();
        nodes.push(Node {
            id: id.clone(),
            layer: layer[n + b],
            class: "kinds".into(),
            label: match c.kinds.len() {
                1 => "1 kind".to_string(),
                n => format!("{n} kinds"),
            },
            link: format!("{root}projects/{watcher}/dataflow/#controllers"),
            sub: String::new(),
            items: c
                .kinds
                .iter()
                .map(|k| Item {
                    text: k.kind.clone(),
                    link: kinds.url(&k.group, &k.kind).unwrap_or_else(|| {
                        format!("{root}projects/{watcher}/dataflow/#controllers")
                    }),
                    detail: format!("{} ({})", k.kind, k.group),
                })
                .collect(),
        });
        for e in c
            .from
            .iter()
            .filter(|e| index.contains_key(e.project.as_str()))
        {
            edges.push(Edge {
                from: format!("project-{}", e.project),
                to: id.clone(),
                label: format!("{} {}", e.project, how(c, &e.how, "")),
            });
        }
        for e in
            c.to.iter()
                .filter(|e| index.contains_key(e.project.as_str()))
        {
            edges.push(Edge {
                from: id.clone(),
                to: format!("project-{}", e.project),
                label: format!("{} {}", e.project, how(c, &e.how, "watches ")),
            });
        }
    }
    Some(Graph {
        title: "Projects and the kinds that connect them".into(),
        columns: vec![],
        nodes,
        edges,
    })
}

/// How one project touches the kinds of a box, for an arrow's tooltip: `defines` for one
/// kind, `Pool: writes (create); Route: owns` for several.
fn how(c: &Connection, how: &[String], verb: &str) -> String {
    if let [one] = how {
        return if verb.is_empty() {
            one.clone()
        } else {
            format!("{verb}({one})")
        };
    }
    let each: Vec<String> = c
        .kinds
        .iter()
        .zip(how)
        .map(|(k, h)| format!("{}: {verb}{h}", k.kind))
        .collect();
    each.join("; ")
}

/// The column of each node: its longest path from a node nothing points to, over the
/// arrows `(from, to)`. Arrows that close a cycle (found by a depth-first search that
/// starts from the nodes in order) are left out, so the result is defined for any input;
/// O(nodes + arrows).
fn longest_path_layers(count: usize, arrows: &[(usize, usize)]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); count];
    for &(a, b) in arrows {
        out[a].push(b);
    }
    // Depth-first search with an explicit stack: 0 unseen, 1 on the path, 2 done.
    let mut state = vec![0u8; count];
    let mut finished: Vec<usize> = Vec::with_capacity(count);
    let mut kept: Vec<Vec<usize>> = vec![Vec::new(); count];
    for root in 0..count {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            if let Some(&to) = out[node].get(*next) {
                *next += 1;
                if state[to] == 1 {
                    continue; // closes a cycle
                }
                kept[node].push(to);
                if state[to] == 0 {
                    state[to] = 1;
                    stack.push((to, 0));
                }
            } else {
                state[node] = 2;
                finished.push(node);
                stack.pop();
            }
        }
    }
    // Reverse finishing order is a topological order of the kept arrows.
    let mut layer = vec![0usize; count];
    for &node in finished.iter().rev() {
        for &to in &kept[node] {
            layer[to] = layer[to].max(layer[node] + 1);
        }
    }
    layer
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
        .findings
        .workloads
        .iter()
        .filter(|w| w.area.is_component() && !w.bundled)
        .collect();
    let services: Vec<_> = p
        .findings
        .services
        .iter()
        .filter(|s| s.area.is_component() && !s.bundled)
        .collect();
    let ingresses: Vec<_> = p
        .findings
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
    let selects = |s: &model::Service, w: &model::Workload| {
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
    let gateways: Vec<&model::Ingress> = ingresses
        .iter()
        .filter(|i| i.kind == "Gateway")
        .copied()
        .collect();
    for i in ingresses.iter().filter(|i| i.kind != "Gateway") {
        edges.extend(route_edges(i, &services, &gateways));
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

/// A route's edges: from the Services it sends traffic to, to the Gateways it attaches to.
fn route_edges(
    i: &model::Ingress,
    services: &[&model::Service],
    gateways: &[&model::Ingress],
) -> Vec<Edge> {
    let id = format!("i-{}-{}-{}", i.kind, i.namespace, i.name);
    let mut edges = Vec::new();
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
                && matches_namespace(&g.namespace, if ns.is_empty() { &i.namespace } else { ns })
        }) {
            edges.push(Edge {
                from: id.clone(),
                to: format!("i-{}-{}-{}", g.kind, g.namespace, g.name),
                label: format!("{} {} attaches to {} {}", i.kind, i.name, g.kind, g.name),
            });
        }
    }
    edges
}

fn ingress_node(i: &model::Ingress, layer: usize, page: &dyn Fn(&str, String) -> String) -> Node {
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
        .findings
        .role_bindings
        .iter()
        .filter(|b| b.area.is_component() && !b.bundled)
        .collect();
    if bindings.is_empty() {
        return None;
    }
    let page = |row: String| format!("{root}projects/{}/security/#{row}", p.name);
    let namespaces = super::subjects::Namespaces::new(p);
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
        for written in &b.subjects {
            // One node per account as the cluster sees it (`subjects`).
            let subject = namespaces.subject(b, written).subject;
            add_node(
                &mut nodes,
                subject_node(p, &namespaces, &subject, &page, &binding_row),
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
        let role = role_node(p, b, &page, binding_row);
        let role_id = role.id.clone();
        add_node(&mut nodes, role);
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

/// A subject's node, linked to its ServiceAccount's row when the repository has it, else
/// to the binding's row.
fn subject_node(
    p: &Project,
    namespaces: &super::subjects::Namespaces,
    subject: &str,
    page: &dyn Fn(String) -> String,
    binding_row: &str,
) -> Node {
    // The row of its ServiceAccount, named as on the security page.
    let own = p
        .findings
        .service_accounts
        .iter()
        .map(|s| (s, namespaces.account(&s.namespace, &s.name).subject))
        .find(|(s, account)| *account == subject || subject == format!("ServiceAccount {}", s.name))
        .map(|(_, account)| account);
    let (kind, name) = subject.split_once(' ').unwrap_or(("", subject));
    Node {
        id: format!("subject-{subject}"),
        layer: 0,
        class: "subject".into(),
        label: name.to_string(),
        link: match own {
            Some(account) => {
                let name = account.strip_prefix("ServiceAccount ").unwrap_or("");
                let (namespace, short) = name.split_once('/').unwrap_or(("", name));
                page(anchor(&["serviceaccount", namespace, short]))
            }
            None => page(binding_row.to_string()),
        },
        sub: kind.to_string(),
        items: vec![],
    }
}

/// A binding's role with its first rules, linked to its row when the repository has it,
/// else to the binding's row.
fn role_node(
    p: &Project,
    b: &model::RoleBinding,
    page: &dyn Fn(String) -> String,
    binding_row: String,
) -> Node {
    let role = p
        .findings
        .roles
        .iter()
        .find(|r| role_key(&r.kind, &r.namespace, &r.name) == b.role);
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
    Node {
        id: format!("role-{}", b.role),
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
    }
}
