//! Type negotiation (`docs/negotiation.md`) between the Rust client and the Rust server: the
//! first call of a method establishes its map, later calls and replies refer to it; a server
//! restart, an evicted map and a plain server each cost one resend and run every call exactly
//! once; forged, truncated and oversized negotiation input ends in a clear fault and the server
//! keeps serving; a peer that always answers "unknown" never makes the client loop.

mod common;

use bytes::Bytes;
use common::counting_service;
use hessian::negotiate::{MapLimits, TypeMap};
use hessian::serde::message::reply_to_vec;
use hessian::{Format, Value};
use hessian_rpc::negotiation::{ClientStats, TypeMapConfig};
use hessian_rpc::{Client, Dialect, HessianServer, RunningServer};
use hessian_testkit::structs::{self, w2, Item};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

const W2_DIGEST: &str = "35d4fe6759ac6b9273edfd82306e1898";

/// A server at `addr` (a restart in place when the port was used before: retried until free),
/// and its `HessianServer` (whose clones share its type-map cache and statistics).
async fn start(addr: SocketAddr, runs: &Arc<AtomicUsize>, maps: TypeMapConfig) -> (HessianServer, RunningServer) {
    let server = HessianServer::builder().mount("/bench", counting_service(runs.clone())).type_maps(maps).build();
    for attempt in 0.. {
        match server.clone().bind(addr).await {
            Ok(running) => return (server, running),
            Err(e) => {
                assert!(attempt < 50, "bind {addr}: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    unreachable!()
}

fn local() -> SocketAddr {
    "127.0.0.1:0".parse().unwrap()
}

fn delta(after: ClientStats, before: ClientStats) -> (u64, u64) {
    (after.request_bytes - before.request_bytes, after.reply_bytes - before.reply_bytes)
}

async fn exchange(proxy: &hessian_rpc::Proxy) -> w2::Order {
    proxy.call_typed::<_, w2::Order>("exchange", (w2::request(),)).await.expect("exchange")
}

#[tokio::test]
async fn later_calls_and_replies_refer_to_the_maps_of_the_first() {
    let runs = Arc::new(AtomicUsize::new(0));
    let (server, running) = start(local(), &runs, TypeMapConfig::default()).await;
    let client = Client::new();
    let proxy = client.proxy(&running.url("/bench")).unwrap();

    let s0 = client.type_map_stats();
    assert_eq!(exchange(&proxy).await, w2::reply());
    let s1 = client.type_map_stats();
    assert_eq!(delta(s1, s0), (578, 543), "the first call and reply are plain Hessian 2");
    assert_eq!(exchange(&proxy).await, w2::reply());
    let s2 = client.type_map_stats();
    assert_eq!(delta(s2, s1), (228, 193), "the second refers to the request and reply maps");
    for _ in 0..98 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    let s = client.type_map_stats();
    assert_eq!((s.calls, s.plain_calls, s.referring_calls, s.referring_replies), (100, 1, 99, 99), "{s:?}");
    assert_eq!((s.resends, s.unknown_type_map, s.fallbacks), (0, 0, 0));
    assert_eq!(runs.load(Ordering::SeqCst), 100);
    let st = server.type_map_stats();
    assert_eq!(
        (st.plain_calls, st.referring_calls, st.unknown_type_map, st.referring_replies),
        (1, 99, 0, 99),
        "{st:?}"
    );
    assert_eq!((st.maps, st.learned), (1, 1), "the W2 request and reply maps are one map: {st:?}");

    // the `Value` path shares the endpoint's maps and speaks the same bytes
    let classes = hessian_testkit::workloads::W2Classes::default();
    let before = client.type_map_stats();
    let got = proxy.call("exchange", vec![classes.request()]).await.unwrap();
    assert!(hessian_demo::same_graph(&got, &classes.reply()), "{got:?}");
    assert_eq!(delta(client.type_map_stats(), before), (228, 193));
    // a method without classes in its calls establishes no request map and stays plain
    for _ in 0..3 {
        let items: Vec<Item> = proxy.call_typed("getItems", (3,)).await.unwrap();
        assert_eq!(items, structs::items(3));
    }
    assert_eq!(client.type_map_stats().referring_calls, 100);
    running.shutdown().await;
}

#[tokio::test]
async fn a_restarted_server_costs_one_resend_and_runs_each_call_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    let (_, running) = start(local(), &runs, TypeMapConfig::default()).await;
    let addr = running.local_addr();
    let client = Client::new();
    let proxy = client.proxy(&running.url("/bench")).unwrap();
    for _ in 0..10 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    running.shutdown().await;
    let (server, running) = start(addr, &runs, TypeMapConfig::default()).await;
    for _ in 0..10 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    let s = client.type_map_stats();
    assert_eq!((s.unknown_type_map, s.resends, s.fallbacks), (1, 1, 0), "{s:?}");
    assert_eq!(runs.load(Ordering::SeqCst), 20, "the refused referring call ran nothing");
    let st = server.type_map_stats();
    assert_eq!((st.unknown_type_map, st.plain_calls, st.referring_calls), (1, 1, 9), "{st:?}");
    running.shutdown().await;
}

#[tokio::test]
async fn a_one_map_cache_evicts_and_every_call_runs_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    let tiny = {
        let mut c = TypeMapConfig::default();
        c.max_maps = 1;
        c
    };
    let (server, running) = start(local(), &runs, tiny).await;
    let client = Client::new();
    let proxy = client.proxy(&running.url("/bench")).unwrap();
    let address = w2::request().customer.address;
    let rounds = 50;
    for _ in 0..rounds {
        assert_eq!(exchange(&proxy).await, w2::reply());
        let paid: String = proxy.call_typed("pay", (address.clone(), None::<w2::Money>)).await.unwrap();
        assert_eq!(paid, format!("{} 0", address.city));
    }
    let s = client.type_map_stats();
    // each method's map evicts the other's: every referring call after the first round is
    // answered UnknownTypeMap and resent once
    assert_eq!(s.calls, 2 * rounds as u64);
    assert_eq!(s.unknown_type_map, s.resends, "{s:?}");
    assert!(s.resends >= rounds as u64, "{s:?}");
    assert_eq!(runs.load(Ordering::SeqCst), 2 * rounds, "exactly once per call");
    let st = server.type_map_stats();
    assert_eq!(st.maps, 1, "{st:?}");
    assert!(st.evictions > 0 && st.unknown_type_map == s.unknown_type_map, "{st:?}");
    running.shutdown().await;
}

#[tokio::test]
async fn classes_a_map_lacks_are_defined_inline_and_the_next_call_is_plain() {
    let runs = Arc::new(AtomicUsize::new(0));
    let (_, running) = start(local(), &runs, TypeMapConfig::default()).await;
    let client = Client::new();
    let proxy = client.proxy(&running.url("/bench")).unwrap();
    let order = w2::request();
    let (address, money) = (order.customer.address.clone(), order.total.clone());
    let pay = |m: Option<w2::Money>| proxy.call_typed::<_, String>("pay", (address.clone(), m));
    assert_eq!(pay(None).await.unwrap(), format!("{} 0", address.city)); // plain: map {Address}
    let before = client.type_map_stats();
    // refers to {Address}, defines Money inline as class 1
    assert_eq!(pay(Some(money.clone())).await.unwrap(), format!("{} {}", address.city, money.cents));
    let after = client.type_map_stats();
    assert_eq!(after.referring_calls - before.referring_calls, 1);
    // the next call is plain and establishes {Address, Money}; the one after refers to it
    assert_eq!(pay(Some(money.clone())).await.unwrap(), format!("{} {}", address.city, money.cents));
    assert_eq!(client.type_map_stats().plain_calls - after.plain_calls, 1);
    let before = client.type_map_stats();
    assert_eq!(pay(Some(money.clone())).await.unwrap(), format!("{} {}", address.city, money.cents));
    let s = client.type_map_stats();
    assert_eq!((s.referring_calls - before.referring_calls, s.resends), (1, 0), "{s:?}");
    running.shutdown().await;
}

#[tokio::test]
async fn a_referring_call_that_reaches_a_server_without_the_extension_is_resent_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    let (_, running) = start(local(), &runs, TypeMapConfig::default()).await;
    let addr = running.local_addr();
    let client = Client::new();
    let proxy = client.proxy(&running.url("/bench")).unwrap();
    for _ in 0..5 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    running.shutdown().await;
    // the same address now serves plain Hessian 2 only (mixed versions behind one address)
    let plain = {
        let mut c = TypeMapConfig::default();
        c.enabled = false;
        c
    };
    let (server, running) = start(addr, &runs, plain).await;
    for _ in 0..5 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    // the plain server answers the referring call with the refusal (it runs nothing), and its
    // plain answer without the offer makes the client plain
    let s = client.type_map_stats();
    assert_eq!((s.unknown_type_map, s.fallbacks, s.resends, s.referring_calls), (1, 0, 1, 5), "{s:?}");
    assert_eq!(runs.load(Ordering::SeqCst), 10);
    assert_eq!(server.type_map_stats(), Default::default(), "the plain server learned nothing");
    running.shutdown().await;
}

#[tokio::test]
async fn without_negotiation_nothing_changes_on_the_wire() {
    let runs = Arc::new(AtomicUsize::new(0));
    let (server, running) = start(local(), &runs, TypeMapConfig::default()).await;
    let client = Client::builder().type_maps(false).build();
    let proxy = client.proxy(&running.url("/bench")).unwrap();
    for _ in 0..3 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    assert_eq!(delta(client.type_map_stats(), ClientStats::default()), (3 * 578, 3 * 543));
    assert_eq!(server.type_map_stats(), Default::default());
    // nor for other dialects, which have no referring messages
    let client = Client::builder().dialect(Dialect::HYBRID).build();
    let proxy = client.proxy(&running.url("/bench")).unwrap();
    for _ in 0..3 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    assert_eq!(client.type_map_stats().referring_calls, 0);
    // a plain client gets no extension header; an offering one does
    let body = hessian::serde::message::CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1)
        .and_then(|mut w| w.arg(&w2::request()).map(|()| w))
        .and_then(|w| w.finish())
        .unwrap();
    let (_, head, _) = raw(addr_of(&running), &[], &body).await;
    assert!(!head.to_ascii_lowercase().contains("hessian-"), "{head}");
    let (_, head, _) = raw(addr_of(&running), &[("Hessian-Type-Maps", "1")], &body).await;
    let head = head.to_ascii_lowercase();
    assert!(head.contains("hessian-type-maps: 1\r\n"), "{head}");
    assert!(head.contains(&format!("hessian-type-map: {W2_DIGEST}\r\n")), "{head}");
    running.shutdown().await;
}

