//! Search indexing for serve, after the browsers have reloaded.
//!
//! Indexing the whole site takes about a second on the real repositories, five times the
//! budget of a content edit. So a rebuild writes its pages and sends `reload` first; this
//! worker then indexes the newest page set, writes the search export, swaps the index
//! `/api/search` answers from, and sends `search` with the rebuild's generation. Page sets
//! that are superseded while it works are skipped: only the newest is indexed.

use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use crate::render::OutputFile;
use crate::search;

use super::reload::{Reloader, Signal};
use super::written::Written;

/// The current search index, shared with the server's `/api/search` route.
pub type SearchSlot = Arc<std::sync::RwLock<Option<search::SearchIndex>>>;

/// The site's pages (no search export) after rebuild number `generation`.
pub struct Job {
    pub generation: u64,
    pub pages: Arc<Vec<OutputFile>>,
    /// The site's base path, which result URLs start with.
    pub root: String,
}

/// What the worker tells the terminal.
pub trait IndexReport: Sync {
    fn indexed(&self, documents: usize, written: usize, took: Duration);
    fn index_failed(&self, error: &str);
}

/// The search export on disk and the index in `slot`.
pub struct Indexer {
    pub slot: SearchSlot,
    pub export: Written,
}

impl Indexer {
    /// Indexes `pages`, writes the export files that changed and swaps the index in.
    /// Returns (documents, files written or removed).
    pub fn index(&mut self, pages: &[OutputFile], root: &str) -> Result<(usize, usize), String> {
        let built = search::build(pages, root)?;
        let (written, removed) = self.export.replace(&built.files)?;
        if let Ok(mut slot) = self.slot.write() {
            *slot = Some(built.index);
        }
        Ok((built.documents, written + removed))
    }

    /// Indexes each newest job until the sender is dropped.
    pub fn run(mut self, jobs: mpsc::Receiver<Job>, reloader: &Reloader, report: &dyn IndexReport) {
        while let Ok(mut job) = jobs.recv() {
            while let Ok(newer) = jobs.try_recv() {
                job = newer;
            }
            let started = Instant::now();
            match self.index(&job.pages, &job.root) {
                Ok((documents, written)) => {
                    reloader.send(Signal::Searchable(job.generation));
                    report.indexed(documents, written, started.elapsed());
                }
                Err(error) => report.index_failed(&error),
            }
        }
    }
}
