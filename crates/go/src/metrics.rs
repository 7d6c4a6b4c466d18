//! Metrics: OpenTelemetry instruments (`meter.Int64Counter(name, metric.WithDescription(…))`
//! and the other `Int64…`/`Float64…` instruments, in files using OpenTelemetry's metric
//! API), and Prometheus collectors created with client_golang — `prometheus.NewCounter`,
//! `NewCounterVec`, `NewGauge(Vec)`, `NewHistogram(Vec)`, `NewSummary(Vec)`, the `…Func`
//! forms, the same through `promauto` and `promauto.With(reg)`, and `prometheus.NewDesc`
//! for custom collectors — in package-level `var` blocks and inside functions alike.
//!
//! The exposed name is `Namespace`, `Subsystem` and `Name` of the `*Opts` literal joined
//! with `_`, skipping empty parts, exactly as client_golang's `BuildFQName` does. Label
//! names come from the vector constructor's `[]string{…}` argument, a package-level list,
//! or `append` of those. Every part is a constant or it is shown as `?` with a diagnostic:
//! nothing is guessed. A `NewDesc` metric takes its type from the `MustNewConstMetric`
//! (or histogram/summary) calls that use it in the same package.

use super::syntax::FIELD;
use super::syntax::KindName;
use std::collections::HashMap;

use tree_sitter::Node;

use super::binaries::values::value_of;
use super::calls::names_import;
use super::consts::ConstExpr;
use super::facts::binaries::RawValue;
use super::facts::metrics::{LabelPart, MetricFacts, OptsSource, RawMetric, RawOpts};
use super::facts::{GoFile, Import};
use super::index::{GoIndex, GoInput};
use super::scope::{Binding, Scope};
use super::syntax::callee;
use super::syntax::{FuncCtx, for_each_plain_identifier, line_of, text};
use model::{Diagnostic, Metric, SourceRef, UNRESOLVED};

const PROMETHEUS: &str = "github.com/prometheus/client_golang/prometheus";
const PROMAUTO: &str = "github.com/prometheus/client_golang/prometheus/promauto";

/// Constructor name → (type, takes label names as its second argument).
fn constructor(name: &str) -> Option<(&'static str, bool)> {
    Some(match name {
        "NewCounter" | "NewCounterFunc" => ("counter", false),
        "NewCounterVec" => ("counter", true),
        "NewGauge" | "NewGaugeFunc" => ("gauge", false),
        "NewGaugeVec" => ("gauge", true),
        "NewHistogram" => ("histogram", false),
        "NewHistogramVec" => ("histogram", true),
        "NewSummary" => ("summary", false),
        "NewSummaryVec" => ("summary", true),
        "NewUntypedFunc" => ("untyped", false),
        "NewDesc" => ("", true),
        _ => return None,
    })
}

/// Records the collectors created in one function.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    let imports = std::mem::take(&mut file.imports);
    for (&node, &sel) in ctx.calls.iter().zip(&ctx.selectors) {
        visit_call(node, sel, scope, src, &imports, &mut file.metrics);
    }
    file.imports = imports;
}

/// Records the collectors, option literals and label lists of a package-level `var`.
pub fn extract_package_level(nodes: &[Node], src: &[u8], file: &mut GoFile) {
    let imports = std::mem::take(&mut file.imports);
    let scope = Scope::package_level();
    nodes.iter().for_each(|&node| match node.kind_name() {
        "call_expression" => visit_call(
            node,
            super::syntax::selector_callee(node),
            &scope,
            src,
            &imports,
            &mut file.metrics,
        ),
        "var_spec" => {
            let names: Vec<String> = crate::syntax::field_children(node, FIELD.name)
                .into_iter()
                .filter(|n| n.kind_name() == "identifier")
                .map(|n| text(n, src).to_string())
                .collect();
            let values: Vec<Node> = node
                .child_by_field_id(FIELD.value)
                .map(|v| {
                    let mut vc = v.walk();
                    v.named_children(&mut vc).collect()
                })
                .unwrap_or_default();
            if names.len() != values.len() {
                return;
            }
            for (name, value) in names.into_iter().zip(values) {
                if let Some(opts) = opts_literal(value, &scope, src, &imports) {
                    file.metrics.opts_vars.push((name, opts));
                } else if is_string_list(value, src) {
                    let labels = labels_of(value, &scope, src);
                    file.metrics.label_lists.push((name, labels));
                }
            }
        }
        _ => {}
    });
    file.imports = imports;
}

