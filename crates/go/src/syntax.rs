//! Small helpers over tree-sitter-go nodes shared by every Go extractor.
//!
//! **Invariant:** nothing here recurses over the tree; walks use a cursor or a loop, so a
//! 20,000-deep expression cannot overflow the stack.

use tree_sitter::Node;

/// Field ids of the Go grammar, looked up once. `child_by_field_name` finds the id by
/// comparing the name against the grammar's field names on every call, which was about
/// 7 percent of the analysis.
pub(crate) struct Fields {
    pub alias: u16,
    pub alternative: u16,
    pub arguments: u16,
    pub body: u16,
    pub condition: u16,
    pub consequence: u16,
    pub element: u16,
    pub field: u16,
    pub function: u16,
    pub initializer: u16,
    pub key: u16,
    pub left: u16,
    pub name: u16,
    pub operand: u16,
    pub operator: u16,
    pub package: u16,
    pub parameters: u16,
    pub path: u16,
    pub receiver: u16,
    pub result: u16,
    pub right: u16,
    pub tag: u16,
    pub ty: u16,
    pub type_arguments: u16,
    pub type_parameters: u16,
    pub value: u16,
}

pub(crate) static FIELD: std::sync::LazyLock<Fields> = std::sync::LazyLock::new(|| {
    let lang: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
    // A name the grammar lacks gets 0, which no child carries: lookups find nothing.
    let id = |name: &str| lang.field_id_for_name(name).map_or(0, |id| id.get());
    Fields {
        alias: id("alias"),
        alternative: id("alternative"),
        arguments: id("arguments"),
        body: id("body"),
        condition: id("condition"),
        consequence: id("consequence"),
        element: id("element"),
        field: id("field"),
        function: id("function"),
        initializer: id("initializer"),
        key: id("key"),
        left: id("left"),
        name: id("name"),
        operand: id("operand"),
        operator: id("operator"),
        package: id("package"),
        parameters: id("parameters"),
        path: id("path"),
        receiver: id("receiver"),
        result: id("result"),
        right: id("right"),
        tag: id("tag"),
        ty: id("type"),
        type_arguments: id("type_arguments"),
        type_parameters: id("type_parameters"),
        value: id("value"),
    }
});

/// The children of `node` in field `field` (a `FIELD` id), in order:
/// `children_by_field_name` without its lookup of the name among the grammar's on every
/// call.
pub(crate) fn field_children(node: Node, field: u16) -> Vec<Node> {
    let Some(id) = std::num::NonZeroU16::new(field) else {
        return Vec::new();
    };
    let mut cursor = node.walk();
    node.children_by_field_id(id, &mut cursor).collect()
}

/// The names of the Go grammar's node kinds by id, made once. `Node::kind` measures and
/// checks the grammar's C string on every call, and the features compare kinds on most
/// nodes they visit.
static KIND_NAMES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    let lang: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
    let mut names = Vec::new();
    for id in 0..=u16::MAX {
        if usize::from(id) >= lang.node_kind_count() {
            break;
        }
        names.push(lang.node_kind_for_id(id).unwrap_or("").to_string());
    }
    names
});

/// `Node::kind` from the table above.
pub(crate) trait KindName {
    fn kind_name(&self) -> &'static str;
}

impl KindName for Node<'_> {
    fn kind_name(&self) -> &'static str {
        let names: &'static [String] = &KIND_NAMES;
        names
            .get(usize::from(self.kind_id()))
            .map_or("", String::as_str)
    }
}

/// The Go type named by an object argument such as `&corev1.Pod{}`.
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

