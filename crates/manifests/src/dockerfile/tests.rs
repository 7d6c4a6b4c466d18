use super::*;

const MULTI: &str = "# syntax=docker/dockerfile:1\nARG GO_VERSION=1.23\nARG BASE\nFROM --platform=$BUILDPLATFORM golang:${GO_VERSION} AS builder\nARG TARGETARCH\nENV CGO_ENABLED=0 GOEXPERIMENT=boringcrypto\nRUN GOOS=linux go build -tags \"netgo,fips\" -o /out/manager ./cmd/manager\n\nFROM builder AS tested\nRUN go test ./...\n\nFROM gcr.io/distroless/static:nonroot\nCOPY --from=builder /out/manager /manager\nUSER 65532:65532\nENTRYPOINT [\"/manager\"]\n";

#[test]
fn stages_settings_and_final_user() {
    let mut diags = Vec::new();
    let d = analyze("Dockerfile", MULTI, &mut diags);
    let stages: Vec<String> = d
        .stages
        .iter()
        .map(|s| {
            format!(
                "{} {} [{}] from-stage={} platform={} user={:?}",
                s.source.line,
                s.from,
                s.resolved,
                s.from_stage,
                s.platform,
                s.user.as_ref().map(|u| &u.value)
            )
        })
        .collect();
    assert_eq!(
        stages,
        [
            "4 golang:${GO_VERSION} [golang:1.23] from-stage= platform=$BUILDPLATFORM user=None",
            "9 builder [] from-stage=builder platform= user=None",
            "12 gcr.io/distroless/static:nonroot [] from-stage= platform= user=Some(\"65532:65532\")",
        ]
    );
    assert_eq!(d.stages[0].name, "builder");
    assert_eq!(d.user.runs_as, RunsAs::NonRoot);
    assert_eq!(d.user.evidence, "USER 65532:65532");
    assert_eq!(d.user.source, Some(SourceRef::new("Dockerfile", 14)));
    let settings = |l: &[BuildSetting]| -> Vec<String> {
        l.iter()
            .map(|s| format!("{} {}", s.source.line, s.value))
            .collect()
    };
    assert_eq!(settings(&d.cgo), ["6 CGO_ENABLED=0"]);
    assert_eq!(
        settings(&d.fips),
        ["6 GOEXPERIMENT=boringcrypto", "7 -tags netgo,fips"]
    );
    assert!(diags.is_empty());
}

#[test]
fn users_root_unset_and_inherited() {
    let user = |text: &str| {
        let u = analyze("Dockerfile", text, &mut Vec::new()).user;
        format!("{:?}: {}", u.runs_as, u.evidence)
    };
    assert_eq!(user("FROM alpine\nUSER root\n"), "Root: USER root");
    assert_eq!(user("FROM alpine\nUSER 0:0\n"), "Root: USER 0:0");
    assert_eq!(user("FROM alpine\nUSER app\n"), "NonRoot: USER app");
    assert_eq!(user("FROM alpine\nUSER $UID\n"), "Unknown: USER $UID");
    assert_eq!(
        user("ARG UID=1001\nFROM alpine\nUSER ${UID}\n"),
        "NonRoot: USER ${UID}"
    );
    assert_eq!(
        user("FROM scratch\nCOPY x /x\n"),
        "Root: no USER, base `scratch`: an image without a user runs as uid 0"
    );
    assert_eq!(
        user("FROM gcr.io/distroless/static:nonroot\n"),
        "NotSet: no USER: runs as the user of base `gcr.io/distroless/static:nonroot` (its tag `nonroot` names a non-root variant)"
    );
    assert_eq!(
        user("FROM ubi9/ubi-minimal AS base\nUSER 1001\nFROM base\nRUN true\n"),
        "NonRoot: USER 1001 (in stage `base`, which the final stage is built from)"
    );
}

#[test]
fn a_doubling_chain_of_variables_stops_at_the_cap() {
    let mut text = String::from("ARG A0=abcdefgh\n");
    for i in 1..40 {
        text.push_str(&format!("ARG A{i}=${{A{}}}${{A{}}}\n", i - 1, i - 1));
    }
    text.push_str("FROM golang:${A39}\nENV E0=x\n");
    for i in 1..40 {
        text.push_str(&format!("ENV E{i}=$E{}$E{}\n", i - 1, i - 1));
    }
    text.push_str("ENV CGO_ENABLED=${E39}\n");
    let mut diags = Vec::new();
    let d = analyze("Dockerfile", &text, &mut diags);
    let size = format!("{d:?}").len();
    assert!(size < 64 * 1024, "{size} bytes of model");
    // 8 << 9 = 4096 fits; from A10 (8 KiB) every ARG is past the cap, the same for
    // E13 (1 << 13) of the ENV chain.
    assert!(
        diags
            .iter()
            .any(|d| d.line == 11 && d.message.contains("`A10` is longer than 4096")),
        "{diags:?}"
    );
    assert!(
        diags
            .iter()
            .any(|d| d.line == 55 && d.message.contains("`E13` is longer than 4096")),
        "{diags:?}"
    );
    assert!(
        diags
            .iter()
            .any(|d| d.line == 41 && d.message.starts_with("the base image `golang:${A39}` ")),
        "{diags:?}"
    );
    assert_eq!(d.cgo.len(), 1);
}

#[test]
fn an_unresolved_base_is_diagnosed() {
    let mut diags = Vec::new();
    let d = analyze("Dockerfile", "ARG BASE\nFROM $BASE\n", &mut diags);
    assert_eq!(d.stages[0].resolved, "");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].line, 2);
}
