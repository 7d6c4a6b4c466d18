//! Which output portolan may replace: the policy, as a pure function of the output's real
//! path, what is there now, and the folders that must never be replaced.
//!
//! Replacing the output deletes what was there, so it is allowed only when nothing of the
//! user's can be lost: the output is absent, an empty folder, or a site portolan wrote (it
//! holds the [`MARKER`](super::MARKER) file). Whatever the marker says, the output may not
//! be, or contain, a protected folder (`/`, `$HOME`, the folder of projects.toml, a
//! project, the content, theme or cache folder): a marker copied into the wrong place must
//! not be enough to delete a repository.

use std::fmt;
use std::path::{Path, PathBuf};

/// What is at the output path now.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    Absent,
    EmptyFolder,
    /// A folder holding portolan's marker file.
    Site,
    /// A folder with something in it and no marker.
    Folder,
    /// A regular file (or a symbolic link to one).
    File,
    /// Anything else: a dangling symbolic link, a FIFO, a device, or what could not be
    /// inspected, described.
    Other(String),
}

/// A folder or file the output must never be or contain (paths are real paths).
#[derive(Debug, Clone, PartialEq)]
pub struct Protected {
    /// What it is, for the message: "the folder of projects.toml", "project `x`'s folder".
    pub what: String,
    pub path: PathBuf,
}

/// Why the output may not be replaced. Nothing has been touched when this is returned.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The output, as the user named it.
    pub path: PathBuf,
    pub reason: String,
    pub help: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "refusing to write the site to {}: {}\n  help: {}",
            self.path.display(),
            self.reason,
            self.help
        )
    }
}

impl std::error::Error for Refusal {}

const CHOOSE: &str = "choose another --out (or site.output in projects.toml), such as a new folder `site` next to projects.toml";

/// Decides whether the output at real path `real` (shown as `shown`), where `found` is,
/// may be replaced. Protected folders are checked first, whatever `found` says.
pub fn decide(
    shown: &Path,
    real: &Path,
    found: &Found,
    protected: &[Protected],
) -> Result<(), Refusal> {
    let refuse = |reason: String, help: &str| {
        Err(Refusal {
            path: shown.to_path_buf(),
            reason,
            help: help.to_string(),
        })
    };
    for p in protected {
        if p.path == real {
            return refuse(
                format!("it is {}, which portolan never replaces", p.what),
                CHOOSE,
            );
        }
        if p.path.starts_with(real) {
            return refuse(
                format!(
                    "it contains {} ({}), which replacing it would delete",
                    p.what,
                    p.path.display()
                ),
                CHOOSE,
            );
        }
    }
    match found {
        Found::Absent | Found::EmptyFolder | Found::Site => Ok(()),
        Found::File => refuse(
            "it is a file, and portolan never replaces a file with a site".into(),
            "choose a folder for --out (or site.output), such as `site`",
        ),
        Found::Folder => refuse(
            format!(
                "it is a folder that portolan did not write (not empty, and no {} file in it)",
                super::MARKER
            ),
            &format!(
                "{CHOOSE}; or, if nothing in it is needed (a site an earlier portolan wrote, for example), remove it yourself"
            ),
        ),
        Found::Other(what) => refuse(format!("it is {what}"), CHOOSE),
    }
}

#[cfg(test)]
mod tests;
