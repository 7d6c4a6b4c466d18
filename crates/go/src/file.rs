//! Per-file Go extraction: one tree-sitter parse, then each feature's `extract` records its
//! raw, unresolved facts in the file's `facts::GoFile`. Nothing here resolves kinds or
//! constants, because that needs every file of the project (see `index` and the features'
//! `resolve`).

use super::syntax::FIELD;
use super::syntax::KindName;
use tree_sitter::{Node, Parser};

use super::api_docs;
use super::binaries;
use super::calls;
use super::conditions;
use super::connections;
use super::consts::ConstExpr;
use super::consts::{self, const_expr};
use super::controllers;
use super::extractor;
use super::facts::{GoFile, GroupVersionDecl, Import};
use super::gvr;
use super::informers;
use super::manager;
use super::markers;
use super::metrics;
use super::new_expr;
use super::platform;
use super::routes;
use super::scope::Scope;
use super::syntax::{
    FuncCtx, Kinds, call_arguments, line_of, method_of, receiver_name, receiver_type,
    string_literal, text,
};
use super::types;
use super::webhooks;
use super::writes;
use model::Diagnostic;

/// Parses one Go file and extracts its facts. Never fails: problems become diagnostics.
pub fn extract(path: &str, source: &str) -> GoFile {
    extract_as(path, source, Extraction::Full)
}

/// A protoc-generated file (`*.pb.go`, `*.pb.gw.go`): only its package, imports and what
/// route analysis reads from generated gRPC code (`routes::grpc`). These files are large and
/// hold nothing else any feature reports, so the other extractors do not walk them.
pub fn extract_generated(path: &str, source: &str) -> GoFile {
    extract_as(path, source, Extraction::Generated)
}

/// An API package's declaring file in a vendored module (`vendor/…/v1/register.go`): only
/// its package, imports, constants and group/version declarations, so that the module's
/// types resolve to their API group. It is not the project's code: it yields no rows and no
/// diagnostics.
pub fn extract_vendored_api(path: &str, source: &str) -> GoFile {
    let mut file = extract_as(path, source, Extraction::Declarations);
    file.diagnostics.clear();
    file.vendored = true;
    file
}

/// How much of a file is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extraction {
    Full,
    Generated,
    Declarations,
}

/// Whether tree-sitter finds syntax errors in `source`, with no cap on its work (for
/// `analyze --parse-only`); `None` when the Go grammar failed to load.
pub fn has_syntax_errors(source: &str) -> Option<bool> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_go::LANGUAGE.into()).ok()?;
    Some(
        parser
            .parse(source, None)
            .is_none_or(|t| t.root_node().has_error()),
    )
}

fn extract_as(path: &str, source: &str, mode: Extraction) -> GoFile {
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
    let Some(tree) = parse_go(&mut parser, source) else {
        file.diagnostics.push(Diagnostic::new(
            path,
            0,
            format!(
                "the Go parser gave up on this file: recovering from its syntax errors took more work than {PARSE_CHECKS_FLOOR} steps plus one per {PARSE_BYTES_PER_CHECK} bytes; the file is not analyzed"
            ),
        ));
        return file;
    };
    let root = tree.root_node();
    file.parse_errors = root.has_error();
    if let Some(line) = first_error_line(root) {
        file.diagnostics.push(Diagnostic::new(
            path,
            line,
            "Go syntax error: the parser recovered, but rows from this file may be incomplete",
        ));
    }
    file.generated = is_generated(source);
    let kinds = Kinds::of(root);
    let src = source.as_bytes();
    let mut cursor = root.walk();
    for decl in root.named_children(&mut cursor) {
        match mode {
            Extraction::Full => {}
            Extraction::Generated => {
                generated_decl(decl, kinds, src, &mut file);
                continue;
            }
            Extraction::Declarations => {
                declaration(decl, src, &mut file);
                continue;
            }
        }
        full_decl(decl, kinds, src, &mut file);
    }
    if mode == Extraction::Full {
        markers::extract(root, source, &mut file);
        platform::extract_feature_gates(root, src, &mut file);
    }
    file
}

