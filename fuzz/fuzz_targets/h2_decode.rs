//! Hessian 2.0 decoder: a value from a slice and from a reader, a stream of values through one
//! decoder, calls and replies, with default and with very strict limits. Only panics (and
//! sanitizer reports, timeouts, excess memory) count as findings; errors are expected.
#![no_main]

use hessian::{h2, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let from_slice = h2::from_slice(data);
    let from_reader = h2::from_reader(data);
    // whatever the slice accepts, the reader accepts too, with the same value
    if let Ok(v) = &from_slice {
        let r = from_reader.as_ref().expect("the reader accepts what the slice accepts");
        assert!(hessian_testkit::catalogue::same_value(v, r), "slice and reader disagree");
        // Re-encoding must not panic. It may fail with a typed error: e.g. the decoder accepts
        // an empty type name (`U\x00…`, as Java's reader does) which the encoder refuses, as
        // Java's writer does (first run of this target, see docs/fuzzing.md).
        let _ = h2::to_vec(v);
    }
    let _ = h2::from_slice_with_limits(data, hessian_fuzz::strict_limits());
    let mut d = h2::Decoder::from_slice(data);
    for _ in 0..16 {
        if d.read_value().is_err() {
            break;
        }
    }
    let _ = h2::message::call_from_slice(data, Limits::default());
    let _ = h2::message::reply_from_slice(data, hessian_fuzz::strict_limits());
});
