//! `hessian load`: a load generator for any Hessian or Burlap endpoint (in the manner of `ghz`
//! for gRPC or `h2load` for HTTP/2): a fixed number of calls or a duration, at a concurrency,
//! after a warm-up; prints calls, errors, faults, throughput, latency percentiles and a
//! histogram, and the request and reply body bytes per call (`--json`: one JSON object).

use crate::{stdout_err, CliError};
use hessian::{Call, Limits};
use hessian_rpc::protocol::{decode_call, Dialect};
use hessian_rpc::{Client, Error};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The protocol `hessian load` speaks.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadProtocol {
    /// Hessian 2.0, plain (no type negotiation).
    H2,
    /// Hessian 2.0 with type negotiation ("Hessian 2.1", docs/negotiation.md).
    #[value(name = "h2.1")]
    H21,
    /// Hessian 1.0.2.
    H1,
    /// The `c 2 0` call Java's proxy sends, answered in Hessian 2.
    Hybrid,
    /// Burlap 1.0.
    Burlap,
}

impl LoadProtocol {
    fn dialect(self) -> Dialect {
        match self {
            LoadProtocol::H2 | LoadProtocol::H21 => Dialect::HESSIAN2,
            LoadProtocol::H1 => Dialect::HESSIAN1,
            LoadProtocol::Hybrid => Dialect::HYBRID,
            LoadProtocol::Burlap => Dialect::BURLAP,
        }
    }

    fn name(self) -> &'static str {
        match self {
            LoadProtocol::H2 => "h2",
            LoadProtocol::H21 => "h2.1",
            LoadProtocol::H1 => "h1",
            LoadProtocol::Hybrid => "hybrid",
            LoadProtocol::Burlap => "burlap",
        }
    }
}

/// Arguments of `hessian load`.
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// The service URL, e.g. `http://127.0.0.1:8080/bench`.
    pub url: String,
    /// The method name (omit it with `--call`).
    pub method: Option<String>,
    /// The arguments, one typed-JSON value each (e.g. `100`, `'"text"'`, `'{"long": 7}'`).
    pub args: Vec<String>,
    /// Replay a captured call message instead (Hessian 2, Hessian 1, the hybrid or Burlap,
    /// detected from its bytes), re-encoded in `--protocol`.
    #[arg(long, value_name = "FILE", conflicts_with = "method")]
    pub call: Option<PathBuf>,
    /// Measured calls (ignored with `--duration`).
    #[arg(short = 'n', long = "calls", default_value_t = 1000)]
    pub calls: u64,
    /// Calls in flight at once (one connection each).
    #[arg(short = 'c', long, default_value_t = 1)]
    pub concurrency: usize,
    /// Measure for this many seconds instead of a number of calls.
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// Calls made before measuring (connections opened, type maps learned, JIT warmed).
    #[arg(long, default_value_t = 100)]
    pub warmup: u64,
    /// The protocol of the calls.
    #[arg(long, value_enum, default_value = "h2")]
    pub protocol: LoadProtocol,
    /// Seconds to wait for each reply.
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
    /// Print the results as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// What one worker saw.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: u64,
    faults: u64,
    first_error: Option<String>,
}

/// Runs `hessian load`.
pub fn load(a: LoadArgs) -> Result<(), CliError> {
    let call = the_call(&a)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| CliError::Io { path: "<runtime>".into(), source })?;
    let concurrency = a.concurrency.max(1);
    let client = Client::builder()
        .dialect(a.protocol.dialect())
        .type_maps(a.protocol == LoadProtocol::H21)
        .timeout(Duration::from_secs(a.timeout))
        .pool_max_idle_per_host(concurrency)
        .build();
    let proxy = client.proxy(&a.url)?;
    let report = rt.block_on(async {
        // warm-up: the same concurrency, not measured
        let warm = run(&proxy, &call, concurrency, Limit::Calls(a.warmup)).await;
        let before = client.type_map_stats();
        let limit = match a.duration {
            Some(s) if s > 0.0 => Limit::Until(Instant::now() + Duration::from_secs_f64(s)),
            _ => Limit::Calls(a.calls),
        };
        let started = Instant::now();
        let tallies = run(&proxy, &call, concurrency, limit).await;
        let elapsed = started.elapsed();
        let after = client.type_map_stats();
        Report::new(&a, tallies, elapsed, warm.iter().map(|t| t.errors + t.faults).sum(), before, after)
    });
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.json {
        serde_json::to_writer(&mut out, &report.json()).map_err(|e| stdout_err(e.into()))?;
        out.write_all(b"\n").map_err(stdout_err)?;
    } else {
        report.print(&mut out).map_err(stdout_err)?;
    }
    out.flush().map_err(stdout_err)?;
    if report.calls == 0 || report.errors + report.faults > 0 {
        return Err(CliError::Load(format!(
            "{} of {} calls failed{}",
            report.errors + report.faults,
            report.calls + report.errors + report.faults,
            report.first_error.as_deref().map(|e| format!(" (first: {e})")).unwrap_or_default()
        )));
    }
    Ok(())
}

