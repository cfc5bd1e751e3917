//! Typed call and reply envelopes for the three formats: the arguments of a call and the value of
//! a reply go straight between serde types and the wire, with no [`Value`] in between.
//!
//! The arguments of one call are one message, as Java's proxy writes them: class definitions and
//! value references count across arguments, so an object passed twice arrives as the object and
//! a reference to it, and decodes back into two equal values (or one [`Shared`](super::Shared)).
//!
//! ```
//! use hessian::serde::message::{reply_from_slice, reply_to_vec, CallReader, CallWriter};
//! use hessian::{Format, Limits};
//!
//! // the client side of `add(2, 3)`
//! let mut call = CallWriter::new(Format::Hessian2, 2, "add", &[], 2).unwrap();
//! call.arg(&2i32).unwrap();
//! call.arg(&3i32).unwrap();
//! let bytes = call.finish().unwrap();
//! assert_eq!(bytes, b"H\x02\x00C\x03add\x92\x92\x93");
//!
//! // the server side
//! let mut r = CallReader::new(Format::Hessian2, &bytes, Limits::default()).unwrap();
//! assert_eq!(r.method(), "add");
//! let (a, b): (i32, i32) = (r.arg().unwrap(), r.arg().unwrap());
//! r.finish().unwrap();
//! let reply = reply_to_vec(Format::Hessian2, &(a + b)).unwrap();
//!
//! // the client again
//! let sum: Result<i32, _> = reply_from_slice(Format::Hessian2, &reply, Limits::default()).unwrap();
//! assert_eq!(sum, Ok(5));
//! ```

use super::{burlap, h1, h2, ser};
use crate::envelope::Format;
use crate::envelope::{CallHeader, Fault};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::negotiate::{Digest, Seeds, TypeMap};
use crate::read::SliceRead;
use crate::token::{CallRead as _, CallWrite as _, ReplyRead as _, ReplyWrite as _};
use crate::value::{ClassDef, Value};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// `$body` with `$s` bound to the message's serializer, whatever its format: the formats write
/// their envelopes through the same traits (`token::CallWrite`, `token::ReplyWrite`), so one expression
/// serves them all.
macro_rules! each_ser {
    ($any:expr, $s:ident => $body:expr) => {
        match $any {
            AnySerializer::H2($s) => $body,
            AnySerializer::H2Kept($s, _) => $body,
            AnySerializer::H1($s) => $body,
            AnySerializer::Burlap($s) => $body,
        }
    };
}

/// `$body` with `$d` bound to the message's deserializer, whatever its format (the envelopes
/// are read through `token::CallRead` and `token::ReplyRead`).
macro_rules! each_de {
    ($any:expr, $d:ident => $body:expr) => {
        match $any {
            AnyDeserializer::H2($d) => $body,
            AnyDeserializer::H1($d) => $body,
            AnyDeserializer::Burlap($d) => $body,
        }
    };
}

/// The serializer of one format, writing one message into a buffer. Hessian 2's is the one
/// `to_vec` and `to_writer` keep on the thread, lent for the message (`ser::Lent`): its class
/// list, tables and remembered first struct are not built and dropped per call.
#[allow(clippy::large_enum_variant)]
enum AnySerializer {
    H2(ser::Lent),
    /// A referring message's: the serializer its type map keeps, and how many class entries it
    /// started with.
    H2Kept(ser::KeptSerializer, usize),
    H1(h1::Serializer<Vec<u8>>),
    Burlap(burlap::Serializer<Vec<u8>>),
}

impl AnySerializer {
    /// The serializer `map` keeps for referring messages (its tables seeded with the map's
    /// classes: the map's objects are written as `0x60 + i` / `O i`, other classes defined
    /// inline from `map.len()` on); writes the referring header. Hessian 1 and Burlap have no
    /// referring messages.
    fn referring(format: Format, map: &TypeMap, buf: Vec<u8>) -> Result<AnySerializer> {
        if format != Format::Hessian2 {
            let msg = format!("only Hessian 2 has referring messages (type maps), not {format}");
            return Err(Error::new(ErrorKind::Unencodable(msg), 0));
        }
        let (mut ser, entries) = map.serializer(buf);
        ser.encoder().write_raw(&map.referring_header())?;
        Ok(AnySerializer::H2Kept(ser, entries))
    }

