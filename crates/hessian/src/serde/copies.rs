//! Value references decoded into plain Rust types. Java writes every list, map, object or enum
//! constant that occurs twice in one message as a reference to its first occurrence; a type that
//! cannot share (anything but `Value` and `Shared`) gets a copy, read again from where the first
//! occurrence starts. [`RefCopies`] remembers those starts (for inputs that can rewind) and
//! bounds the bytes read again by `Limits::max_ref_copy_bytes`: copies multiply, and without a
//! bound a small message of references to references would expand exponentially.

use crate::cache::STARTS;
use crate::error::{Error, ErrorKind, Result};

/// A start that is not known (a value read inside a `Value`).
const NO_START: u64 = u64::MAX;

/// The starts of a message's referenceable values, by reference index, and the bytes re-read.
/// The vector is recycled from message to message on this thread.
#[derive(Debug, Default)]
pub(crate) struct RefCopies {
    starts: Vec<u64>,
    replayed: u64,
}

impl Drop for RefCopies {
    fn drop(&mut self) {
        /// The most starts a recycled vector may have room for (what a thread keeps).
        const KEEP: usize = 1 << 16;
        let cap = self.starts.capacity();
        if cap == 0 || cap > KEEP {
            return;
        }
        let mut v = std::mem::take(&mut self.starts);
        v.clear();
        // During thread teardown the slot may be gone: then the vector is simply freed.
        let _ = STARTS.try_with(|slot| slot.set(v));
    }
}

impl RefCopies {
    /// Records that the value whose code is at offset `at` got the latest of `ref_count`
    /// reference indexes.
    #[inline(always)]
    pub(crate) fn note(&mut self, ref_count: usize, at: u64) {
        let i = ref_count.wrapping_sub(1);
        if self.starts.len() == i && self.starts.len() < self.starts.capacity() {
            self.starts.push(at);
        } else {
            self.note_slow(i, at);
        }
    }

    #[cold]
    fn note_slow(&mut self, i: usize, at: u64) {
        if i == usize::MAX {
            return;
        }
        self.recycle();
        if self.starts.len() <= i {
            self.starts.resize(i, NO_START);
            self.starts.push(at);
        } else {
            self.starts[i] = at;
        }
    }

    /// Makes room for the references of a list of `len` elements (at most 64 Ki at once).
    #[inline]
    pub(crate) fn reserve(&mut self, len: usize) {
        self.recycle();
        self.starts.reserve(len.min(1 << 16));
    }

    /// Takes this thread's recycled vector if this one has not allocated yet.
    #[inline]
    fn recycle(&mut self) {
        if self.starts.capacity() == 0 {
            if let Ok(v) = STARTS.try_with(std::cell::Cell::take) {
                self.starts = v;
            }
        }
    }

    /// Forgets everything (a new message).
    pub(crate) fn clear(&mut self) {
        self.starts.clear();
        self.replayed = 0;
    }

    /// Where reference `r` (its code at offset `at`) starts, if it can be copied into a value
    /// of type `expected`.
    pub(crate) fn start(&self, r: usize, at: u64, expected: &str, rewindable: bool, limit: u64) -> Result<u64> {
        if self.replayed > limit {
            return Err(over_limit(limit, at));
        }
        match self.starts.get(r) {
            Some(&s) if s != NO_START => Ok(s),
            _ => {
                let found = if rewindable {
                    "a reference to a value read as a Value (decode it into a Value or Shared field)"
                } else {
                    "a value reference (into a plain type only from a slice: use from_slice, or a Value or Shared field)"
                };
                Err(Error::new(ErrorKind::InvalidType { expected: expected.to_owned(), found: found.into() }, at))
            }
        }
    }

    /// After a copy that re-read `bytes`: forgets the starts it registered (from index `refs`
    /// on) and checks the bound.
    pub(crate) fn copied(&mut self, refs: usize, bytes: u64, at: u64, limit: u64) -> Result<()> {
        self.starts.truncate(refs);
        self.replayed = self.replayed.saturating_add(bytes);
        if self.replayed > limit {
            return Err(over_limit(limit, at));
        }
        Ok(())
    }
}

#[cold]
fn over_limit(limit: u64, at: u64) -> Error {
    Error::new(ErrorKind::LimitExceeded { what: "bytes re-read to copy references", limit }, at)
}
