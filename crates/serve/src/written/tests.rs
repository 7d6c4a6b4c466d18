use super::*;

fn file(path: &str, text: &str) -> OutputFile {
    OutputFile {
        path: path.into(),
        bytes: text.as_bytes().to_vec(),
    }
}

#[test]
fn writes_changed_files_and_removes_gone_ones_with_their_empty_folders() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Written::already(dir.path(), &[]);
    let first = [file("a.html", "a"), file("search/v-1/x.json", "x")];
    assert_eq!(w.replace(&first).unwrap(), (2, 0));
    // Same bytes: nothing written.
    assert_eq!(w.replace(&first).unwrap(), (0, 0));
    let second = [file("a.html", "A"), file("search/v-2/x.json", "x")];
    assert_eq!(w.replace(&second).unwrap(), (2, 1));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.html")).unwrap(),
        "A"
    );
    assert!(!dir.path().join("search/v-1").exists());
    // Paused before the first file, then resumed: the same result.
    let third = [file("a.html", "b"), file("search/v-3/x.json", "x")];
    assert_eq!(w.replace_unless(&third, &|| true).unwrap(), None);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.html")).unwrap(),
        "A"
    );
    assert_eq!(w.replace(&third).unwrap(), (2, 1));
    assert!(!dir.path().join("search/v-2").exists());
    // Paused after one file: the new version's file first, the page not yet replaced;
    // resumed, only the rest is written.
    let fourth = [file("a.html", "c"), file("search/v-4/x.json", "x")];
    let asked = std::cell::Cell::new(0);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() > 1
    };
    assert_eq!(w.replace_unless(&fourth, &stop).unwrap(), None);
    assert!(dir.path().join("search/v-4/x.json").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.html")).unwrap(),
        "b"
    );
    assert_eq!(w.replace(&fourth).unwrap(), (1, 1));
    assert!(!dir.path().join("search/v-3").exists());
    assert!(dir.path().join("search/v-4/x.json").exists());
}
