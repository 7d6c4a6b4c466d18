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

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

use globset::{Glob, GlobSetBuilder};

use super::walk::{MAX_FILE_BYTES, relative_path, repository_walker};
use crate::markdown::{self, FrontMatterFormat, Links, Use};
use crate::model::{Diagnostic, Doc, DocImage};
use crate::regular::{self, ReadError};

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
    let mut wanted_images = BTreeSet::new();
    for path in selected {
        let Some(text) = read_text(&canonical_root, &path, &mut out.diagnostics) else {
            continue;
        };
        let split = markdown::split_front_matter(&text);
        let recorder = Arc::new(ImageRecorder::default());
        let rendered = markdown::render(split.body, recorder.clone(), Default::default());
        if let Ok(images) = recorder.0.lock() {
            for image in images.iter() {
                if let Some(p) = markdown::join(&path, image) {
                    wanted_images.insert((p, path.clone()));
                }
            }
        }
        let title = split
            .front
            .and_then(|(format, text)| front_matter_title(format, text))
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
    for (image, doc) in wanted_images {
        if seen.insert(image.clone())
            && let Some(bytes) = read_image(&canonical_root, &image, &doc, &mut out.diagnostics)
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
            diagnostics.push(Diagnostic::new(
                path,
                0,
                "not valid UTF-8: invalid bytes were replaced with U+FFFD",
            ));
            Some(String::from_utf8_lossy(e.as_bytes()).into_owned())
        }
    }
}

fn read_image(
    root: &Path,
    path: &str,
    doc: &str,
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
            diagnostics.push(Diagnostic::new(doc, 0, message));
            return None;
        }
    };
    match read_inside(root, path, limit) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            diagnostics.push(Diagnostic::new(doc, 0, format!("image {path}: {e}")));
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

/// `title` from a repository doc's front matter; other keys are the repository's business.
fn front_matter_title(format: FrontMatterFormat, text: &str) -> Option<String> {
    let value: serde_json::Value = match format {
        FrontMatterFormat::Toml => toml::from_str::<toml::Table>(text)
            .ok()
            .and_then(|t| serde_json::to_value(t).ok())?,
        FrontMatterFormat::Yaml => serde_saphyr::from_str(text).ok()?,
    };
    value.get("title")?.as_str().map(|s| s.trim().to_string())
}

/// `docs/getting-started.md` → `getting-started`.
fn file_title(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(files: &[(&str, &[u8])]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, bytes) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }
        dir
    }

    #[test]
    fn readme_first_then_selected_docs_with_titles() {
        let dir = repo(&[
            (
                "ReadMe.md",
                b"# The Project\n![logo](docs/logo.png) ![d](docs/d.svg) ![b](docs/b.bmp)",
            ),
            (
                "docs/guide.md",
                b"---\ntitle: Guide\nweight: 3\n---\n# Other\n",
            ),
            ("docs/sub/plain.md", b"no heading"),
            ("docs/notes.txt", b"not markdown"),
            ("docs/logo.png", b"\x89PNG"),
            ("docs/d.svg", b"<svg/>"),
            ("docs/b.bmp", b"BM"),
            ("vendor/x/README.md", b"# vendored"),
            ("other.md", b"# not selected"),
        ]);
        let c = collect(dir.path(), &["docs".to_string()]);
        let got: Vec<(&str, &str, bool)> = c
            .docs
            .iter()
            .map(|d| (d.path.as_str(), d.title.as_str(), d.readme))
            .collect();
        assert_eq!(
            got,
            [
                ("ReadMe.md", "The Project", true),
                ("docs/guide.md", "Guide", false),
                ("docs/sub/plain.md", "plain", false),
            ]
        );
        assert_eq!(c.docs[1].markdown, "# Other\n");
        assert_eq!(
            c.images,
            [
                DocImage {
                    path: "docs/d.svg".into(),
                    bytes: b"<svg/>".to_vec()
                },
                DocImage {
                    path: "docs/logo.png".into(),
                    bytes: b"\x89PNG".to_vec()
                }
            ]
        );
        assert_eq!(
            c.diagnostics,
            [Diagnostic::new(
                "ReadMe.md",
                0,
                "image docs/b.bmp is not published: only PNG, JPEG, GIF, WebP and SVG files are"
            )]
        );
    }

    #[test]
    fn images_outside_the_repository_are_not_read() {
        let outside = repo(&[("secret.png", b"x")]);
        let dir = repo(&[(
            "README.md",
            b"![a](../secret.png) ![b](missing.png)".as_slice(),
        )]);
        std::os::unix::fs::symlink(
            outside.path().join("secret.png"),
            dir.path().join("link.png"),
        )
        .unwrap();
        let readme = "![a](link.png) ![b](missing.png)".to_string();
        std::fs::write(dir.path().join("README.md"), readme).unwrap();
        let c = collect(dir.path(), &[]);
        assert!(c.images.is_empty());
        let messages: Vec<&str> = c.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "image link.png: not a file inside the repository",
                "image missing.png: file not found"
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_named_like_a_doc_is_reported_not_read() {
        let dir = repo(&[("docs/a.md", b"# A\n".as_slice())]);
        for name in ["README.md", "docs/b.md"] {
            let made = std::process::Command::new("mkfifo")
                .arg(dir.path().join(name))
                .status();
            assert!(made.unwrap().success());
        }
        let c = collect(dir.path(), &["docs".into()]);
        let docs: Vec<&str> = c.docs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(docs, ["docs/a.md"]);
        let messages: Vec<String> = c
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.file, d.message))
            .collect();
        assert_eq!(
            messages,
            [
                "README.md: not a regular file but a named pipe (FIFO), skipped",
                "docs/b.md: not a regular file but a named pipe (FIFO), skipped"
            ]
        );
    }
}
