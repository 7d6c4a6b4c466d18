use super::*;
use crate::test_support;

/// Analyzes files of a module `example.com/app` and returns (binaries, diagnostics).
fn analyze(files: &[(&str, &str)]) -> (Vec<Binary>, Vec<Diagnostic>) {
    let inputs: Vec<GoInput> = test_support::inputs(files);
    let modules = vec![test_support::module("example.com/app")];
    let mut diagnostics = Vec::new();
    let found = super::super::resolve(&inputs, &modules, &BTreeMap::new(), &[], &mut diagnostics);
    (found.binaries, diagnostics)
}

/// One line per flag: `binary --name[,-s] type default[*] | help[*] @file:line…`, where
/// `*` marks Go source text, then one per environment variable.
fn rows(binaries: &[Binary]) -> Vec<String> {
    let at = |s: &[SourceRef]| {
        s.iter()
            .map(|s| format!("{}:{}", s.file, s.line))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut out = Vec::new();
    for b in binaries {
        let who = if b.is_package() {
            format!("pkg:{}", b.package)
        } else {
            b.name.clone()
        };
        for f in &b.flags {
            let short = if f.shorthand.is_empty() {
                String::new()
            } else {
                format!(",-{}", f.shorthand)
            };
            let lib = if f.library.is_empty() {
                String::new()
            } else {
                format!("[{}] ", f.library)
            };
            out.push(format!(
                "{who} {lib}--{}{short} {} {:?}{} | {}{} @{}",
                f.name,
                f.kind,
                f.default,
                match (f.default_expr, f.default_env) {
                    (true, _) => "*",
                    (_, true) => "$",
                    _ => "",
                },
                f.help,
                if f.help_expr { "*" } else { "" },
                at(&f.sources)
            ));
        }
        for e in &b.env {
            out.push(format!("{who} ${} @{}", e.name, at(&e.sources)));
        }
    }
    out
}

#[test]
fn standard_library_flags_in_all_forms() {
    let (b, d) = analyze(&[(
        "cmd/tool/main.go",
        r#"package main

import (
	"flag"
	"time"
)

var dryRun = flag.Bool("dry-run", false, "Print what would change.")

func main() {
	var addr string
	workers := flag.Int("workers", 4, "Worker count.")
	flag.StringVar(&addr, "addr", ":9000", "Listen address.")
	flag.Duration("timeout", 5*time.Second, "Request timeout.")
	flag.Float64("ratio", 0.5, "Sampling ratio.")
	flag.Uint("burst", 10, "Burst size.")
	flag.Int64("limit", -1, "Byte limit.")
	fs := flag.NewFlagSet("sub", flag.ExitOnError)
	fs.StringVar(&addr, "sub-addr", "", "Address for the subcommand.")
	flag.CommandLine.BoolVar(&verbose, "verbose", true, "Log more.")
	flag.Func("mode", "Mode of operation.", parseMode)
	flag.Var(&levels, "level", "Log level.")
	flag.Parse()
	_ = workers
}
"#,
    )]);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        rows(&b),
        vec![
            r#"tool --addr string ":9000" | Listen address. @cmd/tool/main.go:13"#,
            r#"tool --burst uint "10" | Burst size. @cmd/tool/main.go:16"#,
            r#"tool --dry-run bool "false" | Print what would change. @cmd/tool/main.go:8"#,
            r#"tool --level value "&levels"* | Log level. @cmd/tool/main.go:22"#,
            r#"tool --limit int64 "-1" | Byte limit. @cmd/tool/main.go:17"#,
            r#"tool --mode func "" | Mode of operation. @cmd/tool/main.go:21"#,
            r#"tool --ratio float64 "0.5" | Sampling ratio. @cmd/tool/main.go:15"#,
            r#"tool --sub-addr string "" | Address for the subcommand. @cmd/tool/main.go:19"#,
            r#"tool --timeout duration "5s" | Request timeout. @cmd/tool/main.go:14"#,
            r#"tool --verbose bool "true" | Log more. @cmd/tool/main.go:20"#,
            r#"tool --workers int "4" | Worker count. @cmd/tool/main.go:12"#,
        ]
    );
    assert_eq!(b[0].sources, vec![SourceRef::new("cmd/tool/main.go", 10)]);
    assert_eq!(b[0].package, "example.com/app/cmd/tool");
}

