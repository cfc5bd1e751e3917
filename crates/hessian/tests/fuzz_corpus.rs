//! Runs the committed fuzz seed corpora (`fuzz/corpus/<target>/`) through the same checks as the
//! fuzz targets, on stable Rust, in the normal test command; and keeps every input the fuzzers
//! found as a regression test (bytes inline). See `docs/fuzzing.md`.

use hessian::{burlap, h1, h2, json, ErrorKind, Value};
use hessian_testkit::catalogue::same_value;
use hessian_testkit::structs::{self, w2};
use std::path::PathBuf;

fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files.iter().map(|f| std::fs::read(f).expect("read a seed")).collect()
}

#[test]
fn h2_corpus() {
    for data in corpus("h2_decode") {
        if let Ok(v) = h2::from_slice(&data) {
            let r = h2::from_reader(data.as_slice()).expect("the reader accepts what the slice accepts");
            assert!(same_value(&v, &r));
            let _ = h2::to_vec(&v);
        }
        let _ = h2::message::call_from_slice(&data, hessian::Limits::default());
        let _ = h2::message::reply_from_slice(&data, hessian::Limits::default());
    }
}

#[test]
fn h1_and_burlap_corpus() {
    for data in corpus("h1_decode") {
        if let Ok(v) = h1::from_slice(&data) {
            assert!(same_value(&v, &h1::from_reader(data.as_slice()).expect("reader")));
            h1::to_vec(&v).expect("a decoded Hessian 1 value encodes");
        }
        let _ = h1::call_from_slice(&data, hessian::Limits::default());
        let _ = h1::reply_from_slice(&data, hessian::Limits::default());
    }
    for data in corpus("burlap_decode") {
        if let Ok(v) = burlap::from_slice(&data) {
            assert!(same_value(&v, &burlap::from_reader(data.as_slice()).expect("reader")));
            let _ = burlap::to_vec(&v);
        }
        let _ = burlap::call_from_slice(&data, hessian::Limits::default());
        let _ = burlap::reply_from_slice(&data, hessian::Limits::default());
    }
}

#[test]
fn json_and_serde_corpus() {
    for data in corpus("json_from_json") {
        let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&data) else { continue };
        if let Ok(v) = json::from_json(&doc) {
            let again = json::from_json(&json::to_json(&v)).expect("to_json output reads back");
            assert!(same_value(&v, &again));
        }
    }
    for data in corpus("serde_h2") {
        let _ = hessian::serde::from_slice::<structs::Item>(&data);
        let _ = hessian::serde::from_slice::<Vec<structs::Item>>(&data);
        let _ = hessian::serde::from_slice::<w2::Order>(&data);
        let _ = hessian::serde::from_slice::<Vec<w2::LineItem>>(&data);
        let _ = hessian::serde::from_slice::<Value>(&data);
        let _ = hessian::serde::from_slice::<serde_json::Value>(&data);
    }
}

/// Native Hessian 1 serde and the dynamic path agree on `data` for `T`: the same value (by
/// `Debug`, so that NaN equals NaN) or both an error; except that only the native path copies
/// a reference (`R`) into a plain type.
fn h1_paths_agree<T: serde::de::DeserializeOwned + std::fmt::Debug>(data: &[u8]) {
    let native = hessian::serde::h1::from_slice::<T>(data);
    let dynamic = h1::from_slice(data).and_then(hessian::serde::from_value::<T>);
    match (&native, &dynamic) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
        (Err(e), Err(_)) => assert!(e.offset() <= data.len() as u64, "{e}"),
        (Ok(_), Err(e)) if is_ref_refused(e) => {}
        _ => panic!("native {native:?}, dynamic {dynamic:?}"),
    }
}

/// The dynamic path's refusal of a reference into a type that cannot share.
fn is_ref_refused(e: &hessian::Error) -> bool {
    matches!(e.kind(), hessian::ErrorKind::InvalidType { found, .. } if found == "ref")
}

#[test]
fn serde_h1_corpus() {
    for data in corpus("serde_h1") {
        h1_paths_agree::<structs::Item>(&data);
        h1_paths_agree::<Vec<structs::Item>>(&data);
        h1_paths_agree::<w2::Order>(&data);
        h1_paths_agree::<Vec<structs::MoneyCents>>(&data);
        h1_paths_agree::<Value>(&data);
        h1_paths_agree::<serde_json::Value>(&data);
        h1_paths_agree::<(String, Vec<u8>, f64, bool)>(&data);
        let _ = hessian::serde::h1::from_reader::<_, w2::Order>(data.as_slice());
    }
}

/// Native Burlap serde and the dynamic path agree on `data` for `T`, as for Hessian 1.
fn burlap_paths_agree<T: serde::de::DeserializeOwned + std::fmt::Debug>(data: &[u8]) {
    let native = hessian::serde::burlap::from_slice::<T>(data);
    let dynamic = burlap::from_slice(data).and_then(hessian::serde::from_value::<T>);
    match (&native, &dynamic) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
        (Err(e), Err(_)) => assert!(e.offset() <= data.len() as u64, "{e}"),
        (Ok(_), Err(e)) if is_ref_refused(e) => {}
        _ => panic!("native {native:?}, dynamic {dynamic:?}"),
    }
}

