//! A sequence diagram (`sequence::Diagram`) as mermaid `sequenceDiagram` text, shown on
//! the dataflow page behind a "mermaid source" toggle and written as a `.mmd` file.
//!
//! Participant identifiers are ours (`api`, `c0`, `p0`); every label from the repository
//! is reduced to a character set mermaid gives no meaning to (see `label`).

use super::sequence::{Diagram, Step};

pub fn sequence(d: &Diagram) -> String {
    let mut out = String::from("sequenceDiagram\n");
    for p in &d.participants {
        out.push_str(&format!(
            "    participant {} as {}\n",
            p.id,
            label(&p.label)
        ));
    }
    let id = |i: usize| {
        d.participants
            .get(i)
            .map(|p| p.id.as_str())
            .unwrap_or("api")
    };
    for step in &d.steps {
        match step {
            Step::Message(m) => {
                let arrow = if m.dashed() { "-->>" } else { "->>" };
                out.push_str(&format!(
                    "    {}{arrow}{}: {}\n",
                    id(m.from),
                    id(m.to),
                    label(&m.label)
                ));
            }
            Step::Note(n) => {
                let over = if n.over.0 == n.over.1 {
                    id(n.over.0).to_string()
                } else {
                    format!("{},{}", id(n.over.0), id(n.over.1))
                };
                let items: Vec<String> = n.items.iter().map(|i| label(&i.text)).collect();
                out.push_str(&format!(
                    "    Note over {over}: {} {}\n",
                    label(&n.heading),
                    items.join(", ")
                ));
            }
        }
    }
    if d.steps.is_empty() {
        let last = d.participants.len().saturating_sub(1);
        let over = if last == 0 {
            "api".to_string()
        } else {
            format!("api,{}", id(last))
        };
        out.push_str(&format!(
            "    Note over {over}: no watches or writes found\n"
        ));
    }
    out
}

/// Text safe inside a mermaid message, note or participant label: mermaid gives `;`,
/// `#`, `:`, `%`, quotes and angle brackets meaning, and repository text is untrusted, so
/// only letters, digits, spaces and `./-_(),?` are kept; anything else becomes `_`.
fn label(s: &str) -> String {
    s.replace('…', "...")
        .chars()
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
    use crate::sequence::{self, Links};
    use crate::table::KindPages;

    #[test]
    fn controller_diagram_as_mermaid() {
        let p = sequence::tests::project();
        let kinds = KindPages::none("/");
        let d = sequence::controller(
            &p,
            &p.findings.controllers[0],
            &Links {
                root: "/",
                kinds: &kinds,
            },
        );
        assert_eq!(
            sequence(&d),
            "sequenceDiagram
    participant api as Kubernetes API
    participant c0 as widget controller
    api->>c0: Watch example.io/v1 Widget (reconcile)
    api->>c0: Watch apps/v1 Deployment (owned)
    api-->>c0: Watch v1 ConfigMap (informer)
    api->>c0: Watch gateway.networking.k8s.io/v1 Gateway (watch)
    c0->>api: get/list v1 ConfigMap
    c0->>api: create/update apps/v1 Deployment
    c0->>api: patch v1 Service
    Note over api,c0: Defines Widget (example.io)
"
        );
    }

    #[test]
    fn repository_text_cannot_break_the_syntax() {
        assert_eq!(
            label("Cfg;<b>#x: %%{init}%% \"q\"\nend"),
            "Cfg__b__x_ ___init___ _q__end"
        );
    }

    #[test]
    fn an_empty_diagram_still_parses() {
        let d = Diagram {
            title: String::new(),
            participants: vec![sequence::Participant {
                id: "api".into(),
                label: "Kubernetes API".into(),
                link: String::new(),
            }],
            steps: vec![],
        };
        assert_eq!(
            sequence(&d),
            "sequenceDiagram\n    participant api as Kubernetes API\n    Note over api: no watches or writes found\n"
        );
    }
}
