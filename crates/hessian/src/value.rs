//! The dynamic value model shared by every wire format (Hessian 2.0, Hessian 1.0.2, Burlap).
//!
//! The model is *lossless* with respect to the wire: shared and circular references are kept as
//! explicit [`Value::Ref`] nodes pointing into the message's reference table (numbered in the order
//! lists, maps and objects start), so decoding a stream and encoding the result reproduces it.

use std::fmt;
use std::sync::Arc;

/// Any value of the Hessian type system.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// 32-bit signed integer.
    Int(i32),
    /// 64-bit signed integer.
    Long(i64),
    /// 64-bit IEEE double.
    Double(f64),
    /// Date as milliseconds since the Unix epoch, UTC.
    Date(i64),
    /// UTF-8 string (lengths on the wire count UTF-16 code units).
    String(String),
    /// Raw bytes.
    Binary(Vec<u8>),
    /// A typed or untyped, fixed- or variable-length list.
    List(Box<List>),
    /// A typed or untyped map with keys of any type.
    Map(Box<Map>),
    /// An object: a class definition and its field values, in definition order.
    Object(Box<Object>),
    /// A back reference to the n-th list, map or object of the message (0-based).
    Ref(u32),
    /// A remote object reference (Hessian 1 `r`, Burlap `<remote>`).
    Remote(Box<Remote>),
}

/// A list with an optional remote type name (e.g. `[int` or `java.util.ArrayList`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct List {
    /// The remote type name, if the stream carried one.
    pub type_name: Option<String>,
    /// Whether the length was written up front (`true`, what Java writes for collections and
    /// arrays) or the list is terminated by an end marker (`false`).
    pub fixed_length: bool,
    /// The elements.
    pub items: Vec<Value>,
}

/// A map with an optional remote type name; entries keep their wire order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Map {
    /// The remote type name (e.g. `java.util.Hashtable`), if the stream carried one.
    pub type_name: Option<String>,
    /// Key/value pairs in wire order.
    pub entries: Vec<(Value, Value)>,
}

/// A class definition: the remote type name and its ordered field names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClassDef {
    /// The remote class name, e.g. `org.example.remoting.Item`.
    pub name: String,
    /// Field names in the order their values are written.
    pub fields: Vec<String>,
}

impl ClassDef {
    /// Creates a class definition, ready to be shared by many objects.
    pub fn new(name: impl Into<String>, fields: impl IntoIterator<Item = impl Into<String>>) -> Arc<Self> {
        Arc::new(ClassDef { name: name.into(), fields: fields.into_iter().map(Into::into).collect() })
    }
}

/// An object instance: its class definition plus one value per field.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    /// The class definition (shared between all instances of the class in a message).
    pub class: Arc<ClassDef>,
    /// Field values, in the order of `class.fields`.
    pub fields: Vec<Value>,
}

impl Object {
    /// Checks that there is one value per field of the class, as every encoder requires;
    /// the error is the description of the mismatch.
    pub fn check_arity(&self) -> Result<(), String> {
        if self.fields.len() == self.class.fields.len() {
            return Ok(());
        }
        Err(format!(
            "object of {} has {} values for {} fields",
            self.class.name,
            self.fields.len(),
            self.class.fields.len()
        ))
    }

    /// The value of the named field, if the class has it.
    pub fn get(&self, field: &str) -> Option<&Value> {
        let i = self.class.fields.iter().position(|f| f == field)?;
        self.fields.get(i)
    }
}

/// A remote reference: the API type and the URL of the remote object.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Remote {
    /// The remote interface type name.
    pub type_name: String,
    /// The URL the remote object is served at.
    pub url: String,
}

