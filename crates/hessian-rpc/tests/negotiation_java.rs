//! The Java implementation of the type negotiation extension (`docs/negotiation.md`):
//! `NegotiateCheck` (a `NegotiatingProxyFactory` client making self-checked W2 calls) against
//! `NegotiatingServer` (Caucho's skeleton with the extension), against a restarted one, against a
//! one-map cache, and each against a plain Caucho peer; then the crossings: the Java client
//! against the Rust server and the Rust client against the Java server, each with restarts, a
//! one-map cache and a plain peer. Then the Java halves of at most once (what the Java client does
//! with each answer to a referring call, a stand-in gateway answering on the server's port), of
//! digest collisions (forced by a test-only digest truncation) and of classes of one name from two
//! class loaders. Skips without Java locally; fails under CI.

mod common;

/// A Java server process (`NegotiatingServer` or `RpcJavaServer`), killed on drop.
use common::JavaServer as Server;

use hessian_rpc::negotiation::TypeMapConfig;
use hessian_rpc::{HessianServer, RunningServer};
use hessian_testkit::java::{java, Java, JVM_OPTS};
use hessian_testkit::structs::w2;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The W2 request map's digest and sizes (section 4.3).
const W2_DIGEST: &str = "35d4fe6759ac6b9273edfd82306e1898";
const W2_PLAIN_REQUEST: &str = "578";
const W2_REFERRING_REQUEST: &str = "228";

/// `k=v` pairs of a line.
fn pairs(line: &str) -> HashMap<String, String> {
    line.split_whitespace().filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_owned(), v.to_owned())).collect()
}

/// The key=value pairs of NegotiateCheck's `summary` line.
fn summary(out: &str) -> HashMap<String, String> {
    let line = out.lines().find(|l| l.starts_with("summary ")).unwrap_or_else(|| panic!("no summary line in:\n{out}"));
    pairs(line)
}

fn check(java: &Java, mode: &str, base: &str, calls: usize) -> (HashMap<String, String>, String) {
    let out = java.try_run("NegotiateCheck", &[mode, base, &calls.to_string()], b"");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "NegotiateCheck {mode} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    (summary(&stdout), stdout)
}

fn get<'a>(m: &'a HashMap<String, String>, k: &str) -> &'a str {
    m.get(k).map(String::as_str).unwrap_or_else(|| panic!("no {k} in {m:?}"))
}

#[test]
fn java_w2_map_digest_and_referring_size_match_the_spec() {
    let Some(java) = java() else { return };
    let out = String::from_utf8(java.run("NegotiateCheck", &["digest"], b"")).unwrap();
    assert!(
        out.contains(&format!("request plain={W2_PLAIN_REQUEST} classes=6 canonical=372 digest={W2_DIGEST}\n")),
        "{out}"
    );
    assert!(out.contains(&format!("request referring={W2_REFERRING_REQUEST} inline_classes=0\n")), "{out}");
}

#[test]
fn java_client_to_java_server_refers_after_the_first_call() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    let calls = 3000;
    let (s, out) = check(&java, "w2", &server.base(), calls);
    println!("{}", out.lines().filter(|l| l.starts_with("call ")).collect::<Vec<_>>().join("\n"));
    assert_eq!(get(&s, "ok"), calls.to_string(), "{out}");
    assert_eq!(get(&s, "failed"), "0");
    assert_eq!(get(&s, "support"), "AWARE");
    assert_eq!(get(&s, "plain_requests"), "1", "only the first call is plain: {out}");
    assert_eq!(get(&s, "referring_requests"), (calls - 1).to_string());
    assert_eq!(get(&s, "resends"), "0");
    // every request after the first is the 228-byte referring call; replies refer to the reply map
    assert_eq!(
        get(&s, "exchange_req_sizes"),
        format!("{W2_REFERRING_REQUEST}x{},{W2_PLAIN_REQUEST}x1", calls - 1),
        "{out}"
    );
    let reply_sizes = get(&s, "exchange_reply_sizes");
    assert_eq!(get(&s, "referring_replies"), (calls - 1).to_string(), "{out}");
    assert!(reply_sizes.ends_with(",543x1") && reply_sizes.starts_with("193x"), "{reply_sizes}");
    let st = server.stats();
    assert_eq!(get(&st, "executions"), calls.to_string(), "{st:?}");
    assert_eq!(get(&st, "referring_calls"), (calls - 1).to_string(), "{st:?}");
    assert_eq!(get(&st, "unknown_type_map"), "0", "{st:?}");
}

