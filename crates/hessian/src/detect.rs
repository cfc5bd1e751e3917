//! Which member of the family an input is written in, told from its first bytes.
//!
//! One rule set serves the RPC server (which must pick the protocol of a request body, possibly
//! truncated) and the `hessian` tool (which reads whole files without `--format`):
//!
//! | input starts with | candidates, most likely first |
//! |---|---|
//! | `<` after an optional UTF-8 BOM and XML whitespace | Burlap, then Hessian 2 |
//! | `H` (the message header `H 02 00`, or an untyped map) | Hessian 2 |
//! | `c` (a call: `c 01 00`, the hybrid `c 02 00`, `c 00 01`) | Hessian 1 |
//! | `r` then two bytes in 0..=2 (a reply `r 01 00`), or `r t` (a remote) | Hessian 1 |
//! | any other byte that starts a value in both grammars (`N T F I L D S s X x B V M r`) | Hessian 2, then Hessian 1 |
//! | a byte that starts a value in one grammar only | that one |
//! | nothing, or a byte that starts no value in either | none |
//!
//! A Hessian 2 value cannot *start* a self-contained input with an object instance (`O`,
//! `0x60..=0x6f`: no class is defined yet), a reference (`Q`), the end marker `Z` or a reserved
//! code (`0x40 E G P`); a Hessian 1 value cannot start with a reference (`R`). The formats of the
//! family overlap (`I 00 00 00 01` is the int 1 in both binary formats, and every byte starts some
//! Hessian 2 value), so when there are several candidates the caller decodes with each in turn;
//! for most inputs only one of them reads the whole input.

use crate::h1::codes as h1;
use crate::h2::codes as h2;

pub use crate::envelope::Format;

const H2: &[Format] = &[Format::Hessian2];
const H1: &[Format] = &[Format::Hessian1];
const H2_H1: &[Format] = &[Format::Hessian2, Format::Hessian1];
const BURLAP_H2: &[Format] = &[Format::Burlap, Format::Hessian2];

/// Whether `data` starts with a Hessian 1 call or reply header: `c` or `r` followed by two
/// version bytes in 0..=2 (`c 01 00`, the hybrid `c 02 00`, `startCall()`'s `c 00 01`,
/// `r 01 00`). A bare remote starts `r t` instead.
pub fn is_hessian1_envelope(data: &[u8]) -> bool {
    matches!(data, [h1::BC_CALL | h1::BC_REPLY, 0..=2, 0..=2, ..])
}

/// Whether `data` starts like XML: `<` after an optional UTF-8 byte order mark and XML whitespace.
pub fn is_xml(data: &[u8]) -> bool {
    let data = data.strip_prefix(b"\xef\xbb\xbf").unwrap_or(data);
    data.iter().find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n')) == Some(&b'<')
}

/// Whether a self-contained Hessian 2 value (or stream of values) can start with `b`.
fn h2_value_start(b: u8) -> bool {
    !matches!(b, 0x40 | b'E' | b'G' | b'P' | h2::BC_END | h2::BC_OBJECT | h2::BC_REF | 0x60..=0x6f)
}

/// Whether a Hessian 1 value can start with `b`.
fn h1_value_start(b: u8) -> bool {
    use h1::*;
    matches!(
        b,
        BC_NULL
            | BC_TRUE
            | BC_FALSE
            | BC_INT
            | BC_LONG
            | BC_DOUBLE
            | BC_DATE
            | BC_STRING
            | BC_STRING_CHUNK
            | BC_XML
            | BC_XML_CHUNK
            | BC_BINARY
            | BC_BINARY_CHUNK
            | BC_LIST
            | BC_MAP
            | BC_REMOTE
    )
}

/// The formats `data` may be written in, most likely first (see the module documentation);
/// empty when it is empty or starts with a byte no format starts with.
pub fn candidates(data: &[u8]) -> &'static [Format] {
    let Some(&first) = data.first() else { return &[] };
    if is_xml(data) {
        return BURLAP_H2;
    }
    match first {
        h2::BC_VERSION => H2,
        h1::BC_CALL => H1,
        h1::BC_REPLY if is_hessian1_envelope(data) || data.get(1) == Some(&h1::BC_TYPE) => H1,
        b => match (h2_value_start(b), h1_value_start(b)) {
            (true, true) => H2_H1,
            (true, false) => H2,
            (false, true) => H1,
            (false, false) => &[],
        },
    }
}

/// The most likely format of `data` (the first of [`candidates`]), or `None`.
pub fn detect(data: &[u8]) -> Option<Format> {
    candidates(data).first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Format::*;

    #[test]
    fn envelopes_and_values() {
        assert_eq!(candidates(b"H\x02\x00C\x03add\x91"), [Hessian2]);
        assert_eq!(candidates(b"H"), [Hessian2]);
        assert_eq!(candidates(b"c\x01\x00m"), [Hessian1]);
        assert_eq!(candidates(b"c\x02\x00m"), [Hessian1]);
        assert_eq!(candidates(b"c"), [Hessian1]);
        assert_eq!(candidates(b"r\x01\x00Nz"), [Hessian1]);
        assert_eq!(candidates(b"rt\x00\x01X"), [Hessian1]);
        assert_eq!(candidates(b"r\x01a\x90\x91"), [Hessian2, Hessian1]);
        assert_eq!(candidates(b"<burlap:call>"), [Burlap, Hessian2]);
        assert_eq!(candidates(b"\xef\xbb\xbf \r\n\t<?xml version=\"1.0\"?><int>1</int>"), [Burlap, Hessian2]);
        assert_eq!(candidates(b"I\x00\x00\x00\x01"), [Hessian2, Hessian1]);
        assert_eq!(candidates(b"\x91"), [Hessian2]);
        assert_eq!(candidates(b"C\x05Money"), [Hessian2]);
        assert_eq!(candidates(b"d\x00\x00\x00\x00\x00\x00\x00\x00"), [Hessian1]);
        assert_eq!(candidates(b"GET / HTTP/1.0"), []);
        assert_eq!(candidates(b"Q\x90"), []);
        assert_eq!(candidates(b""), []);
        assert_eq!(detect(b" \n<burlap:reply>"), Some(Burlap));
        assert_eq!(detect(b"Z"), None);
    }

    #[test]
    fn every_h1_code_is_an_h1_start() {
        for v in [
            crate::Value::Null,
            crate::Value::Int(1),
            crate::Value::Date(0),
            crate::Value::Binary(vec![1]),
            crate::Value::string("x"),
        ] {
            let bytes = crate::h1::to_vec(&v).unwrap();
            assert!(candidates(&bytes).contains(&Hessian1), "{v:?}");
            let bytes = crate::h2::to_vec(&v).unwrap();
            assert!(candidates(&bytes).contains(&Hessian2), "{v:?}");
        }
    }
}
