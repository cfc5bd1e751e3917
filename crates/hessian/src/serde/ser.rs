//! The Hessian 2.0 serde [`Serializer`]: writes straight through [`h2::Encoder`](crate::h2::Encoder), the one wire
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

use super::{shared, value, DATE_TOKEN, SHARED_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind, Result};
use crate::h2::Encoder;
use crate::value::ClassDef;
use serde::ser::{self, Serialize};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

/// A class definition written in this message for a struct (or Java enum) name.
struct ClassEntry {
    name: &'static str,
    fields: Vec<&'static str>,
    /// Its index in the message (and, once in the encoder's tables, there).
    id: u32,
    /// Whether other entries have the same name (different Rust types, one remote name).
    ambiguous: bool,
    /// When the entry was last chosen among ambiguous ones.
    used: u64,
    /// [`field_sig`] over the addresses of the field names that defined the entry.
    sig: u64,
    /// Whether instances found by the address of their struct name may be checked by
    /// signature only (cleared when the same names turned up at other addresses, e.g. from
    /// another monomorphization of a generic struct).
    fast: bool,
    /// Set when the definition was written from the [`Schema`] cache for the instance that
    /// starts at `Undo::pos`: how to take the definition back if that instance's fields differ.
    spec: Option<Undo>,
    /// The same struct name at another address (another copy of the derived code, e.g. in
    /// another codegen unit), found by content once and by address from then on.
    alt_name: Option<&'static str>,
    /// The signature of another field sequence an instance was checked to match name by name
    /// (e.g. that other copy's field names), accepted by the fast path too; 0 while none.
    alt_sig: u64,
}

/// The state in front of a class definition written on trust (see [`Schema`]).
#[derive(Clone, Copy)]
struct Undo {
    pos: u64,
    /// [`Encoder::window`] at `pos`.
    window: usize,
    /// The lengths of the encoder's class and type tables at `pos`.
    tables: u32,
    types: u32,
}

/// The class entries of a message. The vectors (the entries' field lists included) are reused
/// from message to message on this thread, so that a message allocates none of them.
struct ClassList {
    entries: Vec<ClassEntry>,
    /// Field lists of entries dropped earlier, for reuse.
    spare: Vec<Vec<&'static str>>,
}

