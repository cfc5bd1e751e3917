//! The Burlap 1.0 serde [`Deserializer`]: reads straight from the XML through
//! [`burlap::Decoder`]'s parsers (same checks, same [`Limits`]), without building the value tree
//! of lists and maps.
//!
//! It gives the results of the dynamic path (`from_value(burlap::from_slice(data)?)`) for every
//! input that path accepts, and its errors carry the offset of the offending element: wire errors
//! the offset where the XML reader stopped, type errors (`InvalidType`, `OutOfRange`) the offset
//! of the `<` of the value's element, errors raised by a visitor (`MissingField`,
//! `UnknownVariant`, custom messages) the start of the value, field or struct that raised them.
//!
//! Leaf elements (`<int>`, `<string>`, `<date>`, `<base64>`, …) are parsed by the decoder into a
//! [`Value`] and mapped exactly as the dynamic path maps them. A Java object is a typed map: it
//! decodes into a struct by field name, in any order, unknown fields skipped. Lists and maps are
//! read up to their end tag, so whatever a visitor leaves unread is skipped (and checked), as the
//! dynamic path ignores it. An enum written as a typed map (a Java enum) is read as a [`Value`]
//! map and mapped like the dynamic path does, as the variant may be any entry.
//!
//! [`burlap::Decoder`]: crate::burlap::Decoder

use super::super::copies::RefCopies;
use super::super::dynamic::ValueDe;
use super::super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::burlap::decode::{tag_name, Tag, Tok};
use crate::burlap::Decoder;
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::value::{Map, Value};
use serde::de::{self, DeserializeSeed, Visitor};
use std::any::Any;
use std::collections::HashMap;
use std::io::BufRead;
use std::rc::Rc;

mod sealed {
    pub trait Sealed {}
    impl Sealed for &[u8] {}
    impl<R: std::io::Read> Sealed for std::io::BufReader<R> {}
}

/// The inputs of a Burlap [`Deserializer`]: a byte slice (which can re-read a referenced value
/// to copy it into a plain type) or a buffered reader. Sealed.
pub trait Input<'de>: BufRead + sealed::Sealed + Sized {
    /// Whether the input can start again at an earlier offset.
    #[doc(hidden)]
    const REWINDABLE: bool;

    /// The input from offset `at` of the complete message `whole` on (slices only).
    #[doc(hidden)]
    fn tail(whole: &'de [u8], at: u64) -> Option<Self>;
}

impl<'de> Input<'de> for &'de [u8] {
    const REWINDABLE: bool = true;
    fn tail(whole: &'de [u8], at: u64) -> Option<Self> {
        whole.get(usize::try_from(at).ok()?..)
    }
}

impl<'de, R: std::io::Read> Input<'de> for std::io::BufReader<R> {
    const REWINDABLE: bool = false;
    fn tail(_whole: &'de [u8], _at: u64) -> Option<Self> {
        None
    }
}

/// Deserializes Rust values from Burlap 1.0.
pub struct Deserializer<'de, R: Input<'de>> {
    dec: Decoder<R>,
    /// The complete message, when it is a slice read from its start (for copies of references).
    whole: Option<&'de [u8]>,
    /// Values decoded through [`Shared`](crate::serde::Shared), by reference index.
    shared: HashMap<usize, Rc<dyn Any>>,
    /// Where each list and map starts, for references into plain types (slices only).
    copies: RefCopies,
}

impl<'de> Deserializer<'de, &'de [u8]> {
    /// A deserializer over a complete message in a byte slice.
    pub fn from_slice(data: &'de [u8]) -> Self {
        let mut d = Deserializer::new(Decoder::from_slice(data));
        d.whole = Some(data);
        d
    }
}

impl<R: std::io::Read> Deserializer<'static, std::io::BufReader<R>> {
    /// A deserializer over any `std::io::Read` (buffered internally).
    pub fn from_reader(r: R) -> Self {
        Deserializer::new(Decoder::from_reader(r))
    }
}

/// The kind of value a leaf element holds (as [`Value::kind_name`] names it), for containers.
fn container_name(t: Tag) -> &'static str {
    if t == Tag::List {
        "list"
    } else {
        "map"
    }
}

