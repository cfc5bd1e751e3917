//! Hessian 2.0 encoder, byte-identical to Caucho 4.0.38's `Hessian2Output`.
//!
//! `Hessian2Output` writes through an 8 KiB buffer and the size of binary chunks depends on how
//! full that buffer is, so this encoder keeps the same buffer and flushes it at the same points.
//! That also makes it a buffered writer for any `std::io::Write`.

use super::codes::*;
use crate::error::{Error, ErrorKind, Result};
use crate::tables::Tables;
use crate::token::{self, forward_token_write, TokenWrite};
use crate::value::{ClassDef, Object, Value};
use std::io::Write;
use std::sync::Arc;

/// Writes Hessian 2.0 values to a `std::io::Write`. Call [`finish`](Self::finish) (or
/// [`flush`](Self::flush)) at the end: output is buffered.
pub struct Encoder<W: Write> {
    out: W,
    buf: Vec<u8>,
    flushed: u64,
    tables: Tables,
    /// Start of Java's buffer window in `buf`. In direct mode (see [`Encoder::vec`]) `buf` is the
    /// whole output and a flush only moves the window; otherwise it is always 0.
    base: usize,
    direct: bool,
    /// One past the `buf.len()` at or below which a write of at most [`SMALL`] code bytes plus
    /// `n` payload bytes (checked as `len + n < limit`) needs neither a flush of Java's buffer nor
    /// a bigger vector: `min(base + FAST_FILL, capacity - SMALL) + 1`, or 0 (no write fits) while
    /// the vector has less than [`SMALL`] bytes of room, e.g. an empty one not yet grown.
    /// Recomputed after every slow path; a stale value is only ever too low (the capacity never
    /// shrinks and `base` never goes back while writing), so it can cost a slow path but never
    /// skip a flush.
    ///
    /// The unchecked stores (`put_word`, `put_code_u64`, `copy_ascii`) rely on it: only
    /// `update_limit` sets it, from the current capacity, and nothing shrinks `buf`.
    limit: usize,
}

/// The most code bytes (type codes, lengths, fixed-size payloads) a fast-path write adds besides
/// its variable payload.
const SMALL: usize = 16;

/// The fill of Java's buffer below which none of `Hessian2Output`'s flush checks fires for a
/// fast-path write (the strictest is the string form's `offset + len + 18 <= SIZE`, which holds
/// for `fill + len <= SIZE - 18`; 48 leaves a margin).
const FAST_FILL: usize = JAVA_BUFFER_SIZE - 48;

impl Encoder<Vec<u8>> {
    /// An encoder that builds its output in one vector, without copying it out of a separate
    /// buffer (Java's buffer is emulated as a window, so the bytes are the same). Take the result
    /// with [`into_vec`](Self::into_vec).
    pub fn vec() -> Self {
        Self::vec_with_capacity(64)
    }

    /// [`vec`](Self::vec) with room for `capacity` bytes (at least 64) from the start (the
    /// bytes written do not depend on it).
    pub(crate) fn vec_with_capacity(capacity: usize) -> Self {
        Self::vec_from(Vec::with_capacity(capacity.max(64)))
    }

    /// [`vec`](Self::vec) writing into `buf` (cleared first), e.g. a buffer kept from an
    /// earlier message.
    pub(crate) fn vec_from(buf: Vec<u8>) -> Self {
        Self::vec_with_tables(buf, Tables::new())
    }

    /// [`vec_from`](Self::vec_from) with `tables` (e.g. seeded with a type map).
    pub(crate) fn vec_with_tables(mut buf: Vec<u8>, tables: Tables) -> Self {
        buf.clear();
        let mut e = Encoder { out: Vec::new(), buf, flushed: 0, tables, base: 0, direct: true, limit: 0 };
        e.update_limit();
        e
    }

    /// Starts a new message of a one-vector encoder into `buf` (cleared first), keeping the
    /// tables as they are (a type map's kept encoder, `serde::ser::KeptSerializer`).
    pub(crate) fn restart_into(&mut self, buf: Vec<u8>) {
        self.buf = buf;
        self.restart();
    }

    /// Starts a new message of a one-vector encoder in its own vector (cleared), keeping the
    /// tables as they are.
    #[inline]
    pub(crate) fn restart(&mut self) {
        debug_assert!(self.direct, "only a one-vector encoder restarts");
        self.buf.clear();
        self.flushed = 0;
        self.base = 0;
        // the fast paths' limit follows the vector's capacity
        self.update_limit();
    }

    /// Starts a new message of a one-vector encoder into `buf` (cleared first) and hands back
    /// the vector it had, with what was written into it.
    #[inline]
    pub(crate) fn swap_output(&mut self, buf: Vec<u8>) -> Vec<u8> {
        let old = std::mem::replace(&mut self.buf, buf);
        self.restart();
        old
    }

