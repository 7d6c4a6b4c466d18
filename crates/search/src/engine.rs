//! Answers a parsed query from the tantivy index: `portolan search` and `/api/search`.
//!
//! The ranking, which `search.js` reproduces from the static shards:
//! * a term scores `TITLE_BOOST × BM25(title) + BM25(body)` in a document (tantivy's
//!   BM25 with the index's statistics; the export writes exactly these numbers);
//! * a word scores the best of its candidate terms. A word of the index is its own only
//!   candidate (×1); otherwise the last word, while typing, stands for the [`MAX_PREFIX`]
//!   most frequent terms it begins (×[`PREFIX_FACTOR`]), and a word of
//!   [`FUZZY_MIN_CHARS`]+ letters also for the [`MAX_FUZZY`] most frequent terms one edit
//!   away that share its first two letters (×[`FUZZY_FACTOR`]). (A whole word is not
//!   expanded: rare longer terms would outrank the word itself.)
//! * a document scores the sum of its words; every word is required, and when no document
//!   has them all, any word will do (the answer says so);
//! * a query of filters only (no words) gives every document it keeps the score 1;
//! * the sum is multiplied by the document's category weight ([`category_weight`]): a
//!   kind's page where a kind is described, then the facts the portal is about
//!   (controllers' watches and writes, endpoints, webhooks, flags…), then the long
//!   tail (CRD fields, Helm values, RBAC rows), so a kind's name finds its page first,
//!   its watches and writes next, and a field of the same name after them;
//! * a kind's page is also multiplied by [`KIND_NAME_FACTOR`] when the query names its
//!   kind: the query's words written together are the kind's name (`InferencePool`,
//!   `inference pool`), or a `kind:` value is (case aside). A controller named after
//!   its kind, whose title is short and whose rows repeat the name, would otherwise
//!   outrank the kind's page; and `kind:InferencePool` alone finds the kind's pages first;
//! * phrases, `kind:`, `project:` and `category:` filter without scoring;
//! * ties go to the document listed first (`id`).

use serde::Serialize;
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, EmptyQuery, Occur, QueryClone,
    TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::{Searcher, TantivyDocument, Term};

use super::index::{self, Fields, SearchIndex, TITLE_BOOST};
use super::query::{Query, Word};
use crate::Error;

pub const MAX_PREFIX: usize = 16;
pub const PREFIX_FACTOR: f32 = 0.8;
pub const FUZZY_MIN_CHARS: usize = 5;
pub const MAX_FUZZY: usize = 8;
pub const FUZZY_FACTOR: f32 = 0.5;
/// How much more a kind's page counts when the query names its kind.
pub const KIND_NAME_FACTOR: f32 = 10.0;

/// Categories ranked above the long tail, with their weights; every other category
/// weighs 1.
pub const CATEGORY_WEIGHTS: &[(&str, f32)] = &[
    ("kind", 4.0),
    ("watch", 3.0),
    ("write", 3.0),
    ("informer", 3.0),
    ("controller", 3.0),
    ("endpoint", 2.0),
    ("webhook", 2.0),
    ("crd", 1.5),
    ("api", 1.5),
    ("flag", 2.0),
    ("env", 2.0),
    ("metric", 2.0),
    ("configmap", 2.0),
    ("service", 2.0),
    ("page", 2.0),
    ("doc", 2.0),
];

