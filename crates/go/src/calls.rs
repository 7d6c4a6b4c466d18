//! Functions and the calls between them, for features that must know what a program
//! reaches: which flags and environment reads a `package main` ends up running, and which
//! constructor gave a flag's bound struct field its value.
//!
//! Per file, `extract` records each function's key (package-level name or method of a
//! receiver type), its first result type, and every call whose target may be in the
//! repository: `F(…)`, `pkg.F(…)`, and method calls on values whose type can be followed
//! (`opts.AddFlags(…)` after `opts := pkg.NewOptions()`, `pkg.NewRunner().With(…).Run(…)`,
//! `o.Embedded.Method(…)`). Functions passed as values (`RunE: run`, `http.HandleFunc(p, h)`)
//! count as calls. `Scope` is the small, syntactic type knowledge this needs: receiver,
//! typed parameters and local variables with their initializers.
//!
//! Per project, `Graph` resolves those calls to functions through the package index and
//! recorded struct fields and result types, and `argument_flow` follows a parameter's value
//! up the calls a walk reached, through what each call passes (`Arg`). A call that cannot be followed (an interface,
//! a function value, an external package) gives no edge: reachability is established,
//! never assumed.
//!
//! **Invariant:** no recursion over syntax trees; value chains are followed by loops with
//! a hop limit, so deep or cyclic code cannot overflow the stack or loop forever.

use super::syntax::FIELD;
use super::syntax::KindName;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::VecDeque;

use rayon::prelude::*;

use tree_sitter::Node;

use super::consts::{ConstExpr, const_expr};
pub use super::facts::calls::FuncId;
use super::facts::calls::{
    Arg, FuncFacts, Guard, RawCall, SamePackageArgs, Target, TypeCase, TypeSwitch,
};
use super::facts::{GoFile, Import};
use super::index::{GoIndex, GoInput};
use super::scope::Scope;
use super::syntax::{FuncCtx, PREDECLARED_TYPES, call_arguments, callee, line_of, text};
use super::types::{Chain, InterfaceDecl, Root, Signature, Step, StructDecl, TypeRef, ValueType};

/// True if `qualifier` names an import of the standard library in `imports`: calls into it
/// can never reach repository code, so they are not recorded.
pub(crate) fn is_std_qualifier(imports: &[Import], qualifier: &str) -> bool {
    imports.iter().any(|imp| {
        let named = match &imp.alias {
            Some(a) => a == qualifier,
            // The default name is the path's last element: the path ends with it.
            None => imp.path.ends_with(qualifier) && imp.path.rsplit('/').next() == Some(qualifier),
        };
        named && !imp.path.split('/').next().unwrap_or("").contains('.')
    })
}

/// True if `qualifier` names the import `path` in `imports` (alias or default name).
pub fn names_import(imports: &[Import], qualifier: &str, path: &str) -> bool {
    imports.iter().any(|imp| {
        imp.path == path
            && match &imp.alias {
                Some(a) => a == qualifier,
                None => path.rsplit('/').next() == Some(qualifier),
            }
    })
}

/// True if `operand` (of `operand.F(…)`) is the package `path`: an identifier naming its
/// import that no local shadows.
pub fn is_package(
    operand: Node,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
    path: &str,
) -> bool {
    operand.kind_name() == "identifier" && {
        let q = text(operand, src);
        scope.lookup(q, operand.start_byte()).is_none() && names_import(imports, q, path)
    }
}

/// Records one function's key, result type and calls; returns its index in `file.call_facts`.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) -> usize {
    let decl = ctx.decl;
    let mut facts = FuncFacts {
        name: ctx.name.clone(),
        receiver: ctx.receiver_type.clone(),
        line: decl.map(line_of).unwrap_or_else(|| line_of(ctx.body)),
        signature: scope.signature().clone(),
        calls: Vec::new(),
        returned: decl
            .filter(|d| first_result_may_be_interface(*d, src))
            .map(|_| returned_values(ctx, scope, src))
            .unwrap_or_default(),
        guards: guards(ctx, src),
        type_switches: type_switches(ctx, scope, src),
    };
    let arguments = |c| ctx.arguments(c);
    collect_calls(
        &ctx.nodes,
        arguments,
        scope,
        src,
        &file.imports,
        &mut facts.calls,
    );
    file.call_facts.push(facts);
    file.call_facts.len() - 1
}

/// The body's statements `if _, ok := recv.field.(I); !ok { … return … }`.
fn guards(ctx: &FuncCtx, src: &[u8]) -> Vec<Guard> {
    let Some(recv) = ctx.receiver_name.as_deref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for stmt in statements(ctx.body) {
        if stmt.kind_name() != "if_statement" {
            continue;
        }
        let guard = (|| {
            let init = stmt.child_by_field_id(FIELD.initializer)?;
            let left = init.child_by_field_id(FIELD.left)?;
            let right = init.child_by_field_id(FIELD.right)?.named_child(0)?;
            let ok = left.named_child(1)?;
            (init.kind_name() == "short_var_declaration"
                && right.kind_name() == "type_assertion_expression")
                .then_some(())?;
            let operand = right.child_by_field_id(FIELD.operand)?;
            let field = operand.child_by_field_id(FIELD.field)?;
            let base = operand.child_by_field_id(FIELD.operand)?;
            (operand.kind_name() == "selector_expression" && text(base, src) == recv)
                .then_some(())?;
            let interface = crate::types::type_ref(right.child_by_field_id(FIELD.ty)?, src)?;
            // `!ok`, and a block that returns.
            let condition = stmt.child_by_field_id(FIELD.condition)?;
            let negated = condition.kind_name() == "unary_expression"
                && text(condition, src).replace(' ', "") == format!("!{}", text(ok, src));
            let block = stmt.child_by_field_id(FIELD.consequence)?;
            let returns = statements(block)
                .iter()
                .any(|s| s.kind_name() == "return_statement");
            (negated && returns).then(|| Guard {
                field: text(field, src).to_string(),
                interface,
                end: stmt.end_position().row as u32 + 1,
            })
        })();
        out.extend(guard);
    }
    out
}

/// The function's type switches on one of its parameters, with each case's types and lines.
fn type_switches(ctx: &FuncCtx, scope: &Scope, src: &[u8]) -> Vec<TypeSwitch> {
    let mut out = Vec::new();
    for stmt in &ctx.bindings {
        if stmt.kind_name() != "type_switch_statement" {
            continue;
        }
        let Some(param) = stmt
            .child_by_field_id(FIELD.value)
            .and_then(|v| scope.param_at(v, src))
        else {
            continue;
        };
        let mut c = stmt.walk();
        let cases = stmt
            .named_children(&mut c)
            .filter(|n| matches!(n.kind_name(), "type_case" | "default_case"))
            .map(|case| {
                let written = crate::syntax::field_children(case, FIELD.ty);
                let types: Vec<TypeRef> = written
                    .iter()
                    .filter_map(|t| crate::types::type_ref(*t, src))
                    .filter(|t| t.name != "nil")
                    .collect();
                TypeCase {
                    open: types.len() != written.len(),
                    types,
                    lines: (line_of(case), case.end_position().row as u32 + 1),
                }
            })
            .collect();
        out.push(TypeSwitch { param, cases });
    }
    out
}

