//! Errors (a kind plus the byte offset where it happened) and the decoder's resource limits.

use std::fmt;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A codec error: what went wrong and at which byte offset of the input (or output).
///
/// The error is one pointer wide (its contents are boxed), so that `Result<(), Error>` and the
/// like travel in registers through the codec's hot paths.
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    offset: u64,
    /// Where in the decoded Rust value the error happened, innermost first (filled in by the
    /// serde deserializer as the error unwinds out of struct fields and list elements).
    path: Vec<PathSegment>,
}

/// One step of the path to a value that failed to decode (see [`Error::path`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathSegment {
    /// A field of a struct: the struct's name (its simple Java class name, or the serde name
    /// when it is not a class name; `None` in a map) and the field's name.
    Field {
        /// The struct's name, e.g. `Item`.
        strukt: Option<String>,
        /// The field's name as on the wire, e.g. `added`.
        field: String,
    },
    /// A struct itself (for errors of the struct as a whole, such as a missing field).
    Struct(String),
    /// An element of a list, by index from 0.
    Index(usize),
}

/// A type map's digest as 32 lower-case hex digits (the form of the extension's HTTP headers;
/// `negotiate::to_hex` is this).
pub(crate) fn digest_hex(digest: &[u8; 16]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(32);
    for b in digest {
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 15)]));
    }
    s
}

/// Renders a path given innermost first: `Item.added`, `Order.lines[2].price`, `[3] Item.added`.
fn render_path(path: &[PathSegment], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut after_field = false;
    let mut started = false;
    for seg in path.iter().rev() {
        match seg {
            PathSegment::Index(i) => {
                write!(f, "[{i}]")?;
            }
            PathSegment::Struct(s) => {
                if started && !after_field {
                    f.write_str(" ")?;
                }
                if !after_field {
                    f.write_str(s)?;
                }
            }
            PathSegment::Field { strukt, field } => {
                if after_field {
                    write!(f, ".{field}")?;
                } else {
                    if started {
                        f.write_str(" ")?;
                    }
                    match strukt {
                        Some(s) => write!(f, "{s}.{field}")?,
                        None => write!(f, "{field}")?,
                    }
                }
                after_field = true;
            }
        }
        started = true;
    }
    Ok(())
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.inner.kind).field("offset", &self.inner.offset);
        if !self.inner.path.is_empty() {
            d.field("path", &self.path());
        }
        d.finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.inner.path.is_empty() {
            render_path(&self.inner.path, f)?;
            f.write_str(": ")?;
        }
        write!(f, "{} at byte offset {}", self.inner.kind, self.inner.offset)
    }
}

impl std::error::Error for Error {}

impl Error {
    /// Creates an error of `kind` at `offset`.
    #[cold]
    pub fn new(kind: ErrorKind, offset: u64) -> Self {
        Error { inner: Box::new(Inner { kind, offset, path: Vec::new() }) }
    }

