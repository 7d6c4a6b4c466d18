//! `portolan serve` through the real binary: a fixture site copied to a temporary folder,
//! served on a free port; edits to a content page, a theme template and a Go file each
//! send a reload event and show new content; a broken template sends an error event while
//! the last good site is served; no request reaches a file outside the output folder.
//! Recovery: a project folder renamed away and back (or deleted and copied back) and a
//! projects.toml deleted and written again are watched again; links out of a project are
//! not followed; idle and slow connections are closed while the event stream stays open.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;

use std::sync::mpsc;
use std::time::Duration;

mod common;
use common::{all_files, serve, site_with_theme as site};

struct Reply {
    status: u16,
    /// Lowercased, for matching.
    headers: String,
    raw_headers: String,
    body: Vec<u8>,
}

impl Reply {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One HTTP/1.1 request with the path sent exactly as given (no client normalization).
fn request(address: &str, method: &str, path: &str, extra: &str) -> Reply {
    request_as(address, Some(address), method, path, extra)
}

/// A request naming `host` in its `Host` header, or sending none.
fn request_as(address: &str, host: Option<&str>, method: &str, path: &str, extra: &str) -> Reply {
    let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\n{host}Connection: close\r\n{extra}\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete response head");
    let headers = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = headers
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap();
    Reply {
        status,
        headers: headers.to_ascii_lowercase(),
        raw_headers: headers,
        body: raw[split + 4..].to_vec(),
    }
}

fn get(address: &str, path: &str) -> Reply {
    request(address, "GET", path, "")
}

/// The reload event stream: event names (with data) arrive on the returned channel.
fn events(address: &str) -> mpsc::Receiver<(String, String)> {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET /__portolan/events HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let (tx, rx) = mpsc::channel();
    let (ready_tx, ready_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let mut name = String::new();
        let mut line = String::new();
        let mut ready = Some(ready_tx);
        while reader.read_line(&mut line).unwrap_or(0) > 0 {
            let l = line.trim_end().to_string();
            line.clear();
            if l.is_empty()
                && let Some(r) = ready.take()
            {
                let _ = r.send(());
            }
            if let Some(n) = l.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = l.strip_prefix("data: ")
                && tx.send((name.clone(), d.to_string())).is_err()
            {
                break;
            }
        }
    });
    ready_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the event stream answered");
    rx
}

/// The next `reload` or `build-error` event (the `search` events that follow good
/// rebuilds are skipped: see [`searchable`]).
fn next_event(rx: &mpsc::Receiver<(String, String)>) -> (String, String) {
    loop {
        let event = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("an event within 30 s");
        if event.0 != "search" {
            return event;
        }
    }
}

