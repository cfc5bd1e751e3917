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

/// A format's classification table: `KINDS`, built at compile time from the `const fn(u8) ->
/// Kind` given, and `kind(code)`, the lookup in it.
macro_rules! kind_table {
    ($classify:path) => {
        /// The kind of value each byte code starts, indexed by the code.
        pub static KINDS: [$crate::kind::Kind; 256] = {
            let mut t = [$crate::kind::Kind::Invalid; 256];
            let mut i = 0;
            while i < 256 {
                t[i] = $classify(i as u8);
                i += 1;
            }
            t
        };

        /// The kind of value `code` starts (a lookup in [`KINDS`]).
        #[inline(always)]
        pub fn kind(code: u8) -> $crate::kind::Kind {
            KINDS[usize::from(code)]
        }
    };
}
pub(crate) use kind_table;
