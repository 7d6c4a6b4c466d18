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
