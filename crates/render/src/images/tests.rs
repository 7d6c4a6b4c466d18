use super::*;

#[test]
fn docker_hub_names_compare_as_one() {
    assert_eq!(image_key("", "busybox"), "docker.io/library/busybox");
    assert_eq!(
        image_key("docker.io", "library/busybox"),
        "docker.io/library/busybox"
    );
    assert_eq!(image_key("quay.io", "x/y"), "quay.io/x/y");
}
