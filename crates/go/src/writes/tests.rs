use super::*;
use crate::calls::Graph;
use crate::controllers;
use crate::file::extract;
use crate::index::GoInput;
use crate::values::Values;
use model::{Area, Controller, Diagnostic, Operation, SourceRef};

const TYPES: &str = r#"package v1
import "k8s.io/apimachinery/pkg/runtime/schema"
var GroupVersion = schema.GroupVersion{Group: "example.io", Version: "v1"}
type Widget struct{}
"#;

const CONTROLLER: &str = r#"package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"k8s.io/client-go/kubernetes"

	v1 "example.com/op/api/v1"
)

type WidgetReconciler struct {
	client.Client
	Clientset kubernetes.Interface
	cache     Cache
	Services  []*corev1.Service
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Status().Update(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	r.Create(ctx, &corev1.ConfigMap{})
	existing := &appsv1.Deployment{}
	r.Delete(ctx, existing)
	svc := r.desiredService()
	controllerutil.CreateOrUpdate(ctx, r.Client, svc, func() error { return nil })
	list := &corev1.SecretList{}
	for _, s := range list.Items {
		r.Patch(ctx, &s, client.Apply)
	}
	for i := range r.Services {
		r.Update(ctx, r.Services[i])
	}
	r.ensure(ctx, &corev1.Pod{})
	r.cache.Create(ctx, w)
	r.Clientset.CoreV1().ConfigMaps("ns").Delete(ctx, "name", metav1.DeleteOptions{})
	var mystery client.Object
	r.Delete(ctx, mystery)
	return ctrl.Result{}, nil
}

func (r *WidgetReconciler) desiredService() *corev1.Service { return nil }

func (r *WidgetReconciler) ensure(ctx context.Context, obj client.Object) error {
	return r.Update(ctx, obj)
}

func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}

func cleanup(ctx context.Context, c client.Client) {
	c.DeleteAllOf(ctx, &appsv1.Deployment{})
}
"#;

/// Go inputs of test sources; a `_test.go` file is a sample.
fn inputs_of(files: &[(&str, &str)]) -> Vec<GoInput> {
    files
        .iter()
        .map(|(p, s)| GoInput {
            facts: extract(p, s),
            area: if p.ends_with("_test.go") {
                Area::Samples
            } else {
                Area::Component
            },
        })
        .collect()
}

/// The project's controllers with their writes and reads resolved, its package writes
/// and the diagnostics, for inputs of module `module`.
fn resolved(inputs: &[GoInput], module: &str) -> (Vec<Controller>, Writes, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let index = crate::test_support::index(inputs, module, &mut diags);
    let values = Values::new(inputs, &index);
    let mut controllers = controllers::resolve(inputs, &values, &mut diags);
    let graph = Graph::build(inputs, &index);
    let reach = controller_reach(&values, &graph, &controllers, (&[], &[]), &mut diags);
    let writes = resolve(&values, &graph, &reach, &mut controllers, &mut diags);
    (controllers, writes, diags)
}

fn rows(files: &[(&str, &str)]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (ops, _, pkg, diags) = rows_and_reads(files);
    (ops, pkg, diags)
}

/// Controllers' writes, their reads, package writes and diagnostics.
fn rows_and_reads(files: &[(&str, &str)]) -> (Vec<String>, Vec<String>, Vec<String>, Vec<String>) {
    let (controllers, writes, diags) = resolved(&inputs_of(files), "example.com/op");
    // Every source line: the call site, then the helper's own write line.
    let fmt = |verb: &str, g: &str, v: &str, k: &str, s: &[SourceRef]| {
        let lines: Vec<String> = s.iter().map(|s| s.line.to_string()).collect();
        format!("{verb} {g}/{v} {k} @{}", lines.join("+"))
    };
    let of = |list: fn(&Controller) -> &Vec<Operation>| -> Vec<String> {
        controllers
            .iter()
            .flat_map(|c| list(c).iter())
            .map(|o| fmt(o.verb.as_str(), &o.group, &o.version, &o.kind, &o.sources))
            .collect()
    };
    let (ops, reads) = (of(|c| &c.operations), of(|c| &c.reads));
    let pkg = writes
        .package_operations
        .iter()
        .map(|o| {
            format!(
                "{} {}",
                o.function,
                fmt(o.verb.as_str(), &o.group, &o.version, &o.kind, &o.sources)
            )
        })
        .collect();
    (
        ops,
        reads,
        pkg,
        diags
            .iter()
            .map(|d| format!("{}: {}", d.line, d.message))
            .collect(),
    )
}

#[test]
fn writes_get_kinds_and_are_attributed_to_the_reconciler() {
    let (ops, pkg, diags) = rows(&[
        ("api/v1/types.go", TYPES),
        ("internal/controller/widget.go", CONTROLLER),
    ]);
    assert_eq!(
        ops,
        vec![
            "status_update example.io/v1 Widget @25",
            "create /v1 ConfigMap @28",
            "delete apps/v1 Deployment @30",
            "create_or_update /v1 Service @32",
            "apply /v1 Secret @35",
            "update /v1 Service @38",
            "update /v1 Pod @40+51",
            "delete /v1 ConfigMap @42",
            "delete ?/? ? @44",
        ]
    );
    assert_eq!(pkg, vec!["cleanup delete_all_of apps/v1 Deployment @59"]);
    assert_eq!(
        diags,
        vec![
            "44: cannot tell the kind of the object this delete writes (type client.Object is not a known API type)"
        ]
    );
}

const GENERIC: &str = r#"package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

type writer interface {
	client.Writer
}

type kubeClient interface {
	writer
	Close() error
}

type notes interface {
	Create(ctx context.Context, obj client.Object) error
}

type WidgetReconciler struct {
	client.Client
	kube  kubeClient
	notes notes
	Pods  map[string]*corev1.Pod
}

func Apply[O client.Object, T client.Object](ctx context.Context, c kubeClient, owner O, empty, want T) error {
	cur := empty.DeepCopyObject().(T)
	if cur == nil {
		return Create(ctx, c, owner, want)
	}
	return c.Update(ctx, want)
}

func Create[O, T client.Object](ctx context.Context, c kubeClient, owner O, obj T) error {
	return c.Create(ctx, obj)
}

func Remove[T client.Object](ctx context.Context, c kubeClient, obj T) error {
	gone := obj.DeepCopyObject().(T)
	return c.Delete(ctx, gone)
}

func Note[T client.Object](ctx context.Context, n notes, obj T) error {
	return n.Create(ctx, obj)
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	Apply(ctx, r.kube, w, &corev1.ConfigMap{}, r.desired())
	Remove(ctx, r.kube, &corev1.Service{})
	Remove[*corev1.Pod](ctx, r.kube, r.Pods["a"])
	Remove(ctx, r.kube, r.mystery())
	Note(ctx, r.notes, w)
	return ctrl.Result{}, nil
}

func (r *WidgetReconciler) desired() *corev1.ConfigMap { return nil }

func (r *WidgetReconciler) mystery() client.Object { return nil }

func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

