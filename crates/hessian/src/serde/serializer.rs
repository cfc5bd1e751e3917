//! The one serde [`Serializer`] of the crate, generic over the format's encoder (in the spirit
//! of rmp-serde's `Serializer<W, C>`): `hessian::serde::Serializer` (Hessian 2.0),
//! `hessian::serde::h1::Serializer` and `hessian::serde::burlap::Serializer` are this type over
//! `h2::Encoder`, `h1::Encoder` and `burlap::Encoder`.
//!
//! Everything the formats write alike is here, once: the scalars (and the range errors of the
//! integers a Hessian long cannot hold), `char`, bytes, options and units, enum variants as
//! one-entry maps, sequences, tuples and maps, the [`Date`](super::Date),
//! [`Value`] and [`Shared`](super::Shared) newtype tokens, the numbering of
//! references and error offsets. What differs is the format's part, [`SerdeEncoder`]:
//! - how a struct (and a Java enum, a unit variant) is written: Hessian 2 by class definitions
//!   (`serde::ser`, with its cached, speculative fast path), Hessian 1 and Burlap as maps typed
//!   with the class name (`serde::map_ser`);
//! - how a list is begun and ended (Hessian 2's variable-length lists, the other formats'
//!   lengths filled in at the end);
//! - what happens after an error in a value (Hessian 2 may redo a struct with a new class
//!   definition), and what the format's tables need before the encoder is handed out.

use super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind, Result};
use crate::token::TokenWrite;
use crate::value::Value;
use serde::ser::{self, Serialize};
use std::collections::HashMap;
use std::fmt::Display;

/// The format's part of the serde [`Serializer`], on top of its encoder's tokens
/// ([`TokenWrite`]): implemented by this crate's three encoders only (`TokenWrite` is sealed).
/// Its items are the serializer's internals.
pub trait SerdeEncoder: TokenWrite + Sized {
    /// The format's state of one message (Hessian 2: the class definitions written so far).
    #[doc(hidden)]
    type State;
    /// A list being written.
    #[doc(hidden)]
    type List;
    /// Serializer of a struct's fields.
    #[doc(hidden)]
    type StructSer<'a>: ser::SerializeStruct<Ok = (), Error = Error>
    where
        Self: 'a;
    /// Whether a remote reference is numbered as a reference (Hessian 2 writes it as an object).
    #[doc(hidden)]
    const REMOTE_IS_REF: bool;

    /// The state of a new message.
    #[doc(hidden)]
    fn new_state() -> Self::State;
    /// Starts a new message (the serializer has forgotten its references already).
    #[doc(hidden)]
    fn reset(s: &mut Serializer<Self>);
    /// Brings the encoder's tables up to date, before a [`Value`] is written or the encoder is
    /// handed out.
    #[doc(hidden)]
    fn sync(s: &mut Serializer<Self>);
    /// Starts a list of `len` elements, or of a length not known yet (counted as a reference by
    /// the caller).
    #[doc(hidden)]
    fn begin_list(s: &mut Serializer<Self>, len: Option<usize>) -> Result<Self::List>;
    /// After an element of `list` has been written.
    #[doc(hidden)]
    fn element_done(s: &mut Serializer<Self>, list: &mut Self::List);
    /// Ends `list`.
    #[doc(hidden)]
    fn end_list(s: &mut Serializer<Self>, list: Self::List) -> Result<()>;
    /// Starts a struct's object.
    #[doc(hidden)]
    fn serialize_struct<'a>(s: &'a mut Serializer<Self>, name: &'static str, len: usize)
        -> Result<Self::StructSer<'a>>;
    /// Writes a unit variant, as Java writes an enum.
    #[doc(hidden)]
    fn unit_variant(s: &mut Serializer<Self>, name: &'static str, variant: &'static str) -> Result<()>;
    /// After `v` failed with `e`: the error to return, or `v` written after all.
    #[doc(hidden)]
    fn recover<T: ?Sized + Serialize>(s: &mut Serializer<Self>, e: Error, v: &T) -> Result<()>;
}

