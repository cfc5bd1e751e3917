//! Hessian 1.0.2 decoder: accepts everything Caucho 4.0.38's `HessianOutput` writes and the rest
//! of the 1.0.2 grammar that `HessianInput` reads, with typed errors carrying byte offsets and the
//! same [`Limits`] as the Hessian 2.0 decoder.
//!
//! Typed maps stay [`Value::Map`]s (lossless: Hessian 1 cannot tell an object from a typed map);
//! [`crate::convert`] turns them into objects for a Hessian 2 peer.

use super::codes::*;
use crate::envelope::{Call, CallHeader, CallItem, Fault, Reply, ReplyItem};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::kind::Kind;
use crate::read::{finish_str, IoRead, Read, Reference, SliceRead};
use crate::token::{byte_token_read, forward_token_read, read_whole, ListHead, MapHead, Scalar, TokenRead};
use crate::value::{List, Map, Remote, Value};
use std::marker::PhantomData;

/// Reads Hessian 1.0.2 values and envelopes from a [`Read`] source.
pub struct Decoder<'de, R: Read<'de>> {
    pub(crate) read: R,
    limits: Limits,
    refs: usize,
    depth: usize,
    scratch: Vec<u8>,
    str_scratch: String,
    _de: PhantomData<&'de ()>,
}

impl<'de> Decoder<'de, SliceRead<'de>> {
    /// A decoder over a byte slice.
    pub fn from_slice(data: &'de [u8]) -> Self {
        Decoder::new(SliceRead::new(data))
    }
}

impl<R: std::io::Read> Decoder<'static, IoRead<R>> {
    /// A decoder over any `std::io::Read` (buffered internally).
    pub fn from_reader(r: R) -> Self {
        Decoder::new(IoRead::new(r))
    }
}

