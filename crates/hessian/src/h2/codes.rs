//! Every Hessian 2.0 byte code, named once (names follow Caucho's `Hessian2Constants`), and the
//! table of the [`Kind`] of value each one starts.

use crate::kind::Kind;

/// Binary chunk (not final): `A b1 b0 <bytes>`.
pub const BC_BINARY_CHUNK: u8 = b'A';
/// Final binary chunk: `B b1 b0 <bytes>`.
pub const BC_BINARY: u8 = b'B';
/// Compact binary, length 0..=15: `0x20 + len`.
pub const BC_BINARY_DIRECT: u8 = 0x20;
/// Longest compact binary.
pub const BINARY_DIRECT_MAX: usize = 15;
/// Short binary, length 0..=1023: `0x34 + (len >> 8), len & 0xff`.
pub const BC_BINARY_SHORT: u8 = 0x34;
/// Longest short binary.
pub const BINARY_SHORT_MAX: usize = 1023;

/// Class definition: `C string int string*`.
pub const BC_CLASS_DEF: u8 = b'C';
/// Date in milliseconds: `J b7..b0`.
pub const BC_DATE: u8 = 0x4a;
/// Date in minutes: `K b3..b0`.
pub const BC_DATE_MINUTE: u8 = 0x4b;

/// Double: `D b7..b0`.
pub const BC_DOUBLE: u8 = b'D';
/// Double 0.0.
pub const BC_DOUBLE_ZERO: u8 = 0x5b;
/// Double 1.0.
pub const BC_DOUBLE_ONE: u8 = 0x5c;
/// Double that is an integer in -128..=127: `0x5d b0`.
pub const BC_DOUBLE_BYTE: u8 = 0x5d;
/// Double that is an integer in -32768..=32767: `0x5e b1 b0`.
pub const BC_DOUBLE_SHORT: u8 = 0x5e;
/// Double that is a whole number of thousandths fitting 32 bits: `0x5f b3..b0`.
pub const BC_DOUBLE_MILL: u8 = 0x5f;

/// `false`.
pub const BC_FALSE: u8 = b'F';
/// `true`.
pub const BC_TRUE: u8 = b'T';
/// `null`.
pub const BC_NULL: u8 = b'N';

/// Int: `I b3..b0`.
pub const BC_INT: u8 = b'I';
/// Compact int -16..=47: `0x90 + v`.
pub const BC_INT_ZERO: u8 = 0x90;
/// Smallest compact int.
pub const INT_DIRECT_MIN: i32 = -0x10;
/// Largest compact int.
pub const INT_DIRECT_MAX: i32 = 0x2f;
/// Two-byte int -2048..=2047: `0xc8 + (v >> 8), v`.
pub const BC_INT_BYTE_ZERO: u8 = 0xc8;
/// Smallest two-byte int.
pub const INT_BYTE_MIN: i32 = -0x800;
/// Largest two-byte int.
pub const INT_BYTE_MAX: i32 = 0x7ff;
/// Three-byte int -262144..=262143: `0xd4 + (v >> 16), v >> 8, v`.
pub const BC_INT_SHORT_ZERO: u8 = 0xd4;
/// Smallest three-byte int.
pub const INT_SHORT_MIN: i32 = -0x40000;
/// Largest three-byte int.
pub const INT_SHORT_MAX: i32 = 0x3ffff;

/// Long: `L b7..b0`.
pub const BC_LONG: u8 = b'L';
/// Compact long -8..=15: `0xe0 + v`.
pub const BC_LONG_ZERO: u8 = 0xe0;
/// Smallest compact long.
pub const LONG_DIRECT_MIN: i64 = -0x08;
/// Largest compact long.
pub const LONG_DIRECT_MAX: i64 = 0x0f;
/// Two-byte long -2048..=2047: `0xf8 + (v >> 8), v`.
pub const BC_LONG_BYTE_ZERO: u8 = 0xf8;
/// Smallest two-byte long.
pub const LONG_BYTE_MIN: i64 = -0x800;
/// Largest two-byte long.
pub const LONG_BYTE_MAX: i64 = 0x7ff;
/// Three-byte long -262144..=262143: `0x3c + (v >> 16), v >> 8, v`.
pub const BC_LONG_SHORT_ZERO: u8 = 0x3c;
/// Smallest three-byte long.
pub const LONG_SHORT_MIN: i64 = -0x40000;
/// Largest three-byte long.
pub const LONG_SHORT_MAX: i64 = 0x3ffff;
/// Long in 32 bits: `Y b3..b0`.
pub const BC_LONG_INT: u8 = 0x59;