    /// Where in the decoded Rust value the error happened, e.g. `Item.added` (a struct's field),
    /// `Order.lines[2].price`, or `[3] Item.added` (element 3 of a list of `Item`s); `None` for
    /// an error outside any struct or list.
    pub fn path(&self) -> Option<String> {
        if self.inner.path.is_empty() {
            return None;
        }
        struct P<'a>(&'a [PathSegment]);
        impl fmt::Display for P<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                render_path(self.0, f)
            }
        }
        Some(P(&self.inner.path).to_string())
    }

    /// The path's segments, innermost first (see [`path`](Self::path)).
    pub fn path_segments(&self) -> &[PathSegment] {
        &self.inner.path
    }

    /// Adds the field `field` as the next enclosing step of the path (on the error path of a
    /// struct field's decoding). `strukt` names the struct when known.
    #[cold]
    #[inline(never)]
    pub(crate) fn in_field(mut self, field: &str) -> Self {
        self.inner.path.push(PathSegment::Field { strukt: None, field: field.to_owned() });
        self
    }

    /// Adds the list element `index` as the next enclosing step of the path.
    #[cold]
    #[inline(never)]
    pub(crate) fn in_element(mut self, index: usize) -> Self {
        self.inner.path.push(PathSegment::Index(index));
        self
    }

    /// Names the struct `name` (a serde name such as `com.acme.Item`, shown by its simple
    /// name) whose field the path's outermost step is, or adds it as a step when the error
    /// is the struct's own (a missing field).
    #[cold]
    #[inline(never)]
    pub(crate) fn in_struct(&mut self, name: &str) {
        let simple = name.rsplit('.').next().unwrap_or(name);
        let simple = simple.rsplit('$').next().unwrap_or(simple);
        if simple.is_empty() {
            return;
        }
        match self.inner.path.last_mut() {
            Some(PathSegment::Field { strukt: s @ None, .. }) => *s = Some(simple.to_owned()),
            Some(PathSegment::Field { .. }) | Some(PathSegment::Struct(_)) => {}
            None | Some(PathSegment::Index(_)) => self.inner.path.push(PathSegment::Struct(simple.to_owned())),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// The byte offset where the problem was detected (of the input when decoding, of the
    /// output when encoding).
    pub fn offset(&self) -> u64 {
        self.inner.offset
    }

    /// Consumes the error, returning its kind.
    pub fn into_kind(self) -> ErrorKind {
        self.inner.kind
    }

    /// Offset marker of errors raised where the position is not known yet (serde's
    /// `Error::custom` and friends); the codec fills it in as the error passes through it.
    pub(crate) const UNKNOWN_OFFSET: u64 = u64::MAX;

    /// Sets the offset if it is still [`UNKNOWN_OFFSET`](Self::UNKNOWN_OFFSET).
    #[inline]
    pub(crate) fn at_offset(mut self, offset: u64) -> Self {
        self.locate(offset);
        self
    }

    /// Sets the offset, whatever it was (a serializer correcting where it located an error).
    pub(crate) fn relocate(&mut self, offset: u64) {
        self.inner.offset = offset;
    }

    /// In place: sets the offset if it is still [`UNKNOWN_OFFSET`](Self::UNKNOWN_OFFSET).
    #[inline]
    pub(crate) fn locate(&mut self, offset: u64) {
        if self.inner.offset == Self::UNKNOWN_OFFSET {
            self.inner.offset = offset;
        }
    }
}

/// The kinds of codec error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended in the middle of a value.
    #[error("unexpected end of input")]
    UnexpectedEof,
    /// A byte code that is not valid where it appears.
    #[error("unexpected byte code 0x{code:02x} while reading {context}")]
    UnexpectedCode {
        /// The offending byte.
        code: u8,
        /// What the decoder was reading.
        context: &'static str,
    },
    /// Bytes that are neither UTF-8 nor Java's modified UTF-8 (CESU-8) surrogate encoding.
    #[error("invalid UTF-8 in string")]
    InvalidUtf8,
    /// A UTF-16 surrogate without its partner.
    #[error("lone UTF-16 surrogate 0x{0:04x} in string")]
    LoneSurrogate(u16),
    /// A declared length that runs past the end of the input.
    #[error("declared length {declared} exceeds the {available} bytes left in the input")]
    LengthPastEnd {
        /// The length the stream declared.
        declared: u64,
        /// The bytes actually left.
        available: u64,
    },
    /// A value reference to an entry that does not exist (yet).
    #[error("reference {index} out of range ({len} entries)")]
    RefOutOfRange {
        /// The referenced index.
        index: u64,
        /// The number of entries in the table.
        len: usize,
    },
    /// An object instance naming a class definition that does not exist.
    #[error("class definition {index} out of range ({len} definitions)")]
    ClassRefOutOfRange {
        /// The referenced index.
        index: u64,
        /// The number of definitions in the table.
        len: usize,
    },
    /// A type-name reference to an entry that does not exist.
    #[error("type reference {index} out of range ({len} types)")]
    TypeRefOutOfRange {
        /// The referenced index.
        index: u64,
        /// The number of type names in the table.
        len: usize,
    },
    /// A configured limit was exceeded.
    #[error("{what} limit of {limit} exceeded")]
    LimitExceeded {
        /// Which limit (see [`Limits`]).
        what: &'static str,
        /// The configured value.
        limit: u64,
    },
    /// A value that the wire format cannot express (e.g. an empty type name).
    #[error("cannot encode: {0}")]
    Unencodable(String),
    /// Malformed structure that is not a single bad byte (e.g. bad XML in Burlap).
    #[error("malformed input: {0}")]
    Malformed(String),
    /// Input remained after a complete value where none was expected.
    #[error("trailing bytes after the value")]
    TrailingBytes,
    /// A value of one type where another was required (serde and RPC layers).
    #[error("invalid type: expected {expected}, found {found}")]
    InvalidType {
        /// What was expected.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A field that the Rust type requires was absent from the decoded object or map (serde).
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// A field the Rust type does not know, with `#[serde(deny_unknown_fields)]` (serde).
    #[error("unknown field `{0}`")]
    UnknownField(String),
    /// An enum variant the Rust type does not know (serde).
    #[error("unknown variant `{0}`")]
    UnknownVariant(String),
    /// A decoded number that does not fit the Rust type it decodes into (serde).
    #[error("number {value} out of range for {target}")]
    OutOfRange {
        /// The decoded value.
        value: i64,
        /// The Rust type it was decoded into.
        target: &'static str,
    },
    /// A referring message (`H 02 01 T <digest>`, the negotiation extension) names a type map
    /// the receiver does not have: nothing after the digest was read (the sender resends the
    /// message plain).
    #[error("unknown type map {}", digest_hex(.0))]
    UnknownTypeMap([u8; 16]),
    /// A message from a higher layer (e.g. serde's custom errors).
    #[error("{0}")]
    Message(String),
    /// An I/O error of the underlying reader or writer.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth {}, collection {}, string {}, binary {}, classes {}, refs {}, message {}",
            self.max_depth,
            self.max_collection_len,
            self.max_string_len,
            self.max_binary_len,
            self.max_class_defs,
            self.max_refs,
            self.max_message_size
        )
    }
}

