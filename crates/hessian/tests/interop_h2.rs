//! The Hessian 2.0 conformance catalogue (`hessian_testkit::catalogue`) against the reference,
//! Caucho hessian 4.0.38, in both directions, with one JVM run per direction:
//! - `java_writes_rust_reads` (`H2CatalogueWrite`): for every case, Java's `Hessian2Output`
//!   bytes equal this crate's encoding, and decoding them (from a slice, from a reader, and from
//!   a reader that yields one byte at a time) gives exactly the catalogue value; the same for the
//!   stream cases, several values through one `Hessian2Output` / one `Encoder`;
//! - `rust_writes_java_reads` (`H2CatalogueCheck`): Java's `Hessian2Input` decodes this crate's
//!   bytes for every case to the expected Java value (deep equality, shared and circular
//!   references included), writes the decoded value back to the same bytes, and the matching
//!   `TestHessian2.argX` would accept it; it also accepts every decode-only byte string (forms
//!   Java never writes) with the expected value, and reads the stream cases back;
//! - `catalogue_round_trips` (no Java needed): names are unique, every case, decode-only byte
//!   string and stream survives this crate's own codec, and every `arg*` method has its value.

use hessian::h2;
use hessian::Value;
use hessian_testkit::catalogue::{self, Case, StreamCase};
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