#[cold]
fn invalid(expected: &str, found: &str, at: u64) -> Error {
    Error::new(ErrorKind::InvalidType { expected: expected.to_owned(), found: found.to_owned() }, at)
}

#[cold]
fn not_one_entry(start: u64) -> Error {
    invalid("a one-entry enum map", "map", start)
}

impl<'de, R: Input<'de>> Deserializer<'de, R> {
    /// A deserializer on top of an existing decoder (e.g. positioned inside an RPC envelope);
    /// references into plain types are not copied (decode them into `Value` or `Shared`).
    pub fn new(dec: Decoder<R>) -> Self {
        Deserializer { dec, whole: None, shared: HashMap::new(), copies: RefCopies::default() }
    }

    /// Replaces the decoder's limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.dec = self.dec.with_limits(limits);
        self
    }

    /// The underlying decoder (to read envelope elements around values).
    pub fn decoder(&mut self) -> &mut Decoder<R> {
        &mut self.dec
    }

    /// Returns the underlying decoder.
    pub fn into_decoder(self) -> Decoder<R> {
        self.dec
    }

    /// Deserializes one value of type `T` (more may follow, e.g. call arguments).
    pub fn deserialize_value<T: de::Deserialize<'de>>(&mut self) -> Result<T> {
        let start = self.dec.offset();
        T::deserialize(&mut *self).map_err(|e| e.at_offset(start))
    }

    /// Fails unless only whitespace or comments remain.
    pub fn end(&mut self) -> Result<()> {
        self.dec.end()
    }

    /// Starts a new message: forgets references.
    pub fn reset(&mut self) {
        self.dec.reset();
        self.shared.clear();
        self.copies.clear();
    }

    fn rewindable(&self) -> bool {
        R::REWINDABLE && self.whole.is_some()
    }

    /// Records that the list or map whose `<` is at offset `at` got the latest reference index.
    #[inline]
    fn note_start(&mut self, at: u64) {
        if self.rewindable() {
            self.copies.note(self.dec.ref_count(), at);
        }
    }

    /// The next token, which must start a value: its tag, the token and the offset of its `<`.
    fn value_tok(&mut self) -> Result<(Tag, Tok, u64)> {
        let tok = self.dec.next_tok()?;
        let at = self.dec.tok_start();
        match tok {
            Tok::Start(t) | Tok::Empty(t) => Ok((t, tok, at)),
            Tok::End(t) => Err(self.dec.malformed(format!("unexpected </{}>", tag_name(t)))),
            Tok::Eof => Err(self.dec.err(ErrorKind::UnexpectedEof)),
        }
    }

    /// The value of a leaf element whose start token was read; a list or map is a type error.
    fn scalar(&mut self, t: Tag, tok: Tok, at: u64, expected: &str) -> Result<Value> {
        match t {
            Tag::List | Tag::Map => Err(invalid(expected, container_name(t), at)),
            _ => self.dec.parse_leaf(t, tok),
        }
    }

    /// A leaf element (start token read) for `deserialize_any`; out of line, so that the
    /// recursive list and map path keeps small stack frames.
    #[inline(never)]
    fn leaf_any<V: Visitor<'de>>(&mut self, t: Tag, tok: Tok, at: u64, visitor: V) -> Result<V::Value> {
        match self.dec.parse_leaf(t, tok)? {
            Value::Ref(r) => {
                self.replay(at, r as usize, "a value", |de| de::Deserializer::deserialize_any(de, visitor))
            }
            v => de::Deserializer::deserialize_any(ValueDe(v), visitor).map_err(|e| e.at_offset(at)),
        }
    }

    /// Reads reference `r` (its `<ref>` at offset `at`, already parsed) into a plain Rust type:
    /// re-reads the referenced list or map from where it starts, with `f`, then continues after
    /// the reference. The references and shared values the second reading registers are
    /// forgotten again. Cycles end at the depth limit; the bytes re-read are bounded by
    /// `max_ref_copy_bytes`.
    #[cold]
    #[inline(never)]
    fn replay<T>(&mut self, at: u64, r: usize, expected: &str, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let limit = self.dec.limits().max_ref_copy_bytes;
        let start = self.copies.start(r, at, expected, self.rewindable(), limit)?;
        let Some(input) = self.whole.and_then(|w| R::tail(w, start)) else {
            return Err(self.dec.err(ErrorKind::UnexpectedEof));
        };
        let saved = self.dec.reposition(input, start);
        let refs = self.dec.ref_count();
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
        self.shared.retain(|&k, _| k < refs);
        self.dec.restore(saved);
        let copied = self.copies.copied(refs, bytes, at, limit);
        let v = v?;
        copied.map(|()| v)
    }

    /// Skips one value whose token has been read, with the checks of the decoder.
    fn skip(&mut self, tok: Tok) -> Result<()> {
        let at = self.dec.tok_start();
        match tok {
            Tok::Start(t @ (Tag::List | Tag::Map)) | Tok::Empty(t @ (Tag::List | Tag::Map)) => {
                self.dec.enter()?;
                if t == Tag::List {
                    if let Some(declared) = self.list_header(tok, at)? {
                        self.skip_list_rest(declared, 0)?;
                    }
                } else if self.map_header(tok, at)?.is_some() {
                    self.skip_map_rest(0)?;
                }
                self.dec.leave();
                Ok(())
            }
            Tok::Start(t) | Tok::Empty(t) => self.dec.parse_leaf(t, tok).map(drop),
            Tok::End(t) => Err(self.dec.malformed(format!("unexpected </{}>", tag_name(t)))),
            Tok::Eof => Err(self.dec.err(ErrorKind::UnexpectedEof)),
        }
    }

    /// Reads and skips one value.
    fn skip_next(&mut self) -> Result<()> {
        let tok = self.dec.next_tok()?;
        self.skip(tok)
    }

    /// After a list's start token (at `at`): its header, and its reference. `None` for an empty
    /// element `<list/>` (no content, no end tag), else the length it declares, if any.
    fn list_header(&mut self, tok: Tok, at: u64) -> Result<Option<Option<usize>>> {
        if let Tok::Empty(_) = tok {
            self.dec.add_ref()?;
            self.note_start(at);
            return Ok(None);
        }
        let (_, declared) = self.dec.list_header()?;
        self.note_start(at);
        Ok(Some(declared))
    }

    /// After a map's start token (at `at`): its type, and its reference. `None` for an empty
    /// element `<map/>`, else the type (`Some(None)` when untyped).
    fn map_header(&mut self, tok: Tok, at: u64) -> Result<Option<Option<String>>> {
        if let Tok::Empty(_) = tok {
            self.dec.add_ref()?;
            self.note_start(at);
            return Ok(None);
        }
        let type_name = self.dec.read_opt_type()?;
        self.dec.add_ref()?;
        self.note_start(at);
        Ok(Some(type_name))
    }

    /// Skips the elements of a list after the first `count`, its end tag, and checks its length.
    fn skip_list_rest(&mut self, declared: Option<usize>, mut count: usize) -> Result<()> {
        loop {
            let tok = self.dec.next_tok()?;
            if tok == Tok::End(Tag::List) {
                break;
            }
            self.dec.check_count(count)?;
            count += 1;
            self.skip(tok)?;
        }
        self.dec.check_list_len(declared, count)
    }

    /// Skips the entries of a map after the first `count`, and its end tag.
    fn skip_map_rest(&mut self, mut count: usize) -> Result<()> {
        loop {
            let tok = self.dec.next_tok()?;
            if tok == Tok::End(Tag::Map) {
                return Ok(());
            }
            self.dec.check_count(count)?;
            count += 1;
            self.skip(tok)?;
            self.skip_next()?;
        }
    }

    /// A list whose start token (at `at`) has been read, as a serde sequence.
    fn visit_list<V: Visitor<'de>>(&mut self, tok: Tok, at: u64, visitor: V) -> Result<V::Value> {
        self.dec.enter()?;
        let header = self.list_header(tok, at)?;
        let declared = header.flatten();
        if self.rewindable() {
            self.copies.reserve(declared.unwrap_or(0));
        }
        let mut acc = ListAccess { de: self, declared, count: 0, done: header.is_none() };
        let v = visitor.visit_seq(&mut acc)?;
        let (count, done) = (acc.count, acc.done);
        if done {
            self.dec.check_list_len(declared, count)?;
        } else {
            self.skip_list_rest(declared, count)?;
        }
        self.dec.leave();
        Ok(v)
    }

    /// A map (or object) whose start token (at `at`) has been read, as a serde map.
    fn visit_map<V: Visitor<'de>>(&mut self, tok: Tok, at: u64, visitor: V) -> Result<V::Value> {
        self.visit_map_keys(tok, at, visitor, None)
    }

    /// A map as the fields of a struct with the field names `fields`: a name the map repeats is
    /// a Java field a subclass hides (Caucho writes the subclass's first): the first is kept and
    /// the repeats skipped, as Java's reader does.
    fn visit_map_keys<V: Visitor<'de>>(
        &mut self,
        tok: Tok,
        at: u64,
        visitor: V,
        seen: Option<(&'static [&'static str], u64)>,
    ) -> Result<V::Value> {
        self.dec.enter()?;
        let header = self.map_header(tok, at)?;
        let mut acc = MapAccess { de: self, count: 0, done: header.is_none(), pending_value: false, seen };
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

    /// An enum written as a map whose start token (at `start`) has been read.
    fn visit_enum_map<V: Visitor<'de>>(
        &mut self,
        tok: Tok,
        start: u64,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.dec.enter()?;
        let Some(type_name) = self.map_header(tok, start)? else {
            // `<map/>`: no entry
            return Err(not_one_entry(start));
        };
        if type_name.is_some() {
            // A typed map: a Java enum `{name: VARIANT}`, whose `name` entry may come anywhere,
            // or else a one-entry map. Mapped from its entries as the dynamic path does.
            let entries = self.dec.read_entries()?;
            self.dec.leave();
            let map = Value::Map(Box::new(Map { type_name, entries }));
            return de::Deserializer::deserialize_enum(ValueDe(map), name, variants, visitor)
                .map_err(|e| e.at_offset(start));
        }
        // An untyped map `{variant: content}` with exactly one entry, keyed by a string.
        if !matches!(self.dec.peek_tok()?, Tok::Start(Tag::String | Tag::Xml) | Tok::Empty(Tag::String | Tag::Xml)) {
            return Err(not_one_entry(start));
        }
        let v = visitor.visit_enum(EnumAccess { de: self })?;
        if self.dec.next_tok()? != Tok::End(Tag::Map) {
            return Err(not_one_entry(start));
        }
        self.dec.leave();
        Ok(v)
    }
}

