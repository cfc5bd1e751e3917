//! Hostile and broken input for the dynamic `Value` decoders of every format: one generic test
//! per property, run for each format where it holds (the format differences are behind
//! `common::value_formats::ValueFormat`). Every failure is a typed error with an offset inside
//! the input, never a panic, a hang, or an allocation sized by a declared length. The
//! format-specific cases are in `bad_input_h2.rs`, `bad_input_h1.rs` and `bad_input_burlap.rs`.

mod common;

use common::serde_formats::{Burlap, Format, Lcg, H1, H2};
use common::value_formats::{err, small_cases, CodedFormat, ValueFormat};
use hessian::{ErrorKind, Limits, Value};

// ---- truncation ----

/// Every strict prefix of a valid message is an error inside it, from a slice and from a
/// stream; the whole message decodes. The messages: every small catalogue case cut at every
/// byte, and a W2 request with a chunked binary and a chunked string (whose chunks end mid-way
/// through surrogate pairs) cut at its first 600 bytes and then every 97th. An empty input is
/// an unexpected end.
fn every_truncation_is_an_error<F: ValueFormat>() {
    assert!(matches!(err::<F>(b"").kind(), ErrorKind::UnexpectedEof), "{}", F::NAME);
    for (name, v) in small_cases() {
        let bytes = F::value_to_vec(&v).unwrap();
        for cut in 0..bytes.len() {
            let e = F::value_from_slice(&bytes[..cut]).expect_err(&format!("{}: {name} cut at {cut}", F::NAME));
            assert!(e.offset() <= cut as u64, "{}: {name} cut at {cut}: offset {} ({e})", F::NAME, e.offset());
            assert!(F::value_from_reader(&bytes[..cut]).is_err(), "{}: {name} cut at {cut}: stream decoded", F::NAME);
        }
        assert!(F::value_from_slice(&bytes).is_ok(), "{}: {name}", F::NAME);
    }
    let v = hessian_testkit::workloads::W2Classes::default().request();
    let full = F::value_to_vec(&Value::list(vec![v, Value::Binary(vec![7; 8200]), Value::string("é😀".repeat(11000))]))
        .unwrap();
    for cut in (0..600).chain((600..full.len()).step_by(97)) {
        let e = F::value_from_slice(&full[..cut]).expect_err("a strict prefix is incomplete");
        assert!(e.offset() <= cut as u64, "{}: cut at {cut}: offset {} ({e})", F::NAME, e.offset());
        assert!(F::value_from_reader(&full[..cut]).is_err(), "{}: cut at {cut}: stream decoded", F::NAME);
    }
    assert!(F::value_from_slice(&full).is_ok(), "{}", F::NAME);
}

#[test]
fn every_truncation_is_an_error_in_every_format() {
    every_truncation_is_an_error::<H2>();
    every_truncation_is_an_error::<H1>();
    every_truncation_is_an_error::<Burlap>();
}

// ---- limits ----

/// Lists nested 100 000 deep (with and without a null inside) and maps nested 10 000 deep
/// exceed the default depth limit of 256 (the lists at the opening of the 257th); a configured limit of 10 refuses 11 nested lists and
/// accepts 10.
fn nesting_deeper_than_the_limit<F: ValueFormat>() {
    let open = F::LIST_OPEN.repeat(100_000);
    for bytes in [open.clone(), [&open[..], F::NULL].concat()] {
        let e = err::<F>(&bytes);
        assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", limit: 256 }), "{}: {e}", F::NAME);
        // the offset is that of the byte after the opening that went one level too deep
        assert_eq!(e.offset(), 257 * F::LIST_OPEN.len() as u64, "{}", F::NAME);
    }
    let e = err::<F>(&F::MAP_OPEN.repeat(10_000));
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", .. }), "{}: {e}", F::NAME);
    let nested = |depth: usize| [F::LIST_OPEN.repeat(depth), F::NULL.to_vec(), F::LIST_CLOSE.repeat(depth)].concat();
    let limits = Limits::default().with_max_depth(10);
    let e = F::value_from_slice_with_limits(&nested(11), limits).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", limit: 10 }), "{}: {e}", F::NAME);
    assert!(F::value_from_slice_with_limits(&nested(10), limits).is_ok(), "{}", F::NAME);
}

#[test]
fn nesting_deeper_than_the_limit_in_every_format() {
    nesting_deeper_than_the_limit::<H2>();
    nesting_deeper_than_the_limit::<H1>();
    nesting_deeper_than_the_limit::<Burlap>();
}

