//! The codec half of the type negotiation extension (`docs/negotiation.md`, `hessian::negotiate`):
//! the W2 test vector, referring calls and replies written and read through
//! `hessian::serde::message`, classes defined inline beyond a map, bad input, and the same bytes
//! as the Java implementation (`NegotiateCheck bytes`, `NegotiatingServer`). The Java tests skip
//! without Java locally and fail under CI.

use hessian::negotiate::{message_classes, parse_digest, to_hex, Digest, MapLimits, TypeMap};
use hessian::serde::message::{
    reply_from_slice_negotiated, reply_into_with_classes, reply_to_vec_referring, CallReader, CallWriter,
};
use hessian::{ClassDef, ErrorKind, Fault, Format, Limits, Value};
use hessian_testkit::java::java;
use hessian_testkit::structs::w2::{self, Address, Order};
use std::cell::Cell;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::Arc;

const W2_DIGEST: &str = "35d4fe6759ac6b9273edfd82306e1898";

fn plain_call<T: serde::Serialize + ?Sized>(method: &str, args: &[&T]) -> (Vec<u8>, Vec<Arc<ClassDef>>) {
    let mut w = CallWriter::new(Format::Hessian2, 2, method, &[], args.len()).unwrap();
    for a in args {
        w.arg(a).unwrap();
    }
    w.finish_with_classes().unwrap()
}

fn referring_call<T: serde::Serialize + ?Sized>(
    map: &TypeMap,
    method: &str,
    args: &[&T],
) -> (Vec<u8>, Vec<Arc<ClassDef>>) {
    let mut w = CallWriter::referring(Format::Hessian2, map, method, args.len(), Vec::new()).unwrap();
    for a in args {
        w.arg(a).unwrap();
    }
    w.finish_with_classes().unwrap()
}

/// The W2 request map, from the plain call the Rust writer produces.
fn w2_request_map() -> (Vec<u8>, Arc<TypeMap>) {
    let (plain, classes) = plain_call("exchange", &[&w2::request()]);
    (plain, Arc::new(TypeMap::new(classes).unwrap()))
}

fn w2_reply_map() -> (Vec<u8>, Arc<TypeMap>) {
    let (plain, classes) = reply_into_with_classes(Format::Hessian2, &w2::reply(), Vec::new()).unwrap();
    (plain, Arc::new(TypeMap::new(classes).unwrap()))
}

/// A lookup that knows `maps` and counts its calls.
fn lookup<'a>(maps: &'a [Arc<TypeMap>], calls: &'a Cell<usize>) -> impl FnOnce(&Digest) -> Option<Arc<TypeMap>> + 'a {
    move |d| {
        calls.set(calls.get() + 1);
        maps.iter().find(|m| m.digest() == *d).cloned()
    }
}

fn no_lookup(_: &Digest) -> Option<Arc<TypeMap>> {
    panic!("lookup called for a plain message")
}

/// `plain` without the bytes of each of `map`'s definitions (first occurrence, in order) and
/// with `H 02 00` replaced by the referring header.
fn strip_definitions(plain: &[u8], map: &TypeMap) -> Vec<u8> {
    let mut rest = plain[3..].to_vec();
    for c in map.classes() {
        let one = TypeMap::new([c.clone()]).unwrap();
        let def = one.definitions();
        let at = rest.windows(def.len()).position(|w| w == def).expect("definition in the plain message");
        rest.drain(at..at + def.len());
    }
    let mut out = map.referring_header().to_vec();
    out.extend_from_slice(&rest);
    out
}

#[test]
fn w2_request_map_is_the_test_vector() {
    let (plain, map) = w2_request_map();
    assert_eq!(plain.len(), 578);
    assert_eq!(map.len(), 6);
    assert_eq!(map.canonical().len(), 372);
    assert_eq!(map.hex(), W2_DIGEST);
    assert_eq!(to_hex(&map.digest()), W2_DIGEST);
    assert_eq!(parse_digest(W2_DIGEST), Some(map.digest()));
    let names: Vec<&str> = map.classes().iter().map(|c| c.name.rsplit('.').next().unwrap_or("")).collect();
    assert_eq!(names, ["Order", "Customer", "Address", "LineItem", "Product", "Money"]);
    assert!(map.definitions().ends_with(b"C\x30\x22com.squarespace.hopper.types.Money\x92\x05cents\x08currency"));
    // the same classes from the decoder: the scanner-free way, and the reader's
    assert_eq!(message_classes(&plain, Limits::default()).unwrap(), map.classes());
    let mut r = CallReader::negotiated(Format::Hessian2, &plain, Limits::default(), no_lookup).unwrap();
    assert!(r.type_map().is_none());
    assert_eq!(r.arg::<Order>().unwrap(), w2::request());
    assert_eq!(r.classes(), map.classes());
    assert_eq!(r.finish_with_classes().unwrap(), map.classes());
}

