//! Linking across projects: the kind index (built by `kind_index`: who defines, watches,
//! writes, admits and grants each kind) and the portal summary.
//!
//! Stage: link. A pure function of the analyzed projects; rendering reads its output.

use std::collections::{BTreeMap, HashMap};

use model::{
    Connection, ConnectionEnd, ConnectionKind, Counts, KUBERNETES_GROUPS, KindEntry, Portal,
    Project, ProjectSummary, Relation, SCHEMA_VERSION, UNRESOLVED,
};

/// Resolves kinds one project imports from another project's Go API packages (e.g. a
/// scheduler watching an operator's CRD type). The analyzer left them unresolved with a
/// diagnostic because it sees one repository at a time; both are settled here.
pub fn resolve_across_projects(projects: &mut [Project]) {
    let packages = api_packages(projects.iter());
    for p in projects.iter_mut() {
        settle(p, &packages);
    }
}

/// [`resolve_across_projects`] for one project outside the list (an earlier revision of
/// one of them), against the API packages of the list and its own.
pub fn resolve_against(project: &mut Project, portal: &[Project]) {
    let packages = api_packages(portal.iter().chain(std::iter::once(&*project)));
    settle(project, &packages);
}

/// Group and version by Go import path, over the projects' API packages.
fn api_packages<'a>(
    projects: impl Iterator<Item = &'a Project>,
) -> HashMap<String, (String, String)> {
    let mut packages = HashMap::new();
    for p in projects {
        for api in &p.findings.api_packages {
            packages.insert(
                api.import_path.clone(),
                (api.group.clone(), api.version.clone()),
            );
        }
    }
    packages
}

/// Settles the project's watches of kinds from the packages, and their diagnostics.
fn settle(p: &mut Project, packages: &HashMap<String, (String, String)>) {
    let mut settled = Vec::new();
    for w in p
        .findings
        .controllers
        .iter_mut()
        .flat_map(|c| c.watches.iter_mut())
    {
        let Some((group, version)) = w.import_path.as_ref().and_then(|path| packages.get(path))
        else {
            continue;
        };
        settled.extend(w.sources.iter().map(|s| {
            (
                s.clone(),
                format!("{}.{}", w.import_path.as_deref().unwrap_or(""), w.kind),
            )
        }));
        w.group = group.clone();
        w.version = version.clone();
        w.import_path = None;
    }
    p.findings.diagnostics.retain(|d| {
        !settled.iter().any(|(at, what)| {
            at.file == d.file
                && at.line == d.line
                && d.message
                    .starts_with(&format!("cannot resolve the API group of {what};"))
        })
    });
}

/// Builds the portal-wide model from every project (failed ones included, with their error).
pub fn link(title: &str, projects: &[Project]) -> Portal {
    let (kinds, unresolved_kinds) = crate::kind_index::build(projects);
    Portal {
        schema_version: SCHEMA_VERSION,
        title: title.to_string(),
        projects: projects
            .iter()
            .map(|p| ProjectSummary {
                name: p.name.clone(),
                title: p.title.clone(),
                description: p.description.clone(),
                repository: p.repository.clone(),
                commit: p.commit.clone(),
                counts: Counts::of(p),
                compared: Vec::new(),
                error: p.error.clone(),
            })
            .collect(),
        kinds,
        unresolved_kinds,
        connections: connections(projects),
    }
}

/// How one project touches one kind: whether it defines it, the verbs it writes it with,
/// and the relations it watches it by (each in order of first appearance).
#[derive(Default)]
struct Touch {
    defines: bool,
    /// Watched with `Owns`: controller-runtime maps events of objects whose controlling
    /// owner is the reconciled kind, the objects the controller creates. Counted as a
    /// write because generic helpers hide some writes from the analyzer (KServe creates
    /// InferencePools through a type-parameterized `Reconcile`).
    owns: bool,
    verbs: Vec<String>,
    relations: Vec<Relation>,
}

fn push_once<T: PartialEq>(list: &mut Vec<T>, x: T) {
    if !list.contains(&x) {
        list.push(x);
    }
}

