use super::*;

#[test]
fn places() {
    assert_eq!(
        place("controller/src/main.rs"),
        Place {
            crate_dir: "controller".into(),
            binary: Some(String::new())
        }
    );
    assert_eq!(
        place("src/bin/crdgen.rs"),
        Place {
            crate_dir: String::new(),
            binary: Some("crdgen".into())
        }
    );
    assert_eq!(
        place("examples/pod_watcher.rs"),
        Place {
            crate_dir: String::new(),
            binary: Some("pod_watcher".into())
        }
    );
    assert_eq!(
        place("op/src/tests/more.rs"),
        Place {
            crate_dir: "op".into(),
            binary: None
        }
    );
    assert_eq!(
        place("op/tests/common/mod.rs"),
        Place {
            crate_dir: "op".into(),
            binary: None
        }
    );
    assert_eq!(
        place("api/src/lib.rs"),
        Place {
            crate_dir: "api".into(),
            binary: None
        }
    );
}
