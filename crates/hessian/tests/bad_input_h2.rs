//! Hostile and broken Hessian 2.0 input that only Hessian 2 can express: its compact codes cut
//! short, strings chunked at a surrogate pair, typed and negative list lengths, and class and
//! type references and definitions. Every case is a typed error carrying the byte offset, never
//! a panic, and never an allocation larger than the input justifies. The properties shared with
//! Hessian 1 and Burlap (truncation, limits, depth, references, lengths past the end, unknown
//! codes, UTF-8, trailing bytes, envelopes, random input) are in `bad_input.rs`.

mod common;

use common::serde_formats::H2;
use common::value_formats::err;
use hessian::{h2, ErrorKind, Limits, Value};

/// Values of each compact form cut short are an unexpected end (or a length past it).
#[test]
fn truncated_input_reports_eof_at_end() {
    for bytes in
        [&b"I\x00\x00"[..], b"L\x01", b"D\x00", b"\x05abc", b"S\x00\x10abc", b"\x7a\x91", b"H\x91", b"\xd4\x00"]
    {
        let e = err::<H2>(bytes);
        assert!(matches!(e.kind(), ErrorKind::UnexpectedEof | ErrorKind::LengthPastEnd { .. }), "{bytes:02x?}: {e}");
        assert!(e.offset() <= bytes.len() as u64, "{bytes:02x?}: offset {}", e.offset());
    }
}

/// A high surrogate at the very end of a chunked string is alone.
#[test]
fn a_lone_surrogate_at_the_end_of_a_chunked_string() {
    let e = err::<H2>(&[b'R', 0x00, 0x01, 0xed, 0xa0, 0xbd, 0x00]);
    assert!(matches!(e.kind(), ErrorKind::LoneSurrogate(_)), "{e}");
}

#[test]
fn a_surrogate_pair_split_across_chunks_joins_up() {
    // 'R' chunk ending in a high surrogate, final chunk starting with the low one
    let bytes = [b'R', 0x00, 0x01, 0xed, 0xa0, 0xbd, 0x01, 0xed, 0xb8, 0x80];
    assert_eq!(h2::from_slice(&bytes).unwrap(), Value::string("😀"));
    assert_eq!(h2::from_reader(&bytes[..]).unwrap(), Value::string("😀"));
}

/// A list of 2^31-1 items, untyped or typed, is refused from a slice at once as past the end
/// (Hessian 1 refuses the same length as over the collection limit: `bad_input_h1.rs`); a
/// negative length is malformed (in Hessian 1 it means "unknown").
#[test]
fn list_lengths_past_the_end_or_negative() {
    for bytes in [&b"X\x49\x7f\xff\xff\xff"[..], b"V\x04[int\x49\x7f\xff\xff\xff"] {
        let e = err::<H2>(bytes);
        assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{bytes:02x?}: {e}");
    }
    let e = err::<H2>(b"X\x8f");
    assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{e}");
}

/// Class and type references need a definition or a type before them.
#[test]
fn class_and_type_references_out_of_range() {
    let e = err::<H2>(&[0x60]);
    assert!(matches!(e.kind(), ErrorKind::ClassRefOutOfRange { index: 0, len: 0 }), "{e}");
    let e = err::<H2>(&[b'O', 0xa0]);
    assert!(matches!(e.kind(), ErrorKind::ClassRefOutOfRange { index: 16, .. }), "{e}");
    let e = err::<H2>(&[0x71, 0x93, 0x90]);
    assert!(matches!(e.kind(), ErrorKind::TypeRefOutOfRange { index: 3, len: 0 }), "{e}");
    assert_eq!(e.offset(), 1);
}

/// The configured number of class definitions is enforced.
#[test]
fn class_definitions_are_limited() {
    let strict = Limits::default()
        .with_max_collection_len(3)
        .with_max_string_len(4)
        .with_max_binary_len(4)
        .with_max_class_defs(1)
        .with_max_refs(2)
        .with_max_message_size(64);
    let a = hessian::ClassDef::new("A", ["x"]);
    let b = hessian::ClassDef::new("B", ["x"]);
    let two = Value::list(vec![Value::object(a, vec![Value::Null]), Value::object(b, vec![Value::Null])]);
    let e = h2::from_slice_with_limits(&h2::to_vec(&two).unwrap(), strict.with_max_refs(10)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "class definitions", .. }), "{e}");
}
