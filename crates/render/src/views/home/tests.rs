use super::*;

#[test]
fn shared_kinds_name_who_defines_them_outside_the_portal() {
    let entry = |group: &str, defined_by: &[&str], outside: Option<&str>| model::KindEntry {
        group: group.into(),
        kind: "K".into(),
        defined_by: defined_by.iter().map(|p| p.to_string()).collect(),
        defined_outside: outside.map(str::to_string),
        watched_by: ["a", "b"]
            .iter()
            .map(|p| model::KindWatcher {
                project: p.to_string(),
                controller: "c".into(),
                relation: model::Relation::Watches,
                package: String::new(),
                sources: Vec::new(),
            })
            .collect(),
        ..serde_json::from_str(r#"{"group":"","kind":"","defined_by":[],"watched_by":[]}"#)
            .expect("a minimal kind entry")
    };
    let portal = model::Portal {
        kinds: vec![
            entry("", &[], Some("Kubernetes")),
            entry("example.io", &["a"], None),
        ],
        ..serde_json::from_str(r#"{"schema_version":1,"title":"t","projects":[],"kinds":[]}"#)
            .expect("a minimal portal")
    };
    let home = home(&portal, "/");
    let cells: Vec<(&str, bool)> = home
        .shared_kinds
        .iter()
        .map(|k| (k.defined_by.as_str(), k.outside))
        .collect();
    assert_eq!(cells, [("Kubernetes", true), ("a", false)]);
}
