//! Serde for Hessian 1.0.2 (Java's `HessianOutput`/`HessianInput`): any `Serialize`/`Deserialize`
//! type straight to and from bytes, through [`h1::Encoder`](crate::h1::Encoder) and
//! [`h1::Decoder`](crate::h1::Decoder) (no intermediate [`Value`](crate::Value)).
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! #[serde(rename = "com.example.Money")]
//! struct Money {
//!     cents: i32,
//!     currency: String,
//! }
//!
//! let m = Money { cents: 1250, currency: "EUR".into() };
//! let bytes = hessian::serde::h1::to_vec(&m).unwrap();
//! // a Java object in Hessian 1: a map typed with the class name, keyed by field name
//! assert!(bytes.starts_with(b"Mt\x00\x11com.example.Money"));
//! let back: Money = hessian::serde::h1::from_slice(&bytes).unwrap();
//! assert_eq!(m, back);
//! ```
//!
//! The mapping is the one of the Hessian 2.0 serializer (`docs/serde-mapping.md`), in Hessian 1's
//! forms: a struct is a typed map `M t <class> (S field value)* z` (as Java writes an object), a
//! unit enum variant a Java enum `M t <enum> S "name" S <variant> z`, other variants one-entry
//! maps, sequences fixed-length lists `V l n … z`, maps `M t "" … z`, [`Date`](super::Date) a
//! date `d`, [`Value`](crate::Value) fields the value exactly, and [`Shared`](super::Shared)
//! values written once per message and then as `R n` references (lists and maps are numbered in
//! the order they start). The bytes are those of the dynamic path
//! (`h1::to_vec(&to_value(v)?)`), except that a repeated [`Shared`](super::Shared) allocation is
//! a reference where that path copied it.
//!
//! Decoding gives the dynamic path's results (`from_value(h1::from_slice(data)?)`), but errors
//! carry the offset of the offending value, strings and bytes are borrowed from a slice where
//! possible, and references to [`Shared`](super::Shared) values resolve. The decoder's
//! [`Limits`](crate::Limits) apply ([`from_slice_with_limits`]).

mod de;
mod ser;

pub use de::{from_reader, from_slice, from_slice_with_limits, Deserializer};
pub use ser::{to_vec, to_writer, Compound, Serializer};
