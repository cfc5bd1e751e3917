//! The one reader abstraction every binary decoder is written against: a borrowing reader over a
//! byte slice ([`SliceRead`]) and a buffered reader over any `std::io::Read` ([`IoRead`]).
//!
//! Both track the byte offset for error reports, and both decode Hessian's string encoding:
//! lengths counted in UTF-16 code units, characters as UTF-8, where characters outside the BMP
//! may appear as Java writes them (each surrogate as its own 3-byte sequence, "CESU-8") or as
//! standard 4-byte UTF-8.

use crate::cache::SPARE_READ;
use crate::error::{Error, ErrorKind, Result};
use std::ops::Deref;

/// Bytes or text either borrowed from the input (`'de`) or copied into a scratch buffer (`'s`).
#[derive(Debug)]
pub enum Reference<'de, 's, T: ?Sized> {
    /// Borrowed from the input for its whole lifetime.
    Borrowed(&'de T),
    /// Copied into a scratch buffer (chunked, re-encoded, or read from a stream).
    Copied(&'s T),
}

impl<T: ?Sized> Deref for Reference<'_, '_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Reference::Borrowed(b) => b,
            Reference::Copied(c) => c,
        }
    }
}

/// A source of bytes for the binary decoders: [`SliceRead`] (borrowing from a slice) or
/// [`IoRead`] (buffering an `std::io::Read`). Sealed, as `serde_json`'s `Read` is: the decoders
/// rely on its exact contract, so only this crate implements it.
pub trait Read<'de>: private::Sealed {
    /// Offset of the next byte to be read, counted from the start of the input.
    fn offset(&self) -> u64;

    /// Reads one byte; end of input is an [`ErrorKind::UnexpectedEof`].
    fn next(&mut self) -> Result<u8>;

    /// Looks at the next byte without consuming it; `None` at end of input.
    fn peek(&mut self) -> Result<Option<u8>>;

    /// Reads exactly `N` bytes (fixed-width numbers).
    #[inline]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut b = [0u8; N];
        for x in b.iter_mut() {
            *x = self.next()?;
        }
        Ok(b)
    }

    /// The input bytes available without reading further (the rest of a slice, the filled part
    /// of a stream's buffer; possibly empty). With [`consume`](Self::consume) this lets a decoder
    /// read a whole small value straight from memory in its common case, and take the general
    /// path, with its error reporting, only when the value is not entirely there.
    #[inline]
    fn buffered(&self) -> &[u8] {
        &[]
    }

    /// Consumes `n` bytes of [`buffered`](Self::buffered) (`n` must not exceed its length).
    #[inline]
    fn consume(&mut self, n: usize) {
        debug_assert_eq!(n, 0, "consume beyond the buffered bytes");
    }

    /// Whether [`rewind_to`](Self::rewind_to) works (slices: yes; streams: no).
    const REWINDABLE: bool = false;

    /// Moves to an earlier (or later) offset of the input, to read a value again; returns
    /// whether it could (only a slice keeps its bytes).
    fn rewind_to(&mut self, offset: u64) -> bool {
        let _ = offset;
        false
    }

    /// How many bytes are certainly left, when known (slices know; streams do not). Decoders use
    /// it to refuse declared lengths the input cannot hold before allocating anything.
    fn remaining(&self) -> Option<u64>;

    /// Reads exactly `n` bytes, borrowing from the input when possible.
    fn read_bytes<'s>(&'s mut self, n: usize, scratch: &'s mut Vec<u8>) -> Result<Reference<'de, 's, [u8]>>;

    /// Reads a string of `units` UTF-16 code units, borrowing from the input when the bytes are
    /// standard UTF-8, otherwise decoding into `scratch`.
    fn read_str<'s>(&'s mut self, units: usize, scratch: &'s mut String) -> Result<Reference<'de, 's, str>> {
        scratch.clear();
        let mut pending = None;
        self.append_str(units, scratch, &mut pending)?;
        finish_str(pending, self.offset())?;
        Ok(Reference::Copied(scratch.as_str()))
    }

    /// Reads a string of `units` UTF-16 code units into a new, exactly-sized `String` (for
    /// owned strings: one allocation and one copy). `scratch` serves the general path.
    #[inline]
    fn read_string(&mut self, units: usize, scratch: &mut String) -> Result<String> {
        Ok(self.read_str(units, scratch)?.to_owned())
    }

    /// Appends a string piece of `units` UTF-16 code units to `out`. A high surrogate at the end
    /// of the piece is left in `pending` so that a pair split across chunks joins up; call
    /// [`finish_str`] after the last piece.
    fn append_str(&mut self, units: usize, out: &mut String, pending: &mut Option<u16>) -> Result<()> {
        let mut left = units;
        while left > 0 {
            let start = self.offset();
            let b0 = self.next()?;
            if b0 < 0x80 {
                flush_pending(pending, start)?;
                out.push(b0 as char);
                left -= 1;
                continue;
            }
            let (cp, len) = match b0 {
                0xc2..=0xdf => (u32::from(b0 & 0x1f), 2),
                0xe0..=0xef => (u32::from(b0 & 0x0f), 3),
                0xf0..=0xf4 => (u32::from(b0 & 0x07), 4),
                // 0xc0/0xc1 are Java's overlong NUL: accept the modified-UTF-8 form of U+0000.
                0xc0 | 0xc1 => (u32::from(b0 & 0x1f), 2),
                _ => return Err(Error::new(ErrorKind::InvalidUtf8, start)),
            };
            let mut cp = cp;
            for _ in 1..len {
                let b = self.next()?;
                if b & 0xc0 != 0x80 {
                    return Err(Error::new(ErrorKind::InvalidUtf8, self.offset() - 1));
                }
                cp = (cp << 6) | u32::from(b & 0x3f);
            }
            if (b0 == 0xc0 || b0 == 0xc1) && cp != 0 {
                return Err(Error::new(ErrorKind::InvalidUtf8, start));
            }
            if len == 4 {
                if !(0x10000..=0x10ffff).contains(&cp) || left < 2 {
                    return Err(Error::new(ErrorKind::InvalidUtf8, start));
                }
                flush_pending(pending, start)?;
                // cp is a valid scalar by the range check above
                out.push(char::from_u32(cp).ok_or_else(|| Error::new(ErrorKind::InvalidUtf8, start))?);
                left -= 2;
                continue;
            }
            if (len == 3 && cp < 0x800) || (len == 2 && cp < 0x80 && cp != 0) {
                return Err(Error::new(ErrorKind::InvalidUtf8, start));
            }
            left -= 1;
            match cp {
                0xd800..=0xdbff => {
                    flush_pending(pending, start)?;
                    *pending = Some(cp as u16);
                }
                0xdc00..=0xdfff => match pending.take() {
                    Some(hi) => {
                        let c = 0x10000 + ((u32::from(hi) - 0xd800) << 10) + (cp - 0xdc00);
                        out.push(char::from_u32(c).ok_or_else(|| Error::new(ErrorKind::InvalidUtf8, start))?);
                    }
                    None => return Err(Error::new(ErrorKind::LoneSurrogate(cp as u16), start)),
                },
                _ => {
                    flush_pending(pending, start)?;
                    out.push(char::from_u32(cp).ok_or_else(|| Error::new(ErrorKind::InvalidUtf8, start))?);
                }
            }
        }
        Ok(())
    }
}

