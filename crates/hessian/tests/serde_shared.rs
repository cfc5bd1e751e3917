//! Properties of the native serde layers of Hessian 2.0, Hessian 1.0.2 and Burlap 1.0 (one
//! serializer and one deserializer for the three), each written once as `fn prop<F: Format>()`
//! and run for every format where it holds (a test's doc comment says why a format is left
//! out); what differs between formats is behind `common::serde_formats::Format` or a small
//! per-format table. Covered:
//! - bytes: the native bytes are the dynamic path's (`FORMAT::to_vec(&to_value(v))`) for every
//!   scalar and compound type of `docs/serde-mapping.md` (`common/serde_types.rs`), the
//!   catalogue's values and the W1-W3 structs, and both decoders give the value back; sequences
//!   that do not say their length are counted; shared values become references;
//! - decoding: inputs shaped as Java writes them decode as the dynamic path decodes them; what a
//!   visitor leaves unread is skipped; dates decode into chrono's and time's types;
//! - errors: truncated input is an error inside it; a wrong field, an overflow, a missing or
//!   unknown field or variant are reported at their value's offset; dates out of chrono's and
//!   time's range at the date's;
//! - limits: the configured limits, declared list lengths, the depth limit;
//! - API: the `Serializer` and `Deserializer` types (several values, trailing bytes, readers,
//!   limits, `reset`, a decoder underneath), strings and bytes borrowed from the input.
//!
//! (`serde_h2.rs`, `serde_h1.rs` and `serde_burlap.rs` keep what only one format has: Hessian 2's
//! class definitions, Hessian 1's chunks and codes, Burlap's XML quirks, each format's mutation
//! and arbitrary-input tests.)

mod common;

use common::serde_formats::*;
use common::serde_types::*;
use hessian::serde::de::Deserializer;
use hessian::serde::{to_value, Date, Shared};
use hessian::token::TokenRead;
use hessian::{ErrorKind, Limits, Value};
use hessian_testkit::{structs, workloads};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::sync::Arc;

fn sequences_are_counted<F: Format>() {
    struct Evens(u32);
    impl Serialize for Evens {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq((0..self.0).filter(|i| i % 2 == 0))
        }
    }
    impl Debug for Evens {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "Evens({})", self.0)
        }
    }
    for n in [0, 1, 2, 9, 100_000] {
        let bytes = same_bytes::<F, _>(&Evens(n));
        let back: Vec<u32> = F::from_slice(&bytes).unwrap();
        assert_eq!(back.len(), n.div_ceil(2) as usize, "{}", F::NAME);
        // nested, and through a writer that receives the output in pieces
        let nested = [Evens(n), Evens(3)];
        let bytes = same_bytes::<F, _>(&nested[..]);
        let mut w = Vec::new();
        F::to_writer(&mut w, &nested[..]).unwrap();
        assert_eq!(w, bytes, "{}", F::NAME);
    }
}

/// (Not Hessian 2: it writes a sequence without a length as a variable-length list, `W … Z`,
/// rather than counting it.)
#[test]
fn sequences_without_a_length_are_counted() {
    sequences_are_counted::<H1>();
    sequences_are_counted::<Burlap>();
}

fn workload_structs<F: Format>() {
    let name = F::NAME;
    // (17: past Hessian 2's compact list lengths)
    for n in [0, 1, 10, 17, 5000] {
        let ours = check::<F, _>(&structs::items(n));
        assert_eq!(ours, F::value_to_vec(&workloads::items(n)).unwrap(), "{name}: W1 items({n})");
    }
    let w2 = workloads::W2Classes::default();
    assert_eq!(check::<F, _>(&structs::w2::request()), F::value_to_vec(&w2.request()).unwrap(), "{name}");
    assert_eq!(check::<F, _>(&structs::w2::reply()), F::value_to_vec(&w2.reply()).unwrap(), "{name}");
    let money = workloads::money(&workloads::money_class(), 1000);
    assert_eq!(check::<F, _>(&structs::money()), F::value_to_vec(&money).unwrap(), "{name}");
    assert_eq!(check::<F, _>(&structs::moneys(10000)), F::value_to_vec(&workloads::moneys(10000)).unwrap(), "{name}");
    let hand: Vec<structs::MoneyCents> = (0..100).map(|i| structs::MoneyCents::of(i * 100)).collect();
    check::<F, _>(&hand);
    // Java's W3 (cents and text) decodes into the hand-written type, which skips the text
    let full = F::value_to_vec(&workloads::moneys(100)).unwrap();
    assert_eq!(same_decode::<F, Vec<structs::MoneyCents>>(&full), hand, "{name}");
}

#[test]
fn workload_structs_write_the_value_encoders_bytes() {
    workload_structs::<H2>();
    workload_structs::<H1>();
    workload_structs::<Burlap>();
}

fn scalars<F: Format>() {
    for v in [
        Scalars {
            a: -128,
            b: 32767,
            c: i32::MIN,
            d: i64::MAX,
            e: 255,
            f: 65535,
            g: u32::MAX,
            h: i64::MAX as u64,
            i: 1.5,
            j: -0.0,
            k: true,
            l: '😀',
            m: "héllo, wörld 😀".into(),
            n: Some(0),
            o: None,
            p: (),
            q: vec![0, 1, 255],
            r: i64::MIN.into(),
            s: 0,
        },
        Scalars {
            a: 0,
            b: -1,
            c: 0,
            d: -1,
            e: 0,
            f: 0,
            g: 0,
            h: 0,
            i: f32::MAX,
            j: f64::INFINITY,
            k: false,
            l: '\0',
            m: String::new(),
            n: None,
            o: Some("x".into()),
            p: (),
            q: Vec::new(),
            r: 1,
            s: i64::MAX as u128,
        },
        Scalars {
            a: -128,
            b: 32767,
            c: i32::MIN,
            d: i64::MAX,
            e: 255,
            f: 65535,
            g: u32::MAX,
            h: i64::MAX as u64,
            i: 1.5,
            j: -0.125,
            k: true,
            l: '😀',
            m: "héllo wörld 😀".into(),
            n: None,
            o: Some("x".into()),
            p: (),
            q: vec![0, 1, 2, 255],
            r: -5,
            s: 7,
        },
    ] {
        check::<F, _>(&v);
    }
    // every scalar alone
    check::<F, _>(&true);
    check::<F, _>(&i8::MIN);
    check::<F, _>(&i16::MAX);
    check::<F, _>(&-7i32);
    check::<F, _>(&(1i64 << 40));
    check::<F, _>(&200u8);
    check::<F, _>(&u16::MAX);
    check::<F, _>(&u32::MAX);
    check::<F, _>(&(u64::MAX >> 1));
    check::<F, _>(&i128::from(i64::MIN));
    check::<F, _>(&u128::from(u64::MAX >> 1));
    check::<F, _>(&0.1f32);
    check::<F, _>(&-1e300f64);
    check::<F, _>(&'x');
    check::<F, _>(&"plain".to_string());
    check::<F, _>(&serde_bytes::ByteBuf::from(vec![9u8; 5]));
    check::<F, _>(&());
    check::<F, _>(&Unit);
    check::<F, _>(&Newtype(5));
    check::<F, _>(&Some(3u8));
    check::<F, _>(&None::<String>);
    same_bytes::<F, _>(&f64::NAN);
    same_bytes::<F, _>(&f32::NAN);
    same_bytes::<F, _>("borrowed str");
    // out of the range of a long: unencodable either way
    assert!(matches!(F::to_vec(&u64::MAX).unwrap_err().kind(), ErrorKind::Unencodable(_)));
    assert!(oracle_bytes::<F, _>(&u64::MAX).is_err());
    assert!(F::to_vec(&i128::MAX).is_err());
    assert!(F::to_vec(&u128::MAX).is_err());
}

