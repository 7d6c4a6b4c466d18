use std::fmt::Write;

use crate::test_support::resolve_fixture;

/// Resolves a multi-file fixture as one project: `expect` is its Events rows, then the
/// diagnostics about Events (`!`), one per line.
fn check(files: &str, expect: &str) {
    let (f, diagnostics) = resolve_fixture(files);
    let mut out = String::new();
    for r in f
        .tables
        .iter()
        .filter(|t| t.extractor == "events")
        .flat_map(|t| &t.rows)
    {
        let at = &r.sources[0];
        let _ = writeln!(out, "{} @{}:{}", r.cells.join(" | "), at.file, at.line);
    }
    for d in diagnostics.iter().filter(|d| d.message.contains("Event")) {
        let _ = writeln!(out, "! {}:{}: {}", d.file, d.line, d.message);
    }
    assert_eq!(out.trim_end(), expect.trim(), "\nactual:\n{out}");
}

#[test]
fn events_through_a_recorder_field_a_parameter_and_an_embedding_interface() {
    check(
        r#"
//- go.mod
module example.com/kennel
//- internal/reasons/reasons.go
package reasons

const (
	Prefix = "Kennel"
	Built = Prefix + "Built"
)
//- internal/controller/kennel.go
package controller

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"

	"example.com/kennel/internal/reasons"
)

type Reason string

const reasonStuck Reason = "Stuck"

type Notifier interface {
	record.EventRecorder
	Flush()
}

type KennelReconciler struct {
	Recorder record.EventRecorder
	notify   Notifier
}

func (r *KennelReconciler) Reconcile(k *Kennel) {
	r.Recorder.Event(k, corev1.EventTypeNormal, reasons.Built, "kennel built")
	r.notify.Eventf(k, corev1.EventTypeWarning, string(reasonStuck), "stuck for %s", k.Age)
	warn(r.Recorder, k)
}

func warn(rec record.EventRecorder, k *Kennel) {
	rec.AnnotatedEventf(k, map[string]string{"a": "b"}, "Warning", "Cold", "%d degrees", k.T)
}
"#,
        "
Cold | Warning | %d degrees | warn @internal/controller/kennel.go:31
KennelBuilt | Normal | kennel built | KennelReconciler.Reconcile @internal/controller/kennel.go:25
Stuck | Warning | stuck for %s | KennelReconciler.Reconcile @internal/controller/kennel.go:26
",
    );
}

#[test]
fn the_events_api_recorder_puts_reason_and_note_elsewhere() {
    check(
        r#"
//- go.mod
module example.com/kennel
//- pkg/reconciler/r.go
package reconciler

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"
)

type R struct{ rec events.EventRecorder }

func (r *R) Sync(k *Kennel) {
	r.rec.Eventf(k, nil, corev1.EventTypeNormal, "Synced", "Sync", "synced %s", k.Name)
}
"#,
        "Synced | Normal | synced %s | R.Sync @pkg/reconciler/r.go:11",
    );
}

#[test]
fn methods_named_like_a_recorders_are_not_events_and_unknown_receivers_say_so() {
    check(
            r#"
//- go.mod
module example.com/kennel
//- pkg/trace/t.go
package trace

import "example.com/elsewhere/span"

type Span struct{}

func (s *Span) Event(name string, a, b, c int) {}

func f(s *Span, x span.Thing) {
	s.Event("start", 1, 2, 3)
	x.Eventf(nil, "Normal", "Odd", "from an unknown type")
	unknown().Eventf(nil, "Normal", "Odd", "from an unknown result")
	x.Event(nil, "two arguments: no recorder method takes so few")
}
//- pkg/trace/w.go
package trace

import "k8s.io/client-go/tools/record"

// A struct embedding a recorder records through it.
type Wrapped struct {
	record.EventRecorder
}

func g(w *Wrapped) {
	w.Event(nil, "Normal", "Wrapped", "through an embedded recorder")
}
"#,
            "
Wrapped | Normal | through an embedded recorder | g @pkg/trace/w.go:11
! pkg/trace/t.go:11: `Eventf` may emit a Kubernetes Event, but its receiver's type, span.Thing, is declared outside the repository: not listed under Events
! pkg/trace/t.go:12: `Eventf` may emit a Kubernetes Event, but the type of its receiver is not known here: not listed under Events
",
        );
}

#[test]
fn reasons_that_are_not_constants_are_listed_as_unresolved_with_a_diagnostic() {
    check(
            r#"
//- go.mod
module example.com/kennel
//- pkg/c/c.go
package c

import "k8s.io/client-go/tools/record"

func f(rec record.EventRecorder, reason string, k *Kennel) {
	rec.Eventf(k, "Normal", reason, "done")
}
"#,
            "
? | Normal | done | f @pkg/c/c.go:6
! pkg/c/c.go:6: the reason of this Event, `reason`, is not a constant portolan can evaluate: listed as ?
",
        );
}
