use super::*;

/// Analyzes `(path, text)` files as one project.
fn project(files: &[(&str, &str)]) -> (RustFindings, Vec<String>) {
    project_of_packages(files, &[])
}

/// `project`, with the repository's packages.
fn project_of_packages(
    files: &[(&str, &str)],
    packages: &[CargoPackage],
) -> (RustFindings, Vec<String>) {
    let mut facts: Vec<RustFile> = files
        .iter()
        .map(|(p, t)| extract(p, t, Area::Component))
        .collect();
    let mut diagnostics: Vec<Diagnostic> =
        facts.iter().flat_map(|f| f.diagnostics.clone()).collect();
    names::resolve_files(&mut facts, packages, &mut diagnostics);
    let findings = resolve(&facts, packages, &[], &mut diagnostics);
    let d = diagnostics
        .iter()
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect();
    (findings, d)
}

fn watches(c: &Controller) -> Vec<String> {
    c.watches
        .iter()
        .map(|w| {
            format!(
                "{} {}/{} {} :{}",
                w.relation.label(),
                w.group,
                w.version,
                w.kind,
                w.sources[0].line
            )
        })
        .collect()
}

const CONTROLLER: &str = r#"use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::api::apps::v1::Deployment;
use kube::{api::{Api, Patch, PatchParams}, runtime::{controller::Controller, watcher}};
async fn run(client: Client) {
    let pods: Api<corev1::Pod> = Api::all(client.clone());
    Controller::new(Api::<Deployment>::all(client.clone()), watcher::Config::default())
        .owns(pods, watcher::Config::default())
        .watches(Api::<corev1::Service>::all(client), watcher::Config::default(), |_| None)
        .run(reconcile, error_policy, ctx)
        .await;
}
async fn reconcile(d: Arc<Deployment>, ctx: Arc<Ctx>) {
    let cms = Api::<corev1::ConfigMap>::namespaced(ctx.client.clone(), "ns");
    cms.create(&pp, &cm).await;
    cms.replace("a", &pp, &cm).await;
    cms.patch("a", &pp, &Patch::Merge(&cm)).await;
    cms.patch("a", &pp, &Patch::Apply(&cm)).await;
    helper(&ctx).await;
}
async fn helper(ctx: &Ctx) {
    let d: Api<Deployment> = Api::namespaced(ctx.client.clone(), "ns");
    d.patch_status("a", &pp, &p).await;
    d.delete("a", &dp).await;
    d.delete_collection(&dp, &lp).await;
}
fn generic<K>(api: Api<K>) {
    api.delete("x", &dp);
}
"#;

#[test]
fn controller_chain_aliases_turbofish_and_owns_watches() {
    let (f, _) = project(&[("src/main.rs", CONTROLLER)]);
    assert_eq!(f.controllers.len(), 1);
    let c = &f.controllers[0];
    assert_eq!(c.name, "deployment");
    assert_eq!(c.reconciler, "reconcile");
    assert_eq!(
        watches(c),
        [
            "For apps/v1 Deployment :6",
            "Owns /v1 Pod :7",
            "Watches /v1 Service :8",
        ]
    );
}

#[test]
fn stream_controllers_are_found_with_their_kinds_unknown() {
    let src = r#"use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::{Api, runtime::{Controller, reflector, watcher}};
async fn run(client: Client, stream: S, reader: R) {
    let secrets: Api<Secret> = Api::all(client.clone());
    Controller::for_stream(stream, reader)
        .owns_with(secrets, (), watcher::Config::default())
        .owns_shared_stream(other)
        .watches_stream(more, |_| None)
        .run(reconcile, error_policy, ctx)
        .await;
}
async fn reconcile(c: Arc<ConfigMap>, ctx: Arc<Ctx>) {}
"#;
    let (f, d) = project(&[("src/main.rs", src)]);
    assert_eq!(f.controllers.len(), 1);
    let c = &f.controllers[0];
    // The kind it is for is unknown: the controller is named by its reconciler.
    assert_eq!(c.name, "reconcile");
    assert_eq!(
        watches(c),
        [
            "For ?/ ? :5",
            "Owns /v1 Secret :6",
            "Owns ?/ ? :7",
            "Watches ?/ ? :8",
        ]
    );
    assert_eq!(
        d,
        [
            "src/main.rs:5: For watch: kind unknown: `for_stream` takes a stream of objects, which portolan does not follow to its type",
            "src/main.rs:7: Owns watch: kind unknown: `owns_shared_stream` takes a stream of objects, which portolan does not follow to its type",
            "src/main.rs:8: Watches watch: kind unknown: `watches_stream` takes a stream of objects, which portolan does not follow to its type",
        ]
    );
}

