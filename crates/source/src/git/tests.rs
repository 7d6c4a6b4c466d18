use super::*;

/// The `HOME` of every git the tests start: a fresh temporary folder, made once.
pub(super) fn home() -> &'static Path {
    static HOME: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    HOME.get_or_init(|| tempfile::tempdir().expect("a temporary HOME"))
        .path()
}

/// A repository with one commit, as a file:// URL.
fn upstream(dir: &Path) -> String {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("README.md"), "# r\n").unwrap();
    let who = ["-c", "user.name=t", "-c", "user.email=t@example.com"];
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "-A"],
        &[who.as_slice(), &["commit", "-q", "-m", "one"]].concat(),
    ] {
        git(Some(dir), args, &[], true).unwrap();
    }
    format!("file://{}", dir.display())
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn filter_drivers_are_listed_and_one_that_cannot_be_switched_off_refuses_the_export() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("r");
    upstream(&repo);
    assert_eq!(filter_drivers(&repo).unwrap(), Vec::<String>::new());
    git(
        Some(&repo),
        &["config", "filter.lfs.smudge", "x"],
        &[],
        true,
    )
    .unwrap();
    git(
        Some(&repo),
        &["config", "filter.a.b.process", "x"],
        &[],
        true,
    )
    .unwrap();
    assert_eq!(
        filter_drivers(&repo).unwrap(),
        vec!["a.b".to_string(), "lfs".to_string()]
    );
    git(
        Some(&repo),
        &["config", "filter.x=y.smudge", "x"],
        &[],
        true,
    )
    .unwrap();
    let commit = git(Some(&repo), &["rev-parse", "HEAD"], &[], true).unwrap();
    let dest = dir.path().join("out");
    std::fs::create_dir(&dest).unwrap();
    let e = export(&repo, &commit, &dest, true).unwrap_err();
    assert!(
        matches!(&e, Error::FilterDriver { name } if name == "x=y"),
        "{e}"
    );
    assert!(e.to_string().contains("cannot switch off (`x=y`)"), "{e}");
    assert!(names(&dest).is_empty());
}

#[test]
fn a_clone_is_replaced_only_when_portolan_made_it_of_another_url() {
    let tmp = tempfile::tempdir().unwrap();
    let a = upstream(&tmp.path().join("a"));
    let b = upstream(&tmp.path().join("b"));
    let repos = tmp.path().join("repos");
    let dir = repos.join("p");
    assert_eq!(cached(&dir, &a), Cache::Missing);
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(cached(&dir, &a), Cache::Missing, "an empty folder");

    clone(&a, &dir, &repos, false).unwrap();
    assert_eq!(cached(&dir, &a), Cache::Same);
    assert_eq!(cached(&dir, &b), Cache::Other(a.clone()));
    clone(&b, &dir, &repos, true).unwrap();
    assert_eq!(cached(&dir, &b), Cache::Same);
    assert_eq!(
        names(&repos),
        ["p"],
        "the old clone and the temporary folder are gone"
    );

    // A clone without portolan's record (an older portolan's) is used when its origin
    // matches, and never replaced when it does not.
    std::fs::remove_file(dir.join(".git").join(ORIGIN_FILE)).unwrap();
    assert_eq!(cached(&dir, &b), Cache::Same);
    assert!(matches!(cached(&dir, &a), Cache::Foreign(why) if why.contains("did not record")));

    // A folder with someone's files is never portolan's.
    let other = repos.join("q");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    assert_eq!(
        cached(&other, &a),
        Cache::Foreign("it is not a git clone".into())
    );
    assert!(clone(&a, &other, &repos, false).is_err());
    assert_eq!(
        std::fs::read_to_string(other.join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn operands_are_never_read_as_options() {
    let tmp = tempfile::tempdir().unwrap();
    let a = upstream(&tmp.path().join("a"));
    let repos = tmp.path().join("repos");
    let dir = repos.join("p");
    clone(&a, &dir, &repos, false).unwrap();
    let marker = tmp.path().join("PWNED");
    let upload_pack = format!("--upload-pack=touch {};false", marker.display());
    let fetched = git(
        Some(&dir),
        &["fetch", "--quiet"],
        &["origin", &upload_pack],
        false,
    );
    assert!(fetched.is_err());
    assert!(!marker.exists(), "the upload-pack option ran");
    assert!(commit_of(&dir, "--end-of-options", true).is_err());
    assert!(commit_of(&dir, "main", true).is_ok());
}

#[test]
fn only_the_configured_protocols_are_allowed() {
    let cmd = command(None, false);
    let allowed = cmd
        .get_envs()
        .find(|(k, _)| *k == "GIT_ALLOW_PROTOCOL")
        .and_then(|(_, v)| v);
    assert_eq!(allowed, Some("https:http:ssh:git:file".as_ref()));
}
