//! The types of `docs/serde-mapping.md`, shared by the serde tests of Hessian 1 and Burlap
//! (`serde_h1.rs`, `serde_burlap.rs`, `serde_shared.rs`): every row of the mapping as a field or
//! a type, a hand-written codec, dates, skipped fields, generics and the enum representations.

use hessian::serde::external::{Externalizable, FieldReader, FieldWriter};
use hessian::serde::{Date, Shared};
use hessian::Value;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Scalars {
    pub a: i8,
    pub b: i16,
    pub c: i32,
    pub d: i64,
    pub e: u8,
    pub f: u16,
    pub g: u32,
    pub h: u64,
    pub i: f32,
    pub j: f64,
    pub k: bool,
    pub l: char,
    pub m: String,
    pub n: Option<i32>,
    pub o: Option<String>,
    pub p: (),
    #[serde(with = "serde_bytes")]
    pub q: Vec<u8>,
    pub r: i128,
    pub s: u128,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Unit;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Newtype(pub i32);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Tuple(pub u8, pub String, pub Option<bool>);

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
#[serde(rename = "com.example.Color")]
pub enum Color {
    Red,
    Green,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub enum Shape {
    Dot,
    Circle(f64),
    Rect(f64, f64),
    Poly { sides: u8, name: String },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.Compound")]
pub struct Compound {
    pub unit: Unit,
    pub newtype: Newtype,
    pub tuple: Tuple,
    pub vec: Vec<u16>,
    pub array: [i64; 3],
    pub pair: (String, f32),
    pub hash: BTreeMap<String, Vec<Color>>,
    pub btree: BTreeMap<i32, Option<String>>,
    pub colors: Vec<Color>,
    pub shapes: Vec<Shape>,
    pub nested: Vec<Vec<Tuple>>,
    pub when: Date,
    pub value: Value,
    pub options: Vec<Option<Option<i16>>>,
}

pub fn compound() -> Compound {
    Compound {
        unit: Unit,
        newtype: Newtype(-3),
        tuple: Tuple(1, "two".into(), Some(false)),
        vec: vec![1, 2, 65535],
        array: [7, i64::MIN, i64::MAX],
        pair: ("p".into(), 0.5),
        hash: BTreeMap::from([("warm".into(), vec![Color::Red]), ("cold".into(), vec![Color::Green, Color::Red])]),
        btree: BTreeMap::from([(1, None), (-2, Some("two".into()))]),
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
            // as Hessian 1 and Burlap decode objects: maps typed with the class name
            Value::typed_map("com.example.Thing", vec![("a".into(), Value::Int(1)), ("b".into(), Value::Date(6))]),
            Value::typed_list("[int", vec![Value::Int(3)]),
            Value::typed_map("java.util.Hashtable", vec![(Value::Long(1), Value::Binary(vec![1, 2]))]),
            Value::Ref(1),
            Value::Remote(Box::new(hessian::Remote { type_name: "com.example.Api".into(), url: "http://x/".into() })),
            Value::Double(f64::MIN_POSITIVE),
        ]),
        options: vec![None, Some(Some(0)), Some(Some(-1))],
    }
}

/// A hand-written codec (Java's `Externalizable`).
#[derive(Debug, PartialEq)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Externalizable for Point {
    const CLASS: &'static str = "com.example.Point";
    const FIELDS: &'static [&'static str] = &["x", "y"];
    fn write_external<W: FieldWriter>(&self, out: &mut W) -> Result<(), W::Error> {
        out.write(&self.x)?;
        out.write(&self.y)
    }
    fn read_external<'de, R: FieldReader<'de>>(input: &mut R) -> Result<Self, R::Error> {
        Ok(Point { x: input.read()?, y: input.read()? })
    }
}
hessian::externalizable!(Point);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.Stamp")]
pub struct Stamp {
    #[serde(with = "hessian::serde::date::system_time")]
    pub at: std::time::SystemTime,
    #[serde(with = "hessian::serde::date::option_system_time")]
    pub maybe: Option<std::time::SystemTime>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.Sparse")]
pub struct Sparse {
    pub id: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.Generic")]
pub struct Generic<T> {
    pub items: Vec<T>,
    pub first: Option<T>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind")]
pub enum Tagged {
    A { n: i32 },
    B { s: String },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
pub enum Untagged {
    Num(i64),
    Text(String),
    List(Vec<Untagged>),
}

/// An object shared between fields (`Shared`).
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.Address")]
pub struct Address {
    pub city: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.Person")]
/// Shared objects and lists next to a `Value` that opens references of its own.
pub struct Person {
    pub extra: Value,
    pub home: Shared<Address>,
    pub work: Shared<Address>,
    pub tags: Shared<Vec<String>>,
    pub again: Shared<Vec<String>>,
}
