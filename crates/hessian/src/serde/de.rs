//! The serde deserializer of the three formats: one [`Deserializer`] over the format's
//! [`TokenRead`] decoder (`hessian::serde::{h2, h1, burlap}::Deserializer` are this type over
//! [`h2::Decoder`](crate::h2::Decoder), [`h1::Decoder`](crate::h1::Decoder) and
//! [`burlap::Decoder`](crate::burlap::Decoder)), in the spirit of serde_json's
//! `Deserializer<R: Read>`.
//!
//! It reads straight from the input through the decoder's parsers (same checks, same
//! [`Limits`]), borrowing strings and bytes from a slice where the format allows, and gives the
//! results of the dynamic path (`from_value(h2::from_slice(data)?)` and the like) for every input
//! that path accepts, without building the value tree. Its errors carry the offset of the
//! offending value: wire errors the offset of the bad byte, type errors (`InvalidType`,
//! `OutOfRange`) the offset where the value starts (its code, the `<` of its element), errors
//! raised by a visitor (`MissingField`, `UnknownVariant`, custom messages) the start of the
//! value, field or struct that raised them.
//!
//! A Java object is a Hessian 2 object (a class definition and its fields in the definition's
//! order) or, in Hessian 1 and Burlap, a map typed with its class name: it decodes into a struct
//! by field name, in any order, unknown fields skipped. When a Hessian 2 class definition lists
//! exactly the fields the Rust type declares, in the same order (Rust-to-Rust messages, structs
//! declared in Java's wire order), the values are handed to the derived visitor as a sequence
//! instead of a keyed map: decided once per class definition and type, then no field-name work
//! at all. Lists, maps and objects are read to their end, so whatever a visitor leaves unread (a
//! tuple shorter than its list, entries after a visitor stopped) is skipped, and checked, as the
//! dynamic path ignores it. The one place where values are still built is an enum written as a
//! typed map (a Java enum in Hessian 1 and Burlap): its entries are read as a [`Value`] map and
//! mapped like the dynamic path does, as the variant may be any entry.
//!
//! Fast paths: in Hessian 2, ints, longs, the common double forms, dates and owned short ASCII
//! strings are first tried straight from the buffered input ([`TokenRead::buffered_int`] and the
//! like): when the whole value lies there in a common form it is decoded without error paths,
//! small enough to inline into a derived visitor; anything else (class definitions in front of
//! the value, other forms, the end of the input, errors) takes the general path, out of line,
//! with the same results and errors. The error paths of fields are marked cold so that LLVM keeps
//! the field reads inline.

use super::copies::RefCopies;
use super::dynamic::ValueDe;
use super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::kind::Kind;
use crate::read::Reference;
use crate::token::{Scalar, TokenRead};
use crate::value::{Map, Value};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::any::Any;
use std::collections::HashMap;
use std::rc::Rc;

/// Deserializes Rust values from Hessian 2.0, Hessian 1.0.2 or Burlap 1.0 through the format's
/// decoder `D`.
pub struct Deserializer<'de, D: TokenRead<'de>> {
    dec: D,
    /// Per Hessian 2 class-definition index: the address of the `FIELDS` slice of the Rust type
    /// last matched against it, and whether it matched exactly (index keys) or not (name keys);
    /// the first [`FAST_INLINE`] in place, the others in `fast_more`.
    fast: [(usize, bool); FAST_INLINE],
    fast_more: Vec<(usize, bool)>,
    /// Values decoded through [`Shared`](crate::serde::Shared), by reference index (made when
    /// the first one is decoded; boxed to keep the deserializer small).
    #[allow(clippy::box_collection)]
    shared: Option<Box<HashMap<usize, Rc<dyn Any>>>>,
    /// Where each list, map and object starts, for references into plain types (slices only).
    copies: RefCopies,
    _de: std::marker::PhantomData<&'de ()>,
}

/// How many class definitions of a message [`Deserializer`] keeps its field-match result for in
/// place (without allocating).
const FAST_INLINE: usize = 8;

#[cold]
fn invalid(expected: &str, found: &str, at: u64) -> Error {
    Error::new(ErrorKind::InvalidType { expected: expected.to_owned(), found: found.to_owned() }, at)
}

#[cold]
fn not_one_entry(start: u64) -> Error {
    invalid("a one-entry enum map", "map", start)
}

/// Marks the path that calls it as unlikely. Without it LLVM weighs each error check of a
/// derived visitor 50/50, finds the later fields of a struct "cold" and keeps their decoding out
/// of line (a call, a result through memory) instead of inlining it.
#[cold]
#[inline(never)]
fn cold_path() {}

/// Gives an error raised without a position the offset `start` (on the cold error path).
#[cold]
#[inline(never)]
fn located(e: Error, start: u64) -> Error {
    e.at_offset(start)
}

/// An error raised while reading the struct `name` (if any) whose value starts at `at`: located
/// there if it has no offset yet, with the struct named in its path.
#[cold]
#[inline(never)]
fn struct_error(mut e: Error, at: u64, name: Option<&'static str>) -> Error {
    if let Some(name) = name {
        e.locate(at);
        e.in_struct(name);
    }
    e
}

