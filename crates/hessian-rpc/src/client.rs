//! The client: a pooled, keep-alive HTTP/1.1 client speaking Hessian 2, Hessian 1 (pure or
//! Java's `c 2 0` hybrid) or Burlap, with per-call timeouts, `Value` calls and a blocking
//! facade for synchronous programs.

use crate::error::{Error, Result};
use crate::fault::RemoteFault;
use crate::protocol::{self, Dialect};
use crate::transport::{Settings, Target, Transport};
use bytes::Bytes;
use hessian::serde::message::CallWriter;
use hessian::{Call, Limits, Value};
use http::{StatusCode, Uri};
use std::sync::Arc;
use std::time::Duration;

/// Client settings.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The protocol of calls and replies.
    pub dialect: Dialect,
    /// Time allowed for one call, from sending to the complete reply.
    pub timeout: Duration,
    /// Time allowed to establish a connection.
    pub connect_timeout: Duration,
    /// How long an idle pooled connection is kept.
    pub pool_idle_timeout: Duration,
    /// Most idle connections kept per host.
    pub pool_max_idle_per_host: usize,
    /// Largest reply body accepted.
    pub max_reply_size: usize,
    /// Limits applied while decoding replies.
    pub limits: Limits,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            dialect: Dialect::HESSIAN2,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
            pool_idle_timeout: Duration::from_secs(90),
            pool_max_idle_per_host: 64,
            max_reply_size: 256 * 1024 * 1024,
            limits: Limits { max_message_size: 256 * 1024 * 1024, ..Limits::default() },
        }
    }
}

/// Builds a [`Client`].
#[derive(Clone, Debug, Default)]
pub struct ClientBuilder {
    config: ClientConfig,
}

impl ClientBuilder {
    /// The dialect: [`Dialect::HESSIAN2`] (default), [`Dialect::HESSIAN1`],
    /// [`Dialect::HYBRID`] (what Java's proxy sends by default) or [`Dialect::BURLAP`].
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.config.dialect = dialect;
        self
    }

    /// Time allowed for one call.
    pub fn timeout(mut self, t: Duration) -> Self {
        self.config.timeout = t;
        self
    }

    /// Time allowed to connect.
    pub fn connect_timeout(mut self, t: Duration) -> Self {
        self.config.connect_timeout = t;
        self
    }

    /// How long idle pooled connections are kept.
    pub fn pool_idle_timeout(mut self, t: Duration) -> Self {
        self.config.pool_idle_timeout = t;
        self
    }

    /// Most idle connections kept per host.
    pub fn pool_max_idle_per_host(mut self, n: usize) -> Self {
        self.config.pool_max_idle_per_host = n;
        self
    }

    /// Largest reply accepted, in bytes.
    pub fn max_reply_size(mut self, bytes: usize) -> Self {
        self.config.max_reply_size = bytes;
        self.config.limits.max_message_size = bytes as u64;
        self
    }

    /// Builds the client. Needs no runtime; calls must run inside a Tokio runtime (a pooled
    /// connection is only reused on the runtime that opened it).
    pub fn build(self) -> Client {
        let c = &self.config;
        let http = Transport::new(Settings {
            connect_timeout: c.connect_timeout,
            idle_timeout: c.pool_idle_timeout,
            max_idle_per_host: c.pool_max_idle_per_host,
            max_reply_size: c.max_reply_size,
        });
        Client { http: Arc::new(http), config: Arc::new(self.config) }
    }
}

/// A pooled client; clone it freely (clones share the pool).
///
/// Each call runs entirely in the caller's task: it takes an idle keep-alive connection to the
/// host (or connects), writes the request and reads the reply itself, with no background task.
#[derive(Clone, Debug)]
pub struct Client {
    http: Arc<Transport>,
    config: Arc<ClientConfig>,
}

impl Client {
    /// A client with default settings (Hessian 2).
    pub fn new() -> Client {
        ClientBuilder::default().build()
    }

    /// Starts a client configuration.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The settings in force.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// A proxy for the service at `url` (`http://host:port/path`).
    pub fn proxy(&self, url: &str) -> Result<Proxy> {
        let uri: Uri = url
            .parse()
            .map_err(|e: http::uri::InvalidUri| Error::InvalidUrl { url: url.to_owned(), reason: e.to_string() })?;
        if uri.scheme_str() != Some("http") || uri.host().is_none() {
            return Err(Error::InvalidUrl { url: url.to_owned(), reason: "expected http://host[:port]/path".into() });
        }
        Ok(Proxy { client: self.clone(), uri })
    }

