//! The three wire protocols, detection of a request's protocol from its first bytes, and the
//! envelope codec used by both the server and the client.
//!
//! | request starts with | call decoded as | reply written as |
//! |---|---|---|
//! | `H 2 0 C` (or a bare `C`) | Hessian 2 | Hessian 2 |
//! | `c 1 0` | Hessian 1 | Hessian 1 |
//! | `c 2 0` (what Java's `HessianProxyFactory` sends by default) | Hessian 1 | Hessian 2 |
//! | `<` after optional XML whitespace | Burlap | Burlap |

use hessian::{Call, Limits, Reply, Value};

/// The wire formats are the codec's: [`hessian::Format`] (Hessian 2, Hessian 1, Burlap).
pub use hessian::Format;

/// The `Content-Type` Caucho's proxies send for a format (`BurlapProxy` sends `text/xml`).
pub fn content_type(format: Format) -> &'static str {
    match format {
        Format::Hessian2 | Format::Hessian1 => "x-application/hessian",
        Format::Burlap => "text/xml",
    }
}

/// How one exchange is spoken: the protocol of the call and the protocol of the reply. They
/// differ only for the Hessian 1 call with major version 2 (`c 2 0`), which asks for a Hessian 2
/// reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dialect {
    /// The protocol the call is written in.
    pub call: Format,
    /// The protocol the reply is written in.
    pub reply: Format,
}

impl Dialect {
    /// Hessian 2 both ways.
    pub const HESSIAN2: Dialect = Dialect { call: Format::Hessian2, reply: Format::Hessian2 };
    /// Hessian 1 both ways.
    pub const HESSIAN1: Dialect = Dialect { call: Format::Hessian1, reply: Format::Hessian1 };
    /// Java's default: a Hessian 1 call with version 2 (`c 2 0`), answered in Hessian 2.
    pub const HYBRID: Dialect = Dialect { call: Format::Hessian1, reply: Format::Hessian2 };
    /// Burlap both ways.
    pub const BURLAP: Dialect = Dialect { call: Format::Burlap, reply: Format::Burlap };

    /// The major version a Hessian 1 call's header carries in this dialect: 2 for the hybrid
    /// (asking for a Hessian 2 reply), 1 otherwise.
    pub fn call_major(self) -> u8 {
        if self.call == Format::Hessian1 && self.reply == Format::Hessian2 {
            2
        } else {
            1
        }
    }

    /// Detects the dialect of a call from its first bytes, or `None` if they match no protocol.
    /// The format comes from [`hessian::detect`] (the rules shared with the `hessian` tool); a
    /// call must moreover start like one: `H` (or the 2.0 draft's bare `C`), `c`, or XML.
    pub fn detect(body: &[u8]) -> Option<Dialect> {
        let first = *body.first()?;
        match hessian::detect::detect(body)? {
            hessian::Format::Hessian2 if matches!(first, b'H' | b'C') => Some(Dialect::HESSIAN2),
            hessian::Format::Hessian1 if first == b'c' => match body.get(1) {
                Some(&major) if major >= 2 => Some(Dialect::HYBRID),
                _ => Some(Dialect::HESSIAN1),
            },
            hessian::Format::Burlap => Some(Dialect::BURLAP),
            _ => None,
        }
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.call == self.reply {
            write!(f, "{}", self.call)
        } else {
            write!(f, "{} call (version 2 header), {} reply", self.call, self.reply)
        }
    }
}

/// Gives a value decoded from Hessian 1 or Burlap the shape Hessian 2 gives the same Java data
/// (objects instead of typed maps of field names), so that handlers and callers see one shape
/// whatever the protocol. Each value is converted on its own: a back reference from one
/// argument into another is not renumbered.
pub(crate) fn h2_shape(protocol: Format, v: Value) -> Value {
    match protocol {
        Format::Hessian2 => v,
        Format::Hessian1 | Format::Burlap => hessian::convert::to_h2(&v),
    }
}

fn h2_shape_reply(protocol: Format, reply: Reply) -> Reply {
    match reply {
        Ok(v) => Ok(h2_shape(protocol, v)),
        Err(mut f) => {
            f.detail = f.detail.map(|d| h2_shape(protocol, d));
            Err(f)
        }
    }
}

/// Decodes a call written in `dialect.call` ([`hessian::message::call_from_slice`]). Arguments
/// (and headers) of Hessian 1 and Burlap calls are given the Hessian 2 shape (see the module
/// documentation of `hessian::convert`).
pub fn decode_call(dialect: Dialect, body: &[u8], limits: Limits) -> Result<Call, hessian::Error> {
    let mut call = hessian::message::call_from_slice(dialect.call, body, limits)?;
    if dialect.call != Format::Hessian2 {
        call.args = call.args.into_iter().map(|a| h2_shape(dialect.call, a)).collect();
        call.headers = call.headers.into_iter().map(|(k, v)| (k, h2_shape(dialect.call, v))).collect();
    }
    Ok(call)
}

