//! The serde deserializer shared by Hessian 1.0.2 and Burlap 1.0, the two formats that write an
//! object as a map typed with its class name and keyed by field name: one [`MapDeserializer`]
//! over the format's [`TokenRead`] decoder (`hessian::serde::h1::Deserializer`,
//! `hessian::serde::burlap::Deserializer`), as [`MapSerializer`](super::map_ser::MapSerializer)
//! is one serializer over their encoders.
//!
//! It reads straight from the input through the decoder's parsers (same checks, same
//! [`Limits`]), borrowing strings and bytes from a slice where the format allows, and gives the
//! results of the dynamic path (`from_value(h1::from_slice(data)?)`,
//! `from_value(burlap::from_slice(data)?)`) for every input that path accepts, without building
//! the value tree. Its errors carry the offset of the offending value: wire errors the offset of
//! the bad byte, type errors (`InvalidType`, `OutOfRange`) the offset where the value starts (its
//! code, the `<` of its element), errors raised by a visitor (`MissingField`, `UnknownVariant`,
//! custom messages) the start of the value, field or struct that raised them.
//!
//! A Java object is a typed map: it decodes into a struct by field name, in any order, unknown
//! fields skipped. Maps and lists are read up to their end mark, so whatever a visitor leaves
//! unread (a tuple shorter than its list, entries after a visitor stopped) is skipped, and
//! checked, as the dynamic path ignores it. The one place where values are still built is an
//! enum written as a typed map (a Java enum, `{name: VARIANT}` typed with the enum's class): its
//! entries are read as a [`Value`] map and mapped like the dynamic path does, as the variant may
//! be any entry.

use super::copies::RefCopies;
use super::dynamic::ValueDe;
use super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::kind::Kind;
use crate::read::Reference;
use crate::token::{Scalar, TokenRead};
use crate::value::{Map, Value};
use serde::de::{self, DeserializeSeed, Visitor};
use std::any::Any;
use std::collections::HashMap;
use std::rc::Rc;

/// Deserializes Rust values from Hessian 1.0.2 or Burlap 1.0 through the format's decoder `T`.
pub struct MapDeserializer<'de, T: TokenRead<'de>> {
    dec: T,
    /// Values decoded through [`Shared`](crate::serde::Shared), by reference index.
    shared: HashMap<usize, Rc<dyn Any>>,
    /// Where each list and map starts, for references into plain types (slices only).
    copies: RefCopies,
    _de: std::marker::PhantomData<&'de ()>,
}

#[cold]
fn invalid(expected: &str, found: &str, at: u64) -> Error {
    Error::new(ErrorKind::InvalidType { expected: expected.to_owned(), found: found.to_owned() }, at)
}

#[cold]
fn not_one_entry(start: u64) -> Error {
    invalid("a one-entry enum map", "map", start)
}