/// The end of an object after its visitor gave `$r` with `$left` of its fields unread (those
/// are skipped): the result as it came, or the first error, located and naming the struct.
/// Written out where it is used (not a function taking the result, nor through a tuple), so
/// that the value does not pass through a temporary.
macro_rules! end_object {
    ($de:ident, $r:ident, $left:ident, $at:ident, $name:ident) => {{
        if let Err(e) = $r {
            return Err(struct_error(e, $at, $name));
        }
        if $left != 0 {
            if let Err(e) = $de.skip_values($left) {
                drop($r);
                return Err(struct_error(e, $at, $name));
            }
        }
        $de.dec.leave();
        $r
    }};
}

/// Deserializes one complete `T` from a whole message of `len` bytes under `limits`: refuses
/// it past the message size, then makes its decoder (`dec`, given the limits) and fails unless
/// the input is exhausted after the value; each format's `from_slice_with_limits`, as
/// [`token::read_whole`](crate::token) is for the `Value` readers (in line, so that the decoder
/// is built in place).
#[inline(always)]
pub(crate) fn whole_message<'de, D: TokenRead<'de>, T: de::Deserialize<'de>>(
    len: usize,
    limits: Limits,
    dec: impl FnOnce(Limits) -> D,
) -> Result<T> {
    limits.check_message_size(len)?;
    let mut d = Deserializer::new(dec(limits));
    let v = d.deserialize_value()?;
    d.end()?;
    Ok(v)
}