    /// Sends one encoded call to `uri` and returns the reply body.
    async fn post(&self, uri: &Uri, body: Vec<u8>) -> Result<Bytes> {
        let content_type = self.config.dialect.call.content_type();
        let resp = self.http.post(&Target::of(uri)?, content_type, &body).await?;
        let body = resp.body;
        let status = StatusCode::from_u16(resp.status)
            .map_err(|_| Error::Transport(format!("invalid HTTP status {} in the reply", resp.status)))?;
        if status != StatusCode::OK {
            let text = String::from_utf8_lossy(&body[..body.len().min(512)]).into_owned();
            return Err(Error::Http { status, body: text });
        }
        Ok(body)
    }
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

/// A handle on one remote service (a URL), sharing its client's connection pool.
#[derive(Clone, Debug)]
pub struct Proxy {
    client: Client,
    uri: Uri,
}

impl Proxy {
    /// The service URL.
    pub fn url(&self) -> String {
        self.uri.to_string()
    }

    /// Calls `method` with `args`; a fault becomes [`Error::Fault`].
    pub async fn call(&self, method: &str, args: Vec<Value>) -> Result<Value> {
        self.call_with(Call::new(method, args)).await
    }

    /// A typed call: `args` is a tuple of `Serialize` values, the reply is decoded as `R`.
    pub async fn call_typed<A: crate::typed::IntoArgs, R: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        args: A,
    ) -> Result<R> {
        let cfg = &self.client.config;
        let d = cfg.dialect;
        let mut w = CallWriter::new(d.call.format(), d.call_major(), method, &[], args.count())?;
        args.write_args(&mut w)?;
        let body = w.finish()?;
        let reply = self.post(body).await?;
        match hessian::serde::message::reply_from_slice::<R>(d.reply.format(), &reply, cfg.limits) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(f)) => Err(Error::Fault(RemoteFault(f))),
            Err(e) => Err(Error::Reply(e)),
        }
    }

    /// Sends an encoded call within the configured timeout and returns the reply body.
    async fn post(&self, body: Vec<u8>) -> Result<Bytes> {
        let timeout = self.client.config.timeout;
        tokio::time::timeout(timeout, self.client.post(&self.uri, body)).await.map_err(|_| Error::Timeout(timeout))?
    }

    /// Calls with a prepared [`Call`] (which may carry headers, for Hessian 1 and Burlap).
    pub async fn call_with(&self, call: Call) -> Result<Value> {
        let cfg = &self.client.config;
        let body = protocol::encode_call(cfg.dialect, &call)?;
        let reply = self.post(body).await?;
        match protocol::decode_reply(cfg.dialect.reply, &reply, cfg.limits).map_err(Error::Reply)? {
            Ok(v) => Ok(v),
            Err(f) => Err(Error::Fault(RemoteFault(f))),
        }
    }

    /// `_hessian_getAttribute(name)` (`_burlap_getAttribute` in Burlap): e.g. `java.api.class`
    /// gives the service's API class.
    pub async fn get_attribute(&self, name: &str) -> Result<Value> {
        let method = match self.client.config.dialect.call {
            crate::Protocol::Burlap => crate::service::BURLAP_GET_ATTRIBUTE,
            _ => crate::service::GET_ATTRIBUTE,
        };
        self.call(method, vec![Value::string(name)]).await
    }
}

/// A blocking client for synchronous programs: owns a current-thread Tokio runtime, and each
/// call drives it with `block_on` on the calling thread, so a call runs entirely on the caller's
/// thread (no runtime thread, no hand-off). The pool's connections are registered with that
/// runtime's reactor and only ever used through it. Do not use it from inside an async task.
#[derive(Debug)]
pub struct BlockingClient {
    client: Client,
    rt: Arc<tokio::runtime::Runtime>,
}

impl BlockingClient {
    /// A blocking client with the given settings.
    pub fn new(builder: ClientBuilder) -> Result<BlockingClient> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        Ok(BlockingClient { client: builder.build(), rt: Arc::new(rt) })
    }

    /// A blocking proxy for the service at `url`.
    pub fn proxy(&self, url: &str) -> Result<BlockingProxy> {
        Ok(BlockingProxy { rt: self.rt.clone(), proxy: self.client.proxy(url)? })
    }
}

/// The blocking counterpart of [`Proxy`].
#[derive(Clone, Debug)]
pub struct BlockingProxy {
    rt: Arc<tokio::runtime::Runtime>,
    proxy: Proxy,
}

impl BlockingProxy {
    /// Calls `method` with `args`, blocking until the reply arrives.
    pub fn call(&self, method: &str, args: Vec<Value>) -> Result<Value> {
        self.rt.block_on(self.proxy.call(method, args))
    }

    /// A typed call (see [`Proxy::call_typed`]), blocking.
    pub fn call_typed<A: crate::typed::IntoArgs, R: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        args: A,
    ) -> Result<R> {
        self.rt.block_on(self.proxy.call_typed(method, args))
    }

    /// Calls with a prepared [`Call`].
    pub fn call_with(&self, call: Call) -> Result<Value> {
        self.rt.block_on(self.proxy.call_with(call))
    }
}
