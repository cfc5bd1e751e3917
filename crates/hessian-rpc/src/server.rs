//! The server: a [`tower_service::Service`] over HTTP requests that routes by path to
//! [`Service`]s, detects each call's protocol, and answers in kind; plus a standalone server
//! ([`HessianServer::serve`], [`HessianServer::spawn_workers`]) on its own HTTP/1.1 connection
//! driver, with keep-alive, limits, TLS and graceful shutdown.

mod conn;

use crate::context::{HttpHeaders, PeerAddr, Principal, RequestInfo};
use crate::negotiation::{self as neg, MapCache, ServerStats, TypeMapConfig};
use crate::protocol::{self, Dialect, Format};
use crate::service::{Negotiating, Service};
use bytes::Bytes;
use conn::{Outgoing, RequestHead, Respond};
use futures_util::FutureExt;
use hessian::Limits;
use http::{header, Method, Request, Response, StatusCode};
use http_body::Body;
use http_body_util::{BodyExt, Full, Limited};
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::sync::watch;

/// Limits and timeouts of a server. More may come: start from `ServerConfig::default()` (or
/// the builder's setters) and set fields.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServerConfig {
    /// Largest request body accepted, in bytes; larger bodies get HTTP 413.
    pub max_request_size: usize,
    /// Limits applied while decoding a call.
    pub limits: Limits,
    /// How long a connection may take to send a request's headers, counted from when the
    /// server starts waiting for them: on a new connection and between keep-alive requests, so
    /// it also bounds idle and half-open connections (slow-loris protection).
    pub header_read_timeout: Duration,
    /// How long a request's body may take to arrive once its headers are in; a body that
    /// stalls gets HTTP 408 and the connection is closed (slow-body / half-open protection).
    pub body_read_timeout: Duration,
    /// Most connections served at once, for all workers of a server together; further
    /// connections wait until one closes (one accepted per accept loop, the rest in the listen
    /// backlog). HTTP/1.1 serves one request at a time per connection, so this also bounds
    /// the calls in progress.
    pub max_connections: usize,
    /// How long graceful shutdown waits for open connections before dropping them.
    pub shutdown_grace: Duration,
    /// Type negotiation (`docs/negotiation.md`): on by default, with a bounded map cache.
    pub type_maps: TypeMapConfig,
    /// TLS: with a configuration, [`HessianServer::serve`] and its variants speak `https`
    /// (every connection's handshake within [`header_read_timeout`](Self::header_read_timeout));
    /// see [`crate::tls::server_config_from_pem`].
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Whether the answers the server makes by itself (a body too large, a head that timed out,
    /// a malformed request, an internal error) are JSON, `{"error": {"status": 413, "kind":
    /// "body-too-large", "message": "request body too large"}}` as `application/json`, instead
    /// of plain text: for a server whose clients read JSON (`hessian gateway`). Off by default.
    pub json_refusals: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_request_size: 16 * 1024 * 1024,
            limits: Limits::default().with_max_message_size(16 * 1024 * 1024),
            header_read_timeout: Duration::from_secs(30),
            body_read_timeout: Duration::from_secs(60),
            max_connections: 1024,
            shutdown_grace: Duration::from_secs(10),
            type_maps: TypeMapConfig::default(),
            tls: None,
            json_refusals: false,
        }
    }
}

/// A plain HTTP handler at a path of the server (see [`HessianServerBuilder::http_route`]).
type HttpHandler = Arc<
    dyn Fn(HessianServer, Request<Full<Bytes>>) -> Pin<Box<dyn Future<Output = Response<Full<Bytes>>> + Send>>
        + Send
        + Sync,
>;

/// What a path of the server answers.
#[derive(Clone)]
enum Route {
    Hessian(Arc<Service>),
    Http(HttpHandler),
}

struct Inner {
    /// By path (keyed multiply-rotate hashing: a path is looked up per request, and the keys
    /// are the server's own).
    routes: HashMap<String, Route, neg::KeyedHash>,
    fallback: Option<Arc<Service>>,
    config: ServerConfig,
    maps: MapCache,
}

/// A Hessian/Burlap HTTP endpoint set: `path -> Service`. Cheap to clone.
///
/// It is a `tower::Service<http::Request<B>>` for any body `B`, so it can be mounted in an
/// axum router (`Router::route_service("/bench", server)`), or run on its own with
/// [`serve`](Self::serve).
#[derive(Clone)]
pub struct HessianServer {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for HessianServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut paths: Vec<_> = self.inner.routes.keys().collect();
        paths.sort();
        f.debug_struct("HessianServer").field("paths", &paths).field("config", &self.inner.config).finish()
    }
}

