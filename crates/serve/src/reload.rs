//! Live reload: the server-sent-event stream at [`EVENTS_PATH`] and the small script that
//! listens to it, added to HTML responses in serve mode only (never to the written site).
//!
//! A good rebuild sends `reload` (its data: the rebuild's generation number); once
//! `/api/search` answers from that rebuild's pages, `search` follows with the same number
//! (the page needs nothing from it; tests and benchmarks wait for it). A failed
//! rebuild sends `build-error` with the message as a JSON string, which the script shows as text (`textContent`, so never as markup) over
//! the page while the last good site keeps being served. A browser that connects while
//! the last rebuild is failed gets that error at once.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use tokio::sync::broadcast;

/// The reserved path of the event stream (outside any site path a page can have, since
/// site paths never start with `__`).
pub const EVENTS_PATH: &str = "/__portolan/events";

const SCRIPT: &str = r#"<script>(function(){
window.PORTOLAN_SEARCH_API="/api/search";
var es=new EventSource("/__portolan/events");
es.addEventListener("reload",function(){location.reload();});
es.addEventListener("build-error",function(e){
var m;try{m=JSON.parse(e.data);}catch(_){m=String(e.data);}
var b=document.getElementById("portolan-build-error");
if(!b){b=document.createElement("pre");b.id="portolan-build-error";b.setAttribute("role","alert");
b.style.cssText="position:fixed;inset:0;z-index:2147483647;margin:0;padding:2rem;overflow:auto;background:rgba(40,0,0,.94);color:#fff;font:14px/1.5 monospace;white-space:pre-wrap";
document.body.appendChild(b);}
b.textContent="portolan: the last rebuild failed; the last good site is shown.\n\n"+m;});
})();</script>
"#;

/// Adds the reload script just before the last `</body>` (at the end if there is none).
pub fn inject(mut html: Vec<u8>) -> Vec<u8> {
    let needle = b"</body>";
    let at = html
        .windows(needle.len())
        .rposition(|w| w.eq_ignore_ascii_case(needle))
        .unwrap_or(html.len());
    html.splice(at..at, SCRIPT.bytes());
    html
}

/// What a rebuild tells the browsers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signal {
    /// The pages of rebuild number N are written.
    Reload(u64),
    /// `/api/search` answers from the pages of rebuild number N.
    Searchable(u64),
    BuildError(String),
}

/// Fans rebuild results out to every connected browser.
pub struct Reloader {
    sender: broadcast::Sender<Signal>,
    /// The error of the last rebuild, if it failed, for browsers that connect later.
    failing: Mutex<Option<String>>,
}

impl Reloader {
    pub fn new() -> Arc<Reloader> {
        let (sender, _) = broadcast::channel(16);
        Arc::new(Reloader {
            sender,
            failing: Mutex::new(None),
        })
    }

    pub fn send(&self, signal: Signal) {
        if let Ok(mut failing) = self.failing.lock() {
            match &signal {
                Signal::Reload(_) => *failing = None,
                Signal::BuildError(e) => *failing = Some(e.clone()),
                // An earlier good rebuild's index says nothing of the last rebuild.
                Signal::Searchable(_) => {}
            }
        }
        // No receiver (no browser open) is fine.
        let _ = self.sender.send(signal);
    }

    /// The event stream for one browser.
    pub fn events(&self) -> Sse<impl Stream<Item = Result<Event, Infallible>> + use<>> {
        let first = self
            .failing
            .lock()
            .ok()
            .and_then(|f| f.clone())
            .map(Signal::BuildError);
        let receiver = self.sender.subscribe();
        let stream =
            futures_util::stream::unfold((first, receiver), |(pending, mut receiver)| async move {
                if let Some(signal) = pending {
                    return Some((Ok(event(&signal)), (None, receiver)));
                }
                loop {
                    match receiver.recv().await {
                        Ok(signal) => return Some((Ok(event(&signal)), (None, receiver))),
                        // A slow browser missed some signals: the newest state still
                        // arrives, so go on.
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(broadcast::error::RecvError::Closed) => return None,
                    }
                }
            });
        Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
    }
}

fn event(signal: &Signal) -> Event {
    match signal {
        Signal::Reload(n) => Event::default().event("reload").data(n.to_string()),
        Signal::Searchable(n) => Event::default().event("search").data(n.to_string()),
        Signal::BuildError(message) => Event::default()
            .event("build-error")
            .data(serde_json::to_string(message).unwrap_or_else(|_| "\"build failed\"".into())),
    }
}

#[cfg(test)]
mod tests;
