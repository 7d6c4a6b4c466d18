use std::collections::BTreeMap;

use super::*;
use crate::file::extract;
use model::Area;

const MAIN: &str = r#"package main

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"

	v1 "example.com/op/api/v1"
	v2 "example.com/op/api/v2"
	other "example.com/elsewhere/api"
)

const podPath = "/pods" + suffix

func setup(mgr ctrl.Manager, obj client.Object, mutate bool) error {
	if err := ctrl.NewWebhookManagedBy(mgr).
		For(&v1.Widget{}).
		WithDefaulter(&widgetDefaulter{}).
		WithValidator(&widgetValidator{}).
		Complete(); err != nil {
		return err
	}
	b := builder.WebhookManagedBy(mgr).For(&corev1.Pod{})
	if mutate {
		b = b.WithCustomDefaulter(&podDefaulter{}).WithDefaulterCustomPath(podPath)
	}
	b.WithCustomValidator(&podValidator{}).WithValidatorCustomPath(pathFor("x"))
	_ = b.Complete()
	_ = ctrl.NewWebhookManagedBy(mgr, &v2.Gizmo{}).WithValidator(&gizmoValidator{}).Complete()
	_ = ctrl.NewWebhookManagedBy(mgr).For(&v1.Gizmo{}).Complete()
	_ = ctrl.NewWebhookManagedBy(mgr).For(&other.Thing{}).WithDefaulter(d).Complete()
	_ = ctrl.NewWebhookManagedBy(mgr).For(obj).WithDefaulter(d).Complete()
	_ = ctrl.NewWebhookManagedBy(mgr).For(&v1.Widget{}).Complete()
	_ = ctrl.NewWebhookManagedBy(mgr).WithDefaulter(d).Complete()
	return ctrl.NewWebhookManagedBy(mgr).For(&v1.Widget{}).WithConverter(conv).WithCustomPath("/w").WithDefaulter(d).Complete()
}
"#;

const LEGACY: &str = r#"package v1

// Legacy implements webhook.Defaulter and webhook.Validator on the API type itself.
type Legacy struct{}

func (l *Legacy) Default() {}

func (l *Legacy) ValidateCreate() (admission.Warnings, error) { return nil, nil }

// Default with parameters is a CustomDefaulter's method, not the legacy interface.
func (w *Widget) Default(ctx context.Context, obj runtime.Object) error { return nil }

// A hub without another version to convert from is not served.
func (*Widget) Hub() {}

// Gizmo v1 is a spoke of the v2 hub.
type Gizmo struct{}

func (g *Gizmo) ConvertTo(hub conversion.Hub) error { return nil }

func setupLegacy(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr).For(&Legacy{}).Complete()
}
"#;

fn input(path: &str, src: &str) -> GoInput {
    GoInput {
        facts: extract(path, src),
        area: Area::Component,
    }
}

/// A row as (type, path, served kind, line).
type Row = (WebhookType, String, String, u32);

/// Every row, and every diagnostic as (file, line, message).
fn analyze(controller_runtime: Option<&str>) -> (Vec<Row>, Vec<(String, u32, String)>) {
    let gv = |v: &str| {
        format!(
            "package {v}\nvar GroupVersion = schema.GroupVersion{{Group: \"example.io\", Version: \"{v}\"}}\n"
        )
    };
    let files = vec![
        input("api/v1/groupversion_info.go", &gv("v1")),
        input("api/v1/legacy.go", LEGACY),
        input("api/v2/groupversion_info.go", &gv("v2")),
        input(
            "api/v2/gizmo.go",
            "package v2\ntype Gizmo struct{}\nfunc (*Gizmo) Hub() {}\n",
        ),
        input("cmd/main.go", MAIN),
        input("cmd/paths.go", "package main\nvar suffix = \"/default\"\n"),
    ];
    let modules = vec![GoModule {
        dir: String::new(),
        path: "example.com/op".into(),
        controller_runtime: controller_runtime.map(str::to_string),
    }];
    let groups = BTreeMap::new();
    let mut diags: Vec<Diagnostic> = files
        .iter()
        .flat_map(|f| f.facts.diagnostics.clone())
        .collect();
    let index = GoIndex::build(&files, &modules, &groups, &mut diags);
    let rows = resolve(&files, &index, &modules, &mut diags)
        .into_iter()
        .map(|w| {
            assert_eq!(w.origin, Origin::Code);
            assert_eq!(w.sources.len(), 1);
            let src = &w.sources[0];
            let object = w.object.map(|o| o.display()).unwrap_or_default();
            (w.kind, w.path, object, src.line)
        })
        .collect();
    let diags = diags
        .into_iter()
        .map(|d| (d.file, d.line, d.message))
        .collect();
    (rows, diags)
}