fn flush_pending(pending: &mut Option<u16>, offset: u64) -> Result<()> {
    match pending.take() {
        Some(hi) => Err(Error::new(ErrorKind::LoneSurrogate(hi), offset)),
        None => Ok(()),
    }
}

/// Checks that a string read piece by piece with [`Read::append_str`] did not end in the middle
/// of a surrogate pair.
pub fn finish_str(pending: Option<u16>, offset: u64) -> Result<()> {
    match pending {
        Some(hi) => Err(Error::new(ErrorKind::LoneSurrogate(hi), offset)),
        None => Ok(()),
    }
}

/// The bytes as a new, exactly-sized `String` if they are all ASCII (one copy); `None` if not.
#[inline(never)]
pub(crate) fn ascii_string(bytes: &[u8]) -> Option<String> {
    let len = bytes.len();
    if len > crate::ascii::SHORT {
        if !bytes.is_ascii() {
            return None;
        }
        // SAFETY: every byte is ASCII (checked just above), and ASCII is valid UTF-8.
        return Some(unsafe { String::from_utf8_unchecked(bytes.to_vec()) });
    }
    let mut v = Vec::<u8>::with_capacity(len);
    // SAFETY: `bytes` is readable and `v` writable for `len <= SHORT` bytes; `set_len` only
    // after all `len` bytes were written and found ASCII, which is valid UTF-8.
    unsafe {
        if !crate::ascii::copy_short(bytes.as_ptr(), v.as_mut_ptr(), len) {
            return None;
        }
        v.set_len(len);
        Some(String::from_utf8_unchecked(v))
    }
}

