//! Experiment 1, type negotiation (seed: "Minimum Air Induction"): W2 `exchange` round trips and
//! bytes per call in each direction for Hessian 1, Hessian 2 and Hessian 2.1, Rust client to Rust
//! server through `hessian-rpc` (server in its own process).
//!
//! This is the slot for the type-negotiation benchmark (`negotiation_bench`): its Java-to-Java
//! rows (Caucho's proxy and skeleton with the Java side of the extension), the crossings and the
//! sweeps are to be added here as further series and figures.

use crate::seed::exp2::{hessian_w2, rust_server};
use crate::seed::results::{Experiment, Figure, Series};
use crate::seed::{Mode, Options};
use hessian_rpc::Dialect;
use indicatif::ProgressBar;
use std::time::Instant;

/// Warm-up and measured calls of `mode`.
pub fn counts(mode: Mode) -> (usize, usize) {
    match mode {
        Mode::Tiny => (10, 50),
        Mode::Quick => (1000, 5000),
        Mode::Full => (1000, 50_000),
    }
}

const ROWS: [(&str, &str, Dialect, bool); 3] = [
    ("hessian1", "Hessian 1", Dialect::HESSIAN1, false),
    ("hessian2", "Hessian 2", Dialect::HESSIAN2, false),
    ("hessian2.1", "Hessian 2.1 (type negotiation)", Dialect::HESSIAN2, true),
];

/// Runs experiment 1.
pub fn run(opts: &Options, pb: &ProgressBar) -> Experiment {
    let t0 = Instant::now();
    let (warmup, measured) = counts(opts.mode);
    let rows: Vec<_> = ROWS.iter().filter(|r| opts.protocol(r.0)).collect();
    pb.set_length(rows.len() as u64);
    let mut series = Vec::new();
    for (id, label, dialect, type_maps) in rows {
        pb.set_message(*label);
        let mut s = Series::new(id, &format!("{label}, Rust -> Rust"));
        let result =
            tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string()).and_then(
                |rt| {
                    let server = rust_server("hessian")?;
                    rt.block_on(hessian_w2(&server.base_url(), *dialect, *type_maps, warmup, measured))
                },
            );
        match result {
            Ok((point, stats)) => {
                s.points.push(point);
                if *type_maps {
                    s.notes.insert(
                        "negotiation".into(),
                        format!(
                            "{} referring and {} plain requests, {} resends, {} referring replies over all {} calls",
                            stats.referring_calls,
                            stats.plain_calls,
                            stats.resends,
                            stats.referring_replies,
                            stats.calls
                        ),
                    );
                }
            }
            Err(e) => s.fail(e),
        }
        series.push(s);
        pb.inc(1);
    }
    let mut findings = Vec::new();
    let get = |id: &str| series.iter().find(|s| s.id == id).and_then(|s| s.points.first());
    if let (Some(h2), Some(h21)) = (get("hessian2"), get("hessian2.1")) {
        let (q2, q21) = (
            h2.values.get("request_bytes").copied().unwrap_or(0.0),
            h21.values.get("request_bytes").copied().unwrap_or(0.0),
        );
        let (r2, r21) = (
            h2.values.get("reply_bytes").copied().unwrap_or(0.0),
            h21.values.get("reply_bytes").copied().unwrap_or(0.0),
        );
        findings.push(format!(
            "After the first call, Hessian 2.1 sends {q21:.0} request bytes per call against Hessian 2's {q2:.0} ({:.0} %) \
             and receives {r21:.0} reply bytes against {r2:.0} ({:.0} %); mean round trip {:.1} µs against {:.1} µs \
             (median {:.1} against {:.1}).",
            100.0 * q21 / q2.max(1.0),
            100.0 * r21 / r2.max(1.0),
            h21.time_us.mean,
            h2.time_us.mean,
            h21.time_us.median,
            h2.time_us.median
        ));
    }
    findings.push(
        "Java rows (Caucho's proxy and skeleton with the Java side of the extension, and the two crossings) and the \
         sweeps over types, instances, name lengths, calls per conversation and latency come from the type-negotiation \
         benchmark (`negotiation_bench`) and are to be added to this experiment; this run has the Rust-to-Rust rows."
            .into(),
    );
    Experiment {
        id: "1".into(),
        name: "negotiation".into(),
        title: "Experiment 1: type negotiation (W2 exchange, Hessian 1 / 2 / 2.1)".into(),
        method: format!(
            "Rust typed client (`hessian_rpc::demo::BenchClient`) to the Rust demo server in its own process, loopback \
             HTTP/1.1 keep-alive; {warmup} warm-up then {measured} measured calls per protocol, every reply checked \
             against the W2 reply graph. Bytes per call are the HTTP body bytes of the measured calls from the \
             client's counters (`Client::type_map_stats()` deltas), so Hessian 2.1's first call with the full map is \
             in the warm-up."
        ),
        figures: vec![Figure {
            id: "exp1-w2".into(),
            title: "W2 exchange: mean round trip per protocol".into(),
            kind: "bar".into(),
            x_label: "protocol".into(),
            y_label: "µs".into(),
            chart: Some("exp1-w2.svg".into()),
            series,
        }],
        findings,
        seconds: t0.elapsed().as_secs_f64(),
    }
}
