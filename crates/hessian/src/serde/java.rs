//! Rust types for the Java classes Caucho's hessian 4.0.38 writes in a form of its own, each
//! written the way Java reads it and read from what Java writes (`docs/serde-mapping.md`, "Java
//! types"):
//!
//! | Java | Rust | on the wire |
//! |---|---|---|
//! | `java.math.BigDecimal` | [`BigDecimal`] (decimal text) | object `java.math.BigDecimal { value: "1.50" }`, the form Caucho's `BigDecimalDeserializer` reads |
//! | `java.math.BigInteger` | [`BigInteger`] (decimal text, any size) | object of its fields `signum`, `mag` (`[int`) and four caches, as 4.0.38 writes it |
//! | `java.util.UUID` | [`Uuid`] | object `{ mostSigBits, leastSigBits }` |
//! | `java.sql.Date`, `Time`, `Timestamp` | [`SqlDate`], [`SqlTime`], [`SqlTimestamp`] | object `{ value: date }` |
//! | `java.util.Locale` | [`Locale`] (`en_US`) | object `com.caucho.hessian.io.LocaleHandle { value }` |
//! | a typed map (`TreeMap`, `LinkedHashMap`, `Hashtable`, …) | [`TypedMap`] | `M type …` with the type name kept |
//! | a typed list (`HashSet`, `TreeSet`, `LinkedList`, `Vector`, `int[]`, …) | [`TypedList`] | `V type …` with the type name kept |
//!
//! What 4.0.38 itself gets wrong, on Java 17. Its `SerializerFactory` has no entry for
//! `BigDecimal` (the jar holds a `BigDecimalDeserializer`, but nothing registers it), so it writes
//! and reads a `BigDecimal` by its internal fields (`scale` and `intVal`) with the reflective
//! serializer. The unscaled value lives in the transient `intCompact` whenever it fits a long, so
//! such a value leaves the JVM without its digits, and any `BigDecimal` it reads has
//! `intCompact` zero: Java reads every `BigDecimal` as zero (times its scale). [`BigDecimal`]
//! writes the `value` form, which `BigDecimalDeserializer` reads (a 4.0.38 peer must register it:
//! `SerializerFactory.addFactory`, as later Caucho releases do by default); it reads the `value`
//! form, and the internal form when `intVal` is there, and refuses the internal form without it
//! (an error that says why, never a zero). `java.util.Locale` fares worse: every field of it is
//! transient on Java 17, so 4.0.38 writes an empty object; [`Locale`] refuses that, and writes
//! the `LocaleHandle` form 4.0.38 reads into the right `Locale`.
//!
//! Each type is written through the [`Value`] model, so it is exact with this crate's
//! serializers and plain structure in any other serde format.

use crate::serde::{from_value, to_value, Date};
use crate::value::{ClassDef, List, Map, Object, Value};
use serde::de::{self, Deserialize, DeserializeOwned, Deserializer};
use serde::ser::{self, Serialize, Serializer};
use std::sync::Arc;

fn object(class: &str, fields: &[(&str, Value)]) -> Value {
    let def =
        Arc::new(ClassDef { name: class.to_owned(), fields: fields.iter().map(|(n, _)| (*n).to_owned()).collect() });
    Value::Object(Box::new(Object { class: def, fields: fields.iter().map(|(_, v)| v.clone()).collect() }))
}

