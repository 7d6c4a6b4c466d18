//! The portal as a C4 model in Structurizr DSL (`/data/c4.dsl`): each project a software
//! system, its own programs and workloads containers, and relationships from the model
//! only — a project watching kinds another project writes or defines (the portal's
//! connection boxes), each project's traffic with the Kubernetes API server, the API
//! server calling a webhook through its Service, and a workload running a program.
//!
//! Nothing is inferred beyond the model: a workload runs a program only when a container's
//! command names it and no other program of the project has that name; a webhook reaches a workload only through an own Service whose
//! selector the workload's pod labels match. Everything read from repositories is quoted
//! with `quote`, written to the rules of Structurizr's tokenizer and substitution.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use model::{Binary, Portal, Project, Workload};

/// Workload kinds shown as containers: the long-running ones.
const CONTAINER_KINDS: &[&str] = &["Deployment", "StatefulSet", "DaemonSet"];

/// The DSL text of the portal.
pub fn dsl(title: &str, portal: &Portal, projects: &[Project]) -> String {
    let mut out = String::new();
    let system_id: BTreeMap<&str, String> = projects
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), format!("s{}", i + 1)))
        .collect();
    let _ = writeln!(
        out,
        "workspace {} {} {{",
        quote(title),
        quote(
            "Written by portolan from the projects' source: projects are software systems, programs and workloads containers."
        )
    );
    out.push_str("    model {\n");
    out.push_str(
        "        kubernetes = softwareSystem \"Kubernetes API server\" \"The cluster's API: objects are watched, read and written through it.\" \"External\"\n",
    );
    let mut relationships = Vec::new();
    // A container view for each system with containers (an empty one shows nothing).
    let mut views = Vec::new();
    for project in projects {
        let id = &system_id[project.name.as_str()];
        let containers = containers(project, id);
        let _ = writeln!(
            out,
            "        {id} = softwareSystem {} {} {{",
            quote(&project.title),
            quote(&project.description)
        );
        for c in &containers.items {
            let _ = writeln!(
                out,
                "            {} = container {} {} {}",
                c.id,
                quote(&c.name),
                quote(&c.description),
                quote(c.technology)
            );
        }
        out.push_str("        }\n");
        views.push((!containers.items.is_empty()).then(|| id.clone()));
        relationships.extend(containers.relationships);
        relationships.extend(api_traffic(project, id));
    }
    relationships.extend(kind_relationships(portal, &system_id));
    for r in &relationships {
        let _ = writeln!(
            out,
            "        {} -> {} {} {}",
            r.from,
            r.to,
            quote(&r.description),
            quote(r.technology)
        );
    }
    out.push_str("    }\n    views {\n");
    out.push_str("        systemLandscape \"landscape\" {\n            include *\n            autoLayout\n        }\n");
    for (project, id) in projects.iter().zip(&views) {
        let Some(id) = id else { continue };
        let _ = writeln!(
            out,
            "        container {id} {} {{\n            include *\n            autoLayout\n        }}",
            quote(&format!("{}-containers", project.name))
        );
    }
    out.push_str("    }\n}\n");
    out
}

struct Container {
    id: String,
    name: String,
    description: String,
    technology: &'static str,
}

struct Relationship {
    from: String,
    to: String,
    description: String,
    technology: &'static str,
}

struct Containers {
    items: Vec<Container>,
    relationships: Vec<Relationship>,
}

