//! Build script: turns `PORTOLAN_E2E=1` into `cfg(portolan_e2e)`, so the browser tests
//! (`tests/browser.rs`) are reported as ignored, not as passed, when they cannot run.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=PORTOLAN_E2E");
    println!("cargo::rustc-check-cfg=cfg(portolan_e2e)");
    if std::env::var("PORTOLAN_E2E").as_deref() == Ok("1") {
        println!("cargo::rustc-cfg=portolan_e2e");
    }
}
