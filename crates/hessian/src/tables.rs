//! The tables that make Hessian compact: class definitions and type names.
//!
//! A [`Tables`] is owned by an encoder or decoder and can be created pre-seeded and kept across
//! messages (the type-negotiation extension carries it from call to call). [`Tables::reset`]
//! forgets what one message added while keeping the seeded entries.

use crate::value::ClassDef;
use std::collections::HashMap;
use std::sync::Arc;

/// Class definitions and type names known to one side of a conversation.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    classes: Vec<Arc<ClassDef>>,
    class_index: HashMap<Arc<ClassDef>, u32>,
    types: Vec<String>,
    type_index: HashMap<String, u32>,
    seeded_classes: usize,
    seeded_types: usize,
}

impl Tables {
    /// Empty tables (plain Hessian: every message starts from nothing).
    pub fn new() -> Self {
        Self::default()
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
        t.seeded_classes = t.classes.len();
        t.seeded_types = t.types.len();
        t
    }

    /// Forgets entries added since seeding (called between messages).
    pub fn reset(&mut self) {
        for c in self.classes.drain(self.seeded_classes..) {
            self.class_index.remove(&c);
        }
        for t in self.types.drain(self.seeded_types..) {
            self.type_index.remove(&t);
        }
    }

    /// Makes everything currently in the tables part of the seed, so that it survives
    /// [`reset`](Self::reset).
    pub fn keep_all(&mut self) {
        self.seeded_classes = self.classes.len();
        self.seeded_types = self.types.len();
    }

    /// The class definitions, by index.
    pub fn classes(&self) -> &[Arc<ClassDef>] {
        &self.classes
    }

    /// The type names, by index.
    pub fn types(&self) -> &[String] {
        &self.types
    }

    /// The class definition with index `i`.
    #[inline]
    pub fn class(&self, i: usize) -> Option<&Arc<ClassDef>> {
        self.classes.get(i)
    }

    /// The index of `class`, if defined. Checks pointer identity first (cheap for the common case
    /// of many objects sharing one definition), then content.
    #[inline]
    pub fn class_id(&self, class: &Arc<ClassDef>) -> Option<u32> {
        if let Some(i) = self.classes.iter().take(16).position(|c| Arc::ptr_eq(c, class)) {
            return Some(i as u32);
        }
        self.class_index.get(class).copied()
    }

    /// Adds a class definition, returning its index (the existing index if already present).
    pub fn add_class(&mut self, class: Arc<ClassDef>) -> u32 {
        if let Some(i) = self.class_index.get(&class) {
            return *i;
        }
        let i = self.classes.len() as u32;
        self.class_index.insert(class.clone(), i);
        self.classes.push(class);
        i
    }

    /// Appends a class definition read from a stream, even if an equal one exists (a stream may
    /// legally define the same class twice; indices must follow the stream).
    pub fn push_class(&mut self, class: Arc<ClassDef>) -> u32 {
        let i = self.classes.len() as u32;
        self.class_index.entry(class.clone()).or_insert(i);
        self.classes.push(class);
        i
    }

    /// The type name with index `i`.
    #[inline]
    pub fn type_name(&self, i: usize) -> Option<&str> {
        self.types.get(i).map(String::as_str)
    }

    /// The index of a type name, if known.
    #[inline]
    pub fn type_id(&self, name: &str) -> Option<u32> {
        self.type_index.get(name).copied()
    }

    /// Adds a type name, returning its index (the existing index if already present).
    pub fn add_type(&mut self, name: String) -> u32 {
        if let Some(i) = self.type_index.get(&name) {
            return *i;
        }
        let i = self.types.len() as u32;
        self.type_index.insert(name.clone(), i);
        self.types.push(name);
        i
    }

    /// Appends a type name read from a stream (indices follow the stream).
    pub fn push_type(&mut self, name: String) -> u32 {
        let i = self.types.len() as u32;
        self.type_index.entry(name.clone()).or_insert(i);
        self.types.push(name);
        i
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
}
