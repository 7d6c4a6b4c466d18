//! The home page: one card per project, the shared kinds and the portal's totals.

use std::collections::HashSet;

use serde::Serialize;

use super::super::counts;
use derive::link;
use model::{Counts, Portal};

#[derive(Serialize)]
pub struct Home {
    pub cards: Vec<Card>,
    pub totals: Counts,
    /// The totals as `render::counts` items, and the sentence that explains the "+N in
    /// samples" and "+N bundled" after a count (empty when no project has such rows).
    pub total_items: Vec<super::super::counts::CountItem>,
    pub counts_note: String,
    pub shared_kinds: Vec<SharedKind>,
    /// The cross-project graph as SVG from `render::svg` (every text escaped), or empty.
    pub graph: String,
}

#[derive(Serialize)]
pub struct Card {
    pub name: String,
    pub title: String,
    pub description: String,
    pub repository: String,
    pub commit_short: String,
    pub counts: Counts,
    /// The headline counts as `render::counts` items.
    pub count_items: Vec<super::super::counts::CountItem>,
    pub error: String,
}

#[derive(Serialize)]
pub struct SharedKind {
    pub kind: String,
    /// The kind's page.
    pub url: String,
    pub defined_by: String,
    /// `defined_by` is outside the portal (Kubernetes, a well-known API module).
    pub outside: bool,
    pub watched_by: String,
}

pub fn home(portal: &Portal, root: &str) -> Home {
    let mut totals = Counts::default();
    for p in &portal.projects {
        totals.add(&p.counts);
    }
    Home {
        cards: portal
            .projects
            .iter()
            .map(|p| Card {
                name: p.name.clone(),
                title: p.title.clone(),
                description: p.description.clone(),
                repository: p.repository.clone(),
                commit_short: p.commit.chars().take(12).collect(),
                counts: p.counts.clone(),
                count_items: counts::items(&p.counts, counts::Detail::Card),
                error: p.error.clone().unwrap_or_default(),
            })
            .collect(),
        total_items: counts::items(&totals, counts::Detail::Full),
        counts_note: if portal
            .projects
            .iter()
            .any(|p| counts::any(&p.counts.samples) || counts::any(&p.counts.bundled))
        {
            counts::NOTE.to_string()
        } else {
            String::new()
        },
        totals,
        shared_kinds: link::shared_kinds(portal)
            .into_iter()
            .map(|k| SharedKind {
                kind: if k.group.is_empty() {
                    k.kind.clone()
                } else {
                    format!("{} ({})", k.kind, k.group)
                },
                url: super::super::kinds::kind_url(root, &k.group, &k.kind),
                // A kind no project defines is Kubernetes' own or a well-known module's.
                defined_by: if k.defined_by.is_empty() {
                    k.defined_outside.clone().unwrap_or_default()
                } else {
                    k.defined_by.join(", ")
                },
                outside: k.defined_by.is_empty() && k.defined_outside.is_some(),
                // One mention per controller and relation: the kind page lists every watch.
                watched_by: {
                    let mut seen = HashSet::new();
                    k.watched_by
                        .iter()
                        .map(|w| format!("{}/{} ({})", w.project, w.controller, w.relation.label()))
                        .filter(|w| seen.insert(w.clone()))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            })
            .collect(),
        graph: String::new(),
    }
}

#[cfg(test)]
mod tests;