fn short(v: &Value) -> String {
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

/// Decodes `bytes` every way there is and reports any result that is not `want`.
fn check_decoding(name: &str, want: &Value, bytes: &[u8], failures: &mut Vec<String>) {
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

fn encode_stream(values: &[Value]) -> Vec<u8> {
    let mut e = h2::Encoder::new(Vec::new());
    for v in values {
        e.write_value(v).unwrap();
    }
    e.finish().unwrap()
}

/// Reads a stream case's values with one decoder and reports differences.
fn check_stream_with<'de, R: hessian::read::Read<'de>>(
    c: &StreamCase,
    how: &str,
    mut d: h2::Decoder<'de, R>,
    failures: &mut Vec<String>,
) {
    for (i, want) in c.values.iter().enumerate() {
        match d.read_value() {
            Ok(got) if catalogue::same_value(&got, want) => {}
            Ok(got) => failures.push(format!("{}[{i}]: {how} gave {}, want {}", c.name, short(&got), short(want))),
            Err(e) => failures.push(format!("{}[{i}]: {how} failed: {e}", c.name)),
        }
    }
    if d.end().is_err() {
        failures.push(format!("{}: {how} left trailing bytes", c.name));
    }
}

fn check_stream(c: &StreamCase, bytes: &[u8], failures: &mut Vec<String>) {
    check_stream_with(c, "from_slice", h2::Decoder::from_slice(bytes), failures);
    check_stream_with(c, "from_reader(one byte at a time)", h2::Decoder::from_reader(OneByte(bytes)), failures);
}

fn assert_no_failures(failures: &[String]) {
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn catalogue_round_trips() {
    let cases = catalogue::h2_cases();
    let decode_cases = catalogue::h2_decode_cases();
    let streams = catalogue::h2_stream_cases();
    let mut names = HashSet::new();
    let all_names = cases
        .iter()
        .map(|c| c.name.as_str())
        .chain(decode_cases.iter().map(|c| c.name))
        .chain(streams.iter().map(|c| c.name));
    for name in all_names {
        assert!(names.insert(name.to_owned()), "duplicate case name {name}");
    }
    assert_eq!(catalogue::test_hessian2_replies().len(), 92, "TestHessian2 has 92 reply methods");

    let mut failures = Vec::new();
    for c in &cases {
        check_decoding(&c.name, c.decoded(), &h2::to_vec(&c.value).unwrap(), &mut failures);
    }
    for c in &decode_cases {
        check_decoding(c.name, &c.value, &c.bytes, &mut failures);
    }
    for c in &streams {
        check_stream(c, &encode_stream(&c.values), &mut failures);
    }
    assert_no_failures(&failures);

    // Java can write a lone surrogate ("a\ud800b" is `03 61 ed a0 80 62`); a Rust string cannot
    // hold one, so it is a typed error rather than a silently altered string.
    let lone = h2::from_slice(&[0x03, 0x61, 0xed, 0xa0, 0x80, 0x62]).unwrap_err();
    assert!(matches!(lone.kind(), hessian::ErrorKind::LoneSurrogate(0xd800)), "{lone}");

    assert_eq!(catalogue::ARG_METHODS.len(), 90);
    for m in catalogue::ARG_METHODS {
        let want = catalogue::arg_expectation(m).unwrap_or_else(|| panic!("{m} has no reply counterpart"));
        assert_eq!(Some(want), catalogue::reply(&format!("reply{}", &m[3..])), "{m}");
    }
    assert_eq!(catalogue::arg_expectation("argInt_0x30"), Some(Value::Int(0x30)));
    assert_eq!(catalogue::arg_expectation("argString_null"), None);
    assert_eq!(catalogue::arg_expectation("replyInt_0"), None);
}

#[test]
fn java_writes_rust_reads() {
    let Some(java) = java() else { return };
    let cases = catalogue::h2_cases();
    let streams = catalogue::h2_stream_cases();
    let java_frames: BTreeMap<String, Vec<u8>> = unframe(&java.run("H2CatalogueWrite", &[], b"")).into_iter().collect();

    let mut failures = Vec::new();
    let ours: HashSet<&str> = cases.iter().map(|c| c.name.as_str()).chain(streams.iter().map(|c| c.name)).collect();
    for name in java_frames.keys() {
        if !ours.contains(name.as_str()) {
            failures.push(format!("{name}: in H2Catalogue.java but not in catalogue.rs"));
        }
    }
    let java_bytes = |name: &str, failures: &mut Vec<String>| {
        let b = java_frames.get(name);
        if b.is_none() {
            failures.push(format!("{name}: in catalogue.rs but not in H2Catalogue.java"));
        }
        b
    };
    let compare = |name: &str, java: &[u8], ours: &[u8], failures: &mut Vec<String>| {
        if java != ours {
            failures.push(format!("{name}: Rust bytes differ from Java's: {}", byte_diff(java, ours)));
        }
    };
    for c in &cases {
        let Some(java) = java_bytes(&c.name, &mut failures) else { continue };
        match h2::to_vec(&c.value) {
            Ok(ours) => compare(&c.name, java, &ours, &mut failures),
            Err(e) => failures.push(format!("{}: Rust encoding failed: {e}", c.name)),
        }
        check_decoding(&c.name, c.decoded(), java, &mut failures);
    }
    for c in &streams {
        let Some(java) = java_bytes(c.name, &mut failures) else { continue };
        compare(c.name, java, &encode_stream(&c.values), &mut failures);
        check_stream(c, java, &mut failures);
    }
    assert_no_failures(&failures);
}

#[test]
fn rust_writes_java_reads() {
    let Some(java) = java() else { return };
    let cases: Vec<Case> = catalogue::h2_cases();
    let decode_cases = catalogue::h2_decode_cases();
    let streams = catalogue::h2_stream_cases();
    let mut input = Vec::new();
    let mut names = Vec::new();
    for c in &cases {
        frame(&mut input, &c.name, &h2::to_vec(&c.value).unwrap());
        names.push(c.name.as_str());
    }
    for c in &decode_cases {
        frame(&mut input, c.name, &c.bytes);
        names.push(c.name);
    }
    for c in &streams {
        frame(&mut input, c.name, &encode_stream(&c.values));
        names.push(c.name);
    }

    let out = String::from_utf8(java.run("H2CatalogueCheck", &[], &input)).unwrap();
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
    assert_no_failures(&failures);
    assert_eq!(done, Some(names.len()), "Java did not read every frame:\n{out}");
    for name in names {
        assert!(ok.contains(name), "{name}: no verdict from Java");
    }
}
