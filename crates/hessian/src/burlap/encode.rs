//! Burlap 1.0 encoder, byte-identical to Caucho 4.0.38's `BurlapOutput`.
//!
//! `BurlapOutput` writes no whitespace and no XML declaration; strings escape only `<` (`&#60;`)
//! and `&` (`&#38;`) and are otherwise printed as Java prints UTF-16 units (supplementary
//! characters as two 3-byte surrogate sequences). Type names, method names and remote URLs are
//! printed unescaped by Java; this encoder does the same when that gives well-formed XML and
//! escapes them like strings otherwise (Java's raw output would be unreadable, even by Java).

use super::text;
use crate::envelope::{Call, Fault, Reply};
use crate::error::{Error, ErrorKind, Result};
use crate::java_utf8;
use crate::token::{self, forward_token_write, TokenWrite};
use crate::value::{Object, Value};
use crate::write::Output;
use std::io::Write;

/// Writes Burlap values and envelopes to a `std::io::Write`. Output is buffered: call
/// [`finish`](Self::finish) or [`flush`](Self::flush) at the end.
pub struct Encoder<W: Write> {
    w: Output<W>,
}

impl<W: Write> Encoder<W> {
    /// An encoder writing to `out`.
    pub fn new(out: W) -> Self {
        Encoder { w: Output::new(out) }
    }

    /// Bytes produced so far (flushed or buffered).
    pub fn position(&self) -> u64 {
        self.w.position()
    }

    /// Writes out the buffer and flushes the underlying writer.
    pub fn flush(&mut self) -> Result<()> {
        self.w.flush()
    }

    /// Flushes and returns the underlying writer.
    pub fn finish(self) -> Result<W> {
        self.w.finish()
    }

    #[inline]
    fn put(&mut self, s: &str) -> Result<()> {
        self.w.buf.extend_from_slice(s.as_bytes());
        self.w.maybe_flush()
    }

    /// Appends text as `printString`: `<` and `&` as character references.
    fn put_text(&mut self, s: &str) {
        if !s.bytes().any(|b| b == b'<' || b == b'&') {
            java_utf8::push_str(&mut self.w.buf, s);
            return;
        }
        for ch in s.chars() {
            match ch {
                '<' => self.w.buf.extend_from_slice(b"&#60;"),
                '&' => self.w.buf.extend_from_slice(b"&#38;"),
                c => java_utf8::push_char(&mut self.w.buf, c),
            }
        }
    }

    /// Appends a name as `print` (raw) when that is well-formed, else as escaped text.
    fn put_name(&mut self, s: &str) {
        if s.bytes().all(|b| b.is_ascii() && b != b'<' && b != b'&') {
            self.w.buf.extend_from_slice(s.as_bytes());
        } else {
            self.put_text(s);
        }
    }

    /// Writes `<null></null>`.
    #[inline]
    pub fn write_null(&mut self) -> Result<()> {
        self.put("<null></null>")
    }

    /// Writes `<boolean>1</boolean>` or `<boolean>0</boolean>`.
    #[inline]
    pub fn write_bool(&mut self, v: bool) -> Result<()> {
        self.put(if v { "<boolean>1</boolean>" } else { "<boolean>0</boolean>" })
    }

    /// Writes `<int>v</int>`.
    #[inline]
    pub fn write_int(&mut self, v: i32) -> Result<()> {
        let _ = write!(self.w.buf, "<int>{v}</int>");
        self.put("")
    }

    /// Writes `<long>v</long>`.
    #[inline]
    pub fn write_long(&mut self, v: i64) -> Result<()> {
        let _ = write!(self.w.buf, "<long>{v}</long>");
        self.put("")
    }

    /// Writes `<double>v</double>` with the value formatted as Java's `Double.toString`.
    #[inline]
    pub fn write_double(&mut self, v: f64) -> Result<()> {
        self.w.buf.extend_from_slice(b"<double>");
        self.w.buf.extend_from_slice(text::java_double(v).as_bytes());
        self.put("</double>")
    }

    /// Writes `<date>yyyyMMddTHHmmss.SSSZ</date>`.
    #[inline]
    pub fn write_date(&mut self, millis: i64) -> Result<()> {
        self.w.buf.extend_from_slice(b"<date>");
        text::format_date(millis, &mut self.w.buf);
        self.put("</date>")
    }

