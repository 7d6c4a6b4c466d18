//! Client writes ("Programmatic Resource Operations"): create, update, patch, delete,
//! delete_all_of, status_update, status_patch, create_or_update, create_or_patch, apply —
//! through controller-runtime's client, `controllerutil`, typed clientsets and the dynamic
//! client (of a constant GroupVersionResource).
//!
//! A call counts only when its receiver is shown to be a client (a parameter, variable or
//! field typed `client.Client`/`Writer`/…, a reconciler embedding one, `mgr.GetClient()`, a
//! typed clientset accessor chain, or client-go's dynamic client), never by method name
//! alone (a package-level variable of a client type, and controller-runtime's `client.New`,
//! count). A typed client's kind comes from its clientset's package (`values::Values`), never
//! from the accessor's name; a dynamic client's from its GroupVersionResource (`gvr`). The
//! object's kind comes from the type flow ARCHITECTURE.md states (declarations, branches,
//! type switches, slice elements, struct fields, function results, client-go's apply
//! configurations); writes through helpers whose object is a parameter
//! (`func create[T client.Object](…, obj T)`) are reported at the helpers' same-package call
//! sites with the argument's kind. Each write is attributed to every controller whose
//! `Reconcile` reaches it through the call graph, else to its package; an object that is
//! still a parameter gets its kind per controller from the arguments on that controller's
//! call paths (`calls::Graph::argument_flow`). Unknown kind: `?` and a diagnostic.
//!
//! By job: `clients` (client packages and types, read verbs), `extract` (per file),
//! `resolve` (per project).

mod clients;
mod extract;
mod resolve;

pub use extract::extract;
pub use resolve::{Writes, call_path, controller_reach, resolve};

#[cfg(test)]
mod tests;
