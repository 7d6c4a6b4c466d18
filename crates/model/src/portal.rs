//! The whole portal (`Portal`): project summaries with their row counts and the
//! cross-project graph.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, Binary, KindEntry, Project, UnresolvedKind};

/// The whole portal: the content of `site/data/portal.json`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct Portal {
    pub schema_version: u32,
    pub title: String,
    pub projects: Vec<ProjectSummary>,
    pub kinds: Vec<KindEntry>,
    /// Kind mentions that could not be resolved to a group and kind, never guessed.
    #[serde(default)]
    pub unresolved_kinds: Vec<UnresolvedKind>,
    /// The cross-project graph, as boxes of kinds: A → box → B when A writes or defines the
    /// box's kinds and B watches them. Its size grows with the projects' own rows, never
    /// with pairs of projects: a kind every project shares is one box, not N² edges.
    #[serde(default)]
    pub connections: Vec<Connection>,
}

/// Kinds that the same projects write or define and the same other projects watch: one
/// box of the cross-project graph.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    pub kinds: Vec<ConnectionKind>,
    /// The projects that write, own or define (a CRD of their own, not a bundled copy)
    /// every kind of the box, each watched by another project of `to`.
    pub from: Vec<ConnectionEnd>,
    /// The projects that watch every kind of the box, each written or defined by another
    /// project of `from`.
    pub to: Vec<ConnectionEnd>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ConnectionKind {
    pub group: String,
    pub kind: String,
}

/// One project at one side of a box, with how it touches each of the box's kinds (the
/// same order as `Connection::kinds`), e.g. `defines; writes (create)` or `for, owns`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ConnectionEnd {
    pub project: String,
    pub how: Vec<String>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct ProjectSummary {
    pub name: String,
    pub title: String,
    pub description: String,
    pub repository: String,
    pub commit: String,
    pub counts: Counts,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The earlier revisions the project was compared with (`compare`), or tried to be:
    /// the project has a changes page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compared: Vec<String>,
}

/// Where a row is listed on the project's pages: among the project's own rows, under
/// "Samples and tooling", or under "Bundled" (another project's manifests shipped with
/// this one). Bundled takes precedence: a dependency's manifest is not the project's
/// sample either. `render::table::Router` and the dataflow page sort rows by this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Own,
    Samples,
    Bundled,
}

impl Place {
    pub fn of(area: Area, bundled: bool) -> Place {
        if bundled {
            Place::Bundled
        } else if area.is_component() {
            Place::Own
        } else {
            Place::Samples
        }
    }
}

/// How many rows a project's pages list. `own` (flattened into the JSON) counts the
/// project's own rows only (component, not bundled), exactly the rows of its own tables;
/// `samples` and `bundled` count the rows the pages list apart, in their trailing sections.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
pub struct Counts {
    #[serde(flatten)]
    pub own: Rows,
    /// Watches of the own controllers.
    pub watches: usize,
    /// Flag rows, summed over the own binaries and library flag sets.
    #[serde(default)]
    pub flags: usize,
    /// Distinct environment variable names the own binaries and packages read.
    #[serde(default)]
    pub env_vars: usize,
    pub diagnostics: usize,
    /// Rows from tests, docs, samples and tooling, listed apart ("Samples and tooling").
    #[serde(default)]
    pub samples: Rows,
    /// Rows of bundled dependency manifests, listed apart ("Bundled"). Only manifest rows
    /// can be bundled; controllers, endpoints, binaries and metrics can only be samples.
    #[serde(default)]
    pub bundled: Rows,
}

/// Rows of one place (`Place`) by what they are.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Rows {
    pub controllers: usize,
    /// Distinct kinds: a CRD shipped with different contents (full and minimal schema)
    /// counts once.
    pub crds: usize,
    pub webhooks: usize,
    pub http_endpoints: usize,
    pub services: usize,
    pub configmaps: usize,
    pub helm_charts: usize,
    pub rbac: usize,
    pub binaries: usize,
    pub metrics: usize,
}

impl Rows {
    pub fn add(&mut self, o: &Rows) {
        self.controllers += o.controllers;
        self.crds += o.crds;
        self.webhooks += o.webhooks;
        self.http_endpoints += o.http_endpoints;
        self.services += o.services;
        self.configmaps += o.configmaps;
        self.helm_charts += o.helm_charts;
        self.rbac += o.rbac;
        self.binaries += o.binaries;
        self.metrics += o.metrics;
    }
}

impl Counts {
    /// Adds another project's counts (the home page's totals).
    pub fn add(&mut self, c: &Counts) {
        self.own.add(&c.own);
        self.watches += c.watches;
        self.flags += c.flags;
        self.env_vars += c.env_vars;
        self.diagnostics += c.diagnostics;
        self.samples.add(&c.samples);
        self.bundled.add(&c.bundled);
    }

    pub fn of(p: &Project) -> Counts {
        use std::collections::BTreeSet;
        // Rows per place: `[own, samples, bundled]`.
        fn tally<T>(rows: &[T], place: impl Fn(&T) -> Place) -> [usize; 3] {
            let mut n = [0; 3];
            for r in rows {
                n[place(r) as usize] += 1;
            }
            n
        }
        let mut crd_kinds: [BTreeSet<(&str, &str)>; 3] = Default::default();
        for c in &p.findings.crds {
            crd_kinds[Place::of(c.area, c.bundled) as usize].insert((&c.group, &c.kind));
        }
        let crds = crd_kinds.map(|k| k.len());
        let controllers = tally(&p.findings.controllers, |c| Place::of(c.area, false));
        let webhooks = tally(&p.findings.webhooks, |w| Place::of(w.area, w.bundled));
        let endpoints = tally(&p.findings.http_endpoints, |e| Place::of(e.area, false));
        let services = tally(&p.findings.services, |s| Place::of(s.area, s.bundled));
        let configmaps = tally(&p.findings.configmaps, |c| Place::of(c.area, c.bundled));
        let charts = tally(&p.findings.helm_charts, |h| Place::of(h.area, false));
        let rbac = tally(&p.findings.rbac, |r| Place::of(r.area, r.bundled));
        let programs: Vec<&Binary> = p
            .findings
            .binaries
            .iter()
            .filter(|b| !b.is_package())
            .collect();
        let binaries = tally(&programs, |b| Place::of(b.area, false));
        let metrics = tally(&p.findings.metrics, |m| Place::of(m.area, false));
        let own_binaries = || p.findings.binaries.iter().filter(|b| b.area.is_component());
        let place = |i: usize| Rows {
            controllers: controllers[i],
            crds: crds[i],
            webhooks: webhooks[i],
            http_endpoints: endpoints[i],
            services: services[i],
            configmaps: configmaps[i],
            helm_charts: charts[i],
            rbac: rbac[i],
            binaries: binaries[i],
            metrics: metrics[i],
        };
        Counts {
            own: place(Place::Own as usize),
            watches: p
                .findings
                .controllers
                .iter()
                .filter(|c| c.area.is_component())
                .map(|c| c.watches.len())
                .sum(),
            flags: own_binaries().map(|b| b.flags.len()).sum(),
            env_vars: own_binaries()
                .flat_map(|b| b.env.iter().map(|e| e.name.as_str()))
                .collect::<BTreeSet<_>>()
                .len(),
            diagnostics: p.findings.diagnostics.len(),
            samples: place(Place::Samples as usize),
            bundled: place(Place::Bundled as usize),
        }
    }
}
