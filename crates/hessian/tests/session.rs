//! The caches kept between messages (`hessian::Session`, and each thread's own set) never change
//! a result: every message gives the same bytes, values and errors on a fresh thread, after
//! other messages (good and bad) on the same thread, and through a fresh or a reused session;
//! `to_writer` writes what `to_vec` returns, and `from_reader` reads what `from_slice` reads.

use hessian::Session;
use hessian_testkit::structs::{self, w2, Item, Money};
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// One struct name whose field list depends on the value (`skip_serializing_if`): the case
/// where a definition written before for that name must not be taken on trust.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(rename = "com.example.Shape")]
struct Shape {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    radius: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    points: Vec<Money>,
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape { name: "dot".into(), radius: None, points: vec![] },
        Shape { name: "circle".into(), radius: Some(2.5), points: vec![] },
        Shape { name: "path".into(), radius: None, points: vec![structs::money(), Money::of(7)] },
    ]
}

/// A value whose serialization fails after a struct has been begun.
struct Failing;

impl Serialize for Failing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeStruct};
        let mut st = s.serialize_struct("com.example.Shape", 2)?;
        st.serialize_field("name", "half")?;
        Err(S::Error::custom("this value cannot be written"))
    }
}

/// Every message of the test: its bytes in the three formats, written on a thread that has
/// written nothing before.
#[derive(PartialEq, Debug)]
struct Outputs {
    h2: Vec<Vec<u8>>,
    h1: Vec<Vec<u8>>,
    burlap: Vec<Vec<u8>>,
}

fn encode_all() -> Outputs {
    fn each<F: Fn(&dyn erased::Ser) -> Vec<u8>>(f: F) -> Vec<Vec<u8>> {
        let (money, req, rep, items, shapes) =
            (structs::money(), w2::request(), w2::reply(), structs::items(50), shapes());
        let mut out: Vec<Vec<u8>> = vec![f(&money), f(&req), f(&rep), f(&items)];
        out.extend(shapes.iter().map(|s| f(s)));
        out.push(f(&shapes));
        out
    }
    Outputs { h2: each(|v| v.h2()), h1: each(|v| v.h1()), burlap: each(|v| v.burlap()) }
}

/// A small object-safe front of the three formats' `to_vec` and `to_writer` (which must agree).
mod erased {
    pub trait Ser {
        fn h2(&self) -> Vec<u8>;
        fn h1(&self) -> Vec<u8>;
        fn burlap(&self) -> Vec<u8>;
    }

    impl<T: serde::Serialize> Ser for T {
        fn h2(&self) -> Vec<u8> {
            let v = hessian::to_vec(self).unwrap();
            let mut w = Vec::new();
            hessian::to_writer(&mut w, self).unwrap();
            assert_eq!(w, v, "Hessian 2: to_writer and to_vec disagree");
            v
        }
        fn h1(&self) -> Vec<u8> {
            let v = hessian::serde::h1::to_vec(self).unwrap();
            let mut w = Vec::new();
            hessian::serde::h1::to_writer(&mut w, self).unwrap();
            assert_eq!(w, v, "Hessian 1: to_writer and to_vec disagree");
            v
        }
        fn burlap(&self) -> Vec<u8> {
            let v = hessian::serde::burlap::to_vec(self).unwrap();
            let mut w = Vec::new();
            hessian::serde::burlap::to_writer(&mut w, self).unwrap();
            assert_eq!(w, v, "Burlap: to_writer and to_vec disagree");
            v
        }
    }
}

/// What a fresh thread writes.
fn fresh() -> Outputs {
    std::thread::spawn(encode_all).join().unwrap()
}

/// Writes and reads other messages first, bad ones included: a struct name with other fields,
/// a value that fails half-way, a message cut short, junk.
fn disturb() {
    for s in shapes().iter().rev() {
        hessian::to_vec(s).unwrap();
    }
    assert!(hessian::to_vec(&Failing).is_err());
    assert!(hessian::to_vec(&vec![Failing]).is_err());
    assert!(hessian::serde::h1::to_vec(&Failing).is_err());
    let req = hessian::to_vec(&w2::request()).unwrap();
    for cut in [1, req.len() / 3, req.len() - 1] {
        assert!(hessian::from_slice::<w2::Order>(&req[..cut]).is_err());
    }
    assert!(hessian::from_slice::<w2::Order>(b"C\x05junk\x91\x03abc").is_err());
    assert!(hessian::from_slice::<Money>(&req).is_err());
}

