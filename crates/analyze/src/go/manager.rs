//! controller-runtime managers and the options they are given: `ctrl.NewManager(cfg, opts)`
//! and `manager.New(cfg, opts)`, where `opts` is a literal, a local variable built from a
//! literal and then assigned field by field (`opts.Cache = …`,
//! `opts.Cache.ByObject[&corev1.Pod{}] = …`), or the result of a function of the
//! repository that returns options (a `cache.Options`, a `ctrl.Options`, …), followed into
//! nested options the same way.
//!
//! Per file, `extract` reads each `NewManager` call's options and each function whose first
//! result is an options type into `RawOptions`: one `RawSetting` per leaf the schema below
//! knows (`FIELDS`), with its value as written (`facts::binaries::RawValue`), the object or
//! namespace a map entry is for, the flag target it may be read from, and the condition it
//! is made under; a nested value made by a call is a `Splice`, resolved per project to the
//! function's own `RawOptions`. Per project, `resolve` evaluates values as flag defaults
//! are evaluated (`binaries::evaluate::Evaluator`), names the flag a value is read from (a
//! flag whose target is the same local, package variable, or field of the same struct
//! type), resolves objects to kinds (`GoIndex::resolve_object`), and attributes managers to
//! the programs that reach them and controllers to the one manager of their program.
//!
//! **Invariant:** nothing is guessed. A value portolan cannot evaluate is kept as the Go
//! expression (`ManagerOption::expr`); options that come from a parameter, an expression
//! it does not follow, or a variable whose address is handed to another function make the
//! cache's scope unknown (`Manager::cache_unknown`, with a diagnostic), and memory risks
//! that depend on it are then not reported.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use tree_sitter::Node;

use super::binaries::evaluate::Evaluator;
use super::binaries::values::{flag_target, value_of};
use super::calls::{FuncId, Graph, names_import};
use super::facts::binaries::{FlagTarget, RawValue};
use super::facts::manager::{
    Leaf, RawBuilder, RawManager, RawOptions, RawSetting, Shape, Splice, Unknown,
};
use super::facts::{GoFile, Import};
use super::index::{GoIndex, GoInput, dir_of};
use super::scope::{Binding, Scope};
use super::syntax::{
    FIELD, FuncCtx, KindName, call_arguments, callee, condition_of, keyed_elements, line_of,
    object_ref, text,
};
use super::types::{Root, TypeRef, ValueType};
use super::values::Values;
use model::{Binary, Controller, Diagnostic, Gvk, Manager, ManagerOption, OptionFlag, SourceRef};

const CTRL: &str = "sigs.k8s.io/controller-runtime";
const MANAGER: &str = "sigs.k8s.io/controller-runtime/pkg/manager";
const CACHE: &str = "sigs.k8s.io/controller-runtime/pkg/cache";
const CLIENT: &str = "sigs.k8s.io/controller-runtime/pkg/client";
const METRICS_SERVER: &str = "sigs.k8s.io/controller-runtime/pkg/metrics/server";
const WEBHOOK: &str = "sigs.k8s.io/controller-runtime/pkg/webhook";

enum Field {
    Nested(Shape),
    Leaf(Leaf),
}

