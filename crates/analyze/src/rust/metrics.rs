//! Prometheus metrics in Rust: the `prometheus_client` crate (`registry.register(name, help,
//! metric)`, `register_with_unit`, sub-registries) and the `prometheus` crate
//! (`register_int_counter!(…)` and the other `register_*!` macros, `IntCounterVec::new(
//! Opts::new(…), &[…])` and the other constructors).
//!
//! prometheus_client: a metric's name is the registry's prefix (`Registry::with_prefix`,
//! each `sub_registry_with_prefix` adding `_part`), the registered name, the unit, and for
//! counters `_total`, as the crate's encoder writes the sample. Its type is read from the
//! registered value: a constructor (`Counter::default()`, `Family::<L, Histogram>::new_with_
//! constructor(…)`), a local made by one or declared with its type, or a struct field whose
//! type says it (every field of that name in the project must agree). A `Family`'s labels
//! are the fields of its label struct (`#[derive(EncodeLabelSet)]`, in the project). A
//! registry passed in as a parameter gets its prefix from the call sites that pass one
//! (`T::register(reg.sub_registry_with_prefix("p"))`, followed up to `MAX_CALLERS` levels;
//! each call site is one metric), matched to the function by name, `impl` type and module
//! path. Whatever cannot be established is `?` with a diagnostic.
//!
//! prometheus: names are `namespace_subsystem_name` joined as the crate's `Opts` does, with
//! no suffix added. Macros are read wherever they are, inside `lazy_static!` too (their
//! tokens are searched, after the same nesting guard as files: `syntax::too_deep`).

use std::collections::BTreeMap;

use proc_macro2::{TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Expr, FnArg, GenericArgument, ImplItem, Item, Pat, PathArguments, Token, Type};

use super::attrs;
use super::syntax::{line, str_lit, text, too_deep};
use super::uses::{Uses, segments};
use model::{Area, Diagnostic, Metric, SourceRef, UNRESOLVED};

/// How many levels of callers a registry parameter is followed through.
const MAX_CALLERS: usize = 4;
/// The most metrics one registration may become (one per chain of call sites).
const MAX_CHAINS: usize = 64;
/// How many local bindings an expression is followed through.
const MAX_HOPS: usize = 8;

/// Where a registry comes from, and the prefixes added to it since.
#[derive(Debug, Clone, PartialEq)]
pub struct RegRef {
    pub base: RegBase,
    pub prefixes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RegBase {
    /// `Registry::default()`, `Registry::with_prefix("p")` (its prefix is in `prefixes`).
    Root,
    /// The function's registry parameter with this index (receiver not counted).
    Param(usize),
    /// Something not followed (a field, a function result): its source text.
    Unknown(String),
}

/// What type a registered metric is.
#[derive(Debug, Clone, PartialEq)]
pub enum RawType {
    Known {
        kind: &'static str,
        /// The label struct of a `Family`, or why its labels are not known.
        labels: Option<Result<String, String>>,
    },
    /// `x.field`: read from the struct fields of that name.
    Field(String),
    Unknown(String),
}

/// One `register` / `register_with_unit` call of prometheus_client.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRegistration {
    pub function: usize,
    pub line: u32,
    /// The name, or its source text when it is not a string literal.
    pub name: Result<String, String>,
    pub help: Result<String, String>,
    pub unit: Option<Result<String, String>>,
    pub registry: RegRef,
    pub metric: RawType,
}

/// A call that passes a registry on: `T::register(reg.sub_registry_with_prefix("p"))`.
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryCall {
    pub function: usize,
    pub line: u32,
    pub callee: FnKey,
    /// Module path segments written before the callee (`grpc::metrics::T::f` → grpc, metrics).
    pub modules: Vec<String>,
    pub arg: usize,
    pub registry: RegRef,
}

/// A metric a custom collector describes: `encoder.encode_descriptor(name, help, unit,
/// MetricType::Gauge)` in `impl Collector for T`.
#[derive(Debug, Clone, PartialEq)]
pub struct RawDescriptor {
    /// The collector type `T`.
    pub owner: String,
    pub line: u32,
    pub name: Result<String, String>,
    pub help: Result<String, String>,
    pub unit: Option<Result<String, String>>,
    pub kind: Result<&'static str, String>,
    /// The local the descriptor's encoder is kept in, for its `encode_family(&labels)`.
    pub var: Option<String>,
    /// Label names from `encode_family`: `None` when it is never called (no labels),
    /// `Some(Err(_))` when its labels cannot be read.
    pub labels: Option<Result<Vec<String>, String>>,
}

/// `reg.register_collector(Box::new(T(…)))`: the collector type registered on a registry.
#[derive(Debug, Clone, PartialEq)]
pub struct RawCollector {
    pub function: usize,
    pub line: u32,
    pub registry: RegRef,
    pub collector: Result<String, String>,
}

/// A function by its `impl` type (if a method or associated function) and name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FnKey {
    pub owner: Option<String>,
    pub name: String,
}

/// What one file contributes to metrics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricFacts {
    pub functions: Vec<FnKey>,
    pub registrations: Vec<RawRegistration>,
    pub calls: Vec<RegistryCall>,
    /// `#[derive(EncodeLabelSet)]` structs: name and field names (`None`: a field is
    /// flattened or the struct is not a plain one).
    pub label_sets: Vec<(String, Option<Vec<String>>)>,
    /// (field name, type) of struct fields of a metric type.
    pub fields: Vec<(String, RawType)>,
    /// Metrics of the `prometheus` crate, complete per file.
    pub classic: Vec<Metric>,
    /// `encoder.encode_descriptor(…)` in `impl Collector for T`.
    pub descriptors: Vec<RawDescriptor>,
    /// `reg.register_collector(Box::new(T(…)))`.
    pub collectors: Vec<RawCollector>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Records the metrics facts of one parsed file.
pub fn extract(path: &str, items: &[&Item], uses: &Uses, area: Area) -> MetricFacts {
    let client = uses.uses_crate(&["prometheus_client"]);
    let classic = uses.uses_crate(&["prometheus"]);
    let mut facts = MetricFacts::default();
    if !client && !classic {
        return facts;
    }
    let mut v = Visitor {
        path,
        uses,
        area,
        client,
        classic,
        facts: &mut facts,
        function: 0,
        params: Vec::new(),
        locals: Vec::new(),
        collector: None,
    };
    for item in items {
        match item {
            Item::Fn(f) => v.function(None, &f.sig, |v| v.visit_block(&f.block)),
            Item::Impl(i) => {
                let owner = match &*i.self_ty {
                    Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                    _ => None,
                };
                let collector = i.trait_.as_ref().is_some_and(|(_, t, _)| {
                    t.segments.last().is_some_and(|s| s.ident == "Collector")
                });
                v.collector = owner.clone().filter(|_| collector && client);
                for ii in &i.items {
                    match ii {
                        ImplItem::Fn(f) => {
                            v.function(owner.clone(), &f.sig, |v| v.visit_block(&f.block))
                        }
                        ImplItem::Macro(m) => v.visit_macro(&m.mac),
                        _ => {}
                    }
                }
                v.collector = None;
            }
            Item::Struct(s) => v.structure(s),
            Item::Static(s) => v.top_level(|v| v.visit_expr(&s.expr)),
            Item::Const(c) => v.top_level(|v| v.visit_expr(&c.expr)),
            Item::Macro(m) => v.top_level(|v| v.visit_macro(&m.mac)),
            _ => {}
        }
    }
    facts
}

