//! Hostile inputs that once took quadratic time or space, built through the real binary.
//! Each build runs under a generous limit that only a hang or a quadratic
//! path reaches: before the fixes these inputs took from tens of seconds to many minutes
//! (BENCHMARKS.md, "Hostile inputs: quadratic paths", has the measured times). Sizes, not
//! times, are asserted; `bench/hostile_scale.py` writes the same inputs for timing.

mod common;

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Far above what the fixed builds take in a debug build on a busy machine.
const LIMIT: Duration = Duration::from_secs(60);

/// Builds `dir/projects.toml` into `dir/site`; panics when the build fails or outlives
/// `LIMIT` (the child is killed then).
fn build(dir: &Path) {
    let mut child = common::portolan()
        .arg("build")
        .arg("-q")
        .arg("--config")
        .arg(dir.join("projects.toml"))
        .arg("--out")
        .arg(dir.join("site"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = reader.join().unwrap_or_default();
    match status {
        None => panic!("the build ran past {LIMIT:?} and was stopped\n{stderr}"),
        Some(s) => assert!(s.success(), "the build failed: {s}\n{stderr}"),
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A portal of `path =` projects named as given.
fn config(dir: &Path, names: &[String]) {
    let mut toml = String::from("[site]\ntitle = \"Hostile scale\"\nbase_url = \"/\"\n");
    for name in names {
        toml.push_str(&format!(
            "\n[[project]]\nname = \"{name}\"\npath = \"{name}\"\n"
        ));
    }
    write(&dir.join("projects.toml"), &toml);
}

/// One project whose README is `readme`.
fn readme_portal(readme: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("p/README.md"), readme);
    config(dir.path(), &["p".to_string()]);
    dir
}

fn page(dir: &Path, path: &str) -> String {
    std::fs::read_to_string(dir.join("site").join(path)).unwrap()
}

#[test]
fn a_readme_of_twenty_thousand_equal_headings_builds() {
    // Before: every heading retried the ids of all earlier ones (53.5 s in a release build).
    let n = 20_000;
    let dir = readme_portal(&"# same heading\n\n".repeat(n));
    build(dir.path());
    let html = page(dir.path(), "projects/p/index.html");
    assert!(html.contains("id=\"same-heading\""));
    assert!(html.contains(&format!("id=\"same-heading-{}\"", n - 1)));
    assert!(!html.contains(&format!("id=\"same-heading-{n}\"")));
}

#[test]
fn a_readme_of_a_hundred_thousand_nested_divs_builds() {
    // Before: the sanitizer's parser walked its whole stack for every tag (73 s).
    let n = 100_000;
    let dir = readme_portal(&format!(
        "{}deep{}\n",
        "<div>".repeat(n),
        "</div>".repeat(n)
    ));
    build(dir.path());
    let html = page(dir.path(), "projects/p/index.html");
    // The nesting past the limit is shown as text; the word inside is still there.
    assert!(html.contains("&lt;div&gt;&lt;div&gt;"));
    assert!(html.contains("deep"));
}

const CONFIGMAP: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: system\ndata:\n  level: info\n";

#[test]
fn four_files_of_twenty_thousand_equal_configmaps_build_one_row() {
    // Before: every merge sorted the sources gathered so far (four such files: 216 s).
    let (files, n) = (4, 20_000);
    let dir = tempfile::tempdir().unwrap();
    let text = vec![CONFIGMAP; n].join("---\n");
    for f in 0..files {
        write(
            &dir.path().join(format!("p/config/settings-{f}.yaml")),
            &text,
        );
    }
    config(dir.path(), &["p".to_string()]);
    build(dir.path());
    let model: serde_json::Value = serde_json::from_str(&page(dir.path(), "data/p.json")).unwrap();
    let rows = model["configmaps"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "identical objects are one row");
    assert_eq!(rows[0]["sources"].as_array().unwrap().len(), files * n);
}

/// `n` tiny projects that all define and watch one shared kind, so that every pair of
/// them is connected, each with a kind of its own too.
fn connected_projects(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    for (i, name) in names.iter().enumerate() {
        let p = dir.path().join(name);
        write(&p.join("README.md"), &format!("# Project {i}\n"));
        write(
            &p.join("go.mod"),
            &format!("module example.com/p{i}\n\ngo 1.22\n"),
        );
        for (package, group, kind) in [
            ("v1", format!("g{i}.example.io"), format!("Thing{i}")),
            (
                "shared",
                "shared.example.io".to_string(),
                "Widget".to_string(),
            ),
        ] {
            let plural = format!("{}s", kind.to_lowercase());
            write(
                &p.join(format!("config/crd/{plural}.yaml")),
                &format!(
                    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.{group}\nspec:\n  group: {group}\n  names:\n    kind: {kind}\n    plural: {plural}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n"
                ),
            );
            write(
                &p.join(format!("api/{package}/types.go")),
                &format!(
                    "// +groupName={group}\npackage {package}\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\nvar GroupVersion = schema.GroupVersion{{Group: \"{group}\", Version: \"v1\"}}\n\n// +kubebuilder:object:root=true\ntype {kind} struct{{}}\n"
                ),
            );
        }
        write(
            &p.join("controller/controller.go"),
            &format!(
                "package controller\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\n\tv1 \"example.com/p{i}/api/v1\"\n\tshared \"example.com/p{i}/api/shared\"\n)\n\nfunc (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {{\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1.Thing{i}{{}}).\n\t\tOwns(&shared.Widget{{}}).\n\t\tComplete(r)\n}}\n"
            ),
        );
    }
    config(dir.path(), &names);
    dir
}

#[test]
fn two_hundred_connected_projects_build() {
    // Before: one box per pair of projects on the home page (40,000 of them, 30 MB) laid
    // out by searches over every node and edge (25.5 s in a release build).
    let dir = connected_projects(200);
    build(dir.path());
    let portal: serde_json::Value =
        serde_json::from_str(&page(dir.path(), "data/portal.json")).unwrap();
    let boxes = portal["connections"].as_array().unwrap();
    assert_eq!(boxes.len(), 1, "{boxes:?}");
    assert_eq!(boxes[0]["from"].as_array().unwrap().len(), 200);
    assert_eq!(boxes[0]["to"].as_array().unwrap().len(), 200);
}

#[test]
fn the_home_page_grows_linearly_with_the_projects() {
    let size = |n: usize| {
        let dir = connected_projects(n);
        build(dir.path());
        std::fs::metadata(dir.path().join("site/index.html"))
            .unwrap()
            .len() as f64
    };
    let (small, large) = (size(25), size(50));
    // Twice the projects, at most 2.2 times the bytes (it was about four times: a box
    // for every pair of projects).
    assert!(
        large <= 2.2 * small,
        "25 projects: {small} bytes, 50 projects: {large} bytes"
    );
}

/// One project whose one Go file sets up `n` controllers that share the name
/// `providerrevision` (as crossplane's do), each watching, reading and writing kinds.
fn same_named_controllers(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p");
    write(&p.join("go.mod"), "module example.com/p\n\ngo 1.22\n");
    let mut go = String::from(
        "package controller\n\nimport (\n\t\"context\"\n\n\tappsv1 \"k8s.io/api/apps/v1\"\n\tcorev1 \"k8s.io/api/core/v1\"\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\n// +kubebuilder:rbac:groups=\"\",resources=configmaps,verbs=get;list;watch\n",
    );
    for i in 0..n {
        go.push_str(&format!(
            "\ntype Reconciler{i} struct{{ client.Client }}\n\nfunc (r *Reconciler{i}) SetupWithManager(mgr ctrl.Manager) error {{\n\treturn ctrl.NewControllerManagedBy(mgr).Named(\"providerrevision\").For(&corev1.ConfigMap{{}}).Owns(&appsv1.Deployment{{}}).Complete(r)\n}}\n\nfunc (r *Reconciler{i}) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {{\n\tvar cm corev1.ConfigMap\n\t_ = r.Get(ctx, req.NamespacedName, &cm)\n\t_ = r.Create(ctx, &appsv1.Deployment{{}})\n\t_ = r.Delete(ctx, &corev1.Secret{{}})\n\treturn ctrl.Result{{}}, nil\n}}\n"
        ));
    }
    write(&p.join("internal/controller/controllers.go"), &go);
    config(dir.path(), &["p".to_string()]);
    dir
}

/// The bytes and files of a built site.
fn site_size(dir: &Path) -> (u64, usize) {
    let mut bytes = 0;
    let mut files = 0;
    let mut stack = vec![dir.join("site")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(e.path());
            } else {
                bytes += e.metadata().unwrap().len();
                files += 1;
            }
        }
    }
    (bytes, files)
}

#[test]
fn controllers_that_share_a_name_get_a_page_each_and_the_site_grows_linearly() {
    let built = |n: usize| {
        let dir = same_named_controllers(n);
        build(dir.path());
        let controllers = dir.path().join("site/projects/p/controllers");
        let mut pages: Vec<String> = std::fs::read_dir(&controllers)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        pages.sort();
        assert_eq!(pages.len(), n, "{pages:?}");
        assert!(pages.contains(&"providerrevision".to_string()));
        assert!(pages.contains(&format!("providerrevision-{n}")));
        // Each page lists its own controller's rules only: one access row per kind.
        let html =
            std::fs::read_to_string(controllers.join("providerrevision-2/index.html")).unwrap();
        let rows = html
            .matches("id=\"access-providerrevision-apps-deployment")
            .count();
        assert_eq!(rows, 1, "rows of Deployment on one controller's page");
        let dataflow = std::fs::metadata(dir.path().join("site/projects/p/dataflow/index.html"))
            .unwrap()
            .len() as f64;
        (site_size(dir.path()).0 as f64, dataflow, dir)
    };
    let (small, small_dataflow, _a) = built(60);
    let (large, large_dataflow, _b) = built(120);
    // Twice the controllers, at most 2.3 times the bytes (it was about four times: each
    // page listed the rules of every controller of the name, and the dataflow page's
    // diagram repeated every controller's name down its whole height).
    assert!(
        large <= 2.3 * small,
        "60 controllers: {small} bytes, 120 controllers: {large} bytes"
    );
    assert!(
        large_dataflow <= 2.3 * small_dataflow,
        "dataflow page: {small_dataflow} bytes at 60, {large_dataflow} at 120"
    );
}

#[test]
fn two_thousand_one_line_docs_make_a_site_linear_in_them() {
    // Before: every doc page listed every doc (2,000 docs: 244 MB of site).
    let built = |n: usize| {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p");
        write(&p.join("README.md"), "# P\n");
        for i in 0..n {
            write(&p.join(format!("docs/d{i:05}.md")), &format!("# Doc {i}\n"));
        }
        write(
            &dir.path().join("projects.toml"),
            "[site]\ntitle = \"Docs\"\nbase_url = \"/\"\n\n[[project]]\nname = \"p\"\npath = \"p\"\ndocs = [\"README.md\", \"docs/**/*.md\"]\n",
        );
        build(dir.path());
        let middle = page(
            dir.path(),
            &format!("projects/p/docs/docs/d{:05}/index.html", n / 2),
        );
        assert!(middle.contains(&format!("All {n} docs")), "{middle}");
        let index = page(dir.path(), "projects/p/docs/index.html");
        assert!(index.contains(&format!("d{:05}/", n - 1)));
        (site_size(dir.path()).0 as f64, dir)
    };
    let (small, _a) = built(1_000);
    let (large, _b) = built(2_000);
    assert!(
        large <= 2.3 * small,
        "1,000 docs: {small} bytes, 2,000 docs: {large} bytes"
    );
}

#[test]
fn a_dockerfile_whose_variables_double_at_each_line_is_cut_off() {
    // Before: 24 lines made a 268 MB model, 30 lines 22 GB.
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("ARG A0=abcdefgh\nENV E0=abcdefgh\n");
    for i in 1..40 {
        text.push_str(&format!("ARG A{i}=${{A{}}}${{A{}}}\n", i - 1, i - 1));
        text.push_str(&format!("ENV E{i}=$E{}$E{}\n", i - 1, i - 1));
    }
    text.push_str("FROM golang:${A39}\nENV CGO_ENABLED=${E39}\nRUN go build -o /m ./cmd/m\n");
    write(&dir.path().join("p/Dockerfile"), &text);
    write(
        &dir.path().join("p/go.mod"),
        "module example.com/p\n\ngo 1.22\n",
    );
    config(dir.path(), &["p".to_string()]);
    build(dir.path());
    let model = std::fs::metadata(dir.path().join("site/data/p.json"))
        .unwrap()
        .len();
    assert!(model < 1 << 20, "a model of {model} bytes");
    let json = page(dir.path(), "data/p.json");
    assert!(
        json.contains("characters once its variables are substituted"),
        "no diagnostic"
    );
}
