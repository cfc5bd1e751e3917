//! The Hessian 2.0 part of the generic serde serializer ([`serializer::Serializer`] over
//! [`h2::Encoder`](crate::h2::Encoder), aliased as [`Serializer`]): how structs and Java enums
//! become class definitions and objects, lists of unknown length, and redoing a value after a
//! probe pass. Everything else is the generic serializer's. It writes straight through the
//! encoder, the one wire
//! layer of the crate, so everything it writes is byte-identical to what Java's
//! `Hessian2Output` writes for the matching Java values.
//!
//! Class definitions: serde hands `serialize_struct` the struct's name but its field names only
//! one by one, while Hessian needs the whole definition before the first instance. The first time
//! a struct name is met in a message, the serializer therefore makes a cheap *probe* pass that
//! only records the field names (no value is serialized), writes the definition, and serializes
//! the value again for real; later instances find the definition in a small per-message cache
//! keyed by the name's address and cost one header byte.
//!
//! The fixed cost of a message is kept low: a thread-local cache of the definitions written
//! before (`Schema`) lets a message that builds its output in one vector (`to_vec`) write a
//! known struct's definition from its stored bytes and serialize the value once, without the
//! probe pass (checked by the fields' signature at the end of the struct: if the fields differ,
//! the value is rewound and probed, and the name is never taken on trust again on this thread).
//! Class definitions go into the encoder's tables only when something there needs them (a
//! [`Value`](crate::Value) written inside the message, or access to the encoder); the class
//! list is recycled from message to message, and no hash map is made before a shared value
//! appears.
//!
//! `to_vec`, `to_writer` and the Hessian 2 calls and replies of `serde::message` share one
//! serializer per thread, restarted for each message (`take_plain`, `keep_plain`, `Lent`). It
//! remembers the first struct of its last message (`FirstMemo`): a message that starts with
//! the same struct copies that definition without looking it up, and is checked like any
//! definition written on trust. An error a struct's own `Serialize` raises in such an instance
//! is located at the struct's start, where a thread without the definition fails in its probe
//! pass; a field value's error stays where the value failed (see `retry`, `field_failed`).

use super::serializer::{self, SerdeEncoder};
use crate::cache::{ClassEntry, Schema, Undo, CLASS_POOL, LAST_LEN, SCHEMAS};
use crate::error::{Error, ErrorKind, Result};
use crate::h2::Encoder;
use crate::value::ClassDef;
use serde::ser::{self, Serialize};
use std::cell::Cell;
use std::io::Write;
use std::sync::Arc;

/// The class entries of a message, their field names one after the other in `names` (an
/// entry's are `names[fields_at..][..fields_len]`). Both vectors are reused from message to
/// message on this thread: a message allocates nothing for its class list, and an entry is
/// plain data (no drop, no reference count shared with the thread's [`Schema`]s).
struct ClassList {
    entries: Vec<ClassEntry>,
    names: Vec<&'static str>,
    /// Whether the first entry and its field names are still in the vectors' memory, beyond
    /// their lengths, as they were pushed (fields other than the name, the field names and the
    /// signature changed in place at most): set by [`keep_first`](Self::keep_first), cleared by
    /// anything that could write over them. See [`reuse_first`](Self::reuse_first).
    first_kept: bool,
}

impl ClassList {
    #[inline]
    fn new() -> Self {
        let (entries, names) = CLASS_POOL.try_with(Cell::take).unwrap_or_default();
        ClassList { entries, names, first_kept: false }
    }

    /// An empty list that leaves this thread's pool alone.
    fn detached() -> Self {
        ClassList { entries: Vec::new(), names: Vec::new(), first_kept: false }
    }

    /// Marks the first entry as one [`reuse_first`](Self::reuse_first) may bring back once the
    /// list is cleared.
    fn keep_first(&mut self) {
        self.first_kept = !self.entries.is_empty();
    }

    /// Whether an empty list may [`reuse_first`](Self::reuse_first).
    #[inline(always)]
    fn first_kept(&self) -> bool {
        self.first_kept
    }

    /// Brings back the first entry of an empty list whose first entry was kept
    /// ([`first_kept`](Self::first_kept)), with its field names, and returns it to be set up for
    /// this message; `None` (nothing changed) otherwise.
    #[inline(always)]
    fn reuse_first(&mut self) -> Option<&mut ClassEntry> {
        if !self.first_kept || !self.entries.is_empty() || self.entries.capacity() == 0 {
            return None;
        }
        // SAFETY: `first_kept` says that element 0 of `entries` and the first `fields_len` of
        // `names` were written by `push` and that nothing wrote over them since: only `clear`
        // (which drops nothing, both element types being plain `Copy` data) shortened the
        // vectors, and every other way to shorten, reallocate or refill them clears the flag
        // (`push` into an empty list, `truncate`, `keep_seeded`, `shrink`). So the memory is
        // initialized with valid values, within capacity, and may be taken back into the
        // vectors' lengths.
        unsafe {
            self.entries.set_len(1);
            let n = self.entries[0].fields_len as usize;
            debug_assert!(n <= self.names.capacity() && self.entries[0].fields_at == 0);
            self.names.set_len(n);
        }
        self.entries.first_mut()
    }

    /// Appends `entry` with `fields` and returns its index.
    #[inline]
    fn push(&mut self, mut entry: ClassEntry, fields: &[&'static str]) -> usize {
        if self.entries.is_empty() {
            // the first entry's memory is written over
            self.first_kept = false;
        }
        let (at, n) = (self.names.len(), fields.len());
        entry.fields_at = at as u32;
        entry.fields_len = n as u32;
        const SHORT_FIELDS: usize = crate::ascii::SHORT / std::mem::size_of::<&str>();
        if n <= SHORT_FIELDS {
            // A struct's few field names without a call to `memcpy`.
            self.names.reserve(n);
            // SAFETY: `reserve` made room for `n` more names; `copy_short` copies exactly the
            // `n * size_of::<&str>() <= SHORT` bytes of `fields` (plain data, no drop), which
            // are initialized before the length covers them.
            unsafe {
                let d = self.names.as_mut_ptr().add(at) as *mut u8;
                crate::ascii::copy_short(fields.as_ptr() as *const u8, d, n * std::mem::size_of::<&str>());
                self.names.set_len(at + n);
            }
        } else {
            self.names.extend_from_slice(fields);
        }
        self.entries.push(entry);
        self.entries.len() - 1
    }

    /// The field names of entry `e` (of this list).
    #[inline]
    fn fields(&self, e: &ClassEntry) -> &[&'static str] {
        let at = e.fields_at as usize;
        self.names.get(at..at + e.fields_len as usize).unwrap_or_default()
    }

    /// The field names of entry `i`, if there is one.
    #[inline]
    fn fields_of(&self, i: usize) -> Option<&[&'static str]> {
        self.entries.get(i).map(|e| self.fields(e))
    }

    /// Drops every entry (entries and names are plain data: nothing to drop one by one).
    #[inline]
    fn clear(&mut self) {
        self.entries.clear();
        self.names.clear();
    }

    /// Keeps the first `n` entries.
    #[inline]
    fn truncate(&mut self, n: usize) {
        if n == 0 {
            self.first_kept = false;
        }
        if let Some(e) = self.entries.get(n) {
            self.names.truncate(e.fields_at as usize);
            self.entries.truncate(n);
        }
    }

    /// Keeps only the entries of classes numbered below `n` (a type map's), as entries found
    /// before this message: nothing to undo, never chosen yet.
    fn keep_seeded(&mut self, n: u32) {
        self.first_kept = false;
        let (entries, names) = (std::mem::take(&mut self.entries), std::mem::take(&mut self.names));
        for mut e in entries.iter().copied().filter(|e| e.id < n) {
            let at = e.fields_at as usize;
            let fields = names.get(at..at + e.fields_len as usize).unwrap_or_default();
            e.spec = None;
            e.used = 0;
            self.push(e, fields);
        }
    }

    /// The heap bytes of the list.
    fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.entries.capacity() * size_of::<ClassEntry>() + self.names.capacity() * size_of::<&str>()
    }

