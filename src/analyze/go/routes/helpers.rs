//! Well-known library helpers that register endpoints the calling code never spells out,
//! kept as data: each row was read from the library's source at the version noted, and
//! adding a helper is adding a row.

/// What a helper's endpoints are served by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    /// The mux passed as the first argument (`mux.Handle(path, …)` inside the helper).
    Mux,
    /// The controller-runtime manager passed as the first argument (its health probe
    /// server, through `AddHealthzCheck`/`AddReadyzCheck`).
    Manager,
}

pub struct Helper {
    /// The helper's package import path.
    pub package: &'static str,
    pub function: &'static str,
    pub served: Served,
    /// The paths it registers. Per-check sub-paths (`/livez/<check>`) are named at run
    /// time and not listed.
    pub paths: &'static [&'static str],
}

pub const HELPERS: &[Helper] = &[
    // k8s.io/apiserver v0.36 pkg/server/healthz/healthz.go: InstallPathHandler(mux, path, …)
    // with these paths.
    Helper {
        package: "k8s.io/apiserver/pkg/server/healthz",
        function: "InstallHandler",
        served: Served::Mux,
        paths: &["/healthz"],
    },
    Helper {
        package: "k8s.io/apiserver/pkg/server/healthz",
        function: "InstallLivezHandler",
        served: Served::Mux,
        paths: &["/livez"],
    },
    Helper {
        package: "k8s.io/apiserver/pkg/server/healthz",
        function: "InstallReadyzHandler",
        served: Served::Mux,
        paths: &["/readyz"],
    },
    // github.com/fluxcd/pkg/runtime probes.go: mgr.AddReadyzCheck("ping", …) and
    // mgr.AddHealthzCheck("ping", …).
    Helper {
        package: "github.com/fluxcd/pkg/runtime/probes",
        function: "SetupChecks",
        served: Served::Manager,
        paths: &["/healthz", "/readyz"],
    },
];

/// The helper `package.function`, if it is one.
pub fn find(package: &str, function: &str) -> Option<&'static Helper> {
    HELPERS
        .iter()
        .find(|h| h.package == package && h.function == function)
}

/// True when some helper has this function name: its calls are worth recording.
pub fn is_helper_name(function: &str) -> bool {
    HELPERS.iter().any(|h| h.function == function)
}