    /// The bytes written so far by a one-vector encoder.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The room of a one-vector encoder's vector.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Takes the bytes written by a one-vector encoder, leaving it without an output until
    /// [`restart_into`](Self::restart_into) (a write before that grows a new vector).
    pub(crate) fn take_vec(&mut self) -> Vec<u8> {
        debug_assert!(self.direct, "only a one-vector encoder hands its vector out");
        self.swap_output(Vec::new())
    }

    /// The bytes written (for an encoder made by [`vec`](Self::vec), without a copy).
    pub fn into_vec(mut self) -> Vec<u8> {
        if self.direct {
            return self.buf;
        }
        self.out.extend_from_slice(&self.buf);
        self.out
    }
}

impl<W: Write> Encoder<W> {
    /// An encoder with empty tables.
    pub fn new(out: W) -> Self {
        Self::with_tables(out, Tables::new())
    }

    /// An encoder whose class and type tables start from `tables` (e.g. pre-seeded by the
    /// type-negotiation extension): classes already present are referenced, not redefined.
    pub fn with_tables(out: W, tables: Tables) -> Self {
        let mut e = Encoder {
            out,
            buf: Vec::with_capacity(JAVA_BUFFER_SIZE),
            flushed: 0,
            tables,
            base: 0,
            direct: false,
            limit: 0,
        };
        e.update_limit();
        e
    }

    /// The class and type tables as they stand.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// Mutable access to the tables (to seed or reset them between messages).
    pub fn tables_mut(&mut self) -> &mut Tables {
        &mut self.tables
    }

    /// Bytes produced so far (flushed or buffered).
    pub fn position(&self) -> u64 {
        self.flushed + self.buf.len() as u64
    }

    /// Drops everything written after `position` if it is all still buffered (used by the serde
    /// serializer to redo a value); returns whether it could.
    pub(crate) fn rewind(&mut self, position: u64) -> bool {
        match position.checked_sub(self.flushed) {
            Some(keep) if self.base <= keep as usize && keep as usize <= self.buf.len() => {
                self.buf.truncate(keep as usize);
                true
            }
            _ => false,
        }
    }

    /// Where Java's buffer window starts (see [`rewind_to`](Self::rewind_to)).
    #[inline]
    pub(crate) fn window(&self) -> usize {
        self.base
    }

    /// Like [`rewind`](Self::rewind), and in direct mode (see [`Encoder::vec`]) also back over
    /// flushes of Java's window since `position`, given the window start `window` recorded there
    /// (the whole output is still in the vector, and the window start is all the state a flush
    /// changed, so the encoder is then exactly as it was at `position`).
    pub(crate) fn rewind_to(&mut self, position: u64, window: usize) -> bool {
        if self.direct && window <= position as usize && position as usize <= self.buf.len() && window <= self.base {
            self.buf.truncate(position as usize);
            self.base = window;
            self.update_limit();
            return true;
        }
        self.rewind(position)
    }

    /// Whether this encoder builds its output in one vector (see [`Encoder::vec`]), so that
    /// [`rewind_to`](Self::rewind_to) can always go back.
    #[inline]
    pub(crate) fn is_direct(&self) -> bool {
        self.direct
    }

    /// Writes a class definition without looking at or adding to the tables: `bytes` are what
    /// [`write_class_def`](Self::write_class_def) writes for `class` (they do not depend on the
    /// buffer's state, Java's flush points aside, which this respects).
    #[inline]
    pub(crate) fn write_class_def_bytes(&mut self, bytes: &[u8], class: &ClassDef) -> Result<()> {
        // Below the limit none of the flush checks of the parts fires (see `limit`). The first
        // of them is `flushIfFull`'s, which `room` makes with the same rule.
        self.room(bytes.len(), Flush::Lt32)?;
        if self.write_below_limit(bytes) {
            return Ok(());
        }
        self.put_class_def(class)
    }

    /// Appends `bytes` (a class definition's, see
    /// [`write_class_def_bytes`](Self::write_class_def_bytes)) if they fit below the fast paths'
    /// limit, where none of Java's flush checks fires; returns whether it did.
    #[inline(always)]
    pub(crate) fn write_below_limit(&mut self, bytes: &[u8]) -> bool {
        let (len, n) = (self.buf.len(), bytes.len());
        if len + n >= self.limit {
            return false;
        }
        if n > SHORT_ASCII {
            self.buf.extend_from_slice(bytes);
            return true;
        }
        // SAFETY: below the limit the vector has room for `n` bytes and `SMALL` more;
        // `copy_short` copies exactly `n <= SHORT_ASCII` bytes (its ASCII verdict is not needed),
        // and they are initialized before the length covers them.
        unsafe {
            crate::ascii::copy_short(bytes.as_ptr(), self.buf.as_mut_ptr().add(len), n);
            self.buf.set_len(len + n);
        }
        true
    }

