//! What the analyzer knows about types inside a function: parameter types, and the type
//! each local variable gets from its declarations (composite literals, `new`, `var x T`,
//! same-package function results, `range list.Items`, `x.DeepCopy()`), plus the struct
//! declarations of the file. Types stay unresolved expressions here; `index` resolves them.

use super::syntax::FIELD;
use super::syntax::KindName;
use tree_sitter::Node;

use super::syntax::{FuncCtx, ObjectRef, object_ref, text};

/// A Go type as written, without pointers: `corev1.ConfigMap` or `Widget`, or a slice or
/// array of one (`collection`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeExpr {
    pub qualifier: Option<String>,
    pub name: String,
    pub collection: bool,
}

impl TypeExpr {
    pub fn named(qualifier: Option<&str>, name: &str) -> TypeExpr {
        TypeExpr {
            qualifier: qualifier.map(str::to_string),
            name: name.to_string(),
            collection: false,
        }
    }
}

/// A function in the same package: a method of a receiver type, or a plain function.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FuncRef {
    pub receiver: Option<String>,
    pub name: String,
}

/// What an expression's type is known to be.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueType {
    Type(TypeExpr),
    /// Result number `index` of a same-package function.
    Result {
        func: FuncRef,
        index: usize,
    },
    /// Result number `index` of `qualifier.name(…)`, a function of another package.
    ForeignResult {
        qualifier: String,
        name: String,
        index: usize,
    },
    /// A field of a struct value (`r.Service`, `list.Items`).
    Field {
        base: Box<ValueType>,
        field: String,
    },
    /// An element of a slice or array value (`range xs`, `xs[i]`).
    Elem(Box<ValueType>),
    /// An object from a typed clientset call (`cs.CoreV1().ConfigMaps(ns).Get(…)`).
    Clientset {
        group_version: String,
        resource: String,
    },
    /// A typed clientset's client of one resource (`cs.AppsV1().StatefulSets(ns)`), not an
    /// object: what a local assigned from the chain holds.
    ClientsetClient {
        group_version: String,
        resource: String,
    },
    /// The function's own parameter number `index` (its declared type may be an interface
    /// or a type parameter, so callers say what it really is).
    Param {
        index: usize,
        ty: Option<TypeExpr>,
    },
    Unknown(String),
}

/// Struct types declared in a file: fields by name, embedded types with no name.
#[derive(Debug, Clone, PartialEq)]
pub struct StructInfo {
    pub name: String,
    pub fields: Vec<(Option<String>, TypeExpr)>,
}

/// An interface declared at the top level of a file, with the types it embeds (a union
/// such as `~int | string` is a constraint, not an embedding, and is left out).
#[derive(Debug, Clone, PartialEq)]
pub struct InterfaceInfo {
    pub name: String,
    pub embedded: Vec<TypeExpr>,
}

/// A function's signature facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    pub params: Vec<(String, Option<TypeExpr>)>,
    pub results: Vec<Option<TypeExpr>>,
    pub type_params: Vec<String>,
}

/// The type a type node names, with pointers and parentheses removed; one level of slice
/// or array is kept as `collection`. Maps, channels and function types give None.
pub fn type_expr(node: Node, src: &[u8]) -> Option<TypeExpr> {
    let mut n = node;
    let mut collection = false;
    loop {
        match n.kind_name() {
            "pointer_type" | "parenthesized_type" => n = n.named_child(0)?,
            "generic_type" => n = n.child_by_field_id(FIELD.ty)?,
            "slice_type" | "array_type" | "implicit_length_array_type" if !collection => {
                collection = true;
                n = n.child_by_field_id(FIELD.element)?;
            }
            "qualified_type" => {
                return Some(TypeExpr {
                    qualifier: Some(text(n.child_by_field_id(FIELD.package)?, src).to_string()),
                    name: text(n.child_by_field_id(FIELD.name)?, src).to_string(),
                    collection,
                });
            }
            "type_identifier" => {
                return Some(TypeExpr {
                    qualifier: None,
                    name: text(n, src).to_string(),
                    collection,
                });
            }
            _ => return None,
        }
    }
}

