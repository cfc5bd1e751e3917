//! The server's HTTP/1.1 connection driver: reads requests from one connection into one buffer,
//! parses each head once with `httparse`, reads its body (`Content-Length` or chunked, within
//! the size limit), hands head and body to a [`Respond`], and writes the response with one
//! write. No per-request task, channel, header map or body stream: for a small call it costs
//! the two system calls of the exchange.
//!
//! What it does, as RFC 9112 asks of a server: keep-alive (HTTP/1.1 by default, HTTP/1.0 with
//! `Connection: keep-alive`), pipelined requests answered in order, `Expect: 100-continue`,
//! chunked request bodies (extensions and trailers read and ignored), `HEAD` answered without a
//! body, a `Date` header. A head larger than [`MAX_HEAD`] gets 431, a malformed head or framing
//! (`Content-Length` and `Transfer-Encoding` together, conflicting lengths, a bad chunk) 400, an
//! unsupported transfer coding 501, a body over the limit 413 and a stalled body 408, each
//! followed by closing the connection. The header timeout counts from when the driver starts
//! waiting for a request's head and closes an idle or slow connection.

use super::{Reply, ServerConfig};
use crate::http1::{self, ChunkedBody};
use bytes::Bytes;
use futures_util::FutureExt;
use http_body_util::{BodyExt, Full};
use std::future::Future;
use std::io::{self, IoSlice};
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::time::{Instant, Sleep};

/// Largest request head accepted (request line and header fields), in bytes.
pub(crate) const MAX_HEAD: usize = 64 * 1024;
/// Most header fields in a request head.
const MAX_HEADERS: usize = 100;
/// Read buffer of a new connection.
const BUFFER: usize = 8 * 1024;
/// A body is written together with the head (one copy, one write) up to this size; larger
/// bodies go out with a vectored write.
const COPY_BODY: usize = 16 * 1024;
/// How much a body read reserves at once (a large `Content-Length` is not allocated up front).
const MAX_RESERVE: usize = 1024 * 1024;
/// After an error reply that leaves request bytes unread, how long and how much the driver
/// still reads (and drops) before closing, so the client sees the reply rather than a reset.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 1024 * 1024;

/// Where some bytes of the head are in the buffer: (start, length).
type Span = (u32, u32);

/// A header field of the head in the buffer.
#[derive(Clone, Copy, Default)]
struct Field {
    name: Span,
    value: Span,
}

/// One parsed request head, borrowed from the connection's buffer.
pub(crate) struct RequestHead<'b> {
    buf: &'b [u8],
    method: Span,
    target: Span,
    /// `HTTP/1.0` rather than `HTTP/1.1`.
    pub http10: bool,
    fields: &'b [Field],
    /// Where the head ends in `buf` (after its blank line).
    end: usize,
    /// The peer's address, when known.
    pub peer: Option<std::net::SocketAddr>,
}

impl<'b> RequestHead<'b> {
    fn text(&self, (at, len): Span) -> &'b str {
        std::str::from_utf8(&self.buf[at as usize..(at + len) as usize]).unwrap_or("")
    }

    /// The method, e.g. `POST`.
    pub fn method(&self) -> &'b str {
        self.text(self.method)
    }

    /// The request target as sent (origin form `/path?query`, or absolute form).
    pub fn target(&self) -> &'b str {
        self.text(self.target)
    }

    /// The target's path: without the query, and without scheme and authority in absolute form.
    pub fn path(&self) -> &'b str {
        let t = self.target();
        // absolute form (`http://host/path`): the path after the authority
        let t = match t.as_bytes().first() {
            Some(b'/') | None => t,
            Some(_) => match t.find("://") {
                Some(i) => t[i + 3..].find('/').map_or("/", |j| &t[i + 3 + j..]),
                None => t,
            },
        };
        match t.bytes().position(|b| b == b'?' || b == b'#') {
            Some(end) => &t[..end],
            None => t,
        }
    }

    /// The header fields, in order: (name, value).
    pub fn headers(&self) -> impl Iterator<Item = (&'b str, &'b [u8])> + '_ {
        self.fields.iter().map(|f| (self.text(f.name), &self.buf[f.value.0 as usize..(f.value.0 + f.value.1) as usize]))
    }

    /// The header section as it arrived: the field lines and the blank line ending the head
    /// (empty without fields).
    pub fn header_section(&self) -> &'b [u8] {
        match self.fields.first() {
            Some(f) if (f.name.0 as usize) < self.end => &self.buf[f.name.0 as usize..self.end],
            _ => &[],
        }
    }

    /// Every field as (name, value), in order, as bytes (no UTF-8 check).
    pub fn fields(&self) -> impl Iterator<Item = (&'b [u8], &'b [u8])> + '_ {
        let buf = self.buf;
        let slice = move |(at, len): Span| &buf[at as usize..(at + len) as usize];
        self.fields.iter().map(move |f| (slice(f.name), slice(f.value)))
    }
}