fn is_string_list(node: Node, src: &[u8]) -> bool {
    match node.kind_name() {
        "composite_literal" => node
            .child_by_field_id(FIELD.ty)
            .is_some_and(|t| t.kind_name() == "slice_type" && text(t, src) == "[]string"),
        "call_expression" => {
            callee(node).is_some_and(|f| f.kind_name() == "identifier" && text(f, src) == "append")
        }
        _ => false,
    }
}

/// `sel` is the call's `operand.field` callee (`FuncCtx::selectors`).
fn visit_call(
    node: Node,
    sel: Option<(Node, Node)>,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
    out: &mut MetricFacts,
) {
    let Some((operand, field)) = sel else {
        return;
    };
    let method = text(field, src);
    if otel_instrument(method).is_some() {
        visit_otel(node, scope, src, imports, out);
        return;
    }
    // Every constant-metric constructor is a `…NewConst…`; anything else must be a
    // collector constructor. Most calls are neither, and stop here.
    if !method.contains("NewConst") && constructor(method).is_none() {
        return;
    }
    let args = super::syntax::call_arguments(node);
    let is_pkg = |n: Node, path: &str| {
        n.kind_name() == "identifier"
            && scope.lookup(text(n, src), n.start_byte()).is_none()
            && names_import(imports, text(n, src), path)
    };
    if is_pkg(operand, PROMETHEUS)
        && let Some(kind) = const_metric_type(method, args.get(1).copied(), src)
    {
        if let Some(holder) = args.first().and_then(|d| desc_holder(*d, scope, src)) {
            out.desc_types.push((holder, kind.to_string()));
        }
        return;
    }
    let Some((kind, vector)) = constructor(method) else {
        return;
    };
    let factory = scope.resolve_value(operand, src);
    let from_factory = factory.kind_name() == "call_expression"
        && callee(factory).is_some_and(|g| {
            g.kind_name() == "selector_expression"
                && g.child_by_field_id(FIELD.field)
                    .is_some_and(|x| text(x, src) == "With")
                && g.child_by_field_id(FIELD.operand)
                    .is_some_and(|o| is_pkg(o, PROMAUTO))
        });
    let direct = is_pkg(operand, PROMETHEUS) || (is_pkg(operand, PROMAUTO) && !kind.is_empty());
    if !direct && !from_factory {
        return;
    }
    let raw = if method == "NewDesc" {
        if args.len() < 3 {
            return;
        }
        RawMetric {
            line: line_of(node),
            kind: String::new(),
            opts: OptsSource::Literal(Box::new(desc_opts(args[0], args[1], scope, src, imports))),
            labels: Some(labels_of(args[2], scope, src)),
            desc_var: package_var_of(node, src)
                .or_else(|| literal_field_of(node, src))
                .or_else(|| assigned_field_of(node, scope, src)),
            otel: false,
        }
    } else {
        let Some(first) = args.first() else {
            return;
        };
        RawMetric {
            line: line_of(node),
            kind: kind.to_string(),
            opts: opts_source(*first, scope, src, imports),
            labels: if vector {
                Some(
                    args.get(1)
                        .map(|a| labels_of(*a, scope, src))
                        .unwrap_or_default(),
                )
            } else {
                None
            },
            desc_var: None,
            otel: false,
        }
    };
    out.metrics.push(raw);
}

/// OpenTelemetry's metric API: its `Meter` makes instruments, its options describe them.
const OTEL_METRIC: &str = "go.opentelemetry.io/otel/metric";

/// An OpenTelemetry `Meter` method making an instrument → the instrument's type.
fn otel_instrument(method: &str) -> Option<&'static str> {
    let rest = method
        .strip_prefix("Int64")
        .or_else(|| method.strip_prefix("Float64"))?;
    let rest = rest.strip_prefix("Observable").unwrap_or(rest);
    Some(match rest {
        "Counter" => "counter",
        "UpDownCounter" => "updowncounter",
        "Histogram" => "histogram",
        "Gauge" => "gauge",
        _ => return None,
    })
}

