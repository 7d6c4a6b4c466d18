//! Per file: a syn visitor that records each registration, registry call, descriptor
//! and collector, with the types, units, options and labels it can read.

use proc_macro2::{TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Expr, FnArg, ImplItem, Item, Pat, Token, Type};

use super::exprs::{
    Opts, classic_macro_kind, classic_type, is_registry_constructor, is_registry_type, labels_of,
    name_span, opts_of, peel, type_of_segment, type_of_type, unit_of,
};
use super::facts::{
    FnKey, MetricFacts, RawCollector, RawDescriptor, RawRegistration, RawType, RegBase, RegRef,
    RegistryCall,
};
use crate::attrs;
use crate::syntax::{line, str_lit, text, too_deep};
use crate::uses::{Uses, segments};
use model::{Area, Diagnostic, Metric, SourceRef, UNRESOLVED};

/// How many local bindings an expression is followed through.
const MAX_HOPS: usize = 8;

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
            api: String::new(),
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
