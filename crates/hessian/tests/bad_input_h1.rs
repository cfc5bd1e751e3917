//! Broken Hessian 1.0.2 input that only Hessian 1 can express: declared list lengths over the
//! limit, negative ("unknown") or not matching the elements, and reply and chunk codes where a
//! value starts. The properties shared with Hessian 2 and Burlap (truncation, limits, depth,
//! references, lengths past the end, unknown codes, UTF-8, trailing bytes, envelopes, mutations)
//! are in `bad_input.rs`.

use hessian::{h1, ErrorKind};

fn kind(b: &[u8]) -> ErrorKind {
    h1::from_slice(b).unwrap_err().into_kind()
}

/// A list of 2^31-1 elements is over the collection limit (Hessian 2 refuses the same length
/// from a slice as past the end: `bad_input_h2.rs`); a negative length is "length unknown", as
/// HessianInput reads it; fewer elements than declared is malformed.
#[test]
fn h1_declared_list_lengths() {
    assert!(matches!(kind(b"Vl\x7f\xff\xff\xffz"), ErrorKind::LimitExceeded { .. }));
    assert!(h1::from_slice(b"Vl\xff\xff\xff\xffz").is_ok());
    assert!(matches!(kind(b"Vl\x00\x00\x00\x02I\x00\x00\x00\x01z"), ErrorKind::Malformed(_)));
}

/// A reply's `r` and a non-final string chunk followed by no chunk are no value.
#[test]
fn h1_codes_out_of_place() {
    assert!(matches!(kind(b"rS\x00\x01a"), ErrorKind::UnexpectedCode { .. }));
    assert!(matches!(kind(b"s\x00\x01aI\x00\x00\x00\x01"), ErrorKind::UnexpectedCode { .. }));
}
