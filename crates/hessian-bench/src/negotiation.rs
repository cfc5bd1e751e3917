//! Type negotiation benchmark (issue 12, item 5; `docs/negotiation.md`): W2 `exchange(Order)`
//! over loopback HTTP/1.1 in Hessian 1, Hessian 2 and Hessian 2.1 (Hessian 2 with type maps),
//! for Rust and Java clients and servers and the two crossings, then Rust-to-Rust sweeps over the
//! number of types per call, instances per call, length of type names, calls per conversation,
//! network latency and bandwidth (through a delaying TCP relay, `hessian_bench::relay`).
//!
//! ```sh
//! nice -n 10 cargo build --release -p hessian-cli -p hessian-bench -j 1
//! target/release/negotiation_bench --json negotiation.json          # quick: 1,000 + 5,000 W2 calls
//! target/release/negotiation_bench --calls 50000 --json full.json   # the specification's count
//! target/release/negotiation_bench --tiny                           # what the CI smoke test runs
//! ```
//!
//! Servers: the Rust server is `hessian serve-demo` in a child process (`--hessian PATH`; by
//! default the `hessian` next to this binary); Java's are Caucho's `HessianSkeleton` behind
//! `com.sun.net.httpserver` (`RpcJavaServer`) for Hessian 1 and 2, and `NegotiatingServer` for
//! 2.1. Clients: the Rust typed client `#[service]` derives (`hessian_demo::BenchClient`; type maps on
//! only for 2.1), and Java's `HessianProxyFactory` (Hessian 1: `h1` call and reply; Hessian 2)
//! or `NegotiatingProxyFactory` (2.1), run by `interop/java/src/NegotiationBench.java`. The JVMs
//! run with the full JIT (`TIMING_JVM_OPTS`). Every reply is checked (the W2 server checks the
//! request too).
//!
//! In every pairing, Hessian 1, 2 and 2.1 are measured interleaved: one client process (this one
//! for a Rust client, `NegotiationBench pair` for Java) holds three new clients, Hessian 2 (type
//! maps off) calling the plain server, 2.1 calling the negotiating one and Hessian 1 calling a
//! plain server (the Rust demo server is all three; against Java, `RpcJavaServer` and
//! `NegotiatingServer`, or `NegotiatingServer` for the plain calls with `--plain-java-server
//! negotiating`, and Hessian 1 on a skeleton of its own, so that each Java server's JIT sees one
//! protocol). After each client's first call (for 2.1 the plain call that establishes the maps,
//! shown apart) come warm-up rounds (at least `--warmup`, and with a Java client at least
//! `--java-warmup` seconds), then the measured rounds: one call of each client per round, in the
//! rotating order of [`crate::rotation::order`] (with two clients, which one first alternates),
//! so that a drift in the machine's load falls on all alike. The 2.1 row carries the paired
//! comparison with Hessian 2 ([`Paired`]): the ratio of the medians, the same ratio in each of
//! [`BLOCKS`] consecutive blocks of rounds (its spread), and the median of the per-round ratios
//! and differences; every row keeps its blocks' medians (`Row::block_medians`). Bytes are HTTP
//! bodies, as each client counts them (a resent call counts both attempts).
//!
//! The sweeps run in rounds (`Config::sweep_rounds`): an untimed batch of every point, then each
//! round a batch of every point (new clients, a share of the calls), the points in the rotating
//! order.
//!
//! The sweeps use `/echo` (`echo(Object)` answers its argument) with argument graphs made of
//! `hessian::Value` objects of generated classes, sent by the Rust `Value` client with type maps
//! off (Hessian 2) and on (2.1); each reply is compared with the argument.
//!
//! Output: Markdown tables on stdout, and all figures as JSON with `--json PATH`. Exits non-zero
//! on any failed call or check.
//!
//! The binary `negotiation_bench` is [`parse_args`] and [`run`]; the seed suite's experiment 1
//! runs the same [`run`] quietly and charts its [`Outcome`].

use crate::relay::{Link, Relay};
use hessian::{ClassDef, Value};
use hessian_demo::{same_graph, BenchClient};
use hessian_rpc::negotiation::ClientStats;
use hessian_rpc::{Client, Dialect};
use hessian_testkit::java::{java, Java, TIMING_JVM_OPTS};
use hessian_testkit::structs::w2;
use serde_json::{json, Value as Json};
use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

type Res<T> = Result<T, String>;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// `quick`, `tiny` or `full` (named in the output).
    pub mode: &'static str,
    /// Warm-up and measured W2 calls per row.
    pub warmup: usize,
    /// Measured W2 calls per row (rounds of an interleaved pair: as many calls of each client).
    pub calls: usize,
    /// The least warm-up time of an interleaved pair with a Java client (Java → Java, Java →
    /// Rust), on top of its `warmup` rounds: the client's JVM starts cold, and its JIT needs
    /// seconds, not rounds.
    pub java_warmup: Duration,
    /// The least warm-up time of the Rust → Java pair (the Java servers are warm from the Java
    /// → Java pair's calls just before).
    pub java_server_warmup: Duration,
    /// The server the Hessian 1 and 2 calls of the rows against Java go to (2.1 always goes to
    /// `NegotiatingServer`).
    pub plain_java_server: PlainJavaServer,
    /// Warm-up and measured calls per sweep point.
    pub sweep_warmup: usize,
    /// Measured calls per sweep point (in all: the rounds share them).
    pub sweep_calls: usize,
    /// Rounds of every sweep: each runs a batch of every point of the sweep, in a rotating
    /// order, with new clients ([`crate::rotation::order`]).
    pub sweep_rounds: usize,
    /// Conversations per point of the calls-per-conversation sweep.
    pub conversations: usize,
    /// Whether to run the Java rows (skipped with a note when Java is missing).
    pub java: bool,
    /// Whether to run the sweeps.
    pub sweeps: bool,
    /// One-way delays of the latency sweep, ms.
    pub delays: Vec<u64>,
    /// Link rates of the bandwidth sweep, bit/s.
    pub rates: Vec<u64>,
    /// The command that starts the Rust demo server (`hessian serve-demo --listen 127.0.0.1:0
    /// --workers 1`, or anything that serves `hessian_demo::demo_server()` and prints
    /// `http://ADDR` or `PORT n` on its first line). It should serve all connections on one
    /// thread: with several, the two clients of an interleaved pair can be served on different
    /// cores, which can cost one of them more than the protocols differ.
    pub rust_server: Vec<OsString>,
    /// Where to write the JSON.
    pub json: Option<PathBuf>,
    /// No Markdown on stdout.
    pub quiet: bool,
    /// Servers already running, on another machine say (the seed suite's `--servers`): none is
    /// started then.
    pub remote: Option<RemoteServers>,
}

/// The servers of a run whose servers run elsewhere.
#[derive(Clone, Debug)]
pub struct RemoteServers {
    /// The demo server (on one thread, as [`Config::rust_server`] says).
    pub rust: SocketAddr,
    /// Caucho's skeleton (`RpcJavaServer`) and `NegotiatingServer`, for the Java rows.
    pub java: Option<(SocketAddr, SocketAddr)>,
}

