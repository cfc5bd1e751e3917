//! The native serde deserializer over Burlap: decode into the W1/W2/W3 structs, `Value`,
//! `serde_json::Value` (self-describing path) and a few std types, and check it against the
//! dynamic path it replaced (`from_value(burlap::from_slice(data))`): both give the same value,
//! or both fail (the native error with an offset inside the input), except that only the native
//! path copies references into plain types. `Shared` and readers: no panic.
#![no_main]

use hessian::serde::burlap;
use hessian_testkit::structs::{self, w2};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;

/// Native and dynamic decoding of `$data` into `$t` agree (values compared by `Debug`, so that
/// NaN equals NaN).
macro_rules! agree {
    ($t:ty, $data:expr) => {{
        let data: &[u8] = $data;
        let native = burlap::from_slice::<$t>(data);
        let dynamic = hessian::burlap::from_slice(data).and_then(hessian::serde::from_value::<$t>);
        match (&native, &dynamic) {
            (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "the two paths disagree"),
            (Err(e), Err(_)) => assert!(e.offset() <= data.len() as u64, "offset past the input: {e}"),
            // Only the native path copies a reference (`<ref>`) into a plain type.
            (Ok(_), Err(e))
                if matches!(e.kind(), hessian::ErrorKind::InvalidType { found, .. } if found == "ref") => {}
            (Ok(_), Err(e)) => panic!("only the dynamic path failed: {e}"),
            (Err(e), Ok(_)) => panic!("only the native path failed: {e}"),
        }
    }};
}

fuzz_target!(|data: &[u8]| {
    agree!(structs::Item, data);
    agree!(Vec<structs::Item>, data);
    agree!(w2::Order, data);
    agree!(Vec<structs::Money>, data);
    agree!(Vec<structs::MoneyCents>, data);
    agree!(hessian::Value, data);
    agree!(serde_json::Value, data);
    agree!(BTreeMap<String, Vec<Option<i64>>>, data);
    agree!((String, Vec<u8>, f64, bool), data);
    let _ = burlap::from_slice::<Vec<hessian::serde::Shared<Vec<String>>>>(data);
    let _ = burlap::from_reader::<_, w2::Order>(data);
});