/// Deserializes a `T` from one complete Burlap value in `data`; anything but whitespace or
/// comments after it is an error.
pub fn from_slice<'de, T: de::Deserialize<'de>>(data: &'de [u8]) -> Result<T> {
    from_slice_with_limits(data, Limits::default())
}

/// Like [`from_slice`] with explicit limits.
pub fn from_slice_with_limits<'de, T: de::Deserialize<'de>>(data: &'de [u8], limits: Limits) -> Result<T> {
    limits.check_message_size(data.len())?;
    let mut d = Deserializer::from_slice(data).with_limits(limits);
    let v = d.deserialize_value()?;
    d.end()?;
    Ok(v)
}

/// Deserializes a `T` from one Burlap value read from `r` (stops after the value).
pub fn from_reader<R: std::io::Read, T: de::DeserializeOwned>(r: R) -> Result<T> {
    let limits = Limits::default();
    let mut d = Deserializer::from_reader(std::io::Read::take(r, limits.max_message_size)).with_limits(limits);
    d.deserialize_value()
}

/// A method for leaf values only: a list or map is a type error, a leaf is mapped as the
/// dynamic path maps it.
macro_rules! leaf_method {
    ($method:ident, $expected:expr) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let (t, tok, at) = self.value_tok()?;
            let v = self.scalar(t, tok, at, $expected)?;
            de::Deserializer::$method(ValueDe(v), visitor).map_err(|e| e.at_offset(at))
        }
    };
}

