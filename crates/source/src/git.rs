//! Git sources through the `git` CLI, so users' credentials, proxies and config apply.
//!
//! A project is cloned once into `cache_dir/repos/NAME` as a partial clone (blobs on demand),
//! and checked out detached at the pinned revision. The network is touched only when the
//! clone is missing or the revision is not in it, and never with `--offline`.
//!
//! The clone records the URL it came from (`.git/portolan-origin`); when a project's `git =`
//! changes, the next build clones the new URL and swaps it in, so a commit is never taken
//! from the wrong repository. The folder stays `repos/NAME` (one clone per project, never a
//! stale one left behind), and the record is also what makes a folder portolan's to replace.
//!
//! Config values reach git only after `--end-of-options` (see [`git`]), and git may use only
//! the protocols a config can name (see [`command`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use config::GIT_SCHEMES;

use crate::Error;

/// The file in a clone's `.git` folder that says portolan made the clone, holding the URL
/// it was cloned from. Only a clone with this file is ever replaced (and so deleted).
const ORIGIN_FILE: &str = "portolan-origin";

/// A `git` command with prompts disabled and only the protocols a config may name allowed:
/// git then refuses any other transport (`ext::`, which runs a command, included), even one
/// a URL rewrite (`url.*.insteadOf`) leads to. Every git command portolan runs is made here.
fn command(dir: Option<&Path>, offline: bool) -> Command {
    let mut cmd = Command::new("git");
    if let Some(dir) = dir {
        cmd.arg("-C").arg(dir);
    }
    // A repository portolan did not clone (a `path =` project) may name programs in its
    // own configuration that git runs on its own: an fsmonitor on commands that look at a
    // work tree, hooks on checkout. Neither runs here.
    cmd.args([
        "-c",
        "core.fsmonitor=false",
        "-c",
        "core.hooksPath=/dev/null",
    ]);
    cmd.env("GIT_ALLOW_PROTOCOL", GIT_SCHEMES.join(":"))
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_ASKPASS", "")
        .env("LC_ALL", "C");
    if offline {
        // A partial clone would otherwise fetch missing blobs during checkout.
        cmd.env("GIT_NO_LAZY_FETCH", "1");
    }
    // The unit tests' git never sees the real home folder (its config included).
    #[cfg(test)]
    cmd.env("HOME", tests::home());
    cmd
}

/// Runs git and returns stdout or git's one-line reason ([`Error::Git`]). `args` are
/// portolan's own (the subcommand and its options); `operands` are values from the config or the clone (URL,
/// revision, folder), and follow `--end-of-options`, so none of them is read as an option.
/// (clone, fetch and checkout take `--end-of-options` since git 2.24, rev-parse since 2.30.)
fn git(
    dir: Option<&Path>,
    args: &[&str],
    operands: &[&str],
    offline: bool,
) -> Result<String, Error> {
    let mut cmd = command(dir, offline);
    cmd.args(args);
    if !operands.is_empty() {
        cmd.arg("--end-of-options").args(operands);
    }
    let output = cmd.output().map_err(not_run)?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let reason = stderr
            .lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty() && !l.starts_with("hint:") && !l.starts_with("warning:"))
            .unwrap_or("unknown error")
            .to_string();
        Err(Error::Git {
            command: args.join(" "),
            reason,
        })
    }
}

/// Why git could not be started.
fn not_run(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::NotFound {
        Error::GitNotInstalled(e)
    } else {
        Error::GitNotRun(e)
    }
}

/// The commit of a local folder if it is the top of a git work tree (not merely inside one).
pub fn work_tree_commit(path: &Path) -> Option<String> {
    let top = git(Some(path), &["rev-parse", "--show-toplevel"], &[], true).ok()?;
    let same = std::fs::canonicalize(&top).ok()? == std::fs::canonicalize(path).ok()?;
    if !same {
        return None;
    }
    git(Some(path), &["rev-parse", "HEAD"], &[], true).ok()
}

/// The URL of a work tree's `origin` remote.
pub fn origin_url(path: &Path) -> Option<String> {
    git(Some(path), &["remote", "get-url", "origin"], &[], true)
        .ok()
        .filter(|u| !u.is_empty())
}

