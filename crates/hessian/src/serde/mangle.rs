//! The Java type a Rust type stands for, named as Caucho's `AbstractSkeleton.mangleClass` names
//! method parameters (`add_int_string`), found from the type's own `Deserialize` impl: a probe
//! deserializer records what the impl asks for first (`deserialize_i32` is an `int`,
//! `deserialize_struct("org.example.Order", …)` an `Order`) and stops there, so that no value
//! and no input are needed.

use super::{DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use serde::de::{self, Deserialize, Visitor};
use std::fmt;

/// `AbstractSkeleton.mangleClass(cl, false)`: the mangled name of a Java type (`int` for
/// `int`/`Integer`/`short`/`byte`, `double` for `float`/`double`, `string`, `date`, `binary` for
/// `byte[]`, `[T` for arrays, the simple class name otherwise).
pub fn mangle_java_class(java_name: &str) -> String {
    match java_name {
        "boolean" | "java.lang.Boolean" => "boolean".into(),
        "int" | "java.lang.Integer" | "short" | "java.lang.Short" | "byte" | "java.lang.Byte" => "int".into(),
        "long" | "java.lang.Long" => "long".into(),
        "float" | "java.lang.Float" | "double" | "java.lang.Double" => "double".into(),
        "java.lang.String" | "com.caucho.util.CharBuffer" | "char" | "java.lang.Character" | "java.io.Reader" => {
            "string".into()
        }
        "java.util.Date" | "com.caucho.util.QDate" => "date".into(),
        "[B" | "java.io.InputStream" => "binary".into(),
        "org.w3c.dom.Node" | "org.w3c.dom.Element" | "org.w3c.dom.Document" => "xml".into(),
        n if n.ends_with("[]") => format!("[{}", mangle_java_class(&n[..n.len() - 2])),
        n => n.rsplit('.').next().unwrap_or(n).to_owned(),
    }
}

/// The mangled Java name of the type `T` maps to, as `AbstractSkeleton.mangleClass(cl, false)`
/// spells it for the Java type of the serde mapping (`docs/serde-mapping.md`):
///
/// | Rust | mangled |
/// |---|---|
/// | `bool` | `boolean` |
/// | `i8`, `i16`, `i32`, `u8`, `u16` | `int` |
/// | `i64`, `u32`, `u64` (and wider) | `long` |
/// | `f32`, `f64` | `double` |
/// | `char`, `String`, `&str` | `string` |
/// | [`Date`](super::Date) and the date adapters | `date` |
/// | bytes (`serde_bytes`) | `binary` |
/// | sequences (`Vec<T>`, slices, tuples) | `List` (a Java `java.util.List`) |
/// | maps | `Map` |
/// | a struct or enum renamed `a.b.Name` | `Name` |
/// | [`Value`](crate::Value), `()`, anything else | `Object` |
///
/// `Option<T>` and [`Shared<T>`](super::Shared) are `T`'s name; a newtype struct is its
/// content's name.
pub fn mangled_type_name<'de, T: Deserialize<'de>>() -> String {
    match T::deserialize(Probe) {
        Err(Found(Some(name))) => name,
        _ => "Object".to_owned(),
    }
}

/// What the probe found (`None` when the impl failed without asking for anything).
#[derive(Debug)]
struct Found(Option<String>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "type probe: {:?}", self.0)
    }
}

impl std::error::Error for Found {}

impl de::Error for Found {
    fn custom<M: fmt::Display>(_msg: M) -> Self {
        Found(None)
    }
}

fn found<T>(name: &str) -> Result<T, Found> {
    Err(Found(Some(name.to_owned())))
}

fn simple_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

struct Probe;

macro_rules! probe {
    ($($method:ident => $name:literal),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Found> {
                found($name)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for Probe {
    type Error = Found;

    probe! {
        deserialize_any => "Object",
        deserialize_bool => "boolean",
        deserialize_i8 => "int",
        deserialize_i16 => "int",
        deserialize_i32 => "int",
        deserialize_u8 => "int",
        deserialize_u16 => "int",
        deserialize_i64 => "long",
        deserialize_u32 => "long",
        deserialize_u64 => "long",
        deserialize_i128 => "long",
        deserialize_u128 => "long",
        deserialize_f32 => "double",
        deserialize_f64 => "double",
        deserialize_char => "string",
        deserialize_str => "string",
        deserialize_string => "string",
        deserialize_bytes => "binary",
        deserialize_byte_buf => "binary",
        deserialize_unit => "Object",
        deserialize_seq => "List",
        deserialize_map => "Map",
        deserialize_identifier => "Object",
        deserialize_ignored_any => "Object",
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Found> {
        visitor.visit_some(Probe)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, _v: V) -> Result<V::Value, Found> {
        found(simple_name(name))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, Found> {
        match name {
            DATE_TOKEN => found("date"),
            VALUE_TOKEN => found("Object"),
            SHARED_TOKEN => visitor.visit_newtype_struct(Probe),
            _ => visitor.visit_newtype_struct(Probe),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, _v: V) -> Result<V::Value, Found> {
        found("List")
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _n: &'static str, _l: usize, _v: V) -> Result<V::Value, Found> {
        found("List")
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value, Found> {
        found(simple_name(name))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value, Found> {
        found(simple_name(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serde::{Date, Shared};
    use crate::Value;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Deserialize)]
    #[serde(rename = "com.squarespace.hopper.types.Order")]
    #[allow(dead_code)]
    struct Order {
        id: i64,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Wrapper(i32);

    #[derive(Deserialize)]
    #[serde(rename = "org.example.Color")]
    #[allow(dead_code)]
    enum Color {
        Red,
    }

    #[test]
    fn names_follow_mangle_class() {
        assert_eq!(mangled_type_name::<i32>(), "int");
        assert_eq!(mangled_type_name::<i16>(), "int");
        assert_eq!(mangled_type_name::<i64>(), "long");
        assert_eq!(mangled_type_name::<f32>(), "double");
        assert_eq!(mangled_type_name::<bool>(), "boolean");
        assert_eq!(mangled_type_name::<String>(), "string");
        assert_eq!(mangled_type_name::<Option<String>>(), "string");
        assert_eq!(mangled_type_name::<Date>(), "date");
        assert_eq!(mangled_type_name::<Value>(), "Object");
        assert_eq!(mangled_type_name::<Order>(), "Order");
        assert_eq!(mangled_type_name::<Shared<Order>>(), "Order");
        assert_eq!(mangled_type_name::<Option<Order>>(), "Order");
        assert_eq!(mangled_type_name::<Wrapper>(), "int");
        assert_eq!(mangled_type_name::<Color>(), "Color");
        assert_eq!(mangled_type_name::<Vec<Order>>(), "List");
        assert_eq!(mangled_type_name::<BTreeMap<String, i32>>(), "Map");
        assert_eq!(mangled_type_name::<serde_bytes::ByteBuf>(), "binary");
    }
}
