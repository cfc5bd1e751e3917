//! The Hessian 2.0 conformance catalogue (`hessian_testkit::catalogue`) carried by Hessian 1 and
//! Burlap: for every case, Java's `HessianOutput`/`BurlapOutput` bytes for the same Java value
//! equal this crate's encoding of the catalogue value, decode back to the Hessian 2 value through
//! `convert::to_h2`, and re-encode as Hessian 2 to the catalogue's bytes (the gateway path).

use hessian::{burlap, convert, h1, h2, Value};
use hessian_testkit::catalogue::{self, Case};
use hessian_testkit::java::java;
use std::collections::HashMap;

fn parse_frames(mut d: &[u8]) -> HashMap<String, Vec<u8>> {
    let mut out = HashMap::new();
    while !d.is_empty() {
        let nl = usize::from(u16::from_be_bytes([d[0], d[1]]));
        let name = String::from_utf8(d[2..2 + nl].to_vec()).unwrap();
        d = &d[2 + nl..];
        let pl = u32::from_be_bytes([d[0], d[1], d[2], d[3]]) as usize;
        out.insert(name, d[4..4 + pl].to_vec());
        d = &d[4 + pl..];
    }
    out
}

/// Whether Java's Hessian 1 / Burlap bytes for this case carry different data than its Hessian 2
/// form: `Hessian2Output` alone turns Byte/Short/Float into handle objects, and -0.0 into 0.0.
fn h2_only_encoding(c: &Case) -> bool {
    fn has_handle(v: &Value) -> bool {
        match v {
            Value::Object(o) => o.class.name.ends_with("Handle") || o.fields.iter().any(has_handle),
            Value::List(l) => l.items.iter().any(has_handle),
            Value::Map(m) => m.entries.iter().any(|(k, v)| has_handle(k) || has_handle(v)),
            _ => false,
        }
    }
    has_handle(&c.value) || c.decodes_to.is_some()
}

/// Whether the value holds a date Burlap's `yyyyMMdd` form cannot carry (outside years 1 to 9999
/// AD, first day on Java's Julian calendar): Java writes the last four digits of the era year, so
/// the bytes match but the date does not come back.
fn burlap_lossy_date(v: &Value) -> bool {
    const FIRST: i64 = -62_135_769_600_000; // 0001-01-01 (Julian)
    const LAST: i64 = 253_402_300_799_999; // 9999-12-31T23:59:59.999
    match v {
        Value::Date(d) => !(FIRST..=LAST).contains(d),
        Value::Object(o) => o.fields.iter().any(burlap_lossy_date),
        Value::List(l) => l.items.iter().any(burlap_lossy_date),
        Value::Map(m) => m.entries.iter().any(|(k, v)| burlap_lossy_date(k) || burlap_lossy_date(v)),
        _ => false,
    }
}

/// The value as Java re-writes it after reading: a list of unknown length, or of a collection class
/// Java cannot instantiate (`Arrays$ArrayList`), comes back as an `ArrayList` with its length.
fn as_java_rereads(v: &Value) -> Value {
    match v {
        Value::List(l) => {
            let type_name = l.type_name.clone().filter(|t| t != "java.util.Arrays$ArrayList");
            Value::List(Box::new(hessian::List {
                type_name,
                fixed_length: true,
                items: l.items.iter().map(as_java_rereads).collect(),
            }))
        }
        Value::Map(m) => Value::Map(Box::new(hessian::Map {
            type_name: m.type_name.clone(),
            entries: m.entries.iter().map(|(k, v)| (as_java_rereads(k), as_java_rereads(v))).collect(),
        })),
        Value::Object(o) => Value::object(o.class.clone(), o.fields.iter().map(as_java_rereads).collect()),
        other => other.clone(),
    }
}

