//! GroupVersionResources: per file, the expressions that spell one out (a literal,
//! `gv.WithResource(r)`, a local or package-level variable given one); per project, the kind
//! such a resource is (the built-in table, the CRDs the repository ships, the repository's
//! API packages). Shared by informers and dynamic-client writes.

use tree_sitter::Node;

use crate::consts::{ConstExpr, const_expr};
use crate::facts::GoFile;
use crate::facts::gvr::Gvr;
use crate::index::{GoInput, dir_of};
use crate::scope::{Binding, Scope};
use crate::syntax::FIELD;
use crate::syntax::KindName;
use crate::syntax::{call_arguments, text};
use crate::values::Values;

/// Locals are followed this many steps to a GroupVersionResource expression.
const MAX_GVR_DEPTH: usize = 6;

/// Parentheses and `&` removed.
pub fn strip<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut n = node;
    for _ in 0..8 {
        match n.kind_name() {
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => n = inner,
                None => break,
            },
            "unary_expression"
                if n.child_by_field_id(FIELD.operator)
                    .is_some_and(|o| text(o, src) == "&") =>
            {
                match n.child_by_field_id(FIELD.operand) {
                    Some(inner) => n = inner,
                    None => break,
                }
            }
            _ => break,
        }
    }
    n
}

/// A resource name: a string expression, or `string(x)` of one (`corev1.ResourceSecrets`
/// is a `ResourceName`).
fn resource_expr(node: Node, src: &[u8]) -> Option<ConstExpr> {
    if node.kind_name() == "call_expression"
        && node
            .child_by_field_id(FIELD.function)
            .is_some_and(|f| text(f, src) == "string")
    {
        return const_expr(*call_arguments(node).first()?, src);
    }
    const_expr(node, src)
}

/// A GroupVersionResource expression: a literal, `gv.WithResource(r)`, a local given one,
/// or (`package_vars`) a package-level variable, `name` or `pkg.Name`.
pub fn gvr_expr<'t>(
    node: Node<'t>,
    src: &[u8],
    scope: &Scope<'t>,
    depth: usize,
    package_vars: bool,
) -> Option<Gvr> {
    let mut n = strip(node, src);
    for _ in 0..MAX_GVR_DEPTH.saturating_sub(depth) {
        match n.kind_name() {
            "composite_literal" => return gvr_literal(n, src),
            "identifier" => match scope.lookup(text(n, src), n.start_byte()) {
                Some(Binding::Value(value)) => n = strip(value, src),
                None if package_vars => {
                    return Some(Gvr::Var {
                        qualifier: None,
                        name: text(n, src).to_string(),
                    });
                }
                _ => return None,
            },
            "selector_expression" if package_vars => {
                let q = n.child_by_field_id(FIELD.operand)?;
                let local = scope.lookup(text(q, src), q.start_byte()).is_some();
                return (q.kind_name() == "identifier" && !local).then(|| Gvr::Var {
                    qualifier: Some(text(q, src).to_string()),
                    name: text(n.child_by_field_id(FIELD.field).unwrap_or(n), src).to_string(),
                });
            }
            "call_expression" => {
                let function = n.child_by_field_id(FIELD.function)?;
                if function.kind_name() != "selector_expression"
                    || text(function.child_by_field_id(FIELD.field)?, src) != "WithResource"
                {
                    return None;
                }
                let resource = call_arguments(n)
                    .first()
                    .and_then(|a| resource_expr(*a, src));
                let gv = strip(function.child_by_field_id(FIELD.operand)?, src);
                return match gv.kind_name() {
                    "composite_literal" => {
                        let (group, version, _) = literal_fields(gv, src, "GroupVersion")?;
                        Some(Gvr::Literal {
                            group,
                            version,
                            resource,
                        })
                    }
                    "selector_expression" => {
                        let q = gv.child_by_field_id(FIELD.operand)?;
                        let local = scope.lookup(text(q, src), q.start_byte()).is_some();
                        (q.kind_name() == "identifier" && !local).then(|| Gvr::Package {
                            qualifier: text(q, src).to_string(),
                            var: text(gv.child_by_field_id(FIELD.field).unwrap_or(gv), src)
                                .to_string(),
                            resource,
                        })
                    }
                    _ => None,
                };
            }
            _ => return None,
        }
    }
    None
}

/// Package-level `var x = <GroupVersionResource expression>` of a file.
pub fn collect_package_gvrs(decl: Node, src: &[u8], out: &mut Vec<(String, Gvr)>) {
    let scope = Scope::package_level();
    for spec in crate::types::var_specs(decl) {
        let names: Vec<Node> = crate::syntax::field_children(spec, FIELD.name)
            .into_iter()
            .filter(|n| n.kind_name() == "identifier")
            .collect();
        let values = spec
            .child_by_field_id(FIELD.value)
            .map(crate::scope::list)
            .unwrap_or_default();
        if names.len() != values.len() {
            continue;
        }
        for (name, value) in names.into_iter().zip(values) {
            if let Some(gvr) = gvr_expr(value, src, &scope, 0, false) {
                out.push((text(name, src).to_string(), gvr));
            }
        }
    }
}

