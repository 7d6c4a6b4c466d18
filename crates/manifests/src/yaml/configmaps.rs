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
mod tests {
    use super::*;
    use crate::yaml::documents::{Read, read, split_documents};

    #[test]
    fn data_and_binary_data_keys() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  namespace: ns\ndata:\n  b: \"1\"\n  a: |\n    x\nbinaryData:\n  logo.png: aGVsbG8=\n";
        let docs = split_documents(text);
        let Read::Object(o) = read(&docs[0], false) else {
            panic!()
        };
        let c = extract(&o, "cm.yaml", Area::Component);
        assert_eq!(c.keys, vec!["a", "b", "logo.png"]);
        assert_eq!(c.sources, vec![SourceRef::new("cm.yaml", 2)]);
    }
}
