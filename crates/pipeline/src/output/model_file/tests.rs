use super::*;

#[test]
fn replaces_only_a_model_and_never_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let model = "{\n  \"schema_version\": 1,\n  \"name\": \"p\"\n}\n";
    let new = dir.path().join("new.json");
    write(&new, model).unwrap();
    assert_eq!(std::fs::read_to_string(&new).unwrap(), model);
    // A model written before is replaced.
    write(&new, "{\"schema_version\":1,\"name\":\"q\"}").unwrap();
    assert!(std::fs::read_to_string(&new).unwrap().contains("\"q\""));
    // A user's file is not.
    let go_mod = dir.path().join("go.mod");
    std::fs::write(&go_mod, "module x\n").unwrap();
    let e = write(&go_mod, model).unwrap_err();
    assert!(e.reason.contains("not a model portolan wrote"), "{e}");
    assert_eq!(std::fs::read_to_string(&go_mod).unwrap(), "module x\n");
    // Nor a link, even to a model.
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&new, &link).unwrap();
    assert!(
        write(&link, model)
            .unwrap_err()
            .reason
            .contains("symbolic link")
    );
    assert!(std::fs::read_to_string(&new).unwrap().contains("\"q\""));
    // Nor a folder.
    assert!(
        write(dir.path(), model)
            .unwrap_err()
            .reason
            .contains("a folder")
    );
}
