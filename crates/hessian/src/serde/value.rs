//! `Serialize`/`Deserialize` for [`Value`]: lossless through this crate's serializers (class
//! names, typed lists, references and dates are kept), and a plain structural mapping in any
//! other serde format.
//!
//! serde gives a serializer no way to recognise a foreign type, so `Value::serialize` publishes
//! its own address in a thread-local for the duration of one `serialize_newtype_struct` call
//! with a private name; this crate's serializer picks it up and writes the value with the
//! encoder. Decoding goes the other way: the deserializer reads the [`Value`] with the decoder
//! and hands it over through a thread-local slot.

use super::{Date, VALUE_TOKEN};
use crate::value::{List, Map, Value};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::cell::{Cell, RefCell};
use std::fmt;

thread_local! {
    static CURRENT: Cell<*const Value> = const { Cell::new(std::ptr::null()) };
    static PENDING: RefCell<Option<Value>> = const { RefCell::new(None) };
}

/// The value being serialized by an enclosing `Value::serialize` call.
pub(crate) struct Current(*const Value);

impl Current {
    pub(crate) fn get(&self) -> &Value {
        // SAFETY: the pointer was published by `Value::serialize` from its `&self` and is
        // withdrawn (by a drop guard, panics included) before that call returns; `take_current`
        // is only called while that call is on the stack, so the referent is alive and borrowed.
        unsafe { &*self.0 }
    }
}

/// Takes the value published by the enclosing `Value::serialize`, if any.
pub(crate) fn take_current() -> Option<Current> {
    let p = CURRENT.with(|c| c.replace(std::ptr::null()));
    (!p.is_null()).then_some(Current(p))
}

/// Hands a decoded value to the `Value::deserialize` call that asked for it.
pub(crate) fn with_pending<T>(v: Value, f: impl FnOnce() -> T) -> T {
    PENDING.with(|p| *p.borrow_mut() = Some(v));
    let r = f();
    PENDING.with(|p| p.borrow_mut().take());
    r
}

struct Restore(*const Value);

impl Drop for Restore {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.0));
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let _restore = Restore(CURRENT.with(|c| c.replace(self as *const Value)));
        s.serialize_newtype_struct(VALUE_TOKEN, &Generic(self))
    }
}

/// The structural mapping used by other serde formats.
struct Generic<'a>(&'a Value);

impl Serialize for Generic<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i32(*i),
            Value::Long(l) => s.serialize_i64(*l),
            Value::Double(d) => s.serialize_f64(*d),
            Value::Date(d) => Date(*d).serialize(s),
            Value::String(x) => s.serialize_str(x),
            Value::Binary(b) => s.serialize_bytes(b),
            Value::List(l) => {
                let mut seq = s.serialize_seq(Some(l.items.len()))?;
                for v in &l.items {
                    seq.serialize_element(&Generic(v))?;
                }
                seq.end()
            }
            Value::Map(m) => {
                let mut map = s.serialize_map(Some(m.entries.len()))?;
                for (k, v) in &m.entries {
                    map.serialize_entry(&Generic(k), &Generic(v))?;
                }
                map.end()
            }
            Value::Object(o) => {
                let mut map = s.serialize_map(Some(o.fields.len()))?;
                for (k, v) in o.class.fields.iter().zip(&o.fields) {
                    map.serialize_entry(k, &Generic(v))?;
                }
                map.end()
            }
            Value::Ref(r) => s.serialize_u32(*r),
            Value::Remote(r) => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry("type", &r.type_name)?;
                map.serialize_entry("url", &r.url)?;
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_newtype_struct(VALUE_TOKEN, TokenVisitor)
    }
}

struct TokenVisitor;

impl<'de> Visitor<'de> for TokenVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(PENDING.with(|p| p.borrow_mut().take()).unwrap_or(Value::Null))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(AnyVisitor)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        AnyVisitor.visit_bool(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        AnyVisitor.visit_i64(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        AnyVisitor.visit_u64(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        AnyVisitor.visit_f64(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        AnyVisitor.visit_str(v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
        AnyVisitor.visit_bytes(v)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<Value, A::Error> {
        AnyVisitor.visit_seq(a)
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Value, A::Error> {
        AnyVisitor.visit_map(a)
    }
}

struct AnyVisitor;

impl<'de> Visitor<'de> for AnyVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i32<E: de::Error>(self, v: i32) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(i32::try_from(v).map(Value::Int).unwrap_or(Value::Long(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Ok(Value::Double(v as f64)),
        }
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Double(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Binary(v.to_vec()))
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Value, E> {
        Ok(Value::Binary(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = a.next_element_seed(AnySeed)? {
            items.push(v);
        }
        Ok(Value::List(Box::new(List { type_name: None, fixed_length: true, items })))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut entries = Vec::new();
        while let Some((k, v)) = a.next_entry_seed(AnySeed, AnySeed)? {
            entries.push((k, v));
        }
        Ok(Value::Map(Box::new(Map { type_name: None, entries })))
    }
}

struct AnySeed;

impl<'de> de::DeserializeSeed<'de> for AnySeed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(AnyVisitor)
    }
}
