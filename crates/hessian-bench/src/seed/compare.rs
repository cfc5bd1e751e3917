//! `seed --compare OLD_DIR`: this run's rows beside an earlier run's (`OLD_DIR/results.json`),
//! for a user comparing two versions or two machines.
//!
//! Rows are matched by experiment, figure, row id and x value; each matched point gives the
//! ratio of this run's median time to the earlier one's, and of its bytes where both runs
//! counted them. A ratio outside `1 ± threshold` is flagged. The threshold stands for the rows'
//! spread: a row measured once has none of its own, and two quick runs of an unchanged build on
//! an idle machine are expected to agree within ±25 % (the suite's repeatability aim), so that is
//! the default.

use crate::seed::results::Run;
use serde::Serialize;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;

/// The default flag threshold: a change beyond ±25 %.
pub const DEFAULT_THRESHOLD: f64 = 0.25;

/// One point of a row found in both runs.
#[derive(Clone, Debug, Serialize)]
pub struct Compared {
    /// Experiment id (`1`, `2`, `3`).
    pub experiment: String,
    /// Figure id.
    pub figure: String,
    /// Row id.
    pub row: String,
    /// Row label (this run's).
    pub label: String,
    /// The point's x value.
    pub x: f64,
    /// The earlier run's median time, µs.
    pub old_median_us: f64,
    /// This run's median time, µs.
    pub new_median_us: f64,
    /// `new_median_us / old_median_us`.
    pub ratio: f64,
    /// Bytes figures both runs have (`request_bytes`, `reply_bytes`, `bytes`, …): this run's
    /// value divided by the earlier one's.
    pub bytes_ratios: BTreeMap<String, f64>,
    /// Whether the time ratio or a bytes ratio lies outside `1 ± threshold`.
    pub flagged: bool,
}

/// This run against an earlier one.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The earlier run's directory, as given.
    pub old_dir: String,
    /// When the earlier run started.
    pub old_started: String,
    /// The earlier run's mode.
    pub old_mode: String,
    /// The earlier run's CPU and cores, in words.
    pub old_machine: String,
    /// The flag threshold (0.25: ±25 %).
    pub threshold: f64,
    /// Matched points, in this run's order.
    pub points: Vec<Compared>,
    /// Points of this run the earlier one does not have, as `experiment/figure/row@x`.
    pub only_new: Vec<String>,
}

/// Reads `dir/results.json` of an earlier run (schema `hessian-seed/1`).
pub fn load(dir: &Path) -> Result<Json, String> {
    let path = dir.join("results.json");
    let text = std::fs::read(&path).map_err(|e| format!("--compare: cannot read {}: {e}", path.display()))?;
    let json: Json =
        serde_json::from_slice(&text).map_err(|e| format!("--compare: {} is not JSON: {e}", path.display()))?;
    match json.get("schema").and_then(Json::as_str) {
        Some("hessian-seed/1") => Ok(json),
        other => Err(format!("--compare: {} has schema {other:?}, expected \"hessian-seed/1\"", path.display())),
    }
}

/// The key of one point.
type Key = (String, String, String, u64);

fn key(e: &str, f: &str, s: &str, x: f64) -> Key {
    (e.to_owned(), f.to_owned(), s.to_owned(), x.to_bits())
}

/// The earlier run's points: median time and numeric values by key (rows that did not run
/// left out).
fn old_points(old: &Json) -> BTreeMap<Key, (f64, BTreeMap<String, f64>)> {
    let mut points = BTreeMap::new();
    let arr = |v: &Json, k: &str| v.get(k).and_then(Json::as_array).cloned().unwrap_or_default();
    let s = |v: &Json, k: &str| v.get(k).and_then(Json::as_str).unwrap_or("").to_owned();
    for e in arr(old, "experiments") {
        for f in arr(&e, "figures") {
            for row in arr(&f, "series") {
                if s(&row, "status") != "ok" {
                    continue;
                }
                for p in arr(&row, "points") {
                    let (Some(x), Some(median)) = (
                        p.get("x").and_then(Json::as_f64),
                        p.get("time_us").and_then(|t| t.get("median")).and_then(Json::as_f64),
                    ) else {
                        continue;
                    };
                    let values = p
                        .get("values")
                        .and_then(Json::as_object)
                        .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_f64()?))).collect())
                        .unwrap_or_default();
                    points.insert(key(&s(&e, "id"), &s(&f, "id"), &s(&row, "id"), x), (median, values));
                }
            }
        }
    }
    points
}

/// Whether a value named `name` counts bytes.
fn is_bytes(name: &str) -> bool {
    name == "bytes" || name.ends_with("_bytes")
}

