//! The cross-project kind index: for every kind (group + kind), per project, who defines it
//! (CRDs), watches it, writes it, admits it (webhook rules) and grants access to it (RBAC).
//!
//! Stage: link, called by `link::link`. A pure function of the projects.
//! **Invariant:** only resolved kinds become entries. A watch or write whose kind the
//! analyzer could not resolve, and a webhook or RBAC resource no known kind has as its
//! plural (see `resources`), is listed in the unresolved list instead, never guessed.
//! Watches, writes, webhooks and grants count only from the component itself (not from
//! samples, not from bundled manifests); definitions are all listed, marked by how.

use std::collections::BTreeMap;

use kubernetes::resources::ResourceNames;
use model::{
    KindDefinition, KindEntry, KindGrant, KindWatcher, KindWebhook, KindWriter, Project, Relation,
    SourceRef, UNRESOLVED, UnresolvedKind,
};

type Index = BTreeMap<(String, String), KindEntry>;

fn entry<'a>(kinds: &'a mut Index, group: &str, kind: &str) -> &'a mut KindEntry {
    kinds
        .entry((group.to_string(), kind.to_string()))
        .or_insert_with(|| KindEntry {
            group: group.to_string(),
            kind: kind.to_string(),
            defined_by: Vec::new(),
            defined_outside: kubernetes::go_packages::defined_outside(group),
            watched_by: Vec::new(),
            definitions: Vec::new(),
            written_by: Vec::new(),
            webhooks: Vec::new(),
            grants: Vec::new(),
        })
}

/// A resource of a webhook or RBAC rule: one group and one resource, as written.
struct RuleResource<'a> {
    group: &'a str,
    resource: &'a str,
}

impl RuleResource<'_> {
    fn is_wildcard(&self) -> bool {
        self.group == "*" || self.resource == "*" || self.resource.starts_with("*/")
    }

    /// Whether a wildcard rule covers an entry's kind.
    fn covers(&self, e: &KindEntry, names: &ResourceNames) -> bool {
        if self.group != "*" && self.group != e.group {
            return false;
        }
        let plural = self.resource.split('/').next().unwrap_or(self.resource);
        plural == "*" || names.plural_of(&e.group, &e.kind) == Some(plural)
    }
}

fn rule_resources<'a>(groups: &'a [String], resources: &'a [String]) -> Vec<RuleResource<'a>> {
    groups
        .iter()
        .flat_map(|g| {
            resources.iter().map(move |r| RuleResource {
                group: g.as_str(),
                resource: r.as_str(),
            })
        })
        .collect()
}

fn what(group: &str, resource: &str) -> String {
    if group.is_empty() {
        resource.to_string()
    } else {
        format!("{group}/{resource}")
    }
}

/// Builds the kind index and the list of unresolved kind mentions.
pub fn build(projects: &[Project]) -> (Vec<KindEntry>, Vec<UnresolvedKind>) {
    let mut index = Builder {
        names: ResourceNames::new(projects),
        kinds: Index::new(),
        unresolved: Vec::new(),
        wildcard_hooks: Vec::new(),
        wildcard_grants: Vec::new(),
    };
    for p in projects {
        index.definitions(p);
        index.controllers(p);
        index.informers(p);
        index.package_operations(p);
        index.webhooks(p);
        index.grants(p);
    }
    index.attach_wildcards();
    index.finish()
}

