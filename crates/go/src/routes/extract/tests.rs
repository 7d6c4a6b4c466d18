use super::*;
use crate::file::extract as parse;

fn name(n: &str) -> Base {
    Base::Name(n.into())
}

fn methods(chain: &Chain) -> Vec<&str> {
    chain.steps.iter().map(|s| s.method.as_str()).collect()
}

#[test]
fn locals_are_followed_in_order_and_closures_get_their_router() {
    let src = r#"package p
func routes() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /a", a)
	r := chi.NewRouter()
	r.Route("/api", func(r chi.Router) {
		r.Get("/b", b)
	})
	r.Get("/c", c)
}
"#;
    let f = parse("p.go", src);
    let calls: Vec<(Base, Vec<&str>, usize)> = f
        .routes
        .calls
        .iter()
        .map(|c| (c.chain.base.clone(), methods(&c.chain), c.own_from))
        .collect();
    assert_eq!(
        calls,
        vec![
            (name("http"), vec!["NewServeMux", "HandleFunc"], 1),
            (name("chi"), vec!["NewRouter", "Route", "Get"], 2),
            (name("chi"), vec!["NewRouter", "Get"], 1),
        ]
    );
    assert_eq!(f.routes.calls[0].chain.steps[1].line, 4);
    assert_eq!(
        f.routes.calls[0].chain.steps[1].args[0].expr,
        Some(ConstExpr::Str("GET /a".into()))
    );
}

#[test]
fn fields_vars_params_results_and_call_sites_are_evidence() {
    let src = r#"package p
var router = gin.Default()
var plain = "x"
type Server struct {
	mux  *http.ServeMux
	name string
	*mux.Router
}
func New() *Server {
	return &Server{mux: http.NewServeMux(), name: "n"}
}
func newEngine() *gin.Engine { return nil }
func (s *Server) register(g *gin.RouterGroup, name string) {
	s.api = g.Group("/v1")
	g.GET("/x", h)
	register(router.Group("/api"), "a")
}
"#;
    let f = parse("p.go", src);
    let fields: Vec<&str> = f.routes.fields.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(fields, vec!["mux", "Router", "mux", "api"]);
    let vars: Vec<&str> = f.routes.vars.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(vars, vec!["router"]);
    let funcs: Vec<&str> = f.routes.funcs.iter().map(|(n, _)| n.as_str()).collect();
    // `New` returns a type of this package, which is never a router.
    assert_eq!(funcs, vec!["newEngine"]);
    assert_eq!(
        f.routes.calls[0].chain.base,
        Base::Param {
            func: "register".into(),
            index: 0,
            qualifier: Some("gin".into()),
            name: "RouterGroup".into()
        }
    );
    // `g.GET("/x", h)` forwards `h`, which is recorded too and matches no function.
    let sites: Vec<&str> = f
        .routes
        .call_sites
        .iter()
        .map(|c| c.func.as_str())
        .collect();
    assert_eq!(sites, vec!["GET", "register"]);
    let site = &f.routes.call_sites[1];
    assert_eq!(
        (site.qualifier.as_deref(), site.func.as_str()),
        (None, "register")
    );
    assert_eq!(site.args.len(), 1);
    assert_eq!(site.args[0].1.base, name("router"));
    assert_eq!(methods(&site.args[0].1), vec!["Group"]);
}

#[test]
fn range_loops_over_literal_slices_are_recorded() {
    let src = r#"package p
func setup(mgr ctrl.Manager) {
	for _, p := range []string{"/a", "/b"} {
		mgr.AddMetricsServerExtraHandler(p, h)
	}
	profiles := []string{"heap", Goroutine}
	for _, p := range profiles {
		mgr.AddMetricsServerExtraHandler("/debug/pprof/"+p, pprof.Handler(p))
	}
	for i := range profiles {
		mgr.AddMetricsServerExtraHandler(i, h)
	}
}
"#;
    let f = parse("p.go", src);
    let loops: Vec<Vec<(String, Vec<ConstExpr>)>> = f
        .routes
        .calls
        .iter()
        .filter(|c| c.chain.steps[0].method == "AddMetricsServerExtraHandler")
        .map(|c| c.loops.clone())
        .collect();
    let s = |v: &str| ConstExpr::Str(v.into());
    assert_eq!(
        loops,
        vec![
            vec![("p".to_string(), vec![s("/a"), s("/b")])],
            vec![(
                "p".to_string(),
                vec![
                    s("heap"),
                    ConstExpr::Ref {
                        qualifier: None,
                        name: "Goroutine".into()
                    }
                ]
            )],
            vec![],
        ]
    );
    assert_eq!(
        f.routes.calls[1].chain.steps[0].args[1].text,
        "pprof.Handler(p)"
    );
}

