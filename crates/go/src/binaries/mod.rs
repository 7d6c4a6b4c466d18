//! Binaries and their configuration: every `package main` folder is a program; its
//! command-line flags (`flag`, `pflag`, cobra's `Flags()`/`PersistentFlags()`, any
//! `*FlagSet`) with type, default and help text, and the environment variables it reads
//! (`os.Getenv`, `os.LookupEnv`, directly or through helpers that pass a parameter on).
//!
//! Per file, `extract` records raw facts: each flag registration with its arguments as
//! unevaluated values, each environment read, the struct literal a constructor returns
//! (`func NewOptions() *Options { return &Options{Port: 8080} }`) and non-string constants.
//!
//! Per project, `resolve` decides which program each fact belongs to. A fact in a main
//! package belongs to that program. A fact elsewhere belongs to every program that reaches
//! it: through calls the `calls::Graph` can follow from `func main`, or because it sits in
//! a package-level declaration or `init` of a package the program imports (Go runs those
//! whenever the package is linked). Facts no program is shown to reach are listed under
//! their own package (a `Binary` with an empty name), never attached to a guessed program.
//!
//! Defaults are evaluated, not guessed: string constants through `GoIndex::eval`,
//! non-string literals kept as written (a lone constant replaced by its value), and a
//! struct field bound to a flag (`fs.IntVar(&o.Port, "port", o.Port, …)`) read from the
//! literal of the constructor that made `o` (`o := NewOptions()`, or for a method, the
//! one constructor every caller got its receiver from); a field the literal leaves out has
//! the type's zero value. Anything else keeps its Go source text, marked `default_expr`.
//!
//! By job: `extract` (the per-file facts), `values` (Go expressions as raw values, shared
//! with other features), `programs` (what each program links and reaches), `evaluate`
//! (defaults and environment reads per project), `commands` (cobra command trees); this
//! module places each fact in the programs that reach it.

mod commands;
pub(crate) mod evaluate;
mod extract;
pub(crate) mod programs;
pub(crate) mod values;

pub use extract::{collect_consts, extract, extract_package_level};

use commands::{CommandId, Commands};
use evaluate::Evaluator;
use programs::{package_names, program_reach};

use std::collections::{BTreeMap, BTreeSet};

use super::calls::Graph;
use super::index::{GoIndex, GoInput};
use super::library_flags;
use model::{Area, Binary, Command, Diagnostic, EnvVar, Flag, SourceRef};

/// Resolves every file's flags and environment reads to binaries and library flag sets.
pub fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    graph: &Graph,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Binary> {
    let packages = package_names(files, index);
    let mut placement = Placement {
        files,
        packages: &packages,
        programs: programs(files, &packages, graph),
        library: BTreeMap::new(),
    };
    let eval = Evaluator::new(files, index, graph);
    let commands = Commands {
        files,
        graph,
        packages: &packages,
    };
    // (file, function, command, flag name) of flags registered on a cobra command.
    let mut command_flags: Vec<(usize, usize, CommandId, String)> = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for raw in &file.binaries.flags {
            let Some(flag) = eval.flag(fi, raw, diagnostics) else {
                continue;
            };
            if let Some(id) = raw
                .command
                .as_ref()
                .and_then(|r| commands.find(fi, raw.func, r))
            {
                command_flags.push((fi, raw.func, id, flag.name.clone()));
            }
            placement.place(fi, raw.func, &mut |b| b.flags.push(flag.clone()));
        }
    }
    placement.place_library_uses(diagnostics);
    for (fi, func, line, name) in eval.env_reads(diagnostics) {
        let var = EnvVar {
            name,
            sources: vec![SourceRef::new(&files[fi].facts.path, line)],
        };
        placement.place(fi, func, &mut |b| b.env.push(var.clone()));
    }
    let Placement {
        mut programs,
        library,
        ..
    } = placement;
    name_by_commands(&mut programs, &packages, &commands, &eval, &command_flags);
    add_kubeconfig_flags(&mut programs, files, &packages);
    sorted_rows(programs, library)
}

/// A program (`package main`) being resolved: its row, and what it links and reaches.
struct Program<'p> {
    binary: Binary,
    package: &'p str,
    /// The in-repo packages it links, itself included.
    linked: BTreeSet<&'p str>,
    reach: super::calls::Reach,
}

