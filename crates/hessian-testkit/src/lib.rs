//! Test support shared by every crate's interop tests and by the benchmarks:
//! - [`java`]: compiles the Java programs under `interop/java/src` against the Debian jar once
//!   and runs them (tests skip with a message when Java is absent, but fail under `CI`);
//! - [`workloads`]: the W1-W3 data sets of the benchmark specification as [`hessian::Value`]s;
//! - [`catalogue`]: the Hessian 2.0 conformance catalogue (Caucho's `TestHessian2` replies and
//!   every compact-range boundary) as named [`hessian::Value`]s.
//! - [`peers`]: python-hessian and hessian.js, installed on first use, and the comparison of
//!   what they read with the value that was sent;
//! - [`structs`]: the same data sets as Rust structs with serde derives (and a hand-written W3).

pub mod catalogue;
pub mod java;
pub mod peers;
pub mod structs;
pub mod workloads;
