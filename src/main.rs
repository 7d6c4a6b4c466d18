//! portolan's binary: parse arguments, run a command, print, pick the exit code.
//! Exit codes: 0 ok, 1 a project failed (unless --keep-going), `check` found problems or
//! `diff --fail-on` found such a change, 2 bad usage or configuration, an output folder
//! portolan may not replace, or a comparison `diff` could not make.

mod cli;
#[cfg(test)]
mod fuzz;
mod init;
mod verify;

use std::process::ExitCode;

use anyhow::Context;
use cli::{Cli, Command, Reporter};
use pipeline::analysis::Options;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = Options {
        jobs: cli.jobs,
        offline: cli.offline,
        out: cli.out.clone(),
        reuse_output: matches!(cli.command, Command::Build { .. }),
        keep_going: cli.keep_going,
    };
    match &cli.command {
        Command::Init { sources, .. } => init(&cli, sources),
        Command::Analyze {
            path,
            parse_only: true,
            ..
        } => parse_only(path, &options),
        Command::Analyze {
            path,
            parse_only: false,
            ..
        } => analyze(&cli, path, &options),
        Command::Build { .. } => build(&cli, &options, true),
        Command::Check { .. } => build(&cli, &options, false),
        Command::Serve {
            port, bind, open, ..
        } => {
            // Refused before anything is built or served: serve writes the site too.
            if let Err(code) = load_config(&cli).and_then(|c| prepare_output(&c, &options)) {
                return code;
            }
            let serve = serve::ServeOptions {
                bind: *bind,
                port: *port,
                open: *open,
                keep_going: cli.keep_going,
            };
            match serve::run(&cli.config, options, serve, &Reporter::new(cli.quiet)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Diff {
            project,
            from,
            to,
            from_model,
            to_model,
            format,
            json,
            fail_on,
            ..
        } => {
            let format = if *json {
                cli::DiffFormat::Json
            } else {
                *format
            };
            let compared = match (from_model, to_model) {
                (Some(old), Some(new)) => {
                    compare_models(&cli, &options, project.as_deref(), old, new)
                }
                _ => load_config(&cli).map_err(|_| ()).and_then(|config| {
                    pipeline::revisions::compare_project(
                        &config,
                        project.as_deref().unwrap_or_default(),
                        from.as_deref().unwrap_or_default(),
                        to.as_deref(),
                        &options,
                        &Reporter::new(cli.quiet),
                    )
                    .map_err(|e| eprintln!("error: {e}"))
                }),
            };
            match compared {
                Ok(d) => print_diff(&d, format, *fail_on),
                Err(()) => ExitCode::from(2),
            }
        }
        Command::Search {
            query,
            project,
            category,
            limit,
            json,
            ..
        } => search(&cli, &options, query, project, category, *limit, *json),
    }
}

/// `diff --from-model --to-model`: the consumers of changed kinds come from the portal of
/// projects.toml when there is one.
fn compare_models(
    cli: &Cli,
    options: &Options,
    project: Option<&str>,
    old: &std::path::Path,
    new: &std::path::Path,
) -> Result<derive::diff::ProjectDiff, ()> {
    let config = if cli.config.is_file() {
        Some(load_config(cli).map_err(|_| ())?)
    } else {
        if !cli.quiet {
            eprintln!(
                "portolan: no {} here, so no other projects are looked up as consumers of changed kinds",
                cli.config.display()
            );
        }
        None
    };
    pipeline::revisions::compare_models(
        config.as_ref(),
        project,
        old,
        new,
        options,
        &Reporter::new(cli.quiet),
    )
    .map_err(|e| eprintln!("error: {e}"))
}

/// Prints a comparison; exits 1 when `fail_on` says its changes fail the run.
fn print_diff(
    d: &derive::diff::ProjectDiff,
    format: cli::DiffFormat,
    fail_on: Option<cli::FailOn>,
) -> ExitCode {
    match format {
        cli::DiffFormat::Text => print!("{}", derive::diff::format::text(d)),
        cli::DiffFormat::Markdown => print!("{}", derive::diff::format::markdown(d)),
        cli::DiffFormat::Json => match serde_json::to_string_pretty(d) {
            Ok(j) => println!("{j}"),
            Err(e) => {
                eprintln!("error: cannot serialize the comparison: {e}");
                return ExitCode::from(2);
            }
        },
    }
    let fails = match fail_on {
        None => false,
        Some(cli::FailOn::Breaking) => d.breaking > 0,
        Some(cli::FailOn::Any) => !d.changes.is_empty(),
    };
    if fails {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// An error and its causes as one message. The crates' errors already say their cause in
/// their own text, so a cause is added only when the message does not hold it yet.
fn message(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

fn init(cli: &Cli, sources: &[String]) -> ExitCode {
    let dir = init::config_dir(&cli.config);
    let written = init::starter(sources, &dir).and_then(|s| init::write(&cli.config, &s));
    match written {
        Ok(paths) => {
            if !cli.quiet {
                for path in paths {
                    eprintln!("portolan: wrote {}", path.display());
                }
                eprintln!(
                    "portolan: next, `portolan build{}` (or `portolan serve` to preview)",
                    if cli.config == std::path::Path::new("projects.toml") {
                        String::new()
                    } else {
                        format!(" --config {}", cli.config.display())
                    }
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", message(&e));
            ExitCode::from(2)
        }
    }
}

fn search(
    cli: &Cli,
    options: &Options,
    query: &str,
    projects: &[String],
    categories: &[String],
    limit: usize,
    json: bool,
) -> ExitCode {
    let config = match load_config(cli) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let dir = search::index_dir(&config.site.cache_dir);
    let index = if dir.join("meta.json").is_file() {
        search::SearchIndex::open(&dir).map_err(anyhow::Error::from)
    } else {
        // No build yet: build in memory (nothing is written) and search that.
        if !cli.quiet {
            eprintln!(
                "portolan: no search index in {} yet (`portolan build` keeps one); building the site in memory",
                dir.display()
            );
        }
        pipeline::build_in_memory(&config, options, &Reporter::new(true))
            .context("cannot build the site to search it")
            .and_then(|b| {
                b.search.with_context(|| {
                    format!(
                        "the site is up to date but its search index is missing from {}; run `portolan build` into another folder (--out) to make one",
                        dir.display()
                    )
                })
            })
    };
    let answer = index.and_then(|i| Ok(search::run(&i, query, projects, categories, limit)?));
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {}", message(&e));
            return ExitCode::from(1);
        }
    };
    for note in &answer.notes {
        eprintln!("note: {note}");
    }
    let base = config.site.base_url.trim_end_matches('/');
    let url = |u: &str| format!("{base}/{u}");
    if json {
        let hits: Vec<serde_json::Value> = answer
            .hits
            .iter()
            .map(|h| {
                serde_json::json!({
                    "title": h.title,
                    "url": url(&h.url),
                    "project": h.project,
                    "category": h.category,
                    "score": h.score,
                    "page": h.page,
                    "context": h.context,
                    "snippet": h.snippet,
                })
            })
            .collect();
        println!("{}", serde_json::Value::Array(hits));
        return ExitCode::SUCCESS;
    }
    if answer.hits.is_empty() {
        eprintln!("no results");
        return ExitCode::SUCCESS;
    }
    if answer.any_word {
        eprintln!("note: no result has every word; these have some of them");
    }
    for (i, h) in answer.hits.iter().enumerate() {
        let project = if h.project.is_empty() {
            String::new()
        } else {
            format!(" · {}", h.project)
        };
        println!("{:>2}. {}  [{}{project}]", i + 1, h.title, h.category);
        println!("    {}", url(&h.url));
        match (h.page.as_str(), h.context.as_str()) {
            (page, _) if page.is_empty() || page == h.title => {}
            (page, "") => println!("    in {page}"),
            (page, context) => println!("    in {page} › {context}"),
        }
        if !h.snippet.is_empty() && h.snippet != h.title {
            println!("    {}", h.snippet);
        }
    }
    if answer.total > answer.hits.len() {
        eprintln!(
            "{} of {} results (--limit for more)",
            answer.hits.len(),
            answer.total
        );
    }
    ExitCode::SUCCESS
}

fn parse_only(path: &std::path::Path, options: &Options) -> ExitCode {
    match pipeline::analysis::parse_only(path, options) {
        Ok(c) => {
            println!(
                "{} files, {} bytes: {} Go files ({} with syntax errors), {} YAML documents ({} not parsed), {} skipped as binary",
                c.files,
                c.bytes,
                c.go_files,
                c.go_files_with_errors,
                c.yaml_documents,
                c.yaml_failures,
                c.binary
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn analyze(cli: &Cli, path: &std::path::Path, options: &Options) -> ExitCode {
    let project = match pipeline::analysis::analyze_path(
        path,
        &Options {
            out: None,
            ..options.clone()
        },
    ) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let json = match serde_json::to_string_pretty(&project) {
        Ok(j) => j + "\n",
        Err(e) => {
            eprintln!("error: cannot serialize the model: {e}");
            return ExitCode::from(1);
        }
    };
    match &cli.out {
        None => print!("{json}"),
        Some(out) => {
            if let Err(e) = pipeline::output::model_file::write(out, &json) {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
            if !cli.quiet {
                eprintln!("portolan: wrote {}", out.display());
            }
        }
    }
    ExitCode::SUCCESS
}

/// projects.toml, or exit code 2 with the error printed.
fn load_config(cli: &Cli) -> Result<config::Config, ExitCode> {
    config::load(&cli.config).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

/// Checks the output may be replaced before any work, or prints why not with its exit code.
fn prepare_output(config: &config::Config, options: &Options) -> Result<(), ExitCode> {
    pipeline::prepare_output(config, options).map_err(|e| output_failed(&e))
}

/// Prints a failed write: 2 for an output portolan refuses to replace, else 1.
fn output_failed(e: &pipeline::output::Error) -> ExitCode {
    eprintln!("error: {e}");
    match e {
        pipeline::output::Error::Refused(_) => ExitCode::from(2),
        pipeline::output::Error::Failed(_) | pipeline::output::Error::SearchIndex(_) => {
            ExitCode::from(1)
        }
    }
}

fn build(cli: &Cli, options: &Options, write: bool) -> ExitCode {
    let config = match load_config(cli) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if write && let Err(code) = prepare_output(&config, options) {
        return code;
    }
    let reporter = Reporter::new(cli.quiet);
    // `build` writes each file as it is made; `check` keeps them to verify the links.
    let made = if write {
        pipeline::build_to_staging(&config, options, &reporter)
    } else {
        pipeline::build_in_memory(&config, options, &reporter)
    };
    let mut built = match made {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let failed: Vec<&pipeline::Outcome> = built
        .projects
        .iter()
        .filter(|p| p.error.is_some())
        .collect();
    for p in &failed {
        eprintln!("error: {}", p.error.as_deref().unwrap_or_default());
    }
    // A comparison that failed is on its changes page; `check` counts it below.
    if write {
        for c in &built.not_compared {
            eprintln!("warning: not compared: {c}");
        }
    }
    if !cli.quiet {
        for p in built.projects.iter().filter(|p| p.error.is_none()) {
            let c = &p.counts;
            let detail = if cli.verbose {
                format!(
                    ", {} files / {} bytes analyzed, {} large and {} binary files skipped",
                    p.stats.files_analyzed,
                    p.stats.bytes_analyzed,
                    p.stats.skipped_large,
                    p.stats.skipped_binary
                )
            } else {
                String::new()
            };
            let n = render::table::counted;
            eprintln!(
                "portolan: {}: {}, {}, {}, {}, {}{detail}",
                p.name,
                n(c.own.controllers, "controller", "controllers"),
                n(c.watches, "watch", "watches"),
                n(c.own.crds, "CRD", "CRDs"),
                n(c.own.services, "service", "services"),
                n(c.diagnostics, "diagnostic", "diagnostics")
            );
        }
    }
    if write {
        if !failed.is_empty() && !cli.keep_going {
            eprintln!(
                "error: {} project(s) failed; the site was not written (use --keep-going to write it with error pages)",
                failed.len()
            );
            return ExitCode::from(1);
        }
        if let Err(e) = pipeline::write(&mut built) {
            return output_failed(&e);
        }
        if built.unchanged {
            if !cli.quiet {
                eprintln!(
                    "portolan: nothing changed; {} is up to date",
                    built.output.display()
                );
            }
            return ExitCode::SUCCESS;
        }
        if !cli.quiet {
            eprintln!(
                "portolan: wrote {} files to {}; {} search documents",
                built.written,
                built.output.display(),
                built.search_documents
            );
            if cli.verbose {
                eprintln!(
                    "portolan: search index built in {} ms",
                    built.search_time.as_millis()
                );
            }
        }
        return ExitCode::SUCCESS;
    }
    // check: report every problem, then fail if there was any.
    let mut problems = failed.len();
    for c in &built.not_compared {
        eprintln!("not compared: {c}");
        problems += 1;
    }
    for p in &built.projects {
        let accepted = config
            .projects
            .iter()
            .find(|c| c.name == p.name)
            .map_or(&[][..], |c| c.accept_unresolved.as_slice());
        for w in &p.unresolved {
            let at = &w.at;
            if w.dynamic {
                // Chosen at run time by design: nothing for the user to map.
                eprintln!("note: dynamic kind: {}: {at}: {}", p.name, w.kind);
            } else if accepted.iter().any(|a| a == at || *a == w.file) {
                eprintln!(
                    "note: accepted unresolved kind: {}: {at}: {}",
                    p.name, w.kind
                );
            } else {
                eprintln!("unresolved kind: {}: {at}: {}", p.name, w.kind);
                problems += 1;
            }
        }
    }
    for link in verify::broken_links(&built.files, &config.site.base_path) {
        eprintln!("broken link: {link}");
        problems += 1;
    }
    if problems > 0 {
        eprintln!("check: {problems} problem(s)");
        ExitCode::from(1)
    } else {
        if !cli.quiet {
            eprintln!("check: ok");
        }
        ExitCode::SUCCESS
    }
}
