//! Kubernetes manifests, per file and per project.
//!
//! Per file (`analyze`, in the shared pool): the documents of a YAML file are split and
//! parsed (`documents`, masking Helm templates with `template`), and each object goes to
//! the module for its kind: `crd`, `webhooks`, `network` (Services, Ingresses, Routes,
//! Gateway API, NetworkPolicies), `workloads`, `rbac` (Roles, bindings,
//! ServiceAccounts), `configmaps`, `secrets`, `certs` (cert-manager). Chart.yaml,
//! values.yaml and values.schema.json go to `crate::helm`, kustomization.yaml to
//! `crate::kustomize`. The result is a `YamlFile` of model rows and raw facts.
//!
//! Per project (`resolve`): kustomizations are followed to the files they build, patch
//! files are set aside (a patch modifies an object, it defines none), bundled dependency
//! manifests are marked (`bundled`), webhook services are explained through kustomize
//! `vars`/`replacements`, Secrets are gathered by name, charts are joined with their values,
//! and identical rows from several files are merged into one row with several sources.

pub mod availability;
pub mod bundled;
pub mod certs;
pub mod configmaps;
pub mod crd;
pub mod documents;
pub mod helm_render;
pub mod named;
pub mod network;
pub mod rbac;
pub mod secrets;
pub mod template;
pub mod value;
pub mod webhooks;
pub mod workloads;

use std::collections::{BTreeMap, BTreeSet};

use super::helm::{self, ChartPart, dir_of};
use super::kustomize::{self, KustomizationFile, ObjectName};
use super::merge::merge_identical;
use bundled::ObjectId;
pub use documents::split_documents;
use documents::{Object, Read};
use model::{
    ApiUse, Area, Autoscaler, Certificate, ConfigMap, Crd, Diagnostic, DisruptionBudget, Findings,
    HelmRendered, ImageRef, Ingress, NetworkPolicy, RbacRule, Role, RoleBinding, Service,
    ServiceAccount, SourceRef, Webhook, Workload,
};
use secrets::SecretUse;

/// What one YAML (or values.schema.json) file yielded.
#[derive(Debug, Default, Clone)]
pub struct YamlFile {
    pub path: String,
    pub area: Area,
    pub crds: Vec<Crd>,
    pub webhooks: Vec<Webhook>,
    pub services: Vec<Service>,
    pub configmaps: Vec<ConfigMap>,
    pub rbac: Vec<RbacRule>,
    pub roles: Vec<Role>,
    pub role_bindings: Vec<RoleBinding>,
    pub service_accounts: Vec<ServiceAccount>,
    pub workloads: Vec<Workload>,
    pub disruption_budgets: Vec<DisruptionBudget>,
    pub autoscalers: Vec<Autoscaler>,
    pub network_policies: Vec<NetworkPolicy>,
    pub ingresses: Vec<Ingress>,
    pub certificates: Vec<Certificate>,
    /// Container images the file's workloads name.
    pub images: Vec<ImageRef>,
    /// Objects of API versions the deprecation table lists.
    pub api_uses: Vec<ApiUse>,
    pub secret_uses: Vec<SecretUse>,
    /// Every object of the file, for the bundling rule and kustomize overlays.
    pub objects: Vec<ObjectId>,
    pub kustomization: Option<KustomizationFile>,
    pub chart: Option<ChartPart>,
    /// Some document was parsed with template actions masked.
    pub templated: bool,
    /// Some document, or the file, could not be parsed.
    pub failed: bool,
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics about incomplete objects, dropped if the file turns out to be a patch.
    pub fragments: Vec<Diagnostic>,
    /// The named templates a chart template (or `_helpers.tpl`) defines.
    pub defines: Vec<named::Define>,
    /// A chart template's text, kept when it has template actions: `resolve` expands its
    /// includes once the chart's defines are known, renders what it can with the chart's
    /// defaults (`helm_render`) and analyzes the file again.
    pub template_text: Option<String>,
    /// values.yaml as parsed, for `helm_render`.
    pub values_document: Option<serde_json::Value>,
    /// Actions rendered with the chart's defaults, by the object that shows them.
    pub rendered: Vec<HelmRendered>,
}

