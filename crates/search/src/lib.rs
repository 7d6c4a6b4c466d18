//! Search: the documents of the rendered site, their tantivy index, the query language and
//! its ranking, and the static export the browser script reads.
//!
//! Stage: after render. Input: the rendered files; output: the tantivy index (kept in
//! `cache_dir/search/` for `portolan search`) and the export's files (added to the site).

pub mod api;
pub mod documents;
pub mod engine;
mod error;
pub mod export;
pub mod index;
pub mod query;
pub mod tokens;

use std::path::{Path, PathBuf};

pub use engine::Answer;
pub use error::Error;
pub use index::SearchIndex;
use render::{OutputFile, Sink};

/// The search index of a site.
pub struct Built {
    pub index: SearchIndex,
    pub documents: usize,
}

/// Indexes the rendered `files` of a site whose base path is `root`, in the order given:
/// render order, as `build` indexes them while it writes, so serve's export is the same.
/// The export's files go to `export`.
pub fn build(files: &[OutputFile], root: &str, export: &mut dyn Sink) -> Result<Built, Error> {
    let mut indexer = Indexer::new(root)?;
    for file in files {
        indexer.page(file, export)?;
    }
    indexer.finish(export)
}

/// Indexes a site's pages as they are rendered, in the order given: each page's documents
/// go into the index at once, and the export's files are written as soon as they are
/// complete (see `export`), so indexing a large portal holds neither its pages nor its
/// export.
pub struct Indexer {
    root: String,
    urls: std::collections::HashSet<String>,
    builder: index::Builder,
    export: export::Exporter,
}

impl Indexer {
    pub fn new(root: &str) -> Result<Indexer, Error> {
        Ok(Indexer {
            root: root.to_string(),
            urls: Default::default(),
            builder: index::Builder::new()?,
            export: export::Exporter::default(),
        })
    }

    /// Reads a file of the site: a page's documents are indexed, other files ignored.
    /// Export files completed on the way go to `export`.
    pub fn page(&mut self, file: &OutputFile, export: &mut dyn Sink) -> Result<(), Error> {
        if !documents::is_page(&file.path) {
            return Ok(());
        }
        for doc in documents::page_documents(file, &self.root, &mut self.urls) {
            self.builder.add(&doc)?;
            self.export.add(doc, export)?;
        }
        Ok(())
    }

    /// The finished index; the rest of the export goes to `export`.
    pub fn finish(self, export: &mut dyn Sink) -> Result<Built, Error> {
        let index = self.builder.finish()?;
        let documents = self.export.documents();
        self.export.finish(&index, export)?;
        Ok(Built { index, documents })
    }
}

/// Whether a site path is a file of the static export (`search/manifest.json`,
/// `search/t/…`, `search/d/…`), as opposed to the search page (`search/index.html`).
pub fn is_export(path: &str) -> bool {
    path == "search/manifest.json" || path.starts_with("search/t/") || path.starts_with("search/d/")
}

/// Where `portolan build` keeps the tantivy index for `portolan search`.
pub fn index_dir(cache_dir: &Path) -> PathBuf {
    cache_dir.join("search")
}

/// Parses and runs a query, with extra `--project`/`--category` filters.
pub fn run(
    index: &SearchIndex,
    text: &str,
    projects: &[String],
    categories: &[String],
    limit: usize,
) -> Result<Answer, Error> {
    let mut q = query::parse(text);
    q.projects.extend(projects.iter().map(|p| p.to_lowercase()));
    q.categories
        .extend(categories.iter().map(|c| c.to_lowercase()));
    engine::search(index, &q, limit)
}
