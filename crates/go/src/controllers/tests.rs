use super::*;
use crate::file::extract;

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
fn the_generic_builder_with_type_arguments_is_a_controller() {
    // `builder.TypedControllerManagedBy[reconcile.Request](mgr)` parses as a conversion to
    // a generic type; Go 1.26's `new(false)` sits in its options.
    let src = "package c\nfunc (r *R) setup(mgr ctrl.Manager) (string, error) {\n\treturn \"n\", builder.TypedControllerManagedBy[reconcile.Request](mgr).\n\t\tNamed(\"alpha\").\n\t\tWatchesRawSource(source.TypedKind(mgr.GetCache(), &corev1.ConfigMap{}, h)).\n\t\tWatches(&corev1.Pod{}, h).\n\t\tWithOptions(controller.Options{NeedLeaderElection: new(false)}).\n\t\tComplete(r)\n}\n";
    assert_eq!(
        watches(src),
        vec![vec![
            (Relation::Watches, "corev1.ConfigMap".to_string(), false, 5),
            (Relation::Watches, "corev1.Pod".to_string(), false, 6),
        ]]
    );
    let file = extract("x.go", src);
    assert_eq!(file.controllers[0].name.as_deref(), Some("alpha"));
    assert_eq!(file.controllers[0].line, 3);
    assert!(!file.parse_errors);
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
    // The object `x` is said to be unknown when the project is resolved, where its value
    // may still name kinds.
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
}

#[test]
fn objects_owned_in_a_loop_over_a_slice_literal_are_each_a_watch() {
    // `Owns(obj)` for each element of a slice literal: one watch per element's kind. A
    // parameter of interface type stays `?`, said in a diagnostic.
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/controller/gadget.go
package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	gadgetv1 "example.com/gadgets/api/v1"
)

type GadgetReconciler struct{}

func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager, extra client.Object) error {
	b := ctrl.NewControllerManagedBy(mgr).For(&gadgetv1.Gadget{})
	for _, owned := range []client.Object{&appsv1.Deployment{}, &corev1.Service{}} {
		b = b.Owns(owned)
	}
	return b.Watches(extra, nil).Complete(r)
}
"#
    );
    check_shapes(
        &files,
        "
gadget [Builder]  @internal/controller/gadget.go:21
  For gadgets.example.com/v1/Gadget @21
  Owns /v1/Service @23
  Owns apps/v1/Deployment @23
  Watches ?/?/Object @25
! internal/controller/gadget.go:25: cannot resolve the API group of sigs.k8s.io/controller-runtime/pkg/client.Object; map its import path under [groups] in projects.toml
",
    );
}

/// Found by the fuzzer (seed 1001577): a chain of 1,000 calls took 107 s, because each
/// step's condition was looked up from the root (N³). The chain's steps share one.
#[test]
fn a_chain_of_thousands_of_calls_is_followed_in_linear_time() {
    let n = 3000;
    let src = format!(
        "package c\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {{\n\tif r.On {{\n\t\treturn ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{{}}).{}Complete(r)\n\t}}\n\treturn nil\n}}\n",
        "Owns(&corev1.ConfigMap{}).".repeat(n)
    );
    let found = watches(&src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].len(), n + 1);
    assert_eq!(found[0][0], (Relation::For, "v1.Gadget".into(), true, 4));
    assert!(
        found[0][1..]
            .iter()
            .all(|w| *w == (Relation::Owns, "corev1.ConfigMap".into(), true, 4))
    );
}

#[test]
fn typed_variables_name_their_kind() {
    let src = "package c\nfunc (r *R) SetupWithManager(mgr ctrl.Manager, owned *appsv1.Deployment) error {\n\tsecret := &corev1.Secret{}\n\tvar cm corev1.ConfigMap\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(owned).\n\t\tWatches(secret, h).\n\t\tWatches(&cm, h).\n\t\tComplete(r)\n}\n";
    assert_eq!(
        watches(src),
        vec![vec![
            (Relation::For, "appsv1.Deployment".into(), false, 6),
            (Relation::Watches, "corev1.Secret".into(), false, 7),
            (Relation::Watches, "corev1.ConfigMap".into(), false, 8),
        ]]
    );
}