#[test]
fn generic_helpers_write_the_kinds_of_their_call_sites() {
    let (ops, pkg, diags) = rows(&[
        ("api/v1/types.go", TYPES),
        ("internal/controller/widget.go", GENERIC),
    ]);
    // Reported at the call sites in Reconcile; Create is reached through Apply; the
    // interface embedding an interface embedding client.Writer is a client, `notes`
    // (with a Create method of its own) is not; `Remove[*corev1.Pod]` names the kind
    // the map element does not.
    assert_eq!(
        ops,
        vec![
            "update /v1 ConfigMap @56+38",
            "create /v1 ConfigMap @56+42",
            "delete /v1 Service @57+47",
            "delete /v1 Pod @58+47",
            "delete ?/? ? @59+47",
        ]
    );
    assert!(pkg.is_empty(), "{pkg:?}");
    assert_eq!(
        diags,
        vec![
            "59: cannot tell the kind of the object this delete writes (the result of mystery is not a known API type)"
        ]
    );
}

/// A factory declared to return an interface: its `return` statements tell the kinds.
const FACTORY: &str = r#"package controller

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

type Reconciler struct {
	client.Client
}

func blank(kind string) (client.Object, error) {
	switch kind {
	case "config":
		cm := &corev1.ConfigMap{}
		return cm, nil
	case "secret":
		return &corev1.Secret{}, nil
	}
	return nil, errors.New("unknown kind")
}

func opaque(kind string) client.Object {
	if kind == "" {
		return &corev1.Service{}
	}
	return lookup(kind)
}

func lookup(kind string) client.Object { return nil }

func (r *Reconciler) touch(ctx context.Context, obj client.Object) error {
	return r.Update(ctx, obj)
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj, err := blank(req.Name)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Create(ctx, obj); err != nil {
		return ctrl.Result{}, err
	}
	_ = r.touch(ctx, obj)
	_ = r.Delete(ctx, opaque(req.Name))
	return ctrl.Result{}, nil
}

func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

#[test]
fn a_factory_returning_an_interface_writes_the_kinds_it_returns() {
    let (ops, pkg, diags) = rows(&[
        ("api/v1/types.go", TYPES),
        ("internal/controller/widget.go", FACTORY),
    ]);
    // `blank` returns a ConfigMap or a Secret (nil is no kind): one row each, also
    // through the helper `touch`. One of `opaque`'s returns cannot be followed, so its
    // delete stays unknown rather than claiming only Service.
    assert_eq!(
        ops,
        vec![
            "create /v1 ConfigMap @47",
            "create /v1 Secret @47",
            "update /v1 ConfigMap @50+39",
            "update /v1 Secret @50+39",
            "delete ?/? ? @51",
        ]
    );
    assert!(pkg.is_empty(), "{pkg:?}");
    assert_eq!(
        diags,
        vec![
            "51: cannot tell the kind of the object this delete writes (the result of opaque is not a known API type)"
        ]
    );
}

/// Objects whose kind is set at run time: constant GroupVersionKinds are followed,
/// through a list's items; a kind from a variable is not guessed.
const SET_KIND: &str = r#"package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

const gadgetKind = "Gadget"

type Reconciler struct {
	client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	meta := &metav1.PartialObjectMetadata{}
	meta.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	if err := r.Get(ctx, req.NamespacedName, meta); err != nil {
		return ctrl.Result{}, err
	}
	_ = r.Patch(ctx, meta, client.MergeFrom(meta.DeepCopy()))

	owned := &metav1.PartialObjectMetadataList{}
	owned.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("DeploymentList"))
	_ = r.List(ctx, owned)
	for _, item := range owned.Items {
		_ = r.Delete(ctx, &item)
	}

	gadget := &unstructured.Unstructured{}
	gadget.SetGroupVersionKind(schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: gadgetKind})
	_ = r.Create(ctx, gadget)
	return ctrl.Result{}, nil
}

func (r *Reconciler) mirror(ctx context.Context, gvk schema.GroupVersionKind) error {
	obj := &unstructured.Unstructured{}
	obj.SetGroupVersionKind(gvk)
	return r.Update(ctx, obj)
}

func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	_ = r.mirror(context.Background(), schema.GroupVersionKind{})
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

#[test]
fn kinds_set_with_constant_group_version_kinds_are_followed() {
    let (ops, reads, pkg, diags) = rows_and_reads(&[
        ("api/v1/types.go", TYPES),
        ("internal/controller/widget.go", SET_KIND),
    ]);
    assert_eq!(
        ops,
        vec![
            "patch /v1 ConfigMap @29",
            "delete apps/v1 Deployment @35",
            "create example.io/v1 Gadget @40",
        ]
    );
    assert_eq!(
        reads,
        vec!["get /v1 ConfigMap @26", "list apps/v1 Deployment @33"]
    );
    // `mirror` is not reached from Reconcile: its write is the package's, and its kind,
    // set from a parameter, stays unknown.
    assert_eq!(pkg, vec!["Reconciler.mirror update ?/? ? @47"]);
    assert_eq!(
        diags,
        vec![
            "47: cannot tell the kind of the object this update writes (type unstructured.Unstructured is not a known API type)"
        ]
    );
}

/// The fixture operator `tests/fixtures/callgraph-operator`: the call path of each row
/// as `function@line` steps after `via`, and its condition after `if`.
fn callgraph_rows() -> (Vec<String>, Vec<String>, Vec<String>) {
    macro_rules! fixture {
            ($($path:literal),*) => {
                [$(($path, include_str!(concat!("../../../../tests/fixtures/callgraph-operator/", $path)))),*]
            };
        }
    let files = fixture!(
        "api/v1/types.go",
        "internal/controller/vessel_controller.go",
        "internal/parts/part.go",
        "internal/parts/part_test.go",
        "internal/subs/subs.go",
        "internal/base/finalizers.go",
        "internal/status/status.go",
        "internal/util/mutate.go",
        "internal/controller/dock_controller.go"
    );
    let (controllers, _, diags) = resolved(&inputs_of(&files), "example.com/shipyard");
    let fmt = |o: &Operation| {
        let via: Vec<String> = o
            .via
            .iter()
            .map(|s| format!("{}@{}", s.function, s.line))
            .collect();
        let mut row = format!(
            "{} {}/{} {} @{}:{}",
            o.verb, o.group, o.version, o.kind, o.sources[0].file, o.sources[0].line
        );
        if !via.is_empty() {
            row.push_str(&format!(" via {}", via.join(" > ")));
        }
        if !o.condition.is_empty() {
            row.push_str(&format!(" [{}]", o.condition));
        }
        row
    };
    // Each row after its controller's name.
    let of = |ops: fn(&Controller) -> &Vec<Operation>| {
        controllers
            .iter()
            .flat_map(|c| ops(c).iter().map(|o| format!("{}: {}", c.name, fmt(o))))
            .collect()
    };
    (
        of(|c| &c.operations),
        of(|c| &c.reads),
        diags
            .iter()
            .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
            .collect(),
    )
}