/// What each project defines, writes and watches, by (group, kind): component rows only,
/// resolved kinds only, Kubernetes' own groups left out (see `KUBERNETES_GROUPS`).
fn touches(p: &Project) -> BTreeMap<(String, String), Touch> {
    let mut map: BTreeMap<(String, String), Touch> = BTreeMap::new();
    fn at<'m>(
        map: &'m mut BTreeMap<(String, String), Touch>,
        group: &str,
        kind: &str,
    ) -> Option<&'m mut Touch> {
        if group == UNRESOLVED || kind == UNRESOLVED || KUBERNETES_GROUPS.contains(&group) {
            return None;
        }
        Some(
            map.entry((group.to_string(), kind.to_string()))
                .or_default(),
        )
    }
    for crd in p
        .findings
        .crds
        .iter()
        .filter(|c| c.area.is_component() && !c.bundled)
    {
        if let Some(t) = at(&mut map, &crd.group, &crd.kind) {
            t.defines = true;
        }
    }
    for c in p
        .findings
        .controllers
        .iter()
        .filter(|c| c.area.is_component())
    {
        for w in c.watches.iter().filter(|w| w.is_resolved()) {
            if let Some(t) = at(&mut map, &w.group, &w.kind) {
                push_once(&mut t.relations, w.relation);
                t.owns |= w.relation == Relation::Owns;
            }
        }
        for o in &c.operations {
            if let Some(t) = at(&mut map, &o.group, &o.kind) {
                push_once(&mut t.verbs, o.verb.to_string());
            }
        }
    }
    for i in p
        .findings
        .informers
        .iter()
        .filter(|i| i.area.is_component())
    {
        if let Some(t) = at(&mut map, &i.group, &i.kind) {
            push_once(&mut t.relations, Relation::Informer);
        }
    }
    for o in p
        .findings
        .package_operations
        .iter()
        .filter(|o| o.area.is_component())
    {
        if let Some(t) = at(&mut map, &o.group, &o.kind) {
            push_once(&mut t.verbs, o.verb.to_string());
        }
    }
    map
}

/// One side of a kind: the index of each project on it, with how it touches the kind.
type Side = Vec<(usize, String)>;

/// The cross-project graph as boxes of kinds. A project is on the writing side of a kind
/// when it writes, owns (controller-runtime's `Owns`) or defines (a CRD of its own, not a
/// bundled copy) it, and on the watching side when it watches it (for, owns, watches or
/// informer); it is kept on a side only when the other side has another project. Kinds
/// with the same two sides share a box. The work and the result are linear in what the
/// projects touch: pairs of projects are never listed (a kind all N projects define and
/// watch is one box with N projects on each side). Boxes are in the order of their first
/// kind (by group and kind), projects in projects.toml's order.
pub fn connections(projects: &[Project]) -> Vec<Connection> {
    let mut by_kind: BTreeMap<(String, String), (Side, Side)> = BTreeMap::new();
    for (i, p) in projects.iter().enumerate() {
        for (key, t) in touches(p) {
            let (writers, watchers) = by_kind.entry(key).or_default();
            let mut how = Vec::new();
            if t.defines {
                how.push("defines".to_string());
            }
            if t.owns {
                how.push("owns".to_string());
            }
            if !t.verbs.is_empty() {
                how.push(format!("writes ({})", t.verbs.join(", ")));
            }
            if !how.is_empty() {
                writers.push((i, how.join("; ")));
            }
            if !t.relations.is_empty() {
                let relations: Vec<String> = t
                    .relations
                    .iter()
                    .map(|r| r.label().to_lowercase())
                    .collect();
                watchers.push((i, relations.join(", ")));
            }
        }
    }
    // Each project is on a side at most once, so "another project on the other side" is
    // a question of that side's length.
    fn facing<'s>(side: &'s Side, other: &Side) -> Vec<&'s (usize, String)> {
        side.iter()
            .filter(|(i, _)| other.len() > 1 || other.first().is_some_and(|(j, _)| j != i))
            .collect()
    }
    let mut boxes: Vec<Connection> = Vec::new();
    let mut box_of: HashMap<(Vec<usize>, Vec<usize>), usize> = HashMap::new();
    for ((group, kind), (writers, watchers)) in by_kind {
        let from = facing(&writers, &watchers);
        let to = facing(&watchers, &writers);
        if from.is_empty() || to.is_empty() {
            continue;
        }
        let indices = |side: &[&(usize, String)]| side.iter().map(|(i, _)| *i).collect();
        let at = *box_of
            .entry((indices(&from), indices(&to)))
            .or_insert_with(|| {
                let ends = |side: &[&(usize, String)]| {
                    side.iter()
                        .map(|(i, _)| ConnectionEnd {
                            project: projects[*i].name.clone(),
                            how: Vec::new(),
                        })
                        .collect()
                };
                boxes.push(Connection {
                    kinds: Vec::new(),
                    from: ends(&from),
                    to: ends(&to),
                });
                boxes.len() - 1
            });
        let b = &mut boxes[at];
        b.kinds.push(ConnectionKind { group, kind });
        for (end, (_, how)) in b.from.iter_mut().zip(&from) {
            end.how.push(how.clone());
        }
        for (end, (_, how)) in b.to.iter_mut().zip(&to) {
            end.how.push(how.clone());
        }
    }
    boxes
}

/// Kinds that connect two or more projects: defined in one and watched in another, or
/// watched by several. These are the edges of the cross-project graph.
pub fn shared_kinds(portal: &Portal) -> Vec<&KindEntry> {
    portal
        .kinds
        .iter()
        .filter(|k| {
            let mut projects: Vec<&str> = k.defined_by.iter().map(String::as_str).collect();
            projects.extend(k.watched_by.iter().map(|w| w.project.as_str()));
            projects.sort();
            projects.dedup();
            projects.len() > 1
        })
        .collect()
}

#[cfg(test)]
mod tests;
