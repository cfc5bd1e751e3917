//! Type maps of the type negotiation extension ("Hessian 2.1", `docs/negotiation.md`): ordered
//! class definitions named by a digest, so that a message can refer to them instead of carrying
//! them.
//!
//! This module is the codec half: [`TypeMap`] (canonical encoding, digest, limits), the class
//! definitions of a plain message ([`message_classes`]) and the referring header
//! `H 02 01 T 30 <digest>`. Referring calls and replies are written and read by
//! [`serde::message`](crate::serde::message) ([`CallWriter::referring`],
//! [`CallReader::negotiated`], [`reply_into_referring`], [`reply_from_slice_negotiated`]).
//! Only Hessian 2 has referring messages.
//!
//! [`CallWriter::referring`]: crate::serde::message::CallWriter::referring
//! [`CallReader::negotiated`]: crate::serde::message::CallReader::negotiated
//! [`reply_into_referring`]: crate::serde::message::reply_into_referring
//! [`reply_from_slice_negotiated`]: crate::serde::message::reply_from_slice_negotiated
//!
//! ```
//! use hessian::negotiate::TypeMap;
//! use hessian::ClassDef;
//!
//! let map = TypeMap::new([ClassDef::new("t.Money", ["cents", "currency"])]).unwrap();
//! assert_eq!(&map.canonical()[..5], b"HTM1C");
//! assert_eq!(hessian::negotiate::parse_digest(&map.hex()), Some(map.digest()));
//! ```

use crate::error::{Error, ErrorKind, Limits, Result};
use crate::h2::codes::{BC_CALL, BC_FAULT, BC_REPLY, BC_TRUE, BC_VERSION};
use crate::h2::{Decoder, Encoder};
use crate::read::Read;
use crate::serde::ser::{KeptSerializer, Serializer};
use crate::tables::Tables;
use crate::value::ClassDef;
use sha2::{Digest as _, Sha256};
use std::fmt;
use std::sync::Arc;

/// The tag that starts every canonical encoding (version 1 of the extension).
pub const CANONICAL_TAG: [u8; 4] = *b"HTM1";

/// The first bytes of every referring message: `H 02 01 T`.
pub const REFERRING_PREFIX: [u8; 4] = [BC_VERSION, 2, 1, BC_TRUE];

/// The length of a referring message's header `H 02 01 T 30 <16 bytes>`.
pub const REFERRING_HEADER_LEN: usize = 21;

/// A map's digest: the first 16 bytes of SHA-256 over its canonical encoding.
pub type Digest = [u8; 16];

/// Bounds on one map (section 7 of `docs/negotiation.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapLimits {
    /// The most class definitions in one map (default 256).
    pub max_classes: usize,
    /// The most bytes of one map's canonical encoding, `HTM1` included (default 64 KiB).
    pub max_canonical_bytes: usize,
}

impl Default for MapLimits {
    fn default() -> Self {
        MapLimits { max_classes: 256, max_canonical_bytes: 64 * 1024 }
    }
}

/// Why a [`TypeMap`] could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MapError {
    /// More class definitions than [`MapLimits::max_classes`].
    #[error("type map of {count} classes exceeds the limit of {limit}")]
    TooManyClasses {
        /// The number of definitions offered.
        count: usize,
        /// The configured limit.
        limit: usize,
    },
    /// A canonical encoding longer than [`MapLimits::max_canonical_bytes`].
    #[error("type map's canonical encoding exceeds the limit of {limit} bytes")]
    TooLarge {
        /// The configured limit.
        limit: usize,
    },
    /// A definition that Hessian 2 cannot write (more than 2^31-1 fields).
    #[error("class definition cannot be encoded: {0}")]
    Unencodable(Error),
}

/// An ordered list of class definitions, its canonical encoding and its digest.
///
/// Two maps with the same names in the same order are the same map (equal digests); the
/// classes of a map are numbered 0..n-1 in a message that refers to it.
#[derive(Clone)]
pub struct TypeMap {
    classes: Vec<Arc<ClassDef>>,
    canonical: Vec<u8>,
    digest: Digest,
    /// `digest` as 32 hex digits (the form of the HTTP headers), made once.
    hex: String,
    /// Tables seeded with the map, kept from one message that refers to it to the next
    /// (shared by the map's clones).
    seeds: Arc<Seeds>,
}

impl fmt::Debug for TypeMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.classes.iter().map(|c| c.name.as_str()).collect();
        f.debug_struct("TypeMap").field("digest", &self.hex()).field("classes", &names).finish()
    }
}

