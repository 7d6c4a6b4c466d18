//! Webhooks built in Go code: `ctrl.NewWebhookManagedBy(mgr).For(&T{})` (also
//! `builder.WebhookManagedBy(mgr)`, and the generic `NewWebhookManagedBy(mgr, &T{})` of newer
//! controller-runtime releases), with `WithDefaulter`/`WithCustomDefaulter`,
//! `WithValidator`/`WithCustomValidator`, `WithConverter` and the custom-path options; chains
//! may be split over statements through a variable, as controller chains are.
//!
//! Each builder becomes the rows controller-runtime registers on the webhook server (origin
//! `code`), with the paths its builder generates: `/mutate-<group, dots as dashes>-<version>-
//! <lowercase kind>` for a defaulter, `/validate-…` for a validator, and `/convert` when the
//! kind converts between versions (the builder has `WithConverter`, or the repository has a
//! `Hub()` version of the kind and another version with `ConvertTo(…)`: controller-runtime
//! serves conversion only for a kind with a hub and more than one version). Before controller-runtime v0.20 a `For` type that
//! implements `Default()` or `ValidateCreate()` itself (the legacy `webhook.Defaulter` and
//! `webhook.Validator`) is served too; the version is read from the nearest `go.mod`.
//! The kind comes from `GoIndex::resolve_object`; an unresolved kind gives no row (its paths
//! would be guesses) but a diagnostic.
//!
//! The `For` of a webhook builder is never a watch: `controllers.rs` starts chains only at
//! controller constructors.

use super::syntax::FIELD;
use super::syntax::KindName;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::consts::const_expr;
use super::facts::GoFile;
use super::facts::webhooks::{MethodDecl, PathArg, WebhookBuilder};
use super::index::{GoIndex, GoInput, GoModule, dir_of};
use super::scope::Scope;
use super::syntax::{
    ChainRoot, FuncCtx, ObjectRef, assigned_variable, chain_heads, flatten_chain, text,
    with_arguments,
};
use model::{Diagnostic, Gvk, Origin, SourceRef, UNRESOLVED, Webhook, WebhookType};

const CONSTRUCTORS: [&str; 2] = ["NewWebhookManagedBy", "WebhookManagedBy"];
const METHODS: [&str; 4] = ["Default", "ValidateCreate", "Hub", "ConvertTo"];

/// Records the webhook builders of one function, and the function itself when it is one of
/// the methods that matter here.
pub fn extract(ctx: &FuncCtx, scope: &Scope, src: &[u8], file: &mut GoFile) {
    if let (Some(receiver), true) = (&ctx.receiver_type, METHODS.contains(&ctx.name.as_str())) {
        let params = ctx
            .body
            .parent()
            .and_then(|decl| decl.child_by_field_id(FIELD.parameters))
            .map(|p| {
                let mut c = p.walk();
                p.named_children(&mut c)
                    .filter(|n| n.kind_name().ends_with("parameter_declaration"))
                    .count()
            })
            .unwrap_or(0);
        file.webhook_methods.push(MethodDecl {
            receiver: receiver.clone(),
            name: ctx.name.clone(),
            params,
        });
    }
    if !text(ctx.body, src).contains("WebhookManagedBy") {
        return;
    }
    let found = builders_in_body(ctx, scope, src, &file.path, &mut file.diagnostics);
    file.webhook_builders.extend(found);
}

