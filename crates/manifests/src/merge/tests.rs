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