/// A block's statements (the grammar may hold them in a `statement_list`).
fn statements(block: Node) -> Vec<Node> {
    let mut c = block.walk();
    let mut out = Vec::new();
    for n in block.named_children(&mut c) {
        if n.kind_name() == "statement_list" {
            let mut lc = n.walk();
            out.extend(n.named_children(&mut lc));
        } else {
            out.push(n);
        }
    }
    out
}

/// True when a function's first result is declared as a named type, which may be an
/// interface (a pointer, slice, map or function type is not, nor `error` or another
/// predeclared type).
fn first_result_may_be_interface(decl: Node, src: &[u8]) -> bool {
    let Some(result) = decl.child_by_field_id(FIELD.result) else {
        return false;
    };
    let first = if result.kind_name() == "parameter_list" {
        result
            .named_child(0)
            .and_then(|p| p.child_by_field_id(FIELD.ty))
    } else {
        Some(result)
    };
    first.is_some_and(|t| match t.kind_name() {
        "qualified_type" => true,
        "type_identifier" => !PREDECLARED_TYPES.contains(&text(t, src)),
        _ => false,
    })
}

/// The first value of each `return` of the function itself (not of its closures), as
/// `Scope::type_of` tells it; `nil` is left out, and a bare `return` (of named results)
/// is unknown.
fn returned_values(ctx: &FuncCtx, scope: &Scope, src: &[u8]) -> Vec<ValueType> {
    let mut out = Vec::new();
    for ret in ctx.own_returns() {
        let first = ret
            .named_child(0)
            .and_then(|values| super::scope::list(values).into_iter().next());
        match first {
            Some(v) if v.kind_name() == "nil" || text(v, src) == "nil" => {}
            Some(v) => out.push(scope.type_of(v, src, ret.start_byte())),
            None => out.push(ValueType::Unknown("return".into())),
        }
    }
    out
}

/// Records the calls made by a package-level `var` declaration's initializers; returns
/// the index of the file's package-level entry in `file.call_facts`.
pub fn extract_package_level(nodes: &[Node], src: &[u8], file: &mut GoFile) -> usize {
    let at = package_level_entry(file);
    let scope = Scope::package_level();
    let mut calls = Vec::new();
    collect_calls(
        nodes,
        call_arguments,
        &scope,
        src,
        &file.imports,
        &mut calls,
    );
    file.call_facts[at].calls.extend(calls);
    at
}

/// The index of the file's package-level entry, created on first use.
pub fn package_level_entry(file: &mut GoFile) -> usize {
    if let Some(i) = file.call_facts.iter().position(FuncFacts::is_top_level) {
        return i;
    }
    file.call_facts.push(FuncFacts::default());
    file.call_facts.len() - 1
}

