//! The Hessian 1.0.2 serde [`Deserializer`]: reads straight from the input through
//! [`h1::Decoder`]'s parsers (same checks, same [`Limits`]), borrowing strings and bytes from a
//! slice where it can.
//!
//! It gives the results of the dynamic path (`from_value(h1::from_slice(data)?)`) for every
//! input that path accepts, without building the value tree, and its errors carry the offset of
//! the offending value: wire errors the offset of the bad byte, type errors (`InvalidType`,
//! `OutOfRange`) the offset of the value's code, errors raised by a visitor (`MissingField`,
//! `UnknownVariant`, custom messages) the start of the value, field or struct that raised them.
//!
//! A Java object is a typed map: it decodes into a struct by field name, in any order, unknown
//! fields skipped. Maps and lists are read until their `z`, so whatever a visitor leaves unread
//! (a tuple shorter than its list, entries after a visitor stopped) is skipped, as the dynamic
//! path ignores it. The one place where values are still built is an enum written as a typed
//! map (a Java enum, `M t <class> S "name" S <variant> z`): its entries are read as a
//! [`Value`] map and mapped like the dynamic path does, as the variant may be any entry.

use super::super::copies::RefCopies;
use super::super::dynamic::ValueDe;
use super::super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::h1::codes::*;
use crate::h1::Decoder;
use crate::kind::Kind;
use crate::read::{IoRead, Read, Reference, SliceRead};
use crate::value::{Map, Value};
use serde::de::{self, DeserializeSeed, Visitor};
use std::any::Any;
use std::collections::HashMap;
use std::rc::Rc;

/// Deserializes Rust values from Hessian 1.0.2.
pub struct Deserializer<'de, R: Read<'de>> {
    dec: Decoder<'de, R>,
    /// Values decoded through [`Shared`](crate::serde::Shared), by reference index.
    shared: HashMap<usize, Rc<dyn Any>>,
    /// Where each list and map starts, for references into plain types (slices only).
    copies: RefCopies,
}

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

/// The name of the kind of value a code starts (as [`Value::kind_name`] names it).
fn kind_name(code: u8) -> Option<&'static str> {
    match kind(code) {
        Kind::Invalid => None,
        k => Some(k.name()),
    }
}

fn is_string(code: u8) -> bool {
    kind(code) == Kind::String
}

