//! The token layer: one reader interface over the value tokens of the three formats, in the
//! spirit of serde_json's `Read` and rmp's `Marker`. A value starts with an opening (a Hessian
//! byte code, a Burlap start tag) that [`TokenRead::open`] reads and [`TokenRead::kind`]
//! classifies once ([`Kind`], each format's table); a leaf is then read whole as a [`Scalar`], a
//! list or map by its header ([`ListHead`], [`MapHead`]) and its entries up to the format's end
//! mark (or, for a Hessian 2 list of fixed length, its count), and a Hessian 2 object by its
//! class definition ([`TokenRead::object_head`]) and its fields in the definition's order.
//!
//! The serde deserializer of the three formats (`hessian::serde::{h2, h1, burlap}::Deserializer`)
//! is one generic type over this trait, `hessian::serde::de::Deserializer`. Hessian 2's compact
//! forms are read by its fast paths (`buffered_*`), which the other formats leave at `None`.

use crate::error::{Error, ErrorKind, Limits, Result};
use crate::kind::Kind;
use crate::read::Reference;
use crate::value::{Object, Remote, Value};

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
    Remote(Box<Remote>),
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
            Scalar::Remote(r) => Value::Remote(r),
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
    /// Whether exactly `len` elements follow and no end mark (a Hessian 2 list of fixed length);
    /// otherwise the list ends with an end mark, and a declared length is checked against it.
    pub counted: bool,
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

/// Reads the value tokens of one format: implemented by [`h2::Decoder`](crate::h2::Decoder),
/// [`h1::Decoder`](crate::h1::Decoder) and [`burlap::Decoder`](crate::burlap::Decoder) (sealed). Every method keeps the decoder's
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
    /// Reads the rest of a string whose opening ([`Kind::String`]) was read; a fast path of
    /// [`scalar`](Self::scalar).
    #[inline]
    fn string(&mut self, open: Self::Open) -> Result<Reference<'de, '_, str>> {
        let at = self.offset();
        match self.scalar(open)? {
            Scalar::Str(s) => Ok(s),
            _ => Err(Error::new(ErrorKind::InvalidType { expected: "a string".into(), found: "value".into() }, at)),
        }
    }
    /// Reads the rest of an int, a long or a date whose opening ([`Kind::Int`], [`Kind::Long`],
    /// [`Kind::Date`]) was read, as `i64`; a fast path of [`scalar`](Self::scalar).
    #[inline]
    fn integer(&mut self, open: Self::Open) -> Result<i64> {
        let at = self.offset();
        match self.scalar(open)? {
            Scalar::Int(i) => Ok(i.into()),
            Scalar::Long(l) | Scalar::Date(l) => Ok(l),
            _ => Err(Error::new(ErrorKind::InvalidType { expected: "an integer".into(), found: "value".into() }, at)),
        }
    }
    /// Reads the rest of a double, int or long whose opening was read, as `f64`; a fast path of
    /// [`scalar`](Self::scalar).
    #[inline]
    fn double(&mut self, open: Self::Open) -> Result<f64> {
        let at = self.offset();
        match self.scalar(open)? {
            Scalar::Double(d) => Ok(d),
            Scalar::Int(i) => Ok(i.into()),
            Scalar::Long(l) => Ok(l as f64),
            _ => Err(Error::new(ErrorKind::InvalidType { expected: "a number".into(), found: "value".into() }, at)),
        }
    }
    /// Reads the header of a list whose opening was read and registers its reference.
    fn list_head(&mut self, open: Self::Open) -> Result<ListHead>;
    /// Like [`list_head`](Self::list_head), and the list's type name too (`None` when
    /// untyped), for readers that show or keep it.
    fn list_head_with_type(&mut self, open: Self::Open) -> Result<(ListHead, Option<String>)>;
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
    /// Starts a new message: forgets references (and Hessian 2's per-message definitions).
    fn reset(&mut self);

    /// Whether the format has fast paths (`buffered_*`) that read a whole common value from
    /// the buffered input; the general path behind them is then kept out of line.
    const BUFFERED: bool = false;
    /// The next value if it is an int in a common form that lies whole in the buffer.
    #[inline(always)]
    fn buffered_int(&mut self) -> Option<i32> {
        None
    }
    /// The next value if it is a long in a common form that lies whole in the buffer.
    #[inline(always)]
    fn buffered_long(&mut self) -> Option<i64> {
        None
    }
    /// The next value if it is a double in a common form that lies whole in the buffer.
    #[inline(always)]
    fn buffered_double(&mut self) -> Option<f64> {
        None
    }
    /// The next value if it is a date that lies whole in the buffer.
    #[inline(always)]
    fn buffered_date(&mut self) -> Option<i64> {
        None
    }
    /// The next value, owned, if it is a short ASCII string that lies whole in the buffer.
    #[inline(always)]
    fn buffered_ascii_string(&mut self) -> Option<String> {
        None
    }
    /// Reads the header of an object ([`Kind::Object`]) whose opening was read, registers its
    /// reference and returns the index of its class definition; its fields follow, one value
    /// each, in the order of [`class_fields`](Self::class_fields).
    fn object_head(&mut self, open: Self::Open) -> Result<usize> {
        Err(self.invalid(open))
    }
    /// The field names of class definition `class` (empty when there is none).
    fn class_fields(&self, class: usize) -> &[String] {
        let _ = class;
        &[]
    }
    /// Whether class definition `class` lists exactly `fields`, in order (memoised by the
    /// address of `fields`).
    fn class_lists_exactly(&mut self, class: usize, fields: &'static [&'static str]) -> bool {
        let _ = (class, fields);
        false
    }
    /// How many definitions (Hessian 2's class definitions and type names) this message has
    /// registered so far.
    fn definitions(&self) -> (usize, usize) {
        (0, 0)
    }
    /// Forgets the definitions registered after the first `n` ([`definitions`](Self::definitions)).
    fn truncate_definitions(&mut self, n: (usize, usize)) {
        let _ = n;
    }
}

