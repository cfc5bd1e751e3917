//! The codec's state between messages: one set of caches per thread, and the same set owned by
//! a [`Session`](crate::Session); besides these, only the serializer that `to_vec`, `to_writer`
//! and the Hessian 2 call and reply functions share (`serde::ser`'s `PLAIN`, a thread-local of
//! its own type, so that taking it is one load with no type check; a session holds it as
//! `serde::ser::KeptPlain`). Nothing here changes a result (see `session.rs`):
//! every use checks what it finds against the message at hand. The types are defined here,
//! their behaviour where they are used (`serde::ser` for the schemas and class entries,
//! `h2::decode` for the definitions, `tables`, `serde::copies`, `write` and `read` for the
//! recycled vectors and buffers), so that this module stands below all of them.
//!
//! Each cache is reached through a [`Slot`] with the `with`/`try_with` of a thread-local; all
//! slots live in one thread-local [`Caches`], so that a session is put in place and back with
//! one thread-local access.

use crate::value::ClassDef;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

/// The recycled vectors of a class list: its entries and their field names.
pub(crate) type ClassPool = (Vec<ClassEntry>, Vec<&'static str>);

/// Every cache of one thread (or, in [`Kept`], of one session).
pub(crate) struct Caches {
    schemas: RefCell<Vec<Schema>>,
    class_pool: Cell<ClassPool>,
    last_len: Cell<usize>,
    defs: RefCell<DefCache>,
    starts: Cell<Vec<u64>>,
    class_vecs: Cell<Vec<Arc<ClassDef>>>,
    table_rest: Cell<Option<Box<TableRest>>>,
    spare_out: Cell<Vec<u8>>,
    spare_read: Cell<Option<Box<[u8]>>>,
}

thread_local! {
    static THREAD: Caches = const {
        Caches {
            schemas: RefCell::new(Vec::new()),
            class_pool: Cell::new((Vec::new(), Vec::new())),
            last_len: Cell::new(0),
            defs: RefCell::new(DefCache(Vec::new(), Vec::new())),
            starts: Cell::new(Vec::new()),
            class_vecs: Cell::new(Vec::new()),
            table_rest: Cell::new(None),
            spare_out: Cell::new(Vec::new()),
            spare_read: Cell::new(None),
        }
    };
}

/// One cache of the thread's [`Caches`], used like a thread-local of its own. The slots are
/// constants, so that reaching a cache through one compiles to a field offset (as a `static`,
/// its accessor was a call through a relocated function pointer).
pub(crate) struct Slot<T: 'static> {
    get: fn(&Caches) -> &T,
}

impl<T: 'static> Slot<T> {
    /// Runs `f` on this thread's cache; panics during the thread's teardown.
    #[inline(always)]
    pub(crate) fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        THREAD.with(|c| f((self.get)(c)))
    }

    /// Runs `f` on this thread's cache, unless the thread is being torn down.
    #[inline(always)]
    pub(crate) fn try_with<R>(&self, f: impl FnOnce(&T) -> R) -> Result<R, std::thread::AccessError> {
        THREAD.try_with(|c| f((self.get)(c)))
    }
}

/// The serializer's schemas: the class definitions written before, with their bytes.
pub(crate) const SCHEMAS: Slot<RefCell<Vec<Schema>>> = Slot { get: |c| &c.schemas };
/// The vectors of the last class list dropped (`serde::ser::ClassList`).
pub(crate) const CLASS_POOL: Slot<Cell<ClassPool>> = Slot { get: |c| &c.class_pool };
/// The length of the last message `to_vec` wrote.
pub(crate) const LAST_LEN: Slot<Cell<usize>> = Slot { get: |c| &c.last_len };
/// The class definitions decoded before (`h2::decode`).
pub(crate) const DEF_CACHE: Slot<RefCell<DefCache>> = Slot { get: |c| &c.defs };
/// The vector of reference starts of the last deserializer (`serde::copies`).
pub(crate) const STARTS: Slot<Cell<Vec<u64>>> = Slot { get: |c| &c.starts };
/// The class vector of the last [`Tables`](crate::Tables) dropped.
pub(crate) const CLASS_VECS: Slot<Cell<Vec<Arc<ClassDef>>>> = Slot { get: |c| &c.class_vecs };
/// The rest of the last [`Tables`](crate::Tables) dropped that had any, emptied.
pub(crate) const TABLE_REST: Slot<Cell<Option<Box<TableRest>>>> = Slot { get: |c| &c.table_rest };
/// The spare output buffer (`write::spare`).
pub(crate) const SPARE: Slot<Cell<Vec<u8>>> = Slot { get: |c| &c.spare_out };
/// The spare read buffer (`read::ReadBuffer`).
pub(crate) const SPARE_READ: Slot<Cell<Option<Box<[u8]>>>> = Slot { get: |c| &c.spare_read };

