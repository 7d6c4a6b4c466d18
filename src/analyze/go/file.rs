//! Per-file Go extraction: one tree-sitter parse, then the facts later resolved per project.
//!
//! **Invariant:** no recursion over the syntax tree (every walk uses a cursor or a loop), so a
//! 20,000-deep expression cannot overflow the stack. Nothing here resolves kinds: that needs
//! every file of the project and happens in `resolve`.

use tree_sitter::{Node, Parser};

use crate::model::{Diagnostic, Relation};

/// What one Go file contributes to its project's analysis.
#[derive(Debug, Default, Clone)]
pub struct GoFile {
    pub path: String,
    pub package: String,
    pub imports: Vec<Import>,
    /// Top-level `const Name = "literal"` declarations.
    pub string_consts: Vec<(String, String)>,
    /// `schema.GroupVersion{Group: …, Version: …}` literals at top level.
    pub group_versions: Vec<GroupVersionDecl>,
    /// `+groupName=` marker in the file's comments.
    pub group_name_marker: Option<String>,
    pub controllers: Vec<ControllerChain>,
    pub diagnostics: Vec<Diagnostic>,
    pub parse_errors: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// The alias as written (`corev1`, `.`, `_`), if any.
    pub alias: Option<String>,
    pub path: String,
}

/// A string value: a literal, or a reference to a constant to look up later.
#[derive(Debug, Clone, PartialEq)]
pub enum StringValue {
    Literal(String),
    Const(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct GroupVersionDecl {
    pub group: StringValue,
    pub version: StringValue,
    pub line: u32,
}

/// One `NewControllerManagedBy(mgr)` builder, with every call made on it.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerChain {
    pub line: u32,
    pub name: Option<String>,
    pub reconciler: Option<String>,
    pub watches: Vec<RawWatch>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawWatch {
    pub relation: Relation,
    pub object: ObjectRef,
    pub conditional: bool,
    pub line: u32,
}

/// The Go type named by a watch's object argument.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectRef {
    /// `&pkg.T{}`, `pkg.T{}`, `new(pkg.T)`; `qualifier` is None for a same-package type.
    Type {
        qualifier: Option<String>,
        name: String,
    },
    /// Anything else: the expression as written, which the analyzer cannot resolve yet.
    Unknown(String),
}

/// Parses one Go file and extracts its facts. Never fails: problems become diagnostics.
pub fn extract(path: &str, source: &str) -> GoFile {
    let mut file = GoFile {
        path: path.to_string(),
        ..GoFile::default()
    };
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .is_err()
    {
        file.diagnostics.push(Diagnostic::new(
            path,
            0,
            "internal: the Go grammar failed to load",
        ));
        return file;
    }
    let Some(tree) = parser.parse(source, None) else {
        file.diagnostics.push(Diagnostic::new(
            path,
            0,
            "the Go parser gave up on this file",
        ));
        return file;
    };
    let root = tree.root_node();
    file.parse_errors = root.has_error();
    let src = source.as_bytes();
    let mut cursor = root.walk();
    for decl in root.named_children(&mut cursor) {
        match decl.kind() {
            "package_clause" => {
                if let Some(name) = decl.named_child(0) {
                    file.package = text(name, src).to_string();
                }
            }
            "import_declaration" => collect_imports(decl, src, &mut file.imports),
            "const_declaration" => collect_string_consts(decl, src, &mut file.string_consts),
            "var_declaration" => collect_group_versions(decl, src, &mut file.group_versions),
            "function_declaration" | "method_declaration" => {
                if let Some(body) = decl.child_by_field_name("body") {
                    let receiver = receiver_type(decl, src);
                    let name = receiver_name(decl, src);
                    let found = controllers_in_body(
                        body,
                        src,
                        receiver.as_deref(),
                        name.as_deref(),
                        path,
                        &mut file.diagnostics,
                    );
                    file.controllers.extend(found);
                }
            }
            "comment" => {
                if let Some(group) = group_name_marker(text(decl, src)) {
                    file.group_name_marker = Some(group);
                }
            }
            _ => {}
        }
    }
    if file.group_name_marker.is_none() {
        // `+groupName=` usually sits in the package comment above `package`; it is a child
        // of the root like any comment, but be tolerant of files where it is not.
        for line in source.lines().take(200) {
            if let Some(group) = group_name_marker(line) {
                file.group_name_marker = Some(group);
                break;
            }
        }
    }
    file
}

fn group_name_marker(comment: &str) -> Option<String> {
    let at = comment.find("+groupName=")?;
    let rest = &comment[at + "+groupName=".len()..];
    let value: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
    (!value.is_empty()).then_some(value)
}

pub(crate) fn text<'a>(node: Node, src: &'a [u8]) -> &'a str {
    node.utf8_text(src).unwrap_or("")
}

