use super::project;
use model::ConnectionTarget;

fn rows(files: &[(&str, &str)]) -> Vec<(String, String, ConnectionTarget, u32)> {
    project(files)
        .connections
        .into_iter()
        .map(|c| (c.kind, c.call, c.target, c.sources[0].line))
        .collect()
}

fn constant(v: &str) -> ConnectionTarget {
    ConnectionTarget::Constant {
        value: v.into(),
        prefix: false,
    }
}

#[test]
fn a_call_counts_only_through_the_librarys_import() {
    let go = "package p

import (
\trpc \"google.golang.org/grpc\"
\tgrpc \"example.com/not/grpc\"
)

func Dial(s string) {}

func f() {
\trpc.NewClient(\"a:1\")
\tgrpc.NewClient(\"b:2\")
\tDial(\"c:3\")
}
";
    assert_eq!(
        rows(&[("go.mod", "module example.com/p\n"), ("p.go", go)]),
        [("grpc".into(), "grpc.NewClient".into(), constant("a:1"), 11)]
    );
}

#[test]
fn a_shadowed_qualifier_and_a_dynamic_http_url_are_no_connections() {
    let go = "package p

import (
\t\"net/http\"
\tredis \"github.com/go-redis/redis/v8\"
)

func f(http client, u string) {
\thttp.Get(\"https://x.example.com\")
}

func g(u string) {
\thttp.Get(u)
\tredis.NewClient(&redis.Options{Addr: u})
}
";
    assert_eq!(
        rows(&[("go.mod", "module example.com/p\n"), ("p.go", go)]),
        [(
            "redis".into(),
            "redis.NewClient".into(),
            ConnectionTarget::Unresolved {
                expression: "u".into()
            },
            14
        )]
    );
}

#[test]
fn confluent_bootstrap_servers_and_kafka_go_brokers() {
    let go = "package p

import (
\tck \"github.com/confluentinc/confluent-kafka-go/v2/kafka\"
\tkafka \"github.com/segmentio/kafka-go\"
)

const broker = \"k:9092\"

func f() {
\tck.NewProducer(&ck.ConfigMap{\"bootstrap.servers\": broker})
\tkafka.NewReader(kafka.ReaderConfig{Brokers: []string{broker, \"l:9092\"}})
}
";
    assert_eq!(
        rows(&[("go.mod", "module example.com/p\n"), ("p.go", go)]),
        [
            (
                "kafka".into(),
                "kafka.NewProducer".into(),
                constant("k:9092"),
                11
            ),
            (
                "kafka".into(),
                "kafka.NewReader".into(),
                constant("k:9092,l:9092"),
                12
            ),
        ]
    );
}