/// Whether a file is a patch by the usual naming: `*patch.yaml` or in a `patches` folder.
/// (Files a kustomization lists under `patches` are patches too; `resolve` adds those.)
pub fn named_as_patch(path: &str) -> bool {
    let mut segments = path.split('/');
    let name = segments.next_back().unwrap_or(path).to_ascii_lowercase();
    name.ends_with("patch.yaml") || name.ends_with("patch.yml") || segments.any(|s| s == "patches")
}

/// Analyzes one YAML file.
pub fn analyze(path: &str, text: &str, area: Area) -> YamlFile {
    let mut f = YamlFile {
        path: path.to_string(),
        area,
        ..YamlFile::default()
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    let before = f.diagnostics.len();
    if name == "Chart.yaml" {
        f.chart = helm::chart(path, text, area, &mut f.diagnostics).map(ChartPart::Chart);
        f.failed = f.diagnostics.len() > before;
        return f;
    }
    if name == "values.yaml" {
        let (keys, document) = helm::values_and_document(path, text, &mut f.diagnostics);
        f.chart = Some(ChartPart::Values(keys));
        f.values_document = document;
        f.failed = f.diagnostics.len() > before;
        return f;
    }
    if kustomize::is_kustomization(path) {
        f.kustomization = kustomize::read(path, text, area, &mut f.diagnostics);
        f.failed = f.kustomization.is_none();
        return f;
    }
    let helm_template = path.contains("/templates/");
    if helm_template {
        f.defines = named::defines(text);
        if template::has_actions(text) {
            f.template_text = Some(text.to_string());
        }
    }
    let mut fallback_reported = false;
    let docs = split_documents(text);
    let in_manifest = docs.iter().any(|d| d.kind_line.is_some());
    for doc in docs {
        let read = match documents::read(&doc, helm_template) {
            Read::NotAnObject => documents::read_unkinded(&doc, in_manifest),
            read => read,
        };
        match read {
            Read::NotAnObject => {}
            Read::Skipped { line, message } => {
                f.diagnostics.push(Diagnostic::new(path, line, message))
            }
            Read::Incomplete { line, message } => {
                f.fragments.push(Diagnostic::new(path, line, message))
            }
            Read::Failed { line, message } => {
                f.failed = true;
                f.diagnostics.push(Diagnostic::new(
                    path,
                    line,
                    format!("YAML not parsed: {message}"),
                ));
            }
            Read::Object(o) => {
                f.templated |= o.templated;
                object(&o, doc.text, &mut f);
            }
            Read::TemplateFallback { object: o, message } => {
                f.templated = true;
                f.failed = true;
                if !fallback_reported {
                    fallback_reported = true;
                    let (line, message) = documents::locate_error(&message, doc.first_line);
                    f.diagnostics.push(Diagnostic::new(
                        path,
                        line,
                        format!(
                            "templated YAML does not parse even with `{{{{ … }}}}` masked ({message}): only kind and name of its objects are listed"
                        ),
                    ));
                }
                object(&o, doc.text, &mut f);
            }
        }
    }
    f
}

/// A chart's `_helpers.tpl` (any `.tpl` under `templates/`): only its named templates.
pub fn analyze_helpers(path: &str, text: &str, area: Area) -> YamlFile {
    YamlFile {
        path: path.to_string(),
        area,
        defines: named::defines(text),
        ..YamlFile::default()
    }
}

/// Expands the named templates chart templates include (`named`), renders the actions
/// that can be rendered with the chart's defaults (`helm_render`), and analyzes those files
/// again, their rows pointing at the lines of the file as written.
fn expand_includes(files: &mut [YamlFile]) {
    let all: Vec<(String, Vec<named::Define>)> = files
        .iter_mut()
        .filter(|f| !f.defines.is_empty())
        .map(|f| (f.path.clone(), std::mem::take(&mut f.defines)))
        .collect();
    let mut charts = render_contexts(files);
    let mut libraries: BTreeMap<String, named::Library> = BTreeMap::new();
    for f in files.iter_mut() {
        let Some(text) = f.template_text.take() else {
            continue;
        };
        let Some(root) = named::chart_root(&f.path) else {
            continue;
        };
        let chart = charts.get_mut(root);
        let library = libraries.entry(root.to_string()).or_insert_with(|| {
            let subcharts = chart.as_ref().map_or(&[][..], |c| &c.subcharts[..]);
            let visible = named::visible_with(root, subcharts, &all);
            let chart = chart.map(|c| {
                c.name_helpers = visible
                    .iter()
                    .filter(|(_, d)| {
                        d.as_ref()
                            .is_ok_and(|d| helm_render::is_name_helper(&d.body))
                    })
                    .map(|(n, _)| n.to_string())
                    .collect();
                &*c
            });
            named::Library::with_chart(&visible, chart)
        });
        let chart = charts.get(root).filter(|_| !helm_render::has_marks(&text));
        let mut table = library.table.clone();
        let marked = match chart {
            Some(c) => helm_render::mark(&text, c, &mut table),
            None => text.clone(),
        };
        let expanded = library.expand_with(&marked, chart.is_some());
        let whole = expanded
            .as_ref()
            .map_or(marked.as_str(), |e| e.text.as_str());
        let (clean, found) = match chart {
            Some(_) => helm_render::unmark(whole, &table),
            None => (whole.to_string(), Vec::new()),
        };
        let original_line = |line: u32| expanded.as_ref().map_or(line, |e| e.original_line(line));
        if clean != text {
            let mut again = analyze(&f.path, &clean, f.area);
            again.template_text = None;
            again.defines = Vec::new();
            // An image rendered from the chart's values is the values row's, which says
            // where it is set; the template line holds no reference.
            again.images.retain(|i| {
                !i.sources
                    .iter()
                    .any(|s| found.iter().any(|(line, _)| *line == s.line))
            });
            if let Some(e) = &expanded {
                remap_lines(&mut again, e);
            }
            // Each rendered value belongs to the object of the document it is in.
            let docs = split_documents(&clean);
            for (line, r) in found {
                let Some(doc) = docs
                    .iter()
                    .rev()
                    .find(|d| d.first_line <= line)
                    .filter(|d| line < d.first_line + d.text.lines().count() as u32)
                else {
                    continue;
                };
                again.rendered.push(HelmRendered {
                    source: model::SourceRef::new(
                        &f.path,
                        original_line(doc.kind_line.unwrap_or(doc.first_line)),
                    ),
                    template: r.template,
                    value: r.value,
                });
            }
            *f = again;
        }
        if let Some(e) = expanded {
            for (line, message) in e.diagnostics {
                f.diagnostics.push(Diagnostic::new(&f.path, line, message));
            }
        }
    }
}

/// The charts of the project by folder, as `helm_render` needs them.
fn render_contexts(files: &[YamlFile]) -> BTreeMap<String, helm_render::Chart> {
    let mut charts = Vec::new();
    let mut values = BTreeMap::new();
    for f in files {
        match (&f.chart, &f.values_document) {
            (Some(ChartPart::Chart(c)), _) => charts.push((
                dir_of(&f.path).to_string(),
                c.name.clone(),
                c.dependencies
                    .iter()
                    .map(|d| (d.name.clone(), d.alias.clone(), d.repository.clone()))
                    .collect(),
            )),
            (_, Some(v)) => {
                values.insert(dir_of(&f.path).to_string(), v.clone());
            }
            _ => {}
        }
    }
    helm_render::charts(&charts, &values)
}

/// Puts the lines of an expanded file's rows back on the lines of the file as written.
fn remap_lines(f: &mut YamlFile, e: &named::Expanded) {
    macro_rules! remap {
        ($($list:expr),*) => {$(
            for row in $list.iter_mut() {
                for s in row.sources.iter_mut() {
                    s.line = e.original_line(s.line);
                }
            }
        )*};
    }
    remap!(
        f.crds,
        f.webhooks,
        f.services,
        f.configmaps,
        f.rbac,
        f.roles,
        f.role_bindings,
        f.service_accounts,
        f.workloads,
        f.disruption_budgets,
        f.autoscalers,
        f.network_policies,
        f.ingresses,
        f.certificates,
        f.images
    );
    for u in &mut f.secret_uses {
        u.source.line = e.original_line(u.source.line);
    }
    for d in f.diagnostics.iter_mut().chain(f.fragments.iter_mut()) {
        d.line = e.original_line(d.line);
    }
}

/// Analyzes a chart's values.schema.json.
pub fn analyze_values_schema(path: &str, text: &str, area: Area) -> YamlFile {
    let mut f = YamlFile {
        path: path.to_string(),
        area,
        ..YamlFile::default()
    };
    let keys = helm::schema(path, text, &mut f.diagnostics);
    f.failed = !f.diagnostics.is_empty();
    f.chart = Some(ChartPart::Schema(keys));
    f
}

/// Sends one object to the module for its kind.
fn object(o: &Object, doc: &str, f: &mut YamlFile) {
    if o.kind.is_empty() {
        return;
    }
    let path = f.path.clone();
    let area = f.area;
    let crd_group = if o.kind == "CustomResourceDefinition" {
        value::str_at(&o.value, &["spec", "group"]).to_string()
    } else {
        String::new()
    };
    let version = value::str_at(&o.value, &["apiVersion"])
        .rsplit('/')
        .next()
        .unwrap_or("");
    if kubernetes::deprecations::lookup(&o.group, version, &o.kind).is_some() {
        let in_chart = path.split('/').any(|part| part == "templates");
        f.api_uses.push(ApiUse {
            group: o.group.clone(),
            version: version.to_string(),
            kind: o.kind.clone(),
            how: if o.templated || in_chart {
                "Helm template"
            } else {
                "manifest"
            }
            .into(),
            object: match (o.namespace.as_str(), o.name.as_str()) {
                ("", name) => name.to_string(),
                (ns, name) => format!("{ns}/{name}"),
            },
            bundled: false,
            area,
            sources: vec![SourceRef::new(&path, o.line)],
        });
    }
    f.objects.push(ObjectId {
        group: o.group.clone(),
        kind: o.kind.clone(),
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        part_of: o.label("app.kubernetes.io/part-of").to_string(),
        crd_group,
    });
    let uses_before = f.secret_uses.len();
    match (o.group.as_str(), o.kind.as_str()) {
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            if let Some(c) = crd::extract(o, &path, area, &mut f.fragments) {
                f.crds.push(c);
            }
        }
        ("", "Service") => f.services.push(network::service(o, &path, area)),
        ("", "ConfigMap") => f.configmaps.push(configmaps::extract(o, &path, area)),
        ("", "Secret") => f.secret_uses.push(secrets::defined(o, &path)),
        ("", "ServiceAccount") => {
            let sa = rbac::service_account(o, &path, area, &mut f.secret_uses);
            f.service_accounts.push(sa);
        }
        (
            "admissionregistration.k8s.io",
            "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration",
        ) => f.webhooks.extend(webhooks::extract(o, doc, &path, area)),
        ("rbac.authorization.k8s.io", "ClusterRole" | "Role") => {
            let (role, rules) = rbac::role(o, &path, area);
            f.roles.push(role);
            f.rbac.extend(rules);
        }
        ("rbac.authorization.k8s.io", "ClusterRoleBinding" | "RoleBinding") => {
            f.role_bindings.push(rbac::binding(o, &path, area))
        }
        ("networking.k8s.io" | "extensions", "Ingress") => {
            let i = network::ingress(o, &path, area, &mut f.secret_uses);
            f.ingresses.push(i);
        }
        ("networking.k8s.io" | "extensions", "NetworkPolicy") => f
            .network_policies
            .push(network::network_policy(o, &path, area)),
        ("route.openshift.io", "Route") => f.ingresses.push(network::route(o, &path, area)),
        (
            "gateway.networking.k8s.io",
            "Gateway" | "HTTPRoute" | "GRPCRoute" | "TLSRoute" | "TCPRoute" | "UDPRoute",
        ) => {
            let i = network::gateway_api(o, &path, area, &mut f.secret_uses);
            f.ingresses.push(i);
        }
        ("cert-manager.io", "Certificate" | "Issuer" | "ClusterIssuer") => {
            let c = certs::extract(o, &path, area, &mut f.secret_uses);
            f.certificates.push(c);
        }
        (group, kind) if workloads::is_workload(group, kind) => {
            let w = workloads::extract(o, doc, &path, area, &mut f.secret_uses);
            f.images.extend(super::images::containers(
                workloads::pod_spec(o),
                &mut Vec::new(),
                doc,
                (o.first_line, o.line, o.templated),
                &match w.name.as_str() {
                    "" => format!("{kind} (no name)"),
                    _ => format!(
                        "{kind} {}",
                        kubernetes::names::qualified(&w.namespace, &w.name)
                    ),
                },
                &path,
                area,
            ));
            f.workloads.push(w);
        }
        ("policy", "PodDisruptionBudget") => f
            .disruption_budgets
            .push(availability::disruption_budget(o, &path, area)),
        ("autoscaling", "HorizontalPodAutoscaler") => {
            f.autoscalers.push(availability::autoscaler(o, &path, area))
        }
        (_, "CustomResourceDefinition") => {}
        // Any other object that embeds pod specs (a KServe ServingRuntime, a
        // LeaderWorkerSet's templates): the images of its container lists.
        (_, kind) => {
            let what = match o.name.as_str() {
                "" => format!("{kind} (no name)"),
                _ => format!(
                    "{kind} {}",
                    kubernetes::names::qualified(&o.namespace, &o.name)
                ),
            };
            let mut used = Vec::new();
            for pod in super::images::embedded_pods(&o.value) {
                f.images.extend(super::images::containers(
                    &pod,
                    &mut used,
                    doc,
                    (o.first_line, o.line, o.templated),
                    &what,
                    &path,
                    area,
                ));
            }
        }
    }
    for u in &mut f.secret_uses[uses_before..] {
        u.area = area;
    }
}