/// The project's programs, each with an empty row named after its package.
fn programs<'p>(files: &[GoInput], packages: &'p [String], graph: &Graph) -> Vec<Program<'p>> {
    program_reach(files, packages, graph)
        .into_iter()
        .map(|p| Program {
            binary: Binary {
                name: binary_name(p.package),
                package: p.package.to_string(),
                flags: Vec::new(),
                env: Vec::new(),
                area: p.area,
                sources: p.main_at.into_iter().collect(),
                name_from: Vec::new(),
                commands: Vec::new(),
            },
            package: p.package,
            linked: p.linked,
            reach: p.reach,
        })
        .collect()
}

/// Where facts land: every program that reaches them, else their own package's row.
struct Placement<'p> {
    files: &'p [GoInput],
    packages: &'p [String],
    programs: Vec<Program<'p>>,
    /// Rows of packages whose facts no program is shown to reach, by package.
    library: BTreeMap<String, Binary>,
}

impl Placement<'_> {
    /// Applies `add` to the row of every program reaching function `func` of file `fi`, or
    /// else to the row of the file's package.
    fn place(&mut self, fi: usize, func: usize, add: &mut dyn FnMut(&mut Binary)) {
        let pkg = self.packages[fi].as_str();
        let mut placed = false;
        for prog in self.programs.iter_mut() {
            if prog.package == pkg || prog.reach.contains((fi, func)) {
                add(&mut prog.binary);
                placed = true;
            }
        }
        if !placed {
            let files = self.files;
            let entry = self
                .library
                .entry(pkg.to_string())
                .or_insert_with(|| Binary {
                    name: String::new(),
                    package: pkg.to_string(),
                    flags: Vec::new(),
                    env: Vec::new(),
                    area: files[fi].area,
                    sources: Vec::new(),
                    name_from: Vec::new(),
                    commands: Vec::new(),
                });
            if files[fi].area == Area::Component {
                entry.area = Area::Component;
            }
            add(entry);
        }
    }

    /// The flags libraries register (`klog.InitFlags(nil)`, zap's `BindFlags`).
    fn place_library_uses(&mut self, diagnostics: &mut Vec<Diagnostic>) {
        let (files, packages) = (self.files, self.packages);
        for (fi, input) in files.iter().enumerate() {
            let path = &input.facts.path;
            for u in &input.facts.binaries.library_uses {
                if let Some(set) = &u.other_flag_set {
                    diagnostics.push(Diagnostic::new(
                        path,
                        u.line,
                        format!(
                            "{} registers its flags on `{set}`, not on the program's command line; which of them the program exposes is not followed, so none is listed",
                            u.library
                        ),
                    ));
                    continue;
                }
                if let Some(field) = &u.field {
                    let package = &packages[fi];
                    let declared = library_flags::zap_options_field(
                        files
                            .iter()
                            .enumerate()
                            .filter(|(f, _)| &packages[*f] == package)
                            .map(|(_, i)| (i.facts.structs.as_slice(), i.facts.imports.as_slice())),
                        field,
                    );
                    if !declared {
                        continue;
                    }
                }
                let flags = library_rows(u.library, path, u.line, &u.devel);
                self.place(fi, u.func, &mut |b| b.flags.extend(flags.iter().cloned()));
            }
        }
    }
}

/// Each program's cobra command tree; a program whose commands have one root is named by
/// the root's `Use`.
fn name_by_commands(
    programs: &mut [Program],
    packages: &[String],
    commands: &Commands,
    eval: &Evaluator,
    command_flags: &[(usize, usize, CommandId, String)],
) {
    for prog in programs {
        let belongs = |fi: usize, func: usize| {
            packages[fi] == prog.package || prog.reach.contains((fi, func))
        };
        prog.binary.commands = commands.tree(eval, &belongs, command_flags);
        // A program whose commands have one root is named by the root's `Use`.
        let roots: Vec<&Command> = prog
            .binary
            .commands
            .iter()
            .filter(|c| !c.path.contains(' '))
            .collect();
        if let [root] = roots.as_slice() {
            prog.binary.name = root.name.clone();
            prog.binary.name_from = root.sources.clone();
        }
    }
}