/// A function or method body being analyzed, with its receiver if it is a method.
pub struct FuncCtx<'t> {
    pub name: String,
    pub body: Node<'t>,
    /// The function or method declaration `body` belongs to; None for a function literal
    /// walked as a body. Kept so no feature asks `body.parent()`, which searches down from
    /// the tree's root.
    pub decl: Option<Node<'t>>,
    /// `Foo` for `func (r *Foo) …`.
    pub receiver_type: Option<String>,
    /// `r` for `func (r *Foo) …`.
    pub receiver_name: Option<String>,
    /// Every node of `body` in document order, collected once: each feature visits the
    /// body, and one cursor walk shared by all of them is much cheaper than one each.
    pub nodes: Vec<Node<'t>>,
    /// The call expressions among `nodes`, in document order: what most features look at.
    pub calls: Vec<Node<'t>>,
    /// The declarations and bindings among `nodes` (`:=`, `=`, `var`, `const`, `range`,
    /// type switches, receives, function literals): what the local-type passes look at.
    pub bindings: Vec<Node<'t>>,
    /// For each of `calls`, its `operand.field` callee's two parts (`selector_callee`),
    /// looked up once for every feature that asks.
    pub selectors: Vec<Option<(Node<'t>, Node<'t>)>>,
    /// For each of `nodes`, the index of its parent in `nodes` (`NO_PARENT` for `body`),
    /// recorded during the walk so ancestors are found without `Node::parent`.
    parents: Vec<u32>,
    /// For each of `calls`, its arguments (`call_arguments`), found during the walk.
    arguments: Vec<Vec<Node<'t>>>,
}

/// `node`'s place in `list`, a list in document order: among the nodes starting where it
/// starts (a node and the children sharing its first byte), the one that is it.
fn position_in(list: &[Node], node: Node) -> Option<usize> {
    let start = node.start_byte();
    let first = list.partition_point(|n| n.start_byte() < start);
    list[first..]
        .iter()
        .take_while(|n| n.start_byte() == start)
        .position(|n| n.id() == node.id())
        .map(|i| first + i)
}

/// The parent index of `body` in `FuncCtx::parents`.
const NO_PARENT: u32 = u32::MAX;

impl<'t> FuncCtx<'t> {
    /// The function's own `return` statements, in order: a closure's returns are not the
    /// function's.
    pub fn own_returns(&self) -> Vec<Node<'t>> {
        let closures: Vec<std::ops::Range<usize>> = self
            .bindings
            .iter()
            .filter(|n| n.kind_name() == "func_literal")
            .map(|n| n.byte_range())
            .collect();
        self.nodes
            .iter()
            .copied()
            .filter(|n| n.kind_name() == "return_statement")
            .filter(|n| !closures.iter().any(|c| c.contains(&n.start_byte())))
            .collect()
    }
}

/// Numeric ids of the node kinds the shared lists are made of. Comparing `kind()` strings
/// on every node of every function was a measurable share of the analysis.
pub struct Kinds {
    call: u16,
    bindings: [u16; 9],
}

impl Kinds {
    /// The ids of the Go grammar, looked up once per process (each lookup scans the
    /// grammar's symbol names).
    pub fn of(root: Node) -> &'static Kinds {
        static KINDS: std::sync::OnceLock<Kinds> = std::sync::OnceLock::new();
        KINDS.get_or_init(|| Kinds::for_language(&root.language()))
    }

    fn for_language(lang: &tree_sitter::LanguageRef) -> Kinds {
        let id = |k: &str| lang.id_for_node_kind(k, true);
        Kinds {
            call: id("call_expression"),
            bindings: [
                id("short_var_declaration"),
                id("assignment_statement"),
                id("var_spec"),
                id("const_spec"),
                id("range_clause"),
                id("type_switch_statement"),
                id("receive_statement"),
                id("func_literal"),
                id("var_declaration"),
            ],
        }
    }

    /// The context of one function body, with its node lists made once.
    pub fn func<'t>(
        &self,
        name: String,
        body: Node<'t>,
        decl: Option<Node<'t>>,
        receiver_type: Option<String>,
        receiver_name: Option<String>,
    ) -> FuncCtx<'t> {
        let (nodes, parents) = nodes_and_parents(body);
        let mut calls: Vec<Node> = Vec::new();
        let mut bindings = Vec::new();
        let mut arguments: Vec<Vec<Node>> = Vec::new();
        // For a node that is a call, and for a call's argument list: the call's index in
        // `calls`. A call's arguments are the named children of its argument list, found
        // here from their parent's index rather than asked of each call.
        const NONE: u32 = u32::MAX;
        let mut call_at = vec![NONE; nodes.len()];
        let mut list_of = vec![NONE; nodes.len()];
        for (i, &n) in nodes.iter().enumerate() {
            if let Some(&p) = parents.get(i).filter(|p| **p != NO_PARENT) {
                let p = p as usize;
                if list_of[p] != NONE {
                    if n.kind_name() != "comment" {
                        arguments[list_of[p] as usize].push(n);
                    }
                } else if call_at[p] != NONE && n.kind_name() == "argument_list" {
                    list_of[i] = call_at[p];
                }
            }
            let kind = n.kind_id();
            if kind == self.call {
                call_at[i] = calls.len() as u32;
                calls.push(n);
                arguments.push(Vec::new());
            } else if self.bindings.contains(&kind) {
                bindings.push(n);
            }
        }
        let selectors = calls.iter().map(|c| selector_callee(*c)).collect();
        FuncCtx {
            name,
            body,
            decl,
            receiver_type,
            receiver_name,
            nodes,
            calls,
            bindings,
            selectors,
            parents,
            arguments,
        }
    }
}