#[test]
fn writes_across_packages_are_attributed_with_their_call_paths() {
    let (writes, reads, diags) = callgraph_rows();
    // The helpers' objects are parameters: each controller's call path gives the kind
    // (through `finish`'s own parameter for the dock; in a closure for `Mutate`), and
    // an argument typed only as an interface gives none.
    assert_eq!(
        writes,
        vec![
            "vessel: patch shipyard.example.com/v1 Vessel @internal/base/finalizers.go:15 via base.Finalizers.EnsureFinalizer@56",
            "vessel: status_update shipyard.example.com/v1 Vessel @internal/controller/vessel_controller.go:61 [in a closure]",
            "vessel: create /v1 ConfigMap @internal/controller/vessel_controller.go:67 via controller.VesselReconciler.reconcileLog@49",
            "vessel: create apps/v1 Deployment @internal/parts/part.go:27 via parts.Hull.Reconcile@40",
            "vessel: update /v1 Service @internal/parts/part.go:41 via parts.Mast.Reconcile@40 [if vessel.Spec.Exposed]",
            "vessel: status_update shipyard.example.com/v1 Vessel @internal/status/status.go:11 via status.MarkReady@57",
            "vessel: patch /v1 ResourceQuota @internal/subs/subs.go:23 via subs.QuotaReconciler.Reconcile@31",
            "vessel: delete networking.k8s.io/v1 Ingress @internal/subs/subs.go:44 via subs.ingressRouter.Reconcile@46",
            "vessel: create /v1 Secret @internal/subs/subs.go:59 via subs.secretSyncer.Sync@55",
            "vessel: patch /v1 ConfigMap @internal/util/mutate.go:16 via util.Mutate@59 [in a closure]",
            "dock: status_update ?/? ? @internal/status/status.go:11 via status.MarkReady@27",
            "dock: status_update shipyard.example.com/v1 Dock @internal/status/status.go:11 via controller.DockReconciler.finish@28 > status.MarkReady@33",
            "dock: patch /v1 Secret @internal/util/mutate.go:16 via util.Mutate@26 [in a closure]",
        ]
    );
    assert_eq!(
        reads,
        vec![
            "vessel: get shipyard.example.com/v1 Vessel @internal/controller/vessel_controller.go:27",
            "vessel: list /v1 Pod @internal/controller/vessel_controller.go:72 via controller.VesselReconciler.reconcileCrew@49",
            "dock: get shipyard.example.com/v1 Dock @internal/controller/dock_controller.go:23",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "internal/controller/dock_controller.go:27: cannot tell the kind of the object the status_update at internal/status/status.go:11 writes through this call: the argument given is of type client.Object, which is not a known API type"
        ]
    );
}

const CLIENT_FORMS: &str = r#"package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"github.com/fluxcd/pkg/runtime/patch"

	v1 "example.com/op/api/v1"
	"example.com/op/pkg/generated/clientset/versioned"
)

type GadgetReconciler struct {
	client.Client
	gen     versioned.Interface
	patcher *patch.SerialPatcher
}

func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	g := &v1.Widget{}
	r.Client.Update(ctx, g)
	ctrl.CreateOrUpdate(ctx, r.Client, &corev1.Secret{}, func() error { return nil })
	sp := patch.NewSerialPatcher(g, r.Client)
	sp.Patch(ctx, g)
	r.patcher.Patch(ctx, &corev1.ConfigMap{})
	r.gen.ExampleV1().Widgets("ns").Delete(ctx, "name", metav1.DeleteOptions{})
	r.gen.ExampleV1().Gizmos("ns").Delete(ctx, "name", metav1.DeleteOptions{})
	var anything v1.Shape
	r.Delete(ctx, anything)
	return ctrl.Result{}, nil
}

func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

const SHAPES: &str = r#"package v1

import "sigs.k8s.io/controller-runtime/pkg/client"

// Shape is what several kinds of this package have in common; it is not a kind.
type Shape interface {
	client.Object
	Sides() int
}
"#;

#[test]
fn every_client_form_is_a_client() {
    // An embedded client named by its field, controller-runtime's root re-export of
    // CreateOrUpdate, fluxcd's serial patcher (made in place and held in a field), the
    // repository's own generated clientset (client-gen's naming: `ExampleV1`, plural
    // `Widgets`), and an API package's interface, which is never a kind.
    let (ops, pkg, diags) = rows(&[
        ("api/v1/types.go", TYPES),
        ("api/v1/shapes.go", SHAPES),
        (
            "pkg/generated/clientset/versioned/clientset.go",
            GENERATED_CLIENTSET,
        ),
        (
            "pkg/generated/clientset/versioned/typed/api/v1/example_client.go",
            GENERATED_TYPED,
        ),
        ("internal/controller/gadget.go", CLIENT_FORMS),
    ]);
    assert_eq!(
        ops,
        vec![
            "update example.io/v1 Widget @23",
            "create_or_update /v1 Secret @24",
            "patch example.io/v1 Widget @26",
            "patch /v1 ConfigMap @27",
            "delete example.io/v1 Widget @28",
            "delete ?/? ? @29",
            "delete ?/? ? @31",
        ]
    );
    assert!(pkg.is_empty(), "{pkg:?}");
    assert_eq!(
        diags,
        vec![
            "29: cannot tell the kind written through the clientset accessor ExampleV1().Gizmos(…): no one type of the API package example.com/op/api/v1 (example.io/v1) is this resource",
            "31: cannot tell the kind of the object this delete writes (type v1.Shape is not a known API type)",
        ]
    );
}

