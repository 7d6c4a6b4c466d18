//! Rows for external connections, feature gates and platform checks, shared by the project
//! overview, the configuration page and the platform architecture page.

use super::table::{Cell, TableRow, source_links};
use model::{ConnectionTarget, ExternalConnection, FeatureGate, PlatformCheck, Project};

/// A connection's target as a reader wants it: the value, `flag --x (default …)`,
/// `env $X`, or what is unknown.
pub fn target_text(t: &ConnectionTarget) -> String {
    match t {
        ConnectionTarget::Constant {
            value,
            prefix: false,
        } => value.clone(),
        ConnectionTarget::Constant {
            value,
            prefix: true,
        } => format!("{value}… (constant prefix)"),
        ConnectionTarget::Flag { name, default } if default.is_empty() => format!("flag --{name}"),
        ConnectionTarget::Flag { name, default } => {
            format!("flag --{name} (default {default})")
        }
        ConnectionTarget::Env { name } => format!("environment ${name}"),
        ConnectionTarget::Unresolved { expression } => format!("unresolved: {expression}"),
        ConnectionTarget::LibraryDefault => {
            "the library's own configuration (no endpoint argument)".to_string()
        }
    }
}

/// The names of the programs a connection belongs to (`Binary::package` → its name).
pub fn program_names(p: &Project, c: &ExternalConnection) -> Vec<String> {
    c.programs
        .iter()
        .map(|pkg| {
            p.findings
                .binaries
                .iter()
                .find(|b| !b.is_package() && &b.package == pkg)
                .map(|b| b.name.clone())
                .unwrap_or_else(|| pkg.clone())
        })
        .collect()
}

/// Kind, library, call, target, programs.
pub fn connection_cells(p: &Project, c: &ExternalConnection) -> Vec<String> {
    vec![
        c.kind.clone(),
        c.library.clone(),
        c.call.clone(),
        target_text(&c.target),
        program_names(p, c).join(", "),
    ]
}

/// `connection-FILE-LINE` parts of a connection row's anchor (with what the caller adds).
pub fn anchor_parts(c: &ExternalConnection) -> (String, String) {
    let first = c.sources.first();
    (
        first.map(|s| s.file.clone()).unwrap_or_default(),
        first.map(|s| s.line.to_string()).unwrap_or_default(),
    )
}

/// A connection row of a table across projects: the project first.
pub fn connection_row(p: &Project, root: &str, c: &ExternalConnection, anchor: String) -> TableRow {
    let mut cells = vec![Cell::project(root, &p.name)];
    cells.extend(connection_cells(p, c).into_iter().map(Cell::text));
    TableRow {
        anchor,
        cells,
        sources: source_links(p, &c.sources),
    }
}

/// Name, default, stage, locked / version.
pub fn gate_cells(g: &FeatureGate) -> Vec<Cell> {
    let mut notes = Vec::new();
    if g.locked {
        notes.push("locked to default".to_string());
    }
    if !g.version.is_empty() {
        notes.push(format!("since {}", g.version));
    }
    vec![
        Cell::text(g.name.clone()),
        Cell::text(g.default.clone()),
        Cell::text(g.stage.clone()),
        Cell::text(notes.join(", ")),
    ]
}

/// What is checked, how, where, the branch and what it switches.
pub fn check_cells(p: &Project, c: &PlatformCheck) -> Vec<Cell> {
    let how = if c.helper.is_empty() {
        c.method.clone()
    } else {
        format!("{} {}", c.method, c.helper)
    };
    let branch = match &c.branch {
        Some(b) => source_links(p, std::slice::from_ref(b))
            .into_iter()
            .next()
            .map(|l| Cell::link(format!("if at line {}", b.line), l.url))
            .unwrap_or_else(|| Cell::text("")),
        None => Cell::text("(no if tests the result here)"),
    };
    vec![
        Cell::text(c.checks.clone()),
        Cell::text(how),
        Cell::text(c.function.clone()),
        branch,
        Cell::lines(&c.switches),
    ]
}