impl<'de, R: Read<'de>> Deserializer<'de, R> {
    /// A deserializer on top of an existing decoder (e.g. positioned inside an RPC envelope).
    pub fn new(dec: Decoder<'de, R>) -> Self {
        Deserializer { dec, shared: HashMap::new(), copies: RefCopies::default() }
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

    /// Returns the underlying decoder.
    pub fn into_decoder(self) -> Decoder<'de, R> {
        self.dec
    }

    /// Deserializes one value of type `T` (more may follow, e.g. call arguments).
    pub fn deserialize_value<T: de::Deserialize<'de>>(&mut self) -> Result<T> {
        let start = self.dec.offset();
        T::deserialize(&mut *self).map_err(|e| e.at_offset(start))
    }

    /// Fails unless the input is exhausted.
    pub fn end(&mut self) -> Result<()> {
        self.dec.end()
    }

    /// Starts a new message: forgets references.
    pub fn reset(&mut self) {
        self.dec.reset();
        self.shared.clear();
        self.copies.clear();
    }

    /// Records that the list or map whose code is at offset `at` got the latest reference index.
    #[inline]
    fn note_start(&mut self, at: u64) {
        if R::REWINDABLE {
            self.copies.note(self.dec.ref_count(), at);
        }
    }

    /// Reads a reference (its `R` just read) into a plain Rust type: re-reads the referenced
    /// list or map from where it starts, with `f`, then continues after the reference. The
    /// references and shared values the second reading registers are forgotten again. Cycles
    /// end at the depth limit; the bytes re-read are bounded by `max_ref_copy_bytes`.
    #[cold]
    #[inline(never)]
    fn replay<T>(&mut self, expected: &str, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let at = self.dec.offset().saturating_sub(1);
        let r = self.dec.parse_ref()? as usize;
        self.replay_ref(at, r, expected, f)
    }

    /// [`replay`](Self::replay) of reference `r`, whose `R` is at offset `at` (already parsed).
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
        let refs = self.dec.ref_count();
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
        self.shared.retain(|&k, _| k < refs);
        self.dec.read.rewind_to(back);
        let copied = self.copies.copied(refs, bytes, at, limit);
        let v = v?;
        copied.map(|()| v)
    }

    /// The next code, without consuming it; the end of the input is an error.
    fn peek(&mut self) -> Result<u8> {
        match self.dec.peek_code()? {
            Some(c) => Ok(c),
            None => Err(self.dec.err(ErrorKind::UnexpectedEof)),
        }
    }

    /// The error for a value of the wrong type whose code has just been read (for a reference,
    /// an out-of-range index is reported first, as the dynamic path does).
    #[cold]
    fn wrong(&mut self, code: u8, expected: &str) -> Error {
        let at = self.dec.offset().saturating_sub(1);
        let Some(found) = kind_name(code) else {
            return self.dec.unexpected(code, "value");
        };
        if code == BC_REF {
            if let Err(e) = self.dec.parse_ref() {
                return e;
            }
        }
        Error::new(ErrorKind::InvalidType { expected: expected.to_owned(), found: found.to_owned() }, at)
    }

    /// Reads an int or a long, with the offset of its code.
    fn integer(&mut self, expected: &str) -> Result<(i64, u64)> {
        let start = self.dec.offset();
        let code = self.dec.read_code()?;
        let v = match code {
            BC_INT => self.dec.i32()?.into(),
            BC_LONG => self.dec.i64()?,
            _ => return Err(self.wrong(code, expected)),
        };
        Ok((v, start))
    }

    /// Reads a double, int or long as `f64`.
    fn float(&mut self) -> Result<f64> {
        let code = self.dec.read_code()?;
        match code {
            BC_DOUBLE => Ok(f64::from_bits(self.dec.i64()? as u64)),
            BC_INT => Ok(self.dec.i32()?.into()),
            BC_LONG => Ok(self.dec.i64()? as f64),
            _ => Err(self.wrong(code, "a number")),
        }
    }

    /// Skips one value whose code has been read, with the checks of [`Decoder::parse_value`].
    fn skip(&mut self, code: u8) -> Result<()> {
        match kind(code) {
            Kind::Null | Kind::Bool => Ok(()),
            Kind::Int => self.dec.i32().map(drop),
            Kind::Long | Kind::Double | Kind::Date => self.dec.i64().map(drop),
            Kind::String => self.dec.parse_str(code).map(drop),
            Kind::Binary => self.dec.parse_bytes_ref(code).map(drop),
            Kind::List => {
                let at = self.dec.offset() - 1;
                self.dec.enter()?;
                let (_, len) = self.dec.parse_list_header()?;
                self.note_start(at);
                self.skip_list_rest(len, 0)?;
                self.dec.leave();
                Ok(())
            }
            Kind::Map => {
                let at = self.dec.offset() - 1;
                self.dec.enter()?;
                self.dec.parse_map_header()?;
                self.note_start(at);
                self.skip_map_rest(0)?;
                self.dec.leave();
                Ok(())
            }
            Kind::Ref => self.dec.parse_ref().map(drop),
            Kind::Remote => self.dec.parse_remote().map(drop),
            Kind::ClassDef | Kind::Object | Kind::Invalid => Err(self.dec.unexpected(code, "value")),
        }
    }

    /// Skips the elements of a list after the first `count`, its `z`, and checks its length.
    fn skip_list_rest(&mut self, declared: Option<usize>, mut count: usize) -> Result<()> {
        loop {
            let c = self.dec.read_code()?;
            if c == BC_END {
                break;
            }
            self.dec.check_count(count)?;
            count += 1;
            self.skip(c)?;
        }
        self.dec.check_list_len(declared, count)
    }

    /// Skips the entries of a map after the first `count`, and its `z`.
    fn skip_map_rest(&mut self, mut count: usize) -> Result<()> {
        loop {
            let c = self.dec.read_code()?;
            if c == BC_END {
                return Ok(());
            }
            self.dec.check_count(count)?;
            count += 1;
            self.skip(c)?;
            let c = self.dec.read_code()?;
            self.skip(c)?;
        }
    }

    /// A list whose `V` has been read, as a serde sequence.
    fn visit_list<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let at = self.dec.offset() - 1;
        self.dec.enter()?;
        let (_, declared) = self.dec.parse_list_header()?;
        self.note_start(at);
        if R::REWINDABLE {
            self.copies.reserve(declared.unwrap_or(0));
        }
        let mut acc = ListAccess { de: self, declared, count: 0, done: false };
        let v = visitor.visit_seq(&mut acc)?;
        let (count, done) = (acc.count, acc.done);
        if done {
            self.dec.check_list_len(declared, count)?;
        } else {
            self.skip_list_rest(declared, count)?;
        }
        self.dec.leave();
        Ok(v)
    }

    /// A map (or object) whose `M` has been read, as a serde map.
    fn visit_map<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.visit_map_keys(visitor, None)
    }

    /// A map as the fields of a struct with the field names `fields`: a field name the map
    /// repeats is a Java field a subclass hides (Caucho writes the subclass's first): the first
    /// is kept and the repeats skipped, as Java's reader does.
    fn visit_struct_map<V: Visitor<'de>>(&mut self, visitor: V, fields: &'static [&'static str]) -> Result<V::Value> {
        self.visit_map_keys(visitor, Some((fields, 0)))
    }

    fn visit_map_keys<V: Visitor<'de>>(
        &mut self,
        visitor: V,
        seen: Option<(&'static [&'static str], u64)>,
    ) -> Result<V::Value> {
        let at = self.dec.offset() - 1;
        self.dec.enter()?;
        self.dec.parse_map_header()?;
        self.note_start(at);
        let mut acc = MapAccess { de: self, count: 0, done: false, pending_value: false, seen };
        let v = visitor.visit_map(&mut acc)?;
        let (count, done, pending_value) = (acc.count, acc.done, acc.pending_value);
        if pending_value {
            let c = self.dec.read_code()?;
            self.skip(c)?;
        }
        if !done {
            self.skip_map_rest(count)?;
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
        match self.dec.parse_bytes_ref(code)? {
            Reference::Borrowed(b) => visitor.visit_borrowed_bytes(b),
            Reference::Copied(b) => visitor.visit_bytes(b),
        }
    }

    /// An enum written as a map whose `M` (at `start`) has been read.
    fn visit_enum_map<V: Visitor<'de>>(
        &mut self,
        start: u64,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.dec.enter()?;
        let type_name = self.dec.parse_map_header()?;
        self.note_start(start);
        if type_name.is_some() {
            // A typed map: a Java enum `{name: VARIANT}`, whose `name` entry may come anywhere,
            // or else a one-entry map. Mapped from its entries as the dynamic path does.
            let entries = self.dec.read_entries(8)?;
            self.dec.leave();
            let map = Value::Map(Box::new(Map { type_name, entries }));
            return de::Deserializer::deserialize_enum(ValueDe(map), name, variants, visitor)
                .map_err(|e| e.at_offset(start));
        }
        // An untyped map `{variant: content}` with exactly one entry.
        let c = self.peek()?;
        if !is_string(c) {
            return Err(not_one_entry(start));
        }
        let v = visitor.visit_enum(EnumAccess { de: self })?;
        if self.dec.read_code()? != BC_END {
            return Err(not_one_entry(start));
        }
        self.dec.leave();
        Ok(v)
    }
}

