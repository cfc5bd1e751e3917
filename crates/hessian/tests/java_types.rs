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
    // hostile sizes are refused, not converted for minutes
    assert!(BigInteger::parse(&"9".repeat(100_000)).is_none());
    let huge = hessian::Value::Object(Box::new(hessian::Object {
        class: hessian::ClassDef::new("java.math.BigInteger", ["signum", "mag"]),
        fields: vec![hessian::Value::Int(1), hessian::Value::typed_list("[int", vec![hessian::Value::Int(7); 100_000])],
    }));
    let err = hessian::from_slice::<BigInteger>(&hessian::h2::to_vec(&huge).unwrap()).unwrap_err().to_string();
    assert!(err.contains("limbs"), "{err}");

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
    let objects = vec![hessian::Value::Int(1), hessian::Value::string("a"), hessian::Value::Null];
    both_ways(&java, "object_array", TypedList::new("[object", objects));
    // plain Rust collections read the same bytes (the type name is not needed to read)
    let v: Vec<i32> = hessian::from_slice(&java_bytes(&java, "treeset")).unwrap();
    assert_eq!(v, [1, 2, 3]);
    let m: std::collections::BTreeMap<String, i32> = hessian::from_slice(&java_bytes(&java, "treemap")).unwrap();
    assert_eq!(m.len(), 2);
}

mod evolution {
    use serde::{Deserialize, Serialize};

    /// `Account` with fewer fields than Java's (no `balance`).
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "org.example.evolution.Account")]
    pub struct AccountFewer {
        pub id: i64,
        pub owner: String,
    }

    /// `Account` with one field more than Java's, defaulted when absent.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "org.example.evolution.Account")]
    pub struct AccountMore {
        pub id: i64,
        pub owner: String,
        pub balance: f64,
        #[serde(default)]
        pub nickname: Option<String>,
    }

    /// `Dog`: its own `name` (hiding `Animal`'s), `good`, and `Animal`'s `legs`.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "org.example.evolution.Dog")]
    pub struct Dog {
        pub name: String,
        pub good: bool,
        pub legs: i32,
    }

    /// The generic `Pair<A, B>`.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "org.example.evolution.Pair")]
    pub struct Pair<A, B> {
        pub first: A,
        pub second: B,
    }
}

fn evolution_bytes(java: &Java, name: &str) -> Vec<u8> {
    unhex(String::from_utf8(java.run("JavaEvolution", &["write", name], b"")).expect("text").trim())
}

fn java_describes<T: Serialize>(java: &Java, v: &T) -> String {
    let bytes = hessian::to_vec(v).unwrap();
    String::from_utf8(java.run("JavaEvolution", &["read", &hex(&bytes)], b"")).expect("text").trim().to_owned()
}

#[test]
fn schema_evolution_both_ways() {
    use evolution::{AccountFewer, AccountMore};
    let Some(java) = java() else { return };
    let bytes = evolution_bytes(&java, "account");
    value_model("account", &bytes);
    // fewer fields: the unknown one is skipped; more: the missing one takes its default
    let fewer: AccountFewer = hessian::from_slice(&bytes).unwrap();
    assert_eq!(fewer, AccountFewer { id: 7, owner: "Ada".into() });
    let more: AccountMore = hessian::from_slice(&bytes).unwrap();
    assert_eq!(more, AccountMore { id: 7, owner: "Ada".into(), balance: 12.5, nickname: None });
    // and Java reads both: a missing field keeps its default, an unknown one is ignored
    assert_eq!(java_describes(&java, &fewer), "Account id=7 owner=Ada balance=0.0");
    let more = AccountMore { nickname: Some("A.".into()), ..more };
    assert_eq!(java_describes(&java, &more), "Account id=7 owner=Ada balance=12.5");
}

#[test]
fn a_field_hidden_by_a_subclass_and_a_generic_container() {
    use evolution::{Dog, Pair};
    let Some(java) = java() else { return };
    // Caucho writes Dog's name, good, then Animal's name and legs: two fields called `name`
    let bytes = evolution_bytes(&java, "dog");
    value_model("dog", &bytes);
    match hessian::h2::from_slice(&bytes).unwrap() {
        hessian::Value::Object(o) => assert_eq!(o.class.fields, ["name", "good", "name", "legs"]),
        other => panic!("{other}"),
    }
    // the Rust struct's `name` is the subclass's, as in Java
    let dog: Dog = hessian::from_slice(&bytes).unwrap();
    assert_eq!(dog, Dog { name: "Rex".into(), good: true, legs: 4 });
    assert_eq!(java_describes(&java, &dog), "Dog name=Rex good=true animal.name=null legs=4");
    // the same in Hessian 1 (a typed map with the key `name` twice), as Java's hybrid proxy
    // sends its arguments
    let h1 = unhex(String::from_utf8(java.run("JavaEvolution", &["write1", "dog"], b"")).unwrap().trim());
    assert_eq!(hessian::serde::h1::from_slice::<Dog>(&h1).unwrap(), dog);
    let mine = hessian::serde::h1::to_vec(&dog).unwrap();
    let read = String::from_utf8(java.run("JavaEvolution", &["read1", &hex(&mine)], b"")).unwrap();
    assert_eq!(read.trim(), "Dog name=Rex good=true animal.name=null legs=4");
    // and in Burlap
    let xml = unhex(String::from_utf8(java.run("JavaEvolution", &["writeb", "dog"], b"")).unwrap().trim());
    assert_eq!(hessian::serde::burlap::from_slice::<Dog>(&xml).unwrap(), dog);
    let mine = hessian::serde::burlap::to_vec(&dog).unwrap();
    let read = String::from_utf8(java.run("JavaEvolution", &["readb", &hex(&mine)], b"")).unwrap();
    assert_eq!(read.trim(), "Dog name=Rex good=true animal.name=null legs=4");
    // a generic class: its type parameters are the Rust struct's
    let bytes = evolution_bytes(&java, "pair");
    value_model("pair", &bytes);
    let pair: Pair<String, i32> = hessian::from_slice(&bytes).unwrap();
    assert_eq!(pair, Pair { first: "x".into(), second: 5 });
    assert_eq!(java_describes(&java, &pair), "Pair first=x second=5 (java.lang.Integer)");
    let pair = Pair { first: 1.5f64, second: vec!["a".to_owned()] };
    assert_eq!(java_describes(&java, &pair), "Pair first=1.5 second=[a] (java.util.ArrayList)");
}
