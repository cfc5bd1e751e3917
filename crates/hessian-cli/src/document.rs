//! What one input holds: a bare value, several values written one after another, or a whole
//! message (call, reply, fault), and its typed-JSON form (`docs/typed-json.md`, section 5).

use hessian::json::{self, JsonError, JsonErrorKind};
use hessian::Value;
use serde_json::{Map as JsonMap, Value as Json};

/// The contents of one Hessian input: a bare value, a stream of values, or a message envelope.
#[derive(Debug, Clone, PartialEq)]
pub enum Document {
    /// A bare value, no envelope.
    Value(Value),
    /// Several bare values written one after another through one writer (one `Hessian2Output`):
    /// class definitions, type names and value references carry over from value to value.
    Stream(Vec<Value>),
    /// A call: `H 2 0 C method argc arg*`, or Hessian 1's `c major minor (H header)* m method
    /// arg* z`. References and class definitions are shared by all arguments (one table for the
    /// whole message).
    Call {
        /// The method name as written on the wire (possibly mangled, e.g. `add__2`).
        method: String,
        /// The arguments, in order.
        args: Vec<Value>,
        /// Call headers (Hessian 1 only), in wire order.
        headers: Vec<(String, Value)>,
        /// The `major, minor` bytes of a Hessian 1 call header (`None`: the format's default,
        /// `c 1 0`). Java writes `c 2 0` for the hybrid call of `HessianProxyFactory` and
        /// `c 0 1` from the no-argument `startCall()`.
        version: Option<[u8; 2]>,
    },
    /// A reply: `H 2 0 R value`.
    Reply(Value),
    /// A fault: `H 2 0 F map` (Java writes a map with `code`, `message` and optional `detail`).
    Fault(Value),
}

impl Document {
    /// The typed-JSON form: a value as [`json::to_json`] writes it, `{"stream": [v1, v2, ...]}`,
    /// or a message object (`{"call": "m", "args": [...]}`, `{"reply": v}`, `{"fault": v}`).
    pub fn to_json(&self) -> Json {
        let mut m = JsonMap::new();
        match self {
            Document::Value(v) => return json::to_json(v),
            Document::Stream(vs) => {
                m.insert("stream".into(), Json::Array(vs.iter().map(json::to_json).collect()));
            }
            Document::Call { method, args, headers, version } => {
                m.insert("call".into(), Json::String(method.clone()));
                m.insert("args".into(), Json::Array(args.iter().map(json::to_json).collect()));
                if !headers.is_empty() {
                    let entries = headers.iter().map(|(k, v)| (Value::string(k.clone()), v.clone())).collect();
                    m.insert("headers".into(), json::to_json(&Value::map(entries)));
                }
                if let Some(v) = version {
                    m.insert("version".into(), Json::Array(v.iter().map(|b| Json::from(*b)).collect()));
                }
            }
            Document::Reply(v) => {
                m.insert("reply".into(), json::to_json(v));
            }
            Document::Fault(v) => {
                m.insert("fault".into(), json::to_json(v));
            }
        }
        Json::Object(m)
    }

    /// Reads a document: an object with a document tag (`call`, `reply`, `fault`, `stream`) is a
    /// message or a stream, anything else a value.
    pub fn from_json(j: &Json) -> Result<Document, JsonError> {
        let Json::Object(m) = j else { return json::from_json(j).map(Document::Value) };
        let tag = json::DOCUMENT_TAGS.iter().copied().find(|t| m.contains_key(*t));
        let Some(tag) = tag else { return json::from_json(j).map(Document::Value) };
        for k in m.keys() {
            let allowed = k == tag || (tag == "call" && matches!(k.as_str(), "args" | "headers" | "version"));
            if !allowed {
                return Err(if json::TAG_KEYS.contains(&k.as_str()) {
                    JsonError::new(JsonErrorKind::ConflictingTags(tag.into(), k.clone()))
                } else {
                    JsonError::new(JsonErrorKind::UnexpectedKey { tag, key: k.clone() })
                });
            }
        }
        let body = &m[tag];
        let at = |e: JsonError| e.at(format!(".{tag}"));
        let values = |j: &Json, expected: &'static str| match j {
            Json::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, v)| json::from_json(v).map_err(|e| e.at(format!("[{i}]"))))
                .collect::<Result<Vec<_>, _>>(),
            other => Err(JsonError::new(JsonErrorKind::InvalidType { expected, found: json::json_type_name(other) })),
        };
        Ok(match tag {
            "call" => {
                let method = match body {
                    Json::String(s) => s.clone(),
                    other => {
                        return Err(at(JsonError::new(JsonErrorKind::InvalidType {
                            expected: "a method name string",
                            found: json::json_type_name(other),
                        })))
                    }
                };
                let args = match m.get("args") {
                    None => Vec::new(),
                    Some(a) => values(a, "an array of arguments").map_err(|e| e.at(".args"))?,
                };
                let headers = match m.get("headers") {
                    None => Vec::new(),
                    Some(h) => headers_from_json(h).map_err(|e| e.at(".headers"))?,
                };
                let version = match m.get("version") {
                    None | Some(Json::Null) => None,
                    Some(v) => Some(version_from_json(v).map_err(|e| e.at(".version"))?),
                };
                Document::Call { method, args, headers, version }
            }
            "stream" => Document::Stream(values(body, "an array of values").map_err(at)?),
            "reply" => Document::Reply(json::from_json(body).map_err(at)?),
            _ => Document::Fault(json::from_json(body).map_err(at)?),
        })
    }
}

