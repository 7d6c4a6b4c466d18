//! The static export of the index for GitHub Pages, read by `themes/default/static/search.js`.
//!
//! * `search/manifest.json`: the version, the shard keys, the project and category of
//!   every document (run-length encoded), the categories' labels, and the ranking
//!   constants of `engine`.
//! * `search/v-VERSION/t/N.json`: term shards. Each maps a term to
//!   `[frequency, id, score, id, score, …]`, where score is what `engine` gives the term
//!   in that document (`TITLE_BOOST × BM25(title) + BM25(body)`, computed by tantivy), in
//!   hundredths, and each id after the first is the difference to the one before; a
//!   phrase pair `"a b"` and a kind `"=kind"` map to their document ids, encoded alike. A
//!   shard holds the terms that begin with its key and with no longer key; keys grow
//!   until a shard is small, so a query loads a few kilobytes.
//! * `search/v-VERSION/d/N.json`: documents in chunks of `CHUNK`: `{"p": [[url, page
//!   title], …], "d": [[title, page index, anchor, context, snippet], …]}`.
//!
//! The version is a hash of the files, so browsers cache shards forever and a new build
//! never mixes with old shards.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tantivy::postings::Postings;
use tantivy::query::Bm25Weight;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, Searcher, TERMINATED};

use super::documents::{Document, category_label};
use super::engine;
use super::index::{SearchIndex, TITLE_BOOST};
use crate::render::OutputFile;

/// A shard is split by one more letter when its JSON is larger than this.
const SHARD_BYTES: usize = 16 * 1024;
/// Documents per metadata chunk.
pub const CHUNK: usize = 16;

/// What a term maps to in a shard.
enum Entry {
    /// Frequency, then (id, score) pairs in id order.
    Scored(u64, Vec<(u32, f32)>),
    Ids(Vec<u32>),
}

/// What the export shows of one document, kept for every document of the site while it
/// is indexed (its body is in the index only): boxed text and numbered names, a third of
/// a `Document`'s size.
pub struct Shown {
    pub title: Box<str>,
    pub url: Box<str>,
    pub page: Box<str>,
    pub context: Box<str>,
    pub snippet: Box<str>,
    /// Into the indexer's project and category `Names`.
    pub project: u32,
    pub category: u32,
}

/// Names numbered in the order first seen.
#[derive(Default)]
pub struct Names {
    list: Vec<String>,
    ids: std::collections::HashMap<String, u32>,
}

