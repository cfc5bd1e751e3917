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
use crate::serde::ser::SeedEntries;
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
        Ok(TypeMap { classes, canonical, digest, hex: to_hex(&digest) })
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
    /// with a decoder's tables, so the figure never undercounts). Caches weigh maps by it.
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

/// Which side of a message a thread's seeded tables serve.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// An encoder's: a serializer puts its own definitions in place of the map's equal ones
    /// ([`Tables::replace_class`]), so that the next message finds them by address.
    Encode,
    /// A decoder's: the map's classes as this thread's definition cache holds them, with the
    /// memo that binds their fields to a Rust type's (`intern_class`).
    Decode,
}

thread_local! {
    /// Tables seeded with type maps, ready for the next message that refers to one (taken out
    /// for the message and given back, reset, at its end): seeding a message's tables from its
    /// map costs more than the class definitions the reference saves.
    static SEEDED: std::cell::RefCell<Vec<Seeded>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The clock of [`Seeded::tick`].
    static TICK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// One map's tables on one side, or the place they return to while a message uses them.
struct Seeded {
    side: Side,
    digest: Digest,
    /// `None` while taken.
    tables: Option<Tables>,
    /// An encoder's class entries for the map's classes (`serde::ser`), kept with its tables.
    entries: Option<SeedEntries>,
    /// When they were last given back (the slot given back least recently is reused first).
    tick: u64,
}

/// The most seeded tables a thread keeps, both sides together: at most this many maps' class
/// lists per thread, beyond the maps' own cache (`SECURITY.md`).
const MAX_SEEDED: usize = 16;

/// Tables seeded with `map`'s classes 0..n-1 for one message on `side` (repeats keep their
/// numbers), with the class entries an encoder kept with them: this thread's kept ones when it
/// has them, else new ones. Give them back with [`give_back`] at the message's end.
pub(crate) fn seeded_tables(map: &TypeMap, side: Side) -> (Tables, Option<SeedEntries>) {
    let kept = SEEDED.try_with(|s| {
        let mut s = s.try_borrow_mut().ok()?;
        let e = s.iter_mut().find(|e| e.side == side && e.digest == map.digest && e.tables.is_some())?;
        Some((e.tables.take()?, e.entries.take()))
    });
    if let Some(kept) = kept.ok().flatten() {
        return kept;
    }
    let mut t = Tables::new();
    for c in map.classes() {
        t.push_class(if side == Side::Decode { crate::h2::decode::intern_class(c) } else { c.clone() });
    }
    t.keep_all();
    if side == Side::Decode {
        t.add_field_memo();
    }
    (t, None)
}

/// Keeps the tables of a message that referred to the map `digest` of `classes` classes (taken
/// with [`seeded_tables`]) for this thread's next one, reset to the map's classes.
pub(crate) fn give_back(digest: &Digest, classes: usize, side: Side, mut tables: Tables, entries: Option<SeedEntries>) {
    tables.reset();
    if !tables.is_seed_of(classes) {
        return;
    }
    let _ = SEEDED.try_with(|s| {
        let Ok(mut s) = s.try_borrow_mut() else { return };
        let tick = TICK.get().wrapping_add(1);
        TICK.set(tick);
        // the slot these tables came from (the usual case: only its tables change)
        if let Some(e) = s.iter_mut().find(|e| e.side == side && e.digest == *digest) {
            (e.tables, e.entries, e.tick) = (Some(tables), entries, tick);
            return;
        }
        let entry = Seeded { side, digest: *digest, tables: Some(tables), entries, tick };
        if s.len() < MAX_SEEDED {
            s.push(entry);
        } else if let Some(oldest) = s.iter_mut().min_by_key(|e| (e.tables.is_some(), e.tick)) {
            // an empty slot (its tables taken, maybe never to return), else the one given back
            // least recently
            *oldest = entry;
        }
    });
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
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(32);
    for b in digest {
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 15)]));
    }
    s
}

/// A digest from 32 hex digits (either case, surrounding whitespace ignored), else `None`.
pub fn parse_digest(s: &str) -> Option<Digest> {
    parse_digest_bytes(s.as_bytes())
}

/// [`parse_digest`] of bytes, such as an HTTP header's value (anything but 32 hex digits and
/// surrounding whitespace is `None`).
pub fn parse_digest_bytes(s: &[u8]) -> Option<Digest> {
    /// The value of each hex digit, 0xff for every other byte.
    const NIBBLE: [u8; 256] = {
        let mut t = [0xffu8; 256];
        let mut i = 0;
        while i < 10 {
            t[b'0' as usize + i] = i as u8;
            i += 1;
        }
        let mut i = 0;
        while i < 6 {
            t[b'a' as usize + i] = 10 + i as u8;
            t[b'A' as usize + i] = 10 + i as u8;
            i += 1;
        }
        t
    };
    let s = if s.len() == 32 { s } else { s.trim_ascii() };
    let s: &[u8; 32] = s.try_into().ok()?;
    let mut d = [0u8; 16];
    let mut bad = 0u8;
    for (i, out) in d.iter_mut().enumerate() {
        let (hi, lo) = (NIBBLE[usize::from(s[2 * i])], NIBBLE[usize::from(s[2 * i + 1])]);
        bad |= hi | lo;
        *out = hi << 4 | (lo & 15);
    }
    // a valid digit is at most 15: any 0xff leaves high bits set
    (bad < 16).then_some(d)
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
/// checking that the map fits the per-message class limit.
pub(crate) fn seed_decoder<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>, map: &TypeMap) -> Result<()> {
    let max = dec.limits().max_class_defs;
    if map.len() > max {
        return Err(Error::new(
            ErrorKind::LimitExceeded { what: "class definitions", limit: max as u64 },
            dec.offset().saturating_sub(16),
        ));
    }
    *dec.tables_mut() = seeded_tables(map, Side::Decode).0;
    Ok(())
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