#[test]
fn local_strings_and_disabled_metrics_are_carried_into_arguments() {
    let src = r#"package p
func main() {
	base := "/api"
	opts := ctrl.Options{Metrics: server.Options{BindAddress: "0"}}
	mgr, _ := ctrl.NewManager(cfg, opts)
	mux := http.NewServeMux()
	mux.Handle(base+"/x", h)
}
"#;
    let f = parse("p.go", src);
    let new_manager = &f.routes.calls[0].chain.steps[0];
    assert_eq!(new_manager.method, "NewManager");
    assert!(new_manager.args[1].disables_metrics);
    assert!(!new_manager.args[0].disables_metrics);
    let handle = &f.routes.calls[1].chain.steps[1];
    assert_eq!(
        handle.args[0].expr,
        Some(ConstExpr::Concat(vec![
            ConstExpr::Str("/api".into()),
            ConstExpr::Str("/x".into())
        ]))
    );
}

#[test]
fn deeply_nested_calls_and_chains_do_not_overflow_or_stall() {
    let depth = 20_000;
    let mut src = String::from(
        "package p\nfunc f() {\n\tmux := http.NewServeMux()\n\tmux.Handle(\"/deep\", ",
    );
    src.push_str(&"g(".repeat(depth));
    src.push_str(&")".repeat(depth));
    src.push_str(")\n\tmux.Handle(\"/nested\", ");
    src.push_str(&"mux.Handle(\"/x\", ".repeat(depth));
    src.push('h');
    src.push_str(&")".repeat(depth));
    src.push_str(")\n\tr");
    src.push_str(&".Group(\"/a\")".repeat(depth));
    src.push_str(".GET(\"/b\", h)\n}\n");
    // Only this extractor runs, on a parse made here: the time is its own.
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .unwrap();
    let tree = parser.parse(&src, None).unwrap();
    let root = tree.root_node();
    let mut c = root.walk();
    let decl = root
        .named_children(&mut c)
        .find(|n| n.kind_name() == "function_declaration")
        .unwrap();
    let body = decl.child_by_field_id(FIELD.body).unwrap();
    let ctx = crate::syntax::Kinds::of(root).func("f".into(), body, Some(decl), None, None);
    let mut f = GoFile::default();
    let started = std::time::Instant::now();
    extract(&ctx, src.as_bytes(), &mut f);
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    let first = &f.routes.calls[0].chain.steps[1];
    assert_eq!(first.method, "Handle");
    assert_eq!(first.args[1].text, "g(…)");
    // The over-long Group chain is not followed: its value is unknown.
    let last = f.routes.calls.last().map(|c| &c.chain);
    assert!(last.is_some_and(|c| c.base == Base::Opaque));
}

#[test]
fn handler_names_are_short() {
    let src = r#"package p
func f() {
	s.Register("/a", &webhook.Admission{Handler: &pod.Mutator{Client: c, Decoder: d}})
	s.Register("/b", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
	})
	s.Register("/c", s.disaggregatedPrefillHandler(APITypeChatCompletions, andAVeryLongArgumentName))
	s.Register("/d", promhttp.HandlerFor(
		registry, promhttp.HandlerOpts{},
	))
}
"#;
    let f = parse("p.go", src);
    let handlers: Vec<&str> = f
        .routes
        .calls
        .iter()
        .map(|c| c.chain.steps[0].args[1].text.as_str())
        .collect();
    assert_eq!(
        handlers,
        vec![
            "&webhook.Admission{Handler: &pod.Mutator{…}}",
            "(anonymous func)",
            "s.disaggregatedPrefillHandler(…)",
            "promhttp.HandlerFor(registry, promhttp.HandlerOpts{})",
        ]
    );
}
