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
mod tests {
    use super::*;
    use model::Area;

    fn cm(name: &str, file: &str) -> ConfigMap {
        ConfigMap {
            name: name.into(),
            namespace: "ns".into(),
            keys: vec!["a".into()],
            generated_by: String::new(),
            env_files: Vec::new(),
            templated: false,
            bundled: false,
            area: Area::Component,
            sources: vec![SourceRef::new(file, 2)],
        }
    }

    #[test]
    fn identical_objects_become_one_row_with_two_sources() {
        let mut items = vec![cm("x", "b.yaml"), cm("y", "c.yaml"), cm("x", "a.yaml")];
        merge_identical(&mut items);
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].name, "x");
        assert_eq!(
            items[0].sources,
            vec![SourceRef::new("a.yaml", 2), SourceRef::new("b.yaml", 2)]
        );
        assert_eq!(items[1].sources, vec![SourceRef::new("c.yaml", 2)]);
    }

    #[test]
    fn different_objects_with_one_name_stay_apart() {
        let mut other = cm("x", "b.yaml");
        other.keys.push("b".into());
        let mut items = vec![cm("x", "a.yaml"), other];
        merge_identical(&mut items);
        assert_eq!(items.len(), 2);
    }

    #[test]
    fn many_copies_of_one_object_are_one_row_listing_every_copy() {
        // One YAML file of N identical documents: N sources, one per document, in order.
        let n: u32 = 5000;
        let mut items: Vec<ConfigMap> = (0..n)
            .rev()
            .map(|k| {
                let mut c = cm("x", "all.yaml");
                c.sources = vec![SourceRef::new("all.yaml", 8 * k + 2)];
                c
            })
            .collect();
        items.push(cm("x", "all.yaml")); // the first document again: listed once
        merge_identical(&mut items);
        assert_eq!(items.len(), 1);
        let lines: Vec<u32> = items[0].sources.iter().map(|s| s.line).collect();
        assert_eq!(lines, (0..n).map(|k| 8 * k + 2).collect::<Vec<_>>());
    }
}
