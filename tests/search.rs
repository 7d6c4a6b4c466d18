//! Search on the fixture portal: the CLI's ranking for the queries people ask, the static
//! export's files, every result URL landing on a rendered page and row, and bad queries.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The fixture portal's config with its own cache folder, built into a temp folder.
struct Portal {
    dir: tempfile::TempDir,
    config: PathBuf,
}

fn built_portal() -> Portal {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixtures().join("portal.toml")).unwrap();
    let fx = fixtures();
    // Every relative path made absolute (the content folder, outside the config's folder
    // now, needs the opt-in), and a cache folder of its own (tests run at once).
    let mut text = text.replace(
        "content = \"atlas-content\"",
        &format!(
            "content = \"{}\"\nallow_outside = [\"content\"]\ncache_dir = \"{}\"",
            fx.join("atlas-content").display(),
            dir.path().join("cache").display()
        ),
    );
    for line in text.clone().lines() {
        if let Some(rel) = line
            .strip_prefix("path = \"")
            .and_then(|r| r.strip_suffix('"'))
        {
            text = text.replace(line, &format!("path = \"{}\"", fx.join(rel).display()));
        }
    }
    let config = dir.path().join("portal.toml");
    std::fs::write(&config, text).unwrap();
    let out = common::portolan()
        .args(["build", "-q", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(dir.path().join("site"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "build failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Portal { dir, config }
}

fn search(p: &Portal, args: &[&str]) -> (Vec<Value>, String) {
    let out = common::portolan()
        .args(["search", "--json", "--config"])
        .arg(&p.config)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "search {args:?} failed: {stderr}");
    let hits: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("search {args:?} printed no JSON array ({e}): {stderr}"));
    (hits.as_array().cloned().unwrap_or_default(), stderr)
}

fn first_url(p: &Portal, query: &str) -> String {
    let (hits, stderr) = search(p, &["--", query]);
    hits.first()
        .and_then(|h| h["url"].as_str())
        .unwrap_or_else(|| panic!("no result for {query:?}: {stderr}"))
        .to_string()
}

const BASE: &str = "https://example.github.io/atlas/";

/// The static export's `search/manifest.json` of a built site.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn manifest_of(site: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(site.join("search/manifest.json")).unwrap())
        .unwrap()
}

#[test]
fn the_right_row_comes_first() {
    let p = built_portal();
    // A kind's name: its kind page.
    assert_eq!(
        first_url(&p, "Widget"),
        format!("{BASE}kinds/widgets.example.io/Widget/")
    );
    // A route path: the endpoint row.
    assert_eq!(
        first_url(&p, "/healthz"),
        format!("{BASE}projects/widget-operator/dataflow/#endpoint-any-healthz")
    );
    // A ConfigMap key: the ConfigMap's row.
    assert_eq!(
        first_url(&p, "config.yaml"),
        format!("{BASE}projects/widget-operator/dataflow/#configmap-widget-system-widget-defaults")
    );
    // A flag: the flag's row.
    assert_eq!(
        first_url(&p, "--leader-elect"),
        format!("{BASE}projects/widget-operator/#flag-cmd-leader-elect")
    );
    // A controller's name: its own page.
    assert_eq!(
        first_url(&p, "gadget-relay"),
        format!("{BASE}projects/gadget-scheduler/controllers/gadget-relay/")
    );
    // A typo of 5+ letters still finds the kind.
    assert_eq!(
        first_url(&p, "Widgte "),
        format!("{BASE}kinds/widgets.example.io/Widget/")
    );
}

#[test]
fn results_carry_every_field_and_filters_narrow_them() {
    let p = built_portal();
    let (hits, _) = search(&p, &["Widget", "--limit", "50"]);
    assert!(hits.len() > 5, "{hits:?}");
    for h in &hits {
        for key in [
            "title", "url", "project", "category", "score", "page", "context", "snippet",
        ] {
            assert!(h.get(key).is_some(), "{key} missing in {h}");
        }
    }
    let scores: Vec<f64> = hits.iter().map(|h| h["score"].as_f64().unwrap()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );

    let (only, _) = search(
        &p,
        &["Widget", "--project", "gadget-scheduler", "--limit", "50"],
    );
    assert!(!only.is_empty());
    assert!(
        only.iter().all(|h| h["project"] == "gadget-scheduler"),
        "{only:?}"
    );
    let (same, _) = search(&p, &["Widget project:gadget-scheduler", "--limit", "50"]);
    assert_eq!(only, same, "--project and project: are the same filter");

    let (watches, _) = search(&p, &["kind:Widget", "--category", "watch", "--limit", "50"]);
    assert!(!watches.is_empty());
    assert!(watches.iter().all(|h| h["category"] == "watch"));
    assert!(
        watches.iter().any(|h| h["project"] == "gadget-scheduler"
            && h["title"].as_str().unwrap().contains("Widget")),
        "the scheduler's watch of Widget: {watches:?}"
    );
}