#[test]
fn clients_in_package_level_variables_and_made_by_client_new_are_clients() {
    // A package-level variable of a client type (this package's and another's), a client
    // made by controller-runtime's `client.New`, a parameter of a struct embedding a
    // client, a local given a receiver's client field; a package-level string is not one,
    // nor a local given a string field.
    let (ops, pkg, diags) = rows(&[
        (
            "pkg/hooks/hooks.go",
            r#"package hooks

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var kc client.Client

var (
	Shared client.Client
	name   string
)

func Clean(ctx context.Context, cfg *rest.Config) {
	_ = kc.Delete(ctx, &corev1.ConfigMap{})
	direct, _ := client.New(cfg, client.Options{})
	_ = direct.Create(ctx, &corev1.Secret{})
	_ = name.Delete(ctx, &corev1.Secret{})
}

// A struct embedding a client, handed to a helper as a parameter.
type Cleaner struct {
	client.Client
}

func sweep(ctx context.Context, r *Cleaner) {
	_ = r.Delete(ctx, &corev1.Service{})
}

// Locals given the receiver's fields, on branches: a client when the field is one.
type Sweeper struct {
	Primary  client.Client
	Fallback client.Client
	Label    string
}

func (s *Sweeper) sweep(ctx context.Context) {
	writer := s.Primary
	if writer == nil {
		writer = s.Fallback
	}
	_ = writer.Delete(ctx, &corev1.Endpoints{})
	label := s.Label
	_ = label.Delete(ctx, &corev1.Endpoints{})
}
"#,
        ),
        (
            "pkg/cleanup/cleanup.go",
            r#"package cleanup

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"example.com/op/pkg/hooks"
)

func Run(ctx context.Context) {
	_ = hooks.Shared.Delete(ctx, &corev1.Pod{})
}
"#,
        ),
    ]);
    assert!(ops.is_empty(), "{ops:?}");
    assert_eq!(
        pkg,
        vec![
            "Run delete /v1 Pod @12",
            "Clean delete /v1 ConfigMap @19",
            "Clean create /v1 Secret @21",
            "sweep delete /v1 Service @31",
            "Sweeper.sweep delete /v1 Endpoints @46",
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn a_type_switch_case_and_values_assigned_on_branches_give_their_kinds() {
    // In a case naming one type the switch's variable has it; a case of several types says
    // nothing. A variable assigned on several branches before the call is any of their
    // values (a declaration without a value adds none); one of unknown kind makes it `?`.
    // Appending on a branch keeps the slice's element type; the other branch of an `if`
    // never sees what one branch assigned.
    let (_, pkg, diags) = rows(&[(
        "pkg/sweep/sweep.go",
        r#"package sweep

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Sweep(ctx context.Context, c client.Client, obj client.Object, kind string) {
	switch o := obj.(type) {
	case *corev1.Pod:
		_ = c.Delete(ctx, o)
	case *corev1.Secret, *corev1.ConfigMap:
		_ = c.Delete(ctx, o)
	}
	var target client.Object
	switch kind {
	case "svc":
		target = &corev1.Service{}
	case "sa":
		target = &corev1.ServiceAccount{}
	default:
		return
	}
	_ = c.Update(ctx, target)
	cm := &corev1.ConfigMap{}
	if kind == "x" {
		cm = &corev1.ConfigMap{}
	}
	_ = c.Create(ctx, cm)
	var other client.Object = &corev1.Node{}
	if kind == "y" {
		other = obj
	}
	_ = c.Delete(ctx, other)
	var pods []*corev1.Pod
	if kind == "p" {
		pods = append(pods, &corev1.Pod{})
	}
	for _, p := range pods {
		_ = c.Delete(ctx, p)
	}
	var secret client.Object
	secret = &corev1.Secret{}
	if kind == "s" {
		secret = lookup()
	} else {
		_ = c.Delete(ctx, secret)
	}
}

func lookup() client.Object { return nil }
"#,
    )]);
    assert_eq!(
        pkg,
        vec![
            "Sweep delete /v1 Pod @13",
            "Sweep delete ?/? ? @15",
            "Sweep update /v1 Service @26",
            "Sweep update /v1 ServiceAccount @26",
            "Sweep create /v1 ConfigMap @31",
            "Sweep delete ?/? ? @36",
            "Sweep delete /v1 Pod @42",
            "Sweep delete /v1 Secret @49",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "15: cannot tell the kind of the object this delete writes (`o` has no declaration the analyzer can follow)",
            "36: cannot tell the kind of the object this delete writes (it is one of 2 values assigned on different branches, not each of a known kind)",
        ]
    );
}

#[test]
fn a_type_registered_under_a_kind_name_of_its_own_is_that_kind() {
    // The scheme registers `Gizmo` as kind `gizmo`: that is the kind the API server
    // serves, and the one its objects are written as.
    let (_, pkg, diags) = rows(&[
        (
            "api/v1/register.go",
            r#"package v1

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

const kindName = "gizmo"

var SchemeGroupVersion = schema.GroupVersion{Group: "gizmos.example.io", Version: "v1"}

type Gizmo struct{}

type Widget struct{}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypeWithName(SchemeGroupVersion.WithKind(kindName), &Gizmo{})
	scheme.AddKnownTypes(SchemeGroupVersion, &Widget{})
	return nil
}
"#,
        ),
        (
            "pkg/tidy/tidy.go",
            r#"package tidy

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

func Tidy(ctx context.Context, c client.Client) {
	_ = c.Delete(ctx, &v1.Gizmo{})
	_ = c.Delete(ctx, &v1.Widget{})
}
"#,
        ),
    ]);
    assert_eq!(
        pkg,
        vec![
            "Tidy delete gizmos.example.io/v1 gizmo @12",
            "Tidy delete gizmos.example.io/v1 Widget @13",
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn objects_collected_in_a_slice_and_written_in_a_loop_keep_their_kinds() {
    // A slice literal's elements and what is appended to it, ranged over and written: each
    // element's kind (a factory's result included). A helper writing the elements of its
    // slice parameter writes the kinds of what its callers pass; a slice handed over from
    // elsewhere (`fromElsewhere()`) stays `?`.
    let (_, pkg, diags) = rows(&[(
        "pkg/apply/apply.go",
        r#"package apply

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func newSecret() *corev1.Secret { return &corev1.Secret{} }

func Direct(ctx context.Context, c client.Client) {
	objs := []client.Object{&corev1.ConfigMap{}, newSecret()}
	objs = append(objs, &corev1.Service{})
	for _, o := range objs {
		_ = c.Create(ctx, o)
	}
}

func applyAll(ctx context.Context, c client.Client, objs []client.Object) {
	for _, o := range objs {
		_ = c.Patch(ctx, o, client.Apply)
	}
}

func Caller(ctx context.Context, c client.Client) {
	applyAll(ctx, c, []client.Object{&appsv1.Deployment{}, &corev1.ServiceAccount{}})
}

func fromElsewhere() []client.Object { return nil }

func Elsewhere(ctx context.Context, c client.Client) {
	for _, o := range fromElsewhere() {
		_ = c.Delete(ctx, o)
	}
}
"#,
    )]);
    assert_eq!(
        pkg,
        vec![
            "Direct create /v1 Secret @17",
            "Direct create /v1 ConfigMap @17",
            "Direct create /v1 Service @17",
            "Caller apply apps/v1 Deployment @28+23",
            "Caller apply /v1 ServiceAccount @28+23",
            "Elsewhere delete ?/? ? @35",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "35: cannot tell the kind of the object this delete writes (the element type of the collection is not known)"
        ]
    );
}

/// The repository's generated clientset: its accessors' typed packages.
const GENERATED_CLIENTSET: &str = r#"// Code generated by client-gen. DO NOT EDIT.

package versioned

import (
	examplev1 "example.com/op/pkg/generated/clientset/versioned/typed/api/v1"
)

type Interface interface {
	ExampleV1() examplev1.ExampleV1Interface
}

type Clientset struct {
	exampleV1 *examplev1.ExampleV1Client
}

func (c *Clientset) ExampleV1() examplev1.ExampleV1Interface { return c.exampleV1 }
"#;

/// A generated typed package of the repository, named by client-gen after the API
/// package's folder (`api`), not after the group: the accessor is the interface it
/// declares.
const GENERATED_TYPED: &str = r#"// Code generated by client-gen. DO NOT EDIT.

package v1

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "example.com/op/api/v1"
)

type ExampleV1Interface interface {
	WidgetsGetter
}

type WidgetsGetter interface {
	Widgets(namespace string) WidgetInterface
}

type WidgetInterface interface {
	UpdateStatus(ctx context.Context, w *v1.Widget, opts metav1.UpdateOptions) (*v1.Widget, error)
}
"#;

const TYPED_VALUES: &str = r#"package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	appsclient "k8s.io/client-go/kubernetes/typed/apps/v1"
	coreclient "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/scale"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
	exampleclient "example.com/op/pkg/generated/clientset/versioned/typed/api/v1"
	thingsclient "example.org/things/pkg/client/clientset/versioned/typed/things/v1"
	gatewayclient "sigs.k8s.io/gateway-api/pkg/client/clientset/versioned/typed/apis/v1"
)

type notebook struct{}

func (n notebook) Create(ctx context.Context, obj any, note string) error { return nil }
func (n notebook) Pages(ns string) notebook                           { return n }

type TypedReconciler struct {
	client.Client
	kube    kubernetes.Interface
	secrets coreclient.SecretInterface
	maps    coreclient.ConfigMapsGetter
	example exampleclient.ExampleV1Interface
	widgets exampleclient.WidgetInterface
	things  thingsclient.ThingInterface
	scales  scale.ScalesGetter
	notes   notebook
	core    coreclient.CoreV1Interface
	gateway gatewayclient.GatewayV1Interface
}

func (r *TypedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	r.secrets.Create(ctx, &corev1.Secret{}, metav1.CreateOptions{})
	r.maps.ConfigMaps(req.Namespace).Apply(ctx, nil, metav1.ApplyOptions{})
	r.example.Widgets(req.Namespace).Create(ctx, w, metav1.CreateOptions{})
	r.widgets.UpdateStatus(ctx, w, metav1.UpdateOptions{})
	r.things.Delete(ctx, "name", metav1.DeleteOptions{})
	r.scales.Scales(req.Namespace).Update(ctx, schema.GroupResource{}, nil, metav1.UpdateOptions{})
	slices := r.kube.DiscoveryV1().EndpointSlices(req.Namespace)
	if _, err := slices.Get(ctx, "old", metav1.GetOptions{}); err == nil {
		slices.Delete(ctx, "old", metav1.DeleteOptions{})
	}
	prune(ctx, r.kube.AppsV1().StatefulSets(req.Namespace), "old")
	r.Status().Update(ctx, w)
	r.notes.Create(ctx, w, "done")
	r.notes.Pages(req.Namespace).Create(ctx, w, "done")
	r.core.Services(req.Namespace).Delete(ctx, "old", metav1.DeleteOptions{})
	r.gateway.HTTPRoutes(req.Namespace).Delete(ctx, "old", metav1.DeleteOptions{})
	r.secretsIn(req.Namespace).Delete(ctx, "old", metav1.DeleteOptions{})
	return ctrl.Result{}, nil
}

func (r *TypedReconciler) secretsIn(ns string) coreclient.SecretInterface {
	return r.kube.CoreV1().Secrets(ns)
}

func prune(ctx context.Context, sets appsclient.StatefulSetInterface, name string) {
	sets.Patch(ctx, name, types.MergePatchType, nil, metav1.PatchOptions{})
	sets.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
}

func (r *TypedReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

#[test]
fn typed_client_values_write_their_kinds() {
    // Resource interfaces in fields and parameters, group-version clients and getters
    // with their accessor, a local assigned a clientset chain (delete by name), the
    // scale client, a function's result; a typed package no table or generated
    // clientset explains gives `?`; a same-package type with a `Create` method is no
    // client, and the embedded controller-runtime client still gives exactly one row.
    let (ops, reads, pkg, diags) = rows_and_reads(&[
        ("api/v1/types.go", TYPES),
        (
            "pkg/generated/clientset/versioned/typed/api/v1/example_client.go",
            GENERATED_TYPED,
        ),
        ("internal/controller/typed.go", TYPED_VALUES),
    ]);
    assert_eq!(
        ops,
        vec![
            "create /v1 Secret @44",
            "apply /v1 ConfigMap @45",
            "create example.io/v1 Widget @46",
            "status_update example.io/v1 Widget @47",
            "delete ?/? ? @48",
            "update autoscaling/v1 Scale @49",
            "delete discovery.k8s.io/v1 EndpointSlice @52",
            "status_update example.io/v1 Widget @55",
            "delete /v1 Service @58",
            "delete gateway.networking.k8s.io/v1 HTTPRoute @59",
            "delete /v1 Secret @60",
            "patch apps/v1 StatefulSet @69",
            "delete_all_of apps/v1 StatefulSet @70",
        ]
    );
    assert_eq!(reads, vec!["get discovery.k8s.io/v1 EndpointSlice @51"]);
    assert!(pkg.is_empty(), "{pkg:?}");
    assert_eq!(
        diags,
        vec![
            "48: cannot tell the kind written through the typed client thingsV1().ThingInterface: the typed client package example.org/things/pkg/client/clientset/versioned/typed/things/v1 is not in the repository and not in the built-in table"
        ]
    );
}

#[test]
fn plurals_follow_client_gen() {
    for (kind, resource) in [
        ("ConfigMap", "ConfigMaps"),
        ("Ingress", "Ingresses"),
        ("NetworkPolicy", "NetworkPolicies"),
        ("Gateway", "Gateways"),
        ("StorageClass", "StorageClasses"),
        ("ComponentStatus", "ComponentStatuses"),
        ("Endpoints", "Endpoints"),
        ("Lease", "Leases"),
        ("Box", "Boxes"),
        ("Patch", "Patches"),
    ] {
        assert_eq!(crate::values::plural(kind), resource);
    }
    for (resource, kind) in [
        ("ConfigMaps", Some("ConfigMap")),
        ("Ingresses", Some("Ingress")),
        ("NetworkPolicies", Some("NetworkPolicy")),
        ("StorageClasses", Some("StorageClass")),
        ("ComponentStatuses", Some("ComponentStatus")),
        ("Endpoints", Some("Endpoints")),
        ("Leases", Some("Lease")),
        ("pods", None),
        ("S", None),
    ] {
        assert_eq!(crate::values::well_known_kind(resource).as_deref(), kind);
    }
}

const AUTOSCALING_TYPES: &str = r#"package v1alpha1

import "k8s.io/apimachinery/pkg/runtime/schema"

const GroupName = "autoscaling.internal.example.dev"

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}

type PodAutoscaler struct{}
type PodAutoscalerList struct{}
"#;

const AUTOSCALING_CLIENTSET: &str = r#"// Code generated by client-gen. DO NOT EDIT.

package versioned

import (
	autoscalingv1alpha1 "example.com/op/pkg/client/clientset/versioned/typed/autoscaling/v1alpha1"
)

type Interface interface {
	AutoscalingV1alpha1() autoscalingv1alpha1.AutoscalingV1alpha1Interface
}
"#;

const AUTOSCALING_TYPED: &str = r#"// Code generated by client-gen. DO NOT EDIT.

package v1alpha1

import (
	v1alpha1 "example.com/op/apis/autoscaling/v1alpha1"
	"example.com/op/pkg/client/clientset/versioned/scheme"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
)

type AutoscalingV1alpha1Interface interface {
	PodAutoscalersGetter
}

type PodAutoscalersGetter interface {
	PodAutoscalers(namespace string) PodAutoscalerInterface
}

type PodAutoscalerInterface interface {
	Get(name string) (*v1alpha1.PodAutoscaler, error)
}
"#;

const CLIENTSET_ROOTS: &str = r#"package cleanup

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	istio "istio.io/client-go/pkg/clientset/versioned"
	gateway "sigs.k8s.io/gateway-api/pkg/client/clientset/versioned"
	mesh "example.org/mesh/pkg/client/clientset/versioned"
	"example.org/wiring"

	own "example.com/op/pkg/client/clientset/versioned"
)

type clients struct {
	kubernetes.Interface
	gateways gateway.Interface
}

func Run(ctx context.Context, cfg *rest.Config, c clients, ours own.Interface, routes *istio.Clientset, x mesh.Interface, ext apiextensions.Interface) {
	ours.AutoscalingV1alpha1().PodAutoscalers("ns").Delete(ctx, "pa", metav1.DeleteOptions{})
	x.NetworkingV1alpha1().Ingresses("ns").Delete(ctx, "ing", metav1.DeleteOptions{})
	routes.NetworkingV1alpha3().VirtualServices("ns").Delete(ctx, "vs", metav1.DeleteOptions{})
	c.CoreV1().ConfigMaps("ns").Delete(ctx, "cm", metav1.DeleteOptions{})
	c.gateways.GatewayV1().HTTPRoutes("ns").Delete(ctx, "route", metav1.DeleteOptions{})
	ext.ApiextensionsV1().CustomResourceDefinitions().Delete(ctx, "crd", metav1.DeleteOptions{})
	cs, _ := kubernetes.NewForConfig(cfg)
	cs.CoreV1().Secrets("ns").Delete(ctx, "s", metav1.DeleteOptions{})
	wiring.Clients(ctx).AppsV1().Deployments("ns").Delete(ctx, "d", metav1.DeleteOptions{})
}

// Whatever implements it hands out a clientset of this type.
type accessor interface {
	Istio() *istio.Clientset
}

func Sweep(ctx context.Context, a accessor) {
	a.Istio().NetworkingV1alpha3().VirtualServices("ns").Delete(ctx, "vs", metav1.DeleteOptions{})
	services := a.Istio().NetworkingV1alpha3()
	services.ServiceEntries("ns").Delete(ctx, "se", metav1.DeleteOptions{})
}
"#;

#[test]
fn clientset_accessors_resolve_through_the_clientsets_package() {
    // The repository's clientset names its group through the typed package and the API
    // package it imports, never by the accessor's name (which would be Kubernetes'
    // `autoscaling`); well-known modules' clientsets by the module's API folders;
    // client-go's, through a struct embedding it or its constructor, by Kubernetes' own
    // groups. An unknown module's clientset and a clientset of untraceable type are `?`.
    // The typed package also imports Kubernetes' `autoscaling/v1` (for `Scale`): its API
    // package is the one it is named after.
    let (ops, pkg, diags) = rows(&[
        ("apis/autoscaling/v1alpha1/register.go", AUTOSCALING_TYPES),
        (
            "pkg/client/clientset/versioned/clientset.go",
            AUTOSCALING_CLIENTSET,
        ),
        (
            "pkg/client/clientset/versioned/typed/autoscaling/v1alpha1/autoscaling_client.go",
            AUTOSCALING_TYPED,
        ),
        ("pkg/cleanup/cleanup.go", CLIENTSET_ROOTS),
    ]);
    assert!(ops.is_empty(), "{ops:?}");
    assert_eq!(
        pkg,
        vec![
            "Run delete autoscaling.internal.example.dev/v1alpha1 PodAutoscaler @24",
            "Run delete ?/? ? @25",
            "Run delete networking.istio.io/v1alpha3 VirtualService @26",
            "Run delete /v1 ConfigMap @27",
            "Run delete gateway.networking.k8s.io/v1 HTTPRoute @28",
            "Run delete apiextensions.k8s.io/v1 CustomResourceDefinition @29",
            "Run delete /v1 Secret @31",
            "Run delete ?/? ? @32",
            "Sweep delete networking.istio.io/v1alpha3 VirtualService @41",
            "Sweep delete networking.istio.io/v1alpha3 ServiceEntry @43",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "25: cannot tell the kind written through the clientset accessor NetworkingV1alpha1().Ingresses(…): the clientset example.org/mesh/pkg/client/clientset/versioned is not in the repository and not in the built-in table",
            "32: cannot tell the kind written through the clientset accessor AppsV1().Deployments(…): the clientset's type is not known (the result of wiring.Clients has no declared type the analyzer can follow)",
        ]
    );
}

const SUBRESOURCE_WRITES: &str = r#"package drain

import (
	"context"

	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	coreclient "k8s.io/client-go/kubernetes/typed/core/v1"
)

const statusSubresource = "status"

func Drain(ctx context.Context, cs kubernetes.Interface, pods coreclient.PodInterface, data []byte) {
	cs.CoreV1().Pods("ns").Patch(ctx, "p", types.MergePatchType, data, metav1.PatchOptions{}, "status")
	pods.Patch(ctx, "p", types.MergePatchType, data, metav1.PatchOptions{}, statusSubresource)
	pods.Patch(ctx, "p", types.MergePatchType, data, metav1.PatchOptions{})
	cs.CoreV1().Services("ns").Patch(ctx, "s", types.MergePatchType, data, metav1.PatchOptions{}, "scale")
	cs.CoreV1().Pods("ns").EvictV1(ctx, &policyv1.Eviction{})
	pods.Evict(ctx, &policyv1beta1.Eviction{})
	cs.PolicyV1beta1().Evictions("ns").Evict(ctx, &policyv1beta1.Eviction{})
	cs.CoreV1().Nodes().EvictV1beta1(ctx, nil)
}
"#;

#[test]
fn status_patches_and_evictions_are_told_by_the_typed_call() {
    // A typed patch of the `status` subresource (a literal or a constant) is a
    // status_patch, of another subresource a patch; client-go's Evict methods on a Pod
    // client create a policy Eviction of their version, and so does the eviction client's
    // own `Evict`; on a client of another kind they are no write.
    let (_, pkg, diags) = rows(&[("pkg/drain/drain.go", SUBRESOURCE_WRITES)]);
    assert_eq!(
        pkg,
        vec![
            "Drain status_patch /v1 Pod @17",
            "Drain status_patch /v1 Pod @18",
            "Drain patch /v1 Pod @19",
            "Drain patch /v1 Service @20",
            "Drain create policy/v1 Eviction @21",
            "Drain create policy/v1beta1 Eviction @22",
            "Drain create policy/v1beta1 Eviction @23",
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

const DYNAMIC_WRITES: &str = r#"package sync

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	v1 "example.com/op/api/v1"
)

var widgets = schema.GroupVersionResource{Group: "example.io", Version: "v1", Resource: "widgets"}

type lookalike struct{}

func (lookalike) Resource(gvr schema.GroupVersionResource) lookalike { return lookalike{} }
func (lookalike) Create(ctx context.Context, u *unstructured.Unstructured, o metav1.CreateOptions) error {
	return nil
}

type syncer struct {
	dyn   dynamic.Interface
	other lookalike
}

func (s *syncer) Sync(ctx context.Context, cfg *rest.Config, u *unstructured.Unstructured, data []byte, gvr schema.GroupVersionResource) {
	s.dyn.Resource(widgets).Namespace("ns").Create(ctx, u, metav1.CreateOptions{})
	s.dyn.Resource(v1.GroupVersion.WithResource("widgets")).Namespace("ns").Update(ctx, u, metav1.UpdateOptions{}, "status")
	s.dyn.Resource(appsv1.SchemeGroupVersion.WithResource("deployments")).Namespace("ns").Patch(ctx, "d", types.MergePatchType, data, metav1.PatchOptions{})
	d, _ := dynamic.NewForConfig(cfg)
	d.Resource(schema.GroupVersionResource{Group: "example.io", Version: "v1", Resource: "gizmos"}).Delete(ctx, "g", metav1.DeleteOptions{})
	s.dyn.Resource(gvr).Namespace("ns").Apply(ctx, "x", u, metav1.ApplyOptions{})
	s.dyn.Resource(widgets).ApplyStatus(ctx, "w", u, metav1.ApplyOptions{})
	s.dyn.Resource(widgets).Namespace("ns").Get(ctx, "w", metav1.GetOptions{})
	s.other.Resource(widgets).Create(ctx, u, metav1.CreateOptions{})
}
"#;

#[test]
fn dynamic_client_writes_take_the_kind_of_their_resource() {
    // A package-level GroupVersionResource, an API package's `GroupVersion.WithResource`, a
    // built-in one, a literal of a resource no package or table knows (`?`), and a
    // parameter (`?`); a `status` subresource argument makes a status write. A same-package
    // type with `Resource` and `Create` methods is no dynamic client.
    let (_, pkg, diags) = rows(&[
        ("api/v1/types.go", TYPES),
        ("pkg/sync/sync.go", DYNAMIC_WRITES),
    ]);
    assert_eq!(
        pkg,
        vec![
            "syncer.Sync create example.io/v1 Widget @32",
            "syncer.Sync status_update example.io/v1 Widget @33",
            "syncer.Sync patch apps/v1 Deployment @34",
            "syncer.Sync delete ?/? ? @36",
            "syncer.Sync apply ?/? ? @37",
            "syncer.Sync status_patch example.io/v1 Widget @38",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "36: cannot tell the kind written through the dynamic client: resource `gizmos` of `example.io/v1` has no known kind",
            "37: cannot tell the kind written through the dynamic client: the resource `gvr` is not a GroupVersionResource expression the analyzer can read",
        ]
    );
}

const APPLY_CONFIGURATIONS: &str = r#"package controller

import (
	"context"

	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	thingsclient "example.org/things/pkg/client/clientset/versioned/typed/things/v1"

	v1 "example.com/op/api/v1"
)

type ApplyReconciler struct {
	client.Client
	things thingsclient.ThingInterface
}

func (r *ApplyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := corev1ac.ConfigMap("settings", req.Namespace).WithData(map[string]string{"a": "b"})
	r.Client.Apply(ctx, cm, client.FieldOwner("op"))
	r.Status().Apply(ctx, appsv1ac.Deployment("web", req.Namespace), client.FieldOwner("op"))
	r.Apply(ctx, corev1ac.Container().WithName("sidecar"))
	r.things.Apply(ctx, corev1ac.Secret("s", req.Namespace), metav1.ApplyOptions{})
	return ctrl.Result{}, nil
}

func (r *ApplyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;

#[test]
fn server_side_apply_takes_the_kind_of_its_apply_configuration() {
    // client-go's apply configuration constructors of built-in kinds, through their
    // `With…` builders, given to the controller-runtime client's Apply and its status
    // writer's; a constructor of no kind (`Container`) is `?`; a typed client whose kind
    // is not known takes the kind of the configuration it applies.
    let (ops, _, diags) = rows(&[
        ("api/v1/types.go", TYPES),
        ("internal/controller/apply.go", APPLY_CONFIGURATIONS),
    ]);
    assert_eq!(
        ops,
        vec![
            "apply /v1 ConfigMap @23",
            "status_patch apps/v1 Deployment @24",
            "apply ?/? ? @25",
            "apply /v1 Secret @26",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "25: cannot tell the kind of the object this apply writes (the `With…` builder chain is not of an apply configuration of a known kind)"
        ]
    );
}

const MESH_CLIENTSET: &str = r#"// Code generated by client-gen. DO NOT EDIT.

package versioned

import (
	meshv1 "example.com/op/pkg/meshclient/versioned/typed/networking/v1"
)

type Interface interface {
	NetworkingV1() meshv1.NetworkingV1Interface
}
"#;

/// A typed package the repository generated for another module's API package.
const MESH_TYPED: &str = r#"// Code generated by client-gen. DO NOT EDIT.

package v1

import (
	v1 "istio.io/client-go/pkg/apis/networking/v1"
)

type NetworkingV1Interface interface {
	VirtualServicesGetter
}

type VirtualServicesGetter interface {
	VirtualServices(namespace string) VirtualServiceInterface
}

type VirtualServiceInterface interface {
	Get(name string) (*v1.VirtualService, error)
}
"#;

const MESH_USER: &str = r#"package mesh

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"example.com/op/pkg/meshclient/versioned"
)

func Prune(ctx context.Context, mesh versioned.Interface) {
	mesh.NetworkingV1().VirtualServices("ns").Delete(ctx, "vs", metav1.DeleteOptions{})
	mesh.NetworkingV1().Gateways("ns").Delete(ctx, "gw", metav1.DeleteOptions{})
	fake.NewSimpleClientset().CoreV1().Pods("ns").Delete(ctx, "p", metav1.DeleteOptions{})
}
"#;

#[test]
fn a_repository_clientset_of_another_modules_api_names_kinds_by_its_typed_clients() {
    // The typed package imports a well-known module's API package: the group is that
    // package's, the kind the typed package's `<Kind>Interface` of that plural; a resource
    // it has no client for is `?`. client-go's fake clientset is client-go's.
    let (_, pkg, diags) = rows(&[
        ("pkg/meshclient/versioned/clientset.go", MESH_CLIENTSET),
        (
            "pkg/meshclient/versioned/typed/networking/v1/networking_client.go",
            MESH_TYPED,
        ),
        ("pkg/mesh/prune.go", MESH_USER),
    ]);
    assert_eq!(
        pkg,
        vec![
            "Prune delete networking.istio.io/v1 VirtualService @13",
            "Prune delete ?/? ? @14",
            "Prune delete /v1 Pod @15",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "14: cannot tell the kind written through the clientset accessor NetworkingV1().Gateways(…): the resource is not one of networking.istio.io/v1 the analyzer knows"
        ]
    );
}

const SHARED_CONTEXT: &str = r#"package controller

import "k8s.io/client-go/kubernetes"

type Context struct {
	Client kubernetes.Interface
}
"#;

const PROMOTED_FIELD: &str = r#"package solver

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/op/pkg/controller"
)

type Solver struct {
	*controller.Context
}

func (s *Solver) Cleanup(ctx context.Context) {
	s.Client.CoreV1().Services("ns").Delete(ctx, "svc", metav1.DeleteOptions{})
}
"#;

#[test]
fn a_clientset_in_a_promoted_field_is_followed() {
    let (_, pkg, diags) = rows(&[
        ("pkg/controller/context.go", SHARED_CONTEXT),
        ("pkg/solver/solver.go", PROMOTED_FIELD),
    ]);
    assert_eq!(pkg, vec!["Solver.Cleanup delete /v1 Service @16"]);
    assert!(diags.is_empty(), "{diags:?}");
}

/// A project's and each controller's client calls, one line per count and per unresolved
/// call (`verb file:line+line: reason`).
fn client_calls_text(fixture: &str) -> Vec<String> {
    let (found, _) = crate::test_support::resolve_fixture(fixture);
    let mut out = Vec::new();
    let mut show = |who: &str, calls: Option<&model::ClientCalls>| {
        let Some(calls) = calls else {
            out.push(format!("{who}: not counted"));
            return;
        };
        out.push(format!(
            "{who}: {} of {} resolved{}",
            calls.resolved,
            calls.found,
            if calls.incomplete.is_empty() {
                String::new()
            } else {
                format!(" ({})", calls.incomplete)
            }
        ));
        for u in &calls.unresolved {
            let at: Vec<String> = u
                .sources
                .iter()
                .map(|s| format!("{}:{}", s.file, s.line))
                .collect();
            out.push(format!("  {} {}: {}", u.verb, at.join("+"), u.reason));
        }
    };
    show("project", found.client_calls.as_ref());
    for c in &found.controllers {
        show(&c.name, c.client_calls.as_ref());
    }
    out
}

const COUNTED: &str = r#"
//- go.mod
module example.com/op
//- api/v1/types.go
package v1
import "k8s.io/apimachinery/pkg/runtime/schema"
var GroupVersion = schema.GroupVersion{Group: "example.io", Version: "v1"}
type Widget struct{}
type Gadget struct{}
//- internal/controller/widget.go
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

type WidgetReconciler struct {
	client.Client
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	r.Get(ctx, req.NamespacedName, w)
	r.Create(ctx, &corev1.ConfigMap{})
	var mystery client.Object
	r.Update(ctx, mystery)
	r.Delete(ctx, mystery)
	r.apply(ctx, &corev1.Secret{})
	r.apply(ctx, mystery)
	notAClient.Delete(ctx, w)
	return ctrl.Result{}, nil
}

func (r *WidgetReconciler) apply(ctx context.Context, obj client.Object) error {
	return r.Patch(ctx, obj, client.Merge)
}

func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}

type GadgetReconciler struct {
	client.Client
}

func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{}).Complete(r)
}

