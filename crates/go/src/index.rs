//! The project-level Go index: modules, packages, imports, constants and the API
//! group/version each package declares. Every feature resolves its raw facts through it.
//!
//! **Invariant:** a type or constant that cannot be established from the repository, the
//! built-in tables or `[groups]` stays unresolved; the index never guesses.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::consts::{ConstExpr, Constant};
use super::facts::GoFile;
use super::kinds::{Shipped, ShippedCrds};
use super::syntax::ObjectRef;
use kubernetes::go_packages::builtin_group_version;
use kubernetes::is_version;
use model::{ApiPackage, Area, Diagnostic, UNRESOLVED};

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

/// Constant evaluation follows at most this many references in a row (cycles, absurd chains).
const MAX_CONST_DEPTH: usize = 32;
/// The longest string constant evaluated: far above any name, path or help text; a longer
/// one stays unknown, with a diagnostic at its declaration (15 levels of `A = B + B + B + B`
/// would otherwise be a gigabyte).
pub const MAX_CONST_LEN: usize = 64 * 1024;
/// The work constant evaluation may do for one project: a unit per part looked at and per
/// byte of value produced. Every evaluation is charged (the same constant used at a million
/// call sites is a million copies), so time and memory stay bounded whatever the code.
const MAX_CONST_WORK: u64 = 16 * 1024 * 1024;

/// Why a string expression has no value.
#[derive(Debug, Clone, Copy, PartialEq)]
enum NoValue {
    /// A part is not a known string constant.
    Unknown,
    /// More than `MAX_CONST_DEPTH` references in a row.
    TooDeep,
    /// Longer than `MAX_CONST_LEN`; `here` when this expression's own concatenation crossed it.
    TooLong { here: bool },
    /// The project's `MAX_CONST_WORK` is spent.
    Spent,
}

/// A constant evaluated once: its value and how many references deep its evaluation went.
#[derive(Debug, Clone)]
enum Memo {
    Value(Arc<str>, usize),
    TooLong,
}

/// Evaluation state of one project's constants, shared by the features resolving at once.
/// Values do not depend on which feature asks first; only where a project that exhausts
/// `MAX_CONST_WORK` runs out can.
#[derive(Default)]
struct ConstState {
    memo: Mutex<HashMap<(String, String), Memo>>,
    work: AtomicU64,
    diagnostics: Mutex<Vec<Diagnostic>>,
}