impl<'de, R: Input<'de>> de::Deserializer<'de> for &mut Deserializer<'de, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (t, tok, at) = self.value_tok()?;
        match t {
            Tag::List => self.visit_list(tok, at, visitor),
            Tag::Map => self.visit_map(tok, at, visitor),
            _ => self.leaf_any(t, tok, at, visitor),
        }
    }

    leaf_method!(deserialize_bool, "a boolean");
    leaf_method!(deserialize_i8, "i8");
    leaf_method!(deserialize_i16, "i16");
    leaf_method!(deserialize_i32, "i32");
    leaf_method!(deserialize_i64, "i64");
    leaf_method!(deserialize_i128, "i128");
    leaf_method!(deserialize_u8, "u8");
    leaf_method!(deserialize_u16, "u16");
    leaf_method!(deserialize_u32, "u32");
    leaf_method!(deserialize_u64, "u64");
    leaf_method!(deserialize_u128, "u128");
    leaf_method!(deserialize_f32, "a number");
    leaf_method!(deserialize_f64, "a number");
    leaf_method!(deserialize_unit, "null");

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let tok @ (Tok::Start(Tag::Null) | Tok::Empty(Tag::Null)) = self.dec.peek_tok()? {
            self.dec.next_tok()?;
            self.dec.parse_leaf(Tag::Null, tok)?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if std::ptr::eq(name, DATE_TOKEN) || name == DATE_TOKEN {
            let (t, tok, at) = self.value_tok()?;
            let v = self.scalar(t, tok, at, "a date")?;
            return de::Deserializer::deserialize_newtype_struct(ValueDe(v), DATE_TOKEN, visitor)
                .map_err(|e| e.at_offset(at));
        }
        if name == VALUE_TOKEN {
            let v = self.dec.read_value()?;
            return value::with_pending(v, || visitor.visit_unit());
        }
        if name == SHARED_TOKEN {
            if let tok @ (Tok::Start(Tag::Ref) | Tok::Empty(Tag::Ref)) = self.dec.peek_tok()? {
                self.dec.next_tok()?;
                let at = self.dec.tok_start();
                let Value::Ref(r) = self.dec.parse_leaf(Tag::Ref, tok)? else {
                    return Err(invalid("a reference", "value", at));
                };
                let r = r as usize;
                return match self.shared.get(&r) {
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
                    self.shared.insert(index, rc);
                }
            }
            return Ok(v);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (t, tok, at) = self.value_tok()?;
        match t {
            Tag::List => self.visit_list(tok, at, visitor),
            Tag::Map => Err(invalid("a list", "map", at)),
            _ => match self.dec.parse_leaf(t, tok)? {
                Value::Ref(r) => {
                    self.replay(at, r as usize, "a list", |de| de::Deserializer::deserialize_seq(de, visitor))
                }
                v => de::Deserializer::deserialize_seq(ValueDe(v), visitor).map_err(|e| e.at_offset(at)),
            },
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
        let (t, tok, at) = self.value_tok()?;
        match t {
            Tag::Map => self.visit_map(tok, at, visitor),
            Tag::List => Err(invalid("a map", "list", at)),
            _ => match self.dec.parse_leaf(t, tok)? {
                Value::Ref(r) => {
                    self.replay(at, r as usize, "a map", |de| de::Deserializer::deserialize_map(de, visitor))
                }
                v => de::Deserializer::deserialize_map(ValueDe(v), visitor).map_err(|e| e.at_offset(at)),
            },
        }
    }

    /// A struct from an object (a typed map) or any map, by field name; or from a list of its
    /// fields in order.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (t, tok, at) = self.value_tok()?;
        let r = match t {
            Tag::Map => self.visit_map_keys(tok, at, visitor, Some((fields, 0))),
            Tag::List => self.visit_list(tok, at, visitor),
            _ => match self.dec.parse_leaf(t, tok)? {
                Value::Ref(r) => self.replay(at, r as usize, "an object", |de| {
                    de::Deserializer::deserialize_struct(de, name, fields, visitor)
                }),
                v => de::Deserializer::deserialize_struct(ValueDe(v), name, fields, visitor),
            },
        };
        r.map_err(|e| e.at_offset(at))
    }

    /// An enum from a string (a unit variant), a Java enum (a map typed with the enum's class,
    /// whose `name` entry is the variant) or a one-entry map `{variant: content}`.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (t, tok, at) = self.value_tok()?;
        match t {
            Tag::Map => self.visit_enum_map(tok, at, name, variants, visitor),
            Tag::List => Err(invalid("an enum", "list", at)),
            _ => match self.dec.parse_leaf(t, tok)? {
                Value::Ref(r) => self.replay(at, r as usize, "an enum", |de| {
                    de::Deserializer::deserialize_enum(de, name, variants, visitor)
                }),
                v => {
                    de::Deserializer::deserialize_enum(ValueDe(v), name, variants, visitor).map_err(|e| e.at_offset(at))
                }
            },
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_next()?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! { char str string bytes byte_buf }
}

/// The elements of a Burlap list, up to its `</list>`.
struct ListAccess<'a, 'de, R: Input<'de>> {
    de: &'a mut Deserializer<'de, R>,
    declared: Option<usize>,
    count: usize,
    done: bool,
}

