use super::*;
use crate::yaml::documents::{Read, read, split_documents};

#[test]
fn deployment_containers_env_and_mounts() {
    let text = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: manager
  namespace: system
spec:
  replicas: 2
  template:
    metadata:
      labels: {control-plane: manager, app: demo}
    spec:
      serviceAccountName: manager
      securityContext:
        runAsNonRoot: true
      imagePullSecrets:
      - name: regcred
      initContainers:
      - name: init
        image: busybox:1.36
      containers:
      - name: manager
        image: example.io/manager:v1
        command: [/manager]
        args: ["--leader-elect", "--metrics-bind-address=:8443"]
        ports:
        - {name: webhook, containerPort: 9443}
        env:
        - {name: LOG_LEVEL, value: debug}
        - {name: API_TOKEN, value: hunter2}
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef: {name: db, key: password}
        - name: POD_NS
          valueFrom:
            fieldRef: {fieldPath: metadata.namespace}
        envFrom:
        - configMapRef: {name: manager-config}
        securityContext:
          allowPrivilegeEscalation: false
          capabilities: {drop: [ALL]}
      volumes:
      - name: cert
        secret: {secretName: webhook-cert}
      - name: cfg
        configMap: {name: extra}
"#;
    let docs = split_documents(text);
    let Read::Object(o) = read(&docs[0], false) else {
        panic!()
    };
    let mut uses = Vec::new();
    let w = extract(&o, text, "config/manager.yaml", Area::Component, &mut uses);
    assert_eq!(w.pod_labels, ["app=demo", "control-plane=manager"]);
    assert_eq!(
        (
            w.kind.as_str(),
            w.replicas.as_str(),
            w.service_account.as_str()
        ),
        ("Deployment", "2", "manager")
    );
    assert_eq!(w.security_context, vec!["runAsNonRoot=true"]);
    assert_eq!(w.containers.len(), 2);
    assert!(w.containers[0].init);
    let m = &w.containers[1];
    assert_eq!(m.image, "example.io/manager:v1");
    assert_eq!(m.command, vec!["/manager"]);
    assert_eq!(m.args.len(), 2);
    assert_eq!(m.ports[0].port, "9443");
    assert_eq!(
        m.env,
        vec![
            ContainerEnv {
                name: "LOG_LEVEL".into(),
                value: Some("debug".into()),
                from: String::new()
            },
            ContainerEnv {
                name: "API_TOKEN".into(),
                value: None,
                from: "literal, withheld: the name suggests a secret".into()
            },
            ContainerEnv {
                name: "DB_PASSWORD".into(),
                value: None,
                from: "Secret db key password".into()
            },
            ContainerEnv {
                name: "POD_NS".into(),
                value: None,
                from: "field metadata.namespace".into()
            },
        ]
    );
    assert_eq!(m.env_from, vec!["ConfigMap manager-config"]);
    assert_eq!(
        m.security_context,
        vec!["allowPrivilegeEscalation=false", "capabilities.drop=ALL"]
    );
    assert_eq!(w.config_maps, vec!["manager-config", "extra"]);
    assert_eq!(w.secrets, vec!["db", "webhook-cert", "regcred"]);
    let used: Vec<&str> = uses.iter().map(|u| u.what.as_str()).collect();
    assert_eq!(
        used,
        vec![
            "Deployment system/manager (env DB_PASSWORD)",
            "Deployment system/manager (volume cert)",
            "Deployment system/manager (imagePullSecrets)"
        ]
    );
    // The literal secret value never reaches the model.
    assert!(!format!("{w:?}").contains("hunter2"));
}

#[test]
fn cronjob_pod_template() {
    let text = "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: gc\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: gc\n            image: gc:1\n";
    let docs = split_documents(text);
    let Read::Object(o) = read(&docs[0], false) else {
        panic!()
    };
    let w = extract(&o, text, "gc.yaml", Area::Component, &mut Vec::new());
    assert_eq!(w.containers[0].image, "gc:1");
    assert!(is_workload("batch", "CronJob"));
    assert!(is_workload("extensions", "Deployment"));
    assert!(!is_workload("", "Deployment"));
}
