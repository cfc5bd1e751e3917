//! The byte-classification tables (`h2::codes::kind`, `h1::codes::kind`) agree with the
//! encoders and decoders: for every value of the conformance catalogue, the code that starts its
//! encoding (after any class definitions) is of the kind of the value, in both binary formats; and
//! every code the tables call invalid is refused by the decoders as a value.

use hessian::kind::Kind;
use hessian::{h1, h2, Value};
use hessian_testkit::catalogue;

/// The kind a value's encoding must start with (a Hessian 1 object is written as a map).
fn kind_of(v: &Value, format: &str) -> Kind {
    match v {
        Value::Null => Kind::Null,
        Value::Bool(_) => Kind::Bool,
        Value::Int(_) => Kind::Int,
        Value::Long(_) => Kind::Long,
        Value::Double(_) => Kind::Double,
        Value::Date(_) => Kind::Date,
        Value::String(_) => Kind::String,
        Value::Binary(_) => Kind::Binary,
        Value::List(_) => Kind::List,
        Value::Map(_) => Kind::Map,
        Value::Object(_) if format == "h1" => Kind::Map,
        Value::Object(_) => Kind::Object,
        Value::Ref(_) => Kind::Ref,
        Value::Remote(_) => Kind::Remote,
    }
}

#[test]
fn the_first_code_of_every_catalogue_value_is_of_its_kind() {
    let mut checked = 0;
    for case in catalogue::h2_cases() {
        let v = &case.value;
        let bytes = h2::to_vec(v).expect("encode h2");
        // skip the class definitions that precede an object: `C name count field*`
        let mut d = h2::Decoder::from_slice(&bytes);
        let mut at = 0;
        while bytes[at] == h2::codes::BC_CLASS_DEF {
            d.read_code().expect("C");
            d.parse_class_def().expect("class definition");
            at = d.offset() as usize;
        }
        assert_eq!(h2::codes::kind(bytes[at]), kind_of(v, "h2"), "Hessian 2, {}: code {:#04x}", case.name, bytes[at]);
        assert_eq!(h2::codes::kind(bytes[at]).name(), kind_of(v, "h2").name());
        if let Ok(b1) = h1::to_vec(v) {
            assert_eq!(h1::codes::kind(b1[0]), kind_of(v, "h1"), "Hessian 1, {}: code {:#04x}", case.name, b1[0]);
        }
        checked += 1;
    }
    assert!(checked > 200, "only {checked} catalogue values");
}

#[test]
fn codes_of_no_kind_are_refused_as_values() {
    for code in 0..=255u8 {
        // the code alone, then enough zero bytes for any fixed-size form
        let mut bytes = vec![code];
        bytes.extend([0u8; 16]);
        if h2::codes::kind(code) == Kind::Invalid {
            assert!(h2::Decoder::from_slice(&bytes).read_value().is_err(), "Hessian 2 read a value from {code:#04x}");
        }
        if h1::codes::kind(code) == Kind::Invalid {
            assert!(h1::Decoder::from_slice(&bytes).read_value().is_err(), "Hessian 1 read a value from {code:#04x}");
        }
    }
}

#[test]
fn the_names_are_those_of_the_values() {
    let values = [
        Value::Null,
        Value::Bool(true),
        Value::Int(1),
        Value::Long(1),
        Value::Double(1.5),
        Value::Date(0),
        Value::string("s"),
        Value::Binary(vec![1]),
        Value::list(vec![]),
    ];
    for v in &values {
        assert_eq!(kind_of(v, "h2").name(), v.kind_name());
    }
}