#[test]
fn referring_w2_call_is_the_plain_call_without_its_definitions() {
    let (plain, map) = w2_request_map();
    let (referring, inline) = referring_call(&map, "exchange", &[&w2::request()]);
    assert!(inline.is_empty(), "{inline:?}");
    assert_eq!(referring.len(), 228);
    assert_eq!(&referring[..5], b"H\x02\x01T\x30");
    assert_eq!(&referring[21..33], b"C\x08exchange\x91\x60");
    assert_eq!(referring, strip_definitions(&plain, &map));
    // a Value written through the referring writer is the same message
    let v = hessian::serde::to_value(&w2::request()).unwrap();
    assert_eq!(referring_call(&map, "exchange", &[&v]).0, referring);
    // and plain bytes never change: a plain call after referring ones is still 578 bytes
    assert_eq!(plain_call("exchange", &[&w2::request()]).0, plain);
}

#[test]
fn referring_calls_round_trip_typed_and_as_values() {
    let (plain, map) = w2_request_map();
    let (referring, _) = referring_call(&map, "exchange", &[&w2::request()]);
    let maps = [map.clone()];
    let calls = Cell::new(0);
    let mut r = CallReader::negotiated(Format::Hessian2, &referring, Limits::default(), lookup(&maps, &calls)).unwrap();
    assert_eq!(calls.get(), 1);
    assert_eq!(r.method(), "exchange");
    assert_eq!(r.arg_count(), Some(1));
    assert!(Arc::ptr_eq(r.type_map().unwrap(), &map));
    assert_eq!(r.arg::<Order>().unwrap(), w2::request());
    assert!(r.classes().is_empty());
    assert!(r.finish_with_classes().unwrap().is_empty());

    // value_arg: the same Value as from the plain call
    let mut p = CallReader::new(Format::Hessian2, &plain, Limits::default()).unwrap();
    let want = p.value_arg().unwrap();
    let calls = Cell::new(0);
    let mut r = CallReader::negotiated(Format::Hessian2, &referring, Limits::default(), lookup(&maps, &calls)).unwrap();
    assert_eq!(r.value_arg().unwrap(), want);
    r.finish().unwrap();

    // several arguments sharing the map's classes, and repeated instances
    let m = w2::request().total;
    let (bytes, inline) = referring_call(&map, "pay", &[&m, &m]);
    assert!(inline.is_empty());
    assert_eq!(&bytes[21..28], b"C\x03pay\x92\x65", "Money is the map's class 5");
    let mut r = CallReader::negotiated(Format::Hessian2, &bytes, Limits::default(), |_| Some(map.clone())).unwrap();
    assert_eq!(r.arg::<w2::Money>().unwrap(), m);
    assert_eq!(r.arg::<w2::Money>().unwrap(), m);
    r.finish().unwrap();
}

#[test]
fn referring_replies_round_trip() {
    let (plain, map) = w2_reply_map();
    assert_eq!(plain.len(), 543);
    let referring = reply_to_vec_referring(Format::Hessian2, &map, &w2::reply()).unwrap();
    assert_eq!(referring, strip_definitions(&plain, &map));
    assert_eq!(referring.len(), 193);
    let maps = [map.clone()];
    let calls = Cell::new(0);
    let r =
        reply_from_slice_negotiated::<Order, _>(Format::Hessian2, &referring, Limits::default(), lookup(&maps, &calls))
            .unwrap();
    assert_eq!(calls.get(), 1);
    assert_eq!(r.reply.unwrap(), w2::reply());
    assert!(r.type_map.is_some_and(|m| Arc::ptr_eq(&m, &map)));
    assert!(r.classes.is_empty());
    // as a Value
    let want = hessian::h2::message::reply_from_slice(&plain, Limits::default()).unwrap().unwrap();
    let r =
        reply_from_slice_negotiated::<Value, _>(Format::Hessian2, &referring, Limits::default(), |_| Some(map.clone()))
            .unwrap();
    assert_eq!(r.reply.unwrap(), want);
    // a plain reply reads as before, with its classes
    let r = reply_from_slice_negotiated::<Order, _>(Format::Hessian2, &plain, Limits::default(), no_lookup).unwrap();
    assert_eq!(r.reply.unwrap(), w2::reply());
    assert!(r.type_map.is_none());
    assert_eq!(r.classes, map.classes());
    // a referring fault
    let fault = Fault::new("ServiceException", "boom");
    let plain_fault = hessian::h2::message::reply_to_vec(&Err(fault.clone())).unwrap();
    let mut referring_fault = map.referring_header().to_vec();
    referring_fault.extend_from_slice(&plain_fault[3..]);
    let r = reply_from_slice_negotiated::<Order, _>(Format::Hessian2, &referring_fault, Limits::default(), |_| {
        Some(map.clone())
    })
    .unwrap();
    assert_eq!(r.reply.unwrap_err(), fault);
}

