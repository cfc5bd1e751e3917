//! Value references (`Q n`, and `R n` in Hessian 1) decoded into plain Rust types: Java writes a reference for every
//! list, map, object or enum constant that occurs a second time in one message; a plain field
//! gets a copy of the referenced value (read again from where it starts), a `Shared` field the
//! shared value. Cycles end at the depth limit and copies are bounded by
//! `Limits::max_ref_copy_bytes`. The Java side is in `serde_java.rs`.

use hessian::serde::{from_reader, from_slice, from_slice_with_limits, to_vec, Shared};
use hessian::{h2, ClassDef, ErrorKind, Limits, Value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename = "Money")]
struct Money {
    cents: i32,
    currency: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename = "Product")]
struct Product {
    sku: String,
    price: Money,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename = "Address")]
struct Address {
    city: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[allow(clippy::upper_case_acronyms)]
enum Color {
    RED,
    GREEN,
}

fn money() -> Money {
    Money { cents: 1250, currency: "EUR".into() }
}

fn product() -> Product {
    Product { sku: "SKU-1".into(), price: money() }
}

#[test]
fn references_to_objects_lists_and_maps_decode_into_plain_types_as_copies() {
    #[derive(Serialize)]
    struct SharedForm {
        a: Shared<Product>,
        b: Shared<Product>,
        l1: Shared<Vec<i32>>,
        l2: Shared<Vec<i32>>,
        m1: Shared<BTreeMap<String, i32>>,
        m2: Shared<BTreeMap<String, i32>>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Plain {
        a: Product,
        b: Product,
        l1: Vec<i32>,
        l2: Vec<i32>,
        m1: BTreeMap<String, i32>,
        m2: BTreeMap<String, i32>,
    }
    let (p, l, m) =
        (Shared::new(product()), Shared::new(vec![1, 2, 3]), Shared::new(BTreeMap::from([("k".into(), 7)])));
    let bytes = to_vec(&SharedForm { a: p.clone(), b: p, l1: l.clone(), l2: l, m1: m.clone(), m2: m }).unwrap();
    assert_eq!(bytes.iter().filter(|&&b| b == b'Q').count(), 3, "three references written");
    let back: Plain = from_slice(&bytes).unwrap();
    let l = vec![1, 2, 3];
    let m = BTreeMap::from([("k".to_string(), 7)]);
    assert_eq!(back, Plain { a: product(), b: product(), l1: l.clone(), l2: l, m1: m.clone(), m2: m });
    // and as a dynamic serde type (deserialize_any)
    let any: serde_json::Value = from_slice(&bytes).unwrap();
    assert_eq!(any["b"], any["a"]);
    assert_eq!(any["l2"], serde_json::json!([1, 2, 3]));
}

#[test]
fn class_definitions_inside_a_copied_value_do_not_shift_later_indexes() {
    // Holder(0) { a: Product(1) { price: Money(2) }, b: Q 1, c: Address(3) }: the copy of `a`
    // reads Money's class definition a second time; Address's definition must still be index 3.
    let money_def = ClassDef::new("Money", ["cents", "currency"]);
    let product_def = ClassDef::new("Product", ["sku", "price"]);
    let address_def = ClassDef::new("Address", ["city"]);
    let holder_def = ClassDef::new("Holder", ["a", "b", "c"]);
    let m = Value::object(money_def, vec![Value::Int(1250), Value::string("EUR")]);
    let p = Value::object(product_def, vec![Value::string("SKU-1"), m]);
    let a = Value::object(address_def, vec![Value::string("London")]);
    let bytes = h2::to_vec(&Value::object(holder_def, vec![p, Value::Ref(1), a])).unwrap();
    #[derive(Deserialize, Debug, PartialEq)]
    struct Holder {
        a: Product,
        b: Product,
        c: Address,
    }
    let back: Holder = from_slice(&bytes).unwrap();
    assert_eq!(back, Holder { a: product(), b: product(), c: Address { city: "London".into() } });
    // A reference after the copy still names the sender's value (the copy's own registrations
    // are forgotten): [Holder-like list] list(0) [P(1){M(2)}, Q1, A(3), Q3]
    let l = Value::list(vec![
        h2::from_slice(&bytes)
            .map(|v| match v {
                Value::Object(o) => o.fields[0].clone(),
                _ => unreachable!(),
            })
            .unwrap(),
        Value::Ref(1),
        Value::object(ClassDef::new("Address", ["city"]), vec![Value::string("Paris")]),
        Value::Ref(3),
    ]);
    let bytes = h2::to_vec(&l).unwrap();
    let back: (Product, Product, Address, Address) = from_slice(&bytes).unwrap();
    assert_eq!(back.3, Address { city: "Paris".into() });
    assert_eq!(back.1, product());
}

#[test]
fn enum_constants_written_twice_decode_from_their_reference() {
    // Java writes an enum constant as an object with a `name` field, and its repeats as `Q`.
    let color = ClassDef::new("Color", ["name"]);
    let red = Value::object(color.clone(), vec![Value::string("RED")]);
    let green = Value::object(color, vec![Value::string("GREEN")]);
    let l = Value::list(vec![red, green, Value::Ref(1), Value::Ref(2), Value::Ref(1)]);
    let bytes = h2::to_vec(&l).unwrap();
    let back: Vec<Color> = from_slice(&bytes).unwrap();
    assert_eq!(back, [Color::RED, Color::GREEN, Color::RED, Color::GREEN, Color::RED]);
}

#[test]
fn a_reference_first_read_as_a_plain_value_can_be_read_into_shared() {
    #[derive(Serialize)]
    struct Out {
        a: Shared<Money>,
        b: Shared<Money>,
        c: Shared<Money>,
    }
    #[derive(Deserialize, Debug)]
    struct In {
        a: Money,
        b: Shared<Money>,
        c: Shared<Money>,
    }
    let m = Shared::new(money());
    let bytes = to_vec(&Out { a: m.clone(), b: m.clone(), c: m }).unwrap();
    let back: In = from_slice(&bytes).unwrap();
    assert_eq!(back.a, money());
    assert_eq!(*back.b.0, money());
    assert_eq!(*back.c.0, money());
}

#[test]
fn references_into_plain_types_need_a_slice() {
    #[derive(Serialize)]
    struct Out {
        a: Shared<Money>,
        b: Shared<Money>,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct In {
        a: Money,
        b: Money,
    }
    let m = Shared::new(money());
    let bytes = to_vec(&Out { a: m.clone(), b: m }).unwrap();
    assert!(from_slice::<In>(&bytes).is_ok());
    let e = from_reader::<_, In>(&bytes[..]).unwrap_err();
    let q = bytes.iter().rposition(|&b| b == b'Q').unwrap() as u64;
    assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{e}");
    assert_eq!(e.offset(), q, "{e}");
}

#[test]
fn a_cycle_ends_at_the_depth_limit() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Node {
        name: String,
        next: Option<Box<Node>>,
    }
    let node = ClassDef::new("Node", ["name", "next"]);
    let bytes = h2::to_vec(&Value::object(node, vec![Value::string("loop"), Value::Ref(0)])).unwrap();
    let e = from_slice::<Node>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", .. }), "{e}");
    let e = from_slice::<serde_json::Value>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", .. }), "{e}");
}

/// `levels` lists, each holding two references to the one before: copying the last one
/// re-reads 2^levels lists.
fn doubling_lists(levels: u32) -> Vec<u8> {
    let mut l = vec![Value::list(vec![Value::Int(0), Value::Int(0)])];
    for i in 1..levels {
        // the outer list is reference 0, list i - 1 is reference i
        l.push(Value::list(vec![Value::Ref(i), Value::Ref(i)]));
    }
    h2::to_vec(&Value::list(l)).unwrap()
}

#[test]
fn copies_of_references_are_bounded() {
    let bytes = doubling_lists(48);
    assert!(bytes.len() < 600);
    for limits in [Limits::default(), Limits::default().with_max_ref_copy_bytes(1000)] {
        let e = from_slice_with_limits::<serde_json::Value>(&bytes, limits).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "bytes re-read to copy references", .. }), "{e}");
    }
    // A few levels stay well inside the bound and decode in full.
    let v: serde_json::Value = from_slice(&doubling_lists(4)).unwrap();
    assert_eq!(v[2], serde_json::json!([[[0, 0], [0, 0]], [[0, 0], [0, 0]]]));
    assert_eq!(v[3][1], v[2]);
}