/// The project's own programs and long-running workloads, and what connects them.
fn containers(project: &Project, system: &str) -> Containers {
    let mut items = Vec::new();
    let mut relationships = Vec::new();
    let own: Vec<&Binary> = project
        .findings
        .binaries
        .iter()
        .filter(|b| !b.is_package() && b.area.is_component())
        .collect();
    // Programs by name; a name two programs share (KServe builds several `manager`s)
    // cannot say which one a container runs.
    let mut by_name: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (i, binary) in own.iter().enumerate() {
        let id = format!("{system}b{}", i + 1);
        by_name.entry(&binary.name).or_default().push(id.clone());
        // The language of the file holding `main`.
        let technology = match binary.sources.first().map(|s| s.file.as_str()) {
            Some(f) if f.ends_with(".rs") => "Rust",
            Some(f) if f.ends_with(".go") => "Go",
            _ => "program",
        };
        items.push(Container {
            id,
            name: binary.name.clone(),
            description: format!("Program {}", binary.package),
            technology,
        });
    }
    let mut seen = BTreeSet::new();
    let mut workload_ids: Vec<(&Workload, String)> = Vec::new();
    for workload in project.findings.workloads.iter().filter(|w| {
        w.area.is_component() && !w.bundled && CONTAINER_KINDS.contains(&w.kind.as_str())
    }) {
        if !seen.insert((&workload.kind, &workload.namespace, &workload.name)) {
            continue;
        }
        let id = format!("{system}w{}", workload_ids.len() + 1);
        let images: Vec<&str> = workload
            .containers
            .iter()
            .filter(|c| !c.init && !c.image.is_empty())
            .map(|c| c.image.as_str())
            .collect();
        items.push(Container {
            id: id.clone(),
            name: format!("{} {}", workload.kind, qualified(workload)),
            description: if images.is_empty() {
                String::new()
            } else {
                format!("Image {}", images.join(", "))
            },
            technology: "Kubernetes workload",
        });
        // A workload runs a program when a container's command names it by its file name,
        // and only one program has that name.
        let runs: BTreeSet<&String> = workload
            .containers
            .iter()
            .flat_map(|c| c.command.first())
            .filter_map(|cmd| cmd.rsplit('/').next())
            .filter_map(|name| match by_name.get(name).map(Vec::as_slice) {
                Some([only]) => Some(only),
                _ => None,
            })
            .collect();
        for program in runs {
            relationships.push(Relationship {
                from: id.clone(),
                to: program.clone(),
                description: "Runs".into(),
                technology: "container command",
            });
        }
        workload_ids.push((workload, id));
    }
    relationships.extend(webhook_calls(project, system, &workload_ids));
    Containers {
        items,
        relationships,
    }
}

fn qualified(w: &Workload) -> String {
    if w.namespace.is_empty() {
        w.name.clone()
    } else {
        format!("{}/{}", w.namespace, w.name)
    }
}

/// The API server calls each own webhook through its Service: to the workloads the
/// Service selects, or to the system when none is known.
fn webhook_calls(
    project: &Project,
    system: &str,
    workloads: &[(&Workload, String)],
) -> Vec<Relationship> {
    let mut calls: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for webhook in project
        .findings
        .webhooks
        .iter()
        .filter(|w| w.area.is_component() && !w.bundled)
    {
        let service = if webhook.resolved_service.is_empty() {
            &webhook.service
        } else {
            &webhook.resolved_service
        };
        let Some((namespace, name)) = service.split_once('/') else {
            continue;
        };
        let selected: Vec<&String> = project
            .findings
            .services
            .iter()
            .filter(|s| s.name == name && s.namespace == namespace && !s.selector.is_empty())
            .flat_map(|s| {
                workloads
                    .iter()
                    .filter(|(w, _)| s.selector.iter().all(|l| w.pod_labels.contains(l)))
                    .map(|(_, id)| id)
            })
            .collect();
        let label = format!("Calls webhooks through Service {service}");
        if selected.is_empty() {
            calls.entry(system.to_string()).or_default().insert(label);
        } else {
            for id in selected {
                calls.entry(id.clone()).or_default().insert(label.clone());
            }
        }
    }
    calls
        .into_iter()
        .map(|(to, labels)| Relationship {
            from: "kubernetes".into(),
            to,
            description: labels.into_iter().collect::<Vec<_>>().join("; "),
            technology: "HTTPS (admission webhook)",
        })
        .collect()
}

