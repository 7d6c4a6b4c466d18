//! Accepting connections: each is served by hyper's HTTP/1.1 connection with a deadline
//! for reading a request's head, so a connection that sends nothing, sends its request
//! slowly, or sits idle between requests is closed. The deadline runs only while a request
//! head is awaited: a response in progress (the reload event stream) is never cut.
//!
//! (`axum::serve` sets no timer, and hyper keeps no deadline without one: an idle
//! connection stayed open for as long as the client wished.)

use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

/// How long a client has to send a whole request head, counted from the moment the
/// connection is ready for one: a browser sends it at once, and reconnects when a
/// keep-alive connection it left idle is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `app` on every connection `listener` accepts, until the runtime stops.
pub async fn serve(listener: TcpListener, app: Router) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was accepted: wait a
            // little rather than spin, then go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            // A connection's error (a timeout, a reset, a malformed request) ends only it.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
