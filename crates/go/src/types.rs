//! The analyzer's vocabulary for Go types and values, shared by every feature: a type as
//! written (`TypeRef`), a value's origin (`ValueType`, `Chain`), signatures, and the struct
//! and interface declarations of a file. Nothing here is per function (see `scope`) or
//! resolved to a package (see `index`).

use super::syntax::FIELD;
use super::syntax::KindName;
use tree_sitter::Node;

use super::consts::{ConstExpr, const_expr};
use super::syntax::{keyed_elements, text};

/// A named Go type as written: `pkg.T` or `T` (pointers and type arguments stripped), or a
/// slice, array or map of one (`collection`: the element, or the map's value, is `pkg.T`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeRef {
    pub qualifier: Option<String>,
    pub name: String,
    pub collection: bool,
}

impl TypeRef {
    pub fn named(qualifier: Option<&str>, name: &str) -> TypeRef {
        TypeRef {
            qualifier: qualifier.map(str::to_string),
            name: name.to_string(),
            collection: false,
        }
    }
}

/// The named type a type expression denotes, if it is one (`*pkg.T`, `T[X]`, `pkg.T`).
pub fn type_ref(node: Node, src: &[u8]) -> Option<TypeRef> {
    let mut n = node;
    let mut collection = false;
    for _ in 0..6 {
        match n.kind_name() {
            "pointer_type" | "parenthesized_type" => n = n.named_child(0)?,
            "generic_type" => n = n.child_by_field_id(FIELD.ty)?,
            // One level of collection is kept: `[]T`, `[N]T`, `map[K]T`.
            "slice_type" | "array_type" | "implicit_length_array_type" | "map_type"
                if !collection =>
            {
                collection = true;
                n = n.child_by_field_id(if n.kind_name() == "map_type" {
                    FIELD.value
                } else {
                    FIELD.element
                })?;
            }
            "qualified_type" => {
                return Some(TypeRef {
                    qualifier: Some(text(n.child_by_field_id(FIELD.package)?, src).to_string()),
                    name: text(n.child_by_field_id(FIELD.name)?, src).to_string(),
                    collection,
                });
            }
            "type_identifier" => {
                return Some(TypeRef {
                    qualifier: None,
                    name: text(n, src).to_string(),
                    collection,
                });
            }
            _ => return None,
        }
    }
    None
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
    Type(TypeRef),
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
    /// An object from a typed clientset call (`cs.CoreV1().ConfigMaps(ns).Get(…)`); `root`
    /// is the clientset (`cs`), whose type says whose accessors these are.
    Clientset {
        root: Box<ValueType>,
        group_version: String,
        resource: String,
    },
    /// A typed clientset's client of one resource (`cs.AppsV1().StatefulSets(ns)`), not an
    /// object: what a local assigned from the chain holds.
    ClientsetClient {
        root: Box<ValueType>,
        group_version: String,
        resource: String,
    },
    /// The function's own parameter number `index` (its declared type may be an interface
    /// or a type parameter, so callers say what it really is).
    Param {
        index: usize,
        ty: Option<TypeRef>,
    },
    /// An unstructured or metadata-only object whose kind was set with a constant
    /// GroupVersionKind (`u.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))`).
    SetKind {
        group_version: GroupVersionRef,
        kind: ConstExpr,
    },
    /// `base.WithX(…)…`: a `With…` builder chain on a call's result. An apply
    /// configuration's builders return their receiver, so for those it is `base`; nothing
    /// else resolves through it.
    Configured {
        base: Box<ValueType>,
    },
    /// One of several values: a variable assigned on branches (`switch` cases) before it
    /// is used. Its kinds are every one's, when each has one.
    OneOf(Vec<ValueType>),
    /// A slice (of declared type `ty`) holding these values: its composite literal's
    /// elements and what was appended to it (`[]client.Object{cm, newSecret()}`).
    Elements {
        ty: TypeRef,
        values: Vec<ValueType>,
    },
    /// `value.(T)` with `T` of another package: `T` when it is a concrete type, else (an
    /// interface: `client.ObjectList`) what `value` holds.
    Asserted {
        ty: TypeRef,
        value: Box<ValueType>,
    },
    /// A name no local, parameter or receiver of the function binds: a package-level
    /// variable of its package, if one is declared.
    Var(String),
    Unknown(String),
}

