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
                        verb: o.verb.clone(),
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
                    verb: o.verb.clone(),
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
                        w.verb.clone(),
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
mod tests {
    use super::*;
    use model::{
        Area, Controller, Crd, Gvk, Operation, Origin, PackageOperation, RbacRule, Watch, Webhook,
        WebhookRule, WebhookType,
    };

    fn src(file: &str, line: u32) -> Vec<SourceRef> {
        vec![SourceRef::new(file, line)]
    }

    fn operator() -> Project {
        Project {
            name: "operator".into(),
            findings: model::Findings {
                crds: vec![Crd {
                    group: "pools.io".into(),
                    kind: "Pool".into(),
                    plural: "pools".into(),
                    sources: src("config/crd/pools.yaml", 3),
                    ..Crd::default()
                }],
                controllers: vec![Controller {
                    conditions: Vec::new(),
                    reads: Vec::new(),
                    name: "server".into(),
                    reconciler: "ServerReconciler".into(),
                    area: Area::Component,
                    sources: Vec::new(),
                    watches: Vec::new(),
                    operations: vec![
                        Operation {
                            via: Vec::new(),
                            condition: String::new(),
                            verb: "create".into(),
                            group: "pools.io".into(),
                            version: "v1".into(),
                            kind: "Pool".into(),
                            sources: src("server.go", 40),
                        },
                        Operation {
                            via: Vec::new(),
                            condition: String::new(),
                            verb: "create".into(),
                            group: "pools.io".into(),
                            version: "v1".into(),
                            kind: "Pool".into(),
                            sources: src("server.go", 12),
                        },
                        Operation {
                            via: Vec::new(),
                            condition: String::new(),
                            verb: "delete".into(),
                            group: UNRESOLVED.into(),
                            version: String::new(),
                            kind: "Thing".into(),
                            sources: src("server.go", 50),
                        },
                    ],
                }],
                package_operations: vec![PackageOperation {
                    package: "pkg/pools".into(),
                    function: "Ensure".into(),
                    verb: "patch".into(),
                    group: "pools.io".into(),
                    version: "v1".into(),
                    kind: "Pool".into(),
                    area: Area::Component,
                    sources: src("pkg/pools/ensure.go", 7),
                }],
                webhooks: vec![Webhook {
                    name: "vpool.pools.io".into(),
                    kind: WebhookType::Validating,
                    path: "/validate".into(),
                    failure_policy: "Fail".into(),
                    service: String::new(),
                    configuration: "vcfg".into(),
                    origin: Origin::Manifest,
                    object: None,
                    rules: vec![WebhookRule {
                        operations: vec!["CREATE".into()],
                        groups: vec!["pools.io".into()],
                        versions: vec!["v1".into()],
                        resources: vec!["pools".into(), "gizmos".into()],
                        scope: String::new(),
                    }],
                    resolved_service: String::new(),
                    substitutions: Vec::new(),
                    templated: false,
                    bundled: false,
                    area: Area::Component,
                    sources: src("config/webhook.yaml", 9),
                }],
                rbac: vec![
                    RbacRule {
                        role: "ClusterRole/manager".into(),
                        groups: vec!["pools.io".into()],
                        resources: vec!["pools/status".into()],
                        resource_names: Vec::new(),
                        verbs: vec!["update".into()],
                        origin: Origin::Marker,
                        templated: false,
                        bundled: false,
                        area: Area::Component,
                        sources: src("server.go", 5),
                    },
                    RbacRule {
                        role: "ClusterRole/admin".into(),
                        groups: vec!["pools.io".into()],
                        resources: vec!["*".into()],
                        resource_names: Vec::new(),
                        verbs: vec!["*".into()],
                        origin: Origin::Manifest,
                        templated: false,
                        bundled: false,
                        area: Area::Component,
                        sources: src("config/admin.yaml", 8),
                    },
                ],
                ..Default::default()
            },
            ..Project::default()
        }
    }

