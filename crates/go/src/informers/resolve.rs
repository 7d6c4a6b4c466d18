//! Per project: each informer's kind, through fields, wrappers, interface methods and
//! typed informers, attributed to the controller whose reconciler reaches it or listed
//! under its package.

use super::extract::MAX_SOURCE_DEPTH;
use crate::calls::{Graph, Paths};
use crate::facts::GoFile;
use crate::facts::informers::{Forward, InformerSource};
use crate::gvr::gvr_kind;
use crate::index::{GoInput, dir_of};
use crate::types::{FuncRef, TypeRef};
use crate::values::{Values, describe, plural};
use model::{Controller, Diagnostic, PackageInformer, Relation, SourceRef, UNRESOLVED, Watch};

/// What an informer source comes to.
enum Outcome {
    Kind(String, String, String),
    /// An informer whose kind is not known: a `?` row and a diagnostic.
    Unknown(String),
    /// A handler added to a value not shown to be an informer: a diagnostic, no row.
    NotAnInformer(String),
    /// Reported elsewhere (`InformerSource::InListWatch`).
    Skip,
}

/// Resolves informers: into their controller's watches, else per package.
pub fn resolve(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
    reach: &[Option<Paths>],
    controllers: &mut [Controller],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<PackageInformer> {
    let mut out = Vec::new();
    for input in files {
        let file = &input.facts;
        let dir = dir_of(&file.path);
        for raw in &file.informers {
            let (group, version, kind) = match outcome(values, file, &raw.source, 0) {
                Outcome::Kind(g, v, k) => (g, v, k),
                Outcome::Skip => continue,
                Outcome::NotAnInformer(why) => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        raw.line,
                        format!("an event handler is added here, but the analyzer cannot follow the value to an informer: {why}"),
                    ));
                    continue;
                }
                Outcome::Unknown(why) => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        raw.line,
                        format!("cannot tell which kind this informer watches: {why}"),
                    ));
                    (
                        UNRESOLVED.to_string(),
                        UNRESOLVED.to_string(),
                        UNRESOLVED.to_string(),
                    )
                }
            };
            let sources = vec![SourceRef::new(&file.path, raw.line)];
            // The informer belongs to every controller whose Reconcile reaches the function
            // that starts it, or, as before, whose reconciler type declares that function.
            let node = values.node_of(dir, &raw.func);
            let mut owned = false;
            for (c, paths) in controllers.iter_mut().zip(reach) {
                let declared = Some(&c.reconciler) == raw.func.receiver.as_ref()
                    && c.sources.first().is_some_and(|s| dir_of(&s.file) == dir);
                let reached = node
                    .zip(paths.as_ref())
                    .is_some_and(|(n, p)| p.contains(graph, n));
                if !declared && !reached {
                    continue;
                }
                owned = true;
                c.watches.push(Watch {
                    relation: Relation::Informer,
                    group: group.clone(),
                    version: version.clone(),
                    kind: kind.clone(),
                    conditional: false,
                    condition: String::new(),
                    import_path: None,
                    raw_source: false,
                    sources: sources.clone(),
                });
            }
            if !owned {
                out.push(PackageInformer {
                    package: values.index.package_of(file).unwrap_or(dir).to_string(),
                    function: match &raw.func.receiver {
                        Some(r) => format!("{r}.{}", raw.func.name),
                        None => raw.func.name.clone(),
                    },
                    group,
                    version,
                    kind,
                    area: input.area,
                    sources,
                });
            }
        }
    }
    out
}

/// Struct fields holding informers are followed through this many other fields.
const MAX_FIELD_DEPTH: usize = 4;

