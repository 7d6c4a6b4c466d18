//! Git sources through the `git` CLI, so users' credentials, proxies and config apply.
//!
//! A project is cloned once into `cache_dir/repos/NAME` as a partial clone (blobs on demand),
//! and checked out detached at the pinned revision. The network is touched only when the
//! clone is missing or the revision is not in it, and never with `--offline`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs git with prompts disabled; returns stdout or a one-line error.
fn git(dir: Option<&Path>, args: &[&str], offline: bool) -> Result<String, String> {
    let mut cmd = Command::new("git");
    if let Some(dir) = dir {
        cmd.arg("-C").arg(dir);
    }
    cmd.args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_ASKPASS", "")
        .env("LC_ALL", "C");
    if offline {
        // A partial clone would otherwise fetch missing blobs during checkout.
        cmd.env("GIT_NO_LAZY_FETCH", "1");
    }
    let output = cmd.output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            "the `git` command is not installed or not on PATH".to_string()
        } else {
            format!("cannot run git: {e}")
        }
    })?;
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
        Err(reason)
    }
}

/// The commit of a local folder if it is the top of a git work tree (not merely inside one).
pub fn work_tree_commit(path: &Path) -> Option<String> {
    let top = git(Some(path), &["rev-parse", "--show-toplevel"], true).ok()?;
    let same = std::fs::canonicalize(&top).ok()? == std::fs::canonicalize(path).ok()?;
    if !same {
        return None;
    }
    git(Some(path), &["rev-parse", "HEAD"], true).ok()
}

/// The URL of a work tree's `origin` remote.
pub fn origin_url(path: &Path) -> Option<String> {
    git(Some(path), &["remote", "get-url", "origin"], true)
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
) -> Result<(PathBuf, String), String> {
    let fail = |what: &str, why: String| format!("project `{name}`: {what}: {why}");
    let dir = repos_dir.join(name);
    let has_clone = dir.join(".git").is_dir();
    if !has_clone {
        if offline {
            return Err(fail(
                "--offline and no clone in the cache",
                format!("{} is missing; run once without --offline", dir.display()),
            ));
        }
        clone(url, &dir, repos_dir).map_err(|e| fail(&format!("cannot clone {url}"), e))?;
    }
    let wanted = rev.unwrap_or("HEAD");
    let commit = match resolve(&dir, rev) {
        Some(commit) => commit,
        None if offline => {
            return Err(fail(
                &format!("--offline and revision `{wanted}` is not in the cached clone"),
                "run once without --offline to fetch it".into(),
            ));
        }
        None => {
            // Fetch just the missing revision (a commit id, tag or branch).
            let fetched = git(
                Some(&dir),
                &["fetch", "--quiet", "--filter=blob:none", "origin", wanted],
                false,
            )
            .and_then(|_| {
                git(
                    Some(&dir),
                    &["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"],
                    false,
                )
            });
            match fetched {
                Ok(commit) => commit,
                Err(e) => return Err(fail(&format!("unknown revision `{wanted}`"), e)),
            }
        }
    };
    let current = git(
        Some(&dir),
        &["rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
        true,
    )
    .ok();
    if current.as_deref() != Some(commit.as_str()) || !has_clone {
        git(
            Some(&dir),
            &[
                "-c",
                "advice.detachedHead=false",
                "checkout",
                "--quiet",
                "--force",
                "--detach",
                &commit,
            ],
            offline,
        )
        .map_err(|e| fail(&format!("cannot check out {commit}"), e))?;
    }
    Ok((dir, commit))
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
    candidates.iter().find_map(|c| {
        git(
            Some(dir),
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{c}^{{commit}}"),
            ],
            true,
        )
        .ok()
    })
}

/// Clones into a temporary folder next to `dir`, then renames it, so a failed clone
/// never leaves a half-made cache entry behind.
fn clone(url: &str, dir: &Path, repos_dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(repos_dir)
        .map_err(|e| format!("cannot create {}: {e}", repos_dir.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".clone-")
        .tempdir_in(repos_dir)
        .map_err(|e| format!("cannot create a folder in {}: {e}", repos_dir.display()))?;
    let target = tmp.path().join("repo");
    let target_str = target.to_string_lossy().to_string();
    git(
        None,
        &[
            "clone",
            "--quiet",
            "--filter=blob:none",
            "--no-checkout",
            url,
            &target_str,
        ],
        false,
    )?;
    if dir.exists() {
        std::fs::remove_dir_all(dir)
            .map_err(|e| format!("cannot replace {}: {e}", dir.display()))?;
    }
    std::fs::rename(&target, dir)
        .map_err(|e| format!("cannot move the clone to {}: {e}", dir.display()))?;
    Ok(())
}
