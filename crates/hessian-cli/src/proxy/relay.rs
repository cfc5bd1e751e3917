//! The byte-for-byte half of `hessian proxy`: HTTP/1.1 heads are read whole (bounded) and
//! written on unchanged; bodies are streamed through as they arrive, framed as their heads say
//! (`Content-Length`, `chunked`, or until the connection closes), while at most `--max-capture`
//! bytes of each body are kept for the decoder.

use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Largest request or response head accepted (as most servers: Jetty's default is 8 KiB).
pub const MAX_HEAD: usize = 64 * 1024;
/// Longest chunk-size or trailer line accepted.
const MAX_LINE: usize = 4096;
/// Most header fields in one head.
const MAX_FIELDS: usize = 128;

/// Why an exchange could not be relayed.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    /// A socket error.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The upstream could not be reached.
    #[error("cannot connect: {0}")]
    Connect(std::io::Error),
    /// Writing to the receiving side failed (it closed its connection).
    #[error("the receiving side closed its connection: {0}")]
    Write(std::io::Error),
    /// The peer closed the connection before the message ended.
    #[error("connection closed after {0} bytes of the message")]
    Closed(u64),
    /// Nothing arrived within the timeout.
    #[error("no data within {0:?}")]
    Timeout(Duration),
    /// A head or a chunk frame that is not HTTP/1.1.
    #[error("malformed HTTP: {0}")]
    Malformed(String),
}

/// A buffered reader that hands out heads, lines and body bytes.
pub struct Reader<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    idle: Duration,
}

impl<R: AsyncRead + Unpin> Reader<R> {
    /// Reads from `inner`; a read that waits longer than `idle` fails with [`RelayError::Timeout`].
    pub fn new(inner: R, idle: Duration) -> Self {
        Reader { inner, buf: Vec::with_capacity(16 * 1024), pos: 0, idle }
    }

    fn buffered(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Reads more bytes into the buffer; `Ok(0)` at the end of the stream.
    async fn fill(&mut self) -> Result<usize, RelayError> {
        if self.pos > 0 && self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
        } else if self.pos > 64 * 1024 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let start = self.buf.len();
        self.buf.resize(start + 16 * 1024, 0);
        let read = tokio::time::timeout(self.idle, self.inner.read(&mut self.buf[start..])).await;
        let n = match read {
            Ok(Ok(n)) => n,
            Ok(Err(e)) => {
                self.buf.truncate(start);
                return Err(e.into());
            }
            Err(_) => {
                self.buf.truncate(start);
                return Err(RelayError::Timeout(self.idle));
            }
        };
        self.buf.truncate(start + n);
        Ok(n)
    }

    /// The next head (through its blank line), `None` at a clean end of the stream before one
    /// starts. A timeout or a close inside a head is an error.
    pub async fn head(&mut self) -> Result<Option<Vec<u8>>, RelayError> {
        loop {
            if let Some(end) = head_end(self.buffered()) {
                let head = self.buffered()[..end].to_vec();
                self.pos += end;
                return Ok(Some(head));
            }
            if self.buffered().len() > MAX_HEAD {
                return Err(RelayError::Malformed(format!("head longer than {MAX_HEAD} bytes")));
            }
            if self.fill().await? == 0 {
                return match self.buffered().len() {
                    0 => Ok(None),
                    n => Err(RelayError::Closed(n as u64)),
                };
            }
        }
    }

    /// Whether the peer has closed the connection (or sent something unasked, which makes it
    /// unusable too), checked without waiting.
    pub async fn closed_now(&mut self) -> bool {
        if !self.buffered().is_empty() {
            return true;
        }
        let mut probe = [0u8; 1];
        tokio::select! {
            biased;
            r = self.inner.read(&mut probe) => {
                if let Ok(1) = r {
                    self.buf.push(probe[0]);
                }
                true
            }
            () = std::future::ready(()) => false,
        }
    }

