//! The "RBAC versus code" sections of `/projects/P/security/`: the report of
//! `access::check` as two tables, needs against grants per controller, and grants no
//! analyzed code was seen to use; then one "Least privilege" section per controller from
//! `least_privilege::derive`: its rules as markers and as a ClusterRole, every verb traced.

use super::kinds::{kind_cell, kind_title};
use super::table::{Anchors, Cell, CodeBlock, Section, TableRow, call_steps, source_links};
use super::views::anchor;
use derive::access::{AccessReport, AccessRow};
use derive::least_privilege::{self, Privileges, Trace};
use model::{Portal, Project};
use source::line_url;

pub fn sections(
    p: &Project,
    report: &AccessReport,
    portal: &model::Portal,
    root: &str,
) -> Vec<Section> {
    // Anchors here are prefixed so they never meet the security page's own.
    let mut anchors = Anchors::new();
    let rows = access_rows(p, report.rows.iter(), portal, root, &mut anchors);
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
    let intro = format!(
        "{} Each kind a controller watches needs get, list and watch; each read through a client its verb; each client write its verb (status writes on the status subresource). MISSING means the controller will be refused at run time. {}",
        report.basis.reason,
        missing_summary(report)
    );
    vec![
        versus_section(intro, rows),
        Section {
            id: "unused-grants".into(),
            title: "Grants not seen in the code".into(),
            intro: "Verbs the compared rules grant that no analyzed watch, read or write needs: candidates for least privilege. Calls of kinds known only at run time (the dynamic client, unstructured objects) and what the manager itself does are not seen, so check before removing one.".into(),
            headers: ["Role", "Resource", "Verbs", "Note", "Source", ""]
                .iter()
                .map(|h| h.to_string())
                .collect(),
            rows: unused,
            empty: "None.".into(),
            code: Vec::new(),
            chart: String::new(),
            note: None,
        },
    ]
}

/// The RBAC-versus-code table.
fn versus_section(intro: String, rows: Vec<TableRow>) -> Section {
    Section {
        id: "rbac-versus-code".into(),
        title: "RBAC versus code".into(),
        intro,
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
        empty: "No watch, read or write of a resolved kind was found.".into(),
        code: Vec::new(),
        chart: String::new(),
        note: None,
    }
}