fn builders_in_body(
    ctx: &FuncCtx,
    scope: &Scope,
    src: &[u8],
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<WebhookBuilder> {
    let mut builders: Vec<WebhookBuilder> = Vec::new();
    let mut variables: Vec<(String, usize)> = Vec::new();
    let calls = chain_heads(&ctx.calls);
    let object = |node: Node, line: u32, diagnostics: &mut Vec<Diagnostic>| {
        checked_object(node, scope, src, path, line, diagnostics)
    };
    for call in calls {
        let (root, mut steps) = flatten_chain(call, src, &CONSTRUCTORS);
        let index = match root {
            ChainRoot::Constructor(args, line) => {
                let mut builder = WebhookBuilder {
                    line,
                    ..WebhookBuilder::default()
                };
                // The generic form takes the object as its second argument.
                if let Some(obj) = args.get(1) {
                    builder.object = Some((object(*obj, line, diagnostics), line));
                }
                builders.push(builder);
                builders.len() - 1
            }
            ChainRoot::Variable(name) => match variables.iter().rev().find(|(v, _)| *v == name) {
                Some((_, i)) => *i,
                None => continue,
            },
            ChainRoot::Other => continue,
        };
        with_arguments(&mut steps);
        let Some(builder) = builders.get_mut(index) else {
            continue;
        };
        for step in &steps {
            let first = step.args.first().copied();
            match step.method.as_str() {
                "For" => {
                    if let Some(arg) = first {
                        builder.object = Some((object(arg, step.line, diagnostics), step.line));
                    }
                }
                "WithDefaulter" | "WithCustomDefaulter" => builder.defaulter = Some(step.line),
                "WithValidator" | "WithCustomValidator" => builder.validator = Some(step.line),
                "WithConverter" => builder.converter = Some(step.line),
                "WithCustomPath" => {
                    builder.custom_path = first.map(|a| path_arg(a, src, step.line))
                }
                "WithDefaulterCustomPath" => {
                    builder.defaulter_path = first.map(|a| path_arg(a, src, step.line))
                }
                "WithValidatorCustomPath" => {
                    builder.validator_path = first.map(|a| path_arg(a, src, step.line))
                }
                _ => {}
            }
        }
        if let Some(var) = assigned_variable(call, src) {
            variables.push((var, index));
        }
    }
    builders
}

/// The type of a webhook's object (`Scope::object_of`: a literal, the method's receiver
/// as in `func (r *Widget) SetupWebhookWithManager(…)` passing `r`, or a typed local), with
/// a diagnostic when it is none of these.
fn checked_object(
    node: Node,
    scope: &Scope,
    src: &[u8],
    path: &str,
    line: u32,
    diagnostics: &mut Vec<Diagnostic>,
) -> ObjectRef {
    let object = scope.object_of(node, src, false);
    if let ObjectRef::Unknown(expr) = &object {
        diagnostics.push(Diagnostic::new(
            path,
            line,
            format!("cannot tell which kind this webhook serves: `{expr}` is not a type literal, so its paths are unknown"),
        ));
    }
    object
}

fn path_arg(node: Node, src: &[u8], line: u32) -> PathArg {
    PathArg {
        expr: const_expr(node, src),
        text: text(node, src).to_string(),
        line,
    }
}

// ---- per project ---------------------------------------------------------------------

/// The `controller-runtime` version a go.mod requires (a `replace` to another version
/// wins; a `replace` to a local folder makes it unknown).
pub fn controller_runtime_version(go_mod: &str) -> Option<String> {
    const MODULE: &str = "sigs.k8s.io/controller-runtime";
    let mut required = None;
    let mut replaced: Option<Option<String>> = None;
    let mut block = "";
    for raw in go_mod.lines() {
        let line = raw.split("//").next().unwrap_or("").trim();
        if line == ")" {
            block = "";
            continue;
        }
        let (directive, body) = match line.split_once(char::is_whitespace) {
            Some((d @ ("require" | "replace"), rest)) => {
                let rest = rest.trim();
                if rest == "(" {
                    block = d;
                    continue;
                }
                (d, rest)
            }
            _ if !block.is_empty() => (block, line),
            _ => continue,
        };
        match directive {
            "require" => {
                let mut words = body.split_whitespace();
                if words.next() == Some(MODULE) {
                    required = words.next().map(str::to_string);
                }
            }
            "replace" => {
                let Some((old, new)) = body.split_once("=>") else {
                    continue;
                };
                if old.split_whitespace().next() != Some(MODULE) {
                    continue;
                }
                let new: Vec<&str> = new.split_whitespace().collect();
                replaced = Some(match new.as_slice() {
                    [_, version] => Some(version.to_string()),
                    _ => None,
                });
            }
            _ => {}
        }
    }
    match replaced {
        Some(v) => v,
        None => required,
    }
}

/// True when controller-runtime `version` still serves the legacy `webhook.Defaulter` and
/// `webhook.Validator` implemented by the API type itself (removed in v0.20).
fn serves_legacy(version: &str) -> Option<bool> {
    let mut parts = version.trim_start_matches('v').split('.');
    let major: u32 = parts.next()?.parse().ok()?;
    let minor: u32 = parts.next()?.parse().ok()?;
    Some(major == 0 && minor < 20)
}

fn module_for<'m>(path: &str, modules: &'m [GoModule]) -> Option<&'m GoModule> {
    let dir = dir_of(path);
    modules
        .iter()
        .filter(|m| m.dir.is_empty() || dir == m.dir || dir.starts_with(&format!("{}/", m.dir)))
        .max_by_key(|m| m.dir.len())
}