pub fn category_weight(category: &str) -> f32 {
    CATEGORY_WEIGHTS
        .iter()
        .find(|(c, _)| *c == category)
        .map_or(1.0, |(_, w)| *w)
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    pub title: String,
    /// Site-relative, with the row's anchor.
    pub url: String,
    pub project: String,
    pub category: String,
    pub score: f32,
    pub snippet: String,
    /// The title of the page the result is on, and where on it (see `Document`).
    #[serde(skip)]
    pub page: String,
    #[serde(skip)]
    pub context: String,
    #[serde(skip)]
    pub id: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Answer {
    pub hits: Vec<Hit>,
    /// How many documents matched in all.
    pub total: usize,
    /// True when no document had every word and any word was accepted.
    pub any_word: bool,
    /// What was left out of the query, and why.
    pub notes: Vec<String>,
    /// How many of all the matches are in each project and each category.
    pub projects: std::collections::BTreeMap<String, usize>,
    pub categories: std::collections::BTreeMap<String, usize>,
}

/// The number of documents with `term` in its title or body (title's plus body's).
fn frequency(searcher: &Searcher, fields: &Fields, term: &str) -> u64 {
    [fields.title, fields.body]
        .iter()
        .map(|&f| {
            searcher
                .doc_freq(&Term::from_field_text(f, term))
                .unwrap_or(0)
        })
        .sum()
}

/// Every term of the title and body dictionaries that starts with `prefix`.
fn terms_with_prefix(searcher: &Searcher, fields: &Fields, prefix: &str) -> Vec<String> {
    let mut out = index::terms(searcher, fields.title, prefix);
    out.extend(index::terms(searcher, fields.body, prefix));
    out.sort();
    out.dedup();
    out
}

/// `n` terms, most frequent first, then in term order.
fn most_frequent(
    searcher: &Searcher,
    fields: &Fields,
    terms: Vec<String>,
    n: usize,
) -> Vec<String> {
    let mut scored: Vec<(u64, String)> = terms
        .into_iter()
        .map(|t| (frequency(searcher, fields, &t), t))
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored.into_iter().take(n).map(|(_, t)| t).collect()
}

/// Edit distance of at most one, by characters: one insertion, deletion, substitution,
/// or swap of two neighbours (`widgte` → `widget`).
pub fn within_one_edit(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    if long.len() - short.len() > 1 {
        return false;
    }
    let first_difference = short
        .iter()
        .zip(long.iter())
        .position(|(x, y)| x != y)
        .unwrap_or(short.len());
    if short.len() == long.len() {
        let i = first_difference;
        let swapped = i + 1 < short.len()
            && short[i] == long[i + 1]
            && short[i + 1] == long[i]
            && short[i + 2..] == long[i + 2..];
        swapped || short[i..].iter().skip(1).eq(long[i..].iter().skip(1))
    } else {
        short[first_difference..]
            .iter()
            .eq(long[first_difference + 1..].iter())
    }
}

/// The candidate terms of a word, with their factors (see the module documentation).
pub fn candidates(searcher: &Searcher, fields: &Fields, word: &Word) -> Vec<(String, f32)> {
    let mut out = Vec::new();
    let known = frequency(searcher, fields, &word.text) > 0;
    if known {
        out.push((word.text.clone(), 1.0));
        return out;
    }
    if word.prefix {
        let longer: Vec<String> = terms_with_prefix(searcher, fields, &word.text)
            .into_iter()
            .filter(|t| *t != word.text)
            .collect();
        for t in most_frequent(searcher, fields, longer, MAX_PREFIX) {
            out.push((t, PREFIX_FACTOR));
        }
    }
    if word.text.chars().count() >= FUZZY_MIN_CHARS {
        let first_two: String = word.text.chars().take(2).collect();
        let near: Vec<String> = terms_with_prefix(searcher, fields, &first_two)
            .into_iter()
            .filter(|t| within_one_edit(t, &word.text))
            .filter(|t| !out.iter().any(|(o, _)| o == t))
            .collect();
        for t in most_frequent(searcher, fields, near, MAX_FUZZY) {
            out.push((t, FUZZY_FACTOR));
        }
    }
    out
}

fn term_query(field: Field, text: &str) -> Box<dyn tantivy::query::Query> {
    Box::new(TermQuery::new(
        Term::from_field_text(field, text),
        IndexRecordOption::WithFreqs,
    ))
}

/// A word's query: the best of its candidates, each `3 × title + body`.
fn word_query(fields: &Fields, candidates: &[(String, f32)]) -> Box<dyn tantivy::query::Query> {
    if candidates.is_empty() {
        return Box::new(EmptyQuery);
    }
    let alternatives = candidates
        .iter()
        .map(|(term, factor)| {
            let both = BooleanQuery::new(vec![
                (
                    Occur::Should,
                    Box::new(BoostQuery::new(term_query(fields.title, term), TITLE_BOOST))
                        as Box<dyn tantivy::query::Query>,
                ),
                (Occur::Should, term_query(fields.body, term)),
            ]);
            Box::new(BoostQuery::new(Box::new(both), *factor)) as Box<dyn tantivy::query::Query>
        })
        .collect();
    Box::new(DisjunctionMaxQuery::new(alternatives))
}

/// A filter that adds nothing to the score: any of `values` in `field`.
fn filter(field: Field, values: &[String]) -> Box<dyn tantivy::query::Query> {
    let any = BooleanQuery::new(
        values
            .iter()
            .map(|v| (Occur::Should, term_query(field, v)))
            .collect(),
    );
    Box::new(ConstScoreQuery::new(Box::new(any), 0.0))
}

/// Runs `query` and returns the best `limit` hits.
pub fn search(index: &SearchIndex, query: &Query, limit: usize) -> Result<Answer, Error> {
    let mut answer = Answer {
        notes: query.notes.clone(),
        ..Answer::default()
    };
    if query.is_empty() {
        return Ok(answer);
    }
    let reader = index.index.reader().map_err(Error::Index)?;
    let searcher = reader.searcher();
    let f = &index.fields;
    let words: Vec<Box<dyn tantivy::query::Query>> = query
        .words
        .iter()
        .map(|w| word_query(f, &candidates(&searcher, f, w)))
        .collect();
    let mut filters: Vec<Box<dyn tantivy::query::Query>> = Vec::new();
    for pair in &query.pairs {
        filters.push(filter(f.pairs, std::slice::from_ref(pair)));
    }
    for (field, values) in [
        (f.kind, &query.kinds),
        (f.project, &query.projects),
        (f.category, &query.categories),
    ] {
        if !values.is_empty() {
            filters.push(filter(field, values));
        }
    }
    let build = |occur: Occur| -> Box<dyn tantivy::query::Query> {
        let mut clauses: Vec<(Occur, Box<dyn tantivy::query::Query>)> = Vec::new();
        if !words.is_empty() {
            let words_clause =
                BooleanQuery::new(words.iter().map(|w| (occur, w.box_clone())).collect());
            clauses.push((Occur::Must, Box::new(words_clause)));
        }
        for filter in &filters {
            clauses.push((Occur::Must, filter.box_clone()));
        }
        Box::new(BooleanQuery::new(clauses))
    };
    let named = named_kinds(query);
    let has_words = !words.is_empty();
    let mut hits = run(&searcher, f, build(Occur::Must).as_ref(), &named, has_words)?;
    if hits.is_empty() && words.len() > 1 {
        hits = run(
            &searcher,
            f,
            build(Occur::Should).as_ref(),
            &named,
            has_words,
        )?;
        answer.any_word = !hits.is_empty();
    }
    answer.total = hits.len();
    for h in &hits {
        *answer.projects.entry(h.project.clone()).or_insert(0) += 1;
        *answer.categories.entry(h.category.clone()).or_insert(0) += 1;
    }
    hits.truncate(limit);
    answer.hits = hits;
    Ok(answer)
}

/// The kinds a query names, lowercased: its words written together, and its `kind:`
/// values.
pub fn named_kinds(query: &Query) -> Vec<String> {
    let mut out: Vec<String> = query.kinds.clone();
    let joined: String = query.words.iter().map(|w| w.text.as_str()).collect();
    if !joined.is_empty() && !out.contains(&joined) {
        out.push(joined);
    }
    out
}

/// Every match of `query`, weighed by category (and kind pages named, see the module
/// documentation), best first. A query without words scores each match 1.
fn run(
    searcher: &Searcher,
    f: &Fields,
    query: &dyn tantivy::query::Query,
    named: &[String],
    words: bool,
) -> Result<Vec<Hit>, Error> {
    // Every match is weighed by its category before the best are picked, so take all.
    let total = searcher.search(query, &Count).map_err(Error::Search)?;
    let top = searcher
        .search(query, &TopDocs::with_limit(total.max(1)).order_by_score())
        .map_err(Error::Search)?;
    let mut hits = Vec::with_capacity(top.len());
    for (score, address) in top {
        let doc: TantivyDocument = searcher.doc(address).map_err(Error::ReadResult)?;
        let text = |field: Field| -> String {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let category = text(f.category);
        let mut weight = category_weight(&category);
        if category == "kind"
            && doc
                .get_all(f.kind)
                .filter_map(|v| v.as_str())
                .any(|k| named.iter().any(|n| n == k))
        {
            weight *= KIND_NAME_FACTOR;
        }
        hits.push(Hit {
            id: doc
                .get_first(f.id)
                .and_then(|v| v.as_u64())
                .unwrap_or(u64::MAX),
            title: text(f.title),
            url: text(f.url),
            project: text(f.project),
            score: if words { score } else { 1.0 } * weight,
            category,
            snippet: text(f.snippet),
            page: text(f.page),
            context: text(f.context),
        });
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
    Ok(hits)
}

#[cfg(test)]
mod tests;
