//! A project at another revision than its pinned one (`compare = […]`, `portolan diff`):
//! its files written to a temporary folder from the project's clone (or local work tree),
//! analyzed like any project, and cached by commit.
//!
//! Stage: source + analyze, for earlier revisions; called by the pipeline and `diff`.
//! **Invariant:** the repository is never changed: its HEAD, index and work tree stay as
//! they are (see `source::git::export`); the temporary folder is portolan's own, under
//! `cache_dir/revisions`, and removed once analyzed. A revision's analysis depends only on
//! its commit, the project's analysis settings and portolan itself, so it is cached under
//! that key and a second look at the same commit reads no file of the repository.

use crate::Error;
use crate::analysis::{self, Options, Progress, Silent};
use crate::cache::{Cache, KeyHasher};
use config::{Config, ProjectConfig, SourceSpec};
use derive::diff::{self, ProjectDiff, Revision};
use derive::kind_index;
use derive::link;
use model::{KindEntry, Project};
use source::{self, git};

/// A revision resolved in a project's repository, ready to analyze.
pub struct Resolved {
    /// The repository (work tree or clone) that holds the commit.
    repo: std::path::PathBuf,
    /// Whether portolan cloned it (a `git =` project): only then may git fetch the blobs
    /// a partial clone lacks, with the settings of a configuration portolan wrote.
    cloned: bool,
    pub commit: String,
    repository: String,
    source_url: String,
}

/// Finds the commit `rev` names for project `p`: in its clone in cache_dir (cloned and
/// fetched when needed, unless offline), or in its local git work tree.
pub fn resolve(
    p: &ProjectConfig,
    rev: &str,
    config: &Config,
    offline: bool,
) -> Result<Resolved, Error> {
    let fail = |e: Error| Error::Revision {
        project: p.name.clone(),
        rev: rev.to_string(),
        source: Box::new(e),
    };
    if let Some(why) = config::git_rev_problem(rev) {
        return Err(fail(Error::BadRevision {
            rev: rev.escape_debug().to_string(),
            why,
        }));
    }
    match &p.source {
        SourceSpec::Git { url, rev: pinned } => {
            let (repo, _) = git::checkout(
                &p.name,
                url,
                pinned.as_deref(),
                &config.site.cache_dir.join("repos"),
                offline,
            )?;
            let commit = git::revision(&repo, Some(rev), offline).map_err(|e| fail(e.into()))?;
            Ok(Resolved {
                repo,
                cloned: true,
                commit,
                repository: source::without_credentials(url),
                source_url: p
                    .source_url
                    .clone()
                    .or_else(|| source::github_source_url(url))
                    .unwrap_or_default(),
            })
        }
        SourceSpec::Path(path) => {
            if git::work_tree_commit(path).is_none() {
                return Err(fail(Error::NotAWorkTree { path: path.clone() }));
            }
            let commit = git::local_revision(path, rev).map_err(|e| fail(e.into()))?;
            let repository = git::origin_url(path)
                .map(|u| source::without_credentials(&u))
                .unwrap_or_default();
            Ok(Resolved {
                repo: path.clone(),
                cloned: false,
                commit,
                source_url: p
                    .source_url
                    .clone()
                    .or_else(|| source::github_source_url(&repository))
                    .unwrap_or_default(),
                repository,
            })
        }
        SourceSpec::Model(path) => Err(fail(Error::ModelHasNoRevisions { path: path.clone() })),
    }
}

/// The cache name of project `name` at `commit` (a name of its own, so that it never
/// replaces the pinned revision's entry).
fn cache_name(name: &str, commit: &str) -> String {
    format!("{name}.{commit}")
}