/// Compares `run` with the earlier run `old` (read by [`load`] from `old_dir`).
pub fn compare(run: &Run, old: &Json, old_dir: &Path, threshold: f64) -> Comparison {
    let old_points = old_points(old);
    let mut points = Vec::new();
    let mut only_new = Vec::new();
    let outside = |r: f64| !(1.0 - threshold..=1.0 + threshold).contains(&r);
    for e in &run.experiments {
        for (f, s) in e.series() {
            if s.status != crate::seed::results::Status::Ok {
                continue;
            }
            for p in &s.points {
                let Some((old_median, old_values)) = old_points.get(&key(&e.id, &f.id, &s.id, p.x)) else {
                    only_new.push(format!("{}/{}/{}@{}", e.id, f.id, s.id, p.x));
                    continue;
                };
                if *old_median <= 0.0 || p.time_us.median <= 0.0 {
                    continue;
                }
                let ratio = p.time_us.median / old_median;
                let bytes_ratios: BTreeMap<String, f64> = p
                    .values
                    .iter()
                    .filter(|(k, _)| is_bytes(k))
                    .filter_map(|(k, v)| {
                        let old = *old_values.get(k)?;
                        (old > 0.0).then(|| (k.clone(), v / old))
                    })
                    .collect();
                let flagged = outside(ratio) || bytes_ratios.values().any(|r| outside(*r));
                points.push(Compared {
                    experiment: e.id.clone(),
                    figure: f.id.clone(),
                    row: s.id.clone(),
                    label: s.label.clone(),
                    x: p.x,
                    old_median_us: *old_median,
                    new_median_us: p.time_us.median,
                    ratio,
                    bytes_ratios,
                    flagged,
                });
            }
        }
    }
    let text = |k: &str| old.get(k).and_then(Json::as_str).unwrap_or("?").to_owned();
    let machine = old.get("machine");
    let m = |k: &str| machine.and_then(|m| m.get(k)).map(|v| v.to_string().trim_matches('"').to_owned());
    Comparison {
        old_dir: old_dir.display().to_string(),
        old_started: text("started"),
        old_mode: text("mode"),
        old_machine: format!("{}, {} cores", m("cpu").unwrap_or_else(|| "?".into()), m("cores").unwrap_or_default()),
        threshold,
        points,
        only_new,
    }
}

/// The report's section: one table of every matched point, flagged ones marked.
pub fn section(c: &Comparison) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let flagged = c.points.iter().filter(|p| p.flagged).count();
    let _ = writeln!(
        out,
        "## Compared with an earlier run\n\n`{}`: mode {}, started {} UTC, on {}. {} points matched \
         (experiment, figure, row and x), {} of them changed beyond ±{:.0} % (**bold**: the time or a \
         byte count); {} points of this run are not in the earlier one. Ratios are this run ÷ the \
         earlier one.\n",
        c.old_dir,
        c.old_mode,
        c.old_started,
        c.old_machine,
        c.points.len(),
        flagged,
        c.threshold * 100.0,
        c.only_new.len()
    );
    out.push_str("| experiment / figure | row | x | earlier median µs | median µs | time ratio | bytes ratios |\n");
    out.push_str("|---|---|---:|---:|---:|---:|---|\n");
    for p in &c.points {
        let bytes: Vec<String> = p.bytes_ratios.iter().map(|(k, r)| format!("{k} {r:.2}")).collect();
        let ratio = if p.flagged { format!("**{:.2}**", p.ratio) } else { format!("{:.2}", p.ratio) };
        let _ = writeln!(
            out,
            "| {} / {} | {} | {} | {:.1} | {:.1} | {} | {} |",
            p.experiment,
            p.figure,
            p.label,
            p.x,
            p.old_median_us,
            p.new_median_us,
            ratio,
            bytes.join(", ")
        );
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::results::{Experiment, Figure, Point, Series};
    use crate::seed::stats::Summary;

    fn run(median: f64, bytes: f64) -> Run {
        let mut s = Series::new("hessian2", "Hessian 2");
        let mut values = BTreeMap::new();
        values.insert("request_bytes".to_owned(), bytes);
        values.insert("decode_median_us".to_owned(), 1.0);
        s.points.push(Point { x: 10.0, time_us: Summary { n: 1, median, ..Summary::default() }, values });
        let mut gone = Series::new("new-row", "New");
        gone.points.push(Point {
            x: 1.0,
            time_us: Summary { n: 1, median: 5.0, ..Summary::default() },
            values: BTreeMap::new(),
        });
        let figure = Figure {
            id: "w1".into(),
            title: "W1".into(),
            kind: "line".into(),
            x_label: "items".into(),
            y_label: "µs".into(),
            chart: None,
            series: vec![s, gone],
        };
        Run {
            schema: "hessian-seed/1".into(),
            mode: "tiny".into(),
            started: "2026-12-04T00:00:00Z".into(),
            seconds: 1.0,
            command: "seed".into(),
            machine: crate::seed::machine::Machine::probe(),
            load_at_end: String::new(),
            compare: None,
            servers: None,
            experiments: vec![Experiment {
                id: "2".into(),
                name: "protocols".into(),
                title: "t".into(),
                method: "m".into(),
                figures: vec![figure],
                findings: Vec::new(),
                seconds: 1.0,
            }],
        }
    }

    #[test]
    fn matched_points_give_ratios_and_flags() {
        let mut old = serde_json::to_value(run(100.0, 500.0)).unwrap();
        // the earlier run did not have the new row
        old["experiments"][0]["figures"][0]["series"].as_array_mut().unwrap().truncate(1);
        let same = compare(&run(110.0, 500.0), &old, Path::new("old"), DEFAULT_THRESHOLD);
        assert_eq!(same.points.len(), 1);
        assert!((same.points[0].ratio - 1.1).abs() < 1e-9);
        assert!(!same.points[0].flagged);
        assert_eq!(same.points[0].bytes_ratios.len(), 1, "only byte counts: {:?}", same.points[0].bytes_ratios);
        assert_eq!(same.only_new, vec!["2/w1/new-row@1".to_owned()]);
        let slower = compare(&run(140.0, 500.0), &old, Path::new("old"), DEFAULT_THRESHOLD);
        assert!(slower.points[0].flagged);
        let bigger = compare(&run(100.0, 700.0), &old, Path::new("old"), DEFAULT_THRESHOLD);
        assert!(bigger.points[0].flagged, "a byte count beyond the threshold is flagged");
        assert!(section(&slower).contains("**1.40**"));
    }

    #[test]
    fn an_earlier_directory_without_results_is_an_error() {
        let dir = std::env::temp_dir().join(format!("seed-compare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(load(&dir).unwrap_err().contains("cannot read"));
        std::fs::write(dir.join("results.json"), b"{\"schema\": \"other\"}").unwrap();
        assert!(load(&dir).unwrap_err().contains("schema"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
