//! The serde serializer shared by Hessian 1.0.2 and Burlap 1.0, the two formats that write an
//! object as Java does there, a map typed with its class name and keyed by field name, and have
//! no class definitions. It writes straight through the format's encoder (a [`MapEncoder`]), so
//! its output is byte-identical to the dynamic path (`h1::to_vec(&to_value(v)?)`,
//! `burlap::to_vec(&to_value(v)?)`) and to Java's `HessianOutput` and `BurlapOutput` for the
//! matching Java values.
//!
//! There is no look-ahead: every list carries its length up front, as Java writes collections; a
//! sequence of unknown length gets its length filled in at its end (the output is held in the
//! buffer meanwhile). Lists and maps are numbered in the order they start, which is what the
//! formats' references (`R n`, `<ref>n</ref>`) count.

use super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind, Result};
use crate::token::TokenWrite;
use crate::value::Value;
use serde::ser::{self, Serialize};
use std::collections::HashMap;

/// What [`MapSerializer`] needs beyond an encoder's tokens ([`TokenWrite`]): lists whose length
/// is filled in at their end. Implemented by `h1::Encoder` and `burlap::Encoder` only.
pub trait MapEncoder: TokenWrite + sealed::Sealed {
    /// Where a list's length sits in the output, to fill it in later.
    type ListMark;
    /// Starts an untyped list of `len` elements, or of a length filled in by
    /// [`end_counted_list`](Self::end_counted_list).
    #[doc(hidden)]
    fn begin_list(&mut self, len: Option<usize>) -> Result<Self::ListMark>;
    /// Fills in the length of a list begun without one, and ends it.
    #[doc(hidden)]
    fn end_counted_list(&mut self, mark: Self::ListMark, len: usize) -> Result<()>;
    /// Rewrites the declared length of a list (still in the buffer).
    #[doc(hidden)]
    fn patch_list_len(&mut self, mark: &Self::ListMark, len: usize) -> Result<()>;
}

pub(crate) mod sealed {
    /// Keeps [`MapEncoder`](super::MapEncoder) to this crate's encoders.
    pub trait Sealed {}
}

/// Serializes Rust values as Hessian 1.0.2 or Burlap 1.0 through the format's encoder
/// (`hessian::serde::h1::Serializer`, `hessian::serde::burlap::Serializer`).
///
/// One serializer writes one message (references are numbered per message); call
/// [`finish`](Self::finish) to flush.
pub struct MapSerializer<E: MapEncoder> {
    enc: E,
    /// Lists and maps (objects included) written so far: the reference numbering of the message.
    refs: u32,
    /// Addresses of [`Shared`](crate::serde::Shared) values already written, with their
    /// reference index.
    shared: HashMap<usize, u32>,
}

impl<E: MapEncoder> MapSerializer<E> {
    /// A serializer on top of an existing encoder (e.g. inside an RPC envelope that the caller
    /// writes with the same encoder).
    pub fn from_encoder(enc: E) -> Self {
        MapSerializer { enc, refs: 0, shared: HashMap::new() }
    }

    /// The underlying encoder (to write envelope codes around values).
    pub fn encoder(&mut self) -> &mut E {
        &mut self.enc
    }

    /// Returns the encoder, e.g. to write more values with the low-level API.
    pub fn into_encoder(self) -> E {
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

    /// Starts a new message: forgets the references written so far.
    pub fn reset(&mut self) {
        self.refs = 0;
        self.shared.clear();
    }

    /// Serializes one value into the message (more can follow, e.g. call arguments).
    pub fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self).map_err(|e| e.at_offset(self.enc.position()))
    }

    fn unencodable(&self, what: String) -> Error {
        Error::new(ErrorKind::Unencodable(what), self.enc.position())
    }

    fn long(&mut self, v: Option<i64>, shown: impl std::fmt::Display) -> Result<()> {
        match v {
            Some(v) => self.enc.write_long(v),
            None => Err(self.unencodable(format!("{shown} does not fit a Hessian long"))),
        }
    }

    /// Starts a map, untyped (as Java writes a `HashMap`) or typed.
    fn begin_map(&mut self, type_name: Option<&str>) -> Result<()> {
        self.refs += 1;
        self.enc.write_map_begin(type_name)
    }

    /// Starts the one-entry map `{variant: …}` around an enum variant's content.
    fn begin_variant(&mut self, variant: &str) -> Result<()> {
        self.begin_map(None)?;
        self.enc.write_str(variant)
    }

    /// Starts a list of `len` elements, or of a length written at its end.
    fn begin_list(&mut self, len: Option<usize>) -> Result<ListState<E::ListMark>> {
        self.refs += 1;
        let mark = self.enc.begin_list(len)?;
        Ok(ListState { declared: len, count: 0, mark })
    }

    fn end_list(&mut self, l: ListState<E::ListMark>) -> Result<()> {
        match l.declared {
            None => self.enc.end_counted_list(l.mark, l.count),
            Some(n) => {
                if n != l.count {
                    // A `Serialize` impl that wrote another number of elements than it declared:
                    // the dynamic path writes the elements there are.
                    self.enc.patch_list_len(&l.mark, l.count)?;
                }
                self.enc.write_list_end()
            }
        }
    }

    fn write_shared<T: ?Sized + Serialize>(&mut self, addr: usize, v: &T) -> Result<()> {
        if let Some(&r) = self.shared.get(&addr) {
            return self.enc.write_ref(r);
        }
        let index = self.refs;
        self.shared.insert(addr, index);
        v.serialize(&mut *self)?;
        if self.refs == index {
            // not a list or map: nothing to refer back to
            self.shared.remove(&addr);
        }
        Ok(())
    }
}

