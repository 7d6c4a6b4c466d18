//! Sources: where a project's files come from (a local path or a git clone at a pinned
//! revision), which of them are analyzed, and how source lines are linked.
//!
//! Stage: source. Uses `config`; hands the pipeline a [`Checkout`] and a file list.
//! **Invariant:** files are never read outside the project root (symlinks pointing out of the
//! repository are skipped), and `--offline` never starts a network operation.

pub mod content;
pub mod docs;
mod error;
pub mod file_kind;
pub mod git;
pub mod walk;

use std::path::{Path, PathBuf};

use config::{ProjectConfig, SourceSpec};

pub use error::Error;

/// A project's files on disk, at a known commit.
#[derive(Debug, Clone)]
pub struct Checkout {
    pub root: PathBuf,
    /// The git URL the source comes from, without credentials; empty when unknown.
    pub repository: String,
    /// Empty when a local path is not the top of a git work tree.
    pub commit: String,
    pub source_url: String,
}

/// Makes a project's source available: a local path as it is, or a clone in the cache.
pub fn prepare(
    project: &ProjectConfig,
    cache_dir: &Path,
    offline: bool,
) -> Result<Checkout, Error> {
    match &project.source {
        SourceSpec::Path(path) => {
            if !path.is_dir() {
                return Err(Error::NotAFolder {
                    project: project.name.clone(),
                    path: path.clone(),
                });
            }
            // A checkout (e.g. by CI) knows its commit and origin, so links still work.
            let commit = git::work_tree_commit(path).unwrap_or_default();
            let repository = if commit.is_empty() {
                String::new()
            } else {
                git::origin_url(path)
                    .map(|u| without_credentials(&u))
                    .unwrap_or_default()
            };
            let source_url = project
                .source_url
                .clone()
                .or_else(|| github_source_url(&repository))
                .unwrap_or_default();
            Ok(Checkout {
                root: path.clone(),
                repository,
                commit,
                source_url,
            })
        }
        SourceSpec::Git { url, rev } => {
            let (root, commit) = git::checkout(
                &project.name,
                url,
                rev.as_deref(),
                &cache_dir.join("repos"),
                offline,
            )?;
            let source_url = project
                .source_url
                .clone()
                .or_else(|| github_source_url(url))
                .unwrap_or_default();
            Ok(Checkout {
                root,
                repository: without_credentials(url),
                commit,
                source_url,
            })
        }
        SourceSpec::Model(path) => Err(Error::ModelHasNoSource {
            project: project.name.clone(),
            path: path.clone(),
        }),
    }
}

/// A URL with any `user:password@` removed, so tokens never reach the site.
pub fn without_credentials(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let host_end = rest.find('/').unwrap_or(rest.len());
    match rest[..host_end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_string(),
    }
}

/// The blob URL template for GitHub repositories (https or scp-like URLs).
pub fn github_source_url(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://github.com/")
        .or_else(|| url.strip_prefix("http://github.com/"))
        .or_else(|| url.strip_prefix("git@github.com:"))
        .or_else(|| url.strip_prefix("ssh://git@github.com/"))?;
    let rest = rest.trim_end_matches('/');
    let rest = rest.strip_suffix(".git").unwrap_or(rest);
    let mut parts = rest.split('/');
    let (owner, repo) = (parts.next()?, parts.next()?);
    if owner.is_empty() || repo.is_empty() || parts.next().is_some() {
        return None;
    }
    Some(format!(
        "https://github.com/{owner}/{repo}/blob/{{commit}}/{{path}}#L{{line}}"
    ))
}

/// A link to one line at the pinned commit, or None when the project has no link template.
/// Only http(s) templates produce links: a model file from elsewhere could carry a
/// `javascript:` URL.
pub fn line_url(template: &str, commit: &str, path: &str, line: u32) -> Option<String> {
    let web = template.starts_with("https://") || template.starts_with("http://");
    if !web || (template.contains("{commit}") && commit.is_empty()) {
        return None;
    }
    Some(
        template
            .replace("{commit}", commit)
            .replace("{path}", path)
            .replace("{line}", &line.to_string()),
    )
}

/// A link to a whole file (or folder) at the pinned commit: the template without the
/// fragment that names a line.
pub fn file_url(template: &str, commit: &str, path: &str) -> Option<String> {
    let template = match template.split_once('#') {
        Some((head, fragment)) if fragment.contains("{line}") => head,
        _ => template,
    };
    if template.contains("{line}") {
        return line_url(template, commit, path, 1);
    }
    line_url(template, commit, path, 0)
}

#[cfg(test)]
mod tests;
