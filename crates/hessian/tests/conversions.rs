//! The gateway property over the whole catalogue: a value decoded from any of Hessian 2.0,
//! Hessian 1.0.2 and Burlap, converted with `hessian::convert` where the data models differ,
//! re-encodes in each other format to exactly the bytes Java writes for the same Java object.
//! Envelopes (calls, replies, faults) cross between Hessian 1 and Burlap the same way.

mod common;

use common::{cases, envelopes, parse_frames};
use hessian::{burlap, convert, h1, h2};
use hessian_testkit::java::java;
use std::collections::HashMap;

/// Cases where Java's Hessian 2 output is not a function of the data the older formats carry.
fn h2_differs(name: &str) -> bool {
    // Hessian2Output writes Byte/Short/Float as ByteHandle/ShortHandle/FloatHandle objects where
    // Hessian 1 and Burlap widen them to int/double; and writes -0.0 as the one-byte 0.0.
    matches!(name, "byte 5" | "short -300" | "float 1.5" | "double 1")
}

#[test]
fn every_catalogue_value_crosses_between_all_three_formats() {
    let Some(java) = java() else { return };
    let get = |fmt: &str| -> HashMap<String, Vec<u8>> {
        parse_frames(&java.run("LegacyInterop", &["write", fmt], b"")).into_iter().collect()
    };
    let (j1, jb, j2) = (get("h1"), get("burlap"), get("h2"));
    let mut failures = Vec::new();
    let mut check = |what: String, ours: hessian::Result<Vec<u8>>, java: &[u8]| match ours {
        Ok(b) if b == java => {}
        Ok(b) => failures.push(format!(
            "{what}: got {}\n want {}",
            String::from_utf8_lossy(&b[..b.len().min(200)]),
            String::from_utf8_lossy(&java[..java.len().min(200)])
        )),
        Err(e) => failures.push(format!("{what}: {e}")),
    };
    for (name, _) in cases() {
        let (b1, bb, b2) = (&j1[&name], &jb[&name], &j2[&name]);
        let v1 = h1::from_slice(b1).unwrap_or_else(|e| panic!("{name} h1: {e}"));
        let v2 = h2::from_slice(b2).unwrap_or_else(|e| panic!("{name} h2: {e}"));
        // Java's Burlap remote is not XML (raw `&` in the URL); that case starts from Hessian 1.
        let java_burlap_readable = name != "remote";
        if java_burlap_readable {
            let vb = burlap::from_slice(bb).unwrap_or_else(|e| panic!("{name} burlap: {e}"));
            check(format!("{name}: burlap -> h1"), h1::to_vec(&vb), b1);
            check(format!("{name}: h1 -> burlap"), burlap::to_vec(&v1), bb);
            if !h2_differs(&name) {
                check(format!("{name}: burlap -> h2"), h2::to_vec(&convert::to_h2(&vb)), b2);
                check(format!("{name}: h2 -> burlap"), burlap::to_vec(&convert::to_h1(&v2)), bb);
            }
        }
        if !h2_differs(&name) {
            check(format!("{name}: h1 -> h2"), h2::to_vec(&convert::to_h2(&v1)), b2);
            check(format!("{name}: h2 -> h1"), h1::to_vec(&convert::to_h1(&v2)), b1);
        }
    }
    for (name, _) in envelopes() {
        if name == "call:v2" {
            continue;
        }
        let (b1, bb) = (&j1[name], &jb[name]);
        if name.starts_with("call:") {
            let (c1, major) = h1::call_from_slice(b1, hessian::Limits::default()).unwrap();
            let cb = burlap::call_from_slice(bb, hessian::Limits::default()).unwrap();
            // Java's header-capable startCall() writes `c 0 1`; compare what follows the version.
            let ours = h1::call_to_vec_versioned(&cb, major).map(|b| b[3..].to_vec());
            check(format!("{name}: burlap -> h1"), ours, &b1[3..]);
            if major == 1 {
                check(format!("{name}: h1 -> burlap"), burlap::call_to_vec(&c1), bb);
            }
        } else {
            let r1 = h1::reply_from_slice(b1, hessian::Limits::default()).unwrap();
            let rb = burlap::reply_from_slice(bb, hessian::Limits::default()).unwrap();
            check(format!("{name}: burlap -> h1"), h1::reply_to_vec(&rb), b1);
            check(format!("{name}: h1 -> burlap"), burlap::reply_to_vec(&r1), bb);
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
