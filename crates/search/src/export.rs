//! The static export of the index for GitHub Pages, read by `themes/default/static/search.js`.
//!
//! * `search/manifest.json`: the number of documents, the shard keys and the file of each
//!   shard and of each document chunk, the project and category of every document
//!   (run-length encoded), the categories' labels, and the ranking constants of `engine`.
//! * `search/t/NAME.json`: term shards. Each maps a term to `[frequency, "POSTINGS"]`,
//!   POSTINGS being `id, score, id, score, …` as base-64 varints (`varints`), where score
//!   is what `engine` gives the term in that document (`TITLE_BOOST × BM25(title) +
//!   BM25(body)`, computed by tantivy), in hundredths, and each id after the first is the
//!   difference to the one before; a phrase pair `"a b"` and a kind `"=kind"` map to the
//!   string of their document ids, encoded alike. A shard holds the terms that begin with
//!   its key and with no longer key; keys grow until a shard is small, so a query loads a
//!   few kilobytes.
//! * `search/d/NAME.json`: documents in chunks of `CHUNK`: `{"p": [[url, page title], …],
//!   "c": [context, …], "d": [[title, page index, anchor, context index, snippet], …]}`,
//!   a title or anchor written `[n, rest]` when it begins with the previous document's
//!   first `n` characters.
//!
//! Every file but the manifest is named by its content (`NAME`: 12 hex digits of its
//! SHA-256), so browsers cache them forever, a new build never mixes with old files, and a
//! rebuild that changes a few documents changes only the files that hold them (serve
//! writes only those). A chunk is written as soon as its documents are indexed, the
//! shards from the index's terms one at a time, so the export is never held whole.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};
use tantivy::fieldnorm::FieldNormReader;
use tantivy::index::InvertedIndexReader;
use tantivy::postings::Postings;
use tantivy::query::Bm25Weight;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, SegmentReader, TERMINATED};

use super::documents::{Document, category_label};
use super::engine;
use super::index::{SearchIndex, TITLE_BOOST};
use crate::error::{Cause, Error};
use render::{OutputFile, Sink};

/// A shard is split by one more letter when its JSON is larger than this.
const SHARD_BYTES: usize = 16 * 1024;
/// Documents per metadata chunk.
pub const CHUNK: usize = 16;
/// Hex digits of a file's SHA-256 in its name: 48 bits, so two of a site's files sharing
/// a name by chance is about one in 10^7 for 20,000 files, and checked (`Named`).
const NAME_DIGITS: usize = 12;

/// What a term maps to in a shard.
enum Entry {
    /// Frequency, then (id, score) pairs in id order.
    Scored(u64, Vec<(u32, f32)>),
    Ids(Vec<u32>),
}

/// What the export shows of one document, kept while its chunk fills: boxed text and
/// numbered names.
struct Shown {
    title: Box<str>,
    url: Box<str>,
    page: Box<str>,
    context: Box<str>,
    snippet: Box<str>,
}