/// `meter.Int64Counter("name", metric.WithDescription("…"), …)` in a file that uses
/// OpenTelemetry's metric API: the instrument, its name and description.
fn visit_otel(node: Node, scope: &Scope, src: &[u8], imports: &[Import], out: &mut MetricFacts) {
    let Some((operand, field)) = super::syntax::selector_callee(node) else {
        return;
    };
    let Some(kind) = otel_instrument(text(field, src)) else {
        return;
    };
    let otel_qualifier = imports.iter().find_map(|imp| {
        (imp.path == OTEL_METRIC).then(|| imp.alias.clone().unwrap_or_else(|| "metric".into()))
    });
    let Some(qualifier) = otel_qualifier else {
        return;
    };
    // A method of a value (the meter: a local, a parameter, a package-level variable),
    // never a package's function.
    if operand.kind_name() == "identifier" {
        let name = text(operand, src);
        if scope.lookup(name, operand.start_byte()).is_none() && may_name_import(imports, name) {
            return;
        }
    }
    let args = super::syntax::call_arguments(node);
    let Some(first) = args.first() else {
        return;
    };
    let option = |name: &str| {
        args[1..].iter().find_map(|a| {
            let (q, f) = super::syntax::selector_callee(*a)?;
            (text(q, src) == qualifier && text(f, src) == name)
                .then(|| super::syntax::call_arguments(*a).first().copied())
                .flatten()
        })
    };
    out.metrics.push(RawMetric {
        line: line_of(node),
        kind: kind.to_string(),
        opts: OptsSource::Literal(Box::new(RawOpts {
            namespace: None,
            subsystem: None,
            name: Some(value_of(*first, scope, src, imports)),
            help: option("WithDescription").map(|d| value_of(d, scope, src, imports)),
        })),
        labels: None,
        desc_var: None,
        otel: true,
    });
}

/// True when `name` may be the name of one of the file's imports: its alias, or the last
/// element of its path (the one before a `/vN` major version).
fn may_name_import(imports: &[Import], name: &str) -> bool {
    imports.iter().any(|imp| match &imp.alias {
        Some(alias) => alias == name,
        None => {
            let mut elements = imp.path.rsplit('/');
            let last = elements.next().unwrap_or_default();
            last == name
                || (kubernetes::is_version(last) && elements.next() == Some(name))
                || last.split(['.', '-']).next() == Some(name)
        }
    })
}

fn const_metric_type(method: &str, value_type: Option<Node>, src: &[u8]) -> Option<&'static str> {
    match method {
        "MustNewConstMetric"
        | "NewConstMetric"
        | "MustNewConstMetricWithCreatedTimestamp"
        | "NewConstMetricWithCreatedTimestamp" => {
            let field = value_type?.child_by_field_id(FIELD.field)?;
            match text(field, src) {
                "CounterValue" => Some("counter"),
                "GaugeValue" => Some("gauge"),
                "UntypedValue" => Some("untyped"),
                _ => None,
            }
        }
        "MustNewConstHistogram"
        | "NewConstHistogram"
        | "MustNewConstHistogramWithCreatedTimestamp"
        | "NewConstHistogramWithCreatedTimestamp"
        | "MustNewConstNativeHistogram"
        | "NewConstNativeHistogram" => Some("histogram"),
        "MustNewConstSummary"
        | "NewConstSummary"
        | "MustNewConstSummaryWithCreatedTimestamp"
        | "NewConstSummaryWithCreatedTimestamp" => Some("summary"),
        _ => None,
    }
}

/// The package-level variable a call's value is assigned to (`var d = prometheus.NewDesc(…)`).
fn package_var_of(call: Node, src: &[u8]) -> Option<String> {
    let list = call
        .parent()
        .filter(|p| p.kind_name() == "expression_list")?;
    let spec = list.parent().filter(|p| p.kind_name() == "var_spec")?;
    let mut c = list.walk();
    let position = list
        .named_children(&mut c)
        .position(|n| n.id() == call.id())?;
    let name = crate::syntax::field_children(spec, FIELD.name)
        .into_iter()
        .filter(|n| n.kind_name() == "identifier")
        .nth(position)?;
    Some(text(name, src).to_string())
}

