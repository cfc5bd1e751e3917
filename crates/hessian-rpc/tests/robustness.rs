//! Bad input and load: malformed, truncated and oversized bodies get a fault or an HTTP error
//! and the server keeps serving; panicking handlers become faults; 200 concurrent clients make
//! 20,000 calls with every reply checked against its own call; graceful shutdown lets an
//! in-flight call finish.

use hessian::Value;
use hessian_demo::bench_service;
use hessian_rpc::{Client, Error, HessianServer, RunningServer, Service};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn echo_service() -> Service {
    Service::builder()
        .sync_method("echo", &["int", "string"], |a| Ok(Value::list(a)))
        .sync_method("panic", &[], |_| panic!("handler panicked on purpose"))
        .method("slow", &["int"], |_, a| async move {
            tokio::time::sleep(Duration::from_millis(a[0].as_i64().unwrap_or(0) as u64)).await;
            Ok(Value::Bool(true))
        })
        .build()
}

async fn start(max: usize) -> RunningServer {
    HessianServer::builder()
        .mount("/echo", echo_service())
        .mount("/bench", bench_service())
        .max_request_size(max)
        .build()
        .bind("127.0.0.1:0")
        .await
        .unwrap()
}

/// Sends raw bytes as one HTTP/1.1 request and returns (status, body).
async fn raw_post(server: &RunningServer, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(server.local_addr()).await.unwrap();
    let head =
        format!("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    parse_response(&out)
}

fn parse_response(out: &[u8]) -> (u16, Vec<u8>) {
    let text = String::from_utf8_lossy(out);
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = out.windows(4).position(|w| w == b"\r\n\r\n").map(|p| out[p + 4..].to_vec()).unwrap_or_default();
    (status, body)
}

async fn still_serves(server: &RunningServer) {
    let p = Client::new().proxy(&server.url("/echo")).unwrap();
    let v = p.call("echo", vec![Value::Int(7), Value::string("ok")]).await.unwrap();
    assert_eq!(v, Value::list(vec![Value::Int(7), Value::string("ok")]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_truncated_calls_get_faults() {
    let server = start(1 << 20).await;
    let good =
        hessian::h2::message::call_to_vec(&hessian::Call::new("echo", vec![Value::Int(1), Value::string("hello")]))
            .unwrap();
    // every strict prefix of a valid call that is still recognisably Hessian 2 gets a fault
    for n in 1..good.len() {
        let (status, body) = raw_post(&server, "/echo", &good[..n]).await;
        assert_eq!(status, 200, "prefix {n}");
        let reply = hessian::h2::message::reply_from_slice(&body, Default::default()).unwrap();
        assert_eq!(reply.unwrap_err().code, "ProtocolException", "prefix {n}");
    }
    let cases: &[&[u8]] = &[
        b"H\x02\x00C\x04echo\x92\xff\xff\xff",  // bad value codes
        b"H\x02\x00C\x04echo\xd7\xff\xff",      // absurd argument count
        b"H\x02\x00C\x04echo\x91X\xd7\xff\xff", // list longer than the input
        b"H\x09\x00C\x04echo\x90",              // wrong major version
        b"H\x02\x00C\x04echo\x92\x91\x01\x41Z", // trailing bytes
        b"H\x02\x00C\x04echo\x91Q\x90",         // reference to nothing
    ];
    for case in cases {
        let (status, body) = raw_post(&server, "/echo", case).await;
        assert_eq!(status, 200, "{case:?}");
        assert!(!body.is_empty(), "{case:?}");
    }
    // Hessian 1 and Burlap: every strict prefix of a valid call gets a fault in the call's reply
    // protocol, or HTTP 400 when too little is left to tell the protocol
    let h1 =
        hessian::h1::call_to_vec(&hessian::Call::new("echo", vec![Value::Int(1), Value::string("hello")])).unwrap();
    let burlap =
        hessian::burlap::call_to_vec(&hessian::Call::new("echo", vec![Value::Int(1), Value::string("hello")])).unwrap();
    for good in [&h1, &burlap] {
        for n in 0..good.len() {
            let (status, body) = raw_post(&server, "/echo", &good[..n]).await;
            assert!(status == 400 || (status == 200 && !body.is_empty()), "prefix {n}: {status}");
        }
        let (status, _) = raw_post(&server, "/echo", good).await;
        assert_eq!(status, 200);
    }
    // nesting bomb: 100,000 nested lists, limited by max_depth
    let mut bomb = b"H\x02\x00C\x04echo\x92".to_vec();
    bomb.extend(std::iter::repeat_n(0x79u8, 100_000));
    let (status, body) = raw_post(&server, "/echo", &bomb).await;
    assert_eq!(status, 200);
    assert_eq!(
        hessian::h2::message::reply_from_slice(&body, Default::default()).unwrap().unwrap_err().code,
        "ProtocolException"
    );
    // as in HessianSkeleton, a Hessian 2 call's argument count is checked before any argument
    // is decoded: the same bomb declaring one argument is refused as a count mismatch
    bomb[9] = 0x91;
    let (status, body) = raw_post(&server, "/echo", &bomb).await;
    assert_eq!(status, 200);
    assert_eq!(
        hessian::h2::message::reply_from_slice(&body, Default::default()).unwrap().unwrap_err().code,
        "NoSuchMethod"
    );
    // not Hessian at all, empty
    assert_eq!(raw_post(&server, "/echo", b"GET / HTTP/1.0").await.0, 400);
    assert_eq!(raw_post(&server, "/echo", b"").await.0, 400);
    still_serves(&server).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_get_413_with_or_without_length() {
    let server = start(64 * 1024).await;
    let big = hessian::h2::message::call_to_vec(&hessian::Call::new(
        "echo",
        vec![Value::Int(1), Value::String("x".repeat(100_000))],
    ))
    .unwrap();
    assert_eq!(raw_post(&server, "/echo", &big).await.0, 413);
    // chunked, no Content-Length: the limit applies while reading
    let mut s = TcpStream::connect(server.local_addr()).await.unwrap();
    s.write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    for chunk in big.chunks(8192) {
        s.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).await.unwrap();
        s.write_all(chunk).await.unwrap();
        if s.write_all(b"\r\n").await.is_err() {
            break;
        }
    }
    let _ = s.write_all(b"0\r\n\r\n").await;
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    assert_eq!(parse_response(&out).0, 413);
    // GET and unknown paths
    let client = Client::new();
    let err = client.proxy(&server.url("/missing")).unwrap().call("echo", vec![]).await.unwrap_err();
    assert!(matches!(err, Error::Http { status, .. } if status == 404), "{err}");
    let mut s = TcpStream::connect(server.local_addr()).await.unwrap();
    s.write_all(b"GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    assert_eq!(parse_response(&out).0, 405);
    still_serves(&server).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn panicking_handler_becomes_a_fault() {
    let server = start(1 << 20).await;
    let p = Client::new().proxy(&server.url("/echo")).unwrap();
    for _ in 0..3 {
        let err = p.call("panic", vec![]).await.unwrap_err();
        let f = err.fault().expect("fault");
        assert_eq!(f.code(), "ServiceException");
        assert_eq!(f.exception_class(), Some("java.lang.RuntimeException"));
    }
    still_serves(&server).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_clients_twenty_thousand_calls() {
    const CLIENTS: usize = 200;
    const CALLS: usize = 100;
    let server = start(1 << 20).await;
    let url = server.url("/echo");
    let bench_url = server.url("/bench");
    let started = std::time::Instant::now();
    let mut tasks = Vec::new();
    for c in 0..CLIENTS {
        let (url, bench_url) = (url.clone(), bench_url.clone());
        tasks.push(tokio::spawn(async move {
            // each task is its own client with its own connection pool
            let client = Client::builder().timeout(Duration::from_secs(60)).build();
            let echo = client.proxy(&url).unwrap();
            let bench = client.proxy(&bench_url).unwrap();
            for i in 0..CALLS {
                let id = (c * CALLS + i) as i32;
                if i % 10 == 9 {
                    let n = (id % 7) as usize;
                    let got = bench.call("getItems", vec![Value::Int(n as i32)]).await.unwrap();
                    assert_eq!(got, hessian_testkit::workloads::items(n), "client {c} call {i}");
                } else {
                    let tag = format!("client-{c}-call-{i}");
                    let got = echo.call("echo", vec![Value::Int(id), Value::String(tag.clone())]).await.unwrap();
                    assert_eq!(got, Value::list(vec![Value::Int(id), Value::String(tag)]), "client {c} call {i}");
                }
            }
            CALLS
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += tokio::time::timeout(Duration::from_secs(120), t).await.expect("bounded").expect("client task");
    }
    assert_eq!(total, CLIENTS * CALLS);
    eprintln!("{total} calls from {CLIENTS} clients in {:?}", started.elapsed());
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_finishes_in_flight_calls() {
    let server = start(1 << 20).await;
    let url = server.url("/echo");
    let inflight =
        tokio::spawn(async move { Client::new().proxy(&url).unwrap().call("slow", vec![Value::Int(300)]).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    server.shutdown().await;
    assert_eq!(inflight.await.unwrap().unwrap(), Value::Bool(true));
}

/// Reads one HTTP/1.1 response with a Content-Length from `s`; returns (status, body).
async fn read_one(s: &mut TcpStream) -> (u16, Vec<u8>) {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut byte).await.unwrap();
        buf.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
        .expect("content-length");
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).await.unwrap();
    (parse_response(&buf).0, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_alive_serves_many_calls_on_one_connection() {
    let server = start(1 << 20).await;
    let mut s = TcpStream::connect(server.local_addr()).await.unwrap();
    s.set_nodelay(true).unwrap();
    let mut times = Vec::new();
    for i in 0..20 {
        let started = std::time::Instant::now();
        let body =
            hessian::h2::message::call_to_vec(&hessian::Call::new("echo", vec![Value::Int(i), Value::string("k")]))
                .unwrap();
        let head = format!("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n", body.len());
        s.write_all(head.as_bytes()).await.unwrap();
        s.write_all(&body).await.unwrap();
        let (status, reply) = read_one(&mut s).await;
        assert_eq!(status, 200);
        let reply = hessian::h2::message::reply_from_slice(&reply, Default::default()).unwrap();
        assert_eq!(reply, Ok(Value::list(vec![Value::Int(i), Value::string("k")])));
        times.push(started.elapsed());
    }
    // no Nagle/delayed-ACK stall on the server side (that costs about 40 ms on every call)
    times.sort();
    assert!(times[times.len() / 2] < Duration::from_millis(30), "{times:?}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_body_gets_408_and_the_server_keeps_serving() {
    let config = {
        let mut c = hessian_rpc::ServerConfig::default();
        c.body_read_timeout = Duration::from_millis(200);
        c
    };
    let server = HessianServer::builder().mount("/echo", echo_service()).config(config).build();
    let server = server.bind("127.0.0.1:0").await.unwrap();
    let mut s = TcpStream::connect(server.local_addr()).await.unwrap();
    // announce 100 bytes, send 3, then stall
    s.write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nH\x02\x00").await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out)).await.expect("answered in time");
    assert_eq!(parse_response(&out).0, 408);
    still_serves(&server).await;
    server.shutdown().await;
}
