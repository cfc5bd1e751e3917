//! Hessian remoting over HTTP, interoperable with Caucho's `HessianServlet`/`HessianSkeleton`,
//! `BurlapSkeleton`, `HessianProxyFactory` and `BurlapProxyFactory` (hessian 4.0.38).
//!
//! - [`Service`]: named methods over [`hessian::Value`]s, with Caucho's overload mangling and
//!   `_hessian_getAttribute`;
//! - [`HessianServer`]: a `tower::Service` over HTTP requests (mountable in axum) and a
//!   standalone server on its own HTTP/1.1 driver, with limits, keep-alive, TLS and graceful
//!   shutdown, on worker threads of its own or on the caller's runtime; each request's
//!   protocol (Hessian 2, Hessian 1, Java's `c 2 0` hybrid, Burlap) is detected and answered in
//!   kind;
//! - [`Client`]/[`Proxy`]: a pooled async client (`http` and `https`, [`tls`]), and
//!   [`BlockingClient`] for synchronous code;
//! - [`auth`]: authentication (HTTP basic, or any check of the request head) as a tower layer;
//! - [`context`]: what a method learns of its call besides the arguments (HTTP headers, peer,
//!   the authenticated [`Principal`], dialect), with [`CallContext::current`];
//! - [`fault`]: faults as Java writes them, and [`RemoteFault`] for faults received;
//! - [`negotiation`]: type negotiation ("Hessian 2.1", `docs/negotiation.md`), on by default
//!   in the client and the server: class definitions sent once per conversation, not per call.
//!
//! ```no_run
//! use hessian::Value;
//! use hessian_rpc::{serve, Service};
//! # async fn run() -> std::io::Result<()> {
//! let service = Service::builder()
//!     .sync_method("hello", &["string"], |args| Ok(Value::String(format!("hello, {}", args[0]))))
//!     .build();
//! serve("127.0.0.1:8080", service).await
//! # }
//! ```

#![deny(missing_docs)]

/// The crate README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CrateReadmeDoctests;

// The `service` macro's expansion names this crate `::hessian_rpc`, also inside it.
extern crate self as hessian_rpc;

pub mod auth;
pub mod client;
pub mod context;
pub mod error;
pub mod fault;
mod http1;
pub mod load;
pub mod negotiation;
pub mod protocol;
pub mod server;
pub mod service;
pub mod tls;
mod transport;
pub mod typed;

pub use client::{BlockingClient, BlockingProxy, Client, ClientBuilder, ClientConfig, Proxy};
pub use context::{CallContext, NoCallContext, PeerAddr, Principal};
pub use error::{Error, Result};
pub use fault::{DeclaredException, IntoFault, RemoteFault, ServiceError};
/// The codec crate, re-exported for generated code (`hessian_rpc::hessian::serde::Date`,
/// `hessian_rpc::hessian::Value`): code `hessian codegen` writes needs only `hessian-rpc` and
/// `serde`.
pub use hessian;
pub use hessian::{Call, Fault, Reply, Value};
pub use hessian_rpc_macros::service;
/// `indexmap`, re-exported (feature `indexmap`) for generated maps that keep the order of the
/// wire (`hessian_rpc::indexmap::IndexMap`).
#[cfg(feature = "indexmap")]
pub use indexmap;
pub use protocol::{Dialect, Format};
/// `serde_bytes`, re-exported for generated `byte[]` fields
/// (`#[serde(with = "hessian_rpc::serde_bytes")]`).
pub use serde_bytes;
pub use server::{serve, HessianServer, HessianServerBuilder, RunningServer, ServerConfig, WorkerServer};
pub use service::{Handler, Service, ServiceBuilder};
pub use typed::{ArgError, FromArgs, IntoArgs};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
