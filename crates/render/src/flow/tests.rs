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
        op(model::Verb::Create, "apps", "Deployment", 1),
        op(model::Verb::Create, "", "Service", 2),
        op(model::Verb::Create, "", "Secret", 3),
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
        summary
            .svg
            .contains("<title>create, 3 kinds: apps/v1 Deployment, v1 Service, v1 Secret</title>"),
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