/// The index while it is built from the projects' rows.
struct Builder<'a> {
    names: ResourceNames,
    kinds: Index,
    unresolved: Vec<UnresolvedKind>,
    /// Rules with wildcards are attached once every named kind is in the index.
    wildcard_hooks: Vec<(RuleResource<'a>, KindWebhook)>,
    wildcard_grants: Vec<(RuleResource<'a>, KindGrant)>,
}

impl<'a> Builder<'a> {
    /// Every CRD, marked by how the project has it; the component's own also define the kind.
    fn definitions(&mut self, p: &Project) {
        for crd in &p.findings.crds {
            let how = if crd.bundled {
                "bundled"
            } else if !crd.area.is_component() {
                "samples"
            } else {
                "component"
            };
            let e = entry(&mut self.kinds, &crd.group, &crd.kind);
            if how == "component" {
                e.defined_by.push(p.name.clone());
            }
            e.definitions.push(KindDefinition {
                project: p.name.clone(),
                how: how.to_string(),
                sources: crd.sources.clone(),
            });
        }
    }

    /// The watches and writes of the component's controllers.
    fn controllers(&mut self, p: &Project) {
        for c in p
            .findings
            .controllers
            .iter()
            .filter(|c| c.area.is_component())
        {
            for w in &c.watches {
                if w.is_resolved() {
                    entry(&mut self.kinds, &w.group, &w.kind)
                        .watched_by
                        .push(KindWatcher {
                            project: p.name.clone(),
                            controller: c.name.clone(),
                            relation: w.relation,
                            package: String::new(),
                            sources: w.sources.clone(),
                        });
                } else {
                    self.unresolved.push(UnresolvedKind {
                        project: p.name.clone(),
                        usage: "watch".into(),
                        what: format!("{}.{}", w.import_path.as_deref().unwrap_or("?"), w.kind),
                        by: c.name.clone(),
                        sources: w.sources.clone(),
                    });
                }
            }
            for o in &c.operations {
                if o.group == UNRESOLVED {
                    self.unresolved.push(UnresolvedKind {
                        project: p.name.clone(),
                        usage: "write".into(),
                        what: format!("{} {}", o.verb, o.kind),
                        by: c.name.clone(),
                        sources: o.sources.clone(),
                    });
                    continue;
                }
                entry(&mut self.kinds, &o.group, &o.kind)
                    .written_by
                    .push(KindWriter {
                        project: p.name.clone(),
                        controller: c.name.clone(),
                        package: String::new(),
                        function: String::new(),
                        verb: o.verb,
                        sources: o.sources.clone(),
                    });
            }
        }
    }

    /// The component's informers outside controllers.
    fn informers(&mut self, p: &Project) {
        for i in p
            .findings
            .informers
            .iter()
            .filter(|i| i.area.is_component())
        {
            if i.group == UNRESOLVED {
                self.unresolved.push(UnresolvedKind {
                    project: p.name.clone(),
                    usage: "watch".into(),
                    what: i.kind.clone(),
                    by: format!("{}.{}", i.package, i.function),
                    sources: i.sources.clone(),
                });
                continue;
            }
            entry(&mut self.kinds, &i.group, &i.kind)
                .watched_by
                .push(KindWatcher {
                    project: p.name.clone(),
                    controller: i.function.clone(),
                    relation: Relation::Informer,
                    package: i.package.clone(),
                    sources: i.sources.clone(),
                });
        }
    }

    /// The component's client writes outside controllers.
    fn package_operations(&mut self, p: &Project) {
        for o in p
            .findings
            .package_operations
            .iter()
            .filter(|o| o.area.is_component())
        {
            if o.group == UNRESOLVED {
                self.unresolved.push(UnresolvedKind {
                    project: p.name.clone(),
                    usage: "write".into(),
                    what: format!("{} {}", o.verb, o.kind),
                    by: format!("{}.{}", o.package, o.function),
                    sources: o.sources.clone(),
                });
                continue;
            }
            entry(&mut self.kinds, &o.group, &o.kind)
                .written_by
                .push(KindWriter {
                    project: p.name.clone(),
                    controller: String::new(),
                    package: o.package.clone(),
                    function: o.function.clone(),
                    verb: o.verb,
                    sources: o.sources.clone(),
                });
        }
    }

    /// The component's webhooks: by the kind they serve in code, and by their rules.
    fn webhooks(&mut self, p: &'a Project) {
        for w in p
            .findings
            .webhooks
            .iter()
            .filter(|w| w.area.is_component() && !w.bundled)
        {
            let name = if w.name.is_empty() {
                w.path.clone()
            } else {
                w.name.clone()
            };
            if let Some(object) = &w.object {
                entry(&mut self.kinds, &object.group, &object.kind)
                    .webhooks
                    .push(KindWebhook {
                        project: p.name.clone(),
                        webhook: name.clone(),
                        webhook_type: w.kind,
                        operations: Vec::new(),
                        origin: w.origin,
                        sources: w.sources.clone(),
                    });
            }
            for rule in &w.rules {
                for r in rule_resources(&rule.groups, &rule.resources) {
                    let hook = KindWebhook {
                        project: p.name.clone(),
                        webhook: name.clone(),
                        webhook_type: w.kind,
                        operations: rule.operations.clone(),
                        origin: w.origin,
                        sources: w.sources.clone(),
                    };
                    if r.is_wildcard() {
                        self.wildcard_hooks.push((r, hook));
                    } else if let Some(kind) = self.names.kind_of(r.group, r.resource) {
                        entry(&mut self.kinds, r.group, kind).webhooks.push(hook);
                    } else {
                        self.unresolved.push(UnresolvedKind {
                            project: p.name.clone(),
                            usage: "webhook".into(),
                            what: what(r.group, r.resource),
                            by: name.clone(),
                            sources: w.sources.clone(),
                        });
                    }
                }
            }
        }
    }

    /// The component's RBAC rules.
    fn grants(&mut self, p: &'a Project) {
        for rule in p
            .findings
            .rbac
            .iter()
            .filter(|r| r.area.is_component() && !r.bundled)
        {
            for r in rule_resources(&rule.groups, &rule.resources) {
                let grant = KindGrant {
                    project: p.name.clone(),
                    role: rule.role.clone(),
                    resource: r.resource.to_string(),
                    verbs: rule.verbs.clone(),
                    wildcard: r.is_wildcard(),
                    origin: rule.origin,
                    sources: rule.sources.clone(),
                };
                if r.is_wildcard() {
                    self.wildcard_grants.push((r, grant));
                } else if let Some(kind) = self.names.kind_of(r.group, r.resource) {
                    entry(&mut self.kinds, r.group, kind).grants.push(grant);
                } else {
                    self.unresolved.push(UnresolvedKind {
                        project: p.name.clone(),
                        usage: "rbac".into(),
                        what: what(r.group, r.resource),
                        by: rule.role.clone(),
                        sources: rule.sources.clone(),
                    });
                }
            }
        }
    }

    /// The wildcard webhooks and grants, on every entry they cover.
    fn attach_wildcards(&mut self) {
        for e in self.kinds.values_mut() {
            for (r, hook) in &self.wildcard_hooks {
                if r.covers(e, &self.names) {
                    e.webhooks.push(hook.clone());
                }
            }
            for (r, grant) in &self.wildcard_grants {
                if r.covers(e, &self.names) {
                    e.grants.push(grant.clone());
                }
            }
        }
    }

    /// The entries and unresolved mentions, sorted, each row once.
    fn finish(self) -> (Vec<KindEntry>, Vec<UnresolvedKind>) {
        let kinds = self
            .kinds
            .into_values()
            .map(|mut k| {
                k.defined_by.sort();
                k.defined_by.dedup();
                k.watched_by.sort();
                k.watched_by.dedup();
                k.definitions =
                    merge_sources(k.definitions, |d| (d.project.clone(), d.how.clone()));
                k.written_by = merge_sources(k.written_by, |w| {
                    (
                        w.project.clone(),
                        w.controller.clone(),
                        w.package.clone(),
                        w.function.clone(),
                        w.verb,
                    )
                });
                k.webhooks.sort();
                k.webhooks.dedup();
                k.grants.sort();
                k.grants.dedup();
                k
            })
            .collect();
        let mut unresolved = self.unresolved;
        unresolved.sort();
        unresolved.dedup();
        (kinds, unresolved)
    }
}

/// Rows with sources whose key is equal become one row with all their sources.
trait Sourced {
    fn sources(&mut self) -> &mut Vec<SourceRef>;
}

impl Sourced for KindDefinition {
    fn sources(&mut self) -> &mut Vec<SourceRef> {
        &mut self.sources
    }
}

impl Sourced for KindWriter {
    fn sources(&mut self) -> &mut Vec<SourceRef> {
        &mut self.sources
    }
}

fn merge_sources<T: Sourced, K: Ord>(rows: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut merged: BTreeMap<K, T> = BTreeMap::new();
    for mut row in rows {
        match merged.get_mut(&key(&row)) {
            Some(existing) => {
                let sources = std::mem::take(row.sources());
                existing.sources().extend(sources);
            }
            None => {
                merged.insert(key(&row), row);
            }
        }
    }
    merged
        .into_values()
        .map(|mut row| {
            row.sources().sort();
            row.sources().dedup();
            row
        })
        .collect()
}

#[cfg(test)]
mod tests;
