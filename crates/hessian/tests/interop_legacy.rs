//! Hessian 1.0.2 and Burlap 1.0 against Caucho 4.0.38's `HessianOutput`/`HessianInput` and
//! `BurlapOutput`/`BurlapInput`, byte for byte, over the boundary catalogue of `tests/common`
//! and the call/reply/fault envelopes, each property written once over [`LegacyFormat`] and run
//! for both formats:
//! - Java writes every case; Rust writes the same bytes, decodes Java's bytes to the expected
//!   value (slice and stream readers) and re-encodes them unchanged; Java's envelopes decode to
//!   the expected call (and Hessian 1's major version) or reply;
//! - Rust writes every case; Java decodes and re-writes them, giving Rust's bytes back.
//!
//! Where the bytes must differ is said by the format ([`LegacyFormat::JAVA_MALFORMED`]: Burlap's
//! `remote`, whose URL Java prints unescaped; [`LegacyFormat::CALLS_REWRITTEN_PLAIN`]: the calls
//! the driver's re-write drops the headers or version of) and, for both, here: an iterator,
//! which Java re-writes with its length. Burlap's own check of doubles is in `interop_burlap.rs`.

mod common;

use common::legacy_formats::LegacyFormat;
use common::serde_formats::{Burlap, H1};
use common::{cases, frames, parse_frames, same, Envelope};
use hessian::{convert, Call, ErrorKind, Limits, Reply, Value};
use hessian_testkit::java::{java, Java};
use std::collections::HashMap;

/// `call` as the decoders give it: objects as typed maps.
fn decoded_call(call: &Call) -> Call {
    Call {
        method: call.method.clone(),
        headers: call.headers.iter().map(|(n, v)| (n.clone(), convert::objects_to_maps(v))).collect(),
        args: call.args.iter().map(convert::objects_to_maps).collect(),
    }
}

/// `reply` as the decoders give it: objects as typed maps, in the value and a fault's detail.
fn decoded_reply(reply: Reply) -> Reply {
    match reply {
        Ok(v) => Ok(convert::objects_to_maps(&v)),
        Err(mut f) => {
            f.detail = f.detail.map(|d| convert::objects_to_maps(&d));
            Err(f)
        }
    }
}

/// At most the first 300 bytes of `b`, as `F` shows bytes.
fn head<F: LegacyFormat>(b: &[u8]) -> String {
    F::show(&b[..b.len().min(300)])
}

fn java_writes<F: LegacyFormat>(java: &Java) {
    let fmt = F::NAME;
    let java_frames: HashMap<String, Vec<u8>> =
        parse_frames(&java.run("LegacyInterop", &["write", F::DRIVER], b"")).into_iter().collect();
    let cases = cases();
    assert_eq!(java_frames.len(), cases.len() + F::envelopes().len(), "{fmt}: Java and Rust catalogues differ in size");
    let mut failures = Vec::new();
    for (name, value) in &cases {
        let bytes = java_frames.get(name).unwrap_or_else(|| panic!("{fmt}: Java has no case {name:?}"));
        let ours = F::value_to_vec(value).unwrap();
        if let Some((_, rust_bytes, java_bytes)) = F::JAVA_MALFORMED.iter().find(|(n, ..)| n == name) {
            // Java's bytes are not the format: both Java and Rust refuse them.
            let err = F::value_from_slice(bytes).unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::Malformed(_)), "{fmt} {name}: {err}");
            assert_eq!(ours, *rust_bytes, "{fmt} {name}: Rust's bytes");
            assert_eq!(bytes, java_bytes, "{fmt} {name}: Java's bytes");
            continue;
        }
        if &ours != bytes {
            failures.push(format!(
                "{fmt} {name}: Rust bytes differ from Java's\n rust {}\n java {}",
                head::<F>(&ours),
                head::<F>(bytes)
            ));
            continue;
        }
        let expected = convert::objects_to_maps(value);
        let decoded = F::value_from_slice(bytes).unwrap_or_else(|e| panic!("{fmt} {name}: {e}"));
        assert!(same(&decoded, &expected), "{fmt} {name}: decoded {decoded} expected {expected}");
        let streamed = F::value_from_reader(bytes).unwrap();
        assert!(same(&streamed, &expected), "{fmt} {name}: stream decoding differs");
        assert!(&F::value_to_vec(&decoded).unwrap() == bytes, "{fmt} {name}: re-encoding Java's bytes changes them");
    }
    for (name, env) in F::envelopes() {
        let bytes = &java_frames[name];
        let ours = F::envelope_to_vec(&env).unwrap_or_else(|e| panic!("{fmt} {name}: {e}"));
        assert!(
            &ours == bytes,
            "{fmt} {name}: Rust envelope differs from Java's\n rust {}\n java {}",
            F::show(&ours),
            F::show(bytes)
        );
        match env {
            Envelope::Call(call, major) => {
                let (got, got_major) = F::call_and_major_from_slice(bytes, Limits::default()).unwrap();
                // Burlap declares no version: only Hessian 1's is checked.
                if let Some(got_major) = got_major {
                    assert_eq!(got_major, major, "{fmt} {name}: major version");
                }
                assert_eq!(got, decoded_call(&call), "{fmt} {name}");
            }
            Envelope::Reply(r) => {
                let got = F::reply_from_slice(bytes, Limits::default()).unwrap();
                assert_eq!(got, decoded_reply(r), "{fmt} {name}");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn rust_writes<F: LegacyFormat>(java: &Java) {
    let fmt = F::NAME;
    let mut entries: Vec<(String, Vec<u8>)> =
        cases().iter().map(|(n, v)| (n.clone(), F::value_to_vec(v).unwrap())).collect();
    for (name, env) in F::envelopes() {
        entries.push((name.to_string(), F::envelope_to_vec(&env).unwrap_or_else(|e| panic!("{fmt} {name}: {e}"))));
    }
    let back: HashMap<String, Vec<u8>> =
        parse_frames(&java.run("LegacyInterop", &["reencode", F::DRIVER], &frames(&entries))).into_iter().collect();
    let mut failures = Vec::new();
    for (name, ours) in &entries {
        let javas = &back[name];
        let expected = if let Some((_, _, java_bytes)) = F::JAVA_MALFORMED.iter().find(|(n, ..)| n == name) {
            // Java reads Rust's bytes and writes its own back.
            java_bytes.to_vec()
        } else if name == "iterator" {
            // Java reads a list of unknown length into an ArrayList, which it writes with its length.
            F::value_to_vec(&Value::list((0..3).map(Value::Int).collect())).unwrap()
        } else if F::CALLS_REWRITTEN_PLAIN.contains(&name.as_str()) {
            let (mut call, _) = F::call_and_major_from_slice(ours, Limits::default()).unwrap();
            call.headers.clear();
            F::call_to_vec(&call).unwrap()
        } else {
            ours.clone()
        };
        if javas != &expected {
            failures.push(format!(
                "{fmt} {name}: Java re-wrote Rust's bytes differently:\n java {}\n want {}",
                String::from_utf8_lossy(&javas[..javas.len().min(300)]),
                String::from_utf8_lossy(&expected[..expected.len().min(300)])
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn java_writes_rust_reads_and_rewrites_identically() {
    let Some(java) = java() else { return };
    java_writes::<H1>(&java);
    java_writes::<Burlap>(&java);
}

#[test]
fn rust_writes_java_reads_and_rewrites_identically() {
    let Some(java) = java() else { return };
    rust_writes::<H1>(&java);
    rust_writes::<Burlap>(&java);
}