/// Clones (if needed) and checks out `rev`; returns the work tree and the commit id.
pub fn checkout(
    name: &str,
    url: &str,
    rev: Option<&str>,
    repos_dir: &Path,
    offline: bool,
) -> Result<(PathBuf, String), Error> {
    let project = || name.to_string();
    let dir = repos_dir.join(name);
    let clone_failed = |e: Error| Error::Clone {
        project: project(),
        url: url.to_string(),
        source: Box::new(e),
    };
    let cloned = match cached(&dir, url) {
        Cache::Same => false,
        Cache::Missing if offline => {
            return Err(Error::OfflineNoClone {
                project: project(),
                dir,
            });
        }
        Cache::Other(other) if offline => {
            return Err(Error::OfflineOtherUrl {
                project: project(),
                dir,
                cloned_from: super::without_credentials(&other),
                url: url.to_string(),
            });
        }
        Cache::Missing => {
            clone(url, &dir, repos_dir, false).map_err(clone_failed)?;
            true
        }
        Cache::Other(_) => {
            clone(url, &dir, repos_dir, true).map_err(clone_failed)?;
            true
        }
        Cache::Foreign(why) => {
            return Err(Error::ForeignCache {
                project: project(),
                dir,
                why,
            });
        }
    };
    let commit = revision(&dir, rev, offline).map_err(|e| Error::ProjectRevision {
        project: project(),
        source: Box::new(e),
    })?;
    let current = commit_of(&dir, "HEAD", true).ok();
    if current.as_deref() != Some(commit.as_str()) || cloned {
        git(
            Some(&dir),
            &[
                "-c",
                "advice.detachedHead=false",
                "checkout",
                "--quiet",
                "--force",
                "--detach",
            ],
            &[&commit],
            offline,
        )
        .map_err(|e| Error::Checkout {
            project: project(),
            commit: commit.clone(),
            source: Box::new(e),
        })?;
    }
    Ok((dir, commit))
}

/// The commit `rev` (HEAD when none) names in the clone at `dir`, fetching just that
/// revision when the clone lacks it (never with `offline`).
pub fn revision(dir: &Path, rev: Option<&str>, offline: bool) -> Result<String, Error> {
    let wanted = rev.unwrap_or("HEAD");
    if let Some(commit) = resolve(dir, rev) {
        return Ok(commit);
    }
    if offline {
        return Err(Error::OfflineRevision {
            rev: wanted.to_string(),
        });
    }
    // Fetch just the missing revision (a commit id, tag or branch).
    git(
        Some(dir),
        &["fetch", "--quiet", "--filter=blob:none"],
        &["origin", wanted],
        false,
    )
    .and_then(|_| commit_of(dir, "FETCH_HEAD", false))
    .map_err(|e| Error::UnknownRevision {
        rev: wanted.to_string(),
        source: Box::new(e),
    })
}

/// The commit `rev` names in a local work tree (never fetched).
pub fn local_revision(work_tree: &Path, rev: &str) -> Result<String, Error> {
    resolve(work_tree, Some(rev)).ok_or_else(|| Error::UnknownLocalRevision {
        rev: rev.to_string(),
        work_tree: work_tree.to_path_buf(),
    })
}

/// Writes the files of `commit` into the empty folder `dest`, from the repository whose
/// work tree (or clone) is `repo`, without touching its HEAD, index or work tree: git
/// checks out into `dest` with an index of its own (`GIT_INDEX_FILE`), no hooks and no
/// filter drivers (a repository's `filter.NAME.smudge` is a command of its own
/// configuration). A partial clone fetches the blobs it lacks in one batch (never with
/// `offline`, which a repository portolan did not clone is always given).
pub fn export(repo: &Path, commit: &str, dest: &Path, offline: bool) -> Result<(), Error> {
    let git_dir = git(Some(repo), &["rev-parse", "--absolute-git-dir"], &[], true)?;
    let index = dest.with_extension("index");
    let mut cmd = command(Some(dest), offline);
    cmd.arg("--git-dir").arg(&git_dir);
    for driver in filter_drivers(repo)? {
        for (key, value) in [("process", ""), ("smudge", ""), ("required", "false")] {
            cmd.arg("-c").arg(format!("filter.{driver}.{key}={value}"));
        }
    }
    cmd.args(["--work-tree", "."])
        .args([
            "-c",
            "advice.detachedHead=false",
            "checkout",
            "--quiet",
            "--force",
        ])
        .arg("--end-of-options")
        .arg(commit)
        .args(["--", "."])
        .env("GIT_INDEX_FILE", &index);
    let output = cmd.output().map_err(not_run);
    let _ = std::fs::remove_file(&index);
    let output = output?;
    if output.status.success() {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(Error::Export {
            commit: commit.to_string(),
            reason: stderr
                .lines()
                .rfind(|l| !l.trim().is_empty())
                .unwrap_or("git failed")
                .to_string(),
        })
    }
}

/// The filter drivers the configuration of `repo` defines (`filter.NAME.smudge`, …: NAME
/// may hold dots), to be switched off; an error when one cannot be named on git's command
/// line (`-c filter.a=b.smudge=` would set another key), so its export is refused.
fn filter_drivers(repo: &Path) -> Result<Vec<String>, Error> {
    // Exit code 1 when there is no such key: none to switch off.
    let listed = git(
        Some(repo),
        &["config", "--name-only", "--get-regexp"],
        &[r"^filter\..*\.(smudge|clean|process|required)$"],
        true,
    )
    .unwrap_or_default();
    let mut drivers = Vec::new();
    for key in listed.lines() {
        let Some((name, _)) = key.strip_prefix("filter.").and_then(|r| r.rsplit_once('.')) else {
            continue;
        };
        if name.is_empty() || name.contains(['=', '\0']) || name.contains(char::is_control) {
            return Err(Error::FilterDriver {
                name: name.escape_debug().to_string(),
            });
        }
        drivers.push(name.to_string());
    }
    drivers.sort();
    drivers.dedup();
    Ok(drivers)
}

