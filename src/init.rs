//! `portolan init`: a starter `projects.toml` and `content/index.md` from repository URLs or
//! local folders named on the command line (or one example project when none is named).
//!
//! Nothing is fetched and nothing is overwritten: both files are checked to be absent
//! before either is written, each is created with `create_new` (so a file appearing in
//! between is not clobbered), and the projects file is parsed with `config::parse` before it
//! is written, so `init` never writes a file `build` would refuse.

use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The two files `init` writes, as text.
#[derive(Debug)]
pub struct Starter {
    pub projects_toml: String,
    pub index_md: String,
}

/// One `[[project]]` of the starter file.
#[derive(Debug, PartialEq)]
struct Entry {
    name: String,
    title: String,
    /// `git = …` or `path = …`, with its value as a TOML string.
    source: (&'static str, String),
}

/// The example written when no source is given: a small operator of the portal of record.
const EXAMPLE_URL: &str = "https://github.com/llamastack/llama-stack-k8s-operator";

/// The starter files for `sources` (git URLs or folders), with paths written relative to
/// `config_dir` (the folder `projects.toml` goes to) where they lie under it.
pub fn starter(sources: &[String], config_dir: &Path) -> anyhow::Result<Starter> {
    let mut entries = Vec::new();
    let mut names = BTreeSet::new();
    for source in sources {
        let (kind, value, last) = classify(source, config_dir)?;
        let name = unique(slug(&last), &mut names);
        entries.push(Entry {
            name,
            title: last,
            source: (kind, value),
        });
    }
    let example = entries.is_empty();
    if example {
        entries.push(Entry {
            name: "llama-stack-k8s-operator".into(),
            title: "llama-stack k8s operator".into(),
            source: ("git", EXAMPLE_URL.into()),
        });
    }
    let projects_toml = projects_toml(&entries, example);
    let index_md = index_md(&entries);
    Ok(Starter {
        projects_toml,
        index_md,
    })
}

/// Writes the starter beside `config_file` (`content/index.md` in the same folder) and
/// returns the paths written. Refuses, writing nothing, when either file exists.
pub fn write(config_file: &Path, starter: &Starter) -> anyhow::Result<Vec<PathBuf>> {
    let dir = config_dir(config_file);
    let index = dir.join("content").join("index.md");
    for path in [config_file, index.as_path()] {
        if path.symlink_metadata().is_ok() {
            bail!(
                "{} already exists; init does not overwrite files (remove it, or run init in an empty folder or with --config NEW.toml)",
                path.display()
            );
        }
    }
    // The file is checked before it is written, so `build` accepts what init writes.
    config::parse(config_file, &starter.projects_toml)
        .context("the starter projects.toml is invalid (a bug in init)")?;
    let content = dir.join("content");
    std::fs::create_dir_all(&content)
        .with_context(|| format!("cannot create {}", content.display()))?;
    create_new(config_file, &starter.projects_toml)?;
    create_new(&index, &starter.index_md)?;
    Ok(vec![config_file.to_path_buf(), index])
}

/// The folder `config_file` is in (the current folder for a bare file name).
pub fn config_dir(config_file: &Path) -> PathBuf {
    match config_file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn create_new(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A source's TOML key, value and the last element of its name (for the project name).
fn classify(source: &str, config_dir: &Path) -> anyhow::Result<(&'static str, String, String)> {
    let looks_like_url = source.contains("://")
        || (source.contains('@') && source.contains(':') && !Path::new(source).exists());
    if looks_like_url {
        if let Some(why) = config::git_url_problem(source) {
            bail!("`{}` is not a usable git URL: {why}", source.escape_debug());
        }
        let last = source
            .trim_end_matches('/')
            .rsplit(['/', ':'])
            .next()
            .unwrap_or("")
            .trim_end_matches(".git")
            .to_string();
        return Ok(("git", source.to_string(), last));
    }
    let path = Path::new(source);
    if !path.is_dir() {
        bail!(
            "`{}` is neither a git URL (https://…, ssh://…, user@host:path) nor a folder",
            source.escape_debug()
        );
    }
    let absolute = std::fs::canonicalize(path)
        .with_context(|| format!("cannot resolve {}", path.display()))?;
    let base = std::fs::canonicalize(config_dir).unwrap_or_else(|_| config_dir.to_path_buf());
    let written = relative(&absolute, &base).unwrap_or_else(|| absolute.clone());
    let value = written.to_str().with_context(|| {
        format!(
            "{} is not valid UTF-8; projects.toml can only hold UTF-8 paths",
            absolute.display()
        )
    })?;
    let last = absolute
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("project")
        .to_string();
    Ok(("path", value.to_string(), last))
}

/// `path` relative to `base` (`.`, `sub/dir`, or `../sibling` when they share a parent).
fn relative(path: &Path, base: &Path) -> Option<PathBuf> {
    if let Ok(rest) = path.strip_prefix(base) {
        return Some(if rest.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            rest.to_path_buf()
        });
    }
    let parent = base.parent()?;
    let rest = path.strip_prefix(parent).ok()?;
    Some(Path::new("..").join(rest))
}

/// A project name `config` accepts: lowercase letters, digits, `-`, `_`, `.`, not starting
/// with `.`.
fn slug(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    while s.starts_with('.') || s.starts_with('-') {
        s.remove(0);
    }
    while s.ends_with('-') {
        s.pop();
    }
    if s.is_empty() { "project".into() } else { s }
}

/// `name`, or `name-2`, `name-3`, … when already taken.
fn unique(name: String, taken: &mut BTreeSet<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}-{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

/// A TOML basic string holding `s`.
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn projects_toml(entries: &[Entry], example: bool) -> String {
    let mut out = String::from(
        "# The portal's projects. `portolan build` gets, analyzes and renders each one into the\n\
         # site folder; every key is described in portolan's guide, content/guide/projects-toml.md.\n\
         [site]\n\
         title = \"Operator Atlas\"\n\
         base_url = \"/\"\n\
         # output = \"site\"          # the site folder\n\
         # cache_dir = \".portolan\"  # clones and the analysis cache\n",
    );
    if example {
        out.push_str(
            "\n# An example project. Replace it with yours: `git` (with `rev` to pin a branch,\n\
             # tag or commit), or `path = \"../checkout\"` for a folder on this machine.\n",
        );
    }
    for entry in entries {
        out.push_str("\n[[project]]\n");
        out.push_str(&format!("name = {}\n", toml_string(&entry.name)));
        out.push_str(&format!("title = {}\n", toml_string(&entry.title)));
        out.push_str(&format!(
            "{} = {}\n",
            entry.source.0,
            toml_string(&entry.source.1)
        ));
        if entry.source.0 == "git" {
            out.push_str(
                "# rev = \"main\"  # a branch, tag or commit id; pin one for builds that repeat\n",
            );
        }
    }
    out
}

fn index_md(entries: &[Entry]) -> String {
    let mut out = String::from(
        "+++\ntitle = \"Operator Atlas\"\n+++\n\
         This portal documents the operators below, from their source: what each controller\n\
         watches and writes, the APIs they define and how they connect.\n\n",
    );
    for entry in entries {
        // Titles come from URLs or folder names: keep them to characters that carry no
        // markdown meaning.
        let title: String = entry
            .title
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.') {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        out.push_str(&format!("- [{title}](/projects/{}/)\n", entry.name));
    }
    out
}

#[cfg(test)]
mod tests;
