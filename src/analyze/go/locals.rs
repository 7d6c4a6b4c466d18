//! What the analyzer knows about types inside a function: parameter types, and the type
//! each local variable gets from its declarations (composite literals, `new`, `var x T`,
//! same-package function results, `range list.Items`, `x.DeepCopy()`), plus the struct
//! declarations of the file. Types stay unresolved expressions here; `index` resolves them.

use tree_sitter::Node;

use super::syntax::{FuncCtx, text};

/// A Go type as written, without pointers: `corev1.ConfigMap` or `Widget`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeExpr {
    pub qualifier: Option<String>,
    pub name: String,
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
    /// The first result of a same-package function.
    Result(FuncRef),
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

/// A function's signature facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    pub params: Vec<(String, Option<TypeExpr>)>,
    pub results: Vec<Option<TypeExpr>>,
    pub type_params: Vec<String>,
}

/// The type a type node names, with pointers and parentheses removed. Slices, maps,
/// channels and function types give None.
pub fn type_expr(node: Node, src: &[u8]) -> Option<TypeExpr> {
    let mut n = node;
    loop {
        match n.kind() {
            "pointer_type" | "parenthesized_type" => n = n.named_child(0)?,
            "generic_type" => n = n.child_by_field_name("type")?,
            "qualified_type" => {
                return Some(TypeExpr {
                    qualifier: Some(text(n.child_by_field_name("package")?, src).to_string()),
                    name: text(n.child_by_field_name("name")?, src).to_string(),
                });
            }
            "type_identifier" => {
                return Some(TypeExpr {
                    qualifier: None,
                    name: text(n, src).to_string(),
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
    if let Some(tp) = decl.child_by_field_name("type_parameters") {
        let mut c = tp.walk();
        for p in tp.named_children(&mut c) {
            let mut pc = p.walk();
            for name in p
                .children_by_field_name("name", &mut pc)
                .filter(|n| n.kind() == "identifier")
            {
                sig.type_params.push(text(name, src).to_string());
            }
        }
    }
    if let Some(params) = decl.child_by_field_name("parameters") {
        let mut c = params.walk();
        for p in params.named_children(&mut c) {
            if !matches!(
                p.kind(),
                "parameter_declaration" | "variadic_parameter_declaration"
            ) {
                continue;
            }
            let ty = p
                .child_by_field_name("type")
                .and_then(|t| type_expr(t, src));
            let mut pc = p.walk();
            let names: Vec<String> = p
                .children_by_field_name("name", &mut pc)
                .filter(|n| n.kind() == "identifier")
                .map(|n| text(n, src).to_string())
                .collect();
            if names.is_empty() {
                sig.params.push(("_".into(), ty));
            } else {
                for name in names {
                    sig.params.push((name, ty.clone()));
                }
            }
        }
    }
    if let Some(result) = decl.child_by_field_name("result") {
        if result.kind() == "parameter_list" {
            let mut c = result.walk();
            for p in result
                .named_children(&mut c)
                .filter(|p| p.kind() == "parameter_declaration")
            {
                let ty = p
                    .child_by_field_name("type")
                    .and_then(|t| type_expr(t, src));
                let mut pc = p.walk();
                let count = p
                    .children_by_field_name("name", &mut pc)
                    .filter(|n| n.kind() == "identifier")
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

/// Struct declarations at the top level of a file.
pub fn structs(decl: Node, src: &[u8], out: &mut Vec<StructInfo>) {
    let mut c = decl.walk();
    for spec in decl
        .named_children(&mut c)
        .filter(|n| n.kind() == "type_spec")
    {
        let (Some(name), Some(ty)) = (
            spec.child_by_field_name("name"),
            spec.child_by_field_name("type"),
        ) else {
            continue;
        };
        if ty.kind() != "struct_type" {
            continue;
        }
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
            .filter(|n| n.kind() == "field_declaration")
        {
            let Some(fty) = field
                .child_by_field_name("type")
                .and_then(|t| type_expr(t, src))
            else {
                continue;
            };
            let mut fc = field.walk();
            let names: Vec<String> = field
                .children_by_field_name("name", &mut fc)
                .filter(|n| n.kind() == "field_identifier")
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
        super::syntax::for_each_node(ctx.body, |n| {
            if matches!(
                n.kind(),
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
        match n.kind() {
            "short_var_declaration" | "assignment_statement" => {
                let (Some(left), Some(right)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    return;
                };
                let names = identifiers(left, src);
                let values = list(right);
                if values.len() == names.len() {
                    for (name, value) in names.into_iter().zip(values) {
                        if let Some(name) = name {
                            let ty = self.type_of(value, src, n.start_byte());
                            self.vars.push((name, end, ty));
                        }
                    }
                } else if values.len() == 1 {
                    // `x, err := f(…)`: the first name takes the first result.
                    if let Some(Some(first)) = names.into_iter().next() {
                        let ty = self.type_of(values[0], src, n.start_byte());
                        self.vars.push((first, end, ty));
                    }
                }
            }
            "var_spec" => {
                let mut c = n.walk();
                let names: Vec<String> = n
                    .children_by_field_name("name", &mut c)
                    .filter(|x| x.kind() == "identifier")
                    .map(|x| text(x, src).to_string())
                    .collect();
                if let Some(ty) = n
                    .child_by_field_name("type")
                    .and_then(|t| type_expr(t, src))
                {
                    for name in names {
                        self.vars.push((name, end, ValueType::Type(ty.clone())));
                    }
                } else if let Some(value) = n.child_by_field_name("value") {
                    let values = list(value);
                    for (name, v) in names.into_iter().zip(values) {
                        let ty = self.type_of(v, src, n.start_byte());
                        self.vars.push((name, end, ty));
                    }
                }
            }
            "range_clause" => {
                let (Some(left), Some(right)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    return;
                };
                let names = identifiers(left, src);
                // `for _, item := range list.Items`: a Kubernetes XList holds Items of X.
                if let (Some(Some(value_name)), true) =
                    (names.get(1), right.kind() == "selector_expression")
                {
                    let field = right.child_by_field_name("field").map(|f| text(f, src));
                    let operand = right.child_by_field_name("operand");
                    if let (Some("Items"), Some(operand)) = (field, operand) {
                        let ty = match self.type_of(operand, src, n.start_byte()) {
                            ValueType::Type(t) if t.name.ends_with("List") && t.name.len() > 4 => {
                                ValueType::Type(TypeExpr {
                                    qualifier: t.qualifier,
                                    name: t.name[..t.name.len() - 4].to_string(),
                                })
                            }
                            _ => ValueType::Unknown(text(right, src).to_string()),
                        };
                        self.vars.push((value_name.clone(), n.start_byte(), ty));
                    }
                }
            }
            _ => {}
        }
    }

    /// The type of an expression at byte offset `at` of the function.
    pub fn type_of(&self, node: Node, src: &[u8], at: usize) -> ValueType {
        let mut n = node;
        loop {
            match n.kind() {
                "unary_expression"
                    if n.child_by_field_name("operator")
                        .is_some_and(|o| text(o, src) == "&") =>
                {
                    match n.child_by_field_name("operand") {
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
                        .child_by_field_name("type")
                        .and_then(|t| type_expr(t, src))
                    {
                        return ValueType::Type(t);
                    }
                    break;
                }
                "identifier" => return self.lookup(text(n, src), at),
                "call_expression" => {
                    let Some(function) = n.child_by_field_name("function") else {
                        break;
                    };
                    match function.kind() {
                        "identifier" if text(function, src) == "new" => {
                            if let Some(t) = n
                                .child_by_field_name("arguments")
                                .and_then(|a| a.named_child(0))
                                .and_then(|t| new_arg_type(t, src))
                            {
                                return ValueType::Type(t);
                            }
                            break;
                        }
                        "identifier" => {
                            return ValueType::Result(FuncRef {
                                receiver: None,
                                name: text(function, src).to_string(),
                            });
                        }
                        "selector_expression" => {
                            let (Some(operand), Some(field)) = (
                                function.child_by_field_name("operand"),
                                function.child_by_field_name("field"),
                            ) else {
                                break;
                            };
                            let method = text(field, src);
                            if method == "DeepCopy" {
                                n = operand;
                                continue;
                            }
                            if operand.kind() == "identifier"
                                && Some(text(operand, src)) == self.ctx.receiver_name.as_deref()
                            {
                                return ValueType::Result(FuncRef {
                                    receiver: self.ctx.receiver_type.clone(),
                                    name: method.to_string(),
                                });
                            }
                            break;
                        }
                        _ => break,
                    }
                }
                _ => break,
            }
        }
        ValueType::Unknown(text(node, src).to_string())
    }

    fn lookup(&self, name: &str, at: usize) -> ValueType {
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
    match node.kind() {
        "selector_expression" => Some(TypeExpr {
            qualifier: Some(text(node.child_by_field_name("operand")?, src).to_string()),
            name: text(node.child_by_field_name("field")?, src).to_string(),
        }),
        "identifier" => Some(TypeExpr {
            qualifier: None,
            name: text(node, src).to_string(),
        }),
        _ => type_expr(node, src),
    }
}

fn identifiers(left: Node, src: &[u8]) -> Vec<Option<String>> {
    list(left)
        .into_iter()
        .map(|n| (n.kind() == "identifier").then(|| text(n, src).to_string()))
        .collect()
}

fn list(node: Node) -> Vec<Node> {
    if node.kind() == "expression_list" {
        let mut c = node.walk();
        node.named_children(&mut c)
            .filter(|n| n.kind() != "comment")
            .collect()
    } else {
        vec![node]
    }
}
