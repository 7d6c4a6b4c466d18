//! Watching the inputs of a site (notify, debounced) and classifying changed paths.
//!
//! Watched: the folder of projects.toml (not recursively, for the file itself: editors
//! replace it by renaming), the content folder, the active theme folder (`themes/NAME`,
//! when it exists) and every `path =` project's folder. [`classify`] is a pure function
//! from a changed path to what it changes; editor temporary files, the output folder, the
//! cache folder, `.git` and `target` change nothing.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::config::{Config, SourceSpec};

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

/// The watched places of one configuration, with canonical paths.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roots {
    pub config_file: PathBuf,
    pub content: Option<PathBuf>,
    pub theme: Option<PathBuf>,
    pub projects: Vec<(String, PathBuf)>,
    /// Folders whose changes are the build's own doing (output, cache).
    pub ignored: Vec<PathBuf>,
}

fn canonical(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok()
}

impl Roots {
    pub fn of(config: &Config, theme_dir: &Path, output: &Path) -> Roots {
        let config_file = canonical(&config.file).unwrap_or_else(|| config.file.clone());
        let mut ignored: Vec<PathBuf> = [output, &config.site.cache_dir]
            .into_iter()
            .filter_map(|p| canonical(p).or_else(|| std::path::absolute(p).ok()))
            .collect();
        ignored.sort();
        Roots {
            config_file,
            content: canonical(&config.site.content),
            theme: canonical(theme_dir),
            projects: config
                .projects
                .iter()
                .filter_map(|p| match &p.source {
                    SourceSpec::Path(root) => canonical(root).map(|r| (p.name.clone(), r)),
                    _ => None,
                })
                .collect(),
            ignored,
        }
    }
}

/// What a changed path changes (nothing for temporary files and the build's own folders).
pub fn classify(path: &Path, roots: &Roots) -> Vec<Change> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    if crate::content::is_editor_file(name) || roots.ignored.iter().any(|d| path.starts_with(d)) {
        return Vec::new();
    }
    let mut changes = Vec::new();
    if path == roots.config_file {
        changes.push(Change::Config);
    }
    if roots.content.as_ref().is_some_and(|d| path.starts_with(d)) {
        changes.push(Change::Content);
    }
    if roots.theme.as_ref().is_some_and(|d| path.starts_with(d)) {
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
    _debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
}

/// Changed paths after debouncing, with what they change.
#[derive(Debug, Default)]
pub struct Batch {
    pub paths: BTreeSet<PathBuf>,
    pub changes: BTreeSet<Change>,
}

/// Starts watching `roots`; each debounced batch that changes something is sent on `out`.
pub fn start(roots: Roots, out: mpsc::Sender<Batch>) -> Result<Watcher, String> {
    let classify_roots = roots.clone();
    let handler = move |result: DebounceEventResult| {
        let Ok(events) = result else { return };
        let mut batch = Batch::default();
        for event in events {
            if matches!(event.kind, notify::EventKind::Access(_)) {
                continue;
            }
            for path in &event.paths {
                let changes = classify(path, &classify_roots);
                if !changes.is_empty() {
                    batch.paths.insert(path.clone());
                    batch.changes.extend(changes);
                }
            }
        }
        if !batch.changes.is_empty() {
            let _ = out.send(batch);
        }
    };
    let mut debouncer = new_debouncer(Duration::from_millis(100), None, handler)
        .map_err(|e| format!("cannot watch files: {e}"))?;
    let config_dir = roots
        .config_file
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    debouncer
        .watch(&config_dir, RecursiveMode::NonRecursive)
        .map_err(|e| format!("cannot watch {}: {e}", config_dir.display()))?;
    let folders = roots
        .content
        .iter()
        .chain(roots.theme.iter())
        .chain(roots.projects.iter().map(|(_, r)| r));
    for folder in folders {
        debouncer
            .watch(folder, RecursiveMode::Recursive)
            .map_err(|e| format!("cannot watch {}: {e}", folder.display()))?;
    }
    Ok(Watcher {
        _debouncer: debouncer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roots() -> Roots {
        Roots {
            config_file: "/s/projects.toml".into(),
            content: Some("/s/content".into()),
            theme: Some("/s/themes/mine".into()),
            projects: vec![
                ("op".into(), "/r/op".into()),
                // A project that is the site's own folder.
                ("self".into(), "/s".into()),
            ],
            ignored: vec!["/s/.portolan".into(), "/s/site".into()],
        }
    }

    #[test]
    fn paths_are_classified_by_place() {
        use Change::*;
        let self_ = || Project("self".into());
        let cases: Vec<(&str, Vec<Change>)> = vec![
            ("/s/projects.toml", vec![Config, self_()]),
            ("/s/content/a.md", vec![Content, self_()]),
            ("/s/themes/mine/templates/base.html", vec![Theme, self_()]),
            ("/s/themes/other/templates/base.html", vec![self_()]),
            ("/r/op/controllers/x.go", vec![Project("op".into())]),
            ("/r/op/config/crd/a.yaml", vec![Project("op".into())]),
            ("/r/op/.git/index", vec![]),
            ("/r/op/target/debug/x", vec![]),
            ("/s/site/index.html", vec![]),
            ("/s/.portolan/analysis/op.json", vec![]),
            ("/r/op/controllers/.x.go.swp", vec![]),
            ("/r/op/controllers/x.go~", vec![]),
            ("/r/op/controllers/4913", vec![]),
            ("/s/content/#a.md#", vec![]),
            ("/s/content/.#a.md", vec![]),
            ("/elsewhere/x.go", vec![]),
        ];
        for (path, expected) in cases {
            assert_eq!(classify(Path::new(path), &roots()), expected, "{path}");
        }
    }
}