impl<'de, T: TokenRead<'de>> MapDeserializer<'de, T> {
    /// A deserializer on top of an existing decoder (e.g. positioned inside an RPC envelope).
    pub fn new(dec: T) -> Self {
        MapDeserializer { dec, shared: HashMap::new(), copies: RefCopies::default(), _de: std::marker::PhantomData }
    }

    /// Replaces the decoder's limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.dec.set_limits(limits);
        self
    }

    /// The underlying decoder (to read envelope codes around values).
    pub fn decoder(&mut self) -> &mut T {
        &mut self.dec
    }

    /// Returns the underlying decoder.
    pub fn into_decoder(self) -> T {
        self.dec
    }

    /// Deserializes one value of type `V` (more may follow, e.g. call arguments).
    pub fn deserialize_value<V: de::Deserialize<'de>>(&mut self) -> Result<V> {
        let start = self.dec.offset();
        V::deserialize(&mut *self).map_err(|e| e.at_offset(start))
    }

    /// Fails unless the input is exhausted (in Burlap: unless only whitespace or comments
    /// remain).
    pub fn end(&mut self) -> Result<()> {
        self.dec.end()
    }

    /// Starts a new message: forgets references.
    pub fn reset(&mut self) {
        self.dec.reset();
        self.shared.clear();
        self.copies.clear();
    }

    /// Records that the list or map starting at offset `at` got the latest reference index.
    #[inline]
    fn note_start(&mut self, at: u64) {
        if self.dec.rewindable() {
            self.copies.note(self.dec.ref_count(), at);
        }
    }

    /// Reads reference `r` (at offset `at`, already parsed) into a plain Rust type: re-reads the
    /// referenced list or map from where it starts, with `f`, then continues after the
    /// reference. The references and shared values the second reading registers are forgotten
    /// again. Cycles end at the depth limit; the bytes re-read are bounded by
    /// `max_ref_copy_bytes`.
    #[cold]
    #[inline(never)]
    fn replay<V>(&mut self, at: u64, r: usize, expected: &str, f: impl FnOnce(&mut Self) -> Result<V>) -> Result<V> {
        let limit = self.dec.limits().max_ref_copy_bytes;
        let start = self.copies.start(r, at, expected, self.dec.rewindable(), limit)?;
        let Some(mark) = self.dec.rewind(start) else {
            return Err(self.dec.err(ErrorKind::UnexpectedEof));
        };
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
        self.dec.restore(mark);
        let copied = self.copies.copied(refs, bytes, at, limit);
        let v = v?;
        copied.map(|()| v)
    }

    /// The error for a value of the wrong type opened at `at` (for a reference, an
    /// out-of-range index is reported first, as the dynamic path does).
    #[cold]
    fn wrong(&mut self, open: T::Open, at: u64, expected: &str) -> Error {
        match T::kind(open) {
            Kind::Invalid => self.dec.invalid(open),
            Kind::Ref => match self.dec.scalar(open) {
                Ok(_) => invalid(expected, Kind::Ref.name(), at),
                Err(e) => e,
            },
            k => invalid(expected, k.name(), at),
        }
    }

    /// Reads an int or a long, with the offset where it starts.
    #[inline]
    fn integer(&mut self, expected: &str) -> Result<(i64, u64)> {
        let (open, at) = self.dec.open()?;
        match T::kind(open) {
            Kind::Int | Kind::Long => Ok((self.dec.integer(open)?, at)),
            _ => Err(self.wrong(open, at, expected)),
        }
    }

    /// Reads a double, int or long as `f64`.
    #[inline]
    fn float(&mut self) -> Result<f64> {
        let (open, at) = self.dec.open()?;
        match T::kind(open) {
            Kind::Double | Kind::Int | Kind::Long => self.dec.double(open),
            _ => Err(self.wrong(open, at, "a number")),
        }
    }

    /// Skips one value opened at `at`, with the checks of the decoder.
    fn skip(&mut self, open: T::Open, at: u64) -> Result<()> {
        match T::kind(open) {
            Kind::List => {
                self.dec.enter()?;
                let head = self.dec.list_head(open)?;
                self.note_start(at);
                if !head.closed {
                    self.skip_list_rest(head.len, 0)?;
                }
                self.dec.leave();
                Ok(())
            }
            Kind::Map => {
                self.dec.enter()?;
                let head = self.dec.map_head(open)?;
                self.note_start(at);
                if !head.closed {
                    self.skip_map_rest(0)?;
                }
                self.dec.leave();
                Ok(())
            }
            Kind::Invalid | Kind::ClassDef | Kind::Object => Err(self.dec.invalid(open)),
            _ => self.dec.scalar(open).map(drop),
        }
    }

    /// Reads and skips one value.
    fn skip_next(&mut self) -> Result<()> {
        let (open, at) = self.dec.open()?;
        self.skip(open, at)
    }

    /// Skips the elements of a list after the first `count`, its end, and checks its length.
    fn skip_list_rest(&mut self, declared: Option<usize>, mut count: usize) -> Result<()> {
        let mut done = false;
        while self.next_entry(&mut done, &mut count)?.is_some() {
            self.skip_next()?;
        }
        self.dec.check_list_len(declared, count)
    }

    /// Skips the entries of a map after the first `count`, and its end.
    fn skip_map_rest(&mut self, mut count: usize) -> Result<()> {
        let mut done = false;
        while self.next_entry(&mut done, &mut count)?.is_some() {
            self.skip_next()?;
            self.skip_next()?;
        }
        Ok(())
    }

    /// Where the next entry of a list or map whose `count` entries were read so far starts;
    /// `None` after its end mark, which it consumes, or once `done`. Counts the entry against
    /// the limits.
    #[inline(always)]
    fn next_entry(&mut self, done: &mut bool, count: &mut usize) -> Result<Option<(Kind, u64)>> {
        if *done {
            return Ok(None);
        }
        match self.dec.peek()? {
            (None, _) => {
                self.dec.close()?;
                *done = true;
                Ok(None)
            }
            (Some(kind), at) => {
                self.dec.check_count(*count)?;
                *count += 1;
                Ok(Some((kind, at)))
            }
        }
    }

    /// A list opened at `at`, as a serde sequence.
    fn visit_list<V: Visitor<'de>>(&mut self, open: T::Open, at: u64, visitor: V) -> Result<V::Value> {
        self.dec.enter()?;
        let head = self.dec.list_head(open)?;
        self.note_start(at);
        if self.dec.rewindable() {
            self.copies.reserve(head.len.unwrap_or(0));
        }
        let mut acc = ListAccess { de: self, declared: head.len, count: 0, done: head.closed };
        let v = visitor.visit_seq(&mut acc)?;
        let (count, done) = (acc.count, acc.done);
        if done {
            self.dec.check_list_len(head.len, count)?;
        } else {
            self.skip_list_rest(head.len, count)?;
        }
        self.dec.leave();
        Ok(v)
    }

    /// A map (or object) opened at `at`, as a serde map; for a struct with the field names
    /// `fields`, a field name the map repeats is a Java field a subclass hides (Caucho writes the
    /// subclass's first): the first is kept and the repeats skipped, as Java's reader does.
    fn visit_map<V: Visitor<'de>>(
        &mut self,
        open: T::Open,
        at: u64,
        visitor: V,
        fields: Option<&'static [&'static str]>,
    ) -> Result<V::Value> {
        self.dec.enter()?;
        let head = self.dec.map_head(open)?;
        self.note_start(at);
        let seen = fields.map(|f| (f, 0));
        let mut acc = MapAccess { de: self, count: 0, done: head.closed, pending_value: false, seen };
        let v = visitor.visit_map(&mut acc)?;
        let (count, done, pending_value) = (acc.count, acc.done, acc.pending_value);
        if pending_value {
            self.skip_next()?;
        }
        if !done {
            self.skip_map_rest(count)?;
        }
        self.dec.leave();
        Ok(v)
    }

    /// An enum written as a map opened at `start`.
    fn visit_enum_map<V: Visitor<'de>>(
        &mut self,
        open: T::Open,
        start: u64,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.dec.enter()?;
        let head = self.dec.map_head(open)?;
        self.note_start(start);
        if head.closed {
            // `<map/>`: no entry
            return Err(not_one_entry(start));
        }
        if head.type_name.is_some() {
            // A typed map: a Java enum `{name: VARIANT}`, whose `name` entry may come anywhere,
            // or else a one-entry map. Mapped from its entries as the dynamic path does.
            let entries = self.dec.map_entries()?;
            self.dec.leave();
            let map = Value::Map(Box::new(Map { type_name: head.type_name, entries }));
            return de::Deserializer::deserialize_enum(ValueDe(map), name, variants, visitor)
                .map_err(|e| e.at_offset(start));
        }
        // An untyped map `{variant: content}` with exactly one entry, keyed by a string.
        if self.dec.peek()?.0 != Some(Kind::String) {
            return Err(not_one_entry(start));
        }
        let v = visitor.visit_enum(EnumAccess { de: self })?;
        if self.dec.peek()?.0.is_some() {
            return Err(not_one_entry(start));
        }
        self.dec.close()?;
        self.dec.leave();
        Ok(v)
    }

    /// A leaf opened at `at` for `deserialize_any`; out of line, so that the recursive list and
    /// map path keeps small stack frames.
    #[inline(never)]
    fn leaf_any<V: Visitor<'de>>(&mut self, open: T::Open, at: u64, visitor: V) -> Result<V::Value> {
        match self.dec.scalar(open)? {
            Scalar::Null => visitor.visit_unit(),
            Scalar::Bool(b) => visitor.visit_bool(b),
            Scalar::Int(i) => visitor.visit_i32(i),
            Scalar::Long(l) | Scalar::Date(l) => visitor.visit_i64(l),
            Scalar::Double(d) => visitor.visit_f64(d),
            Scalar::Str(Reference::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Scalar::Str(Reference::Copied(s)) => visitor.visit_str(s),
            Scalar::Bytes(Reference::Borrowed(b)) => visitor.visit_borrowed_bytes(b),
            Scalar::Bytes(Reference::Copied(b)) => visitor.visit_bytes(b),
            Scalar::Remote(r) => {
                // As the dynamic path maps it: `{type, url}`.
                let r = *r;
                let entries = [("type", r.type_name), ("url", r.url)];
                visitor.visit_map(de::value::MapDeserializer::<_, Error>::new(entries.into_iter()))
            }
            Scalar::Ref(r) => {
                self.replay(at, r as usize, "a value", |de| de::Deserializer::deserialize_any(de, visitor))
            }
        }
    }
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