/// The project at the resolved commit: from the cache, else written out and analyzed.
pub fn analyze(
    p: &ProjectConfig,
    at: &Resolved,
    config: &Config,
    options: &Options,
    cache: &Cache,
) -> Result<Project, Error> {
    let mut key = KeyHasher::new("revision");
    key.field(p.name.as_bytes())
        .field(at.commit.as_bytes())
        .field(format!("{:?} {:?} {:?}", p.include, p.exclude, p.docs).as_bytes())
        .field(format!("{:?}", config.groups).as_bytes())
        .field(at.repository.as_bytes())
        .field(at.source_url.as_bytes());
    let key = key.finish();
    let name = cache_name(&p.name, &at.commit);
    if let Some(project) = cache.load(&name, &key) {
        return Ok(project);
    }
    let parent = config.site.cache_dir.join("revisions");
    std::fs::create_dir_all(&parent)
        .map_err(|e| Error::io(format!("create {}", parent.display()), &parent, e))?;
    let tmp = tempfile::Builder::new()
        .prefix(".tree-")
        .tempdir_in(&parent)
        .map_err(|e| {
            Error::io(
                format!("create a folder in {}", parent.display()),
                &parent,
                e,
            )
        })?;
    let tree = tmp.path().join("tree");
    std::fs::create_dir(&tree)
        .map_err(|e| Error::io(format!("create {}", tree.display()), &tree, e))?;
    git::export(&at.repo, &at.commit, &tree, options.offline || !at.cloned).map_err(|source| {
        Error::Export {
            project: p.name.clone(),
            commit: at.commit.clone(),
            source: Box::new(source),
        }
    })?;
    let snapshot = ProjectConfig {
        source: SourceSpec::Path(tree.clone()),
        compare: Vec::new(),
        accept_unresolved: Vec::new(),
        ..p.clone()
    };
    let single = Config {
        projects: vec![snapshot],
        ..config.clone()
    };
    let mut analyzed = analysis::analyze_projects(&single, options, &Silent)?;
    let mut project = analyzed.pop().ok_or(Error::NothingAnalyzed)?;
    if let Some(e) = &project.error {
        return Err(Error::ProjectFailed(e.clone()));
    }
    project.commit = at.commit.clone();
    project.repository = at.repository.clone();
    project.source_url = at.source_url.clone();
    // Raster images are not part of a model; a revision's pages never show its docs.
    project.doc_images.clear();
    cache.store(&name, &key, &project);
    Ok(project)
}

/// `portolan diff PROJECT --from REV [--to REV]`: the project at `from` against `to` (its
/// pinned revision when none), with the consumers of changed kinds among the portal's
/// other projects (their pinned revisions, analyzed or from the cache).
pub fn compare_project(
    config: &Config,
    name: &str,
    from: &str,
    to: Option<&str>,
    options: &Options,
    progress: &dyn Progress,
) -> Result<ProjectDiff, Error> {
    let Some(p) = config.projects.iter().find(|p| p.name == name) else {
        return Err(Error::UnknownProject {
            name: name.to_string(),
            file: config.file.clone(),
            known: config.projects.iter().map(|p| p.name.clone()).collect(),
        });
    };
    let cache = Cache::on_disk(&config.site.cache_dir);
    let mut portal = analysis::analyze_projects_cached(config, options, progress, &cache)?;
    link::resolve_across_projects(&mut portal);
    let pinned = portal
        .iter()
        .find(|x| x.name == name)
        .ok_or(Error::NotAnalyzed)?;
    if let Some(e) = &pinned.error {
        return Err(Error::ProjectFailed(e.clone()));
    }
    let at = |rev: &str| -> Result<(Project, Revision), Error> {
        progress.stage(&format!("analyzing {name} at {rev}"));
        let resolved = resolve(p, rev, config, options.offline)?;
        let mut project = analyze(p, &resolved, config, options, &cache)?;
        link::resolve_against(&mut project, &portal);
        Ok((
            project,
            Revision {
                rev: rev.to_string(),
                commit: resolved.commit,
            },
        ))
    };
    let (old, from) = at(from)?;
    let (new, to) = match to {
        Some(rev) => at(rev)?,
        None => (
            pinned.clone(),
            Revision {
                rev: pinned_rev(p).unwrap_or_else(|| pinned.commit.clone()),
                commit: pinned.commit.clone(),
            },
        ),
    };
    let (kinds, _) = kind_index::build(&portal);
    Ok(diff::between(&old, &new, from, to, &kinds, &portal))
}

/// The revision projects.toml pins (`rev = …`), when it names one.
fn pinned_rev(p: &ProjectConfig) -> Option<String> {
    match &p.source {
        SourceSpec::Git { rev, .. } => rev.clone(),
        _ => None,
    }
}