impl Config {
    /// The quick mode: 1,000 warm-up and 5,000 measured W2 calls per row, every sweep.
    pub fn quick() -> Config {
        Config {
            mode: "quick",
            warmup: 1000,
            calls: 5000,
            java_warmup: Duration::from_secs(10),
            java_server_warmup: Duration::from_secs(3),
            plain_java_server: PlainJavaServer::Caucho,
            sweep_warmup: 200,
            sweep_calls: 1000,
            sweep_rounds: 5,
            conversations: 30,
            java: true,
            sweeps: true,
            delays: vec![0, 1, 2, 5, 10],
            rates: vec![100_000_000, 10_000_000, 1_000_000],
            rust_server: serve_demo(&default_hessian()),
            json: None,
            quiet: false,
            remote: None,
        }
    }

    /// The smoke-test mode: a few calls per row and point.
    pub fn tiny() -> Config {
        Config {
            mode: "tiny",
            warmup: 10,
            calls: 40,
            java_warmup: Duration::ZERO,
            java_server_warmup: Duration::ZERO,
            sweep_warmup: 3,
            sweep_calls: 20,
            sweep_rounds: 2,
            conversations: 2,
            delays: vec![0, 1],
            rates: vec![10_000_000],
            ..Config::quick()
        }
    }
}

/// Which Java server answers the plain (Hessian 1 and 2) calls of the rows against Java.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlainJavaServer {
    /// Caucho's skeleton as it is (`RpcJavaServer`): the baseline a Caucho deployment has today.
    Caucho,
    /// `NegotiatingServer`, which hands a call without the offer to the same skeleton unchanged
    /// (its impl behind a counting proxy): the same process serves both protocols.
    Negotiating,
}

impl PlainJavaServer {
    /// The Java class.
    pub fn class(self) -> &'static str {
        match self {
            PlainJavaServer::Caucho => "RpcJavaServer",
            PlainJavaServer::Negotiating => "NegotiatingServer",
        }
    }
}

/// `HESSIAN serve-demo --listen 127.0.0.1:0 --workers 1`. One worker, because the demo server
/// keeps each connection on one of its per-core worker threads: the two clients of a pair could
/// land on two threads, one on the client's core and one not, and on this 2-core VM that made
/// one protocol's calls 2.5 times slower than the other's for a whole run. With one worker both
/// connections share one thread; the calls come one at a time, so one worker is all they use.
fn serve_demo(hessian: &std::path::Path) -> Vec<OsString> {
    let args = ["serve-demo", "--listen", "127.0.0.1:0", "--workers", "1"];
    std::iter::once(hessian.into()).chain(args.map(OsString::from)).collect()
}

fn default_hessian() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("hessian")))
        .filter(|p| p.exists())
        .unwrap_or_else(|| hessian_testkit::java::repo_root().join("target/release/hessian"))
}

/// How the binary is called.
pub const USAGE: &str = "usage: negotiation_bench [--tiny] [--calls N] [--warmup N] [--java-warmup SECONDS] \
                     [--plain-java-server caucho|negotiating] [--sweep-calls N] \
                     [--sweep-warmup N] [--conversations N] [--delays MS,MS,…] [--rates BITS_PER_S,…] [--no-java] \
                     [--no-sweeps] [--hessian PATH] [--json PATH]";

/// The configuration the command line `args` (without the program name) asks for; `Ok(None)`
/// for `--help` (after printing the usage).
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Res<Option<Config>> {
    let mut c = Config::quick();
    let mut args = args.into_iter();
    let mut overrides = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--tiny" => c = Config::tiny(),
            "--no-java" => c.java = false,
            "--no-sweeps" => c.sweeps = false,
            "--calls"
            | "--warmup"
            | "--sweep-calls"
            | "--sweep-warmup"
            | "--conversations"
            | "--hessian"
            | "--json"
            | "--delays"
            | "--rates"
            | "--java-warmup"
            | "--plain-java-server" => {
                let v = args.next().ok_or_else(|| format!("{a} needs a value"))?;
                overrides.push((a, v));
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            _ => return Err(format!("unknown argument {a:?}\n{USAGE}")),
        }
    }
    for (k, v) in overrides {
        let num = |v: &str| v.parse::<usize>().map_err(|e| format!("{k} {v}: {e}"));
        match k.as_str() {
            "--calls" => c.calls = num(&v)?.max(1),
            "--warmup" => c.warmup = num(&v)?.max(1),
            "--sweep-calls" => c.sweep_calls = num(&v)?.max(1),
            "--sweep-warmup" => c.sweep_warmup = num(&v)?,
            "--conversations" => c.conversations = num(&v)?.max(1),
            "--java-warmup" => {
                let secs = v.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0);
                c.java_warmup = Duration::from_secs_f64(secs.ok_or_else(|| format!("{k} {v}: not seconds"))?);
                c.java_server_warmup = c.java_server_warmup.min(c.java_warmup);
            }
            "--plain-java-server" => {
                c.plain_java_server = match v.as_str() {
                    "caucho" => PlainJavaServer::Caucho,
                    "negotiating" => PlainJavaServer::Negotiating,
                    _ => return Err(format!("{k} {v}: caucho or negotiating")),
                }
            }
            "--hessian" => c.rust_server = serve_demo(std::path::Path::new(&v)),
            "--delays" | "--rates" => {
                let list = v
                    .split(',')
                    .map(|x| x.trim().parse::<u64>().map_err(|e| format!("{k} {v}: {e}")))
                    .collect::<Res<Vec<u64>>>()?;
                if k == "--delays" {
                    c.delays = list;
                } else {
                    c.rates = list.into_iter().filter(|&r| r >= 8).collect();
                }
            }
            _ => c.json = Some(PathBuf::from(v)),
        }
    }
    Ok(Some(c))
}

// ---------------------------------------------------------------------------------------------
// figures

/// Round-trip times of the measured calls, in µs.
#[derive(Clone, Copy, Debug)]
pub struct Times {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// 99th percentile (nearest rank).
    pub p99: f64,
    /// Fastest call.
    pub min: f64,
    /// Slowest call.
    pub max: f64,
}

fn times(t: &mut [Duration]) -> Times {
    t.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let n = t.len().max(1);
    let mean = t.iter().map(|d| us(*d)).sum::<f64>() / n as f64;
    let at = |i: usize| t.get(i.min(t.len().saturating_sub(1))).map_or(0.0, |d| us(*d));
    let p99 = ((t.len() as f64 * 0.99).ceil() as usize).max(1) - 1;
    Times { mean, median: at(t.len() / 2), p99: at(p99), min: at(0), max: at(t.len().saturating_sub(1)) }
}

impl Times {
    fn json(&self) -> Json {
        json!({"mean_us": self.mean, "median_us": self.median, "p99_us": self.p99, "min_us": self.min, "max_us": self.max})
    }
}

/// Blocks the measured rounds of an interleaved pair are cut into for the spread of its ratios.
pub const BLOCKS: usize = 5;

