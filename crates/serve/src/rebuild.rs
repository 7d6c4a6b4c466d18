//! Incremental rebuilds for serve: what a batch of changes re-runs, and writing only the
//! output files whose bytes changed.
//!
//! The session keeps the analyzed projects (before linking) and a per-file facts memo
//! (`cache::Cache::with_memo`). A content or theme change re-renders from the kept
//! projects without reading any repository; a change in a `path =` project re-analyzes
//! that project, where only files whose content hash changed are analyzed again; a
//! projects.toml change reloads the configuration and re-analyzes (again through the
//! memo and the on-disk cache). A content edit that leaves the navigation, the home
//! page's text and the set of content paths unchanged renders only the content pages;
//! everything else re-renders the whole site in memory. Only files whose bytes changed
//! are written ([`Written`]). Rebuilds write pages, not the search export: serve's
//! [`indexer`](super::indexer) indexes the pages after the browsers reload.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use config::{self, Config};
use model::{Portal, Project};
use pipeline::analysis::{self, Options, Progress};
use pipeline::cache::Cache;
use render::{self, OutputFile};

use super::Error;
use super::indexer::{Indexer, SearchSlot, Searchable};
use super::watch::{Change, Roots};
use super::written::Written;

/// What one build or rebuild did, for the terminal.
#[derive(Debug, Default)]
pub struct Rebuilt {
    /// Projects analyzed again (by name); empty when only rendering ran.
    pub analyzed: Vec<String>,
    /// Files of the site rendered in memory.
    pub rendered: usize,
    /// Files written because their bytes changed, and files removed.
    pub written: usize,
    pub removed: usize,
    /// Failed projects, shown on their pages.
    pub failed: Vec<String>,
}

/// The state a serve session keeps between rebuilds.
pub struct Session {
    config_path: PathBuf,
    options: Options,
    keep_going: bool,
    config: Config,
    cache: Cache,
    /// Analyzed projects, before linking, in projects.toml order.
    analyzed: Vec<Project>,
    /// The pages and assets on disk (the search export is the indexer's).
    written: Written,
    output: PathBuf,
    /// From the last full render: the portal, and what other pages take from the content
    /// (`render::render_content`), to tell when a content edit changes only its own page.
    portal: Option<Portal>,
    content_fingerprint: Option<String>,
    /// The pages and assets of the last render (no search export): a content-only edit
    /// replaces its pages here, and the indexer indexes the whole set (any page changes
    /// every score).
    pages: Arc<Vec<OutputFile>>,
    /// Changes of rebuilds that failed, retried with the next batch (so a content edit
    /// after a broken projects.toml or template does not pass for a good rebuild).
    pending: BTreeSet<Change>,
}

impl Session {
    /// Loads the configuration and builds, indexes and writes the whole site (atomically).
    /// Returns the session, what was done, and the indexer that owns the search export.
    pub fn start(
        config_path: &Path,
        options: Options,
        keep_going: bool,
        progress: &dyn Progress,
    ) -> Result<(Session, Rebuilt, Indexer), Error> {
        let config = config::load(config_path)?;
        let cache = Cache::with_memo(&config.site.cache_dir);
        let output = pipeline::output_path(&config, &options);
        let analyzed = analysis::analyze_projects_cached(&config, &options, progress, &cache)?;
        let mut session = Session {
            config_path: config_path.to_path_buf(),
            options,
            keep_going,
            config,
            cache,
            analyzed,
            written: Written::already(&output, &[]),
            output,
            portal: None,
            content_fingerprint: None,
            pages: Arc::default(),
            pending: BTreeSet::new(),
        };
        // Projects loaded from the analysis cache were not analyzed.
        let names = session
            .analyzed
            .iter()
            .filter(|p| !session.cache.was_loaded(&p.name))
            .map(|p| p.name.clone())
            .collect();
        session.render_all(progress)?;
        progress.stage("indexing for search");
        let mut files = session.pages.to_vec();
        let search = search::build(&session.pages, session.base_path(), &mut files)?;
        let mut built = pipeline::Built {
            projects: Vec::new(),
            files,
            staging: None,
            written: 0,
            output: session.output.clone(),
            guard: pipeline::output_guard(&session.config),
            unchanged: false,
            stamp: None,
            // The index for `portolan search` is `build`'s to keep; serve writes the site.
            search: None,
            search_dir: PathBuf::new(),
            search_documents: 0,
            search_time: std::time::Duration::ZERO,
            not_compared: Vec::new(),
        };
        pipeline::write(&mut built)?;
        let (export, pages): (Vec<&OutputFile>, Vec<&OutputFile>) =
            built.files.iter().partition(|f| search::is_export(&f.path));
        session.written = Written::already(&session.output, &pages);
        let indexer = Indexer {
            slot: SearchSlot::new(std::sync::RwLock::new(Some(Searchable {
                index: search.index,
                root: session.base_path().to_string(),
            }))),
            export: Written::already(&session.output, &export),
        };
        let done = Rebuilt {
            analyzed: names,
            rendered: built.files.len(),
            written: built.files.len(),
            removed: 0,
            failed: session.failed(),
        };
        Ok((session, done, indexer))
    }