    /// The bytes written from `position` on, if they are all still in the buffer.
    pub(crate) fn bytes_from(&self, position: u64) -> Option<&[u8]> {
        let at = usize::try_from(position.checked_sub(self.flushed)?).ok()?;
        self.buf.get(at..)
    }

    /// The bytes of a class definition (`C`, name, field count, fields), with Java's flushes.
    fn put_class_def(&mut self, class: &ClassDef) -> Result<()> {
        self.reserve32()?;
        self.buf.push(BC_CLASS_DEF);
        self.write_str(&class.name)?;
        let n = self.len_i32(class.fields.len())?;
        self.write_int(n)?;
        for f in &class.fields {
            self.write_str(f)?;
        }
        Ok(())
    }

    /// Writes out the buffer and flushes the underlying writer.
    pub fn flush(&mut self) -> Result<()> {
        self.flush_buffer()?;
        self.out.flush().map_err(|e| self.io_err(e))
    }

    /// Flushes and returns the underlying writer.
    pub fn finish(mut self) -> Result<W> {
        if self.direct {
            self.direct = false;
            self.base = 0;
        }
        self.flush()?;
        Ok(self.out)
    }

    fn io_err(&self, e: std::io::Error) -> Error {
        Error::new(ErrorKind::Io(e), self.position())
    }

    /// Tells a direct-mode encoder (see [`Encoder::vec`]) that about `additional` more bytes will
    /// follow, so it can grow its vector once instead of doubling (no effect otherwise).
    pub(crate) fn reserve_hint(&mut self, additional: usize) {
        if self.direct {
            self.buf.reserve(additional.min(64 << 20));
            self.update_limit();
        }
    }

    /// How full Java's buffer would be.
    #[inline(always)]
    fn fill(&self) -> usize {
        self.buf.len() - self.base
    }

    /// `Hessian2Output.flushBuffer`: hands the buffer to the writer and starts it over.
    fn flush_buffer(&mut self) -> Result<()> {
        if self.direct {
            self.base = self.buf.len();
            self.update_limit();
            return Ok(());
        }
        if !self.buf.is_empty() {
            if let Err(e) = self.out.write_all(&self.buf) {
                return Err(self.io_err(e));
            }
            self.flushed += self.buf.len() as u64;
            self.buf.clear();
        }
        Ok(())
    }

    /// Recomputes [`limit`](Self::limit) after the capacity or Java's window moved.
    #[inline]
    fn update_limit(&mut self) {
        self.limit = match self.buf.capacity().checked_sub(SMALL) {
            Some(room) => (self.base + FAST_FILL).min(room) + 1,
            None => 0,
        };
    }

    /// Prepares a write of at most [`SMALL`] code bytes plus `n` payload bytes whose Java
    /// counterpart checks the buffer with `rule`: one comparison when nothing is to be done.
    #[inline(always)]
    fn room(&mut self, n: usize, rule: Flush) -> Result<()> {
        if self.buf.len() + n < self.limit {
            Ok(())
        } else {
            self.room_slow(n, rule)
        }
    }

    #[cold]
    #[inline(never)]
    fn room_slow(&mut self, n: usize, rule: Flush) -> Result<()> {
        let fill = self.fill();
        let flush = match rule {
            Flush::Le16 => JAVA_BUFFER_SIZE <= fill + 16,
            Flush::Lt16 => JAVA_BUFFER_SIZE < fill + 16,
            Flush::Lt32 => JAVA_BUFFER_SIZE < fill + 32,
        };
        if flush {
            self.flush_buffer()?;
        }
        self.buf.reserve(n + SMALL);
        self.update_limit();
        Ok(())
    }

    /// Flush when `SIZE <= offset + 16` (writeInt, writeLong, writeDouble, writeNull, writeString).
    #[inline]
    fn reserve16_le(&mut self) -> Result<()> {
        self.room(0, Flush::Le16)
    }

    /// Flush when `SIZE < offset + 16` (writeBoolean, writeRef, writeBytes).
    #[inline]
    fn reserve16_lt(&mut self) -> Result<()> {
        self.room(0, Flush::Lt16)
    }

    /// Flush when `SIZE < offset + 32` (flushIfFull, maps, objects, dates).
    #[inline]
    fn reserve32(&mut self) -> Result<()> {
        self.room(0, Flush::Lt32)
    }