/// Number of references (lists and maps; objects are typed maps) writing `v` opens.
fn count_refs(v: &Value) -> u32 {
    match v {
        Value::List(l) => 1 + l.items.iter().map(count_refs).sum::<u32>(),
        Value::Map(m) => 1 + m.entries.iter().map(|(k, v)| count_refs(k) + count_refs(v)).sum::<u32>(),
        Value::Object(o) => 1 + o.fields.iter().map(count_refs).sum::<u32>(),
        _ => 0,
    }
}

impl<'a, E: MapEncoder> ser::Serializer for &'a mut MapSerializer<E> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, E>;
    type SerializeTuple = Compound<'a, E>;
    type SerializeTupleStruct = Compound<'a, E>;
    type SerializeTupleVariant = Compound<'a, E>;
    type SerializeMap = Compound<'a, E>;
    type SerializeStruct = Compound<'a, E>;
    type SerializeStructVariant = Compound<'a, E>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.enc.write_bool(v)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.enc.write_int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.enc.write_int(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.enc.write_int(v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.enc.write_long(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.long(i64::try_from(v).ok(), v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.enc.write_int(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.enc.write_int(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.enc.write_long(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.long(i64::try_from(v).ok(), v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.long(i64::try_from(v).ok(), v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.enc.write_double(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.enc.write_double(v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut b = [0u8; 4];
        self.enc.write_str(v.encode_utf8(&mut b))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.enc.write_str(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.enc.write_bytes(v)
    }
    fn serialize_none(self) -> Result<()> {
        self.enc.write_null()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.enc.write_null()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.enc.write_null()
    }
    /// A Java enum, as `HessianOutput` and `BurlapOutput` write one: a map typed with the enum's
    /// class whose one entry is `name` → the variant.
    fn serialize_unit_variant(self, name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.begin_map(Some(name))?;
        self.enc.write_str("name")?;
        self.enc.write_str(variant)?;
        self.enc.write_map_end()
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<()> {
        if std::ptr::eq(name, DATE_TOKEN) || name == DATE_TOKEN {
            return value.serialize(DateSerializer { ser: self });
        }
        if name == VALUE_TOKEN {
            if let Some(v) = value::take_current() {
                let v = v.get();
                self.enc.write_value(v)?;
                self.refs += count_refs(v);
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
        value.serialize(&mut *self)?;
        self.enc.write_map_end()
    }
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
    /// An object, as `HessianOutput` and `BurlapOutput` write one: a map typed with the class name
    /// and keyed by
    /// field name.
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Compound<'a, E>> {
        self.begin_map(Some(name))?;
        Ok(Compound { ser: self, kind: Kind::Struct, variant: false })
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
        Ok(Compound { ser: self, kind: Kind::Struct, variant: true })
    }
}

/// A list being written: the length it declared (`None`: written at the end), the elements
/// written so far, and where its length sits in the output.
struct ListState<M> {
    declared: Option<usize>,
    count: usize,
    mark: M,
}

enum Kind<M> {
    List(ListState<M>),
    Map,
    Struct,
}

/// Serializer of lists, tuples, maps, structs and enum variants.
pub struct Compound<'a, E: MapEncoder> {
    ser: &'a mut MapSerializer<E>,
    kind: Kind<E::ListMark>,
    /// Whether the value sits in an enum variant's one-entry map (closed at the end too).
    variant: bool,
}

impl<E: MapEncoder> Compound<'_, E> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if let Kind::List(l) = &mut self.kind {
            l.count += 1;
        }
        value.serialize(&mut *self.ser)
    }

    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.ser.enc.write_str(key)?;
        value.serialize(&mut *self.ser)
    }

    fn close(self) -> Result<()> {
        match self.kind {
            Kind::List(l) => self.ser.end_list(l)?,
            Kind::Map | Kind::Struct => self.ser.enc.write_map_end()?,
        }
        if self.variant {
            self.ser.enc.write_map_end()?;
        }
        Ok(())
    }
}

impl<E: MapEncoder> ser::SerializeSeq for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: MapEncoder> ser::SerializeTuple for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: MapEncoder> ser::SerializeTupleStruct for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: MapEncoder> ser::SerializeTupleVariant for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: MapEncoder> ser::SerializeMap for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        key.serialize(&mut *self.ser)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: MapEncoder> ser::SerializeStruct for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.field(key, value)
    }
    /// A field skipped by `skip_serializing_if` is written as null, as in Hessian 2 (Java
    /// leaves the field at its default).
    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        self.field(key, &())
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<E: MapEncoder> ser::SerializeStructVariant for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

/// Serializes the integer inside a [`Date`](crate::serde::Date) as a date (`d`, `<date>`). Like
/// the dynamic path, it takes any integer that fits an `i64` long (ints are too small to be
/// dates there), through `Option`s and newtypes.
struct DateSerializer<'a, E: MapEncoder> {
    ser: &'a mut MapSerializer<E>,
}

impl<E: MapEncoder> DateSerializer<'_, E> {
    fn not_date(&self, found: &str) -> Error {
        self.ser.unencodable(format!("a date must hold an i64, not {found}"))
    }

    fn date(self, v: Option<i64>, shown: impl std::fmt::Display) -> Result<()> {
        match v {
            Some(ms) => self.ser.enc.write_date(ms),
            None => Err(self.ser.unencodable(format!("{shown} does not fit a Hessian long"))),
        }
    }
}

macro_rules! not_date {
    ($($f:ident($($t:ty),*) => $found:expr),* $(,)?) => {
        $(fn $f(self, $(_: $t),*) -> Result<()> { Err(self.not_date($found)) })*
    };
}

impl<E: MapEncoder> ser::Serializer for DateSerializer<'_, E> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

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
