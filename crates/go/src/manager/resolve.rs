//! Per project: each manager with its options evaluated, the flags they are read from,
//! splices followed, the programs that reach it and the controllers it runs.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::binaries::evaluate::Evaluator;
use crate::calls::{FuncId, Graph};
use crate::facts::binaries::{FlagTarget, RawValue};
use crate::facts::manager::{Leaf, RawBuilder, RawOptions, RawSetting, Splice};
use crate::index::{GoIndex, GoInput, dir_of};
use crate::types::{Root, ValueType};
use crate::values::Values;
use model::{Binary, Controller, Diagnostic, Gvk, Manager, ManagerOption, OptionFlag, SourceRef};

/// The managers of a project, with the diagnostics for options portolan could not read.
pub fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    values: &Values,
    graph: &Graph,
    controllers: &[Controller],
    binaries: &[Binary],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Manager> {
    if files.iter().all(|f| f.facts.managers.managers.is_empty()) {
        return Vec::new();
    }
    let eval = Evaluator::new(files, index, graph);
    let r = Resolver {
        files,
        index,
        values,
        graph,
        eval,
        flags: flag_index(files, binaries),
    };
    let programs = programs(files, index, graph);
    let mut managers = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for raw in &file.managers.managers {
            let mut unknown = Vec::new();
            let mut options = Vec::new();
            r.options(fi, &raw.options, &[], "", 0, &mut options, &mut unknown);
            let package = index
                .package_of(file)
                .map(str::to_string)
                .unwrap_or_else(|| dir_of(&file.path).to_string());
            let binaries: Vec<String> = programs
                .iter()
                .filter(|p| p.package == package || p.reach.contains(FuncId::new(fi, raw.func)))
                .map(|p| p.package.clone())
                .collect();
            let cache_unknown = unknown
                .iter()
                .filter(|g| g.cache)
                .map(|g| g.why.clone())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join("; ");
            for g in &unknown {
                let effect = if g.cache {
                    "the cache's scope is shown as unknown"
                } else {
                    "the option is shown as the expression"
                };
                diagnostics.push(Diagnostic::new(
                    &g.file,
                    g.line,
                    format!("manager options not fully known: {}; {effect}", g.why),
                ));
            }
            managers.push(Manager {
                package,
                function: raw.function.clone(),
                binaries,
                options,
                cache_unknown,
                controllers: Vec::new(),
                deployment: String::new(),
                area: input.area,
                sources: vec![SourceRef::new(&file.path, raw.line)],
            });
        }
    }
    attribute_controllers(files, &programs, controllers, &mut managers);
    managers
}

struct Program {
    package: String,
    reach: crate::calls::Reach,
}

/// Each main package with what its `func main` reaches.
fn programs(files: &[GoInput], index: &GoIndex, graph: &Graph) -> Vec<Program> {
    let mut roots: BTreeMap<String, Vec<FuncId>> = BTreeMap::new();
    for (fi, input) in files.iter().enumerate() {
        let f = &input.facts;
        if f.package != "main" {
            continue;
        }
        let pkg = index
            .package_of(f)
            .map(str::to_string)
            .unwrap_or_else(|| dir_of(&f.path).to_string());
        let entry = roots.entry(pkg).or_default();
        for (i, c) in f.call_facts.iter().enumerate() {
            if c.receiver.is_none() && (c.name == "main" || c.name == "init" || c.is_top_level()) {
                entry.push(FuncId::new(fi, i));
            }
        }
    }
    roots
        .into_iter()
        .map(|(package, r)| Program {
            package,
            reach: graph.reachable(r),
        })
        .collect()
}

/// A controller runs in a manager when a program that reaches its builder creates that
/// manager and no other.
fn attribute_controllers(
    files: &[GoInput],
    programs: &[Program],
    controllers: &[Controller],
    managers: &mut [Manager],
) {
    let by_path: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(fi, f)| (f.facts.path.as_str(), fi))
        .collect();
    for c in controllers {
        let Some(src) = c.sources.first() else {
            continue;
        };
        let Some(&fi) = by_path.get(src.file.as_str()) else {
            continue;
        };
        // The function that holds the builder: the last one starting at or before it.
        let Some(func) = files[fi]
            .facts
            .call_facts
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.is_top_level() && f.line <= src.line)
            .max_by_key(|(_, f)| f.line)
            .map(|(i, _)| i)
        else {
            continue;
        };
        for p in programs
            .iter()
            .filter(|p| p.reach.contains(FuncId::new(fi, func)))
        {
            let mine: Vec<usize> = managers
                .iter()
                .enumerate()
                .filter(|(_, m)| m.binaries.contains(&p.package))
                .map(|(i, _)| i)
                .collect();
            if let [one] = mine.as_slice()
                && !managers[*one].controllers.contains(&c.name)
            {
                managers[*one].controllers.push(c.name.clone());
            }
        }
    }
}

