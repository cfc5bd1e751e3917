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
use hessian_bench::negotiation::{self, Config, Outcome, RemoteServers, Row, BLOCKS};
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

/// The servers of experiment 1 on the server machine (`--servers`): the demo server, and Caucho's
/// skeleton and `NegotiatingServer` when they run there (else why not).
fn remote_servers(
    remote: &Result<crate::seed::remote::Remote, String>,
) -> Result<(RemoteServers, Option<String>), String> {
    let r = remote.as_ref().map_err(String::clone)?;
    let rust = r.backend("exp1-rust")?.socket_addr()?;
    let java = r
        .backend("exp1-java-plain")
        .and_then(|p| p.socket_addr())
        .and_then(|p| Ok((p, r.backend("exp1-java-negotiating")?.socket_addr()?)));
    Ok(match java {
        Ok(java) => (RemoteServers { rust, java: Some(java) }, None),
        Err(why) => (RemoteServers { rust, java: None }, Some(why)),
    })
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
        c.sweep_rounds = 10;
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the suite's executable: {e}"))?;
    // one thread: both clients of a pair served alike (see `negotiation::Config::rust_server`)
    c.rust_server = vec![exe.into(), "serve".into(), "demo-1".into()];
    c.java = java;
    c.quiet = true;
    Ok(c)
}

/// The suite's id of a pairing (`rust-rust`, `java-rust`, …).
fn pair_id(pair: &str) -> String {
    pair.to_lowercase().replace(" → ", "-")
}

/// The suite's id of a row (`rust-rust-hessian2.1`, `java-rust-hessian1`, …).
fn row_id(r: &Row) -> String {
    format!("{}-{}", pair_id(r.pair), r.protocol.to_lowercase().replace(' ', ""))
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
    // the spread of the row's block medians (the blocks of an interleaved row, the rounds of a
    // sweep point): its repeatability, flagged above `rounds::FLAG` as experiment 2's rounds
    let (lo, hi) = negotiation::min_max(&r.block_medians);
    if !r.block_medians.is_empty() {
        values.insert("rounds".into(), r.block_medians.len() as f64);
        values.insert("round_median_min".into(), lo);
        values.insert("round_median_max".into(), hi);
        if t.median > 0.0 {
            values.insert("round_spread".into(), (hi - lo) / t.median);
        }
    }
    Point { x, time_us, values }
}

