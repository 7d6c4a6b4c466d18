//! Writing the site: into a staging folder beside the output, then swapped in, so a
//! failed build leaves the previous site untouched; and only over an output that portolan
//! may replace ([`guard`]): absent, empty, or a site it wrote, never a protected folder.
//!
//! Stage: output. The only code that writes the site to disk.
//!
//! Every site written holds [`MARKER`], a file whose first line names the format
//! (`portolan-site 1`). The swap works beside the output `NAME`, in its parent folder:
//! the new site is written into `.NAME.new-XXXXXX` (marker first), the previous site is
//! moved to `.NAME.old-XXXXXX/site`, the new one renamed into place and the old one
//! deleted (marker last). `XXXXXX` is six random letters or digits.
//!
//! A killed build can leave those folders behind. [`prepare`], run before a build does any
//! work, removes only what is provably portolan's: a folder, not a link, named exactly
//! like that for this output, which is empty or, for `.new-`, holds the marker, or, for
//! `.old-`, holds nothing but a folder `site` that is empty or holds the marker. Anything
//! else with a similar name is left alone. If the output itself is missing and such an
//! `.old-` holds a marked site (a kill between the two renames), that site is put back
//! first, so the output is never left without a site.

pub mod guard;
pub mod model_file;

use std::io::Read;
use std::path::{Path, PathBuf};

pub use guard::Refusal;
use guard::{Found, Protected};

use config::{Config, SourceSpec};
use files::real_path::real_path;
use render::OutputFile;

/// The file that marks a folder as a site portolan wrote.
pub const MARKER: &str = ".portolan-site";
/// What a marker file starts with; the number after it is the format version.
const MARKER_START: &str = "portolan-site ";
const MARKER_TEXT: &str = "portolan-site 1\n";
/// The random part of staging folder names.
const RANDOM_CHARS: usize = 6;

/// Why the site was not written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The output may not be replaced; nothing was touched.
    #[error(transparent)]
    Refused(Refusal),
    /// Writing failed; the previous site is in place. The message names the file or
    /// folder.
    #[error("{0}")]
    Failed(String),
    /// The site was written but its search index (for `portolan search`) was not saved.
    #[error(transparent)]
    SearchIndex(#[from] search::Error),
}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Failed(message)
    }
}

/// The folders the output may never be or contain, as real paths.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    protected: Vec<Protected>,
}

impl Guard {
    /// `/`, `$HOME`, and the folders (and model files) of `config`, whose theme folder is
    /// `theme_dir`.
    pub fn new(config: &Config, theme_dir: &Path) -> Guard {
        let mut named: Vec<(String, PathBuf)> = vec![("the root folder".into(), "/".into())];
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            named.push(("your home folder ($HOME)".into(), home.into()));
        }
        let folder = config.file.parent().filter(|p| !p.as_os_str().is_empty());
        named.push((
            "the folder of projects.toml".into(),
            folder.unwrap_or(Path::new(".")).to_path_buf(),
        ));
        for p in &config.projects {
            match &p.source {
                SourceSpec::Path(path) => {
                    named.push((format!("project `{}`'s folder", p.name), path.clone()));
                }
                SourceSpec::Model(path) => {
                    named.push((format!("project `{}`'s model file", p.name), path.clone()));
                }
                SourceSpec::Git { .. } => {}
            }
        }
        named.push(("the content folder".into(), config.site.content.clone()));
        named.push(("the theme folder".into(), theme_dir.to_path_buf()));
        named.push((
            "the cache folder (cache_dir)".into(),
            config.site.cache_dir.clone(),
        ));
        Guard {
            protected: named
                .into_iter()
                .map(|(what, path)| Protected {
                    what,
                    path: real_path(&path).unwrap_or(path),
                })
                .collect(),
        }
    }
}