#[test]
fn kingpin_flags_on_applications_commands_and_the_default_app() {
    let (b, d) = analyze(&[
        (
            "cmd/relay/main.go",
            r#"package main

import (
	"time"

	"github.com/alecthomas/kingpin/v2"
	"example.com/app/internal/build"
)

const (
	pollEvery  = 90 * time.Second
	modeCopy   = "copy"
	envPrefix  = "RELAY_"
)

func main() {
	app := kingpin.New("relay", "Copies things.")
	src := app.Flag("source", "Where to read.").Required().String()
	every := app.Flag("poll-interval", "How often to look.").
		Default(pollEvery.String()).Duration()
	app.Flag("mode", "How to relay.").Default(modeCopy).Enum(modeCopy, "move")
	var level string
	app.Flag("log-level", "Log level.").Short('l').Envar(envPrefix + "LOG_LEVEL").Default("info").StringVar(&level)
	app.Flag("ratio", "Share kept.").Default("0.5").Float64()
	push := app.Command("push", "Push once.")
	push.Flag("force", "Overwrite.").Bool()
	build.AddVersionFlag(app)
	_ = kingpin.MustParse(app.Parse(nil))
	_, _, _ = src, every, level
}
"#,
        ),
        (
            "internal/build/flags.go",
            r#"package build

import kp "gopkg.in/alecthomas/kingpin.v2"

func AddVersionFlag(a *kp.Application) {
	a.Flag("print-version", "Print the version.").Bool()
}
"#,
        ),
        (
            "cmd/probe/main.go",
            r#"package main

import "github.com/alecthomas/kingpin/v2"

var target = kingpin.Flag("target", "What to probe.").Default("localhost:80").URL()

type fake struct{}

func (fake) Flag(name, help string) fake { return fake{} }

func main() {
	var f fake
	f.Flag("not-a-flag", "A method that only shares the name.")
	kingpin.Parse()
	_ = target
}
"#,
        ),
    ]);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        rows(&b),
        vec![
            r#"probe --target url "localhost:80" | What to probe. @cmd/probe/main.go:5"#,
            r#"relay --force bool "" | Overwrite. @cmd/relay/main.go:26"#,
            r#"relay --log-level,-l string "info" | Log level. @cmd/relay/main.go:23"#,
            r#"relay --mode enum "copy" | How to relay. @cmd/relay/main.go:21"#,
            r#"relay --poll-interval duration "1m30s" | How often to look. @cmd/relay/main.go:19"#,
            r#"relay --print-version bool "" | Print the version. @internal/build/flags.go:6"#,
            r#"relay --ratio float64 "0.5" | Share kept. @cmd/relay/main.go:24"#,
            r#"relay --source string "" | Where to read. @cmd/relay/main.go:18"#,
            "relay $RELAY_LOG_LEVEL @cmd/relay/main.go:23",
        ]
    );
}

#[test]
fn pflag_and_cobra_flags_with_shorthands() {
    let (b, d) = analyze(&[(
        "cmd/knob/main.go",
        r#"package main

import (
	"time"

	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

func main() {
	port := flag.IntP("port", "p", 8080, "Port to serve on.")
	flag.StringSliceVar(&tags, "tag", []string{"a"}, "Tags to apply.")
	cmd := &cobra.Command{Use: "knob"}
	cmd.Flags().StringVarP(&name, "name", "n", "knob", "Instance name.")
	cmd.PersistentFlags().BoolP("quiet", "q", false, "Print nothing.")
	flags := cmd.Flags()
	flags.CountP("verbose", "v", "More output.")
	flags.DurationVar(&every, "every", time.Minute, "Interval.")
	_ = port
}
"#,
    )]);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        rows(&b),
        vec![
            r#"knob --every duration "1m0s" | Interval. @cmd/knob/main.go:18"#,
            r#"knob --name,-n string "knob" | Instance name. @cmd/knob/main.go:14"#,
            r#"knob --port,-p int "8080" | Port to serve on. @cmd/knob/main.go:11"#,
            r#"knob --quiet,-q bool "false" | Print nothing. @cmd/knob/main.go:15"#,
            r#"knob --tag stringSlice "[a]" | Tags to apply. @cmd/knob/main.go:12"#,
            r#"knob --verbose,-v count "0" | More output. @cmd/knob/main.go:17"#,
        ]
    );
}

#[test]
fn constants_from_other_files_and_packages_name_default_and_describe_flags() {
    let (b, d) = analyze(&[
        (
            "cmd/knob/main.go",
            r#"package main

import (
	"flag"

	"example.com/app/pkg/defaults"
)

func main() {
	flag.String(flagCache, defaults.CacheDir, helpPrefix+"cache files.")
	flag.Int("retries", defaults.Retries, "Retries.")
	flag.Duration("grace", defaults.Grace, "Grace period.")
	flag.String("mode", string(defaults.ModeFast), "Mode.")
	flag.String("region", region, "Region.")
}
"#,
        ),
        (
            "cmd/knob/names.go",
            "package main\n\nconst flagCache = \"cache-dir\"\n\nconst helpPrefix = \"Where to keep \"\n",
        ),
        (
            "pkg/defaults/defaults.go",
            r#"package defaults

import "time"

type Mode string

const (
	CacheDir          = "/var/cache/" + app
	app               = "knob"
	Retries           = 3
	Grace             = 30 * time.Second
	ModeFast     Mode = "fast"
)
"#,
        ),
    ]);
    assert_eq!(
        rows(&b),
        vec![
            r#"knob --cache-dir string "/var/cache/knob" | Where to keep cache files. @cmd/knob/main.go:10"#,
            r#"knob --grace duration "30s" | Grace period. @cmd/knob/main.go:12"#,
            r#"knob --mode string "fast" | Mode. @cmd/knob/main.go:13"#,
            r#"knob --region string "region"* | Region. @cmd/knob/main.go:14"#,
            r#"knob --retries int "3" | Retries. @cmd/knob/main.go:11"#,
        ]
    );
    assert!(d.is_empty(), "{d:?}");
}

