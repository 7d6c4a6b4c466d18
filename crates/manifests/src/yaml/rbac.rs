//! Access control: Roles and ClusterRoles (as roles with their rules, and as the flat
//! `rbac` rule rows), RoleBindings and ClusterRoleBindings (subjects → role), and
//! ServiceAccounts with the Secrets they name.

use super::documents::Object;
use super::secrets::SecretUse;
use super::value::{array_at, at, pairs, scalar, strings};
use kubernetes::names::{qualified, role_key};
use model::{Area, Origin, PolicyRule, RbacRule, Role, RoleBinding, ServiceAccount, SourceRef};

/// A Role or ClusterRole, and the same rules as flat rows.
pub fn role(o: &Object, path: &str, area: Area) -> (Role, Vec<RbacRule>) {
    let key = role_key(&o.kind, &o.namespace, &o.name);
    let sources = vec![SourceRef::new(path, o.line)];
    let rules: Vec<PolicyRule> = array_at(&o.value, &["rules"])
        .iter()
        .map(|r| PolicyRule {
            groups: strings(r.get("apiGroups")),
            resources: strings(r.get("resources")),
            verbs: strings(r.get("verbs")),
            resource_names: strings(r.get("resourceNames")),
            non_resource_urls: strings(r.get("nonResourceURLs")),
        })
        .collect();
    let flat = rules
        .iter()
        .map(|r| {
            let mut resources = r.resources.clone();
            resources.extend(r.non_resource_urls.iter().cloned());
            RbacRule {
                role: key.clone(),
                groups: r.groups.clone(),
                resources,
                verbs: r.verbs.clone(),
                resource_names: r.resource_names.clone(),
                origin: Origin::Manifest,
                templated: o.templated,
                bundled: false,
                area,
                sources: sources.clone(),
            }
        })
        .collect();
    let aggregation = array_at(&o.value, &["aggregationRule", "clusterRoleSelectors"])
        .iter()
        .flat_map(|s| pairs(s.get("matchLabels")))
        .collect();
    (
        Role {
            kind: o.kind.clone(),
            name: o.name.clone(),
            namespace: o.namespace.clone(),
            rules,
            aggregation,
            templated: o.templated,
            bundled: false,
            area,
            sources,
        },
        flat,
    )
}

pub fn binding(o: &Object, path: &str, area: Area) -> RoleBinding {
    let role_kind = scalar(at(&o.value, &["roleRef", "kind"]));
    let role_name = scalar(at(&o.value, &["roleRef", "name"]));
    let subjects = array_at(&o.value, &["subjects"])
        .iter()
        .map(|s| {
            let kind = scalar(s.get("kind"));
            let name = scalar(s.get("name"));
            if kind == "ServiceAccount" {
                // A ServiceAccount subject without a namespace is invalid for the API
                // server, but kustomize fills it in from the overlay: keep it as written.
                format!("{kind} {}", qualified(&scalar(s.get("namespace")), &name))
            } else {
                format!("{kind} {name}")
            }
        })
        .collect();
    RoleBinding {
        kind: o.kind.clone(),
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        // A RoleBinding may bind a Role (in its own namespace) or a ClusterRole.
        role: role_key(&role_kind, &o.namespace, &role_name),
        subjects,
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

pub fn service_account(
    o: &Object,
    path: &str,
    area: Area,
    uses: &mut Vec<SecretUse>,
) -> ServiceAccount {
    let names = |key: &str| -> Vec<String> {
        array_at(&o.value, &[key])
            .iter()
            .map(|s| scalar(s.get("name")))
            .filter(|n| !n.is_empty())
            .collect()
    };
    let secrets = names("secrets");
    let image_pull_secrets = names("imagePullSecrets");
    for s in &secrets {
        uses.push(SecretUse::new(o, path, s, "secrets"));
    }
    for s in &image_pull_secrets {
        uses.push(SecretUse::new(o, path, s, "imagePullSecrets"));
    }
    ServiceAccount {
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        secrets,
        image_pull_secrets,
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

#[cfg(test)]
mod tests;
