//! ConfigMaps: their `data` and `binaryData` keys (values are not listed: they may be
//! large, and a key tells what is configurable). ConfigMaps that kustomize generates are
//! made in `kustomize`.

use super::documents::Object;
use super::value::keys;
use model::{Area, ConfigMap, SourceRef};

pub fn extract(o: &Object, path: &str, area: Area) -> ConfigMap {
    let mut all = keys(o.value.get("data"));
    all.extend(keys(o.value.get("binaryData")));
    all.sort();
    all.dedup();
    ConfigMap {
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        keys: all,
        generated_by: String::new(),
        env_files: Vec::new(),
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

#[cfg(test)]
mod tests;
