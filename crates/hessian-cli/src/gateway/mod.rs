//! `hessian gateway`: JSON over HTTP in front of a Hessian service. `POST /METHOD` with a JSON
//! array of arguments calls the upstream in the chosen dialect and answers the reply as typed
//! JSON; `GET /` describes the gateway (and with `--api`, the service's methods). Every error is
//! a JSON object with a documented HTTP status (`docs/gateway.md`).

mod plain;

use crate::format::Format;
use crate::rpc::{dialect, fault_json, runtime, shutdown_signal};
use crate::{parse_json, CliError};
use bytes::Bytes;
use hessian_rpc::{Client, HessianServer, Proxy};
use http::{header, HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::Full;
use serde_json::Value as Json;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `hessian gateway`.
#[derive(clap::Args, Debug)]
pub struct GatewayArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// The Hessian service's URL, e.g. `http://127.0.0.1:8080/bench`.
    #[arg(long)]
    pub upstream: String,
    /// With `--format h1`: send the `c 2 0` call Java's proxy sends and read a Hessian 2 reply.
    #[arg(long)]
    pub hybrid: bool,
    /// Plain Hessian 2 to the upstream: no type negotiation (2.1).
    #[arg(long)]
    pub no_type_maps: bool,
    /// Seconds to wait for the upstream's reply (then HTTP 504).
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
    /// Largest request body accepted, in bytes (larger: HTTP 413).
    #[arg(long, value_name = "BYTES", default_value_t = 1024 * 1024)]
    pub max_body: usize,
    /// The service's compiled Java interface (class files, directories of them, jars): the
    /// arguments are then plain JSON, converted by the Java parameter types.
    #[arg(long = "api", value_name = "JAR_OR_CLASSES", requires = "service")]
    pub api: Vec<PathBuf>,
    /// The interface's binary name, e.g. `com.example.BankService` (with `--api`).
    #[arg(long, requires = "api")]
    pub service: Option<String>,
}

/// What the gateway answers with an error status: each becomes `{"error": {"status", "kind",
/// "message"}}` (and `"argument"` for an argument's error).
#[derive(Debug, thiserror::Error)]
pub(crate) enum GatewayError {
    /// The body is not JSON (or nested too deep).
    #[error("the body is not JSON: {0}")]
    NotJson(String),
    /// The body is JSON but not an array.
    #[error("the body must be a JSON array of the arguments, not {0}")]
    NotArray(&'static str),
    /// An argument does not fit: not typed JSON, or not of its parameter's type.
    #[error("argument {index}: {message}")]
    BadArgument { index: usize, message: String },
    /// With `--api`: the method takes another number of arguments.
    #[error("{0}")]
    ArgumentCount(String),
    /// With `--api`: the arguments fit none of the overloads of their number.
    #[error("{0}")]
    NoOverloadFits(String),
    /// With `--api`: the arguments fit several overloads.
    #[error("{0}")]
    Ambiguous(String),
    /// No such method (with `--api`), or a path that is no method name.
    #[error("{0}")]
    UnknownMethod(String),
    /// A method the path does not answer (`Allow` says which).
    #[error("{method} {path}: use {allow}")]
    MethodNotAllowed { method: String, path: String, allow: &'static str },
    /// The upstream could not be reached, or the exchange with it failed.
    #[error("the upstream failed: {0}")]
    Upstream(String),
    /// The upstream did not answer within `--timeout`.
    #[error("the upstream did not answer within {0:?}")]
    UpstreamTimeout(Duration),
    /// The upstream answered something that is not a reply of the dialect.
    #[error("the upstream's answer is not a reply: {0}")]
    BadUpstreamReply(String),
}

impl GatewayError {
    /// The HTTP status and the `kind` of the JSON error.
    fn status_and_kind(&self) -> (StatusCode, &'static str) {
        match self {
            GatewayError::NotJson(_) => (StatusCode::BAD_REQUEST, "not-json"),
            GatewayError::NotArray(_) => (StatusCode::BAD_REQUEST, "not-an-array"),
            GatewayError::BadArgument { .. } => (StatusCode::BAD_REQUEST, "bad-argument"),
            GatewayError::ArgumentCount(_) => (StatusCode::BAD_REQUEST, "argument-count"),
            GatewayError::NoOverloadFits(_) => (StatusCode::BAD_REQUEST, "no-overload-fits"),
            GatewayError::Ambiguous(_) => (StatusCode::BAD_REQUEST, "ambiguous-overload"),
            GatewayError::UnknownMethod(_) => (StatusCode::NOT_FOUND, "unknown-method"),
            GatewayError::MethodNotAllowed { .. } => (StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed"),
            GatewayError::Upstream(_) => (StatusCode::BAD_GATEWAY, "upstream-failed"),
            GatewayError::UpstreamTimeout(_) => (StatusCode::GATEWAY_TIMEOUT, "upstream-timeout"),
            GatewayError::BadUpstreamReply(_) => (StatusCode::BAD_GATEWAY, "bad-upstream-reply"),
        }
    }

    /// The error as the gateway's JSON response.
    fn response(&self) -> Response<Full<Bytes>> {
        let (status, kind) = self.status_and_kind();
        let mut error = serde_json::Map::new();
        error.insert("status".into(), status.as_u16().into());
        error.insert("kind".into(), kind.into());
        error.insert("message".into(), self.to_string().into());
        if let GatewayError::BadArgument { index, .. } = self {
            error.insert("argument".into(), (*index).into());
        }
        let mut r = json_response(status, &serde_json::json!({ "error": error }));
        if let GatewayError::MethodNotAllowed { allow, .. } = self {
            r.headers_mut().insert(header::ALLOW, HeaderValue::from_static(allow));
        }
        r
    }
}

/// The gateway's state, shared by every request.
struct Gateway {
    proxy: Proxy,
    upstream: String,
    format: Format,
    timeout: Duration,
    api: Option<plain::Api>,
}

/// A JSON response (`application/json`, compact).
fn json_response(status: StatusCode, json: &Json) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(json.to_string())));
    *r.status_mut() = status;
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    r
}