    fn new(format: Format, buf: Vec<u8>) -> AnySerializer {
        match format {
            // the one-vector encoder: structs this thread has defined before skip the probe pass
            Format::Hessian2 => AnySerializer::H2(ser::Lent::new(buf)),
            Format::Hessian1 => AnySerializer::H1(h1::Serializer::from_encoder(crate::h1::Encoder::new(buf))),
            Format::Burlap => AnySerializer::Burlap(burlap::Serializer::from_encoder(crate::burlap::Encoder::new(buf))),
        }
    }

    fn value<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        each_ser!(self, s => s.serialize_value(v))
    }

    /// The message's bytes; `seed` gives a referring message's serializer back for the next one.
    fn finish(self, seed: Option<&Seed>) -> Result<Vec<u8>> {
        Ok(self.finish_inner(seed, false)?.0)
    }

    /// The bytes and the class definitions the message defined, in order, after the `seed`'s
    /// (a referring message's map); none in Hessian 1 and Burlap.
    fn finish_with_classes(self, seed: Option<&Seed>) -> Result<(Vec<u8>, Vec<Arc<ClassDef>>)> {
        self.finish_inner(seed, true)
    }

    fn finish_inner(self, seed: Option<&Seed>, inline: bool) -> Result<(Vec<u8>, Vec<Arc<ClassDef>>)> {
        match self {
            AnySerializer::H2(s) => Ok(s.finish(inline)),
            AnySerializer::H2Kept(mut s, entries) => {
                let classes = seed.map_or(0, |m| m.classes);
                let end = s.end_kept(classes, entries, inline);
                if let Some(seed) = seed {
                    seed.seeds.give_back_encode(classes, s, end.clean);
                }
                Ok((end.bytes, end.defined))
            }
            AnySerializer::H1(s) => Ok((s.finish()?, Vec::new())),
            AnySerializer::Burlap(s) => Ok((s.finish()?, Vec::new())),
        }
    }
}

/// The type map of a referring message, as its serializer or tables go back to it: where the
/// map keeps them and its number of classes.
#[derive(Clone)]
struct Seed {
    seeds: Arc<Seeds>,
    classes: usize,
}

impl Seed {
    fn of(map: &TypeMap) -> Seed {
        Seed { seeds: map.seeds().clone(), classes: map.len() }
    }
}

/// Writes one call: the envelope, then each argument with serde, all in one message.
///
/// The bytes are those Java's writers produce for the same call: `Hessian2Output.call`
/// (`H 2 0 C method argc args`), `HessianOutput.call` (`c major 0 [headers] m method args z`,
/// where major 2 is the hybrid Java's proxy sends by default) and `BurlapOutput.call`.
pub struct CallWriter {
    ser: AnySerializer,
    argc: usize,
    written: usize,
    /// The type map a referring call refers to.
    seed: Option<Seed>,
}

impl CallWriter {
    /// Starts a call of `method` with `argc` arguments. `h1_major` is the major version of a
    /// Hessian 1 call's header (1, or 2 for the hybrid answered in Hessian 2); `headers` are
    /// written by Hessian 1 and Burlap (Hessian 2 calls have none: they must be empty).
    pub fn new(format: Format, h1_major: u8, method: &str, headers: &[(String, Value)], argc: usize) -> Result<Self> {
        Self::with_buffer(format, h1_major, method, headers, argc, Vec::new())
    }

