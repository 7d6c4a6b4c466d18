//! Per file: each `NewManager` call's options, and each function whose first result is an
//! options type, read into `RawOptions` (settings as written, splices, unknown parts).

use tree_sitter::Node;

use super::schema::{CACHE, CTRL, Field, MANAGER, WEBHOOK, field, shape_of};
use crate::binaries::values::{flag_target, value_of};
use crate::calls::names_import;
use crate::facts::binaries::RawValue;
use crate::facts::manager::{
    Leaf, RawBuilder, RawManager, RawOptions, RawSetting, Shape, Splice, Unknown,
};
use crate::facts::{GoFile, Import};
use crate::scope::{Binding, Scope};
use crate::syntax::{
    FIELD, FuncCtx, KindName, call_arguments, callee, condition_of, keyed_elements, line_of,
    object_ref, text,
};

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
    for (call, q, m) in ctx.method_calls() {
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
            let Some((op, f)) = crate::syntax::selector(n) else {
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
        let own = condition_of(node, self.ctx, self.src);
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
    crate::syntax::shorten(s, 120)
}
