//! Seeded fuzzing of every entry point that reads untrusted text: the analyzers (Go, go.mod,
//! YAML manifests, Helm charts and values, kustomize, Rust, Cargo.toml), markdown (pages,
//! front matter, repository docs), projects.toml, and the model JSON a project may name.
//!
//! Test-only. Inputs are the fixture repositories under `tests/fixtures/`, mutated by a small
//! deterministic generator (bit flips, splices, repeats, deep nesting, hostile tokens), so a
//! failure is reproduced from its seed alone. Each case runs on a worker thread with the
//! analysis pool's stack size and a deadline: a panic, a hang or an output far larger than
//! the input fails the test, and the input is saved under `target/fuzz-failures/`.
//!
//! `cargo test` runs a bounded number of cases per target. `PORTOLAN_FUZZ_CASES=N` runs N per
//! target, `PORTOLAN_FUZZ_SEED=S` starts from another seed, `PORTOLAN_FUZZ_TARGET=name` runs
//! one target, `PORTOLAN_FUZZ_KEEP=1` saves every case's input (to look at a slow one).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use analyze::{self, FileFacts, FileKind};
use model::Area;
use source::walk;

/// splitmix64: tiny, fast, and the same sequence everywhere for one seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Tokens that tend to break parsers of each language: delimiters, quoting, YAML anchors and
/// tags, markdown block starts, raw HTML, and the call shapes the analyzers look for.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "'",
    "`",
    "\\",
    "\n",
    "\r\n",
    "\t",
    " ",
    ":",
    ": ",
    "- ",
    "---\n",
    "...\n",
    "&a ",
    "*a",
    "<<: *a\n",
    "!!binary ",
    "!!map ",
    "? ",
    "|\n",
    ">-\n",
    "#",
    "# ",
    "## ",
    "```\n",
    "```mermaid\n",
    "> [!NOTE]\n",
    "<div>",
    "</div>",
    "<script>",
    "<!--",
    "[x]: ",
    "[^1]",
    "| a | b |\n|---|---|\n",
    "+++\n",
    "=",
    "[[project]]\n",
    "[site]\n",
    "func ",
    "const ",
    "var ",
    "type ",
    "package ",
    "import ",
    "go ",
    "defer ",
    "+ ",
    "...",
    "ctrl.NewControllerManagedBy(mgr).For(&",
    ".Owns(&",
    ".Watches(",
    ".Complete(r)",
    "r.Client.Create(ctx, ",
    "r.Status().Update(ctx, ",
    "//+kubebuilder:rbac:groups=",
    "// +kubebuilder:webhook:path=",
    "http.HandleFunc(\"",
    "prometheus.NewCounterVec(",
    "flag.String(\"",
    "os.Getenv(\"",
    "${HOME}",
    "schema.GroupVersion{Group: \"",
    "fn ",
    "impl ",
    "#[",
    "#[derive(CustomResource)]",
    "#[kube(group = \"",
    "Controller::new(",
    ".owns(",
    "::<",
    "apiVersion: v1\n",
    "kind: ",
    "kind: CustomResourceDefinition\n",
    "metadata:\n",
    "  name: ",
    "{{ ",
    " }}",
    "{{- if .Values.x }}",
    "{{ end }}",
    "resources:\n",
    "- ../",
    "namePrefix: ",
    "\u{0}",
    "\u{feff}",
    "\u{202e}",
    "é",
    "\u{1F600}",
    "0x",
    "1e999",
    "-1",
    "18446744073709551616",
];

