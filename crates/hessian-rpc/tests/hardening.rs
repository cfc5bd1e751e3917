//! Server hardening on loopback: slow-loris and half-open connections time out, the connection
//! limit holds new connections back without losing them, a flood of malformed and hostile calls
//! (and panicking handlers) mixed with good calls loses no good call, and a bounded soak test
//! reports calls served, errors and peak memory.

use hessian::Value;
use hessian_rpc::{Client, HessianServer, RunningServer, Service};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn service() -> Service {
    Service::builder()
        .sync_method("echo", &["int", "string"], |a| Ok(Value::list(a)))
        .sync_method("panic", &[], |_| panic!("handler panicked on purpose"))
        .build()
}

async fn start(header: Duration, body: Duration, max_connections: usize) -> RunningServer {
    HessianServer::builder()
        .mount("/echo", service())
        .max_request_size(1 << 20)
        .header_read_timeout(header)
        .body_read_timeout(body)
        .max_connections(max_connections)
        .build()
        .bind("127.0.0.1:0")
        .await
        .expect("bind loopback")
}

/// Reads until the server closes the connection (or `limit` passes); returns what was read and
/// when the connection closed.
async fn read_until_closed(s: &mut TcpStream, limit: Duration) -> (Vec<u8>, Option<Duration>) {
    let t = Instant::now();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(limit.saturating_sub(t.elapsed()), s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (out, Some(t.elapsed())),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
            Err(_) => return (out, None),
        }
    }
}

