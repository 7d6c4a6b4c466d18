//! Watching the inputs of a site (notify, debounced) and classifying changed paths.
//!
//! Watched: the folder of projects.toml (not recursively, for the file itself: editors
//! replace it by renaming), and recursively the content folder, the active theme folder
//! (`themes/NAME`) and every `path =` project's folder, each also through its parent
//! folder (not recursively). A watched folder that is removed or renamed away loses its
//! watch; the parent's watch reports it coming back, and [`Watcher::rearm`] watches it
//! again before the rebuild that event starts, so the rebuild and every later edit see its
//! files. Symbolic links inside watched folders are not followed: a link to a folder
//! outside a repository is not that repository's input. [`classify`] is a pure function
//! from a changed path to what it changes; editor temporary files, the output folder, the
//! cache folder, `.git` and `target` change nothing.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer_opt};

use config::{Config, SourceSpec};

use crate::Error;

/// What a changed path asks to rebuild.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// projects.toml: reload the configuration.
    Config,
    /// A content page or file.
    Content,
    /// A theme template or asset.
    Theme,
    /// A file of the `path =` project with this name.
    Project(String),
}

/// The watched places of one configuration, with canonical paths (see [`resolved`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roots {
    pub config_file: PathBuf,
    pub content: PathBuf,
    pub theme: PathBuf,
    pub projects: Vec<(String, PathBuf)>,
    /// Folders whose changes are the build's own doing (output, cache).
    pub ignored: Vec<PathBuf>,
}

/// The canonical form of `path`; for a path that does not exist (now), its canonical
/// folder joined with its name. A place that is missing for a moment keeps the form it has
/// when present, so the watched places do not change while a folder is renamed away, and
/// the place is watched (through its parent) for when it comes back.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(canonical) = std::fs::canonicalize(path) {
        return canonical;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(parent), Some(name)) => std::fs::canonicalize(parent)
            .map(|p| p.join(name))
            .unwrap_or(absolute),
        _ => absolute,
    }
}

impl Roots {
    pub fn of(config: &Config, theme_dir: &Path, output: &Path) -> Roots {
        let mut ignored: Vec<PathBuf> = [output, &config.site.cache_dir]
            .into_iter()
            .map(resolved)
            .collect();
        ignored.sort();
        Roots {
            config_file: resolved(&config.file),
            content: resolved(&config.site.content),
            theme: resolved(theme_dir),
            projects: config
                .projects
                .iter()
                .filter_map(|p| match &p.source {
                    SourceSpec::Path(root) => Some((p.name.clone(), resolved(root))),
                    _ => None,
                })
                .collect(),
            ignored,
        }
    }

    /// The folders watched recursively: content, theme and `path =` projects.
    fn folders(&self) -> impl Iterator<Item = &PathBuf> {
        [&self.content, &self.theme]
            .into_iter()
            .chain(self.projects.iter().map(|(_, root)| root))
    }

    /// The folders watched on their own (not recursively): the folder of projects.toml and
    /// the parent of each recursively watched folder, which reports it leaving and coming back.
    fn parents(&self) -> BTreeSet<PathBuf> {
        std::iter::once(&self.config_file)
            .chain(self.folders())
            .filter_map(|p| p.parent())
            .map(Path::to_path_buf)
            .collect()
    }
}

/// What a changed path changes (nothing for temporary files and the build's own folders).
pub fn classify(path: &Path, roots: &Roots) -> Vec<Change> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    if source::content::is_editor_file(name) || roots.ignored.iter().any(|d| path.starts_with(d)) {
        return Vec::new();
    }
    let mut changes = Vec::new();
    if path == roots.config_file {
        changes.push(Change::Config);
    }
    if path.starts_with(&roots.content) {
        changes.push(Change::Content);
    }
    if path.starts_with(&roots.theme) {
        changes.push(Change::Theme);
    }
    for (project, root) in &roots.projects {
        let Ok(inside) = path.strip_prefix(root) else {
            continue;
        };
        // The walk skips hidden folders (`.git` among them) and `target` is build output.
        let skipped = inside.components().any(|c| {
            let s = c.as_os_str().to_string_lossy();
            s.starts_with('.') || s == "target" || s == "node_modules"
        });
        if !skipped {
            changes.push(Change::Project(project.clone()));
        }
    }
    changes
}

