use super::*;

fn decls(src: &str) -> Vec<DocDecl> {
    super::super::file::extract("api/v1/types.go", src).doc_decls
}

#[test]
fn struct_tags_are_read_as_reflect_reads_them() {
    let tag = r#"json:"name,omitempty" yaml:"other" protobuf:"bytes,1,opt,name=name""#;
    assert_eq!(tag_value(tag, "json").as_deref(), Some("name,omitempty"));
    assert_eq!(tag_value(tag, "yaml").as_deref(), Some("other"));
    assert_eq!(
        tag_value(tag, "protobuf").as_deref(),
        Some("bytes,1,opt,name=name")
    );
    assert_eq!(tag_value(tag, "xml"), None);
    assert_eq!(tag_value(r#"json:"a\"b""#, "json").as_deref(), Some("a\"b"));
    assert!(is_directive(
        "//nolint:kubeapilinter // the json tag is kept"
    ));
    assert!(is_directive("//go:generate controller-gen"));
    assert!(is_directive("//line a.go:1"));
    assert!(!is_directive("// nolint:x is prose here"));
    assert!(!is_directive("//TODO: later"));
    assert!(!is_directive("/* block */"));
    // Malformed tags yield nothing rather than a wrong name.
    assert_eq!(tag_value(r#"json:name"#, "json"), None);
    assert_eq!(tag_value(r#"json:"unterminated"#, "json"), None);
    assert_eq!(tag_value("", "json"), None);
}

#[test]
fn doc_comments_drop_markers_todo_lines_and_what_follows_three_dashes() {
    let found = decls(
        r#"package v1

// Ignored: a comment separated from the type by a blank line.

// Pump moves water.
// TODO: make it faster.
//
// It has two speeds.
// +kubebuilder:validation:XValidation:rule="self.speed <= 2"
// --- internal notes
// not part of the doc
type Pump struct {
	// Speed is how fast it runs.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Required
	Speed int32 `json:"speed,omitempty"`
	Label string // a trailing comment is not a doc comment
	// Hidden is not serialized.
	Hidden string `json:"-"`
	private string
	/* Volume is written as a block comment. */
	Volume, Flow int64
	Inner `json:",inline"`
	Named `json:"named"`
	Promoted
}
"#,
    );
    let pump = found.iter().find(|d| d.name == "Pump").expect("Pump");
    assert_eq!(pump.doc, "Pump moves water.\n\nIt has two speeds.");
    assert_eq!(
        pump.markers,
        vec![r#"XValidation:rule="self.speed <= 2""#.to_string()]
    );
    let fields = pump.fields.as_ref().expect("a struct");
    let rows: Vec<(&str, bool, &str, Vec<&str>)> = fields
        .iter()
        .map(|f| {
            (
                f.json.as_str(),
                f.inline,
                f.doc.as_str(),
                f.markers.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "speed",
                false,
                "Speed is how fast it runs.",
                vec!["Minimum=1"]
            ),
            ("Label", false, "", vec![]),
            (
                "Volume",
                false,
                "Volume is written as a block comment.",
                vec![]
            ),
            (
                "Flow",
                false,
                "Volume is written as a block comment.",
                vec![]
            ),
            ("", true, "", vec![]),
            ("named", false, "", vec![]),
            ("", true, "", vec![]),
        ]
    );
}

#[test]
fn shapes_keep_collections_and_drop_pointers() {
    let found = decls(
        r#"package v1

type Shapes struct {
	A []byte          `json:"a"`
	B map[string][]*pkg.T `json:"b"`
	C *Local          `json:"c"`
	D [][]string      `json:"d"`
	E Generic[int]    `json:"e"`
	F interface{}     `json:"f"`
}

type Hosts []Host
"#,
    );
    let shapes = found[0].fields.as_ref().expect("a struct");
    let shape_of = |i: usize| &shapes[i].shape;
    assert_eq!(shape_of(0).name, "");
    assert!(shape_of(0).wrappers.is_empty());
    assert_eq!(shape_of(1).qualifier.as_deref(), Some("pkg"));
    assert_eq!(shape_of(1).name, "T");
    assert_eq!(shape_of(1).wrappers, vec![Wrap::Map, Wrap::Slice]);
    assert_eq!(shape_of(2).name, "Local");
    assert_eq!(shape_of(3).name, "string");
    assert_eq!(shape_of(3).wrappers, vec![Wrap::Slice, Wrap::Slice]);
    assert_eq!(shape_of(4).name, "Generic");
    assert_eq!(shape_of(5).name, "");
    let hosts = found.iter().find(|d| d.name == "Hosts").expect("Hosts");
    assert!(hosts.fields.is_none());
    let under = hosts.underlying.as_ref().expect("a defined type");
    assert_eq!(
        (under.name.as_str(), &under.wrappers),
        ("Host", &vec![Wrap::Slice])
    );
}
