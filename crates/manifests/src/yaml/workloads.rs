//! Workloads: Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs, CronJobs and bare
//! Pods — their containers (image, command, args, ports, environment, security context),
//! service account, and the ConfigMaps and Secrets the pod mounts or reads.
//!
//! Environment values are kept only when written literally and when the variable's name
//! does not suggest a secret (`…PASSWORD`, `…TOKEN`, `…SECRET`, `…KEY`, `…CREDENTIALS`);
//! values from Secrets are never available to begin with, only their names and keys.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::availability;
use super::documents::Object;
use super::secrets::SecretUse;
use super::value::{array_at, at, pairs, scalar, settings, strings};
use model::{Area, Container, ContainerEnv, ContainerPort, SourceRef, Workload};

/// The kinds read, with the API group each belongs to.
pub const KINDS: [(&str, &str); 7] = [
    ("apps", "Deployment"),
    ("apps", "StatefulSet"),
    ("apps", "DaemonSet"),
    ("apps", "ReplicaSet"),
    ("batch", "Job"),
    ("batch", "CronJob"),
    ("", "Pod"),
];

/// Whether a group/kind is a workload (including the pre-`apps` `extensions` group).
pub fn is_workload(group: &str, kind: &str) -> bool {
    KINDS
        .iter()
        .any(|(g, k)| *k == kind && (*g == group || (group == "extensions" && *g == "apps")))
}

/// Name fragments that mark an environment variable as secret-bearing.
const SECRET_NAMES: [&str; 7] = [
    "PASSWORD",
    "PASSWD",
    "SECRET",
    "TOKEN",
    "CREDENTIAL",
    "API_KEY",
    "PRIVATE_KEY",
];

fn looks_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_NAMES.iter().any(|s| upper.contains(s)) || upper.ends_with("_KEY")
}

/// A workload's pod spec (Null when it has none).
pub fn pod_spec(o: &Object) -> &Value {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    match o.kind.as_str() {
        "Pod" => spec,
        "CronJob" => at(spec, &["jobTemplate", "spec", "template", "spec"]).unwrap_or(&Value::Null),
        _ => at(spec, &["template", "spec"]).unwrap_or(&Value::Null),
    }
}

