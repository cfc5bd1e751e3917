//! The typed-JSON reader: any JSON document either maps to a `Value` or is refused with a typed
//! error; what it accepts encodes in every format and maps back to the same JSON.
#![no_main]

use hessian::json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = json::from_json_with_max_depth(&doc, 8);
    if let Ok(v) = json::from_json(&doc) {
        // the mapping is lossless: to_json of the value reads back to an equal value
        let again = json::from_json(&json::to_json(&v)).expect("to_json output reads back");
        assert!(hessian_testkit::catalogue::same_value(&v, &again), "typed JSON round trip");
        let _ = hessian::h2::to_vec(&v);
        let _ = hessian::h1::to_vec(&v);
        let _ = hessian::burlap::to_vec(&v);
    }
});
