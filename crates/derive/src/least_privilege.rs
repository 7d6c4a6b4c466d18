//! Least privilege per controller: the smallest RBAC rules that let a controller do what
//! its code was seen to do, each verb traced to the code that needs it, written as
//! `+kubebuilder:rbac` markers and as a ClusterRole.
//!
//! Stage: link (a pure function of one project and the portal's resource names, like
//! `access`); the security page renders the result.
//!
//! What a controller needs: `get`, `list` and `watch` on every kind it watches (the cache
//! needs all three), the verb of every read it makes through a client, and the verbs of
//! every write as `access::write_verbs` maps them (`apply` → `patch`, `delete_all_of` →
//! `deletecollection`, `create_or_update` → `get` + `create` + `update`, status writes on
//! `KIND/status`). **Invariant:** nothing is guessed: a kind whose resource name (plural)
//! is not known is listed in `unknown`, never put in a rule, and calls of unresolved kinds
//! are only counted. The rules cover what the analyzer saw; what the manager itself does
//! (leader election, events) is not in them. Each controller's rules say whether they are
//! complete (`Completeness`): only when every client call its `Reconcile` reaches was
//! found and resolved (`model::ClientCalls`), every watch is of a known kind and no kind
//! was left out; otherwise they are a lower bound and the note names what is missing.

use std::collections::{BTreeMap, BTreeSet};

use crate::access::{read_verbs, write_verbs};
use kubernetes::resources::ResourceNames;
use model::{CallStep, Project, SourceRef, UNRESOLVED};

/// One place in the code that needs a verb.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Trace {
    /// `watch (For)`, `read get`, `write create_or_update`.
    pub why: String,
    pub sources: Vec<SourceRef>,
    /// The call path from `Reconcile` to the call (empty for watches and calls in `Reconcile`).
    pub via: Vec<CallStep>,
}

/// One verb on one resource, with every place that needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerbNeed {
    pub group: String,
    pub kind: String,
    /// `deployments` or `deployments/status`.
    pub resource: String,
    pub verb: String,
    pub traces: Vec<Trace>,
}

/// A kind the controller uses whose resource name is not known: left out of the rules.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unknown {
    pub group: String,
    pub kind: String,
    /// `status` when the unknown resource is the kind's status subresource.
    pub subresource: Option<String>,
    pub verbs: Vec<String>,
    pub traces: Vec<Trace>,
}

/// A rule: one API group, resources that need exactly the same verbs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rule {
    pub group: String,
    pub resources: Vec<String>,
    /// Sorted alphabetically, as controller-gen writes them.
    pub verbs: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Privileges {
    pub controller: String,
    /// The controller's position in the project's `controllers`: several controllers
    /// may share a name.
    pub index: usize,
    /// Sorted by group, resource, verb.
    pub needs: Vec<VerbNeed>,
    pub rules: Vec<Rule>,
    pub unknown: Vec<Unknown>,
    /// Watches, reads and writes whose kind is not resolved (see the diagnostics).
    pub unresolved: usize,
    pub completeness: Completeness,
}

/// Whether a controller's rules hold everything its code was seen to need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completeness {
    /// True only when client calls were found in its reach and every one was resolved,
    /// the count was not cut short, every watch is of a resolved kind and no kind was left
    /// out for want of a resource name.
    pub complete: bool,
    /// One sentence for above the rules: `Complete: …` or `Lower bound: …`, naming what is
    /// missing.
    pub note: String,
}

