//! The dynamic `Value` API of Hessian 2, Hessian 1 and Burlap behind one trait, and the checks
//! that the bad-input tests (`bad_input.rs`) make of every format, written once. The trait
//! extends the serde [`Format`] (whose `value_to_vec` and `value_from_slice` are the `Value`
//! encoder and decoder) with the rest of the `Value` API and the few byte sequences that the
//! shared tests build their hostile input from.

use super::serde_formats::{Burlap, Format, H1, H2};
use hessian::{Call, Error, ErrorKind, Limits, Reply, Value};

/// One format's dynamic `Value` API (beyond [`Format::value_to_vec`] and
/// [`Format::value_from_slice`]) and the bytes the shared bad-input tests need.
pub trait ValueFormat: Format {
    /// `FORMAT::from_slice_with_limits(b, limits)`.
    fn value_from_slice_with_limits(b: &[u8], limits: Limits) -> hessian::Result<Value>;
    /// `FORMAT::from_reader(b)`.
    fn value_from_reader(b: &[u8]) -> hessian::Result<Value>;
    /// `FORMAT::call_from_slice(b, limits)` (for Hessian 1 without the major version it reads).
    fn call_from_slice(b: &[u8], limits: Limits) -> hessian::Result<Call>;
    /// `FORMAT::reply_from_slice(b, limits)`.
    fn reply_from_slice(b: &[u8], limits: Limits) -> hessian::Result<Reply>;
    /// The opening of a list whose content follows; repeated, lists nest in lists (Hessian 2:
    /// a list of one element, which needs no end).
    const LIST_OPEN: &'static [u8];
    /// What closes a list opened with [`LIST_OPEN`](Self::LIST_OPEN) after its one element.
    const LIST_CLOSE: &'static [u8];
    /// The opening of a map, its first key `"a"` included, whose first value follows; repeated,
    /// maps nest as values of maps.
    const MAP_OPEN: &'static [u8];
    /// Whether bytes after a whole value are reported where they start (Burlap reports them
    /// where its XML reader stopped, after the start tag of the next element).
    const TRAILING_AT_START: bool;
    /// Inputs that are no call.
    const GARBAGE_CALLS: &'static [&'static [u8]];
    /// Inputs that are no reply.
    const GARBAGE_REPLIES: &'static [&'static [u8]];
    /// A string holding the UTF-8 `bytes` as its `units` UTF-16 units (Burlap: as the element's
    /// text, it has no declared length).
    fn string_of(bytes: &[u8], units: u8) -> Vec<u8>;
}

impl ValueFormat for H2 {
    fn value_from_slice_with_limits(b: &[u8], limits: Limits) -> hessian::Result<Value> {
        hessian::h2::from_slice_with_limits(b, limits)
    }
    fn value_from_reader(b: &[u8]) -> hessian::Result<Value> {
        hessian::h2::from_reader(b)
    }
    fn call_from_slice(b: &[u8], limits: Limits) -> hessian::Result<Call> {
        hessian::h2::call_from_slice(b, limits)
    }
    fn reply_from_slice(b: &[u8], limits: Limits) -> hessian::Result<Reply> {
        hessian::h2::reply_from_slice(b, limits)
    }
    /// A fixed-length untyped list of one element (`0x79`).
    const LIST_OPEN: &'static [u8] = b"\x79";
    const LIST_CLOSE: &'static [u8] = b"";
    /// An untyped map (`H`) and the key `"a"`.
    const MAP_OPEN: &'static [u8] = b"H\x01a";
    const TRAILING_AT_START: bool = true;
    const GARBAGE_CALLS: &'static [&'static [u8]] =
        &[b"", b"H\x02\x00", b"H\x02\x00C", b"H\x02\x00C\x03add\x92\x91", b"H\x02\x00C\x91\x90", b"\x91", b"x"];
    const GARBAGE_REPLIES: &'static [&'static [u8]] =
        &[b"", b"H\x02\x00", b"H\x02\x00R", b"H\x02\x00R\x91\x91", b"H\x02\x00F\x91", b"\x91", b"x"];
    /// The compact string code (length below 32) and the bytes.
    fn string_of(bytes: &[u8], units: u8) -> Vec<u8> {
        [&[units][..], bytes].concat()
    }
}

impl ValueFormat for H1 {
    fn value_from_slice_with_limits(b: &[u8], limits: Limits) -> hessian::Result<Value> {
        hessian::h1::from_slice_with_limits(b, limits)
    }
    fn value_from_reader(b: &[u8]) -> hessian::Result<Value> {
        hessian::h1::from_reader(b)
    }
    fn call_from_slice(b: &[u8], limits: Limits) -> hessian::Result<Call> {
        hessian::h1::call_from_slice(b, limits).map(|(call, _major)| call)
    }
    fn reply_from_slice(b: &[u8], limits: Limits) -> hessian::Result<Reply> {
        hessian::h1::reply_from_slice(b, limits)
    }
    /// `V` (an untyped list of unknown length).
    const LIST_OPEN: &'static [u8] = b"V";
    const LIST_CLOSE: &'static [u8] = b"z";
    /// A map typed `""` and the key `"a"`.
    const MAP_OPEN: &'static [u8] = b"Mt\x00\x00S\x00\x01a";
    const TRAILING_AT_START: bool = true;
    const GARBAGE_CALLS: &'static [&'static [u8]] = &[
        b"",
        b"c\x01\x00",
        b"c\x01\x00I\x00\x00\x00\x01z",
        b"c\x01\x00m\x00\x02abI\x00\x00\x00\x01",
        b"c\x01\x00m\x00\x02abzz",
    ];
    const GARBAGE_REPLIES: &'static [&'static [u8]] =
        &[b"r\x01\x00", b"r\x01\x00I\x00\x00\x00\x01", b"r\x01\x00fS\x00\x04codeS\x00\x01xz", b"x"];
    /// `S`, the length in two bytes, the bytes.
    fn string_of(bytes: &[u8], units: u8) -> Vec<u8> {
        [&[b'S', 0, units][..], bytes].concat()
    }
}

