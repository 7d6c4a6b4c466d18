//! Bounds how deeply elements nest before the sanitizer parses the HTML.
//!
//! html5ever's tree builder (inside ammonia) answers "is there a `p` in button scope?" and
//! similar questions for most tags by walking its stack of open elements, so N nested
//! elements cost O(N²): a README of 100,000 nested `<div>` took about a minute. Browsers stop
//! nesting at 512 levels for the same reason. `bound` reads the HTML once and writes it
//! again, balanced, with every start tag that would open an element past `MAX_DEPTH`
//! levels written as text (`&lt;div>`). The sanitizer's stack then stays within a small
//! factor of `MAX_DEPTH` and its work linear in the input.
//!
//! Two parts:
//!
//! * A tokenizer for the HTML tokenizer's data state (tags with their attributes,
//!   comments, text). It writes what it reads in a form html5ever cannot read any other
//!   way: tags with double-quoted attribute values, a `<` that is text as `&lt;`; comments,
//!   doctypes and processing instructions dropped (the sanitizer drops them too);
//!   `script` and `style` dropped with their content (so does the sanitizer); the other
//!   raw-text elements (`textarea`, `title`, `xmp`, `iframe`, `noembed`, `noframes`,
//!   `noscript`, `plaintext`, which the sanitizer removes keeping their text) written as
//!   their text. So the tags seen here are exactly the tags html5ever sees: no comment,
//!   attribute value or raw text can hide one.
//! * `Tree`, the stack of elements opened so far. Every element it closes is closed in the
//!   output by an explicit end tag, in order: an end tag in the input closes the elements
//!   opened after its element first; a start tag that implies an end (a `p` after an open
//!   `p`, an `li` after an open `li`, a cell after an open cell, …) writes that end. So
//!   whatever html5ever does with the rest, an element this stack no longer holds is not
//!   open in html5ever either, and html5ever's stack is at most this one plus what it
//!   adds by itself (a table's implied `tbody` and `tr`, formatting elements it reopens,
//!   which are open here too). Misnested markup thereby reads as nested: `<b><i></b></i>`
//!   closes the `i` at `</b>`, and a `<b>` left open when a block closes its paragraph
//!   ends there instead of going on into the block. Apart from that (and a leading newline
//!   in a `textarea`), documents below the limit come out of the sanitizer unchanged.

use std::collections::HashMap;

/// The deepest nesting of elements kept as elements (Chromium's parser stops at 512 too).
pub const MAX_DEPTH: usize = 512;

/// `html` written again with start tags past `MAX_DEPTH` levels of nesting as text.
pub fn bound(html: &str) -> String {
    bound_at(html, MAX_DEPTH)
}

fn bound_at(html: &str, max_depth: usize) -> String {
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len() + html.len() / 16);
    let mut tree = Tree::default();
    let mut at = 0;
    while at < bytes.len() {
        let Some(lt) = find_byte(b'<', bytes, at) else {
            out.push_str(&html[at..]);
            break;
        };
        out.push_str(&html[at..lt]);
        let next = bytes.get(lt + 1).copied();
        let after = bytes.get(lt + 2).copied();
        at = match (next, after) {
            (Some(c), _) if c.is_ascii_alphabetic() => {
                let Some(tag) = read_tag(html, lt + 1) else {
                    break; // a tag cut off by the end of the input is dropped, as html5ever does
                };
                let name = tag.name.to_ascii_lowercase();
                if let Some(raw) = raw_text(&name) {
                    let (text_end, resume) = raw_text_end(html, tag.end, &name);
                    write_raw(&mut out, &html[tag.end..text_end], raw);
                    resume
                } else {
                    let implied = tree.implied_end(&name);
                    let depth = implied.unwrap_or(tree.depth());
                    if tree.opens(&name) && depth >= max_depth {
                        // Shown as text, it closes nothing either.
                        write_tag(&mut out, &name, &tag, true);
                    } else {
                        if let Some(i) = implied {
                            tree.close(i, &mut out);
                        }
                        tree.start(&name);
                        write_tag(&mut out, &name, &tag, false);
                    }
                    tag.end
                }
            }
            (Some(b'/'), Some(c)) if c.is_ascii_alphabetic() => {
                let Some(tag) = read_tag(html, lt + 2) else {
                    break;
                };
                let name = tag.name.to_ascii_lowercase();
                tree.end(&name, &mut out);
                tag.end
            }
            (Some(b'/'), Some(b'>')) => lt + 3,
            (Some(b'!'), _) if bytes[lt..].starts_with(b"<!--") => comment_end(bytes, lt + 4),
            (Some(b'!' | b'?' | b'/'), Some(_)) => {
                // A doctype, CDATA section, processing instruction or `</1`: a bogus
                // comment up to the next `>`.
                find_byte(b'>', bytes, lt + 2).map_or(bytes.len(), |e| e + 1)
            }
            (Some(b'!' | b'?'), None) => bytes.len(),
            _ => {
                out.push_str("&lt;");
                lt + 1
            }
        };
    }
    out
}