func cleanup(ctx context.Context, c client.Client) {
	c.DeleteAllOf(ctx, &corev1.Pod{})
	c.List(ctx, &corev1.ServiceList{})
}
//- test/e2e/e2e.go
package e2e

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func check(ctx context.Context, c client.Client) {
	c.Create(ctx, &corev1.Namespace{})
}
"#;

#[test]
fn client_calls_are_counted_per_project_and_per_controller() {
    // Widget reaches five calls (the helper's patch once, unresolved at one of its call
    // sites); the project's own code adds cleanup's two, one a read no controller reaches,
    // listed under its package.
    // The e2e test's call is not the project's own; `notAClient` is no client.
    let controller = "internal/controller/widget.go";
    assert_eq!(
        client_calls_text(COUNTED),
        [
            "project: 4 of 7 resolved".to_string(),
            format!(
                "  update {controller}:22: cannot tell the kind of the object this update writes (type client.Object is not a known API type)"
            ),
            format!(
                "  delete {controller}:23: cannot tell the kind of the object this delete writes (type client.Object is not a known API type)"
            ),
            format!(
                "  patch {controller}:31+{controller}:25: cannot tell the kind of the object this patch writes (type client.Object is not a known API type)"
            ),
            "widget: 2 of 5 resolved".to_string(),
            format!(
                "  update {controller}:22: cannot tell the kind of the object this update writes (type client.Object is not a known API type)"
            ),
            format!(
                "  delete {controller}:23: cannot tell the kind of the object this delete writes (type client.Object is not a known API type)"
            ),
            format!(
                "  patch {controller}:31+{controller}:25: cannot tell the kind of the object this patch writes (type client.Object is not a known API type)"
            ),
            "gadget: 0 of 0 resolved".to_string(),
        ]
    );
}

