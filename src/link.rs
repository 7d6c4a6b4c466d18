//! Linking across projects: the kind index (built by `kind_index`: who defines, watches,
//! writes, admits and grants each kind) and the portal summary.
//!
//! Stage: link. A pure function of the analyzed projects; rendering reads its output.

use std::collections::HashMap;

use crate::model::{Counts, KindEntry, Portal, Project, ProjectSummary, SCHEMA_VERSION};

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
    }
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
    use crate::model::{Area, Crd};

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
}
