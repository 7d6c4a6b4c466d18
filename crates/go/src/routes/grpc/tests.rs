use super::*;

#[test]
fn registration_names() {
    assert_eq!(
        registration("RegisterShopServer"),
        Some(("Shop", Registration::Server))
    );
    assert_eq!(
        registration("RegisterShopHandlerFromEndpoint"),
        Some(("Shop", Registration::Gateway))
    );
    assert_eq!(
        registration("RegisterShopHandler"),
        Some(("Shop", Registration::Gateway))
    );
    assert_eq!(
        registration("RegisterShopHandlerServer"),
        Some(("Shop", Registration::Gateway))
    );
    assert_eq!(registration("RegisterServer"), None);
    assert_eq!(registration("Register"), None);
    assert_eq!(registration("RegisterhandlerServer"), None);
    assert_eq!(registration("Registry"), None);
}

#[test]
fn gateway_patterns_are_rebuilt_from_op_codes() {
    let pool = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // /v1/items/{id}
    assert_eq!(
        rebuild_pattern(&[2, 0, 2, 1, 1, 0, 5, 2], &pool(&["v1", "items", "id"]), ""),
        Some("/v1/items/{id}".to_string())
    );
    // /v1/{name=shelves/*}:archive
    assert_eq!(
        rebuild_pattern(
            &[2, 0, 2, 1, 1, 0, 4, 2, 5, 2],
            &pool(&["v1", "shelves", "name"]),
            "archive"
        ),
        Some("/v1/{name=shelves/*}:archive".to_string())
    );
    // /files/{path=**}
    assert_eq!(
        rebuild_pattern(&[2, 0, 3, 0, 5, 1], &pool(&["files", "path"]), ""),
        Some("/files/{path=**}".to_string())
    );
    assert_eq!(rebuild_pattern(&[2, 9], &pool(&["v1"]), ""), None);
    assert_eq!(rebuild_pattern(&[4, 3], &pool(&[]), ""), None);
    assert_eq!(rebuild_pattern(&[5, 0], &pool(&["x"]), ""), None);
    assert_eq!(rebuild_pattern(&[7, 0], &pool(&[]), ""), None);
    assert_eq!(rebuild_pattern(&[2], &pool(&["a"]), ""), None);
}
