//! The serde deserializer over Hessian 2.0: decode into the W1/W2/W3 structs, into `Value`,
//! into `serde_json::Value` (self-describing path) and into a few std types.
#![no_main]

use hessian::serde::from_slice;
use hessian_testkit::structs::{self, w2};
use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;

fuzz_target!(|data: &[u8]| {
    let _ = from_slice::<structs::Item>(data);
    let _ = from_slice::<Vec<structs::Item>>(data);
    let _ = from_slice::<w2::Order>(data);
    // references (`Q`) into plain structs are copies read again from the input
    let _ = from_slice::<Vec<w2::LineItem>>(data);
    let _ = from_slice::<Vec<structs::Money>>(data);
    let _ = from_slice::<hessian::Value>(data);
    let _ = from_slice::<serde_json::Value>(data);
    let _ = from_slice::<HashMap<String, Vec<Option<i64>>>>(data);
    let _ = from_slice::<(String, Vec<u8>, f64, bool)>(data);
    let _ = from_slice::<Vec<hessian::serde::Shared<Vec<String>>>>(data);
    let _ = hessian::serde::from_reader::<_, w2::Order>(data);
});
