//! Property tests, run on stable Rust by the normal test command:
//! - encoding a generated [`Value`] and decoding the bytes gives the value back, from a slice
//!   and from a reader, and re-encoding the result gives the same bytes: the identity in
//!   Hessian 2.0 (but `-0.0`, written as the zero code, and NaN payloads, made canonical, as
//!   Java writes them); in Hessian 1.0.2 and Burlap, which have no objects, an object comes
//!   back as the map Java writes for it (typed with the class name, keyed by field name), NaN
//!   is canonical, and Burlap dates are limited to years 1-9999;
//! - typed JSON (`hessian::json`): `from_json(to_json(v))` is the identity (also through the
//!   JSON text);
//! - decoding arbitrary bytes, and mutations (byte changes, cuts, insertions) of valid
//!   encodings, never panics, with default or very strict limits, in every format (values,
//!   calls and replies).
//!
//! The case count is kept modest (256 by default, `PROPTEST_CASES` overrides it) so the whole
//! workspace test command stays fast on two cores.

use hessian::{burlap, h1, h2, json, ClassDef, Limits, List, Map, Object, Value};
use hessian_testkit::catalogue::same_value;
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

// ---- the Value strategy ----

/// Ints at every compact-form boundary of Hessian 2.0, plus anything.
fn int() -> impl Strategy<Value = i32> {
    prop_oneof![
        any::<i32>(),
        prop::sample::select(vec![
            -16,
            47,
            48,
            -17,
            -2048,
            2047,
            -2049,
            2048,
            -262144,
            262143,
            -262145,
            262144,
            i32::MIN,
            i32::MAX,
            0
        ]),
        -300_000..300_000i32,
    ]
}

fn long() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        prop::sample::select(vec![
            -8,
            15,
            -9,
            16,
            -2048,
            2047,
            -2049,
            2048,
            -262144,
            262143,
            -262145,
            262144,
            i64::from(i32::MIN),
            i64::from(i32::MAX),
            i64::from(i32::MIN) - 1,
            i64::from(i32::MAX) + 1,
            i64::MIN,
            i64::MAX,
        ]),
        -300_000..300_000i64,
    ]
}

/// Doubles hitting each compact form (zero, one, byte, short, mill, float-exact) and any bits
/// at all (NaNs, infinities, subnormals, `-0.0`).
fn double() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        (-200i32..200).prop_map(f64::from),
        (-40_000i32..40_000).prop_map(f64::from),
        any::<i32>().prop_map(|m| 0.001 * f64::from(m)),
        any::<f32>().prop_map(f64::from),
        prop::sample::select(vec![0.0, -0.0, 1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE]),
    ]
}

fn date() -> impl Strategy<Value = i64> {
    prop_oneof![any::<i64>(), any::<i32>().prop_map(|m| i64::from(m) * 60_000), (-1i64 << 40..1 << 40)]
}

/// Characters of every UTF-8 width, weighted towards the interesting ones.
fn character() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::char::range('a', 'z'),
        1 => prop::char::range('\u{0}', '\u{7f}'),
        2 => prop::char::range('\u{80}', '\u{7ff}'),
        2 => prop::char::range('\u{800}', '\u{ffff}'),
        2 => prop::char::range('\u{10000}', '\u{10ffff}'),
    ]
}

/// Short strings of any characters; now and then one long enough to be chunked (over 32768
/// UTF-16 units, with supplementary characters that may straddle a chunk boundary).
fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        30 => prop::collection::vec(character(), 0..40).prop_map(String::from_iter),
        1 => (prop::collection::vec(character(), 1..4), 1000usize..17_000).prop_map(|(cs, n)| {
            let unit: String = cs.into_iter().collect();
            unit.repeat(n)
        }),
    ]
}

/// Short binaries; now and then one big enough to be chunked.
fn binary() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        30 => prop::collection::vec(any::<u8>(), 0..100),
        1 => (any::<u8>(), 4000usize..40_000).prop_map(|(b, n)| (0..n).map(|i| b.wrapping_add(i as u8)).collect()),
    ]
}

/// Remote type names: a few recurring ones (so type references get exercised) and fresh ones.
fn type_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["[int", "[string", "java.util.ArrayList", "java.util.Hashtable", "[object"])
            .prop_map(str::to_owned),
        1 => prop::collection::vec(character(), 1..12).prop_map(String::from_iter),
    ]
}

