//! Hessian 1.0.2 decoder: values (slice and reader), calls and replies, default and strict
//! limits.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hessian_fuzz::decode_target!(h1, data, must_encode));
