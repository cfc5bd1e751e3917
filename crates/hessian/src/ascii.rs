//! Short ASCII strings copied and checked in one pass (the common case of Java field values):
//! shared by the Hessian 2 encoder (string bodies) and the readers (owned `String`s).

/// The longest string [`copy_short`] takes.
pub(crate) const SHORT: usize = 64;

/// Copies `len <= SHORT` bytes from `s` to `d` and returns whether they were all ASCII: from
/// 16 bytes on as four 16-byte loads and stores at offsets chosen so that they cover the string
/// (overlapping as needed), without branches on the length.
///
/// # Safety
/// `s` must be readable and `d` writable for `len` bytes, and `len <= SHORT`.
#[inline(always)]
pub(crate) unsafe fn copy_short(s: *const u8, d: *mut u8, len: usize) -> bool {
    debug_assert!(len <= SHORT);
    // SAFETY: per the contract, forwarded.
    unsafe {
        if len >= 16 {
            copy16_ascii(s, d, len)
        } else {
            copy_small_ascii(s, d, len)
        }
    }
}

/// Copies `len < 16` bytes and returns whether they were all ASCII.
///
/// # Safety
/// `s` must be readable and `d` writable for `len` bytes.
#[inline(always)]
unsafe fn copy_small_ascii(s: *const u8, d: *mut u8, len: usize) -> bool {
    // SAFETY: offsets stay within `0..len`, per the contract.
    unsafe {
        if len >= 8 {
            let a = std::ptr::read_unaligned(s as *const u64);
            let b = std::ptr::read_unaligned(s.add(len - 8) as *const u64);
            std::ptr::write_unaligned(d as *mut u64, a);
            std::ptr::write_unaligned(d.add(len - 8) as *mut u64, b);
            return (a | b) & 0x8080_8080_8080_8080 == 0;
        }
        let mut acc = 0u8;
        for i in 0..len {
            let c = *s.add(i);
            *d.add(i) = c;
            acc |= c;
        }
        acc < 0x80
    }
}

/// Copies `16 <= len <= 64` bytes from `s` to `d` as four 16-byte blocks (at 0, up to 16, from
/// `len - 32` and `len - 16`, overlapping when the string is shorter than 64) and returns whether
/// they were all ASCII.
///
/// # Safety
/// `s` must be readable and `d` writable for `len` bytes, and `16 <= len <= 64`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn copy16_ascii(s: *const u8, d: *mut u8, len: usize) -> bool {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_storeu_si128};
    let (o1, o2, o3) = (16.min(len - 16), len.saturating_sub(32), len - 16);
    // SAFETY: every block lies within `0..len` (offsets `<= len - 16`), per the contract; SSE2
    // is part of the x86_64 baseline.
    unsafe {
        let (a, b, c, e) = (
            _mm_loadu_si128(s as *const __m128i),
            _mm_loadu_si128(s.add(o1) as *const __m128i),
            _mm_loadu_si128(s.add(o2) as *const __m128i),
            _mm_loadu_si128(s.add(o3) as *const __m128i),
        );
        _mm_storeu_si128(d as *mut __m128i, a);
        _mm_storeu_si128(d.add(o1) as *mut __m128i, b);
        _mm_storeu_si128(d.add(o2) as *mut __m128i, c);
        _mm_storeu_si128(d.add(o3) as *mut __m128i, e);
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, e))) == 0
    }
}

/// Portable version of the block copy: 8-byte words, the last one overlapping.
///
/// # Safety
/// `s` must be readable and `d` writable for `len` bytes, and `16 <= len <= 64`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn copy16_ascii(s: *const u8, d: *mut u8, len: usize) -> bool {
    let mut acc = 0u64;
    let mut i = 0;
    // SAFETY: offsets stay within `0..len`, per the contract.
    unsafe {
        while i + 8 <= len {
            let v = std::ptr::read_unaligned(s.add(i) as *const u64);
            std::ptr::write_unaligned(d.add(i) as *mut u64, v);
            acc |= v;
            i += 8;
        }
        let v = std::ptr::read_unaligned(s.add(len - 8) as *const u64);
        std::ptr::write_unaligned(d.add(len - 8) as *mut u64, v);
        acc |= v;
    }
    acc & 0x8080_8080_8080_8080 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to `SHORT`, with a non-ASCII byte at every position or none: the copy is
    /// exact and the verdict is right (the blocks overlap differently for each length).
    #[test]
    fn copy_short_copies_exactly_and_finds_every_non_ascii_byte() {
        for len in 0..=SHORT {
            let src: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let mut dst = vec![0u8; len];
            // SAFETY: both buffers hold `len <= SHORT` bytes.
            assert!(unsafe { copy_short(src.as_ptr(), dst.as_mut_ptr(), len) }, "len {len}");
            assert_eq!(dst, src);
            for at in 0..len {
                let mut bad = src.clone();
                bad[at] = 0x80 | (at as u8);
                // SAFETY: as above.
                assert!(!unsafe { copy_short(bad.as_ptr(), dst.as_mut_ptr(), len) }, "len {len} at {at}");
            }
        }
    }

    #[test]
    fn ascii_string_takes_ascii_only_at_every_length() {
        for len in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 100] {
            let s = "x".repeat(len);
            assert_eq!(crate::read::ascii_string(s.as_bytes()).as_deref(), Some(s.as_str()));
            let mut t = s.clone();
            if len > 0 {
                t.replace_range(len - 1.., "é");
                assert_eq!(crate::read::ascii_string(t.as_bytes()), None);
            }
        }
    }
}