#[test]
fn a_controller_whose_reconcile_is_not_found_says_its_count_is_incomplete() {
    let fixture = r#"
//- go.mod
module example.com/op
//- api/v1/types.go
package v1
import "k8s.io/apimachinery/pkg/runtime/schema"
var GroupVersion = schema.GroupVersion{Group: "example.io", Version: "v1"}
type Widget struct{}
//- internal/controller/widget.go
package controller

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

type WidgetReconciler struct {
	client.Client
}

func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
"#;
    assert_eq!(
        client_calls_text(fixture),
        [
            "project: 0 of 0 resolved",
            "widget: 0 of 0 resolved (no Reconcile method of WidgetReconciler was found, so no call from it was followed)",
        ]
    );
}

#[test]
fn a_struct_bundling_typed_getters_is_a_client_of_each() {
    // A hand-made client embedding client-gen getters: `k.Secrets(ns)` is its embedded
    // `SecretsGetter`'s client; an accessor it does not embed is no client.
    let src = r#"package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1 "k8s.io/client-go/kubernetes/typed/apps/v1"
	corev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

type KubeClient struct {
	corev1.SecretsGetter
	appsv1.DeploymentsGetter
}

type Reconciler struct {
	kube KubeClient
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_ = r.kube.Secrets("ns").Delete(ctx, "s", metav1.DeleteOptions{})
	_, _ = r.kube.Deployments("ns").Get(ctx, "d", metav1.GetOptions{})
	_ = r.kube.Pods("ns").Delete(ctx, "p", metav1.DeleteOptions{})
	return ctrl.Result{}, nil
}

func Setup(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("bundle").Complete(&Reconciler{})
}
"#;
    let (ops, reads, _, _) = rows_and_reads(&[("internal/controller/bundle.go", src)]);
    assert_eq!(ops, vec!["delete /v1 Secret @22"]);
    assert_eq!(reads, vec!["get apps/v1 Deployment @23"]);
}

