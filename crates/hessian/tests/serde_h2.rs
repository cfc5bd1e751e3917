//! Serde over Hessian 2.0 without Java, what only this format has or tests its own way: values
//! of the `Value` encoder (itself proven equal to Java's bytes in `workloads_java.rs`) into
//! structs, a compound round trip with a unit enum written as a Java enum object, structs in any
//! order, the typed errors, shared values, hand-written and derived types, class definitions
//! (skipped fields, one class name for two types, generic structs, varying fields, definitions
//! remembered across messages), `SystemTime` and readers, and Hessian 1 and Burlap round trips.
//! The properties it shares with the other formats (bytes of every scalar and the W1-W3 structs,
//! Java's shapes, the errors and their offsets, dates, the depth limit, the serializer and
//! deserializer types, borrowing) are generic tests in `serde_shared.rs`, run for it too.

use hessian::serde::{from_slice, to_vec, Date, Shared};
use hessian::{h2, ClassDef, ErrorKind, Value};
use hessian_testkit::{structs, workloads};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::sync::Arc;

fn roundtrip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + Debug>(v: &T) -> Vec<u8> {
    let bytes = to_vec(v).unwrap();
    let back: T = from_slice(&bytes).unwrap();
    assert_eq!(&back, v);
    bytes
}

#[test]
fn values_written_by_the_value_encoder_decode_into_structs() {
    let bytes = h2::to_vec(&workloads::items(50)).unwrap();
    let items: Vec<structs::Item> = from_slice(&bytes).unwrap();
    assert_eq!(items, structs::items(50));
    let back: Value = from_slice(&to_vec(&structs::items(3)).unwrap()).unwrap();
    assert_eq!(back, workloads::items(3));
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Unit;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Newtype(i64);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Tuple(i32, String, Option<bool>);

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Clone, Copy)]
#[serde(rename = "com.example.Color")]
enum Color {
    Red,
    Green,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Dot,
    Circle(f64),
    Rect(f64, f64),
    Poly { sides: u8, name: String },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Compound {
    unit: Unit,
    newtype: Newtype,
    tuple: Tuple,
    vec: Vec<u16>,
    array: [i32; 3],
    pair: (String, f32),
    hash: HashMap<String, Vec<Color>>,
    btree: BTreeMap<i32, Option<String>>,
    colors: Vec<Color>,
    shapes: Vec<Shape>,
    nested: Vec<Vec<Tuple>>,
    when: Date,
    value: Value,
}

#[test]
fn compound_roundtrip() {
    let class = ClassDef::new("com.example.Thing", ["a", "b"]);
    let v = Compound {
        unit: Unit,
        newtype: Newtype(-3),
        tuple: Tuple(1, "two".into(), Some(false)),
        vec: vec![1, 2, 65535],
        array: [7, 8, 9],
        pair: ("p".into(), 0.5),
        hash: HashMap::from([("warm".into(), vec![Color::Red]), ("cold".into(), vec![Color::Green, Color::Red])]),
        btree: BTreeMap::from([(1, None), (2, Some("two".into()))]),
        colors: vec![Color::Green, Color::Red, Color::Green],
        shapes: vec![
            Shape::Dot,
            Shape::Circle(2.5),
            Shape::Rect(1.0, 3.0),
            Shape::Poly { sides: 5, name: "pentagon".into() },
        ],
        nested: vec![vec![], vec![Tuple(0, String::new(), None)]],
        when: Date(1_200_000_000_123),
        value: Value::list(vec![
            Value::object(class.clone(), vec![Value::Int(1), Value::Date(60000)]),
            Value::typed_list("[int", vec![Value::Int(3)]),
            Value::Ref(1),
        ]),
    };
    let bytes = roundtrip(&v);
    // a unit enum is a Java enum object: class def with the single field `name`
    let colors = to_vec(&vec![Color::Green, Color::Red]).unwrap();
    let dynamic = h2::from_slice(&colors).unwrap();
    let e = ClassDef::new("com.example.Color", ["name"]);
    assert_eq!(
        dynamic,
        Value::list(vec![Value::object(e.clone(), vec!["Green".into()]), Value::object(e, vec!["Red".into()])])
    );
    assert!(!bytes.is_empty());
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "org.example.remoting.Item")]
struct ItemSubset {
    // declared in another order than the wire, with fields missing and one optional extra
    updated: Date,
    name: String,
    count: i64,
    #[serde(default)]
    missing: Option<String>,
}

