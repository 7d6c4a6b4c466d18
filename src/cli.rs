//! Command-line arguments (clap) and progress display (indicatif bars on a terminal, plain
//! lines otherwise). Printing and exit codes live in `main`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use pipeline::analysis::Progress;
use serve::{self, Rebuilt};

/// portolan: one cross-linked documentation portal for a set of Kubernetes operators.
#[derive(Parser, Debug)]
#[command(name = "portolan", version, about)]
struct Args {
    #[command(subcommand)]
    command: Command,
    /// Print only errors.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print per-project details.
    #[arg(short, long, global = true)]
    verbose: bool,
}

/// The command line as the commands use it: the subcommand, and the flags of it that
/// several commands share (absent ones at their defaults).
#[derive(Debug)]
pub struct Cli {
    pub command: Command,
    pub config: PathBuf,
    pub out: Option<PathBuf>,
    pub jobs: Option<usize>,
    pub offline: bool,
    pub keep_going: bool,
    pub quiet: bool,
    pub verbose: bool,
}

impl Cli {
    /// Parses the process's arguments (printing help or a usage error and exiting on those).
    pub fn parse() -> Cli {
        let args = Args::parse();
        let default_config = || PathBuf::from(DEFAULT_CONFIG);
        let (config, out, run, keep_going) = match &args.command {
            Command::Init { config, .. } => (config.config.clone(), None, Run::default(), false),
            Command::Build {
                config,
                out,
                run,
                keep_going,
            }
            | Command::Serve {
                config,
                out,
                run,
                keep_going,
                ..
            } => (
                config.config.clone(),
                out.out.clone(),
                run.clone(),
                *keep_going,
            ),
            Command::Check { config, run } | Command::Search { config, run, .. } => {
                (config.config.clone(), None, run.clone(), false)
            }
            Command::Diff { config, run, .. } => (config.config.clone(), None, run.clone(), false),
            Command::Analyze { out, jobs, .. } => (
                default_config(),
                out.clone(),
                Run {
                    jobs: *jobs,
                    offline: false,
                },
                false,
            ),
        };
        Cli {
            command: args.command,
            config,
            out,
            jobs: run.jobs,
            offline: run.offline,
            keep_going,
            quiet: args.quiet,
            verbose: args.verbose,
        }
    }
}

const DEFAULT_CONFIG: &str = "projects.toml";

/// `--config`, for every command that reads projects.toml.
#[derive(clap::Args, Debug, Clone)]
pub struct ConfigArg {
    /// The projects file.
    #[arg(long, default_value = DEFAULT_CONFIG)]
    pub config: PathBuf,
}

/// How a command that gets and analyzes the projects runs.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Run {
    /// Worker threads (default: one per core; 1 to 256).
    #[arg(long, value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Never touch the network: a `git` project's clone (and revision) must already be in
    /// cache_dir.
    #[arg(long)]
    pub offline: bool,
}

