//! A standalone server: `cargo run -p hessian-rpc --example server -- 127.0.0.1:8080`.
//! Serves the W1/W2 demo service at `/bench` and a tiny `hello(string)` service at `/hello`,
//! until Ctrl-C, then shuts down gracefully.

use hessian::Value;
use hessian_rpc::{HessianServer, Service};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".into());
    let hello = Service::builder()
        .sync_method("hello", &["string"], |args| {
            Ok(Value::String(format!("hello, {}", args[0].as_str().unwrap_or("stranger"))))
        })
        .build();
    let server =
        HessianServer::builder().mount("/bench", hessian_rpc::demo::bench_service()).mount("/hello", hello).build();
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("serving on http://{}/bench and /hello", listener.local_addr()?);
    server
        .serve_listener(listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
    Ok(())
}
