//! The "RBAC versus code" sections of `/projects/P/security/`: the report of
//! `access::check` as two tables, needs against grants per controller, and grants no
//! analyzed code was seen to use.

use super::kinds::{kind_cell, kind_title};
use super::table::{Anchors, Cell, Section, TableRow, source_links};
use crate::access::AccessReport;
use crate::model::Project;

pub fn sections(
    p: &Project,
    report: &AccessReport,
    portal: &crate::model::Portal,
    root: &str,
) -> Vec<Section> {
    // Anchors here are prefixed so they never meet the security page's own.
    let mut anchors = Anchors::new();
    let rows = report
        .rows
        .iter()
        .map(|r| {
            // One line per reason: `get, list, watch ← watch (For)`.
            let mut by_why: Vec<(&str, Vec<&str>)> = Vec::new();
            for n in &r.needs {
                match by_why.iter_mut().find(|(why, _)| *why == n.why) {
                    Some((_, verbs)) if !verbs.contains(&n.verb.as_str()) => verbs.push(&n.verb),
                    Some(_) => {}
                    None => by_why.push((&n.why, vec![&n.verb])),
                }
            }
            let needs: Vec<String> = by_why
                .iter()
                .map(|(why, verbs)| format!("{} ← {why}", verbs.join(", ")))
                .collect();
            let mut sources: Vec<_> = r.needs.iter().flat_map(|n| n.sources.clone()).collect();
            sources.sort();
            sources.dedup();
            let (resource, granted, missing) = match &r.resource {
                Some(res) => (
                    res.clone(),
                    if r.granted.is_empty() {
                        "(none)".to_string()
                    } else {
                        r.granted.join(", ")
                    },
                    if r.missing.is_empty() {
                        "none".to_string()
                    } else {
                        format!("MISSING: {}", r.missing.join(", "))
                    },
                ),
                None => (
                    "(resource name unknown)".to_string(),
                    "not compared".to_string(),
                    "not compared: no CRD or built-in table gives this kind's plural".to_string(),
                ),
            };
            TableRow {
                anchor: anchors.unique(&[
                    "access",
                    &r.who,
                    &r.group,
                    &r.kind,
                    r.resource.as_deref().unwrap_or(""),
                ]),
                cells: vec![
                    Cell::text(r.who.clone()),
                    kind_cell(
                        portal,
                        root,
                        &r.group,
                        &r.kind,
                        kind_title(&r.group, &r.kind),
                    ),
                    Cell::text(resource),
                    Cell::lines(&needs),
                    Cell::text(granted),
                    Cell::text(missing),
                ],
                sources: source_links(p, &sources),
            }
        })
        .collect();
    let unused = report
        .unused
        .iter()
        .map(|u| TableRow {
            anchor: anchors.unique(&["unused", &u.role, &u.resource]),
            cells: vec![
                Cell::text(u.role.clone()),
                Cell::text(u.resource.clone()),
                Cell::text(u.verbs.join(", ")),
                Cell::text(u.note.clone()),
            ],
            sources: source_links(p, &u.sources),
        })
        .collect();
    vec![
        Section {
            id: "rbac-versus-code".into(),
            title: "RBAC versus code".into(),
            intro: format!(
                "{} Each kind a controller watches needs get, list and watch; each client write needs its verb (status writes on the status subresource). MISSING means the controller will be refused at run time.",
                report.basis.reason
            ),
            headers: [
                "Controller or package",
                "Kind",
                "Resource",
                "Needs (verb ← why)",
                "Granted",
                "Missing",
                "Source",
                "",
            ]
            .iter()
            .map(|h| h.to_string())
            .collect(),
            rows,
            empty: "No watch or write of a resolved kind was found.".into(),
        },
        Section {
            id: "unused-grants".into(),
            title: "Grants not seen in the code".into(),
            intro: "Verbs the compared rules grant that no analyzed watch or write needs: candidates for least privilege. The analyzer sees watches and writes, not direct reads, so check before removing one.".into(),
            headers: ["Role", "Resource", "Verbs", "Note", "Source", ""]
                .iter()
                .map(|h| h.to_string())
                .collect(),
            rows: unused,
            empty: "None.".into(),
        },
    ]
}