thread_local! {
    /// The vectors of the last [`ClassList`] dropped on this thread.
    static CLASS_POOL: Cell<(Vec<ClassEntry>, Vec<Vec<&'static str>>)> = const { Cell::new((Vec::new(), Vec::new())) };
}

impl ClassList {
    fn new() -> Self {
        let (entries, spare) = CLASS_POOL.try_with(Cell::take).unwrap_or_default();
        ClassList { entries, spare }
    }

    /// Appends an entry for `fields` (copied into a recycled vector) and returns its index.
    fn push(&mut self, mut entry: ClassEntry, fields: &[&'static str]) -> usize {
        let mut list = self.spare.pop().unwrap_or_default();
        list.clear();
        list.extend_from_slice(fields);
        entry.fields = list;
        self.entries.push(entry);
        self.entries.len() - 1
    }

    /// Drops the entries from `n` on, keeping their field vectors.
    fn truncate(&mut self, n: usize) {
        while self.entries.len() > n {
            if let Some(e) = self.entries.pop() {
                self.spare.push(e.fields);
            }
        }
    }
}

impl std::ops::Deref for ClassList {
    type Target = Vec<ClassEntry>;
    fn deref(&self) -> &Vec<ClassEntry> {
        &self.entries
    }
}

impl std::ops::DerefMut for ClassList {
    fn deref_mut(&mut self) -> &mut Vec<ClassEntry> {
        &mut self.entries
    }
}

impl ClassList {
    /// An empty list that leaves this thread's pool alone.
    fn detached() -> Self {
        ClassList { entries: Vec::new(), spare: Vec::new() }
    }

    /// Keeps only the entries of classes numbered below `n` (a type map's), as entries found
    /// before this message: nothing to undo, never chosen yet.
    fn keep_seeded(&mut self, n: u32) {
        let mut i = 0;
        while i < self.entries.len() {
            if self.entries[i].id < n {
                let e = &mut self.entries[i];
                e.spec = None;
                e.used = 0;
                i += 1;
            } else {
                let e = self.entries.remove(i);
                self.spare.push(e.fields);
            }
        }
    }
}

impl Drop for ClassList {
    fn drop(&mut self) {
        /// What a thread keeps (the size of the vectors is bounded by the program's structs).
        const KEEP: usize = 256;
        if self.entries.capacity() == 0 && self.spare.is_empty() {
            return;
        }
        self.truncate(0);
        if self.entries.capacity() > KEEP {
            return;
        }
        self.spare.truncate(KEEP);
        let vectors = (std::mem::take(&mut self.entries), std::mem::take(&mut self.spare));
        // During thread teardown the pool may be gone: then the vectors are simply freed.
        let _ = CLASS_POOL.try_with(|p| p.set(vectors));
    }
}

/// The class entries of a serializer for a type map's classes, kept from one message on that
/// map to the next (with the map's seeded tables, `negotiate::seeded_tables`).
pub(crate) struct SeedEntries(ClassList);

/// What [`Serializer::into_vec_and_seed`] returns.
pub(crate) struct SeedParts {
    /// The message.
    pub bytes: Vec<u8>,
    /// The encoder's tables (to be reset to the seed).
    pub tables: crate::tables::Tables,
    /// The class entries of the seeded classes.
    pub entries: SeedEntries,
    /// The classes defined beyond the seed, when asked for.
    pub defined: Vec<Arc<ClassDef>>,
}

/// Folds one field name into a struct's field signature: its address and length, so that the
/// fast path checks a derived struct's field sequence with a few instructions per field and one
/// comparison at the end.
#[inline(always)]
fn field_sig(sig: u64, key: &'static str) -> u64 {
    ((sig ^ key.as_ptr() as u64).wrapping_add(key.len() as u64)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A class definition this thread has written before for a struct: a message of one small
/// struct would otherwise spend most of its time building (and dropping) the definition, and
/// running the probe pass.
struct Schema {
    /// The name as serde gave it: instances are found by its address (the derive's literal).
    name: &'static str,
    fields: Box<[&'static str]>,
    /// [`fields_sig`] of `fields`.
    sig: u64,
    def: Arc<ClassDef>,
    /// What [`Encoder::write_class_def`] writes for `def`.
    bytes: Box<[u8]>,
    /// Whether every field list met under this name's address (on this thread) had this
    /// signature: only then is the definition written on trust, before the fields are seen.
    stable: bool,
}

thread_local! {
    static SCHEMAS: RefCell<Vec<Schema>> = const { RefCell::new(Vec::new()) };
}

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

/// Serializes Rust values as Hessian 2.0 into a `std::io::Write`.
///
/// One `Serializer` writes one message (class definitions and references are numbered per
/// message); call [`finish`](Self::finish) to flush.
pub struct Serializer<W: Write> {
    enc: Encoder<W>,
    classes: ClassList,
    /// How many of `classes` are not yet in the encoder's tables (the last ones; see
    /// [`sync_tables`](Self::sync_tables)).
    pending: u32,
    /// The struct name and field names being collected by a probe pass (see the module docs).
    probe: Option<(&'static str, Vec<&'static str>)>,
    /// Set when a probe pass has written a class definition: the value must be serialized again.
    restart: bool,
    /// Lists, maps and objects written so far (the reference numbering of the message).
    refs: u32,
    /// Addresses of [`Shared`](super::Shared) values already written, with their reference index
    /// (made when the first one is written).
    shared: Option<HashMap<usize, u32>>,
    /// Set when a struct's fields differed from the class definition chosen for its name: the
    /// enclosing entry rewinds to this state and serializes the value again with a probe pass.
    mismatch: Option<Snapshot>,
    /// Makes the next `serialize_struct` probe even if its name has a definition.
    force_probe: bool,
    /// The class entry a probe pass chose: the struct serialized again after it uses that one.
    pinned: Option<usize>,
    tick: u64,
}

impl<W: Write> Serializer<W> {
    /// A serializer writing to `out` (buffered: call [`finish`](Self::finish) at the end).
    pub fn new(out: W) -> Self {
        Self::from_encoder(Encoder::new(out))
    }

    /// A serializer on top of an existing encoder (e.g. one with pre-seeded tables, or inside an
    /// RPC envelope that the caller writes with the same encoder).
    pub fn from_encoder(enc: Encoder<W>) -> Self {
        Self::from_parts(enc, ClassList::new())
    }

    fn from_parts(enc: Encoder<W>, classes: ClassList) -> Self {
        Serializer {
            enc,
            classes,
            pending: 0,
            probe: None,
            restart: false,
            refs: 0,
            shared: None,
            mismatch: None,
            force_probe: false,
            pinned: None,
            tick: 0,
        }
    }

    /// The underlying encoder (to write envelope codes around values).
    pub fn encoder(&mut self) -> &mut Encoder<W> {
        self.sync_tables();
        &mut self.enc
    }

    /// Returns the encoder, e.g. to write more values with the low-level API.
    pub fn into_encoder(mut self) -> Encoder<W> {
        self.sync_tables();
        self.enc
    }

    /// Adds the class definitions written so far that the encoder's tables do not have yet, in
    /// order (before anything else can look at or add to the tables).
    fn sync_tables(&mut self) {
        if self.pending == 0 {
            return;
        }
        let have = self.enc.tables().classes().len() as u32;
        for i in 0..self.classes.len() {
            let c = &self.classes[i];
            if c.id < have {
                continue;
            }
            let (name, sig) = (c.name, c.sig);
            let def = SCHEMAS
                .try_with(|s| {
                    let s = s.borrow();
                    s.iter().find(|d| d.name == name && d.sig == sig && *d.fields == *c.fields).map(|d| d.def.clone())
                })
                .ok()
                .flatten()
                .unwrap_or_else(|| {
                    Arc::new(ClassDef {
                        name: name.to_owned(),
                        fields: c.fields.iter().map(|f| (*f).to_owned()).collect(),
                    })
                });
            let id = self.enc.tables_mut().push_class(def);
            debug_assert_eq!(id, self.classes[i].id, "class numbering out of step with the tables");
        }
        self.pending = 0;
    }

    /// Flushes and returns the underlying writer.
    pub fn finish(self) -> Result<W> {
        self.enc.finish()
    }

    /// Starts a new message: forgets class definitions and references written so far.
    pub fn reset(&mut self) {
        self.classes.truncate(0);
        self.pending = 0;
        self.refs = 0;
        self.shared = None;
        self.enc.tables_mut().reset();
        self.probe = None;
        self.restart = false;
        self.mismatch = None;
        self.force_probe = false;
        self.pinned = None;
    }

    #[inline]
    fn pos_err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.enc.position())
    }

    /// Serializes a value, running it a second time if a probe pass defined a class.
    ///
    /// A probe pass ends in an error (so that the fast path checks nothing but the `Result` it
    /// already has) with `restart` set; the entry whose value it was serializes that value again.
    #[inline]
    fn entry<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<()> {
        match v.serialize(&mut *self) {
            Ok(()) => Ok(()),
            Err(e) => self.after_error(e, v),
        }
    }

    #[cold]
    #[inline(never)]
    fn after_error<T: ?Sized + Serialize>(&mut self, e: Error, v: &T) -> Result<()> {
        if self.restart {
            self.restart = false;
            return self.entry(v);
        }
        self.retry(e, v)
    }

    /// After an error: if a struct met a definition of its name with other fields and nothing it
    /// wrote has left the buffer or defined classes, redo it with a probe pass.
    fn retry<T: ?Sized + Serialize>(&mut self, e: Error, v: &T) -> Result<()> {
        let Some(snap) = self.mismatch.take() else {
            return Err(e.at_offset(self.enc.position()));
        };
        // The instance whose definition was written on trust: take the definition (and the
        // classes defined after it) back too.
        let spec =
            self.classes.iter().enumerate().find_map(|(i, c)| c.spec.filter(|u| u.pos == snap.pos).map(|u| (i, u)));
        if let Some((i, undo)) = spec {
            if !self.enc.rewind_to(undo.pos, undo.window) {
                return Err(e);
            }
            self.classes.truncate(i);
            self.enc.tables_mut().truncate(undo.tables as usize, undo.types as usize);
            let have = self.enc.tables().classes().len() as u32;
            self.pending = self.classes.iter().filter(|c| c.id >= have).count() as u32;
            self.refs = snap.refs;
            if let Some(shared) = &mut self.shared {
                shared.retain(|_, r| *r < snap.refs);
            }
            self.force_probe = true;
            return self.entry(v);
        }
        if snap.defs != self.defs() || !self.enc.rewind(snap.pos) {
            return Err(e);
        }
        self.refs = snap.refs;
        self.force_probe = true;
        self.entry(v)
    }

    /// Class definitions made so far (by this serializer or in the encoder's tables): a struct
    /// that made any cannot be redone.
    #[inline]
    fn defs(&self) -> u32 {
        (self.classes.len() + self.enc.tables().classes().len()) as u32
    }

    /// The class entry for a struct name, and whether it may take the signature-checked fast
    /// path (found by the address of the name, not ambiguous).
    #[inline]
    fn find_class(&mut self, name: &'static str, len: usize) -> Option<(usize, bool)> {
        // Pointer identity first (the derive's literal), then content.
        // (the other copy of a name is fast once an instance of it has been checked)
        let at = |c: &ClassEntry| std::ptr::eq(c.name, name) || c.alt_name.is_some_and(|a| std::ptr::eq(a, name));
        if let Some(i) = self.classes.iter().position(at) {
            let c = &self.classes[i];
            if !c.ambiguous {
                return Some((i, c.fast && (std::ptr::eq(c.name, name) || c.alt_sig != 0)));
            }
        }
        self.find_class_slow(name, len).map(|i| (i, false))
    }

    #[cold]
    fn find_class_slow(&mut self, name: &'static str, len: usize) -> Option<usize> {
        let first = self.classes.iter().position(|c| c.name == name)?;
        if !self.classes[first].ambiguous {
            let c = &mut self.classes[first];
            if c.alt_name.is_none() {
                c.alt_name = Some(name);
            }
            return Some(first);
        }
        // Several Rust types share this name: the most recently used one with `len` fields, else
        // the most recently used one.
        let best = |exact: bool| {
            self.classes
                .iter()
                .enumerate()
                .filter(|(_, c)| c.name == name && (!exact || c.fields.len() == len))
                .max_by_key(|(_, c)| c.used)
                .map(|(i, _)| i)
        };
        let i = best(true).or_else(|| best(false))?;
        self.tick += 1;
        self.classes[i].used = self.tick;
        Some(i)
    }

    fn define_class(&mut self, name: &'static str, fields: &[&'static str]) -> Result<usize> {
        let sig = fields_sig(fields);
        if let Some(i) = self.classes.iter().position(|c| c.name == name && *c.fields == *fields) {
            self.tick += 1;
            let c = &mut self.classes[i];
            c.used = self.tick;
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
                let id = self.enc.tables().classes().len() as u32 + self.pending;
                self.pending += 1;
                id
            }
        };
        let name = schema.name;
        let mut ambiguous = false;
        // Written on trust only when no entry has this name (see `speculate`).
        if spec.is_none() {
            for c in self.classes.iter_mut().filter(|c| c.name == name) {
                c.ambiguous = true;
                ambiguous = true;
            }
        }
        self.tick += 1;
        let entry = ClassEntry {
            name,
            fields: Vec::new(),
            id,
            ambiguous,
            used: self.tick,
            sig: schema.sig,
            fast: true,
            spec,
            alt_name: None,
            alt_sig: 0,
        };
        Ok(self.classes.push(entry, &schema.fields))
    }

    /// The first instance of a struct name in this message, when the output is one vector and
    /// this thread has written the name's definition before (and only that one): writes the
    /// definition from the cache and returns its entry, for the instance to be serialized once,
    /// checked by signature at its end (see `retry` for when the fields differ).
    #[inline(never)]
    fn speculate(&mut self, name: &'static str, pos: u64) -> Result<Option<usize>> {
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
        // `define_from` does not come back here, so the borrow cannot fail; if it did, the
        // struct would simply be probed.
        let r = SCHEMAS.try_with(|s| {
            let schemas = s.try_borrow().ok()?;
            let schema = schemas.iter().rev().find(|d| std::ptr::eq(d.name, name)).filter(|d| d.stable)?;
            Some(self.define_from(schema, Some(undo)))
        });
        r.ok().flatten().transpose()
    }

    #[inline]
    fn object_header(&mut self, class: usize) -> Result<()> {
        self.refs += 1;
        let id = self.classes[class].id;
        self.enc.write_object_header(id)
    }

    fn unit_variant(&mut self, name: &'static str, variant: &'static str) -> Result<()> {
        // A Java enum: an object of the enum's class with the single field `name`.
        let class = match self.find_class(name, 1) {
            Some((c, _)) if *self.classes[c].fields == ["name"] => c,
            _ => self.define_class(name, &["name"])?,
        };
        self.object_header(class)?;
        self.enc.write_str(variant)
    }

    fn write_u64(&mut self, v: u64) -> Result<()> {
        match i64::try_from(v) {
            Ok(v) => self.enc.write_long(v),
            Err(_) => Err(self.pos_err(ErrorKind::Unencodable(format!("{v} does not fit a Hessian long")))),
        }
    }

    fn begin_variant_map(&mut self, variant: &'static str) -> Result<()> {
        self.refs += 1;
        self.enc.write_map_begin(None)?;
        self.enc.write_str(variant)
    }

    pub(crate) fn write_shared<T: ?Sized + Serialize>(&mut self, addr: usize, v: &T) -> Result<()> {
        let shared = self.shared.get_or_insert_with(HashMap::new);
        if let Some(&r) = shared.get(&addr) {
            return self.enc.write_ref(r);
        }
        let index = self.refs;
        shared.insert(addr, index);
        self.entry(v)?;
        if self.refs == index {
            // not a list, map or object: nothing to refer back to
            if let Some(shared) = &mut self.shared {
                shared.remove(&addr);
            }
        }
        Ok(())
    }
}

impl Serializer<Vec<u8>> {
    /// The bytes of a message written through a one-vector encoder ([`Encoder::vec`]), without
    /// bringing the encoder's tables up to date first (nothing reads them any more).
    pub(crate) fn into_vec(self) -> Vec<u8> {
        self.enc.into_vec()
    }

    /// A serializer on `enc`, whose tables are seeded with a type map's `classes` classes, with
    /// the class entries an earlier message on that map kept ([`into_vec_and_seed`]), so that
    /// its structs are found at their first instance without looking their definitions up.
    ///
    /// [`into_vec_and_seed`]: Self::into_vec_and_seed
    pub(crate) fn seeded(enc: Encoder<Vec<u8>>, entries: Option<SeedEntries>) -> Self {
        match entries {
            Some(SeedEntries(list)) => Self::from_parts(enc, list),
            None => Self::from_encoder(enc),
        }
    }

    /// [`into_vec`](Self::into_vec), also returning the encoder's tables and the class entries
    /// of the seeded classes (the first `classes`) for the next message on the same map (the
    /// classes still pending follow the seed and are not kept).
    /// With `inline`, also the class definitions the message defined beyond the seed, in order.
    pub(crate) fn into_vec_and_seed(mut self, classes: usize, inline: bool) -> SeedParts {
        let defined = if inline {
            self.sync_tables();
            self.enc.tables().classes().get(classes..).unwrap_or_default().to_vec()
        } else {
            Vec::new()
        };
        let tables = std::mem::take(self.enc.tables_mut());
        let mut list = std::mem::replace(&mut self.classes, ClassList::detached());
        list.keep_seeded(u32::try_from(classes).unwrap_or(u32::MAX));
        SeedParts { bytes: self.enc.into_vec(), tables, entries: SeedEntries(list), defined }
    }
}

/// Serializes `value` as one Hessian 2.0 value into a new byte vector.
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    thread_local! {
        /// The length of the last message `to_vec` wrote on this thread: the next one starts
        /// with that much room (up to [`MAX_HINT`]) instead of growing from 64 bytes.
        static LAST_LEN: Cell<usize> = const { Cell::new(0) };
    }
    const MAX_HINT: usize = 16 << 10;
    let hint = LAST_LEN.try_with(Cell::get).unwrap_or(0).min(MAX_HINT);
    let mut s = Serializer::from_encoder(Encoder::vec_with_capacity(hint));
    s.entry(value)?;
    let out = s.enc.into_vec();
    let _ = LAST_LEN.try_with(|l| l.set(out.len()));
    Ok(out)
}