/// Waits for the `search` event of rebuild `generation`: its search export is written.
fn searchable(rx: &mpsc::Receiver<(String, String)>, generation: &str) {
    loop {
        let (name, data) = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("a search event within 30 s");
        assert_ne!(name, "build-error", "{data}");
        if name == "search" && data == generation {
            return;
        }
    }
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} contains {from}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn edits_to_content_templates_and_go_reload_the_page() {
    let dir = site();
    let server = serve(dir.path());
    let a = server.address.clone();
    let page = get(&a, "/atlas/about/");
    assert_eq!(page.status, 200);
    assert!(
        page.text()
            .contains("new EventSource(\"/__portolan/events\")")
    );
    assert!(!page.text().contains("Edited by the serve test"));
    // The script is added when serving, never written into the site.
    let written = std::fs::read_to_string(dir.path().join("site/about/index.html")).unwrap();
    assert!(written.contains("About this portal"));
    assert!(!written.contains("EventSource"));

    let reloads = events(&a);

    // A content page.
    edit(
        &dir.path().join("atlas-content/about.md"),
        "Written for the tests.",
        "Edited by the serve test.",
    );
    assert_eq!(next_event(&reloads).0, "reload");
    assert!(
        get(&a, "/atlas/about/")
            .text()
            .contains("Edited by the serve test.")
    );
    // The navigation is as it was: only the content's own files were rendered (a page per
    // markdown file, the images as they are; the top index.md is the home page's text), and
    // only the edited page was written.
    let content_files = all_files(&dir.path().join("atlas-content")).len() - 1;
    let line = server.wait_for_line("portolan: rebuild 1: ");
    assert_eq!(
        line.rsplit_once(" in ").map(|(what, _)| what),
        Some(format!("portolan: rebuild 1: no project analyzed; rendered {content_files} files, wrote 1 changed, removed 0").as_str()),
        "{line}"
    );

    // A template of the site's theme.
    edit(
        &dir.path().join("themes/default/templates/content.html"),
        "<article class=\"markdown\">",
        "<article class=\"markdown\" data-edited=\"template-edit\">",
    );
    assert_eq!(next_event(&reloads).0, "reload");
    assert!(
        get(&a, "/atlas/about/")
            .text()
            .contains("data-edited=\"template-edit\"")
    );

    // A Go file of a path project: the controller's name changes on its dataflow page.
    let dataflow = "/atlas/projects/widget-operator/dataflow/";
    assert!(!get(&a, dataflow).text().contains("gizmo-renamed"));
    edit(
        &dir.path()
            .join("widget-operator/internal/controller/gizmo_controller.go"),
        "Named(\"gizmo\")",
        "Named(\"gizmo-renamed\")",
    );
    assert_eq!(next_event(&reloads).0, "reload");
    assert!(get(&a, dataflow).text().contains("gizmo-renamed"));

    // An editor's temporary file changes nothing.
    std::fs::write(dir.path().join("atlas-content/.about.md.swp"), "x").unwrap();
    std::fs::write(dir.path().join("atlas-content/about.md~"), "x").unwrap();
    // (The Go edit's `search` event may still arrive; no other event may.)
    let quiet_until = std::time::Instant::now() + Duration::from_millis(1500);
    while let Some(left) = quiet_until.checked_duration_since(std::time::Instant::now()) {
        match reloads.recv_timeout(left) {
            Ok((name, data)) => {
                assert_eq!(name, "search", "no rebuild for temporary files: {data}")
            }
            Err(_) => break,
        }
    }

    // A broken template: an error event, and the last good site is still served.
    let template = dir.path().join("themes/default/templates/content.html");
    let good = std::fs::read_to_string(&template).unwrap();
    std::fs::write(&template, good.replace("{% endblock main %}", "{% if %}")).unwrap();
    let (name, data) = next_event(&reloads);
    assert_eq!(name, "build-error");
    assert!(
        data.contains("content.html"),
        "the error names the file: {data}"
    );
    let page = get(&a, "/atlas/about/");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("Edited by the serve test."));
    // A browser that connects now hears about the error at once.
    let late = events(&a);
    assert_eq!(next_event(&late).0, "build-error");
    // Fixed: a reload clears the overlay.
    std::fs::write(&template, good).unwrap();
    assert_eq!(next_event(&reloads).0, "reload");
    assert_eq!(next_event(&late).0, "reload");
    // One more content edit, then: what serve wrote piece by piece is what a fresh build
    // of the same inputs writes.
    edit(
        &dir.path().join("atlas-content/about.md"),
        "Edited by the serve test.",
        "Edited twice by the serve test.",
    );
    let (name, generation) = next_event(&reloads);
    assert_eq!(name, "reload");
    // The pages come first; the search index follows with the same generation, then its
    // static export.
    searchable(&reloads, &generation);
    let line = server.wait_for_line(&format!("portolan: rebuild {generation} searchable: "));
    drop(server);
    // Export files are named by their content: the edit writes the chunk holding the
    // page's documents and the shards whose terms or scores moved, and removes their old
    // names. Versioned as a whole, every file would be written and removed: twice the
    // export, plus the manifest.
    let changed: usize = line
        .split("wrote the export (")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of export files in {line:?}"));
    let export = all_files(&dir.path().join("site"))
        .iter()
        .filter(|(path, _)| path.starts_with("search/t/") || path.starts_with("search/d/"))
        .count();
    eprintln!("export files changed by the edit: {changed} of {export}");
    assert!(
        changed > 0 && changed < export,
        "{changed} export files written or removed, of {export}"
    );
    let fresh = common::portolan()
        .args(["build", "-q", "--config"])
        .arg(dir.path().join("portal.toml"))
        .arg("--out")
        .arg(dir.path().join("fresh"))
        .status()
        .unwrap();
    assert!(fresh.success());
    assert_eq!(
        all_files(&dir.path().join("site")),
        all_files(&dir.path().join("fresh"))
    );
}