/// The RBAC-versus-code table's rows for `rows`.
fn access_rows<'a>(
    p: &Project,
    rows: impl Iterator<Item = &'a AccessRow>,
    portal: &Portal,
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    rows.map(|r| {
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
    .collect()
}

/// Which rows miss verbs, said before the table (which a long page folds).
fn missing_summary(report: &AccessReport) -> String {
    let missing: Vec<String> = report
        .rows
        .iter()
        .filter(|r| !r.missing.is_empty())
        .map(|r| format!("{} {}", r.who, kind_title(&r.group, &r.kind)))
        .collect();
    match missing.len() {
        0 => format!("No verb is missing in the {} rows.", report.rows.len()),
        n => format!(
            "{n} of {} rows miss verbs: {}{}.",
            report.rows.len(),
            missing
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("; "),
            if n > 5 { "; …" } else { "" }
        ),
    }
}

/// The RBAC-versus-code rows and the least-privilege section of one controller, for its
/// own page.
pub fn controller_sections(
    p: &Project,
    rows: &[&AccessRow],
    privileges: Option<&Privileges>,
    portal: &Portal,
    root: &str,
    index: usize,
) -> Vec<Section> {
    let name = p
        .findings
        .controllers
        .get(index)
        .map_or("", |c| c.name.as_str());
    let mut anchors = Anchors::new();
    let rows = access_rows(p, rows.iter().copied(), portal, root, &mut anchors);
    let mut out = vec![versus_section(
        format!(
            "Per kind, the verbs the {name} controller's watches, reads and writes need against the verbs its roles grant; MISSING means it will be refused at run time. The whole project's comparison is on the security page."
        ),
        rows,
    )];
    out.extend(least_privilege_sections(
        p,
        privileges.map(std::slice::from_ref).unwrap_or_default(),
        portal,
        root,
    ));
    out
}

/// The security page's "Least privilege" section: one row per component controller with
/// the size of its smallest rules, linking to them on the controller's page (the rules,
/// the ClusterRole and every verb's trace are there, so this long page stays an index).
pub fn least_privilege_index(p: &Project, all: &[Privileges], root: &str) -> Section {
    let mut anchors = Anchors::new();
    let rows = all
        .iter()
        .map(|c| {
            let page = p
                .findings
                .controllers
                .get(c.index)
                .and_then(|k| super::views::controller_page(p, k));
            let fragment = anchor(&["least-privilege", &c.controller]);
            let name = match page {
                Some(page) => Cell::link(c.controller.clone(), format!("{root}{page}#{fragment}")),
                None => Cell::text(c.controller.clone()),
            };
            TableRow {
                anchor: anchors.unique(&["lp", &c.controller]),
                cells: vec![
                    name,
                    Cell::text(super::table::counted(c.rules.len(), "rule", "rules")),
                    Cell::text(super::table::counted(c.needs.len(), "verb", "verbs")),
                    Cell::text(if c.unknown.is_empty() {
                        String::new()
                    } else {
                        super::table::counted(c.unknown.len(), "kind", "kinds")
                    }),
                    Cell::text(if c.completeness.complete {
                        "complete"
                    } else {
                        "lower bound"
                    }),
                ],
                sources: Vec::new(),
            }
        })
        .collect();
    Section {
        id: "least-privilege".into(),
        title: "Least privilege".into(),
        intro: "The smallest rules that allow what each controller's code was seen to do, as +kubebuilder:rbac markers and as a ClusterRole to diff against yours, with every verb traced to the code that needs it: on each controller's page. Complete only when every client call its Reconcile reaches was resolved, every watch is of a known kind and no kind was left out; otherwise a lower bound, and the controller's page says what is missing.".into(),
        headers: [
            "Controller",
            "Rules",
            "Verbs traced",
            "Left out (resource name unknown)",
            "Complete?",
            "",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        rows,
        empty: "No component controller was found.".into(),
        code: Vec::new(),
        chart: String::new(),
        note: None,
    }
}

/// Up to this many places are shown in a "Needed by" cell; more are collapsed.
const SHOWN_TRACES: usize = 3;

/// One "Least privilege" section per component controller.
pub fn least_privilege_sections(
    p: &Project,
    all: &[Privileges],
    portal: &Portal,
    root: &str,
) -> Vec<Section> {
    all.iter()
        .map(|c| {
            let role = least_privilege::cluster_role(&p.name, c);
            let markers = least_privilege::markers(&c.rules);
            let mut anchors = Anchors::new();
            let mut rows: Vec<TableRow> = c
                .needs
                .iter()
                .map(|n| TableRow {
                    anchor: anchors.unique(&["lp", &c.controller, &n.group, &n.resource, &n.verb]),
                    cells: vec![
                        kind_cell(portal, root, &n.group, &n.kind, rule_resource(&n.group, &n.resource)),
                        Cell::text(n.verb.clone()),
                        needed_by(p, &n.traces),
                    ],
                    sources: Vec::new(),
                })
                .collect();
            rows.extend(c.unknown.iter().map(|u| TableRow {
                anchor: anchors.unique(&["lp", &c.controller, &u.group, &u.kind, "unknown"]),
                cells: vec![
                    kind_cell(
                        portal,
                        root,
                        &u.group,
                        &u.kind,
                        format!(
                            "{}{}: resource name unknown, not in the rules",
                            kind_title(&u.group, &u.kind),
                            u.subresource.as_deref().map(|s| format!(" ({s})")).unwrap_or_default()
                        ),
                    ),
                    Cell::text(u.verbs.join(", ")),
                    needed_by(p, &u.traces),
                ],
                sources: Vec::new(),
            }));
            let mut intro = format!(
                "The smallest rules that allow what the {} controller's code was seen to do: get, list and watch on each kind it watches (its cache needs all three), the verb of each read, the verbs of each write (apply is patch, create-or-update also get, status writes on the status subresource). What the manager itself needs (leader election, events) is not in them.",
                c.controller
            );
            if !c.unknown.is_empty() {
                intro.push_str(&format!(
                    " {} left out because no CRD or built-in table gives their resource name.",
                    super::table::counted(c.unknown.len(), "kind is", "kinds are")
                ));
            }
            if c.unresolved > 0 {
                intro.push_str(&format!(
                    " {} of unresolved kinds (see the diagnostics) are not included.",
                    super::table::counted(c.unresolved, "call or watch", "calls or watches")
                ));
            }
            let note = Some(super::table::Note {
                text: c.completeness.note.clone(),
                complete: c.completeness.complete,
            });
            Section {
                id: anchor(&["least-privilege", &c.controller]),
                title: format!("Least privilege: {}", c.controller),
                intro,
                headers: ["Resource", "Verb", "Needed by (call path → why)", ""]
                    .iter()
                    .map(|h| h.to_string())
                    .collect(),
                rows,
                empty: "No watch, read or write of a resolved kind was found.".into(),
                code: vec![
                    CodeBlock {
                        title: "kubebuilder markers".into(),
                        text: if markers.is_empty() {
                            "// no rules".into()
                        } else {
                            markers.join("\n")
                        },
                        open: true,
                    },
                    CodeBlock {
                        title: "ClusterRole (YAML)".into(),
                        text: role,
                        open: false,
                    },
                ],
                chart: String::new(),
                note,
            }
        })
        .collect()
}

/// `apps/deployments`, or `services` for the core group, as a rule names it.
fn rule_resource(group: &str, resource: &str) -> String {
    if group.is_empty() {
        resource.to_string()
    } else {
        format!("{group}/{resource}")
    }
}

/// Each place needing a verb as its call path ending in the reason, linked to the line;
/// more than a few are collapsed behind a summary of the reasons.
fn needed_by(p: &Project, traces: &[Trace]) -> Cell {
    let paths: Vec<Cell> = traces
        .iter()
        .map(|t| {
            let mut items = call_steps(p, &t.via);
            let url = t
                .sources
                .first()
                .and_then(|s| line_url(&p.source_url, &p.commit, &s.file, s.line))
                .unwrap_or_default();
            items.push(Cell::link(t.why.clone(), url));
            Cell::path(items, " → ")
        })
        .collect();
    let cell = Cell::list(paths);
    if traces.len() <= SHOWN_TRACES {
        return cell;
    }
    let mut whys: Vec<&str> = traces.iter().map(|t| t.why.as_str()).collect();
    whys.sort();
    whys.dedup();
    cell.collapsed(format!("{} places: {}", traces.len(), whys.join(", ")))
}