/// The fields of each options type that portolan reports (the cache's scope, leader
/// election, serving addresses and ports, timing), from controller-runtime v0.15 to v0.22;
/// the older top-level fields keep their names. Fields not listed (`Scheme`, `Logger`,
/// `TLSOpts`, …) say nothing about the cache, memory or what the manager serves.
const FIELDS: &[(Shape, &str, Field)] = &[
    (Shape::Manager, "Cache", Field::Nested(Shape::Cache)),
    (Shape::Manager, "Client", Field::Nested(Shape::Client)),
    (Shape::Manager, "Metrics", Field::Nested(Shape::Metrics)),
    (
        Shape::Manager,
        "WebhookServer",
        Field::Nested(Shape::WebhookServer),
    ),
    (Shape::Manager, "LeaderElection", Field::Leaf(Leaf::Bool)),
    (Shape::Manager, "LeaderElectionID", Field::Leaf(Leaf::Str)),
    (
        Shape::Manager,
        "LeaderElectionNamespace",
        Field::Leaf(Leaf::Str),
    ),
    (
        Shape::Manager,
        "LeaderElectionResourceLock",
        Field::Leaf(Leaf::Str),
    ),
    (
        Shape::Manager,
        "LeaderElectionReleaseOnCancel",
        Field::Leaf(Leaf::Bool),
    ),
    (Shape::Manager, "LeaseDuration", Field::Leaf(Leaf::Duration)),
    (Shape::Manager, "RenewDeadline", Field::Leaf(Leaf::Duration)),
    (Shape::Manager, "RetryPeriod", Field::Leaf(Leaf::Duration)),
    (
        Shape::Manager,
        "HealthProbeBindAddress",
        Field::Leaf(Leaf::Str),
    ),
    (Shape::Manager, "PprofBindAddress", Field::Leaf(Leaf::Str)),
    (
        Shape::Manager,
        "GracefulShutdownTimeout",
        Field::Leaf(Leaf::Duration),
    ),
    // Before v0.16 these were top-level fields.
    (Shape::Manager, "MetricsBindAddress", Field::Leaf(Leaf::Str)),
    (Shape::Manager, "Port", Field::Leaf(Leaf::Int)),
    (Shape::Manager, "Host", Field::Leaf(Leaf::Str)),
    (Shape::Manager, "CertDir", Field::Leaf(Leaf::Str)),
    (Shape::Manager, "SyncPeriod", Field::Leaf(Leaf::Duration)),
    (Shape::Manager, "Namespace", Field::Leaf(Leaf::Str)),
    (Shape::Manager, "NewCache", Field::Leaf(Leaf::Func)),
    (
        Shape::Cache,
        "DefaultNamespaces",
        Field::Nested(Shape::NamespaceMap),
    ),
    (Shape::Cache, "ByObject", Field::Nested(Shape::ByObjectMap)),
    (
        Shape::Cache,
        "DefaultLabelSelector",
        Field::Leaf(Leaf::Selector),
    ),
    (
        Shape::Cache,
        "DefaultFieldSelector",
        Field::Leaf(Leaf::Selector),
    ),
    (
        Shape::Cache,
        "DefaultTransform",
        Field::Leaf(Leaf::Transform),
    ),
    (
        Shape::Cache,
        "DefaultUnsafeDisableDeepCopy",
        Field::Leaf(Leaf::Bool),
    ),
    (Shape::Cache, "SyncPeriod", Field::Leaf(Leaf::Duration)),
    (Shape::Cache, "Namespaces", Field::Leaf(Leaf::Strings)),
    (Shape::ByObject, "Label", Field::Leaf(Leaf::Selector)),
    (Shape::ByObject, "Field", Field::Leaf(Leaf::Selector)),
    (
        Shape::ByObject,
        "Namespaces",
        Field::Nested(Shape::NamespaceMap),
    ),
    (Shape::ByObject, "Transform", Field::Leaf(Leaf::Transform)),
    (
        Shape::ByObject,
        "UnsafeDisableDeepCopy",
        Field::Leaf(Leaf::Bool),
    ),
    (
        Shape::CacheConfig,
        "LabelSelector",
        Field::Leaf(Leaf::Selector),
    ),
    (
        Shape::CacheConfig,
        "FieldSelector",
        Field::Leaf(Leaf::Selector),
    ),
    (
        Shape::CacheConfig,
        "Transform",
        Field::Leaf(Leaf::Transform),
    ),
    (
        Shape::CacheConfig,
        "UnsafeDisableDeepCopy",
        Field::Leaf(Leaf::Bool),
    ),
    (Shape::Client, "Cache", Field::Nested(Shape::ClientCache)),
    (Shape::ClientCache, "DisableFor", Field::Leaf(Leaf::Objects)),
    (Shape::ClientCache, "Unstructured", Field::Leaf(Leaf::Bool)),
    (Shape::Metrics, "BindAddress", Field::Leaf(Leaf::Str)),
    (Shape::Metrics, "SecureServing", Field::Leaf(Leaf::Bool)),
    (Shape::Metrics, "CertDir", Field::Leaf(Leaf::Str)),
    (Shape::Webhook, "Port", Field::Leaf(Leaf::Int)),
    (Shape::Webhook, "Host", Field::Leaf(Leaf::Str)),
    (Shape::Webhook, "CertDir", Field::Leaf(Leaf::Str)),
];

fn field(shape: Shape, name: &str) -> Option<&'static Field> {
    FIELDS
        .iter()
        .find(|(s, n, _)| *s == shape && *n == name)
        .map(|(_, _, f)| f)
}

/// The options type a declared type names (a function's first result).
fn shape_of(t: &TypeRef, imports: &[Import]) -> Option<Shape> {
    let q = t.qualifier.as_deref()?;
    let is = |path: &str| names_import(imports, q, path);
    Some(match (t.name.as_str(), t.collection) {
        ("Options", false) if is(CTRL) || is(MANAGER) => Shape::Manager,
        ("Options", false) if is(CACHE) => Shape::Cache,
        ("Options", false) if is(CLIENT) => Shape::Client,
        ("CacheOptions", false) if is(CLIENT) => Shape::ClientCache,
        ("Options", false) if is(METRICS_SERVER) => Shape::Metrics,
        ("Options", false) if is(WEBHOOK) => Shape::Webhook,
        ("ByObject", false) if is(CACHE) => Shape::ByObject,
        ("ByObject", true) if is(CACHE) => Shape::ByObjectMap,
        ("Config", false) if is(CACHE) => Shape::CacheConfig,
        ("Config", true) if is(CACHE) => Shape::NamespaceMap,
        _ => return None,
    })
}

/// Bounds: variables followed per value, settings per options value.
const MAX_HOPS: usize = 8;
const MAX_SETTINGS: usize = 512;

