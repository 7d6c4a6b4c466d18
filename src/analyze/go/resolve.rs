//! Project-level Go resolution: the package index (modules, packages, declared API groups)
//! and the mapping of each watched Go type to a group/version/kind.
//!
//! **Invariant:** a type whose group cannot be established from the repository, the built-in
//! tables or `[groups]` stays unresolved (`group == "?"`) with a diagnostic; it is never guessed.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::file::{GoFile, ObjectRef, StringValue};
use super::kinds::{builtin_group_version, is_version};
use crate::model::{
    ApiPackage, Area, Controller, Diagnostic, Relation, SourceRef, UNRESOLVED, Watch,
};

/// A Go file's facts plus where it sits in the repository.
pub struct GoInput {
    pub facts: GoFile,
    pub area: Area,
}

/// A `go.mod`: the folder it sits in (repository-relative, "" for the root) and its module path.
#[derive(Debug, Clone)]
pub struct GoModule {
    pub dir: String,
    pub path: String,
}

/// The `module` line of a go.mod file.
pub fn module_path(go_mod: &str) -> Option<String> {
    go_mod.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("module")?;
        if !rest.starts_with([' ', '\t']) {
            return None;
        }
        let path = rest.trim().trim_matches('"');
        (!path.is_empty()).then(|| path.to_string())
    })
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// Everything the resolver knows about the repository's packages.
struct PackageIndex {
    /// Package folder → import path.
    import_paths: HashMap<String, String>,
    /// Import path → declared package name, for in-repo packages.
    names: HashMap<String, String>,
    /// Import path → (group, version) declared by the package.
    group_versions: HashMap<String, (String, String)>,
}

impl PackageIndex {
    fn build(files: &[GoInput], modules: &[GoModule], diagnostics: &mut Vec<Diagnostic>) -> Self {
        let mut by_dir: BTreeMap<&str, Vec<&GoFile>> = BTreeMap::new();
        for f in files {
            by_dir
                .entry(dir_of(&f.facts.path))
                .or_default()
                .push(&f.facts);
        }
        let mut index = PackageIndex {
            import_paths: HashMap::new(),
            names: HashMap::new(),
            group_versions: HashMap::new(),
        };
        for (dir, pkg_files) in by_dir {
            let Some(import_path) = import_path_of(dir, modules) else {
                continue;
            };
            index
                .import_paths
                .insert(dir.to_string(), import_path.clone());
            if let Some(first) = pkg_files.iter().find(|f| !f.package.is_empty()) {
                index
                    .names
                    .insert(import_path.clone(), first.package.clone());
            }
            let consts: HashMap<&str, &str> = pkg_files
                .iter()
                .flat_map(|f| {
                    f.string_consts
                        .iter()
                        .map(|(k, v)| (k.as_str(), v.as_str()))
                })
                .collect();
            let value = |v: &StringValue| match v {
                StringValue::Literal(s) => Some(s.clone()),
                StringValue::Const(name) => consts.get(name.as_str()).map(|s| s.to_string()),
            };
            let mut declared = BTreeSet::new();
            for f in &pkg_files {
                for gv in &f.group_versions {
                    match (value(&gv.group), value(&gv.version)) {
                        (Some(g), Some(v)) => {
                            declared.insert((g, v));
                        }
                        _ => diagnostics.push(Diagnostic::new(
                            &f.path,
                            gv.line,
                            "cannot read this GroupVersion: its group or version is not a constant of the package",
                        )),
                    }
                }
            }
            if declared.is_empty() {
                // A `+groupName=` marker names the group; the folder names the version.
                let marker = pkg_files.iter().find_map(|f| f.group_name_marker.clone());
                let version = dir.rsplit('/').next().unwrap_or("");
                if let Some(group) = marker {
                    if is_version(version) {
                        declared.insert((group, version.to_string()));
                    }
                }
            }
            match declared.len() {
                0 => {}
                1 => {
                    let gv = declared.into_iter().next().unwrap_or_default();
                    index.group_versions.insert(import_path, gv);
                }
                _ => diagnostics.push(Diagnostic::new(
                    &pkg_files[0].path,
                    0,
                    format!(
                        "package {import_path} declares several API group/versions ({}); its kinds stay unresolved",
                        declared.iter().map(|(g, v)| format!("{g}/{v}")).collect::<Vec<_>>().join(", ")
                    ),
                )),
            }
        }
        index
    }
}

/// The import path of a package folder: the nearest enclosing module plus the relative folder.
fn import_path_of(dir: &str, modules: &[GoModule]) -> Option<String> {
    modules
        .iter()
        .filter(|m| m.dir.is_empty() || dir == m.dir || dir.starts_with(&format!("{}/", m.dir)))
        .max_by_key(|m| m.dir.len())
        .map(|m| {
            let rel = if m.dir.is_empty() {
                dir
            } else {
                dir[m.dir.len()..].trim_start_matches('/')
            };
            if rel.is_empty() {
                m.path.clone()
            } else {
                format!("{}/{rel}", m.path)
            }
        })
}