#[test]
fn editor_saves_yaml_and_projects_toml_edits_rebuild() {
    let dir = site();
    let server = serve(dir.path());
    let a = server.address.clone();
    let reloads = events(&a);
    let about = dir.path().join("atlas-content/about.md");

    // Saved through a temporary file renamed over the page (atomic-save editors).
    let text = std::fs::read_to_string(&about).unwrap();
    let temp = dir.path().join("atlas-content/.about.md.tmp.1234");
    std::fs::write(
        &temp,
        text.replace("Written for the tests.", "Renamed over."),
    )
    .unwrap();
    std::fs::rename(&temp, &about).unwrap();
    assert_eq!(next_event(&reloads).0, "reload");
    assert!(get(&a, "/atlas/about/").text().contains("Renamed over."));

    // Saved the vim way: the page moved to a `~` backup, written anew, the backup removed.
    let backup = dir.path().join("atlas-content/about.md~");
    std::fs::rename(&about, &backup).unwrap();
    let text = std::fs::read_to_string(&backup).unwrap();
    std::fs::write(&about, text.replace("Renamed over.", "Saved like vim.")).unwrap();
    std::fs::remove_file(&backup).unwrap();
    // The page may be gone for one rebuild (a 404, not an error); the last one has it.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (name, data) = next_event(&reloads);
        assert_eq!(name, "reload", "{data}");
        if get(&a, "/atlas/about/").text().contains("Saved like vim.") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the vim-style save never showed"
        );
    }

    // A YAML file of a path project: a CRD's description on its API page.
    let crd = dir
        .path()
        .join("widget-operator/config/crd/bases/widgets.example.io_gizmos.yaml");
    edit(
        &crd,
        "GizmoSpec defines the desired state of Gizmo.",
        "GizmoSpec was edited by the serve test.",
    );
    assert_eq!(next_event(&reloads).0, "reload");
    let api = "/atlas/projects/widget-operator/api/widgets.example.io/Gizmo/";
    assert!(
        get(&a, api)
            .text()
            .contains("GizmoSpec was edited by the serve test."),
        "{api}"
    );

    // projects.toml: the configuration is read again (the site's title on every page).
    edit(
        &dir.path().join("portal.toml"),
        "title = \"Fixture Atlas\"",
        "title = \"Edited Atlas\"",
    );
    assert_eq!(next_event(&reloads).0, "reload");
    assert!(get(&a, "/atlas/").text().contains("Edited Atlas"));
    // A new base_url: the pages link under its path, which answers by the reload; search
    // results follow with the index of that rebuild.
    edit(
        &dir.path().join("portal.toml"),
        "https://example.github.io/atlas/",
        "https://example.github.io/chart/",
    );
    let (name, generation) = next_event(&reloads);
    assert_eq!(name, "reload");
    let home = get(&a, "/chart/");
    assert_eq!(home.status, 200);
    assert!(home.text().contains(r#"href="/chart/static/style.css""#));
    assert_eq!(get(&a, "/chart/static/style.css").status, 200);
    assert_eq!(get(&a, "/atlas/static/style.css").status, 404);
    searchable(&reloads, &generation);
    let v: serde_json::Value =
        serde_json::from_str(&get(&a, "/api/search?q=Widget&limit=1").text()).unwrap();
    assert_eq!(
        v["results"][0]["url"],
        "/chart/kinds/widgets.example.io/Widget/"
    );
    // A broken projects.toml: an error naming the file; the last good site stays.
    edit(
        &dir.path().join("portal.toml"),
        "title = \"Edited Atlas\"",
        "title = \"Edited Atlas",
    );
    let (name, data) = next_event(&reloads);
    assert_eq!(name, "build-error");
    assert!(
        data.contains("portal.toml"),
        "the error names the file: {data}"
    );
    assert!(get(&a, "/chart/").text().contains("Edited Atlas"));
}

#[test]
fn no_request_reads_outside_the_output_folder() {
    let dir = site();
    let secret = "TOP-SECRET-OUTSIDE-THE-SITE";
    std::fs::write(dir.path().join("secret.txt"), secret).unwrap();
    let server = serve(dir.path());
    let a = server.address.clone();
    // A symbolic link inside the served folder pointing out of it.
    std::os::unix::fs::symlink(
        dir.path().join("secret.txt"),
        dir.path().join("site/leak.txt"),
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.path(), dir.path().join("site/up")).unwrap();
    let attempts = [
        "/../secret.txt",
        "/atlas/../secret.txt",
        "/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/atlas/%2e%2e%2fsecret.txt",
        "/%2E%2E/%2E%2E/etc/passwd",
        "//etc/passwd",
        &format!("/%2F{}", dir.path().join("secret.txt").display()),
        "/..\\secret.txt",
        "/%5c..%5csecret.txt",
        "/secret.txt%00.html",
        "/leak.txt",
        "/atlas/leak.txt",
        "/up/secret.txt",
        "/atlas/up/secret.txt",
    ];
    for path in attempts {
        let reply = get(&a, path);
        assert!(
            reply.status == 400 || reply.status == 404,
            "{path}: status {}",
            reply.status
        );
        assert!(!reply.text().contains(secret), "{path} leaked the file");
        assert!(!reply.text().contains("root:"), "{path} leaked /etc/passwd");
    }
    // The 404 page is the site's own, with status 404.
    let missing = get(&a, "/atlas/no/such/page/");
    assert_eq!(missing.status, 404);
    assert!(missing.text().contains("<html"));
}

#[test]
fn files_have_types_validators_and_both_roots() {
    let dir = site();
    let server = serve(dir.path());
    let a = server.address.clone();
    for (path, kind) in [
        ("/atlas/", "text/html; charset=utf-8"),
        ("/", "text/html; charset=utf-8"),
        ("/atlas/static/style.css", "text/css; charset=utf-8"),
        ("/static/style.css", "text/css; charset=utf-8"),
        ("/atlas/sitemap.xml", "application/xml"),
        ("/atlas/data/portal.json", "application/json"),
    ] {
        let reply = get(&a, path);
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply.headers.contains(&format!("content-type: {kind}")),
            "{path}: {}",
            reply.headers
        );
    }
    // Folders without their slash are redirected to it, under the prefix and at the root.
    let r = get(&a, "/atlas/projects/widget-operator");
    assert_eq!(r.status, 301);
    assert!(
        r.headers
            .contains("location: /atlas/projects/widget-operator/")
    );
    let r = get(&a, "/atlas");
    assert_eq!(r.status, 301);
    assert!(r.headers.contains("location: /atlas/"));
    // ETag and Last-Modified answer 304.
    let first = get(&a, "/atlas/static/style.css");
    let etag = first
        .headers
        .lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .unwrap()
        .to_string();
    let again = request(
        &a,
        "GET",
        "/atlas/static/style.css",
        &format!("If-None-Match: {etag}\r\n"),
    );
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    // Header names were lowercased for matching; the date is sent back as the server wrote it.
    let modified = first
        .raw_headers
        .lines()
        .find_map(|l| l.strip_prefix("last-modified: "))
        .unwrap()
        .to_string();
    let since = request(
        &a,
        "GET",
        "/atlas/static/style.css",
        &format!("If-Modified-Since: {modified}\r\n"),
    );
    assert_eq!(since.status, 304);
    // HEAD: the headers of GET, no body.
    let head = request(&a, "HEAD", "/atlas/static/style.css", "");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert!(
        head.headers
            .contains(&format!("content-length: {}", first.body.len()))
    );
    assert_eq!(request(&a, "POST", "/atlas/", "").status, 405);
    drop(server);
}

