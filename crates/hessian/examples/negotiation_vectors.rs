//! Prints the test vectors of the type negotiation extension (`docs/negotiation-vectors.json`,
//! described in `docs/negotiation.md` section "Test vectors") as made by this crate:
//!
//! ```text
//! cargo run -p hessian-codec --example negotiation_vectors > docs/negotiation-vectors.json
//! ```
//!
//! `crates/hessian/tests/negotiate_vectors.rs` checks the file against this crate, and
//! `interop/java/src/NegotiationVectors.java` against the Java implementation.

use hessian::negotiate::TypeMap;
use hessian::serde::message::{reply_into_with_classes, reply_to_vec_referring, CallWriter};
use hessian::{ClassDef, Fault, Format};
use hessian_testkit::structs::w2;
use serde_json::{json, Value as Json};
use std::sync::Arc;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `n` units of a repeated ASCII letter after a prefix, `n` counting the prefix.
fn long_name(prefix: &str, letter: char, n: usize) -> String {
    let mut s = prefix.to_owned();
    s.extend(std::iter::repeat(letter).take(n - prefix.len()));
    s
}

fn map_vector(name: &str, about: &str, classes: Vec<Arc<ClassDef>>) -> Json {
    let map = TypeMap::new(classes).expect("every vector is within the default limits");
    let classes: Vec<Json> = map.classes().iter().map(|c| json!({ "type": c.name, "fields": c.fields })).collect();
    json!({
        "name": name,
        "about": about,
        "classes": classes,
        "canonical": hex(map.canonical()),
        "digest": map.hex(),
    })
}

fn main() {
    let mut call = CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1).unwrap();
    call.arg(&w2::request()).unwrap();
    let (plain_call, call_classes) = call.finish_with_classes().unwrap();
    let (plain_reply, reply_classes) = reply_into_with_classes(Format::Hessian2, &w2::reply(), Vec::new()).unwrap();
    assert_eq!(call_classes, reply_classes, "W2's request and reply define the same map");
    let w2_map = TypeMap::new(call_classes.clone()).unwrap();
    let mut call = CallWriter::referring(Format::Hessian2, &w2_map, "exchange", 1, Vec::new()).unwrap();
    call.arg(&w2::request()).unwrap();
    let referring_call = call.finish().unwrap();
    let referring_reply = reply_to_vec_referring(Format::Hessian2, &w2_map, &w2::reply()).unwrap();
    let message = format!("unknown type map {}: resend the call as plain Hessian 2", w2_map.hex());
    let refusal = hessian::h2::message::fault_to_vec(&Fault::new("UnknownTypeMap", message.clone())).unwrap();

    let emoji = "\u{1F600}";
    let maps = vec![
        map_vector(
            "w2",
            "The map of W2 exchange (docs/workloads.md, section 4.3): the classes of the plain call, \
             in the order it defines them; the plain reply defines the same map",
            call_classes,
        ),
        map_vector("ascii", "One class, ASCII names", vec![ClassDef::new("t.Money", ["cents", "currency"])]),
        map_vector(
            "non-bmp",
            "Names with 2-byte, 3-byte and non-BMP characters: U+1F600 is the surrogate pair \
             d83d de00, two 3-byte sequences; lengths count UTF-16 units (16 emoji: 32 units, \
             form 30 20)",
            vec![
                ClassDef::new(format!("t.Caf\u{e9}{emoji}"), [emoji, "pr\u{ea}tre", "\u{20ac}uro"]),
                ClassDef::new("t.Faces", [emoji.repeat(16)]),
            ],
        ),
        map_vector(
            "empty-names",
            "A zero-field class (field count 90) and an empty field name (00)",
            vec![ClassDef::new("t.Empty", Vec::<String>::new()), ClassDef::new("t.Blank", ["", "a"])],
        ),
        map_vector(
            "form-boundaries",
            "Names at the string form boundaries (31, 32, 1023 and 1024 units) and field counts at \
             the int form boundary (47: bf, 48: c8 30)",
            vec![
                ClassDef::new(long_name("t.", 'A', 31), [long_name("", 'b', 32)]),
                ClassDef::new(long_name("t.", 'C', 1023), [long_name("", 'd', 1024)]),
                ClassDef::new("t.Fields47", (0..47).map(|i| format!("f{i}"))),
                ClassDef::new("t.Fields48", (0..48).map(|i| format!("f{i}"))),
            ],
        ),
        map_vector(
            "chunked",
            "A type name of 0x8000 + 40 units: one R chunk of 0x8000 units, then the final 40 \
             units in their shortest form (30 28)",
            vec![ClassDef::new(long_name("t.", 'L', 0x8000 + 40), ["x"])],
        ),
        map_vector(
            "chunk-surrogate",
            "A type name of 0x7fff units, U+1F600 and one more: a chunk of 0x8000 units would end \
             with a high surrogate, so the chunk is 0x7fff units (R 7f ff) and the final part 3 \
             units (03)",
            vec![ClassDef::new(format!("{}{emoji}z", long_name("t.", 'S', 0x7fff)), ["x"])],
        ),
        map_vector(
            "chunk-exact",
            "A field name of exactly 0x8000 units: not chunked, S 80 00",
            vec![ClassDef::new("t.Exact", [long_name("", 'e', 0x8000)])],
        ),
    ];
    let messages = json!([
        {
            "name": "w2-plain-call",
            "about": "exchange(Order) as a plain Hessian 2 call: its definitions are the map w2",
            "defines": "w2",
            "hex": hex(&plain_call),
        },
        {
            "name": "w2-referring-call",
            "about": "The same call referring to w2: H 02 01 T 30 <digest>, then the call without \
                      the map's definitions (objects of class i start 60 + i)",
            "refers_to": "w2",
            "plain": "w2-plain-call",
            "hex": hex(&referring_call),
        },
        {
            "name": "w2-plain-reply",
            "about": "The reply of exchange as a plain Hessian 2 reply: its definitions are the map w2",
            "defines": "w2",
            "hex": hex(&plain_reply),
        },
        {
            "name": "w2-referring-reply",
            "about": "The same reply referring to w2",
            "refers_to": "w2",
            "plain": "w2-plain-reply",
            "hex": hex(&referring_reply),
        },
        {
            "name": "w2-refusal",
            "about": "The refusal of section 6.1 of a referring call to w2 by a server that does \
                      not have it (HTTP 200, with the headers Hessian-Type-Maps: 1 and \
                      Hessian-Type-Map-Unknown: <digest>)",
            "refusal_of": "w2",
            "code": "UnknownTypeMap",
            "message": message,
            "hex": hex(&refusal),
        },
    ]);
    let doc = json!({
        "about": "Test vectors of the type negotiation extension, version 1 (docs/negotiation.md, \
                  section Test vectors). Bytes are lower-case hex; a digest is the first 16 bytes \
                  of SHA-256 over the canonical encoding. Made by crates/hessian/examples/\
                  negotiation_vectors.rs.",
        "maps": maps,
        "messages": messages,
    });
    println!("{}", serde_json::to_string_pretty(&doc).unwrap());
}
