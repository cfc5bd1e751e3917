//! The test vectors of the type negotiation extension (`docs/negotiation-vectors.json`,
//! `docs/negotiation.md` "Test vectors") against this crate: every map's canonical encoding
//! and digest, the maps the plain messages define, the referring messages against their plain
//! equivalents, and the refusal's bytes; and the same file against the Java implementation
//! (`NegotiationVectors`, which skips without Java locally and fails under CI).

use hessian::negotiate::{digest_of, message_classes, parse_digest, to_hex, TypeMap};
use hessian::serde::message::{reply_from_slice_negotiated, reply_to_vec_referring, CallReader, CallWriter};
use hessian::{ClassDef, Fault, Format, Limits, Value};
use hessian_testkit::java::java;
use hessian_testkit::structs::w2;
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::Arc;

fn vectors_path() -> std::path::PathBuf {
    hessian_testkit::java::repo_root().join("docs/negotiation-vectors.json")
}

fn vectors() -> Json {
    let text = std::fs::read_to_string(vectors_path()).expect("read docs/negotiation-vectors.json");
    serde_json::from_str(&text).expect("the vectors are JSON")
}

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len() % 2 == 0 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{s:.40}");
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
}

fn str_of<'a>(v: &'a Json, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("no string {key} in {:.200}", v.to_string()))
}

/// The vectors' maps by name, each made from its classes.
fn maps(doc: &Json) -> HashMap<String, Arc<TypeMap>> {
    let mut out = HashMap::new();
    for m in doc["maps"].as_array().expect("maps") {
        let classes = m["classes"].as_array().expect("classes").iter().map(|c| {
            let fields = c["fields"].as_array().expect("fields").iter().map(|f| f.as_str().expect("field name"));
            ClassDef::new(str_of(c, "type"), fields)
        });
        let map = TypeMap::new(classes).unwrap_or_else(|e| panic!("map {}: {e}", m["name"]));
        assert!(out.insert(str_of(m, "name").to_owned(), Arc::new(map)).is_none(), "map names are unique");
    }
    out
}

#[test]
fn maps_have_the_canonical_bytes_and_digests_of_the_vectors() {
    let doc = vectors();
    let maps = maps(&doc);
    assert_eq!(maps.len(), 8);
    for m in doc["maps"].as_array().unwrap() {
        let name = str_of(m, "name");
        let map = &maps[name];
        let canonical = unhex(str_of(m, "canonical"));
        assert!(map.canonical() == canonical, "{name}: canonical bytes differ");
        assert_eq!(map.hex(), str_of(m, "digest"), "{name}");
        assert_eq!(to_hex(&digest_of(&canonical)), str_of(m, "digest"), "{name}");
        assert_eq!(parse_digest(str_of(m, "digest")), Some(map.digest()), "{name}");
    }
    assert_eq!(maps["w2"].hex(), "35d4fe6759ac6b9273edfd82306e1898", "section 4.3");
}

/// The named forms of section 2 appear in the canonical bytes where the spec says.
#[test]
fn canonical_bytes_show_the_string_and_int_forms() {
    let maps = maps(&vectors());
    let bytes = |name: &str| maps[name].canonical().to_vec();
    let has = |name: &str, want: &[u8]| {
        let b = bytes(name);
        assert!(b.windows(want.len()).any(|w| w == want), "{name} lacks {want:02x?}");
    };
    // U+1F600 as two 3-byte sequences (d83d de00), after U+00E9 as c3 a9; 32 units: 30 20
    has("non-bmp", b"C\x08t.Caf\xc3\xa9\xed\xa0\xbd\xed\xb8\x80\x93\x02\xed\xa0\xbd\xed\xb8\x80");
    has("non-bmp", b"C\x07t.Faces\x91\x30\x20\xed\xa0\xbd");
    assert!(!bytes("non-bmp").windows(4).any(|w| w == "\u{1F600}".as_bytes()), "no 4-byte UTF-8");
    has("empty-names", b"C\x07t.Empty\x90C\x07t.Blank\x92\x00\x01a");
    has("form-boundaries", b"C\x1ft.AAA");
    has("form-boundaries", b"\x91\x30\x20bbb");
    has("form-boundaries", b"C\x33\xfft.CCC");
    has("form-boundaries", b"\x91S\x04\x00ddd");
    has("form-boundaries", b"C\x0at.Fields47\xbf\x02f0");
    has("form-boundaries", b"C\x0at.Fields48\xc8\x30\x02f0");
    let chunked = bytes("chunked");
    assert_eq!(&chunked[..8], b"HTM1CR\x80\x00");
    assert_eq!(&chunked[8 + 0x8000..8 + 0x8000 + 3], b"\x30\x28L");
    let surrogate = bytes("chunk-surrogate");
    assert_eq!(&surrogate[..8], b"HTM1CR\x7f\xff");
    assert_eq!(&surrogate[8 + 0x7fff..8 + 0x7fff + 8], b"\x03\xed\xa0\xbd\xed\xb8\x80z");
    has("chunk-exact", b"\x91S\x80\x00eee");
}

