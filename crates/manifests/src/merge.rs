//! Merging identical objects found in several files into one row with several sources.

use std::collections::HashMap;

use model::{
    Autoscaler, Certificate, ConfigMap, Crd, DisruptionBudget, EnvVar, Flag, HelmChart,
    HttpEndpoint, ImageRef, Ingress, Kustomization, Metric, NetworkPolicy, RbacRule, Role,
    RoleBinding, Service, ServiceAccount, SourceRef, Webhook, Workload,
};

/// A model item that carries its sources.
pub trait Sourced: serde::Serialize {
    fn sources_mut(&mut self) -> &mut Vec<SourceRef>;
}

macro_rules! sourced {
    ($($t:ty),*) => {$(
        impl Sourced for $t {
            fn sources_mut(&mut self) -> &mut Vec<SourceRef> { &mut self.sources }
        }
    )*};
}
sourced!(
    Crd,
    ImageRef,
    Webhook,
    Service,
    ConfigMap,
    HelmChart,
    RbacRule,
    Role,
    RoleBinding,
    ServiceAccount,
    Workload,
    DisruptionBudget,
    Autoscaler,
    NetworkPolicy,
    Ingress,
    Certificate,
    Kustomization,
    Flag,
    EnvVar,
    Metric,
    HttpEndpoint
);

/// Folds items equal in everything but their sources into the first of them, keeping order.
/// A merged row's sources are sorted and deduplicated once, at the end: sorting them at
/// every merge made N copies of one object cost O(N² log N).
pub fn merge_identical<T: Sourced>(items: &mut Vec<T>) {
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    let mut merged = vec![false; items.len()];
    // The item serialized without its sources is its identity: equal JSON, equal item.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for mut item in items.drain(..) {
        let sources = std::mem::take(item.sources_mut());
        let key = serde_json::to_string(&item).unwrap_or_default();
        match seen.get(&key) {
            Some(&i) => {
                out[i].sources_mut().extend(sources);
                merged[i] = true;
            }
            None => {
                *item.sources_mut() = sources;
                seen.insert(key, out.len());
                out.push(item);
            }
        }
    }
    for (item, _) in out.iter_mut().zip(&merged).filter(|(_, m)| **m) {
        let sources = item.sources_mut();
        sources.sort();
        sources.dedup();
    }
    *items = out;
}

#[cfg(test)]
mod tests;
