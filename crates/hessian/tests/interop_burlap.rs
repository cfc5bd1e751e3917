//! Burlap 1.0 against Caucho 4.0.38's `BurlapOutput`/`BurlapInput`, byte for byte, over the
//! boundary catalogue of `tests/common` and the call/reply/fault envelopes:
//! - Java writes every case; Rust writes the same bytes, decodes Java's bytes to the expected
//!   value (slice and stream readers) and re-encodes them unchanged;
//! - Rust writes every case; Java decodes and re-writes them, giving Rust's bytes back.
//!
//! The one case where the bytes must differ is a remote whose URL holds `&`: Java prints URLs
//! unescaped, which is not well-formed XML (Java's own `BurlapInput` rejects it), so Rust
//! escapes it.

mod common;

use common::{cases, envelopes, frames, parse_frames, same, Envelope};
use hessian::{burlap, convert, ErrorKind};
use hessian_testkit::java::java;
use std::collections::HashMap;

fn rust_envelope(env: &Envelope) -> Vec<u8> {
    match env {
        Envelope::Call(call, _) => burlap::call_to_vec(call).unwrap(),
        Envelope::Reply(r) => burlap::reply_to_vec(r).unwrap(),
    }
}

fn burlap_envelopes() -> Vec<(&'static str, Envelope)> {
    envelopes().into_iter().filter(|(n, _)| *n != "call:v2").collect()
}

#[test]
fn java_writes_rust_reads_and_rewrites_identically() {
    let Some(java) = java() else { return };
    let java_frames: HashMap<String, Vec<u8>> =
        parse_frames(&java.run("LegacyInterop", &["write", "burlap"], b"")).into_iter().collect();
    let cases = cases();
    assert_eq!(java_frames.len(), cases.len() + burlap_envelopes().len(), "Java and Rust catalogues differ");
    let mut failures = Vec::new();
    for (name, value) in &cases {
        let bytes = java_frames.get(name).unwrap_or_else(|| panic!("Java has no case {name:?}"));
        let ours = burlap::to_vec(value).unwrap();
        if name == "remote" {
            // Java's raw `&` in the URL: not XML; both Java and Rust refuse it.
            let err = burlap::from_slice(bytes).unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::Malformed(_)), "{name}: {err}");
            assert_eq!(
                ours,
                b"<remote><type>com.example.Api</type><string>http://localhost/api?x=1&#38;y=2</string></remote>"
            );
            continue;
        }
        if &ours != bytes {
            failures.push(format!(
                "{name}: Rust bytes differ from Java's\n rust {}\n java {}",
                String::from_utf8_lossy(&ours[..ours.len().min(300)]),
                String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
            ));
            continue;
        }
        let expected = convert::objects_to_maps(value);
        let decoded = burlap::from_slice(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(same(&decoded, &expected), "{name}: decoded {decoded} expected {expected}");
        let streamed = burlap::from_reader(&bytes[..]).unwrap();
        assert!(same(&streamed, &expected), "{name}: stream decoding differs");
        assert!(&burlap::to_vec(&decoded).unwrap() == bytes, "{name}: re-encoding Java's bytes changes them");
    }
    for (name, env) in burlap_envelopes() {
        let bytes = &java_frames[name];
        assert_eq!(
            String::from_utf8_lossy(&rust_envelope(&env)),
            String::from_utf8_lossy(bytes),
            "{name}: Rust envelope differs from Java's"
        );
        match env {
            Envelope::Call(call, _) => {
                let got = burlap::call_from_slice(bytes, hessian::Limits::default()).unwrap();
                let expected = hessian::Call {
                    method: call.method.clone(),
                    headers: call.headers.iter().map(|(n, v)| (n.clone(), convert::objects_to_maps(v))).collect(),
                    args: call.args.iter().map(convert::objects_to_maps).collect(),
                };
                assert_eq!(got, expected, "{name}");
            }
            Envelope::Reply(r) => {
                let got = burlap::reply_from_slice(bytes, hessian::Limits::default()).unwrap();
                let expected = match r {
                    Ok(v) => Ok(convert::objects_to_maps(&v)),
                    Err(mut f) => {
                        f.detail = f.detail.map(|d| convert::objects_to_maps(&d));
                        Err(f)
                    }
                };
                assert_eq!(got, expected, "{name}");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rust_writes_java_reads_and_rewrites_identically() {
    let Some(java) = java() else { return };
    let mut entries: Vec<(String, Vec<u8>)> =
        cases().iter().map(|(n, v)| (n.clone(), burlap::to_vec(v).unwrap())).collect();
    for (name, env) in burlap_envelopes() {
        entries.push((name.to_string(), rust_envelope(&env)));
    }
    let back: HashMap<String, Vec<u8>> =
        parse_frames(&java.run("LegacyInterop", &["reencode", "burlap"], &frames(&entries))).into_iter().collect();
    let mut failures = Vec::new();
    for (name, ours) in &entries {
        let javas = &back[name];
        let expected = match name.as_str() {
            // Java reads Rust's escaped URL and writes it back raw (see the module comment).
            "remote" => {
                b"<remote><type>com.example.Api</type><string>http://localhost/api?x=1&y=2</string></remote>".to_vec()
            }
            // Java reads a list of unknown length into an ArrayList, which it writes with its length.
            "iterator" => burlap::to_vec(&hessian::Value::list((0..3).map(hessian::Value::Int).collect())).unwrap(),
            // The driver re-writes calls with BurlapOutput.call: no headers.
            "call:headers" => {
                let mut call = burlap::call_from_slice(ours, hessian::Limits::default()).unwrap();
                call.headers.clear();
                burlap::call_to_vec(&call).unwrap()
            }
            _ => ours.clone(),
        };
        if javas != &expected {
            failures.push(format!(
                "{name}: Java re-wrote Rust's bytes differently:\n java {}\n want {}",
                String::from_utf8_lossy(&javas[..javas.len().min(300)]),
                String::from_utf8_lossy(&expected[..expected.len().min(300)])
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Burlap prints doubles with Java's `Double.toString`, whose Java 17 algorithm is not a
/// shortest-digits one: Rust reproduces it for every power of two, every power of ten, the
/// smallest subnormals and tens of thousands of random doubles.
#[test]
fn doubles_print_as_java_double_to_string() {
    let Some(java) = java() else { return };
    let out = java.run("LegacyInterop", &["doubles", "30000", "17"], b"");
    let text = String::from_utf8(out).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines() {
        let (hex, javas) = line.split_once(' ').unwrap();
        let d = f64::from_bits(u64::from_str_radix(hex, 16).unwrap());
        n += 1;
        let ours = burlap::text::java_double(d);
        if ours != javas && failures.len() < 20 {
            failures.push(format!("{hex}: java {javas} rust {ours}"));
        }
        assert_eq!(burlap::text::parse_java_double(javas).map(f64::to_bits), Some(d.to_bits()), "{javas}");
    }
    assert!(n > 30000, "too few doubles: {n}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
