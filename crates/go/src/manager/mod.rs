//! controller-runtime managers and the options they are given: `ctrl.NewManager(cfg, opts)`
//! and `manager.New(cfg, opts)`, where `opts` is a literal, a local variable built from a
//! literal and then assigned field by field (`opts.Cache = …`,
//! `opts.Cache.ByObject[&corev1.Pod{}] = …`), or the result of a function of the
//! repository that returns options (a `cache.Options`, a `ctrl.Options`, …), followed into
//! nested options the same way.
//!
//! Per file, `extract` reads each `NewManager` call's options and each function whose first
//! result is an options type into `RawOptions`: one `RawSetting` per leaf the schema below
//! knows (`FIELDS`), with its value as written (`facts::binaries::RawValue`), the object or
//! namespace a map entry is for, the flag target it may be read from, and the condition it
//! is made under; a nested value made by a call is a `Splice`, resolved per project to the
//! function's own `RawOptions`. Per project, `resolve` evaluates values as flag defaults
//! are evaluated (`binaries::evaluate::Evaluator`), names the flag a value is read from (a
//! flag whose target is the same local, package variable, or field of the same struct
//! type), resolves objects to kinds (`GoIndex::resolve_object`), and attributes managers to
//! the programs that reach them and controllers to the one manager of their program.
//!
//! **Invariant:** nothing is guessed. A value portolan cannot evaluate is kept as the Go
//! expression (`ManagerOption::expr`); options that come from a parameter, an expression
//! it does not follow, or a variable whose address is handed to another function make the
//! cache's scope unknown (`Manager::cache_unknown`, with a diagnostic), and memory risks
//! that depend on it are then not reported.
//!
//! By job: `schema` (the options fields portolan reads), `extract` (per file), `resolve`
//! (per project).

mod extract;
mod resolve;
mod schema;

pub use extract::{clears_managed_fields, extract};
pub use resolve::resolve;
