//! The Reconciliation Flow section of a dataflow page: the project summary and one
//! diagram per component controller, each as an inline SVG, as mermaid text and as a
//! `.mmd` file next to the page (`projects/P/dataflow/NAME.mmd`, `summary.mmd`); under a
//! diagram whose arrows stand for several kinds, a table of those kinds.

use std::collections::BTreeSet;

use serde::Serialize;

use super::sequence::{self, Diagram, Links, Step};
use super::table::{Cell, TableRow, path_segment};
use super::views::anchor;
use super::{OutputFile, mermaid, svg};
use model::Project;

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct FlowView {
    /// The id of the diagram's heading.
    pub anchor: String,
    pub title: String,
    pub mermaid: String,
    /// The drawing: SVG built by `svg::sequence`, which escapes every text (safe to insert).
    pub svg: String,
    /// The `.mmd` file's URL.
    pub mmd_url: String,
    /// Messages in the diagram, to say when it is empty.
    pub messages: usize,
    /// The arrows that stand for several kinds: from, to, what, and every kind linked.
    pub groups: Vec<TableRow>,
}

/// The summary first, then each component controller in model order, and their files.
pub fn project(p: &Project, links: &Links) -> (Vec<FlowView>, Vec<OutputFile>) {
    let folder = format!("projects/{}/dataflow/", p.name);
    let mut taken = BTreeSet::new();
    let mut views = Vec::new();
    let mut files = Vec::new();
    let mut add = |anchor: String, title: String, stem: String, d: Diagram| {
        let mut name = stem.clone();
        let mut n = 1;
        while !taken.insert(name.clone()) {
            n += 1;
            name = format!("{stem}-{n}");
        }
        let text = mermaid::sequence(&d);
        files.push(OutputFile {
            path: format!("{folder}{name}.mmd"),
            bytes: text.clone().into_bytes(),
        });
        views.push(FlowView {
            anchor,
            title,
            messages: d
                .steps
                .iter()
                .filter(|s| matches!(s, sequence::Step::Message(_)))
                .count(),
            mermaid: text,
            svg: svg::sequence::render(&d),
            groups: groups(&d),
            mmd_url: format!("{}{folder}{name}.mmd", links.root),
        });
    };
    add(
        "flow-summary".into(),
        "Project summary".into(),
        "summary".into(),
        sequence::summary(p, links),
    );
    for c in p
        .findings
        .controllers
        .iter()
        .filter(|c| c.area.is_component())
    {
        add(
            format!("flow-{}", anchor(&["controller", &c.name])),
            c.name.clone(),
            path_segment(&c.name),
            sequence::controller(p, c, links),
        );
    }
    (views, files)
}

/// A row per arrow that stands for several kinds, anchored where the arrow links: the
/// arrow (`from → to`, and its verbs) and its kinds.
fn groups(d: &Diagram) -> Vec<TableRow> {
    let name = |i: usize| d.participants.get(i).map(|x| x.label.as_str());
    d.steps
        .iter()
        .filter_map(|step| match step {
            Step::Message(m) => Some((m, m.group.as_ref()?)),
            Step::Note(_) => None,
        })
        .map(|(m, group)| {
            let arrow = format!(
                "{} → {}",
                name(m.from).unwrap_or_default(),
                name(m.to).unwrap_or_default()
            );
            let kinds = group
                .members
                .iter()
                .map(|k| Cell::link(k.text.clone(), k.link.clone()))
                .collect();
            TableRow {
                anchor: group.anchor.clone(),
                cells: vec![
                    Cell::list(vec![Cell::text(arrow), Cell::text(group.what.clone())]),
                    Cell::path(kinds, ", "),
                ],
                sources: Vec::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