impl<'de, R: Input<'de>> Deserializer<'de, R> {
    /// Whether a list or map (`tag`) whose `count` entries were read so far has another
    /// (`false` after its end tag, which it consumes, or once `done`); counts the entry against
    /// the limits.
    fn next_entry(&mut self, tag: Tag, done: &mut bool, count: &mut usize) -> Result<bool> {
        if *done {
            return Ok(false);
        }
        if self.dec.peek_tok()? == Tok::End(tag) {
            self.dec.next_tok()?;
            *done = true;
            return Ok(false);
        }
        self.dec.check_count(*count)?;
        *count += 1;
        Ok(true)
    }
}

impl<'de, R: Input<'de>> de::SeqAccess<'de> for ListAccess<'_, 'de, R> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.de.next_entry(Tag::List, &mut self.done, &mut self.count)? {
            return Ok(None);
        }
        let start = self.de.dec.tok_start();
        seed.deserialize(&mut *self.de).map(Some).map_err(|e| e.at_offset(start))
    }

    fn size_hint(&self) -> Option<usize> {
        self.declared.map(|n| n.saturating_sub(self.count))
    }
}

/// The entries of a Burlap map (an object's entries are its fields, keyed by name).
struct MapAccess<'a, 'de, R: Input<'de>> {
    de: &'a mut Deserializer<'de, R>,
    count: usize,
    done: bool,
    pending_value: bool,
    /// For a struct: its field names, and which of the first 64 the map has given so far (a
    /// repeat is skipped with its value).
    seen: Option<(&'static [&'static str], u64)>,
}

