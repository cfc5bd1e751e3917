//! The Hessian 2.0 serde [`Deserializer`]: reads straight from the input through
//! [`h2::Decoder`](crate::h2::Decoder)'s token parsers, borrowing strings and bytes from a slice
//! where it can.
//!
//! Objects decode into structs by field name, in whatever order the sender's class definition
//! lists them; unknown fields are skipped. When a class definition lists exactly the fields the
//! Rust type declares, in the same order (the case of Rust-to-Rust messages and of structs
//! declared in Java's wire order), the values are handed to the derived visitor as a sequence
//! instead of a keyed map: decided once per class definition and type, then no field-name work
//! at all.
//!
//! Scalars (ints, longs, the common double forms, dates) and owned short ASCII strings are first
//! tried straight from the buffered input (`Decoder::buffered_*`): when the whole value lies
//! there in a common form it is decoded without error paths, small enough to inline into a
//! derived visitor; anything else (class definitions in front of the value, other forms, the end
//! of the input, errors) takes the general path, out of line, with the same results and errors.
//! The error paths of object fields are marked cold so that LLVM keeps the field reads inline.

use super::copies::RefCopies;
use super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::h2::codes::*;
use crate::h2::Decoder;
use crate::kind::Kind;
use crate::read::{IoRead, Read, Reference, SliceRead};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::any::Any;
use std::collections::HashMap;
use std::rc::Rc;

/// Deserializes Rust values from Hessian 2.0.
pub struct Deserializer<'de, R: Read<'de>> {
    dec: Decoder<'de, R>,
    /// Per class-definition index: the address of the `FIELDS` slice of the Rust type last
    /// matched against it, and whether it matched exactly (index keys) or not (name keys); the
    /// first [`FAST_INLINE`] in place, the others in `fast_more`.
    fast: [(usize, bool); FAST_INLINE],
    fast_more: Vec<(usize, bool)>,
    /// Values decoded through [`Shared`](super::Shared), by reference index (made when the
    /// first one is decoded; boxed to keep the deserializer small).
    #[allow(clippy::box_collection)]
    shared: Option<Box<HashMap<usize, Rc<dyn Any>>>>,
    /// Where each referenceable value starts, for references into plain types (slices only).
    copies: RefCopies,
}

/// How many class definitions of a message [`Deserializer`] keeps its field-match result for in
/// place (without allocating).
const FAST_INLINE: usize = 8;

impl<'de> Deserializer<'de, SliceRead<'de>> {
    /// A deserializer over a byte slice (strings and bytes may be borrowed from it).
    pub fn from_slice(data: &'de [u8]) -> Self {
        Deserializer::new(Decoder::from_slice(data))
    }
}

impl<R: std::io::Read> Deserializer<'static, IoRead<R>> {
    /// A deserializer over any `std::io::Read` (buffered internally).
    pub fn from_reader(r: R) -> Self {
        Deserializer::new(Decoder::from_reader(r))
    }
}

