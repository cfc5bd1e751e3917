//! Decode errors inside structs name the path to the value (`Item.added: …`), in the streaming
//! deserializers of the three formats and in `from_value`, and say "null" where serde would say
//! "unit value".

use hessian::serde::Date;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.acme.inventory.Supplier")]
struct Supplier {
    name: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.acme.inventory.Item")]
struct Item {
    id: i64,
    name: Option<String>,
    added: Option<Date>,
    supplier: Option<Supplier>,
    tags: Option<Vec<String>>,
}

/// The same class with the reference fields declared non-null.
#[derive(Deserialize, Debug)]
#[serde(rename = "com.acme.inventory.Item")]
#[allow(dead_code)]
struct StrictItem {
    id: i64,
    name: String,
    added: Date,
    supplier: StrictSupplier,
    tags: Vec<String>,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "com.acme.inventory.Supplier")]
#[allow(dead_code)]
struct StrictSupplier {
    name: String,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "com.acme.inventory.Order")]
#[allow(dead_code)]
struct StrictOrder {
    items: Vec<StrictItem>,
}

#[derive(Serialize)]
#[serde(rename = "com.acme.inventory.Order")]
struct Order {
    items: Vec<Item>,
}

fn item(name: Option<&str>, added: Option<i64>, supplier: Option<Option<&str>>) -> Item {
    Item {
        id: 7,
        name: name.map(str::to_owned),
        added: added.map(Date),
        supplier: supplier.map(|n| Supplier { name: n.map(str::to_owned) }),
        tags: Some(vec!["a".into()]),
    }
}

/// Decodes `v`'s Hessian 2, Hessian 1 and Burlap encodings and its `Value` into `T`, and
/// returns the four error messages.
fn errors<T: serde::de::DeserializeOwned + std::fmt::Debug>(v: &impl Serialize) -> Vec<String> {
    let h2 = hessian::to_vec(v).unwrap();
    let h1 = hessian::serde::h1::to_vec(v).unwrap();
    let burlap = hessian::serde::burlap::to_vec(v).unwrap();
    let value = hessian::from_slice::<hessian::Value>(&h2).unwrap();
    vec![
        hessian::from_slice::<T>(&h2).unwrap_err().to_string(),
        hessian::serde::h1::from_slice::<T>(&h1).unwrap_err().to_string(),
        hessian::serde::burlap::from_slice::<T>(&burlap).unwrap_err().to_string(),
        hessian::serde::from_value::<T>(value).unwrap_err().to_string(),
    ]
}

#[test]
fn a_null_in_a_non_null_field_names_the_struct_and_field() {
    for e in errors::<StrictItem>(&item(Some("widget"), None, Some(Some("acme")))) {
        assert!(e.starts_with("Item.added: invalid type: expected a date, found null"), "{e}");
    }
    for e in errors::<StrictItem>(&item(None, Some(0), Some(Some("acme")))) {
        assert!(e.starts_with("Item.name: invalid type: expected a string, found null"), "{e}");
        assert!(!e.contains("unit value"), "{e}");
    }
    for e in errors::<StrictItem>(&item(Some("w"), Some(0), Some(None))) {
        assert!(e.starts_with("Item.supplier.name: invalid type: expected a string, found null"), "{e}");
    }
    for e in errors::<StrictItem>(&item(Some("w"), Some(0), None)) {
        assert!(e.starts_with("Item.supplier: invalid type: expected "), "{e}");
        assert!(e.contains("found null"), "{e}");
    }
}

#[test]
fn list_elements_are_in_the_path() {
    let order = Order { items: vec![item(Some("a"), Some(1), Some(Some("s"))), item(Some("b"), None, None)] };
    for e in errors::<StrictOrder>(&order) {
        assert!(e.starts_with("Order.items[1].added: invalid type: expected a date, found null"), "{e}");
    }
    for e in errors::<Vec<StrictItem>>(&order.items) {
        assert!(e.starts_with("[1] Item.added: "), "{e}");
    }
}

#[test]
fn the_path_is_structured_too_and_absent_outside_structs() {
    let h2 = hessian::to_vec(&item(Some("w"), None, None)).unwrap();
    let e = hessian::from_slice::<StrictItem>(&h2).unwrap_err();
    assert_eq!(e.path().as_deref(), Some("Item.added"));
    assert!(matches!(e.kind(), hessian::ErrorKind::InvalidType { .. }));
    let e = hessian::from_slice::<String>(&hessian::to_vec(&()).unwrap()).unwrap_err();
    assert_eq!(e.path(), None);
    assert!(e.to_string().starts_with("invalid type: expected a string, found null"), "{e}");
}

#[test]
fn optional_reference_fields_take_nulls() {
    let v = item(None, None, Some(None));
    let h2 = hessian::to_vec(&v).unwrap();
    assert_eq!(hessian::from_slice::<Item>(&h2).unwrap(), v);
}
