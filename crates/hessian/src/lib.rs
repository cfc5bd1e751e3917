//! Hessian 2.0, Hessian 1.0.2 and Burlap codecs, byte-compatible with Caucho's reference
//! implementation (hessian 4.0.38).
//!
//! Layers, from the wire up:
//! - [`read`]: the byte sources every decoder reads from (borrowing slices, buffered streams);
//! - [`h2`]: the Hessian 2.0 byte codes, [`h2::Encoder`] and [`h2::Decoder`];
//! - [`tables`]: class-definition and type-name tables that can be pre-seeded and kept across
//!   messages;
//! - [`value`]: the dynamic [`Value`] model shared by every format;
//! - [`json`]: the lossless typed-JSON mapping of values (`docs/typed-json.md`).
//!
//! ```
//! use hessian::{h2, Value};
//! let bytes = h2::to_vec(&Value::Int(47)).unwrap();
//! assert_eq!(bytes, [0xbf]);
//! assert_eq!(h2::from_slice(&bytes).unwrap(), Value::Int(47));
//! ```

pub mod error;
pub mod h2;
pub mod json;
pub mod read;
pub mod tables;
pub mod value;

pub use error::{Error, ErrorKind, Limits, Result};
pub use tables::Tables;
pub use value::{ClassDef, List, Map, Object, Remote, Value};
