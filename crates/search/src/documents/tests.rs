use super::*;

fn page(path: &str, main: &str) -> OutputFile {
    OutputFile {
        path: path.into(),
        bytes: format!(
            "<!doctype html><html><body><nav>Kinds</nav><main>\n{main}\n</main></body></html>"
        )
        .into_bytes(),
    }
}

#[test]
fn a_page_and_its_marked_rows_become_documents() {
    let html = r##"<h1>KServe: Dataflow</h1>
<p>Intro &amp; more.</p>
<h3 id="c-isvc" data-search="controller">inferenceservice <a class="permalink" href="#c-isvc">¶</a></h3>
<div class="table-wrap"><table data-search="watch">
<thead><tr><th>Relation</th><th>Kind</th><th>Source</th><th></th></tr></thead>
<tbody><tr id="w-1"><td>Owns</td><td><a href="/atlas/kinds/apps/Deployment/">apps/v1 Deployment</a></td><td><code class="src">a.go:3</code></td><td class="permalink"><a href="#w-1">¶</a></td></tr>
</tbody></table></div>
<div class="diagram-wrap"><svg><text>Not searched</text></svg></div>
<table><tbody><tr id="x"><td>Unmarked row</td></tr></tbody></table>"##;
    let docs = collect(
        &[page("projects/kserve/dataflow/index.html", html)],
        "/atlas/",
    );
    assert_eq!(docs.len(), 3);
    let controller = &docs[1];
    assert_eq!(controller.title, "inferenceservice");
    assert_eq!(controller.category, "controller");
    assert_eq!(controller.url, "projects/kserve/dataflow/#c-isvc");
    assert_eq!(controller.body, "Owns apps/v1 Deployment a.go:3");
    assert_eq!(controller.kinds, ["Deployment"]);
    let docs = [docs[0].clone(), docs[2].clone()];
    assert_eq!(docs[0].title, "KServe: Dataflow");
    assert_eq!(docs[0].category, "page");
    assert_eq!(docs[0].project, "kserve");
    assert_eq!(docs[0].url, "projects/kserve/dataflow/");
    assert!(docs[0].body.contains("Intro & more."), "{}", docs[0].body);
    assert!(docs[0].body.contains("Unmarked row"));
    assert!(!docs[0].body.contains("Not searched"));
    assert!(!docs[0].body.contains('¶'));
    let row = &docs[1];
    assert_eq!(row.title, "Owns apps/v1 Deployment");
    assert_eq!(row.category, "watch");
    assert_eq!(row.url, "projects/kserve/dataflow/#w-1");
    assert_eq!(row.page, "KServe: Dataflow");
    assert_eq!(row.context, "inferenceservice");
    // The snippet leaves out what the title says.
    assert_eq!(row.snippet, "a.go:3");
    assert_eq!(row.kinds, ["Deployment"]);
}

#[test]
fn kind_pages_are_about_their_kind_and_portal_pages_keep_no_rows() {
    let html = r#"<h1>InferencePool (x.io)</h1><table data-search="watch"><tr id="r"><td>kserve</td><td>Owns</td></tr></table>"#;
    let docs = collect(&[page("kinds/x.io/InferencePool/index.html", html)], "/");
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].category, "kind");
    assert_eq!(docs[0].kinds, ["InferencePool"]);
}

#[test]
fn page_chrome_is_left_out_of_the_text() {
    // Breadcrumbs, a sidebar and a table of contents (nested like a theme nests them),
    // an element a theme marks `data-nosearch`, and a `<main>` with attributes.
    let html = r#"<!doctype html><html><body><header>Portal header</header>
<main id="content" class="wide"><p class="crumbs"><a href="/">Home</a> / <a href="/p/">KServe</a></p>
<h1>Dataflow</h1>
<aside class="sidebar"><div><aside class="toc">On this page</aside>Sidebar link</div></aside>
<p>First words of the page.</p>
<nav aria-label="Breadcrumb"><ol><li>Crumb</li></ol></nav>
<div data-nosearch><div>Inner chrome</div><div>More chrome</div></div>
<svg viewBox="0 0 1 1"/><p>Still the page<br/>after a self-closing svg.</p>
<div class="back-to-top" data-nosearch="">Back to top</div><p>The end.</p>
</main><footer>Footer text</footer></body></html>"#;
    let docs = collect(
        &[OutputFile {
            path: "projects/kserve/dataflow/index.html".into(),
            bytes: html.as_bytes().to_vec(),
        }],
        "/",
    );
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].title, "Dataflow");
    assert_eq!(
        docs[0].body,
        "Dataflow First words of the page. Still the page after a self-closing svg. The end."
    );
    assert!(
        docs[0].snippet.starts_with("First words"),
        "{}",
        docs[0].snippet
    );
    assert!(has_attr("a data-nosearch", "data-nosearch"));
    assert!(has_attr("data-nosearch=\"\"", "data-nosearch"));
    assert!(!has_attr("data-nosearchable", "data-nosearch"));
    assert!(!has_attr("xdata-nosearch", "data-nosearch"));
}