/// What holds a descriptor passed to `MustNewConstMetric`: a package-level variable
/// (`name`), or a field of a value whose type is known (`T.field`: the receiver, a typed
/// parameter or variable of a type of this package).
fn desc_holder(desc: Node, scope: &Scope, src: &[u8]) -> Option<String> {
    match desc.kind_name() {
        "identifier" if scope.lookup(text(desc, src), desc.start_byte()).is_none() => {
            Some(text(desc, src).to_string())
        }
        "selector_expression" => {
            let operand = desc
                .child_by_field_id(FIELD.operand)
                .filter(|o| o.kind_name() == "identifier")?;
            let field = desc.child_by_field_id(FIELD.field)?;
            let ty = match scope.lookup(text(operand, src), operand.start_byte())? {
                Binding::Receiver(t) | Binding::Typed(t) | Binding::Param(_, Some(t)) => t,
                _ => return None,
            };
            ty.qualifier
                .is_none()
                .then(|| format!("{}.{}", ty.name, text(field, src)))
        }
        _ => None,
    }
}

/// `T.field` for a call that is a field's value in a literal of a type of this package
/// (`&collector{entries: prometheus.NewDesc(…)}`).
fn literal_field_of(call: Node, src: &[u8]) -> Option<String> {
    let value = call
        .parent()
        .filter(|p| p.kind_name() == "literal_element")?;
    let keyed = value
        .parent()
        .filter(|p| p.kind_name() == "keyed_element")?;
    if keyed.child_by_field_id(FIELD.value)?.id() != value.id() {
        return None;
    }
    let key = keyed.child_by_field_id(FIELD.key)?.named_child(0)?;
    let literal = keyed
        .parent()
        .filter(|p| p.kind_name() == "literal_value")?
        .parent()
        .filter(|p| p.kind_name() == "composite_literal")?;
    let ty = literal
        .child_by_field_id(FIELD.ty)
        .filter(|t| t.kind_name() == "type_identifier")?;
    Some(format!("{}.{}", text(ty, src), text(key, src)))
}

/// `T.field` for a call assigned to a field of a value whose type is known
/// (`c.entries = prometheus.NewDesc(…)` in a method of `*collector`).
fn assigned_field_of(call: Node, scope: &Scope, src: &[u8]) -> Option<String> {
    let right = call
        .parent()
        .filter(|p| p.kind_name() == "expression_list")?;
    let assignment = right
        .parent()
        .filter(|p| p.kind_name() == "assignment_statement")?;
    if assignment.child_by_field_id(FIELD.right)?.id() != right.id() {
        return None;
    }
    let mut c = right.walk();
    let position = right
        .named_children(&mut c)
        .position(|n| n.id() == call.id())?;
    let left = assignment.child_by_field_id(FIELD.left)?;
    let mut lc = left.walk();
    let target = left.named_children(&mut lc).nth(position)?;
    if target.kind_name() != "selector_expression" {
        return None;
    }
    desc_holder(target, scope, src)
}

/// The options of `NewDesc(fqName, help, …)`, with `BuildFQName(ns, sub, name)` split.
fn desc_opts(fq: Node, help: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> RawOpts {
    let fq = scope.resolve_value(fq, src);
    let build = (fq.kind_name() == "call_expression")
        .then(|| callee(fq))
        .flatten()
        .filter(|f| {
            f.kind_name() == "selector_expression"
                && f.child_by_field_id(FIELD.field)
                    .is_some_and(|x| text(x, src) == "BuildFQName")
        })
        .and_then(|_| fq.child_by_field_id(FIELD.arguments))
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c)
                .filter(|n| n.kind_name() != "comment")
                .collect::<Vec<_>>()
        })
        .filter(|a| a.len() == 3);
    let part = |n: Node| Some(value_of(n, scope, src, imports));
    let mut opts = RawOpts {
        help: part(help),
        ..RawOpts::default()
    };
    match build {
        Some(a) => {
            opts.namespace = part(a[0]);
            opts.subsystem = part(a[1]);
            opts.name = part(a[2]);
        }
        None => opts.name = part(fq),
    }
    opts
}

