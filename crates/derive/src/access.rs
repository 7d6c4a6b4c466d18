//! RBAC versus code: the verbs each controller's code needs on each resource, against the
//! verbs the project's RBAC grants.
//!
//! Stage: link (a pure function of one project and the portal's resource names); the
//! security page renders the result.
//!
//! What the code needs: `get`, `list`, `watch` on every kind it watches; the verb of every
//! read through a client (`get`, `list`, `watch`) a controller's `Reconcile` reaches; the
//! verb of every client write (`apply` is a `patch`, `delete_all_of` a `deletecollection`,
//! `create_or_*` also a `get`), status writes on the `KIND/status` subresource.
//!
//! Which rules are compared: when the project's workloads run under exactly one
//! ServiceAccount that has role bindings, and every role bound to it is in the repository,
//! the rules of those roles; otherwise the union of every rule of the project (manifests
//! and `+kubebuilder:rbac` markers), and `Basis::reason` says why.
//! **Invariant:** nothing is guessed. A kind whose resource name is not known is listed
//! with `resource: None`, not compared; an unused grant is only "not seen in the code",
//! because calls whose kind is not resolved (the dynamic client, unstructured objects of a
//! kind known only at run time) and reads outside controllers are not counted.

use std::collections::{BTreeMap, BTreeSet};

use kubernetes::resources::ResourceNames;
use model::{Project, RbacRule, SourceRef, UNRESOLVED, Verb};

/// Which rules were compared, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Basis {
    /// `ServiceAccount namespace/name` when the rules are those bound to it; empty for the union.
    pub service_account: String,
    /// The roles whose rules were compared (role keys, as in `RbacRule::role`).
    pub roles: Vec<String>,
    /// One sentence for the page: how the basis was established or why it is the union.
    pub reason: String,
}

/// A verb the code needs, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Need {
    pub verb: String,
    /// `watch (For)`, `write create`, …
    pub why: String,
    pub sources: Vec<SourceRef>,
}

/// One controller (or package) and one resource it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessRow {
    /// The controller's name, or `package PATH` for writes and informers outside controllers.
    pub who: String,
    /// The controller's position in the project's `controllers` (several may share a
    /// name); None for a package.
    pub controller: Option<usize>,
    pub group: String,
    pub kind: String,
    /// `deployments` or `deployments/status`; `None` when the kind's plural is not known.
    pub resource: Option<String>,
    pub needs: Vec<Need>,
    pub granted: Vec<String>,
    pub missing: Vec<String>,
}

/// Verbs granted on a resource that no analyzed code was seen to need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusedGrant {
    pub role: String,
    /// `group/resource` as the rule names it (`core` group shown as the bare resource).
    pub resource: String,
    pub verbs: Vec<String>,
    /// Why the verbs may still be needed (controller-runtime internals, unresolved reads).
    pub note: String,
    pub sources: Vec<SourceRef>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessReport {
    pub basis: Basis,
    pub rows: Vec<AccessRow>,
    pub unused: Vec<UnusedGrant>,
}

/// The RBAC verbs a read through a client needs: its own verb.
pub fn read_verbs(verb: Verb) -> &'static [&'static str] {
    match verb {
        Verb::Get => &["get"],
        Verb::List => &["list"],
        Verb::Watch => &["watch"],
        Verb::Apply
        | Verb::Create
        | Verb::CreateOrPatch
        | Verb::CreateOrUpdate
        | Verb::Delete
        | Verb::DeleteAllOf
        | Verb::Patch
        | Verb::StatusPatch
        | Verb::StatusUpdate
        | Verb::Update => &[],
    }
}

