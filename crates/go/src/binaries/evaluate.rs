//! Evaluating flag defaults and environment reads per project: constants through
//! `GoIndex::eval`, literals kept as written, struct fields read from the constructor's
//! literal that made their value, environment helpers followed to their callers.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::BTreeSet;

use crate::calls::{FuncId, Graph};
use crate::consts::ConstExpr;
use crate::facts::binaries::{Constructor, EnvName, FieldRef, RawFlag, RawValue};
use crate::facts::calls::{Arg, Target};
use crate::facts::flag_default::NumTok;
use crate::flag_default::{self, Num};
use crate::index::{GoIndex, GoInput};
use crate::types::{Chain, Root, Step};
use model::{Diagnostic, Flag, SourceRef};

/// Evaluates raw values with the project's constants, constructors and call graph.
/// Evaluates values the way flag defaults are evaluated (constants of any package,
/// durations, a field read from its constructor's literal); shared with `manager`.
pub(crate) struct Evaluator<'a> {
    files: &'a [GoInput],
    index: &'a GoIndex<'a>,
    graph: &'a Graph<'a>,
    /// (package, name) → (file, value) for non-string constants.
    value_consts: HashMap<(String, String), (usize, &'a RawValue)>,
    /// Function → the literal it returns.
    constructors: HashMap<FuncId, &'a Constructor>,
    /// Method → the one constructor all its callers' receivers come from, if there is one.
    receiver_origins: HashMap<FuncId, Option<FuncId>>,
    /// (package, name) → (file, items, separator) of `strings.Join` variables.
    joins: HashMap<(String, String), (usize, &'a [ConstExpr], &'a ConstExpr)>,
}

const MAX_EVAL_DEPTH: usize = 8;

/// How an evaluated default is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// As `--help` prints it.
    Value,
    /// Go source text portolan could not evaluate.
    Expr,
    /// `$NAME`: an environment variable's value at run time.
    Env,
}

impl<'a> Evaluator<'a> {
    pub(crate) fn new(files: &'a [GoInput], index: &'a GoIndex<'a>, graph: &'a Graph<'a>) -> Self {
        let mut value_consts = HashMap::new();
        let mut constructors = HashMap::new();
        let mut needs_origin: HashSet<FuncId> = HashSet::new();
        let mut joins = HashMap::new();
        for (fi, input) in files.iter().enumerate() {
            let b = &input.facts.binaries;
            if let Some(pkg) = index.package_of(&input.facts) {
                for (name, v) in &b.value_consts {
                    value_consts
                        .entry((pkg.to_string(), name.clone()))
                        .or_insert((fi, v));
                }
                for (name, items, sep) in &b.joins {
                    joins.entry((pkg.to_string(), name.clone())).or_insert((
                        fi,
                        items.as_slice(),
                        sep,
                    ));
                }
            }
            for c in &b.constructors {
                constructors.insert(FuncId::new(fi, c.func), c);
            }
            for f in &b.flags {
                let receiver_field = f
                    .default
                    .as_ref()
                    .and_then(|d| d.field.as_ref())
                    .is_some_and(|r| matches!(r.root, Root::Receiver(_)));
                if receiver_field {
                    needs_origin.insert(FuncId::new(fi, f.func));
                }
            }
        }
        let receiver_origins = receiver_origins(files, graph, &constructors, needs_origin);
        Evaluator {
            files,
            index,
            graph,
            value_consts,
            constructors,
            receiver_origins,
            joins,
        }
    }

    /// A value written in function `func` of file `fi`, shown as a flag of pflag type
    /// `kind` shows its default; the bool is true when it is Go source text instead.
    pub(crate) fn show(&self, fi: usize, v: &RawValue, kind: &str, func: usize) -> (String, bool) {
        let (value, shown) = self.value(fi, v, kind, Some(FuncId::new(fi, func)), 0);
        match shown {
            Shown::Value => (value, false),
            // `$NAME` is an environment variable read at run time: not a constant.
            Shown::Env | Shown::Expr => (v.text.clone(), true),
        }
    }

