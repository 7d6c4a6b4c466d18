//! Objects read from Kubernetes manifests, Helm charts and kustomizations (RBAC objects are
//! in `rbac`, CRDs in `apis`, webhook configurations in `webhooks`).

mod config;
mod helm;
mod kustomize;
mod services;
mod workloads;

pub use config::*;
pub use helm::*;
pub use kustomize::*;
pub use services::*;
pub use workloads::*;
