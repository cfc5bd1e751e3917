//! Hostile and broken Hessian 2.0 input: every case is a typed error carrying the byte offset,
//! never a panic, and never an allocation larger than the input justifies.

use hessian::{h2, ErrorKind, Limits, Value};

fn err(bytes: &[u8]) -> hessian::Error {
    let slice = h2::from_slice(bytes).expect_err("must fail");
    // The streaming reader must fail too (it cannot see the end in advance).
    assert!(h2::from_reader(bytes).is_err() || matches!(slice.kind(), ErrorKind::TrailingBytes));
    slice
}

#[test]
fn truncated_input_reports_eof_at_end() {
    for bytes in
        [&b"I\x00\x00"[..], b"L\x01", b"D\x00", b"\x05abc", b"S\x00\x10abc", b"\x7a\x91", b"H\x91", b"\xd4\x00"]
    {
        let e = err(bytes);
        assert!(matches!(e.kind(), ErrorKind::UnexpectedEof | ErrorKind::LengthPastEnd { .. }), "{bytes:02x?}: {e}");
        assert!(e.offset() <= bytes.len() as u64, "{bytes:02x?}: offset {}", e.offset());
    }
    assert!(matches!(err(b"").kind(), ErrorKind::UnexpectedEof));
}

#[test]
fn every_prefix_of_a_valid_message_fails_cleanly() {
    // Small enough that decoding every prefix stays cheap, yet with a chunked binary and a chunked
    // string whose chunks end mid-way through surrogate pairs.
    let v = hessian_testkit::workloads::W2Classes::default().request();
    let full =
        h2::to_vec(&Value::list(vec![v, Value::Binary(vec![7; 8200]), Value::string("é😀".repeat(11000))])).unwrap();
    let cuts = (0..600).chain((600..full.len()).step_by(97));
    for cut in cuts {
        let e = h2::from_slice(&full[..cut]).expect_err("a strict prefix is incomplete");
        assert!(e.offset() <= cut as u64);
        assert!(h2::from_reader(&full[..cut]).is_err());
    }
    assert!(h2::from_slice(&full).is_ok());
}

#[test]
fn unknown_codes_are_named_with_their_offset() {
    for code in [0x40u8, 0x45, 0x47, 0x50, 0x5a] {
        let e = err(&[0x91, code][1..]);
        match e.kind() {
            ErrorKind::UnexpectedCode { code: c, .. } => assert_eq!(*c, code),
            k => panic!("0x{code:02x}: {k}"),
        }
        assert_eq!(e.offset(), 0);
    }
    // inside a list: the offset points at the bad byte
    let e = err(&[0x79, 0x40]);
    assert_eq!(e.offset(), 1);
}

#[test]
fn invalid_utf8_and_lone_surrogates() {
    assert!(matches!(err(&[0x01, 0xff]).kind(), ErrorKind::InvalidUtf8));
    assert!(matches!(err(&[0x01, 0xc3, 0x28]).kind(), ErrorKind::InvalidUtf8));
    // high surrogate followed by 'a'
    assert!(matches!(err(&[0x02, 0xed, 0xa0, 0xbd, b'a']).kind(), ErrorKind::LoneSurrogate(0xd83d)));
    // low surrogate alone
    assert!(matches!(err(&[0x01, 0xed, 0xb8, 0x80]).kind(), ErrorKind::LoneSurrogate(0xde00)));
    // high surrogate at the very end of a chunked string
    let e = err(&[b'R', 0x00, 0x01, 0xed, 0xa0, 0xbd, 0x00]);
    assert!(matches!(e.kind(), ErrorKind::LoneSurrogate(_)), "{e}");
}

#[test]
fn a_surrogate_pair_split_across_chunks_joins_up() {
    // 'R' chunk ending in a high surrogate, final chunk starting with the low one
    let bytes = [b'R', 0x00, 0x01, 0xed, 0xa0, 0xbd, 0x01, 0xed, 0xb8, 0x80];
    assert_eq!(h2::from_slice(&bytes).unwrap(), Value::string("😀"));
    assert_eq!(h2::from_reader(&bytes[..]).unwrap(), Value::string("😀"));
}

#[test]
fn lengths_past_the_end_fail_before_allocating() {
    // A string declaring 65535 units, a binary of 65535 bytes, a list of 2^31-1 items:
    // refused at once from the declared length, nothing allocated for it.
    for bytes in [&b"S\xff\xff"[..], b"B\xff\xff", b"X\x49\x7f\xff\xff\xff", b"V\x04[int\x49\x7f\xff\xff\xff"] {
        let e = err(bytes);
        assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{bytes:02x?}: {e}");
    }
    // Through a stream the length cannot be checked up front: the read fails at end of input
    // after growing only with the data actually received.
    let e = h2::from_reader(&b"X\x49\x7f\xff\xff\xff\x91"[..]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "collection length", .. }), "{e}");
    let e = h2::from_reader(&b"X\x49\x00\x0f\xff\xff\x91"[..]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedEof), "{e}");
    let e = h2::from_reader(&b"B\xff\xffabc"[..]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedEof), "{e}");
    // negative lengths
    let e = err(b"X\x8f");
    assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{e}");
}

