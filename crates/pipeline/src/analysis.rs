//! The analysis stage: every file of every project read and analyzed in one thread pool,
//! in batches of about `BATCH_BYTES`, each project assembled into a `Project` (or read from
//! its model file, or from the analysis cache). A project that fails (missing path, failed
//! clone, unreadable model) becomes a `Project` with `error` set; the others go on.
//!
//! Stage: config → source → analyze → model. `pipeline` runs it before linking and
//! rendering; `revisions` runs it on earlier revisions.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::Error;
use crate::cache::{self, Cache, Hash, KeyHasher};
use analyze::{self, FileFacts};
use config::{Config, ProjectConfig, SourceSpec};
use files::regular::{self, ReadError};
use model::{Area, Diagnostic, MAX_MODEL_BYTES, Project, SCHEMA_VERSION, Stats};
use source::{self, walk};

/// How a run behaves, from the command line.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub jobs: Option<usize>,
    pub offline: bool,
    /// Overrides `site.output`.
    pub out: Option<PathBuf>,
    /// Skip rendering when the output folder holds what these inputs give (`build`).
    pub reuse_output: bool,
    /// Render even when every project failed (their pages show the errors).
    pub keep_going: bool,
}

/// Progress reporting, implemented by the CLI (bars on a terminal, lines otherwise).
pub trait Progress: Sync {
    fn stage(&self, message: &str);
    /// `total` files to analyze, in batch `part.0` of `part.1` when there are several.
    fn files_start(&self, total: u64, part: Option<(usize, usize)>);
    fn file_done(&self);
    fn files_finish(&self);
}

/// A progress sink that shows nothing.
pub struct Silent;

impl Progress for Silent {
    fn stage(&self, _: &str) {}
    fn files_start(&self, _: u64, _: Option<(usize, usize)>) {}
    fn file_done(&self) {}
    fn files_finish(&self) {}
}

/// Each worker's stack. Analyzers walk with explicit stacks, and syn's recursion is bounded
/// by `rust::syntax::too_deep`: the deepest file it lets through needs under 4 MiB
/// in a debug build (`tests/hostile_bounds.rs` runs it), so this is an 8× margin. Only the
/// pages a thread touches take memory.
pub const WORKER_STACK_BYTES: usize = 32 * 1024 * 1024;

fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    let mut builder = rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK_BYTES);
    if let Some(n) = jobs {
        builder = builder.num_threads(n.max(1));
    }
    builder.build().map_err(Error::Pool)
}

/// Gets, walks and analyzes every project; failed ones carry their error.
pub fn analyze_projects(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Vec<Project>, Error> {
    analyze_projects_cached(config, options, progress, &Cache::none())
}

/// [`analyze_projects`] with an analysis cache: projects whose inputs are unchanged are
/// loaded from it, and new results are stored in it.
pub fn analyze_projects_cached(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
    cache: &Cache,
) -> Result<Vec<Project>, Error> {
    let pool = pool(options.jobs)?;
    Ok(pool.install(|| analyze_in_pool(config, options, progress, cache)))
}

/// A project whose sources are ready to analyze.
struct Prepared<'a> {
    config: &'a ProjectConfig,
    checkout: source::Checkout,
    files: Vec<walk::SourceFile>,
    report: walk::WalkReport,
    docs: source::docs::Collected,
}

// A handful per run (one per project), moved once: the size difference does not matter.
#[allow(clippy::large_enum_variant)]
enum Stage1<'a> {
    Ready(Prepared<'a>),
    Done(Project),
}

