use super::*;

#[test]
fn kind_urls_use_core_for_the_empty_group_and_stay_in_their_folder() {
    assert_eq!(kind_url("/atlas/", "", "Pod"), "/atlas/kinds/core/Pod/");
    assert_eq!(
        kind_url("/", "inference.networking.k8s.io", "InferencePool"),
        "/kinds/inference.networking.k8s.io/InferencePool/"
    );
    assert_eq!(kind_url("/", "../x", "a/b"), "/kinds/_2e_2e_2fx/a_2fb/");
    // Kinds whose names differ get pages of their own, however they are spelled.
    assert_ne!(kind_url("/", "x.io", "a b"), kind_url("/", "x.io", "a-b"));
    assert_ne!(kind_url("/", "core", "Pod"), kind_url("/", "", "Pod"));
}
