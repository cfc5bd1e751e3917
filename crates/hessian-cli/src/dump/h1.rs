//! `hessian dump` for Hessian 1.0.2: call and reply envelopes (version bytes, headers, method,
//! fault), values with their type and length markers, references numbered as the decoder
//! numbers them (lists and maps), one line per string, XML or binary chunk.

use super::{preview, Trace};
use hessian::h1::codes::*;
use hessian::json::format_date;
use hessian::kind::Kind;
use hessian::read::finish_str;
use hessian::{Error, ErrorKind, Result};
use std::io::Write;
use std::ops::{Deref, DerefMut};

/// Writes the trace of `data` to `out`. On malformed input the trace up to the bad token has
/// been written when the error (with its byte offset) is returned.
pub fn dump(data: &[u8], out: &mut dyn Write) -> Result<()> {
    let mut w = Walker { t: Trace::new(data, out)?, refs: Vec::new() };
    w.top()
}

struct Walker<'a, 'o> {
    t: Trace<'a, 'o>,
    /// What each reference number points at (`list`, `map "Money"`).
    refs: Vec<String>,
}

impl<'a, 'o> Deref for Walker<'a, 'o> {
    type Target = Trace<'a, 'o>;

    fn deref(&self) -> &Self::Target {
        &self.t
    }
}

impl DerefMut for Walker<'_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.t
    }
}

fn unexpected(code: u8, context: &'static str, at: usize) -> Error {
    Trace::unexpected(code, context, at)
}

impl Walker<'_, '_> {
    fn top(&mut self) -> Result<()> {
        if self.data.is_empty() {
            return Err(self.eof());
        }
        if hessian::detect::is_hessian1_envelope(self.data) {
            self.envelope()?;
        } else {
            self.value("")?;
        }
        self.end()
    }

    fn u16(&mut self) -> Result<usize> {
        let [hi, lo] = self.be::<2>()?;
        Ok((usize::from(hi) << 8) | usize::from(lo))
    }

    fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_be_bytes(self.be::<4>()?))
    }

    fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_be_bytes(self.be::<8>()?))
    }

    /// A length-prefixed name (`len16 utf8`): types, methods, headers.
    fn name(&mut self) -> Result<String> {
        let len = self.u16()?;
        let mut pending = None;
        let s = self.str_data(len, &mut pending)?;
        finish_str(pending, self.pos as u64)?;
        Ok(s)
    }

    fn envelope(&mut self) -> Result<()> {
        let kind = self.byte()?;
        let [major, minor] = self.be::<2>()?;
        let what = if kind == BC_CALL { "call" } else { "reply" };
        let hybrid = if kind == BC_CALL && major >= 2 { " (hybrid: asks for a Hessian 2 reply)" } else { "" };
        self.line(0, "", &format!("Hessian 1 {what}, version {major}.{minor}{hybrid}"))?;
        self.enter()?;
        loop {
            let start = self.pos;
            match self.byte()? {
                BC_HEADER => {
                    let name = self.name()?;
                    self.line(start, "", &format!("header {}", preview(&name)))?;
                    self.value("  value ")?;
                }
                BC_METHOD if kind == BC_CALL => {
                    let name = self.name()?;
                    self.line(start, "", &format!("method {}", preview(&name)))?;
                    let mut i = 0;
                    while self.peek() != Some(BC_END) {
                        self.value(&format!("arg[{i}] "))?;
                        i += 1;
                    }
                    break;
                }
                BC_FAULT if kind == BC_REPLY => {
                    self.line(start, "", "fault")?;
                    self.enter()?;
                    self.entries("end of fault")?;
                    self.leave();
                    break;
                }
                _ if kind == BC_REPLY => {
                    self.pos = start;
                    self.value("")?;
                    break;
                }
                code => return Err(unexpected(code, "call header or method", start)),
            }
        }
        self.leave();
        self.end_marker(&format!("end of {what}"))
    }

    /// `z`, the end of a list, map, fault, call or reply.
    fn end_marker(&mut self, meaning: &str) -> Result<()> {
        let start = self.pos;
        match self.byte()? {
            BC_END => self.line(start, "", meaning),
            code => Err(unexpected(code, "end marker z", start)),
        }
    }

    /// Key/value pairs up to and including `z` (maps and faults).
    fn entries(&mut self, end: &str) -> Result<()> {
        while self.peek() != Some(BC_END) {
            self.value("key ")?;
            self.value("value ")?;
        }
        self.end_marker(end)
    }

    /// An optional `t len type`; the empty type (untyped) is `None`.
    fn opt_type(&mut self) -> Result<Option<String>> {
        if self.peek() != Some(BC_TYPE) {
            return Ok(None);
        }
        let start = self.pos;
        self.pos += 1;
        let t = self.name()?;
        self.line(start, "", &format!("type {}", preview(&t)))?;
        Ok(Some(t).filter(|t| !t.is_empty()))
    }

    /// A string or XML value (`S`/`s` or `X`/`x` chunks), one line per chunk.
    fn string(&mut self, start: usize, code: u8, label: &str) -> Result<()> {
        let (fin, chunk, what) = if matches!(code, BC_XML | BC_XML_CHUNK) {
            (BC_XML, BC_XML_CHUNK, "xml")
        } else {
            (BC_STRING, BC_STRING_CHUNK, "string")
        };
        let (mut start, mut code, mut label, mut total, mut chunks) = (start, code, label.to_owned(), 0usize, 0);
        let mut pending = None;
        loop {
            let units = self.u16()?;
            let s = self.str_data(units, &mut pending)?;
            total += units;
            chunks += 1;
            let last = code == fin;
            let meaning = if last && chunks == 1 {
                format!("{what} ({units} units) {}", preview(&s))
            } else if last {
                format!("final {what} chunk ({units} units; {total} in all) {}", preview(&s))
            } else {
                format!("{what} chunk ({units} units, more follow) {}", preview(&s))
            };
            if last {
                finish_str(pending, self.pos as u64)?;
            }
            self.line(start, &label, &meaning)?;
            if last {
                return Ok(());
            }
            label.clear();
            start = self.pos;
            code = self.byte()?;
            if code != fin && code != chunk {
                return Err(unexpected(code, "string chunk", start));
            }
        }
    }

    /// A binary value (`B`/`b` chunks), one line per chunk.
    fn binary(&mut self, start: usize, code: u8, label: &str) -> Result<()> {
        let (mut start, mut code, mut label, mut total, mut chunks) = (start, code, label.to_owned(), 0usize, 0);
        loop {
            let len = self.u16()?;
            self.check_len(len)?;
            self.pos += len;
            total += len;
            chunks += 1;
            let last = code == BC_BINARY;
            let meaning = if last && chunks == 1 {
                format!("binary ({len} bytes)")
            } else if last {
                format!("final binary chunk ({len} bytes; {total} in all)")
            } else {
                format!("binary chunk ({len} bytes, more follow)")
            };
            self.line(start, &label, &meaning)?;
            if last {
                return Ok(());
            }
            label.clear();
            start = self.pos;
            code = self.byte()?;
            if code != BC_BINARY && code != BC_BINARY_CHUNK {
                return Err(unexpected(code, "binary chunk", start));
            }
        }
    }

    fn list(&mut self, start: usize, label: &str) -> Result<()> {
        let r = self.refs.len();
        self.refs.push("list".into());
        self.line(start, label, &format!("list (ref #{r})"))?;
        self.enter()?;
        self.opt_type()?;
        let mut declared = None;
        if self.peek() == Some(BC_LENGTH) {
            let s = self.pos;
            self.pos += 1;
            let n = self.i32()?;
            // a negative length is "length unknown", as HessianInput reads it
            declared = usize::try_from(n).ok();
            let what = if declared.is_some() { format!("length {n}") } else { format!("length {n} (unknown)") };
            self.line(s, "", &what)?;
        }
        let mut i = 0;
        while self.peek() != Some(BC_END) {
            self.value(&format!("[{i}] "))?;
            i += 1;
        }
        if let Some(n) = declared.filter(|n| *n != i) {
            return Err(Error::new(
                ErrorKind::Malformed(format!("list declares {n} elements but holds {i}")),
                self.pos as u64,
            ));
        }
        self.end_marker("end of list")?;
        self.leave();
        Ok(())
    }

    fn map(&mut self, start: usize, label: &str) -> Result<()> {
        let r = self.refs.len();
        self.refs.push("map".into());
        self.line(start, label, &format!("map (ref #{r})"))?;
        self.enter()?;
        if let Some(t) = self.opt_type()? {
            if let Some(slot) = self.refs.get_mut(r) {
                *slot = format!("map {}", preview(&t));
            }
        }
        self.entries("end of map")?;
        self.leave();
        Ok(())
    }

    fn value(&mut self, label: &str) -> Result<()> {
        let start = self.pos;
        let code = self.byte()?;
        match kind(code) {
            Kind::Null => self.line(start, label, "null"),
            Kind::Bool => self.line(start, label, if code == BC_TRUE { "true" } else { "false" }),
            Kind::Int => {
                let v = self.i32()?;
                self.line(start, label, &format!("int {v}"))
            }
            Kind::Long => {
                let v = self.i64()?;
                self.line(start, label, &format!("long {v}"))
            }
            Kind::Double => {
                let v = f64::from_bits(u64::from_be_bytes(self.be::<8>()?));
                self.line(start, label, &format!("double {v:?}"))
            }
            Kind::Date => {
                let ms = self.i64()?;
                let text = format_date(ms).unwrap_or_else(|| format!("{ms} ms"));
                self.line(start, label, &format!("date {text}"))
            }
            Kind::String => self.string(start, code, label),
            Kind::Binary => self.binary(start, code, label),
            Kind::List => self.list(start, label),
            Kind::Map => self.map(start, label),
            Kind::Ref => {
                let i = self.i32()?;
                match usize::try_from(i).ok().and_then(|i| self.refs.get(i)) {
                    Some(what) => {
                        let what = what.clone();
                        self.line(start, label, &format!("ref #{i} -> {what}"))
                    }
                    None => Err(Error::new(
                        ErrorKind::RefOutOfRange { index: i as u64, len: self.refs.len() },
                        start as u64,
                    )),
                }
            }
            Kind::Remote => {
                let s = self.pos;
                let c = self.byte()?;
                if c != BC_TYPE {
                    return Err(unexpected(c, "remote type", s));
                }
                let t = self.name()?;
                self.line(start, label, &format!("remote, type {}", preview(&t)))?;
                self.enter()?;
                self.value("url ")?;
                self.leave();
                Ok(())
            }
            _ => Err(unexpected(code, "value", start)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hessian::{h1, Call, Value};

    fn trace(data: &[u8]) -> (String, Result<()>) {
        let mut out = Vec::new();
        let r = dump(data, &mut out);
        (String::from_utf8(out).unwrap(), r)
    }

    fn has(t: &str, needles: &[&str]) {
        for n in needles {
            assert!(t.contains(n), "missing {n:?} in\n{t}");
        }
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