/// Records one top-level declaration of a project file for every feature.
fn full_decl(decl: Node, kinds: &Kinds, src: &[u8], file: &mut GoFile) {
    match decl.kind_name() {
        "package_clause" => {
            if let Some(name) = decl.named_child(0) {
                file.package = text(name, src).to_string();
            }
        }
        "import_declaration" => {
            collect_imports(decl, src, &mut file.imports);
            if file.binaries.kubeconfig_import.is_none() {
                file.binaries.kubeconfig_import =
                    super::library_flags::kubeconfig_import(decl, src);
            }
        }
        "const_declaration" => {
            consts::collect_top_level(decl, src, &mut file.consts);
            binaries::collect_consts(decl, src, file);
            conditions::collect_typed_consts(decl, src, file);
        }
        "var_declaration" => var_declaration(decl, kinds, src, file),
        "type_declaration" => {
            types::collect_structs(decl, src, &mut file.structs);
            api_docs::collect(decl, src, &mut file.doc_decls);
            types::collect_interfaces(decl, src, &mut file.interfaces);
            informers::collect_interface_methods(decl, src, &mut file.informer_facts.methods);
            routes::extract_top_level(decl, &super::syntax::nodes_of(decl), src, file);
        }
        "function_declaration" | "method_declaration" => function(decl, kinds, src, file),
        "comment" => {
            if let Some(group) = group_name_marker(text(decl, src)) {
                file.group_name_marker = Some(group);
            }
        }
        _ => {}
    }
}

/// A package-level `var` declaration: constants, group/versions, condition sets, and the
/// calls its initializers make (which run when the package is linked).
fn var_declaration(decl: Node, kinds: &Kinds, src: &[u8], file: &mut GoFile) {
    // Its nodes, walked once for every feature that looks at them all.
    let nodes = super::syntax::nodes_of(decl);
    consts::collect_top_level(decl, src, &mut file.consts);
    collect_group_versions(&nodes, src, &mut file.group_versions);
    conditions::collect_sets(decl, src, file);
    gvr::collect_package_gvrs(decl, src, &mut file.gvrs);
    types::collect_typed_vars(decl, src, &mut file.typed_vars);
    types::collect_var_literals(decl, src, &mut file.var_literals);
    let at = calls::extract_package_level(&nodes, src, file);
    binaries::extract_package_level(&nodes, at, src, file);
    connections::extract_package_level(&nodes, at, src, file);
    metrics::extract_package_level(&nodes, src, file);
    routes::extract_top_level(decl, &nodes, src, file);
    // A function literal in an initializer (a cobra command's `Run: func(…)`)
    // builds routers and managers like a function body does.
    for literal in outermost_func_literals(&nodes) {
        let ctx = kinds.func(String::new(), literal, None, None, None);
        routes::extract(&ctx, src, file);
    }
    if file.generated {
        routes::grpc::extract_vars(decl, src, &mut file.routes.grpc);
    }
}

/// A function or method: one `FuncCtx` and one `Scope`, handed to each feature.
fn function(decl: Node, kinds: &Kinds, src: &[u8], file: &mut GoFile) {
    let Some(body) = decl.child_by_field_id(FIELD.body) else {
        return;
    };
    let ctx = kinds.func(
        decl.child_by_field_id(FIELD.name)
            .map(|n| text(n, src).to_string())
            .unwrap_or_default(),
        body,
        Some(decl),
        receiver_type(decl, src),
        receiver_name(decl, src),
    );
    let scope = Scope::of(&ctx, types::signature(decl, src), src);
    collect_kind_names(&ctx, src, &mut file.kind_names);
    controllers::extract(&ctx, &scope, src, file);
    writes::extract(&ctx, &scope, src, file);
    conditions::extract(&ctx, &scope, src, file);
    // Generated clientsets and informer factories are plumbing the project's
    // own code calls; their generic informers are not watches of the project.
    if !file.generated {
        informers::extract(&ctx, &scope, src, file);
    }
    webhooks::extract(&ctx, &scope, src, file);
    let at = calls::extract(&ctx, &scope, src, file);
    if let Some(f) = file.functions.last_mut() {
        f.call_fact = at;
    }
    binaries::extract(&ctx, &scope, at, src, file);
    connections::extract(&ctx, &scope, at, src, file);
    platform::extract(&ctx, &scope, at, src, file);
    manager::extract(&ctx, &scope, at, src, file);
    metrics::extract(&ctx, &scope, src, file);
    routes::extract(&ctx, src, file);
    routes::grpc::extract_func(&ctx, file.generated, src, &mut file.routes.grpc);
    let f = extractor::Function {
        ctx: &ctx,
        scope: &scope,
        src,
    };
    extractor::function(super::REGISTRY, &f, &mut file.extracted);
}

