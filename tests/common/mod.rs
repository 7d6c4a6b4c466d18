//! Helpers shared by the integration tests (each test crate uses some of them).
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The folder every child a test starts gets as `HOME`: under the target directory, so no
/// child can read or write the real home folder.
pub fn test_home() -> PathBuf {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("home");
    std::fs::create_dir_all(&home).expect("a test HOME under the target directory");
    home
}

/// `program` with `HOME` set to [`test_home`]: the one way a test starts a child (a test
/// may set its own `HOME` on top).
pub fn tool(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut command = Command::new(program);
    command.env("HOME", test_home());
    command
}

/// `portolan`, started as every test tool is (see [`tool`]).
pub fn portolan() -> Command {
    tool(env!("CARGO_BIN_EXE_portolan"))
}

/// The model `portolan analyze` prints for a folder, failing the test with its stderr.
pub fn analyze(dir: &Path) -> serde_json::Value {
    let out = portolan().arg("analyze").arg(dir).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs a command, showing its output if the test fails.
pub fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    eprintln!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// A model's diagnostics as `file:line: message`.
pub fn diagnostics(model: &serde_json::Value) -> Vec<String> {
    model["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}:{}: {}",
                d["file"].as_str().unwrap(),
                d["line"],
                d["message"].as_str().unwrap()
            )
        })
        .collect()
}

/// Runs git in `dir` as a test's own tool and returns its output. The author, committer
/// and date are fixed (and signing off), so the same commits get the same ids on every run.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = tool("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"])
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Copies a fixture tree, leaving out `.portolan`: builds that run on the committed
/// fixtures in place keep their cache there, and other tests may be writing it while we copy.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() == ".portolan" {
            continue;
        }
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every file under `dir` with its bytes, sorted by relative path.
pub fn all_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The fixture portal (portal.toml, its content and its projects) in a temporary folder.
pub fn portal_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for part in [
        "atlas-content",
        "widget-operator",
        "gadget-scheduler",
        "kube-operator",
    ] {
        copy_dir(&fixtures().join(part), &dir.path().join(part));
    }
    std::fs::copy(
        fixtures().join("portal.toml"),
        dir.path().join("portal.toml"),
    )
    .unwrap();
    dir
}

/// The fixture portal in a temporary folder, with a theme folder overriding content.html.
pub fn site_with_theme() -> tempfile::TempDir {
    let dir = portal_copy();
    let templates = dir.path().join("themes/default/templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("themes/default/templates/content.html"),
        templates.join("content.html"),
    )
    .unwrap();
    dir
}

/// A running `portolan serve`, stopped when dropped.
pub struct Server {
    child: Child,
    pub address: String,
    /// The server's stderr lines after the address (the reading thread keeps draining it).
    log: mpsc::Receiver<String>,
    /// Its stderr lines before the address: the first build's.
    pub startup: Vec<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Waits (up to 60 s) for a line of the server's output that starts with `prefix`.
    pub fn wait_for_line(&self, prefix: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let line = self
                .log
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .unwrap_or_else(|_| panic!("serve printed a line starting with {prefix:?}"));
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}

pub fn serve(dir: &Path) -> Server {
    serve_config(&dir.join("portal.toml"), None)
}

/// `portolan serve` on `config`, with `HOME` set to `home` if given (a test's own folder).
pub fn serve_config(config: &Path, home: Option<&Path>) -> Server {
    let mut command = portolan();
    command
        .args(["serve", "--port", "0", "--config"])
        .arg(config);
    if let Some(home) = home {
        command.env("HOME", home);
    }
    serve_with(command)
}

/// Starts `command` (a `portolan serve` with `--port 0`) and waits for its address.
pub fn serve_with(mut command: Command) -> Server {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, log) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("serve: {line}");
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Made first, so a server that never announces itself is stopped when the test fails.
    let mut server = Server {
        child,
        address: String::new(),
        log,
        startup: Vec::new(),
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let line = server
            .log
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("serve printed its address");
        if let Some(url) = line.strip_prefix("portolan: serving http://") {
            server.address = url.split('/').next().unwrap().to_string();
            return server;
        }
        server.startup.push(line);
    }
}

/// A model row's sources as `file:line,…`.
pub fn sources(v: &serde_json::Value) -> String {
    v["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{}:{}", s["file"].as_str().unwrap(), s["line"]))
        .collect::<Vec<_>>()
        .join(",")
}

/// A string field of a model row, empty when absent.
pub fn s<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

/// Builds a portal of one local project (`name`, titled by its name) into a temporary
/// folder, failing the test with portolan's stderr; returns the folder and the site in it.
pub fn build_one(name: &str, project: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("projects.toml");
    std::fs::write(
        &config,
        format!(
            "[[project]]\nname = \"{name}\"\npath = \"{}\"\n",
            project.display()
        ),
    )
    .unwrap();
    let out = dir.path().join("site");
    let o = portolan()
        .args(["build", "-q", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (dir, out)
}
