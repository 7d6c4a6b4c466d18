//! Serving the written site folder over HTTP: request paths to files (never outside the
//! folder), content types, validators (ETag, Last-Modified → 304), the site's 404 page,
//! and the live-reload script added to HTML responses.
//!
//! **Invariant:** a response body is either a file whose canonical path is under the
//! canonical site root, the site's own 404 page, or a short fixed text. Request paths are
//! percent-decoded once; `..`/`.` segments, empty segments, backslashes, NUL and invalid
//! UTF-8 are refused before the file system is asked anything.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, Request, StatusCode, header};
use axum::response::Response;

use super::reload;

/// What the router needs to answer a request for a site file.
pub struct SiteFiles {
    /// The output folder, canonicalized once at start (it is replaced, never moved).
    pub root: PathBuf,
    /// The path part of `base_url` (`/` or `/atlas/`): requests under it map to the root.
    /// Replaced when an edit of projects.toml changes `base_url`.
    pub base_path: std::sync::RwLock<String>,
    /// Whether HTML responses get the live-reload script (serve mode only).
    pub inject_reload: bool,
}

/// Where a request path leads, decided without reading any file.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    /// A path relative to the root, as checked segments (empty: the root itself).
    Path {
        segments: Vec<String>,
        trailing_slash: bool,
    },
    /// Malformed or dangerous: `..`, backslash, NUL, bad encoding.
    BadRequest,
}

/// Maps a raw (percent-encoded) request path to segments under the site root.
pub fn target(raw_path: &str, base_path: &str) -> Target {
    let Ok(decoded) = percent_encoding::percent_decode_str(raw_path).decode_utf8() else {
        return Target::BadRequest;
    };
    if !decoded.starts_with('/') || decoded.contains(['\\', '\0']) {
        return Target::BadRequest;
    }
    // The site's pages link under base_url's path; the same files are also served at `/`.
    let prefix = base_path.trim_end_matches('/');
    let local = match decoded.strip_prefix(prefix) {
        Some(rest) if !prefix.is_empty() && (rest.is_empty() || rest.starts_with('/')) => rest,
        _ => &decoded[..],
    };
    // `/atlas` (no slash) is the root folder asked for without its slash: redirected.
    let trailing_slash = local.ends_with('/');
    let inner = local.trim_start_matches('/').trim_end_matches('/');
    // `//etc/passwd` and the like: only the leading slash may be doubled away by nothing.
    if local.starts_with("//") {
        return Target::BadRequest;
    }
    let mut segments = Vec::new();
    if !inner.is_empty() {
        for segment in inner.split('/') {
            if segment.is_empty() || segment == "." || segment == ".." || segment.contains(':') {
                return Target::BadRequest;
            }
            segments.push(segment.to_string());
        }
    }
    Target::Path {
        segments,
        trailing_slash,
    }
}

/// A file found for a request.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    File(PathBuf),
    /// A folder asked for without its slash: redirect to the slash form.
    Folder,
    Missing,
}

/// Looks a checked target up under the canonical root; a path whose canonical form
/// leaves the root (a symbolic link pointing out) is not found.
pub fn find(root: &Path, segments: &[String], trailing_slash: bool) -> Found {
    let mut path = root.to_path_buf();
    for s in segments {
        path.push(s);
    }
    let Ok(canonical) = std::fs::canonicalize(&path) else {
        return Found::Missing;
    };
    if !canonical.starts_with(root) {
        return Found::Missing;
    }
    if canonical.is_dir() {
        if !trailing_slash {
            return Found::Folder;
        }
        return match std::fs::canonicalize(canonical.join("index.html")) {
            Ok(index) if index.starts_with(root) && index.is_file() => Found::File(index),
            _ => Found::Missing,
        };
    }
    if trailing_slash && !segments.is_empty() {
        return Found::Missing;
    }
    if canonical.is_file() {
        Found::File(canonical)
    } else {
        Found::Missing
    }
}

/// The content type for a file name, by extension (a small table: what a site holds).
pub fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "mmd" | "txt" | "md" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        _ => "application/octet-stream",
    }
}