/// The paired comparison of two clients whose calls alternate: per round, the 2.1 call's round
/// trip minus the Hessian 2 call's (and over it), which takes the machine's drift out of the
/// comparison; and the spread of the ratios over [`BLOCKS`] consecutive blocks of rounds.
#[derive(Clone, Debug)]
pub struct Paired {
    /// Rounds (pairs of calls).
    pub rounds: usize,
    /// Median of the per-round differences (2.1 − Hessian 2), µs: below zero, 2.1 is faster.
    pub median: f64,
    /// Lower end of the distribution-free 95 % confidence interval of that median (the order
    /// statistics at n/2 ∓ 0.98 √n, as the sign test gives), µs.
    pub low: f64,
    /// Upper end of the interval, µs.
    pub high: f64,
    /// Share of rounds in which the 2.1 call was the faster one.
    pub faster: f64,
    /// The 2.1 median over the Hessian 2 median, all rounds.
    pub ratio: f64,
    /// The median of the per-round ratios (the round's 2.1 call over its Hessian 2 call).
    pub round_ratio: f64,
    /// Per block of consecutive rounds (in order): the 2.1 median over the Hessian 2 median.
    pub block_ratios: Vec<f64>,
    /// Per block: the median of the per-round ratios.
    pub block_round_ratios: Vec<f64>,
}

/// The median of `v` (the middle element after sorting; the upper one of an even count, as
/// [`Times`] takes it); 0 when empty.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Smallest and largest of `v`.
pub fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(*x), b.max(*x)))
}

impl Paired {
    /// From the round trips of the two clients, round by round, the rounds cut into
    /// [`BLOCKS`] consecutive blocks.
    fn of(h2: &[Duration], h21: &[Duration]) -> Option<Paired> {
        let us = |t: &[Duration]| t.iter().map(|d| d.as_secs_f64() * 1e6).collect::<Vec<f64>>();
        let n = h2.len().min(h21.len());
        Paired::of_us(&us(h2), &us(h21), n.div_ceil(BLOCKS))
    }

    /// From the round trips (µs) of two clients whose calls alternate, `a[i]` and `b[i]` made
    /// one after the other (the figures are `b` over `a`: "2.1" is `b`), the pairs cut into
    /// consecutive blocks of `block` pairs (the seed suite's experiment 2 makes a block of each
    /// of its rounds). None with fewer than 10 pairs.
    pub fn of_us(a: &[f64], b: &[f64], block: usize) -> Option<Paired> {
        let n = a.len().min(b.len());
        if n < 10 {
            return None;
        }
        let (a, b) = (&a[..n], &b[..n]);
        let mut d: Vec<f64> = a.iter().zip(b).map(|(a, b)| b - a).collect();
        d.sort_by(f64::total_cmp);
        let half = 0.98 * (n as f64).sqrt();
        let lo = ((n as f64 / 2.0 - half).floor().max(0.0) as usize).min(n - 1);
        let hi = ((n as f64 / 2.0 + half).ceil() as usize).min(n - 1);
        let faster = d.iter().filter(|x| **x < 0.0).count() as f64 / n as f64;
        let ratio_of = |a: &[f64], b: &[f64]| median(b.to_vec()) / median(a.to_vec()).max(1e-9);
        let round_ratio_of = |a: &[f64], b: &[f64]| median(a.iter().zip(b).map(|(a, b)| b / a.max(1e-9)).collect());
        let size = block.max(1);
        let blocks: Vec<(&[f64], &[f64])> = a.chunks(size).zip(b.chunks(size)).collect();
        Some(Paired {
            rounds: n,
            median: d[n / 2],
            low: d[lo],
            high: d[hi],
            faster,
            ratio: ratio_of(a, b),
            round_ratio: round_ratio_of(a, b),
            block_ratios: blocks.iter().map(|(a, b)| ratio_of(a, b)).collect(),
            block_round_ratios: blocks.iter().map(|(a, b)| round_ratio_of(a, b)).collect(),
        })
    }

    /// Smallest and largest block ratio of medians.
    pub fn block_range(&self) -> (f64, f64) {
        min_max(&self.block_ratios)
    }

    /// Smallest and largest block median of per-round ratios.
    pub fn block_round_range(&self) -> (f64, f64) {
        min_max(&self.block_round_ratios)
    }

    fn json(&self) -> Json {
        let (lo, hi) = self.block_range();
        let (rlo, rhi) = self.block_round_range();
        json!({"rounds": self.rounds, "median_difference_us": self.median, "ci95_low_us": self.low,
               "ci95_high_us": self.high, "share_of_rounds_21_faster": self.faster,
               "ratio_of_medians": self.ratio, "median_of_round_ratios": self.round_ratio,
               "blocks": self.block_ratios.len(), "block_ratios_of_medians": self.block_ratios,
               "block_medians_of_round_ratios": self.block_round_ratios,
               "block_ratio_min": lo, "block_ratio_max": hi,
               "block_round_ratio_min": rlo, "block_round_ratio_max": rhi})
    }

    /// The ratio of medians with its spread over the blocks, e.g. `0.99 (blocks 0.97–1.01)`.
    pub fn ratio_text(&self) -> String {
        let (lo, hi) = self.block_range();
        format!("{:.3} ({} blocks {:.3}–{:.3})", self.ratio, self.block_ratios.len(), lo, hi)
    }

    /// The median of per-round ratios with its spread over the blocks.
    pub fn round_ratio_text(&self) -> String {
        let (lo, hi) = self.block_round_range();
        format!("{:.3} (blocks {:.3}–{:.3})", self.round_ratio, lo, hi)
    }
}

/// One client/server/protocol measurement.
#[derive(Clone, Debug)]
pub struct Row {
    /// Client and server, e.g. `Rust → Java`.
    pub pair: &'static str,
    /// `Hessian 1`, `Hessian 2` or `Hessian 2.1`.
    pub protocol: &'static str,
    /// Round trips of the measured calls.
    pub times: Times,
    /// Measured calls.
    pub calls: usize,
    /// Request body bytes per measured call.
    pub request: f64,
    /// Reply body bytes per measured call.
    pub reply: f64,
    /// Request body bytes of the conversation's first call.
    pub first_request: u64,
    /// Reply body bytes of the conversation's first call.
    pub first_reply: u64,
    /// Calls resent (by the Rust client; 0 for Java clients).
    pub resends: u64,
    /// Whether the row's calls alternated call by call with its twin's (Hessian 2 with 2.1).
    pub interleaved: bool,
    /// For the 2.1 row of two alternating clients: the paired comparison with its Hessian 2 twin.
    pub paired: Option<Paired>,
    /// The median round trip (µs) of each block of consecutive measured calls: of each of the
    /// [`BLOCKS`] blocks of an interleaved row, or of each round of a sweep point measured in
    /// rounds; empty when not measured so. Their spread is the row's repeatability.
    pub block_medians: Vec<f64>,
}

/// The medians (µs) of `t` cut into consecutive blocks of `size` calls.
fn block_medians(t: &[Duration], size: usize) -> Vec<f64> {
    t.chunks(size.max(1)).map(|b| median(b.iter().map(|d| d.as_secs_f64() * 1e6).collect())).collect()
}

/// One client's measured calls, as they were made (rounds of an interleaved comparison, or the
/// conversations of the calls-per-conversation sweep), with its byte counts: the raw material
/// of a [`Row`], which several batches (a sweep point's rounds) add up to.
#[derive(Clone, Debug, Default)]
struct Raw {
    /// Per batch (one, or one per round), the measured round trips in order.
    batches: Vec<Vec<Duration>>,
    /// Request and reply body bytes of the first batch's first call.
    first: (u64, u64),
    /// Request and reply body bytes of all measured calls.
    measured: (u64, u64),
    /// Measured calls (for bytes per call).
    calls: usize,
    resends: u64,
}

