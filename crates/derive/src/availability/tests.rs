use super::*;
use model::{Area, Probe, SourceRef};

fn container(name: &str) -> Container {
    Container {
        name: name.into(),
        image: "x".into(),
        ..Container::default()
    }
}

fn workload(name: &str, replicas: &str, labels: &[&str]) -> Workload {
    Workload {
        kind: "Deployment".into(),
        name: name.into(),
        namespace: "ns".into(),
        replicas: replicas.into(),
        service_account: String::new(),
        pod_labels: labels.iter().map(|s| s.to_string()).collect(),
        containers: vec![container("main")],
        sources: vec![SourceRef::new("d.yaml", 2)],
        ..Workload::default()
    }
}

fn budget(name: &str, min: &str, max: &str, selector: &[&str]) -> DisruptionBudget {
    DisruptionBudget {
        name: name.into(),
        namespace: "ns".into(),
        api_version: "policy/v1".into(),
        min_available: min.into(),
        max_unavailable: max.into(),
        selector: selector.iter().map(|s| s.to_string()).collect(),
        selector_expressions: vec![],
        templated: false,
        bundled: false,
        area: Area::Component,
        sources: vec![SourceRef::new("pdb.yaml", 2)],
    }
}

fn kinds(r: &Row) -> Vec<(FlagKind, String, bool)> {
    r.findings
        .iter()
        .map(|f| (f.kind, f.detail.clone(), f.certain))
        .collect()
}

#[test]
fn bare_deployment_fires_every_flag() {
    let p = Project {
        findings: model::Findings {
            workloads: vec![workload("bare", "3", &["app=bare"])],
            ..Default::default()
        },
        ..Project::default()
    };
    let rows = super::rows(&p);
    use FlagKind::*;
    assert_eq!(
        kinds(&rows[0]),
        [
            (NoRequests, "main".into(), true),
            (NoMemoryLimit, "main".into(), true),
            (NoReadinessProbe, "main".into(), true),
            (NoLivenessProbe, "main".into(), true),
            (NoSpread, "3 replicas".into(), true),
            (NoBudget, "3 replicas".into(), true),
        ]
    );
}

#[test]
fn full_deployment_is_clean_and_single_replica_budget_blocks_drains() {
    let mut full = workload("full", "2", &["app=full", "tier=web"]);
    let c = &mut full.containers[0];
    c.requests = vec!["cpu=100m".into(), "memory=64Mi".into()];
    c.limits = vec!["memory=128Mi".into()];
    let probe = Some(Probe {
        kind: "http".into(),
        target: "/healthz :8081".into(),
        timing: vec![],
        templated: false,
    });
    c.liveness_probe = probe.clone();
    c.readiness_probe = probe;
    full.anti_affinity = vec!["required topologyKey=kubernetes.io/hostname (app=full)".into()];
    let mut single = full.clone();
    single.name = "single".into();
    single.replicas = String::new();
    single.pod_labels = vec!["app=single".into()];
    single.anti_affinity.clear();
    let p = Project {
        findings: model::Findings {
            workloads: vec![full, single],
            disruption_budgets: vec![
                budget("full", "", "1", &["app=full"]),
                budget("single", "1", "", &["app=single"]),
            ],
            ..Default::default()
        },
        ..Project::default()
    };
    let rows = super::rows(&p);
    assert!(rows[0].findings.is_empty(), "{:?}", rows[0].findings);
    assert_eq!(rows[0].budgets.len(), 1);
    assert_eq!(
        rows[1].replicas,
        Replicas::Known {
            count: 1,
            defaulted: true
        }
    );
    assert_eq!(
        kinds(&rows[1]),
        [(
            FlagKind::BlocksDrain,
            "single (minAvailable 1 with 1 replica)".into(),
            true
        )]
    );
}

#[test]
fn selectors_match_as_kubernetes_does() {
    let labels = vec!["app=a".to_string(), "tier=web".to_string()];
    let mut b = budget("b", "1", "", &["app=a"]);
    assert_eq!(selects(&b, &labels, false), Some(true));
    b.selector = vec!["app=b".into()];
    assert_eq!(selects(&b, &labels, false), None);
    b.selector = vec![];
    b.selector_expressions = vec!["tier In web,api".into(), "canary DoesNotExist".into()];
    assert_eq!(selects(&b, &labels, false), Some(true));
    b.selector_expressions = vec!["tier NotIn web".into()];
    assert_eq!(selects(&b, &labels, false), None);
    // An empty selector: every pod in policy/v1, none in v1beta1.
    b.selector_expressions.clear();
    assert_eq!(selects(&b, &labels, false), Some(true));
    b.api_version = "policy/v1beta1".into();
    assert_eq!(selects(&b, &labels, false), None);
    // A templated value may match.
    let b = budget("b", "1", "", &["app={{ .Release.Name }}"]);
    assert_eq!(selects(&b, &labels, false), Some(false));
    assert_eq!(
        selects(&b, &["app={{ .Release.Name }}".into()], false),
        Some(true)
    );
}

