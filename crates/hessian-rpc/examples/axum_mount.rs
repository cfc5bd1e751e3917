//! Mounting a Hessian service in an axum router next to ordinary routes:
//! `cargo run -p hessian-rpc --example axum_mount -- 127.0.0.1:8080`, then
//! `curl http://127.0.0.1:8080/health` and `cargo run -p hessian-rpc --example client`.

#[path = "common/greeter.rs"]
mod greeter;

use axum::routing::get;
use axum::Router;
use greeter::{Greeter, Polite};
use hessian_rpc::HessianServer;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("serving on http://{}/greeter (Hessian) and /health (text)", listener.local_addr()?);
    axum::serve(listener, router()).await
}

/// `/health` answers text; `/greeter` is the Hessian service.
fn router() -> Router {
    let hessian = HessianServer::builder().mount("/greeter", Polite.into_service()).build();
    Router::new().route("/health", get(|| async { "ok" })).route_service("/greeter", hessian)
}