impl Raw {
    /// One batch of measured calls `t`, from the client's counters before the first call, after
    /// it, after the warm-up and at the end.
    fn of(t: Vec<Duration>, [s0, s1, s2, s3]: [ClientStats; 4]) -> Raw {
        Raw {
            calls: t.len(),
            batches: vec![t],
            first: (s1.request_bytes - s0.request_bytes, s1.reply_bytes - s0.reply_bytes),
            measured: (s3.request_bytes - s2.request_bytes, s3.reply_bytes - s2.reply_bytes),
            resends: s3.resends,
        }
    }

    /// Adds a later batch (the next round of a sweep point).
    fn add(&mut self, later: Raw) {
        if self.batches.is_empty() {
            self.first = later.first;
        }
        self.batches.extend(later.batches);
        self.measured = (self.measured.0 + later.measured.0, self.measured.1 + later.measured.1);
        self.calls += later.calls;
        self.resends += later.resends;
    }

    /// All measured calls, in order.
    fn all(&self) -> Vec<Duration> {
        self.batches.iter().flatten().copied().collect()
    }

    /// The row: block medians per batch when there are several, else per [`BLOCKS`] blocks.
    fn row(&self, pair: &'static str, proto: Proto, interleaved: bool) -> Row {
        let mut t = self.all();
        let blocks = match self.batches.len() {
            0 | 1 => block_medians(&t, t.len().div_ceil(BLOCKS)),
            _ => self.batches.iter().flat_map(|b| block_medians(b, b.len())).collect(),
        };
        let k = self.calls.max(1) as f64;
        Row {
            pair,
            protocol: proto.name(),
            times: times(&mut t),
            calls: self.calls,
            request: self.measured.0 as f64 / k,
            reply: self.measured.1 as f64 / k,
            first_request: self.first.0,
            first_reply: self.first.1,
            resends: self.resends,
            interleaved,
            paired: None,
            block_medians: blocks,
        }
    }
}

impl Row {
    fn json(&self) -> Json {
        json!({
            "pair": self.pair, "protocol": self.protocol, "calls": self.calls, "times": self.times.json(),
            "request_bytes_per_call": self.request, "reply_bytes_per_call": self.reply,
            "first_call_request_bytes": self.first_request, "first_call_reply_bytes": self.first_reply,
            "resends": self.resends, "interleaved": self.interleaved,
            "paired_with_hessian2": self.paired.as_ref().map(Paired::json),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proto {
    H1,
    H2,
    H21,
}

impl Proto {
    fn name(self) -> &'static str {
        match self {
            Proto::H1 => "Hessian 1",
            Proto::H2 => "Hessian 2",
            Proto::H21 => "Hessian 2.1",
        }
    }

    fn java_mode(self) -> &'static str {
        match self {
            Proto::H1 => "h1",
            Proto::H2 => "h2",
            Proto::H21 => "h21",
        }
    }

    fn client(self) -> Client {
        let dialect = if self == Proto::H1 { Dialect::HESSIAN1 } else { Dialect::HESSIAN2 };
        Client::builder().dialect(dialect).type_maps(self == Proto::H21).build()
    }
}

// ---------------------------------------------------------------------------------------------
// servers

/// A server child process, killed and reaped on drop (or a server running elsewhere, no child).
struct Server {
    child: Option<Child>,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Server {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn rust(command: &[OsString]) -> Res<Server> {
        let (program, args) = command.split_first().ok_or("no command for the Rust server")?;
        let mut child = Command::new(program)
            .args(args)
            // piped, and held open while the server runs (a server may stop when stdin closes)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                format!("{}: {e} (build it: cargo build --release -p hessian-cli)", program.to_string_lossy())
            })?;
        let line = first_line(&mut child)?;
        let addr = match line.trim().strip_prefix("PORT ") {
            Some(port) => port.parse::<u16>().ok().map(|p| SocketAddr::from(([127, 0, 0, 1], p))),
            None => line.split("http://").nth(1).and_then(|s| s.split_whitespace().next()).and_then(|a| a.parse().ok()),
        }
        .ok_or_else(|| format!("the Rust server printed {line:?}"))?;
        Ok(Server { child: Some(child), addr })
    }

    fn remote(addr: SocketAddr) -> Server {
        Server { child: None, addr }
    }

    fn java(java: &Java, class: &str) -> Res<Server> {
        let mut child = java
            .command_with(TIMING_JVM_OPTS, class)
            .arg("0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("java {class}: {e}"))?;
        let line = first_line(&mut child)?;
        let port: u16 = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("{class} printed {line:?}"))?;
        Ok(Server { child: Some(child), addr: SocketAddr::from(([127, 0, 0, 1], port)) })
    }
}

fn first_line(child: &mut Child) -> Res<String> {
    let out = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(out).read_line(&mut line).map_err(|e| format!("reading the server's first line: {e}"))?;
    Ok(line)
}

// ---------------------------------------------------------------------------------------------
// W2 from the Rust client

/// What one measured call is: W2 `exchange` with the typed client, or `echo(arg)` with the
/// `Value` client; each reply checked.
#[derive(Clone, Copy)]
enum Work<'a> {
    W2,
    Echo(&'a Value),
}

/// One client of a pair (see [`pair`]).
struct Caller<'a> {
    proto: Proto,
    client: Client,
    bench: BenchClient,
    echo: hessian_rpc::Proxy,
    work: Work<'a>,
    request: &'a w2::Order,
    expected: &'a w2::Order,
}

impl<'a> Caller<'a> {
    fn new(url: &str, proto: Proto, work: Work<'a>, request: &'a w2::Order, expected: &'a w2::Order) -> Res<Self> {
        let client = proto.client();
        let bench = BenchClient::new(client.proxy(&format!("{url}/bench")).map_err(|e| e.to_string())?);
        let echo = client.proxy(&format!("{url}/echo")).map_err(|e| e.to_string())?;
        Ok(Caller { proto, client, bench, echo, work, request, expected })
    }

    async fn call(&self, i: usize) -> Res<Duration> {
        let name = self.proto.name();
        match self.work {
            Work::W2 => {
                let order = self.request.clone();
                let t0 = Instant::now();
                let got = self.bench.exchange(order).await;
                let dt = t0.elapsed();
                match got {
                    Ok(g) if *g == *self.expected => Ok(dt),
                    Ok(g) => Err(format!("W2 {name}: call {i}: wrong reply (order {})", g.id)),
                    Err(e) => Err(format!("W2 {name}: call {i}: {e}")),
                }
            }
            Work::Echo(arg) => {
                let args = vec![arg.clone()];
                let t0 = Instant::now();
                let got = self.echo.call("echo", args).await;
                let dt = t0.elapsed();
                match got {
                    Ok(v) if same_graph(&v, arg) => Ok(dt),
                    Ok(_) => Err(format!("echo {name}: call {i}: the reply differs from the argument")),
                    Err(e) => Err(format!("echo {name}: call {i}: {e}")),
                }
            }
        }
    }
}

