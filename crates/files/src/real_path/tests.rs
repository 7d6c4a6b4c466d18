use super::*;

#[test]
fn existing_prefix_is_canonical_and_the_rest_normalized() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(base.join("a")).unwrap();
    std::os::unix::fs::symlink(base.join("a"), base.join("link")).unwrap();
    let cases: [(PathBuf, PathBuf); 5] = [
        (base.join("a"), base.join("a")),
        (base.join("link"), base.join("a")),
        (base.join("link/new/x"), base.join("a/new/x")),
        (base.join("a/missing/../other/./y"), base.join("a/other/y")),
        (base.join("a/.."), base.clone()),
    ];
    for (given, expected) in cases {
        assert_eq!(real_path(&given).unwrap(), expected, "{}", given.display());
    }
}

#[test]
fn parent_of_root_is_root() {
    assert_eq!(real_path(Path::new("/../..")).unwrap(), PathBuf::from("/"));
}