    /// Writes raw bytes, e.g. an envelope code, as `flushIfFull` then the bytes.
    pub fn write_raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.reserve32()?;
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    /// Appends the first `n` (at most 8) bytes of `word` in little-endian order, i.e. its low byte
    /// first (all 8 are stored, which lets the variable-length forms share one store).
    ///
    /// # Safety
    /// At least 8 bytes of spare capacity: call only after [`room`](Self::room) in the same
    /// write, which leaves [`SMALL`] of them (plus the payload it was told about), and count
    /// every byte a write appends against that.
    #[inline(always)]
    unsafe fn put_word(&mut self, word: u64, n: usize) {
        let len = self.buf.len();
        debug_assert!(self.buf.capacity() - len >= 8, "encoder wrote past the room it made");
        // SAFETY: 8 bytes of spare capacity per the contract; all 8 are written, and the length
        // grows by at most 8.
        unsafe {
            std::ptr::write_unaligned(self.buf.as_mut_ptr().add(len) as *mut [u8; 8], word.to_le_bytes());
            self.buf.set_len(len + n.min(8));
        }
    }

    /// Appends a byte code and a big-endian 64-bit payload (9 bytes).
    ///
    /// # Safety
    /// At least 9 bytes of spare capacity (see [`put_word`](Self::put_word)).
    #[inline(always)]
    unsafe fn put_code_u64(&mut self, code: u8, payload: u64) {
        let len = self.buf.len();
        debug_assert!(self.buf.capacity() - len >= 9, "encoder wrote past the room it made");
        // SAFETY: 9 bytes of spare capacity per the contract, all written.
        unsafe {
            let p = self.buf.as_mut_ptr().add(len);
            *p = code;
            std::ptr::write_unaligned(p.add(1) as *mut [u8; 8], payload.to_be_bytes());
            self.buf.set_len(len + 9);
        }
    }

    /// Writes `null`.
    #[inline]
    pub fn write_null(&mut self) -> Result<()> {
        self.reserve16_le()?;
        // SAFETY: `room` above left SMALL bytes of spare capacity.
        unsafe { self.put_word(u64::from(BC_NULL), 1) };
        Ok(())
    }

    /// Writes a boolean.
    #[inline]
    pub fn write_bool(&mut self, v: bool) -> Result<()> {
        self.reserve16_lt()?;
        // SAFETY: `room` above left SMALL bytes of spare capacity.
        unsafe { self.put_word(u64::from(if v { BC_TRUE } else { BC_FALSE }), 1) };
        Ok(())
    }

    /// Writes an int in its most compact form.
    #[inline]
    pub fn write_int(&mut self, v: i32) -> Result<()> {
        self.reserve16_le()?;
        let (word, n) = int_word(v);
        // SAFETY: `room` above left SMALL bytes of spare capacity.
        unsafe { self.put_word(word, n) };
        Ok(())
    }

    /// Writes a long in its most compact form.
    #[inline]
    pub fn write_long(&mut self, v: i64) -> Result<()> {
        self.reserve16_le()?;
        if let Ok(i) = i32::try_from(v) {
            let (word, n) = long_word(i);
            // SAFETY: `room` above left SMALL bytes of spare capacity.
            unsafe { self.put_word(word, n) };
        } else {
            // SAFETY: `room` above left SMALL bytes of spare capacity.
            unsafe { self.put_code_u64(BC_LONG, v as u64) };
        }
        Ok(())
    }

    /// Writes a double, choosing the compact forms exactly as Java does (including writing
    /// `-0.0` as the zero byte code).
    #[inline]
    pub fn write_double(&mut self, v: f64) -> Result<()> {
        self.reserve16_le()?;
        match double_word(v) {
            // SAFETY (both): `room` above left SMALL bytes of spare capacity.
            Some((word, n)) => unsafe { self.put_word(word, n) },
            // Java writes Double.doubleToLongBits(value), which collapses every NaN to one bit
            // pattern; a NaN with another payload must not reach the wire unchanged.
            None => unsafe {
                self.put_code_u64(BC_DOUBLE, if v.is_nan() { 0x7ff8_0000_0000_0000 } else { v.to_bits() })
            },
        }
        Ok(())
    }

    /// Writes a date (milliseconds since the epoch, UTC); whole minutes use the compact form.
    #[inline]
    pub fn write_date(&mut self, millis: i64) -> Result<()> {
        self.reserve32()?;
        let minutes = millis / 60000;
        if minutes * 60000 == millis && (minutes >> 31 == 0 || minutes >> 31 == -1) {
            // SAFETY: `room` above left SMALL bytes of spare capacity.
            unsafe { self.put_word(code_be32(BC_DATE_MINUTE, minutes as u32), 5) };
        } else {
            // SAFETY: `room` above left SMALL bytes of spare capacity.
            unsafe { self.put_code_u64(BC_DATE, millis as u64) };
        }
        Ok(())
    }

