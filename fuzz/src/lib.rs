//! What the fuzz targets share: the strict limits and the checks that every format's decoder
//! and serde deserializer must pass alike (each target names its format; see docs/fuzzing.md).

use hessian::Limits;

/// Very strict limits, so that the limit checks themselves are fuzzed.
pub fn strict_limits() -> Limits {
    Limits::default()
        .with_max_depth(4)
        .with_max_collection_len(8)
        .with_max_string_len(16)
        .with_max_binary_len(16)
        .with_max_class_defs(2)
        .with_max_refs(8)
        .with_max_message_size(256)
        .with_max_ref_copy_bytes(1024)
}

/// The decoder of format `$f` (`h1`, `burlap`: modules of `hessian` with `from_slice`,
/// `from_reader`, `to_vec`, `from_slice_with_limits`, `call_from_slice`, `reply_from_slice`) on
/// `$data`: whatever the slice accepts, the reader accepts with the same value, and it encodes
/// again (`must_encode`) or at least does not panic (`may_encode`); strict limits, calls and
/// replies never panic.
#[macro_export]
macro_rules! decode_target {
    ($f:ident, $data:expr, $encode:ident) => {{
        let data: &[u8] = $data;
        if let Ok(v) = hessian::$f::from_slice(data) {
            let r = hessian::$f::from_reader(data).expect("the reader accepts what the slice accepts");
            assert!(hessian_testkit::catalogue::same_value(&v, &r), "slice and reader disagree");
            $crate::decode_target!(@encode $encode, hessian::$f::to_vec(&v));
        }
        let _ = hessian::$f::from_slice_with_limits(data, $crate::strict_limits());
        let _ = hessian::$f::call_from_slice(data, hessian::Limits::default());
        let _ = hessian::$f::reply_from_slice(data, hessian::Limits::default());
    }};
    (@encode must_encode, $r:expr) => {
        let _ = $r.expect("a decoded value encodes");
    };
    (@encode may_encode, $r:expr) => {
        let _ = $r;
    };
}

/// The native serde deserializer of format `$f` (`hessian::serde::$f`) against the dynamic
/// path it replaced (`from_value(hessian::$f::from_slice(data))`) on `$data`, into the W1/W2/W3
/// structs, `Value`, `serde_json::Value` and a few std types: both give the same value
/// (compared by `Debug`, so that NaN equals NaN), or both fail (the native error with an offset
/// inside the input), except that only the native path copies references into plain types.
/// `Shared` and readers: no panic.
#[macro_export]
macro_rules! serde_target {
    ($f:ident, $data:expr) => {{
        use hessian_testkit::structs::{self, w2};
        let data: &[u8] = $data;
        $crate::serde_target!(@agree $f, data, structs::Item);
        $crate::serde_target!(@agree $f, data, Vec<structs::Item>);
        $crate::serde_target!(@agree $f, data, w2::Order);
        $crate::serde_target!(@agree $f, data, Vec<structs::Money>);
        $crate::serde_target!(@agree $f, data, Vec<structs::MoneyCents>);
        $crate::serde_target!(@agree $f, data, hessian::Value);
        $crate::serde_target!(@agree $f, data, serde_json::Value);
        $crate::serde_target!(@agree $f, data, std::collections::BTreeMap<String, Vec<Option<i64>>>);
        $crate::serde_target!(@agree $f, data, (String, Vec<u8>, f64, bool));
        let _ = hessian::serde::$f::from_slice::<Vec<hessian::serde::Shared<Vec<String>>>>(data);
        let _ = hessian::serde::$f::from_reader::<_, w2::Order>(data);
    }};
    (@agree $f:ident, $data:expr, $t:ty) => {{
        let native = hessian::serde::$f::from_slice::<$t>($data);
        let dynamic = hessian::$f::from_slice($data).and_then(hessian::serde::from_value::<$t>);
        match (&native, &dynamic) {
            (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "the two paths disagree"),
            (Err(e), Err(_)) => assert!(e.offset() <= $data.len() as u64, "offset past the input: {e}"),
            // Only the native path copies a reference (`R`, `<ref>`) into a plain type.
            (Ok(_), Err(e))
                if matches!(e.kind(), hessian::ErrorKind::InvalidType { found, .. } if found == "ref") => {}
            (Ok(_), Err(e)) => panic!("only the dynamic path failed: {e}"),
            (Err(e), Ok(_)) => panic!("only the native path failed: {e}"),
        }
    }};
}
