//! Informer watches outside controller builders: controller-runtime cache informers
//! (`GetInformer(ctx, obj)`), raw `source.Kind(cache, obj, …)` sources (e.g. given to
//! `controller.Watch`), client-go informer factories (`f.Core().V1().Pods().Informer()`),
//! and dynamic-client watches (`dyn.Resource(gvr)….Watch(…)`).
//!
//! An informer in a method of a controller's reconciler belongs to that controller (relation
//! `informer`); any other is listed per package. Unknown kinds: `?` and a diagnostic.

use super::syntax::FIELD;
use super::syntax::KindName;
use tree_sitter::Node;

use super::calls::{Binding, Graph, Paths, Scope};
use super::consts::{ConstExpr, const_expr};
use super::file::GoFile;
use super::index::{GoInput, dir_of};
use super::locals::{FuncRef, Locals, ValueType};
use super::syntax::{FuncCtx, call_arguments, line_of, text};
use super::values::{Values, describe, well_known_kind};
use crate::model::{
    Controller, Diagnostic, PackageInformer, Relation, SourceRef, UNRESOLVED, Watch,
};

#[derive(Debug, Clone, PartialEq)]
pub struct RawInformer {
    pub func: FuncRef,
    pub source: InformerSource,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum InformerSource {
    /// `GetInformer(ctx, obj)` or `source.Kind(cache, obj, …)`.
    Object(ValueType),
    /// `f.Core().V1().Pods().Informer()`: ("CoreV1", "Pods").
    Factory {
        group_version: String,
        resource: String,
    },
    /// A dynamic-client watch of a `schema.GroupVersionResource{…}` literal.
    Resource {
        group: Option<ConstExpr>,
        version: Option<ConstExpr>,
        resource: Option<ConstExpr>,
    },
    /// A dynamic-client watch whose resource is not a literal: the expression.
    Opaque(String),
}

/// Records the informers a function starts.
pub fn extract(ctx: &FuncCtx, locals: &Locals, scope: &Scope, src: &[u8], file: &mut GoFile) {
    let func = FuncRef {
        receiver: ctx.receiver_type.clone(),
        name: ctx.name.clone(),
    };
    for &call in &ctx.calls {
        let Some(function) = super::calls::callee(call) else {
            continue;
        };
        if function.kind_name() != "selector_expression" {
            continue;
        }
        let (Some(operand), Some(field)) = (
            function.child_by_field_id(FIELD.operand),
            function.child_by_field_id(FIELD.field),
        ) else {
            continue;
        };
        let args = call_arguments(call);
        let line = line_of(field);
        let source = match text(field, src) {
            "GetInformer" if args.len() >= 2 => Some(InformerSource::Object(locals.type_of(
                args[1],
                src,
                call.start_byte(),
            ))),
            "Kind" | "TypedKind"
                if operand.kind_name() == "identifier"
                    && args.len() >= 2
                    && !inside_builder_watch(call, src) =>
            {
                Some(InformerSource::Object(locals.type_of(
                    args[1],
                    src,
                    call.start_byte(),
                )))
            }
            "Informer" | "Lister" if args.is_empty() => factory(operand, src).or_else(|| {
                // `inf := f.Core().V1().Pods()` … `inf.Informer()`: the factory chain is the
                // value the local was given.
                if operand.kind_name() != "identifier" {
                    return None;
                }
                match scope.lookup(text(operand, src), operand.start_byte())? {
                    Binding::Value(value) => factory(value, src),
                    _ => None,
                }
            }),
            "Watch" => dynamic_resource(operand, src),
            _ => None,
        };
        if let Some(source) = source {
            file.informers.push(RawInformer {
                func: func.clone(),
                source,
                line,
            });
        }
    }
}

/// True for `source.Kind(…)` handed to a controller builder's `Watches`/`WatchesRawSource`,
/// which `controllers` reports as a watch of that controller.
fn inside_builder_watch(call: Node, src: &[u8]) -> bool {
    let mut n = call;
    while let Some(parent) = n.parent() {
        if parent.kind_name() == "call_expression" {
            let method = parent
                .child_by_field_id(FIELD.function)
                .and_then(|f| f.child_by_field_id(FIELD.field))
                .map(|f| text(f, src));
            if matches!(method, Some("Watches" | "WatchesRawSource")) {
                return true;
            }
        }
        if matches!(
            parent.kind_name(),
            "block" | "function_declaration" | "method_declaration"
        ) {
            return false;
        }
        n = parent;
    }
    false
}

/// `X.Core().V1().Pods()` → ("CoreV1", "Pods").
fn factory(resource_call: Node, src: &[u8]) -> Option<InformerSource> {
    let names = method_chain(resource_call, src, 3)?;
    let [group, version, resource] = [&names[0], &names[1], &names[2]];
    let version_ok =
        version.starts_with('V') && super::kinds::is_version(&version.to_ascii_lowercase());
    version_ok.then(|| InformerSource::Factory {
        group_version: format!("{group}{version}"),
        resource: resource.clone(),
    })
}

/// The last `count` method names of a chain of argument-less calls, outermost last.
fn method_chain(call: Node, src: &[u8], count: usize) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut n = call;
    while names.len() < count {
        if n.kind_name() != "call_expression" {
            return None;
        }
        let f = n.child_by_field_id(FIELD.function)?;
        names.push(text(f.child_by_field_id(FIELD.field)?, src).to_string());
        n = f.child_by_field_id(FIELD.operand)?;
    }
    names.reverse();
    Some(names)
}

