use super::*;
use crate::extract as parse;
use model::{Area, Diagnostic};

/// One line per metric, `name type [labels] help @file:line`, sorted; and diagnostics.
fn analyze(files: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let parsed: Vec<_> = files
        .iter()
        .map(|(p, t)| parse(p, t, Area::Component))
        .collect();
    let facts: Vec<(&str, Area, &MetricFacts)> = parsed
        .iter()
        .map(|f| (f.path.as_str(), f.area, &f.metrics))
        .collect();
    let mut diagnostics: Vec<Diagnostic> =
        parsed.iter().flat_map(|f| f.diagnostics.clone()).collect();
    let mut rows: Vec<String> = resolve(&facts, &mut diagnostics)
        .iter()
        .map(|m| {
            format!(
                "{} {} [{}] {}{} @{}:{}",
                m.name,
                m.kind,
                m.labels.join(","),
                m.help,
                if m.help_expr { "*" } else { "" },
                m.sources[0].file,
                m.sources[0].line
            )
        })
        .collect();
    rows.sort();
    let d = diagnostics
        .iter()
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect();
    (rows, d)
}

const SERVER_METRICS: &str = r#"use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::{counter::Counter, family::Family, gauge::Gauge, histogram::Histogram};
use prometheus_client::registry::{Registry, Unit};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    code: u16,
}

pub struct ServerMetrics {
    requests: Family<RequestLabels, Counter>,
    in_flight: Gauge,
}

impl ServerMetrics {
    pub fn register(reg: &mut Registry) -> Self {
        let requests = Family::<RequestLabels, Counter>::default();
        reg.register("requests", "Requests served", requests.clone());
        let in_flight: Gauge = Gauge::default();
        reg.register("in_flight", "Requests in progress", in_flight.clone());
        let latency = Histogram::new([0.1, 1.0].into_iter());
        reg.register_with_unit("latency", "Time to answer", Unit::Seconds, latency.clone());
        Self { requests, in_flight }
    }
}

#[derive(Default)]
pub struct Queue {
    depth: Gauge,
}

impl Queue {
    pub fn register(&self, reg: &mut Registry) {
        reg.register("depth", HELP, self.depth.clone());
    }
}
"#;

const SERVER_MAIN: &str = r#"use prometheus_client::metrics::counter::Counter;
use prometheus_client::registry::Registry;

fn main() {
    let mut registry = <Registry>::default();
    let sub = registry.sub_registry_with_prefix("knob");
    let _server = metrics::ServerMetrics::register(sub.sub_registry_with_prefix("http"));
    let restarts = Counter::default();
    registry.register("restarts", "Process restarts", restarts.clone());
    let mut other = Registry::with_prefix("side");
    other.register("bytes", "Bytes sent", Box::new(Counter::<u64>::default()));
    let q = Queue::default();
    q.register(&mut other);
}
"#;

#[test]
fn prometheus_client_registrations_with_prefixes_units_and_labels() {
    let (rows, d) = analyze(&[
        ("metrics/src/lib.rs", SERVER_METRICS),
        ("server/src/main.rs", SERVER_MAIN),
    ]);
    assert_eq!(
        rows,
        vec![
            "knob_http_in_flight gauge [] Requests in progress @metrics/src/lib.rs:21",
            "knob_http_latency_seconds histogram [] Time to answer @metrics/src/lib.rs:23",
            "knob_http_requests_total counter [method,code] Requests served @metrics/src/lib.rs:19",
            "restarts_total counter [] Process restarts @server/src/main.rs:9",
            "side_bytes_total counter [] Bytes sent @server/src/main.rs:11",
            "side_depth gauge [] HELP* @metrics/src/lib.rs:35",
        ]
    );
    assert!(d.is_empty(), "{d:?}");
}

#[test]
fn unknown_registries_types_and_labels_are_shown_as_unknown() {
    let (rows, d) = analyze(&[(
        "app/src/lib.rs",
        r#"use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;

struct App {
    registry: Registry,
}

impl App {
    fn setup(&mut self, m: Custom) {
        self.registry.register("custom", "Custom thing", m);
        let f = Family::<Vec<(String, String)>, prometheus_client::metrics::gauge::Gauge>::default();
        self.registry.register("dyn", "Dynamic labels", f.clone());
    }
}

fn orphan(reg: &mut Registry) {
    reg.register("lonely", "No caller", prometheus_client::metrics::gauge::Gauge::<i64>::default());
    reg.register(name(), "Computed name", prometheus_client::metrics::gauge::Gauge::<i64>::default());
}
"#,
    )]);
    assert_eq!(
        rows,
        vec![
            "?_custom ? [] Custom thing @app/src/lib.rs:10",
            "?_dyn gauge [?] Dynamic labels @app/src/lib.rs:12",
            "?_lonely gauge [] No caller @app/src/lib.rs:17",
        ]
    );
    assert_eq!(
        d,
        vec![
            "app/src/lib.rs:10: cannot tell the type of this metric: `m` is not a prometheus_client metric type or a value made by one; it is shown as ?",
            "app/src/lib.rs:10: cannot resolve the prefix of this metric's registry: `self.registry` is not followed; it is shown as ?",
            "app/src/lib.rs:12: cannot read the labels of this metric: `Vec<(String, String)>` is not a label struct; they are shown as ?",
            "app/src/lib.rs:12: cannot resolve the prefix of this metric's registry: `self.registry` is not followed; it is shown as ?",
            "app/src/lib.rs:17: cannot resolve the prefix of this metric's registry: the registry is a parameter of `orphan` and no call site passing one was found; it is shown as ?",
            "app/src/lib.rs:18: cannot resolve this metric's name: `name()` is not a string literal; the metric is not listed",
        ]
    );
}