impl PartialEq for TypeMap {
    fn eq(&self, other: &Self) -> bool {
        self.canonical == other.canonical
    }
}

impl Eq for TypeMap {}

impl TypeMap {
    /// The map of `classes`, in order, within the default [`MapLimits`].
    pub fn new(classes: impl IntoIterator<Item = Arc<ClassDef>>) -> Result<Self, MapError> {
        Self::with_limits(classes, &MapLimits::default())
    }

    /// The map of `classes`, in order, within `limits`.
    pub fn with_limits(classes: impl IntoIterator<Item = Arc<ClassDef>>, limits: &MapLimits) -> Result<Self, MapError> {
        let classes: Vec<Arc<ClassDef>> = classes.into_iter().collect();
        if classes.len() > limits.max_classes {
            return Err(MapError::TooManyClasses { count: classes.len(), limit: limits.max_classes });
        }
        let mut enc = Encoder::vec();
        enc.write_raw(&CANONICAL_TAG).map_err(MapError::Unencodable)?;
        for c in &classes {
            write_definition(&mut enc, c).map_err(MapError::Unencodable)?;
            if enc.position() > limits.max_canonical_bytes as u64 {
                return Err(MapError::TooLarge { limit: limits.max_canonical_bytes });
            }
        }
        let canonical = enc.into_vec();
        let digest = digest_of(&canonical);
        let seeds = Arc::new(Seeds::new(&classes));
        Ok(TypeMap { classes, canonical, digest, hex: to_hex(&digest), seeds })
    }

    /// The class definitions, in order (class number `i` of a referring message is `classes()[i]`).
    pub fn classes(&self) -> &[Arc<ClassDef>] {
        &self.classes
    }

    /// The number of class definitions.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// Whether the map has no class definitions.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// The canonical encoding: `HTM1`, then each definition as Hessian 2 writes it (`C`, name,
    /// field count, field names) in shortest forms.
    pub fn canonical(&self) -> &[u8] {
        &self.canonical
    }

    /// The definitions alone (the canonical encoding without `HTM1`), as a plain message
    /// carries them when it defines the classes in this order.
    pub fn definitions(&self) -> &[u8] {
        &self.canonical[CANONICAL_TAG.len()..]
    }

    /// The digest: the first 16 bytes of SHA-256 over [`canonical`](Self::canonical).
    pub fn digest(&self) -> Digest {
        self.digest
    }

    /// The digest as 32 lower-case hex digits (the form of the HTTP headers).
    pub fn hex(&self) -> String {
        self.hex.clone()
    }

    /// [`hex`](Self::hex) without a copy.
    pub fn hex_str(&self) -> &str {
        &self.hex
    }

    /// The heap bytes this map holds, as an allocator counts them (requested sizes): its own
    /// allocation behind an `Arc`, its class list, canonical bytes and hex digest, and each class
    /// definition's `Arc`, name and field names (counted whole even when a definition is shared
    /// with a decoder's tables, so the figure never undercounts), and the most its seeded tables
    /// may hold (one set per side, kept for the messages that refer to the map, within that
    /// bound). Caches weigh maps by it.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let arc = 2 * size_of::<usize>();
        let classes: usize = self
            .classes
            .iter()
            .map(|c| {
                arc + size_of::<ClassDef>()
                    + c.name.capacity()
                    + c.fields.capacity() * size_of::<String>()
                    + c.fields.iter().map(String::capacity).sum::<usize>()
            })
            .sum();
        arc + size_of::<TypeMap>()
            + arc
            + size_of::<Seeds>()
            + self.seeds.budget.encode()
            + self.seeds.budget.decode()
            + self.classes.capacity() * size_of::<Arc<ClassDef>>()
            + self.canonical.capacity()
            + self.hex.capacity()
            + classes
    }

    /// The referring header `H 02 01 T 30 <digest>` of messages that refer to this map.
    pub fn referring_header(&self) -> [u8; REFERRING_HEADER_LEN] {
        let mut h = [0u8; REFERRING_HEADER_LEN];
        h[..4].copy_from_slice(&REFERRING_PREFIX);
        h[4] = DIGEST_MARKER;
        h[5..].copy_from_slice(&self.digest);
        h
    }
}