    /// Drops the room beyond the entries and names.
    fn shrink(&mut self) {
        self.first_kept = false;
        self.entries.shrink_to_fit();
        self.names.shrink_to_fit();
    }
}

impl std::ops::Deref for ClassList {
    type Target = Vec<ClassEntry>;
    #[inline]
    fn deref(&self) -> &Vec<ClassEntry> {
        &self.entries
    }
}

impl std::ops::DerefMut for ClassList {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<ClassEntry> {
        &mut self.entries
    }
}

impl Drop for ClassList {
    #[inline]
    fn drop(&mut self) {
        /// The most entries (and field names) a kept vector has room for.
        const KEEP: usize = 256;
        let cap = self.entries.capacity();
        if cap == 0 || cap > KEEP || self.names.capacity() > 8 * KEEP {
            return;
        }
        self.entries.clear();
        self.names.clear();
        let vectors = (std::mem::take(&mut self.entries), std::mem::take(&mut self.names));
        // During thread teardown the pool may be gone: then the vectors are simply freed.
        let _ = CLASS_POOL.try_with(|p| p.set(vectors));
    }
}

/// A serializer kept with a type map from one referring message to the next: its encoder's
/// tables seeded with the map's classes and the class entries its messages found for them
/// (`negotiate::Seeds`). Boxed, so that taking it for a message and keeping it again moves one
/// pointer instead of the serializer.
pub(crate) type KeptSerializer = Box<Serializer<Vec<u8>>>;

/// How a message of a [`KeptSerializer`] ended ([`Serializer::end_kept`]).
pub(crate) struct KeptEnd {
    /// The message.
    pub bytes: Vec<u8>,
    /// The classes defined beyond the map's, when asked for.
    pub defined: Vec<Arc<ClassDef>>,
    /// Whether the serializer is exactly as it was kept (the message found every struct in its
    /// entries and added nothing): it may be kept again as it is.
    pub clean: bool,
}