/// The call to make: the method and typed-JSON arguments, or a captured call message.
fn the_call(a: &LoadArgs) -> Result<Call, CliError> {
    if let Some(path) = &a.call {
        let data = std::fs::read(path).map_err(|source| CliError::Io { path: path.display().to_string(), source })?;
        let bad = |message: String| CliError::Load(format!("{}: {message}", path.display()));
        let dialect = Dialect::detect(&data).ok_or_else(|| bad("not a Hessian or Burlap call".into()))?;
        let mut call = decode_call(dialect, &data, Limits::default()).map_err(|e| bad(e.to_string()))?;
        if a.protocol.dialect().call == hessian_rpc::Protocol::Hessian2 {
            call.headers.clear(); // Hessian 2 calls carry no headers
        }
        return Ok(call);
    }
    let Some(method) = &a.method else {
        return Err(CliError::Load("give a METHOD (and its arguments) or --call FILE".into()));
    };
    Ok(Call::new(method.clone(), crate::rpc::call_args(&a.args)?))
}

#[derive(Clone, Copy)]
enum Limit {
    Calls(u64),
    Until(Instant),
}

/// Runs `concurrency` workers sharing the calls (or the time) of `limit`.
async fn run(proxy: &hessian_rpc::Proxy, call: &Call, concurrency: usize, limit: Limit) -> Vec<Tally> {
    let taken = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::with_capacity(concurrency);
    for _ in 0..concurrency {
        let (proxy, call, taken) = (proxy.clone(), call.clone(), taken.clone());
        tasks.push(tokio::spawn(async move {
            let mut t = Tally::default();
            loop {
                let more = match limit {
                    Limit::Calls(n) => taken.fetch_add(1, Ordering::Relaxed) < n,
                    Limit::Until(end) => Instant::now() < end,
                };
                if !more {
                    break;
                }
                let t0 = Instant::now();
                match proxy.call_with(call.clone()).await {
                    Ok(_) => t.latencies.push(t0.elapsed()),
                    Err(e) => {
                        if matches!(e, Error::Fault(_)) {
                            t.faults += 1;
                        } else {
                            t.errors += 1;
                        }
                        t.first_error.get_or_insert_with(|| e.to_string());
                    }
                }
            }
            t
        }));
    }
    let mut out = Vec::with_capacity(concurrency);
    for task in tasks {
        match task.await {
            Ok(t) => out.push(t),
            Err(e) => {
                out.push(Tally { errors: 1, first_error: Some(format!("worker failed: {e}")), ..Tally::default() })
            }
        }
    }
    out
}

/// The results of a run.
struct Report {
    url: String,
    protocol: &'static str,
    concurrency: usize,
    calls: u64,
    errors: u64,
    faults: u64,
    warmup_failures: u64,
    first_error: Option<String>,
    elapsed: Duration,
    /// Sorted.
    latencies: Vec<Duration>,
    request_bytes: f64,
    reply_bytes: f64,
    resends: u64,
}

