//! The tables that make Hessian compact: class definitions and type names.
//!
//! A [`Tables`] is owned by an encoder or decoder and can be created pre-seeded and kept across
//! messages (the type-negotiation extension carries it from call to call). [`Tables::reset`]
//! forgets what one message added while keeping the seeded entries.

use crate::cache::{TableRest, CLASS_VECS, TABLE_REST};
use crate::value::ClassDef;
use std::collections::HashMap;
use std::sync::Arc;

/// Class definitions and type names known to one side of a conversation.
///
/// Lookups scan the lists while they are short (most messages define a handful of classes) and
/// go through hash indexes, built on first need, once a list holds 16 entries. Everything but
/// the class list (type names, seed, indexes) is made on first need: tables that never hold a
/// type name cost nothing for them.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    classes: Vec<Arc<ClassDef>>,
    rest: Option<Box<TableRest>>,
}

/// The list length from which [`Tables`] keeps hash indexes.
const INDEX_FROM: usize = 16;

/// The most entries recycled lists may have room for.
const RECYCLE_MAX: usize = 256;

impl Drop for Tables {
    #[inline]
    fn drop(&mut self) {
        let cap = self.classes.capacity();
        if cap != 0 && cap <= RECYCLE_MAX {
            let mut v = std::mem::take(&mut self.classes);
            v.clear();
            // During thread teardown the slot may be gone: then the vector is simply freed.
            let _ = CLASS_VECS.try_with(|slot| slot.set(v));
        }
        if let Some(rest) = self.rest.take() {
            recycle_rest(rest);
        }
    }
}

/// Keeps `rest` (emptied) for the next tables made on this thread, unless it is large.
#[inline(never)]
fn recycle_rest(mut rest: Box<TableRest>) {
    if rest.types.capacity() > RECYCLE_MAX {
        return;
    }
    rest.types.clear();
    rest.class_index = None;
    rest.type_index = None;
    rest.seeded_classes = 0;
    rest.seeded_types = 0;
    rest.field_memo = Vec::new();
    let _ = TABLE_REST.try_with(|slot| slot.set(Some(rest)));
}

/// A rest for tables that had none: this thread's recycled one, or a new one.
fn new_rest() -> Box<TableRest> {
    TABLE_REST.try_with(|slot| slot.take()).ok().flatten().unwrap_or_default()
}

impl Tables {
    /// Empty tables (plain Hessian: every message starts from nothing).
    pub const fn new() -> Self {
        Tables { classes: Vec::new(), rest: None }
    }

    /// The rest, made (or taken from this thread's recycled one) if there is none yet.
    #[inline]
    fn rest_mut(&mut self) -> &mut TableRest {
        self.rest.get_or_insert_with(new_rest)
    }

    #[inline]
    fn seeded_classes(&self) -> usize {
        self.rest.as_deref().map_or(0, |r| r.seeded_classes)
    }

    /// Tables pre-seeded with class definitions and type names that both peers already know;
    /// [`reset`](Self::reset) returns to exactly this state.
    pub fn seeded(classes: impl IntoIterator<Item = Arc<ClassDef>>, types: impl IntoIterator<Item = String>) -> Self {
        let mut t = Tables::new();
        for c in classes {
            t.add_class(c);
        }
        for ty in types {
            t.add_type(ty);
        }
        t.keep_all();
        t
    }

    /// Tables seeded with exactly `classes` (a type map's), each a class of its own even if
    /// two are equal; `memo` gives each a field memo slot ([`field_memo`](Self::field_memo)).
    pub(crate) fn for_seed(classes: Vec<Arc<ClassDef>>, memo: bool) -> Self {
        // (lookups scan the list until a push builds the hash index)
        let mut t = Tables { classes, rest: None };
        t.keep_all();
        if memo {
            t.add_field_memo();
        }
        t
    }