/// Burlap's garbage: each input is neither a call nor a reply.
const BURLAP_GARBAGE: &[&[u8]] = &[
    b"",
    b"<burlap:call>",
    b"<burlap:call><int>1</int></burlap:call>",
    b"<burlap:call><method>m</method><int>1</int>",
    b"<burlap:reply></burlap:reply>",
    b"<burlap:reply><int>1</int><int>2</int></burlap:reply>",
    b"<burlap:reply><fault><string>code</string></fault></burlap:reply>",
    b"<int>1</int>",
];

impl ValueFormat for Burlap {
    fn value_from_slice_with_limits(b: &[u8], limits: Limits) -> hessian::Result<Value> {
        hessian::burlap::from_slice_with_limits(b, limits)
    }
    fn value_from_reader(b: &[u8]) -> hessian::Result<Value> {
        hessian::burlap::from_reader(b)
    }
    fn call_from_slice(b: &[u8], limits: Limits) -> hessian::Result<Call> {
        hessian::burlap::call_from_slice(b, limits)
    }
    fn reply_from_slice(b: &[u8], limits: Limits) -> hessian::Result<Reply> {
        hessian::burlap::reply_from_slice(b, limits)
    }
    const LIST_OPEN: &'static [u8] = b"<list>";
    const LIST_CLOSE: &'static [u8] = b"</list>";
    /// A map typed `""` and the key `"a"`.
    const MAP_OPEN: &'static [u8] = b"<map><type></type><string>a</string>";
    /// After the next element's start tag.
    const TRAILING_AT_START: bool = false;
    const GARBAGE_CALLS: &'static [&'static [u8]] = BURLAP_GARBAGE;
    const GARBAGE_REPLIES: &'static [&'static [u8]] = BURLAP_GARBAGE;
    /// `<string>`, the bytes, `</string>`.
    fn string_of(bytes: &[u8], _units: u8) -> Vec<u8> {
        [&b"<string>"[..], bytes, b"</string>"].concat()
    }
}

/// The binary formats, Hessian 2 and Hessian 1, whose values start with a one-byte code and
/// whose strings and binaries declare their lengths in bytes before them (Burlap is XML).
pub trait CodedFormat: ValueFormat {
    /// The bytes that start no value.
    fn unknown_codes() -> Vec<u8>;
    /// `code` where a value starts, followed by what a value of its kind would need.
    fn code_alone(code: u8) -> Vec<u8>;
}

impl CodedFormat for H2 {
    /// Some of the codes Hessian 2 leaves unassigned or uses only inside other values.
    fn unknown_codes() -> Vec<u8> {
        vec![0x40, 0x45, 0x47, 0x50, 0x5a]
    }
    fn code_alone(code: u8) -> Vec<u8> {
        vec![code]
    }
}

impl CodedFormat for H1 {
    /// Every code but those of the values (`N T F I L D d S s X x B b V M R r`).
    fn unknown_codes() -> Vec<u8> {
        (0u8..=255).filter(|c| !b"NTFILDdSsXxBbVMRr".contains(c)).collect()
    }
    /// Followed by four zero bytes, as long as an int.
    fn code_alone(code: u8) -> Vec<u8> {
        vec![code, 0, 0, 0, 0]
    }
}

/// The error of decoding the bad `bytes`, which must be inside them; the streaming reader must
/// fail too (it cannot see the end in advance), unless what is wrong is bytes after the value.
pub fn err<F: ValueFormat>(bytes: &[u8]) -> Error {
    let e = match F::value_from_slice(bytes) {
        Ok(v) => panic!("{}: decoded {v} from {}", F::NAME, F::show(bytes)),
        Err(e) => e,
    };
    assert!(e.offset() <= bytes.len() as u64, "{}: offset {} past {} ({e})", F::NAME, e.offset(), F::show(bytes));
    assert!(
        F::value_from_reader(bytes).is_err() || matches!(e.kind(), ErrorKind::TrailingBytes),
        "{}: a stream decoded {}",
        F::NAME,
        F::show(bytes)
    );
    e
}

/// The catalogue cases whose Burlap encodings are small enough to cut at every byte.
pub fn small_cases() -> Vec<(String, Value)> {
    super::cases().into_iter().filter(|(_, v)| hessian::burlap::to_vec(v).is_ok_and(|b| b.len() <= 3000)).collect()
}
