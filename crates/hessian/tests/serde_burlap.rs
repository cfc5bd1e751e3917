//! What only Burlap 1.0 has, in its native serde layer (`hessian::serde::burlap`) against the
//! dynamic path it replaced, `burlap::to_vec(&to_value(v))` / `from_value(burlap::from_slice(b))`,
//! which is byte-identical to Java's `BurlapOutput` (`serde_java.rs` checks the W1-W3 structs
//! against the jar): strings needing escapes, long binaries and doubles written as that path
//! writes them; references copied into plain types from a slice; XML forms (empty elements,
//! whitespace, comments, entities, CDATA) decoded as it decodes them; offsets with whitespace and
//! comments; malformed XML, and lengths and limits reported where the XML reader stopped;
//! thousands of mutated inputs and arbitrary markup decoded as it decodes them, and generated
//! structs (Burlap's generators). Every property the formats share (the bytes of every row of
//! `docs/serde-mapping.md`, the W1-W3 structs, Java's shapes, the errors and their offsets,
//! dates, the limits, the serializer and deserializer types) is one generic test in
//! `serde_shared.rs`, run for this format too.

mod common;

use common::serde_formats::{self as formats, find, Burlap};
use common::serde_types::*;

use hessian::serde::burlap as sb;
use hessian::{burlap, ErrorKind, Limits, Value};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

// ---- the oracle: the dynamic path (`common::serde_formats`, shared with the other format) ----

fn oracle_decode<T: DeserializeOwned>(bytes: &[u8]) -> hessian::Result<T> {
    formats::oracle_decode::<Burlap, T>(bytes)
}

/// The native bytes are the dynamic path's (also through `to_writer`), and both decoders, from
/// a slice and from a reader, give the value back.
fn check<T: Serialize + DeserializeOwned + PartialEq + Debug>(v: &T) -> Vec<u8> {
    formats::check::<Burlap, T>(v)
}

/// The native bytes are the dynamic path's; returns them.
fn same_bytes<T: ?Sized + Serialize + Debug>(v: &T) -> Vec<u8> {
    formats::same_bytes::<Burlap, T>(v)
}

/// Both decoders agree on `bytes` (equal values or both an error); the native result.
fn same_decode<T: DeserializeOwned + Debug>(bytes: &[u8]) -> hessian::Result<T> {
    formats::agree::<Burlap, T>(bytes)
}

#[test]
fn strings_needing_escapes_and_long_binaries_write_the_dynamic_paths_bytes() {
    for s in ["<a & b>", "]]>", "&#60;", "\"quoted\" 'apos'", "tab\tnew\nline", "😀 non-BMP", "é", ""] {
        check(&s.to_string());
        check(&vec![s.to_string(), s.repeat(3)]);
    }
    check(&"x".repeat(100_000));
    for n in [0, 1, 2, 3, 47, 48, 49, 191, 192, 193, 10_000] {
        check(&serde_bytes::ByteBuf::from((0..n).map(|i| (i * 7) as u8).collect::<Vec<_>>()));
    }
    // names that are not plain ASCII are escaped like strings
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "com.example.Größe<&>")]
    struct Odd {
        v: i32,
    }
    check(&Odd { v: 1 });
    // doubles as Java prints them
    for d in common::doubles() {
        same_bytes(&d);
        let bytes = sb::to_vec(&d).unwrap();
        let back: f64 = same_decode(&bytes).unwrap();
        assert!(back.to_bits() == d.to_bits() || (back.is_nan() && d.is_nan()), "{d}");
    }
}

// ---- Shared: references numbered as the decoder numbers them ----