/// A borrowing reader over a byte slice.
#[derive(Debug, Clone)]
pub struct SliceRead<'de> {
    data: &'de [u8],
    pos: usize,
}

impl<'de> SliceRead<'de> {
    /// Reads from `data`, starting at its first byte.
    pub fn new(data: &'de [u8]) -> Self {
        SliceRead { data, pos: 0 }
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'de [u8] {
        &self.data[self.pos..]
    }

    fn eof(&self) -> Error {
        Error::new(ErrorKind::UnexpectedEof, self.data.len() as u64)
    }

    /// [`Read::read_string`] beyond the ASCII fast path (kept out of line so that the fast path
    /// stays small where it is inlined).
    #[inline(never)]
    fn read_string_general(&mut self, units: usize, scratch: &mut String) -> Result<String> {
        Ok(self.read_str(units, scratch)?.to_owned())
    }

    fn past_end(&self, n: usize) -> Error {
        Error::new(
            ErrorKind::LengthPastEnd { declared: n as u64, available: (self.data.len() - self.pos) as u64 },
            self.pos as u64,
        )
    }
}

mod private {
    /// Keeps [`super::Read`] implemented by this crate only.
    pub trait Sealed {}
    impl Sealed for super::SliceRead<'_> {}
    impl<R: std::io::Read> Sealed for super::IoRead<R> {}
}

impl<'de> Read<'de> for SliceRead<'de> {
    #[inline]
    fn offset(&self) -> u64 {
        self.pos as u64
    }

    const REWINDABLE: bool = true;

    fn rewind_to(&mut self, offset: u64) -> bool {
        match usize::try_from(offset) {
            Ok(pos) if pos <= self.data.len() => {
                self.pos = pos;
                true
            }
            _ => false,
        }
    }

    #[inline]
    fn next(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof()),
        }
    }

    #[inline]
    fn peek(&mut self) -> Result<Option<u8>> {
        Ok(self.data.get(self.pos).copied())
    }

    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.data.get(self.pos..self.pos + N) {
            Some(b) => {
                self.pos += N;
                let mut a = [0u8; N];
                a.copy_from_slice(b);
                Ok(a)
            }
            None => Err(self.eof()),
        }
    }

    #[inline]
    fn remaining(&self) -> Option<u64> {
        Some((self.data.len() - self.pos) as u64)
    }

    #[inline(always)]
    fn buffered(&self) -> &[u8] {
        // `pos` never exceeds the length; `get` keeps this free of a panic path all the same
        self.data.get(self.pos..).unwrap_or_default()
    }

    #[inline(always)]
    fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.data.len() - self.pos);
        self.pos += n;
    }

    #[inline]
    fn read_bytes<'s>(&'s mut self, n: usize, _scratch: &'s mut Vec<u8>) -> Result<Reference<'de, 's, [u8]>> {
        if self.data.len() - self.pos < n {
            return Err(self.past_end(n));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(Reference::Borrowed(s))
    }

    #[inline]
    fn read_string(&mut self, units: usize, scratch: &mut String) -> Result<String> {
        // Fast path: an all-ASCII run of `units` bytes, copied once into its own allocation.
        if let Some(s) = self.data[self.pos..].get(..units).and_then(ascii_string) {
            self.pos += units;
            return Ok(s);
        }
        self.read_string_general(units, scratch)
    }

    #[inline]
    fn read_str<'s>(&'s mut self, units: usize, scratch: &'s mut String) -> Result<Reference<'de, 's, str>> {
        let rest = &self.data[self.pos..];
        // Fast path: an all-ASCII run of `units` bytes is its own UTF-8 and UTF-16 length.
        if let Some(head) = rest.get(..units) {
            if head.is_ascii() {
                self.pos += units;
                // SAFETY: every byte is ASCII (checked just above), and ASCII is valid UTF-8;
                // validating again would double the cost of the hottest path of decoding.
                return Ok(Reference::Borrowed(unsafe { std::str::from_utf8_unchecked(head) }));
            }
        }
        // General path: find the byte extent of `units` UTF-16 units of standard UTF-8; borrow if
        // nothing needs rewriting (no CESU-8 surrogates, no overlong NUL).
        let mut i = 0usize;
        let mut left = units;
        let mut borrowable = true;
        while left > 0 {
            let Some(&b) = rest.get(i) else {
                if units > rest.len() {
                    return Err(self.past_end(units));
                }
                return Err(self.eof());
            };
            let (len, u) = match b {
                0x00..=0x7f => (1, 1),
                0xc2..=0xdf => (2, 1),
                0xe0..=0xef => {
                    if b == 0xed && rest.get(i + 1).is_some_and(|&b1| b1 >= 0xa0) {
                        borrowable = false;
                    }
                    (3, 1)
                }
                0xf0..=0xf4 => (4, 2),
                _ => {
                    borrowable = false;
                    break;
                }
            };
            i += len;
            if u > left {
                borrowable = false;
                break;
            }
            left -= u;
        }
        if borrowable && i <= rest.len() {
            if let Ok(s) = std::str::from_utf8(&rest[..i]) {
                self.pos += i;
                return Ok(Reference::Borrowed(s));
            }
        }
        scratch.clear();
        let mut pending = None;
        self.append_str(units, scratch, &mut pending)?;
        finish_str(pending, self.offset())?;
        Ok(Reference::Copied(scratch.as_str()))
    }
}

