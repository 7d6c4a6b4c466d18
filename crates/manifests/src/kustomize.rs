//! Kustomize: `kustomization.yaml` files — resources, bases and components, namespace and
//! name prefix/suffix, image overrides, patches, ConfigMap and Secret generators, `vars`
//! and `replacements` — and, per project, which in-repo files each one builds (so objects
//! can be grouped by overlay) and what its `vars`/`replacements` substitute into webhook
//! configurations (so `$(webhookServiceName)` is explained, not printed raw).
//!
//! Values are resolved only from what the repository states: `metadata.name` of the
//! source object (with the kustomization's own name prefix and suffix) and
//! `metadata.namespace` (the kustomization's `namespace`, else the object's own). Any
//! other field, nested prefixes of included kustomizations, and replacements with
//! `options` (delimiter/index) are named but left unresolved.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::helm::dir_of;
use super::yaml::documents::parse;
use super::yaml::secrets::SecretUse;
use super::yaml::value::plain_value;
use super::yaml::value::{array_at, at, line_of_name, pairs, scalar, str_at, strings, type_name};
use model::{
    Area, ConfigMap, Diagnostic, Generator, Kustomization, KustomizeVar, Replacement, SourceRef,
    Substitution, Webhook, WebhookType,
};

/// Whether a file name is a kustomization.
pub fn is_kustomization(path: &str) -> bool {
    matches!(
        path.rsplit('/').next().unwrap_or(path),
        "kustomization.yaml" | "kustomization.yml"
    )
}

/// A `replacements` source and the fields it targets, kept for resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplacementDef {
    pub kind: String,
    pub name: String,
    pub field_path: String,
    /// The source has `options` (delimiter/index): only part of its field is copied.
    pub partial: bool,
    pub targets: Vec<TargetDef>,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TargetDef {
    pub kind: String,
    pub name: String,
    pub field_paths: Vec<String>,
    /// The target has `options` (delimiter/index): only part of the field is replaced.
    pub partial: bool,
}

/// One entry of `patches`, `patchesStrategicMerge` or `patchesJson6902`.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchEntry {
    pub file: Option<String>,
    pub target_kind: String,
    pub target_name: String,
}

/// A `vars` entry kept for resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDef {
    pub name: String,
    pub kind: String,
    pub object: String,
    pub field_path: String,
    pub line: u32,
}

/// What one kustomization file says, before the project is put together.
#[derive(Debug, Clone, PartialEq)]
pub struct KustomizationFile {
    pub path: String,
    pub model: Kustomization,
    /// In-repo resource, base and component entries resolved against the folder, with
    /// the line each is listed on.
    pub local: Vec<(String, u32)>,
    /// Patch files resolved against the folder.
    pub patch_files: Vec<String>,
    /// Every patch entry: its file (resolved; `None` for an inline patch) and the kind and
    /// name its `target` names (empty when it names none).
    pub patch_entries: Vec<PatchEntry>,
    pub vars: Vec<VarDef>,
    pub replacements: Vec<ReplacementDef>,
    pub configmaps: Vec<ConfigMap>,
    pub secret_uses: Vec<SecretUse>,
    /// The `images:` overrides as image references, each at its entry's `name:` line.
    pub images: Vec<model::ImageRef>,
}

/// `dir/rel` with `.` and `..` resolved; `None` when it climbs out of the repository.
pub fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// A resource that is not a path in this repository (a URL or a remote base).
fn is_remote(entry: &str) -> bool {
    entry.contains("://")
        || entry.contains("?ref=")
        || entry.starts_with("github.com/")
        || entry.starts_with("git@")
}

/// What a kustomization field holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Text,
    Map,
    /// A list of strings (paths, URLs, or an inline patch).
    Texts,
    /// A list of mappings.
    Maps,
    /// A list of paths or mappings (`patches`, `patchesStrategicMerge`).
    TextsOrMaps,
}

