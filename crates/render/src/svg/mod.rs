//! SVG drawn by portolan at build time, so diagrams show with no JavaScript: sequence
//! diagrams (`sequence`), layered left-to-right graphs (`graph`) and horizontal bar charts
//! (`bars`) share the escaping,
//! text measuring and linking of this module.
//!
//! **Invariant:** every text and attribute value written into an SVG goes through
//! `escape`, and a link is written only for a site path (`/…`), an in-page anchor (`#…`)
//! or an `http(s)` URL, so repository text can neither add markup nor a `javascript:` URL.
//! This is what lets templates insert the SVG with tera's `safe` filter. Colours come from
//! CSS classes and `currentColor`, so the drawing follows the page's light or dark theme.

pub mod bars;
pub mod graph;
pub mod sequence;

/// An average glyph width at the diagrams' 13 px font: labels are measured by characters,
/// because the browser's font is unknown at build time.
pub const CHAR_WIDTH: i64 = 7;
/// The same for the bold names of boxes and nodes.
pub const BOLD_WIDTH: i64 = 8;
/// Line height of the diagrams' text.
pub const LINE: i64 = 18;

/// Text made inert for XML: element content and attribute values alike.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match entity(c) {
            Some(e) => out.push_str(e),
            // Control characters are not allowed in XML 1.0.
            None if c.is_control() => out.push(' '),
            None => out.push(c),
        }
    }
    out
}

/// The entity for a character that is markup in HTML and XML text and attribute values.
pub fn entity(c: char) -> Option<&'static str> {
    match c {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        _ => None,
    }
}

/// The estimated width of `s` in pixels.
pub fn width(s: &str) -> i64 {
    s.chars().count() as i64 * CHAR_WIDTH
}

/// `s` cut to at most `max` characters with `…` when longer; the flag says it was cut (the
/// caller then adds the full text as a `<title>` tooltip).
pub fn fit(s: &str, max: usize) -> (String, bool) {
    if s.chars().count() <= max {
        return (s.to_string(), false);
    }
    let cut: String = s.chars().take(max.saturating_sub(1)).collect();
    (format!("{}…", cut.trim_end()), true)
}

/// A link target safe for an `href`: site paths, anchors and http(s) URLs only.
pub fn safe_href(url: &str) -> Option<&str> {
    let ok = (url.starts_with('/') && !url.starts_with("//"))
        || url.starts_with('#')
        || url.starts_with("https://")
        || url.starts_with("http://");
    ok.then_some(url)
}

/// Opens a link around what follows when `url` is safe; returns whether it did, so the
/// caller closes it with `close_link`. The link is a plain SVG 2 `href` attribute (no
/// xlink namespace), so `portolan check` and the browser test read it like any other link.
pub fn open_link(out: &mut String, url: &str) -> bool {
    match safe_href(url) {
        Some(url) => {
            out.push_str(&format!("<a href=\"{}\">", escape(url)));
            true
        }
        None => false,
    }
}

pub fn close_link(out: &mut String, opened: bool) {
    if opened {
        out.push_str("</a>");
    }
}

/// A `<title>` tooltip (shown on hover; read by screen readers as the element's name).
pub fn title(out: &mut String, text: &str) {
    out.push_str(&format!("<title>{}</title>", escape(text)));
}

/// The opening tag of a diagram: sized in pixels, scaled down on narrow screens by CSS.
pub fn open_svg(out: &mut String, class: &str, label: &str, w: i64, h: i64) {
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"diagram {class}\" role=\"group\" aria-label=\"{}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-size=\"13\">",
        escape(label)
    ));
}

/// One line of text, truncated to `max` characters with the full text as a tooltip.
pub fn text(out: &mut String, x: i64, y: i64, anchor: &str, class: &str, s: &str, max: usize) {
    let (shown, cut) = fit(s, max);
    out.push_str(&format!(
        "<text x=\"{x}\" y=\"{y}\" text-anchor=\"{anchor}\" class=\"{class}\">"
    ));
    if cut {
        title(out, s);
    }
    out.push_str(&escape(&shown));
    out.push_str("</text>");
}

#[cfg(test)]
mod tests;
