//! Code that switches behaviour: feature gates and platform checks.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

/// A feature gate registered with `featuregate` (`DefaultMutableFeatureGate.Add(map[…]
/// featuregate.FeatureSpec{X: {Default: true, PreRelease: featuregate.Beta}})`).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct FeatureGate {
    /// The gate's name (the `featuregate.Feature` constant's value).
    pub name: String,
    /// `true`, `false`, or the Go expression as written when it is not a literal.
    pub default: String,
    /// `Alpha`, `Beta`, `GA` or `Deprecated` (empty when not given: Alpha by default in
    /// featuregate, but not assumed here).
    pub stage: String,
    /// `LockToDefault: true`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub locked: bool,
    /// For a versioned spec (`AddVersioned`), the version of the spec shown (the last).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// Code that adapts to the platform: a discovery check of an API group or kind, an
/// `IsOpenShift`-style helper, or a no-kind-match error check, at one call site.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct PlatformCheck {
    /// What is checked: `route.openshift.io/v1`, `serving.knative.dev/v1 Service`,
    /// `OpenShift`, or `unresolved: <expression>`.
    pub checks: String,
    /// How: `discovery` (a call of the discovery API), `helper` (a call of a repository
    /// function that does one, named in `helper`), `no-kind-match`.
    pub method: String,
    /// The repository function called, `pkg.Func`, for a helper call.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub helper: String,
    /// The function the check is made in (`pkg.Func` or `pkg.Type.Method`).
    pub function: String,
    /// The `if` whose branch depends on the answer, when the code shows one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<SourceRef>,
    /// What the branch does that the code shows: controller watches and client writes
    /// written inside that `if` statement, either branch, or made through a call written
    /// there (`Owns HTTPRoute.gateway.networking.k8s.io (controller)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}