impl<'de, D: TokenRead<'de>> Deserializer<'de, D> {
    /// A deserializer on top of an existing decoder (e.g. with seeded tables, or positioned
    /// inside an RPC envelope).
    pub fn new(dec: D) -> Self {
        Deserializer {
            dec,
            fast: [(0, false); FAST_INLINE],
            fast_more: Vec::new(),
            shared: None,
            copies: RefCopies::default(),
            _de: std::marker::PhantomData,
        }
    }

    /// Replaces the decoder's limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.dec.set_limits(limits);
        self
    }

    /// The underlying decoder (to read envelope codes around values).
    pub fn decoder(&mut self) -> &mut D {
        &mut self.dec
    }

    /// The underlying decoder, read-only.
    pub(crate) fn decoder_ref(&self) -> &D {
        &self.dec
    }

    /// Returns the underlying decoder.
    pub fn into_decoder(self) -> D {
        self.dec
    }

    /// Deserializes one value of type `V` (more may follow, e.g. call arguments).
    pub fn deserialize_value<V: de::Deserialize<'de>>(&mut self) -> Result<V> {
        let start = self.dec.offset();
        let mut r = V::deserialize(&mut *self);
        if let Err(e) = &mut r {
            e.locate(start);
        }
        r
    }

    /// Fails unless the input is exhausted (in Burlap: unless only whitespace or comments
    /// remain).
    pub fn end(&mut self) -> Result<()> {
        self.dec.end()
    }

    /// Starts a new message: forgets references (and Hessian 2's per-message definitions).
    pub fn reset(&mut self) {
        self.dec.reset();
        self.fast = [(0, false); FAST_INLINE];
        self.fast_more.clear();
        self.shared = None;
        self.copies.clear();
    }

    /// Records that the list, map or object starting at offset `at` got the latest reference
    /// index.
    #[inline(always)]
    fn note_start(&mut self, at: u64) {
        if self.dec.rewindable() {
            self.copies.note(self.dec.ref_count(), at);
        }
    }

    /// Reads reference `r` (at offset `at`, already parsed) into a plain Rust type: re-reads the
    /// referenced list, map or object from where it starts, with `f`, then continues after the
    /// reference. Everything the second reading registers (references, class definitions, type
    /// names, shared values) is forgotten again, so later indexes are those of the sender.
    /// Cycles end at the depth limit; the bytes re-read are bounded by `max_ref_copy_bytes`.
    #[cold]
    #[inline(never)]
    fn replay<V>(&mut self, at: u64, r: usize, expected: &str, f: impl FnOnce(&mut Self) -> Result<V>) -> Result<V> {
        let limit = self.dec.limits().max_ref_copy_bytes;
        let start = self.copies.start(r, at, expected, self.dec.rewindable(), limit)?;
        let Some(mark) = self.dec.rewind(start) else {
            return Err(self.dec.err(ErrorKind::UnexpectedEof));
        };
        let (refs, defs) = (self.dec.ref_count(), self.dec.definitions());
        let v = match self.dec.enter() {
            Ok(()) => {
                let v = f(self);
                self.dec.leave();
                v
            }
            Err(e) => Err(e),
        };
        let bytes = self.dec.offset().saturating_sub(start);
        self.dec.truncate_refs(refs);
        self.dec.truncate_definitions(defs);
        if let Some(shared) = &mut self.shared {
            shared.retain(|&k, _| k < refs);
        }
        self.dec.restore(mark);
        let copied = self.copies.copied(refs, bytes, at, limit);
        let v = v?;
        copied.map(|()| v)
    }

    /// The error for a value of the wrong type opened at `at` (for a reference, an
    /// out-of-range index is reported first, as the dynamic path does).
    #[cold]
    fn wrong(&mut self, open: D::Open, at: u64, expected: &str) -> Error {
        match D::kind(open) {
            Kind::Invalid | Kind::ClassDef => self.dec.invalid(open),
            Kind::Ref => match self.dec.scalar(open) {
                Ok(_) => invalid(expected, Kind::Ref.name(), at),
                Err(e) => e,
            },
            k => invalid(expected, k.name(), at),
        }
    }

    /// Reads an int or a long (ints first: the small integer types), with the offset where it
    /// starts.
    #[inline(always)]
    fn integer(&mut self, expected: &str) -> Result<(i64, u64)> {
        let at = self.dec.offset();
        match self.dec.buffered_int() {
            Some(v) => Ok((v.into(), at)),
            None if D::BUFFERED => self.integer_cold(expected),
            None => self.integer_general(expected),
        }
    }

    /// Reads a long or an int (longs first: `i64` and the like), with the offset where it
    /// starts.
    #[inline(always)]
    fn long(&mut self, expected: &str) -> Result<(i64, u64)> {
        let at = self.dec.offset();
        match self.dec.buffered_long() {
            Some(v) => Ok((v, at)),
            None if D::BUFFERED => self.integer_cold(expected),
            None => self.integer_general(expected),
        }
    }

    /// [`integer_general`](Self::integer_general) out of line, behind a fast path.
    #[inline(never)]
    fn integer_cold(&mut self, expected: &str) -> Result<(i64, u64)> {
        self.integer_general(expected)
    }

    /// [`integer`](Self::integer) and [`long`](Self::long) in general.
    #[inline]
    fn integer_general(&mut self, expected: &str) -> Result<(i64, u64)> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::Int | Kind::Long => Ok((self.dec.integer(open)?, at)),
            _ => Err(self.wrong(open, at, expected)),
        }
    }

    /// Reads a double, int or long as `f64`.
    #[inline(always)]
    fn float(&mut self) -> Result<f64> {
        match self.dec.buffered_double() {
            Some(v) => Ok(v),
            None if D::BUFFERED => self.float_cold(),
            None => self.float_general(),
        }
    }

    /// [`float_general`](Self::float_general) out of line, behind a fast path.
    #[inline(never)]
    fn float_cold(&mut self) -> Result<f64> {
        self.float_general()
    }

    /// [`float`](Self::float) in general.
    #[inline]
    fn float_general(&mut self) -> Result<f64> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::Double | Kind::Int | Kind::Long => self.dec.double(open),
            _ => Err(self.wrong(open, at, "a number")),
        }
    }

    /// Reads a date, long or int as milliseconds.
    #[inline(always)]
    fn date(&mut self) -> Result<i64> {
        match self.dec.buffered_date() {
            Some(v) => Ok(v),
            None if D::BUFFERED => self.date_cold(),
            None => self.date_general(),
        }
    }

    /// [`date_general`](Self::date_general) out of line, behind a fast path.
    #[inline(never)]
    fn date_cold(&mut self) -> Result<i64> {
        self.date_general()
    }

    /// [`date`](Self::date) in general.
    #[inline]
    fn date_general(&mut self) -> Result<i64> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::Date | Kind::Long | Kind::Int => self.dec.integer(open),
            _ => Err(self.wrong(open, at, "a date")),
        }
    }

    /// [`deserialize_string`](de::Deserializer::deserialize_string) out of line, behind a fast
    /// path.
    #[inline(never)]
    fn string_cold<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(self, visitor)
    }

    /// Skips one value opened at `at`, with the checks of the decoder.
    fn skip(&mut self, open: D::Open, at: u64) -> Result<()> {
        match D::kind(open) {
            Kind::List => {
                self.dec.enter()?;
                let head = self.dec.list_head(open)?;
                self.note_start(at);
                if head.counted {
                    self.skip_values(head.len.unwrap_or(0))?;
                } else if !head.closed {
                    self.skip_list_rest(head.len, 0)?;
                }
                self.dec.leave();
                Ok(())
            }
            Kind::Map => {
                self.dec.enter()?;
                let head = self.dec.map_head(open)?;
                self.note_start(at);
                if !head.closed {
                    self.skip_map_rest(0)?;
                }
                self.dec.leave();
                Ok(())
            }
            Kind::Object => {
                self.dec.enter()?;
                let class = self.dec.object_head(open)?;
                self.note_start(at);
                self.skip_values(self.dec.class_fields(class).len())?;
                self.dec.leave();
                Ok(())
            }
            Kind::Invalid | Kind::ClassDef => Err(self.dec.invalid(open)),
            _ => self.dec.scalar(open).map(drop),
        }
    }

    /// Reads and skips one value.
    fn skip_next(&mut self) -> Result<()> {
        let (open, at) = self.dec.open()?;
        self.skip(open, at)
    }

    /// Reads and skips `n` values.
    fn skip_values(&mut self, n: usize) -> Result<()> {
        for _ in 0..n {
            self.skip_next()?;
        }
        Ok(())
    }

    /// Skips the elements of a list that ends with an end mark after the first `count`, its
    /// end, and checks its length.
    fn skip_list_rest(&mut self, declared: Option<usize>, mut count: usize) -> Result<()> {
        let mut done = false;
        while self.next_entry(&mut done, &mut count)?.is_some() {
            self.skip_next()?;
        }
        self.dec.check_list_len(declared, count)
    }

    /// Skips the entries of a map after the first `count`, and its end.
    fn skip_map_rest(&mut self, mut count: usize) -> Result<()> {
        let mut done = false;
        while self.next_entry(&mut done, &mut count)?.is_some() {
            self.skip_next()?;
            self.skip_next()?;
        }
        Ok(())
    }

    /// Where the next entry of a list or map ended by an end mark, whose `count` entries were
    /// read so far, starts; `None` after its end mark, which it consumes, or once `done`.
    /// Counts the entry against the limits.
    #[inline(always)]
    fn next_entry(&mut self, done: &mut bool, count: &mut usize) -> Result<Option<(Kind, u64)>> {
        if *done {
            return Ok(None);
        }
        match self.dec.peek()? {
            (None, _) => {
                self.dec.close()?;
                *done = true;
                Ok(None)
            }
            (Some(kind), at) => {
                self.dec.check_count(*count)?;
                *count += 1;
                Ok(Some((kind, at)))
            }
        }
    }

    /// A list opened at `at`, as a serde sequence.
    fn visit_list<V: Visitor<'de>>(&mut self, open: D::Open, at: u64, visitor: V) -> Result<V::Value> {
        self.dec.enter()?;
        let head = self.dec.list_head(open)?;
        self.note_start(at);
        if self.dec.rewindable() {
            // Each element may be a list, map or object with a reference index of its own:
            // grow once for lists of up to 64 Ki elements (beyond that, by doubling as usual).
            self.copies.reserve(head.len.unwrap_or(0));
        }
        let mut acc = ListAccess { de: self, declared: head.len, count: 0, done: head.closed, counted: head.counted };
        let v = visitor.visit_seq(&mut acc)?;
        let (count, done) = (acc.count, acc.done);
        if head.counted {
            self.skip_values(head.len.unwrap_or(0) - count)?;
        } else if done {
            self.dec.check_list_len(head.len, count)?;
        } else {
            self.skip_list_rest(head.len, count)?;
        }
        self.dec.leave();
        Ok(v)
    }

    /// A map opened at `at`, as a serde map; for a struct with the field names `fields`, a
    /// field name the map repeats is a Java field a subclass hides (Caucho writes the
    /// subclass's first): the first is kept and the repeats skipped, as Java's reader does.
    fn visit_map<V: Visitor<'de>>(
        &mut self,
        open: D::Open,
        at: u64,
        visitor: V,
        fields: Option<&'static [&'static str]>,
    ) -> Result<V::Value> {
        self.dec.enter()?;
        let head = self.dec.map_head(open)?;
        self.note_start(at);
        let seen = fields.map(|f| (f, 0));
        let mut acc = MapAccess { de: self, count: 0, done: head.closed, pending_value: false, seen, field: None };
        let v = visitor.visit_map(&mut acc)?;
        let (count, done, pending_value) = (acc.count, acc.done, acc.pending_value);
        if pending_value {
            self.skip_next()?;
        }
        if !done {
            self.skip_map_rest(count)?;
        }
        self.dec.leave();
        Ok(v)
    }

    /// Whether class definition `class` lists exactly `fields`, in order (cached).
    #[inline]
    fn is_fast(&mut self, class: usize, fields: &'static [&'static str]) -> bool {
        let key = fields.as_ptr() as usize;
        let known = match self.fast.get(class) {
            Some(k) => Some(k),
            None => self.fast_more.get(class - FAST_INLINE),
        };
        if let Some(&(k, fast)) = known {
            if k == key {
                return fast;
            }
        }
        self.is_fast_slow(class, fields)
    }

    #[inline(never)]
    fn is_fast_slow(&mut self, class: usize, fields: &'static [&'static str]) -> bool {
        let key = fields.as_ptr() as usize;
        let fast = self.dec.class_lists_exactly(class, fields);
        if let Some(slot) = self.fast.get_mut(class) {
            *slot = (key, fast);
        } else {
            let i = class - FAST_INLINE;
            if self.fast_more.len() <= i {
                self.fast_more.resize(i + 1, (0, false));
            }
            self.fast_more[i] = (key, fast);
        }
        fast
    }

    /// A Hessian 2 object opened at `at`: as a sequence of its fields when its class definition
    /// lists exactly the struct's `fields`, else as a map keyed by field name. For a struct
    /// (`strukt` is its name and fields), every error is located at `at` and names the struct.
    ///
    /// The visitor's result is returned as it comes (no `?`, no `Ok(v)` rebuilt after the work
    /// that follows it, no borrow of it to fix an error in place): so the value a derived
    /// visitor assembles is written once, in the caller's result, instead of being copied
    /// through one or two temporaries (twice 136 bytes per W1 item, each a `memcpy` right
    /// after the fields were stored, whose wide loads the store buffer cannot forward).
    // `matches!(r, Err(_))` reads the discriminant; `r.is_err()` would borrow `r`, and a
    // borrowed local is not built in the result.
    #[allow(clippy::redundant_pattern_matching)]
    fn visit_object<V: Visitor<'de>>(
        &mut self,
        open: D::Open,
        at: u64,
        strukt: Option<(&'static str, &'static [&'static str])>,
        visitor: V,
    ) -> Result<V::Value> {
        let name = strukt.map(|(name, _)| name);
        if let Err(e) = self.dec.enter() {
            return Err(struct_error(e, at, name));
        }
        let class = match self.dec.object_head(open) {
            Ok(class) => class,
            Err(e) => return Err(struct_error(e, at, name)),
        };
        self.note_start(at);
        let fast = strukt.map(|(_, fields)| fields).filter(|f| self.is_fast(class, f));
        let Some(fields) = fast else {
            return self.object_by_name(class, at, name, visitor);
        };
        // The class definition lists exactly the Rust type's fields, in order: hand the values
        // over as a sequence, without keys. Reading the last field leaves the object.
        let mut left = fields.len();
        let r = visitor.visit_seq(ObjectSeq { de: self, left: &mut left, fields });
        // From here on no call while `r` is held (one that may unwind would have to drop it):
        // rustc then builds the value in this function's result, not in a temporary copied
        // there. Each other path moves `r` out first.
        if matches!(r, Err(_)) {
            let held = r;
            return match held {
                Err(e) => Err(struct_error(e, at, name)),
                ok => ok,
            };
        }
        if left != 0 || fields.is_empty() {
            // The visitor stopped before the last field, or there is none: the object is
            // still open.
            let held = r;
            return end_object!(self, held, left, at, name);
        }
        r
    }

    /// [`visit_object`](Self::visit_object) of an object whose class does not list exactly
    /// the Rust type's fields (or of any object read as a map): its fields as a map keyed by
    /// field name. Out of line, so that the sequence path has its result to itself.
    #[inline(never)]
    fn object_by_name<V: Visitor<'de>>(
        &mut self,
        class: usize,
        at: u64,
        name: Option<&'static str>,
        visitor: V,
    ) -> Result<V::Value> {
        let n = self.dec.class_fields(class).len();
        let mut acc = ObjectAccess { de: self, class, keys: 0, values: 0, n };
        let r = visitor.visit_map(&mut acc);
        let left = n - acc.values;
        end_object!(self, r, left, at, name)
    }

    /// [`deserialize_struct`](de::Deserializer::deserialize_struct) of anything but a Hessian 2
    /// object: a map by field names, a list of the fields in order, or a reference to an earlier
    /// object (copied). Its errors are located at `at` and name the struct.
    #[inline(never)]
    fn visit_struct_other<V: Visitor<'de>>(
        &mut self,
        open: D::Open,
        at: u64,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let mut r = match D::kind(open) {
            Kind::Map => self.visit_map(open, at, visitor, Some(fields)),
            Kind::List => self.visit_list(open, at, visitor),
            Kind::Ref => match self.dec.scalar(open) {
                Ok(Scalar::Ref(r)) => self.replay(at, r as usize, "an object", |de| {
                    de::Deserializer::deserialize_struct(de, name, fields, visitor)
                }),
                Ok(_) => Err(self.wrong(open, at, "an object")),
                Err(e) => Err(e),
            },
            _ => Err(self.wrong(open, at, "an object")),
        };
        if let Err(e) = &mut r {
            e.locate(at);
            e.in_struct(name);
        }
        r
    }

    /// An enum written as a map opened at `start`.
    fn visit_enum_map<V: Visitor<'de>>(
        &mut self,
        open: D::Open,
        start: u64,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.dec.enter()?;
        let head = self.dec.map_head(open)?;
        self.note_start(start);
        if head.closed {
            // `<map/>`: no entry
            return Err(not_one_entry(start));
        }
        if head.type_name.is_some() {
            // A typed map: a Java enum `{name: VARIANT}`, whose `name` entry may come anywhere,
            // or else a one-entry map. Mapped from its entries as the dynamic path does.
            let entries = self.dec.map_entries()?;
            self.dec.leave();
            let map = Value::Map(Box::new(Map { type_name: head.type_name, entries }));
            return de::Deserializer::deserialize_enum(ValueDe(map), name, variants, visitor)
                .map_err(|e| e.at_offset(start));
        }
        // An untyped map `{variant: content}` with exactly one entry, keyed by a string.
        if self.dec.peek()?.0 != Some(Kind::String) {
            return Err(not_one_entry(start));
        }
        let v = visitor.visit_enum(EnumAccess { de: self })?;
        if self.dec.peek()?.0.is_some() {
            return Err(not_one_entry(start));
        }
        self.dec.close()?;
        self.dec.leave();
        Ok(v)
    }

    /// The `name` of a Java enum written as a Hessian 2 object (`{name: "VARIANT"}`) opened at
    /// `at`.
    fn enum_object_name(&mut self, open: D::Open, at: u64) -> Result<String> {
        self.dec.enter()?;
        let class = self.dec.object_head(open)?;
        self.note_start(at);
        let n = self.dec.class_fields(class).len();
        let mut name = None;
        for i in 0..n {
            let is_name = self.dec.class_fields(class).get(i).is_some_and(|f| f == "name");
            let (open, at) = self.dec.open()?;
            if is_name && D::kind(open) == Kind::String {
                name = Some(self.dec.string(open)?.to_owned());
            } else {
                self.skip(open, at)?;
            }
        }
        self.dec.leave();
        name.ok_or_else(|| self.dec.err(ErrorKind::MissingField("name")))
    }

    /// A leaf opened at `at` for `deserialize_any`; out of line, so that the recursive list and
    /// map path keeps small stack frames.
    #[inline(never)]
    fn leaf_any<V: Visitor<'de>>(&mut self, open: D::Open, at: u64, visitor: V) -> Result<V::Value> {
        match self.dec.scalar(open)? {
            Scalar::Null => visitor.visit_unit(),
            Scalar::Bool(b) => visitor.visit_bool(b),
            Scalar::Int(i) => visitor.visit_i32(i),
            Scalar::Long(l) | Scalar::Date(l) => visitor.visit_i64(l),
            Scalar::Double(d) => visitor.visit_f64(d),
            Scalar::Str(Reference::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Scalar::Str(Reference::Copied(s)) => visitor.visit_str(s),
            Scalar::Bytes(Reference::Borrowed(b)) => visitor.visit_borrowed_bytes(b),
            Scalar::Bytes(Reference::Copied(b)) => visitor.visit_bytes(b),
            Scalar::Remote(r) => {
                // As the dynamic path maps it: `{type, url}`.
                let r = *r;
                let entries = [("type", r.type_name), ("url", r.url)];
                visitor.visit_map(de::value::MapDeserializer::<_, Error>::new(entries.into_iter()))
            }
            Scalar::Ref(r) => {
                self.replay(at, r as usize, "a value", |de| de::Deserializer::deserialize_any(de, visitor))
            }
        }
    }
}

