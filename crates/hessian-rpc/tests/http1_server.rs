//! The server's own HTTP/1.1 connection driver, byte by byte over raw sockets: pipelining,
//! `Expect: 100-continue`, HTTP/1.0 keep-alive, `HEAD`, chunked bodies with extensions and
//! trailers, absolute-form targets and queries, the `Date` header, plain HTTP routes, and the
//! framing errors it refuses (each followed by closing the connection) while it keeps serving.
//! Java's proxies, nginx, Python, Node.js and wrk talk to the same driver in the other tests.

use hessian::h2::message::{call_to_vec, reply_from_slice};
use hessian::{Limits, Value};
use hessian_rpc::{HessianServer, Service, WorkerServer};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

fn server() -> WorkerServer {
    let echo = Service::builder().sync_method("echo", &["int"], |a| Ok(Value::list(a))).build();
    HessianServer::builder()
        .mount("/echo", echo)
        .http_route("/health", |_server, req: http::Request<http_body_util::Full<bytes::Bytes>>| async move {
            assert_eq!(req.headers()["x-empty"], "");
            assert_eq!(req.headers()["x-blank"], "");
            let mut r = http::Response::new(http_body_util::Full::new(bytes::Bytes::from(format!(
                "{} {}",
                req.method(),
                req.uri()
            ))));
            r.headers_mut().insert("x-route", http::HeaderValue::from_static("health"));
            r
        })
        .max_request_size(64 * 1024)
        .build()
        .spawn_workers("127.0.0.1:0".parse().unwrap(), 1)
        .unwrap()
}

fn connect(s: &WorkerServer) -> TcpStream {
    let c = TcpStream::connect(s.local_addr()).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    c
}

fn call(n: i32) -> Vec<u8> {
    call_to_vec(&hessian::Call::new("echo", vec![Value::Int(n)])).unwrap()
}

/// One response read from `c`: (status, lower-cased head, body). Framed by Content-Length.
fn response(c: &mut TcpStream, buf: &mut Vec<u8>) -> (u16, String, Vec<u8>) {
    response_to(c, buf, false)
}

/// [`response`] to a `HEAD` request (`head_request`): no body follows its head.
fn response_to(c: &mut TcpStream, buf: &mut Vec<u8>, head_request: bool) -> (u16, String, Vec<u8>) {
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8(buf[..end].to_vec()).unwrap().to_ascii_lowercase();
            let status = head[9..12].parse().unwrap();
            let len: usize =
                head.lines().find_map(|l| l.strip_prefix("content-length: ")).map_or(0, |v| v.trim().parse().unwrap());
            let body_len = if status == 100 || head_request { 0 } else { len };
            while buf.len() < end + 4 + body_len {
                fill(c, buf);
            }
            let body = buf[end + 4..end + 4 + body_len].to_vec();
            buf.drain(..end + 4 + body_len);
            return (status, head, body);
        }
        fill(c, buf);
    }
}

fn fill(c: &mut TcpStream, buf: &mut Vec<u8>) {
    let mut chunk = [0u8; 65536];
    let n = c.read(&mut chunk).unwrap();
    assert!(n > 0, "connection closed; had {:?}", String::from_utf8_lossy(buf));
    buf.extend_from_slice(&chunk[..n]);
}

/// True if the server closes `c` (after whatever it still sends) within the read timeout.
fn closes(c: &mut TcpStream) -> bool {
    let mut rest = Vec::new();
    c.read_to_end(&mut rest).is_ok()
}

fn echoed(body: &[u8]) -> Value {
    reply_from_slice(body, Limits::default()).unwrap().unwrap()
}

fn post(path: &str, body: &[u8], extra: &str) -> Vec<u8> {
    let mut r =
        format!("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n{extra}\r\n", body.len()).into_bytes();
    r.extend_from_slice(body);
    r
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let s = server();
    let mut c = connect(&s);
    let mut all = Vec::new();
    for n in 0..5 {
        all.extend(post("/echo", &call(n), ""));
    }
    c.write_all(&all).unwrap();
    let mut buf = Vec::new();
    for n in 0..5 {
        let (status, head, body) = response(&mut c, &mut buf);
        assert_eq!(status, 200, "{head}");
        assert!(head.contains("content-type: x-application/hessian"), "{head}");
        assert_eq!(echoed(&body), Value::list(vec![Value::Int(n)]));
    }
    s.shutdown();
}

#[test]
fn expect_100_continue_gets_an_interim_response_before_the_body() {
    let s = server();
    let mut c = connect(&s);
    let body = call(7);
    let head =
        format!("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n", body.len());
    c.write_all(head.as_bytes()).unwrap();
    let mut buf = Vec::new();
    let (status, _, _) = response(&mut c, &mut buf);
    assert_eq!(status, 100);
    c.write_all(&body).unwrap();
    let (status, _, body) = response(&mut c, &mut buf);
    assert_eq!(status, 200);
    assert_eq!(echoed(&body), Value::list(vec![Value::Int(7)]));
    // a body over the limit is refused at once, without asking for it
    let head = "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n";
    c.write_all(head.as_bytes()).unwrap();
    let (status, _, _) = response(&mut c, &mut buf);
    assert_eq!(status, 413);
    assert!(closes(&mut c));
    s.shutdown();
}