/// The fields of a kustomization and their shapes (kustomize's `Kustomization` type).
const FIELDS: [(&str, Shape); 30] = [
    ("apiVersion", Shape::Text),
    ("kind", Shape::Text),
    ("namespace", Shape::Text),
    ("namePrefix", Shape::Text),
    ("nameSuffix", Shape::Text),
    ("metadata", Shape::Map),
    ("commonLabels", Shape::Map),
    ("commonAnnotations", Shape::Map),
    ("generatorOptions", Shape::Map),
    ("sortOptions", Shape::Map),
    ("openapi", Shape::Map),
    ("resources", Shape::Texts),
    ("bases", Shape::Texts),
    ("components", Shape::Texts),
    ("crds", Shape::Texts),
    ("configurations", Shape::Texts),
    ("generators", Shape::Texts),
    ("transformers", Shape::Texts),
    ("validators", Shape::Texts),
    ("buildMetadata", Shape::Texts),
    ("patches", Shape::TextsOrMaps),
    ("patchesStrategicMerge", Shape::TextsOrMaps),
    ("patchesJson6902", Shape::Maps),
    ("images", Shape::Maps),
    ("configMapGenerator", Shape::Maps),
    ("secretGenerator", Shape::Maps),
    ("vars", Shape::Maps),
    ("replacements", Shape::Maps),
    ("replicas", Shape::Maps),
    ("labels", Shape::Maps),
];

/// Whether a value (a field, or one entry of a list field) has the shape it should.
fn fits(shape: Shape, v: &Value, entry: bool) -> bool {
    match (shape, entry) {
        (Shape::Text, _) => v.is_string(),
        (Shape::Map, _) => v.is_object(),
        (_, false) => v.is_array(),
        (Shape::Texts, true) => v.is_string(),
        (Shape::Maps, true) => v.is_object(),
        (Shape::TextsOrMaps, true) => v.is_string() || v.is_object(),
    }
}

fn shape_name(shape: Shape, entry: bool) -> &'static str {
    match (shape, entry) {
        (Shape::Text, _) | (Shape::Texts, true) => "a string",
        (Shape::Map, _) | (Shape::Maps, true) => "a mapping",
        (Shape::TextsOrMaps, true) => "a path or a mapping",
        (_, false) => "a list",
    }
}

/// The entries of list field `key` that have the shape its entries should have, with their
/// index in the list. (`check_shapes` reports the others.)
fn entries<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = (usize, &'a Value)> {
    let shape = FIELDS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(Shape::Texts, |(_, s)| *s);
    array_at(v, &[key])
        .iter()
        .enumerate()
        .filter(move |(_, e)| fits(shape, e, true))
}

/// The entries of list field `key` that are strings.
fn texts(v: &Value, key: &str) -> Vec<String> {
    entries(v, key)
        .filter_map(|(_, e)| e.as_str().map(str::to_string))
        .collect()
}

/// A diagnostic for each field, or entry of a list field, of the wrong type, at the line of
/// the field's key. Such a value is ignored (a number or boolean where a string belongs is
/// read as written).
fn check_shapes(path: &str, text: &str, v: &Value, diagnostics: &mut Vec<Diagnostic>) {
    for (key, shape) in FIELDS {
        // An empty field (`resources:` with every entry commented out) is as good as none.
        let Some(field) = v.get(key).filter(|f| !f.is_null()) else {
            continue;
        };
        let line = text
            .lines()
            .position(|l| {
                l.strip_prefix(key)
                    .is_some_and(|r| r.trim_start().starts_with(':'))
            })
            .map_or(1, |i| i as u32 + 1);
        if !fits(shape, field, false) {
            let read_as_written = shape == Shape::Text && (field.is_number() || field.is_boolean());
            diagnostics.push(Diagnostic::new(
                path,
                line,
                format!(
                    "`{key}` should be {}, not {}: {}",
                    shape_name(shape, false),
                    type_name(field),
                    if read_as_written {
                        "it is read as written"
                    } else {
                        "it is ignored"
                    }
                ),
            ));
            continue;
        }
        for (i, entry) in field.as_array().into_iter().flatten().enumerate() {
            if !fits(shape, entry, true) {
                diagnostics.push(Diagnostic::new(
                    path,
                    line,
                    format!(
                        "`{key}` entry {} should be {}, not {}: it is ignored",
                        i + 1,
                        shape_name(shape, true),
                        type_name(entry)
                    ),
                ));
            }
        }
    }
}

