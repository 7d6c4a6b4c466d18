//! Search: the documents of the rendered site, their tantivy index, the query language and
//! its ranking, and the static export the browser script reads.
//!
//! Stage: after render. Input: the rendered files; output: the tantivy index (kept in
//! `cache_dir/search/` for `portolan search`) and the export's files (added to the site).

pub mod api;
pub mod documents;
pub mod engine;
pub mod export;
pub mod index;
pub mod query;
pub mod tokens;

use std::path::{Path, PathBuf};

use crate::render::OutputFile;
pub use engine::Answer;
pub use index::SearchIndex;

/// The search index of a site and the export's files.
pub struct Built {
    pub index: SearchIndex,
    pub files: Vec<OutputFile>,
    pub documents: usize,
}

/// Indexes the rendered `files` of a site whose base path is `root`.
pub fn build(files: &[OutputFile], root: &str) -> Result<Built, String> {
    let docs = documents::collect(files, root);
    let index = SearchIndex::build(&docs)?;
    let files = export::files(&index, &docs)?;
    Ok(Built {
        index,
        files,
        documents: docs.len(),
    })
}

/// Whether a site path is a file of the static export (`search/manifest.json`,
/// `search/v-…/…`), as opposed to the search page (`search/index.html`).
pub fn is_export(path: &str) -> bool {
    path == "search/manifest.json" || path.starts_with("search/v-")
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
) -> Result<Answer, String> {
    let mut q = query::parse(text);
    q.projects.extend(projects.iter().map(|p| p.to_lowercase()));
    q.categories
        .extend(categories.iter().map(|c| c.to_lowercase()));
    engine::search(index, &q, limit)
}