    /// Writes a string: compact, short or chunked forms with lengths in UTF-16 code units;
    /// characters outside the BMP become two 3-byte surrogate sequences, as Java writes them.
    #[inline(always)]
    pub fn write_str(&mut self, s: &str) -> Result<()> {
        // Common case, kept small so that it inlines: an ASCII string of at most SHORT_ASCII
        // bytes that fits without any flush; the copy checks that it is ASCII on the way.
        let len = s.len();
        if len <= SHORT_ASCII && self.buf.len() + len < self.limit {
            // SAFETY: the limit check leaves `len` + SMALL bytes of spare capacity.
            if unsafe { put_short_ascii(&mut self.buf, s.as_bytes()) } {
                return Ok(());
            }
        }
        self.write_str_slow(s)
    }

    /// Every string the inlined fast path of [`write_str`](Self::write_str) does not take.
    #[inline(never)]
    fn write_str_slow(&mut self, s: &str) -> Result<()> {
        if !s.is_ascii() {
            return self.write_utf16_str(s);
        }
        let bytes = s.as_bytes();
        if bytes.len() <= STRING_SHORT_MAX && self.buf.len() + bytes.len() < self.limit {
            // Longer than the inline path takes, but no flush is due (the limit check).
            self.put_str_header(bytes.len());
            self.buf.extend_from_slice(bytes);
            return Ok(());
        }
        self.write_long_ascii_str(bytes)
    }

    /// Strings with non-ASCII characters: work on UTF-16 units, as Java does.
    #[cold]
    fn write_utf16_str(&mut self, s: &str) -> Result<()> {
        self.reserve16_le()?;
        let units: Vec<u16> = s.encode_utf16().collect();
        let mut off = 0usize;
        let mut len = units.len();
        while len > STRING_CHUNK_MAX {
            let mut sub = STRING_CHUNK_MAX;
            self.reserve16_le()?;
            let tail = units[off + sub - 1];
            if (0xd800..=0xdbff).contains(&tail) {
                sub -= 1;
            }
            self.buf.extend_from_slice(&[BC_STRING_CHUNK, (sub >> 8) as u8, sub as u8]);
            self.print_units(&units[off..off + sub])?;
            len -= sub;
            off += sub;
        }
        self.reserve16_le()?;
        self.put_str_header(len);
        self.print_units(&units[off..])
    }

    fn put_str_header(&mut self, len: usize) {
        if len <= STRING_DIRECT_MAX {
            self.buf.push(BC_STRING_DIRECT + len as u8);
        } else if len <= STRING_SHORT_MAX {
            self.buf.extend_from_slice(&[BC_STRING_SHORT + (len >> 8) as u8, len as u8]);
        } else {
            self.buf.extend_from_slice(&[BC_STRING, (len >> 8) as u8, len as u8]);
        }
    }

    /// ASCII strings that need chunks or a flush: one byte per UTF-16 unit, so chunks are byte
    /// ranges.
    #[cold]
    fn write_long_ascii_str(&mut self, bytes: &[u8]) -> Result<()> {
        let mut rest = bytes;
        while rest.len() > STRING_CHUNK_MAX {
            self.reserve16_le()?;
            self.buf.extend_from_slice(&[BC_STRING_CHUNK, (STRING_CHUNK_MAX >> 8) as u8, STRING_CHUNK_MAX as u8]);
            let (head, tail) = rest.split_at(STRING_CHUNK_MAX);
            self.print_ascii(head)?;
            rest = tail;
        }
        self.reserve16_le()?;
        self.put_str_header(rest.len());
        self.print_ascii(rest)
    }

    /// `printString` for ASCII: Java checks `SIZE <= offset + 16` before each character.
    #[inline]
    fn print_ascii(&mut self, mut bytes: &[u8]) -> Result<()> {
        loop {
            // Characters that fit before Java's per-character check would flush.
            let room = (JAVA_BUFFER_SIZE - 16).saturating_sub(self.fill());
            if bytes.len() <= room {
                self.buf.extend_from_slice(bytes);
                return Ok(());
            }
            let (head, tail) = bytes.split_at(room);
            self.buf.extend_from_slice(head);
            self.flush_buffer()?;
            bytes = tail;
        }
    }

    /// `printString` over UTF-16 units: 1, 2 or 3 bytes per unit (surrogates separately).
    fn print_units(&mut self, units: &[u16]) -> Result<()> {
        for &u in units {
            if JAVA_BUFFER_SIZE <= self.fill() + 16 {
                self.flush_buffer()?;
            }
            let c = u32::from(u);
            if c < 0x80 {
                self.buf.push(c as u8);
            } else if c < 0x800 {
                self.buf.extend_from_slice(&[(0xc0 + ((c >> 6) & 0x1f)) as u8, (0x80 + (c & 0x3f)) as u8]);
            } else {
                self.buf.extend_from_slice(&[
                    (0xe0 + ((c >> 12) & 0x0f)) as u8,
                    (0x80 + ((c >> 6) & 0x3f)) as u8,
                    (0x80 + (c & 0x3f)) as u8,
                ]);
            }
        }
        Ok(())
    }