    /// The heap bytes of reset tables with room for `classes` classes and `types` type names,
    /// with a field memo slot per class or not.
    pub(crate) fn seed_bytes(classes: usize, types: usize, memo: bool) -> usize {
        use std::mem::size_of;
        size_of::<TableRest>()
            + classes * size_of::<Arc<ClassDef>>()
            + types * size_of::<String>()
            + if memo { classes * size_of::<(usize, bool)>() } else { 0 }
    }

    /// The heap bytes of the tables' own lists (the definitions they point to are counted with
    /// whoever made them), without the hash indexes (dropped by [`reset`](Self::reset)).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.classes.capacity() * size_of::<Arc<ClassDef>>()
            + self.rest.as_deref().map_or(0, |r| {
                size_of::<TableRest>()
                    + r.types.capacity() * size_of::<String>()
                    + r.types.iter().map(String::capacity).sum::<usize>()
                    + r.field_memo.capacity() * size_of::<(usize, bool)>()
            })
    }

    /// Gives back the room of the lists beyond their entries (and the hash indexes).
    pub(crate) fn shrink(&mut self) {
        self.classes.shrink_to_fit();
        if let Some(r) = self.rest.as_deref_mut() {
            r.types.shrink_to_fit();
            r.field_memo.shrink_to_fit();
            r.class_index = None;
            r.type_index = None;
        }
    }

    /// Forgets everything added since the seed (the start of a new plain-Hessian message).
    pub fn reset(&mut self) {
        let seeded = self.seeded_classes();
        self.classes.truncate(seeded);
        if let Some(r) = self.rest.as_deref_mut() {
            r.types.truncate(r.seeded_types);
            // Rebuilt from the remaining entries when next needed.
            r.class_index = None;
            r.type_index = None;
        }
    }

    /// Makes everything added so far part of the seed, so that [`reset`](Self::reset) keeps it
    /// (how the type-negotiation extension grows the shared tables).
    pub fn keep_all(&mut self) {
        if self.classes.is_empty() && self.rest.is_none() {
            return;
        }
        let classes = self.classes.len();
        let r = self.rest_mut();
        r.seeded_classes = classes;
        r.seeded_types = r.types.len();
    }

    /// Drops the class definitions and type names from index `classes` and `types` on (what a
    /// stretch of input re-read to copy a referenced value defined a second time).
    pub(crate) fn truncate(&mut self, classes: usize, types: usize) {
        if self.classes.len() > classes {
            self.classes.truncate(classes);
            if let Some(r) = self.rest.as_deref_mut() {
                r.class_index = None;
            }
        }
        if let Some(r) = self.rest.as_deref_mut() {
            if r.types.len() > types {
                r.types.truncate(types);
                r.type_index = None;
            }
        }
    }

    /// Puts `class`, equal to class `i`, in its place (a serializer's own definition for a type
    /// map's, so that the next message finds it by address).
    pub(crate) fn replace_class(&mut self, i: usize, class: Arc<ClassDef>) {
        if let Some(slot) = self.classes.get_mut(i) {
            debug_assert!(**slot == *class, "replace_class with a different definition");
            *slot = class;
        }
    }

    /// Whether [`reset`](Self::reset) would change nothing: no class, type name or index beyond
    /// the seed.
    #[inline]
    pub(crate) fn is_reset(&self) -> bool {
        match self.rest.as_deref() {
            None => self.classes.is_empty(),
            Some(r) => {
                self.classes.len() == r.seeded_classes
                    && r.types.len() == r.seeded_types
                    && r.class_index.is_none()
                    && r.type_index.is_none()
            }
        }
    }

    /// Whether the tables hold exactly their seed: `classes` class definitions and no type names
    /// beyond it (what [`reset`](Self::reset) returns to).
    pub(crate) fn is_seed_of(&self, classes: usize) -> bool {
        let types_are_seed = self.rest.as_deref().map_or(true, |r| r.types.len() == r.seeded_types);
        self.seeded_classes() == classes && self.classes.len() == classes && types_are_seed
    }

    /// Whether a hash index was built (dropped by [`reset`](Self::reset)).
    pub(crate) fn has_index(&self) -> bool {
        self.rest.as_deref().is_some_and(|r| r.class_index.is_some() || r.type_index.is_some())
    }

    /// Gives each class so far a slot of the per-class field memo ([`field_memo`](Self::field_memo)).
    pub(crate) fn add_field_memo(&mut self) {
        let n = self.classes.len();
        self.rest_mut().field_memo = vec![(0, false); n];
    }

    /// The field memo slot of seeded class `i`, if the tables keep one.
    #[inline]
    pub(crate) fn field_memo(&mut self, i: usize) -> Option<&mut (usize, bool)> {
        self.rest.as_deref_mut()?.field_memo.get_mut(i)
    }

    /// All class definitions, by index.
    #[inline]
    pub fn classes(&self) -> &[Arc<ClassDef>] {
        &self.classes
    }

    /// All type names, by index.
    #[inline]
    pub fn types(&self) -> &[String] {
        self.rest.as_deref().map_or(&[], |r| &r.types)
    }

    /// The class definition with index `i`.
    #[inline]
    pub fn class(&self, i: usize) -> Option<&Arc<ClassDef>> {
        self.classes.get(i)
    }

    /// The index of a class definition equal to `class`, if any (the same `Arc` is found
    /// without comparing contents).
    /// (The search for the same `Arc` in line: an encoder calls this for every object, and the
    /// compiler once kept it out of line, 3% of a W1 `Value` encode.)
    #[inline(always)]
    pub fn class_id(&self, class: &Arc<ClassDef>) -> Option<u32> {
        if let Some(i) = self.classes.iter().take(INDEX_FROM).position(|c| Arc::ptr_eq(c, class)) {
            return Some(i as u32);
        }
        self.class_id_by_value(class)
    }

    /// Like [`class_id`](Self::class_id); a definition found by equal contents (not the same
    /// `Arc`) is replaced by `class` in its slot, so that the next instance of `class` is found
    /// by address: values decoded elsewhere (or a type map's definitions, seeded) would
    /// otherwise compare names and fields at every instance.
    #[inline]
    pub(crate) fn class_id_adopting(&mut self, class: &Arc<ClassDef>) -> Option<u32> {
        if let Some(i) = self.classes.iter().take(INDEX_FROM).position(|c| Arc::ptr_eq(c, class)) {
            return Some(i as u32);
        }
        let i = self.class_id_by_value(class)?;
        if let Some(slot) = self.classes.get_mut(i as usize) {
            *slot = class.clone();
        }
        Some(i)
    }

    /// [`class_id`](Self::class_id) past the same-`Arc` search: by equal contents.
    #[inline(never)]
    fn class_id_by_value(&self, class: &Arc<ClassDef>) -> Option<u32> {
        match self.rest.as_deref().and_then(|r| r.class_index.as_deref()) {
            None => self.classes.iter().position(|c| **c == **class).map(|i| i as u32),
            Some(index) => index.get(class).copied(),
        }
    }

    /// Adds a class definition (if an equal one is not there yet) and returns its index.
    pub fn add_class(&mut self, class: Arc<ClassDef>) -> u32 {
        if let Some(i) = self.class_id(&class) {
            return i;
        }
        self.push_class(class)
    }

    /// Appends a class definition read from a stream (indices follow the stream, even when a
    /// definition repeats).
    pub fn push_class(&mut self, class: Arc<ClassDef>) -> u32 {
        if self.classes.capacity() == 0 {
            if let Ok(v) = CLASS_VECS.try_with(std::cell::Cell::take) {
                self.classes = v;
            }
        }
        let i = self.classes.len() as u32;
        self.classes.push(class);
        if self.classes.len() >= INDEX_FROM {
            let Tables { classes, rest } = self;
            index_last(classes, &mut rest.get_or_insert_with(new_rest).class_index, i);
        }
        i
    }

    /// The type name with index `i`.
    #[inline]
    pub fn type_name(&self, i: usize) -> Option<&str> {
        self.types().get(i).map(String::as_str)
    }

    /// The index of a type name, if any.
    #[inline]
    pub fn type_id(&self, name: &str) -> Option<u32> {
        let r = self.rest.as_deref()?;
        match &r.type_index {
            None => r.types.iter().position(|t| t == name).map(|i| i as u32),
            Some(index) => index.get(name).copied(),
        }
    }

    /// Adds a type name (if not there yet) and returns its index.
    pub fn add_type(&mut self, name: String) -> u32 {
        if let Some(i) = self.type_id(&name) {
            return i;
        }
        self.push_type(name)
    }

    /// Appends a type name read from a stream (indices follow the stream).
    pub fn push_type(&mut self, name: String) -> u32 {
        let r = self.rest_mut();
        let i = r.types.len() as u32;
        r.types.push(name);
        if r.types.len() >= INDEX_FROM {
            index_last(&r.types, &mut r.type_index, i);
        }
        i
    }
}

