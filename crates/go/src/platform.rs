//! Feature gates and platform detection.
//!
//! **Feature gates.** Per file, every map literal whose values are
//! `k8s.io/component-base/featuregate`'s `FeatureSpec` (or `VersionedSpecs`, where the last
//! spec is the current one) — the argument of `DefaultMutableFeatureGate.Add(…)` or the
//! table a project hands to it — gives one `FeatureGate` per key: the key's constant
//! value, `Default`, `PreRelease` (`featuregate.Alpha`, …) and `LockToDefault`.
//!
//! **Platform checks.** Per file, `extract` records the probes a function makes: a
//! discovery call (`ServerResourcesForGroupVersion(gv)`, `ServerGroups()`,
//! `ServerGroupsAndResources()`, `ServerPreferredResources()`) in a file that imports
//! client-go, or `meta.IsNoMatchError(err)`; and every call whose result an `if` tests (in
//! its condition or initializer, or assigned and then tested by the next `if` naming the
//! variable), with its arguments and the branch's lines. Per project, `resolve` lists each
//! probe, and each call of a repository function that makes one (a helper, found with the
//! call graph) or is named like `IsOpenShift`, with what it checks (the group/version from
//! a constant, a `pkg.SchemeGroupVersion.String()` of an API package, or the caller's
//! constant arguments), the `if` it switches and the watches and writes inside that branch.
//! What it cannot establish stays `unresolved: <expression>`.

use super::syntax::FIELD;
use super::syntax::KindName;

use tree_sitter::Node;

use super::calls::{FuncId, Graph};
use super::consts::{ConstExpr, const_expr};
use super::facts::platform::{CheckArg, GvkPart, Probe, RawGate, TestedCall};
use super::facts::{GoFile, Import};
use super::index::{GoIndex, GoInput};
use super::scope::Scope;
use super::syntax::{FuncCtx, call_arguments, callee, keyed_elements, line_of, text};
use model::{Controller, FeatureGate, PackageOperation, PlatformCheck, SourceRef};

const FEATUREGATE: &str = "k8s.io/component-base/featuregate";
const META: &str = "k8s.io/apimachinery/pkg/api/meta";
const DISCOVERY_METHODS: &[&str] = &[
    "ServerResourcesForGroupVersion",
    "ServerGroups",
    "ServerGroupsAndResources",
    "ServerPreferredResources",
    "ServerPreferredNamespacedResources",
];
/// The most `if` statements and tested calls kept per file (generated files can hold
/// hundreds of thousands).
const MAX_TESTED: usize = 20_000;

/// Records the probes of one function and the calls its `if` statements test.
pub fn extract(ctx: &FuncCtx, scope: &Scope, func: usize, src: &[u8], file: &mut GoFile) {
    let imports_client_go = file
        .imports
        .iter()
        .any(|i| i.path.starts_with("k8s.io/client-go/"));
    for (call, operand, field) in ctx.method_calls() {
        let method = text(field, src);
        if imports_client_go && DISCOVERY_METHODS.contains(&method) {
            let arg = (method == "ServerResourcesForGroupVersion")
                .then(|| {
                    call_arguments(call)
                        .first()
                        .map(|a| check_arg(*a, scope, src, &file.imports))
                })
                .flatten();
            let compared = if method == "ServerResourcesForGroupVersion" {
                Vec::new()
            } else {
                compared_groups(ctx, src)
            };
            file.platform.probes.push(Probe {
                line: line_of(call),
                func,
                method: "discovery",
                arg,
                compared,
                err_from: None,
            });
        } else if method == "IsNoMatchError"
            && operand.kind_name() == "identifier"
            && scope
                .lookup(text(operand, src), operand.start_byte())
                .is_none()
            && super::calls::names_import(&file.imports, text(operand, src), META)
        {
            // The value `err` was last given before the check (`if err := r.Get(…); …`
            // reuses the name, so the last binding, not a single one, is the one tested).
            let err_from = call_arguments(call)
                .first()
                .filter(|e| e.kind_name() == "identifier")
                .and_then(|e| match scope.lookup(text(*e, src), e.start_byte()) {
                    Some(super::scope::Binding::Value(v)) => Some(v),
                    _ => None,
                })
                .filter(|v| v.kind_name() == "call_expression")
                .map(line_of);
            file.platform.probes.push(Probe {
                line: line_of(call),
                func,
                method: "no-kind-match",
                arg: None,
                compared: Vec::new(),
                err_from,
            });
        }
    }
    tested_calls(ctx, scope, func, src, file);
}

