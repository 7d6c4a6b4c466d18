//! The output folder as serve last wrote it: each file's hash, so a rebuild writes only
//! the files whose bytes changed and removes the ones the site no longer has.
//!
//! The site is written by two owners — the rebuild loop (pages and assets) and the search
//! indexer (the search export) — each with its own `Written` over disjoint paths, so
//! neither removes the other's files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pipeline::cache::{self, Hash};
use render::OutputFile;

use crate::Error;

pub struct Written {
    root: PathBuf,
    /// The hash of every file last written, by site path.
    hashes: BTreeMap<String, Hash>,
}

impl Written {
    /// Records `files` as already written to `root` (by a whole-site write).
    pub fn already(root: &Path, files: &[&OutputFile]) -> Written {
        Written {
            root: root.to_path_buf(),
            hashes: files
                .iter()
                .map(|f| (f.path.clone(), cache::hash_bytes(&f.bytes)))
                .collect(),
        }
    }

    /// Makes this share of the site exactly `files`: writes those whose bytes differ from
    /// what was last written and removes the ones no longer there. Returns (written, removed).
    ///
    /// New paths are written first, straight (nothing links to them yet: a new search
    /// export version is thousands of files); then files that exist are replaced, each
    /// through a temporary file and a rename, so what links to the new files (a page, the
    /// search manifest) is replaced after they are complete and a browser never reads half
    /// a file.
    pub fn replace(&mut self, files: &[OutputFile]) -> Result<(usize, usize), Error> {
        Ok(self.replace_unless(files, &|| false)?.unwrap_or_default())
    }

    /// [`replace`](Self::replace), paused as soon as `stop` says so (checked before each
    /// file): `None` then, with what was written recorded, so the same call later goes on
    /// where this one stopped. Until the last file is written, nothing that links to the
    /// new files has changed.
    pub fn replace_unless(
        &mut self,
        files: &[OutputFile],
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<(usize, usize)>, Error> {
        let changed: Vec<(&OutputFile, Hash)> = files
            .iter()
            .map(|f| (f, cache::hash_bytes(&f.bytes)))
            .filter(|(f, hash)| self.hashes.get(&f.path) != Some(hash))
            .collect();
        let (new, existing): (Vec<_>, Vec<_>) = changed
            .into_iter()
            .partition(|(f, _)| !self.hashes.contains_key(&f.path));
        let mut written = 0;
        for (file, hash) in new.into_iter().chain(existing) {
            if stop() {
                return Ok(None);
            }
            if self.hashes.contains_key(&file.path) {
                write_file(&self.root, &file.path, &file.bytes)?;
            } else {
                write_new_file(&self.root, &file.path, &file.bytes)?;
            }
            self.hashes.insert(file.path.clone(), hash);
            written += 1;
        }
        let keep: std::collections::BTreeSet<&str> =
            files.iter().map(|f| f.path.as_str()).collect();
        let gone: Vec<String> = self
            .hashes
            .keys()
            .filter(|p| !keep.contains(p.as_str()))
            .cloned()
            .collect();
        let mut removed = 0;
        for path in gone {
            self.hashes.remove(&path);
            let file = self.root.join(&path);
            if std::fs::remove_file(&file).is_ok() {
                removed += 1;
                remove_empty_parents(&self.root, &file);
            }
        }
        Ok(Some((written, removed)))
    }
}

/// Removes the folders a removed file leaves empty (a superseded search export version),
/// up to the output folder, so the folder matches what a fresh build writes.
fn remove_empty_parents(root: &Path, file: &Path) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == root || !d.starts_with(root) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// Writes a file at a path the site did not have.
fn write_new_file(root: &Path, rel: &str, bytes: &[u8]) -> Result<(), Error> {
    let path = root.join(rel);
    let dir = path.parent().unwrap_or(root);
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::write(format!("create {}", dir.display()), dir, e))?;
    std::fs::write(&path, bytes)
        .map_err(|e| Error::write(format!("write {}", path.display()), &path, e))
}

/// Writes one file through a temporary file and a rename, so a browser never reads half
/// a file.
fn write_file(root: &Path, rel: &str, bytes: &[u8]) -> Result<(), Error> {
    let path = root.join(rel);
    let dir = path.parent().unwrap_or(root);
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::write(format!("create {}", dir.display()), dir, e))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|e| Error::write(format!("write in {}", dir.display()), dir, e))?;
    std::io::Write::write_all(&mut tmp, bytes)
        .map_err(|e| Error::write(format!("write {}", path.display()), &path, e))?;
    // Temporary files are private; site files are readable like those `build` writes.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = tmp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644));
    }
    tmp.persist(&path)
        .map_err(|e| Error::write(format!("write {}", path.display()), &path, e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests;
