//! Every Hessian 1.0.2 byte code, named once (as `HessianOutput`/`HessianInput` use them), and
//! the table of the [`Kind`] of value each one starts.

use crate::kind::Kind;

/// `null`.
pub const BC_NULL: u8 = b'N';
/// `true`.
pub const BC_TRUE: u8 = b'T';
/// `false`.
pub const BC_FALSE: u8 = b'F';
/// Int: `I b3..b0`.
pub const BC_INT: u8 = b'I';
/// Long: `L b7..b0`.
pub const BC_LONG: u8 = b'L';
/// Double: `D b7..b0` (IEEE bits).
pub const BC_DOUBLE: u8 = b'D';
/// Date in milliseconds since the epoch: `d b7..b0`.
pub const BC_DATE: u8 = b'd';
/// Final string chunk: `S b1 b0 <utf8>` (length in UTF-16 units).
pub const BC_STRING: u8 = b'S';
/// Non-final string chunk: `s b1 b0 <utf8>`.
pub const BC_STRING_CHUNK: u8 = b's';
/// Final XML chunk (read as a string): `X b1 b0 <utf8>`.
pub const BC_XML: u8 = b'X';
/// Non-final XML chunk: `x b1 b0 <utf8>`.
pub const BC_XML_CHUNK: u8 = b'x';
/// Final binary chunk: `B b1 b0 <bytes>`.
pub const BC_BINARY: u8 = b'B';
/// Non-final binary chunk: `b b1 b0 <bytes>`.
pub const BC_BINARY_CHUNK: u8 = b'b';
/// List: `V (t type)? (l length)? value* z`.
pub const BC_LIST: u8 = b'V';
/// Type name inside a list, map or remote: `t b1 b0 <utf8>`.
pub const BC_TYPE: u8 = b't';
/// List length: `l b3..b0`.
pub const BC_LENGTH: u8 = b'l';
/// Map (and object): `M (t type)? (key value)* z`.
pub const BC_MAP: u8 = b'M';
/// End of a list, map, call, reply or fault.
pub const BC_END: u8 = b'z';
/// Back reference to the n-th list or map: `R b3..b0`.
pub const BC_REF: u8 = b'R';
/// Remote object: `r t b1 b0 type S b1 b0 url`; also the reply envelope `r major minor`.
pub const BC_REMOTE: u8 = b'r';

/// Call envelope: `c major minor header* m b1 b0 method value* z`.
pub const BC_CALL: u8 = b'c';
/// Method name inside a call: `m b1 b0 <utf8>`.
pub const BC_METHOD: u8 = b'm';
/// Header inside a call or reply: `H b1 b0 <utf8> value`.
pub const BC_HEADER: u8 = b'H';
/// Reply envelope: `r major minor header* (value | fault) z`.
pub const BC_REPLY: u8 = b'r';
/// Fault inside a reply: `f (key value)* z`.
pub const BC_FAULT: u8 = b'f';

/// Most UTF-16 units (or bytes) `HessianOutput` puts in one string (or binary) chunk.
pub const CHUNK_MAX: usize = 0x8000;
/// Major version `HessianOutput` writes in call and reply headers.
pub const MAJOR: u8 = 1;
/// Minor version `HessianOutput` writes in call and reply headers.
pub const MINOR: u8 = 0;

crate::kind::kind_table!(classify);

/// The classification behind [`KINDS`].
const fn classify(code: u8) -> Kind {
    match code {
        BC_NULL => Kind::Null,
        BC_TRUE | BC_FALSE => Kind::Bool,
        BC_INT => Kind::Int,
        BC_LONG => Kind::Long,
        BC_DOUBLE => Kind::Double,
        BC_DATE => Kind::Date,
        BC_STRING | BC_STRING_CHUNK | BC_XML | BC_XML_CHUNK => Kind::String,
        BC_BINARY | BC_BINARY_CHUNK => Kind::Binary,
        BC_LIST => Kind::List,
        BC_MAP => Kind::Map,
        BC_REF => Kind::Ref,
        BC_REMOTE => Kind::Remote,
        _ => Kind::Invalid,
    }
}
