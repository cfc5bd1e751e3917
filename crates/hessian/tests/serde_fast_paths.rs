//! The serde decoder reads common scalar forms and short ASCII strings straight from the buffered
//! input and takes its general path for everything else. These tests decode every wire form of
//! every scalar into every Rust type both ways (from a slice, where the fast paths apply, and from
//! a reader that delivers one byte at a time, where they mostly cannot) and require the same
//! value or the same typed error with the same offset.

use hessian::serde::{from_reader, from_slice, from_slice_with_limits, Date};
use hessian::{h2, ErrorKind, Limits, Value};
use hessian_testkit::structs::{self, Item};
use serde::de::DeserializeOwned;
use std::fmt::Debug;
use std::io::Read;

/// A reader that hands out one byte per `read` call.
struct ByteByByte<'a>(&'a [u8]);

impl Read for ByteByByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(out)) => {
                *out = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

fn scalars() -> Vec<Value> {
    let mut v = vec![Value::Null, Value::Bool(true)];
    for i in [-16, -1, 0, 47, 48, -17, -2048, 2047, 2048, -2049, -262_144, 262_143, 262_144, i32::MIN, i32::MAX] {
        v.push(Value::Int(i));
    }
    for l in [
        -8,
        15,
        16,
        -9,
        -2048,
        2047,
        2048,
        -262_144,
        262_143,
        262_144,
        i64::from(i32::MIN),
        i64::from(i32::MAX),
        i64::from(i32::MAX) + 1,
        i64::MIN,
        i64::MAX,
    ] {
        v.push(Value::Long(l));
    }
    for d in [0.0, -0.0, 1.0, 127.0, -128.0, 128.0, 32767.0, -32768.0, 1.25, 0.1, 0.001, -2.5, 1e300, f64::NAN] {
        v.push(Value::Double(d));
    }
    for t in [0, 60_000, -60_000, 1_200_000_000_000, 1_200_000_000_001, i64::MAX] {
        v.push(Value::Date(t));
    }
    for s in [
        String::new(),
        "a".into(),
        "x".repeat(31),
        "y".repeat(32),
        "z".repeat(1023),
        "w".repeat(1024),
        "v".repeat(40_000),
        "é".into(),
        "ascii then é".into(),
        "😀".into(),
        "\u{7f}".into(),
    ] {
        v.push(Value::string(s));
    }
    v
}

/// The decoded value (or the error) as text, for comparing the two paths.
fn both_ways<T: DeserializeOwned + Debug>(bytes: &[u8]) -> (String, String) {
    let slice = format!("{:?}", from_slice::<T>(bytes));
    let stream = format!("{:?}", from_reader::<_, T>(ByteByByte(bytes)));
    (slice, stream)
}

fn check<T: DeserializeOwned + Debug>(what: &str, v: &Value, bytes: &[u8]) {
    let (slice, stream) = both_ways::<T>(bytes);
    // `from_reader` stops after the value; `from_slice` also checks for trailing bytes, which
    // there are none of here.
    assert_eq!(slice, stream, "{what} from {v:?} ({bytes:02x?})");
}

#[test]
fn every_scalar_form_decodes_alike_from_slices_and_streams() {
    for v in scalars() {
        let bytes = h2::to_vec(&v).unwrap();
        check::<i8>("i8", &v, &bytes);
        check::<i16>("i16", &v, &bytes);
        check::<i32>("i32", &v, &bytes);
        check::<i64>("i64", &v, &bytes);
        check::<i128>("i128", &v, &bytes);
        check::<u8>("u8", &v, &bytes);
        check::<u16>("u16", &v, &bytes);
        check::<u32>("u32", &v, &bytes);
        check::<u64>("u64", &v, &bytes);
        check::<u128>("u128", &v, &bytes);
        check::<f32>("f32", &v, &bytes);
        check::<f64>("f64", &v, &bytes);
        check::<Date>("Date", &v, &bytes);
        check::<String>("String", &v, &bytes);
        check::<Option<i64>>("Option<i64>", &v, &bytes);
        check::<Option<String>>("Option<String>", &v, &bytes);
    }
}

#[test]
fn scalar_forms_decode_to_their_values() {
    for v in scalars() {
        let bytes = h2::to_vec(&v).unwrap();
        match v {
            Value::Int(i) => {
                assert_eq!(from_slice::<i64>(&bytes).unwrap(), i64::from(i));
                assert_eq!(from_slice::<i32>(&bytes).unwrap(), i);
                assert_eq!(from_slice::<f64>(&bytes).unwrap(), f64::from(i));
            }
            Value::Long(l) => {
                assert_eq!(from_slice::<i64>(&bytes).unwrap(), l);
                assert_eq!(from_slice::<Date>(&bytes).unwrap(), Date(l));
                match i32::try_from(l) {
                    Ok(i) => assert_eq!(from_slice::<i32>(&bytes).unwrap(), i),
                    Err(_) => {
                        assert!(matches!(from_slice::<i32>(&bytes).unwrap_err().kind(), ErrorKind::OutOfRange { .. }))
                    }
                }
            }
            Value::Double(d) => {
                let back = from_slice::<f64>(&bytes).unwrap();
                assert!(back == d || (back.is_nan() && d.is_nan()), "{d} decoded as {back}");
            }
            Value::Date(t) => assert_eq!(from_slice::<Date>(&bytes).unwrap(), Date(t)),
            Value::String(ref s) => assert_eq!(&from_slice::<String>(&bytes).unwrap(), s),
            _ => {}
        }
    }
}

#[test]
fn w1_decodes_alike_from_slices_and_streams() {
    let items = structs::items(300);
    let bytes = hessian::to_vec(&items).unwrap();
    assert_eq!(from_slice::<Vec<Item>>(&bytes).unwrap(), items);
    assert_eq!(from_reader::<_, Vec<Item>>(ByteByByte(&bytes)).unwrap(), items);
    assert_eq!(from_reader::<_, Vec<Item>>(&bytes[..]).unwrap(), items);
}

#[test]
fn every_truncation_of_w1_is_an_error_both_ways() {
    let bytes = hessian::to_vec(&structs::items(3)).unwrap();
    for cut in 0..bytes.len() {
        let part = &bytes[..cut];
        // (A slice knows how much input is left and may report a declared length past its end
        // where a stream reports the end of the input: the kinds may differ, not the outcome.)
        let slice = from_slice::<Vec<Item>>(part).unwrap_err();
        let stream = from_reader::<_, Vec<Item>>(ByteByByte(part)).unwrap_err();
        assert!(slice.offset() <= cut as u64 && stream.offset() <= cut as u64, "cut at {cut}: {slice} / {stream}");
    }
}

#[test]
fn the_string_limit_holds_on_the_fast_path() {
    let bytes = hessian::to_vec(&structs::items(2)).unwrap();
    let limits = |n| Limits::default().with_max_string_len(n);
    let e = from_slice_with_limits::<Vec<Item>>(&bytes, limits(39)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "string length", .. }), "{e}");
    assert_eq!(from_slice_with_limits::<Vec<Item>>(&bytes, limits(40)).unwrap(), structs::items(2));
}

