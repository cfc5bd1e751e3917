//! Serde for Burlap 1.0 (Java's `BurlapOutput`/`BurlapInput`): any `Serialize`/`Deserialize`
//! type straight to and from XML bytes, through [`burlap::Encoder`](crate::burlap::Encoder) and
//! [`burlap::Decoder`](crate::burlap::Decoder) (no intermediate [`Value`](crate::Value)).
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! #[serde(rename = "com.example.Money")]
//! struct Money {
//!     cents: i32,
//!     currency: String,
//! }
//!
//! let m = Money { cents: 1250, currency: "EUR".into() };
//! let bytes = hessian::serde::burlap::to_vec(&m).unwrap();
//! // a Java object in Burlap: a map typed with the class name, keyed by field name
//! assert!(bytes.starts_with(b"<map><type>com.example.Money</type><string>cents</string><int>1250</int>"));
//! let back: Money = hessian::serde::burlap::from_slice(&bytes).unwrap();
//! assert_eq!(m, back);
//! ```
//!
//! The mapping is the one of the Hessian 2.0 serializer (`docs/serde-mapping.md`), in Burlap's
//! forms: a struct is a typed map `<map><type>class</type>(<string>field</string> value)*</map>`
//! (as Java writes an object), a unit enum variant a Java enum (a map typed with the enum's class
//! holding `name` → variant), other variants one-entry maps, sequences lists with a `<length>`,
//! maps `<map><type></type>…</map>`, [`Date`](super::Date) a `<date>`,
//! [`Value`](crate::Value) fields the value exactly, and [`Shared`](super::Shared) values written
//! once per message and then as `<ref>n</ref>` references (lists and maps are numbered in the
//! order they start). The bytes are those of the dynamic path (`burlap::to_vec(&to_value(v)?)`),
//! except that a repeated [`Shared`](super::Shared) allocation is a reference where that path
//! copied it.
//!
//! Decoding gives the dynamic path's results (`from_value(burlap::from_slice(data)?)`), but
//! errors carry the offset of the offending element, and references resolve: to
//! [`Shared`](super::Shared) values, and from a slice into plain types as copies (bounded by
//! `Limits::max_ref_copy_bytes`). The decoder's [`Limits`](crate::Limits) apply
//! ([`from_slice_with_limits`]).

mod de;
mod ser;

pub use crate::burlap::Input;
pub use de::{from_reader, from_slice, from_slice_with_limits, Deserializer};
pub use ser::{to_vec, to_writer, Compound, Serializer};

#[cfg(test)]
mod tests {
    use super::super::dynamic::burlap_via_value as oracle;
    use super::super::{Date, Shared};
    use crate::{ErrorKind, Value};
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

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

    #[test]
    fn bytes_and_values_match_the_dynamic_path() {
        let v = outer();
        let bytes = super::to_vec(&v).unwrap();
        assert_eq!(bytes, oracle::to_vec(&v).unwrap());
        let mut w = Vec::new();
        super::to_writer(&mut w, &v).unwrap();
        assert_eq!(w, bytes);
        let native: Outer = super::from_slice(&bytes).unwrap();
        let dynamic: Outer = oracle::from_slice(&bytes).unwrap();
        assert_eq!(native, v);
        assert_eq!(dynamic, v);
        let streamed: Outer = super::from_reader(&bytes[..]).unwrap();
        assert_eq!(streamed, v);
    }

    #[test]
    fn unknown_length_sequences_are_counted() {
        struct Iter(u32);
        impl Serialize for Iter {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq((0..self.0).filter(|i| i % 2 == 0))
            }
        }
        for n in [0, 1, 7, 20_000] {
            let bytes = super::to_vec(&Iter(n)).unwrap();
            assert_eq!(bytes, oracle::to_vec(&Iter(n)).unwrap(), "{n}");
            let mut w = Vec::new();
            super::to_writer(&mut w, &Iter(n)).unwrap();
            assert_eq!(w, bytes);
        }
    }

    #[test]
    fn a_sequence_that_miscounts_writes_the_elements_there_are() {
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
            let bytes = super::to_vec(&Liar(n)).unwrap();
            assert_eq!(bytes, oracle::to_vec(&Liar(n)).unwrap(), "{n}");
            assert_eq!(super::from_slice::<Vec<u64>>(&bytes).unwrap().len(), n);
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
        let e = super::to_writer(std::io::sink(), &Big).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Unencodable(_)), "{e}");
    }

    #[test]
    fn shared_values_become_references() {
        let a = Shared::new(Inner { a: 9, b: None });
        let v = vec![a.clone(), a.clone(), Shared::new(Inner { a: 9, b: None }), a];
        let bytes = super::to_vec(&v).unwrap();
        // the list is reference 0, the first Inner 1
        assert_eq!(String::from_utf8_lossy(&bytes).matches("<ref>1</ref>").count(), 2);
        let back: Vec<Shared<Inner>> = super::from_slice(&bytes).unwrap();
        assert!(std::sync::Arc::ptr_eq(&back[0].0, &back[1].0));
        assert!(std::sync::Arc::ptr_eq(&back[0].0, &back[3].0));
        assert!(!std::sync::Arc::ptr_eq(&back[0].0, &back[2].0));
        assert_eq!(back, v);
        // into plain types: copies
        let plain: Vec<Inner> = super::from_slice(&bytes).unwrap();
        assert_eq!(plain.len(), 4);
        assert_eq!(plain[3], Inner { a: 9, b: None });
    }

    #[test]
    fn errors_carry_offsets() {
        let bytes = super::to_vec(&Inner { a: 1, b: None }).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        let e = super::from_slice::<(u8,)>(&bytes).unwrap_err();
        assert_eq!(e.offset(), 0, "{e}");
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct Wrong {
            a: i32,
            b: i32,
        }
        let e = super::from_slice::<Wrong>(&bytes).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{e}");
        assert_eq!(e.offset() as usize, text.find("<null>").unwrap(), "{e}");
    }
}
