//! A third implementation of the type negotiation extension (`docs/negotiation.md`): the
//! JavaScript client `interop/peers/node_negotiating_client.js` on hessian.js, written from the
//! specification. It checks the test vectors, then makes self-checked W2 calls against the Rust
//! server (maps learned, referring calls and replies, one resend after a restart, a one-map
//! cache) and the Java server (the same, and Caucho's plain skeleton taking its place), the
//! servers' execution counts equal to the calls. The servers' refusal is the vector's byte for
//! byte. Skips without Node.js (or Java) locally; fails under CI.

mod common;

use common::JavaServer;
use hessian_demo::{demo_builder, Executions};
use hessian_rpc::negotiation::TypeMapConfig;
use hessian_rpc::{HessianServer, RunningServer};
use hessian_testkit::java::{java, repo_root};
use hessian_testkit::peers::{hessian_js, Peer};
use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::Arc;

const W2_DIGEST: &str = "35d4fe6759ac6b9273edfd82306e1898";

fn client() -> Option<Peer> {
    hessian_js().map(|p| p.with_script("node_negotiating_client.js"))
}

/// The client's `summary` line.
fn summary(out: &str) -> Json {
    let line = out.lines().find(|l| l.contains("\"summary\"")).unwrap_or_else(|| panic!("no summary in:\n{out}"));
    serde_json::from_str(line).expect("summary JSON")
}

fn count(s: &Json, key: &str) -> u64 {
    s[key].as_u64().unwrap_or_else(|| panic!("no {key} in {s}"))
}

/// The Rust demo server (`/bench`) with `maps`, counting executions in `executions`.
struct RustServer {
    rt: tokio::runtime::Runtime,
    server: HessianServer,
    running: Option<RunningServer>,
    executions: Arc<Executions>,
}

impl RustServer {
    fn start(maps: TypeMapConfig) -> RustServer {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let executions = Arc::new(Executions::default());
        let server = demo_builder(&executions).type_maps(maps).build();
        let running = rt.block_on(server.clone().bind("127.0.0.1:0")).expect("bind");
        RustServer { rt, server, running: Some(running), executions }
    }

    fn addr(&self) -> SocketAddr {
        self.running.as_ref().expect("running").local_addr()
    }

    fn url(&self) -> String {
        format!("http://{}/bench", self.addr())
    }

    /// Stops the server and starts a fresh one (an empty cache, the same counts) on its address.
    fn restart(&mut self) {
        let addr = self.addr();
        if let Some(r) = self.running.take() {
            self.rt.block_on(r.shutdown());
        }
        self.server = demo_builder(&self.executions).build();
        self.running = Some(common::bind_again(&self.rt, &self.server, addr));
    }
}

impl Drop for RustServer {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            self.rt.block_on(r.shutdown());
        }
    }
}

/// Runs the client's `restart` command: half the calls, then `between` (which restarts or
/// replaces the server), then the other half; returns the client's output after the pause.
fn restart_run(client: &Peer, url: &str, calls: u64, between: impl FnOnce()) -> String {
    restart_run_with(client, url, calls, &[], between)
}

/// [`restart_run`] with environment variables for the client.
fn restart_run_with(client: &Peer, url: &str, calls: u64, env: &[(&str, &str)], between: impl FnOnce()) -> String {
    let mut child = client
        .command(&["restart", url, &calls.to_string()])
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the client");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout"));
    loop {
        let mut l = String::new();
        assert!(lines.read_line(&mut l).unwrap() > 0, "the client ended before PAUSE");
        if l.trim() == "PAUSE" {
            break;
        }
    }
    between();
    child.stdin.take().expect("stdin").write_all(b"go\n").unwrap();
    let mut after = String::new();
    lines.read_to_string(&mut after).unwrap();
    assert!(child.wait().unwrap().success(), "the client failed:\n{after}");
    after
}

/// POSTs `body` to `url` (`http://host:port/path`) and returns the status, the headers
/// (lower-case names) and the body (both servers send a `Content-Length`).
fn post(url: &str, body: &[u8]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (host, path) = rest.split_at(rest.find('/').expect("a path"));
    let mut s = std::net::TcpStream::connect(host).expect("connect");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: x-application/hessian\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("end of the head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|c| c.parse().ok()).expect("status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, raw[split + 4..].to_vec())
}

