//! Linking across projects: the kind index (built by `kind_index`: who defines, watches,
//! writes, admits and grants each kind) and the portal summary.
//!
//! Stage: link. A pure function of the analyzed projects; rendering reads its output.

use std::collections::{BTreeMap, HashMap};

use crate::model::{
    Counts, EdgeKind, KUBERNETES_GROUPS, KindEntry, Portal, Project, ProjectEdge, ProjectSummary,
    Relation, SCHEMA_VERSION, UNRESOLVED,
};

/// Resolves kinds one project imports from another project's Go API packages (e.g. a
/// scheduler watching an operator's CRD type). The analyzer left them unresolved with a
/// diagnostic because it sees one repository at a time; both are settled here.
pub fn resolve_across_projects(projects: &mut [Project]) {
    let mut packages: HashMap<String, (String, String)> = HashMap::new();
    for p in projects.iter() {
        for api in &p.api_packages {
            packages.insert(
                api.import_path.clone(),
                (api.group.clone(), api.version.clone()),
            );
        }
    }
    for p in projects.iter_mut() {
        let mut settled = Vec::new();
        for w in p.controllers.iter_mut().flat_map(|c| c.watches.iter_mut()) {
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
        p.diagnostics.retain(|d| {
            !settled.iter().any(|(at, what)| {
                at.file == d.file
                    && at.line == d.line
                    && d.message
                        .starts_with(&format!("cannot resolve the API group of {what};"))
            })
        });
    }
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
                error: p.error.clone(),
            })
            .collect(),
        kinds,
        unresolved_kinds,
        edges: project_edges(projects),
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
        .crds
        .iter()
        .filter(|c| c.area.is_component() && !c.bundled)
    {
        if let Some(t) = at(&mut map, &crd.group, &crd.kind) {
            t.defines = true;
        }
    }
    for c in p.controllers.iter().filter(|c| c.area.is_component()) {
        for w in c.watches.iter().filter(|w| w.is_resolved()) {
            if let Some(t) = at(&mut map, &w.group, &w.kind) {
                push_once(&mut t.relations, w.relation);
                t.owns |= w.relation == Relation::Owns;
            }
        }
        for o in &c.operations {
            if let Some(t) = at(&mut map, &o.group, &o.kind) {
                push_once(&mut t.verbs, o.verb.clone());
            }
        }
    }
    for i in p.informers.iter().filter(|i| i.area.is_component()) {
        if let Some(t) = at(&mut map, &i.group, &i.kind) {
            push_once(&mut t.relations, Relation::Informer);
        }
    }
    for o in p
        .package_operations
        .iter()
        .filter(|o| o.area.is_component())
    {
        if let Some(t) = at(&mut map, &o.group, &o.kind) {
            push_once(&mut t.verbs, o.verb.clone());
        }
    }
    map
}