/// The path controller-runtime generates for a defaulting or validating webhook of a kind.
pub fn generated_path(kind: WebhookType, gvk: &Gvk) -> String {
    let prefix = match kind {
        WebhookType::Mutating => "/mutate-",
        WebhookType::Validating => "/validate-",
        WebhookType::Conversion => return "/convert".into(),
    };
    format!(
        "{prefix}{}-{}-{}",
        gvk.group.replace('.', "-"),
        gvk.version,
        gvk.kind.to_lowercase()
    )
}

/// Resolves every webhook builder of the project to the webhook rows it registers.
pub fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    modules: &[GoModule],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Webhook> {
    let resolver = Resolver {
        index,
        modules,
        types: TypeMethods::of(files, index),
    };
    let mut out = Vec::new();
    for input in files {
        for b in &input.facts.webhook_builders {
            resolver.builder(input, b, diagnostics, &mut out);
        }
    }
    out
}

/// The project's methods that decide what a webhook builder serves, by type.
#[derive(Default)]
struct TypeMethods<'a> {
    /// (package import path, type) → its methods that matter here.
    methods: HashMap<(String, String), Vec<&'a MethodDecl>>,
    /// (group, kind) of every in-repo type with a conversion `Hub()`, and of every one with
    /// `ConvertTo(…)` (a spoke, which converts to and from the hub).
    hubs: HashSet<(String, String)>,
    spokes: HashSet<(String, String)>,
}

impl<'a> TypeMethods<'a> {
    fn of(files: &'a [GoInput], index: &GoIndex) -> Self {
        let mut types = TypeMethods::default();
        let TypeMethods {
            methods,
            hubs,
            spokes,
        } = &mut types;
        for input in files {
            let Some(package) = index.package_of(&input.facts) else {
                continue;
            };
            for m in &input.facts.webhook_methods {
                methods
                    .entry((package.to_string(), m.receiver.clone()))
                    .or_default()
                    .push(m);
                let Some((group, _)) = index.group_version(package) else {
                    continue;
                };
                match (m.name.as_str(), m.params) {
                    ("Hub", 0) => {
                        hubs.insert((group, m.receiver.clone()));
                    }
                    ("ConvertTo", 1) => {
                        spokes.insert((group, m.receiver.clone()));
                    }
                    _ => {}
                }
            }
        }
        types
    }

    /// True when the group's kind has a hub version and a spoke version, so
    /// controller-runtime serves conversion for it.
    fn converts(&self, gvk: &Gvk) -> bool {
        let group_kind = (gvk.group.clone(), gvk.kind.clone());
        self.hubs.contains(&group_kind) && self.spokes.contains(&group_kind)
    }
}

/// What resolving a webhook builder needs from the project.
struct Resolver<'a> {
    index: &'a GoIndex<'a>,
    modules: &'a [GoModule],
    types: TypeMethods<'a>,
}