impl<'t> FuncCtx<'t> {
    /// The method calls (and qualified function calls) of the body: `(call, operand,
    /// field)` of each `operand.field(…)`, in document order.
    pub fn method_calls(&self) -> impl Iterator<Item = (Node<'t>, Node<'t>, Node<'t>)> + '_ {
        self.calls
            .iter()
            .zip(&self.selectors)
            .filter_map(|(&call, s)| s.map(|(operand, field)| (call, operand, field)))
    }

    /// Visits every node of the body in document order (see `nodes`).
    pub fn each_node(&self, mut f: impl FnMut(Node<'t>)) {
        for node in &self.nodes {
            f(*node);
        }
    }

    /// The arguments of `call` (`call_arguments`), found once for every feature that asks;
    /// collected anew for a call not of this body.
    pub fn arguments(&self, call: Node<'t>) -> std::borrow::Cow<'_, [Node<'t>]> {
        match position_in(&self.calls, call) {
            Some(i) => std::borrow::Cow::Borrowed(&self.arguments[i]),
            None => std::borrow::Cow::Owned(call_arguments(call)),
        }
    }

    /// The parent of a named node of the body, from the walk's record; `Node::parent` for
    /// a node the walk did not list (none is expected) or for the body itself.
    pub fn parent_of(&self, node: Node<'t>) -> Option<Node<'t>> {
        match position_in(&self.nodes, node) {
            Some(i) => match self.parents[i] {
                NO_PARENT => node.parent(),
                p => Some(self.nodes[p as usize]),
            },
            None => node.parent(),
        }
    }
}

/// The calls of a chain's head: every call except those whose result is the receiver of
/// another call (`x.A()` in `x.A().B()`). Found from the outer calls, because
/// `Node::parent` searches from the root and is slow on deeply nested input.
pub(crate) fn chain_heads<'t>(calls: &[Node<'t>]) -> Vec<Node<'t>> {
    let mut inner = std::collections::HashSet::new();
    for call in calls {
        let operand = call
            .child_by_field_id(FIELD.function)
            .filter(|f| f.kind_name() == "selector_expression")
            .and_then(|f| f.child_by_field_id(FIELD.operand));
        if let Some(op) = operand.filter(|op| op.kind_name() == "call_expression") {
            inner.insert(op.id());
        }
    }
    calls
        .iter()
        .copied()
        .filter(|c| !inner.contains(&c.id()))
        .collect()
}

/// Every named node under `root` in document order. Punctuation and keywords (about half
/// of a tree's nodes) are left out: no feature looks at them, and every feature's pass over
/// the list paid for them.
pub(crate) fn nodes_of(root: Node) -> Vec<Node> {
    nodes_and_parents(root).0
}

/// `nodes_of`, with each node's parent as an index into the list (`NO_PARENT` for `root`).
fn nodes_and_parents(root: Node) -> (Vec<Node>, Vec<u32>) {
    let mut out = Vec::new();
    let mut parents = Vec::new();
    // The indices of the nodes the cursor is inside of, innermost last.
    let mut open: Vec<u32> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        // Anonymous nodes are the grammar's tokens, which never have children.
        let named = node.is_named();
        if named {
            parents.push(open.last().copied().unwrap_or(NO_PARENT));
            out.push(node);
        }
        if named && cursor.goto_first_child() {
            open.push((out.len() - 1) as u32);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return (out, parents);
            }
            open.pop();
        }
    }
}