/// What a [`Respond`] answers: the server's own reply, or an `http` response (of a handler or
/// tower service).
pub(crate) enum Outgoing {
    Reply(Reply),
    Response(http::Response<Full<Bytes>>),
}

/// Answers one request whose body has been read.
pub(crate) trait Respond: Send + 'static {
    /// The answer to the request with `head` and `body`.
    fn respond(&mut self, head: &RequestHead<'_>, body: &[u8]) -> impl Future<Output = Outgoing> + Send;
}

/// How the request's body is delimited.
enum Framing {
    Length(u64),
    Chunked,
}

/// What the driver itself needs of a head.
struct Parsed {
    len: usize,
    method: Span,
    target: Span,
    framing: Framing,
    keep_alive: bool,
    http10: bool,
    expect_continue: bool,
    head_method: bool,
}

/// An error answered by the driver itself, after which the connection closes.
fn refusal(status: http::StatusCode, msg: &'static str) -> Reply {
    Reply { close: true, ..Reply::text(status, msg) }
}

/// Parses the head at the start of `buf`, recording its fields' ranges in `fields`: `Ok(None)`
/// while it is incomplete.
fn parse_head(buf: &[u8], fields: &mut Vec<Field>) -> Result<Option<Parsed>, Reply> {
    use http::StatusCode as S;
    let mut headers = [const { std::mem::MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut []);
    let len = match req.parse_with_uninit_headers(buf, &mut headers) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(refusal(S::REQUEST_HEADER_FIELDS_TOO_LARGE, "too many header fields"))
        }
        Err(_) => return Err(refusal(S::BAD_REQUEST, "malformed HTTP request head")),
    };
    // where httparse's slices are in `buf` (an empty slice need not point into it; the head is
    // at most MAX_HEAD bytes, so offsets fit in u32)
    let base = buf.as_ptr() as usize;
    let range = |s: &[u8]| match (s.as_ptr() as usize).checked_sub(base) {
        Some(at) if !s.is_empty() && at + s.len() <= buf.len() => (at as u32, s.len() as u32),
        _ => (0, 0),
    };
    let (Some(method), Some(target)) = (req.method, req.path) else {
        return Err(refusal(S::BAD_REQUEST, "malformed HTTP request head"));
    };
    let (method, target) = (range(method.as_bytes()), range(target.as_bytes()));
    let http10 = req.version == Some(0);
    let (mut close, mut keep_alive_token, mut expect_continue, mut chunked) = (false, false, false, false);
    let mut length: Option<u64> = None;
    let mut coded = false;
    fields.clear();
    for h in req.headers.iter() {
        fields.push(Field { name: range(h.name.as_bytes()), value: range(h.value) });
        let name = h.name.as_bytes();
        if name.eq_ignore_ascii_case(b"content-length") {
            for v in http1::list(h.value) {
                let n = http1::parse_length(v).ok_or_else(|| refusal(S::BAD_REQUEST, "invalid Content-Length"))?;
                if length.is_some_and(|l| l != n) {
                    return Err(refusal(S::BAD_REQUEST, "conflicting Content-Length headers"));
                }
                length = Some(n);
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            for coding in http1::list(h.value) {
                // chunked must be the last coding, and the only one this server decodes
                if chunked || !coding.eq_ignore_ascii_case(b"chunked") {
                    return Err(refusal(S::NOT_IMPLEMENTED, "unsupported Transfer-Encoding"));
                }
                chunked = true;
            }
            coded = true;
        } else if name.eq_ignore_ascii_case(b"connection") {
            for token in http1::list(h.value) {
                close |= token.eq_ignore_ascii_case(b"close");
                keep_alive_token |= token.eq_ignore_ascii_case(b"keep-alive");
            }
        } else if name.eq_ignore_ascii_case(b"expect") {
            if !h.value.trim_ascii().eq_ignore_ascii_case(b"100-continue") {
                return Err(refusal(S::EXPECTATION_FAILED, "unsupported expectation"));
            }
            expect_continue = !http10;
        }
    }
    let framing = match (coded, length) {
        (true, Some(_)) => {
            return Err(refusal(S::BAD_REQUEST, "both Content-Length and Transfer-Encoding"));
        }
        (true, None) if http10 => return Err(refusal(S::BAD_REQUEST, "Transfer-Encoding in an HTTP/1.0 request")),
        (true, None) => Framing::Chunked,
        (false, l) => Framing::Length(l.unwrap_or(0)),
    };
    let keep_alive = if http10 { keep_alive_token && !close } else { !close };
    let head_method = req.method == Some("HEAD");
    Ok(Some(Parsed { len, method, target, framing, keep_alive, http10, expect_continue, head_method }))
}

