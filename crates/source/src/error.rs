//! Why a source could not be had: git failing, a cache folder in the way, a content page
//! that cannot be published.
//!
//! Every message is whole on its own (it names the project, file, revision or folder and
//! says what to do where there is something to do); the underlying error, when there is
//! one, is also the variant's `source`.

use std::path::PathBuf;

use files::regular::ReadError;

/// What [`crate::prepare`], [`crate::git`] and [`crate::content`] report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `git` could not be started because it is not installed.
    #[error("the `git` command is not installed or not on PATH")]
    GitNotInstalled(#[source] std::io::Error),
    /// `git` could not be started for another reason.
    #[error("cannot run git: {0}")]
    GitNotRun(#[source] std::io::Error),
    /// git ran and failed: `reason` is the last line of its error output that is neither a
    /// hint nor a warning; `command` is portolan's own arguments (operands left out).
    #[error("{reason}")]
    Git { command: String, reason: String },

    /// A `path =` project whose folder is missing.
    #[error("project `{project}`: path {} does not exist or is not a folder", path.display())]
    NotAFolder { project: String, path: PathBuf },
    /// A `model =` project has no files to prepare.
    #[error("project `{project}` is a pre-analyzed model ({}), it has no source", path.display())]
    ModelHasNoSource { project: String, path: PathBuf },

    /// `--offline` and the project was never cloned.
    #[error(
        "project `{project}`: --offline and no clone in the cache: {} is missing: portolan clones a `git` project there on a run without --offline; without network, clone the repository wherever you can (`git clone URL DIR`) and point the project at it with `path = \"DIR\"` instead of `git`",
        dir.display()
    )]
    OfflineNoClone { project: String, dir: PathBuf },
    /// `--offline` and the clone in the cache is of another URL.
    #[error(
        "project `{project}`: --offline and the cached clone is of another URL: {} was cloned from {cloned_from}; run once without --offline to clone {url}",
        dir.display()
    )]
    OfflineOtherUrl {
        project: String,
        dir: PathBuf,
        /// Without credentials.
        cloned_from: String,
        url: String,
    },
    /// The cache folder holds something portolan did not make.
    #[error(
        "project `{project}`: cannot use the cache folder {}: {why}; portolan replaces only clones it made, so move or remove it",
        dir.display()
    )]
    ForeignCache {
        project: String,
        dir: PathBuf,
        why: String,
    },
    /// Cloning failed.
    #[error(
        "project `{project}`: cannot clone {url}: {source}\n  help: git runs with your configuration: check the network, a proxy (`https_proxy`, `git config http.proxy`) and credentials for this URL; or clone the repository yourself and use `path = \"../checkout\"` for the project instead of `git`"
    )]
    Clone {
        project: String,
        url: String,
        #[source]
        source: Box<Error>,
    },
    /// The configured revision could not be had.
    #[error("project `{project}`: {source}")]
    ProjectRevision {
        project: String,
        #[source]
        source: Box<Error>,
    },
    /// Checking out the revision failed.
    #[error("project `{project}`: cannot check out {commit}: {source}")]
    Checkout {
        project: String,
        commit: String,
        #[source]
        source: Box<Error>,
    },

    /// `--offline` and the revision is not in the clone.
    #[error(
        "--offline and revision `{rev}` is not in the cached clone: run once without --offline to fetch it"
    )]
    OfflineRevision { rev: String },
    /// Fetching the revision failed, or it names no commit.
    #[error("unknown revision `{rev}`: {source}")]
    UnknownRevision {
        rev: String,
        #[source]
        source: Box<Error>,
    },
    /// The revision names no commit of a local work tree.
    #[error(
        "unknown revision `{rev}` in {}: give a tag, branch or commit of that repository",
        work_tree.display()
    )]
    UnknownLocalRevision { rev: String, work_tree: PathBuf },
    /// `git checkout` into an export folder failed.
    #[error("cannot write the files of {commit}: {reason}")]
    Export { commit: String, reason: String },
    /// A filter driver whose name cannot be put on git's command line.
    #[error(
        "the repository's configuration defines a filter driver whose name portolan cannot switch off (`{name}`): its earlier revisions are not written out"
    )]
    FilterDriver { name: String },
    /// A file system operation on the cache failed: `doing` says which, naming the path.
    #[error("cannot {doing}: {source}")]
    Io {
        doing: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The content folder could not be listed.
    #[error("reading {}: {source}", dir.display())]
    ContentWalk {
        dir: PathBuf,
        #[source]
        source: ignore::Error,
    },
    /// A content file could not be read.
    #[error("{file}: {source}")]
    ContentRead {
        file: String,
        #[source]
        source: ReadError,
    },
    /// A content page is not UTF-8.
    #[error("{file}: not valid UTF-8")]
    ContentEncoding { file: String },
    /// A content file's name cannot be published: `problem` says why and what to do.
    #[error("{file}: {problem}")]
    ContentName { file: String, problem: String },
    /// A content page's front matter is invalid.
    #[error("{file}:{line}: front matter: {message}")]
    FrontMatter {
        file: String,
        line: usize,
        message: String,
    },
    /// Two content files make the same page.
    #[error("{file}: {one} and {other} are both the page /{page}; rename or remove one")]
    PageClash {
        file: String,
        one: String,
        other: String,
        page: String,
    },

    /// An include or exclude glob that the configuration should have refused.
    #[error("bad glob `{glob}`: {source}")]
    Glob {
        glob: String,
        #[source]
        source: globset::Error,
    },
    /// The globs, valid one by one, could not be compiled together.
    #[error("{0}")]
    GlobSet(#[source] globset::Error),
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