/// Indexes entry `i`, the last of `list`, once the list has [`INDEX_FROM`] entries: builds the
/// index from the whole list on first need; every entry keeps its first index.
#[allow(clippy::box_collection)]
fn index_last<K: Clone + Eq + std::hash::Hash>(list: &[K], index: &mut Option<Box<HashMap<K, u32>>>, i: u32) {
    match index {
        None => {
            let mut built = HashMap::with_capacity(list.len() * 2);
            for (j, k) in list.iter().enumerate() {
                built.entry(k.clone()).or_insert(j as u32);
            }
            *index = Some(Box::new(built));
        }
        Some(index) => {
            if let Some(k) = list.last() {
                index.entry(k.clone()).or_insert(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_survives_reset() {
        let money = ClassDef::new("Money", ["cents", "text"]);
        let mut t = Tables::seeded([money.clone()], ["[int".to_string()]);
        let item = ClassDef::new("Item", ["name"]);
        assert_eq!(t.add_class(item.clone()), 1);
        assert_eq!(t.add_type("[string".into()), 1);
        t.reset();
        assert_eq!(t.class_id(&money), Some(0));
        assert_eq!(t.class_id(&item), None);
        assert_eq!(t.type_id("[int"), Some(0));
        assert_eq!(t.type_id("[string"), None);
    }

    #[test]
    fn lookups_agree_before_and_after_the_index() {
        // Past INDEX_FROM entries the hash index takes over; repeated entries keep their first
        // index, both before and after it is built, and after a reset.
        let mut t = Tables::seeded([ClassDef::new("Seed", ["a"])], ["[seed".to_string()]);
        for round in 0..2 {
            for i in 0..40 {
                let c = ClassDef::new(format!("C{}", i % 30), ["x"]);
                let id = t.add_class(c.clone());
                assert_eq!(id as usize, 1 + i % 30, "round {round} class {i}");
                assert_eq!(t.class_id(&ClassDef::new(format!("C{}", i % 30), ["x"])), Some(id));
                let ty = format!("T{}", i % 30);
                assert_eq!(t.add_type(ty.clone()) as usize, 1 + i % 30);
                assert_eq!(t.type_id(&ty), Some(1 + (i % 30) as u32));
            }
            assert_eq!(t.push_class(ClassDef::new("C3", ["x"])), 31, "a repeat read from a stream");
            assert_eq!(t.class_id(&ClassDef::new("C3", ["x"])), Some(4), "first index wins");
            t.reset();
            assert_eq!(t.classes().len(), 1);
            assert_eq!(t.class_id(&ClassDef::new("Seed", ["a"])), Some(0));
            assert_eq!(t.class_id(&ClassDef::new("C3", ["x"])), None);
            assert_eq!(t.type_id("[seed"), Some(0));
            assert_eq!(t.type_id("T3"), None);
        }
    }
}
