//! The client's transport: a minimal pooled HTTP/1.1 client that runs entirely in the caller's
//! task. Every call takes an idle keep-alive connection of its host (or connects), writes the
//! request in one write, reads the response with `httparse`, and gives the connection back only
//! when the response was read completely and the server did not ask to close it. No background
//! task, no channel: a call costs the two system calls of the exchange and the wake-up of the
//! caller's own task.
//!
//! Responses are framed as RFC 9112 §6.3 says for a client: `Content-Length`, `Transfer-Encoding:
//! chunked` (extensions and trailers are read and ignored), or read until close; interim `1xx`
//! responses are skipped. Every limit (head size, header count, chunk line length, trailer size,
//! reply size) gives an error rather than a panic or an unbounded allocation.
//!
//! `https://` targets go through rustls ([`Settings::tls`]): the handshake is part of connecting
//! (bounded by the connect timeout), and pooled TLS connections are kept per host like plain ones.

use crate::error::{error_chain, Error, Result};
use crate::http1::{self, head_end, ChunkError, MAX_CHUNK_LINE, MAX_TRAILERS};
use bytes::{Buf, Bytes, BytesMut};
use std::collections::HashMap;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::ReadBuf;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest response head (status line and headers) accepted.
pub(crate) const MAX_HEAD: usize = 64 * 1024;
/// Most header fields in a response head or a trailer section.
const MAX_HEADERS: usize = 100;
/// Most interim (1xx) responses skipped before the final one.
const MAX_INTERIM: usize = 16;
/// Read buffer allocated per read when more room is needed.
const READ_CHUNK: usize = 16 * 1024;
/// Most body bytes reserved ahead of their arrival (a `Content-Length` is a claim, not data).
const MAX_RESERVE: usize = 4 * 1024 * 1024;
/// Largest reply whose read buffer an idle connection keeps for the next call.
const KEEP_BUFFER: usize = 64 * 1024;

/// Pool and limit settings of a [`Transport`].
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub connect_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_idle_per_host: usize,
    pub max_reply_size: usize,
    /// The TLS settings of `https://` targets (or why there are none).
    pub tls: std::result::Result<Arc<rustls::ClientConfig>, String>,
}

/// A complete response.
#[derive(Debug)]
pub(crate) struct Response {
    pub status: u16,
    pub body: Bytes,
    /// The reply's `Hessian-*` headers (the type negotiation's), one `name:value` line each,
    /// names in lower case and values trimmed (one string, allocated only when there are any).
    pub hessian_headers: String,
    /// The `Content-Type` header, when the status is not 200 or the type is not Hessian's
    /// `x-application/hessian` (kept for diagnostics only, so that a normal reply allocates
    /// nothing for it).
    pub content_type: Option<String>,
}

impl Response {
    /// The values of the `Hessian-*` header `name` (lower case), in order.
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let mut rest = self.hessian_headers.as_str();
        std::iter::from_fn(move || {
            while !rest.is_empty() {
                let (line, tail) = match rest.as_bytes().iter().position(|&b| b == b'\n') {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (rest, ""),
                };
                rest = tail;
                if let Some(v) = line.strip_prefix(name).and_then(|v| v.strip_prefix(':')) {
                    return Some(v);
                }
            }
            None
        })
    }
}

/// Where a request goes: derived from an `http://` URI.
#[derive(Debug)]
pub(crate) struct Target<'a> {
    /// `host:port` to connect to (IPv6 literals without brackets are fine for `connect`).
    pub host: &'a str,
    pub port: u16,
    /// The `Host` header value (`host[:port]`, as in the URI).
    pub authority: &'a str,
    /// The request target (`/path?query`).
    pub path: &'a str,
    /// Whether the scheme is `https`.
    pub tls: bool,
}