/// How many YAML files had to be read specially, for the project's statistics.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct YamlCounts {
    /// Files parsed with template actions masked.
    pub templated_files: u64,
    /// Files with a document (or the whole file) that could not be parsed.
    pub failed_files: u64,
}

/// Sets `bundled` on rows whose first source lies in a bundled folder.
macro_rules! mark_bundled {
    ($dirs:expr, $($list:expr),*) => {$(
        for row in $list.iter_mut() {
            if row.sources.first().is_some_and(|s| $dirs.contains(dir_of(&s.file))) {
                row.bundled = true;
            }
        }
    )*};
}

/// Puts one project's YAML files together (see the module documentation) into the manifest
/// families of `out`, which must still be empty. `own_groups` are the API groups the
/// project's Go API packages declare.
pub fn resolve(
    mut files: Vec<YamlFile>,
    own_groups: &BTreeSet<String>,
    out: &mut Findings,
    diagnostics: &mut Vec<Diagnostic>,
) -> YamlCounts {
    expand_includes(&mut files);
    let mut counts = YamlCounts::default();
    let manifests: BTreeSet<String> = files
        .iter()
        .filter(|f| f.kustomization.is_none() && f.chart.is_none())
        .map(|f| f.path.clone())
        .collect();
    let (rest, kustomizations, chart_parts) = take_build_files(files, &mut counts, diagnostics);
    let overlays = kustomize::overlays(kustomizations, &manifests, diagnostics);
    let patches = patch_paths(&overlays, &rest);
    let mut gathered = gather(rest, &patches, out, diagnostics);
    let dirs = mark_bundled(
        out,
        own_groups,
        &gathered.objects_by_dir,
        &mut gathered.uses,
    );
    apply_kustomize(out, &overlays, &gathered, &chart_parts, &dirs);
    let mut uses = gathered.uses;
    for k in &overlays.files {
        uses.extend(k.secret_uses.iter().cloned());
    }
    out.secrets = secrets::assemble(uses);
    out.helm_charts = helm::assemble(chart_parts);
    out.images
        .extend(super::images::helm_values(&out.helm_charts));
    mark_bundled!(dirs, out.images, out.api_uses);
    merge_rows(out);
    counts
}

