//! The call context (issue 27 item 3): a method reads the HTTP headers, the peer's address, the
//! user `AuthLayer` let in and the dialect with `CallContext::current()`, on every way of
//! serving (the server's own connections, its worker threads, `serve_service` behind a tower
//! layer, an axum router, a plain hyper server), called by the Rust client, by hand-made requests from a known local
//! port, and by Java's `HessianProxyFactory` with basic auth and a header of its own.

use hessian::{Call, Value};
use hessian_rpc::auth::{AuthLayer, Layer};
use hessian_rpc::{
    protocol, CallContext, Client, Dialect, Error, HessianServer, IntoFault, NoCallContext, PeerAddr, Principal,
    Service, ServiceError,
};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::Arc;

/// What a method reports of its context.
fn report(ctx: &CallContext) -> String {
    let user = ctx.principal.as_ref().map_or("-".to_owned(), |p| p.name().to_owned());
    let tenant = ctx.http_header("x-tenant").unwrap_or("-");
    let peer = ctx.peer.map_or("-".to_owned(), |p| p.to_string());
    format!("user={user} tenant={tenant} peer={peer} dialect={} method={}", ctx.dialect, ctx.method)
}

#[hessian_rpc::service(api = "ContextCaller$Whoami")]
trait Whoami {
    async fn whoami(&self) -> Result<String, ServiceError>;
    /// Whether a task the method spawns sees the context (it does not).
    async fn spawned(&self) -> Result<String, ServiceError>;
}

struct Impl;

impl Whoami for Impl {
    async fn whoami(&self) -> Result<String, ServiceError> {
        Ok(report(&*CallContext::current()?))
    }

    async fn spawned(&self) -> Result<String, ServiceError> {
        let inside = CallContext::current().is_ok();
        let task = tokio::spawn(async { CallContext::current().err() }).await?;
        Ok(format!("inside={inside} spawned={task:?}"))
    }
}

/// The server of the tests: the `#[service]` trait at `/trait`, and on every other path a
/// method taking values (handed its context as an argument, and reading `current()` too) and a
/// typed closure.
fn server() -> HessianServer {
    let others = Service::builder()
        .method("whoamiValues", &[], |ctx: CallContext, _args| async move {
            let current = CallContext::current().map_err(IntoFault::into_fault)?;
            assert_eq!(*current, ctx, "the argument and current() are the same context");
            Ok(Value::string(report(&ctx)))
        })
        .typed("whoamiTyped", |(): ()| async move { Ok::<_, ServiceError>(report(&*CallContext::current()?)) })
        .build();
    HessianServer::builder().mount("/trait", Impl.into_service()).fallback(others).build()
}

/// Each kind of method: (path, method).
const METHODS: [(&str, &str); 3] = [("/trait", "whoami"), ("/who", "whoamiValues"), ("/who", "whoamiTyped")];

/// Calls `method` with the Rust client in `dialect`, sending `X-Tenant: tenant` (and basic auth
/// when given).
async fn call(url: &str, dialect: Dialect, method: &str, auth: Option<(&str, &str)>) -> Result<String, Error> {
    let mut b = Client::builder().dialect(dialect).header("X-Tenant", "acme");
    if let Some((u, p)) = auth {
        b = b.basic_auth(u, p);
    }
    let v = b.build().proxy(url)?.call(method, vec![]).await?;
    Ok(v.as_str().unwrap_or_default().to_owned())
}

/// [`raw_call`] off the runtime's threads.
async fn raw(
    addr: SocketAddr,
    path: &'static str,
    method: &'static str,
    headers: &'static str,
) -> (String, SocketAddr) {
    tokio::task::spawn_blocking(move || raw_call(addr, path, method, headers)).await.unwrap()
}

/// A hand-made Hessian 2 call of `method` from a socket whose local address is known: the
/// report and that address.
fn raw_call(addr: SocketAddr, path: &str, method: &str, headers: &str) -> (String, SocketAddr) {
    let body = protocol::encode_call(Dialect::HESSIAN2, &Call::new(method, vec![])).unwrap();
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let local = s.local_addr().unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: x-application/hessian\r\n{headers}\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(&body).unwrap();
    let mut reply = Vec::new();
    s.read_to_end(&mut reply).unwrap();
    let at = reply.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head") + 4;
    assert!(reply.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&reply));
    let value = protocol::decode_reply(hessian::Format::Hessian2, &reply[at..], Default::default()).unwrap();
    (value.expect("a value").as_str().unwrap_or_default().to_owned(), local)
}