/// Each row as `verb Kind :[lines]`.
fn verbs_kinds_lines(rows: &[model::Operation]) -> Vec<String> {
    rows.iter()
        .map(|o| {
            format!(
                "{} {} :{:?}",
                o.verb,
                o.kind,
                o.sources.iter().map(|s| s.line).collect::<Vec<_>>()
            )
        })
        .collect()
}

#[test]
fn every_write_verb_followed_into_helpers() {
    let (f, d) = project(&[("src/main.rs", CONTROLLER)]);
    let ops = verbs_kinds_lines(&f.controllers[0].operations);
    assert_eq!(
        ops,
        [
            "apply ConfigMap :[17]",
            "create ConfigMap :[14]",
            "delete Deployment :[23]",
            "delete_all_of Deployment :[24]",
            "patch ConfigMap :[16]",
            "status_patch Deployment :[22]",
            "update ConfigMap :[15]",
        ]
    );
    // The generic helper is not reached from reconcile: a package operation of unknown kind.
    assert_eq!(f.package_operations.len(), 1);
    assert_eq!(f.package_operations[0].group, "?");
    assert_eq!(
        d,
        ["src/main.rs:27: `delete` write: kind unknown: `K` is a generic parameter"]
    );
}

#[test]
fn watcher_informers_and_unknown_apis() {
    let src = r#"use kube::runtime::watcher;
use kube::Api;
use k8s_openapi::api::batch::v1::Job;
fn start(client: Client, other: Thing) {
    let jobs: Api<Job> = Api::all(client.clone());
    let w = watcher(jobs, watcher::Config::default());
    let r = reflector(writer, watcher(other.api, watcher::Config::default()));
}
"#;
    let (f, d) = project(&[("src/lib.rs", src)]);
    let got: Vec<String> = f
        .informers
        .iter()
        .map(|i| {
            format!(
                "{} {} {} :{}",
                i.function, i.group, i.kind, i.sources[0].line
            )
        })
        .collect();
    assert_eq!(got, ["start batch Job :6", "start ? ? :7"]);
    assert_eq!(
        d,
        [
            "src/lib.rs:7: watcher: kind unknown: the `Api` passed here could not be followed to its type"
        ]
    );
}

