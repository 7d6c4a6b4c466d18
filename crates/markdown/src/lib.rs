//! Markdown to safe HTML: pulldown-cmark for the syntax, ammonia for the sanitizing, and
//! one hook (`Links`) that decides where every link and image points.
//!
//! Stage: leaf, like `config`. `source::docs` uses it to find the images a repository's
//! markdown references; `render` uses it to make pages. It does no IO.
//! **Invariant:** whatever the markdown holds, the HTML returned has no script, no event
//! handler, no `style`, and no URL other than those `Links` returns, `#anchors`, http(s)
//! and mailto links, and inline raster images (`data:image/png|gif|jpeg|webp`). (`Links`
//! may return an SVG `data:` URL for a repository's own SVG file: in an `<img>` its script
//! never runs.)

mod nesting;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use pulldown_cmark::{
    BlockQuoteKind, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};

/// What a relative URL is used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    Link,
    Image,
}

/// Decides where relative URLs (`guide.md#x`, `../img/a.png`, `/docs/b.md`) point. `path` is
/// the URL without its fragment, percent-decoded; `fragment` excludes the `#`. Returning
/// None drops the attribute: the link text or the image's alt text stays.
pub trait Links: Send + Sync {
    fn resolve(&self, usage: Use, path: &str, fragment: Option<&str>) -> Option<String>;
}

/// The HTML of one markdown document and what templates need besides it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rendered {
    pub html: String,
    /// The text of the first level-1 heading, if any.
    pub title: Option<String>,
    /// Every heading's level, id and text, in document order.
    pub headings: Vec<Heading>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    pub level: u8,
    pub id: String,
    pub text: String,
}

/// How a document is rendered.
#[derive(Clone, Copy, Default)]
pub struct Settings<'a> {
    /// Emit ```` ```mermaid ```` blocks as `<pre class="mermaid">` for a client-side script;
    /// otherwise they stay code blocks showing their source.
    pub mermaid: bool,
    /// Ids the page around the document already uses; headings never take them.
    pub reserved_ids: &'a [&'a str],
    /// Levels added to every heading (at most `h6`), for a document shown under the
    /// page's own `h1`.
    pub heading_offset: u8,
}

/// Renders markdown to sanitized HTML, with heading anchors and pilcrow permalinks, tables
/// inside a horizontally scrolling container, footnotes, task lists, strikethrough and
/// GitHub's alerts (`> [!NOTE]`, …) as titled boxes.
pub fn render(markdown: &str, links: Arc<dyn Links>, settings: Settings) -> Rendered {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_GFM);
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_FOOTNOTES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    options.insert(Options::ENABLE_TASKLISTS);
    let events: Vec<Event> = Parser::new_ext(markdown, options).collect();

    let mut ids = Ids::new(settings.reserved_ids);
    let mut out: Vec<Event> = Vec::with_capacity(events.len() + 16);
    let mut headings = Vec::new();
    let mut title = None;
    let mut heading: Option<(HeadingLevel, String, Vec<Event>)> = None;
    let mut mermaid: Option<String> = None;
    for event in events {
        if let Some(source) = mermaid.as_mut() {
            match event {
                Event::Text(t) => source.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let html = if settings.mermaid {
                        format!("<pre class=\"mermaid\">{}</pre>\n", escape(source))
                    } else {
                        format!("<pre><code>{}</code></pre>\n", escape(source))
                    };
                    out.push(Event::Html(html.into()));
                    mermaid = None;
                }
                _ => {}
            }
            continue;
        }
        if let Some((_, text, inner)) = heading.as_mut() {
            match event {
                Event::End(TagEnd::Heading(level)) => {
                    let text = std::mem::take(text);
                    let inner = std::mem::take(inner);
                    let id = ids.claim(&slug(&text));
                    let level = heading_number(level);
                    let n = (level + settings.heading_offset).min(6);
                    out.push(Event::Html(format!("<h{n} id=\"{id}\">").into()));
                    out.extend(inner);
                    out.push(Event::Html(
                        format!(" <a class=\"permalink\" href=\"#{id}\" aria-label=\"Link to this section\">¶</a></h{n}>\n").into(),
                    ));
                    if level == 1 && title.is_none() {
                        title = Some(text.trim().to_string());
                    }
                    headings.push(Heading {
                        level,
                        id,
                        text: text.trim().to_string(),
                    });
                    heading = None;
                }
                other => {
                    if let Event::Text(t) | Event::Code(t) = &other {
                        text.push_str(t);
                    }
                    inner.push(other);
                }
            }
            continue;
        }
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some((level, String::new(), Vec::new()));
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang)))
                if lang.split_whitespace().next() == Some("mermaid") =>
            {
                mermaid = Some(String::new());
            }
            Event::Start(Tag::BlockQuote(Some(kind))) => {
                let (class, title) = alert(kind);
                out.push(Event::Html(
                    format!("<div class=\"alert {class}\"><p class=\"alert-title\">{title}</p>\n")
                        .into(),
                ));
            }
            Event::End(TagEnd::BlockQuote(Some(_))) => {
                out.push(Event::Html("</div>\n".into()));
            }
            Event::Start(Tag::Table(a)) => {
                out.push(Event::Html("<div class=\"table-wrap\">".into()));
                out.push(Event::Start(Tag::Table(a)));
            }
            Event::End(TagEnd::Table) => {
                out.push(Event::End(TagEnd::Table));
                out.push(Event::Html("</div>\n".into()));
            }
            other => out.push(other),
        }
    }
    let mut raw = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut raw, out.into_iter());
    Rendered {
        // Bounded first: the sanitizer's parser takes time quadratic in the nesting depth.
        html: sanitize(&nesting::bound(&raw), links),
        title,
        headings,
    }
}

