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
mod tests;
