//! `portolan serve`: build the site, serve the output folder on loopback, watch the inputs,
//! rebuild what changed and reload the browsers.
//!
//! Threads: the HTTP server runs on a small tokio runtime (`accept` closes connections
//! that idle or are slow to send a request); the watcher (notify's own thread) sends
//! debounced batches of changes over a channel to one rebuild loop, which owns the
//! [`rebuild::Session`] and tells the browsers through [`reload::Reloader`];
//! after each good rebuild the [`indexer`] thread indexes the new pages for search, so the
//! reload does not wait for it. A failed rebuild leaves the last good site on disk and
//! shows its error in the pages.
//!
//! **Invariant:** no file outside the output folder is ever served (see `http`), and the
//! reload script is added to HTML responses only here, never to the written files.

mod accept;
mod error;
mod host;
mod http;
mod indexer;
mod rebuild;
mod reload;
mod watch;
mod written;

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;

use pipeline::analysis::{Options, Progress};

pub use error::Error;
pub use indexer::{IndexReport, Indexed};
pub use rebuild::Rebuilt;

/// How `serve` was asked to run.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub bind: IpAddr,
    /// 0 picks a free port (the bound address is reported).
    pub port: u16,
    /// Open the site in the default browser once it is served.
    pub open: bool,
    pub keep_going: bool,
}

/// What serve tells the person running it; implemented by the CLI (only it prints).
pub trait Report: Progress + IndexReport + Send {
    fn built(&self, rebuilt: &Rebuilt, took: Duration);
    fn listening(&self, url: &str);
    fn changed(&self, paths: &[PathBuf]);
    /// Rebuild number `generation` (the `reload` event's data) succeeded.
    fn rebuilt(&self, generation: u64, rebuilt: &Rebuilt, took: Duration);
    fn failed(&self, error: &str);
}

/// The routes of the preview server: the reload events, the search API, and the site's
/// files for everything else.
fn router(files: Arc<http::SiteFiles>, reloader: Arc<reload::Reloader>, search: Router) -> Router {
    Router::new()
        .route(
            reload::EVENTS_PATH,
            get(move || {
                let reloader = reloader.clone();
                async move { reloader.events() }
            }),
        )
        .merge(search)
        .fallback(move |request| http::serve_file(files.clone(), request))
        .layer(axum::middleware::from_fn(host::check))
}

/// Search queries answered at the same time (the cores of a laptop; each takes a few ms).
const SEARCH_QUERIES_AT_ONCE: usize = 2;

/// `GET /api/search?q=…`: answered from the current index by `search::api`
/// (`search.js` uses it instead of the static shards when the page names it).
fn search_routes(slot: indexer::SearchSlot) -> Router {
    // A query is CPU work, run on the blocking pool; at most this many at once, so file
    // responses (whose reads use the same pool) never queue behind a flood of queries.
    let running = Arc::new(tokio::sync::Semaphore::new(SEARCH_QUERIES_AT_ONCE));
    Router::new().route(
        "/api/search",
        get(move |query: axum::extract::RawQuery| {
            let slot = slot.clone();
            let running = running.clone();
            async move {
                let _permit = running.acquire_owned().await;
                let answer = tokio::task::spawn_blocking(move || {
                    answer_search(&slot, query.0.as_deref().unwrap_or_default())
                })
                .await
                .unwrap_or_else(|_| search::api::Response {
                    status: 500,
                    body: r#"{"error":"the search failed"}"#.into(),
                });
                (
                    axum::http::StatusCode::from_u16(answer.status)
                        .unwrap_or(axum::http::StatusCode::INTERNAL_SERVER_ERROR),
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    answer.body,
                )
            }
        }),
    )
}

/// Answers one `/api/search` query from the index in `slot`.
fn answer_search(slot: &indexer::SearchSlot, query: &str) -> search::api::Response {
    match slot.read() {
        Ok(guard) => match guard.as_ref() {
            Some(current) => search::api::answer(&current.index, query, &current.root),
            None => search::api::Response {
                status: 503,
                body: r#"{"error":"the search index is being built"}"#.into(),
            },
        },
        Err(_) => search::api::Response {
            status: 500,
            body: r#"{"error":"the search index is unavailable"}"#.into(),
        },
    }
}