    /// A string expression's value: `GoIndex::eval`, plus `strings.Join` variables.
    pub(super) fn eval_str(&self, fi: usize, e: &ConstExpr) -> Option<String> {
        let file = &self.files[fi].facts;
        if let Some(s) = self.index.eval(file, e) {
            return Some(s);
        }
        // Only the parts the index cannot evaluate are looked up as joins, one level deep.
        let parts: Vec<&ConstExpr> = match e {
            ConstExpr::Concat(parts) => parts.iter().collect(),
            other => vec![other],
        };
        let mut out = String::new();
        for part in parts {
            if let Some(s) = self.index.eval(file, part) {
                out.push_str(&s);
                continue;
            }
            let ConstExpr::Ref { qualifier, name } = part else {
                return None;
            };
            let pkg = self.index.type_package(file, qualifier.as_deref())?;
            let (jfi, items, sep) = self.joins.get(&(pkg, name.clone()))?;
            let jfile = &self.files[*jfi].facts;
            let items = items
                .iter()
                .map(|i| self.index.eval(jfile, i))
                .collect::<Option<Vec<_>>>()?;
            out.push_str(&items.join(&self.index.eval(jfile, sep)?));
        }
        Some(out)
    }

    pub(super) fn flag(
        &self,
        fi: usize,
        raw: &RawFlag,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Flag> {
        let file = &self.files[fi].facts;
        let Some(name) = raw.name.string.as_ref().and_then(|e| self.eval_str(fi, e)) else {
            let why = match self.outside_constant(fi, raw.name.string.as_ref()) {
                Some(path) => format!(
                    "`{}` is a constant of `{path}`, a package outside the repository whose value portolan does not read",
                    raw.name.text
                ),
                None => format!("`{}` is not a string constant", raw.name.text),
            };
            diagnostics.push(Diagnostic::new(
                &file.path,
                raw.line,
                format!("cannot resolve the name of this flag: {why}; the flag is not listed"),
            ));
            return None;
        };
        let shorthand = match &raw.shorthand {
            None => String::new(),
            Some(s) => s
                .string
                .as_ref()
                .and_then(|e| self.eval_str(fi, e))
                .unwrap_or_else(|| "?".to_string()),
        };
        let (default, shown) = match (&raw.default, raw.default_is_value) {
            (Some(v), true) => (v.text.clone(), Shown::Expr),
            (Some(v), false) => self.value(fi, v, &raw.kind, Some(FuncId::new(fi, raw.func)), 0),
            (None, _) if raw.kind == "count" => ("0".to_string(), Shown::Value),
            (None, _) => (String::new(), Shown::Value),
        };
        let (help, help_shown) = self.value(fi, &raw.help, "string", None, 0);
        let help_expr = help_shown != Shown::Value;
        let help = if help_shown == Shown::Env {
            raw.help.text.clone()
        } else {
            help
        };
        Some(Flag {
            name,
            shorthand,
            kind: raw.kind.clone(),
            default,
            default_expr: shown == Shown::Expr,
            default_env: shown == Shown::Env,
            help,
            help_expr,
            library: String::new(),
            sources: vec![SourceRef::new(&file.path, raw.line)],
        })
    }

    /// The import path of `pkg` in a lone `pkg.Name` when that package is not in the
    /// repository (a constant of another module, whose value is not known here).
    fn outside_constant(&self, fi: usize, e: Option<&ConstExpr>) -> Option<String> {
        let Some(ConstExpr::Ref {
            qualifier: Some(q), ..
        }) = e
        else {
            return None;
        };
        let path = self.index.import_for(&self.files[fi].facts, q)?;
        self.index.dir_of_import(&path).is_none().then_some(path)
    }

    /// (value, how it is shown) for a value written in file `fi`, inside function `func`,
    /// formatted as a flag of pflag type `kind` prints its default.
    fn value(
        &self,
        fi: usize,
        v: &RawValue,
        kind: &str,
        func: Option<FuncId>,
        depth: usize,
    ) -> (String, Shown) {
        let file = &self.files[fi].facts;
        if depth < MAX_EVAL_DEPTH {
            if let Some(s) = v.string.as_ref().and_then(|e| self.eval_str(fi, e)) {
                return (s, Shown::Value);
            }
            if let Some(name) = v.env.as_ref().and_then(|e| self.eval_str(fi, e)) {
                return (format!("${name}"), Shown::Env);
            }
            if let Some(s) = v
                .num
                .as_ref()
                .and_then(|t| self.num(fi, t, depth))
                .and_then(|n| flag_default::format(kind, n))
            {
                return (s, Shown::Value);
            }
            if let (Some(element), Some(items)) = (flag_default::slice_element(kind), &v.items) {
                let shown: Option<Vec<String>> = items
                    .iter()
                    .map(|item| match element {
                        "string" => item.string.as_ref().and_then(|e| self.eval_str(fi, e)),
                        "bool" => matches!(item.text.as_str(), "true" | "false")
                            .then(|| item.text.clone()),
                        _ => item
                            .num
                            .as_ref()
                            .and_then(|t| self.num(fi, t, depth))
                            .and_then(|n| flag_default::format(element, n)),
                    })
                    .collect();
                if let Some(s) = shown {
                    return (flag_default::format_slice(kind, &s), Shown::Value);
                }
            }
            if v.literal {
                if let [(q, name)] = v.names.as_slice() {
                    let written = match q {
                        Some(q) => format!("{q}.{name}"),
                        None => name.clone(),
                    };
                    if v.text == written
                        && let Some((cfi, cv)) = self.value_const(fi, q.as_deref(), name)
                    {
                        return self.value(cfi, cv, kind, None, depth + 1);
                    }
                }
                let all_known = v.names.iter().all(|(q, name)| {
                    self.value_const(fi, q.as_deref(), name).is_some()
                        || self
                            .index
                            .eval(
                                file,
                                &ConstExpr::Ref {
                                    qualifier: q.clone(),
                                    name: name.clone(),
                                },
                            )
                            .is_some()
                });
                if all_known {
                    return (v.text.clone(), Shown::Value);
                }
            }
            if let Some(field) = &v.field
                && let Some(found) = self.field_default(fi, field, kind, func, depth)
            {
                return found;
            }
        }
        (v.text.clone(), Shown::Expr)
    }

    /// A numeric constant expression's value, its constants looked up across packages.
    fn num(&self, fi: usize, tokens: &[NumTok], depth: usize) -> Option<Num> {
        if depth >= MAX_EVAL_DEPTH {
            return None;
        }
        flag_default::eval(tokens, &mut |q, name| {
            let (cfi, cv) = self.value_const(fi, q, name)?;
            self.num(cfi, cv.num.as_deref()?, depth + 1)
        })
    }

    fn value_const(&self, fi: usize, q: Option<&str>, name: &str) -> Option<(usize, &'a RawValue)> {
        let pkg = self.index.type_package(&self.files[fi].facts, q)?;
        self.value_consts.get(&(pkg, name.to_string())).copied()
    }

    /// The value a constructor's literal gives a field, or the zero value it leaves.
    fn field_default(
        &self,
        fi: usize,
        field: &FieldRef,
        kind: &str,
        func: Option<FuncId>,
        depth: usize,
    ) -> Option<(String, Shown)> {
        let ctor = match &field.root {
            Root::Call { qualifier, name } => *self
                .graph
                .function(fi, qualifier.as_deref(), name)
                .first()?,
            Root::Receiver(_) => (*self.receiver_origins.get(&func?)?)?,
            Root::Type(_) => return None,
        };
        let literal = self.constructors.get(&ctor)?;
        match literal.field(&field.path) {
            Some(v) => Some(self.value(ctor.file, v, kind, Some(ctor), depth + 1)),
            None => zero_value(kind).map(|z| (z.to_string(), Shown::Value)),
        }
    }

    /// Every environment read with a resolved name: direct reads with a constant name, and
    /// calls that pass a constant to a helper's parameter that ends in `os.Getenv`.
    /// (file, function, line, name).
    pub(super) fn env_reads(
        &self,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Vec<(usize, usize, u32, String)> {
        let mut out = Vec::new();
        // (function, parameter) pairs whose argument is read as an environment variable name.
        let mut helpers: HashSet<(FuncId, usize)> = HashSet::new();
        for (fi, input) in self.files.iter().enumerate() {
            let file = &input.facts;
            for read in &file.binaries.env_reads {
                match &read.name {
                    EnvName::Param(i) => {
                        helpers.insert((FuncId::new(fi, read.func), *i));
                    }
                    EnvName::Str(e) => match self.index.eval(file, e) {
                        Some(name) => out.push((fi, read.func, read.line, name)),
                        None => {
                            diagnostics.push(unresolved_env(&file.path, read.line, &e.written()))
                        }
                    },
                    EnvName::Other(t) => diagnostics.push(unresolved_env(&file.path, read.line, t)),
                }
            }
        }
        if helpers.is_empty() {
            return out;
        }
        // Calls that can reach a helper: those passing a parameter or a constant.
        let mut candidates = Vec::new();
        for (fi, input) in self.files.iter().enumerate() {
            for (i, f) in input.facts.call_facts.iter().enumerate() {
                for call in &f.calls {
                    if call
                        .args
                        .iter()
                        .any(|a| matches!(a, Arg::Param(_) | Arg::Str(_)))
                    {
                        let targets = self.graph.resolve(fi, &call.target);
                        if !targets.is_empty() {
                            candidates.push((FuncId::new(fi, i), call, targets));
                        }
                    }
                }
            }
        }
        // A function passing its own parameter on to a helper is a helper too.
        loop {
            let mut grew = false;
            for (caller, call, targets) in &candidates {
                for (k, arg) in call.args.iter().enumerate() {
                    if let Arg::Param(p) = arg
                        && targets.iter().any(|t| helpers.contains(&(*t, k)))
                        && helpers.insert((*caller, *p))
                    {
                        grew = true;
                    }
                }
            }
            if !grew {
                break;
            }
        }
        for (FuncId { file: fi, func }, call, targets) in &candidates {
            for (k, arg) in call.args.iter().enumerate() {
                if !targets.iter().any(|t| helpers.contains(&(*t, k))) {
                    continue;
                }
                let file = &self.files[*fi].facts;
                match arg {
                    Arg::Str(e) => match self.index.eval(file, e) {
                        Some(name) => out.push((*fi, *func, call.line, name)),
                        None => {
                            diagnostics.push(unresolved_env(&file.path, call.line, &e.written()))
                        }
                    },
                    Arg::Param(_) => {}
                    Arg::Value(_) | Arg::Other => diagnostics.push(unresolved_env(
                        &file.path,
                        call.line,
                        "an expression passed to an environment helper",
                    )),
                }
            }
        }
        out
    }
}

/// Where the receiver of each method that binds flags to its receiver's fields comes from:
/// the one constructor every call site's receiver was made by, if there is exactly one.
///
/// A call site's receiver is followed through fields: `o := NewOptions(); o.AddFlags(fs)`
/// gives `NewOptions`; `o.Logging.AddFlags(fs)` inside a method whose own receiver came from
/// `NewOptions` gives the constructor `NewOptions`' literal calls for its `Logging` field
/// (`Logging: *logging.NewOptions()`). Methods reached that way are resolved together,
/// until nothing changes.
fn receiver_origins<'a>(
    files: &'a [GoInput],
    graph: &Graph,
    constructors: &HashMap<FuncId, &'a Constructor>,
    needed: HashSet<FuncId>,
) -> HashMap<FuncId, Option<FuncId>> {
    let mut origins: HashMap<FuncId, Option<FuncId>> = HashMap::new();
    if needed.is_empty() {
        return origins;
    }
    // Method call sites whose receiver is a constructor's result or the caller's own
    // receiver, through fields only: (callee → [(caller, caller's file, receiver)]).
    let mut sites: HashMap<FuncId, Vec<(FuncId, &'a Chain)>> = HashMap::new();
    for (fi, input) in files.iter().enumerate() {
        for (i, f) in input.facts.call_facts.iter().enumerate() {
            for call in &f.calls {
                let Target::Method { receiver, .. } = &call.target else {
                    continue;
                };
                let fields_only = receiver.steps.iter().all(|s| matches!(s, Step::Field(_)));
                if !fields_only || matches!(receiver.root, Root::Type(_)) {
                    continue;
                }
                for t in graph.resolve(fi, &call.target) {
                    sites
                        .entry(t)
                        .or_default()
                        .push((FuncId::new(fi, i), receiver));
                }
            }
        }
    }
    // The methods whose origin is needed: those with flags, and the callers that pass a
    // field of their own receiver on to one of them.
    // Sorted, so that the rounds below visit methods in the same order on every run.
    let mut needed: Vec<FuncId> = needed.into_iter().collect();
    needed.sort_unstable();
    let mut seen: HashSet<FuncId> = needed.iter().copied().collect();
    let mut i = 0;
    while i < needed.len() {
        for (caller, chain) in sites.get(&needed[i]).into_iter().flatten() {
            if matches!(chain.root, Root::Receiver(_)) && seen.insert(*caller) {
                needed.push(*caller);
            }
        }
        i += 1;
    }
    for _ in 0..MAX_EVAL_DEPTH {
        let mut changed = false;
        for m in &needed {
            let mut found: BTreeSet<Option<FuncId>> = BTreeSet::new();
            for (caller, chain) in sites.get(m).into_iter().flatten() {
                found.insert(site_origin(graph, constructors, &origins, *caller, chain));
            }
            let one = match found.into_iter().collect::<Vec<_>>().as_slice() {
                [Some(ctor)] => Some(*ctor),
                _ => None,
            };
            if origins.get(m) != Some(&one) {
                origins.insert(*m, one);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    origins
}

/// The constructor that made the receiver of one call site, if it can be established.
fn site_origin(
    graph: &Graph,
    constructors: &HashMap<FuncId, &Constructor>,
    origins: &HashMap<FuncId, Option<FuncId>>,
    caller: FuncId,
    chain: &Chain,
) -> Option<FuncId> {
    let mut at = match &chain.root {
        Root::Call { qualifier, name } => *graph
            .function(caller.file, qualifier.as_deref(), name)
            .first()?,
        Root::Receiver(_) => (*origins.get(&caller)?)?,
        Root::Type(_) => return None,
    };
    for step in &chain.steps {
        let Step::Field(field) = step else {
            return None;
        };
        let literal = constructors.get(&at)?;
        let value = literal.field(std::slice::from_ref(field))?;
        let (qualifier, name) = value.call.as_ref()?;
        at = *graph
            .function(at.file, qualifier.as_deref(), name)
            .first()?;
    }
    Some(at)
}

fn unresolved_env(path: &str, line: u32, what: &str) -> Diagnostic {
    Diagnostic::new(
        path,
        line,
        format!(
            "cannot resolve the name of this environment variable read: `{what}` is not a string constant"
        ),
    )
}

/// The zero value of a flag type, as pflag prints it.
fn zero_value(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "string" => "",
        "bool" => "false",
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32"
        | "uint64" | "float32" | "float64" | "count" => "0",
        "duration" => "0s",
        k if k.ends_with("Slice") || k.ends_with("Array") || k.starts_with("stringTo") => "[]",
        _ => return None,
    })
}
