//! External connections in Rust code: calls of a library's connecting function, matched by
//! the path `use` declarations resolve it to (`reqwest::get`, tonic's
//! `Channel::from_static`, `redis::Client::open`, sqlx pools' `connect`), and reqwest
//! `Client` requests on a client made in the same expression or held in a local
//! (`let c = reqwest::Client::new(); c.get(URL)`). The target is a string literal, the
//! constant start of a `format!`, or `std::env::var("X")`; anything else is unresolved
//! with its text, and a request to a URL built at run time is not listed.

use syn::Expr;

use super::syntax::{peel, str_lit, text};
use model::ConnectionTarget;

/// A connecting call in one function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawConnection {
    pub line: u32,
    pub kind: &'static str,
    /// The crate (`reqwest`, `tonic`).
    pub library: String,
    /// The call as resolved (`tonic::transport::Channel::from_static`).
    pub call: String,
    pub target: ConnectionTarget,
}

/// Connecting functions by resolved path: (path, kind, argument holding the target).
const FUNCTIONS: &[(&str, &str, usize)] = &[
    ("reqwest::get", "http", 0),
    ("reqwest::blocking::get", "http", 0),
    ("tonic::transport::Channel::from_static", "grpc", 0),
    ("tonic::transport::Channel::from_shared", "grpc", 0),
    ("tonic::transport::Endpoint::from_static", "grpc", 0),
    ("tonic::transport::Endpoint::from_shared", "grpc", 0),
    ("redis::Client::open", "redis", 0),
    ("sqlx::PgPool::connect", "sql", 0),
    ("sqlx::MySqlPool::connect", "sql", 0),
    ("sqlx::SqlitePool::connect", "sql", 0),
    ("sqlx::postgres::PgPool::connect", "sql", 0),
    ("sqlx::PgConnection::connect", "sql", 0),
];

/// reqwest `Client` request methods and the argument holding the URL.
const REQUESTS: &[(&str, usize)] = &[
    ("get", 0),
    ("post", 0),
    ("put", 0),
    ("patch", 0),
    ("delete", 0),
    ("head", 0),
    ("request", 1),
];

/// A call of a connecting function, by its resolved path.
pub fn of_call(resolved: &str, args: &[&Expr], line: u32) -> Option<RawConnection> {
    let (path, kind, at) = FUNCTIONS.iter().find(|(p, ..)| *p == resolved)?;
    let target = target_of(args.get(*at).copied()?);
    // A request to a URL made at run time is no fixed dependency.
    if *kind == "http" && matches!(target, ConnectionTarget::Unresolved { .. }) {
        return None;
    }
    Some(RawConnection {
        line,
        kind,
        library: path.split("::").next().unwrap_or_default().to_string(),
        call: path.to_string(),
        target,
    })
}

/// True when `resolved` makes a reqwest client (`reqwest::Client::new`, `…::builder`).
pub fn makes_reqwest_client(resolved: &str) -> bool {
    matches!(
        resolved,
        "reqwest::Client::new"
            | "reqwest::Client::builder"
            | "reqwest::blocking::Client::new"
            | "reqwest::blocking::Client::builder"
    )
}

/// A request method called on a reqwest client.
pub fn of_request(method: &str, args: &[&Expr], line: u32) -> Option<RawConnection> {
    let (_, at) = REQUESTS.iter().find(|(m, _)| *m == method)?;
    let target = target_of(args.get(*at).copied()?);
    if matches!(target, ConnectionTarget::Unresolved { .. }) {
        return None;
    }
    Some(RawConnection {
        line,
        kind: "http",
        library: "reqwest".to_string(),
        call: format!("reqwest::Client::{method}"),
        target,
    })
}

/// Where a target argument's value comes from.
fn target_of(arg: &Expr) -> ConnectionTarget {
    let e = peel(arg);
    if let Some(value) = str_lit(e) {
        return ConnectionTarget::Constant {
            value,
            prefix: false,
        };
    }
    match e {
        Expr::Macro(m) if m.mac.path.is_ident("format") => {
            let format = m
                .mac
                .parse_body_with(
                    syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated,
                )
                .ok()
                .and_then(|args| args.first().and_then(str_lit));
            if let Some(f) = format {
                match f.find('{') {
                    None => {
                        return ConnectionTarget::Constant {
                            value: f,
                            prefix: false,
                        };
                    }
                    Some(i) if i > 0 => {
                        return ConnectionTarget::Constant {
                            value: f[..i].to_string(),
                            prefix: true,
                        };
                    }
                    Some(_) => {}
                }
            }
        }
        Expr::Call(c) => {
            if let Expr::Path(p) = &*c.func {
                let path = text(&p.path).replace(' ', "");
                if matches!(path.as_str(), "std::env::var" | "env::var")
                    && let Some(name) = c.args.first().and_then(str_lit)
                {
                    return ConnectionTarget::Env { name };
                }
            }
        }
        Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "unwrap" | "expect" | "unwrap_or_default"
            ) =>
        {
            return target_of(&m.receiver);
        }
        _ => {}
    }
    ConnectionTarget::Unresolved {
        expression: text(arg),
    }
}

#[cfg(test)]
mod tests;