/// A deadline for the connection's reads, with one timer entry that is moved only when it
/// fires early: arming it per request costs reading the clock, not a timer registration.
struct Deadline {
    at: Instant,
    sleep: Option<Pin<Box<Sleep>>>,
}

impl Deadline {
    fn new() -> Deadline {
        Deadline { at: Instant::now(), sleep: None }
    }

    /// Expires `after` from now.
    fn set(&mut self, after: Duration) {
        self.at = Instant::now() + after;
        if let Some(s) = &mut self.sleep {
            if self.at < s.deadline() {
                s.as_mut().reset(self.at);
            }
        }
    }

    /// Ready once the deadline has passed.
    fn poll_expired(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let at = self.at;
        let sleep = self.sleep.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(at)));
        loop {
            if sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            if sleep.deadline() >= at {
                return Poll::Ready(());
            }
            sleep.as_mut().reset(at);
        }
    }
}

/// Why a read did not deliver bytes.
enum Stop {
    /// The peer closed its side (or the read failed).
    Closed,
    /// The deadline passed.
    TimedOut,
    /// The server shuts down and the connection is between requests.
    Shutdown,
}

/// One connection's state.
struct Conn<'s, S> {
    io: S,
    buf: Vec<u8>,
    fields: Vec<Field>,
    out: Vec<u8>,
    deadline: Deadline,
    /// Resolves when the server starts shutting down.
    shutdown: Pin<&'s mut (dyn Future<Output = ()> + Send)>,
    stopping: bool,
    /// [`ServerConfig::json_refusals`].
    json_refusals: bool,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Conn<'_, S> {
    /// Reads more bytes into the buffer before the deadline. With `idle`, a shutdown of the
    /// server also ends the wait.
    async fn fill(&mut self, idle: bool) -> Result<usize, Stop> {
        if self.buf.capacity() - self.buf.len() < BUFFER / 4 {
            self.buf.reserve(BUFFER);
        }
        let Conn { io, buf, deadline, shutdown, stopping, .. } = self;
        std::future::poll_fn(|cx| {
            let read = std::pin::pin!(io.read_buf(&mut *buf));
            match read.poll(cx) {
                Poll::Ready(Ok(0)) | Poll::Ready(Err(_)) => return Poll::Ready(Err(Stop::Closed)),
                Poll::Ready(Ok(n)) => return Poll::Ready(Ok(n)),
                Poll::Pending => {}
            }
            if !*stopping && shutdown.as_mut().poll(cx).is_ready() {
                *stopping = true;
            }
            if *stopping && idle {
                return Poll::Ready(Err(Stop::Shutdown));
            }
            match deadline.poll_expired(cx) {
                Poll::Ready(()) => Poll::Ready(Err(Stop::TimedOut)),
                Poll::Pending => Poll::Pending,
            }
        })
        .await
    }

    /// Writes `out`, then `body` (unless empty), and flushes.
    async fn send(&mut self, body: &[u8]) -> io::Result<()> {
        let (mut head, mut body) = (&self.out[..], body);
        while !head.is_empty() || !body.is_empty() {
            let n = if head.is_empty() {
                self.io.write(body).await?
            } else if body.is_empty() {
                self.io.write(head).await?
            } else {
                self.io.write_vectored(&[IoSlice::new(head), IoSlice::new(body)]).await?
            };
            if n == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            let h = n.min(head.len());
            head = &head[h..];
            body = &body[n - h..];
        }
        self.io.flush().await
    }

    /// Before reading a body that has not arrived yet: the interim `100 Continue` when the
    /// client waits for it, and the body timer.
    async fn await_body(&mut self, expect_continue: bool, timeout: Duration) -> io::Result<()> {
        if expect_continue {
            self.out.clear();
            self.out.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
            self.send(&[]).await?;
        }
        self.deadline.set(timeout);
        Ok(())
    }

    /// Writes an error reply the driver made, then closes: the write side first, then reading
    /// (and dropping) what the client still sends for a while, so it reads the reply.
    async fn refuse(&mut self, reply: Reply) {
        let reply = if self.json_refusals { reply.into_json() } else { reply };
        let body = reply.body.clone();
        write_reply(&mut self.out, &reply, false, false);
        if self.send(&body).await.is_err() {
            return;
        }
        let _ = self.io.shutdown().await;
        self.deadline.set(LINGER);
        let mut dropped = 0;
        while dropped < LINGER_BYTES {
            self.buf.clear();
            match self.fill(false).await {
                Ok(n) => dropped += n,
                Err(_) => break,
            }
        }
    }
}

