//! `hessian dump` for Hessian 2.0: the message envelope, class definitions where they occur,
//! type names and references numbered as the decoder numbers them, one line per string or binary
//! chunk, the compact form of each double and date.

use super::{preview, ChunkHeader, Dumped, Trace, Walk};
use hessian::h2::codes::*;
use hessian::h2::{message, Decoder};
use hessian::read::SliceRead;
use hessian::{Error, ErrorKind, Result};
use std::io::Write;

/// Writes the trace of `data` to `out`. On malformed input the trace up to the bad token has
/// been written when the error (with its byte offset) is returned.
pub fn dump(data: &[u8], out: &mut dyn Write) -> Result<()> {
    let mut w = Walk::new(data, out, Decoder::from_slice(data), false)?;
    // The whole input: a message after `H 2 0`, otherwise one or more values.
    if data.starts_with(&[BC_VERSION, 2, 0]) {
        message::read_version(&mut w.dec)?;
        w.line(0, "", "Hessian 2.0 message header")?;
        self::message(&mut w)?;
        return w.end();
    }
    if data.is_empty() {
        return Err(Error::new(ErrorKind::UnexpectedEof, 0));
    }
    crate::document::h2::reject_hessian1(data)?;
    while (w.dec.offset() as usize) < data.len() {
        w.value("")?;
    }
    Ok(())
}

/// A call (`C`, the method, the argument count, the arguments), a reply (`R` value) or a fault
/// (`F` map).
fn message<'a>(w: &mut Walk<'a, '_, Decoder<'a, SliceRead<'a>>>) -> Result<()> {
    let start = w.dec.offset();
    match w.dec.read_code()? {
        BC_CALL => {
            w.line(start, "", "call")?;
            w.enter()?;
            let at = w.dec.offset();
            let method = w.dec.read_string()?;
            w.line(at, "", &format!("method {}", preview(&method)))?;
            let at = w.dec.offset();
            let n = w.dec.read_int()?;
            w.line(at, "", &format!("{n} arguments"))?;
            if n < 0 {
                return Err(Error::new(ErrorKind::Malformed(format!("negative argument count {n}")), at));
            }
            for i in 0..n {
                w.value(&format!("arg[{i}] "))?;
            }
        }
        BC_REPLY => {
            w.line(start, "", "reply")?;
            w.enter()?;
            w.value("")?;
        }
        BC_FAULT => {
            w.line(start, "", "fault")?;
            w.enter()?;
            w.value("")?;
        }
        code => {
            return Err(Error::new(
                ErrorKind::UnexpectedCode { code, context: "message (expected C, R or F after H 2 0)" },
                start,
            ))
        }
    }
    w.leave();
    Ok(())
}

impl<'de> Dumped<'de> for Decoder<'de, SliceRead<'de>> {
    const UTF16: bool = true;

    /// The class definitions (`C name count field…`) in front of a value, each read by the
    /// decoder into its tables.
    fn before_value(&mut self, t: &mut Trace) -> Result<()> {
        while self.peek_code()? == Some(BC_CLASS_DEF) {
            let at = self.offset();
            self.read_code()?;
            let id = self.parse_class_def()?;
            let def = self.tables().classes()[id].clone();
            t.line(at, self.offset(), "", &format!("class definition #{id} {}", preview(&def.name)))?;
            t.note(&format!("{} fields", def.fields.len()))?;
            for f in &def.fields {
                t.note(&format!("field {}", preview(f)))?;
            }
        }
        Ok(())
    }

