//! The `relay-service` fixture (Go) and the `kube-operator` fixture (Rust) through the real
//! binary: external connections, feature gates and platform checks, and the pages that
//! show them. Every expected row below was checked by hand against the fixtures' files.

mod common;

use common::{s, sources};

use std::path::{Path, PathBuf};

use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `kind library call target [programs] @source`, target as `from:value`.
fn connection_rows(model: &Value) -> Vec<String> {
    let Some(rows) = model["connections"].as_array() else {
        return Vec::new();
    };
    rows.iter()
        .map(|c| {
            let t = &c["target"];
            let target = match s(t, "from") {
                "constant" if t["prefix"] == true => format!("prefix:{}", s(t, "value")),
                "constant" => format!("constant:{}", s(t, "value")),
                "flag" => format!("flag:--{}={}", s(t, "name"), s(t, "default")),
                "env" => format!("env:{}", s(t, "name")),
                "unresolved" => format!("unresolved:{}", s(t, "expression")),
                other => other.to_string(),
            };
            let programs: Vec<&str> = c["programs"]
                .as_array()
                .map(|p| p.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            format!(
                "{} {} {} {target} [{}] @{}",
                s(c, "kind"),
                s(c, "library"),
                s(c, "call"),
                programs.join(","),
                sources(c)
            )
        })
        .collect()
}

const RELAYD: &str = "github.com/example/relay-service/cmd/relayd";

#[test]
fn go_connections_have_their_targets_from_constants_flags_and_the_environment() {
    let model = common::analyze(&fixture("relay-service"));
    let rows = connection_rows(&model);
    let expected = [
        // A local holding `flag.String(…)`, dereferenced in a struct literal's field.
        format!("redis github.com/redis/go-redis/v9 redis.NewClient flag:--cache-addr=cache.relay.svc:6379 [{RELAYD}] @cmd/relayd/main.go:23"),
        // A package-level variable bound with `flag.StringVar`, its default a constant of
        // another package.
        format!("nats github.com/nats-io/nats.go nats.Connect flag:--nats-url=nats://nats.relay.svc:4222 [{RELAYD}] @cmd/relayd/main.go:25"),
        // The driver name kept with the library; the DSN from the environment.
        format!("sql database/sql (postgres) sql.Open env:RELAY_DATABASE_URL [{RELAYD}] @cmd/relayd/main.go:27"),
        // Reached from main through `relay.Run()`.
        format!("grpc google.golang.org/grpc grpc.NewClient constant:dns:///scorer.relay.svc:9090 [{RELAYD}] @pkg/relay/relay.go:25"),
        format!("kafka github.com/IBM/sarama sarama.NewSyncProducer constant:kafka-0.relay.svc:9092,kafka-1.relay.svc:9092 [{RELAYD}] @pkg/relay/relay.go:27"),
        // Aliased import of a `/v7` module.
        format!("object-store github.com/minio/minio-go/v7 minio.New constant:minio.relay.svc:9000 [{RELAYD}] @pkg/relay/relay.go:29"),
        // A constant joined with a literal: the whole URL is constant.
        format!("http net/http http.Get constant:https://status.example.com/api/v1/ping [{RELAYD}] @pkg/relay/relay.go:31"),
        // `fmt.Sprintf` with a constant format: its start before the first verb.
        format!("http net/http http.NewRequest prefix:http://audit.relay.svc/ [{RELAYD}] @pkg/relay/relay.go:32"),
        // The caller decides the address: unresolved, and no program reaches `Fallback`.
        "redis github.com/redis/go-redis/v9 redis.NewClient unresolved:addr [] @pkg/relay/relay.go:40".to_string(),
    ];
    assert_eq!(rows, expected);
    // Not connections: the package's own `Dial` (relay.go:35, dial.go), a method named
    // `Dial` (dial.go:15), and `http.Get(url)` of a URL made at run time (relay.go:45).
    assert!(
        !rows
            .iter()
            .any(|r| r.contains("dial.go") || r.contains(":35") || r.contains(":45"))
    );
}

#[test]
fn feature_gates_have_their_default_and_stage() {
    let model = common::analyze(&fixture("relay-service"));
    let rows: Vec<String> = model["feature_gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            format!(
                "{} default={} stage={} locked={} @{}",
                s(g, "name"),
                s(g, "default"),
                s(g, "stage"),
                g["locked"] == true,
                sources(g)
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "BatchForwarding default=false stage=Alpha locked=false @pkg/features/features.go:19",
            "StrictOrdering default=true stage=Beta locked=false @pkg/features/features.go:20",
            "LegacyAuth default=true stage=GA locked=true @pkg/features/features.go:21",
        ]
    );
}

