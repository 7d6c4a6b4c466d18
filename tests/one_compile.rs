//! The README's two commands share one compile: `cargo test --release` builds only the
//! test-only crates and the unit-test harness on top of what `cargo run --release` built.
//! Building tests unifies the dev-dependencies' features into the crates both builds use;
//! when a dev-dependency asks one of them for a feature the normal build lacks, that
//! crate, every crate above it and the binary are compiled a second time (BENCHMARKS.md,
//! "One compile for both README commands": 360 s instead of 214 s on 2 cores).

use std::collections::BTreeSet;
use std::path::PathBuf;

mod common;

/// Every package of the dependency tree along `edges`, with the features it is built with.
fn built_with(edges: &str) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // The child's HOME is the tests' own; the registry it reads (offline, locked) is the
    // one this build used, found before HOME changes.
    let registry = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("CARGO_HOME or HOME to find the registry");
    let out = common::tool(cargo)
        .env("CARGO_HOME", registry)
        .args(["tree", "--offline", "--locked", "--prefix", "none"])
        .args(["-e", edges, "-f", "{p} [{f}]", "--manifest-path"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end_matches(" (*)").to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_test_build_adds_crates_but_changes_none_the_normal_build_compiles() {
    let normal = built_with("normal,build");
    let testing = built_with("normal,build,dev");
    assert!(normal.len() > 100, "only {} packages listed", normal.len());
    let changed: Vec<&String> = normal.difference(&testing).collect();
    assert!(
        changed.is_empty(),
        "built with other features when testing (ask for the same features in Cargo.toml): {changed:?}\nwhen testing: {:?}",
        testing.difference(&normal).collect::<Vec<_>>()
    );
}
