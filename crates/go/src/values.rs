//! Resolving what Go values are: the project's functions by package, and the declared type
//! (and so the kind) of a value through results, fields, elements and other packages.
//! Shared by the features that need to know what an object is (writes, informers).

use std::collections::HashMap;

use super::facts::GoFile;
use super::facts::calls::FuncId;
use super::facts::writes::FuncFacts;
use super::index::{GoIndex, GoInput, dir_of};
use super::scope::is_group_version_accessor;
use super::syntax::ObjectRef;
use super::types::{FuncRef, GroupVersionRef, Signature, TypeRef, ValueType};
use model::{Area, UNRESOLVED};

/// A function of the project: the file it is in and its facts.
#[derive(Clone, Copy)]
pub struct Located<'a> {
    pub file: &'a GoFile,
    /// The file's index among the project's Go files (as in `calls::FuncId`).
    pub fi: usize,
    pub area: Area,
    pub facts: &'a FuncFacts,
}

impl Located<'_> {
    /// The function's parameters and results (recorded once, with its calls).
    pub fn signature(&self) -> &Signature {
        &self.file.call_facts[self.facts.call_fact].signature
    }
}

/// Functions of the project by (package folder, function).
pub type Functions<'a> = HashMap<(String, FuncRef), Located<'a>>;

/// client-go's typed clients of Kubernetes' own groups.
const CLIENT_GO_TYPED: &str = "k8s.io/client-go/kubernetes/typed/";
/// client-go's scale client, which reads and writes the `scale` subresource of any kind as
/// an `autoscaling/v1` `Scale`.
const SCALE_PACKAGE: &str = "k8s.io/client-go/scale";
const SCALE: [&str; 3] = ["autoscaling", "v1", "Scale"];

/// Where a group-version accessor was seen, which says whose clientset made it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Origin {
    /// A chain `X.CoreV1().…` on any clientset.
    Chain,
    /// A type of `k8s.io/client-go/kubernetes/typed/…`.
    ClientGo,
    /// A type of another clientset's typed package.
    Generated,
}

/// A client-gen group-version accessor (`CoreV1`, `AcmeV1`).
#[derive(Debug, Clone, PartialEq)]
pub struct Accessor {
    pub name: String,
    pub origin: Origin,
}

/// One resource of a group-version: by its accessor (`Secrets`) or its kind (`Secret`, of
/// the type `SecretInterface`).
#[derive(Debug, Clone, PartialEq)]
pub enum Resource {
    Plural(String),
    Kind(String),
}

/// What a value is as a client-gen typed client.
#[derive(Debug, Clone, PartialEq)]
pub enum TypedClient {
    /// The client of one resource (`typedcorev1.SecretInterface`, or a local assigned
    /// `cs.CoreV1().Secrets(ns)`).
    Resource {
        accessor: Accessor,
        resource: Resource,
    },
    /// A group-version client or a getter (`CoreV1Interface`, `SecretsGetter`): its
    /// accessor methods (`Secrets(ns)`) give resource clients.
    GroupVersion(Accessor),
    /// client-go's `scale.ScalesGetter`: `Scales(ns)` gives a `Scale` client.
    ScalesGetter,
    /// client-go's `scale.ScaleInterface`.
    Scale,
}

/// Nested types (fields of results of …) are followed this deep.
const MAX_TYPE_DEPTH: usize = 8;

/// The project's functions and index, to ask what a value is.
pub struct Values<'a, 'b> {
    pub index: &'b GoIndex<'a>,
    pub functions: Functions<'a>,
    /// Every function by its call graph node (`functions` keeps one of a name's
    /// declarations under different build tags; this keeps each).
    by_node: HashMap<FuncId, Located<'a>>,
}

impl<'a, 'b> Values<'a, 'b> {
    pub fn new(files: &'a [GoInput], index: &'b GoIndex<'a>) -> Self {
        let mut functions: Functions = HashMap::new();
        let mut by_node = HashMap::new();
        for (fi, input) in files.iter().enumerate() {
            for f in &input.facts.functions {
                let located = Located {
                    file: &input.facts,
                    fi,
                    area: input.area,
                    facts: f,
                };
                by_node.insert(FuncId::new(fi, f.call_fact), located);
                functions.insert(
                    (dir_of(&input.facts.path).to_string(), f.func.clone()),
                    located,
                );
            }
        }
        Values {
            index,
            functions,
            by_node,
        }
    }