#[test]
fn webhook_builders_and_other_chains_are_not_controllers() {
    let src = "package c\nfunc setup(mgr ctrl.Manager) error {\n\tctrl.NewWebhookManagedBy(mgr).For(&v1.Widget{}).Complete()\n\tx.For(&v1.Widget{})\n\treturn nil\n}\n";
    assert!(extract("x.go", src).controllers.is_empty());
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

/// Resolves a multi-file fixture as one project: `expect` lists each controller (name,
/// shape, entries), then its watches, writes and reads, one per line; then the
/// diagnostics about controllers and event handlers (`!`).
fn check_shapes(files: &str, expect: &str) {
    use std::fmt::Write;
    let (f, diagnostics) = crate::test_support::resolve_fixture(files);
    let mut out = String::new();
    for c in &f.controllers {
        let _ = writeln!(
            out,
            "{} [{:?}] {} @{}:{}",
            c.name,
            c.shape,
            c.entries.join(", "),
            c.sources[0].file,
            c.sources[0].line
        );
        for w in &c.watches {
            let at: Vec<String> = w.sources.iter().map(|s| s.line.to_string()).collect();
            let _ = writeln!(
                out,
                "  {} {}/{}/{} @{}",
                w.relation.label(),
                w.group,
                w.version,
                w.kind,
                at.join(",")
            );
        }
        for op in c.operations.iter().chain(&c.reads) {
            let _ = writeln!(
                out,
                "  {:?} {}/{}/{} @{}",
                op.verb, op.group, op.version, op.kind, op.sources[0].line
            );
        }
    }
    for d in diagnostics
        .iter()
        .filter(|d| d.message.contains("event handler") || d.message.contains("controller"))
    {
        let _ = writeln!(out, "! {}:{}: {}", d.file, d.line, d.message);
    }
    assert_eq!(out.trim_end(), expect.trim(), "\nactual:\n{out}");
}

/// The API package the shape fixtures share: group `gadgets.example.com`, kind `Gadget`.
const GADGET_API: &str = r#"
//- go.mod
module example.com/gadgets
//- api/v1/register.go
package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

var SchemeGroupVersion = schema.GroupVersion{Group: "gadgets.example.com", Version: "v1"}

type Gadget struct {
	Spec GadgetSpec
}

type GadgetSpec struct {
	Size int
}
"#;

#[test]
fn a_struct_holding_a_work_queue_is_a_controller_rooted_at_its_worker() {
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- pkg/generated/informers/externalversions/gadgets.example.com/v1/gadget.go
// Code generated by informer-gen. DO NOT EDIT.

package v1

import (
	"k8s.io/client-go/tools/cache"

	gadgetsv1 "example.com/gadgets/api/v1"
)

type GadgetInformer interface {
	Informer() cache.SharedIndexInformer
}

func NewGadgetInformer(resync int) cache.SharedIndexInformer {
	return cache.NewSharedIndexInformer(nil, &gadgetsv1.Gadget{}, 0, nil)
}
//- internal/gadget/controller.go
package gadget

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	gadgetv1 "example.com/gadgets/api/v1"
	gadgetinformers "example.com/gadgets/pkg/generated/informers/externalversions/gadgets.example.com/v1"
)

type Controller struct {
	kube  kubernetes.Interface
	queue workqueue.TypedRateLimitingInterface[string]
}

func New(kube kubernetes.Interface, deployments appsinformers.DeploymentInformer, gadgets gadgetinformers.GadgetInformer) *Controller {
	c := &Controller{kube: kube}
	deployments.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { c.enqueueOwner(obj) },
	})
	gadgets.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: c.enqueue})
	nodes := coreinformers.NewNodeInformer(kube, 0, nil)
	nodes.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.enqueue})
	return c
}

func (c *Controller) enqueue(obj interface{}) {
	c.queue.Add("key")
}

func (c *Controller) enqueueOwner(obj interface{}) {
	c.enqueue(obj)
}

func (c *Controller) next(ctx context.Context) bool {
	key, done := c.queue.Get()
	if done {
		return false
	}
	defer c.queue.Done(key)
	_ = c.sync(ctx, key)
	return true
}

func (c *Controller) sync(ctx context.Context, key string) error {
	d := &appsv1.Deployment{}
	_, err := c.kube.AppsV1().Deployments("ns").Create(ctx, d, metav1.CreateOptions{})
	return err
}

// Not reached from the worker: a write elsewhere stays a package row.
func (c *Controller) cleanup(ctx context.Context) error {
	return c.kube.AppsV1().Deployments("ns").Delete(ctx, "x", metav1.DeleteOptions{})
}

var _ = gadgetv1.SchemeGroupVersion
"#
    );
    check_shapes(
        &files,
        "
gadget.Controller [WorkQueue] Controller.next @internal/gadget/controller.go:42
  Watches apps/v1/Deployment @25
  Watches gadgets.example.com/v1/Gadget @28
  Watches /v1/Node @30
  Create apps/v1/Deployment @54
",
    );
}

#[test]
fn a_queue_framework_held_by_several_types_gives_one_controller_per_holder() {
    // One queue type (`Loop`) serves two operators; its worker calls the holder back
    // through an interface. Each holder is a controller rooted at the methods the worker
    // reaches; the handlers each adds (its own value, or the loop it holds) feed it.
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/loop/loop.go
package loop

import (
	"context"

	"k8s.io/client-go/util/workqueue"
)

type Syncer interface {
	Sync(ctx context.Context, key string) error
}

type Loop struct {
	syncer Syncer
	q      workqueue.TypedRateLimitingInterface[string]
}

func New(s Syncer) *Loop {
	return &Loop{syncer: s}
}

func (l *Loop) OnAdd(obj interface{}, initial bool) { l.q.Add("k") }

func (l *Loop) Enqueue(key string) { l.q.AddRateLimited(key) }

func (l *Loop) work(ctx context.Context) {
	key, _ := l.q.Get()
	_ = l.syncer.Sync(ctx, key)
}
//- internal/alpha/operator.go
package alpha

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"example.com/gadgets/internal/loop"
)

type Operator struct {
	kube    kubernetes.Interface
	loop    *loop.Loop
	secrets coreinformers.SecretInformer
}

func (o *Operator) handlers() {
	o.secrets.Informer().AddEventHandler(o.loop)
}