/// Where a set GroupVersionKind's group and version come from.
#[derive(Debug, Clone, PartialEq)]
pub enum GroupVersionRef {
    /// `q.SchemeGroupVersion` or `q.GroupVersion`: the group/version package `q` declares.
    Package(String),
    /// `schema.GroupVersionKind{Group: …, Version: …}`.
    Literal {
        group: ConstExpr,
        version: ConstExpr,
    },
}

/// A function's parameters (name and type; `_` when unnamed), results and type parameters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Signature {
    pub params: Vec<(String, Option<TypeRef>)>,
    pub results: Vec<Option<TypeRef>>,
    pub type_params: Vec<String>,
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
            for name in crate::syntax::field_children(p, FIELD.name)
                .into_iter()
                .filter(|n| n.kind_name() == "identifier")
            {
                sig.type_params.push(text(name, src).to_string());
            }
        }
    }
    for (ty, names) in super::syntax::parameters(decl, src) {
        let ty = ty.and_then(|t| type_ref(t, src));
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
                let ty = p.child_by_field_id(FIELD.ty).and_then(|t| type_ref(t, src));
                let count = crate::syntax::field_children(p, FIELD.name)
                    .into_iter()
                    .filter(|n| n.kind_name() == "identifier")
                    .count()
                    .max(1);
                for _ in 0..count {
                    sig.results.push(ty.clone());
                }
            }
        } else {
            sig.results.push(type_ref(result, src));
        }
    }
    sig
}

/// Where a value chain starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Root {
    /// A value of a known type: a composite literal, `new(T)`, a typed parameter or variable.
    Type(TypeRef),
    /// The method's receiver.
    Receiver(TypeRef),
    /// The result of calling a package-level function, `F(…)` or `pkg.F(…)`.
    Call {
        qualifier: Option<String>,
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Field(String),
    /// The result of calling a method.
    Call(String),
    /// An element of a collection: `xs[i]`, or a `range` loop's value variable.
    Elem,
}

/// A value written as a chain of field reads and calls from a root, e.g.
/// `pkg.NewRunner().WithX(…)` or `opts.LoggingOptions`.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    pub root: Root,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StructField {
    pub name: String,
    pub ty: TypeRef,
    pub embedded: bool,
    /// The field's tag as its string's value (`json:"x" env:"X"`), when it has one.
    pub tag: Option<String>,
    pub line: u32,
}

/// A `type T struct { … }` declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct StructDecl {
    pub name: String,
    pub fields: Vec<StructField>,
}

/// A `type I interface { … }` declaration: its methods and embedded interfaces.
#[derive(Debug, Clone, PartialEq)]
pub struct InterfaceDecl {
    pub name: String,
    pub methods: Vec<(String, Signature)>,
    pub embedded: Vec<TypeRef>,
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

/// The `field_declaration`s of a `struct_type`, in order.
pub(crate) fn field_declarations(struct_type: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut tc = struct_type.walk();
    for list in struct_type.named_children(&mut tc) {
        let mut lc = list.walk();
        out.extend(
            list.named_children(&mut lc)
                .filter(|f| f.kind_name() == "field_declaration"),
        );
    }
    out
}

/// A struct tag literal's value: a raw string as written, an interpreted one unquoted
/// (tags are almost always raw strings; escapes in an interpreted one are kept).
fn tag_value(literal: &str) -> String {
    literal
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .or_else(|| literal.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
        .unwrap_or(literal)
        .to_string()
}

/// The value of `key` in a struct tag (`name:"x" env:"A,B"`), as Go's
/// `reflect.StructTag.Lookup` reads it.
pub fn tag_lookup<'t>(tag: &'t str, key: &str) -> Option<&'t str> {
    let mut rest = tag;
    loop {
        rest = rest.trim_start();
        let colon = rest.find(':')?;
        let name = &rest[..colon];
        let after = rest[colon + 1..].strip_prefix('"')?;
        // The value runs to the next unescaped quote.
        let mut end = None;
        let mut escaped = false;
        for (i, c) in after.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    end = Some(i);
                    break;
                }
                _ => escaped = false,
            }
        }
        let end = end?;
        if name == key {
            return Some(&after[..end]);
        }
        rest = &after[end + 1..];
    }
}

