//! Writing one project's model to a file (`portolan analyze PATH --out FILE`), under the
//! rules the site's output has: portolan replaces only what it wrote. The file may be
//! absent or a model written before (a JSON object that starts with `schema_version`, as
//! every model does); anything else — a user's file, the analyzed repository's `go.mod`, a
//! symbolic link, a folder, a pipe — is refused and left as it is. The model is written to
//! a temporary file beside it and renamed over it, so a reader never sees half a model and
//! a link put in its place meanwhile is replaced, not followed.

use std::io::{Read, Write};
use std::path::Path;

/// How much of an existing file is read to tell whether it is a model.
const HEAD_BYTES: u64 = 256;

/// Why a model file may not be written there. Nothing was touched.
#[derive(Debug)]
pub struct Refusal {
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}\n  help: name a new file (or a model portolan wrote before), such as `my-operator.json`",
            self.reason
        )
    }
}

/// Writes `json` to `path` (see the module comment).
pub fn write(path: &Path, json: &str) -> Result<(), Refusal> {
    let refusal = |why: String| Refusal {
        reason: format!("refusing to write the model to {}: {why}", path.display()),
    };
    let refuse = |why: String| Err(refusal(why));
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return refuse(format!("cannot inspect it: {e}")),
        Ok(meta) if meta.file_type().is_symlink() => {
            return refuse("it is a symbolic link, which portolan never writes through".into());
        }
        Ok(meta) if !meta.is_file() => {
            return refuse(format!(
                "it is {}, not a model file",
                files::regular::kind_of(&meta.file_type())
            ));
        }
        Ok(_) if !is_model(path) => {
            return refuse(
                "it exists and is not a model portolan wrote, so replacing it could lose a file of yours".into(),
            );
        }
        Ok(_) => {}
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut staged = tempfile::Builder::new()
        .prefix(".portolan-model-")
        .tempfile_in(parent)
        .map_err(|e| refusal(format!("cannot create a file in {}: {e}", parent.display())))?;
    staged
        .write_all(json.as_bytes())
        .and_then(|_| staged.as_file().sync_all())
        .map_err(|e| refusal(format!("cannot write: {e}")))?;
    staged.persist(path).map(|_| ()).map_err(|e| {
        refusal(format!(
            "cannot move the written model into place: {}",
            e.error
        ))
    })
}

/// Whether the regular file at `path` starts the way every model does.
fn is_model(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(HEAD_BYTES).read_to_end(&mut head).is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    text.trim_start()
        .strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().starts_with("\"schema_version\""))
}

#[cfg(test)]
mod tests;