fn expected(user: &str, tenant: &str, peer: &str, dialect: Dialect, method: &str) -> String {
    format!("user={user} tenant={tenant} peer={peer} dialect={dialect} method={method}")
}

/// The peer part of a report.
fn peer_of(report: &str) -> &str {
    report.split_whitespace().find_map(|w| w.strip_prefix("peer=")).unwrap_or("")
}

#[tokio::test]
async fn methods_see_headers_peer_and_dialect_on_the_servers_own_connections() {
    let server = server().bind("127.0.0.1:0").await.unwrap();
    let addr = server.local_addr();
    for dialect in [Dialect::HESSIAN2, Dialect::HESSIAN1, Dialect::HYBRID, Dialect::BURLAP] {
        for (path, method) in METHODS {
            let got = call(&server.url(path), dialect, method, None).await.unwrap();
            let peer: SocketAddr = peer_of(&got).parse().unwrap_or_else(|_| panic!("{got}"));
            assert!(peer.ip().is_loopback() && peer.port() != addr.port(), "{got}");
            assert_eq!(got, expected("-", "acme", &peer.to_string(), dialect, method));
        }
    }
    // the peer is the caller's own address
    let (got, local) = raw(addr, "/trait", "whoami", "X-Tenant: raw\r\n").await;
    assert_eq!(got, expected("-", "raw", &local.to_string(), Dialect::HESSIAN2, "whoami"));
    server.shutdown().await;
}

#[test]
fn methods_see_their_context_on_worker_threads() {
    let server = server().spawn_workers("127.0.0.1:0".parse().unwrap(), 2).unwrap();
    for _ in 0..4 {
        let (got, local) = raw_call(server.local_addr(), "/", "whoamiTyped", "x-tenant: w\r\n");
        assert_eq!(got, expected("-", "w", &local.to_string(), Dialect::HESSIAN2, "whoamiTyped"));
    }
    server.shutdown();
}

#[tokio::test]
async fn the_user_auth_layer_let_in_reaches_the_method() {
    let server = server();
    let guarded = AuthLayer::basic("ctx", |u, p| u == "ada" && p == "secret").layer(server.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_service(listener, guarded, async move {
        let _ = stopped.await;
    }));
    let url = |path: &str| format!("http://{addr}{path}");
    for dialect in [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::BURLAP] {
        for (path, method) in METHODS {
            let got = call(&url(path), dialect, method, Some(("ada", "secret"))).await.unwrap();
            assert!(got.starts_with("user=ada tenant=acme peer=127.0.0.1:"), "{got}");
            assert!(got.ends_with(&format!("dialect={dialect} method={method}")), "{got}");
        }
    }
    let (got, local) = raw(addr, "/trait", "whoami", "Authorization: Basic YWRhOnNlY3JldA==\r\n").await;
    assert_eq!(got, expected("ada", "-", &local.to_string(), Dialect::HESSIAN2, "whoami"));
    // the wrong password never reaches the method
    let refused = call(&url("/trait"), Dialect::HESSIAN2, "whoami", Some(("ada", "nope"))).await.unwrap_err();
    assert!(matches!(&refused, Error::Http { status, .. } if status.as_u16() == 401), "{refused}");
    let _ = stop.send(());
    task.await.unwrap();
}

