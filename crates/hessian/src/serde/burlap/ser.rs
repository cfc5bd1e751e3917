//! The Burlap 1.0 serde [`Serializer`]: the generic serde serializer (`serde::serializer`) with the format part shared with Hessian 1 (`serde::map_ser`)
//! over [`burlap::Encoder`], so what it writes is byte-identical to the dynamic path
//! (`burlap::to_vec(&to_value(v)?)`) and to Java's `BurlapOutput` for the matching Java values.
//!
//! Burlap has no class definitions: a struct is written as Java writes an object, a typed map
//! `<map><type>class</type>(<string>field</string> value)*</map>`, with no look-ahead. Every
//! list carries its length up front (`<list><type></type><length>n</length>…</list>`, as Java
//! writes collections); a sequence of unknown length gets its length inserted at its end (the
//! output is held in the buffer meanwhile). Lists and maps are numbered in the order they start,
//! which is what `<ref>n</ref>` references count.
//!
//! [`burlap::Encoder`]: crate::burlap::Encoder

use super::super::map_ser::{self, sealed, MapEncoder, MapSerializer};
use crate::burlap::Encoder;
use crate::error::Result;
use serde::ser::Serialize;
use std::io::Write;

/// Serializes Rust values as Burlap 1.0 into a `std::io::Write`.
///
/// One `Serializer` writes one message (`<ref>` references are numbered per message); call
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
    /// The output position of the list's length digits, and how many there are.
    type ListMark = (u64, usize);
    fn begin_list(&mut self, len: Option<usize>) -> Result<(u64, usize)> {
        self.begin_counted_list(len)
    }
    fn end_counted_list(&mut self, mark: (u64, usize), len: usize) -> Result<()> {
        Self::end_counted_list(self, mark.0, len)
    }
    fn patch_list_len(&mut self, mark: &(u64, usize), len: usize) -> Result<()> {
        Self::patch_list_len(self, mark.0, mark.1, len)
    }
}

/// Serializes `value` as one Burlap 1.0 value into a new byte vector.
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    let mut s = Serializer::new(Vec::new());
    s.serialize_value(value)?;
    s.finish()
}

/// Serializes `value` as one Burlap 1.0 value into `writer` (flushed at the end).
pub fn to_writer<W: Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    let mut s = Serializer::new(writer);
    s.serialize_value(value)?;
    s.flush()
}
