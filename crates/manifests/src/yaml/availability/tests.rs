use super::*;
use crate::yaml::documents::{Read, read, split_documents};
use serde_json::json;

fn object(text: &str, templated: bool) -> Object {
    let docs = split_documents(text);
    match read(&docs[0], templated) {
        Read::Object(o) => o,
        _ => panic!("not an object"),
    }
}

#[test]
fn resources_and_probes_as_written() {
    let c = json!({
        "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"memory": "128Mi", "ephemeral-storage": "1Gi"}},
        "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8081}, "initialDelaySeconds": 15, "periodSeconds": 20},
        "readinessProbe": {"tcpSocket": {"port": "http"}},
        "startupProbe": {"grpc": {"port": 9090}, "failureThreshold": 30},
    });
    let (requests, limits, templated) = resources(&c, false);
    assert_eq!(requests, ["cpu=100m", "memory=64Mi"]);
    assert_eq!(limits, ["ephemeral-storage=1Gi", "memory=128Mi"]);
    assert!(!templated);
    assert_eq!(
        probe(&c, "livenessProbe", false),
        Some(Probe {
            kind: "http".into(),
            target: "/healthz :8081".into(),
            timing: vec!["initialDelaySeconds=15".into(), "periodSeconds=20".into()],
            templated: false
        })
    );
    let r = probe(&c, "readinessProbe", false).unwrap();
    assert_eq!((r.kind.as_str(), r.target.as_str()), ("tcp", ":http"));
    let s = probe(&c, "startupProbe", false).unwrap();
    assert_eq!((s.kind.as_str(), s.target.as_str()), ("grpc", ":9090"));
    assert_eq!(s.timing, ["failureThreshold=30"]);
    let e = json!({"livenessProbe": {"exec": {"command": ["cat", "/tmp/ok"]}}});
    let e = probe(&e, "livenessProbe", false).unwrap();
    assert_eq!(
        (e.kind.as_str(), e.target.as_str()),
        ("exec", "cat /tmp/ok")
    );
    assert_eq!(probe(&c, "nothing", false), None);
}

#[test]
fn template_values_are_templated_not_missing() {
    // `resources:` whose content a blanked template line wrote reads as null.
    let c = json!({"resources": null, "livenessProbe": "{{ toYaml .Values.probe }}"});
    assert_eq!(resources(&c, true), (vec![], vec![], true));
    assert!(probe(&c, "livenessProbe", true).unwrap().templated);
    // The same null in a plain manifest is just empty.
    assert_eq!(resources(&c, false), (vec![], vec![], false));
    assert!(unrendered_yaml(
        "spec:\n  {{- with .Values.x }}\n  {{- toYaml . | nindent 8 }}\n  {{- end }}\n"
    ));
    assert!(unrendered_yaml(
        "  {{ include \"x.probes\" . | nindent 10 }}\n"
    ));
    assert!(!unrendered_yaml(
        "{{- if .Values.enabled }}\nkind: Deployment\n  replicas: {{ .Values.n }}\n{{- end }}\n  {{- $x := .Values.y }}\n  {{- /* note */}}\n"
    ));
}

#[test]
fn anti_affinity_spread_and_priority() {
    let pod = json!({
        "priorityClassName": "system-cluster-critical",
        "affinity": {"podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": {"app": "a"}}}],
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": {"topologyKey": "topology.kubernetes.io/zone", "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["a", "b"]}]}}}]
        }},
        "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway"}],
    });
    let s = pod_settings(&pod, false);
    assert_eq!(s.priority_class, "system-cluster-critical");
    assert_eq!(
        s.anti_affinity,
        [
            "required topologyKey=kubernetes.io/hostname (app=a)",
            "preferred weight=100 topologyKey=topology.kubernetes.io/zone (app In a,b)"
        ]
    );
    assert_eq!(
        s.topology_spread,
        ["topologyKey=topology.kubernetes.io/zone maxSkew=1 whenUnsatisfiable=ScheduleAnyway"]
    );
}

#[test]
fn budgets_and_autoscalers() {
    let pdb = object(
        "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\n  namespace: ns\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: a\n    matchExpressions:\n    - {key: tier, operator: NotIn, values: [x]}\n",
        false,
    );
    let b = disruption_budget(&pdb, "pdb.yaml", Area::Component);
    assert_eq!(
        (
            b.api_version.as_str(),
            b.min_available.as_str(),
            b.max_unavailable.as_str()
        ),
        ("policy/v1beta1", "1", "")
    );
    assert_eq!(b.selector, ["app=a"]);
    assert_eq!(b.selector_expressions, ["tier NotIn x"]);
    assert_eq!(b.sources, [SourceRef::new("pdb.yaml", 2)]);

    let v2 = object(
        "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 2\n  maxReplicas: 10\n  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}\n  - type: Pods\n    pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: \"10\"}}\n  - type: External\n    external: {metric: {name: queue}, target: {type: Value, value: \"5\"}}\n",
        false,
    );
    let h = autoscaler(&v2, "hpa.yaml", Area::Component);
    assert_eq!(
        (
            h.target_kind.as_str(),
            h.target_name.as_str(),
            h.min_replicas.as_str(),
            h.max_replicas.as_str()
        ),
        ("Deployment", "web", "2", "10")
    );
    assert_eq!(
        h.metrics,
        [
            "resource cpu utilization 80%",
            "pods rps average 10",
            "external queue value 5"
        ]
    );
    let v1 = object(
        "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\nspec:\n  scaleTargetRef: {kind: StatefulSet, name: db}\n  maxReplicas: 3\n  targetCPUUtilizationPercentage: 70\n",
        false,
    );
    let h = autoscaler(&v1, "hpa.yaml", Area::Component);
    assert_eq!(h.metrics, ["resource cpu utilization 70%"]);
    assert_eq!(h.min_replicas, "");
}
