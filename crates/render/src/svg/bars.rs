//! A horizontal bar chart drawn as SVG: one bar per value, its label on the line above
//! the bar (so a long label never overlaps a bar, however narrow the screen) and the
//! number after the bar's end, in groups with a heading each (a project).
//!
//! The drawing has a fixed coordinate system (`viewBox`) and no fixed size: the stylesheet
//! sets its width to the column's, so it scales down on a phone. To assistive technology
//! it is a group (`role="group"`, named by its `<title>` and described by its `<desc>`),
//! not an image: its bars may be links, and an image's content is not reachable
//! (axe-core's nested-interactive). The page shows the same numbers in a table. Colours
//! come from CSS classes.

use super::{CHAR_WIDTH, close_link, escape, fit, open_link, title};

/// One bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The heading of the group the bar belongs to (shown when it changes), or empty.
    pub group: String,
    pub label: String,
    pub value: u64,
    /// Where the bar links (a table row, a page), or empty.
    pub link: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    /// Unique on the page: the title's and description's ids derive from it.
    pub id: String,
    pub title: String,
    pub description: String,
    pub bars: Vec<Bar>,
}

/// The drawing's width in its own units.
pub const WIDTH: i64 = 360;
const MARGIN: i64 = 8;
/// Room after the longest bar for its number.
const VALUE_ROOM: i64 = 56;
const LABEL: i64 = 16;
const BAR: i64 = 14;
const GAP: i64 = 8;
const HEADING: i64 = 22;

/// The SVG of a chart.
pub fn render(c: &BarChart) -> String {
    let max = c.bars.iter().map(|b| b.value).max().unwrap_or(0).max(1);
    let span = WIDTH - 2 * MARGIN - VALUE_ROOM;
    let chars = ((WIDTH - 2 * MARGIN) / CHAR_WIDTH) as usize;
    let mut body = String::new();
    let mut y = MARGIN;
    let mut group: Option<&str> = None;
    for b in &c.bars {
        if !b.group.is_empty() && group != Some(b.group.as_str()) {
            let (shown, _) = fit(&b.group, chars);
            body.push_str(&format!(
                "<text x=\"{MARGIN}\" y=\"{}\" class=\"heading\">{}</text>",
                y + 15,
                escape(&shown)
            ));
            y += HEADING;
        }
        group = Some(b.group.as_str());
        let length = (b.value as i128 * span as i128 / max as i128) as i64;
        let opened = open_link(&mut body, &b.link);
        body.push_str("<g class=\"bar-row\">");
        title(&mut body, &format!("{}: {}", b.label, b.value));
        let (shown, _) = fit(&b.label, chars);
        body.push_str(&format!(
            "<text x=\"{MARGIN}\" y=\"{}\">{}</text>",
            y + 12,
            escape(&shown)
        ));
        let bar_y = y + LABEL;
        body.push_str(&format!(
            "<rect class=\"bar\" x=\"{MARGIN}\" y=\"{bar_y}\" width=\"{length}\" height=\"{BAR}\"/>"
        ));
        body.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" class=\"value\">{}</text>",
            MARGIN + length + 6,
            bar_y + 11,
            b.value
        ));
        body.push_str("</g>");
        close_link(&mut body, opened);
        y = bar_y + BAR + GAP;
    }
    let height = y + MARGIN - GAP;
    let id = escape(&c.id);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"group\" aria-labelledby=\"{id}-title {id}-desc\" viewBox=\"0 0 {WIDTH} {height}\" font-size=\"13\"><title id=\"{id}-title\">{}</title><desc id=\"{id}-desc\">{}</desc>{body}</svg>",
        escape(&c.title),
        escape(&c.description)
    )
}

#[cfg(test)]
mod tests;
