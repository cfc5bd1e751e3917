//! Hessian 1.0.2: byte codes, encoder, decoder and the call/reply/fault envelopes, byte-compatible
//! with Caucho 4.0.38's `HessianOutput` and `HessianInput`.
//!
//! ```
//! use hessian::{h1, Value};
//! let bytes = h1::to_vec(&Value::Int(47)).unwrap();
//! assert_eq!(bytes, [b'I', 0, 0, 0, 47]);
//! assert_eq!(h1::from_slice(&bytes).unwrap(), Value::Int(47));
//! ```

pub mod codes;
pub mod decode;
pub mod encode;

pub use decode::{call_from_slice, from_reader, from_slice, from_slice_with_limits, reply_from_slice, Decoder};
pub use encode::{call_to_vec, call_to_vec_versioned, fault_to_vec, reply_to_vec, to_vec, to_writer, Encoder};
