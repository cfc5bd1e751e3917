//! The tables that make Hessian compact: class definitions and type names.
//!
//! A [`Tables`] is owned by an encoder or decoder and can be created pre-seeded and kept across
//! messages (the type-negotiation extension carries it from call to call). [`Tables::reset`]
//! forgets what one message added while keeping the seeded entries.

use crate::cache::{TableLists, CLASS_VECS};
use crate::value::ClassDef;
use std::collections::HashMap;
use std::sync::Arc;

/// Class definitions and type names known to one side of a conversation.
///
/// Lookups scan the lists while they are short (most messages define a handful of classes) and
/// go through hash indexes, built on first need, once a list holds 16 entries. Empty tables hold
/// no lists at all: they are made on the first class or type added.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    lists: Option<Box<TableLists>>,
}

/// The list length from which [`Tables`] keeps hash indexes.
const INDEX_FROM: usize = 16;

/// The most classes recycled lists may have room for.
const RECYCLE_MAX: usize = 256;

impl Drop for Tables {
    #[inline]
    fn drop(&mut self) {
        if let Some(lists) = self.lists.take() {
            recycle(lists);
        }
    }
}

/// Keeps `lists` (emptied) for the next tables made on this thread, unless they are large.
#[inline(never)]
fn recycle(mut lists: Box<TableLists>) {
    if lists.classes.capacity() > RECYCLE_MAX || lists.types.capacity() > RECYCLE_MAX {
        return;
    }
    lists.classes.clear();
    lists.types.clear();
    lists.class_index = None;
    lists.type_index = None;
    lists.seeded_classes = 0;
    lists.seeded_types = 0;
    lists.field_memo = Vec::new();
    // During thread teardown the slot may be gone: then the lists are simply freed.
    let _ = CLASS_VECS.try_with(|slot| slot.set(Some(lists)));
}

impl Tables {
    /// Empty tables (plain Hessian: every message starts from nothing).
    pub const fn new() -> Self {
        Tables { lists: None }
    }

    /// The lists, made (or taken from this thread's recycled ones) if there are none yet.
    #[inline]
    fn lists_mut(&mut self) -> &mut TableLists {
        self.lists.get_or_insert_with(|| CLASS_VECS.try_with(|slot| slot.take()).ok().flatten().unwrap_or_default())
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
        let mut t = Tables { lists: Some(Box::new(TableLists { classes, ..TableLists::default() })) };
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
        size_of::<TableLists>()
            + classes * size_of::<Arc<ClassDef>>()
            + types * size_of::<String>()
            + if memo { classes * size_of::<(usize, bool)>() } else { 0 }
    }

