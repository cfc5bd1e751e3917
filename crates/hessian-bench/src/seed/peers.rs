//! The other Rust protocols of experiment 2 on the same hyper/tokio HTTP stack as `hessian-rpc`:
//! JSON (serde_json), MessagePack (rmp-serde, named fields, self-describing as JSON and Hessian
//! are) and bincode 1.x (the native binary form, Rust's counterpart of Java serialization). The
//! service is the W1/W2 one: `POST /getItems` with the encoded `n`, `POST /exchange` with the
//! encoded W2 order; a wrong request is answered 500 with the reason.

use bytes::Bytes;
use hessian_testkit::structs::{self, w2};
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde::{de::DeserializeOwned, Serialize};
use std::convert::Infallible;
use tokio::net::{TcpListener, TcpStream};

/// A serde format carried over HTTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// `application/json`, serde_json.
    Json,
    /// MessagePack with field names (`rmp_serde::to_vec_named`).
    MsgPack,
    /// bincode 1.x, default options.
    Bincode,
}

impl Codec {
    /// Parses the protocol id of the command line.
    pub fn from_id(id: &str) -> Option<Codec> {
        match id {
            "json" => Some(Codec::Json),
            "msgpack" => Some(Codec::MsgPack),
            "bincode" => Some(Codec::Bincode),
            _ => None,
        }
    }

    /// Encodes a value.
    pub fn encode<T: Serialize + ?Sized>(self, v: &T) -> Result<Vec<u8>, String> {
        match self {
            Codec::Json => serde_json::to_vec(v).map_err(|e| e.to_string()),
            Codec::MsgPack => rmp_serde::to_vec_named(v).map_err(|e| e.to_string()),
            Codec::Bincode => bincode::serialize(v).map_err(|e| e.to_string()),
        }
    }

    /// Decodes a value.
    pub fn decode<T: DeserializeOwned>(self, b: &[u8]) -> Result<T, String> {
        match self {
            Codec::Json => serde_json::from_slice(b).map_err(|e| e.to_string()),
            Codec::MsgPack => rmp_serde::from_slice(b).map_err(|e| e.to_string()),
            Codec::Bincode => bincode::deserialize(b).map_err(|e| e.to_string()),
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Codec::Json => "application/json",
            Codec::MsgPack => "application/msgpack",
            Codec::Bincode => "application/octet-stream",
        }
    }
}

fn answer(
    codec: Codec,
    path: &str,
    body: &[u8],
    request: &w2::Order,
    reply: &w2::Order,
    broken: bool,
) -> Result<Vec<u8>, String> {
    match path {
        "/getItems" => {
            let n: i32 = codec.decode(body)?;
            let n = usize::try_from(n).ok().filter(|n| *n <= 1_000_000).ok_or(format!("getItems: bad n {n}"))?;
            codec.encode(&structs::items(if broken { n + 1 } else { n }))
        }
        "/exchange" => {
            let order: w2::Order = codec.decode(body)?;
            if &order != request {
                return Err(format!("exchange: not the W2 request (order {})", order.id));
            }
            codec.encode(reply)
        }
        _ => Err(format!("no method at {path}")),
    }
}

/// Serves the W1/W2 service in `codec` on `listener` until the process ends. A `broken` server
/// answers `getItems(n)` with `n + 1` items (the suite's test of a peer that answers wrongly).
pub async fn serve(codec: Codec, listener: TcpListener, broken: bool) {
    let (request, reply) = (w2::request(), w2::reply());
    let handler: Handler =
        std::sync::Arc::new(move |path: &str, body: &[u8]| answer(codec, path, body, &request, &reply, broken));
    serve_with(listener, codec.content_type(), handler).await
}

/// A request handler of [`serve_with`]: (path, body) -> reply body, or the reason for a 500.
pub type Handler = std::sync::Arc<dyn Fn(&str, &[u8]) -> Result<Vec<u8>, String> + Send + Sync>;

/// Serves `handler` over HTTP/1.1 on `listener` (replies with `content_type`) until the process
/// ends.
pub async fn serve_with(listener: TcpListener, content_type: &'static str, handler: Handler) {
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let _ = stream.set_nodelay(true);
        let handler = handler.clone();
        tokio::spawn(async move {
            let svc = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                let handler = handler.clone();
                async move {
                    let path = req.uri().path().to_owned();
                    let body = match req.into_body().collect().await {
                        Ok(b) => b.to_bytes(),
                        Err(e) => return Ok::<_, Infallible>(error_response(e.to_string())),
                    };
                    Ok(match handler(&path, &body) {
                        Ok(bytes) => Response::builder()
                            .header("content-type", content_type)
                            .body(Full::new(Bytes::from(bytes)))
                            .unwrap_or_else(|e| error_response(e.to_string())),
                        Err(why) => error_response(why),
                    })
                }
            });
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), svc).await;
        });
    }
}

fn error_response(why: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(why)));
    *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    r
}

/// A keep-alive HTTP/1.1 client on one connection (reconnects when the server closes it).
pub struct HttpClient {
    addr: String,
    codec: Codec,
    content_type: &'static str,
    sender: Option<hyper::client::conn::http1::SendRequest<Full<Bytes>>>,
}

impl HttpClient {
    /// A client of the server at `addr` (`127.0.0.1:PORT`).
    pub fn new(addr: &str, codec: Codec) -> HttpClient {
        HttpClient { addr: addr.to_owned(), codec, content_type: codec.content_type(), sender: None }
    }

    /// A client that POSTs bodies with `content_type` (for [`HttpClient::post`] alone).
    pub fn raw(addr: &str, content_type: &'static str) -> HttpClient {
        HttpClient { addr: addr.to_owned(), codec: Codec::Json, content_type, sender: None }
    }

    async fn connect(&mut self) -> Result<&mut hyper::client::conn::http1::SendRequest<Full<Bytes>>, String> {
        if self.sender.as_ref().is_none_or(|s| s.is_closed()) {
            let stream = TcpStream::connect(&self.addr).await.map_err(|e| format!("connect {}: {e}", self.addr))?;
            let _ = stream.set_nodelay(true);
            let (sender, conn) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| e.to_string())?;
            tokio::spawn(conn);
            self.sender = Some(sender);
        }
        self.sender.as_mut().ok_or_else(|| "no connection".to_owned())
    }

    /// POSTs `body` to `path`; returns the reply body, or the error (status and text).
    pub async fn post(&mut self, path: &str, body: Vec<u8>) -> Result<Bytes, String> {
        let (addr, ct) = (self.addr.clone(), self.content_type);
        let sender = self.connect().await?;
        sender.ready().await.map_err(|e| e.to_string())?;
        let req = Request::post(path)
            .header("host", addr)
            .header("content-type", ct)
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| e.to_string())?;
        let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
        let status = resp.status();
        let body = resp.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        if status != StatusCode::OK {
            return Err(format!("HTTP {status}: {}", String::from_utf8_lossy(&body)));
        }
        Ok(body)
    }

    /// One typed call: encodes `arg`, POSTs it, decodes the reply; returns it with the request
    /// and reply body sizes.
    pub async fn call<A: Serialize, R: DeserializeOwned>(
        &mut self,
        path: &str,
        arg: &A,
    ) -> Result<(R, usize, usize), String> {
        let body = self.codec.encode(arg)?;
        let req_len = body.len();
        let reply = self.post(path, body).await?;
        Ok((self.codec.decode(&reply)?, req_len, reply.len()))
    }
}