/// A flag's target, with the struct type of a field target's root, and the flag as
/// resolved by `binaries`.
struct FlagEntry {
    fi: usize,
    func: usize,
    target: FlagTarget,
    flag: OptionFlag,
}

/// Every flag with a target, joined with its resolved row (by file and line).
fn flag_index(files: &[GoInput], binaries: &[Binary]) -> Vec<FlagEntry> {
    let mut rows: HashMap<(&str, u32), OptionFlag> = HashMap::new();
    for b in binaries {
        for f in &b.flags {
            for s in &f.sources {
                rows.entry((s.file.as_str(), s.line))
                    .or_insert_with(|| OptionFlag {
                        name: f.name.clone(),
                        default: f.default.clone(),
                        sources: f.sources.clone(),
                    });
            }
        }
    }
    let mut out = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        for raw in &input.facts.binaries.flags {
            let (Some(target), Some(flag)) = (
                &raw.target,
                rows.get(&(input.facts.path.as_str(), raw.line)),
            ) else {
                continue;
            };
            out.push(FlagEntry {
                fi,
                func: raw.func,
                target: target.clone(),
                flag: flag.clone(),
            });
        }
    }
    out
}

struct Resolver<'a> {
    files: &'a [GoInput],
    index: &'a GoIndex<'a>,
    values: &'a Values<'a, 'a>,
    graph: &'a Graph<'a>,
    eval: Evaluator<'a>,
    flags: Vec<FlagEntry>,
}

/// A part of a manager's options that is not known.
struct Gap {
    file: String,
    line: u32,
    why: String,
    /// It may change what the cache holds.
    cache: bool,
}

/// Whether options at `path` decide what the cache holds: the whole options, the cache's,
/// the client's (`DisableFor`), a replaced cache, the older namespace field.
fn affects_cache(path: &[String]) -> bool {
    matches!(
        path.first().map(String::as_str),
        None | Some("Cache" | "Client" | "NewCache" | "Namespace")
    )
}

/// Options from functions are followed this many calls deep.
const MAX_SPLICE_DEPTH: usize = 6;