async fn good_call(client: &Client, url: &str, id: i32) {
    let p = client.proxy(url).expect("proxy");
    let tag = format!("call-{id}");
    let got = p.call("echo", vec![Value::Int(id), Value::string(&tag)]).await.expect("a good call succeeds");
    assert_eq!(got, Value::list(vec![Value::Int(id), Value::string(tag)]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_loris_headers_time_out() {
    let server = start(Duration::from_millis(400), Duration::from_secs(5), 64).await;
    let started = Instant::now();
    let mut s = TcpStream::connect(server.local_addr()).await.expect("connect");
    // one header byte every 50 ms: never finishes within the header timeout
    let head = b"POST /echo HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    for b in head {
        if s.write_all(&[*b]).await.is_err() {
            break; // the server hung up
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        if started.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    let (_, closed) = read_until_closed(&mut s, Duration::from_secs(3)).await;
    assert!(closed.is_some(), "the slow-loris connection must be closed");
    assert!(started.elapsed() < Duration::from_secs(3), "closed after {:?}", started.elapsed());
    good_call(&Client::new(), &server.url("/echo"), 1).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_time_out() {
    let server = start(Duration::from_millis(300), Duration::from_millis(300), 64).await;
    // a connection that never says anything
    let mut silent = TcpStream::connect(server.local_addr()).await.expect("connect");
    let (_, closed) = read_until_closed(&mut silent, Duration::from_secs(3)).await;
    assert!(closed.is_some_and(|d| d < Duration::from_secs(2)), "silent connection closed after {closed:?}");
    // headers announcing 100 bytes, then 10 bytes and silence: 408, connection closed
    let mut stalled = TcpStream::connect(server.local_addr()).await.expect("connect");
    stalled
        .write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nH\x02\x00C\x04echo")
        .await
        .expect("send");
    let (out, closed) = read_until_closed(&mut stalled, Duration::from_secs(3)).await;
    assert!(out.starts_with(b"HTTP/1.1 408"), "{}", String::from_utf8_lossy(&out));
    assert!(closed.is_some_and(|d| d < Duration::from_secs(2)), "stalled body closed after {closed:?}");
    // an idle keep-alive connection is closed too, after a completed call
    let mut idle = TcpStream::connect(server.local_addr()).await.expect("connect");
    let call = hessian::h2::message::call_to_vec(&hessian::Call::new("echo", vec![Value::Int(1), Value::string("a")]))
        .expect("encode");
    let head = format!("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n", call.len());
    idle.write_all(head.as_bytes()).await.expect("send");
    idle.write_all(&call).await.expect("send");
    let (out, closed) = read_until_closed(&mut idle, Duration::from_secs(3)).await;
    assert!(out.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&out));
    assert!(closed.is_some(), "an idle keep-alive connection is closed by the header timeout");
    // many half-open connections at once do not stop good calls
    let mut held = Vec::new();
    for _ in 0..50 {
        held.push(TcpStream::connect(server.local_addr()).await.expect("connect"));
    }
    let client = Client::new();
    for i in 0..20 {
        good_call(&client, &server.url("/echo"), i).await;
    }
    drop(held);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_limit_holds_new_connections_back() {
    let server = start(Duration::from_millis(500), Duration::from_secs(5), 4).await;
    // four connections that say nothing take every slot until the header timeout frees them
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(TcpStream::connect(server.local_addr()).await.expect("connect"));
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let t = Instant::now();
    good_call(&Client::new(), &server.url("/echo"), 7).await;
    let waited = t.elapsed();
    assert!(waited >= Duration::from_millis(300), "served after {waited:?}: the limit did not hold");
    assert!(waited < Duration::from_secs(5), "served after {waited:?}");
    drop(held);
    server.shutdown().await;
}

/// Malformed, truncated and hostile request bodies.
fn bad_bodies() -> Vec<Vec<u8>> {
    let call = hessian::h2::message::call_to_vec(&hessian::Call::new("echo", vec![Value::Int(1), Value::string("x")]))
        .expect("encode");
    let mut deep = b"H\x02\x00C\x04echo\x92".to_vec();
    deep.extend(std::iter::repeat(0x79u8).take(100_000));
    let mut class_flood = b"H\x02\x00C\x04echo\x91".to_vec();
    for _ in 0..70_000 {
        class_flood.extend_from_slice(b"C\x01a\x90");
    }
    class_flood.push(b'N');
    vec![
        call[..call.len() - 3].to_vec(),
        b"H\x02\x00C\x04echo\x92\x58\x49\x7f\xff\xff\xff".to_vec(),
        deep,
        class_flood,
        b"c\x01\x00m\x00\x04echoV".repeat(1000),
        br#"<!DOCTYPE x [<!ENTITY e "&e;&e;">]><burlap:call><method>echo</method><string>&e;</string></burlap:call>"#
            .to_vec(),
        b"<burlap:call><method>echo</method>".repeat(2000),
        b"garbage that is not a call".to_vec(),
        vec![0xff; 1000],
    ]
}

async fn raw_post(addr: std::net::SocketAddr, body: &[u8]) -> u16 {
    let Ok(mut s) = TcpStream::connect(addr).await else { return 0 };
    let head = format!("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    if s.write_all(head.as_bytes()).await.is_err() || s.write_all(body).await.is_err() {
        return 0;
    }
    let (out, _) = read_until_closed(&mut s, Duration::from_secs(20)).await;
    String::from_utf8_lossy(&out).get(9..12).and_then(|x| x.parse().ok()).unwrap_or(0)
}

/// Runs `clients` tasks for `rounds` rounds each: a good call, a bad body, and a call to a
/// panicking handler per round. Returns (good calls served, bad bodies answered, panics turned
/// into faults).
async fn mixed_load(server: &RunningServer, clients: usize, rounds: usize) -> (usize, usize, usize) {
    let bad = std::sync::Arc::new(bad_bodies());
    let mut tasks = Vec::new();
    for c in 0..clients {
        let (url, addr, bad) = (server.url("/echo"), server.local_addr(), bad.clone());
        tasks.push(tokio::spawn(async move {
            let client = Client::builder().timeout(Duration::from_secs(60)).build();
            let (mut good, mut refused, mut faults) = (0, 0, 0);
            for r in 0..rounds {
                good_call(&client, &url, (c * rounds + r) as i32).await;
                good += 1;
                let status = raw_post(addr, &bad[(c + r) % bad.len()]).await;
                assert!(matches!(status, 200 | 400 | 413), "a bad body got HTTP {status}");
                refused += 1;
                let p = client.proxy(&url).expect("proxy");
                let err = p.call("panic", vec![]).await.expect_err("a panicking handler fails");
                assert!(err.fault().is_some(), "a panic becomes a fault: {err}");
                faults += 1;
            }
            (good, refused, faults)
        }));
    }
    let mut total = (0, 0, 0);
    for t in tasks {
        let (g, r, f) = tokio::time::timeout(Duration::from_secs(300), t).await.expect("bounded").expect("client task");
        total = (total.0 + g, total.1 + r, total.2 + f);
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_flood_mixed_with_good_calls_loses_none() {
    let server = start(Duration::from_secs(10), Duration::from_secs(10), 256).await;
    let (good, refused, faults) = mixed_load(&server, 8, 25).await;
    assert_eq!((good, refused, faults), (200, 200, 200));
    good_call(&Client::new(), &server.url("/echo"), -1).await;
    server.shutdown().await;
}

/// Peak resident memory of this process (`VmHWM`), in KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Bounded soak on loopback (a fixed number of rounds, a few seconds): prints calls served,
/// errors and peak memory, and checks that no good call was lost and memory stayed bounded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_reports_calls_errors_and_peak_memory() {
    let server = start(Duration::from_secs(10), Duration::from_secs(10), 256).await;
    let before = peak_rss_kib();
    let t = Instant::now();
    let (good, refused, faults) = mixed_load(&server, 16, 40).await;
    let took = t.elapsed();
    let after = peak_rss_kib();
    eprintln!(
        "soak: {good} good calls served, {refused} malformed/hostile bodies refused, {faults} handler panics \
         turned into faults, 0 good calls lost, in {took:?}; peak RSS {before} KiB before, {after} KiB after"
    );
    assert_eq!((good, refused, faults), (640, 640, 640));
    // every hostile body is refused within bounded memory: the peak grows by far less than
    // what expanding any of them would take
    assert!(after.saturating_sub(before) < 512 * 1024, "peak RSS grew by {} KiB", after - before);
    server.shutdown().await;
}
