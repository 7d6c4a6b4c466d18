use super::*;

#[test]
fn test_only_attributes() {
    let only = |src: &str| {
        let f: syn::ItemFn = syn::parse_str(&format!("{src} fn f() {{}}")).unwrap();
        only_in_tests(&f.attrs)
    };
    assert!(only("#[test]"));
    assert!(only("#[tokio::test]"));
    assert!(only("#[cfg(test)]"));
    assert!(only("#[cfg(all(test, feature = \"x\"))]"));
    assert!(!only("#[cfg(not(test))]"));
    assert!(!only("#[cfg(any(test, feature = \"x\"))]"));
    assert!(!only("#[cfg(feature = \"test\")]"));
    assert!(!only("#[inline]"));
}

#[test]
fn reads_flags_values_expressions_and_groups() {
    let s: syn::ItemStruct = syn::parse_str(
            r##"#[kube(group = "kube.rs", namespaced, shortname = "doc", crates(kube_core = "x"), printcolumn = r#"{"a":1}"#)]
               #[arg(short = 'p', default_value_t = 8080)]
               struct X;"##,
        )
        .unwrap();
    let kube = args(&s.attrs, &["kube"]);
    let keys: Vec<&str> = kube.iter().map(|a| a.key.as_str()).collect();
    assert_eq!(
        keys,
        ["group", "namespaced", "shortname", "crates", "printcolumn"]
    );
    assert_eq!(
        value(&kube, "group").and_then(|a| a.value.clone()),
        Some("kube.rs".into())
    );
    let arg = args(&s.attrs, &["arg"]);
    assert_eq!(
        arg[0],
        Arg {
            key: "short".into(),
            value: Some("p".into()),
            is_expr: false
        }
    );
    assert_eq!(
        arg[1],
        Arg {
            key: "default_value_t".into(),
            value: Some("8080".into()),
            is_expr: true
        }
    );
}