impl<'de, T: TokenRead<'de>> de::Deserializer<'de> for &mut MapDeserializer<'de, T> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match T::kind(open) {
            Kind::List => self.visit_list(open, at, visitor),
            Kind::Map => self.visit_map(open, at, visitor, None),
            Kind::Invalid | Kind::ClassDef | Kind::Object => Err(self.dec.invalid(open)),
            // strings, the common leaf (field values, map keys), in line
            Kind::String => match self.dec.string(open)? {
                Reference::Borrowed(s) => visitor.visit_borrowed_str(s),
                Reference::Copied(s) => visitor.visit_str(s),
            },
            _ => self.leaf_any(open, at, visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match T::kind(open) {
            Kind::Bool => match self.dec.scalar(open)? {
                Scalar::Bool(b) => visitor.visit_bool(b),
                _ => Err(self.wrong(open, at, "a boolean")),
            },
            _ => Err(self.wrong(open, at, "a boolean")),
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
        if self.dec.peek()?.0 == Some(Kind::Null) {
            let (open, _) = self.dec.open()?;
            self.dec.scalar(open)?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match T::kind(open) {
            Kind::Null => {
                self.dec.scalar(open)?;
                visitor.visit_unit()
            }
            _ => Err(self.wrong(open, at, "null")),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if std::ptr::eq(name, DATE_TOKEN) || name == DATE_TOKEN {
            let (open, at) = self.dec.open()?;
            let millis = match T::kind(open) {
                Kind::Date | Kind::Long | Kind::Int => self.dec.integer(open)?,
                _ => return Err(self.wrong(open, at, "a date")),
            };
            return visitor.visit_i64(millis);
        }
        if name == VALUE_TOKEN {
            let v = self.dec.read_value()?;
            return value::with_pending(v, || visitor.visit_unit());
        }
        if name == SHARED_TOKEN {
            if self.dec.peek()?.0 == Some(Kind::Ref) {
                let (open, at) = self.dec.open()?;
                let Scalar::Ref(r) = self.dec.scalar(open)? else {
                    return Err(invalid("a reference", "value", at));
                };
                let r = r as usize;
                return match self.shared.get(&r) {
                    Some(v) => {
                        shared::with_lookup(v.clone(), || visitor.visit_unit()).map_err(|e: Error| e.at_offset(at))
                    }
                    // First read into a plain type: read it again, as a new shared value.
                    None => self.replay(at, r, "a shared value", |de| {
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
        let (open, at) = self.dec.open()?;
        match T::kind(open) {
            Kind::List => self.visit_list(open, at, visitor),
            Kind::Binary | Kind::Ref => match self.dec.scalar(open)? {
                Scalar::Bytes(Reference::Borrowed(b)) => {
                    visitor.visit_seq(de::value::SeqDeserializer::<_, Error>::new(b.iter().copied()))
                }
                Scalar::Bytes(Reference::Copied(b)) => {
                    visitor.visit_seq(de::value::SeqDeserializer::<_, Error>::new(b.iter().copied()))
                }
                Scalar::Ref(r) => {
                    self.replay(at, r as usize, "a list", |de| de::Deserializer::deserialize_seq(de, visitor))
                }
                _ => Err(self.wrong(open, at, "a list")),
            },
            _ => Err(self.wrong(open, at, "a list")),
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
        let (open, at) = self.dec.open()?;
        match T::kind(open) {
            Kind::Map => self.visit_map(open, at, visitor, None),
            Kind::Ref => match self.dec.scalar(open)? {
                Scalar::Ref(r) => {
                    self.replay(at, r as usize, "a map", |de| de::Deserializer::deserialize_map(de, visitor))
                }
                _ => Err(self.wrong(open, at, "a map")),
            },
            _ => Err(self.wrong(open, at, "a map")),
        }
    }

    /// A struct from an object (a typed map) or any map, by field name; or from a list of its
    /// fields in order.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        let r = match T::kind(open) {
            Kind::Map => self.visit_map(open, at, visitor, Some(fields)),
            Kind::List => self.visit_list(open, at, visitor),
            Kind::Ref => match self.dec.scalar(open)? {
                Scalar::Ref(r) => self.replay(at, r as usize, "an object", |de| {
                    de::Deserializer::deserialize_struct(de, name, fields, visitor)
                }),
                _ => Err(self.wrong(open, at, "an object")),
            },
            _ => Err(self.wrong(open, at, "an object")),
        };
        r.map_err(|e| e.at_offset(at))
    }

    /// An enum from a string (a unit variant), a Java enum (a map typed with the enum's class,
    /// whose `name` entry is the variant) or a one-entry map `{variant: content}`.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match T::kind(open) {
            Kind::Map => self.visit_enum_map(open, at, name, variants, visitor),
            Kind::String | Kind::Ref => match self.dec.scalar(open)? {
                Scalar::Str(Reference::Borrowed(s)) => {
                    visitor.visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(s))
                }
                Scalar::Str(Reference::Copied(s)) => visitor.visit_enum(de::value::StrDeserializer::<Error>::new(s)),
                Scalar::Ref(r) => self.replay(at, r as usize, "an enum", |de| {
                    de::Deserializer::deserialize_enum(de, name, variants, visitor)
                }),
                _ => Err(self.wrong(open, at, "an enum")),
            },
            _ => Err(self.wrong(open, at, "an enum")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_next()?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! { char str string bytes byte_buf }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The elements of a list, up to its end mark (whether or not it declares a length).
struct ListAccess<'a, 'de, T: TokenRead<'de>> {
    de: &'a mut MapDeserializer<'de, T>,
    declared: Option<usize>,
    count: usize,
    done: bool,
}

impl<'de, T: TokenRead<'de>> de::SeqAccess<'de> for ListAccess<'_, 'de, T> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let Some((_, start)) = self.de.next_entry(&mut self.done, &mut self.count)? else {
            return Ok(None);
        };
        seed.deserialize(&mut *self.de).map(Some).map_err(|e| e.at_offset(start))
    }

    fn size_hint(&self) -> Option<usize> {
        self.declared.map(|n| n.saturating_sub(self.count))
    }
}

/// The entries of a map (an object's entries are its fields, keyed by name).
struct MapAccess<'a, 'de, T: TokenRead<'de>> {
    de: &'a mut MapDeserializer<'de, T>,
    count: usize,
    done: bool,
    pending_value: bool,
    /// For a struct: its field names, and which of the first 64 the map has given so far (a
    /// repeat is skipped with its value).
    seen: Option<(&'static [&'static str], u64)>,
}

impl<'de, T: TokenRead<'de>> de::MapAccess<'de> for MapAccess<'_, 'de, T> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            let Some((kind, start)) = self.de.next_entry(&mut self.done, &mut self.count)? else {
                return Ok(None);
            };
            self.pending_value = true;
            if let (Some((names, given)), Kind::String) = (self.seen.as_mut(), kind) {
                let (open, _) = self.de.dec.open()?;
                let key = self.de.dec.string(open).map_err(|e| e.at_offset(start))?;
                let name: &str = &key;
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
                self.de.skip_next()?;
                self.pending_value = false;
                continue;
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
struct EnumAccess<'a, 'de, T: TokenRead<'de>> {
    de: &'a mut MapDeserializer<'de, T>,
}

impl<'de, T: TokenRead<'de>> de::EnumAccess<'de> for EnumAccess<'_, 'de, T> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let (_, start) = self.de.dec.peek()?;
        let v = seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))?;
        Ok((v, self))
    }
}

impl<'de, T: TokenRead<'de>> de::VariantAccess<'de> for EnumAccess<'_, 'de, T> {
    type Error = Error;

    /// The content of a unit variant is skipped, whatever it is (as the dynamic path does).
    fn unit_variant(self) -> Result<()> {
        self.de.skip_next()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
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