macro_rules! int_method {
    ($method:ident, $visit:ident, $t:ty, $read:ident) => {
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let (v, start) = self.$read(stringify!($t))?;
            match <$t>::try_from(v) {
                Ok(x) => visitor.$visit(x),
                Err(_) => Err(Error::new(ErrorKind::OutOfRange { value: v, target: stringify!($t) }, start)),
            }
        }
    };
}

impl<'de, D: TokenRead<'de>> de::Deserializer<'de> for &mut Deserializer<'de, D> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::List => self.visit_list(open, at, visitor),
            Kind::Map => self.visit_map(open, at, visitor, None),
            Kind::Object => self.visit_object(open, at, None, visitor),
            Kind::Invalid | Kind::ClassDef => Err(self.dec.invalid(open)),
            // strings, the common leaf (field values, map keys), in line
            Kind::String => match self.dec.string(open)? {
                Reference::Borrowed(s) => visitor.visit_borrowed_str(s),
                Reference::Copied(s) => visitor.visit_str(s),
            },
            _ => self.leaf_any(open, at, visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::Bool => match self.dec.scalar(open)? {
                Scalar::Bool(b) => visitor.visit_bool(b),
                _ => Err(self.wrong(open, at, "a boolean")),
            },
            _ => Err(self.wrong(open, at, "a boolean")),
        }
    }

    int_method!(deserialize_i8, visit_i8, i8, integer);
    int_method!(deserialize_i16, visit_i16, i16, integer);
    int_method!(deserialize_i32, visit_i32, i32, integer);
    int_method!(deserialize_u8, visit_u8, u8, integer);
    int_method!(deserialize_u16, visit_u16, u16, integer);
    int_method!(deserialize_u32, visit_u32, u32, long);
    int_method!(deserialize_u64, visit_u64, u64, long);
    int_method!(deserialize_u128, visit_u128, u128, long);

    #[inline]
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i64(self.long("i64")?.0)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i128(self.long("i128")?.0.into())
    }

    #[inline]
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f32(self.float()? as f32)
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(self.float()?)
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // The type wants ownership: hand it a `String` built with one allocation and one copy.
        match self.dec.buffered_ascii_string() {
            Some(s) => visitor.visit_string(s),
            None if D::BUFFERED => self.string_cold(visitor),
            None => self.deserialize_any(visitor),
        }
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.dec.peek()?.0 == Some(Kind::Null) {
            let (open, _) = self.dec.open()?;
            self.dec.scalar(open)?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::Null => {
                self.dec.scalar(open)?;
                visitor.visit_unit()
            }
            _ => Err(self.wrong(open, at, "null")),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if std::ptr::eq(name, DATE_TOKEN) || name == DATE_TOKEN {
            let millis = self.date()?;
            return visitor.visit_i64(millis);
        }
        if name == VALUE_TOKEN {
            let v = self.dec.read_value()?;
            return value::with_pending(v, || visitor.visit_unit());
        }
        if name == SHARED_TOKEN {
            if self.dec.peek()?.0 == Some(Kind::Ref) {
                let (open, at) = self.dec.open()?;
                let Scalar::Ref(r) = self.dec.scalar(open)? else {
                    return Err(invalid("a reference", "value", at));
                };
                let r = r as usize;
                return match self.shared.as_ref().and_then(|s| s.get(&r)) {
                    Some(v) => {
                        shared::with_lookup(v.clone(), || visitor.visit_unit()).map_err(|e: Error| e.at_offset(at))
                    }
                    // First read into a plain type: read it again, as a new shared value.
                    None => self.replay(at, r, "a shared value", |de| {
                        de::Deserializer::deserialize_newtype_struct(de, SHARED_TOKEN, visitor)
                    }),
                };
            }
            let index = self.dec.ref_count();
            shared::clear_registered();
            let v = visitor.visit_newtype_struct(&mut *self)?;
            if let Some(rc) = shared::take_registered() {
                if self.dec.ref_count() > index {
                    self.shared.get_or_insert_with(Default::default).insert(index, rc);
                }
            }
            return Ok(v);
        }
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::List => self.visit_list(open, at, visitor),
            Kind::Binary | Kind::Ref => {
                match self.dec.scalar(open)? {
                    Scalar::Bytes(Reference::Borrowed(b)) => visitor
                        .visit_seq(de::value::SeqDeserializer::<_, Error>::new(b.iter().copied().map(ByteElement))),
                    Scalar::Bytes(Reference::Copied(b)) => visitor
                        .visit_seq(de::value::SeqDeserializer::<_, Error>::new(b.iter().copied().map(ByteElement))),
                    Scalar::Ref(r) => {
                        self.replay(at, r as usize, "a list", |de| de::Deserializer::deserialize_seq(de, visitor))
                    }
                    _ => Err(self.wrong(open, at, "a list")),
                }
            }
            _ => Err(self.wrong(open, at, "a list")),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::Map => self.visit_map(open, at, visitor, None),
            Kind::Object => self.visit_object(open, at, None, visitor),
            Kind::Ref => match self.dec.scalar(open)? {
                Scalar::Ref(r) => {
                    self.replay(at, r as usize, "a map", |de| de::Deserializer::deserialize_map(de, visitor))
                }
                _ => Err(self.wrong(open, at, "a map")),
            },
            _ => Err(self.wrong(open, at, "a map")),
        }
    }

    /// A struct from an object (a Hessian 2 object, or a typed map) or any map, by field name;
    /// or from a list of its fields in order.
    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        // Each callee locates its errors and names the struct in them, so that the value is
        // returned here as it comes, not moved through another `Result`.
        match D::kind(open) {
            Kind::Object => self.visit_object(open, at, Some((name, fields)), visitor),
            _ => self.visit_struct_other(open, at, name, fields, visitor),
        }
    }

    /// An enum from a string (a unit variant), a Java enum (a Hessian 2 object or a map typed
    /// with the enum's class, whose `name` field is the variant) or a one-entry map
    /// `{variant: content}`.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::Map => self.visit_enum_map(open, at, name, variants, visitor),
            Kind::Object => {
                let variant = self.enum_object_name(open, at)?;
                visitor.visit_enum(variant.into_deserializer())
            }
            Kind::String | Kind::Ref => match self.dec.scalar(open)? {
                Scalar::Str(Reference::Borrowed(s)) => {
                    visitor.visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(s))
                }
                Scalar::Str(Reference::Copied(s)) => visitor.visit_enum(de::value::StrDeserializer::<Error>::new(s)),
                Scalar::Ref(r) => self.replay(at, r as usize, "an enum", |de| {
                    de::Deserializer::deserialize_enum(de, name, variants, visitor)
                }),
                _ => Err(self.wrong(open, at, "an enum")),
            },
            _ => Err(self.wrong(open, at, "an enum")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_next()?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! { char str bytes byte_buf }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The elements of a list: exactly its declared number (`counted`, Hessian 2's lists of fixed
/// length), or up to its end mark (whether or not it declares a length).
struct ListAccess<'a, 'de, D: TokenRead<'de>> {
    de: &'a mut Deserializer<'de, D>,
    declared: Option<usize>,
    count: usize,
    done: bool,
    counted: bool,
}

impl<'de, D: TokenRead<'de>> de::SeqAccess<'de> for ListAccess<'_, 'de, D> {
    type Error = Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let start = if self.counted {
            if Some(self.count) == self.declared {
                return Ok(None);
            }
            self.count += 1;
            self.de.dec.offset()
        } else {
            match self.de.next_entry(&mut self.done, &mut self.count)? {
                Some((_, start)) => start,
                None => return Ok(None),
            }
        };
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(located(e, start).in_element(self.count - 1)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.declared.map(|n| n.saturating_sub(self.count))
    }
}