/// The caches a [`Session`](crate::Session) owns while they are not in a thread's place.
#[derive(Default)]
pub(crate) struct Kept {
    schemas: Vec<Schema>,
    class_pool: ClassPool,
    last_len: usize,
    defs: DefCache,
    starts: Vec<u64>,
    class_vecs: Vec<Arc<ClassDef>>,
    table_rest: Option<Box<TableRest>>,
    spare_out: Vec<u8>,
    spare_read: Option<Box<[u8]>>,
}

/// Which caches [`swap`] exchanges.
#[derive(Clone, Copy)]
pub(crate) struct Parts(u8);

impl Parts {
    /// The serializer's schemas and class entries, the last length and the output buffer (and,
    /// swapped by [`Session`](crate::Session) itself, the kept serializer that `serde::ser`
    /// keeps in a thread-local of its own).
    pub(crate) const WRITE: Parts = Parts(1);
    /// The decoder's definitions, class vector and reference starts, and the tables' recycled rest.
    pub(crate) const READ: Parts = Parts(2);
    /// The read buffer of the `from_reader` functions.
    pub(crate) const READER: Parts = Parts(4);
    /// Everything.
    pub(crate) const ALL: Parts = Parts(7);

    /// Both sets.
    pub(crate) const fn and(self, other: Parts) -> Parts {
        Parts(self.0 | other.0)
    }

    /// Whether `p` is among these.
    pub(crate) fn has(self, p: Parts) -> bool {
        self.0 & p.0 != 0
    }
}

/// Exchanges the `parts` of `kept` with this thread's caches. A cache in use (borrowed by a
/// serializer or decoder running on this thread, when a session is entered from inside a
/// value's serialization) is left where it is: a cache never changes a result.
pub(crate) fn swap(kept: &mut Kept, parts: Parts) {
    fn cell<T>(c: &Cell<T>, k: &mut T) {
        // a plain exchange: nothing is dropped, so no drop code runs
        c.swap(Cell::from_mut(k));
    }
    fn refcell<T>(c: &RefCell<T>, k: &mut T) {
        if let Ok(mut v) = c.try_borrow_mut() {
            std::mem::swap(&mut *v, k);
        }
    }
    let _ = THREAD.try_with(|c| {
        if parts.has(Parts::WRITE) {
            refcell(&c.schemas, &mut kept.schemas);
            cell(&c.class_pool, &mut kept.class_pool);
            kept.last_len = c.last_len.replace(kept.last_len);
            cell(&c.spare_out, &mut kept.spare_out);
        }
        if parts.has(Parts::READ) {
            refcell(&c.defs, &mut kept.defs);
            cell(&c.starts, &mut kept.starts);
            cell(&c.class_vecs, &mut kept.class_vecs);
            cell(&c.table_rest, &mut kept.table_rest);
        }
        if parts.has(Parts::READER) {
            cell(&c.spare_read, &mut kept.spare_read);
        }
    });
}

#[cfg(test)]
impl Kept {
    /// How many schemas and decoded definitions are kept.
    pub(crate) fn counts(&self) -> (usize, usize) {
        (self.schemas.len(), self.defs.0.len())
    }
}

/// What a [`Tables`](crate::Tables) holds besides its class list (its behaviour is in `tables`):
/// boxed, made on first need (a type name, a seed, a hash index, a field memo) and recycled
/// through [`TABLE_REST`], so that tables with classes only (most messages' decoders) or none
/// (most messages' encoders) cost one word for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct TableRest {
    /// `None` until the class list reaches `tables::INDEX_FROM` entries; then every class, first
    /// index wins (not even created before: a new `HashMap` seeds its hasher from a
    /// thread-local). Boxed: one word for a map that most messages never make.
    #[allow(clippy::box_collection)]
    pub(crate) class_index: Option<Box<HashMap<Arc<ClassDef>, u32>>>,
    pub(crate) types: Vec<String>,
    /// `None` until `types` reaches `tables::INDEX_FROM` entries; then every type, first index wins.
    #[allow(clippy::box_collection)]
    pub(crate) type_index: Option<Box<HashMap<String, u32>>>,
    pub(crate) seeded_classes: usize,
    pub(crate) seeded_types: usize,
    /// For a decoder's tables seeded with a type map: per seeded class, the address of the
    /// `FIELDS` of the Rust type last checked against it and whether the class lists exactly
    /// those, kept with the tables from message to message (a type map's seeds, `negotiate::Seeds`).
    pub(crate) field_memo: Vec<(usize, bool)>,
}