/// Resolves every controller chain of the project to model controllers; also returns the
/// project's own API packages.
pub fn resolve(
    files: &[GoInput],
    modules: &[GoModule],
    groups: &BTreeMap<String, String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Controller>, Vec<ApiPackage>) {
    let index = PackageIndex::build(files, modules, diagnostics);
    let mut api_packages: Vec<ApiPackage> = index
        .group_versions
        .iter()
        .map(|(path, (g, v))| ApiPackage {
            import_path: path.clone(),
            group: g.clone(),
            version: v.clone(),
        })
        .collect();
    api_packages.sort();
    let mut controllers = Vec::new();
    for input in files {
        let file = &input.facts;
        for chain in &file.controllers {
            let mut watches: Vec<Watch> = Vec::new();
            for raw in &chain.watches {
                let (group, version, kind, import_path) = match &raw.object {
                    ObjectRef::Type { qualifier, name } => {
                        match resolve_type(file, qualifier.as_deref(), &index, groups) {
                            Ok((g, v)) => (g, v, name.clone(), None),
                            Err(path) => {
                                diagnostics.push(Diagnostic::new(
                                    &file.path,
                                    raw.line,
                                    format!(
                                        "cannot resolve the API group of {}.{name}; map its import path under [groups] in projects.toml",
                                        path.as_deref().unwrap_or(qualifier.as_deref().unwrap_or("?"))
                                    ),
                                ));
                                (UNRESOLVED.into(), UNRESOLVED.into(), name.clone(), path)
                            }
                        }
                    }
                    // The diagnostic was already written when the chain was read.
                    ObjectRef::Unknown(_) => (
                        UNRESOLVED.into(),
                        UNRESOLVED.into(),
                        UNRESOLVED.into(),
                        None,
                    ),
                };
                watches.push(Watch {
                    relation: raw.relation,
                    group,
                    version,
                    kind,
                    conditional: raw.conditional,
                    import_path,
                    sources: vec![SourceRef::new(&file.path, raw.line)],
                });
            }
            let for_kind = watches
                .iter()
                .find(|w| w.relation == Relation::For)
                .map(|w| w.kind.to_lowercase());
            let reconciler = chain.reconciler.clone().unwrap_or_default();
            // controller-runtime names a controller after Named(…), else after its For kind.
            let name = chain
                .name
                .clone()
                .or(for_kind.filter(|k| k != UNRESOLVED))
                .unwrap_or_else(|| {
                    if reconciler.is_empty() {
                        format!("{}:{}", file.path, chain.line)
                    } else {
                        reconciler.clone()
                    }
                });
            controllers.push(Controller {
                name,
                reconciler,
                area: input.area,
                sources: vec![SourceRef::new(&file.path, chain.line)],
                watches,
                operations: Vec::new(),
            });
        }
    }
    (controllers, api_packages)
}

/// The (group, version) of a type named in `file`, or Err(import path) when unknown.
fn resolve_type(
    file: &GoFile,
    qualifier: Option<&str>,
    index: &PackageIndex,
    groups: &BTreeMap<String, String>,
) -> Result<(String, String), Option<String>> {
    let import_path = match qualifier {
        None => index.import_paths.get(dir_of(&file.path)).cloned(),
        Some(q) => file
            .imports
            .iter()
            .find(|imp| match &imp.alias {
                Some(alias) => alias == q,
                None => default_package_name(&imp.path, index)
                    .iter()
                    .any(|n| n == q),
            })
            .map(|imp| imp.path.clone()),
    };
    let Some(import_path) = import_path else {
        return Err(None);
    };
    if let Some(gv) = groups.get(&import_path) {
        return Ok(match gv.split_once('/') {
            Some((g, v)) => (g.to_string(), v.to_string()),
            None => (String::new(), gv.clone()),
        });
    }
    if let Some(gv) = index.group_versions.get(&import_path) {
        return Ok(gv.clone());
    }
    builtin_group_version(&import_path).ok_or(Some(import_path))
}

/// The names an unaliased import may be referred to by: the declared name for in-repo
/// packages; otherwise the last path element, or the one before a `/vN` major-version suffix.
fn default_package_name(import_path: &str, index: &PackageIndex) -> Vec<String> {
    if let Some(name) = index.names.get(import_path) {
        return vec![name.clone()];
    }
    let mut parts = import_path.rsplit('/');
    let last = parts.next().unwrap_or(import_path);
    let mut names = vec![last.to_string()];
    if last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit()) {
        if let Some(prev) = parts.next() {
            names.push(prev.to_string());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_line() {
        assert_eq!(
            module_path("// c\nmodule github.com/a/b\n\ngo 1.22\n").as_deref(),
            Some("github.com/a/b")
        );
        assert_eq!(module_path("modulex foo\n"), None);
    }

    #[test]
    fn import_paths_use_the_nearest_module() {
        let modules = vec![
            GoModule {
                dir: String::new(),
                path: "example.com/root".into(),
            },
            GoModule {
                dir: "tools".into(),
                path: "example.com/tools".into(),
            },
        ];
        assert_eq!(
            import_path_of("api/v1", &modules).as_deref(),
            Some("example.com/root/api/v1")
        );
        assert_eq!(
            import_path_of("", &modules).as_deref(),
            Some("example.com/root")
        );
        assert_eq!(
            import_path_of("tools/gen", &modules).as_deref(),
            Some("example.com/tools/gen")
        );
        assert_eq!(
            import_path_of("toolsx", &modules).as_deref(),
            Some("example.com/root/toolsx")
        );
        assert_eq!(import_path_of("x", &[]), None);
    }
}
