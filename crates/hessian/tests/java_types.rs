//! Java types as Caucho hessian 4.0.38 writes and reads them (`interop/java/src/JavaTypes.java`),
//! both ways and in the three models: the `Value` model reads Java's bytes and writes them back
//! byte for byte (through typed JSON too); the Rust types of `hessian::serde::java` read what
//! Java writes, and Java reads what they write back into an equal object. Where 4.0.38 itself
//! cannot carry a value (a `BigDecimal` that fits a long, a `Locale` on Java 17), the test pins
//! that down: the Rust reader refuses rather than guess, and the Rust writer's form is one
//! Java reads correctly.

use hessian::serde::java::{BigDecimal, BigInteger, Locale, SqlDate, SqlTime, SqlTimestamp, TypedList, TypedMap, Uuid};
use hessian::serde::Date;
use hessian_testkit::java::{java, Java};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex")).collect()
}

fn java_bytes(java: &Java, name: &str) -> Vec<u8> {
    unhex(String::from_utf8(java.run("JavaTypes", &["write", name], b"")).expect("text").trim())
}

/// `ok` when Java reads `bytes` as the sample `name` (a BigDecimal with the jar's
/// `BigDecimalDeserializer` registered; the line then ends with what 4.0.38's default reader made
/// of it).
fn java_reads(java: &Java, name: &str, bytes: &[u8]) -> String {
    let out = String::from_utf8(java.run("JavaTypes", &["check", name, &hex(bytes)], b"")).expect("text");
    out.trim().split(" (4.0.38's default reader").next().unwrap_or("").to_owned()
}

fn default_reader(java: &Java, name: &str, bytes: &[u8]) -> String {
    let out = String::from_utf8(java.run("JavaTypes", &["check", name, &hex(bytes)], b"")).expect("text");
    out.trim().rsplit("default reader: ").next().unwrap_or("").trim_end_matches(')').to_owned()
}

/// Java's bytes through the `Value` model and typed JSON, byte for byte.
fn value_model(name: &str, bytes: &[u8]) {
    let v = hessian::h2::from_slice(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(hessian::h2::to_vec(&v).unwrap(), bytes, "{name}: Value re-encoding");
    let j = hessian::json::to_json(&v);
    let back = hessian::json::from_json(&j).unwrap();
    assert_eq!(hessian::h2::to_vec(&back).unwrap(), bytes, "{name}: typed JSON round trip");
}

/// Both directions for a type that both sides carry intact.
fn both_ways<T: Serialize + DeserializeOwned + PartialEq + Debug>(java: &Java, name: &str, want: T) {
    let bytes = java_bytes(java, name);
    value_model(name, &bytes);
    let got: T = hessian::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: reading Java's bytes: {e}"));
    assert_eq!(got, want, "{name}: read from Java");
    let mine = hessian::to_vec(&want).unwrap();
    assert_eq!(java_reads(java, name, &mine), "ok", "{name}: Java reading {}", hex(&mine));
}

#[test]
fn big_numbers() {
    let Some(java) = java() else { return };
    both_ways(&java, "bigdecimal_large", BigDecimal::parse("-12345678901234567890.123456789").unwrap());
    both_ways(&java, "biginteger", BigInteger::parse("123456789012345678901234567890").unwrap());
    both_ways(&java, "biginteger_negative", BigInteger::from(-5));
    both_ways(&java, "biginteger_zero", BigInteger::from(0));
    assert_eq!(BigInteger::parse("-5").unwrap().to_i128(), Some(-5));
    assert_eq!(BigInteger::parse(&"9".repeat(50)).unwrap().to_i128(), None, "beyond i128: no silent truncation");

    // 4.0.38 writes a BigDecimal that fits a long without its digits (intVal null, intCompact
    // transient): Java itself reads it back as zero; Rust refuses it with the reason
    let bytes = java_bytes(&java, "bigdecimal_small");
    value_model("bigdecimal_small", &bytes);
    let err = hessian::from_slice::<BigDecimal>(&bytes).unwrap_err().to_string();
    assert!(err.contains("intCompact"), "{err}");
    // what Rust writes ({value: "123.4500"}) Caucho's BigDecimalDeserializer reads right, scale
    // included; 4.0.38's default reader makes zero of it, as of its own bytes
    let mine = hessian::to_vec(&BigDecimal::parse("123.4500").unwrap()).unwrap();
    assert_eq!(java_reads(&java, "bigdecimal_small", &mine), "ok");
    assert_eq!(default_reader(&java, "bigdecimal_small", &mine), "0");
    assert_eq!(default_reader(&java, "bigdecimal_small", &bytes), "0.0000", "4.0.38 reads its own bytes as zero");
}

#[test]
fn uuid_sql_dates_and_locale() {
    let Some(java) = java() else { return };
    both_ways(&java, "uuid", Uuid(0x123e4567_e89b_12d3_a456_426614174000));
    assert_eq!(Uuid(0x123e4567_e89b_12d3_a456_426614174000).to_string(), "123e4567-e89b-12d3-a456-426614174000");
    both_ways(&java, "sql_date", SqlDate(Date(1_200_000_000_000)));
    both_ways(&java, "sql_time", SqlTime(Date(1_200_000_000_000)));
    both_ways(&java, "sql_timestamp", SqlTimestamp(Date(1_200_000_000_123)));
    // 4.0.38 writes a Locale as an empty object on Java 17 (every field is transient): Rust
    // refuses it; 4.0.38 reads the LocaleHandle form Rust writes
    let bytes = java_bytes(&java, "locale");
    value_model("locale", &bytes);
    let err = hessian::from_slice::<Locale>(&bytes).unwrap_err().to_string();
    assert!(err.contains("transient"), "{err}");
    let mine = hessian::to_vec(&Locale("en_US".into())).unwrap();
    assert_eq!(java_reads(&java, "locale", &mine), "ok");
    assert_eq!(hessian::from_slice::<Locale>(&mine).unwrap(), Locale("en_US".into()));
}

#[test]
fn typed_collections_and_arrays() {
    let Some(java) = java() else { return };
    let s = |x: &str| x.to_owned();
    both_ways(&java, "treemap", TypedMap::new("java.util.TreeMap", vec![(s("a"), 1), (s("b"), 2)]));
    both_ways(&java, "linkedhashmap", TypedMap::new("java.util.LinkedHashMap", vec![(s("z"), 1), (s("a"), 2)]));
    both_ways(&java, "hashtable", TypedMap::new("java.util.Hashtable", vec![(s("a"), 1)]));
    both_ways(&java, "hashset", TypedList::new("java.util.HashSet", vec![7]));
    both_ways(&java, "treeset", TypedList::new("java.util.TreeSet", vec![1, 2, 3]));
    both_ways(&java, "linkedlist", TypedList::new("java.util.LinkedList", vec![s("x"), s("y")]));
    both_ways(&java, "vector", TypedList::new("java.util.Vector", vec![1i64, 2]));
    both_ways(&java, "int_array", TypedList::new("[int", vec![1, 2, 3]));
    both_ways(&java, "string_array", TypedList::new("[string", vec![s("x"), s("y")]));
    both_ways(&java, "long_array", TypedList::new("[long", vec![1i64, -1]));
    // plain Rust collections read the same bytes (the type name is not needed to read)
    let v: Vec<i32> = hessian::from_slice(&java_bytes(&java, "treeset")).unwrap();
    assert_eq!(v, [1, 2, 3]);
    let m: std::collections::BTreeMap<String, i32> = hessian::from_slice(&java_bytes(&java, "treemap")).unwrap();
    assert_eq!(m.len(), 2);
}