struct Visitor<'a, 'ast> {
    path: &'a str,
    uses: &'a Uses,
    area: Area,
    client: bool,
    classic: bool,
    facts: &'a mut MetricFacts,
    function: usize,
    /// Parameter names, with whether each is a registry.
    params: Vec<(String, bool)>,
    /// Local bindings in source order: name, declared type, value.
    locals: Vec<(String, Option<&'ast Type>, Option<&'ast Expr>)>,
    /// The type whose `impl Collector` is being read.
    collector: Option<String>,
}

impl<'a, 'ast> Visitor<'a, 'ast> {
    fn function(
        &mut self,
        owner: Option<String>,
        sig: &'ast syn::Signature,
        body: impl FnOnce(&mut Self),
    ) {
        self.function = self.facts.functions.len();
        self.facts.functions.push(FnKey {
            owner,
            name: sig.ident.to_string(),
        });
        self.params = sig
            .inputs
            .iter()
            .filter_map(|i| match i {
                FnArg::Typed(t) => Some((
                    match &*t.pat {
                        Pat::Ident(id) => id.ident.to_string(),
                        _ => String::new(),
                    },
                    is_registry_type(&t.ty),
                )),
                FnArg::Receiver(_) => None,
            })
            .collect();
        self.locals.clear();
        body(self);
    }

    fn top_level(&mut self, body: impl FnOnce(&mut Self)) {
        self.function = self.facts.functions.len();
        self.facts.functions.push(FnKey {
            owner: None,
            name: String::new(),
        });
        self.params.clear();
        self.locals.clear();
        body(self);
    }

    fn structure(&mut self, s: &syn::ItemStruct) {
        if self.client {
            for f in &s.fields {
                if let Some(name) = &f.ident
                    && let Some(t) = type_of_type(&f.ty)
                {
                    self.facts.fields.push((name.to_string(), t));
                }
            }
            if attrs::derives(
                &s.attrs,
                "EncodeLabelSet",
                &["prometheus_client"],
                self.uses,
            ) {
                let names: Option<Vec<String>> = match &s.fields {
                    syn::Fields::Named(n) => n
                        .named
                        .iter()
                        .map(|f| {
                            let flattened = f.attrs.iter().any(|a| {
                                a.path().is_ident("prometheus") && text(&a.meta).contains("flatten")
                            });
                            (!flattened).then(|| f.ident.as_ref().map(|i| i.to_string()))?
                        })
                        .collect(),
                    _ => None,
                };
                self.facts.label_sets.push((s.ident.to_string(), names));
            }
        }
    }

    /// The value a local name was last given (or its declared type), following names.
    fn origin(&self, mut e: &'ast Expr) -> (&'ast Expr, Option<&'ast Type>) {
        for _ in 0..MAX_HOPS {
            let Expr::Path(p) = peel(e) else {
                break;
            };
            let Some(id) = p.path.get_ident() else {
                break;
            };
            let Some((_, ty, value)) = self.locals.iter().rev().find(|(n, _, _)| id == n) else {
                break;
            };
            match value {
                Some(v) if ty.is_none() => e = v,
                _ => return (e, *ty),
            }
        }
        (e, None)
    }

    fn registry(&self, e: &'ast Expr) -> RegRef {
        let mut prefixes = Vec::new();
        let mut e = e;
        for _ in 0..MAX_HOPS * 4 {
            let (o, ty) = self.origin(e);
            if ty.is_some_and(is_registry_type) {
                return RegRef {
                    base: RegBase::Unknown(text(o)),
                    prefixes,
                };
            }
            match peel(o) {
                Expr::MethodCall(m) if m.method == "sub_registry_with_prefix" => {
                    match m.args.first().and_then(str_lit) {
                        Some(p) => prefixes.insert(0, p),
                        None => {
                            return RegRef {
                                base: RegBase::Unknown(text(o)),
                                prefixes,
                            };
                        }
                    }
                    e = &m.receiver;
                }
                Expr::MethodCall(m)
                    if m.method == "sub_registry_with_label"
                        || m.method == "sub_registry_with_labels" =>
                {
                    e = &m.receiver
                }
                Expr::Call(c) if is_registry_constructor(c) => {
                    if let Some(p) = c.args.first().and_then(str_lit) {
                        prefixes.insert(0, p);
                    }
                    return RegRef {
                        base: RegBase::Root,
                        prefixes,
                    };
                }
                Expr::Path(p)
                    if let Some(i) = p
                        .path
                        .get_ident()
                        .and_then(|id| self.params.iter().position(|(n, reg)| *reg && id == n)) =>
                {
                    return RegRef {
                        base: RegBase::Param(i),
                        prefixes,
                    };
                }
                other => {
                    return RegRef {
                        base: RegBase::Unknown(text(other)),
                        prefixes,
                    };
                }
            }
        }
        RegRef {
            base: RegBase::Unknown(text(e)),
            prefixes,
        }
    }