/// What the project's own controllers watch and write through the API server.
fn api_traffic(project: &Project, system: &str) -> Option<Relationship> {
    let own = project
        .findings
        .controllers
        .iter()
        .filter(|c| c.area.is_component());
    let mut watched = BTreeSet::new();
    let mut written = BTreeSet::new();
    for c in own {
        watched.extend(c.watches.iter().map(|w| (&w.group, &w.kind)));
        written.extend(c.operations.iter().map(|o| (&o.group, &o.kind)));
    }
    if watched.is_empty() && written.is_empty() {
        return None;
    }
    Some(Relationship {
        from: system.to_string(),
        to: "kubernetes".into(),
        description: format!(
            "Watches {} kinds and writes {} kinds",
            watched.len(),
            written.len()
        ),
        technology: "Kubernetes API",
    })
}

/// One relationship per (watching project, writing or defining project) pair of the
/// connection boxes, naming the kinds.
fn kind_relationships(portal: &Portal, system_id: &BTreeMap<&str, String>) -> Vec<Relationship> {
    let mut pairs: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for box_ in &portal.connections {
        for to in &box_.to {
            for from in box_.from.iter().filter(|f| f.project != to.project) {
                pairs
                    .entry((to.project.as_str(), from.project.as_str()))
                    .or_default()
                    .extend(box_.kinds.iter().map(|k| k.kind.as_str()));
            }
        }
    }
    pairs
        .into_iter()
        .filter_map(|((watcher, source), kinds)| {
            Some(Relationship {
                from: system_id.get(watcher)?.clone(),
                to: system_id.get(source)?.clone(),
                description: format!(
                    "Watches {} (written or defined there)",
                    kinds.into_iter().collect::<Vec<_>>().join(", ")
                ),
                technology: "Kubernetes API",
            })
        })
        .collect()
}

/// Between characters that must not meet in the DSL: invisible where the diagram is drawn.
const ZERO_WIDTH_SPACE: char = '\u{200B}';

/// A DSL string, written for Structurizr's tokenizer: a token in double quotes ends at a `"`
/// not preceded by `\`, so a quote inside is `\"` and a backslash right before the
/// closing quote is kept off it; a backslash is otherwise written as is (the DSL has no
/// `\\`). Its parser replaces `${NAME}` in every token, quoted or not, with a constant or an
/// environment variable of whoever renders the file, so `${` is broken by a zero-width
/// space. Line breaks and other control characters become spaces.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut previous = '\0';
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '{' if previous == '$' => {
                out.push(ZERO_WIDTH_SPACE);
                out.push('{');
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
        previous = c;
    }
    if out.ends_with('\\') {
        out.push(ZERO_WIDTH_SPACE);
    }
    out.push('"');
    out
}

/// A line split into tokens the way Structurizr's DSL tokenizer does: separated by
/// spaces; a token that starts with `"` runs to the next `"` whose previous character
/// is not `\` (the escaped quote stays in the token, with its backslash). Public for the
/// tests and the fuzzer, which check what `quote` writes against this reading.
pub fn structurizr_tokens(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.trim().chars().collect();
    let mut tokens = Vec::new();
    let mut token: Option<(String, bool)> = None;
    for (i, &c) in chars.iter().enumerate() {
        match token.as_mut() {
            None if c == '"' => token = Some((String::new(), true)),
            None if c == ' ' => {}
            None => token = Some((c.to_string(), false)),
            Some((t, _)) if c == '"' && i > 0 && chars[i - 1] == '\\' => t.push(c),
            Some((_, true)) if c == '"' => tokens.extend(token.take().map(|(t, _)| t)),
            Some((_, false)) if c == ' ' => tokens.extend(token.take().map(|(t, _)| t)),
            Some((t, _)) => t.push(c),
        }
    }
    tokens.extend(token.map(|(t, _)| t));
    tokens
}

/// Whether Structurizr would substitute something in `token`: `${` then one or more of
/// `[A-Za-z0-9-_.]` then `}`.
pub fn substitutes(token: &str) -> bool {
    token.match_indices("${").any(|(at, _)| {
        let rest = &token[at + 2..];
        let name = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            .unwrap_or(rest.len());
        name > 0 && rest[name..].starts_with('}')
    })
}

#[cfg(test)]
mod tests;