#[test]
fn structs_decode_in_any_order_and_skip_unknown_fields() {
    let bytes = to_vec(&structs::items(3)).unwrap();
    let v: Vec<ItemSubset> = from_slice(&bytes).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!(v[2].name, structs::padded("name-", 2));
    assert_eq!(v[2].count, 2);
    assert_eq!(v[2].updated, Date(1_200_000_002_000 + 86_400_000));
    assert_eq!(v[2].missing, None);
}

#[test]
fn typed_errors() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct NeedsMore {
        name: String,
        absent: i32,
    }
    let bytes = to_vec(&structs::Item::of(1)).unwrap();
    let e = from_slice::<NeedsMore>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingField("absent")), "{e}");
    assert!(e.offset() < bytes.len() as u64 + 1);

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        name: String,
    }
    let e = from_slice::<Strict>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnknownField(f) if f == "street"), "{e}");

    // overflow is checked
    let e = from_slice::<u8>(&to_vec(&300i32).unwrap()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { value: 300, target: "u8" }), "{e}");
    let e = from_slice::<i32>(&to_vec(&(1i64 << 40)).unwrap()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    let e = from_slice::<u64>(&to_vec(&-1i64).unwrap()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    assert!(to_vec(&u64::MAX).is_err());

    // type mismatch, with the offset of the offending byte
    let bytes = to_vec(&("a", 5)).unwrap();
    let e = from_slice::<(String, String)>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{e}");
    assert_eq!(e.offset(), 3);

    // unknown enum variant
    let e = from_slice::<Color>(&to_vec("Blue").unwrap()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnknownVariant(v) if v == "Blue"), "{e}");

    // truncated input
    let bytes = to_vec(&structs::items(2)).unwrap();
    let e = from_slice::<Vec<structs::Item>>(&bytes[..bytes.len() - 3]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedEof), "{e}");
}

#[test]
fn shared_values_become_references() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Address {
        city: String,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Person {
        name: String,
        home: Shared<Address>,
        work: Shared<Address>,
    }
    let a = Shared::new(Address { city: "London".into() });
    let people = vec![
        Person { name: "x".into(), home: a.clone(), work: a.clone() },
        Person { name: "y".into(), home: a.clone(), work: Shared::new(Address { city: "Paris".into() }) },
    ];
    let bytes = to_vec(&people).unwrap();
    // the dynamic view shows the references: list=0, person=1, address=2
    let v = h2::from_slice(&bytes).unwrap();
    let Value::List(l) = &v else { panic!("list") };
    let Value::Object(p0) = &l.items[0] else { panic!("object") };
    assert_eq!(p0.get("work"), Some(&Value::Ref(2)));
    let back: Vec<Person> = from_slice(&bytes).unwrap();
    assert_eq!(back, people);
    assert!(Arc::ptr_eq(&back[0].home.0, &back[0].work.0));
    assert!(Arc::ptr_eq(&back[0].home.0, &back[1].home.0));
    assert!(!Arc::ptr_eq(&back[1].home.0, &back[1].work.0));
}

#[test]
fn hand_written_and_derived_types_mix() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Wallet {
        owner: String,
        coins: Vec<structs::MoneyCents>,
        derived: structs::Money,
    }
    let w = Wallet {
        owner: "ada".into(),
        coins: vec![structs::MoneyCents::of(5), structs::MoneyCents::of(700)],
        derived: structs::Money::of(1),
    };
    let bytes = to_vec(&w).unwrap();
    // the hand-written class carries `cents` only
    let v = h2::from_slice(&bytes).unwrap();
    let Value::Object(o) = &v else { panic!("object") };
    let Some(Value::List(coins)) = o.get("coins") else { panic!("coins") };
    let Value::Object(c) = &coins.items[0] else { panic!("coin") };
    assert_eq!(c.class.fields, ["cents"]);
    assert_eq!(from_slice::<Wallet>(&bytes).unwrap(), w);
    // a hand-written reader skips fields it does not read (a derived Money has `text` too)
    let m: structs::MoneyCents = from_slice(&to_vec(&structs::Money::of(42)).unwrap()).unwrap();
    assert_eq!(m, structs::MoneyCents::of(42));
}

#[test]
fn skipped_fields_keep_one_class_definition() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Opt {
        a: i32,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        b: Option<String>,
    }
    let v = vec![Opt { a: 1, b: None }, Opt { a: 2, b: Some("x".into()) }];
    let bytes = to_vec(&v).unwrap();
    assert_eq!(bytes.iter().filter(|&&b| b == b'C').count(), 1);
    assert_eq!(from_slice::<Vec<Opt>>(&bytes).unwrap(), v);
}