#[cold]
fn not_one_entry(start: u64) -> Error {
    Error::new(ErrorKind::InvalidType { expected: "a one-entry enum map".into(), found: "map".into() }, start)
}

/// Deserializes a `T` from a complete Hessian 1.0.2 value in `data`; trailing bytes are an
/// error.
pub fn from_slice<'de, T: de::Deserialize<'de>>(data: &'de [u8]) -> Result<T> {
    from_slice_with_limits(data, Limits::default())
}

/// Like [`from_slice`] with explicit limits.
pub fn from_slice_with_limits<'de, T: de::Deserialize<'de>>(data: &'de [u8], limits: Limits) -> Result<T> {
    limits.check_message_size(data.len())?;
    let mut d = Deserializer::from_slice(data).with_limits(limits);
    let v = d.deserialize_value()?;
    d.end()?;
    Ok(v)
}

/// Deserializes a `T` from one Hessian 1.0.2 value read from `r` (stops after the value).
pub fn from_reader<R: std::io::Read, T: de::DeserializeOwned>(r: R) -> Result<T> {
    let limits = Limits::default();
    let mut d = Deserializer::from_reader(std::io::Read::take(r, limits.max_message_size)).with_limits(limits);
    d.deserialize_value()
}

macro_rules! int_method {
    ($method:ident, $visit:ident, $t:ty) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let (v, start) = self.integer(stringify!($t))?;
            match <$t>::try_from(v) {
                Ok(x) => visitor.$visit(x),
                Err(_) => Err(Error::new(ErrorKind::OutOfRange { value: v, target: stringify!($t) }, start)),
            }
        }
    };
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for &mut Deserializer<'de, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.dec.read_code()?;
        match kind(code) {
            Kind::Null => visitor.visit_unit(),
            Kind::Bool => visitor.visit_bool(code == BC_TRUE),
            Kind::Int => visitor.visit_i32(self.dec.i32()?),
            Kind::Long | Kind::Date => visitor.visit_i64(self.dec.i64()?),
            Kind::Double => visitor.visit_f64(f64::from_bits(self.dec.i64()? as u64)),
            Kind::String => self.visit_str_code(code, visitor),
            Kind::Binary => self.visit_bytes_code(code, visitor),
            Kind::List => self.visit_list(visitor),
            Kind::Map => self.visit_map(visitor),
            Kind::Remote => {
                // As the dynamic path maps it: `{type, url}`.
                let r = self.dec.parse_remote()?;
                let entries = [("type", r.type_name), ("url", r.url)];
                visitor.visit_map(de::value::MapDeserializer::<_, Error>::new(entries.into_iter()))
            }
            Kind::Ref => self.replay("a value", |de| de::Deserializer::deserialize_any(de, visitor)),
            Kind::ClassDef | Kind::Object | Kind::Invalid => Err(self.wrong(code, "a value")),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.dec.read_code()? {
            BC_TRUE => visitor.visit_bool(true),
            BC_FALSE => visitor.visit_bool(false),
            c => Err(self.wrong(c, "a boolean")),
        }
    }

    int_method!(deserialize_i8, visit_i8, i8);
    int_method!(deserialize_i16, visit_i16, i16);
    int_method!(deserialize_i32, visit_i32, i32);
    int_method!(deserialize_u8, visit_u8, u8);
    int_method!(deserialize_u16, visit_u16, u16);
    int_method!(deserialize_u32, visit_u32, u32);
    int_method!(deserialize_u64, visit_u64, u64);
    int_method!(deserialize_u128, visit_u128, u128);

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i64(self.integer("i64")?.0)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i128(self.integer("i128")?.0.into())
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f32(self.float()? as f32)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(self.float()?)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek()? == BC_NULL {
            self.dec.read_code()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.dec.read_code()? {
            BC_NULL => visitor.visit_unit(),
            c => Err(self.wrong(c, "null")),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if std::ptr::eq(name, DATE_TOKEN) || name == DATE_TOKEN {
            let code = self.dec.read_code()?;
            let millis = match code {
                BC_DATE | BC_LONG => self.dec.i64()?,
                BC_INT => self.dec.i32()?.into(),
                _ => return Err(self.wrong(code, "a date")),
            };
            return visitor.visit_i64(millis);
        }
        if name == VALUE_TOKEN {
            let v = self.dec.read_value()?;
            return value::with_pending(v, || visitor.visit_unit());
        }
        if name == SHARED_TOKEN {
            if self.peek()? == BC_REF {
                let at = self.dec.offset();
                self.dec.read_code()?;
                let r = self.dec.parse_ref()? as usize;
                return match self.shared.get(&r) {
                    Some(v) => {
                        shared::with_lookup(v.clone(), || visitor.visit_unit()).map_err(|e: Error| e.at_offset(at))
                    }
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
                    self.shared.insert(index, rc);
                }
            }
            return Ok(v);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.dec.read_code()?;
        match code {
            BC_LIST => self.visit_list(visitor),
            BC_BINARY | BC_BINARY_CHUNK => match self.dec.parse_bytes_ref(code)? {
                Reference::Borrowed(b) => {
                    visitor.visit_seq(de::value::SeqDeserializer::<_, Error>::new(b.iter().copied()))
                }
                Reference::Copied(b) => {
                    visitor.visit_seq(de::value::SeqDeserializer::<_, Error>::new(b.iter().copied()))
                }
            },
            BC_REF => self.replay("a list", |de| de::Deserializer::deserialize_seq(de, visitor)),
            _ => Err(self.wrong(code, "a list")),
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
        match self.dec.read_code()? {
            BC_MAP => self.visit_map(visitor),
            BC_REF => self.replay("a map", |de| de::Deserializer::deserialize_map(de, visitor)),
            c => Err(self.wrong(c, "a map")),
        }
    }

    /// A struct from an object (a typed map) or any map, by field name; or from a list of its
    /// fields in order.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.dec.offset();
        let r = match self.dec.read_code()? {
            BC_MAP => self.visit_struct_map(visitor, _fields),
            BC_LIST => self.visit_list(visitor),
            BC_REF => self.replay("an object", |de| de::Deserializer::deserialize_struct(de, _name, _fields, visitor)),
            c => Err(self.wrong(c, "an object")),
        };
        r.map_err(|e| e.at_offset(start))
    }

    /// An enum from a string (a unit variant), a Java enum (a map typed with the enum's class,
    /// whose `name` entry is the variant) or a one-entry map `{variant: content}`.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.dec.offset();
        let code = self.dec.read_code()?;
        match code {
            BC_STRING | BC_STRING_CHUNK | BC_XML | BC_XML_CHUNK => match self.dec.parse_str(code)? {
                Reference::Borrowed(s) => visitor.visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(s)),
                Reference::Copied(s) => visitor.visit_enum(de::value::StrDeserializer::<Error>::new(s)),
            },
            BC_MAP => self.visit_enum_map(start, name, variants, visitor),
            BC_REF => self.replay("an enum", |de| de::Deserializer::deserialize_enum(de, name, variants, visitor)),
            _ => Err(self.wrong(code, "an enum")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let code = self.dec.read_code()?;
        self.skip(code)?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! { char str string bytes byte_buf }

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl<'de, R: Read<'de>> Deserializer<'de, R> {
    /// Whether a list or map whose `count` entries were read so far has another (`false` after
    /// its closing `z`, which it consumes, or once `done`); counts the entry against the limits.
    fn next_entry(&mut self, done: &mut bool, count: &mut usize) -> Result<bool> {
        if *done {
            return Ok(false);
        }
        if self.peek()? == BC_END {
            self.dec.read_code()?;
            *done = true;
            return Ok(false);
        }
        self.dec.check_count(*count)?;
        *count += 1;
        Ok(true)
    }
}

/// The elements of a Hessian 1 list (always closed by `z`, whether or not it declares a length).
struct ListAccess<'a, 'de, R: Read<'de>> {
    de: &'a mut Deserializer<'de, R>,
    declared: Option<usize>,
    count: usize,
    done: bool,
}

impl<'de, R: Read<'de>> de::SeqAccess<'de> for ListAccess<'_, 'de, R> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.de.next_entry(&mut self.done, &mut self.count)? {
            return Ok(None);
        }
        let start = self.de.dec.offset();
        seed.deserialize(&mut *self.de).map(Some).map_err(|e| e.at_offset(start))
    }

    fn size_hint(&self) -> Option<usize> {
        self.declared.map(|n| n.saturating_sub(self.count))
    }
}