    /// Whether an expression is a registry (so a call passing it passes a registry on).
    fn is_registry(&self, e: &'ast Expr) -> bool {
        let (o, ty) = self.origin(e);
        if ty.is_some_and(is_registry_type) {
            return true;
        }
        match peel(o) {
            Expr::MethodCall(m) => m.method.to_string().starts_with("sub_registry"),
            Expr::Call(c) => is_registry_constructor(c),
            Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|id| self.params.iter().any(|(n, reg)| *reg && id == n)),
            _ => false,
        }
    }

    fn metric_type(&self, e: &'ast Expr) -> RawType {
        let (o, ty) = self.origin(e);
        if let Some(ty) = ty {
            return type_of_type(ty).unwrap_or_else(|| RawType::Unknown(text(ty)));
        }
        match peel(o) {
            Expr::Call(c) => {
                if let Expr::Path(p) = &*c.func {
                    // `Box::new(metric)`, `Arc::new(metric)`.
                    let segs = segments(&p.path);
                    if matches!(segs.as_slice(), [t, n] if (t == "Box" || t == "Arc") && n == "new")
                        && let Some(inner) = c.args.first()
                    {
                        return self.metric_type(inner);
                    }
                    // `Counter::default()`, `Family::<L, Counter>::default()`.
                    let n = p.path.segments.len();
                    if n >= 2
                        && let Some(t) = type_of_segment(&p.path.segments[n - 2])
                    {
                        return t;
                    }
                    if let Some(q) = &p.qself
                        && let Some(t) = type_of_type(&q.ty)
                    {
                        return t;
                    }
                }
                RawType::Unknown(text(o))
            }
            Expr::Field(f) => match &f.member {
                syn::Member::Named(n) => RawType::Field(n.to_string()),
                syn::Member::Unnamed(_) => RawType::Unknown(text(o)),
            },
            other => RawType::Unknown(text(other)),
        }
    }

    fn descriptor(&mut self, m: &'ast syn::ExprMethodCall) {
        let args: Vec<&Expr> = m.args.iter().collect();
        let lit = |e: &Expr| str_lit(e).ok_or_else(|| text(e));
        let unit = match peel(args[2]) {
            Expr::Path(p) if p.path.is_ident("None") => None,
            Expr::Call(c)
                if matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some"))
                    && c.args.len() == 1 =>
            {
                Some(unit_of(&c.args[0]))
            }
            other => Some(Err(text(other))),
        };
        let kind = match peel(args[3]) {
            Expr::Path(p) => match p
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .as_deref()
            {
                Some("Counter") => Ok("counter"),
                Some("Gauge") => Ok("gauge"),
                Some("Histogram") => Ok("histogram"),
                Some("Summary") => Ok("summary"),
                Some("Info") => Ok("info"),
                Some("Unknown") => Ok("untyped"),
                Some("StateSet") => Ok("stateset"),
                Some("GaugeHistogram") => Ok("gaugehistogram"),
                _ => Err(text(args[3])),
            },
            other => Err(text(other)),
        };
        self.facts.descriptors.push(RawDescriptor {
            owner: self.collector.clone().unwrap_or_default(),
            line: line(m.method.span()),
            name: lit(args[0]),
            help: lit(args[1]),
            unit,
            kind,
            var: None,
            labels: None,
        });
    }

    /// `x.encode_family(&labels)` on a descriptor's encoder: the label names, from a
    /// `vec![("name", value), …]` or array of pairs with literal names.
    fn family(&mut self, m: &'ast syn::ExprMethodCall) {
        let Expr::Path(p) = peel(&m.receiver) else {
            return;
        };
        let Some(var) = p.path.get_ident().map(|i| i.to_string()) else {
            return;
        };
        let (o, _) = self.origin(&m.args[0]);
        let pairs: Option<Vec<Expr>> = match peel(o) {
            Expr::Array(a) => Some(a.elems.iter().cloned().collect()),
            Expr::Macro(mac)
                if mac.mac.path.is_ident("vec") && too_deep(mac.mac.tokens.clone()).is_none() =>
            {
                mac.mac
                    .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                    .ok()
                    .map(|p| p.into_iter().collect())
            }
            _ => None,
        };
        let names: Result<Vec<String>, String> = pairs
            .and_then(|pairs| {
                pairs
                    .iter()
                    .map(|e| match e {
                        Expr::Tuple(t) => t.elems.first().and_then(str_lit),
                        _ => None,
                    })
                    .collect::<Option<Vec<String>>>()
            })
            .ok_or_else(|| text(&m.args[0]));
        if let Some(d) = self
            .facts
            .descriptors
            .iter_mut()
            .rev()
            .find(|d| d.var.as_deref() == Some(var.as_str()))
            && d.labels.is_none()
        {
            d.labels = Some(names);
        }
    }

    fn register_collector(&mut self, m: &'ast syn::ExprMethodCall) {
        let registry = self.registry(&m.receiver);
        let mut arg = peel(&m.args[0]);
        if let Expr::Call(c) = arg
            && matches!(&*c.func, Expr::Path(p) if segments(&p.path) == ["Box", "new"])
            && let Some(inner) = c.args.first()
        {
            arg = peel(self.origin(inner).0);
        }
        let collector = match arg {
            Expr::Call(c) => match &*c.func {
                // `T(…)` (a tuple struct) or `T::new(…)`.
                Expr::Path(p) => {
                    let segs = segments(&p.path);
                    match segs.as_slice() {
                        [.., t] if t.starts_with(char::is_uppercase) => Ok(t.clone()),
                        [.., t, _] if t.starts_with(char::is_uppercase) => Ok(t.clone()),
                        _ => Err(text(arg)),
                    }
                }
                _ => Err(text(arg)),
            },
            Expr::Struct(st) => st
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .ok_or_else(|| text(arg)),
            other => Err(text(other)),
        };
        self.facts.collectors.push(RawCollector {
            function: self.function,
            line: line(m.method.span()),
            registry,
            collector,
        });
    }

    /// The type of a local made by `T::f(…)` or declared `x: T`, for method calls.
    fn type_name_of(&self, e: &'ast Expr) -> Option<String> {
        let (o, ty) = self.origin(e);
        if let Some(Type::Path(p)) = ty {
            return p.path.segments.last().map(|s| s.ident.to_string());
        }
        match peel(o) {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) if p.path.segments.len() >= 2 => {
                    let t = &p.path.segments[p.path.segments.len() - 2].ident;
                    let t = t.to_string();
                    t.starts_with(char::is_uppercase).then_some(t)
                }
                _ => None,
            },
            Expr::Struct(s) => s.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        }
    }

    fn registration(&mut self, m: &'ast syn::ExprMethodCall) {
        let with_unit = m.method == "register_with_unit";
        let args: Vec<&Expr> = m.args.iter().collect();
        let registry = self.registry(&m.receiver);
        // A method named `register` counts only on a value shown to be a registry, or with
        // a literal name and help (prometheus_client's signature) in a file that uses it.
        let literal = str_lit(args[0]).is_some() && str_lit(args[1]).is_some();
        if matches!(registry.base, RegBase::Unknown(_)) && !literal {
            return;
        }
        let lit = |e: &Expr| str_lit(e).ok_or_else(|| text(e));
        let unit = with_unit.then(|| unit_of(args[2]));
        self.facts.registrations.push(RawRegistration {
            function: self.function,
            line: line(m.method.span()),
            name: lit(args[0]),
            help: lit(args[1]),
            unit,
            registry,
            metric: self.metric_type(args[args.len() - 1]),
        });
    }

    /// A call passing a registry to a function: `T::f(…, reg, …)` or `x.f(…, reg, …)`.
    fn registry_call(&mut self, callee: FnKey, modules: Vec<String>, args: &[&'ast Expr], at: u32) {
        for (i, a) in args.iter().enumerate() {
            if self.is_registry(a) {
                let registry = self.registry(a);
                self.facts.calls.push(RegistryCall {
                    function: self.function,
                    line: at,
                    callee: callee.clone(),
                    modules: modules.clone(),
                    arg: i,
                    registry,
                });
            }
        }
    }

    /// A `register_*!` macro of the prometheus crate, or a macro whose tokens hold some.
    fn classic_macro(&mut self, mac: &syn::Macro) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if let Some(kind) = classic_macro_kind(&name) {
            self.classic_registration(&name, kind, mac.tokens.clone(), line(name_span(mac)));
            return;
        }
        // Another macro (`lazy_static!`): its tokens are searched for `register_*!(…)`.
        let mut stack: Vec<TokenStream> = vec![mac.tokens.clone()];
        while let Some(ts) = stack.pop() {
            let trees: Vec<TokenTree> = ts.into_iter().collect();
            for (i, t) in trees.iter().enumerate() {
                match t {
                    TokenTree::Ident(id) => {
                        let name = id.to_string();
                        if let Some(kind) = classic_macro_kind(&name)
                            && matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
                            && let Some(TokenTree::Group(g)) = trees.get(i + 2)
                        {
                            self.classic_registration(&name, kind, g.stream(), line(id.span()));
                        }
                    }
                    TokenTree::Group(g) => stack.push(g.stream()),
                    _ => {}
                }
            }
        }
    }

    fn classic_registration(
        &mut self,
        name: &str,
        kind: &'static str,
        tokens: TokenStream,
        at: u32,
    ) {
        if let Some(refused) = too_deep(tokens.clone()) {
            self.facts.diagnostics.push(Diagnostic::new(
                self.path,
                refused.line(),
                refused.message(),
            ));
            return;
        }
        let Ok(args) =
            syn::parse::Parser::parse2(Punctuated::<Expr, Token![,]>::parse_terminated, tokens)
        else {
            self.facts.diagnostics.push(Diagnostic::new(
                self.path,
                at,
                format!("cannot read the arguments of `{name}!`: the metric is not listed"),
            ));
            return;
        };
        let args: Vec<&Expr> = args.iter().collect();
        let vector = name.ends_with("_vec") || name.ends_with("_vec_with_registry");
        let (opts, rest) = match args.as_slice() {
            [n, h, rest @ ..] if str_lit(n).is_some() => (
                Opts {
                    name: str_lit(n),
                    help: str_lit(h).ok_or_else(|| text(*h)),
                    ..Opts::default()
                },
                rest,
            ),
            [o, rest @ ..] => (opts_of(o), rest),
            [] => return,
        };
        let labels = vector.then(|| rest.first().map(|l| labels_of(l)).unwrap_or_default());
        self.classic_metric(kind, opts, labels, at);
    }

    /// `IntCounterVec::new(Opts::new(…), &[…])`, `Histogram::with_opts(…)`, `Counter::new(n, h)`.
    fn classic_constructor(&mut self, c: &'ast syn::ExprCall) {
        let Expr::Path(p) = &*c.func else {
            return;
        };
        let segs = segments(&p.path);
        let [.., ty, ctor] = segs.as_slice() else {
            return;
        };
        let Some((kind, vector)) = classic_type(ty) else {
            return;
        };
        let resolved = self.uses.resolve(&segs[..segs.len() - 1]);
        // The prometheus crate's type (named, or through a glob import of the crate).
        let named = resolved.starts_with("prometheus::");
        let through_glob = resolved == *ty && !self.uses.is_imported(ty) && !self.client;
        if !named && !through_glob {
            return;
        }
        let args: Vec<&Expr> = c.args.iter().collect();
        let (opts, rest) = match (ctor.as_str(), args.as_slice()) {
            ("new", [n, h]) if !vector && str_lit(n).is_some() => (
                Opts {
                    name: str_lit(n),
                    help: str_lit(h).ok_or_else(|| text(*h)),
                    ..Opts::default()
                },
                &args[2..],
            ),
            ("new" | "with_opts", [o, rest @ ..]) => (opts_of(o), rest),
            _ => return,
        };
        let labels = vector.then(|| rest.first().map(|l| labels_of(l)).unwrap_or_default());
        let at = p
            .path
            .segments
            .last()
            .map(|s| line(s.ident.span()))
            .unwrap_or(0);
        self.classic_metric(kind, opts, labels, at);
    }

    fn classic_metric(
        &mut self,
        kind: &str,
        opts: Opts,
        labels: Option<Vec<Option<String>>>,
        at: u32,
    ) {
        let mut unknown = |what: &str| {
            self.facts.diagnostics.push(Diagnostic::new(
                self.path,
                at,
                format!("cannot resolve {what} of this metric: it is not a string literal; it is shown as ?"),
            ));
            UNRESOLVED.to_string()
        };
        let Some(name) = opts.name.clone() else {
            unknown("the name");
            return;
        };
        let namespace = match &opts.namespace {
            Some(Some(s)) => s.clone(),
            Some(None) => unknown("the namespace"),
            None => String::new(),
        };
        let subsystem = match &opts.subsystem {
            Some(Some(s)) => s.clone(),
            Some(None) => unknown("the subsystem"),
            None => String::new(),
        };
        let labels = labels
            .unwrap_or_default()
            .into_iter()
            .map(|l| l.unwrap_or_else(|| unknown("a label name")))
            .collect();
        let full = [namespace.as_str(), subsystem.as_str(), name.as_str()]
            .iter()
            .filter(|p| !p.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("_");
        let (help, help_expr) = match &opts.help {
            Ok(h) => (h.clone(), false),
            Err(t) => (t.clone(), true),
        };
        self.facts.classic.push(Metric {
            name: full,
            kind: kind.to_string(),
            help,
            help_expr,
            labels,
            area: self.area,
            sources: vec![SourceRef::new(self.path, at)],
        });
    }
}

