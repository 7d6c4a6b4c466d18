//! Tests that analyze whole in-memory projects (`project`: every file through
//! `analyze_file`, then `assemble`), for the features whose rows need more than one
//! analyzer: they cannot sit beside their code in `go` or `manifests`, which `analyze`
//! depends on. One module per feature.

mod api_docs;
mod connections;
mod images;
mod manager;
mod platform;

use super::*;

/// Analyzes in-memory files as one project.
pub(crate) fn project(files: &[(&str, &str)]) -> Findings {
    let facts = files
        .iter()
        .map(|(path, text)| {
            let kind = FileKind::of(path).expect("analyzed file");
            (
                analyze_file(kind, path, text, Area::Component),
                Area::Component,
            )
        })
        .collect();
    assemble(facts, &BTreeMap::new()).findings
}

const WIDGET_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.widgets.foo.io
spec:
  group: widgets.foo.io
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1alpha1, served: true, storage: true}
";

fn twin_crd(group: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: twins.{group}
spec:
  group: {group}
  names: {{kind: Twin, plural: twins}}
  scope: Namespaced
  versions:
  - {{name: v1, served: true, storage: true}}
"
    )
}

const CONTROLLER: &str = r#"package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1alpha1 "github.com/foo/bar/apis/widgets/v1alpha1"
	twinsv1 "github.com/other/twins/api/v1"
	gizmov1 "github.com/other/gizmos/api/v1"
)

type R struct{ client.Client }

func (r *R) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1alpha1.Widget{}).
		Owns(&twinsv1.Twin{}).
		Owns(&gizmov1.Gizmo{}).
		Complete(r)
}

func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.Create(ctx, &widgetsv1alpha1.Widget{})
	return ctrl.Result{}, nil
}
"#;

#[test]
fn go_types_of_unknown_modules_resolve_through_shipped_crds() {
    let a = twin_crd("a.io");
    let b = twin_crd("b.io");
    let f = project(&[
        ("go.mod", "module example.com/op\n"),
        ("internal/controller/r.go", CONTROLLER),
        ("config/crd/widgets.yaml", WIDGET_CRD),
        // The same CRD in a chart is one candidate, not two.
        ("charts/op/crds/widgets.yaml", WIDGET_CRD),
        ("config/crd/twins-a.yaml", &a),
        ("config/crd/twins-b.yaml", &b),
    ]);
    assert_eq!(f.controllers.len(), 1);
    let c = &f.controllers[0];
    let watches: Vec<String> = c
        .watches
        .iter()
        .map(|w| {
            format!(
                "{} {}/{} {} {:?}",
                w.relation.label(),
                w.group,
                w.version,
                w.kind,
                w.import_path
            )
        })
        .collect();
    assert_eq!(
        watches,
        [
            "For widgets.foo.io/v1alpha1 Widget None",
            "Owns ?/? Twin Some(\"github.com/other/twins/api/v1\")",
            "Owns ?/? Gizmo Some(\"github.com/other/gizmos/api/v1\")",
        ]
    );
    let ops: Vec<String> = c
        .operations
        .iter()
        .map(|o| format!("{} {}/{} {}", o.verb, o.group, o.version, o.kind))
        .collect();
    assert_eq!(ops, ["create widgets.foo.io/v1alpha1 Widget"]);
    let diags: Vec<String> = f
        .diagnostics
        .iter()
        .filter(|d| d.file.ends_with(".go"))
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect();
    assert_eq!(
        diags,
        [
            "internal/controller/r.go:19: cannot resolve the API group of github.com/other/twins/api/v1.Twin: several CRDs shipped in this repository have this kind and version (a.io, b.io); map its import path under [groups] in projects.toml",
            "internal/controller/r.go:20: cannot resolve the API group of github.com/other/gizmos/api/v1.Gizmo; map its import path under [groups] in projects.toml",
        ]
    );
}

#[test]
fn file_kinds_by_name() {
    for (path, kind) in [
        ("main.go", Some(FileKind::Go)),
        ("api/v1/shop.pb.go", Some(FileKind::GoGenerated)),
        ("api/v1/shop_grpc.pb.go", Some(FileKind::GoGenerated)),
        ("api/v1/shop.pb.gw.go", Some(FileKind::GoGenerated)),
        ("proto/shop/v1/shop.proto", Some(FileKind::Proto)),
        ("go.mod", Some(FileKind::GoMod)),
        ("Cargo.toml", Some(FileKind::CargoToml)),
        ("proto/README.md", None),
    ] {
        assert_eq!(FileKind::of(path), kind, "{path}");
    }
}