fn outcome(values: &Values, file: &GoFile, source: &InformerSource, depth: usize) -> Outcome {
    let dir = dir_of(&file.path);
    let kind = |gvk: Option<(String, String, String)>, why: String| match gvk {
        Some((g, v, k)) => Outcome::Kind(g, v, k),
        None => Outcome::Unknown(why),
    };
    match source {
        InformerSource::Object(value) => kind(values.value_kind(file, dir, value), describe(value)),
        InformerSource::Factory {
            group_version,
            resource,
        } => kind(
            values.informer_accessor_kind(group_version, resource),
            format!(
                "{group_version}().{resource}() is neither a Kubernetes API group's accessor nor one of the repository's API packages"
            ),
        ),
        InformerSource::Resource(gvr) => match gvr_kind(values, file, gvr) {
            Ok((g, v, k)) => Outcome::Kind(g, v, k),
            Err(why) => Outcome::Unknown(why),
        },
        InformerSource::Opaque(expr) => Outcome::Unknown(format!(
            "the resource `{expr}` is not a GroupVersionResource expression the analyzer can read"
        )),
        InformerSource::Wrapper {
            qualifier,
            name,
            arg,
            gvr,
        } => {
            let called = match qualifier {
                Some(q) => format!("{q}.{name}"),
                None => name.clone(),
            };
            if !hands_on_to_informer(values, file, qualifier.as_deref(), name, *arg) {
                return Outcome::NotAnInformer(format!(
                    "`{called}` is not an in-repo function that hands its GroupVersionResource to `ForResource`"
                ));
            }
            match gvr_kind(values, file, gvr) {
                Ok((g, v, k)) => Outcome::Kind(g, v, k),
                Err(why) => Outcome::Unknown(why),
            }
        }
        InformerSource::Field { owner, field } => field_outcome(values, dir, owner, field, depth),
        InformerSource::Typed(value) => values
            .declared_type(file, dir, value)
            .and_then(|(f, t)| informer_type_kind(values, f, &t))
            .map_or_else(
                || Outcome::NotAnInformer(describe(value)),
                |(g, v, k)| Outcome::Kind(g, v, k),
            ),
        InformerSource::Method { base, method } => values
            .declared_type(file, dir, base)
            .and_then(|(f, t)| method_result(values, f, &t, method))
            .and_then(|(f, t)| informer_type_kind(values, f, &t))
            .map_or_else(
                || {
                    Outcome::NotAnInformer(format!(
                        "the result of method {method} is not a typed informer"
                    ))
                },
                |(g, v, k)| Outcome::Kind(g, v, k),
            ),
        InformerSource::InListWatch => Outcome::Skip,
        InformerSource::Untraced(expr) => Outcome::NotAnInformer(format!(
            "`{expr}` has no declaration the analyzer can follow"
        )),
    }
}

/// The informer a struct field holds: what the package assigns to it (all assignments must
/// agree), else its declared type.
fn field_outcome(values: &Values, dir: &str, owner: &str, field: &str, depth: usize) -> Outcome {
    if depth > MAX_FIELD_DEPTH {
        return Outcome::NotAnInformer(format!(
            "field {field} is assigned through too many other fields"
        ));
    }
    let mut kinds = std::collections::BTreeSet::new();
    let mut assigned = false;
    for input in values
        .index
        .files
        .iter()
        .filter(|f| dir_of(&f.facts.path) == dir)
    {
        for f in input
            .facts
            .informer_facts
            .fields
            .iter()
            .filter(|f| f.owner == owner && f.field == field)
        {
            assigned = true;
            match outcome(values, &input.facts, &f.source, depth + 1) {
                Outcome::Kind(g, v, k) => {
                    kinds.insert((g, v, k));
                }
                Outcome::Skip => {}
                Outcome::Unknown(why) => return Outcome::Unknown(why),
                Outcome::NotAnInformer(why) if kinds.is_empty() => {
                    return Outcome::NotAnInformer(why);
                }
                Outcome::NotAnInformer(why) => return Outcome::Unknown(why),
            }
        }
    }
    if assigned {
        let mut found = kinds.into_iter();
        return match (found.next(), found.next()) {
            (Some((g, v, k)), None) => Outcome::Kind(g, v, k),
            (None, _) => Outcome::Skip,
            (Some(_), Some(_)) => Outcome::Unknown(format!(
                "field {owner}.{field} is given informers of several kinds"
            )),
        };
    }
    match values.struct_field(dir, owner, field) {
        Some((f, t)) => informer_type_kind(values, f, &t).map_or_else(
            || Outcome::NotAnInformer(format!("field {owner}.{field} is not a typed informer")),
            |(g, v, k)| Outcome::Kind(g, v, k),
        ),
        None => Outcome::NotAnInformer(format!(
            "field {owner}.{field} is not declared in the package"
        )),
    }
}

/// True if function `name` (of the package `qualifier` names in `file`, else of `file`'s
/// package) hands its argument `arg` on to an informer factory's `ForResource`, directly or
/// through other in-repo functions.
fn hands_on_to_informer(
    values: &Values,
    file: &GoFile,
    qualifier: Option<&str>,
    name: &str,
    arg: usize,
) -> bool {
    let dir_for = |f: &GoFile, q: Option<&str>| -> Option<String> {
        match q {
            None => Some(dir_of(&f.path).to_string()),
            Some(q) => {
                let import = values.index.import_for(f, q)?;
                values.index.dir_of_import(&import).map(str::to_string)
            }
        }
    };
    let Some(start) = dir_for(file, qualifier) else {
        return false;
    };
    let mut stack = vec![(start, name.to_string(), arg, 0usize)];
    let mut seen = std::collections::HashSet::new();
    while let Some((dir, func, param, depth)) = stack.pop() {
        if depth > MAX_SOURCE_DEPTH || !seen.insert((dir.clone(), func.clone(), param)) {
            continue;
        }
        for input in values
            .index
            .files
            .iter()
            .filter(|f| dir_of(&f.facts.path) == dir)
        {
            for fw in input
                .facts
                .informer_facts
                .forwards
                .iter()
                .filter(|fw| fw.func == func && fw.param == param)
            {
                match &fw.to {
                    Forward::ForResource => return true,
                    Forward::Call {
                        qualifier,
                        name,
                        arg,
                    } => {
                        if let Some(d) = dir_for(&input.facts, qualifier.as_deref()) {
                            stack.push((d, name.clone(), *arg, depth + 1));
                        }
                    }
                }
            }
        }
    }
    false
}