/// The size of an [`IoRead`]'s buffer.
const READ_BUFFER: usize = 8192;

/// An [`IoRead`]'s buffer: the thread's spare one when it has one (so that a message read
/// from a reader allocates and zeroes no buffer), given back when dropped. Which one it is
/// never changes what is read.
struct ReadBuffer(Option<Box<[u8]>>);

impl ReadBuffer {
    fn new() -> Self {
        let b = SPARE_READ.try_with(std::cell::Cell::take).ok().flatten();
        ReadBuffer(Some(b.unwrap_or_else(|| vec![0; READ_BUFFER].into_boxed_slice())))
    }

    #[inline(always)]
    fn get(&self) -> &[u8] {
        self.0.as_deref().unwrap_or_default()
    }

    #[inline(always)]
    fn get_mut(&mut self) -> &mut [u8] {
        self.0.as_deref_mut().unwrap_or_default()
    }
}

impl Drop for ReadBuffer {
    fn drop(&mut self) {
        if let Some(b) = self.0.take() {
            let _ = SPARE_READ.try_with(|slot| slot.set(Some(b)));
        }
    }
}

/// A buffered reader over any `std::io::Read`, for decoding straight from a socket or file.
pub struct IoRead<R> {
    inner: R,
    buf: ReadBuffer,
    pos: usize,
    len: usize,
    consumed: u64,
}

impl<R: std::io::Read> IoRead<R> {
    /// Wraps `inner` with an 8 KiB buffer.
    pub fn new(inner: R) -> Self {
        IoRead { inner, buf: ReadBuffer::new(), pos: 0, len: 0, consumed: 0 }
    }

    /// Returns the wrapped reader (buffered bytes not yet read are lost).
    pub fn into_inner(self) -> R {
        self.inner
    }

    fn fill(&mut self) -> Result<bool> {
        if self.pos < self.len {
            return Ok(true);
        }
        self.consumed += self.len as u64;
        self.pos = 0;
        self.len = 0;
        loop {
            match self.inner.read(self.buf.get_mut()) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.len = n;
                    return Ok(true);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::new(ErrorKind::Io(e), self.consumed)),
            }
        }
    }
}

impl<'de, R: std::io::Read> Read<'de> for IoRead<R> {
    fn offset(&self) -> u64 {
        self.consumed + self.pos as u64
    }

