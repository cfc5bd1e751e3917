//! Hessian libraries of other languages against the Rust server and codec: python-hessian
//! (PyPI; Hessian 1 calls and the `c 2 0` hybrid with a Hessian 2 reply) and hessian.js (npm;
//! Hessian 2 and Hessian 1 bodies built with its encoders, read with its decoders). Each peer:
//! - calls the W1/W2 service (`/bench`) and checks every reply against the workload's
//!   definition, while the server checks the W2 request;
//! - reads every `TestHessian2` reply of the conformance catalogue (`/test2`), compared here
//!   with the catalogue value;
//! - sends every `argX` value it can express, which the server compares with the catalogue;
//! - encodes the same values, which the Rust decoder reads back here.
//!
//! The peers are pinned in `interop/peers` and installed on first use (`hessian_testkit::peers`);
//! locally the tests skip when Python or Node.js is missing, under `CI` they fail.

use hessian::json::to_json;
use hessian_demo::{demo_builder, Executions};
use hessian_testkit::catalogue::{self, same_java_value};
use hessian_testkit::peers::{self, json_lines, matches, Peer};
use serde_json::json;
use std::sync::Arc;

/// Runs `f` with the base URL of a demo server (`/bench`, `/test2`) on loopback and the
/// server's execution counts.
fn with_server<T>(f: impl FnOnce(&str, &Executions) -> T) -> T {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let executions = Arc::new(Executions::default());
    let server = rt.block_on(demo_builder(&executions).build().bind("127.0.0.1:0")).expect("bind");
    let base = format!("http://{}", server.local_addr());
    let out = f(&base, &executions);
    rt.block_on(server.shutdown());
    out
}

/// The `w` command: W1 for five sizes and W2, each checked by the peer; the server ran each.
fn workloads(peer: &Peer, version: &str) {
    with_server(|base, ex| {
        let out = peer.run(&["w", &format!("{base}/bench"), version], "");
        let oks: Vec<&str> = out.lines().filter(|l| l.starts_with("ok ")).collect();
        assert_eq!(oks.len(), 6, "version {version}: {out}");
        assert_eq!((ex.get_items(), ex.exchange()), (5, 1), "the server ran every call once");
    });
}

/// The `replies` command over every `TestHessian2` reply: each must read as the catalogue value,
/// except `known`, the replies the library itself cannot read (with the reason it gives).
fn replies(peer: &Peer, version: &str, known: &[&str]) {
    let cases = catalogue::test_hessian2_replies();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    let out = with_server(|base, _| peer.run(&["replies", &format!("{base}/test2"), version], &names.join("\n")));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), cases.len(), "one line per method:\n{out}");
    let mut failed = Vec::new();
    for (case, line) in cases.iter().zip(&lines) {
        assert_eq!(line["method"], json!(case.name));
        let verdict = match line.get("value") {
            Some(v) => matches(&case.value, v),
            None => Err(format!("the library failed: {}", line["error"])),
        };
        if let Err(why) = verdict {
            failed.push((case.name.as_str(), why));
        }
    }
    let names: Vec<&str> = failed.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, known, "version {version}: replies read differently than expected: {failed:#?}");
}