#[test]
fn help_listing_choices_with_strings_join_of_constants_is_evaluated() {
    let (b, d) = analyze(&[(
        "cmd/knob/main.go",
        r#"package main

import (
	"flag"
	"strings"
)

const (
	modeFast = "fast"
	modeSafe = "safe"
)

var modes = strings.Join([]string{modeFast, modeSafe}, ", ")

var other = strings.Join(dynamic(), ", ")

func main() {
	flag.String("mode", modeFast, "Mode: one of "+modes+".")
	flag.String("other", "", "One of "+other+".")
}
"#,
    )]);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        rows(&b),
        vec![
            r#"knob --mode string "fast" | Mode: one of fast, safe. @cmd/knob/main.go:18"#,
            r#"knob --other string "" | "One of "+other+"."* @cmd/knob/main.go:19"#,
        ]
    );
}

const OPTIONS: &str = r#"package options

import (
	"os"
	"time"

	"github.com/spf13/pflag"
)

type Common struct {
	LogFormat string
}

type Options struct {
	Common
	Listen  string
	Timeout time.Duration
	Workers int
	Token   string
}

func NewOptions() *Options {
	return &Options{
		Common:  Common{LogFormat: "json"},
		Listen:  DefaultListen,
		Timeout: 30 * time.Second,
		Token:   os.Getenv("KNOB_TOKEN"),
	}
}

const DefaultListen = ":7070"

func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Listen, "listen", o.Listen, "Address to listen on.")
	fs.DurationVar(&o.Timeout, "timeout", o.Timeout, "Request timeout.")
	fs.IntVar(&o.Workers, "workers", o.Workers, "Worker count.")
	fs.StringVar(&o.LogFormat, "log-format", o.LogFormat, "Log format.")
	fs.StringVar(&o.Token, "token", o.Token, "API token.")
}
"#;

#[test]
fn flags_registered_from_another_package_belong_to_the_calling_binary() {
    let (b, d) = analyze(&[
        (
            "cmd/knobd/main.go",
            r#"package main

import (
	"github.com/spf13/cobra"

	"example.com/app/pkg/options"
)

func main() {
	opts := options.NewOptions()
	cmd := &cobra.Command{Use: "knobd"}
	opts.AddFlags(cmd.Flags())
}
"#,
        ),
        ("pkg/options/options.go", OPTIONS),
    ]);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        rows(&b),
        vec![
            r#"knobd --listen string ":7070" | Address to listen on. @pkg/options/options.go:34"#,
            r#"knobd --log-format string "json" | Log format. @pkg/options/options.go:37"#,
            r#"knobd --timeout duration "30s" | Request timeout. @pkg/options/options.go:35"#,
            r#"knobd --token string "$KNOB_TOKEN"$ | API token. @pkg/options/options.go:38"#,
            r#"knobd --workers int "0" | Worker count. @pkg/options/options.go:36"#,
            r#"knobd $KNOB_TOKEN @pkg/options/options.go:27"#,
        ]
    );
}

#[test]
fn a_nested_options_struct_takes_its_defaults_from_the_constructor_its_parent_calls() {
    let (b, d) = analyze(&[
        (
            "cmd/knobd/main.go",
            "package main\n\nimport (\n\t\"github.com/spf13/pflag\"\n\n\t\"example.com/app/pkg/server\"\n)\n\nfunc main() {\n\tserver.NewOptions().AddFlags(pflag.CommandLine)\n}\n",
        ),
        (
            "pkg/server/options.go",
            r#"package server

import (
	"github.com/spf13/pflag"

	"example.com/app/pkg/logging"
)

type Options struct {
	Log *logging.Options
}

func NewOptions() *Options {
	return &Options{Log: logging.NewOptions()}
}

func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.Log.AddFlags(fs)
}
"#,
        ),
        (
            "pkg/logging/logging.go",
            r#"package logging

import "github.com/spf13/pflag"

const defaultLevel = 2

type Options struct {
	Level int
}

func NewOptions() *Options {
	return &Options{Level: defaultLevel}
}

func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVarP(&o.Level, "v", "v", o.Level, "Log verbosity.")
}
"#,
        ),
    ]);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        rows(&b),
        vec![r#"knobd --v,-v int "2" | Log verbosity. @pkg/logging/logging.go:16"#]
    );
}