/// The commit a revision names in the clone: a commit id, tag, or remote branch.
fn resolve(dir: &Path, rev: Option<&str>) -> Option<String> {
    let candidates: Vec<String> = match rev {
        None => vec!["origin/HEAD".into(), "HEAD".into()],
        Some(r) => vec![
            r.to_string(),
            format!("refs/tags/{r}"),
            format!("origin/{r}"),
        ],
    };
    candidates.iter().find_map(|c| commit_of(dir, c, true).ok())
}

/// The commit `rev` names in the clone at `dir`.
fn commit_of(dir: &Path, rev: &str, offline: bool) -> Result<String, Error> {
    git(
        Some(dir),
        &["rev-parse", "--verify", "--quiet"],
        &[&format!("{rev}^{{commit}}")],
        offline,
    )
}

/// What the cache folder of a project holds.
#[derive(Debug, PartialEq)]
enum Cache {
    /// Nothing, or an empty folder.
    Missing,
    /// A clone of the configured URL.
    Same,
    /// A clone portolan made of another URL (the `git =` of the project changed).
    Other(String),
    /// Something portolan did not make, or a clone of another URL without portolan's
    /// record (an older portolan's): never replaced.
    Foreign(String),
}

/// Compares the clone in `dir` with `url`: first portolan's own record of where it cloned
/// from, else (a clone made before the record existed) git's `remote.origin.url`.
fn cached(dir: &Path, url: &str) -> Cache {
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return Cache::Missing;
    };
    if !meta.is_dir() {
        return Cache::Foreign("it is not a folder".into());
    }
    if std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none()) {
        return Cache::Missing;
    }
    if let Ok(recorded) = std::fs::read_to_string(dir.join(".git").join(ORIGIN_FILE)) {
        let recorded = recorded.strip_suffix('\n').unwrap_or(&recorded);
        return if recorded == url {
            Cache::Same
        } else {
            Cache::Other(recorded.to_string())
        };
    }
    if !dir.join(".git").is_dir() {
        return Cache::Foreign("it is not a git clone".into());
    }
    match git(
        Some(dir),
        &["config", "--get", "remote.origin.url"],
        &[],
        true,
    ) {
        Ok(origin) if origin == url => Cache::Same,
        Ok(origin) => Cache::Foreign(format!(
            "it holds a clone of {} that portolan did not record as its own",
            super::without_credentials(&origin)
        )),
        Err(_) => Cache::Foreign("it is a git clone without an `origin`".into()),
    }
}

/// Clones into a temporary folder next to `dir`, records the URL, then renames it into
/// place, so a failed clone never leaves a half-made cache entry behind. With `replace`,
/// the clone at `dir` (one portolan made, of another URL) is first moved into that
/// temporary folder, and is deleted with it once the new clone is in place.
fn clone(url: &str, dir: &Path, repos_dir: &Path, replace: bool) -> Result<(), Error> {
    std::fs::create_dir_all(repos_dir)
        .map_err(|e| Error::io(format!("create {}", repos_dir.display()), repos_dir, e))?;
    let tmp = tempfile::Builder::new()
        .prefix(".clone-")
        .tempdir_in(repos_dir)
        .map_err(|e| {
            let doing = format!("create a folder in {}", repos_dir.display());
            Error::io(doing, repos_dir, e)
        })?;
    let target = tmp.path().join("repo");
    let target_str = target.to_string_lossy().to_string();
    git(
        None,
        &["clone", "--quiet", "--filter=blob:none", "--no-checkout"],
        &[url, &target_str],
        false,
    )?;
    let origin = target.join(".git").join(ORIGIN_FILE);
    std::fs::write(&origin, format!("{url}\n"))
        .map_err(|e| Error::io("write to the new clone".into(), origin, e))?;
    let old = tmp.path().join("old");
    if replace {
        std::fs::rename(dir, &old).map_err(|e| {
            Error::io(
                format!("move the old clone {} aside", dir.display()),
                dir,
                e,
            )
        })?;
    } else if dir.exists() {
        // An empty folder (`cached` said so); anything in it would make this fail.
        std::fs::remove_dir(dir)
            .map_err(|e| Error::io(format!("replace {}", dir.display()), dir, e))?;
    }
    if let Err(e) = std::fs::rename(&target, dir) {
        if replace {
            let _ = std::fs::rename(&old, dir);
        }
        let doing = format!("move the clone to {}", dir.display());
        return Err(Error::io(doing, dir, e));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
