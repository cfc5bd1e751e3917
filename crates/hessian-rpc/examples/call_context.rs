//! A method that reads its call's context: the user `AuthLayer` let in, an HTTP header, the
//! peer's address and the dialect, with `CallContext::current()`:
//! `cargo run -p hessian-rpc --example call_context`.

use hessian_rpc::auth::{AuthLayer, Layer};
use hessian_rpc::{service, CallContext, Client, Dialect, HessianServer, ServiceError};

#[service(api = "com.example.Audit")]
trait Audit {
    async fn whoami(&self) -> Result<String, ServiceError>;
}

struct MyAudit;

impl Audit for MyAudit {
    async fn whoami(&self) -> Result<String, ServiceError> {
        // outside a call this is the error NoCallContext, which `?` turns into a fault
        let ctx = CallContext::current()?;
        let user = ctx.principal.as_ref().map_or("nobody", |p| p.name());
        let tenant = ctx.http_header("x-tenant").unwrap_or("none");
        let peer = ctx.peer.map_or_else(|| "unknown".to_owned(), |p| p.to_string());
        Ok(format!("{user} of tenant {tenant}, from {peer}, speaking {}", ctx.dialect))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // the server behind HTTP basic authentication: the user it lets in is the call's principal
    let server = HessianServer::single(MyAudit.into_service());
    let guarded =
        AuthLayer::basic("audit", |user, password| user == "ada" && password == "secret").layer(server.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/audit", listener.local_addr()?);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.serve_service(listener, guarded, async {
        let _ = stopped.await;
    }));

    for dialect in [Dialect::HESSIAN2, Dialect::BURLAP] {
        let client = Client::builder().dialect(dialect).basic_auth("ada", "secret").header("X-Tenant", "acme").build();
        let audit = AuditClient::new(client.proxy(&url)?);
        println!("{}", audit.whoami().await?);
    }
    println!("outside a call: {}", CallContext::current().expect_err("no call here"));

    let _ = stop.send(());
    running.await?;
    Ok(())
}
