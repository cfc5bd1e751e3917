//! Serde through the dynamic [`Value`] model: [`to_value`] and [`from_value`]. (Hessian 1.0.2 and
//! Burlap have native serializers and deserializers, [`serde::h1`](super::h1) and
//! [`serde::burlap`](super::burlap); this path is their test oracle.)
//!
//! The mapping is the one of the Hessian 2.0 serializer (see `docs/serde-mapping.md`): a struct is
//! a [`Value::Object`] of the struct's (renamed) class — which the Burlap (and Hessian 1) encoders
//! write as Java does, a typed map `M t <class> (S field value)* z` — a unit enum variant is a Java
//! enum object, other variants are one-entry maps, [`Date`](super::Date) is a date. On decode,
//! structs accept objects and maps (Hessian 1 and Burlap objects are typed maps) with fields by
//! name in any order. Errors found while mapping a decoded value onto a Rust type carry offset
//! 0 (the offset of the message), as the value has already been decoded.

use super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind, Result};
use crate::value::{ClassDef, List, Map, Object, Value};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// Converts a `Serialize` value into a [`Value`] (struct class definitions are shared between
/// instances).
pub fn to_value<T: ?Sized + Serialize>(v: &T) -> Result<Value> {
    let mut classes = HashMap::new();
    v.serialize(ValueSer { classes: &mut classes }).map_err(|e| e.at_offset(0))
}

/// Builds a `T` from a [`Value`].
pub fn from_value<'de, T: de::Deserialize<'de>>(v: Value) -> Result<T> {
    T::deserialize(ValueDe(v)).map_err(|e| e.at_offset(0))
}

type Classes = HashMap<(&'static str, Vec<&'static str>), Arc<ClassDef>>;

struct ValueSer<'c> {
    classes: &'c mut Classes,
}

fn unencodable(msg: String) -> Error {
    Error::new(ErrorKind::Unencodable(msg), Error::UNKNOWN_OFFSET)
}

impl<'c> ValueSer<'c> {
    fn child(&mut self) -> ValueSer<'_> {
        ValueSer { classes: self.classes }
    }

    fn class(&mut self, name: &'static str, fields: Vec<&'static str>) -> Arc<ClassDef> {
        self.classes.entry((name, fields)).or_insert_with_key(|(n, f)| ClassDef::new(*n, f.iter().copied())).clone()
    }
}

fn one_entry(variant: &str, v: Value) -> Value {
    Value::map(vec![(Value::string(variant), v)])
}

impl<'c> ser::Serializer for ValueSer<'c> {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqSer<'c>;
    type SerializeTuple = SeqSer<'c>;
    type SerializeTupleStruct = SeqSer<'c>;
    type SerializeTupleVariant = SeqSer<'c>;
    type SerializeMap = MapSer<'c>;
    type SerializeStruct = StructSer<'c>;
    type SerializeStructVariant = StructSer<'c>;