    /// Like [`new`](Self::new), writing into `buf` (cleared first), e.g. a buffer kept from an
    /// earlier call.
    pub fn with_buffer(
        format: Format,
        h1_major: u8,
        method: &str,
        headers: &[(String, Value)],
        argc: usize,
        mut buf: Vec<u8>,
    ) -> Result<Self> {
        buf.clear();
        let mut ser = AnySerializer::new(format, buf);
        each_ser!(&mut ser, s => s.envelope_encoder().call_start(h1_major, method, headers, argc))?;
        Ok(CallWriter { ser, argc, written: 0, seed: None })
    }

    /// Starts a referring call of `method` with `argc` arguments (the type negotiation
    /// extension, `docs/negotiation.md` 4.2): `H 02 01 T 30 <digest> C method argc`, then the
    /// arguments written as the plain call would write them with `map`'s classes pre-defined
    /// (class numbers 0..n-1, no `C` entry for them); a class the map lacks is defined inline
    /// and numbered from n. Writes into `buf` (cleared first). Only Hessian 2: other formats
    /// are an [`ErrorKind::Unencodable`] error.
    pub fn referring(format: Format, map: &TypeMap, method: &str, argc: usize, mut buf: Vec<u8>) -> Result<Self> {
        buf.clear();
        let mut ser = AnySerializer::referring(format, map, buf)?;
        if let AnySerializer::H2Kept(s, _) = &mut ser {
            crate::h2::message::write_call_start(s.encoder(), method, argc)?;
        }
        Ok(CallWriter { ser, argc, written: 0, seed: Some(Seed::of(map)) })
    }

    /// Writes the next argument.
    pub fn arg<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.written == self.argc {
            let msg = format!("more arguments than the {} the call declared", self.argc);
            return Err(Error::new(ErrorKind::Unencodable(msg), Error::UNKNOWN_OFFSET));
        }
        self.written += 1;
        self.ser.value(value)
    }

    /// Ends the call and returns its bytes.
    pub fn finish(mut self) -> Result<Vec<u8>> {
        self.end()?;
        self.ser.finish(self.seed.as_ref())
    }

    /// Ends the call and returns its bytes and the class definitions it defined, in the order
    /// it defined them: for a plain Hessian 2 call, the type map it establishes
    /// ([`TypeMap::new`]); for a referring call, the classes defined inline beyond its map.
    /// Hessian 1 and Burlap calls define none.
    pub fn finish_with_classes(mut self) -> Result<(Vec<u8>, Vec<Arc<ClassDef>>)> {
        self.end()?;
        self.ser.finish_with_classes(self.seed.as_ref())
    }

    fn end(&mut self) -> Result<()> {
        if self.written != self.argc {
            let msg = format!("{} arguments written, the call declared {}", self.written, self.argc);
            return Err(Error::new(ErrorKind::Unencodable(msg), Error::UNKNOWN_OFFSET));
        }
        each_ser!(&mut self.ser, s => s.envelope_encoder().call_end())
    }
}

/// Encodes a reply carrying `value` as the format's reply message: `H 2 0 R value`
/// (`Hessian2Output`), `r 1 0 value z` (`HessianOutput`) or `<burlap:reply>value</burlap:reply>`.
pub fn reply_to_vec<T: ?Sized + Serialize>(format: Format, value: &T) -> Result<Vec<u8>> {
    reply_into(format, value, Vec::new())
}

/// Like [`reply_to_vec`], writing into `buf` (cleared first).
pub fn reply_into<T: ?Sized + Serialize>(format: Format, value: &T, mut buf: Vec<u8>) -> Result<Vec<u8>> {
    buf.clear();
    write_reply(AnySerializer::new(format, buf), value)?.finish(None)
}

/// Like [`reply_into`], also returning the class definitions the reply defined, in order (for
/// a Hessian 2 reply, the type map it establishes, `docs/negotiation.md` 5; none in Hessian 1
/// and Burlap).
pub fn reply_into_with_classes<T: ?Sized + Serialize>(
    format: Format,
    value: &T,
    mut buf: Vec<u8>,
) -> Result<(Vec<u8>, Vec<Arc<ClassDef>>)> {
    buf.clear();
    write_reply(AnySerializer::new(format, buf), value)?.finish_with_classes(None)
}