impl<'a> Target<'a> {
    /// The target of an `http://host[:port]/path` URI.
    #[cfg(test)]
    pub fn of(uri: &'a http::Uri) -> Result<Target<'a>> {
        Self::with_port(uri, port_of(uri))
    }

    /// [`of`](Self::of) with the port already worked out ([`port_of`]: a proxy does it once).
    pub fn with_port(uri: &'a http::Uri, port: u16) -> Result<Target<'a>> {
        let (Some(host), Some(authority)) = (uri.host(), uri.authority()) else {
            return Err(Error::InvalidUrl { url: uri.to_string(), reason: "no host".into() });
        };
        let authority = authority.as_str();
        // no userinfo in the Host header
        let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
        let host = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
        let path = uri.path_and_query().map_or("/", |p| p.as_str());
        let path = if path.is_empty() { "/" } else { path };
        let tls = uri.scheme_str() == Some("https");
        Ok(Target { host, port, authority, path, tls })
    }
}

/// The port a request to `uri` goes to: the URI's, else the scheme's default.
pub(crate) fn port_of(uri: &http::Uri) -> u16 {
    uri.port_u16().unwrap_or(if uri.scheme_str() == Some("https") { 443 } else { 80 })
}

#[derive(Hash, PartialEq, Eq, Debug)]
struct Key {
    /// Connections are registered with the reactor of the runtime that opened them, so they are
    /// only reused on that runtime.
    runtime: tokio::runtime::Id,
    host: String,
    port: u16,
    tls: bool,
}

/// One keep-alive connection and its read buffer.
struct Conn<S> {
    stream: S,
    buf: BytesMut,
}

struct Idle {
    conn: Conn<Stream>,
    since: Instant,
}

/// A connection's byte stream: plain TCP or TLS over TCP.
enum Stream {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

impl Stream {
    /// Whether an idle connection can still carry a call: nothing to read on a plain one
    /// (end of stream means the server closed it, and bytes nobody asked for mean it is out of
    /// step); on a TLS one, not closed (the server may send records of its own while it is
    /// idle, a TLS 1.3 session ticket say, which the TLS layer reads with the next reply).
    fn idle_ok(&self) -> bool {
        match self {
            // tokio's `try_read` makes no system call unless the reactor has seen the socket
            // become readable since the last (short) read, so it is free on a healthy connection
            Stream::Plain(s) => matches!(s.try_read(&mut [0u8; 1]), Err(e) if e.kind() == io::ErrorKind::WouldBlock),
            Stream::Tls(t) => {
                let mut byte = [0u8; 1];
                let mut buf = ReadBuf::new(&mut byte);
                let mut cx = Context::from_waker(futures_util::task::noop_waker_ref());
                match t.get_ref().0.poll_peek(&mut cx, &mut buf) {
                    Poll::Pending => true,
                    Poll::Ready(Ok(n)) => n > 0,
                    Poll::Ready(Err(_)) => false,
                }
            }
        }
    }
}

impl AsyncRead for Stream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Stream::Plain(s) => s.is_write_vectored(),
            Stream::Tls(s) => s.is_write_vectored(),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// The connection pool: idle connections per (runtime, host, port), most recently used last.
pub(crate) struct Transport {
    settings: Settings,
    idle: Mutex<Pool>,
}

#[derive(Default)]
struct Pool {
    /// Keyed by the hosts this client's own calls name, so the cheap hash of the type-map
    /// tables serves: SipHash cost more per call than the rest of the pool's work.
    hosts: HashMap<Key, Vec<Idle>, crate::negotiation::KeyedHash>,
    last_sweep: Option<Instant>,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let idle: usize = self.idle.lock().map(|p| p.hosts.values().map(Vec::len).sum()).unwrap_or(0);
        f.debug_struct("Transport").field("settings", &self.settings).field("idle_connections", &idle).finish()
    }
}

/// How an exchange failed.
enum Failure {
    /// Nothing of the response arrived on a reused connection: the write failed, or the read met
    /// end-of-stream or a reset before the first byte. The server closed the idle connection
    /// (it cannot have answered), so the request may be sent again on a fresh connection.
    Stale(io::Error),
    /// Anything else: the call fails with this error.
    Fatal(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Fatal(e)
    }
}

fn transport(msg: impl Into<String>) -> Error {
    Error::Transport(msg.into())
}

impl Transport {
    pub fn new(settings: Settings) -> Transport {
        Transport { settings, idle: Mutex::new(Pool::default()) }
    }

    /// POSTs `body` to `target` and returns the complete response (any status).
    pub async fn post(
        &self,
        target: &Target<'_>,
        content_type: &str,
        extra_headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Response> {
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| transport("the client must be used inside a Tokio runtime"))?
            .id();
        let key = Key { runtime, host: target.host.to_owned(), port: target.port, tls: target.tls };
        let head = request_head(target, content_type, extra_headers, body.len());
        let max = self.settings.max_reply_size;
        if let Some(mut conn) = self.take(&key) {
            match exchange(&mut conn, true, &head, body, max).await {
                Ok((resp, reusable)) => return Ok(self.finish(key, conn, resp, reusable)),
                Err(Failure::Fatal(e)) => return Err(e),
                Err(Failure::Stale(_)) => {} // the server closed it while idle: once more, afresh
            }
        }
        let mut conn = self.connect(target).await?;
        match exchange(&mut conn, false, &head, body, max).await {
            Ok((resp, reusable)) => Ok(self.finish(key, conn, resp, reusable)),
            Err(Failure::Fatal(e)) => Err(e),
            Err(Failure::Stale(e)) => Err(transport(format!("sending the call: {}", error_chain(&e)))),
        }
    }

    fn finish(&self, key: Key, mut conn: Conn<Stream>, resp: Response, reusable: bool) -> Response {
        if reusable {
            // a large body's buffer is not kept alive by an idle connection
            if resp.body.len() > KEEP_BUFFER {
                conn.buf = BytesMut::new();
            }
            self.put(key, conn);
        }
        resp
    }

    /// A new connection to `target`, with its TLS handshake for `https`, within the connect
    /// timeout.
    async fn connect(&self, target: &Target<'_>) -> Result<Conn<Stream>> {
        let t = self.settings.connect_timeout;
        match tokio::time::timeout(t, self.open(target)).await {
            Err(_) => Err(transport(format!("connecting to {}: timed out after {t:?}", target.authority))),
            Ok(r) => r.map(|stream| Conn { stream, buf: BytesMut::new() }),
        }
    }

    async fn open(&self, target: &Target<'_>) -> Result<Stream> {
        let addr = (target.host, target.port);
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| transport(format!("connecting to {}: {}", target.authority, error_chain(&e))))?;
        stream.set_nodelay(true).map_err(|e| transport(format!("setting TCP_NODELAY: {e}")))?;
        if !target.tls {
            return Ok(Stream::Plain(stream));
        }
        let name = rustls::pki_types::ServerName::try_from(target.host.to_owned())
            .map_err(|e| transport(format!("{} is not a TLS server name: {e}", target.host)))?;
        let config = self.settings.tls.as_ref().map_err(|e| Error::Tls(e.clone()))?;
        let tls = tokio_rustls::TlsConnector::from(config.clone())
            .connect(name, stream)
            .await
            .map_err(|e| transport(format!("TLS handshake with {}: {}", target.authority, error_chain(&e))))?;
        Ok(Stream::Tls(Box::new(tls)))
    }

    /// The most recently used idle connection of `key` that has not outlived the idle timeout
    /// and is still usable ([`Stream::idle_ok`]); a close the reactor has not seen yet (a
    /// runtime not polled while idle, as `BlockingClient`'s) is caught by the stale-connection
    /// retry.
    fn take(&self, key: &Key) -> Option<Conn<Stream>> {
        loop {
            let c = {
                let mut pool = self.idle.lock().ok()?;
                let idle = pool.hosts.get_mut(key)?;
                let c = idle.pop()?;
                if c.since.elapsed() >= self.settings.idle_timeout {
                    idle.clear(); // the rest are older still
                    return None;
                }
                c
            };
            if c.conn.stream.idle_ok() {
                return Some(c.conn);
            } // closed, failed or out of step: dropped
        }
    }

    fn put(&self, key: Key, conn: Conn<Stream>) {
        let s = &self.settings;
        if s.max_idle_per_host == 0 || s.idle_timeout.is_zero() {
            return;
        }
        let Ok(mut pool) = self.idle.lock() else { return };
        let now = Instant::now();
        // now and then, close the connections every host has kept longer than the idle timeout
        if !pool.last_sweep.is_some_and(|t| now.duration_since(t) < s.idle_timeout / 2) {
            pool.last_sweep = Some(now);
            pool.hosts.retain(|_, v| {
                v.retain(|c| now.duration_since(c.since) < s.idle_timeout);
                !v.is_empty()
            });
        }
        let idle = pool.hosts.entry(key).or_default();
        if idle.len() < s.max_idle_per_host {
            idle.push(Idle { conn, since: now });
        }
    }
}

fn request_head(target: &Target<'_>, content_type: &str, extra: &[(&str, &str)], len: usize) -> Vec<u8> {
    let extra_len: usize = extra.iter().map(|(n, v)| n.len() + v.len() + 4).sum();
    let mut h = Vec::with_capacity(96 + target.path.len() + target.authority.len() + content_type.len() + extra_len);
    for part in
        ["POST ", target.path, " HTTP/1.1\r\nHost: ", target.authority, "\r\nContent-Type: ", content_type].iter()
    {
        h.extend_from_slice(part.as_bytes());
    }
    for (name, value) in extra {
        for part in ["\r\n", name, ": ", value] {
            h.extend_from_slice(part.as_bytes());
        }
    }
    h.extend_from_slice(b"\r\nContent-Length: ");
    push_decimal(&mut h, len);
    h.extend_from_slice(b"\r\n\r\n");
    h
}

/// Appends `n` in decimal (what `to_string` writes, without its allocation and formatter).
fn push_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Writes `a` then `b` with as few writes as the socket takes (one `writev` normally).
async fn write_both<S: AsyncWrite + Unpin>(s: &mut S, mut a: &[u8], mut b: &[u8]) -> io::Result<()> {
    while !a.is_empty() || !b.is_empty() {
        let n = if a.is_empty() {
            s.write(b).await?
        } else if b.is_empty() {
            s.write(a).await?
        } else {
            s.write_vectored(&[IoSlice::new(a), IoSlice::new(b)]).await?
        };
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        let k = n.min(a.len());
        a = &a[k..];
        b = &b[n - k..];
    }
    s.flush().await
}

/// Sends one request and reads its response; `Ok((response, reusable))`.
async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(
    conn: &mut Conn<S>,
    reused: bool,
    head: &[u8],
    body: &[u8],
    max_reply: usize,
) -> std::result::Result<(Response, bool), Failure> {
    debug_assert!(conn.buf.is_empty(), "a pooled connection has no unread bytes");
    conn.buf.clear();
    if let Err(e) = write_both(&mut conn.stream, head, body).await {
        if reused {
            return Err(Failure::Stale(e));
        }
        // the server may have answered before it stopped reading (say, 413 for a body too large)
        return match read_response(conn, false, max_reply).await {
            Ok((resp, _)) => Ok((resp, false)),
            Err(_) => Err(Failure::Fatal(io_error("sending the call", &e))),
        };
    }
    read_response(conn, reused, max_reply).await
}

fn io_error(what: &str, e: &io::Error) -> Error {
    transport(format!("{what}: {}", error_chain(e)))
}

/// A reply that ended early: the server (or something between) closed the connection, or it
/// failed (`e`), after `received` bytes of the body. What went wrong is in the server's log.
fn cut_short(received: usize, e: Option<&io::Error>) -> Error {
    let how = match e {
        None => "the server closed the connection".to_owned(),
        Some(e) => format!("the connection failed ({})", error_chain(e)),
    };
    transport(format!("{how} in the middle of the reply after {received} bytes; see the server's log"))
}

impl<S: AsyncRead + Unpin> Conn<S> {
    /// Reads more bytes into the buffer; `Ok(0)` at end of stream.
    async fn fill(&mut self) -> io::Result<usize> {
        if self.buf.capacity() - self.buf.len() < READ_CHUNK / 4 {
            self.buf.reserve(READ_CHUNK);
        }
        self.stream.read_buf(&mut self.buf).await
    }

