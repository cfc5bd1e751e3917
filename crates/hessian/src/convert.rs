//! Re-shaping values between the members of the family, for gateways between Hessian 1 or Burlap
//! peers and Hessian 2 peers.
//!
//! Every [`Value`] encodes in every format as it is; what differs is how Java *writes* the same
//! Java object in each:
//! - a Java object is a Hessian 2 [`Value::Object`] but a Hessian 1 / Burlap typed map whose keys
//!   are the field names (the Hessian 1 and Burlap encoders write objects that way already);
//! - a remote reference is a Hessian 1 / Burlap `remote` but a Hessian 2 object of class
//!   `com.caucho.hessian.io.HessianRemote`, which (unlike the Hessian 1 remote) takes a slot in
//!   the reference table, so back references after it are renumbered.
//!
//! [`to_h2`] gives a value the shape Java's `Hessian2Output` would write for the Java object a
//! Hessian 1 / Burlap value stands for; [`to_h1`] goes the other way (it is also right for
//! Burlap).

use crate::value::{ClassDef, List, Map, Object, Remote, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// The class name Hessian 2 uses for remote references.
pub const HESSIAN_REMOTE_CLASS: &str = "com.caucho.hessian.io.HessianRemote";

/// Whether a Hessian 1 / Burlap typed map of this type is a Java `Map` (stays a map in Hessian 2)
/// rather than a serialized object: `java.util.*Map`, `Hashtable`, `Properties` and the
/// `java.util.concurrent` maps.
pub fn is_java_map_type(name: &str) -> bool {
    (name.starts_with("java.util.") && (name.ends_with("Map") || name.ends_with(".Hashtable")))
        || name == "java.util.Properties"
}

/// Converts a value decoded from Hessian 1 or Burlap to the shape Hessian 2 gives the same Java
/// data: typed maps with all-string keys whose type is not a Java map type become objects (one
/// shared class definition per distinct type and field list), remotes become `HessianRemote`
/// objects, and back references are renumbered accordingly.
pub fn to_h2(v: &Value) -> Value {
    to_h2_with(v, &|t| !is_java_map_type(t))
}

/// Like [`to_h2`] with a caller-chosen test of which typed maps are objects.
pub fn to_h2_with(v: &Value, is_object_type: &dyn Fn(&str) -> bool) -> Value {
    let mut c = Converter { classes: HashMap::new(), map: Vec::new(), src_refs: 0, dst_refs: 0 };
    c.h2(v, is_object_type)
}

/// Converts a value decoded from Hessian 2 to the shape Hessian 1 and Burlap give the same Java
/// data: `HessianRemote` objects become remotes and back references are renumbered. (Objects need
/// no change: the Hessian 1 and Burlap encoders write them as typed maps of field names.)
pub fn to_h1(v: &Value) -> Value {
    let mut c = Converter { classes: HashMap::new(), map: Vec::new(), src_refs: 0, dst_refs: 0 };
    c.h1(v)
}

/// Replaces every object by the typed map Hessian 1 and Burlap carry for it (field names as
/// string keys); what decoding Java's Hessian 1 or Burlap output gives for a Java object.
pub fn objects_to_maps(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Map(Box::new(Map {
            type_name: Some(o.class.name.clone()).filter(|n| !n.is_empty()),
            entries: o
                .class
                .fields
                .iter()
                .zip(&o.fields)
                .map(|(k, v)| (Value::string(k), objects_to_maps(v)))
                .collect(),
        })),
        Value::List(l) => Value::List(Box::new(List {
            type_name: l.type_name.clone(),
            fixed_length: l.fixed_length,
            items: l.items.iter().map(objects_to_maps).collect(),
        })),
        Value::Map(m) => Value::Map(Box::new(Map {
            type_name: m.type_name.clone(),
            entries: m.entries.iter().map(|(k, v)| (objects_to_maps(k), objects_to_maps(v))).collect(),
        })),
        other => other.clone(),
    }
}

struct Converter {
    classes: HashMap<(String, Vec<String>), Arc<ClassDef>>,
    /// Source reference index -> target reference index.
    map: Vec<u32>,
    src_refs: u32,
    dst_refs: u32,
}

impl Converter {
    /// Records that a referenceable value of the source is one of the target too.
    fn both(&mut self) {
        self.map.push(self.dst_refs);
        self.src_refs += 1;
        self.dst_refs += 1;
    }

    fn reref(&self, r: u32) -> Value {
        // A reference the source could not resolve stays as it is (the encoder will write it).
        Value::Ref(self.map.get(r as usize).copied().unwrap_or(r))
    }