/// A small pool of shared class definitions (so objects share definitions, and more than 16 of
/// them push object references past the compact form), and freshly generated ones.
fn pooled_classes() -> &'static [Arc<ClassDef>] {
    static POOL: OnceLock<Vec<Arc<ClassDef>>> = OnceLock::new();
    POOL.get_or_init(|| {
        (0..20).map(|i| ClassDef::new(format!("org.example.C{i}"), (0..i % 4).map(|f| format!("f{f}")))).collect()
    })
}

fn class() -> impl Strategy<Value = Arc<ClassDef>> {
    prop_oneof![
        3 => (0..pooled_classes().len()).prop_map(|i| pooled_classes()[i].clone()),
        1 => (type_name(), prop::collection::vec(string(), 0..4)).prop_map(|(n, f)| ClassDef::new(n, f)),
    ]
}

/// Remotes: the type and URL are length-prefixed names in Hessian 1 (at most 65535 UTF-16 units,
/// as in Java), so they are drawn short rather than from `string()`, whose long strings can pass
/// that bound.
fn remote() -> impl Strategy<Value = Value> {
    (prop::collection::vec(character(), 0..12), prop::collection::vec(character(), 0..60)).prop_map(|(t, url)| {
        Value::Remote(Box::new(hessian::Remote { type_name: String::from_iter(t), url: String::from_iter(url) }))
    })
}

/// Scalars (and remotes when the format has them), and reference placeholders.
fn leaf(with_remote: bool) -> impl Strategy<Value = Value> {
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        int().prop_map(Value::Int),
        long().prop_map(Value::Long),
        double().prop_map(Value::Double),
        date().prop_map(Value::Date),
        string().prop_map(Value::String),
        binary().prop_map(Value::Binary),
        // placeholder: `fix_refs` turns it into a valid reference (or null when none can be)
        any::<u32>().prop_map(Value::Ref),
    ];
    if with_remote {
        prop_oneof![20 => scalar, 1 => remote()].boxed()
    } else {
        scalar.boxed()
    }
}

/// Any value of the model that Hessian 2.0 represents exactly (everything but `Remote`, which
/// Hessian 2.0 writes as a `HessianRemote` object), with references only to lists, maps and
/// objects that precede them in encoding order.
fn value() -> impl Strategy<Value = Value> {
    value_with(false)
}

/// [`value`], with remotes when `with_remote` (Hessian 1.0.2 and Burlap have them).
fn value_with(with_remote: bool) -> impl Strategy<Value = Value> {
    leaf(with_remote)
        .prop_recursive(4, 48, 8, |inner| {
            prop_oneof![
                (prop::option::of(type_name()), any::<bool>(), prop::collection::vec(inner.clone(), 0..10)).prop_map(
                    |(type_name, fixed_length, items)| Value::List(Box::new(List { type_name, fixed_length, items }))
                ),
                (prop::option::of(type_name()), prop::collection::vec((inner.clone(), inner.clone()), 0..6))
                    .prop_map(|(type_name, entries)| Value::Map(Box::new(Map { type_name, entries }))),
                (class(), prop::collection::vec(inner, 4)).prop_map(|(class, mut fields)| {
                    fields.resize(class.fields.len(), Value::Null);
                    Value::Object(Box::new(Object { class, fields }))
                }),
            ]
        })
        .prop_map(|mut v| {
            fix_refs(&mut v, &mut 0);
            v
        })
}

/// Rewrites reference placeholders, in encoding order, to point at a list, map or object that
/// has already started (`seen` counts them); with none started yet the placeholder becomes null.
fn fix_refs(v: &mut Value, seen: &mut u32) {
    match v {
        Value::Ref(r) => {
            *v = if *seen == 0 { Value::Null } else { Value::Ref(*r % *seen) };
        }
        Value::List(l) => {
            *seen += 1;
            l.items.iter_mut().for_each(|x| fix_refs(x, seen));
        }
        Value::Map(m) => {
            *seen += 1;
            for (k, x) in &mut m.entries {
                fix_refs(k, seen);
                fix_refs(x, seen);
            }
        }
        Value::Object(o) => {
            *seen += 1;
            o.fields.iter_mut().for_each(|x| fix_refs(x, seen));
        }
        _ => {}
    }
}