/// Serializes `value` as one Hessian 2.0 value into `writer` (flushed at the end).
pub fn to_writer<W: Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    let mut s = Serializer::new(writer);
    s.entry(value)?;
    s.enc.flush()
}

impl<W: Write> Serializer<W> {
    /// Serializes one value into the message (more can follow, e.g. call arguments).
    pub fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.entry(value)
    }
}

impl<'a, W: Write> ser::Serializer for &'a mut Serializer<W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W>;
    type SerializeTuple = Compound<'a, W>;
    type SerializeTupleStruct = Compound<'a, W>;
    type SerializeTupleVariant = Compound<'a, W>;
    type SerializeMap = Compound<'a, W>;
    type SerializeStruct = StructSer<'a, W>;
    type SerializeStructVariant = Compound<'a, W>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.enc.write_bool(v)
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.enc.write_int(v.into())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.enc.write_int(v.into())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.enc.write_int(v)
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.enc.write_long(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        match i64::try_from(v) {
            Ok(v) => self.enc.write_long(v),
            Err(_) => Err(self.pos_err(ErrorKind::Unencodable(format!("{v} does not fit a Hessian long")))),
        }
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.enc.write_int(v.into())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.enc.write_int(v.into())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.enc.write_long(v.into())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.write_u64(v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        match u64::try_from(v) {
            Ok(v) => self.write_u64(v),
            Err(_) => Err(self.pos_err(ErrorKind::Unencodable(format!("{v} does not fit a Hessian long")))),
        }
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.enc.write_double(v.into())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.enc.write_double(v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut b = [0u8; 4];
        self.enc.write_str(v.encode_utf8(&mut b))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.enc.write_str(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.enc.write_bytes(v)
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.enc.write_null()
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.enc.write_null()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.enc.write_null()
    }
    fn serialize_unit_variant(self, name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.unit_variant(name, variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<()> {
        if std::ptr::eq(name, DATE_TOKEN) || name == DATE_TOKEN {
            return value.serialize(DateSerializer { ser: self });
        }
        if name == VALUE_TOKEN {
            if let Some(v) = value::take_current() {
                let v = v.get();
                self.sync_tables();
                self.enc.write_value(v)?;
                self.refs += value::count_refs(v);
                return Ok(());
            }
        }
        if name == SHARED_TOKEN {
            if let Some(addr) = shared::take_addr() {
                return self.write_shared(addr, value);
            }
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.begin_variant_map(variant)?;
        self.entry(value)?;
        self.enc.write_map_end()
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        self.refs += 1;
        self.enc.write_list_begin(len, None)?;
        // After the first element of a long list, grow the output once for all of them.
        let hint = len.filter(|&n| n > 16).map(|n| (n - 1, self.enc.position()));
        Ok(Compound { ser: self, close: if len.is_none() { Close::List } else { Close::None }, hint })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        self.begin_variant_map(variant)?;
        self.refs += 1;
        self.enc.write_list_begin(Some(len), None)?;
        Ok(Compound { ser: self, close: Close::Map, hint: None })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, W>> {
        self.refs += 1;
        self.enc.write_map_begin(None)?;
        Ok(Compound { ser: self, close: Close::Map, hint: None })
    }
    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<StructSer<'a, W>> {
        let (pos, refs, defs) = (self.enc.position(), self.refs, self.defs());
        let found = if self.force_probe {
            self.force_probe = false;
            None
        } else if let Some(class) = self.pinned.take() {
            Some((class, false))
        } else {
            match self.find_class(name, len) {
                // The first instance in this message: the definition may be known from before.
                None => self.speculate(name, pos)?.map(|class| (class, true)),
                found => found,
            }
        };
        let (class, mode) = match found {
            Some((class, fast)) => {
                self.object_header(class)?;
                (class as u32, if fast { Mode::Fast } else { Mode::Checked })
            }
            None => {
                if self.probe.is_some() {
                    return Err(self.pos_err(ErrorKind::Unencodable("nested struct in a probe pass".into())));
                }
                self.probe = Some((name, Vec::with_capacity(len)));
                (0, Mode::Probe)
            }
        };
        Ok(StructSer { ser: self, sig: SIG_SEED, pos, class, refs, defs, next: 0, mode })
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, W>> {
        self.begin_variant_map(variant)?;
        self.refs += 1;
        self.enc.write_map_begin(None)?;
        Ok(Compound { ser: self, close: Close::TwoMaps, hint: None })
    }
}

/// What closes a [`Compound`].
#[derive(Clone, Copy)]
enum Close {
    /// A fixed-length list: nothing.
    None,
    /// A variable-length list: `Z`.
    List,
    /// A map, or the variant map around a tuple variant: `Z`.
    Map,
    /// A struct variant: the field map's `Z` and the variant map's `Z`.
    TwoMaps,
}

/// Serializer of lists, tuples, maps and enum variants.
pub struct Compound<'a, W: Write> {
    ser: &'a mut Serializer<W>,
    close: Close,
    /// Elements left after the first, and the position the first started at (see `serialize_seq`).
    hint: Option<(usize, u64)>,
}

impl<W: Write> Compound<'_, W> {
    fn close(self) -> Result<()> {
        match self.close {
            Close::None => Ok(()),
            Close::List => self.ser.enc.write_list_end(),
            Close::Map => self.ser.enc.write_map_end(),
            Close::TwoMaps => {
                self.ser.enc.write_map_end()?;
                self.ser.enc.write_map_end()
            }
        }
    }
}

impl<W: Write> ser::SerializeSeq for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.entry(value)?;
        if let Some((rest, start)) = self.hint.take() {
            let first = (self.ser.enc.position() - start) as usize;
            let estimate = first.saturating_mul(rest);
            self.ser.enc.reserve_hint(estimate.saturating_add(estimate / 16));
        }
        Ok(())
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Write> ser::SerializeTuple for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.entry(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Write> ser::SerializeTupleStruct for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.entry(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Write> ser::SerializeTupleVariant for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.entry(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Write> ser::SerializeMap for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.ser.entry(key)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.entry(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Write> ser::SerializeStructVariant for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.ser.enc.write_str(key)?;
        self.ser.entry(value)
    }
    fn skip_field(&mut self, _key: &'static str) -> Result<()> {
        Ok(())
    }
    fn end(self) -> Result<()> {
        self.close()
    }
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
enum Mode {
    /// By signature over the field names' addresses, compared once at the end.
    Fast,
    /// Name by name (by address, then by content).
    Checked,
    /// No class definition yet: collect the field names (nothing is written).
    Probe,
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
        match (&self.probe, mode) {
            (Some((name, _)), Mode::Probe) => name,
            _ => self.classes.get(class as usize).map_or("?", |c| c.name),
        }
    }

    #[cold]
    fn struct_mismatch(&mut self, mode: Mode, class: u32, start: Snapshot, what: String) -> Error {
        self.mismatch = Some(start);
        let name = self.struct_name(mode, class);
        self.pos_err(ErrorKind::Unencodable(format!(
            "struct `{name}` {what}; the value could not be redone with a new class definition \
             (it was partly flushed or defined classes)"
        )))
    }

    /// A field in [`Mode::Checked`] or [`Mode::Probe`]; returns whether its value is to be
    /// written (the caller then counts it).
    #[cold]
    #[inline(never)]
    fn check_field(&mut self, mode: Mode, class: u32, next: u32, start: Snapshot, key: &'static str) -> Result<bool> {
        if mode == Mode::Probe {
            if let Some((_, fields)) = self.probe.as_mut() {
                fields.push(key);
            }
            return Ok(false);
        }
        let expected = self.classes.get(class as usize).and_then(|c| c.fields.get(next as usize));
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
                let (name, fields) = self.probe.take().unwrap_or_default();
                let class = self.define_class(name, &fields)?;
                self.pinned = Some(class);
                self.restart = true;
                // Caught by the entry that serializes the value again (see `entry`); never seen by
                // the caller, so it carries no message to build.
                Err(self.pos_err(ErrorKind::Unencodable(String::new())))
            }
            Mode::Checked => {
                let expected = self.classes.get(class as usize).map_or(0, |c| c.fields.len());
                if next as usize == expected {
                    // every field matched, in order: instances with this field sequence (by
                    // signature) may take the fast path from now on
                    if let Some(c) = self.classes.get_mut(class as usize) {
                        if c.alt_sig == 0 && c.sig != sig {
                            c.alt_sig = sig;
                        }
                    }
                    return Ok(());
                }
                let what = format!("wrote {next} of the {expected} fields of its class definition");
                Err(self.struct_mismatch(mode, class, start, what))
            }
            Mode::Fast => {
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
        if self.mode == Mode::Fast {
            self.sig = field_sig(self.sig, key);
            return self.ser.entry(value);
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
        if self.mode == Mode::Fast {
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
        if self.mode == Mode::Fast
            && self.ser.classes.get(self.class as usize).is_some_and(|c| c.sig == self.sig || c.alt_sig == self.sig)
        {
            return Ok(());
        }
        let start = self.snapshot();
        self.ser.end_struct_slow(self.mode, self.class, self.next, self.sig, start)
    }
}

/// Serializes the `i64` inside a [`Date`](super::Date) as a Hessian date.
struct DateSerializer<'a, W: Write> {
    ser: &'a mut Serializer<W>,
}

impl<W: Write> DateSerializer<'_, W> {
    fn not_date(&self) -> Error {
        self.ser.pos_err(ErrorKind::Unencodable("a hessian date must hold an i64 of milliseconds".into()))
    }
}

macro_rules! date_unsupported {
    ($($f:ident($($t:ty),*)),* $(,)?) => {
        $(fn $f(self, $(_: $t),*) -> Result<()> { Err(self.not_date()) })*
    };
}

impl<'a, W: Write> ser::Serializer for DateSerializer<'a, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.ser.enc.write_date(v)
    }
    date_unsupported!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<()> {
        Err(self.not_date())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result<()> {
        Err(self.not_date())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(self.not_date())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(self.not_date())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(self.not_date())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct> {
        Err(self.not_date())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.not_date())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(self.not_date())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(self.not_date())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.not_date())
    }
}
