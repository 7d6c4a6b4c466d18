//! Rust operators written with kube-rs, parsed with syn.
//!
//! Per file (in the shared pool): `extract` checks the depth (`syntax::too_deep`), parses
//! with syn, resolves `use` declarations (`uses`) and records raw facts: each function's
//! `Api<K>` writes, watchers, calls, controller chains and routers (`body`, `routes`),
//! custom resources (`crds`), clap structs (`binaries`) and actix handler attributes. Per
//! project, `resolve` maps types to kinds (`kinds`), follows same-crate calls from each
//! controller's reconcile function and each binary's `main` (`graph`), and produces the
//! same model rows the Go analyzer does.

pub mod attrs;
pub mod binaries;
pub mod body;
pub mod connections;
pub mod crds;
pub mod graph;
pub mod kinds;
pub mod metrics;
pub mod names;
pub mod routes;
pub mod syntax;
pub mod uses;

use proc_macro2::TokenStream;
use syn::visit::Visit;
use syn::{ImplItem, Item};

use body::{BodyVisitor, FnFacts};
use model::{
    Area, Binary, Controller, Crd, Diagnostic, HttpEndpoint, Metric, PackageInformer,
    PackageOperation,
};

/// What one `.rs` file yielded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RustFile {
    pub path: String,
    pub area: Area,
    pub functions: Vec<FnFacts>,
    /// Index into `functions` of a top-level `fn main`.
    pub main: Option<usize>,
    pub crds: Vec<crds::CodeCrd>,
    pub clap: Vec<binaries::ClapStruct>,
    /// actix-web handler attributes: (function name, route).
    pub actix: Vec<(String, routes::RawRoute)>,
    /// The same, on test-only functions (listed as samples).
    pub test_actix: Vec<(String, routes::RawRoute)>,
    /// Out-of-line modules declared test-only (`#[cfg(test)] mod tests;`), by their path
    /// from this file's module: their files are samples.
    pub test_modules: Vec<Vec<String>>,
    pub metrics: metrics::MetricFacts,
    pub diagnostics: Vec<Diagnostic>,
    /// Its `use` declarations as written, and the items it declares (inline module, name,
    /// whether the item is a module): what `names` resolves across the crate's modules.
    pub imports: Vec<uses::Import>,
    pub items: Vec<(Vec<String>, String, bool)>,
    /// The text, kept for the files `names` finds more of their names for: they are read
    /// again with them (`extract_with`).
    pub source: Option<String>,
}

/// A `Cargo.toml` with a `[package]`: the crate's folder and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CargoPackage {
    pub dir: String,
    pub name: String,
    /// `[[bin]]` targets with both `name` and `path`: (name, path relative to the
    /// repository, line of the `[[bin]]` header).
    pub bins: Vec<(String, String, u32)>,
}

/// Reads the package name of a `Cargo.toml` (a workspace-only manifest has none).
pub fn cargo_package(path: &str, text: &str) -> Option<CargoPackage> {
    let value: toml::Table = toml::from_str(text).ok()?;
    let name = value.get("package")?.get("name")?.as_str()?.to_string();
    let dir = path
        .rsplit_once('/')
        .map(|(d, _)| d.to_string())
        .unwrap_or_default();
    // The lines of the `[[bin]]` headers, in order: the n-th table is the n-th header.
    let headers: Vec<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim().starts_with("[[bin]]"))
        .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX))
        .collect();
    let mut bins = Vec::new();
    if let Some(list) = value.get("bin").and_then(|b| b.as_array()) {
        for (i, b) in list.iter().enumerate() {
            let (Some(n), Some(p)) = (
                b.get("name").and_then(|v| v.as_str()),
                b.get("path").and_then(|v| v.as_str()),
            ) else {
                continue;
            };
            let p = p.trim_start_matches("./");
            let full = if dir.is_empty() {
                p.to_string()
            } else {
                format!("{dir}/{p}")
            };
            bins.push((n.to_string(), full, headers.get(i).copied().unwrap_or(0)));
        }
    }
    Some(CargoPackage { dir, name, bins })
}

