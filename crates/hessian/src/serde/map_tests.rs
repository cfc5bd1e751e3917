//! The unit tests of the serde layers of Hessian 1 and Burlap (one serializer and one
//! deserializer over the formats' tokens), written once and run for each format against its
//! dynamic path (`FORMAT::to_vec(&to_value(v))`, `from_value(FORMAT::from_slice(b))`).

use super::dynamic::{burlap_via_value, h1_via_value};
use super::{burlap, h1, Date, Shared};
use crate::error::Result;
use crate::{ErrorKind, Value};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One format's serde entry points, its dynamic path, and how it shows what the tests look for.
trait Format {
    fn to_vec<T: ?Sized + Serialize>(v: &T) -> Result<Vec<u8>>;
    fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(w: W, v: &T) -> Result<()>;
    fn from_slice<T: DeserializeOwned>(b: &[u8]) -> Result<T>;
    fn from_reader<T: DeserializeOwned>(b: &[u8]) -> Result<T>;
    fn oracle_to_vec<T: ?Sized + Serialize>(v: &T) -> Result<Vec<u8>>;
    fn oracle_from_slice<T: DeserializeOwned>(b: &[u8]) -> Result<T>;
    /// How many references to index 1 `bytes` hold.
    fn refs_to_1(bytes: &[u8]) -> usize;
    /// How `null` starts.
    const NULL: &'static [u8];
    /// Where writing `Big` (a 20,000-character string and an int in a list declared with one
    /// element) fails, once its length has left the buffer: at the end of the sequence.
    const BIG_AT: Option<u64>;
}

struct H1;
struct Burlap;

macro_rules! entry_points {
    ($m:ident, $oracle:ident) => {
        fn to_vec<T: ?Sized + Serialize>(v: &T) -> Result<Vec<u8>> {
            $m::to_vec(v)
        }
        fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(w: W, v: &T) -> Result<()> {
            $m::to_writer(w, v)
        }
        fn from_slice<T: DeserializeOwned>(b: &[u8]) -> Result<T> {
            $m::from_slice(b)
        }
        fn from_reader<T: DeserializeOwned>(b: &[u8]) -> Result<T> {
            $m::from_reader(b)
        }
        fn oracle_to_vec<T: ?Sized + Serialize>(v: &T) -> Result<Vec<u8>> {
            $oracle::to_vec(v)
        }
        fn oracle_from_slice<T: DeserializeOwned>(b: &[u8]) -> Result<T> {
            $oracle::from_slice(b)
        }
    };
}

impl Format for H1 {
    entry_points!(h1, h1_via_value);
    fn refs_to_1(bytes: &[u8]) -> usize {
        bytes.windows(5).filter(|w| *w == b"R\x00\x00\x00\x01").count()
    }
    const NULL: &'static [u8] = b"N";
    // 6 + 20_003 + 5 bytes
    const BIG_AT: Option<u64> = Some(20_014);
}

impl Format for Burlap {
    entry_points!(burlap, burlap_via_value);
    fn refs_to_1(bytes: &[u8]) -> usize {
        String::from_utf8_lossy(bytes).matches("<ref>1</ref>").count()
    }
    const NULL: &'static [u8] = b"<null>";
    const BIG_AT: Option<u64> = None;
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "t.Inner")]
struct Inner {
    a: i32,
    b: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum E {
    Unit,
    New(i64),
    Tup(i8, String),
    Rec { x: f64 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "t.Outer")]
struct Outer {
    inner: Inner,
    list: Vec<Inner>,
    map: BTreeMap<String, i64>,
    e: Vec<E>,
    when: Date,
    any: Value,
    opt: Option<Option<u8>>,
    unit: (),
    tuple: (u16, char, bool),
}

fn outer() -> Outer {
    Outer {
        inner: Inner { a: 1, b: None },
        list: vec![Inner { a: 2, b: Some("two".into()) }, Inner { a: 3, b: Some(String::new()) }],
        map: [("k".to_string(), 5i64), ("é".to_string(), -1)].into_iter().collect(),
        e: vec![E::Unit, E::New(7), E::Tup(-1, "t".into()), E::Rec { x: 0.5 }],
        when: Date(1_200_000_000_000),
        any: Value::list(vec![Value::Int(1), Value::map(vec![(Value::Null, Value::Ref(0))])]),
        opt: Some(Some(4)),
        unit: (),
        tuple: (65535, 'ß', true),
    }
}

fn bytes_and_values_match_the_dynamic_path<F: Format>() {
    let v = outer();
    let bytes = F::to_vec(&v).unwrap();
    assert_eq!(bytes, F::oracle_to_vec(&v).unwrap());
    let mut w = Vec::new();
    F::to_writer(&mut w, &v).unwrap();
    assert_eq!(w, bytes);
    let native: Outer = F::from_slice(&bytes).unwrap();
    let dynamic: Outer = F::oracle_from_slice(&bytes).unwrap();
    assert_eq!(native, v);
    assert_eq!(dynamic, v);
    let streamed: Outer = F::from_reader(&bytes).unwrap();
    assert_eq!(streamed, v);
}

fn unknown_length_sequences_are_counted<F: Format>() {
    struct Iter(u32);
    impl Serialize for Iter {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq((0..self.0).filter(|i| i % 2 == 0))
        }
    }
    for n in [0, 1, 7, 20_000] {
        let bytes = F::to_vec(&Iter(n)).unwrap();
        assert_eq!(bytes, F::oracle_to_vec(&Iter(n)).unwrap(), "{n}");
        let mut w = Vec::new();
        F::to_writer(&mut w, &Iter(n)).unwrap();
        assert_eq!(w, bytes);
    }
}