struct Reader<'a, 't> {
    ctx: &'a FuncCtx<'t>,
    scope: &'a Scope<'t>,
    src: &'a [u8],
    imports: &'a [Import],
    func: usize,
    /// Where the options are used (the `NewManager` call or the `return`): assignments
    /// and hand-offs after it do not count.
    until: usize,
    out: RawOptions,
}

/// Records the `NewManager` calls of one function and, when its first result is an
/// options type, the options it returns.
pub fn extract(ctx: &FuncCtx, scope: &Scope, func: usize, src: &[u8], file: &mut GoFile) {
    let imports = &file.imports;
    let mentions = imports.iter().any(|i| i.path.starts_with(CTRL));
    if !mentions {
        return;
    }
    let mut managers = Vec::new();
    for &call in &ctx.calls {
        let Some((q, m)) = super::syntax::selector_callee(call) else {
            continue;
        };
        let q = text(q, src);
        let is_new = match text(m, src) {
            "NewManager" => names_import(imports, q, CTRL),
            "New" => names_import(imports, q, MANAGER),
            _ => false,
        };
        if !is_new || scope.lookup(q, call.start_byte()).is_some() {
            continue;
        }
        let args = call_arguments(call);
        let Some(&opts) = args.get(1) else { continue };
        let mut r = Reader {
            ctx,
            scope,
            src,
            imports,
            func,
            until: call.start_byte(),
            out: RawOptions::default(),
        };
        r.value(opts, Shape::Manager, &[], "", 0);
        managers.push(RawManager {
            func,
            function: match &ctx.receiver_type {
                Some(t) => format!("{t}.{}", ctx.name),
                None => ctx.name.clone(),
            },
            line: line_of(call),
            options: r.out,
        });
    }
    let mut builders = Vec::new();
    if let Some(shape) = scope
        .signature()
        .results
        .first()
        .cloned()
        .flatten()
        .and_then(|t| shape_of(&t, imports))
        && let Some(ret) = returned(ctx, scope.signature().results.len())
    {
        let mut r = Reader {
            ctx,
            scope,
            src,
            imports,
            func,
            until: ret.start_byte(),
            out: RawOptions::default(),
        };
        if let Some(first) = ret.named_child(0).and_then(|l| l.named_child(0)) {
            r.value(first, shape, &[], "", 0);
        }
        builders.push(RawBuilder {
            func,
            name: ctx.name.clone(),
            receiver: ctx.receiver_type.clone(),
            shape,
            options: r.out,
        });
    }
    file.managers.managers.extend(managers);
    file.managers.builders.extend(builders);
}

/// The return statement whose value a builder gives: with two or more results, the one
/// whose last value is `nil` (the error paths return empty options), else the last.
fn returned<'t>(ctx: &FuncCtx<'t>, results: usize) -> Option<Node<'t>> {
    let returns = ctx.own_returns();
    let with_value = |r: &Node| r.named_child(0).is_some();
    if results > 1 {
        let ok: Vec<Node> = returns
            .iter()
            .copied()
            .filter(|r| {
                r.named_child(0).is_some_and(|list| {
                    let n = list.named_child_count();
                    n > 1
                        && list
                            .named_child((n - 1) as u32)
                            .is_some_and(|v| v.kind_name() == "nil")
                })
            })
            .collect();
        if let [one] = ok.as_slice() {
            return Some(*one);
        }
    }
    returns.into_iter().rfind(with_value)
}