/// Checks that `out` may be replaced (nothing is touched if not), puts back a site a
/// killed build left moved aside, and removes portolan's own staging leftovers. Returns
/// the output's real path, where the site is to be written.
pub fn prepare(out: &Path, guard: &Guard) -> Result<PathBuf, Error> {
    let real = real_path(out)
        .map_err(|e| Error::Failed(format!("cannot resolve {}: {e}", out.display())))?;
    let found = inspect(&real);
    guard::decide(out, &real, &found, &guard.protected).map_err(Error::Refused)?;
    let (parent, name) = parent_and_name(&real)?;
    let leftovers = leftovers(parent, name);
    // Several sites moved aside (several killed builds): the newest goes back.
    if found == Found::Absent
        && let Some(site) = leftovers
            .iter()
            .filter_map(|l| match l {
                Leftover::Old(_, Some(site)) if has_marker(site) => Some(site),
                _ => None,
            })
            .max_by_key(|site| marker_time(site))
    {
        // Best effort: if it fails the build writes a new site anyway.
        let _ = std::fs::rename(site, &real);
    }
    for leftover in leftovers {
        match leftover {
            Leftover::New(dir) => remove_site(&dir),
            Leftover::Old(dir, site) => {
                if let Some(site) = site.filter(|s| s.exists()) {
                    remove_site(&site);
                }
                let _ = std::fs::remove_dir(&dir);
            }
        }
    }
    Ok(real)
}

/// Replaces `out` with exactly `files` (and the marker), if [`prepare`] allows it.
pub fn write_site(out: &Path, files: &[OutputFile], guard: &Guard) -> Result<(), Error> {
    let mut staging = Staging::open(out, guard)?;
    for file in files {
        staging.put(file)?;
    }
    staging.commit()
}

/// A new site written file by file into a staging folder beside the output, so a large
/// portal's pages never need to be in memory at once. Nothing replaces the output until
/// [`Staging::commit`]; dropped without it, the staging folder (ours) is removed.
pub struct Staging {
    out: PathBuf,
    real: PathBuf,
    dir: tempfile::TempDir,
    paths: Vec<String>,
}

impl Staging {
    /// Checks `out` like [`prepare`] and makes the staging folder with its marker.
    pub fn open(out: &Path, guard: &Guard) -> Result<Staging, Error> {
        let real = prepare(out, guard)?;
        let (parent, name) = parent_and_name(&real)?;
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        let dir = tempfile::Builder::new()
            .prefix(&format!(".{name}.new-"))
            .rand_bytes(RANDOM_CHARS)
            .tempdir_in(parent)
            .map_err(|e| {
                format!(
                    "cannot create a staging folder in {}: {e}",
                    parent.display()
                )
            })?;
        // The marker first: a staging folder left by a killed build is then known as ours.
        let marker = dir.path().join(MARKER);
        std::fs::write(&marker, MARKER_TEXT)
            .map_err(|e| format!("cannot write {}: {e}", marker.display()))?;
        Ok(Staging {
            out: out.to_path_buf(),
            real,
            dir,
            paths: Vec::new(),
        })
    }

    /// Writes one file of the new site (its path is site-relative, made by portolan).
    pub fn put(&mut self, file: &OutputFile) -> Result<(), Error> {
        let path = self.dir.path().join(&file.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, &file.bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.paths.push(file.path.clone());
        Ok(())
    }

    /// The site-relative paths written, in order.
    pub fn paths(&self) -> &[String] {
        &self.paths
    }

    /// Moves the new site into place and removes the previous one.
    pub fn commit(self) -> Result<(), Error> {
        let Staging { out, real, dir, .. } = self;
        let (parent, name) = parent_and_name(&real)?;
        let old = if std::fs::symlink_metadata(&real).is_ok() {
            let old = tempfile::Builder::new()
                .prefix(&format!(".{name}.old-"))
                .rand_bytes(RANDOM_CHARS)
                .tempdir_in(parent)
                .map_err(|e| format!("cannot create a folder in {}: {e}", parent.display()))?
                .keep();
            if let Err(e) = std::fs::rename(&real, old.join("site")) {
                let _ = std::fs::remove_dir(&old);
                return Err(format!("cannot move the previous site aside: {e}").into());
            }
            Some(old)
        } else {
            None
        };
        if let Err(e) = std::fs::rename(dir.path(), &real) {
            // Put the previous site back before reporting.
            if let Some(old) = &old
                && std::fs::rename(old.join("site"), &real).is_ok()
            {
                let _ = std::fs::remove_dir(old);
            }
            return Err(format!("cannot move the new site to {}: {e}", out.display()).into());
        }
        // The staging folder was renamed away; dropping its handle would fail harmlessly.
        let _ = dir.keep();
        if let Some(old) = old {
            remove_site(&old.join("site"));
            let _ = std::fs::remove_dir(&old);
        }
        Ok(())
    }
}

fn parent_and_name(real: &Path) -> Result<(&Path, &str), Error> {
    match (real.parent(), real.file_name().and_then(|n| n.to_str())) {
        (Some(parent), Some(name)) => Ok((parent, name)),
        _ => Err(Error::Failed(format!(
            "{} cannot be an output folder: it has no parent or its name is not UTF-8",
            real.display()
        ))),
    }
}

/// What is at the output's real path.
fn inspect(real: &Path) -> Found {
    let meta = match std::fs::symlink_metadata(real) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Found::Absent,
        Err(e) => return Found::Other(format!("something that cannot be inspected ({e})")),
        Ok(meta) => meta,
    };
    let kind = meta.file_type();
    if kind.is_file() {
        Found::File
    } else if kind.is_symlink() {
        // A real path has its links resolved: one that is left points nowhere.
        Found::Other("a symbolic link that points nowhere".into())
    } else if !kind.is_dir() {
        Found::Other("neither a file nor a folder (a FIFO, socket or device)".into())
    } else {
        match std::fs::read_dir(real).map(|mut entries| entries.next().is_none()) {
            Err(e) => Found::Other(format!("a folder that cannot be read ({e})")),
            Ok(true) => Found::EmptyFolder,
            Ok(false) if has_marker(real) => Found::Site,
            Ok(false) => Found::Folder,
        }
    }
}