#[test]
fn system_time_and_readers() {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Stamp {
        #[serde(with = "hessian::serde::date::system_time")]
        at: SystemTime,
        #[serde(with = "hessian::serde::date::option_system_time")]
        maybe: Option<SystemTime>,
    }
    let s = Stamp { at: UNIX_EPOCH + Duration::from_millis(1_200_000_000_000), maybe: None };
    let bytes = roundtrip(&s);
    assert!(h2::from_slice(&bytes).unwrap().to_string().contains("date(1200000000000)"));
    let mut out = Vec::new();
    hessian::serde::to_writer(&mut out, &s).unwrap();
    assert_eq!(out, bytes);
    let r: Stamp = hessian::serde::from_reader(&bytes[..]).unwrap();
    assert_eq!(r, s);
}

#[test]
fn hessian1_and_burlap_roundtrip() {
    use hessian::serde::{burlap, h1};
    let items = structs::items(20);
    let b = h1::to_vec(&items).unwrap();
    assert_eq!(h1::from_slice::<Vec<structs::Item>>(&b).unwrap(), items);
    // Hessian 1 objects are typed maps, as Java writes them
    assert!(b.windows(29).any(|w| w == b"Mt\x00\x19org.example.remoting.Item"));
    let b = burlap::to_vec(&items).unwrap();
    assert_eq!(burlap::from_slice::<Vec<structs::Item>>(&b).unwrap(), items);
    for order in [structs::w2::request(), structs::w2::reply()] {
        assert_eq!(h1::from_slice::<structs::w2::Order>(&h1::to_vec(&order).unwrap()).unwrap(), order);
        assert_eq!(burlap::from_slice::<structs::w2::Order>(&burlap::to_vec(&order).unwrap()).unwrap(), order);
    }
    let shapes =
        vec![Shape::Dot, Shape::Circle(1.5), Shape::Rect(1.0, 2.0), Shape::Poly { sides: 3, name: "t".into() }];
    assert_eq!(h1::from_slice::<Vec<Shape>>(&h1::to_vec(&shapes).unwrap()).unwrap(), shapes);
    assert_eq!(burlap::from_slice::<Vec<Shape>>(&burlap::to_vec(&shapes).unwrap()).unwrap(), shapes);
    let colors = vec![Color::Red, Color::Green];
    assert_eq!(h1::from_slice::<Vec<Color>>(&h1::to_vec(&colors).unwrap()).unwrap(), colors);
    let hand = vec![structs::MoneyCents::of(7)];
    assert_eq!(h1::from_slice::<Vec<structs::MoneyCents>>(&h1::to_vec(&hand).unwrap()).unwrap(), hand);
    let e = h1::from_slice::<u8>(&h1::to_vec(&1000).unwrap()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { value: 1000, .. }), "{e}");
}

#[test]
fn two_types_with_one_class_name_alternate_in_one_message() {
    // Same serde name "Money", different fields: each field list gets its own definition and the
    // serializer switches between them (redoing a value whose fields did not match the last one).
    let v = (
        structs::MoneyCents::of(1),
        structs::Money::of(2),
        structs::MoneyCents::of(3),
        structs::Money::of(4),
        vec![structs::Money::of(5), structs::Money::of(6)],
    );
    let bytes = to_vec(&v).unwrap();
    assert_eq!(bytes.iter().filter(|&&b| b == b'C').count(), 2, "two class definitions");
    let back: (structs::MoneyCents, structs::Money, structs::MoneyCents, structs::Money, Vec<structs::Money>) =
        from_slice(&bytes).unwrap();
    assert_eq!(back, v);
    let Value::List(l) = h2::from_slice(&bytes).unwrap() else { panic!("list") };
    let Value::Object(o) = &l.items[3] else { panic!("object") };
    assert_eq!(o.class.fields, ["cents", "text"]);
}

#[test]
fn generic_struct_monomorphizations_share_one_class_definition() {
    // `Page<A>` and `Page<B>` are different Rust functions with (possibly) different copies of
    // the field-name literals; they still describe one Java class.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "Page")]
    struct Page<T> {
        items: Vec<T>,
        total: i32,
    }
    let v = (
        Page { items: vec![1i32, 2], total: 2 },
        Page { items: vec!["a".to_owned()], total: 1 },
        Page { items: vec![3i32], total: 1 },
        Page { items: vec!["b".to_owned(), "c".to_owned()], total: 2 },
    );
    let bytes = to_vec(&v).unwrap();
    assert_eq!(bytes.iter().filter(|&&b| b == b'C').count(), 1, "one class definition");
    let back: (Page<i32>, Page<String>, Page<i32>, Page<String>) = from_slice(&bytes).unwrap();
    assert_eq!(back, v);
}