#[test]
fn scalars_write_the_dynamic_paths_bytes() {
    scalars::<H2>();
    scalars::<H1>();
    scalars::<Burlap>();
}

fn compound_types<F: Format>() {
    check::<F, _>(&compound());
    check::<F, _>(&(1u8, "two".to_string(), [3.0f64, 4.0], Some(Color::Red)));
    check::<F, _>(&Tuple(9, "nine".into(), None));
    check::<F, _>(&vec![
        Shape::Dot,
        Shape::Circle(0.0),
        Shape::Rect(-1.0, 1.0),
        Shape::Poly { sides: 0, name: "".into() },
    ]);
    check::<F, _>(&vec![(1u8, Shape::Dot), (2, Shape::Circle(-0.5))]);
    check::<F, _>(&HashMap::from([(1i32, "a".to_string()), (2, "b".into()), (3, "c".into())]));
    check::<F, _>(&BTreeMap::from([(1i64, vec![Some(Color::Green), None])]));
    check::<F, _>(&HashMap::from([("only".to_string(), Date(0))]));
    check::<F, _>(&vec![Point { x: 1, y: -1 }, Point { x: 2, y: 0 }]);
    check::<F, _>(&Stamp {
        at: std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_200_000_000_000),
        maybe: None,
    });
    check::<F, _>(&vec![Sparse { id: 1, note: None }, Sparse { id: 2, note: Some("n".into()) }]);
    check::<F, _>(&Generic { items: vec![1u8, 2], first: Some(1) });
    check::<F, _>(&Generic { items: vec![Generic { items: vec!["s".to_string()], first: None }], first: None });
    check::<F, _>(&vec![Tagged::A { n: 1 }, Tagged::B { s: "b".into() }]);
    check::<F, _>(&vec![Untagged::Num(1), Untagged::Text("t".into()), Untagged::List(vec![Untagged::Num(-5)])]);
    // nested options: `Some(None)` is null, as in every Hessian mapping
    for v in [None, Some(None), Some(Some(None)), Some(Some(Some(7i32)))] {
        let bytes = same_bytes::<F, _>(&v);
        same_decode::<F, Option<Option<Option<i32>>>>(&bytes);
    }
    // every mapped value: `Value` fields are written by the format's value encoder
    for (name, v) in common::cases() {
        let expected = F::value_to_vec(&v).unwrap();
        assert_eq!(same_bytes::<F, _>(&v), expected, "{}: {name}", F::NAME);
        let native = F::from_slice::<Value>(&expected).unwrap();
        assert_eq!(
            format!("{native:?}"),
            format!("{:?}", F::value_from_slice(&expected).unwrap()),
            "{}: {name}",
            F::NAME
        );
    }
}

/// (Not Hessian 2: it has no remote code, so the remote in `compound()` comes back as the
/// object Java writes for one; `serde_h2.rs` round-trips its own compound.)
#[test]
fn compound_types_write_the_dynamic_paths_bytes() {
    compound_types::<H1>();
    compound_types::<Burlap>();
}