/// `--kubeconfig`: registered by an `init` of a linked controller-runtime package.
fn add_kubeconfig_flags(programs: &mut [Program], files: &[GoInput], packages: &[String]) {
    for prog in programs {
        let import = files.iter().enumerate().find_map(|(fi, input)| {
            let linked = prog.linked.contains(packages[fi].as_str());
            let line = input.facts.binaries.kubeconfig_import?;
            linked.then_some((input.facts.path.as_str(), line))
        });
        if let Some((path, line)) = import {
            prog.binary
                .flags
                .extend(library_rows("controller-runtime", path, line, &Ok(false)));
        }
    }
}

/// The rows of programs then packages, flags and environment variables sorted and merged.
fn sorted_rows(programs: Vec<Program>, library: BTreeMap<String, Binary>) -> Vec<Binary> {
    let mut out: Vec<Binary> = programs.into_iter().map(|p| p.binary).collect();
    out.extend(library.into_values());
    for b in &mut out {
        b.flags
            .sort_by(|a, c| (&a.name, &a.sources).cmp(&(&c.name, &c.sources)));
        manifests::merge::merge_identical(&mut b.flags);
        b.env
            .sort_by(|a, c| (&a.name, &a.sources).cmp(&(&c.name, &c.sources)));
        manifests::merge::merge_identical(&mut b.env);
    }
    // A library package with nothing in it is not worth a row (cannot happen today, but
    // keeps the output honest if a fact is dropped after its entry was made).
    out.retain(|b| !b.is_package() || !b.flags.is_empty() || !b.env.is_empty());
    out
}

/// The flags a library registers, sourced at the call (or import) that makes it do so.
fn library_rows(library: &str, path: &str, line: u32, devel: &Result<bool, String>) -> Vec<Flag> {
    library_flags::table(library)
        .iter()
        .map(|(name, kind, default, help)| Flag {
            name: name.to_string(),
            shorthand: String::new(),
            kind: kind.to_string(),
            default: match (*name, devel) {
                ("zap-devel", Ok(d)) => d.to_string(),
                ("zap-devel", Err(e)) => e.clone(),
                _ => default.to_string(),
            },
            default_expr: *name == "zap-devel" && devel.is_err(),
            default_env: false,
            help: help.to_string(),
            help_expr: false,
            library: library.to_string(),
            sources: vec![SourceRef::new(path, line)],
        })
        .collect()
}

/// A program's name: its package's last path element, skipping a `/vN` major version.
fn binary_name(package: &str) -> String {
    let mut parts = package.rsplit('/');
    let last = parts.next().unwrap_or(package);
    let is_major =
        last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit());
    match (is_major, parts.next()) {
        (true, Some(prev)) => prev.to_string(),
        _ if last.is_empty() => "main".to_string(),
        _ => last.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support;

    /// Analyzes files of a module `example.com/app` and returns (binaries, diagnostics).
    fn analyze(files: &[(&str, &str)]) -> (Vec<Binary>, Vec<Diagnostic>) {
        let inputs: Vec<GoInput> = test_support::inputs(files);
        let modules = vec![test_support::module("example.com/app")];
        let mut diagnostics = Vec::new();
        let found =
            super::super::resolve(&inputs, &modules, &BTreeMap::new(), &[], &mut diagnostics);
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
                "knobd $KNOB_REGION @cmd/knobd/main.go:12",
                "knobd $KNOB_WORKERS @cmd/knobd/main.go:15",
                "knobd $KNOB_ZONE @cmd/knobd/main.go:17",
                "knobd $POD_NAMESPACE @pkg/names/names.go:7",
            ]
        );
        let lines: Vec<u32> = d.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![20, 21], "{d:?}");
        assert!(d[0].message.contains("`key`"), "{d:?}");
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
        let mut src = String::from(
            "package main\n\nimport \"flag\"\n\nfunc main() {\n\tflag.String(\"deep\", ",
        );
        src.push_str(&"(".repeat(20_000));
        src.push_str("\"x\"");
        src.push_str(&")".repeat(20_000));
        src.push_str(", \"help\")\n}\n");
        let (b, _) = analyze(&[("cmd/x/main.go", &src)]);
        assert_eq!(b[0].flags.len(), 1);
    }
}
