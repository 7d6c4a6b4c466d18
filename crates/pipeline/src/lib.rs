//! The pipeline: config → sources → one parallel analysis over all files of all projects
//! (`analysis`) → projects → link → render → output. Only this crate (and `serve`)
//! orchestrates. Whether a failed project fails the whole command is `main`'s call.

pub mod analysis;
pub mod cache;
mod error;
pub mod output;
pub mod revisions;

use std::path::{Path, PathBuf};

use crate::analysis::{Options, Progress, analyze_projects_cached};
use crate::cache::{Cache, Hash};
use config::Config;
use derive::link;
use files::regular;
use model::{self, Portal, Project, Stats};
use render::{self, OutputFile, Theme};
use source::content;

pub use error::Error;

/// What the commands report of a project once its pages are made: the model itself is
/// dropped as soon as they are, so a build does not hold every model to its end.
pub struct Outcome {
    pub name: String,
    pub error: Option<String>,
    pub counts: model::Counts,
    pub stats: Stats,
    /// The watches of its controllers whose kind is unresolved, for `check`.
    pub unresolved: Vec<UnresolvedWatch>,
}

/// A watch whose kind the analysis could not resolve.
pub struct UnresolvedWatch {
    pub kind: String,
    /// Where it is: `FILE:LINE` of its first source, and that file.
    pub at: String,
    pub file: String,
    /// Chosen at run time by design (`model::Watch::is_dynamic`).
    pub dynamic: bool,
}

impl Outcome {
    pub fn of(p: &Project) -> Outcome {
        let unresolved = p
            .findings
            .controllers
            .iter()
            .flat_map(|c| &c.watches)
            .filter(|w| !w.is_resolved())
            .map(|w| {
                let first = w.sources.first();
                UnresolvedWatch {
                    kind: w.kind.clone(),
                    at: first
                        .map(|s| format!("{}:{}", s.file, s.line))
                        .unwrap_or_default(),
                    file: first.map(|s| s.file.clone()).unwrap_or_default(),
                    dynamic: w.is_dynamic(),
                }
            })
            .collect();
        Outcome {
            name: p.name.clone(),
            error: p.error.clone(),
            counts: model::Counts::of(p),
            stats: p.stats.clone(),
            unresolved,
        }
    }
}

/// The result of analyzing and rendering, before the new site replaces the output.
pub struct Built {
    pub projects: Vec<Outcome>,
    /// The site's files, when built in memory ([`build_in_memory`]); empty when they were
    /// written into `staging` as they were made ([`build_to_staging`]).
    pub files: Vec<OutputFile>,
    /// The new site written so far, moved into place by [`write`].
    pub staging: Option<output::Staging>,
    /// How many files [`write`] wrote.
    pub written: usize,
    pub output: PathBuf,
    /// The folders `output` may never be or contain.
    pub guard: output::Guard,
    /// The output folder already holds this site (nothing changed); `files` is empty.
    pub unchanged: bool,
    /// The cache folder and site key to record once written.
    pub stamp: Option<(PathBuf, Hash)>,
    /// The tantivy index behind `portolan search` (its static export is with the site's
    /// other files); none when the site was unchanged, since the index on disk is that
    /// site's.
    pub search: Option<search::SearchIndex>,
    /// Where `write` keeps the tantivy index.
    pub search_dir: PathBuf,
    /// How many documents the search index holds.
    pub search_documents: usize,
    /// How long reading the documents, indexing and exporting took.
    pub search_time: std::time::Duration,
    /// Comparisons (`compare = […]`) that could not be made: `P at REV: why`.
    pub not_compared: Vec<String>,
}

impl Built {
    /// A build with no files to write: the output is `unchanged` already, or there is
    /// nothing to render.
    fn nothing(config: &Config, projects: Vec<Project>, output: PathBuf, unchanged: bool) -> Built {
        Built {
            projects: projects.iter().map(Outcome::of).collect(),
            files: Vec::new(),
            staging: None,
            written: 0,
            output,
            guard: output_guard(config),
            unchanged,
            stamp: None,
            search: None,
            search_dir: search::index_dir(&config.site.cache_dir),
            search_documents: 0,
            search_time: std::time::Duration::ZERO,
            not_compared: Vec::new(),
        }
    }
}

