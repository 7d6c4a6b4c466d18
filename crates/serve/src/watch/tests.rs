use super::*;

fn roots() -> Roots {
    Roots {
        config_file: "/s/projects.toml".into(),
        content: "/s/content".into(),
        theme: "/s/themes/mine".into(),
        projects: vec![
            ("op".into(), "/r/op".into()),
            // A project that is the site's own folder.
            ("self".into(), "/s".into()),
        ],
        ignored: vec!["/s/.portolan".into(), "/s/site".into()],
    }
}

#[test]
fn paths_are_classified_by_place() {
    use Change::*;
    let self_ = || Project("self".into());
    let cases: Vec<(&str, Vec<Change>)> = vec![
        ("/s/projects.toml", vec![Config, self_()]),
        ("/s/content/a.md", vec![Content, self_()]),
        ("/s/themes/mine/templates/base.html", vec![Theme, self_()]),
        ("/s/themes/other/templates/base.html", vec![self_()]),
        ("/r/op/controllers/x.go", vec![Project("op".into())]),
        ("/r/op/config/crd/a.yaml", vec![Project("op".into())]),
        ("/r/op/.git/index", vec![]),
        ("/r/op/target/debug/x", vec![]),
        ("/s/site/index.html", vec![]),
        ("/s/.portolan/analysis/op.json", vec![]),
        ("/r/op/controllers/.x.go.swp", vec![]),
        ("/r/op/controllers/x.go~", vec![]),
        ("/r/op/controllers/4913", vec![]),
        ("/s/content/#a.md#", vec![]),
        ("/s/content/.#a.md", vec![]),
        ("/elsewhere/x.go", vec![]),
    ];
    for (path, expected) in cases {
        assert_eq!(classify(Path::new(path), &roots()), expected, "{path}");
    }
}

#[test]
fn watched_folders_themselves_are_rearmed() {
    let mut batch = Batch::default();
    for path in [
        "/r/op/x.go",
        "/r/op",
        "/s/content",
        "/s/projects.toml",
        "/r/other",
    ] {
        batch.add(Path::new(path), &roots());
    }
    let rearm: Vec<&str> = batch.rearm.iter().filter_map(|p| p.to_str()).collect();
    assert_eq!(rearm, ["/r/op", "/s/content"]);
    assert!(batch.changes.contains(&Change::Project("op".into())));
    assert!(!batch.paths.contains(Path::new("/r/other")));
}

#[test]
fn each_folder_is_also_watched_through_its_parent() {
    let parents: Vec<String> = roots()
        .parents()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    assert_eq!(parents, ["/", "/r", "/s", "/s/themes"]);
}

#[cfg(unix)]
#[test]
fn a_missing_place_keeps_the_form_it_has_when_present() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir_all(real.join("w")).unwrap();
    std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
    let present = resolved(&dir.path().join("link/w"));
    assert_eq!(present, std::fs::canonicalize(real.join("w")).unwrap());
    std::fs::rename(real.join("w"), real.join("w.bak")).unwrap();
    assert_eq!(resolved(&dir.path().join("link/w")), present);
}
