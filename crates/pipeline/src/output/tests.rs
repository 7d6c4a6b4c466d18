use super::*;

fn f(p: &str, b: &str) -> OutputFile {
    OutputFile {
        path: p.into(),
        bytes: b.as_bytes().to_vec(),
    }
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn replaces_the_whole_folder_and_marks_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let guard = Guard::default();
    write_site(&out, &[f("a/index.html", "1"), f("stale.txt", "x")], &guard).unwrap();
    write_site(&out, &[f("a/index.html", "2")], &guard).unwrap();
    assert_eq!(
        std::fs::read_to_string(out.join("a/index.html")).unwrap(),
        "2"
    );
    assert!(!out.join("stale.txt").exists());
    assert_eq!(
        std::fs::read_to_string(out.join(MARKER)).unwrap(),
        MARKER_TEXT
    );
    assert_eq!(names(dir.path()), ["site"]);
}

#[test]
fn staging_names_are_exactly_ours() {
    for (name, ours) in [
        (".site.new-a1B2c3", true),
        (".site.new-a1B2c", false),
        (".site.new-a1B2c34", false),
        (".site.new-a1B2c!", false),
        (".site.notes", false),
        (".sites.new-a1B2c3", false),
        (".site.old-a1B2c3", false),
    ] {
        assert_eq!(staging_suffix(name, ".site.new-"), ours, "{name}");
    }
}

#[test]
fn leftovers_are_removed_only_when_provably_ours() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let mkdir = |p: &str| std::fs::create_dir_all(dir.path().join(p)).unwrap();
    let write = |p: &str, text: &str| std::fs::write(dir.path().join(p), text).unwrap();
    mkdir("site");
    write("site/.portolan-site", MARKER_TEXT);
    // Ours: removed.
    mkdir(".site.new-aaaaaa");
    write(".site.new-aaaaaa/.portolan-site", MARKER_TEXT);
    write(".site.new-aaaaaa/index.html", "half");
    mkdir(".site.new-bbbbbb");
    mkdir(".site.old-cccccc/site/x");
    write(".site.old-cccccc/site/.portolan-site", MARKER_TEXT);
    mkdir(".site.old-dddddd");
    // Not provably ours: kept.
    mkdir(".site.new-eeeeee");
    write(".site.new-eeeeee/notes.txt", "mine");
    mkdir(".site.old-ffffff/site");
    write(".site.old-ffffff/site/notes.txt", "mine");
    mkdir(".site.old-gggggg/site");
    write(".site.old-gggggg/site/.portolan-site", MARKER_TEXT);
    write(".site.old-gggggg/notes.txt", "mine");
    write(".site.new-hhhhhh", "a file");
    mkdir(".site.new-iiiiiii");
    write(".site.new-iiiiiii/.portolan-site", MARKER_TEXT);
    write(".site.notes", "mine");
    mkdir(".other.new-jjjjjj");
    write(".other.new-jjjjjj/.portolan-site", MARKER_TEXT);

    prepare(&out, &Guard::default()).unwrap();
    assert_eq!(
        names(dir.path()),
        [
            ".other.new-jjjjjj",
            ".site.new-eeeeee",
            ".site.new-hhhhhh",
            ".site.new-iiiiiii",
            ".site.notes",
            ".site.old-ffffff",
            ".site.old-gggggg",
            "site",
        ]
    );
    assert!(
        dir.path()
            .join(".site.old-gggggg/site/.portolan-site")
            .exists()
    );
}

#[test]
fn a_site_moved_aside_by_a_killed_build_is_put_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let old = dir.path().join(".site.old-Ab12Cd/site");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join(MARKER), MARKER_TEXT).unwrap();
    std::fs::write(old.join("index.html"), "previous").unwrap();
    let new = dir.path().join(".site.new-Ef34Gh");
    std::fs::create_dir_all(&new).unwrap();
    std::fs::write(new.join(MARKER), MARKER_TEXT).unwrap();

    prepare(&out, &Guard::default()).unwrap();
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        "previous"
    );
    assert_eq!(names(dir.path()), ["site"]);
}

#[test]
fn a_refusal_touches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    std::fs::create_dir_all(out.join("mine")).unwrap();
    let leftover = dir.path().join(".site.new-aaaaaa");
    std::fs::create_dir_all(&leftover).unwrap();
    std::fs::write(leftover.join(MARKER), MARKER_TEXT).unwrap();
    let e = write_site(&out, &[f("index.html", "x")], &Guard::default()).unwrap_err();
    assert!(matches!(e, Error::Refused(_)), "{e}");
    assert_eq!(names(dir.path()), [".site.new-aaaaaa", "site"]);
    assert_eq!(names(&out), ["mine"]);
}
