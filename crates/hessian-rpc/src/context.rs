//! The call context: what a service method can learn about the call it answers besides its
//! arguments: the method name, the HTTP request headers, the peer's address, the user an
//! authentication layer let in ([`Principal`]), the call's Hessian headers and its dialect.
//!
//! Methods that take [`Value`]s are handed a [`CallContext`]; every method, typed ones and
//! those of a [`#[service]`](macro@crate::service) trait included, reads it with
//! [`CallContext::current`] (a Tokio task-local set while the method runs). Outside a call,
//! `current()` is the error [`NoCallContext`], never a panic.
//!
//! ```
//! use hessian_rpc::{CallContext, ServiceError};
//!
//! #[hessian_rpc::service]
//! trait Greeter {
//!     async fn whoami(&self) -> Result<String, ServiceError>;
//! }
//!
//! struct Impl;
//!
//! impl Greeter for Impl {
//!     async fn whoami(&self) -> Result<String, ServiceError> {
//!         let ctx = CallContext::current()?;
//!         let user = ctx.principal.as_ref().map_or("anonymous", |p| p.name());
//!         let agent = ctx.http_header("user-agent").unwrap_or("unknown");
//!         Ok(format!("{user} from {:?} with {agent} in {}", ctx.peer, ctx.dialect))
//!     }
//! }
//! # assert!(CallContext::current().is_err());
//! ```

use crate::protocol::Dialect;
use hessian::Value;
use http::header::{HeaderMap, HeaderName, HeaderValue};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

tokio::task_local! {
    /// The context of the call whose method is running on this task.
    static CURRENT: Arc<CallContext>;
}

/// Who made a call, as an authentication layer established it: [`AuthLayer::basic`] puts the
/// user name of a request it lets through into the request's extensions, and the server hands
/// it to the method as [`CallContext::principal`]. Any tower layer of your own can insert one
/// the same way (`request.extensions_mut().insert(Principal::new("ada"))`).
///
/// [`AuthLayer::basic`]: crate::auth::AuthLayer::basic
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Principal {
    name: String,
}

impl Principal {
    /// A principal named `name` (a user name, a client certificate's subject, a token's owner).
    pub fn new(name: impl Into<String>) -> Self {
        Principal { name: name.into() }
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl std::fmt::Display for Principal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// The peer's address as a request extension. The server's own connection driver adds it to
/// the requests it hands to a tower service ([`HessianServer::serve_service`]); under another
/// HTTP server (axum, hyper), insert it from what that server knows (axum's `ConnectInfo`) and
/// the method sees it as [`CallContext::peer`].
///
/// [`HessianServer::serve_service`]: crate::HessianServer::serve_service
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PeerAddr(pub SocketAddr);

/// [`CallContext::current`] was asked outside a call: not inside a service method while it
/// answers one (a task spawned by the method does not inherit the context; pass it along).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no Hessian call in progress: CallContext::current() works only inside a service method while it \
     answers a call (a task the method spawns does not inherit it: pass the context along)"
)]
pub struct NoCallContext;

impl crate::fault::IntoFault for NoCallContext {
    fn into_fault(self) -> hessian::Fault {
        crate::fault::service_exception("java.lang.IllegalStateException", &self.to_string())
    }
}

/// The HTTP request headers of a call: taken as the server read them and made into a
/// [`HeaderMap`] only when a method asks. Small (two pointers and lengths), as it is moved
/// through the layers of every call: the raw section is one plain allocation (no shared
/// `Bytes`), the map is boxed.
#[derive(Clone, Default)]
pub(crate) struct HttpHeaders {
    /// The header section as it arrived (`Name: value` lines and the blank line), when the
    /// headers are not parsed yet.
    raw: Box<[u8]>,
    parsed: OnceLock<Box<HeaderMap>>,
}

/// Most header fields read from a raw header section (as many as the server accepts).
const MAX_FIELDS: usize = 100;

impl HttpHeaders {
    /// Headers already in a map (the tower path).
    pub(crate) fn parsed(map: HeaderMap) -> Self {
        HttpHeaders { raw: Box::default(), parsed: OnceLock::from(Box::new(map)) }
    }

    /// Headers as the section of a request head that holds them, parsed on first use.
    pub(crate) fn raw(section: &[u8]) -> Self {
        HttpHeaders { raw: section.into(), parsed: OnceLock::new() }
    }