#[tokio::test]
async fn an_axum_router_hands_over_the_peer_and_the_user() {
    use axum::extract::{ConnectInfo, Request};
    let server = server();
    // a token scheme of the application's: `Authorization: Bearer NAME` lets NAME in
    let auth = AuthLayer::authenticate(http::HeaderValue::from_static("Bearer"), |parts| {
        let value = parts.headers.get(http::header::AUTHORIZATION)?.to_str().ok()?;
        Some(Principal::new(value.strip_prefix("Bearer ")?))
    });
    let app = axum::Router::new().route_service("/who", auth.layer(server)).layer(axum::middleware::map_request(
        |mut req: Request| async move {
            // axum knows the peer as ConnectInfo; the method sees it as PeerAddr
            if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>().copied() {
                req.extensions_mut().insert(PeerAddr(peer));
            }
            req
        },
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task =
        tokio::spawn(
            async move { axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await },
        );
    let (got, local) = raw(addr, "/who", "whoamiValues", "Authorization: Bearer grace\r\nX-Tenant: t1\r\n").await;
    assert_eq!(got, expected("grace", "t1", &local.to_string(), Dialect::HESSIAN2, "whoamiValues"));
    let refused = call(&format!("http://{addr}/who"), Dialect::HESSIAN2, "whoami", None).await.unwrap_err();
    assert!(matches!(&refused, Error::Http { status, .. } if status.as_u16() == 401), "{refused}");
    task.abort();
}

#[tokio::test]
async fn a_plain_hyper_server_hands_over_the_peer_and_the_user() {
    // hyper serving the server as a tower service behind AuthLayer, the peer added per connection
    let guarded = AuthLayer::basic("ctx", |u, p| u == "ada" && p == "secret").layer(server());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        loop {
            let Ok((stream, peer)) = listener.accept().await else { return };
            let guarded = guarded.clone();
            let service = hyper::service::service_fn(move |mut req: http::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(PeerAddr(peer));
                let mut guarded = guarded.clone();
                async move { tower::Service::call(&mut guarded, req).await }
            });
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
            });
        }
    });
    let (got, local) =
        raw(addr, "/who", "whoamiTyped", "Authorization: Basic YWRhOnNlY3JldA==\r\nX-Tenant: h\r\n").await;
    assert_eq!(got, expected("ada", "h", &local.to_string(), Dialect::HESSIAN2, "whoamiTyped"));
    let got = call(&format!("http://{addr}/trait"), Dialect::BURLAP, "whoami", Some(("ada", "secret"))).await.unwrap();
    assert!(got.starts_with("user=ada tenant=acme peer=127.0.0.1:") && got.ends_with("dialect=Burlap method=whoami"));
    task.abort();
}

#[tokio::test]
async fn outside_a_call_the_context_is_a_typed_error() {
    assert_eq!(CallContext::current().unwrap_err(), NoCallContext);
    let message = NoCallContext.to_string();
    assert!(message.contains("no Hessian call in progress") && message.contains("CallContext::current()"), "{message}");
    // a task the method spawns does not inherit the context
    let server = server().bind("127.0.0.1:0").await.unwrap();
    let got = call(&server.url("/trait"), Dialect::HESSIAN2, "spawned", None).await.unwrap();
    assert_eq!(got, "inside=true spawned=Some(NoCallContext)");
    server.shutdown().await;
    // a method answered without HTTP (`Service::respond`) has a context without HTTP parts
    let body = protocol::encode_call(Dialect::HESSIAN2, &Call::new("whoami", vec![])).unwrap();
    let reply = Impl.into_service().respond(&body, Dialect::HESSIAN2, Default::default()).await;
    let v = protocol::decode_reply(hessian::Format::Hessian2, &reply, Default::default()).unwrap().unwrap();
    assert_eq!(v, Value::string(expected("-", "-", "-", Dialect::HESSIAN2, "whoami")));
    // a test of a method sets the context itself
    let mut headers = http::HeaderMap::new();
    headers.insert("x-tenant", http::HeaderValue::from_static("test"));
    let mut ctx = CallContext::new("whoami", Dialect::BURLAP).with_http_headers(headers);
    ctx.principal = Some(Principal::new("tester"));
    let got = Arc::new(ctx).scope(async { Impl.whoami().await }).await.unwrap();
    assert_eq!(got, expected("tester", "test", "-", Dialect::BURLAP, "whoami"));
}

#[test]
fn a_java_caller_with_basic_auth_and_its_own_header() {
    let Some(java) = hessian_testkit::java::java() else { return };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = server();
    let guarded = AuthLayer::basic("ctx", |u, p| u == "ada" && p == "secret").layer(server.clone());
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let url = format!("http://{}/trait", listener.local_addr().unwrap());
    rt.spawn(server.serve_service(listener, guarded, std::future::pending()));
    let out = java.run("ContextCaller", &[&url, "ada", "secret", "acme"], b"");
    let out = String::from_utf8_lossy(&out);
    // Java's proxy sends the `c 2 0` hybrid call and reads a Hessian 2 reply
    assert!(out.starts_with("user=ada tenant=acme peer=127.0.0.1:"), "{out}");
    assert!(out.trim_end().ends_with(&format!("dialect={} method=whoami", Dialect::HYBRID)), "{out}");
    let out = java.run("ContextCaller", &[&url, "ada", "wrong", "acme"], b"");
    let out = String::from_utf8_lossy(&out);
    assert!(out.starts_with("exception ") && out.contains("401"), "{out}");
    drop(rt);
}
