//! The pipeline: config → sources → one parallel analysis over all files of all projects →
//! projects → link → render → output. Only this module (and later `serve`) orchestrates.
//!
//! A project that fails (missing path, failed clone, unreadable model) becomes a `Project`
//! with `error` set; the others go on. Whether that fails the whole command is `main`'s call.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::analyze::{self, FileFacts};
use crate::config::{Config, ProjectConfig, SourceSpec};
use crate::content;
use crate::link;
use crate::model::{Area, Diagnostic, Project, SCHEMA_VERSION, Stats};
use crate::output;
use crate::render::{self, OutputFile, Theme};
use crate::search;
use crate::source::{self, walk};

/// How a run behaves, from the command line.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub jobs: Option<usize>,
    pub offline: bool,
    /// Overrides `site.output`.
    pub out: Option<PathBuf>,
}

/// Progress reporting, implemented by the CLI (bars on a terminal, lines otherwise).
pub trait Progress: Sync {
    fn stage(&self, message: &str);
    fn files_start(&self, total: u64);
    fn file_done(&self);
    fn files_finish(&self);
}

/// A progress sink that shows nothing.
pub struct Silent;

impl Progress for Silent {
    fn stage(&self, _: &str) {}
    fn files_start(&self, _: u64) {}
    fn file_done(&self) {}
    fn files_finish(&self) {}
}

/// The result of analyzing and rendering, before anything is written.
pub struct Built {
    pub projects: Vec<Project>,
    pub files: Vec<OutputFile>,
    pub output: PathBuf,
    /// The tantivy index behind `portolan search` (its static export is in `files`).
    pub search: search::SearchIndex,
    /// Where `write` keeps the tantivy index.
    pub search_dir: PathBuf,
    /// How many documents the search index holds.
    pub search_documents: usize,
    /// How long reading the documents, indexing and exporting took.
    pub search_time: std::time::Duration,
}

fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        builder = builder.num_threads(n.max(1));
    }
    builder
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))
}

/// Gets, walks and analyzes every project; failed ones carry their error.
pub fn analyze_projects(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Vec<Project>, String> {
    let pool = pool(options.jobs)?;
    Ok(pool.install(|| analyze_in_pool(config, options, progress)))
}

/// A project whose sources are ready to analyze.
struct Prepared<'a> {
    config: &'a ProjectConfig,
    checkout: source::Checkout,
    files: Vec<walk::SourceFile>,
    report: walk::WalkReport,
    docs: source::docs::Collected,
}

enum Stage1<'a> {
    Ready(Prepared<'a>),
    Done(Project),
}

fn analyze_in_pool(config: &Config, options: &Options, progress: &dyn Progress) -> Vec<Project> {
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
                Err(e) => Stage1::Done(failed(p, e)),
            },
        })
        .collect();

    // One flat list over all projects, so one pool balances big and small repositories.
    let work: Vec<(usize, &walk::SourceFile)> = stage1
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Stage1::Ready(p) => Some(p.files.iter().map(move |f| (i, f))),
            Stage1::Done(_) => None,
        })
        .flatten()
        .collect();
    progress.files_start(work.len() as u64);
    let outcomes: Vec<(usize, FileOutcome)> = work
        .par_iter()
        .with_max_len(1)
        .map(|&(i, file)| {
            let outcome = match walk::read(file) {
                walk::Read::Text(text) => {
                    let facts = analyze::analyze_file(file.kind, &file.path, &text, file.area);
                    FileOutcome::Analyzed(facts, file.area, text.len() as u64, None)
                }
                walk::Read::Lossy { text, line } => {
                    let facts = analyze::analyze_file(file.kind, &file.path, &text, file.area);
                    let note = Diagnostic::new(
                        &file.path,
                        line,
                        "not valid UTF-8: invalid bytes were replaced with U+FFFD before analysis",
                    );
                    FileOutcome::Analyzed(facts, file.area, text.len() as u64, Some(note))
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
    progress.stage("resolving and linking");
    stage1
        .into_iter()
        .zip(per_project)
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(stage, outcomes)| match stage {
            Stage1::Done(project) => project,
            Stage1::Ready(prepared) => assemble(prepared, outcomes, config),
        })
        .collect()
}

fn prepare<'a>(
    p: &'a ProjectConfig,
    config: &Config,
    options: &Options,
) -> Result<Prepared<'a>, String> {
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
                match f {
                    FileFacts::Go(_) => stats.go_files += 1,
                    FileFacts::Yaml(_) => stats.yaml_files += 1,
                    FileFacts::GoMod(_) | FileFacts::Rust(_) | FileFacts::CargoToml(_) => {}
                }
                inputs.push((f, area));
            }
            FileOutcome::Binary => stats.skipped_binary += 1,
            FileOutcome::TooLarge => stats.skipped_large += 1,
            FileOutcome::Failed(d) => read_errors.push(d),
        }
    }
    let mut findings = analyze::assemble(inputs, &config.groups);
    findings.diagnostics.extend(read_errors);
    let docs = prepared.docs;
    findings.diagnostics.extend(docs.diagnostics);
    findings.diagnostics.sort();
    let y = std::mem::take(&mut findings.yaml);
    stats.yaml_templated = y.templated_files;
    stats.yaml_unparsed = y.failed_files;
    let p = prepared.config;
    Project {
        schema_version: SCHEMA_VERSION,
        name: p.name.clone(),
        title: p.title.clone(),
        description: p.description.clone(),
        repository: prepared.checkout.repository,
        commit: prepared.checkout.commit,
        source_url: prepared.checkout.source_url,
        controllers: findings.controllers,
        crds: y.crds,
        webhooks: y.webhooks,
        http_endpoints: findings.http_endpoints,
        informers: findings.informers,
        package_operations: findings.package_operations,
        services: y.services,
        configmaps: y.configmaps,
        helm_charts: y.helm_charts,
        rbac: y.rbac,
        workloads: y.workloads,
        network_policies: y.network_policies,
        ingresses: y.ingresses,
        service_accounts: y.service_accounts,
        roles: y.roles,
        role_bindings: y.role_bindings,
        secrets: y.secrets,
        certificates: y.certificates,
        kustomizations: y.kustomizations,
        bundled_manifests: y.bundled_manifests,
        api_types: findings.api_types,
        binaries: findings.binaries,
        metrics: findings.metrics,
        diagnostics: findings.diagnostics,
        api_packages: findings.api_packages,
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
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            return failed(
                p,
                format!(
                    "project `{}`: cannot read model {}: {e}",
                    p.name,
                    path.display()
                ),
            );
        }
    };
    match serde_json::from_str::<Project>(&text) {
        Ok(model) if model.schema_version != SCHEMA_VERSION => failed(
            p,
            format!(
                "project `{}`: model {} has schema_version {}, this portolan reads {SCHEMA_VERSION}; re-run `portolan analyze`",
                p.name,
                path.display(),
                model.schema_version
            ),
        ),
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
        Err(e) => failed(
            p,
            format!(
                "project `{}`: model {} is not a portolan model: {} (line {}, column {})",
                p.name,
                path.display(),
                e,
                e.line(),
                e.column()
            ),
        ),
    }
}

