use super::*;

fn row(key: &str, file: &str, line: u32, value: &str) -> Row {
    Row::new(
        Category::Flag,
        key.into(),
        format!("--{key}"),
        Some(&SourceRef::new(file, line)),
    )
    .field("default", value)
}

fn text(changes: &[RowChange]) -> Vec<String> {
    changes
        .iter()
        .map(|c| format!("{} {}: {}", c.change.label(), c.subject, c.detail))
        .collect()
}

#[test]
fn a_moved_line_is_no_change_a_moved_file_is() {
    let old = vec![row("a", "main.go", 10, "1"), row("b", "main.go", 20, "2")];
    let new = vec![row("a", "main.go", 40, "1"), row("b", "flags.go", 3, "2")];
    assert_eq!(
        text(&compare(old, new)),
        ["changed --b: moved: main.go → flags.go"]
    );
}

#[test]
fn added_removed_and_changed_fields() {
    let old = vec![row("a", "m.go", 1, "1"), row("gone", "m.go", 2, "")];
    let new = vec![row("a", "m.go", 1, "2"), row("new", "m.go", 3, "x")];
    assert_eq!(
        text(&compare(old, new)),
        [
            "changed --a: default: 1 → 2",
            "removed --gone: ",
            "added --new: default x"
        ]
    );
}

#[test]
fn rows_with_one_key_pair_by_file_first() {
    // The same rule in two files; the second file's copy changed.
    let old = vec![row("r", "a.yaml", 1, "get"), row("r", "b.yaml", 1, "get")];
    let new = vec![
        row("r", "b.yaml", 9, "get, list"),
        row("r", "a.yaml", 1, "get"),
    ];
    assert_eq!(
        text(&compare(old, new)),
        ["changed --r: default: get → get, list"]
    );
}