/// One workload object; `doc` is its document's text (for template lines that write YAML).
pub fn extract(
    o: &Object,
    doc: &str,
    path: &str,
    area: Area,
    uses: &mut Vec<SecretUse>,
) -> Workload {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let pod = pod_spec(o);
    let mut refs = Refs {
        o,
        path,
        uses,
        config_maps: Vec::new(),
        secrets: Vec::new(),
    };
    let mut containers = Vec::new();
    for (key, init) in [("initContainers", true), ("containers", false)] {
        for c in array_at(pod, &[key]) {
            containers.push(refs.container(c, init));
        }
    }
    refs.volumes(pod);
    for p in array_at(pod, &["imagePullSecrets"]) {
        refs.secret(scalar(p.get("name")), "imagePullSecrets");
    }
    let Refs {
        config_maps,
        secrets,
        ..
    } = refs;
    let service_account = match scalar(pod.get("serviceAccountName")) {
        s if s.is_empty() => scalar(pod.get("serviceAccount")),
        s => s,
    };
    // The pod's own labels: the object's for a Pod, else its pod template's.
    let pod_meta = match o.kind.as_str() {
        "Pod" => o.value.get("metadata"),
        "CronJob" => at(spec, &["jobTemplate", "spec", "template", "metadata"]),
        _ => at(spec, &["template", "metadata"]),
    };
    let pod_settings = availability::pod_settings(pod, o.templated);
    Workload {
        kind: o.kind.clone(),
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        replicas: scalar(spec.get("replicas")),
        service_account,
        pod_labels: pairs(pod_meta.and_then(|m| m.get("labels"))),
        containers,
        security_context: settings(pod.get("securityContext")),
        config_maps,
        secrets,
        priority_class: pod_settings.priority_class,
        anti_affinity: pod_settings.anti_affinity,
        topology_spread: pod_settings.topology_spread,
        unrendered_yaml: o.templated && availability::unrendered_yaml(doc),
        patches: Vec::new(),
        unread_patches: Vec::new(),
        missing_patches: Vec::new(),
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

/// The ConfigMaps and Secrets a workload's pod refers to, each once in the order found;
/// each Secret reference is also a `SecretUse`.
struct Refs<'a> {
    o: &'a Object,
    path: &'a str,
    uses: &'a mut Vec<SecretUse>,
    config_maps: Vec<String>,
    secrets: Vec<String>,
}

impl Refs<'_> {
    fn config_map(&mut self, name: String) {
        note(&mut self.config_maps, name);
    }

    /// A Secret referred to by name (a use only when the name is given).
    fn secret(&mut self, name: String, what: &str) {
        if !name.is_empty() {
            self.uses
                .push(SecretUse::new(self.o, self.path, &name, what));
        }
        note(&mut self.secrets, name);
    }

    fn container(&mut self, c: &Value, init: bool) -> Container {
        let o = self.o;
        let env = array_at(c, &["env"]).iter().map(|e| self.env(e)).collect();
        let env_from = self.env_from(c);
        let (requests, limits, resources_templated) = availability::resources(c, o.templated);
        Container {
            name: scalar(c.get("name")),
            image: scalar(c.get("image")),
            init,
            command: strings(c.get("command")),
            args: strings(c.get("args")),
            ports: array_at(c, &["ports"])
                .iter()
                .map(|p| ContainerPort {
                    name: scalar(p.get("name")),
                    port: scalar(p.get("containerPort")),
                    protocol: match scalar(p.get("protocol")) {
                        s if s.is_empty() => "TCP".into(),
                        s => s,
                    },
                })
                .collect(),
            env,
            env_from,
            security_context: settings(c.get("securityContext")),
            requests,
            limits,
            resources_templated,
            liveness_probe: availability::probe(c, "livenessProbe", o.templated),
            readiness_probe: availability::probe(c, "readinessProbe", o.templated),
            startup_probe: availability::probe(c, "startupProbe", o.templated),
        }
    }

    /// One `env` entry: its value when literal, else where it comes from.
    fn env(&mut self, e: &Value) -> ContainerEnv {
        let name = scalar(e.get("name"));
        let (value, from) = match e.get("valueFrom") {
            Some(vf) => {
                if let Some(r) = vf.get("secretKeyRef") {
                    let secret = scalar(r.get("name"));
                    self.uses.push(SecretUse::new(
                        self.o,
                        self.path,
                        &secret,
                        &format!("env {name}"),
                    ));
                    note(&mut self.secrets, secret.clone());
                    (
                        None,
                        format!("Secret {secret} key {}", scalar(r.get("key"))),
                    )
                } else if let Some(r) = vf.get("configMapKeyRef") {
                    let cm = scalar(r.get("name"));
                    self.config_map(cm.clone());
                    (None, format!("ConfigMap {cm} key {}", scalar(r.get("key"))))
                } else if let Some(r) = vf.get("fieldRef") {
                    (None, format!("field {}", scalar(r.get("fieldPath"))))
                } else if let Some(r) = vf.get("resourceFieldRef") {
                    (None, format!("resource {}", scalar(r.get("resource"))))
                } else {
                    (None, "valueFrom".to_string())
                }
            }
            None if looks_secret(&name) => {
                (None, "literal, withheld: the name suggests a secret".into())
            }
            None => (Some(scalar(e.get("value"))), String::new()),
        };
        ContainerEnv { name, value, from }
    }

    /// The container's `envFrom` sources.
    fn env_from(&mut self, c: &Value) -> Vec<String> {
        let mut env_from = Vec::new();
        for e in array_at(c, &["envFrom"]) {
            if let Some(r) = e.get("configMapRef") {
                let cm = scalar(r.get("name"));
                self.config_map(cm.clone());
                env_from.push(format!("ConfigMap {cm}"));
            }
            if let Some(r) = e.get("secretRef") {
                let secret = scalar(r.get("name"));
                self.uses
                    .push(SecretUse::new(self.o, self.path, &secret, "envFrom"));
                note(&mut self.secrets, secret.clone());
                env_from.push(format!("Secret {secret}"));
            }
        }
        env_from
    }

    /// The ConfigMaps and Secrets the pod's volumes mount, projected ones included.
    fn volumes(&mut self, pod: &Value) {
        for v in array_at(pod, &["volumes"]) {
            if let Some(cm) = v.get("configMap") {
                self.config_map(scalar(cm.get("name")));
            }
            if let Some(s) = v.get("secret") {
                let what = format!("volume {}", scalar(v.get("name")));
                self.secret(scalar(s.get("secretName")), &what);
            }
            for source in array_at(v, &["projected", "sources"]) {
                if let Some(cm) = source.get("configMap") {
                    self.config_map(scalar(cm.get("name")));
                }
                if let Some(s) = source.get("secret") {
                    self.secret(scalar(s.get("name")), "projected volume");
                }
            }
        }
    }
}