/// Shared values are written once and then as references to it, which the dynamic path would
/// have copied: its bytes with the copies replaced by references are ours; they decode back
/// with the sharing, from a slice and from a reader. A reference to a value decoded into a
/// plain type is copied from a slice and an error from a stream; one out of range is an error.
fn shared_values_are_written_once_then_referenced<F: Format>() {
    let name = F::NAME;
    let home = Shared::new(Address { city: "London".into() });
    let tags = Shared::new(vec!["a".to_string()]);
    // `extra` opens two references (a list holding a map): the person is 0, the list 1, the map
    // 2, the address 3, the tags 4
    let extra = Value::list(vec![Value::map(vec![(Value::Int(1), Value::Null)])]);
    let p = Person { extra, home: home.clone(), work: home.clone(), tags: tags.clone(), again: tags.clone() };
    let ours = F::to_vec(&p).unwrap();
    let Value::Object(mut o) = to_value(&p).unwrap() else { panic!("an object") };
    o.fields[2] = Value::Ref(3);
    o.fields[4] = Value::Ref(4);
    assert_eq!(ours, F::value_to_vec(&Value::Object(o)).unwrap(), "{name}");
    let back: Person = F::from_slice(&ours).unwrap();
    assert_eq!(back, p, "{name}");
    assert!(Arc::ptr_eq(&back.home.0, &back.work.0), "{name}");
    assert!(Arc::ptr_eq(&back.tags.0, &back.again.0), "{name}");
    let streamed: Person = F::from_reader(&ours).unwrap();
    assert!(Arc::ptr_eq(&streamed.home.0, &streamed.work.0), "{name}");
    // the dynamic path cannot decode references into structs
    assert!(oracle_decode::<F, Person>(&ours).is_err(), "{name}");

    // shared values in a list, a distinct but equal value, and a scalar (never a reference)
    let n = Shared::new(5i32);
    let list = vec![(home.clone(), n.clone()), (Shared::new(Address { city: "London".into() }), n.clone()), (home, n)];
    let ours = F::to_vec(&list).unwrap();
    let Value::List(mut l) = to_value(&list).unwrap() else { panic!("a list") };
    // list 0, tuple 1, address 2, tuple 3, address 4, tuple 5: the third address refers to 2
    let Value::List(t) = &mut l.items[2] else { panic!("a tuple") };
    t.items[0] = Value::Ref(2);
    assert_eq!(ours, F::value_to_vec(&Value::List(l)).unwrap(), "{name}");
    let back: Vec<(Shared<Address>, Shared<i32>)> = F::from_slice(&ours).unwrap();
    assert_eq!(back, list, "{name}");
    assert!(Arc::ptr_eq(&back[0].0 .0, &back[2].0 .0), "{name}");
    assert!(!Arc::ptr_eq(&back[0].0 .0, &back[1].0 .0), "{name}");

    // a value that appears once is written as the dynamic path writes it
    check::<F, _>(&vec![Shared::new(Address { city: "x".into() }), Shared::new(Address { city: "y".into() })]);

    // a reference to something that was not decoded as Shared: from a slice, a copy read
    // again from where the list starts (empty or not); from a stream, an error at the reference
    for inner in [vec![], vec![Value::Int(7)]] {
        let plain: Vec<i32> = inner.iter().map(|v| if let Value::Int(i) = v { *i } else { 0 }).collect();
        let bytes = F::value_to_vec(&Value::list(vec![Value::list(inner), Value::Ref(1)])).unwrap();
        let (a, b) = F::from_slice::<(Vec<i32>, Shared<Vec<i32>>)>(&bytes).unwrap();
        assert_eq!((&a, b.0.as_ref()), (&plain, &plain), "{name}");
        let e = F::from_reader::<(Vec<i32>, Shared<Vec<i32>>)>(&bytes).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{name}: {e}");
        assert_eq!(e.offset(), find(&bytes, F::REF), "{name}");
    }
    // and one out of range, at the reference (Hessian 1) or where the reader stopped after it
    let bytes = F::value_to_vec(&Value::list(vec![Value::Ref(1)])).unwrap();
    let e = F::from_slice::<Vec<Shared<Vec<i32>>>>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::RefOutOfRange { index: 1, len: 1 }), "{name}: {e}");
    assert_eq!(e.offset(), F::ref_error_at(&bytes), "{name}");
}

#[test]
fn shared_values_are_written_once_then_referenced_in_every_format() {
    shared_values_are_written_once_then_referenced::<H2>();
    shared_values_are_written_once_then_referenced::<H1>();
    shared_values_are_written_once_then_referenced::<Burlap>();
}

/// Every cut of a message is an error inside the input, natively, through the dynamic path,
/// from a reader and skipping; a value cut short is an end-of-input error where it stops.
fn truncated_input_is_an_error_inside_the_input<F: Format>() {
    let name = F::NAME;
    let bytes = F::to_vec(&compound()).unwrap();
    for cut in 0..bytes.len() {
        let input = &bytes[..cut];
        let e = F::from_slice::<Compound>(input).unwrap_err();
        assert!(e.offset() <= cut as u64, "{name}: cut at {cut}: {e}");
        assert!(oracle_decode::<F, Compound>(input).is_err(), "{name}");
        assert!(F::from_reader::<Compound>(input).is_err(), "{name}: cut at {cut}");
        assert!(F::from_slice::<IgnoredAny>(input).is_err(), "{name}: cut at {cut}");
    }
    for cut_list in [false, true] {
        let v = if cut_list { Value::list(vec![Value::Int(1)]) } else { Value::Int(12) };
        let whole = F::value_to_vec(&v).unwrap();
        // the int without its last byte (or its end tag), the list without its end
        let end = if cut_list { whole.len() - F::LIST_END.len() } else { whole.len() - F::INT_END.len() };
        let input = &whole[..end];
        let e = if cut_list {
            F::from_slice::<Vec<i32>>(input).map(drop).unwrap_err()
        } else {
            F::from_slice::<i32>(input).map(drop).unwrap_err()
        };
        assert!(matches!(e.kind(), ErrorKind::UnexpectedEof), "{name}: {e}");
        assert_eq!(e.offset(), end as u64, "{name}: {}", F::show(input));
    }
}

#[test]
fn truncated_input_is_an_error_inside_the_input_in_every_format() {
    truncated_input_is_an_error_inside_the_input::<H2>();
    truncated_input_is_an_error_inside_the_input::<H1>();
    truncated_input_is_an_error_inside_the_input::<Burlap>();
}

#[derive(Serialize)]
#[serde(rename = "T")]
struct Three {
    a: i32,
    b: String,
    c: String,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "T")]
#[allow(dead_code)]
struct ThreeInts {
    a: i32,
    b: String,
    c: i32,
}