#[test]
fn server_restart_costs_one_resend() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    let port = server.port;
    let calls = 200;
    let mut restarted = None;
    let (s, after) = restart_check(&java, &server.base(), calls, || {
        let first = server.stats();
        assert_eq!(get(&first, "executions"), (calls / 2).to_string(), "{first:?}");
        server.stop();
        restarted = Some(Server::start_on(&java, "NegotiatingServer", port, &[]));
    });
    let server = restarted.expect("restarted");
    assert_eq!(get(&s, "ok"), calls.to_string(), "{after}");
    assert_eq!(get(&s, "unknown_type_map"), "1", "{after}");
    assert_eq!(get(&s, "resends"), "1", "{after}");
    assert_eq!(get(&s, "plain_requests"), "2", "the first call and the resend: {after}");
    assert!(after.contains(&format!("first={W2_REFERRING_REQUEST} ")) && after.contains("resent=true"), "{after}");
    let st = server.stats();
    // the restarted server ran each of its calls once: the refused referring call ran nothing
    assert_eq!(get(&st, "executions"), (calls / 2).to_string(), "{st:?}");
    assert_eq!(get(&st, "unknown_type_map"), "1", "{st:?}");
    assert_eq!(get(&st, "referring_calls"), (calls / 2 - 1).to_string(), "{st:?}");
}

#[test]
fn one_map_server_cache_evicts_and_every_call_runs_once() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0", "1"]);
    let rounds = 150;
    let (s, out) = check(&java, "alternate", &server.base(), rounds);
    // exchange and getItems(10) alternate: the reply map of getItems evicts exchange's map, so
    // each later exchange refers to an evicted map, gets UnknownTypeMap and resends once
    assert_eq!(get(&s, "ok"), (2 * rounds).to_string(), "{out}");
    assert_eq!(get(&s, "calls"), (2 * rounds).to_string());
    assert_eq!(get(&s, "unknown_type_map"), (rounds - 1).to_string(), "{out}");
    assert_eq!(get(&s, "resends"), (rounds - 1).to_string(), "{out}");
    assert_eq!(get(&s, "fallbacks"), "0");
    let st = server.stats();
    assert_eq!(get(&st, "executions"), (2 * rounds).to_string(), "exactly once per call: {st:?}");
    assert_eq!(get(&st, "unknown_type_map"), (rounds - 1).to_string(), "{st:?}");
    assert_eq!(get(&st, "maps"), "1", "{st:?}");
}

#[test]
fn negotiating_client_stays_plain_with_caucho_skeleton() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "RpcJavaServer", &["0"]);
    let rounds = 50;
    let (s, out) = check(&java, "alternate", &server.base(), rounds);
    assert_eq!(get(&s, "ok"), (2 * rounds).to_string(), "{out}");
    assert_eq!(get(&s, "support"), "PLAIN", "{out}");
    assert_eq!(get(&s, "referring_requests"), "0", "{out}");
    assert_eq!(get(&s, "resends"), "0", "{out}");
    assert_eq!(get(&s, "plain_requests"), (2 * rounds).to_string());
    assert_eq!(get(&s, "exchange_req_sizes"), format!("{W2_PLAIN_REQUEST}x{rounds}"));
}

/// A negotiating server replaced by Caucho's plain skeleton on the same port (mixed versions
/// behind one address): the referring call is refused before anything runs, resent plain once,
/// and the client stays plain.
#[test]
fn referring_call_to_a_plain_server_falls_back_once() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    let port = server.port;
    let calls = 40;
    let mut plain = None;
    let (s, after) = restart_check(&java, &server.base(), calls, || {
        server.stop();
        plain = Some(Server::start_on(&java, "RpcJavaServer", port, &[]));
    });
    assert_eq!(get(&s, "ok"), calls.to_string(), "{after}");
    // recognised by Caucho's refusal of T in its 500 body, nothing else
    assert_eq!(get(&s, "fallbacks"), "1", "{after}");
    assert_eq!(get(&s, "resends"), "1", "{after}");
    assert_eq!(get(&s, "unknown_type_map"), "0", "{after}");
    assert_eq!(get(&s, "support"), "PLAIN", "{after}");
    assert_eq!(get(&s, "referring_requests"), (calls / 2).to_string(), "{after}");
}

