//! Resolving what Go values are: the project's functions by package, and the declared type
//! (and so the kind) of a value through results, fields, elements and other packages.
//! Shared by the features that need to know what an object is (writes, informers).

use foldhash::{HashMap, HashMapExt};

use super::facts::GoFile;
use super::facts::calls::FuncId;
use super::facts::writes::FuncFacts;
use super::index::{GoIndex, GoInput, dir_of};
use super::scope::is_group_version_accessor;
use super::syntax::ObjectRef;
use super::types::{FuncRef, GroupVersionRef, Signature, TypeRef, ValueType, VarLiteral};
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
/// client-go's clientset of Kubernetes' own groups, and its fake.
const CLIENT_GO_CLIENTSETS: [&str; 2] = [
    "k8s.io/client-go/kubernetes",
    "k8s.io/client-go/kubernetes/fake",
];
/// client-gen's constructors of a clientset, declared in the clientset's own package.
const CLIENTSET_CONSTRUCTORS: [&str; 6] = [
    "NewForConfig",
    "NewForConfigOrDie",
    "NewForConfigAndClient",
    "New",
    "NewSimpleClientset",
    "NewClientset",
];
/// Functions of other modules that return a clientset: (import path, function, the
/// clientset's import path).
const CLIENTSET_GETTERS: &[(&str, &str, &str)] = &[(
    "knative.dev/pkg/client/injection/kube/client",
    "Get",
    "k8s.io/client-go/kubernetes",
)];
/// client-go's apply configurations of Kubernetes' own groups.
const CLIENT_GO_APPLY_CONFIGURATIONS: &str = "k8s.io/client-go/applyconfigurations/";
/// client-go's scale client, which reads and writes the `scale` subresource of any kind as
/// an `autoscaling/v1` `Scale`.
const SCALE_PACKAGE: &str = "k8s.io/client-go/scale";
const SCALE: [&str; 3] = ["autoscaling", "v1", "Scale"];

/// Whose generated client a group-version accessor belongs to: the package its type comes
/// from, which alone says what the accessor's group is.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// A clientset package (`k8s.io/client-go/kubernetes`, `…/clientset/versioned`): a chain
    /// `cs.CoreV1().…` on a value of its type.
    Clientset(String),
    /// A typed package (`…/typed/<group>/<version>`): a value of one of its types.
    Typed(String),
    /// The clientset's type could not be followed: why.
    Unknown(String),
}

/// A client-gen group-version accessor (`CoreV1`, `AcmeV1`) and whose it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Accessor {
    pub name: String,
    pub origin: Origin,
}

