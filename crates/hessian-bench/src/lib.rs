//! Benchmarks of the project. Run them with `cargo bench -p hessian-bench`; the figures measured
//! on the project's machines are recorded in `BENCHMARKS.md` at the repository root.

pub mod negotiation;
pub mod relay;
pub mod rotation;