/// Each configured limit is enforced, named in the error: collection, string and binary lengths,
/// references and the message size; a list without a declared length is counted as it grows.
/// Two sets of limits, each just below its values; the message size of 64 bytes is set only
/// for the value that exceeds it (Burlap's encodings of the other values are longer).
fn configured_limits_are_enforced<F: ValueFormat>() {
    let check = |limits: Limits, bytes: &[u8], what: &str| {
        let e = F::value_from_slice_with_limits(bytes, limits).unwrap_err();
        match e.kind() {
            ErrorKind::LimitExceeded { what: w, .. } => assert_eq!(*w, what, "{}: {}", F::NAME, F::show(bytes)),
            k => panic!("{}: {what}: {k}", F::NAME),
        }
    };
    let value = |v: Value| F::value_to_vec(&v).unwrap();
    // a list of `n` ones without a declared length
    let ones =
        |n: usize| [F::LIST_START.to_vec(), value(Value::Int(1)).repeat(n), F::LIST_END.as_bytes().to_vec()].concat();
    let strict = Limits::default()
        .with_max_collection_len(3)
        .with_max_string_len(4)
        .with_max_binary_len(4)
        .with_max_class_defs(1)
        .with_max_refs(2);
    check(strict, &value(Value::list(vec![Value::Int(1); 4])), "collection length");
    check(strict, &value(Value::string("hello")), "string length");
    check(strict, &value(Value::Binary(vec![1; 5])), "binary length");
    check(strict, &value(Value::list(vec![Value::list(vec![]), Value::list(vec![])])), "references");
    check(strict.with_max_message_size(64), &value(Value::Binary(vec![0; 65])), "message size");
    check(strict, &ones(4), "collection length");
    let small = Limits::default().with_max_collection_len(2).with_max_string_len(3).with_max_binary_len(3);
    check(small, &value(Value::list(vec![Value::Int(1); 3])), "collection length");
    check(small, &ones(3), "collection length");
    check(small, &value(Value::string("abcd")), "string length");
    check(small, &value(Value::Binary(vec![1; 4])), "binary length");
    check(small, &value(Value::Binary(vec![0; 6])), "binary length");
}

#[test]
fn configured_limits_are_enforced_in_every_format() {
    configured_limits_are_enforced::<H2>();
    configured_limits_are_enforced::<H1>();
    configured_limits_are_enforced::<Burlap>();
}

/// A declared string or binary length past the end of the input is refused at once from the
/// length, nothing allocated for it, and so is a list declaring more elements than bytes follow.
/// Through a stream the length cannot be checked up front: the read fails at the end of the
/// input after growing only with the data actually received, or at the collection limit.
/// (Hessian 2 and Hessian 1 write the same `S` and `B` codes with a two-byte length; Burlap
/// declares no string or binary lengths, its list lengths are in `bad_input_burlap.rs`.)
fn lengths_past_the_end_fail_before_allocating<F: CodedFormat>() {
    for bytes in [&b"S\xff\xff"[..], b"S\xff\xffabc", b"B\xff\xff", b"B\xff\xffabc"] {
        let e = err::<F>(bytes);
        assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{}: {bytes:02x?}: {e}", F::NAME);
    }
    let list = |len: i32| F::list_declaring(len);
    let one = F::value_to_vec(&Value::Int(1)).unwrap();
    let e = err::<F>(&[list(0x00ff_ffff), F::DECLARED_LIST_END.as_bytes().to_vec()].concat());
    assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{}: {e}", F::NAME);
    let e = F::value_from_reader(&[list(i32::MAX), one.clone()].concat()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "collection length", .. }), "{}: {e}", F::NAME);
    let e = F::value_from_reader(&[list(0x000f_ffff), one].concat()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedEof), "{}: {e}", F::NAME);
    let e = F::value_from_reader(&b"B\xff\xffabc"[..]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedEof), "{}: {e}", F::NAME);
}

#[test]
fn lengths_past_the_end_fail_before_allocating_in_every_format() {
    lengths_past_the_end_fail_before_allocating::<H2>();
    lengths_past_the_end_fail_before_allocating::<H1>();
}

// ---- malformed values ----

/// A code that starts no value is named, with its offset: at the start, and inside a list.
fn unknown_codes_are_named_with_their_offset<F: CodedFormat>() {
    for code in F::unknown_codes() {
        let e = err::<F>(&F::code_alone(code));
        match e.kind() {
            ErrorKind::UnexpectedCode { code: c, .. } => assert_eq!(*c, code, "{}", F::NAME),
            k => panic!("{}: 0x{code:02x}: {k}", F::NAME),
        }
        assert_eq!(e.offset(), 0, "{}: 0x{code:02x}", F::NAME);
    }
    // inside a list: the offset points at the bad byte
    let e = err::<F>(&[F::LIST_OPEN, &F::code_alone(0x40)].concat());
    assert_eq!(e.offset(), F::LIST_OPEN.len() as u64, "{}: {e}", F::NAME);
}

