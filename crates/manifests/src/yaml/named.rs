//! Named templates of a Helm chart: `{{ define "name" }} … {{ end }}` blocks (in
//! `_helpers.tpl` or any template of the chart), and their expansion where a template
//! includes one, so that what a define holds (a Role's rules, a Deployment's containers)
//! is read as part of the object.
//!
//! Expansion is textual, as Helm renders it: `{{ include "x" . | nindent N }}` (or
//! `indent N`, `trim`) and `{{ template "x" . }}` are replaced by the define's body with
//! the pipeline's indentation applied, and the `{{-`/`-}}` markers trim whitespace as they
//! do in Helm. Only an action that stands alone on its line is expanded: an include inside
//! a value (`name: {{ include "x.fullname" . }}`) keeps its template text, which reads
//! better than the define's own actions. The define's argument is not evaluated; the
//! body's actions stay and are masked like any other (`template`).
//!
//! Expansion is bounded: defines nest at most `MAX_DEPTH` deep, a define that includes
//! itself (directly or not) is reported and left alone, and the expanded text of one file
//! stops growing at `MAX_EXPANDED` bytes. Every line of the expanded text knows the line
//! of the original file it comes from (an included line: the include's line), so rows
//! read from the expansion point into the file as written.

use std::collections::BTreeMap;

use super::helm_render;
use kubernetes::helm::action_spans;

/// How deep defines may include defines.
const MAX_DEPTH: usize = 8;
/// The most bytes the expanded text of one file, or one define, may have.
const MAX_EXPANDED: usize = 2 * 1024 * 1024;
/// The most bytes all expanded defines of one chart may have together.
const MAX_LIBRARY: usize = 8 * 1024 * 1024;

/// One `define` (or `block`) of a template file.
#[derive(Debug, Clone, PartialEq)]
pub struct Define {
    pub name: String,
    /// The body as Helm renders it: whitespace trimmed where the markers say so.
    pub body: String,
    pub line: u32,
}

/// An action's words: the `{{`/`}}` and trim markers removed, with the trims noted.
struct Action<'a> {
    words: &'a str,
    trim_left: bool,
    trim_right: bool,
}

fn action(raw: &str) -> Option<Action<'_>> {
    let inner = raw.strip_prefix("{{")?.strip_suffix("}}")?;
    let (inner, trim_left) = match inner.strip_prefix('-') {
        Some(rest) if rest.starts_with(char::is_whitespace) => (rest, true),
        _ => (inner, false),
    };
    let (inner, trim_right) = match inner.strip_suffix('-') {
        Some(rest) if rest.ends_with(char::is_whitespace) => (rest, true),
        _ => (inner, false),
    };
    Some(Action {
        words: inner.trim(),
        trim_left,
        trim_right,
    })
}

/// The first word of an action and the rest.
fn keyword(words: &str) -> (&str, &str) {
    match words.split_once(char::is_whitespace) {
        Some((k, rest)) => (k, rest.trim_start()),
        None => (words, ""),
    }
}

/// A Go string literal at the start of `s` (`"…"` with simple escapes, or a backquoted
/// raw string) and what follows it.
fn string_literal(s: &str) -> Option<(String, &str)> {
    if let Some(rest) = s.strip_prefix('`') {
        let end = rest.find('`')?;
        return Some((rest[..end].to_string(), &rest[end + 1..]));
    }
    let rest = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &rest[i + 1..])),
            '\\' => out.push(chars.next()?.1),
            c => out.push(c),
        }
    }
    None
}

/// The 1-based line of each byte offset's line start, for `line_at`.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

fn line_at(starts: &[usize], at: usize) -> u32 {
    starts.partition_point(|&s| s <= at) as u32
}