/// Encodes a referring reply carrying `value` (the type negotiation extension): `H 02 01 T 30
/// <digest> R value`, the value written with `map`'s classes pre-defined (numbers 0..n-1, no
/// `C` entry for them; other classes inline from n). Only Hessian 2: other formats are an
/// [`ErrorKind::Unencodable`] error.
pub fn reply_to_vec_referring<T: ?Sized + Serialize>(format: Format, map: &TypeMap, value: &T) -> Result<Vec<u8>> {
    reply_into_referring(format, map, value, Vec::new())
}

/// Like [`reply_to_vec_referring`], writing into `buf` (cleared first).
pub fn reply_into_referring<T: ?Sized + Serialize>(
    format: Format,
    map: &TypeMap,
    value: &T,
    mut buf: Vec<u8>,
) -> Result<Vec<u8>> {
    buf.clear();
    write_reply(AnySerializer::referring(format, map, buf)?, value)?.finish(Some(&Seed::of(map)))
}

/// Writes the reply envelope around `value` (a referring serializer has written its own header
/// and writes only `R`).
fn write_reply<T: ?Sized + Serialize>(mut ser: AnySerializer, value: &T) -> Result<AnySerializer> {
    match &mut ser {
        AnySerializer::H2Kept(s, _) => s.encoder().write_raw(&[crate::h2::codes::BC_REPLY])?,
        other => each_ser!(other, s => s.envelope_encoder().reply_start())?,
    }
    ser.value(value)?;
    each_ser!(&mut ser, s => s.envelope_encoder().reply_end())?;
    Ok(ser)
}

/// The deserializer of one format over a complete message in a slice (so that references into
/// plain types decode as copies, and every error offset is an offset into the message).
#[allow(clippy::large_enum_variant)]
enum AnyDeserializer<'de> {
    H2(h2::Deserializer<'de, SliceRead<'de>>),
    H1(h1::Deserializer<'de, SliceRead<'de>>),
    Burlap(burlap::Deserializer<'de, &'de [u8]>),
}

impl<'de> AnyDeserializer<'de> {
    fn new(format: Format, data: &'de [u8], limits: Limits) -> Result<Self> {
        limits.check_message_size(data.len())?;
        Ok(match format {
            Format::Hessian2 => AnyDeserializer::H2(h2::Deserializer::from_slice(data).with_limits(limits)),
            Format::Hessian1 => AnyDeserializer::H1(h1::Deserializer::from_slice(data).with_limits(limits)),
            Format::Burlap => AnyDeserializer::Burlap(burlap::Deserializer::from_slice(data).with_limits(limits)),
        })
    }

    fn value<T: Deserialize<'de>>(&mut self) -> Result<T> {
        each_de!(self, d => d.deserialize_value())
    }

    /// A value in the format's own [`Value`] model (Hessian 1 and Burlap objects stay typed
    /// maps), read by the format's decoder.
    fn raw_value(&mut self) -> Result<Value> {
        each_de!(self, d => d.decoder().read_value())
    }

    fn offset(&mut self) -> u64 {
        each_de!(self, d => d.decoder().offset())
    }

    /// Reads a call's envelope up to its first argument.
    fn read_call_header(&mut self) -> Result<CallHeader> {
        each_de!(self, d => d.decoder().call_header())
    }

    fn end(&mut self) -> Result<()> {
        each_de!(self, d => d.end())
    }

    /// For a Hessian 2 message starting `H 02 01` (a referring message): reads the header and
    /// the digest only, asks `lookup` for the map (an [`ErrorKind::UnknownTypeMap`] error when
    /// it has none, before anything else is read) and seeds the decoder with its classes.
    /// Anything else is left to be read as a plain message.
    fn referring<F>(&mut self, data: &[u8], lookup: F) -> Result<Option<Referred>>
    where
        F: FnOnce(&Digest) -> Option<Arc<TypeMap>>,
    {
        let AnyDeserializer::H2(d) = self else { return Ok(None) };
        if !crate::negotiate::is_referring(data) {
            return Ok(None);
        }
        let dec = d.decoder();
        let digest = crate::negotiate::read_referring_header(dec)?;
        let Some(map) = lookup(&digest) else {
            return Err(Error::new(ErrorKind::UnknownTypeMap(digest), 5));
        };
        let own = crate::negotiate::seed_decoder(dec, &map)?;
        Ok(Some(Referred { map, own }))
    }

    /// Keeps the tables of a message that referred to a map for the next one on that map.
    fn give_back(&mut self, referred: Referred) {
        if let AnyDeserializer::H2(d) = self {
            crate::negotiate::unseed_decoder(d.decoder(), &referred.map, referred.own);
        }
    }

    /// The class definitions read so far after the first `seeded` (none in Hessian 1 and
    /// Burlap).
    fn classes(&self, seeded: usize) -> &[Arc<ClassDef>] {
        match self {
            AnyDeserializer::H2(d) => d.decoder_ref().tables().classes().get(seeded..).unwrap_or_default(),
            _ => &[],
        }
    }
}