func (o *Operator) Sync(ctx context.Context, key string) error {
	_, err := o.kube.CoreV1().Secrets("ns").Update(ctx, &corev1.Secret{}, metav1.UpdateOptions{})
	return err
}
//- internal/beta/operator.go
package beta

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"example.com/gadgets/internal/loop"
)

type Operator struct {
	kube kubernetes.Interface
	loop *loop.Loop
}

func New(kube kubernetes.Interface, pods coreinformers.PodInformer, nodes coreinformers.NodeInformer) *Operator {
	o := &Operator{kube: kube}
	o.loop = loop.New(o)
	pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) { o.forget(obj) },
	})
	// A handler that does its work itself, filling no queue: not a trigger, an informer
	// the controller's constructor sets up.
	nodes.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: o.note})
	return o
}

func (o *Operator) forget(obj interface{}) { o.loop.Enqueue("k") }

func (o *Operator) note(obj interface{}) {}

func (o *Operator) Sync(ctx context.Context, key string) error {
	return o.kube.CoreV1().ConfigMaps("ns").Delete(ctx, key, metav1.DeleteOptions{})
}
"#
    );
    check_shapes(
        &files,
        "
alpha.Operator [WorkQueue] Operator.Sync @internal/alpha/operator.go:25
  Watches /v1/Secret @22
  Update /v1/Secret @26
beta.Operator [WorkQueue] Operator.Sync @internal/beta/operator.go:35
  Watches /v1/Pod @22
  Informer /v1/Node @27
  Delete /v1/ConfigMap @36
",
    );
}

#[test]
fn a_fifo_drained_in_a_closure_and_a_knative_reconciler_are_controllers() {
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/fifo/controller.go
package fifo

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	kube   kubernetes.Interface
	queues []*cache.FIFO
	nodes  cache.SharedIndexInformer
}

func (c *Controller) run(i int) {
	for {
		_, _ = (*c.queues[i]).Pop(cache.PopProcessFunc(func(obj interface{}, initial bool) error {
			return c.handle(obj)
		}))
	}
}

func (c *Controller) handle(obj interface{}) error {
	_, err := c.kube.CoreV1().Services("ns").Create(context.TODO(), &corev1.Service{}, metav1.CreateOptions{})
	return err
}

func (c *Controller) watch() {
	c.nodes.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: c.add})
}

func (c *Controller) add(obj interface{}) {
	_ = (*c.queues[0]).Add(obj)
}

// A queue no event handler fills: a worker pool, not a controller.
type resolver struct {
	kube kubernetes.Interface
	work workqueue.TypedInterface[string]
}

func (r *resolver) start() {
	key, _ := r.work.Get()
	_ = r.kube.CoreV1().Secrets("ns").Delete(context.TODO(), key, metav1.DeleteOptions{})
}
//- internal/reconciler/gadget/controller.go
package gadget

import (
	"context"

	appsinformer "knative.dev/pkg/client/injection/kube/informers/apps/v1/deployment"
	cminformer "knative.dev/pkg/client/injection/kube/informers/core/v1/configmap"
	podinformer "knative.dev/pkg/client/injection/kube/informers/core/v1/pod/filtered"
	secretinformer "knative.dev/pkg/client/injection/kube/informers/core/v1/secret"
	sksinformer "knative.dev/networking/pkg/client/injection/informers/networking/v1alpha1/serverlessservice"
	"knative.dev/pkg/configmap"
	"knative.dev/pkg/controller"
	"k8s.io/client-go/tools/cache"

	gadgetreconciler "example.com/gadgets/pkg/client/injection/reconciler/gadgets/v1/gadget"
	gadgetv1 "example.com/gadgets/api/v1"
)

func NewController(ctx context.Context, cmw configmap.Watcher) *controller.Impl {
	deployments := appsinformer.Get(ctx)
	r := &Reconciler{}
	impl := gadgetreconciler.NewImpl(ctx, r, func(impl *controller.Impl) controller.Options {
		secretinformer.Get(ctx).Informer().AddEventHandler(controller.HandleAll(impl.EnqueueKey))
		return controller.Options{}
	})
	r.tracker = impl.Tracker
	cminformer.Get(ctx).Informer().AddEventHandler(controller.HandleAll(r.tracker.OnChanged))
	owned := cache.FilteringResourceEventHandler{
		FilterFunc: controller.FilterController(&gadgetv1.Gadget{}),
		Handler:    controller.HandleAll(impl.EnqueueControllerOf),
	}
	deployments.Informer().AddEventHandler(owned)
	sksinformer.Get(ctx).Informer().AddEventHandler(owned)
	podinformer.Get(ctx, "app").Informer().AddEventHandler(owned)
	return impl
}
//- internal/reconciler/gadget/gadget.go
package gadget

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	pkgreconciler "knative.dev/pkg/reconciler"
	"knative.dev/pkg/tracker"

	gadgetv1 "example.com/gadgets/api/v1"
)

type Reconciler struct {
	kube    kubernetes.Interface
	tracker tracker.Interface
}

func (r *Reconciler) ReconcileKind(ctx context.Context, g *gadgetv1.Gadget) pkgreconciler.Event {
	_, err := r.kube.AppsV1().Deployments("ns").Create(ctx, &appsv1.Deployment{}, metav1.CreateOptions{})
	return err
}

