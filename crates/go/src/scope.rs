//! The names a function body can refer to: its receiver, parameters and local variables,
//! each with the expression it was given. One pass over the function's declarations records
//! them (`Scope::of`); every feature then asks what a value is, lazily:
//!
//! - `chain_of`: the value as a chain of field reads and calls from a root (what the call
//!   graph follows across packages);
//! - `type_of`: the value's type as far as the file tells (`ValueType`: what writes,
//!   informers, controllers and webhooks resolve to a kind);
//! - `lookup`, `resolve_value`, `param_at`: what a name is bound to.
//!
//! **Invariant:** no unbounded recursion or loops: chains and types are followed at most
//! `MAX_HOPS` bindings deep, and one question costs at most `MAX_STEPS` lookups, so deep or
//! cyclic code cannot overflow the stack or loop forever.

use foldhash::{HashMap, HashMapExt};
use std::cell::Cell;

use tree_sitter::Node;

use super::syntax::{FIELD, FuncCtx, KindName, ObjectRef, callee, method_of, object_ref, text};
use super::types::{
    Chain, FuncRef, Root, Signature, Step, TypeRef, ValueType, constant_gvk, type_ref,
};

/// A chain or type may pass through at most this many variables, calls and fields.
const MAX_HOPS: usize = 48;
/// One `type_of` question looks at most this many bindings (a name assigned many times is
/// scanned back for its last concrete type).
const MAX_STEPS: usize = 4096;

/// How a name is bound at some point of a function.
pub enum Binding<'t> {
    Receiver(TypeRef),
    /// A parameter by position, with its declared type (None for a type parameter's type,
    /// which only a call site knows).
    Param(usize, Option<TypeRef>),
    /// A local variable and the expression it was last given (`x := e`, `x = e`, `var x = e`).
    Value(Node<'t>),
    /// A local variable declared with a type and no value.
    Typed(TypeRef),
    /// A `range` loop's value variable: an element of the collection expression.
    Elem(Node<'t>),
    /// A local whose value portolan does not follow (range keys, `a, b := x()`'s `b`).
    Unknown,
}

struct Local<'t> {
    /// The byte offset after which the binding holds.
    from: usize,
    binding: LocalBinding<'t>,
    /// Made by `x = e` on an existing variable: for its type, only a concrete value tells
    /// more than the declaration did (`xs = append(xs, …)` must not lose it).
    assigned: bool,
    /// For an assignment, the byte range of the block or `case` clause it is in: after
    /// that range it is one branch, which may or may not have run.
    within: Option<(usize, usize)>,
    /// For an assignment in a branch of an `if` or `switch`, that statement's byte range:
    /// its other branches never see the value.
    branches: Option<(usize, usize)>,
}

