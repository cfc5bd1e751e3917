//! The server: a [`tower_service::Service`] over HTTP requests that routes by path to
//! [`Service`]s, detects each call's protocol, and answers in kind; plus a standalone
//! hyper-based [`HessianServer::serve`] with keep-alive, limits and graceful shutdown.

use crate::negotiation::{self as neg, MapCache, ServerStats, TypeMapConfig};
use crate::protocol::{self, Dialect, Format};
use crate::service::{Negotiating, Service};
use bytes::Bytes;
use futures_util::FutureExt;
use hessian::Limits;
use http::{header, Method, Request, Response, StatusCode};
use http_body::Body;
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::rt::{TokioIo, TokioTimer};
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

/// Limits and timeouts of a server.
#[derive(Clone, Debug)]
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
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_request_size: 16 * 1024 * 1024,
            limits: Limits { max_message_size: 16 * 1024 * 1024, ..Limits::default() },
            header_read_timeout: Duration::from_secs(30),
            body_read_timeout: Duration::from_secs(60),
            max_connections: 1024,
            shutdown_grace: Duration::from_secs(10),
            type_maps: TypeMapConfig::default(),
            tls: None,
        }
    }
}

struct Inner {
    routes: HashMap<String, Arc<Service>>,
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
    routes: HashMap<String, Arc<Service>>,
    fallback: Option<Arc<Service>>,
    config: ServerConfig,
}