/// `X.Resource(gvr)[.Namespace(ns)].Watch(…)`: the watched resource.
fn dynamic_resource(operand: Node, src: &[u8]) -> Option<InformerSource> {
    let mut n = operand;
    for _ in 0..3 {
        if n.kind_name() != "call_expression" {
            return None;
        }
        let f = n.child_by_field_id(FIELD.function)?;
        let method = text(f.child_by_field_id(FIELD.field)?, src);
        if method == "Resource" {
            let arg = *call_arguments(n).first()?;
            return Some(
                gvr_literal(arg, src)
                    .unwrap_or_else(|| InformerSource::Opaque(text(arg, src).to_string())),
            );
        }
        n = f.child_by_field_id(FIELD.operand)?;
    }
    None
}

fn gvr_literal(node: Node, src: &[u8]) -> Option<InformerSource> {
    if node.kind_name() != "composite_literal"
        || !text(node.child_by_field_id(FIELD.ty)?, src).ends_with("GroupVersionResource")
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
        let value = const_expr(value.named_child(0).unwrap_or(value), src);
        match text(key, src) {
            "Group" => group = value,
            "Version" => version = value,
            "Resource" => resource = value,
            _ => {}
        }
    }
    Some(InformerSource::Resource {
        group,
        version,
        resource,
    })
}

/// Resolves informers: into their controller's watches, else per package.
pub fn resolve(
    files: &[GoInput],
    values: &Values,
    graph: &Graph,
    reach: &[Option<Paths>],
    controllers: &mut [Controller],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<PackageInformer> {
    let mut out = Vec::new();
    for input in files {
        let file = &input.facts;
        let dir = dir_of(&file.path);
        for raw in &file.informers {
            let (group, version, kind) = match kind_of(file, dir, &raw.source, values) {
                Ok(gvk) => gvk,
                Err(why) => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        raw.line,
                        format!("cannot tell which kind this informer watches: {why}"),
                    ));
                    (
                        UNRESOLVED.to_string(),
                        UNRESOLVED.to_string(),
                        UNRESOLVED.to_string(),
                    )
                }
            };
            let sources = vec![SourceRef::new(&file.path, raw.line)];
            // The informer belongs to every controller whose Reconcile reaches the function
            // that starts it, or, as before, whose reconciler type declares that function.
            let node = values.node_of(dir, &raw.func);
            let mut owned = false;
            for (c, paths) in controllers.iter_mut().zip(reach) {
                let declared = Some(&c.reconciler) == raw.func.receiver.as_ref()
                    && c.sources.first().is_some_and(|s| dir_of(&s.file) == dir);
                let reached = node
                    .zip(paths.as_ref())
                    .is_some_and(|(n, p)| p.contains(graph, n));
                if !declared && !reached {
                    continue;
                }
                owned = true;
                c.watches.push(Watch {
                    relation: Relation::Informer,
                    group: group.clone(),
                    version: version.clone(),
                    kind: kind.clone(),
                    conditional: false,
                    condition: String::new(),
                    import_path: None,
                    sources: sources.clone(),
                });
            }
            if !owned {
                out.push(PackageInformer {
                    package: values.index.package_of(file).unwrap_or(dir).to_string(),
                    function: match &raw.func.receiver {
                        Some(r) => format!("{r}.{}", raw.func.name),
                        None => raw.func.name.clone(),
                    },
                    group,
                    version,
                    kind,
                    area: input.area,
                    sources,
                });
            }
        }
    }
    out
}