/// The entries of a Hessian 1 map (an object's entries are its fields, keyed by name).
struct MapAccess<'a, 'de, R: Read<'de>> {
    de: &'a mut Deserializer<'de, R>,
    count: usize,
    done: bool,
    pending_value: bool,
    /// For a struct: its field names, and which of the first 64 the map has given so far (a
    /// repeat is skipped with its value).
    seen: Option<(&'static [&'static str], u64)>,
}

impl<'de, R: Read<'de>> de::MapAccess<'de> for MapAccess<'_, 'de, R> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            if !self.de.next_entry(&mut self.done, &mut self.count)? {
                return Ok(None);
            }
            self.pending_value = true;
            let start = self.de.dec.offset();
            if let Some((names, given)) = self.seen.as_mut() {
                let code = self.de.peek()?;
                if matches!(code, BC_STRING | BC_STRING_CHUNK) {
                    self.de.dec.read_code()?;
                    let key = self.de.dec.parse_str(code).map_err(|e| e.at_offset(start))?;
                    let name: &str = match &key {
                        Reference::Borrowed(k) => k,
                        Reference::Copied(k) => k,
                    };
                    let index = names.iter().position(|n| *n == name).filter(|&i| i < 64);
                    let repeat = index.is_some_and(|i| *given & (1 << i) != 0);
                    if let Some(i) = index {
                        *given |= 1 << i;
                    }
                    if !repeat {
                        return seed
                            .deserialize(de::IntoDeserializer::<Error>::into_deserializer(name))
                            .map(Some)
                            .map_err(|e| e.at_offset(start));
                    }
                    // a field a subclass hides: its value is skipped
                    let c = self.de.dec.read_code()?;
                    self.de.skip(c)?;
                    self.pending_value = false;
                    continue;
                }
            }
            return seed.deserialize(&mut *self.de).map(Some).map_err(|e| e.at_offset(start));
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.pending_value = false;
        let start = self.de.dec.offset();
        seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))
    }
}

/// An enum written as a one-entry map `{variant: content}` (after the map's header).
struct EnumAccess<'a, 'de, R: Read<'de>> {
    de: &'a mut Deserializer<'de, R>,
}

impl<'de, R: Read<'de>> de::EnumAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let start = self.de.dec.offset();
        let v = seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))?;
        Ok((v, self))
    }
}

impl<'de, R: Read<'de>> de::VariantAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;

    /// The content of a unit variant is skipped, whatever it is (as the dynamic path does).
    fn unit_variant(self) -> Result<()> {
        let code = self.de.dec.read_code()?;
        self.de.skip(code)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let start = self.de.dec.offset();
        seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
    }
}
