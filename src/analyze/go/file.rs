//! Per-file Go extraction: one tree-sitter parse, then the facts later resolved per project.
//!
//! Each feature (controllers, and the extractors that follow) reads the parsed file here and
//! records raw, unresolved facts in [`GoFile`]; nothing here resolves kinds or constants,
//! because that needs every file of the project (see `index` and the features' `resolve`).

use tree_sitter::{Node, Parser};

use super::consts::{self, ConstExpr, const_expr};
use super::controllers::{self, ControllerChain};
use super::routes::{self, RouteFacts};
use super::syntax::{
    FuncCtx, for_each_node, line_of, receiver_name, receiver_type, string_literal, text,
};
use crate::model::Diagnostic;

/// What one Go file contributes to its project's analysis.
#[derive(Debug, Default, Clone)]
pub struct GoFile {
    pub path: String,
    pub package: String,
    pub imports: Vec<Import>,
    /// Top-level `const` and `var` string expressions, by name.
    pub consts: Vec<(String, ConstExpr)>,
    /// `schema.GroupVersion{Group: …, Version: …}` literals at top level.
    pub group_versions: Vec<GroupVersionDecl>,
    /// `+groupName=` marker in the file's comments.
    pub group_name_marker: Option<String>,
    pub controllers: Vec<ControllerChain>,
    pub routes: RouteFacts,
    pub diagnostics: Vec<Diagnostic>,
    pub parse_errors: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// The alias as written (`corev1`, `.`, `_`), if any.
    pub alias: Option<String>,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GroupVersionDecl {
    pub group: ConstExpr,
    pub version: ConstExpr,
    pub line: u32,
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
            "const_declaration" => consts::collect_top_level(decl, src, &mut file.consts),
            "var_declaration" => {
                consts::collect_top_level(decl, src, &mut file.consts);
                collect_group_versions(decl, src, &mut file.group_versions);
                routes::extract_top_level(decl, src, &mut file);
            }
            "type_declaration" => routes::extract_top_level(decl, src, &mut file),
            "function_declaration" | "method_declaration" => {
                let Some(body) = decl.child_by_field_name("body") else {
                    continue;
                };
                let ctx = FuncCtx {
                    name: decl
                        .child_by_field_name("name")
                        .map(|n| text(n, src).to_string())
                        .unwrap_or_default(),
                    body,
                    receiver_type: receiver_type(decl, src),
                    receiver_name: receiver_name(decl, src),
                };
                controllers::extract(&ctx, src, &mut file);
                routes::extract(&ctx, src, &mut file);
            }
            "comment" => {
                if let Some(group) = group_name_marker(text(decl, src)) {
                    file.group_name_marker = Some(group);
                }
            }
            _ => {}
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_group_versions_and_markers() {
        let src = r#"// +groupName=example.io
package v1
import (
	"fmt"
	corev1 "k8s.io/api/core/v1"
	. "example.com/dot"
	_ "example.com/blank"
)
const GroupName = "example.io"
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
            f.group_versions,
            vec![GroupVersionDecl {
                group: ConstExpr::Ref {
                    qualifier: None,
                    name: "GroupName".into()
                },
                version: ConstExpr::Str("v1".into()),
                line: 10
            }]
        );
    }
}