/// `arguments` gives a call's arguments (`call_arguments`, or a function's cached ones).
fn collect_calls<'t, A: AsRef<[Node<'t>]>>(
    nodes: &[Node<'t>],
    arguments: impl Fn(Node<'t>) -> A,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
    out: &mut Vec<RawCall>,
) {
    let mut keys = HashSet::new();
    nodes
        .iter()
        .copied()
        .for_each(|node| match node.kind_name() {
            "call_expression" => {
                let Some(f) = callee(node) else {
                    return;
                };
                if let Some(reconcile) = registered_reconciler(node, f, scope, src) {
                    out.push(reconcile);
                }
                let Some(target) = target_of(f, scope, src, imports) else {
                    // A local holding method values (`update := o.a.update; update(…)`):
                    // each of them.
                    if f.kind_name() == "identifier" {
                        for value in scope.method_values(text(f, src), f.start_byte()) {
                            if let Some(target) = target_of(value, scope, src, imports) {
                                out.push(RawCall {
                                    line: line_of(node),
                                    target,
                                    args: arguments(node)
                                        .as_ref()
                                        .iter()
                                        .map(|n| arg_of(*n, scope, src))
                                        .collect(),
                                    same_package: None,
                                });
                            }
                        }
                    }
                    return;
                };
                let arg_nodes = arguments(node);
                let arg_nodes = arg_nodes.as_ref();
                let same_package = match &target {
                    Target::Func {
                        qualifier: None, ..
                    } => true,
                    Target::Method { receiver, .. } => {
                        receiver.steps.is_empty() && matches!(receiver.root, Root::Receiver(_))
                    }
                    Target::Func { .. } | Target::Param(_) => false,
                }
                .then(|| SamePackageArgs {
                    values: arg_nodes
                        .iter()
                        .map(|a| scope.type_of(*a, src, node.start_byte()))
                        .collect(),
                    type_args: type_arguments(node, src),
                });
                out.push(RawCall {
                    line: line_of(node),
                    target,
                    args: arg_nodes.iter().map(|n| arg_of(*n, scope, src)).collect(),
                    same_package,
                });
            }
            // A function or method passed as a value (`RunE: run`, `Handle(p, s.serve)`) may
            // be called by whoever receives it.
            // A key (`RunE` in `RunE: run`) is a field name, not a value: keyed elements come
            // before their keys in document order, so keys are known when reached.
            "keyed_element" => {
                if let Some(key) = node.child_by_field_id(FIELD.key) {
                    keys.insert(key.id());
                }
            }
            "argument_list" | "literal_element" => {
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    if !matches!(child.kind_name(), "identifier" | "selector_expression") {
                        continue;
                    }
                    if keys.contains(&node.id()) {
                        continue;
                    }
                    if let Some(target) = target_of(child, scope, src, imports) {
                        out.push(RawCall {
                            line: line_of(child),
                            target,
                            args: Vec::new(),
                            same_package: None,
                        });
                    }
                }
            }
            _ => {}
        });
}

/// The explicit type arguments of a call, or none.
fn type_arguments(call: Node, src: &[u8]) -> Vec<Option<TypeRef>> {
    let Some(list) = call.child_by_field_id(FIELD.type_arguments) else {
        return Vec::new();
    };
    let mut c = list.walk();
    list.named_children(&mut c)
        .filter(|n| n.kind() != "comment")
        .map(|n| {
            // `type_elem` wraps each argument in newer grammars.
            let t = if n.kind_name() == "type_elem" {
                n.named_child(0)
            } else {
                Some(n)
            };
            t.and_then(|t| super::types::type_ref(t, src))
        })
        .collect()
}

/// controller-runtime's `….Complete(r)` / `….Build(r)` hands `r` to the manager, which
/// calls `r.Reconcile`: that call is recorded here, so a program that sets up a controller
/// reaches its `Reconcile` (it resolves only if `r`'s type has such a method).
fn registered_reconciler(call: Node, f: Node, scope: &Scope, src: &[u8]) -> Option<RawCall> {
    if f.kind_name() != "selector_expression" {
        return None;
    }
    let method = text(f.child_by_field_id(FIELD.field)?, src);
    if method != "Complete" && method != "Build" {
        return None;
    }
    let args = call.child_by_field_id(FIELD.arguments)?;
    if args.named_child_count() != 1 {
        return None;
    }
    let receiver = scope.chain_of(args.named_child(0)?, src)?;
    Some(RawCall {
        line: line_of(call),
        target: Target::Method {
            receiver,
            name: "Reconcile".to_string(),
        },
        args: Vec::new(),
        same_package: None,
    })
}

/// Go's predeclared names, which are never repository functions.
const PREDECLARED: &[&str] = &[
    "nil", "true", "false", "iota", "append", "cap", "clear", "close", "complex", "copy", "delete",
    "imag", "len", "make", "max", "min", "new", "panic", "print", "println", "real", "recover",
];

/// The function a callee expression (or a function value) names, when it may be in the
/// repository.
pub(crate) fn target_of(f: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<Target> {
    match f.kind_name() {
        "identifier" => {
            let name = text(f, src);
            if let Some(i) = scope.param_at(f, src) {
                return Some(Target::Param(i));
            }
            if PREDECLARED.contains(&name) || scope.lookup(name, f.start_byte()).is_some() {
                return None;
            }
            Some(Target::Func {
                qualifier: None,
                name: name.to_string(),
            })
        }
        "selector_expression" => {
            let operand = f.child_by_field_id(FIELD.operand)?;
            let name = text(f.child_by_field_id(FIELD.field)?, src).to_string();
            if operand.kind_name() == "identifier" {
                let q = text(operand, src);
                if scope.lookup(q, operand.start_byte()).is_none() {
                    if is_std_qualifier(imports, q) {
                        return None;
                    }
                    return Some(Target::Func {
                        qualifier: Some(q.to_string()),
                        name,
                    });
                }
            }
            let receiver = scope.chain_of(operand, src)?;
            Some(Target::Method { receiver, name })
        }
        _ => None,
    }
}

pub(crate) fn arg_of(node: Node, scope: &Scope, src: &[u8]) -> Arg {
    if let Some(i) = scope.param_at(node, src) {
        return Arg::Param(i);
    }
    // `p.DeepCopyObject().(I)`: the parameter's value, asserted to an interface.
    if node.kind_name() == "type_assertion_expression" {
        let mut held = scope.type_of(node, src, node.start_byte());
        while let ValueType::Asserted { value, .. } = held {
            held = *value;
        }
        if let ValueType::Param { index, .. } = held {
            return Arg::Param(index);
        }
    }
    let value = scope.resolve_value(node, src);
    let local = |name: &str| scope.lookup(name, value.start_byte()).is_some();
    match const_expr(value, src) {
        // A local variable (or a field of one) is not a constant, whatever it holds.
        Some(ConstExpr::Ref {
            qualifier: None,
            ref name,
        }) if local(name) => {}
        Some(ConstExpr::Ref {
            qualifier: Some(ref q),
            ..
        }) if local(q) => {}
        Some(e) => return Arg::Str(e),
        None => {}
    }
    match scope.chain_of(node, src) {
        Some(chain) => Arg::Value(chain),
        None => Arg::Other,
    }
}

/// A call graph edge: (callee's flat number, a line or an index in the caller's calls).
type Edge = (usize, u32);

/// A type resolved to its package: import path, name, and whether it is a collection of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Ty {
    pkg: String,
    name: String,
    collection: bool,
}

/// Embedded fields and interfaces are followed this deep.
const MAX_EMBED_DEPTH: usize = 3;

/// A map whose keys of owned names are looked up with borrowed ones (`FuncKey`,
/// `TypeKey`): the lookups of a project's calls number in the hundreds of thousands, and
/// building each key's strings was most of their cost.
type KeyedMap<K, V> = hashbrown::HashMap<K, V, foldhash::fast::RandomState>;

/// `(package, receiver type, name)` of `Graph::funcs`, borrowed. It hashes as the owned
/// tuple does (a `String` hashes as its `str`, an `Option` as its discriminant and value).
#[derive(Hash)]
struct FuncKey<'k>(&'k str, Option<&'k str>, &'k str);

impl hashbrown::Equivalent<(String, Option<String>, String)> for FuncKey<'_> {
    fn equivalent(&self, key: &(String, Option<String>, String)) -> bool {
        self.0 == key.0 && self.1 == key.1.as_deref() && self.2 == key.2
    }
}

/// `(package, type name)` of `Graph::structs`, borrowed; hashes as the owned pair does.
#[derive(Hash)]
struct TypeKey<'k>(&'k str, &'k str);

impl hashbrown::Equivalent<(String, String)> for TypeKey<'_> {
    fn equivalent(&self, key: &(String, String)) -> bool {
        self.0 == key.0 && self.1 == key.1
    }
}

