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

/// A package whose `init` registers routes on `http.DefaultServeMux`, so that importing it
/// (even as `_`) adds them to a program that serves that mux.
pub struct DefaultMuxImport {
    pub import: &'static str,
    /// (method, path, handler).
    pub routes: &'static [(&'static str, &'static str, &'static str)],
}

pub const DEFAULT_MUX_IMPORTS: &[DefaultMuxImport] = &[
    // Go 1.22+ src/net/http/pprof/pprof.go `init`: the patterns carry `GET ` unless
    // GODEBUG httpmuxgo121=1, the Go 1.22 ServeMux semantics the whole net/http analysis
    // assumes (see `pattern.rs`).
    DefaultMuxImport {
        import: "net/http/pprof",
        routes: &[
            ("GET", "/debug/pprof/", "pprof.Index"),
            ("GET", "/debug/pprof/cmdline", "pprof.Cmdline"),
            ("GET", "/debug/pprof/profile", "pprof.Profile"),
            ("GET", "/debug/pprof/symbol", "pprof.Symbol"),
            ("GET", "/debug/pprof/trace", "pprof.Trace"),
        ],
    },
];

/// `net/http` functions that serve `http.DefaultServeMux` when their handler argument is
/// `nil`: (function, index of the handler argument).
const DEFAULT_MUX_SERVERS: &[(&str, usize)] = &[
    ("ListenAndServe", 1),
    ("ListenAndServeTLS", 3),
    ("Serve", 1),
    ("ServeTLS", 1),
];

/// The handler argument's index when `function` of `net/http` may serve the default mux.
pub fn default_mux_handler(function: &str) -> Option<usize> {
    DEFAULT_MUX_SERVERS
        .iter()
        .find(|(f, _)| *f == function)
        .map(|(_, i)| *i)
}
