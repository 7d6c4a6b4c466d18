//! HTTP routes: the endpoints a Go program serves, from net/http, gorilla/mux, gin, echo,
//! chi and controller-runtime registrations.
//!
//! Per file (`extract`): every call that might register a route is recorded as a `Chain`
//! (`facts::routes`: where its receiver comes from, and the method calls applied to it),
//! together with the evidence needed to tell what a receiver is: struct fields and
//! package-level variables assigned from constructors or declared with router types,
//! function result types, and call sites that pass a router to another function.
//!
//! Per project (`resolve`): each receiver is evaluated to what it is (the `http` package, a
//! `*http.ServeMux`, a gin group with its prefix, a controller-runtime manager, …) from that
//! evidence only. A string passed to something that is not established to be a router is
//! never a route, whatever the method is called. Paths are evaluated with
//! `GoIndex::eval`; a path that cannot be evaluated is kept as written, marked unresolved,
//! with a diagnostic.
//!
//! **Invariant:** no recursion over syntax trees. The per-project evaluation recurses over
//! the recorded evidence (a variable assigned from a function parameter whose callers pass
//! a group, …) with a fixed depth limit.

mod eval;
mod extract;
pub mod grpc;
mod helpers;
mod pattern;

pub use eval::resolve;
pub use extract::{extract, extract_top_level};