/// Names numbered in the order first seen.
#[derive(Default)]
struct Names {
    list: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Names {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.list.len() as u32;
        self.list.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    /// The names sorted, and for each id its place in that order.
    fn sorted(&self) -> (Vec<String>, Vec<usize>) {
        let mut order: Vec<usize> = (0..self.list.len()).collect();
        order.sort_by(|&a, &b| self.list[a].cmp(&self.list[b]));
        let mut place = vec![0; self.list.len()];
        for (at, &id) in order.iter().enumerate() {
            place[id] = at;
        }
        (order.iter().map(|&i| self.list[i].clone()).collect(), place)
    }
}

/// Names files by their content, and refuses two different contents under one name.
#[derive(Default)]
struct Named {
    /// Name → the file's full SHA-256.
    taken: HashMap<String, files::digest::Hash>,
}

impl Named {
    /// Hands `bytes` to `sink` as `search/FOLDER/NAME.json` and returns NAME.
    fn put(&mut self, folder: &str, bytes: Vec<u8>, sink: &mut dyn Sink) -> Result<String, Error> {
        let hash = files::digest::hash_bytes(&bytes);
        let name = files::digest::hex(&hash)[..NAME_DIGITS].to_string();
        match self.taken.get(&name) {
            // The same content twice (two identical chunks): one file serves both.
            Some(earlier) if *earlier == hash => return Ok(name),
            Some(_) => {
                return Err(Error::NameCollision { name });
            }
            None => {
                self.taken.insert(name.clone(), hash);
            }
        }
        sink.put(OutputFile {
            path: format!("search/{folder}/{name}.json"),
            bytes,
        })
        .map_err(Error::Sink)?;
        Ok(name)
    }
}

/// Writes the export as the documents are indexed (`add`), then the shards and the
/// manifest from the finished index (`finish`).
#[derive(Default)]
pub struct Exporter {
    /// The documents of the chunk being filled.
    pending: Vec<Shown>,
    documents: usize,
    chunk_files: Vec<String>,
    projects: Names,
    categories: Names,
    /// `[id, count]` runs of the documents' project and category ids.
    project_runs: Vec<[u32; 2]>,
    category_runs: Vec<[u32; 2]>,
    named: Named,
}

impl Exporter {
    /// Takes the next document (its id is the number added before it); a full chunk goes
    /// to `sink`.
    pub fn add(&mut self, d: Document, sink: &mut dyn Sink) -> Result<(), Error> {
        let project = self.projects.id(&d.project);
        let category = self.categories.id(&d.category);
        extend_run(&mut self.project_runs, project);
        extend_run(&mut self.category_runs, category);
        self.pending.push(Shown {
            title: d.title.into(),
            url: d.url.into(),
            page: d.page.into(),
            context: d.context.into(),
            snippet: d.snippet.into(),
        });
        self.documents += 1;
        if self.pending.len() == CHUNK {
            self.flush_chunk(sink)?;
        }
        Ok(())
    }

    pub fn documents(&self) -> usize {
        self.documents
    }

    fn flush_chunk(&mut self, sink: &mut dyn Sink) -> Result<(), Error> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let text = chunk_json(&std::mem::take(&mut self.pending));
        let name = self.named.put("d", text.into_bytes(), sink)?;
        self.chunk_files.push(name);
        Ok(())
    }

    /// Writes the last chunk, the term shards of `index` (which holds the documents
    /// added, as one segment) and the manifest.
    pub fn finish(mut self, index: &SearchIndex, sink: &mut dyn Sink) -> Result<(), Error> {
        self.flush_chunk(sink)?;
        let rendered = term_entries(index)?;
        let shards = layout(&rendered);
        let mut rendered: Vec<String> = rendered.into_iter().map(|(_, text)| text).collect();
        let mut keys = Vec::new();
        let mut shard_files = Vec::new();
        // Each entry's text moves into its shard (every entry is in exactly one), and
        // each shard goes to the sink once made.
        for (key, members) in shards {
            let mut text = String::from("{");
            for (n, j) in members.iter().enumerate() {
                if n > 0 {
                    text.push(',');
                }
                text.push_str(&std::mem::take(&mut rendered[*j]));
            }
            text.push('}');
            shard_files.push(self.named.put("t", text.into_bytes(), sink)?);
            keys.push(key);
        }
        let (projects, project_place) = self.projects.sorted();
        let (categories, category_place) = self.categories.sorted();
        // Ids are numbered in first-seen order and places are a bijection of them, so
        // runs of ids are runs of places.
        let placed = |runs: &[[u32; 2]], place: &[usize]| -> Vec<[usize; 2]> {
            runs.iter()
                .map(|&[id, n]| [place[id as usize], n as usize])
                .collect()
        };
        let manifest = json!({
            "docs": self.documents,
            "chunk": CHUNK,
            "doc_files": self.chunk_files,
            "shards": keys,
            "shard_files": shard_files,
            "projects": projects,
            "categories": categories,
            "category_labels": categories.iter().map(|c| (c.to_string(), json!(category_label(c)))).collect::<serde_json::Map<String, Value>>(),
            "project_runs": placed(&self.project_runs, &project_place),
            "category_runs": placed(&self.category_runs, &category_place),
            "ranking": {
                "max_prefix": engine::MAX_PREFIX,
                "prefix_factor": engine::PREFIX_FACTOR,
                "fuzzy_min_chars": engine::FUZZY_MIN_CHARS,
                "max_fuzzy": engine::MAX_FUZZY,
                "fuzzy_factor": engine::FUZZY_FACTOR,
                "kind_name_factor": engine::KIND_NAME_FACTOR,
                "category_weights": engine::CATEGORY_WEIGHTS.iter().map(|(c, w)| (c.to_string(), json!(w))).collect::<serde_json::Map<String, Value>>(),
            },
        });
        sink.put(OutputFile {
            path: "search/manifest.json".into(),
            bytes: manifest.to_string().into_bytes(),
        })
        .map_err(Error::Sink)
    }
}

