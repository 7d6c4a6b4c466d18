use super::*;

fn rows(deps: &[Dependency]) -> Vec<String> {
    // ` [kind]`, ` (target)`, ` => replacement`, ` path=…` when set.
    let part = |v: &str, before: &str, after: &str| match v {
        "" => String::new(),
        v => format!("{before}{v}{after}"),
    };
    deps.iter()
        .map(|d| {
            format!(
                "{}:{} {} {}{}{}{}{}{}",
                d.source.file,
                d.source.line,
                d.module,
                d.version,
                part(&d.kind, " [", "]"),
                part(&d.target, " (", ")"),
                if d.indirect { " indirect" } else { "" },
                part(&d.replaced_by, " => ", ""),
                part(&d.path, " path=", ""),
            )
        })
        .collect()
}

#[test]
fn go_mod_requires_replaces_and_toolchain() {
    let text = "module example.com/op // the operator\n\ngo 1.23.0\n\ntoolchain go1.23.4\n\nrequire sigs.k8s.io/controller-runtime v0.19.1\n\nrequire (\n\tk8s.io/api v0.31.2\n\tk8s.io/client-go v0.31.2 // indirect\n\t\"github.com/quoted/mod\" v1.0.0\n\tbroken\n)\n\nreplace k8s.io/api => ../api\n\nreplace (\n\tk8s.io/client-go v0.31.2 => example.com/fork/client-go v0.31.3\n\tk8s.io/client-go => ../never-preferred\n)\n";
    let m = go_mod("go.mod", text);
    let f = m.file.clone().unwrap();
    assert_eq!((f.module.as_str(), f.source.line), ("example.com/op", 1));
    assert_eq!(
        (f.go.as_str(), f.toolchain.as_str()),
        ("1.23.0", "go1.23.4")
    );
    assert_eq!(f.replaces.len(), 3);
    assert_eq!(
        rows(&m.dependencies),
        [
            "go.mod:7 sigs.k8s.io/controller-runtime v0.19.1",
            "go.mod:10 k8s.io/api v0.31.2 => ../api",
            "go.mod:11 k8s.io/client-go v0.31.2 indirect => example.com/fork/client-go v0.31.3",
            "go.mod:12 github.com/quoted/mod v1.0.0",
        ]
    );
    assert_eq!(m.diagnostics.len(), 1);
    assert_eq!(m.diagnostics[0].line, 13);
}

#[test]
fn cargo_tables_and_workspace_inheritance() {
    let root = "[workspace]\nmembers = [\"op\"]\n\n[workspace.dependencies]\nkube = { version = \"0.98\", features = [\"runtime\"] }\nk8s-openapi = \"0.24\"\n";
    let member = "[package]\nname = \"op\"\n\n[dependencies]\nkube = { workspace = true, features = [\"derive\"] }\nk8s-openapi.workspace = true\nserde = \"1\"\nlocal = { path = \"../local\" }\nrenamed = { package = \"real-name\", git = \"https://example.com/x\", tag = \"v1\" }\nmissing = { workspace = true }\n\n[dev-dependencies]\ntokio = \"1\"\n\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n\n[build-dependencies]\ncc = \"1\"\n";
    let mut diags = Vec::new();
    let (files, deps) = assemble(
        vec![
            (cargo("Cargo.toml", root), Area::Component),
            (cargo("op/Cargo.toml", member), Area::Component),
        ],
        &mut diags,
    );
    assert_eq!(files.len(), 2);
    assert_eq!((files[1].module.as_str(), files[1].source.line), ("op", 1));
    assert_eq!(
        rows(&deps),
        [
            "Cargo.toml:5 kube 0.98 [workspace]",
            "Cargo.toml:6 k8s-openapi 0.24 [workspace]",
            "op/Cargo.toml:5 kube 0.98",
            "op/Cargo.toml:6 k8s-openapi 0.24",
            "op/Cargo.toml:7 serde 1",
            "op/Cargo.toml:8 local  path=../local",
            "op/Cargo.toml:9 real-name ",
            "op/Cargo.toml:10 missing ",
            "op/Cargo.toml:13 tokio 1 [dev]",
            "op/Cargo.toml:16 libc 0.2 (cfg(unix))",
            "op/Cargo.toml:19 cc 1 [build]",
        ]
    );
    assert_eq!(deps[2].features, ["runtime", "derive"]);
    assert_eq!(deps[2].workspace, Some(SourceRef::new("Cargo.toml", 5)));
    assert_eq!(deps[6].git, "https://example.com/x#tag=v1");
    assert_eq!(diags.len(), 1);
    assert_eq!(
        (diags[0].file.as_str(), diags[0].line),
        ("op/Cargo.toml", 10)
    );
}

#[test]
fn bad_cargo_toml_is_a_diagnostic() {
    let m = cargo("Cargo.toml", "[package\nname=");
    assert!(m.file.is_none());
    assert_eq!(m.diagnostics.len(), 1);
}