/// Call headers: a map with string keys in any typed-JSON form.
fn headers_from_json(j: &Json) -> Result<Vec<(String, Value)>, JsonError> {
    let bad = |found| JsonError::new(JsonErrorKind::InvalidType { expected: "a map with string keys", found });
    match json::from_json(j)? {
        Value::Map(m) if m.type_name.is_none() => m
            .entries
            .into_iter()
            .map(|(k, v)| match k {
                Value::String(k) => Ok((k, v)),
                other => Err(bad(other.kind_name())),
            })
            .collect(),
        other => Err(bad(other.kind_name())),
    }
}

/// `[major, minor]`, two integers in 0..=255.
fn version_from_json(j: &Json) -> Result<[u8; 2], JsonError> {
    let byte = |v: &Json| v.as_u64().and_then(|b| u8::try_from(b).ok());
    match j {
        Json::Array(a) if a.len() == 2 => match (byte(&a[0]), byte(&a[1])) {
            (Some(major), Some(minor)) => Ok([major, minor]),
            _ => Err(JsonError::new(JsonErrorKind::InvalidType { expected: "two integers 0..=255", found: "other" })),
        },
        other => Err(JsonError::new(JsonErrorKind::InvalidType {
            expected: "[major, minor]",
            found: json::json_type_name(other),
        })),
    }
}

/// Hessian 2.0 envelopes, as Caucho 4.0.38's `Hessian2Output` writes them.
pub mod h2 {
    use super::Document;
    use hessian::h2::codes::{BC_CALL, BC_FAULT, BC_REPLY, BC_VERSION};
    use hessian::h2::{Decoder, Encoder};
    use hessian::{Error, ErrorKind, Result};

    /// The message header `H 2 0`.
    pub const VERSION_HEADER: [u8; 3] = [BC_VERSION, 2, 0];

    /// Whether `data` starts with the Hessian 2 message header. (`H` is also the untyped-map
    /// code; a bare map whose first key is a two-unit string starting with U+0000 would look the
    /// same, and is read as a message.)
    pub fn is_message(data: &[u8]) -> bool {
        data.starts_with(&VERSION_HEADER)
    }

    /// Fails on a Hessian 1 style envelope (`c 01 00`, `c 02 00`, `r 01 00`, …), which no
    /// Hessian 2 value can start with sensibly, with an error that names the right format.
    pub fn reject_hessian1(data: &[u8]) -> Result<()> {
        match data {
            [b'c' | b'r', 1 | 2, 0, ..] => {
                Err(Error::new(ErrorKind::Malformed("a Hessian 1 style call/reply header (use --format h1)".into()), 0))
            }
            _ => Ok(()),
        }
    }