fn addr_of(r: &RunningServer) -> SocketAddr {
    r.local_addr()
}

/// POSTs `body` to `/bench` with `headers` over a fresh connection: (status, head, body).
async fn raw(addr: SocketAddr, headers: &[(&str, &str)], body: &[u8]) -> (u16, String, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!("POST /bench HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for (n, v) in headers {
        req.push_str(&format!("{n}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).await.unwrap();
    let at = all.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head") + 4;
    let head = String::from_utf8_lossy(&all[..at]).into_owned();
    let status = head[9..12].parse().unwrap();
    (status, head, all[at..].to_vec())
}

fn fault_code(body: &[u8]) -> String {
    match hessian::h2::message::reply_from_slice(body, hessian::Limits::default()).expect("a reply") {
        Err(f) => f.code,
        Ok(v) => panic!("expected a fault, got {v:?}"),
    }
}

#[tokio::test]
async fn bad_negotiation_input_ends_in_faults_and_runs_nothing() {
    let runs = Arc::new(AtomicUsize::new(0));
    let limits = MapLimits { max_classes: 2, ..MapLimits::default() };
    let (server, running) = start(local(), &runs, {
        let mut c = TypeMapConfig::default();
        c.map_limits = limits;
        c
    })
    .await;
    let addr = running.local_addr();
    let offer = [("Hessian-Type-Maps", "1")];
    // a forged reference: UnknownTypeMap with its header, nothing decoded or run
    let mut forged = b"H\x02\x01T\x30".to_vec();
    forged.extend_from_slice(&[0xab; 16]);
    forged.extend_from_slice(b"C\x08exchange\x91\x60");
    let (status, head, body) = raw(addr, &offer, &forged).await;
    assert_eq!(status, 200);
    assert!(
        head.to_ascii_lowercase().contains(&format!("hessian-type-map-unknown: {}\r\n", "ab".repeat(16))),
        "{head}"
    );
    assert!(head.to_ascii_lowercase().contains("hessian-type-maps: 1\r\n"), "{head}");
    assert_eq!(fault_code(&body), "UnknownTypeMap");
    // also without the offer header: a referring body is an offer in itself
    let (_, head, body) = raw(addr, &[], &forged).await;
    assert!(head.to_ascii_lowercase().contains("hessian-type-map-unknown"), "{head}");
    assert_eq!(fault_code(&body), "UnknownTypeMap");
    // truncated and malformed referring headers
    for bad in [&b"H\x02\x01"[..], b"H\x02\x01T\x30\xab\xab", b"H\x02\x01T\x34\x10", b"H\x02\x01C\x08exchange\x90"] {
        let (status, _, body) = raw(addr, &offer, bad).await;
        assert_eq!(status, 200, "{bad:?}");
        assert_eq!(fault_code(&body), "ProtocolException", "{bad:?}");
    }
    // W2 has six classes, over this server's map limit: served, but no map kept or listed
    let client = Client::new();
    let proxy = client.proxy(&running.url("/bench")).unwrap();
    for _ in 0..3 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    let s = client.type_map_stats();
    assert_eq!((s.referring_calls, s.plain_calls), (0, 3), "{s:?}");
    assert_eq!(server.type_map_stats().maps, 0);
    // a known map with a malformed body after it: the fault of a malformed plain call
    let address = w2::request().customer.address;
    let paid: String = proxy.call_typed("pay", (address.clone(), None::<w2::Money>)).await.unwrap();
    assert_eq!(paid, format!("{} 0", address.city));
    let map =
        TypeMap::new(hessian::negotiate::message_classes(&plain_pay(&address), Default::default()).unwrap()).unwrap();
    let mut garbage = map.referring_header().to_vec();
    garbage.extend_from_slice(b"C\x03pay\x92\x60\x05");
    let (_, _, body) = raw(addr, &offer, &garbage).await;
    // as for the same bytes in a plain call: the argument fault, with the offset in this body
    let message = match hessian::h2::message::reply_from_slice(&body, Default::default()).unwrap() {
        Err(f) => f.message.unwrap_or_default(),
        Ok(v) => panic!("{v:?}"),
    };
    assert!(message.starts_with("pay: argument 1 of 2: ") && message.contains("offset 29"), "{message}");
    // a reply map the server does not have (or garbage) gets a plain reply
    for h in ["00112233445566778899aabbccddeeff", "nonsense"] {
        let (status, _, body) = raw(addr, &[offer[0], ("Hessian-Reply-Map", h)], &plain_pay(&address)).await;
        assert_eq!(status, 200);
        assert!(body.starts_with(b"H\x02\x00R"), "{body:?}");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 3 + 1 + 2, "only the well-formed calls ran");
    running.shutdown().await;
}

fn plain_pay(address: &w2::Address) -> Vec<u8> {
    let mut w = hessian::serde::message::CallWriter::new(Format::Hessian2, 2, "pay", &[], 2).unwrap();
    w.arg(address).unwrap();
    w.arg(&None::<w2::Money>).unwrap();
    w.finish().unwrap()
}

/// How [`fake`] answers a referring call.
#[derive(Clone, Copy)]
enum Referring {
    /// The refusal of `docs/negotiation.md` 6.1 for the digest the call named.
    Refuse,
    /// The same refusal without any header (an intermediary dropped them).
    RefuseBare,
    /// The refusal's fault naming another digest, with the extension's headers.
    RefuseOther,
    /// The W2 reply with no extension header at all (an intermediary dropped them).
    StrippedReply,
    /// This HTTP status with a text body.
    Status(u16, &'static str),
}

/// Caucho's answer to a referring call, as `HessianServlet` in a container shows it (6.2).
const CAUCHO_REFUSAL: &str = "<html><head><title>Error 500 com.caucho.hessian.io.HessianProtocolException: \
     expected hessian call (&#39;C&#39;) at 0x54 (T)</title></head></html>";

/// A fake server: answers plain calls with the W2 reply, confirming the W2 request map (or
/// listing a wrong digest), and referring calls (or, with `unknown_for_plain`, every call) as
/// `referring` says; counts requests.
async fn fake(listed: &'static str, unknown_for_plain: bool, referring: Referring) -> (SocketAddr, Arc<AtomicUsize>) {
    use http_body_util::{BodyExt, Full};
    let listener = tokio::net::TcpListener::bind(local()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let requests = Arc::new(AtomicUsize::new(0));
    let count = requests.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let count = count.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: http::Request<hyper::body::Incoming>| {
                    let count = count.clone();
                    async move {
                        count.fetch_add(1, Ordering::SeqCst);
                        let body = req.into_body().collect().await?.to_bytes();
                        let is_referring = hessian::negotiate::is_referring(&body);
                        let digest =
                            hessian::negotiate::to_hex(&body[5..21.min(body.len())].try_into().unwrap_or([0xab; 16]));
                        let refusal = |hex: &str| {
                            let f = hessian::Fault::new(
                                "UnknownTypeMap",
                                format!("unknown type map {hex}: resend the call as plain Hessian 2"),
                            );
                            hessian::h2::message::reply_to_vec(&Err(f)).unwrap()
                        };
                        let mut resp = http::Response::builder().header("Hessian-Type-Maps", "1");
                        let reply = match (is_referring || unknown_for_plain, referring) {
                            (false, _) => {
                                resp = resp.header("Hessian-Type-Map", listed);
                                reply_to_vec(Format::Hessian2, &w2::reply()).unwrap()
                            }
                            (true, Referring::Refuse) => {
                                resp = resp.header("Hessian-Type-Map-Unknown", &digest);
                                refusal(&digest)
                            }
                            (true, Referring::RefuseBare) => {
                                resp = http::Response::builder();
                                refusal(&digest)
                            }
                            (true, Referring::RefuseOther) => refusal(&"cd".repeat(16)),
                            (true, Referring::StrippedReply) => {
                                resp = http::Response::builder();
                                reply_to_vec(Format::Hessian2, &w2::reply()).unwrap()
                            }
                            (true, Referring::Status(status, text)) => {
                                resp = http::Response::builder().status(status).header("Content-Type", "text/html");
                                text.as_bytes().to_vec()
                            }
                        };
                        Ok::<_, hyper::Error>(resp.body(Full::new(Bytes::from(reply))).unwrap())
                    }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
            });
        }
    });
    (addr, requests)
}

/// At most once (`docs/negotiation.md` 6.2): only an answer whose content proves that nothing
/// ran is followed by a resend. A reply whose extension headers an intermediary dropped, a
/// refusal naming another map, and every HTTP error but Caucho's refusal of `T` are the call's
/// result, sent once.
#[tokio::test]
async fn a_referring_call_is_resent_only_after_a_refusal_that_proves_nothing_ran() {
    // (answer to the referring call, requests it takes, resent, the call's result is ok)
    let cases = [
        (Referring::Refuse, 2, true, true),
        (Referring::RefuseBare, 2, true, true),
        (Referring::StrippedReply, 1, false, true),
        (Referring::RefuseOther, 1, false, false),
        (Referring::Status(500, "internal error"), 1, false, false),
        (Referring::Status(502, "<html>502 Bad Gateway</html>"), 1, false, false),
        (Referring::Status(503, "<html>503 Service Temporarily Unavailable</html>"), 1, false, false),
        (Referring::Status(504, "<html>504 Gateway Time-out</html>"), 1, false, false),
        (Referring::Status(500, CAUCHO_REFUSAL), 2, true, true),
    ];
    for (i, (answer, requests_taken, resent, ok)) in cases.into_iter().enumerate() {
        let (addr, requests) = fake(W2_DIGEST, false, answer).await;
        let client = Client::new();
        let proxy = client.proxy(&format!("http://{addr}/bench")).unwrap();
        assert_eq!(exchange(&proxy).await, w2::reply(), "case {i}: the plain call");
        let result = proxy.call_typed::<_, w2::Order>("exchange", (w2::request(),)).await;
        assert_eq!(result.is_ok(), ok, "case {i}: {result:?}");
        if let Ok(order) = result {
            assert_eq!(order, w2::reply());
        }
        assert_eq!(requests.load(Ordering::SeqCst), 1 + requests_taken, "case {i}");
        let s = client.type_map_stats();
        assert_eq!((s.referring_calls, s.resends), (1, u64::from(resent)), "case {i}: {s:?}");
    }
    // a method's own fault cannot pass for the refusal: the code is reserved
    let service = hessian_rpc::Service::builder()
        .sync_method("pretend", &[], |_args| {
            Err(hessian::Fault::new("UnknownTypeMap", format!("unknown type map {W2_DIGEST}")))
        })
        .build();
    let running = HessianServer::single(service).bind(local()).await.unwrap();
    let proxy = Client::new().proxy(&running.url("/")).unwrap();
    let err = proxy.call("pretend", vec![]).await.unwrap_err();
    assert_eq!(err.fault().map(|f| f.code()), Some("ServiceException"), "{err}");
    running.shutdown().await;
}

/// The refusal's bytes are exactly those of `docs/negotiation.md` 6.1, from a server with the
/// extension and from one without it.
#[tokio::test]
async fn the_refusal_is_the_fault_of_the_spec_byte_for_byte() {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut referring = hessian::negotiate::REFERRING_PREFIX.to_vec();
    referring.push(hessian::negotiate::DIGEST_MARKER);
    referring.extend_from_slice(&hessian::negotiate::parse_digest(W2_DIGEST).unwrap());
    referring.extend_from_slice(b"C\x08exchange\x91\x60");
    let message = format!("unknown type map {W2_DIGEST}: resend the call as plain Hessian 2");
    let mut want = b"H\x02\x00FH\x04code\x0eUnknownTypeMap\x07message\x30".to_vec();
    want.push(message.len() as u8);
    want.extend_from_slice(message.as_bytes());
    want.push(b'Z');
    assert_eq!(want.len(), 121);
    let plain = {
        let mut c = TypeMapConfig::default();
        c.enabled = false;
        c
    };
    for (config, headers) in [(TypeMapConfig::default(), true), (plain, false)] {
        let (_, running) = start(local(), &runs, config).await;
        let (status, head, body) = raw(addr_of(&running), &[], &referring).await;
        assert_eq!(status, 200);
        assert_eq!(body, want, "{}", String::from_utf8_lossy(&body));
        let head = head.to_ascii_lowercase();
        assert_eq!(head.contains(&format!("hessian-type-map-unknown: {W2_DIGEST}\r\n")), headers, "{head}");
        running.shutdown().await;
    }
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_peer_that_always_says_unknown_costs_one_resend_per_call_and_no_loop() {
    let (addr, requests) = fake(W2_DIGEST, false, Referring::Refuse).await;
    let client = Client::new();
    let proxy = client.proxy(&format!("http://{addr}/bench")).unwrap();
    let calls = 10;
    for _ in 0..calls {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    // the first call plain; each later one referring, refused, resent plain (and confirmed again)
    assert_eq!(requests.load(Ordering::SeqCst), 1 + 2 * (calls - 1));
    let s = client.type_map_stats();
    assert_eq!((s.resends, s.unknown_type_map), (calls as u64 - 1, calls as u64 - 1), "{s:?}");

    // a peer that answers UnknownTypeMap even to a plain call: that answer is the call's result
    let (addr, requests) = fake(W2_DIGEST, true, Referring::Refuse).await;
    let proxy = client.proxy(&format!("http://{addr}/bench")).unwrap();
    let err = proxy.call_typed::<_, w2::Order>("exchange", (w2::request(),)).await.unwrap_err();
    assert_eq!(err.fault().map(|f| f.code()), Some("UnknownTypeMap"), "{err}");
    assert_eq!(requests.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_map_the_peer_lists_under_another_digest_is_never_used() {
    let (addr, requests) = fake("00112233445566778899aabbccddeeff", false, Referring::Refuse).await;
    let client = Client::new();
    let proxy = client.proxy(&format!("http://{addr}/bench")).unwrap();
    for _ in 0..5 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    assert_eq!(requests.load(Ordering::SeqCst), 5);
    let s = client.type_map_stats();
    assert_eq!((s.referring_calls, s.plain_calls), (0, 5), "{s:?}");
}

#[test]
fn the_blocking_client_negotiates_too() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let runs = Arc::new(AtomicUsize::new(0));
    let (_, running) = rt.block_on(start(local(), &runs, TypeMapConfig::default()));
    let client = hessian_rpc::BlockingClient::new();
    let proxy = client.proxy(&running.url("/bench")).unwrap();
    for _ in 0..5 {
        let got: w2::Order = proxy.call_typed("exchange", (w2::request(),)).unwrap();
        assert_eq!(got, w2::reply());
    }
    let got = proxy.call("getItems", vec![Value::Int(2)]).unwrap();
    assert!(matches!(got, Value::List(_)), "{got:?}");
    assert_eq!(client.type_map_stats().referring_calls, 4);
    rt.block_on(running.shutdown());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_clients_share_one_server_and_a_small_cache() {
    let runs = Arc::new(AtomicUsize::new(0));
    let small = {
        let mut c = TypeMapConfig::default();
        c.max_maps = 2;
        c
    };
    let (server, running) = start(local(), &runs, small).await;
    let url = running.url("/bench");
    let address = w2::request().customer.address;
    let mut tasks = Vec::new();
    for t in 0..8 {
        let (url, address) = (url.clone(), address.clone());
        tasks.push(tokio::spawn(async move {
            let client = Client::new();
            let proxy = client.proxy(&url).unwrap();
            for i in 0..40 {
                if (i + t) % 3 == 0 {
                    let m = Some(w2::request().total);
                    let paid: String = proxy.call_typed("pay", (address.clone(), m)).await.unwrap();
                    assert_eq!(paid, format!("{} 14000", address.city));
                } else {
                    assert_eq!(exchange(&proxy).await, w2::reply());
                }
            }
            client.type_map_stats()
        }));
    }
    let mut resends = 0;
    for t in tasks {
        let s = t.await.unwrap();
        assert_eq!(s.calls, 40);
        assert!(s.resends <= s.referring_calls, "{s:?}");
        resends += s.resends;
    }
    assert_eq!(runs.load(Ordering::SeqCst), 8 * 40, "every call ran exactly once");
    let st = server.type_map_stats();
    assert!(st.maps <= 2, "{st:?}");
    assert_eq!(st.unknown_type_map, resends, "each UnknownTypeMap cost one resend: {st:?}");
    running.shutdown().await;
}

/// A referring call offers the extension by its body (`docs/negotiation.md` 3): the Rust client
/// sends it with no `Hessian-Type-Maps` header, and a server answers it as an offering call,
/// with the header and the map of its plain reply when the call names no reply map.
#[tokio::test]
async fn a_referring_call_needs_no_offer_header() {
    let runs = Arc::new(AtomicUsize::new(0));
    let (server, running) = start(local(), &runs, TypeMapConfig::default()).await;
    let addr = running.local_addr();
    // the server learns the W2 request map from a plain call that offers the extension
    let mut w = hessian::serde::message::CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1).unwrap();
    w.arg(&w2::request()).unwrap();
    let (plain, classes) = w.finish_with_classes().unwrap();
    let map = TypeMap::new(classes).unwrap();
    assert_eq!(map.hex(), W2_DIGEST);
    let (status, head, _) = raw(addr, &[("Hessian-Type-Maps", "1")], &plain).await;
    assert_eq!(status, 200);
    // W2's reply has the request's classes in the request's order: one map, listed once
    assert!(head.to_ascii_lowercase().contains(&format!("hessian-type-map: {W2_DIGEST}\r\n")), "{head}");
    let reply_digest = W2_DIGEST;
    // a referring call without any header: run, answered with the reply map it learned, and
    // without the offer, which the client of a referring call does not read (6.2)
    let mut w =
        hessian::serde::message::CallWriter::referring(Format::Hessian2, &map, "exchange", 1, Vec::new()).unwrap();
    w.arg(&w2::request()).unwrap();
    let referring = w.finish().unwrap();
    let (status, head, body) = raw(addr, &[], &referring).await;
    let head = head.to_ascii_lowercase();
    assert_eq!(status, 200);
    assert!(!head.contains("hessian-type-maps:"), "{head}");
    assert!(head.contains(&format!("hessian-type-map: {reply_digest}\r\n")), "{head}");
    let reply = hessian::serde::message::reply_from_slice::<w2::Order>(Format::Hessian2, &body, Default::default());
    assert_eq!(reply.unwrap().unwrap(), w2::reply());
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    assert_eq!(server.type_map_stats().referring_calls, 1);

    // the Rust client's referring calls carry the reply map header only
    let seen = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let proxy_addr = header_recorder(addr, seen.clone()).await;
    let client = Client::new();
    let proxy = client.proxy(&format!("http://{proxy_addr}/bench")).unwrap();
    for _ in 0..3 {
        assert_eq!(exchange(&proxy).await, w2::reply());
    }
    assert_eq!(client.type_map_stats().referring_calls, 2);
    let heads = seen.lock().unwrap().clone();
    assert_eq!(heads.len(), 3);
    assert!(heads[0].contains("hessian-type-maps: 1\r\n"), "{}", heads[0]);
    for h in &heads[1..] {
        assert!(!h.contains("hessian-type-maps"), "{h}");
        assert!(h.contains(&format!("hessian-reply-map: {reply_digest}\r\n")), "{h}");
    }
    running.shutdown().await;
}

/// Reads one HTTP message (its head, then `Content-Length` bytes) from `from` into the front of
/// `buf`: its head in lower case and its length, or `None` when the stream ends first.
async fn read_message(from: &mut tokio::net::TcpStream, buf: &mut Vec<u8>) -> Option<(String, usize)> {
    use tokio::io::AsyncReadExt;
    let mut chunk = [0u8; 8192];
    let at = loop {
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
        match from.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    };
    let head = String::from_utf8_lossy(&buf[..at]).to_ascii_lowercase();
    let len: usize =
        head.lines().find_map(|l| l.strip_prefix("content-length: ")).and_then(|v| v.trim().parse().ok()).unwrap_or(0);
    while buf.len() < at + len {
        match from.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    Some((head, at + len))
}

/// A one-connection-at-a-time HTTP relay to `to` that records each request's head (lower case).
async fn header_recorder(to: SocketAddr, seen: Arc<std::sync::Mutex<Vec<String>>>) -> SocketAddr {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind(local()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut upstream = tokio::net::TcpStream::connect(to).await.unwrap();
                let (mut request, mut reply) = (Vec::new(), Vec::new());
                while let Some((head, len)) = read_message(&mut client, &mut request).await {
                    seen.lock().unwrap().push(head);
                    upstream.write_all(&request[..len]).await.unwrap();
                    request.drain(..len);
                    let (_, len) = read_message(&mut upstream, &mut reply).await.expect("the server's reply");
                    if client.write_all(&reply[..len]).await.is_err() {
                        return;
                    }
                    reply.drain(..len);
                }
            });
        }
    });
    addr
}
