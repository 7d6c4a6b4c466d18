//! A comparison as text for a terminal, and as markdown for a pull-request comment (the
//! JSON is the serde form of [`ProjectDiff`]). Breaking changes come first, with their
//! consumers; then each category's other changes.

use std::fmt::Write;

use super::{Category, ChangeKind, ProjectDiff, RowChange};
use model::SourceRef;

/// Rows of one category a markdown comment lists before counting the rest.
const MARKDOWN_ROWS: usize = 50;
/// A markdown comment stops listing rows past this size: GitHub refuses comments over
/// 65,536 characters.
const MARKDOWN_BUDGET: usize = 60_000;

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

/// `v0.18.1 (0123456789ab)`, or the commit alone when it was asked for by itself.
pub fn revision(r: &super::Revision) -> String {
    if r.commit.is_empty() || r.rev == r.commit || r.commit.starts_with(&r.rev) {
        if r.commit.is_empty() {
            r.rev.clone()
        } else {
            short(&r.commit).to_string()
        }
    } else {
        format!("{} ({})", r.rev, short(&r.commit))
    }
}

/// `3 breaking · 12 added · 5 removed · 40 changed`, or `no changes`.
pub fn summary(d: &ProjectDiff) -> String {
    if d.changes.is_empty() {
        return "no changes".into();
    }
    let (added, removed, changed) = d.tally();
    format!(
        "{} breaking · {added} added · {removed} removed · {changed} changed",
        d.breaking
    )
}

fn mark(c: &RowChange) -> char {
    match c.change {
        ChangeKind::Added => '+',
        ChangeKind::Removed => '-',
        ChangeKind::Changed => '~',
    }
}

/// Where a row is: the new side's place, else the old side's.
fn place(c: &RowChange) -> Option<&SourceRef> {
    c.after.as_ref().or(c.before.as_ref())
}

/// The categories with non-breaking changes, in order, each with its rows.
fn sections(d: &ProjectDiff) -> Vec<(Category, Vec<&RowChange>)> {
    let mut out: Vec<(Category, Vec<&RowChange>)> = Vec::new();
    let mut rest: Vec<&RowChange> = d.changes.iter().filter(|c| !c.breaking).collect();
    rest.sort_by_key(|c| c.category);
    for c in rest {
        match out.last_mut() {
            Some((cat, rows)) if *cat == c.category => rows.push(c),
            _ => out.push((c.category, vec![c])),
        }
    }
    out
}

/// The plain-text report.
pub fn text(d: &ProjectDiff) -> String {
    let mut out = format!(
        "{}: {} → {}\n{}\n",
        d.project,
        revision(&d.from),
        revision(&d.to),
        summary(d)
    );
    let line = |out: &mut String, c: &RowChange| {
        let at = place(c).map_or(String::new(), |s| format!("  [{}:{}]", s.file, s.line));
        let detail = if c.detail.is_empty() {
            String::new()
        } else {
            format!(": {}", c.detail)
        };
        let _ = writeln!(out, "  {} {}{detail}{at}", mark(c), c.subject);
    };
    if d.breaking > 0 {
        out.push_str("\nBreaking changes\n");
        for c in d.changes.iter().filter(|c| c.breaking) {
            line(&mut out, c);
            if c.consumers.is_empty() {
                out.push_str("      used by no other project of the portal\n");
            }
            for u in &c.consumers {
                let at = u
                    .source
                    .as_ref()
                    .map_or(String::new(), |s| format!("  [{}:{}]", s.file, s.line));
                let _ = writeln!(out, "      used by {}: {} {}{at}", u.project, u.who, u.how);
            }
        }
    }
    for (category, rows) in sections(d) {
        let _ = writeln!(out, "\n{}", category.title());
        for c in rows {
            line(&mut out, c);
        }
    }
    out
}

/// Escapes text for a markdown table cell: no markup, links, HTML or cell breaks.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '#' | '!' => {
                out.push('\\');
                out.push(ch);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `[file:line](url)`, or the place as text when there is no link.
fn located(d: &ProjectDiff, c: &RowChange) -> String {
    let side = |at: &SourceRef, new_side: bool| {
        let text = cell(&format!("{}:{}", at.file, at.line));
        match d.link(at, new_side) {
            Some(url) => format!("[{text}]({})", url.replace(')', "%29").replace(' ', "%20")),
            None => text,
        }
    };
    match (&c.before, &c.after) {
        (Some(b), Some(a)) if b == a => side(a, true),
        (Some(b), Some(a)) => format!("{} → {}", side(b, false), side(a, true)),
        (None, Some(a)) => side(a, true),
        (Some(b), None) => side(b, false),
        (None, None) => String::new(),
    }
}

/// One markdown table row: change, what, detail, [used by,] where.
fn table_row(d: &ProjectDiff, c: &RowChange, users: Option<&str>) -> String {
    let users = users.map_or(String::new(), |u| format!(" {u} |"));
    format!(
        "| {} | {} | {} |{users} {} |\n",
        c.change.label(),
        cell(&c.subject),
        cell(&c.detail),
        located(d, c)
    )
}

/// The markdown report, sized for a pull-request comment.
pub fn markdown(d: &ProjectDiff) -> String {
    let mut out = format!(
        "### {}: {} → {}\n\n",
        cell(&d.project),
        cell(&revision(&d.from)),
        cell(&revision(&d.to))
    );
    if d.breaking > 0 {
        let _ = writeln!(out, "**{}**\n", cell(&summary(d)));
    } else {
        let _ = writeln!(out, "{}\n", cell(&summary(d)));
    }
    let mut left_out = 0usize;
    if d.breaking > 0 {
        out.push_str("#### Breaking changes\n\n| | What | Change | Used by | Where |\n|---|---|---|---|---|\n");
        for c in d.changes.iter().filter(|c| c.breaking) {
            if out.len() > MARKDOWN_BUDGET {
                left_out += 1;
                continue;
            }
            let users = if c.consumers.is_empty() {
                "no other project".to_string()
            } else {
                c.consumers
                    .iter()
                    .map(|u| cell(&format!("{}: {} {}", u.project, u.who, u.how)))
                    .collect::<Vec<_>>()
                    .join("<br>")
            };
            out.push_str(&table_row(d, c, Some(&users)));
        }
        out.push('\n');
    }
    for (category, rows) in sections(d) {
        if out.len() > MARKDOWN_BUDGET {
            left_out += rows.len();
            continue;
        }
        let _ = writeln!(
            out,
            "<details><summary>{} ({})</summary>\n\n| | What | Change | Where |\n|---|---|---|---|",
            category.title(),
            rows.len()
        );
        for c in rows.iter().take(MARKDOWN_ROWS) {
            out.push_str(&table_row(d, c, None));
        }
        if rows.len() > MARKDOWN_ROWS {
            let _ = writeln!(out, "\n…and {} more.", rows.len() - MARKDOWN_ROWS);
        }
        out.push_str("\n</details>\n\n");
    }
    if left_out > 0 {
        let _ = writeln!(
            out,
            "{left_out} more changes are not listed (a comment holds at most 65,536 characters); `portolan diff --json` has them all."
        );
    }
    out
}

#[cfg(test)]
mod tests;