/// Reads one kustomization.yaml.
pub fn read(
    path: &str,
    text: &str,
    area: Area,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<KustomizationFile> {
    let v = parse_mapping(path, text, diagnostics)?;
    check_shapes(path, text, &v, diagnostics);
    let dir = dir_of(path);
    let kind_line = text
        .lines()
        .position(|l| l.starts_with("kind:"))
        .map(|i| i as u32 + 1)
        .unwrap_or(1);
    let doc = Doc {
        v: &v,
        path,
        text,
        dir,
        kind_line,
    };
    let mut resources = texts(&v, "resources");
    resources.extend(texts(&v, "bases"));
    let components = texts(&v, "components");
    let local = doc.local_entries(resources.iter().chain(&components), diagnostics);
    let patches = doc.patches();
    let image_refs = doc.image_overrides(area);
    let config_map_generators = doc.generators("configMapGenerator");
    let secret_generators = doc.generators("secretGenerator");
    let namespace = scalar(v.get("namespace"));
    let (vars, var_rows) = doc.vars();
    let (replacements, replacement_rows) = doc.replacements();
    let configmaps = generated_configmaps(&config_map_generators, &namespace, path, area);
    let secret_uses = generated_secrets(&secret_generators, &namespace, path, area);
    let (selector_labels, template_labels) = labels(&v);
    Some(KustomizationFile {
        path: path.to_string(),
        model: Kustomization {
            dir: dir.to_string(),
            namespace,
            name_prefix: scalar(v.get("namePrefix")),
            name_suffix: scalar(v.get("nameSuffix")),
            resources,
            components,
            patches: patches.names,
            images: image_rows(&v),
            config_map_generators,
            secret_generators,
            vars: var_rows,
            replacements: replacement_rows,
            selector_labels,
            template_labels,
            objects: Vec::new(),
            bundled: false,
            area,
            sources: vec![SourceRef::new(path, kind_line)],
        },
        local,
        patch_files: patches.files,
        patch_entries: patches.entries,
        vars,
        replacements,
        configmaps,
        secret_uses,
        images: image_refs,
    })
}

/// The parsed kustomization, when it parses and is a mapping (or empty); else a diagnostic.
fn parse_mapping(path: &str, text: &str, diagnostics: &mut Vec<Diagnostic>) -> Option<Value> {
    let v = match parse(text) {
        Ok(v) => v,
        Err(e) => {
            diagnostics.push(Diagnostic::new(
                path,
                1,
                format!("kustomization not parsed: {e}"),
            ));
            return None;
        }
    };
    if !(v.is_object() || v.is_null()) {
        diagnostics.push(Diagnostic::new(
            path,
            1,
            format!(
                "the kustomization is {}, not a mapping: nothing in it is read",
                type_name(&v)
            ),
        ));
        return None;
    }
    Some(v)
}

/// One kustomization being read: its value, where it is, and its text for the lines of
/// entries (the `kind:` line when an entry's own is not found).
struct Doc<'a> {
    v: &'a Value,
    path: &'a str,
    text: &'a str,
    dir: &'a str,
    kind_line: u32,
}

/// The `patches`, `patchesStrategicMerge` and `patchesJson6902` entries, three ways.
struct Patches {
    /// Each entry's file as written, or `(inline)`.
    names: Vec<String>,
    /// The in-repo patch files.
    files: Vec<String>,
    entries: Vec<PatchEntry>,
}

