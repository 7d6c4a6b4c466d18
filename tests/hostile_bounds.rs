//! Hostile inputs that must not hang portolan, exhaust its memory or abort it: named
//! pipes where files are expected, endless or huge model and config files, a Go constant
//! that doubles per level, Rust expressions thousands of levels deep, and an absurd
//! `--jobs`. Every input is written by the test under a fresh temporary folder.
//!
//! Each run is bounded: the child is killed after a generous time limit (a hang fails the
//! test), runs under `prlimit --as` when that exists (a blow-up fails the test), and under
//! `/usr/bin/time` when that exists, so the largest resident set can be checked too.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::diagnostics;

/// Address space a run may use. The debug binary maps about 400 MiB and two workers
/// reserve 64 MiB of stack; a run that tries to hold gigabytes dies instead.
const ADDRESS_SPACE: u64 = 1024 * 1024 * 1024;
/// A run that takes longer than this is hung (the real work takes well under a second).
const HANG: Duration = Duration::from_secs(60);

/// What a bounded run of the binary gave.
struct Run {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: String,
    /// The largest resident set in KiB, when `/usr/bin/time` is there to say.
    max_rss_kib: Option<u64>,
}

impl Run {
    fn stdout_json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.stdout).expect("the model on stdout")
    }
}

/// Runs portolan with `args` (with `--jobs 2` unless they say otherwise, so the
/// address-space cap does not depend on the machine's cores), killing it after `limit`.
fn portolan(args: &[&str], cwd: &Path, limit: Duration) -> Run {
    bounded(args, cwd, limit, Some(ADDRESS_SPACE))
}

/// [`portolan`] with the address space capped at `address_space` bytes, if given.
fn bounded(args: &[&str], cwd: &Path, limit: Duration, address_space: Option<u64>) -> Run {
    let rss_file = tempfile::NamedTempFile::new().unwrap();
    let time = Path::new("/usr/bin/time");
    let prlimit = Path::new("/usr/bin/prlimit");
    let mut argv: Vec<String> = Vec::new();
    if let Some(bytes) = address_space.filter(|_| prlimit.exists()) {
        argv.extend([prlimit.display().to_string(), format!("--as={bytes}")]);
    }
    if time.exists() {
        argv.extend([
            time.display().to_string(),
            "-f".into(),
            "%M".into(),
            "-o".into(),
            rss_file.path().display().to_string(),
        ]);
    }
    argv.push(env!("CARGO_BIN_EXE_portolan").into());
    // The command first: `--jobs` is one of its flags.
    let (command, rest) = args.split_first().expect("a command");
    argv.push(command.to_string());
    if !args.contains(&"--jobs") {
        argv.extend(["--jobs".into(), "2".into()]);
    }
    argv.extend(rest.iter().map(|a| a.to_string()));
    let mut child = common::tool(&argv[0])
        .args(&argv[1..])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drained on threads, so a chatty child never blocks on a full pipe.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("portolan {args:?} did not finish within {limit:?} (killed)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let run = Run {
        status,
        stdout: stdout.join().unwrap(),
        stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
        max_rss_kib: std::fs::read_to_string(rss_file.path())
            .ok()
            .and_then(|t| t.lines().last()?.trim().parse().ok()),
    };
    eprintln!(
        "portolan {args:?}: {status}, max RSS {:?} KiB\n{}",
        run.max_rss_kib, run.stderr
    );
    run
}

/// Asserts the run ended by itself with `code` (an abort or a kill has no code).
fn assert_exit(run: &Run, code: i32) {
    assert_eq!(run.status.code(), Some(code), "stderr:\n{}", run.stderr);
}