/// Elements without content: a start tag opens nothing.
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
    "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
];

/// How the content of a raw-text element is written.
#[derive(Clone, Copy, PartialEq)]
enum Raw {
    /// Dropped, as the sanitizer drops it.
    Drop,
    /// Text in which character references count (`textarea`, `title`).
    Rcdata,
    /// Text as written (`&` is a character); for `plaintext`, up to the end of the input.
    Literal,
}

fn raw_text(name: &str) -> Option<Raw> {
    Some(match name {
        "script" | "style" => Raw::Drop,
        "textarea" | "title" => Raw::Rcdata,
        "xmp" | "iframe" | "noembed" | "noframes" | "noscript" | "plaintext" => Raw::Literal,
        _ => return None,
    })
}

/// Where the raw text after a start tag ends: the `<` of the first `</name` followed by
/// whitespace, `/` or `>` (or the end of the input), and the offset after that end tag,
/// which is dropped with the element.
fn raw_text_end(html: &str, from: usize, name: &str) -> (usize, usize) {
    let bytes = html.as_bytes();
    if name == "plaintext" {
        return (bytes.len(), bytes.len());
    }
    let mut at = from;
    while let Some(lt) = find_byte(b'<', bytes, at) {
        let rest = &bytes[lt + 1..];
        let close = rest.len() > name.len() + 1
            && rest[0] == b'/'
            && rest[1..=name.len()].eq_ignore_ascii_case(name.as_bytes())
            && (is_space(rest[name.len() + 1]) || matches!(rest[name.len() + 1], b'/' | b'>'));
        if close {
            let resume = read_tag(html, lt + 2).map_or(bytes.len(), |t| t.end);
            return (lt, resume);
        }
        at = lt + 1;
    }
    (bytes.len(), bytes.len())
}

fn write_raw(out: &mut String, text: &str, raw: Raw) {
    if raw == Raw::Drop {
        return;
    }
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' if raw == Raw::Literal => out.push_str("&amp;"),
            _ => out.push(c),
        }
    }
}

/// The end of a comment that starts with `<!--` (at `from`, just after it): `>` or `->`
/// right away, else the first `-->` or `--!>`, else the end of the input.
fn comment_end(bytes: &[u8], from: usize) -> usize {
    let rest = &bytes[from..];
    if rest.starts_with(b">") {
        return from + 1;
    }
    if rest.starts_with(b"->") {
        return from + 2;
    }
    let mut at = from;
    while let Some(dash) = find_byte(b'-', bytes, at) {
        let rest = &bytes[dash..];
        if rest.starts_with(b"-->") {
            return dash + 3;
        }
        if rest.starts_with(b"--!>") {
            return dash + 4;
        }
        at = dash + 1;
    }
    bytes.len()
}

/// A tag as the tokenizer reads it: its name and attributes as written.
struct Tag<'h> {
    name: &'h str,
    attributes: Vec<(&'h str, Option<&'h str>)>,
    self_closing: bool,
    /// The offset just past its `>`.
    end: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Reads a tag from its name (at `from`) to its `>` with the tokenizer's rules for