impl<'de, R: Read<'de>> Deserializer<'de, R> {
    /// A deserializer on top of an existing decoder (e.g. with seeded tables, or positioned
    /// inside an RPC envelope).
    pub fn new(dec: Decoder<'de, R>) -> Self {
        Deserializer {
            dec,
            fast: [(0, false); FAST_INLINE],
            fast_more: Vec::new(),
            shared: None,
            copies: RefCopies::default(),
        }
    }

    /// Replaces the decoder's limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.dec = self.dec.with_limits(limits);
        self
    }

    /// The underlying decoder (to read envelope codes around values).
    pub fn decoder(&mut self) -> &mut Decoder<'de, R> {
        &mut self.dec
    }

    /// The underlying decoder, read-only.
    pub(crate) fn decoder_ref(&self) -> &Decoder<'de, R> {
        &self.dec
    }

    /// Returns the underlying decoder.
    pub fn into_decoder(self) -> Decoder<'de, R> {
        self.dec
    }

    /// Deserializes one value of type `T` (more may follow, e.g. call arguments).
    pub fn deserialize_value<T: de::Deserialize<'de>>(&mut self) -> Result<T> {
        let r = T::deserialize(&mut *self);
        r.map_err(|e| e.at_offset(self.dec.offset()))
    }

    /// Fails unless the input is exhausted.
    pub fn end(&mut self) -> Result<()> {
        self.dec.end()
    }

    /// Starts a new message: forgets references and per-message class definitions.
    pub fn reset(&mut self) {
        self.dec.reset();
        self.fast = [(0, false); FAST_INLINE];
        self.fast_more.clear();
        self.shared = None;
        self.copies.clear();
    }

    /// Records that the value whose code is at offset `at` got the latest reference index.
    #[inline(always)]
    fn note_start(&mut self, at: u64) {
        if !R::REWINDABLE {
            return;
        }
        self.copies.note(self.dec.ref_count(), at);
    }

    /// Reads a value reference (its `Q` just read) into a plain Rust type: re-reads the
    /// referenced list, map or object from where it starts, with `f`, then continues after the
    /// reference. Everything the second reading registers (references, class definitions, type
    /// names, shared values) is forgotten again, so later indexes are those of the sender.
    /// Cycles end at the depth limit; the bytes re-read are bounded by `max_ref_copy_bytes`.
    #[cold]
    #[inline(never)]
    fn replay<T>(&mut self, expected: &str, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let at = self.dec.offset().saturating_sub(1);
        let r = self.dec.parse_ref()? as usize;
        self.replay_ref(at, r, expected, f)
    }

    /// [`replay`](Self::replay) of reference `r`, whose `Q` is at offset `at` (already parsed).
    #[cold]
    #[inline(never)]
    fn replay_ref<T>(
        &mut self,
        at: u64,
        r: usize,
        expected: &str,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let limit = self.dec.limits().max_ref_copy_bytes;
        let start = self.copies.start(r, at, expected, R::REWINDABLE, limit)?;
        let back = self.dec.offset();
        if !self.dec.read.rewind_to(start) {
            return Err(self.dec.err(ErrorKind::UnexpectedEof));
        }
        let (refs, classes, types) =
            (self.dec.ref_count(), self.dec.tables().classes().len(), self.dec.tables().types().len());
        let v = match self.dec.enter() {
            Ok(()) => {
                let v = f(self);
                self.dec.leave();
                v
            }
            Err(e) => Err(e),
        };
        let bytes = self.dec.offset().saturating_sub(start);
        self.dec.truncate_refs(refs);
        self.dec.tables_mut().truncate(classes, types);
        if let Some(shared) = &mut self.shared {
            shared.retain(|&k, _| k < refs);
        }
        self.dec.read.rewind_to(back);
        let copied = self.copies.copied(refs, bytes, at, limit);
        let v = v?;
        copied.map(|()| v)
    }

    /// Reads the next value code, reading any class definitions in front of it.
    #[inline(always)]
    fn next_code(&mut self) -> Result<u8> {
        loop {
            let c = self.dec.read_code()?;
            if c != BC_CLASS_DEF {
                return Ok(c);
            }
            self.dec.parse_class_def()?;
        }
    }

    #[inline]
    fn peek(&mut self) -> Result<u8> {
        self.dec.peek_code()?.ok_or_else(|| self.dec.err(ErrorKind::UnexpectedEof))
    }

    #[cold]
    fn invalid(&self, code: u8, expected: &str) -> Error {
        let found = match kind(code) {
            Kind::Invalid => return self.dec.unexpected(code, "value"),
            k => k.name(),
        };
        Error::new(
            ErrorKind::InvalidType { expected: expected.to_owned(), found: found.to_owned() },
            self.dec.offset().saturating_sub(1),
        )
    }

    #[cold]
    fn out_of_range(&self, value: i64, target: &'static str) -> Error {
        Error::new(ErrorKind::OutOfRange { value, target }, self.dec.offset())
    }

    /// Reads an int or a long as `i64` (ints first: the small integer types).
    #[inline(always)]
    fn integer(&mut self, expected: &str) -> Result<i64> {
        match self.dec.buffered_int() {
            Some(v) => Ok(v.into()),
            None => self.integer_slow(expected),
        }
    }

    /// Reads a long or an int as `i64` (longs first: `i64` and the like).
    #[inline(always)]
    fn long(&mut self, expected: &str) -> Result<i64> {
        match self.dec.buffered_long() {
            Some(v) => Ok(v),
            None => self.integer_slow(expected),
        }
    }

    /// [`integer`](Self::integer) and [`long`](Self::long) in general.
    #[inline(never)]
    fn integer_slow(&mut self, expected: &str) -> Result<i64> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::Int => self.dec.parse_int(code).map(i64::from),
            Kind::Long => self.dec.parse_long(code),
            _ => Err(self.invalid(code, expected)),
        }
    }

    /// Reads a double, int or long as `f64`.
    #[inline(always)]
    fn float(&mut self) -> Result<f64> {
        match self.dec.buffered_double() {
            Some(v) => Ok(v),
            None => self.float_slow(),
        }
    }

    /// [`float`](Self::float) in general.
    #[inline(never)]
    fn float_slow(&mut self) -> Result<f64> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::Double => self.dec.parse_double(code),
            Kind::Int => self.dec.parse_int(code).map(f64::from),
            Kind::Long => self.dec.parse_long(code).map(|v| v as f64),
            _ => Err(self.invalid(code, "a number")),
        }
    }

    /// Reads a date, long or int as milliseconds.
    #[inline(always)]
    fn date(&mut self) -> Result<i64> {
        match self.dec.buffered_date() {
            Some(v) => Ok(v),
            None => self.date_slow(),
        }
    }

    /// [`date`](Self::date) in general.
    #[inline(never)]
    fn date_slow(&mut self) -> Result<i64> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::Date => self.dec.parse_date(code),
            Kind::Long => self.dec.parse_long(code),
            Kind::Int => self.dec.parse_int(code).map(i64::from),
            _ => Err(self.invalid(code, "a date")),
        }
    }

    /// [`deserialize_string`](de::Deserializer::deserialize_string) in general.
    #[inline(never)]
    fn string_slow<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        if kind(code) != Kind::String {
            return Err(self.invalid(code, "a string"));
        }
        visitor.visit_string(self.dec.parse_string(code)?)
    }

    /// Skips one value whose code has been read, without building it.
    fn skip(&mut self, code: u8) -> Result<()> {
        match kind(code) {
            Kind::Null | Kind::Bool => Ok(()),
            Kind::Int => self.dec.parse_int(code).map(drop),
            Kind::Long => self.dec.parse_long(code).map(drop),
            Kind::Double => self.dec.parse_double(code).map(drop),
            Kind::Date => self.dec.parse_date(code).map(drop),
            Kind::String => self.dec.parse_str(code).map(drop),
            Kind::Binary => self.dec.parse_bytes(code).map(drop),
            Kind::List => {
                let at = self.dec.offset() - 1;
                self.dec.enter()?;
                let len = self.dec.parse_list_len(code)?;
                self.note_start(at);
                match len {
                    Some(n) => {
                        for _ in 0..n {
                            let c = self.next_code()?;
                            self.skip(c)?;
                        }
                    }
                    None => loop {
                        let c = self.next_code()?;
                        if c == BC_END {
                            break;
                        }
                        self.skip(c)?;
                    },
                }
                self.dec.leave();
                Ok(())
            }
            Kind::Map => {
                let at = self.dec.offset() - 1;
                self.dec.enter()?;
                self.map_header(code)?;
                self.note_start(at);
                self.skip_map_rest()?;
                self.dec.leave();
                Ok(())
            }
            Kind::ClassDef => {
                self.dec.parse_class_def()?;
                let c = self.next_code()?;
                self.skip(c)
            }
            Kind::Object => {
                let at = self.dec.offset() - 1;
                self.dec.enter()?;
                let idx = self.dec.parse_object_index(code)?;
                self.note_start(at);
                let n = self.class_len(idx);
                for _ in 0..n {
                    let c = self.next_code()?;
                    self.skip(c)?;
                }
                self.dec.leave();
                Ok(())
            }
            Kind::Ref => self.dec.parse_ref().map(drop),
            Kind::Remote | Kind::Invalid => Err(self.dec.unexpected(code, "value")),
        }
    }

    fn skip_map_rest(&mut self) -> Result<()> {
        loop {
            let c = self.next_code()?;
            if c == BC_END {
                return Ok(());
            }
            self.skip(c)?;
            let c = self.next_code()?;
            self.skip(c)?;
        }
    }

    /// Reads the rest of a map header (`M type` or `H`) and registers the map as a reference.
    #[inline]
    fn map_header(&mut self, code: u8) -> Result<()> {
        if code == BC_MAP {
            self.dec.skip_type()?;
        }
        self.dec.add_ref().map(drop)
    }

    #[inline]
    fn class_len(&self, idx: usize) -> usize {
        self.dec.tables().class(idx).map_or(0, |c| c.fields.len())
    }

    /// Whether the class definition `idx` lists exactly `fields`, in order (cached).
    #[inline]
    fn is_fast(&mut self, idx: usize, fields: &'static [&'static str]) -> bool {
        let key = fields.as_ptr() as usize;
        let known = match self.fast.get(idx) {
            Some(k) => Some(k),
            None => self.fast_more.get(idx - FAST_INLINE),
        };
        if let Some(&(k, fast)) = known {
            if k == key {
                return fast;
            }
        }
        self.is_fast_slow(idx, fields)
    }

    #[inline(never)]
    fn is_fast_slow(&mut self, idx: usize, fields: &'static [&'static str]) -> bool {
        let key = fields.as_ptr() as usize;
        let fast = self.dec.class_lists_exactly(idx, fields);
        if let Some(slot) = self.fast.get_mut(idx) {
            *slot = (key, fast);
        } else {
            let i = idx - FAST_INLINE;
            if self.fast_more.len() <= i {
                self.fast_more.resize(i + 1, (0, false));
            }
            self.fast_more[i] = (key, fast);
        }
        fast
    }

    fn visit_object<V: Visitor<'de>>(
        &mut self,
        code: u8,
        fields: Option<&'static [&'static str]>,
        visitor: V,
    ) -> Result<V::Value> {
        let at = self.dec.offset() - 1;
        self.dec.enter()?;
        let idx = self.dec.parse_object_index(code)?;
        self.note_start(at);
        let fast = fields.filter(|f| self.is_fast(idx, f));
        let (v, left) = if let Some(fields) = fast {
            // The class definition lists exactly the Rust type's fields, in order: hand the
            // values over as a sequence, without keys.
            let mut seq = ObjectSeq { de: self, left: fields.len() };
            let v = visitor.visit_seq(&mut seq)?;
            (v, seq.left)
        } else {
            let n = self.class_len(idx);
            let mut acc = ObjectAccess { de: self, idx, keys: 0, values: 0, n };
            let v = visitor.visit_map(&mut acc)?;
            (v, n - acc.values)
        };
        self.skip_values(left)?;
        self.dec.leave();
        Ok(v)
    }

    /// [`deserialize_struct`] of anything but an object: a map by field names, a list of the
    /// fields in order, or a reference to an earlier object (copied).
    #[inline(never)]
    fn visit_struct_other<V: Visitor<'de>>(
        &mut self,
        code: u8,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match kind(code) {
            Kind::Map => self.visit_map_code(code, visitor),
            Kind::List => self.visit_list(code, visitor),
            Kind::Ref => self.replay("an object", |de| de::Deserializer::deserialize_struct(de, name, fields, visitor)),
            _ => Err(self.invalid(code, "an object")),
        }
    }

    /// Skips `n` values.
    fn skip_values(&mut self, n: usize) -> Result<()> {
        for _ in 0..n {
            let c = self.next_code()?;
            self.skip(c)?;
        }
        Ok(())
    }

    fn visit_map_code<V: Visitor<'de>>(&mut self, code: u8, visitor: V) -> Result<V::Value> {
        let at = self.dec.offset() - 1;
        self.dec.enter()?;
        self.map_header(code)?;
        self.note_start(at);
        let mut acc = MapAccess { de: self, done: false, pending_value: false };
        let v = visitor.visit_map(&mut acc)?;
        let (pending_value, done) = (acc.pending_value, acc.done);
        if pending_value {
            let c = self.next_code()?;
            self.skip(c)?;
        }
        if !done {
            self.skip_map_rest()?;
        }
        self.dec.leave();
        Ok(v)
    }

    fn visit_list<V: Visitor<'de>>(&mut self, code: u8, visitor: V) -> Result<V::Value> {
        let at = self.dec.offset() - 1;
        self.dec.enter()?;
        let len = self.dec.parse_list_len(code)?;
        self.note_start(at);
        if R::REWINDABLE {
            // Each element may be an object with a reference index of its own: grow once for
            // lists of up to 64 Ki elements (beyond that, by doubling as usual).
            self.copies.reserve(len.unwrap_or(0));
        }
        let mut acc = ListAccess { de: self, left: len.unwrap_or(0), variable: len.is_none(), done: false };
        let v = visitor.visit_seq(&mut acc)?;
        let (variable, done, left) = (acc.variable, acc.done, acc.left);
        let extra = if variable {
            !done && {
                let at_end = self.peek()? == BC_END;
                if at_end {
                    self.dec.read_code()?;
                }
                !at_end
            }
        } else {
            left > 0
        };
        if extra {
            return Err(self.dec.err(ErrorKind::InvalidType {
                expected: "a list as long as the Rust type".into(),
                found: "a longer list".into(),
            }));
        }
        self.dec.leave();
        Ok(v)
    }

    fn visit_str_code<V: Visitor<'de>>(&mut self, code: u8, visitor: V) -> Result<V::Value> {
        match self.dec.parse_str(code)? {
            Reference::Borrowed(s) => visitor.visit_borrowed_str(s),
            Reference::Copied(s) => visitor.visit_str(s),
        }
    }

    fn visit_bytes_code<V: Visitor<'de>>(&mut self, code: u8, visitor: V) -> Result<V::Value> {
        match self.dec.parse_bytes(code)? {
            Reference::Borrowed(b) => visitor.visit_borrowed_bytes(b),
            Reference::Copied(b) => visitor.visit_bytes(b),
        }
    }

    /// The `name` of a Java enum object (`{name: "VARIANT"}`) whose code has been read.
    fn enum_object_name(&mut self, code: u8) -> Result<String> {
        let at = self.dec.offset() - 1;
        self.dec.enter()?;
        let idx = self.dec.parse_object_index(code)?;
        self.note_start(at);
        let n = self.class_len(idx);
        let mut name = None;
        for i in 0..n {
            let is_name = self.dec.tables().class(idx).is_some_and(|c| c.fields[i] == "name");
            let c = self.next_code()?;
            if is_name && kind(c) == Kind::String {
                name = Some(self.dec.parse_str(c)?.to_owned());
            } else {
                self.skip(c)?;
            }
        }
        self.dec.leave();
        name.ok_or_else(|| self.dec.err(ErrorKind::MissingField("name")))
    }
}

