//! The Burlap 1.0 serde [`Deserializer`]: the deserializer of the three formats (`serde::de`)
//! over [`burlap::Decoder`](crate::burlap::Decoder)'s tokens (elements), with
//! no value tree built for lists, maps or leaves. It gives the results of the dynamic path
//! (`from_value(burlap::from_slice(data)?)`) for every input that path accepts, with errors at
//! the offset of the `<` of the offending element (wire errors where the XML reader stopped).

use super::super::de::{whole_message, Deserializer as TokenDeserializer};
use crate::burlap::Decoder;
use crate::error::{Limits, Result};
use serde::de;
use std::io::BufReader;

/// Deserializes Rust values from Burlap 1.0, read by a [`burlap::Decoder`](crate::burlap::Decoder)
/// over `R` (a byte slice or a `BufReader`, [`Input`](crate::burlap::Input)). Over a slice
/// (`from_slice`, or a decoder made by `Decoder::from_slice`) a reference can be read into a
/// plain Rust type, by reading the referenced value again.
pub type Deserializer<'de, R> = TokenDeserializer<'de, Decoder<R>>;

impl<'de> Deserializer<'de, &'de [u8]> {
    /// A deserializer over a complete message in a byte slice.
    pub fn from_slice(data: &'de [u8]) -> Self {
        TokenDeserializer::new(Decoder::from_slice(data))
    }
}

impl<R: std::io::Read> Deserializer<'static, BufReader<R>> {
    /// A deserializer over any `std::io::Read` (buffered internally).
    pub fn from_reader(r: R) -> Self {
        TokenDeserializer::new(Decoder::from_reader(r))
    }
}

/// Deserializes a `T` from one complete Burlap value in `data`; anything but whitespace or
/// comments after it is an error.
pub fn from_slice<'de, T: de::Deserialize<'de>>(data: &'de [u8]) -> Result<T> {
    from_slice_with_limits(data, Limits::default())
}

/// Like [`from_slice`] with explicit limits.
pub fn from_slice_with_limits<'de, T: de::Deserialize<'de>>(data: &'de [u8], limits: Limits) -> Result<T> {
    whole_message(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l))
}

/// Deserializes a `T` from one Burlap value read from `r` (stops after the value).
pub fn from_reader<R: std::io::Read, T: de::DeserializeOwned>(r: R) -> Result<T> {
    let limits = Limits::default();
    let mut d = Deserializer::from_reader(std::io::Read::take(r, limits.max_message_size)).with_limits(limits);
    d.deserialize_value()
}