    /// Writes `<string>text</string>`.
    #[inline]
    pub fn write_str(&mut self, s: &str) -> Result<()> {
        self.w.buf.extend_from_slice(b"<string>");
        self.put_text(s);
        self.put("</string>")
    }

    /// Writes `<base64>…</base64>` laid out as `BurlapOutput` does.
    pub fn write_bytes(&mut self, data: &[u8]) -> Result<()> {
        self.w.buf.extend_from_slice(b"<base64>");
        text::encode_base64(data, &mut self.w.buf);
        self.put("</base64>")
    }

    /// Starts a list: `<list><type>T</type><length>n</length>`; an unknown length is written as
    /// `-1`, as Java writes it for iterators.
    pub fn write_list_begin(&mut self, len: Option<usize>, type_name: Option<&str>) -> Result<()> {
        self.w.buf.extend_from_slice(b"<list><type>");
        self.put_name(type_name.unwrap_or(""));
        let n = match len {
            Some(n) => i64::try_from(n).unwrap_or(i64::MAX),
            None => -1,
        };
        if n > i64::from(i32::MAX) {
            return Err(Error::new(ErrorKind::Unencodable(format!("list length {n} exceeds 2^31-1")), self.position()));
        }
        let _ = write!(self.w.buf, "</type><length>{n}</length>");
        self.put("")
    }

    /// Starts an untyped list for the serde serializer: of `len` elements, or of a length that
    /// [`end_counted_list`](Self::end_counted_list) fills in (the output stays buffered until
    /// then). Returns the output position of the length's digits and their count.
    pub(crate) fn begin_counted_list(&mut self, len: Option<usize>) -> Result<(u64, usize)> {
        match len {
            Some(n) => {
                self.write_list_begin(Some(n), None)?;
                let digits = n.to_string().len();
                Ok((self.position() - "</length>".len() as u64 - digits as u64, digits))
            }
            None => {
                self.w.hold();
                self.w.buf.extend_from_slice(b"<list><type></type><length></length>");
                Ok((self.position() - "</length>".len() as u64, 0))
            }
        }
    }

    /// Writes the length of a list started with [`begin_counted_list`](Self::begin_counted_list)
    /// without one, ends one hold of the output, and ends the list.
    pub(crate) fn end_counted_list(&mut self, pos: u64, len: usize) -> Result<()> {
        self.w.release();
        self.patch_list_len(pos, 0, len)?;
        self.write_list_end()
    }

    /// Rewrites the length of a list (its `width` digits at output position `pos`) to `len`;
    /// fails when those bytes have already been handed to the writer.
    pub(crate) fn patch_list_len(&mut self, pos: u64, width: usize, len: usize) -> Result<()> {
        let what = if i32::try_from(len).is_err() {
            format!("list length {len} exceeds 2^31-1")
        } else if self.w.splice(pos, width, len.to_string().as_bytes()) {
            return Ok(());
        } else {
            format!("a sequence wrote {len} elements, not the length it declared")
        };
        Err(Error::new(ErrorKind::Unencodable(what), self.position()))
    }

    /// Ends a list.
    pub fn write_list_end(&mut self) -> Result<()> {
        self.put("</list>")
    }

    /// Starts a map: `<map><type>T</type>` (empty type when untyped).
    #[inline]
    pub fn write_map_begin(&mut self, type_name: Option<&str>) -> Result<()> {
        self.w.buf.extend_from_slice(b"<map><type>");
        self.put_name(type_name.unwrap_or(""));
        self.put("</type>")
    }

    /// Ends a map.
    #[inline]
    pub fn write_map_end(&mut self) -> Result<()> {
        self.put("</map>")
    }

    /// Writes `<ref>n</ref>`, a back reference to the n-th list or map of the message.
    pub fn write_ref(&mut self, index: u32) -> Result<()> {
        let _ = write!(self.w.buf, "<ref>{index}</ref>");
        self.put("")
    }

    /// Writes `<remote><type>T</type><string>url</string></remote>`.
    pub fn write_remote(&mut self, type_name: &str, url: &str) -> Result<()> {
        self.w.buf.extend_from_slice(b"<remote><type>");
        self.put_name(type_name);
        self.w.buf.extend_from_slice(b"</type><string>");
        self.put_name(url);
        self.put("</string></remote>")
    }

    /// Writes any [`Value`]; objects as typed maps of field names, as Java does in Burlap.
    pub fn write_value(&mut self, v: &Value) -> Result<()> {
        token::write_value(self, v)
    }

