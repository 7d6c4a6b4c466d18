//! The query language, shared by `portolan search`, `/api/search` and the browser script
//! (`search.js` parses the same way): words (all required, falling back to any), the last
//! word also matching as a prefix while it is being typed, `"phrases"`, and the field
//! filters `kind:`, `project:` and `category:`. Parsing never fails: what cannot be used
//! is left out and explained in `notes`.

use super::tokens;

/// At most this many words are used (a 10,000-character paste is cut, and says so).
pub const MAX_WORDS: usize = 16;

/// One word to match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Lowercased, as the tokenizer writes whole words.
    pub text: String,
    /// Also match the terms it begins (the last word, while typing).
    pub prefix: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pub words: Vec<Word>,
    /// The adjacent pairs every phrase needs (see `tokens::pairs`).
    pub pairs: Vec<String>,
    /// Lowercased values of `kind:`, `project:` and `category:` (any of each list).
    pub kinds: Vec<String>,
    pub projects: Vec<String>,
    pub categories: Vec<String>,
    /// Why part of the query was not used.
    pub notes: Vec<String>,
}

impl Query {
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
            && self.pairs.is_empty()
            && self.kinds.is_empty()
            && self.projects.is_empty()
            && self.categories.is_empty()
    }
}

/// Parses `text`. The last word is a prefix unless the text ends with a space or a quote.
pub fn parse(text: &str) -> Query {
    let mut q = Query::default();
    let mut rest = text;
    let mut last_plain: Option<usize> = None;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if let Some(after) = rest.strip_prefix('"') {
            let (phrase, tail) = match after.find('"') {
                Some(end) => (&after[..end], &after[end + 1..]),
                None => (after, ""),
            };
            for w in tokens::query_words(phrase) {
                q.words.push(Word {
                    text: w,
                    prefix: false,
                });
            }
            q.pairs.extend(tokens::pairs(&tokens::leaves(phrase)));
            last_plain = None;
            rest = tail;
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '"')
            .unwrap_or(rest.len());
        let chunk = &rest[..end];
        rest = &rest[end..];
        if let Some((field, value)) = chunk.split_once(':')
            && let Some(list) = match field.to_lowercase().as_str() {
                "kind" => Some(&mut q.kinds),
                "project" => Some(&mut q.projects),
                "category" => Some(&mut q.categories),
                _ => None,
            }
        {
            if value.is_empty() {
                q.notes.push(format!(
                    "`{field}:` needs a value (for example `{field}:{}`); it was left out",
                    example(field)
                ));
            } else {
                list.push(value.to_lowercase());
            }
            last_plain = None;
            continue;
        }
        for w in tokens::query_words(chunk) {
            q.words.push(Word {
                text: w,
                prefix: false,
            });
        }
        last_plain = Some(q.words.len());
    }
    let typing = !text.ends_with(char::is_whitespace) && !text.ends_with('"');
    if typing
        && let Some(n) = last_plain
        && n == q.words.len()
        && let Some(last) = q.words.last_mut()
        && last.text.chars().count() >= 2
    {
        last.prefix = true;
    }
    let mut seen = std::collections::BTreeSet::new();
    q.words.retain(|w| seen.insert((w.text.clone(), w.prefix)));
    if q.words.len() > MAX_WORDS {
        q.notes.push(format!(
            "only the first {MAX_WORDS} of {} words were used",
            q.words.len()
        ));
        q.words.truncate(MAX_WORDS);
        q.words.iter_mut().for_each(|w| w.prefix = false);
    }
    if q.is_empty() && q.notes.is_empty() && !text.trim().is_empty() {
        q.notes
            .push("the query has no letters or digits to search for".into());
    }
    q
}

fn example(field: &str) -> &'static str {
    match field.to_lowercase().as_str() {
        "kind" => "InferencePool",
        "project" => "kserve",
        _ => "webhook",
    }
}

#[cfg(test)]
mod tests;
