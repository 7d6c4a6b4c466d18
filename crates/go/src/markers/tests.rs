use super::*;
use crate::file::extract as extract_file;
use model::{Area, Gvk};

fn args(s: &str) -> Vec<(String, Vec<String>)> {
    parse_args(s).unwrap()
}

fn a(k: &str, v: &[&str]) -> (String, Vec<String>) {
    (k.to_string(), v.iter().map(|s| s.to_string()).collect())
}

#[test]
fn tokenizer_lists_quotes_and_braces() {
    assert_eq!(
        args("groups=apps;batch,resources=deployments,verbs=get;list;watch"),
        vec![
            a("groups", &["apps", "batch"]),
            a("resources", &["deployments"]),
            a("verbs", &["get", "list", "watch"]),
        ]
    );
    assert_eq!(
        args(r#"groups="",resources=pods,verbs={get, "list"}"#),
        vec![
            a("groups", &[""]),
            a("resources", &["pods"]),
            a("verbs", &["get", "list"])
        ]
    );
    // `=`, `,` and `;` inside quotes belong to the value; backquotes are raw.
    assert_eq!(
        args(
            r#"name="Ready",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status",description="a, b; c""#
        ),
        vec![
            a("name", &["Ready"]),
            a("type", &["string"]),
            a(
                "JSONPath",
                &[".status.conditions[?(@.type=='Ready')].status"]
            ),
            a("description", &["a, b; c"]),
        ]
    );
    assert_eq!(
        args(r"JSONPath=`.spec.x`,priority=1"),
        vec![a("JSONPath", &[".spec.x"]), a("priority", &["1"])]
    );
    // An unquoted value may hold `=` (it ends only at `,` or `;`).
    assert_eq!(
        args("JSONPath=.status.conditions[?(@.type=='Ready')].reason"),
        vec![a(
            "JSONPath",
            &[".status.conditions[?(@.type=='Ready')].reason"]
        )]
    );
    assert_eq!(args("status"), vec![a("status", &["true"])]);
    assert_eq!(args(r#"name="a \"q\"""#), vec![a("name", &["a \"q\""])]);
}

#[test]
fn tokenizer_reports_malformed_values() {
    assert_eq!(
        parse_args(r#"name="open"#),
        Err("unterminated quoted string".into())
    );
    assert_eq!(
        parse_args("verbs={get,list"),
        Err("unterminated `{` list".into())
    );
    assert_eq!(
        parse_args(r#"name="a"b"#),
        Err("unexpected `b` after the value of `name`".into())
    );
    assert_eq!(parse_args("=x"), Err("an argument without a name".into()));
    assert_eq!(
        parse_args("name=`raw"),
        Err("unterminated backquoted string".into())
    );
}

#[test]
fn marker_names_and_spellings() {
    let names = |c: &str| marker_of(c).map(|(n, p)| (n, p.unwrap()));
    assert_eq!(
        names("// +kubebuilder:rbac:groups=apps,verbs=get"),
        Some((RBAC, vec![a("groups", &["apps"]), a("verbs", &["get"])]))
    );
    assert_eq!(
        names("//+kubebuilder:rbac:verbs=get"),
        Some((RBAC, vec![a("verbs", &["get"])]))
    );
    assert_eq!(
        names("//\t+kubebuilder:object:root=true"),
        Some((OBJECT_ROOT, vec![a("", &["true"])]))
    );
    assert_eq!(
        names("// +kubebuilder:subresource:status"),
        Some((SUBRESOURCE_STATUS, vec![]))
    );
    assert_eq!(
        names("// +kubebuilder:storageversion"),
        Some((STORAGE_VERSION, vec![]))
    );
    // Not markers: block comments, prose before the `+`, other marker names.
    assert_eq!(names("/* +kubebuilder:rbac:verbs=get */"), None);
    assert_eq!(names("// see +kubebuilder:rbac:verbs=get"), None);
    assert_eq!(names("// +kubebuilder:validation:Minimum=0"), None);
    assert_eq!(names("// +kubebuilder:rbacx:verbs=get"), None);
    assert_eq!(names("// +kubebuilder:object:generate=true"), None);
}

fn input(path: &str, src: &str) -> GoInput {
    GoInput {
        facts: extract_file(path, src),
        area: if path.starts_with("test/") {
            Area::Samples
        } else {
            Area::Component
        },
    }
}

fn project(files: &[(&str, &str)]) -> (MarkerFindings, Vec<Diagnostic>) {
    let inputs: Vec<GoInput> = files.iter().map(|(p, s)| input(p, s)).collect();
    let mut diags: Vec<Diagnostic> = inputs
        .iter()
        .flat_map(|i| i.facts.diagnostics.clone())
        .collect();
    let index = crate::test_support::index(&inputs, "example.com/op", &mut diags);
    let found = resolve(&inputs, &index, &mut diags);
    (found, diags)
}

#[allow(clippy::too_many_arguments)]
fn rule(
    role: &str,
    groups: &[&str],
    resources: &[&str],
    names: &[&str],
    verbs: &[&str],
    area: Area,
    file: &str,
    line: u32,
) -> RbacRule {
    let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    RbacRule {
        role: role.into(),
        groups: v(groups),
        resources: v(resources),
        resource_names: v(names),
        verbs: v(verbs),
        origin: Origin::Marker,
        templated: false,
        bundled: false,
        area,
        sources: vec![SourceRef::new(file, line)],
    }
}

#[test]
fn rbac_markers_in_every_spelling() {
    let src = r#"package controller

//+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=pods;services,verbs=get
// +kubebuilder:rbac:groups=core,resources=configmaps,resourceNames=cfg;other,verbs=get;update
// +kubebuilder:rbac:groups=apps;batch,resources=deployments;jobs,verbs=*
// +kubebuilder:rbac:urls=/metrics;/healthz,verbs=get
// +kubebuilder:rbac:groups="",namespace=system,resources=secrets,verbs=get
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get,roleName=leader
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get,namespace=ops,roleName=ops-reader
// +kubebuilder:rbac:groups=apps,resources=deployments,verb=get

// Reconcile is documented, and markers in its doc comment count too.
// +kubebuilder:rbac:groups=example.io,resources=widgets/status,verbs={get,update,patch}
func (r *R) Reconcile() {
	// +kubebuilder:rbac:groups=apps,resources=daemonsets,verbs=get
}

type T struct {
	// +kubebuilder:rbac:groups=apps,resources=statefulsets,verbs=get
	F int
}
"#;
    let sample = "package e2e\n// +kubebuilder:rbac:groups=\"\",resources=pods,verbs=list\n";
    let (found, diags) = project(&[("internal/controller/r.go", src), ("test/e2e/e.go", sample)]);
    let f = "internal/controller/r.go";
    let c = Area::Component;
    let m = "markers:internal/controller";
    assert_eq!(
        found.rbac,
        vec![
            rule(
                m,
                &["apps"],
                &["deployments"],
                &[],
                &["get", "list", "watch"],
                c,
                f,
                3
            ),
            rule(m, &[""], &["pods", "services"], &[], &["get"], c, f, 4),
            rule(
                m,
                &[""],
                &["configmaps"],
                &["cfg", "other"],
                &["get", "update"],
                c,
                f,
                5
            ),
            rule(
                m,
                &["apps", "batch"],
                &["deployments", "jobs"],
                &[],
                &["*"],
                c,
                f,
                6
            ),
            rule(m, &[], &["/metrics", "/healthz"], &[], &["get"], c, f, 7),
            rule(
                "Role/system/markers:internal/controller",
                &[""],
                &["secrets"],
                &[],
                &["get"],
                c,
                f,
                8
            ),
            rule(
                "ClusterRole/leader",
                &["coordination.k8s.io"],
                &["leases"],
                &[],
                &["get"],
                c,
                f,
                9
            ),
            rule(
                "Role/ops/ops-reader",
                &["apps"],
                &["deployments"],
                &[],
                &["get"],
                c,
                f,
                10
            ),
            rule(
                m,
                &["example.io"],
                &["widgets/status"],
                &[],
                &["get", "update", "patch"],
                c,
                f,
                14
            ),
            rule(
                "markers:test/e2e",
                &[""],
                &["pods"],
                &[],
                &["list"],
                Area::Samples,
                "test/e2e/e.go",
                2
            ),
        ]
    );
    let messages: Vec<(u32, &str)> = diags.iter().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(
        messages,
        vec![
            (
                16,
                "+kubebuilder:rbac marker inside a function body: controller-gen ignores it there, so it is not listed"
            ),
            (
                20,
                "+kubebuilder:rbac marker inside a type body: controller-gen ignores it there, so it is not listed"
            ),
            (
                11,
                "unknown argument `verb` in a +kubebuilder:rbac marker; it is ignored"
            ),
            (
                11,
                "+kubebuilder:rbac marker without verbs; it grants nothing and is not listed"
            ),
        ]
    );
}

#[test]
fn webhook_markers_become_rows_with_rules() {
    let src = r#"package webhook

// +kubebuilder:webhook:path=/mutate-example-io-v1-widget,mutating=true,failurePolicy=fail,sideEffects=None,groups=example.io,resources=widgets,verbs=create;update,versions=v1,name=mwidget.example.io,admissionReviewVersions=v1
//+kubebuilder:webhook:verbs=create;delete,path=/validate-pods,mutating=false,failurePolicy=Ignore,groups=core,resources=pods,versions=v1,name="vpod.example.io"
// +kubebuilder:webhook:path=/x,groups=apps,resources=deployments,verbs=create,versions=v1,name=broken.example.io
// +kubebuilder:webhook:path="/unterminated,mutating=true
"#;
    let (found, diags) = project(&[("internal/webhook/w.go", src)]);
    let f = "internal/webhook/w.go";
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        found.webhooks,
        vec![
            Webhook {
                name: "mwidget.example.io".into(),
                kind: WebhookType::Mutating,
                path: "/mutate-example-io-v1-widget".into(),
                failure_policy: "Fail".into(),
                service: String::new(),
                configuration: String::new(),
                resolved_service: String::new(),
                substitutions: Vec::new(),
                templated: false,
                bundled: false,
                origin: Origin::Marker,
                object: None,
                rules: vec![WebhookRule {
                    groups: s(&["example.io"]),
                    versions: s(&["v1"]),
                    resources: s(&["widgets"]),
                    scope: String::new(),
                    operations: s(&["CREATE", "UPDATE"]),
                }],
                area: Area::Component,
                sources: vec![SourceRef::new(f, 3)],
            },
            Webhook {
                name: "vpod.example.io".into(),
                kind: WebhookType::Validating,
                path: "/validate-pods".into(),
                failure_policy: "Ignore".into(),
                service: String::new(),
                configuration: String::new(),
                resolved_service: String::new(),
                substitutions: Vec::new(),
                templated: false,
                bundled: false,
                origin: Origin::Marker,
                object: None,
                rules: vec![WebhookRule {
                    groups: s(&[""]),
                    versions: s(&["v1"]),
                    resources: s(&["pods"]),
                    scope: String::new(),
                    operations: s(&["CREATE", "DELETE"]),
                }],
                area: Area::Component,
                sources: vec![SourceRef::new(f, 4)],
            },
        ]
    );
    let messages: Vec<(u32, &str)> = diags.iter().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(
        messages,
        vec![
            (
                6,
                "malformed +kubebuilder:webhook marker: unterminated quoted string; it is not listed"
            ),
            (
                5,
                "+kubebuilder:webhook marker `broken.example.io` has no mutating argument: mutating or validating is unknown, so it is not listed"
            ),
        ]
    );
}

const GROUP_VERSION: &str = "package v1\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\nvar GroupVersion = schema.GroupVersion{Group: \"example.io\", Version: \"v1\"}\n";

/// API types with every spelling of the type-level markers, and their mistakes.
const WIDGET_TYPES: &str = r#"package v1

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:path=widgets,scope="Cluster",shortName=wd;wdg,categories={all,example},singular=widget
// +kubebuilder:printcolumn:name="Ready",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`,priority=1,description="Time, since creation"
// +kubebuilder:storageversion

// Widget is a kind; markers sit in the group above its doc comment.
type Widget struct{}

// +kubebuilder:object:root=true

// WidgetList is a list wrapper, not a kind.
type WidgetList struct{}

// Gadget has its marker in its doc comment, next to other markers.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas
// +kubebuilder:validation:XValidation:rule="self.a == self.b"
type Gadget struct {
	// +kubebuilder:printcolumn:name=Inner,type=string,JSONPath=.x
	F int
}

// +kubebuilder:object:root=true

// +kubebuilder:printcolumn:name=Far,type=string,JSONPath=.far

// Gizmo gets the group above its doc comment, not the one above that.
type Gizmo struct{}

var x = 1

// +kubebuilder:object:root=true
type (
	// +kubebuilder:object:root=true
	// +kubebuilder:printcolumn:name=P,type=integer,JSONPath=.p,priority=high
	Grouped struct{}
	Plain struct{}
)

// +kubebuilder:object:root=false
type NotRoot struct{}
"#;

/// The widget types next to their group/version, and a marked type in a package whose
/// group is unknown.
fn widget_project() -> (MarkerFindings, Vec<Diagnostic>) {
    project(&[
        ("api/v1/groupversion_info.go", GROUP_VERSION),
        ("api/v1/types.go", WIDGET_TYPES),
        (
            "internal/config/c.go",
            "package config\n// +kubebuilder:object:root=true\ntype Settings struct{}\n",
        ),
    ])
}

#[test]
fn type_markers_become_api_types() {
    let (found, _) = widget_project();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let f = "api/v1/types.go";
    let base = |kind: &str, line: u32| ApiType {
        group: "example.io".into(),
        version: "v1".into(),
        kind: kind.into(),
        root: true,
        scope: "Namespaced".into(),
        plural: String::new(),
        singular: String::new(),
        short_names: vec![],
        categories: vec![],
        printer_columns: vec![],
        subresources: vec![],
        storage_version: false,
        area: Area::Component,
        sources: vec![SourceRef::new(f, line)],
    };
    let col =
        |name: &str, kind: &str, path: &str, description: &str, priority: i32| PrinterColumn {
            name: name.into(),
            kind: kind.into(),
            json_path: path.into(),
            description: description.into(),
            format: String::new(),
            priority,
        };
    assert_eq!(
        found.api_types,
        vec![
            ApiType {
                scope: "Cluster".into(),
                plural: "widgets".into(),
                singular: "widget".into(),
                short_names: s(&["wd", "wdg"]),
                categories: s(&["all", "example"]),
                printer_columns: vec![
                    col(
                        "Ready",
                        "string",
                        ".status.conditions[?(@.type=='Ready')].status",
                        "",
                        0
                    ),
                    col(
                        "Age",
                        "date",
                        ".metadata.creationTimestamp",
                        "Time, since creation",
                        1
                    ),
                ],
                subresources: s(&["status"]),
                storage_version: true,
                ..base("Widget", 11)
            },
            ApiType {
                subresources: s(&["scale"]),
                ..base("Gadget", 22)
            },
            ApiType {
                root: false,
                printer_columns: vec![col("Far", "string", ".far", "", 0)],
                ..base("Gizmo", 32)
            },
            ApiType {
                printer_columns: vec![col("P", "integer", ".p", "", 0)],
                ..base("Grouped", 40)
            },
        ]
    );
}

#[test]
fn type_marker_mistakes_and_unknown_groups_are_diagnostics() {
    let (_, diags) = widget_project();
    let f = "api/v1/types.go";
    let messages: Vec<(&str, u32, &str)> = diags
        .iter()
        .map(|d| (d.file.as_str(), d.line, d.message.as_str()))
        .collect();
    assert_eq!(
        messages,
        vec![
            (
                f,
                39,
                "printcolumn priority `high` is not a number; 0 is shown"
            ),
            (
                "internal/config/c.go",
                3,
                "kubebuilder markers on type Settings but the API group/version of its package example.com/op/internal/config is unknown (no GroupVersion or +groupName= found); map it under [groups] in projects.toml"
            ),
        ]
    );
}

fn served(kind: WebhookType, path: &str, gvk: (&str, &str, &str), line: u32) -> Webhook {
    Webhook {
        name: String::new(),
        kind,
        path: path.into(),
        failure_policy: String::new(),
        service: String::new(),
        configuration: String::new(),
        resolved_service: String::new(),
        substitutions: Vec::new(),
        templated: false,
        bundled: false,
        origin: Origin::Code,
        object: Some(Gvk {
            group: gvk.0.into(),
            version: gvk.1.into(),
            kind: gvk.2.into(),
        }),
        rules: vec![],
        area: Area::Component,
        sources: vec![SourceRef::new("cmd/main.go", line)],
    }
}

#[test]
fn marker_paths_are_checked_against_served_and_deployed_paths() {
    let src = r#"package v1
// +kubebuilder:webhook:path=/mutate-widgets,mutating=true,failurePolicy=fail,groups=example.io,resources=widgets,verbs=create,versions=v1,name=w.example.io
// +kubebuilder:webhook:path=/validate-example-io-v1-widget,mutating=false,failurePolicy=fail,groups=example.io,resources=widgets,verbs=create,versions=v1,name=vw.example.io
// +kubebuilder:webhook:path=/validate-gizmos,mutating=false,failurePolicy=fail,groups=example.io,resources=gizmos,verbs=create,versions=v1,name=g.example.io
"#;
    let (found, _) = project(&[("api/v1/webhook.go", src)]);
    let mut webhooks = found.webhooks;
    webhooks.push(served(
        WebhookType::Mutating,
        "/mutate-example-io-v1-widget",
        ("example.io", "v1", "Widget"),
        30,
    ));
    webhooks.push(served(
        WebhookType::Validating,
        "/validate-example-io-v1-widget",
        ("example.io", "v1", "Widget"),
        31,
    ));
    // Gizmo's plural is unknown (no CRD, no resource marker): no comparison, no guess.
    webhooks.push(served(
        WebhookType::Validating,
        "/validate-example-io-v1-gizmo",
        ("example.io", "v1", "Gizmo"),
        32,
    ));
    let mut manifest = served(
        WebhookType::Mutating,
        "/mutate-example-io-v1-widget",
        ("", "", ""),
        12,
    );
    manifest.origin = Origin::Manifest;
    manifest.object = None;
    manifest.name = "w.example.io".into();
    manifest.configuration = "mutating-webhook-configuration".into();
    manifest.sources = vec![SourceRef::new("config/webhook/manifests.yaml", 12)];
    webhooks.push(manifest);
    let crds = vec![Crd {
        group: "example.io".into(),
        kind: "Widget".into(),
        plural: "widgets".into(),
        scope: "Namespaced".into(),
        versions: vec![],
        area: Area::Component,
        sources: vec![],
        ..Default::default()
    }];
    let diags = check_webhook_paths(&webhooks, &crds, &[]);
    let messages: Vec<(&str, u32, &str)> = diags
        .iter()
        .map(|d| (d.file.as_str(), d.line, d.message.as_str()))
        .collect();
    assert_eq!(
        messages,
        vec![
            (
                "api/v1/webhook.go",
                2,
                "webhook marker `w.example.io` has path /mutate-widgets, but controller-runtime serves the mutating webhook of example.io/v1 Widget on /mutate-example-io-v1-widget (cmd/main.go:30)"
            ),
            (
                "api/v1/webhook.go",
                2,
                "webhook marker `w.example.io` has path /mutate-widgets, but the webhook of that name in mutating-webhook-configuration (config/webhook/manifests.yaml:12) has path /mutate-example-io-v1-widget"
            ),
        ]
    );
}
