//! The message bodies in a recorded byte stream (one direction of one connection, as the counting
//! relay recorded it, [`hessian_bench::relay::Tap`]): HTTP/1.1 bodies by their `Content-Length` or
//! their chunks, HTTP/2 by its DATA frames. This is how the seed suite counts the body bytes of
//! every HTTP row alike, whoever the client is (the Java clients do not count their own).

use hessian_bench::relay::Tap;

/// The bodies found in a stream: how many messages, and their bytes (the payload, without HTTP
/// headers, chunk framing or HTTP/2 frame headers and padding).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bodies {
    /// Messages (HTTP/1.1 requests or responses, 1xx responses included; HTTP/2 DATA frames).
    pub messages: usize,
    /// Body bytes of all of them.
    pub bytes: u64,
}

/// How a row's bodies are framed on its connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// HTTP/1.1 (every HTTP row but gRPC).
    Http1,
    /// HTTP/2 (gRPC): the body is the DATA frames' payload (for gRPC, its 5-byte message prefix and
    /// the protobuf message).
    Http2,
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|i| i + from)
}

fn line(stream: &[u8], at: usize) -> Result<(&[u8], usize), String> {
    let end = find(stream, b"\r\n", at).ok_or_else(|| format!("no line end after byte {at}"))?;
    Ok((&stream[at..end], end + 2))
}

/// The HTTP/1.1 messages of one direction of a connection: requests when `responses` is false.
/// A response with neither `Content-Length` nor chunked encoding runs to the end of the stream;
/// a request without either has no body; 1xx, 204 and 304 responses have none.
pub fn http1(stream: &[u8], responses: bool) -> Result<Bodies, String> {
    let each = http1_messages(stream, responses)?;
    Ok(Bodies { messages: each.len(), bytes: each.iter().map(|m| m.1).sum() })
}

/// Each HTTP/1.1 message of one direction of a connection, in order, as [`http1`] reads them:
/// its bytes on the socket (start line, headers, framing and body) and its body's bytes.
pub fn http1_messages(stream: &[u8], responses: bool) -> Result<Vec<(u64, u64)>, String> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    let mut at = 0;
    while at < stream.len() {
        let begin = at;
        let mut body = 0u64;
        let head_end = find(stream, b"\r\n\r\n", at).ok_or_else(|| format!("a header without its end at byte {at}"))?;
        let head =
            std::str::from_utf8(&stream[at..head_end]).map_err(|_| format!("a header at byte {at} is not text"))?;
        let mut lines = head.split("\r\n");
        let start = lines.next().unwrap_or_default();
        let (mut length, mut chunked) = (None, false);
        for h in lines {
            let Some((name, value)) = h.split_once(':') else { return Err(format!("header line {h:?}")) };
            let value = value.trim();
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = Some(value.parse::<usize>().map_err(|_| format!("Content-Length {value:?}"))?);
            } else if name.trim().eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.to_ascii_lowercase().contains("chunked");
            }
        }
        at = head_end + 4;
        let status = if responses {
            let code = start.split_whitespace().nth(1).unwrap_or_default();
            Some(code.parse::<u16>().map_err(|_| format!("status line {start:?}"))?)
        } else {
            None
        };
        if status.is_some_and(|s| (100..200).contains(&s) || s == 204 || s == 304) {
            out.push(((at - begin) as u64, 0));
            continue;
        }
        if chunked {
            loop {
                let (size_line, next) = line(stream, at)?;
                let size = std::str::from_utf8(size_line).ok().and_then(|l| l.split(';').next());
                let size = size
                    .and_then(|s| usize::from_str_radix(s.trim(), 16).ok())
                    .ok_or_else(|| format!("chunk size {:?}", String::from_utf8_lossy(size_line)))?;
                at = next;
                if size == 0 {
                    // trailers, up to the empty line
                    loop {
                        let (trailer, next) = line(stream, at)?;
                        at = next;
                        if trailer.is_empty() {
                            break;
                        }
                    }
                    break;
                }
                if stream.len() < at + size + 2 || &stream[at + size..at + size + 2] != b"\r\n" {
                    return Err(format!("a chunk of {size} bytes at byte {at} is cut short"));
                }
                body += size as u64;
                at += size + 2;
            }
        } else if let Some(n) = length {
            if stream.len() < at + n {
                return Err(format!("a body of {n} bytes at byte {at} is cut short"));
            }
            body += n as u64;
            at += n;
        } else if status.is_some() {
            body += (stream.len() - at) as u64;
            at = stream.len();
        }
        out.push(((at - begin) as u64, body));
    }
    Ok(out)
}

