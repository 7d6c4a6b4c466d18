//! Reconciliation-flow sequence diagrams, built from the model (never from strings of
//! other diagrams) and emitted as mermaid `sequenceDiagram` text.

use std::collections::BTreeSet;

use crate::model::{Controller, Project, Relation};

/// Mermaid text for one controller: the API server notifies it of every watched kind.
pub fn controller_diagram(project: &Project, controller: &Controller) -> String {
    let mut out = String::from("sequenceDiagram\n");
    out.push_str("    participant api as Kubernetes API\n");
    out.push_str(&format!(
        "    participant ctrl as {}\n",
        label(&format!("{} controller", controller.name))
    ));
    let mut seen = BTreeSet::new();
    for w in &controller.watches {
        let what = match w.relation {
            Relation::For => "reconcile",
            Relation::Owns => "owned",
            Relation::Watches => "watch",
            Relation::Informer => "informer",
        };
        let arrow = if w.relation == Relation::Informer {
            "-->>"
        } else {
            "->>"
        };
        let kind = if w.is_resolved() {
            w.gvk().display()
        } else {
            format!("{} (unresolved)", w.kind)
        };
        let line = format!("    api{arrow}ctrl: Watch {} ({what})\n", label(&kind));
        if seen.insert(line.clone()) {
            out.push_str(&line);
        }
    }
    // Writes: one message per verb and kind, in order of first appearance.
    for o in &controller.operations {
        let kind = if o.group == crate::model::UNRESOLVED {
            "unknown kind".to_string()
        } else {
            crate::model::Gvk {
                group: o.group.clone(),
                version: o.version.clone(),
                kind: o.kind.clone(),
            }
            .display()
        };
        let line = format!("    ctrl->>api: {} {}\n", label(&o.verb), label(&kind));
        if seen.insert(line.clone()) {
            out.push_str(&line);
        }
    }
    if controller.watches.is_empty() {
        out.push_str("    Note over api,ctrl: no watches found\n");
    }
    // Only the project's own CRDs: a bundled CRD is another project's definition, and a
    // kind shipped with two contents is still one kind.
    let mut crds: Vec<String> = project
        .crds
        .iter()
        .filter(|c| c.area.is_component() && !c.bundled)
        .filter(|c| {
            controller
                .watches
                .iter()
                .any(|w| w.group == c.group && w.kind == c.kind)
        })
        .map(|c| format!("{} ({})", c.kind, c.group))
        .collect();
    let mut named = std::collections::HashSet::new();
    crds.retain(|c| named.insert(c.clone()));
    if !crds.is_empty() {
        out.push_str(&format!(
            "    Note over api: Defines {}\n",
            label(&crds.join(", "))
        ));
    }
    out
}

/// Text safe inside a mermaid message or participant label: mermaid gives `;`, `#`, `:`
/// and angle brackets meaning, and repository text is untrusted.
fn label(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_alphanumeric() || " ./-_(),?".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{SourceRef, Watch};

    fn watch(relation: Relation, group: &str, kind: &str) -> Watch {
        Watch {
            relation,
            group: group.into(),
            version: "v1".into(),
            kind: kind.into(),
            conditional: false,
            import_path: None,
            sources: vec![SourceRef::new("a.go", 1)],
        }
    }

    #[test]
    fn one_message_per_watch_without_duplicates() {
        let c = Controller {
            name: "widget".into(),
            reconciler: "WidgetReconciler".into(),
            area: Default::default(),
            sources: vec![],
            watches: vec![
                watch(Relation::For, "example.io", "Widget"),
                watch(Relation::Owns, "apps", "Deployment"),
                watch(Relation::Owns, "apps", "Deployment"),
                watch(Relation::Watches, "", "ConfigMap;<b>"),
            ],
            operations: vec![],
        };
        let text = controller_diagram(&Project::default(), &c);
        assert_eq!(
            text,
            "sequenceDiagram\n    participant api as Kubernetes API\n    participant ctrl as widget controller\n    api->>ctrl: Watch example.io/v1 Widget (reconcile)\n    api->>ctrl: Watch apps/v1 Deployment (owned)\n    api->>ctrl: Watch v1 ConfigMap__b_ (watch)\n"
        );
    }

    #[test]
    fn notes_name_own_crds_once_and_never_bundled_ones() {
        let crd = |group: &str, kind: &str, bundled: bool| crate::model::Crd {
            group: group.into(),
            kind: kind.into(),
            plural: String::new(),
            scope: String::new(),
            versions: vec![],
            short_names: vec![],
            schema: vec![],
            templated: false,
            bundled,
            area: Default::default(),
            sources: vec![],
        };
        let p = Project {
            crds: vec![
                crd("example.io", "Widget", false),
                crd("gateway.networking.k8s.io", "Gateway", true),
                crd("example.io", "Widget", false),
            ],
            ..Project::default()
        };
        let c = Controller {
            name: "widget".into(),
            reconciler: String::new(),
            area: Default::default(),
            sources: vec![],
            watches: vec![
                watch(Relation::For, "example.io", "Widget"),
                watch(Relation::Watches, "gateway.networking.k8s.io", "Gateway"),
            ],
            operations: vec![],
        };
        let text = controller_diagram(&p, &c);
        assert!(
            text.ends_with("    Note over api: Defines Widget (example.io)\n"),
            "{text}"
        );
    }
}
