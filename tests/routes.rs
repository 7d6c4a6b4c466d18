//! HTTP route analysis end to end: `portolan analyze` on the `routes-zoo` fixture, one
//! program per router library (go-restful, and gRPC with grpc-gateway from a `.proto` and
//! from generated code the walker selects), with constants in other files and packages,
//! and decoys.

mod common;

use std::path::PathBuf;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/routes-zoo")
}

fn model() -> serde_json::Value {
    let out = common::portolan()
        .arg("analyze")
        .arg(fixture())
        .output()
        .expect("portolan runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("analyze prints JSON")
}

/// One line per row: method, host and path, handler, framework, flags, sources.
fn rows(model: &serde_json::Value) -> Vec<String> {
    let s = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    model["http_endpoints"]
        .as_array()
        .expect("http_endpoints")
        .iter()
        .map(|e| {
            let mut flags = Vec::new();
            for flag in ["implicit", "unresolved"] {
                if e[flag].as_bool() == Some(true) {
                    flags.push(flag.to_string());
                }
            }
            if let Some(area) = e["area"].as_str() {
                flags.push(area.to_string());
            }
            let sources: Vec<String> = e["sources"]
                .as_array()
                .expect("sources")
                .iter()
                .map(|src| format!("{}:{}", s(&src["file"]), src["line"]))
                .collect();
            format!(
                "{} {}{} | {} | {} | {}| {}",
                s(&e["method"]),
                s(&e["host"]),
                s(&e["path"]),
                s(&e["handler"]),
                s(&e["framework"]),
                flags.iter().map(|f| format!("{f} ")).collect::<String>(),
                sources.join(" ")
            )
        })
        .collect()
}

#[test]
fn every_router_library_gives_exact_rows() {
    let model = model();
    let expected = [
        "GET / | index | chi | | cmd/chi/main.go:11",
        "POST /articles/ | createArticle | chi | | cmd/chi/main.go:13",
        "GET /articles/{id} | getArticle | chi | | cmd/chi/main.go:14",
        "PUT /articles/{id} | http.HandlerFunc(updateArticle) | chi | | cmd/chi/main.go:16",
        "ANY /metrics | metricsHandler() | chi | | cmd/chi/main.go:17",
        "GET /users/:id | getUser | echo | | cmd/echo/main.go:11",
        "PUT /admin/settings | putSettings | echo | | cmd/echo/main.go:13",
        "PATCH /users/:id | patchUser | echo | | cmd/echo/main.go:14",
        "GET /ping | ping | gin | | cmd/gin/main.go:11",
        "POST /v1/login | login | gin | | cmd/gin/main.go:14",
        "DELETE /v1/admin/users/:id | removeUser | gin | | cmd/gin/main.go:16",
        "GET /items | listItems | gorilla/mux | | cmd/gorilla/main.go:11",
        "POST /items | listItems | gorilla/mux | | cmd/gorilla/main.go:11",
        "GET /api/items/{id} | getItem | gorilla/mux | | cmd/gorilla/main.go:13",
        "DELETE /api/items/{id} | deleteItem | gorilla/mux | | cmd/gorilla/main.go:15",
        "ANY /static/* | http.FileServer(http.Dir(\"./static\")) | gorilla/mux | | cmd/gorilla/main.go:16",
        "GRPC /shop.v1.ItemStore/GetItem | &shop{…} | grpc | | cmd/grpcserver/main.go:22",
        "GRPC /shop.v1.ItemStore/PutItem | &shop{…} | grpc | | cmd/grpcserver/main.go:22",
        "GRPC /shop.v1.ItemStore/WatchItems | &shop{…} | grpc | | cmd/grpcserver/main.go:22",
        "GRPC /accounts.ledger.v1.Ledger/Post | ledger{…} | grpc | | cmd/grpcserver/main.go:23",
        "GRPC /accounts.ledger.v1.Ledger/Balance | ledger{…} | grpc | | cmd/grpcserver/main.go:23",
        "GRPC /grpc.health.v1.Health/* | nil | grpc | | cmd/grpcserver/main.go:24",
        "GET /v1/items/{id} | shop.v1.ItemStore/GetItem | grpc-gateway | | cmd/grpcserver/main.go:29",
        "GET /v1/shelves/{shelf}/items/{id} | shop.v1.ItemStore/GetItem | grpc-gateway | | cmd/grpcserver/main.go:29",
        "PUT /v1/items/{item.id} | shop.v1.ItemStore/PutItem | grpc-gateway | | cmd/grpcserver/main.go:29",
        "POST /v1/accounts/{account}/entries | accounts.ledger.v1.Ledger/Post | grpc-gateway | | cmd/grpcserver/main.go:30",
        "GET /v1/accounts/{account}:balance | accounts.ledger.v1.Ledger/Balance | grpc-gateway | | cmd/grpcserver/main.go:30",
        "ANY /metrics | metrics | controller-runtime | implicit | cmd/manager/main.go:13",
        "ANY /mutate-v1-pod | &webhook.Admission{Handler: &podDefaulter{…}} | controller-runtime | | cmd/manager/main.go:20",
        "ANY /debug/flags | debugHandler | controller-runtime | | cmd/manager/main.go:22",
        "ANY /debug/config | debugHandler | controller-runtime | | cmd/manager/main.go:22",
        "ANY /debug/pprof/heap | pprof.Handler(p) | controller-runtime | | cmd/manager/main.go:36",
        "ANY /debug/pprof/goroutine | pprof.Handler(p) | controller-runtime | | cmd/manager/main.go:36",
        "ANY /healthz | healthz checks | controller-runtime | implicit | cmd/manager/main.go:44",
        "ANY /readyz | readyz checks | controller-runtime | implicit | cmd/manager/main.go:47",
        "GET /catalog/books/{isbn} | c.book | go-restful | | cmd/restful/main.go:17",
        "PUT /catalog/books/{isbn} | c.store | go-restful | | cmd/restful/main.go:18",
        "DELETE /catalog/books/{isbn} | c.remove | go-restful | | cmd/restful/main.go:19",
        "GET /health | (anonymous func) | net/http | | internal/proxy/server.go:24",
        "POST /v1/chat/completions | s.handleChat | net/http | | internal/proxy/server.go:27",
        "POST /v1/completions | s.handleCompletions | net/http | | internal/proxy/server.go:28",
        "GET /v1/models | http.HandlerFunc(s.listModels) | net/http | | internal/proxy/server.go:29",
        "ANY status.example.com/ | s.status() | net/http | | internal/proxy/server.go:30",
        "ANY / | s.proxy | net/http | | internal/proxy/server.go:31",
        "ANY /admin/flush | s.flush | net/http | | internal/proxy/server.go:32",
        "ANY /debug/vars | debugVars | net/http | | internal/proxy/server.go:33",
        "GET /internal/live | live | gin | | pkg/health/health.go:8",
        "ANY /stub/echo | stubEcho | net/http | samples | test/e2e/stub.go:7",
    ];
    assert_eq!(rows(&model), expected);
}

#[test]
fn look_alikes_are_not_routes_and_an_unknown_receiver_is_reported() {
    let model = model();
    for row in rows(&model) {
        assert!(!row.contains("internal/decoys/"), "{row}");
        assert!(!row.contains("gateway.networking.k8s.io"), "{row}");
    }
    let diagnostics: Vec<String> = model["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            format!(
                "{}:{} {}",
                d["file"].as_str().unwrap_or(""),
                d["line"],
                d["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        diagnostics,
        [
            "cmd/grpcserver/main.go:25 `RegisterWidgetServer` is declared in internal/fakegrpc/fake.go, which is not generated gRPC code: not listed",
            "internal/decoys/notroutes.go:29 `HandleFunc(\"/registry/callback\", …)` is not listed as a route: nothing shows that its receiver is an HTTP router (net/http, gorilla/mux, gin, echo, chi) or a controller-runtime manager or webhook server"
        ]
    );
}
