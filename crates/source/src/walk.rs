//! Which files of a repository are analyzed, and how each one is classified.
//!
//! Default excludes (every project): any path segment starting with `.` (module caches such
//! as `.gomod-cache/` live there), `vendor/`, `third_party/`, `node_modules/`, `testdata/`,
//! Cargo's `target/` beside a `Cargo.toml`, `*_test.go`. Generated `*.pb.go`/`*.pb.gw.go`
//! files are selected as [`FileKind::GoGenerated`], read only for gRPC services and
//! grpc-gateway patterns. Files over [`MAX_FILE_BYTES`] and binary files
//! are skipped and counted when read ([`read`]).

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::Error;
use crate::file_kind::FileKind;
use files::regular::{self, ReadError};
use model::Area;

pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

const EXCLUDED_DIRS: [&str; 4] = ["vendor", "third_party", "node_modules", "testdata"];
const EXCLUDED_SUFFIXES: [&str; 1] = ["_test.go"];
/// Folders whose rows are shown apart from the component's own ("Samples and tooling").
const SAMPLE_DIRS: [&str; 15] = [
    "test", "tests", "e2e", "testing", "fixture", "fixtures", "hack", "docs", "doc", "samples",
    "sample", "examples", "example", "demo", "demos",
];

/// A file selected for analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceFile {
    /// Repository-relative, `/`-separated.
    pub path: String,
    pub abs: PathBuf,
    pub kind: FileKind,
    pub area: Area,
    pub size: u64,
}

/// Files the walker saw but did not select, by reason.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct WalkReport {
    pub skipped_large: u64,
    pub symlinks_outside: u64,
}

/// Compiled include/exclude globs of one project.
pub struct Filter {
    include: Option<GlobSet>,
    exclude: GlobSet,
}

impl Filter {
    /// Globs were validated with the configuration; an invalid one here is a bug upstream.
    pub fn new(include: &[String], exclude: &[String]) -> Result<Filter, Error> {
        let build = |globs: &[String]| -> Result<GlobSet, Error> {
            let mut b = GlobSetBuilder::new();
            for g in globs {
                b.add(Glob::new(g).map_err(|source| Error::Glob {
                    glob: g.clone(),
                    source,
                })?);
            }
            b.build().map_err(Error::GlobSet)
        };
        let include = if include.is_empty() {
            None
        } else {
            Some(build(include)?)
        };
        Ok(Filter {
            include,
            exclude: build(exclude)?,
        })
    }

    fn selects(&self, path: &str) -> bool {
        if self.exclude.is_match(path) {
            return false;
        }
        self.include.as_ref().is_none_or(|inc| inc.is_match(path))
    }
}

/// Folders that hold a project's deployment environments: one named `dev` (or `test`) in
/// them is a developer's setup, not what the project ships.
const ENVIRONMENT_DIRS: [&str; 4] = ["environments", "envs", "overlays", "env"];

/// The area a repository-relative path belongs to.
pub fn classify(path: &str) -> Area {
    let dirs: Vec<&str> = path.split('/').rev().skip(1).collect();
    let sample = dirs.iter().enumerate().any(|(i, seg)| {
        SAMPLE_DIRS.contains(seg)
            // `e2e-infra`, `test-e2e`: end-to-end test setups under another name.
            || seg.split(['-', '_']).any(|word| word == "e2e")
            || (*seg == "dev" && dirs.get(i + 1).is_some_and(|p| ENVIRONMENT_DIRS.contains(p)))
    });
    if sample {
        Area::Samples
    } else {
        Area::Component
    }
}

fn excluded_by_default(path: &str) -> bool {
    let mut segments = path.split('/');
    let name = segments.next_back().unwrap_or("");
    segments.any(|s| s.starts_with('.') || EXCLUDED_DIRS.contains(&s))
        || name.starts_with('.')
        || EXCLUDED_SUFFIXES.iter().any(|s| name.ends_with(s))
}

/// Cargo's build output: a `target` folder beside a `Cargo.toml` (a Go package folder
/// named `target` is still analyzed).
fn is_cargo_target(dir: &Path) -> bool {
    dir.file_name().is_some_and(|n| n == "target")
        && dir.parent().is_some_and(|p| p.join("Cargo.toml").is_file())
}

/// A walk over a repository that skips hidden and vendored folders and never follows
/// symbolic links.
pub fn repository_walker(root: &Path) -> ignore::Walk {
    ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .hidden(true)
        .follow_links(false)
        .filter_entry(|entry| {
            let name = entry.file_name().to_string_lossy();
            !(entry.depth() > 0
                && entry.file_type().is_some_and(|t| t.is_dir())
                && (name.starts_with('.')
                    || EXCLUDED_DIRS.contains(&name.as_ref())
                    || is_cargo_target(entry.path())))
        })
        .build()
}