/// Returns a mutated copy of `input`; `other` is another input of the same target to splice.
pub fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = out.len();
        let at = if len == 0 { 0 } else { rng.below(len + 1) };
        match rng.below(11) {
            // Flip one bit.
            0 if len > 0 => {
                let i = rng.below(len);
                out[i] ^= 1 << rng.below(8);
            }
            // Replace a byte with an interesting one.
            1 if len > 0 => {
                let i = rng.below(len);
                out[i] = *rng.pick(&[0u8, b'\n', b'"', b'{', b'}', b':', b'-', 0xff, 0xc3, b'\\']);
            }
            // Insert a token.
            2 | 3 => {
                let token = rng.pick(TOKENS).as_bytes();
                out.splice(at..at, token.iter().copied());
            }
            // Delete a range.
            4 if len > 0 => {
                let end = (at + 1 + rng.below(64)).min(len);
                out.drain(at.min(len)..end);
            }
            // Repeat a range many times (long lines, long chains, many documents).
            5 if len > 0 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(80)).min(len);
                let piece = out[start..end].to_vec();
                let times = *rng.pick(&[2usize, 3, 10, 100, 1000]);
                let repeated: Vec<u8> = piece.repeat(times);
                out.splice(end..end, repeated);
            }
            // Nest: wrap a point in many openers and closers.
            6 => {
                let (open, close) = *rng.pick(&[
                    ("(", ")"),
                    ("[", "]"),
                    ("{", "}"),
                    ("<div>", "</div>"),
                    ("> ", ""),
                    ("- ", ""),
                ]);
                let depth = *rng.pick(&[10usize, 100, 1000]);
                let mut nested = open.repeat(depth).into_bytes();
                nested.extend(close.repeat(depth).into_bytes());
                out.splice(at..at, nested);
            }
            // Splice in part of another input.
            7 if !other.is_empty() => {
                let start = rng.below(other.len());
                let end = (start + 1 + rng.below(400)).min(other.len());
                out.splice(at..at, other[start..end].iter().copied());
            }
            // Truncate.
            8 if len > 0 => out.truncate(at),
            // Duplicate a line.
            9 if len > 0 => {
                let start = out[..at.min(len)]
                    .iter()
                    .rposition(|b| *b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = out[at.min(len)..]
                    .iter()
                    .position(|b| *b == b'\n')
                    .map_or(len, |i| at.min(len) + i + 1);
                let line = out[start..end].to_vec();
                out.splice(end..end, line);
            }
            // Change indentation of a line (YAML and markdown care).
            _ => {
                let spaces = rng.below(9);
                out.splice(at..at, std::iter::repeat_n(b' ', spaces));
            }
        }
    }
    // Keep cases to a size one run can afford.
    out.truncate(1 << 20);
    out
}

/// Mutates JSON as values most of the time (a byte mutation rarely leaves valid JSON, and
/// the model reader's interesting cases are valid JSON with hostile contents).
pub fn mutate_json(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(input) else {
        return mutate(rng, input, other);
    };
    if rng.below(8) == 0 {
        return mutate(rng, input, other);
    }
    for _ in 0..1 + rng.below(6) {
        if rng.below(4) == 0 {
            repeat_top_level_item(rng, &mut value);
        } else {
            mutate_value(rng, &mut value);
        }
    }
    serde_json::to_vec(&value).unwrap_or_default()
}

/// Repeats one item of one of the top-level lists of an object many times: a model's
/// controllers, workloads or CRDs copied hundreds of times under one name, which a
/// random walk from the root reaches too rarely (that is how the many controllers of
/// one name, each page listing all of them, went unfound).
fn repeat_top_level_item(rng: &mut Rng, value: &mut serde_json::Value) {
    let serde_json::Value::Object(map) = value else {
        return;
    };
    let lists: Vec<&String> = map
        .iter()
        .filter(|(_, v)| v.as_array().is_some_and(|a| !a.is_empty()))
        .map(|(k, _)| k)
        .collect();
    if lists.is_empty() {
        return;
    }
    let key = lists[rng.below(lists.len())].clone();
    if let Some(serde_json::Value::Array(items)) = map.get_mut(&key) {
        let item = items[rng.below(items.len())].clone();
        let times = *rng.pick(&[10usize, 100, 300]);
        items.extend(std::iter::repeat_n(item, times));
    }
}