#[test]
fn plain_caucho_client_works_with_negotiating_server() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    for mode in ["h2", "hybrid", "h1"] {
        let out = java.try_run("RpcJavaClient", &[&format!("{}/bench", server.base()), mode, "bench"], b"");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && stdout.contains("failed=0"), "mode {mode}:\n{stdout}");
        let out = java.try_run("RpcJavaClient", &[&format!("{}/refs", server.base()), mode, "refs"], b"");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && stdout.contains("failed=0"), "mode {mode} refs:\n{stdout}");
    }
    let st = server.stats();
    // no offer, so nothing learned, nothing referred to
    assert_eq!(get(&st, "learned"), "0", "{st:?}");
    assert_eq!(get(&st, "referring_calls"), "0", "{st:?}");
    assert_eq!(get(&st, "errors"), "0", "{st:?}");
}

/// The Rust server (the counting W2 service at `/bench`) on its own runtime.
struct RustServer {
    rt: tokio::runtime::Runtime,
    server: HessianServer,
    running: Option<RunningServer>,
    runs: Arc<AtomicUsize>,
}

impl RustServer {
    fn start(maps: TypeMapConfig) -> RustServer {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let runs = Arc::new(AtomicUsize::new(0));
        let mut s = RustServer { rt, server: HessianServer::builder().build(), running: None, runs };
        s.restart("127.0.0.1:0".parse().unwrap(), maps);
        s
    }

    /// Stops the server (if running) and starts a fresh one (a new cache) on `addr`.
    fn restart(&mut self, addr: std::net::SocketAddr, maps: TypeMapConfig) {
        if let Some(r) = self.running.take() {
            self.rt.block_on(r.shutdown());
        }
        let service = common::counting_service(self.runs.clone());
        self.server = HessianServer::builder().mount("/bench", service).type_maps(maps).build();
        self.running = Some(common::bind_again(&self.rt, &self.server, addr));
    }

    fn addr(&self) -> std::net::SocketAddr {
        self.running.as_ref().expect("running").local_addr()
    }

    fn base(&self) -> String {
        format!("http://{}", self.addr())
    }

    fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }
}

#[test]
fn java_client_to_rust_server_refers_after_the_first_call() {
    let Some(java) = java() else { return };
    let server = RustServer::start(TypeMapConfig::default());
    let calls = 2000;
    let (s, out) = check(&java, "w2", &server.base(), calls);
    assert_eq!(get(&s, "ok"), calls.to_string(), "{out}");
    assert_eq!(get(&s, "support"), "AWARE", "{out}");
    assert_eq!(get(&s, "plain_requests"), "1", "{out}");
    assert_eq!(get(&s, "referring_requests"), (calls - 1).to_string());
    assert_eq!(get(&s, "resends"), "0");
    assert_eq!(get(&s, "exchange_req_sizes"), format!("{W2_REFERRING_REQUEST}x{},{W2_PLAIN_REQUEST}x1", calls - 1));
    assert_eq!(get(&s, "referring_replies"), (calls - 1).to_string(), "the Rust server refers to its reply map");
    assert_eq!(get(&s, "exchange_reply_sizes"), format!("193x{},543x1", calls - 1));
    assert_eq!(server.runs(), calls);
    let st = server.server.type_map_stats();
    assert_eq!((st.referring_calls, st.unknown_type_map, st.maps), (calls as u64 - 1, 0, 1), "{st:?}");
}