    /// Reads until at least `n` bytes are buffered, `received` bytes of the reply's body into it.
    async fn fill_to(&mut self, n: usize, received: usize) -> Result<()> {
        while self.buf.len() < n {
            match self.fill().await {
                Ok(0) => return Err(cut_short(received, None)),
                Ok(_) => {}
                Err(e) => return Err(cut_short(received, Some(&e))),
            }
        }
        Ok(())
    }
}

/// How the body of a response is delimited.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Framing {
    Empty,
    Length(u64),
    Chunked,
    UntilClose,
}

/// What the head of a response says.
#[derive(Debug)]
struct Head {
    status: u16,
    hessian_headers: String,
    content_type: Option<String>,
    framing: Framing,
    keep_alive: bool,
    len: usize,
}

/// Parses a complete response head at the start of `buf`: `Ok(None)` if it is not complete yet.
fn parse_head(buf: &[u8]) -> Result<Option<Head>> {
    let mut headers = [const { std::mem::MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut resp = httparse::Response::new(&mut []);
    let len = match httparse::ParserConfig::default().parse_response_with_uninit_headers(&mut resp, buf, &mut headers) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(transport(format!("malformed HTTP response head: {e}"))),
    };
    let status = resp.code.unwrap_or(0);
    let http10 = resp.version == Some(0);
    let (mut close, mut keep_alive_token) = (false, false);
    let mut length: Option<u64> = None;
    let mut codings: Vec<String> = Vec::new();
    let mut content_type = None;
    // "name:value\n" lines, made as bytes: the names are ASCII tokens (httparse checks them) and
    // the values are checked text
    let mut hessian_headers: Vec<u8> = Vec::new();
    for h in resp.headers.iter() {
        if h.name.len() > 8 && h.name.as_bytes()[..8].eq_ignore_ascii_case(b"hessian-") {
            let value = std::str::from_utf8(h.value).map_err(|_| transport("a reply header is not valid text"))?;
            let value = value.trim();
            hessian_headers.reserve(h.name.len() + value.len() + 2);
            let at = hessian_headers.len();
            hessian_headers.extend_from_slice(h.name.as_bytes());
            hessian_headers[at..].make_ascii_lowercase();
            hessian_headers.push(b':');
            // a value never holds a line break (httparse refuses them), so lines stay lines
            hessian_headers.extend_from_slice(value.as_bytes());
            hessian_headers.push(b'\n');
        } else if h.name.eq_ignore_ascii_case("connection") {
            for token in http1::list(h.value) {
                close |= token.eq_ignore_ascii_case(b"close");
                keep_alive_token |= token.eq_ignore_ascii_case(b"keep-alive");
            }
        } else if h.name.eq_ignore_ascii_case("content-length") {
            for v in http1::list(h.value) {
                let n = reply_length(v)?;
                if length.is_some_and(|l| l != n) {
                    return Err(transport("conflicting Content-Length headers in the reply"));
                }
                length = Some(n);
            }
        } else if h.name.eq_ignore_ascii_case("content-type") {
            if status != 200 || !h.value.eq_ignore_ascii_case(b"x-application/hessian") {
                content_type = Some(String::from_utf8_lossy(h.value).trim().to_owned());
            }
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            for c in http1::list(h.value) {
                let c = std::str::from_utf8(c).map_err(|_| transport("a reply header is not valid text"))?;
                codings.push(c.to_ascii_lowercase());
            }
        }
    }
    let mut keep_alive = if http10 { keep_alive_token && !close } else { !close };
    codings.retain(|c| c != "identity");
    let framing = if (100..200).contains(&status) || status == 204 || status == 304 {
        Framing::Empty
    } else if !codings.is_empty() {
        if http10 {
            return Err(transport("Transfer-Encoding in an HTTP/1.0 reply"));
        }
        if codings.len() != 1 || codings[0] != "chunked" {
            return Err(transport(format!("unsupported Transfer-Encoding in the reply: {}", codings.join(", "))));
        }
        // both headers: Transfer-Encoding wins, and the connection is not trusted further
        if length.is_some() {
            keep_alive = false;
        }
        Framing::Chunked
    } else if let Some(n) = length {
        Framing::Length(n)
    } else {
        keep_alive = false;
        Framing::UntilClose
    };
    let hessian_headers =
        String::from_utf8(hessian_headers).map_err(|_| transport("a reply header is not valid text"))?;
    Ok(Some(Head { status, hessian_headers, content_type, framing, keep_alive, len }))
}

/// A `Content-Length` element of a reply, with the client's errors.
fn reply_length(v: &[u8]) -> Result<u64> {
    let s = std::str::from_utf8(v).map_err(|_| transport("a reply header is not valid text"))?;
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(transport(format!("invalid Content-Length in the reply: {s:?}")));
    }
    s.parse().map_err(|_| transport(format!("Content-Length out of range: {s}")))
}

