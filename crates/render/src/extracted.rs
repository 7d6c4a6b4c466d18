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
mod tests;
