//! Writing strings the way Java's Hessian and Burlap writers print them: one 1-3 byte sequence
//! per UTF-16 code unit, so a character outside the BMP becomes two 3-byte surrogate sequences
//! ("CESU-8"); and splitting strings into chunks measured in UTF-16 units.

/// Number of UTF-16 code units of `s` (what Java's `String.length()` returns).
#[inline]
pub(crate) fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.chars().map(char::len_utf16).sum()
}

/// Appends one UTF-16 unit as Java's `printString` does.
#[inline]
pub(crate) fn push_unit(out: &mut Vec<u8>, c: u32) {
    if c < 0x80 {
        out.push(c as u8);
    } else if c < 0x800 {
        out.extend_from_slice(&[(0xc0 + ((c >> 6) & 0x1f)) as u8, (0x80 + (c & 0x3f)) as u8]);
    } else {
        out.extend_from_slice(&[
            (0xe0 + ((c >> 12) & 0x0f)) as u8,
            (0x80 + ((c >> 6) & 0x3f)) as u8,
            (0x80 + (c & 0x3f)) as u8,
        ]);
    }
}

/// Appends one character as Java prints it (supplementary characters as two surrogates).
#[inline]
pub(crate) fn push_char(out: &mut Vec<u8>, ch: char) {
    let c = u32::from(ch);
    if c >= 0x10000 {
        let v = c - 0x10000;
        push_unit(out, 0xd800 + (v >> 10));
        push_unit(out, 0xdc00 + (v & 0x3ff));
    } else {
        push_unit(out, c);
    }
}

/// Appends `s` as Java's `printString` does (ASCII in line: every string and name of Hessian
/// 1 and Burlap passes here, and the compiler once kept it all out of line).
#[inline(always)]
pub(crate) fn push_str(out: &mut Vec<u8>, s: &str) {
    if s.is_ascii() {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    push_chars(out, s);
}

/// [`push_str`] past ASCII: character by character.
#[inline(never)]
fn push_chars(out: &mut Vec<u8>, s: &str) {
    for ch in s.chars() {
        push_char(out, ch);
    }
}

/// Splits `s` into Java's string chunks: while more than `max` UTF-16 units remain, a chunk of
/// `max` units (one fewer when that would split a surrogate pair); then the final chunk.
/// Returns `(piece, units)` pairs; the last one is the final chunk.
pub(crate) fn chunks(s: &str, max: usize) -> Vec<(&str, usize)> {
    let total = utf16_len(s);
    if total <= max {
        return vec![(s, total)];
    }
    let mut out = Vec::new();
    let mut rest = s;
    let mut left = total;
    while left > max {
        let mut units = 0usize;
        let mut end = 0usize;
        for (i, ch) in rest.char_indices() {
            let u = ch.len_utf16();
            if units + u > max {
                end = i;
                break;
            }
            units += u;
            end = i + ch.len_utf8();
        }
        let (head, tail) = rest.split_at(end);
        out.push((head, units));
        rest = tail;
        left -= units;
    }
    out.push((rest, left));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supplementary_as_surrogates() {
        let mut v = Vec::new();
        push_str(&mut v, "a\u{1f600}");
        assert_eq!(v, [b'a', 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]);
        assert_eq!(utf16_len("a\u{1f600}"), 3);
    }

    #[test]
    fn chunking_avoids_splitting_pairs() {
        let s = format!("{}\u{1f600}{}", "a".repeat(0x7fff), "b".repeat(10));
        let c = chunks(&s, 0x8000);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].1, 0x7fff);
        assert_eq!(c[1].1, 12);
        let exact = "x".repeat(0x8000);
        assert_eq!(chunks(&exact, 0x8000).len(), 1);
    }
}
