//! Java's `Double.toString` as Java 8 to 18 compute it (`sun.misc.FloatingDecimal`), re-derived
//! step by step so that Burlap's `<double>` text is byte-identical to `BurlapOutput` on Java 17.
//!
//! The algorithm is Steele & White's digit generation with an estimated decimal exponent and a
//! symmetric stopping test. Its known quirks, all reproduced here: integers up to 2^62 print all
//! their significant digits (`4.6339927102834509E17`), subnormals can get a superfluous digit
//! (`4.9E-324`), ties at the last digit go to the even digit, and the "int", "long" and
//! "big integer" arithmetic paths use slightly different stopping tests (`>` versus `>=`).
//! Every output reads back as the same double; only the text differs from a shortest-digits
//! formatter.

use std::cmp::Ordering;

const EXP_SHIFT: i32 = 52;
const FRACT_HOB: u64 = 1 << 52;
const SIGNIF_MASK: u64 = FRACT_HOB - 1;
const EXP_ONE: u64 = 0x3ff0_0000_0000_0000;
const MAX_SMALL_BIN_EXP: i32 = 62;
const MIN_SMALL_BIN_EXP: i32 = -(63 / 3);

/// Approximately ceil(log2(5^i)).
const N_5_BITS: [i32; 27] =
    [0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61];

/// insignificantDigits(1 << i).
const INSIGNIFICANT_DIGITS_NUMBER: [i32; 64] = [
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10,
    11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16, 17, 17, 17, 18, 18, 18, 19,
];

// The bit-count guards of `dtoa` keep these in range (as Java's table lookups need); wrapping
// keeps any mistake from becoming a panic.
fn pow5_i32(n: i32) -> i32 {
    5i32.wrapping_pow(n as u32)
}

fn pow5_i64(n: i32) -> i64 {
    5i64.wrapping_pow(n as u32)
}

/// A minimal unsigned big integer (little-endian 32-bit limbs) for the general path.
#[derive(Clone, Debug)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in self.0.iter_mut() {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow5(&mut self, mut n: i32) {
        while n >= 13 {
            self.mul_small(1_220_703_125); // 5^13
            n -= 13;
        }
        if n > 0 {
            self.mul_small(5u32.pow(n as u32));
        }
    }

    fn shl(&mut self, n: i32) {
        if n <= 0 || self.0.is_empty() {
            return;
        }
        let words = (n / 32) as usize;
        let bits = n % 32;
        if bits > 0 {
            let mut carry = 0u32;
            for limb in self.0.iter_mut() {
                let v = (*limb << bits) | carry;
                carry = *limb >> (32 - bits);
                *limb = v;
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        if words > 0 {
            self.0.splice(0..0, std::iter::repeat(0).take(words));
        }
    }

    /// 5^p5 * 2^p2 times `v`.
    fn pow52(v: u64, p5: i32, p2: i32) -> Big {
        let mut b = Big::from_u64(v);
        b.mul_pow5(p5);
        b.shl(p2);
        b
    }

    fn cmp(&self, o: &Big) -> Ordering {
        if self.0.len() != o.0.len() {
            return self.0.len().cmp(&o.0.len());
        }
        for (a, b) in self.0.iter().rev().zip(o.0.iter().rev()) {
            match a.cmp(b) {
                Ordering::Equal => continue,
                other => return other,
            }
        }
        Ordering::Equal
    }

    fn add(&self, o: &Big) -> Big {
        let n = self.0.len().max(o.0.len());
        let mut out = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let v = u64::from(*self.0.get(i).unwrap_or(&0)) + u64::from(*o.0.get(i).unwrap_or(&0)) + carry;
            out.push(v as u32);
            carry = v >> 32;
        }
        if carry != 0 {
            out.push(carry as u32);
        }
        Big(out)
    }

    /// self -= o, where self >= o.
    fn sub_assign(&mut self, o: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let v = i64::from(self.0[i]) - i64::from(*o.0.get(i).unwrap_or(&0)) - borrow;
            if v < 0 {
                self.0[i] = (v + (1 << 32)) as u32;
                borrow = 1;
            } else {
                self.0[i] = v as u32;
                borrow = 0;
            }
        }
        self.trim();
    }

    /// `FDBigInteger.quoRemIteration`: q = self / s (a single digit), self = 10 * (self % s).
    fn quo_rem_iteration(&mut self, s: &Big) -> i32 {
        let mut q = 0;
        while self.cmp(s) != Ordering::Less {
            self.sub_assign(s);
            q += 1;
        }
        self.mul_small(10);
        self.trim();
        q
    }
}

