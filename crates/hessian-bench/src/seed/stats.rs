//! Summaries of timing samples.

use serde::Serialize;
use std::time::Duration;

/// Mean, median, p99, min and max of a set of samples, in microseconds.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Summary {
    /// Number of samples.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (the middle sample of the sorted set).
    pub median: f64,
    /// 99th percentile (nearest rank).
    pub p99: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
}

impl Summary {
    /// Summarizes durations (an empty set gives all zeros).
    pub fn of(samples: &[Duration]) -> Summary {
        Summary::of_us(samples.iter().map(|d| d.as_secs_f64() * 1e6).collect())
    }

    /// Summarizes samples already in microseconds.
    pub fn of_us(mut t: Vec<f64>) -> Summary {
        if t.is_empty() {
            return Summary::default();
        }
        t.sort_by(f64::total_cmp);
        let n = t.len();
        let rank = ((n as f64 * 0.99).ceil() as usize).clamp(1, n) - 1;
        Summary { n, mean: t.iter().sum::<f64>() / n as f64, median: t[n / 2], p99: t[rank], min: t[0], max: t[n - 1] }
    }
}

/// The proleptic Gregorian (year, month, day) of a day count since 1970-01-01 (H. Hinnant's
/// `civil_from_days`): the report's timestamp and XML-RPC's dates.
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles() {
        let s = Summary::of_us((1..=100).map(f64::from).collect());
        assert_eq!((s.n, s.median, s.p99, s.min, s.max), (100, 51.0, 99.0, 1.0, 100.0));
        assert_eq!(Summary::of(&[]).n, 0);
    }

    #[test]
    fn civil_dates() {
        assert_eq!(super::civil_from_days(0), (1970, 1, 1));
        assert_eq!(super::civil_from_days(-1), (1969, 12, 31));
        assert_eq!(super::civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(super::civil_from_days(20_788), (2026, 12, 1));
    }
}
