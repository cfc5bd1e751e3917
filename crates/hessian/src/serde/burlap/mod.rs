//! Serde for Burlap 1.0 (Java's `BurlapOutput`/`BurlapInput`): any `Serialize`/`Deserialize`
//! type straight to and from XML bytes, through [`burlap::Encoder`](crate::burlap::Encoder) and
//! [`burlap::Decoder`](crate::burlap::Decoder) (no intermediate [`Value`](crate::Value)).
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
//! let bytes = hessian::serde::burlap::to_vec(&m).unwrap();
//! // a Java object in Burlap: a map typed with the class name, keyed by field name
//! assert!(bytes.starts_with(b"<map><type>com.example.Money</type><string>cents</string><int>1250</int>"));
//! let back: Money = hessian::serde::burlap::from_slice(&bytes).unwrap();
//! assert_eq!(m, back);
//! ```
//!
//! The mapping is the one of the Hessian 2.0 serializer (`docs/serde-mapping.md`), in Burlap's
//! forms: a struct is a typed map `<map><type>class</type>(<string>field</string> value)*</map>`
//! (as Java writes an object), a unit enum variant a Java enum (a map typed with the enum's class
//! holding `name` → variant), other variants one-entry maps, sequences lists with a `<length>`,
//! maps `<map><type></type>…</map>`, [`Date`](super::Date) a `<date>`,
//! [`Value`](crate::Value) fields the value exactly, and [`Shared`](super::Shared) values written
//! once per message and then as `<ref>n</ref>` references (lists and maps are numbered in the
//! order they start). The bytes are those of the dynamic path (`burlap::to_vec(&to_value(v)?)`),
//! except that a repeated [`Shared`](super::Shared) allocation is a reference where that path
//! copied it.
//!
//! Decoding gives the dynamic path's results (`from_value(burlap::from_slice(data)?)`), but
//! errors carry the offset of the offending element, and references resolve: to
//! [`Shared`](super::Shared) values, and from a slice into plain types as copies (bounded by
//! `Limits::max_ref_copy_bytes`). The decoder's [`Limits`](crate::Limits) apply
//! ([`from_slice_with_limits`]).

mod de;
mod ser;

pub use crate::burlap::Input;
pub use de::{from_reader, from_slice, from_slice_with_limits, Deserializer};
pub use ser::{to_vec, to_writer, Compound, Serializer};
