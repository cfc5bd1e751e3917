//! Hessian 1.0.2 encoder, byte-identical to Caucho 4.0.38's `HessianOutput`.
//!
//! `HessianOutput` is unbuffered, so (unlike Hessian 2.0) no byte depends on buffer fill levels;
//! this encoder still collects output in a buffer and hands it to the writer in large pieces.
//!
//! Objects ([`Value::Object`]) are written as Java writes them in Hessian 1: a typed map whose
//! keys are the field names, `M t <class> (S field value)* z`.

use super::codes::*;
use crate::envelope::{Call, Fault, Reply};
use crate::error::{Error, ErrorKind, Result};
use crate::java_utf8;
use crate::token::{self, forward_token_write, TokenWrite};
use crate::value::{Object, Value};
use crate::write::Output;
use std::io::Write;

/// Writes Hessian 1.0.2 values and envelopes to a `std::io::Write`. Output is buffered: call
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
    fn maybe_flush(&mut self) -> Result<()> {
        self.w.maybe_flush()
    }

    fn unencodable(&self, what: String) -> Error {
        Error::new(ErrorKind::Unencodable(what), self.position())
    }

    /// Writes raw bytes (e.g. a hand-made envelope code).
    pub fn write_raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.w.buf.extend_from_slice(bytes);
        self.maybe_flush()
    }

    /// Writes `null` (`N`).
    #[inline]
    pub fn write_null(&mut self) -> Result<()> {
        self.w.buf.push(BC_NULL);
        self.maybe_flush()
    }

    /// Writes a boolean (`T` / `F`).
    #[inline]
    pub fn write_bool(&mut self, v: bool) -> Result<()> {
        self.w.buf.push(if v { BC_TRUE } else { BC_FALSE });
        self.maybe_flush()
    }

    /// Writes an int (`I` and 4 bytes; Hessian 1 has no compact forms).
    #[inline]
    pub fn write_int(&mut self, v: i32) -> Result<()> {
        self.w.buf.push(BC_INT);
        self.w.buf.extend_from_slice(&v.to_be_bytes());
        self.maybe_flush()
    }

    /// Writes a long (`L` and 8 bytes).
    #[inline]
    pub fn write_long(&mut self, v: i64) -> Result<()> {
        self.w.buf.push(BC_LONG);
        self.w.buf.extend_from_slice(&v.to_be_bytes());
        self.maybe_flush()
    }

    /// Writes a double (`D` and the 8 IEEE bytes; NaN as Java's canonical NaN).
    #[inline]
    pub fn write_double(&mut self, v: f64) -> Result<()> {
        self.w.buf.push(BC_DOUBLE);
        // Double.doubleToLongBits collapses every NaN to 0x7ff8000000000000.
        let bits = if v.is_nan() { 0x7ff8_0000_0000_0000 } else { v.to_bits() };
        self.w.buf.extend_from_slice(&bits.to_be_bytes());
        self.maybe_flush()
    }

    /// Writes a date (`d` and 8 bytes of milliseconds since the epoch).
    #[inline]
    pub fn write_date(&mut self, millis: i64) -> Result<()> {
        self.w.buf.push(BC_DATE);
        self.w.buf.extend_from_slice(&millis.to_be_bytes());
        self.maybe_flush()
    }

    /// Writes a string: `s` chunks of 0x8000 UTF-16 units (never splitting a surrogate pair)
    /// while more remains, then the final `S` chunk.
    #[inline]
    pub fn write_str(&mut self, s: &str) -> Result<()> {
        if s.len() <= CHUNK_MAX && s.is_ascii() {
            let n = s.len();
            self.w.buf.extend_from_slice(&[BC_STRING, (n >> 8) as u8, n as u8]);
            self.w.buf.extend_from_slice(s.as_bytes());
            return self.maybe_flush();
        }
        let chunks = java_utf8::chunks(s, CHUNK_MAX);
        let n = chunks.len();
        for (i, (piece, units)) in chunks.into_iter().enumerate() {
            let code = if i + 1 == n { BC_STRING } else { BC_STRING_CHUNK };
            self.w.buf.extend_from_slice(&[code, (units >> 8) as u8, units as u8]);
            java_utf8::push_str(&mut self.w.buf, piece);
            self.maybe_flush()?;
        }
        Ok(())
    }

    /// Writes `len16 utf8` for a name (type, method, header), as `printLenString`.
    fn write_len_str(&mut self, s: &str) -> Result<()> {
        let units = java_utf8::utf16_len(s);
        if units > 0xffff {
            return Err(self.unencodable(format!("name of {units} UTF-16 units exceeds 65535")));
        }
        self.w.buf.extend_from_slice(&[(units >> 8) as u8, units as u8]);
        java_utf8::push_str(&mut self.w.buf, s);
        self.maybe_flush()
    }

    /// Writes binary data: `b` chunks of 0x8000 bytes while more remains, then the final `B`.
    pub fn write_bytes(&mut self, data: &[u8]) -> Result<()> {
        let mut rest = data;
        while rest.len() > CHUNK_MAX {
            let (head, tail) = rest.split_at(CHUNK_MAX);
            self.w.buf.extend_from_slice(&[BC_BINARY_CHUNK, (CHUNK_MAX >> 8) as u8, CHUNK_MAX as u8]);
            self.w.buf.extend_from_slice(head);
            self.maybe_flush()?;
            rest = tail;
        }
        let n = rest.len();
        self.w.buf.extend_from_slice(&[BC_BINARY, (n >> 8) as u8, n as u8]);
        self.w.buf.extend_from_slice(rest);
        self.maybe_flush()
    }

    /// Starts a list: `V`, then `t type` when typed, then `l length` when the length is known.
    /// Every Hessian 1 list ends with [`write_list_end`](Self::write_list_end).
    pub fn write_list_begin(&mut self, len: Option<usize>, type_name: Option<&str>) -> Result<()> {
        self.w.buf.push(BC_LIST);
        if let Some(t) = type_name {
            self.w.buf.push(BC_TYPE);
            self.write_len_str(t)?;
        }
        if let Some(n) = len {
            let n = i32::try_from(n).map_err(|_| self.unencodable(format!("list length {n} exceeds 2^31-1")))?;
            self.w.buf.push(BC_LENGTH);
            self.w.buf.extend_from_slice(&n.to_be_bytes());
        }
        self.maybe_flush()
    }

    /// Starts a list whose length is written later with
    /// [`end_counted_list`](Self::end_counted_list): `V l` and a placeholder length; the output
    /// stays buffered until then. Returns the output position of the length.
    pub(crate) fn begin_counted_list(&mut self) -> Result<u64> {
        self.w.hold();
        self.w.buf.extend_from_slice(&[BC_LIST, BC_LENGTH, 0, 0, 0, 0]);
        Ok(self.position() - 4)
    }

    /// Writes the length of a list started with [`begin_counted_list`](Self::begin_counted_list)
    /// at `pos`, ends one hold of the output, and ends the list (`z`).
    pub(crate) fn end_counted_list(&mut self, pos: u64, len: usize) -> Result<()> {
        self.w.release();
        self.patch_list_len(pos, len)?;
        self.write_list_end()
    }

    /// Rewrites the length of a list (written at output position `pos`) to `len`; fails when
    /// those bytes have already been handed to the writer.
    pub(crate) fn patch_list_len(&mut self, pos: u64, len: usize) -> Result<()> {
        let n = i32::try_from(len).map_err(|_| self.unencodable(format!("list length {len} exceeds 2^31-1")))?;
        if self.w.patch(pos, &n.to_be_bytes()) {
            return Ok(());
        }
        Err(self.unencodable(format!("a sequence wrote {len} elements, not the length it declared")))
    }

    /// Ends a list (`z`).
    pub fn write_list_end(&mut self) -> Result<()> {
        self.w.buf.push(BC_END);
        self.maybe_flush()
    }

    /// Starts a map: `M t type` (an untyped map has the empty type, as Java writes it).
    #[inline]
    pub fn write_map_begin(&mut self, type_name: Option<&str>) -> Result<()> {
        self.w.buf.extend_from_slice(&[BC_MAP, BC_TYPE]);
        self.write_len_str(type_name.unwrap_or(""))
    }

    /// Ends a map (`z`).
    #[inline]
    pub fn write_map_end(&mut self) -> Result<()> {
        self.w.buf.push(BC_END);
        self.maybe_flush()
    }

    /// Writes a back reference to the `index`-th list or map of the message (`R` and 4 bytes).
    pub fn write_ref(&mut self, index: u32) -> Result<()> {
        let i = i32::try_from(index).map_err(|_| self.unencodable(format!("reference {index} exceeds 2^31-1")))?;
        self.w.buf.push(BC_REF);
        self.w.buf.extend_from_slice(&i.to_be_bytes());
        self.maybe_flush()
    }

    /// Writes a remote object reference: `r t type S url`.
    pub fn write_remote(&mut self, type_name: &str, url: &str) -> Result<()> {
        self.w.buf.extend_from_slice(&[BC_REMOTE, BC_TYPE]);
        self.write_len_str(type_name)?;
        self.w.buf.push(BC_STRING);
        self.write_len_str(url)
    }

    /// Writes any [`Value`] (objects as Java writes them in Hessian 1, a map typed with the class
    /// name and keyed by field name).
    pub fn write_value(&mut self, v: &Value) -> Result<()> {
        token::write_value(self, v)
    }

    /// Starts a call: `c major minor`. Java's `HessianOutput.call` writes `c 1 0`; with
    /// `setVersion(2)` (what `HessianProxyFactory` does by default) `c 2 0`, asking for a
    /// Hessian 2 reply while everything after the header stays Hessian 1; its no-argument
    /// `startCall()` (the one used with headers) writes `c 0 1`.
    pub fn write_call_begin(&mut self, major: u8, minor: u8) -> Result<()> {
        self.w.buf.extend_from_slice(&[BC_CALL, major, minor]);
        Ok(())
    }

    /// Writes a header: `H len16 name` then its value.
    pub fn write_header(&mut self, name: &str, value: &Value) -> Result<()> {
        self.w.buf.push(BC_HEADER);
        self.write_len_str(name)?;
        self.write_value(value)
    }

    /// Writes the method name of a call: `m len16 name`.
    pub fn write_method(&mut self, method: &str) -> Result<()> {
        self.w.buf.push(BC_METHOD);
        self.write_len_str(method)
    }

    /// Ends a call (`z`).
    pub fn write_call_end(&mut self) -> Result<()> {
        self.write_raw(&[BC_END])
    }

    /// Writes a complete call: `c major 0`, headers, `m method`, the arguments, `z`.
    pub fn write_call(&mut self, call: &Call, major: u8) -> Result<()> {
        self.write_call_begin(major, MINOR)?;
        for (name, value) in &call.headers {
            self.write_header(name, value)?;
        }
        self.write_method(&call.method)?;
        for a in &call.args {
            self.write_value(a)?;
        }
        self.write_raw(&[BC_END])
    }

    /// Starts a reply whose value follows: `r 1 0`.
    pub fn write_reply_begin(&mut self) -> Result<()> {
        self.w.buf.extend_from_slice(&[BC_REPLY, MAJOR, MINOR]);
        Ok(())
    }

    /// Ends a reply (`z`).
    pub fn write_reply_end(&mut self) -> Result<()> {
        self.write_raw(&[BC_END])
    }

    /// Writes a complete reply: `r 1 0 value z`, or for a fault `r 1 0 f … z z` as
    /// `HessianOutput.writeFault` writes it (the fault includes the reply envelope).
    pub fn write_reply(&mut self, reply: &Reply) -> Result<()> {
        match reply {
            Ok(v) => {
                self.w.buf.extend_from_slice(&[BC_REPLY, MAJOR, MINOR]);
                self.write_value(v)?;
                self.write_raw(&[BC_END])
            }
            Err(f) => self.write_fault(f),
        }
    }

    /// Writes a fault reply exactly as `HessianOutput.writeFault`: `r 1 0 f`, the strings
    /// `code`, `message` (and `detail` with its value when present), `z z`.
    pub fn write_fault(&mut self, f: &Fault) -> Result<()> {
        self.w.buf.extend_from_slice(&[BC_REPLY, MAJOR, MINOR, BC_FAULT]);
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
        self.write_raw(&[BC_END, BC_END])
    }
}