impl<'ast> Visit<'ast> for Visitor<'_, 'ast> {
    fn visit_local(&mut self, l: &'ast syn::Local) {
        visit::visit_local(self, l);
        let (name, ty) = match &l.pat {
            Pat::Ident(id) => (id.ident.to_string(), None),
            Pat::Type(t) => match &*t.pat {
                Pat::Ident(id) => (id.ident.to_string(), Some(&*t.ty)),
                _ => return,
            },
            _ => return,
        };
        let value = l.init.as_ref().map(|i| &*i.expr);
        if let Some(Expr::MethodCall(m)) = value.map(peel)
            && m.method == "encode_descriptor"
            && let Some(d) = self
                .facts
                .descriptors
                .iter_mut()
                .rev()
                .find(|d| d.line == line(m.method.span()))
        {
            d.var = Some(name.clone());
        }
        self.locals.push((name, ty, value));
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if self.collector.is_some() && m.method == "encode_descriptor" && m.args.len() == 4 {
            self.descriptor(m);
        } else if self.collector.is_some() && m.method == "encode_family" && m.args.len() == 1 {
            self.family(m);
        } else if self.client && m.method == "register_collector" && m.args.len() == 1 {
            self.register_collector(m);
        } else if self.client {
            let registers = (m.method == "register" && m.args.len() == 3)
                || (m.method == "register_with_unit" && m.args.len() == 4);
            if registers {
                self.registration(m);
            } else {
                let args: Vec<&Expr> = m.args.iter().collect();
                let key = FnKey {
                    owner: self.type_name_of(&m.receiver),
                    name: m.method.to_string(),
                };
                self.registry_call(key, Vec::new(), &args, line(m.method.span()));
            }
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if self.classic {
            self.classic_constructor(c);
        }
        if self.client
            && let Expr::Path(p) = &*c.func
        {
            let segs = segments(&p.path);
            if let Some((name, before)) = segs.split_last() {
                let (owner, modules) = match before.split_last() {
                    Some((t, m)) if t.starts_with(char::is_uppercase) => (Some(t.clone()), m),
                    _ => (None, before),
                };
                let modules = modules
                    .iter()
                    .filter(|m| !matches!(m.as_str(), "crate" | "self" | "super"))
                    .cloned()
                    .collect();
                let args: Vec<&Expr> = c.args.iter().collect();
                let key = FnKey {
                    owner,
                    name: name.clone(),
                };
                let at = p
                    .path
                    .segments
                    .last()
                    .map(|s| line(s.ident.span()))
                    .unwrap_or(0);
                self.registry_call(key, modules, &args, at);
            }
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if self.classic {
            self.classic_macro(mac);
        }
    }

    fn visit_item(&mut self, _: &'ast Item) {
        // Nested items are visited from `extract`'s item list, not inside bodies.
    }
}

/// The span of a macro's name, for its line.
fn name_span(mac: &syn::Macro) -> proc_macro2::Span {
    mac.path
        .segments
        .last()
        .map(|s| s.ident.span())
        .unwrap_or_else(proc_macro2::Span::call_site)
}

/// Strips references, dereferences, parentheses, `.clone()`, `?` and `.await`.
fn peel(mut e: &Expr) -> &Expr {
    for _ in 0..64 {
        e = match e {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => &u.expr,
            _ => {
                let p = super::syntax::peel(e);
                if std::ptr::eq(p, e) {
                    return e;
                }
                p
            }
        };
    }
    e
}

fn is_registry_type(ty: &Type) -> bool {
    let mut ty = ty;
    loop {
        ty = match ty {
            Type::Reference(r) => &r.elem,
            Type::Paren(p) => &p.elem,
            Type::Group(g) => &g.elem,
            _ => break,
        };
    }
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Registry"))
}

/// `Registry::default()`, `Registry::new()`, `<Registry>::default()`, `Registry::with_prefix(…)`.
fn is_registry_constructor(c: &syn::ExprCall) -> bool {
    let Expr::Path(p) = &*c.func else {
        return false;
    };
    let n = p.path.segments.len();
    let ctor = p.path.segments.last().map(|s| s.ident.to_string());
    let ty_is_registry = (n >= 2 && p.path.segments[n - 2].ident == "Registry")
        || p.qself.as_ref().is_some_and(|q| is_registry_type(&q.ty));
    ty_is_registry
        && matches!(
            ctor.as_deref(),
            Some("default" | "new" | "with_prefix" | "with_prefix_and_labels" | "with_labels")
        )
}

/// The metric type a prometheus_client type names: `Counter`, `Gauge`, `Histogram`,
/// `Info`, their `Const…` forms, or `Family<Labels, M>`.
fn type_of_type(ty: &Type) -> Option<RawType> {
    match ty {
        Type::Path(p) => type_of_segment(p.path.segments.last()?),
        Type::Reference(r) => type_of_type(&r.elem),
        _ => None,
    }
}

fn type_of_segment(s: &syn::PathSegment) -> Option<RawType> {
    let kind = match s.ident.to_string().as_str() {
        "Counter" | "ConstCounter" => "counter",
        "Gauge" | "ConstGauge" => "gauge",
        "Histogram" | "ConstHistogram" => "histogram",
        "Info" => "info",
        "Family" => {
            let PathArguments::AngleBracketed(a) = &s.arguments else {
                return Some(RawType::Unknown(
                    "`Family` without its type arguments".to_string(),
                ));
            };
            let types: Vec<&Type> = a
                .args
                .iter()
                .filter_map(|g| match g {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .collect();
            let [labels, metric, ..] = types.as_slice() else {
                return None;
            };
            let inner = match metric {
                Type::Path(p) => p
                    .path
                    .segments
                    .last()
                    .and_then(|s| type_of_segment(s).filter(|_| s.ident != "Family")),
                _ => None,
            };
            let Some(RawType::Known { kind, .. }) = inner else {
                return Some(RawType::Unknown(text(*metric)));
            };
            let labels = match labels {
                Type::Path(p)
                    if p.qself.is_none()
                        && p.path.segments.iter().all(|s| s.arguments.is_empty()) =>
                {
                    Ok(p.path
                        .segments
                        .last()
                        .map(|s| s.ident.to_string())
                        .unwrap_or_default())
                }
                other => Err(text(*other)),
            };
            return Some(RawType::Known {
                kind,
                labels: Some(labels),
            });
        }
        _ => return None,
    };
    Some(RawType::Known { kind, labels: None })
}

/// `Unit::Seconds` → `seconds`; `Unit::Other("x".into())` → `x`.
fn unit_of(e: &Expr) -> Result<String, String> {
    let known = |name: &str| {
        Some(match name {
            "Seconds" => "seconds",
            "Bytes" => "bytes",
            "Joules" => "joules",
            "Grams" => "grams",
            "Meters" => "meters",
            "Ratios" => "ratios",
            "Volts" => "volts",
            "Amperes" => "amperes",
            "Celsius" => "celsius",
            _ => return None,
        })
    };
    match peel(e) {
        Expr::Path(p) => p
            .path
            .segments
            .last()
            .and_then(|s| known(&s.ident.to_string()))
            .map(str::to_string)
            .ok_or_else(|| text(e)),
        Expr::Call(c) => match (&*c.func, c.args.first()) {
            (Expr::Path(p), Some(a))
                if p.path.segments.last().is_some_and(|s| s.ident == "Other") =>
            {
                let a = match peel(a) {
                    Expr::MethodCall(m) if m.method == "into" || m.method == "to_string" => {
                        &*m.receiver
                    }
                    other => other,
                };
                str_lit(a).ok_or_else(|| text(e))
            }
            _ => Err(text(e)),
        },
        _ => Err(text(e)),
    }
}

/// prometheus crate macros: `register_int_counter!` and friends (`_vec`, `_with_registry`).
fn classic_macro_kind(name: &str) -> Option<&'static str> {
    let base = name.strip_prefix("register_")?;
    let base = base.strip_suffix("_with_registry").unwrap_or(base);
    let base = base.strip_suffix("_vec").unwrap_or(base);
    Some(match base {
        "counter" | "int_counter" => "counter",
        "gauge" | "int_gauge" => "gauge",
        "histogram" => "histogram",
        _ => return None,
    })
}

/// prometheus crate types: kind and whether it is a vector.
fn classic_type(name: &str) -> Option<(&'static str, bool)> {
    Some(match name {
        "Counter" | "IntCounter" => ("counter", false),
        "CounterVec" | "IntCounterVec" => ("counter", true),
        "Gauge" | "IntGauge" => ("gauge", false),
        "GaugeVec" | "IntGaugeVec" => ("gauge", true),
        "Histogram" => ("histogram", false),
        "HistogramVec" => ("histogram", true),
        _ => return None,
    })
}

/// The name parts of a prometheus crate `Opts`/`HistogramOpts`.
#[derive(Debug, Clone)]
struct Opts {
    /// `None`: not a string literal.
    name: Option<String>,
    help: Result<String, String>,
    /// `None`: not set; `Some(None)`: set to something that is not a literal.
    namespace: Option<Option<String>>,
    subsystem: Option<Option<String>>,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            name: None,
            help: Ok(String::new()),
            namespace: None,
            subsystem: None,
        }
    }
}

/// `Opts::new(n, h).namespace(ns).subsystem(s)`, `HistogramOpts::new(…)`, `opts!(n, h)`,
/// `histogram_opts!(n, h, …)`.
fn opts_of(e: &Expr) -> Opts {
    let mut builders = Vec::new();
    let mut e = peel(e);
    for _ in 0..32 {
        match e {
            Expr::MethodCall(m) => {
                builders.push(m);
                e = peel(&m.receiver);
            }
            _ => break,
        }
    }
    let mut opts = Opts {
        help: Err(text(e)),
        ..Opts::default()
    };
    let base: Option<Vec<Expr>> = match e {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "new")
                    && p.path.segments.len() >= 2 =>
            {
                Some(c.args.iter().cloned().collect())
            }
            _ => None,
        },
        Expr::Macro(m)
            if m.mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "opts" || s.ident == "histogram_opts")
                && too_deep(m.mac.tokens.clone()).is_none() =>
        {
            m.mac
                .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                .ok()
                .map(|p| p.into_iter().collect())
        }
        _ => None,
    };
    if let Some(args) = base
        && args.len() >= 2
    {
        opts.name = str_lit(&args[0]);
        opts.help = str_lit(&args[1]).ok_or_else(|| text(&args[1]));
    }
    for m in builders.into_iter().rev() {
        let value = m.args.first().and_then(str_lit);
        match m.method.to_string().as_str() {
            "namespace" => opts.namespace = Some(value),
            "subsystem" => opts.subsystem = Some(value),
            _ => {}
        }
    }
    opts
}

