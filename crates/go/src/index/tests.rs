use super::*;
use crate::file::extract;

#[test]
fn module_line() {
    assert_eq!(
        module_path("// c\nmodule github.com/a/b\n\ngo 1.22\n").as_deref(),
        Some("github.com/a/b")
    );
    assert_eq!(module_path("modulex foo\n"), None);
}

#[test]
fn import_paths_use_the_nearest_module() {
    let modules = vec![
        GoModule {
            dir: String::new(),
            path: "example.com/root".into(),
            controller_runtime: None,
        },
        GoModule {
            dir: "tools".into(),
            path: "example.com/tools".into(),
            controller_runtime: None,
        },
    ];
    assert_eq!(
        import_path_of("api/v1", &modules).as_deref(),
        Some("example.com/root/api/v1")
    );
    assert_eq!(
        import_path_of("", &modules).as_deref(),
        Some("example.com/root")
    );
    assert_eq!(
        import_path_of("tools/gen", &modules).as_deref(),
        Some("example.com/tools/gen")
    );
    assert_eq!(
        import_path_of("toolsx", &modules).as_deref(),
        Some("example.com/root/toolsx")
    );
    assert_eq!(import_path_of("x", &[]), None);
}

fn input(path: &str, src: &str) -> GoInput {
    GoInput {
        facts: extract(path, src),
        area: Area::Component,
    }
}

#[test]
fn dot_imported_api_types_resolve() {
    let files = vec![input(
        "c/a.go",
        "package c\nimport . \"k8s.io/api/core/v1\"\nimport _ \"example.com/blank\"\n",
    )];
    let modules = vec![GoModule {
        dir: String::new(),
        path: "example.com/m".into(),
        controller_runtime: None,
    }];
    let groups = BTreeMap::new();
    let mut diags = Vec::new();
    let index = GoIndex::build(&files, &modules, &groups, &mut diags);
    let pod = ObjectRef::Type {
        qualifier: None,
        name: "Pod".into(),
    };
    let k = index.resolve_object(&files[0].facts, &pod, 3, &mut diags);
    assert_eq!(
        (k.group.as_str(), k.version.as_str(), k.kind.as_str()),
        ("", "v1", "Pod")
    );
    assert!(diags.is_empty());
}

#[test]
fn constants_resolve_across_files_and_packages_and_cycles_stop() {
    let files = vec![
        input(
            "api/paths.go",
            "package api\nconst Prefix = \"/v1\"\nconst Loop = Loop2\nconst Loop2 = Loop\n",
        ),
        input(
            "proxy/a.go",
            "package proxy\nimport \"example.com/m/api\"\nconst Chat = api.Prefix + Suffix\n",
        ),
        input(
            "proxy/b.go",
            "package proxy\nvar Suffix = \"/chat/completions\"\n",
        ),
        input(
            "api/v1/gv.go",
            "package v1\nconst GroupName = \"example.io\"\nvar GroupVersion = schema.GroupVersion{Group: GroupName, Version: \"v1\"}\n",
        ),
    ];
    let modules = vec![GoModule {
        dir: String::new(),
        path: "example.com/m".into(),
        controller_runtime: None,
    }];
    let groups = BTreeMap::new();
    let mut diags = Vec::new();
    let index = GoIndex::build(&files, &modules, &groups, &mut diags);
    assert!(diags.is_empty(), "{diags:?}");
    let chat = ConstExpr::Ref {
        qualifier: None,
        name: "Chat".into(),
    };
    assert_eq!(
        index.eval(&files[2].facts, &chat).as_deref(),
        Some("/v1/chat/completions")
    );
    let looped = ConstExpr::Ref {
        qualifier: None,
        name: "Loop".into(),
    };
    assert_eq!(index.eval(&files[0].facts, &looped), None);
    assert_eq!(
        index.group_version("example.com/m/api/v1"),
        Some(("example.io".into(), "v1".into()))
    );
    assert_eq!(
        index.group_version("k8s.io/api/apps/v1"),
        Some(("apps".into(), "v1".into()))
    );
    assert_eq!(index.group_version("example.com/m/api"), None);
}

fn one_package(src: &str) -> (Vec<GoInput>, Vec<GoModule>) {
    let files = vec![input("p/a.go", src)];
    let modules = vec![GoModule {
        dir: String::new(),
        path: "example.com/m".into(),
        controller_runtime: None,
    }];
    (files, modules)
}

fn name(n: &str) -> ConstExpr {
    ConstExpr::Ref {
        qualifier: None,
        name: n.into(),
    }
}

#[test]
fn a_constant_bomb_stops_at_the_length_cap_with_a_diagnostic() {
    // 4^15 bytes if evaluated: a gigabyte.
    let mut src = String::from("package p\n");
    for i in 0..15 {
        src.push_str(&format!(
            "const A{i} = A{n} + A{n} + A{n} + A{n}\n",
            n = i + 1
        ));
    }
    src.push_str("const A15 = \"x\"\n");
    let (files, modules) = one_package(&src);
    let groups = BTreeMap::new();
    let mut diags = Vec::new();
    let index = GoIndex::build(&files, &modules, &groups, &mut diags);
    assert_eq!(index.eval(&files[0].facts, &name("A0")), None);
    // A7 is 4^8 = 64 KiB exactly: still a value.
    assert_eq!(
        index.eval(&files[0].facts, &name("A7")).map(|v| v.len()),
        Some(MAX_CONST_LEN)
    );
    let diags = index.take_const_diagnostics();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!((diags[0].file.as_str(), diags[0].line), ("p/a.go", 8));
    assert!(
        diags[0]
            .message
            .starts_with("string constant A6 is longer than 64 KiB")
    );
}

#[test]
fn remembered_constants_keep_the_reference_depth_limit() {
    // C0 → C1 → … → C40 = "v": C40 is 41 references from a use of C0 and 6 from a
    // use of C35, whatever was evaluated first (C9 is the first within 32).
    let mut src = String::from("package p\n");
    for i in 0..40 {
        src.push_str(&format!("const C{i} = C{}\n", i + 1));
    }
    src.push_str("const C40 = \"v\"\n");
    let (files, modules) = one_package(&src);
    let groups = BTreeMap::new();
    let index = GoIndex::build(&files, &modules, &groups, &mut Vec::new());
    let f = &files[0].facts;
    assert_eq!(index.eval(f, &name("C35")).as_deref(), Some("v"));
    assert_eq!(index.eval(f, &name("C0")), None);
    assert_eq!(index.eval(f, &name("C9")).as_deref(), Some("v"));
    assert_eq!(index.eval(f, &name("C8")), None);
    assert!(index.take_const_diagnostics().is_empty());
}

#[test]
fn evaluation_work_is_bounded_per_project() {
    // A 64 KiB constant used far more often than the budget allows.
    let mut src = String::from("package p\n");
    for i in 0..16 {
        src.push_str(&format!("const B{i} = B{n} + B{n}\n", n = i + 1));
    }
    src.push_str("const B16 = \"x\"\n");
    let (files, modules) = one_package(&src);
    let groups = BTreeMap::new();
    let index = GoIndex::build(&files, &modules, &groups, &mut Vec::new());
    let f = &files[0].facts;
    let uses = (MAX_CONST_WORK as usize / MAX_CONST_LEN) + 10;
    let values = (0..uses)
        .filter(|_| index.eval(f, &name("B0")).is_some())
        .count();
    assert!(values < uses && values > uses - 20, "{values} of {uses}");
    let diags = index.take_const_diagnostics();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0]
            .message
            .starts_with("string constant evaluation stopped here")
    );
}
