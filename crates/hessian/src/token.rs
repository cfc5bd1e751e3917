//! The token layer: one reader interface over the value tokens of the formats that write an
//! object as a typed map keyed by field name (Hessian 1.0.2 and Burlap 1.0), in the spirit of
//! serde_json's `Read` and rmp's `Marker`. A value starts with an opening (a Hessian 1 byte code,
//! a Burlap start tag) that [`TokenRead::open`] reads and [`TokenRead::kind`] classifies once
//! ([`Kind`], each format's table); a leaf is then read whole as a [`Scalar`], a list or map by
//! its header ([`ListHead`], [`MapHead`]) and its entries up to the format's end mark.
//!
//! The serde deserializer of both formats (`hessian::serde::{h1, burlap}::Deserializer`) is one
//! generic type over this trait, as their serializer is one type over the encoders. Hessian 2.0
//! keeps its own deserializer: its objects are class definitions and positional fields, and its
//! compact codes are read by specialised fast paths.

use crate::error::{Error, ErrorKind, Limits, Result};
use crate::kind::Kind;
use crate::read::Reference;
use crate::value::{Remote, Value};

/// A leaf value read whole, strings and bytes borrowed from the input or from the reader's
/// scratch buffer.
#[derive(Debug)]
pub enum Scalar<'de, 'a> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A 32-bit int.
    Int(i32),
    /// A 64-bit long.
    Long(i64),
    /// A double.
    Double(f64),
    /// A date, in milliseconds since the epoch.
    Date(i64),
    /// A string (or XML).
    Str(Reference<'de, 'a, str>),
    /// Binary data.
    Bytes(Reference<'de, 'a, [u8]>),
    /// A back reference to the list or map with this index (already checked to exist).
    Ref(u32),
    /// A remote object reference.
    Remote(Remote),
}

impl Scalar<'_, '_> {
    /// The leaf as a [`Value`] (strings and bytes copied).
    pub fn into_value(self) -> Value {
        match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Int(i) => Value::Int(i),
            Scalar::Long(l) => Value::Long(l),
            Scalar::Double(d) => Value::Double(d),
            Scalar::Date(d) => Value::Date(d),
            Scalar::Str(s) => Value::String((*s).to_owned()),
            Scalar::Bytes(b) => Value::Binary(b.to_vec()),
            Scalar::Ref(r) => Value::Ref(r),
            Scalar::Remote(r) => Value::Remote(Box::new(r)),
        }
    }
}

/// The header of a list, its reference registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListHead {
    /// The length it declares, if any.
    pub len: Option<usize>,
    /// Whether it is complete already: no elements and no end mark follow (Burlap's `<list/>`).
    pub closed: bool,
}

/// The header of a map, its reference registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapHead {
    /// Its type (a Java class for an object), `None` when untyped.
    pub type_name: Option<String>,
    /// Whether it is complete already: no entries and no end mark follow (Burlap's `<map/>`).
    pub closed: bool,
}

pub(crate) mod sealed {
    /// Keeps [`TokenRead`](super::TokenRead) to this crate's decoders.
    pub trait Sealed {}
}

/// Reads the value tokens of one format: implemented by [`h1::Decoder`](crate::h1::Decoder)
/// and [`burlap::Decoder`](crate::burlap::Decoder) (sealed). Every method keeps the decoder's
/// checks and [`Limits`]; the counting methods (`enter`, `check_count`, …) are the decoder's
/// own, so that a generic reader refuses what the decoder refuses.
pub trait TokenRead<'de>: sealed::Sealed {
    /// The opening of a value as the format marks it (a byte code, a start tag).
    type Open: Copy;
    /// Where the reader was, put aside while it re-reads earlier input ([`rewind`](Self::rewind)).
    type Mark;

    /// What kind of value an opening starts ([`Kind::Invalid`] when none).
    fn kind(open: Self::Open) -> Kind;
    /// Reads the opening of the next value and the offset where it starts.
    fn open(&mut self) -> Result<(Self::Open, u64)>;
    /// The kind of the next value without consuming it, and the offset where it starts; `None`
    /// for the end mark of a list or map. The end of the input is an error.
    fn peek(&mut self) -> Result<(Option<Kind>, u64)>;
    /// Consumes the end mark [`peek`](Self::peek) found.
    fn close(&mut self) -> Result<()>;
    /// Reads the rest of a leaf value whose opening was read.
    fn scalar(&mut self, open: Self::Open) -> Result<Scalar<'de, '_>>;
    /// Reads the header of a list whose opening was read and registers its reference.
    fn list_head(&mut self, open: Self::Open) -> Result<ListHead>;
    /// Reads the header of a map whose opening was read and registers its reference.
    fn map_head(&mut self, open: Self::Open) -> Result<MapHead>;
    /// Reads the entries of a map after its header, up to and with its end mark.
    fn map_entries(&mut self) -> Result<Vec<(Value, Value)>>;
    /// Reads one complete value.
    fn read_value(&mut self) -> Result<Value>;
    /// The error for an opening that starts no value.
    fn invalid(&self, open: Self::Open) -> Error;
    /// Offset of the next byte the reader looks at.
    fn offset(&self) -> u64;
    /// The limits in force.
    fn limits(&self) -> &Limits;
    /// Replaces the limits.
    fn set_limits(&mut self, limits: Limits);
    /// An error of `kind` at the current offset.
    fn err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.offset())
    }
    /// Enters a list or map (fails past the depth limit).
    fn enter(&mut self) -> Result<()>;
    /// Leaves a list or map.
    fn leave(&mut self);
    /// Refuses another element after `count`, past the collection limit.
    fn check_count(&self, count: usize) -> Result<()>;
    /// After a list's end: it held as many elements as it declared.
    fn check_list_len(&self, declared: Option<usize>, count: usize) -> Result<()>;
    /// Lists and maps started so far in this message (the next one's reference index).
    fn ref_count(&self) -> usize;
    /// Forgets the references registered after the first `n`.
    fn truncate_refs(&mut self, n: usize);
    /// Whether the reader can go back to earlier input.
    fn rewindable(&self) -> bool;
    /// Reads from offset `at` of the message on, until [`restore`](Self::restore) is given the
    /// returned mark; `None` when it cannot.
    fn rewind(&mut self, at: u64) -> Option<Self::Mark>;
    /// Goes back to where [`rewind`](Self::rewind) left off.
    fn restore(&mut self, mark: Self::Mark);
    /// Fails unless the input is exhausted (only whitespace or comments remain in Burlap).
    fn end(&mut self) -> Result<()>;
    /// Starts a new message: forgets references.
    fn reset(&mut self);
}