/// Reads a whole message of `len` bytes under `limits`: refuses it past the message size, then
/// makes its decoder (`dec`, given the limits), reads it with `read` and fails unless the input
/// is exhausted. Every format's `from_slice_with_limits`, `call_from_slice` and
/// `reply_from_slice` (in line, so that the decoder is built in place).
#[inline(always)]
pub(crate) fn read_whole<'de, D: TokenRead<'de>, T>(
    len: usize,
    limits: Limits,
    dec: impl FnOnce(Limits) -> D,
    read: impl FnOnce(&mut D) -> Result<T>,
) -> Result<T> {
    limits.check_message_size(len)?;
    let mut d = dec(limits);
    let v = read(&mut d)?;
    d.end()?;
    Ok(v)
}

/// Reading a call's envelope, the same for every format: implemented by the three decoders
/// (sealed). The serde message layer (`serde::message`) reads calls through it whatever the
/// format.
pub trait CallRead<'de>: TokenRead<'de> {
    /// The envelope up to the first argument: version, headers, method (and, in Hessian 2,
    /// the argument count).
    fn call_header(&mut self) -> Result<crate::envelope::CallHeader>;
    /// Whether the call has no argument left after `read` of them (Hessian 2 by the count in
    /// `header`, Hessian 1 and Burlap by the end mark that follows).
    fn call_done(&mut self, header: &crate::envelope::CallHeader, read: usize) -> Result<bool>;
    /// The end of the call after its last argument (Hessian 2 has none).
    fn call_end(&mut self) -> Result<()>;
}

/// Reading a reply's envelope, the same for every format: implemented by the three decoders
/// (sealed).
pub trait ReplyRead<'de>: TokenRead<'de> {
    /// The envelope up to the reply's value: `None` when a value follows, or the fault the
    /// reply carries (read whole).
    fn reply_header(&mut self) -> Result<Option<crate::envelope::Fault>>;
    /// The end of the reply after its value (Hessian 2 has none).
    fn reply_end(&mut self) -> Result<()>;
}

/// Writing a call's envelope, the same for every format: implemented by the three encoders
/// (sealed).
pub trait CallWrite: TokenWrite {
    /// The envelope up to the first argument: Hessian 2 `H 02 00 C method argc` (which carries
    /// no headers: any is an error), Hessian 1 `c major 0`, the headers and `m method`, Burlap
    /// `<burlap:call>`, the headers and `<method>`.
    fn call_start(&mut self, major: u8, method: &str, headers: &[(String, Value)], argc: usize) -> Result<()>;
    /// The end of the call after its last argument (Hessian 2 has none).
    fn call_end(&mut self) -> Result<()>;
}

/// Writing a reply's envelope and a fault, the same for every format: implemented by the three
/// encoders (sealed).
pub trait ReplyWrite: TokenWrite {
    /// The envelope up to the reply's value.
    fn reply_start(&mut self) -> Result<()>;
    /// The end of the reply after its value (Hessian 2 has none).
    fn reply_end(&mut self) -> Result<()>;
    /// A complete fault reply, as the format's Java writer writes it.
    fn fault(&mut self, fault: &crate::envelope::Fault) -> Result<()>;
}