    fn serialize_bool(self, v: bool) -> Result<Value> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Value> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Value> {
        Ok(Value::Int(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value> {
        Ok(Value::Long(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value> {
        i64::try_from(v).map(Value::Long).map_err(|_| unencodable(format!("{v} does not fit a Hessian long")))
    }
    fn serialize_u8(self, v: u8) -> Result<Value> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Value> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Value> {
        Ok(Value::Long(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Value> {
        i64::try_from(v).map(Value::Long).map_err(|_| unencodable(format!("{v} does not fit a Hessian long")))
    }
    fn serialize_u128(self, v: u128) -> Result<Value> {
        i64::try_from(v).map(Value::Long).map_err(|_| unencodable(format!("{v} does not fit a Hessian long")))
    }
    fn serialize_f32(self, v: f32) -> Result<Value> {
        Ok(Value::Double(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<Value> {
        Ok(Value::Double(v))
    }
    fn serialize_char(self, v: char) -> Result<Value> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        Ok(Value::Binary(v.to_vec()))
    }
    fn serialize_none(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<Value> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(mut self, name: &'static str, _i: u32, variant: &'static str) -> Result<Value> {
        let class = self.class(name, vec!["name"]);
        Ok(Value::object(class, vec![Value::string(variant)]))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, v: &T) -> Result<Value> {
        if name == DATE_TOKEN {
            return match v.serialize(self)? {
                Value::Long(ms) => Ok(Value::Date(ms)),
                other => Err(unencodable(format!("a date must hold an i64, not {}", other.kind_name()))),
            };
        }
        if name == VALUE_TOKEN {
            if let Some(current) = value::take_current() {
                return Ok(current.get().clone());
            }
        }
        if name == SHARED_TOKEN {
            // Values are trees here: shared values are copied.
            let _ = shared::take_addr();
        }
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Value> {
        Ok(one_entry(variant, v.serialize(self)?))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer<'c>> {
        Ok(SeqSer { ser: self, items: Vec::with_capacity(len.unwrap_or(0).min(4096)), variant: None })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer<'c>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqSer<'c>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqSer<'c>> {
        Ok(SeqSer { ser: self, items: Vec::with_capacity(len.min(4096)), variant: Some(variant) })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSer<'c>> {
        Ok(MapSer { ser: self, entries: Vec::new(), key: None })
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<StructSer<'c>> {
        Ok(StructSer {
            ser: self,
            name,
            fields: Vec::with_capacity(len),
            values: Vec::with_capacity(len),
            variant: None,
        })
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<StructSer<'c>> {
        Ok(StructSer {
            ser: self,
            name,
            fields: Vec::with_capacity(len),
            values: Vec::with_capacity(len),
            variant: Some(variant),
        })
    }
}

/// Collects list elements.
pub struct SeqSer<'c> {
    ser: ValueSer<'c>,
    items: Vec<Value>,
    variant: Option<&'static str>,
}

impl SeqSer<'_> {
    fn push<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        let v = v.serialize(self.ser.child())?;
        self.items.push(v);
        Ok(())
    }
    fn done(self) -> Result<Value> {
        let list = Value::List(Box::new(List { type_name: None, fixed_length: true, items: self.items }));
        Ok(match self.variant {
            Some(variant) => one_entry(variant, list),
            None => list,
        })
    }
}

impl ser::SerializeSeq for SeqSer<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        self.push(v)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

impl ser::SerializeTuple for SeqSer<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        self.push(v)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

impl ser::SerializeTupleStruct for SeqSer<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        self.push(v)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

impl ser::SerializeTupleVariant for SeqSer<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        self.push(v)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

/// Collects map entries.
pub struct MapSer<'c> {
    ser: ValueSer<'c>,
    entries: Vec<(Value, Value)>,
    key: Option<Value>,
}

impl ser::SerializeMap for MapSer<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, k: &T) -> Result<()> {
        self.key = Some(k.serialize(self.ser.child())?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        let k = self.key.take().unwrap_or(Value::Null);
        let v = v.serialize(self.ser.child())?;
        self.entries.push((k, v));
        Ok(())
    }
    fn end(self) -> Result<Value> {
        Ok(Value::Map(Box::new(Map { type_name: None, entries: self.entries })))
    }
}

/// Collects struct fields.
pub struct StructSer<'c> {
    ser: ValueSer<'c>,
    name: &'static str,
    fields: Vec<&'static str>,
    values: Vec<Value>,
    variant: Option<&'static str>,
}

impl StructSer<'_> {
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> Result<()> {
        let v = v.serialize(self.ser.child())?;
        self.fields.push(key);
        self.values.push(v);
        Ok(())
    }
    fn done(mut self) -> Result<Value> {
        if let Some(variant) = self.variant {
            let entries = self.fields.iter().map(|f| Value::string(*f)).zip(self.values).collect();
            return Ok(one_entry(variant, Value::map(entries)));
        }
        let class = self.ser.class(self.name, self.fields);
        Ok(Value::Object(Box::new(Object { class, fields: self.values })))
    }
}

impl ser::SerializeStruct for StructSer<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> Result<()> {
        self.field(key, v)
    }
    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        self.field(key, &())
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

impl ser::SerializeStructVariant for StructSer<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> Result<()> {
        self.field(key, v)
    }
    fn end(self) -> Result<Value> {
        self.done()
    }
}

/// A [`Value`] as a serde deserializer (also used by the Hessian 1 and Burlap deserializers for
/// the enums they map from decoded typed maps, and by the Burlap one for leaf values).
pub(crate) struct ValueDe(pub(crate) Value);

fn invalid(v: &Value, expected: &str) -> Error {
    Error::new(
        ErrorKind::InvalidType { expected: expected.to_owned(), found: v.kind_name().to_owned() },
        Error::UNKNOWN_OFFSET,
    )
}

fn integer(v: &Value, expected: &str) -> Result<i64> {
    v.as_i64().ok_or_else(|| invalid(v, expected))
}

macro_rules! value_int {
    ($method:ident, $visit:ident, $t:ty) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let v = integer(&self.0, stringify!($t))?;
            match <$t>::try_from(v) {
                Ok(x) => visitor.$visit(x),
                Err(_) => {
                    Err(Error::new(ErrorKind::OutOfRange { value: v, target: stringify!($t) }, Error::UNKNOWN_OFFSET))
                }
            }
        }
    };
}

/// Fields of an object or entries of a map.
struct Entries<I> {
    iter: I,
    value: Option<Value>,
    /// The key of `value` when it is a string (a field name, for the error path).
    key: Option<String>,
}

impl<'de, I: Iterator<Item = (Value, Value)>> de::MapAccess<'de> for Entries<I> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                self.key = match &k {
                    Value::String(s) => Some(s.clone()),
                    _ => None,
                };
                seed.deserialize(ValueDe(k)).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let key = self.key.take();
        seed.deserialize(ValueDe(self.value.take().unwrap_or(Value::Null))).map_err(|e| match key {
            Some(k) => e.in_field(&k),
            None => e,
        })
    }
}

struct Items<I>(I, usize);

impl<'de, I: Iterator<Item = Value>> de::SeqAccess<'de> for Items<I> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        match self.0.next() {
            Some(v) => {
                self.1 += 1;
                seed.deserialize(ValueDe(v)).map(Some).map_err(|e| e.in_element(self.1 - 1))
            }
            None => Ok(None),
        }
    }
}