pub(crate) fn line_of(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

/// The value of a Go string literal (interpreted or raw), or None for anything else.
pub(crate) fn string_literal(node: Node, src: &[u8]) -> Option<String> {
    let raw = text(node, src);
    match node.kind() {
        "raw_string_literal" => Some(raw.trim_matches('`').to_string()),
        "interpreted_string_literal" => {
            let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
            Some(unescape_go(inner))
        }
        _ => None,
    }
}

fn unescape_go(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn collect_imports(decl: Node, src: &[u8], out: &mut Vec<Import>) {
    let mut stack = vec![decl];
    while let Some(node) = stack.pop() {
        if node.kind() == "import_spec" {
            let Some(path) = node
                .child_by_field_name("path")
                .and_then(|p| string_literal(p, src))
            else {
                continue;
            };
            let alias = node
                .child_by_field_name("name")
                .map(|n| text(n, src).to_string());
            out.push(Import { alias, path });
        } else {
            let mut c = node.walk();
            let children: Vec<Node> = node.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
    }
}

fn collect_string_consts(decl: Node, src: &[u8], out: &mut Vec<(String, String)>) {
    let mut c = decl.walk();
    for spec in decl
        .named_children(&mut c)
        .filter(|n| n.kind() == "const_spec")
    {
        let mut names = Vec::new();
        let mut values = Vec::new();
        let mut sc = spec.walk();
        // The grammar files the commas between names under `name` too.
        for child in spec
            .children_by_field_name("name", &mut sc)
            .filter(|n| n.kind() == "identifier")
        {
            names.push(text(child, src).to_string());
        }
        if let Some(list) = spec.child_by_field_name("value") {
            let mut lc = list.walk();
            values.extend(list.named_children(&mut lc).map(|v| string_literal(v, src)));
        }
        for (name, value) in names.into_iter().zip(values) {
            if let Some(value) = value {
                out.push((name, value));
            }
        }
    }
}

fn collect_group_versions(decl: Node, src: &[u8], out: &mut Vec<GroupVersionDecl>) {
    for_each_node(decl, |node| {
        if node.kind() != "composite_literal" {
            return;
        }
        let Some(ty) = node.child_by_field_name("type") else {
            return;
        };
        let type_name = match ty.kind() {
            "qualified_type" => ty.child_by_field_name("name").map(|n| text(n, src)),
            "type_identifier" => Some(text(ty, src)),
            _ => None,
        };
        if type_name != Some("GroupVersion") {
            return;
        }
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let mut group = None;
        let mut version = None;
        let mut bc = body.walk();
        for element in body
            .named_children(&mut bc)
            .filter(|n| n.kind() == "keyed_element")
        {
            let (Some(key), Some(value)) = (element.named_child(0), element.named_child(1)) else {
                continue;
            };
            let key = text(key, src);
            let value_node = value.named_child(0).unwrap_or(value);
            let value = match string_literal(value_node, src) {
                Some(s) => StringValue::Literal(s),
                None if value_node.kind() == "identifier" => {
                    StringValue::Const(text(value_node, src).to_string())
                }
                None => continue,
            };
            match key {
                "Group" => group = Some(value),
                "Version" => version = Some(value),
                _ => {}
            }
        }
        if let (Some(group), Some(version)) = (group, version) {
            out.push(GroupVersionDecl {
                group,
                version,
                line: line_of(node),
            });
        }
    });
}

/// Visits every node under `root` in document order, without recursion.
pub(crate) fn for_each_node<'t>(root: Node<'t>, mut f: impl FnMut(Node<'t>)) {
    let mut cursor = root.walk();
    loop {
        f(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

fn receiver_param(decl: Node) -> Option<Node> {
    if decl.kind() != "method_declaration" {
        return None;
    }
    let params = decl.child_by_field_name("receiver")?;
    let mut c = params.walk();
    params
        .named_children(&mut c)
        .find(|n| n.kind() == "parameter_declaration")
}

/// `Foo` for `func (r *Foo) …`.
fn receiver_type(decl: Node, src: &[u8]) -> Option<String> {
    let ty = receiver_param(decl)?.child_by_field_name("type")?;
    let ty = if ty.kind() == "pointer_type" {
        ty.named_child(0)?
    } else {
        ty
    };
    let ty = if ty.kind() == "generic_type" {
        ty.child_by_field_name("type")?
    } else {
        ty
    };
    Some(text(ty, src).to_string())
}

/// `r` for `func (r *Foo) …`.
fn receiver_name(decl: Node, src: &[u8]) -> Option<String> {
    Some(text(receiver_param(decl)?.child_by_field_name("name")?, src).to_string())
}

/// One step of a method chain such as `.Owns(&appsv1.Deployment{})`.
struct Step<'t> {
    method: String,
    args: Vec<Node<'t>>,
    /// The line of the method name, which is where the call is reported.
    line: u32,
    node: Node<'t>,
}

enum ChainRoot {
    /// `ctrl.NewControllerManagedBy(mgr)` or `builder.ControllerManagedBy(mgr)`.
    NewBuilder,
    /// A chain that starts from a variable, e.g. `b.Owns(…)`.
    Variable(String),
    Other,
}

const BUILDER_CONSTRUCTORS: [&str; 2] = ["NewControllerManagedBy", "ControllerManagedBy"];

/// Splits `root.A(x).B(y)` into its root and steps, outermost last.
fn flatten_chain<'t>(call: Node<'t>, src: &[u8]) -> (ChainRoot, Vec<Step<'t>>) {
    let mut steps = Vec::new();
    let mut node = call;
    let root = loop {
        match node.kind() {
            "call_expression" => {
                let Some(function) = node.child_by_field_name("function") else {
                    break ChainRoot::Other;
                };
                let args = node
                    .child_by_field_name("arguments")
                    .map(|a| {
                        let mut c = a.walk();
                        a.named_children(&mut c)
                            .filter(|n| n.kind() != "comment")
                            .collect()
                    })
                    .unwrap_or_default();
                let (method, operand) = match function.kind() {
                    "selector_expression" => {
                        let Some(field) = function.child_by_field_name("field") else {
                            break ChainRoot::Other;
                        };
                        (field, function.child_by_field_name("operand"))
                    }
                    "identifier" => (function, None),
                    _ => break ChainRoot::Other,
                };
                let name = text(method, src).to_string();
                if BUILDER_CONSTRUCTORS.contains(&name.as_str()) {
                    break ChainRoot::NewBuilder;
                }
                steps.push(Step {
                    method: name,
                    args,
                    line: line_of(method),
                    node,
                });
                match operand {
                    Some(op) => node = op,
                    None => break ChainRoot::Other,
                }
            }
            "identifier" => break ChainRoot::Variable(text(node, src).to_string()),
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => node = inner,
                None => break ChainRoot::Other,
            },
            _ => break ChainRoot::Other,
        }
    };
    steps.reverse();
    (root, steps)
}

/// True if `node` is a call whose result is used as the receiver of another call in a chain.
fn is_inner_chain_link(node: Node) -> bool {
    let Some(parent) = node.parent() else {
        return false;
    };
    if parent.kind() == "selector_expression" {
        return parent
            .parent()
            .is_some_and(|gp| gp.kind() == "call_expression");
    }
    false
}

/// True when the statement holding `node` runs only on some paths through `body`.
fn is_conditional(node: Node, body: Node) -> bool {
    let mut child = node;
    while let Some(parent) = child.parent() {
        if parent.id() == body.id() {
            return false;
        }
        match parent.kind() {
            "if_statement" => {
                let in_branch = ["consequence", "alternative"].iter().any(|f| {
                    parent
                        .child_by_field_name(f)
                        .is_some_and(|b| b.id() == child.id())
                });
                if in_branch {
                    return true;
                }
            }
            "for_statement" if child.kind() == "block" => return true,
            "expression_case" | "default_case" | "type_case" | "communication_case"
            | "func_literal" => return true,
            _ => {}
        }
        child = parent;
    }
    false
}

/// The variable a chain's value is assigned to (`b := chain`, `b = chain`, `var b = chain`).
fn assigned_variable(call: Node, src: &[u8]) -> Option<String> {
    let list = call.parent()?;
    if list.kind() != "expression_list" {
        return None;
    }
    let stmt = list.parent()?;
    let left = match stmt.kind() {
        "short_var_declaration" | "assignment_statement" => stmt.child_by_field_name("left")?,
        "var_spec" => stmt.child_by_field_name("name")?,
        _ => return None,
    };
    let target = if left.kind() == "expression_list" {
        left.named_child(0)?
    } else {
        left
    };
    (target.kind() == "identifier").then(|| text(target, src).to_string())
}

/// Follows every controller builder in a function body, including chains split over
/// statements through variables (`b := …; if x { b = b.Owns(…) }; return b.Complete(r)`).
pub(crate) fn controllers_in_body(
    body: Node,
    src: &[u8],
    receiver_type: Option<&str>,
    receiver_name: Option<&str>,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<ControllerChain> {
    let mut builders: Vec<ControllerChain> = Vec::new();
    // Variable name → index into `builders`, updated in statement order.
    let mut variables: Vec<(String, usize)> = Vec::new();
    let mut calls = Vec::new();
    for_each_node(body, |node| {
        if node.kind() == "call_expression" && !is_inner_chain_link(node) {
            calls.push(node);
        }
    });
    for call in calls {
        let (root, steps) = flatten_chain(call, src);
        let index = match root {
            ChainRoot::NewBuilder => {
                builders.push(ControllerChain {
                    line: line_of(call),
                    name: None,
                    reconciler: None,
                    watches: Vec::new(),
                });
                builders.len() - 1
            }
            ChainRoot::Variable(name) => match variables.iter().rev().find(|(v, _)| *v == name) {
                Some((_, i)) => *i,
                None => continue,
            },
            ChainRoot::Other => continue,
        };
        for step in &steps {
            apply_step(
                &mut builders[index],
                step,
                body,
                src,
                receiver_type,
                receiver_name,
                path,
                diagnostics,
            );
        }
        if let Some(var) = assigned_variable(call, src) {
            variables.push((var, index));
        }
    }
    builders
}

#[allow(clippy::too_many_arguments)]
fn apply_step(
    builder: &mut ControllerChain,
    step: &Step,
    body: Node,
    src: &[u8],
    receiver_type: Option<&str>,
    receiver_name: Option<&str>,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let relation = match step.method.as_str() {
        "For" => Relation::For,
        "Owns" => Relation::Owns,
        "Watches" | "WatchesMetadata" | "WatchesRawSource" => Relation::Watches,
        "Named" => {
            match step.args.first().and_then(|a| string_literal(*a, src)) {
                Some(name) => builder.name = Some(name),
                None => diagnostics.push(Diagnostic::new(
                    path,
                    step.line,
                    format!(
                        "controller name `{}` is not a string literal; the controller is named after its reconciler",
                        step.args.first().map(|a| text(*a, src)).unwrap_or("")
                    ),
                )),
            }
            return;
        }
        "Complete" | "Build" => {
            builder.reconciler = step
                .args
                .first()
                .map(|a| reconciler_name(*a, src, receiver_type, receiver_name));
            return;
        }
        _ => return,
    };
    let Some(first) = step.args.first() else {
        diagnostics.push(Diagnostic::new(
            path,
            step.line,
            format!("`{}` without arguments", step.method),
        ));
        return;
    };
    let object = if step.method == "WatchesRawSource" || is_source_kind(*first, src) {
        source_kind_object(*first, src)
    } else {
        object_ref(*first, src)
    };
    if let ObjectRef::Unknown(expr) = &object {
        diagnostics.push(Diagnostic::new(
            path,
            step.line,
            format!(
                "cannot tell which kind `{}({expr}, …)` watches: the object is not a type literal",
                step.method
            ),
        ));
    }
    builder.watches.push(RawWatch {
        relation,
        object,
        conditional: is_conditional(step.node, body),
        line: step.line,
    });
}

fn is_source_kind(node: Node, src: &[u8]) -> bool {
    node.kind() == "call_expression"
        && node
            .child_by_field_name("function")
            .is_some_and(|f| f.kind() == "selector_expression" && text(f, src).ends_with(".Kind"))
}

/// The object of `source.Kind(cache, &T{}, …)`.
fn source_kind_object(node: Node, src: &[u8]) -> ObjectRef {
    if is_source_kind(node, src) {
        if let Some(args) = node.child_by_field_name("arguments") {
            if let Some(obj) = args.named_child(1) {
                return object_ref(obj, src);
            }
        }
    }
    ObjectRef::Unknown(text(node, src).to_string())
}

/// The type named by `&pkg.T{}`, `pkg.T{}`, `new(pkg.T)` or their unqualified forms.
pub(crate) fn object_ref(node: Node, src: &[u8]) -> ObjectRef {
    let mut n = node;
    if n.kind() == "unary_expression"
        && n.child_by_field_name("operator")
            .is_some_and(|o| text(o, src) == "&")
    {
        if let Some(operand) = n.child_by_field_name("operand") {
            n = operand;
        }
    }
    let type_node = match n.kind() {
        "composite_literal" => n.child_by_field_name("type"),
        "call_expression"
            if n.child_by_field_name("function")
                .is_some_and(|f| f.kind() == "identifier" && text(f, src) == "new") =>
        {
            n.child_by_field_name("arguments")
                .and_then(|a| a.named_child(0))
        }
        _ => None,
    };
    if let Some(ty) = type_node {
        match ty.kind() {
            "qualified_type" => {
                if let (Some(pkg), Some(name)) = (
                    ty.child_by_field_name("package"),
                    ty.child_by_field_name("name"),
                ) {
                    return ObjectRef::Type {
                        qualifier: Some(text(pkg, src).to_string()),
                        name: text(name, src).to_string(),
                    };
                }
            }
            "selector_expression" => {
                if let (Some(pkg), Some(name)) = (
                    ty.child_by_field_name("operand"),
                    ty.child_by_field_name("field"),
                ) {
                    if pkg.kind() == "identifier" {
                        return ObjectRef::Type {
                            qualifier: Some(text(pkg, src).to_string()),
                            name: text(name, src).to_string(),
                        };
                    }
                }
            }
            "type_identifier" | "identifier" => {
                return ObjectRef::Type {
                    qualifier: None,
                    name: text(ty, src).to_string(),
                };
            }
            _ => {}
        }
    }
    ObjectRef::Unknown(text(node, src).to_string())
}

fn reconciler_name(
    arg: Node,
    src: &[u8],
    receiver_type: Option<&str>,
    receiver_name: Option<&str>,
) -> String {
    let expr = text(arg, src);
    if Some(expr) == receiver_name {
        if let Some(ty) = receiver_type {
            return ty.to_string();
        }
    }
    match object_ref(arg, src) {
        ObjectRef::Type { name, .. } => name,
        ObjectRef::Unknown(expr) => expr,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (relation, qualifier.Type or expression, conditional, line) for each watch of each builder.
    fn watches(src: &str) -> Vec<Vec<(Relation, String, bool, u32)>> {
        extract("x.go", src)
            .controllers
            .iter()
            .map(|c| {
                c.watches
                    .iter()
                    .map(|w| {
                        let obj = match &w.object {
                            ObjectRef::Type {
                                qualifier: Some(q),
                                name,
                            } => format!("{q}.{name}"),
                            ObjectRef::Type {
                                qualifier: None,
                                name,
                            } => name.clone(),
                            ObjectRef::Unknown(e) => format!("?{e}"),
                        };
                        (w.relation, obj, w.conditional, w.line)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn one_chain_reports_the_line_of_each_call() {
        let src = "package c\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1a.Widget{}).\n\t\tOwns(&appsv1.Deployment{}).\n\t\tWatches(\n\t\t\t&corev1.ConfigMap{},\n\t\t\thandler.EnqueueRequestsFromMapFunc(r.m),\n\t\t).\n\t\tComplete(r)\n}\n";
        assert_eq!(
            watches(src),
            vec![vec![
                (Relation::For, "v1a.Widget".into(), false, 4),
                (Relation::Owns, "appsv1.Deployment".into(), false, 5),
                (Relation::Watches, "corev1.ConfigMap".into(), false, 6),
            ]]
        );
        let f = extract("x.go", src);
        assert_eq!(f.controllers[0].reconciler.as_deref(), Some("R"));
        assert_eq!(f.controllers[0].line, 3);
    }

    #[test]
    fn split_chains_follow_the_variable_and_mark_conditionals() {
        let src = r#"package c
func (r *R) SetupWithManager(mgr ctrl.Manager) error {
	b := builder.ControllerManagedBy(mgr).Named("gizmo").For(&v1.Gizmo{})
	if r.Secrets {
		b = b.Owns(&corev1.Secret{})
	} else {
		b.Owns(new(corev1.ConfigMap))
	}
	for _, x := range xs {
		b.Watches(x, nil)
	}
	switch mode {
	case 1:
		b.Owns(&Local{})
	}
	b.Watches(source.Kind(mgr.GetCache(), &corev1.Pod{}, h), nil)
	if err := b.Complete(r); err != nil {
		return err
	}
	return nil
}
"#;
        let f = extract("x.go", src);
        assert_eq!(f.controllers.len(), 1);
        assert_eq!(f.controllers[0].name.as_deref(), Some("gizmo"));
        assert_eq!(f.controllers[0].reconciler.as_deref(), Some("R"));
        assert_eq!(
            watches(src),
            vec![vec![
                (Relation::For, "v1.Gizmo".into(), false, 3),
                (Relation::Owns, "corev1.Secret".into(), true, 5),
                (Relation::Owns, "corev1.ConfigMap".into(), true, 7),
                (Relation::Watches, "?x".into(), true, 10),
                (Relation::Owns, "Local".into(), true, 14),
                (Relation::Watches, "corev1.Pod".into(), false, 16),
            ]]
        );
        assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
        assert_eq!(f.diagnostics[0].line, 10);
    }

    #[test]
    fn webhook_builders_and_other_chains_are_not_controllers() {
        let src = "package c\nfunc setup(mgr ctrl.Manager) error {\n\tctrl.NewWebhookManagedBy(mgr).For(&v1.Widget{}).Complete()\n\tx.For(&v1.Widget{})\n\treturn nil\n}\n";
        assert!(extract("x.go", src).controllers.is_empty());
    }

    #[test]
    fn imports_consts_group_versions_and_markers() {
        let src = r#"// +groupName=example.io
package v1
import (
	"fmt"
	corev1 "k8s.io/api/core/v1"
	. "example.com/dot"
	_ "example.com/blank"
)
const GroupName = "example.io"
const (
	A, B = "a", `b`
	N = 3
)
var GroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}
"#;
        let f = extract("api/v1/doc.go", src);
        assert_eq!(f.package, "v1");
        assert_eq!(f.group_name_marker.as_deref(), Some("example.io"));
        let imports: Vec<(Option<&str>, &str)> = f
            .imports
            .iter()
            .map(|i| (i.alias.as_deref(), i.path.as_str()))
            .collect();
        assert_eq!(
            imports,
            vec![
                (None, "fmt"),
                (Some("corev1"), "k8s.io/api/core/v1"),
                (Some("."), "example.com/dot"),
                (Some("_"), "example.com/blank")
            ]
        );
        assert_eq!(
            f.string_consts,
            vec![
                ("GroupName".into(), "example.io".into()),
                ("A".into(), "a".into()),
                ("B".into(), "b".into())
            ]
        );
        assert_eq!(
            f.group_versions,
            vec![GroupVersionDecl {
                group: StringValue::Const("GroupName".into()),
                version: StringValue::Literal("v1".into()),
                line: 14
            }]
        );
    }

    #[test]
    fn malformed_and_deeply_nested_go_does_not_panic() {
        let mut deep = String::from("package p\nvar x = ");
        deep.push_str(&"(".repeat(20_000));
        deep.push('1');
        deep.push_str(&")".repeat(20_000));
        deep.push('\n');
        let f = extract("deep.go", &deep);
        assert!(f.controllers.is_empty());

        let broken = "package p\nfunc f() {\n\tctrl.NewControllerManagedBy(mgr).For(&v1.X{}).Owns(\n\ts := \"unterminated\n}\n";
        let f = extract("broken.go", broken);
        assert!(f.parse_errors);
    }
}