/// Lists the files of `root` to analyze, sorted by path.
pub fn walk(root: &Path, filter: &Filter) -> (Vec<SourceFile>, WalkReport) {
    let mut files = Vec::new();
    let mut report = WalkReport::default();
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    for entry in repository_walker(root).flatten() {
        let Some(file_type) = entry.file_type() else {
            continue;
        };
        if file_type.is_dir() {
            continue;
        }
        let Some(path) = relative_path(root, entry.path()) else {
            continue;
        };
        let Some(kind) = FileKind::of(&path) else {
            continue;
        };
        if excluded_by_default(&path) || !filter.selects(&path) {
            continue;
        }
        let abs = entry.path().to_path_buf();
        if file_type.is_symlink() {
            // Follow a symlink only if it stays inside the repository (what it points at is
            // checked when it is read).
            match std::fs::canonicalize(&abs) {
                Ok(target) if target.starts_with(&canonical_root) => {}
                _ => {
                    report.symlinks_outside += 1;
                    continue;
                }
            }
        }
        let size = std::fs::metadata(&abs).map(|m| m.len()).unwrap_or(0);
        if size > MAX_FILE_BYTES {
            report.skipped_large += 1;
            continue;
        }
        let area = classify(&path);
        files.push(SourceFile {
            path,
            abs,
            kind,
            area,
            size,
        });
    }
    // The walk skips hidden files; goreleaser's configuration is one, read at the root only.
    for name in [".goreleaser.yml", ".goreleaser.yaml"] {
        let abs = root.join(name);
        let Ok(meta) = std::fs::symlink_metadata(&abs) else {
            continue;
        };
        if !meta.is_file() || meta.len() > MAX_FILE_BYTES || !filter.selects(name) {
            continue;
        }
        files.push(SourceFile {
            path: name.to_string(),
            abs,
            kind: FileKind::Build,
            area: Area::Component,
            size: meta.len(),
        });
    }
    let modules: Vec<String> = files
        .iter()
        .filter(|f| f.kind == FileKind::GoMod)
        .map(|f| f.path.trim_end_matches("go.mod").to_string())
        .collect();
    for module_dir in modules {
        vendored_api_files(root, &module_dir, filter, &mut files);
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    (files, report)
}

/// File names that declare an API package's group and version: kubebuilder's
/// `groupversion_info.go`, and `register.go` / `doc.go` (`+groupName=`) in Kubernetes' style.
const API_DECLARING_FILES: [&str; 3] = ["groupversion_info.go", "register.go", "doc.go"];
/// At most this many vendored declaring files are read per module.
const MAX_VENDORED_API_FILES: usize = 2_000;

/// The API-declaring files of a Go module's `vendor/` folder (Go vendoring: it has a
/// `modules.txt`), in version-named folders (`…/v1`, `…/v1beta2`). Only these are read, as
/// [`FileKind::GoVendoredApi`], so that vendored modules' types resolve to their groups;
/// the rest of `vendor/` stays excluded.
fn vendored_api_files(root: &Path, module_dir: &str, filter: &Filter, files: &mut Vec<SourceFile>) {
    let vendor = root.join(module_dir).join("vendor");
    let is_real_dir = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
    let is_real_file = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file());
    if !is_real_dir(&vendor) || !is_real_file(&vendor.join("modules.txt")) {
        return;
    }
    let mut found = 0;
    for entry in repository_walker(&vendor).flatten() {
        if found >= MAX_VENDORED_API_FILES {
            break;
        }
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if !API_DECLARING_FILES.contains(&name.as_ref()) {
            continue;
        }
        let in_version_dir = entry
            .path()
            .parent()
            .and_then(|d| d.file_name())
            .is_some_and(|d| kubernetes::is_version(&d.to_string_lossy()));
        let Some(path) = relative_path(root, entry.path()) else {
            continue;
        };
        let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
        if !in_version_dir || size > MAX_FILE_BYTES || !filter.selects(&path) {
            continue;
        }
        found += 1;
        files.push(SourceFile {
            path,
            abs: entry.path().to_path_buf(),
            kind: FileKind::GoVendoredApi,
            area: Area::Component,
            size,
        });
    }
}

/// `path` relative to `root`, `/`-separated; None when it is not under `root`.
pub fn relative_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    Some(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// What reading a selected file gave.
pub enum Read {
    Text(String),
    /// Text that was not valid UTF-8: invalid bytes replaced, `line` the first bad one.
    Lossy {
        text: String,
        line: u32,
    },
    Binary,
    TooLarge,
    Failed(String),
}

/// Reads a file for analysis: binary files (a NUL byte in the first 8 KiB) are skipped,
/// invalid UTF-8 is replaced rather than rejected, and anything but a regular file (a named
/// pipe would block the read forever, a device never end) is refused.
pub fn read(file: &SourceFile) -> Read {
    let bytes = match regular::read(&file.abs, MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(ReadError::TooLarge(_)) => return Read::TooLarge,
        Err(e @ ReadError::NotRegular(_)) => return Read::Failed(format!("{e}, skipped")),
        Err(e) => return Read::Failed(e.to_string()),
    };
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Read::Binary;
    }
    match String::from_utf8(bytes) {
        Ok(s) => Read::Text(s),
        Err(e) => {
            let bad = e.utf8_error().valid_up_to();
            let bytes = e.as_bytes();
            let line = 1 + bytes[..bad.min(bytes.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u32;
            Read::Lossy {
                text: String::from_utf8_lossy(bytes).into_owned(),
                line,
            }
        }
    }
}

#[cfg(test)]
mod tests;