/// Changes one node of `value`, chosen by a random walk from the root.
fn mutate_value(rng: &mut Rng, node: &mut serde_json::Value) {
    use serde_json::Value;
    if rng.below(5) != 0 {
        match node {
            Value::Array(items) if !items.is_empty() => {
                let i = rng.below(items.len());
                return mutate_value(rng, &mut items[i]);
            }
            Value::Object(map) if !map.is_empty() => {
                let i = rng.below(map.len());
                if let Some(child) = map.values_mut().nth(i) {
                    return mutate_value(rng, child);
                }
            }
            _ => {}
        }
    }
    match node {
        Value::String(s) => {
            *s = match rng.below(6) {
                0 => String::new(),
                1 => rng.pick(TOKENS).to_string(),
                2 => s.repeat(1 + rng.below(200)),
                3 => format!("{s}/../../{s}"),
                4 => "<script>alert(1)</script>\"'&{{ x }}{% y %}".into(),
                _ => format!("{s}{}", rng.pick(TOKENS)),
            }
        }
        Value::Number(_) => {
            *node = serde_json::json!(*rng.pick(&[
                0i64,
                -1,
                1,
                i64::MAX,
                i64::MIN,
                u32::MAX as i64 + 1
            ]));
        }
        Value::Array(items) if !items.is_empty() => match rng.below(3) {
            0 => {
                let item = items[rng.below(items.len())].clone();
                let times = *rng.pick(&[2usize, 10, 300]);
                items.extend(std::iter::repeat_n(item, times));
            }
            1 => {
                items.remove(rng.below(items.len()));
            }
            _ => items.reverse(),
        },
        Value::Object(map) if !map.is_empty() => {
            // Optional fields may go; a required one missing makes the model invalid, which
            // the reader must report, and that is a case too.
            let key = map
                .keys()
                .nth(rng.below(map.len()))
                .cloned()
                .unwrap_or_default();
            map.remove(&key);
        }
        Value::Bool(b) => *b = !*b,
        _ => {}
    }
}