    /// One line through its LF.
    async fn line(&mut self, done: u64) -> Result<Vec<u8>, RelayError> {
        loop {
            if let Some(p) = self.buffered().iter().position(|&b| b == b'\n') {
                let line = self.buffered()[..=p].to_vec();
                self.pos += p + 1;
                return Ok(line);
            }
            if self.buffered().len() > MAX_LINE {
                return Err(RelayError::Malformed(format!("chunk line longer than {MAX_LINE} bytes")));
            }
            if self.fill().await? == 0 {
                return Err(RelayError::Closed(done));
            }
        }
    }

    /// Up to `max` bytes (at least one), `None` at the end of the stream.
    async fn some(&mut self, max: u64) -> Result<Option<&[u8]>, RelayError> {
        if self.buffered().is_empty() && self.fill().await? == 0 {
            return Ok(None);
        }
        let n = self.buffered().len().min(usize::try_from(max).unwrap_or(usize::MAX));
        let start = self.pos;
        self.pos += n;
        Ok(Some(&self.buf[start..start + n]))
    }
}

/// Index just past the blank line that ends a head (CRLF or bare LF line ends).
fn head_end(buf: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(p) = buf[i..].iter().position(|&b| b == b'\n') {
        let at = i + p;
        match buf.get(at + 1..) {
            Some([b'\n', ..]) => return Some(at + 2),
            Some([b'\r', b'\n', ..]) => return Some(at + 3),
            _ => i = at + 1,
        }
    }
    None
}

/// How a message body is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// No body.
    Empty,
    /// Exactly this many bytes.
    Length(u64),
    /// `Transfer-Encoding: chunked`.
    Chunked,
    /// Until the sender closes the connection (a response without a length).
    UntilClose,
}

/// What a head says, as far as relaying needs it.
#[derive(Clone, Debug)]
pub struct Head {
    /// Request method (requests only).
    pub method: String,
    /// Request target (requests only).
    pub target: String,
    /// Response status (responses only).
    pub status: u16,
    /// The header fields, names lower-cased, in order.
    pub fields: Vec<(String, String)>,
    /// How the body that follows is delimited.
    pub framing: Framing,
    /// Whether the connection stays open after this message.
    pub keep_alive: bool,
}

impl Head {
    /// The first value of field `name` (lower-case).
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

fn fields(raw: &[httparse::Header<'_>]) -> Vec<(String, String)> {
    raw.iter().map(|h| (h.name.to_ascii_lowercase(), String::from_utf8_lossy(h.value).trim().to_owned())).collect()
}

/// The framing the fields give, `Err` for a length that cannot be trusted.
fn body_framing(fields: &[(String, String)]) -> Result<Option<Framing>, RelayError> {
    let te = fields.iter().filter(|(n, _)| n == "transfer-encoding").map(|(_, v)| v.as_str()).collect::<Vec<_>>();
    if !te.is_empty() {
        // a message framed both ways may be read otherwise by the next hop (request smuggling)
        if fields.iter().any(|(n, _)| n == "content-length") {
            return Err(RelayError::Malformed("both Transfer-Encoding and Content-Length".into()));
        }
        let last = te.join(",").rsplit(',').next().map(|s| s.trim().to_ascii_lowercase()).unwrap_or_default();
        return if last == "chunked" {
            Ok(Some(Framing::Chunked))
        } else {
            Err(RelayError::Malformed(format!("unsupported transfer coding {last:?}")))
        };
    }
    let mut length = None;
    for (_, v) in fields.iter().filter(|(n, _)| n == "content-length") {
        for part in v.split(',').map(str::trim) {
            let n: u64 = part.parse().map_err(|_| RelayError::Malformed(format!("bad Content-Length {v:?}")))?;
            if length.is_some_and(|l| l != n) {
                return Err(RelayError::Malformed("conflicting Content-Length fields".into()));
            }
            length = Some(n);
        }
    }
    Ok(length.map(|n| if n == 0 { Framing::Empty } else { Framing::Length(n) }))
}

fn keep_alive(version: u8, fields: &[(String, String)]) -> bool {
    let tokens: Vec<String> = fields
        .iter()
        .filter(|(n, _)| n == "connection")
        .flat_map(|(_, v)| v.split(',').map(|t| t.trim().to_ascii_lowercase()).collect::<Vec<_>>())
        .collect();
    if tokens.iter().any(|t| t == "close") {
        return false;
    }
    version >= 1 || tokens.iter().any(|t| t == "keep-alive")
}

/// A complete parse of a head, or why it is not one.
fn parsed(result: httparse::Result<usize>, what: &str) -> Result<(), RelayError> {
    match result {
        Ok(httparse::Status::Complete(_)) => Ok(()),
        Ok(httparse::Status::Partial) => Err(RelayError::Malformed(format!("incomplete {what} head"))),
        Err(e) => Err(RelayError::Malformed(format!("{what} head: {e}"))),
    }
}

/// Parses a request head.
pub fn request_head(raw: &[u8]) -> Result<Head, RelayError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_FIELDS];
    let mut req = httparse::Request::new(&mut headers);
    parsed(req.parse(raw), "request")?;
    let fields = fields(req.headers);
    let framing = body_framing(&fields)?.unwrap_or(Framing::Empty);
    let version = req.version.unwrap_or(1);
    Ok(Head {
        method: req.method.unwrap_or_default().to_owned(),
        target: req.path.unwrap_or_default().to_owned(),
        status: 0,
        keep_alive: keep_alive(version, &fields),
        fields,
        framing,
    })
}

