//! Properties of the native serde layers of Hessian 1.0.2 and Burlap 1.0 that are the same for
//! both, written once and run for each format: the native bytes are the dynamic path's
//! (`FORMAT::to_vec(&to_value(v))`), both decoders give the value back, and sequences that do not
//! say their length are counted. (`serde_h1.rs` and `serde_burlap.rs` keep what differs: the
//! bytes each format writes, its offsets and its quirks.)

use hessian::serde::{from_value, to_value};
use hessian::Value;
use hessian_testkit::{structs, workloads};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// One format's serde functions and the dynamic path they are checked against.
trait Format {
    const NAME: &'static str;
    fn to_vec<T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>>;
    fn to_writer<T: ?Sized + Serialize>(w: &mut Vec<u8>, v: &T) -> hessian::Result<()>;
    fn from_slice<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T>;
    fn from_reader<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T>;
    fn value_to_vec(v: &Value) -> hessian::Result<Vec<u8>>;
    fn value_from_slice(b: &[u8]) -> hessian::Result<Value>;
}

struct H1;
struct Burlap;

impl Format for H1 {
    const NAME: &'static str = "Hessian 1";
    fn to_vec<T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>> {
        hessian::serde::h1::to_vec(v)
    }
    fn to_writer<T: ?Sized + Serialize>(w: &mut Vec<u8>, v: &T) -> hessian::Result<()> {
        hessian::serde::h1::to_writer(w, v)
    }
    fn from_slice<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T> {
        hessian::serde::h1::from_slice(b)
    }
    fn from_reader<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T> {
        hessian::serde::h1::from_reader(b)
    }
    fn value_to_vec(v: &Value) -> hessian::Result<Vec<u8>> {
        hessian::h1::to_vec(v)
    }
    fn value_from_slice(b: &[u8]) -> hessian::Result<Value> {
        hessian::h1::from_slice(b)
    }
}

impl Format for Burlap {
    const NAME: &'static str = "Burlap";
    fn to_vec<T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>> {
        hessian::serde::burlap::to_vec(v)
    }
    fn to_writer<T: ?Sized + Serialize>(w: &mut Vec<u8>, v: &T) -> hessian::Result<()> {
        hessian::serde::burlap::to_writer(w, v)
    }
    fn from_slice<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T> {
        hessian::serde::burlap::from_slice(b)
    }
    fn from_reader<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T> {
        hessian::serde::burlap::from_reader(b)
    }
    fn value_to_vec(v: &Value) -> hessian::Result<Vec<u8>> {
        hessian::burlap::to_vec(v)
    }
    fn value_from_slice(b: &[u8]) -> hessian::Result<Value> {
        hessian::burlap::from_slice(b)
    }
}

fn oracle_bytes<F: Format, T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>> {
    F::value_to_vec(&to_value(v)?)
}

fn oracle_decode<F: Format, T: DeserializeOwned>(bytes: &[u8]) -> hessian::Result<T> {
    from_value(F::value_from_slice(bytes)?)
}

/// The native bytes are the dynamic path's (also through `to_writer`), and both decoders, from
/// a slice and from a reader, give the value back.
fn check<F: Format, T: Serialize + DeserializeOwned + PartialEq + Debug>(v: &T) -> Vec<u8> {
    let name = F::NAME;
    let ours = F::to_vec(v).unwrap_or_else(|e| panic!("{name}: {v:?}: {e}"));
    assert_eq!(ours, oracle_bytes::<F, T>(v).unwrap(), "{name}: bytes of {v:?}");
    let mut w = Vec::new();
    F::to_writer(&mut w, v).unwrap();
    assert_eq!(w, ours, "{name}: to_writer of {v:?}");
    assert_eq!(&F::from_slice::<T>(&ours).unwrap_or_else(|e| panic!("{name}: {v:?}: {e}")), v);
    assert_eq!(&F::from_reader::<T>(&ours).unwrap(), v, "{name}");
    assert_eq!(&oracle_decode::<F, T>(&ours).unwrap(), v, "{name}");
    ours
}

/// The native bytes are the dynamic path's; returns them.
fn same_bytes<F: Format, T: ?Sized + Serialize + Debug>(v: &T) -> Vec<u8> {
    let ours = F::to_vec(v).unwrap_or_else(|e| panic!("{}: {v:?}: {e}", F::NAME));
    assert_eq!(ours, oracle_bytes::<F, T>(v).unwrap(), "{}: bytes of {v:?}", F::NAME);
    ours
}

/// Both decoders give equal values for `bytes` (compared by `Debug`); returns the native one.
fn same_decode<F: Format, T: DeserializeOwned + Debug>(bytes: &[u8]) -> T {
    let native = F::from_slice::<T>(bytes).unwrap_or_else(|e| panic!("{}: {e}", F::NAME));
    let dynamic = oracle_decode::<F, T>(bytes).unwrap_or_else(|e| panic!("{}: {e}", F::NAME));
    assert_eq!(format!("{native:?}"), format!("{dynamic:?}"), "{}", F::NAME);
    let streamed = F::from_reader::<T>(bytes).unwrap_or_else(|e| panic!("{}: {e}", F::NAME));
    assert_eq!(format!("{streamed:?}"), format!("{native:?}"), "{}: reading", F::NAME);
    native
}

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

#[test]
fn sequences_without_a_length_are_counted() {
    sequences_are_counted::<H1>();
    sequences_are_counted::<Burlap>();
}

fn workload_structs<F: Format>() {
    let name = F::NAME;
    for n in [0, 1, 10, 5000] {
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
    workload_structs::<H1>();
    workload_structs::<Burlap>();
}