#[test]
fn api_search_answers_from_the_current_index() {
    let dir = site();
    let server = serve(dir.path());
    let a = server.address.clone();
    let r = get(&a, "/api/search?q=Widget&limit=3");
    assert_eq!(r.status, 200);
    assert!(
        r.headers.contains("content-type: application/json"),
        "{}",
        r.headers
    );
    let v: serde_json::Value = serde_json::from_str(&r.text()).unwrap();
    assert_eq!(
        v["results"][0]["url"],
        "/atlas/kinds/widgets.example.io/Widget/"
    );
    assert_eq!(v["results"].as_array().unwrap().len(), 3);
    assert!(v["total"].as_u64().unwrap() > 3);
    // Bad queries answer with notes, never an error.
    let r = get(&a, "/api/search?q=kind%3A");
    assert_eq!(r.status, 200);
    let v: serde_json::Value = serde_json::from_str(&r.text()).unwrap();
    assert!(v["notes"][0].as_str().unwrap().contains("needs a value"));
    // Served pages name the API for search.js; the written files do not.
    assert!(get(&a, "/atlas/").text().contains("PORTOLAN_SEARCH_API"));
    let written = std::fs::read_to_string(dir.path().join("site/index.html")).unwrap();
    assert!(!written.contains("PORTOLAN_SEARCH_API"));
}