/// Counts templated and failed files, moves their diagnostics out, and takes the
/// kustomizations and chart parts out of the files.
fn take_build_files(
    files: Vec<YamlFile>,
    counts: &mut YamlCounts,
    diagnostics: &mut Vec<Diagnostic>,
) -> (
    Vec<YamlFile>,
    Vec<KustomizationFile>,
    Vec<(String, ChartPart)>,
) {
    let mut kustomizations = Vec::new();
    let mut chart_parts = Vec::new();
    let mut rest = Vec::with_capacity(files.len());
    for mut f in files {
        counts.templated_files += u64::from(f.templated);
        counts.failed_files += u64::from(f.failed);
        diagnostics.append(&mut f.diagnostics);
        if let Some(k) = f.kustomization.take() {
            kustomizations.push(k);
        }
        if let Some(c) = f.chart.take() {
            chart_parts.push((f.path.clone(), c));
        }
        rest.push(f);
    }
    (rest, kustomizations, chart_parts)
}

/// The files that are patches: named by a kustomization, or named like one.
fn patch_paths(overlays: &kustomize::Overlays, files: &[YamlFile]) -> BTreeSet<String> {
    let mut patches: BTreeSet<String> = overlays
        .files
        .iter()
        .flat_map(|k| k.patch_files.iter().cloned())
        .collect();
    patches.extend(
        files
            .iter()
            .filter(|f| named_as_patch(&f.path))
            .map(|f| f.path.clone()),
    );
    patches
}