/// One fixture repository: its analyzable files, read once, and their facts.
struct Repo {
    files: Vec<(walk::SourceFile, String)>,
    facts: Vec<FileFacts>,
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The folders of `tests/fixtures/`, sorted.
fn fixture_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("tests/fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Every folder of `tests/fixtures/` holding analyzable files, as a repository.
fn fixture_repos() -> Vec<Repo> {
    let filter = walk::Filter::new(&[], &[]).expect("no globs");
    let mut repos = Vec::new();
    for dir in fixture_dirs() {
        let (listed, _) = walk::walk(&dir, &filter);
        let files: Vec<(walk::SourceFile, String)> = listed
            .into_iter()
            .filter_map(|f| {
                let text = std::fs::read_to_string(&f.abs).ok()?;
                Some((f, text))
            })
            .collect();
        if files.is_empty() {
            continue;
        }
        let facts = files
            .iter()
            .map(|(f, text)| analyze::analyze_file(f.kind, &f.path, text, f.area))
            .collect();
        repos.push(Repo { files, facts });
    }
    repos
}

/// The result of one case that did not panic: a rough size of what it produced, or None
/// when the input was rejected before the deep path (not JSON, say).
type Outcome = Option<usize>;

/// Runs one case: the index of the starting input, and the mutated bytes.
type Runner = Arc<dyn Fn(usize, &[u8]) -> Outcome + Send + Sync>;

/// A fuzz target: which inputs it starts from and what it runs on a mutated one.
struct Target {
    name: &'static str,
    /// Starting inputs, each with a label naming the fixture file.
    seeds: Vec<(String, Vec<u8>)>,
    run: Runner,
    /// Makes a case from a starting input and another one to splice from.
    mutator: fn(&mut Rng, &[u8], &[u8]) -> Vec<u8>,
}

/// An analyzer target: a mutated fixture file analyzed and assembled with the unmutated rest
/// of its repository, so cross-file resolution sees the hostile file too.
fn analyzer_target(
    name: &'static str,
    repos: &Arc<Vec<Repo>>,
    pick: fn(&str, FileKind) -> bool,
) -> Target {
    let mut seeds = Vec::new();
    let mut index = Vec::new();
    for (r, repo) in repos.iter().enumerate() {
        for (f, (file, text)) in repo.files.iter().enumerate() {
            if pick(&file.path, file.kind) {
                seeds.push((format!("{}", file.abs.display()), text.clone().into_bytes()));
                index.push((r, f));
            }
        }
    }
    let repos = Arc::clone(repos);
    Target {
        name,
        seeds,
        mutator: mutate,
        run: Arc::new(move |seed, bytes| {
            let (r, f) = index[seed];
            let repo = &repos[r];
            let (file, _) = &repo.files[f];
            let text = String::from_utf8_lossy(bytes);
            let mutated = analyze::analyze_file(file.kind, &file.path, &text, file.area);
            let facts: Vec<(FileFacts, Area)> = repo
                .facts
                .iter()
                .enumerate()
                .map(|(i, facts)| {
                    let facts = if i == f {
                        mutated.clone()
                    } else {
                        facts.clone()
                    };
                    (facts, repo.files[i].0.area)
                })
                .collect();
            let findings = analyze::assemble(facts, &BTreeMap::new());
            Some(format!("{findings:?}").len())
        }),
    }
}

fn is_kustomization(path: &str) -> bool {
    manifests::kustomize::is_kustomization(path)
}

fn is_helm(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "Chart.yaml" || name.starts_with("values") || path.contains("/templates/")
}

/// Markdown: a page of the site's content (front matter and body), a repository README with
/// its front matter and image references, rendered.
fn markdown_target() -> Target {
    let mut seeds = Vec::new();
    for path in files_with(&fixtures_dir(), ".md") {
        if let Ok(text) = std::fs::read(&path) {
            seeds.push((path.display().to_string(), text));
        }
    }
    Target {
        name: "markdown",
        seeds,
        mutator: mutate,
        run: Arc::new(|_, bytes| {
            let text = String::from_utf8_lossy(bytes);
            let mut size = 0;
            if let Ok(page) = source::content::parse_page("fuzz.md", "fuzz.md", &text) {
                size += format!("{page:?}").len();
            }
            let rendered = markdown::render(
                &text,
                Arc::new(NoLinks),
                markdown::Settings {
                    mermaid: true,
                    reserved_ids: &["main-content"],
                    heading_offset: 1,
                },
            );
            size += rendered.html.len();
            // A repository's README goes through docs collection: front matter title,
            // referenced images, diagnostics.
            let dir = tempfile::tempdir().expect("temp dir");
            std::fs::write(dir.path().join("README.md"), bytes).expect("write README");
            let collected = source::docs::collect(dir.path(), &[]);
            size += format!("{:?}", collected.docs).len();
            Some(size)
        }),
    }
}

struct NoLinks;
impl markdown::Links for NoLinks {
    fn resolve(&self, _: markdown::Use, path: &str, _: Option<&str>) -> Option<String> {
        Some(format!("/x/{path}"))
    }
}

/// projects.toml: parsed and validated (no file is read: paths are only resolved).
fn config_target() -> Target {
    let mut seeds = Vec::new();
    for path in files_with(&fixtures_dir(), ".toml") {
        if path.file_name().is_some_and(|n| n != "Cargo.toml")
            && let Ok(text) = std::fs::read(&path)
        {
            seeds.push((path.display().to_string(), text));
        }
    }
    seeds.push((
        "projects.toml".into(),
        include_bytes!("../projects.toml").to_vec(),
    ));
    Target {
        name: "projects.toml",
        seeds,
        mutator: mutate,
        run: Arc::new(|_, bytes| {
            let text = String::from_utf8_lossy(bytes);
            match config::parse(Path::new("/nonexistent/fuzz/projects.toml"), &text) {
                Ok(config) => Some(format!("{config:?}").len()),
                Err(e) => {
                    assert!(
                        e.to_string().contains("projects.toml:"),
                        "a config error names its file: {e}"
                    );
                    None
                }
            }
        }),
    }
}

/// The fixtures' models, as `portolan analyze` writes them.
fn model_seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    let options = pipeline::analysis::Options {
        jobs: Some(1),
        offline: true,
        out: None,
        reuse_output: false,
        keep_going: false,
    };
    for dir in fixture_dirs() {
        if let Ok(project) = pipeline::analysis::analyze_path(&dir, &options) {
            let json = serde_json::to_vec_pretty(&project).expect("a model serializes");
            seeds.push((format!("model of {}", dir.display()), json));
        }
    }
    seeds
}

/// A model's text read the way the pipeline reads a `model =` file and rendered into a
/// whole site (project `m`); None when it is not a model or the site cannot be made of it.
/// A rendering error that says it is portolan's bug fails the case.
fn render_model(bytes: &[u8], theme: &render::theme::Theme) -> Option<Vec<render::OutputFile>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut project = serde_json::from_str::<model::Project>(text).ok()?;
    // As the pipeline does: projects.toml names the project, not the model.
    project.name = "m".into();
    project.title = "M".into();
    let config = config::parse(
        Path::new("/nonexistent/fuzz/projects.toml"),
        "[[project]]\nname = \"m\"\nmodel = \"m.json\"\n",
    )
    .expect("a valid config");
    let content = source::content::Content::default();
    let mut files = Vec::new();
    pipeline::render_pages(
        &config,
        vec![project],
        Vec::new(),
        &content,
        theme,
        &pipeline::analysis::Silent,
        &mut files,
    )
    .map_err(|e| assert!(!e.to_string().contains("a bug in portolan"), "{e}"))
    .ok()?;
    Some(files)
}