func (r *Reconciler) FinalizeKind(ctx context.Context, g *gadgetv1.Gadget) pkgreconciler.Event {
	return r.kube.AppsV1().Deployments("ns").Delete(ctx, "d", metav1.DeleteOptions{})
}
//- internal/reconciler/sweeper/controller.go
package sweeper

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	secretinformer "knative.dev/pkg/client/injection/kube/informers/core/v1/secret"
	"knative.dev/pkg/controller"
)

// A reconciler of keys behind Knative's generic constructor.
type Sweeper struct {
	kube kubernetes.Interface
}

func (s *Sweeper) Reconcile(ctx context.Context, key string) error {
	return s.kube.CoreV1().Secrets("ns").Delete(ctx, key, metav1.DeleteOptions{})
}

func NewController(ctx context.Context) *controller.Impl {
	s := &Sweeper{}
	impl := controller.NewContext(ctx, s, controller.ControllerOptions{WorkQueueName: "sweeper"})
	secretinformer.Get(ctx).Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: impl.Enqueue})
	// Tells the tracker only: a watch, not the reconciled kind.
	secretinformer.Get(ctx).Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: impl.Tracker.OnDeletedObserver})
	return impl
}
"#
    );
    check_shapes(
        &files,
        "
fifo.Controller [WorkQueue] Controller.run @internal/fifo/controller.go:19
  Watches ?/?/? @33
  Create /v1/Service @28
gadget [Knative] Reconciler.ReconcileKind, Reconciler.FinalizeKind @internal/reconciler/gadget/controller.go:22
  For gadgets.example.com/v1/Gadget @22
  Watches /v1/Secret @23
  Watches /v1/ConfigMap @27
  Owns apps/v1/Deployment @32
  Owns networking.internal.knative.dev/v1alpha1/ServerlessService @33
  Owns /v1/Pod @34
  Create apps/v1/Deployment @21
  Delete apps/v1/Deployment @26
sweeper [Knative] Sweeper.Reconcile @internal/reconciler/sweeper/controller.go:24
  For /v1/Secret @25
  Watches /v1/Secret @27
  Delete /v1/Secret @19
! internal/fifo/controller.go:33: cannot tell which kind this event handler's informer watches: field Controller.nodes is not a typed informer
",
    );
}

#[test]
fn a_generated_knative_reconciler_makes_the_client_count_a_lower_bound() {
    // The generated reconciler around `ReconcileKind` updates status and finalizers itself:
    // the count says it is incomplete; a generic `Reconcile(ctx, key)` has no such wrapper.
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/reconciler/gadget/controller.go
package gadget

import (
	"context"

	gadgetreconciler "example.com/gadgets/pkg/client/injection/reconciler/gadgets/v1/gadget"
	gadgetv1 "example.com/gadgets/api/v1"
	pkgreconciler "knative.dev/pkg/reconciler"
	"knative.dev/pkg/controller"
)

type Reconciler struct{}

func (r *Reconciler) ReconcileKind(ctx context.Context, g *gadgetv1.Gadget) pkgreconciler.Event {
	return nil
}

func NewController(ctx context.Context) *controller.Impl {
	return gadgetreconciler.NewImpl(ctx, &Reconciler{})
}
//- internal/reconciler/sweeper/controller.go
package sweeper

import (
	"context"

	"knative.dev/pkg/controller"
)

type Sweeper struct{}

func (s *Sweeper) Reconcile(ctx context.Context, key string) error { return nil }

func NewController(ctx context.Context) *controller.Impl {
	return controller.NewContext(ctx, &Sweeper{}, controller.ControllerOptions{WorkQueueName: "sweeper"})
}
"#
    );
    let (f, _) = crate::test_support::resolve_fixture(&files);
    let incomplete = |name: &str| {
        f.controllers
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.client_calls.as_ref())
            .map(|cc| cc.incomplete.clone())
    };
    assert!(
        incomplete("gadget").is_some_and(|why| why.contains("generated reconciler")),
        "{:?}",
        incomplete("gadget")
    );
    assert_eq!(incomplete("sweeper").as_deref(), Some(""));
}

#[test]
fn a_generic_worker_runs_the_methods_given_to_it_as_function_values() {
    // `runner.Run` drains a queue it is handed and calls the function it is handed;
    // `framework.loop` calls a function held in a field, given an interface's method.
    // The methods given are the controllers' roots, their receivers the controllers.
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/runner/run.go
package runner

import (
	"context"

	"k8s.io/client-go/util/workqueue"
)

type reconcileFunc func(ctx context.Context, key string) error

func Run(ctx context.Context, q workqueue.TypedRateLimitingInterface[string], r reconcileFunc) {
	for next(ctx, q, r) {
	}
}

func next(ctx context.Context, q workqueue.TypedRateLimitingInterface[string], r reconcileFunc) bool {
	key, done := q.Get()
	if done {
		return false
	}
	_ = call(ctx, key, r)
	return true
}

func call(ctx context.Context, key string, r reconcileFunc) error {
	return r(ctx, key)
}
//- internal/lamps/controller.go
package lamps

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/gadgets/internal/runner"
)

type controller struct {
	kube  kubernetes.Interface
	queue workqueue.TypedRateLimitingInterface[string]
}