/// A map's seeded tables, ready for the next message that refers to it (taken out for the
/// message and given back, reset to the seed, at its end): seeding a message's tables from its
/// map costs more than the class definitions the reference saves. Kept with the map, one set per
/// side (a message on the map while they are out makes its own), so that what one message
/// learned (the serializer's class entries, the decoder's field memo) serves the next on any
/// thread, and goes when the map goes. Their heap bytes are part of the map's
/// ([`TypeMap::heap_bytes`]): tables that grew beyond the seed are shrunk before they are kept.
#[derive(Default)]
pub(crate) struct Seeds {
    /// A serializer whose tables are seeded with the map's classes, with its class entries for
    /// them (`serde::ser`).
    encode: std::sync::Mutex<Option<KeptSerializer>>,
    /// A decoder's tables: the map's classes with the memo that binds their fields to a Rust
    /// type's (boxed: a message swaps them with its decoder's).
    decode: std::sync::Mutex<Option<Box<Tables>>>,
    /// The most heap bytes the kept tables and entries may hold (both sides).
    budget: SeedBudget,
}

/// The heap bytes of a map's kept seeds: its classes in each side's tables, the decoder's memo
/// per class, and the encoder's class entries with their field lists.
#[derive(Clone, Copy, Default)]
struct SeedBudget {
    classes: usize,
    fields: usize,
}

impl SeedBudget {
    fn decode(&self) -> usize {
        Tables::seed_bytes(self.classes, 0, true)
    }

    fn encode(&self) -> usize {
        Serializer::kept_bytes_for(self.classes, self.fields)
    }
}

impl Seeds {
    fn new(classes: &[Arc<ClassDef>]) -> Seeds {
        let budget = SeedBudget { classes: classes.len(), fields: classes.iter().map(|c| c.fields.len()).sum() };
        Seeds { budget, ..Seeds::default() }
    }

    /// Keeps the serializer of a message on a map of `classes` classes for the next one:
    /// as it is when the message left it `clean` ([`Serializer::end_kept`]), else when its tables
    /// hold the seed, within the budget (shrunk if need be).
    pub(crate) fn give_back_encode(&self, classes: usize, mut ser: KeptSerializer, clean: bool) {
        if !clean {
            if !ser.encoder_tables().is_seed_of(classes) {
                return;
            }
            if ser.kept_heap_bytes() > self.budget.encode() {
                ser.shrink_kept();
                if ser.kept_heap_bytes() > self.budget.encode() {
                    return;
                }
            }
        }
        // never waits: with the slot busy, the serializer is simply dropped
        if let Ok(mut slot) = self.encode.try_lock() {
            if slot.is_none() {
                *slot = Some(ser);
            }
        }
    }

    /// Keeps a decoder's tables of a message on a map of `classes` classes for the next one:
    /// as they are when they still hold exactly the seed (the message defined nothing), else
    /// reset to the seed and within the budget (shrunk if need be).
    pub(crate) fn give_back_decode(&self, classes: usize, mut tables: Box<Tables>) {
        if !tables.is_seed_of(classes) || tables.has_index() {
            tables.reset();
            if !tables.is_seed_of(classes) {
                return;
            }
            if tables.heap_bytes() > self.budget.decode() {
                tables.shrink();
                if tables.heap_bytes() > self.budget.decode() {
                    return;
                }
            }
        }
        if let Ok(mut slot) = self.decode.try_lock() {
            if slot.is_none() {
                *slot = Some(tables);
            }
        }
    }
}

impl TypeMap {
    /// A serializer for the next message on the map, writing into `buf`: the one an earlier
    /// message kept when the map has it, else a new one with tables seeded with the map's
    /// classes 0..n-1 (repeats keep their numbers); and how many class entries it starts with.
    /// Give it back with [`Seeds::give_back_encode`].
    pub(crate) fn serializer(&self, buf: Vec<u8>) -> (KeptSerializer, usize) {
        let kept = self.seeds.encode.try_lock().ok().and_then(|mut k| k.take());
        let mut ser = kept.unwrap_or_else(|| Serializer::kept(Tables::for_seed(self.classes.to_vec(), false)));
        let entries = ser.restart(buf);
        (ser, entries)
    }

    /// A decoder's tables seeded with the map's classes 0..n-1, as this thread's definition
    /// cache holds them, with a field memo per class: the kept ones when the map has them, else
    /// new ones. Give them back with [`Seeds::give_back_decode`].
    pub(crate) fn decode_tables(&self) -> Box<Tables> {
        if let Some(t) = self.seeds.decode.try_lock().ok().and_then(|mut k| k.take()) {
            return t;
        }
        Box::new(Tables::for_seed(self.classes.iter().map(crate::h2::decode::intern_class).collect(), true))
    }

