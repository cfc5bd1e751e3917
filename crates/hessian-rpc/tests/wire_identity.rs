//! Byte-for-byte: the same request body sent to the Rust server and to Java's skeletons gets the
//! same reply bytes — values (W1, W2) and the skeleton's own faults — in every dialect.

mod common;

use common::{rust_server, JavaServer};
use hessian::{Call, Value};
use hessian_rpc::{protocol, Dialect};
use hessian_testkit::workloads::W2Classes;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn post(addr: SocketAddr, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head =
        format!("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let status = String::from_utf8_lossy(&out[9..12]).parse().unwrap_or(0);
    let start = out.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4).unwrap_or(out.len());
    let mut body = out[start..].to_vec();
    if out[..start].to_ascii_lowercase().windows(26).any(|w| w == b"transfer-encoding: chunked") {
        body = dechunk(&body);
    }
    (status, body)
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = b.windows(2).position(|w| w == b"\r\n") else { return out };
        let len = usize::from_str_radix(std::str::from_utf8(&b[..eol]).unwrap().trim(), 16).unwrap();
        if len == 0 {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + len]);
        b = &b[eol + 2 + len + 2..];
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_server_replies_byte_for_byte_like_java() {
    let Some(java) = hessian_testkit::java::java() else { return };
    let java_server = JavaServer::start(&java);
    let java_addr: SocketAddr = format!("127.0.0.1:{}", java_server.port).parse().unwrap();
    let rust = rust_server().bind("127.0.0.1:0").await.unwrap();
    let w2 = W2Classes::default();
    let calls = [
        ("/bench", Call::new("getItems", vec![Value::Int(1)])),
        ("/bench", Call::new("getItems", vec![Value::Int(100)])),
        ("/bench", Call::new("exchange", vec![w2.request()])),
        ("/bench", Call::new("nope", vec![Value::Int(1)])),
        ("/overload", Call::new("add_int_int", vec![Value::Int(1), Value::Int(2)])),
        ("/test2", Call::new("replyObject_3", vec![])),
        ("/test2", Call::new("replyTypedMap_3", vec![])),
        ("/test2", Call::new("replyString_65536", vec![])),
        ("/test2", Call::new("replyBinary_65536", vec![])),
        ("/test2", Call::new("replyObject_16", vec![])),
        ("/test2", Call::new("replyDouble_m0_001", vec![])),
    ];
    let mut compared = 0;
    for dialect in [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::HESSIAN1, Dialect::BURLAP] {
        for (path, call) in &calls {
            let body = protocol::encode_call(dialect, call).unwrap();
            let (js, java_reply) = post(java_addr, path, &body).await;
            let (rs, rust_reply) = post(rust.local_addr(), path, &body).await;
            assert_eq!((js, rs), (200, 200), "{dialect} {path} {}", call.method);
            assert!(
                java_reply == rust_reply,
                "{dialect} {path} {}:\njava {:?}\nrust {:?}",
                call.method,
                String::from_utf8_lossy(&java_reply[..java_reply.len().min(300)]),
                String::from_utf8_lossy(&rust_reply[..rust_reply.len().min(300)])
            );
            compared += 1;
        }
    }
    assert!(compared >= 40);
    rust.shutdown().await;
}