impl<'de, R: Read<'de>> Decoder<'de, R> {
    /// A decoder with default limits.
    pub fn new(read: R) -> Self {
        Decoder {
            read,
            limits: Limits::default(),
            refs: 0,
            depth: 0,
            scratch: Vec::new(),
            str_scratch: String::new(),
            _de: PhantomData,
        }
    }

    /// Replaces the limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The underlying reader.
    pub fn reader(&mut self) -> &mut R {
        &mut self.read
    }

    /// Offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.read.offset()
    }

    /// Starts a new message: forgets value references.
    pub fn reset(&mut self) {
        self.refs = 0;
    }

    /// Number of referenceable values (lists and maps) seen in this message.
    pub fn ref_count(&self) -> usize {
        self.refs
    }

    /// Forgets the references registered from index `n` on (after re-reading a referenced
    /// value, which registers its parts a second time).
    pub(crate) fn truncate_refs(&mut self, n: usize) {
        self.refs = self.refs.min(n);
    }

    /// Fails unless the input is exhausted.
    pub fn end(&mut self) -> Result<()> {
        match self.read.peek()? {
            None => Ok(()),
            Some(_) => Err(self.err(ErrorKind::TrailingBytes)),
        }
    }

    pub(crate) fn err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.read.offset())
    }

    pub(crate) fn unexpected(&self, code: u8, context: &'static str) -> Error {
        Error::new(ErrorKind::UnexpectedCode { code, context }, self.read.offset().saturating_sub(1))
    }

    fn limit(&self, what: &'static str, limit: usize) -> Error {
        self.err(ErrorKind::LimitExceeded { what, limit: limit as u64 })
    }

    fn be<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut b = [0u8; N];
        for x in b.iter_mut() {
            *x = self.read.next()?;
        }
        Ok(b)
    }

    fn u16(&mut self) -> Result<usize> {
        let [hi, lo] = self.be::<2>()?;
        Ok((usize::from(hi) << 8) | usize::from(lo))
    }

    pub(crate) fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_be_bytes(self.be::<4>()?))
    }

    pub(crate) fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_be_bytes(self.be::<8>()?))
    }

    pub(crate) fn enter(&mut self) -> Result<()> {
        if self.depth >= self.limits.max_depth {
            return Err(self.limit("depth", self.limits.max_depth));
        }
        self.depth += 1;
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    fn add_ref(&mut self) -> Result<()> {
        if self.refs >= self.limits.max_refs {
            return Err(self.limit("references", self.limits.max_refs));
        }
        self.refs += 1;
        Ok(())
    }

    /// Checks a string piece of `units` UTF-16 units (`total` so far) against the limits and
    /// the input left.
    fn check_units_total(&self, units: usize, total: usize) -> Result<()> {
        if total > self.limits.max_string_len {
            return Err(self.limit("string length", self.limits.max_string_len));
        }
        if let Some(rem) = self.read.remaining() {
            if units as u64 > rem {
                return Err(self.err(ErrorKind::LengthPastEnd { declared: units as u64, available: rem }));
            }
        }
        Ok(())
    }

    fn check_units(&self, units: usize) -> Result<()> {
        self.check_units_total(units, units)
    }

    /// Reads `units` UTF-16 units of string data onto `out`, checking limits and input size.
    fn append_units(&mut self, units: usize, total: usize, out: &mut String, pending: &mut Option<u16>) -> Result<()> {
        self.check_units_total(units, total)?;
        self.read.append_str(units, out, pending)
    }

    /// Parses a string whose code (`S`, `s`, `X` or `x`) has been read.
    pub fn parse_string(&mut self, code: u8) -> Result<String> {
        let (fin, chunk) = match code {
            BC_STRING | BC_STRING_CHUNK => (BC_STRING, BC_STRING_CHUNK),
            BC_XML | BC_XML_CHUNK => (BC_XML, BC_XML_CHUNK),
            _ => return Err(self.unexpected(code, "string")),
        };
        if code == fin {
            // One chunk: let the reader borrow or fast-path ASCII.
            let len = self.u16()?;
            self.check_units(len)?;
            let mut scratch = std::mem::take(&mut self.str_scratch);
            let s = self.read.read_str(len, &mut scratch)?.to_owned();
            self.str_scratch = scratch;
            return Ok(s);
        }
        let mut out = String::new();
        self.append_chunks(code, fin, chunk, &mut out)?;
        Ok(out)
    }

    /// Like [`parse_string`](Self::parse_string), but borrows the string from a slice input
    /// when it is one plain UTF-8 chunk (otherwise it is decoded into a scratch buffer).
    pub(crate) fn parse_str(&mut self, code: u8) -> Result<Reference<'de, '_, str>> {
        let (fin, chunk) = match code {
            BC_STRING | BC_STRING_CHUNK => (BC_STRING, BC_STRING_CHUNK),
            BC_XML | BC_XML_CHUNK => (BC_XML, BC_XML_CHUNK),
            _ => return Err(self.unexpected(code, "string")),
        };
        if code == fin {
            let len = self.u16()?;
            self.check_units(len)?;
            return self.read.read_str(len, &mut self.str_scratch);
        }
        let mut out = std::mem::take(&mut self.str_scratch);
        out.clear();
        let r = self.append_chunks(code, fin, chunk, &mut out);
        self.str_scratch = out;
        r?;
        Ok(Reference::Copied(self.str_scratch.as_str()))
    }

    /// The chunks of a chunked string (first code `code` read) appended to `out`.
    fn append_chunks(&mut self, code: u8, fin: u8, chunk: u8, out: &mut String) -> Result<()> {
        let mut pending = None;
        let mut code = code;
        let mut total = 0usize;
        loop {
            let len = self.u16()?;
            total += len;
            self.append_units(len, total, out, &mut pending)?;
            if code == fin {
                break;
            }
            code = self.read.next()?;
            if code != fin && code != chunk {
                return Err(self.unexpected(code, "string chunk"));
            }
        }
        finish_str(pending, self.read.offset())
    }

    /// Like [`parse_bytes`](Self::parse_bytes), but borrows the data from a slice input when it
    /// is one chunk (otherwise it is gathered in a scratch buffer).
    pub(crate) fn parse_bytes_ref(&mut self, code: u8) -> Result<Reference<'de, '_, [u8]>> {
        if code == BC_BINARY {
            let len = self.u16()?;
            if len > self.limits.max_binary_len {
                return Err(self.limit("binary length", self.limits.max_binary_len));
            }
            return self.read.read_bytes(len, &mut self.scratch);
        }
        let out = self.parse_bytes(code)?;
        self.scratch = out;
        Ok(Reference::Copied(self.scratch.as_slice()))
    }

    /// Reads a string value (`S`/`s` chunks; `N` is an error here).
    pub fn read_string(&mut self) -> Result<String> {
        let code = self.read.next()?;
        self.parse_string(code)
    }

    /// Reads a length-prefixed name (`len16 utf8`) as used by types, methods and headers.
    fn read_len_str(&mut self) -> Result<String> {
        let len = self.u16()?;
        self.check_units(len)?;
        let mut scratch = std::mem::take(&mut self.str_scratch);
        let s = self.read.read_str(len, &mut scratch)?.to_owned();
        self.str_scratch = scratch;
        Ok(s)
    }

    /// Parses binary data whose code (`B` or `b`) has been read.
    pub fn parse_bytes(&mut self, code: u8) -> Result<Vec<u8>> {
        if code != BC_BINARY && code != BC_BINARY_CHUNK {
            return Err(self.unexpected(code, "binary"));
        }
        let mut out = Vec::new();
        let mut code = code;
        loop {
            let len = self.u16()?;
            if out.len() + len > self.limits.max_binary_len {
                return Err(self.limit("binary length", self.limits.max_binary_len));
            }
            let piece = self.read.read_bytes(len, &mut self.scratch)?;
            out.extend_from_slice(&piece);
            if code == BC_BINARY {
                return Ok(out);
            }
            code = self.read.next()?;
            if code != BC_BINARY && code != BC_BINARY_CHUNK {
                return Err(self.unexpected(code, "binary chunk"));
            }
        }
    }

    /// Reads an optional `t len16 type`; `None` when the next byte is not `t`.
    fn read_opt_type(&mut self) -> Result<Option<String>> {
        if self.read.peek()? == Some(BC_TYPE) {
            self.read.next()?;
            Ok(Some(self.read_len_str()?))
        } else {
            Ok(None)
        }
    }

    /// A declared list length, checked against the limits and the input left; a negative one
    /// means "length unknown" (`None`), as `HessianInput` reads it: the list runs to its `z`.
    fn check_len(&self, n: i32) -> Result<Option<usize>> {
        let Ok(n) = u64::try_from(n) else { return Ok(None) };
        if n > self.limits.max_collection_len as u64 {
            return Err(self.limit("collection length", self.limits.max_collection_len));
        }
        if let Some(rem) = self.read.remaining() {
            if n > rem {
                return Err(self.err(ErrorKind::LengthPastEnd { declared: n, available: rem }));
            }
        }
        Ok(Some(n as usize))
    }

    /// Reads one complete value.
    pub fn read_value(&mut self) -> Result<Value> {
        let code = self.read.next()?;
        self.parse_value(code)
    }

    /// Reads the value whose code has been read.
    pub fn parse_value(&mut self, code: u8) -> Result<Value> {
        Ok(match kind(code) {
            Kind::Null => Value::Null,
            Kind::Bool => Value::Bool(code == BC_TRUE),
            Kind::Int => Value::Int(self.i32()?),
            Kind::Long => Value::Long(self.i64()?),
            Kind::Double => Value::Double(f64::from_bits(u64::from_be_bytes(self.be::<8>()?))),
            Kind::Date => Value::Date(self.i64()?),
            Kind::String => Value::String(self.parse_string(code)?),
            Kind::Binary => Value::Binary(self.parse_bytes(code)?),
            Kind::List => {
                self.enter()?;
                let list = self.parse_list()?;
                self.leave();
                Value::List(Box::new(list))
            }
            Kind::Map => {
                self.enter()?;
                let map = self.parse_map()?;
                self.leave();
                Value::Map(Box::new(map))
            }
            Kind::Ref => Value::Ref(self.parse_ref()?),
            Kind::Remote => Value::Remote(Box::new(self.parse_remote()?)),
            Kind::ClassDef | Kind::Object | Kind::Invalid => return Err(self.unexpected(code, "value")),
        })
    }

    /// Parses a list after its `V`: optional type, optional length, values until `z`.
    fn parse_list(&mut self) -> Result<List> {
        let (type_name, len) = self.parse_list_header()?;
        let mut items = Vec::with_capacity(len.unwrap_or(0).min(4096));
        loop {
            let c = self.read.next()?;
            if c == BC_END {
                break;
            }
            self.check_count(items.len())?;
            items.push(self.parse_value(c)?);
        }
        self.check_list_len(len, items.len())?;
        Ok(List { type_name, fixed_length: len.is_some(), items })
    }

    /// Reads the header of a list after its `V` (optional type, optional length, checked against
    /// the limits and the input left) and registers the list as a reference.
    pub(crate) fn parse_list_header(&mut self) -> Result<(Option<String>, Option<usize>)> {
        let type_name = self.read_opt_type()?;
        let len = if self.read.peek()? == Some(BC_LENGTH) {
            self.read.next()?;
            let n = self.i32()?;
            self.check_len(n)?
        } else {
            None
        };
        self.add_ref()?;
        Ok((type_name, len))
    }

    /// Before the element or entry after `count` others: refuses one past the collection limit.
    #[inline]
    pub(crate) fn check_count(&self, count: usize) -> Result<()> {
        self.limits.check_count(count, || self.read.offset())
    }

    /// After a list's `z`: the list held as many elements as it declared, if it declared any.
    pub(crate) fn check_list_len(&self, declared: Option<usize>, count: usize) -> Result<()> {
        match declared {
            Some(n) if n != count => {
                Err(self.err(ErrorKind::Malformed(format!("list declares {n} elements but holds {count}"))))
            }
            _ => Ok(()),
        }
    }

    /// Reads the header of a map after its `M` (optional type; empty means untyped) and
    /// registers the map as a reference.
    pub(crate) fn parse_map_header(&mut self) -> Result<Option<String>> {
        let type_name = self.read_opt_type()?.filter(|t| !t.is_empty());
        self.add_ref()?;
        Ok(type_name)
    }

    /// Parses a back reference after its `R`: the index, which must name a list or map already
    /// started in this message.
    pub(crate) fn parse_ref(&mut self) -> Result<u32> {
        let start = self.read.offset().saturating_sub(1);
        let i = self.i32()?;
        match u32::try_from(i) {
            Ok(r) if (r as usize) < self.refs => Ok(r),
            _ => Err(Error::new(ErrorKind::RefOutOfRange { index: i as u64, len: self.refs }, start)),
        }
    }

    /// Parses a remote object after its `r`: `t type S url`.
    pub(crate) fn parse_remote(&mut self) -> Result<Remote> {
        let c = self.read.next()?;
        if c != BC_TYPE {
            return Err(self.unexpected(c, "remote type"));
        }
        let type_name = self.read_len_str()?;
        let url = self.read_string()?;
        Ok(Remote { type_name, url })
    }

    /// Parses a map after its `M`: optional type (empty = untyped), entries until `z`.
    fn parse_map(&mut self) -> Result<Map> {
        let type_name = self.parse_map_header()?;
        let entries = self.read_entries(if type_name.is_some() { 8 } else { 0 })?;
        Ok(Map { type_name, entries })
    }

    /// Reads key/value pairs up to the closing `z` (map bodies and fault maps).
    pub(crate) fn read_entries(&mut self, capacity: usize) -> Result<Vec<(Value, Value)>> {
        let mut entries = Vec::with_capacity(capacity);
        loop {
            let c = self.read.next()?;
            if c == BC_END {
                return Ok(entries);
            }
            self.check_count(entries.len())?;
            let k = self.parse_value(c)?;
            let v = self.read_value()?;
            entries.push((k, v));
        }
    }

    fn expect(&mut self, want: u8, context: &'static str) -> Result<()> {
        let c = self.read.next()?;
        if c != want {
            return Err(self.unexpected(c, context));
        }
        Ok(())
    }

    /// Reads a call: `c major minor`, headers, `m method`, arguments, `z`. Returns the call and
    /// the major version of its header (1, or 2 for the hybrid call of `HessianProxyFactory`).
    pub fn read_call(&mut self) -> Result<(Call, u8)> {
        let header = self.read_call_header()?;
        let mut args = Vec::new();
        while !self.at_call_end()? {
            self.check_count(args.len())?;
            args.push(self.read_value()?);
        }
        self.read_call_end()?;
        Ok((Call { method: header.method, headers: header.headers, args }, header.major))
    }

    /// Reads the start of a call, up to its arguments: `c major minor`, the headers, `m method`.
    /// The arguments follow (read them, then [`read_call_end`](Self::read_call_end)); Hessian 1
    /// does not say how many there are ([`CallHeader::argc`] is `None`).
    pub fn read_call_header(&mut self) -> Result<CallHeader> {
        let (major, _minor) = self.read_call_start()?;
        let mut headers = Vec::new();
        loop {
            match self.read_call_item()? {
                CallItem::Header(name) => {
                    self.check_count(headers.len())?;
                    let v = self.read_value()?;
                    headers.push((name, v));
                }
                CallItem::Method(method) => return Ok(CallHeader { method, headers, major, argc: None }),
            }
        }
    }

    /// Reads `c major minor`, the opening of a call, and returns its version.
    pub fn read_call_start(&mut self) -> Result<(u8, u8)> {
        self.expect(BC_CALL, "call")?;
        let [major, minor] = self.be::<2>()?;
        Ok((major, minor))
    }

    /// Reads the next element of a call's start: `H name` (a header; read its value next) or
    /// `m method` (the arguments follow).
    pub fn read_call_item(&mut self) -> Result<CallItem> {
        match self.read.next()? {
            BC_HEADER => Ok(CallItem::Header(self.read_len_str()?)),
            BC_METHOD => Ok(CallItem::Method(self.read_len_str()?)),
            c => Err(self.unexpected(c, "call header or method")),
        }
    }

    /// Whether the arguments of a call have all been read (the next byte is the call's `z`).
    pub fn at_call_end(&mut self) -> Result<bool> {
        match self.read.peek()? {
            Some(BC_END) => Ok(true),
            Some(_) => Ok(false),
            None => Err(self.err(ErrorKind::UnexpectedEof)),
        }
    }

    /// Reads the `z` that ends a call.
    pub fn read_call_end(&mut self) -> Result<()> {
        self.expect(BC_END, "end of call")
    }

    /// Reads a reply: `r major minor`, headers (skipped), then a value or a fault, then `z`.
    pub fn read_reply(&mut self) -> Result<Reply> {
        if let Some(fault) = self.read_reply_header()? {
            return Ok(Err(fault));
        }
        let v = self.read_value()?;
        self.read_reply_end()?;
        Ok(Ok(v))
    }

    /// Reads the start of a reply: `r major minor` and its headers (skipped). A fault is read
    /// whole (with the reply's `z`) and returned; otherwise the value follows (read it, then
    /// [`read_reply_end`](Self::read_reply_end)).
    pub fn read_reply_header(&mut self) -> Result<Option<Fault>> {
        self.read_reply_start()?;
        loop {
            match self.read_reply_item()? {
                ReplyItem::Header(_) => {
                    self.read_value()?;
                }
                ReplyItem::Fault => {
                    self.enter()?;
                    let entries = self.read_entries(0)?;
                    self.leave();
                    self.read_reply_end()?;
                    return Ok(Some(Fault::from_entries(entries)));
                }
                ReplyItem::Value => return Ok(None),
            }
        }
    }

    /// Reads `r major minor`, the opening of a reply, and returns its version.
    pub fn read_reply_start(&mut self) -> Result<(u8, u8)> {
        self.expect(BC_REPLY, "reply")?;
        let [major, minor] = self.be::<2>()?;
        Ok((major, minor))
    }

    /// Reads what comes next in a reply: `H name` (a header; read its value next), `f` (a
    /// fault; its entries follow up to `z`, then the reply's `z`) or neither (the value, not
    /// consumed).
    pub fn read_reply_item(&mut self) -> Result<ReplyItem> {
        match self.read.peek()? {
            Some(BC_HEADER) => {
                self.read.next()?;
                Ok(ReplyItem::Header(self.read_len_str()?))
            }
            Some(BC_FAULT) => {
                self.read.next()?;
                Ok(ReplyItem::Fault)
            }
            Some(_) => Ok(ReplyItem::Value),
            None => Err(self.err(ErrorKind::UnexpectedEof)),
        }
    }

    /// Reads the `z` that ends a reply.
    pub fn read_reply_end(&mut self) -> Result<()> {
        self.expect(BC_END, "end of reply")
    }
}

