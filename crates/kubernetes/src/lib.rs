//! What portolan knows about Kubernetes itself, apart from any repository: the API resource
//! names of the built-in kinds, the API versions Kubernetes deprecated and removed, and the
//! release numbers they are compared against.

use std::fmt;

pub mod deprecations;
mod error;
pub mod resources;

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
