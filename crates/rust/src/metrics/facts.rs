//! What one Rust file says about metrics, as written: registrations with the registry
//! they go to, registry calls between functions, `prometheus` descriptors and collectors.

use model::{Diagnostic, Metric};

/// Where a registry comes from, and the prefixes added to it since.
#[derive(Debug, Clone, PartialEq)]
pub struct RegRef {
    pub base: RegBase,
    pub prefixes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RegBase {
    /// `Registry::default()`, `Registry::with_prefix("p")` (its prefix is in `prefixes`).
    Root,
    /// The function's registry parameter with this index (receiver not counted).
    Param(usize),
    /// Something not followed (a field, a function result): its source text.
    Unknown(String),
}

/// What type a registered metric is.
#[derive(Debug, Clone, PartialEq)]
pub enum RawType {
    Known {
        kind: &'static str,
        /// The label struct of a `Family`, or why its labels are not known.
        labels: Option<Result<String, String>>,
    },
    /// `x.field`: read from the struct fields of that name.
    Field(String),
    Unknown(String),
}

/// One `register` / `register_with_unit` call of prometheus_client.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRegistration {
    pub function: usize,
    pub line: u32,
    /// The name, or its source text when it is not a string literal.
    pub name: Result<String, String>,
    pub help: Result<String, String>,
    pub unit: Option<Result<String, String>>,
    pub registry: RegRef,
    pub metric: RawType,
}

/// A call that passes a registry on: `T::register(reg.sub_registry_with_prefix("p"))`.
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryCall {
    pub function: usize,
    pub line: u32,
    pub callee: FnKey,
    /// Module path segments written before the callee (`grpc::metrics::T::f` → grpc, metrics).
    pub modules: Vec<String>,
    pub arg: usize,
    pub registry: RegRef,
}

/// A metric a custom collector describes: `encoder.encode_descriptor(name, help, unit,
/// MetricType::Gauge)` in `impl Collector for T`.
#[derive(Debug, Clone, PartialEq)]
pub struct RawDescriptor {
    /// The collector type `T`.
    pub owner: String,
    pub line: u32,
    pub name: Result<String, String>,
    pub help: Result<String, String>,
    pub unit: Option<Result<String, String>>,
    pub kind: Result<&'static str, String>,
    /// The local the descriptor's encoder is kept in, for its `encode_family(&labels)`.
    pub var: Option<String>,
    /// Label names from `encode_family`: `None` when it is never called (no labels),
    /// `Some(Err(_))` when its labels cannot be read.
    pub labels: Option<Result<Vec<String>, String>>,
}

/// `reg.register_collector(Box::new(T(…)))`: the collector type registered on a registry.
#[derive(Debug, Clone, PartialEq)]
pub struct RawCollector {
    pub function: usize,
    pub line: u32,
    pub registry: RegRef,
    pub collector: Result<String, String>,
}

/// A function by its `impl` type (if a method or associated function) and name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FnKey {
    pub owner: Option<String>,
    pub name: String,
}

/// What one file contributes to metrics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricFacts {
    pub functions: Vec<FnKey>,
    pub registrations: Vec<RawRegistration>,
    pub calls: Vec<RegistryCall>,
    /// `#[derive(EncodeLabelSet)]` structs: name and field names (`None`: a field is
    /// flattened or the struct is not a plain one).
    pub label_sets: Vec<(String, Option<Vec<String>>)>,
    /// (field name, type) of struct fields of a metric type.
    pub fields: Vec<(String, RawType)>,
    /// Metrics of the `prometheus` crate, complete per file.
    pub classic: Vec<Metric>,
    /// `encoder.encode_descriptor(…)` in `impl Collector for T`.
    pub descriptors: Vec<RawDescriptor>,
    /// `reg.register_collector(Box::new(T(…)))`.
    pub collectors: Vec<RawCollector>,
    pub diagnostics: Vec<Diagnostic>,
}