/// Builds a [`HessianServer`].
#[derive(Default)]
pub struct HessianServerBuilder {
    routes: HashMap<String, Route, neg::KeyedHash>,
    fallback: Option<Arc<Service>>,
    config: ServerConfig,
}

impl HessianServerBuilder {
    /// Serves `service` at `path` (exact match, e.g. `/bench`).
    pub fn mount(mut self, path: &str, service: Service) -> Self {
        self.routes.insert(path.to_owned(), Route::Hessian(Arc::new(service)));
        self
    }

    /// Answers every request for `path` (exact match, any method) with `handler` instead of a
    /// Hessian service: a status page, a health check. The handler is given the server and the
    /// request, whose body has been read (within [`ServerConfig::max_request_size`]).
    pub fn http_route<H, Fut>(mut self, path: &str, handler: H) -> Self
    where
        H: Fn(HessianServer, Request<Full<Bytes>>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Response<Full<Bytes>>> + Send + 'static,
    {
        let handler: HttpHandler = Arc::new(move |server, req| Box::pin(handler(server, req)));
        self.routes.insert(path.to_owned(), Route::Http(handler));
        self
    }

    /// Serves `service` for every path no [`mount`](Self::mount) matches (useful when the
    /// server itself is mounted under a prefix by a router).
    pub fn fallback(mut self, service: Service) -> Self {
        self.fallback = Some(Arc::new(service));
        self
    }

    /// Replaces the configuration.
    pub fn config(mut self, config: ServerConfig) -> Self {
        self.config = config;
        self
    }

    /// Sets the largest request body accepted.
    pub fn max_request_size(mut self, bytes: usize) -> Self {
        self.config.max_request_size = bytes;
        self.config.limits.max_message_size = bytes as u64;
        self
    }

    /// Sets the header read timeout (see [`ServerConfig::header_read_timeout`]).
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.config.header_read_timeout = timeout;
        self
    }

    /// Sets the body read timeout (see [`ServerConfig::body_read_timeout`]).
    pub fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.config.body_read_timeout = timeout;
        self
    }

    /// Sets the most connections served at once (see [`ServerConfig::max_connections`]).
    pub fn max_connections(mut self, n: usize) -> Self {
        self.config.max_connections = n;
        self
    }

    /// Sets the type negotiation settings (see [`TypeMapConfig`]).
    pub fn type_maps(mut self, config: TypeMapConfig) -> Self {
        self.config.type_maps = config;
        self
    }

    /// Words the server's own refusals as JSON (see [`ServerConfig::json_refusals`]).
    pub fn json_refusals(mut self, on: bool) -> Self {
        self.config.json_refusals = on;
        self
    }

    /// Serves `https` with `config` (see [`ServerConfig::tls`]).
    pub fn tls(mut self, config: Arc<rustls::ServerConfig>) -> Self {
        self.config.tls = Some(config);
        self
    }

    /// Finishes the server.
    pub fn build(self) -> HessianServer {
        let maps = MapCache::new(self.config.type_maps);
        HessianServer {
            inner: Arc::new(Inner { routes: self.routes, fallback: self.fallback, config: self.config, maps }),
        }
    }
}

// The type negotiation's headers as parsed names (made once, not per request).
const OFFER: header::HeaderName = header::HeaderName::from_static(neg::OFFER_HEADER);
const REPLY_MAP: header::HeaderName = header::HeaderName::from_static(neg::REPLY_MAP_HEADER);

/// What the server reads of a request before its body: from an `http::Request` (the tower
/// path) or from the server's own HTTP/1.1 parser ([`conn`]).
pub(crate) struct CallHead<'a> {
    /// The method is `POST`.
    pub post: bool,
    /// A `Hessian-Type-Maps` header offers the version this server speaks.
    pub offered: bool,
    /// The first `Hessian-Reply-Map` header's value.
    pub reply_map: Option<&'a [u8]>,
    /// The peer's address, when the server knows it (its own connections).
    pub peer: Option<std::net::IpAddr>,
    /// The `Authorization` header's value (a type-map scope, `MapScope::PerClient`).
    pub auth: Option<&'a [u8]>,
}