fn analyze_in_pool(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
    cache: &Cache,
) -> Vec<Project> {
    progress.stage(&format!(
        "getting {} project sources",
        config.projects.len()
    ));
    let stage1: Vec<Stage1> = config
        .projects
        .par_iter()
        .with_max_len(1)
        .map(|p| match &p.source {
            SourceSpec::Model(path) => Stage1::Done(load_model(p, path)),
            _ => match prepare(p, config, options) {
                Ok(prepared) => Stage1::Ready(prepared),
                Err(e) => Stage1::Done(failed(p, e.to_string())),
            },
        })
        .collect();

    // No stage progress when every source failed: the errors say it all.
    if stage1
        .iter()
        .all(|s| matches!(s, Stage1::Done(p) if p.error.is_some()))
    {
        return stage1
            .into_iter()
            .filter_map(|s| match s {
                Stage1::Done(p) => Some(p),
                Stage1::Ready(_) => None,
            })
            .collect();
    }
    // Projects are analyzed in batches of about BATCH_BYTES of files: a batch's texts and
    // per-file facts are dropped once its projects are assembled, so a platform of many
    // projects does not hold every file of every project at once.
    let mut batches: Vec<Vec<Stage1>> = vec![Vec::new()];
    let mut bytes = 0u64;
    for s in stage1 {
        if let Stage1::Ready(p) = &s {
            let size: u64 = p.files.iter().map(|f| f.size).sum();
            if bytes > 0 && bytes + size > BATCH_BYTES {
                batches.push(Vec::new());
                bytes = 0;
            }
            bytes += size;
        }
        if let Some(last) = batches.last_mut() {
            last.push(s);
        }
    }
    let count = batches.len();
    let mut out = Vec::new();
    for (n, batch) in batches.into_iter().enumerate() {
        let part = (count > 1).then_some((n + 1, count));
        out.extend(analyze_batch(batch, part, config, progress, cache));
        // The batch's texts and facts were freed on the worker threads.
        files::heap::give_back();
    }
    out
}

/// How many bytes of files one analysis batch reads at most (unless one project alone is
/// larger): within a batch, every file of every project is analyzed in parallel. 16 MiB
/// took as long as 64 MiB on 48 projects and 40 MB less memory (BENCHMARKS.md, "Scale").
const BATCH_BYTES: u64 = 16 * 1024 * 1024;

/// Analyzes one batch of projects; `part` is (this batch, batches) when there are several.
fn analyze_batch(
    stage1: Vec<Stage1>,
    part: Option<(usize, usize)>,
    config: &Config,
    progress: &dyn Progress,
    cache: &Cache,
) -> Vec<Project> {
    // Every selected file is read and hashed first: a project whose files, configuration
    // and commit hash to a key the cache has is loaded instead of analyzed. With no cache,
    // nothing is looked up by content and nothing is hashed.
    let hashing = cache.keys_by_content();
    let work: Vec<(usize, &walk::SourceFile)> = stage1
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Stage1::Ready(p) => Some(p.files.iter().map(move |f| (i, f))),
            Stage1::Done(_) => None,
        })
        .flatten()
        .collect();
    let reads: Vec<(usize, &walk::SourceFile, walk::Read, Hash)> = work
        .par_iter()
        .with_max_len(1)
        .map(|&(i, file)| {
            let read = walk::read(file);
            let hash = match &read {
                _ if !hashing => Hash::default(),
                walk::Read::Text(text) | walk::Read::Lossy { text, .. } => {
                    cache::hash_bytes(text.as_bytes())
                }
                other => cache::hash_bytes(read_tag(other).as_bytes()),
            };
            (i, file, read, hash)
        })
        .collect();
    let mut cached: Vec<Option<(Hash, Option<Project>)>> = stage1
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Stage1::Ready(p) => {
                let key = project_key(i, p, config, &reads);
                Some((key, cache.load(&p.config.name, &key)))
            }
            Stage1::Done(_) => None,
        })
        .collect();
    for (s, c) in stage1.iter().zip(&cached) {
        if let (Stage1::Ready(p), Some((key, _))) = (s, c) {
            cache.note_key(&p.config.name, *key);
        }
    }
    let hit = |i: usize| matches!(cached.get(i), Some(Some((_, Some(_)))));
    let to_analyze: Vec<(usize, &walk::SourceFile, walk::Read, Hash)> =
        reads.into_iter().filter(|(i, ..)| !hit(*i)).collect();

    progress.files_start(to_analyze.len() as u64, part);
    let outcomes: Vec<(usize, FileOutcome)> = to_analyze
        .into_par_iter()
        .with_max_len(1)
        .map(|(i, file, read, hash)| {
            let name = match &stage1[i] {
                Stage1::Ready(p) => p.config.name.as_str(),
                Stage1::Done(p) => p.name.as_str(),
            };
            let analyze = |text: &str, note: Option<Diagnostic>| {
                if let Some(facts) = cache.facts(name, &file.path, &hash) {
                    return FileOutcome::Analyzed(facts, file.area, text.len() as u64, note);
                }
                match analyze_guarded(file, text) {
                    Ok(facts) => {
                        if cache.remembers_facts() {
                            cache.remember_facts(name, &file.path, hash, &facts);
                        }
                        FileOutcome::Analyzed(facts, file.area, text.len() as u64, note)
                    }
                    Err(failure) => FileOutcome::Failed(failure),
                }
            };
            let outcome = match read {
                walk::Read::Text(text) => analyze(&text, None),
                walk::Read::Lossy { text, line } => {
                    let note = Diagnostic::new(
                        &file.path,
                        line,
                        "not valid UTF-8: invalid bytes were replaced with U+FFFD before analysis",
                    );
                    analyze(&text, Some(note))
                }
                walk::Read::Binary => FileOutcome::Binary,
                walk::Read::TooLarge => FileOutcome::TooLarge,
                walk::Read::Failed(e) => FileOutcome::Failed(Diagnostic::new(&file.path, 0, e)),
            };
            progress.file_done();
            (i, outcome)
        })
        .collect();
    progress.files_finish();

    let mut per_project: Vec<Vec<FileOutcome>> = stage1.iter().map(|_| Vec::new()).collect();
    for (i, outcome) in outcomes {
        per_project[i].push(outcome);
    }
    // Once, with the last batch: the earlier ones are assembled under their own lines.
    if part.is_none_or(|(n, of)| n == of) {
        progress.stage("resolving and linking");
    }
    stage1
        .into_iter()
        .zip(per_project)
        .zip(cached.iter_mut().map(Option::take))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|((stage, outcomes), cached)| match (stage, cached) {
            (Stage1::Done(project), _) => project,
            (Stage1::Ready(prepared), Some((_, Some(mut project)))) => {
                // Images are not part of the serialized model: they come from this walk.
                project.doc_images = prepared.docs.images;
                project
            }
            (Stage1::Ready(prepared), cached) => {
                let name = prepared.config.name.clone();
                let p = prepared.config;
                let run = || assemble(prepared, outcomes, config);
                let project = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
                    .unwrap_or_else(|panic| {
                        let e = format!(
                            "project `{name}`: analysis failed ({}). This is a bug in portolan: please report it",
                            panic_message(&*panic)
                        );
                        failed(p, e)
                    });
                if let Some((key, _)) = cached
                    && project.error.is_none()
                {
                    cache.store(&name, &key, &project);
                }
                project
            }
        })
        .collect()
}