/// The fields of an object, or of a typed or untyped map with string keys, by name.
fn fields(v: &Value) -> Option<Vec<(&str, &Value)>> {
    match v {
        Value::Object(o) => Some(o.class.fields.iter().map(String::as_str).zip(o.fields.iter()).collect()),
        Value::Map(m) => m
            .entries
            .iter()
            .map(|(k, x)| match k {
                Value::String(s) => Some((s.as_str(), x)),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

fn field<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    fields(v)?.into_iter().find(|(n, _)| *n == name).map(|(_, x)| x)
}

fn long_of(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Int(i) => Some(i64::from(*i)),
        Value::Long(l) => Some(*l),
        _ => None,
    }
}

fn class_of(v: &Value) -> Option<&str> {
    match v {
        Value::Object(o) => Some(&o.class.name),
        Value::Map(m) => m.type_name.as_deref(),
        _ => None,
    }
}

fn invalid<E: de::Error>(what: &str, v: &Value) -> E {
    E::custom(format!("expected {what}, got {v}"))
}

// ---- decimal text of big integers ----

/// Most 32-bit limbs of a big integer's magnitude read or written (131,072 bits, about 39,000
/// decimal digits): the text conversion is quadratic, so a hostile message cannot make it run
/// for minutes.
pub const MAX_BIG_INTEGER_LIMBS: usize = 4096;
/// Most decimal digits of a [`BigInteger`] or [`BigDecimal`] accepted as text.
pub const MAX_DECIMAL_DIGITS: usize = 39_500;

/// The decimal text of a magnitude (big-endian 32-bit limbs).
fn mag_to_decimal(mag: &[u32]) -> String {
    let mut limbs: Vec<u32> = mag.iter().copied().skip_while(|&x| x == 0).collect();
    if limbs.is_empty() {
        return "0".into();
    }
    let mut chunks = Vec::new();
    while !limbs.is_empty() {
        let mut rem: u64 = 0;
        for l in limbs.iter_mut() {
            let cur = (rem << 32) | u64::from(*l);
            *l = (cur / 1_000_000_000) as u32;
            rem = cur % 1_000_000_000;
        }
        chunks.push(rem as u32);
        while limbs.first() == Some(&0) {
            limbs.remove(0);
        }
    }
    let mut s = chunks.pop().map(|c| c.to_string()).unwrap_or_default();
    for c in chunks.iter().rev() {
        s.push_str(&format!("{c:09}"));
    }
    s
}

/// The magnitude (big-endian 32-bit limbs, no leading zero limb) of decimal digits.
fn decimal_to_mag(digits: &str) -> Vec<u32> {
    let mut limbs: Vec<u32> = Vec::new(); // little-endian while building
    for d in digits.bytes() {
        let mut carry = u64::from(d - b'0');
        for l in limbs.iter_mut() {
            let cur = u64::from(*l) * 10 + carry;
            *l = cur as u32;
            carry = cur >> 32;
        }
        if carry > 0 {
            limbs.push(carry as u32);
        }
    }
    limbs.reverse();
    limbs
}

/// Splits `-123` into (negative, "123"), checking that the rest is digits.
fn sign_and_digits(s: &str) -> Option<(bool, &str)> {
    let (neg, d) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    (!d.is_empty() && d.len() <= MAX_DECIMAL_DIGITS && d.bytes().all(|b| b.is_ascii_digit())).then_some((neg, d))
}

fn trim_zeros(d: &str) -> &str {
    let t = d.trim_start_matches('0');
    if t.is_empty() {
        "0"
    } else {
        t
    }
}

/// `java.math.BigInteger`, as decimal text of any size (`"-123456789012345678901234567890"`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BigInteger(String);

impl BigInteger {
    /// The integer of decimal text (an optional sign and digits), or `None`.
    pub fn parse(s: &str) -> Option<BigInteger> {
        let (neg, d) = sign_and_digits(s.trim())?;
        let d = trim_zeros(d);
        Some(BigInteger(if neg && d != "0" { format!("-{d}") } else { d.to_owned() }))
    }

    /// Its decimal text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its value, when it fits an `i128`.
    pub fn to_i128(&self) -> Option<i128> {
        self.0.parse().ok()
    }

    fn as_value(&self) -> Value {
        let (neg, d) = sign_and_digits(&self.0).unwrap_or((false, "0"));
        let mag = decimal_to_mag(d);
        let signum = if mag.is_empty() {
            0
        } else if neg {
            -1
        } else {
            1
        };
        let list = Value::List(Box::new(List {
            type_name: Some("[int".into()),
            fixed_length: true,
            items: mag.iter().map(|&l| Value::Int(l as i32)).collect(),
        }));
        // the four caches as Java leaves them before any use: zero means "not computed yet"
        object(
            "java.math.BigInteger",
            &[
                ("signum", Value::Int(signum)),
                ("bitCountPlusOne", Value::Int(0)),
                ("bitLengthPlusOne", Value::Int(0)),
                ("lowestSetBitPlusTwo", Value::Int(0)),
                ("firstNonzeroIntNumPlusTwo", Value::Int(0)),
                ("mag", list),
            ],
        )
    }

    fn from_value<E: de::Error>(v: &Value) -> Result<BigInteger, E> {
        match v {
            Value::Int(i) => return Ok(BigInteger(i.to_string())),
            Value::Long(l) => return Ok(BigInteger(l.to_string())),
            Value::String(s) => return BigInteger::parse(s).ok_or_else(|| invalid("a decimal integer", v)),
            _ => {}
        }
        let signum = long_of(field(v, "signum")).ok_or_else(|| invalid("a java.math.BigInteger", v))?;
        let mag = match field(v, "mag") {
            Some(Value::List(l)) if l.items.len() > MAX_BIG_INTEGER_LIMBS => {
                return Err(E::custom(format!(
                    "a java.math.BigInteger of {} limbs, more than the {MAX_BIG_INTEGER_LIMBS} read",
                    l.items.len()
                )))
            }
            Some(Value::List(l)) => l
                .items
                .iter()
                .map(|x| match x {
                    Value::Int(i) => Ok(*i as u32),
                    _ => Err(invalid::<E>("an int in a BigInteger's magnitude", x)),
                })
                .collect::<Result<Vec<u32>, E>>()?,
            Some(Value::Null) | None => Vec::new(),
            Some(other) => return Err(invalid("a BigInteger's magnitude (`[int`)", other)),
        };
        let d = mag_to_decimal(&mag);
        Ok(BigInteger(if signum < 0 && d != "0" { format!("-{d}") } else { d }))
    }
}

impl From<i128> for BigInteger {
    fn from(i: i128) -> Self {
        BigInteger(i.to_string())
    }
}

impl std::fmt::Display for BigInteger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `java.math.BigDecimal`, as its decimal text with its scale (`"123.4500"`, `"-1E+3"` as Java's
/// `toString` writes exponents).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BigDecimal(String);

impl BigDecimal {
    /// A decimal of text in Java's `new BigDecimal(String)` syntax: a sign, digits with an
    /// optional point, an optional exponent (`1.5`, `-0.001`, `1E+3`).
    pub fn parse(s: &str) -> Option<BigDecimal> {
        let s = s.trim();
        let (mantissa, exp) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        if s.len() > MAX_DECIMAL_DIGITS + 16 {
            return None;
        }
        let body = mantissa.strip_prefix(['-', '+']).unwrap_or(mantissa);
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        let digits_ok = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
        if (int.is_empty() && frac.is_empty()) || !digits_ok(int) || !digits_ok(frac) {
            return None;
        }
        if let Some(e) = exp {
            sign_and_digits(e)?;
        }
        Some(BigDecimal(s.to_owned()))
    }

    /// Its text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `unscaled × 10^-scale` as Java's `BigDecimal.toString` writes it.
    fn of_unscaled(unscaled: &BigInteger, scale: i64) -> BigDecimal {
        let (neg, d) = sign_and_digits(unscaled.as_str()).unwrap_or((false, "0"));
        let sign = if neg { "-" } else { "" };
        let adjusted = d.len() as i64 - 1 - scale;
        if scale >= 0 && adjusted >= -6 {
            let scale = scale as usize;
            let text = if scale == 0 {
                d.to_owned()
            } else if d.len() > scale {
                format!("{}.{}", &d[..d.len() - scale], &d[d.len() - scale..])
            } else {
                format!("0.{}{d}", "0".repeat(scale - d.len()))
            };
            return BigDecimal(format!("{sign}{text}"));
        }
        let (head, tail) = d.split_at(1);
        let point = if tail.is_empty() { String::new() } else { format!(".{tail}") };
        let e = if adjusted >= 0 { format!("+{adjusted}") } else { adjusted.to_string() };
        BigDecimal(format!("{sign}{head}{point}E{e}"))
    }

    fn from_value<E: de::Error>(v: &Value) -> Result<BigDecimal, E> {
        match v {
            Value::String(s) => return BigDecimal::parse(s).ok_or_else(|| invalid("a decimal number", v)),
            Value::Int(i) => return Ok(BigDecimal(i.to_string())),
            Value::Long(l) => return Ok(BigDecimal(l.to_string())),
            _ => {}
        }
        if let Some(Value::String(s)) = field(v, "value") {
            return BigDecimal::parse(s).ok_or_else(|| invalid("a decimal number", v));
        }
        let scale = long_of(field(v, "scale")).ok_or_else(|| invalid("a java.math.BigDecimal", v))?;
        match field(v, "intVal") {
            Some(Value::Null) | None => Err(E::custom(
                "a java.math.BigDecimal without its digits: hessian 4.0.38 wrote it by its internal fields and \
                 its unscaled value was in the transient intCompact field, so the value never left the JVM \
                 (Java reads it back as zero)",
            )),
            Some(int_val) => Ok(BigDecimal::of_unscaled(&BigInteger::from_value(int_val)?, scale)),
        }
    }
}

impl std::fmt::Display for BigDecimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! through_value {
    ($t:ty, $what:literal) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.as_value().serialize(s)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = Value::deserialize(d)?;
                <$t>::from_value(&v)
            }
        }
    };
}

