//! Experiment 1, type negotiation (seed: "Minimum Air Induction"): W2 `exchange` round trips and
//! bytes per call in each direction for Hessian 1, Hessian 2 and Hessian 2.1, Rust to Rust, Java
//! to Java (Caucho's proxy and skeleton, with the Java side of the extension for 2.1) and the two
//! crossings, then the Rust-to-Rust sweeps over the factors the seed names (types, instances, name
//! lengths, calls per conversation, latency, bandwidth).
//!
//! The measurements are the type-negotiation benchmark's ([`hessian_bench::negotiation`], also the binary
//! `negotiation_bench`), run quietly with the suite's call counts and its own demo server (`seed
//! serve demo`); this module turns them into the suite's figures.

use crate::seed::javapeer;
use crate::seed::results::{Experiment, Figure, Point, Series};
use crate::seed::stats::Summary;
use crate::seed::{Mode, Options};
use hessian_bench::negotiation::{self, Config, Outcome, Row};
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::time::Instant;

/// Warm-up and measured W2 calls per row in `mode`.
pub fn counts(mode: Mode) -> (usize, usize) {
    match mode {
        Mode::Tiny => (10, 40),
        Mode::Quick => (1000, 5000),
        Mode::Full => (1000, 50_000),
    }
}

/// The benchmark's configuration for `mode`.
fn config(mode: Mode, java: bool) -> Result<Config, String> {
    let mut c = match mode {
        Mode::Tiny => Config::tiny(),
        Mode::Quick | Mode::Full => Config::quick(),
    };
    (c.warmup, c.calls) = counts(mode);
    if mode == Mode::Full {
        c.mode = "full";
        c.sweep_calls = 5000;
        c.sweep_warmup = 1000;
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the suite's executable: {e}"))?;
    c.rust_server = vec![exe.into(), "serve".into(), "demo".into()];
    c.java = java;
    c.quiet = true;
    Ok(c)
}

/// The suite's id of a row (`rust-rust-hessian2.1`, `java-rust-hessian1`, …).
fn row_id(r: &Row) -> String {
    let pair = r.pair.to_lowercase().replace(" → ", "-").replace(", interleaved", "-interleaved");
    let proto = r.protocol.to_lowercase().replace(' ', "");
    format!("{pair}-{proto}")
}

/// A row's times and bytes as a suite point at `x`.
fn point(x: f64, r: &Row) -> Point {
    let t = &r.times;
    let time_us = Summary { n: r.calls, mean: t.mean, median: t.median, p99: t.p99, min: t.min, max: t.max };
    let mut values = BTreeMap::new();
    values.insert("request_bytes".into(), r.request);
    values.insert("reply_bytes".into(), r.reply);
    values.insert("first_call_request_bytes".into(), r.first_request as f64);
    values.insert("first_call_reply_bytes".into(), r.first_reply as f64);
    values.insert("resends".into(), r.resends as f64);
    Point { x, time_us, values }
}

/// Runs experiment 1.
pub fn run(opts: &Options, pb: &ProgressBar) -> Experiment {
    let t0 = Instant::now();
    let wanted: Vec<&str> = ["hessian1", "hessian2", "hessian2.1"].into_iter().filter(|p| opts.protocol(p)).collect();
    pb.set_length(1);
    pb.set_message("W2 rows and sweeps");
    let java = javapeer::java();
    let outcome = config(opts.mode, java.is_ok()).and_then(|c| negotiation::run(&c));
    pb.inc(1);
    let (warmup, measured) = counts(opts.mode);
    let mut figures = Vec::new();
    let mut findings = Vec::new();
    match outcome {
        Ok(o) => {
            figures = outcome_figures(&o, &wanted, &java);
            findings = outcome_findings(&o);
        }
        Err(e) => {
            let mut s = Series::new("negotiation", "W2 rows and sweeps");
            s.fail(e);
            figures.push(w2_figure(vec![s]));
        }
    }
    Experiment {
        id: "1".into(),
        name: "negotiation".into(),
        title: "Experiment 1: type negotiation (W2 exchange, Hessian 1 / 2 / 2.1)".into(),
        method: format!(
            "W2 `exchange(Order)` over loopback HTTP/1.1 keep-alive, servers in their own processes: the Rust typed \
             client (`hessian_rpc::demo::BenchClient`, type maps on only for 2.1) and the Rust demo server; Caucho's \
             `HessianProxyFactory` and `HessianSkeleton` (behind the JDK's HTTP server), with the Java side of the \
             extension (`NegotiatingProxyFactory`, `NegotiatingServer` in `interop/java`) for 2.1; and the two \
             crossings. Each row is a new client: its first call establishes the maps (shown apart), then {warmup} \
             warm-up and {measured} measured calls, every reply checked. The interleaved rows alternate a Hessian 2 \
             and a 2.1 client call by call, so that drift in the machine's load affects both alike. Bytes are HTTP \
             bodies as each client counts them. The sweeps (Rust to Rust, Hessian 2 against 2.1, alternating) vary one \
             factor each; latency and bandwidth go through a delaying TCP proxy in the client's process (`tc netem` \
             is not available here). Rerun alone: `target/release/negotiation_bench` (see `BENCHMARKS.md`)."
        ),
        figures,
        findings,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

fn w2_figure(series: Vec<Series>) -> Figure {
    Figure {
        id: "exp1-w2".into(),
        title: "W2 exchange: mean round trip per protocol and client → server".into(),
        kind: "bar".into(),
        x_label: "protocol".into(),
        y_label: "µs".into(),
        chart: Some("exp1-w2.svg".into()),
        series,
    }
}

fn outcome_figures(
    o: &Outcome,
    wanted: &[&str],
    java: &Result<hessian_testkit::java::Java, (bool, String)>,
) -> Vec<Figure> {
    let wanted_row = |r: &Row| wanted.iter().any(|w| row_id(r).ends_with(&format!("-{w}")));
    let mut series: Vec<Series> = o
        .rows
        .iter()
        .filter(|r| wanted_row(r))
        .map(|r| {
            let mut s = Series::new(&row_id(r), &format!("{}, {}", r.protocol, r.pair));
            s.points.push(point(0.0, r));
            if r.protocol == "Hessian 2.1" {
                s.notes.insert(
                    "first call".into(),
                    format!(
                        "{} request / {} reply bytes (the plain call that establishes the maps)",
                        r.first_request, r.first_reply
                    ),
                );
            }
            s
        })
        .collect();
    if let Err((skip, why)) = java {
        for pair in ["java-java", "rust-java", "java-rust"] {
            for proto in wanted {
                let mut s = Series::new(&format!("{pair}-{proto}"), &format!("{proto}, {pair}"));
                if *skip {
                    s.skip(why.clone());
                } else {
                    s.fail(why.clone());
                }
                series.push(s);
            }
        }
    }
    let mut figures = vec![w2_figure(series)];
    for sw in &o.sweeps {
        let mut h2 = Series::new("hessian2", "Hessian 2");
        let mut h21 = Series::new("hessian2.1", "Hessian 2.1");
        for p in &sw.points {
            // x: the factor's value (types, instances, characters, calls, ms, Mbit/s)
            h2.points.push(point(p.x, &p.h2));
            h21.points.push(point(p.x, &p.h21));
        }
        figures.push(Figure {
            id: format!("exp1-sweep-{}", sw.id.replace('_', "-")),
            title: format!("Sweep: {}", sw.title),
            kind: "line".into(),
            x_label: sw.what.into(),
            y_label: "median µs".into(),
            chart: Some(format!("exp1-sweep-{}.svg", sw.id.replace('_', "-"))),
            series: vec![h2, h21],
        });
    }
    figures
}

fn outcome_findings(o: &Outcome) -> Vec<String> {
    let mut out = Vec::new();
    let mut pairs: Vec<&str> = o.rows.iter().map(|r| r.pair).collect();
    pairs.dedup();
    for pair in pairs {
        let find = |p: &str| o.rows.iter().find(|r| r.pair == pair && r.protocol == p);
        if let (Some(h2), Some(h21)) = (find("Hessian 2"), find("Hessian 2.1")) {
            out.push(format!(
                "{pair}: after the first call, Hessian 2.1 sends {:.0} request bytes per call against Hessian 2's {:.0} \
                 ({:.0} %) and receives {:.0} reply bytes against {:.0} ({:.0} %); median round trip {:.1} µs against \
                 {:.1} µs ({:.0} %), mean {:.1} against {:.1} ({:.0} %); {} resends.",
                h21.request,
                h2.request,
                100.0 * h21.request / h2.request.max(1.0),
                h21.reply,
                h2.reply,
                100.0 * h21.reply / h2.reply.max(1.0),
                h21.times.median,
                h2.times.median,
                100.0 * h21.times.median / h2.times.median.max(1e-9),
                h21.times.mean,
                h2.times.mean,
                100.0 * h21.times.mean / h2.times.mean.max(1e-9),
                h21.resends
            ));
        }
    }
    for sw in &o.sweeps {
        let bytes: Vec<String> = sw
            .points
            .iter()
            .map(|p| {
                format!("{}: {:.0} % of the request bytes", p.label, 100.0 * p.h21.request / p.h2.request.max(1.0))
            })
            .collect();
        out.push(format!("Sweep `{}` ({}), Hessian 2.1 against 2: {}.", sw.id, sw.what, bytes.join(", ")));
    }
    if let Some(why) = &o.java_skipped {
        out.push(format!("No Java rows in this run: {why}."));
    }
    out
}
