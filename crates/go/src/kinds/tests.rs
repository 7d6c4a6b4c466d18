use super::*;

fn crd(group: &str, kind: &str, versions: &[(&str, bool)]) -> Crd {
    Crd {
        group: group.into(),
        kind: kind.into(),
        versions: versions
            .iter()
            .map(|(name, served)| model::CrdVersion {
                name: name.to_string(),
                served: *served,
                storage: false,
                deprecated: false,
                printer_columns: Vec::new(),
            })
            .collect(),
        ..Crd::default()
    }
}

#[test]
fn shipped_crds_match_kind_and_served_version_once() {
    let crds = [
        crd(
            "widgets.foo.io",
            "Widget",
            &[("v1alpha1", true), ("v1", true)],
        ),
        // The same CRD shipped twice (kustomize base and Helm chart) is one candidate.
        crd("widgets.foo.io", "Widget", &[("v1alpha1", true)]),
        crd("old.foo.io", "Gadget", &[("v1alpha1", false)]),
        crd("a.io", "Twin", &[("v1", true)]),
        crd("b.io", "Twin", &[("v1", true)]),
    ];
    let shipped = ShippedCrds::new(&crds);
    assert_eq!(
        shipped.lookup("github.com/foo/bar/apis/widgets/v1alpha1", "Widget"),
        Shipped::One("widgets.foo.io".into(), "v1alpha1".into())
    );
    // The last version-like element, wherever it is in the path.
    assert_eq!(
        shipped.lookup("github.com/foo/bar/v3/apis/v1/types", "Widget"),
        Shipped::One("widgets.foo.io".into(), "v1".into())
    );
    assert_eq!(
        shipped.lookup("github.com/foo/bar/apis/widgets/v2", "Widget"),
        Shipped::None
    );
    // A version the CRD does not serve.
    assert_eq!(
        shipped.lookup("github.com/foo/bar/apis/v1alpha1", "Gadget"),
        Shipped::None
    );
    assert_eq!(
        shipped.lookup("github.com/foo/bar/apis/widgets", "Widget"),
        Shipped::None
    );
    assert_eq!(
        shipped.lookup("example.com/twins/v1", "Twin"),
        Shipped::Several(vec!["a.io".into(), "b.io".into()])
    );
}
