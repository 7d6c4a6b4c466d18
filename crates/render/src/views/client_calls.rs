//! How complete a dataflow is: a project's or a controller's client calls found against
//! those resolved (`model::ClientCalls`), as one line and a folded list of the calls not
//! resolved, each linked to its source lines with its verb and reason.

use serde::Serialize;

use super::super::table::{counted, source_links};
use super::Link;
use model::{ClientCalls, Project};

/// At most this many unresolved calls are listed on a page; the model has them all.
const SHOWN: usize = 100;

#[derive(Serialize, Debug, PartialEq)]
pub struct CallsView {
    /// `47 of 52 client calls resolved; 5 unresolved.`
    pub summary: String,
    /// Every call found was resolved and the count is not cut short.
    pub complete: bool,
    /// The summary of the folded list (`5 unresolved calls`).
    pub label: String,
    pub unresolved: Vec<UnresolvedView>,
    /// Unresolved calls beyond those listed.
    pub more: usize,
}

#[derive(Serialize, Debug, PartialEq)]
pub struct UnresolvedView {
    pub verb: String,
    /// The call's line first, then where its object's kind was looked for.
    pub sources: Vec<Link>,
    pub reason: String,
}

/// Whose calls are counted: a controller's (those its `Reconcile` reaches) or a project's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Controller,
    Project,
}

/// The view of `calls` of project `p`, or None when they were not counted.
pub fn view(p: &Project, calls: Option<&ClientCalls>, scope: Scope) -> Option<CallsView> {
    let calls = calls?;
    let n = calls.unresolved.len();
    let mut summary = if calls.found == 0 {
        match scope {
            Scope::Controller => {
                "No client calls were found in what its Reconcile reaches".to_string()
            }
            Scope::Project => "No client calls were found in the Go code".to_string(),
        }
    } else {
        format!(
            "{} of {} resolved{}",
            calls.resolved,
            counted(calls.found, "client call", "client calls"),
            match scope {
                Scope::Controller => " to a kind",
                Scope::Project => " to a kind and listed",
            }
        )
    };
    if n > 0 {
        summary.push_str(&format!("; {n} unresolved"));
    }
    summary.push('.');
    if !calls.incomplete.is_empty() {
        summary.push_str(&format!(
            " Not every call was counted: {}.",
            calls.incomplete
        ));
    }
    Some(CallsView {
        summary,
        complete: calls.is_complete() && calls.found > 0,
        label: format!("The {}", counted(n, "unresolved call", "unresolved calls")),
        unresolved: calls
            .unresolved
            .iter()
            .take(SHOWN)
            .map(|u| UnresolvedView {
                verb: u.verb.as_str().to_string(),
                sources: source_links(p, &u.sources),
                reason: u.reason.clone(),
            })
            .collect(),
        more: n.saturating_sub(SHOWN),
    })
}

#[cfg(test)]
mod tests;
