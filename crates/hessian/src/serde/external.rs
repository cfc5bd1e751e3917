//! The hand-written codec path, the counterpart of Java's `Externalizable`: a type implements
//! [`Externalizable`] to decide exactly which values it writes (and reads back, in the same
//! order), and [`externalizable!`](crate::externalizable) turns that into `Serialize` and
//! `Deserialize` impls, so hand-written and derived types mix freely in one message (a derived
//! struct can hold a `Vec` of a hand-written type, and the other way round).
//!
//! On the wire a hand-written type is an ordinary Hessian object of class
//! [`CLASS`](Externalizable::CLASS) with the fields [`FIELDS`](Externalizable::FIELDS): the class
//! definition is written once per message like any other, and Java reads it with its default
//! deserializer (fields that are not written keep their default).
//!
//! ```
//! use hessian::serde::external::{Externalizable, FieldReader, FieldWriter};
//!
//! /// W3 Money, hand-written: only `cents` travels, `text` is rebuilt on decode.
//! #[derive(Debug, PartialEq)]
//! struct Money { cents: i32, text: String }
//!
//! impl Externalizable for Money {
//!     const CLASS: &'static str = "Money";
//!     const FIELDS: &'static [&'static str] = &["cents"];
//!     fn write_external<W: FieldWriter>(&self, out: &mut W) -> Result<(), W::Error> {
//!         out.write(&self.cents)
//!     }
//!     fn read_external<'de, R: FieldReader<'de>>(input: &mut R) -> Result<Self, R::Error> {
//!         let cents: i32 = input.read()?;
//!         Ok(Money { cents, text: format!("{cents} cents.") })
//!     }
//! }
//! hessian::externalizable!(Money);
//!
//! let m = Money { cents: 1000, text: "1000 cents.".into() };
//! let bytes = hessian::serde::to_vec(&m).unwrap();
//! assert_eq!(hessian::serde::from_slice::<Money>(&bytes).unwrap(), m);
//! ```

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::marker::PhantomData;

/// A type with a hand-written codec.
pub trait Externalizable: Sized {
    /// The remote (Java) class name written in the class definition.
    const CLASS: &'static str;
    /// The field names of the class definition, in the order
    /// [`write_external`](Self::write_external) writes their values.
    const FIELDS: &'static [&'static str];

    /// Writes exactly one value per entry of [`FIELDS`](Self::FIELDS), in order.
    fn write_external<W: FieldWriter>(&self, out: &mut W) -> Result<(), W::Error>;

    /// Reads the values back in wire order (the order of the sender's class definition); values
    /// left unread are skipped.
    fn read_external<'de, R: FieldReader<'de>>(input: &mut R) -> Result<Self, R::Error>;
}

/// Where [`Externalizable::write_external`] writes its values (sealed: this crate's serializers
/// provide it).
pub trait FieldWriter: private::Sealed {
    /// The serializer's error type.
    type Error: ser::Error;
    /// Writes the next field's value.
    fn write<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Self::Error>;
}

/// Where [`Externalizable::read_external`] reads its values from (sealed: this crate's
/// deserializers provide it).
pub trait FieldReader<'de>: private::Sealed {
    /// The deserializer's error type.
    type Error: de::Error;
    /// Reads the next field's value; a missing value is an error.
    fn read<T: Deserialize<'de>>(&mut self) -> Result<T, Self::Error>;
    /// Reads the next field's value, or `None` if the object has no more fields.
    fn read_opt<T: Deserialize<'de>>(&mut self) -> Result<Option<T>, Self::Error>;
}

mod private {
    /// Keeps [`super::FieldWriter`] and [`super::FieldReader`] implemented by this crate only.
    pub trait Sealed {}
    impl<S> Sealed for super::StructWriter<S> {}
    impl<A> Sealed for super::MapReader<A> {}
    impl<A> Sealed for super::SeqReader<A> {}
}

struct StructWriter<S> {
    st: S,
    fields: &'static [&'static str],
    next: usize,
}

