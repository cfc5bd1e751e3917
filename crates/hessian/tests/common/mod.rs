//! Shared by the Hessian 1 and Burlap interop tests and the conversion test: the boundary
//! catalogue (the same cases as `interop/java/src/LegacyCatalogue.java`, by name), the envelope
//! cases of `LegacyInterop.java`, framing of the Java driver's stdin/stdout, and a NaN-aware
//! value comparison. `serde_formats` and `value_formats` put the three formats' serde and
//! dynamic `Value` APIs behind traits for the generic tests, and `legacy_formats` adds what the
//! Java-interop tests of Hessian 1 and Burlap need.
#![allow(dead_code, clippy::approx_constant)]

pub mod legacy_formats;
pub mod serde_formats;
pub mod serde_types;
pub mod value_formats;

use hessian::{Call, ClassDef, Fault, Reply, Value};
use hessian_testkit::workloads;

/// `n` UTF-16 units cycling through 1-, 2- and 3-byte characters and a surrogate pair (as
/// `LegacyCatalogue.str`).
pub fn str_units(n: usize) -> String {
    let mut s = String::new();
    let mut len = 0;
    let mut i = 0;
    while len < n {
        let c = match i % 5 {
            0 => 'a',
            1 => '\u{e9}',
            2 => '\u{4e2d}',
            3 if len + 2 <= n => '\u{1f600}',
            3 => 'z',
            _ => 'b',
        };
        s.push(c);
        len += c.len_utf16();
        i += 1;
    }
    s
}

/// `n` bytes, byte i = i * 31 mod 256 (as `LegacyCatalogue.bin`).
pub fn bin(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31) as u8).collect()
}

fn ints(n: i32) -> Vec<Value> {
    (0..n).map(Value::Int).collect()
}

/// The catalogue: (name, the value as Hessian 2 models the Java data). Hessian 1 and Burlap carry
/// objects as typed maps: see `hessian::convert::objects_to_maps`.
pub fn cases() -> Vec<(String, Value)> {
    let mut c: Vec<(String, Value)> = Vec::new();
    let mut put = |n: String, v: Value| c.push((n, v));
    put("null".into(), Value::Null);
    put("true".into(), Value::Bool(true));
    put("false".into(), Value::Bool(false));
    let is = [
        0,
        1,
        -1,
        15,
        16,
        47,
        48,
        -16,
        -17,
        127,
        128,
        -128,
        -129,
        2047,
        2048,
        -2048,
        -2049,
        262143,
        262144,
        -262144,
        -262145,
        i32::MAX,
        i32::MIN,
    ];
    for v in is {
        put(format!("int {v}"), Value::Int(v));
    }
    let ls = [
        0,
        1,
        -8,
        15,
        16,
        -9,
        2047,
        2048,
        -2048,
        -2049,
        262143,
        262144,
        -262145,
        2147483647,
        2147483648,
        -2147483648,
        -2147483649,
        i64::MAX,
        i64::MIN,
    ];
    for v in ls {
        put(format!("long {v}"), Value::Long(v));
    }
    for (i, d) in doubles().into_iter().enumerate() {
        put(format!("double {i}"), Value::Double(d));
    }
    put("byte 5".into(), Value::Int(5));
    put("short -300".into(), Value::Int(-300));
    put("float 1.5".into(), Value::Double(1.5));
    put("char x".into(), Value::string("x"));
    for d in DATES {
        put(format!("date {d}"), Value::Date(d));
    }
    for n in [0, 1, 31, 32, 1023, 1024, 32767, 32768, 32769, 65535, 65536] {
        put(format!("string {n}"), Value::String(str_units(n)));
    }
    put("string pair at chunk end".into(), Value::String(format!("{}\u{1f600}b", "a".repeat(0x7fff))));
    put("string xml chars".into(), Value::string("<a href=\"x\">&amp;</a> ]]> 'q'"));
    put("string spaces".into(), Value::string("  two  spaces \t tab \n newline \r cr  "));
    put("string nul".into(), Value::string("a\u{0}b"));
    for n in [0, 1, 2, 3, 15, 16, 1023, 1024, 32768, 32769, 65536] {
        put(format!("binary {n}"), Value::Binary(bin(n)));
    }
    for n in 0..=9 {
        put(format!("list {n}"), Value::list(ints(n)));
    }
    for n in 0..=9 {
        put(format!("int[] {n}"), Value::typed_list("[int", ints(n)));
    }
    put("String[]".into(), Value::typed_list("[string", vec![Value::string("a"), Value::Null, Value::string("b")]));
    put("Object[]".into(), Value::typed_list("[object", vec![Value::Int(1), Value::string("two"), Value::Long(3)]));
    put("long[]".into(), Value::typed_list("[long", vec![Value::Long(1), Value::Long(-1)]));
    put("double[]".into(), Value::typed_list("[double", vec![Value::Double(0.5), Value::Double(-2.0)]));
    put("boolean[]".into(), Value::typed_list("[boolean", vec![Value::Bool(true), Value::Bool(false)]));
    put("LinkedList".into(), Value::typed_list("java.util.LinkedList", ints(3)));
    put("nested lists".into(), Value::list(vec![Value::list(ints(2)), Value::list(vec![]), Value::Null]));
    // Java writes an Iterator as a list of unknown length (no `l` in Hessian 1, `-1` in Burlap).
    put(
        "iterator".into(),
        Value::List(Box::new(hessian::List { type_name: None, fixed_length: false, items: ints(3) })),
    );
    put("map empty".into(), Value::map(vec![]));
    put(
        "map int keys".into(),
        Value::map(vec![(Value::Int(1), Value::string("one")), (Value::Int(2), Value::string("two"))]),
    );
    put("map string key".into(), Value::map(vec![(Value::string("a"), Value::Int(1))]));
    put("map long key null value".into(), Value::map(vec![(Value::Long(5), Value::Null)]));
    put("Hashtable".into(), Value::typed_map("java.util.Hashtable", vec![(Value::string("k"), Value::string("v"))]));
    put(
        "TreeMap".into(),
        Value::typed_map(
            "java.util.TreeMap",
            vec![(Value::string("a"), Value::list(ints(1))), (Value::string("b"), Value::Bool(true))],
        ),
    );
    put("Money".into(), workloads::money(&workloads::money_class(), 1000));
    let w2 = workloads::W2Classes::default();
    put("W2 request".into(), w2.request());
    put("W2 reply".into(), w2.reply());
    put("W1 items 3".into(), workloads::items(3));
    put("shared list".into(), Value::list(vec![Value::list(ints(2)), Value::Ref(1)]));
    put("self list".into(), Value::list(vec![Value::Ref(0)]));
    let node = ClassDef::new("LegacyNode", ["name", "next"]);
    put(
        "node cycle".into(),
        Value::object(
            node.clone(),
            vec![Value::string("a"), Value::object(node, vec![Value::string("b"), Value::Ref(0)])],
        ),
    );
    put("shared object".into(), Value::list(vec![workloads::money(&workloads::money_class(), 5), Value::Ref(1)]));
    put("self map".into(), Value::map(vec![(Value::string("me"), Value::Ref(0))]));
    put(
        "remote".into(),
        Value::Remote(Box::new(hessian::Remote {
            type_name: "com.example.Api".into(),
            url: "http://localhost/api?x=1&y=2".into(),
        })),
    );
    c
}

