use super::*;
use std::collections::BTreeSet;

#[test]
fn counts_take_the_right_noun() {
    assert_eq!(counted(0, "binary", "binaries"), "0 binaries");
    assert_eq!(counted(1, "binary", "binaries"), "1 binary");
    assert_eq!(counted(2, "CRD", "CRDs"), "2 CRDs");
}

#[test]
fn service_ports_say_what_the_manifest_left_out() {
    let port = |name: &str, number: &str, target: &str, protocol: &str| {
        service_port(&model::ServicePort {
            name: name.into(),
            port: number.into(),
            target_port: target.into(),
            protocol: protocol.into(),
        })
    };
    assert_eq!(
        port("https", "8443", "https", "TCP"),
        "8443→https/TCP (https)"
    );
    assert_eq!(port("", "80", "", ""), "80");
    // A base manifest an operator completes at run time: no number, said so.
    assert_eq!(port("http", "", "", "TCP"), "(no port number)/TCP (http)");
}

#[test]
fn path_segments_cannot_escape() {
    assert_eq!(path_segment("serving.kserve.io"), "serving.kserve.io");
    assert_eq!(path_segment("InferenceService"), "InferenceService");
    assert_eq!(path_segment("../../etc"), "etc");
    assert_eq!(path_segment("{{ .Values.group }}"), "Values.group");
    assert_eq!(path_segment(".."), "_");
    assert_eq!(path_segment(""), "_");
}

#[test]
fn name_segments_differ_for_different_names() {
    assert_eq!(name_segment("serving.kserve.io"), "serving.kserve.io");
    assert_eq!(name_segment("InferenceService"), "InferenceService");
    assert_eq!(name_segment(""), "_");
    assert_eq!(name_segment(".."), "_2e_2e");
    assert_eq!(name_segment("a/b"), "a_2fb");
    let names = [
        "a b", "a-b", "a_b", "a_5fb", "a.b", "-a", "a", "_", "", "a--b", "a-_b",
    ];
    let segments: BTreeSet<String> = names.iter().map(|n| name_segment(n)).collect();
    assert_eq!(segments.len(), names.len(), "{segments:?}");
    for s in &segments {
        assert!(!s.contains('/') && s != "." && s != "..", "{s}");
    }
}

#[test]
fn unique_names_skip_names_given_and_stay_linear() {
    let mut names = UniqueNames::default();
    assert_eq!(names.name("a"), "a");
    assert_eq!(names.name("a-2"), "a-2");
    assert_eq!(names.name("a"), "a-3");
    assert_eq!(names.name("a"), "a-4");
    assert_eq!(names.name("b"), "b");
    let many: BTreeSet<String> = (0..10_000).map(|_| names.name("c")).collect();
    assert_eq!(many.len(), 10_000);
}

#[test]
fn anchors_are_unique_per_page() {
    let mut a = Anchors::new();
    assert_eq!(a.unique(&["field", "spec.a-b"]), "field-spec-a-b");
    assert_eq!(a.unique(&["field", "spec.a.b"]), "field-spec-a-b-2");
}