/// Parameter and result types of a function or method declaration.
pub fn signature(decl: Node, src: &[u8]) -> Signature {
    let mut sig = Signature {
        params: Vec::new(),
        results: Vec::new(),
        type_params: Vec::new(),
    };
    if let Some(tp) = decl.child_by_field_id(FIELD.type_parameters) {
        let mut c = tp.walk();
        for p in tp.named_children(&mut c) {
            let mut pc = p.walk();
            for name in p
                .children_by_field_name("name", &mut pc)
                .filter(|n| n.kind_name() == "identifier")
            {
                sig.type_params.push(text(name, src).to_string());
            }
        }
    }
    for (ty, names) in super::syntax::parameters(decl, src) {
        let ty = ty.and_then(|t| type_expr(t, src));
        if names.is_empty() {
            sig.params.push(("_".into(), ty));
        } else {
            for name in names {
                sig.params.push((name.to_string(), ty.clone()));
            }
        }
    }
    if let Some(result) = decl.child_by_field_id(FIELD.result) {
        if result.kind_name() == "parameter_list" {
            let mut c = result.walk();
            for p in result
                .named_children(&mut c)
                .filter(|p| p.kind_name() == "parameter_declaration")
            {
                let ty = p
                    .child_by_field_id(FIELD.ty)
                    .and_then(|t| type_expr(t, src));
                let mut pc = p.walk();
                let count = p
                    .children_by_field_name("name", &mut pc)
                    .filter(|n| n.kind_name() == "identifier")
                    .count()
                    .max(1);
                for _ in 0..count {
                    sig.results.push(ty.clone());
                }
            }
        } else {
            sig.results.push(type_expr(result, src));
        }
    }
    sig
}

/// The (name, type) nodes of the type specs of a declaration whose type is of `kind`.
pub(crate) fn type_specs<'t>(decl: Node<'t>, kind: &str) -> Vec<(Node<'t>, Node<'t>)> {
    let mut c = decl.walk();
    decl.named_children(&mut c)
        .filter(|n| n.kind_name() == "type_spec")
        .filter_map(|spec| {
            let name = spec.child_by_field_id(FIELD.name)?;
            let ty = spec.child_by_field_id(FIELD.ty)?;
            (ty.kind_name() == kind).then_some((name, ty))
        })
        .collect()
}

/// Struct declarations at the top level of a file.
pub fn structs(decl: Node, src: &[u8], out: &mut Vec<StructInfo>) {
    for (name, ty) in type_specs(decl, "struct_type") {
        let mut info = StructInfo {
            name: text(name, src).to_string(),
            fields: Vec::new(),
        };
        let Some(list) = ty.named_child(0) else {
            continue;
        };
        let mut lc = list.walk();
        for field in list
            .named_children(&mut lc)
            .filter(|n| n.kind_name() == "field_declaration")
        {
            let Some(fty) = field
                .child_by_field_id(FIELD.ty)
                .and_then(|t| type_expr(t, src))
            else {
                continue;
            };
            let mut fc = field.walk();
            let names: Vec<String> = field
                .children_by_field_name("name", &mut fc)
                .filter(|n| n.kind_name() == "field_identifier")
                .map(|n| text(n, src).to_string())
                .collect();
            if names.is_empty() {
                info.fields.push((None, fty));
            } else {
                for n in names {
                    info.fields.push((Some(n), fty.clone()));
                }
            }
        }
        out.push(info);
    }
}

/// Interface declarations at the top level of a file.
pub fn interfaces(decl: Node, src: &[u8], out: &mut Vec<InterfaceInfo>) {
    for (name, ty) in type_specs(decl, "interface_type") {
        let mut ec = ty.walk();
        let embedded = ty
            .named_children(&mut ec)
            .filter(|e| e.kind_name() == "type_elem" && e.named_child_count() == 1)
            .filter_map(|e| type_expr(e.named_child(0)?, src))
            .collect();
        out.push(InterfaceInfo {
            name: text(name, src).to_string(),
            embedded,
        });
    }
}

/// Local variables of one function, in declaration order.
pub struct Locals<'a> {
    ctx: &'a FuncCtx<'a>,
    signature: &'a Signature,
    /// (name, byte offset where the declaration ends, type).
    vars: Vec<(String, usize, ValueType)>,
}