#[test]
fn custom_collectors_are_named_by_the_registry_they_are_registered_on() {
    let (rows, d) = analyze(&[
        (
            "index/src/pool/stats.rs",
            r#"use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::{MetricType, gauge::ConstGauge};
use prometheus_client::registry::{Registry, Unit};

struct Stats(Shared);

pub fn register(reg: &mut Registry, shared: Shared) {
    reg.register_collector(Box::new(Stats(shared)));
}

impl Collector for Stats {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        let size = encoder.encode_descriptor("pool_size", "Entries in the pool", None, MetricType::Gauge)?;
        ConstGauge::new(1).encode(size)?;
        let mut by_ns = encoder.encode_descriptor(
            "evictions",
            "Entries evicted",
            None,
            MetricType::Counter,
        )?;
        for ns in self.0.namespaces() {
            let labels = vec![("namespace", ns.as_str()), ("reason", "expired")];
            by_ns.encode_family(&labels)?;
        }
        let age = encoder.encode_descriptor("oldest_age", "Age of the oldest", Some(&Unit::Seconds), MetricType::Gauge)?;
        ConstGauge::new(2).encode(age)?;
        Ok(())
    }
}

struct Forgotten;

impl Collector for Forgotten {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        encoder.encode_descriptor("never_seen", "Not registered", None, MetricType::Gauge)?;
        Ok(())
    }
}
"#,
        ),
        (
            "runtime/src/main.rs",
            r#"use prometheus_client::registry::Registry;

fn main() {
    let mut prom = <Registry>::default();
    index::pool::stats::register(prom.sub_registry_with_prefix("pool"), shared());
}
"#,
        ),
    ]);
    assert_eq!(
        rows,
        vec![
            "pool_evictions_total counter [namespace,reason] Entries evicted @index/src/pool/stats.rs:16",
            "pool_oldest_age_seconds gauge [] Age of the oldest @index/src/pool/stats.rs:26",
            "pool_pool_size gauge [] Entries in the pool @index/src/pool/stats.rs:14",
        ]
    );
    assert_eq!(
        d,
        vec![
            "index/src/pool/stats.rs:36: collector `Forgotten` is not registered anywhere the analysis follows (`register_collector`): its metrics are not listed"
        ]
    );
}

#[test]
fn prometheus_crate_macros_and_constructors() {
    let (rows, d) = analyze(&[(
        "src/metrics.rs",
        r#"use lazy_static::lazy_static;
use prometheus::{opts, register_histogram_vec, register_int_counter, register_int_gauge_vec};
use prometheus::{Histogram, HistogramOpts, IntCounterVec, Opts};

lazy_static! {
    static ref RECONCILES: prometheus::IntCounter =
        register_int_counter!("knob_reconciles_total", "Reconciles run").unwrap();
    static ref QUEUE: prometheus::IntGaugeVec =
        register_int_gauge_vec!(opts!("queue_depth", "Items queued"), &["queue"]).unwrap();
}

pub fn make() -> IntCounterVec {
    let _h = register_histogram_vec!("knob_step_seconds", "Step time", &["step", LABEL]).unwrap();
    let _d = Histogram::with_opts(HistogramOpts::new("knob_wait_seconds", "Wait time")).unwrap();
    IntCounterVec::new(Opts::new("errors_total", "Errors").namespace("knob").subsystem("api"), &["code"]).unwrap()
}
"#,
    )]);
    assert_eq!(
        rows,
        vec![
            "knob_api_errors_total counter [code] Errors @src/metrics.rs:15",
            "knob_reconciles_total counter [] Reconciles run @src/metrics.rs:7",
            "knob_step_seconds histogram [step,?] Step time @src/metrics.rs:13",
            "knob_wait_seconds histogram [] Wait time @src/metrics.rs:14",
            "queue_depth gauge [queue] Items queued @src/metrics.rs:9",
        ]
    );
    assert_eq!(
        d,
        vec![
            "src/metrics.rs:13: cannot resolve a label name of this metric: it is not a string literal; it is shown as ?"
        ]
    );
}
