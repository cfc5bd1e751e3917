//! The entry points of the three formats, one property per test run for each format: the serde
//! functions (`hessian::serde::{h2, h1, burlap}`) and the `Value` functions (`hessian::{h2, h1,
//! burlap}`) have the same names, and a `Value` given to the serde functions is written and read
//! exactly as the `Value` functions write and read it, for every value of the conformance
//! catalogue.

use hessian::{burlap, h1, h2, Limits, Value};
use hessian_testkit::catalogue;

type Encode = fn(&Value) -> hessian::Result<Vec<u8>>;
type Decode = fn(&[u8]) -> hessian::Result<Value>;
type DecodeWithLimits = fn(&[u8], Limits) -> hessian::Result<Value>;

/// (name, Value encode, serde encode, Value decode, serde decode, serde decode within limits)
fn formats() -> [(&'static str, Encode, Encode, Decode, Decode, DecodeWithLimits); 3] {
    [
        (
            "h2",
            h2::to_vec,
            |v| hessian::serde::h2::to_vec(v),
            h2::from_slice,
            |b| hessian::serde::h2::from_slice(b),
            |b, l| hessian::serde::h2::from_slice_with_limits(b, l),
        ),
        (
            "h1",
            h1::to_vec,
            |v| hessian::serde::h1::to_vec(v),
            h1::from_slice,
            |b| hessian::serde::h1::from_slice(b),
            |b, l| hessian::serde::h1::from_slice_with_limits(b, l),
        ),
        (
            "burlap",
            burlap::to_vec,
            |v| hessian::serde::burlap::to_vec(v),
            burlap::from_slice,
            |b| hessian::serde::burlap::from_slice(b),
            |b, l| hessian::serde::burlap::from_slice_with_limits(b, l),
        ),
    ]
}

/// The catalogue's values in the shape of `format` (Hessian 1 and Burlap have no class
/// definitions or typed-list lengths of their own: `hessian::convert::to_h1`).
fn values(format: &str) -> Vec<Value> {
    catalogue::h2_cases()
        .into_iter()
        .map(|c| if format == "h2" { c.value } else { hessian::convert::to_h1(&c.value) })
        .collect()
}

#[test]
fn a_value_through_serde_is_written_as_the_value_encoder_writes_it() {
    for (name, encode, serde_encode, ..) in formats() {
        let mut n = 0;
        for v in values(name) {
            let Ok(want) = encode(&v) else { continue };
            assert_eq!(serde_encode(&v).unwrap(), want, "{name}: {v:?}");
            n += 1;
        }
        assert!(n > 50, "{name}: only {n} values");
    }
}

#[test]
fn a_value_through_serde_is_read_as_the_value_decoder_reads_it() {
    for (name, encode, _, decode, serde_decode, serde_decode_limited) in formats() {
        for v in values(name) {
            let Ok(bytes) = encode(&v) else { continue };
            let want = decode(&bytes).unwrap();
            assert!(serde_decode(&bytes).unwrap().same(&want), "{name}: {v:?}");
            assert!(serde_decode_limited(&bytes, Limits::default()).unwrap().same(&want), "{name}: {v:?}");
        }
    }
}

#[test]
fn the_serde_readers_keep_to_their_limits_in_every_format() {
    let small = Limits::default().with_max_message_size(8);
    for (name, encode, _, _, _, serde_decode_limited) in formats() {
        let bytes = encode(&Value::string("a string longer than eight bytes")).unwrap();
        let e = serde_decode_limited(&bytes, small).unwrap_err();
        assert!(matches!(e.kind(), hessian::ErrorKind::LimitExceeded { .. }), "{name}: {e}");
    }
}

/// A message's first write may be one with no payload (a boolean, a small int, a null) into an
/// output vector that has no room yet: on a fresh thread, after a `to_vec` (which hands its
/// vector to the caller), and after a large message; each gives `to_vec`'s bytes. (The fast
/// paths once took an empty vector's limit for room and stored past its end.)
#[test]
fn a_first_write_without_payload_into_an_empty_output_is_safe() {
    fn scalars() {
        let values: [&dyn erased::Write; 6] = [&true, &false, &0i32, &-1i64, &None::<i32>, &()];
        for v in values {
            let want = v.to_vec();
            let mut got = Vec::new();
            v.to_writer(&mut got);
            assert_eq!(got, want);
            // after `to_vec` took its vector, and after a message larger than the kept room
            let _ = hessian::to_vec(&true).unwrap();
            let mut got = Vec::new();
            v.to_writer(&mut got);
            assert_eq!(got, want);
            let _ = hessian::to_vec(&vec![7u8; 100_000]).unwrap();
            let mut big = Vec::new();
            hessian::to_writer(&mut big, &vec!["x".repeat(1000); 100]).unwrap();
            let mut got = Vec::new();
            v.to_writer(&mut got);
            assert_eq!(got, want);
        }
    }
    std::thread::spawn(scalars).join().unwrap();
    scalars();
}

/// `to_vec` and `to_writer` over a value whose type is erased, for the test above.
mod erased {
    pub trait Write {
        fn to_vec(&self) -> Vec<u8>;
        fn to_writer(&self, out: &mut Vec<u8>);
    }

    impl<T: serde::Serialize> Write for T {
        fn to_vec(&self) -> Vec<u8> {
            hessian::to_vec(self).unwrap()
        }
        fn to_writer(&self, out: &mut Vec<u8>) {
            hessian::to_writer(out, self).unwrap()
        }
    }
}