/// Whether `dir` holds a marker file (a regular file starting with the marker's text).
fn has_marker(dir: &Path) -> bool {
    let path = dir.join(MARKER);
    if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut start = [0u8; MARKER_START.len()];
    std::fs::File::open(&path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok_and(|()| start == MARKER_START.as_bytes())
}

fn marker_time(dir: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(dir.join(MARKER))
        .and_then(|m| m.modified())
        .ok()
}

/// A staging folder a killed build of this output left, proven to be portolan's.
enum Leftover {
    New(PathBuf),
    /// The `.old-` folder, and its `site` folder if it has one.
    Old(PathBuf, Option<PathBuf>),
}

/// The staging folders of output `name` in `parent` that are portolan's (see the module
/// documentation for the rule).
fn leftovers(parent: &Path, name: &str) -> Vec<Leftover> {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    let (new, old) = (format!(".{name}.new-"), format!(".{name}.old-"));
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            continue;
        };
        let path = entry.path();
        if !is_real_dir(&path) {
            continue;
        }
        if staging_suffix(file_name, &new) {
            if is_empty_dir(&path) || has_marker(&path) {
                found.push(Leftover::New(path));
            }
        } else if staging_suffix(file_name, &old) {
            let names: Vec<_> = match std::fs::read_dir(&path) {
                Ok(entries) => entries.flatten().map(|e| e.file_name()).take(2).collect(),
                Err(_) => continue,
            };
            let site = path.join("site");
            match names.as_slice() {
                [] => found.push(Leftover::Old(path, None)),
                [only]
                    if only == "site"
                        && is_real_dir(&site)
                        && (is_empty_dir(&site) || has_marker(&site)) =>
                {
                    found.push(Leftover::Old(path, Some(site)));
                }
                _ => {}
            }
        }
    }
    found
}

/// Whether `file_name` is `prefix` followed by exactly the random part portolan adds.
fn staging_suffix(file_name: &str, prefix: &str) -> bool {
    file_name.strip_prefix(prefix).is_some_and(|random| {
        random.len() == RANDOM_CHARS && random.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

fn is_empty_dir(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|mut entries| entries.next().is_none())
}

/// Deletes a site folder of ours, its marker last, so a deletion cut short still leaves
/// a folder the next build knows as its own. Best effort: what cannot be removed stays.
fn remove_site(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_name() == MARKER {
                continue;
            }
            let path = entry.path();
            // Neither call follows a symbolic link: a link is removed, not its target.
            let _ = if is_real_dir(&path) {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
        }
    }
    let _ = std::fs::remove_file(dir.join(MARKER));
    let _ = std::fs::remove_dir(dir);
}

#[cfg(test)]
mod tests;
