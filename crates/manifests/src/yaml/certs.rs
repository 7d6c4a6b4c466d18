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
mod tests;
