//! What portolan knows about Kubernetes itself, apart from any repository: the API resource
//! names of the built-in kinds, the API versions Kubernetes deprecated and removed, the
//! release numbers they are compared against, and the spellings every stage shares (object
//! and role names, image references, Helm template actions, a CRD schema's field tree).

use std::fmt;

pub mod deprecations;
mod error;
pub mod go_packages;
pub mod helm;
pub mod image_reference;
pub mod names;
pub mod resources;
pub mod schema_tree;

pub use error::Error;

/// A Kubernetes minor version, `1.33`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct KubeVersion {
    pub major: u32,
    pub minor: u32,
}

impl KubeVersion {
    /// `1.33` (a `v` prefix and a patch number are accepted and the patch dropped).
    pub fn parse(text: &str) -> Option<KubeVersion> {
        let text = text.strip_prefix('v').unwrap_or(text);
        let mut parts = text.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        match parts.next() {
            Some(patch) if patch.parse::<u32>().is_err() => return None,
            _ => {}
        }
        parts
            .next()
            .is_none()
            .then_some(KubeVersion { major, minor })
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Whether a folder name is a Kubernetes API version (`v1`, `v1alpha2`, `v2beta1`).
pub fn is_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    if tail.is_empty() {
        return true;
    }
    ["alpha", "beta"].iter().any(|stage| {
        tail.strip_prefix(stage)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    })
}

#[cfg(test)]
mod tests;