/// Adds a name to a list once; an empty name is none.
fn note(list: &mut Vec<String>, name: String) {
    if !name.is_empty() && !list.contains(&name) {
        list.push(name);
    }
}

/// What a patch file yielded: its workloads, and whether it held any object at all (a
/// JSON 6902 patch, a list of operations, holds none).
pub type PatchFile = (Vec<Workload>, bool);

/// Attaches to each workload the strategic-merge patches of the kustomizations that build
/// it (same kind and name; same namespace, or one of them written without), and names the
/// kustomizations whose other patches may change it (inline or JSON 6902 patches whose
/// target is this kind and name, or names none). A YAML patch file the repository does not
/// have is named apart (`missing_patches`): the overlay does not build as committed. Only
/// kustomizations of the workload's own area count: a test overlay does not change the
/// component. A workload under a chart's `files/` folder is read by the chart's templates
/// through `.Files`, which may change it: that is an unread patch too.
pub fn attach_patches(
    workloads: &mut [Workload],
    kustomizations: &[(
        &super::super::kustomize::KustomizationFile,
        &BTreeSet<String>,
    )],
    patch_files: &BTreeMap<String, PatchFile>,
) {
    for w in workloads.iter_mut() {
        let Some(file) = w.sources.first().map(|s| s.file.clone()) else {
            continue;
        };
        for (k, includes) in kustomizations {
            if k.model.area != w.area || !includes.contains(&file) {
                continue;
            }
            for entry in &k.patch_entries {
                let read = entry.file.as_ref().and_then(|f| patch_files.get(f));
                match read {
                    Some((patches, true)) => {
                        for p in patches.iter().filter(|p| {
                            p.kind == w.kind
                                && p.name == w.name
                                && (p.namespace == w.namespace
                                    || p.namespace.is_empty()
                                    || w.namespace.is_empty())
                        }) {
                            w.patches.push(p.clone());
                        }
                    }
                    None if entry
                        .file
                        .as_ref()
                        .is_some_and(|f| f.ends_with(".yaml") || f.ends_with(".yml")) =>
                    {
                        let f = entry.file.clone().unwrap_or_default();
                        if !w.missing_patches.contains(&f) {
                            w.missing_patches.push(f);
                        }
                    }
                    _ => {
                        let kind_ok = entry.target_kind.is_empty() || entry.target_kind == w.kind;
                        let name_ok = entry.target_name.is_empty() || entry.target_name == w.name;
                        let why = format!("the patches of kustomization {}", k.model.dir);
                        if kind_ok && name_ok && !w.unread_patches.contains(&why) {
                            w.unread_patches.push(why);
                        }
                    }
                }
            }
        }
    }
}

/// Marks workloads under the `files/` folder of a chart (`charts`: the charts' folders).
pub fn mark_chart_files(workloads: &mut [Workload], charts: &[String]) {
    for w in workloads.iter_mut() {
        let Some(file) = w.sources.first().map(|s| s.file.as_str()) else {
            continue;
        };
        for dir in charts {
            let files = if dir.is_empty() {
                "files/".to_string()
            } else {
                format!("{dir}/files/")
            };
            if file.starts_with(&files) {
                let why = format!("the templates of chart {dir} (.Files)");
                if !w.unread_patches.contains(&why) {
                    w.unread_patches.push(why);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