impl Names {
    pub fn id(&mut self, name: &str) -> u32 {
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

impl Shown {
    pub fn of(d: Document, projects: &mut Names, categories: &mut Names) -> Shown {
        Shown {
            project: projects.id(&d.project),
            category: categories.id(&d.category),
            title: d.title.into(),
            url: d.url.into(),
            page: d.page.into(),
            context: d.context.into(),
            snippet: d.snippet.into(),
        }
    }
}

/// The export's files, at paths under the site root.
pub fn files(
    index: &SearchIndex,
    docs: &[Shown],
    projects: &Names,
    categories: &Names,
) -> Result<Vec<OutputFile>, String> {
    let reader = index
        .index
        .reader()
        .map_err(|e| format!("search export: {e}"))?;
    let searcher = reader.searcher();
    let f = &index.fields;
    // Each term's entry is rendered as soon as it is made, so the postings are held once.
    let mut rendered: Vec<(String, String)> = Vec::new();
    let title = postings(&searcher, f.title)?;
    let body = postings(&searcher, f.body)?;
    let mut title = title.into_iter().peekable();
    let mut body = body.into_iter().peekable();
    loop {
        let order = match (title.peek(), body.peek()) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some((t, _)), Some((b, _))) => t.cmp(b),
        };
        let (term, in_title, in_body) = match order {
            std::cmp::Ordering::Less => title.next().map(|(t, l)| (t, l, Vec::new())),
            std::cmp::Ordering::Greater => body.next().map(|(t, l)| (t, Vec::new(), l)),
            std::cmp::Ordering::Equal => title
                .next()
                .zip(body.next())
                .map(|((t, lt), (_, lb))| (t, lt, lb)),
        }
        .ok_or("search export: the term lists ended early")?;
        // The same count `engine` ranks candidate terms by: title's plus body's.
        let frequency = (in_title.len() + in_body.len()) as u64;
        let entry = Entry::Scored(frequency, merge_scores(&in_title, &in_body));
        rendered.push((term.clone(), entry_json(&term, &entry)));
    }
    for (field, marker) in [(f.pairs, ""), (f.kind, "=")] {
        for (term, list) in postings(&searcher, field)? {
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
    let shards = layout(&rendered);

    let mut body_files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut keys = Vec::new();
    // Each entry's text moves into its shard (every entry is in exactly one), so the
    // export is held once, not twice.
    for (i, (key, members)) in shards.iter().enumerate() {
        keys.push(key.clone());
        let mut text = String::from("{");
        for (n, j) in members.iter().enumerate() {
            if n > 0 {
                text.push(',');
            }
            text.push_str(&std::mem::take(&mut rendered[*j].1));
        }
        text.push('}');
        body_files.push((format!("t/{i}.json"), text.into_bytes()));
    }
    for (i, chunk) in docs.chunks(CHUNK).enumerate() {
        body_files.push((format!("d/{i}.json"), chunk_json(chunk).into_bytes()));
    }

    let (projects, project_place) = projects.sorted();
    let (categories, category_place) = categories.sorted();
    let mut hash = Fnv::new();
    for (path, bytes) in &body_files {
        hash.write(path.as_bytes());
        hash.write(bytes);
    }
    let version = format!("{:016x}", hash.finish());
    let manifest = json!({
        "version": version,
        "docs": docs.len(),
        "chunk": CHUNK,
        "shards": keys,
        "projects": projects,
        "categories": categories,
        "category_labels": categories.iter().map(|c| (c.to_string(), json!(category_label(c)))).collect::<serde_json::Map<String, Value>>(),
        "project_runs": runs(docs.iter().map(|d| project_place[d.project as usize])),
        "category_runs": runs(docs.iter().map(|d| category_place[d.category as usize])),
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
    let mut out = vec![OutputFile {
        path: "search/manifest.json".into(),
        bytes: manifest.to_string().into_bytes(),
    }];
    out.extend(body_files.into_iter().map(|(path, bytes)| OutputFile {
        path: format!("search/v-{version}/{path}"),
        bytes,
    }));
    Ok(out)
}

/// A chunk of documents: the pages they are on, each once (`[url, title]`), and each
/// document as `[title, page index, anchor, context, snippet]`, its URL being the page's
/// with `#anchor`. Most documents are rows of a few pages, so a page's URL and title are
/// not repeated per row.
fn chunk_json(chunk: &[Shown]) -> String {
    let mut pages: Vec<(&str, &str)> = Vec::new();
    let mut rows = Vec::new();
    for d in chunk {
        let (url, anchor) = d.url.split_once('#').unwrap_or((&d.url, ""));
        let page = match pages.iter().position(|&p| p == (url, &*d.page)) {
            Some(n) => n,
            None => {
                pages.push((url, &d.page));
                pages.len() - 1
            }
        };
        rows.push(json!([&*d.title, page, anchor, &*d.context, &*d.snippet]));
    }
    json!({ "p": pages, "d": rows }).to_string()
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
            let mut list = vec![json!(frequency)];
            let mut previous = 0;
            for (id, score) in map {
                let id = *id;
                list.push(json!(id - previous));
                previous = id;
                list.push(json!(hundredths(*score)));
            }
            Value::Array(list)
        }
        Entry::Ids(ids) => {
            let mut previous = 0;
            Value::Array(
                ids.iter()
                    .map(|id| {
                        let delta = id - previous;
                        previous = *id;
                        json!(delta)
                    })
                    .collect(),
            )
        }
    };
    format!("{}:{}", Value::String(key.to_string()), value)
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

/// Every term of `field` with the (id, BM25 score) of each document that has it, in id
/// order. The score is what a `TermQuery` gives (the same `Bm25Weight`, from the same
/// statistics: documents with the term, all documents, the average field length), read
/// straight from the postings: one weight and scorer per term was most of the build.
fn postings(
    searcher: &Searcher,
    field: Field,
) -> Result<BTreeMap<String, Vec<(u32, f32)>>, String> {
    let fail = |e: &dyn std::fmt::Display| format!("search export: {e}");
    let total_docs = searcher.num_docs();
    let mut total_tokens = 0;
    for segment in searcher.segment_readers() {
        total_tokens += segment
            .inverted_index(field)
            .map_err(|e| fail(&e))?
            .total_num_tokens();
    }
    let average_length = total_tokens as f32 / total_docs.max(1) as f32;
    // Per term, its postings in every segment (`build` makes one; `open` may see more).
    // Document ids as u32 (an index holds far fewer documents): the postings of a large
    // portal are most of the export's memory.
    let mut found: BTreeMap<String, Vec<(u32, u32, u8)>> = BTreeMap::new();
    for segment in searcher.segment_readers() {
        let ids = segment.fast_fields().u64("id").map_err(|e| fail(&e))?;
        let lengths = segment.get_fieldnorms_reader(field).map_err(|e| fail(&e))?;
        let inverted = segment.inverted_index(field).map_err(|e| fail(&e))?;
        let mut stream = inverted.terms().stream().map_err(|e| fail(&e))?;
        while stream.advance() {
            let Ok(term) = std::str::from_utf8(stream.key()) else {
                continue;
            };
            let mut postings = inverted
                .read_postings_from_terminfo(stream.value(), IndexRecordOption::WithFreqs)
                .map_err(|e| fail(&e))?;
            let list = found.entry(term.to_string()).or_default();
            let mut doc = postings.doc();
            while doc != TERMINATED {
                if let Some(id) = ids.first(doc) {
                    let id = u32::try_from(id)
                        .map_err(|_| fail(&"more than 4 billion search documents"))?;
                    list.push((id, postings.term_freq(), lengths.fieldnorm_id(doc)));
                }
                doc = postings.advance();
            }
        }
    }
    Ok(found
        .into_iter()
        .map(|(term, list)| {
            let weight = Bm25Weight::for_one_term_without_explain(
                list.len() as u64,
                total_docs,
                average_length,
            );
            let mut scored: Vec<(u32, f32)> = list
                .into_iter()
                .map(|(id, freq, length)| (id, weight.score(length, freq)))
                .collect();
            scored.sort_by_key(|a| a.0);
            (term, scored)
        })
        .collect())
}

/// `[[value, count], …]` for runs of equal values.
fn runs(values: impl Iterator<Item = usize>) -> Vec<[usize; 2]> {
    let mut out: Vec<[usize; 2]> = Vec::new();
    for v in values {
        match out.last_mut() {
            Some([last, n]) if *last == v => *n += 1,
            _ => out.push([v, 1]),
        }
    }
    out
}

/// FNV-1a, 64 bits: a stable hash for the version (std's hasher may change between
/// Rust releases, and the version must not).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_by_letter_until_small() {
        let big = "x".repeat(SHARD_BYTES / 2);
        let entries: Vec<(String, String)> = ["a", "ab", "abc", "abd", "b", "=ab"]
            .iter()
            .map(|k| (k.to_string(), format!("\"{k}\":[{big}]")))
            .collect();
        let mut sorted = entries.clone();
        sorted.sort();
        let shards = layout(&sorted);
        let keys: Vec<(&str, Vec<&str>)> = shards
            .iter()
            .map(|(k, m)| {
                (
                    k.as_str(),
                    m.iter().map(|&i| sorted[i].0.as_str()).collect(),
                )
            })
            .collect();
        // "a…" is too big: "a" keeps the term "a", "ab" keeps "ab" and the kind "=ab",
        // and its longer terms go one letter deeper.
        assert_eq!(
            keys,
            [
                ("a", vec!["a"]),
                ("ab", vec!["=ab", "ab"]),
                ("abc", vec!["abc"]),
                ("abd", vec!["abd"]),
                ("b", vec!["b"]),
            ]
        );
    }

    #[test]
    fn runs_and_hash_are_stable() {
        assert_eq!(runs([0, 0, 1, 0].into_iter()), [[0, 2], [1, 1], [0, 1]]);
        // The published FNV-1a 64 test vectors.
        let hash = |b: &[u8]| {
            let mut h = Fnv::new();
            h.write(b);
            h.finish()
        };
        assert_eq!(hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