#[test]
fn a_struct_whose_fields_vary_gets_a_definition_per_field_list() {
    // A hand-written `Serialize` that leaves a field out now and then: each field list is a class
    // definition of its own, and every instance decodes with its own fields.
    struct Sometimes(i32);
    impl Serialize for Sometimes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("Sometimes", 2)?;
            st.serialize_field("a", &self.0)?;
            if self.0 % 2 == 0 {
                st.serialize_field("b", "even")?;
            }
            st.end()
        }
    }
    let v: Vec<Sometimes> = (0..6).map(Sometimes).collect();
    let bytes = to_vec(&v).unwrap();
    assert_eq!(bytes.iter().filter(|&&b| b == b'C').count(), 2, "two class definitions");
    let Value::List(l) = h2::from_slice(&bytes).unwrap() else { panic!("list") };
    for (i, item) in l.items.iter().enumerate() {
        let Value::Object(o) = item else { panic!("object") };
        let expected: &[&str] = if i % 2 == 0 { &["a", "b"] } else { &["a"] };
        assert_eq!(o.class.fields, expected, "item {i}");
        assert_eq!(o.fields[0], Value::Int(i as i32));
    }
}

#[test]
fn definitions_remembered_from_earlier_messages_do_not_change_the_bytes() {
    // `to_vec` writes the definition of a struct this thread has written before from a cache and
    // serializes the value once; when the first instance in a message has other fields than the
    // cached definition (hand-written impls, here keyed by parity), the value is rewound, with
    // the definitions written inside it, and probed. `to_writer` always probes: both must write
    // the same bytes, message after message, with nested structs, a `Value` object of an already
    // defined class (the tables see the classes written so far) and `Shared` values.
    struct Varies(i32);
    impl Serialize for Varies {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("Varies", 2)?;
            st.serialize_field("a", &self.0)?;
            if self.0 % 2 == 0 {
                st.serialize_field("money", &structs::Money::of(self.0))?;
            }
            st.end()
        }
    }
    /// Varies after a nested struct of its own, the first time in a message.
    struct VariesLate(i32);
    impl Serialize for VariesLate {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("VariesLate", 2)?;
            st.serialize_field("inner", &structs::w2::request().customer)?;
            st.serialize_field("shared", &Shared::new(structs::Money::of(self.0)))?;
            if self.0 % 2 == 0 {
                st.serialize_field("b", &self.0)?;
            }
            st.end()
        }
    }
    #[derive(Serialize)]
    #[serde(rename = "Outer")]
    struct Outer {
        first: structs::Money,
        varies: Varies,
        value: Value,
        shared: Shared<structs::Money>,
        again: Shared<structs::Money>,
    }
    let money = |c: i32| {
        Value::Object(Box::new(hessian::Object {
            class: ClassDef::new("Money", ["cents", "text"]),
            fields: vec![Value::Int(c), Value::String(format!("{c} cents."))],
        }))
    };
    let outer = |i: i32| {
        let shared = Shared::new(structs::Money::of(i + 100));
        Outer { first: structs::Money::of(i), varies: Varies(i), value: money(i), again: shared.clone(), shared }
    };
    // `to_vec` first in each case: `to_writer` fills the same cache.
    let check = |what: &str, ours: Vec<u8>, probed: &dyn Fn(&mut Vec<u8>)| {
        let mut expected = Vec::new();
        probed(&mut expected);
        assert_eq!(ours, expected, "{what}");
        h2::from_slice(&ours).unwrap();
    };
    // Single values first: the second message's first instance differs from the cached one.
    for i in 0..4 {
        let late = VariesLate(i);
        check(&format!("VariesLate({i})"), to_vec(&late).unwrap(), &|w| hessian::serde::to_writer(w, &late).unwrap());
    }
    for i in 0..4 {
        let lates = vec![VariesLate(i), VariesLate(i + 1)];
        check(&format!("VariesLate({i}..)"), to_vec(&lates).unwrap(), &|w| {
            hessian::serde::to_writer(w, &lates).unwrap()
        });
    }
    for len in 1..4 {
        for start in 0..5 {
            let v: Vec<Outer> = (start..start + len).map(outer).collect();
            check(&format!("start {start}, {len} values"), to_vec(&v).unwrap(), &|w| {
                hessian::serde::to_writer(w, &v).unwrap()
            });
            let one = Varies(start);
            check(&format!("Varies({start}) alone"), to_vec(&one).unwrap(), &|w| {
                hessian::serde::to_writer(w, &one).unwrap()
            });
        }
    }
}