impl<S: SerializeStruct> FieldWriter for StructWriter<S> {
    type Error = S::Error;
    #[inline]
    fn write<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), S::Error> {
        let Some(key) = self.fields.get(self.next) else {
            return Err(ser::Error::custom(format_args!(
                "write_external wrote more values than the {} fields declared",
                self.fields.len()
            )));
        };
        self.next += 1;
        self.st.serialize_field(key, value)
    }
}

/// Serializes a hand-written type (usable as `#[serde(serialize_with = ...)]`; the
/// [`externalizable!`](crate::externalizable) macro uses it for the `Serialize` impl).
pub fn serialize<T: Externalizable, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    let st = s.serialize_struct(T::CLASS, T::FIELDS.len())?;
    let mut w = StructWriter { st, fields: T::FIELDS, next: 0 };
    v.write_external(&mut w)?;
    if w.next != T::FIELDS.len() {
        return Err(ser::Error::custom(format_args!(
            "write_external of {} wrote {} values for {} fields",
            T::CLASS,
            w.next,
            T::FIELDS.len()
        )));
    }
    w.st.end()
}

/// Deserializes a hand-written type (usable as `#[serde(deserialize_with = ...)]`; the
/// [`externalizable!`](crate::externalizable) macro uses it for the `Deserialize` impl).
pub fn deserialize<'de, T: Externalizable, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_struct(T::CLASS, T::FIELDS, ExtVisitor(PhantomData))
}

struct ExtVisitor<T>(PhantomData<T>);

struct MapReader<A>(A);

impl<'de, A: MapAccess<'de>> FieldReader<'de> for MapReader<A> {
    type Error = A::Error;
    #[inline]
    fn read<T: Deserialize<'de>>(&mut self) -> Result<T, A::Error> {
        match self.read_opt()? {
            Some(v) => Ok(v),
            None => Err(de::Error::custom("read_external read past the last field")),
        }
    }
    #[inline]
    fn read_opt<T: Deserialize<'de>>(&mut self) -> Result<Option<T>, A::Error> {
        match self.0.next_key::<IgnoredAny>()? {
            Some(_) => self.0.next_value().map(Some),
            None => Ok(None),
        }
    }
}

struct SeqReader<A>(A);

impl<'de, A: SeqAccess<'de>> FieldReader<'de> for SeqReader<A> {
    type Error = A::Error;
    fn read<T: Deserialize<'de>>(&mut self) -> Result<T, A::Error> {
        match self.0.next_element()? {
            Some(v) => Ok(v),
            None => Err(de::Error::custom("read_external read past the last field")),
        }
    }
    fn read_opt<T: Deserialize<'de>>(&mut self) -> Result<Option<T>, A::Error> {
        self.0.next_element()
    }
}

impl<'de, T: Externalizable> Visitor<'de> for ExtVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object of class {}", T::CLASS)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        let mut r = MapReader(map);
        let v = T::read_external(&mut r)?;
        while r.0.next_key::<IgnoredAny>()?.is_some() {
            r.0.next_value::<IgnoredAny>()?;
        }
        Ok(v)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        let mut r = SeqReader(seq);
        let v = T::read_external(&mut r)?;
        while r.0.next_element::<IgnoredAny>()?.is_some() {}
        Ok(v)
    }
}

/// A seed that decodes a hand-written type (for use inside hand-written visitors).
pub struct ExternalSeed<T>(PhantomData<T>);

impl<T> Default for ExternalSeed<T> {
    fn default() -> Self {
        ExternalSeed(PhantomData)
    }
}

impl<'de, T: Externalizable> DeserializeSeed<'de> for ExternalSeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        deserialize(d)
    }
}

/// Implements `Serialize` and `Deserialize` for types implementing
/// [`Externalizable`](crate::serde::external::Externalizable).
#[macro_export]
macro_rules! externalizable {
    ($($t:ty),+ $(,)?) => {$(
        impl $crate::__serde::Serialize for $t {
            #[inline]
            fn serialize<S: $crate::__serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::serde::external::serialize(self, s)
            }
        }
        impl<'de> $crate::__serde::Deserialize<'de> for $t {
            #[inline]
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                $crate::serde::external::deserialize(d)
            }
        }
    )+};
}
