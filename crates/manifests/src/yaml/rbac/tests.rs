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
fn roles_bindings_and_service_accounts() {
    let (r, flat) = role(
        &obj(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: leader\n  namespace: system\nrules:\n- apiGroups: [coordination.k8s.io]\n  resources: [leases]\n  resourceNames: [lock]\n  verbs: [get, update]\n",
        ),
        "role.yaml",
        Area::Component,
    );
    assert_eq!(r.rules[0].resource_names, vec!["lock"]);
    assert_eq!(flat.len(), 1);
    assert_eq!(flat[0].role, "Role/system/leader");
    assert_eq!(flat[0].sources, vec![SourceRef::new("role.yaml", 2)]);

    let b = binding(
        &obj(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: leader\n  namespace: system\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: leader\nsubjects:\n- kind: ServiceAccount\n  name: manager\n  namespace: system\n- kind: Group\n  name: system:authenticated\n",
        ),
        "rb.yaml",
        Area::Component,
    );
    assert_eq!(b.role, "Role/system/leader");
    assert_eq!(
        b.subjects,
        vec![
            "ServiceAccount system/manager",
            "Group system:authenticated"
        ]
    );

    let mut uses = Vec::new();
    let sa = service_account(
        &obj(
            "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: manager\nimagePullSecrets:\n- name: regcred\n",
        ),
        "sa.yaml",
        Area::Component,
        &mut uses,
    );
    assert_eq!(sa.image_pull_secrets, vec!["regcred"]);
    assert_eq!(uses[0].what, "ServiceAccount manager (imagePullSecrets)");
}

#[test]
fn aggregated_cluster_role() {
    let (r, flat) = role(
        &obj(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: view\naggregationRule:\n  clusterRoleSelectors:\n  - matchLabels: {rbac.example.io/aggregate-to-view: \"true\"}\nrules: []\n",
        ),
        "agg.yaml",
        Area::Component,
    );
    assert_eq!(
        r.aggregation,
        vec!["rbac.example.io/aggregate-to-view=true"]
    );
    assert!(flat.is_empty());
}
