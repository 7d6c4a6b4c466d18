use super::*;

#[test]
fn default_excludes() {
    for p in [
        ".gomod-cache/x/y.go",
        "a/.gopath-loader/b.go",
        "vendor/k8s.io/x.go",
        "pkg/third_party/x.go",
        "web/node_modules/x.yaml",
        "pkg/testdata/x.yaml",
        "pkg/x_test.go",
        ".github/workflows/ci.yaml",
    ] {
        assert!(excluded_by_default(p), "{p}");
    }
    for p in [
        "main.go",
        "config/crd/x.yaml",
        "pkg/vendorx/a.go",
        "test/e2e/x.go",
        "api/x.pb.go",
        "api/x.pb.gw.go",
    ] {
        assert!(!excluded_by_default(p), "{p}");
    }
}

#[test]
fn areas() {
    assert_eq!(classify("test/e2e/suite.go"), Area::Samples);
    assert_eq!(classify("config/samples/x.yaml"), Area::Samples);
    assert_eq!(classify("docs/samples/x.yaml"), Area::Samples);
    assert_eq!(classify("hack/tools.go"), Area::Samples);
    assert_eq!(classify("pkg/controller/test.go"), Area::Component);
    assert_eq!(classify("cmd/main.go"), Area::Component);
    assert_eq!(classify("deploy/e2e-infra/services.yaml"), Area::Samples);
    assert_eq!(classify("hack/test_e2e/run.go"), Area::Samples);
    assert_eq!(
        classify("deploy/environments/dev/kind/x.yaml"),
        Area::Samples
    );
    assert_eq!(
        classify("config/overlays/dev/kustomization.yaml"),
        Area::Samples
    );
    // A `dev` package of the code, or a word merely containing "e2e", is the product's.
    assert_eq!(classify("pkg/dev/tools.go"), Area::Component);
    assert_eq!(classify("pkg/e2ee/crypto.go"), Area::Component);
    assert_eq!(classify("deploy/environments/prod/x.yaml"), Area::Component);
}

#[test]
fn project_globs() {
    let f = Filter::new(&[], &["install/**".to_string()]).unwrap();
    assert!(!f.selects("install/v0.1/x.yaml"));
    assert!(f.selects("config/x.yaml"));
    let f = Filter::new(&["pkg/**".to_string()], &[]).unwrap();
    assert!(f.selects("pkg/a.go"));
    assert!(!f.selects("cmd/a.go"));
}

#[cfg(unix)]
#[test]
fn pipes_are_listed_and_refused_when_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.go"), "package a\n").unwrap();
    let fifo = dir.path().join("x.go");
    let made = std::process::Command::new("mkfifo")
        .env("HOME", dir.path())
        .arg(&fifo)
        .status();
    assert!(made.unwrap().success());
    std::os::unix::fs::symlink(&fifo, dir.path().join("y.go")).unwrap();
    let (files, _) = walk(dir.path(), &Filter::new(&[], &[]).unwrap());
    let reads: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let got = match read(f) {
                Read::Text(t) => t,
                Read::Failed(e) => e,
                _ => "other".into(),
            };
            (f.path.clone(), got)
        })
        .collect();
    let pipe = "not a regular file but a named pipe (FIFO), skipped".to_string();
    assert_eq!(
        reads,
        [
            ("a.go".into(), "package a\n".into()),
            ("x.go".into(), pipe.clone()),
            ("y.go".into(), pipe),
        ]
    );
}