/// One file's analysis, with a panic in an analyzer (a bug) caught and turned into a
/// diagnostic, so that one file cannot take the other files and projects down with it.
/// (Stack overflows cannot be caught: `analyze` refuses input that could nest that deep.)
fn analyze_guarded(file: &walk::SourceFile, text: &str) -> Result<FileFacts, Diagnostic> {
    caught(&file.path, || {
        analyze::analyze_file(file.kind, &file.path, text, file.area)
    })
}

/// `run`, or the diagnostic for `path` if it panicked.
fn caught<T>(path: &str, run: impl FnOnce() -> T) -> Result<T, Diagnostic> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).map_err(|panic| {
        let message = format!(
            "analyzer failed on this file ({}); it is skipped. This is a bug in portolan: please report it with the file",
            panic_message(&*panic)
        );
        Diagnostic::new(path, 0, message)
    })
}

/// What a caught panic said.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// A file that was not read as text, in a project's key.
fn read_tag(read: &walk::Read) -> String {
    match read {
        walk::Read::Text(_) => "text".into(),
        walk::Read::Lossy { line, .. } => format!("lossy {line}"),
        walk::Read::Binary => "binary".into(),
        walk::Read::TooLarge => "too large".into(),
        walk::Read::Failed(e) => format!("failed {e}"),
    }
}

/// The cache key of one project: everything its analysis depends on.
fn project_key(
    index: usize,
    p: &Prepared,
    config: &Config,
    reads: &[(usize, &walk::SourceFile, walk::Read, Hash)],
) -> Hash {
    // What `compare` lists and what `check` accepts do not change the analysis.
    let analyzed = ProjectConfig {
        compare: Vec::new(),
        accept_unresolved: Vec::new(),
        ..p.config.clone()
    };
    let mut h = KeyHasher::new("project");
    h.field(format!("{analyzed:?}").as_bytes())
        .field(format!("{:?}", config.groups).as_bytes())
        .field(format!("{:?}", p.checkout).as_bytes())
        .field(format!("{:?}", p.report).as_bytes())
        .field(format!("{:?} {:?}", p.docs.docs, p.docs.diagnostics).as_bytes());
    for image in &p.docs.images {
        h.field(image.path.as_bytes())
            .field(&cache::hash_bytes(&image.bytes));
    }
    // Files of this project, in walk order (reads keep the work list's order).
    for (_, file, read, hash) in reads.iter().filter(|(j, ..)| *j == index) {
        h.field(file.path.as_bytes())
            .field(format!("{:?} {:?} {}", file.kind, file.area, read_tag(read)).as_bytes())
            .field(hash);
    }
    h.finish()
}