    fn map(&self) -> &HeaderMap {
        self.parsed.get_or_init(|| {
            let mut map = HeaderMap::new();
            let mut fields = [httparse::EMPTY_HEADER; MAX_FIELDS];
            // the server parsed this very section already: a field it could not read is left out
            if let Ok(httparse::Status::Complete((_, fields))) = httparse::parse_headers(&self.raw, &mut fields) {
                for f in fields {
                    if let (Ok(n), Ok(v)) =
                        (HeaderName::from_bytes(f.name.as_bytes()), HeaderValue::from_bytes(f.value))
                    {
                        map.append(n, v);
                    }
                }
            }
            Box::new(map)
        })
    }
}

impl std::fmt::Debug for HttpHeaders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.map().fmt(f)
    }
}

impl PartialEq for HttpHeaders {
    fn eq(&self, other: &Self) -> bool {
        self.map() == other.map()
    }
}

/// What the server knows of the HTTP request that carried a call.
#[derive(Clone, Default)]
pub(crate) struct RequestInfo {
    pub peer: Option<SocketAddr>,
    pub principal: Option<Principal>,
    pub headers: HttpHeaders,
}

/// What a method learns about the call besides its arguments (see the [module
/// documentation](self)). More may come: build one with [`CallContext::new`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CallContext {
    /// The method name as it was sent (possibly mangled).
    pub method: String,
    /// Call headers (Hessian 1 and Burlap calls can carry them; Hessian 2 calls cannot). The
    /// HTTP request's headers are [`http_headers`](Self::http_headers).
    pub headers: Vec<(String, Value)>,
    /// The protocols of the call and of the reply.
    pub dialect: Dialect,
    /// The peer's address: known on the server's own connections, and under another HTTP
    /// server when the request carries a [`PeerAddr`] extension.
    pub peer: Option<SocketAddr>,
    /// The user an authentication layer let in ([`AuthLayer::basic`](crate::auth::AuthLayer::basic)
    /// sets it), if any.
    pub principal: Option<Principal>,
    http: HttpHeaders,
}

impl CallContext {
    /// A context of a call of `method` in `dialect`, with no headers, peer or principal (for
    /// tests of methods that read [`current`](Self::current); see [`scope`](Self::scope)).
    pub fn new(method: impl Into<String>, dialect: Dialect) -> Self {
        CallContext {
            method: method.into(),
            headers: Vec::new(),
            dialect,
            peer: None,
            principal: None,
            http: HttpHeaders::default(),
        }
    }

    /// This context with the HTTP request headers `headers`.
    pub fn with_http_headers(mut self, headers: HeaderMap) -> Self {
        self.http = HttpHeaders::parsed(headers);
        self
    }

    pub(crate) fn of_request(method: String, headers: Vec<(String, Value)>, dialect: Dialect, r: RequestInfo) -> Self {
        CallContext { method, headers, dialect, peer: r.peer, principal: r.principal, http: r.headers }
    }

    /// The value of the named Hessian call header, if the call carried it.
    pub fn header(&self, name: &str) -> Option<&Value> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// The HTTP request's headers (empty when the call did not come over HTTP, as with
    /// [`Service::respond`](crate::Service::respond)).
    pub fn http_headers(&self) -> &HeaderMap {
        self.http.map()
    }

    /// The first value of the HTTP request header `name` (any case), if it is there and is
    /// visible ASCII text.
    pub fn http_header(&self, name: &str) -> Option<&str> {
        self.http.map().get(name)?.to_str().ok()
    }

    /// The context of the call being answered on this task, or [`NoCallContext`] outside a
    /// service method.
    pub fn current() -> Result<Arc<CallContext>, NoCallContext> {
        CURRENT.try_with(Arc::clone).map_err(|_| NoCallContext)
    }

    /// Runs `future` with this context as [`current`](Self::current): what the server does
    /// around each method, for tests of methods and for tasks a method spawns.
    pub fn scope<F: Future>(self: Arc<Self>, future: F) -> impl Future<Output = F::Output> {
        CURRENT.scope(self, future)
    }

    /// Runs `f` with this context as [`current`](Self::current), synchronously.
    pub(crate) fn sync_scope<R>(self: &Arc<Self>, f: impl FnOnce() -> R) -> R {
        CURRENT.sync_scope(self.clone(), f)
    }
}
