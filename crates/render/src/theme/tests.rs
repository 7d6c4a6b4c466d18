use super::*;

#[test]
fn backtick_pairs_become_code_and_stray_ones_stay() {
    assert_eq!(
        breakable_html("`&opt` is handed to `override`"),
        "<code>&amp;opt</code> is handed to <code>override</code>"
    );
    assert_eq!(breakable_html("a ` b"), "a ` b");
    assert_eq!(breakable_html("``x"), "``x");
    assert_eq!(breakable_html("`a\nb` c"), "`a\nb` c");
    assert_eq!(breakable_html("`<b>`"), "<code>&lt;b&gt;</code>");
}

#[test]
fn breakable_escapes_then_breaks_after_slashes() {
    assert_eq!(
        breakable_html("pkg/a<b>/c&d.go:12"),
        "pkg/<wbr>a&lt;b&gt;/<wbr>c&amp;d.go:12"
    );
    assert_eq!(breakable_html("one\nper line"), "one\nper line");
}

#[test]
fn template_text_is_set_apart_from_names() {
    assert_eq!(
        breakable_html("{{ include \"x.name\" . }}-leader/<b>"),
        "<code class=\"template\" title=\"Template text, not rendered\">{{ include &quot;x.name&quot; . }}</code>-leader/<wbr>&lt;b&gt;"
    );
    // An action left open runs to the end, still escaped.
    assert_eq!(
        breakable_html("a {{ <x>"),
        "a <code class=\"template\" title=\"Template text, not rendered\">{{ &lt;x&gt;</code>"
    );
}

#[test]
fn templates_use_breakable_without_escaping_twice() {
    let mut tera = tera::Tera::new();
    tera.register_filter("breakable", breakable);
    tera.add_raw_template("t", "<td>{{ path | breakable }}</td>")
        .unwrap();
    let mut context = tera::Context::new();
    context.insert("path", "a/<script>/b");
    assert_eq!(
        tera.render("t", &context).unwrap(),
        "<td>a/<wbr>&lt;script&gt;/<wbr>b</td>"
    );
}