impl<'de, R: Input<'de>> de::MapAccess<'de> for MapAccess<'_, 'de, R> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            if !self.de.next_entry(Tag::Map, &mut self.done, &mut self.count)? {
                return Ok(None);
            }
            self.pending_value = true;
            let start = self.de.dec.tok_start();
            let string_key = matches!(self.de.dec.peek_tok()?, Tok::Start(Tag::String) | Tok::Empty(Tag::String));
            if let (Some((names, given)), true) = (self.seen, string_key) {
                let name = <String as de::Deserialize>::deserialize(&mut *self.de).map_err(|e| e.at_offset(start))?;
                let index = names.iter().position(|n| *n == name).filter(|&i| i < 64);
                if index.is_some_and(|i| given & (1 << i) != 0) {
                    // a field a subclass hides: its value is skipped
                    self.de.skip_next()?;
                    self.pending_value = false;
                    continue;
                }
                if let Some(i) = index {
                    self.seen = Some((names, given | (1 << i)));
                }
                return seed
                    .deserialize(de::IntoDeserializer::<Error>::into_deserializer(name))
                    .map(Some)
                    .map_err(|e| e.at_offset(start));
            }
            return seed.deserialize(&mut *self.de).map(Some).map_err(|e| e.at_offset(start));
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.pending_value = false;
        let start = self.de.dec.offset();
        seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))
    }
}

/// An enum written as a one-entry map `{variant: content}` (after the map's header).
struct EnumAccess<'a, 'de, R: Input<'de>> {
    de: &'a mut Deserializer<'de, R>,
}

impl<'de, R: Input<'de>> de::EnumAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let start = self.de.dec.tok_start();
        let v = seed.deserialize(&mut *self.de).map_err(|e| e.at_offset(start))?;
        Ok((v, self))
    }
}

impl<'de, R: Input<'de>> de::VariantAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;

    /// The content of a unit variant is skipped, whatever it is (as the dynamic path does).
    fn unit_variant(self) -> Result<()> {
        self.de.skip_next()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
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