fn kind_of(
    file: &GoFile,
    dir: &str,
    source: &InformerSource,
    values: &Values,
) -> Result<(String, String, String), String> {
    match source {
        InformerSource::Object(value) => values
            .value_kind(file, dir, value)
            .ok_or_else(|| describe(value)),
        InformerSource::Factory {
            group_version,
            resource,
        } => {
            values.clientset_kind(group_version, resource).ok_or_else(|| {
                format!(
                    "{group_version}().{resource}() is neither a Kubernetes API group's accessor nor one of the repository's API packages"
                )
            })
        }
        InformerSource::Resource {
            group,
            version,
            resource,
        } => {
            let eval = |e: &Option<ConstExpr>| e.as_ref().and_then(|e| values.index.eval(file, e));
            let (Some(group), Some(version), Some(resource)) =
                (eval(group), eval(version), eval(resource))
            else {
                return Err("the GroupVersionResource's fields are not all constants".into());
            };
            // Only Kubernetes' own resources have a known kind for a resource name.
            let accessor = resource
                .chars()
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + &resource[1..])
                .unwrap_or_default();
            let known = super::kinds::builtin_group_version(&format!(
                "k8s.io/api/{}/{version}",
                if group.is_empty() {
                    "core"
                } else {
                    group.split('.').next().unwrap_or("")
                }
            ))
            .filter(|(g, _)| *g == group);
            if known.is_none()
                && let Some(kind) = values.repo_resource_kind(&group, &version, &resource)
            {
                return Ok((group, version, kind));
            }
            match (known, well_known_kind(&accessor)) {
                (Some((g, v)), Some(kind)) => Ok((g, v, kind)),
                _ => Err(format!(
                    "resource `{resource}` of `{group}/{version}` has no known kind"
                )),
            }
        }
        InformerSource::Opaque(expr) => Err(format!(
            "the resource `{expr}` is not a GroupVersionResource literal"
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::analyze::go::controllers;
    use crate::analyze::go::file::extract;
    use crate::analyze::go::index::{GoIndex, GoModule};
    use crate::model::Area;

    const SRC: &str = r#"package watcher

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

const podsResource = "pods"

type NodeReconciler struct{}

func (r *NodeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if _, err := mgr.GetCache().GetInformer(context.Background(), &corev1.Secret{}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Node{}).
		WatchesRawSource(source.Kind(mgr.GetCache(), &corev1.Pod{}, &handler.TypedEnqueueRequestForObject[*corev1.Pod]{})).
		Complete(r)
}

func startWatches(ctx context.Context, c controller.Controller, mgr ctrl.Manager, factory informers.SharedInformerFactory, dyn dynamic.Interface, gvr schema.GroupVersionResource) {
	_ = c.Watch(source.Kind(mgr.GetCache(), &corev1.ConfigMap{}, &handler.EnqueueRequestForObject{}))
	factory.Core().V1().Services().Informer()
	dyn.Resource(schema.GroupVersionResource{Group: "", Version: "v1", Resource: podsResource}).Namespace("x").Watch(ctx, metav1.ListOptions{})
	dyn.Resource(gvr).Watch(ctx, metav1.ListOptions{})
}
"#;

    #[test]
    fn informers_attach_to_their_controller_or_their_package() {
        let inputs = vec![GoInput {
            facts: extract("pkg/watcher/w.go", SRC),
            area: Area::Component,
        }];
        let modules = vec![GoModule {
            dir: String::new(),
            path: "example.com/m".into(),
            controller_runtime: None,
        }];
        let groups = BTreeMap::new();
        let mut diags = Vec::new();
        let index = GoIndex::build(&inputs, &modules, &groups, &mut diags);
        let mut ctrls = controllers::resolve(&inputs, &index, &mut diags);
        let values = Values::new(&inputs, &index);
        let graph = crate::analyze::go::calls::Graph::build(&inputs, &index);
        let reach =
            crate::analyze::go::writes::controller_reach(&values, &graph, &ctrls, &mut diags);
        let package = resolve(&inputs, &values, &graph, &reach, &mut ctrls, &mut diags);
        let watches: Vec<String> = ctrls[0]
            .watches
            .iter()
            .map(|w| {
                format!(
                    "{:?} {}/{} {} @{}",
                    w.relation, w.group, w.version, w.kind, w.sources[0].line
                )
            })
            .collect();
        assert_eq!(
            watches,
            vec![
                "For /v1 Node @22",
                "Watches /v1 Pod @23",
                "Informer /v1 Secret @18"
            ]
        );
        let others: Vec<String> = package
            .iter()
            .map(|i| {
                format!(
                    "{} {}/{} {} @{}",
                    i.function, i.group, i.version, i.kind, i.sources[0].line
                )
            })
            .collect();
        assert_eq!(
            others,
            vec![
                "startWatches /v1 ConfigMap @28",
                "startWatches /v1 Service @29",
                "startWatches /v1 Pod @30",
                "startWatches ?/? ? @31",
            ]
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(
            diags[0]
                .message
                .contains("the resource `gvr` is not a GroupVersionResource literal")
        );
    }
}
