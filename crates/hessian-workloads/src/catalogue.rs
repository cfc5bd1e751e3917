//! The Hessian 2.0 conformance catalogue: named [`Value`]s that every test suite can reuse.
//!
//! Two parts:
//! - [`test_hessian2_replies`]: the reply values of Caucho's `TestHessian2` conformance service
//!   (`com.caucho.hessian.test.TestHessian2Servlet`), named by their method names (`replyNull`,
//!   `replyInt_0x30`, …, `replyObject_3`). The service's `argX` methods expect exactly the value of
//!   `replyX`: see [`arg_expectation`] and [`ARG_METHODS`].
//! - [`boundary_cases`]: every boundary of every compact range of Hessian 2.0 (ints, longs,
//!   doubles, dates, string and binary lengths and chunks, list lengths), typed and untyped,
//!   fixed- and variable-length lists, typed and untyped maps with non-string keys, more than 16
//!   class definitions, shared and circular references, type-name references, and the
//!   4.0.38-specific encodings (field order, `ByteHandle`/`ShortHandle`/`FloatHandle`, enums).
//!
//! Each value is what Caucho hessian 4.0.38's `Hessian2Output` writes for the corresponding Java
//! value of `interop/java/src/H2Catalogue.java` (same names), byte for byte; shared and circular
//! structures are written with [`Value::Ref`], exactly as on the wire. The test
//! `crates/hessian/tests/interop_h2.rs` checks both directions against the reference.

use hessian::{ClassDef, List, Value};
use std::sync::{Arc, OnceLock};

/// One named catalogue value.
#[derive(Clone, Debug)]
pub struct Case {
    /// The name: a `TestHessian2` method name or a descriptive boundary name.
    pub name: String,
    /// The value, as the reference writes it; encoding it must give the reference's bytes.
    pub value: Value,
    /// What decoding those bytes gives when it is not `value` itself (only `-0.0`, which the
    /// reference writes as the zero code).
    pub decodes_to: Option<Value>,
    /// Why the case is there or what quirk of 4.0.38 it pins down (empty when self-evident).
    pub note: &'static str,
}

impl Case {
    fn new(name: impl Into<String>, value: Value) -> Case {
        Case { name: name.into(), value, decodes_to: None, note: "" }
    }

    fn note(mut self, note: &'static str) -> Case {
        self.note = note;
        self
    }

    /// The value decoding the case's bytes must produce.
    pub fn decoded(&self) -> &Value {
        self.decodes_to.as_ref().unwrap_or(&self.value)
    }
}

/// The whole Hessian 2.0 catalogue: the `TestHessian2` replies, then the boundary cases.
pub fn h2_cases() -> Vec<Case> {
    let mut v = test_hessian2_replies();
    v.extend(boundary_cases());
    v
}

/// The catalogue case called `name`, if any.
pub fn case(name: &str) -> Option<Case> {
    h2_cases().into_iter().find(|c| c.name == name)
}

/// The `TestHessian2` replies, built once per process (a service answering them looks them up
/// on every call).
fn cached_replies() -> &'static [Case] {
    static REPLIES: OnceLock<Vec<Case>> = OnceLock::new();
    REPLIES.get_or_init(test_hessian2_replies)
}

/// The value `TestHessian2.replyX` answers, by method name (e.g. `"replyInt_0x30"`).
/// `replyNull` (a `void` method) answers [`Value::Null`].
pub fn reply(method: &str) -> Option<Value> {
    cached_replies().iter().find(|c| c.name == method).map(|c| c.value.clone())
}

/// The `arg*` methods of `TestHessian2`: each takes one argument and answers `true` when it
/// equals the value of the matching `reply*` method (`argX` ↔ `replyX`; `argNull` ↔
/// `replyNull`), and otherwise a debug dump of the call. (`replyString_null` and
/// `replyBinary_null` have no `arg` counterpart.)
pub const ARG_METHODS: &[&str] = &[
    "argNull",
    "argTrue",
    "argFalse",
    "argInt_0",
    "argInt_1",
    "argInt_47",
    "argInt_m16",
    "argInt_0x30",
    "argInt_0x7ff",
    "argInt_m17",
    "argInt_m0x800",
    "argInt_0x800",
    "argInt_0x3ffff",
    "argInt_m0x801",
    "argInt_m0x40000",
    "argInt_0x40000",
    "argInt_0x7fffffff",
    "argInt_m0x40001",
    "argInt_m0x80000000",
    "argLong_0",
    "argLong_1",
    "argLong_15",
    "argLong_m8",
    "argLong_0x10",
    "argLong_0x7ff",
    "argLong_m9",
    "argLong_m0x800",
    "argLong_0x800",
    "argLong_0x3ffff",
    "argLong_m0x801",
    "argLong_m0x40000",
    "argLong_0x40000",
    "argLong_0x7fffffff",
    "argLong_m0x40001",
    "argLong_m0x80000000",
    "argLong_0x80000000",
    "argLong_m0x80000001",
    "argDouble_0_0",
    "argDouble_1_0",
    "argDouble_2_0",
    "argDouble_127_0",
    "argDouble_m128_0",
    "argDouble_128_0",
    "argDouble_m129_0",
    "argDouble_32767_0",
    "argDouble_m32768_0",
    "argDouble_0_001",
    "argDouble_m0_001",
    "argDouble_65_536",
    "argDouble_3_14159",
    "argDate_0",
    "argDate_1",
    "argDate_2",
    "argString_0",
    "argString_1",
    "argString_31",
    "argString_32",
    "argString_1023",
    "argString_1024",
    "argString_65536",
    "argBinary_0",
    "argBinary_1",
    "argBinary_15",
    "argBinary_16",
    "argBinary_1023",
    "argBinary_1024",
    "argBinary_65536",
    "argUntypedFixedList_0",
    "argUntypedFixedList_1",
    "argUntypedFixedList_7",
    "argUntypedFixedList_8",
    "argTypedFixedList_0",
    "argTypedFixedList_1",
    "argTypedFixedList_7",
    "argTypedFixedList_8",
    "argUntypedMap_0",
    "argUntypedMap_1",
    "argUntypedMap_2",
    "argUntypedMap_3",
    "argTypedMap_0",
    "argTypedMap_1",
    "argTypedMap_2",
    "argTypedMap_3",
    "argObject_0",
    "argObject_16",
    "argObject_1",
    "argObject_2",
    "argObject_2a",
    "argObject_2b",
    "argObject_3",
];