/// Everything `build` does except writing: analyze, link and render in memory. Analysis
/// results are cached in `cache_dir`; with `options.reuse_output`, a site whose inputs are
/// all unchanged since it was written is not rendered again (`Built::unchanged`).
pub fn build_in_memory(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Built, Error> {
    let cache = Cache::on_disk(&config.site.cache_dir);
    let start = match start_build(config, options, progress, &cache)? {
        Started::Done(built) => return Ok(*built),
        Started::Render(r) => *r,
    };
    let mut files = Vec::new();
    let mut built = finish_build(
        config,
        options,
        progress,
        &cache,
        start,
        Destination::Memory(&mut files),
    )?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    built.files = files;
    Ok(built)
}

/// What `build` does before [`write`]: like [`build_in_memory`], but each file is written
/// into a staging folder beside the output as soon as it is rendered and indexed, so the
/// memory a build takes does not grow with the size of the site. With a failed project
/// and no `options.keep_going`, nothing is rendered.
pub fn build_to_staging(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Built, Error> {
    let cache = Cache::on_disk(&config.site.cache_dir);
    let start = match start_build(config, options, progress, &cache)? {
        Started::Done(built) => return Ok(*built),
        Started::Render(r) => *r,
    };
    if !options.keep_going && start.projects.iter().any(|p| p.error.is_some()) {
        // The caller reports the failures and writes nothing.
        return Ok(Built::nothing(config, start.projects, start.output, false));
    }
    let mut staging = output::Staging::open(&start.output, &output_guard(config))?;
    let mut built = finish_build(
        config,
        options,
        progress,
        &cache,
        start,
        Destination::Staging(&mut staging),
    )?;
    built.staging = Some(staging);
    Ok(built)
}

/// The front of a build: the site's inputs read and the projects analyzed; the site is
/// then either done with (current, or nothing to render) or to be rendered.
enum Started {
    Done(Box<Built>),
    Render(Box<ToRender>),
}

struct ToRender {
    content: content::Content,
    theme: Theme,
    projects: Vec<Project>,
    pending: Vec<revisions::Pending>,
    output: PathBuf,
    site_key: Option<Hash>,
}

fn start_build(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
    cache: &Cache,
) -> Result<Started, Error> {
    // The site's own pages and theme are read first: a mistake there should not wait for
    // the analysis.
    let (content, theme) = load_site_inputs(config)?;
    let projects = analyze_projects_cached(config, options, progress, cache)?;
    let output = output_path(config, options);
    if !options.keep_going && projects.iter().all(|p| p.error.is_some()) {
        // Nothing to render: the caller reports the failures and writes nothing.
        let built = Built::nothing(config, projects, output, false);
        return Ok(Started::Done(Box::new(built)));
    }
    let pending = revisions::resolve_compared(config, &projects, options.offline);
    let site_key = site_key(config, &output, &projects, &pending, cache);
    if options.reuse_output
        && let Some(key) = &site_key
        && cache.output_is_current(&output, key)
    {
        let built = Built::nothing(config, projects, output, true);
        return Ok(Started::Done(Box::new(built)));
    }
    Ok(Started::Render(Box::new(ToRender {
        content,
        theme,
        projects,
        pending,
        output,
        site_key,
    })))
}

/// Where rendered files go once indexed for search.
enum Destination<'a> {
    Memory(&'a mut Vec<OutputFile>),
    Staging(&'a mut output::Staging),
}

/// The sink of a build: every file is read for search as it is rendered, then kept or
/// written.
struct Indexing<'a> {
    indexer: search::Indexer,
    into: Destination<'a>,
}

impl render::Sink for Destination<'_> {
    fn put(&mut self, file: OutputFile) -> Result<(), render::SinkError> {
        match self {
            Destination::Memory(files) => files.push(file),
            Destination::Staging(staging) => staging.put(&file)?,
        }
        Ok(())
    }
}

impl render::Sink for Indexing<'_> {
    fn put(&mut self, file: OutputFile) -> Result<(), render::SinkError> {
        // Export files completed by this page go out before it: nothing links to them.
        self.indexer.page(&file, &mut self.into)?;
        self.into.put(file)
    }

    fn project_done(&mut self) {
        files::heap::give_back();
    }
}

/// Renders into `into`, indexing each page for search on the way; the search export is
/// left in `Built::files`.
fn finish_build(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
    cache: &Cache,
    start: ToRender,
    into: Destination,
) -> Result<Built, Error> {
    let earlier = revisions::analyze_compared(start.pending, config, options, progress, cache);
    let mut sink = Indexing {
        indexer: search::Indexer::new(&config.site.base_path)?,
        into,
    };
    let rendered = render_pages(
        config,
        start.projects,
        earlier,
        &start.content,
        &start.theme,
        progress,
        &mut sink,
    )?;
    progress.stage("indexing for search");
    let started = std::time::Instant::now();
    let Indexing { indexer, mut into } = sink;
    let search = indexer.finish(&mut into)?;
    let search_time = started.elapsed();
    files::heap::give_back();
    Ok(Built {
        projects: rendered.projects,
        files: Vec::new(),
        staging: None,
        written: 0,
        output: start.output,
        guard: output_guard(config),
        unchanged: false,
        // A comparison that failed is tried again by the next build, not skipped as done.
        stamp: start
            .site_key
            .filter(|_| rendered.not_compared.is_empty())
            .map(|key| (config.site.cache_dir.clone(), key)),
        search: Some(search.index),
        search_dir: search::index_dir(&config.site.cache_dir),
        search_documents: search.documents,
        search_time,
        not_compared: rendered.not_compared,
    })
}

/// The site's folder: `--out`, else `site.output`.
pub fn output_path(config: &Config, options: &Options) -> PathBuf {
    options
        .out
        .clone()
        .unwrap_or_else(|| config.site.output.clone())
}