    /// Decodes a message when the input starts with `H 2 0` (trailing bytes are an error),
    /// otherwise every value up to the end of the input: one value is a [`Document::Value`],
    /// several a [`Document::Stream`] (read with one set of tables, as one writer wrote them).
    pub fn decode(data: &[u8]) -> Result<Document> {
        let mut d = Decoder::from_slice(data);
        if !is_message(data) {
            reject_hessian1(data)?;
            let mut values = vec![d.read_value()?];
            while d.peek_code()?.is_some() {
                values.push(d.read_value()?);
            }
            return Ok(if values.len() == 1 { Document::Value(values.remove(0)) } else { Document::Stream(values) });
        }
        for _ in VERSION_HEADER {
            d.read_code()?;
        }
        let code = d.read_code()?;
        let doc = match code {
            BC_CALL => {
                let method = d.read_string()?;
                let at = d.offset();
                let n = d.read_int()?;
                let n = usize::try_from(n)
                    .map_err(|_| Error::new(ErrorKind::Malformed(format!("negative argument count {n}")), at))?;
                let mut args = Vec::with_capacity(n.min(64));
                for _ in 0..n {
                    args.push(d.read_value()?);
                }
                Document::Call { method, args, headers: Vec::new(), version: None }
            }
            BC_REPLY => Document::Reply(d.read_value()?),
            BC_FAULT => Document::Fault(d.read_value()?),
            other => {
                return Err(Error::new(
                    ErrorKind::UnexpectedCode { code: other, context: "message (expected C, R or F after H 2 0)" },
                    d.offset() - 1,
                ))
            }
        };
        d.end()?;
        Ok(doc)
    }

    /// Encodes a document exactly as `Hessian2Output` would (`call`, `startReply` + `writeObject`,
    /// `writeFault`'s layout for a fault map).
    pub fn encode(doc: &Document) -> Result<Vec<u8>> {
        let mut e = Encoder::new(Vec::new());
        match doc {
            Document::Value(v) => e.write_value(v)?,
            Document::Stream(vs) => {
                for v in vs {
                    e.write_value(v)?;
                }
            }
            Document::Call { method, args, headers, version } => {
                if !headers.is_empty() {
                    return Err(Error::new(
                        ErrorKind::Unencodable(
                            "Hessian 2 calls carry no headers (use --format h1 or --format burlap)".into(),
                        ),
                        0,
                    ));
                }
                if version.is_some_and(|v| v != [2, 0]) {
                    return Err(Error::new(
                        ErrorKind::Unencodable("a call version other than 2.0 is Hessian 1 (use --format h1)".into()),
                        0,
                    ));
                }
                e.write_raw(&VERSION_HEADER)?;
                e.write_raw(&[BC_CALL])?;
                e.write_str(method)?;
                let n = i32::try_from(args.len()).map_err(|_| {
                    Error::new(ErrorKind::Unencodable("more than 2^31-1 arguments".into()), e.position())
                })?;
                e.write_int(n)?;
                for a in args {
                    e.write_value(a)?;
                }
            }
            Document::Reply(v) => {
                e.write_raw(&VERSION_HEADER)?;
                e.write_raw(&[BC_REPLY])?;
                e.write_value(v)?;
            }
            Document::Fault(v) => {
                e.write_raw(&VERSION_HEADER)?;
                e.write_raw(&[BC_FAULT])?;
                e.write_value(v)?;
            }
        }
        e.finish()
    }
}

/// Hessian 1.0.2 envelopes, as Caucho 4.0.38's `HessianOutput` writes them.
pub mod h1 {
    use super::Document;
    use hessian::h1::codes::{BC_CALL, BC_END, BC_FAULT, BC_HEADER, BC_METHOD, BC_REPLY, MAJOR, MINOR};
    use hessian::h1::{Decoder, Encoder};
    use hessian::read::{finish_str, Read as _, SliceRead};
    use hessian::{Error, ErrorKind, Result, Value};

    /// Whether `data` starts like a call (`c major minor`) or a reply (`r major minor`) rather
    /// than a value (a bare remote starts `r t`).
    pub fn is_envelope(data: &[u8]) -> bool {
        hessian::detect::is_hessian1_envelope(data)
    }