/// `t.Money` as the test maps define it.
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
#[serde(rename = "t.Money")]
struct TMoney {
    cents: i32,
    currency: String,
}

/// `t.Money` with other fields than the map's `t.Money`: a class the map lacks.
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
#[serde(rename = "t.Money")]
struct OtherMoney {
    cents: i32,
    amount: String,
}

#[test]
fn classes_beyond_the_map_are_defined_inline_from_n() {
    // a one-class map of Address; Money is defined inline as class 1
    let o = w2::request();
    let (_, classes) = plain_call("pay", &[&o.customer.address]);
    let map = Arc::new(TypeMap::new(classes).unwrap());
    assert_eq!(map.len(), 1);
    let mut w = CallWriter::referring(Format::Hessian2, &map, "pay", 3, Vec::new()).unwrap();
    w.arg(&o.customer.address).unwrap();
    w.arg(&o.total).unwrap();
    w.arg(&o.total).unwrap();
    let (bytes, inline) = w.finish_with_classes().unwrap();
    assert_eq!(inline.len(), 1);
    assert_eq!(inline[0].name, "com.squarespace.hopper.types.Money");
    let c = b"C\x03pay\x93\x60";
    assert_eq!(&bytes[21..21 + c.len()], c);
    let money_def = TypeMap::new(inline.clone()).unwrap();
    let at = bytes.windows(money_def.definitions().len()).position(|x| x == money_def.definitions()).unwrap();
    assert_eq!(bytes[at + money_def.definitions().len()], 0x61, "the inline class is number 1");
    let mut r = CallReader::negotiated(Format::Hessian2, &bytes, Limits::default(), |_| Some(map.clone())).unwrap();
    assert_eq!(r.arg::<Address>().unwrap(), o.customer.address);
    assert!(r.classes().is_empty());
    assert_eq!(r.arg::<w2::Money>().unwrap(), o.total);
    assert_eq!(r.classes(), &inline[..]);
    assert_eq!(r.value_arg().unwrap(), hessian::serde::to_value(&o.total).unwrap());
    assert_eq!(r.finish_with_classes().unwrap(), inline);

    // the same name with other fields than the map's: another class, inline
    let map = Arc::new(TypeMap::new([ClassDef::new("t.Money", ["cents", "currency"])]).unwrap());
    let other = OtherMoney { cents: 5, amount: "five".into() };
    let same = TMoney { cents: 7, currency: "EUR".into() };
    let mut w = CallWriter::referring(Format::Hessian2, &map, "f", 2, Vec::new()).unwrap();
    w.arg(&other).unwrap();
    w.arg(&same).unwrap();
    let (bytes, inline) = w.finish_with_classes().unwrap();
    assert_eq!(inline, [ClassDef::new("t.Money", ["cents", "amount"])]);
    let mut r = CallReader::negotiated(Format::Hessian2, &bytes, Limits::default(), |_| Some(map.clone())).unwrap();
    assert_eq!(r.arg::<OtherMoney>().unwrap(), other);
    assert_eq!(r.arg::<TMoney>().unwrap(), same);
    r.finish().unwrap();
    assert_eq!(&bytes[bytes.len() - 6..], b"\x60\x97\x03EUR", "the map's class is 0: {bytes:02x?}");
}

fn call_err(bytes: &[u8], maps: &[Arc<TypeMap>], limits: Limits) -> hessian::Error {
    let calls = Cell::new(0);
    let r = CallReader::negotiated(Format::Hessian2, bytes, limits, lookup(maps, &calls));
    let mut r = match r {
        Err(e) => return e,
        Ok(r) => r,
    };
    while !r.at_end().unwrap_or(true) {
        if let Err(e) = r.value_arg() {
            return e;
        }
    }
    r.finish().expect_err("an error")
}