/// Variable-length typed list: `U type value* Z`.
pub const BC_LIST_VARIABLE: u8 = 0x55;
/// Fixed-length typed list: `V type int value*`.
pub const BC_LIST_FIXED: u8 = b'V';
/// Variable-length untyped list: `W value* Z`.
pub const BC_LIST_VARIABLE_UNTYPED: u8 = 0x57;
/// Fixed-length untyped list: `X int value*`.
pub const BC_LIST_FIXED_UNTYPED: u8 = 0x58;
/// Compact typed list of 0..=7 elements: `0x70 + len, type, value*`.
pub const BC_LIST_DIRECT: u8 = 0x70;
/// Compact untyped list of 0..=7 elements: `0x78 + len, value*`.
pub const BC_LIST_DIRECT_UNTYPED: u8 = 0x78;
/// Longest compact list.
pub const LIST_DIRECT_MAX: usize = 7;

/// End of a variable-length list or of a map.
pub const BC_END: u8 = b'Z';
/// Typed map: `M type (key value)* Z`.
pub const BC_MAP: u8 = b'M';
/// Untyped map: `H (key value)* Z`.
pub const BC_MAP_UNTYPED: u8 = b'H';

/// Object instance with a class reference: `O int value*`.
pub const BC_OBJECT: u8 = b'O';
/// Compact object instance of class 0..=15: `0x60 + ref, value*`.
pub const BC_OBJECT_DIRECT: u8 = 0x60;
/// Largest compact class reference.
pub const OBJECT_DIRECT_MAX: usize = 15;

/// Value reference: `Q int`.
pub const BC_REF: u8 = 0x51;

/// String chunk (not final): `R b1 b0 <utf8>`.
pub const BC_STRING_CHUNK: u8 = b'R';
/// Final string chunk: `S b1 b0 <utf8>`.
pub const BC_STRING: u8 = b'S';
/// Compact string of 0..=31 UTF-16 units: `len, <utf8>`.
pub const BC_STRING_DIRECT: u8 = 0x00;
/// Longest compact string.
pub const STRING_DIRECT_MAX: usize = 0x1f;
/// Short string of 0..=1023 units: `0x30 + (len >> 8), len & 0xff, <utf8>`.
pub const BC_STRING_SHORT: u8 = 0x30;
/// Longest short string.
pub const STRING_SHORT_MAX: usize = 0x3ff;
/// Most UTF-16 units Java puts in one string chunk.
pub const STRING_CHUNK_MAX: usize = 0x8000;

/// Version header of a Hessian 2 message: `H 2 0`.
pub const BC_VERSION: u8 = b'H';
/// Call envelope: `C string int value*`.
pub const BC_CALL: u8 = b'C';
/// Reply envelope: `R value`.
pub const BC_REPLY: u8 = b'R';
/// Fault envelope: `F map`.
pub const BC_FAULT: u8 = b'F';

/// Size of `Hessian2Output`'s internal buffer; binary chunk sizes depend on its fill level.
pub const JAVA_BUFFER_SIZE: usize = 8192;

crate::kind::kind_table!(classify);

/// The classification behind [`KINDS`].
const fn classify(code: u8) -> Kind {
    match code {
        0x00..=0x1f | 0x30..=0x33 | BC_STRING | BC_STRING_CHUNK => Kind::String,
        0x20..=0x2f | 0x34..=0x37 | BC_BINARY | BC_BINARY_CHUNK => Kind::Binary,
        0x38..=0x3f | 0xd8..=0xff | BC_LONG_INT | BC_LONG => Kind::Long,
        0x80..=0xd7 | BC_INT => Kind::Int,
        BC_NULL => Kind::Null,
        BC_TRUE | BC_FALSE => Kind::Bool,
        BC_DOUBLE | BC_DOUBLE_ZERO | BC_DOUBLE_ONE | BC_DOUBLE_BYTE | BC_DOUBLE_SHORT | BC_DOUBLE_MILL => Kind::Double,
        BC_DATE | BC_DATE_MINUTE => Kind::Date,
        0x70..=0x7f | BC_LIST_VARIABLE | BC_LIST_FIXED | BC_LIST_VARIABLE_UNTYPED | BC_LIST_FIXED_UNTYPED => Kind::List,
        BC_MAP | BC_MAP_UNTYPED => Kind::Map,
        BC_CLASS_DEF => Kind::ClassDef,
        0x60..=0x6f | BC_OBJECT => Kind::Object,
        BC_REF => Kind::Ref,
        _ => Kind::Invalid,
    }
}
