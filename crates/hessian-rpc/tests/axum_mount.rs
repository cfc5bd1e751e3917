//! The server as a tower service inside an axum router, next to an ordinary route.

use axum::routing::get;
use axum::Router;
use hessian::Value;
use hessian_rpc::{Client, HessianServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[tokio::test]
async fn hessian_service_mounted_in_axum() {
    let hessian = HessianServer::builder().mount("/bench", hessian_demo::bench_service()).build();
    let nested = HessianServer::single(hessian_demo::bench_service());
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route_service("/bench", hessian)
        .nest_service("/api/v1", nested);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move { axum::serve(listener, app).await });

    let client = Client::new();
    for url in [format!("http://{addr}/bench"), format!("http://{addr}/api/v1/bench")] {
        let got = client.proxy(&url).unwrap().call("getItems", vec![Value::Int(2)]).await.unwrap();
        assert_eq!(got, hessian_testkit::workloads::items(2), "{url}");
    }
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    assert!(out.starts_with("HTTP/1.1 200") && out.ends_with("ok"), "{out}");
    task.abort();
}