func New(kube kubernetes.Interface, pods coreinformers.PodInformer) *controller {
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	pods.Informer().AddEventHandler(enqueueAll(queue))
	return &controller{kube: kube, queue: queue}
}

func enqueueAll(q workqueue.TypedRateLimitingInterface[string]) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{AddFunc: func(obj interface{}) { q.Add("k") }}
}

func (c *controller) Start(ctx context.Context) {
	runner.Run(ctx, c.queue, c.reconcile)
}

func (c *controller) reconcile(ctx context.Context, key string) error {
	_, err := c.kube.CoreV1().ConfigMaps("ns").Create(ctx, &corev1.ConfigMap{}, metav1.CreateOptions{})
	return err
}
//- internal/dials/controller.go
package dials

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/workqueue"

	"example.com/gadgets/internal/runner"
)

// Its event handlers are added by code the analyzer does not connect to it: still a
// controller (a generic worker runs its reconcile), with no watches.
type controller struct {
	kube  kubernetes.Interface
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *controller) Start(ctx context.Context) {
	runner.Run(ctx, c.queue, c.reconcile)
}

func (c *controller) reconcile(ctx context.Context, key string) error {
	return c.kube.CoreV1().Namespaces().Delete(ctx, key, metav1.DeleteOptions{})
}
//- internal/framework/loop.go
package framework

import (
	"context"

	"k8s.io/client-go/util/workqueue"
)

type Queued interface {
	ProcessItem(ctx context.Context, key string) error
}

type loop struct {
	sync func(ctx context.Context, key string) error
	q    workqueue.TypedRateLimitingInterface[string]
}

func Build(impl Queued, q workqueue.TypedRateLimitingInterface[string]) *loop {
	return &loop{sync: impl.ProcessItem, q: q}
}

func (l *loop) work(ctx context.Context) {
	key, _ := l.q.Get()
	_ = l.sync(ctx, key)
}
//- internal/shades/controller.go
package shades

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

type controller struct {
	kube    kubernetes.Interface
	secrets coreinformers.SecretInformer
	queue   workqueue.TypedRateLimitingInterface[string]
}

func (c *controller) Register() {
	c.secrets.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { c.queue.Add("k") },
	})
}

func (c *controller) ProcessItem(ctx context.Context, key string) error {
	return c.kube.CoreV1().Secrets("ns").Delete(ctx, key, metav1.DeleteOptions{})
}
"#
    );
    check_shapes(
        &files,
        "
dials.controller [WorkQueue] controller.reconcile @internal/dials/controller.go:24
  Delete /v1/Namespace @25
lamps.controller [WorkQueue] controller.reconcile @internal/lamps/controller.go:35
  Watches /v1/Pod @23
  Create /v1/ConfigMap @36
shades.controller [WorkQueue] controller.ProcessItem @internal/shades/controller.go:25
  Watches /v1/Secret @20
  Delete /v1/Secret @26
! internal/dials/controller.go:24: controller dials.controller: no event handler was found filling its queue, so what triggers it is not listed
",
    );
}

#[test]
fn a_reconciler_wrapped_by_another_package_and_made_by_a_constructor_is_followed() {
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/gadget/setup.go
package gadget

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"example.com/retry/errs"
	gadgetv1 "example.com/gadgets/api/v1"
)

type Reconciler struct {
	client client.Client
}

func NewReconciler(mgr ctrl.Manager) *Reconciler {
	return &Reconciler{client: mgr.GetClient()}
}

func Setup(mgr ctrl.Manager) error {
	r := NewReconciler(mgr)
	return ctrl.NewControllerManagedBy(mgr).
		For(&gadgetv1.Gadget{}).
		Complete(errs.WithRetry(r))
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, r.client.Create(ctx, &corev1.ConfigMap{})
}

type SecretReconciler struct {
	client client.Client
}

// The receiver among a wrapper's arguments is the reconciler it wraps; the map function
// a watch enqueues through is run by the controller: its read is the controller's.
func (s *SecretReconciler) SetupWithManager(mgr ctrl.Manager, cfg *errs.Config) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("secrets").
		For(&corev1.Secret{}).
		Watches(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(s.secretsOf)).
		Complete(errs.WithLeader(mgr, s, &corev1.Secret{}, cfg))
}

func (s *SecretReconciler) secretsOf(ctx context.Context, o client.Object) []reconcile.Request {
	_ = s.client.List(ctx, &corev1.SecretList{})
	return nil
}

func (s *SecretReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, s.client.Delete(ctx, &corev1.Secret{})
}

type PodReconciler struct {
	client client.Client
}

// A wrapper of this package given the receiver wraps the receiver; one given no
// receiver (a constructor's arguments) wraps nothing known here.
func (p *PodReconciler) SetupWithManager(mgr ctrl.Manager, cfg *errs.Config) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Pod{}).
		Complete(onLeader(mgr, p, &corev1.Pod{}, cfg))
}

func onLeader(mgr ctrl.Manager, r reconcile.Reconciler, obj client.Object, cfg *errs.Config) reconcile.Reconciler {
	return r
}