/// Every kind of GitHub alert, for the sanitizer's list of classes.
const ALERTS: [BlockQuoteKind; 5] = [
    BlockQuoteKind::Note,
    BlockQuoteKind::Tip,
    BlockQuoteKind::Important,
    BlockQuoteKind::Warning,
    BlockQuoteKind::Caution,
];

/// The class and title of a GitHub alert, the title as GitHub shows it.
fn alert(kind: BlockQuoteKind) -> (&'static str, &'static str) {
    match kind {
        BlockQuoteKind::Note => ("alert-note", "Note"),
        BlockQuoteKind::Tip => ("alert-tip", "Tip"),
        BlockQuoteKind::Important => ("alert-important", "Important"),
        BlockQuoteKind::Warning => ("alert-warning", "Warning"),
        BlockQuoteKind::Caution => ("alert-caution", "Caution"),
    }
}

/// Cleans HTML with ammonia: a fixed set of tags and attributes, classes only from the list
/// below, and every URL passed through `url_for`.
fn sanitize(html: &str, links: Arc<dyn Links>) -> String {
    let mut builder = ammonia::Builder::default();
    builder
        .add_tags(["input"])
        // Attributes are allowed rather than forced: ammonia adds forced ones in hash order.
        .add_tag_attributes("input", ["checked", "disabled", "type"])
        .add_tag_attributes("a", ["aria-label"])
        .add_tag_attributes("div", ["id"])
        .add_tag_attributes("li", ["id"])
        .add_tag_attributes("sup", ["id"])
        .link_rel(None)
        .add_url_schemes(["data"])
        .allowed_classes(HashMap::from([
            ("a", HashSet::from(["permalink"])),
            (
                "div",
                ["table-wrap", "footnote-definition", "alert"]
                    .into_iter()
                    .chain(ALERTS.map(|kind| alert(kind).0))
                    .collect(),
            ),
            ("p", HashSet::from(["alert-title"])),
            (
                "sup",
                HashSet::from(["footnote-reference", "footnote-definition-label"]),
            ),
            ("pre", HashSet::from(["mermaid"])),
        ]))
        .attribute_filter(move |element, attribute, value| {
            url_for(links.as_ref(), element, attribute, value)
        });
    for level in ["h1", "h2", "h3", "h4", "h5", "h6"] {
        builder.add_tag_attributes(level, ["id"]);
    }
    builder.clean(html).to_string()
}

/// The URL an `href` or `src` attribute gets, or None to drop it. Other attributes pass.
fn url_for<'u>(
    links: &dyn Links,
    element: &str,
    attribute: &str,
    value: &'u str,
) -> Option<Cow<'u, str>> {
    let usage = match (element, attribute) {
        // Task list boxes are the only inputs markdown makes.
        ("input", "type") => return Some("checkbox".into()),
        ("img", "src") => Use::Image,
        (_, "href") | (_, "src") | (_, "cite") => Use::Link,
        _ => return Some(value.into()),
    };
    let url = value.trim();
    if url.starts_with('#') {
        return Some(url.to_string().into());
    }
    if let Some(rest) = url.strip_prefix("//") {
        return external(usage, &format!("https://{rest}")).map(Cow::Owned);
    }
    if has_scheme(url) {
        return external(usage, url).map(Cow::Owned);
    }
    let (path, fragment) = match url.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (url, None),
    };
    // A query string means nothing for a file in a repository.
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    links
        .resolve(usage, &percent_decode(path), fragment)
        .map(Cow::Owned)
}

/// Absolute URLs: web links stay; images only over https or as inline raster data (an
/// `http:` image on an https page is blocked by browsers, an SVG data URL can carry script).
fn external(usage: Use, url: &str) -> Option<String> {
    let lower = url.to_ascii_lowercase();
    let ok = match usage {
        Use::Link => {
            lower.starts_with("https://")
                || lower.starts_with("http://")
                || lower.starts_with("mailto:")
        }
        Use::Image => {
            lower.starts_with("https://")
                || ["png", "gif", "jpeg", "webp"]
                    .iter()
                    .any(|t| lower.starts_with(&format!("data:image/{t};base64,")))
        }
    };
    ok.then(|| url.to_string())
}