#[test]
fn bad_referring_input_is_a_typed_error_with_an_offset() {
    let (_, map) = w2_request_map();
    let maps = [map.clone()];
    let (referring, _) = referring_call(&map, "exchange", &[&w2::request()]);

    // truncated: no panic, an error within the input; the lookup only once the digest is whole
    for n in 0..referring.len() {
        let calls = Cell::new(0);
        let e =
            match CallReader::negotiated(Format::Hessian2, &referring[..n], Limits::default(), lookup(&maps, &calls)) {
                Err(e) => e,
                Ok(mut r) => loop {
                    match r.value_arg() {
                        Err(e) => break e,
                        Ok(_) => assert!(!r.at_end().unwrap(), "prefix {n} read as a whole call"),
                    }
                },
            };
        assert!(e.offset() <= n as u64, "prefix {n}: {e}");
        assert_eq!(calls.get(), usize::from(n >= 21), "prefix {n}: {e}");
        if (3..21).contains(&n) {
            assert!(matches!(e.kind(), ErrorKind::UnexpectedEof | ErrorKind::LengthPastEnd { .. }), "prefix {n}: {e}");
        }
    }

    // unknown map: nothing after the digest is read
    let mut unknown = referring.clone();
    unknown[5] ^= 1;
    let mut d = map.digest();
    d[0] ^= 1;
    unknown.truncate(21);
    unknown.extend_from_slice(b"garbage");
    let e = call_err(&unknown, &maps, Limits::default());
    assert!(matches!(e.kind(), ErrorKind::UnknownTypeMap(x) if *x == d), "{e}");
    assert_eq!(e.offset(), 5);
    assert!(e.to_string().contains(&to_hex(&d)), "{e}");
    let r = reply_from_slice_negotiated::<Order, _>(Format::Hessian2, &unknown, Limits::default(), |_| None);
    assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnknownTypeMap(_)));

    // digests of the wrong length
    for (head, len) in [(&b"\x2f"[..], 15usize), (b"\x34\x11", 17), (b"\x20", 0), (b"\x34\x10", 16)] {
        let mut b = b"H\x02\x01T".to_vec();
        b.extend_from_slice(head);
        b.extend(std::iter::repeat(7).take(len));
        b.extend_from_slice(&referring[21..]);
        let e = call_err(&b, &maps, Limits::default());
        assert!(matches!(e.kind(), ErrorKind::Malformed(m) if m.contains(&format!("{len} bytes"))), "{e}");
        assert_eq!(e.offset(), 4);
    }
    // not a binary, not T
    let e = call_err(b"H\x02\x01T\x91C\x01f\x90", &maps, Limits::default());
    assert!(matches!(e.kind(), ErrorKind::UnexpectedCode { code: 0x91, .. }), "{e}");
    assert_eq!(e.offset(), 4);
    let e = call_err(b"H\x02\x01C\x01f\x90", &maps, Limits::default());
    assert!(matches!(e.kind(), ErrorKind::UnexpectedCode { code: b'C', .. }), "{e}");
    assert_eq!(e.offset(), 3);

    // class numbers beyond the map, and beyond the map and the inline classes
    let mut b = map.referring_header().to_vec();
    b.extend_from_slice(b"C\x01f\x91\x66");
    let e = call_err(&b, &maps, Limits::default());
    assert!(matches!(e.kind(), ErrorKind::ClassRefOutOfRange { index: 6, len: 6 }), "{e}");
    assert_eq!(e.offset(), 25);
    let mut b = map.referring_header().to_vec();
    b.extend_from_slice(b"C\x01f\x91C\x01X\x91\x01a\x67\x90");
    let e = call_err(&b, &maps, Limits::default());
    assert!(matches!(e.kind(), ErrorKind::ClassRefOutOfRange { index: 7, len: 7 }), "{e}");
    b.truncate(b.len() - 2);
    b.extend_from_slice(b"O\x96\x90");
    // `O 96` is class 6, the inline X: reads one field and ends
    let mut r = CallReader::negotiated(Format::Hessian2, &b, Limits::default(), |_| Some(map.clone())).unwrap();
    assert_eq!(r.value_arg().unwrap(), Value::object(ClassDef::new("X", ["a"]), vec![Value::Int(0)]));
    r.finish().unwrap();
}

#[test]
fn map_classes_count_towards_the_class_limit() {
    let (_, map) = w2_request_map();
    let maps = [map.clone()];
    let (referring, _) = referring_call(&map, "exchange", &[&w2::request()]);
    let limits = Limits::default().with_max_class_defs(5);
    let e = call_err(&referring, &maps, limits);
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "class definitions", limit: 5 }), "{e}");
    assert_eq!(e.offset(), 5);
    let limits = Limits::default().with_max_class_defs(6);
    let mut r = CallReader::negotiated(Format::Hessian2, &referring, limits, |_| Some(map.clone())).unwrap();
    assert_eq!(r.arg::<Order>().unwrap(), w2::request());
    r.finish().unwrap();
    // a seventh class, inline, is one too many
    let mut b = map.referring_header().to_vec();
    b.extend_from_slice(b"C\x01f\x91C\x01X\x91\x01a\x66\x90");
    let e = call_err(&b, &maps, limits);
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "class definitions", limit: 6 }), "{e}");
    // and maps themselves are bounded
    let l = MapLimits { max_classes: 5, ..MapLimits::default() };
    assert!(TypeMap::with_limits(map.classes().iter().cloned(), &l).is_err());
}