fn prepare<'a>(
    p: &'a ProjectConfig,
    config: &Config,
    options: &Options,
) -> Result<Prepared<'a>, Error> {
    let checkout = source::prepare(p, &config.site.cache_dir, options.offline)?;
    let filter = walk::Filter::new(&p.include, &p.exclude)?;
    let (files, report) = walk::walk(&checkout.root, &filter);
    let docs = source::docs::collect(&checkout.root, &p.docs);
    Ok(Prepared {
        config: p,
        checkout,
        files,
        report,
        docs,
    })
}

/// What reading and analyzing one file gave.
enum FileOutcome {
    /// The facts, and a note when the text had to be repaired first.
    Analyzed(FileFacts, Area, u64, Option<Diagnostic>),
    Binary,
    TooLarge,
    Failed(Diagnostic),
}

fn assemble(prepared: Prepared, outcomes: Vec<FileOutcome>, config: &Config) -> Project {
    let mut stats = Stats {
        skipped_large: prepared.report.skipped_large,
        skipped_symlinks: prepared.report.symlinks_outside,
        ..Stats::default()
    };
    let mut inputs = Vec::with_capacity(outcomes.len());
    let mut read_errors = Vec::new();
    for outcome in outcomes {
        match outcome {
            FileOutcome::Analyzed(f, area, bytes, note) => {
                read_errors.extend(note);
                stats.files_analyzed += 1;
                stats.bytes_analyzed += bytes;
                match &f {
                    FileFacts::Go(g) if !g.vendored => stats.go_files += 1,
                    FileFacts::Go(_) => {}
                    FileFacts::Yaml(_) => stats.yaml_files += 1,
                    FileFacts::GoMod(..)
                    | FileFacts::Rust(_)
                    | FileFacts::CargoToml(..)
                    | FileFacts::Proto(_)
                    | FileFacts::Build(_) => {}
                }
                inputs.push((f, area));
            }
            FileOutcome::Binary => stats.skipped_binary += 1,
            FileOutcome::TooLarge => stats.skipped_large += 1,
            FileOutcome::Failed(d) => read_errors.push(d),
        }
    }
    let analyze::Assembled {
        mut findings,
        yaml_counts,
    } = analyze::assemble(inputs, &config.groups);
    findings.diagnostics.extend(read_errors);
    let docs = prepared.docs;
    findings.diagnostics.extend(docs.diagnostics);
    findings.diagnostics.sort();
    stats.yaml_templated = yaml_counts.templated_files;
    stats.yaml_unparsed = yaml_counts.failed_files;
    let p = prepared.config;
    Project {
        schema_version: SCHEMA_VERSION,
        name: p.name.clone(),
        title: p.title.clone(),
        description: p.description.clone(),
        repository: prepared.checkout.repository,
        commit: prepared.checkout.commit,
        source_url: prepared.checkout.source_url,
        findings,
        stats,
        docs: docs.docs,
        doc_images: docs.images,
        error: None,
    }
}

fn failed(p: &ProjectConfig, error: String) -> Project {
    Project {
        schema_version: SCHEMA_VERSION,
        name: p.name.clone(),
        title: p.title.clone(),
        description: p.description.clone(),
        error: Some(error),
        ..Project::default()
    }
}

/// Reads a model written by `portolan analyze PATH --out P.json`; projects.toml names it.
fn load_model(p: &ProjectConfig, path: &Path) -> Project {
    match read_model(path) {
        Err(e) => failed(p, format!("project `{}`: {e}", p.name)),
        Ok(mut model) => {
            // projects.toml decides how the project is named and presented.
            model.name = p.name.clone();
            model.title = p.title.clone();
            if let Some(url) = &p.source_url {
                model.source_url = url.clone();
            }
            if !p.description.is_empty() {
                model.description = p.description.clone();
            }
            model
        }
    }
}

