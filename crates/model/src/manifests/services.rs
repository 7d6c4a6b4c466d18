//! Manifest objects that route traffic: Services, NetworkPolicies, Ingresses, Routes and
//! Gateway API objects.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Service {
    pub name: String,
    pub namespace: String,
    pub ports: Vec<ServicePort>,
    /// `spec.type` as written; empty means ClusterIP.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub service_type: String,
    /// `spec.selector` as `key=value` pairs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selector: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ServicePort {
    pub name: String,
    pub port: String,
    pub target_port: String,
    pub protocol: String,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct NetworkPolicy {
    pub name: String,
    pub namespace: String,
    /// `key=value` pairs, or empty for every pod of the namespace.
    pub pod_selector: Vec<String>,
    pub policy_types: Vec<String>,
    /// One line per rule: peers and ports.
    pub ingress: Vec<String>,
    pub egress: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// An Ingress, OpenShift Route, Gateway API Gateway, or Gateway API route.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Ingress {
    /// `Ingress`, `Route`, `Gateway`, `HTTPRoute`, `GRPCRoute`, `TLSRoute`, `TCPRoute`, `UDPRoute`.
    pub kind: String,
    pub group: String,
    pub name: String,
    pub namespace: String,
    /// `ingressClassName` or `gatewayClassName`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    /// Gateway listeners as `name protocol/port`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub listeners: Vec<String>,
    /// Routes' parent Gateways as `Kind namespace/name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<String>,
    /// One line per rule: match → backend.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tls_secrets: Vec<String>,
    /// The objects the rules send traffic to, as `Kind name` (`Service web`,
    /// `InferencePool pool`), once each, for the service map.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backends: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}
