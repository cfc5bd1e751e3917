//! Test support shared by every crate's interop tests and by the benchmarks:
//! - [`java`]: compiles the Java programs under `interop/java/src` against the Debian jar once
//!   and runs them (tests skip with a message when Java is absent, but fail under `CI`);
//! - [`peers`]: python-hessian and hessian.js, installed on first use, and the comparison of
//!   what they read with the value that was sent;
//! - re-exported from `hessian-workloads`: [`workloads`] (the W1-W3 data sets of the benchmark
//!   specification as [`hessian::Value`]s), [`structs`] (the same as serde structs, and a
//!   hand-written W3) and [`catalogue`] (the Hessian 2.0 conformance catalogue: Caucho's
//!   `TestHessian2` replies and every compact-range boundary);
//! - [`browser`]: headless chromium driven over the DevTools protocol, for the tests of browser views;
//! - [`xorshift`] and [`junk`]: the pseudo-random numbers and bytes of the tests that feed
//!   decoders random input (seeded, so that a failure repeats).

pub mod browser;
pub mod java;
pub mod peers;

// The data sets are a crate of their own (the demo services serve them); tests reach them here.
pub use hessian_workloads::{catalogue, structs, values as workloads};

/// The next number of a xorshift64 generator whose state is `seed` (not zero).
pub fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// `len` pseudo-random bytes from the xorshift64 generator whose state is `seed`.
pub fn junk(seed: &mut u64, len: usize) -> Vec<u8> {
    (0..len).map(|_| xorshift(seed) as u8).collect()
}