impl<'t> Reader<'_, 't> {
    fn unknown(&mut self, node: Node, prefix: &[String], why: String) {
        self.out.unknown.push(Unknown {
            line: line_of(node),
            path: prefix.to_vec(),
            text: fold(text(node, self.src)),
            why,
        });
    }

    /// Reads a value of options type `shape` at `prefix`.
    fn value(&mut self, node: Node<'t>, shape: Shape, prefix: &[String], cond: &str, hops: usize) {
        if hops > MAX_HOPS || self.out.settings.len() >= MAX_SETTINGS {
            return;
        }
        let n = strip(node, self.src);
        match n.kind_name() {
            "composite_literal" | "literal_value" => {
                let body = if n.kind_name() == "literal_value" {
                    Some(n)
                } else {
                    n.child_by_field_id(FIELD.body)
                };
                if let Some(body) = body {
                    self.literal(body, shape, prefix, cond);
                }
            }
            "identifier" => self.variable(n, shape, prefix, cond, hops),
            "call_expression" => self.call(n, shape, prefix, cond, hops),
            _ => self.unknown(
                n,
                prefix,
                format!(
                    "`{}` is not an options literal, variable or function of the repository",
                    fold(text(n, self.src))
                ),
            ),
        }
    }

    /// A struct or map literal's body.
    fn literal(&mut self, body: Node<'t>, shape: Shape, prefix: &[String], cond: &str) {
        for (key, value) in keyed_elements(body) {
            let line_cond = self.condition(key, cond);
            self.entry(key, value, shape, prefix, &line_cond, 0);
        }
    }

    /// One `key: value` of a literal of `shape`, or one `x.key = value` assignment.
    fn entry(
        &mut self,
        key: Node<'t>,
        value: Node<'t>,
        shape: Shape,
        prefix: &[String],
        cond: &str,
        hops: usize,
    ) {
        match shape {
            Shape::ByObjectMap => {
                let object = object_ref(key, self.src);
                let path = prefix.to_vec();
                let before = self.out.settings.len();
                let spliced = self.out.splices.len();
                self.value(value, Shape::ByObject, &path, cond, hops + 1);
                self.no_splices_under_key(spliced, key);
                let at = line_of(key);
                for s in &mut self.out.settings[before..] {
                    s.object.get_or_insert_with(|| object.clone());
                    // A `ByObject` held in a variable (shared by several kinds) is shown
                    // at the entry that gives it to this kind.
                    if s.line < at {
                        s.line = at;
                    }
                }
                if self.out.settings.len() == before {
                    // `&corev1.Pod{}: {}` caches the kind as by default.
                    self.push(path, key, None, None, cond);
                    if let Some(s) = self.out.settings.last_mut() {
                        s.object = Some(object);
                    }
                }
            }
            Shape::NamespaceMap => {
                let ns = value_of(key, self.scope, self.src, self.imports);
                let target = flag_target(key, self.scope, self.src, self.imports);
                let before = self.out.settings.len();
                let spliced = self.out.splices.len();
                self.value(value, Shape::CacheConfig, prefix, cond, hops + 1);
                self.no_splices_under_key(spliced, key);
                if self.out.settings.len() == before {
                    self.push(prefix.to_vec(), key, None, None, cond);
                }
                for s in &mut self.out.settings[before..] {
                    if s.namespace.is_none() {
                        s.namespace = Some(ns.clone());
                        s.namespace_target = target.clone();
                    }
                }
            }
            _ => {
                let name = text(key, self.src);
                let Some(f) = field(shape, name) else {
                    return;
                };
                let mut path = prefix.to_vec();
                path.push(name.to_string());
                match f {
                    Field::Nested(inner) => self.value(value, *inner, &path, cond, hops + 1),
                    Field::Leaf(Leaf::Objects) => self.objects(value, path, cond),
                    Field::Leaf(leaf) => self.push(path, value, Some(value), Some(*leaf), cond),
                }
            }
        }
    }

    /// Options a function makes for one map entry would lose the entry's object or
    /// namespace: they are not followed.
    fn no_splices_under_key(&mut self, from: usize, key: Node<'t>) {
        for sp in self.out.splices.split_off(from) {
            self.out.unknown.push(Unknown {
                line: sp.line,
                text: format!("{}(…)", sp.name),
                why: format!(
                    "the entry for `{}` is made by `{}(…)`, which portolan does not follow",
                    fold(text(key, self.src)),
                    sp.name
                ),
                path: sp.prefix,
            });
        }
    }

    /// A `webhook.NewServer(webhook.Options{…})`, a call of a repository function that
    /// returns options, or something else.
    fn call(&mut self, n: Node<'t>, shape: Shape, prefix: &[String], cond: &str, hops: usize) {
        let Some(f) = callee(n) else { return };
        let args = call_arguments(n);
        if shape == Shape::WebhookServer
            && f.kind_name() == "selector_expression"
            && f.child_by_field_id(FIELD.field)
                .is_some_and(|m| text(m, self.src) == "NewServer")
            && f.child_by_field_id(FIELD.operand)
                .is_some_and(|q| names_import(self.imports, text(q, self.src), WEBHOOK))
            && let [opts] = args.as_slice()
        {
            self.value(*opts, Shape::Webhook, prefix, cond, hops + 1);
            return;
        }
        let callee_name = match f.kind_name() {
            "identifier"
                if self
                    .scope
                    .lookup(text(f, self.src), f.start_byte())
                    .is_none() =>
            {
                Some((None, text(f, self.src).to_string()))
            }
            "selector_expression" => {
                let q = f.child_by_field_id(FIELD.operand);
                let m = f.child_by_field_id(FIELD.field);
                match (q, m) {
                    (Some(q), Some(m))
                        if q.kind_name() == "identifier"
                            && self
                                .scope
                                .lookup(text(q, self.src), q.start_byte())
                                .is_none() =>
                    {
                        Some((
                            Some(text(q, self.src).to_string()),
                            text(m, self.src).to_string(),
                        ))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        match callee_name {
            Some((qualifier, name)) => self.out.splices.push(Splice {
                prefix: prefix.to_vec(),
                qualifier,
                name,
                line: line_of(n),
                condition: cond.to_string(),
            }),
            None => self.unknown(
                n,
                prefix,
                format!(
                    "`{}` is a call portolan does not follow",
                    fold(text(n, self.src))
                ),
            ),
        }
    }

    /// A local variable: the value it was given, then the fields assigned to it (and the
    /// map entries added) before the options are used.
    fn variable(&mut self, n: Node<'t>, shape: Shape, prefix: &[String], cond: &str, hops: usize) {
        let name = text(n, self.src);
        let from = match self.scope.lookup(name, n.start_byte()) {
            Some(Binding::Value(v)) => {
                self.value(v, shape, prefix, cond, hops + 1);
                v.end_byte()
            }
            Some(Binding::Typed(_)) => 0,
            Some(Binding::Param(..)) => {
                self.unknown(
                    n,
                    prefix,
                    format!(
                        "`{name}` is a parameter of `{}`: the values its callers pass are not followed",
                        self.ctx.name
                    ),
                );
                return;
            }
            _ => {
                self.unknown(
                    n,
                    prefix,
                    format!("`{name}` is not a local variable portolan can follow"),
                );
                return;
            }
        };
        let until = self.until;
        let nodes: Vec<Node<'t>> = self
            .ctx
            .nodes
            .iter()
            .copied()
            .filter(|x| x.start_byte() >= from && x.end_byte() <= until)
            .collect();
        for x in nodes {
            match x.kind_name() {
                "assignment_statement" => self.assignment(x, name, shape, prefix, cond, hops),
                "unary_expression"
                    if text(x, self.src).starts_with('&')
                        && x.child_by_field_id(FIELD.operand).is_some_and(|o| {
                            o.kind_name() == "identifier" && text(o, self.src) == name
                        }) =>
                {
                    // `customize(&opts)`: the function may change anything.
                    if let Some(call) = enclosing_call(x) {
                        let callee = callee(call)
                            .map(|f| fold(text(f, self.src)))
                            .unwrap_or_default();
                        self.unknown(
                            x,
                            prefix,
                            format!("`&{name}` is handed to `{callee}`, which may change it; its changes are not followed"),
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// `v.A.B = e` or `v.A.B[key] = e` on the variable `v`.
    fn assignment(
        &mut self,
        stmt: Node<'t>,
        var: &str,
        shape: Shape,
        prefix: &[String],
        cond: &str,
        hops: usize,
    ) {
        let (Some(left), Some(right)) = (
            stmt.child_by_field_id(FIELD.left),
            stmt.child_by_field_id(FIELD.right),
        ) else {
            return;
        };
        if left.named_child_count() != 1 || right.named_child_count() != 1 {
            return;
        }
        let (Some(target), Some(value)) = (left.named_child(0), right.named_child(0)) else {
            return;
        };
        // Split the target into the variable, its field path and a map key.
        let mut fields: Vec<String> = Vec::new();
        let mut key = None;
        let mut n = target;
        if n.kind_name() == "index_expression" {
            key = n.child_by_field_name("index");
            let Some(op) = n.child_by_field_id(FIELD.operand) else {
                return;
            };
            n = op;
        }
        for _ in 0..8 {
            if n.kind_name() != "selector_expression" {
                break;
            }
            let (Some(op), Some(f)) = (
                n.child_by_field_id(FIELD.operand),
                n.child_by_field_id(FIELD.field),
            ) else {
                return;
            };
            fields.push(text(f, self.src).to_string());
            n = op;
        }
        if n.kind_name() != "identifier"
            || text(n, self.src) != var
            || fields.is_empty() && key.is_none()
        {
            return;
        }
        fields.reverse();
        let cond = self.condition(stmt, cond);
        // Walk the schema down the field path.
        let mut shape = shape;
        let mut path = prefix.to_vec();
        let (last, through) = match key {
            Some(_) => (None, fields.as_slice()),
            None => (fields.last(), &fields[..fields.len() - 1]),
        };
        for f in through {
            match field(shape, f) {
                Some(Field::Nested(inner)) => {
                    path.push(f.clone());
                    shape = *inner;
                }
                _ => return,
            }
        }
        match (key, last) {
            (Some(k), _) => {
                if matches!(shape, Shape::ByObjectMap | Shape::NamespaceMap) {
                    self.entry(k, value, shape, &path, &cond, hops + 1);
                }
            }
            (None, Some(last)) => {
                // Keyed like a literal's element, but the key is the assignment's field.
                let Some(f) = field(shape, last) else { return };
                path.push(last.clone());
                match f {
                    Field::Nested(inner) => self.value(value, *inner, &path, &cond, hops + 1),
                    Field::Leaf(Leaf::Objects) => self.objects(value, path, &cond),
                    Field::Leaf(leaf) => self.push(path, stmt, Some(value), Some(*leaf), &cond),
                }
            }
            _ => {}
        }
    }

    /// `DisableFor: []client.Object{&corev1.Secret{}, …}`: one setting per object.
    fn objects(&mut self, value: Node<'t>, path: Vec<String>, cond: &str) {
        let n = self.scope.resolve_value(strip(value, self.src), self.src);
        let body = (n.kind_name() == "composite_literal")
            .then(|| n.child_by_field_id(FIELD.body))
            .flatten();
        let Some(body) = body else {
            self.push(path, value, Some(value), None, cond);
            return;
        };
        let mut c = body.walk();
        let items: Vec<Node> = body
            .named_children(&mut c)
            .filter(|e| e.kind_name() == "literal_element")
            .filter_map(|e| e.named_child(0))
            .collect();
        for item in items {
            self.push(path.clone(), item, None, None, cond);
            if let Some(s) = self.out.settings.last_mut() {
                s.object = Some(object_ref(item, self.src));
            }
        }
    }

    fn push(
        &mut self,
        path: Vec<String>,
        at: Node<'t>,
        value: Option<Node<'t>>,
        leaf: Option<Leaf>,
        cond: &str,
    ) {
        if self.out.settings.len() >= MAX_SETTINGS {
            return;
        }
        let (src, scope, imports) = (self.src, self.scope, self.imports);
        let unwrapped = value.map(|v| unwrap_pointer(v, src));
        let resolved = unwrapped.map(|v| scope.resolve_value(v, src));
        let selector = match (leaf, resolved) {
            (Some(Leaf::Selector), Some(v)) => self.selector(v),
            _ => Vec::new(),
        };
        let strips = match (leaf, resolved) {
            (Some(Leaf::Transform), Some(v)) => strips_managed_fields(v, src, imports),
            _ => None,
        };
        // A local's value is shown as the expression it holds.
        let value = unwrapped.map(|v| {
            let mut raw = value_of(v, scope, src, imports);
            if let Some(r) = resolved.filter(|r| r.id() != v.id()) {
                raw.text = fold(text(r, src));
            }
            raw
        });
        self.out.settings.push(RawSetting {
            path,
            object: None,
            namespace: None,
            namespace_target: None,
            value,
            leaf,
            selector,
            strips,
            target: unwrapped.and_then(|v| flag_target(v, scope, src, imports)),
            func: self.func,
            line: line_of(at),
            condition: cond.to_string(),
        });
    }

    /// A selector's parts: `labels.SelectorFromSet(labels.Set{k: v})` (or `fields.…`, a
    /// `map[string]string`), `labels.Set{…}.AsSelector()`,
    /// `fields.OneTermEqualSelector(k, v)`, `labels.NewSelector().Add(*r)` of requirements
    /// made in the function by `labels.NewRequirement(k, selection.Exists, nil)`, and
    /// `labels.Everything()` (no parts, shown as such).
    fn selector(&self, n: Node<'t>) -> Vec<(RawValue, &'static str, Option<RawValue>)> {
        let (src, scope, imports) = (self.src, self.scope, self.imports);
        let v = |x: Node| value_of(x, scope, src, imports);
        let mut parts = Vec::new();
        let Some(f) = callee(n).filter(|f| f.kind_name() == "selector_expression") else {
            return parts;
        };
        let method = f
            .child_by_field_id(FIELD.field)
            .map(|m| text(m, src))
            .unwrap_or("");
        let operand = f.child_by_field_id(FIELD.operand);
        let args = call_arguments(n);
        let set = |lit: Node<'t>| -> Vec<(RawValue, &'static str, Option<RawValue>)> {
            let lit = scope.resolve_value(lit, src);
            let Some(body) = (lit.kind_name() == "composite_literal")
                .then(|| lit.child_by_field_id(FIELD.body))
                .flatten()
            else {
                return Vec::new();
            };
            keyed_elements(body)
                .into_iter()
                .map(|(k, val)| (v(k), "=", Some(v(val))))
                .collect()
        };
        match (method, args.as_slice()) {
            ("SelectorFromSet" | "SelectorFromValidatedSet", [one]) => parts = set(*one),
            ("AsSelector" | "AsSelectorPreValidated", []) => {
                if let Some(o) = operand {
                    parts = set(o);
                }
            }
            ("OneTermEqualSelector", [k, val]) => parts = vec![(v(*k), "=", Some(v(*val)))],
            ("OneTermNotEqualSelector", [k, val]) => parts = vec![(v(*k), "!=", Some(v(*val)))],
            ("Add", reqs) => {
                for r in reqs {
                    let r = scope.resolve_value(deref(*r, src), src);
                    match requirement(r, src) {
                        Some((k, op, val)) => parts.push((v(k), op, val.map(v))),
                        None => return Vec::new(),
                    }
                }
            }
            _ => {}
        }
        parts
    }

    /// The condition of a setting made at `node`, under the condition `outer` of the
    /// place that brought the value in.
    fn condition(&self, node: Node, outer: &str) -> String {
        // `condition_of` gives the innermost condition in the function, which already
        // holds any the value was brought in under in the same function.
        let own = condition_of(node, self.ctx.body, self.src);
        if own.is_empty() {
            outer.to_string()
        } else {
            own
        }
    }
}

/// `labels.NewRequirement(k, selection.Exists, nil)` and the other operators, as (key,
/// operator, value); a requirement bound as `r, err := …` is followed by the caller.
fn requirement<'t>(n: Node<'t>, src: &[u8]) -> Option<(Node<'t>, &'static str, Option<Node<'t>>)> {
    let f = callee(n).filter(|f| f.kind_name() == "selector_expression")?;
    if text(f.child_by_field_id(FIELD.field)?, src) != "NewRequirement" {
        return None;
    }
    let args = call_arguments(n);
    let [k, op, vals] = args.as_slice() else {
        return None;
    };
    let op_name = text(*op, src).rsplit('.').next().unwrap_or("");
    let op = match op_name {
        "Exists" => "exists",
        "DoesNotExist" => "!",
        "Equals" | "DoubleEquals" => "=",
        "NotEquals" => "!=",
        _ => return None,
    };
    let value = match op {
        "exists" | "!" => None,
        _ => {
            // `[]string{"v"}`: one value.
            let body = vals.child_by_field_id(FIELD.body)?;
            if body.named_child_count() != 1 {
                return None;
            }
            Some(body.named_child(0)?.named_child(0)?)
        }
    };
    Some((*k, op, value))
}

/// The call whose argument list holds `node` directly.
fn enclosing_call(node: Node) -> Option<Node> {
    let list = node.parent()?;
    if list.kind_name() != "argument_list" {
        return None;
    }
    list.parent().filter(|c| c.kind_name() == "call_expression")
}

/// `(x)` → `x`, and `&T{…}` → `T{…}` (options are read alike through a pointer).
fn strip<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut n = node;
    for _ in 0..4 {
        let inner = match n.kind_name() {
            "parenthesized_expression" => n.named_child(0),
            "unary_expression" if text(n, src).starts_with('&') => n
                .child_by_field_id(FIELD.operand)
                .filter(|o| o.kind_name() == "composite_literal"),
            _ => None,
        };
        match inner {
            Some(i) => n = i,
            None => break,
        }
    }
    n
}

/// `*x` → `x`.
fn deref<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let n = strip(node, src);
    match n.kind_name() {
        "unary_expression" if text(n, src).starts_with('*') => {
            n.child_by_field_id(FIELD.operand).unwrap_or(n)
        }
        _ => n,
    }
}

/// `&x`, `ptr.To(x)`, `pointer.Duration(x)` and other one-argument pointer helpers → `x`:
/// the options' durations and selectors are pointers to the value.
fn unwrap_pointer<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut n = strip(node, src);
    for _ in 0..4 {
        match n.kind_name() {
            "unary_expression" if text(n, src).starts_with('&') => {
                let Some(op) = n.child_by_field_id(FIELD.operand) else {
                    break;
                };
                // `&corev1.Secret{}` is an object, not a pointer to a value.
                if op.kind_name() == "composite_literal" {
                    break;
                }
                n = op;
            }
            "call_expression" => {
                let Some(f) = callee(n).filter(|f| f.kind_name() == "selector_expression") else {
                    break;
                };
                let q = f.child_by_field_id(FIELD.operand).map(|q| text(q, src));
                let args = call_arguments(n);
                let helper = matches!(q, Some("ptr" | "pointer" | "utilpointer" | "k8sptr"));
                match (helper, args.as_slice()) {
                    (true, [one]) => n = *one,
                    _ => break,
                }
            }
            _ => break,
        }
    }
    n
}

/// Whether a transform strips managed fields: `cache.TransformStripManagedFields()`, or a
/// function literal that calls `SetManagedFields(nil)` or assigns `ManagedFields = nil`.
/// None when it cannot tell (a named function, a variable).
fn strips_managed_fields(n: Node, src: &[u8], imports: &[Import]) -> Option<bool> {
    match n.kind_name() {
        "call_expression" => {
            let f = callee(n)?;
            let strips = f.kind_name() == "selector_expression"
                && f.child_by_field_id(FIELD.field)
                    .is_some_and(|m| text(m, src) == "TransformStripManagedFields")
                && f.child_by_field_id(FIELD.operand)
                    .is_some_and(|q| names_import(imports, text(q, src), CACHE));
            strips.then_some(true)
        }
        "func_literal" => Some(clears_managed_fields(text(n, src))),
        _ => None,
    }
}

/// A function body that clears managed fields.
pub fn clears_managed_fields(body: &str) -> bool {
    let squashed: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    squashed.contains("SetManagedFields(nil)") || squashed.contains(".ManagedFields=nil")
}

fn fold(s: &str) -> String {
    super::syntax::shorten(s, 120)
}

// ---------------------------------------------------------------------------------------
// Per project.

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
                .filter(|p| p.package == package || p.reach.contains((fi, raw.func)))
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
    reach: super::calls::Reach,
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
                entry.push((fi, i));
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
        for p in programs.iter().filter(|p| p.reach.contains((fi, func))) {
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
        let [(bfi, func)] = ids.as_slice() else {
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
                func: super::types::FuncRef {
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

#[cfg(test)]
mod tests {
    use crate::tests::project;
    use model::Manager;

    /// Each option as `name [object] [namespace] = value [expr] [--flag=default] [when]
    /// @line`.
    fn rows(m: &Manager) -> Vec<String> {
        m.options
            .iter()
            .map(|o| {
                let mut s = o.name.clone();
                if let Some(g) = &o.object {
                    s.push_str(&format!(" [{}]", g.display()));
                }
                if let Some(ns) = &o.namespace {
                    s.push_str(&format!(" ns={ns:?}"));
                }
                s.push_str(&format!(" = {:?}", o.value));
                if o.expr {
                    s.push_str(" expr");
                }
                if let Some(f) = &o.flag {
                    s.push_str(&format!(" --{}={}", f.name, f.default));
                }
                if !o.condition.is_empty() {
                    s.push_str(&format!(" when {}", o.condition));
                }
                s.push_str(&format!(" @{}", o.sources[0].line));
                s
            })
            .collect()
    }

    const MAIN: &str = r#"package main

import (
	"flag"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"example.com/op/internal/setup"
)

func main() {
	var ns, addr string
	flag.StringVar(&ns, "watch-namespace", "team-a", "Namespace to cache.")
	flag.StringVar(&addr, "metrics-bind-address", ":8080", "Metrics address.")
	flag.Parse()
	lease := 30 * time.Second
	opts := ctrl.Options{
		MetricsBindAddress: addr,
		LeaseDuration:      &lease,
		WebhookServer:      webhook.NewServer(webhook.Options{Port: 9443}),
		Client: client.Options{Cache: &client.CacheOptions{
			DisableFor: []client.Object{&corev1.ConfigMap{}},
		}},
	}
	opts.Cache = setup.Cache()
	opts.Cache.DefaultNamespaces = map[string]cache.Config{ns: {}}
	if addr != "" {
		opts.Cache.ByObject[&corev1.Pod{}] = cache.ByObject{Field: fields.OneTermEqualSelector("spec.nodeName", "n1")}
	}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), opts)
	_ = mgr
}
"#;

    const SETUP: &str = r#"package setup

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const PartOf = "op"

func Cache() cache.Options {
	owned := cache.ByObject{Label: labels.SelectorFromSet(labels.Set{"app.kubernetes.io/part-of": PartOf})}
	return cache.Options{
		DefaultTransform: cache.TransformStripManagedFields(),
		ByObject: map[client.Object]cache.ByObject{
			&corev1.Secret{}: owned,
		},
	}
}
"#;

    #[test]
    fn options_from_a_variable_assignments_a_helper_and_flags() {
        let f = project(&[
            ("go.mod", "module example.com/op\n"),
            ("cmd/op/main.go", MAIN),
            ("internal/setup/cache.go", SETUP),
        ]);
        assert_eq!(f.managers.len(), 1);
        let m = &f.managers[0];
        assert_eq!(m.cache_unknown, "");
        assert_eq!(m.binaries, ["example.com/op/cmd/op"]);
        assert_eq!(
            rows(m),
            [
                "MetricsBindAddress = \":8080\" --metrics-bind-address=:8080 @23",
                "LeaseDuration = \"30s\" @24",
                "WebhookServer.Port = \"9443\" @25",
                "Client.Cache.DisableFor [v1 ConfigMap] = \"\" @27",
                "Cache.DefaultTransform = \"cache.TransformStripManagedFields() (strips managedFields)\" @15",
                // The shared `ByObject` (line 13) is shown at the entry that uses it.
                "Cache.ByObject.Label [v1 Secret] = \"app.kubernetes.io/part-of=op\" @17",
                "Cache.DefaultNamespaces ns=\"team-a\" = \"\" --watch-namespace=team-a @31",
                "Cache.ByObject.Field [v1 Pod] = \"spec.nodeName=n1\" when if addr != \"\" @33",
            ]
        );
    }

    #[test]
    fn options_handed_to_a_function_make_the_cache_scope_unknown() {
        let src = r#"package main

import ctrl "sigs.k8s.io/controller-runtime"

func main() {
	opts := ctrl.Options{LeaderElectionID: "x.example.io"}
	customize(&opts)
	mgr, _ := ctrl.NewManager(nil, opts)
	_ = mgr
}

func customize(o *ctrl.Options) {}
"#;
        let f = project(&[("go.mod", "module example.com/op\n"), ("main.go", src)]);
        let m = &f.managers[0];
        assert_eq!(
            m.cache_unknown,
            "`&opts` is handed to `customize`, which may change it; its changes are not followed"
        );
        assert_eq!(rows(m), ["LeaderElectionID = \"x.example.io\" @6"]);
        assert!(
            f.diagnostics
                .iter()
                .any(|d| d.line == 7 && d.message.starts_with("manager options not fully known"))
        );
    }

    #[test]
    fn a_parameter_outside_the_cache_is_a_row_not_an_unknown_scope() {
        let src = r#"package server

import (
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func New(m metricsserver.Options, elect bool) {
	opt := ctrl.Options{Metrics: m}
	if elect {
		opt.LeaderElection = true
	}
	mgr, _ := ctrl.NewManager(nil, opt)
	_ = mgr
}
"#;
        let f = project(&[
            ("go.mod", "module example.com/op\n"),
            ("pkg/server/s.go", src),
        ]);
        let m = &f.managers[0];
        assert_eq!(m.cache_unknown, "");
        assert!(m.binaries.is_empty());
        assert_eq!(
            rows(m),
            [
                "Metrics = \"m\" expr @9",
                "LeaderElection = \"true\" when if elect @11",
            ]
        );
    }
}
