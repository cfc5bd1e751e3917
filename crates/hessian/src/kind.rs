//! What kind of value a byte code starts: the one classification that the decoders, the serde
//! layer and the `hessian dump` walkers of both binary formats branch on (each format's table is
//! `h2::codes::kind` and `h1::codes::kind`), in the spirit of rmp's `Marker`. The finer reading
//! of a code (a compact int's value, a short string's length) stays with each format's parser.

/// The kind of value (or of value-level element) a byte code starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A 32-bit int, any form.
    Int,
    /// A 64-bit long, any form.
    Long,
    /// A double, any form.
    Double,
    /// A date, any form.
    Date,
    /// A string (or Hessian 1 XML), any form, chunks included.
    String,
    /// A binary, any form, chunks included.
    Binary,
    /// A list, typed or untyped, of any length form.
    List,
    /// A map, typed or untyped (in Hessian 1 also an object).
    Map,
    /// A class definition (Hessian 2), which precedes an object.
    ClassDef,
    /// An object instance (Hessian 2).
    Object,
    /// A back reference to an earlier value.
    Ref,
    /// A remote object reference (Hessian 1).
    Remote,
    /// Not a value code of the format.
    Invalid,
}

impl Kind {
    /// A short name of the kind, as [`Value::kind_name`](crate::Value::kind_name) names the
    /// values it decodes to; used in error messages.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "bool",
            Kind::Int => "int",
            Kind::Long => "long",
            Kind::Double => "double",
            Kind::Date => "date",
            Kind::String => "string",
            Kind::Binary => "binary",
            Kind::List => "list",
            Kind::Map => "map",
            Kind::ClassDef => "class definition",
            Kind::Object => "object",
            Kind::Ref => "ref",
            Kind::Remote => "remote",
            Kind::Invalid => "invalid code",
        }
    }
}

/// A 256-entry `[Kind; 256]` built at compile time from a `const fn(u8) -> Kind`.
macro_rules! kind_table {
    ($classify:path) => {{
        let mut t = [$crate::kind::Kind::Invalid; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = $classify(i as u8);
            i += 1;
        }
        t
    }};
}
pub(crate) use kind_table;