#[test]
fn flags_no_binary_reaches_stay_with_their_package() {
    let (b, _) = analyze(&[
        ("cmd/knobd/main.go", "package main\n\nfunc main() {\n}\n"),
        ("pkg/options/options.go", OPTIONS),
    ]);
    let rows = rows(&b);
    assert_eq!(
        rows,
        vec![
            r#"pkg:example.com/app/pkg/options --listen string "o.Listen"* | Address to listen on. @pkg/options/options.go:34"#,
            r#"pkg:example.com/app/pkg/options --log-format string "o.LogFormat"* | Log format. @pkg/options/options.go:37"#,
            r#"pkg:example.com/app/pkg/options --timeout duration "o.Timeout"* | Request timeout. @pkg/options/options.go:35"#,
            r#"pkg:example.com/app/pkg/options --token string "o.Token"* | API token. @pkg/options/options.go:38"#,
            r#"pkg:example.com/app/pkg/options --workers int "o.Workers"* | Worker count. @pkg/options/options.go:36"#,
            r#"pkg:example.com/app/pkg/options $KNOB_TOKEN @pkg/options/options.go:27"#,
        ]
    );
    assert_eq!(b[0].name, "knobd");
    assert!(b[0].flags.is_empty());
}

#[test]
fn environment_reads_directly_through_helpers_and_package_initializers() {
    let (b, d) = analyze(&[
        (
            "cmd/knobd/main.go",
            r#"package main

import (
	"os"

	"example.com/app/pkg/env"
	"example.com/app/pkg/names"
)

func main() {
	os.Getenv("HOME")
	if v, ok := os.LookupEnv(names.Region); ok {
		_ = v
	}
	env.Int("KNOB_WORKERS", 4)
	name := "KNOB_ZONE"
	os.Getenv(name)
	key := "A"
	key = "B"
	os.Getenv(key)
	os.Getenv(prefix + suffix())
	for _, zone := range []string{"KNOB_ZONE_A", names.Region} {
		os.Getenv(zone)
	}
}
"#,
        ),
        (
            "pkg/env/env.go",
            r#"package env

import "os"

func Int(key string, def int) int {
	return parse(lookup(key), def)
}

func lookup(name string) string {
	v, _ := os.LookupEnv(name)
	return v
}
"#,
        ),
        (
            "pkg/names/names.go",
            "package names\n\nimport \"os\"\n\nconst Region = \"KNOB_\" + \"REGION\"\n\nvar Namespace = os.Getenv(\"POD_NAMESPACE\")\n",
        ),
    ]);
    assert_eq!(
        rows(&b),
        vec![
            "knobd $HOME @cmd/knobd/main.go:11",
            "knobd $KNOB_REGION @cmd/knobd/main.go:12,cmd/knobd/main.go:23",
            "knobd $KNOB_WORKERS @cmd/knobd/main.go:15",
            "knobd $KNOB_ZONE @cmd/knobd/main.go:17",
            "knobd $KNOB_ZONE_A @cmd/knobd/main.go:23",
            "knobd $POD_NAMESPACE @pkg/names/names.go:7",
        ]
    );
    let lines: Vec<u32> = d.iter().map(|d| d.line).collect();
    assert_eq!(lines, vec![20, 21], "{d:?}");
    assert!(d[0].message.contains("`key`"), "{d:?}");
}

#[test]
fn viper_reads_the_environment_in_programs_that_turn_it_on() {
    // `served` turns automatic environment reading on with a prefix, so its keys are read
    // as `KNOB_…`; `plain` never does, so its `Get` reads no variable; `renamed` rewrites
    // names with a replacer, which is said rather than guessed. Bound names count anyway.
    let config = r#"package config

import "github.com/spf13/viper"

const portKey = "port"

func Port() string { return viper.GetString(portKey) }

func Debug() bool { return viper.GetBool("debug.level") }
"#;
    let (b, d) = analyze(&[
        ("pkg/config/config.go", config),
        (
            "cmd/served/main.go",
            r#"package main

import (
	"github.com/spf13/viper"

	"example.com/app/pkg/config"
)

func main() {
	viper.SetEnvPrefix("knob")
	viper.AutomaticEnv()
	_ = config.Port()
	_ = viper.BindEnv("token", "KNOB_TOKEN", "LEGACY_TOKEN")
}
"#,
        ),
        (
            "cmd/plain/main.go",
            r#"package main

import (
	"github.com/spf13/viper"

	"example.com/app/pkg/config"
)

func main() {
	viper.SetDefault("port", "80")
	_ = config.Port()
}
"#,
        ),
        (
            "cmd/renamed/main.go",
            r#"package main

import (
	"strings"

	"github.com/spf13/viper"

	"example.com/app/pkg/config"
)

func main() {
	viper.AutomaticEnv()
	viper.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	_ = config.Debug()
}
"#,
        ),
    ]);
    assert_eq!(
        rows(&b),
        vec![
            "served $KNOB_PORT @pkg/config/config.go:7",
            "served $KNOB_TOKEN @cmd/served/main.go:13",
            "served $LEGACY_TOKEN @cmd/served/main.go:13",
        ]
    );
    let said: Vec<String> = d
        .iter()
        .map(|d| format!("{}:{} {}", d.file, d.line, d.message))
        .collect();
    assert_eq!(
        said,
        vec![
            "pkg/config/config.go:9 viper reads an environment variable here, but the program rewrites names with SetEnvKeyReplacer: not listed"
        ]
    );
}