/// Reads a model file. Only a regular file of at most [`MAX_MODEL_BYTES`] is read.
pub fn read_model(path: &Path) -> Result<Project, Error> {
    let text = regular::read(path, MAX_MODEL_BYTES).map_err(|source| {
        let help = match source {
            ReadError::Io(_) => "",
            ReadError::NotRegular(_) | ReadError::TooLarge(_) => {
                "; `model =` must name the JSON file `portolan analyze PATH --out FILE` wrote"
            }
        };
        Error::ModelRead {
            path: path.to_path_buf(),
            source,
            help,
        }
    })?;
    match serde_json::from_slice::<Project>(&text) {
        Ok(model) if model.schema_version != SCHEMA_VERSION => Err(Error::ModelVersion {
            path: path.to_path_buf(),
            found: model.schema_version,
        }),
        Ok(model) => Ok(model),
        Err(source) => Err(Error::ModelJson {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Analyzes one local repository outside any projects.toml (`portolan analyze PATH`).
pub fn analyze_path(path: &Path, options: &Options) -> Result<Project, Error> {
    let canonical = std::fs::canonicalize(path).map_err(|source| Error::Path {
        path: path.to_path_buf(),
        source,
    })?;
    let name = canonical
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_else(|| "project".into())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect::<String>();
    let project = ProjectConfig {
        title: name.clone(),
        name,
        description: String::new(),
        source: SourceSpec::Path(canonical),
        include: Vec::new(),
        exclude: Vec::new(),
        docs: Vec::new(),
        source_url: None,
        compare: Vec::new(),
        accept_unresolved: Vec::new(),
    };
    let config = Config {
        file: PathBuf::from("projects.toml"),
        site: config::Site::defaults(Path::new(".")),
        projects: vec![project],
        groups: Default::default(),
    };
    let mut projects = analyze_projects(&config, options, &Silent)?;
    let project = projects.pop().ok_or(Error::NothingAnalyzed)?;
    match &project.error {
        Some(e) => Err(Error::ProjectFailed(e.clone())),
        None => Ok(project),
    }
}

/// What `analyze --parse-only` counted.
#[derive(Debug, Default)]
pub struct ParseCounts {
    pub files: u64,
    pub bytes: u64,
    pub go_files: u64,
    pub go_files_with_errors: u64,
    pub yaml_documents: u64,
    pub yaml_failures: u64,
    pub binary: u64,
}

/// The floor full analysis is measured against: the same walk, the same reads and the same
/// parsers (tree-sitter for Go, serde-saphyr per YAML document) on the same pool, nothing else.
pub fn parse_only(path: &Path, options: &Options) -> Result<ParseCounts, Error> {
    if !path.is_dir() {
        return Err(Error::NotAFolder {
            path: path.to_path_buf(),
        });
    }
    let filter = walk::Filter::new(&[], &[])?;
    let (files, _) = walk::walk(path, &filter);
    let pool = pool(options.jobs)?;
    let per_file: Vec<ParseCounts> = pool.install(|| {
        files
            .par_iter()
            .with_max_len(1)
            .map(|file| {
                let mut c = ParseCounts::default();
                let text = match walk::read(file) {
                    walk::Read::Text(t) => t,
                    walk::Read::Binary => {
                        c.binary = 1;
                        return c;
                    }
                    _ => return c,
                };
                c.files = 1;
                c.bytes = text.len() as u64;
                match file.kind {
                    // protoc's generated Go is parsed by the analysis too (for gRPC facts).
                    analyze::FileKind::Go
                    | analyze::FileKind::GoGenerated
                    | analyze::FileKind::GoVendoredApi => {
                        c.go_files = 1;
                        if let Some(errors) = go::file::has_syntax_errors(&text) {
                            c.go_files_with_errors = u64::from(errors);
                        }
                    }
                    analyze::FileKind::Yaml => {
                        for doc in manifests::yaml::split_documents(&text) {
                            c.yaml_documents += 1;
                            let parsed = manifests::yaml::documents::parse(doc.text);
                            c.yaml_failures += u64::from(parsed.is_err());
                        }
                    }
                    analyze::FileKind::GoMod
                    | analyze::FileKind::ValuesSchema
                    | analyze::FileKind::Rust
                    | analyze::FileKind::CargoToml
                    | analyze::FileKind::Proto
                    | analyze::FileKind::HelmHelpers
                    | analyze::FileKind::Build => {}
                }
                c
            })
            .collect()
    });
    let mut total = ParseCounts::default();
    for c in per_file {
        total.files += c.files;
        total.bytes += c.bytes;
        total.go_files += c.go_files;
        total.go_files_with_errors += c.go_files_with_errors;
        total.yaml_documents += c.yaml_documents;
        total.yaml_failures += c.yaml_failures;
        total.binary += c.binary;
    }
    Ok(total)
}

#[cfg(test)]
mod tests;