    /// Where the map keeps its seeded tables.
    pub(crate) fn seeds(&self) -> &Arc<Seeds> {
        &self.seeds
    }
}

/// Writes `C name count fields` in shortest forms.
fn write_definition(enc: &mut Encoder<Vec<u8>>, c: &ClassDef) -> Result<()> {
    enc.write_raw(&[crate::h2::codes::BC_CLASS_DEF])?;
    enc.write_str(&c.name)?;
    let n = i32::try_from(c.fields.len())
        .map_err(|_| Error::new(ErrorKind::Unencodable("more than 2^31-1 fields".into()), enc.position()))?;
    enc.write_int(n)?;
    for f in &c.fields {
        enc.write_str(f)?;
    }
    Ok(())
}

/// The first 16 bytes of SHA-256 over `canonical`.
pub fn digest_of(canonical: &[u8]) -> Digest {
    let full = Sha256::digest(canonical);
    let mut d = [0u8; 16];
    d.copy_from_slice(&full[..16]);
    d
}

/// A digest as 32 lower-case hex digits.
pub fn to_hex(digest: &Digest) -> String {
    crate::error::digest_hex(digest)
}

/// A digest from 32 hex digits (either case, surrounding whitespace ignored), else `None`.
pub fn parse_digest(s: &str) -> Option<Digest> {
    parse_digest_bytes(s.as_bytes())
}

/// [`parse_digest`] of bytes, such as an HTTP header's value (anything but 32 hex digits and
/// surrounding whitespace is `None`).
pub fn parse_digest_bytes(s: &[u8]) -> Option<Digest> {
    let s = if s.len() == 32 { s } else { s.trim_ascii() };
    let s: &[u8; 32] = s.try_into().ok()?;
    let mut d = [0u8; 16];
    for (i, out) in d.chunks_exact_mut(4).enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[8 * i..8 * i + 8]);
        out.copy_from_slice(&hex_word(u64::from_le_bytes(w))?.to_le_bytes());
    }
    Some(d)
}

/// Eight hex digits (a little-endian load of their ASCII bytes) as the four bytes they spell,
/// else `None`: every byte checked and converted at once, a word at a time (a server parses a
/// reply map's digest on every referring call).
#[inline]
fn hex_word(w: u64) -> Option<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if w & HIGH != 0 {
        return None;
    }
    // every byte is below 0x80, so adding up to 0x50 per byte carries into no other byte:
    // a byte's high bit says whether it is at least the bound (0x80 - k is added)
    let digit = w.wrapping_add(0x50 * ONES) & !w.wrapping_add(0x46 * ONES); // 0x30..=0x39
    let lower = w | (0x20 * ONES); // 'A'..='F' as 'a'..='f'
    let letter = lower.wrapping_add(0x1f * ONES) & !lower.wrapping_add(0x19 * ONES); // 0x61..=0x66
    if (digit | letter) & HIGH != HIGH {
        return None;
    }
    // a digit's value is its low nibble, a letter's its low nibble plus 9 (bit 6 marks letters)
    let nib = (w & (0x0f * ONES)) + ((w >> 6) & ONES) * 9;
    // pairs (first digit in the lower byte) to bytes, then the four bytes together
    let pairs = ((nib & 0x00ff_00ff_00ff_00ff) << 4) | ((nib >> 8) & 0x00ff_00ff_00ff_00ff);
    let quads = (pairs | pairs >> 8) & 0x0000_ffff_0000_ffff;
    Some((quads | quads >> 16) as u32)
}

/// Whether `body` is a referring Hessian 2 message (it starts `H 02 01`).
pub fn is_referring(body: &[u8]) -> bool {
    body.starts_with(&REFERRING_PREFIX[..3])
}

/// The byte in front of the 16 digest bytes of a referring header.
///
/// `docs/negotiation.md` calls `30 <16 bytes>` a 16-byte Hessian 2 binary, but in Hessian 2
/// `0x30` starts a string of 256+ units and a 16-byte binary is `34 10 <16 bytes>`: the
/// extension's header form is `30` and 16 raw bytes, as the Java implementation writes and
/// checks it. Binaries of other lengths are refused by length (a wrong-length digest).
pub const DIGEST_MARKER: u8 = 0x30;

