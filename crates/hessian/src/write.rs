//! The buffered output shared by the Hessian 1 and Burlap encoders (the Hessian 2 encoder keeps
//! its own, because it must flush exactly where Java's `Hessian2Output` does).

use crate::error::{Error, ErrorKind, Result};
use std::io::Write;

/// How many bytes are gathered before they are handed to the writer.
const FLUSH_AT: usize = 8192;

/// A writer with an append buffer; encoders push bytes into `buf` and call
/// [`maybe_flush`](Self::maybe_flush) at value boundaries.
pub(crate) struct Output<W: Write> {
    out: W,
    /// Bytes not yet handed to the writer.
    pub(crate) buf: Vec<u8>,
    flushed: u64,
    /// While non-zero, [`maybe_flush`](Self::maybe_flush) keeps everything in the buffer (so
    /// that bytes written earlier can still be [`patch`](Self::patch)ed).
    held: u32,
}

impl<W: Write> Output<W> {
    pub(crate) fn new(out: W) -> Self {
        Output { out, buf: Vec::with_capacity(FLUSH_AT), flushed: 0, held: 0 }
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
