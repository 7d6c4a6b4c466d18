//! Command-line arguments (clap) and progress display (indicatif bars on a terminal, plain
//! lines otherwise). Printing and exit codes live in `main`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::pipeline::Progress;
use crate::serve::{self, Rebuilt};

/// portolan: one cross-linked documentation portal for a set of Kubernetes operators.
#[derive(Parser, Debug)]
#[command(name = "portolan", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// The projects file.
    #[arg(long, global = true, default_value = "projects.toml")]
    pub config: PathBuf,
    /// Output: the site folder for `build`, the model file for `analyze`.
    #[arg(long, global = true)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: one per core; 1 to 256).
    #[arg(long, global = true, value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Never touch the network; fail if a clone or revision is missing from the cache.
    #[arg(long, global = true)]
    pub offline: bool,
    /// Write the site even if a project failed; its pages show the error.
    #[arg(long, global = true)]
    pub keep_going: bool,
    /// Print only errors.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print per-project details.
    #[arg(short, long, global = true)]
    pub verbose: bool,
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
    },
    /// Get, analyze and render every project of projects.toml into the site folder.
    Build,
    /// Everything `build` does except writing; fails on failed projects, unresolved kinds and broken links.
    Check,
    /// Build, serve on loopback, watch the inputs, rebuild what changed and reload the browser.
    Serve {
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
    },
    /// Analyze one local repository and print its model as JSON (or write it with --out).
    Analyze {
        /// The repository's folder.
        path: PathBuf,
        /// Only walk, read and parse the files (the floor analysis is measured against);
        /// print counts instead of a model.
        #[arg(long)]
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

    fn files_start(&self, total: u64) {
        if self.plain {
            self.stage(&format!("analyzing {total} files"));
            return;
        }
        self.bar.set_length(total);
        self.bar.set_position(0);
        if let Ok(style) = ProgressStyle::with_template("  analyzing {bar:30} {pos}/{len} files") {
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
