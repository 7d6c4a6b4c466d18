//! go.mod and Cargo.toml files: the modules they declare and what they require.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

/// The manifest format a dependency comes from.
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
#[serde(rename_all = "lowercase")]
pub enum Ecosystem {
    /// A go.mod `require`.
    #[default]
    Go,
    /// A Cargo.toml dependency table.
    Cargo,
}

impl Ecosystem {
    pub fn label(&self) -> &'static str {
        match self {
            Ecosystem::Go => "Go",
            Ecosystem::Cargo => "Cargo",
        }
    }
}

/// A go.mod or Cargo.toml of the project and what it says about itself.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ModuleFile {
    pub ecosystem: Ecosystem,
    /// The module path (go.mod) or package name (Cargo.toml); empty for a workspace-only
    /// Cargo.toml.
    pub module: String,
    /// go.mod's `go` directive.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub go: String,
    /// go.mod's `toolchain` directive.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub toolchain: String,
    /// go.mod's `replace` directives, each at its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaces: Vec<Replace>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    /// The `module` line (go.mod) or the `[package]` header (Cargo.toml), else line 1.
    pub source: SourceRef,
}

/// A go.mod `replace` directive: `module [version] => path` or `=> module version`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Replace {
    pub module: String,
    /// Empty when every version is replaced.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// A local path or a module path.
    pub to: String,
    /// Empty for a local path.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub to_version: String,
    pub source: SourceRef,
}

impl Replace {
    /// `../x` or `example.com/fork v1.2.3`.
    pub fn target(&self) -> String {
        if self.to_version.is_empty() {
            self.to.clone()
        } else {
            format!("{} {}", self.to, self.to_version)
        }
    }
}

/// One module or crate a manifest requires.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    pub ecosystem: Ecosystem,
    /// The module path, or the crate's package name (its `package = …` when renamed).
    pub module: String,
    /// As written (`v0.19.1`, `"1.0"`, `^0.98`); empty when only a path or git source is
    /// given.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// Cargo's table: `dev`, `build`, or `workspace` for `[workspace.dependencies]`;
    /// empty for `[dependencies]` and every go.mod entry.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Cargo: the `cfg(…)` or triple of a `[target.….dependencies]` table.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// go.mod's `// indirect` mark.
    #[serde(default, skip_serializing_if = "is_false")]
    pub indirect: bool,
    /// What a go.mod `replace` puts in its place (`../x`, `example.com/fork v1.2.3`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub replaced_by: String,
    /// Cargo: a `path = …` source.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// Cargo: a `git = …` source, with `branch`, `tag` or `rev` after `#`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub git: String,
    /// Cargo: `features = […]` (with the workspace entry's for `workspace = true`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// Cargo: `workspace = true`, with the `[workspace.dependencies]` entry it takes its
    /// version and source from (None when the workspace root has no such entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<SourceRef>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    /// The manifest line that requires it.
    pub source: SourceRef,
}

impl Dependency {
    /// A component row of `module` at `source`, every other field empty.
    pub fn new(ecosystem: Ecosystem, module: &str, source: SourceRef) -> Dependency {
        Dependency {
            ecosystem,
            module: module.to_string(),
            version: String::new(),
            kind: String::new(),
            target: String::new(),
            indirect: false,
            replaced_by: String::new(),
            path: String::new(),
            git: String::new(),
            features: Vec::new(),
            workspace: None,
            area: Area::Component,
            source,
        }
    }
}