/// The argument value `TestHessian2.argX` expects (the value of `replyX`), by method name;
/// `None` for a name that is not one of [`ARG_METHODS`].
pub fn arg_expectation(method: &str) -> Option<Value> {
    if !ARG_METHODS.contains(&method) {
        return None;
    }
    let rest = method.strip_prefix("arg")?;
    reply(&format!("reply{rest}"))
}

/// Structural equality in which doubles are equal when their bits are (so `NaN` equals `NaN`
/// and `-0.0` differs from `0.0`), unlike `Value`'s `PartialEq`: [`Value::same`].
pub fn same_value(a: &Value, b: &Value) -> bool {
    a.same(b)
}

/// [`same_value`] as the Java reader sees it: also equal when one side is a typed map with
/// string keys and the other an object of the class the map's type names, with the same fields
/// by name. That is how Hessian 1 writes objects (`M t com.example.A0 ... z`), and Caucho's
/// `HessianInput` reads such a map into an instance of that class, so a Java service cannot tell
/// the two apart (python-hessian, for one, writes every object that way).
pub fn same_java_value(a: &Value, b: &Value) -> bool {
    same(a, b, true)
}

/// [`Value::same`], where a typed map also equals an object of its type with the same fields.
fn same(a: &Value, b: &Value, java: bool) -> bool {
    let eq = |p: &Value, q: &Value| same(p, q, java);
    match (a, b) {
        (Value::Map(m), Value::Object(o)) | (Value::Object(o), Value::Map(m)) if java => {
            m.type_name.as_deref() == Some(o.class.name.as_str())
                && m.entries.len() == o.fields.len()
                && o.class.fields.iter().zip(&o.fields).all(|(name, v)| {
                    m.entries.iter().any(|(k, x)| matches!(k, Value::String(s) if s == name) && eq(x, v))
                })
        }
        (Value::List(x), Value::List(y)) => {
            x.type_name == y.type_name
                && x.fixed_length == y.fixed_length
                && x.items.len() == y.items.len()
                && x.items.iter().zip(&y.items).all(|(p, q)| eq(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.type_name == y.type_name
                && x.entries.len() == y.entries.len()
                && x.entries.iter().zip(&y.entries).all(|((k1, v1), (k2, v2))| eq(k1, k2) && eq(v1, v2))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.class == y.class
                && x.fields.len() == y.fields.len()
                && x.fields.iter().zip(&y.fields).all(|(p, q)| eq(p, q))
        }
        _ => a.same(b),
    }
}

// ---- value recipes, shared with H2Catalogue.java ----

/// The `TestHessian2` text: 16 rows of 64 characters, cut to `len`.
pub fn rows16(len: usize) -> String {
    let mut s = String::new();
    for i in 0..16 {
        s.push_str(&format!("{}{} 456789012345678901234567890123456789012345678901234567890123\n", i / 10, i % 10));
    }
    s.truncate(len);
    s
}

/// The `TestHessian2` long text: 1024 rows of 64 characters, cut to `len`.
pub fn rows1024(len: usize) -> String {
    let mut s = String::new();
    for i in 0..64 * 16 {
        s.push_str(&format!(
            "{}{}{} 56789012345678901234567890123456789012345678901234567890123\n",
            i / 100,
            i / 10 % 10,
            i % 10
        ));
    }
    s.truncate(len);
    s
}

/// `n` ASCII digits: `'0' + i % 10`.
pub fn ascii(n: usize) -> String {
    (0..n).map(|i| char::from(b'0' + (i % 10) as u8)).collect()
}

fn chars(n: usize, f: impl Fn(usize) -> u32) -> String {
    (0..n).map(|i| char::from_u32(f(i)).expect("recipe yields scalar values")).collect()
}

/// `n` characters of two UTF-8 bytes each: U+0080 + i % 0x780.
pub fn two_byte(n: usize) -> String {
    chars(n, |i| 0x80 + (i % 0x780) as u32)
}

/// `n` characters of three UTF-8 bytes each: U+0800 + i % 0xd000 (never a surrogate).
pub fn three_byte(n: usize) -> String {
    chars(n, |i| 0x800 + (i % 0xd000) as u32)
}

/// `n` supplementary characters (`2n` UTF-16 units): U+10000 + i % 0x100000.
pub fn supplementary(n: usize) -> String {
    chars(n, |i| 0x10000 + (i % 0x100000) as u32)
}

/// `n` repetitions of `"aé€😀"` (5 UTF-16 units each).
pub fn mixed(n: usize) -> String {
    "a\u{e9}\u{20ac}\u{1f600}".repeat(n)
}

/// `n` bytes: `i % 251`.
pub fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

fn s(x: &str) -> Value {
    Value::string(x)
}

fn ints(n: i32) -> Vec<Value> {
    (0..n).map(Value::Int).collect()
}

fn strs(items: &[&str]) -> Vec<Value> {
    items.iter().map(|x| s(x)).collect()
}

fn variable_list(items: Vec<Value>) -> Value {
    Value::List(Box::new(List { type_name: None, fixed_length: false, items }))
}

/// The `replyDouble_3_14159` value: a double with no compact form (deliberately not π).
#[allow(clippy::approx_constant)]
const THREE_14159: f64 = 3.14159;

const HASHTABLE: &str = "java.util.Hashtable";
const TEST_PACKAGE: &str = "com.caucho.hessian.test";
const CONFORMANCE_PACKAGE: &str = "org.example.h2conformance";

/// Class `com.caucho.hessian.test.A<i>` (no fields).
fn a_class(i: usize) -> Arc<ClassDef> {
    ClassDef::new(format!("{TEST_PACKAGE}.A{i}"), Vec::<String>::new())
}

fn test_object(value: Value) -> Value {
    Value::object(ClassDef::new(format!("{TEST_PACKAGE}.TestObject"), ["_value"]), vec![value])
}

fn test_cons(first: Value, rest: Value) -> Value {
    Value::object(ClassDef::new(format!("{TEST_PACKAGE}.TestCons"), ["_first", "_rest"]), vec![first, rest])
}

fn a_objects() -> Vec<Value> {
    (0..=16).map(|i| Value::object(a_class(i), vec![])).collect()
}

fn conformance_object(class: &str, fields: &[&str], values: Vec<Value>) -> Value {
    Value::object(ClassDef::new(format!("{CONFORMANCE_PACKAGE}.{class}"), fields.iter().copied()), values)
}

fn primitive_fields() -> Value {
    conformance_object(
        "PrimitiveFields",
        &["z", "b", "s", "i", "l", "f", "d", "c"],
        vec![
            Value::Bool(true),
            Value::Int(-7),
            Value::Int(-300),
            Value::Int(100000),
            Value::Long(1 << 40),
            Value::Double(1.5),
            Value::Double(0.1),
            s("\u{e9}"),
        ],
    )
}

fn color(name: &str) -> Value {
    conformance_object("Color", &["name"], vec![s(name)])
}

fn handle(kind: &str, value: Value) -> Value {
    Value::object(ClassDef::new(format!("com.caucho.hessian.io.{kind}Handle"), ["_value"]), vec![value])
}

/// The reply values of Caucho's `TestHessian2` service, named by method.
pub fn test_hessian2_replies() -> Vec<Case> {
    let mut v = vec![
        Case::new("replyNull", Value::Null),
        Case::new("replyTrue", true.into()),
        Case::new("replyFalse", false.into()),
    ];
    let int_cases: [(&str, i32); 16] = [
        ("0", 0),
        ("1", 1),
        ("47", 47),
        ("m16", -16),
        ("0x30", 0x30),
        ("0x7ff", 0x7ff),
        ("m17", -17),
        ("m0x800", -0x800),
        ("0x800", 0x800),
        ("0x3ffff", 0x3ffff),
        ("m0x801", -0x801),
        ("m0x40000", -0x40000),
        ("0x40000", 0x40000),
        ("0x7fffffff", 0x7fffffff),
        ("m0x40001", -0x40001),
        ("m0x80000000", i32::MIN),
    ];
    v.extend(int_cases.iter().map(|(n, x)| Case::new(format!("replyInt_{n}"), Value::Int(*x))));
    let long_cases: [(&str, i64); 18] = [
        ("0", 0),
        ("1", 1),
        ("15", 15),
        ("m8", -8),
        ("0x10", 0x10),
        ("0x7ff", 0x7ff),
        ("m9", -9),
        ("m0x800", -0x800),
        ("0x800", 0x800),
        ("0x3ffff", 0x3ffff),
        ("m0x801", -0x801),
        ("m0x40000", -0x40000),
        ("0x40000", 0x40000),
        ("0x7fffffff", 0x7fffffff),
        ("m0x40001", -0x40001),
        ("m0x80000000", -0x80000000),
        ("0x80000000", 0x80000000),
        ("m0x80000001", -0x80000001),
    ];
    v.extend(long_cases.iter().map(|(n, x)| Case::new(format!("replyLong_{n}"), Value::Long(*x))));
    let double_cases: [(&str, f64); 13] = [
        ("0_0", 0.0),
        ("1_0", 1.0),
        ("2_0", 2.0),
        ("127_0", 127.0),
        ("m128_0", -128.0),
        ("128_0", 128.0),
        ("m129_0", -129.0),
        ("32767_0", 32767.0),
        ("m32768_0", -32768.0),
        ("0_001", 0.001),
        ("m0_001", -0.001),
        ("65_536", 65.536),
        ("3_14159", THREE_14159),
    ];
    v.extend(double_cases.iter().map(|(n, x)| Case::new(format!("replyDouble_{n}"), Value::Double(*x))));
    v.push(Case::new("replyDate_0", Value::Date(0)).note("whole minute: written in the 32-bit minute form"));
    v.push(Case::new("replyDate_1", Value::Date(894_621_091_000)));
    v.push(Case::new("replyDate_2", Value::Date(894_621_060_000)));

    v.push(Case::new("replyString_0", s("")));
    v.push(Case::new("replyString_null", Value::Null));
    v.push(Case::new("replyString_1", s("0")));
    v.push(Case::new("replyString_31", s("0123456789012345678901234567890")));
    v.push(Case::new("replyString_32", s("01234567890123456789012345678901")));
    v.push(Case::new("replyString_1023", Value::String(rows16(1023))));
    v.push(Case::new("replyString_1024", Value::String(rows16(1024))));
    v.push(Case::new("replyString_65536", Value::String(rows1024(65536))));

    v.push(Case::new("replyBinary_0", Value::Binary(vec![])));
    v.push(Case::new("replyBinary_null", Value::Null));
    v.push(Case::new("replyBinary_1", Value::Binary(b"0".to_vec())));
    v.push(Case::new("replyBinary_15", Value::Binary(b"012345678901234".to_vec())));
    v.push(Case::new("replyBinary_16", Value::Binary(b"0123456789012345".to_vec())));
    v.push(Case::new("replyBinary_1023", Value::Binary(rows16(1023).into_bytes())));
    v.push(Case::new("replyBinary_1024", Value::Binary(rows16(1024).into_bytes())));
    v.push(
        Case::new("replyBinary_65536", Value::Binary(rows1024(65536).into_bytes()))
            .note("chunks of 8189 bytes: the 8 KiB output buffer minus the 3-byte chunk header"),
    );

    let digits = ["1", "2", "3", "4", "5", "6", "7", "8"];
    for n in [0, 1, 7, 8] {
        v.push(Case::new(format!("replyUntypedFixedList_{n}"), Value::list(strs(&digits[..n]))));
    }
    for n in [0, 1, 7, 8] {
        v.push(Case::new(format!("replyTypedFixedList_{n}"), Value::typed_list("[string", strs(&digits[..n]))));
    }

    let maps = |typed: bool| {
        let m = |entries: Vec<(Value, Value)>| match typed {
            true => Value::typed_map(HASHTABLE, entries),
            false => Value::map(entries),
        };
        // Hashtable iterates its buckets from the top: keys 0, 1 come out as 1, 0.
        let int_keys = match typed {
            true => vec![(Value::Int(1), s("b")), (Value::Int(0), s("a"))],
            false => vec![(Value::Int(0), s("a")), (Value::Int(1), s("b"))],
        };
        vec![
            m(vec![]),
            m(vec![(s("a"), Value::Int(0))]),
            m(int_keys),
            m(vec![(Value::list(vec![s("a")]), Value::Int(0))]),
        ]
    };
    for (i, m) in maps(false).into_iter().enumerate() {
        v.push(Case::new(format!("replyUntypedMap_{i}"), m));
    }
    for (i, m) in maps(true).into_iter().enumerate() {
        v.push(Case::new(format!("replyTypedMap_{i}"), m));
    }

    v.push(Case::new("replyObject_0", Value::object(a_class(0), vec![])));
    v.push(
        Case::new("replyObject_16", Value::list(a_objects()))
            .note("17 class definitions: the 17th instance uses the `O int` form"),
    );
    v.push(Case::new("replyObject_1", test_object(Value::Int(0))));
    v.push(Case::new("replyObject_2", Value::list(vec![test_object(Value::Int(0)), test_object(Value::Int(1))])));
    v.push(
        Case::new("replyObject_2a", Value::list(vec![test_object(Value::Int(0)), Value::Ref(1)])).note("shared object"),
    );
    v.push(Case::new("replyObject_2b", Value::list(vec![test_object(Value::Int(0)), test_object(Value::Int(0))])));
    v.push(Case::new("replyObject_3", test_cons(s("a"), Value::Ref(0))).note("circular object"));
    v
}

/// Every boundary of every compact range, and the structural cases (see the module docs).
pub fn boundary_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for x in [0, -16, 47, 48, -17, -2048, 2047, 2048, -2049, -262144, 262143, 262144, -262145, i32::MIN, i32::MAX] {
        v.push(Case::new(format!("int_{x}"), Value::Int(x)));
    }
    let i32_min = i64::from(i32::MIN);
    let i32_max = i64::from(i32::MAX);
    for x in [
        0,
        -8,
        15,
        16,
        -9,
        -2048,
        2047,
        2048,
        -2049,
        -262144,
        262143,
        262144,
        -262145,
        i32_min,
        i32_max,
        i32_min - 1,
        i32_max + 1,
        i64::MIN,
        i64::MAX,
    ] {
        v.push(Case::new(format!("long_{x}"), Value::Long(x)));
    }

    let doubles: [(&str, f64); 35] = [
        ("zero", 0.0),
        ("one", 1.0),
        ("minus_one", -1.0),
        ("2", 2.0),
        ("127", 127.0),
        ("m128", -128.0),
        ("128", 128.0),
        ("m129", -129.0),
        ("32767", 32767.0),
        ("m32768", -32768.0),
        ("32768", 32768.0),
        ("m32769", -32769.0),
        ("65536", 65536.0),
        ("0_001", 0.001),
        ("m0_001", -0.001),
        ("65_536", 65.536),
        ("0_5", 0.5),
        ("0_1", 0.1),
        ("1_5", 1.5),
        ("mill_max", 2147483.647),
        ("mill_min", -2147483.648),
        ("mill_max_plus", 2147483.648),
        ("mill_min_minus", -2147483.649),
        ("0_0001", 0.0001),
        ("3_14159", THREE_14159),
        ("1e10", 1e10),
        ("1e300", 1e300),
        ("nan", f64::NAN),
        ("inf", f64::INFINITY),
        ("neg_inf", f64::NEG_INFINITY),
        ("max", f64::MAX),
        ("min_normal", f64::MIN_POSITIVE),
        ("min_subnormal", f64::from_bits(1)),
        ("i32_max", 2147483647.0),
        ("i32_min", -2147483648.0),
    ];
    for (n, x) in doubles {
        v.push(Case::new(format!("double_{n}"), Value::Double(x)));
    }
    v.push(Case {
        name: "double_neg_zero".into(),
        value: Value::Double(-0.0),
        decodes_to: Some(Value::Double(0.0)),
        note: "reference quirk: -0.0 is written as the one-byte zero code and so reads back as +0.0",
    });

    let dates: [(&str, i64); 12] = [
        ("epoch", 0),
        ("ms", 894_621_091_000),
        ("minute", 894_621_060_000),
        ("neg_minute", -60_000),
        ("neg_ms", -1),
        ("one_ms", 1),
        ("minute_i32_max", i32_max * 60_000),
        ("minute_i32_min", i32_min * 60_000),
        ("minute_past_i32_max", (i32_max + 1) * 60_000),
        ("minute_past_i32_min", (i32_min - 1) * 60_000),
        ("max", i64::MAX),
        ("min", i64::MIN),
    ];
    for (n, x) in dates {
        v.push(Case::new(format!("date_{n}"), Value::Date(x)));
    }

    for n in [0, 1, 31, 32, 1023, 1024, 32767, 32768, 32769, 65535, 65536, 65537, 100000] {
        v.push(Case::new(format!("string_ascii_{n}"), Value::String(ascii(n))));
    }
    for n in [1, 31, 32, 1023, 1024, 32768, 32769] {
        v.push(Case::new(format!("string_2byte_{n}"), Value::String(two_byte(n))));
    }
    for n in [1, 31, 32, 1024, 32768, 65536] {
        v.push(Case::new(format!("string_3byte_{n}"), Value::String(three_byte(n))));
    }
    for n in [2, 30, 32, 1024, 32768, 65536] {
        v.push(
            Case::new(format!("string_supplementary_{n}"), Value::String(supplementary(n / 2)))
                .note("length in UTF-16 units; each surrogate written as its own 3-byte sequence"),
        );
    }
    v.push(
        Case::new("string_supplementary_straddles_chunk", Value::String(format!("{}\u{1f600}b", ascii(32767))))
            .note("a chunk never ends on a high surrogate: the first chunk is cut to 0x7fff units"),
    );
    v.push(Case::new("string_supplementary_ends_chunk", Value::String(format!("{}\u{1f600}", ascii(32766)))));
    v.push(Case::new("string_supplementary_odd_65537", Value::String(format!("a{}", supplementary(32768)))));
    v.push(Case::new("string_mixed_65535", Value::String(mixed(13107))));
    v.push(Case::new("string_nul", s("\0")));
    v.push(Case::new("string_ffff", s("\u{ffff}")));
    v.push(Case::new("string_from_char", s("x")).note("a Java Character is written as a one-character string"));
    v.push(Case::new("string_from_char_array", s("a\u{e9}")).note("a Java char[] is written as a string"));

    for n in [0, 1, 15, 16, 1023, 1024, 8000, 8188, 8189, 8190, 8191, 8192, 8193, 16384, 65535, 65536, 100000] {
        v.push(Case::new(format!("binary_{n}"), Value::Binary(bytes(n))));
    }
    v.push(
        Case::new("binary_after_string", Value::list(vec![Value::String(ascii(5000)), Value::Binary(bytes(10000))]))
            .note("binary chunk sizes depend on how full the 8 KiB output buffer already is"),
    );
    for fill in [8004, 8173, 8174, 8176] {
        // list code + 3-byte string header + text = `fill` bytes in the buffer when the binary starts
        v.push(
            Case::new(
                format!("binary_buffer_at_{fill}"),
                Value::list(vec![Value::String(ascii(fill - 4)), Value::Binary(bytes(100))]),
            )
            .note("with under 16 bytes of room Java flushes, then writes a non-final chunk and an empty final one"),
        );
    }
    v.push(Case::new("binary_twice", Value::list(vec![Value::Binary(bytes(5000)), Value::Binary(bytes(5000))])));

    for n in 0..=9 {
        v.push(Case::new(format!("list_untyped_{n}"), Value::list(ints(n))));
    }
    v.push(Case::new("list_untyped_1000", Value::list(ints(1000))));
    for n in [0, 1, 7, 8, 9, 1000] {
        v.push(Case::new(format!("list_int_array_{n}"), Value::typed_list("[int", ints(n))));
    }
    for n in [0, 1, 7, 8, 9] {
        let items = (0..n).map(|i| Value::String(i.to_string())).collect();
        v.push(Case::new(format!("list_string_array_{n}"), Value::typed_list("[string", items)));
    }
    v.push(Case::new("list_long_array", Value::typed_list("[long", vec![Value::Long(0), Value::Long(1 << 40)])));
    v.push(Case::new("list_double_array", Value::typed_list("[double", vec![Value::Double(0.5), Value::Double(-1.0)])));
    v.push(Case::new("list_boolean_array", Value::typed_list("[boolean", vec![true.into(), false.into()])));
    v.push(
        Case::new("list_short_array", Value::typed_list("[short", vec![Value::Int(1), Value::Int(-300)]))
            .note("short[] elements are written as ints"),
    );
    v.push(
        Case::new(
            "list_float_array",
            Value::typed_list("[float", vec![Value::Double(1.5), Value::Double(f64::from(0.1f32))]),
        )
        .note("float[] elements are written as doubles"),
    );
    v.push(Case::new("list_object_array", Value::typed_list("[object", vec![Value::Int(1), s("a"), Value::Null])));
    v.push(Case::new(
        "list_integer_array",
        Value::typed_list("[java.lang.Integer", vec![Value::Int(1), Value::Int(2)]),
    ));
    v.push(
        Case::new(
            "list_string_array_2d",
            Value::typed_list(
                "[[string",
                vec![Value::typed_list("[string", vec![s("a")]), Value::typed_list("[string", vec![])],
            ),
        )
        .note("the second inner array refers to the type name `[string` by number"),
    );
    v.push(Case::new("list_linked_list", Value::typed_list("java.util.LinkedList", ints(3)[1..].to_vec())));
    v.push(Case::new("list_linked_list_empty", Value::typed_list("java.util.LinkedList", vec![])));
    v.push(Case::new("list_vector", Value::typed_list("java.util.Vector", vec![Value::Int(1), s("a")])));
    v.push(Case::new("list_hash_set", Value::typed_list("java.util.HashSet", vec![Value::Int(1)])));
    v.push(Case::new("list_tree_set", Value::typed_list("java.util.TreeSet", ints(4)[1..].to_vec())));
    v.push(
        Case::new("list_variable_iterator", variable_list(ints(4)[1..].to_vec()))
            .note("Java writes an Iterator as a variable-length untyped list (read back as an ArrayList)"),
    );
    v.push(
        Case::new("list_variable_enumeration", variable_list(vec![Value::Int(1), s("a")]))
            .note("Java writes an Enumeration as a variable-length untyped list"),
    );
    v.push(Case::new("list_variable_iterator_empty", variable_list(vec![])));
    v.push(
        Case::new("list_arrays_as_list", Value::typed_list("java.util.Arrays$ArrayList", strs(&["a", "b"])))
            .note("Arrays.asList is written with its private class name and read back as an ArrayList"),
    );
    v.push(
        Case::new(
            "list_type_ref_int_array",
            Value::list(vec![
                Value::typed_list("[int", vec![Value::Int(1)]),
                Value::typed_list("[int", vec![Value::Int(2), Value::Int(3)]),
            ]),
        )
        .note("the second `[int` is a type reference"),
    );
    v.push(Case::new(
        "list_type_ref_linked_list",
        Value::list(vec![
            Value::typed_list("java.util.LinkedList", vec![Value::Int(1)]),
            Value::typed_list("java.util.LinkedList", vec![Value::Int(2)]),
        ]),
    ));
    v.push(
        Case::new(
            "list_type_ref_mixed",
            Value::list(vec![
                Value::typed_list("java.util.Vector", vec![]),
                Value::typed_map(HASHTABLE, vec![]),
                Value::typed_list("java.util.Vector", vec![]),
                Value::typed_map(HASHTABLE, vec![(s("k"), Value::typed_list("java.util.Vector", vec![]))]),
            ]),
        )
        .note("list and map type names share one type table"),
    );
    v.push(Case::new("list_nested_3", Value::list(vec![Value::list(vec![Value::list(vec![])])])));
    v.push(
        Case::new("list_shared_twice", Value::list(vec![Value::list(vec![Value::Int(1)]), Value::Ref(1)]))
            .note("the same list twice: the second is a reference"),
    );
    v.push(
        Case::new("list_self_ref", Value::list(vec![Value::Int(1), Value::Ref(0)])).note("a list containing itself"),
    );

    v.push(Case::new("map_untyped_0", Value::map(vec![])));
    v.push(Case::new("map_string_keys", Value::map(vec![(s("a"), Value::Int(1)), (s("b"), Value::Int(2))])));
    v.push(Case::new(
        "map_int_keys",
        Value::map(vec![(Value::Int(1), s("a")), (Value::Int(2), s("b")), (Value::Int(-3), s("c"))]),
    ));
    v.push(Case::new("map_long_key", Value::map(vec![(Value::Long(1 << 40), s("long"))])));
    v.push(Case::new("map_double_key", Value::map(vec![(Value::Double(1.5), s("double"))])));
    v.push(Case::new("map_bool_key", Value::map(vec![(Value::Bool(true), Value::Int(1))])));
    v.push(Case::new("map_date_key", Value::map(vec![(Value::Date(0), s("epoch"))])));
    v.push(Case::new("map_list_key", Value::map(vec![(Value::list(vec![s("a")]), Value::Int(0))])));
    v.push(Case::new("map_map_key", Value::map(vec![(Value::map(vec![(s("k"), s("v"))]), Value::Int(1))])));
    v.push(Case::new("map_null_value", Value::map(vec![(s("k"), Value::Null)])));
    v.push(Case::new(
        "map_nested",
        Value::map(vec![(s("m"), Value::map(vec![(s("n"), Value::list(vec![Value::Int(1)]))]))]),
    ));
    v.push(
        Case::new(
            "map_hashtable",
            Value::typed_map(
                HASHTABLE,
                vec![(s("b"), Value::Int(2)), (s("a"), Value::Int(1)), (s("c"), Value::Int(3))],
            ),
        )
        .note("entries in Hashtable's iteration order"),
    );
    v.push(Case::new(
        "map_tree_map_int",
        Value::typed_map(
            "java.util.TreeMap",
            vec![(Value::Int(1), s("a")), (Value::Int(2), s("b")), (Value::Int(3), s("c"))],
        ),
    ));
    v.push(Case::new(
        "map_tree_map_string",
        Value::typed_map("java.util.TreeMap", vec![(s("a"), Value::Int(1)), (s("b"), Value::Int(2))]),
    ));
    v.push(Case::new(
        "map_linked_hash_map",
        Value::typed_map("java.util.LinkedHashMap", vec![(s("z"), Value::Int(1)), (s("a"), Value::Int(2))]),
    ));
    v.push(Case::new(
        "map_type_ref_hashtable",
        Value::list(vec![
            Value::typed_map(HASHTABLE, vec![(s("a"), Value::Int(1))]),
            Value::typed_map(HASHTABLE, vec![(s("b"), Value::Int(2))]),
        ]),
    ));
    v.push(Case::new("map_shared_twice", Value::list(vec![Value::map(vec![(s("a"), Value::Int(1))]), Value::Ref(1)])));
    v.push(Case::new("map_self_ref", Value::map(vec![(s("self"), Value::Ref(0))])).note("a map containing itself"));

    v.push(
        Case::new("byte_handle", handle("Byte", Value::Int(5)))
            .note("Hessian2Output writes a Byte as an object of com.caucho.hessian.io.ByteHandle"),
    );
    v.push(Case::new("short_handle", handle("Short", Value::Int(-300))).note("a Short becomes a ShortHandle object"));
    v.push(
        Case::new("float_handle_1_5", handle("Float", Value::Double(1.5))).note("a Float becomes a FloatHandle object"),
    );
    v.push(Case::new("float_handle_0_1", handle("Float", Value::Double(f64::from(0.1f32)))));
    v.push(
        Case::new("object_primitive_fields", primitive_fields())
            .note("primitive fields: byte/short as int, float as double, char as a one-character string"),
    );
    v.push(
        Case::new(
            "object_field_order",
            conformance_object(
                "FieldOrder",
                &["name", "count", "boxed", "first", "items", "when"],
                vec![
                    s("name"),
                    Value::Int(7),
                    Value::Int(8),
                    s("first"),
                    Value::list(vec![Value::Int(1)]),
                    Value::Date(0),
                ],
            ),
        )
        .note("primitive and java.lang.* fields (not Object) are written first, each group in declaration order"),
    );
    v.push(
        Case::new(
            "object_field_order_inherited",
            conformance_object(
                "FieldOrderChild",
                &["extra", "name", "count", "boxed", "extraObject", "first", "items", "when"],
                vec![
                    Value::Long(9),
                    s("n"),
                    Value::Int(0),
                    Value::Null,
                    s("x"),
                    Value::Int(1),
                    Value::Null,
                    Value::Null,
                ],
            ),
        )
        .note("within each group, the subclass's fields come before the superclass's"),
    );
    v.push(Case::new("object_enum", color("RED")).note("an enum constant is an object with one field, `name`"));
    v.push(
        Case::new("object_enum_list", Value::list(vec![color("RED"), color("GREEN"), Value::Ref(1)]))
            .note("enum constants are shared: the second RED is a reference"),
    );
    v.push(Case::new("object_nested", test_object(test_object(Value::list(vec![s("x")])))));
    let mut twenty = a_objects();
    twenty.extend([
        test_object(Value::Int(1)),
        test_cons(s("a"), Value::Null),
        test_object(Value::Int(2)),
        Value::object(a_class(16), vec![]),
        primitive_fields(),
    ]);
    v.push(Case::new("object_20_classes", Value::list(twenty)).note("class references 16..19 use the `O int` form"));
    v.push(Case::new("object_shared_in_map", Value::map(vec![(s("a"), test_object(s("v"))), (s("b"), Value::Ref(1))])));
    v.push(Case::new(
        "object_cons_list",
        test_cons(Value::Int(1), test_cons(Value::Int(2), test_cons(Value::Int(3), Value::Null))),
    ));
    v.push(Case::new("object_cycle_2", test_cons(s("a"), test_cons(s("b"), Value::Ref(0)))).note("a two-object cycle"));
    v
}

/// A byte string in a form of the Hessian 2.0 grammar that `Hessian2Output` never writes, and the
/// value it decodes to. The reference's `Hessian2Input` accepts each of them (checked against
/// `H2Catalogue.decodeOnly()` on the Java side, which names the Java value expected).
#[derive(Clone, Debug)]
pub struct DecodeCase {
    /// The case name.
    pub name: &'static str,
    /// The bytes to decode.
    pub bytes: Vec<u8>,
    /// The value they decode to.
    pub value: Value,
    /// What the reference gives back, when it is not simply the same value in Java form.
    pub note: &'static str,
}

fn dc(name: &'static str, parts: &[&[u8]], value: Value) -> DecodeCase {
    DecodeCase { name, bytes: parts.concat(), value, note: "" }
}

/// A string as Hessian 2.0 writes it, for names inside hand-written byte strings.
fn short_str(x: &str) -> Vec<u8> {
    hessian::h2::to_vec(&s(x)).expect("strings always encode")
}

/// Decoder-only cases: non-compact numbers, small and empty chunks, surrogate pairs split across
/// chunks, typed variable-length lists, long-form list and class references, and types,
/// classes and fields the reader does not know.
pub fn h2_decode_cases() -> Vec<DecodeCase> {
    let test_object_def: Vec<u8> = [&b"C"[..], &short_str(&format!("{TEST_PACKAGE}.TestObject"))].concat();
    let unknown = short_str("x.y.Unknown");
    let int_arr = short_str("[int");
    let vector = short_str("java.util.Vector");
    let mut cases = vec![
        dc("int_long_form_1", &[&[0x49, 0, 0, 0, 1]], Value::Int(1)),
        dc("int_2byte_form_5", &[&[0xc8, 5]], Value::Int(5)),
        dc("int_3byte_form_5", &[&[0xd4, 0, 5]], Value::Int(5)),
        dc("long_long_form_1", &[&[0x4c, 0, 0, 0, 0, 0, 0, 0, 1]], Value::Long(1)),
        dc("long_y_form_1", &[&[0x59, 0, 0, 0, 1]], Value::Long(1)),
        dc("long_2byte_form_5", &[&[0xf8, 5]], Value::Long(5)),
        dc("long_3byte_form_5", &[&[0x3c, 0, 5]], Value::Long(5)),
        dc("double_long_form_0", &[&[0x44, 0, 0, 0, 0, 0, 0, 0, 0]], Value::Double(0.0)),
        dc("double_long_form_1", &[&[0x44], &1.0f64.to_be_bytes()], Value::Double(1.0)),
        dc("double_mill_form_1", &[&[0x5f, 0, 0, 0x03, 0xe8]], Value::Double(1.0)),
        dc("double_short_form_1", &[&[0x5e, 0, 1]], Value::Double(1.0)),
        dc("date_ms_form_whole_minute", &[&[0x4a], &60000i64.to_be_bytes()], Value::Date(60000)),
        dc("string_long_form_short", &[&[0x53, 0, 2], b"ab"], s("ab")),
        dc("string_chunks_small", &[&[0x52, 0, 2], b"ab", &[0x01], b"c"], s("abc")),
        dc("string_chunk_empty_first", &[&[0x52, 0, 0, 0x53, 0, 1], b"a"], s("a")),
        dc(
            "string_surrogates_split_across_chunks",
            &[&[0x52, 0, 1, 0xed, 0xa0, 0xbd, 0x01, 0xed, 0xb8, 0x80]],
            s("\u{1f600}"),
        ),
        dc("binary_long_form_short", &[&[0x42, 0, 2, 1, 2]], Value::Binary(vec![1, 2])),
        dc("binary_chunks_small", &[&[0x41, 0, 2, 1, 2, 0x21, 3]], Value::Binary(vec![1, 2, 3])),
        dc("binary_chunk_then_long_final", &[&[0x41, 0, 1, 1, 0x42, 0, 1, 2]], Value::Binary(vec![1, 2])),
        dc(
            "list_typed_variable_int_array",
            &[&[0x55], &int_arr, &[0x91, 0x92, 0x5a]],
            Value::List(Box::new(List {
                type_name: Some("[int".into()),
                fixed_length: false,
                items: vec![Value::Int(1), Value::Int(2)],
            })),
        ),
        dc(
            "list_typed_variable_vector",
            &[&[0x55], &vector, &[0x91, 0x5a]],
            Value::List(Box::new(List {
                type_name: Some("java.util.Vector".into()),
                fixed_length: false,
                items: vec![Value::Int(1)],
            })),
        ),
        dc("list_untyped_long_form_1", &[&[0x58, 0x91, 0x90]], Value::list(vec![Value::Int(0)])),
        dc(
            "list_typed_long_form_int_array_2",
            &[&[0x56], &int_arr, &[0x92, 0x90, 0x91]],
            Value::typed_list("[int", vec![Value::Int(0), Value::Int(1)]),
        ),
        dc(
            "map_unknown_type",
            &[&[0x4d], &unknown, &[0x01], b"a", &[0x91, 0x5a]],
            Value::typed_map("x.y.Unknown", vec![(s("a"), Value::Int(1))]),
        ),
        dc(
            "object_unknown_class",
            &[&[0x43], &unknown, &[0x91, 0x01], b"a", &[0x60, 0x90]],
            Value::object(ClassDef::new("x.y.Unknown", ["a"]), vec![Value::Int(0)]),
        ),
        dc(
            "object_extra_field",
            &[&test_object_def, &[0x92], &short_str("_value"), &short_str("extra"), &[0x60, 0x91], &short_str("x")],
            Value::object(
                ClassDef::new(format!("{TEST_PACKAGE}.TestObject"), ["_value", "extra"]),
                vec![Value::Int(1), s("x")],
            ),
        ),
        dc(
            "object_missing_field",
            &[
                &[0x43],
                &short_str(&format!("{TEST_PACKAGE}.TestCons")),
                &[0x91],
                &short_str("_first"),
                &[0x60],
                &short_str("a"),
            ],
            Value::object(ClassDef::new(format!("{TEST_PACKAGE}.TestCons"), ["_first"]), vec![s("a")]),
        ),
        dc(
            "object_long_form_class_ref",
            &[&[0x43], &short_str(&format!("{TEST_PACKAGE}.A0")), &[0x90, 0x4f, 0x90]],
            Value::object(a_class(0), vec![]),
        ),
    ];
    let notes: [(&str, &'static str); 4] = [
        ("map_unknown_type", "the reference reads a map of an unknown type as a HashMap"),
        ("object_unknown_class", "the reference reads an object of an unknown class as a HashMap of its fields"),
        ("object_extra_field", "the reference skips fields its class does not have"),
        ("object_missing_field", "the reference leaves fields the stream lacks at their defaults"),
    ];
    for c in &mut cases {
        if let Some((_, n)) = notes.iter().find(|(name, _)| *name == c.name) {
            c.note = n;
        }
    }
    cases
}

/// Values written one after another through one encoder (one `Hessian2Output`), as the
/// arguments of a call are: class definitions, type names and references carry over from value
/// to value (a [`Value::Ref`] may point into an earlier value).
#[derive(Clone, Debug)]
pub struct StreamCase {
    /// The case name (also in `H2Catalogue.streams()`).
    pub name: &'static str,
    /// The values, in order.
    pub values: Vec<Value>,
}

/// The stream cases: a shared object across values, class and type references across values,
/// a reference to a list of an earlier value, and plain scalars.
pub fn h2_stream_cases() -> Vec<StreamCase> {
    let mut classes_and_types = vec![Value::list(a_objects())];
    classes_and_types.extend([
        Value::object(a_class(0), vec![]),
        test_object(Value::Int(5)),
        Value::typed_map(HASHTABLE, vec![]),
        Value::typed_list("java.util.Vector", vec![]),
        Value::typed_map(HASHTABLE, vec![(s("a"), Value::Int(1))]),
    ]);
    vec![
        StreamCase {
            name: "stream_shared_object",
            values: vec![
                test_object(Value::Int(0)),
                Value::Ref(0),
                test_object(Value::Int(1)),
                Value::typed_list("[int", vec![Value::Int(1)]),
                Value::typed_list("[int", vec![Value::Int(2)]),
            ],
        },
        StreamCase { name: "stream_classes_and_types", values: classes_and_types },
        StreamCase {
            name: "stream_ref_to_earlier_list",
            values: vec![Value::list(vec![Value::Int(1)]), s("x"), Value::list(vec![Value::Ref(0)])],
        },
        StreamCase {
            name: "stream_scalars",
            values: vec![
                Value::Int(1),
                s("a"),
                Value::Null,
                Value::Double(1.5),
                Value::Date(60000),
                Value::Long(1 << 40),
                Value::Bool(true),
            ],
        },
    ]
}