/// A running watcher; dropping it stops watching.
pub struct Watcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
}

/// Changed paths after debouncing, with what they change.
#[derive(Debug, Default)]
pub struct Batch {
    pub paths: BTreeSet<PathBuf>,
    pub changes: BTreeSet<Change>,
    /// Recursively watched folders that were themselves created, removed or renamed: their
    /// watch is to be set again ([`Watcher::rearm`]) before the rebuild.
    pub rearm: BTreeSet<PathBuf>,
}

impl Batch {
    /// Adds a changed path: what it changes, and whether it is a watched folder itself
    /// (created, removed or renamed: its watch is to be set again).
    fn add(&mut self, path: &Path, roots: &Roots) {
        let changes = classify(path, roots);
        if !changes.is_empty() {
            self.paths.insert(path.to_path_buf());
            self.changes.extend(changes);
        }
        if roots.folders().any(|folder| folder == path) {
            self.rearm.insert(path.to_path_buf());
        }
    }

    /// Adds a later batch to this one.
    pub fn extend(&mut self, more: Batch) {
        self.paths.extend(more.paths);
        self.changes.extend(more.changes);
        self.rearm.extend(more.rearm);
    }
}

/// Starts watching `roots`; each debounced batch that changes something is sent on `out`.
/// A place that does not exist is not an error: its parent's watch reports its arrival.
pub fn start(roots: Roots, out: mpsc::Sender<Batch>) -> Result<Watcher, Error> {
    let classify_roots = roots.clone();
    let handler = move |result: DebounceEventResult| {
        let Ok(events) = result else { return };
        let mut batch = Batch::default();
        for event in events {
            if matches!(event.kind, notify::EventKind::Access(_)) {
                continue;
            }
            for path in &event.paths {
                batch.add(path, &classify_roots);
            }
        }
        if !batch.changes.is_empty() {
            let _ = out.send(batch);
        }
    };
    // Links are not followed: a link inside a repository to a folder elsewhere must not
    // make edits there rebuild (nor watch the whole disk through a link to `/`).
    let config = notify::Config::default().with_follow_symlinks(false);
    let debouncer = new_debouncer_opt(
        Duration::from_millis(100),
        None,
        handler,
        RecommendedCache::new(),
        config,
    )
    .map_err(Error::Watcher)?;
    let mut watcher = Watcher { debouncer };
    // The parents first: a folder watched both ways must end up recursive, and notify
    // keeps the mode of the last watch of a path.
    for parent in roots.parents() {
        watcher.watch(&parent, RecursiveMode::NonRecursive)?;
    }
    for folder in roots.folders() {
        watcher.watch(folder, RecursiveMode::Recursive)?;
    }
    Ok(watcher)
}

impl Watcher {
    /// Watches `path`; a missing path is skipped (it is watched when it comes back).
    fn watch(&mut self, path: &Path, mode: RecursiveMode) -> Result<(), Error> {
        let mut attempts = 0;
        loop {
            let error = match self.debouncer.watch(path, mode) {
                Ok(()) => return Ok(()),
                Err(e) => e,
            };
            let missing = match &error.kind {
                notify::ErrorKind::PathNotFound => true,
                notify::ErrorKind::Io(io) => io.kind() == std::io::ErrorKind::NotFound,
                _ => false,
            };
            // notify stops a recursive walk at a subfolder removed under it: walk again
            // while `path` itself is there, so the watch does not end up partial.
            attempts += 1;
            if missing && !path.exists() {
                return Ok(());
            }
            if !missing || attempts == 3 {
                return Err(Error::Watch {
                    path: path.to_path_buf(),
                    source: error,
                });
            }
        }
    }

    /// Sets the recursive watch of each folder in `folders` again: the watch of a folder
    /// that was removed or renamed away is gone, even once the folder is back.
    pub fn rearm(&mut self, folders: &BTreeSet<PathBuf>) -> Result<(), Error> {
        for folder in folders {
            // Not watched any more is the expected case.
            let _ = self.debouncer.unwatch(folder);
            self.watch(folder, RecursiveMode::Recursive)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
