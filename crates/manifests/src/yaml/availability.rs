//! Availability and resources, as written in manifests: a container's requests, limits and
//! probes, a pod's anti-affinity, topology spread and priority class
//! (`pod_settings`), PodDisruptionBudgets (`disruption_budget`) and
//! HorizontalPodAutoscalers (`autoscaler`).
//!
//! Values are kept as written. A value Helm did not render stays as its template text;
//! a key whose value a template line writes (`resources:` followed by
//! `{{- toYaml .Values.resources | nindent 12 }}`, blanked when masked) reads as null and
//! is marked templated, never as missing. Matching budgets and autoscalers to workloads,
//! and the flags, are `derive::availability`'s.

use serde_json::Value;

use super::documents::Object;
use super::value::{array_at, at, pairs, scalar, strings};
use kubernetes::helm::action_spans;
use model::{Area, Autoscaler, DisruptionBudget, Probe, SourceRef};

/// Whether a value is a template Helm did not render: the placeholder's restored text.
fn is_template(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.contains("{{"))
}

/// Whether the value of a present key is unknown because of a template: template text, or
/// null in a templated object (its content was a blanked template line).
pub fn templated_value(v: Option<&Value>, templated: bool) -> bool {
    match v {
        Some(Value::Null) => templated,
        Some(v) => is_template(v),
        None => false,
    }
}

/// A container's `resources`: requests, limits (`name=quantity`), and whether they are
/// templated.
pub fn resources(c: &Value, templated: bool) -> (Vec<String>, Vec<String>, bool) {
    let r = c.get("resources");
    let requests = pairs(r.and_then(|r| r.get("requests")));
    let limits = pairs(r.and_then(|r| r.get("limits")));
    let unknown = templated_value(r, templated)
        || ["requests", "limits"]
            .iter()
            .any(|k| templated_value(r.and_then(|r| r.get(k)), templated));
    (requests, limits, unknown)
}

/// The probe at `key` of a container.
pub fn probe(c: &Value, key: &str, templated: bool) -> Option<Probe> {
    let v = c.get(key)?;
    if templated_value(Some(v), templated) {
        return Some(Probe {
            kind: String::new(),
            target: v.as_str().unwrap_or_default().to_string(),
            timing: Vec::new(),
            templated: true,
        });
    }
    let port = |h: &Value| scalar(h.get("port"));
    let (kind, target) = if let Some(h) = v.get("httpGet") {
        let scheme = match scalar(h.get("scheme")).as_str() {
            "" | "HTTP" => String::new(),
            s => format!("{} ", s.to_ascii_lowercase()),
        };
        (
            "http",
            format!("{scheme}{} :{}", scalar(h.get("path")), port(h)),
        )
    } else if let Some(t) = v.get("tcpSocket") {
        ("tcp", format!(":{}", port(t)))
    } else if let Some(g) = v.get("grpc") {
        let service = scalar(g.get("service"));
        (
            "grpc",
            format!(
                ":{}{}",
                port(g),
                if service.is_empty() {
                    String::new()
                } else {
                    format!(" service {service}")
                }
            ),
        )
    } else if let Some(e) = v.get("exec") {
        ("exec", strings(e.get("command")).join(" "))
    } else {
        ("", String::new())
    };
    let timing = [
        "initialDelaySeconds",
        "periodSeconds",
        "timeoutSeconds",
        "failureThreshold",
        "successThreshold",
    ]
    .iter()
    .filter_map(|k| {
        let x = scalar(v.get(*k));
        (!x.is_empty()).then(|| format!("{k}={x}"))
    })
    .collect();
    Some(Probe {
        kind: kind.to_string(),
        target: target.trim().to_string(),
        timing,
        templated: false,
    })
}

/// A label selector's `matchLabels` and `matchExpressions` (`key Op a,b`).
fn selector(v: Option<&Value>) -> (Vec<String>, Vec<String>) {
    let labels = pairs(v.and_then(|s| s.get("matchLabels")));
    let expressions = v
        .map(|s| array_at(s, &["matchExpressions"]))
        .unwrap_or(&[])
        .iter()
        .map(|e| {
            let values = strings(e.get("values")).join(",");
            format!(
                "{} {}{}",
                scalar(e.get("key")),
                scalar(e.get("operator")),
                if values.is_empty() {
                    String::new()
                } else {
                    format!(" {values}")
                }
            )
        })
        .collect();
    (labels, expressions)
}

/// A selector as one text: `app=x, tier In a,b`.
fn selector_text(v: Option<&Value>) -> String {
    let (mut labels, expressions) = selector(v);
    labels.extend(expressions);
    labels.join(", ")
}

/// The pod's availability settings: priority class, anti-affinity terms and topology
/// spread constraints.
pub struct PodSettings {
    pub priority_class: String,
    pub anti_affinity: Vec<String>,
    pub topology_spread: Vec<String>,
}

