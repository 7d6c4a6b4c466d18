use super::*;
use crate::test_support;
use model::Area;
use std::collections::BTreeMap;

/// One line per metric: `name type [labels] help[*] @file:line`, `*` marking Go source
/// text; and the diagnostics as `line: message`.
fn analyze(files: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let inputs: Vec<GoInput> = test_support::inputs(files);
    let modules = vec![test_support::module("example.com/app")];
    let mut diagnostics = Vec::new();
    let found = super::super::resolve(&inputs, &modules, &BTreeMap::new(), &[], &mut diagnostics);
    let rows = found
        .metrics
        .iter()
        .map(|m| {
            format!(
                "{} {} [{}] {}{}{} @{}",
                m.name,
                m.kind,
                m.labels.join(","),
                m.help,
                if m.help_expr { "*" } else { "" },
                if m.area == Area::Samples {
                    " (samples)"
                } else {
                    ""
                },
                m.sources
                    .iter()
                    .map(|s| format!("{}:{}", s.file, s.line))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect();
    let diags = diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.line, d.message))
        .collect();
    (rows, diags)
}

#[test]
fn collectors_in_var_blocks_and_functions_with_resolved_names_and_labels() {
    let (rows, diags) = analyze(&[
        (
            "pkg/server/metrics.go",
            r#"package server

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"example.com/app/pkg/names"
)

const subsystem = "http"

var (
	commonLabels = []string{names.LabelCode, "method"}
	queueLabels  = append([]string{"queue"}, commonLabels...)

	requestsTotal = prometheus.NewCounterVec(
		prometheus.CounterOpts{
			Namespace: names.Namespace,
			Subsystem: subsystem,
			Name:      "requests_total",
			Help:      "Requests served, by " + "code and method.",
		},
		commonLabels,
	)

	latency = promauto.NewHistogram(prometheus.HistogramOpts{
		Namespace: names.Namespace,
		Name:      "request_duration_seconds",
		Help:      describe("latency"),
	})
)

func registerQueueMetrics(reg prometheus.Registerer) {
	factory := promauto.With(reg)
	factory.NewGaugeVec(prometheus.GaugeOpts{Name: "queue_depth", Help: "Items waiting."}, queueLabels)
	opts := prometheus.SummaryOpts{Subsystem: subsystem, Name: "batch_size"}
	prometheus.NewSummaryVec(opts, append(commonLabels, "batch"))
	promauto.With(reg).NewGauge(prometheus.GaugeOpts{Name: "up"})
	prometheus.NewCounter(prometheus.CounterOpts(prometheus.Opts{Name: "restarts_total"}))
}
"#,
        ),
        (
            "pkg/names/names.go",
            "package names\n\nconst (\n\tNamespace = \"knob\"\n\tLabelCode = \"code\"\n)\n",
        ),
    ]);
    assert_eq!(
        rows,
        vec![
            "http_batch_size summary [code,method,batch]  @pkg/server/metrics.go:37",
            "knob_http_requests_total counter [code,method] Requests served, by code and method. @pkg/server/metrics.go:16",
            "knob_request_duration_seconds histogram [] describe(\"latency\")* @pkg/server/metrics.go:26",
            "queue_depth gauge [queue,code,method] Items waiting. @pkg/server/metrics.go:35",
            "restarts_total counter []  @pkg/server/metrics.go:39",
            "up gauge []  @pkg/server/metrics.go:38",
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn custom_collector_descriptors_take_their_type_from_const_metrics() {
    let (rows, diags) = analyze(&[(
        "pkg/cache/collector.go",
        r#"package cache

import "github.com/prometheus/client_golang/prometheus"

var entriesDesc = prometheus.NewDesc(
	prometheus.BuildFQName("knob", "", "cache_entries"),
	"Entries in the cache.",
	[]string{"shard"}, nil,
)

var untypedDesc = prometheus.NewDesc("knob_cache_misc", "Misc.", nil, nil)

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(entriesDesc, prometheus.GaugeValue, 1, "a")
}
"#,
    )]);
    assert_eq!(
        rows,
        vec![
            "knob_cache_entries gauge [shard] Entries in the cache. @pkg/cache/collector.go:5",
            "knob_cache_misc ? [] Misc. @pkg/cache/collector.go:11",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "11: cannot tell the type of this custom-collector metric: no single MustNewConstMetric/histogram/summary use of its descriptor; it is shown as ?"
        ]
    );
}

#[test]
fn descriptors_in_struct_fields_take_their_type_from_const_metrics() {
    let (rows, diags) = analyze(&[(
        "pkg/cache/fields.go",
        r#"package cache

import "github.com/prometheus/client_golang/prometheus"

type collector struct {
	sizeDesc    *prometheus.Desc
	hitsDesc    *prometheus.Desc
	stateDesc   *prometheus.Desc
	latencyDesc *prometheus.Desc
}

var batchDesc = prometheus.NewDesc("knob_cache_batch", "Batch sizes.", nil, nil)

func newCollector() *collector {
	return &collector{
		sizeDesc: prometheus.NewDesc("knob_cache_size_bytes", "Bytes held.", nil, nil),
		hitsDesc: prometheus.NewDesc("knob_cache_hits_total", "Cache hits.", []string{"tier"}, nil),
	}
}

func (c *collector) init() {
	c.stateDesc = prometheus.NewDesc("knob_cache_state", "State.", nil, nil)
	c.latencyDesc = prometheus.NewDesc("knob_cache_latency_seconds", "Latency.", nil, nil)
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(c.sizeDesc, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(c.hitsDesc, prometheus.CounterValue, 2, "l1")
	m, _ := prometheus.NewConstMetric(c.stateDesc, prometheus.UntypedValue, 3)
	ch <- m
	ch <- prometheus.MustNewConstHistogram(c.latencyDesc, 4, 1.5, map[float64]uint64{1: 4})
	ch <- prometheus.MustNewConstSummary(batchDesc, 4, 10, map[float64]float64{0.5: 2})
}

type other struct{ sizeDesc *prometheus.Desc }

func newOther() *other {
	return &other{sizeDesc: prometheus.NewDesc("knob_other_size", "Other size.", nil, nil)}
}

func (o *other) Collect(ch chan<- prometheus.Metric, d *prometheus.Desc) {
	ch <- prometheus.MustNewConstMetric(o.sizeDesc, prometheus.CounterValue, 1)
	ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, 1)
}
"#,
    )]);
    assert_eq!(
        rows,
        vec![
            "knob_cache_batch summary [] Batch sizes. @pkg/cache/fields.go:12",
            "knob_cache_hits_total counter [tier] Cache hits. @pkg/cache/fields.go:17",
            "knob_cache_latency_seconds histogram [] Latency. @pkg/cache/fields.go:23",
            "knob_cache_size_bytes gauge [] Bytes held. @pkg/cache/fields.go:16",
            "knob_cache_state untyped [] State. @pkg/cache/fields.go:22",
            "knob_other_size counter [] Other size. @pkg/cache/fields.go:38",
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn unresolvable_parts_are_shown_as_unknown_and_reported() {
    let (rows, diags) = analyze(&[(
        "test/e2e/metrics.go",
        r#"package e2e

import "github.com/prometheus/client_golang/prometheus"

func newCounter(name string, labels []string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "e2e", Name: name}, labels)
}

func other() {
	prometheus.NewGauge(gaugeOpts())
	prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "x"})
}
"#,
    )]);
    assert_eq!(
        rows,
        vec!["e2e_? counter [?]  (samples) @test/e2e/metrics.go:6"]
    );
    assert_eq!(
        diags,
        vec![
            "6: cannot resolve part of this metric's name: `name` is not a string constant; it is shown as ?",
            "6: cannot resolve a label name of this metric: `labels` is not a string constant or list; it is shown as ?",
            "10: cannot read the options of this collector: `gaugeOpts()` is not an options literal; the metric is not listed",
            "11: this collector has no Name; the metric is not listed",
        ]
    );
}

#[test]
fn build_fq_name_matches_client_golang() {
    assert_eq!(build_fq_name("a", "b", "c"), "a_b_c");
    assert_eq!(build_fq_name("a", "", "c"), "a_c");
    assert_eq!(build_fq_name("", "b", "c"), "b_c");
    assert_eq!(build_fq_name("", "", "c"), "c");
    assert_eq!(build_fq_name("a", "b", ""), "");
}

#[test]
fn other_packages_named_prometheus_methods_are_ignored() {
    let (rows, _) = analyze(&[(
        "pkg/x/x.go",
        "package x\n\nimport prometheus \"example.com/fake\"\n\nvar c = prometheus.NewCounter(prometheus.CounterOpts{Name: \"fake\"})\nvar d = registry.NewCounter(CounterOpts{Name: \"other\"})\n",
    )]);
    assert!(rows.is_empty(), "{rows:?}");
}

#[test]
fn opentelemetry_instruments_with_their_names_and_descriptions() {
    let src = r#"package telemetry

import (
	"go.opentelemetry.io/otel"
	otelmetric "go.opentelemetry.io/otel/metric"
)

const prefix = "lamp."

type recorder struct {
	lit otelmetric.Int64Counter
}

func newRecorder() (*recorder, error) {
	meter := otel.GetMeterProvider().Meter("example.com/app")
	r := &recorder{}
	var err error
	r.lit, err = meter.Int64Counter(prefix+"lit", otelmetric.WithDescription("Lamps lit"), otelmetric.WithUnit("{lamp}"))
	if err != nil {
		return nil, err
	}
	_, _ = meter.Float64Histogram("lamp.warmup.duration", otelmetric.WithUnit("s"))
	_, _ = meter.Int64ObservableGauge("lamp.lit.now")
	_, _ = meter.Int64UpDownCounter(name())
	return r, nil
}

func name() string { return "x" }

// A meter held in a package-level variable.
var shared otelmetric.Meter

func initShared() {
	_, _ = shared.Int64Counter("lamp.swaps")
}
"#;
    let (rows, diags) = analyze(&[("telemetry/otel.go", src)]);
    assert_eq!(
        rows,
        vec![
            "? updowncounter []  @telemetry/otel.go:24",
            "lamp.lit counter [] Lamps lit @telemetry/otel.go:18",
            "lamp.lit.now gauge []  @telemetry/otel.go:23",
            "lamp.swaps counter []  @telemetry/otel.go:34",
            "lamp.warmup.duration histogram []  @telemetry/otel.go:22",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "24: cannot resolve part of this metric's name: `name()` is not a string constant; it is shown as ?"
        ]
    );
}