func (p *PodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, p.client.Update(ctx, &corev1.Pod{})
}
"#
    );
    check_shapes(
        &files,
        "
gadget [Builder]  @internal/gadget/setup.go:26
  For gadgets.example.com/v1/Gadget @27
  Create /v1/ConfigMap @32
secrets [Builder]  @internal/gadget/setup.go:42
  For /v1/Secret @44
  Watches /v1/Namespace @45
  Delete /v1/Secret @55
  List /v1/Secret @50
pod [Builder]  @internal/gadget/setup.go:65
  For /v1/Pod @66
  Update /v1/Pod @75
",
    );
}

#[test]
fn knative_controllers_named_alike_are_told_apart_by_folders_then_type() {
    let shaped = |name: &str, file: &str, reconciler: &str| Shaped {
        controller: Controller {
            name: name.into(),
            reconciler: reconciler.into(),
            sources: vec![SourceRef::new(file, 1)],
            ..Controller::default()
        },
        roots: Vec::new(),
        owner: HandlerOwner::Impl {
            file: 0,
            func: FuncRef {
                receiver: None,
                name: "NewController".into(),
            },
            holders: Vec::new(),
            reconciled: None,
        },
        needs_feeder: false,
        bound: None,
    };
    let mut out = vec![
        shaped(
            "taskrun",
            "pkg/reconciler/notifications/taskrun/controller.go",
            "Reconciler",
        ),
        shaped(
            "taskrun",
            "pkg/reconciler/taskrun/controller.go",
            "Reconciler",
        ),
        shaped("route", "pkg/reconciler/route/controller.go", "Reconciler"),
        shaped("twin", "pkg/twin/a.go", "Left"),
        shaped("twin", "pkg/twin/b.go", "Right"),
    ];
    super::knative::unique_names(&mut out);
    let names: Vec<&str> = out.iter().map(|s| s.controller.name.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "notifications/taskrun",
            "reconciler/taskrun",
            "route",
            "pkg/twin.Left",
            "pkg/twin.Right",
        ]
    );
}

#[test]
fn informers_obtained_while_a_work_queue_controller_is_set_up_are_its_own() {
    // Two controllers registered through one interface. `shelf` obtains listers in its
    // constructor, in the Register of a wrapper embedding it, and in a helper of another
    // package that Register calls; `bench` is a framework whose registration hands it a
    // constructor and a closure, both obtaining listers. The registry calls every
    // controller's Register through the interface: `shelf`'s setup never takes `bench`'s.
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/registry/registry.go
package registry

import "k8s.io/client-go/informers"

type Registrar interface {
	Register(f informers.SharedInformerFactory)
}

var all []Registrar

func Add(r Registrar) { all = append(all, r) }

func Start(r Registrar, f informers.SharedInformerFactory) {
	r.Register(f)
}
//- internal/solver/solver.go
package solver

import (
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/informers"
)

type Solver struct{ pods corelisters.PodLister }

func New(f informers.SharedInformerFactory) *Solver {
	return &Solver{pods: f.Core().V1().Pods().Lister()}
}
//- internal/shelf/controller.go
package shelf

import (
	"context"

	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/gadgets/internal/registry"
	"example.com/gadgets/internal/solver"
)

type controller struct {
	queue      workqueue.TypedRateLimitingInterface[string]
	secrets    corelisters.SecretLister
	configMaps corelisters.ConfigMapLister
	solver     *solver.Solver
}

func newController(f informers.SharedInformerFactory) *controller {
	c := &controller{secrets: f.Core().V1().Secrets().Lister()}
	f.Core().V1().Services().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: c.enqueue})
	return c
}

func (c *controller) enqueue(obj interface{}) { c.queue.Add("k") }

func (c *controller) next(ctx context.Context) {
	key, _ := c.queue.Get()
	_ = key
}

// Reaches every registrar's Register through the interface.
func (c *controller) start(f informers.SharedInformerFactory) { registry.Start(nil, f) }

type wrapper struct {
	*controller
}

func (w *wrapper) Register(f informers.SharedInformerFactory) {
	w.controller = newController(f)
	w.configMaps = f.Core().V1().ConfigMaps().Lister()
	w.solver = solver.New(f)
}

func init() { registry.Add(&wrapper{}) }
//- internal/bench/controller.go
package bench

import (
	"context"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

type Signer interface{ Sign() }

type Controller struct {
	queue     workqueue.TypedRateLimitingInterface[string]
	newSigner func(informers.SharedInformerFactory) Signer
	extra     func(informers.SharedInformerFactory)
}

func New(newSigner func(informers.SharedInformerFactory) Signer, extra func(informers.SharedInformerFactory)) *Controller {
	return &Controller{newSigner: newSigner, extra: extra}
}

func (c *Controller) Register(f informers.SharedInformerFactory) {
	f.Core().V1().Endpoints().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: c.enqueue})
	_ = f.Core().V1().Events().Lister()
	c.newSigner(f)
	c.extra(f)
}

func (c *Controller) enqueue(obj interface{}) { c.queue.Add("k") }

func (c *Controller) next(ctx context.Context) {
	key, _ := c.queue.Get()
	_ = key
}
//- internal/bench/local/local.go
package local

import (
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"

	"example.com/gadgets/internal/bench"
	"example.com/gadgets/internal/registry"
)

type signer struct{ nodes corelisters.NodeLister }

func (s *signer) Sign() {}

func newSigner(f informers.SharedInformerFactory) bench.Signer {
	return &signer{nodes: f.Core().V1().Nodes().Lister()}
}