    /// Writes binary data, with Java's chunking (which depends on the buffer's fill level).
    pub fn write_bytes(&mut self, data: &[u8]) -> Result<()> {
        let mut rest = data;
        while JAVA_BUFFER_SIZE - self.fill() - 3 < rest.len() {
            let mut sub = JAVA_BUFFER_SIZE - self.fill() - 3;
            if sub < 16 {
                self.flush_buffer()?;
                sub = JAVA_BUFFER_SIZE - self.fill() - 3;
                if rest.len() < sub {
                    sub = rest.len();
                }
            }
            self.buf.extend_from_slice(&[BC_BINARY_CHUNK, (sub >> 8) as u8, sub as u8]);
            let (head, tail) = rest.split_at(sub);
            self.buf.extend_from_slice(head);
            rest = tail;
            self.flush_buffer()?;
        }
        self.reserve16_lt()?;
        let len = rest.len();
        if len <= BINARY_DIRECT_MAX {
            self.buf.push(BC_BINARY_DIRECT + len as u8);
        } else if len <= BINARY_SHORT_MAX {
            self.buf.extend_from_slice(&[BC_BINARY_SHORT + (len >> 8) as u8, len as u8]);
        } else {
            self.buf.extend_from_slice(&[BC_BINARY, (len >> 8) as u8, len as u8]);
        }
        self.buf.extend_from_slice(rest);
        Ok(())
    }

    /// Writes a type name, or a reference to it if this message (or the seed) already has it.
    pub fn write_type(&mut self, name: &str) -> Result<()> {
        self.reserve32()?;
        if name.is_empty() {
            return Err(Error::new(ErrorKind::Unencodable("empty type name".into()), self.position()));
        }
        match self.tables.type_id(name) {
            Some(i) => self.write_int(i as i32),
            None => {
                self.tables.add_type(name.to_owned());
                self.write_str(name)
            }
        }
    }

    /// Starts a list. `len = None` starts a variable-length list that [`write_list_end`]
    /// must close.
    ///
    /// [`write_list_end`]: Self::write_list_end
    #[inline]
    pub fn write_list_begin(&mut self, len: Option<usize>, type_name: Option<&str>) -> Result<()> {
        self.reserve32()?;
        match (len, type_name) {
            (None, Some(t)) => {
                self.buf.push(BC_LIST_VARIABLE);
                self.write_type(t)
            }
            (None, None) => {
                self.buf.push(BC_LIST_VARIABLE_UNTYPED);
                Ok(())
            }
            (Some(n), Some(t)) if n <= LIST_DIRECT_MAX => {
                self.buf.push(BC_LIST_DIRECT + n as u8);
                self.write_type(t)
            }
            (Some(n), None) if n <= LIST_DIRECT_MAX => {
                self.buf.push(BC_LIST_DIRECT_UNTYPED + n as u8);
                Ok(())
            }
            (Some(n), t) => {
                let n = self.len_i32(n)?;
                match t {
                    Some(t) => {
                        self.buf.push(BC_LIST_FIXED);
                        self.write_type(t)?;
                    }
                    None => self.buf.push(BC_LIST_FIXED_UNTYPED),
                }
                self.write_int(n)
            }
        }
    }

    fn len_i32(&self, n: usize) -> Result<i32> {
        i32::try_from(n)
            .map_err(|_| Error::new(ErrorKind::Unencodable(format!("length {n} exceeds 2^31-1")), self.position()))
    }

    /// Ends a variable-length list.
    #[inline]
    pub fn write_list_end(&mut self) -> Result<()> {
        self.reserve32()?;
        self.buf.push(BC_END);
        Ok(())
    }

    /// Starts a map, typed or untyped; close it with [`write_map_end`](Self::write_map_end).
    #[inline]
    pub fn write_map_begin(&mut self, type_name: Option<&str>) -> Result<()> {
        self.reserve32()?;
        match type_name {
            Some(t) => {
                self.buf.push(BC_MAP);
                self.write_type(t)
            }
            None => {
                self.buf.push(BC_MAP_UNTYPED);
                Ok(())
            }
        }
    }

    /// Ends a map.
    #[inline]
    pub fn write_map_end(&mut self) -> Result<()> {
        self.reserve32()?;
        self.buf.push(BC_END);
        Ok(())
    }

