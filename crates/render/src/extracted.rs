//! The registered Go extractors' tables (`model::Table`) as sections of the project's
//! configuration page: one for the project's own rows and, when there are any, one for its
//! samples', so that a new extractor shows up with no page code of its own.

use model::{Project, Table, TableRow as Row};

use crate::table::{Anchors, Cell, Section, TableRow, section, source_links};

/// The sections of every table of `p`, in the model's order.
pub fn sections(p: &Project) -> Vec<Section> {
    let mut anchors = Anchors::new();
    let mut out = Vec::new();
    for table in &p.findings.tables {
        let (own, samples): (Vec<&Row>, Vec<&Row>) =
            table.rows.iter().partition(|r| r.area.is_component());
        out.push(one(p, table, &own, "", &mut anchors));
        if !samples.is_empty() {
            out.push(one(p, table, &samples, " in samples", &mut anchors));
        }
    }
    out
}

fn one(p: &Project, table: &Table, rows: &[&Row], suffix: &str, anchors: &mut Anchors) -> Section {
    let id = format!(
        "{}{}",
        table.extractor,
        if suffix.is_empty() { "" } else { "-samples" }
    );
    let headers: Vec<&str> = table
        .columns
        .iter()
        .map(String::as_str)
        .chain(["Source"])
        .collect();
    let rows = rows
        .iter()
        .map(|r| TableRow {
            anchor: anchors.unique(&[&table.extractor, r.cells.first().map_or("", String::as_str)]),
            cells: r.cells.iter().map(|c| Cell::text(c.as_str())).collect(),
            sources: source_links(p, &r.sources),
        })
        .collect();
    let title = format!("{}{suffix}", table.title);
    let mut intro = table.about.clone();
    if table.diagnosed > 0 && suffix.is_empty() {
        intro.push_str(&format!(
            " Incomplete: {} places this table would list gave a diagnostic instead (see the project's diagnostics).",
            table.diagnosed
        ));
    }
    let empty = "No row: every place found gave a diagnostic.";
    let mut s = section(&id, &title, &intro, &headers, rows, empty);
    s.id = crate::table::anchor(&[&id]);
    s
}

#[cfg(test)]
mod tests {
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
}