/// Builds, serves and rebuilds until the process is stopped.
pub fn run(
    config_path: &Path,
    options: Options,
    serve: ServeOptions,
    report: &dyn Report,
) -> Result<(), Error> {
    let started = Instant::now();
    let (mut session, first, indexer) =
        rebuild::Session::start(config_path, options, serve.keep_going, report)?;
    report.built(&first, started.elapsed());

    let root = std::fs::canonicalize(session.output()).map_err(|source| Error::OutputFolder {
        path: session.output().to_path_buf(),
        source,
    })?;
    let files = Arc::new(http::SiteFiles {
        root,
        base_path: std::sync::RwLock::new(session.base_path().to_string()),
        inject_reload: true,
    });
    let reloader = reload::Reloader::new();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // The blocking pool runs the file system calls of file responses (tokio::fs) and
        // search queries (at most SEARCH_QUERIES_AT_ONCE of them).
        .max_blocking_threads(16)
        .enable_io()
        .enable_time()
        .build()
        .map_err(Error::Runtime)?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(SocketAddr::new(
            serve.bind, serve.port,
        )))
        .map_err(|source| Error::Listen {
            bind: serve.bind,
            port: serve.port,
            source,
        })?;
    let address = listener.local_addr().map_err(Error::Address)?;
    let app = router(
        files.clone(),
        reloader.clone(),
        search_routes(indexer.slot.clone()),
    );
    runtime.spawn(accept::serve(listener, app));
    // Watching starts before the address is announced: an edit made as soon as the
    // server is up must not be missed.
    let (sender, batches) = mpsc::channel();
    let mut roots = session.roots();
    let mut watcher = watch::start(roots.clone(), sender.clone())?;
    let url = format!("http://{address}{}", session.base_path());
    report.listening(&url);
    if serve.open {
        open_browser(&url);
    }

    let (jobs, queued) = mpsc::channel();
    let busy = indexer::Busy::default();
    std::thread::scope(|scope| {
        scope.spawn(|| indexer.run(queued, &busy, &reloader, report));
        let mut generation = 0;
        while let Ok(mut batch) = batches.recv() {
            // Coalesce what arrived while the last rebuild ran.
            while let Ok(more) = batches.try_recv() {
                batch.extend(more);
            }
            let started = Instant::now();
            report.changed(&batch.paths.iter().cloned().collect::<Vec<_>>());
            // Before the rebuild reads them: edits made from now on are seen.
            watcher.rearm(&batch.rearm)?;
            busy.rebuilding.store(true, Ordering::Relaxed);
            let result = session.rebuild(&batch.changes, report);
            match result {
                Ok(rebuilt) => {
                    generation += 1;
                    // projects.toml may have changed base_url: the new pages link under the
                    // new path, which must answer before the browsers reload.
                    if let Ok(mut base_path) = files.base_path.write()
                        && *base_path != session.base_path()
                    {
                        *base_path = session.base_path().to_string();
                    }
                    reloader.send(reload::Signal::Reload(generation));
                    report.rebuilt(generation, &rebuilt, started.elapsed());
                    busy.latest.store(generation, Ordering::Relaxed);
                    let _ = jobs.send(indexer::Job {
                        generation,
                        pages: session.pages(),
                        root: session.base_path().to_string(),
                    });
                }
                Err(error) => {
                    let error = error.to_string();
                    reloader.send(reload::Signal::BuildError(error.clone()));
                    report.failed(&error);
                }
            }
            busy.rebuilding.store(false, Ordering::Relaxed);
            // projects.toml may have added, moved or removed projects: watch what it names now.
            let now = session.roots();
            if now != roots {
                roots = now;
                watcher = watch::start(roots.clone(), sender.clone())?;
            }
        }
        drop(jobs);
        drop(watcher);
        Ok(())
    })
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    // Best effort: the address is printed anyway.
    let _ = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}
