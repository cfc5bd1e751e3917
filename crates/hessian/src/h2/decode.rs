//! Hessian 2.0 decoder: accepts everything Caucho 4.0.38's `Hessian2Output` writes (and the rest
//! of the 2.0 grammar), with typed errors carrying byte offsets and configurable limits.
//!
//! The decoder is built from small `parse_*` steps that take an already-read byte code; the
//! [`Value`] reader and the serde deserializer are both written on top of them.

use super::codes::*;
use crate::cache::{DefBytes, DefCache, DEF_CACHE};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::kind::Kind;
use crate::read::{ascii_string, finish_str, IoRead, Read, Reference, SliceRead};
use crate::tables::Tables;
use crate::token::{byte_token_read, forward_token_read, read_whole, ListHead, MapHead, Scalar, TokenRead};
use crate::value::{ClassDef, List, Map, Object, Value};
use std::marker::PhantomData;
use std::sync::Arc;

/// Reads Hessian 2.0 values from a [`Read`] source.
pub struct Decoder<'de, R: Read<'de>> {
    pub(crate) read: R,
    tables: Tables,
    limits: Limits,
    refs: usize,
    depth: usize,
    scratch: String,
    bytes_scratch: Vec<u8>,
    _de: PhantomData<&'de ()>,
}

impl<'de> Decoder<'de, SliceRead<'de>> {
    /// A decoder over a byte slice (strings may be borrowed from it).
    pub fn from_slice(data: &'de [u8]) -> Self {
        Decoder::new(SliceRead::new(data))
    }

    /// A decoder over a byte slice with `limits`, built in place.
    pub(crate) fn from_slice_with_limits(data: &'de [u8], limits: Limits) -> Self {
        let mut d = Decoder::new(SliceRead::new(data));
        d.limits = limits;
        d
    }
}

impl<R: std::io::Read> Decoder<'static, IoRead<R>> {
    /// A decoder over any `std::io::Read` (buffered internally).
    pub fn from_reader(r: R) -> Self {
        Decoder::new(IoRead::new(r))
    }
}

// The values of the fixed-size forms, shared by the `parse_*` and `buffered_*` readers.

/// The `N` bytes that follow the code byte at the start of `b`, if present.
#[inline(always)]
fn array<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
    b.get(1..N + 1)?.try_into().ok()
}

#[inline(always)]
fn int_direct(code: u8) -> i32 {
    i32::from(code) - i32::from(BC_INT_ZERO)
}

#[inline(always)]
fn int_byte(code: u8, b0: u8) -> i32 {
    ((i32::from(code) - i32::from(BC_INT_BYTE_ZERO)) << 8) | i32::from(b0)
}

#[inline(always)]
fn int_short(code: u8, [b1, b0]: [u8; 2]) -> i32 {
    ((i32::from(code) - i32::from(BC_INT_SHORT_ZERO)) << 16) | (i32::from(b1) << 8) | i32::from(b0)
}

#[inline(always)]
fn long_direct(code: u8) -> i64 {
    i64::from(code) - i64::from(BC_LONG_ZERO)
}

#[inline(always)]
fn long_byte(code: u8, b0: u8) -> i64 {
    ((i64::from(code) - i64::from(BC_LONG_BYTE_ZERO)) << 8) | i64::from(b0)
}

#[inline(always)]
fn long_short(code: u8, [b1, b0]: [u8; 2]) -> i64 {
    ((i64::from(code) - i64::from(BC_LONG_SHORT_ZERO)) << 16) | (i64::from(b1) << 8) | i64::from(b0)
}

#[inline(always)]
fn double_mill(b: [u8; 4]) -> f64 {
    0.001 * f64::from(i32::from_be_bytes(b))
}

#[inline(always)]
fn date_minute(b: [u8; 4]) -> i64 {
    i64::from(i32::from_be_bytes(b)) * 60000
}

/// Header of a list: its type name (resolved), its declared length (`None` = variable, ended
/// by `Z`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListHeader {
    /// The type name, if any.
    pub type_name: Option<String>,
    /// The declared length of a fixed-length list.
    pub len: Option<usize>,
}