pub fn pod_settings(pod: &Value, templated: bool) -> PodSettings {
    let mut anti_affinity = Vec::new();
    let anti = at(pod, &["affinity", "podAntiAffinity"]);
    if templated_value(at(pod, &["affinity"]), templated) || templated_value(anti, templated) {
        anti_affinity.push("templated".to_string());
    }
    if let Some(anti) = anti {
        for t in array_at(anti, &["requiredDuringSchedulingIgnoredDuringExecution"]) {
            anti_affinity.push(format!(
                "required topologyKey={} ({})",
                scalar(t.get("topologyKey")),
                selector_text(t.get("labelSelector"))
            ));
        }
        for t in array_at(anti, &["preferredDuringSchedulingIgnoredDuringExecution"]) {
            let term = t.get("podAffinityTerm");
            anti_affinity.push(format!(
                "preferred weight={} topologyKey={} ({})",
                scalar(t.get("weight")),
                scalar(term.and_then(|x| x.get("topologyKey"))),
                selector_text(term.and_then(|x| x.get("labelSelector")))
            ));
        }
    }
    let spread_value = pod.get("topologySpreadConstraints");
    let mut topology_spread: Vec<String> = array_at(pod, &["topologySpreadConstraints"])
        .iter()
        .map(|t| {
            format!(
                "topologyKey={} maxSkew={} whenUnsatisfiable={}",
                scalar(t.get("topologyKey")),
                scalar(t.get("maxSkew")),
                scalar(t.get("whenUnsatisfiable"))
            )
        })
        .collect();
    if templated_value(spread_value, templated) {
        topology_spread.push("templated".to_string());
    }
    PodSettings {
        priority_class: scalar(pod.get("priorityClassName")),
        anti_affinity,
        topology_spread,
    }
}

/// The first words of template actions that write no text.
const CONTROL: [&str; 8] = [
    "if", "else", "end", "with", "range", "define", "break", "continue",
];

/// Whether a template action writes text: not control flow, a comment or an assignment.
fn writes_text(action: &str) -> bool {
    let inner = action
        .trim_start_matches("{{")
        .trim_end_matches("}}")
        .trim_matches(|c: char| c == '-' || c.is_whitespace());
    let first = inner.split_whitespace().next().unwrap_or("");
    let assignment = first.starts_with('$') && inner.contains('=');
    !(inner.is_empty() || inner.starts_with("/*") || assignment || CONTROL.contains(&first))
}

/// Whether a line of a template is made of bare actions only, one of which writes YAML
/// (`toYaml`, `include`, `.Values.x`, …).
fn writes_yaml(line: &str) -> bool {
    let spans = action_spans(line);
    let mut rest = String::new();
    let mut from = 0;
    let mut writes = false;
    for (s, e) in spans {
        rest.push_str(&line[from..s]);
        from = e;
        writes |= writes_text(&line[s..e]);
    }
    rest.push_str(&line[from..]);
    writes && rest.trim().is_empty()
}

/// Whether some line of a document's text is a bare action that writes YAML (see the
/// module documentation): a field the object lacks may come from it.
pub fn unrendered_yaml(text: &str) -> bool {
    text.lines().any(writes_yaml)
}

pub fn disruption_budget(o: &Object, path: &str, area: Area) -> DisruptionBudget {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let (selector, selector_expressions) = selector(spec.get("selector"));
    DisruptionBudget {
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        api_version: scalar(o.value.get("apiVersion")),
        min_available: scalar(spec.get("minAvailable")),
        max_unavailable: scalar(spec.get("maxUnavailable")),
        selector,
        selector_expressions,
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

/// One HPA metric as a line (autoscaling/v2 and v2beta2 `target`, v2beta1 `target…`).
fn metric(m: &Value) -> String {
    let kind = scalar(m.get("type"));
    let source = match kind.as_str() {
        "Resource" => m.get("resource"),
        "ContainerResource" => m.get("containerResource"),
        "Pods" => m.get("pods"),
        "Object" => m.get("object"),
        "External" => m.get("external"),
        _ => None,
    };
    let Some(s) = source else {
        return kind;
    };
    let name = match scalar(s.get("name")) {
        n if n.is_empty() => scalar(at(s, &["metric", "name"])),
        n => n,
    };
    let name = if name.is_empty() {
        scalar(s.get("metricName"))
    } else {
        name
    };
    let target = match s.get("target") {
        Some(t) => match scalar(t.get("type")).as_str() {
            "Utilization" => format!("utilization {}%", scalar(t.get("averageUtilization"))),
            "AverageValue" => format!("average {}", scalar(t.get("averageValue"))),
            "Value" => format!("value {}", scalar(t.get("value"))),
            other => other.to_string(),
        },
        None => [
            ("targetAverageUtilization", "utilization ", "%"),
            ("targetAverageValue", "average ", ""),
            ("targetValue", "value ", ""),
        ]
        .iter()
        .find_map(|(k, before, after)| {
            let x = scalar(s.get(*k));
            (!x.is_empty()).then(|| format!("{before}{x}{after}"))
        })
        .unwrap_or_default(),
    };
    let container = scalar(s.get("container"));
    let mut line = format!("{} {name}", kind.to_ascii_lowercase());
    if !container.is_empty() {
        line.push_str(&format!(" (container {container})"));
    }
    if !target.is_empty() {
        line.push_str(&format!(" {target}"));
    }
    line
}

pub fn autoscaler(o: &Object, path: &str, area: Area) -> Autoscaler {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let target = spec.get("scaleTargetRef").unwrap_or(&Value::Null);
    let mut metrics: Vec<String> = array_at(spec, &["metrics"]).iter().map(metric).collect();
    let cpu = scalar(spec.get("targetCPUUtilizationPercentage"));
    if !cpu.is_empty() {
        metrics.push(format!("resource cpu utilization {cpu}%"));
    }
    Autoscaler {
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        api_version: scalar(o.value.get("apiVersion")),
        target_kind: scalar(target.get("kind")),
        target_name: scalar(target.get("name")),
        target_api_version: scalar(target.get("apiVersion")),
        min_replicas: scalar(spec.get("minReplicas")),
        max_replicas: scalar(spec.get("maxReplicas")),
        metrics,
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

#[cfg(test)]
mod tests;