/// Label names of `&["a", "b"]` (`None` for one that is not a literal).
fn labels_of(e: &Expr) -> Vec<Option<String>> {
    match peel(e) {
        Expr::Array(a) => a.elems.iter().map(str_lit).collect(),
        _ => vec![None],
    }
}

/// One prefix chain of a registration, or why it is not known.
type Chain = Result<Vec<String>, String>;

/// Resolves every registration of the project to model metrics.
pub fn resolve(
    files: &[(&str, Area, &MetricFacts)],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Metric> {
    let mut label_sets: BTreeMap<&str, Vec<&Option<Vec<String>>>> = BTreeMap::new();
    let mut fields: BTreeMap<&str, Vec<&RawType>> = BTreeMap::new();
    for (_, _, f) in files {
        for (name, l) in &f.label_sets {
            label_sets.entry(name).or_default().push(l);
        }
        for (name, t) in &f.fields {
            fields.entry(name).or_default().push(t);
        }
    }
    let mut out = Vec::new();
    for (fi, (path, area, facts)) in files.iter().enumerate() {
        out.extend(facts.classic.iter().cloned());
        diagnostics.extend(facts.diagnostics.iter().cloned());
        for r in &facts.registrations {
            let at = |message: String| Diagnostic::new(path, r.line, message);
            let name = match &r.name {
                Ok(n) => n.clone(),
                Err(t) => {
                    diagnostics.push(at(format!(
                        "cannot resolve this metric's name: `{t}` is not a string literal; the metric is not listed"
                    )));
                    continue;
                }
            };
            let (help, help_expr) = match &r.help {
                Ok(h) => (h.clone(), false),
                Err(t) => (t.clone(), true),
            };
            let unit = match &r.unit {
                None => None,
                Some(Ok(u)) => Some(u.clone()),
                Some(Err(t)) => {
                    diagnostics.push(at(format!(
                        "cannot resolve this metric's unit: `{t}` is not a `Unit`; it is shown as ?"
                    )));
                    Some(UNRESOLVED.to_string())
                }
            };
            let raw = match &r.metric {
                RawType::Field(f) => {
                    let mut seen: Vec<&RawType> =
                        fields.get(f.as_str()).cloned().unwrap_or_default();
                    seen.dedup();
                    match seen.as_slice() {
                        [one] => (*one).clone(),
                        [] => RawType::Unknown(format!(
                            "field `{f}` of no metric-typed struct field in the project"
                        )),
                        _ => RawType::Unknown(format!(
                            "field `{f}`, which several structs declare with different types"
                        )),
                    }
                }
                other => other.clone(),
            };
            let (kind, labels) = match raw {
                RawType::Known { kind, labels } => {
                    let labels = match labels {
                        None => Vec::new(),
                        Some(Err(t)) => {
                            diagnostics.push(at(format!(
                                "cannot read the labels of this metric: `{t}` is not a label struct; they are shown as ?"
                            )));
                            vec![UNRESOLVED.to_string()]
                        }
                        Some(Ok(t)) => {
                            let mut sets = label_sets.get(t.as_str()).cloned().unwrap_or_default();
                            sets.dedup();
                            match sets.as_slice() {
                                [Some(names)] => names.clone(),
                                _ => {
                                    diagnostics.push(at(format!(
                                        "cannot read the labels of this metric: `{t}` is not one plain `#[derive(EncodeLabelSet)]` struct of the project; they are shown as ?"
                                    )));
                                    vec![UNRESOLVED.to_string()]
                                }
                            }
                        }
                    };
                    (kind.to_string(), labels)
                }
                RawType::Field(_) | RawType::Unknown(_) => {
                    let why = match &r.metric {
                        RawType::Unknown(t) | RawType::Field(t) => t.clone(),
                        _ => String::new(),
                    };
                    diagnostics.push(at(format!(
                        "cannot tell the type of this metric: `{why}` is not a prometheus_client metric type or a value made by one; it is shown as ?"
                    )));
                    (UNRESOLVED.to_string(), Vec::new())
                }
            };
            for chain in chains(files, fi, r.function, &r.registry) {
                let prefixes = match chain {
                    Ok(p) => p,
                    Err(why) => {
                        diagnostics.push(at(format!(
                            "cannot resolve the prefix of this metric's registry: {why}; it is shown as ?"
                        )));
                        vec![UNRESOLVED.to_string()]
                    }
                };
                out.push(Metric {
                    name: exposed_name(prefixes, name.as_str(), unit.as_deref(), kind.as_str()),
                    kind: kind.clone(),
                    help: help.clone(),
                    help_expr,
                    labels: labels.clone(),
                    area: *area,
                    sources: vec![SourceRef::new(path, r.line)],
                });
            }
        }
    }
    collector_metrics(files, &mut out, diagnostics);
    out
}

/// The metrics custom collectors describe, named with the prefix of each registry their
/// type is registered on (`register_collector`). The collector's `impl` is looked for in
/// the registering file first, then in the project (one file only).
fn collector_metrics(
    files: &[(&str, Area, &MetricFacts)],
    out: &mut Vec<Metric>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut registered: Vec<(usize, &str)> = Vec::new();
    for (fi, (path, area, facts)) in files.iter().enumerate() {
        for c in &facts.collectors {
            let at = |message: String| Diagnostic::new(path, c.line, message);
            let ty = match &c.collector {
                Ok(t) => t.as_str(),
                Err(t) => {
                    diagnostics.push(at(format!(
                        "cannot tell which collector this registers: `{t}` is not a collector type's value; its metrics are not listed"
                    )));
                    continue;
                }
            };
            let has = |f: &MetricFacts| f.descriptors.iter().any(|d| d.owner == ty);
            let owner_file = if has(facts) {
                Some(fi)
            } else {
                let found: Vec<usize> = (0..files.len()).filter(|i| has(files[*i].2)).collect();
                match found.as_slice() {
                    [one] => Some(*one),
                    _ => None,
                }
            };
            let Some(ofi) = owner_file else {
                diagnostics.push(at(format!(
                    "cannot find the metrics of collector `{ty}`: no single `impl Collector for {ty}` describing metrics in the project; they are not listed"
                )));
                continue;
            };
            registered.push((ofi, ty));
            let chains = chains(files, fi, c.function, &c.registry);
            let (opath, _, ofacts) = files[ofi];
            for d in ofacts.descriptors.iter().filter(|d| d.owner == ty) {
                let at = |message: String| Diagnostic::new(opath, d.line, message);
                let Ok(name) = &d.name else {
                    diagnostics.push(at(
                        "cannot resolve this metric's name: it is not a string literal; the metric is not listed".to_string(),
                    ));
                    continue;
                };
                let (help, help_expr) = match &d.help {
                    Ok(h) => (h.clone(), false),
                    Err(t) => (t.clone(), true),
                };
                let kind = match d.kind {
                    Ok(k) => k.to_string(),
                    Err(ref t) => {
                        diagnostics.push(at(format!(
                            "cannot tell the type of this metric: `{t}` is not a `MetricType`; it is shown as ?"
                        )));
                        UNRESOLVED.to_string()
                    }
                };
                let unit = match &d.unit {
                    None => None,
                    Some(Ok(u)) => Some(u.clone()),
                    Some(Err(t)) => {
                        diagnostics.push(at(format!(
                            "cannot resolve this metric's unit: `{t}` is not a `Unit`; it is shown as ?"
                        )));
                        Some(UNRESOLVED.to_string())
                    }
                };
                let labels = match &d.labels {
                    None => Vec::new(),
                    Some(Ok(l)) => l.clone(),
                    Some(Err(t)) => {
                        diagnostics.push(at(format!(
                            "cannot read the labels of this metric: `{t}` is not a list of (name, value) pairs with literal names; they are shown as ?"
                        )));
                        vec![UNRESOLVED.to_string()]
                    }
                };
                for chain in &chains {
                    let parts = match chain {
                        Ok(p) => p.clone(),
                        Err(why) => {
                            diagnostics.push(Diagnostic::new(
                                path,
                                c.line,
                                format!("cannot resolve the prefix of this collector's registry: {why}; it is shown as ?"),
                            ));
                            vec![UNRESOLVED.to_string()]
                        }
                    };
                    out.push(Metric {
                        name: exposed_name(parts, name, unit.as_deref(), kind.as_str()),
                        kind: kind.clone(),
                        help: help.clone(),
                        help_expr,
                        labels: labels.clone(),
                        area: *area,
                        sources: vec![SourceRef::new(opath, d.line)],
                    });
                }
            }
        }
    }
    // Collectors whose registration was not found: their metrics cannot be named.
    for (fi, (path, _, facts)) in files.iter().enumerate() {
        let mut owners: Vec<&str> = facts.descriptors.iter().map(|d| d.owner.as_str()).collect();
        owners.dedup();
        for owner in owners {
            if !registered.contains(&(fi, owner))
                && let Some(d) = facts.descriptors.iter().find(|d| d.owner == owner)
            {
                diagnostics.push(Diagnostic::new(
                    path,
                    d.line,
                    format!("collector `{owner}` is not registered anywhere the analysis follows (`register_collector`): its metrics are not listed"),
                ));
            }
        }
    }
}

/// The prefix chains of a registry: one per chain of call sites that reaches it.
fn chains(
    files: &[(&str, Area, &MetricFacts)],
    fi: usize,
    function: usize,
    reg: &RegRef,
) -> Vec<Chain> {
    // (file, function, registry, prefixes added below it, depth)
    let mut pending = vec![(fi, function, reg.clone(), Vec::<String>::new(), 0usize)];
    let mut out = Vec::new();
    while let Some((fi, function, reg, below, depth)) = pending.pop() {
        if out.len() >= MAX_CHAINS {
            break;
        }
        let mut here = reg.prefixes.clone();
        here.extend(below);
        match &reg.base {
            RegBase::Root => out.push(Ok(here)),
            RegBase::Unknown(t) => out.push(Err(format!("`{t}` is not followed"))),
            RegBase::Param(i) => {
                if depth >= MAX_CALLERS {
                    out.push(Err(format!(
                        "call sites are followed {MAX_CALLERS} levels up only"
                    )));
                    continue;
                }
                let key = &files[fi].2.functions[function];
                let callers: Vec<(usize, &RegistryCall)> = files
                    .iter()
                    .enumerate()
                    .flat_map(|(cfi, (_, _, f))| f.calls.iter().map(move |c| (cfi, c)))
                    .filter(|(_, c)| c.arg == *i && calls(files, c, fi, function))
                    .collect();
                if callers.is_empty() {
                    out.push(Err(format!(
                        "the registry is a parameter of `{}` and no call site passing one was found",
                        key.name
                    )));
                }
                for (cfi, c) in callers {
                    pending.push((cfi, c.function, c.registry.clone(), here.clone(), depth + 1));
                }
            }
        }
    }
    out
}

/// Whether a call site calls function `function` of file `fi`: same name and `impl`
/// type, and no other function of the project fits as well (module path segments, when
/// written, must all be folders or the file name of the callee).
fn calls(
    files: &[(&str, Area, &MetricFacts)],
    c: &RegistryCall,
    fi: usize,
    function: usize,
) -> bool {
    let fits = |k: &FnKey| {
        k.name == c.callee.name && (c.callee.owner.is_none() || k.owner == c.callee.owner)
    };
    if !fits(&files[fi].2.functions[function]) {
        return false;
    }
    let candidates: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, (_, _, f))| {
            f.functions
                .iter()
                .enumerate()
                .filter(|(_, k)| fits(k))
                .map(move |(j, _)| (i, j))
        })
        .collect();
    if candidates.len() == 1 {
        return true;
    }
    let in_path = |i: usize| {
        let parts: Vec<&str> = files[i]
            .0
            .split('/')
            .map(|p| p.strip_suffix(".rs").unwrap_or(p))
            .collect();
        !c.modules.is_empty() && c.modules.iter().all(|m| parts.contains(&m.as_str()))
    };
    let fitting: Vec<(usize, usize)> = candidates
        .into_iter()
        .filter(|(i, _)| in_path(*i))
        .collect();
    fitting == [(fi, function)]
}