/// New Rust clients, one per `(base, protocol)`, whose calls interleave: each client's first
/// call, then warm-up rounds until both `warmup` rounds (the first included) and `min_warmup`
/// have passed, then `calls` measured rounds; in each round one call of each client, in the
/// rotating order of [`crate::rotation::order`] (with two clients: which one first alternates),
/// so that a drift in the machine's load affects all alike. Each client's raw measurements, in
/// the order given.
async fn interleave(
    clients: &[(&str, Proto)],
    work: Work<'_>,
    (warmup, min_warmup): (usize, Duration),
    calls: usize,
) -> Res<Vec<Raw>> {
    let (request, expected) = (w2::request(), w2::reply());
    let callers: Vec<Caller> =
        clients.iter().map(|(base, proto)| Caller::new(base, *proto, work, &request, &expected)).collect::<Res<_>>()?;
    let s0: Vec<ClientStats> = callers.iter().map(|c| c.client.type_map_stats()).collect();
    for c in &callers {
        c.call(0).await?;
    }
    let s1: Vec<ClientStats> = callers.iter().map(|c| c.client.type_map_stats()).collect();
    let started = Instant::now();
    let mut rounds = 1;
    while rounds < warmup.max(1) || started.elapsed() < min_warmup {
        for k in crate::rotation::order(callers.len(), rounds) {
            callers[k].call(rounds).await?;
        }
        rounds += 1;
    }
    let warmup = rounds;
    let s2: Vec<ClientStats> = callers.iter().map(|c| c.client.type_map_stats()).collect();
    let mut t: Vec<Vec<Duration>> = callers.iter().map(|_| Vec::with_capacity(calls)).collect();
    for i in 0..calls {
        for k in crate::rotation::order(callers.len(), i) {
            t[k].push(callers[k].call(warmup + i).await?);
        }
    }
    Ok(t.into_iter()
        .zip(callers.iter().zip(s0.into_iter().zip(s1).zip(s2)))
        .map(|(t, (c, ((s0, s1), s2)))| Raw::of(t, [s0, s1, s2, c.client.type_map_stats()]))
        .collect())
}

/// The Hessian 2 and 2.1 rows (2.1 with the paired comparison) of two interleaved clients'
/// measurements, and the Hessian 1 row of a third one's when there is one.
fn interleaved_rows(pair: &'static str, raws: &[Raw]) -> Res<(Row, Row, Option<Row>)> {
    let [h2, h21, rest @ ..] = raws else { return Err(format!("{pair}: {} clients measured, not 2 or 3", raws.len())) };
    let mut b = h21.row(pair, Proto::H21, true);
    b.paired = Paired::of(&h2.all(), &h21.all());
    Ok((h2.row(pair, Proto::H2, true), b, rest.first().map(|h1| h1.row(pair, Proto::H1, true))))
}

/// Hessian 2 and 2.1 (and Hessian 1 when `h1_base` is given) from new Rust clients whose calls
/// interleave ([`interleave`]): the Hessian 2 client calls `h2_base`, the 2.1 client `h21_base`
/// (the same server, or a plain and a negotiating one), the Hessian 1 client `h1_base`.
async fn pair(
    pair: &'static str,
    [h2_base, h21_base]: [&str; 2],
    h1_base: Option<&str>,
    work: Work<'_>,
    warm: (usize, Duration),
    calls: usize,
) -> Res<(Row, Row, Option<Row>)> {
    let mut clients = vec![(h2_base, Proto::H2), (h21_base, Proto::H21)];
    clients.extend(h1_base.map(|b| (b, Proto::H1)));
    interleaved_rows(pair, &interleave(&clients, work, warm, calls).await?)
}

// ---------------------------------------------------------------------------------------------
// W2 from the Java client

/// Runs `NegotiationBench args…` with the full JIT; its stdout.
fn java_bench(java: &Java, args: &[&str]) -> Res<String> {
    let out = java
        .command_with(TIMING_JVM_OPTS, "NegotiationBench")
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("java NegotiationBench: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        let head: String = stdout.chars().take(4000).collect();
        return Err(format!("NegotiationBench {} failed ({}):\n{head}", args.join(" "), out.status));
    }
    Ok(stdout)
}

/// The row of the `RESULT mode=MODE …` line of `stdout`.
fn java_row(stdout: &str, pair: &'static str, proto: Proto) -> Res<Row> {
    let line = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("RESULT "))
        .find(|l| l.split_whitespace().next() == Some(&format!("mode={}", proto.java_mode())))
        .ok_or_else(|| format!("no RESULT for {} in NegotiationBench's output", proto.java_mode()))?;
    let val = |k: &str| -> Res<f64> {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("no {k} in {line}"))
    };
    Ok(Row {
        pair,
        protocol: proto.name(),
        times: Times {
            mean: val("mean_us")?,
            median: val("median_us")?,
            p99: val("p99_us")?,
            min: val("min_us")?,
            max: val("max_us")?,
        },
        calls: val("calls")? as usize,
        request: val("req_bytes")?,
        reply: val("reply_bytes")?,
        first_request: val("first_req_bytes")? as u64,
        first_reply: val("first_reply_bytes")? as u64,
        resends: val("resends")? as u64,
        interleaved: false,
        paired: None,
        block_medians: Vec::new(),
    })
}

/// Hessian 2 and 2.1 (and Hessian 1 with `h1_url`) from Java clients in one JVM whose calls
/// interleave, as [`pair`] does for Rust (`NegotiationBench pair`): Caucho's
/// `HessianProxyFactory` calling `h2_url` (and `h1_url`), `NegotiatingProxyFactory` calling
/// `h21_url`; every round trip comes back and the figures are computed here, as for the Rust
/// clients.
fn java_pair(
    java: &Java,
    pair: &'static str,
    [h2_url, h21_url]: [&str; 2],
    h1_url: Option<&str>,
    (warmup, min_warmup): (usize, Duration),
    calls: usize,
) -> Res<(Row, Row, Option<Row>)> {
    let ms = min_warmup.as_millis().to_string();
    let (warmup, n) = (warmup.max(1).to_string(), calls.to_string());
    let mut args = vec!["pair", h2_url, h21_url, &warmup, &ms, &n];
    args.extend(h1_url);
    let stdout = java_bench(java, &args)?;
    let raw = |proto: Proto| -> Res<Raw> {
        let mode = proto.java_mode();
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix("NS ")?.strip_prefix(mode)?.strip_prefix(' '))
            .ok_or_else(|| format!("no round trips of {mode} in NegotiationBench's output"))?;
        let t: Vec<Duration> = line
            .split_whitespace()
            .map(|t| t.parse::<u64>().map(Duration::from_nanos).map_err(|e| format!("NS {mode} {t}: {e}")))
            .collect::<Res<_>>()?;
        if t.len() != calls {
            return Err(format!("NegotiationBench pair: {} round trips of {mode}, not {calls}", t.len()));
        }
        let row = java_row(&stdout, pair, proto)?;
        let k = row.calls as f64;
        Ok(Raw {
            calls: t.len(),
            batches: vec![t],
            first: (row.first_request, row.first_reply),
            measured: ((row.request * k).round() as u64, (row.reply * k).round() as u64),
            resends: row.resends,
        })
    };
    let mut raws = vec![raw(Proto::H2)?, raw(Proto::H21)?];
    if h1_url.is_some() {
        raws.push(raw(Proto::H1)?);
    }
    interleaved_rows(pair, &raws)
}

// ---------------------------------------------------------------------------------------------
// sweeps (Rust to Rust, /echo, Value path)