/// The defines of one template file. Nested `if`/`range`/`with` blocks are counted so each
/// define ends at its own `end`; a define left open is not listed.
pub fn defines(text: &str) -> Vec<Define> {
    let starts = line_starts(text);
    let mut out = Vec::new();
    // (name, line, where the body starts, whether the body's leading space is trimmed)
    let mut open: Option<(String, u32, usize, bool)> = None;
    let mut depth = 0usize;
    for (s, e) in action_spans(text) {
        let Some(a) = action(&text[s..e]) else {
            continue;
        };
        let (word, rest) = keyword(a.words);
        match word {
            "define" | "block" => {
                if open.is_none()
                    && let Some((name, _)) = string_literal(rest)
                {
                    open = Some((name, line_at(&starts, s), e, a.trim_right));
                    depth = 0;
                    continue;
                }
                depth += 1;
            }
            "if" | "range" | "with" => depth += 1,
            "end" => {
                if depth > 0 {
                    depth -= 1;
                } else if let Some((name, line, from, trim_start)) = open.take() {
                    let mut body = &text[from..s];
                    if trim_start {
                        body = body.trim_start();
                    }
                    if a.trim_left {
                        body = body.trim_end();
                    }
                    out.push(Define {
                        name,
                        body: body.to_string(),
                        line,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// An include to expand: the define's name and the pipeline after it.
struct Include<'a> {
    name: String,
    /// The argument as written (`.`, `$`, `(dict …)`).
    arg: &'a str,
    stages: Vec<&'a str>,
}

/// `include "name" ARG | stage | …` or `template "name" ARG`; `None` for anything else.
fn include_of(words: &str) -> Option<Include<'_>> {
    let (word, rest) = keyword(words);
    if word != "include" && word != "template" {
        return None;
    }
    let (name, rest) = string_literal(rest)?;
    // The argument runs to the first `|` outside parentheses and quotes.
    let mut depth = 0i32;
    let mut quote = None;
    let mut cut = rest.len();
    for (i, c) in rest.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '`') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => depth -= 1,
            (None, '|') if depth == 0 => {
                cut = i;
                break;
            }
            _ => {}
        }
    }
    let stages: Vec<&str> = rest[cut..]
        .split('|')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if word == "template" && !stages.is_empty() {
        return None;
    }
    Some(Include {
        name,
        arg: rest[..cut].trim(),
        stages,
    })
}

/// The body with the pipeline applied, or `None` when a stage is not one we apply.
fn render(body: &str, stages: &[&str]) -> Option<String> {
    let mut s = body.to_string();
    for stage in stages {
        let (f, arg) = keyword(stage);
        match (f, arg.parse::<usize>()) {
            ("indent", Ok(n)) if n <= 256 => s = indent(&s, n),
            ("nindent", Ok(n)) if n <= 256 => s = format!("\n{}", indent(&s, n)),
            ("trim", _) if arg.is_empty() => s = s.trim().to_string(),
            _ => return None,
        }
    }
    Some(s)
}

/// Sprig's `indent`: every line, the first included, gets `n` spaces.
fn indent(s: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    format!("{pad}{}", s.replace('\n', &format!("\n{pad}")))
}

/// A file's text with its includes expanded.
#[derive(Debug, PartialEq)]
pub struct Expanded {
    pub text: String,
    /// For each line of `text`, the 1-based line of the original file it comes from.
    pub lines: Vec<u32>,
    /// (line, message) of includes that were not expanded for a reason worth saying.
    pub diagnostics: Vec<(u32, String)>,
}

impl Expanded {
    /// The original line of a 1-based line of the expanded text.
    pub fn original_line(&self, line: u32) -> u32 {
        match line.checked_sub(1) {
            Some(i) => self.lines.get(i as usize).copied().unwrap_or(line),
            None => line,
        }
    }
}

/// The defines of one chart with their includes expanded: name → the body as Helm renders
/// it (before the includer's pipeline), or why it is not expanded.
#[derive(Debug, Default)]
pub struct Library {
    bodies: BTreeMap<String, Result<String, String>>,
    /// The bodies with the actions `helm_render` can render marked (as if included with
    /// the chart's root context), for an include at the root context with `.` or `$`.
    /// Their own includes are expanded as in `bodies`, unrendered.
    rendered: BTreeMap<String, String>,
    /// The rendered actions the marks of `rendered` index.
    pub table: Vec<helm_render::Rendered>,
}

impl Library {
    /// Expands, level by level, the defines visible from one chart (`visible`). A define
    /// is expanded once every define it includes is; what is left after `MAX_DEPTH`
    /// levels includes itself or nests too deep. All bodies together stay under
    /// `MAX_LIBRARY` bytes.
    #[cfg(test)]
    pub fn new(visible: &BTreeMap<&str, Result<&Define, String>>) -> Library {
        Library::with_chart(visible, None)
    }

    /// As `new`, and with `chart`, the bodies rendered with its defaults too (`rendered`).
    pub fn with_chart(
        visible: &BTreeMap<&str, Result<&Define, String>>,
        chart: Option<&helm_render::Chart>,
    ) -> Library {
        let mut bodies: BTreeMap<String, Result<String, String>> = BTreeMap::new();
        let mut pending: Vec<&Define> = Vec::new();
        for (name, d) in visible {
            match d {
                Ok(d) => pending.push(d),
                Err(why) => {
                    bodies.insert(name.to_string(), Err(why.clone()));
                }
            }
        }
        let mut total = 0usize;
        for _ in 0..=MAX_DEPTH {
            let mut done = Vec::new();
            for (i, d) in pending.iter().enumerate() {
                // Ready when every include of a define we have is already expanded.
                let ready = includes(&d.body)
                    .iter()
                    .all(|n| !visible.contains_key(n.as_str()) || bodies.contains_key(n));
                if !ready {
                    continue;
                }
                let rendered = without_silent_actions(&d.body);
                let expanded = expand_level(&rendered, &bodies, None, MAX_EXPANDED);
                let body = match expanded {
                    Some(e) if e.over_budget.is_some() => Err(format!(
                        "named template `{}` expands past {} KiB: not expanded",
                        d.name,
                        MAX_EXPANDED / 1024
                    )),
                    // An include inside it that cannot be expanded: so is this define.
                    Some(e) if !e.diagnostics.is_empty() => Err(format!(
                        "named template `{}` not expanded: {}",
                        d.name, e.diagnostics[0].1
                    )),
                    Some(e) => Ok(e.text),
                    None => Ok(rendered),
                };
                if let Ok(b) = &body {
                    total += b.len();
                }
                let body = if total > MAX_LIBRARY {
                    Err(format!(
                        "the named templates of this chart expand past {} KiB together: `{}` is not expanded",
                        MAX_LIBRARY / 1024,
                        d.name
                    ))
                } else {
                    body
                };
                bodies.insert(d.name.clone(), body);
                done.push(i);
            }
            for i in done.into_iter().rev() {
                pending.swap_remove(i);
            }
            if pending.is_empty() {
                break;
            }
        }
        for d in pending {
            bodies.insert(
                d.name.clone(),
                Err(format!(
                    "named template `{}` includes itself or nests deeper than {MAX_DEPTH} levels: not expanded",
                    d.name
                )),
            );
        }
        let mut rendered = BTreeMap::new();
        let mut table = Vec::new();
        let marked_input = visible
            .values()
            .any(|d| d.as_ref().is_ok_and(|d| helm_render::has_marks(&d.body)));
        if let Some(chart) = chart.filter(|_| !marked_input) {
            let mut total = 0usize;
            for d in visible.values().filter_map(|d| d.as_ref().ok()) {
                if !matches!(bodies.get(&d.name), Some(Ok(_))) {
                    continue;
                }
                let before = table.len();
                let marked = helm_render::mark(&d.body, chart, &mut table);
                if table.len() == before {
                    continue;
                }
                let text = without_silent_actions(&marked);
                let body = match expand_level(&text, &bodies, None, MAX_EXPANDED) {
                    None => text,
                    Some(e) if e.over_budget.is_none() && e.diagnostics.is_empty() => e.text,
                    Some(_) => continue,
                };
                total += body.len();
                if total > MAX_LIBRARY {
                    break;
                }
                rendered.insert(d.name.clone(), body);
            }
        }
        Library {
            bodies,
            rendered,
            table,
        }
    }

    /// Expands the includes of one template file (see the module documentation). `None`
    /// when nothing was expanded and nothing is worth saying.
    #[cfg(test)]
    pub fn expand(&self, text: &str) -> Option<Expanded> {
        self.expand_with(text, false)
    }

    /// As `expand`; with `rendered`, an include at the root context with `.` or `$` gets
    /// the body with its actions rendered (`Library::rendered`).
    pub fn expand_with(&self, text: &str, rendered: bool) -> Option<Expanded> {
        let e = expand_level(
            text,
            &self.bodies,
            rendered.then_some(&self.rendered),
            MAX_EXPANDED,
        )?;
        let mut diagnostics = e.diagnostics;
        if let Some(line) = e.over_budget {
            diagnostics.push((
                line,
                format!(
                    "named templates expand past {} KiB in this file: later includes are not expanded",
                    MAX_EXPANDED / 1024
                ),
            ));
        }
        if !e.changed && diagnostics.is_empty() {
            return None;
        }
        Some(Expanded {
            text: e.text,
            lines: e.lines,
            diagnostics,
        })
    }
}

/// A define's body with the whitespace Helm leaves around actions that print nothing
/// (`if`, `range`, `with`, `end`, variable assignments, comments): they are dropped and
/// their `{{-`/`-}}` trim as in Helm, so an include of the body lines up as Helm renders
/// it (the body is spliced into the includer, where its first line may join the line
/// before). All branches are kept; an `else` alone on its line leaves a line break that
/// no trim removes, so two branches never share a line. Actions that print stay as
/// written, trim markers included, to be expanded (an include) or masked like any other:
/// their output (`toYaml … | nindent 2`) would supply the line break a trim removes.
fn without_silent_actions(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut at = 0usize;
    // A trim never removes text before this (an `else`'s line break).
    let mut floor = 0usize;
    for (s, e) in action_spans(body) {
        let Some(a) = action(&body[s..e]) else {
            continue;
        };
        let (word, rest) = keyword(a.words);
        let assignment =
            word.starts_with('$') && (rest.starts_with(":=") || rest.starts_with("= "));
        let silent = assignment
            || word.starts_with("/*")
            || matches!(
                word,
                "if" | "else" | "end" | "range" | "with" | "break" | "continue"
            );
        if !silent {
            continue;
        }
        out.push_str(&body[at..s]);
        if a.trim_left {
            out.truncate(out.trim_end().len().max(floor));
        }
        if word == "else" {
            let line_start = body[..s].rfind('\n').map_or(0, |i| i + 1);
            let line_end = body[e..].find('\n').map_or(body.len(), |i| e + i);
            if body[line_start..s].trim().is_empty() && body[e..line_end].trim().is_empty() {
                out.push('\n');
                floor = out.len();
            }
        }
        at = e;
        if a.trim_right {
            at += body[e..].len() - body[e..].trim_start().len();
        }
    }
    out.push_str(&body[at..]);
    out
}

/// The names a text includes on lines of their own.
fn includes(text: &str) -> Vec<String> {
    action_spans(text)
        .into_iter()
        .filter_map(|(s, e)| include_of(action(&text[s..e])?.words).map(|i| i.name))
        .collect()
}

struct Level {
    text: String,
    lines: Vec<u32>,
    diagnostics: Vec<(u32, String)>,
    changed: bool,
    /// The line of the first include left out for the size cap.
    over_budget: Option<u32>,
}

/// One round of expansion: every include alone on its line whose define `bodies` has is
/// replaced by the body with the pipeline applied. `None` when `text` has no include.
fn expand_level(
    text: &str,
    bodies: &BTreeMap<String, Result<String, String>>,
    rendered: Option<&BTreeMap<String, String>>,
    cap: usize,
) -> Option<Level> {
    let spans = action_spans(text);
    if spans.is_empty() {
        return None;
    }
    let starts = line_starts(text);
    let mut out = String::with_capacity(text.len());
    let mut lines: Vec<u32> = vec![1];
    let mut diagnostics = Vec::new();
    let mut at = 0usize; // bytes of `text` emitted so far
    let mut changed = false;
    let mut over_budget = None;
    // Open blocks of `text`: whether each rebinds `.` (`with`, `range`, `define`).
    let mut blocks: Vec<bool> = Vec::new();
    for (s, e) in spans {
        if let Some(a) = action(&text[s..e]) {
            match keyword(a.words).0 {
                "with" | "range" | "define" | "block" => blocks.push(true),
                "if" => blocks.push(false),
                "end" => {
                    blocks.pop();
                }
                _ => {}
            }
        }
        if s < at {
            continue;
        }
        let line = line_at(&starts, s);
        let line_start = starts[line as usize - 1];
        let line_end = text[e..].find('\n').map_or(text.len(), |i| e + i);
        let alone = text[line_start..s].trim().is_empty()
            && text[e..line_end].trim().is_empty()
            && !text[s..e].contains('\n');
        let Some(a) = action(&text[s..e]).filter(|_| alone) else {
            continue;
        };
        let Some(inc) = include_of(a.words) else {
            continue;
        };
        let at_root = !blocks.iter().any(|&rebinds| rebinds) && matches!(inc.arg, "." | "$");
        let body = match (
            rendered.and_then(|r| r.get(&inc.name)),
            bodies.get(&inc.name),
        ) {
            (Some(marked), Some(Ok(_))) if at_root => marked,
            (_, Some(Ok(body))) => body,
            (_, Some(Err(why))) => {
                diagnostics.push((line, why.clone()));
                continue;
            }
            (_, None) => continue,
        };
        let Some(rendered) = render(body, &inc.stages) else {
            continue;
        };
        if over_budget.is_some() || out.len() + rendered.len() + (text.len() - e) > cap {
            over_budget.get_or_insert(line);
            continue;
        }
        push_original(&mut out, &mut lines, text, at, s, &starts);
        if a.trim_left {
            let kept = out.trim_end().len();
            let removed = out[kept..].matches('\n').count();
            out.truncate(kept);
            lines.truncate(lines.len() - removed);
        }
        for c in rendered.chars() {
            out.push(c);
            if c == '\n' {
                lines.push(line);
            }
        }
        at = e;
        if a.trim_right {
            at += text[e..].len() - text[e..].trim_start().len();
        }
        changed = true;
    }
    push_original(&mut out, &mut lines, text, at, text.len(), &starts);
    Some(Level {
        text: out,
        lines,
        diagnostics,
        changed,
        over_budget,
    })
}

/// Appends `text[from..to]`, noting the line of every line it starts.
fn push_original(
    out: &mut String,
    lines: &mut Vec<u32>,
    text: &str,
    from: usize,
    to: usize,
    starts: &[usize],
) {
    if from >= to {
        return;
    }
    out.push_str(&text[from..to]);
    for (i, _) in text[from..to].match_indices('\n') {
        lines.push(line_at(starts, from + i + 1));
    }
}

pub use source::file_kind::chart_root;

/// Whether a chart may use another's defines: Helm loads a chart with its subcharts
/// (under `charts/`) and all their templates share one namespace of names.
pub fn shares_defines(a: &str, b: &str) -> bool {
    fn under(child: &str, parent: &str) -> bool {
        if parent.is_empty() {
            child.starts_with("charts/")
        } else {
            child
                .strip_prefix(parent)
                .is_some_and(|rest| rest.starts_with("/charts/"))
        }
    }
    a == b || under(a, b) || under(b, a)
}

/// The defines visible from one chart, by name: `Err` for a name defined twice with
/// different bodies (which one Helm uses depends on load order, so none is chosen).
#[cfg(test)]
pub fn visible<'a>(
    root: &str,
    all: &'a [(String, Vec<Define>)],
) -> BTreeMap<&'a str, Result<&'a Define, String>> {
    visible_with(root, &[], all)
}

/// As `visible`, with the charts `dependencies` names in the repository (a `file://`
/// dependency, which `helm dependency build` copies under `charts/`) as subcharts too.
pub fn visible_with<'a>(
    root: &str,
    dependencies: &[String],
    all: &'a [(String, Vec<Define>)],
) -> BTreeMap<&'a str, Result<&'a Define, String>> {
    let mut out: BTreeMap<&str, Result<&Define, String>> = BTreeMap::new();
    for (path, defs) in all {
        let shared = chart_root(path).is_some_and(|r| {
            shares_defines(r, root) || dependencies.iter().any(|d| shares_defines(r, d))
        });
        if !shared {
            continue;
        }
        for d in defs {
            match out.get(d.name.as_str()) {
                None => {
                    out.insert(&d.name, Ok(d));
                }
                Some(Ok(seen)) if seen.body != d.body => {
                    out.insert(
                        &d.name,
                        Err(format!(
                            "named template `{}` is defined more than once in this chart with different bodies: not expanded",
                            d.name
                        )),
                    );
                }
                Some(_) => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