/// The name prometheus_client exposes: the registry prefixes, the name and the unit joined
/// with `_`, and `_total` after a counter's.
fn exposed_name(mut parts: Vec<String>, name: &str, unit: Option<&str>, kind: &str) -> String {
    parts.push(name.to_string());
    parts.extend(unit.map(str::to_string));
    let mut full = parts.join("_");
    if kind == "counter" {
        full.push_str("_total");
    }
    full
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rust::extract as parse;

    /// One line per metric, `name type [labels] help @file:line`, sorted; and diagnostics.
    fn analyze(files: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
        let parsed: Vec<_> = files
            .iter()
            .map(|(p, t)| parse(p, t, Area::Component))
            .collect();
        let facts: Vec<(&str, Area, &MetricFacts)> = parsed
            .iter()
            .map(|f| (f.path.as_str(), f.area, &f.metrics))
            .collect();
        let mut diagnostics: Vec<Diagnostic> =
            parsed.iter().flat_map(|f| f.diagnostics.clone()).collect();
        let mut rows: Vec<String> = resolve(&facts, &mut diagnostics)
            .iter()
            .map(|m| {
                format!(
                    "{} {} [{}] {}{} @{}:{}",
                    m.name,
                    m.kind,
                    m.labels.join(","),
                    m.help,
                    if m.help_expr { "*" } else { "" },
                    m.sources[0].file,
                    m.sources[0].line
                )
            })
            .collect();
        rows.sort();
        let d = diagnostics
            .iter()
            .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
            .collect();
        (rows, d)
    }

    const SERVER_METRICS: &str = r#"use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::{counter::Counter, family::Family, gauge::Gauge, histogram::Histogram};
use prometheus_client::registry::{Registry, Unit};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    code: u16,
}

