use super::*;
use crate::yaml::documents::{Read, read, split_documents};

fn obj(text: &str) -> Object {
    let docs = split_documents(text);
    match read(&docs[0], false) {
        Read::Object(o) => o,
        _ => panic!("not an object"),
    }
}

#[test]
fn service_ports_type_and_selector() {
    let o = obj(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n  namespace: ns\nspec:\n  type: NodePort\n  selector: {app: api}\n  ports:\n  - {name: http, port: 80, targetPort: 8080}\n",
    );
    let s = service(&o, "svc.yaml", Area::Component);
    assert_eq!(s.service_type, "NodePort");
    assert_eq!(s.selector, vec!["app=api"]);
    assert_eq!(
        s.ports,
        vec![ServicePort {
            name: "http".into(),
            port: "80".into(),
            target_port: "8080".into(),
            protocol: "TCP".into()
        }]
    );
}

#[test]
fn ingress_rules_and_tls() {
    let o = obj(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  ingressClassName: nginx\n  tls:\n  - secretName: web-tls\n  rules:\n  - host: a.example.io\n    http:\n      paths:\n      - path: /api\n        backend:\n          service: {name: api, port: {number: 80}}\n",
    );
    let mut uses = Vec::new();
    let i = ingress(&o, "ing.yaml", Area::Component, &mut uses);
    assert_eq!(i.class, "nginx");
    assert_eq!(i.hosts, vec!["a.example.io"]);
    assert_eq!(i.rules, vec!["a.example.io/api → api:80"]);
    assert_eq!(i.backends, vec!["Service api"]);
    assert_eq!(i.tls_secrets, vec!["web-tls"]);
    assert_eq!(uses.len(), 1);
    assert_eq!(uses[0].name, "web-tls");
}

#[test]
fn route_gateway_and_httproute() {
    let r = route(
        &obj(
            "apiVersion: route.openshift.io/v1\nkind: Route\nmetadata:\n  name: ui\nspec:\n  host: ui.apps.example.io\n  to: {kind: Service, name: ui}\n  port: {targetPort: http}\n  tls: {termination: edge}\n",
        ),
        "r.yaml",
        Area::Component,
    );
    assert_eq!(r.rules, vec!["ui.apps.example.io/ → Service ui:http"]);
    assert_eq!(r.backends, vec!["Service ui"]);
    assert_eq!(r.listeners, vec!["TLS edge"]);
    let mut uses = Vec::new();
    let g = gateway_api(
        &obj(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: gw\n  namespace: infra\nspec:\n  gatewayClassName: istio\n  listeners:\n  - name: https\n    protocol: HTTPS\n    port: 443\n    tls:\n      certificateRefs:\n      - name: gw-cert\n",
        ),
        "g.yaml",
        Area::Component,
        &mut uses,
    );
    assert_eq!(g.class, "istio");
    assert_eq!(g.listeners, vec!["https HTTPS/443"]);
    assert_eq!(g.tls_secrets, vec!["gw-cert"]);
    let h = gateway_api(
        &obj(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: llm\n  namespace: app\nspec:\n  parentRefs:\n  - name: gw\n    namespace: infra\n  rules:\n  - matches:\n    - path: {type: PathPrefix, value: /v1}\n    backendRefs:\n    - group: inference.networking.k8s.io\n      kind: InferencePool\n      name: pool\n      port: 8000\n",
        ),
        "h.yaml",
        Area::Component,
        &mut uses,
    );
    assert_eq!(h.parents, vec!["Gateway infra/gw"]);
    assert_eq!(h.rules, vec!["/v1* → InferencePool pool:8000"]);
    assert_eq!(h.backends, vec!["InferencePool pool"]);
}

#[test]
fn network_policy_rules() {
    let n = network_policy(
        &obj(
            "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: allow-metrics\nspec:\n  podSelector:\n    matchLabels: {app: manager}\n  policyTypes: [Ingress]\n  ingress:\n  - from:\n    - namespaceSelector:\n        matchLabels: {metrics: enabled}\n    ports:\n    - port: 8443\n",
        ),
        "np.yaml",
        Area::Component,
    );
    assert_eq!(n.pod_selector, vec!["app=manager"]);
    assert_eq!(
        n.ingress,
        vec!["namespaces metrics=enabled; ports: TCP/8443"]
    );
    assert!(n.egress.is_empty());
}
