//! Hessian 1.0.2 decoder: values (slice and reader), calls and replies, default and strict
//! limits.
#![no_main]

use hessian::{h1, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let strict = Limits::default()
        .with_max_depth(4)
        .with_max_collection_len(8)
        .with_max_string_len(16)
        .with_max_binary_len(16)
        .with_max_class_defs(2)
        .with_max_refs(8)
        .with_max_message_size(256)
        .with_max_ref_copy_bytes(1024);
    if let Ok(v) = h1::from_slice(data) {
        let r = h1::from_reader(data).expect("the reader accepts what the slice accepts");
        assert!(hessian_testkit::catalogue::same_value(&v, &r), "slice and reader disagree");
        let _ = h1::to_vec(&v).expect("a decoded value encodes");
    }
    let _ = h1::from_slice_with_limits(data, strict);
    let _ = h1::call_from_slice(data, hessian::Limits::default());
    let _ = h1::reply_from_slice(data, hessian::Limits::default());
});