#[test]
fn references_out_of_range() {
    // Q 0 with no list/map/object before it
    let e = err(&[0x51, 0x90]);
    assert!(matches!(e.kind(), ErrorKind::RefOutOfRange { index: 0, len: 0 }), "{e}");
    assert_eq!(e.offset(), 0);
    // inside a one-element list, Q 1 is past the single entry
    let e = err(&[0x79, 0x51, 0x91]);
    assert!(matches!(e.kind(), ErrorKind::RefOutOfRange { index: 1, len: 1 }), "{e}");
    // a self reference is fine
    assert_eq!(h2::from_slice(&[0x79, 0x51, 0x90]).unwrap(), Value::list(vec![Value::Ref(0)]));
    // class and type references
    let e = err(&[0x60]);
    assert!(matches!(e.kind(), ErrorKind::ClassRefOutOfRange { index: 0, len: 0 }), "{e}");
    let e = err(&[b'O', 0xa0]);
    assert!(matches!(e.kind(), ErrorKind::ClassRefOutOfRange { index: 16, .. }), "{e}");
    let e = err(&[0x71, 0x93, 0x90]);
    assert!(matches!(e.kind(), ErrorKind::TypeRefOutOfRange { index: 3, len: 0 }), "{e}");
    assert_eq!(e.offset(), 1);
}

#[test]
fn nesting_deeper_than_the_limit() {
    let depth = 100_000;
    let mut bytes = vec![0x79u8; depth];
    bytes.push(b'N');
    let e = h2::from_slice(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", limit: 256 }), "{e}");
    // the offset is that of the byte after the list code that went one level too deep
    assert_eq!(e.offset(), 257);
    let limits = Limits { max_depth: 10, ..Limits::default() };
    let e = h2::from_slice_with_limits(&bytes[depth - 11..], limits).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", limit: 10 }), "{e}");
    assert!(h2::from_slice_with_limits(&bytes[depth - 10..], limits).is_ok());
}

#[test]
fn configured_limits_are_enforced() {
    let strict = Limits {
        max_collection_len: 3,
        max_string_len: 4,
        max_binary_len: 4,
        max_class_defs: 1,
        max_refs: 2,
        max_message_size: 64,
        ..Limits::default()
    };
    let check = |v: Value, what: &str| {
        let bytes = h2::to_vec(&v).unwrap();
        let e = h2::from_slice_with_limits(&bytes, strict).unwrap_err();
        match e.kind() {
            ErrorKind::LimitExceeded { what: w, .. } => assert_eq!(*w, what),
            k => panic!("{what}: {k}"),
        }
    };
    check(Value::list(vec![Value::Int(1); 4]), "collection length");
    check(Value::string("hello"), "string length");
    check(Value::Binary(vec![1; 5]), "binary length");
    check(Value::list(vec![Value::list(vec![]), Value::list(vec![])]), "references");
    check(Value::Binary(vec![0; 65]), "message size");
    let a = hessian::ClassDef::new("A", ["x"]);
    let b = hessian::ClassDef::new("B", ["x"]);
    let two = Value::list(vec![Value::object(a, vec![Value::Null]), Value::object(b, vec![Value::Null])]);
    let e = h2::from_slice_with_limits(&h2::to_vec(&two).unwrap(), Limits { max_refs: 10, ..strict }).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "class definitions", .. }), "{e}");
    // variable-length collections are counted as they grow
    let e = h2::from_slice_with_limits(b"W\x91\x91\x91\x91Z", strict).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "collection length", .. }), "{e}");
}

#[test]
fn trailing_bytes() {
    let e = h2::from_slice(&[0x91, 0x92]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TrailingBytes));
    assert_eq!(e.offset(), 1);
}

/// Deterministic pseudo-random bytes (xorshift) never panic the decoder; neither do mutations of
/// valid messages.
#[test]
fn random_and_mutated_input_never_panics() {
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..20_000 {
        let len = (next() % 64) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let _ = h2::from_slice(&bytes);
        let _ = h2::from_reader(bytes.as_slice());
    }
    let valid = h2::to_vec(&hessian_testkit::workloads::W2Classes::default().reply()).unwrap();
    for _ in 0..20_000 {
        let mut m = valid.clone();
        for _ in 0..=(next() % 4) {
            let i = (next() as usize) % m.len();
            m[i] = next() as u8;
        }
        let _ = h2::from_slice(&m);
    }
}

/// An object with fewer values than its class has fields cannot be written in any format.
#[test]
fn objects_missing_field_values_are_unencodable() {
    let class = hessian::ClassDef::new("A", ["x", "y"]);
    let v = Value::list(vec![Value::object(class, vec![Value::Int(1)])]);
    for e in
        [h2::to_vec(&v).unwrap_err(), hessian::h1::to_vec(&v).unwrap_err(), hessian::burlap::to_vec(&v).unwrap_err()]
    {
        match e.kind() {
            ErrorKind::Unencodable(what) => assert_eq!(what, "object of A has 1 values for 2 fields"),
            k => panic!("{k}"),
        }
    }
}