    #[inline]
    fn next(&mut self) -> Result<u8> {
        if self.pos >= self.len && !self.fill()? {
            return Err(Error::new(ErrorKind::UnexpectedEof, self.offset()));
        }
        let b = self.buf.get()[self.pos];
        self.pos += 1;
        Ok(b)
    }

    fn peek(&mut self) -> Result<Option<u8>> {
        if self.pos >= self.len && !self.fill()? {
            return Ok(None);
        }
        Ok(Some(self.buf.get()[self.pos]))
    }

    fn remaining(&self) -> Option<u64> {
        None
    }

    #[inline]
    fn buffered(&self) -> &[u8] {
        self.buf.get().get(self.pos..self.len).unwrap_or_default()
    }

    #[inline]
    fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.len - self.pos);
        self.pos += n;
    }

    fn read_str<'s>(&'s mut self, units: usize, scratch: &'s mut String) -> Result<Reference<'de, 's, str>> {
        scratch.clear();
        // Fast path: the whole string is ASCII and already buffered (one unit per byte).
        if let Some(head) = self.buf.get()[self.pos..self.len].get(..units) {
            if head.is_ascii() {
                if let Ok(s) = std::str::from_utf8(head) {
                    scratch.push_str(s);
                    self.pos += units;
                    return Ok(Reference::Copied(scratch.as_str()));
                }
            }
        }
        let mut pending = None;
        self.append_str(units, scratch, &mut pending)?;
        finish_str(pending, self.offset())?;
        Ok(Reference::Copied(scratch.as_str()))
    }

    fn read_bytes<'s>(&'s mut self, n: usize, scratch: &'s mut Vec<u8>) -> Result<Reference<'de, 's, [u8]>> {
        scratch.clear();
        // Grow with the data actually received, never with the declared length alone.
        while scratch.len() < n {
            if self.pos >= self.len && !self.fill()? {
                return Err(Error::new(ErrorKind::UnexpectedEof, self.offset()));
            }
            let take = (n - scratch.len()).min(self.len - self.pos);
            scratch.extend_from_slice(&self.buf.get()[self.pos..self.pos + take]);
            self.pos += take;
        }
        Ok(Reference::Copied(scratch.as_slice()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(bytes: &[u8], units: usize) -> (Result<String>, Result<String>) {
        let mut s = String::new();
        let a = SliceRead::new(bytes).read_str(units, &mut s).map(|r| r.to_string());
        let mut s2 = String::new();
        let b = IoRead::new(bytes).read_str(units, &mut s2).map(|r| r.to_string());
        (a, b)
    }

    #[test]
    fn ascii_borrows() {
        let mut s = String::new();
        let mut r = SliceRead::new(b"hello");
        assert!(matches!(r.read_str(5, &mut s).unwrap(), Reference::Borrowed("hello")));
    }

    #[test]
    fn cesu_and_utf8_supplementary() {
        // U+1F600 as CESU-8 (two 3-byte surrogates) and as standard UTF-8.
        let cesu = [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80];
        let utf8 = "😀".as_bytes();
        for bytes in [&cesu[..], utf8] {
            let (a, b) = both(bytes, 2);
            assert_eq!(a.unwrap(), "😀");
            assert_eq!(b.unwrap(), "😀");
        }
    }

    #[test]
    fn lone_surrogate_is_error() {
        let lone = [0xed, 0xa0, 0xbd, b'a'];
        let (a, b) = both(&lone, 2);
        assert!(matches!(a.unwrap_err().kind(), ErrorKind::LoneSurrogate(0xd83d)));
        assert!(matches!(b.unwrap_err().kind(), ErrorKind::LoneSurrogate(0xd83d)));
        let low = [0xed, 0xb8, 0x80];
        let (a, _) = both(&low, 1);
        assert!(matches!(a.unwrap_err().kind(), ErrorKind::LoneSurrogate(0xde00)));
    }

    #[test]
    fn invalid_utf8_and_eof() {
        let (a, b) = both(&[0xff], 1);
        assert!(matches!(a.unwrap_err().kind(), ErrorKind::InvalidUtf8));
        assert!(matches!(b.unwrap_err().kind(), ErrorKind::InvalidUtf8));
        let (a, b) = both(b"ab", 5);
        assert!(a.is_err() && b.is_err());
    }
}
