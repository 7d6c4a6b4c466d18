use super::*;
use crate::test_support::resolve_fixture;

#[test]
fn kong_splits_field_names_as_kong_does() {
    assert_eq!(kebab("LeaderElection"), "leader-election");
    assert_eq!(kebab("CRDsPath"), "cr-ds-path");
    assert_eq!(kebab("MaxReconcileRate"), "max-reconcile-rate");
    assert_eq!(kebab("TLSServerSecretName"), "tls-server-secret-name");
    assert_eq!(kebab("Debug"), "debug");
}

#[test]
fn a_kong_grammar_gives_flags_commands_and_environment_variables() {
    let (f, diagnostics) = resolve_fixture(
        r#"
//- go.mod
module example.com/lamps
//- cmd/lamps/main.go
package main

import (
	"time"

	"github.com/alecthomas/kong"

	"example.com/lamps/internal/serve"
)

type cli struct {
	Verbose bool `help:"Log more." short:"v"`

	Serve serve.Command `cmd:"" help:"Serve lamps."`
	Tools toolsCmd      `cmd:"" hidden:""`
	token string
}

type toolsCmd struct {
	Path string `arg:"" help:"Where."`
}

func main() {
	c := &cli{}
	ctx := kong.Parse(c, kong.Name("lamps"))
	_ = ctx
	_ = time.Second
}
//- internal/serve/serve.go
package serve

import "time"

type Leader struct {
	Enabled bool          `env:"LEADER" help:"Elect a leader."`
	Lease   time.Duration `default:"15s"`
}

type Command struct {
	Leader     `embed:"" prefix:"leader-" envprefix:"LAMPS_"`
	MaxReconcileRate int      `default:"10" env:"MAX_RATE,RATE" help:"Reconciles per second."`
	Namespaces       []string `name:"ns" help:"Namespaces to watch."`
	Skip             string   `kong:"-"`
}
"#,
    );
    let lamps = f
        .binaries
        .iter()
        .find(|b| b.name == "lamps")
        .expect("the program");
    let flags: Vec<String> = lamps
        .flags
        .iter()
        .map(|fl| {
            format!(
                "--{} -{} {} [{}] {} @{}:{}",
                fl.name,
                fl.shorthand,
                fl.kind,
                fl.default,
                fl.help,
                fl.sources[0].file,
                fl.sources[0].line
            )
        })
        .collect();
    assert_eq!(
        flags,
        vec![
            "--leader-enabled - bool [] Elect a leader. @internal/serve/serve.go:6",
            "--leader-lease - duration [15s]  @internal/serve/serve.go:7",
            "--max-reconcile-rate - int [10] Reconciles per second. @internal/serve/serve.go:12",
            "--ns - stringSlice [] Namespaces to watch. @internal/serve/serve.go:13",
            "--verbose -v bool [] Log more. @cmd/lamps/main.go:12",
        ]
    );
    let env: Vec<&str> = lamps.env.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(env, vec!["LAMPS_LEADER", "MAX_RATE", "RATE"]);
    let commands: Vec<String> = lamps
        .commands
        .iter()
        .map(|c| format!("{} [{}] {}", c.path, c.flags.join(","), c.short))
        .collect();
    assert_eq!(
        commands,
        vec![
            "lamps serve [leader-enabled,leader-lease,max-reconcile-rate,ns] Serve lamps.",
            "lamps tools [] ",
        ]
    );
    assert!(
        !diagnostics.iter().any(|d| d.message.contains("kong")),
        "{diagnostics:?}"
    );
}