/// The entries of a map (a typed map's entries are an object's fields, keyed by name).
struct MapAccess<'a, 'de, D: TokenRead<'de>> {
    de: &'a mut Deserializer<'de, D>,
    count: usize,
    done: bool,
    pending_value: bool,
    /// For a struct: its field names, and which of the first 64 the map has given so far (a
    /// repeat is skipped with its value).
    seen: Option<(&'static [&'static str], u64)>,
    /// For a struct: the name of the field whose value comes next (for the error path).
    field: Option<&'static str>,
}

impl<'de, D: TokenRead<'de>> de::MapAccess<'de> for MapAccess<'_, 'de, D> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            let Some((kind, start)) = self.de.next_entry(&mut self.done, &mut self.count)? else {
                return Ok(None);
            };
            self.pending_value = true;
            if let (Some((names, given)), Kind::String) = (self.seen.as_mut(), kind) {
                let (open, _) = self.de.dec.open()?;
                let key = self.de.dec.string(open).map_err(|e| e.at_offset(start))?;
                let name: &str = &key;
                let index = names.iter().position(|n| *n == name).filter(|&i| i < 64);
                let repeat = index.is_some_and(|i| *given & (1 << i) != 0);
                if let Some(i) = index {
                    *given |= 1 << i;
                }
                self.field = index.map(|i| names[i]);
                if !repeat {
                    return seed
                        .deserialize(de::IntoDeserializer::<Error>::into_deserializer(name))
                        .map(Some)
                        .map_err(|e| e.at_offset(start));
                }
                // a field a subclass hides: its value is skipped
                self.de.skip_next()?;
                self.pending_value = false;
                continue;
            }
            return seed.deserialize(&mut *self.de).map(Some).map_err(|e| e.at_offset(start));
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.pending_value = false;
        let start = self.de.dec.offset();
        let field = self.field.take();
        seed.deserialize(&mut *self.de).map_err(|e| match field {
            Some(f) => e.at_offset(start).in_field(f),
            None => e.at_offset(start),
        })
    }
}

