//! Measuring in rounds: every row of a figure runs one batch per round, the rows in an order
//! that rotates from round to round (and runs backwards every other round), so that no row
//! always runs first, last or after the same neighbour, and a slow minute of the machine falls
//! on every row alike. A point keeps its summary over all measured calls, plus the spread of the
//! per-round medians (`round_median_min`, `round_median_max`, `rounds`, `round_spread` in its
//! `values`), which the report shows and flags above [`FLAG`].

use crate::seed::results::Point;
use crate::seed::stats::Summary;
use hessian_bench::negotiation::Paired;
use std::collections::BTreeMap;

/// Points whose round medians spread more than this share of the point's median are flagged.
pub const FLAG: f64 = 0.25;

pub use hessian_bench::rotation::order;

/// A point from the measured round trips of each round, in microseconds (a round without
/// samples counts for nothing); `values` gets the request and reply bytes when they are finite.
pub fn point(x: f64, per_round: &[Vec<f64>], request_bytes: f64, reply_bytes: f64) -> Point {
    let all: Vec<f64> = per_round.iter().flatten().copied().collect();
    let medians: Vec<f64> =
        per_round.iter().filter(|r| !r.is_empty()).map(|r| Summary::of_us(r.clone()).median).collect();
    let time_us = Summary::of_us(all);
    let mut values = BTreeMap::new();
    if request_bytes.is_finite() && reply_bytes.is_finite() {
        values.insert("request_bytes".into(), request_bytes);
        values.insert("reply_bytes".into(), reply_bytes);
    }
    if !medians.is_empty() {
        let min = medians.iter().copied().fold(f64::INFINITY, f64::min);
        let max = medians.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        values.insert("rounds".into(), medians.len() as f64);
        values.insert("round_median_min".into(), min);
        values.insert("round_median_max".into(), max);
        if time_us.median > 0.0 {
            values.insert("round_spread".into(), (max - min) / time_us.median);
        }
    }
    Point { x, time_us, values }
}

/// The spread across rounds of a point measured in rounds: (max − min) of the round medians over
/// the median of all calls.
pub fn spread(p: &Point) -> Option<f64> {
    p.values.get("round_spread").copied().filter(|v| v.is_finite())
}

/// Whether a point's spread across rounds exceeds [`FLAG`].
pub fn flagged(p: &Point) -> bool {
    spread(p).is_some_and(|s| s > FLAG)
}

/// The values of a paired comparison of two clients whose calls alternate ([`Paired`], `b`
/// over `a`): the ratio of the medians and its block min–max, the median of the per-pair ratios
/// and its block min–max, the median per-pair difference with its 95 % interval, `pairs` and
/// `rounds` (both the number of pairs; a caller whose blocks are rounds sets `rounds` to theirs),
/// and the share of pairs in which `b` was the faster under `faster_key`. Experiment 1's
/// Hessian 2 / 2.1 pairings and experiment 2's Rust / Java clients of one server use it.
pub fn paired_values(p: &Paired, faster_key: &str) -> BTreeMap<String, f64> {
    let (lo, hi) = p.block_range();
    let (rlo, rhi) = p.block_round_range();
    [
        ("ratio_of_medians", p.ratio),
        ("block_ratio_min", lo),
        ("block_ratio_max", hi),
        ("median_of_round_ratios", p.round_ratio),
        ("block_round_ratio_min", rlo),
        ("block_round_ratio_max", rhi),
        ("median_difference_us", p.median),
        ("ci95_low_us", p.low),
        ("ci95_high_us", p.high),
        (faster_key, p.faster),
        ("rounds", p.rounds as f64),
        ("pairs", p.rounds as f64),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

/// A paired comparison's block ratios of medians, in order (a series' note).
pub fn block_note(p: &Paired) -> String {
    let blocks: Vec<String> = p.block_ratios.iter().map(|r| format!("{r:.3}")).collect();
    blocks.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_round_is_a_permutation_and_every_row_starts_once() {
        for rows in 1..=17 {
            let mut firsts = Vec::new();
            for round in 0..rows {
                let mut o = order(rows, round);
                firsts.push(o[0]);
                o.sort_unstable();
                assert_eq!(o, (0..rows).collect::<Vec<_>>(), "rows {rows}, round {round}");
            }
            firsts.sort_unstable();
            assert_eq!(firsts, (0..rows).collect::<Vec<_>>(), "rows {rows}");
        }
        assert!(order(0, 3).is_empty());
    }

    #[test]
    fn rounds_rotate_and_alternate_direction() {
        assert_eq!(order(4, 0), [0, 1, 2, 3]);
        assert_eq!(order(4, 1), [1, 0, 3, 2]);
        assert_eq!(order(4, 2), [2, 3, 0, 1]);
        assert_eq!(order(4, 3), [3, 2, 1, 0]);
        assert_eq!(order(4, 4), order(4, 0));
        // the row that ran last in one round does not always run first in the next
        let lasts: Vec<usize> = (0..4).map(|r| *order(4, r).last().unwrap_or(&0)).collect();
        let nexts: Vec<usize> = (1..5).map(|r| order(4, r)[0]).collect();
        assert_ne!(lasts, nexts);
    }

    #[test]
    fn spread_across_rounds_and_flag() {
        // medians 10, 11, 12 over all calls' median 11: spread 2/11, not flagged
        let steady = point(1.0, &[vec![9.0, 10.0, 11.0], vec![10.0, 11.0, 12.0], vec![11.0, 12.0, 13.0]], 5.0, 7.0);
        assert_eq!(steady.time_us.n, 9);
        assert_eq!(steady.time_us.median, 11.0);
        assert_eq!(steady.values["rounds"], 3.0);
        assert_eq!(steady.values["round_median_min"], 10.0);
        assert_eq!(steady.values["round_median_max"], 12.0);
        assert_eq!(steady.values["request_bytes"], 5.0);
        assert!((spread(&steady).unwrap_or(0.0) - 2.0 / 11.0).abs() < 1e-12);
        assert!(!flagged(&steady));
        // one round three times slower: flagged
        let moody =
            point(1.0, &[vec![10.0, 10.0, 10.0], vec![10.0, 10.0, 10.0], vec![30.0, 30.0, 30.0]], f64::NAN, 0.0);
        assert!(flagged(&moody));
        assert!(!moody.values.contains_key("request_bytes"));
        // a point of one round, or not measured in rounds, has no spread to flag
        let once = point(0.0, &[vec![5.0, 6.0]], 1.0, 1.0);
        assert_eq!(spread(&once), Some(0.0));
        let plain = Point { x: 0.0, time_us: Summary::of_us(vec![1.0]), values: BTreeMap::new() };
        assert_eq!(spread(&plain), None);
        assert!(!flagged(&plain));
    }
}