/// Resource limits enforced by decoders. Declared lengths are additionally never pre-allocated
/// beyond what the remaining input can hold, whatever the limits say.
///
/// The struct is `#[non_exhaustive]` so that limits can be added without breaking callers: start
/// from [`Limits::default()`] and change what you need, with the `with_*` setters or by assigning
/// the public fields:
///
/// ```
/// use hessian::Limits;
///
/// let strict = Limits::default().with_max_depth(32).with_max_message_size(1 << 20);
/// let mut also = Limits::default();
/// also.max_depth = 32;
/// also.max_message_size = 1 << 20;
/// assert_eq!(strict, also);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum nesting of lists, maps and objects.
    pub max_depth: usize,
    /// Maximum number of elements in one list or entries in one map.
    pub max_collection_len: usize,
    /// Maximum length of one string, in UTF-16 code units.
    pub max_string_len: usize,
    /// Maximum length of one binary value, in bytes.
    pub max_binary_len: usize,
    /// Maximum number of class definitions (and type names) in one message or conversation.
    pub max_class_defs: usize,
    /// Maximum number of referenceable values (lists, maps, objects) in one message.
    pub max_refs: usize,
    /// Maximum number of bytes one message may occupy.
    pub max_message_size: u64,
    /// Maximum number of bytes the serde deserializer re-reads in one message to copy values
    /// that the message shares by reference (`Q`) into plain, unshared Rust types. Copies
    /// multiply: without this bound a small message of references to references could expand
    /// exponentially.
    pub max_ref_copy_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 256,
            max_collection_len: 16 * 1024 * 1024,
            max_string_len: 64 * 1024 * 1024,
            max_binary_len: 256 * 1024 * 1024,
            max_class_defs: 64 * 1024,
            max_refs: 16 * 1024 * 1024,
            max_message_size: 512 * 1024 * 1024,
            max_ref_copy_bytes: 16 * 1024 * 1024,
        }
    }
}

