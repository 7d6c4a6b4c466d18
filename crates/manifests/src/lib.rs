//! Declaration files: Kubernetes manifests and the files around them, in, model rows and
//! diagnostics out.
//!
//! Per file, `yaml::analyze` (manifests, Helm templates, values schemas), `build::analyze`
//! (Dockerfiles, Makefiles, goreleaser files), `deps` (go.mod, Cargo.toml) and
//! `proto::parse` (gRPC services, shared by the Go and Rust analyzers); per project,
//! `yaml::resolve` (Helm named templates and rendering, kustomizations, charts with their
//! values), `build::name_binaries` and `deps::assemble`. `merge::merge_identical` folds the
//! rows every analyzer finds in several files into one. Like every analyzer, it does no IO
//! and never fails on bad input.

pub mod build;
pub mod deps;
pub mod dockerfile;
pub mod helm;
pub mod images;
pub mod kustomize;
pub mod merge;
pub mod proto;
pub mod shell;
pub mod yaml;
