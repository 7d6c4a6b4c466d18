//! The analysis cache, keyed by content hashes, so unchanged inputs are not analyzed twice.
//!
//! Two levels:
//! * On disk, in `cache_dir/analysis/`, one analyzed `Project` (the model, which is serde
//!   data) per project, named by a key that hashes this binary's identity, the project's
//!   configuration, its commit, and the path, kind, area and content of every file the
//!   walk selected. `portolan build` and `serve` both read and write it; a project whose
//!   key is unchanged is loaded instead of analyzed. A stamp per output folder records the
//!   key of the whole site (the projects' keys, projects.toml, content and theme) and the
//!   files written, so a build with nothing changed skips rendering and writing too.
//! * In memory (serve only), the per-file `FileFacts` by content hash, so an edit to one
//!   file of a project re-analyzes that file and reuses the others' facts. serve analyzes
//!   everything once at start to fill it (and stores projects on disk for later builds).
//!
//! The binary's identity (version, size and modification time of the executable) is part of
//! every key: a rebuilt portolan, whose analyzers may have changed, never reads old entries.
//! The cache is an optimization only: any error reading it is a miss, any error writing it
//! is ignored.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::UNIX_EPOCH;

use sha2::{Digest, Sha256};

use analyze::FileFacts;
use files::regular;
use model::{MAX_MODEL_BYTES, Project};

pub use files::digest::{Hash, hash_bytes, hex};

/// A hasher that takes fields with their lengths, so adjacent fields never run together.
pub struct KeyHasher(Sha256);

impl KeyHasher {
    pub fn new(domain: &str) -> KeyHasher {
        let mut h = KeyHasher(Sha256::new());
        h.field(build_id().as_bytes());
        h.field(domain.as_bytes());
        h
    }

    pub fn field(&mut self, bytes: &[u8]) -> &mut KeyHasher {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    pub fn finish(self) -> Hash {
        self.0.finalize().into()
    }
}

/// This binary: its version and the size and modification time of its executable.
fn build_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .map(|m| {
                let mtime = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{}-{mtime}", m.len())
            })
            .unwrap_or_default();
        format!("portolan {} {exe}", env!("CARGO_PKG_VERSION"))
    })
}

/// Facts by (project, path), with the content hash they were extracted from.
type FileMemo = HashMap<(String, String), (Hash, FileFacts)>;

/// The analysis cache of one run.
#[derive(Default)]
pub struct Cache {
    /// `cache_dir/analysis`, or none to analyze everything.
    dir: Option<PathBuf>,
    /// Per-file facts by project, path and content hash (serve keeps them between rebuilds).
    memo: Option<Mutex<FileMemo>>,
    /// The key of each project analyzed or loaded in this run.
    keys: Mutex<BTreeMap<String, Hash>>,
    /// The projects loaded from the cache in this run (serve reports the others as analyzed).
    loaded: Mutex<std::collections::BTreeSet<String>>,
}

impl Cache {
    /// No caching at all.
    pub fn none() -> Cache {
        Cache::default()
    }

    /// The on-disk cache under `cache_dir`.
    pub fn on_disk(cache_dir: &Path) -> Cache {
        Cache {
            dir: Some(cache_dir.join("analysis")),
            ..Cache::default()
        }
    }

    /// Per-file facts kept in memory across runs, and projects stored on disk for later
    /// builds (serve).
    pub fn with_memo(cache_dir: &Path) -> Cache {
        Cache {
            memo: Some(Mutex::new(HashMap::new())),
            ..Cache::on_disk(cache_dir)
        }
    }

    fn entry(&self, name: &str, key: &Hash) -> Option<PathBuf> {
        let safe = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        let dir = self.dir.as_ref()?;
        safe.then(|| dir.join(format!("{name}-{}.json", &hex(key)[..32])))
    }

    /// Records a project's key for this run (see [`Cache::site_key`]).
    pub fn note_key(&self, name: &str, key: Hash) {
        if let Ok(mut keys) = self.keys.lock() {
            keys.insert(name.to_string(), key);
        }
    }

    /// The project analyzed earlier with the same key, if the cache has it. Also with a
    /// memo (serve): a cold `serve` starts from the cache, and the first edit of a project
    /// loaded so analyzes all of that project's files once (its memo is empty), the others
    /// staying loaded.
    pub fn load(&self, name: &str, key: &Hash) -> Option<Project> {
        let text = regular::read(&self.entry(name, key)?, MAX_MODEL_BYTES).ok()?;
        let project = serde_json::from_slice(&text).ok()?;
        if let Ok(mut loaded) = self.loaded.lock() {
            loaded.insert(name.to_string());
        }
        Some(project)
    }

    /// Whether the project `name` was loaded from the cache in this run.
    pub fn was_loaded(&self, name: &str) -> bool {
        self.loaded.lock().is_ok_and(|l| l.contains(name))
    }

