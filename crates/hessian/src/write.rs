//! The buffered output shared by the Hessian 1 and Burlap encoders (the Hessian 2 encoder keeps
//! its own, because it must flush exactly where Java's `Hessian2Output` does).

use crate::cache::SPARE;
use crate::error::{Error, ErrorKind, Result};
use std::io::Write;
use std::ops::{Deref, DerefMut};

/// The most room a spare buffer keeps between messages.
const KEEP_SPARE: usize = 64 << 10;

/// An empty buffer with room for at least `min` bytes: the thread's spare one when it has one
/// (so that a message written through a writer allocates no buffer), else a new one. Which one
/// it is never changes the bytes written.
fn spare(min: usize) -> Vec<u8> {
    let mut v = SPARE.try_with(std::cell::Cell::take).unwrap_or_default();
    v.reserve(min);
    v
}

/// Keeps `v` (emptied) as the thread's spare buffer, unless it is larger than [`KEEP_SPARE`]
/// or the thread keeps a larger one already.
fn keep_spare(mut v: Vec<u8>) {
    if v.capacity() == 0 || v.capacity() > KEEP_SPARE {
        return;
    }
    v.clear();
    let _ = SPARE.try_with(|slot| {
        let old = slot.take();
        slot.set(if old.capacity() >= v.capacity() { old } else { v });
    });
}

/// An output buffer taken from [`spare`] and given back to it when dropped.
pub(crate) struct SpareVec(Vec<u8>);

impl SpareVec {
    pub(crate) fn new(min: usize) -> Self {
        SpareVec(spare(min))
    }
}

impl Drop for SpareVec {
    fn drop(&mut self) {
        keep_spare(std::mem::take(&mut self.0));
    }
}

impl Deref for SpareVec {
    type Target = Vec<u8>;
    #[inline(always)]
    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl DerefMut for SpareVec {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

/// How many bytes are gathered before they are handed to the writer.
const FLUSH_AT: usize = 8192;

/// A writer with an append buffer; encoders push bytes into `buf` and call
/// [`maybe_flush`](Self::maybe_flush) at value boundaries.
pub(crate) struct Output<W: Write> {
    out: W,
    /// Bytes not yet handed to the writer (the thread's spare buffer, given back at the end).
    pub(crate) buf: SpareVec,
    flushed: u64,
    /// While non-zero, [`maybe_flush`](Self::maybe_flush) keeps everything in the buffer (so
    /// that bytes written earlier can still be [`patch`](Self::patch)ed).
    held: u32,
}

impl<W: Write> Output<W> {
    pub(crate) fn new(out: W) -> Self {
        Output { out, buf: SpareVec::new(FLUSH_AT), flushed: 0, held: 0 }
    }

    /// Bytes produced so far (flushed or buffered).
    #[inline]
    pub(crate) fn position(&self) -> u64 {
        self.flushed + self.buf.len() as u64
    }

    /// Hands the buffer to the writer.
    pub(crate) fn flush_buffer(&mut self) -> Result<()> {
        if !self.buf.is_empty() {
            if let Err(e) = self.out.write_all(&self.buf) {
                return Err(Error::new(ErrorKind::Io(e), self.position()));
            }
            self.flushed += self.buf.len() as u64;
            self.buf.clear();
        }
        Ok(())
    }

    /// Flushes once the buffer holds [`FLUSH_AT`] bytes or more.
    #[inline]
    pub(crate) fn maybe_flush(&mut self) -> Result<()> {
        if self.buf.len() >= FLUSH_AT && self.held == 0 {
            self.flush_buffer()?;
        }
        Ok(())
    }

    /// Keeps the buffer from being handed to the writer until the matching
    /// [`release`](Self::release) (holds nest).
    pub(crate) fn hold(&mut self) {
        self.held += 1;
    }

    /// Ends one [`hold`](Self::hold).
    pub(crate) fn release(&mut self) {
        self.held = self.held.saturating_sub(1);
    }

    /// Overwrites bytes written at output position `pos`; `false` when they have left the
    /// buffer already.
    pub(crate) fn patch(&mut self, pos: u64, bytes: &[u8]) -> bool {
        let Some(start) = pos.checked_sub(self.flushed).and_then(|p| usize::try_from(p).ok()) else {
            return false;
        };
        match self.buf.get_mut(start..start.saturating_add(bytes.len())) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                true
            }
            None => false,
        }
    }

    /// Replaces the `old_len` bytes written at output position `pos` by `bytes` (which may be
    /// longer or shorter); `false` when they have left the buffer already.
    pub(crate) fn splice(&mut self, pos: u64, old_len: usize, bytes: &[u8]) -> bool {
        let Some(start) = pos.checked_sub(self.flushed).and_then(|p| usize::try_from(p).ok()) else {
            return false;
        };
        match start.checked_add(old_len) {
            Some(end) if end <= self.buf.len() => {
                self.buf.splice(start..end, bytes.iter().copied());
                true
            }
            _ => false,
        }
    }

    /// Writes out the buffer and flushes the writer.
    pub(crate) fn flush(&mut self) -> Result<()> {
        self.flush_buffer()?;
        self.out.flush().map_err(|e| Error::new(ErrorKind::Io(e), self.position()))
    }

    /// Flushes and returns the writer.
    pub(crate) fn finish(mut self) -> Result<W> {
        self.flush()?;
        Ok(self.out)
    }
}
