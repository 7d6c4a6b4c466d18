use super::*;
use model::Area;

/// `demo` with a second `widget` controller in samples and a `gadget` controller twice.
fn projects() -> Vec<Project> {
    let mut p = crate::sequence::tests::project();
    let widget = p.findings.controllers[0].clone();
    let sample = Controller {
        area: Area::Samples,
        ..widget.clone()
    };
    let gadget = Controller {
        name: "gadget".into(),
        ..widget
    };
    p.findings
        .controllers
        .extend([sample, gadget.clone(), gadget]);
    vec![p]
}

#[test]
fn controllers_link_to_their_page_or_else_to_their_dataflow_row() {
    let projects = projects();
    let p = &projects[0];
    assert_eq!(
        url_of("/r/", p, &p.findings.controllers[0]),
        "/r/projects/demo/controllers/widget/"
    );
    assert_eq!(
        url_of("/r/", p, &p.findings.controllers[1]),
        "/r/projects/demo/dataflow/#controller-widget"
    );
    assert_eq!(
        url_of("/r/", p, &p.findings.controllers[3]),
        "/r/projects/demo/controllers/gadget-2/"
    );
}

#[test]
fn controllers_that_share_a_name_are_told_apart_by_folder_then_line() {
    let mut projects = projects();
    let p = &mut projects[0];
    let at = |file: &str, line: u32| vec![model::SourceRef::new(file, line)];
    p.findings.controllers[2].sources = at("internal/a/setup.go", 10);
    p.findings.controllers[3].sources = at("internal/b/setup.go", 20);
    let mut third = p.findings.controllers[3].clone();
    third.sources = at("internal/b/setup.go", 40);
    p.findings.controllers.push(third);
    let labels: Vec<String> = controller_links(p).into_iter().map(|l| l.label).collect();
    assert!(labels.contains(&"widget".to_string()), "{labels:?}");
    for expected in [
        "gadget (internal/a)",
        "gadget (internal/b/setup.go:20)",
        "gadget (internal/b/setup.go:40)",
    ] {
        assert!(
            labels.contains(&expected.to_string()),
            "{expected} in {labels:?}"
        );
    }
}

#[test]
fn a_name_links_to_a_page_only_when_one_component_controller_has_it() {
    let projects = projects();
    let by_name = |project: &str, name: &str| url_by_name("/", &projects, project, name);
    // The samples controller of the same name has no page and does not count.
    assert_eq!(
        by_name("demo", "widget"),
        "/projects/demo/controllers/widget/"
    );
    // Two component controllers named `gadget`: which one is meant is not known.
    assert_eq!(
        by_name("demo", "gadget"),
        "/projects/demo/dataflow/#controller-gadget"
    );
    assert_eq!(
        by_name("other", "widget"),
        "/projects/other/dataflow/#controller-widget"
    );
}