    /// The places to watch for this configuration.
    pub fn roots(&self) -> Roots {
        Roots::of(
            &self.config,
            &pipeline::theme_dir(&self.config),
            &self.output,
        )
    }

    /// The output folder the site is written to.
    pub fn output(&self) -> &Path {
        &self.output
    }

    /// The path part of `base_url`.
    pub fn base_path(&self) -> &str {
        &self.config.site.base_path
    }

    /// Rebuilds after `changes`. On error the files on disk are the last good site.
    pub fn rebuild(
        &mut self,
        changes: &BTreeSet<Change>,
        progress: &dyn Progress,
    ) -> Result<Rebuilt, Error> {
        let mut all = std::mem::take(&mut self.pending);
        all.extend(changes.iter().cloned());
        let result = self.rebuild_all(&all, progress);
        if result.is_err() {
            self.pending = all;
        }
        result
    }

    fn rebuild_all(
        &mut self,
        changes: &BTreeSet<Change>,
        progress: &dyn Progress,
    ) -> Result<Rebuilt, Error> {
        if changes.iter().all(|c| *c == Change::Content)
            && let Some(rebuilt) = self.render_content_only(progress)?
        {
            return Ok(rebuilt);
        }
        let mut analyzed = Vec::new();
        if changes.contains(&Change::Config) {
            self.config = config::load(&self.config_path)?;
            self.analyzed = analysis::analyze_projects_cached(
                &self.config,
                &self.options,
                progress,
                &self.cache,
            )?;
            analyzed = self.analyzed.iter().map(|p| p.name.clone()).collect();
        } else {
            let names: BTreeSet<&str> = changes
                .iter()
                .filter_map(|c| match c {
                    Change::Project(name) => Some(name.as_str()),
                    _ => None,
                })
                .collect();
            if !names.is_empty() {
                let mut only = self.config.clone();
                only.projects.retain(|p| names.contains(p.name.as_str()));
                let fresh =
                    analysis::analyze_projects_cached(&only, &self.options, progress, &self.cache)?;
                for project in fresh {
                    analyzed.push(project.name.clone());
                    if let Some(slot) = self.analyzed.iter_mut().find(|p| p.name == project.name) {
                        *slot = project;
                    }
                }
            }
        }
        self.render_all(progress)?;
        let (written, removed) = self.written.replace(&self.pages)?;
        Ok(Rebuilt {
            analyzed,
            rendered: self.pages.len(),
            written,
            removed,
            failed: self.failed(),
        })
    }

    fn failed(&self) -> Vec<String> {
        self.analyzed
            .iter()
            .filter_map(|p| p.error.clone())
            .collect()
    }

    /// After a content edit that leaves the navigation, the home page's text and the set
    /// of content paths as they were, only the content's own files change: render and write
    /// just those. `None` when the edit reaches further (or nothing was rendered yet).
    fn render_content_only(&mut self, progress: &dyn Progress) -> Result<Option<Rebuilt>, Error> {
        let (Some(portal), Some(before)) = (&self.portal, &self.content_fingerprint) else {
            return Ok(None);
        };
        progress.stage("rendering content pages");
        let (content, theme) = pipeline::load_site_inputs(&self.config)?;
        let (files, fingerprint) =
            render::render_content(&self.config.site, portal, &content, &theme)?;
        if &fingerprint != before {
            return Ok(None);
        }
        let rendered = files.len();
        let pages = Arc::make_mut(&mut self.pages);
        for file in files {
            match pages.iter_mut().find(|p| p.path == file.path) {
                Some(slot) => *slot = file,
                None => pages.push(file),
            }
        }
        let (written, removed) = self.written.replace(&self.pages)?;
        Ok(Some(Rebuilt {
            analyzed: Vec::new(),
            rendered,
            written,
            removed,
            failed: self.failed(),
        }))
    }

    /// Links and renders the whole site into `pages`.
    fn render_all(&mut self, progress: &dyn Progress) -> Result<(), Error> {
        let failed = self.failed();
        if !failed.is_empty() && !self.keep_going {
            return Err(Error::ProjectsFailed { failed });
        }
        let (content, theme) = pipeline::load_site_inputs(&self.config)?;
        let pending = pipeline::revisions::resolve_compared(
            &self.config,
            &self.analyzed,
            self.options.offline,
        );
        let earlier = pipeline::revisions::analyze_compared(
            pending,
            &self.config,
            &self.options,
            progress,
            &self.cache,
        );
        let mut pages = Vec::new();
        let rendered = pipeline::render_pages(
            &self.config,
            self.analyzed.clone(),
            earlier,
            &content,
            &theme,
            progress,
            &mut pages,
        )?;
        self.portal = Some(rendered.portal);
        self.content_fingerprint = Some(rendered.content_fingerprint);
        self.pages = Arc::new(pages);
        Ok(())
    }

    /// The pages and assets of the last good rebuild, for the search indexer.
    pub fn pages(&self) -> Arc<Vec<OutputFile>> {
        self.pages.clone()
    }
}
