//! The tantivy index of the search documents: schema, build, and reading it back.
//!
//! Scoring fields are `title` and `body` (BM25, title weighted [`TITLE_BOOST`]); `pairs`,
//! `kind`, `project` and `category` are exact-match filters (`kind` is stored too: the
//! engine reads which kind a kind's page is about). Each document carries its
//! position in the document list as the fast field `id`, which the static export and the
//! results use, so a result means the same document in tantivy and in the browser.

use std::path::Path;

use tantivy::directory::{MmapDirectory, RamDirectory};
use tantivy::indexer::NoMergePolicy;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{Index, IndexWriter, TantivyDocument};

use super::documents::Document;
use super::tokens;
use crate::error::{Cause, Error};

/// How much more a word in the title counts than a word in the body.
pub const TITLE_BOOST: f32 = 3.0;

/// The fields of the schema.
#[derive(Clone, Copy)]
pub struct Fields {
    pub id: Field,
    pub title: Field,
    pub body: Field,
    pub pairs: Field,
    pub kind: Field,
    pub project: Field,
    pub category: Field,
    pub url: Field,
    pub page: Field,
    pub context: Field,
    pub snippet: Field,
}

impl Fields {
    pub fn of(schema: &Schema) -> Result<Fields, Error> {
        let f = |name: &str| {
            schema.get_field(name).map_err(|_| Error::MissingField {
                field: name.to_string(),
            })
        };
        Ok(Fields {
            id: f("id")?,
            title: f("title")?,
            body: f("body")?,
            pairs: f("pairs")?,
            kind: f("kind")?,
            project: f("project")?,
            category: f("category")?,
            url: f("url")?,
            page: f("page")?,
            context: f("context")?,
            snippet: f("snippet")?,
        })
    }
}

fn schema() -> Schema {
    let mut b = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(tokens::NAME)
            .set_index_option(IndexRecordOption::WithFreqs),
    );
    b.add_u64_field("id", FAST | INDEXED | STORED);
    b.add_text_field("title", text.clone() | STORED);
    b.add_text_field("body", text);
    b.add_text_field("pairs", STRING);
    b.add_text_field("kind", STRING | STORED);
    b.add_text_field("project", STRING | STORED);
    b.add_text_field("category", STRING | STORED);
    b.add_text_field("url", STORED);
    b.add_text_field("page", STORED);
    b.add_text_field("context", STORED);
    b.add_text_field("snippet", STORED);
    b.build()
}

/// The terms of `field` that start with `prefix` (all of them for `""`), in order.
pub fn terms(searcher: &tantivy::Searcher, field: Field, prefix: &str) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    for segment in searcher.segment_readers() {
        let Ok(inverted) = segment.inverted_index(field) else {
            continue;
        };
        let Ok(mut stream) = inverted.terms().range().ge(prefix.as_bytes()).into_stream() else {
            continue;
        };
        while stream.advance() {
            let Ok(term) = std::str::from_utf8(stream.key()) else {
                continue;
            };
            if !term.starts_with(prefix) {
                break;
            }
            out.insert(term.to_string());
        }
    }
    out.into_iter().collect()
}

fn register_tokenizer(index: &Index) {
    index
        .tokenizers()
        .register(tokens::NAME, tokens::CodeTokenizer::default());
}

/// A built index, in memory, and the documents it was built from.
pub struct SearchIndex {
    pub index: Index,
    pub fields: Fields,
    directory: Option<RamDirectory>,
}

/// A search index being built one document at a time (document `i` gets id `i`), so the
/// pages' text need not be kept: tantivy holds at most its writer's budget in memory
/// before it writes a segment.
pub struct Builder {
    index: Index,
    fields: Fields,
    directory: RamDirectory,
    writer: IndexWriter,
    next: u64,
}

impl Builder {
    pub fn new() -> Result<Builder, Error> {
        let directory = RamDirectory::create();
        let index =
            Index::create(directory.clone(), schema(), Default::default()).map_err(Error::Index)?;
        register_tokenizer(&index);
        let fields = Fields::of(&index.schema())?;
        // One thread, so the documents form segments in the order given.
        let writer: IndexWriter = index
            // tantivy's smallest budget: it writes a segment when full, merged at the end.
            .writer_with_num_threads(1, 15_000_000)
            .map_err(Error::Index)?;
        // No merges in the background: `finish` merges every segment itself, and a merge
        // the default policy starts on its own may take segments that explicit merge then
        // names, which fails ("segments that were merged could not be found").
        writer.set_merge_policy(Box::new(NoMergePolicy));
        Ok(Builder {
            index,
            fields,
            directory,
            writer,
            next: 0,
        })
    }

