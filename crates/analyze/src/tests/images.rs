fn rows(files: &[(&str, &str)]) -> Vec<String> {
    super::project(files)
        .images
        .iter()
        .map(|i| {
            let at: Vec<String> = i
                .sources
                .iter()
                .map(|s| format!("{}:{}", s.file, s.line))
                .collect();
            format!(
                "{:?} {} | {} | {}",
                i.origin,
                i.reference,
                i.context,
                at.join(" ")
            )
        })
        .collect()
}

#[test]
fn lines_of_init_containers_written_after_the_containers() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: busybox:1.36\n  - name: b\n    image: \"example.io/b:v1\" # pinned\n  initContainers:\n  - name: i\n    image: busybox:1.36\n";
    assert_eq!(
        rows(&[("pod.yaml", pod)]),
        [
            "Manifest busybox:1.36 | Pod p, init container i | pod.yaml:13",
            "Manifest busybox:1.36 | Pod p, container a | pod.yaml:8",
            "Manifest example.io/b:v1 | Pod p, container b | pod.yaml:10",
        ]
    );
}

#[test]
fn an_image_written_before_its_name_keeps_its_own_line() {
    let cr = "apiVersion: example.io/v1\nkind: Runtime\nmetadata:\n  name: r\nspec:\n  template:\n    containers:\n      - image: example.io/x:v1\n        name: main\n  worker:\n    containers:\n      - name: main\n        image: example.io/x:v1\n";
    assert_eq!(
        rows(&[("runtime.yaml", cr)]),
        ["Manifest example.io/x:v1 | Runtime r, container main | runtime.yaml:8 runtime.yaml:13"]
    );
}

#[test]
fn an_image_rendered_from_values_is_the_values_row() {
    let chart = "apiVersion: v2\nname: c\nversion: 1.0.0\n";
    let values = "image:\n  repository: example.io/app\n  tag: v1\n";
    let deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: \"{{ .Values.image.repository }}:{{ .Values.image.tag }}\"\n      - name: side\n        image: busybox:1.36\n";
    assert_eq!(
        rows(&[
            ("charts/c/Chart.yaml", chart),
            ("charts/c/values.yaml", values),
            ("charts/c/templates/deploy.yaml", deploy),
        ]),
        [
            "Manifest busybox:1.36 | Deployment app, container side | charts/c/templates/deploy.yaml:12",
            "HelmValue example.io/app:v1 | chart c, values image | charts/c/values.yaml:2 charts/c/values.yaml:3",
        ]
    );
}
