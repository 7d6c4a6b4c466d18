//! Linking across projects: the kind index (who defines and who watches each kind) and the
//! portal summary.
//!
//! Stage: link. A pure function of the analyzed projects; rendering reads its output.

use std::collections::{BTreeMap, HashMap};

use crate::model::{
    Counts, KindEntry, KindWatcher, Portal, Project, ProjectSummary, SCHEMA_VERSION,
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
    let mut kinds: BTreeMap<(String, String), KindEntry> = BTreeMap::new();
    fn entry<'a>(
        kinds: &'a mut BTreeMap<(String, String), KindEntry>,
        group: &str,
        kind: &str,
    ) -> &'a mut KindEntry {
        kinds
            .entry((group.to_string(), kind.to_string()))
            .or_insert_with(|| KindEntry {
                group: group.to_string(),
                kind: kind.to_string(),
                defined_by: Vec::new(),
                watched_by: Vec::new(),
            })
    }
    for p in projects {
        // A bundled CRD is another project's definition shipped for installation.
        for crd in p
            .crds
            .iter()
            .filter(|c| c.area.is_component() && !c.bundled)
        {
            entry(&mut kinds, &crd.group, &crd.kind)
                .defined_by
                .push(p.name.clone());
        }
        for i in p
            .informers
            .iter()
            .filter(|i| i.area.is_component() && i.group != crate::model::UNRESOLVED)
        {
            entry(&mut kinds, &i.group, &i.kind)
                .watched_by
                .push(KindWatcher {
                    project: p.name.clone(),
                    controller: i.function.clone(),
                    relation: crate::model::Relation::Informer,
                });
        }
        for c in p.controllers.iter().filter(|c| c.area.is_component()) {
            for w in c.watches.iter().filter(|w| w.is_resolved()) {
                entry(&mut kinds, &w.group, &w.kind)
                    .watched_by
                    .push(KindWatcher {
                        project: p.name.clone(),
                        controller: c.name.clone(),
                        relation: w.relation,
                    });
            }
        }
    }
    let kinds = kinds
        .into_values()
        .map(|mut k| {
            k.defined_by.sort();
            k.defined_by.dedup();
            k.watched_by.sort();
            k.watched_by.dedup();
            k
        })
        .collect();
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
        assert_eq!(defined, vec![("Pool", &["scheduler".to_string()][..])]);
        assert_eq!(portal.projects[0].counts.crds, 1);
    }
}