#[test]
fn http10_keeps_alive_only_when_asked() {
    let s = server();
    let body = call(1);
    let req = |keep: bool| {
        let mut r = format!(
            "POST /echo HTTP/1.0\r\nContent-Length: {}\r\n{}\r\n",
            body.len(),
            if keep { "Connection: keep-alive\r\n" } else { "" }
        )
        .into_bytes();
        r.extend_from_slice(&body);
        r
    };
    let mut c = connect(&s);
    let mut buf = Vec::new();
    for _ in 0..3 {
        c.write_all(&req(true)).unwrap();
        let (status, head, _) = response(&mut c, &mut buf);
        assert_eq!(status, 200);
        assert!(head.contains("connection: keep-alive"), "{head}");
    }
    c.write_all(&req(false)).unwrap();
    let (status, head, _) = response(&mut c, &mut buf);
    assert_eq!(status, 200);
    assert!(head.contains("connection: close"), "{head}");
    assert!(closes(&mut c));
    s.shutdown();
}

#[test]
fn chunked_bodies_with_extensions_and_trailers_are_decoded() {
    let s = server();
    let mut c = connect(&s);
    let body = call(42);
    let (a, b) = body.split_at(3);
    let mut req = b"POST /echo?x=1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    req.extend(format!("{:x};name=value\r\n", a.len()).bytes());
    req.extend_from_slice(a);
    req.extend(format!("\r\n{:X}\r\n", b.len()).bytes());
    req.extend_from_slice(b);
    req.extend_from_slice(b"\r\n0\r\nX-Trailer: yes\r\n\r\n");
    // sent in small pieces, and followed by a second request on the same connection
    req.extend(post("/echo", &call(43), ""));
    for piece in req.chunks(5) {
        c.write_all(piece).unwrap();
    }
    let mut buf = Vec::new();
    let (status, _, reply) = response(&mut c, &mut buf);
    assert_eq!(status, 200);
    assert_eq!(echoed(&reply), Value::list(vec![Value::Int(42)]));
    let (status, _, reply) = response(&mut c, &mut buf);
    assert_eq!(status, 200);
    assert_eq!(echoed(&reply), Value::list(vec![Value::Int(43)]));
    s.shutdown();
}

#[test]
fn targets_route_by_path_and_replies_carry_a_date() {
    let s = server();
    let mut c = connect(&s);
    let mut buf = Vec::new();
    for target in ["/echo?trace=1", "http://example.com/echo", "/echo#frag"] {
        c.write_all(&post(target, &call(5), "")).unwrap();
        let (status, head, _) = response(&mut c, &mut buf);
        assert_eq!(status, 200, "{target}: {head}");
        let date = head.lines().find_map(|l| l.strip_prefix("date: ")).expect("a date header");
        assert!(date.ends_with(" gmt"), "{date}");
    }
    c.write_all(&post("/nothing", &call(5), "")).unwrap();
    assert_eq!(response(&mut c, &mut buf).0, 404);
    // a plain HTTP route gets the request as sent, any method, and its own headers go out
    // (empty header values are values too)
    c.write_all(b"GET /health?x=y HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nX-Blank: \r\n\r\n").unwrap();
    let (status, head, body) = response(&mut c, &mut buf);
    assert_eq!(status, 200);
    assert!(head.contains("x-route: health"), "{head}");
    assert_eq!(body, b"GET /health?x=y");
    // HEAD: the head of the reply GET would get, no body (the next reply follows directly)
    c.write_all(b"HEAD /echo HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let (status, head, _) = response_to(&mut c, &mut buf, true);
    assert_eq!(status, 405, "{head}");
    assert!(head.contains("allow: post"), "{head}");
    c.write_all(&post("/echo", &call(6), "")).unwrap();
    let (status, _, body) = response(&mut c, &mut buf);
    assert_eq!(status, 200);
    assert_eq!(echoed(&body), Value::list(vec![Value::Int(6)]));
    s.shutdown();
}

#[test]
fn bad_framing_is_refused_and_the_connection_closed() {
    let s = server();
    let cases: Vec<(Vec<u8>, u16)> = vec![
        (b"POST /echo HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".to_vec(), 400),
        (b"POST /echo HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd".to_vec(), 400),
        (b"POST /echo HTTP/1.1\r\nContent-Length: -3\r\n\r\n".to_vec(), 400),
        (b"POST /echo HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n".to_vec(), 501),
        (b"POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec(), 400),
        (b"POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n20000\r\n".to_vec(), 413),
        (b"POST /echo HTTP/1.1\r\nExpect: something\r\n\r\n".to_vec(), 417),
        (b"POST /echo HTTP/1.1\r\nBad Header\r\n\r\n".to_vec(), 400),
        (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec(), 400),
        ([b"POST /echo HTTP/1.1\r\nX: ".to_vec(), vec![b'a'; 70 * 1024]].concat(), 431),
        (
            [
                b"POST /echo HTTP/1.1\r\n".to_vec(),
                (0..101).flat_map(|i| format!("X{i}: y\r\n").into_bytes()).collect(),
                b"\r\n".to_vec(),
            ]
            .concat(),
            431,
        ),
    ];
    for (req, want) in cases {
        let mut c = connect(&s);
        c.write_all(&req).unwrap();
        let mut buf = Vec::new();
        let (status, head, _) = response(&mut c, &mut buf);
        assert_eq!(status, want, "{:?}: {head}", String::from_utf8_lossy(&req[..req.len().min(80)]));
        assert!(head.contains("connection: close"), "{head}");
        assert!(closes(&mut c));
    }
    // and it still serves
    let mut c = connect(&s);
    c.write_all(&post("/echo", &call(9), "")).unwrap();
    let (status, _, body) = response(&mut c, &mut Vec::new());
    assert_eq!(status, 200);
    assert_eq!(echoed(&body), Value::list(vec![Value::Int(9)]));
    s.shutdown();
}