/// The HTTP/2 frames of one direction of a connection (the client's preface skipped): the DATA
/// frames' payload, padding excluded.
pub fn http2(stream: &[u8]) -> Result<Bodies, String> {
    const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    let mut at = if stream.starts_with(PREFACE) { PREFACE.len() } else { 0 };
    let mut out = Bodies::default();
    while at < stream.len() {
        let Some(h) = stream.get(at..at + 9) else { return Err(format!("a frame header cut short at byte {at}")) };
        let len = (usize::from(h[0]) << 16) | (usize::from(h[1]) << 8) | usize::from(h[2]);
        let (kind, flags) = (h[3], h[4]);
        let Some(payload) = stream.get(at + 9..at + 9 + len) else {
            return Err(format!("a frame of {len} bytes cut short at byte {at}"));
        };
        if kind == 0 {
            // DATA; PADDED (0x8): a pad length byte, then the data, then that many bytes of padding
            let data = if flags & 0x8 != 0 {
                let pad = usize::from(*payload.first().ok_or("a padded DATA frame without its pad length")?);
                len.checked_sub(1 + pad).ok_or("DATA padding longer than the frame")?
            } else {
                len
            };
            out.messages += 1;
            out.bytes += data as u64;
        }
        at += 9 + len;
    }
    Ok(out)
}

/// The body bytes of every recorded connection in each direction: (client → server,
/// server → client).
pub fn bodies(taps: &[Tap], framing: Framing) -> Result<(Bodies, Bodies), String> {
    let (mut up, mut down) = (Bodies::default(), Bodies::default());
    for (i, t) in taps.iter().enumerate() {
        let (u, d) = match framing {
            Framing::Http1 => (http1(&t.up, false), http1(&t.down, true)),
            Framing::Http2 => (http2(&t.up), http2(&t.down)),
        };
        let (u, d) = (
            u.map_err(|e| format!("connection {}, requests: {e}", i + 1))?,
            d.map_err(|e| format!("connection {}, replies: {e}", i + 1))?,
        );
        up.messages += u.messages;
        up.bytes += u.bytes;
        down.messages += d.messages;
        down.bytes += d.bytes;
    }
    Ok((up, down))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http1_messages_one_by_one() {
        let requests =
            b"POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloPOST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi";
        let each = http1_messages(requests, false).unwrap_or_default();
        assert_eq!(each, [(44, 5), (41, 2)]);
        assert_eq!(each.iter().map(|m| m.0).sum::<u64>(), requests.len() as u64);
        let replies =
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
        let each = http1_messages(replies, true).unwrap_or_default();
        assert_eq!(each, [(25, 0), (replies.len() as u64 - 25, 3)]);
        assert!(http1_messages(b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nshort", false).is_err());
    }

    #[test]
    fn http1_bodies_by_length_and_by_chunks() {
        let requests = b"POST /bench HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\n\r\n\
POST /bench HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nX-T: 1\r\n\r\n";
        assert_eq!(http1(requests, false), Ok(Bodies { messages: 3, bytes: 5 + 3 + 16 }));
        let replies = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 204 No Content\r\n\r\n\
HTTP/1.1 200 OK\r\n\r\nto the end";
        assert_eq!(http1(replies, true), Ok(Bodies { messages: 4, bytes: 2 + 10 }));
        assert!(http1(b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nshort", false).is_err());
        assert!(http1(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", true).is_err());
        assert!(http1(b"POST / HTTP/1.1\r\nHost", false).is_err());
        assert_eq!(http1(b"", true), Ok(Bodies::default()));
    }

    #[test]
    fn http2_data_payloads_without_padding() {
        let mut s = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
        s.extend([0, 0, 0, 4, 0, 0, 0, 0, 0]); // SETTINGS, empty
        s.extend([0, 0, 3, 0, 0, 0, 0, 0, 1, b'a', b'b', b'c']); // DATA, 3 bytes
        s.extend([0, 0, 6, 0, 0x9, 0, 0, 0, 1, 2, b'x', b'y', b'z', 0, 0]); // DATA padded: 3 bytes + 2 pad
        s.extend([0, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 1, 0]); // WINDOW_UPDATE
        assert_eq!(http2(&s), Ok(Bodies { messages: 2, bytes: 6 }));
        assert!(http2(&s[..s.len() - 1]).is_err());
    }

    #[test]
    fn bodies_of_several_connections_add_up() {
        let taps = [
            Tap { up: b"POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\nq".to_vec(), down: Vec::new() },
            Tap {
                up: b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nqq".to_vec(),
                down: b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nrrr".to_vec(),
            },
        ];
        let (up, down) = bodies(&taps, Framing::Http1).expect("parsed");
        assert_eq!((up, down), (Bodies { messages: 2, bytes: 3 }, Bodies { messages: 1, bytes: 3 }));
        let bad = [Tap { up: b"POST".to_vec(), down: Vec::new() }];
        assert!(bodies(&bad, Framing::Http1).is_err_and(|e| e.contains("connection 1, requests")));
    }
}