impl BigDecimal {
    fn as_value(&self) -> Value {
        object("java.math.BigDecimal", &[("value", Value::String(self.0.clone()))])
    }
}

through_value!(BigInteger, "a java.math.BigInteger");
through_value!(BigDecimal, "a java.math.BigDecimal");

/// `java.util.UUID`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Uuid(pub u128);

impl Uuid {
    fn as_value(&self) -> Value {
        object(
            "java.util.UUID",
            &[("mostSigBits", Value::Long((self.0 >> 64) as i64)), ("leastSigBits", Value::Long(self.0 as i64))],
        )
    }

    fn from_value<E: de::Error>(v: &Value) -> Result<Uuid, E> {
        if let Value::String(s) = v {
            let hex: String = s.chars().filter(|c| *c != '-').collect();
            return u128::from_str_radix(&hex, 16).map(Uuid).map_err(|_| invalid("a UUID", v));
        }
        let most = long_of(field(v, "mostSigBits")).ok_or_else(|| invalid("a java.util.UUID", v))?;
        let least = long_of(field(v, "leastSigBits")).ok_or_else(|| invalid("a java.util.UUID", v))?;
        Ok(Uuid((u128::from(most as u64) << 64) | u128::from(least as u64)))
    }
}

impl std::fmt::Display for Uuid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let h = format!("{:032x}", self.0);
        write!(f, "{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
    }
}