fn a_sequence_that_miscounts_writes_the_elements_there_are<F: Format>() {
    struct Liar(usize);
    impl Serialize for Liar {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(Some(3))?;
            for i in 0..self.0 {
                seq.serialize_element(&i)?;
            }
            seq.end()
        }
    }
    for n in [0, 2, 3, 5, 12] {
        let bytes = F::to_vec(&Liar(n)).unwrap();
        assert_eq!(bytes, F::oracle_to_vec(&Liar(n)).unwrap(), "{n}");
        assert_eq!(F::from_slice::<Vec<u64>>(&bytes).unwrap().len(), n);
    }
    // once the length has left the buffer it cannot be corrected: an error, not bad bytes
    struct Big;
    impl Serialize for Big {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(Some(1))?;
            seq.serialize_element(&"x".repeat(20_000))?;
            seq.serialize_element(&1)?;
            seq.end()
        }
    }
    let e = F::to_writer(std::io::sink(), &Big).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unencodable(_)), "{e}");
    if let Some(at) = F::BIG_AT {
        assert_eq!(F::to_vec(&Big).unwrap_err().offset(), at);
    }
}

fn shared_values_become_references<F: Format>() {
    let a = Shared::new(Inner { a: 9, b: None });
    let v = vec![a.clone(), a.clone(), Shared::new(Inner { a: 9, b: None }), a];
    let bytes = F::to_vec(&v).unwrap();
    // the list is reference 0, the first Inner 1
    assert_eq!(F::refs_to_1(&bytes), 2);
    let back: Vec<Shared<Inner>> = F::from_slice(&bytes).unwrap();
    assert!(std::sync::Arc::ptr_eq(&back[0].0, &back[1].0));
    assert!(std::sync::Arc::ptr_eq(&back[0].0, &back[3].0));
    assert!(!std::sync::Arc::ptr_eq(&back[0].0, &back[2].0));
    assert_eq!(back, v);
    // into plain types: copies
    let plain: Vec<Inner> = F::from_slice(&bytes).unwrap();
    assert_eq!(plain.len(), 4);
    assert_eq!(plain[3], Inner { a: 9, b: None });
}

fn errors_carry_offsets<F: Format>() {
    let bytes = F::to_vec(&Inner { a: 1, b: None }).unwrap();
    let e = F::from_slice::<(u8,)>(&bytes).unwrap_err();
    assert_eq!(e.offset(), 0, "{e}");
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        a: i32,
        b: i32,
    }
    let e = F::from_slice::<Wrong>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{e}");
    let null = bytes.windows(F::NULL.len()).position(|w| w == F::NULL).unwrap();
    assert_eq!(e.offset() as usize, null, "{e}");
}

#[test]
fn bytes_and_values_match_the_dynamic_path_in_both_formats() {
    bytes_and_values_match_the_dynamic_path::<H1>();
    bytes_and_values_match_the_dynamic_path::<Burlap>();
}

#[test]
fn unknown_length_sequences_are_counted_in_both_formats() {
    unknown_length_sequences_are_counted::<H1>();
    unknown_length_sequences_are_counted::<Burlap>();
}

#[test]
fn a_sequence_that_miscounts_writes_the_elements_there_are_in_both_formats() {
    a_sequence_that_miscounts_writes_the_elements_there_are::<H1>();
    a_sequence_that_miscounts_writes_the_elements_there_are::<Burlap>();
}

#[test]
fn shared_values_become_references_in_both_formats() {
    shared_values_become_references::<H1>();
    shared_values_become_references::<Burlap>();
}

#[test]
fn errors_carry_offsets_in_both_formats() {
    errors_carry_offsets::<H1>();
    errors_carry_offsets::<Burlap>();
}
