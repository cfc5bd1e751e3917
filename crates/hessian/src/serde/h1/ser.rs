//! The Hessian 1.0.2 serde [`Serializer`]: the generic serde serializer (`serde::serializer`) with the format part shared with Burlap
//! (`serde::map_ser`) over [`h1::Encoder`](crate::h1::Encoder), so what it writes is
//! byte-identical to the dynamic path (`h1::to_vec(&to_value(v)?)`) and to Java's `HessianOutput`
//! for the matching Java values.
//!
//! Hessian 1 has no class definitions: a struct is written as Java writes an object, a typed map
//! `M t <class> (S field value)* z`, with no look-ahead. Every list carries its length up front
//! (`V l n … z`, as Java writes collections); a sequence of unknown length is written with a
//! placeholder length that is filled in at its end (the output is held in the buffer meanwhile).
//! Lists and maps are numbered in the order they start, which is what `R n` references count.

use super::super::map_ser::{self, sealed, MapEncoder, MapSerializer};
use crate::error::Result;
use crate::h1::Encoder;
use serde::ser::Serialize;
use std::io::Write;

/// Serializes Rust values as Hessian 1.0.2 into a `std::io::Write`.
///
/// One `Serializer` writes one message (`R` references are numbered per message); call
/// `finish` to flush.
pub type Serializer<W> = MapSerializer<Encoder<W>>;

/// Serializer of lists, tuples, maps, structs and enum variants.
pub type Compound<'a, W> = map_ser::Compound<'a, Encoder<W>>;

impl<W: Write> Serializer<W> {
    /// A serializer writing to `out` (buffered: call `finish` at the end).
    pub fn new(out: W) -> Self {
        Self::from_encoder(Encoder::new(out))
    }
}

impl<W: Write> sealed::Sealed for Encoder<W> {}

impl<W: Write> MapEncoder for Encoder<W> {
    /// The output position of the list's 4-byte length.
    type ListMark = u64;
    fn begin_list(&mut self, len: Option<usize>) -> Result<u64> {
        match len {
            Some(n) => {
                self.write_list_begin(Some(n), None)?;
                Ok(self.position() - 4)
            }
            None => self.begin_counted_list(),
        }
    }
    fn end_counted_list(&mut self, mark: u64, len: usize) -> Result<()> {
        Self::end_counted_list(self, mark, len)
    }
    fn patch_list_len(&mut self, mark: &u64, len: usize) -> Result<()> {
        Self::patch_list_len(self, *mark, len)
    }
}

/// Serializes `value` as one Hessian 1.0.2 value into a new byte vector.
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    let mut s = Serializer::new(Vec::new());
    s.serialize_value(value)?;
    s.finish()
}

/// Serializes `value` as one Hessian 1.0.2 value into `writer` (flushed at the end).
pub fn to_writer<W: Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    let mut s = Serializer::new(writer);
    s.serialize_value(value)?;
    s.flush()
}