/// The type map a referring message refers to, and its decoder's own tables while the map's
/// seeded ones are in their place.
struct Referred {
    map: Arc<TypeMap>,
    own: Box<crate::tables::Tables>,
}

/// Reads one call: the envelope up to the method name first (so that a server can pick the
/// method), then each argument straight into its serde type, then the end of the call.
pub struct CallReader<'de> {
    de: AnyDeserializer<'de>,
    header: CallHeader,
    read: usize,
    /// The type map of a referring call.
    map: Option<Referred>,
}

impl<'de> CallReader<'de> {
    /// Reads the start of the call in `data` (a complete message) up to its first argument.
    pub fn new(format: Format, data: &'de [u8], limits: Limits) -> Result<Self> {
        let mut de = AnyDeserializer::new(format, data, limits)?;
        let header = de.read_call_header()?;
        Ok(CallReader { de, header, read: 0, map: None })
    }

    /// Like [`new`](Self::new), also reading referring calls (the type negotiation extension,
    /// `docs/negotiation.md` 4.2 and 6): a Hessian 2 body starting `H 02 01 T` has only its
    /// header and digest read before `lookup` is asked for the map; when it has none, the
    /// result is an [`ErrorKind::UnknownTypeMap`] error and nothing else was decoded. With the
    /// map, the call is decoded with its classes as class numbers 0..n-1 (counting towards
    /// [`Limits::max_class_defs`]). Plain bodies read as with [`new`](Self::new), and `lookup`
    /// is not called.
    pub fn negotiated<F>(format: Format, data: &'de [u8], limits: Limits, lookup: F) -> Result<Self>
    where
        F: FnOnce(&Digest) -> Option<Arc<TypeMap>>,
    {
        let mut de = AnyDeserializer::new(format, data, limits)?;
        let map = de.referring(data, lookup)?;
        let header = de.read_call_header()?;
        Ok(CallReader { de, header, read: 0, map })
    }

    /// The type map a referring call refers to (`None` for a plain call).
    pub fn type_map(&self) -> Option<&Arc<TypeMap>> {
        self.map.as_ref().map(|r| &r.map)
    }

    /// The class definitions the call has defined so far, in order (after the map's, for a
    /// referring call). Once every argument is read, for a plain Hessian 2 call, the type map
    /// it establishes ([`TypeMap::new`]). Hessian 1 and Burlap calls define none.
    pub fn classes(&self) -> &[Arc<ClassDef>] {
        self.de.classes(self.map.as_ref().map_or(0, |r| r.map.len()))
    }

    /// The method name as it was sent.
    pub fn method(&self) -> &str {
        &self.header.method
    }

    /// The number of arguments, where the format says it (Hessian 2 only).
    pub fn arg_count(&self) -> Option<usize> {
        self.header.argc
    }

    /// The major version of the call's header (see [`CallHeader::major`]).
    pub fn major(&self) -> u8 {
        self.header.major
    }

    /// The call's headers (Hessian 1 and Burlap).
    pub fn headers(&self) -> &[(String, Value)] {
        &self.header.headers
    }

    /// Takes the call's headers out of the reader.
    pub fn take_headers(&mut self) -> Vec<(String, Value)> {
        std::mem::take(&mut self.header.headers)
    }

    /// How many arguments have been read so far.
    pub fn args_read(&self) -> usize {
        self.read
    }

    /// The offset in the message of the next byte to read (the next argument's first byte).
    pub fn offset(&mut self) -> u64 {
        self.de.offset()
    }

    /// Whether every argument has been read.
    pub fn at_end(&mut self) -> Result<bool> {
        let (header, read) = (&self.header, self.read);
        each_de!(&mut self.de, d => d.decoder().call_done(header, read))
    }

    fn next_arg(&mut self) -> Result<()> {
        if self.at_end()? {
            let at = self.de.offset();
            return Err(Error::new(ErrorKind::Malformed(format!("the call has only {} arguments", self.read)), at));
        }
        self.read += 1;
        Ok(())
    }

    /// Reads the next argument into `T`.
    pub fn arg<T: Deserialize<'de>>(&mut self) -> Result<T> {
        self.next_arg()?;
        self.de.value()
    }