/// An object whose class lists exactly the struct's fields goes to the visitor as a sequence;
/// it is left when its last field has been read, or else after the visitor (the fields it did
/// not read skipped and checked; a struct without fields). With a nesting limit that leaves
/// room for exactly one object at a time, a list of them decodes only if each one was left.
mod objects_as_sequences {
    use super::*;
    use serde::de::{self, Deserializer, SeqAccess, Visitor};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "t.Pair")]
    struct Pair {
        a: i32,
        b: String,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "t.Empty")]
    struct Empty {}

    /// Reads only the first of `t.Pair`'s two fields.
    #[derive(Debug, PartialEq)]
    struct FirstOnly(i32);

    impl<'de> Deserialize<'de> for FirstOnly {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = FirstOnly;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("t.Pair")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<FirstOnly, A::Error> {
                    let a = s.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                    Ok(FirstOnly(a))
                }
            }
            d.deserialize_struct("t.Pair", &["a", "b"], V)
        }
    }

    fn pairs() -> (Vec<Pair>, i32) {
        (vec![Pair { a: 1, b: "x".into() }, Pair { a: 2, b: "y".into() }, Pair { a: 3, b: "z".into() }], 7)
    }

    /// The tuple, the list and one object.
    fn one_object_deep() -> Limits {
        Limits::default().with_max_depth(3)
    }

    #[test]
    fn a_struct_read_to_its_last_field_leaves_its_object() {
        let bytes = hessian::to_vec(&pairs()).unwrap();
        assert_eq!(from_slice_with_limits::<(Vec<Pair>, i32)>(&bytes, one_object_deep()).unwrap(), pairs());
        let shallow = Limits::default().with_max_depth(2);
        assert!(from_slice_with_limits::<(Vec<Pair>, i32)>(&bytes, shallow).is_err());
    }

    #[test]
    fn fields_a_visitor_leaves_are_skipped_and_its_object_left() {
        let bytes = hessian::to_vec(&pairs()).unwrap();
        let v: (Vec<FirstOnly>, i32) = from_slice_with_limits(&bytes, one_object_deep()).unwrap();
        assert_eq!(v, (vec![FirstOnly(1), FirstOnly(2), FirstOnly(3)], 7));
        let (slice, stream) = both_ways::<(Vec<FirstOnly>, i32)>(&bytes);
        assert_eq!((slice.as_str(), stream.as_str()), (format!("Ok({v:?})").as_str(), format!("Ok({v:?})").as_str()));
        // the field left unread is still read: the input cut inside it is an error
        let cut = bytes.iter().position(|&b| b == b'y').unwrap();
        assert!(from_slice::<(Vec<FirstOnly>, i32)>(&bytes[..cut]).is_err());
    }

    #[test]
    fn a_struct_without_fields_leaves_its_object() {
        let v = (vec![Empty {}, Empty {}, Empty {}], 7);
        let bytes = hessian::to_vec(&v).unwrap();
        assert_eq!(from_slice_with_limits::<(Vec<Empty>, i32)>(&bytes, one_object_deep()).unwrap(), v);
    }
}
