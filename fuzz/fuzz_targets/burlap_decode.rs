//! Burlap decoder (XML): values (slice and reader), calls and replies, default and strict
//! limits.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hessian_fuzz::decode_target!(burlap, data, may_encode));
