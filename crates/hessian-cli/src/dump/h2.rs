//! `hessian dump` for Hessian 2.0: class definitions, type names and references numbered as the
//! decoder numbers them, one line per string or binary chunk.

use super::{preview, Trace};
use hessian::h2::codes::*;
use hessian::json::format_date;
use hessian::kind::Kind;
use hessian::read::finish_str;
use hessian::{Error, ErrorKind, Result};
use std::io::Write;
use std::ops::{Deref, DerefMut};

/// Writes the trace of `data` to `out`. On malformed input the trace up to the bad token has
/// been written when the error (with its byte offset) is returned.
pub fn dump(data: &[u8], out: &mut dyn Write) -> Result<()> {
    let mut w = Walker { t: Trace::new(data, out)?, types: Vec::new(), classes: Vec::new(), refs: Vec::new() };
    w.top()
}

struct Class {
    name: String,
    fields: Vec<String>,
}

struct Walker<'a, 'o> {
    t: Trace<'a, 'o>,
    types: Vec<String>,
    classes: Vec<Class>,
    /// What each reference number points at (`object Money`, `list`, `map`).
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
    /// The whole input: a message after `H 2 0`, otherwise one or more values.
    fn top(&mut self) -> Result<()> {
        if self.data.starts_with(&[BC_VERSION, 2, 0]) {
            self.pos = 3;
            self.line(0, "", "Hessian 2.0 message header")?;
            self.message()?;
            return self.end();
        }
        if self.data.is_empty() {
            return Err(self.eof());
        }
        crate::document::h2::reject_hessian1(self.data)?;
        while self.pos < self.data.len() {
            self.value("")?;
        }
        Ok(())
    }

    fn message(&mut self) -> Result<()> {
        let start = self.pos;
        let code = self.byte()?;
        match code {
            BC_CALL => {
                self.line(start, "", "call")?;
                self.enter()?;
                let s = self.pos;
                let method = self.full_string()?;
                self.line(s, "", &format!("method {}", preview(&method)))?;
                let s = self.pos;
                let n = self.int()?;
                self.line(s, "", &format!("{n} arguments"))?;
                if n < 0 {
                    return Err(Error::new(ErrorKind::Malformed(format!("negative argument count {n}")), s as u64));
                }
                for i in 0..n {
                    self.value(&format!("arg[{i}] "))?;
                }
                self.leave();
            }
            BC_REPLY => {
                self.line(start, "", "reply")?;
                self.enter()?;
                self.value("")?;
                self.leave();
            }
            BC_FAULT => {
                self.line(start, "", "fault")?;
                self.enter()?;
                self.value("")?;
                self.leave();
            }
            _ => return Err(unexpected(code, "message (expected C, R or F after H 2 0)", start)),
        }
        Ok(())
    }

    fn int_body(&mut self, code: u8, at: usize) -> Result<i32> {
        Ok(match code {
            0x80..=0xbf => i32::from(code) - i32::from(BC_INT_ZERO),
            0xc0..=0xcf => ((i32::from(code) - i32::from(BC_INT_BYTE_ZERO)) << 8) | i32::from(self.byte()?),
            0xd0..=0xd7 => {
                let [b1, b0] = self.be::<2>()?;
                ((i32::from(code) - i32::from(BC_INT_SHORT_ZERO)) << 16) | (i32::from(b1) << 8) | i32::from(b0)
            }
            BC_INT => i32::from_be_bytes(self.be::<4>()?),
            _ => return Err(unexpected(code, "int", at)),
        })
    }

    /// An int with its code (lengths, counts, references).
    fn int(&mut self) -> Result<i32> {
        let at = self.pos;
        let code = self.byte()?;
        self.int_body(code, at)
    }

    fn long_body(&mut self, code: u8) -> Result<i64> {
        Ok(match code {
            0xd8..=0xef => i64::from(code) - i64::from(BC_LONG_ZERO),
            0xf0..=0xff => ((i64::from(code) - i64::from(BC_LONG_BYTE_ZERO)) << 8) | i64::from(self.byte()?),
            0x38..=0x3f => {
                let [b1, b0] = self.be::<2>()?;
                ((i64::from(code) - i64::from(BC_LONG_SHORT_ZERO)) << 16) | (i64::from(b1) << 8) | i64::from(b0)
            }
            BC_LONG_INT => i64::from(i32::from_be_bytes(self.be::<4>()?)),
            _ => i64::from_be_bytes(self.be::<8>()?),
        })
    }

    fn double_body(&mut self, code: u8) -> Result<(f64, &'static str)> {
        Ok(match code {
            BC_DOUBLE_ZERO => (0.0, "zero"),
            BC_DOUBLE_ONE => (1.0, "one"),
            BC_DOUBLE_BYTE => (f64::from(self.byte()? as i8), "byte"),
            BC_DOUBLE_SHORT => (f64::from(i16::from_be_bytes(self.be::<2>()?)), "short"),
            BC_DOUBLE_MILL => (0.001 * f64::from(i32::from_be_bytes(self.be::<4>()?)), "thousandths"),
            _ => (f64::from_bits(u64::from_be_bytes(self.be::<8>()?)), "64-bit"),
        })
    }