/// Folds one field name into a struct's field signature: its address and length, so that the
/// fast path checks a derived struct's field sequence with a few instructions per field and one
/// comparison at the end.
#[inline(always)]
fn field_sig(sig: u64, key: &'static str) -> u64 {
    ((sig ^ key.as_ptr() as u64).wrapping_add(key.len() as u64)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The most room [`to_vec`] starts with.
const MAX_HINT: usize = 16 << 10;

/// How many [`Schema`]s each thread keeps (the oldest goes first).
const KEEP_SCHEMAS: usize = 64;

/// The index in `schemas` of the schema of `name` (at this address) with `fields`, added if
/// it is new. A new field list under a known name address makes that name untrusted.
fn schema_index(schemas: &mut Vec<Schema>, name: &'static str, fields: &[&'static str], sig: u64) -> Result<usize> {
    let same = |d: &Schema| std::ptr::eq(d.name, name) && d.sig == sig && *d.fields == *fields;
    if let Some(i) = schemas.iter().position(same) {
        return Ok(i);
    }
    let def = Arc::new(ClassDef { name: name.to_owned(), fields: fields.iter().map(|f| (*f).to_owned()).collect() });
    let mut scratch = Encoder::vec();
    scratch.write_class_def(&def)?;
    let mut stable = true;
    for other in schemas.iter_mut().filter(|d| std::ptr::eq(d.name, name)) {
        other.stable = false;
        stable = false;
    }
    if schemas.len() == KEEP_SCHEMAS {
        schemas.remove(0);
    }
    let bytes = scratch.into_vec().into_boxed_slice();
    schemas.push(Schema { name, fields: fields.into(), sig, def, bytes, stable });
    Ok(schemas.len() - 1)
}

/// The signature of a struct with no fields yet.
const SIG_SEED: u64 = 0x243f_6a88_85a3_08d3;

fn fields_sig(fields: &[&'static str]) -> u64 {
    fields.iter().fold(SIG_SEED, |s, f| field_sig(s, f))
}

/// Serializes Rust values as Hessian 2.0 into a `std::io::Write`: the generic
/// [`serializer::Serializer`] over [`h2::Encoder`](crate::h2::Encoder).
///
/// One `Serializer` writes one message (class definitions and references are numbered per
/// message); call [`finish`](serializer::Serializer::finish) to flush.
pub type Serializer<W> = serializer::Serializer<Encoder<W>>;

/// The types of Hessian 2's part of the serializer (public, as [`SerdeEncoder`]'s associated
/// types must be, but not reachable from outside the crate).
mod state {
    use super::{ClassList, Snapshot};

    /// Hessian 2's state of a message in the serializer: the class definitions written so far
    /// and the bookkeeping of probe passes and speculation (see the module docs).
    pub struct ClassState {
        pub(super) classes: ClassList,
        /// How many of `classes` are not yet in the encoder's tables (the last ones; see
        /// `sync_tables`).
        pub(super) pending: u32,
        /// The struct name and field names being collected by a probe pass (see the module docs).
        pub(super) probe: Option<(&'static str, Vec<&'static str>)>,
        /// Set when a probe pass has written a class definition: the value must be serialized again.
        pub(super) restart: bool,
        /// Set when a struct's fields differed from the class definition chosen for its name: the
        /// enclosing entry rewinds to this state and serializes the value again with a probe pass.
        pub(super) mismatch: Option<Snapshot>,
        /// Makes the next `serialize_struct` probe even if its name has a definition.
        pub(super) force_probe: bool,
        /// The class entry a probe pass chose: the struct serialized again after it uses that one.
        pub(super) pinned: Option<usize>,
        pub(super) tick: u64,
        /// The first struct of the last message, kept only by the thread's kept serializer
        /// (see [`FirstMemo`]).
        pub(super) memo: Option<Box<FirstMemo>>,
    }

    impl ClassState {
        /// Forgets a message's bookkeeping (pending definitions, probe passes, speculation),
        /// keeping the class entries.
        pub(super) fn clear_message(&mut self) {
            self.probe = None;
            self.clear_flags();
        }

        /// Forgets the remembered first struct (see [`FirstMemo`]), if this serializer keeps one.
        pub(super) fn forget_first(&mut self) {
            if let Some(m) = self.memo.as_deref_mut() {
                m.name = None;
            }
        }

        /// [`clear_message`](Self::clear_message) but for a probe pass's field list (which a
        /// message that ended well has given back already).
        #[inline]
        pub(super) fn clear_flags(&mut self) {
            self.pending = 0;
            self.restart = false;
            self.mismatch = None;
            self.force_probe = false;
            self.pinned = None;
        }

        #[inline]
        pub(super) fn new(classes: ClassList) -> Self {
            ClassState {
                classes,
                pending: 0,
                probe: None,
                restart: false,
                mismatch: None,
                force_probe: false,
                pinned: None,
                tick: 0,
                memo: None,
            }
        }
    }

    /// What the kept serializer of `to_vec` and `to_writer` remembers of the first struct of its
    /// last message, whose definition it wrote on trust: its name (as an address) and its
    /// definition's bytes; its class entry and field names stay in the class list's memory
    /// (`ClassList::reuse_first`). A message whose first struct has the same name writes the
    /// same definition from here and takes the entry back, without looking the name up in the
    /// thread's schemas; the instance is checked by signature at its end as any definition
    /// written on trust is, and a mismatch forgets the memo (see `retry`). The bytes are
    /// refilled, not reallocated, when the first struct changes.
    pub struct FirstMemo {
        pub(super) name: Option<&'static str>,
        pub(super) bytes: Vec<u8>,
    }

    /// A list being written: whether it was begun without a length (closed by `Z`), and, for a long
    /// list, the elements left after the first and the position the first started at (after the
    /// first element, the output grows once for all of them).
    pub struct ListState {
        pub(super) open: bool,
        pub(super) hint: Option<(usize, u64)>,
    }
}
use state::{ClassState, FirstMemo, ListState};

impl<W: Write> Serializer<W> {
    /// A serializer writing to `out` (buffered: call [`finish`](serializer::Serializer::finish)
    /// at the end).
    pub fn new(out: W) -> Self {
        Self::from_encoder(Encoder::new(out))
    }

    #[inline]
    fn from_parts(enc: Encoder<W>, classes: ClassList) -> Self {
        serializer::Serializer { enc, refs: 0, shared: None, st: ClassState::new(classes) }
    }

    /// Adds the class definitions written so far that the encoder's tables do not have yet, in
    /// order (before anything else can look at or add to the tables).
    fn sync_tables(&mut self) {
        if self.st.pending == 0 {
            return;
        }
        let have = self.enc.tables().classes().len() as u32;
        for i in 0..self.st.classes.len() {
            let c = &self.st.classes[i];
            if c.id < have {
                continue;
            }
            let (name, sig, fields) = (c.name, c.sig, self.st.classes.fields(c));
            let def = SCHEMAS
                .try_with(|s| {
                    let s = s.borrow();
                    s.iter().find(|d| d.name == name && d.sig == sig && *d.fields == *fields).map(|d| d.def.clone())
                })
                .ok()
                .flatten()
                .unwrap_or_else(|| {
                    Arc::new(ClassDef {
                        name: name.to_owned(),
                        fields: fields.iter().map(|f| (*f).to_owned()).collect(),
                    })
                });
            let id = self.enc.tables_mut().push_class(def);
            debug_assert_eq!(id, self.st.classes[i].id, "class numbering out of step with the tables");
        }
        self.st.pending = 0;
    }
}

impl<W: Write> Serializer<W> {
    #[cold]
    #[inline(never)]
    fn after_error<T: ?Sized + Serialize>(&mut self, e: Error, v: &T) -> Result<()> {
        if self.st.restart {
            self.st.restart = false;
            return self.entry(v);
        }
        self.retry(e, v)
    }

    /// After an error: if a struct met a definition of its name with other fields and nothing it
    /// wrote has left the buffer or defined classes, redo it with a probe pass.
    fn retry<T: ?Sized + Serialize>(&mut self, e: Error, v: &T) -> Result<()> {
        let Some(snap) = self.st.mismatch.take() else {
            // An error a value raised itself inside an instance whose definition was written on
            // trust (still unconfirmed, see `end`): if it is the struct's own (not one of its
            // fields' values: `field_failed` puts those back where they failed), it is located
            // where a thread without that definition fails, in the probe pass, before anything
            // of the instance is written.
            if e.offset() == Error::UNKNOWN_OFFSET {
                if let Some(pos) = self.st.classes.iter().rev().find_map(|c| c.spec.map(|u| u.pos)) {
                    return Err(e.at_offset(pos));
                }
            }
            return Err(e.at_offset(self.enc.position()));
        };
        // a struct whose fields differed: no more definitions on trust from the memo
        self.st.forget_first();
        // The instance whose definition was written on trust: take the definition (and the
        // classes defined after it) back too.
        let spec =
            self.st.classes.iter().enumerate().find_map(|(i, c)| c.spec.filter(|u| u.pos == snap.pos).map(|u| (i, u)));
        if let Some((i, undo)) = spec {
            if !self.enc.rewind_to(undo.pos, undo.window) {
                return Err(e);
            }
            self.st.classes.truncate(i);
            self.enc.tables_mut().truncate(undo.tables as usize, undo.types as usize);
            let have = self.enc.tables().classes().len() as u32;
            self.st.pending = self.st.classes.iter().filter(|c| c.id >= have).count() as u32;
            self.refs = snap.refs;
            if let Some(shared) = &mut self.shared {
                shared.retain(|_, r| *r < snap.refs);
            }
            self.st.force_probe = true;
            return self.entry(v);
        }
        if snap.defs != self.defs() || !self.enc.rewind(snap.pos) {
            return Err(e);
        }
        self.refs = snap.refs;
        self.st.force_probe = true;
        self.entry(v)
    }

    /// Class definitions made so far (by this serializer or in the encoder's tables): a struct
    /// that made any cannot be redone.
    #[inline]
    fn defs(&self) -> u32 {
        (self.st.classes.len() + self.enc.tables().classes().len()) as u32
    }

    /// The class entry for a struct name, and whether it may take the signature-checked fast
    /// path (found by the address of the name, not ambiguous).
    #[inline]
    fn find_class(&mut self, name: &'static str, len: usize) -> Option<(usize, bool)> {
        // Pointer identity first (the derive's literal), then content.
        // (the other copy of a name is fast once an instance of it has been checked)
        let at = |c: &ClassEntry| std::ptr::eq(c.name, name) || c.alt_name.is_some_and(|a| std::ptr::eq(a, name));
        if let Some(i) = self.st.classes.iter().position(at) {
            let c = &self.st.classes[i];
            if !c.ambiguous {
                return Some((i, c.fast && (std::ptr::eq(c.name, name) || c.alt_sig != 0)));
            }
        } else if self.st.classes.is_empty() {
            return None;
        }
        self.find_class_slow(name, len).map(|i| (i, false))
    }

    #[cold]
    fn find_class_slow(&mut self, name: &'static str, len: usize) -> Option<usize> {
        let first = self.st.classes.iter().position(|c| c.name == name)?;
        if !self.st.classes[first].ambiguous {
            let c = &mut self.st.classes[first];
            if c.alt_name.is_none() {
                c.alt_name = Some(name);
            }
            return Some(first);
        }
        // Several Rust types share this name: the most recently used one with `len` fields, else
        // the most recently used one.
        let best = |exact: bool| {
            self.st
                .classes
                .iter()
                .enumerate()
                .filter(|(_, c)| c.name == name && (!exact || c.fields_len as usize == len))
                .max_by_key(|(_, c)| c.used)
                .map(|(i, _)| i)
        };
        let i = best(true).or_else(|| best(false))?;
        self.st.tick += 1;
        self.st.classes[i].used = self.st.tick;
        Some(i)
    }

    fn define_class(&mut self, name: &'static str, fields: &[&'static str]) -> Result<usize> {
        let sig = fields_sig(fields);
        let list = &self.st.classes;
        if let Some(i) = list.iter().position(|c| c.name == name && list.fields(c) == fields) {
            self.st.tick += 1;
            let c = &mut self.st.classes[i];
            c.used = self.st.tick;
            if c.sig != sig {
                // The same names at other addresses: check this class name by name from now on.
                c.fast = false;
            }
            return Ok(i);
        }
        let mut schemas = SCHEMAS.with(|s| s.take());
        let r = schema_index(&mut schemas, name, fields, sig).and_then(|i| self.define_from(&schemas[i], None));
        SCHEMAS.with(|s| *s.borrow_mut() = schemas);
        r
    }

    /// Writes the definition of `schema` (unless the encoder's tables have it already, e.g.
    /// seeded) and adds its class entry; `spec` when written on trust.
    fn define_from(&mut self, schema: &Schema, spec: Option<Undo>) -> Result<usize> {
        let tables = self.enc.tables();
        let seeded = if tables.classes().is_empty() { None } else { tables.class_id(&schema.def) };
        if let Some(id) = seeded {
            if tables.class(id as usize).is_some_and(|seed| !Arc::ptr_eq(seed, &schema.def)) {
                // a type map's class equal to this thread's definition: the (kept) tables hold
                // this thread's definition from now on, found by address
                self.enc.tables_mut().replace_class(id as usize, schema.def.clone());
            }
        }
        let id = match seeded {
            Some(id) => id,
            None => {
                self.enc.write_class_def_bytes(&schema.bytes, &schema.def)?;
                let id = self.enc.tables().classes().len() as u32 + self.st.pending;
                self.st.pending += 1;
                id
            }
        };
        let name = schema.name;
        let mut ambiguous = false;
        // Written on trust only when no entry has this name (see `speculate`).
        if spec.is_none() {
            for c in self.st.classes.iter_mut().filter(|c| c.name == name) {
                c.ambiguous = true;
                ambiguous = true;
            }
        }
        self.st.tick += 1;
        Ok(self.push_schema_entry(schema, id, ambiguous, spec))
    }

    /// The first instance of a struct name in this message, when the output is one vector and
    /// this thread has written the name's definition before (and only that one): writes the
    /// definition from the cache and returns its entry, for the instance to be serialized once,
    /// checked by signature at its end (see `retry` for when the fields differ).
    #[inline(never)]
    fn speculate(&mut self, name: &'static str, pos: u64) -> Result<Option<usize>> {
        self.speculate_inline(name, pos)
    }

    /// [`speculate`](Self::speculate), in the caller's frame.
    #[inline(always)]
    fn speculate_inline(&mut self, name: &'static str, pos: u64) -> Result<Option<usize>> {
        if !self.enc.is_direct() {
            return Ok(None);
        }
        let tables = self.enc.tables();
        let undo = Undo {
            pos,
            window: self.enc.window(),
            tables: tables.classes().len() as u32,
            types: tables.types().len() as u32,
        };
        // `define_on_trust` does not come back here, so the borrow cannot fail; if it did, the
        // struct would simply be probed.
        let r = SCHEMAS.try_with(|s| {
            let schemas = s.try_borrow().ok()?;
            let schema = schemas.iter().rev().find(|d| std::ptr::eq(d.name, name)).filter(|d| d.stable)?;
            Some(self.define_on_trust(schema, undo))
        });
        r.ok().flatten().transpose()
    }

    /// [`define_from`](Self::define_from) for a definition written on trust (`undo` says how to
    /// take it back), in one piece when the encoder's tables have no classes (nothing seeded,
    /// none synced: every plain message's first struct).
    #[inline(always)]
    fn define_on_trust(&mut self, schema: &Schema, undo: Undo) -> Result<usize> {
        if undo.tables != 0 {
            return self.define_from(schema, Some(undo));
        }
        self.enc.write_class_def_bytes(&schema.bytes, &schema.def)?;
        // no class in the tables: the entries not yet in them are numbered from 0
        let id = self.st.pending;
        self.st.pending += 1;
        self.st.tick += 1;
        Ok(self.push_schema_entry(schema, id, false, Some(undo)))
    }

    /// Adds the class entry of `schema`'s definition, numbered `id` and chosen now; `spec` when
    /// written on trust. Returns its index.
    #[inline(always)]
    fn push_schema_entry(&mut self, schema: &Schema, id: u32, ambiguous: bool, spec: Option<Undo>) -> usize {
        let entry = ClassEntry {
            name: schema.name,
            fields_at: 0,
            fields_len: 0,
            id,
            ambiguous,
            used: self.st.tick,
            sig: schema.sig,
            fast: true,
            spec,
            alt_name: None,
            alt_sig: 0,
        };
        self.st.classes.push(entry, &schema.fields)
    }

    #[inline]
    fn object_header(&mut self, class: usize) -> Result<()> {
        self.refs += 1;
        let id = self.st.classes[class].id;
        self.enc.write_object_header(id)
    }

    fn unit_variant(&mut self, name: &'static str, variant: &'static str) -> Result<()> {
        // A Java enum: an object of the enum's class with the single field `name`.
        let class = match self.find_class(name, 1) {
            Some((c, _)) if self.st.classes.fields_of(c) == Some(&["name"][..]) => c,
            _ => self.define_class(name, &["name"])?,
        };
        self.object_header(class)?;
        self.enc.write_str(variant)
    }
}

impl Serializer<Vec<u8>> {
    /// A serializer to keep with a type map (see [`KeptSerializer`]): its tables are `tables`,
    /// seeded with the map's classes, and its class entries are its own (not this thread's).
    pub(crate) fn kept(tables: crate::tables::Tables) -> KeptSerializer {
        Box::new(Self::from_parts(Encoder::vec_with_tables(Vec::new(), tables), ClassList::detached()))
    }

    /// Starts the next message of a kept serializer, writing into `buf` (cleared first), with
    /// nothing of the last message but its seeded tables and class entries; returns how many
    /// class entries it starts with (for [`end_kept`](Self::end_kept)).
    pub(crate) fn restart(&mut self, buf: Vec<u8>) -> usize {
        self.enc.restart_into(buf);
        // the last message's references, probe passes and speculation (not its class entries)
        self.refs = 0;
        self.shared = None;
        self.st.clear_message();
        self.st.tick = 0;
        self.st.classes.len()
    }

    /// Ends a message of a kept serializer on a map of `classes` classes that started with
    /// `entries` class entries ([`restart`](Self::restart)). Unless the message left the
    /// serializer as it was kept, its tables are reset to the seed and only the seeded classes'
    /// entries are kept, as entries found before this message (nothing to undo, never chosen).
    /// With `inline`, also returns the class definitions the message defined beyond the map.
    pub(crate) fn end_kept(&mut self, classes: usize, entries: usize, inline: bool) -> KeptEnd {
        // Nothing defined or chosen (`tick` counts both) and no entry added: the seed as it was.
        let st = &self.st;
        if st.pending == 0 && st.tick == 0 && st.classes.len() == entries && self.enc.tables().is_seed_of(classes) {
            return KeptEnd { bytes: self.enc.take_vec(), defined: Vec::new(), clean: true };
        }
        let defined = if inline {
            self.sync_tables();
            self.enc.tables().classes().get(classes..).unwrap_or_default().to_vec()
        } else {
            Vec::new()
        };
        self.enc.tables_mut().reset();
        self.st.classes.keep_seeded(u32::try_from(classes).unwrap_or(u32::MAX));
        self.st.pending = 0;
        self.shared = None;
        KeptEnd { bytes: self.enc.take_vec(), defined, clean: false }
    }

    /// The encoder's tables (without bringing them up to date).
    pub(crate) fn encoder_tables(&self) -> &crate::tables::Tables {
        self.enc.tables()
    }

    /// The heap bytes of a kept serializer: its box, its tables' lists, its class entries with
    /// their field lists (the output buffer is the caller's).
    pub(crate) fn kept_heap_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>() + self.enc.tables().heap_bytes() + self.st.classes.heap_bytes()
    }

    /// The most [`kept_heap_bytes`](Self::kept_heap_bytes) of a kept serializer for `classes`
    /// classes with `fields` fields in all, once [`shrink_kept`](Self::shrink_kept)ed.
    pub(crate) fn kept_bytes_for(classes: usize, fields: usize) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + crate::tables::Tables::seed_bytes(classes, 0, false)
            + classes * size_of::<ClassEntry>()
            + fields * size_of::<&str>()
    }

    /// Gives back the room beyond the tables' and entries' contents.
    pub(crate) fn shrink_kept(&mut self) {
        self.enc.tables_mut().shrink();
        self.st.classes.shrink();
    }
}