/// The function literals under `decl` that are not inside another one, in document order.
fn outermost_func_literals<'t>(nodes: &[Node<'t>]) -> Vec<Node<'t>> {
    let mut out: Vec<Node> = Vec::new();
    for &n in nodes {
        let nested = out.last().is_some_and(|l| n.start_byte() < l.end_byte());
        if !nested && n.kind_name() == "func_literal" {
            out.push(n);
        }
    }
    out
}

/// One top-level declaration of a vendored API package (see `extract_vendored_api`).
fn declaration(decl: Node, src: &[u8], file: &mut GoFile) {
    match decl.kind_name() {
        "package_clause" => {
            if let Some(name) = decl.named_child(0) {
                file.package = text(name, src).to_string();
            }
        }
        "import_declaration" => collect_imports(decl, src, &mut file.imports),
        "const_declaration" => consts::collect_top_level(decl, src, &mut file.consts),
        "var_declaration" => {
            consts::collect_top_level(decl, src, &mut file.consts);
            collect_group_versions(
                &super::syntax::nodes_of(decl),
                src,
                &mut file.group_versions,
            );
        }
        "comment" => {
            if let Some(group) = group_name_marker(text(decl, src)) {
                file.group_name_marker = Some(group);
            }
        }
        _ => {}
    }
}

/// One top-level declaration of a protoc-generated file (see `extract_generated`).
fn generated_decl(decl: Node, kinds: &Kinds, src: &[u8], file: &mut GoFile) {
    match decl.kind_name() {
        "package_clause" => {
            if let Some(name) = decl.named_child(0) {
                file.package = text(name, src).to_string();
            }
        }
        "import_declaration" => collect_imports(decl, src, &mut file.imports),
        "var_declaration" if file.generated => {
            routes::grpc::extract_vars(decl, src, &mut file.routes.grpc);
        }
        "function_declaration" => {
            let name = decl
                .child_by_field_id(FIELD.name)
                .map(|n| text(n, src).to_string())
                .unwrap_or_default();
            let Some(body) = decl
                .child_by_field_id(FIELD.body)
                .filter(|_| routes::grpc::registration(&name).is_some())
            else {
                return;
            };
            let ctx = kinds.func(name, body, Some(decl), None, None);
            routes::grpc::extract_func(&ctx, file.generated, src, &mut file.routes.grpc);
        }
        _ => {}
    }
}

/// The line of the first syntax error (an ERROR or MISSING node), found without recursion.
fn first_error_line(root: Node) -> Option<u32> {
    if !root.has_error() {
        return None;
    }
    let mut node = root;
    // Descend into the first child that contains an error until the error node itself.
    'descend: loop {
        if node.is_error() || node.is_missing() {
            return Some(line_of(node));
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.is_error() || child.is_missing() || child.has_error() {
                node = child;
                continue 'descend;
            }
        }
        return Some(line_of(node));
    }
}

/// Go's convention for generated files: a `// Code generated … DO NOT EDIT.` line before
/// the package clause.
fn is_generated(source: &str) -> bool {
    source
        .lines()
        .take_while(|l| !l.starts_with("package "))
        .any(|l| l.starts_with("// Code generated ") && l.trim_end().ends_with("DO NOT EDIT."))
}

fn group_name_marker(comment: &str) -> Option<String> {
    let at = comment.find("+groupName=")?;
    let rest = &comment[at + "+groupName=".len()..];
    let value: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
    (!value.is_empty()).then_some(value)
}

