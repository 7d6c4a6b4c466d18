use super::*;
use crate::controllers;
use crate::file::extract;
use crate::index::GoInput;
use crate::values::Values;
use model::{Area, Controller};

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

/// Runs the Go resolution on `files` (module `example.com/toys` at the root): the
/// controllers, the package informers as rows, and the diagnostics as `file:line message`.
fn run(files: &[(&str, &str)]) -> (Vec<Controller>, Vec<String>, Vec<String>) {
    let inputs: Vec<GoInput> = files
        .iter()
        .map(|(path, src)| GoInput {
            facts: extract(path, src),
            area: Area::Component,
        })
        .collect();
    let mut diags = Vec::new();
    let index = crate::test_support::index(&inputs, "example.com/toys", &mut diags);
    let values = Values::new(&inputs, &index);
    let mut ctrls = controllers::resolve(&inputs, &values, &mut diags);
    let graph = crate::calls::Graph::build(&inputs, &index);
    let reach = crate::writes::controller_reach(&values, &graph, &ctrls, (&[], &[]), &mut diags);
    let package = resolve(
        &inputs,
        &values,
        &graph,
        &super::Reaches {
            reconcile: &reach,
            setup: &[],
        },
        &super::Feeders {
            owners: &[],
            putters: &Default::default(),
        },
        &mut ctrls,
        &mut diags,
    );
    let rows = package
        .iter()
        .map(|i| {
            format!(
                "{} {}/{} {} @{}:{}",
                i.function, i.group, i.version, i.kind, i.sources[0].file, i.sources[0].line
            )
        })
        .collect();
    let messages = diags
        .iter()
        .map(|d| format!("{}:{} {}", d.file, d.line, d.message))
        .collect();
    (ctrls, rows, messages)
}

#[test]
fn informers_attach_to_their_controller_or_their_package() {
    let (ctrls, others, diags) = run(&[("pkg/watcher/w.go", SRC)]);
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
    assert_eq!(
        others,
        vec![
            "startWatches /v1 ConfigMap @pkg/watcher/w.go:28",
            "startWatches /v1 Service @pkg/watcher/w.go:29",
            "startWatches /v1 Pod @pkg/watcher/w.go:30",
            "startWatches ?/? ? @pkg/watcher/w.go:31",
        ]
    );
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0].contains(
        "the resource `gvr` is not a GroupVersionResource expression the analyzer can read"
    ));
}

const TOYS_API: &str = r#"package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

const GroupName = "toys.example.com"

const GadgetResource = "gadgets"

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}

type Gadget struct{}
"#;

/// An in-repo wrapper that hands its GroupVersionResource to a factory's `ForResource`
/// through a second function, and adds handlers to informers it keeps in a slice.
const WATCHSET: &str = r#"package watchset

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

type Factory interface {
	ForResource(namespace string, gvr schema.GroupVersionResource) (informers.GenericInformer, error)
}

type Set struct {
	items []informers.GenericInformer
}

func New(f Factory, gvr schema.GroupVersionResource) (*Set, error) {
	return build(f, gvr, nil)
}

func build(f Factory, res schema.GroupVersionResource, transform cache.TransformFunc) (*Set, error) {
	s := &Set{}
	for _, ns := range []string{"a", "b"} {
		inf, err := f.ForResource(ns, res)
		if err != nil {
			return nil, err
		}
		s.items = append(s.items, inf)
	}
	return s, nil
}

func (s *Set) AddEventHandler(h cache.ResourceEventHandler) {
	for _, i := range s.items {
		_, _ = i.Informer().AddEventHandler(h)
	}
}
"#;

const GADGET_OPERATOR: &str = r#"package gadget

import (
	"errors"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	toysv1 "example.com/toys/api/v1"
	"example.com/toys/pkg/watchset"
)

var podsGVR = corev1.SchemeGroupVersion.WithResource(string(corev1.ResourcePods))

type Operator struct {
	gadgets   *watchset.Set
	sets      *watchset.Set
	secrets   *watchset.Set
	sprockets *watchset.Set
	nsInf     cache.SharedIndexInformer
	otherNs   cache.SharedIndexInformer
	raw       cache.SharedInformer
}

func New(f watchset.Factory, dyn dynamicinformer.DynamicSharedInformerFactory, lw cache.ListerWatcher) (*Operator, error) {
	o := &Operator{}
	var err error
	o.gadgets, err = watchset.New(f, toysv1.SchemeGroupVersion.WithResource(toysv1.GadgetResource))
	o.sets, err = watchset.New(f, appsv1.SchemeGroupVersion.WithResource("statefulsets"))
	o.secrets, err = watchset.New(f, schema.GroupVersionResource{Group: "", Version: "v1", Resource: "secrets"})
	o.sprockets, err = watchset.New(f, toysv1.SchemeGroupVersion.WithResource("sprockets"))
	newNamespaceInformer := func(o *Operator) (cache.SharedIndexInformer, error) {
		if lw == nil {
			return nil, errors.New("no lister-watcher")
		}
		return cache.NewSharedIndexInformer(lw, &corev1.Namespace{}, 0, cache.Indexers{}), nil
	}
	o.nsInf, err = newNamespaceInformer(o)
	o.otherNs = o.nsInf
	o.raw = cache.NewSharedInformer(lw, &unstructured.Unstructured{}, 0)
	pods := dyn.ForResource(podsGVR)
	_, _ = pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{})
	return o, err
}

