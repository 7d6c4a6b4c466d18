//! "On this page": a table of contents read off a rendered page's own headings.
//!
//! Templates give every section heading an id; rather than have each view list its
//! sections a second time, the headings of `<main>` (`<h2>` and `<h3>` with an id) are
//! read from the rendered page and the list replaces `PLACEHOLDER` in the sidebar. The
//! HTML read is portolan's own output, where every repository text is already escaped,
//! so a heading's text is copied as it is, without its tags.

/// Where the sidebar wants the table of contents.
pub const PLACEHOLDER: &str = "<!--portolan:toc-->";

/// The most `<h3>` entries listed; past this a page lists its `<h2>` sections only, so
/// that the sidebar stays small on pages of hundreds of subsections.
const MAX_SUBSECTIONS: usize = 150;

struct Heading<'a> {
    level: u8,
    id: &'a str,
    text: String,
}

/// The page with its table of contents in place of `PLACEHOLDER` (removed when the page
/// has fewer than two headings).
pub fn fill(html: String) -> String {
    let Some(at) = html.find(PLACEHOLDER) else {
        return html;
    };
    let toc = match main_of(&html) {
        Some(main) => render(&headings(main)),
        None => String::new(),
    };
    let mut out = String::with_capacity(html.len() + toc.len());
    out.push_str(&html[..at]);
    out.push_str(&toc);
    out.push_str(&html[at + PLACEHOLDER.len()..]);
    out
}

fn main_of(html: &str) -> Option<&str> {
    let start = html.find("<main")?;
    let end = html[start..].find("</main>")? + start;
    Some(&html[start..end])
}

fn headings(main: &str) -> Vec<Heading<'_>> {
    let mut out = Vec::new();
    let mut rest = main;
    while let Some(at) = rest.find("<h") {
        let tag = &rest[at..];
        let level = match tag.as_bytes().get(2) {
            Some(b'2') => 2,
            Some(b'3') => 3,
            _ => {
                rest = &rest[at + 2..];
                continue;
            }
        };
        let close = if level == 2 { "</h2>" } else { "</h3>" };
        let (Some(open_end), Some(end)) = (tag.find('>'), tag.find(close)) else {
            break;
        };
        let attrs = &tag[3..open_end];
        if let Some(id) = attr(attrs, "id").filter(|_| open_end < end) {
            let text = text_of(&tag[open_end + 1..end]);
            if !text.is_empty() {
                out.push(Heading { level, id, text });
            }
        }
        rest = &tag[end + close.len()..];
    }
    if out.iter().filter(|h| h.level == 3).count() > MAX_SUBSECTIONS {
        out.retain(|h| h.level == 2);
    }
    out
}

/// `name="value"` in a tag's attributes (portolan writes them double-quoted).
fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = attrs.find(&key)? + key.len();
    let len = attrs[start..].find('"')?;
    Some(&attrs[start..start + len])
}

/// A heading's text: its tags dropped, and the permalink (`¶`) and `<small>` notes with
/// them; whitespace squeezed.
fn text_of(inner: &str) -> String {
    let mut text = String::new();
    let mut rest = inner;
    while !rest.is_empty() {
        if let Some(skipped) = ["<small", "<a class=\"permalink\""]
            .iter()
            .find(|open| rest.starts_with(**open))
        {
            let close = if *skipped == "<small" {
                "</small>"
            } else {
                "</a>"
            };
            match rest.find(close) {
                Some(end) => rest = &rest[end + close.len()..],
                None => break,
            }
        } else if rest.starts_with('<') {
            match rest.find('>') {
                Some(end) => rest = &rest[end + 1..],
                None => break,
            }
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            text.push_str(&rest[..end]);
            rest = &rest[end..];
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn render(headings: &[Heading<'_>]) -> String {
    if headings.len() < 2 {
        return String::new();
    }
    let mut out = String::from(
        "<nav class=\"toc\" aria-label=\"On this page\"><p class=\"toc-title\">On this page</p><ul>",
    );
    let mut in_sub = false;
    let mut open_item = false;
    for h in headings {
        match (h.level, in_sub) {
            (3, false) if open_item => {
                out.push_str("<ul>");
                in_sub = true;
            }
            (2, true) => {
                out.push_str("</li></ul></li>");
                in_sub = false;
            }
            (_, _) if open_item => out.push_str("</li>"),
            _ => {}
        }
        out.push_str(&format!(
            "<li class=\"toc-h{}\"><a href=\"#{}\">{}</a>",
            h.level, h.id, h.text
        ));
        open_item = true;
    }
    if in_sub {
        out.push_str("</li></ul>");
    }
    if open_item {
        out.push_str("</li>");
    }
    out.push_str("</ul></nav>");
    out
}

#[cfg(test)]
mod tests;