/// Runs NegotiateCheck `restart` against `server`: half the calls, then `between` (which may
/// restart or replace the server), then the other half; returns the summary after the pause.
fn restart_check(java: &Java, base: &str, calls: usize, between: impl FnOnce()) -> (HashMap<String, String>, String) {
    let mut command = java.command("NegotiateCheck");
    command.args(["restart", base, &calls.to_string()]);
    paused_check(command, "PAUSE", between)
}

/// Runs a check program that prints `pause` and waits for a line on stdin: `between` runs at the
/// pause; returns the summary and the output after the pause. The program must succeed.
fn paused_check(command: Command, pause: &str, between: impl FnOnce()) -> (HashMap<String, String>, String) {
    let after = hessian_testkit::java::run_paused(command, pause, between);
    (summary(&after), after)
}

#[test]
fn java_client_resends_once_to_a_restarted_rust_server() {
    let Some(java) = java() else { return };
    let mut server = RustServer::start(TypeMapConfig::default());
    let addr = server.addr();
    let calls = 200;
    let base = server.base();
    let (s, out) = restart_check(&java, &base, calls, || server.restart(addr, TypeMapConfig::default()));
    assert_eq!(get(&s, "ok"), calls.to_string(), "{out}");
    assert_eq!(get(&s, "unknown_type_map"), "1", "{out}");
    assert_eq!(get(&s, "resends"), "1", "{out}");
    assert_eq!(server.runs(), calls, "every call ran once");
    let st = server.server.type_map_stats();
    assert_eq!((st.unknown_type_map, st.referring_calls), (1, calls as u64 / 2 - 1), "{st:?}");
}

#[test]
fn java_client_with_a_one_map_rust_server_runs_every_call_once() {
    let Some(java) = java() else { return };
    let server = RustServer::start({
        let mut c = TypeMapConfig::default();
        c.max_maps = 1;
        c
    });
    let rounds = 100;
    let (s, out) = check(&java, "alternate", &server.base(), rounds);
    assert_eq!(get(&s, "ok"), (2 * rounds).to_string(), "{out}");
    assert_eq!(get(&s, "fallbacks"), "0", "{out}");
    let st = server.server.type_map_stats();
    assert_eq!(st.maps, 1, "{st:?}");
    assert_eq!(get(&s, "unknown_type_map"), st.unknown_type_map.to_string(), "{out}\n{st:?}");
    assert_eq!(get(&s, "resends"), st.unknown_type_map.to_string(), "{out}");
    assert!(st.unknown_type_map >= rounds as u64 - 1, "{st:?}");
    assert_eq!(server.runs(), rounds, "each exchange ran once");
}

fn rust_w2_calls(client: &hessian_rpc::BlockingClient, base: &str, calls: usize) {
    let proxy = client.proxy(&format!("{base}/bench")).unwrap();
    for i in 0..calls {
        let got: w2::Order = proxy.call_typed("exchange", (w2::request(),)).unwrap_or_else(|e| panic!("call {i}: {e}"));
        assert_eq!(got, w2::reply(), "call {i}");
    }
}

#[test]
fn rust_client_to_java_server_refers_after_the_first_call() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    let client = hessian_rpc::BlockingClient::new();
    let calls = 1000;
    rust_w2_calls(&client, &server.base(), 1);
    let first = client.type_map_stats();
    assert_eq!((first.request_bytes, first.reply_bytes), (578, 543), "{first:?}");
    rust_w2_calls(&client, &server.base(), calls - 1);
    let s = client.type_map_stats();
    assert_eq!(
        (s.plain_calls, s.referring_calls, s.referring_replies, s.resends),
        (1, calls as u64 - 1, calls as u64 - 1, 0)
    );
    assert_eq!(s.request_bytes - first.request_bytes, 228 * (calls as u64 - 1), "{s:?}");
    assert_eq!(s.reply_bytes - first.reply_bytes, 193 * (calls as u64 - 1), "{s:?}");
    let st = server.stats();
    assert_eq!(get(&st, "executions"), calls.to_string(), "{st:?}");
    assert_eq!(get(&st, "referring_calls"), (calls - 1).to_string(), "{st:?}");
    assert_eq!(get(&st, "referring_replies"), (calls - 1).to_string(), "{st:?}");
    assert_eq!(get(&st, "errors"), "0", "{st:?}");
}