/// attributes: names run to whitespace, `/`, `>` or `=` (a leading `=` is part of the
/// name), values are quoted with `"` or `'` (and may hold `>`) or run to whitespace or `>`.
/// None when the input ends inside the tag.
fn read_tag(html: &str, from: usize) -> Option<Tag<'_>> {
    let bytes = html.as_bytes();
    let mut i = from;
    while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'/' && bytes[i] != b'>' {
        i += 1;
    }
    let mut tag = Tag {
        name: &html[from..i],
        attributes: Vec::new(),
        self_closing: false,
        end: 0,
    };
    loop {
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        match *bytes.get(i)? {
            b'>' => {
                tag.end = i + 1;
                return Some(tag);
            }
            b'/' => {
                i += 1;
                if bytes.get(i) == Some(&b'>') {
                    tag.self_closing = true;
                    tag.end = i + 1;
                    return Some(tag);
                }
                continue;
            }
            _ => {}
        }
        let start = i;
        i += 1; // the first character of a name may be anything here, `=` included
        while i < bytes.len() && !is_space(bytes[i]) && !matches!(bytes[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let name = &html[start..i];
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        if bytes.get(i) != Some(&b'=') {
            tag.attributes.push((name, None));
            continue;
        }
        i += 1;
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        let value = match *bytes.get(i)? {
            q @ (b'"' | b'\'') => {
                let end = find_byte(q, bytes, i + 1)?;
                let value = &html[i + 1..end];
                i = end + 1;
                value
            }
            b'>' => "",
            _ => {
                let start = i;
                while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'>' {
                    i += 1;
                }
                &html[start..i]
            }
        };
        tag.attributes.push((name, Some(value)));
    }
}

/// Writes a start tag in the plain form, as a tag or (`as_text`) as text: then every `<`
/// in it is `&lt;`, so that no tag written inside an attribute value comes alive.
fn write_tag(out: &mut String, name: &str, tag: &Tag, as_text: bool) {
    let mut written = format!("<{name}");
    for (attribute, value) in &tag.attributes {
        written.push(' ');
        written.push_str(attribute);
        if let Some(value) = value {
            written.push_str("=\"");
            written.push_str(&value.replace('"', "&quot;"));
            written.push('"');
        }
    }
    if tag.self_closing {
        written.push('/');
    }
    written.push('>');
    if as_text {
        out.push_str(&written.replace('<', "&lt;"));
    } else {
        out.push_str(&written);
    }
}

fn find_byte(needle: u8, bytes: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|&b| b == needle)
        .map(|p| from + p)
}

/// The tree builder's "special" HTML elements: an end tag of an element that is not
/// special stops looking at the first one.
const SPECIAL: &[&str] = &[
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "base",
    "basefont",
    "bgsound",
    "blockquote",
    "body",
    "br",
    "button",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dir",
    "div",
    "dl",
    "dt",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "iframe",
    "img",
    "input",
    "keygen",
    "li",
    "link",
    "listing",
    "main",
    "marquee",
    "menu",
    "meta",
    "nav",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "ol",
    "p",
    "param",
    "plaintext",
    "pre",
    "script",
    "search",
    "section",
    "select",
    "source",
    "special",
    "style",
    "summary",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
    "wbr",
    "xmp",
];

/// Where "has an element in scope" stops looking (with `FOREIGN`).
const SCOPE: &[&str] = &[
    "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template",
];

/// MathML and SVG elements where HTML searches stop (special, and scope boundaries), and
/// `svg` and `math` themselves.
const FOREIGN: &[&str] = &[
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "annotation-xml",
    "foreignobject",
    "desc",
    "title",
    "svg",
    "math",
];

fn is_special(name: &str) -> bool {
    SPECIAL.contains(&name) || FOREIGN.contains(&name)
}

fn is_scope(name: &str) -> bool {
    SCOPE.contains(&name) || FOREIGN.contains(&name)
}

/// Where "has an element in table scope" stops looking.
const TABLE_SCOPE: &[&str] = &["html", "table", "template"];

/// Parts of a table: outside one the tree builder ignores their start tags.
const TABLE_PARTS: &[&str] = &[
    "caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr",
];

/// Start tags the tree builder never opens an element for inside a body.
const IGNORED: &[&str] = &["html", "body", "head", "frameset"];

/// Start tags that close an open `p` (in button scope) first.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "dd",
    "dt",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "search",
    "section",
    "summary",
    "table",
    "ul",
    "xmp",
    "plaintext",
];

/// One open element.
struct Open {
    name: String,
    special: bool,
    scope: bool,
}

/// The elements opened and not yet closed, innermost last.
#[derive(Default)]
struct Tree {
    open: Vec<Open>,
    /// How many elements of each name are open: most searches end here, without walking
    /// the stack.
    count: HashMap<String, usize>,
}

impl Tree {
    fn depth(&self) -> usize {
        self.open.len()
    }

    /// Whether a start tag of this name opens an element: not a void element, not one the
    /// tree builder ignores inside a body, not a table part outside a table.
    fn opens(&self, name: &str) -> bool {
        !(VOID.contains(&name)
            || IGNORED.contains(&name)
            || (TABLE_PARTS.contains(&name) && !self.is_open("table")))
    }

    fn is_open(&self, name: &str) -> bool {
        self.count.get(name).is_some_and(|&n| n > 0)
    }

