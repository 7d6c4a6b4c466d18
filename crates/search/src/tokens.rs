//! The code-aware tokenizer, shared by the index, the query parser and (in a JavaScript
//! copy checked against the same test vectors, `tests/search-tokens.json`) the browser.
//!
//! Text is split into words on anything that is not a letter or digit; every word is
//! lowercased and, when it has several parts, its camel-case and digit-boundary parts are
//! emitted too: `InferencePool` → `inferencepool`, `inference`, `pool`; `v1alpha2` →
//! `v1alpha2`, `v`, `1`, `alpha`, `2`. So a search for the whole word and a search for a
//! part both find it.

/// Words longer than this (base64, hashes) are not indexed: nobody types them.
pub const MAX_WORD_CHARS: usize = 64;

/// One token: its lowercased text and its position (the word's index; parts follow it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub position: usize,
    /// Byte range of the token in the input.
    pub from: usize,
    pub to: usize,
}

/// The words of `text`: maximal runs of letters and digits, as byte ranges.
pub fn words(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        loop {
            let (start, c) = chars.next()?;
            if !c.is_alphanumeric() {
                continue;
            }
            let mut end = start + c.len_utf8();
            while let Some(&(i, c)) = chars.peek() {
                if !c.is_alphanumeric() {
                    break;
                }
                end = i + c.len_utf8();
                chars.next();
            }
            if text[start..end].chars().count() <= MAX_WORD_CHARS {
                return Some((start, end));
            }
        }
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Class {
    Lower,
    Upper,
    Digit,
}

fn class(c: char) -> Class {
    if c.is_numeric() {
        Class::Digit
    } else if c.is_uppercase() {
        Class::Upper
    } else {
        Class::Lower
    }
}

/// The camel-case and digit-boundary parts of one word, as byte ranges within it:
/// `HTTPRoute` → `HTTP`, `Route`; `inferencePool2` → `inference`, `Pool`, `2`.
pub fn parts(word: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = class(chars[i - 1].1);
        let here = class(c);
        let next = chars.get(i + 1).map(|&(_, c)| class(c));
        let boundary = match (prev, here) {
            (Class::Lower, Class::Upper) => true,
            (Class::Digit, Class::Upper | Class::Lower) => true,
            (Class::Upper | Class::Lower, Class::Digit) => true,
            // The last capital of a run starts the next word: "HTTPRoute" → "HTTP" "Route".
            (Class::Upper, Class::Upper) => next == Some(Class::Lower),
            _ => false,
        };
        if boundary {
            out.push((start, at));
            start = at;
        }
    }
    out.push((start, word.len()));
    out
}

/// Every token of `text` for the index: each word, then its parts when it has several.
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut position = 0;
    for (from, to) in words(text) {
        let word = &text[from..to];
        out.push(Token {
            text: word.to_lowercase(),
            position,
            from,
            to,
        });
        let parts = parts(word);
        if parts.len() > 1 {
            for (i, (a, b)) in parts.into_iter().enumerate() {
                out.push(Token {
                    text: word[a..b].to_lowercase(),
                    position: position + i,
                    from: from + a,
                    to: from + b,
                });
            }
        }
        position += parts_len(word);
    }
    out
}

fn parts_len(word: &str) -> usize {
    parts(word).len().max(1)
}

/// The finest pieces of `text` in order (a word's parts, or the word when it has one
/// part), lowercased: what phrases are matched on, so `"chat completions"` finds
/// `/v1/chat/completions` and `ChatCompletions` alike.
pub fn leaves(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (from, to) in words(text) {
        let word = &text[from..to];
        for (a, b) in parts(word) {
            out.push(word[a..b].to_lowercase());
        }
    }
    out
}

/// The adjacent pairs of `leaves`, as `"a b"`: indexed so a phrase query needs no positions.
pub fn pairs(leaves: &[String]) -> Vec<String> {
    leaves
        .windows(2)
        .map(|w| format!("{} {}", w[0], w[1]))
        .collect()
}

/// The query words of `text`: whole words, lowercased (the index holds parts too).
pub fn query_words(text: &str) -> Vec<String> {
    words(text)
        .map(|(a, b)| text[a..b].to_lowercase())
        .collect()
}

/// `tokenize` as a tantivy tokenizer, registered as [`NAME`].
#[derive(Clone, Default)]
pub struct CodeTokenizer {
    token: tantivy::tokenizer::Token,
}

pub const NAME: &str = "code";

pub struct CodeTokenStream<'a> {
    tokens: std::vec::IntoIter<Token>,
    token: &'a mut tantivy::tokenizer::Token,
}

impl tantivy::tokenizer::Tokenizer for CodeTokenizer {
    type TokenStream<'a> = CodeTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> CodeTokenStream<'a> {
        self.token.reset();
        CodeTokenStream {
            tokens: tokenize(text).into_iter(),
            token: &mut self.token,
        }
    }
}

impl tantivy::tokenizer::TokenStream for CodeTokenStream<'_> {
    fn advance(&mut self) -> bool {
        let Some(t) = self.tokens.next() else {
            return false;
        };
        self.token.text = t.text;
        self.token.position = t.position;
        self.token.offset_from = t.from;
        self.token.offset_to = t.to;
        self.token.position_length = 1;
        true
    }

    fn token(&self) -> &tantivy::tokenizer::Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut tantivy::tokenizer::Token {
        self.token
    }
}

#[cfg(test)]
mod tests;