/// What the manifest files hold beyond their rows, for the steps after gathering.
struct Gathered {
    objects_by_dir: BTreeMap<String, Vec<ObjectId>>,
    names_by_file: BTreeMap<String, Vec<ObjectName>>,
    uses: Vec<SecretUse>,
    patch_files: BTreeMap<String, workloads::PatchFile>,
}

/// Moves each manifest file's rows into `out`; patch files keep their workloads aside.
fn gather(
    files: Vec<YamlFile>,
    patches: &BTreeSet<String>,
    out: &mut Findings,
    diagnostics: &mut Vec<Diagnostic>,
) -> Gathered {
    let mut objects_by_dir: BTreeMap<String, Vec<ObjectId>> = BTreeMap::new();
    let mut names_by_file: BTreeMap<String, Vec<ObjectName>> = BTreeMap::new();
    let mut uses = Vec::new();
    let mut patch_files: BTreeMap<String, workloads::PatchFile> = BTreeMap::new();
    for mut f in files {
        if patches.contains(&f.path) {
            let held_objects = !f.objects.is_empty();
            patch_files.insert(
                f.path.clone(),
                (std::mem::take(&mut f.workloads), held_objects),
            );
            continue;
        }
        diagnostics.append(&mut f.fragments);
        names_by_file.insert(
            f.path.clone(),
            f.objects
                .iter()
                .map(|o| ObjectName {
                    kind: o.kind.clone(),
                    name: o.name.clone(),
                    namespace: o.namespace.clone(),
                })
                .collect(),
        );
        objects_by_dir
            .entry(dir_of(&f.path).to_string())
            .or_default()
            .append(&mut f.objects);
        out.crds.append(&mut f.crds);
        out.webhooks.append(&mut f.webhooks);
        out.services.append(&mut f.services);
        out.configmaps.append(&mut f.configmaps);
        out.rbac.append(&mut f.rbac);
        out.roles.append(&mut f.roles);
        out.role_bindings.append(&mut f.role_bindings);
        out.service_accounts.append(&mut f.service_accounts);
        out.workloads.append(&mut f.workloads);
        out.disruption_budgets.append(&mut f.disruption_budgets);
        out.autoscalers.append(&mut f.autoscalers);
        out.network_policies.append(&mut f.network_policies);
        out.ingresses.append(&mut f.ingresses);
        out.certificates.append(&mut f.certificates);
        out.images.append(&mut f.images);
        out.api_uses.append(&mut f.api_uses);
        out.helm_rendered.append(&mut f.rendered);
        uses.append(&mut f.secret_uses);
    }

    Gathered {
        objects_by_dir,
        names_by_file,
        uses,
        patch_files,
    }
}

