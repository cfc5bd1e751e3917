//! Hessian 1.0.2 against Caucho 4.0.38's `HessianOutput`/`HessianInput`, byte for byte, over the
//! boundary catalogue of `tests/common` and the call/reply/fault envelopes:
//! - Java writes every case; Rust writes the same bytes, decodes Java's bytes to the expected
//!   value (slice and stream readers) and re-encodes them unchanged;
//! - Rust writes every case; Java decodes and re-writes them, giving Rust's bytes back.

mod common;

use common::{cases, envelopes, frames, parse_frames, same, Envelope};
use hessian::{convert, h1};
use hessian_testkit::java::java;
use std::collections::HashMap;

fn rust_envelope(name: &str, env: &Envelope) -> Vec<u8> {
    match env {
        Envelope::Call(call, 0) => {
            // What HessianOutput's startCall()/writeHeader/writeMethod/completeCall write.
            let mut e = h1::Encoder::new(Vec::new());
            e.write_call_begin(0, 1).unwrap();
            for (n, v) in &call.headers {
                e.write_header(n, v).unwrap();
            }
            e.write_method(&call.method).unwrap();
            for a in &call.args {
                e.write_value(a).unwrap();
            }
            e.write_call_end().unwrap();
            e.finish().unwrap()
        }
        Envelope::Call(call, major) => h1::call_to_vec_versioned(call, *major).unwrap(),
        Envelope::Reply(r) => h1::reply_to_vec(r).unwrap_or_else(|e| panic!("{name}: {e}")),
    }
}

#[test]
fn java_writes_rust_reads_and_rewrites_identically() {
    let Some(java) = java() else { return };
    let java_frames: HashMap<String, Vec<u8>> =
        parse_frames(&java.run("LegacyInterop", &["write", "h1"], b"")).into_iter().collect();
    let cases = cases();
    assert_eq!(java_frames.len(), cases.len() + envelopes().len(), "Java and Rust catalogues differ in size");
    for (name, value) in &cases {
        let bytes = java_frames.get(name).unwrap_or_else(|| panic!("Java has no case {name:?}"));
        let ours = h1::to_vec(value).unwrap();
        assert!(
            &ours == bytes,
            "{name}: Rust bytes differ from Java's\n rust {:?}\n java {:?}",
            &ours[..ours.len().min(120)],
            &bytes[..bytes.len().min(120)]
        );
        let expected = convert::objects_to_maps(value);
        let decoded = h1::from_slice(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(same(&decoded, &expected), "{name}: decoded {decoded} expected {expected}");
        let streamed = h1::from_reader(&bytes[..]).unwrap();
        assert!(same(&streamed, &expected), "{name}: stream decoding differs");
        assert!(&h1::to_vec(&decoded).unwrap() == bytes, "{name}: re-encoding Java's bytes changes them");
    }
    for (name, env) in envelopes() {
        let bytes = &java_frames[name];
        assert_eq!(&rust_envelope(name, &env), bytes, "{name}: Rust envelope differs from Java's");
        match env {
            Envelope::Call(call, major) => {
                let (got, got_major) = h1::call_from_slice(bytes, hessian::Limits::default()).unwrap();
                assert_eq!(got_major, major, "{name}");
                let expected = hessian::Call {
                    method: call.method.clone(),
                    headers: call.headers.iter().map(|(n, v)| (n.clone(), convert::objects_to_maps(v))).collect(),
                    args: call.args.iter().map(convert::objects_to_maps).collect(),
                };
                assert_eq!(got, expected, "{name}");
            }
            Envelope::Reply(r) => {
                let got = h1::reply_from_slice(bytes, hessian::Limits::default()).unwrap();
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
}

#[test]
fn rust_writes_java_reads_and_rewrites_identically() {
    let Some(java) = java() else { return };
    let mut entries: Vec<(String, Vec<u8>)> =
        cases().iter().map(|(n, v)| (n.clone(), h1::to_vec(v).unwrap())).collect();
    for (name, env) in envelopes() {
        entries.push((name.to_string(), rust_envelope(name, &env)));
    }
    let back: HashMap<String, Vec<u8>> =
        parse_frames(&java.run("LegacyInterop", &["reencode", "h1"], &frames(&entries))).into_iter().collect();
    for (name, ours) in &entries {
        let javas = &back[name];
        let expected = match name.as_str() {
            // Java reads a list of unknown length into an ArrayList, which it writes with its length.
            "iterator" => h1::to_vec(&hessian::Value::list((0..3).map(hessian::Value::Int).collect())).unwrap(),
            // The driver re-writes calls with HessianOutput.call: `c 1 0`, no headers.
            "call:v2" | "call:headers" => {
                let (mut call, _) = h1::call_from_slice(ours, hessian::Limits::default()).unwrap();
                call.headers.clear();
                h1::call_to_vec(&call).unwrap()
            }
            _ => ours.clone(),
        };
        assert!(
            javas == &expected,
            "{name}: Java re-wrote Rust's bytes differently: {}",
            String::from_utf8_lossy(&javas[..javas.len().min(300)])
        );
    }
}