impl Value {
    /// Every list, map and object in this value, itself first, in the order a reader numbers
    /// them for references: [`Value::Ref`]`(n)` inside a message whose only referenceable values
    /// are these is entry `n`.
    pub fn reference_table(&self) -> Vec<&Value> {
        fn walk<'a>(v: &'a Value, table: &mut Vec<&'a Value>) {
            match v {
                Value::List(l) => {
                    table.push(v);
                    l.items.iter().for_each(|x| walk(x, table));
                }
                Value::Map(m) => {
                    table.push(v);
                    for (k, x) in &m.entries {
                        walk(k, table);
                        walk(x, table);
                    }
                }
                Value::Object(o) => {
                    table.push(v);
                    o.fields.iter().for_each(|x| walk(x, table));
                }
                _ => {}
            }
        }
        let mut table = Vec::new();
        walk(self, &mut table);
        table
    }

    /// An untyped, fixed-length list (what Java writes for an `ArrayList` of unknown type name).
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Box::new(List { type_name: None, fixed_length: true, items }))
    }

    /// A typed, fixed-length list (e.g. `[int` for `int[]`).
    pub fn typed_list(type_name: impl Into<String>, items: Vec<Value>) -> Value {
        Value::List(Box::new(List { type_name: Some(type_name.into()), fixed_length: true, items }))
    }

    /// An untyped map.
    pub fn map(entries: Vec<(Value, Value)>) -> Value {
        Value::Map(Box::new(Map { type_name: None, entries }))
    }

    /// A typed map (e.g. `java.util.Hashtable`).
    pub fn typed_map(type_name: impl Into<String>, entries: Vec<(Value, Value)>) -> Value {
        Value::Map(Box::new(Map { type_name: Some(type_name.into()), entries }))
    }

    /// An object of the given class with the given field values.
    pub fn object(class: Arc<ClassDef>, fields: Vec<Value>) -> Value {
        Value::Object(Box::new(Object { class, fields }))
    }

    /// A string value.
    pub fn string(s: impl Into<String>) -> Value {
        Value::String(s.into())
    }

    /// Structural identity: as `==`, except that doubles are equal when their bits are, so that
    /// `NaN` equals itself and `-0.0` differs from `0.0` (what a round trip through any of the
    /// formats preserves). `==` keeps IEEE semantics.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Double(x), Value::Double(y)) => x.to_bits() == y.to_bits(),
            (Value::List(x), Value::List(y)) => {
                x.type_name == y.type_name
                    && x.fixed_length == y.fixed_length
                    && x.items.len() == y.items.len()
                    && x.items.iter().zip(&y.items).all(|(a, b)| a.same(b))
            }
            (Value::Map(x), Value::Map(y)) => {
                x.type_name == y.type_name
                    && x.entries.len() == y.entries.len()
                    && x.entries.iter().zip(&y.entries).all(|((k1, v1), (k2, v2))| k1.same(k2) && v1.same(v2))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.class == y.class
                    && x.fields.len() == y.fields.len()
                    && x.fields.iter().zip(&y.fields).all(|(a, b)| a.same(b))
            }
            _ => self == other,
        }
    }

    /// A short human-readable name of the variant, used in error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Long(_) => "long",
            Value::Double(_) => "double",
            Value::Date(_) => "date",
            Value::String(_) => "string",
            Value::Binary(_) => "binary",
            Value::List(_) => "list",
            Value::Map(_) => "map",
            Value::Object(_) => "object",
            Value::Ref(_) => "ref",
            Value::Remote(_) => "remote",
        }
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value widened to `i64`, if this is an int or a long.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(i64::from(*i)),
            Value::Long(l) => Some(*l),
            _ => None,
        }
    }

    /// Whether this value opens a new entry in the reference table when it is written
    /// (lists, maps and objects do; in Hessian 1 and Burlap remotes do too).
    pub fn is_referenceable(&self) -> bool {
        matches!(self, Value::List(_) | Value::Map(_) | Value::Object(_))
    }
}

macro_rules! from_scalar {
    ($($t:ty => $v:ident),* $(,)?) => {
        $(impl From<$t> for Value {
            fn from(x: $t) -> Value { Value::$v(x.into()) }
        })*
    };
}
from_scalar!(bool => Bool, i32 => Int, i64 => Long, f64 => Double, String => String, &str => String, Vec<u8> => Binary);

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Long(l) => write!(f, "{l}L"),
            Value::Double(d) => write!(f, "{d:?}"),
            Value::Date(d) => write!(f, "date({d})"),
            Value::String(s) => write!(f, "{s:?}"),
            Value::Binary(b) => write!(f, "binary[{}]", b.len()),
            Value::List(l) => {
                if let Some(t) = &l.type_name {
                    write!(f, "{t}")?;
                }
                f.write_str("[")?;
                for (i, v) in l.items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Map(m) => {
                if let Some(t) = &m.type_name {
                    write!(f, "{t}")?;
                }
                f.write_str("{")?;
                for (i, (k, v)) in m.entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
            Value::Object(o) => {
                write!(f, "{} {{", o.class.name)?;
                for (i, (k, v)) in o.class.fields.iter().zip(&o.fields).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
            Value::Ref(r) => write!(f, "ref({r})"),
            Value::Remote(r) => write!(f, "remote({}, {})", r.type_name, r.url),
        }
    }
}