/// A small portal in a temporary folder: projects.toml naming one `path =` project `w`
/// with a README (shown on /projects/w/) and a doc page in a subfolder.
fn small_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("portal.toml"),
        "[site]\ntitle = \"Small Portal\"\n\n[[project]]\nname = \"w\"\npath = \"w\"\ndocs = [\"docs\"]\n",
    )
    .unwrap();
    let w = dir.path().join("w");
    std::fs::create_dir_all(w.join("docs")).unwrap();
    std::fs::write(w.join("README.md"), "# W\n\nFirst words.\n").unwrap();
    std::fs::write(w.join("docs/guide.md"), "# Guide\n\nGuide words.\n").unwrap();
    std::fs::write(w.join("main.go"), "package main\n\nfunc main() {}\n").unwrap();
    dir
}

/// The page of `small_site`'s doc in a subfolder.
const GUIDE: &str = "/projects/w/docs/docs/guide/";

/// Waits for `reload` events until the page at `path` shows `text` (a failed rebuild on
/// the way is fine: a folder may be missing for a moment).
fn until_shown(rx: &mpsc::Receiver<(String, String)>, address: &str, path: &str, text: &str) {
    loop {
        let (name, _) = next_event(rx);
        if name == "reload" && get(address, path).text().contains(text) {
            return;
        }
    }
}