    /// Reads the next argument as a [`Value`] of the call's own format (Hessian 1 and Burlap
    /// objects stay typed maps; [`crate::convert::to_h2`] gives them the Hessian 2 shape).
    pub fn value_arg(&mut self) -> Result<Value> {
        self.next_arg()?;
        self.de.raw_value()
    }

    /// Reads the end of the call: fails if arguments are left or bytes follow the call.
    pub fn finish(mut self) -> Result<()> {
        self.end()
    }

    /// Like [`finish`](Self::finish), returning the call's [`classes`](Self::classes).
    pub fn finish_with_classes(mut self) -> Result<Vec<Arc<ClassDef>>> {
        self.end()?;
        Ok(self.classes().to_vec())
    }

    fn end(&mut self) -> Result<()> {
        if !self.at_end()? {
            let at = self.de.offset();
            return Err(Error::new(ErrorKind::Malformed(format!("more than {} arguments", self.read)), at));
        }
        each_de!(&mut self.de, d => d.decoder().call_end())?;
        self.de.end()
    }
}

impl Drop for CallReader<'_> {
    fn drop(&mut self) {
        if let Some(referred) = self.map.take() {
            self.de.give_back(referred);
        }
    }
}

/// Decodes a complete reply in `format`: its value into `T`, or the fault it carries. Errors
/// (a malformed envelope, a value that is no `T`) carry offsets into `data`.
pub fn reply_from_slice<'de, T: Deserialize<'de>>(
    format: Format,
    data: &'de [u8],
    limits: Limits,
) -> Result<std::result::Result<T, Fault>> {
    let mut de = AnyDeserializer::new(format, data, limits)?;
    read_reply(&mut de)
}

/// A reply read by [`reply_from_slice_negotiated`].
#[derive(Debug)]
pub struct NegotiatedReply<T> {
    /// The value, or the fault the reply carries.
    pub reply: std::result::Result<T, Fault>,
    /// The type map a referring reply refers to (`None` for a plain reply).
    pub type_map: Option<Arc<TypeMap>>,
    /// The class definitions the reply defined, in order (after the map's, for a referring
    /// reply): for a plain Hessian 2 reply, the type map it establishes.
    pub classes: Vec<Arc<ClassDef>>,
}