/// Where the kinds of a resolved group-version come from.
enum KindsFrom {
    /// The repository's API package (import path): its type whose plural is the resource.
    Repo(String),
    /// The repository's typed package (import path) of an API package it does not hold: its
    /// `<Kind>Interface` whose plural is the resource.
    Typed(String),
    /// A built-in or well-known module's: client-gen's plural rule undone.
    Rule,
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

/// Types embedding a clientset are followed this deep.
const MAX_EMBED_DEPTH: usize = 4;

/// The project's functions and index, to ask what a value is.
pub struct Values<'a, 'b> {
    pub index: &'b GoIndex<'a>,
    pub functions: Functions<'a>,
    /// Every function by its call graph node (`functions` keeps one of a name's
    /// declarations under different build tags; this keeps each).
    by_node: HashMap<FuncId, Located<'a>>,
    /// The files of each package folder (asked for every struct and interface looked up).
    by_dir: HashMap<&'a str, Vec<&'a GoInput>>,
}

impl<'a, 'b> Values<'a, 'b> {
    pub fn new(files: &'a [GoInput], index: &'b GoIndex<'a>) -> Self {
        let mut functions: Functions = HashMap::new();
        let mut by_node = HashMap::new();
        let mut by_dir: HashMap<&'a str, Vec<&'a GoInput>> = HashMap::new();
        for (fi, input) in files.iter().enumerate() {
            by_dir
                .entry(dir_of(&input.facts.path))
                .or_default()
                .push(input);
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
            by_dir,
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

    fn files_in(&self, dir: &str) -> impl Iterator<Item = &'a GoInput> + use<'a, '_> {
        self.by_dir.get(dir).into_iter().flatten().copied()
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

    /// The kind an informer factory's accessor (`f.Core().V1().Pods()`: `CoreV1`, `Pods`)
    /// gives, by the accessor's name: Kubernetes' own groups by client-go's rules;
    /// otherwise the repository's API package whose group's first label and version make
    /// the accessor (client-gen's naming), and its type whose plural is the resource; else
    /// a well-known module's group of that name. Typed clientsets are not resolved this way
    /// (`chain_kind`): their package says whose accessor it is.
    pub fn informer_accessor_kind(
        &self,
        accessor: &str,
        resource: &str,
    ) -> Option<(String, String, String)> {
        if let Some((g, v)) = clientset_group_version(accessor) {
            return Some((g, v, well_known_kind(resource)?));
        }
        let wanted = alphanumeric_lower(accessor);
        // Several packages may declare one group/version (internal and external versions
        // of the same API): they agree on the kind, or nothing is said.
        let mut found: Vec<(String, String, String)> = self
            .index
            .group_versions()
            .filter(|(_, (g, v))| accessor_of(g, v) == wanted)
            .filter_map(|(import_path, (g, v))| {
                let kind = self.repo_kind(import_path, |kind| plural(kind) == resource)?;
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
        let version = accessor_version(accessor)?;
        let mut groups: Vec<&str> = kubernetes::go_packages::well_known_groups()
            .filter(|g| accessor_of(g, &version) == wanted)
            .collect();
        groups.sort_unstable();
        groups.dedup();
        match groups[..] {
            [group] => Some((group.to_string(), version, well_known_kind(resource)?)),
            _ => None,
        }
    }

    /// The kind an informer factory's chain (`f.Gateway().V1().Gateways()`) serves, told by
    /// the factory's package when it is of a well-known module: that module's groups, not
    /// every group whose name makes the accessor. `None` when the factory's package is not
    /// known or is client-go's or the repository's (`informer_accessor_kind` names those
    /// exactly); `Some(None)` when it is a module's whose groups do not have the accessor.
    pub fn factory_kind(
        &self,
        file: &'a GoFile,
        dir: &str,
        root: &ValueType,
        accessor: &str,
        resource: &str,
    ) -> Option<Option<(String, String, String)>> {
        let (f, t) = self.resolve_type(file, dir, root, 0)?;
        let package = self.index.type_package(f, t.qualifier.as_deref())?;
        if kubernetes::go_packages::module_api_folders(&package).is_empty() {
            return None;
        }
        let wanted = alphanumeric_lower(accessor);
        let version = accessor_version(accessor).unwrap_or_default();
        Some(
            self.module_group_version(&package, &version, |g, v| accessor_of(g, v) == wanted)
                .and_then(|(g, v, _)| Some((g, v, well_known_kind(resource)?))),
        )
    }

    /// The kind a typed clientset chain (`root.CoreV1().ConfigMaps(ns)`) works on, through
    /// the package of the clientset `root` is (`clientset_package`); `Err` says why not.
    pub fn chain_kind(
        &self,
        file: &'a GoFile,
        dir: &str,
        root: &ValueType,
        accessor: &str,
        resource: &str,
    ) -> Result<(String, String, String), String> {
        let accessor = Accessor {
            name: accessor.to_string(),
            origin: self.clientset_origin(file, dir, root),
        };
        self.typed_kind(&accessor, &Resource::Plural(resource.to_string()))
    }

    fn clientset_origin(&self, file: &'a GoFile, dir: &str, root: &ValueType) -> Origin {
        match self.clientset_package(file, dir, root) {
            Ok(package) => Origin::Clientset(package),
            Err(why) => Origin::Unknown(why),
        }
    }

    /// The import path of the clientset package whose clientset `root` is: its declared
    /// type (`kubernetes.Interface`, `*versioned.Clientset`, or a repository type embedding
    /// one), or the function that made it (client-gen's `NewForConfig` of that package,
    /// `CLIENTSET_GETTERS`).
    fn clientset_package(
        &self,
        file: &'a GoFile,
        dir: &str,
        root: &ValueType,
    ) -> Result<String, String> {
        if let ValueType::ForeignResult {
            qualifier,
            name,
            index: 0,
        } = root
            && let Some(import) = self.index.import_for(file, qualifier)
            && self.index.dir_of_import(&import).is_none()
        {
            if let Some((_, _, clientset)) = CLIENTSET_GETTERS
                .iter()
                .find(|(p, f, _)| *p == import && f == name)
            {
                return Ok(clientset.to_string());
            }
            if CLIENTSET_CONSTRUCTORS.contains(&name.as_str()) {
                return Ok(import);
            }
        }
        let Some((f, t)) = self.resolve_type(file, dir, root, 0) else {
            let what = match root {
                ValueType::Result { func, .. } => format!("the result of {}", func.name),
                ValueType::ForeignResult {
                    qualifier, name, ..
                } => format!("the result of {qualifier}.{name}"),
                ValueType::Field { field, .. } => format!("field {field}"),
                ValueType::Unknown(expr) => format!("`{expr}`"),
                _ => "the value".into(),
            };
            return Err(format!(
                "the clientset's type is not known ({what} has no declared type the analyzer can follow)"
            ));
        };
        self.clientset_type(f, &t, 0).ok_or_else(|| {
            let name = match &t.qualifier {
                Some(q) => format!("{q}.{}", t.name),
                None => t.name.clone(),
            };
            format!("its type {name} is not a generated clientset")
        })
    }

    /// The clientset package of a type: client-gen's `Interface` or `Clientset` of a
    /// package, or a repository struct or interface embedding one.
    fn clientset_type(&self, file: &GoFile, t: &TypeRef, depth: usize) -> Option<String> {
        if t.collection || depth > MAX_EMBED_DEPTH {
            return None;
        }
        let import = self.index.type_package(file, t.qualifier.as_deref())?;
        if let Some(dir) = self.index.dir_of_import(&import) {
            let embedded = self
                .struct_fields(dir, &t.name)
                .into_iter()
                .filter(|(_, name, _)| name.is_none())
                .map(|(f, _, e)| (f, e))
                .chain(self.interface_embeds(dir, &t.name))
                .find_map(|(f, e)| self.clientset_type(f, e, depth + 1));
            if embedded.is_some() {
                return embedded;
            }
        }
        matches!(t.name.as_str(), "Interface" | "Clientset").then_some(import)
    }

    /// The kind of one resource of a client-gen group-version, by whose accessor it is.
    fn typed_kind(
        &self,
        accessor: &Accessor,
        resource: &Resource,
    ) -> Result<(String, String, String), String> {
        let (group, version, from) = self.accessor_group_version(accessor)?;
        let kind = match (&from, resource) {
            (KindsFrom::Repo(api), Resource::Plural(p)) => {
                self.repo_kind(api, |kind| plural(kind) == *p)
            }
            (KindsFrom::Repo(api), Resource::Kind(k)) => self.repo_kind(api, |kind| kind == k),
            (KindsFrom::Typed(typed), Resource::Plural(p)) => self.typed_package_kind(typed, p),
            (KindsFrom::Typed(_) | KindsFrom::Rule, Resource::Kind(k)) => Some(k.clone()),
            (KindsFrom::Rule, Resource::Plural(p)) => well_known_kind(p),
        };
        kind.map(|k| (group.clone(), version.clone(), k))
            .ok_or_else(|| match (&from, resource) {
                (KindsFrom::Repo(api), _) => format!(
                    "no one type of the API package {api} ({}/{version}) is this resource",
                    display_group(&group)
                ),
                _ => format!(
                    "the resource is not one of {}/{version} the analyzer knows",
                    display_group(&group)
                ),
            })
    }

    /// The group and version of a group-version accessor, and where its kinds come from:
    /// client-go's clientset and typed packages by Kubernetes' own groups; the repository's
    /// clientsets through the typed package and the API package it imports; well-known
    /// modules' clientsets by their API folders (`kubernetes::go_packages`). Nothing else.
    fn accessor_group_version(
        &self,
        accessor: &Accessor,
    ) -> Result<(String, String, KindsFrom), String> {
        let name = accessor.name.as_str();
        match &accessor.origin {
            Origin::Unknown(why) => Err(why.clone()),
            Origin::Clientset(package) => {
                if CLIENT_GO_CLIENTSETS.contains(&package.as_str()) {
                    let (g, v) = clientset_group_version(name).ok_or_else(|| {
                        format!("{name} is not a group-version of client-go's clientset")
                    })?;
                    return Ok((g, v, KindsFrom::Rule));
                }
                let own = package.strip_suffix("/fake").unwrap_or(package);
                if self.repo_dir(own).is_some() {
                    let typed = self.repo_typed_package(own, name).ok_or_else(|| {
                        format!(
                            "the clientset {own} has no typed package declaring {name}Interface"
                        )
                    })?;
                    return self.typed_group_version(&typed);
                }
                let wanted = alphanumeric_lower(name);
                let version = accessor_version(name).unwrap_or_default();
                self.module_group_version(package, &version, |g, v| accessor_of(g, v) == wanted)
                    .ok_or_else(|| {
                        format!(
                            "the clientset {package} is not in the repository and not in the built-in table"
                        )
                    })
            }
            Origin::Typed(package) => {
                let mut parts = package.rsplit('/');
                let (version, group_dir) = (
                    parts.next().unwrap_or_default(),
                    parts.next().unwrap_or_default(),
                );
                if let Some(rest) = package.strip_prefix(CLIENT_GO_TYPED) {
                    let (g, v) = kubernetes::go_packages::builtin_group_version(&format!(
                        "k8s.io/api/{rest}"
                    ))
                    .ok_or_else(|| format!("{package} is not one of client-go's groups"))?;
                    return Ok((g, v, KindsFrom::Rule));
                }
                if self.repo_dir(package).is_some() {
                    return self.typed_group_version(package);
                }
                // client-gen names a typed package's folder after the API package's.
                let folders: Vec<&str> = kubernetes::go_packages::module_api_folders(package)
                    .into_iter()
                    .filter(|f| f.rsplit('/').next() == Some(group_dir))
                    .collect();
                self.folders_group_version(&folders, version, |_, _| true)
                    .ok_or_else(|| {
                        format!(
                            "the typed client package {package} is not in the repository and not in the built-in table"
                        )
                    })
            }
        }
    }

    /// The one group a well-known module (the module `package` is in) serves at `version`
    /// among its API folders whose group `fits`.
    fn module_group_version(
        &self,
        package: &str,
        version: &str,
        fits: impl Fn(&str, &str) -> bool,
    ) -> Option<(String, String, KindsFrom)> {
        let folders = kubernetes::go_packages::module_api_folders(package);
        self.folders_group_version(&folders, version, fits)
    }

    fn folders_group_version(
        &self,
        folders: &[&str],
        version: &str,
        fits: impl Fn(&str, &str) -> bool,
    ) -> Option<(String, String, KindsFrom)> {
        if !kubernetes::is_version(version) {
            return None;
        }
        let mut groups: Vec<(String, String)> = folders
            .iter()
            .filter_map(|f| {
                kubernetes::go_packages::builtin_group_version(&format!("{f}/{version}"))
            })
            .filter(|(g, v)| fits(g, v))
            .collect();
        groups.sort();
        groups.dedup();
        match <[_; 1]>::try_from(groups) {
            Ok([(g, v)]) => Some((g, v, KindsFrom::Rule)),
            Err(_) => None,
        }
    }

    /// The folder of a package of the repository's own code (a vendored module's package
    /// has only its API declarations read: it is not one).
    fn repo_dir(&self, import_path: &str) -> Option<&'b str> {
        let dir = self.index.dir_of_import(import_path)?;
        self.files_in(dir).any(|f| !f.facts.vendored).then_some(dir)
    }

    /// The repository's typed package of clientset `clientset` that declares the accessor's
    /// `<Accessor>Interface` (client-gen puts them under `<clientset>/typed/`).
    fn repo_typed_package(&self, clientset: &str, accessor: &str) -> Option<String> {
        let wanted = format!("{accessor}Interface");
        let prefix = format!("{clientset}/typed/");
        let mut found: Vec<String> = self
            .index
            .files
            .iter()
            .filter(|f| f.facts.interfaces.iter().any(|i| i.name == wanted))
            .filter_map(|f| self.index.package_of(&f.facts))
            .filter(|p| p.starts_with(&prefix) && !p.ends_with("/fake"))
            .map(str::to_string)
            .collect();
        found.sort();
        found.dedup();
        match <[_; 1]>::try_from(found) {
            Ok([one]) => Some(one),
            Err(_) => None,
        }
    }

    /// The group and version of the repository's typed package: those of the API package
    /// its files import that it is named after, else of the one API package they import.
    fn typed_group_version(&self, typed: &str) -> Result<(String, String, KindsFrom), String> {
        let dir = self.repo_dir(typed).unwrap_or_default();
        let mut apis: Vec<(String, String, String)> = self
            .files_in(dir)
            .flat_map(|f| f.facts.imports.iter())
            .filter_map(|i| {
                let (g, v) = self.index.group_version(&i.path)?;
                Some((g, v, i.path.clone()))
            })
            .collect();
        apis.sort();
        apis.dedup();
        // client-gen names the typed package's folders after the API package's
        // (`typed/monitoring/v1` of `…/apis/monitoring/v1`); other imports are of other
        // groups (`k8s.io/api/autoscaling/v1` for the scale subresource).
        let tail = |p: &str| {
            let mut parts = p.rsplit('/');
            (
                parts.next().map(str::to_string),
                parts.next().map(str::to_string),
            )
        };
        if apis.iter().any(|(_, _, p)| tail(p) == tail(typed)) {
            apis.retain(|(_, _, p)| tail(p) == tail(typed));
        }
        let mut gvs: Vec<(&String, &String)> = apis.iter().map(|(g, v, _)| (g, v)).collect();
        gvs.dedup();
        let [(group, version)] = gvs[..] else {
            return Err(if gvs.is_empty() {
                format!("the typed package {typed} imports no API package of a known group")
            } else {
                format!("the typed package {typed} imports API packages of several groups")
            });
        };
        // The repository's own API package names the kinds; a vendored one has only its
        // declarations, so the typed package's own client types do.
        let own = apis
            .iter()
            .map(|(_, _, p)| p)
            .find(|p| self.repo_dir(p).is_some());
        let from = match own {
            Some(api) => KindsFrom::Repo(api.clone()),
            None => KindsFrom::Typed(typed.to_string()),
        };
        Ok((group.clone(), version.clone(), from))
    }

    /// The kind whose `<Kind>Interface` the repository's typed package declares, for a
    /// resource by its plural.
    fn typed_package_kind(&self, typed: &str, resource: &str) -> Option<String> {
        let dir = self.index.dir_of_import(typed)?;
        let mut kinds: Vec<&str> = self
            .files_in(dir)
            .flat_map(|f| f.facts.interfaces.iter())
            .filter_map(|i| i.name.strip_suffix("Interface"))
            .filter(|k| !k.is_empty() && plural(k) == resource)
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        match kinds[..] {
            [kind] => Some(kind.to_string()),
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
            root,
            group_version,
            resource,
        } = value
        {
            return Some(TypedClient::Resource {
                accessor: Accessor {
                    name: group_version.clone(),
                    origin: self.clientset_origin(file, dir, root),
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

    /// `x.Secrets(ns)` where `x`'s type is a struct of the repository embedding a
    /// client-gen `SecretsGetter` (a hand-made client bundling typed getters): that getter.
    fn embedded_getter(
        &self,
        file: &'a GoFile,
        dir: &str,
        receiver: &ValueType,
        accessor: &str,
    ) -> Option<TypedClient> {
        let (tfile, t) = self.resolve_type(file, dir, receiver, 0)?;
        if t.collection {
            return None;
        }
        let owner_dir = self.index.package_dir(tfile, t.qualifier.as_deref())?;
        let getter = format!("{accessor}Getter");
        let (decl_file, field) = self.files_in(&owner_dir).find_map(|f| {
            let s = f.facts.structs.iter().find(|s| s.name == t.name)?;
            let field = s
                .fields
                .iter()
                .find(|fl| fl.embedded && fl.ty.name == getter && !fl.ty.collection)?;
            Some((&f.facts, field))
        })?;
        let import = self
            .index
            .import_for(decl_file, field.ty.qualifier.as_deref()?)?;
        self.typed_client_type(&import, &getter)
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
        let origin = Origin::Typed(import.to_string());
        if let Some(stem) = name.strip_suffix("Interface")
            && is_group_version_accessor(stem)
        {
            return Some(TypedClient::GroupVersion(Accessor {
                name: stem.to_string(),
                origin,
            }));
        }
        let accessor = Accessor {
            name: format!("{group_dir}V{}", &version[1..]),
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

    /// The kind a call on a typed client works on: `receiver.Verb(…)` when `accessor` is
    /// None, `receiver.Accessor(…).Verb(…)` otherwise. None when the receiver is not a
    /// client of that shape; `Err` (what the client is, and why) when it is one whose kind
    /// cannot be told.
    pub fn typed_call_kind(
        &self,
        file: &'a GoFile,
        dir: &str,
        receiver: &ValueType,
        accessor: Option<&str>,
    ) -> Option<Result<(String, String, String), String>> {
        let client = self
            .typed_client(file, dir, receiver)
            .or_else(|| accessor.and_then(|a| self.embedded_getter(file, dir, receiver, a)))?;
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
        Some(self.typed_kind(&gv, &resource).map_err(|why| {
            let what = match &resource {
                Resource::Plural(p) => format!("{}().{p}(…)", gv.name),
                Resource::Kind(k) => format!("{}().{k}Interface", gv.name),
            };
            format!("the typed client {what}: {why}")
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
        kinds
            .next()
            .is_none()
            .then(|| self.index.kind_name(import_path, kind))
    }

    pub fn value_kind(
        &self,
        file: &'a GoFile,
        dir: &str,
        value: &ValueType,
    ) -> Option<(String, String, String)> {
        // Values on several branches (or a slice's elements, or a field of either) have
        // one kind when they all agree on it.
        let elements = matches!(value, ValueType::Elem(inner) if matches!(inner.as_ref(), ValueType::Elements { .. }));
        if matches!(value, ValueType::OneOf(_) | ValueType::Asserted { .. })
            || elements
            || several_bases(value).is_some()
        {
            let mut kinds = self.value_kinds(file, dir, value).into_iter();
            return match (kinds.next(), kinds.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            };
        }
        if let ValueType::Clientset {
            root,
            group_version,
            resource,
        } = value
        {
            return self
                .chain_kind(file, dir, root, group_version, resource)
                .ok();
        }
        if let Some((group, version, kind, false)) = self.set_kind(file, value, 0) {
            return Some((group, version, kind));
        }
        if let Some(kind) = self.apply_configuration_kind(file, value, 0) {
            return Some(kind);
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
        // A field of one of several values: that field of each.
        if let Some(each) = field_of_several(value) {
            return self.value_kinds(file, dir, &each);
        }
        // Asserted to an interface: what the value holds.
        if let ValueType::Asserted { ty, value } = value {
            if let Some(kind) = self.type_kind(file, ty) {
                return vec![kind];
            }
            return self.value_kinds(file, dir, value);
        }
        // An element of a slice whose values are known: any of them.
        if let ValueType::Elem(inner) = value
            && let ValueType::Elements { values, .. } = inner.as_ref()
        {
            return self.value_kinds(file, dir, &ValueType::OneOf(values.clone()));
        }
        if let ValueType::OneOf(values) = value {
            let mut kinds: Vec<(String, String, String)> = Vec::new();
            for v in values {
                let found = self.value_kinds(file, dir, v);
                if found.is_empty() {
                    return Vec::new();
                }
                for k in found {
                    if !kinds.contains(&k) {
                        kinds.push(k);
                    }
                }
            }
            return kinds;
        }
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

    /// The kind of an apply configuration made by client-go's constructor of a built-in
    /// kind (`corev1ac.ConfigMap(name, ns)`, of `k8s.io/client-go/applyconfigurations/…`),
    /// through its `With…` builders.
    fn apply_configuration_kind(
        &self,
        file: &GoFile,
        value: &ValueType,
        depth: usize,
    ) -> Option<(String, String, String)> {
        match value {
            ValueType::Configured { base } if depth < MAX_TYPE_DEPTH => {
                self.apply_configuration_kind(file, base, depth + 1)
            }
            ValueType::ForeignResult {
                qualifier,
                name,
                index: 0,
            } => {
                let import = self.index.import_for(file, qualifier)?;
                let rest = import.strip_prefix(CLIENT_GO_APPLY_CONFIGURATIONS)?;
                let (group, version) =
                    kubernetes::go_packages::builtin_group_version(&format!("k8s.io/api/{rest}"))?;
                kubernetes::resources::is_well_known_kind(&group, name)
                    .then(|| (group, version, name.clone()))
            }
            _ => None,
        }
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

    /// The declared type of package-level variable `name` of the package `qualifier` names
    /// in `file` (of `dir`, `file`'s own, when None).
    pub fn package_var(
        &self,
        file: &GoFile,
        dir: &str,
        qualifier: Option<&str>,
        name: &str,
    ) -> Option<(&'a GoFile, TypeRef)> {
        let dir = match qualifier {
            None => dir.to_string(),
            Some(q) => self
                .index
                .dir_of_import(&self.index.import_for(file, q)?)?
                .to_string(),
        };
        self.files_in(&dir).find_map(|input| {
            let (_, t) = input.facts.typed_vars.iter().find(|(n, _)| n == name)?;
            Some((&input.facts, t.clone()))
        })
    }

    /// The package-level variable `name` of package folder `dir` initialized with a struct
    /// literal, with its file.
    fn var_literal(&self, dir: &str, name: &str) -> Option<(&'a GoFile, &'a VarLiteral)> {
        self.files_in(dir).find_map(|input| {
            let f = &input.facts;
            f.var_literals
                .iter()
                .find(|v| v.name == name)
                .map(|v| (f, v))
        })
    }

    /// The declared result of a method of a same-package interface
    /// (`a.GetNetworkingClient()` with `a` a `CertificateAccessor`): every implementer
    /// returns that type.
    fn interface_result(&self, dir: &str, value: &ValueType) -> Option<(&'a GoFile, TypeRef)> {
        let ValueType::Result {
            func:
                FuncRef {
                    receiver: Some(receiver),
                    name,
                },
            index,
        } = value
        else {
            return None;
        };
        self.files_in(dir).find_map(|input| {
            let decl = input
                .facts
                .interfaces
                .iter()
                .find(|i| i.name == *receiver)?;
            let (_, signature) = decl.methods.iter().find(|(m, _)| m == name)?;
            Some((&input.facts, signature.results.get(*index)?.clone()?))
        })
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
            ValueType::Type(t)
            | ValueType::Param { ty: Some(t), .. }
            | ValueType::Elements { ty: t, .. }
            | ValueType::Asserted { ty: t, .. } => Some((file, t.clone())),
            ValueType::Result { .. } | ValueType::ForeignResult { .. } => {
                if let Some((loc, index)) = self.result_function(file, dir, value) {
                    return Some((loc.file, loc.signature().results.get(index)?.clone()?));
                }
                self.interface_result(dir, value)
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
            ValueType::Var(name) => match self.var_literal(dir, name) {
                Some((f, v)) => Some((f, v.ty.clone())),
                None => self.package_var(file, dir, None, name),
            },
            ValueType::Field { base, field } => {
                // A package-level variable's struct literal tells what the field holds.
                if let ValueType::Var(name) = base.as_ref()
                    && let Some((f, v)) = self.var_literal(dir, name)
                    && let Some((_, t)) = v.fields.iter().find(|(n, _)| n == field)
                {
                    return Some((f, t.clone()));
                }
                let (f, t) = self.resolve_type(file, dir, base, depth + 1)?;
                if t.collection {
                    return None;
                }
                // Structs of this repository: the same package, or an in-repo import; a
                // field promoted from an embedded struct too.
                let owner_dir = self.index.package_dir(f, t.qualifier.as_deref());
                if let Some(found) = owner_dir.and_then(|d| self.struct_field(&d, &t.name, field)) {
                    return Some(found);
                }
                if let Some(found) = self.promoted_field(f, &t, field, 0) {
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

    /// A field promoted from the structs a repository struct embeds (`s.Client` of
    /// `struct{ *controller.Context }`): the one found at the shallowest depth; None when
    /// several are (Go rejects that selector).
    fn promoted_field(
        &self,
        file: &'a GoFile,
        t: &TypeRef,
        field: &str,
        depth: usize,
    ) -> Option<(&'a GoFile, TypeRef)> {
        if t.collection || depth >= MAX_EMBED_DEPTH {
            return None;
        }
        let dir = self.index.package_dir(file, t.qualifier.as_deref())?;
        let embedded: Vec<(&'a GoFile, &'a TypeRef)> = self
            .struct_fields(&dir, &t.name)
            .into_iter()
            .filter(|(_, name, _)| name.is_none())
            .map(|(f, _, e)| (f, e))
            .collect();
        let direct: Vec<(&'a GoFile, TypeRef)> = embedded
            .iter()
            .filter_map(|(f, e)| {
                let d = self.index.package_dir(f, e.qualifier.as_deref())?;
                self.struct_field(&d, &e.name, field)
            })
            .collect();
        match direct.len() {
            1 => direct.into_iter().next(),
            0 => {
                let mut deeper = embedded
                    .iter()
                    .filter_map(|(f, e)| self.promoted_field(f, e, field, depth + 1));
                match (deeper.next(), deeper.next()) {
                    (Some(one), None) => Some(one),
                    _ => None,
                }
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

/// `x.f` where `x` is one of several values (branches, or a slice's known elements): those
/// values and `f`.
fn several_bases(value: &ValueType) -> Option<(&[ValueType], &String)> {
    let ValueType::Field { base, field } = value else {
        return None;
    };
    let values = match base.as_ref() {
        ValueType::OneOf(values) => values,
        ValueType::Elem(inner) => match inner.as_ref() {
            ValueType::Elements { values, .. } => values,
            _ => return None,
        },
        _ => return None,
    };
    Some((values, field))
}

/// `x.f` where `x` is one of several values: the field `f` of each.
fn field_of_several(value: &ValueType) -> Option<ValueType> {
    let (values, field) = several_bases(value)?;
    Some(ValueType::OneOf(
        values
            .iter()
            .map(|v| ValueType::Field {
                base: Box::new(v.clone()),
                field: field.clone(),
            })
            .collect(),
    ))
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
            ..
        } => {
            format!("{group_version}().{resource}() is not a known clientset accessor")
        }
        ValueType::ClientsetClient {
            group_version,
            resource,
            ..
        } => format!("{group_version}().{resource}(…) is a typed client, not an object"),
        ValueType::SetKind { .. } => {
            "its GroupVersionKind does not evaluate to a known kind".into()
        }
        ValueType::Configured { .. } => {
            "the `With…` builder chain is not of an apply configuration of a known kind".into()
        }
        ValueType::Elements { .. } => "it is a slice, not an object".into(),
        ValueType::Var(name) => {
            format!("`{name}` is not a package-level variable of a known API type")
        }
        ValueType::Asserted { ty, value } => match value.as_ref() {
            ValueType::Unknown(_) => describe(&ValueType::Type(ty.clone())),
            held => describe(held),
        },
        ValueType::OneOf(values) => format!(
            "it is one of {} values assigned on different branches, not each of a known kind",
            values.len()
        ),
        ValueType::Unknown(expr) => format!("`{expr}` has no declaration the analyzer can follow"),
    }
}

/// client-gen's accessor of a group-version, lower case (`cert-manager.io`, `v1` →
/// `certmanagerv1`).
fn accessor_of(group: &str, version: &str) -> String {
    format!(
        "{}{version}",
        alphanumeric_lower(kubernetes::go_packages::group_go_name(group))
    )
}

/// A group as the diagnostics write it (`core` for the empty one).
fn display_group(group: &str) -> &str {
    if group.is_empty() { "core" } else { group }
}

/// Lower case with everything but ASCII letters and digits removed (`cert-manager` →
/// `certmanager`), as client-gen names a group's accessor.
fn alphanumeric_lower(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// `GatewayV1beta1` → `v1beta1`: the version a group-version accessor names.
fn accessor_version(accessor: &str) -> Option<String> {
    accessor
        .rfind('V')
        .map(|i| accessor[i..].to_ascii_lowercase())
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