    /// The function at a call graph node.
    pub fn located(&self, node: FuncId) -> Option<&Located<'a>> {
        self.by_node.get(&node)
    }

    /// The call graph node of function `func` of package folder `dir`.
    pub fn node_of(&self, dir: &str, func: &FuncRef) -> Option<FuncId> {
        self.functions
            .get(&(dir.to_string(), func.clone()))
            .map(|l| FuncId::new(l.fi, l.facts.call_fact))
    }

    fn files_in<'d>(&self, dir: &'d str) -> impl Iterator<Item = &'a GoInput> + use<'a, 'd> {
        let files: &'a [GoInput] = self.index.files;
        files.iter().filter(move |f| dir_of(&f.facts.path) == dir)
    }

    /// The fields of struct `owner` declared in package folder `dir`, with the file that
    /// declares them: `(name, type)`, name None for embedded types.
    pub fn struct_fields(
        &self,
        dir: &str,
        owner: &str,
    ) -> Vec<(&'a GoFile, Option<&'a str>, &'a TypeRef)> {
        let mut out = Vec::new();
        for input in self.files_in(dir) {
            for s in input.facts.structs.iter().filter(|s| s.name == owner) {
                for f in &s.fields {
                    let name = (!f.embedded).then_some(f.name.as_str());
                    out.push((&input.facts, name, &f.ty));
                }
            }
        }
        out
    }

    /// The types embedded by interface `name` declared in package folder `dir`, with the
    /// file that declares them.
    pub fn interface_embeds(&self, dir: &str, name: &str) -> Vec<(&'a GoFile, &'a TypeRef)> {
        let mut out = Vec::new();
        for input in self.files_in(dir) {
            for i in input.facts.interfaces.iter().filter(|i| i.name == name) {
                out.extend(i.embedded.iter().map(|e| (&input.facts, e)));
            }
        }
        out
    }

    /// The type of a named field of struct `owner` in package folder `dir`.
    pub fn struct_field(
        &self,
        dir: &str,
        owner: &str,
        field: &str,
    ) -> Option<(&'a GoFile, TypeRef)> {
        // An embedded field is named after its type (`r.Client` of an embedded `client.Client`).
        self.struct_fields(dir, owner)
            .into_iter()
            .find(|(_, n, t)| *n == Some(field) || (n.is_none() && t.name == field))
            .map(|(f, _, t)| (f, t.clone()))
    }

    /// The kind a typed clientset accessor chain (`CoreV1().ConfigMaps(ns)`,
    /// `ExampleV1().Widgets(ns)`) works on: Kubernetes' own groups by client-go's rules;
    /// otherwise the repository's API package whose group's first label and version make
    /// the accessor (client-gen's naming), and its type whose plural is the resource.
    pub fn clientset_kind(
        &self,
        accessor: &str,
        resource: &str,
    ) -> Option<(String, String, String)> {
        self.typed_kind(
            &Accessor {
                name: accessor.to_string(),
                origin: Origin::Chain,
            },
            &Resource::Plural(resource.to_string()),
        )
    }

    /// The kind of one resource of a client-gen group-version: client-go's groups (unless
    /// the accessor is known to be of another clientset), then the repository's generated
    /// clientsets, then well-known modules' (unless it is known to be client-go's).
    fn typed_kind(
        &self,
        accessor: &Accessor,
        resource: &Resource,
    ) -> Option<(String, String, String)> {
        let Accessor { name, origin } = accessor;
        let name = name.as_str();
        let kind_of = |r: &Resource| match r {
            Resource::Plural(p) => well_known_kind(p),
            Resource::Kind(k) => Some(k.clone()),
        };
        if *origin != Origin::Generated
            && let Some((g, v)) = clientset_group_version(name)
        {
            return Some((g, v, kind_of(resource)?));
        }
        if *origin == Origin::ClientGo {
            return None;
        }
        let wanted = alphanumeric_lower(name);
        let accessor_of = |g: &str, v: &str| {
            format!(
                "{}{v}",
                alphanumeric_lower(kubernetes::go_packages::group_go_name(g))
            )
        };
        // Several packages may declare one group/version (internal and external versions
        // of the same API): they agree on the kind, or nothing is said.
        let mut found: Vec<(String, String, String)> = self
            .index
            .group_versions()
            .filter(|(_, (g, v))| accessor_of(g, v) == wanted)
            .filter_map(|(import_path, (g, v))| {
                let kind = self.repo_kind(import_path, |kind| match resource {
                    Resource::Plural(p) => plural(kind) == *p,
                    Resource::Kind(k) => kind == k,
                })?;
                Some((g.clone(), v.clone(), kind))
            })
            .collect();
        found.sort();
        found.dedup();
        if let [only] = &found[..] {
            return Some(only.clone());
        }
        if !found.is_empty() {
            return None;
        }
        // A well-known module's generated clientset (`GatewayV1().HTTPRoutes(ns)`): its
        // group by the accessor, its kind by client-gen's plural rule.
        let version = name.rfind('V').map(|i| name[i..].to_ascii_lowercase())?;
        let mut groups: Vec<&str> = kubernetes::go_packages::well_known_groups()
            .filter(|g| accessor_of(g, &version) == wanted)
            .collect();
        groups.sort_unstable();
        groups.dedup();
        match groups[..] {
            [group] => Some((group.to_string(), version, kind_of(resource)?)),
            _ => None,
        }
    }

    /// What a value is as a client-gen typed client, from the clientset chain it was
    /// assigned from or its declared type (`typed_client_type`); None when it is not one.
    pub fn typed_client(
        &self,
        file: &'a GoFile,
        dir: &str,
        value: &ValueType,
    ) -> Option<TypedClient> {
        if let ValueType::ClientsetClient {
            group_version,
            resource,
        } = value
        {
            return Some(TypedClient::Resource {
                accessor: Accessor {
                    name: group_version.clone(),
                    origin: Origin::Chain,
                },
                resource: Resource::Plural(resource.clone()),
            });
        }
        let (file, t) = self.resolve_type(file, dir, value, 0)?;
        if t.collection {
            return None;
        }
        let import = self.index.import_for(file, t.qualifier.as_deref()?)?;
        self.typed_client_type(&import, &t.name)
    }

    /// A type of a client-gen typed package (`…/typed/<group>/<version>`) by client-gen's
    /// naming: `<Group><Version>Interface` and `<Plural>Getter` give resource clients by
    /// their accessor methods, `<Kind>Interface` is the client of one kind; client-go's
    /// scale client (`ScalesGetter`, `ScaleInterface`).
    fn typed_client_type(&self, import: &str, name: &str) -> Option<TypedClient> {
        if import == SCALE_PACKAGE {
            return match name {
                "ScalesGetter" => Some(TypedClient::ScalesGetter),
                "ScaleInterface" => Some(TypedClient::Scale),
                _ => None,
            };
        }
        let mut parts = import.rsplit('/');
        let (version, group_dir, typed) = (parts.next()?, parts.next()?, parts.next()?);
        if typed != "typed" || !kubernetes::is_version(version) || group_dir.is_empty() {
            return None;
        }
        let origin = if import.starts_with(CLIENT_GO_TYPED) {
            Origin::ClientGo
        } else {
            Origin::Generated
        };
        if let Some(stem) = name.strip_suffix("Interface")
            && is_group_version_accessor(stem)
        {
            return Some(TypedClient::GroupVersion(Accessor {
                name: stem.to_string(),
                origin,
            }));
        }
        let accessor = Accessor {
            name: self.package_accessor(import, group_dir, version),
            origin,
        };
        if name.strip_suffix("Getter").is_some_and(|p| !p.is_empty()) {
            return Some(TypedClient::GroupVersion(accessor));
        }
        let kind = name.strip_suffix("Interface").filter(|k| !k.is_empty())?;
        Some(TypedClient::Resource {
            accessor,
            resource: Resource::Kind(kind.to_string()),
        })
    }

    /// The group-version accessor of a typed package: the `<Accessor>Interface` it declares
    /// when it is in the repository, else its folder and version (`typed/core/v1` →
    /// `coreV1`), as client-gen names both after the API package's folder.
    fn package_accessor(&self, import: &str, group_dir: &str, version: &str) -> String {
        if let Some(dir) = self.index.dir_of_import(import) {
            let mut declared = self
                .files_in(dir)
                .flat_map(|f| f.facts.interfaces.iter())
                .filter_map(|i| i.name.strip_suffix("Interface"))
                .filter(|stem| is_group_version_accessor(stem));
            if let (Some(only), None) = (declared.next(), declared.next()) {
                return only.to_string();
            }
        }
        format!("{group_dir}V{}", &version[1..])
    }

    /// The kind a call on a typed client works on: `receiver.Verb(…)` when `accessor` is
    /// None, `receiver.Accessor(…).Verb(…)` otherwise. None when the receiver is not a
    /// client of that shape; `Err` (what the client is) when it is one whose kind cannot be
    /// told.
    pub fn typed_call_kind(
        &self,
        file: &'a GoFile,
        dir: &str,
        receiver: &ValueType,
        accessor: Option<&str>,
    ) -> Option<Result<(String, String, String), String>> {
        let client = self.typed_client(file, dir, receiver)?;
        let (gv, resource) = match (client, accessor) {
            (TypedClient::Resource { accessor, resource }, None) => (accessor, resource),
            (TypedClient::GroupVersion(gv), Some(plural)) => {
                (gv, Resource::Plural(plural.to_string()))
            }
            (TypedClient::Scale, None) | (TypedClient::ScalesGetter, Some("Scales")) => {
                let [g, v, k] = SCALE;
                return Some(Ok((g.into(), v.into(), k.into())));
            }
            _ => return None,
        };
        Some(self.typed_kind(&gv, &resource).ok_or_else(|| {
            let what = match &resource {
                Resource::Plural(p) => format!("{}().{p}(…)", gv.name),
                Resource::Kind(k) => format!("{}().{k}Interface", gv.name),
            };
            format!("the typed client {what}")
        }))
    }

    /// The kind of a lower-case resource name (a `GroupVersionResource`'s) of the
    /// repository's API package for `group`/`version`.
    pub fn repo_resource_kind(&self, group: &str, version: &str, resource: &str) -> Option<String> {
        let mut found = self
            .index
            .group_versions()
            .filter(|(_, (g, v))| g == group && v == version);
        let (import_path, _) = found.next()?;
        if found.next().is_some() {
            return None;
        }
        self.repo_kind(import_path, |kind| {
            plural(kind).to_ascii_lowercase() == resource
        })
    }

    /// The one struct type of an in-repo package that `matches`.
    fn repo_kind(&self, import_path: &str, matches: impl Fn(&str) -> bool) -> Option<String> {
        let dir = self.index.dir_of_import(import_path)?;
        let mut kinds = self
            .files_in(dir)
            .flat_map(|f| f.facts.structs.iter().map(|s| s.name.as_str()))
            .filter(|k| matches(k));
        let kind = kinds.next()?;
        kinds.next().is_none().then(|| kind.to_string())
    }

    pub fn value_kind(
        &self,
        file: &'a GoFile,
        dir: &str,
        value: &ValueType,
    ) -> Option<(String, String, String)> {
        if let ValueType::Clientset {
            group_version,
            resource,
        } = value
        {
            return self.clientset_kind(group_version, resource);
        }
        if let Some((group, version, kind, false)) = self.set_kind(file, value, 0) {
            return Some((group, version, kind));
        }
        let (file, t) = self.resolve_type(file, dir, value, 0)?;
        if t.collection {
            return None;
        }
        self.type_kind(file, &t)
    }

    /// The kinds a value may have: its declared type's; or, for the first result of a
    /// function of the repository whose declared type is no kind (an interface:
    /// `func newObject(…) client.Object`), the kind of each value its `return` statements
    /// give. Empty unless every one of those has a kind: a kind is never guessed.
    pub fn value_kinds(
        &self,
        file: &'a GoFile,
        dir: &str,
        value: &ValueType,
    ) -> Vec<(String, String, String)> {
        if let Some(kind) = self.value_kind(file, dir, value) {
            return vec![kind];
        }
        let Some((loc, 0)) = self.result_function(file, dir, value) else {
            return Vec::new();
        };
        let returned = &loc.file.call_facts[loc.facts.call_fact].returned;
        let at = dir_of(&loc.file.path);
        let mut kinds: Vec<(String, String, String)> = Vec::new();
        for r in returned {
            match self.value_kind(loc.file, at, r) {
                Some(kind) if !kinds.contains(&kind) => kinds.push(kind),
                Some(_) => {}
                None => return Vec::new(),
            }
        }
        kinds
    }

    /// The function whose result `value` is, and which of its results.
    fn result_function(
        &self,
        file: &'a GoFile,
        dir: &str,
        value: &ValueType,
    ) -> Option<(&Located<'a>, usize)> {
        match value {
            ValueType::Result { func, index } => self
                .functions
                .get(&(dir.to_string(), func.clone()))
                .map(|loc| (loc, *index)),
            ValueType::ForeignResult {
                qualifier,
                name,
                index,
            } => {
                let import = self.index.import_for(file, qualifier)?;
                let foreign_dir = self.index.dir_of_import(&import)?;
                let func = FuncRef {
                    receiver: None,
                    name: name.clone(),
                };
                let loc = self.functions.get(&(foreign_dir.to_string(), func))?;
                Some((loc, *index))
            }
            _ => None,
        }
    }

    /// The kind of an object whose GroupVersionKind was set to a constant (`SetKind`), or
    /// of `.Items` of such a list (`true`: a collection of it) and its elements.
    fn set_kind(
        &self,
        file: &GoFile,
        value: &ValueType,
        depth: usize,
    ) -> Option<(String, String, String, bool)> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        match value {
            ValueType::SetKind {
                group_version,
                kind,
            } => {
                let (group, version) = match group_version {
                    GroupVersionRef::Package(q) => {
                        self.index.group_version(&self.index.import_for(file, q)?)?
                    }
                    GroupVersionRef::Literal { group, version } => (
                        self.index.eval(file, group)?,
                        self.index.eval(file, version)?,
                    ),
                };
                let kind = self.index.eval(file, kind)?;
                (!kind.is_empty() && !version.is_empty()).then_some((group, version, kind, false))
            }
            // A list's `Items` are its kind without `List`.
            ValueType::Field { base, field } if field == "Items" => {
                let (g, v, k, false) = self.set_kind(file, base, depth + 1)? else {
                    return None;
                };
                let item = k.strip_suffix("List").filter(|i| !i.is_empty())?;
                Some((g, v, item.to_string(), true))
            }
            ValueType::Elem(inner) => match self.set_kind(file, inner, depth + 1)? {
                (g, v, k, true) => Some((g, v, k, false)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The declared type a value has, with the file whose imports qualify it.
    pub fn declared_type(
        &self,
        file: &'a GoFile,
        dir: &str,
        value: &ValueType,
    ) -> Option<(&'a GoFile, TypeRef)> {
        self.resolve_type(file, dir, value, 0)
    }

    fn resolve_type(
        &self,
        file: &'a GoFile,
        dir: &str,
        value: &ValueType,
        depth: usize,
    ) -> Option<(&'a GoFile, TypeRef)> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        match value {
            ValueType::Type(t) | ValueType::Param { ty: Some(t), .. } => Some((file, t.clone())),
            ValueType::Result { .. } | ValueType::ForeignResult { .. } => {
                let (loc, index) = self.result_function(file, dir, value)?;
                Some((loc.file, loc.signature().results.get(index)?.clone()?))
            }
            ValueType::Elem(inner) => {
                let (f, t) = self.resolve_type(file, dir, inner, depth + 1)?;
                t.collection.then_some({
                    (
                        f,
                        TypeRef {
                            collection: false,
                            ..t
                        },
                    )
                })
            }
            ValueType::Field { base, field } => {
                let (f, t) = self.resolve_type(file, dir, base, depth + 1)?;
                if t.collection {
                    return None;
                }
                // Structs of this repository: the same package, or an in-repo import.
                let owner_dir = self.index.package_dir(f, t.qualifier.as_deref());
                if let Some(found) = owner_dir.and_then(|d| self.struct_field(&d, &t.name, field)) {
                    return Some(found);
                }
                // Kubernetes list types (`FooList`) hold `Items []Foo`.
                let item = t
                    .name
                    .strip_suffix("List")
                    .filter(|n| !n.is_empty() && field == "Items")?;
                Some((
                    f,
                    TypeRef {
                        qualifier: t.qualifier.clone(),
                        name: item.to_string(),
                        collection: true,
                    },
                ))
            }
            _ => None,
        }
    }

    pub fn type_kind(&self, file: &GoFile, t: &TypeRef) -> Option<(String, String, String)> {
        let object = ObjectRef::Type {
            qualifier: t.qualifier.clone(),
            name: t.name.clone(),
        };
        let mut scratch = Vec::new();
        let k = self.index.resolve_object(file, &object, 0, &mut scratch);
        (k.group != UNRESOLVED).then_some((k.group, k.version, k.kind))
    }
}

pub fn describe(value: &ValueType) -> String {
    match value {
        ValueType::Type(t) | ValueType::Param { ty: Some(t), .. } => match &t.qualifier {
            Some(q) => format!("type {q}.{} is not a known API type", t.name),
            None => format!("type {} is not a known API type", t.name),
        },
        ValueType::Param { index, .. } => {
            format!(
                "parameter {} has no concrete type and no call site in the package",
                index + 1
            )
        }
        ValueType::Result { func, .. } => {
            format!("the result of {} is not a known API type", func.name)
        }
        ValueType::ForeignResult {
            qualifier, name, ..
        } => {
            format!("the result of {qualifier}.{name} is not a known API type")
        }
        ValueType::Field { field, .. } => format!("the type of field {field} is not known"),
        ValueType::Elem(_) => "the element type of the collection is not known".into(),
        ValueType::Clientset {
            group_version,
            resource,
        } => {
            format!("{group_version}().{resource}() is not a known clientset accessor")
        }
        ValueType::ClientsetClient {
            group_version,
            resource,
        } => format!("{group_version}().{resource}(…) is a typed client, not an object"),
        ValueType::SetKind { .. } => {
            "its GroupVersionKind does not evaluate to a known kind".into()
        }
        ValueType::Unknown(expr) => format!("`{expr}` has no declaration the analyzer can follow"),
    }
}

/// Lower case with everything but ASCII letters and digits removed (`cert-manager` →
/// `certmanager`), as client-gen names a group's accessor.
fn alphanumeric_lower(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// `CoreV1` → ("", "v1"), `AppsV1` → ("apps", "v1") for Kubernetes' own clientset.
pub fn clientset_group_version(accessor: &str) -> Option<(String, String)> {
    let i = accessor.rfind('V')?;
    let (group, version) = (
        accessor[..i].to_ascii_lowercase(),
        accessor[i..].to_ascii_lowercase(),
    );
    kubernetes::go_packages::builtin_group_version(&format!("k8s.io/api/{group}/{version}"))
}

/// Plurals client-gen does not make by its rules.
const IRREGULAR_PLURALS: &[(&str, &str)] = &[("Endpoints", "Endpoints")];

/// The kind of a resource of Kubernetes' own API groups, from its clientset accessor
/// (`ConfigMaps`, `NetworkPolicies`, `Ingresses`, `StorageClasses`): client-gen's plural
/// rules (`plural`) undone. Exact for client-go's groups, whose kinds never end in `e`
/// after `ch`, `sh`, `x`, `z`, `ss` or `us` (where undoing is ambiguous).
pub fn well_known_kind(resource: &str) -> Option<String> {
    if let Some((_, kind)) = IRREGULAR_PLURALS.iter().find(|(_, p)| *p == resource) {
        return Some(kind.to_string());
    }
    if !resource.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    let kind = if let Some(stem) = resource.strip_suffix("ies") {
        format!("{stem}y")
    } else if ["sses", "uses", "xes", "zes", "ches", "shes"]
        .iter()
        .any(|s| resource.ends_with(s))
    {
        resource[..resource.len() - 2].to_string()
    } else {
        resource.strip_suffix('s')?.to_string()
    };
    (!kind.is_empty()).then_some(kind)
}

/// client-gen's plural of a kind (gengo's plural namer): `…s`, `…x`, `…z`, `…ch`, `…sh` take
/// `es`, a consonant before a final `y` makes `ies`, anything else takes `s`.
pub fn plural(kind: &str) -> String {
    if let Some((_, p)) = IRREGULAR_PLURALS.iter().find(|(k, _)| *k == kind) {
        return p.to_string();
    }
    let consonant_y = kind.len() > 1
        && kind.ends_with('y')
        && !kind[..kind.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']);
    if consonant_y {
        format!("{}ies", &kind[..kind.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|s| kind.ends_with(s))
    {
        format!("{kind}es")
    } else {
        format!("{kind}s")
    }
}
