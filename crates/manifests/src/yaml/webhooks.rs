//! Admission webhook configurations: one row per entry of `webhooks:` of a
//! MutatingWebhookConfiguration or ValidatingWebhookConfiguration, with its service (or
//! URL), path, failure policy and rules. Each entry points at the line of its own `name:`.

use serde_json::Value;

use super::documents::Object;
use super::value::{array_at, line_of_name, scalar, str_at, strings};
use kubernetes::names::qualified;
use model::{Area, Origin, SourceRef, Webhook, WebhookRule, WebhookType};

/// The webhooks a configuration object declares; `doc` is its document's text.
pub fn extract(o: &Object, doc: &str, path: &str, area: Area) -> Vec<Webhook> {
    let kind = if o.kind.starts_with("Mutating") {
        WebhookType::Mutating
    } else {
        WebhookType::Validating
    };
    let mut from = o.line;
    array_at(&o.value, &["webhooks"])
        .iter()
        .map(|w| {
            let name = scalar(w.get("name"));
            let line = line_of_name(doc, o.first_line, from, &name).unwrap_or(o.line);
            from = line.max(from);
            entry(w, name, kind, o, area, SourceRef::new(path, line))
        })
        .collect()
}

fn entry(
    w: &Value,
    name: String,
    kind: WebhookType,
    o: &Object,
    area: Area,
    source: SourceRef,
) -> Webhook {
    let client = w.get("clientConfig").unwrap_or(&Value::Null);
    let (service, path) = match client.get("service") {
        Some(svc) => (
            qualified(str_at(svc, &["namespace"]), str_at(svc, &["name"])),
            str_at(svc, &["path"]).to_string(),
        ),
        None => (str_at(client, &["url"]).to_string(), String::new()),
    };
    let policy = scalar(w.get("failurePolicy"));
    Webhook {
        name,
        kind,
        path,
        // admissionregistration/v1 defaults an absent failurePolicy to Fail.
        failure_policy: if policy.is_empty() {
            "Fail (default)".into()
        } else {
            policy
        },
        service,
        configuration: o.name.clone(),
        rules: array_at(w, &["rules"])
            .iter()
            .map(|r| WebhookRule {
                operations: strings(r.get("operations")),
                groups: strings(r.get("apiGroups")),
                versions: strings(r.get("apiVersions")),
                resources: strings(r.get("resources")),
                scope: scalar(r.get("scope")),
            })
            .collect(),
        resolved_service: String::new(),
        substitutions: Vec::new(),
        origin: Origin::Manifest,
        object: None,
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![source],
    }
}

/// Merges webhooks that are the same once kustomize substitutions are applied: the entry
/// of a kustomize base (`$(namespace)/$(service)` resolved through `replacements`) and
/// the same entry rendered into a Helm chart (`kserve/webhook-service`) are one webhook
/// with two sources. The row keeps the substitutions, so the written form stays visible.
pub fn merge_deployed(hooks: &mut Vec<Webhook>) {
    let effective = |w: &Webhook| -> String {
        let service = if w.resolved_service.is_empty() {
            &w.service
        } else {
            &w.resolved_service
        };
        serde_json::json!([
            w.name,
            w.kind,
            w.path,
            w.failure_policy,
            service,
            w.configuration,
            w.rules,
            w.templated,
            w.bundled,
            w.area
        ])
        .to_string()
    };
    let mut out: Vec<Webhook> = Vec::with_capacity(hooks.len());
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for w in hooks.drain(..) {
        let key = effective(&w);
        match seen.get(&key).and_then(|&i| out.get_mut(i)) {
            Some(first) => {
                let mut sources = std::mem::take(&mut first.sources);
                sources.extend(w.sources.iter().cloned());
                if first.substitutions.is_empty() && !w.substitutions.is_empty() {
                    *first = w;
                }
                sources.sort();
                sources.dedup();
                first.sources = sources;
            }
            None => {
                seen.insert(key, out.len());
                out.push(w);
            }
        }
    }
    *hooks = out;
}

#[cfg(test)]
mod tests;