#[test]
fn a_reconciler_set_up_from_main_reaches_its_reconcile() {
    let (b, _) = analyze(&[
        (
            "cmd/main.go",
            r#"package main

import "example.com/app/internal/controller"

func main() {
	(&controller.WidgetReconciler{}).SetupWithManager(mgr)
}
"#,
        ),
        (
            "internal/controller/widget.go",
            r#"package controller

import "os"

type WidgetReconciler struct{}

func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_ = os.Getenv("WIDGET_IMAGE")
	return ctrl.Result{}, nil
}
"#,
        ),
    ]);
    assert_eq!(
        rows(&b),
        vec!["cmd $WIDGET_IMAGE @internal/controller/widget.go:12"]
    );
}

#[test]
fn binaries_are_named_after_their_folder_or_module_and_samples_are_marked() {
    let (b, _) = analyze(&[
        ("main.go", "package main\n\nfunc main() {}\n"),
        (
            "hack/gen/main.go",
            "package main\n\nimport \"flag\"\n\nfunc main() {\n\tflag.Bool(\"check\", false, \"Only check.\")\n}\n",
        ),
        ("cmd/v2/main.go", "package main\n\nfunc main() {}\n"),
    ]);
    let names: Vec<(&str, &str, Area)> = b
        .iter()
        .map(|b| (b.name.as_str(), b.package.as_str(), b.area))
        .collect();
    assert_eq!(
        names,
        vec![
            ("app", "example.com/app", Area::Component),
            ("cmd", "example.com/app/cmd/v2", Area::Component),
            ("gen", "example.com/app/hack/gen", Area::Samples),
        ]
    );
}

#[test]
fn defaults_are_shown_as_help_prints_them() {
    let (b, d) = analyze(&[
        (
            "cmd/knob/main.go",
            r#"package main

import (
	"os"
	"time"

	flag "github.com/spf13/pflag"

	"example.com/app/pkg/limits"
)

const retryEvery = time.Minute * 2

func main() {
	flag.Duration("sync", 15*time.Second, "Sync period.")
	flag.Duration("retry", retryEvery, "Retry period.")
	flag.Duration("grace", time.Hour, "Grace.")
	flag.Duration("poll", 90*time.Second, "Poll.")
	flag.Duration("tick", 500*time.Millisecond, "Tick.")
	flag.Duration("never", 0, "Never.")
	flag.Float64("qps", float64(limits.DefaultQPS), "QPS.")
	flag.Float32("ratio", limits.Ratio/2, "Ratio.")
	flag.Int("burst", limits.Burst*2, "Burst.")
	flag.Int("max-bytes", 1<<20, "Max bytes.")
	flag.String("image", os.Getenv("KNOB_IMAGE"), "Image.")
	flag.String("greeting", "hello world", "Greeting.")
	flag.IntSlice("ports", []int{}, "Ports.")
	flag.StringSlice("zones", nil, "Zones.")
	flag.StringSlice("names", []string{"a", limits.Second}, "Names.")
	flag.StringArray("pairs", []string{"x,y"}, "Pairs.")
	flag.DurationSlice("backoff", []time.Duration{time.Second, 3 * time.Minute}, "Backoff.")
	flag.Int("workers", runtimeWorkers(), "Workers.")
	flag.Duration("wait", limits.Unknown*time.Second, "Wait.")
}
"#,
        ),
        (
            "pkg/limits/limits.go",
            "package limits\n\nconst DefaultQPS = 20\n\nconst Ratio float32 = 0.5\n\nconst Burst = DefaultQPS + 10\n\nconst Second = \"b\"\n",
        ),
    ]);
    assert!(d.iter().all(|d| !d.file.starts_with("cmd")), "{d:?}");
    assert_eq!(
        rows(&b),
        vec![
            r#"knob --backoff durationSlice "[1s,3m0s]" | Backoff. @cmd/knob/main.go:31"#,
            r#"knob --burst int "60" | Burst. @cmd/knob/main.go:23"#,
            r#"knob --grace duration "1h0m0s" | Grace. @cmd/knob/main.go:17"#,
            r#"knob --greeting string "hello world" | Greeting. @cmd/knob/main.go:26"#,
            r#"knob --image string "$KNOB_IMAGE"$ | Image. @cmd/knob/main.go:25"#,
            r#"knob --max-bytes int "1048576" | Max bytes. @cmd/knob/main.go:24"#,
            r#"knob --names stringSlice "[a,b]" | Names. @cmd/knob/main.go:29"#,
            r#"knob --never duration "0s" | Never. @cmd/knob/main.go:20"#,
            r#"knob --pairs stringArray "[\"x,y\"]" | Pairs. @cmd/knob/main.go:30"#,
            r#"knob --poll duration "1m30s" | Poll. @cmd/knob/main.go:18"#,
            r#"knob --ports intSlice "[]" | Ports. @cmd/knob/main.go:27"#,
            r#"knob --qps float64 "20" | QPS. @cmd/knob/main.go:21"#,
            r#"knob --ratio float32 "0.25" | Ratio. @cmd/knob/main.go:22"#,
            r#"knob --retry duration "2m0s" | Retry period. @cmd/knob/main.go:16"#,
            r#"knob --sync duration "15s" | Sync period. @cmd/knob/main.go:15"#,
            r#"knob --tick duration "500ms" | Tick. @cmd/knob/main.go:19"#,
            r#"knob --wait duration "limits.Unknown*time.Second"* | Wait. @cmd/knob/main.go:33"#,
            r#"knob --workers int "runtimeWorkers()"* | Workers. @cmd/knob/main.go:32"#,
            r#"knob --zones stringSlice "[]" | Zones. @cmd/knob/main.go:28"#,
            "knob $KNOB_IMAGE @cmd/knob/main.go:25",
        ]
    );
}