fn too_large(max: usize) -> Error {
    transport(format!("the reply is larger than the limit of {max} bytes (max_reply_size)"))
}

async fn read_response<S: AsyncRead + Unpin>(
    conn: &mut Conn<S>,
    reused: bool,
    max_reply: usize,
) -> std::result::Result<(Response, bool), Failure> {
    let mut received_any = false;
    let mut interim = 0;
    let head = loop {
        // parse only once a blank line has arrived: a trickled head costs linear time
        // (the first bytes are parsed at once: a head usually arrives whole in one read)
        let mut scanned = 0;
        let head = loop {
            if (scanned == 0 && !conn.buf.is_empty()) || head_end(&conn.buf, scanned).is_some() {
                if let Some(h) = parse_head(&conn.buf)? {
                    break h;
                }
            }
            if conn.buf.len() > MAX_HEAD {
                return Err(transport(format!("the reply's HTTP head is larger than {MAX_HEAD} bytes")).into());
            }
            scanned = conn.buf.len();
            match conn.fill().await {
                Ok(0) if !received_any && reused => {
                    return Err(Failure::Stale(io::ErrorKind::UnexpectedEof.into()));
                }
                Ok(0) if !received_any => {
                    return Err(transport("the server closed the connection without replying").into());
                }
                Ok(0) => {
                    let m =
                        "the server closed the connection in the middle of the reply's HTTP head; see the server's log";
                    return Err(transport(m).into());
                }
                Ok(_) => received_any = true,
                Err(e) if !received_any && reused && is_reset(&e) => return Err(Failure::Stale(e)),
                Err(e) => return Err(io_error("reading the reply", &e).into()),
            }
        };
        conn.buf.advance(head.len);
        if (100..200).contains(&head.status) {
            if head.status == 101 {
                return Err(transport("the server switched protocols (HTTP 101)").into());
            }
            interim += 1;
            if interim > MAX_INTERIM {
                return Err(transport("too many interim (1xx) responses").into());
            }
            continue;
        }
        break head;
    };
    let (body, complete) = read_body(conn, head.framing, max_reply).await?;
    let reusable = head.keep_alive && complete && conn.buf.is_empty();
    Ok((
        Response { status: head.status, body, hessian_headers: head.hessian_headers, content_type: head.content_type },
        reusable,
    ))
}