#[test]
fn a_project_folder_renamed_or_removed_and_back_is_watched_again() {
    let dir = small_site();
    let server = serve(dir.path());
    let a = server.address.clone();
    let reloads = events(&a);
    let (w, away) = (dir.path().join("w"), dir.path().join("w.bak"));

    // Renamed away (the project is missing: an error), edited there, renamed back: the
    // rebuild sees the files as they are.
    std::fs::rename(&w, &away).unwrap();
    assert_eq!(next_event(&reloads).0, "build-error");
    edit(&away.join("README.md"), "First words.", "Away.");
    std::fs::rename(&away, &w).unwrap();
    until_shown(&reloads, &a, "/projects/w/", "Away.");
    // Later edits, at the top and in a subfolder, are seen (they were not, until a restart).
    edit(&w.join("README.md"), "Away.", "Back home.");
    until_shown(&reloads, &a, "/projects/w/", "Back home.");
    edit(&w.join("docs/guide.md"), "Guide words.", "Guide moved.");
    until_shown(&reloads, &a, GUIDE, "Guide moved.");

    // Removed and at once copied back (with a change).
    let keep = tempfile::tempdir().unwrap();
    common::copy_dir(&w, keep.path());
    edit(&keep.path().join("README.md"), "Back home.", "Copied back.");
    std::fs::remove_dir_all(&w).unwrap();
    common::copy_dir(keep.path(), &w);
    until_shown(&reloads, &a, "/projects/w/", "Copied back.");
    edit(&w.join("docs/guide.md"), "Guide moved.", "Guide copied.");
    until_shown(&reloads, &a, GUIDE, "Guide copied.");
}

#[test]
fn projects_toml_removed_and_written_again_is_read_again() {
    let dir = small_site();
    // The default way to run it: in the site's folder, with a relative projects file.
    let mut command = common::portolan();
    command
        .current_dir(dir.path())
        .args(["serve", "--port", "0", "--config", "portal.toml"]);
    let server = common::serve_with(command);
    let a = server.address.clone();
    let reloads = events(&a);
    let config = dir.path().join("portal.toml");
    let text = std::fs::read_to_string(&config).unwrap();

    std::fs::remove_file(&config).unwrap();
    let (name, data) = next_event(&reloads);
    assert_eq!(name, "build-error");
    assert!(data.contains("portal.toml"), "{data}");
    // Written again after a pause, as a person would: the server has long finished the
    // failed rebuild and whatever it does after one.
    std::thread::sleep(Duration::from_secs(1));
    std::fs::write(&config, text.replace("Small Portal", "Written Again")).unwrap();
    until_shown(&reloads, &a, "/", "Written Again");
    edit(&config, "Written Again", "Edited Again");
    until_shown(&reloads, &a, "/", "Edited Again");
    // The project is still watched as well.
    edit(&dir.path().join("w/README.md"), "First words.", "Watched.");
    until_shown(&reloads, &a, "/projects/w/", "Watched.");
}

#[test]
fn links_to_folders_outside_a_project_are_not_watched() {
    let dir = small_site();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("elsewhere.go"), "package elsewhere\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("w/link")).unwrap();
    let server = serve(dir.path());

    std::fs::write(
        outside.path().join("elsewhere.go"),
        "package elsewhere\n\nconst Edited = 1\n",
    )
    .unwrap();
    // Time for the watcher to report it on its own, were it watched (it debounces for
    // 100 ms); reported together with the edit below, it would fail the test all the same.
    std::thread::sleep(Duration::from_secs(2));
    std::fs::write(
        dir.path().join("w/main.go"),
        "package main\n\nfunc main() { _ = 1 }\n",
    )
    .unwrap();
    // The first change the server reports is the edit inside the project.
    let line = server.wait_for_line("portolan: changed: ");
    assert!(line.contains("main.go"), "{line}");
    assert!(!line.contains("elsewhere.go"), "{line}");
    server.wait_for_line("portolan: rebuild 1: ");
}

