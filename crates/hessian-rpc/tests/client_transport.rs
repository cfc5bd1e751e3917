//! The client's HTTP/1.1 transport against scripted servers (plain `std::net` sockets that answer
//! each request with what the test says: chunked replies, `Connection: close`, idle closes,
//! partial replies, errors) and against the project's hyper server: keep-alive reuse, the stale
//! connection retry (and no retry once the server may have processed the call), timeouts, limits.

use hessian::Value;
use hessian_demo::bench_service;
use hessian_rpc::{protocol, BlockingClient, Client, Dialect, Error, Format, HessianServer};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What the scripted server does with request `n` (counted over all connections) of
/// connection `conn`.
#[derive(Clone)]
enum Action {
    /// Write these bytes, keep the connection open for the next request.
    Reply(Vec<u8>),
    /// Write these bytes, then close the connection.
    ReplyClose(Vec<u8>),
    /// Write these bytes, then hold the connection open without reading (for timeouts).
    ReplyHold(Vec<u8>),
}

struct Scripted {
    port: u16,
    connections: Arc<AtomicUsize>,
    requests: Arc<AtomicUsize>,
}

impl Scripted {
    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/svc", self.port)
    }
}

/// Reads one request (head and Content-Length body); `None` at end of stream.
fn read_request(r: &mut BufReader<TcpStream>) -> Option<(String, Vec<u8>)> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let end = line == "\r\n";
        head.push_str(&line);
        if end {
            break;
        }
    }
    let len: usize = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
        .expect("a Content-Length");
    let mut body = vec![0; len];
    r.read_exact(&mut body).ok()?;
    Some((head, body))
}

fn scripted(script: impl Fn(usize, usize, &str) -> Action + Send + Sync + 'static) -> Scripted {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let requests = Arc::new(AtomicUsize::new(0));
    let script = Arc::new(script);
    let (c, r) = (connections.clone(), requests.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            let conn = c.fetch_add(1, Ordering::SeqCst);
            let (r, script) = (r.clone(), script.clone());
            std::thread::spawn(move || {
                let mut w = stream.try_clone().unwrap();
                let mut rd = BufReader::new(stream);
                while let Some((head, _body)) = read_request(&mut rd) {
                    let n = r.fetch_add(1, Ordering::SeqCst);
                    match script(conn, n, &head) {
                        Action::Reply(b) => {
                            if w.write_all(&b).is_err() {
                                return;
                            }
                        }
                        Action::ReplyClose(b) => {
                            let _ = w.write_all(&b);
                            return;
                        }
                        Action::ReplyHold(b) => {
                            let _ = w.write_all(&b);
                            std::thread::sleep(Duration::from_secs(3));
                            return;
                        }
                    }
                }
            });
        }
    });
    Scripted { port, connections, requests }
}

fn hessian2_reply(v: Value) -> Vec<u8> {
    protocol::encode_reply(Format::Hessian2, &Ok(v)).unwrap()
}

fn with_length(extra_headers: &str, body: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: x-application/hessian\r\n{extra_headers}Content-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    r.extend_from_slice(body);
    r
}

/// The reply in chunks of `size` bytes, with an extension on every chunk and a trailer, as a
/// Java servlet container may send it.
fn chunked(body: &[u8], size: usize) -> Vec<u8> {
    let mut r =
        b"HTTP/1.1 200 OK\r\nContent-Type: x-application/hessian\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for c in body.chunks(size) {
        r.extend_from_slice(format!("{:x};seq=1\r\n", c.len()).as_bytes());
        r.extend_from_slice(c);
        r.extend_from_slice(b"\r\n");
    }
    r.extend_from_slice(b"0\r\nX-Trailer: done\r\n\r\n");
    r
}

#[tokio::test]
async fn chunked_replies_decode_and_keep_the_connection() {
    let items = hessian_testkit::workloads::items(100);
    let reply = hessian2_reply(items.clone());
    let server = scripted(move |_, n, _| Action::Reply(chunked(&reply, 1 + n * 37 % 4096)));
    let proxy = Client::new().proxy(&server.url()).unwrap();
    for _ in 0..10 {
        assert_eq!(proxy.call("getItems", vec![Value::Int(100)]).await.unwrap(), items);
    }
    assert_eq!(server.connections.load(Ordering::SeqCst), 1, "one keep-alive connection");
}