fn opts_source(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> OptsSource {
    if let Some(opts) = opts_literal(node, scope, src, imports) {
        return OptsSource::Literal(Box::new(opts));
    }
    let n = scope.resolve_value(node, src);
    match n.kind_name() {
        "identifier" if scope.lookup(text(n, src), n.start_byte()).is_none() => {
            OptsSource::Var(None, text(n, src).to_string())
        }
        "selector_expression" => {
            let operand = n.child_by_field_id(FIELD.operand);
            let field = n.child_by_field_id(FIELD.field);
            match (operand, field) {
                (Some(o), Some(f))
                    if o.kind_name() == "identifier"
                        && scope.lookup(text(o, src), o.start_byte()).is_none() =>
                {
                    OptsSource::Var(Some(text(o, src).to_string()), text(f, src).to_string())
                }
                _ => OptsSource::Unknown(text(node, src).to_string()),
            }
        }
        _ => OptsSource::Unknown(text(node, src).to_string()),
    }
}

/// `prometheus.CounterOpts{…}` (any `…Opts` literal, behind `&` or a conversion to another
/// `…Opts` type, or in a local variable).
fn opts_literal(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<RawOpts> {
    let mut n = scope.resolve_value(node, src);
    for _ in 0..4 {
        match n.kind_name() {
            "unary_expression" | "parenthesized_expression" => {
                n = n
                    .child_by_field_id(FIELD.operand)
                    .or_else(|| n.named_child(0))?;
            }
            "call_expression" => {
                // `prometheus.GaugeOpts(opts)`: a conversion between option types.
                let f = callee(n)?;
                if !text(f, src).ends_with("Opts") {
                    return None;
                }
                let args = n.child_by_field_id(FIELD.arguments)?;
                n = scope.resolve_value(args.named_child(0)?, src);
            }
            _ => break,
        }
    }
    if n.kind_name() != "composite_literal" {
        return None;
    }
    let ty = n.child_by_field_id(FIELD.ty)?;
    let type_name = match ty.kind_name() {
        "qualified_type" => text(ty.child_by_field_id(FIELD.name)?, src),
        "type_identifier" => text(ty, src),
        _ => return None,
    };
    if !type_name.ends_with("Opts") {
        return None;
    }
    let body = n.child_by_field_id(FIELD.body)?;
    let mut opts = RawOpts::default();
    for (key, value) in super::syntax::keyed_elements(body) {
        let v = Some(value_of(value, scope, src, imports));
        match text(key, src) {
            "Namespace" => opts.namespace = v,
            "Subsystem" => opts.subsystem = v,
            "Name" => opts.name = v,
            "Help" => opts.help = v,
            _ => {}
        }
    }
    Some(opts)
}

/// Label names as written: literal lists, package-level lists and `append` of them.
fn labels_of(node: Node, scope: &Scope, src: &[u8]) -> Vec<LabelPart> {
    let mut out = Vec::new();
    // (node, is a single label name rather than a list)
    let mut stack = vec![(node, false)];
    while let Some((n, item)) = stack.pop() {
        if out.len() > 1000 {
            break;
        }
        let n = scope.resolve_value(n, src);
        if item {
            out.push(match string_part(n, scope, src) {
                Some(e) => LabelPart::Str(e),
                None => LabelPart::Other(text(n, src).to_string()),
            });
            continue;
        }
        match n.kind_name() {
            "nil" => {}
            "identifier" if text(n, src) == "nil" => {}
            "composite_literal" => {
                let Some(body) = n.child_by_field_id(FIELD.body) else {
                    continue;
                };
                let mut c = body.walk();
                let items: Vec<Node> = body
                    .named_children(&mut c)
                    .filter_map(|e| e.named_child(0))
                    .collect();
                stack.extend(items.into_iter().rev().map(|e| (e, true)));
            }
            "call_expression"
                if callee(n)
                    .is_some_and(|f| f.kind_name() == "identifier" && text(f, src) == "append") =>
            {
                let Some(args) = n.child_by_field_id(FIELD.arguments) else {
                    continue;
                };
                let mut c = args.walk();
                let args: Vec<Node> = args
                    .named_children(&mut c)
                    .filter(|a| a.kind_name() != "comment")
                    .collect();
                for (i, a) in args.into_iter().enumerate().rev() {
                    if a.kind_name() == "variadic_argument" {
                        if let Some(inner) = a.named_child(0) {
                            stack.push((inner, false));
                        }
                    } else {
                        stack.push((a, i > 0));
                    }
                }
            }
            "identifier" if scope.lookup(text(n, src), n.start_byte()).is_none() => {
                out.push(LabelPart::List(None, text(n, src).to_string()));
            }
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand);
                match (operand, n.child_by_field_id(FIELD.field)) {
                    (Some(o), Some(f))
                        if o.kind_name() == "identifier"
                            && scope.lookup(text(o, src), o.start_byte()).is_none() =>
                    {
                        out.push(LabelPart::List(
                            Some(text(o, src).to_string()),
                            text(f, src).to_string(),
                        ));
                    }
                    _ => out.push(LabelPart::Other(text(n, src).to_string())),
                }
            }
            _ => out.push(LabelPart::Other(text(n, src).to_string())),
        }
    }
    out
}