    /// Starts an object of `class`: writes the class definition first if this message (or the
    /// seed) does not have it yet, then the instance header. Field values follow, in order.
    pub fn write_object_begin(&mut self, class: &Arc<ClassDef>) -> Result<()> {
        let id = self.write_class_def(class)?;
        self.write_object_header(id)
    }

    /// Writes the definition of `class` unless this message (or the seed) already has it, and
    /// returns its index for [`write_object_header`](Self::write_object_header).
    pub fn write_class_def(&mut self, class: &Arc<ClassDef>) -> Result<u32> {
        Ok(match self.tables.class_id_adopting(class) {
            Some(id) => id,
            None => {
                self.put_class_def(class)?;
                self.tables.add_class(class.clone())
            }
        })
    }

    /// Writes the header of an object instance of the class with index `id` (as returned by
    /// [`write_class_def`](Self::write_class_def)); its field values follow, in order.
    #[inline(always)]
    pub fn write_object_header(&mut self, id: u32) -> Result<()> {
        self.reserve32()?;
        if (id as usize) <= OBJECT_DIRECT_MAX {
            // SAFETY: `room` above left SMALL bytes of spare capacity.
            unsafe { self.put_word(u64::from(BC_OBJECT_DIRECT + id as u8), 1) };
            Ok(())
        } else {
            self.write_object_header_long(id)
        }
    }

    /// [`write_object_header`](Self::write_object_header) for a class beyond the one-byte form.
    #[inline(never)]
    fn write_object_header_long(&mut self, id: u32) -> Result<()> {
        self.buf.push(BC_OBJECT);
        self.write_int(id as i32)
    }

    /// Writes a reference to the `index`-th list, map or object of the message.
    pub fn write_ref(&mut self, index: u32) -> Result<()> {
        self.reserve16_lt()?;
        self.buf.push(BC_REF);
        let i = self.len_i32(index as usize)?;
        self.write_int(i)
    }

    /// Writes any [`Value`].
    pub fn write_value(&mut self, v: &Value) -> Result<()> {
        token::write_value(self, v)
    }

    fn write_object(&mut self, o: &Object) -> Result<()> {
        if let Err(what) = o.check_arity() {
            return Err(Error::new(ErrorKind::Unencodable(what), self.position()));
        }
        self.write_object_begin(&o.class)?;
        for f in &o.fields {
            self.write_value(f)?;
        }
        Ok(())
    }
}

impl<W: Write> token::sealed::Sealed for Encoder<W> {}

impl<W: Write> TokenWrite for Encoder<W> {
    type Writer = W;
    const FIXED_LISTS_END: bool = false;
    forward_token_write!();
    /// Hessian 2 has no remote code: Java serializes `HessianRemote` as an object.
    fn write_remote(&mut self, type_name: &str, url: &str) -> Result<()> {
        let class = ClassDef::new("com.caucho.hessian.io.HessianRemote", ["type", "url"]);
        self.write_object_begin(&class)?;
        self.write_str(type_name)?;
        self.write_str(url)
    }
    fn write_object(&mut self, o: &Object) -> Result<()> {
        Self::write_object(self, o)
    }
}

/// The buffer checks of `Hessian2Output`'s write methods.
#[derive(Clone, Copy)]
enum Flush {
    /// Flush when `SIZE <= offset + 16` (writeInt, writeLong, writeDouble, writeNull, writeString).
    Le16,
    /// Flush when `SIZE < offset + 16` (writeBoolean, writeRef, writeBytes).
    Lt16,
    /// Flush when `SIZE < offset + 32` (flushIfFull, maps, objects, dates).
    Lt32,
}

/// A byte code followed by a big-endian 32-bit payload, as the first 5 bytes of a word (see
/// `Encoder::put_word`).
#[inline(always)]
fn code_be32(code: u8, payload: u32) -> u64 {
    u64::from(code) | u64::from(payload.swap_bytes()) << 8
}

/// The compact encoding of an int: a word (see `Encoder::put_word`) and how many of its bytes
/// are used.
#[inline(always)]
fn int_word(v: i32) -> (u64, usize) {
    let b1 = u64::from(v as u8);
    let b2 = u64::from((v >> 8) as u8);
    if (INT_DIRECT_MIN..=INT_DIRECT_MAX).contains(&v) {
        (u64::from((v + i32::from(BC_INT_ZERO)) as u8), 1)
    } else if (INT_BYTE_MIN..=INT_BYTE_MAX).contains(&v) {
        (u64::from((i32::from(BC_INT_BYTE_ZERO) + (v >> 8)) as u8) | b1 << 8, 2)
    } else if (INT_SHORT_MIN..=INT_SHORT_MAX).contains(&v) {
        (u64::from((i32::from(BC_INT_SHORT_ZERO) + (v >> 16)) as u8) | b2 << 8 | b1 << 16, 3)
    } else {
        (code_be32(BC_INT, v as u32), 5)
    }
}