    /// The heap bytes of the tables' own lists (the definitions they point to are counted with
    /// whoever made them), without the hash indexes (dropped by [`reset`](Self::reset)).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.lists.as_deref().map_or(0, |l| {
            size_of::<TableLists>()
                + l.classes.capacity() * size_of::<Arc<ClassDef>>()
                + l.types.capacity() * size_of::<String>()
                + l.types.iter().map(String::capacity).sum::<usize>()
                + l.field_memo.capacity() * size_of::<(usize, bool)>()
        })
    }

    /// Gives back the room of the lists beyond their entries (and the hash indexes).
    pub(crate) fn shrink(&mut self) {
        if let Some(l) = self.lists.as_deref_mut() {
            l.classes.shrink_to_fit();
            l.types.shrink_to_fit();
            l.field_memo.shrink_to_fit();
            l.class_index = None;
            l.type_index = None;
        }
    }

    /// Forgets everything added since the seed (the start of a new plain-Hessian message).
    pub fn reset(&mut self) {
        if let Some(l) = self.lists.as_deref_mut() {
            l.classes.truncate(l.seeded_classes);
            l.types.truncate(l.seeded_types);
            // Rebuilt from the remaining entries when next needed.
            l.class_index = None;
            l.type_index = None;
        }
    }

    /// Makes everything added so far part of the seed, so that [`reset`](Self::reset) keeps it
    /// (how the type-negotiation extension grows the shared tables).
    pub fn keep_all(&mut self) {
        if let Some(l) = self.lists.as_deref_mut() {
            l.seeded_classes = l.classes.len();
            l.seeded_types = l.types.len();
        }
    }

    /// Drops the class definitions and type names from index `classes` and `types` on (what a
    /// stretch of input re-read to copy a referenced value defined a second time).
    pub(crate) fn truncate(&mut self, classes: usize, types: usize) {
        if let Some(l) = self.lists.as_deref_mut() {
            if l.classes.len() > classes {
                l.classes.truncate(classes);
                l.class_index = None;
            }
            if l.types.len() > types {
                l.types.truncate(types);
                l.type_index = None;
            }
        }
    }

    /// Puts `class`, equal to class `i`, in its place (a serializer's own definition for a type
    /// map's, so that the next message finds it by address).
    pub(crate) fn replace_class(&mut self, i: usize, class: Arc<ClassDef>) {
        if let Some(slot) = self.lists.as_deref_mut().and_then(|l| l.classes.get_mut(i)) {
            debug_assert!(**slot == *class, "replace_class with a different definition");
            *slot = class;
        }
    }

    /// Whether the tables hold exactly their seed: `classes` class definitions and no type names
    /// beyond it (what [`reset`](Self::reset) returns to).
    pub(crate) fn is_seed_of(&self, classes: usize) -> bool {
        match self.lists.as_deref() {
            None => classes == 0,
            Some(l) => l.seeded_classes == classes && l.classes.len() == classes && l.types.len() == l.seeded_types,
        }
    }

    /// Whether a hash index was built (dropped by [`reset`](Self::reset)).
    pub(crate) fn has_index(&self) -> bool {
        self.lists.as_deref().is_some_and(|l| l.class_index.is_some() || l.type_index.is_some())
    }

    /// Gives each class so far a slot of the per-class field memo ([`field_memo`](Self::field_memo)).
    pub(crate) fn add_field_memo(&mut self) {
        let l = self.lists_mut();
        l.field_memo = vec![(0, false); l.classes.len()];
    }

    /// The field memo slot of seeded class `i`, if the tables keep one.
    #[inline]
    pub(crate) fn field_memo(&mut self, i: usize) -> Option<&mut (usize, bool)> {
        self.lists.as_deref_mut()?.field_memo.get_mut(i)
    }

    /// All class definitions, by index.
    #[inline]
    pub fn classes(&self) -> &[Arc<ClassDef>] {
        self.lists.as_deref().map_or(&[], |l| &l.classes)
    }

    /// All type names, by index.
    #[inline]
    pub fn types(&self) -> &[String] {
        self.lists.as_deref().map_or(&[], |l| &l.types)
    }

    /// The class definition with index `i`.
    #[inline]
    pub fn class(&self, i: usize) -> Option<&Arc<ClassDef>> {
        self.classes().get(i)
    }

    /// The index of a class definition equal to `class`, if any (the same `Arc` is found
    /// without comparing contents).
    /// (The search for the same `Arc` in line: an encoder calls this for every object, and the
    /// compiler once kept it out of line, 3% of a W1 `Value` encode.)
    #[inline(always)]
    pub fn class_id(&self, class: &Arc<ClassDef>) -> Option<u32> {
        let l = self.lists.as_deref()?;
        if let Some(i) = l.classes.iter().take(INDEX_FROM).position(|c| Arc::ptr_eq(c, class)) {
            return Some(i as u32);
        }
        class_id_by_value(l, class)
    }

    /// Like [`class_id`](Self::class_id); a definition found by equal contents (not the same
    /// `Arc`) is replaced by `class` in its slot, so that the next instance of `class` is found
    /// by address: values decoded elsewhere (or a type map's definitions, seeded) would
    /// otherwise compare names and fields at every instance.
    #[inline]
    pub(crate) fn class_id_adopting(&mut self, class: &Arc<ClassDef>) -> Option<u32> {
        let l = self.lists.as_deref_mut()?;
        if let Some(i) = l.classes.iter().take(INDEX_FROM).position(|c| Arc::ptr_eq(c, class)) {
            return Some(i as u32);
        }
        let i = class_id_by_value(l, class)?;
        if let Some(slot) = l.classes.get_mut(i as usize) {
            *slot = class.clone();
        }
        Some(i)
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
        let l = self.lists_mut();
        push_indexed(&mut l.classes, &mut l.class_index, class)
    }

    /// The type name with index `i`.
    #[inline]
    pub fn type_name(&self, i: usize) -> Option<&str> {
        self.types().get(i).map(String::as_str)
    }

    /// The index of a type name, if any.
    #[inline]
    pub fn type_id(&self, name: &str) -> Option<u32> {
        let l = self.lists.as_deref()?;
        match &l.type_index {
            None => l.types.iter().position(|t| t == name).map(|i| i as u32),
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
        let l = self.lists_mut();
        push_indexed(&mut l.types, &mut l.type_index, name)
    }
}

/// [`Tables::class_id`] past the same-`Arc` search: by equal contents.
#[inline(never)]
fn class_id_by_value(l: &TableLists, class: &Arc<ClassDef>) -> Option<u32> {
    match &l.class_index {
        None => l.classes.iter().position(|c| **c == **class).map(|i| i as u32),
        Some(index) => index.get(class).copied(),
    }
}

/// Appends `item` to `list` and returns its index; from [`INDEX_FROM`] entries on, keeps `index`
/// (built from the whole list on first need) with the first index of every entry.
#[allow(clippy::box_collection)]
fn push_indexed<K: Clone + Eq + std::hash::Hash>(
    list: &mut Vec<K>,
    index: &mut Option<Box<HashMap<K, u32>>>,
    item: K,
) -> u32 {
    let i = list.len() as u32;
    list.push(item);
    if list.len() >= INDEX_FROM {
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
    i
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