/// The field values of a Hessian 2 object whose class definition matches the Rust type exactly.
/// Handed to the visitor by value (its own `next_element` then inlines into a derived visitor),
/// with the count of fields left kept by the caller.
struct ObjectSeq<'a, 'de, D: TokenRead<'de>> {
    de: &'a mut Deserializer<'de, D>,
    left: &'a mut usize,
    /// The struct's field names (for the error path).
    fields: &'static [&'static str],
}

impl<'de, D: TokenRead<'de>> de::SeqAccess<'de> for ObjectSeq<'_, 'de, D> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if *self.left == 0 {
            // A derived visitor reads exactly the fields there are.
            cold_path();
            return Ok(None);
        }
        *self.left -= 1;
        let start = self.de.dec.offset();
        match seed.deserialize(&mut *self.de) {
            Ok(v) => {
                if *self.left == 0 {
                    // the last field: the end of the object
                    self.de.dec.leave();
                }
                Ok(Some(v))
            }
            Err(e) => {
                let field = self.fields.get(self.fields.len() - *self.left - 1).copied().unwrap_or("");
                Err(located(e, start).in_field(field))
            }
        }
    }

    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        self.next_element_seed(std::marker::PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(*self.left)
    }
}

/// The fields of a Hessian 2 object, as a serde map keyed by field name.
struct ObjectAccess<'a, 'de, D: TokenRead<'de>> {
    de: &'a mut Deserializer<'de, D>,
    class: usize,
    keys: usize,
    values: usize,
    n: usize,
}