/// A value of the wrong type in a field is an error at the offset where that value starts (the
/// dynamic path knew no offset), in a struct of its own, in the second struct of a tuple and
/// from a reader; so is a list where a number belongs.
fn a_wrong_field_reports_the_offset_of_its_value<F: Format>() {
    let name = F::NAME;
    let bytes = F::to_vec(&Three { a: 1, b: "xy".into(), c: "zz".into() }).unwrap();
    let c_value = F::string_at(&bytes, "zz");
    let e = F::from_slice::<ThreeInts>(&bytes).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::InvalidType { expected, found } if expected == "i32" && found == "string"),
        "{name}: {e}"
    );
    assert_eq!(e.offset(), c_value, "{name}: {e}");
    assert_eq!(
        oracle_decode::<F, ThreeInts>(&bytes).unwrap_err().offset(),
        0,
        "{name}: the dynamic path knew no offset"
    );
    // the same in the second struct of a tuple
    #[derive(Serialize)]
    #[serde(rename = "T")]
    struct ThreeOk {
        a: i32,
        b: String,
        c: i32,
    }
    let pair =
        F::to_vec(&(ThreeOk { a: 1, b: "xy".into(), c: 3 }, Three { a: 2, b: "xy".into(), c: "zz".into() })).unwrap();
    let e = F::from_slice::<(ThreeInts, ThreeInts)>(&pair).unwrap_err();
    assert_eq!(e.offset(), F::string_at(&pair, "zz"), "{name}: {e}");
    // (in Hessian 1: `M t 0 1 T` 5, `S 0 1 a` 4, `I` 5, `S 0 1 b` 4, `S 0 2 xy` 5, `S 0 1 c` 4:
    // c's value at 27; in the tuple after the 6-byte list header and the first struct, as long
    // as the second)
    if F::NAME == H1::NAME {
        assert_eq!(c_value, 27);
        assert_eq!(e.offset(), 6 + bytes.len() as u64 + c_value, "{name}: {e}");
    }
    // and from a reader
    let e = F::from_reader::<ThreeInts>(&bytes).unwrap_err();
    assert_eq!(e.offset(), c_value, "{name}: {e}");
    // a list where a number belongs: at the inner list
    let list = F::value_to_vec(&Value::list(vec![Value::Int(1), Value::list(vec![])])).unwrap();
    let inner = F::value_to_vec(&Value::list(vec![])).unwrap();
    let at = list.windows(inner.len()).rposition(|w| w == inner.as_slice()).unwrap() as u64;
    let e = F::from_slice::<(i32, i32)>(&list).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{name}: {e}");
    assert_eq!(e.offset(), at, "{name}: {e}");
    if F::NAME == Burlap::NAME {
        // also as an empty element
        let e = F::from_slice::<(i32, i32)>(b"<list><int>1</int><list/></list>").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{e}");
        assert_eq!(e.offset(), 18);
    }
}

#[test]
fn a_wrong_field_reports_the_offset_of_its_value_in_every_format() {
    a_wrong_field_reports_the_offset_of_its_value::<H2>();
    a_wrong_field_reports_the_offset_of_its_value::<H1>();
    a_wrong_field_reports_the_offset_of_its_value::<Burlap>();
}

/// What a visitor leaves unread is skipped and checked, as the dynamic path ignores it: the
/// elements of a longer list after a tuple's or an array's (of fixed or variable length, and
/// still read to the end: a bad element after them is an error), the entries of a map after a
/// struct's fields, and the content of a unit variant written as a one-entry map.
fn what_a_visitor_leaves_unread_is_skipped<F: Format>() {
    let name = F::NAME;
    let ints = vec![Value::Int(1), Value::Int(2), Value::list(vec![Value::Int(3)])];
    let variable = hessian::value::List { type_name: None, fixed_length: false, items: ints.clone() };
    for list in [Value::list(ints), Value::List(Box::new(variable))] {
        let bytes = F::value_to_vec(&list).unwrap();
        assert_eq!(same_decode::<F, (i32, i32)>(&bytes), (1, 2), "{name}: {}", F::show(&bytes));
        assert_eq!(same_decode::<F, [i32; 1]>(&bytes), [1], "{name}");
        // the rest is read to its end: a reference out of range in it is an error
        let bad = F::value_to_vec(&Value::list(vec![Value::Int(1), Value::Int(2), Value::Ref(7)])).unwrap();
        let e = F::from_slice::<(i32, i32)>(&bad).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::RefOutOfRange { index: 7, .. }), "{name}: {e}");
        assert!(oracle_decode::<F, (i32, i32)>(&bad).is_err(), "{name}");
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct A {
        a: i32,
    }
    let map = Value::map(vec![
        (Value::string("a"), Value::Int(1)),
        (Value::string("b"), Value::list(vec![Value::Int(2)])),
        (Value::string("c"), Value::Null),
    ]);
    assert_eq!(same_decode::<F, A>(&F::value_to_vec(&map).unwrap()), A { a: 1 }, "{name}");
    for content in [Value::Null, Value::Int(5), Value::list(vec![Value::string("x")])] {
        let unit = F::value_to_vec(&Value::map(vec![(Value::string("Red"), content)])).unwrap();
        assert_eq!(same_decode::<F, Color>(&unit), Color::Red, "{name}: {}", F::show(&unit));
    }
}

#[test]
fn what_a_visitor_leaves_unread_is_skipped_in_every_format() {
    what_a_visitor_leaves_unread_is_skipped::<H2>();
    what_a_visitor_leaves_unread_is_skipped::<H1>();
    what_a_visitor_leaves_unread_is_skipped::<Burlap>();
}

// ---- errors and their offsets ----

/// A number out of range of its field, a missing field, an unknown variant or field and a type
/// error at the top are errors at the offset of the value that caused them: the number, the
/// struct that lacks the field, the string naming the variant or the field, the top value.
fn overflow_and_visitor_errors_report_their_offsets<F: Format>() {
    #[derive(Serialize)]
    #[serde(rename = "U")]
    struct Wide {
        a: i32,
        small: i32,
    }
    #[derive(Deserialize, Debug)]
    #[serde(rename = "U")]
    #[allow(dead_code)]
    struct Narrow {
        a: i32,
        small: u8,
    }
    let name = F::NAME;
    let h1 = F::NAME == H1::NAME;
    let bytes = F::to_vec(&Wide { a: 1, small: 300 }).unwrap();
    let e = F::from_slice::<Narrow>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { value: 300, target: "u8" }), "{name}: {e}");
    assert_eq!(e.offset(), value_at::<F>(&bytes, &Value::Int(300)), "{name}: {e}");
    if h1 {
        // `M t 0 1 U` 5, `S 0 1 a` 4, `I` 5, `S 0 5 small` 8: the value at 22
        assert_eq!(e.offset(), 22, "{e}");
    }
    let e = F::from_slice::<i32>(&F::to_vec(&(1i64 << 40)).unwrap()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { value: 1_099_511_627_776, target: "i32" }), "{name}: {e}");
    assert_eq!(e.offset(), 0, "{name}");
    let pair = F::to_vec(&(1, -1i64)).unwrap();
    let e = F::from_slice::<(u8, u64)>(&pair).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { value: -1, target: "u64" }), "{name}: {e}");
    assert_eq!(e.offset(), value_at::<F>(&pair, &Value::Long(-1)), "{name}: {e}");
    if h1 {
        assert_eq!(e.offset(), 11, "after `V l n` (6) and `I` (5)");
    }

    // a missing field: the start of the struct
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct NeedsMore {
        a: i32,
        absent: i32,
    }
    let pair = F::to_vec(&(0, Wide { a: 1, small: 2 })).unwrap();
    let e = F::from_slice::<(i32, NeedsMore)>(&pair).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingField("absent")), "{name}: {e}");
    assert_eq!(e.offset(), F::struct_at(&pair, "U"), "{name}: {e}");
    if h1 {
        assert_eq!(e.offset(), 11);
    }
    // an unknown variant or field: the value that named it
    let pair = F::to_vec(&(1, "Blue")).unwrap();
    let e = F::from_slice::<(u8, Color)>(&pair).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnknownVariant(v) if v == "Blue"), "{name}: {e}");
    assert_eq!(e.offset(), F::string_at(&pair, "Blue"), "{name}: {e}");
    if h1 {
        assert_eq!(e.offset(), 11);
    }
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        a: i32,
    }
    let e = F::from_slice::<Strict>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnknownField(f) if f == "small"), "{name}: {e}");
    assert_eq!(e.offset(), F::field_at(&bytes, "U", "small"), "{name}: {e}");
    if h1 {
        assert_eq!(e.offset(), 14);
    }
    // a type error at the top
    let e = F::from_slice::<String>(&F::value_to_vec(&Value::Int(5)).unwrap()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{name}: {e}");
    assert_eq!(e.offset(), 0, "{name}");
}