/// Implements [`CallRead`] and [`ReplyRead`] for a decoder (Hessian 1's, Burlap's) whose own
/// envelope methods are `read_call_header`, `at_call_end`, `read_call_end`, `read_reply_header`
/// and `read_reply_end`; `$fault` turns its `read_reply_header`'s result into a fault.
macro_rules! envelope_reads {
    (impl[$($g:tt)*] $ty:ty, $fault:expr) => {
        impl<$($g)*> $crate::token::CallRead<'de> for $ty {
            fn call_header(&mut self) -> $crate::error::Result<$crate::envelope::CallHeader> {
                self.read_call_header()
            }

            fn call_done(&mut self, _: &$crate::envelope::CallHeader, _: usize) -> $crate::error::Result<bool> {
                self.at_call_end()
            }

            fn call_end(&mut self) -> $crate::error::Result<()> {
                self.read_call_end()
            }
        }

        impl<$($g)*> $crate::token::ReplyRead<'de> for $ty {
            fn reply_header(&mut self) -> $crate::error::Result<Option<$crate::envelope::Fault>> {
                Ok(self.read_reply_header()?.map($fault))
            }

            fn reply_end(&mut self) -> $crate::error::Result<()> {
                self.read_reply_end()
            }
        }
    };
}
pub(crate) use envelope_reads;

/// Implements [`CallWrite`] and [`ReplyWrite`] for an encoder (Hessian 1's, Burlap's) whose own
/// envelope methods are `write_header`, `write_method`, `write_call_end`, `write_reply_begin`,
/// `write_reply_end` and `write_fault`; `$begin(encoder, major)` starts its call.
macro_rules! envelope_writes {
    (impl[$($g:tt)*] $ty:ty, $begin:expr) => {
        impl<$($g)*> $crate::token::CallWrite for $ty {
            fn call_start(
                &mut self,
                major: u8,
                method: &str,
                headers: &[(String, $crate::value::Value)],
                _argc: usize,
            ) -> $crate::error::Result<()> {
                ($begin)(&mut *self, major)?;
                for (name, value) in headers {
                    self.write_header(name, value)?;
                }
                self.write_method(method)
            }

            fn call_end(&mut self) -> $crate::error::Result<()> {
                self.write_call_end()
            }
        }

        impl<$($g)*> $crate::token::ReplyWrite for $ty {
            fn reply_start(&mut self) -> $crate::error::Result<()> {
                self.write_reply_begin()
            }

            fn reply_end(&mut self) -> $crate::error::Result<()> {
                self.write_reply_end()
            }

            fn fault(&mut self, fault: &$crate::envelope::Fault) -> $crate::error::Result<()> {
                self.write_fault(fault)
            }
        }
    };
}
pub(crate) use envelope_writes;

/// Writes the value tokens of one format: implemented by [`h2::Encoder`](crate::h2::Encoder),
/// [`h1::Encoder`](crate::h1::Encoder) and [`burlap::Encoder`](crate::burlap::Encoder) (sealed),
/// each method being the encoder's inherent method of the same name. Code generic over the
/// formats (the [`Value`] walk [`write_value`], the Hessian 1 and Burlap serde serializer) writes
/// through it.
pub trait TokenWrite: sealed::Sealed {
    /// The writer the encoder writes to.
    type Writer;
    /// Whether a list of declared length is closed by an end mark too (Hessian 1's `z`,
    /// Burlap's `</list>`) rather than by its count alone (Hessian 2).
    const FIXED_LISTS_END: bool;