/// Counts one more `value` in `[value, count]` runs.
fn extend_run(runs: &mut Vec<[u32; 2]>, value: u32) {
    match runs.last_mut() {
        Some([last, n]) if *last == value => *n += 1,
        _ => runs.push([value, 1]),
    }
}

/// An error of the export, said as such.
fn fail(e: impl Into<Cause>) -> Error {
    Error::Export(e.into())
}

/// Every entry of the shards, `(key, "key":[…])`, sorted by key: each term of the title
/// and body with its merged scores, each phrase pair and each kind (`=kind`) with its ids.
fn term_entries(index: &SearchIndex) -> Result<Vec<(String, String)>, Error> {
    let reader = index.index.reader().map_err(fail)?;
    let searcher = reader.searcher();
    let segment = match searcher.segment_readers() {
        [] => return Ok(Vec::new()),
        [one] => one,
        more => {
            return Err(Error::Segments { count: more.len() });
        }
    };
    let f = &index.fields;
    let total_docs = searcher.num_docs();
    let mut rendered: Vec<(String, String)> = Vec::new();
    // Title and body terms, both in term order, merged as they are read: one term's
    // postings are held at a time.
    let inverted = |field| segment.inverted_index(field).map_err(fail);
    let (title_index, body_index) = (inverted(f.title)?, inverted(f.body)?);
    let mut title = FieldTerms::new(segment, &title_index, f.title, total_docs)?;
    let mut body = FieldTerms::new(segment, &body_index, f.body, total_docs)?;
    let mut next_title = title.next()?;
    let mut next_body = body.next()?;
    loop {
        let order = match (&next_title, &next_body) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some((t, _)), Some((b, _))) => t.cmp(b),
        };
        let (term, in_title, in_body) = match order {
            std::cmp::Ordering::Less => {
                let (t, l) = next_title.take().unwrap_or_default();
                next_title = title.next()?;
                (t, l, Vec::new())
            }
            std::cmp::Ordering::Greater => {
                let (t, l) = next_body.take().unwrap_or_default();
                next_body = body.next()?;
                (t, Vec::new(), l)
            }
            std::cmp::Ordering::Equal => {
                let (t, lt) = next_title.take().unwrap_or_default();
                let (_, lb) = next_body.take().unwrap_or_default();
                next_title = title.next()?;
                next_body = body.next()?;
                (t, lt, lb)
            }
        };
        // The same count `engine` ranks candidate terms by: title's plus body's.
        let frequency = (in_title.len() + in_body.len()) as u64;
        let entry = Entry::Scored(frequency, merge_scores(&in_title, &in_body));
        let text = entry_json(&term, &entry);
        rendered.push((term, text));
    }
    for (field, marker) in [(f.pairs, ""), (f.kind, "=")] {
        let field_index = inverted(field)?;
        let mut terms = FieldTerms::new(segment, &field_index, field, total_docs)?;
        while let Some((term, list)) = terms.next()? {
            let ids = list.into_iter().map(|(id, _)| id).collect();
            let key = format!("{marker}{term}");
            let text = entry_json(&key, &Entry::Ids(ids));
            rendered.push((key, text));
        }
    }
    // Sorted by key, and one entry per key (a later one replaces an earlier one).
    rendered.reverse();
    rendered.sort_by(|a, b| a.0.cmp(&b.0));
    rendered.dedup_by(|a, b| a.0 == b.0);
    Ok(rendered)
}

/// A term and the (id, score) of each document that has it, in id order.
type TermPostings = (String, Vec<(u32, f32)>);