const SWITCH_TYPES: &str = r#"package v1

import "sigs.k8s.io/controller-runtime/pkg/client"

type Kettle struct{}
type Teapot struct{}

// Brewable is what both kinds have in common.
type Brewable interface {
	client.Object
}
"#;

const SWITCH_HANDLER: &str = r#"package brew

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
)

type Stove struct {
	client.Client
}

func (s *Stove) Heat(ctx context.Context, b v1.Brewable) {
	go s.loop(ctx, b.DeepCopyObject().(v1.Brewable))
}

func (s *Stove) loop(ctx context.Context, b v1.Brewable) {
	switch o := b.(type) {
	case *v1.Kettle:
		s.Create(ctx, &corev1.ConfigMap{})
		s.pour(ctx, o)
	case *v1.Teapot:
		s.Create(ctx, &corev1.Secret{})
		s.pour(ctx, o)
	default:
		s.Delete(ctx, &corev1.Pod{})
	}
}

func (s *Stove) pour(ctx context.Context, o client.Object) {
	s.Update(ctx, &corev1.Service{})
}
"#;

const SWITCH_CONTROLLERS: &str = r#"package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/brew"
)

type KettleReconciler struct {
	client.Client
	Stove *brew.Stove
}

func (r *KettleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	k := &v1.Kettle{}
	r.Stove.Heat(ctx, k)
	return ctrl.Result{}, nil
}

