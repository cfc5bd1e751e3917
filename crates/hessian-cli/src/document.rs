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
    /// A call: `H 2 0 C method argc arg*`. References and class definitions are shared by all
    /// arguments (one table for the whole message).
    Call {
        /// The method name as written on the wire (possibly mangled, e.g. `add__2`).
        method: String,
        /// The arguments, in order.
        args: Vec<Value>,
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
            Document::Call { method, args } => {
                m.insert("call".into(), Json::String(method.clone()));
                m.insert("args".into(), Json::Array(args.iter().map(json::to_json).collect()));
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
            let allowed = k == tag || (tag == "call" && k == "args");
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
                Document::Call { method, args }
            }
            "stream" => Document::Stream(values(body, "an array of values").map_err(at)?),
            "reply" => Document::Reply(json::from_json(body).map_err(at)?),
            _ => Document::Fault(json::from_json(body).map_err(at)?),
        })
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
                Document::Call { method, args }
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
            Document::Call { method, args } => {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_round_trip() {
        let docs = [
            Document::Value(Value::Int(1)),
            Document::Call { method: "add2".into(), args: vec![Value::Int(1), Value::Int(2)] },
            Document::Call { method: "none".into(), args: vec![] },
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
