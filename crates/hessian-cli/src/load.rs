//! `hessian load`: a load generator for any Hessian or Burlap endpoint (in the manner of `ghz`
//! for gRPC or `h2load` for HTTP/2): a fixed number of calls or a duration, at a concurrency,
//! after a warm-up; prints calls, errors, faults, throughput, latency percentiles and a
//! histogram, and the request and reply body bytes per call (`--json`: one JSON object). The
//! engine is `hessian_rpc::load`; this is its command line.

use crate::{stdout_err, CliError};
use hessian::{Call, Limits};
use hessian_rpc::load::{run, Limit, LoadReport};
use hessian_rpc::protocol::{decode_call, Dialect};
use hessian_rpc::Client;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

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
    let limit = match a.duration {
        Some(s) if s > 0.0 => Limit::Time(Duration::from_secs_f64(s)),
        _ => Limit::Calls(a.calls),
    };
    let report = Report {
        url: &a.url,
        protocol: a.protocol.name(),
        r: rt.block_on(run(&client, &proxy, &call, concurrency, a.warmup, limit)),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.json {
        serde_json::to_writer(&mut out, &report.json()).map_err(|e| stdout_err(e.into()))?;
        out.write_all(b"\n").map_err(stdout_err)?;
    } else {
        report.print(&mut out).map_err(stdout_err)?;
    }
    out.flush().map_err(stdout_err)?;
    let r = &report.r;
    if r.calls == 0 || r.errors + r.faults > 0 {
        return Err(CliError::Load(format!(
            "{} of {} calls failed{}",
            r.errors + r.faults,
            r.calls + r.errors + r.faults,
            r.first_error.as_deref().map(|e| format!(" (first: {e})")).unwrap_or_default()
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
        if a.protocol.dialect().call == hessian_rpc::Format::Hessian2 {
            call.headers.clear(); // Hessian 2 calls carry no headers
        }
        return Ok(call);
    }
    let Some(method) = &a.method else {
        return Err(CliError::Load("give a METHOD (and its arguments) or --call FILE".into()));
    };
    Ok(Call::new(method.clone(), crate::rpc::call_args(&a.args)?))
}

/// A run's report with what the command line named.
struct Report<'a> {
    url: &'a str,
    protocol: &'static str,
    r: LoadReport,
}

impl Report<'_> {
    fn json(&self) -> serde_json::Value {
        let q = |x: f64| serde_json::json!((x * 10.0).round() / 10.0);
        let r = &self.r;
        serde_json::json!({
            "url": self.url,
            "protocol": self.protocol,
            "concurrency": r.concurrency,
            "calls": r.calls,
            "errors": r.errors,
            "faults": r.faults,
            "warmup_failures": r.warmup_failures,
            "first_error": r.first_error,
            "seconds": r.elapsed.as_secs_f64(),
            "calls_per_second": q(r.rate()),
            "latency_us": {
                "mean": q(r.mean_us()),
                "p50": q(r.quantile_us(0.5)),
                "p90": q(r.quantile_us(0.9)),
                "p99": q(r.quantile_us(0.99)),
                "p999": q(r.quantile_us(0.999)),
                "max": q(r.quantile_us(1.0)),
            },
            "histogram_us": r.histogram().iter().map(|(b, n)| serde_json::json!([b, n])).collect::<Vec<_>>(),
            "request_bytes_per_call": q(r.request_bytes),
            "reply_bytes_per_call": q(r.reply_bytes),
            "resends": r.resends,
        })
    }

    fn print(&self, out: &mut impl Write) -> std::io::Result<()> {
        let r = &self.r;
        writeln!(out, "{} ({}, {} in flight)", self.url, self.protocol, r.concurrency)?;
        writeln!(
            out,
            "  calls {}  errors {}  faults {}  in {:.2} s  = {:.0} calls/s",
            r.calls,
            r.errors,
            r.faults,
            r.elapsed.as_secs_f64(),
            r.rate()
        )?;
        writeln!(
            out,
            "  latency µs: mean {:.1}  p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}",
            r.mean_us(),
            r.quantile_us(0.5),
            r.quantile_us(0.9),
            r.quantile_us(0.99),
            r.quantile_us(0.999),
            r.quantile_us(1.0)
        )?;
        writeln!(
            out,
            "  bytes per call: request {:.0}, reply {:.0}{}",
            r.request_bytes,
            r.reply_bytes,
            if r.resends > 0 { format!("  ({} resends)", r.resends) } else { String::new() }
        )?;
        let hist = r.histogram();
        let most = hist.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
        writeln!(out, "  histogram:")?;
        for (bound, n) in hist {
            let bar = "#".repeat(((n * 40).div_ceil(most)) as usize);
            writeln!(out, "    <= {bound:>9.0} µs {n:>9} {bar}")?;
        }
        if let Some(e) = &r.first_error {
            writeln!(out, "  first error: {e}")?;
        }
        Ok(())
    }
}