    /// The index of the outermost element the start tag `name` closes first, as the tree
    /// builder does: an open `p` for block elements, the open `li`, `dd`/`dt`, cell, row,
    /// table section or `option`.
    fn implied_end(&self, name: &str) -> Option<usize> {
        if !self.opens(name) {
            return None;
        }
        let p = if CLOSES_P.contains(&name) {
            self.nearest(&["p"], |o| o.scope || o.name == "button")
        } else {
            None
        };
        let own = match name {
            // The tree builder looks down the stack and stops at special elements other
            // than `address`, `div` and `p`.
            "li" => self.nearest(&["li"], stops_at_special),
            "dd" | "dt" => self.nearest(&["dd", "dt"], stops_at_special),
            "td" | "th" => self.nearest(&["td", "th"], |o| {
                TABLE_SCOPE.contains(&o.name.as_str()) || o.name == "tr"
            }),
            // A new row closes the open row (and its cell), a new section the open one.
            "tr" => self.lowest(&["tr", "td", "th"], |o| {
                TABLE_SCOPE.contains(&o.name.as_str())
                    || matches!(o.name.as_str(), "tbody" | "thead" | "tfoot")
            }),
            "tbody" | "thead" | "tfoot" => self
                .lowest(&["tbody", "thead", "tfoot", "tr", "td", "th"], |o| {
                    TABLE_SCOPE.contains(&o.name.as_str())
                }),
            "option" | "optgroup" => self
                .open
                .last()
                .filter(|o| o.name == "option")
                .map(|_| self.open.len() - 1),
            _ => None,
        };
        p.into_iter().chain(own).min()
    }

    fn start(&mut self, name: &str) {
        if self.opens(name) {
            *self.count.entry(name.to_string()).or_insert(0) += 1;
            self.open.push(Open {
                name: name.to_string(),
                special: is_special(name),
                scope: is_scope(name),
            });
        }
    }

    /// An end tag: closes its element, with the elements opened after it, when the tree
    /// builder's own search would find it; otherwise it is written as it is (the tree
    /// builder ignores it, or inserts an empty `p` for a `</p>`, or a `br` for `</br>`).
    fn end(&mut self, name: &str, out: &mut String) {
        let at = if TABLE_PARTS.contains(&name) || name == "table" {
            self.nearest(&[name], |o| TABLE_SCOPE.contains(&o.name.as_str()))
        } else if name == "li" {
            self.nearest(&[name], |o| o.scope || o.name == "ol" || o.name == "ul")
        } else if name == "p" {
            self.nearest(&[name], |o| o.scope || o.name == "button")
        } else if is_special(name) {
            self.nearest(&[name], |o| o.scope)
        } else {
            self.nearest(&[name], |o| o.special)
        };
        match at {
            Some(i) => self.close(i, out),
            None => {
                out.push_str("</");
                out.push_str(name);
                out.push('>');
            }
        }
    }

    /// The index of the nearest open element named one of `names`, looking down from the
    /// top and stopping (None) at an element for which `stop` holds.
    fn nearest(&self, names: &[&str], stop: impl Fn(&Open) -> bool) -> Option<usize> {
        if !names.iter().any(|n| self.is_open(n)) {
            return None;
        }
        for (i, o) in self.open.iter().enumerate().rev() {
            if names.contains(&o.name.as_str()) {
                return Some(i);
            }
            if stop(o) {
                return None;
            }
        }
        None
    }

    /// The lowest open element named one of `names` above the first element (from the
    /// top) for which `stop` holds.
    fn lowest(&self, names: &[&str], stop: impl Fn(&Open) -> bool) -> Option<usize> {
        if !names.iter().any(|n| self.is_open(n)) {
            return None;
        }
        let mut lowest = None;
        for (i, o) in self.open.iter().enumerate().rev() {
            if stop(o) {
                break;
            }
            if names.contains(&o.name.as_str()) {
                lowest = Some(i);
            }
        }
        lowest
    }

    /// Closes the element at `i` and everything opened after it, innermost first.
    fn close(&mut self, i: usize, out: &mut String) {
        for o in self.open.drain(i..).rev() {
            if let Some(n) = self.count.get_mut(&o.name) {
                *n -= 1;
            }
            out.push_str("</");
            out.push_str(&o.name);
            out.push('>');
        }
    }
}

fn stops_at_special(o: &Open) -> bool {
    o.special && !matches!(o.name.as_str(), "address" | "div" | "p")
}

#[cfg(test)]
mod tests;