impl<'a> Locals<'a> {
    /// Collects the declarations of a function body.
    pub fn collect(ctx: &'a FuncCtx<'a>, signature: &'a Signature, src: &[u8]) -> Locals<'a> {
        let mut locals = Locals {
            ctx,
            signature,
            vars: Vec::new(),
        };
        let mut decls = Vec::new();
        ctx.bindings.iter().copied().for_each(|n| {
            if matches!(
                n.kind_name(),
                "short_var_declaration" | "assignment_statement" | "var_spec" | "range_clause"
            ) {
                decls.push(n);
            }
        });
        for n in decls {
            locals.declare(n, src);
        }
        locals
    }

    fn declare(&mut self, n: Node, src: &[u8]) {
        let end = n.end_byte();
        match n.kind_name() {
            "short_var_declaration" | "assignment_statement" => {
                let (Some(left), Some(right)) = (
                    n.child_by_field_id(FIELD.left),
                    n.child_by_field_id(FIELD.right),
                ) else {
                    return;
                };
                let names = identifiers(left, src);
                let values = list(right);
                // `x = …` keeps x's declared type; only a concrete value (`x = &T{}` into an
                // interface-typed x) tells more. `xs = append(xs, …)` must not lose it.
                let assignment = n.kind_name() == "assignment_statement";
                if values.len() == names.len() {
                    for (name, value) in names.into_iter().zip(values) {
                        if let Some(name) = name {
                            let ty = self.type_of(value, src, n.start_byte());
                            if !assignment || matches!(ty, ValueType::Type(_)) {
                                self.vars.push((name, end, ty));
                            }
                        }
                    }
                } else if values.len() == 1 && !assignment {
                    // `a, b, err := f(…)`: each name takes its result.
                    let ty = self.type_of(values[0], src, n.start_byte());
                    for (i, name) in names.into_iter().enumerate() {
                        let Some(name) = name else { continue };
                        let nth = match &ty {
                            ValueType::Result { func, .. } => ValueType::Result {
                                func: func.clone(),
                                index: i,
                            },
                            ValueType::ForeignResult {
                                qualifier, name, ..
                            } => ValueType::ForeignResult {
                                qualifier: qualifier.clone(),
                                name: name.clone(),
                                index: i,
                            },
                            other if i == 0 => other.clone(),
                            _ => continue,
                        };
                        self.vars.push((name, end, nth));
                    }
                }
            }
            "var_spec" => {
                let mut c = n.walk();
                let names: Vec<String> = n
                    .children_by_field_name("name", &mut c)
                    .filter(|x| x.kind_name() == "identifier")
                    .map(|x| text(x, src).to_string())
                    .collect();
                if let Some(ty) = n
                    .child_by_field_id(FIELD.ty)
                    .and_then(|t| type_expr(t, src))
                {
                    for name in names {
                        self.vars.push((name, end, ValueType::Type(ty.clone())));
                    }
                } else if let Some(value) = n.child_by_field_id(FIELD.value) {
                    let values = list(value);
                    for (name, v) in names.into_iter().zip(values) {
                        let ty = self.type_of(v, src, n.start_byte());
                        self.vars.push((name, end, ty));
                    }
                }
            }
            "range_clause" => {
                let (Some(left), Some(right)) = (
                    n.child_by_field_id(FIELD.left),
                    n.child_by_field_id(FIELD.right),
                ) else {
                    return;
                };
                // `for _, item := range xs`: the value is an element of the ranged collection.
                if let Some(Some(value_name)) = identifiers(left, src).get(1) {
                    let ty = ValueType::Elem(Box::new(self.type_of(right, src, n.start_byte())));
                    self.vars.push((value_name.clone(), n.start_byte(), ty));
                }
            }
            _ => {}
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
                    && Some(text(node, src)) == self.ctx.receiver_name.as_deref()
                    && let Some(ty) = &self.ctx.receiver_type =>
            {
                ObjectRef::Type {
                    qualifier: None,
                    name: ty.clone(),
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
                    if let Some(t) = n
                        .child_by_field_id(FIELD.ty)
                        .and_then(|t| type_expr(t, src))
                    {
                        return ValueType::Type(t);
                    }
                    break;
                }
                "identifier" => return self.lookup(text(n, src), at),
                "index_expression" => {
                    let Some(operand) = n.child_by_field_id(FIELD.operand) else {
                        break;
                    };
                    return ValueType::Elem(Box::new(self.type_of(operand, src, at)));
                }
                "selector_expression" => {
                    let (Some(operand), Some(field)) = (
                        n.child_by_field_id(FIELD.operand),
                        n.child_by_field_id(FIELD.field),
                    ) else {
                        break;
                    };
                    let base = self.type_of(operand, src, at);
                    if matches!(base, ValueType::Unknown(_)) {
                        break;
                    }
                    return ValueType::Field {
                        base: Box::new(base),
                        field: text(field, src).to_string(),
                    };
                }
                "call_expression" => return self.call_type(n, src, at),
                // `x.(T)`: a type parameter is only known at the call site, like a
                // parameter of that type (every argument of type T has the same type).
                "type_assertion_expression" => {
                    let Some(t) = n
                        .child_by_field_id(FIELD.ty)
                        .and_then(|t| type_expr(t, src))
                    else {
                        break;
                    };
                    if t.qualifier.is_some()
                        || t.collection
                        || !self.signature.type_params.contains(&t.name)
                    {
                        return ValueType::Type(t);
                    }
                    let same = |p: &Option<TypeExpr>| p.as_ref() == Some(&t);
                    return match self.signature.params.iter().position(|(_, p)| same(p)) {
                        Some(index) => ValueType::Param { index, ty: None },
                        None => break,
                    };
                }
                _ => break,
            }
        }
        ValueType::Unknown(text(node, src).to_string())
    }

    fn call_type(&self, call: Node, src: &[u8], at: usize) -> ValueType {
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
                if method == "DeepCopy" {
                    return self.type_of(operand, src, at);
                }
                if let Some((group_version, resource)) = clientset_accessor(call, src) {
                    return ValueType::ClientsetClient {
                        group_version,
                        resource,
                    };
                }
                let object_call = matches!(
                    method,
                    "Get" | "Create" | "Update" | "UpdateStatus" | "Patch"
                );
                if let (Some((group_version, resource)), true) =
                    (clientset_accessor(operand, src), object_call)
                {
                    return ValueType::Clientset {
                        group_version,
                        resource,
                    };
                }
                if operand.kind_name() != "identifier" {
                    return unknown();
                }
                let name = text(operand, src);
                if Some(name) == self.ctx.receiver_name.as_deref() {
                    return ValueType::Result {
                        func: FuncRef {
                            receiver: self.ctx.receiver_type.clone(),
                            name: method.to_string(),
                        },
                        index: 0,
                    };
                }
                match self.lookup(name, at) {
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
                    // Not a local: a package qualifier.
                    ValueType::Unknown(_) => ValueType::ForeignResult {
                        qualifier: name.to_string(),
                        name: method.to_string(),
                        index: 0,
                    },
                    _ => unknown(),
                }
            }
            _ => unknown(),
        }
    }

    fn lookup(&self, name: &str, at: usize) -> ValueType {
        if Some(name) == self.ctx.receiver_name.as_deref()
            && let Some(t) = &self.ctx.receiver_type
        {
            return ValueType::Type(TypeExpr::named(None, t));
        }
        if let Some((_, _, ty)) = self
            .vars
            .iter()
            .rev()
            .find(|(n, end, _)| n == name && *end <= at)
        {
            return ty.clone();
        }
        if let Some(index) = self.signature.params.iter().position(|(n, _)| n == name) {
            let ty = self.signature.params[index].1.clone();
            // A parameter typed by a type parameter is only known at the call site.
            let generic = ty.as_ref().is_some_and(|t| {
                t.qualifier.is_none() && self.signature.type_params.contains(&t.name)
            });
            return ValueType::Param {
                index,
                ty: if generic { None } else { ty },
            };
        }
        ValueType::Unknown(name.to_string())
    }
}