const KLOG_ROWS: usize = 13;

#[test]
fn library_flags_on_a_go_flag_set_merged_into_pflag_are_the_programs() {
    let (b, d) = analyze(&[(
        "cmd/side/main.go",
        r#"package main

import (
	"flag"

	"github.com/spf13/pflag"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

func main() {
	var opts zap.Options
	addFlags(pflag.CommandLine, &opts)
	pflag.Parse()
}

func addFlags(fs *pflag.FlagSet, opts *zap.Options) {
	goFlags := flag.NewFlagSet("go", flag.ContinueOnError)
	opts.BindFlags(goFlags)
	fs.AddGoFlagSet(goFlags)
	fs.String("port", "8000", "The port.")
	kept := flag.NewFlagSet("kept", flag.ContinueOnError)
	opts.BindFlags(kept)
}
"#,
    )]);
    let side: Vec<String> = b
        .iter()
        .filter(|b| b.name == "side")
        .flat_map(|b| b.flags.iter().map(|f| format!("{} {}", f.name, f.library)))
        .collect();
    assert!(side.contains(&"port ".to_string()), "{side:?}");
    assert!(side.contains(&"zap-log-level zap".to_string()), "{side:?}");
    // The set never merged stays a diagnostic, its flags unlisted.
    let d: Vec<String> = d.iter().map(|d| format!("{}:{}", d.file, d.line)).collect();
    assert_eq!(d, vec!["cmd/side/main.go:22"]);
}

#[test]
fn flags_libraries_register_are_listed_with_their_library() {
    let (b, d) = analyze(&[
        (
            "cmd/op/main.go",
            r#"package main

import (
	"flag"

	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"example.com/app/pkg/settings"
)

func main() {
	opts := zap.Options{Development: true}
	opts.BindFlags(flag.CommandLine)
	klog.InitFlags(nil)
	settings.Bind()
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
}
"#,
        ),
        (
            "pkg/settings/settings.go",
            "package settings\n\nimport \"flag\"\n\nfunc Bind() {\n\tvar cfg Config\n\tcfg.BindFlags(flag.CommandLine)\n}\n",
        ),
        (
            "cmd/tool/main.go",
            "package main\n\nimport (\n\t\"flag\"\n\n\tlogzap \"sigs.k8s.io/controller-runtime/pkg/log/zap\"\n)\n\nfunc main() {\n\tvar o logzap.Options\n\to.BindFlags(flag.CommandLine)\n}\n",
        ),
        (
            "cmd/field/main.go",
            "package main\n\nimport (\n\t\"flag\"\n\n\t\"sigs.k8s.io/controller-runtime/pkg/log/zap\"\n)\n\ntype options struct {\n\tlog zap.Options\n\tother settings\n}\n\nfunc main() {\n\tvar o options\n\to.log.BindFlags(flag.CommandLine)\n\to.other.BindFlags(flag.CommandLine)\n}\n",
        ),
        (
            "cmd/quiet/main.go",
            "package main\n\nimport (\n\tgoflag \"flag\"\n\n\tklog \"k8s.io/klog/v2\"\n)\n\nfunc main() {\n\tvar local goflag.FlagSet\n\tklog.InitFlags(&local)\n\tklog.InitFlags(goflag.CommandLine)\n}\n",
        ),
    ]);
    let d: Vec<String> = d
        .iter()
        .map(|d| format!("{}:{} {}", d.file, d.line, d.message))
        .collect();
    assert_eq!(
        d,
        vec![
            "cmd/quiet/main.go:11 klog registers its flags on `&local`, not on the program's command line; which of them the program exposes is not followed, so none is listed"
        ]
    );
    let quiet: Vec<&str> = b
        .iter()
        .filter(|b| b.name == "quiet")
        .flat_map(|b| b.flags.iter().map(|f| f.sources[0].line))
        .map(|l| if l == 12 { "12" } else { "other" })
        .collect();
    assert_eq!(quiet, vec!["12"; KLOG_ROWS]);
    let rows = rows(&b);
    let op: Vec<&str> = rows
        .iter()
        .filter(|r| r.starts_with("op "))
        .map(String::as_str)
        .collect();
    let names: Vec<String> = op
        .iter()
        .map(|r| r.split(" |").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        names,
        vec![
            r#"op [klog] --add_dir_header bool "false""#,
            r#"op [klog] --alsologtostderr bool "false""#,
            r#"op [controller-runtime] --kubeconfig string """#,
            r#"op [klog] --log_backtrace_at value ":0""#,
            r#"op [klog] --log_dir string """#,
            r#"op [klog] --log_file string """#,
            r#"op [klog] --log_file_max_size uint64 "1800""#,
            r#"op [klog] --logtostderr bool "true""#,
            r#"op [klog] --one_output bool "false""#,
            r#"op [klog] --skip_headers bool "false""#,
            r#"op [klog] --skip_log_headers bool "false""#,
            r#"op [klog] --stderrthreshold value "2""#,
            r#"op [klog] --v value "0""#,
            r#"op [klog] --vmodule value """#,
            r#"op [zap] --zap-devel bool "true""#,
            r#"op [zap] --zap-encoder value """#,
            r#"op [zap] --zap-log-level value """#,
            r#"op [zap] --zap-stacktrace-level value """#,
            r#"op [zap] --zap-time-encoding value """#,
        ]
    );
    assert!(op[2].ends_with("@cmd/op/main.go:7"), "{}", op[2]);
    assert!(op[0].ends_with("@cmd/op/main.go:16"), "{}", op[0]);
    assert!(op[14].ends_with("@cmd/op/main.go:15"), "{}", op[14]);
    let field: Vec<&str> = rows
        .iter()
        .filter(|r| r.starts_with("field "))
        .map(|r| r.split(" |").next().unwrap_or(""))
        .collect();
    assert_eq!(
        field,
        vec![
            r#"field [zap] --zap-devel bool "o.log.Development"*"#,
            r#"field [zap] --zap-encoder value """#,
            r#"field [zap] --zap-log-level value """#,
            r#"field [zap] --zap-stacktrace-level value """#,
            r#"field [zap] --zap-time-encoding value """#,
        ]
    );
    let tool: Vec<&str> = rows
        .iter()
        .filter(|r| r.starts_with("tool "))
        .map(|r| r.split(" |").next().unwrap_or(""))
        .collect();
    assert_eq!(
        tool,
        vec![
            r#"tool [zap] --zap-devel bool "false""#,
            r#"tool [zap] --zap-encoder value """#,
            r#"tool [zap] --zap-log-level value """#,
            r#"tool [zap] --zap-stacktrace-level value """#,
            r#"tool [zap] --zap-time-encoding value """#,
        ]
    );
    assert_eq!(rows.len(), op.len() + tool.len() + field.len() + KLOG_ROWS);
}

#[test]
fn cobra_commands_form_a_tree_with_their_own_flags() {
    let (b, d) = analyze(&[
        (
            "cmd/main.go",
            "package main\n\nimport (\n\t\"os\"\n\n\t\"example.com/app/internal/cli\"\n)\n\nfunc main() {\n\tif err := cli.NewRootCmd().Execute(); err != nil {\n\t\tos.Exit(1)\n\t}\n}\n",
        ),
        (
            "internal/cli/root.go",
            r#"package cli

import (
	"github.com/spf13/cobra"
)

var verbose bool

func NewRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "op",
		Short: "Operates things.",
	}
	root.PersistentFlags().BoolVarP(&verbose, "verbose", "v", false, "Log more.")
	root.AddCommand(newServeCmd(), versionCmd)
	return root
}

var versionCmd = &cobra.Command{Use: "version", Short: "Print the version."}

func init() {
	versionCmd.Flags().Bool("short", false, "Only the number.")
}
"#,
        ),
        (
            "internal/cli/serve.go",
            r#"package cli

import (
	"time"

	"github.com/spf13/cobra"
)

func newServeCmd() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Serve the API.",
	}
	cmd.Flags().StringVar(&addr, "addr", ":8080", "Listen address.")
	flags := cmd.Flags()
	flags.Duration("grace", 10*time.Second, "Grace period.")
	cmd.AddCommand(&cobra.Command{Use: "check", Short: "Check the config."})
	cmd.AddCommand(newDebugCmd())
	return cmd
}

func newDebugCmd() *cobra.Command {
	debug := newBareDebugCmd()
	debug.Flags().Int("depth", 2, "How deep.")
	return debug
}

func newBareDebugCmd() *cobra.Command {
	return &cobra.Command{Use: "debug", Short: "Debug a server."}
}
"#,
        ),
    ]);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].name, "op");
    assert_eq!(
        b[0].name_from,
        vec![SourceRef::new("internal/cli/root.go", 10)]
    );
    let commands: Vec<String> = b[0]
        .commands
        .iter()
        .map(|c| {
            format!(
                "{} ({}) [{}] {:?} @{}:{}",
                c.path,
                c.name,
                c.flags.join(","),
                c.short,
                c.sources[0].file,
                c.sources[0].line
            )
        })
        .collect();
    assert_eq!(
        commands,
        vec![
            r#"op (op) [verbose] "Operates things." @internal/cli/root.go:10"#,
            r#"op serve (serve) [addr,grace] "Serve the API." @internal/cli/serve.go:11"#,
            r#"op serve check (check) [] "Check the config." @internal/cli/serve.go:18"#,
            r#"op serve debug (debug) [depth] "Debug a server." @internal/cli/serve.go:30"#,
            r#"op version (version) [short] "Print the version." @internal/cli/root.go:19"#,
        ]
    );
    assert_eq!(
        rows(&b),
        vec![
            r#"op --addr string ":8080" | Listen address. @internal/cli/serve.go:15"#,
            r#"op --depth int "2" | How deep. @internal/cli/serve.go:25"#,
            r#"op --grace duration "10s" | Grace period. @internal/cli/serve.go:17"#,
            r#"op --short bool "false" | Only the number. @internal/cli/root.go:22"#,
            r#"op --verbose,-v bool "false" | Log more. @internal/cli/root.go:14"#,
        ]
    );
}