func (r *KettleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Kettle{}).Complete(r)
}

type TeapotReconciler struct {
	client.Client
	Stove *brew.Stove
}

func (r *TeapotReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.brew(ctx, &v1.Teapot{})
	return ctrl.Result{}, nil
}

func (r *TeapotReconciler) brew(ctx context.Context, t *v1.Teapot) {
	r.Stove.Heat(ctx, t)
}

func (r *TeapotReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Teapot{}).Complete(r)
}
"#;

#[test]
fn a_type_switch_on_a_parameter_runs_only_the_cases_of_what_callers_pass() {
    let inputs = inputs_of(&[
        ("api/v1/types.go", TYPES),
        ("api/v1/brew.go", SWITCH_TYPES),
        ("internal/brew/stove.go", SWITCH_HANDLER),
        ("internal/controller/brew.go", SWITCH_CONTROLLERS),
    ]);
    let (controllers, _, _) = resolved(&inputs, "example.com/op");
    let rows: Vec<String> = controllers
        .iter()
        .flat_map(|c| {
            c.operations
                .iter()
                .map(move |o| format!("{}: {} {} @{}", c.name, o.verb, o.kind, o.sources[0].line))
        })
        .collect();
    // The teapot's value reaches the switch through its own declared parameter, a copy
    // asserted to the interface and a goroutine: only its case runs (and the helper both
    // cases call); `default` does not, since the type passed has its case. The kettle's is
    // a local, which might have been given other types on branches: every case stays.
    assert_eq!(
        rows,
        vec![
            "kettle: create ConfigMap @23",
            "kettle: create Secret @26",
            "kettle: delete Pod @29",
            "kettle: update Service @34",
            "teapot: create Secret @26",
            "teapot: update Service @34",
        ]
    );
}
