//! A sequence diagram drawn as SVG: participants as boxes (repeated at the bottom) with
//! dashed lifelines, messages as arrows from top to bottom (solid for reconcile watches,
//! reads and writes, dashed for informer watches; reads muted, writes in the accent
//! colour), notes as boxes spanning the participants.
//!
//! Layout is deterministic and one pass: each participant's column is placed far enough
//! right of every earlier column it exchanges a message with for the label to fit;
//! labels longer than `MESSAGE_CHARS` are cut with `…` and the full text is the tooltip.
//! Every participant, message and note item is a link.

use super::{CHAR_WIDTH, LINE, close_link, escape, fit, open_link, open_svg, text, title};
use crate::sequence::{Diagram, Message, MessageKind, Note, Step};

const MARGIN: i64 = 12;
/// A participant box of one line; each further line adds `LINE`.
const BOX_H: i64 = 34;
const BOX_MIN: i64 = 110;
/// A participant's name longer than this is set on two lines, split at its first space
/// (`llamastackdistribution` / `controller`, `package` / `…/reconcilers/otel`), each line
/// cut at `BOX_CHARS` with `…` and the whole name as the tooltip.
const BOX_CHARS: usize = 32;
/// A message label longer than this is cut with `…` (the grouped arrows of `sequence::group`
/// list as many kinds as fit it).
pub const MESSAGE_CHARS: usize = 72;
const NOTE_CHARS: usize = 80;
const STEP: i64 = 34;

/// The lines of a participant's box.
fn box_lines(label: &str) -> Vec<String> {
    match label.split_once(' ') {
        Some((first, rest)) if label.chars().count() > BOX_CHARS => {
            vec![fit_line(first), fit_line(rest)]
        }
        _ => vec![fit_line(label)],
    }
}

/// A line cut to `BOX_CHARS`: at the end, or for a path at the start, since a path's end
/// (`…k8s-operator/controllers`) is what tells it apart.
fn fit_line(line: &str) -> String {
    let count = line.chars().count();
    if count <= BOX_CHARS || !line.contains('/') {
        return fit(line, BOX_CHARS).0;
    }
    let tail: String = line.chars().skip(count - (BOX_CHARS - 1)).collect();
    format!("…{tail}")
}

fn box_width(lines: &[String]) -> i64 {
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (widest as i64 * super::BOLD_WIDTH + 24).max(BOX_MIN)
}

fn label_width(label: &str, max: usize) -> i64 {
    let (shown, _) = fit(label, max);
    super::width(&shown)
}

/// The diagram as an `<svg>` element.
/// A tall diagram repeats the names of the lines the next messages join after this many
/// messages, so a reader far down still sees which line is which.
const NAMES_EVERY: usize = 16;

/// Whether the participants' names are repeated before the message numbered `n` (from 0).
fn names_before(n: usize) -> bool {
    n > 0 && n.is_multiple_of(NAMES_EVERY)
}

pub fn render(d: &Diagram) -> String {
    let layout = Layout::of(d);
    let mut out = String::new();
    open_svg(&mut out, "sequence", &d.title, layout.width, layout.height);
    title(&mut out, &d.title);
    participants(&mut out, d, &layout);
    let mut y = MARGIN + layout.box_h + 20;
    let mut messages = 0;
    for step in &d.steps {
        match step {
            Step::Message(m) => {
                if names_before(messages) {
                    let band =
                        &layout.ends[messages..layout.ends.len().min(messages + NAMES_EVERY)];
                    lifeline_names(&mut out, &layout, band, y);
                    y += STEP;
                }
                messages += 1;
                message(&mut out, &layout, m, y);
                y += STEP;
            }
            Step::Note(n) => y += note(&mut out, &layout, n, y) + 12,
        }
    }
    if d.steps.is_empty() {
        text(
            &mut out,
            MARGIN,
            y + 12,
            "start",
            "empty",
            "no watches or writes found",
            NOTE_CHARS,
        );
    }
    out.push_str("</svg>");
    out
}

/// Where everything of a diagram goes: the participants' boxes and columns, and the
/// drawing's size.
struct Layout {
    /// Each participant's label, cut into the lines of its box.
    lines: Vec<Vec<String>>,
    /// Each box's width.
    boxes: Vec<i64>,
    /// Every box's height: as tall as the tallest, so the lifelines start level.
    box_h: i64,
    /// Each participant's column (the middle of its box and its lifeline).
    x: Vec<i64>,
    /// Each message's two ends, in order: the names repeated before a band of messages
    /// are those of the lines its arrows join (all of them would make a diagram of many
    /// participants quadratic).
    ends: Vec<(usize, usize)>,
    /// The top of the bottom row of boxes.
    bottom_boxes: i64,
    width: i64,
    height: i64,
}

