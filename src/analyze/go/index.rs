//! The project-level Go index: modules, packages, imports, constants and the API
//! group/version each package declares. Every feature resolves its raw facts through it.
//!
//! **Invariant:** a type or constant that cannot be established from the repository, the
//! built-in tables or `[groups]` stays unresolved; the index never guesses.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::consts::ConstExpr;
use super::file::GoFile;
use super::kinds::{builtin_group_version, is_version};
use super::syntax::ObjectRef;
use crate::model::{ApiPackage, Area, Diagnostic, UNRESOLVED};

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
    /// The `sigs.k8s.io/controller-runtime` version it requires, when known.
    pub controller_runtime: Option<String>,
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

pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// A resolved (or explicitly unresolved) kind.
#[derive(Debug, Clone, PartialEq)]
pub struct KindRef {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// For an unresolved kind: the Go import path it came from, when known.
    pub import_path: Option<String>,
}

/// The package of `Unstructured`, whose objects get their kind at run time.
const UNSTRUCTURED: &str = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured";

/// Constant evaluation stops after this many nested references (cycles, absurd chains).
const MAX_CONST_DEPTH: usize = 32;

pub struct GoIndex<'a> {
    pub files: &'a [GoInput],
    /// Package folder → import path.
    import_paths: HashMap<String, String>,
    /// Import path → package folder, for in-repo packages.
    dirs: HashMap<String, String>,
    /// Import path → declared package name, for in-repo packages.
    names: HashMap<String, String>,
    /// Import path → (group, version) declared by the package.
    group_versions: HashMap<String, (String, String)>,
    /// (import path, name) → (expression, index of the declaring file).
    consts: HashMap<(String, String), (&'a ConstExpr, usize)>,
    groups: &'a BTreeMap<String, String>,
}