    /// Starts a call: `<burlap:call>`.
    pub fn write_call_begin(&mut self) -> Result<()> {
        self.put("<burlap:call>")
    }

    /// Writes a header: `<header>name</header>` then its value.
    pub fn write_header(&mut self, name: &str, value: &Value) -> Result<()> {
        self.w.buf.extend_from_slice(b"<header>");
        self.put_text(name);
        self.put("</header>")?;
        self.write_value(value)
    }

    /// Writes the method of a call: `<method>name</method>`.
    pub fn write_method(&mut self, method: &str) -> Result<()> {
        self.w.buf.extend_from_slice(b"<method>");
        self.put_name(method);
        self.put("</method>")
    }

    /// Ends a call: `</burlap:call>`.
    pub fn write_call_end(&mut self) -> Result<()> {
        self.put("</burlap:call>")
    }

    /// Writes a complete call: headers, method, arguments.
    pub fn write_call(&mut self, call: &Call) -> Result<()> {
        self.write_call_begin()?;
        for (name, value) in &call.headers {
            self.write_header(name, value)?;
        }
        self.write_method(&call.method)?;
        for a in &call.args {
            self.write_value(a)?;
        }
        self.write_call_end()
    }

    /// Starts a reply whose value follows: `<burlap:reply>`.
    pub fn write_reply_begin(&mut self) -> Result<()> {
        self.put("<burlap:reply>")
    }

    /// Ends a reply: `</burlap:reply>`.
    pub fn write_reply_end(&mut self) -> Result<()> {
        self.put("</burlap:reply>")
    }

    /// Writes a complete reply, `<burlap:reply>value</burlap:reply>`, or for a fault
    /// `<burlap:reply><fault>…</fault></burlap:reply>` as `BurlapSkeleton` sends it.
    pub fn write_reply(&mut self, reply: &Reply) -> Result<()> {
        self.put("<burlap:reply>")?;
        match reply {
            Ok(v) => self.write_value(v)?,
            Err(f) => self.write_fault(f)?,
        }
        self.put("</burlap:reply>")
    }

    /// Writes a fault as `BurlapOutput.writeFault` (without the reply envelope): `<fault>`, the
    /// strings `code`, `message` (and `detail` with its value when present), `</fault>`.
    pub fn write_fault(&mut self, f: &Fault) -> Result<()> {
        self.put("<fault>")?;
        self.write_str("code")?;
        self.write_str(&f.code)?;
        self.write_str("message")?;
        match &f.message {
            Some(m) => self.write_str(m)?,
            None => self.write_null()?,
        }
        if let Some(d) = &f.detail {
            self.write_str("detail")?;
            self.write_value(d)?;
        }
        self.put("</fault>")
    }
}

/// Encodes one value as Burlap (no envelope).
pub fn to_vec(v: &Value) -> Result<Vec<u8>> {
    let mut e = Encoder::new(Vec::new());
    e.write_value(v)?;
    e.finish()
}

/// Encodes one value to a writer (no envelope).
pub fn to_writer<W: Write>(w: W, v: &Value) -> Result<()> {
    let mut e = Encoder::new(w);
    e.write_value(v)?;
    e.flush()
}

/// Encodes a call as `BurlapOutput.call` does.
pub fn call_to_vec(call: &Call) -> Result<Vec<u8>> {
    let mut e = Encoder::new(Vec::new());
    e.write_call(call)?;
    e.finish()
}

/// Encodes a reply (value or fault) in its `<burlap:reply>` envelope.
pub fn reply_to_vec(reply: &Reply) -> Result<Vec<u8>> {
    let mut e = Encoder::new(Vec::new());
    e.write_reply(reply)?;
    e.finish()
}

/// Encodes a fault reply: the `<fault>` element `BurlapOutput.writeFault` writes, in its
/// `<burlap:reply>` envelope.
pub fn fault_to_vec(fault: &Fault) -> Result<Vec<u8>> {
    let mut e = Encoder::new(Vec::new());
    e.write_reply_begin()?;
    e.write_fault(fault)?;
    e.write_reply_end()?;
    e.finish()
}

token::envelope_writes!(impl[W: Write] Encoder<W>, |e: &mut Self, _major| e.write_call_begin());

impl<W: Write> token::sealed::Sealed for Encoder<W> {}

impl<W: Write> TokenWrite for Encoder<W> {
    type Writer = W;
    const FIXED_LISTS_END: bool = true;
    forward_token_write!(objects_as_maps);
}
