//! Rust type paths to Kubernetes kinds.
//!
//! `k8s_openapi::api::<group dir>::<version>::<Kind>` is mapped through the same table the
//! Go analyzer uses for `k8s.io/api/<group dir>/<version>` (k8s-openapi mirrors that
//! layout), so both languages agree on every group. Kinds the project defines itself with
//! `#[derive(CustomResource)]` are matched by their generated type's name.

use std::collections::BTreeMap;

use kubernetes::go_packages::builtin_group_version;
use model::Gvk;

/// k8s-openapi modules outside `api::` and the Go package each mirrors.
const OTHER_MODULES: &[(&str, &str)] = &[
    (
        "k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions",
        "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions",
    ),
    (
        "k8s_openapi::kube_aggregator::pkg::apis::apiregistration",
        "k8s.io/kube-aggregator/pkg/apis/apiregistration",
    ),
];

/// The kind a k8s-openapi type path names, if the path is one.
pub fn builtin(path: &str) -> Option<Gvk> {
    let (module, kind) = path.rsplit_once("::")?;
    let (folder, version) = module.rsplit_once("::")?;
    let go_path = if let Some(dir) = folder.strip_prefix("k8s_openapi::api::") {
        format!("k8s.io/api/{dir}/{version}")
    } else {
        let (_, go) = OTHER_MODULES.iter().find(|(rust, _)| *rust == folder)?;
        format!("{go}/{version}")
    };
    let (group, version) = builtin_group_version(&go_path)?;
    Some(Gvk {
        group,
        version,
        kind: kind.to_string(),
    })
}

/// The kinds a project's own custom resources generate, by Rust type name.
#[derive(Debug, Default)]
pub struct Kinds {
    own: BTreeMap<String, Vec<Gvk>>,
    /// (file, type name) → kind: a type defined in the file that names it wins (each
    /// `examples/*.rs` is its own program and may define its own `Foo`).
    by_file: BTreeMap<(String, String), Gvk>,
}

impl Kinds {
    pub fn new(own: impl IntoIterator<Item = (String, String, Gvk)>) -> Kinds {
        let mut kinds = Kinds::default();
        for (file, type_name, gvk) in own {
            kinds.by_file.insert((file, type_name.clone()), gvk.clone());
            let e = kinds.own.entry(type_name).or_default();
            if !e.contains(&gvk) {
                e.push(gvk);
            }
        }
        kinds
    }

    /// The kind for a resolved type path, or why it is unknown.
    pub fn resolve(&self, path: &str, file: &str) -> Result<Gvk, String> {
        if let Some(gvk) = builtin(path) {
            return Ok(gvk);
        }
        if !path.contains("::")
            && let Some(gvk) = self.by_file.get(&(file.to_string(), path.to_string()))
        {
            return Ok(gvk.clone());
        }
        if path.starts_with("k8s_openapi::") {
            return Err(format!("`{path}` is not in the k8s-openapi kind table"));
        }
        let name = path.rsplit("::").next().unwrap_or(path);
        match self.own.get(name).map(Vec::as_slice) {
            Some([gvk]) => Ok(gvk.clone()),
            Some(many) if many.len() > 1 => Err(format!(
                "`{path}` matches {} custom resources of this project",
                many.len()
            )),
            _ if name == "DynamicObject" => {
                Err("`DynamicObject`: the kind is only known at run time".to_string())
            }
            _ => Err(format!(
                "`{path}` is neither a k8s-openapi type nor a custom resource of this project"
            )),
        }
    }
}

#[cfg(test)]
mod tests;
