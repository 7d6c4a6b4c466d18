//! One name per ServiceAccount. A binding often names its ServiceAccount subject without a
//! namespace and leaves it to kustomize: a kustomization's `namespace:` sets it on every
//! object it builds and on the ServiceAccount subjects of its bindings that have none
//! (kustomize's default `defaultOnly` mode). Such a subject, or a ServiceAccount written
//! without a namespace, is the same account as one written with that namespace, and the
//! security page and the RBAC graph show them as one.
//!
//! Only the project's own kustomizations count (not tests' or bundled ones), and none that
//! renames what it builds (`namePrefix`, `nameSuffix`). When they all set one namespace,
//! that is the account's. When they set several (a kubeflow overlay beside the default),
//! the account is merged with the one written with a namespace only if exactly one of
//! those namespaces is written for that name elsewhere in the project, and the row says
//! which overlays put it elsewhere. Two accounts written with different namespaces are
//! never merged; an account no kustomization places keeps the name it is written with.

use std::collections::{BTreeMap, BTreeSet};

use kubernetes::names::qualified;
use model::{Project, RoleBinding};

/// The namespace the project's kustomizations give objects written without one.
pub struct Namespaces<'p> {
    /// `Kind name` (as in `Kustomization::objects`) → (namespace, kustomization folder),
    /// `None` for a kustomization that renames what it builds.
    built: BTreeMap<&'p str, BTreeSet<Option<(&'p str, &'p str)>>>,
    /// ServiceAccounts written with a namespace, as `namespace/name`: own ServiceAccounts
    /// and binding subjects.
    written: BTreeSet<String>,
}

/// A subject or ServiceAccount as the cluster sees it, and why when kustomize set its
/// namespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// `ServiceAccount namespace/name` (or the subject as written).
    pub subject: String,
    /// E.g. `namespace kserve from the kustomization config/default`; empty when written.
    pub why: String,
}

impl<'p> Namespaces<'p> {
    pub fn new(p: &'p Project) -> Namespaces<'p> {
        let mut built: BTreeMap<&str, BTreeSet<Option<(&str, &str)>>> = BTreeMap::new();
        for k in &p.findings.kustomizations {
            if !k.area.is_component() || k.bundled {
                continue;
            }
            let renames = !k.name_prefix.is_empty() || !k.name_suffix.is_empty();
            for o in &k.objects {
                let entry = built.entry(o.as_str()).or_default();
                if renames {
                    entry.insert(None);
                } else if !k.namespace.is_empty() {
                    entry.insert(Some((k.namespace.as_str(), k.dir.as_str())));
                }
            }
        }
        let own = |area: model::Area, bundled: bool| area.is_component() && !bundled;
        let mut written: BTreeSet<String> = p
            .findings
            .service_accounts
            .iter()
            .filter(|s| own(s.area, s.bundled) && !s.namespace.is_empty())
            .map(|s| format!("{}/{}", s.namespace, s.name))
            .collect();
        for b in p
            .findings
            .role_bindings
            .iter()
            .filter(|b| own(b.area, b.bundled))
        {
            for subject in &b.subjects {
                if let Some(name) = subject.strip_prefix("ServiceAccount ")
                    && name.contains('/')
                {
                    written.insert(name.to_string());
                }
            }
        }
        Namespaces { built, written }
    }

    /// The namespace of an object of `kind` written as `name` without a namespace, for the
    /// ServiceAccount `account` (see the module documentation), and why; `None` when it is
    /// not known.
    fn of(&self, kind: &str, name: &str, account: &str) -> Option<(&'p str, String)> {
        let set = self.built.get(format!("{kind} {name}").as_str())?;
        let mut by_namespace: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for entry in set {
            let (ns, dir) = (*entry)?;
            by_namespace.entry(ns).or_default().push(dir);
        }
        let chosen = if by_namespace.len() == 1 {
            *by_namespace.keys().next()?
        } else {
            let mut known = by_namespace
                .keys()
                .filter(|ns| self.written.contains(&format!("{ns}/{account}")));
            match (known.next(), known.next()) {
                (Some(ns), None) => *ns,
                _ => return None,
            }
        };
        let mut why = format!(
            "written without a namespace; namespace {chosen} from {}",
            dirs_text(&by_namespace[chosen])
        );
        let others: Vec<String> = by_namespace
            .iter()
            .filter(|(ns, _)| **ns != chosen)
            .map(|(ns, dirs)| format!("{ns} by {}", dirs_text(dirs)))
            .collect();
        if !others.is_empty() {
            why.push_str(&format!("; put in {} instead", others.join(", ")));
        }
        Some((chosen, why))
    }

    /// A ServiceAccount row's name as the cluster sees it.
    pub fn account(&self, namespace: &str, name: &str) -> Resolved {
        if namespace.is_empty()
            && let Some((ns, why)) = self.of("ServiceAccount", name, name)
        {
            return Resolved {
                subject: format!("ServiceAccount {}", qualified(ns, name)),
                why,
            };
        }
        Resolved {
            subject: format!("ServiceAccount {}", qualified(namespace, name)),
            why: String::new(),
        }
    }

    /// A subject of a binding as the cluster sees it: a ServiceAccount subject without a
    /// namespace gets the one the kustomizations that build the binding give it.
    pub fn subject(&self, b: &RoleBinding, subject: &str) -> Resolved {
        let unqualified = subject
            .strip_prefix("ServiceAccount ")
            .filter(|name| !name.contains('/'));
        if let Some(name) = unqualified
            && let Some((ns, why)) = self.of(&b.kind, &qualified(&b.namespace, &b.name), name)
        {
            return Resolved {
                subject: format!("ServiceAccount {ns}/{name}"),
                why,
            };
        }
        Resolved {
            subject: subject.to_string(),
            why: String::new(),
        }
    }
}

/// `the kustomization a` or `the kustomizations a, b`.
fn dirs_text(dirs: &[&str]) -> String {
    let dirs: Vec<&str> = dirs
        .iter()
        .map(|d| if d.is_empty() { "." } else { d })
        .collect();
    format!(
        "the kustomization{} {}",
        if dirs.len() == 1 { "" } else { "s" },
        dirs.join(", ")
    )
}

#[cfg(test)]
mod tests;