/// Parses a response head to a request with method `request_method`.
pub fn response_head(raw: &[u8], request_method: &str) -> Result<Head, RelayError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_FIELDS];
    let mut res = httparse::Response::new(&mut headers);
    parsed(res.parse(raw), "response")?;
    let status = res.code.unwrap_or_default();
    let fields = fields(res.headers);
    let no_body = request_method.eq_ignore_ascii_case("HEAD") || status < 200 || status == 204 || status == 304;
    let framing = if no_body { Framing::Empty } else { body_framing(&fields)?.unwrap_or(Framing::UntilClose) };
    let version = res.version.unwrap_or(1);
    Ok(Head {
        method: String::new(),
        target: String::new(),
        status,
        keep_alive: keep_alive(version, &fields) && framing != Framing::UntilClose,
        fields,
        framing,
    })
}

/// The first bytes of a body, kept for the decoder, and how long the body was.
#[derive(Debug, Default, Clone)]
pub struct Capture {
    /// At most `limit` bytes of the body (its payload: chunk framing left out).
    pub data: Vec<u8>,
    /// The payload's whole length.
    pub total: u64,
    /// Whether bytes beyond `limit` were streamed through without being kept.
    pub truncated: bool,
    limit: usize,
}

impl Capture {
    /// A capture keeping at most `limit` bytes.
    pub fn new(limit: usize) -> Self {
        Capture { limit, ..Capture::default() }
    }

    fn keep(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = self.limit.saturating_sub(self.data.len());
        if bytes.len() > room {
            self.truncated = true;
        }
        self.data.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }
}

/// Streams exactly `n` bytes from `src` to `dst`, keeping them in `capture`.
async fn relay_exact<R, W>(src: &mut Reader<R>, dst: &mut W, n: u64, capture: &mut Capture) -> Result<(), RelayError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut left = n;
    while left > 0 {
        let Some(bytes) = src.some(left).await? else { return Err(RelayError::Closed(capture.total)) };
        left -= bytes.len() as u64;
        capture.keep(bytes);
        dst.write_all(bytes).await.map_err(RelayError::Write)?;
    }
    Ok(())
}

