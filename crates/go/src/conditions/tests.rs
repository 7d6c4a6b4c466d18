use super::*;
use crate::controllers;
use crate::file::extract;

const API: &str = r#"package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"knative.dev/pkg/apis"
)

var GroupVersion = schema.GroupVersion{Group: "toys.example.com", Version: "v1"}

type BoxConditionType string

const (
	BoxOpen  BoxConditionType = "Open"
	BoxShut  apis.ConditionType = "Shut"
	Plain                     = "Plain"
	ReasonKey                 = "Key"
)

type BoxStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

type Box struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status BoxStatus `json:"status,omitempty"`
}

type Lid struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

var boxConditions = apis.NewBatchConditionSet(BoxShut)

func (s *BoxStatus) SetCondition(t BoxConditionType, c *metav1.Condition) {}

func (s *BoxStatus) MarkShut() {
	boxConditions.Manage(s).MarkUnknown(BoxShut, ReasonKey, "")
}
"#;

const CTL: &str = r#"package ctl

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	v1 "example.com/toys/api/v1"
)

type BoxReconciler struct{}

func (r *BoxReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var box v1.Box
	var lid v1.Lid
	meta.SetStatusCondition(&box.Status.Conditions, metav1.Condition{Type: string(v1.BoxOpen), Status: "True", Reason: v1.ReasonKey})
	box.Status.SetCondition(v1.Plain, &metav1.Condition{Status: metav1.ConditionFalse})
	both(&box, &lid, metav1.Condition{Type: "Both"})
	lid.SetCondition(v1.BoxOpen)
	return ctrl.Result{}, nil
}

func both(a *v1.Box, b *v1.Lid, c metav1.Condition) {}

func logged() metav1.Condition {
	return metav1.Condition{Type: "Logged"}
}

func (r *BoxReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Box{}).Complete(r)
}
"#;

#[test]
fn rows_by_pattern_with_their_kind_statuses_and_reasons() {
    let inputs: Vec<GoInput> = [("api/v1/box.go", API), ("ctl/box.go", CTL)]
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
    let graph = Graph::build(&inputs, &index);
    let reach = crate::writes::controller_reach(&values, &graph, &ctrls, (&[], &[]), &mut diags);
    let resolved = resolve(&inputs, &values, &graph, &reach, &mut ctrls, &mut diags);
    let show = |s: &StatusCondition| {
        format!(
            "{} {}/{} {} [{}] [{}] @{}:{} {}",
            s.condition_type,
            s.group,
            s.version,
            s.kind,
            s.status.join(","),
            s.reasons.join(","),
            s.sources[0].file,
            s.sources[0].line,
            s.function
        )
    };
    let rows: Vec<String> = ctrls[0].conditions.iter().map(show).collect();
    assert_eq!(
        rows,
        [
            // A literal handed to a call with objects of two kinds: `?`, a diagnostic.
            "Both ?/? ? [] [] @ctl/box.go:20 ",
            // meta.SetStatusCondition; `string(…)` of a typed constant.
            "Open toys.example.com/v1 Box [True] [Key] @ctl/box.go:18 ",
            // A helper on an object, its constant typed `BoxConditionType`. (Line 19's
            // `v1.Plain` is untyped: no row; the literals of line 23 and 26 are set on
            // no object.)
            "Open toys.example.com/v1 Lid [] [] @ctl/box.go:21 ",
        ]
    );
    let package: Vec<String> = resolved.package.iter().map(show).collect();
    assert_eq!(
        package,
        [
            "Shut toys.example.com/v1 Box [Unknown] [Key] @api/v1/box.go:39 example.com/toys/api/v1.BoxStatus.MarkShut"
        ]
    );
    assert_eq!(resolved.sets.len(), 1);
    let set = &resolved.sets[0];
    assert_eq!(
        (
            set.kind.as_str(),
            set.happy.as_str(),
            set.dependents.clone()
        ),
        ("Box", "Succeeded", vec!["Shut".to_string()])
    );
    let messages: Vec<String> = diags
        .iter()
        .filter(|d| d.message.contains("condition"))
        .map(|d| format!("{}:{} {}", d.file, d.line, d.message))
        .collect();
    assert_eq!(
        messages,
        [
            "ctl/box.go:20 status condition Both: handed to a call with objects of 2 kinds; which one holds it is not known"
        ]
    );
}