#[tokio::test]
async fn requests_are_well_formed() {
    let reply = hessian2_reply(Value::Null);
    let heads = Arc::new(std::sync::Mutex::new(Vec::new()));
    let h = heads.clone();
    let server = scripted(move |_, _, head| {
        h.lock().unwrap().push(head.to_owned());
        Action::Reply(with_length("", &reply))
    });
    let proxy = Client::new().proxy(&format!("http://localhost:{}/a/b?c=d", server.port)).unwrap();
    proxy.call("m", vec![]).await.unwrap();
    let heads = heads.lock().unwrap();
    let head = &heads[0];
    assert!(head.starts_with("POST /a/b?c=d HTTP/1.1\r\n"), "{head}");
    assert!(head.contains(&format!("\r\nHost: localhost:{}\r\n", server.port)), "{head}");
    assert!(head.contains("\r\nContent-Type: x-application/hessian\r\n"), "{head}");
}

#[tokio::test]
async fn connection_close_is_honoured() {
    let reply = hessian2_reply(Value::Int(1));
    let server = scripted(move |_, _, _| Action::ReplyClose(with_length("Connection: close\r\n", &reply)));
    let proxy = Client::new().proxy(&server.url()).unwrap();
    for _ in 0..5 {
        assert_eq!(proxy.call("m", vec![]).await.unwrap(), Value::Int(1));
    }
    assert_eq!(server.connections.load(Ordering::SeqCst), 5);
}

#[tokio::test]
async fn a_connection_closed_while_idle_is_retried_once() {
    // every connection answers one call, then the server closes it without saying so
    let reply = hessian2_reply(Value::Int(2));
    let server = scripted(move |_, _, _| Action::ReplyClose(with_length("", &reply)));
    let proxy = Client::new().proxy(&server.url()).unwrap();
    for i in 1..=5 {
        assert_eq!(proxy.call("m", vec![]).await.unwrap(), Value::Int(2));
        // let the close arrive, so the next call finds a stale pooled connection
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(server.requests.load(Ordering::SeqCst), i, "each call reached the server once");
    }
    assert_eq!(server.connections.load(Ordering::SeqCst), 5);
}

/// The race the pool check cannot see: the server closes a keep-alive connection just as the
/// next request goes out, sending nothing back. The call is sent again, once, on a fresh
/// connection.
#[tokio::test]
async fn a_connection_closed_as_the_call_goes_out_is_retried_once() {
    let reply = hessian2_reply(Value::Int(8));
    let server = scripted(move |conn, n, _| {
        if conn == 0 && n == 1 {
            Action::ReplyClose(Vec::new())
        } else {
            Action::Reply(with_length("", &reply))
        }
    });
    let proxy = Client::new().proxy(&server.url()).unwrap();
    assert_eq!(proxy.call("m", vec![]).await.unwrap(), Value::Int(8));
    assert_eq!(proxy.call("m", vec![]).await.unwrap(), Value::Int(8));
    assert_eq!(server.connections.load(Ordering::SeqCst), 2);
    assert_eq!(server.requests.load(Ordering::SeqCst), 3);
    // twice in a row on fresh connections is an error, not a loop
    let server = scripted(|_, n, _| {
        if n == 0 {
            Action::Reply(with_length("", &hessian2_reply(Value::Null)))
        } else {
            Action::ReplyClose(Vec::new())
        }
    });
    let proxy = Client::new().proxy(&server.url()).unwrap();
    proxy.call("m", vec![]).await.unwrap();
    let err = proxy.call("m", vec![]).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err}");
    assert_eq!(server.requests.load(Ordering::SeqCst), 3, "one retry only");
}