/// Asserts the largest resident set stayed under `mib`, where it could be measured.
fn assert_rss_under(run: &Run, mib: u64) {
    if let Some(kib) = run.max_rss_kib {
        assert!(kib < mib * 1024, "max RSS {kib} KiB, over {mib} MiB");
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = common::tool("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A small Go operator project with one controller, so a good project is easy to recognize.
fn good_go_project(dir: &Path) {
    write(&dir.join("go.mod"), "module example.com/good\n\ngo 1.22\n");
    write(
        &dir.join("main.go"),
        "package main\n\nimport (\n\tappsv1 \"k8s.io/api/apps/v1\"\n\tctrl \"sigs.k8s.io/controller-runtime\"\n)\n\nfunc setup(mgr ctrl.Manager, r *Reconciler) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&appsv1.Deployment{}).\n\t\tComplete(r)\n}\n",
    );
    write(
        &dir.join("config/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: good-config\n",
    );
}

#[test]
fn pipes_named_like_sources_and_docs_are_skipped_with_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("piped");
    good_go_project(&repo);
    for pipe in [
        "x.go",
        "config/x.yaml",
        "README.md",
        "docs/guide.md",
        "src/lib.rs",
    ] {
        mkfifo(&repo.join(pipe));
    }
    write(
        &dir.path().join("projects.toml"),
        "[site]\ntitle = \"Pipes\"\n\n[[project]]\nname = \"piped\"\npath = \"piped\"\ndocs = [\"docs\"]\n",
    );
    let pipe = "not a regular file but a named pipe (FIFO)";

    let built = portolan(&["build", "-q", "--out", "site"], dir.path(), HANG);
    assert_exit(&built, 0);
    let model = read_json(&dir.path().join("site/data/piped.json"));
    let found = diagnostics(&model);
    for expected in [
        format!("README.md:0: {pipe}, skipped"),
        format!("config/x.yaml:0: {pipe}, skipped"),
        format!("docs/guide.md:0: {pipe}, skipped"),
        format!("src/lib.rs:0: {pipe}, skipped"),
        format!("x.go:0: {pipe}, skipped"),
    ] {
        assert!(found.contains(&expected), "{expected} in {found:#?}");
    }
    // The regular files were analyzed as usual.
    assert_eq!(model["controllers"].as_array().unwrap().len(), 1);
    assert!(dir.path().join("site/projects/piped/index.html").is_file());

    let analyzed = portolan(&["analyze", "piped"], dir.path(), HANG);
    assert_exit(&analyzed, 0);
    assert!(diagnostics(&analyzed.stdout_json()).contains(&format!("x.go:0: {pipe}, skipped")));
}

#[test]
fn a_model_that_is_a_pipe_a_device_or_huge_fails_its_project_quickly() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe.json"));
    // Sparse: 300 MiB long, no disk used.
    let huge = std::fs::File::create(dir.path().join("huge.json")).unwrap();
    huge.set_len(300 * 1024 * 1024).unwrap();
    good_go_project(&dir.path().join("good"));
    let cases = [
        ("pipe.json", "not a regular file but a named pipe (FIFO)"),
        ("/dev/zero", "not a regular file but a character device"),
        ("huge.json", "larger than 256 MiB"),
    ];
    for (model, problem) in cases {
        write(
            &dir.path().join("projects.toml"),
            &format!(
                "[site]\ntitle = \"Models\"\n\n[[project]]\nname = \"m\"\nmodel = \"{model}\"\n\n[[project]]\nname = \"good\"\npath = \"good\"\n"
            ),
        );
        let config = dir.path().join("projects.toml");
        let args = [
            "build",
            "--config",
            config.to_str().unwrap(),
            "-q",
            "--keep-going",
            "--out",
            "site",
        ];
        let run = portolan(&args, dir.path(), HANG);
        assert_exit(&run, 0);
        let shown = PathBuf::from(model);
        let shown = if shown.is_absolute() {
            shown
        } else {
            dir.path().join(model)
        };
        let expected = format!(
            "project `m`: model {}: {problem}; `model =` must name the JSON file `portolan analyze PATH --out FILE` wrote",
            shown.display()
        );
        assert!(
            run.stderr.contains(&expected),
            "{expected}\nin\n{}",
            run.stderr
        );
        assert_rss_under(&run, 200);
        assert!(dir.path().join("site/projects/good/index.html").is_file());
    }
}

#[test]
fn a_go_constant_that_doubles_per_level_is_cut_off_with_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("bomb");
    write(&repo.join("go.mod"), "module example.com/bomb\n\ngo 1.22\n");
    // A0 would be 4^15 bytes (a gigabyte), used as a route, a GroupVersion and a flag.
    let mut go = String::from("package bomb\n\nimport (\n\t\"flag\"\n\t\"net/http\"\n)\n\n");
    for i in 0..15 {
        go.push_str(&format!(
            "const A{i} = A{n} + A{n} + A{n} + A{n}\n",
            n = i + 1
        ));
    }
    go.push_str("const A15 = \"x\"\n\nfunc Register() {\n\thttp.HandleFunc(A0, nil)\n\tflag.String(\"name\", A0, A1)\n}\n");
    write(&repo.join("bomb.go"), &go);

    let run = portolan(&["analyze", "bomb"], dir.path(), HANG);
    assert_exit(&run, 0);
    assert_rss_under(&run, 200);
    // The model stays small: no constant longer than 64 KiB is in it.
    assert!(
        run.stdout.len() < 1024 * 1024,
        "model of {} bytes",
        run.stdout.len()
    );
    let found = diagnostics(&run.stdout_json());
    let expected = "bomb.go:14: string constant A6 is longer than 64 KiB and is not evaluated; where it is used, the value shows as unresolved";
    assert!(found.iter().any(|d| d == expected), "{found:#?}");
}

/// A Rust crate called `name` in `dir` with `files` under `src/`.
fn rust_crate(dir: &Path, name: &str, files: &[(&str, String)]) {
    let manifest = format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n");
    write(&dir.join("Cargo.toml"), &manifest);
    for (file, text) in files {
        write(&dir.join("src").join(file), text);
    }
}

#[test]
fn rust_chains_thousands_long_are_diagnostics_and_other_projects_still_build() {
    let dir = tempfile::tempdir().unwrap();
    rust_crate(
        &dir.path().join("chains"),
        "chains",
        &[
            (
                "sum.rs",
                format!("fn h() {{\n    let _ = 1{};\n}}\n", " + 1".repeat(3000)),
            ),
            (
                "chain.rs",
                format!("fn g() {{\n    let _ = x{};\n}}\n", ".f()".repeat(3000)),
            ),
        ],
    );
    good_go_project(&dir.path().join("good"));
    write(
        &dir.path().join("projects.toml"),
        "[site]\ntitle = \"Chains\"\n\n[[project]]\nname = \"chains\"\npath = \"chains\"\n\n[[project]]\nname = \"good\"\npath = \"good\"\n",
    );
    let refused = "Rust file not analyzed: an expression longer than 1024 tokens (a chain of operators, calls or `else if`s); the parser would recurse once per level";

    let analyzed = portolan(&["analyze", "chains"], dir.path(), HANG);
    assert_exit(&analyzed, 0);
    assert_eq!(
        diagnostics(&analyzed.stdout_json()),
        [
            format!("src/chain.rs:2: {refused}"),
            format!("src/sum.rs:2: {refused}")
        ]
    );

    let built = portolan(
        &["build", "-q", "--keep-going", "--out", "site"],
        dir.path(),
        HANG,
    );
    assert_exit(&built, 0);
    assert!(dir.path().join("site/projects/good/index.html").is_file());
    assert!(dir.path().join("site/projects/chains/index.html").is_file());
    let good = read_json(&dir.path().join("site/data/good.json"));
    assert_eq!(good["controllers"].as_array().unwrap().len(), 1);

    // `check` reports (it may find the unresolved kinds of the good project), never aborts.
    let checked = portolan(&["check", "-q"], dir.path(), HANG);
    assert!(
        matches!(checked.status.code(), Some(0 | 1)),
        "{}",
        checked.stderr
    );
}

#[test]
fn the_deepest_rust_the_guard_lets_through_fits_a_worker_stack() {
    // Just under the guard's limit, in the shapes that recurse most per token: `return`
    // chains, calls on calls, and chains inside 90 nested brackets.
    let dir = tempfile::tempdir().unwrap();
    let nested = "return return return return return return return return return (";
    rust_crate(
        &dir.path().join("deep"),
        "deep",
        &[
            (
                "ret.rs",
                format!("fn h() {{ {}1; }}\n", "return ".repeat(1015)),
            ),
            ("call.rs", format!("fn h() {{ f{}; }}\n", "()".repeat(1015))),
            (
                "mixed.rs",
                format!("fn h() {{ {}1{}; }}\n", nested.repeat(90), ")".repeat(90)),
            ),
            (
                "elseif.rs",
                format!("fn h() {{ if a {{}}{} }}\n", " else if a {}".repeat(250)),
            ),
        ],
    );
    let run = portolan(&["analyze", "deep"], dir.path(), HANG);
    assert_exit(&run, 0);
    let found = diagnostics(&run.stdout_json());
    assert!(
        found.iter().all(|d| !d.contains("not analyzed")),
        "{found:#?}"
    );
}

#[test]
fn go_and_yaml_nested_a_hundred_thousand_deep_do_not_crash() {
    // A guard against regressions: tree-sitter and our walks are iterative, serde-saphyr and
    // serde_json stop at their depth budgets. (This passed before the bounds work too.)
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("deep");
    let n = 100_000;
    write(&repo.join("go.mod"), "module example.com/deep\n\ngo 1.22\n");
    write(
        &repo.join("deep.go"),
        &format!(
            "package deep\n\nvar X = {}1{}\n",
            "(".repeat(n),
            ")".repeat(n)
        ),
    );
    write(
        &repo.join("config/flow.yaml"),
        &format!(
            "kind: ConfigMap\nmetadata:\n  name: deep\ndata: {}{}\n",
            "[".repeat(n),
            "]".repeat(n)
        ),
    );
    write(
        &repo.join("config/map.yaml"),
        &format!(
            "kind: ConfigMap\ndata: {}1{}\n",
            "{a: ".repeat(n),
            "}".repeat(n)
        ),
    );
    write(
        &repo.join("chart/Chart.yaml"),
        "apiVersion: v2\nname: c\nversion: 1.0.0\n",
    );
    write(
        &repo.join("chart/values.yaml"),
        &format!("a: {}{}\n", "[".repeat(n), "]".repeat(n)),
    );
    write(
        &repo.join("chart/values.schema.json"),
        &format!(
            "{}{{}}{}\n",
            "{\"properties\": {\"a\": ".repeat(n / 2),
            "}}".repeat(n / 2)
        ),
    );
    let run = portolan(&["analyze", "deep"], dir.path(), HANG);
    assert_exit(&run, 0);
    let found = diagnostics(&run.stdout_json());
    for file in [
        "config/flow.yaml",
        "config/map.yaml",
        "chart/values.yaml",
        "chart/values.schema.json",
    ] {
        assert!(
            found.iter().any(|d| d.starts_with(&format!("{file}:"))),
            "{file} in {found:#?}"
        );
    }
}

#[test]
fn jobs_beyond_the_cap_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    good_go_project(&dir.path().join("good"));
    for jobs in ["100000", "257", "0"] {
        let run = portolan(&["analyze", "--jobs", jobs, "good"], dir.path(), HANG);
        assert_exit(&run, 2);
        let expected = format!(
            "invalid value '{jobs}' for '--jobs <JOBS>': give a number of worker threads from 1 to 256"
        );
        assert!(run.stderr.contains(&expected), "{}", run.stderr);
    }
    // The cap itself works. Each worker reserves a 32 MiB stack it hardly touches, so this
    // one runs without the address-space cap (256 of them reserve 8 GiB).
    let run = bounded(
        &["analyze", "--jobs", "256", "good"],
        dir.path(),
        HANG,
        None,
    );
    assert_exit(&run, 0);
    assert_rss_under(&run, 200);
}