/// The model JSON a project may name: the fixtures' models, mutated as text, read the way the
/// pipeline reads them, then linked and rendered into a whole site.
fn model_target() -> Target {
    let theme = Arc::new(render::theme::Theme::load(None).expect("the built-in theme"));
    Target {
        name: "model json",
        seeds: model_seeds(),
        mutator: mutate_json,
        run: Arc::new(move |_, bytes| {
            let files = render_model(bytes, &theme)?;
            Some(files.iter().map(|f| f.bytes.len()).sum())
        }),
    }
}

/// Changes a reference a character at a time in the characters references are made of, so
/// that most cases are still references (a byte mutation rarely leaves one); a quarter of
/// the cases are mutated as any text.
fn mutate_reference(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    if rng.below(4) == 0 {
        return mutate(rng, input, other);
    }
    const CHARS: &[u8] = b"abz09.-_/:@";
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(out.len() + 1);
        match rng.below(4) {
            0 if at < out.len() => out[at] = *rng.pick(CHARS),
            1 if at < out.len() => {
                out.remove(at);
            }
            2 => {
                let piece = out[at..]
                    .iter()
                    .take(1 + rng.below(12))
                    .copied()
                    .collect::<Vec<_>>();
                out.splice(at..at, piece);
            }
            _ => out.insert(at, *rng.pick(CHARS)),
        }
    }
    out
}

/// Image references as manifests write them (`image:` values of the fixtures), split the
/// way every image row is: an accepted reference is made of its parts again, exactly.
fn image_target() -> Target {
    let mut seeds = Vec::new();
    for path in files_with(&fixtures_dir(), ".yaml") {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for line in text.lines() {
            if let Some(value) = line.trim().trim_start_matches("- ").strip_prefix("image:") {
                let value = value.trim().trim_matches(['"', '\'']);
                if !value.is_empty() && !value.contains("{{") {
                    seeds.push((
                        format!("{}: {value}", path.display()),
                        value.as_bytes().to_vec(),
                    ));
                }
            }
        }
    }
    Target {
        name: "image references",
        seeds,
        mutator: mutate_reference,
        run: Arc::new(|_, bytes| {
            let text = String::from_utf8_lossy(bytes);
            let parts = kubernetes::image_reference::split(&text)?;
            let mut again = String::new();
            if !parts.registry.is_empty() {
                again.push_str(&parts.registry);
                again.push('/');
            }
            again.push_str(&parts.repository);
            if !parts.tag.is_empty() {
                again.push(':');
                again.push_str(&parts.tag);
            }
            if !parts.digest.is_empty() {
                again.push('@');
                again.push_str(&parts.digest);
            }
            assert_eq!(again, text, "an image reference split into other parts");
            Some(again.len())
        }),
    }
}

/// The model's exports: a mutated model rendered as a whole site, whose `data/m.json` must
/// validate against the `data/schema.json` the same build wrote, and whose `data/c4.dsl`
/// must read, by Structurizr's tokenizer rules, as the lines portolan meant: no
/// `${NAME}` a renderer would substitute, and every quoted string closed where it was
/// written (each element line has the token count of its statement).
fn exports_target() -> Target {
    let seeds = model_seeds();
    let theme = Arc::new(render::theme::Theme::load(None).expect("the built-in theme"));
    Target {
        name: "model exports",
        seeds,
        mutator: mutate_json,
        run: Arc::new(move |_, bytes| {
            let files = render_model(bytes, &theme)?;
            let file = |path: &str| {
                files
                    .iter()
                    .find(|f| f.path == path)
                    .map(|f| f.bytes.as_slice())
                    .unwrap_or_else(|| panic!("the site has no {path}"))
            };
            let schema: serde_json::Value =
                serde_json::from_slice(file("data/schema.json")).expect("schema.json is JSON");
            let model: serde_json::Value =
                serde_json::from_slice(file("data/m.json")).expect("the model export is JSON");
            let validator = jsonschema::validator_for(&schema).expect("schema.json compiles");
            if let Some(error) = validator.iter_errors(&model).next() {
                panic!(
                    "data/m.json does not match data/schema.json: {error} at {}",
                    error.instance_path()
                );
            }
            let dsl = String::from_utf8_lossy(file("data/c4.dsl")).into_owned();
            for line in dsl.lines() {
                let tokens = render::c4::structurizr_tokens(line);
                assert!(
                    !tokens.iter().any(|t| render::c4::substitutes(t)),
                    "a c4.dsl token Structurizr would substitute: {line}"
                );
                // `ID = container|softwareSystem NAME DESCRIPTION TECHNOLOGY|{`, and
                // `FROM -> TO DESCRIPTION TECHNOLOGY`.
                let expected = match tokens.get(2).map(String::as_str) {
                    Some("container" | "softwareSystem") => Some(6),
                    _ if tokens.get(1).is_some_and(|t| t == "->") => Some(5),
                    _ => None,
                };
                if let Some(n) = expected {
                    assert_eq!(
                        tokens.len(),
                        n,
                        "a c4.dsl line read as other tokens: {line}"
                    );
                }
            }
            Some(files.iter().map(|f| f.bytes.len()).sum())
        }),
    }
}