/// The project's functions and the calls between them that could be followed.
pub struct Graph<'a> {
    files: &'a [GoInput],
    index: &'a GoIndex<'a>,
    /// (package import path, receiver type, name) → functions (several with build tags);
    /// looked up with a `FuncKey` of borrowed names.
    funcs: KeyedMap<(String, Option<String>, String), Vec<FuncId>>,
    /// (package import path, type name) → the file declaring it and the declaration;
    /// looked up with a `TypeKey` of borrowed names.
    structs: KeyedMap<(String, String), (usize, &'a StructDecl)>,
    interfaces: HashMap<(String, String), (usize, &'a InterfaceDecl)>,
    /// Each in-repo interface's implementers among the product's types (see `implementers`).
    implementers: HashMap<(String, String), Vec<(String, String)>>,
    /// Flat function number → (file, function); and file → its first flat number.
    ids: Vec<FuncId>,
    offsets: Vec<usize>,
    /// Per function: the functions it calls, with the line of the (first) call.
    edges: Vec<Vec<(usize, u32)>>,
    /// Per function: every followed call as (callee, index in the caller's `calls`), sorted,
    /// so the arguments of each call on an edge can be read (`argument_flow`).
    call_sites: Vec<Vec<(usize, u32)>>,
    /// Per function: the functions calling it, each once (the edges reversed).
    callers: Vec<Vec<usize>>,
}

impl<'a> Graph<'a> {
    pub fn build(files: &'a [GoInput], index: &'a GoIndex<'a>) -> Graph<'a> {
        let mut graph = Graph {
            files,
            index,
            funcs: KeyedMap::default(),
            structs: KeyedMap::default(),
            interfaces: HashMap::new(),
            implementers: HashMap::new(),
            ids: Vec::new(),
            offsets: Vec::with_capacity(files.len()),
            edges: Vec::new(),
            call_sites: Vec::new(),
            callers: Vec::new(),
        };
        for (fi, input) in files.iter().enumerate() {
            graph.offsets.push(graph.ids.len());
            let pkg = index.package_of(&input.facts).map(str::to_string);
            for (i, f) in input.facts.call_facts.iter().enumerate() {
                graph.ids.push(FuncId::new(fi, i));
                let Some(pkg) = &pkg else { continue };
                if f.is_top_level() || (f.name == "init" && f.receiver.is_none()) {
                    continue;
                }
                graph
                    .funcs
                    .entry((pkg.clone(), f.receiver.clone(), f.name.clone()))
                    .or_default()
                    .push(FuncId::new(fi, i));
            }
            if let Some(pkg) = &pkg {
                for s in &input.facts.structs {
                    graph
                        .structs
                        .entry((pkg.clone(), s.name.clone()))
                        .or_insert((fi, s));
                }
                for d in &input.facts.interfaces {
                    graph
                        .interfaces
                        .entry((pkg.clone(), d.name.clone()))
                        .or_insert((fi, d));
                }
            }
        }
        graph.implementers = graph.all_implementers();
        // Each function's calls resolve on their own: in parallel, collected in order.
        let resolved: Vec<(Vec<Edge>, Vec<Edge>)> = graph
            .ids
            .par_iter()
            .map(|&FuncId { file: fi, func: i }| {
                let mut out: Vec<(usize, u32)> = Vec::new();
                let mut sites: Vec<(usize, u32)> = Vec::new();
                for (ci, c) in graph.files[fi].facts.call_facts[i].calls.iter().enumerate() {
                    for id in graph.resolve(fi, &c.target) {
                        let to = graph.flat(id);
                        out.push((to, c.line));
                        sites.push((to, ci as u32));
                    }
                }
                // One edge per callee, at its first call.
                out.sort_unstable_by_key(|&(to, line)| (to, line));
                out.dedup_by_key(|e| e.0);
                sites.sort_unstable();
                sites.dedup();
                (out, sites)
            })
            .collect();
        let mut edges = Vec::with_capacity(graph.ids.len());
        let mut call_sites = Vec::with_capacity(graph.ids.len());
        let mut callers: Vec<Vec<usize>> = vec![Vec::new(); graph.ids.len()];
        for (from, (out, sites)) in resolved.into_iter().enumerate() {
            for &(to, _) in &out {
                callers[to].push(from);
            }
            edges.push(out);
            call_sites.push(sites);
        }
        graph.edges = edges;
        graph.call_sites = call_sites;
        graph.callers = callers;
        graph
    }

    fn flat(&self, FuncId { file: fi, func: i }: FuncId) -> usize {
        self.offsets[fi] + i
    }

    /// The functions a call written in file `fi` may go to. A method called on a value of
    /// an in-repo interface type goes to that method of every implementer (class-hierarchy
    /// analysis); a call on anything else that cannot be followed goes nowhere.
    pub fn resolve(&self, fi: usize, target: &Target) -> Vec<FuncId> {
        let file = &self.files[fi].facts;
        match target {
            // A function value: what it holds is not known here.
            Target::Param(_) => Vec::new(),
            Target::Func { qualifier, name } => self
                .index
                .type_package(file, qualifier.as_deref())
                .and_then(|pkg| self.funcs.get(&FuncKey(&pkg, None, name)))
                .cloned()
                .unwrap_or_default(),
            Target::Method { receiver, name } => {
                let Some(ty) = self.type_of_full(fi, receiver) else {
                    return Vec::new();
                };
                if ty.collection {
                    return Vec::new();
                }
                self.method(&ty.pkg, &ty.name, name)
            }
        }
    }

    /// A package-level function of file `fi`'s package, or of the package `qualifier` names there.
    pub fn function(&self, fi: usize, qualifier: Option<&str>, name: &str) -> Vec<FuncId> {
        self.resolve(
            fi,
            &Target::Func {
                qualifier: qualifier.map(str::to_string),
                name: name.to_string(),
            },
        )
    }

    /// Methods `name` of type `ty` of package `pkg`, including promoted ones.
    pub fn methods_of(&self, pkg: &str, ty: &str, name: &str) -> Vec<FuncId> {
        self.concrete_method(pkg, ty, name)
            .cloned()
            .unwrap_or_default()
    }

    /// Methods `name` a value of `pkg.ty` may run: its own or promoted ones; for an
    /// interface, or a struct embedding one without the method of its own, its
    /// implementers' (`c.updateStatus` with `c` embedding `objectUpdater`).
    fn method(&self, pkg: &str, ty: &str, name: &str) -> Vec<FuncId> {
        if let Some(found) = self.concrete_method(pkg, ty, name) {
            return found.clone();
        }
        let mut out: Vec<FuncId> = self
            .interfaces_embedded(pkg, ty)
            .into_iter()
            .filter_map(|key| self.implementers.get(&key))
            .flatten()
            .filter_map(|(p, t)| self.concrete_method(p, t, name))
            .flatten()
            .copied()
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// `pkg.ty` itself when it is an interface with implementers, else the interfaces its
    /// struct embeds (through embedded structs too).
    fn interfaces_embedded(&self, pkg: &str, ty: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut queue = VecDeque::from([(pkg.to_string(), ty.to_string(), 0)]);
        while let Some((pkg, ty, depth)) = queue.pop_front() {
            let key = (pkg, ty);
            if self.implementers.contains_key(&key) {
                out.push(key);
                continue;
            }
            if depth >= MAX_EMBED_DEPTH {
                continue;
            }
            for (p, t) in self.embedded(&key.0, &key.1) {
                queue.push_back((p, t, depth + 1));
            }
        }
        out
    }

    /// Methods `name` of `pkg.ty`, including ones promoted from embedded structs.
    fn concrete_method(&self, pkg: &str, ty: &str, name: &str) -> Option<&Vec<FuncId>> {
        // The type's own method, asked without building a key; then promoted ones.
        if let Some(found) = self.funcs.get(&FuncKey(pkg, Some(ty), name)) {
            return Some(found);
        }
        let mut queue: VecDeque<(String, String, usize)> = self
            .embedded(pkg, ty)
            .into_iter()
            .map(|(p, t)| (p, t, 1))
            .collect();
        while let Some((pkg, ty, depth)) = queue.pop_front() {
            if let Some(found) = self.funcs.get(&FuncKey(&pkg, Some(&ty), name)) {
                return Some(found);
            }
            if depth < MAX_EMBED_DEPTH {
                for (p, t) in self.embedded(&pkg, &ty) {
                    queue.push_back((p, t, depth + 1));
                }
            }
        }
        None
    }

    /// The (package, name) of the types struct `pkg.ty` embeds.
    fn embedded(&self, pkg: &str, ty: &str) -> Vec<(String, String)> {
        let Some((fi, decl)) = self.structs.get(&TypeKey(pkg, ty)) else {
            return Vec::new();
        };
        decl.fields
            .iter()
            .filter(|f| f.embedded && !f.ty.collection)
            .filter_map(|f| {
                let p = self
                    .index
                    .type_package(&self.files[*fi].facts, f.ty.qualifier.as_deref())?;
                Some((p, f.ty.name.clone()))
            })
            .collect()
    }

    /// The declared type of field `name` of `pkg.ty` (promoted fields included), with the
    /// file it is written in.
    pub fn field_type(&self, pkg: &str, ty: &str, name: &str) -> Option<(usize, TypeRef)> {
        self.field(pkg, ty, name)
    }

    /// The type of field `name` of `pkg.ty`, including promoted fields, as written in the
    /// file declaring the struct.
    fn field(&self, pkg: &str, ty: &str, name: &str) -> Option<(usize, TypeRef)> {
        let mut queue = VecDeque::from([(pkg.to_string(), ty.to_string(), 0)]);
        while let Some((pkg, ty, depth)) = queue.pop_front() {
            let Some(&(fi, decl)) = self.structs.get(&TypeKey(&pkg, &ty)) else {
                continue;
            };
            if let Some(f) = decl.fields.iter().find(|f| f.name == name) {
                return Some((fi, f.ty.clone()));
            }
            if depth >= MAX_EMBED_DEPTH {
                continue;
            }
            let file = &self.files[fi].facts;
            for f in decl.fields.iter().filter(|f| f.embedded) {
                if let Some(p) = self.index.type_package(file, f.ty.qualifier.as_deref()) {
                    queue.push_back((p, f.ty.name.clone(), depth + 1));
                }
            }
        }
        None
    }

    /// A struct type of the repository written as `t` in file `fi`: its (package, name).
    pub fn repository_struct(&self, fi: usize, t: &TypeRef) -> Option<(String, String)> {
        if t.collection {
            return None;
        }
        let ty = self.resolve_type(&self.files[fi].facts, t)?;
        self.structs
            .contains_key(&TypeKey(&ty.pkg, &ty.name))
            .then_some((ty.pkg, ty.name))
    }

    fn resolve_type(&self, file: &GoFile, t: &TypeRef) -> Option<Ty> {
        Some(Ty {
            pkg: self.index.type_package(file, t.qualifier.as_deref())?,
            name: t.name.clone(),
            collection: t.collection,
        })
    }

    /// The type a chain written in file `fi` evaluates to.
    fn type_of_full(&self, fi: usize, chain: &Chain) -> Option<Ty> {
        self.written_type(fi, chain).map(|(_, _, ty)| ty)
    }

    /// The type a chain written in file `fi` evaluates to: as written where it is declared
    /// (that file and the type expression, for features that read kinds), and resolved.
    pub fn type_written(&self, fi: usize, chain: &Chain) -> Option<(usize, TypeRef)> {
        self.written_type(fi, chain).map(|(at, t, _)| (at, t))
    }

    fn written_type(&self, fi: usize, chain: &Chain) -> Option<(usize, TypeRef, Ty)> {
        let (mut at, mut written) = match &chain.root {
            Root::Type(t) | Root::Receiver(t) => (fi, t.clone()),
            Root::Call { qualifier, name } => {
                let pkg = self
                    .index
                    .type_package(&self.files[fi].facts, qualifier.as_deref())?;
                self.result_of(self.funcs.get(&FuncKey(&pkg, None, name))?)?
            }
        };
        let mut ty = self.resolve_type(&self.files[at].facts, &written)?;
        for step in &chain.steps {
            (at, written) = match step {
                Step::Field(_) | Step::Call(_) if ty.collection => return None,
                Step::Field(f) => self.field(&ty.pkg, &ty.name, f)?,
                Step::Call(m) => match self.concrete_method(&ty.pkg, &ty.name, m) {
                    Some(found) => self.result_of(found)?,
                    // deepcopy-gen's `DeepCopy` returns its receiver's type, also for the
                    // types of other modules, whose methods are not known here.
                    None if m == "DeepCopy" => (at, written),
                    None => return None,
                },
                Step::Elem if ty.collection => (
                    at,
                    TypeRef {
                        collection: false,
                        ..written
                    },
                ),
                Step::Elem => return None,
            };
            ty = self.resolve_type(&self.files[at].facts, &written)?;
        }
        Some((at, written, ty))
    }

    /// The first result type of a function, as written in its file.
    fn result_of(&self, funcs: &[FuncId]) -> Option<(usize, TypeRef)> {
        let &FuncId { file: fi, func: i } = funcs.first()?;
        let result = self.files[fi].facts.call_facts[i]
            .signature
            .results
            .first()?
            .as_ref()?;
        Some((fi, result.clone()))
    }

    /// Whether type `pkg.name` has every method of the in-repo interface `ipkg.iname`
    /// (by name); None when that interface's methods are not known.
    pub fn has_methods_of(
        &self,
        (pkg, name): (&str, &str),
        (ipkg, iname): (&str, &str),
    ) -> Option<bool> {
        let methods = self.method_set(ipkg, iname)?;
        Some(
            methods
                .iter()
                .all(|(m, _, _)| !self.methods_of(pkg, name, m).is_empty()),
        )
    }

    /// The method set of an in-repo interface, with its embedded in-repo interfaces' methods:
    /// (name, shape, the file that declares it). None when it embeds an interface from
    /// outside the repository, whose methods are not known.
    fn method_set(&self, pkg: &str, name: &str) -> Option<Vec<(&'a str, &'a Signature, usize)>> {
        let mut out = Vec::new();
        let mut queue = VecDeque::from([(pkg.to_string(), name.to_string(), 0)]);
        let mut seen = HashSet::new();
        while let Some((pkg, name, depth)) = queue.pop_front() {
            if !seen.insert((pkg.clone(), name.clone())) {
                continue;
            }
            let &(fi, decl) = self.interfaces.get(&(pkg, name))?;
            out.extend(decl.methods.iter().map(|(m, s)| (m.as_str(), s, fi)));
            if depth >= MAX_EMBED_DEPTH {
                return None;
            }
            for e in &decl.embedded {
                let p = self
                    .index
                    .type_package(&self.files[fi].facts, e.qualifier.as_deref())?;
                queue.push_back((p, e.name.clone(), depth + 1));
            }
        }
        Some(out)
    }

    /// For every in-repo interface: the in-repo types whose method sets include each of its
    /// methods with the same shape. Candidates are types declaring its first method and the
    /// structs embedding them; types in generated files (mocks, clientsets) and in samples
    /// are left out, so test doubles never stand for the product's code.
    fn all_implementers(&self) -> HashMap<(String, String), Vec<(String, String)>> {
        let mut declaring: HashMap<&str, Vec<(String, String)>> = HashMap::new();
        for ((pkg, recv, name), ids) in &self.funcs {
            let Some(recv) = recv else { continue };
            if ids
                .iter()
                .all(|&FuncId { file: fi, func: _ }| !self.is_product(fi))
            {
                continue;
            }
            declaring
                .entry(name.as_str())
                .or_default()
                .push((pkg.clone(), recv.clone()));
        }
        let mut embedders: HashMap<(String, String), Vec<(String, String)>> = HashMap::new();
        for ((pkg, name), (fi, decl)) in &self.structs {
            if !self.is_product(*fi) {
                continue;
            }
            for f in decl
                .fields
                .iter()
                .filter(|f| f.embedded && !f.ty.collection)
            {
                if let Some(p) = self
                    .index
                    .type_package(&self.files[*fi].facts, f.ty.qualifier.as_deref())
                {
                    embedders
                        .entry((p, f.ty.name.clone()))
                        .or_default()
                        .push((pkg.clone(), name.clone()));
                }
            }
        }
        let mut out = HashMap::new();
        for (pkg, name) in self.interfaces.keys() {
            let Some(methods) = self.method_set(pkg, name) else {
                continue;
            };
            let Some((first, _, _)) = methods.first() else {
                continue;
            };
            // Types declaring the first method, then the structs embedding them (promotion).
            let mut candidates: Vec<(String, String)> =
                declaring.get(first).cloned().unwrap_or_default();
            let mut seen: HashSet<(String, String)> = candidates.iter().cloned().collect();
            let mut i = 0;
            while i < candidates.len() && i < 10_000 {
                for m in embedders.get(&candidates[i]).into_iter().flatten() {
                    if seen.insert(m.clone()) {
                        candidates.push(m.clone());
                    }
                }
                i += 1;
            }
            let mut found: Vec<(String, String)> = candidates
                .into_iter()
                .filter(|(p, t)| {
                    methods.iter().all(|&(m, shape, ifi)| {
                        self.concrete_method(p, t, m).is_some_and(|ids| {
                            ids.iter().any(|&FuncId { file: fi, func: i }| {
                                self.same_shape(
                                    ifi,
                                    shape,
                                    fi,
                                    &self.files[fi].facts.call_facts[i].signature,
                                )
                            })
                        })
                    })
                })
                .collect();
            found.sort();
            found.dedup();
            if !found.is_empty() {
                out.insert((pkg.clone(), name.clone()), found);
            }
        }
        out
    }

    /// True for a file of the product: not generated, not a sample or test.
    fn is_product(&self, fi: usize) -> bool {
        let input = &self.files[fi];
        !input.facts.generated && input.area == model::Area::Component
    }

    /// Whether two signatures agree: the same number of parameters and results, and each
    /// parameter of the same type where both are named types.
    fn same_shape(&self, afi: usize, a: &Signature, bfi: usize, b: &Signature) -> bool {
        a.results.len() == b.results.len()
            && a.params.len() == b.params.len()
            && a.params
                .iter()
                .zip(&b.params)
                .all(|((_, x), (_, y))| match (x, y) {
                    (Some(x), Some(y)) => self.same_type(afi, x, bfi, y),
                    (None, None) => true,
                    _ => false,
                })
    }

    fn same_type(&self, afi: usize, a: &TypeRef, bfi: usize, b: &TypeRef) -> bool {
        if a.name != b.name || a.collection != b.collection {
            return false;
        }
        if a.qualifier.is_none()
            && b.qualifier.is_none()
            && PREDECLARED_TYPES.contains(&a.name.as_str())
        {
            return true;
        }
        let pa = self
            .index
            .type_package(&self.files[afi].facts, a.qualifier.as_deref());
        let pb = self
            .index
            .type_package(&self.files[bfi].facts, b.qualifier.as_deref());
        match (pa, pb) {
            (Some(pa), Some(pb)) => pa == pb,
            // A package the index does not know: the names (already equal) decide.
            _ => true,
        }
    }

    /// Marks every function reachable from `roots` through followed calls.
    pub fn reachable(&self, roots: impl IntoIterator<Item = FuncId>) -> Reach {
        let mut seen = vec![false; self.ids.len()];
        let mut queue: Vec<usize> = roots.into_iter().map(|id| self.flat(id)).collect();
        while let Some(n) = queue.pop() {
            if seen[n] {
                continue;
            }
            seen[n] = true;
            queue.extend(self.edges[n].iter().map(|&(m, _)| m).filter(|&m| !seen[m]));
        }
        Reach {
            seen,
            offsets: self.offsets.clone(),
        }
    }

    /// True when `roots` reach a function for which `found` holds, looking at no more than
    /// `limit` functions.
    pub fn reaches_within(
        &self,
        roots: impl IntoIterator<Item = FuncId>,
        limit: usize,
        found: impl Fn(FuncId) -> bool,
    ) -> bool {
        let mut seen = HashSet::new();
        let mut queue: VecDeque<usize> = roots.into_iter().map(|id| self.flat(id)).collect();
        while let Some(n) = queue.pop_front() {
            if seen.len() >= limit {
                return false;
            }
            if !seen.insert(n) {
                continue;
            }
            if found(self.ids[n]) {
                return true;
            }
            queue.extend(
                self.edges[n]
                    .iter()
                    .map(|&(m, _)| m)
                    .filter(|m| !seen.contains(m)),
            );
        }
        false
    }

    /// The functions for which `stop` holds that `roots` reach without passing through
    /// another such function, in the graph's order.
    pub fn first_reached(
        &self,
        roots: impl IntoIterator<Item = FuncId>,
        stop: impl Fn(FuncId) -> bool,
    ) -> Vec<FuncId> {
        let mut seen = vec![false; self.ids.len()];
        let mut found = Vec::new();
        let mut queue: Vec<usize> = roots.into_iter().map(|id| self.flat(id)).collect();
        while let Some(n) = queue.pop() {
            if seen[n] {
                continue;
            }
            seen[n] = true;
            if stop(self.ids[n]) {
                found.push(n);
                continue;
            }
            queue.extend(self.edges[n].iter().map(|&(m, _)| m).filter(|&m| !seen[m]));
        }
        found.sort_unstable();
        found.into_iter().map(|n| self.ids[n]).collect()
    }

    /// A breadth-first walk from `roots` that remembers how each function was first
    /// reached, so every reached function has a shortest call path. It stops after
    /// `max_nodes` functions or at `max_depth` calls deep, and says so (`Paths::cut`).
    pub fn paths_from(&self, roots: &[FuncId], max_depth: usize, max_nodes: usize) -> Paths {
        self.paths_avoiding(roots, max_depth, max_nodes, |_| false)
    }

    /// `paths_from`, never entering a function for which `avoid` holds (unless a root).
    pub fn paths_avoiding(
        &self,
        roots: &[FuncId],
        max_depth: usize,
        max_nodes: usize,
        avoid: impl Fn(FuncId) -> bool,
    ) -> Paths {
        self.paths_pruned(roots, max_depth, max_nodes, avoid, |_| Vec::new())
    }

    /// `paths_avoiding`, where a function for which `cutoff` gives a line runs nothing
    /// written after that line (an early return the walk knows is taken): its later calls
    /// are not followed, and `Paths::reaches` says its later lines are not reached.
    pub fn paths_pruned(
        &self,
        roots: &[FuncId],
        max_depth: usize,
        max_nodes: usize,
        avoid: impl Fn(FuncId) -> bool,
        not_run: impl Fn(FuncId) -> Vec<(u32, u32)>,
    ) -> Paths {
        let mut parent: Vec<Option<(usize, u32)>> = vec![None; self.ids.len()];
        let mut depth = vec![usize::MAX; self.ids.len()];
        let mut queue = VecDeque::new();
        for &r in roots {
            let n = self.flat(r);
            if depth[n] == usize::MAX {
                depth[n] = 0;
                queue.push_back(n);
            }
        }
        let mut reached = queue.len();
        let mut cut = None;
        let mut skipped: HashMap<usize, Vec<(u32, u32)>> = HashMap::new();
        while let Some(n) = queue.pop_front() {
            let ranges = not_run(self.ids[n]);
            if depth[n] >= max_depth {
                if !self.edges[n].is_empty() {
                    cut.get_or_insert(format!("{max_depth} calls deep"));
                }
                if !ranges.is_empty() {
                    skipped.insert(n, ranges);
                }
                continue;
            }
            for &(m, first) in &self.edges[n] {
                if depth[m] != usize::MAX || avoid(self.ids[m]) {
                    continue;
                }
                let Some(line) = self.first_run_call(n, m, first, &ranges) else {
                    continue;
                };
                if reached >= max_nodes {
                    cut.get_or_insert(format!("{max_nodes} functions"));
                    break;
                }
                depth[m] = depth[n] + 1;
                parent[m] = Some((n, line));
                reached += 1;
                queue.push_back(m);
            }
            if !ranges.is_empty() {
                skipped.insert(n, ranges);
            }
        }
        Paths {
            parent,
            depth,
            cut,
            skipped,
        }
    }

    /// The line of the first call from `n` to `m` that is in none of the line ranges
    /// `not_run` (`first` is the first call's).
    fn first_run_call(
        &self,
        n: usize,
        m: usize,
        first: u32,
        not_run: &[(u32, u32)],
    ) -> Option<u32> {
        let runs = |l: u32| !not_run.iter().any(|&(a, b)| a <= l && l <= b);
        if runs(first) {
            return Some(first);
        }
        let FuncId { file, func } = self.ids[n];
        let caller = &self.files[file].facts.call_facts[func];
        let sites = &self.call_sites[n];
        let at = sites.partition_point(|&(to, _)| to < m);
        sites[at..]
            .iter()
            .take_while(|&&(to, _)| to == m)
            .map(|&(_, k)| caller.calls[k as usize].line)
            .filter(|&l| runs(l))
            .min()
    }

    /// The call path from a root of `paths` to `id`, outermost call first: each step is
    /// (the function called, the file index of the caller, the line of the call).
    pub fn path_to(&self, paths: &Paths, id: FuncId) -> Vec<(FuncId, usize, u32)> {
        let mut out = Vec::new();
        let mut n = self.flat(id);
        while let Some((from, line)) = paths.parent[n] {
            out.push((self.ids[n], self.ids[from].file, line));
            n = from;
            if out.len() > self.ids.len() {
                break;
            }
        }
        out.reverse();
        out
    }

    /// Where the value of parameter `param` of function `id` comes from, on the calls a
    /// walk (`paths`) followed: from each caller the walk reached, the argument of each of its
    /// calls to `id` — a value whose type is followed, or the caller's own parameter, which is
    /// followed up in turn unless its declared type already `settles` it (a concrete type).
    /// Breadth first, so each source has a shortest chain of calls; at most `max_depth` calls
    /// up and `max_sources` sources. Where a value cannot be followed, the source says why.
    pub fn argument_flow(
        &self,
        paths: &Paths,
        id: FuncId,
        param: usize,
        settles: impl Fn(usize, &TypeRef) -> bool,
        max_depth: usize,
        max_sources: usize,
    ) -> Vec<ArgSource> {
        let mut out = Vec::new();
        let start = self.flat(id);
        let mut seen: HashSet<(usize, usize)> = [(start, param)].into_iter().collect();
        // (function, parameter, the calls from it down to `id`)
        let mut queue: VecDeque<(usize, usize, Vec<ArgCall>)> =
            VecDeque::from([(start, param, Vec::new())]);
        let unknown = |calls: &Vec<ArgCall>, reason: String| ArgSource {
            calls: calls.clone(),
            found: Found::Unknown(reason),
            declared: false,
        };
        while let Some((n, param, below)) = queue.pop_front() {
            if out.len() >= max_sources {
                break;
            }
            let name = self.display(self.ids[n]);
            if below.len() >= max_depth {
                out.push(unknown(
                    &below,
                    format!(
                        "the walk up stops after {max_depth} calls, at parameter {} of {name}",
                        param + 1
                    ),
                ));
                continue;
            }
            let calls_in: Vec<(usize, &RawCall)> = self
                .calls_into_flat(n)
                .filter(|&(c, _)| paths.depth[c] != usize::MAX)
                .collect();
            if calls_in.is_empty() {
                out.push(unknown(
                    &below,
                    format!(
                        "no call the walk followed gives parameter {} of {name}",
                        param + 1
                    ),
                ));
                continue;
            }
            for (c, call) in calls_in {
                let FuncId {
                    file: cfi,
                    func: ci,
                } = self.ids[c];
                let caller = &self.files[cfi].facts.call_facts[ci];
                let mut calls = vec![ArgCall {
                    caller: self.ids[c],
                    callee: self.ids[n],
                    line: call.line,
                }];
                calls.extend(below.iter().cloned());
                let mut declared = false;
                let found = match call.args.get(param) {
                    Some(Arg::Param(j)) => {
                        match caller.signature.params.get(*j).and_then(|(_, t)| t.clone()) {
                            Some(t) if settles(cfi, &t) => {
                                declared = true;
                                Found::Type(cfi, t)
                            }
                            _ => {
                                if seen.insert((c, *j)) {
                                    queue.push_back((c, *j, calls));
                                }
                                continue;
                            }
                        }
                    }
                    Some(Arg::Value(chain)) => match self.type_written(cfi, chain) {
                        Some((at, t)) => Found::Type(at, t),
                        None => Found::Unknown(format!(
                            "the type of the argument {} passes to {name} is not followed",
                            self.display(self.ids[c])
                        )),
                    },
                    Some(Arg::Str(_) | Arg::Other) => Found::Unknown(format!(
                        "the argument {} passes to {name} is an expression whose type is not followed",
                        self.display(self.ids[c])
                    )),
                    None if call.args.is_empty() => Found::Unknown(format!(
                        "{} passes {name} on as a function value, whose arguments are not known",
                        self.display(self.ids[c])
                    )),
                    None => Found::Unknown(format!(
                        "{} passes fewer arguments to {name} than its parameter {}",
                        self.display(self.ids[c]),
                        param + 1
                    )),
                };
                out.push(ArgSource {
                    calls,
                    found,
                    declared,
                });
            }
        }
        out
    }

    /// The calls the graph followed into function `id`: (caller, call), by caller.
    pub fn calls_into(&self, id: FuncId) -> Vec<(FuncId, &'a RawCall)> {
        self.calls_into_flat(self.flat(id))
            .map(|(c, call)| (self.ids[c], call))
            .collect()
    }

    fn calls_into_flat(&self, n: usize) -> impl Iterator<Item = (usize, &'a RawCall)> + '_ {
        self.callers[n].iter().flat_map(move |&c| {
            let FuncId {
                file: cfi,
                func: ci,
            } = self.ids[c];
            let caller: &'a FuncFacts = &self.files[cfi].facts.call_facts[ci];
            let sites = &self.call_sites[c];
            let first = sites.partition_point(|&(to, _)| to < n);
            sites[first..]
                .iter()
                .take_while(move |&&(to, _)| to == n)
                .map(move |&(_, k)| (c, &caller.calls[k as usize]))
        })
    }

    /// `pkgname.Type.Method` or `pkgname.Func`, for showing a call path.
    pub fn display(&self, FuncId { file: fi, func: i }: FuncId) -> String {
        let file = &self.files[fi].facts;
        let f = &file.call_facts[i];
        match &f.receiver {
            Some(r) => format!("{}.{r}.{}", file.package, f.name),
            None => format!("{}.{}", file.package, f.name),
        }
    }

    pub fn file(&self, fi: usize) -> &'a GoFile {
        &self.files[fi].facts
    }

    pub fn files(&self) -> &'a [GoInput] {
        self.files
    }

    pub fn file_path(&self, fi: usize) -> &'a str {
        &self.files[fi].facts.path
    }
}

/// The functions one program reaches.
pub struct Reach {
    seen: Vec<bool>,
    offsets: Vec<usize>,
}

impl Reach {
    /// The reached functions, in the graph's order.
    pub fn ids<'g>(&'g self, graph: &'g Graph) -> impl Iterator<Item = FuncId> + 'g {
        self.seen
            .iter()
            .enumerate()
            .filter(|(_, seen)| **seen)
            .map(|(n, _)| graph.ids[n])
    }

    pub fn contains(&self, FuncId { file: fi, func: i }: FuncId) -> bool {
        self.offsets
            .get(fi)
            .and_then(|o| self.seen.get(o + i))
            .copied()
            .unwrap_or(false)
    }
}

/// One call on the way from where a value is known down to the parameter it becomes.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgCall {
    pub caller: FuncId,
    pub callee: FuncId,
    pub line: u32,
}