#[test]
fn overflow_and_visitor_errors_report_their_offsets_in_every_format() {
    overflow_and_visitor_errors_report_their_offsets::<H2>();
    overflow_and_visitor_errors_report_their_offsets::<H1>();
    overflow_and_visitor_errors_report_their_offsets::<Burlap>();
}

#[derive(Serialize)]
#[serde(rename = "com.example.When")]
struct When {
    id: i32,
    at: Date,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.When")]
struct WhenChrono {
    id: i32,
    #[serde(with = "hessian::serde::date::chrono_utc")]
    at: chrono::DateTime<chrono::Utc>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.When")]
struct WhenTime {
    id: i32,
    #[serde(with = "hessian::serde::date::offset_date_time")]
    at: time::OffsetDateTime,
}

/// A date decodes into chrono's and time's types as the dynamic path decodes it.
fn dates_decode_into_chrono_and_time<F: Format>() {
    let bytes = F::to_vec(&When { id: 7, at: Date(1_200_000_000_000) }).unwrap();
    let c = same_decode::<F, WhenChrono>(&bytes);
    assert_eq!(c.at.timestamp_millis(), 1_200_000_000_000, "{}", F::NAME);
    let t = same_decode::<F, WhenTime>(&bytes);
    assert_eq!(t.at.unix_timestamp(), 1_200_000_000, "{}", F::NAME);
}

#[test]
fn dates_decode_into_chrono_and_time_as_the_dynamic_path_decodes_them_in_every_format() {
    dates_decode_into_chrono_and_time::<H2>();
    dates_decode_into_chrono_and_time::<H1>();
    dates_decode_into_chrono_and_time::<Burlap>();
}

/// A date outside chrono's and time's range is an error at the date's offset.
///
/// (Not Burlap: its date is text with a four-digit year, and both its serde and its value
/// encoder write `Date(i64::MAX)` as `<date>89940817T071255.807Z</date>`, a date in chrono's
/// range, without an error, so there is no out-of-range date to decode.)
fn dates_outside_chronos_and_times_range_are_errors_at_the_dates_offset<F: Format>() {
    let name = F::NAME;
    let bytes = F::to_vec(&When { id: 7, at: Date(i64::MAX) }).unwrap();
    let at = value_at::<F>(&bytes, &Value::Date(i64::MAX));
    if F::NAME == H1::NAME {
        // `M t 0 16 com.example.When` 20, `S 0 2 id` 5, `I` 5, `S 0 2 at` 5: the date at 35
        assert_eq!(at, 35);
        assert_eq!(bytes[35], b'd');
    }
    assert_eq!(F::from_slice::<WhenChrono>(&bytes).unwrap_err().offset(), at, "{name}");
    assert_eq!(F::from_slice::<WhenTime>(&bytes).unwrap_err().offset(), at, "{name}");
}

#[test]
fn dates_outside_chronos_and_times_range_are_errors_at_the_dates_offset_in_both_hessians() {
    dates_outside_chronos_and_times_range_are_errors_at_the_dates_offset::<H2>();
    dates_outside_chronos_and_times_range_are_errors_at_the_dates_offset::<H1>();
}

// ---- the limits ----

fn assert_limit<T: Debug>(r: hessian::Result<T>, what: &str) -> hessian::Error {
    match r {
        Err(e) => match e.kind() {
            ErrorKind::LimitExceeded { what: w, .. } if *w == what => e,
            k => panic!("expected the {what} limit, got {k} at {}", e.offset()),
        },
        Ok(v) => panic!("expected the {what} limit, decoded {v:?}"),
    }
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Node {
    next: Option<Box<Node>>,
}

/// The configured limits hold for every kind of value, into plain types and skipping (in
/// Hessian 2 a compact list too, `[1, 2, 3]` as `7b 91 92 93`, which its serde layer once read
/// past `max_collection_len`).
fn configured_limits_hold<F: Format>(nulls: usize) {
    let name = F::NAME;
    let strict = Limits::default()
        .with_max_collection_len(2)
        .with_max_string_len(3)
        .with_max_binary_len(3)
        .with_max_refs(2)
        .with_max_message_size(1000);
    let list = F::to_vec(&vec![1, 2, 3]).unwrap();
    assert_limit(F::from_slice_with_limits::<Vec<i32>>(&list, strict), "collection length");
    assert_limit(F::from_slice_with_limits::<IgnoredAny>(&list, strict), "collection length");
    let map = F::to_vec(&BTreeMap::from([(1, 1), (2, 2), (3, 3)])).unwrap();
    assert_limit(F::from_slice_with_limits::<BTreeMap<i32, i32>>(&map, strict), "collection length");
    let s = F::to_vec("four").unwrap();
    assert_limit(F::from_slice_with_limits::<String>(&s, strict), "string length");
    assert_limit(F::from_slice_with_limits::<&str>(&s, strict), "string length");
    let b = F::to_vec(&serde_bytes::ByteBuf::from(vec![0u8; 4])).unwrap();
    assert_limit(F::from_slice_with_limits::<serde_bytes::ByteBuf>(&b, strict), "binary length");
    let nested = F::to_vec(&vec![vec![vec![0u8]]]).unwrap();
    assert_limit(F::from_slice_with_limits::<Vec<Vec<Vec<u8>>>>(&nested, strict), "references");
    // `nulls` nulls: past the message size
    let nulls = F::NULL.repeat(nulls);
    assert!(nulls.len() > 1000, "{name}");
    assert_limit(F::from_slice_with_limits::<()>(&nulls, strict), "message size");
    assert!(F::from_slice_with_limits::<Vec<i32>>(&F::to_vec(&vec![1, 2]).unwrap(), strict).is_ok(), "{name}");
}

#[test]
fn configured_limits_hold_in_every_format() {
    configured_limits_hold::<H2>(1001);
    configured_limits_hold::<H1>(1001);
    configured_limits_hold::<Burlap>(200);
}

/// How one format nests far deeper than any limit, for [`nesting_ends_at_the_depth_limit`].
struct Nesting {
    /// A list's opening, and how many of them nest far deeper than any limit.
    list: &'static [u8],
    deep: usize,
    /// A map's opening with the key `next` (the field of [`Node`]), its opening's length and
    /// its end.
    map: &'static [u8],
    map_open: usize,
    map_end: &'static [u8],
}

const H2_NESTING: Nesting = Nesting { list: b"W", deep: 200_000, map: b"H\x04next", map_open: 1, map_end: b"Z" };
const H1_NESTING: Nesting =
    Nesting { list: b"V", deep: 200_000, map: b"Mt\x00\x00S\x00\x04next", map_open: 1, map_end: b"z" };
const BURLAP_NESTING: Nesting =
    Nesting { list: b"<list>", deep: 100_000, map: b"<map><string>next</string>", map_open: 5, map_end: b"</map>" };

/// Nesting far deeper than any limit ends at the depth limit, into self-describing types and a
/// recursive struct, just after the opening that went too deep; right up to the limit is fine.
fn nesting_ends_at_the_depth_limit<F: Format>(t: &Nesting) {
    let deep_lists = t.list.repeat(t.deep);
    let deep_maps = t.map.repeat(t.deep);
    for bytes in [&deep_lists, &deep_maps] {
        assert_limit(F::from_slice::<serde_json::Value>(bytes), "depth");
        assert_limit(F::from_slice::<Value>(bytes), "depth");
        assert_limit(F::from_slice::<IgnoredAny>(bytes), "depth");
        assert_limit(F::from_reader::<IgnoredAny>(bytes), "depth");
    }
    let shallow = Limits::default().with_max_depth(32);
    let e = assert_limit(F::from_slice_with_limits::<Node>(&deep_maps, shallow), "depth");
    let after_33rd = (32 * t.map.len() + t.map_open) as u64;
    assert_eq!(e.offset(), after_33rd, "{}: just after the opening of the 33rd map", F::NAME);
    // right up to the limit is fine
    let ok = [t.map.repeat(31), F::NULL.to_vec(), t.map_end.repeat(31)].concat();
    F::from_slice_with_limits::<Node>(&ok, shallow).unwrap();
    same_decode::<F, Node>(&ok);
}

#[test]
fn nesting_ends_at_the_depth_limit_in_every_format() {
    nesting_ends_at_the_depth_limit::<H2>(&H2_NESTING);
    nesting_ends_at_the_depth_limit::<H1>(&H1_NESTING);
    nesting_ends_at_the_depth_limit::<Burlap>(&BURLAP_NESTING);
}

/// A list declaring more elements than the collection limit is refused before anything is
/// allocated (from a reader too); one holding more or fewer elements than it declares is
/// malformed.
///
/// (Not Hessian 2: it finds the declared length longer than the input before it checks the
/// limit, a `LengthPastEnd` error; and its list with a length has no end, it is read by count,
/// so what follows the declared elements is the next value, and fewer elements are an end of
/// input.)
fn declared_list_lengths_are_checked<F: Format>() {
    let name = F::NAME;
    // declared lengths past the limits: refused before anything is allocated
    let (one, end) = (F::value_to_vec(&Value::Int(1)).unwrap(), F::DECLARED_LIST_END.as_bytes());
    let huge = [F::list_declaring(i32::MAX), end.to_vec()].concat();
    assert_limit(F::from_slice::<Vec<i32>>(&huge), "collection length");
    let streamed = [F::list_declaring(i32::MAX), one.clone()].concat();
    assert!(F::from_reader::<Vec<i32>>(&streamed).is_err(), "{name}");
    // a list holding more or fewer elements than it declares
    let fewer = [F::list_declaring(2), one.clone(), end.to_vec()].concat();
    let e = F::from_slice::<Vec<i32>>(&fewer).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{name}: {e}");
    let more = [F::list_declaring(1), one.clone(), one, end.to_vec()].concat();
    let e = F::from_slice::<(i32,)>(&more).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{name}: {e}");
}

#[test]
fn declared_list_lengths_are_checked_in_h1_and_burlap() {
    declared_list_lengths_are_checked::<H1>();
    declared_list_lengths_are_checked::<Burlap>();
}

// ---- the serializer and deserializer types ----

/// Several values in one message, references numbered across them (borrowed or not); trailing
/// bytes; readers that stop after each value; limits through the builder, and `reset`, which
/// forgets references (also in the serializer); a deserializer on a decoder (as inside an
/// envelope).
fn the_deserializer_and_serializer_types<F: Format>() {
    let name = F::NAME;
    // several values in one message, references numbered across them
    let a = Shared::new(vec![1i32]);
    let mut s = F::serializer();
    s.serialize_value(&a).unwrap();
    s.serialize_value(&"between").unwrap();
    s.serialize_value(&a).unwrap();
    let bytes = s.finish().unwrap();
    assert!(bytes.ends_with(&F::value_to_vec(&Value::Ref(0)).unwrap()), "{name}: {}", F::show(&bytes));
    for borrowed in [true, false].into_iter().filter(|&b| F::BORROWS || !b) {
        let mut d = F::deserializer(&bytes);
        let x: Shared<Vec<i32>> = d.deserialize_value().unwrap();
        if borrowed {
            assert_eq!(d.deserialize_value::<&str>().unwrap(), "between", "{name}");
        } else {
            assert_eq!(d.deserialize_value::<String>().unwrap(), "between", "{name}");
        }
        let y: Shared<Vec<i32>> = d.deserialize_value().unwrap();
        assert!(Arc::ptr_eq(&x.0, &y.0), "{name}");
        d.end().unwrap();
    }
    // trailing bytes
    let nulls = F::NULL.repeat(2);
    let mut d = F::deserializer(&nulls);
    d.deserialize_value::<()>().unwrap();
    let e = d.end().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TrailingBytes), "{name}: {e}");
    // at the trailing value (Burlap: where the XML reader stopped, after it)
    let trailing_at = if F::NAME == Burlap::NAME { nulls.len() } else { F::NULL.len() };
    assert_eq!(e.offset(), trailing_at as u64, "{name}");
    assert!(matches!(F::from_slice::<()>(&nulls).unwrap_err().kind(), ErrorKind::TrailingBytes), "{name}");
    // readers stop after the value
    let ints = [F::value_to_vec(&Value::Int(1)).unwrap(), F::value_to_vec(&Value::Int(2)).unwrap()].concat();
    let mut d = F::reader_deserializer(&ints);
    assert_eq!(d.deserialize_value::<i32>().unwrap(), 1, "{name}");
    assert_eq!(d.deserialize_value::<i32>().unwrap(), 2, "{name}");
    d.end().unwrap();
    // limits through the builder; reset forgets references
    let lists = F::EMPTY_LIST.repeat(2);
    let mut d = F::deserializer(&lists).with_limits(Limits::default().with_max_refs(1));
    d.deserialize_value::<Vec<i32>>().unwrap();
    d.reset();
    d.deserialize_value::<Vec<i32>>().unwrap();
    assert_eq!(d.decoder().offset(), lists.len() as u64, "{name}");
    // a deserializer on a decoder (e.g. inside an envelope)
    let three = F::value_to_vec(&Value::Int(3)).unwrap();
    let mut d = Deserializer::new(F::decoder(&three));
    assert_eq!(d.deserialize_value::<u8>().unwrap(), 3, "{name}");
    let mut s = F::serializer();
    s.serialize_value(&a).unwrap();
    s.reset();
    s.serialize_value(&a).unwrap();
    assert_eq!(s.finish().unwrap(), [F::to_vec(&a).unwrap(), F::to_vec(&a).unwrap()].concat(), "{name}");
}

#[test]
fn the_deserializer_and_serializer_types_in_every_format() {
    the_deserializer_and_serializer_types::<H2>();
    the_deserializer_and_serializer_types::<H1>();
    the_deserializer_and_serializer_types::<Burlap>();
}

/// Strings and bytes decoded from a slice into `&str` and `&[u8]` point into the input.
///
/// (Not Burlap: its strings are text copied out of the XML and its bytes base64, so neither can
/// be borrowed; a `&str` is an invalid-type error.)
fn borrowed_strings_and_bytes_come_from_the_input<F: Format>() {
    #[derive(Deserialize)]
    struct Borrowed<'a> {
        #[serde(borrow)]
        name: &'a str,
        #[serde(borrow, with = "serde_bytes")]
        data: &'a [u8],
    }
    #[derive(Serialize)]
    struct Owned {
        name: String,
        #[serde(with = "serde_bytes")]
        data: Vec<u8>,
    }
    let name = F::NAME;
    let bytes = F::to_vec(&Owned { name: "borrowed".into(), data: vec![1, 2, 3] }).unwrap();
    let b: Borrowed = F::from_slice(&bytes).unwrap();
    assert_eq!(b.name, "borrowed", "{name}");
    assert_eq!(b.data, [1, 2, 3], "{name}");
    let at = find(&bytes, "borrowed") as usize;
    assert!(std::ptr::eq(b.name.as_ptr(), bytes[at..].as_ptr()), "{name}");
}

