//! Helpers shared by the integration tests (each test crate uses some of them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every file under `dir` with its bytes, sorted by relative path.
pub fn all_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The fixture portal (portal.toml, its content and its two projects) in a temporary folder.
pub fn portal_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for part in ["atlas-content", "widget-operator", "gadget-scheduler"] {
        copy_dir(&fixtures().join(part), &dir.path().join(part));
    }
    std::fs::copy(
        fixtures().join("portal.toml"),
        dir.path().join("portal.toml"),
    )
    .unwrap();
    dir
}