fn row(kind: WebhookType, path: &str, object: &str, line: u32) -> Row {
    (kind, path.into(), object.into(), line)
}

#[test]
fn builders_give_the_paths_controller_runtime_serves() {
    use WebhookType::*;
    let (rows, diags) = analyze(Some("v0.22.4"));
    assert_eq!(
        rows,
        vec![
            row(
                Mutating,
                "/mutate-example-io-v1-widget",
                "example.io/v1 Widget",
                18
            ),
            row(
                Validating,
                "/validate-example-io-v1-widget",
                "example.io/v1 Widget",
                19
            ),
            // Custom paths, constants evaluated across files.
            row(Mutating, "/pods/default", "v1 Pod", 25),
            row(Validating, "?", "v1 Pod", 27),
            row(
                Validating,
                "/validate-example-io-v2-gizmo",
                "example.io/v2 Gizmo",
                29
            ),
            // v2 Gizmo is a conversion hub, so every version of Gizmo converts.
            row(Conversion, "/convert", "example.io/v2 Gizmo", 29),
            row(Conversion, "/convert", "example.io/v1 Gizmo", 30),
            row(Mutating, "/w", "example.io/v1 Widget", 35),
            row(Conversion, "/convert", "example.io/v1 Widget", 35),
        ]
    );
    let got: Vec<(&str, u32, &str)> = diags
        .iter()
        .map(|(f, l, m)| (f.as_str(), *l, m.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "cmd/main.go",
                32,
                "cannot tell which kind this webhook serves: `obj` is not a type literal, so its paths are unknown"
            ),
            (
                "api/v1/legacy.go",
                22,
                "Legacy implements the legacy webhook.Defaulter (Default() on the type), which controller-runtime v0.22.4 no longer serves; no mutating webhook is listed"
            ),
            (
                "api/v1/legacy.go",
                22,
                "Legacy implements the legacy webhook.Validator (ValidateCreate() on the type), which controller-runtime v0.22.4 no longer serves; no validating webhook is listed"
            ),
            (
                "api/v1/legacy.go",
                22,
                "this webhook builder for example.io/v1 Legacy registers no webhook: it has no defaulter or validator, and the kind has no conversion between versions (a Hub() version and a ConvertTo() version)"
            ),
            (
                "cmd/main.go",
                27,
                "custom webhook path `pathFor(\"x\")` is not a string constant; the path is shown as ?"
            ),
            (
                "cmd/main.go",
                31,
                "cannot resolve the API group of example.com/elsewhere/api.Thing; map its import path under [groups] in projects.toml"
            ),
            (
                "cmd/main.go",
                31,
                "the paths of the webhooks served for Thing are unknown because its API group is unresolved"
            ),
            (
                "cmd/main.go",
                33,
                "this webhook builder for example.io/v1 Widget registers no webhook: it has no defaulter or validator, and the kind has no conversion between versions (a Hub() version and a ConvertTo() version)"
            ),
            (
                "cmd/main.go",
                34,
                "webhook builder without For(…): which kind it serves is unknown, so its paths are not listed"
            ),
        ]
    );
}

#[test]
fn legacy_defaulters_are_served_before_v0_20_only() {
    use WebhookType::*;
    let legacy_rows = |rows: Vec<Row>| -> Vec<Row> {
        rows.into_iter()
            .filter(|r| r.2.ends_with("Legacy"))
            .collect()
    };
    let (rows, _) = analyze(Some("v0.19.0"));
    assert_eq!(
        legacy_rows(rows),
        vec![
            row(
                Mutating,
                "/mutate-example-io-v1-legacy",
                "example.io/v1 Legacy",
                22
            ),
            row(
                Validating,
                "/validate-example-io-v1-legacy",
                "example.io/v1 Legacy",
                22
            ),
        ]
    );
    let (rows, diags) = analyze(None);
    assert!(legacy_rows(rows).is_empty());
    assert!(diags.iter().any(|(f, l, m)| f == "api/v1/legacy.go"
            && *l == 22
            && m == "Legacy implements the legacy webhook.Defaulter, served only before controller-runtime v0.20, and the controller-runtime version is not known from go.mod; no mutating webhook is listed"));
}

#[test]
fn the_for_of_a_webhook_builder_is_never_a_watch() {
    let f = extract("cmd/main.go", MAIN);
    assert!(f.controllers.is_empty(), "{:?}", f.controllers);
    assert_eq!(f.webhook_builders.len(), 9);
}