/// Runs experiment 1.
pub fn run(opts: &Options, pb: &ProgressBar) -> Experiment {
    let t0 = Instant::now();
    let wanted: Vec<&str> = ["hessian1", "hessian2", "hessian2.1"].into_iter().filter(|p| opts.protocol(p)).collect();
    pb.set_length(1);
    pb.set_message("W2 rows and sweeps");
    let mut java = javapeer::java();
    let outcome = match &opts.remote {
        None => config(opts.mode, java.is_ok()).and_then(|c| negotiation::run(&c)),
        // with `--servers`: the Java rows need Java here (their clients) and there (the servers)
        Some(remote) => remote_servers(remote).and_then(|(servers, no_java)| {
            if let (Some(why), true) = (no_java, java.is_ok()) {
                java = Err((false, why));
            }
            let mut c = config(opts.mode, java.is_ok())?;
            c.remote = Some(servers);
            negotiation::run(&c)
        }),
    };
    pb.inc(1);
    let (warmup, measured) = counts(opts.mode);
    let (java_warmup, server_warmup) = config(opts.mode, false)
        .map(|c| (c.java_warmup.as_secs_f64(), c.java_server_warmup.as_secs_f64()))
        .unwrap_or_default();
    let sweep_rounds = config(opts.mode, false).map(|c| c.sweep_rounds).unwrap_or_default();
    let flag = 100.0 * crate::seed::rounds::FLAG;
    let mut figures = Vec::new();
    let mut findings = Vec::new();
    match outcome {
        Ok(o) => {
            figures = outcome_figures(&o, &wanted, &java);
            findings = outcome_findings(&o);
            findings.push(crate::seed::study::article1::section(&o));
        }
        Err(e) => {
            let mut s = Series::new("negotiation", "W2 rows and sweeps");
            s.fail(e);
            figures.push(w2_figure(vec![s.clone()]));
            figures.push(ratio_fig(vec![s]));
        }
    }
    pb.set_message("W2 under load");
    let (load, socket) = load_figure(opts, &wanted, &java);
    if let Some(w2) = figures.iter_mut().find(|f| f.id == "exp1-w2") {
        put_socket_bytes(w2, &socket);
    }
    findings.extend(load_findings(&load));
    figures.push(load);
    Experiment {
        id: "1".into(),
        name: "negotiation".into(),
        title: "Experiment 1: type negotiation (W2 exchange, Hessian 1 / 2 / 2.1)".into(),
        method: format!(
            "W2 `exchange(Order)` over loopback HTTP/1.1 keep-alive, servers in their own processes: the Rust typed \
             client (`hessian_demo::BenchClient`, type maps on only for 2.1) and the Rust demo server; Caucho's \
             `HessianProxyFactory` and `HessianSkeleton` (behind the JDK's HTTP server), with the Java side of the \
             extension (`NegotiatingProxyFactory`, `NegotiatingServer` in `interop/java`) for 2.1; and the two \
             crossings. In every pairing Hessian 2 and 2.1 are measured interleaved: one client process holds two \
             clients, Hessian 2 (type maps off, to the plain server: the Rust demo server, or Caucho's skeleton \
             as it is, `RpcJavaServer`) and 2.1 (type maps on, to the Rust demo server or `NegotiatingServer`), \
             both servers running (the Rust demo server on one thread, `seed serve demo-1`, so that the two \
             clients' connections are served alike); after each client's first call (for 2.1 the plain call that establishes the \
             maps, shown apart) they make warm-up rounds ({warmup} at least, and at least {java_warmup} s with a \
             Java client, whose JVM starts cold; {server_warmup} s Rust to Java, whose servers are warm from \
             Java to Java), then {measured} measured rounds, one call of each per round, which one first \
             alternating, so that a drift in the machine's load falls on both alike. Figure `exp1-w2-ratio` is the \
             2.1 median over the Hessian 2 median of each pairing, with its spread: the same ratio in each of \
             {BLOCKS} consecutive blocks of rounds (min–max), the median of the per-round ratios and of the \
             per-round differences (95 % confidence interval of the sign test). Hessian 1 is a third client in the \
             same rounds (one call of each of the three per round, in an order that rotates from round to round and \
             runs backwards every other round; with a Java server, Hessian 1 calls a skeleton of its own, so that \
             each Java server's JIT sees one protocol). A W2 row's spread is the lowest and highest median of its \
             {BLOCKS} blocks of consecutive rounds (⚠ above {flag:.0} % of its median). Every reply is checked. \
             Bytes are HTTP bodies as each client counts them. The sweeps (Rust to Rust, Hessian 2 against 2.1, \
             alternating) vary one factor each, **in rounds**: {sweep_rounds} rounds, each running a batch of \
             every point of the sweep (new clients, their share of the warm-up and measured calls) in a rotating \
             order, the spread being the lowest and highest round median (⚠ above {flag:.0} %); latency and bandwidth go through a delaying TCP proxy in the client's process (`tc netem` \
             is not available here). Rerun alone: `target/release/negotiation_bench` (see `BENCHMARKS.md`). \
             Figure `exp1-load` is W2 under load: `hessian load`'s engine (`hessian_rpc::load`), one connection per \
             call in flight, the client on a two-thread runtime, against the Rust demo server and Java's (Caucho's \
             skeleton behind the JDK's HTTP server; `NegotiatingServer` for 2.1), **in rounds**: every row first \
             makes {} warm-up calls and then calls for {} s at 16 in flight (its servers' JIT), then {} rounds each run \
             a batch of every row \
             at every number of calls in flight (a new client: {} warm-up calls, at least one per connection, then \
             measured calls for {} s; {} s in all per point), the batches in an order that rotates each round and runs \
             backwards every other round. A point's calls per second is the median of its rounds' rates, with the \
             slowest and fastest round in brackets (⚠ when they spread more than {:.0} % of the median); its latencies \
             are over all its measured calls. In each batch one typed reply is checked first, then only the statuses.",
            load_warmup(opts.mode),
            load_prewarm_secs(opts.mode),
            load_rounds(opts.mode),
            load_batch(opts.mode, 1).0,
            load_batch_secs(opts.mode),
            load_batch_secs(opts.mode) * load_rounds(opts.mode) as f64,
            100.0 * crate::seed::rounds::FLAG,
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

fn ratio_fig(series: Vec<Series>) -> Figure {
    Figure {
        id: "exp1-w2-ratio".into(),
        title: format!("W2 interleaved: 2.1 ÷ Hessian 2 median round trip, whiskers min–max of {BLOCKS} blocks"),
        kind: "bar".into(),
        x_label: "client → server".into(),
        y_label: "2.1 median ÷ Hessian 2 median".into(),
        chart: Some("exp1-w2-ratio.svg".into()),
        series,
    }
}

/// The interleaved comparison of each pairing: one series per pairing, its point's `time_us` the
/// 2.1 calls' round trips and its values the ratios and their spread.
fn ratio_figure(o: &Outcome, java: &Result<hessian_testkit::java::Java, (bool, String)>) -> Figure {
    let mut series = Vec::new();
    for (h2, h21) in negotiation::pairs(&o.rows) {
        let mut s = Series::new(&format!("ratio-{}", pair_id(h21.pair)), h21.pair);
        let Some(p) = &h21.paired else {
            s.fail("too few rounds for a paired comparison");
            series.push(s);
            continue;
        };
        let t = &h21.times;
        let time_us = Summary { n: h21.calls, mean: t.mean, median: t.median, p99: t.p99, min: t.min, max: t.max };
        let mut values = crate::seed::rounds::paired_values(p, "share_of_rounds_21_faster");
        values.remove("pairs");
        values.insert("hessian2_median_us".into(), h2.times.median);
        values.insert("hessian21_median_us".into(), h21.times.median);
        s.notes.insert("block ratios, in order".into(), crate::seed::rounds::block_note(p));
        s.points.push(Point { x: 0.0, time_us, values });
        series.push(s);
    }
    if let Err((skip, why)) = java {
        for pair in ["Java → Java", "Rust → Java", "Java → Rust"] {
            let mut s = Series::new(&format!("ratio-{}", pair_id(pair)), pair);
            if *skip {
                s.skip(why.clone());
            } else {
                s.fail(why.clone());
            }
            series.push(s);
        }
    }
    ratio_fig(series)
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
            if r.interleaved {
                s.notes.insert(
                    "measured".into(),
                    "interleaved call by call with the other two protocols' clients (Hessian 2 against 2.1: figure \
                     exp1-w2-ratio)"
                        .into(),
                );
            }
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
    let mut figures = vec![w2_figure(series), ratio_figure(o, java)];
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
    for (h2, h21) in negotiation::pairs(&o.rows) {
        let pair = h21.pair;
        let mut text = format!(
            "{pair}: after the first call, Hessian 2.1 sends {:.0} request bytes per call against Hessian 2's {:.0} \
             ({:.0} %) and receives {:.0} reply bytes against {:.0} ({:.0} %). Interleaved, median round trip {:.1} µs \
             against {:.1} µs",
            h21.request,
            h2.request,
            100.0 * h21.request / h2.request.max(1.0),
            h21.reply,
            h2.reply,
            100.0 * h21.reply / h2.reply.max(1.0),
            h21.times.median,
            h2.times.median,
        );
        match &h21.paired {
            Some(p) => {
                let (lo, hi) = p.block_range();
                let (rlo, rhi) = p.block_round_range();
                text.push_str(&format!(
                    ": 2.1 ÷ Hessian 2 = **{:.3}** (in {} blocks of {} rounds {:.3} to {:.3}); per round, the median \
                     ratio {:.3} (blocks {:.3} to {:.3}) and the median difference {:+.2} µs (95 % CI {:+.2} to \
                     {:+.2}), 2.1 the faster in {:.0} % of the rounds",
                    p.ratio,
                    p.block_ratios.len(),
                    p.rounds.div_ceil(p.block_ratios.len().max(1)),
                    lo,
                    hi,
                    p.round_ratio,
                    rlo,
                    rhi,
                    p.median,
                    p.low,
                    p.high,
                    100.0 * p.faster
                ));
            }
            None => text.push_str(&format!(" ({:.0} %)", 100.0 * h21.times.median / h2.times.median.max(1e-9))),
        }
        text.push_str(&format!("; {} resends.", h21.resends));
        out.push(text);
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

/// Warm-up calls per row of the load figure in `mode`, before the rounds (each round's batch
/// then makes its share of them first).
fn load_warmup(mode: Mode) -> u64 {
    match mode {
        Mode::Tiny => 4,
        Mode::Quick => 200,
        Mode::Full => 2000,
    }
}

/// Seconds of calls at 16 in flight after a row's warm-up calls, before the rounds: the Java
/// servers' JIT needs seconds (200 calls took 40 ms), as experiment 2's pre-warm found.
fn load_prewarm_secs(mode: Mode) -> f64 {
    match mode {
        Mode::Tiny => 0.05,
        Mode::Quick => 1.5,
        Mode::Full => 5.0,
    }
}

/// Seconds of measured calls per batch of the load figure in `mode`: a batch runs for a time,
/// not a number of calls, so that a fast row's batch is not over in a few milliseconds, where
/// one scheduling hiccup halves its rate (400 calls of the Rust server at 1 in flight took 13 ms).
fn load_batch_secs(mode: Mode) -> f64 {
    match mode {
        Mode::Tiny => 0.02,
        Mode::Quick => 0.2,
        Mode::Full => 1.0,
    }
}

/// Rounds of the load figure in `mode`: each runs a batch of every row at every number of calls
/// in flight, in a rotating order ([`crate::seed::rounds::order`]).
fn load_rounds(mode: Mode) -> u64 {
    match mode {
        Mode::Tiny => 2,
        Mode::Quick => 5,
        Mode::Full => 10,
    }
}

/// One batch of the load figure at `c` calls in flight in `mode`: its warm-up calls (at least
/// one per connection) and how long its measured calls run.
fn load_batch(mode: Mode, c: usize) -> (u64, hessian_rpc::load::Limit) {
    let warmup = (load_warmup(mode) / load_rounds(mode)).max(c as u64);
    (warmup, hessian_rpc::load::Limit::Time(std::time::Duration::from_secs_f64(load_batch_secs(mode))))
}

/// Where a row of the load figure calls: the URL, the dialect and whether with type maps.
type Target = (String, hessian_rpc::Dialect, bool);

/// Calls in flight at the points of the load figure.
const IN_FLIGHT: [usize; 4] = [1, 4, 16, 64];

/// W2 `exchange` under load (`hessian_rpc::load`, the engine of `hessian load`): calls per second
/// and latency at 1 to 64 calls in flight, Hessian 1, 2 and 2.1, against the Rust and the Java
/// server.
fn load_figure(
    opts: &Options,
    wanted: &[&str],
    java: &Result<hessian_testkit::java::Java, (bool, String)>,
) -> (Figure, SocketBytes) {
    use crate::seed::procs::Server;
    use crate::seed::remote::{backend, Backend};
    use hessian_rpc::Dialect;
    let mode = opts.mode;
    let protocols: [(&str, &str, Dialect, bool); 3] = [
        ("hessian1", "Hessian 1", Dialect::HESSIAN1, false),
        ("hessian2", "Hessian 2", Dialect::HESSIAN2, false),
        ("hessian2.1", "Hessian 2.1", Dialect::HESSIAN2, true),
    ];
    let start_java = |main: &str| -> Result<Server, String> {
        let j = java.as_ref().map_err(|(_, why)| why.clone())?;
        let mut cmd = javapeer::command(j, main);
        cmd.arg("0");
        Server::start(main, cmd, std::time::Duration::from_secs(60))
    };
    let remote = opts.remote.as_ref();
    let rust = backend(remote, "exp1-load-rust", || crate::seed::exp2::rust_server("demo"));
    let (java_plain, java_negotiating): (Option<Result<Backend, String>>, _) = match java {
        Ok(_) => (
            Some(backend(remote, "exp1-load-java-plain", || start_java("RpcJavaServer"))),
            Some(backend(remote, "exp1-load-java-negotiating", || start_java("NegotiatingServer"))),
        ),
        Err(_) => (None, None),
    };
    // the rows, each with where it calls (None: it did not start)
    let mut rows: Vec<(Series, Option<Target>)> = Vec::new();
    for (id, label, dialect, type_maps) in protocols.iter().filter(|p| wanted.contains(&p.0)) {
        let java_server = if *type_maps { &java_negotiating } else { &java_plain };
        for (side, server) in [("rust", Some(&rust)), ("java", java_server.as_ref())] {
            let who = if side == "rust" { "Rust server" } else { "Java server (Caucho)" };
            let mut s = Series::new(&format!("load-{side}-{id}"), &format!("{label}, {who}"));
            let target = match (server, java) {
                (None, Err((skip, why))) => {
                    if *skip {
                        s.skip(why.clone());
                    } else {
                        s.fail(why.clone());
                    }
                    None
                }
                (None, Ok(_)) => {
                    s.fail("no server");
                    None
                }
                (Some(Err(e)), _) => {
                    s.fail(e.clone());
                    None
                }
                (Some(Ok(server)), _) => Some((format!("{}/bench", server.base_url()), *dialect, *type_maps)),
            };
            rows.push((s, target));
        }
    }
    // in rounds: each round runs a batch of every row at every number of calls in flight (a
    // new client each), the batches in an order that rotates from round to round, so that a
    // drift in the machine's load (a JVM compiling in the background) falls on every row alike;
    // first, every row warms up (its servers' JIT) at 16 in flight
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build();
    let run = |target: &Target, c: usize, counts: (u64, hessian_rpc::load::Limit)| -> Result<Batch, String> {
        let (url, dialect, type_maps) = target;
        match &rt {
            Ok(rt) => load_batch_run(rt, url, *dialect, *type_maps, c, counts),
            Err(e) => Err(format!("runtime: {e}")),
        }
    };
    for (s, target) in &mut rows {
        let Some(t) = target.as_ref() else { continue };
        let prewarm = std::time::Duration::from_secs_f64(load_prewarm_secs(mode));
        if let Err(e) = run(t, 16, (load_warmup(mode), hessian_rpc::load::Limit::Time(prewarm))) {
            s.fail(format!("warm-up: {e}"));
            *target = None;
        }
    }
    let entries: Vec<(usize, usize)> =
        (0..rows.len()).flat_map(|i| (0..IN_FLIGHT.len()).map(move |k| (i, k))).collect();
    // per row and number in flight: per round, the latencies and the rate
    let mut got: Vec<Vec<Vec<Batch>>> = rows.iter().map(|_| IN_FLIGHT.iter().map(|_| Vec::new()).collect()).collect();
    for round in 0..load_rounds(mode) as usize {
        for e in crate::seed::rounds::order(entries.len(), round) {
            let (i, k) = entries[e];
            let (s, target) = &mut rows[i];
            let Some(t) = target.as_ref() else { continue };
            let c = IN_FLIGHT[k];
            match run(t, c, load_batch(mode, c)) {
                Ok(b) => got[i][k].push(b),
                Err(e) => {
                    s.fail(format!("round {}: {e}", round + 1));
                    *target = None;
                }
            }
        }
    }
    for ((s, target), got) in rows.iter_mut().zip(got) {
        if target.is_some() {
            s.points = IN_FLIGHT.iter().zip(got).map(|(c, batches)| load_point(*c, batches)).collect();
        }
    }
    // the W2 rows' bytes on the socket, through a counting relay in front of these servers (the
    // same programs as the W2 rows')
    let mut bytes = SocketBytes::new();
    if let Ok(rt) = &rt {
        let addr = |b: Option<&Result<Backend, String>>| -> Result<std::net::SocketAddr, String> {
            b.ok_or("no server")?.as_ref().map_err(String::clone)?.socket_addr()
        };
        for (id, _, dialect, type_maps) in protocols.iter().filter(|p| wanted.contains(&p.0)) {
            let java_server = if *type_maps { &java_negotiating } else { &java_plain };
            for (pair, rust_client, server) in [
                ("rust-rust", true, addr(Some(&rust))),
                ("java-rust", false, addr(Some(&rust))),
                ("rust-java", true, addr(java_server.as_ref())),
                ("java-java", false, addr(java_server.as_ref())),
            ] {
                if pair != "rust-rust" && java.is_err() {
                    continue;
                }
                let count = server.and_then(|server| {
                    let relay =
                        hessian_bench::relay::Relay::counting(server).map_err(|e| format!("counting relay: {e}"))?;
                    relay.record(true);
                    let url = format!("http://{}/bench", relay.local_addr());
                    if rust_client {
                        rust_byte_calls(rt, &url, *dialect, *type_maps)?;
                    } else {
                        let j = java.as_ref().map_err(|(_, why)| why.clone())?;
                        java_byte_calls(j, &url, id)?;
                    }
                    // the last bytes (a reply's tail) settle before the recording is read
                    std::thread::sleep(std::time::Duration::from_millis(25));
                    socket_per_call(&relay.taps())
                });
                bytes.insert(format!("{pair}-{id}"), count);
            }
        }
    }
    let series = rows.into_iter().map(|(s, _)| s).collect();
    let figure = Figure {
        id: "exp1-load".into(),
        title: "W2 exchange under load: calls per second against calls in flight".into(),
        kind: "line".into(),
        x_label: "calls in flight".into(),
        y_label: "calls/s".into(),
        chart: Some("exp1-load.svg".into()),
        series,
    };
    (figure, bytes)
}

/// Per W2 row id (`rust-java-hessian2.1`, …): its bytes per call on the socket, or why they
/// could not be counted.
type SocketBytes = BTreeMap<String, Result<Wire, String>>;

/// A W2 row's bytes per counted call: on the socket each way (start lines, headers, bodies)
/// and the bodies, as the relay recorded them.
#[derive(Clone, Copy, Debug)]
struct Wire {
    up: f64,
    down: f64,
    body_up: f64,
    body_down: f64,
}

/// Uncounted and counted calls of a byte count: the uncounted ones set up the connection (and
/// Hessian 2.1's type maps).
const BYTE_CALLS: (usize, usize) = (2, 5);

/// The Rust client's calls of a byte count: every reply checked.
fn rust_byte_calls(
    rt: &tokio::runtime::Runtime,
    url: &str,
    dialect: hessian_rpc::Dialect,
    type_maps: bool,
) -> Result<(), String> {
    use hessian_testkit::structs::w2;
    let client = hessian_rpc::Client::builder().dialect(dialect).type_maps(type_maps).build();
    let bench = hessian_demo::BenchClient::new(client.proxy(url).map_err(|e| e.to_string())?);
    let expected = w2::reply();
    rt.block_on(async {
        for i in 0..BYTE_CALLS.0 + BYTE_CALLS.1 {
            let got = bench.exchange(w2::request()).await.map_err(|e| format!("byte count, call {i}: {e}"))?;
            crate::seed::exp2::check_order(&got, &expected).map_err(|e| format!("byte count, call {i}: {e}"))?;
        }
        Ok(())
    })
}

/// The Java client's calls of a byte count: `NegotiationBench MODE URL WARMUP CALLS`, which
/// checks every reply (and exits 1 on a wrong one).
fn java_byte_calls(java: &hessian_testkit::java::Java, url: &str, protocol: &str) -> Result<(), String> {
    let mode = match protocol {
        "hessian1" => "h1",
        "hessian2" => "h2",
        _ => "h21",
    };
    let mut cmd = javapeer::command(java, "NegotiationBench");
    cmd.args([mode, url, &BYTE_CALLS.0.to_string(), &BYTE_CALLS.1.to_string()]);
    let out = crate::seed::procs::run_client("NegotiationBench", cmd, std::time::Duration::from_secs(120))?;
    if !out.lines().any(|l| l.starts_with("RESULT ")) {
        return Err(format!("NegotiationBench printed no result: {}", out.trim()));
    }
    Ok(())
}

/// Bytes per call of the last [`BYTE_CALLS`]`.1` requests and replies of a relay's recording
/// (its connections in order): on the socket and the bodies. It must hold every call: a client
/// that went around the relay fails the count.
fn socket_per_call(taps: &[hessian_bench::relay::Tap]) -> Result<Wire, String> {
    use crate::seed::wire::http1_messages;
    let (mut up, mut down) = (Vec::new(), Vec::new());
    for t in taps {
        up.extend(http1_messages(&t.up, false)?);
        // 1xx replies (a `100 Continue`) are not the calls' replies
        down.extend(http1_messages(&t.down, true)?.into_iter().filter(|m| m.1 > 0));
    }
    let (warm, k) = BYTE_CALLS;
    if up.len() != warm + k || down.len() != warm + k {
        return Err(format!("the relay saw {} requests and {} replies for {} calls", up.len(), down.len(), warm + k));
    }
    let per = |m: &[(u64, u64)], f: fn(&(u64, u64)) -> u64| m[warm..].iter().map(f).sum::<u64>() as f64 / k as f64;
    Ok(Wire {
        up: per(&up, |m| m.0),
        down: per(&down, |m| m.0),
        body_up: per(&up, |m| m.1),
        body_down: per(&down, |m| m.1),
    })
}

/// Puts the W2 rows' socket bytes (`request_socket_bytes`, `reply_socket_bytes`) into the
/// figure's points; a body count that differs from the client's own, or a count that failed,
/// is noted on the row (a failed count also fails the row).
fn put_socket_bytes(f: &mut Figure, bytes: &SocketBytes) {
    for s in &mut f.series {
        let Some(count) = bytes.get(&s.id) else { continue };
        match count {
            Ok(w) => {
                let Some(p) = s.points.first_mut() else { continue };
                p.values.insert("request_socket_bytes".into(), w.up);
                p.values.insert("reply_socket_bytes".into(), w.down);
                let client = (p.values.get("request_bytes").copied(), p.values.get("reply_bytes").copied());
                let differs = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() > 0.5);
                if differs(client.0, w.body_up) || differs(client.1, w.body_down) {
                    s.notes.insert(
                        "bytes check".into(),
                        format!(
                            "the client counted {:.0} / {:.0} body bytes, the relay's recording {:.0} / {:.0}",
                            client.0.unwrap_or(f64::NAN),
                            client.1.unwrap_or(f64::NAN),
                            w.body_up,
                            w.body_down
                        ),
                    );
                }
            }
            Err(e) => {
                if s.status == crate::seed::results::Status::Ok {
                    s.points.clear();
                    s.fail(format!("byte count: {e}"));
                }
            }
        }
    }
}

/// One batch of the load figure: the latencies of its measured calls and their rate, and the
/// bytes per call.
struct Batch {
    latencies: Vec<std::time::Duration>,
    rate: f64,
    request_bytes: f64,
    reply_bytes: f64,
    resends: u64,
}

/// One batch of a row of the load figure: a checked call, then the run at `c` calls in flight
/// (a new client: `warmup` calls, then measured calls until `limit`).
fn load_batch_run(
    rt: &tokio::runtime::Runtime,
    url: &str,
    dialect: hessian_rpc::Dialect,
    type_maps: bool,
    c: usize,
    (warmup, limit): (u64, hessian_rpc::load::Limit),
) -> Result<Batch, String> {
    use hessian_testkit::structs::w2;
    let request = hessian::serde::to_value(&w2::request()).map_err(|e| e.to_string())?;
    let call = hessian_rpc::Call::new("exchange", vec![request]);
    let client = hessian_rpc::Client::builder().dialect(dialect).type_maps(type_maps).pool_max_idle_per_host(c).build();
    let proxy = client.proxy(url).map_err(|e| e.to_string())?;
    // one checked reply: a fast wrong answer must fail the row
    let typed =
        rt.block_on(proxy.call_typed::<_, w2::Order>("exchange", (w2::request(),))).map_err(|e| e.to_string())?;
    crate::seed::exp2::check_order(&typed, &w2::reply())?;
    let r = rt.block_on(hessian_rpc::load::run(&client, &proxy, &call, c, warmup, limit));
    if r.errors + r.faults > 0 || r.calls == 0 {
        return Err(format!(
            "{} in flight: {} of {} calls failed ({})",
            c,
            r.errors + r.faults,
            r.calls + r.errors + r.faults,
            r.first_error.unwrap_or_default()
        ));
    }
    Ok(Batch {
        rate: r.rate(),
        request_bytes: r.request_bytes,
        reply_bytes: r.reply_bytes,
        resends: r.resends,
        latencies: r.latencies,
    })
}

/// A point of the load figure from its batches, one per round: the latencies of all measured
/// calls; calls per second the median of the rounds' rates, with their min–max and spread
/// ((max − min) ÷ median, flagged above [`crate::seed::rounds::FLAG`]).
fn load_point(c: usize, batches: Vec<Batch>) -> Point {
    let mut rates: Vec<f64> = batches.iter().map(|b| b.rate).collect();
    rates.sort_by(f64::total_cmp);
    let rate = rates.get(rates.len() / 2).copied().unwrap_or(0.0);
    let latencies: Vec<std::time::Duration> = batches.iter().flat_map(|b| b.latencies.iter().copied()).collect();
    let k = batches.len().max(1) as f64;
    let mut values = BTreeMap::new();
    values.insert("calls_per_second".into(), rate);
    values.insert("request_bytes".into(), batches.iter().map(|b| b.request_bytes).sum::<f64>() / k);
    values.insert("reply_bytes".into(), batches.iter().map(|b| b.reply_bytes).sum::<f64>() / k);
    values.insert("resends".into(), batches.iter().map(|b| b.resends as f64).sum());
    values.insert("rounds".into(), batches.len() as f64);
    if let (Some(lo), Some(hi)) = (rates.first(), rates.last()) {
        values.insert("round_rate_min".into(), *lo);
        values.insert("round_rate_max".into(), *hi);
        if rate > 0.0 {
            values.insert("round_spread".into(), (hi - lo) / rate);
        }
    }
    Point { x: c as f64, time_us: Summary::of(&latencies), values }
}

fn load_findings(f: &Figure) -> Vec<String> {
    f.series
        .iter()
        .filter(|s| !s.points.is_empty())
        .map(|s| {
            let cells: Vec<String> = s
                .points
                .iter()
                .map(|p| {
                    format!(
                        "{:.0} calls/s at {} in flight (median {:.0} µs)",
                        p.values.get("calls_per_second").copied().unwrap_or(0.0),
                        p.x,
                        p.time_us.median
                    )
                })
                .collect();
            format!("Under load, {}: {}.", s.label, cells.join(", "))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_measures_in_rounds() {
        for mode in [Mode::Tiny, Mode::Quick, Mode::Full] {
            // the load figure: several rounds, each batch at least one call per connection
            assert!(load_rounds(mode) >= 2, "{mode:?}");
            assert!(load_batch_secs(mode) > 0.0, "{mode:?}");
            for c in IN_FLIGHT {
                assert!(load_batch(mode, c).0 >= c as u64, "{mode:?} {c}");
            }
            // the sweeps: several rounds, each with its share of the calls
            let c = config(mode, false).unwrap_or_else(|e| panic!("{e}"));
            assert!(c.sweep_rounds >= 2 && c.sweep_calls >= c.sweep_rounds, "{mode:?}");
        }
        assert_eq!(config(Mode::Full, false).map(|c| c.sweep_rounds).ok(), Some(10));
    }
}
