//! Informer watches outside controller builders: controller-runtime cache informers
//! (`GetInformer(ctx, obj)`), raw `source.Kind(cache, obj, …)` sources (e.g. given to
//! `controller.Watch`), client-go informer factories (`f.Core().V1().Pods().Informer()`),
//! and dynamic-client watches (`dyn.Resource(gvr)….Watch(…)`).
//!
//! An informer in a method of a controller's reconciler belongs to that controller (relation
//! `informer`); any other is listed per package. Unknown kinds: `?` and a diagnostic.
//!
//! By job: `extract` (per file: informers traced to their source), `resolve` (per project:
//! their kinds and the controllers they belong to).

mod extract;
mod resolve;

pub use extract::{collect_interface_methods, extract};
pub use resolve::{Feeders, Putters, Reaches, fed, resolve};

#[cfg(test)]
mod tests;