/// `n` classes named `prefix` + the class number padded with `.` to `name_len` characters (at
/// least the unpadded name), with `fields` fields each.
fn classes(n: usize, name_len: usize, fields: usize) -> Vec<Arc<ClassDef>> {
    (0..n)
        .map(|j| {
            let mut name = format!("com.example.sweep.Type{j:03}");
            while name.len() < name_len {
                name.push('.');
            }
            ClassDef::new(name, (0..fields).map(|f| format!("field{f}")))
        })
        .collect()
}

/// Instance `i` of `class`: fields cycling through int, string, long and double values.
fn instance(class: &Arc<ClassDef>, i: usize) -> Value {
    let fields = (0..class.fields.len())
        .map(|f| match f % 4 {
            0 => Value::Int(i as i32),
            1 => Value::String(format!("value {i}")),
            2 => Value::Long(10_000_000_000 + i as i64),
            _ => Value::Double(i as f64 * 1.25),
        })
        .collect();
    Value::object(class.clone(), fields)
}

/// A list of `per_class` instances of each class, class after class.
fn graph(classes: &[Arc<ClassDef>], per_class: usize) -> Value {
    let mut items = Vec::with_capacity(classes.len() * per_class);
    for c in classes {
        for i in 0..per_class {
            items.push(instance(c, i));
        }
    }
    Value::list(items)
}

/// H2 and 2.1 figures of one sweep point.
#[derive(Clone, Debug)]
/// One point of a sweep: Hessian 2 and 2.1 at one value of the factor.
pub struct Point {
    /// The factor's value, as printed (e.g. `16`, `5 ms`, `10 Mbit/s`).
    pub label: String,
    /// The factor's value as a number (0 where the label has none).
    pub x: f64,
    /// Hessian 2.
    pub h2: Row,
    /// Hessian 2.1.
    pub h21: Row,
}

/// One sweep: its points over one factor.
pub struct Sweep {
    /// Stable id (`types`, `instances`, `name_length`, `calls_per_conversation`, `latency`,
    /// `bandwidth`).
    pub id: &'static str,
    /// What was swept, how.
    pub title: String,
    /// The factor (the x axis).
    pub what: &'static str,
    /// The points, in order.
    pub points: Vec<Point>,
}

/// What [`run`] measured.
pub struct Outcome {
    /// The W2 rows, in the order of the tables.
    pub rows: Vec<Row>,
    /// The sweeps (none without [`Config::sweeps`]).
    pub sweeps: Vec<Sweep>,
    /// Why the Java rows are missing, when they are.
    pub java_skipped: Option<String>,
    /// Everything as the JSON document `--json` writes.
    pub json: Json,
}

/// The leading number of a point label (`"5 ms"` is 5).
fn number_of(label: &str) -> f64 {
    label.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0.0)
}

impl Point {
    fn json(&self) -> Json {
        json!({"point": self.label, "hessian2": self.h2.json(), "hessian21": self.h21.json()})
    }
}

/// Conversations of `k` W2 calls, each from a new client (new connection, no maps), Hessian 2
/// and 2.1 conversations alternating: per protocol, the time per call of each conversation (its
/// mean) and the bytes of all its calls.
async fn conversations(url: &str, k: usize, conversations: usize) -> Res<Vec<Raw>> {
    let request = w2::request();
    let expected = w2::reply();
    let mut acc = vec![Raw::default(), Raw::default()];
    let mut times = [Vec::new(), Vec::new()];
    for c in 0..conversations {
        for (slot, proto) in [(0, Proto::H2), (1, Proto::H21)] {
            let client = proto.client();
            let bench = BenchClient::new(client.proxy(url).map_err(|e| e.to_string())?);
            let t0 = Instant::now();
            for i in 0..k {
                let got = bench
                    .exchange(request.clone())
                    .await
                    .map_err(|e| format!("{} conversation {c} call {i}: {e}", proto.name()))?;
                if *got != expected {
                    return Err(format!("{} conversation {c} call {i}: wrong reply", proto.name()));
                }
            }
            times[slot].push(t0.elapsed() / k as u32);
            let s = client.type_map_stats();
            let a = &mut acc[slot];
            a.measured = (a.measured.0 + s.request_bytes, a.measured.1 + s.reply_bytes);
            a.calls += k;
            a.resends += s.resends;
        }
    }
    for (a, t) in acc.iter_mut().zip(times) {
        a.batches = vec![t];
    }
    Ok(acc)
}

/// A sweep's points measured in rounds: an untimed batch of every point first (`round`
/// `usize::MAX`), then each round runs a batch of every point (`batch(i, round)` measures point
/// `i`: Hessian 2 and 2.1, in that order), the points in the rotating
/// order of [`crate::rotation::order`], so that a drift in the machine's load does not fall on
/// one value of the factor; a point's rows add up its rounds (their block medians are the
/// rounds' medians).
fn sweep_rounds(
    points: Vec<(String, f64)>,
    rounds: usize,
    mut batch: impl FnMut(usize, usize) -> Res<Vec<Raw>>,
) -> Res<Vec<Point>> {
    let pair = "Rust → Rust";
    let mut acc: Vec<Vec<Raw>> = points.iter().map(|_| vec![Raw::default(), Raw::default()]).collect();
    // an untimed batch of every point first (as experiment 2's pre-warm), so that the first
    // round does not also measure what came before the sweep
    for (i, (label, _)) in points.iter().enumerate() {
        batch(i, usize::MAX).map_err(|e| format!("at {label}, pre-warm: {e}"))?;
    }
    for round in 0..rounds.max(1) {
        for i in crate::rotation::order(points.len(), round) {
            let raws = batch(i, round).map_err(|e| format!("at {}, round {}: {e}", points[i].0, round + 1))?;
            for (a, r) in acc[i].iter_mut().zip(raws) {
                a.add(r);
            }
        }
    }
    points
        .into_iter()
        .zip(acc)
        .map(|((label, x), raws)| {
            let (h2, h21, _) = interleaved_rows(pair, &raws)?;
            Ok(Point { label, x, h2: Row { interleaved: false, ..h2 }, h21: Row { interleaved: false, ..h21 } })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// output

fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.0} %", 100.0 * a / b)
    } else {
        "–".into()
    }
}

fn print_main(rows: &[Row]) {
    println!("| client → server | protocol | mean µs | median µs | p99 µs | min–max µs | request B/call | reply B/call | first call B (req / reply) | resends |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let t = &r.times;
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.0}–{:.0} | {:.0} | {:.0} | {} / {} | {} |",
            r.pair,
            r.protocol,
            t.mean,
            t.median,
            t.p99,
            t.min,
            t.max,
            r.request,
            r.reply,
            r.first_request,
            r.first_reply,
            r.resends
        );
    }
    println!();
    println!(
        "Hessian 2 against 2.1, the two clients' calls interleaved call by call ({BLOCKS} blocks: the measured rounds \
         cut in {BLOCKS} consecutive parts, the figure computed in each; min–max over the blocks):"
    );
    println!();
    println!("| client → server | 2.1 request bytes ÷ Hessian 2 | 2.1 reply bytes ÷ Hessian 2 | Hessian 2 median µs | 2.1 median µs | 2.1 median ÷ Hessian 2 (blocks min–max) | per-round 2.1 ÷ Hessian 2, median (blocks min–max) | per-round 2.1 − Hessian 2, median µs (95 % CI) | rounds 2.1 faster | 2.1 mean ÷ Hessian 2 |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (h2, h21) in pairs(rows) {
        let p = h21.paired.as_ref();
        println!(
            "| {} | {} | {} | {:.1} | {:.1} | {} | {} | {} | {} | {:.3} |",
            h21.pair,
            ratio(h21.request, h2.request),
            ratio(h21.reply, h2.reply),
            h2.times.median,
            h21.times.median,
            p.map_or_else(|| ratio(h21.times.median, h2.times.median), Paired::ratio_text),
            p.map_or("–".into(), Paired::round_ratio_text),
            p.map_or("–".into(), |p| format!("{:+.2} ({:+.2} to {:+.2})", p.median, p.low, p.high)),
            p.map_or("–".into(), |p| format!("{:.0} % of {}", 100.0 * p.faster, p.rounds)),
            h21.times.mean / h2.times.mean.max(1e-9),
        );
    }
    println!();
}