/// The type negotiation's reply headers, rendered.
pub(crate) struct Negotiated {
    /// `Hessian-Type-Maps`: left off the answer to a referring call that ran, which its client
    /// does not read (`docs/negotiation.md` 3 and 6.2; one header less to write and parse).
    pub offer: bool,
    /// `Hessian-Type-Map-Unknown`.
    pub unknown: Option<String>,
    /// `Hessian-Type-Map`: the digests learned, comma-separated (empty: none).
    pub type_maps: String,
}

/// The server's answer to one request, before it is written as HTTP.
pub(crate) struct Reply {
    pub status: StatusCode,
    pub content_type: &'static str,
    /// `Allow: POST` (with a 405).
    pub allow_post: bool,
    /// `Connection: close`: the connection ends after this reply.
    pub close: bool,
    /// The negotiation's headers, for a call that spoke it.
    pub negotiation: Option<Negotiated>,
    pub body: Bytes,
}

impl Reply {
    /// A plain-text reply.
    pub(crate) fn text(status: StatusCode, msg: &'static str) -> Reply {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            allow_post: false,
            close: false,
            negotiation: None,
            body: Bytes::from_static(msg.as_bytes()),
        }
    }

    /// This reply as JSON when it is a plain-text one the server made (see
    /// [`ServerConfig::json_refusals`]): `{"error": {"status": N, "kind": KIND, "message": TEXT}}`,
    /// the kind named after the status (`body-too-large`, `request-timeout`, `head-too-large`,
    /// `not-found`, `method-not-allowed`, `internal-error`, else `bad-request`).
    pub(crate) fn into_json(self) -> Reply {
        if !self.content_type.starts_with("text/plain") {
            return self;
        }
        let kind = match self.status {
            StatusCode::PAYLOAD_TOO_LARGE => "body-too-large",
            StatusCode::REQUEST_TIMEOUT => "request-timeout",
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => "head-too-large",
            StatusCode::NOT_FOUND => "not-found",
            StatusCode::METHOD_NOT_ALLOWED => "method-not-allowed",
            s if s.is_server_error() => "internal-error",
            _ => "bad-request",
        };
        let mut body = format!("{{\"error\":{{\"status\":{},\"kind\":\"{kind}\",\"message\":\"", self.status.as_u16());
        for c in String::from_utf8_lossy(&self.body).chars() {
            match c {
                '"' => body.push_str("\\\""),
                '\\' => body.push_str("\\\\"),
                c if u32::from(c) < 0x20 => body.push_str(&format!("\\u{:04x}", u32::from(c))),
                c => body.push(c),
            }
        }
        body.push_str("\"}}");
        Reply { content_type: "application/json", body: Bytes::from(body), ..self }
    }

    /// 408 for a body that stalled; the connection is closed.
    pub(crate) fn timed_out() -> Reply {
        Reply { close: true, ..Reply::text(StatusCode::REQUEST_TIMEOUT, "request body timed out") }
    }

    /// The reply's headers besides the framing (`Content-Length`, `Date`), in order.
    pub(crate) fn for_each_header(&self, mut f: impl FnMut(&str, &str)) {
        f("content-type", self.content_type);
        if self.allow_post {
            f("allow", "POST");
        }
        if self.close {
            f("connection", "close");
        }
        if let Some(n) = &self.negotiation {
            if n.offer {
                f(neg::OFFER_HEADER, neg::VERSION);
            }
            if let Some(d) = &n.unknown {
                f(neg::UNKNOWN_HEADER, d);
            }
            if !n.type_maps.is_empty() {
                f(neg::TYPE_MAP_HEADER, &n.type_maps);
            }
        }
    }

    /// As an `http` response (the tower path).
    pub(crate) fn into_response(self) -> Response<Full<Bytes>> {
        let mut headers = header::HeaderMap::new();
        self.for_each_header(|name, value| {
            if let (Ok(n), Ok(v)) =
                (header::HeaderName::from_bytes(name.as_bytes()), header::HeaderValue::from_str(value))
            {
                headers.insert(n, v);
            }
        });
        let mut r = Response::new(Full::new(self.body));
        *r.status_mut() = self.status;
        *r.headers_mut() = headers;
        r
    }
}

impl HessianServer {
    /// Starts a server.
    pub fn builder() -> HessianServerBuilder {
        HessianServerBuilder::default()
    }

    /// A server answering every path with one service.
    pub fn single(service: Service) -> HessianServer {
        Self::builder().fallback(service).build()
    }

    /// The configuration in force.
    pub fn config(&self) -> &ServerConfig {
        &self.inner.config
    }

