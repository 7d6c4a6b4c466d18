//! End-to-end browser test: builds the fixture site with the real binary and
//! runs `node tests/e2e/site.mjs <site>` against it (headless Chromium through
//! playwright-core).
//!
//! Slow and needs Node.js, `npm ci` and Debian's chromium, so it only runs when the tests
//! are built with `PORTOLAN_E2E=1` set (`build.rs` turns that into `cfg(portolan_e2e)`);
//! otherwise both tests are reported as ignored, never as passed. `.ci/run` sets it.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const NODE_TIMEOUT: Duration = Duration::from_secs(300);

/// Queries whose top results the browser script must rank as `portolan search` does: a
/// kind, a route path, a ConfigMap key, a flag, a typo, a prefix, a phrase and filters;
/// a kind a controller is named after, filters alone, and a field of several kinds.
const SEARCH_QUERIES: &[&str] = &[
    "Widget",
    "Gizmo",
    "kind:Gizmo",
    "kind:Widget",
    "category:kind",
    "size",
    "/healthz",
    "config.yaml",
    "--leader-elect",
    "widgte ",
    "gadg",
    "\"leader elect\"",
    "kind:Widget category:watch",
    "relay reconciler",
    "gadget-relay",
];

mod common;

/// Runs a node script of tests/e2e and requires its `N passed, 0 failed` line.
fn run_e2e(root: &Path, script: &str, args: &[&std::ffi::OsStr], env: &[(&str, &Path)]) {
    let (status, stdout, stderr) = run_with_timeout(
        common::tool("node")
            .current_dir(root)
            .envs(env.iter().copied())
            .arg(script)
            .args(args),
        NODE_TIMEOUT,
    );
    println!("--- node {script} (stdout)\n{stdout}");
    if !stderr.trim().is_empty() {
        println!("--- node {script} (stderr)\n{stderr}");
    }
    let status = status.unwrap_or_else(|| panic!("node did not finish within {NODE_TIMEOUT:?}"));
    assert!(
        status.success(),
        "browser e2e test failed: node exited with {status}"
    );
    let summary = stdout
        .lines()
        .rev()
        .find(|l| l.ends_with(" failed") && l.contains(" passed, "))
        .unwrap_or_else(|| panic!("node printed no `N passed, N failed` line"));
    assert!(
        summary.ends_with(" 0 failed"),
        "browser e2e summary: {summary}"
    );
    let passed: u32 = summary
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 0, "browser e2e ran no check: {summary}");
}

/// `portolan serve` on a copy of the fixture portal: the page reloads by itself after an
/// edit, a failed rebuild shows its error over the page, and the fix clears it.
#[test]
#[cfg_attr(
    not(portolan_e2e),
    ignore = "browser test: run with PORTOLAN_E2E=1 (needs node, npm ci and /usr/bin/chromium)"
)]
fn served_pages_reload_themselves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = common::site_with_theme();
    let server = common::serve(dir.path());
    let base = format!("http://{}/atlas/", server.address);
    run_e2e(
        root,
        "tests/e2e/reload.mjs",
        &[
            base.as_ref(),
            dir.path().join("atlas-content/about.md").as_os_str(),
            dir.path()
                .join("themes/default/templates/content.html")
                .as_os_str(),
        ],
        &[],
    );
    drop(server);
}

#[test]
#[cfg_attr(
    not(portolan_e2e),
    ignore = "browser test: run with PORTOLAN_E2E=1 (needs node, npm ci and /usr/bin/chromium)"
)]
fn site_works_in_a_real_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(
        root.join("node_modules/playwright-core/package.json")
            .is_file(),
        "node_modules/playwright-core is missing: run `npm ci` in {}",
        root.display()
    );

    let tmp = tempfile::Builder::new()
        .prefix("portolan-e2e-")
        .tempdir()
        .expect("create a temp folder");
    let site = tmp.path().join("site");

    let build = common::portolan()
        .current_dir(root)
        .args(["build", "--config", "tests/fixtures/portal.toml", "--out"])
        .arg(&site)
        .output()
        .expect("run portolan build");
    print!("{}", String::from_utf8_lossy(&build.stdout));
    print!("{}", String::from_utf8_lossy(&build.stderr));
    assert!(
        build.status.success(),
        "portolan build failed: {}",
        build.status
    );
    assert!(
        site.join("index.html").is_file(),
        "build wrote no index.html"
    );

    // What `portolan search` ranks first, for the browser script to agree with.
    let mut expected = serde_json::Map::new();
    for query in SEARCH_QUERIES {
        let out = common::portolan()
            .current_dir(root)
            .args([
                "search",
                "--json",
                "--limit",
                "5",
                "--config",
                "tests/fixtures/portal.toml",
                "--",
            ])
            .arg(query)
            .output()
            .expect("run portolan search");
        assert!(out.status.success(), "portolan search {query:?} failed");
        let hits: Vec<serde_json::Value> =
            serde_json::from_slice(&out.stdout).expect("search --json prints an array");
        let urls = hits.iter().map(|h| h["url"].clone()).collect();
        expected.insert(query.to_string(), serde_json::Value::Array(urls));
    }
    let expectations = tmp.path().join("search-expected.json");
    std::fs::write(
        &expectations,
        serde_json::Value::Object(expected).to_string(),
    )
    .expect("write the search expectations");

    run_e2e(
        root,
        "tests/e2e/site.mjs",
        &[site.as_os_str()],
        &[("PORTOLAN_E2E_SEARCH", expectations.as_path())],
    );
}

/// Runs `cmd`, collecting stdout and stderr; kills it after `limit`.
/// Returns `None` as the status when it had to be killed.
fn run_with_timeout(
    cmd: &mut Command,
    limit: Duration,
) -> (Option<std::process::ExitStatus>, String, String) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start `node` (is Node.js installed?)");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait().expect("wait for node") {
            Some(status) => break Some(status),
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    (status, stdout, stderr)
}
