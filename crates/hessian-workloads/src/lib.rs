//! The data sets of the project's benchmarks and conformance tests, as `docs/workloads.md`
//! specifies them, for the demo services that serve them, the benchmarks and the tests:
//! - [`values`]: the W1-W3 data sets as [`hessian::Value`]s, laid out as Java writes them;
//! - [`structs`]: the same data sets as serde structs (and a hand-written W3 `Money`);
//! - [`catalogue`]: the Hessian 2.0 conformance catalogue (Caucho's `TestHessian2` replies and
//!   every compact-range boundary) as named [`hessian::Value`]s.
//!
//! It depends on the codec only.

#![deny(missing_docs)]

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod catalogue;
pub mod structs;
pub mod values;