#[test]
fn a_package_that_is_not_main_is_never_a_binary() {
    let (b, _) = analyze(&[
        (
            "cmd/helper/helper.go",
            "package helper\n\nimport \"flag\"\n\nfunc main() {\n\tflag.Bool(\"x\", false, \"X.\")\n}\n",
        ),
        ("cmd/run/main.go", "package main\n\nfunc main() {}\n"),
    ]);
    let names: Vec<(&str, &str)> = b
        .iter()
        .map(|b| (b.name.as_str(), b.package.as_str()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("run", "example.com/app/cmd/run"),
            ("", "example.com/app/cmd/helper"),
        ]
    );
}

#[test]
fn unresolvable_flag_names_are_reported_not_guessed() {
    let (b, d) = analyze(&[(
        "cmd/x/main.go",
        "package main\n\nimport (\n\t\"flag\"\n\n\t\"example.com/other/authn\"\n)\n\nfunc main() {\n\tfor _, n := range names {\n\t\tflag.Bool(n, false, \"x\")\n\t}\n\tflag.Bool(fmt.Sprint(1), false, help())\n\tflag.String(authn.FlagIdentity, \"\", \"Identity to use.\")\n}\n",
    )]);
    assert!(b[0].flags.is_empty());
    let got: Vec<(u32, &str)> = d.iter().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(
        got,
        vec![
            (
                11,
                "cannot resolve the name of this flag: `n` is not a string constant; the flag is not listed"
            ),
            (
                13,
                "cannot resolve the name of this flag: `fmt.Sprint(1)` is not a string constant; the flag is not listed"
            ),
            (
                14,
                "cannot resolve the name of this flag: `authn.FlagIdentity` is a constant of `example.com/other/authn`, a package outside the repository whose value portolan does not read; the flag is not listed"
            ),
        ]
    );
}

#[test]
fn method_calls_that_look_like_flags_on_other_values_are_ignored() {
    let (b, _) = analyze(&[(
        "cmd/x/main.go",
        "package main\n\nfunc main() {\n\tb.String(\"a\", \"b\", \"c\")\n\tcfg.Bool(\"x\", false, \"y\")\n\tstore.StringVar(\"k\", \"v\", \"w\", \"z\")\n}\n",
    )]);
    assert!(b[0].flags.is_empty(), "{:?}", b[0].flags);
}

#[test]
fn deeply_nested_arguments_do_not_overflow() {
    let mut src =
        String::from("package main\n\nimport \"flag\"\n\nfunc main() {\n\tflag.String(\"deep\", ");
    src.push_str(&"(".repeat(20_000));
    src.push_str("\"x\"");
    src.push_str(&")".repeat(20_000));
    src.push_str(", \"help\")\n}\n");
    let (b, _) = analyze(&[("cmd/x/main.go", &src)]);
    assert_eq!(b[0].flags.len(), 1);
}