/// `--out` of the commands that write the site.
#[derive(clap::Args, Debug, Clone)]
pub struct SiteOut {
    /// The site folder, instead of `site.output` of projects.toml.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The most worker threads `--jobs` accepts. The work is bound by the cores, so more threads
/// only cost memory (each reserves a stack) and time to start: 100,000 ran for minutes.
pub const MAX_JOBS: usize = 256;

fn parse_jobs(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (1..=MAX_JOBS).contains(&n) => Ok(n),
        _ => Err(format!(
            "give a number of worker threads from 1 to {MAX_JOBS} (the default is one per core)"
        )),
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Write a starter projects.toml (at --config) and content/index.md; never overwrites.
    ///
    /// Example: `portolan init https://github.com/kserve/kserve ../my-operator`
    Init {
        /// Git URLs or local folders, one project each (none: one example project).
        sources: Vec<String>,
        #[command(flatten)]
        config: ConfigArg,
    },
    /// Get, analyze and render every project of projects.toml into the site folder.
    ///
    /// Example: `portolan build --out public`
    Build {
        #[command(flatten)]
        config: ConfigArg,
        #[command(flatten)]
        out: SiteOut,
        #[command(flatten)]
        run: Run,
        /// Write the site even if a project failed; its pages show the error.
        #[arg(long)]
        keep_going: bool,
    },
    /// Everything `build` does except writing; fails on failed projects, unresolved kinds,
    /// broken links and revisions that could not be compared.
    ///
    /// Example: `portolan check --offline` (in CI, after a build that made the clones)
    Check {
        #[command(flatten)]
        config: ConfigArg,
        #[command(flatten)]
        run: Run,
    },
    /// Build, serve on loopback, watch the inputs, rebuild what changed and reload the browser.
    ///
    /// Example: `portolan serve --port 0 --open`
    Serve {
        #[command(flatten)]
        config: ConfigArg,
        #[command(flatten)]
        out: SiteOut,
        #[command(flatten)]
        run: Run,
        /// Serve the site even if a project failed; its pages show the error.
        #[arg(long)]
        keep_going: bool,
        /// The port (0 picks a free one; the address is printed).
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// The address to listen on (loopback by default: the preview is for you only).
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// Open the site in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Search the portal from the terminal (reads the index `build` keeps in cache_dir).
    ///
    /// Example: `portolan search "kind:InferencePool watch" --project kserve`
    Search {
        /// Words (all required, else any), "a phrase", kind:KIND, project:NAME, category:NAME.
        query: String,
        /// Only results of this project (repeatable).
        #[arg(long)]
        project: Vec<String>,
        /// Only results of this category, e.g. kind, watch, write, endpoint (repeatable).
        #[arg(long)]
        category: Vec<String>,
        /// How many results to print.
        #[arg(long, default_value_t = 10)]
        limit: usize,
        /// Print a JSON array of {title, url, project, category, score, snippet}, best first.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        config: ConfigArg,
        #[command(flatten)]
        run: Run,
    },
    /// Compare a project at two revisions (or two model files): every row that changed,
    /// breaking CRD changes first with the projects that use the kind.
    ///
    /// Examples: `portolan diff kserve --from v0.18.1` (to the pinned revision),
    /// `portolan diff kserve --from v0.18.1 --to main --format markdown --fail-on breaking`,
    /// `portolan diff --from-model old.json --to-model new.json --json`.
    Diff {
        /// The project, by its `name` in projects.toml (with models: the name the
        /// consumers are looked up by, default the model's).
        #[arg(required_unless_present = "from_model")]
        project: Option<String>,
        /// The earlier revision: a tag, branch or commit of the project's repository.
        #[arg(
            long,
            required_unless_present = "from_model",
            conflicts_with = "from_model"
        )]
        from: Option<String>,
        /// The later revision (default: the revision projects.toml pins, or the work tree's).
        #[arg(long, conflicts_with = "from_model")]
        to: Option<String>,
        /// The earlier side as a model file (`portolan analyze PATH --out FILE`).
        #[arg(long, requires = "to_model")]
        from_model: Option<PathBuf>,
        /// The later side as a model file.
        #[arg(long, requires = "from_model")]
        to_model: Option<PathBuf>,
        /// `text` for a terminal, `markdown` for a pull-request comment, `json`.
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        /// The same as `--format json`.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// Exit with 1 when there is a breaking change (`breaking`) or any change (`any`).
        #[arg(long, value_enum)]
        fail_on: Option<FailOn>,
        #[command(flatten)]
        config: ConfigArg,
        #[command(flatten)]
        run: Run,
    },
    /// Analyze one local repository and print its model as JSON (or write it with --out).
    ///
    /// Example: `portolan analyze ../my-operator --out my-operator.json`, then
    /// `model = "my-operator.json"` in projects.toml.
    Analyze {
        /// The repository's folder.
        path: PathBuf,
        /// The model file to write, instead of printing the model.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Worker threads (default: one per core; 1 to 256).
        #[arg(long, value_parser = parse_jobs)]
        jobs: Option<usize>,
        /// Benchmark floor: only walk, read and parse the files, and print counts.
        #[arg(long, hide = true)]
        parse_only: bool,
    },
}

/// How `diff` prints.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffFormat {
    Text,
    Markdown,
    Json,
}

/// What makes `diff` exit with 1.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    Breaking,
    Any,
}

