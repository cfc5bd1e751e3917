//! Authentication as a tower layer: [`AuthLayer`] lets a request through to the service it wraps
//! (a [`HessianServer`](crate::HessianServer), or anything else) only when a check of its head
//! passes, and answers `401 Unauthorized` otherwise, before the body is read or anything runs.
//! The user it lets in reaches the method as [`CallContext::principal`](crate::CallContext).
//!
//! ```no_run
//! use hessian_rpc::auth::{AuthLayer, Layer};
//! use hessian_rpc::{HessianServer, Service};
//! # async fn run(service: Service) -> std::io::Result<()> {
//! let server = HessianServer::single(service);
//! // what Caucho's HessianProxyFactory.setUser("ada") and setPassword("secret") send
//! let guarded = AuthLayer::basic("hessian", |user, password| user == "ada" && password == "secret")
//!     .layer(server.clone());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! server.serve_service(listener, guarded, std::future::pending()).await;
//! # Ok(())
//! # }
//! ```

use crate::context::Principal;
use bytes::Bytes;
use http::{header, HeaderValue, Request, Response, StatusCode};
use http_body_util::Full;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

pub use tower_layer::Layer;

/// A request's check: `None` refuses it, `Some(principal)` lets it through (with the user it
/// established, if any).
type Check = dyn Fn(&http::request::Parts) -> Option<Option<Principal>> + Send + Sync;

/// A tower layer that lets through only the requests its check accepts (see the module
/// documentation).
#[derive(Clone)]
pub struct AuthLayer {
    check: Arc<Check>,
    challenge: HeaderValue,
}

impl std::fmt::Debug for AuthLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthLayer").field("challenge", &self.challenge).finish_non_exhaustive()
    }
}

impl AuthLayer {
    /// Accepts the requests whose head `check` accepts (a token header, a client certificate
    /// the application recorded, a source address); a refused request gets 401 with
    /// `WWW-Authenticate: challenge`.
    pub fn new(challenge: HeaderValue, check: impl Fn(&http::request::Parts) -> bool + Send + Sync + 'static) -> Self {
        AuthLayer { check: Arc::new(move |parts| check(parts).then_some(None)), challenge }
    }

    /// Accepts the requests for which `authenticate` names a [`Principal`] (who sent it, from
    /// a token header, say) and hands that principal to the service: a method reads it as
    /// [`CallContext::principal`](crate::CallContext::principal). A refused request gets 401
    /// with `WWW-Authenticate: challenge`.
    pub fn authenticate(
        challenge: HeaderValue,
        authenticate: impl Fn(&http::request::Parts) -> Option<Principal> + Send + Sync + 'static,
    ) -> Self {
        AuthLayer { check: Arc::new(move |parts| authenticate(parts).map(Some)), challenge }
    }

    /// HTTP basic authentication: accepts the requests whose `Authorization: Basic` user and
    /// password `check` accepts (what Caucho's `HessianProxyFactory.setUser`/`setPassword` and
    /// [`ClientBuilder::basic_auth`](crate::ClientBuilder::basic_auth) send); refused ones get
    /// 401 with `WWW-Authenticate: Basic realm="realm"`. The user name of an accepted request
    /// is its [`Principal`], which a method reads as
    /// [`CallContext::principal`](crate::CallContext::principal).
    pub fn basic(realm: &str, check: impl Fn(&str, &str) -> bool + Send + Sync + 'static) -> Self {
        let realm: String = realm.chars().filter(|c| *c != '"' && *c != '\\' && !c.is_control()).collect();
        let challenge = HeaderValue::from_str(&format!("Basic realm=\"{realm}\""))
            .unwrap_or_else(|_| HeaderValue::from_static("Basic"));
        AuthLayer::authenticate(challenge, move |parts| {
            let (user, password) = basic_credentials(parts)?;
            check(&user, &password).then(|| Principal::new(user))
        })
    }
}

/// The user and password of a request's `Authorization: Basic` header, if it has a valid one.
pub fn basic_credentials(parts: &http::request::Parts) -> Option<(String, String)> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = hessian::base64::decode(token.trim().as_bytes(), hessian::base64::Strictness::Canonical).ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_owned(), password.to_owned()))
}

impl<S> tower_layer::Layer<S> for AuthLayer {
    type Service = Auth<S>;

    fn layer(&self, inner: S) -> Auth<S> {
        Auth { inner, layer: self.clone() }
    }
}

/// The service [`AuthLayer`] makes of the service it wraps.
#[derive(Clone, Debug)]
pub struct Auth<S> {
    inner: S,
    layer: AuthLayer,
}

impl<S, B> tower_service::Service<Request<B>> for Auth<S>
where
    S: tower_service::Service<Request<B>, Response = Response<Full<Bytes>>, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let (mut parts, body) = req.into_parts();
        if let Some(principal) = (self.layer.check)(&parts) {
            if let Some(p) = principal {
                parts.extensions.insert(p);
            }
            return Box::pin(self.inner.call(Request::from_parts(parts, body)));
        }
        let mut r = Response::new(Full::new(Bytes::from_static(b"authentication required\n")));
        *r.status_mut() = StatusCode::UNAUTHORIZED;
        r.headers_mut().insert(header::WWW_AUTHENTICATE, self.layer.challenge.clone());
        r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
        Box::pin(std::future::ready(Ok(r)))
    }
}