impl<'de, R: Read<'de>> Decoder<'de, R> {
    /// A decoder with empty tables and default limits.
    pub fn new(read: R) -> Self {
        Self::with_tables(read, Tables::new())
    }

    /// A decoder whose class and type tables start from `tables` (e.g. pre-seeded).
    pub fn with_tables(read: R, tables: Tables) -> Self {
        Decoder {
            read,
            tables,
            limits: Limits::default(),
            refs: 0,
            depth: 0,
            scratch: String::new(),
            bytes_scratch: Vec::new(),
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

    /// The class and type tables as they stand.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// Mutable access to the tables.
    pub fn tables_mut(&mut self) -> &mut Tables {
        &mut self.tables
    }

    /// Takes the tables out (e.g. to keep them for the next message).
    pub fn into_tables(self) -> Tables {
        self.tables
    }

    /// The underlying reader.
    pub fn reader(&mut self) -> &mut R {
        &mut self.read
    }

    /// Offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.read.offset()
    }

    /// Starts a new message: forgets value references and the tables' per-message entries.
    pub fn reset(&mut self) {
        self.refs = 0;
        self.tables.reset();
    }

    /// Number of referenceable values (lists, maps, objects) seen in this message.
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

    #[inline]
    pub(crate) fn err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.read.offset())
    }

    #[inline]
    fn err_at(&self, kind: ErrorKind, offset: u64) -> Error {
        Error::new(kind, offset)
    }

    pub(crate) fn unexpected(&self, code: u8, context: &'static str) -> Error {
        // the code was already consumed: point at it
        self.err_at(ErrorKind::UnexpectedCode { code, context }, self.read.offset().saturating_sub(1))
    }

    pub(crate) fn limit(&self, what: &'static str, limit: usize) -> Error {
        self.err(ErrorKind::LimitExceeded { what, limit: limit as u64 })
    }

    /// Reads the next byte code.
    #[inline]
    pub fn read_code(&mut self) -> Result<u8> {
        self.read.next()
    }

    /// Looks at the next byte code without consuming it.
    #[inline]
    pub fn peek_code(&mut self) -> Result<Option<u8>> {
        self.read.peek()
    }

    #[inline]
    fn u16(&mut self) -> Result<usize> {
        let hi = self.read.next()?;
        let lo = self.read.next()?;
        Ok((usize::from(hi) << 8) | usize::from(lo))
    }

    #[inline]
    fn be<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.read.read_array()
    }

    /// Enters a nested list, map or object, enforcing the depth limit.
    #[inline]
    pub(crate) fn enter(&mut self) -> Result<()> {
        if self.depth >= self.limits.max_depth {
            return Err(self.limit("depth", self.limits.max_depth));
        }
        self.depth += 1;
        Ok(())
    }

    #[inline]
    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Registers a new referenceable value, returning its reference index.
    #[inline]
    pub(crate) fn add_ref(&mut self) -> Result<usize> {
        if self.refs >= self.limits.max_refs {
            return Err(self.limit("references", self.limits.max_refs));
        }
        self.refs += 1;
        Ok(self.refs - 1)
    }

    /// Parses an int whose code has been read.
    #[inline(always)]
    pub fn parse_int(&mut self, code: u8) -> Result<i32> {
        Ok(match code {
            0x80..=0xbf => int_direct(code),
            0xc0..=0xcf => int_byte(code, self.read.next()?),
            0xd0..=0xd7 => int_short(code, self.be::<2>()?),
            BC_INT => i32::from_be_bytes(self.be::<4>()?),
            _ => return Err(self.unexpected(code, "int")),
        })
    }

    /// Reads an int (its code included), as used for lengths and references.
    pub fn read_int(&mut self) -> Result<i32> {
        let code = self.read.next()?;
        self.parse_int(code)
    }

    /// Parses a long whose code has been read.
    #[inline(always)]
    pub fn parse_long(&mut self, code: u8) -> Result<i64> {
        Ok(match code {
            0xd8..=0xef => long_direct(code),
            0xf0..=0xff => long_byte(code, self.read.next()?),
            0x38..=0x3f => long_short(code, self.be::<2>()?),
            BC_LONG_INT => i64::from(i32::from_be_bytes(self.be::<4>()?)),
            BC_LONG => i64::from_be_bytes(self.be::<8>()?),
            _ => return Err(self.unexpected(code, "long")),
        })
    }

    /// Parses a double whose code has been read (the compact forms widen exactly as Java's).
    #[inline(always)]
    pub fn parse_double(&mut self, code: u8) -> Result<f64> {
        Ok(match code {
            BC_DOUBLE_ZERO => 0.0,
            BC_DOUBLE_ONE => 1.0,
            BC_DOUBLE_BYTE => f64::from(self.read.next()? as i8),
            BC_DOUBLE_SHORT => f64::from(i16::from_be_bytes(self.be::<2>()?)),
            BC_DOUBLE_MILL => double_mill(self.be::<4>()?),
            BC_DOUBLE => f64::from_bits(u64::from_be_bytes(self.be::<8>()?)),
            _ => return Err(self.unexpected(code, "double")),
        })
    }

    /// Parses a date whose code has been read, in milliseconds since the epoch.
    #[inline(always)]
    pub fn parse_date(&mut self, code: u8) -> Result<i64> {
        Ok(match code {
            BC_DATE => i64::from_be_bytes(self.be::<8>()?),
            BC_DATE_MINUTE => date_minute(self.be::<4>()?),
            _ => return Err(self.unexpected(code, "date")),
        })
    }

    // The `buffered_*` readers decode a value of the common forms straight from the buffered
    // input when it lies there complete, and return `None` (consuming nothing) otherwise: the
    // caller then takes the general path (class definitions in front of the value, other forms,
    // the end of the input, errors). They have no error paths, so they stay small enough to be
    // inlined into derived visitors.

    /// An int in any of its forms.
    #[inline(always)]
    pub(crate) fn buffered_int(&mut self) -> Option<i32> {
        let b = self.read.buffered();
        let (v, n) = match *b.first()? {
            c @ 0x80..=0xbf => (int_direct(c), 1),
            c @ 0xc0..=0xcf => (int_byte(c, *b.get(1)?), 2),
            c @ 0xd0..=0xd7 => (int_short(c, array(b)?), 3),
            BC_INT => (i32::from_be_bytes(array(b)?), 5),
            _ => return None,
        };
        self.read.consume(n);
        Some(v)
    }

    /// A long in any of its forms.
    #[inline(always)]
    pub(crate) fn buffered_long(&mut self) -> Option<i64> {
        let b = self.read.buffered();
        let (v, n) = match *b.first()? {
            BC_LONG => (i64::from_be_bytes(array(b)?), 9),
            c @ 0xd8..=0xef => (long_direct(c), 1),
            c @ 0xf0..=0xff => (long_byte(c, *b.get(1)?), 2),
            c @ 0x38..=0x3f => (long_short(c, array(b)?), 3),
            BC_LONG_INT => (i64::from(i32::from_be_bytes(array(b)?)), 5),
            _ => return None,
        };
        self.read.consume(n);
        Some(v)
    }

    /// A double in its 8-byte, "mills" or 1-byte form.
    #[inline(always)]
    pub(crate) fn buffered_double(&mut self) -> Option<f64> {
        let b = self.read.buffered();
        let (v, n) = match *b.first()? {
            BC_DOUBLE => (f64::from_bits(u64::from_be_bytes(array(b)?)), 9),
            BC_DOUBLE_MILL => (double_mill(array(b)?), 5),
            BC_DOUBLE_BYTE => (f64::from(*b.get(1)? as i8), 2),
            _ => return None,
        };
        self.read.consume(n);
        Some(v)
    }

    /// An owned string in a compact or short form (at most 1023 units) that is all ASCII.
    #[inline(always)]
    pub(crate) fn buffered_ascii_string(&mut self) -> Option<String> {
        let b = self.read.buffered();
        let (len, at) = match *b.first()? {
            c @ 0x00..=0x1f => (usize::from(c), 1),
            c @ 0x30..=0x33 => ((usize::from(c - BC_STRING_SHORT) << 8) | usize::from(*b.get(1)?), 2),
            _ => return None,
        };
        if len > self.limits.max_string_len {
            return None;
        }
        let s = ascii_string(b.get(at..at + len)?)?;
        self.read.consume(at + len);
        Some(s)
    }

    /// A date in either form.
    #[inline(always)]
    pub(crate) fn buffered_date(&mut self) -> Option<i64> {
        let b = self.read.buffered();
        let (v, n) = match *b.first()? {
            BC_DATE => (i64::from_be_bytes(array(b)?), 9),
            BC_DATE_MINUTE => (date_minute(array(b)?), 5),
            _ => return None,
        };
        self.read.consume(n);
        Some(v)
    }

    /// Reads the length of one string chunk given its code; `Some(final)`.
    #[inline]
    fn str_chunk(&mut self, code: u8) -> Result<(usize, bool)> {
        Ok(match code {
            0x00..=0x1f => (usize::from(code), true),
            0x30..=0x33 => ((usize::from(code - BC_STRING_SHORT) << 8) | usize::from(self.read.next()?), true),
            BC_STRING => (self.u16()?, true),
            BC_STRING_CHUNK => (self.u16()?, false),
            _ => return Err(self.unexpected(code, "string")),
        })
    }

    fn check_units(&self, total: usize, chunk: usize) -> Result<()> {
        if total > self.limits.max_string_len {
            return Err(self.limit("string length", self.limits.max_string_len));
        }
        if let Some(rem) = self.read.remaining() {
            if chunk as u64 > rem {
                return Err(self.err(ErrorKind::LengthPastEnd { declared: chunk as u64, available: rem }));
            }
        }
        Ok(())
    }

    /// Parses a string whose code has been read; borrows from the input when it can.
    #[inline]
    pub fn parse_str<'s>(&'s mut self, code: u8) -> Result<Reference<'de, 's, str>> {
        // Fast path: compact and short strings are one final chunk of at most 1023 units.
        let len = match code {
            0x00..=0x1f => usize::from(code),
            0x30..=0x33 => (usize::from(code - BC_STRING_SHORT) << 8) | usize::from(self.read.next()?),
            _ => return self.parse_chunked_str(code),
        };
        if len > self.limits.max_string_len {
            return Err(self.limit("string length", self.limits.max_string_len));
        }
        self.read.read_str(len, &mut self.scratch)
    }

    fn parse_chunked_str<'s>(&'s mut self, code: u8) -> Result<Reference<'de, 's, str>> {
        let (len, last) = self.str_chunk(code)?;
        self.check_units(len, len)?;
        if last {
            return self.read.read_str(len, &mut self.scratch);
        }
        let mut total = len;
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut pending = None;
        let mut len = len;
        let mut last = false;
        loop {
            self.read.append_str(len, &mut out, &mut pending)?;
            if last {
                break;
            }
            let code = self.read.next()?;
            let (l, f) = self.str_chunk(code)?;
            total += l;
            self.check_units(total, l)?;
            len = l;
            last = f;
        }
        finish_str(pending, self.read.offset())?;
        self.scratch = out;
        Ok(Reference::Copied(self.scratch.as_str()))
    }

    /// Parses a string whose code has been read into an owned, exactly-sized `String` (one
    /// allocation, one copy for the compact and short forms).
    #[inline]
    pub fn parse_string(&mut self, code: u8) -> Result<String> {
        let len = match code {
            0x00..=0x1f => usize::from(code),
            0x30..=0x33 => (usize::from(code - BC_STRING_SHORT) << 8) | usize::from(self.read.next()?),
            _ => return Ok(self.parse_chunked_str(code)?.to_owned()),
        };
        if len > self.limits.max_string_len {
            return Err(self.limit("string length", self.limits.max_string_len));
        }
        self.read.read_string(len, &mut self.scratch)
    }

    /// Reads a string (its code included).
    pub fn read_string(&mut self) -> Result<String> {
        let code = self.read.next()?;
        self.parse_string(code)
    }

    #[inline]
    fn bin_chunk(&mut self, code: u8) -> Result<(usize, bool)> {
        Ok(match code {
            0x20..=0x2f => (usize::from(code - BC_BINARY_DIRECT), true),
            0x34..=0x37 => ((usize::from(code - BC_BINARY_SHORT) << 8) | usize::from(self.read.next()?), true),
            BC_BINARY => (self.u16()?, true),
            BC_BINARY_CHUNK => (self.u16()?, false),
            _ => return Err(self.unexpected(code, "binary")),
        })
    }

    /// Parses binary data whose code has been read; borrows from the input when it can.
    pub fn parse_bytes<'s>(&'s mut self, code: u8) -> Result<Reference<'de, 's, [u8]>> {
        let (len, last) = self.bin_chunk(code)?;
        if len > self.limits.max_binary_len {
            return Err(self.limit("binary length", self.limits.max_binary_len));
        }
        if last {
            return self.read.read_bytes(len, &mut self.bytes_scratch);
        }
        let mut out = Vec::new();
        let mut chunk = Vec::new();
        let (mut len, mut last) = (len, false);
        loop {
            if out.len() + len > self.limits.max_binary_len {
                return Err(self.limit("binary length", self.limits.max_binary_len));
            }
            let piece = self.read.read_bytes(len, &mut chunk)?;
            out.extend_from_slice(&piece);
            if last {
                break;
            }
            let code = self.read.next()?;
            (len, last) = self.bin_chunk(code)?;
        }
        self.bytes_scratch = out;
        Ok(Reference::Copied(self.bytes_scratch.as_slice()))
    }

    /// Reads a type name or type reference (`type ::= string | int`).
    pub fn read_type(&mut self) -> Result<String> {
        let code = self.read.next()?;
        if kind(code) == Kind::String {
            let name = self.parse_string(code)?;
            if self.tables.types().len() >= self.limits.max_class_defs {
                return Err(self.limit("type names", self.limits.max_class_defs));
            }
            self.tables.push_type(name.clone());
            Ok(name)
        } else {
            let start = self.read.offset() - 1;
            let i = self.parse_int(code)?;
            match usize::try_from(i).ok().and_then(|i| self.tables.type_name(i)) {
                Some(t) => Ok(t.to_owned()),
                None => Err(self
                    .err_at(ErrorKind::TypeRefOutOfRange { index: i as u64, len: self.tables.types().len() }, start)),
            }
        }
    }

    /// Checks a declared collection length against the limits and the remaining input (every
    /// element takes at least one byte), returning a safe pre-allocation size.
    pub(crate) fn check_len(&self, n: i64) -> Result<usize> {
        if n < 0 {
            return Err(self.err(ErrorKind::Malformed(format!("negative length {n}"))));
        }
        let n = n as u64;
        if let Some(rem) = self.read.remaining() {
            if n > rem {
                return Err(self.err(ErrorKind::LengthPastEnd { declared: n, available: rem }));
            }
        }
        if n > self.limits.max_collection_len as u64 {
            return Err(self.limit("collection length", self.limits.max_collection_len));
        }
        Ok(n as usize)
    }

    /// Parses a list header whose code has been read (registers the list as a reference).
    pub fn parse_list_header(&mut self, code: u8) -> Result<ListHeader> {
        let (type_name, len) = match code {
            BC_LIST_VARIABLE => (Some(self.read_type()?), None),
            BC_LIST_FIXED => {
                let t = self.read_type()?;
                let n = self.read_int()?;
                (Some(t), Some(self.check_len(n.into())?))
            }
            BC_LIST_VARIABLE_UNTYPED => (None, None),
            BC_LIST_FIXED_UNTYPED => {
                let n = self.read_int()?;
                (None, Some(self.check_len(n.into())?))
            }
            0x70..=0x77 => {
                let t = self.read_type()?;
                (Some(t), Some(self.check_len(i64::from(code - BC_LIST_DIRECT))?))
            }
            0x78..=0x7f => (None, Some(self.check_len(i64::from(code - BC_LIST_DIRECT_UNTYPED))?)),
            _ => return Err(self.unexpected(code, "list")),
        };
        self.add_ref()?;
        Ok(ListHeader { type_name, len })
    }

    /// Reads a type name or type reference without returning it (no allocation for references).
    pub(crate) fn skip_type(&mut self) -> Result<()> {
        let code = self.read.peek()?.ok_or_else(|| self.err(ErrorKind::UnexpectedEof))?;
        if kind(code) == Kind::String {
            self.read_type().map(drop)
        } else {
            let start = self.read.offset();
            let i = self.read_int()?;
            match usize::try_from(i) {
                Ok(i) if i < self.tables.types().len() => Ok(()),
                _ => Err(self
                    .err_at(ErrorKind::TypeRefOutOfRange { index: i as u64, len: self.tables.types().len() }, start)),
            }
        }
    }

    /// Like [`parse_list_header`](Self::parse_list_header) without resolving the type name:
    /// returns the declared length only (`None` = variable length, ended by `Z`).
    #[inline]
    pub(crate) fn parse_list_len(&mut self, code: u8) -> Result<Option<usize>> {
        let len = match code {
            BC_LIST_VARIABLE => {
                self.skip_type()?;
                None
            }
            BC_LIST_FIXED => {
                self.skip_type()?;
                let n = self.read_int()?;
                Some(self.check_len(n.into())?)
            }
            BC_LIST_VARIABLE_UNTYPED => None,
            BC_LIST_FIXED_UNTYPED => {
                let n = self.read_int()?;
                Some(self.check_len(n.into())?)
            }
            0x70..=0x77 => {
                self.skip_type()?;
                Some(self.compact_len(code - BC_LIST_DIRECT)?)
            }
            0x78..=0x7f => Some(self.compact_len(code - BC_LIST_DIRECT_UNTYPED)?),
            _ => return Err(self.unexpected(code, "list")),
        };
        self.add_ref()?;
        Ok(len)
    }

    /// A compact list's length (at most 7) checked against the collection limit; the input
    /// left is checked as the elements are read (a cut list is an end of input).
    #[inline]
    fn compact_len(&self, n: u8) -> Result<usize> {
        let n = usize::from(n);
        if n > self.limits.max_collection_len {
            return Err(self.limit("collection length", self.limits.max_collection_len));
        }
        Ok(n)
    }

    /// Reads a class definition (after its `C`) into the tables, returning its index.
    pub fn parse_class_def(&mut self) -> Result<usize> {
        if self.tables.classes().len() >= self.limits.max_class_defs {
            return Err(self.limit("class definitions", self.limits.max_class_defs));
        }
        // A definition seen before on this thread, in the form Java writes it, is recognized by
        // its bytes (equal bytes decode to an equal definition).
        let (max_units, max_fields) = (self.limits.max_string_len, self.limits.max_collection_len);
        let known = DEF_CACHE.with(|c| c.borrow().by_bytes(self.read.buffered(), max_units, max_fields));
        if let Some((def, len)) = known {
            self.read.consume(len);
            return Ok(self.tables.push_class(def) as usize);
        }
        // Otherwise definitions seen before are still shared instead of rebuilt: the name and
        // fields are compared as they are read (borrowed from the input where possible), and
        // owned strings are made only for a definition not in the cache.
        let code = self.read.next()?;
        let (mut candidates, mut name) = {
            let name = self.parse_str(code)?;
            let candidates = DEF_CACHE.with(|c| c.borrow().matching_name(&name));
            (candidates, if candidates == 0 { Some(name.to_owned()) } else { None })
        };
        let n = self.read_int()?;
        let n = self.check_len(n.into())?;
        let mut fields = Vec::new();
        if candidates == 0 {
            fields.reserve(n.min(256));
        }
        for i in 0..n {
            let code = self.read.next()?;
            let field = self.parse_str(code)?;
            if candidates != 0 {
                let (left, prefix) = DEF_CACHE.with(|c| c.borrow().narrow(candidates, i, &field));
                candidates = left;
                if candidates == 0 {
                    // No cached definition goes on like this one: own what was read so far
                    // (equal to the prefix of the last candidate standing).
                    if let Some(p) = prefix {
                        name = Some(p.name.clone());
                        fields.reserve(n.min(256));
                        fields.extend(p.fields[..i].iter().cloned());
                    }
                }
            }
            if candidates == 0 {
                fields.push(field.to_owned());
            }
        }
        let def = match DEF_CACHE.with(|c| c.borrow().complete(candidates, n)) {
            Some(def) => def,
            None => {
                if let (None, Some(p)) = (&name, DEF_CACHE.with(|c| c.borrow().any(candidates))) {
                    // Cached definitions start like this one but have more fields.
                    name = Some(p.name.clone());
                    fields = p.fields[..n].to_vec();
                }
                let def = Arc::new(ClassDef { name: name.unwrap_or_default(), fields });
                DEF_CACHE.with(|c| c.borrow_mut().insert(def.clone()));
                def
            }
        };
        Ok(self.tables.push_class(def) as usize)
    }

    /// Whether class definition `idx` lists exactly `fields` (the `FIELDS` of a Rust type), in
    /// order. Remembered per thread for definitions in the cache, by the address of `fields`.
    /// A type map's classes keep the memo in the (kept) seeded tables instead.
    pub(crate) fn class_lists_exactly(&mut self, idx: usize, fields: &'static [&'static str]) -> bool {
        let key = fields.as_ptr() as usize;
        let lists = |def: &ClassDef| {
            !fields.is_empty() && def.fields.len() == fields.len() && def.fields.iter().zip(fields).all(|(a, b)| a == b)
        };
        if let Some(&(k, v)) = self.tables.field_memo(idx).as_deref() {
            if k == key {
                return v;
            }
            let v = self.tables.class(idx).is_some_and(|d| lists(d));
            if let Some(slot) = self.tables.field_memo(idx) {
                *slot = (key, v);
            }
            return v;
        }
        let Some(def) = self.tables.class(idx) else { return false };
        let exact = || lists(def);
        let memo = DEF_CACHE.try_with(|c| {
            let mut c = c.try_borrow_mut().ok()?;
            // The cache keeps the definition alive, so the same address is the same definition.
            let i = c.0.iter().position(|d| Arc::ptr_eq(d, def))?;
            let slot = &mut c.1.get_mut(i)?.exact;
            if slot.0 != key {
                *slot = (key, exact());
            }
            Some(slot.1)
        });
        memo.ok().flatten().unwrap_or_else(exact)
    }

    /// Parses an object instance header (code `O` or `0x60..=0x6f`), registering it as a
    /// reference and returning its class definition.
    pub fn parse_object_header(&mut self, code: u8) -> Result<Arc<ClassDef>> {
        let i = self.parse_object_index(code)?;
        // parse_object_index checked the index
        self.tables.class(i).cloned().ok_or_else(|| {
            self.err(ErrorKind::ClassRefOutOfRange { index: i as u64, len: self.tables.classes().len() })
        })
    }

    /// Like [`parse_object_header`](Self::parse_object_header), returning the index of the
    /// class definition in [`tables`](Self::tables) (no reference-count traffic).
    #[inline]
    pub fn parse_object_index(&mut self, code: u8) -> Result<usize> {
        let start = self.read.offset() - 1;
        let i = match code {
            0x60..=0x6f => i64::from(code - BC_OBJECT_DIRECT),
            BC_OBJECT => i64::from(self.read_int()?),
            _ => return Err(self.unexpected(code, "object")),
        };
        match usize::try_from(i) {
            Ok(i) if i < self.tables.classes().len() => {
                self.add_ref()?;
                Ok(i)
            }
            _ => {
                Err(self
                    .err_at(ErrorKind::ClassRefOutOfRange { index: i as u64, len: self.tables.classes().len() }, start))
            }
        }
    }

    /// Parses a value reference after its `Q`, checking it against the references seen so far.
    pub fn parse_ref(&mut self) -> Result<u32> {
        let start = self.read.offset() - 1;
        let i = self.read_int()?;
        match u32::try_from(i) {
            Ok(r) if (r as usize) < self.refs => Ok(r),
            _ => Err(self.err_at(ErrorKind::RefOutOfRange { index: i as u64, len: self.refs }, start)),
        }
    }

    /// Reads one complete value.
    pub fn read_value(&mut self) -> Result<Value> {
        let code = self.read.next()?;
        self.parse_value(code)
    }

    /// Reads the value whose code has been read.
    pub fn parse_value(&mut self, mut code: u8) -> Result<Value> {
        // Class definitions in front of a value are read in a loop, not by recursion: a flood
        // of definitions (4 bytes each) must not grow the stack (it overflowed it before).
        while code == BC_CLASS_DEF {
            self.parse_class_def()?;
            code = self.read.next()?;
        }
        Ok(match kind(code) {
            Kind::Null => Value::Null,
            Kind::Bool => Value::Bool(code == BC_TRUE),
            Kind::Int => Value::Int(self.parse_int(code)?),
            Kind::Long => Value::Long(self.parse_long(code)?),
            Kind::Double => Value::Double(self.parse_double(code)?),
            Kind::Date => Value::Date(self.parse_date(code)?),
            Kind::String => Value::String(self.parse_string(code)?),
            Kind::Binary => Value::Binary(self.parse_bytes(code)?.to_vec()),
            Kind::List => {
                self.enter()?;
                let h = self.parse_list_header(code)?;
                let list = self.parse_list_items(h)?;
                self.leave();
                Value::List(Box::new(list))
            }
            Kind::Map => {
                self.enter()?;
                let type_name = if code == BC_MAP { Some(self.read_type()?) } else { None };
                self.add_ref()?;
                let entries = self.read_entries()?;
                self.leave();
                Value::Map(Box::new(Map { type_name, entries }))
            }
            Kind::Object => {
                self.enter()?;
                let class = self.parse_object_header(code)?;
                let mut fields = Vec::with_capacity(class.fields.len());
                for _ in 0..class.fields.len() {
                    fields.push(self.read_value()?);
                }
                self.leave();
                Value::Object(Box::new(Object { class, fields }))
            }
            Kind::Ref => Value::Ref(self.parse_ref()?),
            Kind::ClassDef | Kind::Remote | Kind::Invalid => return Err(self.unexpected(code, "value")),
        })
    }

    /// Reads the entries of a map after its header, up to and with its `Z` (in line: it was
    /// the map arm of `parse_value`).
    #[inline(always)]
    fn read_entries(&mut self) -> Result<Vec<(Value, Value)>> {
        let mut entries = Vec::new();
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

    /// Refuses another element of a list or map of `count` elements read so far, past the
    /// collection limit (lists of variable length and maps, whose length is not declared).
    #[inline]
    pub(crate) fn check_count(&self, count: usize) -> Result<()> {
        self.limits.check_count(count, || self.read.offset())
    }

    /// After a list's end: a Hessian 2 list either declares its length and holds exactly that
    /// many elements (no end mark), or declares none, so there is nothing to check.
    pub(crate) fn check_list_len(&self, declared: Option<usize>, count: usize) -> Result<()> {
        let _ = (declared, count);
        Ok(())
    }

    fn parse_list_items(&mut self, h: ListHeader) -> Result<List> {
        match h.len {
            Some(n) => {
                let mut items = Vec::with_capacity(n.min(4096));
                for _ in 0..n {
                    items.push(self.read_value()?);
                }
                Ok(List { type_name: h.type_name, fixed_length: true, items })
            }
            None => {
                let mut items = Vec::new();
                loop {
                    let c = self.read.next()?;
                    if c == BC_END {
                        break;
                    }
                    self.check_count(items.len())?;
                    items.push(self.parse_value(c)?);
                }
                Ok(List { type_name: h.type_name, fixed_length: false, items })
            }
        }
    }
}