/// Everything `build` does except writing: analyze, link and render in memory.
pub fn build_in_memory(
    config: &Config,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Built, String> {
    // The site's own pages and theme are read first: a mistake there should not wait for
    // the analysis.
    let content = content::load(&config.site.content)?;
    let theme_dir = config
        .file
        .parent()
        .unwrap_or(Path::new("."))
        .join("themes")
        .join(&config.site.theme);
    let theme = Theme::load(Some(&theme_dir))?;
    let mut projects = analyze_projects(config, options, progress)?;
    link::resolve_across_projects(&mut projects);
    let portal = link::link(&config.site.title, &projects);
    progress.stage("rendering");
    let mut files = render::render_site(&config.site, &portal, &projects, &content, &theme)?;
    progress.stage("indexing for search");
    let started = std::time::Instant::now();
    let search = search::build(&files, &config.site.base_path)?;
    let search_time = started.elapsed();
    files.extend(search.files);
    let output = options
        .out
        .clone()
        .unwrap_or_else(|| config.site.output.clone());
    Ok(Built {
        projects,
        files,
        output,
        search: search.index,
        search_dir: search::index_dir(&config.site.cache_dir),
        search_documents: search.documents,
        search_time,
    })
}

/// Writes a built site atomically, then the search index for `portolan search`.
pub fn write(built: &Built) -> Result<(), String> {
    output::write_site(&built.output, &built.files)?;
    built.search.save(&built.search_dir)
}

/// Analyzes one local repository outside any projects.toml (`portolan analyze PATH`).
pub fn analyze_path(path: &Path, options: &Options) -> Result<Project, String> {
    let canonical = std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
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
    };
    let config = Config {
        file: PathBuf::from("projects.toml"),
        site: crate::config::parse(Path::new("projects.toml"), "")
            .map_err(|e| e.to_string())?
            .site,
        projects: vec![project],
        groups: Default::default(),
    };
    let mut projects = analyze_projects(&config, options, &Silent)?;
    let project = projects.pop().ok_or("no project analyzed")?;
    match &project.error {
        Some(e) => Err(e.clone()),
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
pub fn parse_only(path: &Path, options: &Options) -> Result<ParseCounts, String> {
    if !path.is_dir() {
        return Err(format!("{} is not a folder", path.display()));
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
                    analyze::FileKind::Go => {
                        c.go_files = 1;
                        let mut parser = tree_sitter::Parser::new();
                        if parser
                            .set_language(&tree_sitter_go::LANGUAGE.into())
                            .is_ok()
                        {
                            let errors = parser
                                .parse(&text, None)
                                .is_none_or(|t| t.root_node().has_error());
                            c.go_files_with_errors = u64::from(errors);
                        }
                    }
                    analyze::FileKind::Yaml => {
                        for doc in analyze::yaml::split_documents(&text) {
                            c.yaml_documents += 1;
                            let parsed: Result<serde_json::Value, _> =
                                serde_saphyr::from_str(doc.text);
                            c.yaml_failures += u64::from(parsed.is_err());
                        }
                    }
                    analyze::FileKind::GoMod
                    | analyze::FileKind::ValuesSchema
                    | analyze::FileKind::Rust
                    | analyze::FileKind::CargoToml => {}
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