#[test]
fn the_same_row_is_one_document() {
    // A CRD's second variant repeating a field of the first (same version, same
    // text); the same field, same text, in another version; a row whose anchor
    // repeats.
    let field = |id: &str, name: &str, ty: &str| {
        format!(
            r##"<tr id="{id}" class="d1"><td><a href="#{id}"><code>{name}</code></a><br><small>spec.{name}</small></td><td><code>{ty}</code></td><td></td><td></td></tr>"##
        )
    };
    let html = format!(
        r#"<h1>Gizmo</h1>
<h2 id="variant-1">Variant 1</h2><h3 id="v1">Version v1</h3><table data-search="crd-field">{}{}</table>
<h2 id="variant-2">Variant 2</h2><h3 id="v1-2">Version v1</h3><table data-search="crd-field">{}{}</table>
<h3 id="v2">Version v2</h3><table data-search="crd-field">{}</table>"#,
        field("field-spec-size", "size", "integer"),
        field("field-spec-size", "size", "string"),
        field("variant-2-field-spec-size", "size", "integer"),
        field("variant-2-field-spec-count", "count", "integer"),
        field("v2-field-spec-size", "size", "integer"),
    );
    let docs = collect(&[page("projects/p/api/x.io/Gizmo/index.html", &html)], "/");
    let rows: Vec<(&str, &str, &str)> = docs
        .iter()
        .skip(1)
        .map(|d| (d.url.as_str(), d.title.as_str(), d.context.as_str()))
        .collect();
    let base = "projects/p/api/x.io/Gizmo/#";
    assert_eq!(
        rows,
        [
            (
                &*format!("{base}field-spec-size"),
                "spec.size",
                "Version v1"
            ),
            (
                &*format!("{base}variant-2-field-spec-count"),
                "spec.count",
                "Version v1"
            ),
        ]
    );
    // The title is the path: the snippet starts after the name.
    assert_eq!(docs[1].snippet, "integer");
    let html = r##"<h1>Gizmo</h1><h3 id="v1">Version v1</h3><table data-search="crd-field"><tr id="field-spec-ports" class="d1"><td><code>ports[]</code> <span class="req">required</span><br><small>spec.ports[]</small></td><td><code>[]object</code></td><td></td><td>Where it listens.</td></tr></table>"##;
    let docs = collect(&[page("projects/p/api/x.io/Gizmo/index.html", html)], "/");
    assert_eq!(docs[1].title, "spec.ports[]");
    assert_eq!(docs[1].snippet, "required · []object · Where it listens.");
}

#[test]
fn categories_have_labels_people_read() {
    assert_eq!(category_label("rbac-versus-code"), "RBAC versus code");
    assert_eq!(category_label("crd-field"), "CRD fields");
    assert_eq!(category_label("kind"), "Kinds");
    assert_eq!(category_label("security-contexts"), "Security contexts");
    assert_eq!(category_label("grpc_crds"), "gRPC CRDs");
    assert_eq!(category_label("helm-value"), "Helm values");
    assert_eq!(category_label("--"), "--");
    assert_eq!(category_label("élan"), "Élan");
}

#[test]
fn broken_html_never_fails() {
    for html in [
        "<",
        "<main>",
        "<main><h1>x",
        "<main><a href=\"",
        "<main>&#xZZ; &;</main>",
        "<main><!-- </main>",
    ] {
        let _ = collect(
            &[OutputFile {
                path: "index.html".into(),
                bytes: html.as_bytes().to_vec(),
            }],
            "/",
        );
    }
    assert_eq!(
        decode("a &lt;b&gt; &#x2F; &#39; &bogus; &"),
        "a <b> / ' &bogus; &"
    );
    assert_eq!(decode("&quot;fiel…&quot; &…;"), "\"fiel…\" &…;");
    assert_eq!(cut("one two three", 7), "one…");
}