/// A message's values in the Hessian 2 shape: a call's method and arguments, or a reply.
fn read_plain(bytes: &[u8]) -> (Option<String>, Vec<Value>) {
    read(bytes, None)
}

fn read(bytes: &[u8], map: Option<&Arc<TypeMap>>) -> (Option<String>, Vec<Value>) {
    let body = bytes[if map.is_some() { 21 } else { 3 }];
    let lookup = |d: &hessian::negotiate::Digest| map.filter(|m| m.digest() == *d).cloned();
    if body == b'C' {
        let mut r = CallReader::negotiated(Format::Hessian2, bytes, Limits::default(), lookup).unwrap();
        assert_eq!(r.type_map().is_some(), map.is_some());
        let mut args = Vec::new();
        while !r.at_end().unwrap() {
            args.push(r.value_arg().unwrap());
        }
        let method = r.method().to_owned();
        assert!(r.finish_with_classes().unwrap().is_empty() || map.is_none(), "no classes beyond the map");
        return (Some(method), args);
    }
    let r = reply_from_slice_negotiated::<Value, _>(Format::Hessian2, bytes, Limits::default(), lookup).unwrap();
    assert_eq!(r.type_map.is_some(), map.is_some());
    (None, vec![r.reply.expect("a reply, not a fault")])
}

#[test]
fn messages_are_the_implementations() {
    let doc = vectors();
    let maps = maps(&doc);
    let messages = doc["messages"].as_array().expect("messages");
    let by_name: HashMap<&str, Vec<u8>> =
        messages.iter().map(|m| (str_of(m, "name"), unhex(str_of(m, "hex")))).collect();
    assert_eq!(messages.len(), 5);
    for m in messages {
        let name = str_of(m, "name");
        let bytes = &by_name[name];
        if let Some(map) = m["defines"].as_str() {
            assert_eq!(&bytes[..3], b"H\x02\x00", "{name}");
            let classes = message_classes(bytes, Limits::default()).unwrap();
            assert_eq!(TypeMap::new(classes).unwrap(), *maps[map], "{name} defines {map}");
        }
        if let Some(map) = m["refers_to"].as_str() {
            let map = &maps[map];
            let plain = &by_name[str_of(m, "plain")];
            assert_eq!(bytes[..21], map.referring_header(), "{name}");
            let (method, values) = read(bytes, Some(map));
            assert_eq!((method.clone(), values.clone()), read_plain(plain), "{name} reads as its plain equivalent");
            // and writing those values with the map gives these bytes
            let written = match &method {
                Some(method) => {
                    let mut w = CallWriter::referring(Format::Hessian2, map, method, values.len(), Vec::new()).unwrap();
                    values.iter().for_each(|v| w.arg(v).unwrap());
                    w.finish().unwrap()
                }
                None => reply_to_vec_referring(Format::Hessian2, map, &values[0]).unwrap(),
            };
            assert!(written == *bytes, "{name}: the referring writer writes other bytes");
        }
        if let Some(map) = m["refusal_of"].as_str() {
            let message = format!("unknown type map {}: resend the call as plain Hessian 2", maps[map].hex());
            assert_eq!((str_of(m, "code"), str_of(m, "message")), ("UnknownTypeMap", message.as_str()));
            let fault = Fault::new("UnknownTypeMap", message);
            assert!(hessian::h2::message::fault_to_vec(&fault).unwrap() == *bytes, "{name}");
            assert_eq!(bytes.len(), 121, "section 6.1");
        }
    }
    // the W2 messages carry the workload's values
    let order = |v: &Value| hessian::serde::from_value::<w2::Order>(v.clone()).unwrap();
    let (method, args) = read_plain(&by_name["w2-plain-call"]);
    assert_eq!((method.as_deref(), order(&args[0])), (Some("exchange"), w2::request()));
    assert_eq!(order(&read_plain(&by_name["w2-plain-reply"]).1[0]), w2::reply());
    let sizes: Vec<usize> =
        ["w2-plain-call", "w2-referring-call", "w2-plain-reply", "w2-referring-reply"].map(|n| by_name[n].len()).into();
    assert_eq!(sizes, [578, 228, 543, 193], "section 4.3");
}

#[test]
fn java_implementation_agrees_with_the_vectors() {
    let Some(java) = java() else { return };
    let path = vectors_path();
    let out = String::from_utf8(java.run("NegotiationVectors", &[path.to_str().unwrap()], b"")).unwrap();
    let maps = out.lines().filter(|l| l.starts_with("ok map ")).count();
    let messages = out.lines().filter(|l| l.starts_with("ok message ")).count();
    assert_eq!((maps, messages), (8, 5), "{out}");
}