/// The specs of a `var` declaration (`var x T`, `var ( … )`).
pub(crate) fn var_specs(decl: Node) -> Vec<Node> {
    let mut c = decl.walk();
    let mut specs: Vec<Node> = Vec::new();
    for child in decl.named_children(&mut c) {
        match child.kind_name() {
            "var_spec" => specs.push(child),
            "var_spec_list" => {
                let mut lc = child.walk();
                specs.extend(
                    child
                        .named_children(&mut lc)
                        .filter(|n| n.kind_name() == "var_spec"),
                );
            }
            _ => {}
        }
    }
    specs
}

/// Records the package-level variables declared with a type (`var kc client.Client`).
pub fn collect_typed_vars(decl: Node, src: &[u8], out: &mut Vec<(String, TypeRef)>) {
    for spec in var_specs(decl) {
        let Some(ty) = spec
            .child_by_field_id(FIELD.ty)
            .and_then(|t| type_ref(t, src))
        else {
            continue;
        };
        for name in crate::syntax::field_children(spec, FIELD.name) {
            out.push((text(name, src).to_string(), ty.clone()));
        }
    }
}

/// A package-level variable initialized with a struct literal (`var rows = row{obj: &X{}}`):
/// its type, and the fields given a composite literal (a value whose type is written).
#[derive(Debug, Clone, PartialEq)]
pub struct VarLiteral {
    pub name: String,
    pub ty: TypeRef,
    pub fields: Vec<(String, TypeRef)>,
}

/// Records the package-level variables initialized with a struct literal, alone or by
/// address (`x = T{…}`, `x = &T{…}`).
pub fn collect_var_literals(decl: Node, src: &[u8], out: &mut Vec<VarLiteral>) {
    for spec in var_specs(decl) {
        let names: Vec<Node> = crate::syntax::field_children(spec, FIELD.name);
        let Some(values) = spec.child_by_field_id(FIELD.value) else {
            continue;
        };
        let mut vc = values.walk();
        for (name, value) in names.iter().zip(values.named_children(&mut vc)) {
            let Some((ty, body)) = struct_literal(value, src) else {
                continue;
            };
            let fields = crate::syntax::keyed_elements(body)
                .into_iter()
                .filter(|(key, _)| key.kind_name() == "identifier")
                .filter_map(|(key, v)| {
                    let (t, _) = struct_literal(v, src)?;
                    Some((text(key, src).to_string(), t))
                })
                .collect();
            out.push(VarLiteral {
                name: text(*name, src).to_string(),
                ty,
                fields,
            });
        }
    }
}

/// `T{…}` or `&T{…}`: its type and its body.
fn struct_literal<'t>(value: Node<'t>, src: &[u8]) -> Option<(TypeRef, Node<'t>)> {
    let lit = match value.kind_name() {
        "unary_expression" => value.child_by_field_id(FIELD.operand)?,
        _ => value,
    };
    if lit.kind_name() != "composite_literal" {
        return None;
    }
    let ty = type_ref(lit.child_by_field_id(FIELD.ty)?, src)?;
    (!ty.collection).then_some((ty, lit.child_by_field_id(FIELD.body)?))
}

