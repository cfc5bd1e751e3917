//! A client of the `server` example: start it (`cargo run -p hessian-rpc --example server`),
//! then `cargo run -p hessian-rpc --example client -- http://127.0.0.1:8080`. Calls
//! `greet` with the derived async client, then with the blocking one, then `hello` with a
//! dynamic `Value` call.

#[path = "common/greeter.rs"]
#[allow(dead_code)] // the client does not use the implementation
mod greeter;

use greeter::{GreeterBlockingClient, GreeterClient};
use hessian::Value;
use hessian_rpc::{BlockingClient, Client, Dialect};

fn main() -> Result<(), hessian_rpc::Error> {
    let base = std::env::args().nth(1).unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async {
        let greeter = GreeterClient::new(Client::new().proxy(&format!("{base}/greeter"))?);
        println!("greet = {:?}", greeter.greet("Ada".into(), 2).await?);
        let hello = Client::builder().dialect(Dialect::HYBRID).build().proxy(&format!("{base}/hello"))?;
        println!("hello = {}", hello.call("hello", vec![Value::string("Bob")]).await?);
        Ok::<_, hessian_rpc::Error>(())
    })?;
    drop(rt);
    let blocking = BlockingClient::with_builder(Client::builder().dialect(Dialect::BURLAP));
    let greeter = GreeterBlockingClient::new(blocking.proxy(&format!("{base}/greeter"))?);
    println!("greet (blocking, Burlap) = {:?}", greeter.greet("Eve".into(), 1)?);
    Ok(())
}