/// The compact encoding of a long that fits an int (longer ones take 9 bytes): a word and how
/// many of its bytes are used.
#[inline(always)]
fn long_word(v: i32) -> (u64, usize) {
    let v64 = i64::from(v);
    let b1 = u64::from(v as u8);
    let b2 = u64::from((v >> 8) as u8);
    if (LONG_DIRECT_MIN..=LONG_DIRECT_MAX).contains(&v64) {
        (u64::from((v64 + i64::from(BC_LONG_ZERO)) as u8), 1)
    } else if (LONG_BYTE_MIN..=LONG_BYTE_MAX).contains(&v64) {
        (u64::from((i64::from(BC_LONG_BYTE_ZERO) + (v64 >> 8)) as u8) | b1 << 8, 2)
    } else if (LONG_SHORT_MIN..=LONG_SHORT_MAX).contains(&v64) {
        (u64::from((i64::from(BC_LONG_SHORT_ZERO) + (v64 >> 16)) as u8) | b2 << 8 | b1 << 16, 3)
    } else {
        (code_be32(BC_LONG_INT, v as u32), 5)
    }
}

/// The compact encoding of a double as `Hessian2Output` chooses it (a word and how many of its
/// bytes are used), or `None` for the full 9-byte form.
#[inline(always)]
fn double_word(v: f64) -> Option<(u64, usize)> {
    // Java's (int) cast saturates and maps NaN to 0, as Rust's `as` does.
    let iv = v as i32;
    if f64::from(iv) == v {
        if iv == 0 {
            return Some((u64::from(BC_DOUBLE_ZERO), 1));
        } else if iv == 1 {
            return Some((u64::from(BC_DOUBLE_ONE), 1));
        } else if (-0x80..0x80).contains(&iv) {
            return Some((u64::from(BC_DOUBLE_BYTE) | u64::from(iv as u8) << 8, 2));
        } else if (-0x8000..0x8000).contains(&iv) {
            return Some((u64::from(BC_DOUBLE_SHORT) | u64::from((iv >> 8) as u8) << 8 | u64::from(iv as u8) << 16, 3));
        }
    }
    let mills = (v * 1000.0) as i32;
    if 0.001 * f64::from(mills) == v {
        return Some((code_be32(BC_DOUBLE_MILL, mills as u32), 5));
    }
    None
}

/// The longest string [`Encoder::write_str`] handles inline.
const SHORT_ASCII: usize = crate::ascii::SHORT;

/// Appends the string header and `src` (at most [`SHORT_ASCII`] bytes) to `buf` if `src` is all
/// ASCII, checking while copying; returns whether it was. On `false`, `buf` is left as it was.
///
/// From 16 bytes on, the copy is four 16-byte loads and stores at offsets chosen so that they
/// cover the string (overlapping as needed), without branches on the length.
///
/// # Safety
/// `buf` must have `src.len()` + 8 bytes of spare capacity, and `src.len() <= SHORT_ASCII`.
#[inline(always)]
unsafe fn put_short_ascii(buf: &mut Vec<u8>, src: &[u8]) -> bool {
    let len = src.len();
    let start = buf.len();
    debug_assert!(len <= SHORT_ASCII && buf.capacity() - start >= len + 8);
    let (header, skip) = if len <= STRING_DIRECT_MAX {
        (u64::from(BC_STRING_DIRECT + len as u8), 1)
    } else {
        (u64::from(BC_STRING_SHORT) | (len as u64) << 8, 2)
    };
    // SAFETY: per the contract there are `len + 8` spare bytes after `start`: the header store
    // writes 8 of them, and the copy writes `skip + len <= len + 2` of them. Reads stay inside
    // `src` (16-byte blocks only when `len >= 16`, at offsets `<= len - 16`). Every byte below
    // `start + skip + len` is written before `set_len`.
    unsafe {
        let d = buf.as_mut_ptr().add(start);
        std::ptr::write_unaligned(d as *mut [u8; 8], header.to_le_bytes());
        let d = d.add(skip);
        let s = src.as_ptr();
        let ascii = crate::ascii::copy_short(s, d, len);
        if !ascii {
            return false;
        }
        buf.set_len(start + skip + len);
    }
    true
}

/// Encodes one value as a complete Hessian 2.0 byte string (no envelope).
pub fn to_vec(v: &Value) -> Result<Vec<u8>> {
    let mut e = Encoder::vec();
    e.write_value(v)?;
    Ok(e.into_vec())
}

/// Encodes one value to a writer (no envelope).
pub fn to_writer<W: Write>(w: W, v: &Value) -> Result<()> {
    let mut e = Encoder::new(w);
    e.write_value(v)?;
    e.flush()
}
