//! What changed in one project between two revisions: two models of it compared row by
//! row, in every category the pages show.
//!
//! Stage: after link (it reads models and the portal's kind index; nothing reads files).
//! **Invariant:** rows match by identity, never by line: a controller by its name, a watch
//! by controller, relation and kind, a flag by program and name, a CRD field by kind,
//! version and path (see each category in [`rows`]). A row whose only difference is its
//! line is unchanged; a row that moved to another file is changed ("moved"). Rows of
//! tests, docs and samples are not compared (they are not what a cluster runs).
//! CRD changes are classified (see `crd`): a breaking one names its consumers in the
//! portal (see `consumers`).

mod consumers;
mod crd;
pub mod format;
mod rows;

use serde::{Deserialize, Serialize};

use model::{KindEntry, Project, SourceRef};

/// One side of a comparison: the revision as asked for and the commit it names.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Revision {
    /// As given (`v0.18.1`, a branch, a commit), or the model file compared.
    pub rev: String,
    /// Empty when the model does not know its commit.
    pub commit: String,
}

/// The comparison of one project at two revisions.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ProjectDiff {
    pub project: String,
    pub from: Revision,
    pub to: Revision,
    /// The project's link template (`{commit}`, `{path}`, `{line}`), for links at both sides.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source_url: String,
    /// Breaking changes first, then by category and subject.
    pub changes: Vec<RowChange>,
    pub breaking: usize,
}

/// What happened to a row.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
}

impl ChangeKind {
    pub fn label(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
        }
    }
}

/// What a changed row is, in the order the output lists categories.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Crd,
    CrdVersion,
    CrdField,
    Controller,
    Watch,
    Read,
    Write,
    Webhook,
    Rbac,
    Route,
    Binary,
    Flag,
    Env,
    FeatureGate,
    Metric,
    Service,
    ServicePort,
    Workload,
    Container,
    DisruptionBudget,
    ConfigMap,
    HelmChart,
    HelmValue,
    ManagerOption,
    MemoryRisk,
    Image,
    Dependency,
}

impl Category {
    /// The heading of the category's section.
    pub fn title(self) -> &'static str {
        match self {
            Category::Crd => "CRDs",
            Category::CrdVersion => "CRD versions",
            Category::CrdField => "CRD schema fields",
            Category::Controller => "Controllers",
            Category::Watch => "Watches",
            Category::Read => "Reads",
            Category::Write => "Writes",
            Category::Webhook => "Webhooks",
            Category::Rbac => "RBAC rules",
            Category::Route => "HTTP routes",
            Category::Binary => "Programs",
            Category::Flag => "Flags",
            Category::Env => "Environment variables",
            Category::FeatureGate => "Feature gates",
            Category::Metric => "Metrics",
            Category::Service => "Services",
            Category::ServicePort => "Service ports",
            Category::Workload => "Workloads",
            Category::Container => "Containers",
            Category::DisruptionBudget => "PodDisruptionBudgets",
            Category::ManagerOption => "Manager options",
            Category::MemoryRisk => "Memory risks",
            Category::ConfigMap => "ConfigMaps",
            Category::HelmChart => "Helm charts",
            Category::HelmValue => "Helm values",
            Category::Image => "Images",
            Category::Dependency => "Dependencies",
        }
    }
}

/// A kind named by group and kind (a CRD's identity across its versions).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GroupKind {
    pub group: String,
    pub kind: String,
}

/// One row added, removed or changed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RowChange {
    pub category: Category,
    /// What the row is, by its identity: `flag --leader-elect (manager)`,
    /// `InferencePool v1 spec.selector`.
    pub subject: String,
    pub change: ChangeKind,
    /// What changed (`default: 8080 → 9090`), or what an added or removed row is.
    pub detail: String,
    /// Can break objects or clients written against the old revision (CRD changes only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub breaking: bool,
    /// For a CRD change: its kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<GroupKind>,
    /// For a controller's row (itself, a watch, read or write): the controller's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub controller: String,
    /// For a breaking CRD change: who else in the portal uses the kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consumers: Vec<Consumer>,
    /// Where the row is at the old revision (none for an added row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<SourceRef>,
    /// Where the row is at the new revision (none for a removed row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<SourceRef>,
}

/// A row of another project of the portal that uses a changed kind.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Consumer {
    pub project: String,
    /// `controller inferencepool`, `webhook vpool.example.io`, `package pkg/sync`.
    pub who: String,
    /// `watches (for)`, `reads (get)`, `writes (update, patch)`, `admits (CREATE, UPDATE)`.
    pub how: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceRef>,
}

/// Compares `old` with `new` (the same project at two revisions). `kinds` is the portal's
/// kind index, for the consumers of changed kinds; `project` is left out of them.
pub fn between(
    old: &Project,
    new: &Project,
    from: Revision,
    to: Revision,
    kinds: &[KindEntry],
    portal: &[Project],
) -> ProjectDiff {
    let mut changes = crd::changes(old, new);
    changes.extend(rows::changes(old, new));
    for c in changes.iter_mut().filter(|c| c.breaking) {
        if let Some(k) = &c.kind {
            c.consumers = consumers::of(k, &new.name, kinds, portal);
        }
    }
    changes.sort_by(|a, b| {
        (!a.breaking, a.category, &a.subject, a.change).cmp(&(
            !b.breaking,
            b.category,
            &b.subject,
            b.change,
        ))
    });
    let breaking = changes.iter().filter(|c| c.breaking).count();
    ProjectDiff {
        project: new.name.clone(),
        from,
        to,
        source_url: new.source_url.clone(),
        changes,
        breaking,
    }
}

impl ProjectDiff {
    /// The link to a row's line at the old or new side, when the project has a template.
    pub fn link(&self, at: &SourceRef, new_side: bool) -> Option<String> {
        let commit = if new_side {
            &self.to.commit
        } else {
            &self.from.commit
        };
        if commit.is_empty() {
            return None;
        }
        source::line_url(&self.source_url, commit, &at.file, at.line)
    }

    /// How many rows of each change kind: (added, removed, changed).
    pub fn tally(&self) -> (usize, usize, usize) {
        let count = |k: ChangeKind| self.changes.iter().filter(|c| c.change == k).count();
        (
            count(ChangeKind::Added),
            count(ChangeKind::Removed),
            count(ChangeKind::Changed),
        )
    }
}