func init() {
	registry.Add(bench.New(newSigner, func(f informers.SharedInformerFactory) {
		_ = f.Core().V1().Namespaces().Lister()
	}))
}
"#
    );
    check_shapes(
        &files,
        "
shelf.controller [WorkQueue] controller.next @internal/shelf/controller.go:30
  Informer /v1/Pod @11
  Informer /v1/Secret @23
  Watches /v1/Service @24
  Informer /v1/ConfigMap @44
bench.Controller [WorkQueue] Controller.next @internal/bench/controller.go:32
  Watches /v1/Endpoints @24
  Informer /v1/Event @25
  Informer /v1/Node @16
  Informer /v1/Namespace @21
",
    );
}

#[test]
fn a_controller_built_for_each_row_of_a_table_takes_every_row_kind() {
    // One builder in a loop over a table of package-level rows, each a struct literal
    // naming the object and list types: `For(row.object)` is each row's kind, and the
    // list the watch's map function makes with `cfg.list` (the row handed down) is too.
    // A table with a row whose object is not a literal keeps `?`, and says why.
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/inject/table.go
package inject

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type row struct {
	name   string
	object client.Object
	list   client.ObjectList
}

var (
	deployments = row{name: "deployments", object: &appsv1.Deployment{}, list: &appsv1.DeploymentList{}}
	services    = row{name: "services", object: &corev1.Service{}, list: &corev1.ServiceList{}}
	mystery     = row{name: "mystery", object: objectFor("mystery")}
)

func objectFor(name string) client.Object { return nil }

type injector struct {
	client.Client
}

func (r *injector) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

func mapFor(cl client.Client, cfg row) handler.MapFunc {
	return func(ctx context.Context, obj client.Object) []reconcile.Request {
		objs := cfg.list.DeepCopyObject().(client.ObjectList)
		_ = cl.List(ctx, objs)
		return nil
	}
}

func Register(mgr ctrl.Manager) error {
	for _, t := range []row{deployments, services} {
		r := &injector{Client: mgr.GetClient()}
		err := ctrl.NewControllerManagedBy(mgr).
			For(t.object).
			Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(mapFor(mgr.GetClient(), t))).
			Complete(r)
		if err != nil {
			return err
		}
	}
	return nil
}

func RegisterMore(mgr ctrl.Manager) error {
	for _, t := range []row{deployments, mystery} {
		if err := ctrl.NewControllerManagedBy(mgr).Named(t.name).For(t.object).Complete(&injector{}); err != nil {
			return err
		}
	}
	return nil
}
"#
    );
    check_shapes(
        &files,
        "
injector [Builder]  @internal/inject/table.go:47
  For /v1/Service @48
  For apps/v1/Deployment @48
  Watches /v1/Secret @49
  List apps/v1/Deployment @39
  List /v1/Service @39
injector [Builder]  @internal/inject/table.go:60
  For ?/?/? @60
! internal/inject/table.go:60: controller name `t.name` is not a string literal; the controller is named after its reconciler
",
    );
}

#[test]
fn controllers_made_from_options_without_a_builder_are_controllers() {
    // controller-runtime's `controller.Options{Reconciler: r}`, and options a library made
    // given a reconciler of another package through a wrapper (`o.Reconciler = …`), are
    // controllers rooted at that reconciler's `Reconcile`. A struct of this package with a
    // `Reconciler` field is not a controller's options, nor another library's type, nor a
    // field given no reconciler.
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- internal/dial/reconciler.go
package dial

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client client.Client
}

func NewReconciler(c client.Client) *Reconciler {
	return &Reconciler{client: c}
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, r.client.Delete(ctx, &corev1.Pod{})
}
//- internal/engine/start.go
package engine

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kcontroller "sigs.k8s.io/controller-runtime/pkg/controller"

	"example.com/gadgets/internal/dial"
	"example.com/lib/options"
	"example.com/lib/retry"
	"example.com/lib/runner"
)

type knob struct {
	client client.Client
}

func (k *knob) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, k.client.Create(ctx, &corev1.ConfigMap{})
}

type holder struct {
	Reconciler *knob
}

func Start(mgr ctrl.Manager, o options.Options) error {
	_, err := kcontroller.NewUnmanaged("knob", kcontroller.Options{Reconciler: &knob{client: mgr.GetClient()}})
	if err != nil {
		return err
	}
	ko := o.ForControllerRuntime()
	ko.Reconciler = retry.OnConflict(dial.NewReconciler(mgr.GetClient()))
	h := &holder{}
	h.Reconciler = &knob{}
	ko.Reconciler = nil
	_, err = kcontroller.NewUnmanaged("dial", ko)
	return err
}

// Another library's runner given a reconciler is not controller-runtime's options.
func rewire(runners []*runner.Runner) {
	for _, r := range runners {
		r.Reconciler = &knob{}
	}
}
"#
    );
    check_shapes(
        &files,
        "
engine.knob [Builder]  @internal/engine/start.go:30
  Create /v1/ConfigMap @22
dial.Reconciler [Builder]  @internal/engine/start.go:35
  Delete /v1/Pod @20
",
    );
}