enum LocalBinding<'t> {
    /// The value, and the type a `var x T = e` declares.
    Value(Node<'t>, Option<TypeRef>),
    /// Result number `index` (> 0) of a call: `b` in `a, b := f()`.
    Result(Node<'t>, usize),
    Typed(TypeRef),
    Elem(Node<'t>),
    Unknown,
}

/// The names a function body can refer to, with enough of their origin to follow values.
pub struct Scope<'t> {
    receiver: Option<(String, TypeRef)>,
    signature: Signature,
    /// Every binding of each local name, so a lookup costs one hash and a short scan.
    locals: HashMap<String, Vec<Local<'t>>>,
    /// Constant kinds set on a name (`u.SetGroupVersionKind(…)`): from which offset, what.
    set_kinds: HashMap<String, Vec<(usize, ValueType)>>,
}

impl<'t> Scope<'t> {
    /// The scope of package-level declarations: nothing local.
    pub fn package_level() -> Scope<'t> {
        Scope {
            receiver: None,
            signature: Signature::default(),
            locals: HashMap::new(),
            set_kinds: HashMap::new(),
        }
    }

    /// The receiver, parameters and local variables of one function.
    pub fn of(ctx: &FuncCtx<'t>, signature: Signature, src: &[u8]) -> Scope<'t> {
        let mut scope = Scope::package_level();
        scope.signature = signature;
        if let (Some(name), Some(decl)) = (&ctx.receiver_name, ctx.decl) {
            let ty = super::syntax::receiver_param(decl)
                .and_then(|p| p.child_by_field_id(FIELD.ty))
                .and_then(|t| type_ref(t, src));
            if let Some(ty) = ty {
                scope.receiver = Some((name.clone(), ty));
            }
        }
        ctx.bindings
            .iter()
            .for_each(|node| scope.record_local(*node, src));
        scope.place_assignments(ctx);
        for bindings in scope.locals.values_mut() {
            bindings.sort_by_key(|l| l.from);
        }
        // Few functions set a kind: a text search passes over the others' calls.
        if text(ctx.body, src).contains("SetGroupVersionKind") {
            for &call in &ctx.calls {
                scope.record_set_kind(call, src);
            }
        }
        scope
    }

    /// `x.SetGroupVersionKind(gvk)` with a constant `gvk` gives `x` that kind from there
    /// on (until `x` is bound again).
    fn record_set_kind(&mut self, call: Node<'t>, src: &[u8]) {
        let Some((operand, "SetGroupVersionKind")) = method_of(call, src) else {
            return;
        };
        if operand.kind_name() != "identifier" {
            return;
        }
        let gvk = call
            .child_by_field_id(FIELD.arguments)
            .filter(|a| a.named_child_count() == 1)
            .and_then(|a| a.named_child(0))
            .and_then(|a| constant_gvk(a, src));
        if let Some((group_version, kind)) = gvk {
            self.set_kinds
                .entry(text(operand, src).to_string())
                .or_default()
                .push((
                    call.end_byte(),
                    ValueType::SetKind {
                        group_version,
                        kind,
                    },
                ));
        }
    }

    pub fn signature(&self) -> &Signature {
        &self.signature
    }

    fn record_local(&mut self, node: Node<'t>, src: &[u8]) {
        match node.kind_name() {
            "short_var_declaration" | "assignment_statement" => {
                let assigned = node.kind_name() == "assignment_statement";
                if assigned
                    && node
                        .child_by_field_id(FIELD.operator)
                        .is_none_or(|o| text(o, src) != "=")
                {
                    return;
                }
                let (Some(left), Some(right)) = (
                    node.child_by_field_id(FIELD.left),
                    node.child_by_field_id(FIELD.right),
                ) else {
                    return;
                };
                let names = list(left);
                let values = list(right);
                for (i, name) in names.iter().enumerate() {
                    if name.kind_name() != "identifier" {
                        continue;
                    }
                    let binding = if names.len() == values.len() {
                        LocalBinding::Value(values[i], None)
                    } else if values.len() == 1 {
                        // `x, err := f()`: x is f's first result, which is what chains follow.
                        match i {
                            0 => LocalBinding::Value(values[0], None),
                            _ => LocalBinding::Result(values[0], i),
                        }
                    } else {
                        LocalBinding::Unknown
                    };
                    self.push_local(text(*name, src), node.end_byte(), binding, assigned);
                }
            }
            // A function-local `const` binds its name like a variable that never changes.
            "var_spec" | "const_spec" => {
                let ty = node
                    .child_by_field_id(FIELD.ty)
                    .and_then(|t| type_ref(t, src));
                let names: Vec<Node> = crate::syntax::field_children(node, FIELD.name)
                    .into_iter()
                    .filter(|n| n.kind_name() == "identifier")
                    .collect();
                let values: Vec<Node> = node
                    .child_by_field_id(FIELD.value)
                    .map(list)
                    .unwrap_or_default();
                for (i, name) in names.iter().enumerate() {
                    let binding = match (values.get(i), &ty) {
                        (Some(v), _) if values.len() == names.len() => {
                            LocalBinding::Value(*v, ty.clone())
                        }
                        (_, Some(t)) => LocalBinding::Typed(t.clone()),
                        (None, None) if values.len() == 1 => LocalBinding::Result(values[0], i),
                        _ => LocalBinding::Unknown,
                    };
                    self.push_local(text(*name, src), node.end_byte(), binding, false);
                }
            }
            "range_clause" | "type_switch_statement" | "receive_statement" => {
                if let Some(left) = node
                    .child_by_field_id(FIELD.left)
                    .or_else(|| node.child_by_field_id(FIELD.alias))
                {
                    let mut lc = left.walk();
                    let names: Vec<Node> = left.named_children(&mut lc).collect();
                    let names = if names.is_empty() { vec![left] } else { names };
                    // `for k, v := range xs`: `v` is an element of `xs`; `k` an index or key.
                    let collection = node
                        .child_by_field_id(FIELD.right)
                        .filter(|_| node.kind_name() == "range_clause" && names.len() == 2);
                    for (i, name) in names.into_iter().enumerate() {
                        if name.kind_name() != "identifier" {
                            continue;
                        }
                        let binding = match collection {
                            Some(xs) if i == 1 => LocalBinding::Elem(xs),
                            _ => LocalBinding::Unknown,
                        };
                        self.push_local(text(name, src), node.start_byte(), binding, false);
                    }
                    if node.kind_name() == "type_switch_statement" {
                        self.record_type_cases(node, left, src);
                    }
                }
            }
            "func_literal" => {
                // A closure's parameters shadow outer names inside it.
                let Some(params) = node.child_by_field_id(FIELD.parameters) else {
                    return;
                };
                let mut c = params.walk();
                for p in params.named_children(&mut c) {
                    let ty = p.child_by_field_id(FIELD.ty).and_then(|t| type_ref(t, src));
                    let names: Vec<Node> = crate::syntax::field_children(p, FIELD.name);
                    for name in names {
                        let binding = match &ty {
                            Some(t) => LocalBinding::Typed(t.clone()),
                            None => LocalBinding::Unknown,
                        };
                        self.push_local(text(name, src), params.end_byte(), binding, false);
                    }
                }
            }
            _ => {}
        }
    }

    /// `switch v := x.(type) { case *T: … }`: in a clause naming one type, `v` has that
    /// type; in any other clause (several types, `default`) it is not known.
    fn record_type_cases(&mut self, switch: Node<'t>, alias: Node<'t>, src: &[u8]) {
        let name = match alias.kind_name() {
            "identifier" => alias,
            _ => match alias.named_child(0) {
                Some(n) if alias.named_child_count() == 1 && n.kind_name() == "identifier" => n,
                _ => return,
            },
        };
        let name = text(name, src);
        let mut c = switch.walk();
        for clause in switch.named_children(&mut c) {
            let binding = match clause.kind_name() {
                "type_case" => {
                    let types: Vec<Node> = crate::syntax::field_children(clause, FIELD.ty);
                    match &types[..] {
                        [one] => {
                            type_ref(*one, src).map_or(LocalBinding::Unknown, LocalBinding::Typed)
                        }
                        _ => LocalBinding::Unknown,
                    }
                }
                "default_case" => LocalBinding::Unknown,
                _ => continue,
            };
            self.push_local(name, clause.start_byte(), binding, false);
        }
    }

    /// Where each assignment (`x = …`) is: the innermost block or `case` clause holding it
    /// and, when that is a branch of an `if` or `switch`, the statement's range. Found in
    /// one pass down the function's nodes (asking a node for its parent walks down from
    /// the root).
    fn place_assignments(&mut self, ctx: &FuncCtx<'t>) {
        // Open nodes, innermost last: (kind, start, end, the branching statement a
        // container is a branch of).
        type Span = (usize, usize);
        type Open<'k> = (&'k str, usize, usize, Option<Span>);
        let mut open: Vec<Open> = Vec::new();
        let mut places: HashMap<usize, (Span, Option<Span>)> = HashMap::new();
        for n in &ctx.nodes {
            let (start, end) = (n.start_byte(), n.end_byte());
            while open.last().is_some_and(|o| o.2 <= start) {
                open.pop();
            }
            let kind = n.kind_name();
            if BRANCH_CONTAINERS.contains(&kind) {
                let branch_of = open
                    .last()
                    .filter(|o| BRANCHING_STATEMENTS.contains(&o.0))
                    .map(|o| (o.1, o.2));
                open.push((kind, start, end, branch_of));
            } else if BRANCHING_STATEMENTS.contains(&kind) || kind == "func_literal" {
                open.push((kind, start, end, None));
            } else if kind == "assignment_statement"
                && let Some(c) = open.iter().rev().find(|o| BRANCH_CONTAINERS.contains(&o.0))
            {
                places.insert(end, ((c.1, c.2), c.3));
            }
        }
        if places.is_empty() {
            return;
        }
        for local in self.locals.values_mut().flatten().filter(|l| l.assigned) {
            if let Some(&(within, branches)) = places.get(&local.from) {
                local.within = Some(within);
                local.branches = branches;
            }
        }
    }

    fn push_local(&mut self, name: &str, from: usize, binding: LocalBinding<'t>, assigned: bool) {
        if name == "_" {
            return;
        }
        self.locals
            .entry(name.to_string())
            .or_default()
            .push(Local {
                from,
                binding,
                assigned,
                within: None,
                branches: None,
            });
    }

    /// The bindings of a local `name` made before offset `at`, latest first.
    fn locals_before(&self, name: &str, at: usize) -> impl Iterator<Item = &Local<'t>> {
        let ls = self.locals.get(name).map_or(&[][..], Vec::as_slice);
        // Bindings are sorted by offset: the last one made before `at` holds there.
        ls[..ls.partition_point(|l| l.from <= at)].iter().rev()
    }

    /// A parameter by name: its position and declared type, None for a type parameter's.
    fn param(&self, name: &str) -> Option<(usize, Option<TypeRef>)> {
        let index = self.signature.params.iter().position(|(n, _)| n == name)?;
        let ty = self.signature.params[index].1.clone();
        let generic = ty
            .as_ref()
            .is_some_and(|t| t.qualifier.is_none() && self.signature.type_params.contains(&t.name));
        Some((index, if generic { None } else { ty }))
    }

    /// The method values (`o.client.updateStatus`) local `name` was given before offset
    /// `at`, on any branch: what calling it may run.
    pub fn method_values(&self, name: &str, at: usize) -> Vec<Node<'t>> {
        self.locals_before(name, at)
            .filter_map(|l| match &l.binding {
                LocalBinding::Value(v, _) if v.kind_name() == "selector_expression" => Some(*v),
                _ => None,
            })
            .take(MAX_ALTERNATIVES)
            .collect()
    }

    /// What `name` refers to at byte offset `at`, if it is local to the function.
    pub fn lookup(&self, name: &str, at: usize) -> Option<Binding<'t>> {
        if let Some(l) = self.locals_before(name, at).next() {
            return Some(match &l.binding {
                LocalBinding::Value(n, _) => Binding::Value(*n),
                LocalBinding::Typed(t) => Binding::Typed(t.clone()),
                LocalBinding::Elem(n) => Binding::Elem(*n),
                LocalBinding::Result(..) | LocalBinding::Unknown => Binding::Unknown,
            });
        }
        if let Some((i, ty)) = self.param(name) {
            return Some(Binding::Param(i, ty));
        }
        match &self.receiver {
            Some((n, t)) if n == name => Some(Binding::Receiver(t.clone())),
            _ => None,
        }
    }

    /// The expression a local variable holds at `node`, following `x := y` copies. Only
    /// variables given a value exactly once are followed: with several assignments, which
    /// one a use sees depends on control flow, and that is not guessed.
    pub fn resolve_value(&self, node: Node<'t>, src: &[u8]) -> Node<'t> {
        let mut n = node;
        for _ in 0..MAX_HOPS {
            if n.kind_name() != "identifier" {
                break;
            }
            let name = text(n, src);
            if self.locals.get(name).map_or(0, Vec::len) != 1 {
                break;
            }
            match self.lookup(name, n.start_byte()) {
                Some(Binding::Value(v)) => n = v,
                _ => break,
            }
        }
        n
    }

    /// The value chain an expression denotes, if it can be followed.
    pub fn chain_of(&self, node: Node<'t>, src: &[u8]) -> Option<Chain> {
        let mut steps = Vec::new();
        let mut n = node;
        let root = 'walk: {
            for _ in 0..MAX_HOPS {
                match n.kind_name() {
                    "parenthesized_expression" => n = n.named_child(0)?,
                    "unary_expression" => {
                        let op = text(n.child_by_field_id(FIELD.operator)?, src);
                        if op != "&" && op != "*" {
                            return None;
                        }
                        n = n.child_by_field_id(FIELD.operand)?;
                    }
                    "composite_literal" => {
                        break 'walk Root::Type(type_ref(n.child_by_field_id(FIELD.ty)?, src)?);
                    }
                    "type_assertion_expression" => {
                        break 'walk Root::Type(type_ref(n.child_by_field_id(FIELD.ty)?, src)?);
                    }
                    "index_expression" => {
                        steps.push(Step::Elem);
                        n = n.child_by_field_id(FIELD.operand)?;
                    }
                    "call_expression" => {
                        let f = callee(n)?;
                        match f.kind_name() {
                            "selector_expression" => {
                                steps.push(Step::Call(
                                    text(f.child_by_field_id(FIELD.field)?, src).to_string(),
                                ));
                                n = f.child_by_field_id(FIELD.operand)?;
                            }
                            "identifier" => {
                                let name = text(f, src);
                                if name == "new" {
                                    let arg =
                                        n.child_by_field_id(FIELD.arguments)?.named_child(0)?;
                                    break 'walk Root::Type(type_ref(arg, src)?);
                                }
                                if name == "append" && self.lookup(name, f.start_byte()).is_none() {
                                    // `append(xs, …)` is a collection of the type of `xs`.
                                    n = n.child_by_field_id(FIELD.arguments)?.named_child(0)?;
                                    continue;
                                }
                                if self.lookup(name, f.start_byte()).is_some() {
                                    // Calling a function value: not followed.
                                    return None;
                                }
                                break 'walk Root::Call {
                                    qualifier: None,
                                    name: name.to_string(),
                                };
                            }
                            _ => return None,
                        }
                    }
                    "selector_expression" => {
                        steps.push(Step::Field(
                            text(n.child_by_field_id(FIELD.field)?, src).to_string(),
                        ));
                        n = n.child_by_field_id(FIELD.operand)?;
                    }
                    "identifier" => {
                        let name = text(n, src);
                        match self.lookup(name, n.start_byte()) {
                            Some(Binding::Receiver(t)) => break 'walk Root::Receiver(t),
                            Some(Binding::Param(_, Some(t))) | Some(Binding::Typed(t)) => {
                                break 'walk Root::Type(t);
                            }
                            Some(Binding::Value(v)) => n = v,
                            Some(Binding::Elem(collection)) => {
                                steps.push(Step::Elem);
                                n = collection;
                            }
                            Some(Binding::Param(_, None)) | Some(Binding::Unknown) => return None,
                            None => {
                                // Not local: a package qualifier, if a call is applied to it.
                                match steps.pop() {
                                    Some(Step::Call(f)) => {
                                        break 'walk Root::Call {
                                            qualifier: Some(name.to_string()),
                                            name: f,
                                        };
                                    }
                                    _ => return None,
                                }
                            }
                        }
                    }
                    _ => return None,
                }
            }
            return None;
        };
        steps.reverse();
        Some(Chain { root, steps })
    }

    /// The position of a parameter named `name`, if the identifier at `node` is one.
    pub fn param_at(&self, node: Node<'t>, src: &[u8]) -> Option<usize> {
        if node.kind_name() != "identifier" {
            return None;
        }
        match self.lookup(text(node, src), node.start_byte()) {
            Some(Binding::Param(i, _)) => Some(i),
            _ => None,
        }
    }

    /// The type of an object argument (`For(obj)`, `NewWebhookManagedBy(mgr, obj)`): a
    /// literal (`&pkg.T{}`), the method's receiver, or a local declared with a concrete
    /// type — or a parameter's declared type, when `params` (watches take it; a webhook's
    /// object given as a `client.Object` parameter says nothing of its kind); else `Unknown`
    /// with the expression.
    pub fn object_of(&self, node: Node, src: &[u8], params: bool) -> ObjectRef {
        match object_ref(node, src) {
            ObjectRef::Unknown(_)
                if node.kind_name() == "identifier"
                    && let Some((name, ty)) = &self.receiver
                    && text(node, src) == name =>
            {
                ObjectRef::Type {
                    qualifier: None,
                    name: ty.name.clone(),
                }
            }
            ObjectRef::Unknown(expr) => match self.type_of(node, src, node.start_byte()) {
                ValueType::Type(t) if !t.collection => ObjectRef::Type {
                    qualifier: t.qualifier,
                    name: t.name,
                },
                ValueType::Param { ty: Some(t), .. } if params && !t.collection => {
                    ObjectRef::Type {
                        qualifier: t.qualifier,
                        name: t.name,
                    }
                }
                _ => ObjectRef::Unknown(expr),
            },
            known => known,
        }
    }

    /// The type of an expression at byte offset `at` of the function.
    pub fn type_of(&self, node: Node, src: &[u8], at: usize) -> ValueType {
        let steps = Cell::new(0);
        self.type_at(node, src, at, 0, &steps)
    }

    fn type_at(
        &self,
        node: Node,
        src: &[u8],
        at: usize,
        hops: usize,
        steps: &Cell<usize>,
    ) -> ValueType {
        let unknown = || ValueType::Unknown(text(node, src).to_string());
        if hops > MAX_HOPS || steps.get() > MAX_STEPS {
            return unknown();
        }
        steps.set(steps.get() + 1);
        let mut n = node;
        loop {
            match n.kind_name() {
                "unary_expression"
                    if n.child_by_field_id(FIELD.operator)
                        .is_some_and(|o| text(o, src) == "&") =>
                {
                    match n.child_by_field_id(FIELD.operand) {
                        Some(op) => n = op,
                        None => break,
                    }
                }
                "parenthesized_expression" => match n.named_child(0) {
                    Some(inner) => n = inner,
                    None => break,
                },
                "composite_literal" => {
                    if let Some(t) = n.child_by_field_id(FIELD.ty).and_then(|t| type_ref(t, src)) {
                        if t.collection
                            && let Some(values) = self.literal_elements(n, src, at, hops, steps)
                        {
                            return ValueType::Elements { ty: t, values };
                        }
                        return ValueType::Type(t);
                    }
                    break;
                }
                "identifier" => {
                    let name = text(n, src);
                    if let Some(elements) = self.slice_local(name, src, at, hops, steps) {
                        return elements;
                    }
                    return self.name_type(name, src, at, hops, steps);
                }
                "index_expression" => {
                    let Some(operand) = n.child_by_field_id(FIELD.operand) else {
                        break;
                    };
                    let base = self.type_at(operand, src, at, hops + 1, steps);
                    return ValueType::Elem(Box::new(base));
                }
                "selector_expression" => {
                    let (Some(operand), Some(field)) = (
                        n.child_by_field_id(FIELD.operand),
                        n.child_by_field_id(FIELD.field),
                    ) else {
                        break;
                    };
                    let base = self.type_at(operand, src, at, hops + 1, steps);
                    if matches!(base, ValueType::Unknown(_)) {
                        break;
                    }
                    return ValueType::Field {
                        base: Box::new(base),
                        field: text(field, src).to_string(),
                    };
                }
                "call_expression" => return self.call_type(n, src, at, hops, steps),
                // `x.(T)`: a type parameter is only known at the call site, like a
                // parameter of that type (every argument of type T has the same type).
                "type_assertion_expression" => {
                    let Some(t) = n.child_by_field_id(FIELD.ty).and_then(|t| type_ref(t, src))
                    else {
                        break;
                    };
                    // `x.(pkg.I)` (no pointer: perhaps an interface) holds what `x` does.
                    let pointer = n
                        .child_by_field_id(FIELD.ty)
                        .is_some_and(|t| t.kind_name() == "pointer_type");
                    if t.qualifier.is_some() && !t.collection && !pointer {
                        let Some(operand) = n.child_by_field_id(FIELD.operand) else {
                            return ValueType::Type(t);
                        };
                        return ValueType::Asserted {
                            ty: t,
                            value: Box::new(self.type_at(operand, src, at, hops + 1, steps)),
                        };
                    }
                    if t.qualifier.is_some()
                        || t.collection
                        || !self.signature.type_params.contains(&t.name)
                    {
                        return ValueType::Type(t);
                    }
                    let same = |p: &Option<TypeRef>| p.as_ref() == Some(&t);
                    return match self.signature.params.iter().position(|(_, p)| same(p)) {
                        Some(index) => ValueType::Param { index, ty: None },
                        None => break,
                    };
                }
                _ => break,
            }
        }
        unknown()
    }

    /// The type a name has at `at`: the receiver's, a local's (its last binding that tells
    /// a type), or a parameter's.
    /// The values of a slice literal's elements (positional ones only), at most
    /// `MAX_ELEMENTS`.
    fn literal_elements(
        &self,
        literal: Node,
        src: &[u8],
        at: usize,
        hops: usize,
        steps: &Cell<usize>,
    ) -> Option<Vec<ValueType>> {
        let body = literal.child_by_field_id(FIELD.body)?;
        let mut c = body.walk();
        let elements: Vec<Node> = body
            .named_children(&mut c)
            .filter(|e| e.kind_name() != "comment")
            .collect();
        if elements.len() > MAX_ELEMENTS {
            return None;
        }
        let mut values = Vec::new();
        for e in elements {
            let e = match e.kind_name() {
                "keyed_element" => return None,
                "literal_element" => e.named_child(0)?,
                _ => e,
            };
            // `{…}` elements of a typed slice take the slice's element type.
            if e.kind_name() == "literal_value" {
                return None;
            }
            let value = self.type_at(e, src, at, hops + 1, steps);
            if !values.contains(&value) {
                values.push(value);
            }
        }
        Some(values)
    }

    /// A local slice built from literals and `append`s (`objs := []client.Object{…};
    /// objs = append(objs, x)`), on any branch before `at`: the values it holds. None when
    /// one of its values came from elsewhere (a call's result, a parameter), whose
    /// elements are not known here.
    fn slice_local(
        &self,
        name: &str,
        src: &[u8],
        at: usize,
        hops: usize,
        steps: &Cell<usize>,
    ) -> Option<ValueType> {
        let latest = self.locals_before(name, at).next()?;
        let builds = |v: &Node| v.kind_name() == "composite_literal" || is_append_to(*v, name, src);
        if !matches!(&latest.binding, LocalBinding::Value(v, _) if builds(v)) {
            return None;
        }
        let mut ty = None;
        let mut values: Vec<ValueType> = Vec::new();
        for local in self.locals_before(name, at) {
            match &local.binding {
                LocalBinding::Value(v, declared) if v.kind_name() == "composite_literal" => {
                    let t = v
                        .child_by_field_id(FIELD.ty)
                        .and_then(|t| type_ref(t, src))?;
                    if !t.collection {
                        return None;
                    }
                    for value in self.literal_elements(*v, src, v.start_byte(), hops + 1, steps)? {
                        if !values.contains(&value) {
                            values.push(value);
                        }
                    }
                    ty = declared.clone().or(Some(t));
                }
                LocalBinding::Value(v, _) if is_append_to(*v, name, src) => {
                    let args = v.child_by_field_id(FIELD.arguments)?;
                    let mut c = args.walk();
                    let appended: Vec<Node> = args
                        .named_children(&mut c)
                        .filter(|a| a.kind_name() != "comment")
                        .skip(1)
                        .collect();
                    for a in appended {
                        // `append(xs, ys...)` adds ys's elements: not followed.
                        if a.kind_name() == "variadic_argument" {
                            return None;
                        }
                        let value = self.type_at(a, src, a.start_byte(), hops + 1, steps);
                        if !values.contains(&value) {
                            values.push(value);
                        }
                    }
                }
                LocalBinding::Typed(t) if t.collection => ty = Some(t.clone()),
                _ => return None,
            }
            if values.len() > MAX_ELEMENTS {
                return None;
            }
            if !local.assigned {
                break;
            }
        }
        Some(ValueType::Elements { ty: ty?, values })
    }

    fn name_type(
        &self,
        name: &str,
        src: &[u8],
        at: usize,
        hops: usize,
        steps: &Cell<usize>,
    ) -> ValueType {
        if let Some((n, t)) = &self.receiver
            && n == name
        {
            return ValueType::Type(TypeRef::named(None, &t.name));
        }
        let bound_at = self.locals_before(name, at).next().map(|l| l.from);
        let set_kind = self.set_kinds.get(name).and_then(|sets| {
            sets.iter()
                .rev()
                .find(|(from, _)| *from <= at && bound_at.is_none_or(|b| b < *from))
        });
        if let Some((_, kind)) = set_kind {
            return kind.clone();
        }
        // Values of assignments in branches closed before `at`: any may be the one held.
        let mut alternatives: Vec<ValueType> = Vec::new();
        for local in self.locals_before(name, at) {
            if steps.get() > MAX_STEPS || alternatives.len() > MAX_ALTERNATIVES {
                return ValueType::Unknown(name.to_string());
            }
            steps.set(steps.get() + 1);
            let ty = match &local.binding {
                LocalBinding::Typed(t) | LocalBinding::Value(_, Some(t)) => {
                    ValueType::Type(t.clone())
                }
                LocalBinding::Value(v, None) => {
                    self.type_at(*v, src, v.start_byte(), hops + 1, steps)
                }
                LocalBinding::Result(v, index) => {
                    match self.type_at(*v, src, v.start_byte(), hops + 1, steps) {
                        ValueType::Result { func, .. } => ValueType::Result {
                            func,
                            index: *index,
                        },
                        ValueType::ForeignResult {
                            qualifier, name, ..
                        } => ValueType::ForeignResult {
                            qualifier,
                            name,
                            index: *index,
                        },
                        _ => ValueType::Unknown(name.to_string()),
                    }
                }
                // Evaluated where the loop starts: the loop's own variables do not hold yet.
                LocalBinding::Elem(xs) => {
                    let before = local.from.saturating_sub(1);
                    match self.type_at(*xs, src, before, hops + 1, steps) {
                        ValueType::Elements { values, .. } => one_of(values),
                        collection => ValueType::Elem(Box::new(collection)),
                    }
                }
                LocalBinding::Unknown => ValueType::Unknown(name.to_string()),
            };
            let branched = local.assigned
                && local
                    .within
                    .is_some_and(|(start, end)| !(start <= at && at < end));
            // `xs = append(xs, …)` keeps what `xs` holds.
            let appends_to_itself =
                matches!(&local.binding, LocalBinding::Value(v, _) if is_append_to(*v, name, src));
            // Another branch of the `if` or `switch` the use is in.
            let other_branch = local
                .branches
                .is_some_and(|(start, end)| start <= at && at < end);
            if branched && (appends_to_itself || other_branch) {
                continue;
            }
            if branched {
                if !alternatives.contains(&ty) {
                    alternatives.push(ty);
                }
                continue;
            }
            if !alternatives.is_empty() {
                // The binding that surely ran is one more value, unless it is a declaration
                // without one (`var s Store`: a nil interface is no object).
                let declared_only =
                    !local.assigned && matches!(local.binding, LocalBinding::Typed(_));
                if !declared_only && !alternatives.contains(&ty) {
                    alternatives.push(ty);
                }
                return one_of(alternatives);
            }
            if !local.assigned || matches!(ty, ValueType::Type(_)) {
                return ty;
            }
        }
        // Only assignments, none telling a type: a parameter given a new value.
        let param = match self.param(name) {
            Some((index, ty)) => ValueType::Param { index, ty },
            // Bound nowhere in the function: the package's variable, if it has one.
            None if self.locals_before(name, at).next().is_none() => {
                ValueType::Var(name.to_string())
            }
            None => ValueType::Unknown(name.to_string()),
        };
        if alternatives.is_empty() {
            return param;
        }
        alternatives.push(param);
        one_of(alternatives)
    }

    fn call_type(
        &self,
        call: Node,
        src: &[u8],
        at: usize,
        hops: usize,
        steps: &Cell<usize>,
    ) -> ValueType {
        let unknown = || ValueType::Unknown(text(call, src).to_string());
        let Some(function) = call.child_by_field_id(FIELD.function) else {
            return unknown();
        };
        match function.kind_name() {
            "identifier" if text(function, src) == "new" => call
                .child_by_field_id(FIELD.arguments)
                .and_then(|a| a.named_child(0))
                .and_then(|t| new_arg_type(t, src))
                .map(ValueType::Type)
                .unwrap_or_else(unknown),
            "identifier" => ValueType::Result {
                func: FuncRef {
                    receiver: None,
                    name: text(function, src).to_string(),
                },
                index: 0,
            },
            "selector_expression" => {
                let (Some(operand), Some(field)) = (
                    function.child_by_field_id(FIELD.operand),
                    function.child_by_field_id(FIELD.field),
                ) else {
                    return unknown();
                };
                let method = text(field, src);
                // deepcopy-gen's copies hold their receiver's type (`DeepCopyObject` too,
                // although declared as a `runtime.Object`).
                if method == "DeepCopy" || method == "DeepCopyObject" {
                    return self.type_at(operand, src, at, hops + 1, steps);
                }
                if let Some((root, group_version, resource)) = self.clientset_chain_at(call, src) {
                    return ValueType::ClientsetClient {
                        root: Box::new(self.type_at(root, src, at, hops + 1, steps)),
                        group_version,
                        resource,
                    };
                }
                let object_call = matches!(
                    method,
                    "Get" | "Create" | "Update" | "UpdateStatus" | "Patch"
                );
                if let (Some((root, group_version, resource)), true) =
                    (self.clientset_chain_at(operand, src), object_call)
                {
                    return ValueType::Clientset {
                        root: Box::new(self.type_at(root, src, at, hops + 1, steps)),
                        group_version,
                        resource,
                    };
                }
                let builder = method.len() > 4
                    && method.starts_with("With")
                    && method[4..].starts_with(|c: char| c.is_ascii_uppercase());
                if builder && operand.kind_name() == "call_expression" {
                    return ValueType::Configured {
                        base: Box::new(self.type_at(operand, src, at, hops + 1, steps)),
                    };
                }
                if operand.kind_name() != "identifier" {
                    return unknown();
                }
                let name = text(operand, src);
                if let Some((r, t)) = &self.receiver
                    && r == name
                {
                    return ValueType::Result {
                        func: FuncRef {
                            receiver: Some(t.name.clone()),
                            name: method.to_string(),
                        },
                        index: 0,
                    };
                }
                // Not a local: a package qualifier.
                if self.lookup(name, at).is_none() {
                    return ValueType::ForeignResult {
                        qualifier: name.to_string(),
                        name: method.to_string(),
                        index: 0,
                    };
                }
                match self.name_type(name, src, at, hops + 1, steps) {
                    // A method of a same-package type held in a local variable.
                    ValueType::Type(t) | ValueType::Param { ty: Some(t), .. }
                        if t.qualifier.is_none() && !t.collection =>
                    {
                        ValueType::Result {
                            func: FuncRef {
                                receiver: Some(t.name),
                                name: method.to_string(),
                            },
                            index: 0,
                        }
                    }
                    _ => unknown(),
                }
            }
            _ => unknown(),
        }
    }
}