/// Serializes Rust values through a format's encoder `E` (Hessian 2.0, Hessian 1.0.2 or
/// Burlap 1.0; see the module docs).
///
/// One serializer writes one message (class definitions and references are numbered per
/// message); call [`finish`](Self::finish) to flush.
pub struct Serializer<E: SerdeEncoder> {
    pub(crate) enc: E,
    /// Lists, maps and objects written so far (the reference numbering of the message).
    pub(crate) refs: u32,
    /// Addresses of [`Shared`](super::Shared) values already written, with their reference index
    /// (made when the first one is written).
    pub(crate) shared: Option<HashMap<usize, u32>>,
    /// The format's state.
    pub(crate) st: E::State,
}

impl<E: SerdeEncoder> Serializer<E> {
    /// A serializer on top of an existing encoder (e.g. one with pre-seeded tables, or inside an
    /// RPC envelope that the caller writes with the same encoder).
    #[inline]
    pub fn from_encoder(enc: E) -> Self {
        // (the state built in place: given as an argument, it would be copied in)
        Serializer { enc, refs: 0, shared: None, st: E::new_state() }
    }

    /// The underlying encoder as it is, without bringing its tables up to date first: for
    /// envelope codes that name no class (a call's or reply's end mark), so that a message does
    /// not pay for tables nothing reads.
    #[inline]
    pub(crate) fn envelope_encoder(&mut self) -> &mut E {
        &mut self.enc
    }

    /// The underlying encoder (to write envelope codes around values).
    pub fn encoder(&mut self) -> &mut E {
        E::sync(self);
        &mut self.enc
    }

    /// Returns the encoder, e.g. to write more values with the low-level API.
    pub fn into_encoder(mut self) -> E {
        E::sync(&mut self);
        self.enc
    }

    /// Flushes and returns the underlying writer.
    pub fn finish(self) -> Result<E::Writer> {
        self.enc.finish()
    }

    /// Writes out the buffer and flushes the underlying writer.
    pub(crate) fn flush(&mut self) -> Result<()> {
        self.enc.flush()
    }

    /// Starts a new message: forgets class definitions and references written so far.
    pub fn reset(&mut self) {
        self.refs = 0;
        self.shared = None;
        E::reset(self);
    }

    /// Serializes one value into the message (more can follow, e.g. call arguments).
    pub fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.entry(value).map_err(|e| e.at_offset(self.enc.position()))
    }

    /// Serializes a value, leaving an error to the format ([`SerdeEncoder::recover`]; Hessian 2
    /// may serialize the value a second time, see `serde::ser`).
    #[inline]
    pub(crate) fn entry<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        match v.serialize(&mut *self) {
            Ok(()) => Ok(()),
            Err(e) => E::recover(self, e, v),
        }
    }

    #[inline]
    pub(crate) fn pos_err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.enc.position())
    }

    #[cold]
    fn too_long(&self, v: impl Display) -> Error {
        self.pos_err(ErrorKind::Unencodable(format!("{v} does not fit a Hessian long")))
    }

    /// Writes `v` as a long, or fails with `shown` (the integer given) when it does not fit.
    #[inline]
    fn long(&mut self, v: Option<i64>, shown: impl Display) -> Result<()> {
        match v {
            Some(v) => self.enc.write_long(v),
            None => Err(self.too_long(shown)),
        }
    }

    /// Starts a map, untyped (as Java writes a `HashMap`) or typed.
    #[inline]
    pub(crate) fn begin_map(&mut self, type_name: Option<&str>) -> Result<()> {
        self.refs += 1;
        self.enc.write_map_begin(type_name)
    }

    /// Starts the one-entry map `{variant: …}` around an enum variant's content.
    fn begin_variant(&mut self, variant: &'static str) -> Result<()> {
        self.begin_map(None)?;
        self.enc.write_str(variant)
    }

    #[inline]
    fn begin_list(&mut self, len: Option<usize>) -> Result<E::List> {
        self.refs += 1;
        E::begin_list(self, len)
    }

    fn write_shared<T: ?Sized + Serialize>(&mut self, addr: usize, v: &T) -> Result<()> {
        let shared = self.shared.get_or_insert_with(HashMap::new);
        if let Some(&r) = shared.get(&addr) {
            return self.enc.write_ref(r);
        }
        let index = self.refs;
        shared.insert(addr, index);
        self.entry(v)?;
        if self.refs == index {
            // not a list, map or object: nothing to refer back to
            if let Some(shared) = &mut self.shared {
                shared.remove(&addr);
            }
        }
        Ok(())
    }
}