/// Go's predeclared types: the same type whichever package writes them.
pub(crate) const PREDECLARED_TYPES: &[&str] = &[
    "bool",
    "string",
    "error",
    "any",
    "byte",
    "rune",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "comparable",
];

pub(crate) fn text<'a>(node: Node, src: &'a [u8]) -> &'a str {
    node.utf8_text(src).unwrap_or("")
}

pub(crate) fn line_of(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

/// The value of a Go string literal (interpreted or raw), or None for anything else.
pub(crate) fn string_literal(node: Node, src: &[u8]) -> Option<String> {
    let raw = text(node, src);
    match node.kind_name() {
        "raw_string_literal" => Some(raw.trim_matches('`').to_string()),
        "interpreted_string_literal" => {
            let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
            Some(unescape_go(inner))
        }
        _ => None,
    }
}

pub(crate) fn unescape_go(s: &str) -> String {
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

/// Visits every node under `root` in document order, without recursion.
pub(crate) fn for_each_node<'t>(root: Node<'t>, mut f: impl FnMut(Node<'t>)) {
    walk(root, |node, _| f(node));
}

/// Visits every identifier under `root` that is not the operand of a selector (`pkg` in
/// `pkg.Name`), in document order. `root` is an expression in a value's place: an
/// identifier root is visited (its parent is not asked: `Node::parent` searches down from
/// the tree's root, and a value is never a selector's operand).
pub(crate) fn for_each_plain_identifier<'t>(root: Node<'t>, mut f: impl FnMut(Node<'t>)) {
    let is_selector = |n: Node| n.kind_name() == "selector_expression";
    walk(root, |node, parent| {
        if node.kind_name() == "identifier" && !parent.is_some_and(is_selector) {
            f(node);
        }
    });
}

/// Visits every node under `root` in document order with its parent inside the walk (None
/// for `root`). Parents are tracked on the way down: `Node::parent` searches down from the
/// tree's root on every call.
fn walk<'t>(root: Node<'t>, mut f: impl FnMut(Node<'t>, Option<Node<'t>>)) {
    let mut cursor = root.walk();
    let mut parents: Vec<Node<'t>> = Vec::new();
    loop {
        let node = cursor.node();
        f(node, parents.last().copied());
        if cursor.goto_first_child() {
            parents.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            parents.pop();
        }
    }
}

pub(crate) fn receiver_param(decl: Node) -> Option<Node> {
    if decl.kind_name() != "method_declaration" {
        return None;
    }
    let params = decl.child_by_field_id(FIELD.receiver)?;
    let mut c = params.walk();
    params
        .named_children(&mut c)
        .find(|n| n.kind_name() == "parameter_declaration")
}

/// `Foo` for `func (r *Foo) …`.
pub(crate) fn receiver_type(decl: Node, src: &[u8]) -> Option<String> {
    let ty = receiver_param(decl)?.child_by_field_id(FIELD.ty)?;
    let ty = if ty.kind_name() == "pointer_type" {
        ty.named_child(0)?
    } else {
        ty
    };
    let ty = if ty.kind_name() == "generic_type" {
        ty.child_by_field_id(FIELD.ty)?
    } else {
        ty
    };
    Some(text(ty, src).to_string())
}

/// `r` for `func (r *Foo) …`.
pub(crate) fn receiver_name(decl: Node, src: &[u8]) -> Option<String> {
    Some(text(receiver_param(decl)?.child_by_field_id(FIELD.name)?, src).to_string())
}

/// The parameters a declaration (or an interface's method element) declares, in order:
/// each as its type node and its names (empty for an unnamed parameter, which still takes
/// a position).
pub(crate) fn parameters<'t, 's>(
    decl: Node<'t>,
    src: &'s [u8],
) -> Vec<(Option<Node<'t>>, Vec<&'s str>)> {
    let Some(params) = decl.child_by_field_id(FIELD.parameters) else {
        return Vec::new();
    };
    let mut c = params.walk();
    params
        .named_children(&mut c)
        .filter(|p| {
            matches!(
                p.kind_name(),
                "parameter_declaration" | "variadic_parameter_declaration"
            )
        })
        .map(|p| {
            let names = field_children(p, FIELD.name)
                .into_iter()
                .filter(|n| n.kind_name() == "identifier")
                .map(|n| text(n, src))
                .collect();
            (p.child_by_field_id(FIELD.ty), names)
        })
        .collect()
}

/// The innermost condition under which `node` runs in its function, as shortened source
/// text: `if COND` (`else of COND` in an else branch), `case VALUES`, `for CLAUSE`, or
/// `in a closure`; empty when it runs whenever its function does.
pub(crate) fn condition_of<'t>(node: Node<'t>, ctx: &FuncCtx<'t>, src: &[u8]) -> String {
    let mut child = node;
    while let Some(parent) = ctx.parent_of(child) {
        if parent.id() == ctx.body.id() {
            return String::new();
        }
        let found = match parent.kind_name() {
            "if_statement" => {
                let cond = parent.child_by_field_id(FIELD.condition);
                let branch = |f| {
                    parent
                        .child_by_field_id(f)
                        .is_some_and(|b: Node| b.id() == child.id())
                };
                match cond {
                    Some(c) if branch(FIELD.consequence) => Some(format!("if {}", text(c, src))),
                    Some(c) if branch(FIELD.alternative) => {
                        Some(format!("else of {}", text(c, src)))
                    }
                    _ => None,
                }
            }
            "for_statement" if child.kind_name() == "block" => {
                let mut c = parent.walk();
                let clause = parent
                    .named_children(&mut c)
                    .find(|n| n.id() != child.id() && n.kind_name() != "comment");
                Some(match clause {
                    Some(cl) => format!("for {}", text(cl, src)),
                    None => "for".to_string(),
                })
            }
            "expression_case" | "type_case" => {
                let values = parent
                    .child_by_field_id(FIELD.value)
                    .or_else(|| parent.child_by_field_id(FIELD.ty))
                    .map(|v| text(v, src))
                    .unwrap_or_default();
                Some(format!("case {values}"))
            }
            "default_case" => Some("default case".to_string()),
            "communication_case" => Some("select case".to_string()),
            "func_literal" => Some("in a closure".to_string()),
            _ => None,
        };
        if let Some(found) = found {
            return shorten(&found, 80);
        }
        child = parent;
    }
    String::new()
}