/// The completeness of `c`'s rules, `unknown` being the kinds left out of them.
pub fn completeness(c: &model::Controller, unknown: &[Unknown]) -> Completeness {
    let Some(calls) = &c.client_calls else {
        return Completeness {
            complete: false,
            note: "Lower bound: this controller's client calls were not counted, so rules for calls the analyzer did not see may be missing.".into(),
        };
    };
    let mut missing = Vec::new();
    if !calls.unresolved.is_empty() {
        let mut verbs: BTreeMap<&str, usize> = BTreeMap::new();
        for u in &calls.unresolved {
            *verbs.entry(u.verb.as_str()).or_default() += 1;
        }
        let verbs: Vec<String> = verbs
            .into_iter()
            .map(|(v, n)| {
                if n > 1 {
                    format!("{v} ×{n}")
                } else {
                    v.to_string()
                }
            })
            .collect();
        let n = calls.unresolved.len();
        missing.push(format!(
            "{} in this controller's reach {} not resolved to a kind ({}): rules for {} are missing",
            counted(n, "client call", "client calls"),
            if n == 1 { "was" } else { "were" },
            verbs.join(", "),
            if n == 1 { "it" } else { "them" }
        ));
    }
    if !calls.incomplete.is_empty() {
        missing.push(format!(
            "{}: calls beyond it are not counted",
            calls.incomplete
        ));
    } else if calls.found == 0 {
        missing.push(
            "no client calls were found in this controller's reach, so the role holds only its cache's reads"
                .into(),
        );
    }
    let watches = c.watches.iter().filter(|w| !w.is_resolved()).count();
    if watches > 0 {
        missing.push(if watches == 1 {
            "1 watch of an unresolved kind: its get, list and watch rules are missing".into()
        } else {
            format!(
                "{watches} watches of unresolved kinds: their get, list and watch rules are missing"
            )
        });
    }
    if !unknown.is_empty() {
        missing.push(format!(
            "{} left out because {} resource name is not known",
            counted(unknown.len(), "kind is", "kinds are"),
            if unknown.len() == 1 { "its" } else { "their" }
        ));
    }
    if missing.is_empty() {
        return Completeness {
            complete: true,
            note: format!(
                "Complete: every client call this controller's Reconcile reaches was resolved ({}).",
                counted(calls.found, "call", "calls")
            ),
        };
    }
    let mut note = String::from("Lower bound: ");
    note.push_str(&missing.join("; "));
    note.push('.');
    Completeness {
        complete: false,
        note,
    }
}

/// `1 call`, `3 calls`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The least privileges of each component controller of `p`, in the project's order.
pub fn derive(p: &Project, names: &ResourceNames) -> Vec<Privileges> {
    p.findings
        .controllers
        .iter()
        .enumerate()
        .filter(|(_, c)| c.area.is_component())
        .map(|(index, c)| controller(index, c, names))
        .collect()
}

