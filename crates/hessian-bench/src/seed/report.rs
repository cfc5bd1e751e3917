//! Writes a run: `REPORT.md`, one SVG chart per figure and `results.json`.

use crate::seed::chart;
use crate::seed::javapeer;
use crate::seed::results::{Experiment, Figure, Point, Run, Series, Status};
use crate::seed::rounds;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn us(v: f64) -> String {
    if !v.is_finite() {
        "n/a".into()
    } else if v >= 1000.0 {
        format!("{:.0}", v)
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn status_cell(s: &Series) -> String {
    match s.status {
        Status::Ok => "ok".into(),
        Status::Failed => format!("**FAILED**: {}", s.reason.as_deref().unwrap_or("")),
        Status::Skipped => format!("skipped: {}", s.reason.as_deref().unwrap_or("")),
    }
}

fn value(s: &Series, x: f64, key: &str) -> Option<f64> {
    s.at(x)?.values.get(key).copied().filter(|v| v.is_finite())
}

fn bytes(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{v:.0}"))
}

/// Draws the figure's chart; returns the error text if it could not.
fn draw(dir: &Path, f: &Figure) -> Result<(), String> {
    let Some(file) = &f.chart else { return Ok(()) };
    let path = dir.join(file);
    let first = |s: &Series| s.points.first().map(|p| p.time_us.mean);
    match f.id.as_str() {
        "exp3-bytes-1" => chart::bars(f, &path, |s| value(s, 1.0, "bytes")),
        "exp3-time-1" => {
            chart::bars(f, &path, |s| Some(s.at(1.0)?.time_us.median + value(s, 1.0, "decode_median_us")?))
        }
        "exp3-time-10000" => {
            chart::bars(f, &path, |s| Some(s.at(10_000.0)?.time_us.median + value(s, 10_000.0, "decode_median_us")?))
        }
        "exp2-w2-shared" => chart::bars(f, &path, |s| value(s, 0.0, "shared_bytes")),
        "exp1-w2-ratio" | "exp2-w2-rust-java" => chart::bars_with_range(f, &path, 1.0, |s| {
            Some((
                value(s, 0.0, "ratio_of_medians")?,
                value(s, 0.0, "block_ratio_min")?,
                value(s, 0.0, "block_ratio_max")?,
            ))
        }),
        "exp1-load" => chart::line(f, &path, |p| p.values.get("calls_per_second").copied().unwrap_or(0.0)),
        _ if f.kind == "line" => chart::line(f, &path, |p| p.time_us.median),
        _ => chart::bars(f, &path, first),
    }
}

/// The x values of a line figure, in order.
fn xs_of(f: &Figure) -> Vec<f64> {
    let mut v: Vec<f64> = f.series.iter().flat_map(|s| s.points.iter().map(|p| p.x)).collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// A table of a line figure: `intro`, then one row per series (its status last) and one column
/// per x value (headed by `head`), each cell `cell` of the point there.
fn x_table(
    out: &mut String,
    f: &Figure,
    intro: &str,
    first: &str,
    head: impl Fn(f64) -> String,
    cell: impl Fn(&Point) -> String,
) {
    let xs = xs_of(f);
    let _ = writeln!(out, "{intro}\n");
    let _ = write!(out, "| {first} |");
    xs.iter().for_each(|x| {
        let _ = write!(out, " {} |", head(*x));
    });
    let _ = write!(out, " status |\n|---|");
    xs.iter().for_each(|_| out.push_str("---:|"));
    out.push_str("---|\n");
    for s in &f.series {
        let _ = write!(out, "| {} |", s.label);
        for x in &xs {
            match s.at(*x) {
                Some(p) => {
                    let _ = write!(out, " {} |", cell(p));
                }
                None => out.push_str(" — |"),
            }
        }
        let _ = writeln!(out, " {} |", status_cell(s));
    }
}

/// Calls per second, with the median and p99 latency, per number of calls in flight.
fn load_table(out: &mut String, f: &Figure) {
    let intro = "Calls per second (the median of the rounds' rates, the slowest and fastest round in brackets), \
                 median and p99 latency in µs of all measured calls in parentheses:";
    x_table(
        out,
        f,
        intro,
        "protocol, server",
        |x| format!("{x} in flight"),
        |p| {
            let rate = p.values.get("calls_per_second").copied().unwrap_or(0.0);
            let spread = match (p.values.get("round_rate_min"), p.values.get("round_rate_max")) {
                (Some(lo), Some(hi)) => format!(" [{lo:.0}–{hi:.0}]{}", if rounds::flagged(p) { " ⚠" } else { "" }),
                _ => String::new(),
            };
            format!("{rate:.0}{spread} ({}, {})", us(p.time_us.median), us(p.time_us.p99))
        },
    );
    if let Some(text) = repeatability(f) {
        let _ = writeln!(out, "\n{text}");
    }
}

/// The lowest and highest per-round median of a point measured in rounds, in brackets, with ⚠
/// when their spread exceeds [`rounds::FLAG`]; empty for a point not measured in rounds.
fn round_spread(p: &Point) -> String {
    match (p.values.get("round_median_min"), p.values.get("round_median_max")) {
        (Some(lo), Some(hi)) => {
            format!(" [{}–{}]{}", us(*lo), us(*hi), if rounds::flagged(p) { " ⚠" } else { "" })
        }
        _ => String::new(),
    }
}

/// How repeatable a figure measured in rounds was: how many of its points spread more than
/// [`rounds::FLAG`] across rounds, and the widest spread (None for a figure without rounds).
pub fn repeatability(f: &Figure) -> Option<String> {
    let points: Vec<(&Series, &Point)> = f
        .series
        .iter()
        .filter(|s| s.status == Status::Ok)
        .flat_map(|s| s.points.iter().map(move |p| (s, p)))
        .filter(|(_, p)| rounds::spread(p).is_some())
        .collect();
    let rounds_n = points.iter().filter_map(|(_, p)| p.values.get("rounds").copied()).fold(0.0, f64::max);
    if points.is_empty() {
        return None;
    }
    let flagged: Vec<String> = points
        .iter()
        .filter(|(_, p)| rounds::flagged(p))
        .map(|(s, p)| {
            let at = match f.kind.as_str() {
                "line" => format!(" at {} = {}", f.x_label, p.x),
                _ if f.id.starts_with("exp3") => format!(" × {}", p.x),
                _ => String::new(),
            };
            format!("{}{at} ({:.0} %)", s.label, 100.0 * rounds::spread(p).unwrap_or(0.0))
        })
        .collect();
    let widest = points.iter().filter_map(|(_, p)| rounds::spread(p)).fold(0.0, f64::max);
    // experiment 1's W2 rows interleave call by call: their "rounds" are blocks of consecutive
    // rounds of calls
    let (unit, one) = if f.id == "exp1-w2" { ("blocks of consecutive rounds", "block") } else { ("rounds", "round") };
    let measure = match f.id.as_str() {
        "exp1-load" => "calls per second (relative to their median over the rounds)",
        id if id.starts_with("exp3") => "encode + decode median (relative to the whole run's)",
        id if id.contains("rust-java") => "median ratio (relative to the median of all pairs' ratios)",
        _ => "median round trip (relative to the median of all calls)",
    };
    Some(format!(
        "**Repeatability across {rounds_n:.0} {unit}:** {} of {} points spread more than {:.0} % between the \
         slowest and the fastest {one}'s {measure} (⚠){}; the widest spread is {:.0} %.",
        flagged.len(),
        points.len(),
        100.0 * rounds::FLAG,
        match flagged.len() {
            0 => String::new(),
            1..=10 => format!(": {}", flagged.join(", ")),
            k => format!(": {} and {} more", flagged[..10].join(", "), k - 10),
        },
        100.0 * widest
    ))
}

fn line_tables(out: &mut String, f: &Figure) {
    let rounds = f.series.iter().flat_map(|s| &s.points).any(|p| rounds::spread(p).is_some());
    let intro = if rounds {
        "Median round trip in µs, p99 in parentheses, the lowest and highest per-round median in brackets:"
    } else {
        "Median round trip in µs, p99 in parentheses:"
    };
    x_table(
        out,
        f,
        intro,
        "protocol",
        |x| format!("n={x}"),
        |p| format!("{} ({}){}", us(p.time_us.median), us(p.time_us.p99), round_spread(p)),
    );
    if let Some(text) = repeatability(f) {
        let _ = writeln!(out, "\n{text}");
    }
    let xs = xs_of(f);
    let ok: Vec<&Series> = f.series.iter().filter(|s| s.status == Status::Ok).collect();
    let socket = ok.iter().any(|s| s.points.iter().any(|p| p.values.contains_key("request_socket_bytes")));
    let tables: &[(&str, &str, &str)] = if socket {
        &[
            (
                "Request / reply body bytes per call (HTTP bodies; gRPC: the DATA frames' payload):",
                "request_bytes",
                "reply_bytes",
            ),
            (
                "Bytes on the socket per call, client → server / server → client (everything the connection \
                 carried: headers, framing and body):",
                "request_socket_bytes",
                "reply_socket_bytes",
            ),
        ]
    } else {
        &[("Request / reply body bytes per call:", "request_bytes", "reply_bytes")]
    };
    for (intro, up, down) in tables {
        let _ = writeln!(out, "\n{intro}\n");
        let _ = write!(out, "| protocol |");
        xs.iter().for_each(|x| {
            let _ = write!(out, " n={x} |");
        });
        out.push_str("\n|---|");
        xs.iter().for_each(|_| out.push_str("---:|"));
        out.push('\n');
        for s in &ok {
            let _ = write!(out, "| {} |", s.label);
            for x in &xs {
                match (value(s, *x, up), value(s, *x, down)) {
                    (Some(q), Some(r)) => {
                        let _ = write!(out, " {q:.0} / {r:.0} |");
                    }
                    // a row that has socket bytes but no bodies has no HTTP (RMI)
                    _ if value(s, *x, "request_socket_bytes").is_some() => out.push_str(" no HTTP body |"),
                    _ => out.push_str(" — |"),
                }
            }
            out.push('\n');
        }
    }
}

fn roundtrip_table(out: &mut String, f: &Figure) {
    let rounds = f.series.iter().flat_map(|s| &s.points).any(|p| rounds::spread(p).is_some());
    let median = if rounds { "median µs [per-round medians, lowest–highest]" } else { "median µs" };
    let socket = f.series.iter().any(|s| value(s, 0.0, "request_socket_bytes").is_some());
    let _ = writeln!(
        out,
        "| protocol | mean µs | {median} | p99 µs | min–max µs | calls | request B | reply B |{} status | notes |",
        if socket { " socket B → | socket B ← |" } else { "" }
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|{}---|---|", if socket { "---:|---:|" } else { "" });
    for s in &f.series {
        let p = s.points.first();
        let t = p.map(|p| p.time_us).unwrap_or_default();
        let notes = s.notes.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; ");
        let body = |key: &str| match value(s, 0.0, key) {
            None if value(s, 0.0, "request_socket_bytes").is_some() => "no HTTP body".to_owned(),
            v => bytes(v),
        };
        let sockets = if socket {
            format!(
                " {} | {} |",
                bytes(value(s, 0.0, "request_socket_bytes")),
                bytes(value(s, 0.0, "reply_socket_bytes"))
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "| {} | {} | {}{} | {} | {}–{} | {} | {} | {} |{} {} | {} |",
            s.label,
            us(t.mean),
            us(t.median),
            p.map(round_spread).unwrap_or_default(),
            us(t.p99),
            us(t.min),
            us(t.max),
            t.n,
            body("request_bytes"),
            body("reply_bytes"),
            sockets,
            status_cell(s),
            notes
        );
    }
    if let Some(text) = repeatability(f) {
        let _ = writeln!(out, "\n{text}");
    }
}

/// The columns of a paired comparison's table: what a row is, the two sides (`b` over `a`),
/// their medians' keys, the key of the share of pairs `b` won, and what the spread is over.
struct RatioCols {
    row: &'static str,
    a: &'static str,
    b: &'static str,
    a_key: &'static str,
    b_key: &'static str,
    faster_key: &'static str,
    blocks: &'static str,
    note: &'static str,
}

/// Experiment 1's interleaved Hessian 2 / 2.1 comparison per client → server pairing.
const EXP1_RATIO: RatioCols = RatioCols {
    row: "client → server",
    a: "Hessian 2",
    b: "2.1",
    a_key: "hessian2_median_us",
    b_key: "hessian21_median_us",
    faster_key: "share_of_rounds_21_faster",
    blocks: "blocks",
    note: "block ratios, in order",
};

/// Experiment 2's Rust and Java clients of one server, per protocol → server.
const EXP2_RATIO: RatioCols = RatioCols {
    row: "protocol → server",
    a: "Rust client",
    b: "Java client",
    a_key: "rust_median_us",
    b_key: "java_median_us",
    faster_key: "share_java_faster",
    blocks: "rounds",
    note: "ratios of medians per round, in order",
};

/// A paired comparison's table: per row the two medians, their ratio with its spread over the
/// blocks (or rounds), the median per-pair ratio and difference, and who won how often; ⚠ on a
/// row measured in rounds whose per-round median ratio spread more than [`rounds::FLAG`].
fn ratio_table(out: &mut String, f: &Figure, c: &RatioCols) {
    let _ = writeln!(
        out,
        "| {} | pairs | {a} median µs | {b} median µs | {b} ÷ {a}, medians | {blocks} min–max \
         | per-pair ratio, median ({blocks} min–max) | per-pair difference, median µs (95 % CI) | pairs {b} faster \
         | status |",
        c.row,
        a = c.a,
        b = c.b,
        blocks = c.blocks
    );
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for s in &f.series {
        let v = |k: &str| value(s, 0.0, k).unwrap_or(f64::NAN);
        let Some(p) = s.points.first() else {
            let _ = writeln!(out, "| {} | | | | | | | | | {} |", s.label, status_cell(s));
            continue;
        };
        let _ = writeln!(
            out,
            "| {} | {:.0} | {} | {} | **{:.3}** | {:.3}–{:.3} | {:.3} ({:.3}–{:.3}){} | {:+.2} ({:+.2} to {:+.2}) | {:.0} % | {} |",
            s.label,
            value(s, 0.0, "pairs").unwrap_or(v("rounds")),
            us(v(c.a_key)),
            us(v(c.b_key)),
            v("ratio_of_medians"),
            v("block_ratio_min"),
            v("block_ratio_max"),
            v("median_of_round_ratios"),
            v("block_round_ratio_min"),
            v("block_round_ratio_max"),
            if rounds::flagged(p) { " ⚠" } else { "" },
            v("median_difference_us"),
            v("ci95_low_us"),
            v("ci95_high_us"),
            100.0 * v(c.faster_key),
            status_cell(s)
        );
    }
    let cells: Vec<String> =
        f.series.iter().filter_map(|s| Some(format!("{} {}", s.label, s.notes.get(c.note)?))).collect();
    if !cells.is_empty() {
        let _ = writeln!(out, "\n{}{}: {}.", c.note[..1].to_uppercase(), &c.note[1..], cells.join("; "));
    }
    if let Some(text) = repeatability(f) {
        let _ = writeln!(out, "\n{text}");
    }
}

fn codec_table(out: &mut String, f: &Figure) {
    out.push_str(
        "| codec | instances | bytes | encode median (p99) µs | encode min–max µs | decode median (p99) µs | decode min–max µs \
         | encode + decode median per round, lowest–highest µs | status |\n",
    );
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for s in &f.series {
        if s.points.is_empty() {
            let _ = writeln!(out, "| {} | | | | | | | | {} |", s.label, status_cell(s));
        }
        for p in &s.points {
            let d = |k: &str| p.values.get(k).copied().unwrap_or(f64::NAN);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} ({}) | {}–{} | {} ({}) | {}–{} | {} | {} |",
                s.label,
                p.x,
                bytes(p.values.get("bytes").copied()),
                us(p.time_us.median),
                us(p.time_us.p99),
                us(p.time_us.min),
                us(p.time_us.max),
                us(d("decode_median_us")),
                us(d("decode_p99_us")),
                us(d("decode_min_us")),
                us(d("decode_max_us")),
                round_spread(p).trim().trim_start_matches('[').replace(']', ""),
                status_cell(s)
            );
        }
    }
    if let Some(text) = repeatability(f) {
        let _ = writeln!(out, "\n{text}");
    }
}

fn shared_table(out: &mut String, f: &Figure) {
    out.push_str("| format | bytes, one shared Product | bytes, three copies | after decoding | status |\n|---|---:|---:|---|---|\n");
    for s in &f.series {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            s.label,
            bytes(value(s, 0.0, "shared_bytes")),
            bytes(value(s, 0.0, "copies_bytes")),
            s.notes.get("sharing").map_or("", String::as_str),
            status_cell(s)
        );
    }
}

fn experiment(out: &mut String, dir: &Path, e: &Experiment, chart_errors: &mut Vec<String>) {
    let _ = writeln!(out, "## {}\n\n{}\n\nTook {:.1} s.\n", e.title, e.method, e.seconds);
    let mut codec_table_done = false;
    for f in &e.figures {
        let _ = writeln!(out, "### {}\n", f.title);
        if let Err(why) = draw(dir, f) {
            chart_errors.push(format!("{}: {why}", f.id));
        }
        if let Some(c) = &f.chart {
            let _ = writeln!(out, "![{}]({c})\n", f.title);
        }
        match f.id.as_str() {
            "exp2-w2-shared" => shared_table(out, f),
            "exp1-load" => load_table(out, f),
            "exp1-w2-ratio" => ratio_table(out, f, &EXP1_RATIO),
            "exp2-w2-rust-java" => ratio_table(out, f, &EXP2_RATIO),
            id if id.starts_with("exp3") => {
                if !codec_table_done {
                    codec_table(out, f);
                    codec_table_done = true;
                } else {
                    out.push_str("(Figures in the table above.)\n");
                }
            }
            _ if f.kind == "line" => line_tables(out, f),
            _ => roundtrip_table(out, f),
        }
        out.push('\n');
    }
    for p in &e.findings {
        let _ = writeln!(out, "{p}\n");
    }
}

const NOT_IN_RUN: &str = "\
### Protocols of the issue not in this run

- **AMF3 from Java**: neither BlazeDS nor another AMF library for Java is in Debian, so the AMF3 \
rows are Rust to Rust (`amf`) and Py3AMF's Python client to the Rust gateway (`amf-python`). Flex's \
`RemoteObject` messaging layer (`RemotingMessage`, `AcknowledgeMessage` around the same AMF0 \
envelope) is not sent: the rows measure AMF3 and its envelope as `NetConnection.call` sends them.
- **XML-RPC from Java**: Apache XML-RPC 3.1 is not in Debian (only the aXMLRPC client is), so XML-RPC \
is a Rust-to-Rust row.
";

/// The section of a two-machine run: both hosts, the server machine, and what the figures mean.
fn two_machines(out: &mut String, s: &crate::seed::results::Servers) {
    let _ = writeln!(
        out,
        "## Two machines\n\nThe servers were **remote**: every server of experiments 1 and 2 ran on **{}** (`seed \
         serve-all`, directory `{}`), the clients on **{}** (the machine above). Round trips cross the network \
         between them; bytes are counted on the client machine (the counting relay runs there and relays to the \
         server machine).\n",
        s.host, s.url, s.client_host
    );
    if let Some(e) = &s.error {
        let _ = writeln!(out, "The server directory could not be read: {e}. Every row that needs a server failed.\n");
        return;
    }
    let m = &s.machine;
    let field = |k: &str| match &m[k] {
        serde_json::Value::String(v) => v.clone(),
        serde_json::Value::Null => "?".into(),
        v => v.to_string(),
    };
    let _ = writeln!(out, "| server machine | |\n|---|---|");
    let _ = writeln!(out, "| host | {} |", s.host);
    for (k, label) in [
        ("cores", "cores"),
        ("cpu", "CPU"),
        ("memory_mib", "memory (MiB)"),
        ("kernel", "kernel"),
        ("load_at_start", "load average when serve-all started"),
        ("java", "Java"),
    ] {
        let _ = writeln!(out, "| {label} | {} |", field(k));
    }
    let same = if s.commit == s.client_commit { " (the same as the client's)" } else { "" };
    let _ = writeln!(out, "| suite | {} at commit `{}`{same} |", s.version, s.commit);
    if s.commit != s.client_commit {
        let _ = writeln!(out, "| client's suite | commit `{}` |", s.client_commit);
    }
    for (k, a) in &s.servers {
        let _ = writeln!(out, "| server `{k}` | {a} |");
    }
    for (k, why) in &s.unavailable {
        let _ = writeln!(out, "| server `{k}` | not started: {why} |");
    }
    out.push('\n');
}

/// Writes the report, the charts and `results.json` into `dir`; returns the report's path.
pub fn write(run: &Run, dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let m = &run.machine;
    let mut out = String::new();
    let _ = writeln!(out, "# Seed suite report\n");
    let _ = writeln!(
        out,
        "Mode **{}**, started {} UTC, took {:.0} s. Command: `{}`. Figures: `results.json` (schema \
         `{}`, described in `docs/seed-suite.md`).\n",
        run.mode, run.started, run.seconds, run.command, run.schema
    );
    let _ = writeln!(
        out,
        "## Machine\n\nThe figures below are from this machine only; on a machine shared with other work (see \
         the load average) single rows can be off by a factor of two or more, so compare orders of \
         magnitude and rerun before quoting a percentage.\n\n| | |\n|---|---|"
    );
    let _ = writeln!(
        out,
        "| host | {}{} |\n| cores | {} |\n| CPU | {} |\n| memory | {} MiB |\n| kernel | {} |",
        m.host,
        if run.servers.is_some() { " (the client machine)" } else { "" },
        m.cores,
        m.cpu,
        m.memory_mib,
        m.kernel
    );
    let _ = writeln!(
        out,
        "| load average (1, 5, 15 min) at start / end | {} / {} |\n| Rust | {} |\n| Java | {} |",
        m.load_at_start, run.load_at_end, m.rustc, m.java
    );
    let _ = writeln!(out, "| JVM flags (every JVM of the suite) | `{}` |", javapeer::flags());
    for (k, v) in &m.rust_crates {
        let _ = writeln!(out, "| crate `{k}` | {v} |");
    }
    for (k, v) in &m.java_packages {
        let _ = writeln!(out, "| Debian `{k}` | {v} |");
    }
    out.push('\n');
    if let Some(s) = &run.servers {
        two_machines(&mut out, s);
    }
    let failures = run.failures();
    let skipped = run.skipped();
    if failures.is_empty() && skipped.is_empty() {
        out.push_str("Every row ran and every reply was checked.\n\n");
    }
    if !failures.is_empty() {
        out.push_str("## Failed rows\n\n");
        for (e, f, s) in &failures {
            let _ = writeln!(
                out,
                "- experiment {} / {} / **{}**: {}",
                e.id,
                f.id,
                s.label,
                s.reason.as_deref().unwrap_or("")
            );
        }
        out.push('\n');
    }
    if !skipped.is_empty() {
        let _ = writeln!(
            out,
            "## Skipped rows\n\nThese rows need Java; install what they need with `{}` (as `.ci/run` does) and rerun.\n",
            javapeer::INSTALL_ALL
        );
        for (e, f, s) in &skipped {
            let _ =
                writeln!(out, "- experiment {} / {} / {}: {}", e.id, f.id, s.label, s.reason.as_deref().unwrap_or(""));
        }
        out.push('\n');
    }
    if let Some(c) = &run.compare {
        out.push_str(&crate::seed::compare::section(c));
    }
    let mut chart_errors = Vec::new();
    for e in &run.experiments {
        experiment(&mut out, dir, e, &mut chart_errors);
        if e.id == "2" {
            out.push_str(NOT_IN_RUN);
            out.push('\n');
        }
    }
    if !chart_errors.is_empty() {
        out.push_str("## Charts that could not be drawn\n\n");
        for c in &chart_errors {
            let _ = writeln!(out, "- {c}");
        }
    }
    let report = dir.join("REPORT.md");
    std::fs::write(&report, out).map_err(|e| format!("cannot write {}: {e}", report.display()))?;
    let json = serde_json::to_vec_pretty(run).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("results.json"), json).map_err(|e| format!("cannot write results.json: {e}"))?;
    if chart_errors.is_empty() {
        Ok(report)
    } else {
        Err(format!("charts failed: {}", chart_errors.join("; ")))
    }
}
