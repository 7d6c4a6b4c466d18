//! Who else in the portal uses a kind: from the kind index, the controllers and informers
//! that watch it, the controllers and packages that write it, and the webhooks called for
//! it; from the projects, the controllers that read it directly. Only other projects' rows
//! count: the project that changes its own kind changes its own code with it.

use std::collections::BTreeMap;

use super::{Consumer, GroupKind};
use model::{KindEntry, Project, SourceRef};

/// What one consumer does with the kind (`get`, `for`), and where it first does it.
type Uses = (Vec<String>, Option<SourceRef>);

/// The consumers of `kind` outside project `owner`, by project, then who.
pub fn of(kind: &GroupKind, owner: &str, kinds: &[KindEntry], portal: &[Project]) -> Vec<Consumer> {
    // (project, who, how-prefix) → the details (relations, verbs) and the first source.
    let mut found: BTreeMap<(String, String, &str), Uses> = BTreeMap::new();
    let mut add =
        |project: &str, who: String, how: &'static str, detail: String, at: Option<&SourceRef>| {
            if project == owner {
                return;
            }
            let e = found
                .entry((project.to_string(), who, how))
                .or_insert_with(|| (Vec::new(), at.cloned()));
            if !detail.is_empty() && !e.0.contains(&detail) {
                e.0.push(detail);
            }
        };
    if let Some(e) = kinds
        .iter()
        .find(|e| e.group == kind.group && e.kind == kind.kind)
    {
        for w in &e.watched_by {
            let who = if w.package.is_empty() {
                format!("controller {}", w.controller)
            } else {
                format!("package {}.{}", w.package, w.controller)
            };
            add(
                &w.project,
                who,
                "watches",
                w.relation.label().to_lowercase(),
                w.sources.first(),
            );
        }
        for w in &e.written_by {
            let who = if w.controller.is_empty() {
                format!("package {}.{}", w.package, w.function)
            } else {
                format!("controller {}", w.controller)
            };
            add(
                &w.project,
                who,
                "writes",
                w.verb.to_string(),
                w.sources.first(),
            );
        }
        for h in &e.webhooks {
            add(
                &h.project,
                format!("{} webhook {}", h.webhook_type.label(), h.webhook),
                "admits",
                h.operations.join(", "),
                h.sources.first(),
            );
        }
    }
    for p in portal.iter().filter(|p| p.name != owner) {
        for c in p
            .findings
            .controllers
            .iter()
            .filter(|c| c.area.is_component())
        {
            for r in c
                .reads
                .iter()
                .filter(|r| r.group == kind.group && r.kind == kind.kind)
            {
                add(
                    &p.name,
                    format!("controller {}", c.name),
                    "reads",
                    r.verb.to_string(),
                    r.sources.first(),
                );
            }
        }
    }
    found
        .into_iter()
        .map(|((project, who, how), (details, source))| Consumer {
            project,
            who,
            how: if details.is_empty() {
                how.to_string()
            } else {
                format!("{how} ({})", details.join(", "))
            },
            source,
        })
        .collect()
}