/// The earlier revisions `compare = […]` lists, each resolved to its commit (or the error
/// that stopped it). Projects that failed are skipped. Nothing is analyzed yet: a build
/// whose inputs, these commits included, are unchanged needs no model of them.
pub fn resolve_compared(config: &Config, projects: &[Project], offline: bool) -> Vec<Pending> {
    let mut out = Vec::new();
    for p in config.projects.iter().filter(|p| !p.compare.is_empty()) {
        if projects
            .iter()
            .any(|x| x.name == p.name && x.error.is_some())
        {
            continue;
        }
        for rev in &p.compare {
            out.push(Pending {
                project: p.name.clone(),
                rev: rev.clone(),
                at: resolve(p, rev, config, offline),
            });
        }
    }
    out
}

/// A `compare` revision resolved (or not), before its analysis.
pub struct Pending {
    pub project: String,
    pub rev: String,
    at: Result<Resolved, Error>,
}

impl Pending {
    /// The commit the revision names, when it could be resolved.
    pub fn commit(&self) -> Option<&str> {
        self.at.as_ref().ok().map(|r| r.commit.as_str())
    }
}

/// Analyzes (or loads from the cache) each resolved revision.
pub fn analyze_compared(
    pending: Vec<Pending>,
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
    cache: &Cache,
) -> Vec<Earlier> {
    pending
        .into_iter()
        .filter_map(|e| {
            let p = config.projects.iter().find(|p| p.name == e.project)?;
            progress.stage(&format!("analyzing {} at {}", p.name, e.rev));
            let model = e.at.and_then(|at| analyze(p, &at, config, options, cache));
            Some(Earlier {
                project: e.project,
                rev: e.rev,
                pinned: pinned_rev(p),
                model,
            })
        })
        .collect()
}

/// A project at one of its `compare` revisions.
pub struct Earlier {
    pub project: String,
    pub rev: String,
    /// The pinned revision as projects.toml names it, if it does.
    pub pinned: Option<String>,
    pub model: Result<Project, Error>,
}

/// The comparisons the changes pages show: each earlier revision against the pinned one,
/// resolved against the portal; one that could not be analyzed keeps its error.
pub fn comparisons(
    earlier: Vec<Earlier>,
    portal: &[Project],
    kinds: &[KindEntry],
) -> Vec<Result<ProjectDiff, (String, String, String)>> {
    earlier
        .into_iter()
        .filter_map(|e| {
            let pinned = portal.iter().find(|p| p.name == e.project)?;
            Some(match e.model {
                Ok(mut old) => {
                    link::resolve_against(&mut old, portal);
                    let from = Revision {
                        rev: e.rev,
                        commit: old.commit.clone(),
                    };
                    let to = Revision {
                        rev: e.pinned.unwrap_or_else(|| pinned.commit.clone()),
                        commit: pinned.commit.clone(),
                    };
                    Ok(diff::between(&old, pinned, from, to, kinds, portal))
                }
                // The changes page shows why, as text.
                Err(why) => Err((e.project, e.rev, why.to_string())),
            })
        })
        .collect()
}

/// `portolan diff --from-model OLD --to-model NEW`: two model files, the consumers of
/// changed kinds looked up in the portal of `config` when there is one. `project` renames
/// both sides (the project the consumers are looked up for).
pub fn compare_models(
    config: Option<&Config>,
    project: Option<&str>,
    old: &std::path::Path,
    new: &std::path::Path,
    options: &Options,
    progress: &dyn Progress,
) -> Result<ProjectDiff, Error> {
    let (mut old_model, mut new_model) = (analysis::read_model(old)?, analysis::read_model(new)?);
    if let Some(name) = project {
        old_model.name = name.to_string();
        new_model.name = name.to_string();
    }
    let mut portal = Vec::new();
    if let Some(config) = config {
        let cache = Cache::on_disk(&config.site.cache_dir);
        portal = analysis::analyze_projects_cached(config, options, progress, &cache)?;
        link::resolve_across_projects(&mut portal);
    }
    link::resolve_against(&mut old_model, &portal);
    link::resolve_against(&mut new_model, &portal);
    let (kinds, _) = kind_index::build(&portal);
    let side = |path: &std::path::Path, m: &Project| Revision {
        rev: path.display().to_string(),
        commit: m.commit.clone(),
    };
    Ok(diff::between(
        &old_model,
        &new_model,
        side(old, &old_model),
        side(new, &new_model),
        &kinds,
        &portal,
    ))
}
