//! The format part of the serde serializer ([`serializer::Serializer`]) shared by Hessian
//! 1.0.2 and Burlap 1.0, the two formats that write an object as Java does there, a map typed
//! with its class name and keyed by field name, and have no class definitions. It writes
//! straight through the format's encoder (a [`MapEncoder`]), so its output is byte-identical to
//! the dynamic path (`h1::to_vec(&to_value(v)?)`, `burlap::to_vec(&to_value(v)?)`) and to Java's
//! `HessianOutput` and `BurlapOutput` for the matching Java values.
//!
//! There is no look-ahead: every list carries its length up front, as Java writes collections; a
//! sequence of unknown length gets its length filled in at its end (the output is held in the
//! buffer meanwhile). Lists and maps are numbered in the order they start, which is what the
//! formats' references (`R n`, `<ref>n</ref>`) count. Everything else (scalars, dates, enum
//! variants, sequences and maps, `Value` and `Shared` fields) is the generic serializer's.

use super::serializer::{self, Kind, SerdeEncoder};
use crate::error::{Error, Result};
use crate::token::TokenWrite;
use serde::ser::{self, Serialize};

/// What the serializer of Hessian 1 and Burlap needs beyond an encoder's tokens
/// ([`TokenWrite`]): lists whose length is filled in at their end. Implemented by
/// `h1::Encoder` and `burlap::Encoder` only.
pub trait MapEncoder: TokenWrite + sealed::Sealed {
    /// Where a list's length sits in the output, to fill it in later.
    type ListMark;
    /// Starts an untyped list of `len` elements, or of a length filled in by
    /// [`end_counted_list`](Self::end_counted_list).
    #[doc(hidden)]
    fn begin_list(&mut self, len: Option<usize>) -> Result<Self::ListMark>;
    /// Fills in the length of a list begun without one, and ends it.
    #[doc(hidden)]
    fn end_counted_list(&mut self, mark: Self::ListMark, len: usize) -> Result<()>;
    /// Rewrites the declared length of a list (still in the buffer).
    #[doc(hidden)]
    fn patch_list_len(&mut self, mark: &Self::ListMark, len: usize) -> Result<()>;
}

pub(crate) mod sealed {
    /// Keeps [`MapEncoder`](super::MapEncoder) to this crate's encoders.
    pub trait Sealed {}
}

/// Serializes Rust values as Hessian 1.0.2 or Burlap 1.0 through the format's encoder
/// (`hessian::serde::h1::Serializer`, `hessian::serde::burlap::Serializer`): the generic
/// [`serializer::Serializer`] over a [`MapEncoder`].
///
/// One serializer writes one message (references are numbered per message); call
/// [`finish`](serializer::Serializer::finish) to flush.
pub type MapSerializer<E> = serializer::Serializer<E>;

/// Serializer of lists, tuples, maps, structs and enum variants.
pub type Compound<'a, E> = serializer::Compound<'a, E>;

/// The list state of the format part (public, as [`SerdeEncoder`]'s associated types must be,
/// but not reachable from outside the crate).
mod state {
    /// A list being written: the length it declared (`None`: written at the end), the elements
    /// written so far, and where its length sits in the output.
    pub struct ListState<M> {
        pub(super) declared: Option<usize>,
        pub(super) count: usize,
        pub(super) mark: M,
    }
}
use state::ListState;

impl<E: MapEncoder> SerdeEncoder for E {
    type State = ();
    type List = ListState<E::ListMark>;
    type StructSer<'a>
        = Compound<'a, E>
    where
        E: 'a;
    const REMOTE_IS_REF: bool = false;

    fn new_state() {}
    fn reset(_: &mut MapSerializer<E>) {}
    #[inline]
    fn sync(_: &mut MapSerializer<E>) {}

    fn begin_list(s: &mut MapSerializer<E>, len: Option<usize>) -> Result<Self::List> {
        let mark = s.enc.begin_list(len)?;
        Ok(ListState { declared: len, count: 0, mark })
    }

    #[inline]
    fn element_done(_: &mut MapSerializer<E>, l: &mut Self::List) {
        l.count += 1;
    }

    fn end_list(s: &mut MapSerializer<E>, l: Self::List) -> Result<()> {
        match l.declared {
            None => s.enc.end_counted_list(l.mark, l.count),
            Some(n) => {
                if n != l.count {
                    // A `Serialize` impl that wrote another number of elements than it declared:
                    // the dynamic path writes the elements there are.
                    s.enc.patch_list_len(&l.mark, l.count)?;
                }
                s.enc.write_list_end()
            }
        }
    }

    /// An object, as `HessianOutput` and `BurlapOutput` write one: a map typed with the class
    /// name and keyed by field name.
    fn serialize_struct<'a>(s: &'a mut MapSerializer<E>, name: &'static str, _len: usize) -> Result<Compound<'a, E>> {
        s.begin_map(Some(name))?;
        Ok(Compound { ser: s, kind: Kind::Map, variant: false })
    }

    /// A Java enum, as `HessianOutput` and `BurlapOutput` write one: a map typed with the enum's
    /// class whose one entry is `name` → the variant.
    fn unit_variant(s: &mut MapSerializer<E>, name: &'static str, variant: &'static str) -> Result<()> {
        s.begin_map(Some(name))?;
        s.enc.write_str("name")?;
        s.enc.write_str(variant)?;
        s.enc.write_map_end()
    }

    #[inline]
    fn recover<T: ?Sized + Serialize>(_: &mut MapSerializer<E>, e: Error, _: &T) -> Result<()> {
        Err(e)
    }
}

impl<E: MapEncoder> ser::SerializeStruct for Compound<'_, E> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.field(key, value)
    }
    /// A field skipped by `skip_serializing_if` is written as null, as in Hessian 2 (Java
    /// leaves the field at its default).
    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        self.field(key, &())
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}