/// `text` with runs of white space made one space, cut to `max` characters with `…`.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The type named by `&pkg.T{}`, `pkg.T{}`, `new(pkg.T)` or their unqualified forms.
pub(crate) fn object_ref(node: Node, src: &[u8]) -> ObjectRef {
    let mut n = node;
    if n.kind_name() == "unary_expression"
        && n.child_by_field_id(FIELD.operator)
            .is_some_and(|o| text(o, src) == "&")
        && let Some(operand) = n.child_by_field_id(FIELD.operand)
    {
        n = operand;
    }
    let type_node = match n.kind_name() {
        "composite_literal" => n.child_by_field_id(FIELD.ty),
        "call_expression"
            if n.child_by_field_id(FIELD.function)
                .is_some_and(|f| f.kind_name() == "identifier" && text(f, src) == "new") =>
        {
            n.child_by_field_id(FIELD.arguments)
                .and_then(|a| a.named_child(0))
        }
        _ => None,
    };
    if let Some(ty) = type_node {
        match ty.kind_name() {
            "qualified_type" => {
                if let (Some(pkg), Some(name)) = (
                    ty.child_by_field_id(FIELD.package),
                    ty.child_by_field_id(FIELD.name),
                ) {
                    return ObjectRef::Type {
                        qualifier: Some(text(pkg, src).to_string()),
                        name: text(name, src).to_string(),
                    };
                }
            }
            "selector_expression" => {
                if let (Some(pkg), Some(name)) = (
                    ty.child_by_field_id(FIELD.operand),
                    ty.child_by_field_id(FIELD.field),
                ) && pkg.kind_name() == "identifier"
                {
                    return ObjectRef::Type {
                        qualifier: Some(text(pkg, src).to_string()),
                        name: text(name, src).to_string(),
                    };
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

/// The arguments of a call, without comments.
pub(crate) fn call_arguments(call: Node) -> Vec<Node> {
    call.child_by_field_id(FIELD.arguments)
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c)
                .filter(|n| n.kind_name() != "comment")
                .collect()
        })
        .unwrap_or_default()
}

/// The `Key: value` pairs of a composite literal's body (`{…}`), as the key's and the
/// value's expressions; positional elements are skipped.
pub(crate) fn keyed_elements<'t>(body: Node<'t>) -> Vec<(Node<'t>, Node<'t>)> {
    let mut c = body.walk();
    body.named_children(&mut c)
        .filter(|e| e.kind_name() == "keyed_element")
        .filter_map(|e| {
            let key = e.child_by_field_id(FIELD.key)?.named_child(0)?;
            let value = e.child_by_field_id(FIELD.value)?.named_child(0)?;
            Some((key, value))
        })
        .collect()
}

/// The variable a chain's value is assigned to (`b := chain`, `b = chain`, `var b = chain`).
pub(crate) fn assigned_variable(call: Node, src: &[u8]) -> Option<String> {
    let list = call.parent()?;
    if list.kind_name() != "expression_list" {
        return None;
    }
    let stmt = list.parent()?;
    let left = match stmt.kind_name() {
        "short_var_declaration" | "assignment_statement" => stmt.child_by_field_id(FIELD.left)?,
        "var_spec" => stmt.child_by_field_id(FIELD.name)?,
        _ => return None,
    };
    let target = if left.kind_name() == "expression_list" {
        left.named_child(0)?
    } else {
        left
    };
    (target.kind_name() == "identifier").then(|| text(target, src).to_string())
}

/// One step of a method chain such as `.Owns(&appsv1.Deployment{})`.
pub(crate) struct Step<'t> {
    pub method: String,
    /// Empty until `with_arguments`: most chains are not the ones a caller wants.
    pub args: Vec<Node<'t>>,
    pub call: Node<'t>,
    /// The line of the method name, which is where the call is reported.
    pub line: u32,
}

