//! Why serve could not start, or why a rebuild failed (the last good site stays served).

use std::net::IpAddr;
use std::path::PathBuf;

/// What serve reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    #[error(transparent)]
    Pipeline(#[from] pipeline::Error),
    #[error(transparent)]
    Output(#[from] pipeline::output::Error),
    #[error(transparent)]
    Render(#[from] render::Error),
    #[error(transparent)]
    Search(#[from] search::Error),

    /// Projects failed and `--keep-going` was not given: each project's error.
    #[error(
        "{}\n({} project(s) failed; run with --keep-going to serve the site with error pages)",
        failed.join("\n"),
        failed.len()
    )]
    ProjectsFailed { failed: Vec<String> },
    /// A file of the site could not be written: `doing` says which, naming the path.
    #[error("cannot {doing}: {source}")]
    Write {
        doing: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The output folder cannot be resolved.
    #[error("{}: {source}", path.display())]
    OutputFolder {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The HTTP server's runtime could not be started.
    #[error("cannot start the server runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The address cannot be listened on (in use, not this machine's, not allowed).
    #[error("cannot listen on {bind}:{port}: {source}")]
    Listen {
        bind: IpAddr,
        port: u16,
        #[source]
        source: std::io::Error,
    },
    /// The address the listener was bound to cannot be read.
    #[error("cannot read the bound address: {0}")]
    Address(#[source] std::io::Error),
    /// The file watcher could not be started.
    #[error("cannot watch files: {0}")]
    Watcher(#[source] notify::Error),
    /// A folder or file could not be watched.
    #[error("cannot watch {}: {source}", path.display())]
    Watch {
        path: PathBuf,
        #[source]
        source: notify::Error,
    },
}

impl Error {
    /// A failed write of the site: `doing` names it with its path ("write /x").
    pub(crate) fn write(doing: String, path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Write {
            doing,
            path: path.into(),
            source,
        }
    }
}