#[test]
fn borrowed_strings_and_bytes_come_from_the_input_in_both_hessians() {
    borrowed_strings_and_bytes_come_from_the_input::<H2>();
    borrowed_strings_and_bytes_come_from_the_input::<H1>();
    let e = Burlap::from_slice::<&str>(b"<string>text</string>").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{e}");
}

// ---- decoding what Java (and others) write ----

/// `v` as the format's value encoder writes it.
fn bytes_of<F: Format>(v: Value) -> Vec<u8> {
    F::value_to_vec(&v).unwrap()
}

/// The entries of a map keyed by strings, as Java writes them.
fn entries<F: Format>(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    entries.iter().flat_map(|(k, v)| [bytes_of::<F>(Value::string(*k)), v.clone()].concat()).collect()
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "org.example.remoting.Item")]
struct ItemSubset {
    // declared in another order than the wire, with fields missing and one optional extra
    updated: Date,
    name: String,
    count: i64,
    #[serde(default)]
    missing: Option<String>,
}

/// Inputs shaped as Java (and other writers) write them decode as the dynamic path decodes
/// them: Java enums, one-entry maps as enums, structs from maps of any type or from lists,
/// lists with or without a length and longer than a tuple, binary as bytes, numbers and dates
/// in each other's forms, maps with other keys, a remote, anything into self-describing types,
/// and references into `Value`.
fn java_shapes_decode_as_the_dynamic_path_decodes_them<F: Format>() {
    let name = F::NAME;
    let (string, int) = (|s: &str| bytes_of::<F>(Value::string(s)), |i: i32| bytes_of::<F>(Value::Int(i)));
    let map = |class: &str, e: &[(&str, Vec<u8>)]| F::typed_map(class, &entries::<F>(e));
    let list = |items: &[Vec<u8>]| [F::LIST_START, &items.concat(), F::LIST_END.as_bytes()].concat();
    let same = |b: &[u8]| F::show(b);
    // a Java enum: the `name` entry anywhere in a map typed with the enum's class
    let red = map("com.example.Color", &[("name", string("Red"))]);
    assert_eq!(same_decode::<F, Color>(&red), Color::Red, "{name}");
    let green = map("com.example.Color", &[("ordinal", int(1)), ("name", string("Green"))]);
    assert_eq!(same_decode::<F, Color>(&green), Color::Green, "{name}");
    assert!(agree::<F, Color>(&map("X", &[("name", int(1))])).is_err(), "{name}");
    assert!(agree::<F, Color>(&map("X", &[("name", string("Blue"))])).is_err(), "{name}");
    // a plain string, a one-entry map (untyped or typed), and what is not an enum
    assert_eq!(same_decode::<F, Color>(&string("Green")), Color::Green, "{name}");
    assert_eq!(same_decode::<F, Shape>(&map("", &[("Circle", int(2))])), Shape::Circle(2.0), "{name}");
    assert_eq!(same_decode::<F, Shape>(&map("T", &[("Circle", int(2))])), Shape::Circle(2.0), "{name}");
    assert_eq!(same_decode::<F, Shape>(&map("", &[("Dot", int(2))])), Shape::Dot, "{name}");
    // (two nulls, the short one and the encoder's)
    let two = map("", &[("Dot", F::NULL.to_vec()), ("Dot", bytes_of::<F>(Value::Null))]);
    assert!(agree::<F, Shape>(&two).is_err(), "{name}: {}", same(&two));
    assert!(agree::<F, Shape>(&map("", &[])).is_err(), "{name}");
    let int_key = F::typed_map("", &[int(1), F::NULL.to_vec()].concat());
    assert!(agree::<F, Shape>(&int_key).is_err(), "{name}: {}", same(&int_key));
    assert!(agree::<F, Shape>(&int(1)).is_err(), "{name}");
    // structs: fields in any order, unknown ones skipped, from a map of any type or a list
    let items = F::value_to_vec(&workloads::items(3)).unwrap();
    let v = same_decode::<F, Vec<ItemSubset>>(&items);
    assert_eq!(v[2].name, structs::padded("name-", 2), "{name}");
    let third = (v[2].count, v[2].updated, v[2].missing.clone());
    assert_eq!(third, (2, Date(1_200_000_002_000 + 86_400_000), None), "{name}");
    let p = map("java.util.HashMap", &[("y", int(2)), ("zz", F::EMPTY_LIST.to_vec()), ("x", int(1))]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct Xy {
        x: i64,
        y: f64,
    }
    assert_eq!(same_decode::<F, Xy>(&p), Xy { x: 1, y: 2.0 }, "{name}");
    let xy = list(&[int(1), bytes_of::<F>(Value::Double(1.0))]);
    assert_eq!(same_decode::<F, Xy>(&xy), Xy { x: 1, y: 1.0 }, "{name}: {}", same(&xy));
    // lists: typed, untyped, with or without a length; longer than a tuple (the rest is
    // skipped); binary as a list of bytes
    let typed = bytes_of::<F>(Value::typed_list("[int", vec![Value::Int(1), Value::Int(2)]));
    assert_eq!(same_decode::<F, Vec<i32>>(&typed), [1, 2], "{name}");
    let three = list(&[int(1), int(2), int(3)]);
    assert_eq!(same_decode::<F, (i8, u8)>(&three), (1, 2), "{name}");
    assert_eq!(same_decode::<F, Vec<u8>>(&bytes_of::<F>(Value::Binary(b"abc".to_vec()))), b"abc", "{name}");
    // a one-character string into a char
    assert_eq!(same_decode::<F, char>(&string("x")), 'x', "{name}");
    assert!(agree::<F, char>(&string("xy")).is_err(), "{name}");
    // numbers, booleans and dates in each other's forms
    let long5 = bytes_of::<F>(Value::Long(5));
    assert_eq!(same_decode::<F, f64>(&int(3)), 3.0, "{name}");
    assert_eq!(same_decode::<F, f32>(&long5), 5.0, "{name}");
    assert_eq!(same_decode::<F, Date>(&long5), Date(5), "{name}");
    assert_eq!(same_decode::<F, Date>(&int(6)), Date(6), "{name}");
    for ms in [5, 7] {
        let date = bytes_of::<F>(Value::Date(ms));
        assert_eq!(same_decode::<F, Date>(&date), Date(ms), "{name}");
        assert!(agree::<F, i64>(&date).is_err(), "{name}");
    }
    assert_eq!(same_decode::<F, i16>(&long5), 5, "{name}");
    assert!(same_decode::<F, bool>(&bytes_of::<F>(Value::Bool(true))), "{name}");
    assert_eq!(same_decode::<F, Option<String>>(F::NULL), None, "{name}");
    // maps with other keys; typed maps into maps; a remote into anything
    let m = F::typed_map("java.util.Hashtable", &[int(1), string("a")].concat());
    assert_eq!(same_decode::<F, BTreeMap<i64, String>>(&m), BTreeMap::from([(1, "a".to_string())]), "{name}");
    let remote =
        bytes_of::<F>(Value::Remote(Box::new(hessian::Remote { type_name: "Api".into(), url: "http".into() })));
    let j = same_decode::<F, serde_json::Value>(&remote);
    assert_eq!(j, serde_json::json!({"type": "Api", "url": "http"}), "{name}");
    // (Hessian 2 has no remote code: its remote is the object Java writes for one, its type and
    // URL as fields, which a map of strings holds)
    let remote_as_map = agree::<F, BTreeMap<String, String>>(&remote);
    assert_eq!(remote_as_map.is_err(), F::NAME != H2::NAME, "{name}: {remote_as_map:?}");
    assert_eq!(same_decode::<F, Value>(&remote), F::value_from_slice(&remote).unwrap(), "{name}");
    // anything into serde's self-describing types and into Value
    let bytes = F::to_vec(&compound()).unwrap();
    let _ = agree::<F, serde_json::Value>(&bytes);
    assert_eq!(same_decode::<F, Value>(&bytes), F::value_from_slice(&bytes).unwrap(), "{name}");
    same_decode::<F, IgnoredAny>(&bytes);
    // references decode into Value (and, but where a format copies them, only into Value and
    // Shared)
    let one_ref =
        [F::list_declaring(1), bytes_of::<F>(Value::Ref(0)), F::DECLARED_LIST_END.as_bytes().to_vec()].concat();
    if !F::COPIES_REFS {
        assert!(agree::<F, Vec<Vec<i32>>>(&one_ref).is_err(), "{name}");
    }
    assert_eq!(same_decode::<F, Vec<Value>>(&one_ref), [Value::Ref(0)], "{name}");
}

#[test]
fn java_shapes_decode_as_the_dynamic_path_decodes_them_in_every_format() {
    java_shapes_decode_as_the_dynamic_path_decodes_them::<H2>();
    java_shapes_decode_as_the_dynamic_path_decodes_them::<H1>();
    java_shapes_decode_as_the_dynamic_path_decodes_them::<Burlap>();
}
