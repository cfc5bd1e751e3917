//! One call seen by `hessian proxy`, and what the decoder makes of it: the dialect, the method,
//! the arguments and the reply or fault as typed JSON (`docs/typed-json.md`), the annotated
//! dumps, or, for a body that does not decode, its first bytes with the decoder's error and
//! offset. The decoding reuses the tool's own (`crate::format`, `crate::dump`).

use super::relay::Capture;
use super::type_maps::{Expanded, TypeMaps};
use crate::document::Document;
use crate::format::{codec, detect, CodecError, Format};
use hessian_rpc::negotiation::{OFFER_HEADER, TYPE_MAP_HEADER};
use hessian_rpc::Dialect;
use serde_json::{json, Value as Json};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Bytes of a body shown in hex in the JSON of an exchange.
const HEX_PREVIEW: usize = 256;
/// Longest annotated dump kept for the browser view.
const MAX_DUMP: usize = 256 * 1024;
/// Characters of arguments or reply shown on a call's line.
const LINE_JSON: usize = 160;

/// One request and its response as they went through.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// Sequence number, from 1.
    pub id: u64,
    /// When the request head arrived.
    pub started: SystemTime,
    /// The client's address.
    pub client: String,
    /// The request head, as received and forwarded.
    pub request_head: Vec<u8>,
    /// HTTP method.
    pub http_method: String,
    /// Request target (path and query).
    pub target: String,
    /// The request body's payload (the first `--max-capture` bytes).
    pub request: Capture,
    /// Whether the request carried a type-negotiation header (docs/negotiation.md).
    pub negotiating: bool,
    /// The final response head, as received and forwarded (`None`: no response from upstream).
    pub response_head: Option<Vec<u8>>,
    /// The status the client got (the proxy's own 502/504 when upstream failed).
    pub status: Option<u16>,
    /// The response body's payload (the first `--max-capture` bytes).
    pub reply: Capture,
    /// From the request head's arrival to the response's last byte.
    pub latency: Duration,
    /// What went wrong relaying, if anything (the client's 502/504, a connection cut short).
    pub error: Option<String>,
}

/// A decoded body, or why it does not decode.
#[derive(Debug, Clone)]
enum Body {
    /// Nothing to decode.
    Empty,
    /// A message or value, with the format that read it.
    Decoded(Format, Document),
    /// The decoder's error, with the offset it stopped at.
    Undecoded { message: String, offset: Option<u64> },
}

/// What the decoder makes of an exchange.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// `h2`, `h2.1`, `h1`, `hybrid` or `burlap`; `None` when the request is not a call.
    pub dialect: Option<&'static str>,
    request: Body,
    reply: Body,
    /// A referring request rebuilt with its type map's definitions.
    request_map: Option<Expanded>,
    /// A referring reply rebuilt with its type map's definitions.
    reply_map: Option<Expanded>,
}

/// The dialect's name as the tool spells it (`--protocol` of `hessian load`).
fn dialect_name(d: Dialect, negotiating: bool) -> &'static str {
    match d {
        Dialect::HESSIAN2 if negotiating => "h2.1",
        Dialect::HESSIAN2 => "h2",
        Dialect::HYBRID => "hybrid",
        Dialect::HESSIAN1 => "h1",
        _ => "burlap",
    }
}

fn decode_body(data: &[u8], total: u64, format: Option<Format>) -> Body {
    if total == 0 {
        return Body::Empty;
    }
    let decoded = match format {
        Some(f) => codec(f).decode(data).map(|d| (f, d)),
        None => detect(data),
    };
    match decoded {
        Ok((f, d)) => Body::Decoded(f, d),
        Err(e) => Body::Undecoded { offset: error_offset(&e), message: e.to_string() },
    }
}

