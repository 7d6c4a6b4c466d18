use super::*;

fn protected() -> Vec<Protected> {
    let p = |what: &str, path: &str| Protected {
        what: what.into(),
        path: path.into(),
    };
    vec![
        p("the root folder", "/"),
        p("your home folder ($HOME)", "/home/u"),
        p("the folder of projects.toml", "/home/u/portal"),
        p("project `a`'s folder", "/home/u/repos/a"),
        p("the content folder", "/home/u/portal/content"),
        p("the theme folder", "/home/u/portal/themes/dark"),
        p("the cache folder (cache_dir)", "/home/u/portal/.portolan"),
    ]
}

#[test]
fn the_policy_table() {
    use Found::*;
    // (output, what is there, None if allowed else a part of the reason)
    let table: &[(&str, Found, Option<&str>)] = &[
        ("/home/u/portal/site", Absent, None),
        ("/home/u/portal/site", EmptyFolder, None),
        ("/home/u/portal/site", Site, None),
        ("/srv/www/atlas", Site, None),
        ("/home/u/site", Absent, None),
        ("/home/u/repos/a/site", Absent, None),
        ("/home/u/portal/content/site", Absent, None),
        (
            "/home/u/portal/site",
            Folder,
            Some("a folder that portolan did not write"),
        ),
        ("/home/u/portal/report.pdf", File, Some("it is a file")),
        (
            "/home/u/portal/fifo",
            Other("a FIFO".into()),
            Some("it is a FIFO"),
        ),
        // Protected folders, whatever the marker says.
        ("/", Site, Some("it is the root folder")),
        ("/home/u", Site, Some("it is your home folder ($HOME)")),
        ("/home", EmptyFolder, Some("it contains your home folder")),
        (
            "/home/u/portal",
            Site,
            Some("it is the folder of projects.toml"),
        ),
        ("/home/u/repos/a", Site, Some("it is project `a`'s folder")),
        (
            "/home/u/repos",
            Absent,
            Some("it contains project `a`'s folder (/home/u/repos/a)"),
        ),
        (
            "/home/u/portal/content",
            Site,
            Some("it is the content folder"),
        ),
        (
            "/home/u/portal/themes",
            Site,
            Some("it contains the theme folder"),
        ),
        (
            "/home/u/portal/themes/dark",
            Site,
            Some("it is the theme folder"),
        ),
        (
            "/home/u/portal/.portolan",
            EmptyFolder,
            Some("it is the cache folder"),
        ),
    ];
    let protected = protected();
    for (out, found, expected) in table {
        let result = decide(Path::new(out), Path::new(out), found, &protected);
        match (expected, result) {
            (None, Ok(())) => {}
            (Some(part), Err(refusal)) => {
                let text = refusal.to_string();
                assert!(text.contains(part), "{out} {found:?}: {text}");
                assert!(text.starts_with(&format!("refusing to write the site to {out}: ")));
                assert!(text.contains("\n  help: "), "{text}");
            }
            (expected, result) => {
                panic!("{out} {found:?}: expected {expected:?}, got {result:?}")
            }
        }
    }
}

#[test]
fn the_message_names_the_path_as_given() {
    let refusal = decide(
        Path::new("../portal"),
        Path::new("/home/u/portal"),
        &Found::Site,
        &protected(),
    )
    .unwrap_err();
    assert_eq!(refusal.path, PathBuf::from("../portal"));
}
