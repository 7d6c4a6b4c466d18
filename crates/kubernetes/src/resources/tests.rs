use super::*;
use model::Crd;

#[test]
fn plurals_come_from_tables_and_crds_never_from_spelling() {
    let p = Project {
        findings: model::Findings {
            crds: vec![Crd {
                group: "x.io".into(),
                kind: "Octopus".into(),
                plural: "octopodes".into(),
                ..Crd::default()
            }],
            ..Default::default()
        },
        ..Project::default()
    };
    let names = ResourceNames::new(&[p]);
    assert_eq!(names.kind_of("", "endpoints"), Some("Endpoints"));
    assert_eq!(
        names.kind_of("apps", "deployments/scale"),
        Some("Deployment")
    );
    assert_eq!(names.kind_of("x.io", "octopodes"), Some("Octopus"));
    assert_eq!(names.plural_of("x.io", "Octopus"), Some("octopodes"));
    assert_eq!(names.kind_of("x.io", "octopuses"), None);
    assert_eq!(names.plural_of("y.io", "Thing"), None);
}