fn check_format(fmt: &str) {
    let Some(java) = java() else { return };
    let frames = parse_frames(&java.run("LegacyInterop", &["h2catalogue", fmt], b""));
    let cases = catalogue::h2_cases();
    assert_eq!(frames.len(), cases.len(), "Java and Rust catalogues differ in size");
    let mut failures = Vec::new();
    let mut checked = 0;
    for c in &cases {
        let java_bytes = &frames[&c.name];
        let (ours, decoded) = match fmt {
            "h1" => (h1::to_vec(&convert::to_h1(&c.value)), h1::from_slice(java_bytes)),
            _ => (burlap::to_vec(&convert::to_h1(&c.value)), burlap::from_slice(java_bytes)),
        };
        let decoded = match decoded {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: decoding Java's bytes: {e}", c.name));
                continue;
            }
        };
        if h2_only_encoding(c) {
            continue;
        }
        checked += 1;
        match ours {
            Ok(b) if &b == java_bytes => {}
            Ok(b) => failures.push(format!(
                "{}: Rust bytes differ\n rust {}\n java {}",
                c.name,
                String::from_utf8_lossy(&b[..b.len().min(200)]),
                String::from_utf8_lossy(&java_bytes[..java_bytes.len().min(200)])
            )),
            Err(e) => failures.push(format!("{}: encoding: {e}", c.name)),
        }
        if fmt == "burlap" && burlap_lossy_date(&c.value) {
            continue;
        }
        let back = convert::to_h2(&decoded);
        if !catalogue::same_value(&back, &c.value) {
            failures.push(format!("{}: to_h2 gives {back}, want {}", c.name, c.value));
        }
        match (h2::to_vec(&back), h2::to_vec(&c.value)) {
            (Ok(a), Ok(b)) if a == b => {}
            _ => failures.push(format!("{}: Hessian 2 re-encoding differs", c.name)),
        }
    }
    assert!(checked > 100, "only {checked} cases checked");
    // Rust's bytes, read by HessianInput/BurlapInput and written again by Java, come back unchanged.
    let mut request = Vec::new();
    let mut sent = Vec::new();
    let encode = |v: &Value| match fmt {
        "h1" => h1::to_vec(&convert::to_h1(v)),
        _ => burlap::to_vec(&convert::to_h1(v)),
    };
    for c in cases.iter().filter(|c| !h2_only_encoding(c)) {
        let Ok(bytes) = encode(&c.value) else { continue };
        request.extend_from_slice(&(c.name.len() as u16).to_be_bytes());
        request.extend_from_slice(c.name.as_bytes());
        request.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        request.extend_from_slice(&bytes);
        let reread = encode(&as_java_rereads(&c.value)).unwrap_or_default();
        sent.push((c.name.clone(), bytes, reread));
    }
    let back = parse_frames(&java.run("LegacyInterop", &["reencode", fmt], &request));
    for (name, bytes, reread) in &sent {
        let javas = &back[name];
        if javas != bytes && javas != reread {
            failures.push(format!(
                "{name}: Java re-wrote Rust's bytes differently:\n java {}\n rust {}",
                String::from_utf8_lossy(&javas[..javas.len().min(200)]),
                String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
            ));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn h2_catalogue_in_hessian1() {
    check_format("h1");
}

#[test]
fn h2_catalogue_in_burlap() {
    check_format("burlap");
}

/// A Hessian 1 list whose length is written as -1 ("length unknown", as python-hessian and other
/// writers do) reads as the list up to its `z`, as `HessianInput` reads it; Java re-writes what it
/// read and both decode to the same values.
#[test]
fn h1_list_of_unknown_length_reads_as_java_reads_it() {
    let untyped = b"Vl\xff\xff\xff\xffI\x00\x00\x00\x01S\x00\x01az".to_vec();
    let typed = b"Vt\x00\x04[intl\xff\xff\xff\xffI\x00\x00\x00\x07I\x00\x00\x00\x08z".to_vec();
    let ours: Vec<Value> = [&untyped, &typed].iter().map(|b| h1::from_slice(b).unwrap()).collect();
    assert_eq!(
        ours[0],
        Value::List(Box::new(hessian::List {
            type_name: None,
            fixed_length: false,
            items: vec![Value::Int(1), Value::string("a")]
        }))
    );
    let Some(java) = java() else { return };
    let mut request = Vec::new();
    for (name, bytes) in [("untyped", &untyped), ("typed", &typed)] {
        request.extend_from_slice(&(name.len() as u16).to_be_bytes());
        request.extend_from_slice(name.as_bytes());
        request.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        request.extend_from_slice(bytes);
    }
    let back = parse_frames(&java.run("LegacyInterop", &["reencode", "h1"], &request));
    for (i, name) in ["untyped", "typed"].iter().enumerate() {
        let javas = h1::from_slice(&back[*name]).unwrap();
        let items = |v: &Value| match v {
            Value::List(l) => l.items.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(items(&javas), items(&ours[i]), "{name}: Java read {:?}", back[*name]);
    }
}