#[test]
fn axum_and_actix_routes() {
    let axum = r#"use axum::{Router, routing::{get, post}};
fn app() -> Router {
    let admin = Router::new().route("/stats", get(stats));
    Router::new()
        .route("/", get(index).post(create))
        .nest("/admin", admin)
        .nest("/v1", v1())
        .route(PATH, get(x))
}
fn v1() -> Router {
    Router::new().route("/items/{id}", axum::routing::delete(remove))
}
"#;
    let actix = r#"use actix_web::{get, post, web, App};
#[get("/health")]
async fn health() -> &'static str { "ok" }
#[post("/items")]
async fn add() {}
fn config() {
    App::new()
        .service(health)
        .service(web::scope("/api").service(add).service(web::resource("/users").route(web::get().to(users))))
        .route("/ping", web::get().to(ping));
}
"#;
    let (f, d) = project(&[("a/src/lib.rs", axum), ("b/src/lib.rs", actix)]);
    let got: Vec<String> = f
        .http_endpoints
        .iter()
        .map(|e| {
            format!(
                "{} {} {} {} :{}",
                e.framework, e.method, e.path, e.handler, e.sources[0].line
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "axum GET /admin/stats stats :3",
            "axum GET / index :5",
            "axum POST / create :5",
            "axum GET {PATH} x :8",
            "axum DELETE /v1/items/{id} remove :11",
            "actix-web GET /health health :2",
            "actix-web POST /api/items add :4",
            "actix-web GET /api/users users :9",
            "actix-web GET /ping ping :10",
        ]
    );
    assert_eq!(
        d,
        ["a/src/lib.rs:8: route path `{PATH}` is not a string literal"]
    );
}

#[test]
fn tonic_services_take_their_names_and_methods_from_the_protos() {
    let server = r#"use tonic::transport::Server;
use crate::pb::shop::v1::item_store_server::ItemStoreServer;
use crate::pb::ledger_server;
async fn serve(addr: std::net::SocketAddr, health: HealthService) -> Result<(), tonic::transport::Error> {
    Server::builder()
        .add_service(ItemStoreServer::new(Store::default()))
        .add_service(ledger_server::LedgerServer::with_interceptor(Ledger {}, check))
        .add_service(crate::pb::v2::item_store_server::ItemStoreServer::new(Store2))
        .add_optional_service(Some(AuditServer::new(Audit)))
        .add_service(health)
        .serve(addr)
        .await
}
fn not_tonic(b: Builder) {
    b.add_service(ItemStoreServer::new(Store::default()));
}
"#;
    let proto = manifests::proto::parse(
        "proto/store.proto",
        "package shop.v1;\nservice ItemStore {\n  rpc GetItem(A) returns (B);\n  rpc WatchItems(A) returns (stream B);\n}\nservice ledger { }\n",
    );
    // A second `ItemStore`, in package `v2`: told apart by the module path.
    let proto2 = manifests::proto::parse(
        "proto/v2.proto",
        "package v2;\nservice ItemStore { rpc Get(A) returns (B); }\n",
    );
    let facts = vec![extract("srv/src/server.rs", server, Area::Component)];
    let mut diagnostics = Vec::new();
    let f = resolve(&facts, &[], &[proto, proto2], &mut diagnostics);
    let got: Vec<String> = f
        .http_endpoints
        .iter()
        .map(|e| {
            format!(
                "{} {} {} {} {}:{}",
                e.framework, e.method, e.path, e.handler, e.unresolved, e.sources[0].line
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "tonic GRPC /shop.v1.ItemStore/GetItem Store::default() false:6",
            "tonic GRPC /shop.v1.ItemStore/WatchItems Store::default() false:6",
            "tonic GRPC /shop.v1.ledger/* Ledger {…} false:7",
            "tonic GRPC /v2.ItemStore/Get Store2 false:8",
            "tonic GRPC /Audit/* Audit true:9",
        ]
    );
    let d: Vec<String> = diagnostics
        .iter()
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect();
    assert_eq!(
        d,
        [
            "srv/src/server.rs:9: gRPC service `Audit`: its full name is not known (no .proto file in the repository declares it); listed as `/Audit/*`",
            "srv/src/server.rs:10: tonic service `health` is not a generated `…Server::new(…)` call: not listed",
        ]
    );
}

#[test]
fn clap_flags_env_and_binaries() {
    let main = r#"use clap::Parser;
#[derive(Parser)]
struct Opts {
    /// Port to serve on.
    #[arg(long, env = "PORT", default_value_t = 8080)]
    port: u16,
    #[clap(short = 'v', long = "verbose")]
    verbose: bool,
    /// A positional argument is not a flag.
    file: String,
}
fn main() {
    let o = Opts::parse();
    let home = std::env::var("HOME");
}
"#;
    let (f, _) = project(&[("tool/src/bin/probe.rs", main)]);
    assert_eq!(f.binaries.len(), 1);
    let b = &f.binaries[0];
    assert_eq!((b.name.as_str(), b.package.as_str()), ("probe", "tool"));
    let flags: Vec<String> = b
        .flags
        .iter()
        .map(|fl| {
            format!(
                "--{} -{} {} [{}] {}",
                fl.name, fl.shorthand, fl.kind, fl.default, fl.help
            )
        })
        .collect();
    assert_eq!(
        flags,
        [
            "--port - u16 [8080] Port to serve on.",
            "--verbose -v bool [] "
        ]
    );
    let env: Vec<&str> = b.env.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(env, ["HOME", "PORT"]);
}

fn operations(c: &Controller) -> Vec<String> {
    c.operations
        .iter()
        .map(|o| {
            format!(
                "{} {}/{} {} :{:?}",
                o.verb,
                o.group,
                o.version,
                o.kind,
                o.sources.iter().map(|s| s.line).collect::<Vec<_>>()
            )
        })
        .collect()
}

fn package_operations(f: &RustFindings) -> Vec<String> {
    f.package_operations
        .iter()
        .map(|o| {
            format!(
                "{} {} {} {}/{} {} {:?} :{}",
                o.function,
                o.verb,
                o.package,
                o.group,
                o.version,
                o.kind,
                o.area,
                o.sources[0].line
            )
        })
        .collect()
}

const TEST_ONLY: &str = r#"use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::{Api, CustomResource, runtime::{Controller, watcher}};
use actix_web::get;
pub async fn run(client: Client) {
    let cms: Api<ConfigMap> = Api::all(client);
    cms.create(&pp, &cm).await;
}
#[cfg(test)]
mod tests {
    use super::*;
    #[derive(CustomResource)]
    #[kube(group = "test.io", version = "v1", kind = "Probe")]
    struct ProbeSpec {}
    #[get("/fake")]
    async fn fake() {}
    async fn setup(client: Client) {
        Controller::new(Api::<Secret>::all(client.clone()), watcher::Config::default())
            .run(reconcile, error_policy, ctx);
        let s: Api<Secret> = Api::default_namespaced(client);
        s.delete("x", &dp).await;
    }
    #[tokio::test]
    async fn creates() {
        let s: Api<Secret> = Api::default_namespaced(client());
        s.create(&pp, &secret).await;
    }
}
#[test]
fn top_level_test() {
    let cms: Api<ConfigMap> = Api::all(client());
    cms.patch("x", &pp, &p);
}
"#;

#[test]
fn test_only_code_gives_sample_rows() {
    let (f, _) = project(&[("op/src/lib.rs", TEST_ONLY)]);
    assert_eq!(
        package_operations(&f),
        [
            "run create op /v1 ConfigMap Component :6",
            "top_level_test patch op /v1 ConfigMap Samples :31",
            "setup delete op /v1 Secret Samples :20",
            "creates create op /v1 Secret Samples :25",
        ]
    );
    let controllers: Vec<(String, Area)> = f
        .controllers
        .iter()
        .map(|c| (c.name.clone(), c.area))
        .collect();
    assert_eq!(controllers, [("secret".to_string(), Area::Samples)]);
    let crds: Vec<(String, Area)> = f.crds.iter().map(|c| (c.kind.clone(), c.area)).collect();
    assert_eq!(crds, [("Probe".to_string(), Area::Samples)]);
    let routes: Vec<String> = f
        .http_endpoints
        .iter()
        .map(|e| format!("{} {} {:?}", e.method, e.path, e.area))
        .collect();
    assert_eq!(routes, ["GET /fake Samples"]);
}

#[test]
fn files_of_test_only_modules_are_samples() {
    let lib = "#[cfg(test)]\nmod tests;\nmod real;\n";
    let tests = "use kube::Api;\nuse k8s_openapi::api::core::v1::Pod;\nmod more;\nasync fn t(c: Client) {\n    let p: Api<Pod> = Api::all(c);\n    p.create(&pp, &pod).await;\n}\n";
    let more = "use kube::Api;\nuse k8s_openapi::api::core::v1::Pod;\nasync fn m(c: Client) {\n    let p: Api<Pod> = Api::all(c);\n    p.delete(\"x\", &dp).await;\n}\n";
    let real = "use kube::Api;\nuse k8s_openapi::api::core::v1::Pod;\nasync fn r(c: Client) {\n    let p: Api<Pod> = Api::all(c);\n    p.patch(\"x\", &pp, &patch).await;\n}\n";
    let (f, _) = project(&[
        ("op/src/lib.rs", lib),
        ("op/src/tests.rs", tests),
        ("op/src/tests/more.rs", more),
        ("op/src/real.rs", real),
    ]);
    assert_eq!(
        package_operations(&f),
        [
            "t create op /v1 Pod Samples :6",
            "m delete op /v1 Pod Samples :5",
            "r patch op /v1 Pod Component :5",
        ]
    );
}

const SAME_NAMES: &str = r#"use k8s_openapi::api::core::v1::{ConfigMap, Secret, Service};
use kube::{Api, runtime::{Controller, watcher}};
use k8s_openapi::api::apps::v1::Deployment;
async fn run(client: Client) {
    Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default())
        .run(configs::reconcile, error_policy, ctx.clone());
    Controller::new(Api::<Secret>::all(client.clone()), watcher::Config::default())
        .run(secrets::reconcile, error_policy, ctx.clone());
    Controller::new(Api::<Deployment>::all(client), watcher::Config::default())
        .run(Deployments::reconcile, error_policy, ctx);
}
mod configs {
    pub async fn reconcile(o: Arc<ConfigMap>, ctx: Arc<Ctx>) {
        helper(&ctx).await;
        crate::shared::apply(&ctx).await;
    }
    async fn helper(ctx: &Ctx) {
        let a: Api<ConfigMap> = Api::all(ctx.client.clone());
        a.replace("n", &pp, &o).await;
    }
}
mod secrets {
    pub async fn reconcile(o: Arc<Secret>, ctx: Arc<Ctx>) {
        helper(&ctx).await;
        super::shared::apply(&ctx).await;
    }
    async fn helper(ctx: &Ctx) {
        let a: Api<Secret> = Api::all(ctx.client.clone());
        a.delete("n", &dp).await;
    }
}
mod shared {
    pub async fn apply(ctx: &Ctx) {
        let svc: Api<Service> = Api::all(ctx.client.clone());
        svc.patch("n", &pp, &p).await;
    }
}
struct Deployments;
impl Deployments {
    async fn reconcile(o: Arc<Deployment>, ctx: Arc<Ctx>) {
        Self::helper(&ctx).await;
    }
    async fn helper(ctx: &Ctx) {
        let d: Api<Deployment> = Api::all(ctx.client.clone());
        d.patch_status("n", &pp, &p).await;
    }
}
struct Other;
impl Other {
    async fn helper(ctx: &Ctx) {
        let d: Api<Deployment> = Api::all(ctx.client.clone());
        d.delete("n", &dp).await;
    }
}
"#;

#[test]
fn functions_of_the_same_name_are_told_apart_by_module_and_impl_type() {
    let (f, _) = project(&[("op/src/main.rs", SAME_NAMES)]);
    let got: Vec<(String, Vec<String>)> = f
        .controllers
        .iter()
        .map(|c| (c.name.clone(), operations(c)))
        .collect();
    assert_eq!(
        got,
        [
            (
                "configmap".to_string(),
                vec![
                    "patch /v1 Service :[35]".to_string(),
                    "update /v1 ConfigMap :[19]".to_string(),
                ]
            ),
            (
                "secret".to_string(),
                vec![
                    "delete /v1 Secret :[29]".to_string(),
                    "patch /v1 Service :[35]".to_string(),
                ]
            ),
            (
                "deployment".to_string(),
                vec!["status_patch apps/v1 Deployment :[45]".to_string()]
            ),
        ]
    );
    // `Other::helper` is reached by no controller.
    assert_eq!(
        package_operations(&f),
        ["helper delete op apps/v1 Deployment Component :52"]
    );
}

const CLIENT_FORMS: &str = r#"use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::api::batch::v1::Job;
use kube::{Api, Client, ResourceExt};
use kube::runtime::{Controller, watcher, finalizer::{finalizer, Event as Finalizer}};
use kube::runtime::events::{Recorder, Reporter};
async fn run(client: Client) {
    Controller::new(Api::<Job>::all(client), watcher::Config::default())
        .run(reconcile, error_policy, ctx)
        .await;
}
async fn reconcile(job: Arc<Job>, ctx: Arc<Ctx>) {
    let jobs: Api<Job> = Api::namespaced(ctx.client.clone(), &job.namespace().unwrap());
    finalizer(&jobs, "example.io/cleanup", job, |event| async move {
        match event {
            Finalizer::Apply(j) => apply(j).await,
            Finalizer::Cleanup(j) => cleanup(j).await,
        }
    })
    .await;
    let recorder = Recorder::new(ctx.client.clone(), reporter);
    recorder.publish(&ev, &oref).await;
    Api::<Pod>::default_namespaced(ctx.client.clone())
        .delete_collection(&dp, &lp)
        .await;
    let dynamic = Api::all_with(ctx.client.clone(), &ar);
    dynamic.replace_status("x", &pp, &data).await;
    finalizer(&ctx.api, "example.io/other", job, handle).await;
}
async fn publish_through(r: &Recorder) {
    r.publish(&ev, &oref).await;
}
"#;

#[test]
fn finalizers_recorders_and_api_forms() {
    let (f, d) = project(&[("src/main.rs", CLIENT_FORMS)]);
    assert_eq!(
        operations(&f.controllers[0]),
        [
            "create events.k8s.io/v1 Event :[21]",
            "delete_all_of /v1 Pod :[23]",
            "patch ?/ ? :[27]",
            "patch batch/v1 Job :[13]",
            "patch events.k8s.io/v1 Event :[21]",
            "status_update ?/ ? :[26]",
        ]
    );
    assert_eq!(
        package_operations(&f),
        [
            "publish_through create crate events.k8s.io/v1 Event Component :30",
            "publish_through patch crate events.k8s.io/v1 Event Component :30",
        ]
    );
    assert_eq!(
        d,
        [
            "src/main.rs:26: `status_update` write: kind unknown: `Api::all_with` without a type argument: the kind is inferred by the compiler",
            "src/main.rs:27: `patch` write: kind unknown: the `Api` passed here could not be followed to its type",
        ]
    );
}

#[test]
fn macro_bodies_and_option_combinators() {
    let src = r#"use k8s_openapi::api::core::v1::{Namespace, Secret};
use kube::{Api, Client, runtime::watcher};
async fn start(client: Client, ns: Option<String>) {
    tokio::pin! {
        let w = watcher(Api::<Namespace>::all(client.clone()), watcher::Config::default());
    }
    let secrets = ns
        .map(|ns| Api::<Secret>::namespaced(client.clone(), &ns))
        .unwrap_or_else(|| Api::<Secret>::default_namespaced(client.clone()));
    assert!(secrets.delete("x", &dp).await.is_ok());
    println!("{}", format!("not {}", "an api"));
}
"#;
    let (f, d) = project(&[("src/lib.rs", src)]);
    assert!(d.is_empty(), "{d:?}");
    let informers: Vec<String> = f
        .informers
        .iter()
        .map(|i| {
            format!(
                "{} {}/{} :{}",
                i.function, i.group, i.kind, i.sources[0].line
            )
        })
        .collect();
    assert_eq!(informers, ["start /Namespace :5"]);
    assert_eq!(
        package_operations(&f),
        ["start delete crate /v1 Secret Component :10"]
    );
}

#[test]
fn cargo_bin_tables_name_binaries() {
    let manifest = "[package]\nname = \"kennel\"\n\n[[bin]]\nname = \"kenneld\"\npath = \"src/main.rs\"\n\n[[bin]]\nname = \"no-path\"\n";
    let package = cargo_package("svc/Cargo.toml", manifest).expect("a package");
    assert_eq!(
        package.bins,
        vec![("kenneld".to_string(), "svc/src/main.rs".to_string(), 4)]
    );
    let facts = vec![
        extract("svc/src/main.rs", "fn main() {}\n", Area::Component),
        extract("svc/src/bin/probe.rs", "fn main() {}\n", Area::Component),
    ];
    let mut d = Vec::new();
    let found = resolve(&facts, &[package], &[], &mut d);
    let names: Vec<(&str, Vec<String>)> = found
        .binaries
        .iter()
        .map(|b| {
            (
                b.name.as_str(),
                b.name_from
                    .iter()
                    .map(|s| format!("{}:{}", s.file, s.line))
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        names,
        vec![
            ("kenneld", vec!["svc/Cargo.toml:4".to_string()]),
            ("probe", vec![]),
        ]
    );
}

#[test]
fn custom_resources_merge_with_manifests() {
    let src = r#"use kube::CustomResource;
/// A doc.
#[derive(CustomResource)]
#[kube(group = "g.io", version = "v2", kind = "Doc", namespaced)]
pub struct DocSpec { pub title: String }
"#;
    let (f, d) = project(&[("src/lib.rs", src)]);
    assert!(d.is_empty(), "{d:?}");
    let mut manifests = vec![Crd {
        group: "g.io".into(),
        kind: "Doc".into(),
        plural: "docs".into(),
        scope: "Namespaced".into(),
        versions: vec![model::CrdVersion {
            name: "v1".into(),
            served: true,
            storage: false,
            deprecated: false,
            printer_columns: Vec::new(),
        }],
        sources: vec![model::SourceRef::new("config/doc.yaml", 1)],
        ..Crd::default()
    }];
    merge_crds(&mut manifests, f.crds);
    assert_eq!(manifests.len(), 1);
    let m = &manifests[0];
    let sources: Vec<String> = m
        .sources
        .iter()
        .map(|s| format!("{}:{}", s.file, s.line))
        .collect();
    assert_eq!(sources, ["config/doc.yaml:1", "src/lib.rs:5"]);
    let versions: Vec<&str> = m.versions.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(versions, ["v1", "v2"]);
    assert_eq!(m.schema[0].fields[1].path, "spec.title");
}

#[test]
fn apis_and_controllers_that_arrive_through_the_crates_re_exports() {
    let (f, diagnostics) = project(&[
        ("src/lib.rs", "pub mod prelude;\npub mod shop;\n"),
        (
            "src/prelude.rs",
            "pub use kube::{Api, Client as KubeClient};\npub use kube::runtime::*;\npub use k8s_openapi::api::core::v1::{ConfigMap, Secret};\n",
        ),
        (
            "src/shop/mod.rs",
            r#"pub mod shelf;
use super::prelude::*;
pub async fn open(client: KubeClient) {
    Controller::new(Api::<Secret>::all(client.clone()), watcher::Config::default())
        .run(reconcile, policy, ctx)
        .await;
}
async fn reconcile(s: Arc<Secret>, ctx: Arc<Ctx>) {
    let maps: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), "store");
    maps.create(&pp, &cm).await;
}
"#,
        ),
        (
            "src/shop/shelf.rs",
            r#"use crate::prelude::{Api, ConfigMap, KubeClient as C};
pub async fn sweep(c: C) {
    let api: Api<ConfigMap> = Api::default_namespaced(c);
    api.delete("old", &dp).await;
}
"#,
        ),
    ]);
    assert_eq!(f.controllers.len(), 1, "{diagnostics:?}");
    let c = &f.controllers[0];
    assert_eq!(watches(c), ["For /v1 Secret :4"]);
    assert_eq!(operations(c), ["create /v1 ConfigMap :[10]"]);
    assert_eq!(
        package_operations(&f),
        ["sweep delete crate /v1 ConfigMap Component :4"]
    );
}

#[test]
fn apis_of_another_crate_of_the_repository_through_a_module_alias() {
    let package = |dir: &str, name: &str| CargoPackage {
        dir: dir.into(),
        name: name.into(),
        bins: Vec::new(),
    };
    let (f, diagnostics) = project_of_packages(
        &[
            (
                "api/src/lib.rs",
                "pub use kube::{Api, Client};\npub use k8s_openapi::api::coordination::v1 as coordv1;\n",
            ),
            (
                "runtime/src/lib.rs",
                "pub use shop_api as k8s;\nmod lease;\n",
            ),
            (
                "runtime/src/lease.rs",
                r#"use crate::k8s;
pub async fn release(client: k8s::Client) {
    let api = k8s::Api::<k8s::coordv1::Lease>::namespaced(client, "ns");
    api.delete("lock", &dp).await;
}
"#,
            ),
        ],
        &[
            package("api", "shop-api"),
            package("runtime", "shop-runtime"),
        ],
    );
    assert_eq!(
        package_operations(&f),
        ["release delete shop-runtime coordination.k8s.io/v1 Lease Component :4"],
        "{diagnostics:?}"
    );
}

#[test]
fn reads_through_an_api_are_the_reaching_controllers_else_their_packages() {
    let (f, diagnostics) = project(&[(
        "src/main.rs",
        r#"use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret};
use kube::{Api, runtime::{Controller, watcher}};
use std::collections::HashMap;
async fn run(client: Client) {
    Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default())
        .run(reconcile, error_policy, ctx)
        .await;
}
async fn reconcile(cm: Arc<ConfigMap>, ctx: Arc<Ctx>) {
    let pods: Api<Pod> = Api::namespaced(ctx.client.clone(), "ns");
    let one = pods.get("a").await;
    let maybe = pods.get_opt("b").await;
    let all = pods.list(&lp).await;
    let meta = pods.list_metadata(&lp).await;
    let seen: HashMap<String, u32> = HashMap::new();
    let _ = seen.get("not a request");
}
async fn audit(client: Client) {
    let secrets: Api<Secret> = Api::all(client);
    let _ = secrets.get_metadata("s").await;
}
"#,
    )]);
    let c = &f.controllers[0];
    assert_eq!(operations(c), Vec::<String>::new(), "{diagnostics:?}");
    let reads = verbs_kinds_lines(&c.reads);
    // `get` and `get_opt` are one row (two sites); a `get` of anything but an `Api` is none.
    assert_eq!(reads, ["get Pod :[11, 12]", "list Pod :[13, 14]"]);
    let package: Vec<String> = f
        .package_reads
        .iter()
        .map(|o| {
            format!(
                "{} {} {} :{}",
                o.function, o.verb, o.kind, o.sources[0].line
            )
        })
        .collect();
    assert_eq!(package, ["audit get Secret :20"]);
}