/// The Hessian 2 and 2.1 rows of each pairing, in the rows' order.
pub fn pairs(rows: &[Row]) -> Vec<(&Row, &Row)> {
    let mut names: Vec<&str> = rows.iter().map(|r| r.pair).collect();
    names.dedup();
    names
        .into_iter()
        .filter_map(|p| {
            let find = |proto: Proto| rows.iter().find(|r| r.pair == p && r.protocol == proto.name());
            Some((find(Proto::H2)?, find(Proto::H21)?))
        })
        .collect()
}

fn print_sweep(title: &str, what: &str, points: &[Point]) {
    println!("### {title}");
    println!();
    println!("| {what} | H2 req B | 2.1 req B | req 2.1 ÷ H2 | H2 reply B | 2.1 reply B | H2 median µs | 2.1 median µs | H2 p99 µs | 2.1 p99 µs | median 2.1 ÷ H2 | paired 2.1 − H2, median µs (95 % CI) | 2.1 resends |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for p in points {
        let (a, b) = (&p.h2, &p.h21);
        println!(
            "| {} | {:.0} | {:.0} | {} | {:.0} | {:.0} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} | {} |",
            p.label,
            a.request,
            b.request,
            ratio(b.request, a.request),
            a.reply,
            b.reply,
            a.times.median,
            b.times.median,
            a.times.p99,
            b.times.p99,
            ratio(b.times.median, a.times.median),
            b.paired
                .as_ref()
                .map_or("–".to_owned(), |p| format!("{:+.2} ({:+.2} to {:+.2})", p.median, p.low, p.high)),
            b.resends
        );
    }
    println!();
}

fn uptime() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

// ---------------------------------------------------------------------------------------------