/// One place a parameter's value comes from (`Graph::argument_flow`).
#[derive(Debug, Clone, PartialEq)]
pub struct ArgSource {
    /// The calls from the function giving the value down to the parameter's, outermost
    /// first; empty when nothing was found above the parameter's own function.
    pub calls: Vec<ArgCall>,
    pub found: Found,
    /// The type is a caller's declared parameter type, which a value of a concrete type
    /// has exactly; a local's type may be one of several it was given on branches.
    pub declared: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// A value of this type, as written in file `fi` (the argument's declared type, or a
    /// caller's parameter type that settles it).
    Type(usize, TypeRef),
    /// Not followed further, and why.
    Unknown(String),
}

/// The walks each function starts, for walks of several controllers that must not enter
/// each other's starting points (`Graph::paths_avoiding`).
pub struct RootOwners(HashMap<FuncId, Vec<usize>>);

impl RootOwners {
    /// From each walk's roots, by walk.
    pub fn new<'r>(roots: impl IntoIterator<Item = Option<&'r Vec<FuncId>>>) -> RootOwners {
        let mut of: HashMap<FuncId, Vec<usize>> = HashMap::new();
        for (i, r) in roots.into_iter().enumerate() {
            for &id in r.into_iter().flatten() {
                of.entry(id).or_default().push(i);
            }
        }
        RootOwners(of)
    }

    /// True when `id` starts another walk than `i`, and not `i` itself.
    pub fn of_another(&self, i: usize, id: FuncId) -> bool {
        self.0.get(&id).is_some_and(|of| !of.contains(&i))
    }
}

/// What `Graph::paths_from` reached, and how.
pub struct Paths {
    parent: Vec<Option<(usize, u32)>>,
    depth: Vec<usize>,
    /// Why the walk stopped early (`"20000 functions"`), if it did.
    pub cut: Option<String>,
    /// Reached functions' lines that do not run on these paths (past an early return
    /// the walk knows is taken, a type switch's cases that do not match), as ranges.
    skipped: HashMap<usize, Vec<(u32, u32)>>,
}

impl Paths {
    pub fn contains(&self, graph: &Graph, id: FuncId) -> bool {
        self.depth
            .get(graph.flat(id))
            .is_some_and(|&d| d != usize::MAX)
    }

    /// Whether line `line` of function `id` runs on these paths.
    pub fn reaches(&self, graph: &Graph, id: FuncId, line: u32) -> bool {
        self.contains(graph, id)
            && self
                .skipped
                .get(&graph.flat(id))
                .is_none_or(|ranges| !ranges.iter().any(|&(a, b)| a <= line && line <= b))
    }
}

#[cfg(test)]
mod tests;
