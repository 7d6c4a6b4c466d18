//! Dependencies, images and builds on the fixture portal (tests/fixtures/EXPECTED.md,
//! "Dependencies, images and builds"): the model's exact rows, the overview's notable
//! modules, the configuration page's Images and Dockerfiles sections and the platform
//! page's version matrix.

use std::path::Path;

mod common;
use common::{fixtures, run};

fn build() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let o = run(common::portolan()
        .args(["build", "-q", "--config"])
        .arg(fixtures().join("portal.toml"))
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());
    (dir, out)
}

fn model(out: &Path, project: &str) -> serde_json::Value {
    let path = out.join(format!("data/{project}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn s(v: &serde_json::Value, key: &str) -> String {
    match &v[key] {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Bool(b) => b.to_string(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn at(v: &serde_json::Value) -> String {
    format!("{}:{}", s(&v["source"], "file"), s(&v["source"], "line"))
}

fn rows(list: &serde_json::Value, f: impl Fn(&serde_json::Value) -> String) -> Vec<String> {
    list.as_array().unwrap().iter().map(f).collect()
}

/// Text of an HTML fragment with tags and `<wbr>` removed.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&quot;", "\"")
}

#[test]
fn dependencies_images_and_builds_rows() {
    let (_dir, out) = build();
    let widget = model(&out, "widget-operator");
    assert_eq!(
        rows(&widget["dependencies"], |d| format!(
            "{} {} {} indirect={} replaced={}",
            at(d),
            s(d, "module"),
            s(d, "version"),
            !s(d, "indirect").is_empty(),
            s(d, "replaced_by")
        )),
        [
            "go.mod:8 k8s.io/api v0.31.0 indirect=false replaced=",
            "go.mod:9 k8s.io/apimachinery v0.31.0 indirect=false replaced=",
            "go.mod:10 k8s.io/client-go v0.31.0 indirect=false replaced=",
            "go.mod:11 sigs.k8s.io/controller-runtime v0.19.0 indirect=false replaced=",
            "go.mod:15 github.com/go-logr/logr v1.4.2 indirect=true replaced=",
            "go.mod:16 github.com/example/widget-tools v0.1.0 indirect=true replaced=./hack/widget-tools",
            "go.mod:17 golang.org/x/net v0.30.0 indirect=true replaced=golang.org/x/net v0.33.0",
            "go.mod:20 github.com/example/gauge v1.2.0 indirect=false replaced=",
        ]
    );
    let f = &widget["module_files"][0];
    assert_eq!(
        (s(f, "module"), s(f, "go"), s(f, "toolchain"), at(f)),
        (
            "github.com/example/widget-operator".to_string(),
            "1.22.0".to_string(),
            "go1.22.5".to_string(),
            "go.mod:1".to_string()
        )
    );
    assert_eq!(f["replaces"].as_array().unwrap().len(), 2);

    let kube = model(&out, "kube-operator");
    assert_eq!(
        rows(&kube["dependencies"], |d| format!(
            "{} {} {} kind={} target={} path={} features={} workspace={}",
            at(d),
            s(d, "module"),
            s(d, "version"),
            s(d, "kind"),
            s(d, "target"),
            s(d, "path"),
            d["features"]
                .as_array()
                .map(|f| f
                    .iter()
                    .map(|x| x.as_str().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join(","))
                .unwrap_or_default(),
            if d["workspace"].is_null() {
                String::new()
            } else {
                at(&serde_json::json!({"source": d["workspace"]}))
            }
        )),
        [
            "Cargo.toml:5 kube 0.98 kind=workspace target= path= features=runtime workspace=",
            "Cargo.toml:6 k8s-openapi 0.24 kind=workspace target= path= features=v1_31 workspace=",
            "controller/Cargo.toml:7 kube 0.98 kind= target= path= features=runtime,derive workspace=Cargo.toml:5",
            "controller/Cargo.toml:8 k8s-openapi 0.24 kind= target= path= features=v1_31 workspace=Cargo.toml:6",
            "controller/Cargo.toml:9 kennel-api  kind= target= path=../api features= workspace=",
            "controller/Cargo.toml:10 serde 1 kind= target= path= features= workspace=",
            "controller/Cargo.toml:13 tokio 1 kind=dev target= path= features=macros workspace=",
            "controller/Cargo.toml:16 libc 0.2 kind= target=cfg(unix) path= features= workspace=",
        ]
    );

    assert_eq!(
        rows(&widget["images"], |i| format!(
            "{} | {}|{}|{}|{} | {} | {} | {}",
            s(i, "reference"),
            s(i, "registry"),
            s(i, "repository"),
            s(i, "tag"),
            s(i, "digest").chars().take(15).collect::<String>(),
            s(i, "origin"),
            s(i, "context"),
            rows(&i["sources"], |x| format!(
                "{}:{}",
                s(x, "file"),
                s(x, "line")
            ))
            .join(" ")
        )),
        [
            "registry.example.io/widget-operator:0.3.0 | registry.example.io|widget-operator|0.3.0| | manifest | Deployment widget-system/controller-manager, container manager | config/manager/manager.yaml:31",
            "busybox:1.36 | |busybox|1.36| | manifest | Job widget-system/cache-warmup, init container fetch | deploy/production/warmup-job.yaml:12",
            "registry.example.io/widget-warmup:0.3.0 | registry.example.io|widget-warmup|0.3.0| | manifest | Job widget-system/cache-warmup, container warm | deploy/production/warmup-job.yaml:15",
            "registry.example.io/widget-worker@sha256:89abcdef0123456789abcdef0123456789abcdef0123456789abcdef01234567 | registry.example.io|widget-worker||sha256:89abcdef | env | Job widget-system/cache-warmup, container warm, env RELATED_IMAGE_WORKER | deploy/production/warmup-job.yaml:18",
            "registry.example.io/gizmo-runner:1.0 | registry.example.io|gizmo-runner|1.0| | manifest | Gizmo widget-system/runner, container run | deploy/production/warmup-job.yaml:31",
            "ghcr.io/example/widget-warmup:v0.3.1 | ghcr.io|example/widget-warmup|v0.3.1| | kustomize | kustomization deploy/production, images: registry.example.io/widget-warmup | deploy/production/kustomization.yaml:6",
            "busybox@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef | |busybox||sha256:01234567 | kustomize | kustomization deploy/production, images: busybox | deploy/production/kustomization.yaml:9",
            "registry.example.io/widget-operator:v0.3.0 | registry.example.io|widget-operator|v0.3.0| | helm_value | chart widget, values controller.image | charts/widget/values.yaml:3 charts/widget/values.yaml:4 charts/widget/values.yaml:5",
            "example.io/widget-proxy:2.1 | example.io|widget-proxy|2.1| | helm_value | chart widget, values proxy.image | charts/widget/values.yaml:8 charts/widget/values.yaml:9",
            "busybox:1.36 | |busybox|1.36| | helm_value | chart widget, values sidecar.image | charts/widget/values.yaml:11",
        ]
    );

    let dockerfiles = &widget["dockerfiles"];
    let main = &dockerfiles[0];
    assert_eq!(s(main, "file"), "Dockerfile");
    assert_eq!(
        rows(&main["stages"], |st| format!(
            "{} {} [{}] as={} from-stage={}",
            at(st),
            s(st, "from"),
            s(st, "resolved"),
            s(st, "name"),
            s(st, "from_stage")
        )),
        [
            "Dockerfile:5 golang:${GO_VERSION} [golang:1.22] as=builder from-stage=",
            "Dockerfile:11 builder [] as=tester from-stage=builder",
            "Dockerfile:14 ${RUNTIME} [gcr.io/distroless/static:nonroot] as= from-stage=",
        ]
    );
    assert_eq!(s(&main["user"], "runs_as"), "non_root");
    assert_eq!(s(&main["user"], "evidence"), "USER 65532:65532");
    let settings = |key: &str| rows(&main[key], |x| format!("{} {}", at(x), s(x, "value")));
    assert_eq!(settings("cgo"), ["Dockerfile:7 CGO_ENABLED=0"]);
    assert_eq!(
        settings("fips"),
        [
            "Dockerfile:7 GOEXPERIMENT=boringcrypto",
            "Dockerfile:9 -tags fips"
        ]
    );
    assert_eq!(
        rows(&main["builds"], |b| format!(
            "{} {} <- {} = {}",
            at(b),
            s(b, "output"),
            s(b, "package"),
            s(b, "binary")
        )),
        ["Dockerfile:9 cmd <- cmd = cmd"]
    );
    let debug = &dockerfiles[1];
    assert_eq!(
        (
            s(debug, "file"),
            s(debug, "area"),
            s(&debug["user"], "runs_as")
        ),
        (
            "hack/debug.Dockerfile".to_string(),
            "samples".to_string(),
            "root".to_string()
        )
    );

    // Pages: the overview's notable modules, the Dockerfile row, the version matrix.
    let overview =
        std::fs::read_to_string(out.join("projects/gadget-scheduler/index.html")).unwrap();
    let overview = text(&overview);
    assert!(overview.contains("github.com/example/widget-operatorv0.3.0direct../widget-operatormodule of project widget-operator"), "{overview}");
    let configuration =
        std::fs::read_to_string(out.join("projects/widget-operator/configuration/index.html"))
            .unwrap();
    let configuration = text(&configuration);
    assert!(configuration.contains("non-root: USER 65532:65532"));
    assert!(configuration.contains("cmd ← cmd: binary cmd"));
    assert!(
        configuration
            .contains("Dockerfilehack/debug.Dockerfile · 1. alpine:3.20 · ⚠ root: USER root"),
        "{configuration}"
    );
    let platform = std::fs::read_to_string(out.join("platform/dependencies/index.html")).unwrap();
    let platform = text(&platform);
    assert!(
        platform.contains("sigs.k8s.io/controller-runtimeGodiffer (2)v0.19.0v0.19.4"),
        "{platform}"
    );
    assert!(platform.contains("k8s.io/apiGosamev0.31.0v0.31.0"));
    assert!(
        platform.contains("docker.io/library/golang1.22 (base)1.22 (base)"),
        "{platform}"
    );
    assert!(platform.contains("gcr.io/distroless/staticnonroot (base)nonroot (base)"));
    assert!(
        !platform.contains("docker.io/library/busybox"),
        "one project only"
    );
    let gadget = model(&out, "gadget-scheduler");
    let d = &gadget["dockerfiles"][0];
    assert_eq!(s(&d["user"], "runs_as"), "not_set");
    assert_eq!(
        s(&d["user"], "evidence"),
        "no USER: runs as the user of base `gcr.io/distroless/static:nonroot` (its tag `nonroot` names a non-root variant)"
    );
    assert_eq!(
        rows(&d["builds"], |b| format!(
            "{} {} <- {} = {}",
            at(b),
            s(b, "output"),
            s(b, "package"),
            s(b, "binary")
        )),
        ["Dockerfile:4 scheduler <- cmd/scheduler = "]
    );
}
