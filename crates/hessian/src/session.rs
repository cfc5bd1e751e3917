//! [`Session`]: the state that makes a series of messages cheap, owned by whoever keeps it.
//!
//! Besides the caches [`Session`] describes, the serde layer hands values to itself through two
//! thread-local slots for the duration of one call (`serde::value` for [`Value`](crate::Value),
//! `serde::shared` for [`Shared`](crate::serde::Shared)); they hold nothing between calls.

use crate::cache::{swap, Kept, Parts};
use crate::error::Result;
use crate::serde::ser::{swap_plain, KeptPlain};
use serde::de::{Deserialize, DeserializeOwned};
use serde::ser::Serialize;

/// The caches of a series of messages: schemas and definitions of classes met before, recycled
/// buffers. Never changes a result, only the cost.
///
/// Hessian 2 defines each class once per message, so the fixed cost of a small message is
/// mostly finding, writing and reading class definitions. The codec keeps what speeds that up
/// between messages:
///
/// - the serializer's *schemas*: for each struct type written before, its class definition and
///   the definition's bytes, so that the next message writes them without a probe pass
///   (`serde::ser`);
/// - the decoder's *definitions*: the class definitions read before, found again by their
///   bytes, with the check of their fields against a Rust type's done once (`h2::decode`);
/// - recycled state: the Hessian 2 serializer of `to_vec`, `to_writer` and the Hessian 2 call
///   and reply functions itself (its class entries, tables and output buffer, restarted as new
///   for every message, and the first struct of its last message, whose definition it writes
///   from memory when the next message starts with the same struct), the decoder's class
///   table and reference starts, the output buffer of the other `to_writer` functions and the
///   read buffer of the `from_reader` functions.
///
/// **None of it changes a result**: every message gives the same bytes, the same values and the
/// same errors (at the same offsets) as it would on a fresh thread; a definition is used only
/// when the message's own fields or bytes match it, checked every time. (The tests in
/// `tests/session.rs` encode and decode after other messages, after bad ones, and through a
/// fresh [`Session`], and compare.) It only changes the cost.
///
/// By default each thread has one set, used by the free functions (`hessian::to_vec`,
/// `from_slice`, the message functions the RPC layer uses, …): they are fast without any set-up.
/// A [`Session`] is a set a caller owns instead: [`Session::run`] makes every message written or
/// read on the current thread inside it use the session's state (and puts the thread's back
/// afterwards), so a task that moves between threads keeps its caches, two services on one
/// thread do not share them, and dropping the session frees them. Its convenience methods
/// ([`to_vec`](Session::to_vec), [`to_writer`](Session::to_writer),
/// [`from_slice`](Session::from_slice), [`from_reader`](Session::from_reader)) are the Hessian 2
/// free functions run inside it.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// #[serde(rename = "com.example.Money")]
/// struct Money {
///     cents: i64,
///     currency: String,
/// }
///
/// let mut session = hessian::Session::new();
/// let mut out = Vec::new();
/// for cents in [100, 250] {
///     out.clear();
///     session.to_writer(&mut out, &Money { cents, currency: "EUR".into() })?;
///     let back: Money = session.from_slice(&out)?;
///     assert_eq!(back.cents, cents);
/// }
/// // any codec function inside `run` uses the session's caches too
/// let bytes = session.run(|| hessian::serde::h1::to_vec(&Money { cents: 1, currency: "EUR".into() }))?;
/// assert_eq!(bytes[0], b'M');
/// # Ok::<(), hessian::Error>(())
/// ```
#[derive(Default)]
pub struct Session {
    kept: Kept,
    plain: KeptPlain,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").finish_non_exhaustive()
    }
}

/// Puts a session's caches (its `parts`) in the thread's place while it lives, and back when
/// dropped (a panic included).
struct Entered<'a>(&'a mut Session, Parts);

impl Entered<'_> {
    fn enter(s: &mut Session, parts: Parts) -> Entered<'_> {
        s.swap(parts);
        Entered(s, parts)
    }
}

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        self.0.swap(self.1);
    }
}

impl Session {
    /// Exchanges the session's `parts` with the thread's: its caches, and with the write part
    /// the kept serializer of `to_vec` and `to_writer`.
    fn swap(&mut self, parts: Parts) {
        swap(&mut self.kept, parts);
        if parts.has(Parts::WRITE) {
            swap_plain(&mut self.plain);
        }
    }

    /// A session with nothing cached yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `f` with this session's state in place of the current thread's: every message
    /// written or read on this thread inside `f`, by any of the crate's functions and in any
    /// of the three formats, uses and adds to this session's caches. Sessions nest. Putting the
    /// state in place and back costs about as much as a small message's bookkeeping: wrap a
    /// batch of messages rather than each one.
    pub fn run<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let _in = Entered::enter(self, Parts::ALL);
        f()
    }

    /// [`hessian::to_vec`](crate::to_vec) with this session's caches.
    pub fn to_vec<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<Vec<u8>> {
        let _in = Entered::enter(self, Parts::WRITE);
        crate::serde::to_vec(value)
    }

    /// [`hessian::to_writer`](crate::to_writer) with this session's caches.
    pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(&mut self, writer: W, value: &T) -> Result<()> {
        let _in = Entered::enter(self, Parts::WRITE);
        crate::serde::to_writer(writer, value)
    }

    /// [`hessian::from_slice`](crate::from_slice) with this session's caches.
    pub fn from_slice<'de, T: Deserialize<'de>>(&mut self, data: &'de [u8]) -> Result<T> {
        let _in = Entered::enter(self, Parts::READ);
        crate::serde::from_slice(data)
    }

    /// [`hessian::from_reader`](crate::from_reader) with this session's caches.
    pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(&mut self, reader: R) -> Result<T> {
        let _in = Entered::enter(self, Parts::READ.and(Parts::READER));
        crate::serde::from_reader(reader)
    }
}

#[cfg(test)]
mod tests {
    use super::Session;
    use crate::cache::{swap, Kept, Parts};

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename = "t.Pair")]
    struct Pair {
        a: i32,
        b: String,
    }

    #[test]
    fn what_a_message_learns_inside_a_session_stays_with_it() {
        std::thread::spawn(|| {
            let mut s = Session::new();
            let bytes = s.to_vec(&Pair { a: 1, b: "x".into() }).unwrap();
            let _: Pair = s.from_slice(&bytes).unwrap();
            assert_eq!(s.kept.counts(), (1, 1), "the session keeps the schema and the definition");
            // the thread's own caches learned nothing
            let mut thread = Kept::default();
            swap(&mut thread, Parts::ALL);
            assert_eq!(thread.counts(), (0, 0));
            swap(&mut thread, Parts::ALL);
        })
        .join()
        .unwrap();
    }
}