/// The folders the output may never be or contain, for this configuration.
pub fn output_guard(config: &Config) -> output::Guard {
    output::Guard::new(config, &theme_dir(config))
}

/// Before any work: refuses an output that may not be replaced (touching nothing), and
/// tidies what an interrupted build left beside it (see `output::prepare`).
pub fn prepare_output(config: &Config, options: &Options) -> Result<(), output::Error> {
    output::prepare(&output_path(config, options), &output_guard(config)).map(|_| ())
}

/// The site's own content pages and its theme (built-in, with `themes/NAME/` over it).
pub fn load_site_inputs(config: &Config) -> Result<(content::Content, Theme), Error> {
    let content = content::load(&config.site.content)?;
    let theme = Theme::load(Some(&theme_dir(config)))?;
    Ok((content, theme))
}

/// `themes/NAME` next to projects.toml, whose files replace the built-in theme's.
pub fn theme_dir(config: &Config) -> PathBuf {
    config
        .file
        .parent()
        .unwrap_or(Path::new("."))
        .join("themes")
        .join(&config.site.theme)
}

/// What [`render_pages`] makes.
pub struct Rendered {
    /// The projects, linked, as the commands report them.
    pub projects: Vec<Outcome>,
    /// Serve keeps it for content-only edits.
    pub portal: Portal,
    /// Serve keeps it to tell content-only edits (see `render::render_content`).
    pub content_fingerprint: String,
    /// Comparisons that could not be made: `P at REV: why` (their pages say so too).
    pub not_compared: Vec<String>,
}

/// Links analyzed projects and renders the site's pages and assets (not the search
/// export, made from them) into `sink`.
pub fn render_pages(
    config: &Config,
    mut projects: Vec<Project>,
    earlier: Vec<revisions::Earlier>,
    content: &content::Content,
    theme: &Theme,
    progress: &dyn Progress,
    sink: &mut dyn render::Sink,
) -> Result<Rendered, Error> {
    link::resolve_across_projects(&mut projects);
    let mut portal = link::link(&config.site.title, &projects);
    let comparisons = revisions::comparisons(earlier, &projects, &portal.kinds);
    // A project has a changes page when it has a comparison (made or failed), not when
    // it failed before any could be tried.
    for c in &comparisons {
        let (project, rev) = match c {
            Ok(d) => (&d.project, &d.from.rev),
            Err((project, rev, _)) => (project, rev),
        };
        if let Some(summary) = portal.projects.iter_mut().find(|s| &s.name == project) {
            summary.compared.push(rev.clone());
        }
    }
    progress.stage("rendering");
    let outcomes = projects.iter().map(Outcome::of).collect();
    let content_fingerprint = render::render_site(
        &config.site,
        &portal,
        projects,
        &comparisons,
        content,
        theme,
        sink,
    )?;
    let not_compared = comparisons
        .iter()
        .filter_map(|c| c.as_ref().err())
        .map(|(project, rev, why)| format!("{project} at {rev}: {why}"))
        .collect();
    Ok(Rendered {
        projects: outcomes,
        portal,
        content_fingerprint,
        not_compared,
    })
}

/// The key of everything the site is made from, if every project has a cache key.
fn site_key(
    config: &Config,
    output: &Path,
    projects: &[Project],
    pending: &[revisions::Pending],
    cache: &Cache,
) -> Option<Hash> {
    // Already read whole by `config::load`: only a pipe in its place is refused here.
    let config_text = regular::read(&config.file, config::MAX_CONFIG_BYTES).ok()?;
    // A compared revision is fixed by its commit (a branch may move); one that failed is
    // tried again next time.
    let mut compared = Vec::new();
    for e in pending {
        let commit = e.commit()?;
        compared.extend(format!("{} {} {commit}\n", e.project, e.rev).into_bytes());
    }
    cache.site_key(
        projects,
        &[
            ("projects.toml", config_text),
            ("content", cache::folder_inputs(&config.site.content)),
            ("theme", cache::folder_inputs(&theme_dir(config))),
            ("output", output.to_string_lossy().as_bytes().to_vec()),
            ("compare", compared),
        ],
    )
}

/// Writes a built site atomically (nothing when it is unchanged), then records what was
/// written so the next build with the same inputs can skip rendering.
pub fn write(built: &mut Built) -> Result<(), output::Error> {
    if built.unchanged {
        return Ok(());
    }
    let cache = built.stamp.as_ref().map(|(dir, _)| Cache::on_disk(dir));
    if let Some(c) = &cache {
        c.clear_stamp(&built.output);
    }
    let paths: Vec<String> = match built.staging.take() {
        Some(staging) => {
            let paths = staging.paths().to_vec();
            staging.commit()?;
            paths
        }
        None => {
            output::write_site(&built.output, &built.files, &built.guard)?;
            built.files.iter().map(|f| f.path.clone()).collect()
        }
    };
    built.written = paths.len();
    if let Some(index) = &built.search {
        index.save(&built.search_dir)?;
    }
    if let (Some(c), Some((_, key))) = (&cache, &built.stamp) {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        c.stamp_output(&built.output, key, &paths);
    }
    Ok(())
}
