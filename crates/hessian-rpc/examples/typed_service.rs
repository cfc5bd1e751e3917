//! A typed Hessian service and its client in one program (the README's example):
//! `cargo run -p hessian-rpc --example typed_service`.

use hessian_rpc::{service, Client, HessianServer, ServiceError};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug)]
#[serde(rename = "com.example.Money")] // the Java class
struct Money {
    cents: i64,
    currency: String,
}

#[service(api = "com.example.Bank")]
trait Bank {
    async fn deposit(&self, account: String, amount: Money) -> Result<Money, ServiceError>;
}

struct MyBank;

impl Bank for MyBank {
    async fn deposit(&self, account: String, amount: Money) -> Result<Money, ServiceError> {
        if amount.cents <= 0 {
            return Err(ServiceError::illegal_argument(format!("{account}: deposit must be positive")));
        }
        Ok(Money { cents: amount.cents + 1000, currency: amount.currency })
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = HessianServer::single(MyBank.into_service()).bind("127.0.0.1:0").await?;
    let bank = BankClient::new(Client::new().proxy(&server.url("/bank"))?);
    let balance = bank.deposit("ada".into(), Money { cents: 250, currency: "EUR".into() }).await?;
    println!("balance: {balance:?}");
    let refused = bank.deposit("ada".into(), Money { cents: -1, currency: "EUR".into() }).await;
    println!("refused: {}", refused.expect_err("a negative deposit is refused"));
    server.shutdown().await;
    Ok(())
}