/// Where a method chain starts.
pub(crate) enum ChainRoot<'t> {
    /// A call to one of the constructors asked for, with its arguments and line.
    Constructor(Vec<Node<'t>>, u32),
    /// A chain that starts from a variable, e.g. `b.Owns(…)`.
    Variable(String),
    Other,
}

/// Splits `root.A(x).B(y)` into its root and steps (outermost last), without recursion;
/// a call to a method named in `constructors` is the root.
pub(crate) fn flatten_chain<'t>(
    call: Node<'t>,
    src: &[u8],
    constructors: &[&str],
) -> (ChainRoot<'t>, Vec<Step<'t>>) {
    let mut steps = Vec::new();
    let mut node = call;
    let root = loop {
        match node.kind_name() {
            "call_expression" => {
                let Some(mut function) = node.child_by_field_id(FIELD.function) else {
                    break ChainRoot::Other;
                };
                // `pkg.F[T](…)`: the instantiated generic function is `pkg.F`.
                if function.kind_name() == "index_expression"
                    && let Some(generic) = function.child_by_field_id(FIELD.operand)
                {
                    function = generic;
                }
                let (method, operand) = match function.kind_name() {
                    "selector_expression" => match function.child_by_field_id(FIELD.field) {
                        Some(field) => (field, function.child_by_field_id(FIELD.operand)),
                        None => break ChainRoot::Other,
                    },
                    "identifier" => (function, None),
                    _ => break ChainRoot::Other,
                };
                let name = text(method, src);
                if constructors.contains(&name) {
                    break ChainRoot::Constructor(call_arguments(node), line_of(method));
                }
                steps.push(Step {
                    method: name.to_string(),
                    args: Vec::new(),
                    call: node,
                    line: line_of(method),
                });
                match operand {
                    Some(op) => node = op,
                    None => break ChainRoot::Other,
                }
            }
            // `pkg.F[T](x)` with one argument reads, to the grammar, as a conversion to the
            // generic type `pkg.F[T]`; a constructor's name there is the chain's root.
            "type_conversion_expression" => {
                let name = node
                    .child_by_field_id(FIELD.ty)
                    .filter(|t| t.kind_name() == "generic_type")
                    .and_then(|g| g.child_by_field_id(FIELD.ty))
                    .and_then(|t| match t.kind_name() {
                        "qualified_type" => t.child_by_field_id(FIELD.name),
                        "type_identifier" => Some(t),
                        _ => None,
                    });
                break match name {
                    Some(name) if constructors.contains(&text(name, src)) => {
                        ChainRoot::Constructor(
                            node.child_by_field_id(FIELD.operand).into_iter().collect(),
                            line_of(name),
                        )
                    }
                    _ => ChainRoot::Other,
                };
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

/// Collects each step's arguments, for a chain the caller follows.
pub(crate) fn with_arguments(steps: &mut [Step]) {
    for step in steps {
        step.args = call_arguments(step.call);
    }
}

/// The operand and method name of a method call, without its arguments: most calls of a
/// function are not ones the extractor wants, and their argument lists are not collected.
pub(crate) fn method_of<'t, 's>(call: Node<'t>, src: &'s [u8]) -> Option<(Node<'t>, &'s str)> {
    if call.kind_name() != "call_expression" {
        return None;
    }
    let function = callee(call)?;
    if function.kind_name() != "selector_expression" {
        return None;
    }
    Some((
        function.child_by_field_id(FIELD.operand)?,
        text(function.child_by_field_id(FIELD.field)?, src),
    ))
}

/// The function expression of a call, without explicit type arguments (`f[T](…)`).
pub fn callee(call: Node) -> Option<Node> {
    let f = call.child_by_field_id(FIELD.function)?;
    Some(match f.kind_name() {
        "index_expression" => f.child_by_field_id(FIELD.operand)?,
        _ => f,
    })
}

/// The operand and the name of a call's `q.F` callee (`pkg.F(…)`, `x.M(…)`); None for any
/// other callee.
pub fn selector_callee(call: Node) -> Option<(Node, Node)> {
    selector(callee(call)?)
}

/// The operand and the field of `operand.field`; None for any other expression.
pub fn selector(node: Node) -> Option<(Node, Node)> {
    (node.kind_name() == "selector_expression").then_some(())?;
    Some((
        node.child_by_field_id(FIELD.operand)?,
        node.child_by_field_id(FIELD.field)?,
    ))
}

/// The first target and first value of each `=` and `:=` of a function (`x.f = v`,
/// `a, b := c, d` gives `a` and `c`).
pub(crate) fn first_assignments<'t>(
    ctx: &FuncCtx<'t>,
) -> impl Iterator<Item = (Node<'t>, Node<'t>)> {
    ctx.bindings.iter().filter_map(|&b| {
        if !matches!(
            b.kind_name(),
            "assignment_statement" | "short_var_declaration"
        ) {
            return None;
        }
        Some((
            b.child_by_field_id(FIELD.left)?.named_child(0)?,
            b.child_by_field_id(FIELD.right)?.named_child(0)?,
        ))
    })
}

/// The identifier a selector chain starts from (`c` of `c.rr.queue`).
pub(crate) fn root_identifier(node: Node) -> Option<Node> {
    let mut n = node;
    for _ in 0..8 {
        match n.kind_name() {
            "identifier" => return Some(n),
            "selector_expression" => n = n.child_by_field_id(FIELD.operand)?,
            "parenthesized_expression" => n = n.named_child(0)?,
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests;
