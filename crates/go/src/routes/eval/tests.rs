use super::*;
use crate::file::extract;
use model::Area;

/// (method, host+path, handler, framework, file:line, flags) per row, and diagnostics
/// as file:line.
type Row = (String, String, String, String, String, String);

fn routes(files: &[(&str, &str)]) -> (Vec<Row>, Vec<String>) {
    let (rows, diags) = routes_with(files, &[]);
    let diags = diags
        .iter()
        .map(|d| format!("{}:{}", d.file, d.line))
        .collect();
    (rows, diags)
}

/// Like `routes`, with `.proto` files, and the diagnostics in full.
fn routes_with(files: &[(&str, &str)], protos: &[(&str, &str)]) -> (Vec<Row>, Vec<Diagnostic>) {
    let protos: Vec<ProtoFile> = protos
        .iter()
        .map(|(path, text)| manifests::proto::parse(path, text))
        .collect();
    let inputs: Vec<GoInput> = files
        .iter()
        .map(|(path, src)| GoInput {
            // As the pipeline reads them: protoc's output by the light extractor.
            facts: match source::file_kind::FileKind::of(path) {
                Some(source::file_kind::FileKind::GoGenerated) => {
                    crate::extract_generated(path, src)
                }
                _ => extract(path, src),
            },
            area: Area::Component,
        })
        .collect();
    let mut diags = Vec::new();
    let index = crate::test_support::index(&inputs, "example.com/m", &mut diags);
    let rows = resolve(&inputs, &index, &protos, &mut diags)
        .into_iter()
        .map(|e| {
            let mut flags = Vec::new();
            if e.implicit {
                flags.push("implicit");
            }
            if e.unresolved {
                flags.push("unresolved");
            }
            (
                e.method,
                format!("{}{}", e.host, e.path),
                e.handler,
                e.framework,
                format!("{}:{}", e.sources[0].file, e.sources[0].line),
                flags.join(","),
            )
        })
        .collect();
    (rows, diags)
}