/// Decodes one side, a Hessian 2.1 referring message through the map it names (`maps`).
fn decode_side(capture: &Capture, format: Option<Format>, maps: &TypeMaps) -> (Body, Option<Expanded>) {
    if capture.truncated {
        let message =
            format!("body of {} bytes: only the first {} were kept (--max-capture)", capture.total, capture.data.len());
        return (Body::Undecoded { message, offset: None }, None);
    }
    match maps.expand(&capture.data) {
        None => (decode_body(&capture.data, capture.total, format), None),
        Some(Ok(e)) => (decode_body(&e.plain, capture.total, Some(Format::H2)), Some(e)),
        // the digest starts at offset 5, after `H 02 01 T 30`
        Some(Err(message)) => (Body::Undecoded { message, offset: Some(5) }, None),
    }
}

fn error_offset(e: &CodecError) -> Option<u64> {
    match e {
        CodecError::Unreadable { tried } => tried.first().map(|(_, e)| e.offset()),
        CodecError::Undetected { .. } => Some(0),
        other => other.hessian().map(hessian::Error::offset),
    }
}

impl Exchange {
    /// Decodes the captured bodies (a capture cut at `--max-capture` is reported as such: its
    /// end is missing), referring messages through the type maps learned so far, and learns the
    /// maps the exchange's plain messages define.
    pub fn decode(&self, maps: &mut TypeMaps) -> Decoded {
        let call = Dialect::detect(&self.request.data);
        let negotiating = self.negotiating || hessian::negotiate::is_referring(&self.request.data);
        let (request, request_map) = decode_side(&self.request, call.map(|d| Format::from(d.call)), maps);
        let reply_format = match (&request, call) {
            (_, Some(d)) => Some(Format::from(d.reply)),
            (Body::Decoded(f, _), None) => Some(*f),
            _ => None,
        };
        let (reply, reply_map) = match decode_side(&self.reply, reply_format, maps) {
            // not the reply of the call's dialect (an error page, another format): any format
            (Body::Undecoded { .. }, None) if reply_format.is_some() && !self.reply.truncated => {
                (decode_body(&self.reply.data, self.reply.total, None), None)
            }
            other => other,
        };
        for c in [&self.request, &self.reply] {
            if !c.truncated {
                maps.learn(&c.data);
            }
        }
        Decoded { dialect: call.map(|d| dialect_name(d, negotiating)), request, reply, request_map, reply_map }
    }
}

impl Decoded {
    /// The plain messages the referring request and reply stand for (rebuilt with their type
    /// maps' definitions), when they were referring messages.
    pub fn plain_messages(&self) -> [Option<&[u8]>; 2] {
        [self.request_map.as_ref().map(|m| m.plain.as_slice()), self.reply_map.as_ref().map(|m| m.plain.as_slice())]
    }

    /// The called method, when the request is a call.
    pub fn method(&self) -> Option<&str> {
        match &self.request {
            Body::Decoded(_, Document::Call { method, .. }) => Some(method),
            _ => None,
        }
    }

    /// `reply`, `fault`, `error` (relaying failed or the reply does not decode), or `none`.
    pub fn outcome(&self, ex: &Exchange) -> &'static str {
        if ex.error.is_some() && ex.response_head.is_none() {
            return "error";
        }
        match &self.reply {
            Body::Decoded(_, Document::Fault(_)) => "fault",
            Body::Decoded(_, _) => "reply",
            Body::Undecoded { .. } => "error",
            Body::Empty => "none",
        }
    }
}

fn body_json(body: &Body, capture: &Capture, map: Option<&Expanded>) -> Json {
    let hex: String = capture.data.iter().take(HEX_PREVIEW).map(|b| format!("{b:02x}")).collect();
    let mut j = json!({
        "bytes": capture.total,
        "captured": capture.data.len(),
        "truncated": capture.truncated,
        "hex": hex,
    });
    if let Some(m) = map {
        j["type_map"] = json!(m.digest);
    }
    match body {
        Body::Empty => {}
        Body::Decoded(f, d) => {
            j["format"] = json!(f.to_string());
            j["json"] = d.to_json();
        }
        Body::Undecoded { message, offset } => {
            j["error"] = json!(message);
            j["offset"] = json!(offset);
        }
    }
    j
}

