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
fn certificate_defines_its_secret() {
    let mut uses = Vec::new();
    let c = extract(
        &obj(
            "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: serving-cert\n  namespace: system\nspec:\n  secretName: webhook-server-cert\n  dnsNames: [svc.system.svc]\n  issuerRef:\n    name: selfsigned\n",
        ),
        "cert.yaml",
        Area::Component,
        &mut uses,
    );
    assert_eq!(c.secret_name, "webhook-server-cert");
    assert_eq!(c.issuer, "Issuer/selfsigned");
    assert_eq!(c.dns_names, vec!["svc.system.svc"]);
    assert!(uses[0].defines);
    assert_eq!(uses[0].what, "Certificate serving-cert");
    let i = extract(
        &obj(
            "apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata:\n  name: selfsigned\nspec:\n  selfSigned: {}\n",
        ),
        "issuer.yaml",
        Area::Component,
        &mut uses,
    );
    assert_eq!(i.issuer, "selfSigned");
}