fn gvr_literal(node: Node, src: &[u8]) -> Option<Gvr> {
    let (group, version, resource) = literal_fields(node, src, "GroupVersionResource")?;
    Some(Gvr::Literal {
        group,
        version,
        resource,
    })
}

type Fields = (Option<ConstExpr>, Option<ConstExpr>, Option<ConstExpr>);

/// The `Group`, `Version` and `Resource` fields of a `…<type_suffix>{…}` literal.
fn literal_fields(node: Node, src: &[u8], type_suffix: &str) -> Option<Fields> {
    if node.kind_name() != "composite_literal"
        || !text(node.child_by_field_id(FIELD.ty)?, src).ends_with(type_suffix)
    {
        return None;
    }
    let body = node.child_by_field_id(FIELD.body)?;
    let (mut group, mut version, mut resource) = (None, None, None);
    let mut c = body.walk();
    for element in body
        .named_children(&mut c)
        .filter(|n| n.kind_name() == "keyed_element")
    {
        let (Some(key), Some(value)) = (element.named_child(0), element.named_child(1)) else {
            continue;
        };
        let value = resource_expr(value.named_child(0).unwrap_or(value), src);
        match text(key, src) {
            "Group" => group = value,
            "Version" => version = value,
            "Resource" => resource = value,
            _ => {}
        }
    }
    Some((group, version, resource))
}

/// Resource names of `k8s.io/api/core/v1` (`ResourceName` constants: `ResourceSecrets`),
/// which code converts with `string(…)` to build a GroupVersionResource.
const CORE_RESOURCE_NAMES: &[(&str, &str)] = &[
    ("ResourcePods", "pods"),
    ("ResourceServices", "services"),
    ("ResourceReplicationControllers", "replicationcontrollers"),
    ("ResourceQuotas", "resourcequotas"),
    ("ResourceSecrets", "secrets"),
    ("ResourceConfigMaps", "configmaps"),
    ("ResourcePersistentVolumeClaims", "persistentvolumeclaims"),
];

/// The (group, version, kind) of a GroupVersionResource as written in `file`.
pub fn gvr_kind(
    values: &Values,
    file: &GoFile,
    gvr: &Gvr,
) -> Result<(String, String, String), String> {
    // A package-level variable: its declaration (which is not itself a variable).
    let (file, gvr) = match gvr {
        Gvr::Var { qualifier, name } => {
            let dir = values.index.package_dir(file, qualifier.as_deref());
            let files: &[GoInput] = values.index.files;
            let declared = dir.and_then(|dir| {
                files
                    .iter()
                    .filter(|f| dir_of(&f.facts.path) == dir)
                    .find_map(|f| {
                        f.facts
                            .gvrs
                            .iter()
                            .find(|(n, _)| n == name)
                            .map(|(_, g)| (&f.facts, g))
                    })
            });
            match declared {
                Some(found) => found,
                None => {
                    let written = match qualifier {
                        Some(q) => format!("{q}.{name}"),
                        None => name.clone(),
                    };
                    return Err(format!(
                        "the resource `{written}` is not a GroupVersionResource expression the analyzer can read"
                    ));
                }
            }
        }
        other => (file, other),
    };
    let eval = |e: &Option<ConstExpr>| -> Option<String> {
        let e = e.as_ref()?;
        values.index.eval(file, e).or_else(|| match e {
            ConstExpr::Ref {
                qualifier: Some(q),
                name,
            } if values.index.import_for(file, q).as_deref() == Some("k8s.io/api/core/v1") => {
                CORE_RESOURCE_NAMES
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, r)| r.to_string())
            }
            _ => None,
        })
    };
    let (group, version, resource) = match gvr {
        Gvr::Literal {
            group,
            version,
            resource,
        } => {
            let (Some(g), Some(v), Some(r)) = (eval(group), eval(version), eval(resource)) else {
                return Err("the GroupVersionResource's fields are not all constants".into());
            };
            (g, v, r)
        }
        Gvr::Package {
            qualifier,
            var,
            resource,
        } => {
            if !matches!(var.as_str(), "SchemeGroupVersion" | "GroupVersion") {
                return Err(format!(
                    "`{qualifier}.{var}` is not the group/version its package declares"
                ));
            }
            let (g, v) = values
                .index
                .import_for(file, qualifier)
                .and_then(|i| values.index.group_version(&i))
                .ok_or_else(|| format!("the group and version of `{qualifier}` are not known"))?;
            let r =
                eval(resource).ok_or_else(|| "the resource name is not a constant".to_string())?;
            (g, v, r)
        }
        Gvr::Var { .. } => return Err("a GroupVersionResource variable is given another".into()),
    };
    match resource_kind(values, &group, &version, &resource) {
        Some(kind) => Ok((group, version, kind)),
        None => Err(format!(
            "resource `{resource}` of `{group}/{version}` has no known kind"
        )),
    }
}

/// The kind of a resource name: the built-in table, the CRDs the repository ships, then
/// the repository's API package for the group/version (its type whose plural it is).
fn resource_kind(values: &Values, group: &str, version: &str, resource: &str) -> Option<String> {
    kubernetes::resources::well_known_kind(group, resource)
        .map(str::to_string)
        .or_else(|| values.index.shipped_resource_kind(group, resource))
        .or_else(|| values.repo_resource_kind(group, version, resource))
}