#[test]
fn only_hessian2_has_referring_messages() {
    let map = TypeMap::new([ClassDef::new("t.Money", ["cents", "currency"])]).unwrap();
    for format in [Format::Hessian1, Format::Burlap] {
        let e = CallWriter::referring(format, &map, "f", 0, Vec::new()).err().expect("an error");
        assert!(matches!(e.kind(), ErrorKind::Unencodable(m) if m.contains("only Hessian 2")), "{e}");
        assert!(reply_to_vec_referring(format, &map, &1).is_err());
        // plain messages of these formats read as before, and define no classes
        let mut w = CallWriter::new(format, 1, "f", &[], 1).unwrap();
        w.arg(&TMoney { cents: 1, currency: "X".into() }).unwrap();
        let (bytes, classes) = w.finish_with_classes().unwrap();
        assert!(classes.is_empty());
        let mut r = CallReader::negotiated(format, &bytes, Limits::default(), no_lookup).unwrap();
        assert!(r.type_map().is_none());
        assert_eq!(r.arg::<TMoney>().unwrap().cents, 1);
        assert!(r.finish_with_classes().unwrap().is_empty());
        let (reply, classes) = reply_into_with_classes(format, &2i32, Vec::new()).unwrap();
        assert!(classes.is_empty());
        let r = reply_from_slice_negotiated::<i32, _>(format, &reply, Limits::default(), no_lookup).unwrap();
        assert_eq!(r.reply.unwrap(), 2);
    }
}

// ---- against the Java implementation ----

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex")).collect()
}

/// `NegotiateCheck bytes`: name -> bytes.
fn java_bytes() -> Option<HashMap<String, Vec<u8>>> {
    let java = java()?;
    let out = String::from_utf8(java.run("NegotiateCheck", &["bytes"], b"")).unwrap();
    Some(out.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_owned(), unhex(v.trim()))).collect())
}

#[test]
fn java_referring_messages_are_rusts_bytes_and_decode() {
    let Some(j) = java_bytes() else { return };
    let (plain, map) = w2_request_map();
    assert_eq!(j["plain_call"], plain);
    // (a) the referring call Rust writes is the one Java's NegotiatingProxyFactory sends
    let (referring, _) = referring_call(&map, "exchange", &[&w2::request()]);
    assert_eq!(j["referring_call"], referring);
    // (b) Rust decodes Java's referring call, its map learned from Java's plain call
    let jmap = Arc::new(TypeMap::new(message_classes(&j["plain_call"], Limits::default()).unwrap()).unwrap());
    assert_eq!(jmap.hex(), W2_DIGEST);
    let mut r = CallReader::negotiated(Format::Hessian2, &j["referring_call"], Limits::default(), |d| {
        (*d == jmap.digest()).then(|| jmap.clone())
    })
    .unwrap();
    assert_eq!(r.arg::<Order>().unwrap(), w2::request());
    r.finish().unwrap();
    // and Java's referring reply, and the reply bytes are Rust's
    let (plain_reply, reply_map) = w2_reply_map();
    assert_eq!(j["plain_reply"], plain_reply);
    assert_eq!(j["referring_reply"], reply_to_vec_referring(Format::Hessian2, &reply_map, &w2::reply()).unwrap());
    let jreply_map = Arc::new(TypeMap::new(message_classes(&j["plain_reply"], Limits::default()).unwrap()).unwrap());
    assert_eq!(jreply_map.digest(), reply_map.digest());
    let r = reply_from_slice_negotiated::<Order, _>(Format::Hessian2, &j["referring_reply"], Limits::default(), |_| {
        Some(jreply_map.clone())
    })
    .unwrap();
    assert_eq!(r.reply.unwrap(), w2::reply());
    // a class beyond the map, defined inline as class 1 by both
    let amap = Arc::new(TypeMap::new(message_classes(&j["inline_map_call"], Limits::default()).unwrap()).unwrap());
    assert_eq!(amap.len(), 1);
    let o = w2::request();
    let mut w = CallWriter::referring(Format::Hessian2, &amap, "pay", 2, Vec::new()).unwrap();
    w.arg(&o.customer.address).unwrap();
    w.arg(&o.total).unwrap();
    let (ours, inline) = w.finish_with_classes().unwrap();
    assert_eq!(inline.len(), 1);
    assert_eq!(j["inline_call"], ours);
    let mut r =
        CallReader::negotiated(Format::Hessian2, &j["inline_call"], Limits::default(), |_| Some(amap.clone())).unwrap();
    assert_eq!(r.arg::<Address>().unwrap(), o.customer.address);
    assert_eq!(r.arg::<w2::Money>().unwrap(), o.total);
    assert_eq!(r.finish_with_classes().unwrap(), inline);
}

