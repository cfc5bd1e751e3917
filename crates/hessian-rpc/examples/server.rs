//! A standalone server: `cargo run -p hessian-rpc --example server -- 127.0.0.1:8080`.
//! Serves the typed `Greeter` service (`examples/common/greeter.rs`) at `/greeter` and a
//! dynamic `hello(string)` service of `Value` handlers at `/hello`, until Ctrl-C, then shuts
//! down gracefully. Call it with `cargo run -p hessian-rpc --example client`, or with the
//! `hessian` tool: `hessian call http://127.0.0.1:8080/greeter greet '"Ada"' 2`.

#[path = "common/greeter.rs"]
mod greeter;

use greeter::{Greeter, Polite};
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
    let server = HessianServer::builder().mount("/greeter", Polite.into_service()).mount("/hello", hello).build();
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("serving on http://{}/greeter and /hello (Ctrl-C stops)", listener.local_addr()?);
    server
        .serve_listener(listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
    Ok(())
}