/// The digits and decimal exponent `FloatingDecimal.BinaryToASCIIBuffer` computes.
struct Digits {
    digits: Vec<u8>,
    /// Position of the decimal point relative to the first digit (value = 0.d1d2… × 10^dec_exp).
    dec_exp: i32,
}

impl Digits {
    fn roundup(&mut self) {
        let mut i = self.digits.len() - 1;
        let mut q = self.digits[i];
        if q == b'9' {
            while q == b'9' && i > 0 {
                self.digits[i] = b'0';
                i -= 1;
                q = self.digits[i];
            }
            if q == b'9' {
                self.dec_exp += 1;
                self.digits[0] = b'1';
                return;
            }
        }
        self.digits[i] = q + 1;
    }
}

/// `estimateDecExp`, with Java's own (rounded) constants.
#[allow(clippy::approx_constant)]
fn estimate_dec_exp(fract_bits: u64, bin_exp: i32) -> i32 {
    let d2 = f64::from_bits(EXP_ONE | (fract_bits & SIGNIF_MASK));
    let d = (d2 - 1.5) * 0.289529654 + 0.176091259 + f64::from(bin_exp) * 0.301029995663981;
    let bits = d.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let negative = bits >> 63 != 0;
    if (0..52).contains(&exponent) {
        let mask = SIGNIF_MASK >> exponent;
        let r = (((bits & SIGNIF_MASK) | FRACT_HOB) >> (EXP_SHIFT - exponent)) as i32;
        if negative {
            if mask & bits == 0 {
                -r
            } else {
                -r - 1
            }
        } else {
            r
        }
    } else if exponent < 0 {
        if bits & !(1u64 << 63) == 0 {
            0
        } else if negative {
            -1
        } else {
            0
        }
    } else {
        d as i32
    }
}

fn develop_long_digits(mut dec_exp: i32, mut lvalue: i64, insignificant: i32) -> Digits {
    if insignificant != 0 {
        let pow10 = pow5_i64(insignificant).wrapping_shl(insignificant as u32);
        let residue = lvalue % pow10;
        lvalue /= pow10;
        dec_exp += insignificant;
        if residue >= (pow10 >> 1) {
            lvalue += 1;
        }
    }
    let mut rev = Vec::with_capacity(20);
    let mut c = lvalue % 10;
    lvalue /= 10;
    while c == 0 {
        dec_exp += 1;
        c = lvalue % 10;
        lvalue /= 10;
    }
    while lvalue != 0 {
        rev.push(b'0' + c as u8);
        dec_exp += 1;
        c = lvalue % 10;
        lvalue /= 10;
    }
    rev.push(b'0' + c as u8);
    rev.reverse();
    Digits { digits: rev, dec_exp: dec_exp + 1 }
}