    pub fn add(&mut self, d: &Document) -> Result<(), Error> {
        let fields = &self.fields;
        let mut doc = TantivyDocument::default();
        doc.add_u64(fields.id, self.next);
        doc.add_text(fields.title, &d.title);
        doc.add_text(fields.body, &d.body);
        let leaves = tokens::leaves(&format!("{} {}", d.title, d.body));
        for pair in tokens::pairs(&leaves) {
            doc.add_text(fields.pairs, &pair);
        }
        for kind in &d.kinds {
            doc.add_text(fields.kind, kind.to_lowercase());
        }
        doc.add_text(fields.project, d.project.to_lowercase());
        doc.add_text(fields.category, &d.category);
        doc.add_text(fields.url, &d.url);
        doc.add_text(fields.page, &d.page);
        doc.add_text(fields.context, &d.context);
        doc.add_text(fields.snippet, &d.snippet);
        self.writer.add_document(doc).map_err(Error::Index)?;
        self.next += 1;
        Ok(())
    }

    /// Commits what was added so far as a segment of its own (tests make many segments
    /// this way without adding tantivy's 15 MB budget of text for each).
    #[cfg(test)]
    fn commit_segment(&mut self) -> Result<(), Error> {
        self.writer.commit().map(|_| ()).map_err(Error::Index)
    }

    /// Commits and merges what was added into one segment.
    pub fn finish(mut self) -> Result<SearchIndex, Error> {
        let index = self.index;
        self.writer.commit().map_err(Error::Index)?;
        let segments = index.searchable_segment_ids().map_err(Error::Index)?;
        if segments.len() > 1 {
            self.writer.merge(&segments).wait().map_err(Error::Merge)?;
        }
        self.writer.wait_merging_threads().map_err(Error::Index)?;
        Ok(SearchIndex {
            index,
            fields: self.fields,
            directory: Some(self.directory),
        })
    }
}

impl SearchIndex {
    /// Indexes `docs` (document `i` gets id `i`) into one segment in memory.
    #[cfg(test)]
    pub fn build(docs: &[Document]) -> Result<SearchIndex, Error> {
        let mut builder = Builder::new()?;
        for d in docs {
            builder.add(d)?;
        }
        builder.finish()
    }

    /// Writes the index into `dir`, replacing what was there only once the new one is
    /// complete. Two builds saving at once (tests do) each stage their own copy; the
    /// last one to move in wins, and both are complete indexes of the same site.
    pub fn save(&self, dir: &Path) -> Result<(), Error> {
        let Some(ram) = &self.directory else {
            return Err(Error::NothingToSave);
        };
        let fail = |doing: &'static str, e: Cause| Error::Save {
            dir: dir.to_path_buf(),
            doing,
            source: e,
        };
        let parent = dir.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)
            .map_err(|e| fail("cannot create the cache folder", e.into()))?;
        let staging = tempfile::Builder::new()
            .prefix(".search-new-")
            .tempdir_in(parent)
            .map_err(|e| fail("cannot create a staging folder", e.into()))?;
        let target =
            MmapDirectory::open(staging.path()).map_err(|e| fail("cannot open", e.into()))?;
        ram.persist(&target)
            .map_err(|e| fail("cannot write the search index", e.into()))?;
        drop(target);
        let old = tempfile::Builder::new()
            .prefix(".search-old-")
            .tempdir_in(parent)
            .map_err(|e| fail("cannot create a staging folder", e.into()))?;
        let old_path = old.path().join("search");
        match std::fs::rename(dir, &old_path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(fail("cannot move the old search index aside", e.into())),
        }
        let staged = staging.keep();
        if let Err(e) = std::fs::rename(&staged, dir) {
            let _ = std::fs::remove_dir_all(&staged);
            // Another build moved its index in between our two renames: keep that one.
            if !dir.join("meta.json").is_file() {
                return Err(fail("cannot move the new search index in place", e.into()));
            }
        }
        Ok(())
    }

    /// Opens an index `save` wrote.
    pub fn open(dir: &Path) -> Result<SearchIndex, Error> {
        let index = Index::open_in_dir(dir).map_err(|source| Error::Open {
            dir: dir.to_path_buf(),
            source,
        })?;
        register_tokenizer(&index);
        let fields = Fields::of(&index.schema())?;
        Ok(SearchIndex {
            index,
            fields,
            directory: None,
        })
    }
}

#[cfg(test)]
mod tests;