    fn form(bytes: &[u8]) -> Option<&'static str> {
        Some(match *bytes.first()? {
            BC_DOUBLE_ZERO => "zero",
            BC_DOUBLE_ONE => "one",
            BC_DOUBLE_BYTE => "byte",
            BC_DOUBLE_SHORT => "short",
            BC_DOUBLE_MILL => "thousandths",
            BC_DOUBLE => "64-bit",
            BC_DATE => "ms",
            BC_DATE_MINUTE => "minutes",
            _ => return None,
        })
    }

    fn is_xml(_: &[u8]) -> bool {
        false
    }

    fn chunk_header(bytes: &[u8], string: bool) -> Option<ChunkHeader> {
        // the last code of each compact form, from the codes and their longest lengths
        const STRING_DIRECT_END: u8 = BC_STRING_DIRECT + STRING_DIRECT_MAX as u8;
        const STRING_SHORT_END: u8 = BC_STRING_SHORT + (STRING_SHORT_MAX >> 8) as u8;
        const BINARY_DIRECT_END: u8 = BC_BINARY_DIRECT + BINARY_DIRECT_MAX as u8;
        const BINARY_SHORT_END: u8 = BC_BINARY_SHORT + (BINARY_SHORT_MAX >> 8) as u8;
        let code = *bytes.first()?;
        let byte = |i: usize| bytes.get(i).copied().map(usize::from);
        let (len, units, last) = match (string, code) {
            (true, BC_STRING_DIRECT..=STRING_DIRECT_END) => (1, usize::from(code - BC_STRING_DIRECT), true),
            (true, BC_STRING_SHORT..=STRING_SHORT_END) => {
                (2, (usize::from(code - BC_STRING_SHORT) << 8) | byte(1)?, true)
            }
            (true, BC_STRING | BC_STRING_CHUNK) => (3, (byte(1)? << 8) | byte(2)?, code == BC_STRING),
            (false, BC_BINARY_DIRECT..=BINARY_DIRECT_END) => (1, usize::from(code - BC_BINARY_DIRECT), true),
            (false, BC_BINARY_SHORT..=BINARY_SHORT_END) => {
                (2, (usize::from(code - BC_BINARY_SHORT) << 8) | byte(1)?, true)
            }
            (false, BC_BINARY | BC_BINARY_CHUNK) => (3, (byte(1)? << 8) | byte(2)?, code == BC_BINARY),
            _ => return None,
        };
        Some(ChunkHeader { len, units, last })
    }

    fn type_count(&self) -> usize {
        self.tables().types().len()
    }

    fn type_index(&self, name: &str) -> Option<usize> {
        self.tables().type_id(name).map(|i| i as usize)
    }

    fn class_name(&self, class: usize) -> String {
        self.tables().class(class).map(|c| c.name.clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hessian::h2;
    use hessian::{ClassDef, Value};

    fn trace(data: &[u8]) -> (String, Result<()>) {
        super::super::test_util::trace_of(dump, data)
    }

    #[test]
    fn annotates_objects_and_refs() {
        let c = ClassDef::new("Money", ["cents", "text"]);
        let m = Value::object(c.clone(), vec![Value::Int(1), Value::string("x")]);
        let v = Value::list(vec![m, Value::Ref(1), Value::object(c, vec![Value::Int(2), Value::Null])]);
        let (t, r) = trace(&h2::to_vec(&v).unwrap());
        r.unwrap();
        for needle in [
            "list (ref #0), 3 items",
            "class definition #0 \"Money\"",
            "2 fields",
            "field \"cents\"",
            "[0] object (ref #1) of class #0 \"Money\"",
            "cents: int 1",
            "text: string (1 units) \"x\"",
            "[1] ref #1 -> object \"Money\"",
            "text: null",
        ] {
            assert!(t.contains(needle), "missing {needle:?} in\n{t}");
        }
    }

    #[test]
    fn chunks_and_messages() {
        let long = "é".repeat(40000);
        let bytes = crate::document::h2::encode(&crate::document::Document::Call {
            method: "m".into(),
            args: vec![Value::String(long), Value::Binary(vec![7; 20000])],
            headers: vec![],
            version: None,
        })
        .unwrap();
        let (t, r) = trace(&bytes);
        r.unwrap();
        for needle in [
            "Hessian 2.0 message header",
            "call",
            "method \"m\"",
            "2 arguments",
            "arg[0] string chunk (32768 units, more follow)",
            "final string chunk (7232 units; 40000 in all)",
            "arg[1] binary chunk",
            "20000 in all",
        ] {
            assert!(t.contains(needle), "missing {needle:?} in\n{t}");
        }
    }

    #[test]
    fn stops_at_bad_input_with_offset() {
        let bytes = h2::to_vec(&Value::list(vec![Value::Int(1), Value::string("hello")])).unwrap();
        let (t, r) = trace(&bytes[..bytes.len() - 2]);
        assert!(t.contains("[0] int 1"), "{t}");
        let e = r.unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{e}");
        let (_, r) = trace(&[0x78 + 1, b'Z']);
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnexpectedCode { code: b'Z', .. }));
        let (_, r) = trace(&[0x51, 0x90]);
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::RefOutOfRange { .. }));
        let (_, r) = trace(b"");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnexpectedEof));
        let (_, r) = trace(&[0x61]);
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::ClassRefOutOfRange { .. }));
        let deep = vec![0x79u8; 100_000];
        let (_, r) = trace(&deep);
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::LimitExceeded { .. }));
    }
}