#[test]
fn idle_and_slow_connections_are_closed_and_event_streams_stay_open() {
    let dir = small_site();
    let server = serve(dir.path());
    let a = server.address.clone();
    let reloads = events(&a);
    let started = std::time::Instant::now();

    let silent = TcpStream::connect(&a).unwrap();
    let mut partial = TcpStream::connect(&a).unwrap();
    write!(partial, "GET / HTT").unwrap();
    let mut kept = TcpStream::connect(&a).unwrap();
    write!(kept, "GET /static/style.css HTTP/1.1\r\nHost: {a}\r\n\r\n").unwrap();
    // A request head sent a byte at a time, never finished (until the server closes).
    let trickle = TcpStream::connect(&a).unwrap();
    let mut writer = trickle.try_clone().unwrap();
    let head = format!("GET / HTTP/1.1\r\nHost: {a}\r\nX-Slow: ");
    std::thread::spawn(move || {
        for byte in head.bytes().chain(std::iter::repeat(b'a')).take(200) {
            if writer.write_all(&[byte]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    });
    let streams = [
        ("silent", silent),
        ("partial", partial),
        ("kept", kept),
        ("trickle", trickle),
    ];
    for (what, mut stream) in streams {
        // Generous: the server's limit is 10 s.
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut got = Vec::new();
        let end = stream.read_to_end(&mut got);
        assert!(
            end.is_ok()
                || end
                    .as_ref()
                    .is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionReset),
            "the {what} connection was not closed: {end:?}"
        );
        if what == "kept" {
            assert!(
                got.starts_with(b"HTTP/1.1 200"),
                "{}",
                String::from_utf8_lossy(&got)
            );
        }
    }
    // The event stream, open for longer than the server lets a connection idle (10 s),
    // still works.
    if let Some(left) = Duration::from_secs(11).checked_sub(started.elapsed()) {
        std::thread::sleep(left);
    }
    edit(
        &dir.path().join("w/README.md"),
        "First words.",
        "After idling.",
    );
    until_shown(&reloads, &a, "/projects/w/", "After idling.");
}

/// A cold `serve` starts from the analysis cache a build left, and still sees an edit of a
/// project it loaded from there (that project is analyzed in full once).
#[test]
fn a_cold_serve_uses_the_analysis_cache_and_still_sees_edits() {
    let dir = small_site();
    let config = dir.path().join("portal.toml");
    let built = common::run(
        common::portolan()
            .args(["build", "-q", "--config"])
            .arg(&config),
    );
    assert!(built.status.success());
    let server = common::serve_config(&config, None);
    assert!(
        server
            .startup
            .iter()
            .any(|l| l.starts_with("portolan: built the site: no project analyzed")),
        "{:?}",
        server.startup
    );
    let reloads = events(&server.address);
    std::fs::write(
        dir.path().join("w/main.go"),
        "package main\n\nimport \"os\"\n\nfunc main() { _ = os.Getenv(\"SMALL_SERVE_VAR\") }\n",
    )
    .unwrap();
    until_shown(&reloads, &server.address, "/projects/w/", "SMALL_SERVE_VAR");
}

/// A GET of `path` naming `host` in its `Host` header (or none), as a browser that a
/// rebound DNS name led here would send it.
fn get_as(address: &str, path: &str, host: Option<&str>) -> Reply {
    request_as(address, host, "GET", path, "")
}

#[test]
fn only_requests_for_this_machine_are_answered() {
    // Before: any Host was answered, so a page whose own name was rebound to 127.0.0.1
    // could read the preview.
    let dir = site();
    let server = serve(dir.path());
    let a = server.address.clone();
    let port = a.rsplit(':').next().unwrap();
    for path in ["/atlas/", "/api/search?q=widget", "/atlas/search/"] {
        for host in [
            "evil.example",
            &format!("evil.example:{port}"),
            "localhost.evil.example",
        ] {
            let reply = get_as(&a, path, Some(host));
            assert_eq!(reply.status, 421, "{host} {path}");
            assert!(!reply.text().contains("<html"), "{host} {path}");
        }
    }
    for host in [
        a.clone(),
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
    ] {
        assert_eq!(get_as(&a, "/atlas/", Some(&host)).status, 200, "{host}");
    }
}