    /// Stores an analyzed project (written to a temporary file, then renamed), removing the
    /// project's older entries.
    pub fn store(&self, name: &str, key: &Hash, project: &Project) {
        let Some(path) = self.entry(name, key) else {
            return;
        };
        let Some(dir) = path.parent() else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let Ok(json) = serde_json::to_vec(project) else {
            return;
        };
        let Ok(mut tmp) = tempfile::NamedTempFile::new_in(dir) else {
            return;
        };
        if std::io::Write::write_all(&mut tmp, &json).is_err() || tmp.persist(&path).is_err() {
            return;
        }
        let prefix = format!("{name}-");
        let keep = path.file_name().map(|n| n.to_os_string());
        for old in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let file = old.file_name();
            let text = file.to_string_lossy();
            let same_project = text.strip_prefix(&prefix).is_some_and(|rest| {
                rest.len() == 37 && rest.ends_with(".json") && !rest.contains('-')
            });
            if same_project && Some(&file) != keep.as_ref() {
                let _ = std::fs::remove_file(old.path());
            }
        }
    }

    /// Facts analyzed earlier for the same file content (serve only).
    pub fn facts(&self, project: &str, path: &str, hash: &Hash) -> Option<FileFacts> {
        let memo = self.memo.as_ref()?.lock().ok()?;
        let (h, facts) = memo.get(&(project.to_string(), path.to_string()))?;
        (h == hash).then(|| facts.clone())
    }

    pub fn remember_facts(&self, project: &str, path: &str, hash: Hash, facts: &FileFacts) {
        if let Some(Ok(mut memo)) = self.memo.as_ref().map(Mutex::lock) {
            memo.insert(
                (project.to_string(), path.to_string()),
                (hash, facts.clone()),
            );
        }
    }

    pub fn remembers_facts(&self) -> bool {
        self.memo.is_some()
    }

    /// Whether anything is looked up by content: without a folder or a memo, file hashes
    /// would be computed for nothing.
    pub fn keys_by_content(&self) -> bool {
        self.dir.is_some() || self.memo.is_some()
    }

    /// The key of everything a site is made from: every project's key (none if a project
    /// has none, e.g. it failed), plus the bytes of the given inputs.
    pub fn site_key(&self, projects: &[Project], inputs: &[(&str, Vec<u8>)]) -> Option<Hash> {
        let keys = self.keys.lock().ok()?;
        let mut h = KeyHasher::new("site");
        for p in projects {
            h.field(p.name.as_bytes()).field(keys.get(&p.name)?);
        }
        for (label, bytes) in inputs {
            h.field(label.as_bytes()).field(bytes);
        }
        Some(h.finish())
    }

    fn stamp_path(&self, output: &Path) -> Option<PathBuf> {
        let out = std::path::absolute(output).ok()?;
        let id = hash_bytes(out.to_string_lossy().as_bytes());
        Some(
            self.dir
                .as_ref()?
                .join(format!("site-{}.stamp", &hex(&id)[..16])),
        )
    }

    /// Whether `output` holds exactly what the build with `site_key` wrote: the stamp
    /// names the key and every file with its size and modification time.
    pub fn output_is_current(&self, output: &Path, site_key: &Hash) -> bool {
        let Some(text) = self
            .stamp_path(output)
            .and_then(|p| std::fs::read_to_string(p).ok())
        else {
            return false;
        };
        let mut lines = text.lines();
        if lines.next() != Some(hex(site_key).as_str()) {
            return false;
        }
        let mut count = 0usize;
        for line in lines {
            let mut parts = line.splitn(3, '\t');
            let (Some(len), Some(mtime), Some(rel)) = (parts.next(), parts.next(), parts.next())
            else {
                return false;
            };
            match file_signature(&output.join(rel)) {
                Some((l, m)) if l.to_string() == len && m.to_string() == mtime => count += 1,
                _ => return false,
            }
        }
        count > 0
    }

    /// Records what was just written to `output` for [`Cache::output_is_current`].
    pub fn stamp_output(&self, output: &Path, site_key: &Hash, files: &[&str]) {
        let Some(path) = self.stamp_path(output) else {
            return;
        };
        let mut text = hex(site_key);
        text.push('\n');
        for rel in files {
            let Some((len, mtime)) = file_signature(&output.join(rel)) else {
                return;
            };
            text.push_str(&format!("{len}\t{mtime}\t{rel}\n"));
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(path, text);
    }

    /// Forgets the stamp of `output` (before writing a new site into it).
    pub fn clear_stamp(&self, output: &Path) {
        if let Some(path) = self.stamp_path(output) {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn file_signature(path: &Path) -> Option<(u64, u128)> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let mtime = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    meta.is_file().then_some((meta.len(), mtime.as_nanos()))
}

/// Every file under `dir` (sorted, relative paths with their bytes), for site keys.
pub fn folder_inputs(dir: &Path) -> Vec<u8> {
    let mut h = KeyHasher(Sha256::new());
    if dir.is_dir() {
        let walker = ignore::WalkBuilder::new(dir)
            .standard_filters(false)
            .follow_links(false)
            .sort_by_file_name(|a, b| a.cmp(b))
            .build();
        for entry in walker.flatten() {
            if entry.file_type().is_some_and(|t| t.is_file()) {
                let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
                h.field(rel.to_string_lossy().as_bytes());
                // Content and theme files over this size fail their own loading anyway.
                let bytes = regular::read(entry.path(), 16 * 1024 * 1024).unwrap_or_default();
                h.field(&bytes);
            }
        }
    }
    h.finish().to_vec()
}

#[cfg(test)]
mod tests;