func (o *Operator) addHandlers(h cache.ResourceEventHandler) {
	o.gadgets.AddEventHandler(h)
	o.sets.AddEventHandler(h)
	o.secrets.AddEventHandler(h)
	o.sprockets.AddEventHandler(h)
	_, _ = o.nsInf.AddEventHandler(h)
	_, _ = o.otherNs.AddEventHandler(h)
	_, _ = o.raw.AddEventHandler(h)
}
"#;

#[test]
fn event_handlers_on_gvr_informers_through_wrappers_fields_and_closures() {
    let (_, rows, messages) = run(&[
        ("api/v1/register.go", TOYS_API),
        ("pkg/watchset/set.go", WATCHSET),
        ("pkg/gadget/operator.go", GADGET_OPERATOR),
    ]);
    let at = |line: u32| format!("@pkg/gadget/operator.go:{line}");
    assert_eq!(
        rows,
        vec![
            format!("New /v1 Pod {}", at(46)),
            format!("Operator.addHandlers toys.example.com/v1 Gadget {}", at(51)),
            format!("Operator.addHandlers apps/v1 StatefulSet {}", at(52)),
            format!("Operator.addHandlers /v1 Secret {}", at(53)),
            format!("Operator.addHandlers ?/? ? {}", at(54)),
            format!("Operator.addHandlers /v1 Namespace {}", at(55)),
            format!("Operator.addHandlers /v1 Namespace {}", at(56)),
        ]
    );
    assert_eq!(
        messages,
        vec![
            "pkg/watchset/set.go:35 an event handler is added here, but the analyzer cannot follow the value to an informer: `i` has no declaration the analyzer can follow",
            "pkg/gadget/operator.go:54 cannot tell which kind this informer watches: resource `sprockets` of `toys.example.com/v1` has no known kind",
        ]
    );
}

const INFORMER_SET: &str = r#"package informerset

import (
	networkingv1informers "k8s.io/client-go/informers/networking/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

type Factory interface {
	Start(stop <-chan struct{})
	Ingresses() networkingv1informers.IngressInformer
	Secrets() SecretInformer
}

type SecretInformer interface {
	Informer() Informer
	Lister() SecretLister
}

type SecretLister interface {
	Secrets(namespace string) corev1listers.SecretNamespaceLister
}

type Informer interface {
	AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error)
	HasSynced() bool
}
"#;

const WIDGET_CONTROLLER: &str = r#"package widgetctl

import (
	"k8s.io/client-go/informers"
	appsv1informers "k8s.io/client-go/informers/apps/v1"
	"k8s.io/client-go/tools/cache"

	toysinformers "example.com/toys/pkg/client/informers/externalversions/toys/v1"
	"example.com/toys/pkg/informerset"
	gwinformers "sigs.k8s.io/gateway-api/pkg/client/informers/externalversions"
)

type Context struct {
	Kube   informerset.Factory
	Shared informers.SharedInformerFactory
	// Its package tells its groups: more than one well-known group makes `GatewayV1`.
	Gateways gwinformers.SharedInformerFactory
}

type controller struct {
	deployments appsv1informers.DeploymentInformer
	events      *EventBus
}

type EventBus struct{}

func (b *EventBus) AddEventHandler(h func()) {}

func Register(ctx *Context, gadgets toysinformers.GadgetInformer, h cache.ResourceEventHandler) {
	secrets := ctx.Kube.Secrets()
	secrets.Informer().AddEventHandler(h)
	ctx.Kube.Ingresses().Informer().AddEventHandler(h)
	gadgets.Informer().AddEventHandler(h)
	cmInf := ctx.Shared.Core().V1().ConfigMaps().Informer()
	cmInf.AddEventHandler(h)
	pods := ctx.Shared.Core().V1().Pods()
	_ = pods.Lister()
	_ = pods.Informer().HasSynced
	svcs := ctx.Shared.Core().V1().Services()
	_ = svcs.Lister()
	svcs.Informer().AddEventHandler(h)
	func(c *Context) {
		c.Kube.Secrets().Informer().AddEventHandler(h)
	}(ctx)
	ctx.Gateways.Gateway().V1().Gateways().Informer().AddEventHandler(h)
}

func (c *controller) run(h cache.ResourceEventHandler) {
	c.deployments.Informer().AddEventHandler(h)
	c.events.AddEventHandler(func() {})
}
"#;

#[test]
fn event_handlers_on_typed_informers_and_factory_locals() {
    let (_, rows, messages) = run(&[
        ("api/v1/register.go", TOYS_API),
        ("pkg/informerset/set.go", INFORMER_SET),
        ("pkg/widgetctl/controller.go", WIDGET_CONTROLLER),
    ]);
    let at = |line: u32| format!("@pkg/widgetctl/controller.go:{line}");
    assert_eq!(
        rows,
        vec![
            format!("Register /v1 Secret {}", at(31)),
            format!("Register networking.k8s.io/v1 Ingress {}", at(32)),
            format!("Register toys.example.com/v1 Gadget {}", at(33)),
            format!("Register /v1 ConfigMap {}", at(35)),
            // Obtained and used without a handler: reported once, where it is obtained.
            format!("Register /v1 Pod {}", at(36)),
            format!("Register /v1 Service {}", at(41)),
            format!("Register /v1 Secret {}", at(43)),
            format!("Register gateway.networking.k8s.io/v1 Gateway {}", at(45)),
            format!("controller.run apps/v1 Deployment {}", at(49)),
        ]
    );
    assert_eq!(
        messages,
        vec![
            "pkg/widgetctl/controller.go:50 an event handler is added here, but the analyzer cannot follow the value to an informer: field controller.events is not a typed informer",
        ]
    );
}