/// The terms of one field of a segment, in term order, each with the (id, BM25 score) of
/// every document that has it, in id order. The score is what a `TermQuery` gives (the
/// same `Bm25Weight`, from the same statistics: documents with the term, all documents,
/// the average field length), read straight from the postings: one weight and scorer per
/// term was most of the build.
struct FieldTerms<'a> {
    inverted: &'a InvertedIndexReader,
    stream: tantivy::termdict::TermStreamer<'a>,
    ids: tantivy::columnar::Column<u64>,
    lengths: FieldNormReader,
    total_docs: u64,
    average_length: f32,
}

impl<'a> FieldTerms<'a> {
    /// `inverted` is `segment`'s inverted index of `field`.
    fn new(
        segment: &SegmentReader,
        inverted: &'a InvertedIndexReader,
        field: Field,
        total_docs: u64,
    ) -> Result<Self, Error> {
        Ok(FieldTerms {
            inverted,
            stream: inverted.terms().stream().map_err(fail)?,
            ids: segment.fast_fields().u64("id").map_err(fail)?,
            lengths: segment.get_fieldnorms_reader(field).map_err(fail)?,
            total_docs,
            average_length: inverted.total_num_tokens() as f32 / total_docs.max(1) as f32,
        })
    }

    fn next(&mut self) -> Result<Option<TermPostings>, Error> {
        while self.stream.advance() {
            let Ok(term) = std::str::from_utf8(self.stream.key()) else {
                continue;
            };
            let mut postings = self
                .inverted
                .read_postings_from_terminfo(self.stream.value(), IndexRecordOption::WithFreqs)
                .map_err(fail)?;
            let mut list: Vec<(u32, u32, u8)> = Vec::new();
            let mut doc = postings.doc();
            while doc != TERMINATED {
                if let Some(id) = self.ids.first(doc) {
                    let id = u32::try_from(id).map_err(|_| Error::TooManyDocuments)?;
                    list.push((id, postings.term_freq(), self.lengths.fieldnorm_id(doc)));
                }
                doc = postings.advance();
            }
            let weight = Bm25Weight::for_one_term_without_explain(
                list.len() as u64,
                self.total_docs,
                self.average_length,
            );
            let mut scored: Vec<(u32, f32)> = list
                .into_iter()
                .map(|(id, freq, length)| (id, weight.score(length, freq)))
                .collect();
            scored.sort_by_key(|a| a.0);
            return Ok(Some((term.to_string(), scored)));
        }
        Ok(None)
    }
}

/// A chunk of documents: the pages they are on, each once (`[url, title]`), the contexts
/// (section headings), each once, and each document as `[title, page index, anchor,
/// context index, snippet]`, its URL being the page's with `#anchor`. Most documents are
/// rows of a few pages, so a page's URL and title are not repeated per row, and a row's
/// title and anchor are written after the previous row's (`after`): neighbouring fields'
/// paths share long beginnings.
fn chunk_json(chunk: &[Shown]) -> String {
    let mut pages: Vec<(&str, &str)> = Vec::new();
    let mut contexts: Vec<&str> = Vec::new();
    let mut rows = Vec::new();
    let (mut title, mut anchor) = ("", "");
    for d in chunk {
        let (url, this_anchor) = d.url.split_once('#').unwrap_or((&d.url, ""));
        let page = index_of(&mut pages, (url, &*d.page));
        let context = index_of(&mut contexts, &*d.context);
        rows.push(json!([
            after(title, &d.title),
            page,
            after(anchor, this_anchor),
            context,
            &*d.snippet
        ]));
        (title, anchor) = (&d.title, this_anchor);
    }
    json!({ "p": pages, "c": contexts, "d": rows }).to_string()
}

/// Where `item` is in `list`, appended if new (a chunk's lists are short).
fn index_of<T: PartialEq>(list: &mut Vec<T>, item: T) -> usize {
    list.iter().position(|x| *x == item).unwrap_or_else(|| {
        list.push(item);
        list.len() - 1
    })
}

/// Shared beginnings shorter than this are written out: `[n, "rest"]` costs five bytes more
/// than `"rest"`.
const SHARED_MIN: usize = 8;