/// Records `type T struct { … }` declarations.
pub fn collect_structs(decl: Node, src: &[u8], out: &mut Vec<StructDecl>) {
    for (name, ty) in type_specs(decl, "struct_type") {
        let mut fields = Vec::new();
        for field in field_declarations(ty) {
            let Some(fty) = field
                .child_by_field_id(FIELD.ty)
                .and_then(|t| type_ref(t, src))
            else {
                continue;
            };
            let names: Vec<String> = crate::syntax::field_children(field, FIELD.name)
                .into_iter()
                .map(|n| text(n, src).to_string())
                .collect();
            let tag = field
                .child_by_field_id(FIELD.tag)
                .map(|t| tag_value(text(t, src)));
            let line = super::syntax::line_of(field);
            if names.is_empty() {
                fields.push(StructField {
                    name: fty.name.clone(),
                    ty: fty,
                    embedded: true,
                    tag,
                    line,
                });
            } else {
                for n in names {
                    fields.push(StructField {
                        name: n,
                        ty: fty.clone(),
                        embedded: false,
                        tag: tag.clone(),
                        line,
                    });
                }
            }
        }
        out.push(StructDecl {
            name: text(name, src).to_string(),
            fields,
        });
    }
}

/// Records `type I interface { … }` declarations: method names with their shapes, and
/// embedded interfaces.
pub fn collect_interfaces(decl: Node, src: &[u8], out: &mut Vec<InterfaceDecl>) {
    for (name, ty) in type_specs(decl, "interface_type") {
        let mut methods = Vec::new();
        let mut embedded = Vec::new();
        let mut tc = ty.walk();
        for elem in ty.named_children(&mut tc) {
            match elem.kind_name() {
                "method_elem" | "method_spec" => {
                    if let Some(n) = elem.child_by_field_id(FIELD.name) {
                        methods.push((text(n, src).to_string(), signature(elem, src)));
                    }
                }
                "type_elem" | "constraint_elem" => {
                    // An embedded interface, unless it is a type set (`~int | string`).
                    if elem.named_child_count() == 1
                        && let Some(t) = elem.named_child(0).and_then(|t| type_ref(t, src))
                    {
                        embedded.push(t);
                    }
                }
                _ => {}
            }
        }
        out.push(InterfaceDecl {
            name: text(name, src).to_string(),
            methods,
            embedded,
        });
    }
}

/// The GroupVersionKind a `SetGroupVersionKind` argument names, when it is constant:
/// `q.SchemeGroupVersion.WithKind("K")` (or `q.GroupVersion`), or a
/// `schema.GroupVersionKind{Group: …, Version: …, Kind: …}` literal.
pub fn constant_gvk(node: Node, src: &[u8]) -> Option<(GroupVersionRef, ConstExpr)> {
    match node.kind_name() {
        "call_expression" => {
            let f = node.child_by_field_id(FIELD.function)?;
            if f.kind_name() != "selector_expression"
                || text(f.child_by_field_id(FIELD.field)?, src) != "WithKind"
            {
                return None;
            }
            let gv = f.child_by_field_id(FIELD.operand)?;
            let package = gv.child_by_field_id(FIELD.operand)?;
            let field = text(gv.child_by_field_id(FIELD.field)?, src);
            let args = node.child_by_field_id(FIELD.arguments)?;
            let kind = const_expr(args.named_child(0)?, src)?;
            (gv.kind_name() == "selector_expression"
                && package.kind_name() == "identifier"
                && matches!(field, "SchemeGroupVersion" | "GroupVersion")
                && args.named_child_count() == 1)
                .then(|| {
                    (
                        GroupVersionRef::Package(text(package, src).to_string()),
                        kind,
                    )
                })
        }
        "composite_literal" => {
            let ty = type_ref(node.child_by_field_id(FIELD.ty)?, src)?;
            if ty.name != "GroupVersionKind" || ty.qualifier.is_none() {
                return None;
            }
            let (mut group, mut version, mut kind) = (None, None, None);
            for (key, value) in keyed_elements(node.child_by_field_id(FIELD.body)?) {
                let slot = match text(key, src) {
                    "Group" => &mut group,
                    "Version" => &mut version,
                    "Kind" => &mut kind,
                    _ => continue,
                };
                *slot = Some(const_expr(value, src)?);
            }
            // The core group is the empty string, and may be left out.
            let group = group.unwrap_or(ConstExpr::Str(String::new()));
            Some((
                GroupVersionRef::Literal {
                    group,
                    version: version?,
                },
                kind?,
            ))
        }
        _ => None,
    }
}