/// A raw HTTP/1.1 POST; returns the status, the headers (lower-case names) and the body.
fn post(port: u16, path: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let mut req = format!("POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: x-application/hessian\r\nContent-Length: {}\r\n", body.len());
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut r = BufReader::new(s);
    let mut status = String::new();
    r.read_line(&mut status).unwrap();
    let code = status.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut hs = Vec::new();
    loop {
        let mut l = String::new();
        r.read_line(&mut l).unwrap();
        let l = l.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            hs.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let len = hs.iter().find(|(k, _)| k == "content-length").and_then(|(_, v)| v.parse::<usize>().ok());
    let mut out = Vec::new();
    match len {
        Some(n) => {
            out.resize(n, 0);
            r.read_exact(&mut out).unwrap();
        }
        None => {
            r.read_to_end(&mut out).unwrap();
        }
    }
    (code, hs, out)
}

fn header<'a>(hs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    hs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

#[test]
fn rust_referring_call_to_the_java_negotiating_server() {
    let Some(java) = java() else { return };
    let mut child = java.spawn("NegotiatingServer", &["0"]);
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).unwrap();
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _child = Kill(child);
    let port: u16 = line.trim().strip_prefix("PORT ").and_then(|p| p.parse().ok()).expect("PORT line");
    let offer = [("Hessian-Type-Maps", "1")];
    let (_, map) = w2_request_map();
    let (referring, _) = referring_call(&map, "exchange", &[&w2::request()]);

    // before the server learned the map: UnknownTypeMap, nothing run
    let (code, hs, body) = post(port, "/bench", &offer, &referring);
    assert_eq!(code, 200);
    assert_eq!(header(&hs, "hessian-type-map-unknown"), Some(W2_DIGEST), "{hs:?}");
    let f = hessian::serde::message::reply_from_slice::<Order>(Format::Hessian2, &body, Limits::default()).unwrap();
    assert_eq!(f.unwrap_err().code, "UnknownTypeMap");

    // the plain call teaches it the map (and the reply map)
    let (plain, classes) = plain_call("exchange", &[&w2::request()]);
    let (code, hs, body) = post(port, "/bench", &offer, &plain);
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    let listed = header(&hs, "hessian-type-map").expect("Hessian-Type-Map").to_owned();
    let digests: Vec<Digest> = listed.split(',').filter_map(parse_digest).collect();
    assert_eq!(digests.first(), Some(&TypeMap::new(classes).unwrap().digest()), "{listed}");
    let r = reply_from_slice_negotiated::<Order, _>(Format::Hessian2, &body, Limits::default(), no_lookup).unwrap();
    assert_eq!(r.reply.unwrap(), w2::reply());
    let reply_map = Arc::new(TypeMap::new(r.classes).unwrap());
    assert!(digests.contains(&reply_map.digest()), "{listed} vs {}", reply_map.hex());

    // now the referring call runs, and with Hessian-Reply-Map the reply refers too
    let rhex = reply_map.hex();
    let (code, hs, body) = post(port, "/bench", &[offer[0], ("Hessian-Reply-Map", &rhex)], &referring);
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(header(&hs, "hessian-type-maps"), Some("1"));
    assert!(hessian::negotiate::is_referring(&body), "{body:02x?}");
    assert_eq!(body.len(), 193);
    let calls = Cell::new(0);
    let maps = [reply_map.clone()];
    let r = reply_from_slice_negotiated::<Order, _>(Format::Hessian2, &body, Limits::default(), lookup(&maps, &calls))
        .unwrap();
    assert_eq!(r.reply.unwrap(), w2::reply());
    assert_eq!(calls.get(), 1);
    // another method referring to the same map (it uses none of its classes)
    let (code, _, body) = post(port, "/bench", &offer, &referring_call(&map, "getItems", &[&3i32]).0);
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    let r = hessian::serde::message::reply_from_slice::<Vec<hessian_testkit::structs::Item>>(
        Format::Hessian2,
        &body,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(r.unwrap(), hessian_testkit::structs::items(3));
}

/// Mutated referring W2 calls and replies (bytes changed, inserted, removed, truncated) are read
/// with the map known: never a panic, and an error or a value, as for any other input.
#[test]
fn mutated_referring_messages_never_panic() {
    let (plain, map) = w2_request_map();
    let (referring, _) = referring_call(&map, "exchange", &[&w2::request()]);
    let reply = reply_to_vec_referring(Format::Hessian2, &map, &w2::reply()).unwrap();
    let seeds = [plain, referring, reply];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rnd = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n.max(1) as u64) as usize
    };
    let lookup = |_: &Digest| Some(map.clone());
    let mut decoded = 0;
    for i in 0..20_000 {
        let mut m = seeds[i % seeds.len()].clone();
        for _ in 0..1 + rnd(3) {
            let at = rnd(m.len() + 1);
            match rnd(4) {
                0 if at < m.len() => m[at] = rnd(256) as u8,
                1 if at < m.len() => {
                    m.remove(at);
                }
                2 => m.insert(at, rnd(256) as u8),
                _ => m.truncate(at),
            }
        }
        if let Ok(mut r) = CallReader::negotiated(Format::Hessian2, &m, Limits::default(), lookup) {
            if r.arg::<Order>().and_then(|_| r.finish()).is_ok() {
                decoded += 1;
            }
        }
        if let Ok(r) = reply_from_slice_negotiated::<Value, _>(Format::Hessian2, &m, Limits::default(), lookup) {
            decoded += usize::from(r.reply.is_ok());
        }
    }
    // some mutations leave a valid message (a changed digit of a price, say)
    assert!(decoded > 0);
}