/// Decodes exactly one value from a byte slice (no envelope); trailing bytes are an error.
pub fn from_slice(data: &[u8]) -> Result<Value> {
    from_slice_with_limits(data, Limits::default())
}

/// Like [`from_slice`] with explicit limits.
pub fn from_slice_with_limits(data: &[u8], limits: Limits) -> Result<Value> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), Decoder::read_value)
}

/// Decodes one value from a reader (no envelope); stops after the value.
pub fn from_reader<R: std::io::Read>(r: R) -> Result<Value> {
    let limits = Limits::default();
    let mut d = Decoder::from_reader(std::io::Read::take(r, limits.max_message_size)).with_limits(limits);
    d.read_value()
}

/// Decodes a complete call message within `limits`; returns the call and its header's major
/// version (2 for the hybrid `c 2 0`). Trailing bytes are an error.
pub fn call_from_slice(data: &[u8], limits: Limits) -> Result<(Call, u8)> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), Decoder::read_call)
}

/// Decodes a complete reply message (a value or a fault) within `limits`; trailing bytes are an
/// error.
pub fn reply_from_slice(data: &[u8], limits: Limits) -> Result<Reply> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), Decoder::read_reply)
}

impl<'de, R: Read<'de>> Decoder<'de, R> {
    /// The leaves [`TokenRead::scalar`] does not read in line.
    #[inline(never)]
    fn scalar_rest(&mut self, code: u8) -> Result<Scalar<'de, '_>> {
        Ok(match kind(code) {
            Kind::Null => Scalar::Null,
            Kind::Bool => Scalar::Bool(code == BC_TRUE),
            Kind::Int => Scalar::Int(self.i32()?),
            Kind::Long => Scalar::Long(self.i64()?),
            Kind::Double => Scalar::Double(f64::from_bits(self.i64()? as u64)),
            Kind::Date => Scalar::Date(self.i64()?),
            Kind::String => Scalar::Str(self.parse_str(code)?),
            Kind::Binary => Scalar::Bytes(self.parse_bytes_ref(code)?),
            Kind::Ref => Scalar::Ref(self.parse_ref()?),
            Kind::Remote => Scalar::Remote(Box::new(self.parse_remote()?)),
            _ => return Err(self.unexpected(code, "value")),
        })
    }
}