/// What Hessian 2.0 gives back for `v`: the same value, except that `-0.0` is written as the
/// zero code (as Java writes it) and so comes back as `0.0`, and every NaN is written as Java's
/// canonical NaN (`Double.doubleToLongBits`).
fn h2_expected(v: &Value) -> Value {
    match v {
        Value::Double(d) if *d == 0.0 => Value::Double(0.0),
        Value::Double(d) if d.is_nan() => Value::Double(f64::from_bits(0x7ff8_0000_0000_0000)),
        Value::List(l) => {
            Value::List(Box::new(List { items: l.items.iter().map(h2_expected).collect(), ..(**l).clone() }))
        }
        Value::Map(m) => Value::Map(Box::new(Map {
            type_name: m.type_name.clone(),
            entries: m.entries.iter().map(|(k, x)| (h2_expected(k), h2_expected(x))).collect(),
        })),
        Value::Object(o) => Value::Object(Box::new(Object {
            class: o.class.clone(),
            fields: o.fields.iter().map(h2_expected).collect(),
        })),
        _ => v.clone(),
    }
}

/// What Hessian 1.0.2 and Burlap give back for `v`: they have no objects, so an object is
/// written as Java writes it there, a map typed with the class name whose keys are the field
/// names (in definition order), and decodes as that map; every NaN comes back as Java's
/// canonical NaN (`Double.doubleToLongBits` in Hessian 1, the text `NaN` in Burlap). Everything
/// else comes back as it was.
fn h1_expected(v: &Value) -> Value {
    match v {
        Value::Double(d) if d.is_nan() => Value::Double(f64::from_bits(0x7ff8_0000_0000_0000)),
        Value::List(l) => {
            Value::List(Box::new(List { items: l.items.iter().map(h1_expected).collect(), ..(**l).clone() }))
        }
        Value::Map(m) => Value::Map(Box::new(Map {
            type_name: m.type_name.clone(),
            entries: m.entries.iter().map(|(k, x)| (h1_expected(k), h1_expected(x))).collect(),
        })),
        Value::Object(o) => Value::Map(Box::new(Map {
            type_name: Some(o.class.name.clone()),
            entries: o.class.fields.iter().zip(&o.fields).map(|(f, x)| (Value::string(f), h1_expected(x))).collect(),
        })),
        _ => v.clone(),
    }
}

/// Burlap writes dates as `yyyyMMdd'T'HHmmss.SSS'Z'` with a four-digit era year, so only dates
/// from the year 1 to 9999 are representable: fold generated dates into that range.
fn burlap_dates(v: &mut Value) {
    const MIN: i64 = -62_135_000_000_000; // early in the year 1
    const MAX: i64 = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
    match v {
        Value::Date(d) => *d = MIN + d.rem_euclid(MAX - MIN),
        Value::List(l) => l.items.iter_mut().for_each(burlap_dates),
        Value::Map(m) => m.entries.iter_mut().for_each(|(k, x)| {
            burlap_dates(k);
            burlap_dates(x)
        }),
        Value::Object(o) => o.fields.iter_mut().for_each(burlap_dates),
        _ => {}
    }
}

/// Applies byte edits to a valid encoding: overwrite, cut, insert, flip.
fn mutate(mut bytes: Vec<u8>, edits: &[(u8, usize, u8)]) -> Vec<u8> {
    for &(op, at, b) in edits {
        if bytes.is_empty() {
            bytes.push(b);
            continue;
        }
        let i = at % bytes.len();
        match op % 4 {
            0 => bytes[i] = b,
            1 => bytes.truncate(i),
            2 => bytes.insert(i, b),
            _ => bytes[i] ^= 1 << (b % 8),
        }
    }
    bytes
}

fn strict_limits() -> Limits {
    Limits::default()
        .with_max_depth(3)
        .with_max_collection_len(5)
        .with_max_string_len(10)
        .with_max_binary_len(10)
        .with_max_class_defs(2)
        .with_max_refs(4)
        .with_max_message_size(200)
        .with_max_ref_copy_bytes(100)
}

/// Decodes `bytes` every way the crate offers; only the absence of a panic matters.
fn decode_every_way(bytes: &[u8]) {
    let _ = h2::from_slice(bytes);
    let _ = h2::from_reader(bytes);
    let _ = h2::from_slice_with_limits(bytes, strict_limits());
    // a stream of several values through one decoder, as an envelope reader would
    let mut d = h2::Decoder::from_slice(bytes);
    for _ in 0..8 {
        if d.read_value().is_err() {
            break;
        }
    }
    let mut d = h2::Decoder::from_reader(bytes).with_limits(strict_limits());
    for _ in 0..8 {
        if d.read_value().is_err() {
            break;
        }
    }
}