/// The hex of the vectors' message `name`, as bytes.
fn vector_message(name: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(repo_root().join("docs/negotiation-vectors.json")).expect("vectors");
    let doc: Json = serde_json::from_str(&text).expect("JSON");
    let m = doc["messages"].as_array().unwrap().iter().find(|m| m["name"] == name).expect("message");
    let hex = m["hex"].as_str().unwrap();
    (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect()
}

#[test]
fn js_client_agrees_with_the_vectors() {
    let Some(client) = client() else { return };
    let path = repo_root().join("docs/negotiation-vectors.json");
    let out = client.run(&["vectors", path.to_str().unwrap()], "");
    let maps = out.lines().filter(|l| l.starts_with("ok map ")).count();
    let messages = out.lines().filter(|l| l.starts_with("ok message ")).count();
    assert_eq!((maps, messages), (8, 5), "{out}");
    assert!(out.contains("ok w2 calls written\n"), "hessian.js writes the vectors' W2 calls: {out}");
}

#[test]
fn js_client_to_rust_server_refers_after_the_first_call() {
    let Some(client) = client() else { return };
    let server = RustServer::start(TypeMapConfig::default());
    let calls: u64 = 300;
    let s = summary(&client.run(&["w2", &server.url(), &calls.to_string()], ""));
    assert_eq!(s["support"], "aware", "{s}");
    assert_eq!((count(&s, "plain"), count(&s, "referring"), count(&s, "resends")), (1, calls - 1, 0), "{s}");
    assert_eq!(s["request_sizes"], serde_json::json!({ "578": 1, "228": calls - 1 }), "{s}");
    assert_eq!(count(&s, "referring_replies"), calls - 1, "the server refers to its reply map: {s}");
    assert_eq!(s["reply_sizes"], serde_json::json!({ "543": 1, "193": calls - 1 }), "{s}");
    assert_eq!(server.executions.exchange(), calls, "every call ran once");
    let st = server.server.type_map_stats();
    assert_eq!((st.referring_calls, st.referring_replies, st.unknown_type_map, st.maps), (calls - 1, calls - 1, 0, 1));
}

#[test]
fn js_client_resends_once_to_a_restarted_rust_server() {
    let Some(client) = client() else { return };
    let mut server = RustServer::start(TypeMapConfig::default());
    let calls: u64 = 40;
    let url = server.url();
    let after = restart_run(&client, &url, calls, || server.restart());
    let s = summary(&after);
    assert_eq!((count(&s, "unknown_type_map"), count(&s, "resends"), count(&s, "fallbacks")), (1, 1, 0), "{s}");
    assert_eq!((count(&s, "plain"), count(&s, "referring")), (2, calls - 1), "the first call and the resend: {s}");
    assert_eq!(server.executions.exchange(), calls, "the refused call ran nothing");
    let st = server.server.type_map_stats();
    assert_eq!((st.unknown_type_map, st.referring_calls), (1, calls / 2 - 1), "{st:?}");
}

#[test]
fn js_client_with_a_one_map_rust_server_runs_every_call_once() {
    let Some(client) = client() else { return };
    let mut maps = TypeMapConfig::default();
    maps.max_maps = 1;
    let server = RustServer::start(maps);
    let rounds: u64 = 40;
    // exchange and getItems(10) alternate: getItems' reply map evicts exchange's map, so each
    // later exchange is refused once and resent
    let s = summary(&client.run(&["alternate", &server.url(), &rounds.to_string()], ""));
    let st = server.server.type_map_stats();
    assert_eq!(count(&s, "unknown_type_map"), rounds - 1, "{s}");
    assert_eq!((count(&s, "resends"), st.unknown_type_map), (rounds - 1, rounds - 1), "{s} {st:?}");
    assert_eq!((server.executions.exchange(), server.executions.get_items()), (rounds, rounds), "once per call");
}

#[test]
fn js_client_to_java_server_refers_and_resends_with_a_one_map_cache() {
    let Some(client) = client() else { return };
    let Some(java) = java() else { return };
    let server = JavaServer::start_class(&java, "NegotiatingServer", &["0"]);
    let calls: u64 = 200;
    let s = summary(&client.run(&["w2", &server.url("/bench"), &calls.to_string()], ""));
    assert_eq!((count(&s, "plain"), count(&s, "referring"), count(&s, "referring_replies")), (1, calls - 1, calls - 1));
    assert_eq!(s["request_sizes"], serde_json::json!({ "578": 1, "228": calls - 1 }), "{s}");
    let st = server.stats();
    assert_eq!((&st["executions"], &st["referring_calls"]), (&calls.to_string(), &(calls - 1).to_string()), "{st:?}");
    assert_eq!(st["errors"], "0", "{st:?}");

    let one_map = JavaServer::start_class(&java, "NegotiatingServer", &["0", "1"]);
    let rounds: u64 = 30;
    let s = summary(&client.run(&["alternate", &one_map.url("/bench"), &rounds.to_string()], ""));
    assert_eq!((count(&s, "unknown_type_map"), count(&s, "resends")), (rounds - 1, rounds - 1), "{s}");
    let st = one_map.stats();
    assert_eq!(st["executions"], (2 * rounds).to_string(), "exactly once per call: {st:?}");
    assert_eq!(st["unknown_type_map"], (rounds - 1).to_string(), "{st:?}");
}

/// A negotiating Java server replaced by Caucho's plain skeleton on the same port: the referring
/// call is refused at its `T`, resent plain once, and the client stays plain.
#[test]
fn js_client_falls_back_once_to_a_plain_caucho_server() {
    let Some(client) = client() else { return };
    let Some(java) = java() else { return };
    let server = JavaServer::start_class(&java, "NegotiatingServer", &["0"]);
    let port = server.port;
    let calls: u64 = 20;
    let mut plain = None;
    let after = restart_run(&client, &server.url("/bench"), calls, || {
        drop(server);
        plain = Some(JavaServer::start_on(&java, "RpcJavaServer", port, &[]));
    });
    let s = summary(&after);
    assert_eq!(s["support"], "plain", "{s}");
    assert_eq!((count(&s, "fallbacks"), count(&s, "resends"), count(&s, "unknown_type_map")), (1, 1, 0), "{s}");
    assert_eq!(count(&s, "referring"), calls / 2, "{s}");
}

/// Type maps off: the server ignores the offer.
fn plain_config() -> TypeMapConfig {
    let mut c = TypeMapConfig::default();
    c.enabled = false;
    c
}

/// An endpoint that ignored the offer is called plain, and offered the extension again once the
/// client's re-probe interval has passed (here at once): a Rust server without type maps,
/// replaced on its address by one with them, is then spoken to in 2.1.
#[test]
fn js_client_offers_again_to_an_endpoint_it_found_plain() {
    let Some(client) = client() else { return };
    let mut server = RustServer::start(plain_config());
    let calls: u64 = 20;
    let url = server.url();
    let after = restart_run_with(&client, &url, calls, &[("REPROBE_AFTER_MS", "0")], || server.restart());
    let s = summary(&after);
    assert_eq!(s["support"], "aware", "{s}");
    // the first call after the restart establishes the map, every later one refers to it
    assert_eq!(count(&s, "referring"), calls / 2 - 1, "{s}");
    assert_eq!((count(&s, "resends"), count(&s, "unknown_type_map")), (0, 0), "{s}");
    assert_eq!(server.executions.exchange(), calls, "every call ran once");
}

/// Without the interval passed, the client stays plain: the restarted server is never offered
/// the extension (the default interval is five minutes).
#[test]
fn js_client_stays_plain_within_the_reprobe_interval() {
    let Some(client) = client() else { return };
    let mut server = RustServer::start(plain_config());
    let calls: u64 = 10;
    let url = server.url();
    let after = restart_run(&client, &url, calls, || server.restart());
    let s = summary(&after);
    assert_eq!(s["support"], "plain", "{s}");
    assert_eq!(count(&s, "referring"), 0, "{s}");
    assert_eq!(server.executions.exchange(), calls, "every call ran once");
}

/// Both servers answer a referring call to a map they do not have with the vectors' refusal.
#[test]
fn servers_refuse_with_the_vector_bytes() {
    let call = vector_message("w2-referring-call");
    let refusal = vector_message("w2-refusal");
    let check = |url: &str| {
        let (status, headers, body) = post(url, &call);
        assert_eq!(status, 200, "{url}");
        assert!(body == refusal, "{url}: {}", String::from_utf8_lossy(&body));
        let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        assert_eq!(header("hessian-type-map-unknown"), Some(W2_DIGEST), "{url}: {headers:?}");
        assert_eq!(header("hessian-type-maps"), Some("1"), "{url}: {headers:?}");
    };
    let server = RustServer::start(TypeMapConfig::default());
    check(&server.url());
    assert_eq!(server.executions.total(), 0);
    let Some(java) = java() else { return };
    let server = JavaServer::start_class(&java, "NegotiatingServer", &["0"]);
    check(&server.url("/bench"));
    assert_eq!(server.stats()["executions"], "0");
}