fn visit_object<'de, V: Visitor<'de>>(o: Object, visitor: V) -> Result<V::Value> {
    let names = o.class.fields.iter().map(|f| Value::String(f.clone())).collect::<Vec<_>>();
    visitor.visit_map(Entries { iter: names.into_iter().zip(o.fields), value: None, key: None })
}

fn visit_map<'de, V: Visitor<'de>>(m: Map, visitor: V) -> Result<V::Value> {
    visitor.visit_map(Entries { iter: m.entries.into_iter(), value: None, key: None })
}

impl<'de> de::Deserializer<'de> for ValueDe {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Int(i) => visitor.visit_i32(i),
            Value::Long(l) | Value::Date(l) => visitor.visit_i64(l),
            Value::Double(d) => visitor.visit_f64(d),
            Value::String(s) => visitor.visit_string(s),
            Value::Binary(b) => visitor.visit_byte_buf(b),
            Value::List(l) => visitor.visit_seq(Items(l.items.into_iter(), 0)),
            Value::Map(m) => visit_map(*m, visitor),
            Value::Object(o) => visit_object(*o, visitor),
            Value::Remote(r) => {
                let m = Map {
                    type_name: None,
                    entries: vec![("type".into(), Value::String(r.type_name)), ("url".into(), Value::String(r.url))],
                };
                visit_map(m, visitor)
            }
            ref v @ Value::Ref(_) => Err(invalid(v, "a value (references decode only into Value)")),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Bool(b) => visitor.visit_bool(b),
            ref v => Err(invalid(v, "a boolean")),
        }
    }

    value_int!(deserialize_i8, visit_i8, i8);
    value_int!(deserialize_i16, visit_i16, i16);
    value_int!(deserialize_i32, visit_i32, i32);
    value_int!(deserialize_u8, visit_u8, u8);
    value_int!(deserialize_u16, visit_u16, u16);
    value_int!(deserialize_u32, visit_u32, u32);
    value_int!(deserialize_u64, visit_u64, u64);
    value_int!(deserialize_u128, visit_u128, u128);

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i64(integer(&self.0, "i64")?)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i128(integer(&self.0, "i128")?.into())
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Double(d) => visitor.visit_f32(d as f32),
            Value::Int(i) => visitor.visit_f32(i as f32),
            Value::Long(l) => visitor.visit_f32(l as f32),
            ref v => Err(invalid(v, "a number")),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Double(d) => visitor.visit_f64(d),
            Value::Int(i) => visitor.visit_f64(i.into()),
            Value::Long(l) => visitor.visit_f64(l as f64),
            ref v => Err(invalid(v, "a number")),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            v => visitor.visit_some(ValueDe(v)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            ref v => Err(invalid(v, "null")),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if name == DATE_TOKEN {
            return match self.0 {
                Value::Date(ms) | Value::Long(ms) => visitor.visit_i64(ms),
                Value::Int(i) => visitor.visit_i64(i.into()),
                ref v => Err(invalid(v, "a date")),
            };
        }
        if name == VALUE_TOKEN {
            return value::with_pending(self.0, || visitor.visit_unit());
        }
        if name == SHARED_TOKEN {
            shared::clear_registered();
            let r = visitor.visit_newtype_struct(self);
            shared::clear_registered();
            return r;
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::List(l) => visitor.visit_seq(Items(l.items.into_iter(), 0)),
            Value::Binary(b) => visitor.visit_seq(Items(b.into_iter().map(|x| Value::Int(x.into())), 0)),
            ref v => Err(invalid(v, "a list")),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _n: &'static str, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Map(m) => visit_map(*m, visitor),
            Value::Object(o) => visit_object(*o, visitor),
            ref v => Err(invalid(v, "a map")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let r = match self.0 {
            Value::Map(m) => visit_map(*m, visitor),
            Value::Object(o) => visit_object(*o, visitor),
            Value::List(l) => visitor.visit_seq(Items(l.items.into_iter(), 0)),
            ref v => Err(invalid(v, "an object")),
        };
        r.map_err(|mut e| {
            e.in_struct(name);
            e
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.0 {
            Value::String(s) => visitor.visit_enum(s.into_deserializer()),
            Value::Object(o) => {
                let name = o.get("name").and_then(Value::as_str).map(str::to_owned);
                match name {
                    Some(n) => visitor.visit_enum(n.into_deserializer()),
                    None => Err(Error::new(ErrorKind::MissingField("name"), Error::UNKNOWN_OFFSET)),
                }
            }
            Value::Map(m) => {
                // Java enums in Hessian 1 and Burlap are typed maps {name: VARIANT}
                if m.type_name.is_some() {
                    if let Some((_, Value::String(n))) = m.entries.iter().find(|(k, _)| k.as_str() == Some("name")) {
                        return visitor.visit_enum(n.clone().into_deserializer());
                    }
                }
                let mut entries = m.entries.into_iter();
                match (entries.next(), entries.next()) {
                    (Some((Value::String(variant), content)), None) => visitor.visit_enum(EnumDe { variant, content }),
                    _ => Err(Error::new(
                        ErrorKind::InvalidType { expected: "a one-entry enum map".into(), found: "map".into() },
                        Error::UNKNOWN_OFFSET,
                    )),
                }
            }
            ref v => Err(invalid(v, "an enum")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! { char str string bytes byte_buf }
}

struct EnumDe {
    variant: String,
    content: Value,
}

impl<'de> de::EnumAccess<'de> for EnumDe {
    type Error = Error;
    type Variant = ValueDe;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, ValueDe)> {
        let v = seed.deserialize(self.variant.into_deserializer())?;
        Ok((v, ValueDe(self.content)))
    }
}

impl<'de> de::VariantAccess<'de> for ValueDe {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}

/// Serde for Hessian 1.0.2 through [`Value`]: the dynamic path that the native
/// [`serde::h1`](super::h1) replaced, kept as the oracle its tests compare against.
#[cfg(test)]
pub(crate) mod h1_via_value {
    use super::{from_value, to_value};
    use crate::error::Result;
    use serde::{de::DeserializeOwned, Serialize};

    /// `h1::to_vec(&to_value(v)?)`.
    pub(crate) fn to_vec<T: ?Sized + Serialize>(v: &T) -> Result<Vec<u8>> {
        crate::h1::to_vec(&to_value(v)?)
    }

    /// `from_value(h1::from_slice(data)?)`.
    pub(crate) fn from_slice<T: DeserializeOwned>(data: &[u8]) -> Result<T> {
        from_value(crate::h1::from_slice(data)?)
    }
}

/// Serde for Burlap 1.0 through [`Value`]: the dynamic path that the native
/// [`serde::burlap`](super::burlap) replaced, kept as the oracle its tests compare against.
#[cfg(test)]
pub(crate) mod burlap_via_value {
    use super::{from_value, to_value};
    use crate::error::Result;
    use serde::{de::DeserializeOwned, Serialize};

    /// `burlap::to_vec(&to_value(v)?)`.
    pub(crate) fn to_vec<T: ?Sized + Serialize>(v: &T) -> Result<Vec<u8>> {
        crate::burlap::to_vec(&to_value(v)?)
    }

    /// `from_value(burlap::from_slice(data)?)`.
    pub(crate) fn from_slice<T: DeserializeOwned>(data: &[u8]) -> Result<T> {
        from_value(crate::burlap::from_slice(data)?)
    }
}