fn controller(index: usize, c: &model::Controller, names: &ResourceNames) -> Privileges {
    // (group, kind, subresource) → verb → traces
    type Key = (String, String, Option<&'static str>);
    let mut by_kind: BTreeMap<Key, BTreeMap<String, BTreeSet<Trace>>> = BTreeMap::new();
    let mut unresolved = 0;
    let mut add = |group: &str, kind: &str, sub, verb: &str, trace: &Trace| {
        by_kind
            .entry((group.to_string(), kind.to_string(), sub))
            .or_default()
            .entry(verb.to_string())
            .or_default()
            .insert(trace.clone());
    };
    for w in &c.watches {
        if !w.is_resolved() {
            unresolved += 1;
            continue;
        }
        let trace = Trace {
            why: format!("watch ({})", w.relation.label()),
            sources: w.sources.clone(),
            via: Vec::new(),
        };
        for verb in ["get", "list", "watch"] {
            add(&w.group, &w.kind, None, verb, &trace);
        }
    }
    for (o, is_read) in c
        .reads
        .iter()
        .map(|o| (o, true))
        .chain(c.operations.iter().map(|o| (o, false)))
    {
        if o.group == UNRESOLVED {
            unresolved += 1;
            continue;
        }
        let (verbs, sub) = if is_read {
            (read_verbs(o.verb), None)
        } else {
            write_verbs(o.verb)
        };
        let trace = Trace {
            why: format!("{} {}", if is_read { "read" } else { "write" }, o.verb),
            sources: o.sources.clone(),
            via: o.via.clone(),
        };
        for verb in verbs {
            add(&o.group, &o.kind, sub, verb, &trace);
        }
    }

    let mut needs = Vec::new();
    let mut unknown = Vec::new();
    for ((group, kind, sub), verbs) in by_kind {
        let Some(plural) = names.plural_of(&group, &kind) else {
            let mut traces: Vec<Trace> = verbs.values().flatten().cloned().collect();
            traces.sort();
            traces.dedup();
            unknown.push(Unknown {
                group,
                kind,
                subresource: sub.map(str::to_string),
                verbs: verbs.keys().cloned().collect(),
                traces,
            });
            continue;
        };
        let resource = match sub {
            Some(s) => format!("{plural}/{s}"),
            None => plural.to_string(),
        };
        for (verb, traces) in verbs {
            needs.push(VerbNeed {
                group: group.clone(),
                kind: kind.clone(),
                resource: resource.clone(),
                verb,
                traces: traces.into_iter().collect(),
            });
        }
    }
    needs.sort_by(|a, b| {
        (&a.group, &a.resource, &a.verb, &a.kind).cmp(&(&b.group, &b.resource, &b.verb, &b.kind))
    });
    Privileges {
        controller: c.name.clone(),
        index,
        rules: rules(&needs),
        needs,
        completeness: completeness(c, &unknown),
        unknown,
        unresolved,
    }
}

/// The needs as rules: per group, the resources with identical verb sets share a rule.
pub fn rules(needs: &[VerbNeed]) -> Vec<Rule> {
    let mut verbs: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for n in needs {
        verbs
            .entry((&n.group, &n.resource))
            .or_default()
            .insert(&n.verb);
    }
    let mut rules: BTreeMap<(&str, Vec<&str>), Vec<String>> = BTreeMap::new();
    for ((group, resource), verbs) in verbs {
        rules
            .entry((group, verbs.into_iter().collect()))
            .or_default()
            .push(resource.to_string());
    }
    let mut out: Vec<Rule> = rules
        .into_iter()
        .map(|((group, verbs), resources)| Rule {
            group: group.to_string(),
            resources,
            verbs: verbs.into_iter().map(str::to_string).collect(),
        })
        .collect();
    out.sort();
    out
}

/// The rules as `+kubebuilder:rbac` marker lines (`groups=core` for the core group, as
/// kubebuilder's scaffolding writes it).
pub fn markers(rules: &[Rule]) -> Vec<String> {
    rules
        .iter()
        .map(|r| {
            format!(
                "// +kubebuilder:rbac:groups={},resources={},verbs={}",
                marker_value(if r.group.is_empty() { "core" } else { &r.group }),
                r.resources
                    .iter()
                    .map(|s| marker_value(s))
                    .collect::<Vec<_>>()
                    .join(";"),
                r.verbs.join(";")
            )
        })
        .collect()
}

/// A value inside a marker: names from CRDs are repository text, so anything a marker
/// gives meaning to (`,`, `;`, `=`, quotes, spaces, newlines) is replaced by `_`.
fn marker_value(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-/*".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The rules as a ClusterRole named `PROJECT-CONTROLLER-least-privilege`, with a comment
/// saying whether they are complete (`Completeness::note`) and one for each kind left out
/// because its resource name is not known.
pub fn cluster_role(project: &str, p: &Privileges) -> String {
    let mut out = String::from("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n");
    out.push_str(&format!(
        "metadata:\n  name: {}\n",
        object_name(&format!("{project}-{}-least-privilege", p.controller))
    ));
    out.push_str(&format!("# {}\n", comment(&p.completeness.note)));
    for u in &p.unknown {
        out.push_str(&format!(
            "# not included: {} ({}){}: resource name unknown; needs {}\n",
            comment(&u.kind),
            comment(if u.group.is_empty() { "core" } else { &u.group }),
            u.subresource
                .as_deref()
                .map(|s| format!(" subresource {}", comment(s)))
                .unwrap_or_default(),
            u.verbs.join(", ")
        ));
    }
    if p.rules.is_empty() {
        out.push_str("rules: []\n");
        return out;
    }
    out.push_str("rules:\n");
    for r in &p.rules {
        out.push_str(&format!("- apiGroups:\n  - {}\n", yaml_scalar(&r.group)));
        out.push_str("  resources:\n");
        for res in &r.resources {
            out.push_str(&format!("  - {}\n", yaml_scalar(res)));
        }
        out.push_str("  verbs:\n");
        for v in &r.verbs {
            out.push_str(&format!("  - {}\n", yaml_scalar(v)));
        }
    }
    out
}

/// A YAML scalar: plain when it is a simple lowercase name, else double-quoted as JSON
/// (valid YAML), so repository text can never change the document's structure.
fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ".-/".contains(c));
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
    }
}

/// Text for a YAML comment: one line.
fn comment(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A Kubernetes object name: lowercase letters, digits, `-` and `.`, at most 253.
fn object_name(s: &str) -> String {
    let name: String = s
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .take(253)
        .collect();
    name.trim_matches(|c| c == '-' || c == '.').to_string()
}

#[cfg(test)]
mod tests;
