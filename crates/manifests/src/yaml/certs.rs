//! cert-manager: Certificates (the Secret each writes, its issuer, DNS names) and
//! Issuers/ClusterIssuers (their type). A Certificate defines the Secret it writes.

use super::documents::Object;
use super::secrets::SecretUse;
use super::value::{scalar, str_at, strings};
use model::{Area, Certificate, SourceRef};

/// Issuer types cert-manager knows, in the order they are checked.
const ISSUER_TYPES: [&str; 5] = ["selfSigned", "ca", "acme", "vault", "venafi"];

pub fn extract(o: &Object, path: &str, area: Area, uses: &mut Vec<SecretUse>) -> Certificate {
    let spec = o.value.get("spec").unwrap_or(&serde_json::Value::Null);
    let (secret_name, issuer) = if o.kind == "Certificate" {
        let secret = scalar(spec.get("secretName"));
        if !secret.is_empty() {
            let mut u = SecretUse::new(o, path, &secret, "");
            u.what = format!("Certificate {}", o.name);
            u.defines = true;
            u.secret_type = "kubernetes.io/tls".into();
            uses.push(u);
        }
        let kind = match str_at(spec, &["issuerRef", "kind"]) {
            "" => "Issuer",
            k => k,
        };
        (
            secret,
            format!("{kind}/{}", str_at(spec, &["issuerRef", "name"])),
        )
    } else {
        let kind = ISSUER_TYPES
            .iter()
            .find(|t| spec.get(**t).is_some())
            .map(|t| t.to_string())
            .unwrap_or_default();
        (String::new(), kind)
    };
    Certificate {
        kind: o.kind.clone(),
        name: o.name.clone(),
        namespace: o.namespace.clone(),
        secret_name,
        issuer,
        dns_names: strings(spec.get("dnsNames")),
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    }
}

#[cfg(test)]
mod tests {
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
}