/// The RBAC verbs a write needs, with the subresource it goes to.
pub fn write_verbs(verb: Verb) -> (&'static [&'static str], Option<&'static str>) {
    match verb {
        Verb::Create => (&["create"], None),
        Verb::Update => (&["update"], None),
        Verb::Patch | Verb::Apply => (&["patch"], None),
        Verb::Delete => (&["delete"], None),
        Verb::DeleteAllOf => (&["deletecollection"], None),
        Verb::StatusUpdate => (&["update"], Some("status")),
        Verb::StatusPatch => (&["patch"], Some("status")),
        Verb::CreateOrUpdate => (&["get", "create", "update"], None),
        Verb::CreateOrPatch => (&["get", "create", "patch"], None),
        Verb::Get | Verb::List | Verb::Watch => (&[], None),
    }
}

fn role_rules<'a>(p: &'a Project, basis: &Basis) -> Vec<&'a RbacRule> {
    p.findings
        .rbac
        .iter()
        .filter(|r| r.area.is_component() && !r.bundled)
        .filter(|r| basis.service_account.is_empty() || basis.roles.contains(&r.role))
        .collect()
}

/// Works out which roles the project's controllers run with (see the module comment).
pub fn basis(p: &Project) -> Basis {
    let union = |reason: String| Basis {
        service_account: String::new(),
        roles: Vec::new(),
        reason,
    };
    let bindings: Vec<_> = p
        .findings
        .role_bindings
        .iter()
        .filter(|b| b.area.is_component() && !b.bundled)
        .collect();
    // A subject matches a workload's account by name, and by namespace when both have one.
    let bound = |namespace: &str, account: &str| -> Vec<&model::RoleBinding> {
        bindings
            .iter()
            .copied()
            .filter(|b| {
                b.subjects.iter().any(|s| {
                    let Some(subject) = s.strip_prefix("ServiceAccount ") else {
                        return false;
                    };
                    let (ns, name) = subject.split_once('/').unwrap_or(("", subject));
                    name == account && (ns.is_empty() || namespace.is_empty() || ns == namespace)
                })
            })
            .collect()
    };
    let mut accounts: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for w in p
        .findings
        .workloads
        .iter()
        .filter(|w| w.area.is_component() && !w.bundled && !w.templated)
    {
        let account = if w.service_account.is_empty() {
            "default"
        } else {
            w.service_account.as_str()
        };
        if !bound(&w.namespace, account).is_empty() {
            accounts
                .entry((w.namespace.clone(), account.to_string()))
                .or_default()
                .push(format!("{} {}", w.kind, w.name));
        }
    }
    let mut accounts = accounts.into_iter();
    let (Some(((namespace, account), workloads)), None) = (accounts.next(), accounts.next()) else {
        return union(
            "Compared against the union of every RBAC rule of the project: the controllers' ServiceAccount cannot be determined (it takes exactly one ServiceAccount with role bindings among the project's workloads).".into(),
        );
    };
    let mut roles: Vec<String> = bound(&namespace, &account)
        .iter()
        .map(|b| b.role.clone())
        .collect();
    roles.sort();
    roles.dedup();
    let missing: Vec<&String> = roles
        .iter()
        .filter(|role| !p.findings.rbac.iter().any(|r| &r.role == *role))
        .collect();
    let name = if namespace.is_empty() {
        account.clone()
    } else {
        format!("{namespace}/{account}")
    };
    if !missing.is_empty() {
        return union(format!(
            "Compared against the union of every RBAC rule of the project: ServiceAccount {name} is bound to {}, whose rules are not in the repository.",
            missing
                .iter()
                .map(|r| r.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Basis {
        service_account: format!("ServiceAccount {name}"),
        reason: format!(
            "Compared against the roles bound to ServiceAccount {name} ({}), the only ServiceAccount of the project's workloads ({}) with role bindings.",
            roles.join(", "),
            workloads.join(", ")
        ),
        roles,
    }
}

/// Whether a rule grants `verb` on `resource` (maybe `plural/subresource`) in `group`.
fn grants(rule: &RbacRule, group: &str, resource: &str, verb: &str) -> bool {
    let sub = resource.split_once('/').map(|(_, s)| s);
    rule.groups.iter().any(|g| g == "*" || g == group)
        && rule
            .resources
            .iter()
            .any(|r| r == "*" || r == resource || (sub.is_some() && r.strip_prefix("*/") == sub))
        && rule.verbs.iter().any(|v| v == "*" || v == verb)
}

/// The RBAC-versus-code report of one project.
pub fn check(p: &Project, names: &ResourceNames) -> AccessReport {
    let basis = basis(p);
    let rules = role_rules(p, &basis);
    let (rows, used) = compare(needs(p), &rules, names);
    let unused = unused_grants(&rules, &used);
    AccessReport {
        basis,
        rows,
        unused,
    }
}

/// (who, controller, group, kind, subresource): what one row of needs is about.
type NeedKey = (String, Option<usize>, String, String, Option<&'static str>);

/// (group, resource) → the verbs needed by anyone, for the unused grants.
type Used = BTreeMap<(String, String), BTreeSet<String>>;

/// Records that the code needs `verb` on what `key` names, and why.
fn need(
    needs: &mut BTreeMap<NeedKey, Vec<Need>>,
    key: NeedKey,
    verb: &str,
    why: String,
    sources: &[SourceRef],
) {
    needs.entry(key).or_default().push(Need {
        verb: verb.to_string(),
        why,
        sources: sources.to_vec(),
    });
}

/// The verbs the code needs: the component's controllers', then its packages'.
fn needs(p: &Project) -> BTreeMap<NeedKey, Vec<Need>> {
    let mut needs = BTreeMap::new();
    controller_needs(p, &mut needs);
    package_needs(p, &mut needs);
    needs
}

/// What each controller watches, reads and writes.
fn controller_needs(p: &Project, needs: &mut BTreeMap<NeedKey, Vec<Need>>) {
    for (index, c) in p
        .findings
        .controllers
        .iter()
        .enumerate()
        .filter(|(_, c)| c.area.is_component())
    {
        let at = Some(index);
        for w in c.watches.iter().filter(|w| w.is_resolved()) {
            for verb in ["get", "list", "watch"] {
                let key = (c.name.clone(), at, w.group.clone(), w.kind.clone(), None);
                need(
                    needs,
                    key,
                    verb,
                    format!("watch ({})", w.relation.label()),
                    &w.sources,
                );
            }
        }
        for o in c.reads.iter().filter(|o| o.group != UNRESOLVED) {
            for verb in read_verbs(o.verb) {
                let key = (c.name.clone(), at, o.group.clone(), o.kind.clone(), None);
                need(needs, key, verb, format!("read {}", o.verb), &o.sources);
            }
        }
        for o in c.operations.iter().filter(|o| o.group != UNRESOLVED) {
            let (verbs, sub) = write_verbs(o.verb);
            for verb in verbs {
                let key = (c.name.clone(), at, o.group.clone(), o.kind.clone(), sub);
                need(needs, key, verb, format!("write {}", o.verb), &o.sources);
            }
        }
    }
}

/// What informers and writes outside controllers need, by package.
fn package_needs(p: &Project, needs: &mut BTreeMap<NeedKey, Vec<Need>>) {
    for i in p
        .findings
        .informers
        .iter()
        .filter(|i| i.area.is_component() && i.group != UNRESOLVED)
    {
        for verb in ["get", "list", "watch"] {
            let key = (
                format!("package {}", i.package),
                None,
                i.group.clone(),
                i.kind.clone(),
                None,
            );
            need(needs, key, verb, "watch (informer)".into(), &i.sources);
        }
    }
    for o in p
        .findings
        .package_operations
        .iter()
        .filter(|o| o.area.is_component() && o.group != UNRESOLVED)
    {
        let (verbs, sub) = write_verbs(o.verb);
        for verb in verbs {
            let key = (
                format!("package {}", o.package),
                None,
                o.group.clone(),
                o.kind.clone(),
                sub,
            );
            need(needs, key, verb, format!("write {}", o.verb), &o.sources);
        }
    }
}

/// One row per need key, with what the rules grant and what they miss; and the verbs
/// needed on each resource.
fn compare(
    needs: BTreeMap<NeedKey, Vec<Need>>,
    rules: &[&RbacRule],
    names: &ResourceNames,
) -> (Vec<AccessRow>, Used) {
    let mut used = Used::new();
    let mut rows = Vec::new();
    for ((who, controller, group, kind, sub), mut list) in needs {
        list.sort();
        list.dedup();
        let resource = names.plural_of(&group, &kind).map(|plural| match sub {
            Some(s) => format!("{plural}/{s}"),
            None => plural.to_string(),
        });
        let verbs: BTreeSet<&str> = list.iter().map(|n| n.verb.as_str()).collect();
        let (granted, missing) = match &resource {
            Some(res) => {
                used.entry((group.clone(), res.clone()))
                    .or_default()
                    .extend(verbs.iter().map(|v| v.to_string()));
                let granted: Vec<String> = [
                    "get",
                    "list",
                    "watch",
                    "create",
                    "update",
                    "patch",
                    "delete",
                    "deletecollection",
                ]
                .iter()
                .filter(|v| rules.iter().any(|r| grants(r, &group, res, v)))
                .map(|v| v.to_string())
                .collect();
                let missing = verbs
                    .iter()
                    .filter(|v| !rules.iter().any(|r| grants(r, &group, res, v)))
                    .map(|v| v.to_string())
                    .collect();
                (granted, missing)
            }
            None => (Vec::new(), Vec::new()),
        };
        rows.push(AccessRow {
            who,
            controller,
            group,
            kind,
            resource,
            needs: list,
            granted,
            missing,
        });
    }
    (rows, used)
}

/// The verbs the rules grant that no need uses; wildcard grants all listed.
fn unused_grants(rules: &[&RbacRule], used: &Used) -> Vec<UnusedGrant> {
    let mut unused = Vec::new();
    for r in rules {
        for group in &r.groups {
            for resource in &r.resources {
                let label = if group.is_empty() {
                    resource.clone()
                } else {
                    format!("{group}/{resource}")
                };
                if group == "*" || resource.contains('*') || r.verbs.iter().any(|v| v == "*") {
                    unused.push(UnusedGrant {
                        role: r.role.clone(),
                        resource: label,
                        verbs: r.verbs.clone(),
                        note: "wildcard grant: covers more than any code can be checked against"
                            .into(),
                        sources: r.sources.clone(),
                    });
                    continue;
                }
                let needed = used.get(&(group.clone(), resource.clone()));
                let verbs: Vec<String> = r
                    .verbs
                    .iter()
                    .filter(|v| !needed.is_some_and(|n| n.contains(*v)))
                    .cloned()
                    .collect();
                if verbs.is_empty() {
                    continue;
                }
                unused.push(UnusedGrant {
                    role: r.role.clone(),
                    resource: label,
                    note: unused_note(group, resource, &verbs),
                    verbs,
                    sources: r.sources.clone(),
                });
            }
        }
    }
    unused
}

/// Why verbs not seen in the code may still be needed.
fn unused_note(group: &str, resource: &str, verbs: &[String]) -> String {
    let mut notes = Vec::new();
    if group == "coordination.k8s.io" && resource == "leases" {
        notes.push("leader election uses leases (controller-runtime itself)");
    }
    if (group.is_empty() || group == "events.k8s.io") && resource == "events" {
        notes.push("event recorders create and patch events (client-go itself)");
    }
    if verbs
        .iter()
        .any(|v| matches!(v.as_str(), "get" | "list" | "watch"))
    {
        notes.push(
            "reads of kinds not resolved (dynamic client, unstructured) and reads outside controllers are not counted",
        );
    }
    notes.join("; ")
}

#[cfg(test)]
mod tests;
