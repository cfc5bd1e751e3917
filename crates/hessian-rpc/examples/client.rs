//! A client: `cargo run -p hessian-rpc --example client -- http://127.0.0.1:8080/bench`.
//! Calls `getItems(3)` with the async client and `exchange` with the blocking client.

use hessian::Value;
use hessian_rpc::{BlockingClient, Client, Dialect};

fn main() -> Result<(), hessian_rpc::Error> {
    let url = std::env::args().nth(1).unwrap_or_else(|| "http://127.0.0.1:8080/bench".into());
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async {
        let proxy = Client::builder().dialect(Dialect::HESSIAN2).build().proxy(&url)?;
        let items = proxy.call("getItems", vec![Value::Int(3)]).await?;
        println!("getItems(3) = {items}");
        Ok::<_, hessian_rpc::Error>(())
    })?;
    drop(rt);
    let blocking = BlockingClient::new(Client::builder())?;
    let order = hessian_testkit::workloads::W2Classes::default().request();
    match blocking.proxy(&url)?.call("exchange", vec![order]) {
        Ok(reply) => println!("exchange -> {reply}"),
        Err(e) => println!("exchange failed: {e}"),
    }
    Ok(())
}
