//! The `knob-service` fixture through the real binary: its programs with their flags and
//! environment variables, its Prometheus metrics, and how the project page shows them.
//! Every expected row below was checked by hand against the fixture's files.

mod common;

use common::{s, sources};

use std::path::{Path, PathBuf};

use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/knob-service")
}

fn analyze() -> Value {
    common::analyze(&fixture())
}

/// One line per flag (`binary --name[,-s] type "default"[*] | help[*] @sources`, `*`
/// marking Go source text) and per environment variable (`binary $NAME @sources`).
fn binary_rows(model: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for b in model["binaries"].as_array().unwrap() {
        let who = match s(b, "name") {
            "" => format!("pkg:{}", s(b, "package")),
            name => match b["area"].as_str() {
                Some(area) => format!("{name}({area})"),
                None => name.to_string(),
            },
        };
        for f in b["flags"].as_array().unwrap() {
            let short = match s(f, "shorthand") {
                "" => String::new(),
                x => format!(",-{x}"),
            };
            // A library's flags: only their names, the rows are data tables.
            if !s(f, "library").is_empty() {
                out.push(format!("{who} [{}] --{}", s(f, "library"), s(f, "name")));
                continue;
            }
            out.push(format!(
                "{who} --{}{short} {} {:?}{} | {}{} @{}",
                s(f, "name"),
                s(f, "type"),
                s(f, "default"),
                if f["default_expr"] == true { "*" } else { "" },
                s(f, "help"),
                if f["help_expr"] == true { "*" } else { "" },
                sources(f)
            ));
        }
        for e in b["env"].as_array().unwrap() {
            out.push(format!("{who} ${} @{}", s(e, "name"), sources(e)));
        }
    }
    out
}

#[test]
fn knob_service_binaries_flags_and_environment() {
    let model = analyze();
    assert_eq!(
        binary_rows(&model),
        vec![
            // knobctl, built as `knob` by the Makefile: the standard `flag` package, a
            // package-level flag, a constant default, and klog's flags.
            "knob [klog] --add_dir_header",
            "knob [klog] --alsologtostderr",
            r#"knob --dry-run bool "false" | Show the change without making it. @cmd/knobctl/main.go:14"#,
            "knob [klog] --log_backtrace_at",
            "knob [klog] --log_dir",
            "knob [klog] --log_file",
            "knob [klog] --log_file_max_size",
            "knob [klog] --logtostderr",
            "knob [klog] --one_output",
            r#"knob --retries int "3" | Attempts before giving up. @cmd/knobctl/main.go:19"#,
            r#"knob --server string "http://localhost:7070" | knobd address. @cmd/knobctl/main.go:18"#,
            "knob [klog] --skip_headers",
            "knob [klog] --skip_log_headers",
            "knob [klog] --stderrthreshold",
            r#"knob --timeout duration "5s" | Timeout of one attempt. @cmd/knobctl/main.go:20"#,
            "knob [klog] --v",
            "knob [klog] --vmodule",
            "knob $KNOBCTL_TOKEN @cmd/knobctl/main.go:24",
            // knobd: cobra flags in main, and the options package's flags registered by
            // `opts.AddFlags(cmd.Flags())`, with defaults from NewServerOptions' literal
            // (an embedded struct's field, constants in names.go, a field left at zero).
            r#"knobd --allowed-key stringSlice "[]" | Keys clients may set; repeat the flag for more. @pkg/options/options.go:40"#,
            r#"knobd --listen,-l string ":7070" | Address to listen on. @cmd/knobd/main.go:30"#,
            r#"knobd --log-format string "text" | Log format: text or json. @pkg/options/options.go:41"#,
            r#"knobd --max-knobs int "500" | Largest number of knobs accepted. @pkg/options/options.go:38"#,
            r#"knobd --read-only bool "false" | Refuse writes. @pkg/options/options.go:39"#,
            r#"knobd --short bool "false" | Print only the version number. @cmd/knobd/main.go:41"#,
            r#"knobd --store-dir string "/var/lib/knobd" | Directory the knobs are stored in. @pkg/options/options.go:36"#,
            r#"knobd --sync-period duration "30s" | How often knobs are written to disk. @pkg/options/options.go:37"#,
            r#"knobd --verbose,-v bool "false" | Log every request. @cmd/knobd/main.go:29"#,
            // Reached through the RunE closure: server.New(opts).Run().
            "knobd $KNOBD_ADMIN_TOKEN @pkg/server/server.go:26",
            "knobd $KNOBD_DEBUG @pkg/server/server.go:28",
            // Through the envutil.StringOr helper, reported where the name is written.
            "knobd $KNOBD_REGION @pkg/server/server.go:27",
            r#"lint(samples) --fix bool "false" | Rewrite files in place. @hack/lint/main.go:9"#,
            // No program of the repository calls into pkg/plugin: its flag set stays apart.
            r#"pkg:github.com/example/knob-service/pkg/plugin --plugin-dir string "/usr/lib/knobs" | Directory to load plugins from. @pkg/plugin/plugin.go:11"#,
            "pkg:github.com/example/knob-service/pkg/plugin $KNOB_PLUGIN_DEBUG @pkg/plugin/plugin.go:16",
        ]
    );
    let mains: Vec<(String, String)> = model["binaries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (s(b, "package").to_string(), sources(b)))
        .collect();
    assert_eq!(
        mains,
        vec![
            (
                "github.com/example/knob-service/cmd/knobctl".into(),
                "cmd/knobctl/main.go:16".into()
            ),
            (
                "github.com/example/knob-service/cmd/knobd".into(),
                "cmd/knobd/main.go:14".into()
            ),
            (
                "github.com/example/knob-service/hack/lint".into(),
                "hack/lint/main.go:8".into()
            ),
            (
                "github.com/example/knob-service/pkg/plugin".into(),
                "".into()
            ),
        ]
    );
    assert_eq!(model["diagnostics"], serde_json::json!([]));
}

#[test]
fn knob_service_names_and_commands() {
    let model = analyze();
    let names: Vec<(String, String)> = model["binaries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let from = b["name_from"].as_array().map_or(String::new(), |a| {
                a.iter()
                    .map(|s| format!("{}:{}", s["file"].as_str().unwrap(), s["line"]))
                    .collect::<Vec<_>>()
                    .join(",")
            });
            (s(b, "name").to_string(), from)
        })
        .collect();
    assert_eq!(
        names,
        vec![
            // The Makefile's `go build -o $(BIN)/knob ./cmd/knobctl`.
            ("knob".into(), "Makefile:5".into()),
            // The cobra root command's `Use`.
            ("knobd".into(), "cmd/knobd/main.go:22".into()),
            ("lint".into(), "".into()),
            ("".into(), "".into()),
        ]
    );
    let commands: Vec<String> = model["binaries"][1]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let flags: Vec<&str> = c["flags"]
                .as_array()
                .map(|f| f.iter().filter_map(|x| x.as_str()).collect())
                .unwrap_or_default();
            format!(
                "{} | {} | {} @{}",
                s(c, "path"),
                s(c, "short"),
                flags.join(","),
                sources(c)
            )
        })
        .collect();
    assert_eq!(
        commands,
        vec![
            // The options package registers its flags on a flag set passed in
            // (`opts.AddFlags(cmd.Flags())`): they are the binary's, not attributed to a
            // command.
            "knobd | Serve knobs over HTTP | listen,verbose @cmd/knobd/main.go:22",
            "knobd version | Print the version | short @cmd/knobd/main.go:37",
        ]
    );
}