fn string_part(n: Node, scope: &Scope, src: &[u8]) -> Option<ConstExpr> {
    let e = super::consts::const_expr(n, src)?;
    let mut local = false;
    for_each_plain_identifier(n, |id| {
        if matches!(
            scope.lookup(text(id, src), id.start_byte()),
            Some(
                Binding::Value(_)
                    | Binding::Param(..)
                    | Binding::Typed(_)
                    | Binding::Unknown
                    | Binding::Receiver(_)
            )
        ) {
            local = true;
        }
    });
    (!local).then_some(e)
}

/// Resolves every collector of the project to model metrics.
pub fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Metric> {
    let mut opts_vars: HashMap<(String, String), (usize, &RawOpts)> = HashMap::new();
    let mut lists: HashMap<(String, String), (usize, &Vec<LabelPart>)> = HashMap::new();
    let mut desc_types: HashMap<(String, String), Vec<&str>> = HashMap::new();
    for (fi, input) in files.iter().enumerate() {
        let Some(pkg) = index.package_of(&input.facts) else {
            continue;
        };
        let m = &input.facts.metrics;
        for (name, o) in &m.opts_vars {
            opts_vars
                .entry((pkg.to_string(), name.clone()))
                .or_insert((fi, o));
        }
        for (name, l) in &m.label_lists {
            lists
                .entry((pkg.to_string(), name.clone()))
                .or_insert((fi, l));
        }
        for (name, t) in &m.desc_types {
            desc_types
                .entry((pkg.to_string(), name.clone()))
                .or_default()
                .push(t);
        }
    }
    let mut out = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for raw in &file.metrics.metrics {
            let at = |message: String| Diagnostic::new(&file.path, raw.line, message);
            let (ofi, opts) = match &raw.opts {
                OptsSource::Literal(o) => (fi, o.as_ref()),
                OptsSource::Var(q, name) => {
                    let found = index
                        .type_package(file, q.as_deref())
                        .and_then(|p| opts_vars.get(&(p, name.clone())));
                    match found {
                        Some((ofi, o)) => (*ofi, *o),
                        None => {
                            diagnostics.push(at(format!(
                                "cannot read the options of this collector: `{name}` is not a package-level options literal; the metric is not listed"
                            )));
                            continue;
                        }
                    }
                }
                OptsSource::Unknown(t) => {
                    diagnostics.push(at(format!(
                        "cannot read the options of this collector: `{t}` is not an options literal; the metric is not listed"
                    )));
                    continue;
                }
            };
            let ofile = &files[ofi].facts;
            let mut unresolved = Vec::new();
            let mut part = |v: &Option<RawValue>| -> String {
                match v {
                    None => String::new(),
                    Some(v) => match v.string.as_ref().and_then(|e| index.eval(ofile, e)) {
                        Some(s) => s,
                        None => {
                            unresolved.push(v.text.clone());
                            UNRESOLVED.to_string()
                        }
                    },
                }
            };
            let namespace = part(&opts.namespace);
            let subsystem = part(&opts.subsystem);
            let name = part(&opts.name);
            if name.is_empty() {
                diagnostics.push(at(
                    "this collector has no Name; the metric is not listed".to_string()
                ));
                continue;
            }
            for u in &unresolved {
                diagnostics.push(at(format!(
                    "cannot resolve part of this metric's name: `{u}` is not a string constant; it is shown as ?"
                )));
            }
            let (help, help_expr) = match &opts.help {
                None => (String::new(), false),
                Some(v) => match v.string.as_ref().and_then(|e| index.eval(ofile, e)) {
                    Some(s) => (s, false),
                    None => (v.text.clone(), true),
                },
            };
            let labels = match &raw.labels {
                None => Vec::new(),
                Some(parts) => expand_labels(fi, parts, files, index, &lists, &mut |t| {
                    diagnostics.push(at(format!(
                        "cannot resolve a label name of this metric: `{t}` is not a string constant or list; it is shown as ?"
                    )))
                }),
            };
            let kind = if raw.kind.is_empty() {
                let found = raw.desc_var.as_ref().and_then(|v| {
                    let pkg = index.package_of(file)?;
                    desc_types.get(&(pkg.to_string(), v.clone()))
                });
                let mut kinds: Vec<&str> = found.cloned().unwrap_or_default();
                kinds.sort_unstable();
                kinds.dedup();
                match kinds.as_slice() {
                    [one] => one.to_string(),
                    _ => {
                        diagnostics.push(at(
                            "cannot tell the type of this custom-collector metric: no single MustNewConstMetric/histogram/summary use of its descriptor; it is shown as ?".to_string(),
                        ));
                        UNRESOLVED.to_string()
                    }
                }
            } else {
                raw.kind.clone()
            };
            out.push(Metric {
                name: build_fq_name(&namespace, &subsystem, &name),
                kind,
                api: if raw.otel {
                    "opentelemetry".to_string()
                } else {
                    String::new()
                },
                help,
                help_expr,
                labels,
                area: input.area,
                sources: vec![SourceRef::new(&file.path, raw.line)],
            });
        }
    }
    out.sort_by(|a, b| (&a.name, &a.sources).cmp(&(&b.name, &b.sources)));
    manifests::merge::merge_identical(&mut out);
    out
}