fn is_reset(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted | io::ErrorKind::BrokenPipe)
}

/// Reads the body after the head; `(body, complete)`, where `complete` says the body was
/// delimited by its framing (not by the end of the stream).
async fn read_body<S: AsyncRead + Unpin>(conn: &mut Conn<S>, framing: Framing, max: usize) -> Result<(Bytes, bool)> {
    match framing {
        Framing::Empty => Ok((Bytes::new(), true)),
        Framing::Length(n) => {
            if n > max as u64 {
                return Err(too_large(max));
            }
            let n = n as usize;
            while conn.buf.len() < n {
                let want = (n - conn.buf.len()).min(MAX_RESERVE);
                if conn.buf.capacity() - conn.buf.len() < want {
                    conn.buf.reserve(want);
                }
                match conn.stream.read_buf(&mut conn.buf).await {
                    Ok(0) => {
                        return Err(transport(format!(
                            "the server closed the connection in the middle of the reply after {} of its {n} \
                             bytes; see the server's log",
                            conn.buf.len()
                        )))
                    }
                    Ok(_) => {}
                    Err(e) => return Err(cut_short(conn.buf.len(), Some(&e))),
                }
            }
            Ok((conn.buf.split_to(n).freeze(), true))
        }
        Framing::Chunked => read_chunked(conn, max).await.map(|b| (b, true)),
        Framing::UntilClose => loop {
            if conn.buf.len() > max {
                return Err(too_large(max));
            }
            match conn.fill().await {
                Ok(0) => return Ok((conn.buf.split().freeze(), false)),
                Ok(_) => {}
                Err(e) => return Err(io_error("reading the reply", &e)),
            }
        },
    }
}

/// Parses a chunk-size line at the start of `buf` ([`http1::chunk_line`]), with the client's
/// errors.
fn parse_chunk_line(buf: &[u8]) -> Result<Option<(u64, usize)>> {
    http1::chunk_line(buf).map_err(|e| match e {
        ChunkError::LineTooLong => {
            transport(format!("a chunk-size line of the reply is longer than {MAX_CHUNK_LINE} bytes"))
        }
        ChunkError::Overflow => transport("a chunk size of the reply overflows"),
        _ => transport("malformed chunk-size line in the reply"),
    })
}

/// Reads a chunked body (RFC 9112 §7.1), ignoring extensions and trailers.
async fn read_chunked<S: AsyncRead + Unpin>(conn: &mut Conn<S>, max: usize) -> Result<Bytes> {
    let mut out = BytesMut::new();
    loop {
        let (size, line) = loop {
            if let Some(x) = parse_chunk_line(&conn.buf)? {
                break x;
            }
            let need = conn.buf.len() + 1;
            conn.fill_to(need, out.len()).await?;
        };
        conn.buf.advance(line);
        if size == 0 {
            break;
        }
        if size > (max - out.len()) as u64 {
            return Err(too_large(max));
        }
        let mut left = size as usize;
        out.reserve(left.min(MAX_RESERVE));
        while left > 0 {
            if conn.buf.is_empty() {
                conn.fill_to(1, out.len()).await?;
            }
            let k = left.min(conn.buf.len());
            out.extend_from_slice(&conn.buf[..k]);
            conn.buf.advance(k);
            left -= k;
        }
        conn.fill_to(2, out.len()).await?;
        if &conn.buf[..2] != b"\r\n" {
            return Err(transport("a chunk of the reply is not followed by CRLF"));
        }
        conn.buf.advance(2);
    }
    // the trailer section: header fields up to a blank line
    let mut scanned = 0;
    loop {
        // parsed only once it can be complete: a blank line at the start or after a field
        let b = &conn.buf[..];
        if b.starts_with(b"\r\n") || b.starts_with(b"\n") || head_end(b, scanned).is_some() {
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            match httparse::parse_headers(b, &mut headers) {
                Ok(httparse::Status::Complete((n, _))) => {
                    conn.buf.advance(n);
                    break;
                }
                Ok(httparse::Status::Partial) => {}
                Err(e) => return Err(transport(format!("malformed trailer section in the reply: {e}"))),
            }
        }
        scanned = conn.buf.len();
        if conn.buf.len() > MAX_TRAILERS {
            return Err(transport(format!("the reply's trailer section is larger than {MAX_TRAILERS} bytes")));
        }
        let need = conn.buf.len() + 1;
        conn.fill_to(need, out.len()).await?;
    }
    Ok(out.freeze())
}