#[test]
fn templates_and_unread_patches_are_notes_not_flags() {
    let mut w = workload("t", "{{ .Values.replicas }}", &[]);
    w.unrendered_yaml = true;
    w.containers[0].resources_templated = true;
    let p = Project {
        findings: model::Findings {
            workloads: vec![w],
            ..Default::default()
        },
        ..Project::default()
    };
    let rows = super::rows(&p);
    assert_eq!(rows[0].flags().count(), 0, "{:?}", rows[0].findings);
    assert_eq!(
        rows[0].replicas,
        Replicas::Unknown("{{ .Values.replicas }}".into())
    );
    let mut w = workload("u", "1", &["app=u"]);
    w.unread_patches = vec!["the patches of kustomization config/default".into()];
    let p = Project {
        findings: model::Findings {
            workloads: vec![w],
            ..Default::default()
        },
        ..Project::default()
    };
    let rows = super::rows(&p);
    assert_eq!(rows[0].flags().count(), 0);
    assert_eq!(
        rows[0].findings[0].detail,
        "main: may be changed by the patches of kustomization config/default, not read"
    );
}

#[test]
fn thousands_of_workloads_and_budgets_match_in_linear_time() {
    // Quadratic matching would compare 400 million pairs here.
    let n = 20_000;
    let p = Project {
        findings: model::Findings {
            workloads: (0..n)
                .map(|i| workload(&format!("w{i}"), "2", &[&format!("app=w{i}")]))
                .collect(),
            disruption_budgets: (0..n)
                .map(|i| budget(&format!("b{i}"), "1", "", &[&format!("app=w{i}")]))
                .collect(),
            ..Default::default()
        },
        ..Project::default()
    };
    let started = std::time::Instant::now();
    let rows = super::rows(&p);
    assert!(rows.iter().all(|r| r.budgets.len() == 1));
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

#[test]
fn patches_merge_by_container_name() {
    let mut w = workload("m", "1", &["app=m"]);
    w.containers[0].requests = vec!["cpu=1".into()];
    let mut patch = workload("m", "", &[]);
    patch.containers[0].limits = vec!["memory=1Gi".into()];
    patch.containers.push(container("proxy"));
    w.patches = vec![patch];
    let p = Project {
        findings: model::Findings {
            workloads: vec![w],
            ..Default::default()
        },
        ..Project::default()
    };
    let rows = super::rows(&p);
    let names: Vec<&str> = rows[0].containers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["main", "proxy"]);
    assert_eq!(rows[0].containers[0].requests, ["cpu=1"]);
    assert_eq!(rows[0].containers[0].limits, ["memory=1Gi"]);
    assert_eq!(rows[0].containers[0].memory_limit(), Some("1Gi"));
    assert_eq!(
        rows[0].findings[0],
        Finding {
            kind: FlagKind::NoRequests,
            detail: "proxy".into(),
            certain: true
        }
    );
}

#[test]
fn a_patch_sets_environment_variables_by_name() {
    let mut w = workload("m", "1", &[]);
    w.containers[0].env =
        vec![serde_json::from_value(serde_json::json!({"name": "A", "value": "1"})).unwrap()];
    let mut patch = workload("m", "", &[]);
    patch.containers[0].env = vec![
        serde_json::from_value(serde_json::json!({"name": "A", "value": "2"})).unwrap(),
        serde_json::from_value(serde_json::json!({"name": "GOMEMLIMIT", "value": "900MiB"}))
            .unwrap(),
    ];
    w.patches = vec![patch];
    let patched = w.patched_containers();
    let env: Vec<(&str, Option<&str>)> = patched[0]
        .env
        .iter()
        .map(|e| (e.name.as_str(), e.value.as_deref()))
        .collect();
    assert_eq!(env, [("A", Some("2")), ("GOMEMLIMIT", Some("900MiB"))]);
}