/// `new(pkg.T)` parses its argument as an expression or a type.
fn new_arg_type(node: Node, src: &[u8]) -> Option<TypeExpr> {
    match node.kind_name() {
        "selector_expression" => Some(TypeExpr::named(
            Some(text(node.child_by_field_id(FIELD.operand)?, src)),
            text(node.child_by_field_id(FIELD.field)?, src),
        )),
        "identifier" => Some(TypeExpr::named(None, text(node, src))),
        _ => type_expr(node, src),
    }
}

/// `X.CoreV1().ConfigMaps(ns)` → ("CoreV1", "ConfigMaps"): a typed clientset accessor.
pub fn clientset_accessor(operand: Node, src: &[u8]) -> Option<(String, String)> {
    if operand.kind_name() != "call_expression" {
        return None;
    }
    let f = operand.child_by_field_id(FIELD.function)?;
    let resource = text(f.child_by_field_id(FIELD.field)?, src);
    let gv_call = f.child_by_field_id(FIELD.operand)?;
    if gv_call.kind_name() != "call_expression"
        || gv_call
            .child_by_field_id(FIELD.arguments)?
            .named_child_count()
            != 0
    {
        return None;
    }
    let gv = text(
        gv_call
            .child_by_field_id(FIELD.function)?
            .child_by_field_id(FIELD.field)?,
        src,
    );
    let is_gv = is_group_version_accessor(gv);
    let is_resource = resource
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase());
    (is_gv && is_resource).then(|| (gv.to_string(), resource.to_string()))
}

/// `CoreV1`, `AcmeV1alpha2`: how client-gen names a group-version's accessor (and, with
/// `Interface` after it, its client type).
pub fn is_group_version_accessor(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name
            .rfind('V')
            .is_some_and(|i| i > 0 && super::kinds::is_version(&name[i..].to_ascii_lowercase()))
}

fn identifiers(left: Node, src: &[u8]) -> Vec<Option<String>> {
    list(left)
        .into_iter()
        .map(|n| (n.kind_name() == "identifier").then(|| text(n, src).to_string()))
        .collect()
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