impl Doc<'_> {
    /// The in-repo resource, base and component entries resolved against the folder, with
    /// the line of their list item; an entry pointing outside the repository is a
    /// diagnostic.
    fn local_entries<'e>(
        &self,
        entries: impl Iterator<Item = &'e String>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Vec<(String, u32)> {
        let mut local = Vec::new();
        for entry in entries {
            if is_remote(entry) {
                continue;
            }
            let line = self
                .text
                .lines()
                .position(|l| {
                    let t = l.trim();
                    t.strip_prefix('-')
                        .map(|rest| plain_value(rest) == *entry)
                        .unwrap_or(false)
                })
                .map(|i| i as u32 + 1)
                .unwrap_or(self.kind_line);
            match join(self.dir, entry) {
                Some(p) => local.push((p, line)),
                None => diagnostics.push(Diagnostic::new(
                    self.path,
                    line,
                    format!("resource `{entry}` points outside the repository"),
                )),
            }
        }
        local
    }

    fn patches(&self) -> Patches {
        let mut patches = Patches {
            names: Vec::new(),
            files: Vec::new(),
            entries: Vec::new(),
        };
        for key in ["patches", "patchesStrategicMerge", "patchesJson6902"] {
            for (_, entry) in entries(self.v, key) {
                let file = match entry {
                    Value::String(s) if !s.contains('\n') => {
                        patches.names.push(s.clone());
                        join(self.dir, s)
                    }
                    Value::Object(_) => match str_at(entry, &["path"]) {
                        "" => {
                            patches.names.push("(inline)".into());
                            None
                        }
                        p => {
                            patches.names.push(p.to_string());
                            join(self.dir, p)
                        }
                    },
                    _ => {
                        patches.names.push("(inline)".into());
                        None
                    }
                };
                patches.files.extend(file.clone());
                patches.entries.push(PatchEntry {
                    file,
                    target_kind: str_at(entry, &["target", "kind"]).to_string(),
                    target_name: str_at(entry, &["target", "name"]).to_string(),
                });
            }
        }
        patches
    }

    /// The `images:` overrides as image references, each at its entry's `name:` line.
    fn image_overrides(&self, area: Area) -> Vec<model::ImageRef> {
        let mut from = 1;
        entries(self.v, "images")
            .filter_map(|(_, i)| {
                let line = line_of_name(self.text, 1, from, &scalar(i.get("name")))
                    .unwrap_or(self.kind_line);
                from = line;
                super::images::kustomize_override(i, self.dir, self.path, line, area)
            })
            .collect()
    }

    /// The generators of list field `key` (`configMapGenerator`, `secretGenerator`).
    fn generators(&self, key: &str) -> Vec<Generator> {
        let mut from = 1;
        entries(self.v, key)
            .map(|(_, g)| {
                let name = scalar(g.get("name"));
                let line = line_of_name(self.text, 1, from, &name).unwrap_or(self.kind_line);
                from = line;
                let mut keys: Vec<String> = strings(g.get("literals"))
                    .iter()
                    .map(|l| l.split_once('=').map(|(k, _)| k).unwrap_or(l).to_string())
                    .collect();
                for f in strings(g.get("files")) {
                    // `key=path`, or the file's base name.
                    let key = match f.split_once('=') {
                        Some((k, _)) => k.to_string(),
                        None => f.rsplit('/').next().unwrap_or(&f).to_string(),
                    };
                    keys.push(key);
                }
                keys.sort();
                keys.dedup();
                let mut env_files = strings(g.get("envs"));
                env_files.extend(strings(
                    g.get("env").map(|e| Value::Array(vec![e.clone()])).as_ref(),
                ));
                Generator {
                    name,
                    namespace: scalar(g.get("namespace")),
                    behavior: scalar(g.get("behavior")),
                    keys,
                    env_files,
                    sources: vec![SourceRef::new(self.path, line)],
                }
            })
            .collect()
    }

    /// The `vars` entries: for substitution, and as rows of the model.
    fn vars(&self) -> (Vec<VarDef>, Vec<KustomizeVar>) {
        let mut vars = Vec::new();
        let mut var_rows = Vec::new();
        let mut from = 1;
        for (_, entry) in entries(self.v, "vars") {
            let name = scalar(entry.get("name"));
            let line = line_of_name(self.text, 1, from, &name).unwrap_or(self.kind_line);
            from = line;
            let kind = scalar(at(entry, &["objref", "kind"]));
            let object = scalar(at(entry, &["objref", "name"]));
            let field_path = match scalar(at(entry, &["fieldref", "fieldpath"])) {
                f if f.is_empty() => "metadata.name".to_string(),
                f => f,
            };
            var_rows.push(KustomizeVar {
                name: name.clone(),
                object: format!("{kind} {object}"),
                field_path: field_path.clone(),
                sources: vec![SourceRef::new(self.path, line)],
            });
            vars.push(VarDef {
                name,
                kind,
                object,
                field_path,
                line,
            });
        }
        (vars, var_rows)
    }

    /// The `replacements` entries: for substitution, and as rows of the model (a
    /// replacements file only as a row).
    fn replacements(&self) -> (Vec<ReplacementDef>, Vec<Replacement>) {
        // Each `replacements` entry starts with `- source:` (or `- path:` for a file), after
        // the top-level `replacements:` key.
        let section = self
            .text
            .lines()
            .position(|l| l.starts_with("replacements:"))
            .unwrap_or(usize::MAX);
        let source_lines: Vec<u32> = self
            .text
            .lines()
            .enumerate()
            .skip(section)
            .filter(|(_, l)| {
                let t = l.trim_start();
                t.starts_with("- source:") || t.starts_with("- path:")
            })
            .map(|(i, _)| i as u32 + 1)
            .collect();
        let mut replacements = Vec::new();
        let mut replacement_rows = Vec::new();
        for (i, entry) in entries(self.v, "replacements") {
            let line = source_lines.get(i).copied().unwrap_or(self.kind_line);
            if let Some(file) = entry.get("path").and_then(Value::as_str) {
                replacement_rows.push(Replacement {
                    object: format!("(replacements file {file})"),
                    field_path: String::new(),
                    targets: Vec::new(),
                    sources: vec![SourceRef::new(self.path, line)],
                });
                continue;
            }
            let replacement = replacement_def(entry, line);
            replacement_rows.push(replacement_row(&replacement, self.path));
            replacements.push(replacement);
        }
        (replacements, replacement_rows)
    }
}