    /// What the type-map cache holds and the negotiation has done so far.
    pub fn type_map_stats(&self) -> ServerStats {
        self.inner.maps.stats()
    }

    /// Handles one HTTP request; never fails (errors become faults or HTTP error statuses) and
    /// never lets a panic escape.
    pub async fn handle<B>(&self, req: Request<B>) -> Response<Full<Bytes>>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        match AssertUnwindSafe(self.handle_inner(req)).catch_unwind().await {
            Ok(r) => r,
            Err(_) => Reply::text(StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response(),
        }
    }

    async fn handle_inner<B>(&self, req: Request<B>) -> Response<Full<Bytes>>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let service = match self.route_of(req.uri().path()) {
            Some(Route::Http(h)) => {
                let (parts, body) = req.into_parts();
                return match self.read_body(&parts.headers, body).await {
                    Ok(body) => h(self.clone(), Request::from_parts(parts, Full::new(body))).await,
                    Err(refused) => refused.into_response(),
                };
            }
            Some(Route::Hessian(s)) => Some(s),
            None => None,
        };
        let (mut parts, body) = req.into_parts();
        // the two values the call's handling reads (cheap clones), so that the header map itself
        // can go to the call's context without a copy
        let reply_map = parts.headers.get(&REPLY_MAP).cloned();
        let auth = parts.headers.get(header::AUTHORIZATION).cloned();
        let head = CallHead {
            post: parts.method == Method::POST,
            offered: parts.headers.get_all(&OFFER).iter().any(|v| neg::offers(v.as_bytes())),
            reply_map: reply_map.as_ref().map(|v| v.as_bytes()),
            peer: None,
            auth: auth.as_ref().map(|v| v.as_bytes()),
        };
        let service = match Self::route(service, &head) {
            Ok(s) => s,
            Err(reply) => return reply.into_response(),
        };
        let body = match self.read_body(&parts.headers, body).await {
            Ok(b) => b,
            Err(refused) => return refused.into_response(),
        };
        let request = RequestInfo {
            peer: parts.extensions.get::<PeerAddr>().map(|p| p.0),
            principal: parts.extensions.remove::<Principal>(),
            headers: HttpHeaders::parsed(std::mem::take(&mut parts.headers)),
        };
        self.answer_call(&service, &head, &body, request).await.into_response()
    }

    /// Reads a request body of the tower path within the size limit (a larger `Content-Length`
    /// is refused before reading) and the body timeout.
    async fn read_body<B>(&self, headers: &header::HeaderMap, body: B) -> Result<Bytes, Reply>
    where
        B: Body,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let max = self.inner.config.max_request_size;
        let too_large = || Reply::text(StatusCode::PAYLOAD_TOO_LARGE, "request body too large");
        if let Some(len) = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok()) {
            if len > max as u64 {
                return Err(too_large());
            }
        }
        let mut collect = std::pin::pin!(Limited::new(body, max).collect());
        // A body that arrived with the head is complete at the first poll: only a body still on
        // its way needs the timer (whose entry costs more than the rest of the collecting).
        let first = std::future::poll_fn(|cx| Poll::Ready(collect.as_mut().poll(cx))).await;
        let collected = match first {
            Poll::Ready(r) => Ok(r),
            Poll::Pending => tokio::time::timeout(self.inner.config.body_read_timeout, collect).await,
        };
        match collected {
            Err(_elapsed) => Err(Reply::timed_out()),
            Ok(Ok(b)) => Ok(b.to_bytes()),
            Ok(Err(e)) if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() => Err(too_large()),
            Ok(Err(_)) => Err(Reply::text(StatusCode::BAD_REQUEST, "could not read the request body")),
        }
    }

    /// What answers `path`: its route, else the fallback service.
    fn route_of(&self, path: &str) -> Option<Route> {
        let inner = &self.inner;
        inner.routes.get(path).cloned().or_else(|| inner.fallback.clone().map(Route::Hessian))
    }

    /// The service for a request's path and method, or the reply that refuses it (404, 405),
    /// decided before its body is read.
    pub(crate) fn route(service: Option<Arc<Service>>, head: &CallHead<'_>) -> Result<Arc<Service>, Reply> {
        let Some(service) = service else {
            return Err(Reply::text(StatusCode::NOT_FOUND, "no Hessian service at this path"));
        };
        if !head.post {
            let mut r = Reply::text(StatusCode::METHOD_NOT_ALLOWED, "Hessian Requires POST");
            r.allow_post = true;
            return Err(r);
        }
        Ok(service)
    }

    /// Answers the call in `body` with `service`: detects the dialect, speaks the type
    /// negotiation where the call does, and runs the service (a panic becomes a fault) with
    /// `request` in its [`CallContext`](crate::CallContext).
    pub(crate) async fn answer_call(
        &self,
        service: &Service,
        head: &CallHead<'_>,
        body: &[u8],
        request: RequestInfo,
    ) -> Reply {
        let inner = &self.inner;
        let Some(dialect) = Dialect::detect(body) else {
            return Reply::text(StatusCode::BAD_REQUEST, "not a Hessian or Burlap call");
        };
        // the extension is spoken with a Hessian 2 call that offered it or refers to a map
        // (a referring call offers the extension by its body, `docs/negotiation.md` 3)
        let referring = hessian::negotiate::is_referring(body);
        let negotiating = if inner.config.type_maps.enabled && dialect.call == Format::Hessian2 {
            let learn = head.offered || referring;
            learn.then(|| {
                let scope = inner.maps.scope_of(head.peer, head.auth);
                Negotiating {
                    cache: &inner.maps,
                    scope,
                    learn,
                    reply_map: match (dialect.reply, head.reply_map) {
                        (Format::Hessian2, Some(v)) => {
                            hessian::negotiate::parse_digest_bytes(v).and_then(|d| inner.maps.own_reply_map(scope, &d))
                        }
                        _ => None,
                    },
                }
            })
        } else {
            None
        };
        let aware = negotiating.is_some();
        let respond = service.answer(body, dialect, inner.config.limits, negotiating, request);
        let answer = match AssertUnwindSafe(respond).catch_unwind().await {
            Ok(a) => a,
            Err(_) => {
                let f = crate::fault::service_exception("java.lang.RuntimeException", "the service panicked");
                match protocol::encode_reply(dialect.reply, &Err(f)) {
                    Ok(body) => crate::service::Answer { body, ..Default::default() },
                    Err(_) => return Reply::text(StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
                }
            }
        };
        let negotiation = aware.then(|| {
            let mut maps = String::new();
            for d in
                answer.request_map.iter().chain(answer.reply_map.iter().filter(|d| answer.request_map != Some(**d)))
            {
                if !maps.is_empty() {
                    maps.push_str(", ");
                }
                maps.push_str(&hessian::negotiate::to_hex(d));
            }
            Negotiated {
                offer: answer.unknown.is_some() || !referring,
                unknown: answer.unknown.map(|d| hessian::negotiate::to_hex(&d)),
                type_maps: maps,
            }
        });
        Reply {
            status: StatusCode::OK,
            content_type: protocol::content_type(dialect.reply),
            allow_post: false,
            close: false,
            negotiation,
            body: Bytes::from(answer.body),
        }
    }

    /// Binds `addr` and serves until the process ends.
    pub async fn serve(self, addr: impl ToSocketAddrs) -> std::io::Result<()> {
        let listener = TcpListener::bind(addr).await?;
        self.serve_listener(listener, std::future::pending()).await;
        Ok(())
    }

    /// Binds `addr` and serves in a background task, returning a handle that knows the bound
    /// address and shuts the server down gracefully.
    pub async fn bind(self, addr: impl ToSocketAddrs) -> std::io::Result<RunningServer> {
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let (tx, mut rx) = watch::channel(false);
        let task = tokio::spawn(async move {
            let signal = async move {
                let _ = rx.wait_for(|stop| *stop).await;
            };
            self.serve_listener(listener, signal).await;
        });
        Ok(RunningServer { local_addr, stop: tx, task })
    }

    /// Serves connections from `listener` until `shutdown` completes, then stops accepting,
    /// lets open requests finish (up to the configured grace period) and returns.
    pub async fn serve_listener(self, listener: TcpListener, shutdown: impl Future<Output = ()>) {
        let slots = self.connection_slots();
        let respond = self.clone();
        self.accept_loop(listener, shutdown, respond, slots).await
    }

    /// [`serve_listener`](Self::serve_listener) with `handler` answering every request: it may
    /// answer some itself (say, a `GET /stats` of the application's) and pass the others to
    /// [`handle`](Self::handle) of the server it is given. Keep-alive, the header timeout, the
    /// connection limit, TLS and graceful shutdown are the server's.
    pub async fn serve_listener_with<H, Fut>(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
        handler: H,
    ) where
        H: Fn(HessianServer, Request<Full<Bytes>>) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Response<Full<Bytes>>> + Send + 'static,
    {
        let slots = self.connection_slots();
        let respond = WithHandler { server: self.clone(), handler };
        self.accept_loop(listener, shutdown, respond, slots).await
    }

    /// Serves connections from `listener` with `service`, a tower service over the requests
    /// (this server wrapped in layers, typically: an [`AuthLayer`](crate::auth::AuthLayer), a
    /// rate limit, tracing), until `shutdown` completes. Keep-alive, the timeouts, the connection
    /// limit, TLS and graceful shutdown are this server's configuration.
    pub async fn serve_service<S>(self, listener: TcpListener, service: S, shutdown: impl Future<Output = ()>)
    where
        S: tower_service::Service<Request<Full<Bytes>>, Response = Response<Full<Bytes>>, Error = Infallible>
            + Clone
            + Send
            + 'static,
        S::Future: Send + 'static,
    {
        let slots = self.connection_slots();
        self.accept_loop(listener, shutdown, Tower(service), slots).await
    }

    /// A semaphore of [`ServerConfig::max_connections`] permits, one per connection served.
    fn connection_slots(&self) -> Arc<tokio::sync::Semaphore> {
        Arc::new(tokio::sync::Semaphore::new(self.inner.config.max_connections.max(1)))
    }

    /// Serves `addr` on `workers` threads of its own (0: one per core), in the background, and
    /// returns once every worker listens.
    ///
    /// Each worker runs a single-threaded tokio runtime with its own listening socket on the
    /// same address (`SO_REUSEPORT`, so the kernel spreads new connections over the workers;
    /// where the platform lacks it, the workers share one socket). A connection and all its
    /// calls then stay on one thread: no work stealing, no wake-up of another thread per call,
    /// which is what a small RPC costs most on a loaded machine. The connection limit is one
    /// for all workers. [`serve_listener`](Self::serve_listener) on a multi-thread runtime
    /// remains the way to share a runtime with the rest of an application.
    pub fn spawn_workers(self, addr: SocketAddr, workers: usize) -> std::io::Result<WorkerServer> {
        let respond = self.clone();
        self.spawn_workers_respond(addr, workers, respond)
    }

    /// [`spawn_workers`](Self::spawn_workers) with `handler` answering every request, as in
    /// [`serve_listener_with`](Self::serve_listener_with).
    pub fn spawn_workers_with<H, Fut>(
        self,
        addr: SocketAddr,
        workers: usize,
        handler: H,
    ) -> std::io::Result<WorkerServer>
    where
        H: Fn(HessianServer, Request<Full<Bytes>>) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Response<Full<Bytes>>> + Send + 'static,
    {
        let respond = WithHandler { server: self.clone(), handler };
        self.spawn_workers_respond(addr, workers, respond)
    }

    /// [`spawn_workers`](Self::spawn_workers) answering with `respond`.
    fn spawn_workers_respond<R: Respond + Clone>(
        self,
        addr: SocketAddr,
        workers: usize,
        respond: R,
    ) -> std::io::Result<WorkerServer> {
        let workers = match workers {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let listeners = worker_listeners(addr, workers)?;
        let local_addr = listeners[0].local_addr()?;
        let (stop, rx) = watch::channel(false);
        let slots = self.connection_slots();
        let mut threads = Vec::with_capacity(listeners.len());
        for (i, std_listener) in listeners.into_iter().enumerate() {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            let (server, respond, slots, mut rx) = (self.clone(), respond.clone(), slots.clone(), rx.clone());
            let thread = std::thread::Builder::new().name(format!("hessian-worker-{i}")).spawn(move || {
                rt.block_on(async move {
                    let Ok(listener) = TcpListener::from_std(std_listener) else { return };
                    let signal = async move {
                        let _ = rx.wait_for(|stop| *stop).await;
                    };
                    server.accept_loop(listener, signal, respond, slots).await;
                });
            })?;
            threads.push(thread);
        }
        Ok(WorkerServer { local_addr, stop, threads })
    }

    /// The accept loop: a connection, then a connection slot from `slots`, its TLS handshake
    /// when the server has TLS, and the connection driver serving it with a clone of `respond`.
    /// At `shutdown` it stops accepting, tells the connections (each closes once it is between
    /// requests) and waits for them up to the grace period.
    async fn accept_loop<R: Respond + Clone>(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
        respond: R,
        slots: Arc<tokio::sync::Semaphore>,
    ) {
        let tls = self.inner.config.tls.clone().map(tokio_rustls::TlsAcceptor::from);
        let handshake_timeout = self.inner.config.header_read_timeout;
        // `stop` tells the connections; each holds a clone of `alive` until it ends
        let (stop, stopped) = watch::channel(false);
        let (alive, mut ended) = tokio::sync::mpsc::channel::<()>(1);
        tokio::pin!(shutdown);
        loop {
            // Accept, then wait for a free connection slot: at the limit, this one connection
            // waits unserved and further ones wait in the listen backlog. (Taking the slot
            // first would let a worker hold a free slot while connections queue in another
            // worker's backlog: the limit is one for all workers.)
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((s, peer)) => (s, peer),
                    Err(_) => {
                        // e.g. too many open files: back off briefly instead of spinning
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                },
                _ = &mut shutdown => break,
            };
            let permit = tokio::select! {
                p = slots.clone().acquire_owned() => match p {
                    Ok(p) => p,
                    Err(_) => break,
                },
                _ = &mut shutdown => break,
            };
            let _ = stream.set_nodelay(true);
            let (server, mut respond, mut stopped, alive) =
                (self.clone(), respond.clone(), stopped.clone(), alive.clone());
            let tls = tls.clone();
            tokio::spawn(async move {
                let config = &server.inner.config;
                let stopping = async move {
                    let _ = stopped.wait_for(|s| *s).await;
                };
                match tls {
                    None => conn::serve(stream, Some(peer), &mut respond, config, stopping).await,
                    Some(acceptor) => {
                        // a client that never finishes its handshake holds its slot no longer
                        // than one that never sends its headers
                        if let Ok(Ok(stream)) = tokio::time::timeout(handshake_timeout, acceptor.accept(stream)).await {
                            conn::serve(stream, Some(peer), &mut respond, config, stopping).await;
                        }
                    }
                }
                drop((permit, alive));
            });
        }
        drop(listener);
        let _ = stop.send(true);
        drop(alive);
        let _ = tokio::time::timeout(self.inner.config.shutdown_grace, ended.recv()).await;
    }
}

