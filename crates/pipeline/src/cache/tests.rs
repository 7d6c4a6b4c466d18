use super::*;

#[test]
fn fields_never_run_together() {
    let a = {
        let mut h = KeyHasher::new("t");
        h.field(b"ab").field(b"c");
        h.finish()
    };
    let b = {
        let mut h = KeyHasher::new("t");
        h.field(b"a").field(b"bc");
        h.finish()
    };
    assert_ne!(a, b);
}

#[test]
fn projects_round_trip_and_old_entries_go() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::on_disk(dir.path());
    let project = Project {
        name: "p".into(),
        ..Project::default()
    };
    let k1 = hash_bytes(b"1");
    let k2 = hash_bytes(b"2");
    cache.store("p", &k1, &project);
    assert_eq!(cache.load("p", &k1).map(|p| p.name), Some("p".into()));
    assert!(cache.load("p", &k2).is_none());
    cache.store("p", &k2, &project);
    assert!(cache.load("p", &k1).is_none(), "the older entry is removed");
    assert!(cache.load("p", &k2).is_some());
    assert!(cache.load("../x", &k2).is_none());
}

#[test]
fn a_stamp_notices_a_changed_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("index.html"), "a").unwrap();
    let cache = Cache::on_disk(&dir.path().join("cache"));
    let key = hash_bytes(b"site");
    assert!(!cache.output_is_current(&out, &key));
    cache.stamp_output(&out, &key, &["index.html"]);
    assert!(cache.output_is_current(&out, &key));
    assert!(!cache.output_is_current(&out, &hash_bytes(b"other")));
    std::fs::write(out.join("index.html"), "bb").unwrap();
    assert!(!cache.output_is_current(&out, &key));
}