/// The one-vector serializer of [`to_vec`] and [`to_writer`], kept by the thread from message to
/// message (with its class list, tables and output buffer), so that a small message does not
/// build and drop them. Taken from the thread's place for a message and put back after; a
/// message that finds the place empty (one written from inside another's `Serialize`) makes a
/// serializer of its own.
type Plain = Serializer<Vec<u8>>;

/// The most output room a kept serializer keeps between messages.
const KEEP_OUT: usize = 64 << 10;

/// The thread's kept serializer, ready for a new message into its cleared output buffer: every
/// piece of message state as a new serializer has it, since [`keep_plain`] restarts it before
/// keeping it.
#[inline(always)]
fn take_plain() -> Box<Plain> {
    match PLAIN.try_with(Cell::take).ok().flatten() {
        Some(s) => s,
        None => new_plain(),
    }
}

thread_local! {
    /// The thread's kept serializer (see [`take_plain`]), when no message has it.
    static PLAIN: Cell<Option<Box<Plain>>> = const { Cell::new(None) };
}

/// The kept serializer of `to_vec` and `to_writer` while it is not in a thread's place: what a
/// [`Session`](crate::Session) owns of it.
#[derive(Default)]
pub(crate) struct KeptPlain(Option<Box<Plain>>);

/// Exchanges `kept` with this thread's kept serializer (see [`crate::cache::swap`]).
pub(crate) fn swap_plain(kept: &mut KeptPlain) {
    let _ = PLAIN.try_with(|c| c.swap(Cell::from_mut(&mut kept.0)));
}