#[test]
fn earlier_messages_on_the_thread_change_no_bytes() {
    let want = fresh();
    // the same thread, twice over, then after bad messages
    assert_eq!(encode_all(), want);
    assert_eq!(encode_all(), want);
    disturb();
    assert_eq!(encode_all(), want);
}

#[test]
fn a_session_fresh_or_reused_writes_the_same_bytes() {
    let want = fresh();
    let mut session = Session::new();
    assert_eq!(session.run(encode_all), want);
    session.run(disturb);
    assert_eq!(session.run(encode_all), want);
    // moved to another thread, the session keeps working
    let got = std::thread::spawn(move || session.run(encode_all)).join().unwrap();
    assert_eq!(got, want);
    // nested sessions
    let (mut outer, mut inner) = (Session::new(), Session::new());
    assert_eq!(outer.run(|| inner.run(encode_all)), want);
    assert_eq!(outer.run(encode_all), want);
}

/// Decodes `bytes` as a `T` through `from_slice` and `from_reader`, which must agree; the
/// value or the error's text (kind and offset).
fn decode<T: serde::de::DeserializeOwned + Debug + PartialEq>(bytes: &[u8]) -> Result<T, String> {
    let a = hessian::from_slice::<T>(bytes).map_err(|e| e.to_string());
    let b = hessian::from_reader::<_, T>(bytes).map_err(|e| e.to_string());
    if a.is_ok() || b.is_ok() {
        assert_eq!(a, b, "from_slice and from_reader disagree");
    }
    a
}

type Decoded = (
    Result<Money, String>,
    Result<w2::Order, String>,
    Result<w2::Order, String>,
    Result<Vec<Item>, String>,
    Vec<Result<Shape, String>>,
    Vec<Result<w2::Order, String>>,
);

fn decode_all(msgs: &Outputs) -> Decoded {
    let h = &msgs.h2;
    let bad = [&h[1][..h[1].len() - 2], &h[1][..40], &h[0][..], b"C\x05junk\x91\x03abc".as_slice()];
    (
        decode(&h[0]),
        decode(&h[1]),
        decode(&h[2]),
        decode(&h[3]),
        h[4..7].iter().map(|b| decode(b)).collect(),
        bad.iter().map(|b| decode(b)).collect(),
    )
}

#[test]
fn earlier_messages_on_the_thread_change_no_value_and_no_error() {
    let msgs = fresh();
    let want = {
        let m = fresh();
        std::thread::spawn(move || decode_all(&m)).join().unwrap()
    };
    assert_eq!(want.0.as_ref().unwrap(), &structs::money());
    assert_eq!(want.1.as_ref().unwrap(), &w2::request());
    assert!(want.5.iter().all(Result::is_err), "{:?}", want.5);
    assert_eq!(decode_all(&msgs), want);
    disturb();
    assert_eq!(decode_all(&msgs), want);
    let mut session = Session::new();
    assert_eq!(session.run(|| decode_all(&msgs)), want);
    session.run(disturb);
    assert_eq!(session.run(|| decode_all(&msgs)), want);
    // the convenience methods are the free functions inside the session
    assert_eq!(session.from_slice::<Money>(&msgs.h2[0]).unwrap(), structs::money());
    assert_eq!(session.from_reader::<_, w2::Order>(&msgs.h2[1][..]).unwrap(), w2::request());
    assert_eq!(session.to_vec(&w2::request()).unwrap(), msgs.h2[1]);
    let mut out = Vec::new();
    session.to_writer(&mut out, &w2::reply()).unwrap();
    assert_eq!(out, msgs.h2[2]);
}

/// A writer that takes `room` bytes and then fails.
struct Full {
    room: usize,
    got: Vec<u8>,
}

