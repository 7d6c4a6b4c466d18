use super::*;

fn shown(p: Option<Parts>) -> String {
    match p {
        Some(p) => format!("{}|{}|{}|{}", p.registry, p.repository, p.tag, p.digest),
        None => "-".into(),
    }
}

#[test]
fn references_split_as_the_grammar_reads_them() {
    let digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    for (r, want) in [
        ("busybox", "|busybox||".to_string()),
        ("busybox:1.36", "|busybox|1.36|".into()),
        (
            "example.io/team/app:v1.2.0",
            "example.io|team/app|v1.2.0|".into(),
        ),
        ("localhost:5000/app", "localhost:5000|app||".into()),
        (
            "kserve/kserve-controller:latest",
            "|kserve/kserve-controller|latest|".into(),
        ),
        (
            &format!("quay.io/x/y@{digest}"),
            format!("quay.io|x/y||{digest}"),
        ),
        (
            &format!("quay.io/x/y:v1@{digest}"),
            format!("quay.io|x/y|v1|{digest}"),
        ),
        ("{{ .Values.image }}", "-".into()),
        ("${IMG}", "-".into()),
        ("Example/App", "-".into()),
        ("app:", "-".into()),
        ("quay.io/x/y@sha256:short", "-".into()),
        ("", "-".into()),
    ] {
        assert_eq!(shown(split(r)), want, "{r}");
    }
}
