//! `hessian dump` for Hessian 1.0.2: call and reply envelopes (version bytes, headers, method,
//! fault), values with their types and declared lengths, references numbered as the decoder
//! numbers them (lists and maps), one line per string, XML or binary chunk.

use super::{ChunkHeader, Dumped, Envelope, Walk};
use hessian::h1::codes::*;
use hessian::h1::Decoder;
use hessian::message::{CallItem, ReplyItem};
use hessian::read::SliceRead;
use hessian::{Error, ErrorKind, Result};
use std::io::Write;

/// Writes the trace of `data` to `out`. On malformed input the trace up to the bad token has
/// been written when the error (with its byte offset) is returned.
pub fn dump(data: &[u8], out: &mut dyn Write) -> Result<()> {
    let mut w = Walk::new(data, out, Decoder::from_slice(data), false)?;
    match data.first() {
        None => return Err(Error::new(ErrorKind::UnexpectedEof, 0)),
        Some(&BC_CALL) if hessian::detect::is_hessian1_envelope(data) => w.call()?,
        Some(&BC_REPLY) if hessian::detect::is_hessian1_envelope(data) => w.reply()?,
        Some(_) => w.value("")?,
    }
    w.end()
}

/// `c major minor`, the headers (`H name value`), `m method`, the arguments, `z`; `r major
/// minor`, the headers, a value or a fault (`f` entries `z`), `z`.
impl<'de> Envelope<'de> for Decoder<'de, SliceRead<'de>> {
    const CALL: &'static str = "call";
    const REPLY: &'static str = "reply";

    fn call_start(&mut self) -> Result<String> {
        let (major, minor) = self.read_call_start()?;
        let hybrid = if major >= 2 { " (hybrid: asks for a Hessian 2 reply)" } else { "" };
        Ok(format!("Hessian 1 call, version {major}.{minor}{hybrid}"))
    }

    fn call_item(&mut self) -> Result<CallItem> {
        self.read_call_item()
    }

    fn at_call_end(&mut self) -> Result<bool> {
        Decoder::at_call_end(self)
    }

    fn call_end(&mut self) -> Result<()> {
        self.read_call_end()
    }

    fn reply_start(&mut self) -> Result<String> {
        let (major, minor) = self.read_reply_start()?;
        Ok(format!("Hessian 1 reply, version {major}.{minor}"))
    }

    fn reply_item(&mut self) -> Result<ReplyItem> {
        self.read_reply_item()
    }

    fn reply_end(&mut self) -> Result<()> {
        self.read_reply_end()
    }
}

impl<'de> Dumped<'de> for Decoder<'de, SliceRead<'de>> {
    const UTF16: bool = true;

    fn is_xml(bytes: &[u8]) -> bool {
        matches!(bytes.first(), Some(&(BC_XML | BC_XML_CHUNK)))
    }

    fn chunk_header(bytes: &[u8], _string: bool) -> Option<ChunkHeader> {
        let (code, hi, lo) = (*bytes.first()?, *bytes.get(1)?, *bytes.get(2)?);
        let last = match code {
            BC_STRING | BC_XML | BC_BINARY => true,
            BC_STRING_CHUNK | BC_XML_CHUNK | BC_BINARY_CHUNK => false,
            _ => return None,
        };
        Some(ChunkHeader { len: 3, units: (usize::from(hi) << 8) | usize::from(lo), last })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::has;
    use super::*;
    use hessian::{h1, Call, Value};

    fn trace(data: &[u8]) -> (String, Result<()>) {
        super::super::test_util::trace_of(dump, data)
    }

    #[test]
    fn values_and_refs() {
        let m = Value::typed_map("Money", vec![(Value::string("cents"), Value::Int(5))]);
        let v = Value::list(vec![m, Value::Ref(1), Value::Binary(vec![1, 2]), Value::Date(0), Value::Null]);
        let (t, r) = trace(&h1::to_vec(&v).unwrap());
        r.unwrap();
        has(
            &t,
            &[
                "list (ref #0)",
                "length 5",
                "[0] map (ref #1)",
                "type \"Money\"",
                "key string (5 units) \"cents\"",
                "value int 5",
                "end of map",
                "[1] ref #1 -> map \"Money\"",
                "[2] binary (2 bytes)",
                "[3] date 1970-01-01T00:00:00Z",
                "[4] null",
                "end of list",
            ],
        );
    }

    #[test]
    fn envelopes() {
        let mut call = Call::new("add2", vec![Value::Int(1), Value::string("é".repeat(40000))]);
        call.headers.push(("trace".into(), Value::string("t-1")));
        let (t, r) = trace(&h1::call_to_vec_versioned(&call, 2).unwrap());
        r.unwrap();
        has(
            &t,
            &[
                "00000000  63 02 00                 Hessian 1 call, version 2.0 (hybrid",
                "header \"trace\"",
                "value string (3 units) \"t-1\"",
                "method \"add2\"",
                "arg[0] int 1",
                "arg[1] string chunk (32768 units, more follow)",
                "final string chunk (7232 units; 40000 in all)",
                "end of call",
            ],
        );
        let fault = hessian::Fault::new("E", "boom");
        let (t, r) = trace(&h1::reply_to_vec(&Err(fault)).unwrap());
        r.unwrap();
        has(&t, &["Hessian 1 reply, version 1.0", "  fault", "key string (4 units) \"code\"", "end of reply"]);
        let (t, r) = trace(&h1::reply_to_vec(&Ok(Value::Int(3))).unwrap());
        r.unwrap();
        has(&t, &["  int 3", "end of reply"]);
    }

    #[test]
    fn stops_at_bad_input_with_offset() {
        let bytes = h1::to_vec(&Value::list(vec![Value::Int(1), Value::string("hello")])).unwrap();
        let (t, r) = trace(&bytes[..bytes.len() - 3]);
        assert!(t.contains("[0] int 1"), "{t}");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::LengthPastEnd { .. }));
        let (_, r) = trace(b"R\x00\x00\x00\x00");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::RefOutOfRange { .. }));
        let (_, r) = trace(b"");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnexpectedEof));
        let (_, r) = trace(b"NN");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::TrailingBytes));
        let (_, r) = trace(b"Vl\x00\x00\x00\x02Nz");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::Malformed(_)));
        let (_, r) = trace(b"c\x01\x00Q");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnexpectedCode { code: b'Q', .. }));
        let deep = vec![b'V'; 100_000];
        let (_, r) = trace(&deep);
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::LimitExceeded { .. }));
    }
}
