//! What only Hessian 1.0.2 has, in its native serde layer (`hessian::serde::h1`) against the
//! dynamic path it replaced, `h1::to_vec(&to_value(v))` / `from_value(h1::from_slice(b))`, which
//! is byte-identical to Java's `HessianOutput` (`serde_java.rs` checks the same structs against
//! the jar): long strings and binaries chunked as that path chunks them; chunked, XML and
//! surrogate strings and binary chunks decoded as it decodes them; an unknown code; declared
//! lengths past the input and a negative one; thousands of mutated inputs and arbitrary bytes
//! (Hessian 1's codes) decoded as it decodes them, and generated structs (Hessian 1's
//! generators). Every property the formats share (the bytes of every row of
//! `docs/serde-mapping.md`, the W1-W3 structs, Java's shapes, the errors and their offsets,
//! dates, the limits, the serializer and deserializer types, borrowing) is one generic test in
//! `serde_shared.rs`, run for this format too.

mod common;

use common::serde_formats::{self as formats, H1};
use common::serde_types::*;

use hessian::serde::h1 as sh1;
use hessian::{ErrorKind, Value};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

// ---- the oracle: the dynamic path (`common::serde_formats`, shared with the other format) ----

/// The native bytes are the dynamic path's (also through `to_writer`), and both decoders, from
/// a slice and from a reader, give the value back.
fn check<T: Serialize + DeserializeOwned + PartialEq + Debug>(v: &T) -> Vec<u8> {
    formats::check::<H1, T>(v)
}

/// Both decoders agree on `bytes` (equal values or both an error); the native result.
fn same_decode<T: DeserializeOwned + Debug>(bytes: &[u8]) -> hessian::Result<T> {
    formats::agree::<H1, T>(bytes)
}

#[test]
fn long_strings_and_binaries_are_chunked_like_the_dynamic_path() {
    // 0x8000 UTF-16 units per chunk, never splitting a surrogate pair
    for s in [
        "a".repeat(0x8000),
        "a".repeat(0x8001),
        "é".repeat(40_000),
        format!("{}😀tail", "a".repeat(0x7fff)),
        "😀".repeat(0x8000),
    ] {
        check(&s);
    }
    for n in [0x8000, 0x8001, 70_000] {
        check(&serde_bytes::ByteBuf::from((0..n).map(|i| i as u8).collect::<Vec<_>>()));
    }
}

// ---- decoding what Java (and others) write ----

/// Strings and binaries in Hessian 1's other forms decode as the dynamic path decodes them:
/// chunked strings, XML, non-BMP characters written as surrogates (as Java writes them), binary
/// chunks. (The shapes every format shares: `serde_shared.rs`.)
#[test]
fn chunked_xml_and_surrogate_forms_decode_as_the_dynamic_path_decodes_them() {
    assert_eq!(same_decode::<String>(b"s\x00\x02abS\x00\x01c").unwrap(), "abc");
    assert_eq!(same_decode::<String>(b"X\x00\x03<a>").unwrap(), "<a>");
    assert_eq!(same_decode::<String>(b"S\x00\x02\xed\xa0\xbd\xed\xb8\x80").unwrap(), "😀");
    let chunked = same_decode::<serde_bytes::ByteBuf>(b"b\x00\x01aB\x00\x02bc").unwrap();
    assert_eq!(chunked.as_slice(), b"abc");
}

/// (The other errors and their offsets: `serde_shared.rs`, one test for the three formats.)
#[test]
fn an_unknown_code_at_the_top_is_an_error_at_its_offset() {
    let e = sh1::from_slice::<bool>(b"Q").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedCode { code: b'Q', .. }), "{e}");
    assert_eq!(e.offset(), 0);
}

/// Declared lengths past the input are refused before anything is allocated, and a negative
/// one is "length unknown". (The limits, declared list lengths and depth: `serde_shared.rs`,
/// one test each for the formats where they hold.)
#[test]
fn declared_lengths_past_the_input_are_refused_and_a_negative_one_is_unknown() {
    // declared lengths past the input: refused before anything is allocated
    let kind = |b: &[u8]| sh1::from_slice::<Value>(b).unwrap_err().into_kind();
    assert!(matches!(kind(b"S\xff\xffabc"), ErrorKind::LengthPastEnd { .. }));
    let e = sh1::from_slice::<String>(b"S\xff\xffabc").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{e}");
    let e = sh1::from_slice::<serde_bytes::ByteBuf>(b"B\xff\xffabc").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{e}");
    let e = sh1::from_slice::<Vec<i32>>(b"Vl\x00\xff\xff\xffz").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{e}");
    // a negative length is "length unknown", as HessianInput reads it: the list runs to its z
    assert_eq!(sh1::from_slice::<Vec<i32>>(b"Vl\xff\xff\xff\xffI\x00\x00\x00\x07z").unwrap(), vec![7]);
}

// ---- no panic, and the same results as the dynamic path, on any input ----

fn decode_every_way(bytes: &[u8]) {
    formats::decode_every_way::<H1>(bytes);
}

#[test]
fn mutated_inputs_never_panic_and_decode_as_the_dynamic_path() {
    let inserts: Vec<&[u8]> = b"NTFILDdSsXxBbVMRrtlz".chunks(1).collect();
    let m = formats::Mutations { rounds: 400, inserts: &inserts, delete_up_to: None };
    formats::mutated_inputs_decode_as_the_dynamic_path::<H1>(Vec::new(), &m);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(prop_oneof![
        3 => prop::sample::select(b"NTFILDdSsXxBbVMRrtlz".to_vec()),
        1 => any::<u8>(),
        2 => Just(0u8),
    ], 0..64)) {
        decode_every_way(&bytes);
    }

    #[test]
    fn generated_structs_match_the_dynamic_path(
        (a, c, d, g) in any::<(i8, i32, i64, u32)>(), i in any::<f32>(), j in any::<f64>(), k in any::<bool>(), l in any::<char>(),
        m in prop::collection::vec(any::<char>(), 0..20).prop_map(String::from_iter), n in any::<Option<i32>>(),
        q in prop::collection::vec(any::<u8>(), 0..20), colors in prop::collection::vec(any::<bool>(), 0..5),
    ) {
        let v = Scalars {
            a, b: a.into(), c, d, e: a as u8, f: c as u16, g, h: g.into(), i, j, k, l, m, n, o: None, p: (), q,
            r: d.into(), s: g.into(),
        };
        formats::generated_structs_match_the_dynamic_path::<H1>(&v, colors)?;
    }
}