/// client_golang's `BuildFQName`: the non-empty parts joined with `_`; nothing without a name.
pub fn build_fq_name(namespace: &str, subsystem: &str, name: &str) -> String {
    if name.is_empty() {
        return String::new();
    }
    [namespace, subsystem, name]
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("_")
}

fn expand_labels(
    fi: usize,
    parts: &[LabelPart],
    files: &[GoInput],
    index: &GoIndex,
    lists: &HashMap<(String, String), (usize, &Vec<LabelPart>)>,
    unresolved: &mut dyn FnMut(&str),
) -> Vec<String> {
    let mut out = Vec::new();
    // (file the part is written in, part, depth of list expansion)
    let mut stack: Vec<(usize, &LabelPart, usize)> =
        parts.iter().rev().map(|p| (fi, p, 0)).collect();
    while let Some((fi, part, depth)) = stack.pop() {
        let file = &files[fi].facts;
        match part {
            LabelPart::Str(e) => match index.eval(file, e) {
                Some(s) => out.push(s),
                None => {
                    unresolved(&e.written());
                    out.push(UNRESOLVED.to_string());
                }
            },
            LabelPart::List(q, name) => {
                let found = index
                    .type_package(file, q.as_deref())
                    .and_then(|p| lists.get(&(p, name.clone())));
                match found {
                    Some((lfi, list)) if depth < 8 => {
                        stack.extend(list.iter().rev().map(|p| (*lfi, p, depth + 1)));
                    }
                    _ => {
                        unresolved(name);
                        out.push(UNRESOLVED.to_string());
                    }
                }
            }
            LabelPart::Other(t) => {
                unresolved(t);
                out.push(UNRESOLVED.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
