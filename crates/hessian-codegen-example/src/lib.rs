//! `hessian codegen` as a build step: `build.rs` generates the Rust of the Java interface
//! `com.example.greeter.Greeter` into `$OUT_DIR/greeter.rs`, included here. The generated code
//! needs only `hessian-rpc` and `serde` (see `Cargo.toml`).
//!
//! ```text
//! // build.rs
//! hessian_codegen::generate_to_file(&["target/classes"], "com.example.greeter.Greeter",
//!     &hessian_codegen::Options::default(), out_dir.join("greeter.rs"))?;
//! // src/lib.rs
//! include!(concat!(env!("OUT_DIR"), "/greeter.rs"));
//! ```

#![deny(missing_docs)]

#[cfg(generated)]
include!(concat!(env!("OUT_DIR"), "/greeter.rs"));