#[test]
fn rust_client_resends_once_to_a_restarted_java_server() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    let port = server.port;
    let client = hessian_rpc::BlockingClient::new();
    rust_w2_calls(&client, &server.base(), 50);
    server.stop();
    let server = Server::start_on(&java, "NegotiatingServer", port, &[]);
    rust_w2_calls(&client, &server.base(), 50);
    let s = client.type_map_stats();
    assert_eq!((s.unknown_type_map, s.resends, s.fallbacks), (1, 1, 0), "{s:?}");
    let st = server.stats();
    assert_eq!(get(&st, "executions"), "50", "the refused call ran nothing: {st:?}");
    assert_eq!(get(&st, "unknown_type_map"), "1", "{st:?}");
}

#[test]
fn rust_client_with_a_one_map_java_server_runs_every_call_once() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0", "1"]);
    let client = hessian_rpc::BlockingClient::new();
    let proxy = client.proxy(&format!("{}/bench", server.base())).unwrap();
    let rounds = 60;
    for _ in 0..rounds {
        let got: w2::Order = proxy.call_typed("exchange", (w2::request(),)).unwrap();
        assert_eq!(got, w2::reply());
        let items: Vec<hessian_testkit::structs::Item> = proxy.call_typed("getItems", (10,)).unwrap();
        assert_eq!(items, hessian_testkit::structs::items(10));
    }
    let s = client.type_map_stats();
    let st = server.stats();
    assert_eq!(get(&st, "executions"), (2 * rounds).to_string(), "exactly once per call: {st:?}");
    assert_eq!(get(&st, "unknown_type_map"), s.unknown_type_map.to_string(), "{st:?} {s:?}");
    assert_eq!(s.resends, s.unknown_type_map, "{s:?}");
    assert!(s.unknown_type_map >= rounds as u64 - 1, "{s:?}");
}

#[test]
fn rust_client_stays_plain_with_caucho_skeleton_and_falls_back_once() {
    let Some(java) = java() else { return };
    let plain = Server::start_class(&java, "RpcJavaServer", &["0"]);
    let client = hessian_rpc::BlockingClient::new();
    rust_w2_calls(&client, &plain.base(), 20);
    let s = client.type_map_stats();
    assert_eq!((s.referring_calls, s.plain_calls, s.request_bytes), (0, 20, 20 * 578), "{s:?}");
    drop(plain);

    // a negotiating server replaced by Caucho's plain skeleton on the same port
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    let port = server.port;
    let client = hessian_rpc::BlockingClient::new();
    rust_w2_calls(&client, &server.base(), 20);
    server.stop();
    let plain = Server::start_on(&java, "RpcJavaServer", port, &[]);
    rust_w2_calls(&client, &plain.base(), 20);
    let s = client.type_map_stats();
    assert_eq!((s.fallbacks, s.resends, s.referring_calls), (1, 1, 20), "{s:?}");
}

#[test]
fn caucho_plain_client_is_served_plain_by_rust_server() {
    let Some(java) = java() else { return };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = common::rust_server();
    let running = rt.block_on(server.clone().bind("127.0.0.1:0")).unwrap();
    for mode in ["h2", "hybrid", "h1", "burlap"] {
        let out = common::java_client(&java, &running.url("/bench"), mode, "bench");
        assert!(out.contains("failed=0"), "{mode}: {out}");
    }
    let st = server.type_map_stats();
    assert_eq!((st.learned, st.referring_calls, st.plain_calls), (0, 0, 0), "no offer, nothing learned: {st:?}");
}

/// The refusal of `docs/negotiation.md` 6.1 for the map `hex`: 121 bytes.
fn refusal(hex: &str) -> Vec<u8> {
    let message = format!("unknown type map {hex}: resend the call as plain Hessian 2");
    let mut r = b"H\x02\x00FH\x04code\x0eUnknownTypeMap\x07message\x30".to_vec();
    r.push(message.len() as u8);
    r.extend_from_slice(message.as_bytes());
    r.push(b'Z');
    r
}