fn collect_imports(decl: Node, src: &[u8], out: &mut Vec<Import>) {
    let mut stack = vec![decl];
    while let Some(node) = stack.pop() {
        if node.kind_name() == "import_spec" {
            let Some(path) = node
                .child_by_field_id(FIELD.path)
                .and_then(|p| string_literal(p, src))
            else {
                continue;
            };
            let alias = node
                .child_by_field_id(FIELD.name)
                .map(|n| text(n, src).to_string());
            out.push(Import { alias, path });
        } else {
            let mut c = node.walk();
            let children: Vec<Node> = node.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
    }
}

/// `scheme.AddKnownTypeWithName(gv.WithKind("name"), &T{})`: type `T` is served as kind
/// `name`, which need not be the type's name.
fn collect_kind_names(ctx: &FuncCtx, src: &[u8], out: &mut Vec<(String, ConstExpr)>) {
    for (call, _, method) in ctx.method_calls() {
        if text(method, src) != "AddKnownTypeWithName" {
            continue;
        }
        let args = call_arguments(call);
        let (Some(&gvk), Some(&object)) = (args.first(), args.get(1)) else {
            continue;
        };
        let kind = method_of(gvk, src)
            .filter(|(_, m)| *m == "WithKind")
            .and_then(|_| call_arguments(gvk).first().copied())
            .and_then(|k| const_expr(k, src));
        let mut literal = object;
        if literal.kind_name() == "unary_expression" {
            literal = literal.child_by_field_id(FIELD.operand).unwrap_or(literal);
        }
        let ty = (literal.kind_name() == "composite_literal")
            .then(|| literal.child_by_field_id(FIELD.ty))
            .flatten()
            .filter(|t| t.kind_name() == "type_identifier");
        if let (Some(kind), Some(ty)) = (kind, ty) {
            out.push((text(ty, src).to_string(), kind));
        }
    }
}

fn collect_group_versions(nodes: &[Node], src: &[u8], out: &mut Vec<GroupVersionDecl>) {
    nodes.iter().for_each(|&node| {
        if node.kind_name() != "composite_literal" {
            return;
        }
        let Some(ty) = node.child_by_field_id(FIELD.ty) else {
            return;
        };
        let type_name = match ty.kind_name() {
            "qualified_type" => ty.child_by_field_id(FIELD.name).map(|n| text(n, src)),
            "type_identifier" => Some(text(ty, src)),
            _ => None,
        };
        if type_name != Some("GroupVersion") {
            return;
        }
        let Some(body) = node.child_by_field_id(FIELD.body) else {
            return;
        };
        let mut group = None;
        let mut version = None;
        let mut bc = body.walk();
        for element in body
            .named_children(&mut bc)
            .filter(|n| n.kind_name() == "keyed_element")
        {
            let (Some(key), Some(value)) = (element.named_child(0), element.named_child(1)) else {
                continue;
            };
            let key = text(key, src);
            let value_node = value.named_child(0).unwrap_or(value);
            let Some(value) = const_expr(value_node, src) else {
                continue;
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

/// tree-sitter checks its progress every 100 parse operations. Error recovery on some
/// broken input is super-linear (a 260 KB file of 4,000 broken method headers made 321,160
/// checks and took 80 s), so the parse stops after one check per `PARSE_BYTES_PER_CHECK`
/// bytes plus a floor: a bound on work, not on time, so a file always gives the same
/// result. The 691 Go files of the three real repositories need at most one check per
/// 90 bytes (0.011 per byte), well inside it; the floor covers files up to about 1.8 MB at
/// that rate.
const PARSE_BYTES_PER_CHECK: usize = 16;
const PARSE_CHECKS_FLOOR: usize = 20_000;

/// Parses `source`, with Go 1.26's `new(expr)` made readable (see `new_expr`) when the plain
/// parse has errors. None when the parser gives up or exceeds the work bound.
fn parse_go(parser: &mut Parser, source: &str) -> Option<tree_sitter::Tree> {
    let tree = parse_bounded(parser, source)?;
    if !tree.root_node().has_error() {
        return Some(tree);
    }
    let Some(respelled) = new_expr::respell(source) else {
        return Some(tree);
    };
    match parse_bounded(parser, &respelled) {
        Some(better)
            if new_expr::error_count(better.root_node())
                < new_expr::error_count(tree.root_node()) =>
        {
            Some(better)
        }
        _ => Some(tree),
    }
}

/// Parses `source`, or None when the parser gives up or exceeds the work bound.
fn parse_bounded(parser: &mut Parser, source: &str) -> Option<tree_sitter::Tree> {
    let budget = source.len() / PARSE_BYTES_PER_CHECK + PARSE_CHECKS_FLOOR;
    let mut checks = 0usize;
    let mut progress = |_: &tree_sitter::ParseState| {
        checks += 1;
        if checks > budget {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let bytes = source.as_bytes();
    parser.parse_with_options(
        &mut |offset, _| bytes.get(offset..).unwrap_or_default(),
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
    )
}

#[cfg(test)]
mod tests;