#[tokio::test]
async fn no_retry_once_the_server_may_have_processed_the_call() {
    // the first call succeeds; the second gets half a reply and the connection closes
    let reply = hessian2_reply(Value::Int(3));
    let server = scripted(move |_, n, _| {
        if n == 0 {
            Action::Reply(with_length("", &reply))
        } else {
            Action::ReplyClose(b"HTTP/1.1 200 OK\r\nContent-Le".to_vec())
        }
    });
    let proxy = Client::new().proxy(&server.url()).unwrap();
    assert_eq!(proxy.call("m", vec![]).await.unwrap(), Value::Int(3));
    let err = proxy.call("m", vec![]).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err}");
    assert_eq!(server.requests.load(Ordering::SeqCst), 2, "not sent again");
    // a fresh connection closed without any reply is not retried either
    let server = scripted(|_, _, _| Action::ReplyClose(Vec::new()));
    let err = Client::new().proxy(&server.url()).unwrap().call("m", vec![]).await.unwrap_err();
    assert!(matches!(&err, Error::Transport(m) if m.contains("without replying")), "{err}");
    assert_eq!(server.requests.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn http_errors_carry_status_and_body() {
    let server = scripted(|_, _, _| {
        Action::Reply(
            b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nboom".to_vec(),
        )
    });
    let proxy = Client::new().proxy(&server.url()).unwrap();
    for _ in 0..2 {
        let err = proxy.call("m", vec![]).await.unwrap_err();
        assert!(matches!(&err, Error::Http { status, body, .. } if *status == 500 && body == "boom"), "{err}");
    }
    assert_eq!(server.connections.load(Ordering::SeqCst), 1, "an error reply keeps the connection");
    // a chunked error page
    let server = scripted(|_, _, _| {
        Action::Reply(
            b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nno \r\n4\r\nsuch\r\n0\r\n\r\n".to_vec(),
        )
    });
    let err = Client::new().proxy(&server.url()).unwrap().call("m", vec![]).await.unwrap_err();
    assert!(matches!(&err, Error::Http { status, body, .. } if *status == 404 && body == "no such"), "{err}");
}

#[tokio::test]
async fn malformed_replies_are_transport_errors() {
    for raw in [
        &b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n"[..],
        b"HTTP/1.1 2x0 OK\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort",
    ] {
        let raw = raw.to_vec();
        let server = scripted(move |_, _, _| Action::ReplyClose(raw.clone()));
        let err = Client::new().proxy(&server.url()).unwrap().call("m", vec![]).await.unwrap_err();
        assert!(matches!(err, Error::Transport(_)), "{err}");
    }
}

#[tokio::test]
async fn reply_size_limit_holds() {
    let reply = hessian2_reply(Value::String("x".repeat(10_000)));
    let (r1, r2) = (reply.clone(), reply.clone());
    let server = scripted(move |_, _, _| Action::Reply(with_length("", &r1)));
    let err = Client::builder().max_reply_size(1000).build().proxy(&server.url()).unwrap().call("m", vec![]).await;
    assert!(matches!(&err, Err(Error::Transport(m)) if m.contains("max_reply_size")), "{err:?}");
    let server = scripted(move |_, _, _| Action::Reply(chunked(&r2, 300)));
    let err = Client::builder().max_reply_size(1000).build().proxy(&server.url()).unwrap().call("m", vec![]).await;
    assert!(matches!(&err, Err(Error::Transport(m)) if m.contains("max_reply_size")), "{err:?}");
}

#[tokio::test]
async fn a_timed_out_call_does_not_poison_the_pool() {
    let reply = hessian2_reply(Value::Int(4));
    let server = scripted(move |_, n, _| {
        if n == 0 {
            // the head and half the body, then silence
            let full = with_length("", &reply);
            Action::ReplyHold(full[..full.len() - 2].to_vec())
        } else {
            Action::Reply(with_length("", &reply))
        }
    });
    let proxy = Client::builder().timeout(Duration::from_millis(200)).build().proxy(&server.url()).unwrap();
    let err = proxy.call("m", vec![]).await.unwrap_err();
    assert!(matches!(err, Error::Timeout(_)), "{err}");
    assert_eq!(proxy.call("m", vec![]).await.unwrap(), Value::Int(4));
    assert_eq!(server.connections.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn idle_timeout_and_max_idle() {
    let reply = hessian2_reply(Value::Int(5));
    let server = scripted(move |_, _, _| Action::Reply(with_length("", &reply)));
    let client = Client::builder().pool_idle_timeout(Duration::from_millis(100)).build();
    let proxy = client.proxy(&server.url()).unwrap();
    proxy.call("m", vec![]).await.unwrap();
    proxy.call("m", vec![]).await.unwrap();
    assert_eq!(server.connections.load(Ordering::SeqCst), 1);
    tokio::time::sleep(Duration::from_millis(200)).await;
    proxy.call("m", vec![]).await.unwrap();
    assert_eq!(server.connections.load(Ordering::SeqCst), 2, "the idle connection expired");
    // no idle connections kept at all
    let reply = hessian2_reply(Value::Int(5));
    let server = scripted(move |_, _, _| Action::Reply(with_length("", &reply)));
    let proxy = Client::builder().pool_max_idle_per_host(0).build().proxy(&server.url()).unwrap();
    for _ in 0..3 {
        proxy.call("m", vec![]).await.unwrap();
    }
    assert_eq!(server.connections.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn concurrent_calls_use_several_connections_then_reuse_them() {
    let reply = hessian2_reply(Value::Int(6));
    let server = scripted(move |_, _, _| {
        std::thread::sleep(Duration::from_millis(20));
        Action::Reply(with_length("", &reply))
    });
    let client = Client::new();
    for _ in 0..3 {
        let calls: Vec<_> = (0..4)
            .map(|_| {
                let p = client.proxy(&server.url()).unwrap();
                tokio::spawn(async move { p.call("m", vec![]).await.unwrap() })
            })
            .collect();
        for c in calls {
            assert_eq!(c.await.unwrap(), Value::Int(6));
        }
    }
    let n = server.connections.load(Ordering::SeqCst);
    assert!((1..=4).contains(&n), "{n} connections for 4 concurrent callers");
}

#[tokio::test]
async fn connect_errors_are_transport_errors() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let err = Client::new().proxy(&format!("http://127.0.0.1:{port}/")).unwrap().call("m", vec![]).await.unwrap_err();
    assert!(matches!(&err, Error::Transport(m) if m.contains("connecting to")), "{err}");
    let client = Client::builder().connect_timeout(Duration::from_secs(2)).build();
    let err = client.proxy("http://no-such-host.invalid/").unwrap().call("m", vec![]).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_) | Error::Timeout(_)), "{err}");
}

#[test]
fn blocking_client_reuses_its_connection_from_several_threads() {
    let reply = hessian2_reply(Value::Int(7));
    let server = scripted(move |_, _, _| Action::Reply(with_length("", &reply)));
    let client = BlockingClient::new();
    let proxy = client.proxy(&server.url()).unwrap();
    for _ in 0..5 {
        assert_eq!(proxy.call("m", vec![]).unwrap(), Value::Int(7));
    }
    assert_eq!(server.connections.load(Ordering::SeqCst), 1);
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let p = proxy.clone();
            std::thread::spawn(move || {
                for _ in 0..20 {
                    assert_eq!(p.call("m", vec![]).unwrap(), Value::Int(7));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(server.requests.load(Ordering::SeqCst), 85);
}

/// The project's hyper server: calls on one client share one keep-alive connection, from the
/// async client and from the blocking one, and a server restart (every pooled connection
/// closed) is survived through the stale-connection retry.
#[test]
fn against_the_hyper_server() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server =
        rt.block_on(HessianServer::builder().mount("/bench", bench_service()).build().bind("127.0.0.1:0")).unwrap();
    let url = server.url("/bench");
    let blocking = BlockingClient::new();
    let bp = blocking.proxy(&url).unwrap();
    let items = hessian_testkit::workloads::items(5000);
    for _ in 0..3 {
        assert_eq!(bp.call("getItems", vec![Value::Int(5000)]).unwrap(), items);
    }
    let client = Client::new();
    let p = client.proxy(&url).unwrap();
    rt.block_on(async {
        for _ in 0..3 {
            assert_eq!(p.call("getItems", vec![Value::Int(5000)]).await.unwrap(), items);
        }
    });
    let addr = server.local_addr();
    rt.block_on(server.shutdown());
    // the same port again: the pooled connections are dead
    let server = rt
        .block_on(async {
            for _ in 0..50 {
                if let Ok(s) = HessianServer::builder().mount("/bench", bench_service()).build().bind(addr).await {
                    return Some(s);
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            None
        })
        .expect("rebind the port");
    assert_eq!(bp.call("getItems", vec![Value::Int(3)]).unwrap(), hessian_testkit::workloads::items(3));
    rt.block_on(async {
        assert_eq!(p.call("getItems", vec![Value::Int(3)]).await.unwrap(), hessian_testkit::workloads::items(3));
    });
    rt.block_on(server.shutdown());
}

/// The server refuses a call too large for it before reading it all: the client, whose write
/// then fails, still reports the server's answer.
#[tokio::test]
async fn a_call_too_large_for_the_server_gets_its_413() {
    let server = HessianServer::builder()
        .mount("/bench", bench_service())
        .max_request_size(64 * 1024)
        .build()
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let proxy = Client::new().proxy(&server.url("/bench")).unwrap();
    for size in [100_000, 8 << 20] {
        let err = proxy.call("getItems", vec![Value::String("x".repeat(size))]).await.unwrap_err();
        assert!(matches!(&err, Error::Http { status, .. } if *status == 413), "{size}: {err}");
    }
    assert_eq!(proxy.call("getItems", vec![Value::Int(1)]).await.unwrap(), hessian_testkit::workloads::items(1));
    server.shutdown().await;
}

/// A pooled connection belongs to the runtime that opened it: a client shared by two runtimes
/// opens one connection on each, and outlives the first one.
#[test]
fn a_client_outlives_the_runtime_that_opened_its_connections() {
    let reply = hessian2_reply(Value::Int(9));
    let server = scripted(move |_, _, _| Action::Reply(with_length("", &reply)));
    let client = Client::new();
    let proxy = client.proxy(&server.url()).unwrap();
    for _ in 0..2 {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        for _ in 0..3 {
            assert_eq!(rt.block_on(proxy.call("m", vec![])).unwrap(), Value::Int(9));
        }
        drop(rt);
    }
    assert_eq!(server.connections.load(Ordering::SeqCst), 2);
    drop(client);
    drop(proxy);
}

#[tokio::test]
async fn pages_that_are_not_hessian_are_reported_with_status_and_type() {
    let page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 49\r\n\r\n<html>\n<body>Please log in first</body>\n</html>\n\n".to_vec();
    for dialect in [Dialect::HESSIAN2, Dialect::HESSIAN1, Dialect::HYBRID, Dialect::BURLAP] {
        for type_maps in [true, false] {
            let page = page.clone();
            let server = scripted(move |_, _, _| Action::Reply(page.clone()));
            let proxy = Client::builder().dialect(dialect).type_maps(type_maps).build().proxy(&server.url()).unwrap();
            let err = proxy.call("m", vec![]).await.unwrap_err();
            assert!(
                matches!(&err, Error::NotHessian { status: 200, content_type: Some(t), body }
                    if t == "text/html; charset=utf-8" && body == "Please log in first"),
                "{dialect:?}: {err}"
            );
            assert!(err.to_string().contains("not Hessian"), "{err}");
        }
    }
    // an error page: its status, type and (without a title or heading) its text, not the whole page
    let long = format!("<!DOCTYPE html>{}\n<p>more</p>", "x".repeat(500));
    let raw =
        format!("HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{long}", long.len());
    let server = scripted(move |_, _, _| Action::Reply(raw.clone().into_bytes()));
    let err = Client::new().proxy(&server.url()).unwrap().call("m", vec![]).await.unwrap_err();
    match &err {
        Error::Http { status, content_type, body } => {
            assert_eq!(status.as_u16(), 502);
            assert_eq!(content_type.as_deref(), Some("text/html"));
            assert_eq!(body.chars().count(), 201, "{body}");
            assert!(body.ends_with('…'));
        }
        other => panic!("{other}"),
    }
    assert!(err.to_string().starts_with("HTTP status 502 Bad Gateway (text/html): xxx"), "{err}");
}

#[tokio::test]
async fn configured_headers_and_basic_auth_go_with_every_call() {
    let reply = hessian2_reply(Value::Int(1));
    let server = scripted(move |_, _, head| {
        let lower = head.to_ascii_lowercase();
        // Caucho's HessianProxyFactory.setUser("aladdin") + setPassword("open sesame")
        if lower.contains("\r\nauthorization: basic YWxhZGRpbjpvcGVuIHNlc2FtZQ==".to_ascii_lowercase().as_str())
            && lower.contains("\r\nx-trace: 7")
        {
            Action::Reply(with_length("", &reply))
        } else {
            Action::Reply(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n".to_vec())
        }
    });
    for type_maps in [true, false] {
        let client =
            Client::builder().type_maps(type_maps).basic_auth("aladdin", "open sesame").header("X-Trace", "7").build();
        let proxy = client.proxy(&server.url()).unwrap();
        for _ in 0..3 {
            assert_eq!(proxy.call("m", vec![]).await.unwrap(), Value::Int(1));
        }
    }
    let err = Client::new().proxy(&server.url()).unwrap().call("m", vec![]).await.unwrap_err();
    assert!(matches!(&err, Error::Http { status, .. } if status.as_u16() == 401), "{err}");
    // a header that would break the request head is refused before anything is sent
    let before = server.requests.load(Ordering::SeqCst);
    for (name, value) in [("X-Bad", "a\r\nInjected: 1"), ("Bad Name", "v"), ("", "v")] {
        let proxy = Client::builder().header(name, value).build().proxy(&server.url()).unwrap();
        let err = proxy.call("m", vec![]).await.unwrap_err();
        assert!(matches!(&err, Error::InvalidHeader { .. }), "{err}");
    }
    assert_eq!(server.requests.load(Ordering::SeqCst), before);
}

#[tokio::test]
async fn a_raw_reply_is_the_body_as_it_arrived() {
    let reply = hessian2_reply(Value::string("as sent"));
    let r = reply.clone();
    let server = scripted(move |_, _, _| Action::Reply(with_length("", &r)));
    let proxy = Client::new().proxy(&server.url()).unwrap();
    let raw = proxy.call_raw(&hessian::Call::new("m", vec![])).await.unwrap();
    assert_eq!(&raw[..], &reply[..]);
}
