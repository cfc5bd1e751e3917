//! Serde integration: encode and decode any `Serialize`/`Deserialize` type as Hessian 2.0,
//! straight to and from bytes (no intermediate [`Value`](crate::Value)).
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! #[serde(rename = "com.example.Money")] // the Java class this struct maps to
//! struct Money {
//!     cents: i32,
//!     currency: String,
//! }
//!
//! let m = Money { cents: 1250, currency: "EUR".into() };
//! let bytes = hessian::serde::to_vec(&m).unwrap();
//! let back: Money = hessian::serde::from_slice(&bytes).unwrap();
//! assert_eq!(m, back);
//! ```
//!
//! The complete mapping between Rust types and Hessian (and Java) types is in
//! `docs/serde-mapping.md`. In short:
//! - a struct is a Hessian object whose class name is the serde name of the struct: use
//!   `#[serde(rename = "org.example.remoting.Item")]` to name the Java class. Each class
//!   definition is written once per message. Fields are written in declaration order (declare them
//!   in Java's wire order — primitives and `java.lang.*` fields first — to produce Java's exact
//!   bytes); on decode they are matched by name, in any order, unknown fields are skipped and
//!   missing ones are reported as [`ErrorKind::MissingField`](crate::ErrorKind);
//! - dates are [`Date`] (or `SystemTime` through [`date::system_time`]);
//! - [`Value`](crate::Value) can be a field and keeps everything (class names, references);
//! - [`Shared`] keeps the sharing of `Rc`/`Arc` values as Hessian references;
//! - [`external::Externalizable`] is the hand-written codec path (Java's `Externalizable`);
//! - [`h1`] gives the same mapping for Hessian 1.0.2 and [`burlap`] for Burlap 1.0, also
//!   natively (their own [`h1::Serializer`]/[`h1::Deserializer`] and
//!   [`burlap::Serializer`]/[`burlap::Deserializer`], no intermediate `Value`, errors with byte
//!   offsets); [`h2`] names the Hessian 2.0 entry points the same way. The three deserializers
//!   are one, [`de::Deserializer`] over the format's tokens
//!   ([`TokenRead`](crate::token::TokenRead)), and the three serializers are one,
//!   [`serializer::Serializer`] over the format's encoder ([`TokenWrite`](crate::token::TokenWrite)
//!   and what the format adds, [`serializer::SerdeEncoder`]: Hessian 2's class definitions in
//!   [`ser`], Hessian 1's and Burlap's typed maps in [`map_ser`]).

pub mod burlap;
pub(crate) mod copies;
pub mod date;
pub mod de;
pub mod dynamic;
pub mod external;
pub mod h1;
pub mod h2;
pub mod java;
pub mod mangle;
pub mod map_ser;
#[cfg(test)]
mod map_tests;
pub mod message;
pub mod ser;
pub mod serializer;
mod shared;
mod value;

pub use date::Date;
pub use dynamic::{from_value, to_value};
pub use external::Externalizable;
pub use h2::{from_reader, from_slice, from_slice_with_limits, Deserializer};
pub use mangle::mangled_type_name;
pub use ser::{to_vec, to_writer, Serializer};
pub use shared::Shared;

use crate::error::{Error, ErrorKind};
use std::fmt::Display;

/// Newtype-struct name that marks a Hessian date (see [`Date`]).
pub(crate) const DATE_TOKEN: &str = "$hessian::private::Date";
/// Newtype-struct name that marks a [`Value`](crate::Value) (written and read losslessly).
pub(crate) const VALUE_TOKEN: &str = "$hessian::private::Value";
/// Newtype-struct name that marks a shared (`Rc`/`Arc`) value (see [`Shared`]).
pub(crate) const SHARED_TOKEN: &str = "$hessian::private::Shared";

impl ::serde::ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::new(ErrorKind::Message(msg.to_string()), Error::UNKNOWN_OFFSET)
    }
}

/// What serde's `Unexpected` names, in Hessian's words: the null that serde calls a "unit
/// value" is `null`.
#[cold]
fn found(unexp: ::serde::de::Unexpected<'_>) -> String {
    match unexp {
        ::serde::de::Unexpected::Unit => "null".to_owned(),
        other => other.to_string(),
    }
}

impl ::serde::de::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::new(ErrorKind::Message(msg.to_string()), Error::UNKNOWN_OFFSET)
    }

    fn invalid_type(unexp: ::serde::de::Unexpected<'_>, exp: &dyn ::serde::de::Expected) -> Self {
        Error::new(ErrorKind::InvalidType { expected: exp.to_string(), found: found(unexp) }, Error::UNKNOWN_OFFSET)
    }

    fn invalid_value(unexp: ::serde::de::Unexpected<'_>, exp: &dyn ::serde::de::Expected) -> Self {
        Error::new(
            ErrorKind::Message(format!("invalid value: {}, expected {exp}", found(unexp))),
            Error::UNKNOWN_OFFSET,
        )
    }

    fn missing_field(field: &'static str) -> Self {
        Error::new(ErrorKind::MissingField(field), Error::UNKNOWN_OFFSET)
    }

    fn unknown_field(field: &str, _expected: &'static [&'static str]) -> Self {
        Error::new(ErrorKind::UnknownField(field.to_owned()), Error::UNKNOWN_OFFSET)
    }

    fn unknown_variant(variant: &str, _expected: &'static [&'static str]) -> Self {
        Error::new(ErrorKind::UnknownVariant(variant.to_owned()), Error::UNKNOWN_OFFSET)
    }
}