impl Resolver<'_> {
    /// The rows one webhook builder registers, into `out`.
    fn builder(
        &self,
        input: &GoInput,
        b: &WebhookBuilder,
        diagnostics: &mut Vec<Diagnostic>,
        out: &mut Vec<Webhook>,
    ) {
        let (index, file) = (self.index, &input.facts);
        let Some((object, object_line)) = &b.object else {
            diagnostics.push(Diagnostic::new(
                &file.path,
                b.line,
                "webhook builder without For(…): which kind it serves is unknown, so its paths are not listed",
            ));
            return;
        };
        let ObjectRef::Type { qualifier, name } = object else {
            // Reported when the builder was recorded.
            return;
        };
        let k = index.resolve_object(file, object, *object_line, diagnostics);
        if k.group == UNRESOLVED {
            diagnostics.push(Diagnostic::new(
                &file.path,
                *object_line,
                format!("the paths of the webhooks served for {name} are unknown because its API group is unresolved"),
            ));
            return;
        }
        let gvk = Gvk {
            group: k.group,
            version: k.version,
            kind: k.kind,
        };
        let type_methods = index
            .type_package(file, qualifier.as_deref())
            .and_then(|p| self.types.methods.get(&(p, name.clone())));
        let legacy = |method: &str| {
            type_methods.is_some_and(|ms| ms.iter().any(|m| m.name == method && m.params == 0))
        };
        let mut rows = Vec::new();
        for (kind, with, own_path, method, interface) in [
            (
                WebhookType::Mutating,
                b.defaulter,
                &b.defaulter_path,
                "Default",
                "webhook.Defaulter",
            ),
            (
                WebhookType::Validating,
                b.validator,
                &b.validator_path,
                "ValidateCreate",
                "webhook.Validator",
            ),
        ] {
            let line = match with {
                Some(line) => line,
                None if legacy(method) => {
                    let served = Legacy {
                        file,
                        name,
                        line: *object_line,
                        kind,
                        method,
                        interface,
                    };
                    match self.legacy_line(&served, diagnostics) {
                        Some(line) => line,
                        None => continue,
                    }
                }
                None => continue,
            };
            let path = self.path(
                file,
                kind,
                &gvk,
                own_path.as_ref().or(b.custom_path.as_ref()),
                diagnostics,
            );
            rows.push((kind, path, line));
        }
        if let Some(line) = b
            .converter
            .or(self.types.converts(&gvk).then_some(*object_line))
        {
            rows.push((WebhookType::Conversion, "/convert".into(), line));
        }
        if rows.is_empty() {
            diagnostics.push(Diagnostic::new(
                &file.path,
                b.line,
                format!(
                    "this webhook builder for {} registers no webhook: it has no defaulter or validator, and the kind has no conversion between versions (a Hub() version and a ConvertTo() version)",
                    gvk.display()
                ),
            ));
        }
        for (kind, path, line) in rows {
            out.push(Webhook {
                name: String::new(),
                kind,
                path,
                // The failure policy and the Service are set by the webhook
                // configuration, not by the code that serves the webhook.
                failure_policy: String::new(),
                service: String::new(),
                configuration: String::new(),
                resolved_service: String::new(),
                substitutions: Vec::new(),
                templated: false,
                bundled: false,
                origin: Origin::Code,
                object: Some(gvk.clone()),
                rules: Vec::new(),
                area: input.area,
                sources: vec![SourceRef::new(&file.path, line)],
            });
        }
    }

    /// The line a legacy webhook (`Default()`, `ValidateCreate()` on the type) is served
    /// at, when the project's controller-runtime still serves it; else a diagnostic.
    fn legacy_line(&self, served: &Legacy, diagnostics: &mut Vec<Diagnostic>) -> Option<u32> {
        let Legacy {
            file,
            name,
            line,
            kind,
            method,
            interface,
        } = *served;
        let version =
            module_for(&file.path, self.modules).and_then(|m| m.controller_runtime.clone());
        match version.as_deref().and_then(serves_legacy) {
            Some(true) => Some(line),
            Some(false) => {
                diagnostics.push(Diagnostic::new(
                    &file.path,
                    line,
                    format!(
                        "{name} implements the legacy {interface} ({method}() on the type), which controller-runtime {} no longer serves; no {} webhook is listed",
                        version.as_deref().unwrap_or(""),
                        kind.label()
                    ),
                ));
                None
            }
            None => {
                diagnostics.push(Diagnostic::new(
                    &file.path,
                    line,
                    format!(
                        "{name} implements the legacy {interface}, served only before controller-runtime v0.20, and the controller-runtime version is not known from go.mod; no {} webhook is listed",
                        kind.label()
                    ),
                ));
                None
            }
        }
    }

    /// A served webhook's path: its custom path (evaluated), else the generated one.
    fn path(
        &self,
        file: &GoFile,
        kind: WebhookType,
        gvk: &Gvk,
        custom: Option<&PathArg>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> String {
        match custom {
            None => generated_path(kind, gvk),
            Some(arg) => match arg.expr.as_ref().and_then(|e| self.index.eval(file, e)) {
                Some(p) => p,
                None => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        arg.line,
                        format!(
                            "custom webhook path `{}` is not a string constant; the path is shown as {UNRESOLVED}",
                            arg.text
                        ),
                    ));
                    UNRESOLVED.to_string()
                }
            },
        }
    }
}

/// A builder's type that implements a legacy webhook interface.
#[derive(Clone, Copy)]
struct Legacy<'a> {
    file: &'a GoFile,
    name: &'a str,
    line: u32,
    kind: WebhookType,
    method: &'a str,
    interface: &'a str,
}

#[cfg(test)]
mod tests;