/// Progress for the pipeline: a bar on a terminal, plain lines when piped, nothing with -q.
pub struct Reporter {
    bar: ProgressBar,
    plain: bool,
    quiet: bool,
}

impl Reporter {
    pub fn new(quiet: bool) -> Reporter {
        let target = if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        let plain = bar.is_hidden();
        Reporter { bar, plain, quiet }
    }
}

impl Progress for Reporter {
    fn stage(&self, message: &str) {
        if self.quiet {
            return;
        }
        if self.plain {
            eprintln!("portolan: {message}");
        } else {
            self.bar.println(format!("  {message}"));
        }
    }

    fn files_start(&self, total: u64, part: Option<(usize, usize)>) {
        let batch = part
            .map(|(n, of)| format!(" (batch {n} of {of})"))
            .unwrap_or_default();
        if self.plain {
            self.stage(&format!("analyzing {total} files{batch}"));
            return;
        }
        self.bar.set_length(total);
        self.bar.set_position(0);
        let template = format!("  analyzing {{bar:30}} {{pos}}/{{len}} files{batch}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            self.bar.set_style(style);
        }
    }

    fn file_done(&self) {
        if !self.plain {
            self.bar.inc(1);
        }
    }

    fn files_finish(&self) {
        if !self.plain {
            self.bar.finish_and_clear();
        }
    }
}

impl Reporter {
    /// A line that is always shown (unless -q), bar or not.
    fn line(&self, message: &str) {
        if self.quiet {
            return;
        }
        if self.plain {
            eprintln!("portolan: {message}");
        } else {
            self.bar.println(message);
        }
    }
}

impl Reporter {
    fn summary(&self, verb: &str, r: &Rebuilt, took: std::time::Duration) {
        self.line(&format!("{verb}: {} in {}", what_was_done(r), millis(took)));
        for f in &r.failed {
            self.line(&format!("project failed: {f}"));
        }
    }
}

fn millis(took: std::time::Duration) -> String {
    format!("{} ms", took.as_millis())
}

fn what_was_done(r: &Rebuilt) -> String {
    let analyzed = if r.analyzed.is_empty() {
        "no project analyzed".to_string()
    } else {
        format!("analyzed {}", r.analyzed.join(", "))
    };
    format!(
        "{analyzed}; rendered {} {}, wrote {} changed, removed {}",
        r.rendered,
        files(r.rendered),
        r.written,
        r.removed
    )
}

fn files(n: usize) -> &'static str {
    if n == 1 { "file" } else { "files" }
}

impl serve::Report for Reporter {
    fn built(&self, r: &Rebuilt, took: std::time::Duration) {
        self.summary("built the site", r, took);
    }

    fn listening(&self, url: &str) {
        // The address is what a person (or a test) needs first: shown even with -q.
        if self.plain || self.quiet {
            eprintln!("portolan: serving {url}");
        } else {
            self.bar.println(format!("serving {url}  (Ctrl-C stops)"));
        }
    }

    fn changed(&self, paths: &[PathBuf]) {
        let shown: Vec<String> = paths
            .iter()
            .take(5)
            .map(|p| p.display().to_string())
            .collect();
        let more = paths.len().saturating_sub(shown.len());
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        self.line(&format!("changed: {}{tail}", shown.join(", ")));
    }

    fn rebuilt(&self, generation: u64, r: &Rebuilt, took: std::time::Duration) {
        self.summary(&format!("rebuild {generation}"), r, took);
    }

    fn failed(&self, error: &str) {
        eprintln!("error: rebuild failed; still serving the last good site:\n{error}");
    }
}

impl serve::IndexReport for Reporter {
    fn indexed(&self, i: &serve::Indexed) {
        self.line(&format!(
            "rebuild {} searchable: indexed {} documents in {}; wrote the export ({} {} changed) in {}",
            i.generation,
            i.documents,
            millis(i.indexed),
            i.export_files,
            files(i.export_files),
            millis(i.exported)
        ));
    }

    fn index_failed(&self, error: &str) {
        eprintln!(
            "error: search indexing failed; /api/search answers from the last index:\n{error}"
        );
    }
}
