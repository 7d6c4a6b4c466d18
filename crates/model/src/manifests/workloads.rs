//! Workloads and what shapes their pods: containers, probes, disruption budgets and
//! autoscalers.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

/// A Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct Workload {
    pub kind: String,
    pub name: String,
    pub namespace: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub replicas: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub service_account: String,
    /// The pod template's labels as `key=value`, which Service selectors match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pod_labels: Vec<String>,
    pub containers: Vec<Container>,
    /// The pod's `securityContext` as `key=value` settings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub security_context: Vec<String>,
    /// ConfigMaps the pod mounts or reads through `envFrom`/`valueFrom`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config_maps: Vec<String>,
    /// Secrets the pod mounts, reads or pulls images with (names only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<String>,
    /// `spec.template.spec.priorityClassName`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub priority_class: String,
    /// Pod anti-affinity terms: `required topologyKey=K (app=x)` or
    /// `preferred weight=W topologyKey=K (app=x)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anti_affinity: Vec<String>,
    /// `topologySpreadConstraints`: `topologyKey=K maxSkew=N whenUnsatisfiable=W`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topology_spread: Vec<String>,
    /// A line of the template writes YAML that was not rendered (`toYaml`, `include` of an
    /// unknown template): a field the object lacks may come from it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unrendered_yaml: bool,
    /// Strategic-merge patches of a kustomization that builds this object, as parsed from
    /// the patch files (each with its own source), in the order listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patches: Vec<Workload>,
    /// Kustomizations building this object that patch it in a way portolan does not read
    /// (inline or JSON 6902 patches), by folder, and the chart whose templates read it
    /// through `.Files` (a manifest under a chart's `files/`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread_patches: Vec<String>,
    /// Patch files a kustomization building this object lists but the repository does not
    /// have (that overlay does not build as committed): named, not applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_patches: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A PodDisruptionBudget: how many pods of its selector may be evicted at once.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct DisruptionBudget {
    pub name: String,
    pub namespace: String,
    /// `policy/v1` or `policy/v1beta1` (an empty selector selects every pod in v1, none in
    /// v1beta1).
    pub api_version: String,
    /// As written (`1`, `50%`); empty when not set.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub min_available: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub max_unavailable: String,
    /// `matchLabels` as `key=value`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selector: Vec<String>,
    /// `matchExpressions` as `key Operator v1,v2`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selector_expressions: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A HorizontalPodAutoscaler and the object it scales.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Autoscaler {
    pub name: String,
    pub namespace: String,
    /// `autoscaling/v1`, `autoscaling/v2`, …
    pub api_version: String,
    /// `scaleTargetRef`: kind and name (and its apiVersion as written).
    pub target_kind: String,
    pub target_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target_api_version: String,
    /// As written; empty when not set (Kubernetes' default minimum is 1).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub min_replicas: String,
    pub max_replicas: String,
    /// One line per metric: `cpu utilization 80%`, `pods requests_per_second average 10`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A container probe: `http GET /healthz :8081`, `tcp :8080`, `grpc :9090`, `exec cat …`,
/// with its delays as `initialDelaySeconds=…` settings.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// `http`, `tcp`, `grpc`, `exec`, or empty when the probe names none of them.
    #[serde(rename = "type")]
    pub kind: String,
    /// The path and port (http), port (tcp, grpc) or command (exec).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// `initialDelaySeconds`, `periodSeconds`, `timeoutSeconds`, `failureThreshold`,
    /// `successThreshold` as `key=value`, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timing: Vec<String>,
    /// The probe is written as a template action portolan did not render.
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct Container {
    pub name: String,
    pub image: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub init: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<ContainerEnv>,
    /// `envFrom` sources: `ConfigMap NAME` or `Secret NAME`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env_from: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub security_context: Vec<String>,
    /// `resources.requests` as `name=quantity` (`cpu=100m`, `memory=64Mi`), as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
    /// `resources.limits` as `name=quantity`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<String>,
    /// `resources` is written as a template action (or a key whose value a template writes)
    /// that was not rendered.
    #[serde(default, skip_serializing_if = "is_false")]
    pub resources_templated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_probe: Option<Probe>,
}

impl Workload {
    /// The containers with the workload's kustomize patches applied, in order, matched by
    /// name (a patch's container with no match is added): its requests, limits and
    /// environment variables replace the same keys, its probes the same probes.
    pub fn patched_containers(&self) -> Vec<Container> {
        let mut containers = self.containers.clone();
        for patch in &self.patches {
            for pc in &patch.containers {
                match containers
                    .iter_mut()
                    .find(|c| c.name == pc.name && c.init == pc.init)
                {
                    Some(c) => {
                        merge_pairs(&mut c.requests, &pc.requests);
                        merge_pairs(&mut c.limits, &pc.limits);
                        c.resources_templated |= pc.resources_templated;
                        for (mine, theirs) in [
                            (&mut c.liveness_probe, &pc.liveness_probe),
                            (&mut c.readiness_probe, &pc.readiness_probe),
                            (&mut c.startup_probe, &pc.startup_probe),
                        ] {
                            if theirs.is_some() {
                                *mine = theirs.clone();
                            }
                        }
                        for e in &pc.env {
                            c.env.retain(|mine| mine.name != e.name);
                            c.env.push(e.clone());
                        }
                    }
                    None => containers.push(pc.clone()),
                }
            }
        }
        containers
    }
}

/// `key=value` pairs of `patch` replacing those of `base` with the same key.
fn merge_pairs(base: &mut Vec<String>, patch: &[String]) {
    for x in patch {
        let key = x.split('=').next().unwrap_or(x);
        base.retain(|b| b.split('=').next() != Some(key));
        base.push(x.clone());
    }
    base.sort();
}

impl Container {
    /// `resources.limits.memory` as written, if the container sets it.
    pub fn memory_limit(&self) -> Option<&str> {
        self.limits.iter().find_map(|l| l.strip_prefix("memory="))
    }
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ContainerPort {
    pub name: String,
    pub port: String,
    pub protocol: String,
}

/// An environment variable. `value` is set only for a literal value whose name does not
/// suggest a secret; `from` says where any other value comes from (never a secret's value).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ContainerEnv {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub from: String,
}