fn files_with(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                if !e.file_name().to_string_lossy().starts_with('.') {
                    stack.push(p);
                }
            } else if t.is_file() && p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// How one target's run went.
#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    /// Cases that got past the first parse to the analysis or rendering behind it.
    accepted: usize,
    slowest: Duration,
    slowest_seed: u64,
}

/// What can go wrong with a case.
enum Failure {
    Panic(String),
    Hang,
    Blowup { input: usize, output: usize },
}

/// Runs `cases` mutated inputs through `target`. A case gets `deadline` on a worker thread.
fn run_target(
    target: &Target,
    first_seed: u64,
    cases: usize,
    deadline: Duration,
) -> Result<Tally, String> {
    let mut tally = Tally::default();
    if target.seeds.is_empty() {
        return Err(format!("{}: no fixture inputs", target.name));
    }
    for case in 0..cases {
        let seed = first_seed.wrapping_add(case as u64);
        let mut rng = Rng::new(seed);
        let start = rng.below(target.seeds.len());
        let other = rng.below(target.seeds.len());
        let input = (target.mutator)(&mut rng, &target.seeds[start].1, &target.seeds[other].1);
        if std::env::var_os("PORTOLAN_FUZZ_KEEP").is_some() {
            save_failure(&format!("kept-{}", target.name), seed, &input);
        }
        let started = Instant::now();
        let outcome = run_case(target, start, input.clone(), deadline);
        if started.elapsed() > tally.slowest {
            tally.slowest = started.elapsed();
            tally.slowest_seed = seed;
        }
        tally.cases += 1;
        if let Ok(Some(_)) = outcome {
            tally.accepted += 1;
        }
        let failure = match outcome {
            Ok(Some(output)) if output > 64 * input.len() + (4 << 20) => Some(Failure::Blowup {
                input: input.len(),
                output,
            }),
            Ok(_) => None,
            Err(f) => Some(f),
        };
        if let Some(failure) = failure {
            let saved = save_failure(target.name, seed, &input);
            let what = match failure {
                Failure::Panic(m) => format!("panicked: {m}"),
                Failure::Hang => format!("ran past {deadline:?}"),
                Failure::Blowup { input, output } => {
                    format!("made {output} bytes of output from {input} bytes")
                }
            };
            return Err(format!(
                "fuzz target `{}`, seed {seed} (from {}): {what}; input saved to {}; \
                 reproduce with PORTOLAN_FUZZ_TARGET='{}' PORTOLAN_FUZZ_SEED={seed} PORTOLAN_FUZZ_CASES=1",
                target.name,
                target.seeds[start].0,
                saved.display(),
                target.name
            ));
        }
    }
    Ok(tally)
}

/// The analysis pool's stack size, so a recursion that would overflow there overflows here.
const CASE_STACK: usize = pipeline::analysis::WORKER_STACK_BYTES;

fn run_case(
    target: &Target,
    seed_index: usize,
    input: Vec<u8>,
    deadline: Duration,
) -> Result<Outcome, Failure> {
    let (tx, rx) = mpsc::channel();
    let run = Arc::clone(&target.run);
    std::thread::Builder::new()
        .name(format!("fuzz {}", target.name))
        .stack_size(CASE_STACK)
        .spawn(move || {
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(seed_index, &input)));
            let _ = tx.send(result.map_err(|p| {
                p.downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into())
            }));
        })
        .expect("spawn a fuzz worker");
    match rx.recv_timeout(deadline) {
        Ok(Ok(size)) => Ok(size),
        Ok(Err(message)) => Err(Failure::Panic(message)),
        // The worker is left running: the test fails anyway.
        Err(_) => Err(Failure::Hang),
    }
}