    fn next<'a>(d: &mut Decoder<'a, SliceRead<'a>>) -> Result<u8> {
        d.reader().next()
    }

    fn expect<'a>(d: &mut Decoder<'a, SliceRead<'a>>, want: u8, context: &'static str) -> Result<()> {
        let at = d.offset();
        match next(d)? {
            c if c == want => Ok(()),
            code => Err(Error::new(ErrorKind::UnexpectedCode { code, context }, at)),
        }
    }

    /// A length-prefixed name (`len16 utf8`), as methods and headers are written.
    fn len_str<'a>(d: &mut Decoder<'a, SliceRead<'a>>) -> Result<String> {
        let len = (usize::from(next(d)?) << 8) | usize::from(next(d)?);
        let available = d.reader().remaining().unwrap_or(0);
        if len as u64 > available {
            return Err(Error::new(ErrorKind::LengthPastEnd { declared: len as u64, available }, d.offset()));
        }
        let mut s = String::new();
        let mut pending = None;
        d.reader().append_str(len, &mut s, &mut pending)?;
        finish_str(pending, d.offset())?;
        Ok(s)
    }

    /// Decodes a call or reply envelope, or one bare value. A fault reply (`r 1 0 f … z z`)
    /// becomes a [`Document::Fault`] holding its entries as an untyped map.
    pub fn decode(data: &[u8]) -> Result<Document> {
        if !is_envelope(data) {
            return hessian::h1::from_slice(data).map(Document::Value);
        }
        let mut d = Decoder::from_slice(data);
        let kind = next(&mut d)?;
        let version = [next(&mut d)?, next(&mut d)?];
        let doc = if kind == BC_CALL {
            let mut headers = Vec::new();
            let method = loop {
                let at = d.offset();
                match next(&mut d)? {
                    BC_HEADER => {
                        let name = len_str(&mut d)?;
                        headers.push((name, d.read_value()?));
                    }
                    BC_METHOD => break len_str(&mut d)?,
                    code => {
                        return Err(Error::new(
                            ErrorKind::UnexpectedCode { code, context: "call header or method" },
                            at,
                        ))
                    }
                }
            };
            let mut args = Vec::new();
            loop {
                let c = next(&mut d)?;
                if c == BC_END {
                    break;
                }
                args.push(d.parse_value(c)?);
            }
            let version = (version != [MAJOR, MINOR]).then_some(version);
            Document::Call { method, args, headers, version }
        } else {
            let at = d.offset();
            match next(&mut d)? {
                BC_FAULT => {
                    let mut entries = Vec::new();
                    loop {
                        let c = next(&mut d)?;
                        if c == BC_END {
                            break;
                        }
                        let k = d.parse_value(c)?;
                        entries.push((k, d.read_value()?));
                    }
                    expect(&mut d, BC_END, "end of reply")?;
                    Document::Fault(Value::map(entries))
                }
                BC_HEADER => {
                    return Err(Error::new(ErrorKind::Malformed("reply headers are not supported".into()), at));
                }
                c => {
                    let v = d.parse_value(c)?;
                    expect(&mut d, BC_END, "end of reply")?;
                    Document::Reply(v)
                }
            }
        };
        d.end()?;
        Ok(doc)
    }

    /// Encodes a document as `HessianOutput` writes it: `c major minor` (default `c 1 0`),
    /// headers, `m method`, arguments, `z`; `r 1 0 value z`; a fault `r 1 0 f entries z z`.
    /// Streams are the caller's business (they are not a Hessian 1 construct).
    pub fn encode(doc: &Document) -> Result<Vec<u8>> {
        let mut e = Encoder::new(Vec::new());
        match doc {
            Document::Value(v) => e.write_value(v)?,
            Document::Stream(vs) => {
                for v in vs {
                    e.write_value(v)?;
                }
            }
            Document::Call { method, args, headers, version } => {
                let [major, minor] = version.unwrap_or([MAJOR, MINOR]);
                e.write_call_begin(major, minor)?;
                for (name, v) in headers {
                    e.write_header(name, v)?;
                }
                e.write_method(method)?;
                for a in args {
                    e.write_value(a)?;
                }
                e.write_call_end()?;
            }
            Document::Reply(v) => {
                e.write_raw(&[BC_REPLY, MAJOR, MINOR])?;
                e.write_value(v)?;
                e.write_raw(&[BC_END])?;
            }
            Document::Fault(Value::Map(m)) if m.type_name.is_none() => {
                e.write_raw(&[BC_REPLY, MAJOR, MINOR, BC_FAULT])?;
                for (k, v) in &m.entries {
                    e.write_value(k)?;
                    e.write_value(v)?;
                }
                e.write_raw(&[BC_END, BC_END])?;
            }
            Document::Fault(other) => {
                return Err(Error::new(
                    ErrorKind::Unencodable(format!("a Hessian 1 fault is an untyped map, not {}", other.kind_name())),
                    0,
                ))
            }
        }
        e.finish()
    }
}

/// Burlap 1.0 envelopes (`<burlap:call>`, `<burlap:reply>`), through the library's codec.
pub mod burlap {
    use super::Document;
    use hessian::message::Call;
    use hessian::{Error, ErrorKind, Result, Value};

    fn unencodable(why: String) -> Error {
        Error::new(ErrorKind::Unencodable(why), 0)
    }