/// Decodes `bytes` as Hessian 1.0.2 and as Burlap every way; only the absence of a panic matters.
fn decode_h1_burlap_every_way(bytes: &[u8]) {
    let _ = h1::from_slice(bytes);
    let _ = h1::from_reader(bytes);
    let _ = h1::from_slice_with_limits(bytes, strict_limits());
    let _ = h1::call_from_slice(bytes, hessian::Limits::default());
    let _ = h1::reply_from_slice(bytes, hessian::Limits::default());
    let _ = burlap::from_slice(bytes);
    let _ = burlap::from_reader(bytes);
    let _ = burlap::from_slice_with_limits(bytes, strict_limits());
    let _ = burlap::call_from_slice(bytes, hessian::Limits::default());
    let _ = burlap::reply_from_slice(bytes, hessian::Limits::default());
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn h2_encode_decode_is_identity(v in value()) {
        let bytes = h2::to_vec(&v).expect("every generated value is encodable");
        let expected = h2_expected(&v);
        let back = h2::from_slice(&bytes).expect("decoding what we encoded");
        prop_assert!(same_value(&back, &expected), "slice: {back:?} != {expected:?}");
        let streamed = h2::from_reader(bytes.as_slice()).expect("decoding from a reader");
        prop_assert!(same_value(&streamed, &expected), "reader: {streamed:?} != {expected:?}");
        // and the decoded value encodes to the very same bytes
        prop_assert_eq!(h2::to_vec(&back).expect("re-encoding"), bytes);
    }

    #[test]
    fn h2_arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        decode_every_way(&bytes);
    }

    #[test]
    fn h2_mutated_encodings_never_panic(
        v in value(),
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..6),
    ) {
        let bytes = h2::to_vec(&v).expect("every generated value is encodable");
        decode_every_way(&mutate(bytes, &edits));
    }

    #[test]
    fn h1_encode_decode_is_the_documented_mapping(v in value_with(true)) {
        let bytes = h1::to_vec(&v).expect("every generated value is encodable");
        let expected = h1_expected(&v);
        let back = h1::from_slice(&bytes).expect("decoding what we encoded");
        prop_assert!(same_value(&back, &expected), "slice: {back:?} != {expected:?}");
        let streamed = h1::from_reader(bytes.as_slice()).expect("decoding from a reader");
        prop_assert!(same_value(&streamed, &expected), "reader: {streamed:?} != {expected:?}");
        prop_assert_eq!(h1::to_vec(&back).expect("re-encoding"), bytes);
    }

    #[test]
    fn burlap_encode_decode_is_the_documented_mapping(mut v in value_with(true)) {
        burlap_dates(&mut v);
        let bytes = burlap::to_vec(&v).expect("every generated value is encodable");
        let expected = h1_expected(&v);
        let back = burlap::from_slice(&bytes).expect("decoding what we encoded");
        prop_assert!(same_value(&back, &expected), "slice: {back:?} != {expected:?}");
        let streamed = burlap::from_reader(bytes.as_slice()).expect("decoding from a reader");
        prop_assert!(same_value(&streamed, &expected), "reader: {streamed:?} != {expected:?}");
        prop_assert_eq!(burlap::to_vec(&back).expect("re-encoding"), bytes);
    }

    #[test]
    fn h1_burlap_arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        decode_h1_burlap_every_way(&bytes);
    }

    #[test]
    fn h1_burlap_mutated_encodings_never_panic(
        mut v in value_with(true),
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..6),
    ) {
        burlap_dates(&mut v);
        decode_h1_burlap_every_way(&mutate(h1::to_vec(&v).expect("encodable"), &edits));
        decode_h1_burlap_every_way(&mutate(burlap::to_vec(&v).expect("encodable"), &edits));
    }

    #[test]
    fn typed_json_round_trip_is_the_identity(v in value_with(true)) {
        let doc = json::to_json(&v);
        let back = json::from_json(&doc).expect("to_json output reads back");
        prop_assert!(same_value(&back, &v), "{back:?} != {v:?}");
        // and through the JSON text
        let text = serde_json::to_vec(&doc).expect("JSON text");
        let reparsed: serde_json::Value = serde_json::from_slice(&text).expect("parses");
        let back = json::from_json(&reparsed).expect("reads back from text");
        prop_assert!(same_value(&back, &v), "via text: {back:?} != {v:?}");
    }
}