crate::token::envelope_reads!(impl['de, R: Read<'de>] Decoder<'de, R>, |f: Fault| f);

impl<'de, R: Read<'de>> crate::token::sealed::Sealed for Decoder<'de, R> {}

/// Hessian 1's tokens: an opening is a byte code, the end mark of lists and maps is `z`.
impl<'de, R: Read<'de>> TokenRead<'de> for Decoder<'de, R> {
    type Open = u8;
    /// The offset to read on from.
    type Mark = u64;
    forward_token_read!();
    byte_token_read!(BC_END);

    #[inline(always)]
    fn kind(code: u8) -> Kind {
        kind(code)
    }

    #[inline(always)]
    fn open(&mut self) -> Result<(u8, u64)> {
        let at = self.read.offset();
        Ok((self.read.next()?, at))
    }

    /// The common leaves in line, the others out of line.
    #[inline(always)]
    fn scalar(&mut self, code: u8) -> Result<Scalar<'de, '_>> {
        match code {
            BC_STRING => Ok(Scalar::Str(self.parse_str(code)?)),
            BC_INT => Ok(Scalar::Int(self.i32()?)),
            BC_LONG => Ok(Scalar::Long(self.i64()?)),
            BC_DOUBLE => Ok(Scalar::Double(f64::from_bits(self.i64()? as u64))),
            BC_DATE => Ok(Scalar::Date(self.i64()?)),
            BC_NULL => Ok(Scalar::Null),
            _ => self.scalar_rest(code),
        }
    }

    #[inline(always)]
    fn string(&mut self, code: u8) -> Result<Reference<'de, '_, str>> {
        self.parse_str(code)
    }

    /// (`I`: 4 bytes; `L` and `d`: 8)
    #[inline(always)]
    fn integer(&mut self, code: u8) -> Result<i64> {
        if code == BC_INT {
            Ok(self.i32()?.into())
        } else {
            self.i64()
        }
    }

    #[inline(always)]
    fn double(&mut self, code: u8) -> Result<f64> {
        match code {
            BC_DOUBLE => Ok(f64::from_bits(self.i64()? as u64)),
            BC_INT => Ok(self.i32()?.into()),
            _ => Ok(self.i64()? as f64),
        }
    }

    fn list_head(&mut self, code: u8) -> Result<ListHead> {
        self.list_head_with_type(code).map(|(head, _)| head)
    }

    fn list_head_with_type(&mut self, _code: u8) -> Result<(ListHead, Option<String>)> {
        let (type_name, len) = self.parse_list_header()?;
        Ok((ListHead { len, closed: false, counted: false }, type_name))
    }

    fn map_head(&mut self, _code: u8) -> Result<MapHead> {
        Ok(MapHead { type_name: self.parse_map_header()?, closed: false })
    }

    fn map_entries(&mut self) -> Result<Vec<(Value, Value)>> {
        self.read_entries(8)
    }
}
