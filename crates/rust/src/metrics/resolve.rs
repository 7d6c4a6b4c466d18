//! Per project: each registration's full name through the registry prefixes of its call
//! sites (one metric per chain of callers), and the `prometheus` collectors' metrics.

use std::collections::BTreeMap;

use super::facts::{FnKey, MetricFacts, RawType, RegBase, RegRef, RegistryCall};
use model::{Area, Diagnostic, Metric, SourceRef, UNRESOLVED};

/// How many levels of callers a registry parameter is followed through.
const MAX_CALLERS: usize = 4;

/// The most metrics one registration may become (one per chain of call sites).
const MAX_CHAINS: usize = 64;

/// One prefix chain of a registration, or why it is not known.
type Chain = Result<Vec<String>, String>;

/// Resolves every registration of the project to model metrics.
pub fn resolve(
    files: &[(&str, Area, &MetricFacts)],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Metric> {
    let mut label_sets: BTreeMap<&str, Vec<&Option<Vec<String>>>> = BTreeMap::new();
    let mut fields: BTreeMap<&str, Vec<&RawType>> = BTreeMap::new();
    for (_, _, f) in files {
        for (name, l) in &f.label_sets {
            label_sets.entry(name).or_default().push(l);
        }
        for (name, t) in &f.fields {
            fields.entry(name).or_default().push(t);
        }
    }
    let mut out = Vec::new();
    for (fi, (path, area, facts)) in files.iter().enumerate() {
        out.extend(facts.classic.iter().cloned());
        diagnostics.extend(facts.diagnostics.iter().cloned());
        for r in &facts.registrations {
            let at = |message: String| Diagnostic::new(path, r.line, message);
            let name = match &r.name {
                Ok(n) => n.clone(),
                Err(t) => {
                    diagnostics.push(at(format!(
                        "cannot resolve this metric's name: `{t}` is not a string literal; the metric is not listed"
                    )));
                    continue;
                }
            };
            let (help, help_expr) = match &r.help {
                Ok(h) => (h.clone(), false),
                Err(t) => (t.clone(), true),
            };
            let unit = match &r.unit {
                None => None,
                Some(Ok(u)) => Some(u.clone()),
                Some(Err(t)) => {
                    diagnostics.push(at(format!(
                        "cannot resolve this metric's unit: `{t}` is not a `Unit`; it is shown as ?"
                    )));
                    Some(UNRESOLVED.to_string())
                }
            };
            let raw = match &r.metric {
                RawType::Field(f) => {
                    let mut seen: Vec<&RawType> =
                        fields.get(f.as_str()).cloned().unwrap_or_default();
                    seen.dedup();
                    match seen.as_slice() {
                        [one] => (*one).clone(),
                        [] => RawType::Unknown(format!(
                            "field `{f}` of no metric-typed struct field in the project"
                        )),
                        _ => RawType::Unknown(format!(
                            "field `{f}`, which several structs declare with different types"
                        )),
                    }
                }
                other => other.clone(),
            };
            let (kind, labels) = match raw {
                RawType::Known { kind, labels } => {
                    let labels = match labels {
                        None => Vec::new(),
                        Some(Err(t)) => {
                            diagnostics.push(at(format!(
                                "cannot read the labels of this metric: `{t}` is not a label struct; they are shown as ?"
                            )));
                            vec![UNRESOLVED.to_string()]
                        }
                        Some(Ok(t)) => {
                            let mut sets = label_sets.get(t.as_str()).cloned().unwrap_or_default();
                            sets.dedup();
                            match sets.as_slice() {
                                [Some(names)] => names.clone(),
                                _ => {
                                    diagnostics.push(at(format!(
                                        "cannot read the labels of this metric: `{t}` is not one plain `#[derive(EncodeLabelSet)]` struct of the project; they are shown as ?"
                                    )));
                                    vec![UNRESOLVED.to_string()]
                                }
                            }
                        }
                    };
                    (kind.to_string(), labels)
                }
                RawType::Field(_) | RawType::Unknown(_) => {
                    let why = match &r.metric {
                        RawType::Unknown(t) | RawType::Field(t) => t.clone(),
                        _ => String::new(),
                    };
                    diagnostics.push(at(format!(
                        "cannot tell the type of this metric: `{why}` is not a prometheus_client metric type or a value made by one; it is shown as ?"
                    )));
                    (UNRESOLVED.to_string(), Vec::new())
                }
            };
            for chain in chains(files, fi, r.function, &r.registry) {
                let prefixes = match chain {
                    Ok(p) => p,
                    Err(why) => {
                        diagnostics.push(at(format!(
                            "cannot resolve the prefix of this metric's registry: {why}; it is shown as ?"
                        )));
                        vec![UNRESOLVED.to_string()]
                    }
                };
                out.push(Metric {
                    api: String::new(),
                    name: exposed_name(prefixes, name.as_str(), unit.as_deref(), kind.as_str()),
                    kind: kind.clone(),
                    help: help.clone(),
                    help_expr,
                    labels: labels.clone(),
                    area: *area,
                    sources: vec![SourceRef::new(path, r.line)],
                });
            }
        }
    }
    collector_metrics(files, &mut out, diagnostics);
    out
}

/// The metrics custom collectors describe, named with the prefix of each registry their
/// type is registered on (`register_collector`). The collector's `impl` is looked for in
/// the registering file first, then in the project (one file only).
fn collector_metrics(
    files: &[(&str, Area, &MetricFacts)],
    out: &mut Vec<Metric>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut registered: Vec<(usize, &str)> = Vec::new();
    for (fi, (path, area, facts)) in files.iter().enumerate() {
        for c in &facts.collectors {
            let at = |message: String| Diagnostic::new(path, c.line, message);
            let ty = match &c.collector {
                Ok(t) => t.as_str(),
                Err(t) => {
                    diagnostics.push(at(format!(
                        "cannot tell which collector this registers: `{t}` is not a collector type's value; its metrics are not listed"
                    )));
                    continue;
                }
            };
            let has = |f: &MetricFacts| f.descriptors.iter().any(|d| d.owner == ty);
            let owner_file = if has(facts) {
                Some(fi)
            } else {
                let found: Vec<usize> = (0..files.len()).filter(|i| has(files[*i].2)).collect();
                match found.as_slice() {
                    [one] => Some(*one),
                    _ => None,
                }
            };
            let Some(ofi) = owner_file else {
                diagnostics.push(at(format!(
                    "cannot find the metrics of collector `{ty}`: no single `impl Collector for {ty}` describing metrics in the project; they are not listed"
                )));
                continue;
            };
            registered.push((ofi, ty));
            let chains = chains(files, fi, c.function, &c.registry);
            let (opath, _, ofacts) = files[ofi];
            for d in ofacts.descriptors.iter().filter(|d| d.owner == ty) {
                let at = |message: String| Diagnostic::new(opath, d.line, message);
                let Ok(name) = &d.name else {
                    diagnostics.push(at(
                        "cannot resolve this metric's name: it is not a string literal; the metric is not listed".to_string(),
                    ));
                    continue;
                };
                let (help, help_expr) = match &d.help {
                    Ok(h) => (h.clone(), false),
                    Err(t) => (t.clone(), true),
                };
                let kind = match d.kind {
                    Ok(k) => k.to_string(),
                    Err(ref t) => {
                        diagnostics.push(at(format!(
                            "cannot tell the type of this metric: `{t}` is not a `MetricType`; it is shown as ?"
                        )));
                        UNRESOLVED.to_string()
                    }
                };
                let unit = match &d.unit {
                    None => None,
                    Some(Ok(u)) => Some(u.clone()),
                    Some(Err(t)) => {
                        diagnostics.push(at(format!(
                            "cannot resolve this metric's unit: `{t}` is not a `Unit`; it is shown as ?"
                        )));
                        Some(UNRESOLVED.to_string())
                    }
                };
                let labels = match &d.labels {
                    None => Vec::new(),
                    Some(Ok(l)) => l.clone(),
                    Some(Err(t)) => {
                        diagnostics.push(at(format!(
                            "cannot read the labels of this metric: `{t}` is not a list of (name, value) pairs with literal names; they are shown as ?"
                        )));
                        vec![UNRESOLVED.to_string()]
                    }
                };
                for chain in &chains {
                    let parts = match chain {
                        Ok(p) => p.clone(),
                        Err(why) => {
                            diagnostics.push(Diagnostic::new(
                                path,
                                c.line,
                                format!("cannot resolve the prefix of this collector's registry: {why}; it is shown as ?"),
                            ));
                            vec![UNRESOLVED.to_string()]
                        }
                    };
                    out.push(Metric {
                        api: String::new(),
                        name: exposed_name(parts, name, unit.as_deref(), kind.as_str()),
                        kind: kind.clone(),
                        help: help.clone(),
                        help_expr,
                        labels: labels.clone(),
                        area: *area,
                        sources: vec![SourceRef::new(opath, d.line)],
                    });
                }
            }
        }
    }
    // Collectors whose registration was not found: their metrics cannot be named.
    for (fi, (path, _, facts)) in files.iter().enumerate() {
        let mut owners: Vec<&str> = facts.descriptors.iter().map(|d| d.owner.as_str()).collect();
        owners.dedup();
        for owner in owners {
            if !registered.contains(&(fi, owner))
                && let Some(d) = facts.descriptors.iter().find(|d| d.owner == owner)
            {
                diagnostics.push(Diagnostic::new(
                    path,
                    d.line,
                    format!("collector `{owner}` is not registered anywhere the analysis follows (`register_collector`): its metrics are not listed"),
                ));
            }
        }
    }
}

/// The prefix chains of a registry: one per chain of call sites that reaches it.
fn chains(
    files: &[(&str, Area, &MetricFacts)],
    fi: usize,
    function: usize,
    reg: &RegRef,
) -> Vec<Chain> {
    // (file, function, registry, prefixes added below it, depth)
    let mut pending = vec![(fi, function, reg.clone(), Vec::<String>::new(), 0usize)];
    let mut out = Vec::new();
    while let Some((fi, function, reg, below, depth)) = pending.pop() {
        if out.len() >= MAX_CHAINS {
            break;
        }
        let mut here = reg.prefixes.clone();
        here.extend(below);
        match &reg.base {
            RegBase::Root => out.push(Ok(here)),
            RegBase::Unknown(t) => out.push(Err(format!("`{t}` is not followed"))),
            RegBase::Param(i) => {
                if depth >= MAX_CALLERS {
                    out.push(Err(format!(
                        "call sites are followed {MAX_CALLERS} levels up only"
                    )));
                    continue;
                }
                let key = &files[fi].2.functions[function];
                let callers: Vec<(usize, &RegistryCall)> = files
                    .iter()
                    .enumerate()
                    .flat_map(|(cfi, (_, _, f))| f.calls.iter().map(move |c| (cfi, c)))
                    .filter(|(_, c)| c.arg == *i && calls(files, c, fi, function))
                    .collect();
                if callers.is_empty() {
                    out.push(Err(format!(
                        "the registry is a parameter of `{}` and no call site passing one was found",
                        key.name
                    )));
                }
                for (cfi, c) in callers {
                    pending.push((cfi, c.function, c.registry.clone(), here.clone(), depth + 1));
                }
            }
        }
    }
    out
}

/// Whether a call site calls function `function` of file `fi`: same name and `impl`
/// type, and no other function of the project fits as well (module path segments, when
/// written, must all be folders or the file name of the callee).
fn calls(
    files: &[(&str, Area, &MetricFacts)],
    c: &RegistryCall,
    fi: usize,
    function: usize,
) -> bool {
    let fits = |k: &FnKey| {
        k.name == c.callee.name && (c.callee.owner.is_none() || k.owner == c.callee.owner)
    };
    if !fits(&files[fi].2.functions[function]) {
        return false;
    }
    let candidates: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, (_, _, f))| {
            f.functions
                .iter()
                .enumerate()
                .filter(|(_, k)| fits(k))
                .map(move |(j, _)| (i, j))
        })
        .collect();
    if candidates.len() == 1 {
        return true;
    }
    let in_path = |i: usize| {
        let parts: Vec<&str> = files[i]
            .0
            .split('/')
            .map(|p| p.strip_suffix(".rs").unwrap_or(p))
            .collect();
        !c.modules.is_empty() && c.modules.iter().all(|m| parts.contains(&m.as_str()))
    };
    let fitting: Vec<(usize, usize)> = candidates
        .into_iter()
        .filter(|(i, _)| in_path(*i))
        .collect();
    fitting == [(fi, function)]
}

/// The name prometheus_client exposes: the registry prefixes, the name and the unit joined
/// with `_`, and `_total` after a counter's.
fn exposed_name(mut parts: Vec<String>, name: &str, unit: Option<&str>, kind: &str) -> String {
    parts.push(name.to_string());
    parts.extend(unit.map(str::to_string));
    let mut full = parts.join("_");
    if kind == "counter" {
        full.push_str("_total");
    }
    full
}