#[test]
fn references_are_copied_into_plain_types_from_a_slice() {
    // Java writes a repeated object as a reference: `[a, a]` with `a` an Address
    let a = Value::typed_map("com.example.Address", vec![("city".into(), Value::string("Paris"))]);
    let java = burlap::to_vec(&Value::list(vec![a, Value::Ref(1), Value::Ref(0)])).unwrap();
    // the outer list (ref 0) refers to itself: copying it into a plain type ends at a limit
    let shallow = Limits::default().with_max_depth(16);
    let e = sb::from_slice_with_limits::<serde_json::Value>(&java, shallow).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { .. }), "{e}");
    // the address twice: the second a copy
    let v: (Address, Address) = sb::from_slice(
        &burlap::to_vec(&Value::list(vec![
            Value::typed_map("com.example.Address", vec![("city".into(), Value::string("Paris"))]),
            Value::Ref(1),
        ]))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(v.0, v.1);
    assert_eq!(v.1.city, "Paris");
    // the same through Value keeps the reference; the dynamic path refuses it in a struct
    let bytes = burlap::to_vec(&Value::list(vec![
        Value::typed_map("com.example.Address", vec![("city".into(), Value::string("Paris"))]),
        Value::Ref(1),
    ]))
    .unwrap();
    assert!(oracle_decode::<(Address, Address)>(&bytes).is_err());
    assert_eq!(same_decode::<(Value, Value)>(&bytes).unwrap().1, Value::Ref(1));
    // copies are bounded: a chain of lists each holding two references to the previous one
    let mut items = vec![Value::list(vec![Value::string("x".repeat(100))])];
    for i in 0..30u32 {
        items.push(Value::list(vec![Value::Ref(i + 1), Value::Ref(i + 1)]));
    }
    let bomb = burlap::to_vec(&Value::list(items)).unwrap();
    let e = sb::from_slice::<serde_json::Value>(&bomb).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "bytes re-read to copy references", .. }), "{e}");
    let small = Limits::default().with_max_ref_copy_bytes(10);
    let e = sb::from_slice_with_limits::<(Address, Address)>(&bytes, small).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { .. }), "{e}");
    assert_eq!(e.offset(), find(&bytes, "<ref>"));
}

// ---- decoding what Java (and others) write ----

/// Burlap's XML forms decode as the dynamic path decodes them: empty elements, a negative
/// length, a list longer than it declares, whitespace, comments and a prolog between values,
/// entities and character references, CDATA, non-BMP characters written as surrogates. (The
/// shapes every format shares: `serde_shared.rs`.)
#[test]
fn xml_forms_decode_as_the_dynamic_path_decodes_them() {
    // empty elements; lists with a length of -1 (unknown) or longer than they declare
    assert!(same_decode::<Shape>(b"<map/>").is_err());
    assert_eq!(same_decode::<Vec<i32>>(b"<list><length>-1</length><int>1</int></list>").unwrap(), [1]);
    assert_eq!(same_decode::<Vec<i32>>(b"<list/>").unwrap(), Vec::<i32>::new());
    assert_eq!(same_decode::<BTreeMap<i32, i32>>(b"<map/>").unwrap(), BTreeMap::new());
    assert!(same_decode::<(i8, u8)>(b"<list><length>2</length><int>1</int><int>2</int><int>3</int></list>").is_err());
    // whitespace, comments and empty elements between values, as other writers may put them
    let spaced = b"<?xml version=\"1.0\"?>\n<list>\n  <int>1</int> <!-- two -->\n  <int> 2 </int>\n</list>\n";
    assert_eq!(same_decode::<Vec<i32>>(spaced).unwrap(), [1, 2]);
    assert_eq!(same_decode::<String>(b"<string/>").unwrap(), "");
    // strings: entities and character references, XML, non-BMP written as surrogates
    assert_eq!(same_decode::<String>(b"<string>&#60;a&gt; &amp; &#x3c;</string>").unwrap(), "<a> & <");
    assert_eq!(same_decode::<String>(b"<xml><![CDATA[<a>]]></xml>").unwrap(), "<a>");
    assert_eq!(same_decode::<String>(b"<string>\xed\xa0\xbd\xed\xb8\x80</string>").unwrap(), "😀");
}

// ---- errors and their offsets ----

#[test]
fn offsets_hold_with_whitespace_and_comments() {
    // the offset of an element is that of its `<`, whatever came before it
    let spaced = b"<list>\n  <int>1</int>\n  <string>x</string>\n</list>";
    let e = sb::from_slice::<(i32, i32)>(spaced).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{e}");
    assert_eq!(e.offset(), find(spaced, "<string>"), "{e}");
    let commented = b"<list><int>1</int><!-- c --><?pi x?><string>x</string></list>";
    let e = sb::from_slice::<(i32, i32)>(commented).unwrap_err();
    assert_eq!(e.offset(), find(commented, "<string>"), "{e}");
    // a reference copied from a list that starts after whitespace
    let bytes = b"<list>\n <list><int>7</int></list>\n <ref>1</ref>\n</list>";
    assert_eq!(same_decode::<(Vec<i32>, Vec<i32>)>(bytes).unwrap(), (vec![7], vec![7]));
    // and an error inside the copy carries the offset of the original
    let e = sb::from_slice::<(Vec<i32>, Vec<u8>)>(b"<list><list><int>300</int></list><ref>1</ref></list>").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { value: 300, target: "u8" }), "{e}");
    assert_eq!(e.offset(), 12, "{e}");
}