/// The doubles of the catalogue, in order (`double i`).
pub fn doubles() -> Vec<f64> {
    vec![
        0.0,
        -0.0,
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
        12.25,
        3.14159,
        1e300,
        -1e-300,
        4.9e-324,
        f64::MAX,
        1.0e7,
        9999999.0,
        0.0009999,
        1.0e-3,
        123456789.125,
        100.0,
        1.5e-5,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ]
}

/// The dates of the catalogue (ms since the epoch), including both sides of the Julian/Gregorian
/// cut-over that Java's calendar applies.
pub const DATES: [i64; 12] = [
    0,
    1200000000000,
    894621091000,
    894621060000,
    -1,
    253402300799999,
    -62135596800000,
    -12219292800000,
    -12219292800001,
    -30610224000000,
    951782400000,
    1234,
];

/// An envelope case of `LegacyInterop.java`.
pub enum Envelope {
    /// A call and the major version in its header.
    Call(Call, u8),
    /// A reply.
    Reply(Reply),
}

/// The envelope cases (names as in `LegacyInterop.java`); `call:v2` is Hessian 1 only.
pub fn envelopes() -> Vec<(&'static str, Envelope)> {
    let w2 = workloads::W2Classes::default();
    let mut headers = Call::new("echo", vec![Value::Int(7)]);
    headers.headers.push(("trace".into(), Value::string("t-1")));
    let mut detail = Fault::new("ServiceException", "with detail");
    detail.detail = Some(workloads::money(&workloads::money_class(), 7));
    vec![
        ("call:add2", Envelope::Call(Call::new("add2", vec![Value::Int(1), Value::Int(2)]), 1)),
        ("call:noargs", Envelope::Call(Call::new("ping", vec![]), 1)),
        ("call:objects", Envelope::Call(Call::new("exchange", vec![w2.request(), Value::string("x"), Value::Null]), 1)),
        ("call:v2", Envelope::Call(Call::new("getItems", vec![Value::Int(3)]), 2)),
        // Java's no-argument HessianOutput.startCall() writes `c 0 1` (major and minor swapped).
        ("call:headers", Envelope::Call(headers, 0)),
        ("reply:int", Envelope::Reply(Ok(Value::Int(42)))),
        ("reply:items", Envelope::Reply(Ok(workloads::items(2)))),
        ("reply:fault", Envelope::Reply(Err(Fault::new("ServiceException", "boom <&>")))),
        ("reply:fault detail", Envelope::Reply(Err(detail))),
    ]
}

/// Parses the Java driver's framing: per entry u16 name length, name, u32 length, payload.
pub fn parse_frames(mut d: &[u8]) -> Vec<(String, Vec<u8>)> {
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

/// Builds the Java driver's framing.
pub fn frames(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, p) in entries {
        out.extend_from_slice(&(n.len() as u16).to_be_bytes());
        out.extend_from_slice(n.as_bytes());
        out.extend_from_slice(&(p.len() as u32).to_be_bytes());
        out.extend_from_slice(p);
    }
    out
}

/// Structural equality where doubles compare by bits (so NaN equals NaN, and -0.0 differs from
/// 0.0): [`Value::same`].
pub fn same(a: &Value, b: &Value) -> bool {
    a.same(b)
}
