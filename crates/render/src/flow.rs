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
mod tests {
    use super::*;
    use crate::sequence::tests::op;
    use crate::table::KindPages;

    #[test]
    fn the_summary_groups_alike_in_the_svg_the_mermaid_and_the_table() {
        let mut p = crate::sequence::tests::project();
        let c = &mut p.findings.controllers[0];
        c.watches.clear();
        c.reads.clear();
        c.operations = vec![
            op("create", "apps", "Deployment", 1),
            op("create", "", "Service", 2),
            op("create", "", "Secret", 3),
        ];
        let kinds = KindPages::none("/");
        let links = Links {
            root: "/",
            kinds: &kinds,
        };
        let (views, _) = super::project(&p, &links);
        let summary = &views[0];
        let label = "create Deployment, Service, Secret";
        assert_eq!(summary.messages, 1);
        assert!(
            summary
                .mermaid
                .contains(&format!("    c0->>api: {label}\n")),
            "{}",
            summary.mermaid
        );
        assert!(
            summary.svg.contains(&format!(">{label}</text>")),
            "{}",
            summary.svg
        );
        assert!(
            summary.svg.contains(
                "<title>create, 3 kinds: apps/v1 Deployment, v1 Service, v1 Secret</title>"
            ),
            "{}",
            summary.svg
        );
        // The arrow links to its row of the table under the diagram.
        let [row] = summary.groups.as_slice() else {
            panic!("{} rows", summary.groups.len())
        };
        assert_eq!(row.anchor, "arrow-widget-controller-kubernetes-api-create");
        assert!(
            summary.svg.contains(&format!(
                "<a href=\"/projects/demo/dataflow/#{}\">",
                row.anchor
            )),
            "{}",
            summary.svg
        );
        let cells: Vec<&str> = row.cells.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            cells,
            [
                "widget controller → Kubernetes API\ncreate",
                "apps/v1 Deployment, v1 Service, v1 Secret"
            ]
        );
        // A controller's own diagram draws each kind as its own arrow.
        assert_eq!(views[1].messages, 3);
        assert!(views[1].groups.is_empty());
    }
}