/// One inline `replacements` entry, at `line`.
fn replacement_def(entry: &Value, line: u32) -> ReplacementDef {
    let source = entry.get("source").unwrap_or(&Value::Null);
    let field_path = match scalar(source.get("fieldPath")) {
        f if f.is_empty() => "metadata.name".to_string(),
        f => f,
    };
    let targets: Vec<TargetDef> = array_at(entry, &["targets"])
        .iter()
        .map(|t| TargetDef {
            kind: scalar(at(t, &["select", "kind"])),
            name: scalar(at(t, &["select", "name"])),
            field_paths: strings(t.get("fieldPaths")),
            partial: t.get("options").is_some(),
        })
        .collect();
    ReplacementDef {
        kind: scalar(source.get("kind")),
        name: scalar(source.get("name")),
        field_path,
        partial: source.get("options").is_some(),
        targets,
        line,
    }
}

/// The model's row of a replacement read by `replacement_def`.
fn replacement_row(r: &ReplacementDef, path: &str) -> Replacement {
    Replacement {
        object: format!("{} {}", r.kind, r.name),
        field_path: r.field_path.clone(),
        targets: r
            .targets
            .iter()
            .map(|t| {
                format!(
                    "{} {}: {}",
                    if t.kind.is_empty() { "*" } else { &t.kind },
                    if t.name.is_empty() { "*" } else { &t.name },
                    t.field_paths.join(", ")
                )
            })
            .collect(),
        sources: vec![SourceRef::new(path, r.line)],
    }
}

/// The `images:` overrides as the model shows them: `name → newName:tag` (or `@digest`).
fn image_rows(v: &Value) -> Vec<String> {
    entries(v, "images")
        .map(|(_, i)| {
            let name = scalar(i.get("name"));
            let new_name = scalar(i.get("newName"));
            let tag = scalar(i.get("newTag"));
            let digest = scalar(i.get("digest"));
            let target = if new_name.is_empty() {
                name.clone()
            } else {
                new_name
            };
            let version = if !digest.is_empty() {
                format!("@{digest}")
            } else if !tag.is_empty() {
                format!(":{tag}")
            } else {
                String::new()
            };
            format!("{name} → {target}{version}")
        })
        .collect()
}

/// A generator's namespace: its own, else the kustomization's.
fn generator_namespace(g: &Generator, namespace: &str) -> String {
    if g.namespace.is_empty() {
        namespace.to_string()
    } else {
        g.namespace.clone()
    }
}

/// The ConfigMaps the `configMapGenerator` entries make.
fn generated_configmaps(
    generators: &[Generator],
    namespace: &str,
    path: &str,
    area: Area,
) -> Vec<ConfigMap> {
    generators
        .iter()
        .map(|g| ConfigMap {
            name: g.name.clone(),
            namespace: generator_namespace(g, namespace),
            keys: g.keys.clone(),
            generated_by: path.to_string(),
            env_files: g.env_files.clone(),
            templated: false,
            bundled: false,
            area,
            sources: g.sources.clone(),
        })
        .collect()
}