fn dtoa(bin_exp: i32, fract_bits: u64, n_significant_bits: i32) -> Digits {
    let tail_zeros = fract_bits.trailing_zeros() as i32;
    let n_fract_bits = EXP_SHIFT + 1 - tail_zeros;
    let n_tiny_bits = (n_fract_bits - bin_exp - 1).max(0);
    if (MIN_SMALL_BIN_EXP..=MAX_SMALL_BIN_EXP).contains(&bin_exp)
        && n_tiny_bits < 27
        && n_fract_bits + N_5_BITS[n_tiny_bits as usize] < 64
        && n_tiny_bits == 0
    {
        let insignificant = if bin_exp > n_significant_bits {
            let p2 = bin_exp - n_significant_bits - 1;
            if p2 > 1 && p2 < 64 {
                INSIGNIFICANT_DIGITS_NUMBER[p2 as usize]
            } else {
                0
            }
        } else {
            0
        };
        let v = if bin_exp >= EXP_SHIFT {
            fract_bits << (bin_exp - EXP_SHIFT)
        } else {
            fract_bits >> (EXP_SHIFT - bin_exp)
        };
        return develop_long_digits(0, v as i64, insignificant);
    }
    let mut dec_exp = estimate_dec_exp(fract_bits, bin_exp);
    let b5 = (-dec_exp).max(0);
    let mut b2 = b5 + n_tiny_bits + bin_exp;
    let s5 = dec_exp.max(0);
    let mut s2 = s5 + n_tiny_bits;
    let m5 = b5;
    let mut m2 = b2 - n_significant_bits;
    let fract_bits = fract_bits >> tail_zeros;
    b2 -= n_fract_bits - 1;
    let common2 = b2.min(s2);
    b2 -= common2;
    s2 -= common2;
    m2 -= common2;
    if n_fract_bits == 1 {
        m2 -= 1;
    }
    if m2 < 0 {
        b2 -= m2;
        s2 -= m2;
        m2 = 0;
    }
    let b_bits = n_fract_bits + b2 + if (b5 as usize) < N_5_BITS.len() { N_5_BITS[b5 as usize] } else { b5 * 3 };
    let ten_s_bits =
        s2 + 1 + if ((s5 + 1) as usize) < N_5_BITS.len() { N_5_BITS[(s5 + 1) as usize] } else { (s5 + 1) * 3 };
    let mut digits = Vec::with_capacity(20);
    let (low, high, low_digit_difference): (bool, bool, i64);
    let e_form = |dec_exp: i32| !(-3..8).contains(&dec_exp);
    if b_bits < 64 && ten_s_bits < 64 {
        if b_bits < 32 && ten_s_bits < 32 {
            // Java int arithmetic (wrapping, as in Java).
            let mut b: i32 = (fract_bits as i32).wrapping_mul(pow5_i32(b5)).wrapping_shl(b2 as u32);
            let s: i32 = pow5_i32(s5).wrapping_shl(s2 as u32);
            let mut m: i32 = pow5_i32(m5).wrapping_shl(m2 as u32);
            let tens = s.wrapping_mul(10);
            let mut q = b / s;
            b = 10i32.wrapping_mul(b % s);
            m = m.wrapping_mul(10);
            let mut lo = b < m;
            let mut hi = b.wrapping_add(m) > tens;
            if q == 0 && !hi {
                dec_exp -= 1;
            } else {
                digits.push(b'0' + q as u8);
            }
            if e_form(dec_exp) {
                hi = false;
                lo = false;
            }
            while !lo && !hi {
                q = b / s;
                b = 10i32.wrapping_mul(b % s);
                m = m.wrapping_mul(10);
                if m > 0 {
                    lo = b < m;
                    hi = b.wrapping_add(m) > tens;
                } else {
                    lo = true;
                    hi = true;
                }
                digits.push(b'0' + q as u8);
            }
            low = lo;
            high = hi;
            low_digit_difference = i64::from(b.wrapping_shl(1).wrapping_sub(tens));
        } else {
            let mut b: i64 = (fract_bits as i64).wrapping_mul(pow5_i64(b5)).wrapping_shl(b2 as u32);
            let s: i64 = pow5_i64(s5).wrapping_shl(s2 as u32);
            let mut m: i64 = pow5_i64(m5).wrapping_shl(m2 as u32);
            let tens = s.wrapping_mul(10);
            let mut q = (b / s) as i32;
            b = 10i64.wrapping_mul(b % s);
            m = m.wrapping_mul(10);
            let mut lo = b < m;
            let mut hi = b.wrapping_add(m) > tens;
            if q == 0 && !hi {
                dec_exp -= 1;
            } else {
                digits.push(b'0' + q as u8);
            }
            if e_form(dec_exp) {
                hi = false;
                lo = false;
            }
            while !lo && !hi {
                q = (b / s) as i32;
                b = 10i64.wrapping_mul(b % s);
                m = m.wrapping_mul(10);
                if m > 0 {
                    lo = b < m;
                    hi = b.wrapping_add(m) > tens;
                } else {
                    lo = true;
                    hi = true;
                }
                digits.push(b'0' + q as u8);
            }
            low = lo;
            high = hi;
            low_digit_difference = b.wrapping_shl(1).wrapping_sub(tens);
        }
    } else {
        let s = Big::pow52(1, s5, s2);
        let mut b = Big::pow52(fract_bits, b5, b2);
        let mut m = Big::pow52(1, m5 + 1, m2 + 1);
        let ten_s = Big::pow52(1, s5 + 1, s2 + 1);
        let mut q = b.quo_rem_iteration(&s);
        let mut lo = b.cmp(&m) == Ordering::Less;
        let mut hi = ten_s.cmp(&b.add(&m)) != Ordering::Greater;
        if q == 0 && !hi {
            dec_exp -= 1;
        } else {
            digits.push(b'0' + q as u8);
        }
        if e_form(dec_exp) {
            hi = false;
            lo = false;
        }
        while !lo && !hi {
            q = b.quo_rem_iteration(&s);
            m.mul_small(10);
            lo = b.cmp(&m) == Ordering::Less;
            hi = ten_s.cmp(&b.add(&m)) != Ordering::Greater;
            digits.push(b'0' + q as u8);
        }
        low = lo;
        high = hi;
        low_digit_difference = if hi && lo {
            b.shl(1);
            match b.cmp(&ten_s) {
                Ordering::Less => -1,
                Ordering::Equal => 0,
                Ordering::Greater => 1,
            }
        } else {
            0
        };
    }
    let mut out = Digits { digits, dec_exp: dec_exp + 1 };
    if high {
        if low {
            if low_digit_difference == 0 {
                if out.digits.last().is_some_and(|d| d & 1 != 0) {
                    out.roundup();
                }
            } else if low_digit_difference > 0 {
                out.roundup();
            }
        } else {
            out.roundup();
        }
    }
    out
}