fn messages(diags: &[Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect()
}

fn row(m: &str, p: &str, h: &str, fw: &str, at: &str, flags: &str) -> Row {
    (
        m.into(),
        p.into(),
        h.into(),
        fw.into(),
        at.into(),
        flags.into(),
    )
}

#[test]
fn net_http_patterns_and_constants_from_other_files_and_packages() {
    let (rows, diags) = routes(&[
        ("api/paths.go", "package api\nconst Prefix = \"/v1\"\n"),
        (
            "proxy/paths.go",
            "package proxy\nimport \"example.com/m/api\"\nconst ChatCompletionsPath = api.Prefix + \"/chat/completions\"\nvar ModelsPath = api.Prefix + \"/models\"\n",
        ),
        (
            "proxy/server.go",
            r#"package proxy
import "net/http"
type Server struct{ mux *http.ServeMux }
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {})
	mux.HandleFunc("POST "+ChatCompletionsPath, s.chat(APIChat))
	mux.Handle(http.MethodGet+" "+ModelsPath, s.models)
	mux.Handle("example.com/x", s.host)
	mux.Handle("/", s.proxy)
	s.mux.Handle("/field", s.field)
	http.HandleFunc("/default", defaultHandler)
	return mux
}
"#,
        ),
    ]);
    assert_eq!(
        rows,
        vec![
            row(
                "GET",
                "/health",
                "(anonymous func)",
                "net/http",
                "proxy/server.go:6",
                ""
            ),
            row(
                "POST",
                "/v1/chat/completions",
                "s.chat(APIChat)",
                "net/http",
                "proxy/server.go:7",
                ""
            ),
            row(
                "GET",
                "/v1/models",
                "s.models",
                "net/http",
                "proxy/server.go:8",
                ""
            ),
            row(
                "ANY",
                "example.com/x",
                "s.host",
                "net/http",
                "proxy/server.go:9",
                ""
            ),
            row("ANY", "/", "s.proxy", "net/http", "proxy/server.go:10", ""),
            row(
                "ANY",
                "/field",
                "s.field",
                "net/http",
                "proxy/server.go:11",
                ""
            ),
            row(
                "ANY",
                "/default",
                "defaultHandler",
                "net/http",
                "proxy/server.go:12",
                ""
            ),
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn gorilla_methods_and_subrouters() {
    let (rows, _) = routes(&[(
        "main.go",
        r#"package main
import (
	"net/http"
	"github.com/gorilla/mux"
)
func main() {
	r := mux.NewRouter()
	r.HandleFunc("/items", list).Methods("GET", http.MethodPost)
	api := r.PathPrefix("/api/").Subrouter()
	api.HandleFunc("/users/{id}", user).
		Methods(http.MethodGet)
	api.Methods("DELETE").Path("/users/{id}").HandlerFunc(del)
	r.PathPrefix("/static/").Handler(files)
	r.Host("example.com").Path("/h").HandlerFunc(h)
}
"#,
    )]);
    assert_eq!(
        rows,
        vec![
            row("GET", "/items", "list", "gorilla/mux", "main.go:8", ""),
            row("POST", "/items", "list", "gorilla/mux", "main.go:8", ""),
            row(
                "GET",
                "/api/users/{id}",
                "user",
                "gorilla/mux",
                "main.go:10",
                ""
            ),
            row(
                "DELETE",
                "/api/users/{id}",
                "del",
                "gorilla/mux",
                "main.go:12",
                ""
            ),
            row("ANY", "/static/*", "files", "gorilla/mux", "main.go:13", ""),
            row("ANY", "example.com/h", "h", "gorilla/mux", "main.go:14", ""),
        ]
    );
}

#[test]
fn gin_echo_and_chi_with_groups() {
    let (rows, _) = routes(&[
        (
            "gin.go",
            r#"package web
import "github.com/gin-gonic/gin"
func Gin() {
	r := gin.Default()
	r.GET("/ping", ping)
	v1 := r.Group("/v1")
	{
		v1.POST("/login", auth, login)
		v1.Group("/admin").DELETE("/users/:id", removeUser)
	}
	r.Any("/any", anything)
	r.Handle("PATCH", "/p", patch)
}
"#,
        ),
        (
            "echo.go",
            r#"package web
import "github.com/labstack/echo/v4"
func Echo() {
	e := echo.New()
	e.GET("/users/:id", getUser, mw)
	g := e.Group("/admin")
	g.PUT("/x", putX)
	e.Add(echo.POST, "/add", add)
}
"#,
        ),
        (
            "chi.go",
            r#"package web
import (
	"net/http"
	"github.com/go-chi/chi/v5"
)
func Chi() {
	r := chi.NewRouter()
	r.Get("/", index)
	r.Route("/articles", func(r chi.Router) {
		r.Post("/", create)
		r.Route("/{id}", func(r chi.Router) {
			r.Put("/", update)
		})
	})
	r.Method(http.MethodGet, "/m", m)
	r.Handle("/h", h)
	r.With(mw).Delete("/d", d)
	r.Mount("/debug", debugRouter())
}
"#,
        ),
    ]);
    assert_eq!(
        rows,
        vec![
            row("GET", "/ping", "ping", "gin", "gin.go:5", ""),
            row("POST", "/v1/login", "login", "gin", "gin.go:8", ""),
            row(
                "DELETE",
                "/v1/admin/users/:id",
                "removeUser",
                "gin",
                "gin.go:9",
                ""
            ),
            row("ANY", "/any", "anything", "gin", "gin.go:11", ""),
            row("PATCH", "/p", "patch", "gin", "gin.go:12", ""),
            row("GET", "/users/:id", "getUser", "echo", "echo.go:5", ""),
            row("PUT", "/admin/x", "putX", "echo", "echo.go:7", ""),
            row("POST", "/add", "add", "echo", "echo.go:8", ""),
            row("GET", "/", "index", "chi", "chi.go:8", ""),
            row("POST", "/articles/", "create", "chi", "chi.go:10", ""),
            row("PUT", "/articles/{id}/", "update", "chi", "chi.go:12", ""),
            row("GET", "/m", "m", "chi", "chi.go:15", ""),
            row("ANY", "/h", "h", "chi", "chi.go:16", ""),
            row("DELETE", "/d", "d", "chi", "chi.go:17", ""),
            row("ANY", "/debug/*", "debugRouter()", "chi", "chi.go:18", ""),
        ]
    );
}

#[test]
fn manager_built_in_a_package_level_command_literal() {
    // A non-main package whose cobra command's `Run` literal builds the manager (the
    // binary's main only calls `Execute`), and a nested literal that adds a check.
    let (rows, diags) = routes(&[(
        "internal/app/serve.go",
        r#"package app
import (
	"github.com/spf13/cobra"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
)
var probeAddr string
var serveCmd = &cobra.Command{
	Use: "serve",
	Run: func(cmd *cobra.Command, _ []string) {
		opts := ctrl.Options{HealthProbeBindAddress: probeAddr}
		m, err := ctrl.NewManager(ctrl.GetConfigOrDie(), opts)
		if err != nil {
			return
		}
		m.AddHealthzCheck("ping", healthz.Ping)
		defer func() {
			_ = m.AddReadyzCheck("ready", healthz.Ping)
		}()
	},
}
var quiet = func(cmd *cobra.Command) { cmd.Flags().Bool("quiet", false, "") }
"#,
    )]);
    let at = |line: u32| format!("internal/app/serve.go:{line}");
    assert_eq!(
        rows,
        vec![
            row(
                "ANY",
                "/metrics",
                "metrics",
                "controller-runtime",
                &at(12),
                "implicit"
            ),
            row(
                "ANY",
                "/healthz",
                "healthz checks",
                "controller-runtime",
                &at(16),
                "implicit"
            ),
            row(
                "ANY",
                "/readyz",
                "readyz checks",
                "controller-runtime",
                &at(18),
                "implicit"
            ),
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn well_known_library_helpers_register_their_endpoints() {
    let (rows, diags) = routes(&[
        (
            "internal/health/server.go",
            r#"package health
import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"k8s.io/apiserver/pkg/server/healthz"
)
func NewServer() *http.Server {
	mux := http.NewServeMux()
	healthz.InstallLivezHandler(mux, healthz.PingHealthz)
	healthz.InstallReadyzHandler(mux)
	return &http.Server{Handler: mux}
}
func Admin() chi.Router {
	r := chi.NewRouter()
	r.Route("/admin", func(sub chi.Router) {
		healthz.InstallHandler(sub)
	})
	return r
}
"#,
        ),
        (
            "cmd/ctl/main.go",
            r#"package main
import (
	"github.com/fluxcd/pkg/runtime/probes"
	ctrl "sigs.k8s.io/controller-runtime"
	other "example.com/m/internal/probes"
)
func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{HealthProbeBindAddress: ":9440"})
	probes.SetupChecks(mgr, log)
	other.SetupChecks(mgr, log)
}
"#,
        ),
        (
            "internal/probes/probes.go",
            "package probes\nfunc SetupChecks(m interface{}, l interface{}) {}\n",
        ),
    ]);
    assert_eq!(
        rows,
        vec![
            row(
                "ANY",
                "/livez",
                "healthz.InstallLivezHandler",
                "net/http",
                "internal/health/server.go:10",
                "implicit"
            ),
            row(
                "ANY",
                "/readyz",
                "healthz.InstallReadyzHandler",
                "net/http",
                "internal/health/server.go:11",
                "implicit"
            ),
            row(
                "ANY",
                "/admin/healthz",
                "healthz.InstallHandler",
                "net/http",
                "internal/health/server.go:17",
                "implicit"
            ),
            row(
                "ANY",
                "/metrics",
                "metrics",
                "controller-runtime",
                "cmd/ctl/main.go:8",
                "implicit"
            ),
            row(
                "ANY",
                "/healthz",
                "probes.SetupChecks",
                "controller-runtime",
                "cmd/ctl/main.go:9",
                "implicit"
            ),
            row(
                "ANY",
                "/readyz",
                "probes.SetupChecks",
                "controller-runtime",
                "cmd/ctl/main.go:9",
                "implicit"
            ),
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn imports_that_register_on_the_default_mux_are_served_by_a_nil_handler() {
    let (rows, diags) = routes(&[
        (
            "internal/debug/imports.go",
            "package debug\nimport _ \"net/http/pprof\"\n",
        ),
        (
            "internal/debug/serve.go",
            r#"package debug
import "net/http"
func Start(addr string) {
	go func() {
		_ = http.ListenAndServe(addr, nil)
	}()
}
"#,
        ),
        (
            "internal/api/serve.go",
            r#"package api
import (
	"net/http"
	"net/http/pprof"
)
func Start(addr string) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/prof/", pprof.Index)
	return http.ListenAndServe(addr, mux)
}
"#,
        ),
        (
            "internal/plain/serve.go",
            "package plain\nimport \"net/http\"\nfunc Start(l net.Listener) { _ = http.Serve(l, nil) }\n",
        ),
    ]);
    let at = "internal/debug/serve.go:5";
    assert_eq!(
        rows,
        vec![
            row(
                "GET",
                "/debug/pprof/",
                "pprof.Index",
                "net/http",
                at,
                "implicit"
            ),
            row(
                "GET",
                "/debug/pprof/cmdline",
                "pprof.Cmdline",
                "net/http",
                at,
                "implicit"
            ),
            row(
                "GET",
                "/debug/pprof/profile",
                "pprof.Profile",
                "net/http",
                at,
                "implicit"
            ),
            row(
                "GET",
                "/debug/pprof/symbol",
                "pprof.Symbol",
                "net/http",
                at,
                "implicit"
            ),
            row(
                "GET",
                "/debug/pprof/trace",
                "pprof.Trace",
                "net/http",
                at,
                "implicit"
            ),
            row(
                "ANY",
                "/prof/",
                "pprof.Index",
                "net/http",
                "internal/api/serve.go:8",
                ""
            ),
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn controller_runtime_registrations_and_implicit_endpoints() {
    let (rows, diags) = routes(&[(
        "cmd/main.go",
        r#"package main
import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)
func main() {
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{})
	hooks := mgr.GetWebhookServer()
	hooks.Register("/mutate-pods", &webhook.Admission{Handler: &podMutator{}})
	for _, p := range []string{"/a", "/b"} {
		mgr.AddMetricsServerExtraHandler(p, h)
	}
	profiles := []string{"heap", "block"}
	for _, p := range profiles {
		mgr.AddMetricsServerExtraHandler("/debug/pprof/"+p, pprof.Handler(p))
	}
	checks(mgr)
	off, _ := manager.New(cfg, manager.Options{Metrics: metricsserver.Options{BindAddress: "0"}})
	_ = off
}
func checks(m ctrl.Manager) {
	m.AddHealthzCheck("healthz", healthz.Ping)
	m.AddReadyzCheck("readyz", healthz.Ping)
}
func serve(s webhook.Server) {
	s.Register("/validate", v)
}
"#,
    )]);
    assert_eq!(
        rows,
        vec![
            row(
                "ANY",
                "/metrics",
                "metrics",
                "controller-runtime",
                "cmd/main.go:9",
                "implicit"
            ),
            row(
                "ANY",
                "/mutate-pods",
                "&webhook.Admission{Handler: &podMutator{…}}",
                "controller-runtime",
                "cmd/main.go:11",
                ""
            ),
            row("ANY", "/a", "h", "controller-runtime", "cmd/main.go:13", ""),
            row("ANY", "/b", "h", "controller-runtime", "cmd/main.go:13", ""),
            row(
                "ANY",
                "/debug/pprof/heap",
                "pprof.Handler(p)",
                "controller-runtime",
                "cmd/main.go:17",
                ""
            ),
            row(
                "ANY",
                "/debug/pprof/block",
                "pprof.Handler(p)",
                "controller-runtime",
                "cmd/main.go:17",
                ""
            ),
            row(
                "ANY",
                "/healthz",
                "healthz checks",
                "controller-runtime",
                "cmd/main.go:24",
                "implicit"
            ),
            row(
                "ANY",
                "/readyz",
                "readyz checks",
                "controller-runtime",
                "cmd/main.go:25",
                "implicit"
            ),
            row(
                "ANY",
                "/validate",
                "v",
                "controller-runtime",
                "cmd/main.go:28",
                ""
            ),
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn strings_passed_to_things_that_are_not_routers_are_not_routes() {
    let (rows, diags) = routes(&[(
        "x.go",
        r#"package x
import (
	gwapiv1 "sigs.k8s.io/gateway-api/apis/v1"
	"example.com/m/plugin"
	"net/http"
)
type S struct{ cache *Cache }
func (s *S) f(r *http.Request, group string) {
	_ = gwapiv1.Group("gateway.networking.k8s.io")
	plugin.Register("label-selector", factory)
	s.cache.Get("/not/a/route")
	r.Header.Get("/also/not")
	s.HandleFunc("/unknown", h)
	loggerWrap.Handle(fmt.Errorf("x"))
	http.Handle("gateway.networking.k8s.io", h)
	resp, _ := http.Get("/client/call")
	var x Something
	x.Handle("/typed/here", h)
	var y gwapiv1.HTTPRoute
	y.Handle("/typed/elsewhere", h)
}
"#,
    )]);
    assert!(rows.is_empty(), "{rows:?}");
    // Receivers of unknown origin given a path are reported (line 13: a method of this
    // package's receiver; line 18: a type of this package); another package's type is not.
    assert_eq!(diags, vec!["x.go:13", "x.go:18"]);
}

#[test]
fn unresolvable_paths_and_unknown_prefixes_are_marked_with_a_diagnostic() {
    let (rows, diags) = routes(&[(
        "x.go",
        r#"package x
import (
	"net/http"
	"github.com/gin-gonic/gin"
)
func register(mux *http.ServeMux, path string) {
	mux.Handle(path, h)
	mux.Handle("POST /api/"+version(), h)
}
func Routes(g *gin.RouterGroup) {
	g.GET("/x", x)
}
"#,
    )]);
    assert_eq!(
        rows,
        vec![
            row("ANY", "{path}", "h", "net/http", "x.go:7", "unresolved"),
            row(
                "POST",
                "/api/{version()}",
                "h",
                "net/http",
                "x.go:8",
                "unresolved"
            ),
            row("GET", "/x", "x", "gin", "x.go:11", "unresolved"),
        ]
    );
    assert_eq!(diags, vec!["x.go:7", "x.go:8", "x.go:11"]);
}

#[test]
fn parameters_take_the_prefix_their_callers_pass() {
    let (rows, diags) = routes(&[
        (
            "api/routes.go",
            r#"package api
import "github.com/gin-gonic/gin"
func Register(g *gin.RouterGroup) {
	g.GET("/items", items)
}
"#,
        ),
        (
            "main.go",
            r#"package main
import (
	"example.com/m/api"
	"github.com/gin-gonic/gin"
)
var engine = gin.New()
func main() {
	api.Register(engine.Group("/v1"))
	api.Register(engine.Group("/v2"))
}
"#,
        ),
    ]);
    assert_eq!(
        rows,
        vec![
            row("GET", "/v1/items", "items", "gin", "api/routes.go:4", ""),
            row("GET", "/v2/items", "items", "gin", "api/routes.go:4", ""),
        ]
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn go_restful_web_services_and_their_routes() {
    let (rows, diags) = routes_with(
        &[
            (
                "api/items.go",
                r#"package api
import restful "github.com/emicklei/go-restful/v3"
const base = "/shop"
type ItemResource struct{}
func (r ItemResource) Register(c *restful.Container) {
	ws := new(restful.WebService)
	ws.Path(base + "/items").
		Consumes(restful.MIME_JSON)
	ws.Route(ws.GET("/{id}").To(r.get).Doc("one item"))
	ws.Route(ws.POST("").To(r.create))
	ws.Route(ws.Method("PATCH").Path("/{id}/label").To(r.label))
	c.Add(ws)
}
func (r ItemResource) Purge() *restful.WebService {
	ws := &restful.WebService{}
	ws.Route(ws.DELETE("/all").To(r.purge))
	return ws
}
func onAny(ws *restful.WebService, h restful.RouteFunction) {
	ws.Route(ws.PUT("/x").To(h))
}
"#,
            ),
            (
                "legacy/legacy.go",
                r#"package legacy
import "github.com/emicklei/go-restful"
type fake struct{}
func (fake) GET(p string) fake { return fake{} }
func (fake) To(h func()) {}
func Install() {
	ws := new(restful.WebService).Path("/old")
	ws.Route(ws.HEAD("/ping").To(ping))
	restful.Add(ws)
	var f fake
	f.GET("/not-a-route").To(nil)
	ws2 := new(restful.WebService)
	ws2.Route(ws2.OPTIONS("/opts").To(opts))
}
"#,
            ),
        ],
        &[],
    );
    assert_eq!(
        rows,
        vec![
            row(
                "GET",
                "/shop/items/{id}",
                "r.get",
                GO_RESTFUL,
                "api/items.go:9",
                ""
            ),
            row(
                "POST",
                "/shop/items",
                "r.create",
                GO_RESTFUL,
                "api/items.go:10",
                ""
            ),
            row(
                "PATCH",
                "/shop/items/{id}/label",
                "r.label",
                GO_RESTFUL,
                "api/items.go:11",
                ""
            ),
            row(
                "DELETE",
                "/all",
                "r.purge",
                GO_RESTFUL,
                "api/items.go:16",
                ""
            ),
            row(
                "PUT",
                "/x",
                "h",
                GO_RESTFUL,
                "api/items.go:20",
                "unresolved"
            ),
            row(
                "HEAD",
                "/old/ping",
                "ping",
                GO_RESTFUL,
                "legacy/legacy.go:8",
                ""
            ),
            row(
                "OPTIONS",
                "/opts",
                "opts",
                GO_RESTFUL,
                "legacy/legacy.go:13",
                ""
            ),
        ]
    );
    assert_eq!(
        messages(&diags),
        [
            "api/items.go:20: the path prefix of the router `PUT /x` is registered on is not known (it is a parameter or field of a group type that nothing in the repository assigns); the route is listed without it"
        ]
    );
}

const SHOP_GRPC: &str = r#"// Code generated by protoc-gen-go-grpc. DO NOT EDIT.

package shopv1

import grpc "google.golang.org/grpc"

func RegisterItemStoreServer(s grpc.ServiceRegistrar, srv ItemStoreServer) {
	s.RegisterService(&ItemStore_ServiceDesc, srv)
}

var ItemStore_ServiceDesc = grpc.ServiceDesc{
	ServiceName: "shop.v1.ItemStore",
	HandlerType: (*ItemStoreServer)(nil),
	Methods: []grpc.MethodDesc{
		{MethodName: "GetItem", Handler: _ItemStore_GetItem_Handler},
	},
	Streams: []grpc.StreamDesc{
		{StreamName: "WatchItems", Handler: _ItemStore_WatchItems_Handler, ServerStreams: true},
	},
	Metadata: "shop/v1/shop.proto",
}
"#;

const SHOP_GATEWAY: &str = r#"// Code generated by protoc-gen-grpc-gateway. DO NOT EDIT.

package shopv1

import (
	"context"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
)

func RegisterItemStoreHandlerServer(ctx context.Context, mux *runtime.ServeMux, server ItemStoreServer) error {
	mux.Handle(http.MethodGet, pattern_ItemStore_GetItem_0, func(w http.ResponseWriter, req *http.Request, p map[string]string) {})
	return nil
}

func RegisterItemStoreHandlerClient(ctx context.Context, mux *runtime.ServeMux, client ItemStoreClient) error {
	mux.Handle("GET", pattern_ItemStore_GetItem_0, func(w http.ResponseWriter, req *http.Request, p map[string]string) {})
	mux.Handle("POST", pattern_ItemStore_GetItem_1, func(w http.ResponseWriter, req *http.Request, p map[string]string) {})
	return nil
}

var (
	pattern_ItemStore_GetItem_0 = runtime.MustPattern(runtime.NewPattern(1, []int{2, 0, 2, 1, 1, 0, 4, 1, 5, 2}, []string{"v1", "items", "id"}, ""))

	pattern_ItemStore_GetItem_1 = runtime.MustPattern(runtime.NewPattern(1, []int{2, 0, 2, 1}, []string{"v1", "items"}, "lookup"))
)
"#;

const SHOP_MAIN: &str = r#"package main
import (
	"context"
	"net"

	"example.com/m/gen/shop/v1"
	"example.com/m/internal/fake"
	"example.com/other/audit"
	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)
func main() {
	s := grpc.NewServer()
	shopv1.RegisterItemStoreServer(s, &store{})
	healthpb.RegisterHealthServer(s, newHealth())
	audit.RegisterAuditServer(s, auditor{})
	fake.RegisterWidgetServer(s, nil)
	mux := runtime.NewServeMux()
	_ = shopv1.RegisterItemStoreHandlerFromEndpoint(context.Background(), mux, "localhost:9090", nil)
	_ = mux.HandlePath("GET", "/healthz", healthz)
	lis, _ := net.Listen("tcp", ":9090")
	_ = s.Serve(lis)
}
func register(x *notGrpc) {
	audit.RegisterThingServer(x, nil)
	fake.RegisterAuditHandler(nil)
}
"#;

/// Hand-written functions named like registrations: no rows (a diagnostic for the server
/// form only).
const FAKE: &str = "package fake\nfunc RegisterWidgetServer(s any, x any) {}\nfunc RegisterAuditHandler(f func()) {}\n";

#[test]
fn grpc_services_and_gateway_routes_from_generated_code() {
    let (rows, diags) = routes_with(
        &[
            ("gen/shop/v1/shop_grpc.pb.go", SHOP_GRPC),
            ("gen/shop/v1/shop.pb.gw.go", SHOP_GATEWAY),
            ("internal/fake/fake.go", FAKE),
            ("cmd/server/main.go", SHOP_MAIN),
        ],
        &[],
    );
    let at = "cmd/server/main.go";
    assert_eq!(
        rows,
        vec![
            row(
                "GRPC",
                "/shop.v1.ItemStore/GetItem",
                "&store{…}",
                GRPC,
                &format!("{at}:15"),
                ""
            ),
            row(
                "GRPC",
                "/shop.v1.ItemStore/WatchItems",
                "&store{…}",
                GRPC,
                &format!("{at}:15"),
                ""
            ),
            row(
                "GRPC",
                "/grpc.health.v1.Health/*",
                "newHealth()",
                GRPC,
                &format!("{at}:16"),
                ""
            ),
            row(
                "GRPC",
                "/Audit/*",
                "auditor{…}",
                GRPC,
                &format!("{at}:17"),
                "unresolved"
            ),
            row(
                "GET",
                "/v1/items/{id}",
                "shop.v1.ItemStore/GetItem",
                GRPC_GATEWAY,
                &format!("{at}:20"),
                ""
            ),
            row(
                "POST",
                "/v1/items:lookup",
                "shop.v1.ItemStore/GetItem",
                GRPC_GATEWAY,
                &format!("{at}:20"),
                ""
            ),
            row(
                "GET",
                "/healthz",
                "healthz",
                GRPC_GATEWAY,
                &format!("{at}:21"),
                ""
            ),
        ]
    );
    assert_eq!(
        messages(&diags),
        [
            "cmd/server/main.go:17: gRPC service `Audit` of example.com/other/audit: its full name is not known (no .proto in the repository has this go_package, and no generated ServiceDesc declares it); listed as `/Audit/*`",
            "cmd/server/main.go:18: `RegisterWidgetServer` is declared in internal/fake/fake.go, which is not generated gRPC code: not listed",
            "cmd/server/main.go:26: `RegisterThingServer(…)` is not listed as a gRPC service: nothing shows that example.com/other/audit is generated gRPC code or that its first argument is a *grpc.Server",
        ]
    );
}

#[test]
fn proto_files_name_services_and_give_the_gateway_rules() {
    let proto = r#"syntax = "proto3";
package shop.v1;
option go_package = "example.com/m/gen/shop/v1;shopv1";
import "google/api/annotations.proto";
service ItemStore {
  rpc GetItem(GetItemRequest) returns (Item) {
    option (google.api.http) = { get: "/v1/items/{id}" additional_bindings { get: "/v1/all/{id}" } };
  }
  rpc WatchItems(WatchRequest) returns (stream Item);
  rpc Forget(ForgetRequest) returns (Empty) {
    option (google.api.http) = { delete: "/v1/items/{id}" };
  }
}
"#;
    let billing = "package billing;\noption go_package = \"example.com/other/audit\";\nservice Audit { rpc Record(A) returns (B); }\n";
    // The generated code is present too: the proto's rules win, and rows are not doubled.
    let (rows, diags) = routes_with(
        &[
            ("gen/shop/v1/shop_grpc.pb.go", SHOP_GRPC),
            ("gen/shop/v1/shop.pb.gw.go", SHOP_GATEWAY),
            ("internal/fake/fake.go", FAKE),
            ("cmd/server/main.go", SHOP_MAIN),
        ],
        &[
            ("proto/shop.proto", proto),
            ("proto/billing.proto", billing),
        ],
    );
    let at = "cmd/server/main.go";
    assert_eq!(
        rows,
        vec![
            row(
                "GRPC",
                "/shop.v1.ItemStore/GetItem",
                "&store{…}",
                GRPC,
                &format!("{at}:15"),
                ""
            ),
            row(
                "GRPC",
                "/shop.v1.ItemStore/WatchItems",
                "&store{…}",
                GRPC,
                &format!("{at}:15"),
                ""
            ),
            row(
                "GRPC",
                "/shop.v1.ItemStore/Forget",
                "&store{…}",
                GRPC,
                &format!("{at}:15"),
                ""
            ),
            row(
                "GRPC",
                "/grpc.health.v1.Health/*",
                "newHealth()",
                GRPC,
                &format!("{at}:16"),
                ""
            ),
            row(
                "GRPC",
                "/billing.Audit/Record",
                "auditor{…}",
                GRPC,
                &format!("{at}:17"),
                ""
            ),
            row(
                "GET",
                "/v1/items/{id}",
                "shop.v1.ItemStore/GetItem",
                GRPC_GATEWAY,
                &format!("{at}:20"),
                ""
            ),
            row(
                "GET",
                "/v1/all/{id}",
                "shop.v1.ItemStore/GetItem",
                GRPC_GATEWAY,
                &format!("{at}:20"),
                ""
            ),
            row(
                "DELETE",
                "/v1/items/{id}",
                "shop.v1.ItemStore/Forget",
                GRPC_GATEWAY,
                &format!("{at}:20"),
                ""
            ),
            row(
                "GET",
                "/healthz",
                "healthz",
                GRPC_GATEWAY,
                &format!("{at}:21"),
                ""
            ),
        ]
    );
    assert_eq!(
        messages(&diags),
        [
            "cmd/server/main.go:18: `RegisterWidgetServer` is declared in internal/fake/fake.go, which is not generated gRPC code: not listed",
            "cmd/server/main.go:26: `RegisterThingServer(…)` is not listed as a gRPC service: nothing shows that example.com/other/audit is generated gRPC code or that its first argument is a *grpc.Server",
        ]
    );
}
