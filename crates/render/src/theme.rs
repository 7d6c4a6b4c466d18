//! Themes: the built-in one embedded in the binary, overridable file by file by a site's
//! own `themes/NAME/` folder (templates under `templates/`, assets under `static/`).

use std::collections::BTreeMap;
use std::path::Path;

use rust_embed::RustEmbed;

use super::Error;
use super::erased::View;
use super::nav::PageNav;
use super::views::Chrome;
use files::regular;

/// The largest file a theme folder may hold (the site's content has the same limit).
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

#[derive(RustEmbed)]
#[folder = "../../themes/default/"]
struct BuiltIn;

pub struct Theme {
    tera: tera::Tera,
    statics: BTreeMap<String, Vec<u8>>,
    /// Templates a site's theme folder replaced, with the file each came from, so an error
    /// in one names the file the user edited.
    overridden: BTreeMap<String, String>,
}

impl Theme {
    /// The built-in theme, with files from `override_dir` (if it exists) replacing its own.
    pub fn load(override_dir: Option<&Path>) -> Result<Theme, Error> {
        let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        let mut overridden = BTreeMap::new();
        for path in BuiltIn::iter() {
            if let Some(file) = BuiltIn::get(&path) {
                files.insert(path.to_string(), file.data.into_owned());
            }
        }
        if let Some(dir) = override_dir.filter(|d| d.is_dir()) {
            // Hidden files and folders (`.env`, `.git/`) are never published.
            for entry in ignore::WalkBuilder::new(dir)
                .standard_filters(false)
                .hidden(true)
                .build()
                .flatten()
            {
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                let Ok(rel) = entry.path().strip_prefix(dir) else {
                    continue;
                };
                let rel = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                let bytes = regular::read(entry.path(), MAX_FILE_BYTES).map_err(|source| {
                    Error::ThemeRead {
                        path: entry.path().to_path_buf(),
                        source,
                    }
                })?;
                if let Some(name) = rel.strip_prefix("templates/") {
                    overridden.insert(name.to_string(), entry.path().display().to_string());
                }
                files.insert(rel, bytes);
            }
        }
        let mut tera = tera::Tera::new();
        tera.register_filter("breakable", breakable);
        let mut statics = BTreeMap::new();
        let mut templates = Vec::new();
        for (path, bytes) in files {
            if let Some(name) = path.strip_prefix("templates/") {
                let text = String::from_utf8(bytes)
                    .map_err(|_| Error::ThemeEncoding { path: path.clone() })?;
                templates.push((name.to_string(), text));
            } else if let Some(name) = path.strip_prefix("static/") {
                statics.insert(name.to_string(), bytes);
            }
        }
        tera.add_raw_templates(templates)
            .map_err(|source| Error::Templates {
                message: with_origins(format!("theme templates: {source}"), &overridden),
                source,
            })?;
        Ok(Theme {
            tera,
            statics,
            overridden,
        })
    }

    pub fn render(
        &self,
        template: &str,
        chrome: &Chrome,
        nav: &PageNav,
        view: &dyn View,
    ) -> Result<String, Error> {
        let mut context = view.context()?;
        context.insert("site", chrome);
        context.insert("nav", nav);
        let html = self.tera.render(template, &context).map_err(|e| {
            let mut msg = format!("rendering {template}: {e}");
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                msg.push_str(&format!(": {s}"));
                source = s.source();
            }
            Error::Template {
                template: template.to_string(),
                message: with_origins(msg, &self.overridden),
                source: e,
            }
        })?;
        Ok(super::toc::fill(html))
    }

    pub fn has_static(&self, path: &str) -> bool {
        self.statics.contains_key(path)
    }

    pub fn static_files(&self) -> impl Iterator<Item = (String, Vec<u8>)> + '_ {
        self.statics.iter().map(|(k, v)| (k.clone(), v.clone()))
    }
}

/// The `breakable` filter: the text escaped for HTML with a line-break opportunity
/// (`<wbr>`) after each `/`. A table column of long paths then wraps at the slashes: its
/// narrowest width is its longest segment, where an unbreakable path widened the column and
/// a path breakable anywhere was squeezed to a letter per line by its neighbours.
fn breakable(text: std::borrow::Cow<'_, str>, _: tera::Kwargs, _: &tera::State) -> tera::Value {
    tera::Value::safe_string(&breakable_html(&text))
}

///
/// A Helm template action left in a value (`{{ .Release.Namespace }}`, a name the chart's
/// defaults cannot render) is set in `<code class="template">`, so it never reads as a name.
fn breakable_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut at = 0;
    for (s, e) in kubernetes::helm::action_spans(text) {
        push_code_spans(&mut out, &text[at..s]);
        out.push_str("<code class=\"template\" title=\"Template text, not rendered\">");
        push_breakable(&mut out, &text[s..e]);
        out.push_str("</code>");
        at = e;
    }
    push_code_spans(&mut out, &text[at..]);
    out
}

/// Text with markdown-style code spans: a `…` pair (on one line, not empty) is set in
/// `<code>` without its backticks, as the analyzers' messages write Go and YAML; a
/// backtick without its pair stays as written.
fn push_code_spans(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after
            .find(['`', '\n'])
            .filter(|&c| c > 0 && after[c..].starts_with('`'))
        else {
            push_breakable(out, &rest[..open + 1]);
            rest = after;
            continue;
        };
        push_breakable(out, &rest[..open]);
        out.push_str("<code>");
        push_breakable(out, &after[..close]);
        out.push_str("</code>");
        rest = &after[close + 1..];
    }
    push_breakable(out, rest);
}

fn push_breakable(out: &mut String, text: &str) {
    for c in text.chars() {
        match (c, super::svg::entity(c)) {
            (_, Some(e)) => out.push_str(e),
            ('/', None) => out.push_str("/<wbr>"),
            // Newlines stay: some cells show one item per line (`white-space: pre-line`).
            (c, None) => out.push(c),
        }
    }
}

/// Adds, for each overridden template an error points into, which file that template is.
fn with_origins(mut msg: String, overridden: &BTreeMap<String, String>) -> String {
    for (name, file) in overridden {
        if msg.contains(&format!("--> {name}:")) {
            msg.push_str(&format!("\n  note: {name} is {file}"));
        }
    }
    msg
}

#[cfg(test)]
mod tests;