/// Answers one request for a site file (everything except the reserved paths).
pub async fn serve_file(files: Arc<SiteFiles>, request: Request<Body>) -> Response {
    let head = request.method() == Method::HEAD;
    if request.method() != Method::GET && !head {
        let mut r = text(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n");
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let raw = request.uri().path().to_string();
    let base_path = match files.base_path.read() {
        Ok(path) => path.clone(),
        Err(_) => return text(StatusCode::INTERNAL_SERVER_ERROR, "server error\n"),
    };
    let (segments, trailing_slash) = match target(&raw, &base_path) {
        Target::Path {
            segments,
            trailing_slash,
        } => (segments, trailing_slash),
        Target::BadRequest => return text(StatusCode::BAD_REQUEST, "bad request\n"),
    };
    let root = files.root.clone();
    let found = tokio::task::spawn_blocking(move || find(&root, &segments, trailing_slash))
        .await
        .unwrap_or(Found::Missing);
    let response = match found {
        Found::File(path) => file_response(&files, &path, request.headers(), StatusCode::OK).await,
        Found::Folder => redirect(&format!("{raw}/")),
        Found::Missing => not_found(&files).await,
    };
    if head {
        let (parts, _) = response.into_parts();
        return Response::from_parts(parts, Body::empty());
    }
    response
}

async fn not_found(files: &SiteFiles) -> Response {
    let page = files.root.join("404.html");
    match tokio::fs::read(&page).await {
        Ok(bytes) => body_response(files, &page, bytes, StatusCode::NOT_FOUND, HeaderMap::new()),
        Err(_) => text(StatusCode::NOT_FOUND, "not found\n"),
    }
}

async fn file_response(
    files: &SiteFiles,
    path: &Path,
    request: &HeaderMap,
    status: StatusCode,
) -> Response {
    let Ok(meta) = tokio::fs::metadata(path).await else {
        return not_found(files).await;
    };
    let modified = meta.modified().unwrap_or(UNIX_EPOCH);
    let nanos = modified
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let html = content_type(path).starts_with("text/html") && files.inject_reload;
    let etag = format!(
        "\"{:x}-{nanos:x}{}\"",
        meta.len(),
        if html { "-r" } else { "" }
    );
    let mut headers = HeaderMap::new();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, v);
    }
    if let Ok(v) = HeaderValue::from_str(&httpdate::fmt_http_date(modified)) {
        headers.insert(header::LAST_MODIFIED, v);
    }
    if not_modified(request, &etag, modified) {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r.headers_mut().extend(headers);
        return r;
    }
    match tokio::fs::read(path).await {
        Ok(bytes) => body_response(files, path, bytes, status, headers),
        Err(_) => not_found(files).await,
    }
}

/// If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
fn not_modified(request: &HeaderMap, etag: &str, modified: SystemTime) -> bool {
    if let Some(v) = request.get(header::IF_NONE_MATCH) {
        let Ok(list) = v.to_str() else { return false };
        return list.split(',').any(|t| {
            let t = t.trim();
            t == "*" || t.trim_start_matches("W/") == etag
        });
    }
    if let Some(since) = request
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| httpdate::parse_http_date(v).ok())
    {
        // HTTP dates have whole seconds.
        let secs = |t: SystemTime| t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        return secs(modified) <= secs(since);
    }
    false
}

fn body_response(
    files: &SiteFiles,
    path: &Path,
    bytes: Vec<u8>,
    status: StatusCode,
    headers: HeaderMap,
) -> Response {
    let kind = content_type(path);
    let bytes = if files.inject_reload && kind.starts_with("text/html") {
        reload::inject(bytes)
    } else {
        bytes
    };
    let length = HeaderValue::from(bytes.len());
    let mut r = Response::new(Body::from(bytes));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.extend(headers);
    // Stated here so that HEAD, whose body is dropped, still reports the length.
    h.insert(header::CONTENT_LENGTH, length);
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    // A preview: always revalidate, so an edit shows on the next load.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

fn text(status: StatusCode, body: &'static str) -> Response {
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

fn redirect(location: &str) -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = StatusCode::MOVED_PERMANENTLY;
    if let Ok(v) = HeaderValue::from_str(location) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

#[cfg(test)]
mod tests;
