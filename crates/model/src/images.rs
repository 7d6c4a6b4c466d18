//! Container images: references named by manifests, values and kustomizations, and
//! Dockerfiles.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

/// How a container image reference is set.
#[derive(
    Serialize,
    Deserialize,
    JsonSchema,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
)]
#[serde(rename_all = "snake_case")]
pub enum ImageOrigin {
    /// A container's `image:` in a workload manifest.
    #[default]
    Manifest,
    /// A chart's values.yaml default (`image: {registry, repository, tag}` or a string).
    HelmValue,
    /// A kustomization's `images:` override.
    Kustomize,
    /// A container environment variable whose name says it holds an image.
    Env,
}

impl ImageOrigin {
    pub fn label(&self) -> &'static str {
        match self {
            ImageOrigin::Manifest => "manifest",
            ImageOrigin::HelmValue => "Helm value",
            ImageOrigin::Kustomize => "kustomize override",
            ImageOrigin::Env => "environment variable",
        }
    }
}

/// A container image reference, split as the OCI distribution reference grammar reads it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ImageRef {
    /// The reference as written, or as put together from a values block's parts.
    pub reference: String,
    /// Empty when the reference names none (a runtime then pulls from Docker Hub).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub registry: String,
    pub repository: String,
    /// Empty when not set.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tag: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub digest: String,
    pub origin: ImageOrigin,
    /// What sets it: `Deployment system/manager, container manager`, `values
    /// controller.image`, `kustomization config/default, images: controller`.
    pub context: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A Dockerfile: its stages, who the final stage runs as, and what it builds.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Dockerfile {
    pub file: String,
    pub stages: Vec<DockerStage>,
    /// The user the final stage's image runs as, with the evidence.
    pub user: DockerUser,
    /// `CGO_ENABLED=…` settings (`ENV`, `ARG` default or a `RUN` prefix), each at its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cgo: Vec<BuildSetting>,
    /// FIPS-style settings: `GOEXPERIMENT=boringcrypto`, `GOFIPS140=…`,
    /// `GODEBUG=fips140=…`, a build tag `fips` or `goexperiment.boringcrypto`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fips: Vec<BuildSetting>,
    /// The `go build` commands of its `RUN` lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub builds: Vec<DockerBuild>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
}

/// One `FROM` of a Dockerfile.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct DockerStage {
    /// The `AS` name; empty when unnamed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The base as written.
    pub from: String,
    /// The base with `ARG` defaults substituted, when it had variables that all resolve.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resolved: String,
    /// Set when the base is an earlier stage of the same file (its name).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub from_stage: String,
    /// `--platform=…`, as written.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub platform: String,
    /// The stage's last `USER`, as written, with its line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<BuildSetting>,
    pub source: SourceRef,
}

/// Who a Dockerfile's final stage runs as.
#[derive(
    Serialize,
    Deserialize,
    JsonSchema,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
)]
#[serde(rename_all = "snake_case")]
pub enum RunsAs {
    /// `USER 0`, `USER root` (with or without a group), or no `USER` over `scratch`.
    Root,
    /// A `USER` naming another user or a non-zero id.
    NonRoot,
    /// No `USER` in the final stage (or the stages it is built from): the base image's
    /// user, which the Dockerfile does not show.
    #[default]
    NotSet,
    /// A `USER` whose variable has no default.
    Unknown,
}

/// The final stage's user and the evidence for it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct DockerUser {
    pub runs_as: RunsAs,
    /// The literal evidence: `USER 65532:65532`, `no USER; base gcr.io/distroless/static:nonroot`.
    pub evidence: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceRef>,
}

/// A setting as written in a build file, at its line.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct BuildSetting {
    pub value: String,
    pub source: SourceRef,
}

/// A `go build` in a Dockerfile's `RUN`, and the project binary it is.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct DockerBuild {
    /// The output's name (`-o`), or the package folder's when there is no `-o`.
    pub output: String,
    /// The package built, repository-relative (or an import path).
    pub package: String,
    /// The project binary whose `main` package this is; empty when none matches.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub binary: String,
    pub source: SourceRef,
}
