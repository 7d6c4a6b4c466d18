//! controller-runtime managers, their options, and the memory risks found in them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, Gvk, SourceRef, is_false};

/// A controller-runtime manager: a `ctrl.NewManager(cfg, opts)` or `manager.New(cfg, opts)`
/// call, with the options it is given (a literal, a variable assigned field by field, or
/// what a function of the repository returns), one row per setting.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Manager {
    /// The import path of the package whose function creates the manager.
    pub package: String,
    /// That function (`main`, `NewDefaultManager`, `Runner.Run`).
    pub function: String,
    /// The main packages (import paths) whose programs are shown to reach the call; empty
    /// when no program is (see `Binary`: reachability is established, never assumed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binaries: Vec<String>,
    /// The settings, in the order the code makes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<ManagerOption>,
    /// Why the cache's scope is not known (its options come from an expression portolan
    /// does not follow, or the options value is handed to a function that may change it);
    /// empty when every setting of the options was read. Memory risks that depend on the
    /// scope are not reported for a manager whose scope is unknown.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cache_unknown: String,
    /// The controllers set up by the one program that creates this manager and no other
    /// (names, as in `Controller::name`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<String>,
    /// The workload containers it runs in and how they were matched to its program
    /// (`Deployment controller-manager, container manager (…)`), or why none was.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub deployment: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    /// The `NewManager` call.
    pub sources: Vec<SourceRef>,
}

/// One setting of a manager's options.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ManagerOption {
    /// The option's path in `manager.Options` with controller-runtime's field names
    /// (`LeaderElectionID`, `Metrics.BindAddress`, `Cache.ByObject.Label`,
    /// `Client.Cache.DisableFor`); the older top-level fields keep their own names
    /// (`MetricsBindAddress`, `Port`, `CertDir`, `Namespace`).
    pub name: String,
    /// The object a `Cache.ByObject` entry or a `DisableFor` item is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<Gvk>,
    /// The namespace a `DefaultNamespaces` or `ByObject.Namespaces` entry is for (empty
    /// for `cache.AllNamespaces`); evaluated like `value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The value: a constant evaluated (`:8080`, `true`, `10h0m0s`), a label or field
    /// selector built from constants (`app=web`), a kind, or, when `expr`, the Go
    /// expression as written.
    pub value: String,
    /// True when `value` (or `namespace`) is Go source text portolan could not evaluate.
    #[serde(default, skip_serializing_if = "is_false")]
    pub expr: bool,
    /// The command-line flag the value is read from, when it is a variable or field a
    /// flag is bound to; `value` is then the flag's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<OptionFlag>,
    /// The condition the setting is made under (`if cfg.leaderElect {…}`); empty when
    /// it is always made.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub condition: String,
    pub sources: Vec<SourceRef>,
}

/// The flag a manager setting comes from: its name and default as `--help` shows them.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct OptionFlag {
    pub name: String,
    pub default: String,
    pub sources: Vec<SourceRef>,
}

/// What a memory risk is about.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
pub enum MemoryRiskType {
    /// A kind that is large in real clusters is watched cluster-wide: the manager's cache
    /// restricts it by no namespace, label or field.
    ClusterWideKind,
    /// No cache transform strips `managedFields` from cached objects.
    NoTransform,
    /// The manager's container has no memory limit.
    NoMemoryLimit,
    /// The manager's container sets no `GOMEMLIMIT`.
    NoGoMemLimit,
    /// An informer started outside the manager's cache.
    InformerOutsideCache,
}

impl MemoryRiskType {
    pub fn label(&self) -> &'static str {
        match self {
            MemoryRiskType::ClusterWideKind => "Cluster-wide cache of a large kind",
            MemoryRiskType::NoTransform => "managedFields kept in the cache",
            MemoryRiskType::NoMemoryLimit => "No memory limit",
            MemoryRiskType::NoGoMemLimit => "No GOMEMLIMIT",
            MemoryRiskType::InformerOutsideCache => "Informer outside the manager's cache",
        }
    }
}

/// A finding about a manager's memory use, with the rows that show it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct MemoryRisk {
    #[serde(rename = "type")]
    pub risk: MemoryRiskType,
    /// The manager it concerns (its `NewManager` call); none for an informer no manager's
    /// program is shown to run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manager: Option<SourceRef>,
    /// The kind cached or informed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Gvk>,
    /// The controllers whose watches make the cache hold the kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<String>,
    /// What was found, in a sentence.
    pub message: String,
    /// The rows that show it: watches, the options, the Deployment's container, the
    /// informer.
    pub evidence: Vec<SourceRef>,
}