    /// Reads one string chunk's header: (units, final).
    fn str_chunk_header(&mut self, code: u8, at: usize) -> Result<(usize, bool)> {
        Ok(match code {
            0x00..=0x1f => (usize::from(code), true),
            0x30..=0x33 => ((usize::from(code - BC_STRING_SHORT) << 8) | usize::from(self.byte()?), true),
            BC_STRING | BC_STRING_CHUNK => {
                let [hi, lo] = self.be::<2>()?;
                ((usize::from(hi) << 8) | usize::from(lo), code == BC_STRING)
            }
            _ => return Err(unexpected(code, "string", at)),
        })
    }

    /// A whole string (class names, field names, method names, type names), chunks and all.
    fn full_string(&mut self) -> Result<String> {
        let mut out = String::new();
        let mut pending = None;
        loop {
            let at = self.pos;
            let code = self.byte()?;
            let (units, last) = self.str_chunk_header(code, at)?;
            out.push_str(&self.str_data(units, &mut pending)?);
            if last {
                finish_str(pending, self.pos as u64)?;
                return Ok(out);
            }
        }
    }

    /// A string value, one line per chunk.
    fn string(&mut self, start: usize, code: u8, label: &str) -> Result<()> {
        let mut pending = None;
        let (mut start, mut code, mut label, mut total) = (start, code, label.to_owned(), 0usize);
        let mut chunks = 0;
        loop {
            let (units, last) = self.str_chunk_header(code, start)?;
            let s = self.str_data(units, &mut pending)?;
            total += units;
            chunks += 1;
            let meaning = if last && chunks == 1 {
                format!("string ({units} units) {}", preview(&s))
            } else if last {
                finish_str(pending, self.pos as u64)?;
                format!("final string chunk ({units} units; {total} in all) {}", preview(&s))
            } else {
                format!("string chunk ({units} units, more follow) {}", preview(&s))
            };
            self.line(start, &label, &meaning)?;
            if last {
                return finish_str(pending, self.pos as u64);
            }
            label.clear();
            start = self.pos;
            code = self.byte()?;
        }
    }

    /// A binary value, one line per chunk.
    fn binary(&mut self, start: usize, code: u8, label: &str) -> Result<()> {
        let (mut start, mut code, mut label, mut total, mut chunks) = (start, code, label.to_owned(), 0usize, 0);
        loop {
            let (len, last) = match code {
                0x20..=0x2f => (usize::from(code - BC_BINARY_DIRECT), true),
                0x34..=0x37 => ((usize::from(code - BC_BINARY_SHORT) << 8) | usize::from(self.byte()?), true),
                BC_BINARY | BC_BINARY_CHUNK => {
                    let [hi, lo] = self.be::<2>()?;
                    ((usize::from(hi) << 8) | usize::from(lo), code == BC_BINARY)
                }
                _ => return Err(unexpected(code, "binary", start)),
            };
            self.check_len(len)?;
            self.pos += len;
            total += len;
            chunks += 1;
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
        }
    }

    /// `type ::= string | int`: a new type name or a reference to an earlier one.
    fn type_name(&mut self) -> Result<String> {
        let at = self.pos;
        let code = self.peek().ok_or_else(|| self.eof())?;
        if kind(code) == Kind::String {
            let name = self.full_string()?;
            self.types.push(name.clone());
            Ok(format!("type {} (defines type #{})", preview(&name), self.types.len() - 1))
        } else {
            let i = self.int()?;
            match usize::try_from(i).ok().and_then(|i| self.types.get(i)) {
                Some(t) => Ok(format!("type #{i} {}", preview(t))),
                None => {
                    Err(Error::new(ErrorKind::TypeRefOutOfRange { index: i as u64, len: self.types.len() }, at as u64))
                }
            }
        }
    }

    fn length(&mut self) -> Result<usize> {
        let at = self.pos;
        let n = self.int()?;
        let n = usize::try_from(n)
            .map_err(|_| Error::new(ErrorKind::Malformed(format!("negative length {n}")), at as u64))?;
        if n > self.remaining() {
            return Err(Error::new(
                ErrorKind::LengthPastEnd { declared: n as u64, available: self.remaining() as u64 },
                at as u64,
            ));
        }
        Ok(n)
    }