#[cfg(test)]
mod decimal_tests {
    #[test]
    fn decimals_are_what_to_string_writes() {
        for n in [0usize, 7, 10, 99, 100, 12_345, u32::MAX as usize, usize::MAX] {
            let mut v = b"x".to_vec();
            super::push_decimal(&mut v, n);
            assert_eq!(v, format!("x{n}").into_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// A scripted stream: reads give `data` `step` bytes at a time, then end of stream (or a
    /// reset); writes are swallowed (or fail).
    struct Script {
        data: Vec<u8>,
        at: usize,
        step: usize,
        reset_at_end: bool,
        fail_writes: bool,
    }

    fn script(data: &[u8], step: usize) -> Conn<Script> {
        let s = Script { data: data.to_vec(), at: 0, step, reset_at_end: false, fail_writes: false };
        Conn { stream: s, buf: BytesMut::new() }
    }

    impl AsyncRead for Script {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            let s = &mut *self;
            if s.at == s.data.len() && s.reset_at_end {
                return Poll::Ready(Err(io::ErrorKind::ConnectionReset.into()));
            }
            let n = s.step.min(s.data.len() - s.at).min(buf.remaining());
            buf.put_slice(&s.data[s.at..s.at + n]);
            s.at += n;
            Poll::Ready(Ok(()))
        }
    }

    impl AsyncWrite for Script {
        fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, b: &[u8]) -> Poll<io::Result<usize>> {
            if self.fail_writes {
                return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
            }
            Poll::Ready(Ok(b.len()))
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    const MAX: usize = 1 << 20;

    /// Reads one response from `raw` delivered `step` bytes at a time.
    async fn read(raw: &[u8], step: usize, max: usize) -> Result<(u16, Vec<u8>, bool)> {
        let mut c = script(raw, step);
        match read_response(&mut c, false, max).await {
            Ok((r, reusable)) => Ok((r.status, r.body.to_vec(), reusable)),
            Err(Failure::Fatal(e)) => Err(e),
            Err(Failure::Stale(e)) => panic!("stale on a fresh connection: {e}"),
        }
    }

    /// Every delivery granularity gives the same outcome.
    async fn read_all_steps(raw: &[u8], max: usize) -> Result<(u16, Vec<u8>, bool)> {
        let first = read(raw, usize::MAX, max).await;
        for step in [1, 2, 3, 7, 64] {
            let r = read(raw, step, max).await;
            assert_eq!(format!("{r:?}"), format!("{first:?}"), "step {step}");
        }
        first
    }

    async fn err(raw: &[u8]) -> String {
        match read_all_steps(raw, MAX).await {
            Err(Error::Transport(m)) => m,
            other => panic!("expected a transport error for {:?}, got {other:?}", String::from_utf8_lossy(raw)),
        }
    }

    #[tokio::test]
    async fn content_length_body() {
        let r = read_all_steps(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: x/y\r\n\r\nhello", MAX).await;
        assert_eq!(r.unwrap(), (200, b"hello".to_vec(), true));
        // bare LF line ends, duplicate equal lengths, case-insensitive names
        let r = read_all_steps(b"HTTP/1.1 200 OK\ncontent-length: 2, 2\nCONTENT-LENGTH: 2\n\nhi", MAX).await;
        assert_eq!(r.unwrap(), (200, b"hi".to_vec(), true));
        let r = read_all_steps(b"HTTP/1.1 500 Server Error\r\nContent-Length: 4\r\n\r\nboom", MAX).await;
        assert_eq!(r.unwrap(), (500, b"boom".to_vec(), true));
        let r = read_all_steps(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", MAX).await;
        assert_eq!(r.unwrap(), (200, vec![], true));
    }

    #[tokio::test]
    async fn chunked_body_with_extensions_and_trailers() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
            5;name=value\r\nhello\r\n\
            6 ; a=\"quoted;\" ;b\r\n world\r\n\
            A\r\n, 10 bytes\r\n\
            0;last=1\r\nX-Checksum: abc\r\nX-Other: d\r\n\r\n";
        let r = read_all_steps(raw, MAX).await.unwrap();
        assert_eq!(r, (200, b"hello world, 10 bytes".to_vec(), true));
        // no trailers, lower-case hex, leading zeros, several codings headers with identity
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\ntransfer-encoding: Chunked\r\n\r\n\
            000b\r\nhello world\r\n0\r\n\r\n";
        assert_eq!(read_all_steps(raw, MAX).await.unwrap(), (200, b"hello world".to_vec(), true));
        // Transfer-Encoding wins over Content-Length, and the connection is not reused
        let raw = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n";
        assert_eq!(read_all_steps(raw, MAX).await.unwrap(), (200, b"ok".to_vec(), false));
    }

    #[tokio::test]
    async fn connection_reuse_follows_the_server() {
        let ok = |raw: &'static [u8]| async move { read_all_steps(raw, MAX).await.unwrap().2 };
        assert!(!ok(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").await);
        assert!(!ok(b"HTTP/1.1 200 OK\r\nConnection: Keep-Alive, CLOSE\r\nContent-Length: 0\r\n\r\n").await);
        assert!(!ok(b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").await);
        assert!(ok(b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").await);
        assert!(ok(b"HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").await);
        // bytes beyond the response, read with it: the connection is out of step, not reused
        // (bytes arriving later are found when the connection is taken from the pool)
        let extra = read(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 200 OK\r\n", usize::MAX, MAX).await;
        assert_eq!(extra.unwrap(), (200, b"x".to_vec(), false));
    }

    #[tokio::test]
    async fn body_until_close() {
        let r = read_all_steps(b"HTTP/1.1 200 OK\r\nContent-Type: x\r\n\r\nall of it", MAX).await.unwrap();
        assert_eq!(r, (200, b"all of it".to_vec(), false));
        let r = read_all_steps(b"HTTP/1.0 200 OK\r\n\r\nold", MAX).await.unwrap();
        assert_eq!(r, (200, b"old".to_vec(), false));
    }

    #[tokio::test]
    async fn interim_and_bodiless_statuses() {
        let raw = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nX: y\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        assert_eq!(read_all_steps(raw, MAX).await.unwrap(), (200, b"ok".to_vec(), true));
        let raw = b"HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n";
        assert_eq!(read_all_steps(raw, MAX).await.unwrap(), (204, vec![], true));
        let endless = b"HTTP/1.1 100 Continue\r\n\r\n".repeat(100);
        assert!(err(&endless).await.contains("interim"));
        assert!(err(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n").await.contains("101"));
    }

    #[tokio::test]
    async fn malformed_status_lines() {
        for raw in [
            &b"HTTP/1.1 abc OK\r\n\r\n"[..],
            b"HTTP/1.1 2000 OK\r\n\r\n",
            b"HTTX/1.1 200 OK\r\n\r\n",
            b"HTTP/2 200 OK\r\n\r\n",
            b"HTTP/1.1\r\n\r\n",
            b"garbage\r\n\r\n",
            b"\x00\xff\xfe\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nBad Header\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nX\x01: y\r\n\r\n",
            b"<html>not http</html>\n\n",
        ] {
            assert!(err(raw).await.contains("malformed HTTP response head"), "{:?}", String::from_utf8_lossy(raw));
        }
    }

    #[tokio::test]
    async fn huge_heads_and_too_many_headers() {
        let mut raw = b"HTTP/1.1 200 OK\r\nX-Big: ".to_vec();
        raw.extend_from_slice(&[b'a'; 200_000]);
        raw.extend_from_slice(b"\r\nContent-Length: 0\r\n\r\n");
        let mut c = script(&raw, 1 << 20);
        let Err(Failure::Fatal(Error::Transport(m))) = read_response(&mut c, false, MAX).await else { panic!() };
        assert!(m.contains("larger than"), "{m}");
        // a head that never ends
        let mut c = script(&raw[..150_000], 1000);
        let Err(Failure::Fatal(Error::Transport(m))) = read_response(&mut c, false, MAX).await else { panic!() };
        assert!(m.contains("larger than"), "{m}");
        let mut raw = b"HTTP/1.1 200 OK\r\n".to_vec();
        for i in 0..200 {
            raw.extend_from_slice(format!("X-{i}: v\r\n").as_bytes());
        }
        raw.extend_from_slice(b"\r\n");
        assert!(err(&raw).await.contains("malformed"));
    }

    #[tokio::test]
    async fn bad_lengths_and_codings() {
        for (raw, want) in [
            (&b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"[..], "invalid Content-Length"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n", "invalid Content-Length"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello", "invalid Content-Length"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello", "conflicting"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 4\r\n\r\nhello", "conflicting"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", "out of range"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: \xff\r\n\r\n", "not valid text"),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "unsupported Transfer-Encoding"),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", "unsupported"),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", "unsupported"),
            (b"HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "HTTP/1.0"),
        ] {
            let m = err(raw).await;
            assert!(m.contains(want), "{:?}: {m}", String::from_utf8_lossy(raw));
        }
    }

    #[tokio::test]
    async fn hostile_chunks() {
        let te = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        for (chunks, want) in [
            ("fffffffffffffffff\r\n", "overflows"),
            ("10000000000000000000000000000000\r\n", "overflows"),
            ("ffffffffffffffff\r\n", "larger than the limit"),
            ("200001\r\n", "larger than the limit"),
            ("zz\r\n", "malformed chunk-size"),
            ("\r\n", "malformed chunk-size"),
            ("-1\r\n", "malformed chunk-size"),
            ("5\nhello\r\n0\r\n\r\n", "malformed chunk-size"),
            ("5 x\r\nhello\r\n0\r\n\r\n", "malformed chunk-size"),
            ("5;a\rb\r\nhello\r\n0\r\n\r\n", "malformed chunk-size"),
            ("5\r\nhelloXY0\r\n\r\n", "not followed by CRLF"),
            ("5\r\nhel", "closed the connection in the middle of the reply after 3 bytes; see the server's log"),
            ("5\r\nhello\r\n", "in the middle of the reply after 5 bytes"),
            ("5\r\nhello\r\n0\r\n", "in the middle of the reply after 5 bytes"),
            ("5\r\nhello\r\n0\r\nX-Trailer: y\r\n", "in the middle of the reply after 5 bytes"),
            ("0\r\nbad trailer\r\n\r\n", "malformed trailer"),
            ("3", "closed the connection in the middle of the reply after 0 bytes"),
        ] {
            let raw = format!("{te}{chunks}");
            let m = match read_all_steps(raw.as_bytes(), 2 << 20).await {
                Err(Error::Transport(m)) => m,
                other => panic!("{chunks:?}: {other:?}"),
            };
            assert!(m.contains(want), "{chunks:?}: {m}");
        }
        // a chunk-size line that never ends, and endless trailers
        let raw = format!("{te}5;{}", "e".repeat(10_000));
        assert!(err(raw.as_bytes()).await.contains("longer than"));
        let raw = format!("{te}0\r\n{}", "X-T: v\r\n".repeat(20_000));
        let mut c = script(raw.as_bytes(), 4096);
        let Err(Failure::Fatal(Error::Transport(m))) = read_response(&mut c, false, MAX).await else { panic!() };
        assert!(m.contains("malformed trailer") || m.contains("trailer section is larger"), "{m}");
    }

    #[tokio::test]
    async fn truncated_replies() {
        for raw in [
            &b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello"[..],
            b"HTTP/1.1 200 OK\r\nContent-Len",
            b"HTTP/1.1 200",
            b"H",
        ] {
            let m = err(raw).await;
            assert!(m.contains("closed"), "{:?}: {m}", String::from_utf8_lossy(raw));
        }
        assert!(err(b"").await.contains("without replying"));
    }

    #[tokio::test]
    async fn reply_size_limit() {
        let over = |raw: &'static [u8]| async move {
            match read_all_steps(raw, 10).await {
                Err(Error::Transport(m)) => assert!(m.contains("max_reply_size"), "{m}"),
                other => panic!("{other:?}"),
            }
        };
        over(b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world").await;
        over(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n").await;
        over(b"HTTP/1.1 200 OK\r\n\r\nhello world").await;
        // exactly at the limit is fine
        let r = read_all_steps(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhelloworld", 10).await;
        assert_eq!(r.unwrap().1, b"helloworld");
    }

    async fn outcome(mut c: Conn<Script>, reused: bool) -> &'static str {
        match exchange(&mut c, reused, b"POST / HTTP/1.1\r\n\r\n", b"x", MAX).await {
            Ok(_) => "ok",
            Err(Failure::Stale(_)) => "stale",
            Err(Failure::Fatal(_)) => "fatal",
        }
    }

    #[tokio::test]
    async fn stale_only_when_nothing_arrived_on_a_reused_connection() {
        assert_eq!(outcome(script(b"", 1), true).await, "stale");
        assert_eq!(outcome(script(b"", 1), false).await, "fatal");
        assert_eq!(outcome(script(b"H", 1), true).await, "fatal");
        assert_eq!(outcome(script(b"HTTP/1.1 200 OK\r\n", 100), true).await, "fatal");
        let reset = |data: &[u8]| {
            let mut c = script(data, 1);
            c.stream.reset_at_end = true;
            c
        };
        assert_eq!(outcome(reset(b""), true).await, "stale");
        assert_eq!(outcome(reset(b""), false).await, "fatal");
        assert_eq!(outcome(reset(b"HTTP/1.1"), true).await, "fatal");
        let broken = || {
            let mut c = script(b"", 1);
            c.stream.fail_writes = true;
            c
        };
        assert_eq!(outcome(broken(), true).await, "stale");
        assert_eq!(outcome(broken(), false).await, "fatal");
        let ok = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
        assert_eq!(outcome(script(ok, 3), true).await, "ok");
    }

    /// Mutations of valid responses, delivered in odd steps: never a panic, and a success only
    /// with a body within the limit.
    #[tokio::test]
    async fn mutated_responses_never_panic() {
        let seeds: [&[u8]; 4] = [
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: v\r\n\r\n",
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 404 Not Found\r\nConnection: keep-alive\r\n\r\nnope",
            b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        ];
        let alphabet = b"0123456789abcdefABCDEF\r\n:;, =\x00\xffHTP/.-";
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rnd = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for i in 0..20_000 {
            let mut m = seeds[i % seeds.len()].to_vec();
            for _ in 0..1 + rnd(4) {
                let at = rnd(m.len() + 1);
                match rnd(4) {
                    0 if at < m.len() => m[at] = alphabet[rnd(alphabet.len())],
                    1 if at < m.len() => {
                        m.remove(at);
                    }
                    2 => m.insert(at, alphabet[rnd(alphabet.len())]),
                    _ => m.truncate(at),
                }
            }
            let step = 1 + rnd(16);
            if let Ok((_, body, _)) = read(&m, step, 8).await {
                assert!(body.len() <= 8);
            }
        }
    }

    #[test]
    fn targets_of_uris() {
        let uri: http::Uri = "http://user@[::1]:8080/a/b?c=d".parse().unwrap();
        let t = Target::of(&uri).unwrap();
        assert_eq!((t.host, t.port, t.authority, t.path), ("::1", 8080, "[::1]:8080", "/a/b?c=d"));
        let uri: http::Uri = "https://example.org/svc".parse().unwrap();
        let t = Target::of(&uri).unwrap();
        assert_eq!((t.host, t.port, t.path, t.tls), ("example.org", 443, "/svc", true));
        let uri: http::Uri = "http://example.org".parse().unwrap();
        let t = Target::of(&uri).unwrap();
        assert_eq!((t.host, t.port, t.authority, t.path, t.tls), ("example.org", 80, "example.org", "/", false));
        let head = request_head(&t, "x/y", &[], 12);
        assert_eq!(
            head,
            b"POST / HTTP/1.1\r\nHost: example.org\r\nContent-Type: x/y\r\nContent-Length: 12\r\n\r\n".to_vec()
        );
    }

    #[test]
    fn head_end_finds_blank_lines() {
        assert_eq!(head_end(b"a\r\n\r\nb", 0), Some(5));
        assert_eq!(head_end(b"a\n\nb", 0), Some(3));
        assert_eq!(head_end(b"a\r\nb\r\n", 0), None);
        assert_eq!(head_end(b"a\r\n\r\n", 4), Some(5));
        assert_eq!(head_end(b"", 0), None);
    }
}