/// Parses one Rust file and records its facts. Never fails: a file that cannot be lexed,
/// nests too deep or does not parse gives a diagnostic and no facts.
pub fn extract(path: &str, text: &str, area: Area) -> RustFile {
    extract_with(path, text, area, &names::FileNames::default())
}

/// `extract`, with names that crate-level resolution found for the file (`names`).
pub fn extract_with(path: &str, text: &str, area: Area, found: &names::FileNames) -> RustFile {
    let mut file = RustFile {
        path: path.to_string(),
        area,
        ..RustFile::default()
    };
    let tokens: TokenStream = match text.parse() {
        Ok(t) => t,
        Err(e) => {
            let line = syntax::line(e.span());
            file.diagnostics.push(Diagnostic::new(
                path,
                line,
                format!("Rust file not analyzed: {e}"),
            ));
            return file;
        }
    };
    if let Some(refused) = syntax::too_deep(tokens) {
        file.diagnostics
            .push(Diagnostic::new(path, refused.line(), refused.message()));
        return file;
    }
    let ast = match syn::parse_file(text) {
        Ok(f) => f,
        Err(e) => {
            let line = syntax::line(e.span());
            file.diagnostics.push(Diagnostic::new(
                path,
                line,
                format!("Rust syntax error: {e}"),
            ));
            return file;
        }
    };
    file.imports = uses::imports_of(&ast.items);
    let mut uses = uses::Uses::of_imports(&file.imports);
    uses.add_resolved(&found.names, &found.globs);
    if !file.imports.is_empty() {
        file.source = Some(text.to_string());
    }
    // Items of inline modules count as the file's own, gathered with an explicit stack with
    // their module path and whether they only exist in tests (`#[cfg(test)]`, `#[test]`).
    let mut items: Vec<(&Item, Vec<String>, bool)> = Vec::new();
    let mut pending: Vec<(&[Item], Vec<String>, bool)> = vec![(&ast.items, Vec::new(), false)];
    while let Some((list, module, test)) = pending.pop() {
        for item in list {
            let test = test || attrs::only_in_tests(item_attrs(item));
            if let Item::Mod(m) = item {
                let mut inner_module = module.clone();
                inner_module.push(m.ident.to_string());
                match &m.content {
                    Some((_, inner)) => pending.push((inner, inner_module, test)),
                    None if test => file.test_modules.push(inner_module),
                    None => {}
                }
            }
            if let Some(name) = item_name(item) {
                file.items
                    .push((module.clone(), name, matches!(item, Item::Mod(_))));
            }
            items.push((item, module.clone(), test));
        }
    }
    let sample = |test: bool| if test { Area::Samples } else { area };
    for (item, module, test) in &items {
        match item {
            Item::Fn(f) => {
                if f.sig.ident == "main" && ast.items.iter().any(|i| std::ptr::eq(i, *item)) {
                    file.main = Some(file.functions.len());
                }
                let mut facts = function(&uses, &f.sig, &f.block);
                facts.module = module.clone();
                facts.area = sample(*test);
                file.functions.push(facts);
            }
            Item::Impl(i) => {
                let owner = syntax::type_name(&i.self_ty);
                for ii in &i.items {
                    if let ImplItem::Fn(f) = ii {
                        let mut facts = function(&uses, &f.sig, &f.block);
                        facts.module = module.clone();
                        facts.owner = owner.clone();
                        facts.area = sample(*test || attrs::only_in_tests(&f.attrs));
                        file.functions.push(facts);
                    }
                }
            }
            _ => {}
        }
    }
    // Custom resources, clap structs and actix handlers of test-only items are samples.
    for test in [false, true] {
        let owned: Vec<Item> = items
            .iter()
            .filter(|(_, _, t)| *t == test)
            .map(|(i, _, _)| (*i).clone())
            .collect();
        file.crds.extend(crds::extract(
            path,
            &owned,
            &uses,
            sample(test),
            crds::is_kopium(text),
            &mut file.diagnostics,
        ));
        if test {
            file.test_actix = routes::actix_attributes(&owned, &uses);
        } else {
            // A clap struct of a test is no binary's flag.
            file.clap = binaries::extract(path, &owned, &uses);
            file.actix = routes::actix_attributes(&owned, &uses);
        }
    }
    let product: Vec<&Item> = items
        .iter()
        .filter(|(_, _, t)| !*t)
        .map(|(i, _, _)| *i)
        .collect();
    file.metrics = metrics::extract(path, &product, &uses, area);
    file
}