    fn h2(&mut self, v: &Value, is_object_type: &dyn Fn(&str) -> bool) -> Value {
        match v {
            Value::List(l) => {
                self.both();
                Value::List(Box::new(List {
                    // Hessian 2 has no empty type name (Hessian 1 `V t 00 00` decodes to one).
                    type_name: l.type_name.clone().filter(|t| !t.is_empty()),
                    fixed_length: l.fixed_length,
                    items: l.items.iter().map(|x| self.h2(x, is_object_type)).collect(),
                }))
            }
            Value::Map(m) => {
                self.both();
                let object_type = m.type_name.as_deref().filter(|t| is_object_type(t));
                if let Some(t) = object_type {
                    if m.entries.iter().all(|(k, _)| matches!(k, Value::String(_))) {
                        let fields: Vec<String> =
                            m.entries.iter().filter_map(|(k, _)| k.as_str().map(String::from)).collect();
                        let key = (t.to_owned(), fields);
                        let class = match self.classes.get(&key) {
                            Some(c) => c.clone(),
                            None => {
                                let c = Arc::new(ClassDef { name: key.0.clone(), fields: key.1.clone() });
                                self.classes.insert(key, c.clone());
                                c
                            }
                        };
                        let fields = m.entries.iter().map(|(_, v)| self.h2(v, is_object_type)).collect();
                        return Value::Object(Box::new(Object { class, fields }));
                    }
                }
                self.map(m, |c, x| c.h2(x, is_object_type))
            }
            Value::Object(o) => {
                self.both();
                let fields = o.fields.iter().map(|x| self.h2(x, is_object_type)).collect();
                Value::Object(Box::new(Object { class: o.class.clone(), fields }))
            }
            Value::Remote(r) => {
                // Not a reference in Hessian 1 / Burlap, but an object (and so one) in Hessian 2.
                self.dst_refs += 1;
                let class = self
                    .classes
                    .entry((HESSIAN_REMOTE_CLASS.to_owned(), vec!["type".to_owned(), "url".to_owned()]))
                    .or_insert_with(|| ClassDef::new(HESSIAN_REMOTE_CLASS, ["type", "url"]))
                    .clone();
                Value::object(class, vec![Value::string(r.type_name.clone()), Value::string(r.url.clone())])
            }
            Value::Ref(r) => self.reref(*r),
            other => other.clone(),
        }
    }

    /// `m` with every key and value converted by `f`, in order (keys first, as they are read).
    fn map(&mut self, m: &Map, mut f: impl FnMut(&mut Self, &Value) -> Value) -> Value {
        let entries = m
            .entries
            .iter()
            .map(|(k, v)| {
                let k = f(self, k);
                (k, f(self, v))
            })
            .collect();
        Value::Map(Box::new(Map { type_name: m.type_name.clone(), entries }))
    }

    fn h1(&mut self, v: &Value) -> Value {
        match v {
            Value::List(l) => {
                self.both();
                Value::List(Box::new(List {
                    type_name: l.type_name.clone(),
                    fixed_length: l.fixed_length,
                    items: l.items.iter().map(|x| self.h1(x)).collect(),
                }))
            }
            Value::Map(m) => {
                self.both();
                self.map(m, |c, x| c.h1(x))
            }
            Value::Object(o) => {
                if o.class.name == HESSIAN_REMOTE_CLASS {
                    if let [Value::String(t), Value::String(u)] = o.fields.as_slice() {
                        // A reference slot in Hessian 2 only.
                        self.map.push(u32::MAX);
                        self.src_refs += 1;
                        return Value::Remote(Box::new(Remote { type_name: t.clone(), url: u.clone() }));
                    }
                }
                self.both();
                let fields = o.fields.iter().map(|x| self.h1(x)).collect();
                Value::Object(Box::new(Object { class: o.class.clone(), fields }))
            }
            Value::Ref(r) => match self.map.get(*r as usize) {
                // A reference to a remote: Hessian 1 repeats the remote itself.
                Some(&u32::MAX) => Value::Null,
                _ => self.reref(*r),
            },
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_maps_become_objects_and_back() {
        let m = Value::typed_map(
            "Money",
            vec![(Value::string("cents"), Value::Int(1)), (Value::string("text"), Value::string("x"))],
        );
        let list = Value::list(vec![m.clone(), Value::Ref(1)]);
        let h2 = to_h2(&list);
        let Value::List(l) = &h2 else { panic!() };
        assert!(matches!(&l.items[0], Value::Object(o) if o.class.name == "Money" && o.fields[0] == Value::Int(1)));
        assert_eq!(objects_to_maps(&h2), list);
        let table = Value::typed_map("java.util.Hashtable", vec![(Value::string("a"), Value::Int(1))]);
        assert_eq!(to_h2(&table), table);
    }

    #[test]
    fn remotes_renumber_references() {
        let remote = Value::Remote(Box::new(Remote { type_name: "T".into(), url: "u".into() }));
        let inner = Value::list(vec![]);
        let h1 = Value::list(vec![remote, inner, Value::Ref(1)]);
        let h2 = to_h2(&h1);
        let Value::List(l) = &h2 else { panic!() };
        assert_eq!(l.items[2], Value::Ref(2));
        assert_eq!(to_h1(&h2), h1);
    }
}