/// Like [`reply_from_slice`], also reading referring replies (`H 02 01 T 30 <digest> R value`
/// or `… F fault`, the type negotiation extension): `lookup` is asked for the map after the
/// header and digest and before anything else is read; without it the result is an
/// [`ErrorKind::UnknownTypeMap`] error. Plain replies read as with [`reply_from_slice`].
pub fn reply_from_slice_negotiated<'de, T, F>(
    format: Format,
    data: &'de [u8],
    limits: Limits,
    lookup: F,
) -> Result<NegotiatedReply<T>>
where
    T: Deserialize<'de>,
    F: FnOnce(&Digest) -> Option<Arc<TypeMap>>,
{
    let mut de = AnyDeserializer::new(format, data, limits)?;
    let referred = de.referring(data, lookup)?;
    let reply = read_reply(&mut de);
    let classes = de.classes(referred.as_ref().map_or(0, |r| r.map.len())).to_vec();
    let type_map = referred.map(|r| {
        let map = r.map.clone();
        de.give_back(r);
        map
    });
    Ok(NegotiatedReply { reply: reply?, type_map, classes })
}

fn read_reply<'de, T: Deserialize<'de>>(de: &mut AnyDeserializer<'de>) -> Result<std::result::Result<T, Fault>> {
    let fault = each_de!(&mut *de, d => d.decoder().reply_header())?;
    if let Some(f) = fault {
        de.end()?;
        return Ok(Err(f));
    }
    let v = de.value()?;
    each_de!(&mut *de, d => d.decoder().reply_end())?;
    de.end()?;
    Ok(Ok(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::Call;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    #[serde(rename = "t.Money")]
    struct Money {
        cents: i32,
        currency: String,
    }

    const FORMATS: [(Format, u8); 4] =
        [(Format::Hessian2, 2), (Format::Hessian1, 1), (Format::Hessian1, 2), (Format::Burlap, 1)];

    fn value_call_bytes(format: Format, major: u8, call: &Call) -> Vec<u8> {
        match format {
            Format::Hessian2 => crate::h2::message::call_to_vec(call).unwrap(),
            Format::Hessian1 => crate::h1::call_to_vec_versioned(call, major).unwrap(),
            Format::Burlap => crate::burlap::call_to_vec(call).unwrap(),
        }
    }

    #[test]
    fn typed_calls_are_the_value_paths_bytes_and_read_back() {
        let m = Money { cents: 1250, currency: "EUR".into() };
        for (format, major) in FORMATS {
            let mut w = CallWriter::new(format, major, "pay", &[], 3).unwrap();
            w.arg(&m).unwrap();
            w.arg("memo").unwrap();
            w.arg(&m).unwrap();
            let bytes = w.finish().unwrap();
            // the same call through the Value model: the arguments as one message
            let args =
                vec![crate::serde::to_value(&m).unwrap(), Value::string("memo"), crate::serde::to_value(&m).unwrap()];
            let args = match format {
                Format::Hessian2 => args,
                _ => args.iter().map(crate::convert::to_h1).collect(),
            };
            assert_eq!(bytes, value_call_bytes(format, major, &Call::new("pay", args)), "{format} {major}");

            let mut r = CallReader::new(format, &bytes, Limits::default()).unwrap();
            assert_eq!((r.method(), r.major()), ("pay", major));
            assert_eq!(r.arg_count(), (format == Format::Hessian2).then_some(3));
            assert_eq!(r.arg::<Money>().unwrap(), m);
            assert_eq!(r.arg::<String>().unwrap(), "memo");
            assert!(!r.at_end().unwrap());
            assert_eq!(r.arg::<Money>().unwrap(), m);
            assert!(r.at_end().unwrap());
            r.finish().unwrap();
        }
    }

    #[test]
    fn argument_count_mismatches_are_errors() {
        for (format, major) in FORMATS {
            let mut w = CallWriter::new(format, major, "f", &[], 1).unwrap();
            w.arg(&1i32).unwrap();
            assert!(w.arg(&2i32).is_err());
            let w = CallWriter::new(format, major, "f", &[], 1).unwrap();
            assert!(w.finish().is_err());

            let mut w = CallWriter::new(format, major, "f", &[], 2).unwrap();
            w.arg(&1i32).unwrap();
            w.arg(&2i32).unwrap();
            let bytes = w.finish().unwrap();
            let mut r = CallReader::new(format, &bytes, Limits::default()).unwrap();
            r.arg::<i32>().unwrap();
            let e = r.finish().unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{format}: {e}");
            let mut r = CallReader::new(format, &bytes, Limits::default()).unwrap();
            r.arg::<i32>().unwrap();
            r.arg::<i32>().unwrap();
            assert!(r.arg::<i32>().is_err());
        }
    }

    #[test]
    fn type_errors_point_into_the_message() {
        for (format, major) in FORMATS {
            let mut w = CallWriter::new(format, major, "f", &[], 2).unwrap();
            w.arg(&1i32).unwrap();
            w.arg("not a number").unwrap();
            let bytes = w.finish().unwrap();
            let mut r = CallReader::new(format, &bytes, Limits::default()).unwrap();
            r.arg::<i32>().unwrap();
            let at = r.offset();
            let e = r.arg::<i32>().unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::InvalidType { .. }), "{format}: {e}");
            assert!(e.offset() >= at && e.offset() < bytes.len() as u64, "{format}: {e} (arg at {at})");
        }
    }

    #[test]
    fn replies_and_faults_read_back() {
        let m = Money { cents: 7, currency: "GBP".into() };
        let fault = Fault::new("ServiceException", "boom");
        for format in [Format::Hessian2, Format::Hessian1, Format::Burlap] {
            let bytes = reply_to_vec(format, &m).unwrap();
            let value_bytes = match format {
                Format::Hessian2 => crate::h2::message::reply_to_vec(&Ok(crate::serde::to_value(&m).unwrap())),
                Format::Hessian1 => {
                    crate::h1::reply_to_vec(&Ok(crate::convert::to_h1(&crate::serde::to_value(&m).unwrap())))
                }
                Format::Burlap => {
                    crate::burlap::reply_to_vec(&Ok(crate::convert::to_h1(&crate::serde::to_value(&m).unwrap())))
                }
            }
            .unwrap();
            assert_eq!(bytes, value_bytes, "{format}");
            assert_eq!(reply_from_slice::<Money>(format, &bytes, Limits::default()).unwrap(), Ok(m.clone()));
            let e = reply_from_slice::<i32>(format, &bytes, Limits::default()).unwrap_err();
            assert!(e.offset() > 0 && e.offset() < bytes.len() as u64, "{format}: {e}");
            for n in 0..bytes.len() {
                assert!(reply_from_slice::<Money>(format, &bytes[..n], Limits::default()).is_err(), "{format} {n}");
            }
            // a fault with a message, and one whose message is null (Java's `N`)
            let no_message = Fault { message: None, ..fault.clone() };
            for fault in [&fault, &no_message] {
                let fb = match format {
                    Format::Hessian2 => crate::h2::message::reply_to_vec(&Err(fault.clone())),
                    Format::Hessian1 => crate::h1::reply_to_vec(&Err(fault.clone())),
                    Format::Burlap => crate::burlap::reply_to_vec(&Err(fault.clone())),
                }
                .unwrap();
                if fault.message.is_none() {
                    let null: &[u8] = if format == Format::Burlap { b"<null></null>" } else { b"N" };
                    assert!(fb.windows(null.len()).any(|w| w == null), "{format}: the null message is written");
                }
                assert_eq!(reply_from_slice::<Money>(format, &fb, Limits::default()).unwrap(), Err(fault.clone()));
            }
        }
    }

    #[test]
    fn hessian2_calls_carry_no_headers() {
        let h = vec![("h".to_owned(), Value::Int(1))];
        assert!(CallWriter::new(Format::Hessian2, 2, "f", &h, 0).is_err());
        let mut w = CallWriter::new(Format::Hessian1, 1, "f", &h, 0).unwrap();
        assert!(w.arg(&1).is_err());
        let bytes = w.finish().unwrap();
        let r = CallReader::new(Format::Hessian1, &bytes, Limits::default()).unwrap();
        assert_eq!(r.headers(), &h[..]);
    }
}
