//! Prometheus metrics in Rust: the `prometheus_client` crate (`registry.register(name, help,
//! metric)`, `register_with_unit`, sub-registries) and the `prometheus` crate
//! (`register_int_counter!(…)` and the other `register_*!` macros, `IntCounterVec::new(
//! Opts::new(…), &[…])` and the other constructors).
//!
//! prometheus_client: a metric's name is the registry's prefix (`Registry::with_prefix`,
//! each `sub_registry_with_prefix` adding `_part`), the registered name, the unit, and for
//! counters `_total`, as the crate's encoder writes the sample. Its type is read from the
//! registered value: a constructor (`Counter::default()`, `Family::<L, Histogram>::new_with_
//! constructor(…)`), a local made by one or declared with its type, or a struct field whose
//! type says it (every field of that name in the project must agree). A `Family`'s labels
//! are the fields of its label struct (`#[derive(EncodeLabelSet)]`, in the project). A
//! registry passed in as a parameter gets its prefix from the call sites that pass one
//! (`T::register(reg.sub_registry_with_prefix("p"))`, followed up to `MAX_CALLERS` levels;
//! each call site is one metric), matched to the function by name, `impl` type and module
//! path. Whatever cannot be established is `?` with a diagnostic.
//!
//! prometheus: names are `namespace_subsystem_name` joined as the crate's `Opts` does, with
//! no suffix added. Macros are read wherever they are, inside `lazy_static!` too (their
//! tokens are searched, after the same nesting guard as files: `syntax::too_deep`).
//!
//! By job: `facts` (the per-file data), `extract` (the per-file visitor), `exprs` (reading
//! types, units, options and labels from syntax), `resolve` (per project).

mod exprs;
mod extract;
mod facts;
mod resolve;

pub use extract::extract;
pub use facts::MetricFacts;
pub use resolve::resolve;

#[cfg(test)]
mod tests;