/// Serves HTTP/1.1 on `io` with `respond` until the client closes, an error closes the
/// connection, or `shutdown` resolves while the connection is between requests.
pub(crate) async fn serve<S, R>(
    io: S,
    peer: Option<std::net::SocketAddr>,
    respond: &mut R,
    config: &ServerConfig,
    shutdown: impl Future<Output = ()> + Send,
) where
    S: AsyncRead + AsyncWrite + Unpin,
    R: Respond,
{
    let shutdown = std::pin::pin!(shutdown);
    let mut conn = Conn {
        io,
        buf: Vec::with_capacity(BUFFER),
        fields: Vec::new(),
        out: Vec::with_capacity(1024),
        deadline: Deadline::new(),
        shutdown,
        stopping: false,
        json_refusals: config.json_refusals,
    };
    conn.deadline.set(config.header_read_timeout);
    let mut chunked = ChunkedBody::default();
    loop {
        // the head: parsed at once when the first bytes arrive (a head usually comes whole in one
        // read), then only once a blank line has arrived (a trickled head costs linear time)
        let mut scanned = 0;
        let parsed = loop {
            let first = scanned == 0 && !conn.buf.is_empty();
            let ended = !first && http1::head_end(&conn.buf, scanned).is_some();
            if first || ended {
                match parse_head(&conn.buf, &mut conn.fields) {
                    Ok(Some(parsed)) => break parsed,
                    Ok(None) if ended => {
                        let r = refusal(http::StatusCode::BAD_REQUEST, "malformed HTTP request head");
                        return conn.refuse(r).await;
                    }
                    Ok(None) => {}
                    Err(r) => return conn.refuse(r).await,
                }
            }
            if conn.buf.len() > MAX_HEAD {
                let r = refusal(http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, "request head too large");
                return conn.refuse(r).await;
            }
            scanned = conn.buf.len();
            // idle: nothing of the next request has arrived yet
            let idle = conn.buf.is_empty();
            match conn.fill(idle).await {
                Ok(_) => {}
                Err(Stop::Closed | Stop::Shutdown) => return,
                Err(Stop::TimedOut) if idle => return,
                Err(Stop::TimedOut) => {
                    let r = refusal(http::StatusCode::REQUEST_TIMEOUT, "request head timed out");
                    return conn.refuse(r).await;
                }
            }
        };
        let head_len = parsed.len;
        let max = config.max_request_size;
        // the body, complete in the buffer at `body` (or decoded into `chunked`), and where the
        // next request starts
        let (body, next) = match parsed.framing {
            Framing::Length(n) if n > max as u64 => {
                return conn.refuse(refusal(http::StatusCode::PAYLOAD_TOO_LARGE, "request body too large")).await;
            }
            Framing::Length(n) => {
                let end = head_len + n as usize;
                if conn.buf.len() < end {
                    if conn.await_body(parsed.expect_continue, config.body_read_timeout).await.is_err() {
                        return;
                    }
                    while conn.buf.len() < end {
                        let want = (end - conn.buf.len()).min(MAX_RESERVE);
                        if conn.buf.capacity() - conn.buf.len() < want {
                            conn.buf.reserve(want);
                        }
                        match conn.fill(false).await {
                            Ok(_) => {}
                            Err(Stop::TimedOut) => return conn.refuse(Reply::timed_out()).await,
                            Err(_) => return,
                        }
                    }
                }
                (head_len..end, end)
            }
            Framing::Chunked => {
                if conn.await_body(parsed.expect_continue, config.body_read_timeout).await.is_err() {
                    return;
                }
                chunked.start(head_len);
                loop {
                    match chunked.feed(&conn.buf, max) {
                        Ok(true) => break,
                        Ok(false) => {}
                        Err(http1::ChunkError::TooLarge) => {
                            let r = refusal(http::StatusCode::PAYLOAD_TOO_LARGE, "request body too large");
                            return conn.refuse(r).await;
                        }
                        Err(_) => {
                            let r = refusal(http::StatusCode::BAD_REQUEST, "malformed chunked request body");
                            return conn.refuse(r).await;
                        }
                    }
                    match conn.fill(false).await {
                        Ok(_) => {}
                        Err(Stop::TimedOut) => return conn.refuse(Reply::timed_out()).await,
                        Err(_) => return,
                    }
                }
                (0..0, chunked.consumed())
            }
        };
        let head = RequestHead {
            buf: &conn.buf,
            method: parsed.method,
            target: parsed.target,
            http10: parsed.http10,
            fields: &conn.fields,
            end: head_len,
            peer,
        };
        let body: &[u8] = match parsed.framing {
            Framing::Length(_) => &conn.buf[body],
            Framing::Chunked => chunked.body(),
        };
        let outgoing = match AssertUnwindSafe(respond.respond(&head, body)).catch_unwind().await {
            Ok(o) => o,
            Err(_) => Outgoing::Reply(Reply::text(http::StatusCode::INTERNAL_SERVER_ERROR, "internal error")),
        };
        let outgoing = match outgoing {
            Outgoing::Reply(r) if conn.json_refusals => Outgoing::Reply(r.into_json()),
            o => o,
        };
        // after this reply: keep the connection unless the request, the reply or a shutdown ends it
        let mut keep_alive = parsed.keep_alive && !conn.stopping;
        let sent = match &outgoing {
            Outgoing::Reply(r) => {
                keep_alive &= !r.close;
                write_reply(&mut conn.out, r, keep_alive, parsed.http10);
                let body = if parsed.head_method { &[][..] } else { &r.body[..] };
                send_body(&mut conn, body).await
            }
            Outgoing::Response(r) => {
                let body = match r.body().clone().collect().await {
                    Ok(c) => c.to_bytes(),
                    Err(never) => match never {},
                };
                keep_alive &= write_response(&mut conn.out, r, body.len(), keep_alive, parsed.http10);
                let body = if parsed.head_method { &[][..] } else { &body[..] };
                send_body(&mut conn, body).await
            }
        };
        if sent.is_err() {
            return;
        }
        if !keep_alive {
            let _ = conn.io.shutdown().await;
            return;
        }
        // the next request: what is left in the buffer moves to its start
        if next >= conn.buf.len() {
            conn.buf.clear();
            if conn.buf.capacity() > 4 * MAX_RESERVE {
                conn.buf = Vec::with_capacity(BUFFER);
            }
        } else {
            conn.buf.drain(..next);
        }
        chunked.reset();
        conn.deadline.set(config.header_read_timeout);
    }
}

