//! A layered left-to-right graph drawn as SVG: the cross-project graph, a project's
//! service map and its RBAC graph. Each node names its layer (column); within a column
//! nodes keep their given order, then one barycenter pass moves each node next to its
//! predecessors, which removes most crossings and stays deterministic. Edges are curves
//! from a node's right side to the next node's left side.
//!
//! Every node heading and item is a link; labels longer than a column's width are cut
//! with `…` and the full text is the tooltip.

use std::collections::HashMap;

use super::{BOLD_WIDTH, CHAR_WIDTH, LINE, close_link, escape, open_link, open_svg, text, title};

#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    /// The accessible name of the drawing.
    pub title: String,
    /// A heading per column, or empty.
    pub columns: Vec<String>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Unique within the graph; edges refer to it.
    pub id: String,
    pub layer: usize,
    /// A CSS class for the node's kind (`project`, `kinds`, `workload`, …).
    pub class: String,
    pub label: String,
    pub link: String,
    /// A muted second line (a kind, a namespace), or empty.
    pub sub: String,
    /// Lines listed inside the node, each with its own link.
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub text: String,
    pub link: String,
    /// The tooltip, when it says more than the text.
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub from: String,
    pub to: String,
    /// The tooltip of the edge.
    pub label: String,
}

const MARGIN: i64 = 12;
const GAP_X: i64 = 64;
const GAP_Y: i64 = 14;
const HEAD: i64 = 26;
const MIN_W: i64 = 120;
const MAX_CHARS: usize = 44;

fn node_height(n: &Node) -> i64 {
    let lines = 1 + i64::from(!n.sub.is_empty()) + n.items.len() as i64;
    lines * LINE + 14
}

fn node_width(n: &Node) -> i64 {
    let name = n.label.chars().count().min(MAX_CHARS) as i64 * BOLD_WIDTH;
    let chars = std::iter::once(n.sub.chars().count())
        .chain(n.items.iter().map(|i| i.text.chars().count() + 2))
        .max()
        .unwrap_or(0)
        .min(MAX_CHARS) as i64;
    ((chars * CHAR_WIDTH).max(name) + 20).max(MIN_W)
}

/// A node's box: `(x, y, width, height)`.
type Rect = (i64, i64, i64, i64);

/// The index of the first node with each id.
fn node_index(g: &Graph) -> HashMap<&str, usize> {
    let mut index = HashMap::with_capacity(g.nodes.len());
    for (i, n) in g.nodes.iter().enumerate() {
        index.entry(n.id.as_str()).or_insert(i);
    }
    index
}