impl<'de, D: TokenRead<'de>> ObjectAccess<'_, 'de, D> {
    /// The error of the field just read, located and with the field in its path.
    #[cold]
    #[inline(never)]
    fn field_error(&self, e: Error, start: u64) -> Error {
        let e = e.at_offset(start);
        match self.keys.checked_sub(1).and_then(|i| self.de.dec.class_fields(self.class).get(i)) {
            Some(name) => e.in_field(name),
            None => e,
        }
    }
}

impl<'de, D: TokenRead<'de>> de::MapAccess<'de> for ObjectAccess<'_, 'de, D> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            if self.keys >= self.n {
                return Ok(None);
            }
            let i = self.keys;
            self.keys += 1;
            let fields = self.de.dec.class_fields(self.class);
            let Some(name) = fields.get(i) else {
                return seed.deserialize(FieldKey("")).map(Some);
            };
            // A field name the class lists twice is a Java field a subclass hides (Caucho writes
            // the subclass's first, then the superclass's): the Rust field is the subclass's,
            // and the hidden one's value is skipped, as Java's reader does.
            if fields[..i].contains(name) {
                self.values += 1;
                self.de.skip_values(1)?;
                continue;
            }
            return seed.deserialize(FieldKey(name)).map(Some);
        }
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.values += 1;
        let start = self.de.dec.offset();
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(v),
            Err(e) => Err(self.field_error(e, start)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.n - self.keys)
    }
}