// ---- Hessian 1.0.2 (`R n`; lists and maps are numbered in the order they start) ----

#[test]
fn hessian1_references_decode_into_plain_types_as_copies() {
    use hessian::h1;
    use hessian::serde::h1 as sh1;
    // list(0) [Product(1) { price: Money(2) }, R1, Address(3), R3, R2]
    let money_def = ClassDef::new("Money", ["cents", "currency"]);
    let product_def = ClassDef::new("Product", ["sku", "price"]);
    let m = Value::object(money_def, vec![Value::Int(1250), Value::string("EUR")]);
    let p = Value::object(product_def, vec![Value::string("SKU-1"), m]);
    let a = Value::object(ClassDef::new("Address", ["city"]), vec![Value::string("Paris")]);
    let l = Value::list(vec![p, Value::Ref(1), a, Value::Ref(3), Value::Ref(2)]);
    let bytes = h1::to_vec(&l).unwrap();
    let back: (Product, Product, Address, Address, Money) = sh1::from_slice(&bytes).unwrap();
    let paris = Address { city: "Paris".into() };
    assert_eq!(back, (product(), product(), paris.clone(), paris, money()));
    let any: serde_json::Value = sh1::from_slice(&bytes).unwrap();
    assert_eq!(any[1], any[0]);
    // from a stream, a reference decodes only into Value or Shared
    let e = sh1::from_reader::<_, (Product, Product, Address, Address, Money)>(&bytes[..]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{e}");
    // enum constants as Java writes them: typed maps `{name: RED}`, repeats as `R`
    let color = ClassDef::new("Color", ["name"]);
    let red = Value::object(color.clone(), vec![Value::string("RED")]);
    let green = Value::object(color, vec![Value::string("GREEN")]);
    let bytes = h1::to_vec(&Value::list(vec![red, green, Value::Ref(1), Value::Ref(2)])).unwrap();
    assert_eq!(sh1::from_slice::<Vec<Color>>(&bytes).unwrap(), [Color::RED, Color::GREEN, Color::RED, Color::GREEN]);
}

#[test]
fn hessian1_cycles_and_copies_are_bounded() {
    use hessian::h1;
    use hessian::serde::h1 as sh1;
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Node {
        name: String,
        next: Option<Box<Node>>,
    }
    let node = ClassDef::new("Node", ["name", "next"]);
    let bytes = h1::to_vec(&Value::object(node, vec![Value::string("loop"), Value::Ref(0)])).unwrap();
    let e = sh1::from_slice::<Node>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", .. }), "{e}");
    // doubling lists, as in Hessian 2
    let mut l = vec![Value::list(vec![Value::Int(0), Value::Int(0)])];
    for i in 1..48 {
        l.push(Value::list(vec![Value::Ref(i), Value::Ref(i)]));
    }
    let bytes = h1::to_vec(&Value::list(l)).unwrap();
    let limits = Limits::default().with_max_ref_copy_bytes(1000);
    let e = sh1::from_slice_with_limits::<serde_json::Value>(&bytes, limits).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "bytes re-read to copy references", .. }), "{e}");
}