#[cold]
fn new_plain() -> Box<Plain> {
    let mut s = Box::new(Serializer::from_parts(Encoder::vec_from(Vec::new()), ClassList::new()));
    s.st.memo = Some(Box::new(FirstMemo { name: None, bytes: Vec::new() }));
    s
}

/// Restarts `s` for the next message (see [`Serializer::restart_plain`]) and puts it back in the
/// thread's place (its output buffer too, unless large). `ok` is whether its message succeeded:
/// only then may the restart skip what a message that went well leaves untouched.
#[inline(always)]
fn keep_plain(mut s: Box<Plain>, ok: bool) {
    if s.enc.capacity() > KEEP_OUT {
        s.enc.restart_into(Vec::new());
    }
    if ok && s.is_quiet() {
        s.restart_quiet();
    } else {
        s.restart_plain();
    }
    // (a serializer already there, kept by a message written inside this one, is dropped out
    // of line)
    if let Ok(Some(other)) = PLAIN.try_with(|c| c.replace(Some(s))) {
        drop_plain(other);
    }
}

#[cold]
#[inline(never)]
fn drop_plain(s: Box<Plain>) {
    drop(s);
}

impl Plain {
    /// Starts a new message as a new serializer would, in the output buffer kept from the last
    /// message (cleared): nothing of any earlier message is left (no class entry, no table
    /// entry, no reference, no probe or speculation state).
    #[cold]
    #[inline(never)]
    fn restart_plain(&mut self) {
        self.enc.restart();
        // references, shared values, class entries, message flags and the tables' entries
        self.reset();
        self.st.tick = 0;
        self.st.forget_first();
    }