impl Layout {
    fn of(d: &Diagram) -> Layout {
        let lines: Vec<Vec<String>> = d.participants.iter().map(|p| box_lines(&p.label)).collect();
        let boxes: Vec<i64> = lines.iter().map(|l| box_width(l)).collect();
        let box_h = BOX_H + LINE * (lines.iter().map(Vec::len).max().unwrap_or(1) as i64 - 1);
        let x = columns(d, &boxes);
        let ends = d
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Message(m) => Some((m.from, m.to)),
                Step::Note(_) => None,
            })
            .collect();
        let mut layout = Layout {
            lines,
            boxes,
            box_h,
            x,
            ends,
            bottom_boxes: 0,
            width: 0,
            height: 0,
        };
        layout.size(d);
        layout
    }

    /// The heights first, so the SVG's size is known before drawing.
    fn size(&mut self, d: &Diagram) {
        let mut height = MARGIN + self.box_h + 20;
        let mut right =
            self.x.last().copied().unwrap_or(MARGIN) + self.boxes.last().copied().unwrap_or(0) / 2;
        let mut messages = 0;
        for step in &d.steps {
            match step {
                Step::Message(_) => {
                    if names_before(messages) {
                        height += STEP;
                    }
                    messages += 1;
                    height += STEP;
                }
                Step::Note(note) => {
                    height += note_height(note.items.len()) + 12;
                    right = right.max(self.note_left(note.over.0) + note_width(note) + 2);
                }
            }
        }
        if d.steps.is_empty() {
            height += STEP;
        }
        self.bottom_boxes = height + 6;
        self.height = self.bottom_boxes + self.box_h + MARGIN;
        self.width = right + MARGIN;
    }

    fn x_of(&self, i: usize) -> i64 {
        self.x.get(i).copied().unwrap_or(MARGIN)
    }

    /// A note spans its participants' boxes, from the left edge of the first to the right
    /// edge of the last (wider if its text needs it).
    fn note_left(&self, over: usize) -> i64 {
        self.x_of(over) - self.boxes.get(over).copied().unwrap_or(0) / 2
    }

    fn note_right(&self, over: usize) -> i64 {
        self.x_of(over) + self.boxes.get(over).copied().unwrap_or(0) / 2
    }
}

/// Each participant's column: right of the one before it, and far enough right for the
/// labels of the messages that reach it from the left.
fn columns(d: &Diagram, boxes: &[i64]) -> Vec<i64> {
    let n = d.participants.len();
    // The messages that end at each column, from a column left of it: their labels push
    // it right. Gathered once, so the layout is linear in participants and messages.
    let mut from_left: Vec<Vec<(usize, &str)>> = vec![Vec::new(); n];
    for step in &d.steps {
        if let Step::Message(m) = step {
            let (a, c) = (m.from.min(m.to), m.from.max(m.to));
            if a < c && c < n {
                from_left[c].push((a, &m.label));
            }
        }
    }
    let mut x: Vec<i64> = Vec::with_capacity(n);
    for b in 0..n {
        let mut at = match b {
            0 => MARGIN + boxes[0] / 2,
            _ => x[b - 1] + boxes[b - 1] / 2 + boxes[b] / 2 + 24,
        };
        for &(a, label) in &from_left[b] {
            at = at.max(x[a] + label_width(label, MESSAGE_CHARS) * 8 / 7 + 36);
        }
        x.push(at);
    }
    x
}

/// Each participant's lifeline, with its box at the top and at the bottom.
fn participants(out: &mut String, d: &Diagram, layout: &Layout) {
    let (x, box_h) = (&layout.x, layout.box_h);
    for (i, p) in d.participants.iter().enumerate() {
        out.push_str(&format!(
            "<line class=\"lifeline\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>",
            x[i],
            MARGIN + box_h,
            layout.bottom_boxes
        ));
        for top in [MARGIN, layout.bottom_boxes] {
            participant_box(
                out,
                (x[i], top),
                (layout.boxes[i], box_h),
                &p.label,
                &layout.lines[i],
                &p.link,
            );
        }
    }
}