/// Runs `hessian gateway` until Ctrl-C (or SIGTERM).
pub fn gateway(format: Format, a: GatewayArgs) -> Result<(), CliError> {
    let api = match &a.service {
        Some(service) => Some(plain::Api::load(&a.api, service)?),
        None => None,
    };
    let timeout = Duration::from_secs(a.timeout);
    // no idle connections are kept: every call goes on a fresh connection, so that no call is
    // ever sent again after a kept connection turns out closed (the client resends a call only
    // on a reused connection)
    let client = Client::builder()
        .dialect(dialect(format, a.hybrid))
        .timeout(timeout)
        .type_maps(!a.no_type_maps)
        .pool_max_idle_per_host(0)
        .build();
    let proxy = client.proxy(&a.upstream)?;
    let state = Arc::new(Gateway { proxy, upstream: a.upstream.clone(), format, timeout, api });
    let server = HessianServer::builder().max_request_size(a.max_body).json_refusals(true).build();
    let io = |source| CliError::Io { path: a.listen.clone(), source };
    runtime()?.block_on(async {
        let listener = tokio::net::TcpListener::bind(&a.listen).await.map_err(io)?;
        let addr = listener.local_addr().map_err(io)?;
        let mode = match &state.api {
            Some(api) => format!("plain JSON for {}", api.service()),
            None => "typed JSON".to_owned(),
        };
        println!("hessian gateway: listening on http://{addr} (upstream {}, {}, {mode})", a.upstream, format);
        let _ = std::io::stdout().flush();
        server
            .serve_listener_with(listener, shutdown_signal(), move |_server, req| {
                let state = state.clone();
                async move { handle(&state, req).await }
            })
            .await;
        Ok::<_, CliError>(())
    })?;
    let _ = writeln!(std::io::stdout(), "hessian gateway: stopped");
    Ok(())
}

/// Answers one request: the reply as typed JSON, a fault, or an error.
async fn handle(state: &Gateway, req: Request<Full<Bytes>>) -> Response<Full<Bytes>> {
    match answer(state, req).await {
        Ok(r) => r,
        Err(e) => e.response(),
    }
}