/// Number of references (lists, maps, objects) writing `v` opens in format `E`.
fn count_refs<E: SerdeEncoder>(v: &Value) -> u32 {
    match v {
        Value::List(l) => 1 + l.items.iter().map(count_refs::<E>).sum::<u32>(),
        Value::Map(m) => 1 + m.entries.iter().map(|(k, v)| count_refs::<E>(k) + count_refs::<E>(v)).sum::<u32>(),
        Value::Object(o) => 1 + o.fields.iter().map(count_refs::<E>).sum::<u32>(),
        Value::Remote(_) => u32::from(E::REMOTE_IS_REF),
        _ => 0,
    }
}

impl<'a, E: SerdeEncoder + 'a> ser::Serializer for &'a mut Serializer<E> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, E>;
    type SerializeTuple = Compound<'a, E>;
    type SerializeTupleStruct = Compound<'a, E>;
    type SerializeTupleVariant = Compound<'a, E>;
    type SerializeMap = Compound<'a, E>;
    type SerializeStruct = E::StructSer<'a>;
    type SerializeStructVariant = Compound<'a, E>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.enc.write_bool(v)
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.enc.write_int(v.into())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.enc.write_int(v.into())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.enc.write_int(v)
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.enc.write_long(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.long(i64::try_from(v).ok(), v)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.enc.write_int(v.into())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.enc.write_int(v.into())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.enc.write_long(v.into())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.long(i64::try_from(v).ok(), v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.long(i64::try_from(v).ok(), v)
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.enc.write_double(v.into())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.enc.write_double(v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut b = [0u8; 4];
        self.enc.write_str(v.encode_utf8(&mut b))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.enc.write_str(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.enc.write_bytes(v)
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.enc.write_null()
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.enc.write_null()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.enc.write_null()
    }
    /// A Java enum, as Java writes one: in Hessian 2 an object of the enum's class with the one
    /// field `name`, in Hessian 1 and Burlap a map typed with the enum's class whose one entry is
    /// `name` → the variant.
    fn serialize_unit_variant(self, name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        E::unit_variant(self, name, variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<()> {
        if std::ptr::eq(name, DATE_TOKEN) || name == DATE_TOKEN {
            return value.serialize(DateSerializer { ser: self });
        }
        if name == VALUE_TOKEN {
            if let Some(v) = value::take_current() {
                let v = v.get();
                E::sync(self);
                self.enc.write_value(v)?;
                self.refs += count_refs::<E>(v);
                return Ok(());
            }
        }
        if name == SHARED_TOKEN {
            if let Some(addr) = shared::take_addr() {
                return self.write_shared(addr, value);
            }
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.begin_variant(variant)?;
        self.entry(value)?;
        self.enc.write_map_end()
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, E>> {
        let list = self.begin_list(len)?;
        Ok(Compound { ser: self, kind: Kind::List(list), variant: false })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, E>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, E>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, E>> {
        self.begin_variant(variant)?;
        let list = self.begin_list(Some(len))?;
        Ok(Compound { ser: self, kind: Kind::List(list), variant: true })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, E>> {
        self.begin_map(None)?;
        Ok(Compound { ser: self, kind: Kind::Map, variant: false })
    }
    #[inline(always)]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<E::StructSer<'a>> {
        E::serialize_struct(self, name, len)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, E>> {
        self.begin_variant(variant)?;
        self.begin_map(None)?;
        Ok(Compound { ser: self, kind: Kind::Map, variant: true })
    }
}

/// What a [`Compound`] writes.
pub(crate) enum Kind<L> {
    /// A list (also a tuple's, and a tuple variant's content).
    List(L),
    /// A map (also a struct variant's fields, and in Hessian 1 and Burlap a struct's).
    Map,
}

/// Serializer of lists, tuples, maps and enum variants (and, in Hessian 1 and Burlap, structs).
pub struct Compound<'a, E: SerdeEncoder> {
    pub(crate) ser: &'a mut Serializer<E>,
    pub(crate) kind: Kind<E::List>,
    /// Whether the value sits in an enum variant's one-entry map (closed at the end too).
    pub(crate) variant: bool,
}

impl<E: SerdeEncoder> Compound<'_, E> {
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.entry(value)?;
        if let Kind::List(l) = &mut self.kind {
            E::element_done(self.ser, l);
        }
        Ok(())
    }

    /// A struct's (or struct variant's) field: its name, then its value.
    #[inline]
    pub(crate) fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.ser.enc.write_str(key)?;
        self.ser.entry(value)
    }

    #[inline]
    pub(crate) fn close(self) -> Result<()> {
        match self.kind {
            Kind::List(l) => E::end_list(self.ser, l)?,
            Kind::Map => self.ser.enc.write_map_end()?,
        }
        if self.variant {
            self.ser.enc.write_map_end()?;
        }
        Ok(())
    }
}

impl<E: SerdeEncoder> ser::SerializeSeq for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: SerdeEncoder> ser::SerializeTuple for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: SerdeEncoder> ser::SerializeTupleStruct for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: SerdeEncoder> ser::SerializeTupleVariant for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: SerdeEncoder> ser::SerializeMap for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.ser.entry(key)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.entry(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: SerdeEncoder> ser::SerializeStructVariant for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.field(key, value)
    }
    /// A skipped field of a struct variant is left out (the variant's fields are a plain map).
    fn skip_field(&mut self, _key: &'static str) -> Result<()> {
        Ok(())
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

/// Serializes the integer inside a [`Date`](super::Date) as a date. Like the dynamic path, it
/// takes any integer that fits an `i64` long (ints are too small to be dates there), through
/// `Option`s and newtypes, and a [`Value`] long.
struct DateSerializer<'a, E: SerdeEncoder> {
    ser: &'a mut Serializer<E>,
}

impl<E: SerdeEncoder> DateSerializer<'_, E> {
    fn not_date(&self, found: &str) -> Error {
        self.ser.pos_err(ErrorKind::Unencodable(format!("a date must hold an i64, not {found}")))
    }

    fn date(self, v: Option<i64>, shown: impl Display) -> Result<()> {
        match v {
            Some(ms) => self.ser.enc.write_date(ms),
            None => Err(self.ser.too_long(shown)),
        }
    }
}

macro_rules! not_date {
    ($($f:ident($($t:ty),*) => $found:expr),* $(,)?) => {
        $(fn $f(self, $(_: $t),*) -> Result<()> { Err(self.not_date($found)) })*
    };
}

impl<E: SerdeEncoder> ser::Serializer for DateSerializer<'_, E> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.ser.enc.write_date(v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.ser.enc.write_date(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.date(i64::try_from(v).ok(), v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.date(i64::try_from(v).ok(), v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.date(i64::try_from(v).ok(), v)
    }
    not_date!(
        serialize_bool(bool) => "bool",
        serialize_i8(i8) => "int",
        serialize_i16(i16) => "int",
        serialize_i32(i32) => "int",
        serialize_u8(u8) => "int",
        serialize_u16(u16) => "int",
        serialize_f32(f32) => "double",
        serialize_f64(f64) => "double",
        serialize_char(char) => "string",
        serialize_str(&str) => "string",
        serialize_bytes(&[u8]) => "binary",
        serialize_none() => "null",
        serialize_unit() => "null",
        serialize_unit_struct(&'static str) => "null",
        serialize_unit_variant(&'static str, u32, &'static str) => "object",
    );
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, v: &T) -> Result<()> {
        if name == DATE_TOKEN {
            return Err(self.not_date("date"));
        }
        if name == VALUE_TOKEN {
            if let Some(current) = value::take_current() {
                return match current.get() {
                    Value::Long(ms) => self.ser.enc.write_date(*ms),
                    other => Err(self.not_date(other.kind_name())),
                };
            }
        }
        if name == SHARED_TOKEN {
            let _ = shared::take_addr();
        }
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(self.not_date("map"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(self.not_date("list"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(self.not_date("list"))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct> {
        Err(self.not_date("list"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.not_date("map"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(self.not_date("map"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(self.not_date("object"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.not_date("map"))
    }
}
