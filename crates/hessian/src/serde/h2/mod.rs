//! Hessian 2.0 for serde types, under the names [`h1`](super::h1) and [`burlap`](super::burlap)
//! use: `hessian::serde::{h2, h1, burlap}::{to_vec, to_writer, from_slice,
//! from_slice_with_limits, from_reader, Serializer, Deserializer}`. (The same functions are at
//! `hessian::serde::*` and `hessian::*`, Hessian 2 being the default format.) The `Value` entry
//! points of each format are `hessian::{h2, h1, burlap}::{to_vec, …}`; a `Value` is also a
//! `Serialize` type among others here and keeps everything (class names, references) through all
//! three serializers.

mod de;

pub use super::ser::{to_vec, to_writer, Serializer};
pub use de::{from_reader, from_slice, from_slice_with_limits, Deserializer};