/// The Secrets the `secretGenerator` entries define.
fn generated_secrets(
    generators: &[Generator],
    namespace: &str,
    path: &str,
    area: Area,
) -> Vec<SecretUse> {
    generators
        .iter()
        .map(|g| SecretUse {
            name: g.name.clone(),
            namespace: generator_namespace(g, namespace),
            what: format!("secretGenerator in {path}"),
            defines: true,
            secret_type: String::new(),
            keys: g.keys.clone(),
            templated: false,
            bundled: false,
            area,
            source: g
                .sources
                .first()
                .cloned()
                .unwrap_or(SourceRef::new(path, 1)),
        })
        .collect()
}

/// The labels added to selectors (`commonLabels`, and `labels` entries with
/// `includeSelectors`) and to pod templates only (`includeTemplates`).
fn labels(v: &Value) -> (Vec<String>, Vec<String>) {
    let mut selector_labels = if fits(
        Shape::Map,
        v.get("commonLabels").unwrap_or(&Value::Null),
        false,
    ) {
        pairs(v.get("commonLabels"))
    } else {
        Vec::new()
    };
    let mut template_labels = Vec::new();
    for (_, entry) in entries(v, "labels") {
        let flag = |k: &str| entry.get(k).and_then(Value::as_bool) == Some(true);
        let labels = pairs(entry.get("pairs"));
        if flag("includeSelectors") {
            selector_labels.extend(labels);
        } else if flag("includeTemplates") {
            template_labels.extend(labels);
        }
    }
    (selector_labels, template_labels)
}

/// An object of a manifest file, as kustomize sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectName {
    pub kind: String,
    pub name: String,
    pub namespace: String,
}

/// The kustomizations of a project, with the in-repo files each one builds.
pub struct Overlays {
    pub files: Vec<KustomizationFile>,
    /// Per kustomization (same order as `files`): the manifest files it includes.
    pub includes: Vec<BTreeSet<String>>,
}

/// Follows resources, bases and components through folders to the files each
/// kustomization builds. Entries that are neither an analyzed file nor a folder with a
/// kustomization give a diagnostic.
pub fn overlays(
    files: Vec<KustomizationFile>,
    manifests: &BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Overlays {
    let by_dir: BTreeMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, k)| (k.model.dir.as_str(), i))
        .collect();
    let mut includes = Vec::with_capacity(files.len());
    for (i, k) in files.iter().enumerate() {
        for (entry, line) in &k.local {
            if !manifests.contains(entry) && !by_dir.contains_key(entry.as_str()) {
                diagnostics.push(Diagnostic::new(
                    &k.path,
                    *line,
                    format!(
                        "resource `{entry}` is neither an analyzed manifest nor a folder with a kustomization (missing, excluded, or not YAML)"
                    ),
                ));
            }
        }
        let mut seen = BTreeSet::new();
        let mut out = BTreeSet::new();
        let mut stack = vec![i];
        while let Some(j) = stack.pop() {
            if !seen.insert(j) {
                continue;
            }
            let Some(kj) = files.get(j) else { continue };
            for (entry, _) in &kj.local {
                if manifests.contains(entry) {
                    out.insert(entry.clone());
                } else if let Some(&d) = by_dir.get(entry.as_str()) {
                    stack.push(d);
                }
            }
        }
        includes.push(out);
    }
    Overlays { files, includes }
}