#[test]
fn generated_paths_follow_controller_runtime() {
    let gvk = |g: &str, v: &str, k: &str| Gvk {
        group: g.into(),
        version: v.into(),
        kind: k.into(),
    };
    assert_eq!(
        generated_path(
            WebhookType::Mutating,
            &gvk("serving.kserve.io", "v1beta1", "InferenceService")
        ),
        "/mutate-serving-kserve-io-v1beta1-inferenceservice"
    );
    // The core group is empty, so controller-runtime's path has two dashes.
    assert_eq!(
        generated_path(WebhookType::Validating, &gvk("", "v1", "Pod")),
        "/validate--v1-pod"
    );
    assert_eq!(
        generated_path(WebhookType::Conversion, &gvk("a", "v1", "B")),
        "/convert"
    );
}

#[test]
fn deep_nesting_and_broken_go_do_not_panic() {
    let mut deep = String::from(
        "package p\n// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get\nfunc f() {\n\t_ = ctrl.NewWebhookManagedBy(mgr).For(&v1.X{}).WithValidator(",
    );
    deep.push_str(&"(".repeat(20_000));
    deep.push('v');
    deep.push_str(&")".repeat(20_000));
    deep.push_str(").Complete()\n}\n");
    let f = extract("deep.go", &deep);
    assert_eq!(f.webhook_builders.len(), 1);
    assert_eq!(f.package_markers.len(), 1);

    let broken = "package p\n// +kubebuilder:webhook:path=\"/x,mutating=\nfunc f() {\n\tctrl.NewWebhookManagedBy(mgr).For(\n\ts := \"unterminated\n}\n// +kubebuilder:object:root=true\ntype\n";
    let f = extract("broken.go", broken);
    assert!(f.parse_errors);
    assert!(f.package_markers.is_empty());
}

#[test]
fn controller_runtime_version_from_go_mod() {
    let v = |s: &str| controller_runtime_version(s);
    assert_eq!(
            v("module m\n\nrequire (\n\tk8s.io/api v0.31.0\n\tsigs.k8s.io/controller-runtime v0.19.0 // indirect\n)\n").as_deref(),
            Some("v0.19.0")
        );
    assert_eq!(
        v("module m\nrequire sigs.k8s.io/controller-runtime v0.18.2\n").as_deref(),
        Some("v0.18.2")
    );
    assert_eq!(
            v("module m\nrequire sigs.k8s.io/controller-runtime v0.23.3\n// pinned\nreplace sigs.k8s.io/controller-runtime => sigs.k8s.io/controller-runtime v0.22.5\n").as_deref(),
            Some("v0.22.5")
        );
    assert_eq!(
        v(
            "module m\nrequire sigs.k8s.io/controller-runtime v0.23.3\nreplace (\n\tsigs.k8s.io/controller-runtime => ../controller-runtime\n)\n"
        ),
        None
    );
    assert_eq!(v("module m\n"), None);
    assert_eq!(serves_legacy("v0.19.7"), Some(true));
    assert_eq!(serves_legacy("v0.20.0"), Some(false));
    assert_eq!(serves_legacy("latest"), None);
}

#[test]
fn the_generic_builder_takes_its_object_from_the_receiver_or_a_typed_local() {
    let types = "package v1\nvar GroupVersion = schema.GroupVersion{Group: \"example.io\", Version: \"v1\"}\ntype Widget struct{}\ntype Gadget struct{}\n";
    let setup = r#"package v1

import ctrl "sigs.k8s.io/controller-runtime"

func (w *Widget) SetupWebhookWithManager(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, w).WithValidator(&widgetValidator{}).Complete()
}

func SetupGadget(mgr ctrl.Manager) error {
	obj := &Gadget{}
	return ctrl.NewWebhookManagedBy(mgr, obj).WithDefaulter(&gadgetDefaulter{}).Complete()
}
"#;
    let files = vec![
        input("api/v1/types.go", types),
        input("api/v1/setup.go", setup),
    ];
    let modules = vec![GoModule {
        dir: String::new(),
        path: "example.com/op".into(),
        controller_runtime: Some("v0.23.0".into()),
    }];
    let groups = BTreeMap::new();
    let mut diags = Vec::new();
    let index = GoIndex::build(&files, &modules, &groups, &mut diags);
    let rows: Vec<(WebhookType, String, u32)> = resolve(&files, &index, &modules, &mut diags)
        .into_iter()
        .map(|w| (w.kind, w.path, w.sources[0].line))
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                WebhookType::Validating,
                "/validate-example-io-v1-widget".to_string(),
                6
            ),
            (
                WebhookType::Mutating,
                "/mutate-example-io-v1-gadget".to_string(),
                11
            ),
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}