/// The cross-project graph: an edge from A to B when A writes, owns (controller-runtime's
/// `Owns`) or defines (a CRD of its own, not a bundled copy) a kind that B watches (for,
/// owns, watches or informer). Edges
/// are sorted by the projects' order in projects.toml, kinds by group and kind.
pub fn project_edges(projects: &[Project]) -> Vec<ProjectEdge> {
    let all: Vec<BTreeMap<(String, String), Touch>> = projects.iter().map(touches).collect();
    let mut edges = Vec::new();
    for (a, from) in projects.iter().zip(&all) {
        for (b, to) in projects.iter().zip(&all) {
            if a.name == b.name {
                continue;
            }
            let kinds: Vec<EdgeKind> = from
                .iter()
                .filter(|(_, t)| t.defines || t.owns || !t.verbs.is_empty())
                .filter_map(|(key, t)| {
                    let watched = to.get(key).filter(|w| !w.relations.is_empty())?;
                    let mut source = Vec::new();
                    if t.defines {
                        source.push("defines".to_string());
                    }
                    if t.owns {
                        source.push("owns".to_string());
                    }
                    if !t.verbs.is_empty() {
                        source.push(format!("writes ({})", t.verbs.join(", ")));
                    }
                    let relations: Vec<String> = watched
                        .relations
                        .iter()
                        .map(|r| r.label().to_lowercase())
                        .collect();
                    Some(EdgeKind {
                        group: key.0.clone(),
                        kind: key.1.clone(),
                        how: format!("{} → watches ({})", source.join("; "), relations.join(", ")),
                    })
                })
                .collect();
            if !kinds.is_empty() {
                edges.push(ProjectEdge {
                    from: a.name.clone(),
                    to: b.name.clone(),
                    kinds,
                });
            }
        }
    }
    edges
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
mod tests {
    use super::*;
    use crate::model::{Area, Controller, Crd, Operation, SourceRef, Watch};

    fn crd(group: &str, kind: &str, bundled: bool) -> Crd {
        Crd {
            group: group.into(),
            kind: kind.into(),
            plural: String::new(),
            scope: "Namespaced".into(),
            versions: Vec::new(),
            short_names: Vec::new(),
            schema: Vec::new(),
            templated: false,
            bundled,
            area: Area::Component,
            sources: Vec::new(),
        }
    }

    #[test]
    fn bundled_crds_do_not_make_a_project_define_a_kind() {
        let p = Project {
            name: "scheduler".into(),
            crds: vec![
                crd("pools.example.io", "Pool", false),
                // The same kind twice (two contents) is one definition.
                crd("pools.example.io", "Pool", false),
                crd("gateway.networking.k8s.io", "Gateway", true),
            ],
            ..Project::default()
        };
        let portal = link("t", &[p]);
        let defined: Vec<(&str, &[String])> = portal
            .kinds
            .iter()
            .map(|k| (k.kind.as_str(), k.defined_by.as_slice()))
            .collect();
        // The bundled Gateway is indexed (its definitions say `bundled`), defined by no one.
        assert_eq!(
            defined,
            vec![
                ("Gateway", &[][..]),
                ("Pool", &["scheduler".to_string()][..])
            ]
        );
        assert_eq!(portal.kinds[0].definitions[0].how, "bundled");
        assert_eq!(portal.projects[0].counts.crds, 1);
    }

    fn watch(relation: Relation, group: &str, kind: &str) -> Watch {
        Watch {
            relation,
            group: group.into(),
            version: "v1".into(),
            kind: kind.into(),
            conditional: false,
            import_path: None,
            sources: vec![SourceRef::new("a.go", 1)],
        }
    }

    fn controller(watches: Vec<Watch>, operations: Vec<Operation>) -> Controller {
        Controller {
            name: "c".into(),
            reconciler: String::new(),
            area: Area::Component,
            sources: Vec::new(),
            watches,
            operations,
        }
    }

    fn op(verb: &str, group: &str, kind: &str) -> Operation {
        Operation {
            verb: verb.into(),
            group: group.into(),
            version: "v1".into(),
            kind: kind.into(),
            sources: Vec::new(),
        }
    }

    #[test]
    fn edges_join_writers_and_definers_to_watchers() {
        let operator = Project {
            name: "operator".into(),
            crds: vec![crd("serving.example.io", "Model", false)],
            controllers: vec![controller(
                vec![
                    watch(Relation::For, "serving.example.io", "Model"),
                    watch(Relation::Owns, "routes.example.io", "Route"),
                ],
                vec![
                    op("create", "pools.example.io", "Pool"),
                    op("update", "pools.example.io", "Pool"),
                    // Kubernetes' own kinds never make an edge.
                    op("create", "apps", "Deployment"),
                    op("patch", UNRESOLVED, "?"),
                ],
            )],
            ..Project::default()
        };
        let scheduler = Project {
            name: "scheduler".into(),
            crds: vec![
                crd("pools.example.io", "Pool", false),
                // A bundled copy of another project's CRD defines nothing.
                crd("serving.example.io", "Model", true),
            ],
            controllers: vec![controller(
                vec![
                    watch(Relation::For, "pools.example.io", "Pool"),
                    watch(Relation::Informer, "serving.example.io", "Model"),
                    watch(Relation::Owns, "apps", "Deployment"),
                    watch(Relation::Watches, "routes.example.io", "Route"),
                ],
                vec![op("create", "apps", "Deployment")],
            )],
            ..Project::default()
        };
        let edges = project_edges(&[operator, scheduler]);
        assert_eq!(
            edges,
            vec![ProjectEdge {
                from: "operator".into(),
                to: "scheduler".into(),
                kinds: vec![
                    EdgeKind {
                        group: "pools.example.io".into(),
                        kind: "Pool".into(),
                        how: "writes (create, update) → watches (for)".into(),
                    },
                    EdgeKind {
                        group: "routes.example.io".into(),
                        kind: "Route".into(),
                        how: "owns → watches (watches)".into(),
                    },
                    EdgeKind {
                        group: "serving.example.io".into(),
                        kind: "Model".into(),
                        how: "defines → watches (informer)".into(),
                    },
                ],
            }]
        );
    }
}
