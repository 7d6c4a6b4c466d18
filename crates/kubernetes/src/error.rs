//! Why the built-in deprecation table could not be read (a unit test keeps it valid).

/// What reading `deprecations.toml` reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The table is not TOML of the expected shape.
    #[error("{0}")]
    Toml(#[from] toml::de::Error),
    /// A `deprecated` or `removed` value is not a Kubernetes release.
    #[error("`{text}` is not a version")]
    Version { text: String },
}