    fn list(&mut self, start: usize, code: u8, label: &str) -> Result<()> {
        let (ty, len) = match code {
            BC_LIST_VARIABLE => (Some(self.type_name()?), None),
            BC_LIST_FIXED => {
                let t = self.type_name()?;
                (Some(t), Some(self.length()?))
            }
            BC_LIST_VARIABLE_UNTYPED => (None, None),
            BC_LIST_FIXED_UNTYPED => (None, Some(self.length()?)),
            0x70..=0x77 => (Some(self.type_name()?), Some(usize::from(code - BC_LIST_DIRECT))),
            _ => (None, Some(usize::from(code - BC_LIST_DIRECT_UNTYPED))),
        };
        let r = self.refs.len();
        self.refs.push("list".into());
        let ty = ty.map(|t| format!(", {t}")).unwrap_or_default();
        let size = match len {
            Some(n) => format!("{n} items"),
            None => "variable length".into(),
        };
        self.line(start, label, &format!("list (ref #{r}){ty}, {size}"))?;
        self.enter()?;
        match len {
            Some(n) => {
                for i in 0..n {
                    self.value(&format!("[{i}] "))?;
                }
            }
            None => {
                let mut i = 0;
                loop {
                    if self.peek() == Some(BC_END) {
                        let s = self.pos;
                        self.pos += 1;
                        self.line(s, "", "end of list")?;
                        break;
                    }
                    self.value(&format!("[{i}] "))?;
                    i += 1;
                }
            }
        }
        self.leave();
        Ok(())
    }

    fn map(&mut self, start: usize, code: u8, label: &str) -> Result<()> {
        let ty = if code == BC_MAP { format!(", {}", self.type_name()?) } else { String::new() };
        let r = self.refs.len();
        self.refs.push("map".into());
        self.line(start, label, &format!("map (ref #{r}){ty}"))?;
        self.enter()?;
        loop {
            if self.peek() == Some(BC_END) {
                let s = self.pos;
                self.pos += 1;
                self.line(s, "", "end of map")?;
                break;
            }
            self.value("key ")?;
            self.value("value ")?;
        }
        self.leave();
        Ok(())
    }

    fn class_def(&mut self, start: usize) -> Result<()> {
        let name = self.full_string()?;
        let id = self.classes.len();
        self.line(start, "", &format!("class definition #{id} {}", preview(&name)))?;
        self.enter()?;
        let s = self.pos;
        let n = self.length()?;
        self.line(s, "", &format!("{n} fields"))?;
        let mut fields = Vec::with_capacity(n.min(256));
        for _ in 0..n {
            let s = self.pos;
            let f = self.full_string()?;
            self.line(s, "", &format!("field {}", preview(&f)))?;
            fields.push(f);
        }
        self.leave();
        self.classes.push(Class { name, fields });
        Ok(())
    }

    fn object(&mut self, start: usize, code: u8, label: &str) -> Result<()> {
        let id = match code {
            BC_OBJECT => i64::from(self.int()?),
            _ => i64::from(code - BC_OBJECT_DIRECT),
        };
        let Some(class) = usize::try_from(id).ok().filter(|i| *i < self.classes.len()) else {
            return Err(Error::new(
                ErrorKind::ClassRefOutOfRange { index: id as u64, len: self.classes.len() },
                start as u64,
            ));
        };
        let r = self.refs.len();
        let name = self.classes[class].name.clone();
        self.refs.push(format!("object {}", preview(&name)));
        self.line(start, label, &format!("object (ref #{r}) of class #{class} {}", preview(&name)))?;
        self.enter()?;
        let fields = self.classes[class].fields.clone();
        for f in fields {
            self.value(&format!("{f}: "))?;
        }
        self.leave();
        Ok(())
    }

    fn value(&mut self, label: &str) -> Result<()> {
        let mut start = self.pos;
        let mut code = self.byte()?;
        while code == BC_CLASS_DEF {
            self.class_def(start)?;
            start = self.pos;
            code = self.byte()?;
        }
        match kind(code) {
            Kind::Null => self.line(start, label, "null"),
            Kind::Bool => self.line(start, label, if code == BC_TRUE { "true" } else { "false" }),
            Kind::Int => {
                let v = self.int_body(code, start)?;
                self.line(start, label, &format!("int {v}"))
            }
            Kind::Long => {
                let v = self.long_body(code)?;
                self.line(start, label, &format!("long {v}"))
            }
            Kind::Double => {
                let (v, form) = self.double_body(code)?;
                self.line(start, label, &format!("double {v:?} ({form})"))
            }
            Kind::Date => {
                let (ms, form) = if code == BC_DATE {
                    (i64::from_be_bytes(self.be::<8>()?), "ms")
                } else {
                    (i64::from(i32::from_be_bytes(self.be::<4>()?)) * 60_000, "minutes")
                };
                let text = format_date(ms).unwrap_or_else(|| format!("{ms} ms"));
                self.line(start, label, &format!("date {text} ({form})"))
            }
            Kind::String => self.string(start, code, label),
            Kind::Binary => self.binary(start, code, label),
            Kind::List => self.list(start, code, label),
            Kind::Map => self.map(start, code, label),
            Kind::Object => self.object(start, code, label),
            Kind::Ref => {
                let i = self.int()?;
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
            _ => Err(unexpected(code, "value", start)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hessian::h2;
    use hessian::{ClassDef, Value};

    fn trace(data: &[u8]) -> (String, Result<()>) {
        let mut out = Vec::new();
        let r = dump(data, &mut out);
        (String::from_utf8(out).unwrap(), r)
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