    /// Whether the message left nothing but its output, references, class entries, their
    /// bookkeeping (`pending`, `tick`) and the flags of probe passes and redos: no shared values,
    /// no probe pass's field list, nothing in the encoder's tables beyond their seed. What a
    /// message of derived structs leaves when it succeeds.
    #[inline]
    fn is_quiet(&self) -> bool {
        self.shared.is_none() && self.st.probe.is_none() && self.enc.tables().is_reset()
    }

    /// [`restart_plain`](Self::restart_plain) after an [`is_quiet`](Self::is_quiet) message: the
    /// same state, from fewer stores.
    #[inline]
    fn restart_quiet(&mut self) {
        self.enc.restart();
        self.refs = 0;
        self.st.tick = 0;
        self.st.clear_flags();
        self.st.classes.clear();
    }
}

/// The thread's kept serializer lent to one message written into the caller's buffer (a call
/// or reply of `serde::message`): it writes into that buffer, its own output buffer set aside,
/// and goes back to the thread when the message ends (restarted as after a failed message if
/// the message is dropped unfinished).
pub(crate) struct Lent {
    s: Option<Box<Plain>>,
    kept: Vec<u8>,
}

impl Lent {
    /// The thread's kept serializer, writing into `buf` (cleared first).
    #[inline]
    pub(crate) fn new(buf: Vec<u8>) -> Lent {
        let mut s = take_plain();
        let kept = s.enc.swap_output(buf);
        Lent { s: Some(s), kept }
    }

    /// The message's bytes, the serializer given back; with `inline`, also the class
    /// definitions it wrote, in order.
    pub(crate) fn finish(mut self, inline: bool) -> (Vec<u8>, Vec<Arc<ClassDef>>) {
        let Some(mut s) = self.s.take() else { return (Vec::new(), Vec::new()) };
        let classes = if inline {
            <Encoder<Vec<u8>> as SerdeEncoder>::sync(&mut s);
            s.enc.tables().classes().to_vec()
        } else {
            Vec::new()
        };
        let out = s.enc.swap_output(std::mem::take(&mut self.kept));
        keep_plain(s, true);
        (out, classes)
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        if let Some(mut s) = self.s.take() {
            s.enc.swap_output(std::mem::take(&mut self.kept));
            keep_plain(s, false);
        }
    }
}

impl std::ops::Deref for Lent {
    type Target = Plain;
    #[inline]
    fn deref(&self) -> &Plain {
        // `s` is only empty once `finish` has taken it, which consumes the `Lent`
        self.s.as_deref().unwrap_or_else(|| unreachable!("a finished Lent is gone"))
    }
}

impl std::ops::DerefMut for Lent {
    #[inline]
    fn deref_mut(&mut self) -> &mut Plain {
        self.s.as_deref_mut().unwrap_or_else(|| unreachable!("a finished Lent is gone"))
    }
}

/// Serializes `value` as one Hessian 2.0 value into a new byte vector.
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    let hint = LAST_LEN.try_with(Cell::get).unwrap_or(0).min(MAX_HINT);
    let mut s = take_plain();
    // the message goes into a vector of its own, for the caller; the kept one stays for
    // `to_writer` (as `Lent` does, without its guard: nothing here can unwind but the value's
    // `Serialize`, and then the serializer is simply dropped)
    let kept = s.enc.swap_output(Vec::with_capacity(hint.max(64)));
    let r = s.entry(value);
    let out = s.enc.swap_output(kept);
    keep_plain(s, r.is_ok());
    r?;
    let _ = LAST_LEN.try_with(|l| l.set(out.len()));
    Ok(out)
}

/// Serializes `value` as one Hessian 2.0 value into `writer` (flushed at the end).
///
/// The message is built in memory first, in the output buffer the thread keeps between
/// messages (up to 64 KiB, see [`Session`](crate::Session)), and handed to `writer` with one
/// `write_all`: the same bytes as [`to_vec`], at its cost. To stream a message too large to
/// hold, write it with a [`Serializer::new`] over the writer.
pub fn to_writer<W: Write, T: ?Sized + Serialize>(mut writer: W, value: &T) -> Result<()> {
    let mut s = take_plain();
    let r = s.entry(value);
    // at the message's start: how much of it the writer took before it failed is not known
    let written = r.and_then(|()| {
        let out = s.enc.bytes();
        writer.write_all(out).and_then(|()| writer.flush()).map_err(|e| Error::new(ErrorKind::Io(e), 0))
    });
    keep_plain(s, written.is_ok());
    written
}

/// Hessian 2's part of the serializer: structs and Java enums as objects of class definitions
/// (with the thread's cache of definitions and the probe pass, see the module docs), lists of
/// unknown length as variable-length lists, and values redone after a probe pass or a struct
/// that did not match its definition.
impl<W: Write> SerdeEncoder for Encoder<W> {
    type State = ClassState;
    type List = ListState;
    type StructSer<'a>
        = StructSer<'a, W>
    where
        W: 'a;
    const REMOTE_IS_REF: bool = true;

    #[inline]
    fn new_state() -> ClassState {
        ClassState::new(ClassList::new())
    }

    fn reset(s: &mut Serializer<W>) {
        s.st.classes.truncate(0);
        s.st.clear_message();
        s.enc.tables_mut().reset();
    }

    #[inline]
    fn sync(s: &mut Serializer<W>) {
        s.sync_tables();
    }

    #[inline]
    fn begin_list(s: &mut Serializer<W>, len: Option<usize>) -> Result<ListState> {
        s.enc.write_list_begin(len, None)?;
        let hint = len.filter(|&n| n > 16).map(|n| (n - 1, s.enc.position()));
        Ok(ListState { open: len.is_none(), hint })
    }

    #[inline]
    fn element_done(s: &mut Serializer<W>, l: &mut ListState) {
        if let Some((rest, start)) = l.hint.take() {
            let first = (s.enc.position() - start) as usize;
            let estimate = first.saturating_mul(rest);
            s.enc.reserve_hint(estimate.saturating_add(estimate / 16));
        }
    }

