use super::project;
use model::Manager;

/// Each option as `name [object] [namespace] = value [expr] [--flag=default] [when]
/// @line`.
fn rows(m: &Manager) -> Vec<String> {
    m.options
        .iter()
        .map(|o| {
            let mut s = o.name.clone();
            if let Some(g) = &o.object {
                s.push_str(&format!(" [{}]", g.display()));
            }
            if let Some(ns) = &o.namespace {
                s.push_str(&format!(" ns={ns:?}"));
            }
            s.push_str(&format!(" = {:?}", o.value));
            if o.expr {
                s.push_str(" expr");
            }
            if let Some(f) = &o.flag {
                s.push_str(&format!(" --{}={}", f.name, f.default));
            }
            if !o.condition.is_empty() {
                s.push_str(&format!(" when {}", o.condition));
            }
            s.push_str(&format!(" @{}", o.sources[0].line));
            s
        })
        .collect()
}

const MAIN: &str = r#"package main

import (
	"flag"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"example.com/op/internal/setup"
)

func main() {
	var ns, addr string
	flag.StringVar(&ns, "watch-namespace", "team-a", "Namespace to cache.")
	flag.StringVar(&addr, "metrics-bind-address", ":8080", "Metrics address.")
	flag.Parse()
	lease := 30 * time.Second
	opts := ctrl.Options{
		MetricsBindAddress: addr,
		LeaseDuration:      &lease,
		WebhookServer:      webhook.NewServer(webhook.Options{Port: 9443}),
		Client: client.Options{Cache: &client.CacheOptions{
			DisableFor: []client.Object{&corev1.ConfigMap{}},
		}},
	}
	opts.Cache = setup.Cache()
	opts.Cache.DefaultNamespaces = map[string]cache.Config{ns: {}}
	if addr != "" {
		opts.Cache.ByObject[&corev1.Pod{}] = cache.ByObject{Field: fields.OneTermEqualSelector("spec.nodeName", "n1")}
	}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), opts)
	_ = mgr
}
"#;

const SETUP: &str = r#"package setup

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const PartOf = "op"

func Cache() cache.Options {
	owned := cache.ByObject{Label: labels.SelectorFromSet(labels.Set{"app.kubernetes.io/part-of": PartOf})}
	return cache.Options{
		DefaultTransform: cache.TransformStripManagedFields(),
		ByObject: map[client.Object]cache.ByObject{
			&corev1.Secret{}: owned,
		},
	}
}
"#;

#[test]
fn options_from_a_variable_assignments_a_helper_and_flags() {
    let f = project(&[
        ("go.mod", "module example.com/op\n"),
        ("cmd/op/main.go", MAIN),
        ("internal/setup/cache.go", SETUP),
    ]);
    assert_eq!(f.managers.len(), 1);
    let m = &f.managers[0];
    assert_eq!(m.cache_unknown, "");
    assert_eq!(m.binaries, ["example.com/op/cmd/op"]);
    assert_eq!(
        rows(m),
        [
            "MetricsBindAddress = \":8080\" --metrics-bind-address=:8080 @23",
            "LeaseDuration = \"30s\" @24",
            "WebhookServer.Port = \"9443\" @25",
            "Client.Cache.DisableFor [v1 ConfigMap] = \"\" @27",
            "Cache.DefaultTransform = \"cache.TransformStripManagedFields() (strips managedFields)\" @15",
            // The shared `ByObject` (line 13) is shown at the entry that uses it.
            "Cache.ByObject.Label [v1 Secret] = \"app.kubernetes.io/part-of=op\" @17",
            "Cache.DefaultNamespaces ns=\"team-a\" = \"\" --watch-namespace=team-a @31",
            "Cache.ByObject.Field [v1 Pod] = \"spec.nodeName=n1\" when if addr != \"\" @33",
        ]
    );
}

#[test]
fn options_handed_to_a_function_make_the_cache_scope_unknown() {
    let src = r#"package main

import ctrl "sigs.k8s.io/controller-runtime"

func main() {
	opts := ctrl.Options{LeaderElectionID: "x.example.io"}
	customize(&opts)
	mgr, _ := ctrl.NewManager(nil, opts)
	_ = mgr
}

func customize(o *ctrl.Options) {}
"#;
    let f = project(&[("go.mod", "module example.com/op\n"), ("main.go", src)]);
    let m = &f.managers[0];
    assert_eq!(
        m.cache_unknown,
        "`&opts` is handed to `customize`, which may change it; its changes are not followed"
    );
    assert_eq!(rows(m), ["LeaderElectionID = \"x.example.io\" @6"]);
    assert!(
        f.diagnostics
            .iter()
            .any(|d| d.line == 7 && d.message.starts_with("manager options not fully known"))
    );
}

#[test]
fn a_parameter_outside_the_cache_is_a_row_not_an_unknown_scope() {
    let src = r#"package server

import (
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func New(m metricsserver.Options, elect bool) {
	opt := ctrl.Options{Metrics: m}
	if elect {
		opt.LeaderElection = true
	}
	mgr, _ := ctrl.NewManager(nil, opt)
	_ = mgr
}
"#;
    let f = project(&[
        ("go.mod", "module example.com/op\n"),
        ("pkg/server/s.go", src),
    ]);
    let m = &f.managers[0];
    assert_eq!(m.cache_unknown, "");
    assert!(m.binaries.is_empty());
    assert_eq!(
        rows(m),
        [
            "Metrics = \"m\" expr @9",
            "LeaderElection = \"true\" when if elect @11",
        ]
    );
}