/// Every `argX` value as a JSON line for the `args` and `encode` commands.
fn arg_lines(key: &str) -> String {
    catalogue::ARG_METHODS
        .iter()
        .map(|m| {
            let value = catalogue::arg_expectation(m).expect("expectation");
            json!({ key: m, "value": to_json(&value) }).to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `args` command: every value the library can express arrives intact (the server's `argX`
/// answers `true`); `unsupported` lists those it cannot write.
fn args(peer: &Peer, version: &str, unsupported: &[&str]) {
    let out = with_server(|base, _| peer.run(&["args", &format!("{base}/test2"), version], &arg_lines("method")));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), catalogue::ARG_METHODS.len(), "{out}");
    let mut skipped = Vec::new();
    for line in &lines {
        let method = line["method"].as_str().expect("method");
        if line.get("unsupported").is_some() {
            skipped.push(method);
            continue;
        }
        assert_eq!(line.get("result"), Some(&json!(true)), "version {version}, {method}: {line}");
    }
    assert_eq!(skipped, unsupported, "version {version}: the values the library cannot write");
}

/// The `encode` command: what the library's encoder writes for every value it can express reads
/// back, with the Rust decoder of `version`, as the value.
fn encoded(peer: &Peer, version: &str, command: &[&str], unsupported: &[&str]) {
    let out = peer.run(command, &arg_lines("name"));
    let mut skipped = Vec::new();
    for line in json_lines(&out) {
        let name = line["name"].as_str().expect("name");
        let Some(hex) = line["hex"].as_str() else {
            skipped.push(name.to_owned());
            continue;
        };
        let bytes: Vec<u8> =
            (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex")).collect();
        let got = match version {
            "1" => hessian::h1::decode::from_slice(&bytes),
            _ => hessian::h2::from_slice(&bytes),
        }
        .unwrap_or_else(|e| panic!("version {version}, {name}: the Rust decoder refused {hex}: {e}"));
        let want = catalogue::arg_expectation(name).expect("expectation");
        assert!(same_java_value(&got, &want), "version {version}, {name}: read {got}, expected {want} (bytes {hex})");
    }
    assert_eq!(skipped, unsupported, "version {version}: the values the library cannot write");
}

// ---- python-hessian ----

/// What python-hessian has no way to write: a list's type name (it writes every list untyped),
/// and a typed map with keys that are not strings (it writes a typed map only as an object,
/// `M t type` with field names).
const PYTHON_UNSUPPORTED: &[&str] = &[
    "argTypedFixedList_0",
    "argTypedFixedList_1",
    "argTypedFixedList_7",
    "argTypedFixedList_8",
    "argTypedMap_2",
    "argTypedMap_3",
];

/// The Hessian 1 replies python-hessian reads into something else: it reads a typed map into an object
/// whose field names are the keys turned into strings, so the list key `["a"]` of
/// `replyTypedMap_3` becomes the field `"('a',)"`.
const PYTHON_MISREAD: &[&str] = &["replyTypedMap_3"];

#[test]
fn python_hessian_calls_the_workloads_in_hessian_1_and_the_hybrid() {
    let Some(py) = peers::python_hessian() else { return };
    workloads(&py, "1");
    workloads(&py, "2");
}

#[test]
fn python_hessian_reads_every_test2_reply() {
    let Some(py) = peers::python_hessian() else { return };
    replies(&py, "1", PYTHON_MISREAD);
    // its Hessian 2 reader keeps map keys as they are
    replies(&py, "2", &[]);
}

#[test]
fn python_hessian_arguments_arrive_intact() {
    let Some(py) = peers::python_hessian() else { return };
    args(&py, "1", PYTHON_UNSUPPORTED);
    args(&py, "2", PYTHON_UNSUPPORTED);
}

#[test]
fn the_rust_decoder_reads_what_python_hessian_writes() {
    let Some(py) = peers::python_hessian() else { return };
    encoded(&py, "1", &["encode"], PYTHON_UNSUPPORTED);
}

// ---- hessian.js ----

/// hessian.js writes every value of the catalogue.
const NODE_UNSUPPORTED: &[&str] = &[];

/// The replies hessian.js reads into something else: it reads a map into a JavaScript object,
/// whose property names are strings, so the list key `["a"]` of the `_3` maps becomes `"a"`.
const NODE_MISREAD: &[&str] = &["replyUntypedMap_3", "replyTypedMap_3"];

#[test]
fn hessian_js_calls_the_workloads_in_hessian_2_and_1() {
    let Some(js) = peers::hessian_js() else { return };
    workloads(&js, "2");
    workloads(&js, "1");
}

#[test]
fn hessian_js_reads_every_test2_reply() {
    let Some(js) = peers::hessian_js() else { return };
    replies(&js, "2", NODE_MISREAD);
    replies(&js, "1", NODE_MISREAD);
}

#[test]
fn hessian_js_arguments_arrive_intact() {
    let Some(js) = peers::hessian_js() else { return };
    args(&js, "2", NODE_UNSUPPORTED);
    args(&js, "1", NODE_UNSUPPORTED);
}

#[test]
fn the_rust_decoder_reads_what_hessian_js_writes() {
    let Some(js) = peers::hessian_js() else { return };
    encoded(&js, "2", &["encode", "2"], NODE_UNSUPPORTED);
    encoded(&js, "1", &["encode", "1"], NODE_UNSUPPORTED);
}