    #[inline]
    fn end_list(s: &mut Serializer<W>, l: ListState) -> Result<()> {
        if l.open {
            s.enc.write_list_end()
        } else {
            Ok(())
        }
    }

    #[inline(always)]
    fn serialize_struct<'a>(s: &'a mut Serializer<W>, name: &'static str, len: usize) -> Result<StructSer<'a, W>> {
        if s.st.classes.is_empty() && !s.st.force_probe && s.st.pinned.is_none() {
            first_struct(s, name, len)
        } else {
            next_struct(s, name, len)
        }
    }

    fn unit_variant(s: &mut Serializer<W>, name: &'static str, variant: &'static str) -> Result<()> {
        s.unit_variant(name, variant)
    }

    /// A value that failed: serialized again after a probe pass defined a class, or redone
    /// after a struct did not match its definition (see `retry`).
    #[inline]
    fn recover<T: ?Sized + Serialize>(s: &mut Serializer<W>, e: Error, v: &T) -> Result<()> {
        s.after_error(e, v)
    }
}

/// `serialize_struct` for the message's first struct (no class entry yet, nothing forced or
/// pinned), in one frame: the definition written on trust from this thread's schemas when it can
/// be, else a probe pass.
#[inline(never)]
fn first_struct<'a, W: Write>(s: &'a mut Serializer<W>, name: &'static str, len: usize) -> Result<StructSer<'a, W>> {
    let (pos, refs, defs) = (s.enc.position(), s.refs, s.defs());
    let found = match s.define_remembered(name, pos) {
        Some(class) => Some(class),
        None => {
            // only a definition written in full into tables without classes is remembered
            let bare = s.enc.tables().classes().is_empty();
            let class = s.speculate_inline(name, pos)?;
            if bare && class == Some(0) {
                s.remember_first(pos);
            }
            class
        }
    };
    open_struct(s, name, len, (pos, refs, defs), found.map(|class| (class, Mode::FastFirst)))
}

impl<W: Write> Serializer<W> {
    /// The first struct's class entry from the [`FirstMemo`], its definition written, when the
    /// memo is of `name` and the definition fits below the encoder's limit (no flush of Java's
    /// buffer to emulate).
    #[inline(always)]
    fn define_remembered(&mut self, name: &'static str, pos: u64) -> Option<usize> {
        let m = self.st.memo.as_deref()?;
        if !m.name.is_some_and(|n| std::ptr::eq(n, name)) || !self.st.classes.first_kept() || !self.enc.is_direct() {
            return None;
        }
        let tables = self.enc.tables();
        if !tables.classes().is_empty() {
            return None;
        }
        let undo = Undo { pos, window: self.enc.window(), tables: 0, types: tables.types().len() as u32 };
        if !self.enc.write_below_limit(&m.bytes) {
            return None;
        }
        // set up as `define_on_trust` makes it
        let id = self.st.pending;
        let Some(e) = self.st.classes.reuse_first() else {
            // (cannot be: the definition is written, so go on as for a new class)
            self.enc.rewind(pos);
            return None;
        };
        self.st.pending += 1;
        self.st.tick += 1;
        e.id = id;
        e.ambiguous = false;
        e.used = self.st.tick;
        e.fast = true;
        e.spec = Some(undo);
        e.alt_name = None;
        e.alt_sig = 0;
        Some(0)
    }

    /// Keeps the first struct's definition (written from `pos` on) in the [`FirstMemo`], if this
    /// serializer has one, and its class entry in the class list's memory.
    #[cold]
    fn remember_first(&mut self, pos: u64) {
        let Some(m) = self.st.memo.as_deref_mut() else { return };
        let (Some(entry), Some(bytes)) = (self.st.classes.first(), self.enc.bytes_from(pos)) else {
            return;
        };
        if self.st.classes.len() != 1 || entry.spec.is_none() || bytes.first() != Some(&crate::h2::codes::BC_CLASS_DEF)
        {
            return;
        }
        m.bytes.clear();
        m.bytes.extend_from_slice(bytes);
        m.name = Some(entry.name);
        self.st.classes.keep_first();
    }
}

/// `serialize_struct` once the message has class entries (or a struct is forced to a probe
/// pass, or pinned to the entry its probe pass chose).
#[inline(never)]
fn next_struct<'a, W: Write>(s: &'a mut Serializer<W>, name: &'static str, len: usize) -> Result<StructSer<'a, W>> {
    let (pos, refs, defs) = (s.enc.position(), s.refs, s.defs());
    let found = if s.st.force_probe {
        s.st.force_probe = false;
        None
    } else if let Some(class) = s.st.pinned.take() {
        Some((class, Mode::Checked))
    } else {
        match s.find_class(name, len) {
            // The first instance in this message: the definition may be known from before.
            None => s.speculate(name, pos)?.map(|class| (class, Mode::FastFirst)),
            Some((class, fast)) => Some((class, if fast { Mode::Fast } else { Mode::Checked })),
        }
    };
    open_struct(s, name, len, (pos, refs, defs), found)
}

/// The end of `serialize_struct`: the object's header for the class entry `found` (and how its
/// fields are checked), or a probe pass when there is none.
#[inline(always)]
fn open_struct<'a, W: Write>(
    s: &'a mut Serializer<W>,
    name: &'static str,
    len: usize,
    (pos, refs, defs): (u64, u32, u32),
    found: Option<(usize, Mode)>,
) -> Result<StructSer<'a, W>> {
    let (class, mode) = match found {
        Some((class, mode)) => {
            s.object_header(class)?;
            (class as u32, mode)
        }
        None => {
            if s.st.probe.is_some() {
                return Err(s.pos_err(ErrorKind::Unencodable("nested struct in a probe pass".into())));
            }
            s.st.probe = Some((name, Vec::with_capacity(len)));
            (0, Mode::Probe)
        }
    };
    Ok(StructSer { ser: s, sig: SIG_SEED, pos, class, refs, defs, next: 0, mode })
}

/// The state of a serializer before a struct, to redo the struct from.
#[derive(Clone, Copy)]
struct Snapshot {
    pos: u64,
    refs: u32,
    /// [`Serializer::defs`].
    defs: u32,
}

/// How a [`StructSer`] checks the fields it is given against its class definition.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Mode {
    /// By signature over the field names' addresses, compared once at the end.
    Fast = 0,
    /// As `Fast`, for the instance whose class definition was written on trust (see
    /// `speculate`): its end confirms the definition (clears its entry's `spec`), and an
    /// error its own `Serialize` raises before is located at its start (see `retry`).
    FastFirst = 1,
    /// Name by name (by address, then by content).
    Checked = 2,
    /// No class definition yet: collect the field names (nothing is written).
    Probe = 3,
}

