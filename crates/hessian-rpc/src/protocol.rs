//! The three wire protocols, detection of a request's protocol from its first bytes, and the
//! envelope codec used by both the server and the client.
//!
//! | request starts with | call decoded as | reply written as |
//! |---|---|---|
//! | `H 2 0 C` (or a bare `C`) | Hessian 2 | Hessian 2 |
//! | `c 1 0` | Hessian 1 | Hessian 1 |
//! | `c 2 0` (what Java's `HessianProxyFactory` sends by default) | Hessian 1 | Hessian 2 |
//! | `<` after optional XML whitespace | Burlap | Burlap |

use hessian::{Call, Limits, Reply};

/// A wire protocol of the Hessian family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Hessian 2.0 (`H 2 0 C …` / `H 2 0 R …`).
    Hessian2,
    /// Hessian 1.0.2 (`c 1 0 … z` / `r 1 0 … z`).
    Hessian1,
    /// Burlap 1.0 (`<burlap:call>` / `<burlap:reply>`).
    Burlap,
}

impl Protocol {
    /// The `Content-Type` Caucho's servlets and proxies use for this protocol.
    pub fn content_type(self) -> &'static str {
        match self {
            Protocol::Hessian2 | Protocol::Hessian1 => "x-application/hessian",
            Protocol::Burlap => "x-application/burlap",
        }
    }
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Protocol::Hessian2 => "Hessian 2",
            Protocol::Hessian1 => "Hessian 1",
            Protocol::Burlap => "Burlap",
        })
    }
}

/// How one exchange is spoken: the protocol of the call and the protocol of the reply. They
/// differ only for the Hessian 1 call with major version 2 (`c 2 0`), which asks for a Hessian 2
/// reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dialect {
    /// The protocol the call is written in.
    pub call: Protocol,
    /// The protocol the reply is written in.
    pub reply: Protocol,
}

impl Dialect {
    /// Hessian 2 both ways.
    pub const HESSIAN2: Dialect = Dialect { call: Protocol::Hessian2, reply: Protocol::Hessian2 };
    /// Hessian 1 both ways.
    pub const HESSIAN1: Dialect = Dialect { call: Protocol::Hessian1, reply: Protocol::Hessian1 };
    /// Java's default: a Hessian 1 call with version 2 (`c 2 0`), answered in Hessian 2.
    pub const HYBRID: Dialect = Dialect { call: Protocol::Hessian1, reply: Protocol::Hessian2 };
    /// Burlap both ways.
    pub const BURLAP: Dialect = Dialect { call: Protocol::Burlap, reply: Protocol::Burlap };

    /// Detects the dialect of a call from its first bytes, or `None` if they match no protocol.
    pub fn detect(body: &[u8]) -> Option<Dialect> {
        match body.first()? {
            b'H' | b'C' => Some(Dialect::HESSIAN2),
            b'c' => match body.get(1) {
                Some(&major) if major >= 2 => Some(Dialect::HYBRID),
                _ => Some(Dialect::HESSIAN1),
            },
            _ => {
                let first = body.iter().find(|b| !b.is_ascii_whitespace())?;
                (*first == b'<').then_some(Dialect::BURLAP)
            }
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

fn unsupported(p: Protocol) -> hessian::Error {
    hessian::Error::new(hessian::ErrorKind::Message(format!("{p} envelopes are not available in this build")), 0)
}

/// Decodes a call written in `dialect.call`.
pub fn decode_call(dialect: Dialect, body: &[u8], limits: Limits) -> Result<Call, hessian::Error> {
    match dialect.call {
        Protocol::Hessian2 => hessian::h2::message::call_from_slice(body, limits),
        p => Err(unsupported(p)),
    }
}

/// Encodes a call in `dialect` (for the hybrid, a Hessian 1 call with version 2).
pub fn encode_call(dialect: Dialect, call: &Call) -> Result<Vec<u8>, hessian::Error> {
    match dialect.call {
        Protocol::Hessian2 => hessian::h2::message::call_to_vec(&call.method, &call.args),
        p => Err(unsupported(p)),
    }
}

/// Encodes a reply (value or fault) in `protocol`.
pub fn encode_reply(protocol: Protocol, reply: &Reply) -> Result<Vec<u8>, hessian::Error> {
    match protocol {
        Protocol::Hessian2 => hessian::h2::message::reply_to_vec(reply),
        p => Err(unsupported(p)),
    }
}

/// Decodes a reply written in `protocol`.
pub fn decode_reply(protocol: Protocol, body: &[u8], limits: Limits) -> Result<Reply, hessian::Error> {
    match protocol {
        Protocol::Hessian2 => hessian::h2::message::reply_from_slice(body, limits),
        p => Err(unsupported(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_protocol() {
        assert_eq!(Dialect::detect(b"H\x02\x00C"), Some(Dialect::HESSIAN2));
        assert_eq!(Dialect::detect(b"c\x01\x00m"), Some(Dialect::HESSIAN1));
        assert_eq!(Dialect::detect(b"c\x02\x00m"), Some(Dialect::HYBRID));
        assert_eq!(Dialect::detect(b" \n<burlap:call>"), Some(Dialect::BURLAP));
        assert_eq!(Dialect::detect(b""), None);
        assert_eq!(Dialect::detect(b"GET /"), None);
    }
}