    /// Bytes written so far, counted from the start of the output.
    fn position(&self) -> u64;
    /// Hands the buffered bytes to the writer and flushes it.
    fn flush(&mut self) -> Result<()>;
    /// Flushes and returns the writer.
    fn finish(self) -> Result<Self::Writer>
    where
        Self: Sized;
    /// Writes `null`.
    fn write_null(&mut self) -> Result<()>;
    /// Writes a boolean.
    fn write_bool(&mut self, v: bool) -> Result<()>;
    /// Writes a 32-bit int.
    fn write_int(&mut self, v: i32) -> Result<()>;
    /// Writes a 64-bit long.
    fn write_long(&mut self, v: i64) -> Result<()>;
    /// Writes a double.
    fn write_double(&mut self, v: f64) -> Result<()>;
    /// Writes a date, in milliseconds since the epoch.
    fn write_date(&mut self, millis: i64) -> Result<()>;
    /// Writes a string.
    fn write_str(&mut self, v: &str) -> Result<()>;
    /// Writes binary data.
    fn write_bytes(&mut self, v: &[u8]) -> Result<()>;
    /// Writes a back reference to the `index`-th list, map (or object) of the message.
    fn write_ref(&mut self, index: u32) -> Result<()>;
    /// Writes a remote object reference (in Hessian 2, the object Java writes for one).
    fn write_remote(&mut self, type_name: &str, url: &str) -> Result<()>;
    /// Starts a list of `len` elements (`None`: until [`write_list_end`](Self::write_list_end)).
    fn write_list_begin(&mut self, len: Option<usize>, type_name: Option<&str>) -> Result<()>;
    /// Ends a list (every list unless [`FIXED_LISTS_END`](Self::FIXED_LISTS_END) is false, then
    /// only one begun without a length).
    fn write_list_end(&mut self) -> Result<()>;
    /// Starts a map, typed or untyped.
    fn write_map_begin(&mut self, type_name: Option<&str>) -> Result<()>;
    /// Ends a map.
    fn write_map_end(&mut self) -> Result<()>;
    /// Writes an object: in Hessian 2 by its class definition, in Hessian 1 and Burlap as Java
    /// writes one there, a map typed with its class name and keyed by field name.
    fn write_object(&mut self, o: &Object) -> Result<()>;
    /// Writes any [`Value`] (the walk of [`write_value`]).
    fn write_value(&mut self, v: &Value) -> Result<()>;
}

/// Writes any [`Value`] through an encoder's tokens: the one `Value` walk of the three formats.
pub fn write_value<E: TokenWrite + ?Sized>(enc: &mut E, v: &Value) -> Result<()> {
    match v {
        Value::Null => enc.write_null(),
        Value::Bool(b) => enc.write_bool(*b),
        Value::Int(i) => enc.write_int(*i),
        Value::Long(l) => enc.write_long(*l),
        Value::Double(d) => enc.write_double(*d),
        Value::Date(d) => enc.write_date(*d),
        Value::String(s) => enc.write_str(s),
        Value::Binary(b) => enc.write_bytes(b),
        Value::List(l) => {
            enc.write_list_begin(l.fixed_length.then_some(l.items.len()), l.type_name.as_deref())?;
            for item in &l.items {
                write_value(enc, item)?;
            }
            if E::FIXED_LISTS_END || !l.fixed_length {
                enc.write_list_end()?;
            }
            Ok(())
        }
        Value::Map(m) => {
            enc.write_map_begin(m.type_name.as_deref())?;
            for (k, v) in &m.entries {
                write_value(enc, k)?;
                write_value(enc, v)?;
            }
            enc.write_map_end()
        }
        Value::Object(o) => enc.write_object(o),
        Value::Ref(r) => enc.write_ref(*r),
        Value::Remote(r) => enc.write_remote(&r.type_name, &r.url),
    }
}

/// An object as a map typed with its class name and keyed by field name, as Java writes one in
/// Hessian 1 and Burlap.
#[inline]
pub(crate) fn write_object_as_map<E: TokenWrite + ?Sized>(enc: &mut E, o: &Object) -> Result<()> {
    if let Err(what) = o.check_arity() {
        return Err(Error::new(ErrorKind::Unencodable(what), enc.position()));
    }
    enc.write_map_begin(Some(&o.class.name))?;
    for (name, v) in o.class.fields.iter().zip(&o.fields) {
        enc.write_str(name)?;
        write_value(enc, v)?;
    }
    enc.write_map_end()
}

