//! The text forms Burlap borrows from Java: `Double.toString`, the `yyyyMMdd'T'HHmmss.SSS'Z'` date
//! of `BurlapOutput.printDate` (on Java's Julian/Gregorian calendar), base64 as `BurlapOutput`
//! lays it out, and the reverse parsers.

/// Formats a double exactly as Java 17's `Double.toString` (the `FloatingDecimal` algorithm of
/// JDK 8 to 18): `NaN`, `Infinity`, `-0.0`, plain decimal with at least one fractional digit for
/// magnitudes in `[1e-3, 1e7)`, otherwise `d.dddE±n`. The digits are usually, but not always, the
/// shortest that round-trip (e.g. `4.9E-324`, `4.6339927102834509E17`): see [`super::dtoa`].
pub fn java_double(d: f64) -> String {
    super::dtoa::java_double_to_string(d)
}

/// Parses a double as Java's `Double.parseDouble` reads the forms `BurlapOutput` writes
/// (decimal and `E` notation, `NaN`, `Infinity`, `-Infinity`).
pub fn parse_java_double(s: &str) -> Option<f64> {
    let t = s.trim();
    match t {
        "NaN" => return Some(f64::NAN),
        "Infinity" | "+Infinity" => return Some(f64::INFINITY),
        "-Infinity" => return Some(f64::NEG_INFINITY),
        _ => {}
    }
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')) {
        return None;
    }
    t.parse().ok()
}

/// Milliseconds of 1582-10-15T00:00Z, where Java's default `GregorianCalendar` switches from the
/// Julian to the Gregorian calendar.
const GREGORIAN_CUTOVER_MS: i64 = -12_219_292_800_000;
const MS_PER_DAY: i64 = 86_400_000;

/// Proleptic Gregorian (year, month, day) of a day count since 1970-01-01.
fn gregorian_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Day count since 1970-01-01 of a proleptic Gregorian date.
fn days_from_gregorian(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Julian-calendar (year, month, day) of a day count since 1970-01-01.
fn julian_from_days(z: i64) -> (i64, u32, u32) {
    // 1970-01-01 (Gregorian) is 1969-12-19 Julian; shift to a March-based Julian epoch.
    let z = z + 719_470;
    let era = z.div_euclid(1461);
    let doe = z.rem_euclid(1461);
    let yoe = (doe - doe / 1460) / 365;
    let y = yoe + era * 4;
    let doy = doe - 365 * yoe;
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Day count since 1970-01-01 of a Julian-calendar date.
fn days_from_julian(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(4);
    let yoe = y.rem_euclid(4);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + doy;
    era * 1461 + doe - 719_470
}

/// Formats a date as `BurlapOutput.printDate`: `yyyyMMdd'T'HHmmss.SSS'Z'` in UTC on Java's
/// calendar (Julian before 1582-10-15), the year being the era year (1 BC is `0001`) printed as
/// its last four digits.
pub fn format_date(ms: i64, out: &mut Vec<u8>) {
    let days = ms.div_euclid(MS_PER_DAY);
    let in_day = ms.rem_euclid(MS_PER_DAY);
    let (y, mo, d) = if ms >= GREGORIAN_CUTOVER_MS { gregorian_from_days(days) } else { julian_from_days(days) };
    let era_year = if y <= 0 { 1 - y } else { y };
    let digit = |v: i64| b'0' + (v % 10) as u8;
    out.extend_from_slice(&[
        digit(era_year / 1000),
        digit(era_year / 100),
        digit(era_year / 10),
        digit(era_year),
        digit(i64::from(mo) / 10),
        digit(i64::from(mo)),
        digit(i64::from(d) / 10),
        digit(i64::from(d)),
        b'T',
    ]);
    let (h, mi, s, milli) = (in_day / 3_600_000, in_day / 60_000 % 60, in_day / 1000 % 60, in_day % 1000);
    out.extend_from_slice(&[
        digit(h / 10),
        digit(h),
        digit(mi / 10),
        digit(mi),
        digit(s / 10),
        digit(s),
        b'.',
        digit(milli / 100),
        digit(milli / 10),
        digit(milli),
        b'Z',
    ]);
}

/// Parses `yyyyMMdd'T'HHmmss[.SSS]Z` (the form `BurlapOutput` writes) to milliseconds since the
/// epoch, on Java's calendar.
pub fn parse_date(s: &str) -> Option<i64> {
    let b = s.trim().as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(r)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    if b.len() < 16 || b[8] != b'T' {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(4..6)?, num(6..8)?);
    let (h, mi, sec) = (num(9..11)?, num(11..13)?, num(13..15)?);
    let (milli, rest) = if b.get(15) == Some(&b'.') { (num(16..19)?, 19) } else { (0, 15) };
    if b.get(rest..) != Some(b"Z".as_slice()) || !(1..=12).contains(&mo) || !(1..=31).contains(&d) {
        return None;
    }
    let (mo, d) = (mo as u32, d as u32);
    let days = if (y, mo, d) >= (1582, 10, 15) { days_from_gregorian(y, mo, d) } else { days_from_julian(y, mo, d) };
    Some(days * MS_PER_DAY + h * 3_600_000 + mi * 60_000 + sec * 1000 + milli)
}

/// Base64 as `BurlapOutput.writeBytes` lays it out: standard alphabet with padding, and a newline
/// before every group that starts at a byte offset divisible by 192 (except the first).
pub fn encode_base64(data: &[u8], out: &mut Vec<u8>) {
    crate::base64::encode_into(data, Some(192), out);
}

/// Decodes base64 as `BurlapInput` does, ignoring whitespace; `None` on any other
/// non-alphabet byte or bad padding.
pub fn decode_base64(text: &[u8], out: &mut Vec<u8>) -> Option<()> {
    out.extend(crate::base64::decode(text, crate::base64::Strictness::Lenient).ok()?);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_like_java() {
        for (d, s) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (100.0, "100.0"),
            (0.001, "0.001"),
            (9.999e-4, "9.999E-4"),
            (1.0e7, "1.0E7"),
            (9999999.0, "9999999.0"),
            (123456789.125, "1.23456789125E8"),
            (4.9e-324, "4.9E-324"),
            (f64::MAX, "1.7976931348623157E308"),
            (-1e-300, "-1.0E-300"),
            (12.25, "12.25"),
        ] {
            assert_eq!(java_double(d), s);
            assert_eq!(parse_java_double(s).map(f64::to_bits), Some(d.to_bits()));
        }
    }

    #[test]
    fn dates_like_java() {
        for (ms, s) in [
            (0, "19700101T000000.000Z"),
            (-1, "19691231T235959.999Z"),
            (-62135596800000, "00010103T000000.000Z"),
            (-12219292800000, "15821015T000000.000Z"),
            (-12219292800001, "15821004T235959.999Z"),
            (-30610224000000, "09991227T000000.000Z"),
            (951782400000, "20000229T000000.000Z"),
        ] {
            let mut out = Vec::new();
            format_date(ms, &mut out);
            assert_eq!(std::str::from_utf8(&out).unwrap(), s);
            assert_eq!(parse_date(s), Some(ms));
        }
    }

    #[test]
    fn base64_round_trip() {
        for n in [0, 1, 2, 3, 4, 191, 192, 193, 500] {
            let data: Vec<u8> = (0..n).map(|i| (i * 31) as u8).collect();
            let mut text = Vec::new();
            encode_base64(&data, &mut text);
            let mut back = Vec::new();
            decode_base64(&text, &mut back).unwrap();
            assert_eq!(back, data);
        }
    }
}