/// Reads the referring header `H 02 01 T 30 <16 bytes>` and returns the digest. A truncated
/// header, another code than `T`, or a digest of another length (a Hessian 2 binary, or
/// anything else) is an error at its offset.
pub(crate) fn read_referring_header<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<Digest> {
    for want in REFERRING_PREFIX {
        let code = dec.read_code()?;
        if code != want {
            return Err(dec.unexpected(code, "referring message header (H 02 01 T)"));
        }
    }
    let at = dec.offset();
    let code = dec.read_code()?;
    if code == DIGEST_MARKER {
        return dec.reader().read_array::<16>();
    }
    if !matches!(code, 0x20..=0x2f | 0x34..=0x37 | b'A' | b'B') {
        return Err(dec.unexpected(code, "type map digest (30 and 16 bytes)"));
    }
    let len = dec.parse_bytes(code)?.len();
    let msg = format!("type map digest of {len} bytes, expected 30 and 16 bytes");
    Err(Error::new(ErrorKind::Malformed(msg), at))
}

/// Seeds `dec` with `map`'s classes (before anything else is read into its tables), after
/// checking that the map fits the per-message class limit. Returns the decoder's own tables,
/// to be swapped back at the message's end ([`unseed_decoder`]).
pub(crate) fn seed_decoder<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>, map: &TypeMap) -> Result<Box<Tables>> {
    let max = dec.limits().max_class_defs;
    if map.len() > max {
        return Err(Error::new(
            ErrorKind::LimitExceeded { what: "class definitions", limit: max as u64 },
            dec.offset().saturating_sub(16),
        ));
    }
    let mut tables = map.decode_tables();
    std::mem::swap(dec.tables_mut(), &mut tables);
    Ok(tables)
}

/// Ends a message [`seed_decoder`] seeded: gives the decoder its own `tables` back and keeps
/// the seeded ones with `map` for its next message.
pub(crate) fn unseed_decoder<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>, map: &TypeMap, mut tables: Box<Tables>) {
    std::mem::swap(dec.tables_mut(), &mut tables);
    map.seeds.give_back_decode(map.len(), tables);
}