impl<'a> GoIndex<'a> {
    pub fn build(
        files: &'a [GoInput],
        modules: &[GoModule],
        groups: &'a BTreeMap<String, String>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Self {
        let mut index = GoIndex {
            files,
            import_paths: HashMap::new(),
            dirs: HashMap::new(),
            names: HashMap::new(),
            group_versions: HashMap::new(),
            consts: HashMap::new(),
            groups,
        };
        let mut by_dir: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, f) in files.iter().enumerate() {
            by_dir.entry(dir_of(&f.facts.path)).or_default().push(i);
        }
        for (dir, members) in &by_dir {
            let Some(import_path) = import_path_of(dir, modules) else {
                continue;
            };
            index
                .import_paths
                .insert(dir.to_string(), import_path.clone());
            index.dirs.insert(import_path.clone(), dir.to_string());
            if let Some(first) = members
                .iter()
                .map(|&i| &files[i].facts)
                .find(|f| !f.package.is_empty())
            {
                index
                    .names
                    .insert(import_path.clone(), first.package.clone());
            }
            for &i in members {
                for (name, expr) in &files[i].facts.consts {
                    index
                        .consts
                        .entry((import_path.clone(), name.clone()))
                        .or_insert((expr, i));
                }
            }
        }
        for (dir, members) in &by_dir {
            let Some(import_path) = index.import_paths.get(*dir).cloned() else {
                continue;
            };
            let mut declared = BTreeSet::new();
            for &i in members {
                let f = &files[i].facts;
                for gv in &f.group_versions {
                    match (index.eval(f, &gv.group), index.eval(f, &gv.version)) {
                        (Some(g), Some(v)) => {
                            declared.insert((g, v));
                        }
                        _ => diagnostics.push(Diagnostic::new(
                            &f.path,
                            gv.line,
                            "cannot read this GroupVersion: its group or version is not a string constant",
                        )),
                    }
                }
            }
            if declared.is_empty() {
                // A `+groupName=` marker names the group; the folder names the version.
                let marker = members
                    .iter()
                    .find_map(|&i| files[i].facts.group_name_marker.clone());
                let version = dir.rsplit('/').next().unwrap_or("");
                if let Some(group) = marker
                    && is_version(version)
                {
                    declared.insert((group, version.to_string()));
                }
            }
            if declared.len() > 1 {
                diagnostics.push(Diagnostic::new(
                    &files[members[0]].facts.path,
                    0,
                    format!(
                        "package {import_path} declares several API group/versions ({}); its kinds stay unresolved",
                        declared.iter().map(|(g, v)| format!("{g}/{v}")).collect::<Vec<_>>().join(", ")
                    ),
                ));
            } else if let Some(gv) = declared.into_iter().next() {
                index.group_versions.insert(import_path, gv);
            }
        }
        index
    }

    /// The import path of the package a file belongs to.
    pub fn package_of(&self, file: &GoFile) -> Option<&str> {
        self.import_paths
            .get(dir_of(&file.path))
            .map(String::as_str)
    }

    /// The folder of an in-repo package.
    pub fn dir_of_import(&self, import_path: &str) -> Option<&str> {
        self.dirs.get(import_path).map(String::as_str)
    }

    /// The import path a qualifier (`corev1` in `corev1.Pod`) names in `file`.
    pub fn import_for(&self, file: &GoFile, qualifier: &str) -> Option<String> {
        file.imports
            .iter()
            .find(|imp| match &imp.alias {
                Some(alias) => alias == qualifier,
                None => self
                    .default_package_names(&imp.path)
                    .contains(&Some(qualifier)),
            })
            .map(|imp| imp.path.clone())
    }

    /// The names an unaliased import may be referred to by: the declared name for in-repo
    /// packages; otherwise the last path element, or the one before a `/vN` major version.
    fn default_package_names<'s>(&'s self, import_path: &'s str) -> [Option<&'s str>; 2] {
        if let Some(name) = self.names.get(import_path) {
            return [Some(name.as_str()), None];
        }
        let mut parts = import_path.rsplit('/');
        let last = parts.next().unwrap_or(import_path);
        let major_version = last.len() > 1
            && last.starts_with('v')
            && last[1..].chars().all(|c| c.is_ascii_digit());
        [Some(last), if major_version { parts.next() } else { None }]
    }

    /// The (group, version) a Go package serves: `[groups]`, then the repository's own
    /// declarations, then the built-in tables.
    pub fn group_version(&self, import_path: &str) -> Option<(String, String)> {
        if let Some(gv) = self.groups.get(import_path) {
            return Some(match gv.split_once('/') {
                Some((g, v)) => (g.to_string(), v.to_string()),
                None => (String::new(), gv.clone()),
            });
        }
        if let Some(gv) = self.group_versions.get(import_path) {
            return Some(gv.clone());
        }
        builtin_group_version(import_path)
    }

    /// The import path a type reference points at: its qualifier's import, or the file's
    /// own package when unqualified.
    pub fn type_package(&self, file: &GoFile, qualifier: Option<&str>) -> Option<String> {
        match qualifier {
            None => self.package_of(file).map(str::to_string),
            Some(q) => self.import_for(file, q),
        }
    }

    /// The value of a string expression written in `file`, if every part is known.
    pub fn eval(&self, file: &GoFile, expr: &ConstExpr) -> Option<String> {
        self.eval_depth(file, expr, 0)
    }

    fn eval_depth(&self, file: &GoFile, expr: &ConstExpr, depth: usize) -> Option<String> {
        if depth > MAX_CONST_DEPTH {
            return None;
        }
        match expr {
            ConstExpr::Str(s) => Some(s.clone()),
            ConstExpr::Concat(parts) => {
                let mut out = String::new();
                for p in parts {
                    out.push_str(&self.eval_depth(file, p, depth + 1)?);
                }
                Some(out)
            }
            ConstExpr::Ref { qualifier, name } => {
                let package = self.type_package(file, qualifier.as_deref())?;
                let (expr, at) = self.consts.get(&(package, name.clone()))?;
                self.eval_depth(&self.files[*at].facts, expr, depth + 1)
            }
        }
    }

    /// The group/version/kind of a watched or written object. Unresolvable types give
    /// `?` (with the import path when known) and a diagnostic.
    pub fn resolve_object(
        &self,
        file: &GoFile,
        object: &ObjectRef,
        line: u32,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> KindRef {
        let unresolved = |kind: &str, import_path: Option<String>| KindRef {
            group: UNRESOLVED.into(),
            version: UNRESOLVED.into(),
            kind: kind.to_string(),
            import_path,
        };
        match object {
            ObjectRef::Type { qualifier, name } => {
                let mut package = self.type_package(file, qualifier.as_deref());
                let own = package.as_deref().and_then(|p| self.group_version(p));
                if qualifier.is_none() && own.is_none() {
                    // An unqualified type may come from a dot import (`. "k8s.io/api/core/v1"`);
                    // it is used only when exactly one dot import is an API package.
                    let dotted: Vec<&str> = file
                        .imports
                        .iter()
                        .filter(|i| i.alias.as_deref() == Some("."))
                        .map(|i| i.path.as_str())
                        .filter(|p| self.group_version(p).is_some())
                        .collect();
                    if let [only] = dotted[..] {
                        package = Some(only.to_string());
                    }
                }
                match package.as_deref().and_then(|p| self.group_version(p)) {
                    Some((group, version)) => KindRef {
                        group,
                        version,
                        kind: name.clone(),
                        import_path: None,
                    },
                    None => {
                        let shown = package
                            .clone()
                            .or_else(|| qualifier.clone())
                            .unwrap_or_default();
                        let message = if package.as_deref() == Some(UNSTRUCTURED) {
                            format!(
                                "{name} is unstructured: its kind is chosen at run time, not in the code"
                            )
                        } else {
                            format!(
                                "cannot resolve the API group of {shown}.{name}; map its import path under [groups] in projects.toml"
                            )
                        };
                        diagnostics.push(Diagnostic::new(&file.path, line, message));
                        unresolved(name, package)
                    }
                }
            }
            // Whoever recorded an Unknown object already explained why.
            ObjectRef::Unknown(_) => unresolved(UNRESOLVED, None),
        }
    }

    /// The project's own API packages, for cross-project linking.
    pub fn api_packages(&self) -> Vec<ApiPackage> {
        let mut out: Vec<ApiPackage> = self
            .group_versions
            .iter()
            .map(|(path, (g, v))| ApiPackage {
                import_path: path.clone(),
                group: g.clone(),
                version: v.clone(),
            })
            .collect();
        out.sort();
        out
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::go::file::extract;

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
                controller_runtime: None,
            },
            GoModule {
                dir: "tools".into(),
                path: "example.com/tools".into(),
                controller_runtime: None,
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

    fn input(path: &str, src: &str) -> GoInput {
        GoInput {
            facts: extract(path, src),
            area: Area::Component,
        }
    }

    #[test]
    fn dot_imported_api_types_resolve() {
        let files = vec![input(
            "c/a.go",
            "package c\nimport . \"k8s.io/api/core/v1\"\nimport _ \"example.com/blank\"\n",
        )];
        let modules = vec![GoModule {
            dir: String::new(),
            path: "example.com/m".into(),
            controller_runtime: None,
        }];
        let groups = BTreeMap::new();
        let mut diags = Vec::new();
        let index = GoIndex::build(&files, &modules, &groups, &mut diags);
        let pod = ObjectRef::Type {
            qualifier: None,
            name: "Pod".into(),
        };
        let k = index.resolve_object(&files[0].facts, &pod, 3, &mut diags);
        assert_eq!(
            (k.group.as_str(), k.version.as_str(), k.kind.as_str()),
            ("", "v1", "Pod")
        );
        assert!(diags.is_empty());
    }

    #[test]
    fn constants_resolve_across_files_and_packages_and_cycles_stop() {
        let files = vec![
            input(
                "api/paths.go",
                "package api\nconst Prefix = \"/v1\"\nconst Loop = Loop2\nconst Loop2 = Loop\n",
            ),
            input(
                "proxy/a.go",
                "package proxy\nimport \"example.com/m/api\"\nconst Chat = api.Prefix + Suffix\n",
            ),
            input(
                "proxy/b.go",
                "package proxy\nvar Suffix = \"/chat/completions\"\n",
            ),
            input(
                "api/v1/gv.go",
                "package v1\nconst GroupName = \"example.io\"\nvar GroupVersion = schema.GroupVersion{Group: GroupName, Version: \"v1\"}\n",
            ),
        ];
        let modules = vec![GoModule {
            dir: String::new(),
            path: "example.com/m".into(),
            controller_runtime: None,
        }];
        let groups = BTreeMap::new();
        let mut diags = Vec::new();
        let index = GoIndex::build(&files, &modules, &groups, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        let chat = ConstExpr::Ref {
            qualifier: None,
            name: "Chat".into(),
        };
        assert_eq!(
            index.eval(&files[2].facts, &chat).as_deref(),
            Some("/v1/chat/completions")
        );
        let looped = ConstExpr::Ref {
            qualifier: None,
            name: "Loop".into(),
        };
        assert_eq!(index.eval(&files[0].facts, &looped), None);
        assert_eq!(
            index.group_version("example.com/m/api/v1"),
            Some(("example.io".into(), "v1".into()))
        );
        assert_eq!(
            index.group_version("k8s.io/api/apps/v1"),
            Some(("apps".into(), "v1".into()))
        );
        assert_eq!(index.group_version("example.com/m/api"), None);
    }
}