/// The annotated dump of a body (the trace so far and the error for a bad one), cut at
/// [`MAX_DUMP`].
fn dump_text(body: &Body, capture: &Capture, map: Option<&Expanded>) -> String {
    if let (Some(m), Body::Decoded(f, _)) = (map, body) {
        let mut out = format!(
            "Hessian 2.1 message referring to type map {}: the plain message it stands for, the map's \
             definitions put back (offsets are that message's)\n",
            m.digest
        );
        let mut trace = Vec::new();
        let r = codec(*f).dump(&m.plain, &mut trace);
        out.push_str(&String::from_utf8_lossy(&trace));
        if let Err(e) = r {
            out.push_str(&format!("error: {e}\n"));
        }
        return out;
    }
    let format = match body {
        Body::Empty => return String::new(),
        Body::Decoded(f, _) => *f,
        Body::Undecoded { .. } => match hessian::detect::detect(&capture.data) {
            Some(f) => f.into(),
            None => return String::new(),
        },
    };
    let mut out = Vec::new();
    let r = codec(format).dump(&capture.data, &mut out);
    let mut text = String::from_utf8_lossy(&out).into_owned();
    if let Err(e) = r {
        text.push_str(&format!("error: {e}\n"));
    }
    if text.len() > MAX_DUMP {
        let mut cut = MAX_DUMP;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("\n… (dump cut)\n");
    }
    text
}

fn millis(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or_default()
}

fn head_text(head: &[u8]) -> String {
    String::from_utf8_lossy(head).into_owned()
}

/// The exchange as one JSON object: what `--json` prints (`with_dumps` false) and what the
/// browser view shows (`with_dumps` true).
pub fn to_json(ex: &Exchange, d: &Decoded, with_dumps: bool) -> Json {
    let mut request = body_json(&d.request, &ex.request, d.request_map.as_ref());
    let mut reply = body_json(&d.reply, &ex.reply, d.reply_map.as_ref());
    request["head"] = json!(head_text(&ex.request_head));
    reply["head"] = json!(ex.response_head.as_deref().map(head_text));
    if with_dumps {
        request["dump"] = json!(dump_text(&d.request, &ex.request, d.request_map.as_ref()));
        reply["dump"] = json!(dump_text(&d.reply, &ex.reply, d.reply_map.as_ref()));
    }
    json!({
        "id": ex.id,
        "time_ms": millis(ex.started),
        "client": ex.client,
        "http_method": ex.http_method,
        "target": ex.target,
        "dialect": d.dialect,
        "method": d.method(),
        "status": ex.status,
        "outcome": d.outcome(ex),
        "latency_ms": (ex.latency.as_secs_f64() * 1e6).round() / 1e3,
        "error": ex.error,
        "request": request,
        "reply": reply,
    })
}

fn clip(s: String) -> String {
    if s.chars().count() <= LINE_JSON {
        return s;
    }
    let mut c: String = s.chars().take(LINE_JSON).collect();
    c.push('…');
    c
}

