//! A repository's own markdown: the root README and the files `docs = […]` selects, and the
//! raster images they reference. Read here, in the source stage, so that nothing after the
//! model opens a repository file.
//!
//! `docs` entries are globs matched against repository-relative paths, or folders (`"docs"`
//! means every markdown file under it). Only `.md` and `.markdown` files become pages.
//! Images are read only when they are files inside the repository: PNG, JPEG, GIF or WebP
//! of at most [`MAX_IMAGE_BYTES`] (copied into the site), or SVG of at most
//! [`MAX_SVG_BYTES`]. An SVG is never copied, since one served from the portal's own origin
//! could run script when opened directly; `render::docs` inlines it as a `data:` URL in the
//! `<img>`, where script never runs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::{Arc, Mutex};

use globset::{Glob, GlobSetBuilder};
use percent_encoding::percent_decode_str;
use serde_json::Value;

use super::walk::{MAX_FILE_BYTES, relative_path, repository_walker};
use files::regular::{self, ReadError};
use markdown::{self, Links, Use};
use model::{Diagnostic, Doc, DocImage};

pub const MAX_IMAGE_BYTES: u64 = 4 * 1024 * 1024;
/// Smaller: an SVG is inlined, base64, into each page that shows it.
pub const MAX_SVG_BYTES: u64 = 1024 * 1024;
const IMAGE_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "gif", "webp"];

/// What the docs of one repository gave.
#[derive(Debug, Default)]
pub struct Collected {
    pub docs: Vec<Doc>,
    pub images: Vec<DocImage>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the README and the markdown files `patterns` select, README first, then by path.
pub fn collect(root: &Path, patterns: &[String]) -> Collected {
    let mut out = Collected::default();
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let files = markdown_files(root);
    let readme = files
        .iter()
        .find(|p| !p.contains('/') && p.eq_ignore_ascii_case("readme.md"))
        .cloned();
    let mut selected: Vec<String> = Vec::new();
    if let Some(r) = &readme {
        selected.push(r.clone());
    }
    match selection(root, patterns) {
        Ok(set) => selected.extend(
            files
                .iter()
                .filter(|p| Some(*p) != readme.as_ref() && set.is_match(p.as_str()))
                .cloned(),
        ),
        Err(e) => out.diagnostics.push(Diagnostic::new("projects.toml", 0, e)),
    }
    // (image, document) → the document line that references it.
    let mut wanted_images = BTreeMap::new();
    for path in selected {
        let Some(text) = read_text(&canonical_root, &path, &mut out.diagnostics) else {
            continue;
        };
        let split = markdown::split_front_matter(&text);
        let recorder = Arc::new(ImageRecorder::default());
        let rendered = markdown::render(split.body, recorder.clone(), Default::default());
        // The body is the end of the file: its first line is the file line after the rest.
        let body_line = line_at(&text, text.len() - split.body.len());
        if let Ok(images) = recorder.0.lock() {
            for image in images.iter() {
                if let Some(p) = markdown::join(&path, image) {
                    let line = reference_line(split.body, body_line, image);
                    wanted_images.entry((p, path.clone())).or_insert(line);
                }
            }
        }
        let title = front_matter_title(&path, &split, &mut out.diagnostics)
            .or(rendered.title)
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| file_title(&path));
        out.docs.push(Doc {
            readme: Some(&path) == readme.as_ref(),
            path,
            title,
            markdown: split.body.to_string(),
        });
    }
    let mut seen = BTreeSet::new();
    for ((image, doc), line) in wanted_images {
        if seen.insert(image.clone())
            && let Some(bytes) =
                read_image(&canonical_root, &image, (&doc, line), &mut out.diagnostics)
        {
            out.images.push(DocImage { path: image, bytes });
        }
    }
    out
}

/// Records every relative image a document references.
#[derive(Default)]
struct ImageRecorder(Mutex<Vec<String>>);

impl Links for ImageRecorder {
    fn resolve(&self, usage: Use, path: &str, _: Option<&str>) -> Option<String> {
        if usage == Use::Image
            && let Ok(mut v) = self.0.lock()
        {
            v.push(path.to_string());
        }
        None
    }
}

/// Globs from `docs`, with a plain folder name standing for every file under it.
fn selection(root: &Path, patterns: &[String]) -> Result<globset::GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let trimmed = pattern.trim_end_matches('/');
        let is_glob = trimmed.contains(['*', '?', '[', '{']);
        let glob = if !is_glob && !trimmed.is_empty() && root.join(trimmed).is_dir() {
            format!("{trimmed}/**")
        } else {
            trimmed.to_string()
        };
        builder.add(Glob::new(&glob).map_err(|e| format!("bad docs glob `{pattern}`: {e}"))?);
    }
    builder.build().map_err(|e| e.to_string())
}

/// Every markdown file of the repository, sorted, skipping hidden and vendored folders and
/// never following symbolic links.
fn markdown_files(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for entry in repository_walker(root).flatten() {
        // Special files (a pipe named README.md) are listed so that reading them gives a
        // diagnostic; symbolic links are not followed.
        if entry
            .file_type()
            .is_none_or(|t| t.is_dir() || t.is_symlink())
        {
            continue;
        }
        let Some(path) = relative_path(root, entry.path()) else {
            continue;
        };
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".md") || lower.ends_with(".markdown") {
            files.push(path);
        }
    }
    files.sort();
    files
}