through_value!(Uuid, "a java.util.UUID");

macro_rules! sql_date {
    ($(#[$doc:meta])* $t:ident, $class:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $t(pub Date);

        impl $t {
            fn as_value(&self) -> Value {
                object($class, &[("value", Value::Date(self.0 .0))])
            }

            fn from_value<E: de::Error>(v: &Value) -> Result<$t, E> {
                match v {
                    Value::Date(ms) => Ok($t(Date(*ms))),
                    _ => match field(v, "value") {
                        Some(Value::Date(ms)) => Ok($t(Date(*ms))),
                        Some(x) => long_of(Some(x)).map(|ms| $t(Date(ms))).ok_or_else(|| invalid(concat!("a ", $class), v)),
                        None => Err(invalid(concat!("a ", $class), v)),
                    },
                }
            }
        }

        through_value!($t, $class);
    };
}

sql_date!(
    /// `java.sql.Date` (milliseconds since the epoch, as [`Date`]).
    SqlDate,
    "java.sql.Date"
);
sql_date!(
    /// `java.sql.Time`.
    SqlTime,
    "java.sql.Time"
);
sql_date!(
    /// `java.sql.Timestamp` (to the millisecond, as 4.0.38 writes it).
    SqlTimestamp,
    "java.sql.Timestamp"
);

/// `java.util.Locale`, as its `toString` (`en_US`, `fr`, `de_CH`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Locale(pub String);

impl Locale {
    fn as_value(&self) -> Value {
        object("com.caucho.hessian.io.LocaleHandle", &[("value", Value::String(self.0.clone()))])
    }

    fn from_value<E: de::Error>(v: &Value) -> Result<Locale, E> {
        match v {
            Value::String(s) => Ok(Locale(s.clone())),
            _ => match field(v, "value") {
                Some(Value::String(s)) => Ok(Locale(s.clone())),
                _ if class_of(v) == Some("java.util.Locale") => Err(E::custom(
                    "a java.util.Locale without data: every field of Locale is transient on Java 17, so hessian \
                     4.0.38's reflective serializer wrote an empty object (send a LocaleHandle or a string)",
                )),
                _ => Err(invalid("a java.util.Locale (LocaleHandle)", v)),
            },
        }
    }
}

through_value!(Locale, "a java.util.Locale");

/// A map with its Java type name kept (`java.util.TreeMap`, `java.util.Hashtable`, …), entries
/// in order. Read from any map; the name is `None` for an untyped one.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedMap<K, V> {
    /// The Java type name.
    pub type_name: Option<String>,
    /// The entries, in wire order.
    pub entries: Vec<(K, V)>,
}

