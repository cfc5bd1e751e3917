//! Burlap 1.0, the XML member of the family: encoder, decoder (on `quick-xml`) and the
//! call/reply/fault envelopes, byte-compatible with Caucho 4.0.38's `BurlapOutput` and
//! `BurlapInput`.
//!
//! ```
//! use hessian::{burlap, Value};
//! let bytes = burlap::to_vec(&Value::Int(47)).unwrap();
//! assert_eq!(bytes, b"<int>47</int>");
//! assert_eq!(burlap::from_slice(&bytes).unwrap(), Value::Int(47));
//! ```

pub mod decode;
pub mod dtoa;
pub mod encode;
pub mod text;

pub use decode::{
    call_from_slice, from_reader, from_slice, from_slice_with_limits, reply_entries_from_slice, reply_from_slice,
    Decoder, Input,
};
pub use encode::{call_to_vec, fault_to_vec, reply_to_vec, to_vec, to_writer, Encoder};