#[test]
fn a_config_that_is_a_pipe_a_device_huge_or_with_a_huge_title_is_refused_quickly() {
    // Before: a FIFO hung, /dev/zero read until memory ran out, a 100 MB title took 85 s
    // and 4.6 GB.
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe.toml"));
    let huge = std::fs::File::create(dir.path().join("huge.toml")).unwrap();
    huge.set_len(300 * 1024 * 1024).unwrap();
    write(
        &dir.path().join("title.toml"),
        &format!(
            "[site]\ntitle = \"{}\"\n\n[[project]]\nname = \"p\"\npath = \"p\"\n",
            "t".repeat(2 * 1024 * 1024)
        ),
    );
    write(
        &dir.path().join("description.toml"),
        &format!(
            "[[project]]\nname = \"p\"\npath = \"p\"\ndescription = \"{}\"\n",
            "d".repeat(10_000)
        ),
    );
    let cases = [
        ("pipe.toml", "not a regular file but a named pipe (FIFO)"),
        ("/dev/zero", "not a regular file but a character device"),
        ("huge.toml", "larger than 4 MiB"),
        (
            "title.toml",
            "title.toml:2:9: `title` is longer than 200 characters",
        ),
        (
            "description.toml",
            "description.toml:4:15: `description` is longer than 2000 characters",
        ),
    ];
    for (config, problem) in cases {
        let run = portolan(&["build", "--config", config, "-q"], dir.path(), HANG);
        assert_exit(&run, 2);
        assert!(
            run.stderr.contains(problem),
            "{problem}\nin\n{}",
            run.stderr
        );
        assert_rss_under(&run, 200);
    }
}