/// Node boxes by node index, and the drawing's width and height.
fn layout(g: &Graph) -> (Vec<Rect>, i64, i64) {
    let layers = g.nodes.iter().map(|n| n.layer + 1).max().unwrap_or(0);
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for (i, n) in g.nodes.iter().enumerate() {
        order[n.layer].push(i);
    }
    let index = node_index(g);
    // Each node's predecessors (by node id, in the order of the edges), found once: the
    // graph may have thousands of nodes and edges.
    let mut preds_of: HashMap<&str, Vec<usize>> = HashMap::new();
    for e in &g.edges {
        if let Some(&p) = index.get(e.from.as_str()) {
            preds_of.entry(e.to.as_str()).or_default().push(p);
        }
    }
    // Barycenter pass: a node's rank is the mean position of its predecessors.
    let mut rank = vec![0.0f64; g.nodes.len()];
    for column in order.iter_mut() {
        let ranked: Vec<(usize, Option<f64>)> = column
            .iter()
            .map(|&i| {
                let preds: Vec<f64> = preds_of
                    .get(g.nodes[i].id.as_str())
                    .into_iter()
                    .flatten()
                    .filter(|&&p| g.nodes[p].layer < g.nodes[i].layer)
                    .map(|&p| rank[p])
                    .collect();
                let mean =
                    (!preds.is_empty()).then(|| preds.iter().sum::<f64>() / preds.len() as f64);
                (i, mean)
            })
            .collect();
        let mut sorted = ranked.clone();
        // Nodes without predecessors keep their place relative to each other, after the rest.
        sorted.sort_by(|a, b| match (a.1, b.1) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
        *column = sorted.into_iter().map(|(i, _)| i).collect();
        for (pos, &i) in column.iter().enumerate() {
            rank[i] = pos as f64;
        }
    }
    let top = MARGIN + if g.columns.is_empty() { 0 } else { HEAD };
    let mut boxes = vec![(0, 0, 0, 0); g.nodes.len()];
    let mut x = MARGIN;
    let mut bottom = top;
    for column in &order {
        let w = column
            .iter()
            .map(|&i| node_width(&g.nodes[i]))
            .max()
            .unwrap_or(MIN_W);
        let mut y = top;
        for &i in column {
            let h = node_height(&g.nodes[i]);
            boxes[i] = (x, y, w, h);
            y += h + GAP_Y;
        }
        bottom = bottom.max(y);
        x += w + GAP_X;
    }
    (boxes, x - GAP_X + MARGIN, bottom + MARGIN)
}

/// The graph as an `<svg>` element. A node whose id repeats an earlier one (the same
/// object shipped in two files) is drawn once.
pub fn render(g: &Graph) -> String {
    let mut seen = std::collections::BTreeSet::new();
    let unique = Graph {
        nodes: g
            .nodes
            .iter()
            .filter(|n| seen.insert(n.id.as_str()))
            .cloned()
            .collect(),
        ..g.clone()
    };
    let g = &unique;
    let (boxes, width, height) = layout(g);
    let mut out = String::new();
    open_svg(&mut out, "graph", &g.title, width.max(MIN_W), height);
    title(&mut out, &g.title);
    // Column headings over the first node of each column.
    for (layer, heading) in g.columns.iter().enumerate() {
        if let Some((i, _)) = g.nodes.iter().enumerate().find(|(_, n)| n.layer == layer) {
            let (x, _, _, _) = boxes[i];
            text(
                &mut out,
                x,
                MARGIN + 14,
                "start",
                "column",
                heading,
                MAX_CHARS,
            );
        }
    }
    let index = node_index(g);
    for e in &g.edges {
        let (Some(&a), Some(&b)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) else {
            continue;
        };
        edge(&mut out, e, boxes[a], boxes[b]);
    }
    for (i, n) in g.nodes.iter().enumerate() {
        node(&mut out, n, boxes[i]);
    }
    out.push_str("</svg>");
    out
}

/// An edge's curve with its arrowhead, from the right of `from` to the left of `to`.
fn edge(out: &mut String, e: &Edge, from: Rect, to: Rect) {
    let (ax, ay, aw, ah) = from;
    let (bx, by, _, bh) = to;
    let (x1, y1) = (ax + aw, ay + ah / 2);
    let (x2, y2) = (bx, by + bh / 2);
    let bend = ((x2 - x1).abs() / 2).max(30);
    out.push_str("<g class=\"edge\">");
    title(out, &e.label);
    out.push_str(&format!(
        "<path d=\"M{x1},{y1} C{},{y1} {},{y2} {},{y2}\"/>",
        x1 + bend,
        x2 - bend,
        x2 - 8
    ));
    out.push_str(&format!(
        "<polygon class=\"head\" points=\"{x2},{y2} {},{} {},{}\"/></g>",
        x2 - 9,
        y2 - 4,
        x2 - 9,
        y2 + 4
    ));
}

/// A node's box: its linked name, its subtitle and its items.
fn node(out: &mut String, n: &Node, (x, y, w, h): Rect) {
    out.push_str(&format!(
        "<g class=\"node {}\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"4\"/>",
        escape(&n.class)
    ));
    let chars = ((w - 20) / CHAR_WIDTH).max(4) as usize;
    let opened = open_link(out, &n.link);
    text(out, x + 10, y + LINE + 2, "start", "name", &n.label, chars);
    close_link(out, opened);
    let mut line = 1;
    if !n.sub.is_empty() {
        line += 1;
        text(
            out,
            x + 10,
            y + LINE * line + 2,
            "start",
            "sub",
            &n.sub,
            chars,
        );
    }
    for item in &n.items {
        line += 1;
        let opened = open_link(out, &item.link);
        let ty = y + LINE * line + 2;
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{ty}\" class=\"item\">",
            x + 16
        ));
        let (shown, cut) = super::fit(&item.text, chars.saturating_sub(1));
        let tip = if !item.detail.is_empty() && item.detail != item.text {
            format!("{}: {}", item.text, item.detail)
        } else if cut {
            item.text.clone()
        } else {
            String::new()
        };
        if !tip.is_empty() {
            title(out, &tip);
        }
        out.push_str(&escape(&shown));
        out.push_str("</text>");
        close_link(out, opened);
    }
    out.push_str("</g>");
}

#[cfg(test)]
mod tests;