/// Answers straight from the connection's buffer: no `http` request is built.
impl Respond for HessianServer {
    async fn respond(&mut self, head: &RequestHead<'_>, body: &[u8]) -> Outgoing {
        let path = head.path();
        let service = match self.route_of(path) {
            Some(Route::Http(h)) => {
                return match http_request(head, body) {
                    Ok(req) => Outgoing::Response(h(self.clone(), req).await),
                    Err(refused) => Outgoing::Reply(refused),
                };
            }
            Some(Route::Hessian(s)) => Some(s),
            None => None,
        };
        // the fields the call's handling reads, in one pass (each name is tried only on fields of
        // its length)
        let peer = head.peer.map(|a| a.ip());
        let mut call = CallHead { post: head.method() == "POST", offered: false, reply_map: None, peer, auth: None };
        let is = |name: &[u8], want: &str| name.len() == want.len() && name.eq_ignore_ascii_case(want.as_bytes());
        for (name, value) in head.fields() {
            if is(name, neg::OFFER_HEADER) {
                call.offered |= neg::offers(value);
            } else if call.reply_map.is_none() && is(name, neg::REPLY_MAP_HEADER) {
                call.reply_map = Some(value);
            } else if call.auth.is_none() && is(name, "authorization") {
                call.auth = Some(value);
            }
        }
        Outgoing::Reply(match Self::route(service, &call) {
            Ok(service) => {
                let request =
                    RequestInfo { peer: head.peer, principal: None, headers: HttpHeaders::raw(head.header_section()) };
                self.answer_call(&service, &call, body, request).await
            }
            Err(refused) => refused,
        })
    }
}

