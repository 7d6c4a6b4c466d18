//! Writing the site: into a temporary folder beside the output, then swapped in, so a
//! failed build leaves the previous site untouched.
//!
//! Stage: output. The only code that writes the site to disk.

use std::path::Path;

use crate::render::OutputFile;

/// Replaces `out` with exactly `files`.
pub fn write_site(out: &Path, files: &[OutputFile]) -> Result<(), String> {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "site".into());
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-"))
        .tempdir_in(&parent)
        .map_err(|e| {
            format!(
                "cannot create a staging folder in {}: {e}",
                parent.display()
            )
        })?;
    for file in files {
        let path = staging.path().join(&file.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, &file.bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let old = if out.exists() {
        let old = tempfile::Builder::new()
            .prefix(&format!(".{name}.old-"))
            .tempdir_in(&parent)
            .map_err(|e| format!("cannot create a folder in {}: {e}", parent.display()))?;
        let old_path = old.path().join("site");
        std::fs::rename(out, &old_path)
            .map_err(|e| format!("cannot move the previous site aside: {e}"))?;
        Some((old, old_path))
    } else {
        None
    };
    if let Err(e) = std::fs::rename(staging.path(), out) {
        // Put the previous site back before reporting.
        if let Some((_, old_path)) = &old {
            let _ = std::fs::rename(old_path, out);
        }
        return Err(format!(
            "cannot move the new site to {}: {e}",
            out.display()
        ));
    }
    // The staging folder was renamed away; dropping its handle would fail harmlessly.
    let _ = staging.keep();
    drop(old); // removes the previous site
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_whole_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let f = |p: &str, b: &str| OutputFile {
            path: p.into(),
            bytes: b.as_bytes().to_vec(),
        };
        write_site(&out, &[f("a/index.html", "1"), f("stale.txt", "x")]).unwrap();
        write_site(&out, &[f("a/index.html", "2")]).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("a/index.html")).unwrap(),
            "2"
        );
        assert!(!out.join("stale.txt").exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("site")]);
    }
}