/// The value behind a mutex, also when a panicking thread poisoned it (the guarded data
/// stays consistent: each update is one insert or push).
fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

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
    /// Group/versions declared by API packages of vendored modules: they resolve the
    /// modules' types but are not the project's API packages.
    vendored_group_versions: HashMap<String, (String, String)>,
    /// (import path, name) → (constant, index of the declaring file).
    consts: HashMap<(String, String), (&'a Constant, usize)>,
    groups: &'a BTreeMap<String, String>,
    /// CRD manifests of the repository, for types no table or declaration resolves.
    shipped: ShippedCrds,
    evaluated: ConstState,
    /// (import path, name) of the interfaces in-repo API packages declare: never kinds.
    api_interfaces: HashSet<(String, String)>,
    /// (import path, type) → the kind the package registers the type as, where that is
    /// not the type's name (`AddKnownTypeWithName`).
    kind_names: HashMap<(String, String), String>,
    /// Per file (by path), what each name an import may be referred to by stands for, the
    /// first import giving the name winning (as Go would reject two).
    qualifiers: HashMap<String, HashMap<String, String>>,
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
            vendored_group_versions: HashMap::new(),
            consts: HashMap::new(),
            groups,
            shipped: ShippedCrds::default(),
            evaluated: ConstState::default(),
            api_interfaces: HashSet::new(),
            kind_names: HashMap::new(),
            qualifiers: HashMap::new(),
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
                for constant in &files[i].facts.consts {
                    index
                        .consts
                        .entry((import_path.clone(), constant.name.clone()))
                        .or_insert((constant, i));
                }
            }
        }
        for (dir, members) in &by_dir {
            let Some(import_path) = index.import_paths.get(*dir).cloned() else {
                continue;
            };
            let mut declared = BTreeSet::new();
            let vendored = members.iter().all(|&i| files[i].facts.vendored);
            for &i in members {
                let f = &files[i].facts;
                for gv in &f.group_versions {
                    match (index.eval(f, &gv.group), index.eval(f, &gv.version)) {
                        (Some(g), Some(v)) => {
                            declared.insert((g, v));
                        }
                        _ if vendored => {}
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
            if vendored {
                // One declared group/version, or none said: a module's API package is
                // only ever a way to resolve its types.
                if let (Some(gv), 1) = (declared.iter().next(), declared.len()) {
                    index
                        .vendored_group_versions
                        .insert(import_path, gv.clone());
                }
            } else if declared.len() > 1 {
                diagnostics.push(Diagnostic::new(
                    &files[members[0]].facts.path,
                    0,
                    format!(
                        "package {import_path} declares several API group/versions ({}); its kinds stay unresolved",
                        declared.iter().map(|(g, v)| format!("{g}/{v}")).collect::<Vec<_>>().join(", ")
                    ),
                ));
            } else if let Some(gv) = declared.into_iter().next() {
                for &i in members {
                    for d in &files[i].facts.interfaces {
                        index
                            .api_interfaces
                            .insert((import_path.clone(), d.name.clone()));
                    }
                }
                index.group_versions.insert(import_path, gv);
            }
        }
        index.kind_names = index.registered_kind_names();
        index.qualifiers = index.import_qualifiers();
        index
    }

    /// Each file's import names, once: `import_for` is asked for every selector the
    /// features follow.
    fn import_qualifiers(&self) -> HashMap<String, HashMap<String, String>> {
        let mut out = HashMap::new();
        for input in self.files {
            let file = &input.facts;
            let mut names: HashMap<String, String> = HashMap::new();
            for imp in &file.imports {
                let candidates = match &imp.alias {
                    Some(alias) => [Some(alias.as_str()), None, None],
                    None => self.default_package_names(&imp.path),
                };
                for name in candidates.into_iter().flatten() {
                    names
                        .entry(name.to_string())
                        .or_insert_with(|| imp.path.clone());
                }
            }
            out.insert(file.path.clone(), names);
        }
        out
    }

    /// The kinds types are registered as under names of their own, by package.
    fn registered_kind_names(&self) -> HashMap<(String, String), String> {
        let mut out = HashMap::new();
        for input in self.files {
            let file = &input.facts;
            if file.kind_names.is_empty() {
                continue;
            }
            let Some(package) = self.import_paths.get(dir_of(&file.path)) else {
                continue;
            };
            for (ty, kind) in &file.kind_names {
                if let Some(kind) = self.eval(file, kind) {
                    out.insert((package.clone(), ty.clone()), kind);
                }
            }
        }
        out
    }

    /// The kind type `name` of package `import_path` is served as: the name it is
    /// registered under, else its own.
    pub fn kind_name(&self, import_path: &str, name: &str) -> String {
        self.kind_names
            .get(&(import_path.to_string(), name.to_string()))
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    /// Lets types of packages without a known group resolve through the CRDs the
    /// repository ships.
    pub fn with_shipped_crds(mut self, shipped: ShippedCrds) -> Self {
        self.shipped = shipped;
        self
    }

    /// The kind of resource `plural` of `group` among the CRDs the repository ships.
    pub fn shipped_resource_kind(&self, group: &str, plural: &str) -> Option<String> {
        self.shipped
            .kind_of_resource(group, plural)
            .map(str::to_string)
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
        if let Some(names) = self.qualifiers.get(&file.path) {
            return names.get(qualifier).cloned();
        }
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
    /// packages; otherwise the last path element, or the one before a `/vN` major version,
    /// and the name goimports assumes from it (a `go-` prefix dropped, cut at the first
    /// character that cannot be in an identifier: `go-restful` → `restful`).
    fn default_package_names<'s>(&'s self, import_path: &'s str) -> [Option<&'s str>; 3] {
        if let Some(name) = self.names.get(import_path) {
            return [Some(name.as_str()), None, None];
        }
        let mut parts = import_path.rsplit('/');
        let last = parts.next().unwrap_or(import_path);
        let major_version = last.len() > 1
            && last.starts_with('v')
            && last[1..].chars().all(|c| c.is_ascii_digit());
        let parent = if major_version { parts.next() } else { None };
        let assumed = parent.unwrap_or(last);
        let assumed = assumed.strip_prefix("go-").unwrap_or(assumed);
        let end = assumed
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(assumed.len());
        let assumed =
            Some(&assumed[..end]).filter(|a| !a.is_empty() && Some(*a) != parent && *a != last);
        [Some(last), parent, assumed]
    }

    /// The (group, version) a Go package serves: `[groups]`, then the repository's own
    /// declarations, then the built-in tables.
    /// The group and version each in-repo API package declares, by import path.
    pub fn group_versions(&self) -> impl Iterator<Item = (&String, &(String, String))> {
        self.group_versions.iter()
    }

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
            .or_else(|| self.vendored_group_versions.get(import_path).cloned())
    }

    /// The repository folder of the package a reference written in `file` points at: the
    /// file's own folder when unqualified, an in-repo import's folder when qualified; None
    /// for a package outside the repository.
    pub fn package_dir(&self, file: &GoFile, qualifier: Option<&str>) -> Option<String> {
        match qualifier {
            None => Some(dir_of(&file.path).to_string()),
            Some(q) => self
                .import_for(file, q)
                .and_then(|i| self.dir_of_import(&i).map(str::to_string)),
        }
    }

    /// The import path a type reference points at: its qualifier's import, or the file's
    /// own package when unqualified.
    pub fn type_package(&self, file: &GoFile, qualifier: Option<&str>) -> Option<String> {
        match qualifier {
            None => self.package_of(file).map(str::to_string),
            Some(q) => self.import_for(file, q),
        }
    }

    /// The value of a string expression written in `file`, if every part is known and the
    /// bounds (`MAX_CONST_DEPTH`, `MAX_CONST_LEN`, `MAX_CONST_WORK`) allow it.
    pub fn eval(&self, file: &GoFile, expr: &ConstExpr) -> Option<String> {
        self.eval_expr(file, 0, expr, 0)
            .ok()
            .map(|(value, _)| value)
    }

    /// Diagnostics of constant evaluation so far: constants too long to evaluate, and the
    /// project's evaluation budget running out.
    pub fn take_const_diagnostics(&self) -> Vec<Diagnostic> {
        let mut diagnostics = std::mem::take(&mut *locked(&self.evaluated.diagnostics));
        // Features evaluate in parallel: the order they were found in is not meaningful.
        diagnostics
            .sort_by(|a, b| (&a.file, a.line, &a.message).cmp(&(&b.file, b.line, &b.message)));
        diagnostics
    }

    /// `expr` (written in `file` at `line`, 0 when unknown) evaluated `depth` references
    /// deep: its value and how many references deeper its evaluation went.
    fn eval_expr(
        &self,
        file: &GoFile,
        line: u32,
        expr: &ConstExpr,
        depth: usize,
    ) -> Result<(String, usize), NoValue> {
        let parts = match expr {
            ConstExpr::Concat(parts) => parts.as_slice(),
            single => std::slice::from_ref(single),
        };
        let mut out = String::new();
        let mut height = 0;
        for part in parts {
            self.charge(file, line, 1)?;
            let referenced;
            let value: &str = match part {
                ConstExpr::Str(s) => s,
                ConstExpr::Ref { qualifier, name } => {
                    let package = self
                        .type_package(file, qualifier.as_deref())
                        .ok_or(NoValue::Unknown)?;
                    let (value, h) = self.eval_ref(package, name, depth + 1)?;
                    height = height.max(h + 1);
                    referenced = value;
                    &referenced
                }
                // `const_expr` flattens concatenations.
                ConstExpr::Concat(_) => return Err(NoValue::Unknown),
            };
            if out.len() + value.len() > MAX_CONST_LEN {
                return Err(NoValue::TooLong { here: true });
            }
            self.charge(file, line, value.len())?;
            out.push_str(value);
        }
        Ok((out, height))
    }

    /// The constant `name` of `package`, reached `depth` references deep: evaluated once,
    /// then remembered with the depth its evaluation needs.
    fn eval_ref(
        &self,
        package: String,
        name: &str,
        depth: usize,
    ) -> Result<(Arc<str>, usize), NoValue> {
        if depth > MAX_CONST_DEPTH {
            return Err(NoValue::TooDeep);
        }
        let key = (package, name.to_string());
        let remembered = locked(&self.evaluated.memo).get(&key).cloned();
        match remembered {
            Some(Memo::Value(_, height)) if depth + height > MAX_CONST_DEPTH => {
                return Err(NoValue::TooDeep);
            }
            Some(Memo::Value(value, height)) => return Ok((value, height)),
            Some(Memo::TooLong) => return Err(NoValue::TooLong { here: false }),
            None => {}
        }
        let (constant, at) = self.consts.get(&key).ok_or(NoValue::Unknown)?;
        let declared = &self.files[*at].facts;
        let result = self.eval_expr(declared, constant.line, &constant.expr, depth);
        let mut memo = locked(&self.evaluated.memo);
        match result {
            Ok((value, height)) => {
                let value: Arc<str> = value.into();
                memo.insert(key, Memo::Value(value.clone(), height));
                Ok((value, height))
            }
            Err(NoValue::TooLong { here }) => {
                // Another feature may have evaluated it meanwhile: one diagnostic.
                let first = memo.insert(key, Memo::TooLong).is_none();
                if here && first {
                    locked(&self.evaluated.diagnostics).push(Diagnostic::new(
                        &declared.path,
                        constant.line,
                        format!(
                            "string constant {name} is longer than {} and is not evaluated; where it is used, the value shows as unresolved",
                            files::regular::size(MAX_CONST_LEN as u64)
                        ),
                    ));
                }
                Err(NoValue::TooLong { here: false })
            }
            // Too deep from here is not too deep from a shallower start: not remembered.
            Err(e) => Err(e),
        }
    }

    /// Counts `units` of evaluation work against the project's budget.
    fn charge(&self, file: &GoFile, line: u32, units: usize) -> Result<(), NoValue> {
        let work = &self.evaluated.work;
        let before = work.fetch_add(units as u64, Ordering::Relaxed);
        if before > MAX_CONST_WORK {
            return Err(NoValue::Spent);
        }
        // The one charge that crosses the budget says so.
        if before.saturating_add(units as u64) > MAX_CONST_WORK {
            locked(&self.evaluated.diagnostics).push(Diagnostic::new(
                &file.path,
                line,
                format!(
                    "string constant evaluation stopped here: this project's constants took more than {MAX_CONST_WORK} steps (one per part and per byte of value); constants evaluated after this show as unresolved"
                ),
            ));
            return Err(NoValue::Spent);
        }
        Ok(())
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
                let interface = package
                    .as_ref()
                    .is_some_and(|p| self.api_interfaces.contains(&(p.clone(), name.clone())));
                if interface {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        line,
                        format!(
                            "{name} is an interface of an API package, not an API type: the object's kind is chosen at run time"
                        ),
                    ));
                    return unresolved(name, package);
                }
                let shipped = match package.as_deref() {
                    Some(p) if p != UNSTRUCTURED && self.group_version(p).is_none() => {
                        self.shipped.lookup(p, name)
                    }
                    _ => Shipped::None,
                };
                if let Shipped::Several(groups) = &shipped {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        line,
                        format!(
                            "cannot resolve the API group of {}.{name}: several CRDs shipped in this repository have this kind and version ({}); map its import path under [groups] in projects.toml",
                            package.as_deref().unwrap_or_default(),
                            groups.join(", ")
                        ),
                    ));
                    return unresolved(name, package);
                }
                let known = match shipped {
                    Shipped::One(group, version) => Some((group, version)),
                    _ => package.as_deref().and_then(|p| self.group_version(p)),
                };
                match known {
                    Some((group, version)) => KindRef {
                        group,
                        version,
                        kind: match &package {
                            Some(p) => self.kind_name(p, name),
                            None => name.clone(),
                        },
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
            // A module's `vendor/` folder holds other modules by their import paths.
            if let Some(vendored) = rel.strip_prefix("vendor/") {
                return vendored.to_string();
            }
            if rel.is_empty() {
                m.path.clone()
            } else {
                format!("{}/{rel}", m.path)
            }
        })
}

#[cfg(test)]
mod tests;
