//! The service the `server`, `client` and `axum_mount` examples share: declared once, served by
//! `Greeter::into_service`, called through the derived `GreeterClient`/`GreeterBlockingClient`.
//! A Java client calls it with `HessianProxyFactory.create(Greeter.class, url)` for the interface
//! `interface Greeter { Greeting greet(String name, int times); }`.

use hessian_rpc::{service, ServiceError};
use serde::{Deserialize, Serialize};

/// The reply: a Java object of class `com.example.Greeting`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename = "com.example.Greeting")]
pub struct Greeting {
    /// The greeting.
    pub text: String,
    /// How many times it was said.
    pub times: i32,
}

/// A greeting service (Java interface `com.example.Greeter`).
#[service(api = "com.example.Greeter")]
pub trait Greeter {
    /// Greets `name`, `times` times (Java `Greeting greet(String, int)`).
    async fn greet(&self, name: String, times: i32) -> Result<Greeting, ServiceError>;
}

/// The implementation.
pub struct Polite;

impl Greeter for Polite {
    async fn greet(&self, name: String, times: i32) -> Result<Greeting, ServiceError> {
        let n = usize::try_from(times).map_err(|_| ServiceError::illegal_argument("times must not be negative"))?;
        Ok(Greeting { text: format!("hello, {name}! ").repeat(n).trim_end().to_owned(), times })
    }
}