/// Encodes one value as Hessian 1.0.2 bytes (no envelope).
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

/// Encodes a call as `HessianOutput` 4.0.38 does (`c 1 0 …`).
pub fn call_to_vec(call: &Call) -> Result<Vec<u8>> {
    call_to_vec_versioned(call, MAJOR)
}

/// Encodes a call with the given major version in its header; `2` gives the hybrid call
/// (`c 2 0`, Hessian 1 body) that `HessianProxyFactory` sends by default.
pub fn call_to_vec_versioned(call: &Call, major: u8) -> Result<Vec<u8>> {
    let mut e = Encoder::new(Vec::new());
    e.write_call(call, major)?;
    e.finish()
}

/// Encodes a reply (value or fault) as `HessianOutput` 4.0.38 does.
pub fn reply_to_vec(reply: &Reply) -> Result<Vec<u8>> {
    let mut e = Encoder::new(Vec::new());
    e.write_reply(reply)?;
    e.finish()
}

/// Encodes a fault reply as `HessianOutput.writeFault` does.
pub fn fault_to_vec(fault: &Fault) -> Result<Vec<u8>> {
    let mut e = Encoder::new(Vec::new());
    e.write_fault(fault)?;
    e.finish()
}

token::envelope_writes!(impl[W: Write] Encoder<W>, |e: &mut Self, major| e.write_call_begin(major, 0));

impl<W: Write> token::sealed::Sealed for Encoder<W> {}

impl<W: Write> TokenWrite for Encoder<W> {
    type Writer = W;
    const FIXED_LISTS_END: bool = true;
    forward_token_write!(objects_as_maps);
}