#[test]
fn unknown_codes_are_named_with_their_offset_in_every_format() {
    unknown_codes_are_named_with_their_offset::<H2>();
    unknown_codes_are_named_with_their_offset::<H1>();
}

/// Strings holding bytes that are no UTF-8, or a surrogate encoded alone (a high one followed by
/// `a` or by the end, a low one), are refused with the kind of the fault.
fn invalid_utf8_and_lone_surrogates<F: ValueFormat>() {
    for bytes in [&[0xffu8][..], &[0xc3, 0x28]] {
        let e = err::<F>(&F::string_of(bytes, 1));
        assert!(matches!(e.kind(), ErrorKind::InvalidUtf8), "{}: {bytes:02x?}: {e}", F::NAME);
    }
    for (bytes, units, unit) in
        [(&[0xed, 0xa0, 0xbd, b'a'][..], 2, 0xd83d), (&[0xed, 0xa0, 0xbd], 1, 0xd83d), (&[0xed, 0xb8, 0x80], 1, 0xde00)]
    {
        let e = err::<F>(&F::string_of(bytes, units));
        assert!(matches!(e.kind(), ErrorKind::LoneSurrogate(u) if *u == unit), "{}: {bytes:02x?}: {e}", F::NAME);
    }
}

#[test]
fn invalid_utf8_and_lone_surrogates_in_every_format() {
    invalid_utf8_and_lone_surrogates::<H2>();
    invalid_utf8_and_lone_surrogates::<H1>();
    invalid_utf8_and_lone_surrogates::<Burlap>();
}

/// A reference with nothing before it, or past the one list it is in, is out of range; a list
/// holding a reference to itself is fine.
fn references_out_of_range<F: ValueFormat>() {
    let lone = F::value_to_vec(&Value::Ref(0)).unwrap();
    let e = err::<F>(&lone);
    assert!(matches!(e.kind(), ErrorKind::RefOutOfRange { index: 0, len: 0 }), "{}: {e}", F::NAME);
    assert_eq!(e.offset(), F::ref_error_at(&lone), "{}", F::NAME);
    let e = err::<F>(&F::value_to_vec(&Value::list(vec![Value::Ref(1)])).unwrap());
    assert!(matches!(e.kind(), ErrorKind::RefOutOfRange { index: 1, len: 1 }), "{}: {e}", F::NAME);
    let own = Value::list(vec![Value::Ref(0)]);
    assert_eq!(F::value_from_slice(&F::value_to_vec(&own).unwrap()).unwrap(), own, "{}", F::NAME);
}

#[test]
fn references_out_of_range_in_every_format() {
    references_out_of_range::<H2>();
    references_out_of_range::<H1>();
    references_out_of_range::<Burlap>();
}

/// Bytes after a whole value (an int after an int, a null after a null) are refused, where they
/// start if the format [reports them there](ValueFormat::TRAILING_AT_START) and otherwise after
/// the first value.
fn trailing_bytes<F: ValueFormat>() {
    for (a, b) in [(Value::Int(1), Value::Int(2)), (Value::Null, Value::Null)] {
        let first = F::value_to_vec(&a).unwrap();
        let bytes = [first.clone(), F::value_to_vec(&b).unwrap()].concat();
        let e = err::<F>(&bytes);
        assert!(matches!(e.kind(), ErrorKind::TrailingBytes), "{}: {e}", F::NAME);
        if F::TRAILING_AT_START {
            assert_eq!(e.offset(), first.len() as u64, "{}: {}", F::NAME, F::show(&bytes));
        } else {
            assert!(e.offset() >= first.len() as u64, "{}: {}: {e}", F::NAME, F::show(&bytes));
        }
    }
}

#[test]
fn trailing_bytes_in_every_format() {
    trailing_bytes::<H2>();
    trailing_bytes::<H1>();
    trailing_bytes::<Burlap>();
}

/// An object with fewer values than its class has fields cannot be written.
fn objects_missing_field_values_are_unencodable<F: ValueFormat>() {
    let class = hessian::ClassDef::new("A", ["x", "y"]);
    let v = Value::list(vec![Value::object(class, vec![Value::Int(1)])]);
    match F::value_to_vec(&v).unwrap_err().kind() {
        ErrorKind::Unencodable(what) => assert_eq!(what, "object of A has 1 values for 2 fields", "{}", F::NAME),
        k => panic!("{}: {k}", F::NAME),
    }
}