/// (The other errors and their offsets: `serde_shared.rs`, one test for the three formats.)
#[test]
fn malformed_xml_is_an_error_where_the_reader_stopped() {
    let e = sb::from_slice::<bool>(b"<boolean>2</boolean>").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{e}");
    let e = sb::from_slice::<Vec<i32>>(b"<list><int>1</int><int>x</int></list>").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{e}");
    assert!((18..=30).contains(&e.offset()), "{e}");
}

/// A declared length too long for a number is malformed, and a length or a string past the
/// limits is an error where the XML reader stopped. (The limits, declared list lengths and
/// depth: `serde_shared.rs`, one test each for the formats where they hold.)
#[test]
fn declared_lengths_and_limits_are_errors_where_the_reader_stopped() {
    let e = sb::from_slice::<Vec<i32>>(b"<list><length>99999999999999999999</length></list>").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{e}");
    // where the reader stopped: after the `<length>` element, after the string
    let e = sb::from_slice::<Vec<i32>>(b"<list><length>2147483647</length></list>").unwrap_err();
    assert_eq!(e.offset(), 33, "{e}");
    let e = sb::from_slice_with_limits::<String>(b"<string>four</string>", Limits::default().with_max_string_len(3))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "string length", .. }), "{e}");
    assert_eq!(e.offset(), 21, "{e}");
}

// ---- no panic, and the same results as the dynamic path, on any input ----

fn decode_every_way(bytes: &[u8]) {
    formats::decode_every_way::<Burlap>(bytes);
}

#[test]
fn mutated_inputs_never_panic_and_decode_as_the_dynamic_path() {
    // and a list holding an object and references to it and to the list
    let refs = burlap::to_vec(&Value::list(vec![
        Value::typed_map("com.example.Address", vec![("city".into(), Value::string("P"))]),
        Value::Ref(1),
        Value::Ref(0),
    ]))
    .unwrap();
    let tokens: [&[u8]; 12] = [
        b"<",
        b">",
        b"/",
        b"<list>",
        b"</list>",
        b"<map>",
        b"</map>",
        b"<ref>0</ref>",
        b"<null/>",
        b"<int>",
        b"1",
        b" ",
    ];
    let m = formats::Mutations { rounds: 300, inserts: &tokens, delete_up_to: Some(8) };
    formats::mutated_inputs_decode_as_the_dynamic_path::<Burlap>(vec![refs], &m);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_markup_never_panics(parts in prop::collection::vec(prop::sample::select(vec![
        "<null>", "</null>", "<null/>", "<boolean>", "</boolean>", "<int>", "</int>", "<long>", "</long>",
        "<double>", "</double>", "<date>", "</date>", "<string>", "</string>", "<base64>", "</base64>",
        "<list>", "</list>", "<list/>", "<map>", "</map>", "<map/>", "<type>", "</type>", "<length>",
        "</length>", "<ref>", "</ref>", "<remote>", "</remote>", "<xml>", "</xml>", "0", "1", "-1", "7",
        "name", "x", "&#60;", "&amp;", " ", "19700101T000000.000Z", "AAEC", "t.Inner", "<!-- c -->",
    ]), 0..40)) {
        decode_every_way(parts.concat().as_bytes());
    }

    #[test]
    fn generated_structs_match_the_dynamic_path(
        (a, c, d, g) in any::<(i8, i32, i64, u32)>(), i in any::<f32>(), j in any::<f64>(), k in any::<bool>(),
        m in "[a-zA-Z0-9 <>&'\"éß😀]{0,20}", n in any::<Option<i32>>(),
        q in prop::collection::vec(any::<u8>(), 0..200), colors in prop::collection::vec(any::<bool>(), 0..5),
    ) {
        let v = Scalars {
            a, b: a.into(), c, d, e: a as u8, f: c as u16, g, h: g.into(), i, j, k, l: 'x', m, n, o: None, p: (), q,
            r: d.into(), s: g.into(),
        };
        formats::generated_structs_match_the_dynamic_path::<Burlap>(&v, colors)?;
    }
}