fn read_text(root: &Path, path: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    let bytes = match read_inside(root, path, MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(e) => {
            diagnostics.push(Diagnostic::new(path, 0, e));
            return None;
        }
    };
    match String::from_utf8(bytes) {
        Ok(s) => Some(s),
        Err(e) => {
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            // The first bad byte's line: the valid prefix is the same in the lossy text.
            let line = line_at(&text, e.utf8_error().valid_up_to());
            diagnostics.push(Diagnostic::new(
                path,
                line,
                "not valid UTF-8: invalid bytes were replaced with U+FFFD",
            ));
            Some(text)
        }
    }
}

/// The 1-based line of a byte offset.
fn line_at(text: &str, offset: usize) -> u32 {
    let offset = offset.min(text.len());
    1 + text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
}

/// The line of the body (which starts on file line `first`) that references `target` (a
/// path as `Links` saw it, percent-decoded): the first line holding it, else the first whose
/// percent-decoded text holds it, else the body's first line.
fn reference_line(body: &str, first: u32, target: &str) -> u32 {
    body.lines()
        .position(|l| l.contains(target))
        .or_else(|| {
            body.lines()
                .position(|l| percent_decode_str(l).decode_utf8_lossy().contains(target))
        })
        .map_or(first, |i| first + i as u32)
}

/// Reads an image `doc` references on a line; problems are diagnostics at that line.
fn read_image(
    root: &Path,
    path: &str,
    (doc, line): (&str, u32),
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<u8>> {
    let extension = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    let limit = match extension.as_deref() {
        Some("svg") => MAX_SVG_BYTES,
        Some(e) if IMAGE_EXTENSIONS.contains(&e) => MAX_IMAGE_BYTES,
        _ => {
            let message = format!(
                "image {path} is not published: only PNG, JPEG, GIF, WebP and SVG files are"
            );
            diagnostics.push(Diagnostic::new(doc, line, message));
            return None;
        }
    };
    match read_inside(root, path, limit) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            diagnostics.push(Diagnostic::new(doc, line, format!("image {path}: {e}")));
            None
        }
    }
}

/// Reads a regular repository file whose real location is inside the repository.
fn read_inside(root: &Path, path: &str, limit: u64) -> Result<Vec<u8>, String> {
    let real = std::fs::canonicalize(root.join(path)).map_err(|_| "file not found".to_string())?;
    if !real.starts_with(root) {
        return Err("not a file inside the repository".into());
    }
    regular::read(&real, limit).map_err(|e| match e {
        ReadError::Io(_) => e.to_string(),
        ReadError::NotRegular(_) | ReadError::TooLarge(_) => format!("{e}, skipped"),
    })
}

/// `title` from a repository doc's front matter. Front matter that cannot be read, a title
/// that is not a string, and keys portolan does not use are diagnostics at their file line.
fn front_matter_title(
    path: &str,
    split: &markdown::Split,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let mut note = |line: usize, message: String| {
        diagnostics.push(Diagnostic::new(path, line as u32, message));
    };
    let map = match markdown::parse_front_matter::<Value>(split) {
        Err(e) => {
            let message = format!(
                "front matter not read: {}; the title comes from the first heading",
                e.message
            );
            note(e.line, message);
            return None;
        }
        Ok(Value::Null) => return None,
        Ok(Value::Object(map)) => map,
        Ok(_) => {
            let message = "front matter is not a table of keys: it is ignored".to_string();
            note(split.front_line, message);
            return None;
        }
    };
    let block = split.front.map_or("", |(_, block)| block);
    let line_of = |key: &str| split.front_line + key_line(block, key).unwrap_or(0);
    let unused: Vec<&String> = map.keys().filter(|k| *k != "title").collect();
    if let Some(first) = unused.iter().map(|k| line_of(k)).min() {
        let keys: Vec<String> = unused.iter().map(|k| format!("`{k}`")).collect();
        let message = format!(
            "front matter {} not used: portolan reads only `title` from a repository's docs",
            match keys.len() {
                1 => format!("key {} is", keys[0]),
                _ => format!("keys {} are", keys.join(", ")),
            }
        );
        note(first, message);
    }
    match map.get("title")? {
        Value::String(title) => Some(title.trim().to_string()),
        _ => {
            let message =
                "front matter `title` is not a string: the title comes from the first heading";
            note(line_of("title"), message.to_string());
            None
        }
    }
}

/// The 0-based line of a block where the top-level `key` is set (`key =`, `key:`, quoted or
/// not), if it can be found.
fn key_line(block: &str, key: &str) -> Option<usize> {
    block.lines().position(|l| {
        let rest = [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
            .iter()
            .find_map(|k| l.strip_prefix(k.as_str()).map(str::trim_start));
        rest.is_some_and(|r| r.starts_with('=') || r.starts_with(':'))
    })
}

/// `docs/getting-started.md` → `getting-started`.
fn file_title(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .to_string()
}

#[cfg(test)]
mod tests;
