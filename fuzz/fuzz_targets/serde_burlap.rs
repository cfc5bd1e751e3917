//! The native serde deserializer over Burlap against the dynamic path it replaced
//! (`hessian_fuzz::serde_target!`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hessian_fuzz::serde_target!(burlap, data));