/// One HTTP/1.0 POST of `body` to `path` on `port`: the status, the head and the body.
fn post_raw(port: u16, path: &str, body: &[u8]) -> (u16, String, Vec<u8>) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let head = format!("POST {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n", body.len());
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("end of the head") + 4;
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("status");
    (status, head, answer[end..].to_vec())
}

/// Section 6.1 byte for byte from the Java server, to a referring call that does not carry the
/// offer header (its body is the offer): HTTP 200, both headers, the 121-byte fault, nothing run.
#[test]
fn java_server_refusal_is_the_fault_of_the_spec_byte_for_byte() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    let mut call = b"H\x02\x01T\x30".to_vec();
    call.extend_from_slice(&hessian::negotiate::parse_digest(W2_DIGEST).unwrap());
    call.extend_from_slice(b"C\x08exchange\x91\x60");
    let (status, head, body) = post_raw(server.port, "/bench", &call);
    assert_eq!(status, 200, "{head}");
    assert_eq!(body, refusal(W2_DIGEST), "{}", String::from_utf8_lossy(&body));
    assert_eq!(body.len(), 121);
    let head = head.to_ascii_lowercase();
    assert!(head.contains("\r\nhessian-type-maps: 1\r\n"), "{head}");
    assert!(head.contains(&format!("\r\nhessian-type-map-unknown: {W2_DIGEST}\r\n")), "{head}");
    let st = server.stats();
    assert_eq!((get(&st, "executions"), get(&st, "unknown_type_map")), ("0", "1"), "{st:?}");
}

