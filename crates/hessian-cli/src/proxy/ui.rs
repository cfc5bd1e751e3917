//! `hessian proxy --ui ADDR`: the browser view. The binary serves one page (`ui/index.html`,
//! `ui/app.js`, embedded) and one JSON endpoint, `GET /api/calls?after=ID`, the calls after
//! `ID` (oldest first), which the page polls every second. Loopback only unless `--ui-open`;
//! without it, a request whose `Host` is not a loopback name is refused too (DNS rebinding).

use super::relay::{request_head, Reader};
use crate::CliError;
use serde_json::Value as Json;
use std::collections::VecDeque;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

const INDEX_HTML: &str = include_str!("ui/index.html");
const APP_JS: &str = include_str!("ui/app.js");
/// Calls sent per answer of `/api/calls` (the page asks again for the rest).
const PAGE: usize = 200;
/// Largest JSON of one call the view keeps whole; a larger one keeps its summary only.
const MAX_CALL_JSON: usize = 1024 * 1024;

/// The address of `--ui`, refused when it is not loopback and `--ui-open` is absent.
pub fn check_address(addr: &str, open: bool) -> Result<SocketAddr, CliError> {
    let resolved = addr
        .to_socket_addrs()
        .map_err(|e| CliError::Usage(format!("--ui {addr:?}: {e}")))?
        .next()
        .ok_or_else(|| CliError::Usage(format!("--ui {addr:?}: no address")))?;
    if !resolved.ip().is_loopback() && !open {
        return Err(CliError::Usage(format!(
            "--ui {addr}: not a loopback address; the view shows every call's arguments and replies to whoever \
             reaches it: add --ui-open to serve it there anyway"
        )));
    }
    Ok(resolved)
}

/// The calls the view shows: the latest `keep`, as the JSON the page reads.
pub struct Store {
    calls: Mutex<VecDeque<(u64, Arc<String>)>>,
    keep: usize,
}

impl Store {
    /// An empty store keeping at most `keep` calls.
    pub fn new(keep: usize) -> Store {
        Store { calls: Mutex::new(VecDeque::new()), keep: keep.max(1) }
    }

    /// Adds a call (its JSON with dumps). A call whose JSON exceeds [`MAX_CALL_JSON`] keeps its
    /// summary (method, status, sizes, …) without the decoded bodies and dumps, and says so.
    pub fn push(&self, id: u64, mut call: Json) {
        let mut text = call.to_string();
        if text.len() > MAX_CALL_JSON {
            for side in ["request", "reply"] {
                if let Some(part) = call.get_mut(side).and_then(Json::as_object_mut) {
                    for key in ["json", "dump", "hex", "head"] {
                        part.remove(key);
                    }
                }
            }
            call["view_note"] = Json::from(format!(
                "{} bytes of JSON: too large for the view, which shows its summary only (--record keeps it whole)",
                text.len()
            ));
            text = call.to_string();
        }
        let text = Arc::new(text);
        let mut calls = self.calls.lock().unwrap_or_else(|p| p.into_inner());
        calls.push_back((id, text));
        while calls.len() > self.keep {
            calls.pop_front();
        }
    }

    /// A JSON array of the calls with an id above `after`, oldest first, at most [`PAGE`].
    fn after(&self, after: u64) -> String {
        let calls = self.calls.lock().unwrap_or_else(|p| p.into_inner());
        let texts: Vec<&str> = calls.iter().filter(|(id, _)| *id > after).take(PAGE).map(|(_, t)| t.as_str()).collect();
        format!("[{}]", texts.join(","))
    }
}

/// Binds `addr` and serves the view in the background; returns the bound address.
pub async fn serve(addr: SocketAddr, open: bool, store: Arc<Store>) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            tokio::spawn(answer(stream, open, store.clone()));
        }
    });
    Ok(local)
}

/// Whether a `Host` value names the loopback interface.
fn loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(h, _)| h),
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Answers one request and closes the connection.
async fn answer(stream: tokio::net::TcpStream, open: bool, store: Arc<Store>) {
    let (r, mut w) = stream.into_split();
    let mut reader = Reader::new(r, Duration::from_secs(10));
    let Ok(Some(raw)) = reader.head().await else { return };
    let (status, kind, body): (&str, &str, std::borrow::Cow<'static, str>) = match request_head(&raw) {
        Err(_) => ("400 Bad Request", "text/plain", "bad request\n".into()),
        Ok(h) if !open && !h.field("host").is_some_and(loopback_host) => {
            ("403 Forbidden", "text/plain", "the proxy's view answers loopback host names only (--ui-open)\n".into())
        }
        Ok(h) if h.method != "GET" => ("405 Method Not Allowed", "text/plain", "GET only\n".into()),
        Ok(h) => {
            let (path, query) = h.target.split_once('?').unwrap_or((h.target.as_str(), ""));
            match path {
                "/" | "/index.html" => ("200 OK", "text/html; charset=utf-8", INDEX_HTML.into()),
                "/app.js" => ("200 OK", "text/javascript; charset=utf-8", APP_JS.into()),
                "/api/calls" => {
                    let after = query
                        .split('&')
                        .find_map(|kv| kv.strip_prefix("after="))
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0);
                    ("200 OK", "application/json", store.after(after).into())
                }
                _ => ("404 Not Found", "text/plain", "not found\n".into()),
            }
        }
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n\
         Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    let _ = w.write_all(head.as_bytes()).await;
    let _ = w.write_all(body.as_bytes()).await;
    let _ = w.flush().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_unless_opened() {
        assert!(check_address("127.0.0.1:0", false).is_ok());
        assert!(check_address("[::1]:0", false).is_ok());
        assert!(check_address("0.0.0.0:0", false).is_err());
        assert!(check_address("0.0.0.0:0", true).is_ok());
        for h in ["127.0.0.1:8090", "localhost", "[::1]:80", "LOCALHOST:1"] {
            assert!(loopback_host(h), "{h}");
        }
        for h in ["evil.example:8090", "10.0.0.1", "127.0.0.1.evil.example"] {
            assert!(!loopback_host(h), "{h}");
        }
    }

    #[test]
    fn the_store_keeps_the_latest_and_pages() {
        let s = Store::new(2);
        for id in 1..=3 {
            s.push(id, serde_json::json!({"id": id}));
        }
        assert_eq!(s.after(0), r#"[{"id":2},{"id":3}]"#);
        assert_eq!(s.after(2), r#"[{"id":3}]"#);
        assert_eq!(s.after(3), "[]");
        s.push(
            4,
            serde_json::json!({"id": 4, "method": "big", "request": {"bytes": 1, "json": "x".repeat(MAX_CALL_JSON)}}),
        );
        let kept: Json = serde_json::from_str(&s.after(3)).unwrap();
        assert_eq!(kept[0]["method"], "big");
        assert!(kept[0]["request"].get("json").is_none() && kept[0]["view_note"].is_string(), "{kept}");
    }
}