    /// Whether the input is a `<burlap:call>` or `<burlap:reply>` element.
    pub fn envelope_kind(data: &[u8]) -> Option<&'static str> {
        let data = data.strip_prefix(b"\xef\xbb\xbf").unwrap_or(data);
        let start = data.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(data.len());
        let rest = &data[start..];
        if rest.starts_with(b"<burlap:call") {
            Some("call")
        } else if rest.starts_with(b"<burlap:reply") {
            Some("reply")
        } else {
            None
        }
    }

    /// Decodes a call, a reply (a fault becomes the untyped map of its entries, exactly as
    /// written) or a bare value.
    pub fn decode(data: &[u8]) -> Result<Document> {
        Ok(match envelope_kind(data) {
            Some("call") => {
                let Call { method, headers, args } =
                    hessian::burlap::call_from_slice(data, hessian::Limits::default())?;
                Document::Call { method, args, headers, version: None }
            }
            Some(_) => match hessian::burlap::reply_entries_from_slice(data, hessian::Limits::default())? {
                Ok(v) => Document::Reply(v),
                Err(entries) => Document::Fault(Value::map(entries)),
            },
            None => Document::Value(hessian::burlap::from_slice(data)?),
        })
    }

    /// Encodes a document as `BurlapOutput` writes it. A fault is an untyped map, written as
    /// `<burlap:reply><fault>` key value … `</fault></burlap:reply>` (`BurlapOutput.writeFault`
    /// writes `code`, `message` and optionally `detail`, in that order).
    pub fn encode(doc: &Document) -> Result<Vec<u8>> {
        match doc {
            Document::Value(v) => hessian::burlap::to_vec(v),
            Document::Stream(_) => Err(unencodable("Burlap has no streams of values".into())),
            Document::Call { method, args, headers, version } => {
                if version.is_some() {
                    return Err(unencodable("Burlap calls have no version bytes".into()));
                }
                let call = Call { method: method.clone(), headers: headers.clone(), args: args.clone() };
                hessian::burlap::call_to_vec(&call)
            }
            Document::Reply(v) => hessian::burlap::reply_to_vec(&Ok(v.clone())),
            Document::Fault(Value::Map(m)) if m.type_name.is_none() => {
                // The Burlap encoder keeps no state between values, so entry by entry is the
                // same as one encoder writing them all.
                let mut out = b"<burlap:reply><fault>".to_vec();
                for (k, v) in &m.entries {
                    hessian::burlap::to_writer(&mut out, k)?;
                    hessian::burlap::to_writer(&mut out, v)?;
                }
                out.extend_from_slice(b"</fault></burlap:reply>");
                Ok(out)
            }
            Document::Fault(other) => {
                Err(unencodable(format!("a Burlap fault is an untyped map, not {}", other.kind_name())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_round_trip() {
        let docs = [
            Document::Value(Value::Int(1)),
            Document::Call {
                method: "add2".into(),
                args: vec![Value::Int(1), Value::Int(2)],
                headers: vec![],
                version: None,
            },
            Document::Call { method: "none".into(), args: vec![], headers: vec![], version: None },
            Document::Reply(Value::list(vec![Value::Null])),
            Document::Stream(vec![
                Value::list(vec![Value::Int(1)]),
                Value::Ref(0),
                Value::typed_list("[int", vec![]),
                Value::typed_list("[int", vec![]),
            ]),
            Document::Fault(Value::map(vec![(Value::string("code"), Value::string("X"))])),
        ];
        for d in docs {
            let bytes = h2::encode(&d).unwrap();
            assert_eq!(h2::decode(&bytes).unwrap(), d);
            assert_eq!(Document::from_json(&d.to_json()).unwrap(), d);
        }
        assert_eq!(h2::encode(&Document::Reply(Value::Int(0))).unwrap(), b"H\x02\x00R\x90");
    }

    #[test]
    fn message_json_errors() {
        assert!(Document::from_json(&json!({"reply": 1, "call": "x"})).is_err());
        assert!(Document::from_json(&json!({"reply": 1, "args": []})).is_err());
        assert!(Document::from_json(&json!({"call": 1})).is_err());
        assert!(Document::from_json(&json!({"call": "m", "args": 1})).is_err());
        assert!(Document::from_json(&json!({"stream": {}})).is_err());
        assert_eq!(
            Document::from_json(&json!({"stream": [1, 2]})).unwrap().to_json(),
            json!({"stream": [{"int": 1}, {"int": 2}]})
        );
        assert_eq!(Document::from_json(&json!({"stream": [{"int": "x"}]})).unwrap_err().path(), "$.stream[0].int");
        let e = Document::from_json(&json!({"call": "m", "args": [1, {"int": "x"}]})).unwrap_err();
        assert_eq!(e.path(), "$.args[1].int");
    }
}