/// A thread keeps a map's seeded tables (and its serializer's class entries) from one referring
/// message to the next: every later message must be the bytes the first one was, a struct of the
/// map's name with other fields must still be defined inline, and messages on two maps must not
/// take each other's state.
#[test]
fn kept_seed_state_gives_the_same_messages_every_time() {
    let (_, w2_map) = w2_request_map();
    let (_, reply_map) = w2_reply_map();
    let money_map = Arc::new(TypeMap::new([ClassDef::new("t.Money", ["cents", "currency"])]).unwrap());
    let order = w2::request();
    let reply = w2::reply();
    let same = TMoney { cents: 7, currency: "EUR".into() };
    let other = OtherMoney { cents: 5, amount: "five".into() };

    let (first_w2, inline) = referring_call(&w2_map, "exchange", &[&order]);
    assert!(inline.is_empty());
    let first_reply = reply_to_vec_referring(Format::Hessian2, &reply_map, &reply).unwrap();
    let (first_same, inline) = referring_call(&money_map, "f", &[&same]);
    assert!(inline.is_empty());
    for round in 0..4 {
        assert_eq!(referring_call(&w2_map, "exchange", &[&order]).0, first_w2, "round {round}");
        assert_eq!(reply_to_vec_referring(Format::Hessian2, &reply_map, &reply).unwrap(), first_reply);
        // the same name, other fields: defined inline as class 1 after the kept entry of class 0
        let (bytes, inline) = referring_call(&money_map, "f", &[&other]);
        assert_eq!(inline, [ClassDef::new("t.Money", ["cents", "amount"])], "round {round}");
        let mut r =
            CallReader::negotiated(Format::Hessian2, &bytes, Limits::default(), |_| Some(money_map.clone())).unwrap();
        assert_eq!(r.arg::<OtherMoney>().unwrap(), other);
        r.finish().unwrap();
        // and the map's own class is referred to again
        assert_eq!(referring_call(&money_map, "f", &[&same]).0, first_same, "round {round}");
        let mut w = CallWriter::referring(Format::Hessian2, &money_map, "g", 2, Vec::new()).unwrap();
        w.arg(&same).unwrap();
        w.arg(&other).unwrap();
        let (bytes, inline) = w.finish_with_classes().unwrap();
        assert_eq!(inline.len(), 1);
        let mut r =
            CallReader::negotiated(Format::Hessian2, &bytes, Limits::default(), |_| Some(money_map.clone())).unwrap();
        assert_eq!(r.arg::<TMoney>().unwrap(), same);
        assert_eq!(r.arg::<OtherMoney>().unwrap(), other);
        r.finish().unwrap();
        // the decoder's kept tables serve every round too
        let mut r =
            CallReader::negotiated(Format::Hessian2, &first_w2, Limits::default(), |_| Some(w2_map.clone())).unwrap();
        assert_eq!(r.arg::<Order>().unwrap(), order);
        r.finish().unwrap();
        let calls = Cell::new(0);
        let maps = [reply_map.clone()];
        let r = reply_from_slice_negotiated::<Order, _>(
            Format::Hessian2,
            &first_reply,
            Limits::default(),
            lookup(&maps, &calls),
        )
        .unwrap();
        assert_eq!(r.reply.unwrap(), reply);
        assert!(r.classes.is_empty());
    }
    // a call that fails half way leaves no state behind that changes the next one
    let bad = &first_w2[..first_w2.len() - 3];
    let mut r = CallReader::negotiated(Format::Hessian2, bad, Limits::default(), |_| Some(w2_map.clone())).unwrap();
    assert!(r.arg::<Order>().is_err());
    drop(r);
    assert_eq!(referring_call(&w2_map, "exchange", &[&order]).0, first_w2);
    let mut r =
        CallReader::negotiated(Format::Hessian2, &first_w2, Limits::default(), |_| Some(w2_map.clone())).unwrap();
    assert_eq!(r.arg::<Order>().unwrap(), order);
    r.finish().unwrap();
}