async fn answer(state: &Gateway, req: Request<Full<Bytes>>) -> Result<Response<Full<Bytes>>, GatewayError> {
    let path = req.uri().path().to_owned();
    let not_allowed =
        |allow| GatewayError::MethodNotAllowed { method: req.method().to_string(), path: path.clone(), allow };
    if path == "/" {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return Err(not_allowed("GET"));
        }
        return Ok(json_response(StatusCode::OK, &state.description()));
    }
    let name = path.strip_prefix('/').unwrap_or_default();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
        return Err(GatewayError::UnknownMethod(format!("{path:?} is not /METHOD (a Java method name)")));
    }
    if req.method() != Method::POST {
        return Err(not_allowed("POST"));
    }
    let body = req.into_body();
    let body = http_body_util::BodyExt::collect(body).await.map(|c| c.to_bytes()).unwrap_or_default();
    let args = arguments(&body)?;
    let (wire_name, values) = match &state.api {
        Some(api) => {
            let r = api.resolve(name, &args)?;
            (r.wire_name, r.args)
        }
        None => {
            let mut values = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                let v = hessian::json::from_json(a).map_err(|e| GatewayError::BadArgument {
                    index: i + 1,
                    message: format!("not valid typed JSON: {e}"),
                })?;
                values.push(v);
            }
            (name.to_owned(), values)
        }
    };
    match state.proxy.call(&wire_name, values).await {
        Ok(v) => Ok(json_response(StatusCode::OK, &hessian::json::to_json(&v))),
        Err(e) => match e.fault() {
            Some(f) => {
                let status = if f.code() == "NoSuchMethodException" {
                    StatusCode::NOT_FOUND
                } else {
                    StatusCode::INTERNAL_SERVER_ERROR
                };
                Ok(json_response(status, &fault_json(f, false)))
            }
            None => Err(upstream_error(e, state.timeout)),
        },
    }
}

/// The request body as the arguments: a JSON array (an empty body is no arguments).
fn arguments(body: &[u8]) -> Result<Vec<Json>, GatewayError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    match parse_json(body, "body") {
        Ok(Json::Array(items)) => Ok(items),
        Ok(other) => Err(GatewayError::NotArray(hessian::json::json_type_name(&other))),
        Err(CliError::JsonSyntax { source, .. }) => Err(GatewayError::NotJson(source.to_string())),
        Err(e) => Err(GatewayError::NotJson(e.to_string())),
    }
}

/// A failed call that is no fault, as the gateway's error.
fn upstream_error(e: hessian_rpc::Error, timeout: Duration) -> GatewayError {
    use hessian_rpc::Error as E;
    match e {
        E::Timeout(_) => GatewayError::UpstreamTimeout(timeout),
        E::NotHessian { .. } | E::Reply(_) | E::Codec(_) => GatewayError::BadUpstreamReply(e.to_string()),
        other => GatewayError::Upstream(other.to_string()),
    }
}

impl Gateway {
    /// `GET /`: the upstream, the dialect, how arguments are read, and with `--api` the methods.
    fn description(&self) -> Json {
        let mut d = serde_json::Map::new();
        d.insert("upstream".into(), self.upstream.clone().into());
        d.insert("format".into(), self.format.to_string().into());
        match &self.api {
            Some(api) => {
                d.insert("arguments".into(), "plain-json".into());
                d.insert("service".into(), api.service().into());
                d.insert("methods".into(), api.listing().into());
            }
            None => {
                d.insert("arguments".into(), "typed-json".into());
            }
        }
        Json::Object(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_that_are_not_arrays_are_refused_by_kind() {
        assert!(arguments(b"").unwrap().is_empty());
        assert_eq!(arguments(b" [1, \"a\"] ").unwrap().len(), 2);
        assert!(matches!(arguments(b"{\"a\": 1}"), Err(GatewayError::NotArray("an object"))));
        assert!(matches!(arguments(b"[1,"), Err(GatewayError::NotJson(_))));
        assert!(matches!(arguments(b"\xff"), Err(GatewayError::NotJson(_))));
        let deep = "[".repeat(5000) + &"]".repeat(5000);
        assert!(matches!(arguments(deep.as_bytes()), Err(GatewayError::NotJson(_))));
    }

    #[test]
    fn every_error_is_json_with_its_status() {
        let e = GatewayError::BadArgument { index: 2, message: "no".into() };
        let r = e.response();
        assert_eq!(r.status(), StatusCode::BAD_REQUEST);
        assert_eq!(r.headers()[header::CONTENT_TYPE], "application/json");
        let e = GatewayError::MethodNotAllowed { method: "GET".into(), path: "/x".into(), allow: "POST" };
        assert_eq!(e.response().headers()[header::ALLOW], "POST");
        assert_eq!(
            GatewayError::UpstreamTimeout(Duration::from_secs(1)).status_and_kind().0,
            StatusCode::GATEWAY_TIMEOUT
        );
    }
}