/// The one-line summary `hessian proxy` prints per call.
pub fn line(ex: &Exchange, d: &Decoded) -> String {
    let call = match &d.request {
        Body::Decoded(_, Document::Call { method, args, .. }) => {
            let args: Vec<String> = args.iter().map(|a| hessian::json::to_json(a).to_string()).collect();
            clip(format!("{method}({})", args.join(", ")))
        }
        Body::Decoded(_, _) => "(not a call)".into(),
        Body::Empty => format!("{} {} (no body)", ex.http_method, ex.target),
        Body::Undecoded { message, offset } => {
            format!("{} {} undecoded at offset {}: {message}", ex.http_method, ex.target, offset.unwrap_or_default())
        }
    };
    let result = match &d.reply {
        Body::Decoded(_, Document::Reply(v)) => clip(format!("-> {}", hessian::json::to_json(v))),
        Body::Decoded(_, Document::Fault(v)) => clip(format!("-> fault {}", hessian::json::to_json(v))),
        Body::Decoded(_, other) => clip(format!("-> {}", other.to_json())),
        Body::Empty => "-> (no body)".into(),
        Body::Undecoded { message, offset } => {
            format!("-> undecoded at offset {}: {message}", offset.unwrap_or_default())
        }
    };
    let status = ex.status.map_or("---".to_owned(), |s| s.to_string());
    let mut l = format!(
        "#{} {} {} {call} {result}  {status}  {} B / {} B  {:.2} ms",
        ex.id,
        d.dialect.unwrap_or("-"),
        ex.target,
        ex.request.total,
        ex.reply.total,
        ex.latency.as_secs_f64() * 1e3
    );
    if let Some(e) = &ex.error {
        l.push_str(&format!("  ({e})"));
    }
    l
}

/// Whether a request head carries a type-negotiation header.
pub fn negotiating(fields: &[(String, String)]) -> bool {
    fields.iter().any(|(n, _)| n == OFFER_HEADER || n == TYPE_MAP_HEADER)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange(request: &[u8], reply: &[u8]) -> Exchange {
        let cap = |b: &[u8]| {
            let mut c = Capture::new(1 << 20);
            c.data = b.to_vec();
            c.total = b.len() as u64;
            c
        };
        Exchange {
            id: 1,
            started: SystemTime::now(),
            client: "127.0.0.1:1".into(),
            request_head: b"POST /x HTTP/1.1\r\n\r\n".to_vec(),
            http_method: "POST".into(),
            target: "/x".into(),
            request: cap(request),
            negotiating: false,
            response_head: Some(b"HTTP/1.1 200 OK\r\n\r\n".to_vec()),
            status: Some(200),
            reply: cap(reply),
            latency: Duration::from_millis(3),
            error: None,
        }
    }

    #[test]
    fn a_hessian2_call_and_reply_decode_to_typed_json() {
        // H 2 0 C "add2" 2 1 2, then H 2 0 R 3
        let ex = exchange(b"H\x02\x00C\x04add2\x92\x91\x92", b"H\x02\x00R\x93");
        let d = ex.decode(&mut TypeMaps::default());
        assert_eq!((d.dialect, d.method(), d.outcome(&ex)), (Some("h2"), Some("add2"), "reply"));
        let j = to_json(&ex, &d, true);
        assert_eq!(j["request"]["json"], json!({"call": "add2", "args": [{"int": 1}, {"int": 2}]}));
        assert_eq!(j["reply"]["json"], json!({"reply": {"int": 3}}));
        assert!(j["request"]["dump"].as_str().unwrap().contains("add2"));
        let l = line(&ex, &d);
        assert!(l.contains(r#"add2({"int":1}, {"int":2}) -> {"int":3}  200"#), "{l}");
    }

    #[test]
    fn bad_bodies_show_error_and_offset() {
        let ex = exchange(b"H\x02\x00C\x04add2\x92\x91", b"<html>oops</html>");
        let d = ex.decode(&mut TypeMaps::default());
        let j = to_json(&ex, &d, true);
        assert_eq!(j["request"]["offset"], json!(11), "{j}");
        assert!(j["request"]["error"].as_str().is_some());
        assert_eq!(j["request"]["hex"], json!("480200430461646432 9291".replace(' ', "")));
        assert_eq!(d.outcome(&ex), "error");
        let garbage = exchange(b"\xff\xfe junk", b"");
        let d = garbage.decode(&mut TypeMaps::default());
        assert_eq!(d.dialect, None);
        assert!(line(&garbage, &d).contains("undecoded at offset 3: class definition"), "{}", line(&garbage, &d));
    }
}