/// A value that fails to serialize after writing part of an object.
struct Fails;

impl serde::Serialize for Fails {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeStruct as _};
        let mut st = s.serialize_struct("t.Money", 2)?;
        st.serialize_field("cents", &1)?;
        Err(S::Error::custom("no currency"))?;
        st.end()
    }
}

/// The serializer and the decoder tables a map keeps go back as they were after a message that
/// added nothing, and are reset after one that did (classes defined inline, a dynamic `Value`
/// with a typed list, a message that failed half way or was dropped unfinished): every later
/// message is byte for byte what a fresh map writes, and decodes alike.
#[test]
fn a_maps_kept_state_is_reset_after_messages_that_added_to_it() {
    let fresh = || Arc::new(TypeMap::new([ClassDef::new("t.Money", ["cents", "currency"])]).unwrap());
    let map = fresh();
    let same = TMoney { cents: 7, currency: "EUR".into() };
    let other = OtherMoney { cents: 5, amount: "five".into() };
    let want = referring_call(&fresh(), "f", &[&same]).0;
    let typed = Value::typed_list("[int", vec![Value::Int(1)]);
    for round in 0..3 {
        assert_eq!(referring_call(&map, "f", &[&same]).0, want, "round {round}");
        // a failure half way through an object of the map's class
        let mut w = CallWriter::referring(Format::Hessian2, &map, "f", 1, Vec::new()).unwrap();
        assert!(w.arg(&Fails).is_err());
        drop(w);
        assert_eq!(referring_call(&map, "f", &[&same]).0, want, "after a failed message, round {round}");
        // a class beyond the map, then a dynamic value with a type name
        let mut w = CallWriter::referring(Format::Hessian2, &map, "f", 3, Vec::new()).unwrap();
        w.arg(&other).unwrap();
        w.arg(&typed).unwrap();
        w.arg(&same).unwrap();
        let (grown, inline) = w.finish_with_classes().unwrap();
        assert_eq!(inline.len(), 1);
        assert_eq!(referring_call(&map, "f", &[&same]).0, want, "after a message that grew, round {round}");
        // the decoder's kept tables: grown by the inline class and the type, then back to the seed
        let mut r = CallReader::negotiated(Format::Hessian2, &grown, Limits::default(), |_| Some(map.clone())).unwrap();
        assert_eq!(r.arg::<OtherMoney>().unwrap(), other);
        assert_eq!(r.value_arg().unwrap(), typed);
        assert_eq!(r.arg::<TMoney>().unwrap(), same);
        assert_eq!(r.classes().len(), 1);
        r.finish().unwrap();
        let mut r = CallReader::negotiated(Format::Hessian2, &want, Limits::default(), |_| Some(map.clone())).unwrap();
        assert!(r.classes().is_empty());
        assert_eq!(r.arg::<TMoney>().unwrap(), same);
        r.finish().unwrap();
        // a message whose class number is beyond the seed is refused, not read with a stale class
        let mut r = CallReader::negotiated(Format::Hessian2, &want, Limits::default(), |_| Some(map.clone())).unwrap();
        assert_eq!(r.arg::<TMoney>().unwrap(), same);
        drop(r);
        let mut stale = want.clone();
        let at = stale.iter().rposition(|&b| b == 0x60).unwrap();
        stale[at] = 0x61;
        let mut r = CallReader::negotiated(Format::Hessian2, &stale, Limits::default(), |_| Some(map.clone())).unwrap();
        assert!(r.arg::<TMoney>().is_err(), "round {round}");
    }
}
