//! HTTP/1.1 pieces both sides use (RFC 9112): where a head ends, list-valued fields,
//! `Content-Length`, chunk-size lines, the chunked body decoder of the server, and the `Date`
//! header's text.

use std::cell::RefCell;
use std::time::{SystemTime, UNIX_EPOCH};

/// Longest chunk-size line (size, extensions, CRLF) accepted.
pub(crate) const MAX_CHUNK_LINE: usize = 4096;
/// Largest trailer section accepted after a chunked body.
pub(crate) const MAX_TRAILERS: usize = 64 * 1024;
/// Most trailer fields accepted.
const MAX_TRAILER_FIELDS: usize = 100;

/// Index just past the blank line ending a head, searching from `from` (bare LFs accepted, as
/// `httparse` does).
pub(crate) fn head_end(buf: &[u8], from: usize) -> Option<usize> {
    let start = from.saturating_sub(3);
    let mut i = start;
    while let Some(p) = buf[i..].iter().position(|&b| b == b'\n') {
        let at = i + p;
        if at + 1 < buf.len() && buf[at + 1] == b'\n' {
            return Some(at + 2);
        }
        if at + 2 < buf.len() && buf[at + 1] == b'\r' && buf[at + 2] == b'\n' {
            return Some(at + 3);
        }
        i = at + 1;
    }
    None
}

/// The elements of a comma-separated field value, trimmed, empty ones left out.
pub(crate) fn list(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    value.split(|&b| b == b',').map(<[u8]>::trim_ascii).filter(|t| !t.is_empty())
}

/// A `Content-Length` element: digits only, within `u64`.
pub(crate) fn parse_length(v: &[u8]) -> Option<u64> {
    if v.is_empty() || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(v).ok()?.parse().ok()
}

/// What is wrong with a chunked body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChunkError {
    /// A chunk-size line longer than [`MAX_CHUNK_LINE`].
    LineTooLong,
    /// A malformed chunk-size line, chunk end or trailer section.
    Malformed,
    /// A chunk size beyond `u64`.
    Overflow,
    /// The body exceeds the size limit.
    TooLarge,
    /// A trailer section larger than [`MAX_TRAILERS`].
    TrailersTooLarge,
}

/// Parses a chunk-size line at the start of `buf`: `Ok(Some((size, line length)))`, `Ok(None)`
/// if the line is not complete yet. Extensions (`;name[=value]`) are ignored.
pub(crate) fn chunk_line(buf: &[u8]) -> Result<Option<(u64, usize)>, ChunkError> {
    let Some(lf) = buf.iter().take(MAX_CHUNK_LINE).position(|&b| b == b'\n') else {
        return if buf.len() >= MAX_CHUNK_LINE { Err(ChunkError::LineTooLong) } else { Ok(None) };
    };
    if lf == 0 || buf[lf - 1] != b'\r' {
        return Err(ChunkError::Malformed);
    }
    let line = &buf[..lf - 1];
    let digits = line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if digits == 0 {
        return Err(ChunkError::Malformed);
    }
    let mut size: u64 = 0;
    for &b in &line[..digits] {
        let d = (b as char).to_digit(16).ok_or(ChunkError::Malformed)? as u64;
        size = size.checked_mul(16).and_then(|s| s.checked_add(d)).ok_or(ChunkError::Overflow)?;
    }
    // then optional whitespace and extensions, which are ignored
    let rest = &line[digits..];
    let rest = &rest[rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count()..];
    if !rest.is_empty()
        && (rest[0] != b';' || rest.iter().any(|&b| b == b'\r' || (b < 0x20 && b != b'\t') || b == 0x7f))
    {
        return Err(ChunkError::Malformed);
    }
    Ok(Some((size, lf + 1)))
}

/// Where a [`ChunkedBody`] is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Chunked {
    /// Before a chunk-size line.
    #[default]
    Size,
    /// Inside a chunk's data, with this many bytes left.
    Data(u64),
    /// Before the CRLF that ends a chunk's data.
    DataEnd,
    /// Before the trailer section.
    Trailers,
    /// After the trailer section.
    Done,
}

/// Decodes a chunked body (RFC 9112 §7.1) incrementally from a buffer that grows: each
/// [`feed`](Self::feed) takes up what arrived since the last one.
#[derive(Debug, Default)]
pub(crate) struct ChunkedBody {
    /// The next byte of the buffer to decode.
    pos: usize,
    state: Chunked,
    body: Vec<u8>,
}

impl ChunkedBody {
    /// Starts a body at `at` in the buffer.
    pub fn start(&mut self, at: usize) {
        self.pos = at;
        self.state = Chunked::Size;
        self.body.clear();
    }

    /// Forgets the last body, keeping a moderate buffer for the next one.
    pub fn reset(&mut self) {
        self.body.clear();
        if self.body.capacity() > 1024 * 1024 {
            self.body = Vec::new();
        }
    }