impl Report {
    fn new(
        a: &LoadArgs,
        tallies: Vec<Tally>,
        elapsed: Duration,
        warmup_failures: u64,
        before: hessian_rpc::negotiation::ClientStats,
        after: hessian_rpc::negotiation::ClientStats,
    ) -> Report {
        let mut latencies = Vec::new();
        let (mut errors, mut faults, mut first_error) = (0, 0, None);
        for t in tallies {
            latencies.extend(t.latencies);
            errors += t.errors;
            faults += t.faults;
            first_error = first_error.or(t.first_error);
        }
        latencies.sort_unstable();
        let calls = latencies.len() as u64;
        let sent = (after.calls - before.calls).max(1) as f64;
        Report {
            url: a.url.clone(),
            protocol: a.protocol.name(),
            concurrency: a.concurrency.max(1),
            calls,
            errors,
            faults,
            warmup_failures,
            first_error,
            elapsed,
            latencies,
            request_bytes: (after.request_bytes - before.request_bytes) as f64 / sent,
            reply_bytes: (after.reply_bytes - before.reply_bytes) as f64 / sent,
            resends: after.resends - before.resends,
        }
    }

    /// The latency at quantile `q` (0..=1), in µs.
    fn quantile_us(&self, q: f64) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies.len() as f64 * q).ceil() as usize).clamp(1, self.latencies.len()) - 1;
        self.latencies[i].as_secs_f64() * 1e6
    }

    fn mean_us(&self) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        self.latencies.iter().map(Duration::as_secs_f64).sum::<f64>() * 1e6 / self.latencies.len() as f64
    }

    fn rate(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Latency histogram: (upper bound in µs, count), buckets doubling from 16 µs.
    fn histogram(&self) -> Vec<(f64, u64)> {
        let mut buckets: Vec<(f64, u64)> = Vec::new();
        let mut bound = 16.0;
        let mut i = 0;
        while i < self.latencies.len() {
            let mut n = 0;
            while i < self.latencies.len() && self.latencies[i].as_secs_f64() * 1e6 <= bound {
                n += 1;
                i += 1;
            }
            if n > 0 || !buckets.is_empty() {
                buckets.push((bound, n));
            }
            bound *= 2.0;
        }
        buckets
    }

    fn json(&self) -> serde_json::Value {
        let q = |x: f64| serde_json::json!((x * 10.0).round() / 10.0);
        serde_json::json!({
            "url": self.url,
            "protocol": self.protocol,
            "concurrency": self.concurrency,
            "calls": self.calls,
            "errors": self.errors,
            "faults": self.faults,
            "warmup_failures": self.warmup_failures,
            "first_error": self.first_error,
            "seconds": self.elapsed.as_secs_f64(),
            "calls_per_second": q(self.rate()),
            "latency_us": {
                "mean": q(self.mean_us()),
                "p50": q(self.quantile_us(0.5)),
                "p90": q(self.quantile_us(0.9)),
                "p99": q(self.quantile_us(0.99)),
                "p999": q(self.quantile_us(0.999)),
                "max": q(self.quantile_us(1.0)),
            },
            "histogram_us": self.histogram().iter().map(|(b, n)| serde_json::json!([b, n])).collect::<Vec<_>>(),
            "request_bytes_per_call": q(self.request_bytes),
            "reply_bytes_per_call": q(self.reply_bytes),
            "resends": self.resends,
        })
    }

    fn print(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "{} ({}, {} in flight)", self.url, self.protocol, self.concurrency)?;
        writeln!(
            out,
            "  calls {}  errors {}  faults {}  in {:.2} s  = {:.0} calls/s",
            self.calls,
            self.errors,
            self.faults,
            self.elapsed.as_secs_f64(),
            self.rate()
        )?;
        writeln!(
            out,
            "  latency µs: mean {:.1}  p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}",
            self.mean_us(),
            self.quantile_us(0.5),
            self.quantile_us(0.9),
            self.quantile_us(0.99),
            self.quantile_us(0.999),
            self.quantile_us(1.0)
        )?;
        writeln!(
            out,
            "  bytes per call: request {:.0}, reply {:.0}{}",
            self.request_bytes,
            self.reply_bytes,
            if self.resends > 0 { format!("  ({} resends)", self.resends) } else { String::new() }
        )?;
        let hist = self.histogram();
        let most = hist.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
        writeln!(out, "  histogram:")?;
        for (bound, n) in hist {
            let bar = "#".repeat(((n * 40).div_ceil(most)) as usize);
            writeln!(out, "    <= {bound:>9.0} µs {n:>9} {bar}")?;
        }
        if let Some(e) = &self.first_error {
            writeln!(out, "  first error: {e}")?;
        }
        Ok(())
    }
}
