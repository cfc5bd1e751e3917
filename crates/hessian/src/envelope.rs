//! The ground types of messages: the wire [`Format`] and the format-neutral call, reply and
//! fault envelopes. Every format's envelope reader and writer (`h2`, `h1`, `burlap`) uses them,
//! and the dispatch over formats above them ([`crate::message`], [`crate::detect`]) re-exports
//! them; this module imports nothing but values.

use crate::value::Value;

/// A wire format of the Hessian family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Hessian 2.0.
    Hessian2,
    /// Hessian 1.0.2.
    Hessian1,
    /// Burlap 1.0 (XML).
    Burlap,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Hessian2 => "Hessian 2",
            Format::Hessian1 => "Hessian 1",
            Format::Burlap => "Burlap",
        })
    }
}

/// A method call: the method name, optional headers and the positional arguments.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Call {
    /// The method name as it appears on the wire (Java overloads may append `__N`).
    pub method: String,
    /// Call headers (name, value), in wire order.
    pub headers: Vec<(String, Value)>,
    /// The arguments, in order.
    pub args: Vec<Value>,
}

impl Call {
    /// A call without headers.
    pub fn new(method: impl Into<String>, args: Vec<Value>) -> Self {
        Call { method: method.into(), headers: Vec::new(), args }
    }
}

/// The start of a call, up to its arguments, as every format's decoder reads it
/// (`h2::message::read_call_header`, `h1::Decoder::read_call_header`,
/// `burlap::Decoder::read_call_header`), so that a server can pick the method before it decodes
/// the arguments into the method's own types.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CallHeader {
    /// The method name as it appears on the wire.
    pub method: String,
    /// Call headers (Hessian 1 and Burlap only), in wire order.
    pub headers: Vec<(String, Value)>,
    /// The major version of the call's header: 2 for Hessian 2 and for the Hessian 1 call
    /// Java's proxy sends by default (`c 2 0`, answered in Hessian 2), 1 for a plain Hessian 1
    /// call, 1 for Burlap.
    pub major: u8,
    /// The number of arguments, where the format writes it (Hessian 2 only).
    pub argc: Option<usize>,
}

/// One element of a Hessian 1 or Burlap call before its arguments, as
/// `h1::Decoder::read_call_item` and `burlap::Decoder::read_call_item` read it: a call is read
/// piece by piece by tools that show where each piece lies (`hessian dump`). (Both formats are
/// frozen: the enum is complete.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallItem {
    /// A header's name; its value follows.
    Header(String),
    /// The method name; the arguments follow, up to the call's end.
    Method(String),
}

/// What comes next in a Hessian 1 or Burlap reply after its start, as
/// `h1::Decoder::read_reply_item` and `burlap::Decoder::read_reply_item` read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyItem {
    /// A header's name (consumed); its value follows.
    Header(String),
    /// A fault's start (consumed); its entries follow, up to the fault's end mark, then the
    /// reply's end.
    Fault,
    /// The reply's value (not consumed); the reply's end follows it.
    Value,
}

/// A fault (a remote exception): Hessian's `code`, `message` and optional `detail` entries.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Fault {
    /// The fault code, e.g. `ServiceException`, `NoSuchMethodException`, `ProtocolException`.
    pub code: String,
    /// The human-readable message; `None` when it is null on the wire (Java writes `N` for an
    /// exception whose `getMessage()` is null).
    pub message: Option<String>,
    /// The optional detail (Java sends the exception object, as a typed map or object).
    pub detail: Option<Value>,
}

impl Fault {
    /// A fault without detail.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Fault { code: code.into(), message: Some(message.into()), detail: None }
    }

    /// The message, `None` when it is null.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The fault as the map the wire carries (`code`, `message`, then `detail` when present).
    pub fn to_entries(&self) -> Vec<(Value, Value)> {
        let mut e = vec![
            (Value::string("code"), Value::string(self.code.clone())),
            (Value::string("message"), self.message.clone().map_or(Value::Null, Value::String)),
        ];
        if let Some(d) = &self.detail {
            e.push((Value::string("detail"), d.clone()));
        }
        e
    }

    /// Builds a fault from the entries of a fault map; unknown keys are ignored, a missing or
    /// non-string `code` becomes empty, a missing, null or non-string `message` `None`.
    pub fn from_entries(entries: Vec<(Value, Value)>) -> Self {
        let mut f = Fault::default();
        for (k, v) in entries {
            match (k.as_str(), v) {
                (Some("code"), Value::String(s)) => f.code = s,
                (Some("message"), Value::String(s)) => f.message = Some(s),
                (Some("detail"), v) => f.detail = Some(v),
                _ => {}
            }
        }
        f
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.message {
            Some(m) => write!(f, "{}: {m}", self.code),
            None => f.write_str(&self.code),
        }
    }
}

/// A reply: the returned value, or a fault.
pub type Reply = Result<Value, Fault>;

/// A reply whose fault is kept as the entries of the fault map exactly as written (every key,
/// in wire order, null or non-string values included), for tools that must give back the very
/// bytes they read. [`Fault`] is the typed view the RPC layer works with: it keeps a string
/// `code` and `message` and the `detail`, which is all Caucho's writers put in a fault.
pub type RawReply = Result<Value, Vec<(Value, Value)>>;