/// Own versus bundled: finds the folders of other projects' manifests and marks the rows
/// read from them (CRDs by their group); returns those folders.
fn mark_bundled(
    out: &mut Findings,
    own_groups: &BTreeSet<String>,
    objects_by_dir: &BTreeMap<String, Vec<ObjectId>>,
    uses: &mut [SecretUse],
) -> BTreeSet<String> {
    out.bundled_manifests = bundled::bundled_dirs(objects_by_dir, own_groups);
    let dirs: BTreeSet<String> = out
        .bundled_manifests
        .iter()
        .map(|b| b.dir.clone())
        .collect();
    for c in &mut out.crds {
        c.bundled = bundled::crd_is_bundled(&c.group, own_groups);
    }
    mark_bundled!(
        dirs,
        out.webhooks,
        out.services,
        out.configmaps,
        out.rbac,
        out.roles,
        out.role_bindings,
        out.service_accounts,
        out.workloads,
        out.disruption_budgets,
        out.autoscalers,
        out.network_policies,
        out.ingresses,
        out.certificates
    );
    for u in uses {
        u.bundled = dirs.contains(dir_of(&u.source.file));
    }
    dirs
}

/// Kustomize: generated ConfigMaps, webhook services, patches and chart files of
/// workloads, image overrides, and each kustomization with the objects it builds.
fn apply_kustomize(
    out: &mut Findings,
    overlays: &kustomize::Overlays,
    gathered: &Gathered,
    chart_parts: &[(String, ChartPart)],
    dirs: &BTreeSet<String>,
) {
    let names_by_file = &gathered.names_by_file;
    for k in &overlays.files {
        out.configmaps.extend(k.configmaps.iter().cloned());
    }
    for w in &mut out.webhooks {
        kustomize::explain_webhook(w, overlays, names_by_file);
    }
    let built: Vec<_> = overlays.files.iter().zip(&overlays.includes).collect();
    workloads::attach_patches(&mut out.workloads, &built, &gathered.patch_files);
    let chart_dirs: Vec<String> = chart_parts
        .iter()
        .filter(|(_, c)| matches!(c, ChartPart::Chart(_)))
        .map(|(path, _)| dir_of(path).to_string())
        .collect();
    workloads::mark_chart_files(&mut out.workloads, &chart_dirs);
    for k in &overlays.files {
        out.images.extend(k.images.iter().cloned());
    }
    for (k, included) in overlays.files.iter().zip(&overlays.includes) {
        let mut model = k.model.clone();
        let mut objects: Vec<String> = included
            .iter()
            .filter_map(|f| names_by_file.get(f))
            .flatten()
            .map(|o| {
                format!(
                    "{} {}",
                    o.kind,
                    kubernetes::names::qualified(&o.namespace, &o.name)
                )
            })
            .collect();
        objects.sort();
        objects.dedup();
        model.objects = objects;
        model.bundled = dirs.contains(model.dir.as_str());
        out.kustomizations.push(model);
    }
}

/// Merges identical rows of every list.
fn merge_rows(out: &mut Findings) {
    merge_identical(&mut out.crds);
    merge_identical(&mut out.webhooks);
    webhooks::merge_deployed(&mut out.webhooks);
    merge_identical(&mut out.services);
    merge_identical(&mut out.configmaps);
    merge_identical(&mut out.helm_charts);
    merge_identical(&mut out.rbac);
    merge_identical(&mut out.roles);
    merge_identical(&mut out.role_bindings);
    merge_identical(&mut out.service_accounts);
    merge_identical(&mut out.workloads);
    merge_identical(&mut out.disruption_budgets);
    merge_identical(&mut out.autoscalers);
    merge_identical(&mut out.network_policies);
    merge_identical(&mut out.ingresses);
    merge_identical(&mut out.certificates);
    merge_identical(&mut out.kustomizations);
    merge_identical(&mut out.images);
    out.helm_rendered.sort();
    out.helm_rendered.dedup();
}

#[cfg(test)]
mod tests;