/// The `http` request a handler or tower service is given: the head as sent, the body read, and
/// the peer's address as a [`PeerAddr`] extension.
fn http_request(head: &RequestHead<'_>, body: &[u8]) -> Result<Request<Full<Bytes>>, Reply> {
    let bad = || Reply { close: true, ..Reply::text(StatusCode::BAD_REQUEST, "malformed HTTP request head") };
    let mut req = Request::new(Full::new(Bytes::copy_from_slice(body)));
    *req.method_mut() = Method::from_bytes(head.method().as_bytes()).map_err(|_| bad())?;
    *req.uri_mut() = head.target().parse().map_err(|_| bad())?;
    *req.version_mut() = if head.http10 { http::Version::HTTP_10 } else { http::Version::HTTP_11 };
    let headers = req.headers_mut();
    for (name, value) in head.headers() {
        let name = header::HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad())?;
        let value = header::HeaderValue::from_bytes(value).map_err(|_| bad())?;
        headers.append(name, value);
    }
    if let Some(peer) = head.peer {
        req.extensions_mut().insert(PeerAddr(peer));
    }
    Ok(req)
}

/// A handler of [`HessianServer::serve_listener_with`] as the driver's [`Respond`].
#[derive(Clone)]
struct WithHandler<H> {
    server: HessianServer,
    handler: H,
}

