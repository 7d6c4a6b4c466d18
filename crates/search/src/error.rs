//! Why the search index could not be built, saved, opened, searched or exported.

use std::path::PathBuf;

/// An underlying error of any kind (tantivy's, the file system's), boxed.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// What the search crate reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// tantivy failed while the index was made.
    #[error("search index: {0}")]
    Index(#[source] tantivy::TantivyError),
    /// tantivy failed to merge the index's segments into one.
    #[error("search index: merging segments: {0}")]
    Merge(#[source] tantivy::TantivyError),
    /// An index on disk without a field this portolan needs (made by another version).
    #[error("the search index has no field `{field}`: rebuild it with `portolan build`")]
    MissingField { field: String },
    /// `save` of an index that was opened from disk.
    #[error("the search index was read from disk; nothing to save")]
    NothingToSave,
    /// Saving the index into `dir` failed at `doing`.
    #[error("{}: {doing}: {source}", dir.display())]
    Save {
        dir: PathBuf,
        doing: &'static str,
        #[source]
        source: Cause,
    },
    /// No index in `dir`, or one that cannot be read.
    #[error(
        "{}: cannot open the search index ({source}); run `portolan build` to make it",
        dir.display()
    )]
    Open {
        dir: PathBuf,
        #[source]
        source: tantivy::TantivyError,
    },
    /// tantivy failed while running a query.
    #[error("search: {0}")]
    Search(#[source] tantivy::TantivyError),
    /// A hit's stored fields could not be read.
    #[error("search: reading a result: {0}")]
    ReadResult(#[source] tantivy::TantivyError),
    /// Reading the index for the static export failed.
    #[error("search export: {0}")]
    Export(#[source] Cause),
    /// The export reads an index of one segment.
    #[error(
        "search export: the index has {count} segments, the export reads one (`index::Builder::finish` merges them)"
    )]
    Segments { count: usize },
    /// Document ids are 32-bit in the export.
    #[error("search export: more than 4 billion search documents")]
    TooManyDocuments,
    /// Two export files of different contents would have one name.
    #[error(
        "search export: two files share the name {name} (a 48-bit hash collision); change any page and build again"
    )]
    NameCollision { name: String },
    /// The sink refused an export file; its own error says why.
    #[error("{0}")]
    Sink(#[source] render::SinkError),
}
