//! Reading metrics from Rust syntax: registry types and constructors, metric types and
//! units, and the options and labels of the `prometheus` crate's constructors.

use syn::punctuated::Punctuated;
use syn::{Expr, GenericArgument, PathArguments, Token, Type};

use super::facts::RawType;
use crate::syntax::{str_lit, text, too_deep};

/// The span of a macro's name, for its line.
pub(super) fn name_span(mac: &syn::Macro) -> proc_macro2::Span {
    mac.path
        .segments
        .last()
        .map(|s| s.ident.span())
        .unwrap_or_else(proc_macro2::Span::call_site)
}

/// Strips references, dereferences, parentheses, `.clone()`, `?` and `.await`.
pub(super) fn peel(mut e: &Expr) -> &Expr {
    for _ in 0..64 {
        e = match e {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => &u.expr,
            _ => {
                let p = crate::syntax::peel(e);
                if std::ptr::eq(p, e) {
                    return e;
                }
                p
            }
        };
    }
    e
}

pub(super) fn is_registry_type(ty: &Type) -> bool {
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
pub(super) fn is_registry_constructor(c: &syn::ExprCall) -> bool {
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
pub(super) fn type_of_type(ty: &Type) -> Option<RawType> {
    match ty {
        Type::Path(p) => type_of_segment(p.path.segments.last()?),
        Type::Reference(r) => type_of_type(&r.elem),
        _ => None,
    }
}

pub(super) fn type_of_segment(s: &syn::PathSegment) -> Option<RawType> {
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
pub(super) fn unit_of(e: &Expr) -> Result<String, String> {
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
pub(super) fn classic_macro_kind(name: &str) -> Option<&'static str> {
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
pub(super) fn classic_type(name: &str) -> Option<(&'static str, bool)> {
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
pub(super) struct Opts {
    /// `None`: not a string literal.
    pub(super) name: Option<String>,
    pub(super) help: Result<String, String>,
    /// `None`: not set; `Some(None)`: set to something that is not a literal.
    pub(super) namespace: Option<Option<String>>,
    pub(super) subsystem: Option<Option<String>>,
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
pub(super) fn opts_of(e: &Expr) -> Opts {
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
pub(super) fn labels_of(e: &Expr) -> Vec<Option<String>> {
    match peel(e) {
        Expr::Array(a) => a.elems.iter().map(str_lit).collect(),
        _ => vec![None],
    }
}