/// Deserializes a `T` from a complete Hessian 2.0 value in `data`; trailing bytes are an error.
pub fn from_slice<'de, T: de::Deserialize<'de>>(data: &'de [u8]) -> Result<T> {
    from_slice_with_limits(data, Limits::default())
}

/// Like [`from_slice`] with explicit limits.
pub fn from_slice_with_limits<'de, T: de::Deserialize<'de>>(data: &'de [u8], limits: Limits) -> Result<T> {
    limits.check_message_size(data.len())?;
    let mut d = Deserializer::new(Decoder::from_slice_with_limits(data, limits));
    let v = d.deserialize_value()?;
    d.end()?;
    Ok(v)
}

/// Deserializes a `T` from one Hessian 2.0 value read from `r` (stops after the value).
pub fn from_reader<R: std::io::Read, T: de::DeserializeOwned>(r: R) -> Result<T> {
    let limits = Limits::default();
    let mut d = Deserializer::from_reader(std::io::Read::take(r, limits.max_message_size)).with_limits(limits);
    d.deserialize_value()
}

macro_rules! int_method {
    ($method:ident, $visit:ident, $t:ty, $read:ident) => {
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let v = self.$read(stringify!($t))?;
            match <$t>::try_from(v) {
                Ok(x) => visitor.$visit(x),
                Err(_) => Err(self.out_of_range(v, stringify!($t))),
            }
        }
    };
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for &mut Deserializer<'de, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::Null => visitor.visit_unit(),
            Kind::Bool => visitor.visit_bool(code == BC_TRUE),
            Kind::Int => visitor.visit_i32(self.dec.parse_int(code)?),
            Kind::Long => visitor.visit_i64(self.dec.parse_long(code)?),
            Kind::Double => visitor.visit_f64(self.dec.parse_double(code)?),
            Kind::Date => visitor.visit_i64(self.dec.parse_date(code)?),
            Kind::String => self.visit_str_code(code, visitor),
            Kind::Binary => self.visit_bytes_code(code, visitor),
            Kind::List => self.visit_list(code, visitor),
            Kind::Map => self.visit_map_code(code, visitor),
            Kind::Object => self.visit_object(code, None, visitor),
            Kind::Ref => self.replay("a value", |de| de::Deserializer::deserialize_any(de, visitor)),
            Kind::ClassDef | Kind::Remote | Kind::Invalid => Err(self.invalid(code, "a value")),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.next_code()? {
            BC_TRUE => visitor.visit_bool(true),
            BC_FALSE => visitor.visit_bool(false),
            c => Err(self.invalid(c, "a boolean")),
        }
    }

    int_method!(deserialize_i8, visit_i8, i8, integer);
    int_method!(deserialize_i16, visit_i16, i16, integer);
    int_method!(deserialize_u8, visit_u8, u8, integer);
    int_method!(deserialize_u16, visit_u16, u16, integer);
    int_method!(deserialize_u32, visit_u32, u32, long);
    int_method!(deserialize_u64, visit_u64, u64, long);

    #[inline]
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let v = self.integer("i32")?;
        match i32::try_from(v) {
            Ok(x) => visitor.visit_i32(x),
            Err(_) => Err(self.out_of_range(v, "i32")),
        }
    }

    #[inline]
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i64(self.long("i64")?)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i128(self.long("i128")?.into())
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let v = self.long("u128")?;
        match u128::try_from(v) {
            Ok(x) => visitor.visit_u128(x),
            Err(_) => Err(self.out_of_range(v, "u128")),
        }
    }

    #[inline]
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f32(self.float()? as f32)
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(self.float()?)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        if kind(code) != Kind::String {
            return Err(self.invalid(code, "a one-character string"));
        }
        let s = self.dec.parse_str(code)?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => visitor.visit_char(c),
            _ => {
                let found = format!("string {:?}", &*s);
                Err(self.dec.err(ErrorKind::InvalidType { expected: "a one-character string".into(), found }))
            }
        }
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        if kind(code) != Kind::String {
            return Err(self.invalid(code, "a string"));
        }
        self.visit_str_code(code, visitor)
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // The type wants ownership: hand it a `String` built with one allocation and one copy.
        if let Some(s) = self.dec.buffered_ascii_string() {
            return visitor.visit_string(s);
        }
        self.string_slow(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::Binary => self.visit_bytes_code(code, visitor),
            Kind::String => match self.dec.parse_str(code)? {
                Reference::Borrowed(s) => visitor.visit_borrowed_bytes(s.as_bytes()),
                Reference::Copied(s) => visitor.visit_bytes(s.as_bytes()),
            },
            Kind::List => self.visit_list(code, visitor),
            _ => Err(self.invalid(code, "binary")),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek()? == BC_NULL {
            self.dec.read_code()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.next_code()? {
            BC_NULL => visitor.visit_unit(),
            c => Err(self.invalid(c, "null")),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if std::ptr::eq(name, DATE_TOKEN) || name == DATE_TOKEN {
            let millis = self.date()?;
            return visitor.visit_i64(millis);
        }
        if name == VALUE_TOKEN {
            let v = self.dec.read_value()?;
            return value::with_pending(v, || visitor.visit_unit());
        }
        if name == SHARED_TOKEN {
            if self.peek()? == BC_REF {
                self.dec.read_code()?;
                let at = self.dec.offset() - 1;
                let r = self.dec.parse_ref()? as usize;
                return match self.shared.as_ref().and_then(|s| s.get(&r)) {
                    Some(v) => shared::with_lookup(v.clone(), || visitor.visit_unit()),
                    // First read into a plain type: read it again, as a new shared value.
                    None => self.replay_ref(at, r, "a shared value", |de| {
                        de::Deserializer::deserialize_newtype_struct(de, SHARED_TOKEN, visitor)
                    }),
                };
            }
            let index = self.dec.ref_count();
            shared::clear_registered();
            let v = visitor.visit_newtype_struct(&mut *self)?;
            if let Some(rc) = shared::take_registered() {
                if self.dec.ref_count() > index {
                    self.shared.get_or_insert_with(Default::default).insert(index, rc);
                }
            }
            return Ok(v);
        }
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::List => self.visit_list(code, visitor),
            Kind::Binary => match self.dec.parse_bytes(code)? {
                Reference::Borrowed(b) => {
                    visitor.visit_seq(de::value::SeqDeserializer::<_, Error>::new(b.iter().copied()))
                }
                Reference::Copied(b) => {
                    visitor.visit_seq(de::value::SeqDeserializer::<_, Error>::new(b.iter().copied()))
                }
            },
            Kind::Ref => self.replay("a list", |de| de::Deserializer::deserialize_seq(de, visitor)),
            _ => Err(self.invalid(code, "a list")),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::Map => self.visit_map_code(code, visitor),
            Kind::Object => self.visit_object(code, None, visitor),
            Kind::Ref => self.replay("a map", |de| de::Deserializer::deserialize_map(de, visitor)),
            _ => Err(self.invalid(code, "a map")),
        }
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.dec.offset();
        let code = self.next_code()?;
        let mut r = match kind(code) {
            Kind::Object => self.visit_object(code, Some(fields), visitor),
            _ => self.visit_struct_other(code, _name, fields, visitor),
        };
        // In place, so that a large struct is not moved through another `Result`.
        if let Err(e) = &mut r {
            e.locate(start);
        }
        r
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::String => match self.dec.parse_str(code)? {
                Reference::Borrowed(s) => visitor.visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(s)),
                Reference::Copied(s) => visitor.visit_enum(de::value::StrDeserializer::<Error>::new(s)),
            },
            Kind::Object => {
                let name = self.enum_object_name(code)?;
                visitor.visit_enum(name.into_deserializer())
            }
            Kind::Map => {
                self.dec.enter()?;
                self.map_header(code)?;
                let v = visitor.visit_enum(EnumAccess { de: self })?;
                match self.next_code()? {
                    BC_END => {}
                    c => return Err(self.invalid(c, "the end of a one-entry enum map")),
                }
                self.dec.leave();
                Ok(v)
            }
            Kind::Ref => self.replay("an enum", |de| de::Deserializer::deserialize_enum(de, _name, _variants, visitor)),
            _ => Err(self.invalid(code, "an enum (string, Java enum object or one-entry map)")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        match kind(code) {
            Kind::String => self.visit_str_code(code, visitor),
            Kind::Int => {
                let v = self.dec.parse_int(code)?;
                match u64::try_from(v) {
                    Ok(x) => visitor.visit_u64(x),
                    Err(_) => Err(self.out_of_range(v.into(), "an identifier index")),
                }
            }
            _ => Err(self.invalid(code, "an identifier")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.next_code()?;
        self.skip(code)?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// Marks the path that calls it as unlikely. Without it LLVM weighs each error check of a
/// derived visitor 50/50, finds the later fields of a struct "cold" and keeps their decoding out
/// of line (a call, a result through memory) instead of inlining it.
#[cold]
#[inline(never)]
fn cold_path() {}

/// Gives an error raised without a position the offset `start` (on the cold error path).
#[cold]
#[inline(never)]
fn located(e: Error, start: u64) -> Error {
    e.at_offset(start)
}

/// The field values of an object whose class definition matches the Rust type exactly.
struct ObjectSeq<'a, 'de, R: Read<'de>> {
    de: &'a mut Deserializer<'de, R>,
    left: usize,
}

impl<'de, R: Read<'de>> de::SeqAccess<'de> for ObjectSeq<'_, 'de, R> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            // A derived visitor reads exactly the fields there are.
            cold_path();
            return Ok(None);
        }
        self.left -= 1;
        let start = self.de.dec.offset();
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(located(e, start)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// The fields of an object, as a serde map keyed by field name.
struct ObjectAccess<'a, 'de, R: Read<'de>> {
    de: &'a mut Deserializer<'de, R>,
    idx: usize,
    keys: usize,
    values: usize,
    n: usize,
}

impl<'de, R: Read<'de>> de::MapAccess<'de> for ObjectAccess<'_, 'de, R> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            if self.keys >= self.n {
                return Ok(None);
            }
            let i = self.keys;
            self.keys += 1;
            let Some(class) = self.de.dec.tables().class(self.idx) else {
                return seed.deserialize(FieldKey("")).map(Some);
            };
            // A field name the class lists twice is a Java field a subclass hides (Caucho writes
            // the subclass's first, then the superclass's): the Rust field is the subclass's,
            // and the hidden one's value is skipped, as Java's reader does.
            if class.fields[..i].contains(&class.fields[i]) {
                self.values += 1;
                self.de.skip_values(1)?;
                continue;
            }
            let name = class.fields[i].as_str();
            return seed.deserialize(FieldKey(name)).map(Some);
        }
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.values += 1;
        let start = self.de.dec.offset();
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.at_offset(start)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.n - self.keys)
    }
}