impl std::io::Write for Full {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.got.len() >= self.room {
            return Err(std::io::Error::new(std::io::ErrorKind::WriteZero, "full"));
        }
        let n = buf.len().min(self.room - self.got.len());
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_writer_is_an_io_error_and_the_next_message_is_whole() {
    let want = hessian::to_vec(&w2::request()).unwrap();
    let mut w = Full { room: 100, got: Vec::new() };
    let e = hessian::to_writer(&mut w, &w2::request()).unwrap_err();
    assert!(matches!(e.kind(), hessian::ErrorKind::Io(_)), "{e}");
    assert_eq!(w.got, want[..100]);
    let mut ok = Vec::new();
    hessian::to_writer(&mut ok, &w2::request()).unwrap();
    assert_eq!(ok, want);
}

/// A value that fails by itself (not a struct).
struct FailingValue;

impl Serialize for FailingValue {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("this field cannot be written"))
    }
}

/// A struct whose second field fails by itself, and one whose second field is a struct that
/// fails by itself: the errors' offsets are where the field's value starts, whether the outer
/// struct's definition was written on trust or after a probe pass.
#[derive(Serialize)]
#[serde(rename = "com.example.Holder")]
struct Holder<T> {
    cents: i32,
    inner: T,
}

/// A Java enum (written as an object of its own class).
#[derive(Serialize, Clone, Copy)]
#[serde(rename = "com.example.Color")]
enum Color {
    Red,
}

/// `Money` written by hand under the derive's remote name but with one field only: the same
/// name at another address, with another field list.
struct OneFieldMoney(i32);

impl Serialize for OneFieldMoney {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Money", 1)?;
        st.serialize_field("cents", &self.0)?;
        st.end()
    }
}

/// The thread's serializer remembers the first struct of its last message and writes the same
/// definition from memory when the next message starts with the same struct (`FirstMemo`):
/// every message that could meet a stale memory writes what a fresh thread writes, in every
/// order, `to_vec` and `to_writer` alike. The cases: a first struct after a Java enum, after an
/// object written as a `Value` (the class already in the tables), the same name with other
/// fields, a first struct that fails (by itself, or in a field's value), and a message that
/// starts with a list of structs.
#[test]
fn a_remembered_first_struct_never_changes_the_next_message() {
    let money = structs::money();
    let value_money = {
        let class = std::sync::Arc::new(hessian::ClassDef {
            name: "Money".into(),
            fields: vec!["cents".into(), "text".into()],
        });
        hessian::Value::Object(Box::new(hessian::Object {
            class,
            fields: vec![hessian::Value::Int(5), hessian::Value::String("5 cents.".into())],
        }))
    };
    type Msg = Box<dyn Fn() -> Result<Vec<u8>, String> + Send + Sync>;
    fn msg<T: Serialize + Send + Sync + 'static>(v: T) -> Msg {
        Box::new(move || {
            let a = hessian::to_vec(&v).map_err(|e| e.to_string());
            let mut w = Vec::new();
            let b = hessian::to_writer(&mut w, &v).map(|()| w).map_err(|e| e.to_string());
            assert_eq!(a, b, "to_vec and to_writer disagree");
            a
        })
    }
    let msgs: Vec<Msg> = vec![
        msg(money.clone()),
        msg((Color::Red, money.clone())),
        msg((value_money.clone(), money.clone())),
        msg((money.clone(), value_money)),
        msg(OneFieldMoney(3)),
        msg((OneFieldMoney(4), money.clone())),
        msg(vec![money.clone(), Money::of(9)]),
        msg(w2::request()),
        msg(shapes()),
        msg((money.clone(), Failing)),
        msg(Holder { cents: 1, inner: FailingValue }),
        msg(Holder { cents: 2, inner: Failing }),
        msg(Holder { cents: 3, inner: Holder { cents: 4, inner: FailingValue } }),
    ];
    let want: Vec<_> = std::thread::scope(|s| msgs.iter().map(|m| s.spawn(m).join().unwrap()).collect());
    // every message after every other one (and after itself), on one thread
    for (i, m) in msgs.iter().enumerate() {
        for (j, before) in msgs.iter().enumerate() {
            let _ = before();
            assert_eq!(m(), want[i], "message {i} after message {j}");
            assert_eq!(m(), want[i], "message {i} twice after message {j}");
        }
    }
}
