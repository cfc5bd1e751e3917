//! Byte-for-byte on the client side: the request bodies Java's `HessianProxyFactory` (default
//! hybrid, `setHessian2Request`, pure Hessian 1) and `BurlapProxyFactory` send for W1 and W2 are
//! exactly what the Rust client sends for the same calls. A recording relay sits between the
//! Java client and the Rust server.

mod common;

use common::rust_server;
use hessian::{Call, Value};
use hessian_rpc::{protocol, Dialect};
use hessian_testkit::workloads::{W2Classes, W1_SIZES};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Reads one request (headers + Content-Length body) from `s`; None at end of stream.
async fn read_request(s: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte).await.ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let len: usize = text
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0)))
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).await.ok()?;
    Some((text, body))
}

/// Relays requests to `target` one connection per request, recording every request body.
async fn relay(listener: TcpListener, target: SocketAddr, log: Arc<Mutex<Vec<Vec<u8>>>>) {
    loop {
        let Ok((mut client, _)) = listener.accept().await else { return };
        let log = log.clone();
        tokio::spawn(async move {
            if let Some((head, body)) = read_request(&mut client).await {
                // (BurlapProxyFactory's proxy also issues a plain GET of the URL: not a call)
                if head.starts_with("POST ") {
                    log.lock().unwrap().push(body.clone());
                }
                let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let mut up = TcpStream::connect(target).await.unwrap();
                let req = format!(
                    "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                up.write_all(req.as_bytes()).await.unwrap();
                up.write_all(&body).await.unwrap();
                let mut resp = Vec::new();
                up.read_to_end(&mut resp).await.unwrap();
                // answer with Connection: close so that every request arrives on a new connection
                let start = resp.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4).unwrap_or(0);
                let status_line =
                    String::from_utf8_lossy(&resp[..resp.windows(2).position(|w| w == b"\r\n").unwrap_or(0)])
                        .into_owned();
                let out =
                    format!("{status_line}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", resp.len() - start);
                let _ = client.write_all(out.as_bytes()).await;
                let _ = client.write_all(&resp[start..]).await;
            }
        });
    }
}

#[test]
fn java_proxies_send_what_the_rust_client_sends() {
    let Some(java) = hessian_testkit::java::java() else { return };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(rust_server().bind("127.0.0.1:0")).unwrap();
    let listener = rt.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
    let relay_addr = listener.local_addr().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    rt.spawn(relay(listener, server.local_addr(), log.clone()));

    let w2 = W2Classes::default();
    let mut expected_calls: Vec<Call> =
        W1_SIZES.iter().map(|&n| Call::new("getItems", vec![Value::Int(n as i32)])).collect();
    expected_calls.push(Call::new("exchange", vec![w2.request()]));
    expected_calls.push(Call::new("exchange", vec![w2.reply()]));

    for (mode, dialect) in
        [("h2", Dialect::HESSIAN2), ("hybrid", Dialect::HYBRID), ("h1", Dialect::HESSIAN1), ("burlap", Dialect::BURLAP)]
    {
        log.lock().unwrap().clear();
        common::java_client(&java, &format!("http://{relay_addr}/bench"), mode, "bench");
        let seen = log.lock().unwrap().clone();
        assert_eq!(seen.len(), expected_calls.len(), "{mode}");
        for (call, body) in expected_calls.iter().zip(&seen) {
            let ours = protocol::encode_call(dialect, call).unwrap();
            assert!(
                &ours == body,
                "{mode} {}:\njava {:?}\nrust {:?}",
                call.method,
                String::from_utf8_lossy(&body[..body.len().min(200)]),
                String::from_utf8_lossy(&ours[..ours.len().min(200)])
            );
        }
    }
    rt.block_on(server.shutdown());
}
