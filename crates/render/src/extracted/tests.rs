use super::*;
use model::{Area, SourceRef};

#[test]
fn a_table_is_a_section_of_own_rows_and_one_of_samples() {
    let row = |reason: &str, area, line| Row {
        cells: vec![reason.into(), "Normal".into()],
        area,
        sources: vec![SourceRef::new("pkg/c.go", line)],
    };
    let p = Project {
        findings: model::Findings {
            tables: vec![Table {
                extractor: "events".into(),
                title: "Events".into(),
                about: "What the code emits.".into(),
                columns: vec!["Reason".into(), "Type".into()],
                rows: vec![
                    row("Built", Area::Component, 3),
                    row("Built", Area::Component, 9),
                    row("Demo", Area::Samples, 4),
                ],
                diagnosed: 0,
            }],
            ..Default::default()
        },
        ..Project::default()
    };
    let s = sections(&p);
    let shown: Vec<(String, String, Vec<String>, Vec<String>)> = s
        .iter()
        .map(|s| {
            let rows = s
                .rows
                .iter()
                .map(|r| format!("{} {} {}", r.anchor, r.cells[0].text, r.sources[0].label))
                .collect();
            (s.id.clone(), s.title.clone(), s.headers.clone(), rows)
        })
        .collect();
    assert_eq!(
        shown,
        [
            (
                "events".to_string(),
                "Events".to_string(),
                vec!["Reason".to_string(), "Type".into(), "Source".into()],
                vec![
                    "events-built Built pkg/c.go:3".to_string(),
                    "events-built-2 Built pkg/c.go:9".into()
                ]
            ),
            (
                "events-samples".to_string(),
                "Events in samples".to_string(),
                vec!["Reason".to_string(), "Type".into(), "Source".into()],
                vec!["events-demo Demo pkg/c.go:4".to_string()]
            ),
        ]
    );
}

#[test]
fn a_table_with_diagnostics_says_it_may_be_incomplete() {
    let p = Project {
        findings: model::Findings {
            tables: vec![Table {
                extractor: "events".into(),
                title: "Events".into(),
                about: "What the code emits.".into(),
                columns: vec!["Reason".into()],
                rows: Vec::new(),
                diagnosed: 2,
            }],
            ..Default::default()
        },
        ..Project::default()
    };
    let s = sections(&p);
    assert_eq!(s.len(), 1);
    assert_eq!(
        s[0].intro,
        "What the code emits. Incomplete: 2 places this table would list gave a diagnostic instead (see the project's diagnostics)."
    );
    assert_eq!(s[0].empty, "No row: every place found gave a diagnostic.");
}
