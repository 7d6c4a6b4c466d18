//! The `vendored-operator` fixture through the real binary: kinds of vendored API modules
//! resolve to their groups through the vendored packages' own declarations, and nothing
//! else under `vendor/` becomes a row. Every expected row was checked by hand against the
//! fixture's files.

mod common;

use std::path::Path;

use serde_json::Value;

fn analyze() -> Value {
    common::analyze(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vendored-operator"))
}

fn row(v: &Value, verb_key: &str) -> String {
    let source = &v["sources"][0];
    format!(
        "{} {}/{} {} {}:{}",
        v[verb_key].as_str().unwrap_or(""),
        v["group"].as_str().unwrap_or(""),
        v["version"].as_str().unwrap_or(""),
        v["kind"].as_str().unwrap_or(""),
        source["file"].as_str().unwrap_or(""),
        source["line"]
    )
}

#[test]
fn vendored_api_kinds_resolve_and_vendored_code_gives_no_rows() {
    let model = analyze();
    let controllers = model["controllers"].as_array().unwrap();
    assert_eq!(controllers.len(), 1, "{controllers:#?}");
    let dock = &controllers[0];
    assert_eq!(dock["name"], "dock");
    let file = "internal/controller/dock_controller.go";
    let watches: Vec<String> = dock["watches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| row(w, "relation"))
        .collect();
    assert_eq!(
        watches,
        [
            format!("for /v1 ConfigMap {file}:32"),
            format!("owns fleet.example.org/v1beta1 Boat {file}:33"),
            format!("watches tide.example.org/v2 Current {file}:34"),
        ]
    );
    let writes: Vec<String> = dock["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| row(w, "verb"))
        .collect();
    assert_eq!(
        writes,
        [format!("create fleet.example.org/v1beta1 Boat {file}:23")]
    );
    // Vendored modules are not the project's API packages, and their files are not
    // counted as the project's Go files.
    assert_eq!(model["api_packages"], serde_json::json!([]));
    assert_eq!(model["stats"]["go_files"], 1);
    let diagnostics = model["diagnostics"].as_array().unwrap();
    assert!(
        diagnostics
            .iter()
            .all(|d| !d["file"].as_str().unwrap_or("").starts_with("vendor/")),
        "{diagnostics:#?}"
    );
}