impl HessianServerBuilder {
    /// Serves `service` at `path` (exact match, e.g. `/bench`).
    pub fn mount(mut self, path: &str, service: Service) -> Self {
        self.routes.insert(path.to_owned(), Arc::new(service));
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
const UNKNOWN: header::HeaderName = header::HeaderName::from_static(neg::UNKNOWN_HEADER);
const TYPE_MAP: header::HeaderName = header::HeaderName::from_static(neg::TYPE_MAP_HEADER);

fn text(status: StatusCode, msg: &str) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(msg.to_owned())));
    *r.status_mut() = status;
    r.headers_mut().insert(header::CONTENT_TYPE, header::HeaderValue::from_static("text/plain; charset=utf-8"));
    r
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
            Err(_) => text(StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
        }
    }

    async fn handle_inner<B>(&self, req: Request<B>) -> Response<Full<Bytes>>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let inner = &self.inner;
        let Some(service) = inner.routes.get(req.uri().path()).or(inner.fallback.as_ref()).cloned() else {
            return text(StatusCode::NOT_FOUND, "no Hessian service at this path");
        };
        if req.method() != Method::POST {
            let mut r = text(StatusCode::METHOD_NOT_ALLOWED, "Hessian Requires POST");
            r.headers_mut().insert(header::ALLOW, header::HeaderValue::from_static("POST"));
            return r;
        }
        // the type negotiation's request headers, read before the body takes the request
        let negotiation = inner.config.type_maps.enabled.then(|| {
            let headers = req.headers();
            let offered = headers.get_all(&OFFER).iter().any(|v| neg::offers(v.as_bytes()));
            let reply_map = headers
                .get(&REPLY_MAP)
                .and_then(|v| hessian::negotiate::parse_digest(v.to_str().ok()?))
                .and_then(|d| inner.maps.own_reply_map(&d));
            (offered, reply_map)
        });
        let max = inner.config.max_request_size;
        if let Some(len) = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
        {
            if len > max as u64 {
                return text(StatusCode::PAYLOAD_TOO_LARGE, "request body too large");
            }
        }
        let mut collect = std::pin::pin!(Limited::new(req.into_body(), max).collect());
        // A body that arrived with the head is complete at the first poll: only a body still on
        // its way needs the timer (whose entry costs more than the rest of the collecting).
        let first = std::future::poll_fn(|cx| Poll::Ready(collect.as_mut().poll(cx))).await;
        let collected = match first {
            Poll::Ready(r) => Ok(r),
            Poll::Pending => tokio::time::timeout(inner.config.body_read_timeout, collect).await,
        };
        let body = match collected {
            Err(_elapsed) => {
                let mut r = text(StatusCode::REQUEST_TIMEOUT, "request body timed out");
                r.headers_mut().insert(header::CONNECTION, header::HeaderValue::from_static("close"));
                return r;
            }
            Ok(Ok(b)) => b.to_bytes(),
            Ok(Err(e)) => {
                return if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() {
                    text(StatusCode::PAYLOAD_TOO_LARGE, "request body too large")
                } else {
                    text(StatusCode::BAD_REQUEST, "could not read the request body")
                };
            }
        };
        let Some(dialect) = Dialect::detect(&body) else {
            return text(StatusCode::BAD_REQUEST, "not a Hessian or Burlap call");
        };
        // the extension is spoken with a Hessian 2 call that offered it or refers to a map
        let negotiation = negotiation.filter(|(offered, _)| {
            dialect.call == Format::Hessian2 && (*offered || hessian::negotiate::is_referring(&body))
        });
        // (a referring call offers the extension by its body, `docs/negotiation.md` 3)
        let negotiating = negotiation.map(|(offered, reply_map)| Negotiating {
            cache: &inner.maps,
            learn: offered || hessian::negotiate::is_referring(&body),
            reply_map: if dialect.reply == Format::Hessian2 { reply_map } else { None },
        });
        let aware = negotiating.is_some();
        let respond = service.answer(&body, dialect, inner.config.limits, negotiating);
        let answer = match AssertUnwindSafe(respond).catch_unwind().await {
            Ok(a) => a,
            Err(_) => {
                let f = crate::fault::service_exception("java.lang.RuntimeException", "the service panicked");
                match protocol::encode_reply(dialect.reply, &Err(f)) {
                    Ok(body) => crate::service::Answer { body, ..Default::default() },
                    Err(_) => return text(StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
                }
            }
        };
        let mut r = Response::new(Full::new(Bytes::from(answer.body)));
        let headers = r.headers_mut();
        headers.insert(header::CONTENT_TYPE, header::HeaderValue::from_static(protocol::content_type(dialect.reply)));
        if aware {
            headers.insert(OFFER, header::HeaderValue::from_static(neg::VERSION));
            if let Some(d) = answer.unknown {
                if let Ok(v) = header::HeaderValue::from_str(&hessian::negotiate::to_hex(&d)) {
                    headers.insert(UNKNOWN, v);
                }
            }
            let mut maps = String::new();
            for d in
                answer.request_map.iter().chain(answer.reply_map.iter().filter(|d| answer.request_map != Some(**d)))
            {
                if !maps.is_empty() {
                    maps.push_str(", ");
                }
                maps.push_str(&hessian::negotiate::to_hex(d));
            }
            if let Ok(v) = header::HeaderValue::from_str(&maps) {
                if !maps.is_empty() {
                    headers.insert(TYPE_MAP, v);
                }
            }
        }
        r
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
        self.serve_listener_with(listener, shutdown, |server, req| async move { server.handle(req).await }).await
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
        H: Fn(HessianServer, Request<hyper::body::Incoming>) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Response<Full<Bytes>>> + Send + 'static,
    {
        let slots = self.connection_slots();
        self.serve_handler(listener, shutdown, handler, slots).await
    }

    /// [`serve_listener_with`](Self::serve_listener_with) counting its connections in `slots`
    /// (which the workers of [`spawn_workers_with`](Self::spawn_workers_with) share).
    async fn serve_handler<H, Fut>(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
        handler: H,
        slots: Arc<tokio::sync::Semaphore>,
    ) where
        H: Fn(HessianServer, Request<hyper::body::Incoming>) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Response<Full<Bytes>>> + Send + 'static,
    {
        let server = self.clone();
        let make = move || {
            let (server, handler) = (server.clone(), handler.clone());
            hyper::service::service_fn(move |req| {
                let answer = handler(server.clone(), req);
                async move { Ok::<_, Infallible>(answer.await) }
            })
        };
        self.accept_loop(listener, shutdown, make, slots).await
    }

    /// Serves connections from `listener` with `service`, a tower service over the requests
    /// (this server wrapped in layers, typically: an [`AuthLayer`](crate::auth::AuthLayer), a
    /// rate limit, tracing), until `shutdown` completes. Keep-alive, the timeouts, the connection
    /// limit, TLS and graceful shutdown are this server's configuration.
    pub async fn serve_service<S>(self, listener: TcpListener, service: S, shutdown: impl Future<Output = ()>)
    where
        S: tower_service::Service<Request<hyper::body::Incoming>, Response = Response<Full<Bytes>>, Error = Infallible>
            + Clone
            + Send
            + 'static,
        S::Future: Send + 'static,
    {
        let make = move || hyper_util::service::TowerToHyperService::new(service.clone());
        let slots = self.connection_slots();
        self.accept_loop(listener, shutdown, make, slots).await
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
        self.spawn_workers_with(addr, workers, |server, req| async move { server.handle(req).await })
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
        H: Fn(HessianServer, Request<hyper::body::Incoming>) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Response<Full<Bytes>>> + Send + 'static,
    {
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
            let (server, handler, slots, mut rx) = (self.clone(), handler.clone(), slots.clone(), rx.clone());
            let thread = std::thread::Builder::new().name(format!("hessian-worker-{i}")).spawn(move || {
                rt.block_on(async move {
                    let Ok(listener) = TcpListener::from_std(std_listener) else { return };
                    let signal = async move {
                        let _ = rx.wait_for(|stop| *stop).await;
                    };
                    server.serve_handler(listener, signal, handler, slots).await;
                });
            })?;
            threads.push(thread);
        }
        Ok(WorkerServer { local_addr, stop, threads })
    }

    /// The accept loop: a connection, then a connection slot from `slots`, its TLS handshake
    /// when the server has TLS, and hyper serving it with a service from `make`.
    async fn accept_loop<M, S>(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
        make: M,
        slots: Arc<tokio::sync::Semaphore>,
    ) where
        M: Fn() -> S,
        S: hyper::service::Service<
                Request<hyper::body::Incoming>,
                Response = Response<Full<Bytes>>,
                Error = Infallible,
            > + Send
            + 'static,
        S::Future: Send + 'static,
    {
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let config = &self.inner.config;
        let mut http = hyper::server::conn::http1::Builder::new();
        http.keep_alive(true).timer(TokioTimer::new()).header_read_timeout(config.header_read_timeout);
        let http = Arc::new(http);
        let tls = config.tls.clone().map(tokio_rustls::TlsAcceptor::from);
        let handshake_timeout = config.header_read_timeout;
        tokio::pin!(shutdown);
        loop {
            // Accept, then wait for a free connection slot: at the limit, this one connection
            // waits unserved and further ones wait in the listen backlog. (Taking the slot
            // first would let a worker hold a free slot while connections queue in another
            // worker's backlog: the limit is one for all workers.)
            let stream = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((s, _)) => s,
                    Err(_) => {
                        // e.g. too many open files: back off briefly instead of spinning
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                },
                _ = &mut shutdown => break,
            };
            tokio::select! {
                p = slots.clone().acquire_owned() => {
                    let Ok(permit) = p else { break };
                    let _ = stream.set_nodelay(true);
                    let (service, http, watcher) = (make(), http.clone(), graceful.watcher());
                    match &tls {
                        None => {
                            let conn = watcher.watch(http.serve_connection(TokioIo::new(stream), service));
                            tokio::spawn(async move {
                                let _ = conn.await;
                                drop(permit);
                            });
                        }
                        Some(acceptor) => {
                            let accept = acceptor.accept(stream);
                            tokio::spawn(async move {
                                // a client that never finishes its handshake holds its slot no
                                // longer than one that never sends its headers
                                if let Ok(Ok(stream)) = tokio::time::timeout(handshake_timeout, accept).await {
                                    let _ = watcher.watch(http.serve_connection(TokioIo::new(stream), service)).await;
                                }
                                drop(permit);
                            });
                        }
                    }
                }
                _ = &mut shutdown => break,
            }
        }
        drop(listener);
        let _ = tokio::time::timeout(self.inner.config.shutdown_grace, graceful.shutdown()).await;
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