pub struct ServerMetrics {
    requests: Family<RequestLabels, Counter>,
    in_flight: Gauge,
}

impl ServerMetrics {
    pub fn register(reg: &mut Registry) -> Self {
        let requests = Family::<RequestLabels, Counter>::default();
        reg.register("requests", "Requests served", requests.clone());
        let in_flight: Gauge = Gauge::default();
        reg.register("in_flight", "Requests in progress", in_flight.clone());
        let latency = Histogram::new([0.1, 1.0].into_iter());
        reg.register_with_unit("latency", "Time to answer", Unit::Seconds, latency.clone());
        Self { requests, in_flight }
    }
}

#[derive(Default)]
pub struct Queue {
    depth: Gauge,
}

impl Queue {
    pub fn register(&self, reg: &mut Registry) {
        reg.register("depth", HELP, self.depth.clone());
    }
}
"#;

    const SERVER_MAIN: &str = r#"use prometheus_client::metrics::counter::Counter;
use prometheus_client::registry::Registry;

fn main() {
    let mut registry = <Registry>::default();
    let sub = registry.sub_registry_with_prefix("knob");
    let _server = metrics::ServerMetrics::register(sub.sub_registry_with_prefix("http"));
    let restarts = Counter::default();
    registry.register("restarts", "Process restarts", restarts.clone());
    let mut other = Registry::with_prefix("side");
    other.register("bytes", "Bytes sent", Box::new(Counter::<u64>::default()));
    let q = Queue::default();
    q.register(&mut other);
}
"#;

    #[test]
    fn prometheus_client_registrations_with_prefixes_units_and_labels() {
        let (rows, d) = analyze(&[
            ("metrics/src/lib.rs", SERVER_METRICS),
            ("server/src/main.rs", SERVER_MAIN),
        ]);
        assert_eq!(
            rows,
            vec![
                "knob_http_in_flight gauge [] Requests in progress @metrics/src/lib.rs:21",
                "knob_http_latency_seconds histogram [] Time to answer @metrics/src/lib.rs:23",
                "knob_http_requests_total counter [method,code] Requests served @metrics/src/lib.rs:19",
                "restarts_total counter [] Process restarts @server/src/main.rs:9",
                "side_bytes_total counter [] Bytes sent @server/src/main.rs:11",
                "side_depth gauge [] HELP* @metrics/src/lib.rs:35",
            ]
        );
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn unknown_registries_types_and_labels_are_shown_as_unknown() {
        let (rows, d) = analyze(&[(
            "app/src/lib.rs",
            r#"use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;

struct App {
    registry: Registry,
}

impl App {
    fn setup(&mut self, m: Custom) {
        self.registry.register("custom", "Custom thing", m);
        let f = Family::<Vec<(String, String)>, prometheus_client::metrics::gauge::Gauge>::default();
        self.registry.register("dyn", "Dynamic labels", f.clone());
    }
}

fn orphan(reg: &mut Registry) {
    reg.register("lonely", "No caller", prometheus_client::metrics::gauge::Gauge::<i64>::default());
    reg.register(name(), "Computed name", prometheus_client::metrics::gauge::Gauge::<i64>::default());
}
"#,
        )]);
        assert_eq!(
            rows,
            vec![
                "?_custom ? [] Custom thing @app/src/lib.rs:10",
                "?_dyn gauge [?] Dynamic labels @app/src/lib.rs:12",
                "?_lonely gauge [] No caller @app/src/lib.rs:17",
            ]
        );
        assert_eq!(
            d,
            vec![
                "app/src/lib.rs:10: cannot tell the type of this metric: `m` is not a prometheus_client metric type or a value made by one; it is shown as ?",
                "app/src/lib.rs:10: cannot resolve the prefix of this metric's registry: `self.registry` is not followed; it is shown as ?",
                "app/src/lib.rs:12: cannot read the labels of this metric: `Vec<(String, String)>` is not a label struct; they are shown as ?",
                "app/src/lib.rs:12: cannot resolve the prefix of this metric's registry: `self.registry` is not followed; it is shown as ?",
                "app/src/lib.rs:17: cannot resolve the prefix of this metric's registry: the registry is a parameter of `orphan` and no call site passing one was found; it is shown as ?",
                "app/src/lib.rs:18: cannot resolve this metric's name: `name()` is not a string literal; the metric is not listed",
            ]
        );
    }

    #[test]
    fn custom_collectors_are_named_by_the_registry_they_are_registered_on() {
        let (rows, d) = analyze(&[
            (
                "index/src/pool/stats.rs",
                r#"use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::{MetricType, gauge::ConstGauge};
use prometheus_client::registry::{Registry, Unit};

struct Stats(Shared);

pub fn register(reg: &mut Registry, shared: Shared) {
    reg.register_collector(Box::new(Stats(shared)));
}

impl Collector for Stats {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        let size = encoder.encode_descriptor("pool_size", "Entries in the pool", None, MetricType::Gauge)?;
        ConstGauge::new(1).encode(size)?;
        let mut by_ns = encoder.encode_descriptor(
            "evictions",
            "Entries evicted",
            None,
            MetricType::Counter,
        )?;
        for ns in self.0.namespaces() {
            let labels = vec![("namespace", ns.as_str()), ("reason", "expired")];
            by_ns.encode_family(&labels)?;
        }
        let age = encoder.encode_descriptor("oldest_age", "Age of the oldest", Some(&Unit::Seconds), MetricType::Gauge)?;
        ConstGauge::new(2).encode(age)?;
        Ok(())
    }
}

struct Forgotten;

impl Collector for Forgotten {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        encoder.encode_descriptor("never_seen", "Not registered", None, MetricType::Gauge)?;
        Ok(())
    }
}
"#,
            ),
            (
                "runtime/src/main.rs",
                r#"use prometheus_client::registry::Registry;

fn main() {
    let mut prom = <Registry>::default();
    index::pool::stats::register(prom.sub_registry_with_prefix("pool"), shared());
}
"#,
            ),
        ]);
        assert_eq!(
            rows,
            vec![
                "pool_evictions_total counter [namespace,reason] Entries evicted @index/src/pool/stats.rs:16",
                "pool_oldest_age_seconds gauge [] Age of the oldest @index/src/pool/stats.rs:26",
                "pool_pool_size gauge [] Entries in the pool @index/src/pool/stats.rs:14",
            ]
        );
        assert_eq!(
            d,
            vec![
                "index/src/pool/stats.rs:36: collector `Forgotten` is not registered anywhere the analysis follows (`register_collector`): its metrics are not listed"
            ]
        );
    }

    #[test]
    fn prometheus_crate_macros_and_constructors() {
        let (rows, d) = analyze(&[(
            "src/metrics.rs",
            r#"use lazy_static::lazy_static;
use prometheus::{opts, register_histogram_vec, register_int_counter, register_int_gauge_vec};
use prometheus::{Histogram, HistogramOpts, IntCounterVec, Opts};

lazy_static! {
    static ref RECONCILES: prometheus::IntCounter =
        register_int_counter!("knob_reconciles_total", "Reconciles run").unwrap();
    static ref QUEUE: prometheus::IntGaugeVec =
        register_int_gauge_vec!(opts!("queue_depth", "Items queued"), &["queue"]).unwrap();
}

pub fn make() -> IntCounterVec {
    let _h = register_histogram_vec!("knob_step_seconds", "Step time", &["step", LABEL]).unwrap();
    let _d = Histogram::with_opts(HistogramOpts::new("knob_wait_seconds", "Wait time")).unwrap();
    IntCounterVec::new(Opts::new("errors_total", "Errors").namespace("knob").subsystem("api"), &["code"]).unwrap()
}
"#,
        )]);
        assert_eq!(
            rows,
            vec![
                "knob_api_errors_total counter [code] Errors @src/metrics.rs:15",
                "knob_reconciles_total counter [] Reconciles run @src/metrics.rs:7",
                "knob_step_seconds histogram [step,?] Step time @src/metrics.rs:13",
                "knob_wait_seconds histogram [] Wait time @src/metrics.rs:14",
                "queue_depth gauge [queue] Items queued @src/metrics.rs:9",
            ]
        );
        assert_eq!(
            d,
            vec![
                "src/metrics.rs:13: cannot resolve a label name of this metric: it is not a string literal; it is shown as ?"
            ]
        );
    }
}
