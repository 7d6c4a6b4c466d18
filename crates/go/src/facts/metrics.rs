//! Per-file facts of Prometheus metrics (`metrics`): collector registrations with their
//! options and labels as written.

use super::binaries::RawValue;
use crate::consts::ConstExpr;

/// The name parts and help of a collector's options.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawOpts {
    /// None when the field is absent (an empty part).
    pub namespace: Option<RawValue>,
    pub subsystem: Option<RawValue>,
    pub name: Option<RawValue>,
    pub help: Option<RawValue>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OptsSource {
    Literal(Box<RawOpts>),
    /// A package-level variable holding the options: `pkg.Name` or `Name`.
    Var(Option<String>, String),
    Unknown(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum LabelPart {
    Str(ConstExpr),
    /// A package-level `[]string` variable spread into the labels.
    List(Option<String>, String),
    Other(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawMetric {
    pub line: u32,
    /// `counter`, `gauge`, `histogram`, `summary`, `untyped`; empty for `NewDesc`.
    pub kind: String,
    pub opts: OptsSource,
    /// The label names of a vector (`…Vec`, `NewDesc`); None otherwise.
    pub labels: Option<Vec<LabelPart>>,
    /// The package-level variable a `NewDesc` is assigned to.
    pub desc_var: Option<String>,
    /// An OpenTelemetry instrument, not a Prometheus collector.
    pub otel: bool,
}

/// What one file contributes to metrics.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MetricFacts {
    pub metrics: Vec<RawMetric>,
    /// Package-level `var x = prometheus.CounterOpts{…}`.
    pub opts_vars: Vec<(String, RawOpts)>,
    /// Package-level `var x = []string{…}` (or `append(…)`).
    pub label_lists: Vec<(String, Vec<LabelPart>)>,
    /// (descriptor variable, metric type) from `MustNewConstMetric(desc, prometheus.GaugeValue, …)`.
    pub desc_types: Vec<(String, String)>,
}