/// Runs the benchmark `c` asks for: Markdown on stdout (unless [`Config::quiet`]), JSON to
/// [`Config::json`], and the figures returned. An error on any failed call or check.
pub fn run(c: &Config) -> Res<Outcome> {
    macro_rules! say {
        ($($t:tt)*) => {
            if !c.quiet {
                println!($($t)*);
            }
        };
    }
    let load_before = uptime();
    let started = Instant::now();
    say!(
        "# Type negotiation benchmark ({} mode): W2 exchange, {} warm-up + {} measured calls per row (Hessian 2 \
         and 2.1: rounds of two interleaved calls, the warm-up at least {} s with a Java client, {} s Rust → Java); \
         load average before: {load_before}",
        c.mode,
        c.warmup,
        c.calls,
        c.java_warmup.as_secs_f64(),
        c.java_server_warmup.as_secs_f64()
    );
    say!();
    // The client's calls run on this thread (as the project's fastest client setup, rpc_probe).
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| format!("runtime: {e}"))?;
    let rust = match &c.remote {
        Some(r) => Server::remote(r.rust),
        None => Server::rust(&c.rust_server)?,
    };
    let rust_bench = rust.url("/bench");
    let java = if c.java { java() } else { None };
    let java_skipped = (c.java && java.is_none()).then(|| "Java or the Hessian jar is missing".to_owned());
    if let Some(why) = &java_skipped {
        say!("(Java rows skipped: {why})");
    }
    // Per pairing: Hessian 1, 2 and 2.1 interleaved call by call (three clients, every server
    // running), so that their ratios are not the machine's drift.
    let mut rows = Vec::new();
    let mut push = |(h2, h21, h1): (Row, Row, Option<Row>)| {
        rows.extend(h1);
        rows.extend([h2, h21]);
    };
    let base = rust.url("");
    let warm = (c.warmup, Duration::ZERO);
    push(rt.block_on(pair("Rust → Rust", [&base, &base], Some(&base), Work::W2, warm, c.calls))?);
    if let Some(java) = &java {
        // Hessian 1 against Java goes to a skeleton of its own (the same class as Hessian 2's),
        // so that each Java server's JIT sees one protocol, as when Hessian 1 ran alone: with
        // Hessian 1's calls first on the plain server, that server came to the pair warmer than
        // NegotiatingServer (Java → Java 2.1 ÷ Hessian 2 at 1.18–1.23, against 0.92–0.96
        // without, on a loaded 2-core machine). With `remote`, the plain server serves both.
        let (plain, negotiating, plain_h1) = match c.remote.as_ref().map(|r| r.java) {
            Some(Some((plain, negotiating))) => (Server::remote(plain), Server::remote(negotiating), None),
            Some(None) => return Err("the Java servers are not running elsewhere".into()),
            None => (
                Server::java(java, c.plain_java_server.class())?,
                Server::java(java, "NegotiatingServer")?,
                Some(Server::java(java, c.plain_java_server.class())?),
            ),
        };
        let h1 = plain_h1.as_ref().unwrap_or(&plain);
        let [h2_url, h21_url, h1_url] = [plain.url("/bench"), negotiating.url("/bench"), h1.url("/bench")];
        let warm = (c.warmup, c.java_warmup);
        push(java_pair(java, "Java → Java", [&h2_url, &h21_url], Some(&h1_url), warm, c.calls)?);
        let bases = [plain.url(""), negotiating.url(""), h1.url("")];
        let warm = (c.warmup, c.java_server_warmup);
        push(rt.block_on(pair("Rust → Java", [&bases[0], &bases[1]], Some(&bases[2]), Work::W2, warm, c.calls))?);
        let warm = (c.warmup, c.java_warmup);
        push(java_pair(java, "Java → Rust", [&rust_bench, &rust_bench], Some(&rust_bench), warm, c.calls)?);
    }
    say!("## W2 exchange over loopback");
    say!();
    if !c.quiet {
        print_main(&rows);
    }

    let mut sweeps = serde_json::Map::new();
    let mut sweep_list = Vec::new();
    // prints a sweep's table and keeps its points, as JSON and as figures
    let mut finish = |id: &'static str, title: String, what: &'static str, points: Vec<Point>| {
        if !c.quiet {
            print_sweep(&title, what, &points);
        }
        sweeps.insert(id.into(), Json::Array(points.iter().map(Point::json).collect()));
        sweep_list.push(Sweep { id, title, what, points });
    };
    if c.sweeps {
        say!("## Sweeps, Rust client → Rust server, Hessian 2 vs 2.1");
        say!();
        say!(
            "Each point in {} rounds (every round a batch of every point of the sweep, in a rotating order): per \
             batch a new client per protocol, the two clients' calls alternating; {} warm-up then {} measured calls \
             each in all (fewer for the large graphs and the slow links, see the calls in the JSON), shared by the \
             rounds; bytes per measured call.",
            c.sweep_rounds,
            c.sweep_warmup,
            c.sweep_calls
        );
        say!();
        let base = rust.url("");
        let tiny = c.mode == "tiny";
        let r = c.sweep_rounds.max(1);
        // a batch's share of `warmup` and `calls`
        let share = |warmup: usize, calls: usize| (warmup.div_ceil(r), calls.div_ceil(r));
        let label = |n: usize| (n.to_string(), n as f64);
        // a batch of `echo(arg)` calls, Hessian 2 and 2.1 alternating
        let echo = |arg: &Value, calls: usize| -> Res<Vec<Raw>> {
            let (warmup, calls) = share(c.sweep_warmup, calls);
            let clients = [(base.as_str(), Proto::H2), (base.as_str(), Proto::H21)];
            rt.block_on(interleave(&clients, Work::Echo(arg), (warmup, Duration::ZERO), calls))
        };

        let counts: &[usize] = if tiny { &[1, 6, 32] } else { &[1, 2, 4, 6, 8, 16, 32, 64] };
        let args: Vec<Value> = counts.iter().map(|&n| graph(&classes(n, 0, 4), 1)).collect();
        let points = sweep_rounds(counts.iter().map(|&n| label(n)).collect(), r, |i, _| echo(&args[i], c.sweep_calls))?;
        let title =
            "Number of types per call (`echo(list)`: one instance of each class, 4 fields, names of 26 characters)";
        finish("types", title.to_owned(), "types", points);

        let counts: &[usize] = if tiny { &[1, 16] } else { &[1, 4, 16, 64, 256] };
        let args: Vec<Value> = counts.iter().map(|&n| graph(&classes(6, 0, 4), n)).collect();
        let calls = |i: usize| (c.sweep_calls * 16 / counts[i].max(16)).max(c.sweep_calls.min(20));
        let points = sweep_rounds(counts.iter().map(|&n| label(n)).collect(), r, |i, _| echo(&args[i], calls(i)))?;
        finish(
            "instances",
            "Instances per call (6 classes of 4 fields, `n` instances of each)".to_owned(),
            "instances per class",
            points,
        );

        let lens: &[usize] = if tiny { &[26, 128] } else { &[26, 48, 96, 192, 384] };
        let args: Vec<Value> = lens.iter().map(|&len| graph(&classes(6, len, 4), 1)).collect();
        let points = sweep_rounds(lens.iter().map(|&n| label(n)).collect(), r, |i, _| echo(&args[i], c.sweep_calls))?;
        finish(
            "name_length",
            "Length of type names (6 classes of 4 fields, one instance each; names padded with `.`)".to_owned(),
            "name characters",
            points,
        );

        let ks: &[usize] = if tiny { &[1, 3] } else { &[1, 2, 3, 5, 10, 100] };
        let points = sweep_rounds(ks.iter().map(|&k| label(k)).collect(), r, |i, _| {
            let k = ks[i];
            let all = if k >= 100 { c.conversations.div_ceil(5) } else { c.conversations };
            rt.block_on(conversations(&rust_bench, k, all.div_ceil(r)))
        })?;
        finish(
            "calls_per_conversation",
            format!(
            "Calls per conversation (W2 `exchange`; each conversation a new client and connection, {} conversations \
                 per point, fewer for 100 calls, Hessian 2 and 2.1 conversations alternating; bytes per call averaged \
                 over the conversation, time = the conversation's mean per call, median and p99 over conversations)",
            c.conversations
        ),
            "calls",
            points,
        );

        // the linked sweeps: one delaying proxy per point, kept for all the rounds
        let linked = |links: Vec<(String, Link, usize)>| -> Res<Vec<Point>> {
            let proxies: Vec<Relay> = links
                .iter()
                .map(|(_, link, _)| Relay::start(rust.addr, *link).map_err(|e| format!("delay proxy: {e}")))
                .collect::<Res<_>>()?;
            let bases: Vec<String> = proxies.iter().map(|p| format!("http://{}", p.local_addr())).collect();
            let labels = links.iter().map(|(l, _, _)| (l.clone(), number_of(l))).collect();
            sweep_rounds(labels, r, |i, _| {
                let calls = links[i].2;
                let (warmup, calls) = share(c.sweep_warmup.min(calls), calls);
                let clients = [(bases[i].as_str(), Proto::H2), (bases[i].as_str(), Proto::H21)];
                rt.block_on(interleave(&clients, Work::W2, (warmup, Duration::ZERO), calls))
            })
        };
        let links = c
            .delays
            .iter()
            .map(|&ms| {
                let link = Link { one_way_delay: Duration::from_millis(ms), bytes_per_second: None };
                let calls = if ms == 0 { c.sweep_calls } else { (c.sweep_calls / (2 * ms as usize)).max(20) };
                (format!("{ms} ms"), link, calls)
            })
            .collect();
        finish("latency", "Latency (W2 `exchange` through a delaying TCP proxy in this process, tokio, adding the one-way delay to every \
             chunk in each direction; 0 ms = the proxy alone)".to_owned(), "one-way delay", linked(links)?);

        let links = c
            .rates
            .iter()
            .map(|&bits| {
                let link = Link { one_way_delay: Duration::ZERO, bytes_per_second: Some(bits / 8) };
                let calls = (c.sweep_calls * bits as usize / 100_000_000).max(c.sweep_calls.min(100));
                (format!("{} Mbit/s", bits / 1_000_000), link, calls)
            })
            .collect();
        finish("bandwidth", "Bandwidth (W2 `exchange` through the same proxy limiting each direction to the rate, no added delay; HTTP \
             headers cross the link too)".to_owned(), "link rate", linked(links)?);
    }
    drop(rust);
    let load_after = uptime();
    say!("Load average before: {load_before}; after: {load_after}; {:.0} s in all.", started.elapsed().as_secs_f64());
    let doc = json!({
        "benchmark": "negotiation_bench",
        "mode": c.mode,
        "warmup": c.warmup,
        "calls": c.calls,
        "sweep_warmup": c.sweep_warmup,
        "sweep_calls": c.sweep_calls,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "latency_emulation": "delaying TCP proxy (tokio, in the benchmark process), fixed one-way delay per chunk and optional rate per direction",
        "bytes": "HTTP bodies per call, as the client counts them",
        "java_warmup_s": c.java_warmup.as_secs_f64(),
        "java_server_warmup_s": c.java_server_warmup.as_secs_f64(),
        "plain_java_server": c.plain_java_server.class(),
        "w2": rows.iter().map(Row::json).collect::<Vec<_>>(),
        "w2_interleaved": pairs(&rows).into_iter().map(|(h2, h21)| json!({
            "pair": h21.pair,
            "hessian2_median_us": h2.times.median,
            "hessian21_median_us": h21.times.median,
            "paired": h21.paired.as_ref().map(Paired::json),
        })).collect::<Vec<_>>(),
        "sweeps": Json::Object(sweeps),
    });
    if let Some(path) = &c.json {
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        say!("JSON written to {}", path.display());
    }
    Ok(Outcome { rows, sweeps: sweep_list, java_skipped, json: doc })
}