/// Decodes exactly one value from a byte slice (no envelope); trailing bytes are an error.
pub fn from_slice(data: &[u8]) -> Result<Value> {
    from_slice_with_limits(data, Limits::default())
}

/// Like [`from_slice`] with explicit limits.
pub fn from_slice_with_limits(data: &[u8], limits: Limits) -> Result<Value> {
    read_whole(data.len(), limits, |l| Decoder::from_slice_with_limits(data, l), Decoder::read_value)
}

/// Decodes one value from a reader (no envelope); stops after the value.
pub fn from_reader<R: std::io::Read>(r: R) -> Result<Value> {
    let limits = Limits::default();
    let mut d = Decoder::from_reader(std::io::Read::take(r, limits.max_message_size)).with_limits(limits);
    d.read_value()
}

/// The definition equal to `def` in this thread's cache of decoded definitions (added when it
/// is not there): seeded classes (a type map's) are then the very definitions the decoder finds
/// by their bytes, with their per-definition field-match memo.
pub(crate) fn intern_class(def: &Arc<ClassDef>) -> Arc<ClassDef> {
    DEF_CACHE
        .try_with(|c| {
            let mut c = c.try_borrow_mut().ok()?;
            // by address first (a map learned on this thread holds this thread's definitions),
            // then by content
            let found = c.0.iter().find(|d| Arc::ptr_eq(d, def)).or_else(|| c.0.iter().find(|d| ***d == **def));
            if let Some(d) = found {
                return Some(d.clone());
            }
            c.insert(def.clone());
            None
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| def.clone())
}

/// The last (up to) 8 bytes of `b` as a little-endian word.
#[inline(always)]
fn tail_word(b: &[u8]) -> u64 {
    match b.len().checked_sub(8).and_then(|from| b.get(from..)).and_then(|t| <[u8; 8]>::try_from(t).ok()) {
        Some(t) => u64::from_le_bytes(t),
        None => b.iter().rev().fold(0, |w, &x| (w << 8) | u64::from(x)),
    }
}

impl DefCache {
    /// How many definitions each thread keeps: one bit per entry in a `u64`.
    const KEEP: usize = 64;

    /// The cached definition whose bytes `input` starts with, and their length, if reading them
    /// would pass limits of `max_units` string units and `max_fields` fields.
    #[inline]
    fn by_bytes(&self, input: &[u8], max_units: usize, max_fields: usize) -> Option<(Arc<ClassDef>, usize)> {
        for (i, d) in self.1.iter().enumerate() {
            let n = d.bytes.len();
            let Some(head) = input.get(..n) else { continue };
            if tail_word(head) == d.tail && *head == *d.bytes && d.max_units <= max_units && d.fields <= max_fields {
                return Some((self.0.get(i)?.clone(), n));
            }
        }
        None
    }

    /// The entries named `name`.
    fn matching_name(&self, name: &str) -> u64 {
        self.0.iter().enumerate().filter(|(_, d)| d.name == name).fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The candidates whose field `i` is `field`, and (when none is left) one of the previous
    /// candidates, whose name and first `i` fields equal what was read. A candidate that is
    /// still standing after field `i` has more than `i` fields.
    fn narrow(&self, candidates: u64, i: usize, field: &str) -> (u64, Option<Arc<ClassDef>>) {
        let mut left = 0;
        let mut any = None;
        for (j, d) in self.0.iter().enumerate().filter(|(j, _)| candidates & 1 << j != 0) {
            any = Some(j);
            if d.fields.get(i).is_some_and(|f| f == field) {
                left |= 1 << j;
            }
        }
        (left, if left == 0 { any.map(|j| self.0[j].clone()) } else { None })
    }

    /// The candidate with exactly `n` fields, if any.
    fn complete(&self, candidates: u64, n: usize) -> Option<Arc<ClassDef>> {
        self.0.iter().enumerate().find(|(j, d)| candidates & 1 << j != 0 && d.fields.len() == n).map(|(_, d)| d.clone())
    }

    /// One of the candidates.
    fn any(&self, candidates: u64) -> Option<Arc<ClassDef>> {
        self.0.iter().enumerate().find(|(j, _)| candidates & 1 << j != 0).map(|(_, d)| d.clone())
    }

    /// Keeps `def` unless it is large (what a thread retains stays small whatever the input:
    /// at most 64 definitions of at most 4 KiB of strings each).
    fn insert(&mut self, def: Arc<ClassDef>) {
        let size = def.name.len() + def.fields.iter().map(String::len).sum::<usize>();
        if def.fields.len() > 64 || size > 4096 {
            return;
        }
        let mut e = crate::h2::Encoder::vec();
        if e.write_class_def(&def).is_err() {
            return;
        }
        let mut bytes = e.into_vec();
        bytes.remove(0); // the `C`
        let units = |s: &str| if s.is_ascii() { s.len() } else { s.encode_utf16().count() };
        let max_units = def.fields.iter().map(|f| units(f)).fold(units(&def.name), usize::max);
        let entry = DefBytes {
            tail: tail_word(&bytes),
            bytes: bytes.into(),
            max_units,
            fields: def.fields.len(),
            exact: (0, false),
        };
        if self.0.len() == Self::KEEP {
            self.0.remove(0);
            self.1.remove(0);
        }
        self.0.push(def);
        self.1.push(entry);
    }
}

impl<'de, R: Read<'de>> crate::token::sealed::Sealed for Decoder<'de, R> {}

/// The token reader of Hessian 2.0: class definitions in front of a value are read into the
/// tables as part of its opening, objects are read by their definition, and the common compact
/// forms have fast paths over the buffered input.
impl<'de, R: Read<'de>> TokenRead<'de> for Decoder<'de, R> {
    type Open = u8;
    /// The offset to read on from.
    type Mark = u64;
    const BUFFERED: bool = true;
    forward_token_read!();
    byte_token_read!(BC_END);

    #[inline(always)]
    fn kind(code: u8) -> Kind {
        kind(code)
    }

    /// Reads any class definitions in front of the value into the tables.
    #[inline(always)]
    fn open(&mut self) -> Result<(u8, u64)> {
        loop {
            let at = self.read.offset();
            let code = self.read.next()?;
            if code != BC_CLASS_DEF {
                return Ok((code, at));
            }
            self.parse_class_def()?;
        }
    }

    #[inline]
    fn scalar(&mut self, code: u8) -> Result<Scalar<'de, '_>> {
        Ok(match kind(code) {
            Kind::String => Scalar::Str(self.parse_str(code)?),
            Kind::Int => Scalar::Int(self.parse_int(code)?),
            Kind::Long => Scalar::Long(self.parse_long(code)?),
            Kind::Double => Scalar::Double(self.parse_double(code)?),
            Kind::Date => Scalar::Date(self.parse_date(code)?),
            Kind::Null => Scalar::Null,
            Kind::Bool => Scalar::Bool(code == BC_TRUE),
            Kind::Binary => Scalar::Bytes(self.parse_bytes(code)?),
            Kind::Ref => Scalar::Ref(self.parse_ref()?),
            _ => return Err(self.unexpected(code, "value")),
        })
    }

    #[inline(always)]
    fn string(&mut self, code: u8) -> Result<Reference<'de, '_, str>> {
        self.parse_str(code)
    }

    #[inline]
    fn integer(&mut self, code: u8) -> Result<i64> {
        match kind(code) {
            Kind::Int => self.parse_int(code).map(i64::from),
            Kind::Long => self.parse_long(code),
            _ => self.parse_date(code),
        }
    }

    #[inline]
    fn double(&mut self, code: u8) -> Result<f64> {
        match kind(code) {
            Kind::Double => self.parse_double(code),
            Kind::Int => self.parse_int(code).map(f64::from),
            _ => self.parse_long(code).map(|v| v as f64),
        }
    }

    /// (a list of fixed length has no end mark)
    #[inline]
    fn list_head(&mut self, code: u8) -> Result<ListHead> {
        let len = self.parse_list_len(code)?;
        Ok(ListHead { len, closed: false, counted: len.is_some() })
    }

    fn list_head_with_type(&mut self, code: u8) -> Result<(ListHead, Option<String>)> {
        let ListHeader { type_name, len } = self.parse_list_header(code)?;
        Ok((ListHead { len, closed: false, counted: len.is_some() }, type_name))
    }

    #[inline]
    fn map_head(&mut self, code: u8) -> Result<MapHead> {
        let type_name = if code == BC_MAP { Some(self.read_type()?) } else { None };
        self.add_ref()?;
        Ok(MapHead { type_name, closed: false })
    }

    fn map_entries(&mut self) -> Result<Vec<(Value, Value)>> {
        self.read_entries()
    }

    #[inline(always)]
    fn buffered_int(&mut self) -> Option<i32> {
        Decoder::buffered_int(self)
    }

    #[inline(always)]
    fn buffered_long(&mut self) -> Option<i64> {
        Decoder::buffered_long(self)
    }

    #[inline(always)]
    fn buffered_double(&mut self) -> Option<f64> {
        Decoder::buffered_double(self)
    }

    #[inline(always)]
    fn buffered_date(&mut self) -> Option<i64> {
        Decoder::buffered_date(self)
    }

    #[inline(always)]
    fn buffered_ascii_string(&mut self) -> Option<String> {
        Decoder::buffered_ascii_string(self)
    }

    #[inline]
    fn object_head(&mut self, code: u8) -> Result<usize> {
        self.parse_object_index(code)
    }

    #[inline]
    fn class_fields(&self, class: usize) -> &[String] {
        self.tables.class(class).map_or(&[], |c| &c.fields[..])
    }

    #[inline]
    fn class_lists_exactly(&mut self, class: usize, fields: &'static [&'static str]) -> bool {
        Decoder::class_lists_exactly(self, class, fields)
    }

    fn definitions(&self) -> (usize, usize) {
        (self.tables.classes().len(), self.tables.types().len())
    }

    fn truncate_definitions(&mut self, (classes, types): (usize, usize)) {
        self.tables.truncate(classes, types);
    }
}

#[cfg(test)]
mod def_cache_tests {
    use super::*;

    fn def_bytes(name: &str, fields: &[&str]) -> Vec<u8> {
        let mut e = crate::h2::Encoder::vec();
        e.write_class_def(&ClassDef::new(name, fields.iter().copied())).unwrap();
        e.into_vec()
    }

    fn parse(bytes: &[u8]) -> Arc<ClassDef> {
        let mut d = Decoder::from_slice(&bytes[1..]);
        let i = d.parse_class_def().unwrap();
        d.tables.class(i).unwrap().clone()
    }

    #[test]
    fn a_definition_known_by_its_bytes_still_meets_the_limits() {
        let bytes = def_bytes("LimitsT", &["alpha", "beta"]);
        let first = parse(&bytes);
        assert!(Arc::ptr_eq(&parse(&bytes), &first), "found by its bytes");
        let strict = |limits: Limits| {
            let mut d = Decoder::from_slice(&bytes[1..]).with_limits(limits);
            d.parse_class_def().map(|i| d.tables.class(i).cloned())
        };
        let e = strict(Limits { max_string_len: 4, ..Limits::default() }).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "string length", .. }), "{e}");
        let e = strict(Limits { max_collection_len: 1, ..Limits::default() }).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "collection length", .. }), "{e}");
        let ok = strict(Limits { max_string_len: 7, max_collection_len: 2, ..Limits::default() }).unwrap();
        assert!(ok.is_some_and(|d| Arc::ptr_eq(&d, &first)));
        // A longer input that merely starts like the cached bytes is the same definition.
        let mut longer = bytes.clone();
        longer.push(0x90);
        let mut d = Decoder::from_slice(&longer[1..]);
        let i = d.parse_class_def().unwrap();
        assert!(Arc::ptr_eq(d.tables.class(i).unwrap(), &first));
        assert_eq!(d.offset(), (bytes.len() - 1) as u64);
    }

    #[test]
    fn cached_definitions_are_shared_and_variants_are_not_confused() {
        // Same name with other, longer, shorter and prefix-sharing field lists, in an order that
        // exercises every way a candidate drops out, twice (the second round hits the cache).
        let cases: &[(&str, &[&str])] = &[
            ("CacheT", &["a", "b"]),
            ("CacheT", &["a", "b", "c"]),
            ("CacheT", &["a"]),
            ("CacheT", &[]),
            ("CacheT", &["a", "x"]),
            ("CacheT", &["b", "a"]),
            ("CacheU", &["a", "b"]),
        ];
        let mut first = Vec::new();
        for round in 0..2 {
            for (k, (name, fields)) in cases.iter().enumerate() {
                let d = parse(&def_bytes(name, fields));
                assert_eq!(d.name, *name, "round {round} case {k}");
                assert_eq!(d.fields, *fields, "round {round} case {k}");
                if round == 0 {
                    first.push(d);
                } else {
                    assert!(Arc::ptr_eq(&d, &first[k]), "case {k} was not shared");
                }
            }
        }
    }
}
