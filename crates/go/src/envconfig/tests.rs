use super::*;
use crate::test_support::resolve_fixture;

#[test]
fn split_words_splits_as_envconfig_does() {
    assert_eq!(split_words("QueueServingTLSPort"), "Queue_Serving_TLS_Port");
    assert_eq!(split_words("UserPort"), "User_Port");
    assert_eq!(
        split_words("EnableHTTPFullDuplex"),
        "Enable_HTTP_Full_Duplex"
    );
    assert_eq!(split_words("ID"), "ID");
}

#[test]
fn envconfig_reads_one_variable_per_field() {
    let (f, diagnostics) = resolve_fixture(
        r#"
//- go.mod
module example.com/lamps
//- cmd/lamps/main.go
package main

import (
	"time"

	"github.com/kelseyhightower/envconfig"
	"example.com/other/observe"
)

type Network struct {
	Port int `default:"8080"`
}

type spec struct {
	PodName      string        `envconfig:"POD_NAME" required:"true"`
	QueueTLSPort string        `split_words:"true"`
	Drain        time.Duration `split_words:"true"`
	Hosts        []string
	Net          Network
	Network
	Observe      observe.Config `ignored:"true"`
	Tracing      observe.Tracing
	secret       string
}

func main() {
	var env spec
	envconfig.MustProcess("lamp", &env)
	var other spec
	prefix := "x"
	_ = envconfig.Process(prefix+"y", &other)
}
"#,
    );
    let lamps = f
        .binaries
        .iter()
        .find(|b| b.name == "lamps")
        .expect("the program");
    let env: Vec<String> = lamps
        .env
        .iter()
        .map(|e| format!("{} @{}", e.name, e.sources[0].line))
        .collect();
    assert_eq!(
        env,
        vec![
            "LAMP_DRAIN @17",
            "LAMP_HOSTS @18",
            "LAMP_NET_PORT @11",
            "LAMP_POD_NAME @15",
            "LAMP_PORT @11",
            "LAMP_QUEUE_TLS_PORT @16",
            "POD_NAME @15",
        ]
    );
    let said: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.message.contains("envconfig"))
        .map(|d| format!("{}: {}", d.line, d.message))
        .collect();
    assert_eq!(
        said,
        vec![
            "28: envconfig reads environment variables here, but the field `Tracing` has a struct type of another module, whose fields are not followed: they are not listed",
            "31: envconfig reads environment variables here, but its prefix `prefix+\"y\"` is not a string constant: they are not listed",
        ]
    );
}