/// Block-like nodes whose statements run on one branch only (a `case` clause holds its
/// statements directly, not in a block).
const BRANCH_CONTAINERS: &[&str] = &[
    "block",
    "expression_case",
    "type_case",
    "default_case",
    "communication_case",
];

/// Statements whose branches exclude one another.
const BRANCHING_STATEMENTS: &[&str] = &[
    "if_statement",
    "expression_switch_statement",
    "type_switch_statement",
    "select_statement",
];

/// Values one name is followed to, at most.
const MAX_ALTERNATIVES: usize = 16;

/// Elements of a slice followed to their values, at most.
const MAX_ELEMENTS: usize = 64;

/// True for `append(name, …)`.
fn is_append_to(value: Node, name: &str, src: &[u8]) -> bool {
    value.kind_name() == "call_expression"
        && value
            .child_by_field_id(FIELD.function)
            .is_some_and(|f| text(f, src) == "append")
        && value
            .child_by_field_id(FIELD.arguments)
            .and_then(|a| a.named_child(0))
            .is_some_and(|first| text(first, src) == name)
}

/// The values found, latest first, as one value (in the order they are written).
fn one_of(mut alternatives: Vec<ValueType>) -> ValueType {
    alternatives.reverse();
    match alternatives.len() {
        1 => alternatives.remove(0),
        _ => ValueType::OneOf(alternatives),
    }
}