/// A class definition written in this message for a struct (or Java enum) name.
#[derive(Clone, Copy)]
pub(crate) struct ClassEntry {
    pub(crate) name: &'static str,
    /// Where its field names start in its class list's names, and how many there are.
    pub(crate) fields_at: u32,
    pub(crate) fields_len: u32,
    /// Its index in the message (and, once in the encoder's tables, there).
    pub(crate) id: u32,
    /// Whether other entries have the same name (different Rust types, one remote name).
    pub(crate) ambiguous: bool,
    /// When the entry was last chosen among ambiguous ones.
    pub(crate) used: u64,
    /// `serde::ser::field_sig` over the addresses of the field names that defined the entry.
    pub(crate) sig: u64,
    /// Whether instances found by the address of their struct name may be checked by
    /// signature only (cleared when the same names turned up at other addresses, e.g. from
    /// another monomorphization of a generic struct).
    pub(crate) fast: bool,
    /// Set when the definition was written from the [`Schema`] cache for the instance that
    /// starts at `Undo::pos`: how to take the definition back if that instance's fields differ.
    pub(crate) spec: Option<Undo>,
    /// The same struct name at another address (another copy of the derived code, e.g. in
    /// another codegen unit), found by content once and by address from then on.
    pub(crate) alt_name: Option<&'static str>,
    /// The signature of another field sequence an instance was checked to match name by name
    /// (e.g. that other copy's field names), accepted by the fast path too; 0 while none.
    pub(crate) alt_sig: u64,
}

/// The state in front of a class definition written on trust (see [`Schema`]).
#[derive(Clone, Copy)]
pub(crate) struct Undo {
    pub(crate) pos: u64,
    /// `h2::Encoder::window` at `pos`.
    pub(crate) window: usize,
    /// The lengths of the encoder's class and type tables at `pos`.
    pub(crate) tables: u32,
    pub(crate) types: u32,
}

/// A class definition this thread has written before for a struct: a message of one small
/// struct would otherwise spend most of its time building (and dropping) the definition, and
/// running the probe pass.
pub(crate) struct Schema {
    /// The name as serde gave it: instances are found by its address (the derive's literal).
    pub(crate) name: &'static str,
    pub(crate) fields: Box<[&'static str]>,
    /// `serde::ser::fields_sig` of `fields`.
    pub(crate) sig: u64,
    pub(crate) def: Arc<ClassDef>,
    /// What [`Encoder::write_class_def`](crate::h2::Encoder::write_class_def) writes for `def`.
    pub(crate) bytes: Box<[u8]>,
    /// Whether every field list met under this name's address (on this thread) had this
    /// signature: only then is the definition written on trust, before the fields are seen.
    pub(crate) stable: bool,
}

/// A small per-thread cache of decoded class definitions, so that a short message does not
/// rebuild (and a moment later drop) the same definition's strings every time. A definition in
/// the form this crate's encoder (and Java) writes it is found by its bytes (`DefCache::by_bytes`, in `h2::decode`);
/// otherwise matching works on a bit set of candidate entries, narrowed as the definition's
/// strings are read.
#[derive(Default)]
pub(crate) struct DefCache(pub(crate) Vec<Arc<ClassDef>>, pub(crate) Vec<DefBytes>);

/// The bytes of a cached definition after its `C` (name, field count, field names), as
/// [`Encoder::write_class_def`](crate::h2::Encoder::write_class_def)(crate::h2::Encoder::write_class_def) writes them.
pub(crate) struct DefBytes {
    pub(crate) bytes: Box<[u8]>,
    /// The last (up to) 8 bytes, little-endian: a quick first comparison.
    pub(crate) tail: u64,
    /// The longest of its strings in UTF-16 units, and its number of fields (for the limits
    /// that reading the strings would check).
    pub(crate) max_units: usize,
    pub(crate) fields: usize,
    /// The address of the `FIELDS` of the Rust type last checked against the definition, and
    /// whether the definition lists exactly those (see `Decoder::class_lists_exactly`).
    pub(crate) exact: (usize, bool),
}