    fn scheduler() -> Project {
        Project {
            name: "scheduler".into(),
            findings: model::Findings {
                crds: vec![Crd {
                    group: "pools.io".into(),
                    kind: "Pool".into(),
                    plural: "pools".into(),
                    bundled: true,
                    sources: src("deploy/crds.yaml", 1),
                    ..Crd::default()
                }],
                controllers: vec![Controller {
                    conditions: Vec::new(),
                    reads: Vec::new(),
                    name: "pool".into(),
                    reconciler: "PoolReconciler".into(),
                    area: Area::Component,
                    sources: Vec::new(),
                    watches: vec![Watch {
                        condition: String::new(),
                        relation: Relation::For,
                        group: "pools.io".into(),
                        version: "v1".into(),
                        kind: "Pool".into(),
                        conditional: false,
                        import_path: None,
                        raw_source: false,
                        sources: src("pool.go", 20),
                    }],
                    operations: Vec::new(),
                }],
                webhooks: vec![Webhook {
                    name: String::new(),
                    kind: WebhookType::Mutating,
                    path: "/mutate-pool".into(),
                    failure_policy: String::new(),
                    service: String::new(),
                    configuration: String::new(),
                    origin: Origin::Code,
                    object: Some(Gvk {
                        group: "pools.io".into(),
                        version: "v1".into(),
                        kind: "Pool".into(),
                    }),
                    rules: Vec::new(),
                    resolved_service: String::new(),
                    substitutions: Vec::new(),
                    templated: false,
                    bundled: false,
                    area: Area::Component,
                    sources: src("hook.go", 3),
                }],
                ..Default::default()
            },
            ..Project::default()
        }
    }

    #[test]
    fn every_way_a_project_touches_a_kind_is_indexed() {
        let (kinds, unresolved) = build(&[operator(), scheduler()]);
        assert_eq!(kinds.len(), 1);
        let pool = &kinds[0];
        assert_eq!(
            (pool.group.as_str(), pool.kind.as_str()),
            ("pools.io", "Pool")
        );
        assert_eq!(pool.defined_by, vec!["operator".to_string()]);
        // `pools.io` is in no table of portolan's: nobody outside is named.
        assert_eq!(pool.defined_outside, None);
        assert_eq!(
            pool.definitions,
            vec![
                KindDefinition {
                    project: "operator".into(),
                    how: "component".into(),
                    sources: src("config/crd/pools.yaml", 3),
                },
                KindDefinition {
                    project: "scheduler".into(),
                    how: "bundled".into(),
                    sources: src("deploy/crds.yaml", 1),
                },
            ]
        );
        assert_eq!(
            pool.watched_by,
            vec![KindWatcher {
                project: "scheduler".into(),
                controller: "pool".into(),
                relation: Relation::For,
                package: String::new(),
                sources: src("pool.go", 20),
            }]
        );
        assert_eq!(
            pool.written_by,
            vec![
                KindWriter {
                    project: "operator".into(),
                    controller: String::new(),
                    package: "pkg/pools".into(),
                    function: "Ensure".into(),
                    verb: "patch".into(),
                    sources: src("pkg/pools/ensure.go", 7),
                },
                // Two creates by one controller: one row, both lines.
                KindWriter {
                    project: "operator".into(),
                    controller: "server".into(),
                    package: String::new(),
                    function: String::new(),
                    verb: "create".into(),
                    sources: vec![
                        SourceRef::new("server.go", 12),
                        SourceRef::new("server.go", 40)
                    ],
                },
            ]
        );
        assert_eq!(
            pool.webhooks,
            vec![
                KindWebhook {
                    project: "operator".into(),
                    webhook: "vpool.pools.io".into(),
                    webhook_type: WebhookType::Validating,
                    operations: vec!["CREATE".into()],
                    origin: Origin::Manifest,
                    sources: src("config/webhook.yaml", 9),
                },
                KindWebhook {
                    project: "scheduler".into(),
                    webhook: "/mutate-pool".into(),
                    webhook_type: WebhookType::Mutating,
                    operations: Vec::new(),
                    origin: Origin::Code,
                    sources: src("hook.go", 3),
                },
            ]
        );
        assert_eq!(
            pool.grants,
            vec![
                KindGrant {
                    project: "operator".into(),
                    role: "ClusterRole/admin".into(),
                    resource: "*".into(),
                    verbs: vec!["*".into()],
                    wildcard: true,
                    origin: Origin::Manifest,
                    sources: src("config/admin.yaml", 8),
                },
                KindGrant {
                    project: "operator".into(),
                    role: "ClusterRole/manager".into(),
                    resource: "pools/status".into(),
                    verbs: vec!["update".into()],
                    wildcard: false,
                    origin: Origin::Marker,
                    sources: src("server.go", 5),
                },
            ]
        );
        // `gizmos` is no known plural and the deleted Thing has no group: never guessed.
        assert_eq!(
            unresolved,
            vec![
                UnresolvedKind {
                    project: "operator".into(),
                    usage: "webhook".into(),
                    what: "pools.io/gizmos".into(),
                    by: "vpool.pools.io".into(),
                    sources: src("config/webhook.yaml", 9),
                },
                UnresolvedKind {
                    project: "operator".into(),
                    usage: "write".into(),
                    what: "delete Thing".into(),
                    by: "server".into(),
                    sources: src("server.go", 50),
                },
            ]
        );
    }
}
