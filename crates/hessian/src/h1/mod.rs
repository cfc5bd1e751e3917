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

pub use decode::{from_reader, from_slice, from_slice_with_limits, read_call, read_reply, Decoder};
pub use encode::{to_vec, to_writer, write_call, write_call_versioned, write_fault, write_reply, Encoder};
