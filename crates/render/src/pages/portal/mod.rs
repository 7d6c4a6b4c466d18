//! The page types made once from every project, one module each.

pub mod changes;
pub mod content;
pub mod data;
pub mod home;
pub mod hosting;
pub mod kind_usage;
pub mod kinds;
pub mod not_found;
pub mod platform_architecture;
pub mod platform_cache;
pub mod platform_dependencies;
pub mod platform_kubernetes_apis;
pub mod platform_network;
pub mod platform_rbac;
pub mod platform_secrets;
pub mod search;
pub mod shared_kinds;
