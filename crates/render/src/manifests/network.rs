//! The network page (`/projects/P/network/`): Services, container ports, Ingresses,
//! Routes and Gateway API objects, NetworkPolicies.

use kubernetes::names::qualified;
use model::Project;

use super::{BUNDLED_INTRO, SectionsPage};
use crate::api::Header;
use crate::table::{
    Anchors, Cell, Router, Section, TableRow, port_name, section, service_port, source_links,
};

/// The network page of `p`: one section per function below, then the bundled and samples
/// sections.
pub fn network(p: &Project) -> SectionsPage {
    let mut router = Router::new();
    let mut anchors = Anchors::new();
    let mut sections = vec![services(p, &mut router, &mut anchors)];
    sections.push(container_ports(p, &mut router, &mut anchors));
    sections.push(ingresses(p, &mut router, &mut anchors));
    sections.push(network_policies(p, &mut router, &mut anchors));
    sections.extend(router.finish(BUNDLED_INTRO));
    SectionsPage {
        header: Header::of(p),
        page_title: "Network".into(),
        lead: "What the project exposes and how traffic reaches it.".into(),
        sections,
        diagram: String::new(),
    }
}

/// Service manifests with their ports and selectors.
fn services(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let services = p
        .findings
        .services
        .iter()
        .filter_map(|s| {
            let ports: Vec<String> = s.ports.iter().map(service_port).collect();
            let row = TableRow {
                anchor: anchors.unique(&["service", &s.namespace, &s.name]),
                cells: vec![
                    Cell::text(format!(
                        "{}{}",
                        s.name,
                        if s.templated { " (templated)" } else { "" }
                    )),
                    Cell::text(s.namespace.clone()),
                    Cell::text(if s.service_type.is_empty() {
                        "ClusterIP".to_string()
                    } else {
                        s.service_type.clone()
                    }),
                    Cell::lines(&ports),
                    Cell::text(s.selector.join(", ")),
                ],
                sources: source_links(p, &s.sources),
            };
            router.route("Service", s.area, s.bundled, row)
        })
        .collect();
    section(
        "services",
        "Services",
        "",
        &[
            "Name",
            "Namespace",
            "Type",
            "Ports (port→target/protocol)",
            "Selector",
            "Source",
            "",
        ],
        services,
        "No Service manifests were found.",
    )
}

/// The ports each workload's containers declare.
fn container_ports(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let ports = p
        .findings
        .workloads
        .iter()
        .filter(|w| w.containers.iter().any(|c| !c.ports.is_empty()))
        .filter_map(|w| {
            let ports: Vec<String> = w
                .containers
                .iter()
                .flat_map(|c| {
                    c.ports.iter().map(move |port| {
                        format!(
                            "{}: {}/{}{}",
                            c.name,
                            port.port,
                            port.protocol,
                            port_name(&port.name)
                        )
                    })
                })
                .collect();
            let row = TableRow {
                anchor: anchors.unique(&["ports", &w.kind, &w.namespace, &w.name]),
                cells: vec![
                    Cell::text(w.kind.clone()),
                    Cell::text(qualified(&w.namespace, &w.name)),
                    Cell::lines(&ports),
                ],
                sources: source_links(p, &w.sources),
            };
            router.route(&format!("{} ports", w.kind), w.area, w.bundled, row)
        })
        .collect();
    section(
        "container-ports",
        "Container ports",
        "Ports the workloads' containers declare.",
        &["Kind", "Name", "Ports", "Source", ""],
        ports,
        "No container declares a port.",
    )
}

/// Ingresses, OpenShift Routes, and Gateway API Gateways and routes.
fn ingresses(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let ingresses = p
        .findings
        .ingresses
        .iter()
        .filter_map(|i| {
            let mut front = i.hosts.clone();
            front.extend(i.listeners.iter().cloned());
            let row = TableRow {
                anchor: anchors.unique(&["ingress", &i.kind, &i.namespace, &i.name]),
                cells: vec![
                    Cell::text(format!(
                        "{}{}",
                        i.kind,
                        if i.templated { " (templated)" } else { "" }
                    )),
                    Cell::text(qualified(&i.namespace, &i.name)),
                    Cell::text(i.class.clone()),
                    Cell::lines(&front),
                    Cell::lines(&i.parents),
                    Cell::lines(&i.rules),
                    Cell::text(i.tls_secrets.join(", ")),
                ],
                sources: source_links(p, &i.sources),
            };
            router.route(&i.kind, i.area, i.bundled, row)
        })
        .collect();
    section(
        "ingresses",
        "Ingresses, Routes and Gateways",
        "Kubernetes Ingresses, OpenShift Routes, and Gateway API Gateways and routes.",
        &[
            "Kind",
            "Name",
            "Class",
            "Hosts and listeners",
            "Parents",
            "Rules",
            "TLS secrets",
            "Source",
            "",
        ],
        ingresses,
        "None were found.",
    )
}

/// NetworkPolicy manifests.
fn network_policies(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let policies = p
        .findings
        .network_policies
        .iter()
        .filter_map(|n| {
            let row = TableRow {
                anchor: anchors.unique(&["networkpolicy", &n.namespace, &n.name]),
                cells: network_policy_cells(n),
                sources: source_links(p, &n.sources),
            };
            router.route("NetworkPolicy", n.area, n.bundled, row)
        })
        .collect();
    section(
        "network-policies",
        "NetworkPolicies",
        "",
        &[
            "Name",
            "Pods",
            "Policy types",
            "Ingress from",
            "Egress to",
            "Source",
            "",
        ],
        policies,
        "No NetworkPolicies were found.",
    )
}

/// A NetworkPolicy's cells: name, selected pods, policy types, ingress and egress rules.
pub fn network_policy_cells(n: &model::NetworkPolicy) -> Vec<Cell> {
    vec![
        Cell::text(qualified(&n.namespace, &n.name)),
        Cell::text(if n.pod_selector.is_empty() {
            "all pods".to_string()
        } else {
            n.pod_selector.join(", ")
        }),
        Cell::text(n.policy_types.join(", ")),
        Cell::lines(&n.ingress),
        Cell::lines(&n.egress),
    ]
}
