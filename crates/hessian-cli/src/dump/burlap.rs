//! `hessian dump` for Burlap 1.0: one line per element, with its byte offset, the start of its
//! markup, and its meaning. A leaf (`<int>47</int>`, `<string>…</string>`, `<method>`, …) takes
//! one line with its decoded content, a list or map one line for its start tag with its type
//! and length, and its end tag one more; calls, replies and faults open a nesting level. What
//! lies between elements (a byte order mark, comments, declarations) gets a line of its own.
//! Lists and maps are numbered as reference targets, as the decoder numbers them.

use super::{Dumped, Envelope, Walk};
use hessian::burlap::Decoder;
use hessian::message::{CallItem, ReplyItem};
use hessian::Result;
use std::io::Write;

/// Writes the trace of `data` to `out`. On malformed input the trace up to the bad element has
/// been written when the error (with its byte offset) is returned.
pub fn dump(data: &[u8], out: &mut dyn Write) -> Result<()> {
    let mut w = Walk::new(data, out, Decoder::from_slice(data), true)?;
    let at = w.next_at()?;
    let rest = data.get(at as usize..).unwrap_or_default();
    if rest.starts_with(b"<burlap:call>") {
        w.call()?;
    } else if rest.starts_with(b"<burlap:reply>") {
        w.reply()?;
    } else {
        w.value("")?;
    }
    w.end()
}

/// `<burlap:call>`, the headers, `<method>`, the arguments, `</burlap:call>`;
/// `<burlap:reply>`, the headers, a value or a `<fault>`, `</burlap:reply>`.
impl<'de> Envelope<'de> for Decoder<&'de [u8]> {
    const CALL: &'static str = "Burlap call";
    const REPLY: &'static str = "Burlap reply";

    fn call_start(&mut self) -> Result<String> {
        self.read_call_start()?;
        Ok(Self::CALL.into())
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
        self.read_reply_start()?;
        Ok(Self::REPLY.into())
    }

    fn reply_item(&mut self) -> Result<ReplyItem> {
        self.read_reply_item()
    }

    fn reply_end(&mut self) -> Result<()> {
        self.read_reply_end()
    }
}

impl<'de> Dumped<'de> for Decoder<&'de [u8]> {
    const UTF16: bool = false;

    fn read_to(&self) -> u64 {
        Decoder::read_to(self)
    }

    fn is_xml(bytes: &[u8]) -> bool {
        bytes.starts_with(b"<xml")
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::has;
    use super::*;
    use hessian::{burlap, Call, ErrorKind, Value};

    fn trace(data: &[u8]) -> (String, Result<()>) {
        super::super::test_util::trace_of(dump, data)
    }

    #[test]
    fn values_and_envelopes() {
        let m = Value::typed_map("Money", vec![(Value::string("cents"), Value::Int(5))]);
        let v = Value::list(vec![m, Value::Ref(1), Value::Binary(vec![1, 2]), Value::Date(0), Value::string("a<b")]);
        let (t, r) = trace(&burlap::to_vec(&v).unwrap());
        r.unwrap();
        has(
            &t,
            &[
                "00000000  <list><type></type><l..  list (ref #0), length 5",
                "[0] map (ref #1)",
                "type \"Money\"",
                "key string (5 chars) \"cents\"",
                "value int 5",
                "end of map",
                "[1] ref #1 -> map",
                "[2] binary (2 bytes)",
                "[3] date 1970-01-01T00:00:00Z",
                "[4] string (3 chars) \"a<b\"",
                "end of list",
            ],
        );
        let mut call = Call::new("add2", vec![Value::Int(1), Value::Null]);
        call.headers.push(("trace".into(), Value::string("t-1")));
        let (t, r) = trace(&burlap::call_to_vec(&call).unwrap());
        r.unwrap();
        has(&t, &["Burlap call", "header \"trace\"", "value string", "method \"add2\"", "arg[0] int 1", "arg[1] null"]);
        let (t, r) = trace(&burlap::reply_to_vec(&Err(hessian::Fault::new("E", "boom"))).unwrap());
        r.unwrap();
        has(&t, &["Burlap reply", "  fault", "key string (4 chars) \"code\"", "end of fault", "end of Burlap reply"]);
    }

    #[test]
    fn stops_at_bad_input_with_offset() {
        // (where the decoder stops: after the bad int's text)
        let bad = b"<list><int>1</int><int>x</int></list>";
        let (t, r) = trace(bad);
        assert!(t.contains("[0] int 1"), "{t}");
        assert_eq!(r.unwrap_err().offset(), burlap::from_slice(bad).unwrap_err().offset());
        let (_, r) = trace(b"<list><int>1</int>");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnexpectedEof));
        let (_, r) = trace(b"<ref>0</ref>");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::RefOutOfRange { .. }));
        let (_, r) = trace(b"<int>1</int><int>2</int>");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::TrailingBytes));
        let (_, r) = trace(b"<foo/>");
        assert!(r.unwrap_err().to_string().contains("unknown element"));
        let (_, r) = trace(b"<int>1</in>");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::Malformed(_)));
        let (_, r) = trace(b"");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnexpectedEof));
        let (_, r) = trace(&b"<list>".repeat(100_000));
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::LimitExceeded { .. }));
    }
}
