//! Which `Host` a request to the preview may name. A page on another site can have its
//! name resolve to 127.0.0.1 (DNS rebinding) and then read the preview as its own origin;
//! such a request still names that site in `Host`. So only the names of this machine's
//! loopback (`localhost`, `*.localhost`) and IP addresses are answered: a rebinding page
//! cannot make a browser send either for its own origin.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Whether a request's `Host` header names this machine (see the module comment). A
/// request without one (HTTP/1.0, a script) is no browser's and is answered.
pub fn allowed(host: Option<&str>) -> bool {
    let Some(host) = host else {
        return true;
    };
    let name = match host.strip_prefix('[') {
        // `[::1]:8000`: an IPv6 literal is bracketed.
        Some(rest) => match rest.split_once(']') {
            Some((v6, port)) if port.is_empty() || port.strip_prefix(':').is_some_and(is_port) => {
                return v6.parse::<std::net::Ipv6Addr>().is_ok();
            }
            _ => return false,
        },
        None => match host.rsplit_once(':') {
            Some((name, port)) if is_port(port) => name,
            Some(_) => return false,
            None => host,
        },
    };
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<std::net::Ipv4Addr>().is_ok()
}

/// A port number as written after the colon.
fn is_port(p: &str) -> bool {
    !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
}

/// Refuses a request whose `Host` is not this machine's with 421 Misdirected Request.
pub async fn check(request: Request<Body>, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("\u{0}"));
    if allowed(host) {
        return next.run(request).await;
    }
    (
        StatusCode::MISDIRECTED_REQUEST,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "The preview answers requests for localhost or an IP address only: open it as http://127.0.0.1:PORT/ or http://localhost:PORT/.\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests;