#[test]
fn objects_missing_field_values_are_unencodable_in_every_format() {
    objects_missing_field_values_are_unencodable::<H2>();
    objects_missing_field_values_are_unencodable::<H1>();
    objects_missing_field_values_are_unencodable::<Burlap>();
}

// ---- envelopes ----

/// Garbage is no call and no reply (a cut header, a value without a header, a method without
/// its arguments' end, a fault without its detail…), reported inside the input.
fn envelopes_reject_garbage<F: ValueFormat>() {
    for bytes in F::GARBAGE_CALLS {
        let e = F::call_from_slice(bytes, Limits::default()).expect_err(&F::show(bytes));
        assert!(e.offset() <= bytes.len() as u64, "{}: {}: {e}", F::NAME, F::show(bytes));
    }
    for bytes in F::GARBAGE_REPLIES {
        let e = F::reply_from_slice(bytes, Limits::default()).expect_err(&F::show(bytes));
        assert!(e.offset() <= bytes.len() as u64, "{}: {}: {e}", F::NAME, F::show(bytes));
    }
}

#[test]
fn envelopes_reject_garbage_in_every_format() {
    envelopes_reject_garbage::<H2>();
    envelopes_reject_garbage::<H1>();
    envelopes_reject_garbage::<Burlap>();
}

// ---- no panic on any input ----

/// The xorshift generator of the random-input tests.
fn xorshift() -> impl FnMut() -> u64 {
    let mut x: u64 = 0x9e3779b97f4a7c15;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// 20 000 pseudo-random inputs of up to 63 bytes never panic a decoder, from a slice or a
/// stream; a slice's error is inside the input.
fn random_input_never_panics<F: ValueFormat>(next: &mut impl FnMut() -> u64) {
    for _ in 0..20_000 {
        let len = (next() % 64) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if let Err(e) = F::value_from_slice(&bytes) {
            assert!(e.offset() <= bytes.len() as u64, "{}: {e}", F::NAME);
        }
        let _ = F::value_from_reader(bytes.as_slice());
    }
}

/// 20 000 copies of the `samples` (taken in turn), each with 1 to `most_edits` bytes replaced
/// (by a random byte, or one of `alphabet`), never panic a decoder, from a slice or a stream; a
/// slice's error is inside the input.
fn mutations_never_panic<F: ValueFormat>(
    samples: &[Vec<u8>],
    next: &mut impl FnMut() -> u64,
    most_edits: u64,
    alphabet: Option<&[u8]>,
) {
    for i in 0..20_000 {
        let mut b = samples[i % samples.len()].clone();
        if b.is_empty() {
            continue;
        }
        for _ in 0..1 + next() % most_edits {
            let at = (next() as usize) % b.len();
            b[at] = match alphabet {
                Some(a) => a[(next() as usize) % a.len()],
                None => next() as u8,
            };
        }
        if let Err(e) = F::value_from_slice(&b) {
            assert!(e.offset() <= b.len() as u64, "{}: {e}", F::NAME);
        }
        let _ = F::value_from_reader(&b[..]);
    }
}

/// The encodings of the small catalogue cases.
fn samples<F: ValueFormat>() -> Vec<Vec<u8>> {
    small_cases().iter().map(|(_, v)| F::value_to_vec(v).unwrap()).collect()
}

/// Random bytes, then mutations: of a W2 reply for Hessian 2 (up to four bytes replaced, the
/// generator going on from the random bytes), of the catalogue for Hessian 1 and Burlap (up to
/// three, for Burlap by XML-ish characters), each as its own test generated them.
#[test]
fn random_and_mutated_input_never_panics_in_every_format() {
    let mut next = xorshift();
    random_input_never_panics::<H2>(&mut next);
    let reply = H2::value_to_vec(&hessian_testkit::workloads::W2Classes::default().reply()).unwrap();
    mutations_never_panic::<H2>(&[reply], &mut next, 4, None);

    random_input_never_panics::<H1>(&mut xorshift());
    let mut rng = Lcg(7);
    mutations_never_panic::<H1>(&samples::<H1>(), &mut || rng.next(), 3, None);

    random_input_never_panics::<Burlap>(&mut xorshift());
    let mut rng = Lcg(11);
    let alphabet = b"<>/&;#x0123456789abcdefghijklmnopqrstuvwxyz =\"'!-?[]\xff\xed\xa0";
    mutations_never_panic::<Burlap>(&samples::<Burlap>(), &mut || rng.next(), 3, Some(alphabet));
}