/// Explains kustomize substitutions into a webhook's `clientConfig.service`: `$(VAR)`
/// references through `vars`, and `replacements` targeting the service name or namespace.
/// `objects` are the objects in each included file, to find a source object's namespace.
pub fn explain_webhook(
    w: &mut Webhook,
    overlays: &Overlays,
    objects: &BTreeMap<String, Vec<ObjectName>>,
) {
    let Some(file) = w.sources.first().map(|s| s.file.clone()) else {
        return;
    };
    let config_kind = match w.kind {
        WebhookType::Mutating => "MutatingWebhookConfiguration",
        WebhookType::Validating => "ValidatingWebhookConfiguration",
        // Conversion webhooks are served by code, not declared in a configuration object.
        WebhookType::Conversion => return,
    };
    let (mut namespace, mut name) = match w.service.split_once('/') {
        Some((ns, n)) if !w.service.contains("://") => (ns.to_string(), n.to_string()),
        _ => (String::new(), w.service.clone()),
    };
    let mut resolved = true;
    let mut any = false;
    for (k, included) in overlays.files.iter().zip(&overlays.includes) {
        if !included.contains(&file) {
            continue;
        }
        let value_of = |kind: &str, object: &str, field: &str| -> String {
            match field {
                "metadata.name" => {
                    format!("{}{object}{}", k.model.name_prefix, k.model.name_suffix)
                }
                "metadata.namespace" if !k.model.namespace.is_empty() => k.model.namespace.clone(),
                "metadata.namespace" => included
                    .iter()
                    .filter_map(|f| objects.get(f))
                    .flatten()
                    .find(|o| o.kind == kind && o.name == object)
                    .map(|o| o.namespace.clone())
                    .unwrap_or_default(),
                _ => String::new(),
            }
        };
        for r in &k.replacements {
            for t in &r.targets {
                if t.kind != config_kind || !(t.name.is_empty() || t.name == w.configuration) {
                    continue;
                }
                for fp in &t.field_paths {
                    let Some(field) = webhook_field(fp, &w.name) else {
                        continue;
                    };
                    let value = if r.partial || t.partial {
                        String::new()
                    } else {
                        value_of(&r.kind, &r.name, &r.field_path)
                    };
                    let slot = if field == "name" {
                        &mut name
                    } else {
                        &mut namespace
                    };
                    let written = slot.clone();
                    if value.is_empty() {
                        resolved = false;
                    } else {
                        *slot = value.clone();
                    }
                    any = true;
                    push_unique(
                        &mut w.substitutions,
                        Substitution {
                            field: format!("clientConfig.service.{field}"),
                            written,
                            value,
                            origin: format!(
                                "replacements: {} of {} {}",
                                r.field_path, r.kind, r.name
                            ),
                            sources: vec![SourceRef::new(&k.path, r.line)],
                        },
                    );
                }
            }
        }
        for v in &k.vars {
            let reference = format!("$({})", v.name);
            for (field, slot) in [("namespace", &mut namespace), ("name", &mut name)] {
                if !slot.contains(&reference) {
                    continue;
                }
                let value = value_of(&v.kind, &v.object, &v.field_path);
                let written = slot.clone();
                if value.is_empty() {
                    resolved = false;
                } else {
                    *slot = slot.replace(&reference, &value);
                }
                any = true;
                push_unique(
                    &mut w.substitutions,
                    Substitution {
                        field: format!("clientConfig.service.{field}"),
                        written,
                        value,
                        origin: format!(
                            "vars: {} = {} of {} {}",
                            v.name, v.field_path, v.kind, v.object
                        ),
                        sources: vec![SourceRef::new(&k.path, v.line)],
                    },
                );
            }
        }
    }
    if any && resolved && !namespace.contains("$(") && !name.contains("$(") {
        w.resolved_service = if namespace.is_empty() {
            name
        } else {
            format!("{namespace}/{name}")
        };
    }
}

fn push_unique(list: &mut Vec<Substitution>, s: Substitution) {
    if !list.contains(&s) {
        list.push(s);
    }
}

/// Which part of `clientConfig.service` a replacement field path targets for the webhook
/// named `webhook`: `webhooks.*.…`, `webhooks.[name=NAME].…`; numeric indexes are not
/// matched (the model does not keep a webhook's position).
fn webhook_field(field_path: &str, webhook: &str) -> Option<&'static str> {
    let rest = field_path.strip_prefix("webhooks.")?;
    let (selector, tail) = if let Some(r) = rest.strip_prefix('[') {
        let (sel, tail) = r.split_once("].")?;
        (sel, tail)
    } else {
        rest.split_once('.')?
    };
    let selects = selector == "*" || selector.strip_prefix("name=") == Some(webhook);
    if !selects {
        return None;
    }
    match tail {
        "clientConfig.service.name" => Some("name"),
        "clientConfig.service.namespace" => Some("namespace"),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
