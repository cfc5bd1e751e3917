//! Mounting Hessian services in an axum router next to ordinary routes:
//! `cargo run -p hessian-rpc --example axum_mount -- 127.0.0.1:8080`.

use axum::routing::get;
use axum::Router;
use hessian_rpc::HessianServer;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".into());
    let app = router();
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("serving on http://{}/bench (Hessian) and /health (text)", listener.local_addr()?);
    axum::serve(listener, app).await
}

/// `/health` answers text; `/bench` is the Hessian W1/W2 service.
fn router() -> Router {
    let hessian = HessianServer::builder().mount("/bench", hessian_rpc::demo::bench_service()).build();
    Router::new().route("/health", get(|| async { "ok" })).route_service("/bench", hessian)
}