/// `new(pkg.T)` parses its argument as an expression or a type.
fn new_arg_type(node: Node, src: &[u8]) -> Option<TypeRef> {
    match node.kind_name() {
        "selector_expression" => Some(TypeRef::named(
            Some(text(node.child_by_field_id(FIELD.operand)?, src)),
            text(node.child_by_field_id(FIELD.field)?, src),
        )),
        "identifier" => Some(TypeRef::named(None, text(node, src))),
        _ => type_ref(node, src),
    }
}

/// `X.ConfigMaps(ns)` → (`X`, "ConfigMaps"): a call of an exported method with the result
/// of a call.
fn resource_call<'t>(operand: Node<'t>, src: &[u8]) -> Option<(Node<'t>, String)> {
    if operand.kind_name() != "call_expression" {
        return None;
    }
    let f = operand.child_by_field_id(FIELD.function)?;
    let resource = text(f.child_by_field_id(FIELD.field)?, src);
    let is_resource = resource
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase());
    if !is_resource {
        return None;
    }
    Some((f.child_by_field_id(FIELD.operand)?, resource.to_string()))
}

/// `X.CoreV1()` → (`X`, "CoreV1"): a clientset's group-version accessor.
fn group_version_call<'t>(gv_call: Node<'t>, src: &[u8]) -> Option<(Node<'t>, String)> {
    if gv_call.kind_name() != "call_expression"
        || gv_call
            .child_by_field_id(FIELD.arguments)?
            .named_child_count()
            != 0
    {
        return None;
    }
    let gv_function = gv_call.child_by_field_id(FIELD.function)?;
    let gv = text(gv_function.child_by_field_id(FIELD.field)?, src);
    let root = gv_function.child_by_field_id(FIELD.operand)?;
    is_group_version_accessor(gv).then(|| (root, gv.to_string()))
}

