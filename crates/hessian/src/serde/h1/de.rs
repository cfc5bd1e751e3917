//! The Hessian 1.0.2 serde [`Deserializer`]: the deserializer of the three formats
//! (`serde::de`) over [`h1::Decoder`](crate::h1::Decoder)'s tokens, borrowing strings and
//! bytes from a slice where it can. It gives the results of the dynamic path
//! (`from_value(h1::from_slice(data)?)`) for every input that path accepts, with errors at the
//! offset of the offending value.

use super::super::de::{whole_message, Deserializer as TokenDeserializer};
use crate::error::{Limits, Result};
use crate::h1::Decoder;
use crate::read::{IoRead, SliceRead};
use serde::de;

/// Deserializes Rust values from Hessian 1.0.2, read by an [`h1::Decoder`](crate::h1::Decoder)
/// over `R` (a [`SliceRead`] or an [`IoRead`]).
pub type Deserializer<'de, R> = TokenDeserializer<'de, Decoder<'de, R>>;

impl<'de> Deserializer<'de, SliceRead<'de>> {
    /// A deserializer over a byte slice (strings and bytes may be borrowed from it).
    pub fn from_slice(data: &'de [u8]) -> Self {
        TokenDeserializer::new(Decoder::from_slice(data))
    }
}

impl<R: std::io::Read> Deserializer<'static, IoRead<R>> {
    /// A deserializer over any `std::io::Read` (buffered internally).
    pub fn from_reader(r: R) -> Self {
        TokenDeserializer::new(Decoder::from_reader(r))
    }
}

/// Deserializes a `T` from a complete Hessian 1.0.2 value in `data`; trailing bytes are an
/// error.
pub fn from_slice<'de, T: de::Deserialize<'de>>(data: &'de [u8]) -> Result<T> {
    from_slice_with_limits(data, Limits::default())
}

/// Like [`from_slice`] with explicit limits.
pub fn from_slice_with_limits<'de, T: de::Deserialize<'de>>(data: &'de [u8], limits: Limits) -> Result<T> {
    whole_message(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l))
}

/// Deserializes a `T` from one Hessian 1.0.2 value read from `r` (stops after the value).
pub fn from_reader<R: std::io::Read, T: de::DeserializeOwned>(r: R) -> Result<T> {
    let limits = Limits::default();
    let mut d = Deserializer::from_reader(std::io::Read::take(r, limits.max_message_size)).with_limits(limits);
    d.deserialize_value()
}