/// `Double.toString(d)` of Java 8 to 18.
pub fn java_double_to_string(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let bits = d.to_bits();
    let negative = bits >> 63 != 0;
    let mut fract_bits = bits & SIGNIF_MASK;
    let mut bin_exp = ((bits >> 52) & 0x7ff) as i32;
    let n_significant_bits;
    if bin_exp == 0 {
        if fract_bits == 0 {
            return if negative { "-0.0".into() } else { "0.0".into() };
        }
        let leading = fract_bits.leading_zeros() as i32;
        let shift = leading - (63 - EXP_SHIFT);
        fract_bits <<= shift;
        bin_exp = 1 - shift;
        n_significant_bits = 64 - leading;
    } else {
        fract_bits |= FRACT_HOB;
        n_significant_bits = EXP_SHIFT + 1;
    }
    bin_exp -= 1023;
    let Digits { digits, dec_exp } = dtoa(bin_exp, fract_bits, n_significant_bits);
    if digits.is_empty() {
        // Not reachable for any double Java can format; never panic if it were.
        return format!("{d:?}");
    }
    format(negative, &digits, dec_exp)
}

/// `BinaryToASCIIBuffer.getChars`: F-form for decimal exponents 1..7 and -2..0, else E-form.
fn format(negative: bool, digits: &[u8], dec_exp: i32) -> String {
    let mut out = String::with_capacity(26);
    if negative {
        out.push('-');
    }
    let n = digits.len() as i32;
    let text = |r: std::ops::Range<usize>| std::str::from_utf8(&digits[r]).unwrap_or("");
    if dec_exp > 0 && dec_exp < 8 {
        let char_len = n.min(dec_exp);
        out.push_str(text(0..char_len as usize));
        if char_len < dec_exp {
            out.extend(std::iter::repeat('0').take((dec_exp - char_len) as usize));
            out.push_str(".0");
        } else {
            out.push('.');
            if char_len < n {
                out.push_str(text(char_len as usize..n as usize));
            } else {
                out.push('0');
            }
        }
    } else if dec_exp <= 0 && dec_exp > -3 {
        out.push_str("0.");
        out.extend(std::iter::repeat('0').take((-dec_exp) as usize));
        out.push_str(text(0..n as usize));
    } else {
        out.push_str(text(0..1));
        out.push('.');
        if n > 1 {
            out.push_str(text(1..n as usize));
        } else {
            out.push('0');
        }
        out.push('E');
        out.push_str(&(dec_exp - 1).to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::java_double_to_string as s;

    #[test]
    fn java_17_outputs() {
        // Values checked against Java 17's Double.toString.
        assert_eq!(s(4.9e-324), "4.9E-324");
        assert_eq!(s(f64::from_bits(0x4399b94cba2b4724)), "4.6339927102834509E17");
        assert_eq!(s(f64::from_bits(0x3fed855000000000)), "0.9225234985351562");
        assert_eq!(s(1.0e7), "1.0E7");
        assert_eq!(s(9999999.0), "9999999.0");
        assert_eq!(s(0.001), "0.001");
        assert_eq!(s(9.999e-4), "9.999E-4");
        assert_eq!(s(100.0), "100.0");
        assert_eq!(s(-1e-300), "-1.0E-300");
        assert_eq!(s(f64::MAX), "1.7976931348623157E308");
        assert_eq!(s(123456789.125), "1.23456789125E8");
        // The best-known anomaly of the pre-JDK 19 algorithm.
        assert_eq!(s(2e23), "1.9999999999999998E23");
    }
}