/// A field name handed to the derived field visitor.
struct FieldKey<'a>(&'a str);

impl<'de> de::Deserializer<'de> for FieldKey<'_> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_str(self.0)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// An enum written as a one-entry map `{variant: content}` (after the map's header).
struct EnumAccess<'a, 'de, D: TokenRead<'de>> {
    de: &'a mut Deserializer<'de, D>,
}

impl<'de, D: TokenRead<'de>> de::EnumAccess<'de> for EnumAccess<'_, 'de, D> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let (_, start) = self.de.dec.peek()?;
        let v = seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))?;
        Ok((v, self))
    }
}

impl<'de, D: TokenRead<'de>> de::VariantAccess<'de> for EnumAccess<'_, 'de, D> {
    type Error = Error;

    /// The content of a unit variant is skipped, whatever it is (as the dynamic path does).
    fn unit_variant(self) -> Result<()> {
        self.de.skip_next()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        let start = self.de.dec.offset();
        seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
    }
}

/// A byte of a binary read as a list's element: an integer, which is also `Some` where an
/// `Option` is asked for and the inner value of a newtype, as the dynamic path
/// (`from_value`) reads the same byte (found by fuzzing `serde_h1`: a binary read as
/// `Vec<Option<i64>>`).
struct ByteElement(u8);

impl<'de> de::IntoDeserializer<'de, Error> for ByteElement {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for ByteElement {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u8(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}
