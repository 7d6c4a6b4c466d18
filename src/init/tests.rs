use super::*;

#[test]
fn urls_and_folders_become_projects_with_unique_slugs() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("My_Operator");
    std::fs::create_dir(&repo).unwrap();
    let sources = vec![
        "https://github.com/example/widget-operator.git".to_string(),
        "git@example.com:team/widget-operator".to_string(),
        repo.to_str().unwrap().to_string(),
    ];
    let s = starter(&sources, dir.path()).unwrap();
    let config = config::parse(&dir.path().join("projects.toml"), &s.projects_toml).unwrap();
    let names: Vec<&str> = config.projects.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        ["widget-operator", "widget-operator-2", "my_operator"]
    );
    assert_eq!(
        config.projects[0].source,
        config::SourceSpec::Git {
            url: "https://github.com/example/widget-operator.git".into(),
            rev: None
        }
    );
    assert!(s.projects_toml.contains("path = \"My_Operator\"\n"));
    assert!(
        s.index_md
            .contains("- [widget-operator](/projects/widget-operator/)\n")
    );
}

#[test]
fn no_source_writes_one_example_project() {
    let s = starter(&[], Path::new(".")).unwrap();
    let config = config::parse(Path::new("projects.toml"), &s.projects_toml).unwrap();
    assert_eq!(config.projects.len(), 1);
    assert_eq!(config.projects[0].name, "llama-stack-k8s-operator");
}

#[test]
fn bad_sources_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let e = starter(&["https://x/--upload-pack=y".into()], dir.path())
        .unwrap_err()
        .to_string();
    assert!(e.contains("is not a usable git URL"), "{e}");
    let e = starter(&["no/such/folder".into()], dir.path())
        .unwrap_err()
        .to_string();
    assert!(e.contains("neither a git URL"), "{e}");
}

#[test]
fn a_folder_beside_the_config_folder_is_written_relative() {
    let dir = tempfile::tempdir().unwrap();
    let portal = dir.path().join("portal");
    let repo = dir.path().join("checkout");
    std::fs::create_dir(&portal).unwrap();
    std::fs::create_dir(&repo).unwrap();
    let s = starter(&[repo.to_str().unwrap().into()], &portal).unwrap();
    assert!(
        s.projects_toml.contains("path = \"../checkout\"\n"),
        "{}",
        s.projects_toml
    );
}

#[test]
fn existing_files_are_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let config_file = dir.path().join("projects.toml");
    let s = starter(&[], dir.path()).unwrap();
    std::fs::create_dir(dir.path().join("content")).unwrap();
    std::fs::write(dir.path().join("content").join("index.md"), "mine").unwrap();
    let e = write(&config_file, &s).unwrap_err().to_string();
    assert!(e.contains("already exists"), "{e}");
    // Neither file was written: the check comes before any write.
    assert!(!config_file.exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("content").join("index.md")).unwrap(),
        "mine"
    );
    std::fs::remove_file(dir.path().join("content").join("index.md")).unwrap();
    let written = write(&config_file, &s).unwrap();
    assert_eq!(written.len(), 2);
    assert_eq!(
        std::fs::read_to_string(&config_file).unwrap(),
        s.projects_toml
    );
    let e = write(&config_file, &s).unwrap_err().to_string();
    assert!(e.contains("already exists"), "{e}");
}

#[test]
fn slugs_are_names_config_accepts() {
    assert_eq!(slug(".Hidden Repo!"), "hidden-repo");
    assert_eq!(slug("***"), "project");
    assert_eq!(slug("kserve"), "kserve");
}
