//! Prometheus metrics the code registers.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

/// A metric: a Prometheus collector created with client_golang (`prometheus.New*`,
/// `promauto.New*`, `NewDesc`) or registered in Rust (prometheus_client, prometheus), or an
/// OpenTelemetry instrument (`meter.Int64Counter(name, …)`).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    /// The exposed name, `namespace_subsystem_name` as client_golang's `BuildFQName`
    /// joins it (for prometheus_client: prefix, name, unit and a counter's `_total`); a
    /// part that could not be resolved is shown as `?`.
    pub name: String,
    /// `counter`, `gauge`, `histogram`, `summary`, `untyped`, `info` (OpenTelemetry adds
    /// `updowncounter`); `?` when unknown.
    #[serde(rename = "type")]
    pub kind: String,
    /// The instrumentation API when it is not Prometheus': `opentelemetry`, whose
    /// instrument name is shown as written (an exporter derives the exposed name from it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api: String,
    pub help: String,
    /// True when `help` is source text that is not a string constant.
    #[serde(default, skip_serializing_if = "is_false")]
    pub help_expr: bool,
    /// Label names of a vector (`…Vec`) collector, in order.
    pub labels: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}