#[test]
fn knob_service_metrics() {
    let model = analyze();
    let rows: Vec<String> = model["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let labels: Vec<&str> = m["labels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            format!(
                "{} {} [{}] {} @{}",
                s(m, "name"),
                s(m, "type"),
                labels.join(","),
                s(m, "help"),
                sources(m)
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            // promauto.With(metrics.Registry), through a variable, inside a function.
            "knob_debug_lock_wait_seconds histogram [method,code] Time spent waiting for the store lock. @pkg/server/metrics.go:47",
            "knob_http_requests_total counter [method,code] HTTP requests served, by method and code. @pkg/server/metrics.go:17",
            "knob_store_bytes gauge [] Size of the knob store on disk. @pkg/server/metrics.go:33",
            // promauto, labels from append with a constant.
            "knob_writes_total counter [key,outcome] Knob writes, by key and outcome. @pkg/server/metrics.go:27",
        ]
    );
}

#[test]
fn the_project_page_lists_binaries_and_metrics_with_stable_anchors() {
    let (_dir, out) = common::build_one("knobs", &fixture());
    let page = std::fs::read_to_string(out.join("projects/knobs/index.html")).unwrap();
    for anchor in [
        "id=\"binaries\"",
        "id=\"binary-knobd\"",
        "id=\"flag-knobd-listen\"",
        "id=\"flag-knob-dry-run\"",
        "id=\"flag-knob-v\"",
        "id=\"command-knobd-knobd-version\"",
        "id=\"env-knobd-knobd-region\"",
        "id=\"package-github-com-example-knob-service-pkg-plugin\"",
        "id=\"flag-github-com-example-knob-service-pkg-plugin-plugin-dir\"",
        "id=\"metrics\"",
        "id=\"metric-knob-http-requests-total\"",
    ] {
        assert!(page.contains(anchor), "missing {anchor}");
    }
    // A string default is shown quoted, as Go's own help output does.
    assert!(page.contains("<td>--listen, -l</td><td>string</td><td>&quot;:7070&quot;</td>"));
    // The hack/ tool is shown apart, under the samples summary.
    let samples = page
        .find("1 from tests, docs, samples and tooling")
        .unwrap();
    assert!(page.find("id=\"binary-lint\"").unwrap() > samples);
}