#[test]
fn serde_burlap_corpus() {
    for data in corpus("serde_burlap") {
        burlap_paths_agree::<structs::Item>(&data);
        burlap_paths_agree::<Vec<structs::Item>>(&data);
        burlap_paths_agree::<w2::Order>(&data);
        burlap_paths_agree::<Vec<structs::MoneyCents>>(&data);
        burlap_paths_agree::<Value>(&data);
        burlap_paths_agree::<serde_json::Value>(&data);
        burlap_paths_agree::<(String, Vec<u8>, f64, bool)>(&data);
        let _ = hessian::serde::burlap::from_reader::<_, w2::Order>(data.as_slice());
    }
}

/// Found by `h2_decode` in its first seconds: a typed list whose type name is the empty string
/// (`U 0x00 …`). The decoder accepts it, as Java's `Hessian2Input` does; the encoder refuses an
/// empty type name with a typed error, as Java's `Hessian2Output.writeType` does
/// ("empty type is not allowed"). The target had wrongly asserted that every decoded value
/// re-encodes; the codec is right, and this pins both halves down.
#[test]
fn empty_type_name_decodes_but_does_not_encode() {
    let bytes = [0x55, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x04, 0x5b, 0x69, 0x6e, 0x74, 0x91, 0x92, 0x5a];
    let v = h2::from_slice(&bytes).expect("decodes");
    match &v {
        Value::List(l) => assert_eq!(l.type_name.as_deref(), Some("")),
        other => panic!("{other}"),
    }
    let e = h2::to_vec(&v).expect_err("an empty type name is not encodable");
    assert!(matches!(e.kind(), ErrorKind::Unencodable(_)), "{e}");
}

/// Found by the property tests: the Hessian 2.0 encoder wrote a NaN's payload bits as they
/// were, where Java's `Hessian2Output.writeDouble` writes `Double.doubleToLongBits(value)`, one
/// canonical NaN. (Hessian 1.0.2 already did.)
#[test]
fn nan_payloads_are_written_as_java_canonical_nan() {
    let odd_nan = f64::from_bits(0x7ff0_0000_0000_0001);
    let canonical = [0x44, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0];
    assert_eq!(h2::to_vec(&Value::Double(odd_nan)).expect("encodes"), canonical);
    assert_eq!(h2::to_vec(&Value::Double(f64::NAN)).expect("encodes"), canonical);
    assert_eq!(hessian::serde::to_vec(&odd_nan).expect("encodes"), canonical);
}

/// Found by `serde_h1` (10-minute run, 2026-12-04): a binary read as a list of `Option`s. The
/// native deserializer handed each byte to the `Option` as a bare integer and failed at the
/// binary's offset, where the dynamic path (`from_value`) reads `Some(byte)`. Both paths now give
/// the same value, in every format.
#[test]
fn a_binary_read_as_a_list_of_options_agrees_with_the_dynamic_path() {
    use std::collections::BTreeMap;
    type T = BTreeMap<String, Vec<Option<i64>>>;
    // the fuzzer's input: a Hessian 1 map typed "java.util.Hasht\x01\0\0\0" whose key and value are binaries
    let found = b"Mt\x00\x13java.util.Hasht\x01\x00\x00\x00B\x00\x13ava.util.Hassht\x01\x00\x00\x00B\x00-\x00\x00\x00\x00F\x00sht\x01\x00\x00\x00B\x00f\x13j.Hasht\x01\x00\x00\x00B\x00\xb6\x00-\x00\x00\x00\x00F\x00\x00\xb6\xff\xff\x00\x00z";
    let native = hessian::serde::h1::from_slice::<T>(found).unwrap();
    let dynamic = h1::from_slice(found).and_then(hessian::serde::from_value::<T>).unwrap();
    assert_eq!(native, dynamic);
    // the same shape in every format, and the plain cases around it
    let m = Value::map(vec![(Value::string("k"), Value::Binary(vec![0, 7, 255]))]);
    let want: T = [("k".to_owned(), vec![Some(0), Some(7), Some(255)])].into();
    assert_eq!(hessian::serde::from_slice::<T>(&h2::to_vec(&m).unwrap()).unwrap(), want);
    assert_eq!(hessian::serde::h1::from_slice::<T>(&h1::to_vec(&m).unwrap()).unwrap(), want);
    assert_eq!(hessian::serde::burlap::from_slice::<T>(&burlap::to_vec(&m).unwrap()).unwrap(), want);
    let bytes = h2::to_vec(&Value::Binary(vec![1, 2])).unwrap();
    assert_eq!(hessian::serde::from_slice::<Vec<u8>>(&bytes).unwrap(), [1, 2]);
    assert_eq!(hessian::serde::from_slice::<Vec<i64>>(&bytes).unwrap(), [1, 2]);
    assert_eq!(hessian::serde::from_slice::<Vec<Option<u8>>>(&bytes).unwrap(), [Some(1), Some(2)]);
}
