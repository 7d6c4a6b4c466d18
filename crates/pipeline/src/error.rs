//! Why a build, an analysis or a comparison stopped. A project that fails on its own
//! (its source cannot be had, its model cannot be read) does not stop anything: it carries
//! its error as text in its model (`model::Project::error`) and the commands report it.

use std::path::PathBuf;

use files::regular::ReadError;

/// What the pipeline reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Source(#[from] source::Error),
    #[error(transparent)]
    Render(#[from] render::Error),
    #[error(transparent)]
    Search(#[from] search::Error),
    #[error(transparent)]
    Output(#[from] crate::output::Error),

    /// The analysis's thread pool could not be started.
    #[error("cannot start worker threads: {0}")]
    Pool(#[source] rayon::ThreadPoolBuildError),
    /// A file system operation failed: `doing` says which, naming the path.
    #[error("cannot {doing}: {source}")]
    Io {
        doing: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A path given on the command line cannot be resolved.
    #[error("{}: {source}", path.display())]
    Path {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `analyze --parse-only` of something other than a folder.
    #[error("{} is not a folder", path.display())]
    NotAFolder { path: PathBuf },

    /// A model file that cannot be read; `help` says what `model =` must name, when that
    /// is the likely mistake.
    #[error("model {}: {source}{help}", path.display())]
    ModelRead {
        path: PathBuf,
        #[source]
        source: ReadError,
        help: &'static str,
    },
    /// A model file of another schema version.
    #[error(
        "model {} has schema_version {found}, this portolan reads {}; re-run `portolan analyze`",
        path.display(),
        model::SCHEMA_VERSION
    )]
    ModelVersion { path: PathBuf, found: u32 },
    /// A file that is not a model.
    #[error(
        "model {} is not a portolan model: {source} (line {}, column {})",
        path.display(),
        source.line(),
        source.column()
    )]
    ModelJson {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },

    /// The one project analyzed failed: its error as its model records it.
    #[error("{0}")]
    ProjectFailed(String),
    /// The analysis returned no project (a bug).
    #[error("no project analyzed")]
    NothingAnalyzed,
    /// The analysis of a whole configuration left out the project compared (a bug).
    #[error("the project was not analyzed")]
    NotAnalyzed,
    /// `diff PROJECT` names no project of the configuration.
    #[error(
        "there is no project `{name}` in {}; its projects are: {}",
        file.display(),
        known.join(", ")
    )]
    UnknownProject {
        name: String,
        file: PathBuf,
        known: Vec<String>,
    },

    /// A project at another revision could not be had: `source` says why.
    #[error("project `{project}` at `{rev}`: {source}")]
    Revision {
        project: String,
        rev: String,
        #[source]
        source: Box<Error>,
    },
    /// A revision that git must not be given.
    #[error("`{rev}` is not a branch, tag or commit id: {why}")]
    BadRevision { rev: String, why: String },
    /// A `path =` project that is not a git work tree has no other revisions.
    #[error("{} is not the top of a git work tree, so it has no other revisions", path.display())]
    NotAWorkTree { path: PathBuf },
    /// A `model =` project has no other revisions.
    #[error(
        "its source is the model {}, which has no other revisions; compare two models with `portolan diff --from-model OLD.json --to-model NEW.json`",
        path.display()
    )]
    ModelHasNoRevisions { path: PathBuf },
    /// The files of a revision could not be written out.
    #[error("project `{project}` at {commit}: {source}")]
    Export {
        project: String,
        commit: String,
        #[source]
        source: Box<source::Error>,
    },
}

impl Error {
    /// A failed file system operation: `doing` names it with its path ("create /x").
    pub(crate) fn io(doing: String, path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            doing,
            path: path.into(),
            source,
        }
    }
}
