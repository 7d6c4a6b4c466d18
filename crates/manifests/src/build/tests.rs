use super::*;

fn rows(path: &str, text: &str) -> (Vec<String>, Vec<String>) {
    let f = analyze(path, text);
    (
        f.names
            .iter()
            .map(|n| {
                format!(
                    "{} <- {:?} @{}:{}",
                    n.name, n.dir, n.source.file, n.source.line
                )
            })
            .collect(),
        f.diagnostics
            .iter()
            .map(|d| format!("{}:{} {}", d.file, d.line, d.message))
            .collect(),
    )
}

#[test]
fn build_file_kinds_from_names() {
    assert_eq!(BuildKind::of("Dockerfile"), Some(BuildKind::Dockerfile));
    assert_eq!(BuildKind::of("api.Dockerfile"), Some(BuildKind::Dockerfile));
    assert_eq!(
        BuildKind::of("Dockerfile.agent"),
        Some(BuildKind::Dockerfile)
    );
    assert_eq!(BuildKind::of("Makefile"), Some(BuildKind::Makefile));
    assert_eq!(BuildKind::of("tools.mk"), Some(BuildKind::Makefile));
    assert_eq!(
        BuildKind::of(".goreleaser.yaml"),
        Some(BuildKind::GoReleaser)
    );
    assert_eq!(
        BuildKind::of(".goreleaser.yml"),
        Some(BuildKind::GoReleaser)
    );
    assert_eq!(BuildKind::of("Dockerfiles"), None);
    assert_eq!(BuildKind::of("goreleaser.yaml"), None);
}

#[test]
fn dockerfile_run_lines_with_continuations() {
    let (names, diags) = rows(
        "Dockerfile",
        "FROM golang:1.22 AS builder\nWORKDIR /workspace\nCOPY . .\nRUN CGO_ENABLED=0 GOOS=linux \\\n    go build -a -ldflags \"-s -w\" -o bin/manager ./cmd/main.go\nRUN go mod download && go build -o /out/agent ./cmd/agent\nrun go build -o=/out/probe -tags netgo ./tools/probe\nRUN go build -o /out/$NAME ./cmd/x\nRUN go build ./cmd/plain\nRUN go build -o all ./cmd/a ./cmd/b\n# RUN go build -o nope ./cmd/nope\nRUN GOOS=${TARGETOS:-linux} go build -a -o web cmd/web/main.go\nRUN go build -o api example.com/app/cmd/api\nRUN go build -o bad /abs/cmd\n",
    );
    assert_eq!(
        names,
        vec![
            "manager <- \"cmd\" @Dockerfile:4",
            "agent <- \"cmd/agent\" @Dockerfile:6",
            "probe <- \"tools/probe\" @Dockerfile:7",
            "web <- \"cmd/web\" @Dockerfile:12",
            "api <- \"example.com/app/cmd/api\" @Dockerfile:13",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "Dockerfile:8 cannot read the binary this `go build` makes: `/out/$NAME` uses a variable portolan cannot resolve; the binary keeps its folder name",
            "Dockerfile:10 cannot read the binary this `go build` makes: it builds more than one package; the binary keeps its folder name",
            "Dockerfile:14 cannot read the binary this `go build` makes: `/abs/cmd` is not a path inside the repository; the binary keeps its folder name",
        ]
    );
}

#[test]
fn dockerfile_arg_and_env_defaults_resolve() {
    let (names, diags) = rows(
        "build/api.Dockerfile",
        "ARG CMD=manager\nENV OUT /bin\nRUN go build -o ${OUT}/app ./cmd/${CMD}\nARG CMD\nRUN go build -o app2 ./cmd/${CMD}\nRUN go build -o $OUT/tool ./cmd/${TOOL:-tool}\n",
    );
    assert_eq!(
        names,
        vec![
            "app <- \"cmd/manager\" @build/api.Dockerfile:3",
            "tool <- \"cmd/tool\" @build/api.Dockerfile:6",
        ]
    );
    assert_eq!(
        diags,
        vec![
            "build/api.Dockerfile:5 cannot read the binary this `go build` makes: `./cmd/${CMD}` uses a variable portolan cannot resolve; the binary keeps its folder name"
        ]
    );
}

