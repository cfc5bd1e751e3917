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
    /// With `seed --servers URL`: the server machine (the clients ran on `machine`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub servers: Option<Servers>,
}

/// The server machine of a two-machine run (`seed --servers URL`, the servers run by `seed
/// serve-all` there).
#[derive(Clone, Debug, Serialize)]
pub struct Servers {
    /// The directory's URL as given.
    pub url: String,
    /// Always true: the servers were remote.
    pub remote: bool,
    /// The server machine's host name (from the directory; `unknown` when it could not be read).
    pub host: String,
    /// The client machine's host name (`machine.host`).
    pub client_host: String,
    /// The suite's version and commit on the server machine.
    pub version: String,
    /// The commit the server machine's suite was built from.
    pub commit: String,
    /// The commit of the client machine's suite.
    pub client_commit: String,
    /// The server machine (the directory's `machine`: cores, CPU, memory, kernel, Java, …).
    pub machine: serde_json::Value,
    /// Directory key → `host:port` the clients called.
    pub servers: BTreeMap<String, String>,
    /// Directory keys whose server did not start there → why.
    pub unavailable: BTreeMap<String, String>,
    /// Why the directory could not be read (every row that needs a server then failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Servers {
    /// Experiment 3's note in a two-machine run.
    pub const LOCAL_NOTE: &'static str =
        "**Servers remote, but not here**: this experiment has no server; it ran on the client machine.";

    /// What the report and `results.json` say of the server machine at `url`.
    pub fn of(url: &str, remote: &Result<crate::seed::remote::Remote, String>) -> Servers {
        let client_host = crate::seed::remote::host_name();
        let client_commit = crate::seed::remote::commit();
        match remote {
            Ok(r) => {
                let d = &r.directory;
                Servers {
                    url: url.to_owned(),
                    remote: true,
                    host: d.host.clone(),
                    client_host,
                    version: d.version.clone(),
                    commit: d.commit.clone(),
                    client_commit,
                    machine: d.machine.clone(),
                    servers: d.servers.iter().map(|(k, p)| (k.clone(), format!("{}:{p}", r.host))).collect(),
                    unavailable: d.unavailable.clone(),
                    error: None,
                }
            }
            Err(e) => Servers {
                url: url.to_owned(),
                remote: true,
                host: "unknown".into(),
                client_host,
                version: String::new(),
                commit: String::new(),
                client_commit,
                machine: serde_json::Value::Null,
                servers: BTreeMap::new(),
                unavailable: BTreeMap::new(),
                error: Some(e.clone()),
            },
        }
    }

    /// The note put before the method of experiments 1 and 2.
    pub fn method_note(&self) -> String {
        format!(
            "**Servers remote**: every server of this experiment ran on **{}** (`seed serve-all`, directory {}), \
             the clients (and the counting relay, and experiment 1's delaying proxy) on **{}**; where the method \
             below says loopback, read the network between the two machines (the latency and bandwidth sweeps \
             add their delay and limit on top of it).",
            self.host, self.url, self.client_host
        )
    }
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