impl<H, Fut> Respond for WithHandler<H>
where
    H: Fn(HessianServer, Request<Full<Bytes>>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Response<Full<Bytes>>> + Send + 'static,
{
    async fn respond(&mut self, head: &RequestHead<'_>, body: &[u8]) -> Outgoing {
        match http_request(head, body) {
            Ok(req) => Outgoing::Response((self.handler)(self.server.clone(), req).await),
            Err(refused) => Outgoing::Reply(refused),
        }
    }
}

/// A tower service of [`HessianServer::serve_service`] as the driver's [`Respond`].
#[derive(Clone)]
struct Tower<S>(S);

impl<S> Respond for Tower<S>
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = Response<Full<Bytes>>, Error = Infallible>
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    async fn respond(&mut self, head: &RequestHead<'_>, body: &[u8]) -> Outgoing {
        let req = match http_request(head, body) {
            Ok(req) => req,
            Err(refused) => return Outgoing::Reply(refused),
        };
        let service = &mut self.0;
        let Ok(()) = std::future::poll_fn(|cx| service.poll_ready(cx)).await;
        let Ok(response) = service.call(req).await;
        Outgoing::Response(response)
    }
}

/// A server running in the background (see [`HessianServer::bind`]).
#[derive(Debug)]
pub struct RunningServer {
    local_addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl RunningServer {
    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// `http://ADDR/path` for this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.local_addr, path)
    }