#[test]
fn makefile_recipes_resolve_simple_variables_of_the_same_file() {
    let (names, diags) = rows(
        "tools/Makefile",
        "BIN ?= bin\nNAME := ctl\nPKG = ./cmd/ctl\nLDFLAGS += -X main.v=1\nGO ?= go\n\nbuild:\n\t$(GO) build -o $(BIN)/$(NAME) $(PKG)\n\nserver:\n\tgo build \\\n\t\t-o ${BIN}/server \\\n\t\t./cmd/server\n\nother:\n\tgo build -o $(OUT)/thing ./cmd/thing\n\tgo build -o bin/up ../cmd/up\n",
    );
    assert_eq!(
        names,
        vec![
            "ctl <- \"tools/cmd/ctl\" @tools/Makefile:8",
            "server <- \"tools/cmd/server\" @tools/Makefile:11",
            "thing <- \"tools/cmd/thing\" @tools/Makefile:16",
            "up <- \"cmd/up\" @tools/Makefile:17",
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
    let (names, diags) = rows("Makefile", "x:\n\tgo build -o $(OUT) ./cmd/thing\n");
    assert!(names.is_empty());
    assert_eq!(
        diags,
        vec![
            "Makefile:2 cannot read the binary this `go build` makes: `$(OUT)` uses a variable portolan cannot resolve; the binary keeps its folder name"
        ]
    );
}

#[test]
fn goreleaser_builds_with_binary_and_main() {
    let (names, diags) = rows(
        ".goreleaser.yaml",
        "project_name: demo\nbuilds:\n  - id: ctl\n    binary: democtl\n    main: ./cmd/ctl\n    goos: [linux]\n  - id: srv\n    main: cmd/server/main.go\n    binary: \"demo-server\"\n  - id: root\n    binary: demo\n  - id: tmpl\n    binary: \"{{ .ProjectName }}\"\narchives:\n  - id: x\n    binary: nope\n",
    );
    assert_eq!(
        names,
        vec![
            "democtl <- \"cmd/ctl\" @.goreleaser.yaml:4",
            "demo-server <- \"cmd/server\" @.goreleaser.yaml:9",
            "demo <- \"\" @.goreleaser.yaml:11",
        ]
    );
    assert_eq!(
        diags,
        vec![
            ".goreleaser.yaml:13 cannot read the binary this build makes: `{{ .ProjectName }}` is a template; the binary keeps its folder name"
        ]
    );
}

#[test]
fn binaries_take_the_name_their_build_gives_the_package() {
    let bin = |name: &str, main: &str| Binary {
        name: name.to_string(),
        package: format!("example.com/app/{name}"),
        flags: Vec::new(),
        env: Vec::new(),
        area: Default::default(),
        sources: vec![SourceRef::new(main, 10)],
        name_from: Vec::new(),
        commands: Vec::new(),
    };
    let mut binaries = vec![bin("cmd", "cmd/main.go"), bin("agent", "cmd/agent/main.go")];
    let mut names = analyze("Makefile", "a:\n\tgo build -o bin/mgr ./cmd\n").names;
    names.extend(analyze("Dockerfile", "RUN go build -o manager ./cmd/main.go\n").names);
    let mut diags = Vec::new();
    name_binaries(&mut binaries, &names, &mut diags);
    assert_eq!(binaries[0].name, "manager");
    assert_eq!(binaries[0].name_from, vec![SourceRef::new("Dockerfile", 1)]);
    assert_eq!(binaries[1].name, "agent");
    assert!(binaries[1].name_from.is_empty());
    assert_eq!(
        diags.iter().map(|d| d.message.as_str()).collect::<Vec<_>>(),
        vec![
            "this build names the binary of `cmd` `mgr`, but Dockerfile:1 names it `manager`; the page uses `manager`"
        ]
    );
}