impl<K, V> TypedMap<K, V> {
    /// A map of the Java type `type_name`.
    pub fn new(type_name: &str, entries: Vec<(K, V)>) -> Self {
        TypedMap { type_name: Some(type_name.to_owned()), entries }
    }
}

impl<K: Serialize, V: Serialize> Serialize for TypedMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut entries = Vec::with_capacity(self.entries.len());
        for (k, v) in &self.entries {
            entries.push((to_value(k).map_err(ser::Error::custom)?, to_value(v).map_err(ser::Error::custom)?));
        }
        Value::Map(Box::new(Map { type_name: self.type_name.clone(), entries })).serialize(s)
    }
}

impl<'de, K: DeserializeOwned, V: DeserializeOwned> Deserialize<'de> for TypedMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Map(m) => {
                let m = *m;
                let mut entries = Vec::with_capacity(m.entries.len());
                for (k, v) in m.entries {
                    entries
                        .push((from_value(k).map_err(de::Error::custom)?, from_value(v).map_err(de::Error::custom)?));
                }
                Ok(TypedMap { type_name: m.type_name, entries })
            }
            other => Err(invalid("a map", &other)),
        }
    }
}

/// A list with its Java type name kept (`java.util.HashSet`, `java.util.Vector`, `[int`, …). Read
/// from any list; the name is `None` for an untyped one.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedList<T> {
    /// The Java type name.
    pub type_name: Option<String>,
    /// The items.
    pub items: Vec<T>,
}

impl<T> TypedList<T> {
    /// A list of the Java type `type_name`.
    pub fn new(type_name: &str, items: Vec<T>) -> Self {
        TypedList { type_name: Some(type_name.to_owned()), items }
    }
}

impl<T: Serialize> Serialize for TypedList<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let items = self.items.iter().map(to_value).collect::<Result<Vec<_>, _>>().map_err(ser::Error::custom)?;
        Value::List(Box::new(List { type_name: self.type_name.clone(), fixed_length: true, items })).serialize(s)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for TypedList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::List(l) => {
                let l = *l;
                let items = l.items.into_iter().map(from_value).collect::<Result<_, _>>().map_err(de::Error::custom)?;
                Ok(TypedList { type_name: l.type_name, items })
            }
            other => Err(invalid("a list", &other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_integer_text_and_magnitude() {
        for s in ["0", "1", "-5", "4294967295", "4294967296", "123456789012345678901234567890", "-18446744073709551616"]
        {
            let b = BigInteger::parse(s).unwrap();
            let (neg, d) = sign_and_digits(b.as_str()).unwrap();
            assert_eq!(mag_to_decimal(&decimal_to_mag(d)), d, "{s}");
            assert_eq!(neg, s.starts_with('-'));
        }
        assert_eq!(BigInteger::parse("-000").unwrap().as_str(), "0");
        assert!(
            BigInteger::parse("1x").is_none() && BigInteger::parse("").is_none() && BigInteger::parse("-").is_none()
        );
    }

    #[test]
    fn big_decimal_text_as_java_writes_it() {
        let d = |u: &str, scale| BigDecimal::of_unscaled(&BigInteger::parse(u).unwrap(), scale).0;
        assert_eq!(d("1234500", 4), "123.4500");
        assert_eq!(d("-5", 3), "-0.005");
        assert_eq!(d("5", 0), "5");
        assert_eq!(d("1", -3), "1E+3");
        assert_eq!(d("123", 10), "1.23E-8");
        assert!(
            BigDecimal::parse("1.5e3").is_some()
                && BigDecimal::parse("x").is_none()
                && BigDecimal::parse(".").is_none()
        );
    }
}