impl<'t> Scope<'t> {
    /// `X.CoreV1().ConfigMaps(ns)` → (`X`, "CoreV1", "ConfigMaps"): a typed clientset
    /// accessor and the clientset it is called on, also when the group-version client is
    /// held in a local (`certs := c.Client().NetworkingV1alpha1(); certs.Certificates(ns)`).
    pub fn clientset_chain_at(
        &self,
        operand: Node<'t>,
        src: &[u8],
    ) -> Option<(Node<'t>, String, String)> {
        let (gv_call, resource) = resource_call(operand, src)?;
        let gv_call = match gv_call.kind_name() {
            "identifier" => match self.lookup(text(gv_call, src), gv_call.start_byte())? {
                Binding::Value(value) => value,
                _ => return None,
            },
            _ => gv_call,
        };
        let (root, gv) = group_version_call(gv_call, src)?;
        Some((root, gv, resource))
    }
}

/// `CoreV1`, `AcmeV1alpha2`: how client-gen names a group-version's accessor (and, with
/// `Interface` after it, its client type).
pub fn is_group_version_accessor(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name
            .rfind('V')
            .is_some_and(|i| i > 0 && kubernetes::is_version(&name[i..].to_ascii_lowercase()))
}

/// The expressions of an expression list (`a, b` on either side of `=`), or the one.
pub(crate) fn list(node: Node) -> Vec<Node> {
    if node.kind_name() == "expression_list" {
        let mut c = node.walk();
        node.named_children(&mut c)
            .filter(|n| n.kind_name() != "comment")
            .collect()
    } else {
        vec![node]
    }
}

#[cfg(test)]
mod tests;
