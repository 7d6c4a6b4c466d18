//! Search indexing for serve, after the browsers have reloaded.
//!
//! Indexing the whole site takes about a second on the real repositories, five times the
//! budget of a content edit. So a rebuild writes its pages and sends `reload` first; this
//! worker then indexes the newest page set, swaps the index `/api/search` answers from,
//! sends `search` with the rebuild's generation, and then writes the static search export
//! (thousands of files, which take longer than the index on some disks; browsers in serve
//! use `/api/search`, not the export). Page sets that are superseded while it works are
//! skipped: only the newest is indexed.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use render::OutputFile;

use super::reload::{Reloader, Signal};
use super::written::Written;

/// The current search index, shared with the server's `/api/search` route.
pub type SearchSlot = Arc<std::sync::RwLock<Option<Searchable>>>;

/// A search index and the base path its result URLs start with (both change together
/// when an edit of projects.toml changes `base_url`).
pub struct Searchable {
    pub index: search::SearchIndex,
    pub root: String,
}

/// The site's pages (no search export) after rebuild number `generation`.
pub struct Job {
    pub generation: u64,
    pub pages: Arc<Vec<OutputFile>>,
    /// The site's base path, which result URLs start with.
    pub root: String,
}

/// What one indexing did, for the terminal.
pub struct Indexed {
    /// The rebuild whose pages were indexed.
    pub generation: u64,
    pub documents: usize,
    /// From the job's start until `/api/search` answered from the new index.
    pub indexed: Duration,
    /// Export files written or removed, and how long from the swap until they were (pauses
    /// for rebuilds included).
    pub export_files: usize,
    pub exported: Duration,
}

/// What the worker tells the terminal.
pub trait IndexReport: Sync {
    fn indexed(&self, indexed: &Indexed);
    fn index_failed(&self, error: &str);
}

/// The search export on disk and the index in `slot`.
pub struct Indexer {
    pub slot: SearchSlot,
    pub export: Written,
}

/// What the rebuild loop is doing, for the indexer to yield to it: writing the export
/// (thousands of files) while a rebuild runs would slow the next reload.
#[derive(Default)]
pub struct Busy {
    /// A rebuild is running.
    pub rebuilding: AtomicBool,
    /// The generation of the newest job sent.
    pub latest: AtomicU64,
}

/// How long an export paused for a rebuild waits for that rebuild's job before it goes on
/// (a failed rebuild sends none).
const RESUME_AFTER: Duration = Duration::from_millis(500);

impl Indexer {
    /// Indexes each newest job until the sender is dropped. The index is swapped in (and
    /// `search` sent) as soon as it is built; the export is written after, paused while a
    /// rebuild runs and dropped for a newer job's.
    pub fn run(
        mut self,
        jobs: mpsc::Receiver<Job>,
        busy: &Busy,
        reloader: &Reloader,
        report: &dyn IndexReport,
    ) {
        // The export built but not yet (wholly) written, and what to report when it is.
        let mut unwritten: Option<(Vec<OutputFile>, Indexed, Instant)> = None;
        loop {
            let next = if unwritten.is_some() {
                match jobs.recv_timeout(RESUME_AFTER) {
                    Ok(job) => Some(job),
                    Err(mpsc::RecvTimeoutError::Timeout) => None,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                }
            } else {
                match jobs.recv() {
                    Ok(job) => Some(job),
                    Err(_) => return,
                }
            };
            if let Some(mut job) = next {
                while let Ok(newer) = jobs.try_recv() {
                    job = newer;
                }
                let started = Instant::now();
                let mut export = Vec::new();
                match search::build(&job.pages, &job.root, &mut export) {
                    Ok(built) => {
                        if let Ok(mut slot) = self.slot.write() {
                            *slot = Some(Searchable {
                                index: built.index,
                                root: job.root.clone(),
                            });
                        }
                        reloader.send(Signal::Searchable(job.generation));
                        let indexed = Indexed {
                            generation: job.generation,
                            documents: built.documents,
                            indexed: started.elapsed(),
                            export_files: 0,
                            exported: Duration::ZERO,
                        };
                        unwritten = Some((export, indexed, Instant::now()));
                    }
                    Err(error) => report.index_failed(&error.to_string()),
                }
            }
            let Some((files, indexed, since)) = &mut unwritten else {
                continue;
            };
            let generation = indexed.generation;
            let stop = || {
                busy.rebuilding.load(Ordering::Relaxed)
                    || busy.latest.load(Ordering::Relaxed) > generation
            };
            match self.export.replace_unless(files, &stop) {
                Ok(Some((written, removed))) => {
                    indexed.export_files = written + removed;
                    indexed.exported = since.elapsed();
                    report.indexed(indexed);
                    unwritten = None;
                }
                // Paused: go on after the rebuild (with its job's export, if it sends one).
                Ok(None) => {}
                Err(error) => {
                    report.index_failed(&error.to_string());
                    unwritten = None;
                }
            }
        }
    }
}