impl Mode {
    /// Whether the fields are checked by signature (`Fast` or `FastFirst`).
    #[inline(always)]
    fn by_sig(self) -> bool {
        (self as u8) <= Mode::FastFirst as u8
    }
}

/// Serializer of a struct's fields as a Hessian object (or, in a probe pass, collector of its
/// field names). Kept small: derived code moves it by value into `end`.
pub struct StructSer<'a, W: Write> {
    ser: &'a mut Serializer<W>,
    /// In [`Mode::Fast`]: the signature of the fields given so far.
    sig: u64,
    /// Where the struct started, to redo it from: position, references, definitions.
    pos: u64,
    /// The class entry (not used in a probe pass).
    class: u32,
    refs: u32,
    defs: u32,
    /// In [`Mode::Checked`]: the index of the next field.
    next: u32,
    mode: Mode,
}

impl<W: Write> StructSer<'_, W> {
    #[inline(always)]
    fn snapshot(&self) -> Snapshot {
        Snapshot { pos: self.pos, refs: self.refs, defs: self.defs }
    }
}

// The slow paths of `StructSer` take its fields by value, so that the struct itself never has
// its address taken and stays in registers on the fast path.
impl<W: Write> Serializer<W> {
    /// The name of the struct being serialized (from its class entry, or the probe pass).
    fn struct_name(&self, mode: Mode, class: u32) -> &'static str {
        match (&self.st.probe, mode) {
            (Some((name, _)), Mode::Probe) => name,
            _ => self.st.classes.get(class as usize).map_or("?", |c| c.name),
        }
    }

    #[cold]
    fn struct_mismatch(&mut self, mode: Mode, class: u32, start: Snapshot, what: String) -> Error {
        self.st.mismatch = Some(start);
        let name = self.struct_name(mode, class);
        self.pos_err(ErrorKind::Unencodable(format!(
            "struct `{name}` {what}; the value could not be redone with a new class definition \
             (it was partly flushed or defined classes)"
        )))
    }

    /// A field's value failed with `e` in a struct checked by signature that began at `start`.
    /// In the instance whose definition was written on trust (`Mode::FastFirst`) such an error
    /// is the field's, not the struct's own:
    /// if `retry` located it at the instance's start (see there), it goes back to where it
    /// failed, as on a thread that probed the struct first (the probe pass does not serialize
    /// values, so the value fails there too, at the same offset). Nothing was written since.
    #[cold]
    #[inline(never)]
    fn field_failed(&self, mode: Mode, start: u64, mut e: Error) -> Error {
        if mode == Mode::FastFirst && e.offset() == start {
            e.relocate(self.enc.position());
        }
        e
    }

    /// A field in [`Mode::Checked`] or [`Mode::Probe`]; returns whether its value is to be
    /// written (the caller then counts it).
    #[cold]
    #[inline(never)]
    fn check_field(&mut self, mode: Mode, class: u32, next: u32, start: Snapshot, key: &'static str) -> Result<bool> {
        if mode == Mode::Probe {
            if let Some((_, fields)) = self.st.probe.as_mut() {
                fields.push(key);
            }
            return Ok(false);
        }
        let expected = self.st.classes.fields_of(class as usize).and_then(|f| f.get(next as usize));
        match expected {
            Some(f) if std::ptr::eq(*f, key) || *f == key => Ok(true),
            other => {
                let what = format!("wrote field `{key}` where its class definition has {other:?}");
                Err(self.struct_mismatch(mode, class, start, what))
            }
        }
    }

    /// The end of a probe pass (defines the class and asks for the value again), of a checked
    /// struct, or of a fast one whose signature differed from its class definition's.
    #[cold]
    #[inline(never)]
    fn end_struct_slow(&mut self, mode: Mode, class: u32, next: u32, sig: u64, start: Snapshot) -> Result<()> {
        match mode {
            Mode::Probe => {
                let (name, fields) = self.st.probe.take().unwrap_or_default();
                let class = self.define_class(name, &fields)?;
                self.st.pinned = Some(class);
                self.st.restart = true;
                // Caught by the entry that serializes the value again (see `entry`); never seen by
                // the caller, so it carries no message to build.
                Err(self.pos_err(ErrorKind::Unencodable(String::new())))
            }
            Mode::Checked => {
                let expected = self.st.classes.get(class as usize).map_or(0, |c| c.fields_len as usize);
                if next as usize == expected {
                    // every field matched, in order: instances with this field sequence (by
                    // signature) may take the fast path from now on
                    if let Some(c) = self.st.classes.get_mut(class as usize) {
                        if c.alt_sig == 0 && c.sig != sig {
                            c.alt_sig = sig;
                        }
                    }
                    return Ok(());
                }
                let what = format!("wrote {next} of the {expected} fields of its class definition");
                Err(self.struct_mismatch(mode, class, start, what))
            }
            Mode::Fast | Mode::FastFirst => {
                Err(self.struct_mismatch(mode, class, start, "wrote other fields than its class definition has".into()))
            }
        }
    }
}

impl<W: Write> ser::SerializeStruct for StructSer<'_, W> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        if self.mode.by_sig() {
            self.sig = field_sig(self.sig, key);
            return match self.ser.entry(value) {
                Ok(()) => Ok(()),
                Err(e) => Err(self.ser.field_failed(self.mode, self.pos, e)),
            };
        }
        self.sig = field_sig(self.sig, key);
        let start = self.snapshot();
        if self.ser.check_field(self.mode, self.class, self.next, start, key)? {
            self.next += 1;
            self.ser.entry(value)?;
        }
        Ok(())
    }

    /// A field skipped by `skip_serializing_if` is written as `null`, so that every instance of
    /// a struct shares one class definition (Java leaves the field at its default).
    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        if self.mode.by_sig() {
            self.sig = field_sig(self.sig, key);
            return self.ser.enc.write_null();
        }
        self.sig = field_sig(self.sig, key);
        let start = self.snapshot();
        if self.ser.check_field(self.mode, self.class, self.next, start, key)? {
            self.next += 1;
            self.ser.enc.write_null()?;
        }
        Ok(())
    }

    #[inline]
    fn end(self) -> Result<()> {
        if self.mode.by_sig() {
            if let Some(c) = self.ser.st.classes.get_mut(self.class as usize) {
                if c.sig == self.sig || c.alt_sig == self.sig {
                    if self.mode == Mode::FastFirst {
                        // the definition written on trust is this instance's: confirmed
                        c.spec = None;
                    }
                    return Ok(());
                }
            }
        }
        let start = self.snapshot();
        self.ser.end_struct_slow(self.mode, self.class, self.next, self.sig, start)
    }
}