/// A field name handed to the derived field visitor.
struct FieldKey<'a>(&'a str);

impl<'de> de::Deserializer<'de> for FieldKey<'_> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_str(self.0)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// The entries of a Hessian map.
struct MapAccess<'a, 'de, R: Read<'de>> {
    de: &'a mut Deserializer<'de, R>,
    done: bool,
    pending_value: bool,
}

impl<'de, R: Read<'de>> de::MapAccess<'de> for MapAccess<'_, 'de, R> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.done {
            return Ok(None);
        }
        if self.de.peek()? == BC_END {
            self.de.dec.read_code()?;
            self.done = true;
            return Ok(None);
        }
        self.pending_value = true;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.pending_value = false;
        let start = self.de.dec.offset();
        seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))
    }
}

/// The elements of a Hessian list.
struct ListAccess<'a, 'de, R: Read<'de>> {
    de: &'a mut Deserializer<'de, R>,
    left: usize,
    variable: bool,
    done: bool,
}

impl<'de, R: Read<'de>> de::SeqAccess<'de> for ListAccess<'_, 'de, R> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.variable {
            if self.done {
                return Ok(None);
            }
            if self.de.peek()? == BC_END {
                self.de.dec.read_code()?;
                self.done = true;
                return Ok(None);
            }
        } else {
            if self.left == 0 {
                return Ok(None);
            }
            self.left -= 1;
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        if self.variable {
            None
        } else {
            Some(self.left)
        }
    }
}

/// An enum written as a one-entry map `{variant: content}`.
struct EnumAccess<'a, 'de, R: Read<'de>> {
    de: &'a mut Deserializer<'de, R>,
}

impl<'de, R: Read<'de>> de::EnumAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed.deserialize(&mut *self.de)?;
        Ok((v, self))
    }
}

impl<'de, R: Read<'de>> de::VariantAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
    }
}