    /// Decodes what `buf` holds past the last feed: `Ok(true)` once the body and its trailer
    /// section are complete, `Ok(false)` if more bytes are needed.
    pub fn feed(&mut self, buf: &[u8], max: usize) -> Result<bool, ChunkError> {
        loop {
            let rest = &buf[self.pos..];
            match self.state {
                Chunked::Size => {
                    let Some((size, line)) = chunk_line(rest)? else { return Ok(false) };
                    self.pos += line;
                    if size > (max - self.body.len()) as u64 {
                        return Err(ChunkError::TooLarge);
                    }
                    self.state = if size == 0 { Chunked::Trailers } else { Chunked::Data(size) };
                }
                Chunked::Data(left) => {
                    if rest.is_empty() {
                        return Ok(false);
                    }
                    let k = rest.len().min(left as usize);
                    self.body.extend_from_slice(&rest[..k]);
                    self.pos += k;
                    self.state = if k as u64 == left { Chunked::DataEnd } else { Chunked::Data(left - k as u64) };
                }
                Chunked::DataEnd => {
                    if rest.len() < 2 {
                        return Ok(false);
                    }
                    if &rest[..2] != b"\r\n" {
                        return Err(ChunkError::Malformed);
                    }
                    self.pos += 2;
                    self.state = Chunked::Size;
                }
                Chunked::Trailers => {
                    // parsed only once it can be complete: a blank line at the start or after a field
                    if rest.starts_with(b"\r\n") || rest.starts_with(b"\n") || head_end(rest, 0).is_some() {
                        let mut fields = [httparse::EMPTY_HEADER; MAX_TRAILER_FIELDS];
                        match httparse::parse_headers(rest, &mut fields) {
                            Ok(httparse::Status::Complete((n, _))) => {
                                self.pos += n;
                                self.state = Chunked::Done;
                                continue;
                            }
                            Ok(httparse::Status::Partial) => {}
                            Err(_) => return Err(ChunkError::Malformed),
                        }
                    }
                    if rest.len() > MAX_TRAILERS {
                        return Err(ChunkError::TrailersTooLarge);
                    }
                    return Ok(false);
                }
                Chunked::Done => return Ok(true),
            }
        }
    }

    /// Where the buffer's bytes after the body start.
    pub fn consumed(&self) -> usize {
        self.pos
    }

    /// The decoded body.
    pub fn body(&self) -> &[u8] {
        &self.body
    }
}

/// Calls `f` with the current time as an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`), formatted
/// once per second per thread.
pub(crate) fn with_date(f: impl FnOnce(&[u8])) {
    thread_local!(static DATE: RefCell<(u64, String)> = const { RefCell::new((u64::MAX, String::new())) });
    let now = SystemTime::now();
    let secs = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    DATE.with(|d| {
        let mut d = d.borrow_mut();
        if d.0 != secs {
            *d = (secs, httpdate::fmt_http_date(now));
        }
        f(d.1.as_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(wire: &[u8], max: usize, step: usize) -> Result<(Vec<u8>, usize), ChunkError> {
        let mut d = ChunkedBody::default();
        d.start(0);
        let mut have = 0;
        loop {
            have = (have + step).min(wire.len());
            if d.feed(&wire[..have], max)? {
                return Ok((d.body().to_vec(), d.consumed()));
            }
            assert!(have < wire.len(), "incomplete body");
        }
    }

    #[test]
    fn chunked_bodies_decode_byte_by_byte_and_at_once() {
        let wire = b"5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\nNEXT";
        for step in [1, 3, wire.len()] {
            let (body, used) = decode(wire, 100, step).unwrap();
            assert_eq!(body, b"hello world");
            assert_eq!(&wire[used..], b"NEXT");
        }
        assert_eq!(decode(b"0\r\n\r\n", 0, 1).unwrap(), (Vec::new(), 5));
    }

    #[test]
    fn bad_chunked_bodies_are_refused() {
        assert_eq!(decode(b"5\r\nhello\r\n0\r\n\r\n", 4, 64), Err(ChunkError::TooLarge));
        assert_eq!(decode(b"5\r\nhelloXX0\r\n\r\n", 64, 64), Err(ChunkError::Malformed));
        assert_eq!(decode(b"zz\r\n", 64, 64), Err(ChunkError::Malformed));
        assert_eq!(decode(b"5\nhello", 64, 64), Err(ChunkError::Malformed));
        assert_eq!(decode(b"fffffffffffffffff\r\n", 64, 64), Err(ChunkError::Overflow));
        let long = [b'1'; MAX_CHUNK_LINE + 1];
        assert_eq!(decode(&long, 64, MAX_CHUNK_LINE + 1), Err(ChunkError::LineTooLong));
        assert_eq!(decode(b"0\r\nbad header\r\n\r\n", 64, 64), Err(ChunkError::Malformed));
    }

    #[test]
    fn heads_end_at_the_first_blank_line() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n\r\nbody", 0), Some(24));
        assert_eq!(head_end(b"GET / HTTP/1.1\nA: b\n\nbody", 0), Some(21));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n", 0), None);
        assert_eq!(list(b" a, ,b ,").collect::<Vec<_>>(), [&b"a"[..], b"b"]);
        assert_eq!(parse_length(b"0012"), Some(12));
        assert_eq!(parse_length(b"+1"), None);
        assert_eq!(parse_length(b"99999999999999999999999"), None);
    }

    #[test]
    fn dates_are_http_dates() {
        let mut text = Vec::new();
        with_date(|d| text.extend_from_slice(d));
        let text = String::from_utf8(text).unwrap();
        assert!(text.ends_with(" GMT") && text.len() == 29, "{text}");
        assert!(httpdate::parse_http_date(&text).is_ok());
    }
}
