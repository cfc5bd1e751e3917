//! Hessian 2.0: byte codes, encoder and decoder.

pub mod codes;
pub mod decode;
pub mod encode;

pub use decode::{from_reader, from_slice, from_slice_with_limits, Decoder};
pub use encode::{to_vec, to_writer, Encoder};