#[test]
fn platform_checks_name_what_they_check_and_what_the_branch_switches() {
    let model = common::analyze(&fixture("relay-service"));
    let rows: Vec<String> = model["platform_checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let branch = c["branch"]["line"]
                .as_u64()
                .map(|l| l.to_string())
                .unwrap_or("-".into());
            let switches: Vec<&str> = c["switches"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            format!(
                "{} | {} {} | {} | if@{branch} | {} @{}",
                s(c, "checks"),
                s(c, "method"),
                s(c, "helper"),
                s(c, "function"),
                switches.join("; "),
                sources(c)
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            // `if platform.IsOpenShift(dc) {`: the helper compares group names.
            "route.openshift.io | helper platform.IsOpenShift | main.main | if@31 |  @cmd/relayd/main.go:31",
            // `if ok := platform.HasAPI(dc, "…"); ok {`: the helper's parameter, given here.
            "monitoring.coreos.com/v1 | helper platform.HasAPI | main.main | if@34 |  @cmd/relayd/main.go:34",
            // Assigned, then tested by the next `if` naming the variable; the write inside.
            "route.openshift.io | helper platform.IsOpenShift | controller.TunnelReconciler.Reconcile | if@24 | create Route.route.openshift.io (service) @pkg/controller/tunnel.go:23",
            // The watch the branch adds.
            "route.openshift.io | helper platform.IsOpenShift | controller.TunnelReconciler.SetupWithManager | if@36 | Owns Route.route.openshift.io (service) @pkg/controller/tunnel.go:36",
            // The probes themselves.
            "route.openshift.io | discovery  | platform.IsOpenShift | if@- |  @pkg/platform/platform.go:10",
            "the caller's `groupVersion` | discovery  | platform.HasAPI | if@- |  @pkg/platform/platform.go:24",
        ]
    );
}

#[test]
fn rust_connections_are_matched_by_their_resolved_path() {
    let model = common::analyze(&fixture("kube-operator"));
    assert_eq!(
        connection_rows(&model),
        [
            "http reqwest reqwest::get constant:https://status.example.com/api/v1/leash [] @controller/src/upstream.rs:7",
            // A request on a local holding `reqwest::Client::new()`, to a `format!` prefix.
            "http reqwest reqwest::Client::post prefix:https://audit.example.com/leash/ [] @controller/src/upstream.rs:10",
            // `client.get(computed_url())` (line 13) is a URL made at run time: not listed.
            "grpc tonic tonic::transport::Channel::from_static constant:http://scorer.leash.svc:50051 [] @controller/src/upstream.rs:19",
        ]
    );
}

#[test]
fn the_pages_show_connections_gates_and_checks() {
    let (_dir, out) = common::build_one("relay", &fixture("relay-service"));
    let overview = std::fs::read_to_string(out.join("projects/relay/index.html")).unwrap();
    assert!(overview.contains("id=\"connections\""));
    assert!(overview.contains(
        "<td>redis.NewClient</td><td>flag --cache-addr (default cache.relay.svc:6379)</td><td>relayd</td>"
    ));
    assert!(overview.contains("<td>environment $RELAY_DATABASE_URL</td>"));
    let platform = std::fs::read_to_string(out.join("platform/architecture/index.html")).unwrap();
    assert!(platform.contains("id=\"connections\""));
    assert!(
        platform.contains(
            "<td>grpc.NewClient</td><td>dns:/<wbr>/<wbr>/<wbr>scorer.relay.svc:9090</td>"
        )
    );
    let config_page =
        std::fs::read_to_string(out.join("projects/relay/configuration/index.html")).unwrap();
    for needle in [
        "id=\"feature-gates\"",
        "id=\"feature-gate-legacyauth\"",
        "locked to default",
        "id=\"platform-checks\"",
        "Owns Route.route.openshift.io (service)",
    ] {
        assert!(config_page.contains(needle), "missing {needle}");
    }
}
