//! The `hessian` binary end to end: decode → encode reproduces Java's bytes exactly (values and
//! whole messages), Rust-encoded edge values survive the same trip, hand-written JSON encodes as
//! documented, and bad input fails with a clear message and exit status 1, never a panic.

use hessian::h2;
use hessian::{ClassDef, List, Map, Value};
use hessian_testkit::{java::java, workloads};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn hessian(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hessian");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait for hessian");
    let _ = writer.join();
    out
}

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = hessian(args, stdin);
    assert!(out.status.success(), "hessian {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Fails with status 1 and a one-line `hessian: error:` message (a panic exits with 101).
fn fails(args: &[&str], stdin: &[u8]) -> String {
    let out = hessian(args, stdin);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "hessian {args:?} should fail cleanly; stderr: {err}");
    assert!(err.starts_with("hessian: error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// decode (indented and compact) then encode gives back exactly `bytes`; dump succeeds.
fn round_trip(name: &str, bytes: &[u8]) -> String {
    let json = ok(&["decode"], bytes);
    let again = ok(&["encode"], &json);
    assert!(again == bytes, "{name}: decode -> encode changed the bytes ({} vs {})", again.len(), bytes.len());
    let compact = ok(&["decode", "--compact"], bytes);
    assert_eq!(compact.iter().filter(|b| **b == b'\n').count(), 1, "{name}: compact output is one line");
    assert!(ok(&["encode", "-"], &compact) == bytes, "{name}: compact JSON does not encode back");
    let trace = ok(&["dump"], bytes);
    assert!(trace.len() > 20, "{name}: empty trace");
    String::from_utf8(json).expect("JSON is UTF-8")
}

#[test]
fn java_workloads_round_trip_byte_for_byte() {
    let Some(java) = java() else { return };
    for (name, n) in
        [("items", "10"), ("items", "5000"), ("request", "0"), ("reply", "0"), ("money", "0"), ("moneys", "10000")]
    {
        let bytes = java.run("WriteWorkload", &[name, n], b"");
        round_trip(&format!("{name}({n})"), &bytes);
    }
}

#[test]
fn java_messages_round_trip_byte_for_byte() {
    let Some(java) = java() else { return };
    let cases: [(&[&str], &str); 10] = [
        (&["call-exchange"], r#""call": "exchange""#),
        (&["call-shared"], r#"[{"ref": 0}]"#),
        (&["call-none"], r#""args": []"#),
        (&["reply-items", "10"], r#""reply": ["#),
        (&["reply-items", "5000"], r#""object": "org.example.remoting.Item""#),
        (&["reply-order"], r#""placed": {"date": "2008-01-10T21:21:00Z"}"#),
        (&["reply-mixed"], r#""type": "[int""#),
        (&["value-mixed"], r#"{"double": "NaN"}"#),
        (&["fault"], r#""detail": {"#),
        (&["fault-plain"], r#""code": "NoSuchMethodException""#),
    ];
    for (args, needle) in cases {
        let bytes = java.run("CliSamples", args, b"");
        let json = round_trip(&format!("{args:?}"), &bytes);
        assert!(json.contains(needle), "{args:?}: {needle} not in\n{}", &json[..json.len().min(2000)]);
    }
}

fn rust_edge_values() -> Vec<Value> {
    let mut items = vec![Value::Null, Value::Bool(true), Value::Bool(false)];
    for i in
        [0, 1, -1, -16, -17, 47, 48, -2048, -2049, 2047, 2048, -262144, -262145, 262143, 262144, i32::MIN, i32::MAX]
    {
        items.push(Value::Int(i));
    }
    for l in [
        0,
        -8,
        -9,
        15,
        16,
        -2048,
        -2049,
        2047,
        2048,
        -262144,
        -262145,
        262143,
        262144,
        i64::from(i32::MIN),
        i64::from(i32::MAX),
        i64::from(i32::MAX) + 1,
        (1 << 53) + 1,
        i64::MIN,
        i64::MAX,
    ] {
        items.push(Value::Long(l));
    }
    for d in [
        0.0,
        1.0,
        -1.0,
        127.0,
        -128.0,
        128.0,
        32767.0,
        -32768.0,
        32768.0,
        0.001,
        -0.001,
        2147483.647,
        1.25,
        0.1,
        1e300,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::MAX,
        f64::from_bits(0x7ff0_0000_0000_0001),
    ] {
        items.push(Value::Double(d));
    }
    for ms in [0, 60_000, 1_200_000_000_000, 1_200_000_000_123, -1, i64::MAX, i64::MIN, 253_402_300_800_000] {
        items.push(Value::Date(ms));
    }
    for n in [0usize, 1, 31, 32, 1023, 1024, 32768, 32769, 70000] {
        items.push(Value::String("x".repeat(n)));
    }
    let emoji: String = (0..40000).map(|i| if i % 5 == 0 { '😀' } else { 'é' }).collect();
    items.push(Value::String(emoji));
    // A surrogate pair straddling the 0x8000-unit chunk boundary.
    items.push(Value::String(format!("{}😀tail", "a".repeat(0x7fff))));
    items.push(Value::string("nul \u{0} and € and 𝄞"));
    for n in [0usize, 15, 16, 1023, 1024, 8189, 8190, 20000, 70000] {
        items.push(Value::Binary((0..n).map(|i| (i * 13) as u8).collect()));
    }
    let money = ClassDef::new("Money", ["cents", "text"]);
    let m = Value::object(money.clone(), vec![Value::Int(1), Value::string("1 cents.")]);
    items.push(m);
    items.push(Value::Ref(1));
    items.push(Value::Ref(0));
    // More than 16 classes: references past 15 take the `O int` form.
    for c in 0..20 {
        let class = ClassDef::new(format!("C{c}"), [format!("f{c}")]);
        items.push(Value::object(class, vec![Value::Int(c)]));
    }
    items.push(Value::object(money, vec![Value::Int(2), Value::Null]));
    items.push(Value::typed_list("[int", vec![Value::Int(1), Value::Int(2)]));
    items.push(Value::typed_list("[int", (0..100).map(Value::Int).collect()));
    items.push(Value::typed_list("[string", vec![]));
    items.push(Value::List(Box::new(List {
        type_name: Some("java.util.ArrayList".into()),
        fixed_length: false,
        items: vec![Value::Int(1)],
    })));
    items.push(Value::List(Box::new(List { type_name: None, fixed_length: false, items: vec![Value::Null] })));
    items.push(Value::list((0..8).map(Value::Int).collect()));
    items.push(Value::map(vec![(Value::string("a"), Value::Int(1)), (Value::Int(2), Value::list(vec![]))]));
    items.push(Value::map(vec![(Value::string("int"), Value::Int(1)), (Value::string("a"), Value::Null)]));
    items.push(Value::typed_map("java.util.Hashtable", vec![(Value::string("k"), Value::string("v"))]));
    items.push(Value::Map(Box::new(Map { type_name: Some("java.util.Hashtable".into()), entries: vec![] })));
    let mut nested = Value::Int(0);
    for i in 0..200 {
        nested = if i % 2 == 0 { Value::list(vec![nested]) } else { Value::map(vec![(Value::Int(i), nested)]) };
    }
    items.push(nested);
    vec![Value::list(items.clone()), Value::list(vec![Value::Binary(vec![1; 5000]), Value::Binary(vec![2; 9000])])]
        .into_iter()
        .chain(items)
        .collect()
}

#[test]
fn rust_edge_values_round_trip_byte_for_byte() {
    let values = rust_edge_values();
    // One process per value would be slow: the full list is the first value; spot-check a few alone.
    for (i, v) in values.iter().enumerate().filter(|(i, _)| *i < 2 || i % 9 == 0) {
        let bytes = h2::to_vec(v).unwrap();
        round_trip(&format!("value {i} ({})", v.kind_name()), &bytes);
    }
    // The same as messages.
    use messages::*;
    for doc in [call("edges", values[..2].to_vec()), reply(values[0].clone()), fault(values[1].clone())] {
        round_trip("message", &doc);
    }
}

/// Builds message bytes the way `Hessian2Output` lays them out.
mod messages {
    use hessian::h2::Encoder;
    use hessian::Value;

    pub fn call(method: &str, args: Vec<Value>) -> Vec<u8> {
        let mut e = Encoder::new(Vec::new());
        e.write_raw(b"H\x02\x00C").unwrap();
        e.write_str(method).unwrap();
        e.write_int(args.len() as i32).unwrap();
        for a in &args {
            e.write_value(a).unwrap();
        }
        e.finish().unwrap()
    }

    pub fn reply(v: Value) -> Vec<u8> {
        let mut e = Encoder::new(Vec::new());
        e.write_raw(b"H\x02\x00R").unwrap();
        e.write_value(&v).unwrap();
        e.finish().unwrap()
    }

    pub fn fault(v: Value) -> Vec<u8> {
        let mut e = Encoder::new(Vec::new());
        e.write_raw(b"H\x02\x00F").unwrap();
        e.write_value(&v).unwrap();
        e.finish().unwrap()
    }
}

#[test]
fn streams_of_values_round_trip_byte_for_byte() {
    // Several values through one encoder, as one Hessian2Output writes successive writeObject
    // calls: the class definition, the type name and the value reference carry over.
    let money = workloads::money_class();
    let values = [
        workloads::money(&money, 1),
        Value::list(vec![Value::Ref(0), workloads::money(&money, 2)]),
        Value::typed_list("[int", vec![Value::Int(1)]),
        Value::typed_list("[int", vec![]),
        Value::Binary(vec![9; 10000]),
        Value::Int(7),
    ];
    let mut e = h2::Encoder::new(Vec::new());
    for v in &values {
        e.write_value(v).unwrap();
    }
    let bytes = e.finish().unwrap();
    let json = round_trip("stream", &bytes);
    assert!(json.starts_with("{\n  \"stream\": ["), "{}", &json[..json.len().min(500)]);
    let compact = String::from_utf8(ok(&["decode", "--compact"], &bytes)).unwrap();
    assert!(compact.contains(r#"[{"ref":0},{"object":"Money""#), "{}", &compact[..compact.len().min(500)]);
    assert_eq!(ok(&["decode", "--compact"], &[0x90, 0x91]), b"{\"stream\":[{\"int\":0},{\"int\":1}]}\n");
}

#[test]
fn hand_written_json_encodes_as_documented() {
    let cases: Vec<(&str, Value)> = vec![
        ("5", Value::Int(5)),
        ("3000000000", Value::Long(3_000_000_000)),
        ("2.5", Value::Double(2.5)),
        (r#""hi""#, Value::string("hi")),
        ("[1, null, true]", Value::list(vec![Value::Int(1), Value::Null, Value::Bool(true)])),
        (
            r#"{"name": "Ada", "id": {"long": 42}}"#,
            Value::map(vec![(Value::string("name"), Value::string("Ada")), (Value::string("id"), Value::Long(42))]),
        ),
        (r#"{"date": "2008-01-10T21:20:00Z"}"#, Value::Date(1_200_000_000_000)),
        (r#"{"binary": "AAEC"}"#, Value::Binary(vec![0, 1, 2])),
        (r#"{"type": "[int", "list": [1, 2]}"#, Value::typed_list("[int", vec![Value::Int(1), Value::Int(2)])),
        (
            r#"{"object": "Money", "fields": {"cents": 100, "text": "100 cents."}}"#,
            workloads::money(&workloads::money_class(), 100),
        ),
    ];
    for (json, value) in cases {
        let bytes = ok(&["encode"], json.as_bytes());
        assert_eq!(bytes, h2::to_vec(&value).unwrap(), "{json}");
    }
    let call = ok(&["encode"], br#"{"call": "add2", "args": [1, 2]}"#);
    assert_eq!(call, b"H\x02\x00C\x04add2\x92\x91\x92");
    let reply = ok(&["encode"], br#"{"reply": {"long": 3}}"#);
    assert_eq!(reply, b"H\x02\x00R\xe3");
    assert_eq!(ok(&["decode", "--compact"], &reply), b"{\"reply\":{\"long\":3}}\n");
}

#[test]
fn encode_writes_the_output_file() {
    let dir = std::env::temp_dir().join(format!("hessian-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("in.json");
    let bin = dir.join("out.bin");
    std::fs::write(&json, br#"{"int": 47}"#).unwrap();
    let out = ok(&["encode", json.to_str().unwrap(), "-o", bin.to_str().unwrap()], b"");
    assert!(out.is_empty());
    assert_eq!(std::fs::read(&bin).unwrap(), [0xbf]);
    assert_eq!(ok(&["decode", "--compact", bin.to_str().unwrap()], b""), b"{\"int\":47}\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_annotates_and_stops_at_the_first_error() {
    let request = workloads::W2Classes::default().request();
    let bytes = h2::to_vec(&request).unwrap();
    let trace = String::from_utf8(ok(&["dump"], &bytes)).unwrap();
    assert!(trace.starts_with("offset"), "{trace}");
    assert!(trace.contains("class definition #0 \"com.squarespace.hopper.types.Order\""), "{trace}");
    assert!(trace.contains("  customer: object (ref #1) of class #1"), "{trace}");
    assert!(trace.contains("placed: date 2008-01-10T21:20:00Z (minutes)"), "{trace}");

    let cut = &bytes[..300];
    let out = hessian(&["dump"], cut);
    assert_eq!(out.status.code(), Some(1));
    let partial = String::from_utf8(out.stdout).unwrap();
    assert!(partial.contains("class definition #0"), "the trace so far is printed: {partial}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("at byte offset"), "{err}");
}

#[test]
fn bad_inputs_fail_cleanly() {
    // Malformed JSON and wrong tags.
    for (json, needle) in [
        ("{", "invalid JSON"),
        ("[1, 2", "invalid JSON"),
        ("1 2", "invalid JSON"),
        ("", "invalid JSON"),
        (r#"{"int": "five"}"#, "$.int"),
        (r#"{"int": 1, "long": 1}"#, "only one tag key"),
        (r#"{"list": [1], "size": 1}"#, "\"size\""),
        (r#"[{"date": "tomorrow"}]"#, "$[0].date"),
        (r#"{"binary": "!!"}"#, "base64"),
        (r#"{"ref": -1}"#, "ref"),
        (r#"{"call": 5}"#, "method name"),
        (r#"[{"reply": 1}]"#, "top level"),
        (r#"{"object": "X", "fields": 3}"#, "fields"),
        (r#"{"type": "", "list": []}"#, "empty type name"),
        (r#"{"a": 1, "a": 2}"#, "duplicate key"),
    ] {
        let err = fails(&["encode"], json.as_bytes());
        assert!(err.contains(needle), "{json}: {err}");
    }
    let deep = "[".repeat(5000) + &"]".repeat(5000);
    assert!(fails(&["encode"], deep.as_bytes()).contains("nested deeper"));
    let deep_ok = "[".repeat(700) + &"]".repeat(700);
    assert!(fails(&["encode"], deep_ok.as_bytes()).contains("nested deeper than 256"));

    // Truncated and corrupted Hessian, for decode and dump.
    let bytes = messages::reply(workloads::W2Classes::default().reply());
    for cut in (0..bytes.len()).step_by(37).chain([1, 2, 3, 4, bytes.len() - 1]) {
        let err = fails(&["decode"], &bytes[..cut]);
        let expected = if cut == 0 { "empty input" } else { "byte offset" };
        assert!(err.contains(expected), "cut {cut}: {err}");
        fails(&["dump"], &bytes[..cut]);
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..20 {
        let junk = hessian_testkit::junk(&mut seed, 64);
        for cmd in ["decode", "dump"] {
            let out = hessian(&[cmd], &junk);
            assert!(matches!(out.status.code(), Some(0 | 1)), "{cmd} on junk: {:?}", out.status);
            assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
        }
    }
    assert!(fails(&["decode"], b"H\x02\x00R\x90\x90").contains("trailing bytes"));
    assert!(fails(&["dump"], b"H\x02\x00R\x90\x90").contains("trailing bytes"));
    assert!(fails(&["decode"], b"H\x02\x00X").contains("expected C, R or F"));
    for cmd in ["decode", "dump"] {
        assert!(fails(&["-f", "h2", cmd], b"c\x02\x00m\x00\x04ping").contains("use --format h1"));
        assert!(fails(&["-f", "h2", cmd], b"r\x01\x00I\x00\x00\x00\x01z").contains("use --format h1"));
    }
    // Without --format the same inputs are read as Hessian 1.
    let err = fails(&["decode"], b"c\x02\x00m\x00\x04ping");
    assert!(err.contains("unexpected end of input") && err.contains("read as Hessian 1"), "{err}");
    assert_eq!(ok(&["decode", "--compact"], b"r\x01\x00I\x00\x00\x00\x01z"), b"{\"reply\":{\"int\":1}}\n");
    assert!(fails(&["decode", "/nonexistent/file.bin"], b"").contains("/nonexistent/file.bin"));
}

/// `LegacyInterop`'s framed output: per entry, u16 name length, name, u32 payload length, payload.
fn parse_frames(mut d: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    while !d.is_empty() {
        let nl = usize::from(u16::from_be_bytes([d[0], d[1]]));
        let name = String::from_utf8(d[2..2 + nl].to_vec()).unwrap();
        d = &d[2 + nl..];
        let pl = u32::from_be_bytes([d[0], d[1], d[2], d[3]]) as usize;
        out.push((name, d[4..4 + pl].to_vec()));
        d = &d[4 + pl..];
    }
    out
}

#[test]
fn hessian1_and_burlap_round_trip_byte_for_byte() {
    let Some(java) = java() else { return };
    for format in ["h1", "burlap"] {
        let frames = parse_frames(&java.run("LegacyInterop", &["write", format], b""));
        assert!(frames.len() > 50, "{format}: Java wrote the catalogue");
        for (name, bytes) in frames {
            if format == "burlap" && name == "remote" {
                // BurlapOutput writes the URL unescaped (`&`), which is not XML: the decoder
                // refuses it (see Burlap's `JAVA_MALFORMED` in
                // crates/hessian/tests/common/legacy_formats.rs), cleanly.
                assert!(fails(&["--format", format, "decode"], &bytes).contains("XML"));
                continue;
            }
            let json = ok(&["--format", format, "decode"], &bytes);
            let again = ok(&["--format", format, "encode"], &json);
            assert!(again == bytes, "{format} {name}: decode -> encode changed the bytes");
            let json = String::from_utf8(json).unwrap();
            let expected_tag = match name.as_str() {
                n if n.starts_with("call:") => Some("\"call\""),
                n if n.starts_with("reply:fault") => Some("\"fault\""),
                n if n.starts_with("reply:") => Some("\"reply\""),
                _ => None,
            };
            if let Some(tag) = expected_tag {
                assert!(json.trim_start_matches(['{', '\n', ' ']).starts_with(tag), "{name}: {json}");
            }
            if name == "call:headers" {
                assert!(json.contains(r#""headers": {"trace": "t-1"}"#), "{json}");
                if format == "h1" {
                    assert!(json.contains(r#""version": [0, 1]"#), "{json}");
                }
            }
            if name == "call:add2" {
                assert!(!json.contains("version"), "c 1 0 is the default: {json}");
            }
            if name == "call:v2" {
                assert!(json.contains(r#""version": [2, 0]"#), "{json}");
            }
        }
    }
}

#[test]
fn unimplemented_parts_of_other_formats_are_clear_errors() {
    for f in ["h1", "burlap"] {
        let err = fails(&["--format", f, "encode"], br#"{"stream": [1, 2]}"#);
        assert!(err.contains(&format!("streams is not implemented yet for format {f}")), "{err}");
    }
    let reply = ok(&["--format", "burlap", "encode"], br#"{"reply": 1}"#);
    assert_eq!(reply, b"<burlap:reply><int>1</int></burlap:reply>");
    // Any untyped fault map is written as it is (Java writes code, message, detail).
    let fault = ok(&["--format", "burlap", "encode"], br#"{"fault": {"message": "m", "code": "E"}}"#);
    assert_eq!(
        fault,
        b"<burlap:reply><fault><string>message</string><string>m</string><string>code</string><string>E</string>\
          </fault></burlap:reply>"
            .to_vec()
    );
    assert!(fails(&["--format", "burlap", "encode"], br#"{"fault": 1}"#).contains("untyped map"));
    assert!(fails(&["--format", "burlap", "encode"], br#"{"call": "m", "version": [1, 0]}"#).contains("version"));
    // Hessian 1 envelopes by hand: the hybrid call Java's proxy sends, a reply, a fault.
    let call = ok(&["--format", "h1", "encode"], br#"{"call": "add2", "args": [1, 2], "version": [2, 0]}"#);
    assert_eq!(call, b"c\x02\x00m\x00\x04add2I\x00\x00\x00\x01I\x00\x00\x00\x02z");
    assert_eq!(ok(&["--format", "h1", "encode"], br#"{"reply": null}"#), b"r\x01\x00Nz");
    let fault = ok(&["--format", "h1", "encode"], br#"{"fault": {"code": "E", "message": "m"}}"#);
    assert_eq!(fault, b"r\x01\x00fS\x00\x04codeS\x00\x01ES\x00\x07messageS\x00\x01mzz");
    assert!(fails(&["--format", "h1", "encode"], br#"{"fault": 1}"#).contains("untyped map"));
    assert!(fails(&["encode"], br#"{"call": "m", "headers": {"a": 1}}"#).contains("no headers"));
    assert!(fails(&["-f", "h2", "encode"], br#"{"call": "m", "version": [1, 0]}"#).contains("--format h1"));
    // Without --format, a call with version bytes is Hessian 1 (the only format that has them).
    assert_eq!(ok(&["encode"], br#"{"call": "m", "version": [1, 0]}"#), b"c\x01\x00m\x00\x01mz");
    assert!(fails(&["--format", "h1", "decode"], b"c\x01\x00m\x00\x09pi").contains("byte offset"));
    assert!(fails(&["--format", "h1", "decode"], b"r\x01\x00Iz").contains("byte offset"));
    let reply = ok(&["--format", "burlap", "decode", "--compact"], b"  <burlap:reply><int>1</int></burlap:reply>");
    assert_eq!(reply, b"{\"reply\":{\"int\":1}}\n");
    assert!(fails(&["--format", "burlap", "decode"], b"<burlap:reply><int>1</int>").contains("cannot decode"));
    assert!(fails(&["--format", "h1", "decode"], b"I\x00\x00").contains("byte offset"));
    assert!(fails(&["--format", "burlap", "decode"], b"<int>1</in").contains("cannot decode"));
    let out = hessian(&["--format", "xml", "decode"], b"");
    assert_eq!(out.status.code(), Some(2), "clap rejects unknown formats as usage errors");
}

/// decode → encode through the binary, checking the JSON against the library's mapping; dump
/// must walk the same bytes without error.
fn catalogue_trip(name: &str, bytes: &[u8], expected_json: &serde_json::Value, expected_bytes: &[u8]) {
    let trace = hessian(&["dump"], bytes);
    assert!(trace.status.success(), "{name}: dump failed: {}", String::from_utf8_lossy(&trace.stderr));
    let json = ok(&["decode", "--compact"], bytes);
    let parsed: serde_json::Value = serde_json::from_slice(&json).expect("decode prints JSON");
    assert!(&parsed == expected_json, "{name}: decode printed {}", String::from_utf8_lossy(&json));
    let again = ok(&["encode"], &json);
    assert!(again == expected_bytes, "{name}: encode gave {again:02x?}, expected {expected_bytes:02x?}");
}

#[test]
fn conformance_catalogue_round_trips_through_the_binary() {
    use hessian::json::to_json;
    use hessian_testkit::catalogue;
    // Every value Hessian2Output writes in the catalogue: the bytes come back exactly.
    let cases = catalogue::h2_cases();
    assert!(cases.len() > 100, "the catalogue is there");
    for case in &cases {
        let bytes = h2::to_vec(&case.value).unwrap();
        catalogue_trip(&case.name, &bytes, &to_json(case.decoded()), &bytes);
    }
    // Grammar forms Java never writes: decode to the catalogued value, encode in Caucho's form.
    for case in catalogue::h2_decode_cases() {
        let canonical = h2::to_vec(&case.value).unwrap();
        catalogue_trip(case.name, &case.bytes, &to_json(&case.value), &canonical);
    }
    // Several values through one writer: a stream document, byte-exact.
    for case in catalogue::h2_stream_cases() {
        let mut e = h2::Encoder::new(Vec::new());
        for v in &case.values {
            e.write_value(v).unwrap();
        }
        let bytes = e.finish().unwrap();
        let expected = match case.values.as_slice() {
            [one] => to_json(one),
            many => serde_json::json!({"stream": many.iter().map(to_json).collect::<Vec<_>>()}),
        };
        catalogue_trip(case.name, &bytes, &expected, &bytes);
    }
}

/// The trace `dump` prints, without `--format` unless `args` gives one.
fn dump_text(args: &[&str], bytes: &[u8]) -> String {
    let mut a = args.to_vec();
    a.push("dump");
    String::from_utf8(ok(&a, bytes)).expect("the trace is UTF-8")
}

#[test]
fn decode_and_dump_detect_java_written_hessian1_and_burlap() {
    let Some(java) = java() else { return };
    for format in ["h1", "burlap"] {
        let frames = parse_frames(&java.run("LegacyInterop", &["write", format], b""));
        assert!(frames.len() > 50, "{format}: Java wrote the catalogue");
        for (name, bytes) in frames {
            if format == "burlap" && name == "remote" {
                // Not well-formed XML (see hessian1_and_burlap_round_trip_byte_for_byte): without
                // --format the error names both formats the input could be in.
                let err = fails(&["decode"], &bytes);
                assert!(err.contains("as Burlap") && err.contains("as Hessian 2"), "{err}");
                continue;
            }
            // Detected: the same JSON as with the format given, and it encodes back exactly.
            let json = ok(&["decode"], &bytes);
            assert!(json == ok(&["--format", format, "decode"], &bytes), "{format} {name}: detection differs");
            assert!(ok(&["--format", format, "encode"], &json) == bytes, "{format} {name}: bytes changed");
            // dump detects the format too, and walks every byte. A value both binary formats
            // read the same way (`D` + 8 bytes, `I` + 4, …) is Hessian 2, the first candidate.
            let trace = dump_text(&[], &bytes);
            let same_in_h2 = format == "h1" && hessian(&["--format", "h2", "decode"], &bytes).stdout == json;
            let expected = if same_in_h2 { "h2" } else { format };
            assert!(trace == dump_text(&["--format", expected], &bytes), "{format} {name}: dump differs");
            let second = trace.lines().nth(1).unwrap_or_default().to_owned();
            match (format, name.split(':').next()) {
                ("h1", Some("call")) => assert!(second.contains("Hessian 1 call, version"), "{second}"),
                ("h1", Some("reply")) => assert!(second.contains("Hessian 1 reply, version 1.0"), "{second}"),
                ("burlap", Some("call")) => assert!(second.contains("<burlap:call>  "), "{second}"),
                ("burlap", Some("reply")) => assert!(second.contains("Burlap reply"), "{second}"),
                _ => assert!(second.starts_with("00000000  "), "{format} {name}: {trace}"),
            }
        }
    }
}

#[test]
fn dump_annotates_java_written_hessian1_and_burlap() {
    let Some(java) = java() else { return };
    let h1 = parse_frames(&java.run("LegacyInterop", &["write", "h1"], b""));
    let burlap = parse_frames(&java.run("LegacyInterop", &["write", "burlap"], b""));
    let frame = |frames: &[(String, Vec<u8>)], name: &str| {
        frames.iter().find(|(n, _)| n == name).map(|(_, b)| b.clone()).unwrap_or_else(|| panic!("no {name}"))
    };
    let has = |trace: &str, needles: &[&str]| {
        for n in needles {
            assert!(trace.contains(n), "missing {n:?} in\n{trace}");
        }
    };
    // HessianOutput.startCall() + writeHeader: `c 00 01`, a header, the method, one argument.
    has(
        &dump_text(&[], &frame(&h1, "call:headers")),
        &[
            "00000000  63 00 01                 Hessian 1 call, version 0.1",
            "00000003  48 00 05 74 72 61 63 65    header \"trace\"",
            "value string (3 units) \"t-1\"",
            "method \"echo\"",
            "arg[0] int 7",
            "7a                       end of call",
        ],
    );
    // writeFault with a detail: the fault map, the detail object as a typed map.
    has(
        &dump_text(&[], &frame(&h1, "reply:fault detail")),
        &[
            "Hessian 1 reply, version 1.0",
            "  fault",
            "key string (4 units) \"code\"",
            "value string (16 units) \"ServiceException\"",
            "value map (ref #0)",
            "end of fault",
            "end of reply",
        ],
    );
    has(
        &dump_text(&[], &frame(&h1, "call:objects")),
        &["method \"exchange\"", "arg[0] map (ref #0)", "type \"com.squarespace.hopper.types.Order\"", "arg[2] null"],
    );
    has(
        &dump_text(&[], &frame(&burlap, "call:headers")),
        &[
            "00000000  <burlap:call>            Burlap call",
            "<header>trace</header>     header \"trace\"",
            "value string (3 chars) \"t-1\"",
            "<method>echo</method>      method \"echo\"",
            "<int>7</int>               arg[0] int 7",
            "</burlap:call>           end of Burlap call",
        ],
    );
    has(
        &dump_text(&[], &frame(&burlap, "reply:fault")),
        &["Burlap reply", "  fault", "key string (7 chars) \"message\"", "value string (8 chars) \"boom <&>\""],
    );
    // A cut Burlap stream: the trace so far, then the error with its offset.
    let bytes = frame(&burlap, "reply:items");
    let out = hessian(&["dump"], &bytes[..bytes.len() - 20]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Burlap reply"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("byte offset"), "{out:?}");
}

/// The hybrid call of Java's `HessianProxyFactory` (a Hessian 1 call with version 2, answered in
/// Hessian 2): as the real proxy sends it over HTTP (`ProxyCapture`), as `LegacyInterop`'s
/// `call:v2` writes it through `HessianOutput.setVersion(2)` (what the proxy's
/// `getHessianOutput` does), and the proxy's bytes captured in `docs/rpc.md`.
#[test]
fn the_hybrid_call_is_detected_and_comes_back_byte_for_byte() {
    let captured = b"c\x02\x00m\x00\x03addI\x00\x00\x00\x04z";
    let mut java_written = Vec::new();
    if let Some(java) = java() {
        let proxy = java.run("ProxyCapture", &["hybrid"], b"");
        assert_eq!(proxy, b"c\x02\x00m\x00\x03addI\x00\x00\x00\x01I\x00\x00\x00\x02z");
        java_written.push(proxy);
        let frames = parse_frames(&java.run("LegacyInterop", &["write", "h1"], b""));
        let v2 = frames.into_iter().find(|(n, _)| n == "call:v2").expect("call:v2");
        assert!(v2.1.starts_with(b"c\x02\x00m"), "{:02x?}", v2.1);
        java_written.push(v2.1);
        // The proxy with setHessian2Request(true): a Hessian 2 call, detected as such.
        let h2 = java.run("ProxyCapture", &["hessian2"], b"");
        assert_eq!(h2, b"H\x02\x00C\x03add\x92\x91\x92");
        assert_eq!(ok(&["decode", "--compact"], &h2), b"{\"call\":\"add\",\"args\":[{\"int\":1},{\"int\":2}]}\n");
        assert!(ok(&["encode"], &ok(&["decode"], &h2)) == h2);
    }
    for bytes in java_written.iter().map(Vec::as_slice).chain([&captured[..]]) {
        let json = String::from_utf8(ok(&["decode", "--compact"], bytes)).unwrap();
        assert!(json.contains(r#""version":[2,0]"#), "{json}");
        // Without --format, encode writes a call with a version as Hessian 1.
        assert!(ok(&["encode"], json.as_bytes()) == bytes, "{json}");
        let trace = dump_text(&[], bytes);
        assert!(trace.contains("Hessian 1 call, version 2.0 (hybrid: asks for a Hessian 2 reply)"), "{trace}");
    }
    assert_eq!(
        ok(&["decode", "--compact"], captured),
        b"{\"call\":\"add\",\"args\":[{\"int\":4}],\"version\":[2,0]}\n"
    );
}

#[test]
fn detection_of_ambiguous_and_garbage_inputs() {
    // Hessian 1 and Hessian 2 agree on `I`, `S`, `D`, `N`, …: the same JSON either way.
    assert_eq!(ok(&["decode", "--compact"], b"I\x00\x00\x00\x01"), b"{\"int\":1}\n");
    assert_eq!(ok(&["decode", "--compact"], b"S\x00\x02hi"), b"\"hi\"\n");
    // Hessian 1 only: a date (`d` starts no self-contained Hessian 2 input), a typed map.
    assert_eq!(
        ok(&["decode", "--compact"], b"d\x00\x00\x00\x00\x00\x00\x00\x00"),
        b"{\"date\":\"1970-01-01T00:00:00Z\"}\n"
    );
    let map = ok(&["decode", "--compact"], b"Mt\x00\x01TS\x00\x01kNz");
    assert_eq!(map, b"{\"type\":\"T\",\"map\":{\"k\":null}}\n");
    // Burlap, after a byte order mark, an XML declaration and whitespace.
    let xml = b"\xef\xbb\xbf<?xml version=\"1.0\"?>\n<int>47</int>";
    assert_eq!(ok(&["decode", "--compact"], xml), b"{\"int\":47}\n");
    let trace = dump_text(&[], xml);
    assert!(trace.contains("ef bb bf                 UTF-8 byte order mark"), "{trace}");
    assert!(trace.contains("00000019  <int>47</int>            int 47"), "{trace}");
    // A Hessian 1 string (a 144-unit chunk of U+0000, then an empty final chunk) that Hessian 2
    // reads completely too, as a stream: a typed list and 144 more values.
    let mut both = b"s\x00\x90".to_vec();
    both.extend([0u8; 144]);
    both.extend(b"S\x00\x00");
    assert!(ok(&["--format", "h1", "decode"], &both).starts_with(b"\""));
    assert!(ok(&["--format", "h2", "decode"], &both).starts_with(b"{\n  \"stream\""));
    for cmd in ["decode", "dump"] {
        let err = fails(&[cmd], &both);
        assert!(err.contains("ambiguous") && err.contains("--format h2 or --format h1"), "{err}");
    }
    // Nothing starts with `G`, `Z`, `Q`, …; an empty input is no value.
    for cmd in ["decode", "dump"] {
        let err = fails(&[cmd], b"GET / HTTP/1.1\r\n");
        assert!(err.contains("no value or message starts with byte 0x47"), "{err}");
        assert!(fails(&[cmd], b"Z").contains("byte 0x5a"));
        assert!(fails(&[cmd], b"").contains("empty input"));
    }
    // Both binary formats tried, neither reads it: both errors, with offsets.
    let err = fails(&["decode"], b"I\x00\x00");
    assert!(err.contains("as Hessian 2, unexpected end of input at byte offset 3"), "{err}");
    assert!(err.contains("as Hessian 1, unexpected end of input at byte offset 3"), "{err}");
    let err = fails(&["decode"], b"<foo>1</foo>");
    assert!(err.contains("as Burlap") && err.contains("as Hessian 2"), "{err}");
    // dump of an unreadable input: the most likely format's trace, up to the error, which is
    // the decoder's (at the offset `decode` reports).
    let bad = b"<list><int>1</int><int>x</int></list>";
    let out = hessian(&["dump"], bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("[0] int 1"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad int \"x\" at byte offset 30"), "{out:?}");
    assert!(fails(&["-f", "burlap", "decode"], bad).contains("bad int \"x\" at byte offset 30"));
    // Junk never panics, whichever format is detected.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..60 {
        let mut junk = hessian_testkit::junk(&mut seed, 48);
        junk[0] = [b'c', b'r', b'<', b'V', b'M', b's', b'x', b'I'][i % 8];
        for cmd in ["decode", "dump"] {
            let out = hessian(&[cmd], &junk);
            assert!(matches!(out.status.code(), Some(0 | 1)), "{cmd} on junk: {:?}", out.status);
            assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
        }
    }
}

#[test]
fn encode_refuses_what_decode_would_reject() {
    for fmt in ["h2", "h1", "burlap"] {
        // a reference to a value that does not exist, at the top and inside a list
        for doc in [&b"{\"ref\": 0}"[..], b"[1, {\"ref\": 3}]"] {
            let err = fails(&["-f", fmt, "encode"], doc);
            assert!(err.contains("refusing to write bytes that decode would reject"), "{fmt}: {err}");
            assert!(err.contains("out of range"), "{fmt}: {err}");
        }
        // a reference to an earlier value is fine
        let bytes = ok(&["-f", fmt, "encode"], b"[[1], {\"ref\": 1}]");
        assert!(!bytes.is_empty());
    }
}

#[test]
fn codegen_writes_rust_for_a_java_service() {
    let Some(java) = hessian_testkit::java::java() else { return };
    let classes = java.classes_dir().to_str().unwrap().to_owned();
    let src = String::from_utf8(ok(&["codegen", "--service", "RpcBenchService", &classes], b"")).unwrap();
    assert!(src.contains("#[hessian_rpc::service(api = \"RpcBenchService\")]\npub trait RpcBenchService {"), "{src}");
    assert!(src.contains("#[serde(rename = \"org.example.remoting.Item\")]\npub struct Item {"), "{src}");
    let err = fails(&["codegen", "--service", "CodegenUnmappable", &classes], b"");
    assert!(err.contains("cannot map field balance of org.example.codegen.Ledger: java.math.BigDecimal"), "{err}");
    let err = fails(&["codegen", "--service", "Nope", &classes], b"");
    assert!(err.contains("class Nope not found"), "{err}");
    // fields of reference types are Option unless declared non-null
    assert!(src.contains("    pub name: Option<String>,"), "{src}");
    let args = ["codegen", "--service", "RpcBenchService", "--non-null", "Item.name", "--dates", "hessian", &classes];
    let strict = String::from_utf8(ok(&args, b"")).unwrap();
    assert!(strict.contains("    pub name: String,"), "{strict}");
    assert!(strict.contains("pub created: Option<hessian_rpc::hessian::serde::Date>,"), "{strict}");
    let err = fails(&["codegen", "--service", "RpcBenchService", "--non-null", "Item.nmae", &classes], b"");
    assert!(err.contains("--non-null Item.nmae: no generated class, field, interface or method of that name"), "{err}");
    // so are return values and list elements, unless the method is declared non-null
    assert!(src.contains("-> Result<Option<Vec<Option<Item>>>, hessian_rpc::ServiceError>;"), "{src}");
    let args = ["codegen", "--service", "RpcBenchService", "--non-null", "RpcBenchService.getItems", &classes];
    let strict = String::from_utf8(ok(&args, b"")).unwrap();
    assert!(strict.contains("-> Result<Vec<Item>, hessian_rpc::ServiceError>;"), "{strict}");
}
