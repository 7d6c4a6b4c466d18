use super::*;

fn u(name: &str, ns: &str, what: &str, defines: bool, area: Area, file: &str) -> SecretUse {
    SecretUse {
        name: name.into(),
        namespace: ns.into(),
        what: what.into(),
        defines,
        secret_type: if defines {
            "Opaque".into()
        } else {
            String::new()
        },
        keys: if defines {
            vec!["token".into()]
        } else {
            vec![]
        },
        templated: false,
        bundled: false,
        area,
        source: SourceRef::new(file, 1),
    }
}

#[test]
fn uses_become_one_row_per_name() {
    let rows = assemble(vec![
        u(
            "db",
            "app",
            "Deployment app/api (env DB_PASSWORD)",
            false,
            Area::Component,
            "b.yaml",
        ),
        u("db", "", "Secret manifest", true, Area::Samples, "a.yaml"),
        u(
            "only-samples",
            "",
            "Pod x (volume)",
            false,
            Area::Samples,
            "c.yaml",
        ),
    ]);
    assert_eq!(rows.len(), 2);
    let db = &rows[0];
    assert_eq!(db.name, "db");
    assert_eq!(db.namespace, "app");
    assert_eq!(db.secret_type, "Opaque");
    assert_eq!(db.keys, vec!["token"]);
    assert_eq!(db.defined_by, vec!["Secret manifest"]);
    assert_eq!(
        db.referenced_by,
        vec!["Deployment app/api (env DB_PASSWORD)"]
    );
    assert_eq!(db.area, Area::Component);
    assert_eq!(
        db.sources,
        vec![SourceRef::new("a.yaml", 1), SourceRef::new("b.yaml", 1)]
    );
    assert_eq!(rows[1].area, Area::Samples);
}