    /// Stops accepting connections, waits for open requests to finish (up to the grace
    /// period) and returns.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

impl<B> tower_service::Service<Request<B>> for HessianServer
where
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let server = self.clone();
        Box::pin(async move { Ok(server.handle(req).await) })
    }
}

/// A server running on worker threads of its own (see [`HessianServer::spawn_workers`]).
#[derive(Debug)]
pub struct WorkerServer {
    local_addr: SocketAddr,
    stop: watch::Sender<bool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl WorkerServer {
    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// `http://ADDR/path` for this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.local_addr, path)
    }

    /// How many worker threads serve.
    pub fn workers(&self) -> usize {
        self.threads.len()
    }

    /// Stops accepting connections, lets open requests finish (up to the grace period) and
    /// returns when every worker has stopped. It blocks the calling thread: from async code,
    /// call it in `spawn_blocking`.
    pub fn shutdown(self) {
        let _ = self.stop.send(true);
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// `workers` listening sockets on `addr`: one per worker with `SO_REUSEPORT` where the platform
/// has it (the first one picks the port when `addr` asks for any), else one shared socket.
fn worker_listeners(addr: SocketAddr, workers: usize) -> std::io::Result<Vec<std::net::TcpListener>> {
    use socket2::{Domain, Socket, Type};
    let open = |addr: SocketAddr, reuse_port: bool| -> std::io::Result<std::net::TcpListener> {
        let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
        socket.set_reuse_address(true)?;
        #[cfg(any(target_os = "linux", target_os = "android", target_os = "macos", target_os = "freebsd"))]
        if reuse_port {
            socket.set_reuse_port(true)?;
        }
        #[cfg(not(any(target_os = "linux", target_os = "android", target_os = "macos", target_os = "freebsd")))]
        let _ = reuse_port;
        socket.set_nonblocking(true)?;
        socket.bind(&addr.into())?;
        socket.listen(1024)?;
        Ok(socket.into())
    };
    let reuse_port = cfg!(any(target_os = "linux", target_os = "android", target_os = "macos", target_os = "freebsd"));
    let first = open(addr, reuse_port && workers > 1)?;
    let bound = first.local_addr()?;
    let mut all = vec![first];
    for _ in 1..workers {
        let next = if reuse_port { open(bound, true)? } else { all[0].try_clone()? };
        all.push(next);
    }
    Ok(all)
}

/// Serves one service at every path of `addr` until the process ends: the one-line server.
pub async fn serve(addr: impl ToSocketAddrs, service: Service) -> std::io::Result<()> {
    HessianServer::single(service).serve(addr).await
}