/// A stand-in for a gateway (or any peer) on the port of a stopped server: answers every POST
/// with `status` and `body`, no extension headers and `Connection: close`, counting the requests.
struct Stub {
    port: u16,
    requests: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Stub {
    fn start(port: u16, status: u16, body: &[u8]) -> Stub {
        let listener = (0..50)
            .find_map(|_| {
                let l = std::net::TcpListener::bind(("127.0.0.1", port)).ok();
                if l.is_none() {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                l
            })
            .unwrap_or_else(|| panic!("bind the stub on port {port}"));
        let requests = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let mut answer =
            format!("HTTP/1.1 {status} Stub\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len())
                .into_bytes();
        answer.extend_from_slice(body);
        let (count, stopped) = (requests.clone(), stop.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(conn) = conn else { continue };
                let mut r = BufReader::new(conn);
                let mut length = 0;
                loop {
                    let mut l = String::new();
                    if r.read_line(&mut l).unwrap_or(0) == 0 {
                        break;
                    }
                    if l == "\r\n" {
                        let mut body = vec![0; length];
                        if r.read_exact(&mut body).is_ok() {
                            count.fetch_add(1, Ordering::SeqCst);
                            let _ = r.get_mut().write_all(&answer);
                        }
                        break;
                    }
                    if let Some((k, v)) = l.split_once(':') {
                        if k.eq_ignore_ascii_case("content-length") {
                            length = v.trim().parse().unwrap_or(0);
                        }
                    }
                }
            }
        });
        Stub { port, requests, stop }
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = std::net::TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// NegotiateCheck `gateway`: one plain W2 call to a NegotiatingServer (the map is confirmed),
/// then, at READY, the server is replaced on its port by a [`Stub`] answering `status` and `body`
/// to the referring call. Returns the summary, the output after READY (with the `message=` line)
/// and the requests the stub received.
fn gateway_check(java: &Java, status: u16, body: &[u8]) -> (HashMap<String, String>, String, usize) {
    let server = Server::start_class(java, "NegotiatingServer", &["0"]);
    let port = server.port;
    let mut command = java.command("NegotiateCheck");
    command.args(["gateway", &server.base()]);
    let mut stub = None;
    let (s, out) = paused_check(command, "READY", || {
        server.stop();
        stub = Some(Stub::start(port, status, body));
    });
    (s, out, stub.expect("stub").requests())
}

/// The exception message NegotiateCheck `gateway` printed.
fn message(out: &str) -> &str {
    out.lines().find_map(|l| l.strip_prefix("message=")).unwrap_or_else(|| panic!("no message line in:\n{out}"))
}

/// At most once (6.2): an HTTP error that is not Caucho's refusal may come from a server (or past
/// a gateway) that ran the call, so it is the call's error as for a plain call, never resent.
#[test]
fn java_client_does_not_resend_after_an_http_error_that_is_not_a_refusal() {
    let Some(java) = java() else { return };
    for (status, body) in [(500, "internal error"), (503, "<html>503 Service Temporarily Unavailable</html>")] {
        let (s, out, requests) = gateway_check(&java, status, body.as_bytes());
        assert_eq!(get(&s, "outcome"), "error", "{out}");
        assert_eq!(get(&s, "exception"), "com.caucho.hessian.client.HessianConnectionException", "{out}");
        assert_eq!(message(&out), format!("{status}: {body}"));
        assert_eq!(get(&s, "referring_requests"), "1", "{out}");
        assert_eq!(
            (get(&s, "resends"), get(&s, "fallbacks"), get(&s, "unknown_type_map")),
            ("0", "0", "0"),
            "{status}: {out}"
        );
        assert_eq!(requests, 1, "{status}: the referring call only: {out}");
        assert_eq!(get(&s, "support"), "AWARE", "an error says nothing about the peer: {out}");
    }
}

/// Caucho's refusal of `T` in an error body (HTML-escaped, as a servlet container shows an
/// exception) proves that nothing ran: one plain resend, and the endpoint is plain from then on.
/// The stub refuses the resend too: that answer is the call's result, with no second resend.
#[test]
fn java_client_resends_once_after_cauchos_refusal_in_an_error_body() {
    let Some(java) = java() else { return };
    let body =
        "<pre>com.caucho.hessian.io.HessianProtocolException: expected hessian call (&#39;C&#39;) at 0x54 (T)</pre>";
    let (s, out, requests) = gateway_check(&java, 500, body.as_bytes());
    assert_eq!((get(&s, "fallbacks"), get(&s, "resends"), get(&s, "unknown_type_map")), ("1", "1", "0"), "{out}");
    assert_eq!(requests, 2, "the referring call and its plain resend: {out}");
    assert_eq!(get(&s, "support"), "PLAIN", "{out}");
    assert_eq!(get(&s, "exception"), "com.caucho.hessian.client.HessianConnectionException", "{out}");
}

/// The refusal is recognised by its body alone (the stub sends no `Hessian-Type-Map-Unknown`, as
/// past a hop that drops headers): forget the map, resend once. A refusal naming another digest
/// proves nothing about this call: it is the call's fault, not resent.
#[test]
fn java_client_recognises_the_refusal_by_its_body() {
    let Some(java) = java() else { return };
    let (s, out, requests) = gateway_check(&java, 200, &refusal(W2_DIGEST));
    assert_eq!((get(&s, "unknown_type_map"), get(&s, "resends"), get(&s, "fallbacks")), ("1", "1", "0"), "{out}");
    assert_eq!(requests, 2, "the referring call and its plain resend: {out}");
    // the stub refuses the plain resend too: that fault is the call's result
    assert_eq!(get(&s, "exception"), "com.caucho.hessian.io.HessianServiceException", "{out}");

    let other = "00112233445566778899aabbccddeeff";
    let (s, out, requests) = gateway_check(&java, 200, &refusal(other));
    assert_eq!((get(&s, "unknown_type_map"), get(&s, "resends"), get(&s, "fallbacks")), ("0", "0", "0"), "{out}");
    assert_eq!(requests, 1, "{out}");
    assert_eq!(get(&s, "exception"), "com.caucho.hessian.io.HessianServiceException", "{out}");
    assert!(message(&out).contains(other), "{out}");
}

/// JVM options with every type map's digest 0 (`TypeMap.DIGEST_BYTES`, test only): any two
/// different maps collide.
fn colliding_digests() -> Vec<&'static str> {
    JVM_OPTS.iter().copied().chain(["-Dhessian.typemap.testDigestBytes=0"]).collect()
}

/// A digest collision is refused, never decoded with the other map's classes (NegotiateCheck
/// `collision`, both peers with every digest 0). The server keeps the W2 map under digest 0 and
/// refuses the Money map of `same` (answered plain, not listed, counted), and the W2 map still
/// decodes referring calls; after a restart the new server lists getItems' reply map (Item) under
/// digest 0: the client counts the collision, forgets the W2 map and sends `exchange` plain.
#[test]
fn java_digest_collision_is_refused_not_decoded() {
    let Some(java) = java() else { return };
    let opts = colliding_digests();
    let server = Server::start_with(&java, &opts, "NegotiatingServer", &["0"]);
    let port = server.port;
    let mut command = java.command_with(&opts, "NegotiateCheck");
    command.args(["collision", &server.base()]);
    let mut restarted = None;
    let (s, out) = paused_check(command, "PAUSE", || {
        let st = server.stats();
        // exchange twice (plain, then referring), same twice (plain, its map refused each time)
        assert_eq!(get(&st, "executions"), "4", "{st:?}");
        assert_eq!(get(&st, "referring_calls"), "1", "{st:?}");
        assert_eq!(get(&st, "collisions"), "2", "{st:?}");
        assert_eq!(get(&st, "maps"), "1", "{st:?}");
        assert_eq!(get(&st, "errors"), "0", "{st:?}");
        server.stop();
        restarted = Some(Server::start_on_with(&java, &opts, "NegotiatingServer", port, &[]));
    });
    assert_eq!((get(&s, "ok"), get(&s, "failed")), ("6", "0"), "{out}");
    assert_eq!(get(&s, "collisions"), "1", "{out}");
    assert_eq!(get(&s, "referring_requests"), "1", "{out}");
    assert_eq!(get(&s, "resends"), "0", "{out}");
    let st = restarted.expect("restarted").stats();
    // getItems and a plain exchange, whose W2 map collides with the Item map the server kept
    assert_eq!(get(&st, "executions"), "2", "{st:?}");
    assert_eq!(get(&st, "referring_calls"), "0", "{st:?}");
    assert_eq!(get(&st, "collisions"), "2", "{st:?}");
    assert_eq!(get(&st, "errors"), "0", "{st:?}");
}

/// Two classes named `LoaderPoint` from two class loaders (fields x, y and fields a, b, c) do not
/// mix (LoaderCheck): once the x/y map is confirmed, an a/b/c object is sent plain, not as a
/// reference to the x/y class, and arrives with its own fields; the method no longer refers to a
/// map under which another class was written. And in the server's replies: the x/y reply map
/// holds the Class the server wrote under it, an a/b/c reply asked under it is written plain (not
/// as a reference to the x/y class, and without running the method again), and so is an x/y
/// reply asked under the a/b/c map.
#[test]
fn java_classes_of_one_name_from_two_loaders_do_not_mix() {
    let Some(java) = java() else { return };
    let server = Server::start_class(&java, "NegotiatingServer", &["0"]);
    let out = java.try_run("LoaderCheck", &[&server.base()], b"");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "LoaderCheck failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let s = summary(&stdout);
    assert_eq!((get(&s, "ok"), get(&s, "failed")), ("5", "0"), "{stdout}");
    assert_eq!(get(&s, "referring_requests"), "1", "{stdout}");
    assert_eq!(get(&s, "class_mismatches"), "2", "{stdout}");
    assert_eq!(get(&s, "resends"), "0", "{stdout}");
    let st = server.stats();
    assert_eq!((get(&st, "executions"), get(&st, "referring_calls")), ("5", "1"), "{st:?}");
    // the server's replies (item 3 of issue 26): a reply map records the Class written under each
    // of its names; an object of the other class is written plain, the method run once per call
    let line = stdout.lines().find(|l| l.starts_with("server_summary ")).unwrap_or_else(|| panic!("{stdout}"));
    let (client, server) = line.split_once(" | ").unwrap_or_else(|| panic!("{line}"));
    let (c, sv) = (pairs(client), pairs(server));
    assert_eq!((get(&c, "ok"), get(&c, "failed"), get(&c, "point_runs")), ("5", "0", "5"), "{stdout}");
    assert_eq!((get(&c, "referring_replies"), get(&c, "resends")), ("2", "0"), "{stdout}");
    assert_eq!((get(&sv, "executions"), get(&sv, "reply_class_mismatches")), ("5", "2"), "{stdout}");
}
