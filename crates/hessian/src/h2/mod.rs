//! Hessian 2.0: byte codes, encoder, decoder and message envelopes.

pub mod codes;
pub mod decode;
pub mod encode;
pub mod message;

pub use decode::{from_reader, from_slice, from_slice_with_limits, Decoder};
pub use encode::{to_vec, to_writer, Encoder};
pub use message::{call_from_slice, call_to_vec, fault_to_vec, reply_from_slice, reply_to_vec};