/// The declared first result of method `method` of type `t`: an in-repo interface's method
/// or a method declared on an in-repo type.
fn method_result<'a>(
    values: &Values<'a, '_>,
    file: &'a GoFile,
    t: &TypeRef,
    method: &str,
) -> Option<(&'a GoFile, TypeRef)> {
    if t.collection {
        return None;
    }
    let dir = match &t.qualifier {
        None => dir_of(&file.path).to_string(),
        Some(q) => {
            let import = values.index.import_for(file, q)?;
            values.index.dir_of_import(&import)?.to_string()
        }
    };
    let files: &'a [GoInput] = values.index.files;
    for input in files.iter().filter(|f| dir_of(&f.facts.path) == dir) {
        if let Some((_, _, r)) = input
            .facts
            .informer_facts
            .methods
            .iter()
            .find(|(i, m, _)| *i == t.name && m == method)
        {
            return Some((&input.facts, r.clone()));
        }
    }
    let loc = values.functions.get(&(
        dir,
        FuncRef {
            receiver: Some(t.name.clone()),
            name: method.to_string(),
        },
    ))?;
    Some((loc.file, loc.signature().results.first()?.clone()?))
}

/// Types an informer's kind is looked for through (in-repo interfaces and their methods).
const MAX_TYPE_STEPS: usize = 32;

/// The kind a typed informer (or lister) value serves: client-go's `informers/<group>/
/// <version>.<Kind>Informer` and `listers/….<Kind>Lister`, the same of a generated
/// `informers/externalversions/<group>/<version>` package, or an in-repo interface whose
/// methods give informers or listers of exactly one kind.
fn informer_type_kind(
    values: &Values,
    file: &GoFile,
    t: &TypeRef,
) -> Option<(String, String, String)> {
    let files: &[GoInput] = values.index.files;
    let mut stack = vec![(file, t.clone())];
    let mut seen = std::collections::HashSet::new();
    let mut kinds = std::collections::BTreeSet::new();
    let mut steps = 0;
    while let Some((f, t)) = stack.pop() {
        steps += 1;
        if steps > MAX_TYPE_STEPS {
            return None;
        }
        if t.collection {
            continue;
        }
        let Some(import) = values.index.type_package(f, t.qualifier.as_deref()) else {
            continue;
        };
        if !seen.insert((import.clone(), t.name.clone())) {
            continue;
        }
        if let Some(k) = generated_informer_kind(values, &import, &t.name) {
            kinds.insert(k);
            continue;
        }
        let Some(dir) = values.index.dir_of_import(&import) else {
            continue;
        };
        for input in files.iter().filter(|x| dir_of(&x.facts.path) == dir) {
            for (_, _, r) in input
                .facts
                .informer_facts
                .methods
                .iter()
                .filter(|(i, _, _)| *i == t.name)
            {
                stack.push((&input.facts, r.clone()));
            }
        }
    }
    let mut found = kinds.into_iter();
    match (found.next(), found.next()) {
        (Some(k), None) => Some(k),
        _ => None,
    }
}

/// `k8s.io/client-go/informers/core/v1.SecretInformer`, `…/listers/core/v1.SecretLister`
/// and `SecretNamespaceLister`, and the same names of a generated
/// `…/informers/externalversions/<group>/<version>` or `…/listers/<group>/<version>`.
fn generated_informer_kind(
    values: &Values,
    import: &str,
    name: &str,
) -> Option<(String, String, String)> {
    let kind = name
        .strip_suffix("Informer")
        .or_else(|| name.strip_suffix("NamespaceLister"))
        .or_else(|| name.strip_suffix("Lister"))
        .filter(|k| k.starts_with(|c: char| c.is_ascii_uppercase()))?;
    for prefix in ["k8s.io/client-go/informers/", "k8s.io/client-go/listers/"] {
        if let Some(rest) = import.strip_prefix(prefix) {
            let (g, v) =
                kubernetes::go_packages::builtin_group_version(&format!("k8s.io/api/{rest}"))?;
            return Some((g, v, kind.to_string()));
        }
    }
    let rest = import
        .split_once("/informers/externalversions/")
        .or_else(|| import.split_once("/listers/"))?
        .1;
    let (group, version) = rest.split_once('/')?;
    if version.contains('/') || !kubernetes::is_version(version) {
        return None;
    }
    let capital = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    values.informer_accessor_kind(
        &format!("{}{}", capital(group), capital(version)),
        &plural(kind),
    )
}