impl Resolver<'_> {
    #[allow(clippy::too_many_arguments)]
    fn options(
        &self,
        fi: usize,
        raw: &RawOptions,
        prefix: &[String],
        cond: &str,
        depth: usize,
        out: &mut Vec<ManagerOption>,
        unknown: &mut Vec<Gap>,
    ) {
        let file = &self.files[fi].facts;
        for u in &raw.unknown {
            let mut path = prefix.to_vec();
            path.extend(u.path.iter().cloned());
            let cache = affects_cache(&path);
            if !cache {
                // Shown as a row: the part is known to be set, to an expression.
                out.push(ManagerOption {
                    name: path.join("."),
                    object: None,
                    namespace: None,
                    value: u.text.clone(),
                    expr: true,
                    flag: None,
                    condition: cond.to_string(),
                    sources: vec![SourceRef::new(&file.path, u.line)],
                });
            }
            unknown.push(Gap {
                file: file.path.clone(),
                line: u.line,
                why: u.why.clone(),
                cache,
            });
        }
        // Settings and splices in source order.
        let mut items: Vec<(u32, Result<&RawSetting, &Splice>)> = raw
            .settings
            .iter()
            .map(|s| (s.line, Ok(s)))
            .chain(raw.splices.iter().map(|s| (s.line, Err(s))))
            .collect();
        items.sort_by_key(|(line, _)| *line);
        for (_, item) in items {
            match item {
                Ok(s) => out.push(self.setting(fi, s, prefix, cond)),
                Err(sp) => {
                    let mut inner_prefix = prefix.to_vec();
                    inner_prefix.extend(sp.prefix.iter().cloned());
                    let inner_cond = join_cond(cond, &sp.condition);
                    let found = (depth < MAX_SPLICE_DEPTH)
                        .then(|| self.builder(fi, sp))
                        .flatten();
                    match found {
                        Some((bfi, b)) => self.options(
                            bfi,
                            &b.options,
                            &inner_prefix,
                            &inner_cond,
                            depth + 1,
                            out,
                            unknown,
                        ),
                        None => {
                            let name = match &sp.qualifier {
                                Some(q) => format!("{q}.{}", sp.name),
                                None => sp.name.clone(),
                            };
                            let cache = affects_cache(&inner_prefix);
                            if !cache {
                                out.push(ManagerOption {
                                    name: inner_prefix.join("."),
                                    object: None,
                                    namespace: None,
                                    value: format!("{name}(…)"),
                                    expr: true,
                                    flag: None,
                                    condition: inner_cond.clone(),
                                    sources: vec![SourceRef::new(&file.path, sp.line)],
                                });
                            }
                            unknown.push(Gap {
                                file: file.path.clone(),
                                line: sp.line,
                                why: format!("`{name}(…)` is not a function of the repository that returns options portolan reads"),
                                cache,
                            });
                        }
                    }
                }
            }
        }
    }

    /// The repository function a splice calls, if it returns options.
    fn builder(&self, fi: usize, sp: &Splice) -> Option<(usize, &RawBuilder)> {
        let ids = self.graph.function(fi, sp.qualifier.as_deref(), &sp.name);
        let [FuncId { file: bfi, func }] = ids.as_slice() else {
            return None;
        };
        self.files[*bfi]
            .facts
            .managers
            .builders
            .iter()
            .find(|b| b.func == *func)
            .map(|b| (*bfi, b))
    }

    fn setting(&self, fi: usize, s: &RawSetting, prefix: &[String], cond: &str) -> ManagerOption {
        let file = &self.files[fi].facts;
        let mut name_path = prefix.to_vec();
        name_path.extend(s.path.iter().cloned());
        let object = s.object.as_ref().map(|o| {
            let mut scratch = Vec::new();
            let k = self.index.resolve_object(file, o, s.line, &mut scratch);
            Gvk {
                group: k.group,
                version: k.version,
                kind: k.kind,
            }
        });
        let mut ns_expr = false;
        let ns_flag = s
            .namespace_target
            .as_ref()
            .and_then(|t| self.flag_for(fi, s.func, t));
        let namespace = s.namespace.as_ref().map(|ns| {
            if let Some(f) = &ns_flag {
                return f.default.clone();
            }
            // `cache.AllNamespaces` is "": the entry applies in every namespace.
            if ns.text == "AllNamespaces" || ns.text.ends_with(".AllNamespaces") {
                return String::new();
            }
            let (v, expr) = self.eval.show(fi, ns, "string", s.func);
            ns_expr = expr;
            v
        });
        let flag = s.target.as_ref().and_then(|t| self.flag_for(fi, s.func, t));
        // An entry `ns: {}` has no value: its namespace's flag is the row's.
        let (flag, namespace_flag) = match (flag, ns_flag.clone()) {
            (None, Some(f)) if s.value.is_none() => (Some(f), true),
            (flag, _) => (flag, false),
        };
        let (value, expr) = match (&s.value, s.leaf) {
            (None, _) => (String::new(), false),
            (Some(_), _) if flag.is_some() && !namespace_flag => (
                flag.as_ref().map(|f| f.default.clone()).unwrap_or_default(),
                false,
            ),
            (Some(v), Some(Leaf::Selector)) => self.selector(fi, s, v),
            (Some(v), Some(Leaf::Transform)) => match s.strips {
                Some(true) => (format!("{} (strips managedFields)", v.text), false),
                _ => (v.text.clone(), true),
            },
            (Some(v), Some(Leaf::Func)) => (v.text.clone(), true),
            (Some(v), leaf) => {
                let kind = match leaf {
                    Some(Leaf::Bool) => "bool",
                    Some(Leaf::Int) => "int",
                    Some(Leaf::Duration) => "duration",
                    Some(Leaf::Strings) => "stringSlice",
                    _ => "string",
                };
                let (shown, expr) = self.eval.show(fi, v, kind, s.func);
                if !expr && kind == "bool" && !matches!(shown.as_str(), "true" | "false") {
                    (v.text.clone(), true)
                } else {
                    (shown, expr)
                }
            }
        };
        ManagerOption {
            name: name_path.join("."),
            object,
            namespace,
            value,
            expr: expr || ns_expr,
            flag,
            condition: join_cond(cond, &s.condition),
            sources: vec![SourceRef::new(&file.path, s.line)],
        }
    }

    /// A selector as `k=v,k2` (every part evaluated), else the expression.
    fn selector(&self, fi: usize, s: &RawSetting, v: &RawValue) -> (String, bool) {
        if v.text.ends_with("Everything()") {
            return ("everything".to_string(), false);
        }
        if s.selector.is_empty() {
            return (v.text.clone(), true);
        }
        let mut parts = Vec::new();
        for (k, op, val) in &s.selector {
            let (key, kx) = self.eval.show(fi, k, "string", s.func);
            if kx {
                return (v.text.clone(), true);
            }
            let part = match (op, val) {
                (&"exists", _) => key,
                (&"!", _) => format!("!{key}"),
                (op, Some(val)) => {
                    let (value, vx) = self.eval.show(fi, val, "string", s.func);
                    if vx {
                        return (v.text.clone(), true);
                    }
                    format!("{key}{op}{value}")
                }
                (_, None) => return (v.text.clone(), true),
            };
            parts.push(part);
        }
        (parts.join(","), false)
    }

    /// The flag whose target the value reads, when exactly one flag's does.
    fn flag_for(&self, fi: usize, func: usize, target: &FlagTarget) -> Option<OptionFlag> {
        let file = &self.files[fi].facts;
        let dir = dir_of(&file.path);
        let found: Vec<&FlagEntry> = match target {
            FlagTarget::Var { name, local: true } => self
                .flags
                .iter()
                .filter(|e| {
                    e.fi == fi
                        && e.func == func
                        && matches!(&e.target, FlagTarget::Var { name: n, local: true } if n == name)
                })
                .collect(),
            FlagTarget::Var { name, local: false } => self
                .flags
                .iter()
                .filter(|e| {
                    dir_of(&self.files[e.fi].facts.path) == dir
                        && matches!(&e.target, FlagTarget::Var { name: n, local: false } if n == name)
                })
                .collect(),
            FlagTarget::Field(f) => {
                let owner = self.owner(fi, &f.root)?;
                self.flags
                    .iter()
                    .filter(|e| match &e.target {
                        FlagTarget::Field(g) => {
                            g.path == f.path && self.owner(e.fi, &g.root).is_some_and(|o| o == owner)
                        }
                        _ => false,
                    })
                    .collect()
            }
        };
        let first = found.first()?;
        found
            .iter()
            .all(|e| e.flag.name == first.flag.name)
            .then(|| first.flag.clone())
    }

    /// The struct type (package folder, name) a field chain's root has.
    fn owner(&self, fi: usize, root: &Root) -> Option<(String, String)> {
        let file = &self.files[fi].facts;
        let dir = dir_of(&file.path);
        let value = match root {
            Root::Type(t) | Root::Receiver(t) => ValueType::Type(t.clone()),
            Root::Call {
                qualifier: None,
                name,
            } => ValueType::Result {
                func: crate::types::FuncRef {
                    receiver: None,
                    name: name.clone(),
                },
                index: 0,
            },
            Root::Call {
                qualifier: Some(q),
                name,
            } => ValueType::ForeignResult {
                qualifier: q.clone(),
                name: name.clone(),
                index: 0,
            },
        };
        let (tf, t) = self.values.declared_type(file, dir, &value)?;
        if t.collection {
            return None;
        }
        let owner_dir = match &t.qualifier {
            None => dir_of(&tf.path).to_string(),
            Some(q) => {
                let import = self.index.import_for(tf, q)?;
                self.index.dir_of_import(&import)?.to_string()
            }
        };
        Some((owner_dir, t.name))
    }
}

fn join_cond(outer: &str, inner: &str) -> String {
    match (outer.is_empty(), inner.is_empty()) {
        (true, _) => inner.to_string(),
        (_, true) => outer.to_string(),
        _ => format!("{outer}; {inner}"),
    }
}
