//! The data model of a suite run, written as `results.json` (schema `hessian-seed/1`, documented
//! in `docs/seed-suite.md`) and rendered into `REPORT.md` and the charts.

use crate::seed::machine::Machine;
use crate::seed::stats::Summary;
use serde::Serialize;
use std::collections::BTreeMap;

/// The outcome of one row (a protocol, a codec variant, a client/server pair).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Measured; every reply checked.
    Ok,
    /// Did not start, answered wrongly or timed out; `reason` says which.
    Failed,
    /// Not run here (e.g. Java missing outside CI); `reason` says what to install.
    Skipped,
}

/// One measured point of a series: an x value (list size, instance count, or 0 for a single
/// figure) with its timing summary and sizes.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    /// The x value (W1 list size, W3 instance count; 0 where the figure has no x axis).
    pub x: f64,
    /// Round-trip or codec time in microseconds (per operation).
    pub time_us: Summary,
    /// Further named figures of the point (e.g. `request_bytes`, `reply_bytes`, `bytes`,
    /// `decode_median_us`), all numbers.
    pub values: BTreeMap<String, f64>,
}

/// A row: one protocol or variant, its points, and whether it ran.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    /// Stable id (e.g. `hessian2`, `java-rmi`, `derived`).
    pub id: String,
    /// Label in charts and tables.
    pub label: String,
    /// Outcome.
    pub status: Status,
    /// Why it failed or was skipped.
    pub reason: Option<String>,
    /// Measured points, in x order.
    pub points: Vec<Point>,
    /// Facts about the row in words (e.g. "keeps sharing").
    pub notes: BTreeMap<String, String>,
}

impl Series {
    /// A row with no points yet.
    pub fn new(id: &str, label: &str) -> Series {
        Series {
            id: id.to_owned(),
            label: label.to_owned(),
            status: Status::Ok,
            reason: None,
            points: Vec::new(),
            notes: BTreeMap::new(),
        }
    }

    /// Marks the row failed with `reason` (its points so far are kept).
    pub fn fail(&mut self, reason: impl Into<String>) {
        self.status = Status::Failed;
        self.reason = Some(reason.into());
    }

    /// Marks the row skipped with `reason`.
    pub fn skip(&mut self, reason: impl Into<String>) {
        self.status = Status::Skipped;
        self.reason = Some(reason.into());
    }

    /// The point at `x`, if measured.
    pub fn at(&self, x: f64) -> Option<&Point> {
        self.points.iter().find(|p| p.x == x)
    }
}

/// A figure: a chart and/or table of several series.
#[derive(Clone, Debug, Serialize)]
pub struct Figure {
    /// Stable id, also the chart's file name without `.svg`.
    pub id: String,
    /// Title.
    pub title: String,
    /// `line` (x axis numeric), `bar` (one bar per series) or `table` (no chart).
    pub kind: String,
    /// What the x axis is.
    pub x_label: String,
    /// What the y axis is.
    pub y_label: String,
    /// The chart's file, relative to the output directory (None for tables).
    pub chart: Option<String>,
    /// The rows.
    pub series: Vec<Series>,
}

/// One experiment's figures and text.
#[derive(Clone, Debug, Serialize)]
pub struct Experiment {
    /// `"1"`, `"2"` or `"3"`.
    pub id: String,
    /// Short name (`negotiation`, `protocols`, `codecs`).
    pub name: String,
    /// Title.
    pub title: String,
    /// Call counts and conditions in words.
    pub method: String,
    /// Figures.
    pub figures: Vec<Figure>,
    /// Markdown paragraphs the report prints after the figures (findings, comparisons).
    pub findings: Vec<String>,
    /// Wall-clock seconds the experiment took.
    pub seconds: f64,
}

impl Experiment {
    /// Every row of every figure.
    pub fn series(&self) -> impl Iterator<Item = (&Figure, &Series)> {
        self.figures.iter().flat_map(|f| f.series.iter().map(move |s| (f, s)))
    }
}

/// A whole run.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// `hessian-seed/1`.
    pub schema: String,
    /// `tiny`, `quick` or `full`.
    pub mode: String,
    /// Start time, UTC, RFC 3339.
    pub started: String,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// The command line.
    pub command: String,
    /// The machine and the versions of every peer.
    pub machine: Machine,
    /// Load average (1, 5, 15 minutes) when the run ended, beside `machine.load_at_start`.
    pub load_at_end: String,
    /// The experiments that ran.
    pub experiments: Vec<Experiment>,
    /// This run against an earlier one (`seed --compare OLD_DIR`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<crate::seed::compare::Comparison>,
}

impl Run {
    /// Rows that failed, as (experiment, figure, row).
    pub fn failures(&self) -> Vec<(&Experiment, &Figure, &Series)> {
        self.rows(Status::Failed)
    }

    /// Rows that were skipped.
    pub fn skipped(&self) -> Vec<(&Experiment, &Figure, &Series)> {
        self.rows(Status::Skipped)
    }

    /// Rows with `status`, each row once per experiment (a row that appears in several figures
    /// of an experiment for the same reason is listed with its first figure).
    fn rows(&self, status: Status) -> Vec<(&Experiment, &Figure, &Series)> {
        let mut seen = std::collections::BTreeSet::new();
        self.experiments
            .iter()
            .flat_map(|e| e.series().map(move |(f, s)| (e, f, s)))
            .filter(|(_, _, s)| s.status == status)
            .filter(|(e, _, s)| seen.insert((e.id.clone(), s.id.clone(), s.label.clone(), s.reason.clone())))
            .collect()
    }
}