/// `text` as written after `previous`: itself, or `[n, rest]` when it begins with the first
/// `n` characters of `previous` (counted in UTF-16 units, as search.js's `slice` does).
fn after(previous: &str, text: &str) -> Value {
    let shared: usize = previous
        .chars()
        .zip(text.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let units = previous[..shared].encode_utf16().count();
    if units < SHARED_MIN {
        json!(text)
    } else {
        json!([units, &text[shared..]])
    }
}

/// One term's (id, score) list from its title and body lists (each in id order): the
/// title's scores weighted by `TITLE_BOOST`, a document in both summed.
fn merge_scores(title: &[(u32, f32)], body: &[(u32, f32)]) -> Vec<(u32, f32)> {
    let mut out = Vec::with_capacity(title.len() + body.len());
    let (mut i, mut j) = (0, 0);
    while i < title.len() || j < body.len() {
        match (title.get(i), body.get(j)) {
            (Some(&(a, sa)), Some(&(b, sb))) if a == b => {
                out.push((a, TITLE_BOOST * sa + sb));
                i += 1;
                j += 1;
            }
            (Some(&(a, sa)), Some(&(b, _))) if a < b => {
                out.push((a, TITLE_BOOST * sa));
                i += 1;
            }
            (Some(&(a, sa)), None) => {
                out.push((a, TITLE_BOOST * sa));
                i += 1;
            }
            (_, Some(&(b, sb))) => {
                out.push((b, sb));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

fn entry_json(key: &str, entry: &Entry) -> String {
    let value = match entry {
        Entry::Scored(frequency, map) => {
            let ids = deltas(map.iter().map(|(id, _)| *id));
            let scores = map.iter().map(|(_, score)| hundredths(*score));
            json!([
                frequency,
                varints(ids.zip(scores).flat_map(|(id, score)| [id, score]))
            ])
        }
        Entry::Ids(ids) => json!(varints(deltas(ids.iter().copied()))),
    };
    format!("{}:{}", Value::String(key.to_string()), value)
}

/// Ids in ascending order as the difference of each to the one before (the first as is).
fn deltas(ids: impl Iterator<Item = u32>) -> impl Iterator<Item = u64> {
    ids.scan(0, |previous, id| {
        let delta = id - *previous;
        *previous = id;
        Some(u64::from(delta))
    })
}

/// The characters of `varints`, by value (base64url's alphabet).
const VARINT_DIGITS: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Numbers as one string of base-64 varints: each number in groups of 5 bits, lowest
/// first, one character per group, its value plus 32 while more groups follow. About half
/// the bytes of the same numbers as a JSON list (most ids are small deltas).
fn varints(numbers: impl Iterator<Item = u64>) -> String {
    let mut out = String::new();
    for mut n in numbers {
        loop {
            let group = (n & 31) as usize;
            n >>= 5;
            if n == 0 {
                out.push(char::from(VARINT_DIGITS[group]));
                break;
            }
            out.push(char::from(VARINT_DIGITS[group + 32]));
        }
    }
    out
}

/// A score in hundredths: small in JSON, and fine enough that rankings agree.
pub fn hundredths(score: f32) -> u64 {
    (f64::from(score) * 100.0).round().max(0.0) as u64
}

/// The text a key is sharded by: the term, without the kind marker.
fn shard_text(key: &str) -> &str {
    key.strip_prefix('=').unwrap_or(key)
}

/// Groups entries (sorted by key) into shards: by first character, and a group over
/// `SHARD_BYTES` by one more character, for as long as needed. Returns (key, members).
fn layout(entries: &[(String, String)]) -> Vec<(String, Vec<usize>)> {
    let mut out = Vec::new();
    // Explicit stack of (prefix, members) still to place.
    let mut stack: Vec<(String, Vec<usize>)> = vec![(String::new(), (0..entries.len()).collect())];
    while let Some((prefix, members)) = stack.pop() {
        let depth = prefix.chars().count();
        let size: usize = members.iter().map(|&i| entries[i].1.len() + 1).sum();
        if !prefix.is_empty() && size <= SHARD_BYTES {
            out.push((prefix, members));
            continue;
        }
        let mut here = Vec::new();
        let mut children: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for i in members {
            let text = shard_text(&entries[i].0);
            if text.chars().count() <= depth {
                here.push(i);
            } else {
                let child: String = text.chars().take(depth + 1).collect();
                children.entry(child).or_default().push(i);
            }
        }
        if !here.is_empty() {
            out.push((prefix, here));
        }
        for child in children.into_iter().rev() {
            stack.push(child);
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[cfg(test)]
mod tests;