/// The name an item declares in its module's namespace (`use` and `impl` declare none
/// of their own here).
fn item_name(item: &Item) -> Option<String> {
    Some(
        match item {
            Item::Fn(f) => &f.sig.ident,
            Item::Struct(s) => &s.ident,
            Item::Enum(e) => &e.ident,
            Item::Type(t) => &t.ident,
            Item::Trait(t) => &t.ident,
            Item::Const(c) => &c.ident,
            Item::Static(s) => &s.ident,
            Item::Mod(m) => &m.ident,
            Item::Union(u) => &u.ident,
            _ => return None,
        }
        .to_string(),
    )
}

/// The attributes of an item that can carry `#[cfg(test)]` or `#[test]`.
fn item_attrs(item: &Item) -> &[syn::Attribute] {
    match item {
        Item::Fn(f) => &f.attrs,
        Item::Mod(m) => &m.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Struct(s) => &s.attrs,
        Item::Enum(e) => &e.attrs,
        Item::Use(u) => &u.attrs,
        _ => &[],
    }
}

fn function(uses: &uses::Uses, sig: &syn::Signature, block: &syn::Block) -> FnFacts {
    let mut v = BodyVisitor::new(
        uses,
        sig.ident.to_string(),
        syntax::line(sig.ident.span()),
        Some(sig),
    );
    v.visit_block(block);
    v.facts
}

/// Everything Rust analysis found in one project.
#[derive(Debug, Default)]
pub struct RustFindings {
    pub controllers: Vec<Controller>,
    /// Custom resources defined in code (merged into manifest CRDs by `merge_crds`).
    pub crds: Vec<Crd>,
    pub package_operations: Vec<PackageOperation>,
    /// Reads of functions no controller reaches, by package.
    pub package_reads: Vec<PackageOperation>,
    pub informers: Vec<PackageInformer>,
    pub http_endpoints: Vec<HttpEndpoint>,
    pub binaries: Vec<Binary>,
    pub metrics: Vec<Metric>,
    pub connections: Vec<model::ExternalConnection>,
}

pub use graph::resolve;

/// Joins custom resources defined in code with the CRD manifests of the same group and
/// kind: one row with both sources (the manifest's schema is kept when it has one).
pub fn merge_crds(manifests: &mut Vec<Crd>, code: Vec<Crd>) {
    for c in code {
        match manifests
            .iter_mut()
            .find(|m| m.group == c.group && m.kind == c.kind)
        {
            Some(m) => {
                m.sources.extend(c.sources);
                m.sources.sort();
                m.sources.dedup();
                m.bundled = m.bundled && c.bundled;
                for v in c.versions {
                    if !m.versions.iter().any(|x| x.name == v.name) {
                        m.versions.push(v);
                    }
                }
                for s in c.schema {
                    if !m.schema.iter().any(|x| x.version == s.version) {
                        m.schema.push(s);
                    }
                }
                if m.plural.is_empty() {
                    m.plural = c.plural;
                }
            }
            None => manifests.push(c),
        }
    }
}

#[cfg(test)]
mod tests;
