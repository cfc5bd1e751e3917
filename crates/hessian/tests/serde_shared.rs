//! Properties of the native serde layers of Hessian 1.0.2 and Burlap 1.0 that are the same for
//! both, written once and run for each format: the native bytes are the dynamic path's
//! (`FORMAT::to_vec(&to_value(v))`) for every scalar and compound type of
//! `docs/serde-mapping.md` (`common/serde_types.rs`), the catalogue's values and the W1-W3
//! structs, both decoders give the value back, and sequences that do not say their length are
//! counted. (`serde_h1.rs` and `serde_burlap.rs` keep what differs: the
//! bytes each format writes, its offsets and its quirks.)

mod common;

use common::serde_types::*;
use hessian::serde::{from_value, to_value, Date};
use hessian::{ErrorKind, Value};
use hessian_testkit::{structs, workloads};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
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

#[test]
fn compound_types_write_the_dynamic_paths_bytes() {
    compound_types::<H1>();
    compound_types::<Burlap>();
}