#[test]
fn a_generated_reconciler_in_the_repository_is_followed_for_each_controller() {
    // The repository's own generated reconciler wraps `ReconcileKind`: its status update is
    // each controller's (unless built with `SkipStatusUpdates`); its finalizer patch,
    // guarded by the reconciler implementing
    // `Finalizer`, only the one whose type does; one controller's `ReconcileKind`, reached
    // through the generated reconciler's interface, is never the other's. Followed, the
    // client-call count is complete.
    let files = format!(
        "{GADGET_API}{}",
        r#"
//- pkg/client/injection/reconciler/gadgets/v1/gadget/controller.go
// Code generated by injection-gen. DO NOT EDIT.

package gadget

import (
	"context"

	"knative.dev/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/client"

	gadgetv1 "example.com/gadgets/api/v1"
)

type Interface interface {
	ReconcileKind(ctx context.Context, o *gadgetv1.Gadget) error
}

type Finalizer interface {
	FinalizeKind(ctx context.Context, o *gadgetv1.Gadget) error
}

type reconcilerImpl struct {
	client     client.Client
	reconciler Interface
}

func NewImpl(ctx context.Context, r Interface, optionsFns ...controller.OptionsFn) *controller.Impl {
	rec := &reconcilerImpl{reconciler: r}
	return controller.NewContext(ctx, rec, controller.ControllerOptions{})
}

func (r *reconcilerImpl) Reconcile(ctx context.Context, key string) error {
	o := &gadgetv1.Gadget{}
	if err := r.setFinalizer(ctx, o); err != nil {
		return err
	}
	_ = r.reconciler.ReconcileKind(ctx, o)
	return r.updateStatus(ctx, o)
}

func (r *reconcilerImpl) updateStatus(ctx context.Context, o *gadgetv1.Gadget) error {
	return r.client.Status().Update(ctx, o)
}

func (r *reconcilerImpl) setFinalizer(ctx context.Context, o *gadgetv1.Gadget) error {
	if _, ok := r.reconciler.(Finalizer); !ok {
		return nil
	}
	return r.client.Patch(ctx, o, client.Merge)
}
//- internal/plain/controller.go
package plain

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"knative.dev/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/client"

	gadgetv1 "example.com/gadgets/api/v1"
	gadgetreconciler "example.com/gadgets/pkg/client/injection/reconciler/gadgets/v1/gadget"
)

type Reconciler struct {
	client client.Client
}

func (r *Reconciler) ReconcileKind(ctx context.Context, o *gadgetv1.Gadget) error {
	return r.client.Create(ctx, &corev1.ConfigMap{})
}

func NewController(ctx context.Context) *controller.Impl {
	return gadgetreconciler.NewImpl(ctx, &Reconciler{})
}
//- internal/final/controller.go
package final

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"knative.dev/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/client"

	gadgetv1 "example.com/gadgets/api/v1"
	gadgetreconciler "example.com/gadgets/pkg/client/injection/reconciler/gadgets/v1/gadget"
)

type Reconciler struct {
	client client.Client
}

func (r *Reconciler) ReconcileKind(ctx context.Context, o *gadgetv1.Gadget) error {
	return r.client.Delete(ctx, &corev1.Secret{})
}

func (r *Reconciler) FinalizeKind(ctx context.Context, o *gadgetv1.Gadget) error {
	return nil
}

func NewController(ctx context.Context) *controller.Impl {
	return gadgetreconciler.NewImpl(ctx, &Reconciler{})
}
//- internal/quiet/controller.go
package quiet

import (
	"context"

	"knative.dev/pkg/controller"

	gadgetv1 "example.com/gadgets/api/v1"
	gadgetreconciler "example.com/gadgets/pkg/client/injection/reconciler/gadgets/v1/gadget"
)

type Reconciler struct{}

func (r *Reconciler) ReconcileKind(ctx context.Context, o *gadgetv1.Gadget) error {
	return nil
}

// Built to leave the status alone: the generated status update is not its.
func NewController(ctx context.Context) *controller.Impl {
	return gadgetreconciler.NewImpl(ctx, &Reconciler{}, func(*controller.Impl) controller.Options {
		return controller.Options{SkipStatusUpdates: true}
	})
}
"#
    );
    check_shapes(
        &files,
        "
plain [Knative] Reconciler.ReconcileKind, reconcilerImpl.Reconcile @internal/plain/controller.go:23
  For gadgets.example.com/v1/Gadget @23
  Create /v1/ConfigMap @19
  StatusUpdate gadgets.example.com/v1/Gadget @42
final [Knative] Reconciler.ReconcileKind, Reconciler.FinalizeKind, reconcilerImpl.Reconcile @internal/final/controller.go:27
  For gadgets.example.com/v1/Gadget @27
  Delete /v1/Secret @19
  StatusUpdate gadgets.example.com/v1/Gadget @42
  Patch gadgets.example.com/v1/Gadget @49
quiet [Knative] Reconciler.ReconcileKind, reconcilerImpl.Reconcile @internal/quiet/controller.go:20
  For gadgets.example.com/v1/Gadget @20
",
    );
    let (f, _) = crate::test_support::resolve_fixture(&files);
    for c in &f.controllers {
        let incomplete = c.client_calls.as_ref().map(|cc| cc.incomplete.clone());
        assert_eq!(incomplete.as_deref(), Some(""), "{}", c.name);
    }
}