/// Encodes a call in `dialect` (for the hybrid, a Hessian 1 call with version 2).
pub fn encode_call(dialect: Dialect, call: &Call) -> Result<Vec<u8>, hessian::Error> {
    match (dialect.call, dialect.reply) {
        (Format::Hessian1, Format::Hessian2) => hessian::h1::call_to_vec_versioned(call, 2),
        (format, _) => hessian::message::call_to_vec(format, call),
    }
}

/// Encodes a reply (value or fault) in `protocol` ([`hessian::message::reply_to_vec`]).
///
/// A fault's detail numbers its references as in a Hessian 2 fault (whose map is reference 0,
/// [`fault::exception_detail`](crate::fault::exception_detail)); in Hessian 1 and Burlap they
/// are renumbered from the detail itself.
pub fn encode_reply(protocol: Format, reply: &Reply) -> Result<Vec<u8>, hessian::Error> {
    match reply {
        Err(f) if protocol != Format::Hessian2 && f.detail.as_ref().is_some_and(has_refs) => {
            let mut f = f.clone();
            if let Some(d) = f.detail.as_mut() {
                crate::fault::rebase_refs(d);
            }
            hessian::message::reply_to_vec(protocol, &Err(f))
        }
        _ => hessian::message::reply_to_vec(protocol, reply),
    }
}

fn has_refs(v: &Value) -> bool {
    match v {
        Value::Ref(_) => true,
        Value::List(l) => l.items.iter().any(has_refs),
        Value::Map(m) => m.entries.iter().any(|(k, x)| has_refs(k) || has_refs(x)),
        Value::Object(o) => o.fields.iter().any(has_refs),
        _ => false,
    }
}

/// Decodes a reply written in `protocol` ([`hessian::message::reply_from_slice`]); Hessian 1 and
/// Burlap values (and fault details) are given the Hessian 2 shape.
pub fn decode_reply(protocol: Format, body: &[u8], limits: Limits) -> Result<Reply, hessian::Error> {
    let reply = hessian::message::reply_from_slice(protocol, body, limits)?;
    Ok(if protocol == Format::Hessian2 { reply } else { h2_shape_reply(protocol, reply) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exception_with_a_cause_reads_back_in_every_protocol() {
        use crate::fault::{IntoFault, RemoteFault};
        use crate::ServiceError;
        #[derive(serde::Serialize)]
        #[serde(rename = "com.acme.StockException")]
        struct Stock {
            requested: i32,
            tags: Vec<String>,
        }
        let e = ServiceError::new("com.acme.StockException", "a < b")
            .with_detail(&Stock { requested: -3, tags: vec!["x".into()] })
            .unwrap()
            .with_cause(ServiceError::illegal_argument("negative"));
        let fault = e.into_fault();
        assert_eq!(fault.message(), Some("a &lt; b"));
        for protocol in [Format::Hessian2, Format::Hessian1, Format::Burlap] {
            let bytes = encode_reply(protocol, &Err(fault.clone())).unwrap();
            let Err(f) = decode_reply(protocol, &bytes, Limits::default()).unwrap() else { panic!("{protocol:?}") };
            let remote = RemoteFault::of(f, protocol);
            let java = remote.exception().unwrap_or_else(|e| panic!("{protocol:?}: {e}"));
            let chain: Vec<_> = java.chain().map(|x| (x.class.as_str(), x.message.as_deref())).collect();
            assert_eq!(
                chain,
                [("com.acme.StockException", Some("a < b")), ("java.lang.IllegalArgumentException", Some("negative"))],
                "{protocol:?}"
            );
        }
    }

    #[test]
    fn detects_each_protocol() {
        assert_eq!(Dialect::detect(b"H\x02\x00C"), Some(Dialect::HESSIAN2));
        assert_eq!(Dialect::detect(b"c\x01\x00m"), Some(Dialect::HESSIAN1));
        assert_eq!(Dialect::detect(b"c\x02\x00m"), Some(Dialect::HYBRID));
        assert_eq!(Dialect::detect(b" \n<burlap:call>"), Some(Dialect::BURLAP));
        assert_eq!(Dialect::detect(b""), None);
        assert_eq!(Dialect::detect(b"GET /"), None);
        assert_eq!(Dialect::detect(b"H"), Some(Dialect::HESSIAN2), "a truncated call still gets a fault");
        assert_eq!(Dialect::detect(b"c"), Some(Dialect::HESSIAN1));
        assert_eq!(Dialect::detect(b"I\x00\x00\x00\x01"), None, "a bare value is no call");
    }
}