impl Limits {
    /// These limits with [`max_depth`](Self::max_depth) set to `n`.
    #[must_use]
    pub const fn with_max_depth(mut self, n: usize) -> Self {
        self.max_depth = n;
        self
    }

    /// These limits with [`max_collection_len`](Self::max_collection_len) set to `n`.
    #[must_use]
    pub const fn with_max_collection_len(mut self, n: usize) -> Self {
        self.max_collection_len = n;
        self
    }

    /// These limits with [`max_string_len`](Self::max_string_len) set to `n`.
    #[must_use]
    pub const fn with_max_string_len(mut self, n: usize) -> Self {
        self.max_string_len = n;
        self
    }

    /// These limits with [`max_binary_len`](Self::max_binary_len) set to `n`.
    #[must_use]
    pub const fn with_max_binary_len(mut self, n: usize) -> Self {
        self.max_binary_len = n;
        self
    }

    /// These limits with [`max_class_defs`](Self::max_class_defs) set to `n`.
    #[must_use]
    pub const fn with_max_class_defs(mut self, n: usize) -> Self {
        self.max_class_defs = n;
        self
    }

    /// These limits with [`max_refs`](Self::max_refs) set to `n`.
    #[must_use]
    pub const fn with_max_refs(mut self, n: usize) -> Self {
        self.max_refs = n;
        self
    }

    /// These limits with [`max_message_size`](Self::max_message_size) set to `n`.
    #[must_use]
    pub const fn with_max_message_size(mut self, n: u64) -> Self {
        self.max_message_size = n;
        self
    }

    /// These limits with [`max_ref_copy_bytes`](Self::max_ref_copy_bytes) set to `n`.
    #[must_use]
    pub const fn with_max_ref_copy_bytes(mut self, n: u64) -> Self {
        self.max_ref_copy_bytes = n;
        self
    }

    /// Refuses a whole message of `len` bytes that exceeds `max_message_size` (offset 0: the
    /// message is refused before any of it is read).
    #[inline]
    pub fn check_message_size(&self, len: usize) -> Result<()> {
        if len as u64 > self.max_message_size {
            return Err(Error::new(ErrorKind::LimitExceeded { what: "message size", limit: self.max_message_size }, 0));
        }
        Ok(())
    }

    /// Refuses another element of a list or map (or call argument, header, fault entry) that
    /// holds `count` already, past `max_collection_len`; the error is at offset `at()`. Every
    /// decoder's `check_count`.
    #[inline]
    pub(crate) fn check_count(&self, count: usize, at: impl FnOnce() -> u64) -> Result<()> {
        if count >= self.max_collection_len {
            return Err(self.collection_limit(at()));
        }
        Ok(())
    }

    #[cold]
    fn collection_limit(&self, at: u64) -> Error {
        Error::new(ErrorKind::LimitExceeded { what: "collection length", limit: self.max_collection_len as u64 }, at)
    }

    /// No limits beyond memory and the input itself (for trusted input only).
    pub fn unlimited() -> Self {
        Limits {
            max_depth: usize::MAX,
            max_collection_len: usize::MAX,
            max_string_len: usize::MAX,
            max_binary_len: usize::MAX,
            max_class_defs: usize::MAX,
            max_refs: usize::MAX,
            max_message_size: u64::MAX,
            max_ref_copy_bytes: u64::MAX,
        }
    }
}
