//! The Hessian 2.0 conformance catalogue (`hessian_testkit::catalogue`) against the reference,
//! Caucho hessian 4.0.38, in both directions:
//! - `java_writes_rust_reads`: for every case, Java's `Hessian2Output` bytes equal this crate's
//!   encoding, and decoding them (from a slice, from a reader, and from a reader that yields one
//!   byte at a time) gives exactly the catalogue value;
//! - `rust_writes_java_reads`: Java's `Hessian2Input` decodes this crate's bytes for every case to
//!   the expected Java value (deep equality, shared and circular references included) and writes
//!   the decoded value back to the same bytes (`interop/java/src/H2CatalogueCheck.java`);
//! - `decode_cases_agree_with_java`: byte strings in forms Java never writes (non-compact numbers,
//!   small chunks, typed variable-length lists, unknown classes, …) decode here to the catalogue
//!   value and are accepted by Java's `Hessian2Input` with the value `H2Catalogue.decodeOnly()`
//!   names;
//! - `streams_agree_with_java`: several values through one encoder / one `Hessian2Output` (class
//!   definitions, type names and references carried from value to value) give the same bytes,
//!   and each side reads the other's back value by value;
//! - `catalogue_round_trips` (no Java needed): names are unique, every case survives this crate's
//!   own encode/decode, and every `TestHessian2` `arg*` method has its expected value.

use hessian::h2;
use hessian_testkit::catalogue::{self, Case};
use hessian_testkit::java::java;
use std::collections::{BTreeMap, HashSet};

/// Frames: u16 name length, UTF-8 name, u32 byte length, bytes (big-endian), as the Java side.
fn frame(out: &mut Vec<u8>, name: &str, bytes: &[u8]) {
    out.extend_from_slice(&u16::try_from(name.len()).unwrap().to_be_bytes());
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&u32::try_from(bytes.len()).unwrap().to_be_bytes());
    out.extend_from_slice(bytes);
}

fn unframe(mut data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut frames = Vec::new();
    while !data.is_empty() {
        let n = usize::from(u16::from_be_bytes([data[0], data[1]]));
        let name = String::from_utf8(data[2..2 + n].to_vec()).unwrap();
        data = &data[2 + n..];
        let len = u32::from_be_bytes(data[..4].try_into().unwrap()) as usize;
        frames.push((name, data[4..4 + len].to_vec()));
        data = &data[4 + len..];
    }
    frames
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Where two byte strings first differ, with a little context.
fn byte_diff(want: &[u8], got: &[u8]) -> String {
    let i = want.iter().zip(got).take_while(|(a, b)| a == b).count();
    let from = i.saturating_sub(4);
    format!(
        "lengths {} vs {}, first difference at {i}: want …{} got …{}",
        want.len(),
        got.len(),
        hex(&want[from..want.len().min(i + 12)]),
        hex(&got[from..got.len().min(i + 12)])
    )
}

fn short(v: &hessian::Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// A reader that hands out one byte per call, to exercise the buffered reader at every boundary.
struct OneByte<'a>(&'a [u8]);

impl std::io::Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((b, rest)), Some(slot)) => {
                *slot = *b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// Decodes `bytes` every way there is and reports any result that is not the case's value.
fn check_decoding(case: &Case, bytes: &[u8], failures: &mut Vec<String>) {
    check_decoding_to(&case.name, case.decoded(), bytes, failures);
}

fn check_decoding_to(name: &str, want: &hessian::Value, bytes: &[u8], failures: &mut Vec<String>) {
    let results = [
        ("from_slice", h2::from_slice(bytes)),
        ("from_reader", h2::from_reader(bytes)),
        ("from_reader(one byte at a time)", h2::from_reader(OneByte(bytes))),
    ];
    for (how, got) in results {
        match got {
            Ok(got) if catalogue::same_value(&got, want) => {}
            Ok(got) => failures.push(format!("{name}: {how} gave {}, want {}", short(&got), short(want))),
            Err(e) => failures.push(format!("{name}: {how} failed: {e}")),
        }
    }
}

#[test]
fn catalogue_round_trips() {
    let cases = catalogue::h2_cases();
    let mut names = HashSet::new();
    for c in &cases {
        assert!(names.insert(c.name.clone()), "duplicate case name {}", c.name);
    }
    assert_eq!(catalogue::test_hessian2_replies().len(), 92, "TestHessian2 has 92 reply methods");
    let mut failures = Vec::new();
    for c in &cases {
        let bytes = h2::to_vec(&c.value).unwrap();
        check_decoding(c, &bytes, &mut failures);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));

    assert_eq!(catalogue::ARG_METHODS.len(), 90);
    for m in catalogue::ARG_METHODS {
        let want = catalogue::arg_expectation(m).unwrap_or_else(|| panic!("{m} has no reply counterpart"));
        let reply = format!("reply{}", &m[3..]);
        assert_eq!(Some(want), catalogue::reply(&reply), "{m}");
    }
    assert_eq!(catalogue::arg_expectation("argInt_0x30"), Some(hessian::Value::Int(0x30)));
    assert_eq!(catalogue::arg_expectation("argString_null"), None);
    assert_eq!(catalogue::arg_expectation("replyInt_0"), None);
}