/// String constants that look like API group names (`route.openshift.io`) compared with
/// `==`/`!=` in the function, for a `ServerGroups()` probe.
fn compared_groups(ctx: &FuncCtx, src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for n in &ctx.nodes {
        if n.kind_name() != "binary_expression"
            || n.child_by_field_id(FIELD.operator)
                .is_none_or(|o| !matches!(text(o, src), "==" | "!="))
        {
            continue;
        }
        for side in [FIELD.left, FIELD.right] {
            if let Some(s) = n
                .child_by_field_id(side)
                .and_then(|s| super::syntax::string_literal(s, src))
            {
                let group = s.split('/').next().unwrap_or("");
                if group.contains('.') && !group.contains(' ') && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// What an argument is: a constant, an API package's group/version, a parameter.
fn check_arg(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> CheckArg {
    let n = scope.resolve_value(node, src);
    let written = || {
        text(node, src)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    if let Some(e) = super::binaries::values::string_in_scope(n, scope, src) {
        return CheckArg::Const(e);
    }
    if let Some(q) = group_version_string(n, scope, src, imports) {
        return CheckArg::GroupVersionOf(q);
    }
    if let Some(parts) = gvk_literal(n, scope, src, imports) {
        return CheckArg::Gvk(parts);
    }
    // A parameter, or a value read or computed from one (`gvk.GroupVersion().String()`).
    let mut root = n;
    for _ in 0..16 {
        let next = match root.kind_name() {
            "selector_expression" => root.child_by_field_id(FIELD.operand),
            "call_expression" => callee(root),
            _ => None,
        };
        match next {
            Some(x) => root = x,
            None => break,
        }
    }
    if let Some(i) = scope.param_at(root, src) {
        return CheckArg::Param(i, written());
    }
    CheckArg::Other(written())
}

/// Whether a call is given any argument (comments aside), without collecting them.
fn has_arguments(call: Node) -> bool {
    call.child_by_field_id(FIELD.arguments).is_some_and(|a| {
        let mut c = a.walk();
        a.named_children(&mut c).any(|n| n.kind_name() != "comment")
    })
}

/// The import `q` names, when `q` is not a local.
fn imported(q: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> bool {
    q.kind_name() == "identifier"
        && scope.lookup(text(q, src), q.start_byte()).is_none()
        && imports.iter().any(|i| {
            i.alias.as_deref() == Some(text(q, src))
                || (i.alias.is_none() && i.path.rsplit('/').next() == Some(text(q, src)))
        })
}

/// `q.SchemeGroupVersion` / `q.GroupVersion` of an imported package: `q`.
fn group_version_var(n: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<String> {
    (n.kind_name() == "selector_expression").then_some(())?;
    let field = text(n.child_by_field_id(FIELD.field)?, src);
    let q = n.child_by_field_id(FIELD.operand)?;
    (matches!(field, "SchemeGroupVersion" | "GroupVersion") && imported(q, scope, src, imports))
        .then(|| text(q, src).to_string())
}

/// `q.SchemeGroupVersion.String()` / `q.GroupVersion.String()`: `q`.
fn group_version_string(n: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<String> {
    (n.kind_name() == "call_expression" && !has_arguments(n)).then_some(())?;
    let f = callee(n).filter(|f| f.kind_name() == "selector_expression")?;
    (text(f.child_by_field_id(FIELD.field)?, src) == "String").then_some(())?;
    group_version_var(f.child_by_field_id(FIELD.operand)?, scope, src, imports)
}

/// The fields of a `schema.GroupVersionKind{…}` literal (through a local holding it).
fn gvk_literal(n: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<Vec<GvkPart>> {
    (n.kind_name() == "composite_literal").then_some(())?;
    let ty = n.child_by_field_id(FIELD.ty)?;
    let name = ty.child_by_field_id(FIELD.name)?;
    (ty.kind_name() == "qualified_type" && text(name, src) == "GroupVersionKind").then_some(())?;
    let body = n.child_by_field_id(FIELD.body)?;
    let mut parts = vec![GvkPart::Const(ConstExpr::Str(String::new())); 3];
    let mut seen = 0;
    for (key, value) in keyed_elements(body) {
        let i = match text(key, src) {
            "Group" => 0,
            "Version" => 1,
            "Kind" => 2,
            _ => continue,
        };
        seen += 1;
        parts[i] = if let Some(e) = super::binaries::values::string_in_scope(value, scope, src) {
            GvkPart::Const(e)
        } else if value.kind_name() == "selector_expression"
            && let Some(field) = value.child_by_field_id(FIELD.field)
            && matches!(text(field, src), "Group" | "Version")
            && let Some(q) = value
                .child_by_field_id(FIELD.operand)
                .and_then(|o| group_version_var(o, scope, src, imports))
        {
            GvkPart::Package(q, text(field, src) == "Group")
        } else {
            GvkPart::Other(text(value, src).to_string())
        };
    }
    (seen > 0).then_some(parts)
}

/// Calls tested by an `if`: in its condition or initializer, or assigned to a variable
/// the next `if` of the function names.
fn tested_calls(ctx: &FuncCtx, scope: &Scope, func: usize, src: &[u8], file: &mut GoFile) {
    /// One `if`: where its head (initializer and condition) ends, its lines, and the
    /// names its condition reads (each collected once, not once per call).
    struct If<'s> {
        start: usize,
        head_end: usize,
        span: (u32, u32),
        names: Vec<&'s str>,
    }
    if ctx.calls.is_empty() {
        return;
    }
    // One pass over the function's nodes: its `if`s, and the calls written as a value of
    // an assignment or a return (`v := F()`, `return F()`), found from the lists down:
    // asking each call for its parent costs the tree's depth (tree-sitter walks down from
    // the root), which is quadratic in deeply nested calls (`f(f(f(…)))`).
    let mut ifs: Vec<If> = Vec::new();
    let mut listed: Vec<usize> = Vec::new();
    for n in &ctx.nodes {
        match n.kind_name() {
            "if_statement" => {
                let mut names = Vec::new();
                if let Some(c) = n.child_by_field_id(FIELD.condition) {
                    super::syntax::for_each_plain_identifier(c, |id| names.push(text(id, src)));
                }
                ifs.push(If {
                    start: n.start_byte(),
                    head_end: n
                        .child_by_field_id(FIELD.consequence)
                        .map_or(n.end_byte(), |c| c.start_byte()),
                    span: (line_of(*n), n.end_position().row as u32 + 1),
                    names,
                });
            }
            "expression_list" => {
                let mut c = n.walk();
                listed.extend(
                    n.named_children(&mut c)
                        .filter(|e| e.kind_name() == "call_expression")
                        .map(|e| e.id()),
                );
            }
            _ => {}
        }
    }
    listed.sort_unstable();
    // The variable each call's value is assigned to (`v := F()`), from the statements down
    // for the same reason.
    let assigned: std::collections::HashMap<usize, &str> = ctx
        .bindings
        .iter()
        .filter_map(|b| {
            let (target, value) = match b.kind_name() {
                "short_var_declaration" | "assignment_statement" => (
                    b.child_by_field_id(FIELD.left)?.named_child(0)?,
                    b.child_by_field_id(FIELD.right)?.named_child(0)?,
                ),
                "var_spec" => (
                    b.child_by_field_id(FIELD.name)?,
                    b.child_by_field_id(FIELD.value)?.named_child(0)?,
                ),
                _ => return None,
            };
            (target.kind_name() == "identifier" && value.kind_name() == "call_expression")
                .then(|| (value.id(), text(target, src)))
        })
        .collect();
    // Calls times `if`s is quadratic in a huge generated function: past this many steps
    // the function's remaining calls are not recorded (they are checks of no branch).
    let mut budget: usize = 2_000_000;
    for &call in &ctx.calls {
        if file.platform.tested.len() >= MAX_TESTED || budget == 0 {
            return;
        }
        // Only calls of functions (`F(…)`, `q.F(…)`, `x.M(…)`) that may be helpers; the
        // discovery calls themselves are probes.
        let Some(f) = callee(call) else { continue };
        if !matches!(f.kind_name(), "identifier" | "selector_expression") {
            continue;
        }
        budget = budget.saturating_sub(ifs.len());
        let at = call.start_byte();
        // In an `if`'s condition or initializer.
        let direct = ifs.iter().find(|i| i.start < at && at < i.head_end);
        let in_list = listed.binary_search(&call.id()).is_ok();
        if direct.is_none() && !in_list {
            continue;
        }
        // The standard library's functions are no helpers of the repository.
        if let Some(q) = f
            .child_by_field_id(FIELD.operand)
            .filter(|q| q.kind_name() == "identifier")
            && super::calls::is_std_qualifier(&file.imports, text(q, src))
            && scope.lookup(text(q, src), q.start_byte()).is_none()
        {
            continue;
        }
        let branch = match direct {
            Some(i) => Some(i.span),
            None if !in_list => None,
            None => assigned
                .get(&call.id())
                .filter(|v| !matches!(**v, "_" | "err"))
                .and_then(|v| {
                    ifs.iter()
                        .filter(|i| i.start > call.end_byte())
                        .find(|i| i.names.contains(v))
                        .map(|i| i.span)
                }),
        };
        if branch.is_none() && !in_list {
            continue;
        }
        let args = ctx
            .arguments(call)
            .iter()
            .map(|a| check_arg(*a, scope, src, &file.imports))
            .collect();
        file.platform.tested.push(TestedCall {
            line: line_of(call),
            func,
            args,
            branch,
        });
    }
}

/// Feature-gate specs of the file: each map literal whose value type is `featuregate`'s
/// `FeatureSpec` or `VersionedSpecs`.
pub fn extract_feature_gates(root: Node, src: &[u8], file: &mut GoFile) {
    let Some(import) = file.imports.iter().find(|i| i.path == FEATUREGATE) else {
        return;
    };
    let qualifier = import
        .alias
        .clone()
        .unwrap_or_else(|| "featuregate".to_string());
    let mut literals = Vec::new();
    super::syntax::for_each_node(root, |n| {
        if n.kind_name() == "composite_literal"
            && let Some(ty) = n.child_by_field_id(FIELD.ty)
            && ty.kind_name() == "map_type"
            && let Some(value) = ty.child_by_field_id(FIELD.value)
            && value.kind_name() == "qualified_type"
            && value
                .child_by_field_id(FIELD.package)
                .is_some_and(|p| text(p, src) == qualifier)
            && let Some(name) = value.child_by_field_id(FIELD.name)
            && matches!(text(name, src), "FeatureSpec" | "VersionedSpecs")
        {
            literals.push((n, text(name, src) == "VersionedSpecs"));
        }
    });
    for (literal, versioned) in literals {
        let Some(body) = literal.child_by_field_id(FIELD.body) else {
            continue;
        };
        for (key, value) in keyed_elements(body) {
            let spec = if versioned {
                // The specs in version order: the last one is the current one.
                let mut c = value.walk();
                let last = value
                    .named_children(&mut c)
                    .filter(|e| e.kind_name() == "literal_element")
                    .last()
                    .and_then(|e| e.named_child(0));
                match last {
                    Some(s) => s,
                    None => continue,
                }
            } else {
                value
            };
            let spec = if spec.kind_name() == "composite_literal" {
                spec.child_by_field_id(FIELD.body).unwrap_or(spec)
            } else {
                spec
            };
            if spec.kind_name() != "literal_value" {
                continue;
            }
            let mut gate = RawGate {
                line: line_of(key),
                name: const_expr(key, src).ok_or_else(|| text(key, src).to_string()),
                default: String::new(),
                stage: String::new(),
                locked: false,
                version: String::new(),
            };
            for (k, v) in keyed_elements(spec) {
                match text(k, src) {
                    "Default" => gate.default = text(v, src).to_string(),
                    "PreRelease" => {
                        gate.stage = match v.kind_name() {
                            "selector_expression"
                                if v.child_by_field_id(FIELD.operand)
                                    .is_some_and(|o| text(o, src) == qualifier) =>
                            {
                                v.child_by_field_id(FIELD.field)
                                    .map(|f| text(f, src).to_string())
                                    .unwrap_or_default()
                            }
                            _ => text(v, src).to_string(),
                        }
                    }
                    "LockToDefault" => gate.locked = text(v, src) == "true",
                    "Version" => {
                        let mut found = None;
                        super::syntax::for_each_node(v, |n| {
                            if found.is_none() {
                                found = super::syntax::string_literal(n, src);
                            }
                        });
                        gate.version = found.unwrap_or_else(|| text(v, src).to_string());
                    }
                    _ => {}
                }
            }
            file.platform.gates.push(gate);
        }
    }
}

/// Every file's feature gates, names evaluated.
pub fn resolve_gates(files: &[GoInput], index: &GoIndex) -> Vec<FeatureGate> {
    let mut out = Vec::new();
    for input in files {
        let file = &input.facts;
        for g in &file.platform.gates {
            let name = match &g.name {
                Ok(e) => index
                    .eval(file, e)
                    .unwrap_or_else(|| format!("unresolved: {}", e.written())),
                Err(text) => format!("unresolved: {text}"),
            };
            out.push(FeatureGate {
                name,
                default: g.default.clone(),
                stage: g.stage.clone(),
                locked: g.locked,
                version: g.version.clone(),
                area: input.area,
                sources: vec![SourceRef::new(&file.path, g.line)],
            });
        }
    }
    out
}

/// True for a function named like an OpenShift check (`IsOpenShift`, `isOpenshift`,
/// `IsOpenShiftCluster`).
fn openshift_helper(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("isopenshift") || lower.starts_with("is_openshift")
}

/// What a helper checks: a fixed answer (`OpenShift`, a constant group/version), or the
/// argument its callers pass at a parameter position.
#[derive(Clone, PartialEq)]
enum Asks {
    Fixed(String),
    Param(usize),
}

/// How many helper levels a check is followed up through (`IsCrdAvailable` →
/// `GetAvailableResourcesForApi` → the discovery call).
const MAX_HELPER_LEVELS: usize = 4;

/// Platform checks: each probe, and each call of a helper that makes one (or is named
/// like an OpenShift check), with the branch it decides and what that branch does.
pub fn resolve_checks(
    files: &[GoInput],
    index: &GoIndex,
    graph: &Graph,
    controllers: &[Controller],
    package_operations: &[PackageOperation],
) -> Vec<PlatformCheck> {
    let mut out = Vec::new();
    let tested = |fi: usize, func: usize, line: u32| {
        files[fi]
            .facts
            .platform
            .tested
            .iter()
            .find(|t| t.func == func && t.line == line)
    };
    let row = |id: FuncId, checks: String, method: &str, helper: String, line: u32| {
        let branch = tested(id.file, id.func, line).and_then(|t| t.branch);
        row(
            files,
            graph,
            id,
            checks,
            method,
            helper,
            branch,
            line,
            controllers,
            package_operations,
        )
    };
    // Helpers: functions with a discovery probe, or named like an OpenShift check.
    let mut helpers: Vec<(FuncId, Asks)> = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for p in &file.platform.probes {
            let asks = match &p.arg {
                Some(CheckArg::Param(i, _)) => Asks::Param(*i),
                Some(a) => Asks::Fixed(arg_text(index, file, a)),
                None if !p.compared.is_empty() => Asks::Fixed(p.compared.join(", ")),
                None if p.method == "no-kind-match" => Asks::Fixed(
                    p.err_from
                        .map(|line| {
                            failing_kinds(&file.path, line, controllers, package_operations)
                        })
                        .filter(|k| !k.is_empty())
                        .map(|k| k.join(", "))
                        .unwrap_or_else(|| {
                            "unresolved: the kind of the call whose error is tested".to_string()
                        }),
                ),
                None => Asks::Fixed(
                    "unresolved: which API groups the result is searched for".to_string(),
                ),
            };
            let checks = match (&asks, &p.arg) {
                (Asks::Fixed(t), _) => t.clone(),
                (Asks::Param(..), Some(a)) => arg_text(index, file, a),
                (Asks::Param(..), None) => String::new(),
            };
            out.push(row(
                FuncId::new(fi, p.func),
                checks,
                p.method,
                String::new(),
                p.line,
            ));
            // A function that tolerates a missing kind (`IsNoMatchError`) is no check
            // its callers make.
            if p.method == "discovery"
                && !helpers.iter().any(|(id, _)| *id == FuncId::new(fi, p.func))
            {
                helpers.push((FuncId::new(fi, p.func), asks));
            }
        }
        for (i, f) in file.call_facts.iter().enumerate() {
            if openshift_helper(&f.name) && !helpers.iter().any(|(id, _)| *id == FuncId::new(fi, i))
            {
                helpers.push((FuncId::new(fi, i), Asks::Fixed("OpenShift".to_string())));
            }
        }
    }
    // Each helper's call sites, level by level: a caller that passes its own parameter on
    // is a helper of the next level, the others are checks.
    let mut level = helpers;
    let mut done: Vec<FuncId> = level.iter().map(|(id, _)| *id).collect();
    for _ in 0..MAX_HELPER_LEVELS {
        let mut next = Vec::new();
        for (id, asks) in &level {
            let helper = graph.display(*id);
            for (
                FuncId {
                    file: cfi,
                    func: cfunc,
                },
                call,
            ) in graph.calls_into(*id)
            {
                let caller = &files[cfi].facts;
                let site = tested(cfi, cfunc, call.line);
                let checks = match asks {
                    Asks::Fixed(t) => t.clone(),
                    Asks::Param(i) => {
                        let arg = site.and_then(|t| t.args.get(*i));
                        if let Some(CheckArg::Param(j, _)) = arg {
                            if !done.contains(&FuncId::new(cfi, cfunc)) {
                                done.push(FuncId::new(cfi, cfunc));
                                next.push((FuncId::new(cfi, cfunc), Asks::Param(*j)));
                            }
                            continue;
                        }
                        // The argument checked, then the call's other constant arguments
                        // (a kind checked in the group/version's resources).
                        let mut parts: Vec<String> = arg
                            .map(|a| arg_text(index, caller, a))
                            .into_iter()
                            .collect();
                        for (k, a) in site
                            .map(|t| t.args.iter().enumerate())
                            .into_iter()
                            .flatten()
                        {
                            // Only the ones that evaluate: the others (a config, a
                            // client) say nothing of what is checked.
                            if k != *i
                                && let CheckArg::Const(e) = a
                                && let Some(v) = index.eval(caller, e)
                            {
                                parts.push(v);
                            }
                        }
                        if parts.is_empty() {
                            format!("unresolved: the argument {helper} is given")
                        } else {
                            parts.join(", ")
                        }
                    }
                };
                out.push(row(
                    FuncId::new(cfi, cfunc),
                    checks,
                    "helper",
                    helper.clone(),
                    call.line,
                ));
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    out.sort_by(|a, b| a.sources.cmp(&b.sources));
    out.dedup();
    out
}

#[allow(clippy::too_many_arguments)]
fn row(
    files: &[GoInput],
    graph: &Graph,
    FuncId { file: fi, func }: FuncId,
    checks: String,
    method: &str,
    helper: String,
    branch: Option<(u32, u32)>,
    line: u32,
    controllers: &[Controller],
    package_operations: &[PackageOperation],
) -> PlatformCheck {
    let path = &files[fi].facts.path;
    let switches = branch
        .map(|(from, to)| switched(path, from, to, controllers, package_operations))
        .unwrap_or_default();
    PlatformCheck {
        checks,
        method: method.to_string(),
        helper,
        function: graph.display(FuncId::new(fi, func)),
        branch: branch.map(|(from, _)| SourceRef::new(path, from)),
        switches,
        area: files[fi].area,
        sources: vec![SourceRef::new(path, line)],
    }
}

/// The watches and writes written inside lines `from..=to` of `path`, or made through a
/// call written there.
fn switched(
    path: &str,
    from: u32,
    to: u32,
    controllers: &[Controller],
    package_operations: &[PackageOperation],
) -> Vec<String> {
    let inside = |s: &SourceRef| s.file == path && (from..=to).contains(&s.line);
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: String| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    for c in controllers {
        for w in &c.watches {
            if w.sources.iter().any(inside) {
                add(format!(
                    "{} {} ({})",
                    w.relation.label(),
                    gvk_label(&w.group, &w.kind),
                    c.name
                ));
            }
        }
        for o in &c.operations {
            if o.sources.iter().any(inside)
                || o.via
                    .iter()
                    .any(|v| inside(&SourceRef::new(&v.file, v.line)))
            {
                add(format!(
                    "{} {} ({})",
                    o.verb,
                    gvk_label(&o.group, &o.kind),
                    c.name
                ));
            }
        }
    }
    for o in package_operations {
        if o.sources.iter().any(inside) {
            add(format!("{} {}", o.verb, o.kind));
        }
    }
    out
}

/// The resolved kinds of the client reads and writes made at `path:line` (the call whose
/// error a no-kind-match check tests). A row whose first source is elsewhere was made
/// through a helper of a parameter object, whose kinds are its callers', not this call's.
fn failing_kinds(
    path: &str,
    line: u32,
    controllers: &[Controller],
    package_operations: &[PackageOperation],
) -> Vec<String> {
    let at = |s: &SourceRef| s.file == path && s.line == line;
    let mut out: Vec<String> = Vec::new();
    let ops = controllers
        .iter()
        .flat_map(|c| c.operations.iter().chain(&c.reads))
        .filter(|o| o.sources.first().is_some_and(at))
        .map(|o| (o.group.as_str(), o.kind.as_str()));
    let package = package_operations
        .iter()
        .filter(|o| o.sources.first().is_some_and(at))
        .map(|o| (o.group.as_str(), o.kind.as_str()));
    for (group, kind) in ops.chain(package) {
        let label = gvk_label(group, kind);
        if group != model::UNRESOLVED && !out.contains(&label) {
            out.push(label);
        }
    }
    out
}

/// `Service.serving.knative.dev`, `Deployment.apps`, `Pod` (core): a kind with its group,
/// so same-named kinds stay apart.
fn gvk_label(group: &str, kind: &str) -> String {
    if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    }
}

fn arg_text(index: &GoIndex, file: &GoFile, arg: &CheckArg) -> String {
    match arg {
        CheckArg::Const(e) => index
            .eval(file, e)
            .unwrap_or_else(|| format!("unresolved: {}", e.written())),
        CheckArg::GroupVersionOf(q) => index
            .import_for(file, q)
            .and_then(|path| index.group_version(&path))
            .map(|(g, v)| if g.is_empty() { v } else { format!("{g}/{v}") })
            .unwrap_or_else(|| format!("unresolved: {q}.GroupVersion")),
        CheckArg::Param(_, name) => format!("the caller's `{name}`"),
        CheckArg::Gvk(parts) => {
            let part = |p: &GvkPart| match p {
                GvkPart::Const(e) => index.eval(file, e),
                GvkPart::Package(q, group) => index
                    .import_for(file, q)
                    .and_then(|path| index.group_version(&path))
                    .map(|(g, v)| if *group { g } else { v }),
                GvkPart::Other(_) => None,
            };
            match (part(&parts[0]), part(&parts[1]), part(&parts[2])) {
                (Some(g), Some(v), Some(k)) if g.is_empty() => format!("{v} {k}"),
                (Some(g), Some(v), Some(k)) => format!("{g}/{v} {k}"),
                _ => "unresolved: a GroupVersionKind literal".to_string(),
            }
        }
        CheckArg::Other(t) => format!("unresolved: {t}"),
    }
}
