//! Writes the seed corpora of the fuzz targets (`fuzz/corpus/<target>/`) from the conformance
//! catalogue: every catalogue value as Hessian 2.0, Hessian 1.0.2, Burlap and typed JSON, the
//! decode-only Hessian 2.0 byte strings, calls and replies in every dialect, and the W1-W3
//! structs through serde. Inputs over 4 KiB (libFuzzer's default `-max_len`) are left out to
//! keep the committed corpus small.
//!
//! Run from the repository root: `cargo run -p hessian-testkit --example fuzz_seeds`.

use hessian::{burlap, h1, h2, json, Call, Value};
use hessian_testkit::catalogue;
use hessian_testkit::structs;
use std::path::Path;

const MAX: usize = 4096;

fn write(target: &str, name: &str, bytes: &[u8]) {
    if bytes.len() > MAX {
        return;
    }
    let dir = Path::new("fuzz/corpus").join(target);
    std::fs::create_dir_all(&dir).expect("create the corpus directory");
    let name: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' }).collect();
    std::fs::write(dir.join(name), bytes).expect("write a seed");
}

fn main() {
    let cases = catalogue::h2_cases();
    for c in &cases {
        let v = &c.value;
        if let Ok(b) = h2::to_vec(v) {
            write("h2_decode", &c.name, &b);
            write("serde_h2", &c.name, &b);
        }
        if let Ok(b) = h1::to_vec(v) {
            write("h1_decode", &c.name, &b);
            write("serde_h1", &c.name, &b);
        }
        if let Ok(b) = burlap::to_vec(v) {
            write("burlap_decode", &c.name, &b);
            write("serde_burlap", &c.name, &b);
        }
        if let Ok(b) = serde_json::to_vec(&json::to_json(v)) {
            write("json_from_json", &c.name, &b);
        }
    }
    for c in catalogue::h2_decode_cases() {
        write("h2_decode", &format!("decode_{}", c.name), &c.bytes);
    }
    // calls and replies in every dialect, with a few catalogue values as arguments
    for (i, c) in cases.iter().step_by(16).enumerate() {
        let call = Call::new(format!("m{i}"), vec![c.value.clone(), Value::Int(i as i32)]);
        let name = format!("call_{}", c.name);
        if let Ok(b) = h2::message::call_to_vec(&call) {
            write("rpc_request", &format!("h2_{name}"), &b);
            write("h2_decode", &name, &b);
        }
        if let Ok(b) = h1::call_to_vec(&call) {
            write("rpc_request", &format!("h1_{name}"), &b);
            write("h1_decode", &name, &b);
        }
        if let Ok(b) = h1::call_to_vec_versioned(&call, 2) {
            write("rpc_request", &format!("hybrid_{name}"), &b);
        }
        if let Ok(b) = burlap::call_to_vec(&call) {
            write("rpc_request", &format!("burlap_{name}"), &b);
            write("burlap_decode", &name, &b);
        }
        let reply = Ok(c.value.clone());
        if let Ok(b) = h2::message::reply_to_vec(&reply) {
            write("h2_decode", &format!("reply_{}", c.name), &b);
        }
        if let Ok(b) = burlap::reply_to_vec(&reply) {
            write("burlap_decode", &format!("reply_{}", c.name), &b);
        }
    }
    // the serde workloads
    let seeds: Vec<(&str, Vec<u8>)> = vec![
        ("w1_item", hessian::serde::to_vec(&structs::Item::of(3)).expect("encodes")),
        ("w1_items", hessian::serde::to_vec(&structs::items(5)).expect("encodes")),
        ("w2_request", hessian::serde::to_vec(&structs::w2::request()).expect("encodes")),
        ("w3_moneys", hessian::serde::to_vec(&structs::moneys(8)).expect("encodes")),
    ];
    for (name, b) in seeds {
        write("serde_h2", name, &b);
    }
    let seeds: Vec<(&str, Vec<u8>)> = vec![
        ("w1_item", hessian::serde::h1::to_vec(&structs::Item::of(3)).expect("encodes")),
        ("w1_items", hessian::serde::h1::to_vec(&structs::items(5)).expect("encodes")),
        ("w2_request", hessian::serde::h1::to_vec(&structs::w2::request()).expect("encodes")),
        ("w3_moneys", hessian::serde::h1::to_vec(&structs::moneys(8)).expect("encodes")),
        ("tuple", hessian::serde::h1::to_vec(&("s", vec![1u8, 2], 0.5f64, true)).expect("encodes")),
        ("map", hessian::serde::h1::to_vec(&[("k", vec![Some(1i64), None])]).expect("encodes")),
    ];
    for (name, b) in seeds {
        write("serde_h1", name, &b);
    }
    let seeds: Vec<(&str, Vec<u8>)> = vec![
        ("w1_item", hessian::serde::burlap::to_vec(&structs::Item::of(3)).expect("encodes")),
        ("w1_items", hessian::serde::burlap::to_vec(&structs::items(5)).expect("encodes")),
        ("w2_request", hessian::serde::burlap::to_vec(&structs::w2::request()).expect("encodes")),
        ("w3_moneys", hessian::serde::burlap::to_vec(&structs::moneys(8)).expect("encodes")),
        ("tuple", hessian::serde::burlap::to_vec(&("s", vec![1u8, 2], 0.5f64, true)).expect("encodes")),
        ("map", hessian::serde::burlap::to_vec(&[("k", vec![Some(1i64), None])]).expect("encodes")),
    ];
    for (name, b) in seeds {
        write("serde_burlap", name, &b);
    }
    for t in [
        "h2_decode",
        "h1_decode",
        "burlap_decode",
        "json_from_json",
        "serde_h2",
        "serde_h1",
        "serde_burlap",
        "rpc_request",
    ] {
        let n = std::fs::read_dir(Path::new("fuzz/corpus").join(t)).map(|d| d.count()).unwrap_or(0);
        println!("{t}: {n} seeds");
    }
}
