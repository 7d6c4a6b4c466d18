//! Secrets by name: where they are defined (Secret manifests, kustomize `secretGenerator`,
//! cert-manager Certificates) and where they are referenced (pods, ServiceAccounts, TLS of
//! Ingresses and Gateways). Only names and key names are read; a Secret's values are never
//! looked at, let alone stored.
//!
//! Rows are keyed by name alone: references usually omit the namespace (they mean their
//! own), and kustomize sets namespaces only when it builds an overlay. The namespaces seen
//! are listed on the row.

use std::collections::BTreeMap;

use super::documents::Object;
use super::value::{keys, scalar};
use kubernetes::names::qualified;
use model::{Area, Secret, SourceRef};

/// One place a Secret is defined or used, before rows are assembled per project.
#[derive(Debug, Clone, PartialEq)]
pub struct SecretUse {
    pub name: String,
    pub namespace: String,
    /// `Deployment ns/name (env DB_PASSWORD)`, or for a definition what defines it.
    pub what: String,
    pub defines: bool,
    pub secret_type: String,
    pub keys: Vec<String>,
    pub templated: bool,
    /// Set when the use comes from bundled dependency manifests.
    pub bundled: bool,
    pub area: Area,
    pub source: SourceRef,
}

impl SecretUse {
    /// A reference to secret `name` by object `o`; `how` says how (`env X`, `volume`, …).
    pub fn new(o: &Object, path: &str, name: &str, how: &str) -> SecretUse {
        SecretUse {
            name: name.to_string(),
            namespace: o.namespace.clone(),
            what: format!("{} {} ({how})", o.kind, qualified(&o.namespace, &o.name)),
            defines: false,
            secret_type: String::new(),
            keys: Vec::new(),
            templated: o.templated,
            bundled: false,
            area: Area::Component,
            source: SourceRef::new(path, o.line),
        }
    }
}

/// A Secret manifest: its name, type and key names.
pub fn defined(o: &Object, path: &str) -> SecretUse {
    let mut key_names = keys(o.value.get("data"));
    key_names.extend(keys(o.value.get("stringData")));
    key_names.sort();
    key_names.dedup();
    SecretUse {
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        what: "Secret manifest".into(),
        defines: true,
        secret_type: scalar(o.value.get("type")),
        keys: key_names,
        templated: o.templated,
        bundled: false,
        area: Area::Component,
        source: SourceRef::new(path, o.line),
    }
}

/// One row per secret name. A row is from samples only when every use is, and bundled
/// only when every use is.
pub fn assemble(uses: Vec<SecretUse>) -> Vec<Secret> {
    let mut rows: BTreeMap<String, Secret> = BTreeMap::new();
    for u in uses {
        let row = rows.entry(u.name.clone()).or_insert_with(|| Secret {
            name: u.name.clone(),
            namespace: String::new(),
            secret_type: String::new(),
            keys: Vec::new(),
            defined_by: Vec::new(),
            referenced_by: Vec::new(),
            templated: false,
            bundled: true,
            area: Area::Samples,
            sources: Vec::new(),
        });
        row.bundled &= u.bundled;
        if !u.namespace.is_empty() {
            let mut namespaces: Vec<&str> = row.namespace.split(", ").collect();
            if !namespaces.contains(&u.namespace.as_str()) {
                namespaces.retain(|n| !n.is_empty());
                namespaces.push(&u.namespace);
                namespaces.sort();
                row.namespace = namespaces.join(", ");
            }
        }
        if row.secret_type.is_empty() {
            row.secret_type = u.secret_type.clone();
        }
        for k in u.keys {
            if !row.keys.contains(&k) {
                row.keys.push(k);
            }
        }
        let list = if u.defines {
            &mut row.defined_by
        } else {
            &mut row.referenced_by
        };
        if !list.contains(&u.what) {
            list.push(u.what);
        }
        row.templated |= u.templated;
        if u.area.is_component() {
            row.area = Area::Component;
        }
        if !row.sources.contains(&u.source) {
            row.sources.push(u.source);
        }
    }
    let mut out: Vec<Secret> = rows.into_values().collect();
    for row in &mut out {
        row.keys.sort();
        row.defined_by.sort();
        row.referenced_by.sort();
        row.sources.sort();
    }
    out
}

#[cfg(test)]
mod tests;