#[test]
fn every_result_lands_on_a_rendered_page_and_row() {
    let p = built_portal();
    let site = p.dir.path().join("site");
    let (hits, _) = search(&p, &["e", "--limit", "10000"]);
    let (more, _) = search(&p, &["widget", "--limit", "10000"]);
    let mut checked = 0;
    for h in hits.iter().chain(more.iter()) {
        let url = h["url"].as_str().unwrap();
        let rest = url.strip_prefix(BASE).expect("under the base URL");
        let (page, anchor) = rest.split_once('#').unwrap_or((rest, ""));
        let html = std::fs::read_to_string(site.join(page).join("index.html"))
            .unwrap_or_else(|e| panic!("{url}: no page ({e})"));
        if !anchor.is_empty() {
            assert!(
                html.contains(&format!("id=\"{anchor}\"")),
                "{url}: no such anchor"
            );
        }
        checked += 1;
    }
    assert!(checked > 20, "only {checked} results checked");
}

#[test]
fn the_static_export_is_named_by_content_and_small() {
    let p = built_portal();
    let site = p.dir.path().join("site");
    let manifest = manifest_of(&site);
    let shards = manifest["shards"].as_array().unwrap();
    let shard_files = manifest["shard_files"].as_array().unwrap();
    assert!(!shards.is_empty());
    assert_eq!(shards.len(), shard_files.len());
    // Every file is named by its content: 12 hex digits of its SHA-256.
    let named_by_content = |folder: &str, name: &Value| {
        let name = name.as_str().unwrap();
        let bytes = std::fs::read(site.join(format!("search/{folder}/{name}.json"))).unwrap();
        let digest = sha256_hex(&bytes);
        assert_eq!(name, &digest[..12], "search/{folder}/{name}.json");
        bytes
    };
    let chunks = manifest["doc_files"].as_array().unwrap();
    let docs = manifest["docs"].as_u64().unwrap() as usize;
    assert_eq!(
        chunks.len(),
        docs.div_ceil(manifest["chunk"].as_u64().unwrap() as usize)
    );
    for name in chunks {
        named_by_content("d", name);
    }
    for (key, name) in shards.iter().zip(shard_files) {
        let bytes = named_by_content("t", name);
        let shard: Value = serde_json::from_slice(&bytes).unwrap();
        let key = key.as_str().unwrap();
        for term in shard.as_object().unwrap().keys() {
            let text = term.strip_prefix('=').unwrap_or(term);
            assert!(text.starts_with(key), "{term} is not under shard key {key}");
        }
    }
    let docs = manifest["docs"].as_u64().unwrap();
    let runs: u64 = manifest["project_runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[1].as_u64().unwrap())
        .sum();
    assert_eq!(runs, docs, "one project per document");
    // The search page and its script are part of the site.
    assert!(site.join("static/search.js").is_file());
    let page = std::fs::read_to_string(site.join("search/index.html")).unwrap();
    assert!(page.contains("id=\"search-page\""));
}

#[test]
fn bad_queries_give_results_or_a_message_never_an_error() {
    let p = built_portal();
    let long = "inference ".repeat(1000);
    let many: String = (0..3000).map(|i| format!("w{i} ")).collect();
    for (query, expect_note) in [
        ("", false),
        ("?!., ;", true),
        (long.as_str(), false),
        (many.as_str(), true),
        ("\"unbalanced quote", false),
        ("kind:", true),
        ("kind: Widget", true),
        ("project:", true),
        ("\"\"", false),
        ("::::", false),
        ("%00 \\ <script>", false),
    ] {
        let (_, stderr) = search(&p, &["--", query]);
        if expect_note {
            assert!(
                stderr.contains("note:"),
                "{query:?}: expected a note, got {stderr}"
            );
        }
        assert!(!stderr.contains("panicked"), "{query:?}: {stderr}");
    }
    let (hits, _) = search(&p, &["kind: Widget"]);
    assert!(
        !hits.is_empty(),
        "the word after an empty `kind:` is still searched"
    );
}

/// Search: a kind's page comes first for its kind's name, even when a
/// controller is named after the kind (`gizmo` reconciles Gizmo, and its short title and
/// rows repeat the name), and for `kind:` alone (which once listed the home page first,
/// every match scoring 0).
#[test]
fn a_kind_name_or_kind_filter_finds_the_kind_page_first() {
    let p = built_portal();
    let gizmo = format!("{BASE}kinds/widgets.example.io/Gizmo/");
    let widget = format!("{BASE}kinds/widgets.example.io/Widget/");
    assert_eq!(first_url(&p, "Gizmo"), gizmo);
    assert_eq!(first_url(&p, "gizmo "), gizmo);
    assert_eq!(first_url(&p, "kind:Gizmo"), gizmo);
    assert_eq!(first_url(&p, "kind:Widget"), widget);
    // The controller is still found, right after the kind's page: its page, or the row
    // of its page that watches the kind.
    let (hits, _) = search(&p, &["--", "Gizmo"]);
    assert!(
        hits[1]["url"].as_str().unwrap().starts_with(&format!(
            "{BASE}projects/widget-operator/controllers/gizmo/"
        )),
        "{}",
        hits[1]["url"]
    );
    // Without words, what a filter keeps is ranked by category: the kind's page, then
    // the watches, writes and controllers, and the pages that merely link to it last.
    let (hits, _) = search(&p, &["kind:Widget", "--limit", "100"]);
    let categories: Vec<&str> = hits
        .iter()
        .map(|h| h["category"].as_str().unwrap())
        .collect();
    let home = hits
        .iter()
        .position(|h| h["url"] == BASE)
        .expect("the home page links to Widget");
    let last_fact = categories
        .iter()
        .rposition(|c| ["kind", "watch", "write", "informer", "controller"].contains(c))
        .unwrap();
    assert!(last_fact < home, "{categories:?}");
    assert!(home > 2, "the home page ranks {home}: {categories:?}");
}

/// Search: a snippet is what the page says, not its breadcrumb ("Home / …"),
/// navigation or title.
#[test]
fn snippets_carry_no_breadcrumb_or_navigation() {
    let p = built_portal();
    let (hits, _) = search(&p, &["e", "--limit", "10000"]);
    let (kinds, _) = search(&p, &["category:kind", "--limit", "100"]);
    assert!(kinds.len() >= 3, "{kinds:?}");
    let (pages_only, _) = search(
        &p,
        &["category:page category:api category:doc", "--limit", "1000"],
    );
    let mut pages = 0;
    for h in hits.iter().chain(kinds.iter()).chain(pages_only.iter()) {
        let snippet = h["snippet"].as_str().unwrap();
        assert!(!snippet.starts_with("Home"), "{}: {snippet}", h["url"]);
        if ["page", "kind", "api", "doc"].contains(&h["category"].as_str().unwrap()) {
            pages += 1;
            let title = h["title"].as_str().unwrap();
            assert!(
                !snippet.starts_with(title),
                "{}: the snippet repeats the title: {snippet}",
                h["url"]
            );
        }
    }
    assert!(pages > 10, "only {pages} pages checked");
}

/// Search: results a reader can tell apart. A CRD field is named by its path
/// (`size` is a field of several kinds and versions), every result has its own URL, and
/// no page gives the same row twice.
#[test]
fn results_are_distinguishable_and_never_repeated() {
    let p = built_portal();
    let (hits, _) = search(&p, &["size", "--limit", "100"]);
    let fields: Vec<&Value> = hits
        .iter()
        .filter(|h| h["category"] == "crd-field")
        .collect();
    assert!(fields.len() >= 2, "{hits:?}");
    for f in &fields {
        let title = f["title"].as_str().unwrap();
        assert!(
            title.starts_with("spec.") || title.starts_with("status."),
            "a field's title is its path: {title}"
        );
        assert!(title.ends_with("size"), "{title}");
    }
    // What a result shows: its title, and the page and section it is on.
    let (all, _) = search(&p, &["e", "--limit", "10000"]);
    let (more, _) = search(&p, &["widget", "--limit", "10000"]);
    let mut urls = std::collections::HashSet::new();
    let mut shown = std::collections::HashSet::new();
    for h in all.iter().chain(more.iter()).chain(hits.iter()) {
        let url = h["url"].as_str().unwrap();
        if !urls.insert(url.to_string()) {
            continue; // the same query twice
        }
        let page = url.split('#').next().unwrap();
        assert!(
            !h["page"].as_str().unwrap().is_empty(),
            "{url}: no page title"
        );
        let key = (
            page.to_string(),
            h["title"].as_str().unwrap().to_string(),
            h["context"].as_str().unwrap().to_string(),
            h["snippet"].as_str().unwrap().to_string(),
        );
        assert!(shown.insert(key), "{url}: the same row as another result");
    }
    let (same, _) = search(&p, &["e", "--limit", "10000"]);
    let unique: std::collections::HashSet<&str> =
        same.iter().map(|h| h["url"].as_str().unwrap()).collect();
    assert_eq!(unique.len(), same.len(), "one result per URL");
}

/// Search: categories have names people read, in the export the browser
/// script shows as facets.
#[test]
fn categories_are_labelled_in_the_export() {
    let p = built_portal();
    let site = p.dir.path().join("site");
    let manifest = manifest_of(&site);
    let labels = manifest["category_labels"].as_object().unwrap();
    let categories = manifest["categories"].as_array().unwrap();
    assert_eq!(labels.len(), categories.len());
    assert_eq!(labels["rbac-versus-code"], "RBAC versus code");
    assert_eq!(labels["crd-field"], "CRD fields");
    assert_eq!(labels["kind"], "Kinds");
    for (id, label) in labels {
        let label = label.as_str().unwrap();
        assert!(!label.contains('-'), "{id}: {label}");
        assert!(
            label.chars().next().unwrap().is_uppercase(),
            "{id}: {label}"
        );
    }
    assert!(manifest["ranking"]["kind_name_factor"].as_f64().unwrap() > 1.0);
}