fn has_scheme(url: &str) -> bool {
    match url.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && !scheme.contains('/')
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes.get(i),
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (Some(b'%'), Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (Some(&b), _, _) => {
                out.push(b);
                i += 1;
            }
            (None, _, _) => break,
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Resolves `target` (a `/`-separated URL path) against the folder of `from`, both relative
/// to one root. A leading `/` means the root. None when it climbs above the root.
pub fn join(from: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> = if target.starts_with('/') {
        Vec::new()
    } else {
        let mut p: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
        p.pop();
        p
    };
    for segment in target.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// A GitHub-style heading id: lowercase letters and digits, spaces and `-` as `-`,
/// `_` kept, everything else dropped.
pub fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.trim().chars() {
        if c.is_alphanumeric() || c == '_' {
            s.extend(c.to_lowercase());
        } else if c == ' ' || c == '-' {
            s.push('-');
        }
    }
    if s.is_empty() { "section".into() } else { s }
}

/// Unique ids on one page: the second "Usage" heading becomes `usage-1`, as on GitHub.
/// Each claim costs O(1) amortized: `next` remembers, per base id, the suffix to try
/// first, so a page of 20,000 equal headings does not retry 1, 2, 3, … for each of them.
/// A suffix is never skipped wrongly: every `base-k` below `next[base]` is already used,
/// since only ids found taken move the counter on. A literal heading `x-1` takes `x-1`
/// (and pushes a later `x` on to `x-2`), exactly as github-slugger does.
struct Ids {
    used: HashSet<String>,
    next: HashMap<String, usize>,
}

impl Ids {
    fn new(reserved: &[&str]) -> Ids {
        Ids {
            used: reserved.iter().map(|s| s.to_string()).collect(),
            next: HashMap::new(),
        }
    }

    fn claim(&mut self, base: &str) -> String {
        let mut id = base.to_string();
        if self.used.contains(&id) {
            let n = self.next.entry(base.to_string()).or_insert(0);
            loop {
                *n += 1;
                id = format!("{base}-{n}");
                if !self.used.contains(&id) {
                    break;
                }
            }
        }
        self.used.insert(id.clone());
        id
    }
}

fn heading_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Front matter at the top of a markdown file: `+++` TOML or `---` YAML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontMatterFormat {
    Toml,
    Yaml,
}

/// A markdown file cut into its front matter and body.
#[derive(Debug, Clone, PartialEq)]
pub struct Split<'a> {
    /// The format and text of the front matter block, without its fences.
    pub front: Option<(FrontMatterFormat, &'a str)>,
    /// The markdown after the closing fence.
    pub body: &'a str,
    /// The file line (1-based) the front matter text starts on.
    pub front_line: usize,
}

/// Splits off front matter. A file that opens a fence and never closes it has none.
pub fn split_front_matter(text: &str) -> Split<'_> {
    let text_no_bom = text.strip_prefix('\u{feff}').unwrap_or(text);
    let none = Split {
        front: None,
        body: text,
        front_line: 0,
    };
    let (format, fence) = if text_no_bom.starts_with("+++") {
        (FrontMatterFormat::Toml, "+++")
    } else if text_no_bom.starts_with("---") {
        (FrontMatterFormat::Yaml, "---")
    } else {
        return none;
    };
    let mut lines = text_no_bom.split_inclusive('\n');
    let Some(first) = lines.next() else {
        return none;
    };
    if first.trim_end() != fence {
        return none;
    }
    let start = first.len();
    let mut offset = start;
    for line in lines {
        if line.trim_end() == fence {
            return Split {
                front: Some((format, &text_no_bom[start..offset])),
                body: &text_no_bom[offset + line.len()..],
                front_line: 2,
            };
        }
        offset += line.len();
    }
    none
}

/// Front matter that could not be read into the type wanted, at the file line it points to.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontMatterError {
    pub line: usize,
    pub message: String,
}

/// Reads a file's front matter into `T` (its default when the file has none, or an empty YAML
/// block). An error carries the file's line, not the line inside the block.
pub fn parse_front_matter<T>(split: &Split) -> Result<T, FrontMatterError>
where
    T: serde::de::DeserializeOwned + Default,
{
    match split.front {
        None => Ok(T::default()),
        Some((FrontMatterFormat::Toml, block)) => toml::from_str::<T>(block).map_err(|e| {
            let line = e
                .span()
                .map(|s| block[..s.start.min(block.len())].matches('\n').count())
                .unwrap_or(0);
            FrontMatterError {
                line: split.front_line + line,
                message: e.message().to_string(),
            }
        }),
        Some((FrontMatterFormat::Yaml, block)) => serde_saphyr::from_str::<Option<T>>(block)
            .map(Option::unwrap_or_default)
            .map_err(|e| {
                let line = e.location().map_or(0, |l| l.line() as usize);
                let message = e.without_snippet().to_string();
                // The message repeats the block-relative position; the file's is the line.
                let message = message
                    .split_once(": ")
                    .filter(|(head, _)| head.contains("line "))
                    .map_or(message.as_str(), |(_, rest)| rest);
                let message = match message.rfind(" at line ") {
                    Some(i) if message[i..].contains(", column ") => &message[..i],
                    _ => message,
                };
                FrontMatterError {
                    line: split.front_line + line.saturating_sub(1),
                    message: message.to_string(),
                }
            }),
    }
}

#[cfg(test)]
mod tests;
