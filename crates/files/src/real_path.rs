//! Paths as the file system resolves them, for comparing folders that may not exist yet.
//!
//! Stage: leaf. `config` asks whether the content and theme folders lie inside the folder
//! of projects.toml; `output` asks whether the output is one of the folders it must never
//! replace. Both compare what [`real_path`] gives, so a symbolic link or a `..` cannot make
//! one folder pass for another.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute with its longest existing prefix canonicalized (symbolic links
/// resolved, as the kernel would) and the components after that prefix appended, `.`
/// dropped and `..` removing the last one: those name nothing yet, so no link can
/// redirect them, and a folder made for them later resolves the same way.
pub fn real_path(path: &Path) -> std::io::Result<PathBuf> {
    let absolute = std::path::absolute(path)?;
    let components: Vec<Component> = absolute.components().collect();
    for existing in (1..=components.len()).rev() {
        let prefix: PathBuf = components[..existing].iter().collect();
        let Ok(mut real) = std::fs::canonicalize(&prefix) else {
            continue;
        };
        for component in &components[existing..] {
            match component {
                Component::Normal(name) => real.push(name),
                Component::ParentDir => {
                    real.pop();
                }
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        return Ok(real);
    }
    // Not even the root could be canonicalized: compare the absolute path as written.
    Ok(absolute)
}

#[cfg(test)]
mod tests;
