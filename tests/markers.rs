//! End-to-end test of markers and code-built webhooks on the admission-operator fixture:
//! `portolan analyze` through the real binary, the rows checked exactly (a snapshot) and the
//! facts that matter spelled out as assertions, so a wrong row fails with a clear message.

use std::path::Path;

use serde_json::{Value, json};

mod common;

fn analyze(fixture: &str) -> Value {
    common::analyze(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(fixture),
    )
}

/// `(type, path, origin, source)` of every webhook row.
fn webhook_rows(model: &Value) -> Vec<(String, String, String, String)> {
    let mut rows: Vec<_> = model["webhooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let src = &w["sources"][0];
            (
                w["type"].as_str().unwrap().to_string(),
                w["path"].as_str().unwrap().to_string(),
                w["origin"].as_str().unwrap().to_string(),
                format!("{}:{}", src["file"].as_str().unwrap(), src["line"]),
            )
        })
        .collect();
    rows.sort();
    rows
}

fn row(kind: &str, path: &str, origin: &str, source: &str) -> (String, String, String, String) {
    (kind.into(), path.into(), origin.into(), source.into())
}

#[test]
fn admission_operator_markers_and_webhooks() {
    let model = analyze("admission-operator");
    let webhook = "internal/webhook/policy_webhook.go";
    let yaml = "config/webhook/manifests.yaml";
    assert_eq!(
        webhook_rows(&model),
        vec![
            row("conversion", "/convert", "code", &format!("{webhook}:38")),
            row("conversion", "/convert", "code", &format!("{webhook}:45")),
            row(
                "mutating",
                "/mutate-admission-example-io-v1-policy",
                "code",
                &format!("{webhook}:39")
            ),
            row(
                "mutating",
                "/mutate-admission-example-io-v1-policy",
                "manifest",
                &format!("{yaml}:15")
            ),
            row(
                "mutating",
                "/mutate-admission-example-io-v1-policy",
                "marker",
                &format!("{webhook}:15")
            ),
            row(
                "validating",
                "/validate-admission-example-io-v1-policy",
                "code",
                &format!("{webhook}:40")
            ),
            row(
                "validating",
                "/validate-admission-example-io-v1-policy",
                "manifest",
                &format!("{yaml}:41")
            ),
            row(
                "validating",
                "/validate-policies",
                "marker",
                &format!("{webhook}:16")
            ),
            row(
                "validating",
                "/validate-v2-policies",
                "code",
                &format!("{webhook}:47")
            ),
            row(
                "validating",
                "/validate-v2-policies",
                "manifest",
                &format!("{yaml}:62")
            ),
            row(
                "validating",
                "/validate-v2-policies",
                "marker",
                &format!("{webhook}:17")
            ),
        ]
    );
    let diagnostics = common::diagnostics(&model);
    assert_eq!(
        diagnostics,
        vec![
            "internal/controller/policy_controller.go:26: +kubebuilder:rbac marker inside a function body: controller-gen ignores it there, so it is not listed".to_string(),
            format!("{webhook}:16: webhook marker `vpolicy.admission.example.io` has path /validate-policies, but controller-runtime serves the validating webhook of admission.example.io/v1 Policy on /validate-admission-example-io-v1-policy ({webhook}:40)"),
            format!("{webhook}:16: webhook marker `vpolicy.admission.example.io` has path /validate-policies, but the webhook of that name in validating-webhook-configuration ({yaml}:41) has path /validate-admission-example-io-v1-policy"),
        ]
    );
    // Every marker spelling lands in the same shape of row.
    let rbac: Vec<Value> = model["rbac"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            json!([
                r["role"],
                r["groups"],
                r["resources"],
                r["resource_names"],
                r["verbs"],
                r["origin"],
                r["sources"][0]["line"]
            ])
        })
        .collect();
    let role = "markers:internal/controller";
    assert_eq!(
        rbac,
        vec![
            json!([
                role,
                ["admission.example.io"],
                ["policies", "policies/status"],
                null,
                ["get", "list", "watch", "update", "patch"],
                "marker",
                18
            ]),
            json!([
                role,
                [""],
                ["configmaps"],
                ["policy-defaults"],
                ["get", "watch"],
                "marker",
                19
            ]),
            json!([
                role,
                [""],
                ["events"],
                null,
                ["create", "patch"],
                "marker",
                20
            ]),
            json!([
                format!("Role/admission-system/{role}"),
                ["coordination.k8s.io"],
                ["leases"],
                null,
                ["get", "create", "update"],
                "marker",
                21
            ]),
            json!([role, [], ["/metrics"], null, ["get"], "marker", 22]),
        ]
    );
    // The whole of what markers and webhooks contribute, as a reviewed snapshot.
    insta::assert_json_snapshot!(
        "admission-operator",
        json!({
            "webhooks": model["webhooks"],
            "rbac": model["rbac"],
            "api_types": model["api_types"],
            "controllers": model["controllers"],
        })
    );
}
