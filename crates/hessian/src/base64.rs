//! Base64 (RFC 4648, standard alphabet), the one codec of the crate: typed JSON's binary values
//! (strict: padding optional, non-zero unused bits refused), Burlap's `<base64>` elements (as
//! `BurlapOutput` lays them out and `BurlapInput` reads them), and HTTP basic authentication.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// How [`decode`] judges the end of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    /// Padding optional, but the unused bits of the last group must be zero and at most two
    /// `=` (typed JSON).
    Canonical,
    /// What Java's `BurlapInput` accepts: a last group of two or three characters, padded or
    /// not, unused bits ignored.
    Lenient,
}

/// Why base64 text does not decode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Base64Error {
    /// A byte outside the alphabet, padding and ASCII whitespace.
    #[error("unexpected character at position {0}")]
    Character(usize),
    /// Data after the padding.
    #[error("data after padding")]
    AfterPadding,
    /// A last group that whole bytes cannot have made.
    #[error("truncated or non-canonical final group")]
    FinalGroup,
}

fn group(n: u32, len: usize, out: &mut Vec<u8>) {
    for i in 0..4 {
        out.push(if i <= len { ALPHABET[(n >> (18 - 6 * i) & 0x3f) as usize] } else { b'=' });
    }
}

/// Appends the padded base64 of `data` to `out`, with a newline before every group that starts
/// at a multiple of `line_bytes` input bytes (but the first and a partial last one), when given: `BurlapOutput` breaks
/// its lines every 192 bytes.
pub fn encode_into(data: &[u8], line_bytes: Option<usize>, out: &mut Vec<u8>) {
    out.reserve(data.len().div_ceil(3) * 4);
    for (k, chunk) in data.chunks(3).enumerate() {
        // (a last, partial group gets no line break, as in `BurlapOutput`)
        if let Some(l) = line_bytes {
            if k > 0 && (k * 3) % l == 0 && chunk.len() == 3 {
                out.push(b'\n');
            }
        }
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        group(n, chunk.len(), out);
    }
}

/// The padded base64 of `data`.
pub fn encode(data: &[u8]) -> String {
    let mut out = Vec::new();
    encode_into(data, None, &mut out);
    // the alphabet, `=` and `\n` are ASCII
    String::from_utf8(out).unwrap_or_default()
}

/// Decodes base64 text, ignoring ASCII whitespace.
pub fn decode(text: &[u8], strictness: Strictness) -> Result<Vec<u8>, Base64Error> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits, mut n, mut pad) = (0u32, 0u32, 0u32, 0usize);
    for (i, &c) in text.iter().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad += 1;
                continue;
            }
            c if c.is_ascii_whitespace() => continue,
            _ => return Err(Base64Error::Character(i)),
        };
        if pad > 0 {
            return Err(Base64Error::AfterPadding);
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        n = (n + 1) % 4;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    let ok = match strictness {
        // 6 leftover bits cannot come from whole bytes; leftover bits must be zero
        Strictness::Canonical => bits < 6 && acc == 0 && pad <= 2,
        Strictness::Lenient => matches!((n, pad), (0, 0) | (2, 0) | (2, 2) | (3, 0) | (3, 1)),
    };
    if ok {
        Ok(out)
    } else {
        Err(Base64Error::FinalGroup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors_and_the_two_strictnesses() {
        for (raw, enc) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE=")]
        {
            assert_eq!(encode(raw.as_bytes()), enc);
            for s in [Strictness::Canonical, Strictness::Lenient] {
                assert_eq!(decode(enc.as_bytes(), s).unwrap(), raw.as_bytes());
            }
        }
        assert!(decode(b"Zh==", Strictness::Canonical).is_err(), "non-zero unused bits");
        assert_eq!(decode(b"Zh==", Strictness::Lenient).unwrap(), b"f");
        assert!(decode(b"Zg=", Strictness::Lenient).is_err());
        assert!(decode(b"Zg==x", Strictness::Canonical).is_err());
        assert!(decode(b"Z", Strictness::Canonical).is_err() && decode(b"Z", Strictness::Lenient).is_err());
        let all: Vec<u8> = (0..=255).collect();
        let mut lines = Vec::new();
        encode_into(&all, Some(192), &mut lines);
        assert_eq!(lines.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(decode(&lines, Strictness::Lenient).unwrap(), all);
    }
}