fn save_failure(target: &str, seed: u64, input: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let name: String = target
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let path = dir.join(format!("{name}-{seed}"));
    let _ = std::fs::write(&path, input);
    path
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

/// The process's peak resident memory, from /proc (Linux), in MiB.
fn peak_rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

#[test]
fn fuzz_every_entry_point() {
    let cases_each = env_number("PORTOLAN_FUZZ_CASES");
    let first_seed = env_number("PORTOLAN_FUZZ_SEED").unwrap_or(0x5EED);
    let only = std::env::var("PORTOLAN_FUZZ_TARGET").ok();
    let repos = Arc::new(fixture_repos());
    let targets: Vec<(Target, u64)> = vec![
        (analyzer_target("go", &repos, |_, k| k == FileKind::Go), 120),
        (
            analyzer_target("go.mod", &repos, |_, k| k == FileKind::GoMod),
            40,
        ),
        (
            analyzer_target("yaml", &repos, |p, k| {
                k == FileKind::Yaml && !is_kustomization(p) && !is_helm(p)
            }),
            120,
        ),
        (
            analyzer_target("helm", &repos, |p, k| {
                (k == FileKind::Yaml && is_helm(p))
                    || k == FileKind::ValuesSchema
                    || k == FileKind::HelmHelpers
            }),
            80,
        ),
        (
            analyzer_target("kustomize", &repos, |p, _| is_kustomization(p)),
            60,
        ),
        (
            analyzer_target("rust", &repos, |_, k| {
                k == FileKind::Rust || k == FileKind::CargoToml
            }),
            80,
        ),
        (
            analyzer_target("Cargo.toml", &repos, |_, k| k == FileKind::CargoToml),
            40,
        ),
        (
            analyzer_target("dockerfile", &repos, |p, k| {
                k == FileKind::Build
                    && p.rsplit('/')
                        .next()
                        .is_some_and(|n| n.starts_with("Dockerfile"))
            }),
            80,
        ),
        (image_target(), 300),
        (markdown_target(), 120),
        (config_target(), 150),
        (model_target(), 40),
        (exports_target(), 30),
    ];
    let deadline = Duration::from_secs(env_number("PORTOLAN_FUZZ_DEADLINE_SECS").unwrap_or(60));
    let mut report = Vec::new();
    for (target, default_cases) in &targets {
        if only.as_deref().is_some_and(|o| o != target.name) {
            continue;
        }
        // The unmutated inputs must reach the deep path, or the cases test nothing.
        let unmutated = run_case(target, 0, target.seeds[0].1.clone(), deadline);
        assert!(
            matches!(unmutated, Ok(Some(n)) if n > 0),
            "fuzz target `{}`: its first input ({}) does not reach the code under test",
            target.name,
            target.seeds[0].0
        );
        let cases = cases_each.unwrap_or(*default_cases) as usize;
        match run_target(target, first_seed, cases, deadline) {
            Ok(tally) => report.push(format!(
                "{}: {} cases ({} past the first parse) from {} inputs, slowest {:.2?} (seed {})",
                target.name,
                tally.cases,
                tally.accepted,
                target.seeds.len(),
                tally.slowest,
                tally.slowest_seed
            )),
            Err(e) => panic!("{e}"),
        }
    }
    eprintln!(
        "fuzz: {}; peak RSS {} MiB",
        report.join("; "),
        peak_rss_mib().map_or("?".into(), |m| m.to_string())
    );
    assert!(
        !report.is_empty(),
        "no fuzz target ran (PORTOLAN_FUZZ_TARGET={only:?})"
    );
}

#[test]
fn the_generator_is_deterministic_and_mutates() {
    let input = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n";
    let a: Vec<Vec<u8>> = (0..20)
        .map(|s| mutate(&mut Rng::new(s), input, b"other"))
        .collect();
    let b: Vec<Vec<u8>> = (0..20)
        .map(|s| mutate(&mut Rng::new(s), input, b"other"))
        .collect();
    assert_eq!(a, b);
    assert!(a.iter().filter(|m| m.as_slice() != input).count() >= 15);
}