/// Sends the head in `conn.out` and `body`: together in one buffer when the body is small.
async fn send_body<S: AsyncRead + AsyncWrite + Unpin>(conn: &mut Conn<'_, S>, body: &[u8]) -> io::Result<()> {
    if body.len() <= COPY_BODY {
        conn.out.extend_from_slice(body);
        conn.send(&[]).await
    } else {
        conn.send(body).await
    }
}

/// Writes the status line into `out` (cleared first).
fn status_line(out: &mut Vec<u8>, status: http::StatusCode) {
    out.clear();
    out.extend_from_slice(b"HTTP/1.1 ");
    out.extend_from_slice(status.as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(status.canonical_reason().unwrap_or("Unknown").as_bytes());
    out.extend_from_slice(b"\r\n");
}

fn header_line(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}

/// The framing headers and the end of the head: `Content-Length`, `Date`, and the
/// `Connection` header the keep-alive decision needs.
fn finish_head(out: &mut Vec<u8>, len: usize, date: bool, keep_alive: bool, http10: bool, close_sent: bool) {
    out.extend_from_slice(b"content-length: ");
    out.extend_from_slice(Digits::of(len).as_bytes());
    out.extend_from_slice(b"\r\n");
    if date {
        out.extend_from_slice(b"date: ");
        http1::with_date(|d| out.extend_from_slice(d));
        out.extend_from_slice(b"\r\n");
    }
    if !keep_alive && !close_sent {
        out.extend_from_slice(b"connection: close\r\n");
    } else if keep_alive && http10 {
        out.extend_from_slice(b"connection: keep-alive\r\n");
    }
    out.extend_from_slice(b"\r\n");
}

/// `n` in decimal.
struct Digits {
    bytes: [u8; 20],
    from: usize,
}

impl Digits {
    fn of(mut n: usize) -> Digits {
        let mut d = Digits { bytes: [0; 20], from: 20 };
        loop {
            d.from -= 1;
            d.bytes[d.from] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                return d;
            }
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[self.from..]
    }
}

/// Writes the head of the server's `reply` into `out`.
fn write_reply(out: &mut Vec<u8>, reply: &Reply, keep_alive: bool, http10: bool) {
    status_line(out, reply.status);
    reply.for_each_header(|name, value| header_line(out, name.as_bytes(), value.as_bytes()));
    finish_head(out, reply.body.len(), true, keep_alive, http10, reply.close);
}

/// Writes the head of a handler's `response` with a body of `len` bytes into `out`; false if
/// the response asks to close the connection. Framing headers of the response are replaced by
/// the driver's own.
fn write_response(
    out: &mut Vec<u8>,
    response: &http::Response<Full<Bytes>>,
    len: usize,
    keep_alive: bool,
    http10: bool,
) -> bool {
    use http::header;
    status_line(out, response.status());
    let mut close = false;
    for (name, value) in response.headers() {
        if name == header::CONTENT_LENGTH || name == header::TRANSFER_ENCODING {
            continue;
        }
        if name == header::CONNECTION {
            if http1::list(value.as_bytes()).any(|t| t.eq_ignore_ascii_case(b"close")) {
                close = true;
            }
            continue;
        }
        header_line(out, name.as_str().as_bytes(), value.as_bytes());
    }
    let keep_alive = keep_alive && !close;
    let date = !response.headers().contains_key(header::DATE);
    finish_head(out, len, date, keep_alive, http10, false);
    keep_alive
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every head a mutation of a valid one can be, parsed and read through every accessor:
    /// a refusal or a head, never a panic.
    #[test]
    fn mutated_heads_parse_or_are_refused_without_panicking() {
        let valid: &[u8] = b"POST http://h/echo?q=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\
            Transfer-Encoding: chunked\r\nConnection: keep-alive, close\r\nExpect: 100-continue\r\n\
            X-Empty:\r\nHessian-Type-Maps: 1\r\n\r\n";
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut fields = Vec::new();
        let (mut parsed, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let mut head = valid.to_vec();
            for _ in 0..1 + next() % 4 {
                if head.is_empty() {
                    break;
                }
                let at = (next() % head.len() as u64) as usize;
                match next() % 4 {
                    0 => head[at] = next() as u8,
                    1 => head.insert(at, b":\r\n ;,?/#"[(next() % 9) as usize]),
                    2 => {
                        head.remove(at);
                    }
                    _ => head.truncate(at.max(1)),
                }
            }
            let Some(end) = http1::head_end(&head, 0) else { continue };
            match parse_head(&head[..end], &mut fields) {
                Ok(None) => panic!("a head with its blank line is complete: {:?}", String::from_utf8_lossy(&head)),
                Ok(Some(p)) => {
                    parsed += 1;
                    let h = RequestHead {
                        buf: &head[..end],
                        method: p.method,
                        target: p.target,
                        http10: p.http10,
                        fields: &fields,
                        end,
                        peer: None,
                    };
                    let _ =
                        (h.method(), h.target(), h.path(), h.fields().find(|(n, _)| n.eq_ignore_ascii_case(b"host")));
                    assert_eq!(h.headers().count(), fields.len());
                    // the section a call's context parses again holds the same fields
                    let mut again = [httparse::EMPTY_HEADER; MAX_HEADERS];
                    let section = h.header_section();
                    let reparsed = match httparse::parse_headers(section, &mut again) {
                        _ if section.is_empty() => 0,
                        Ok(httparse::Status::Complete((_, f))) => f.len(),
                        other => panic!("{other:?}: {:?}", String::from_utf8_lossy(section)),
                    };
                    assert_eq!(reparsed, fields.len());
                }
                Err(r) => {
                    refused += 1;
                    assert!(r.close && r.status.is_client_error() || r.status.is_server_error(), "{:?}", r.status);
                }
            }
        }
        assert!(parsed > 100 && refused > 100, "parsed {parsed}, refused {refused}");
    }
}