/// Streams one body from `src` to `dst` exactly as it arrives (chunk frames and trailers
/// included), keeping its payload in `capture`.
pub async fn relay_body<R, W>(
    src: &mut Reader<R>,
    dst: &mut W,
    framing: Framing,
    capture: &mut Capture,
) -> Result<(), RelayError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    match framing {
        Framing::Empty => Ok(()),
        Framing::Length(n) => relay_exact(src, dst, n, capture).await,
        Framing::UntilClose => {
            while let Some(bytes) = src.some(u64::MAX).await? {
                capture.keep(bytes);
                dst.write_all(bytes).await.map_err(RelayError::Write)?;
            }
            Ok(())
        }
        Framing::Chunked => loop {
            let line = src.line(capture.total).await?;
            dst.write_all(&line).await.map_err(RelayError::Write)?;
            let size_text = String::from_utf8_lossy(&line);
            let size_text = size_text.split(';').next().unwrap_or_default().trim();
            let size = u64::from_str_radix(size_text, 16)
                .map_err(|_| RelayError::Malformed(format!("bad chunk size {size_text:?}")))?;
            if size == 0 {
                // trailer fields, then the blank line
                loop {
                    let line = src.line(capture.total).await?;
                    dst.write_all(&line).await.map_err(RelayError::Write)?;
                    if line == b"\r\n" || line == b"\n" {
                        return Ok(());
                    }
                }
            }
            relay_exact(src, dst, size, capture).await?;
            let end = src.line(capture.total).await?;
            if end != b"\r\n" && end != b"\n" {
                return Err(RelayError::Malformed("chunk not followed by CRLF".into()));
            }
            dst.write_all(&end).await.map_err(RelayError::Write)?;
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn relay(input: &[u8], framing: Framing, limit: usize) -> (Vec<u8>, Capture, Result<(), RelayError>) {
        let mut src = Reader::new(input, Duration::from_secs(1));
        let mut out = Vec::new();
        let mut cap = Capture::new(limit);
        let r = relay_body(&mut src, &mut out, framing, &mut cap).await;
        (out, cap, r)
    }

    #[tokio::test]
    async fn chunked_bodies_pass_unchanged_and_payload_is_captured() {
        let wire = b"3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n";
        let (out, cap, r) = relay(wire, Framing::Chunked, 4).await;
        r.unwrap();
        assert_eq!(out, wire);
        assert_eq!(cap.data, b"abcd");
        assert_eq!(cap.total, 5);
        assert!(cap.truncated);
    }

    #[tokio::test]
    async fn short_and_malformed_bodies_are_errors() {
        let (out, _, r) = relay(b"abc", Framing::Length(5), 10).await;
        assert_eq!(out, b"abc");
        assert!(matches!(r, Err(RelayError::Closed(3))), "{r:?}");
        let (_, _, r) = relay(b"zz\r\n", Framing::Chunked, 10).await;
        assert!(matches!(r, Err(RelayError::Malformed(_))), "{r:?}");
    }

    #[test]
    fn heads_give_framing_and_persistence() {
        let h = request_head(b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\n").unwrap();
        assert_eq!(
            (h.method.as_str(), h.target.as_str(), h.framing, h.keep_alive),
            ("POST", "/x", Framing::Length(12), true)
        );
        let h = request_head(b"POST /x HTTP/1.0\r\nTransfer-Encoding: gzip, chunked\r\n\r\n").unwrap();
        assert_eq!((h.framing, h.keep_alive), (Framing::Chunked, false));
        assert!(request_head(b"POST /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n").is_err());
        assert!(request_head(b"POST /x HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n").is_err());
        let r = response_head(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", "POST").unwrap();
        assert_eq!((r.status, r.framing, r.keep_alive), (200, Framing::UntilClose, false));
        let r = response_head(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", "HEAD").unwrap();
        assert_eq!((r.framing, r.keep_alive), (Framing::Empty, true));
        assert_eq!(head_end(b"a\r\nb\r\n\r\nrest"), Some(8));
        assert_eq!(head_end(b"a\nb\n\nrest"), Some(5));
    }
}