#[test]
fn java_writes_rust_reads() {
    let Some(java) = java() else { return };
    let cases = catalogue::h2_cases();
    let java_frames: BTreeMap<String, Vec<u8>> = unframe(&java.run("H2CatalogueWrite", &[], b"")).into_iter().collect();

    let mut failures = Vec::new();
    let ours: HashSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    for name in java_frames.keys() {
        if !ours.contains(name.as_str()) {
            failures.push(format!("{name}: in H2Catalogue.java but not in catalogue.rs"));
        }
    }
    for c in &cases {
        let Some(java_bytes) = java_frames.get(&c.name) else {
            failures.push(format!("{}: in catalogue.rs but not in H2Catalogue.java", c.name));
            continue;
        };
        match h2::to_vec(&c.value) {
            Ok(rust_bytes) if &rust_bytes == java_bytes => {}
            Ok(rust_bytes) => failures.push(format!(
                "{}: Rust bytes differ from Java's: {}",
                c.name,
                byte_diff(java_bytes, &rust_bytes)
            )),
            Err(e) => failures.push(format!("{}: Rust encoding failed: {e}", c.name)),
        }
        check_decoding(c, java_bytes, &mut failures);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn rust_writes_java_reads() {
    let Some(java) = java() else { return };
    let cases = catalogue::h2_cases();
    let mut input = Vec::new();
    for c in &cases {
        frame(&mut input, &c.name, &h2::to_vec(&c.value).unwrap());
    }
    let ok = java_verdicts(&java, &input, cases.len());
    for c in &cases {
        assert!(ok.contains(&c.name), "{}: no verdict from Java", c.name);
    }
}

/// Runs `H2CatalogueCheck` on frames and returns the names it passed, failing on any other verdict.
fn java_verdicts(java: &hessian_testkit::java::Java, frames: &[u8], expected: usize) -> HashSet<String> {
    let out = String::from_utf8(java.run("H2CatalogueCheck", &[], frames)).unwrap();
    let mut ok = HashSet::new();
    let mut failures = Vec::new();
    let mut done = None;
    for line in out.lines() {
        if let Some(name) = line.strip_prefix("OK ") {
            ok.insert(name.to_owned());
        } else if let Some(n) = line.strip_prefix("DONE ") {
            done = n.parse::<usize>().ok();
        } else {
            failures.push(line.to_owned());
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(done, Some(expected), "Java did not read every frame:\n{out}");
    ok
}

#[test]
fn decode_cases_agree_with_java() {
    let cases = catalogue::h2_decode_cases();
    let mut failures = Vec::new();
    let mut frames = Vec::new();
    for c in &cases {
        check_decoding_to(c.name, &c.value, &c.bytes, &mut failures);
        frame(&mut frames, c.name, &c.bytes);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    let Some(java) = java() else { return };
    let ok = java_verdicts(&java, &frames, cases.len());
    for c in &cases {
        assert!(ok.contains(c.name), "{}: no verdict from Java", c.name);
    }
}

fn encode_stream(values: &[hessian::Value]) -> Vec<u8> {
    let mut e = h2::Encoder::new(Vec::new());
    for v in values {
        e.write_value(v).unwrap();
    }
    e.finish().unwrap()
}

/// Reads `want.len()` values with one decoder over `read` and reports differences.
fn check_stream<'de, R: hessian::read::Read<'de>>(
    name: &str,
    how: &str,
    mut d: h2::Decoder<'de, R>,
    want: &[hessian::Value],
    failures: &mut Vec<String>,
) {
    for (i, w) in want.iter().enumerate() {
        match d.read_value() {
            Ok(got) if catalogue::same_value(&got, w) => {}
            Ok(got) => failures.push(format!("{name}[{i}]: {how} gave {}, want {}", short(&got), short(w))),
            Err(e) => failures.push(format!("{name}[{i}]: {how} failed: {e}")),
        }
    }
    if d.end().is_err() {
        failures.push(format!("{name}: {how} left trailing bytes"));
    }
}

#[test]
fn streams_agree_with_java() {
    let cases = catalogue::h2_stream_cases();
    let mut failures = Vec::new();
    let mut frames = Vec::new();
    for c in &cases {
        let bytes = encode_stream(&c.values);
        check_stream(c.name, "from_slice", h2::Decoder::from_slice(&bytes), &c.values, &mut failures);
        frame(&mut frames, c.name, &bytes);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    let Some(java) = java() else { return };

    let java_frames: BTreeMap<String, Vec<u8>> =
        unframe(&java.run("H2CatalogueWrite", &["streams"], b"")).into_iter().collect();
    assert_eq!(java_frames.len(), cases.len(), "stream case names differ: {:?}", java_frames.keys());
    for c in &cases {
        let Some(java_bytes) = java_frames.get(c.name) else {
            failures.push(format!("{}: not in H2Catalogue.streams()", c.name));
            continue;
        };
        let ours = encode_stream(&c.values);
        if &ours != java_bytes {
            failures.push(format!("{}: Rust bytes differ from Java's: {}", c.name, byte_diff(java_bytes, &ours)));
        }
        check_stream(c.name, "from_slice", h2::Decoder::from_slice(java_bytes), &c.values, &mut failures);
        check_stream(c.name, "from_reader", h2::Decoder::from_reader(OneByte(java_bytes)), &c.values, &mut failures);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));

    let ok = java_verdicts(&java, &frames, cases.len());
    for c in &cases {
        assert!(ok.contains(c.name), "{}: no verdict from Java", c.name);
    }
}