/// The names of the lines a band of messages joins, repeated at `y`.
fn lifeline_names(out: &mut String, layout: &Layout, band: &[(usize, usize)], y: i64) {
    let mut named: Vec<usize> = band.iter().flat_map(|&(a, b)| [a, b]).collect();
    named.sort_unstable();
    named.dedup();
    for i in named.into_iter().filter(|&i| i < layout.x.len()) {
        let name = layout.lines[i].join(" ");
        out.push_str(&format!(
            "<text class=\"label lifeline-name\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            layout.x[i],
            y + 8,
            escape(&name)
        ));
    }
}

/// A message's arrow and label at `y`, linked to its source.
fn message(out: &mut String, layout: &Layout, m: &Message, y: i64) {
    let class = match m.kind {
        _ if m.dashed() => "msg informer",
        MessageKind::Write => "msg write",
        MessageKind::Read => "msg read",
        _ => "msg watch",
    };
    let (x1, x2) = (layout.x_of(m.from), layout.x_of(m.to));
    let line_y = y + 12;
    let opened = open_link(out, &m.link);
    out.push_str(&format!("<g class=\"{class}\">"));
    title(out, &tooltip(m));
    let dir = if x2 >= x1 { 1 } else { -1 };
    out.push_str(&format!(
        "<line class=\"arrow\" x1=\"{x1}\" y1=\"{line_y}\" x2=\"{}\" y2=\"{line_y}\"/>",
        x2 - dir * 8
    ));
    out.push_str(&format!(
        "<polygon class=\"head\" points=\"{x2},{line_y} {},{} {},{}\"/>",
        x2 - dir * 9,
        line_y - 4,
        x2 - dir * 9,
        line_y + 4
    ));
    let (shown, _) = fit(&m.label, MESSAGE_CHARS);
    out.push_str(&format!(
        "<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
        x1.min(x2) + 10,
        y + 4,
        escape(&shown)
    ));
    out.push_str("</g>");
    close_link(out, opened);
}

/// A note at `y`: its heading and linked items in a box over its participants. Returns
/// its height.
fn note(out: &mut String, layout: &Layout, note: &Note, y: i64) -> i64 {
    let left = layout.note_left(note.over.0);
    let w = note_width(note).max(layout.note_right(note.over.1) - left);
    let h = note_height(note.items.len());
    out.push_str(&format!(
        "<g class=\"note\"><rect x=\"{left}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"3\"/>"
    ));
    text(
        out,
        left + 10,
        y + LINE,
        "start",
        "heading",
        &note.heading,
        NOTE_CHARS,
    );
    for (i, item) in note.items.iter().enumerate() {
        let opened = open_link(out, &item.link);
        text(
            out,
            left + 18,
            y + LINE * (i as i64 + 2),
            "start",
            "item",
            &item.text,
            NOTE_CHARS,
        );
        close_link(out, opened);
    }
    out.push_str("</g>");
    h
}

/// A message's tooltip: every kind of a grouped arrow, else its label and source.
fn tooltip(m: &Message) -> String {
    match &m.group {
        Some(group) => group.title(),
        None if m.source.is_empty() => m.label.clone(),
        None => format!("{} ({})", m.label, m.source),
    }
}

fn note_height(items: usize) -> i64 {
    LINE * (items as i64 + 1) + 10
}

fn note_width(note: &Note) -> i64 {
    let widest = note
        .items
        .iter()
        .map(|i| label_width(&i.text, NOTE_CHARS) + 8)
        .chain([label_width(&note.heading, NOTE_CHARS)])
        .max()
        .unwrap_or(0);
    widest + 2 * CHAR_WIDTH + 20
}

/// A participant's box centred at `cx`, its lines centred in it; the full name is the
/// tooltip when a line was cut or the name was split.
fn participant_box(
    out: &mut String,
    (cx, top): (i64, i64),
    (w, h): (i64, i64),
    label: &str,
    lines: &[String],
    link: &str,
) {
    let opened = open_link(out, link);
    out.push_str(&format!(
        "<g class=\"participant\"><rect x=\"{}\" y=\"{top}\" width=\"{w}\" height=\"{h}\" rx=\"4\"/>",
        cx - w / 2
    ));
    if lines.len() > 1 || lines.first().is_some_and(|l| l != label) {
        title(out, label);
    }
    let first = top + h / 2 + 5 - LINE * (lines.len() as i64 - 1) / 2;
    for (i, line) in lines.iter().enumerate() {
        out.push_str(&format!(
            "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" class=\"name\">{}</text>",
            first + LINE * i as i64,
            escape(line)
        ));
    }
    out.push_str("</g>");
    close_link(out, opened);
}

#[cfg(test)]
mod tests;
