//! A load generator for any Hessian or Burlap endpoint (the engine of `hessian load`, in the
//! manner of `ghz` for gRPC or `h2load` for HTTP/2): one [`Call`] made again and again by a number
//! of concurrent workers, for a number of calls or a time, after a warm-up; the result is a
//! [`LoadReport`] with throughput, latency quantiles, a histogram and body bytes per call.
//!
//! ```no_run
//! # async fn f() -> hessian_rpc::Result<()> {
//! use hessian_rpc::load::{run, Limit};
//! use hessian_rpc::{Call, Client, Value};
//!
//! let client = Client::builder().pool_max_idle_per_host(8).build();
//! let proxy = client.proxy("http://127.0.0.1:8080/bench")?;
//! let call = Call::new("getItems", vec![Value::Int(100)]);
//! let report = run(&client, &proxy, &call, 8, 100, Limit::Calls(10_000)).await;
//! println!("{:.0} calls/s, p99 {:.0} µs", report.rate(), report.quantile_us(0.99));
//! # Ok(())
//! # }
//! ```

use crate::{Call, Client, Error, Proxy};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the measured part of a run lasts.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    /// This many calls, shared by the workers.
    Calls(u64),
    /// Calls for this long (from the end of the warm-up).
    Time(Duration),
}

/// When the workers stop.
#[derive(Clone, Copy)]
enum Stop {
    After(u64),
    At(Instant),
}

/// What one worker saw.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: u64,
    faults: u64,
    first_error: Option<String>,
}

/// The results of a run.
#[derive(Clone, Debug)]
pub struct LoadReport {
    /// Calls in flight at once.
    pub concurrency: usize,
    /// Calls answered with a value.
    pub calls: u64,
    /// Calls that failed (transport, HTTP, a reply that did not decode).
    pub errors: u64,
    /// Calls answered with a fault.
    pub faults: u64,
    /// Warm-up calls that failed or faulted.
    pub warmup_failures: u64,
    /// The first error or fault, in words.
    pub first_error: Option<String>,
    /// Wall time of the measured part.
    pub elapsed: Duration,
    /// Latencies of the answered calls, sorted.
    pub latencies: Vec<Duration>,
    /// Request body bytes per call sent (resends included), from the client's counters.
    pub request_bytes: f64,
    /// Reply body bytes per call sent.
    pub reply_bytes: f64,
    /// Calls the client resent (type negotiation).
    pub resends: u64,
}

/// Warms up with `warmup` calls, then makes the calls of `limit` with `concurrency` workers (give
/// `client` a pool of at least that many connections), all through `proxy`, a proxy of `client`.
pub async fn run(
    client: &Client,
    proxy: &Proxy,
    call: &Call,
    concurrency: usize,
    warmup: u64,
    limit: Limit,
) -> LoadReport {
    let concurrency = concurrency.max(1);
    let warm = workers(proxy, call, concurrency, Stop::After(warmup)).await;
    let before = client.type_map_stats();
    let started = Instant::now();
    let stop = match limit {
        Limit::Calls(n) => Stop::After(n),
        Limit::Time(d) => Stop::At(started + d),
    };
    let tallies = workers(proxy, call, concurrency, stop).await;
    let elapsed = started.elapsed();
    let after = client.type_map_stats();
    let mut latencies = Vec::new();
    let (mut errors, mut faults, mut first_error) = (0, 0, None);
    for t in tallies {
        latencies.extend(t.latencies);
        errors += t.errors;
        faults += t.faults;
        first_error = first_error.or(t.first_error);
    }
    latencies.sort_unstable();
    let sent = (after.calls - before.calls).max(1) as f64;
    LoadReport {
        concurrency,
        calls: latencies.len() as u64,
        errors,
        faults,
        warmup_failures: warm.iter().map(|t| t.errors + t.faults).sum(),
        first_error,
        elapsed,
        latencies,
        request_bytes: (after.request_bytes - before.request_bytes) as f64 / sent,
        reply_bytes: (after.reply_bytes - before.reply_bytes) as f64 / sent,
        resends: after.resends - before.resends,
    }
}

/// Runs `concurrency` workers sharing the calls (or the time) of `stop`.
async fn workers(proxy: &Proxy, call: &Call, concurrency: usize, stop: Stop) -> Vec<Tally> {
    let taken = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::with_capacity(concurrency);
    for _ in 0..concurrency {
        let (proxy, call, taken) = (proxy.clone(), call.clone(), taken.clone());
        tasks.push(tokio::spawn(async move {
            let mut t = Tally::default();
            loop {
                let more = match stop {
                    Stop::After(n) => taken.fetch_add(1, Ordering::Relaxed) < n,
                    Stop::At(end) => Instant::now() < end,
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

impl LoadReport {
    /// The latency at quantile `q` (0..=1, nearest rank), in µs; 0 without answered calls.
    pub fn quantile_us(&self, q: f64) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies.len() as f64 * q).ceil() as usize).clamp(1, self.latencies.len()) - 1;
        self.latencies[i].as_secs_f64() * 1e6
    }

    /// The mean latency in µs; 0 without answered calls.
    pub fn mean_us(&self) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        self.latencies.iter().map(Duration::as_secs_f64).sum::<f64>() * 1e6 / self.latencies.len() as f64
    }

    /// Answered calls per second of the measured part.
    pub fn rate(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Latency histogram: (upper bound in µs, count), buckets doubling from 16 µs, from the first
    /// non-empty one.
    pub fn histogram(&self) -> Vec<(f64, u64)> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(us: &[u64]) -> LoadReport {
        LoadReport {
            concurrency: 1,
            calls: us.len() as u64,
            errors: 0,
            faults: 0,
            warmup_failures: 0,
            first_error: None,
            elapsed: Duration::from_secs(2),
            latencies: us.iter().map(|&u| Duration::from_micros(u)).collect(),
            request_bytes: 0.0,
            reply_bytes: 0.0,
            resends: 0,
        }
    }

    #[test]
    fn quantiles_rate_and_histogram() {
        let r = report(&[10, 20, 30, 40, 100]);
        assert_eq!(r.quantile_us(0.5), 30.0);
        assert_eq!(r.quantile_us(1.0), 100.0);
        assert!((r.mean_us() - 40.0).abs() < 1e-9, "{}", r.mean_us());
        assert_eq!(r.rate(), 2.5);
        assert_eq!(r.histogram(), [(16.0, 1), (32.0, 2), (64.0, 1), (128.0, 1)]);
        let empty = report(&[]);
        assert_eq!((empty.quantile_us(0.5), empty.mean_us(), empty.histogram().len()), (0.0, 0.0, 0));
    }
}