/// The class definitions of a complete plain Hessian 2 message (a call `H 02 00 C …`, a reply
/// `… R value` or a fault `… F map`), in the order the message defines them: the map a
/// receiver learns from it (section 4.1). The message is decoded within `limits`.
pub fn message_classes(data: &[u8], limits: Limits) -> Result<Vec<Arc<ClassDef>>> {
    limits.check_message_size(data.len())?;
    let mut dec = Decoder::from_slice(data).with_limits(limits);
    crate::h2::message::read_version(&mut dec)?;
    if data.get(2) != Some(&0) {
        return Err(Error::new(ErrorKind::Malformed("not a plain Hessian 2.0 message".into()), 2));
    }
    match dec.peek_code()? {
        Some(BC_CALL) => {
            crate::h2::message::read_call_body(&mut dec)?;
        }
        Some(BC_REPLY | BC_FAULT) => {
            let _value_or_fault = crate::h2::message::read_reply(&mut dec)?;
        }
        Some(code) => return Err(dec.unexpected(code, "call or reply")),
        None => return Err(Error::new(ErrorKind::UnexpectedEof, dec.offset())),
    }
    dec.end()?;
    Ok(dec.tables().classes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_rejects_junk() {
        let d: Digest = core::array::from_fn(|i| (i * 17) as u8);
        let h = to_hex(&d);
        assert_eq!(h.len(), 32);
        assert_eq!(parse_digest(&h), Some(d));
        assert_eq!(parse_digest(&format!(" {} ", h.to_uppercase())), Some(d));
        assert_eq!(parse_digest(&h[..31]), None);
        assert_eq!(parse_digest(&format!("{}g", &h[..31])), None);
        assert_eq!(parse_digest("é0000000000000000000000000000000"), None);
    }

    #[test]
    fn the_word_parse_agrees_with_digit_by_digit() {
        let naive = |s: &[u8]| -> Option<Digest> {
            let s = s.trim_ascii();
            if s.len() != 32 {
                return None;
            }
            let v = |c: u8| char::from(c).to_digit(16).map(|x| x as u8);
            let mut d = [0u8; 16];
            for i in 0..16 {
                d[i] = v(s[2 * i])? << 4 | v(s[2 * i + 1])?;
            }
            Some(d)
        };
        for at in 0..32 {
            for b in 0..=255u8 {
                let mut s = *b"0123456789abcdefABCDEF0123456789";
                s[at] = b;
                assert_eq!(parse_digest_bytes(&s), naive(&s), "byte {b:#04x} at {at}");
            }
        }
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d: Digest = core::array::from_fn(|i| (x.rotate_left(i as u32 * 5) >> 3) as u8);
            assert_eq!(parse_digest(&to_hex(&d)), Some(d));
            assert_eq!(parse_digest(&to_hex(&d).to_uppercase()), Some(d));
        }
    }

    #[test]
    fn limits_are_typed_errors() {
        let classes: Vec<_> = (0..3).map(|i| ClassDef::new(format!("C{i}"), ["a"])).collect();
        let l = MapLimits { max_classes: 2, ..MapLimits::default() };
        assert!(matches!(
            TypeMap::with_limits(classes.clone(), &l),
            Err(MapError::TooManyClasses { count: 3, limit: 2 })
        ));
        let l = MapLimits { max_canonical_bytes: 10, ..MapLimits::default() };
        assert!(matches!(TypeMap::with_limits(classes.clone(), &l), Err(MapError::TooLarge { limit: 10 })));
        // C 02 "C0" 91 01 "a": 7 bytes each, plus HTM1
        let l = MapLimits { max_canonical_bytes: 4 + 3 * 7, ..MapLimits::default() };
        assert_eq!(TypeMap::with_limits(classes, &l).unwrap().canonical().len(), 25);
        assert_eq!(TypeMap::new([]).unwrap().canonical(), b"HTM1");
    }

    #[test]
    fn kept_seeds_stay_within_the_maps_heap_bytes() {
        let map = TypeMap::new([ClassDef::new("t.A", ["x"]), ClassDef::new("t.B", ["y", "z"])]).unwrap();
        let mut t = map.decode_tables();
        // a message that defined many classes and type names beyond the map's
        for i in 0..40 {
            t.push_class(ClassDef::new(format!("X{i}"), ["f"]));
            t.push_type(format!("[T{i}"));
        }
        assert!(t.heap_bytes() > map.seeds.budget.decode());
        map.seeds().give_back_decode(map.len(), t);
        let kept = map.decode_tables();
        assert_eq!(kept.classes().len(), 2);
        assert!(kept.types().is_empty());
        assert!(kept.heap_bytes() <= map.seeds.budget.decode(), "{} bytes kept", kept.heap_bytes());
        // tables that do not hold the map's seed are not kept
        map.seeds().give_back_decode(map.len(), Box::default());
        assert!(map.seeds.decode.lock().unwrap().is_none());
    }

    #[test]
    fn a_map_serves_messages_on_every_thread_alike() {
        use crate::serde::message::CallWriter;
        #[derive(serde::Serialize)]
        #[serde(rename = "t.A")]
        struct A {
            x: i32,
        }
        let map = Arc::new(TypeMap::new([ClassDef::new("t.A", ["x"])]).unwrap());
        let write = |map: &TypeMap| {
            let mut w = CallWriter::referring(crate::Format::Hessian2, map, "m", 2, Vec::new()).unwrap();
            w.arg(&A { x: 1 }).unwrap();
            w.arg(&A { x: 2 }).unwrap();
            w.finish().unwrap()
        };
        let here = write(&map);
        assert_eq!(write(&map), here, "with the kept tables");
        let there = std::thread::spawn({
            let map = map.clone();
            move || write(&map)
        });
        assert_eq!(there.join().unwrap(), here);
        let mut want = map.referring_header().to_vec();
        want.extend_from_slice(b"C\x01m\x92\x60\x91\x60\x92");
        assert_eq!(here, want);
    }

    #[test]
    fn canonical_bytes_and_header() {
        let m = TypeMap::new([ClassDef::new("t.M", ["x", "yy"])]).unwrap();
        assert_eq!(m.canonical(), b"HTM1C\x03t.M\x92\x01x\x02yy");
        assert_eq!(m.definitions(), b"C\x03t.M\x92\x01x\x02yy");
        let h = m.referring_header();
        assert_eq!(&h[..5], b"H\x02\x01T\x30");
        assert_eq!(h[5..], m.digest());
        assert!(is_referring(&h) && !is_referring(b"H\x02\x00C"));
        let same = TypeMap::new([ClassDef::new("t.M", ["x", "yy"])]).unwrap();
        let other = TypeMap::new([ClassDef::new("t.M", ["yy", "x"])]).unwrap();
        assert_eq!(m, same);
        assert_ne!(m.digest(), other.digest());
    }
}
