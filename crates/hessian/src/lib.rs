//! Hessian 2.0, Hessian 1.0.2 and Burlap codecs, byte-compatible with Caucho's reference
//! implementation (hessian 4.0.38).
//!
//! The package is `hessian-codec` (the name `hessian` is another project's on crates.io); the
//! library is `hessian`: depend on it as
//! `hessian = { package = "hessian-codec", version = "0.1" }` and write `use hessian::…`.
//!
//! Layers, from the wire up:
//! - [`read`]: the byte sources every decoder reads from (borrowing slices, buffered streams);
//! - [`h2`]: the Hessian 2.0 byte codes, [`h2::Encoder`] and [`h2::Decoder`];
//! - [`h1`]: Hessian 1.0.2 (same shape) and [`burlap`]: Burlap 1.0, the XML member of the family;
//! - [`token`]: the token reader interface of Hessian 1 and Burlap, over which their serde
//!   deserializer is one generic type;
//! - [`message`]: format-neutral call/reply/fault envelopes, read and written by each format;
//! - [`negotiate`]: type maps of the type negotiation extension ("Hessian 2.1",
//!   `docs/negotiation.md`): canonical encoding, digest, referring messages' header;
//! - [`detect`]: which format an input is in, from its first bytes;
//! - [`convert`]: re-shaping values between formats (Hessian 1 typed maps <-> Hessian 2 objects);
//! - [`tables`]: class-definition and type-name tables that can be pre-seeded and kept across
//!   messages;
//! - [`value`]: the dynamic [`Value`] model shared by every format;
//! - [`serde`]: `Serialize`/`Deserialize` types straight to and from Hessian 2.0
//!   ([`to_vec`], [`from_slice`], …), with the hand-written codec path of
//!   [`serde::external`].
//! - `json` (feature `json`): the lossless typed-JSON mapping of values (`docs/typed-json.md`).
//!
//! ```
//! use hessian::{h2, Value};
//! let bytes = h2::to_vec(&Value::Int(47)).unwrap();
//! assert_eq!(bytes, [0xbf]);
//! assert_eq!(h2::from_slice(&bytes).unwrap(), Value::Int(47));
//! ```

#![deny(missing_docs)]

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod ascii;
pub mod base64;
pub mod burlap;
mod cache;
pub mod convert;
pub mod detect;
mod envelope;
pub mod error;
pub mod h1;
pub mod h2;
mod java_utf8;
#[cfg(feature = "json")]
pub mod json;
pub mod kind;
pub mod message;
pub mod negotiate;
pub mod read;
pub mod serde;
mod session;
pub mod tables;
pub mod token;
pub mod value;
mod write;

pub use envelope::Format;
pub use envelope::{Call, Fault, RawReply, Reply};
pub use error::{Error, ErrorKind, Limits, Result};
pub use session::Session;
pub use tables::Tables;
pub use value::{ClassDef, List, Map, Object, Remote, Value};

pub use crate::serde::{from_reader, from_slice, to_vec, to_writer, Date, Deserializer, Serializer};

#[doc(hidden)]
pub use ::serde as __serde;