/// The [`TokenWrite`] methods that an encoder's inherent methods of the same names implement;
/// with `objects_as_maps`, also `write_remote` and `write_object` as Hessian 1 and Burlap write
/// them (the encoder's `write_remote`, [`write_object_as_map`]).
macro_rules! forward_token_write {
    (objects_as_maps) => {
        forward_token_write!();
        fn write_remote(&mut self, type_name: &str, url: &str) -> Result<()> {
            Self::write_remote(self, type_name, url)
        }
        fn write_object(&mut self, o: &Object) -> Result<()> {
            token::write_object_as_map(self, o)
        }
    };
    () => {
        fn position(&self) -> u64 {
            Self::position(self)
        }
        fn flush(&mut self) -> Result<()> {
            Self::flush(self)
        }
        fn finish(self) -> Result<Self::Writer> {
            Self::finish(self)
        }
        #[inline]
        fn write_null(&mut self) -> Result<()> {
            Self::write_null(self)
        }
        #[inline]
        fn write_bool(&mut self, v: bool) -> Result<()> {
            Self::write_bool(self, v)
        }
        #[inline]
        fn write_int(&mut self, v: i32) -> Result<()> {
            Self::write_int(self, v)
        }
        #[inline]
        fn write_long(&mut self, v: i64) -> Result<()> {
            Self::write_long(self, v)
        }
        #[inline]
        fn write_double(&mut self, v: f64) -> Result<()> {
            Self::write_double(self, v)
        }
        #[inline]
        fn write_date(&mut self, millis: i64) -> Result<()> {
            Self::write_date(self, millis)
        }
        #[inline]
        fn write_str(&mut self, v: &str) -> Result<()> {
            Self::write_str(self, v)
        }
        #[inline]
        fn write_bytes(&mut self, v: &[u8]) -> Result<()> {
            Self::write_bytes(self, v)
        }
        #[inline]
        fn write_ref(&mut self, index: u32) -> Result<()> {
            Self::write_ref(self, index)
        }
        #[inline]
        fn write_list_begin(&mut self, len: Option<usize>, type_name: Option<&str>) -> Result<()> {
            Self::write_list_begin(self, len, type_name)
        }
        #[inline]
        fn write_list_end(&mut self) -> Result<()> {
            Self::write_list_end(self)
        }
        #[inline]
        fn write_map_begin(&mut self, type_name: Option<&str>) -> Result<()> {
            Self::write_map_begin(self, type_name)
        }
        #[inline]
        fn write_map_end(&mut self) -> Result<()> {
            Self::write_map_end(self)
        }
        fn write_value(&mut self, v: &Value) -> Result<()> {
            Self::write_value(self, v)
        }
    };
}
pub(crate) use forward_token_write;

/// The [`TokenRead`] methods that a decoder's inherent methods (and fields `limits`, `refs`) of
/// the same names implement.
macro_rules! forward_token_read {
    () => {
        fn read_value(&mut self) -> Result<Value> {
            Decoder::read_value(self)
        }
        fn limits(&self) -> &Limits {
            &self.limits
        }
        fn set_limits(&mut self, limits: Limits) {
            self.limits = limits;
        }
        #[inline]
        fn enter(&mut self) -> Result<()> {
            Decoder::enter(self)
        }
        #[inline]
        fn leave(&mut self) {
            Decoder::leave(self)
        }
        #[inline]
        fn check_count(&self, count: usize) -> Result<()> {
            Decoder::check_count(self, count)
        }
        fn check_list_len(&self, declared: Option<usize>, count: usize) -> Result<()> {
            Decoder::check_list_len(self, declared, count)
        }
        #[inline]
        fn ref_count(&self) -> usize {
            self.refs
        }
        fn truncate_refs(&mut self, n: usize) {
            Decoder::truncate_refs(self, n)
        }
        fn end(&mut self) -> Result<()> {
            Decoder::end(self)
        }
        fn reset(&mut self) {
            Decoder::reset(self)
        }
    };
}
pub(crate) use forward_token_read;

/// The [`TokenRead`] methods that the decoders of the two binary formats (a [`Read`] in field
/// `read`, byte codes for openings, `$end` the end mark of lists and maps) implement alike.
///
/// [`Read`]: crate::read::Read
macro_rules! byte_token_read {
    ($end:path) => {
        #[inline(always)]
        fn peek(&mut self) -> Result<(Option<Kind>, u64)> {
            let at = self.read.offset();
            match self.read.peek()? {
                Some($end) => Ok((None, at)),
                Some(c) => Ok((Some(kind(c)), at)),
                None => Err(self.err(ErrorKind::UnexpectedEof)),
            }
        }

        #[inline(always)]
        fn close(&mut self) -> Result<()> {
            self.read.next().map(drop)
        }

        #[cold]
        fn invalid(&self, code: u8) -> Error {
            self.unexpected(code, "value")
        }

        fn offset(&self) -> u64 {
            self.read.offset()
        }

        fn rewindable(&self) -> bool {
            R::REWINDABLE
        }

        fn rewind(&mut self, at: u64) -> Option<u64> {
            let back = self.read.offset();
            self.read.rewind_to(at).then_some(back)
        }

        fn restore(&mut self, back: u64) {
            self.read.rewind_to(back);
        }
    };
}
pub(crate) use byte_token_read;
