//! Experiment 2, the protocol comparison (seed: the Java remoting study): W1 `getItems(n)` over
//! loopback for every list size, then W2 `exchange(Order)`, for each protocol; client and server
//! in separate processes (the suite re-executes itself as `seed serve PROTOCOL`, Java servers run
//! in their own JVM). Every reply is checked. Plus the shared-`Product` variant of W2 at the codec
//! level: which formats keep one shared object and which duplicate it.

use crate::seed::javapeer;
use crate::seed::peers::{Codec, HttpClient};
use crate::seed::procs::{self, Server};
use crate::seed::remote::{self, Backend, Bind, Remote};
use crate::seed::results::{Experiment, Figure, Point, Series, Status};
use crate::seed::rounds;
use crate::seed::stats::Summary;
use crate::seed::wire::{self, Framing};
use crate::seed::{Mode, Options};
use hessian_bench::relay::Relay;
use hessian_demo::BenchClient;
use hessian_rpc::{Client, Dialect};
use hessian_testkit::structs::{w2, Item};
use indicatif::ProgressBar;
use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;

/// The small lists of the study.
pub const SMALL: [usize; 5] = [1, 10, 50, 100, 250];
/// The large lists of the study.
pub const LARGE: [usize; 4] = [500, 1000, 2500, 5000];

/// Call counts of one mode.
#[derive(Clone, Debug)]
pub struct Counts {
    /// Calls of `getItems(100)` before the first measured size (connection set-up and, above
    /// all, the JIT of both Java sides: with 100 of them, Java's Hessian 2 still took 10x its
    /// warm time at n = 500).
    pub prewarm: usize,
    /// At most this many seconds of pre-warm calls (so slow protocols do not stretch the run).
    pub prewarm_secs: f64,
    /// Warm-up calls per size, before the first round.
    pub warmup: usize,
    /// Rounds: each runs every row's batch (every list size, then W2), the rows in an order
    /// that rotates from round to round ([`rounds::order`]).
    pub rounds: usize,
    /// Unmeasured calls at the start of each batch, per list size and before W2's (the row's
    /// first calls after the other rows ran: a connection the client let go, cold caches).
    pub batch_warmup: usize,
    /// Measured calls per size and round.
    pub measured: usize,
    /// W2 warm-up calls, before the first round.
    pub w2_warmup: usize,
    /// W2 measured calls per round.
    pub w2_measured: usize,
    /// List sizes.
    pub sizes: Vec<usize>,
    /// Calls per list size and of W2 in the byte count, after the rounds, through the counting
    /// relay (after [`BYTES_WARMUP`] uncounted ones).
    pub byte_calls: usize,
}

/// Uncounted calls before each counted batch of the byte count: the counting client's
/// connection, and for Hessian 2.1 its type maps, are set up by them.
pub const BYTES_WARMUP: usize = 2;

/// How long the byte count waits after a batch before it reads the counters, for bytes still
/// crossing after the last reply was read (an HTTP/2 WINDOW_UPDATE, say).
const SETTLE: Duration = Duration::from_millis(25);

impl Counts {
    /// Whether pre-warm call number `i` (started at `t0`) is still to be made.
    pub fn prewarming(&self, i: usize, t0: Instant) -> bool {
        i < self.prewarm && t0.elapsed().as_secs_f64() < self.prewarm_secs
    }

    /// The counts of `mode`.
    pub fn of(mode: Mode) -> Counts {
        let all: Vec<usize> = SMALL.iter().chain(&LARGE).copied().collect();
        match mode {
            Mode::Tiny => Counts {
                prewarm: 2,
                prewarm_secs: 1.0,
                warmup: 1,
                rounds: 2,
                batch_warmup: 1,
                measured: 2,
                w2_warmup: 2,
                w2_measured: 5,
                sizes: vec![1, 10, 500],
                byte_calls: 2,
            },
            Mode::Quick => Counts {
                prewarm: 1000,
                prewarm_secs: 3.0,
                warmup: 3,
                rounds: 5,
                batch_warmup: 1,
                measured: 4,
                w2_warmup: 1000,
                w2_measured: 200,
                sizes: all,
                byte_calls: 5,
            },
            Mode::Full => Counts {
                prewarm: 5000,
                prewarm_secs: 20.0,
                warmup: 10,
                rounds: 10,
                batch_warmup: 1,
                measured: 10,
                w2_warmup: 1000,
                w2_measured: 1000,
                sizes: all,
                byte_calls: 5,
            },
        }
    }
}

/// How a protocol row runs.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Rust client (`hessian-rpc`, the typed client) to the Rust server.
    RustHessian(Dialect, bool),
    /// Rust client to the Rust server of a serde format over HTTP.
    RustSerde(Codec),
    /// tonic client to tonic server (gRPC over HTTP/2, prost messages).
    Grpc,
    /// `dxr` XML-RPC client to `dxr` XML-RPC server, over the suite's HTTP stack.
    XmlRpc,
    /// AMF3 remoting client to the AMF3 gateway (`amf`), over the suite's HTTP stack.
    Amf,
    /// Py3AMF client (`interop/amf/amf_peer.py`, command mode as the Java clients') to the Rust
    /// AMF3 gateway.
    PythonAmf,
    /// Rust client (plain Hessian 2) to Caucho's skeleton.
    RustToJava,
    /// Java client (MODE of SeedJavaClient) to a Java server (protocol of SeedJavaServer), or to
    /// the Rust Hessian server when `None`.
    Java(&'static str, Option<&'static str>),
    /// Java client (MODE `spring` or `jaxws`) to `SeedPeerServer MODE` (`interop/java/seed-peers`).
    JavaPeer(&'static str),
}

/// A protocol row of experiment 2.
#[derive(Clone, Copy, Debug)]
pub struct Proto {
    /// The id of `--protocols`.
    pub id: &'static str,
    /// The label of charts and tables.
    pub label: &'static str,
    kind: Kind,
}

/// Every protocol row, in the order of the report.
pub const PROTOCOLS: &[Proto] = &[
    Proto { id: "hessian2.1", label: "Hessian 2.1 (Rust)", kind: Kind::RustHessian(Dialect::HESSIAN2, true) },
    Proto { id: "hessian2", label: "Hessian 2 (Rust)", kind: Kind::RustHessian(Dialect::HESSIAN2, false) },
    Proto { id: "hessian1", label: "Hessian 1 (Rust)", kind: Kind::RustHessian(Dialect::HESSIAN1, false) },
    Proto { id: "burlap", label: "Burlap (Rust)", kind: Kind::RustHessian(Dialect::BURLAP, false) },
    Proto { id: "json", label: "JSON over HTTP (Rust)", kind: Kind::RustSerde(Codec::Json) },
    Proto { id: "msgpack", label: "MessagePack over HTTP (Rust)", kind: Kind::RustSerde(Codec::MsgPack) },
    Proto { id: "bincode", label: "bincode over HTTP (Rust)", kind: Kind::RustSerde(Codec::Bincode) },
    Proto { id: "grpc", label: "gRPC, tonic + prost (Rust)", kind: Kind::Grpc },
    Proto { id: "xmlrpc", label: "XML-RPC, dxr (Rust)", kind: Kind::XmlRpc },
    Proto { id: "amf", label: "AMF3 remoting, flash-lso (Rust)", kind: Kind::Amf },
    Proto { id: "amf-python", label: "AMF3, Python client (Py3AMF) -> Rust server", kind: Kind::PythonAmf },
    Proto { id: "java-hessian2", label: "Hessian 2 (Java)", kind: Kind::Java("h2", Some("hessian")) },
    Proto { id: "java-hessian1", label: "Hessian 1 (Java)", kind: Kind::Java("h1", Some("hessian")) },
    Proto { id: "java-burlap", label: "Burlap (Java)", kind: Kind::Java("burlap", Some("hessian")) },
    Proto { id: "java-to-rust", label: "Hessian 2, Java client -> Rust server", kind: Kind::Java("h2", None) },
    Proto { id: "rust-to-java", label: "Hessian 2, Rust client -> Java server", kind: Kind::RustToJava },
    Proto { id: "java-rmi", label: "Java RMI (JDK)", kind: Kind::Java("rmi", Some("rmi")) },
    Proto { id: "java-spring", label: "Spring HttpInvoker (Java)", kind: Kind::JavaPeer("spring") },
    Proto { id: "java-jaxws", label: "SOAP, JAX-WS RI (Java)", kind: Kind::JavaPeer("jaxws") },
];

impl Proto {
    /// Whether the row needs Java (its client, its server or both).
    pub fn needs_java(&self) -> bool {
        matches!(self.kind, Kind::Java(..) | Kind::RustToJava | Kind::JavaPeer(_))
    }

    /// Whether the row needs the Spring and JAX-WS peers (`interop/java/seed-peers`).
    pub fn needs_peers(&self) -> bool {
        matches!(self.kind, Kind::JavaPeer(_))
    }

    /// How many consecutive ports the row's server takes on a fixed port (RMI: the registry's
    /// and its two exported objects').
    pub fn ports(&self) -> u16 {
        if matches!(self.kind, Kind::Java("rmi", _)) {
            3
        } else {
            1
        }
    }

    /// How the row's bodies are framed: HTTP/1.1, HTTP/2 (gRPC) or none (RMI's JRMP).
    fn framing(&self) -> Option<Framing> {
        match self.kind {
            Kind::Grpc => Some(Framing::Http2),
            Kind::Java("rmi", _) => None,
            _ => Some(Framing::Http1),
        }
    }
}

/// Starts `seed serve WHAT` (this executable) as a child process.
pub fn rust_server(what: &str) -> Result<Server, String> {
    rust_server_at(what, &Bind::local())
}

/// Starts `seed serve WHAT --listen ADDR` as a child process, listening as `bind` says.
pub fn rust_server_at(what: &str, bind: &Bind) -> Result<Server, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the suite's executable: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["serve", what, "--listen", &bind.listen()]);
    Server::start(&format!("seed serve {what}"), cmd, Duration::from_secs(20))
}

fn java_server(java: &hessian_testkit::java::Java, what: &str, bind: &Bind) -> Result<Server, String> {
    let mut cmd = javapeer::command_at(java, "SeedJavaServer", bind, true);
    cmd.arg(what);
    Server::start(&format!("SeedJavaServer {what}"), cmd, Duration::from_secs(60))
}

/// Checks a `getItems(n)` reply: its length and the first, middle and last item.
pub fn check_items(v: &[Item], n: usize) -> Result<(), String> {
    if v.len() != n {
        return Err(format!("getItems({n}) answered {} items", v.len()));
    }
    for i in [0, n / 2, n.saturating_sub(1)] {
        if n > 0 && v[i] != Item::of(i) {
            return Err(format!("getItems({n}): item {i} is wrong: {:?}", v[i]));
        }
    }
    Ok(())
}

/// Checks a W2 reply against the specified reply graph.
pub fn check_order(o: &w2::Order, expected: &w2::Order) -> Result<(), String> {
    if o == expected {
        Ok(())
    } else {
        Err(format!("exchange answered a different graph (order {}, {} lines)", o.id, o.lines.len()))
    }
}

/// What a batch calls: `getItems(n)` or the W2 `exchange`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Work {
    Items(usize),
    Exchange,
}

/// The measured calls of one batch: round trips in µs, and the request and reply bytes per
/// measured call (NaN where the client does not count them).
struct Batch {
    us: Vec<f64>,
    req: f64,
    rep: f64,
}

/// How long a Java client may take to answer one command of a round.
const JAVA_BATCH_TIMEOUT: Duration = Duration::from_secs(300);

/// The client side of a live row: an in-process Rust client, or a long-lived Java client
/// process in command mode (`SeedJavaClient URL MODE serve`).
enum Driver {
    Hessian(Client, BenchClient),
    Serde(HttpClient),
    Grpc(crate::seed::grpc::Client),
    XmlRpc(HttpClient),
    Amf(HttpClient),
    Java(procs::Peer),
}

/// A byte count of a client's call, as the figures keep it.
trait ByteCount {
    fn count(self) -> f64;
}

impl ByteCount for usize {
    fn count(self) -> f64 {
        self as f64
    }
}

impl ByteCount for f64 {
    fn count(self) -> f64 {
        self
    }
}

/// Times one call (`call` gives the reply and its request and reply bytes), then checks the
/// reply with `check`: the round trip and the bytes.
async fn timed<T, B: ByteCount>(
    call: impl std::future::Future<Output = Result<(T, B, B), String>>,
    check: impl FnOnce(&T) -> Result<(), String>,
) -> Result<(Duration, f64, f64), String> {
    let t0 = Instant::now();
    let (v, q, r) = call.await?;
    let t = t0.elapsed();
    check(&v)?;
    Ok((t, q.count(), r.count()))
}

impl Driver {
    /// One call by a Rust client, its reply checked: the round trip, request and reply bytes.
    async fn call(
        &mut self,
        w: Work,
        request: &w2::Order,
        expected: &w2::Order,
    ) -> Result<(Duration, f64, f64), String> {
        let t0;
        match (self, w) {
            (Driver::Hessian(client, bench), w) => {
                let before = client.type_map_stats();
                let t = match w {
                    Work::Items(n) => {
                        t0 = Instant::now();
                        let v = bench.get_items(n as i32).await.map_err(|e| format!("getItems({n}): {e}"))?;
                        let t = t0.elapsed();
                        check_items(&v, n)?;
                        t
                    }
                    Work::Exchange => {
                        let order = request.clone();
                        t0 = Instant::now();
                        let o = bench.exchange(order).await.map_err(|e| format!("exchange: {e}"))?;
                        let t = t0.elapsed();
                        check_order(o.borrow(), expected)?;
                        t
                    }
                };
                let after = client.type_map_stats();
                Ok((
                    t,
                    (after.request_bytes - before.request_bytes) as f64,
                    (after.reply_bytes - before.reply_bytes) as f64,
                ))
            }
            (Driver::Serde(client), Work::Items(n)) => {
                timed(client.call::<_, Vec<Item>>("/getItems", &(n as i32)), |v| check_items(v, n)).await
            }
            (Driver::Serde(client), Work::Exchange) => {
                timed(client.call::<_, w2::Order>("/exchange", request), |o| check_order(o, expected)).await
            }
            (Driver::Grpc(client), Work::Items(n)) => {
                timed(crate::seed::grpc::get_items(client, n), |v| check_items(v, n)).await
            }
            (Driver::Grpc(client), Work::Exchange) => {
                timed(crate::seed::grpc::exchange(client, request), |o| check_order(o, expected)).await
            }
            (Driver::XmlRpc(client), Work::Items(n)) => {
                timed(crate::seed::xmlrpc::get_items(client, n), |v| check_items(v, n)).await
            }
            (Driver::XmlRpc(client), Work::Exchange) => {
                timed(crate::seed::xmlrpc::exchange(client, request), |o| check_order(o, expected)).await
            }
            (Driver::Amf(client), Work::Items(n)) => {
                timed(crate::seed::amf::get_items(client, n), |v| check_items(v, n)).await
            }
            (Driver::Amf(client), Work::Exchange) => {
                timed(crate::seed::amf::exchange(client, request), |o| check_order(o, expected)).await
            }
            (Driver::Java(_), _) => Err("a Java client runs batches, not calls".into()),
        }
    }

    /// A batch: `warm` unmeasured calls, then `measured` timed ones, every reply checked.
    fn batch(&mut self, rt: &Runtime, w: Work, warm: usize, measured: usize) -> Result<Batch, String> {
        if let Driver::Java(peer) = self {
            let command = match w {
                Work::Items(n) => format!("w1 {n} {warm} {measured}"),
                Work::Exchange => format!("w2 {warm} {measured}"),
            };
            let us = java_times(&peer.ask(&command, &["TIMES", "FAIL"], JAVA_BATCH_TIMEOUT)?, measured)?;
            return Ok(Batch { us, req: f64::NAN, rep: f64::NAN });
        }
        let (request, expected) = (w2::request(), w2::reply());
        rt.block_on(async {
            for _ in 0..warm {
                self.call(w, &request, &expected).await?;
            }
            let (mut us, mut req, mut rep) = (Vec::with_capacity(measured), 0.0, 0.0);
            for _ in 0..measured {
                let (t, q, r) = self.call(w, &request, &expected).await?;
                us.push(t.as_secs_f64() * 1e6);
                (req, rep) = (req + q, rep + r);
            }
            let k = measured.max(1) as f64;
            Ok(Batch { us, req: req / k, rep: rep / k })
        })
    }

    /// Before the first round: `c.prewarm` calls of `getItems(100)` (at most `c.prewarm_secs`
    /// of them), `c.warmup` calls per list size and `c.w2_warmup` W2 calls.
    fn prewarm(&mut self, rt: &Runtime, c: &Counts) -> Result<(), String> {
        if let Driver::Java(peer) = self {
            let command = format!("prewarm {} {}", c.prewarm, c.prewarm_secs);
            // the first command also waits for the JVM to start and the proxy to be made
            let timeout = JAVA_BATCH_TIMEOUT + Duration::from_secs_f64(c.prewarm_secs);
            java_times(&peer.ask(&command, &["TIMES", "FAIL"], timeout)?, 0)?;
        } else {
            let (request, expected) = (w2::request(), w2::reply());
            rt.block_on(async {
                let (mut i, t0) = (0, Instant::now());
                while c.prewarming(i, t0) {
                    i += 1;
                    self.call(Work::Items(100), &request, &expected).await?;
                }
                Ok::<(), String>(())
            })?;
        }
        for &n in &c.sizes {
            self.batch(rt, Work::Items(n), c.warmup, 0)?;
        }
        self.batch(rt, Work::Exchange, c.w2_warmup, 0).map(|_| ())
    }
}

/// The round trips of a Java client's `TIMES us1 us2 …` answer (a `FAIL why` answer is the
/// error `why`), `expected` of them.
fn java_times(line: &str, expected: usize) -> Result<Vec<f64>, String> {
    if let Some(why) = line.strip_prefix("FAIL") {
        return Err(format!("SeedJavaClient: {}", why.trim()));
    }
    let us: Vec<f64> = line
        .trim_start_matches("TIMES")
        .split_whitespace()
        .map(|t| t.parse::<f64>().map_err(|e| format!("SeedJavaClient answered `{t}`: {e}")))
        .collect::<Result<_, _>>()?;
    if us.len() != expected {
        return Err(format!("SeedJavaClient answered {} times, expected {expected}", us.len()));
    }
    Ok(us)
}

/// A Rust row's client of the server at `addr` (`127.0.0.1:PORT`: the row's server, or the
/// counting relay in front of it).
fn rust_client(p: &Proto, rt: &Runtime, addr: &str) -> Result<Driver, String> {
    let hessian = |dialect: Dialect, type_maps: bool| -> Result<Driver, String> {
        let client = Client::builder().dialect(dialect).type_maps(type_maps).build();
        let bench = BenchClient::new(client.proxy(&format!("http://{addr}/bench")).map_err(|e| e.to_string())?);
        Ok(Driver::Hessian(client, bench))
    };
    match p.kind {
        Kind::RustHessian(dialect, type_maps) => hessian(dialect, type_maps),
        Kind::RustToJava => hessian(Dialect::HESSIAN2, false),
        Kind::RustSerde(codec) => Ok(Driver::Serde(HttpClient::new(addr, codec))),
        Kind::Grpc => Ok(Driver::Grpc(rt.block_on(crate::seed::grpc::connect(addr))?)),
        Kind::XmlRpc => Ok(Driver::XmlRpc(HttpClient::raw(addr, "text/xml"))),
        Kind::Amf => Ok(Driver::Amf(crate::seed::amf::client(addr))),
        Kind::Java(..) | Kind::JavaPeer(_) => Err(format!("{} has a Java client", p.id)),
        Kind::PythonAmf => Err(format!("{} has a Python client", p.id)),
    }
}

/// Starts a row's server, listening as `bind` says (the suite's own loopback, or `seed
/// serve-all`'s address).
pub fn row_server(
    p: &Proto,
    java: Option<&hessian_testkit::java::Java>,
    peers: Option<&javapeer::Peers>,
    bind: &Bind,
) -> Result<Server, String> {
    match p.kind {
        Kind::RustHessian(..) | Kind::Java(_, None) => rust_server_at("hessian", bind),
        Kind::RustSerde(_) => rust_server_at(p.id, bind),
        Kind::Grpc => rust_server_at("grpc", bind),
        Kind::XmlRpc => rust_server_at("xmlrpc", bind),
        Kind::Amf | Kind::PythonAmf => rust_server_at("amf", bind),
        Kind::RustToJava => java_server(java.ok_or("no Java")?, "hessian", bind),
        Kind::Java(_, Some(what)) => java_server(java.ok_or("no Java")?, what, bind),
        Kind::JavaPeer(mode) => {
            let mut cmd = peers.ok_or("no Java peers")?.command_at("SeedPeerServer", bind);
            cmd.arg(mode);
            Server::start(&format!("SeedPeerServer {mode}"), cmd, Duration::from_secs(60))
        }
    }
}

/// Starts a row's client of its server at `addr` (`host:port`).
fn row_client(
    p: &Proto,
    rt: &Runtime,
    java: Option<&hessian_testkit::java::Java>,
    peers: Option<&javapeer::Peers>,
    addr: &str,
) -> Result<Driver, String> {
    match p.kind {
        Kind::Java(mode, _) => {
            let url = if mode == "rmi" { format!("rmi://{addr}/bench") } else { format!("http://{addr}/bench") };
            let mut cmd = javapeer::command(java.ok_or("no Java")?, "SeedJavaClient");
            cmd.args([url.as_str(), mode, "serve"]);
            Ok(Driver::Java(procs::Peer::start(&format!("SeedJavaClient {mode}"), cmd)?))
        }
        Kind::JavaPeer(mode) => {
            let mut cmd = peers.ok_or("no Java peers")?.command("SeedJavaClient");
            cmd.args([format!("http://{addr}/bench").as_str(), mode, "serve"]);
            Ok(Driver::Java(procs::Peer::start(&format!("SeedJavaClient {mode}"), cmd)?))
        }
        Kind::PythonAmf => {
            let url = format!("http://{addr}/amf");
            let cmd = crate::seed::amf::python_peer(&[url.as_str(), "serve"]).map_err(|(_, why)| why)?;
            Ok(Driver::Java(procs::Peer::start("amf_peer.py", cmd)?))
        }
        _ => rust_client(p, rt, addr),
    }
}

/// Starts a row's server (here, or takes the server machine's with `--servers`) and its client.
fn start(
    p: &Proto,
    rt: &Runtime,
    java: Option<&hessian_testkit::java::Java>,
    peers: Option<&javapeer::Peers>,
    remote: Option<&Result<Remote, String>>,
) -> Result<(Driver, Backend), String> {
    let server = remote::backend(remote, &format!("exp2-{}", p.id), || row_server(p, java, peers, &Bind::local()))?;
    Ok((row_client(p, rt, java, peers, &server.addr())?, server))
}

/// A point's bytes per call from the byte count: on the socket in each direction, and the
/// request and reply bodies (`None` for RMI, which has no HTTP).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Wire {
    up: f64,
    down: f64,
    body: Option<(f64, f64)>,
}

/// Where a row's byte count is read.
enum Meter {
    /// The counting relay in front of the row's server, its client's second connection going
    /// through it (recording, for the bodies).
    Relay(Relay),
    /// The counting sockets of the Java RMI client's `bench-counted` stub (`SeedCountingSockets`).
    JavaSockets,
}

/// Sends `use WHAT` to a Java client (a new client of WHAT, or the counted RMI stub).
fn java_use(driver: &mut Driver, what: &str) -> Result<(), String> {
    let Driver::Java(peer) = driver else { return Err("not a Java client".into()) };
    java_times(&peer.ask(&format!("use {what}"), &["TIMES", "FAIL"], JAVA_BATCH_TIMEOUT)?, 0).map(|_| ())
}

/// The Java RMI client's counts so far, from its `BYTES up down` answer.
fn java_bytes(driver: &mut Driver) -> Result<(u64, u64), String> {
    let Driver::Java(peer) = driver else { return Err("not a Java client".into()) };
    let line = peer.ask("bytes", &["BYTES", "FAIL"], JAVA_BATCH_TIMEOUT)?;
    let f: Vec<u64> = line.split_whitespace().skip(1).filter_map(|t| t.parse().ok()).collect();
    match f[..] {
        [up, down] => Ok((up, down)),
        _ => Err(format!("SeedJavaClient answered `{line}` to bytes")),
    }
}

impl Meter {
    /// Starts counting (after [`SETTLE`]); the Java counts so far, to subtract.
    fn start(&self, driver: &mut Driver) -> Result<(u64, u64), String> {
        std::thread::sleep(SETTLE);
        match self {
            Meter::Relay(relay) => {
                relay.reset();
                relay.record(true);
                Ok((0, 0))
            }
            Meter::JavaSockets => java_bytes(driver),
        }
    }

    /// The bytes per call of the `calls` calls since [`Meter::start`] answered `before`; the
    /// bodies parsed from the relay's recording in `framing` (checked to hold one request per
    /// call for HTTP/1.1, so a client that went around the relay is caught).
    fn read(
        &self,
        driver: &mut Driver,
        before: (u64, u64),
        framing: Option<Framing>,
        calls: usize,
    ) -> Result<Wire, String> {
        std::thread::sleep(SETTLE);
        let k = calls.max(1) as f64;
        let (up, down, body) = match self {
            Meter::Relay(relay) => {
                let counts = relay.counts();
                relay.record(false);
                let body = match framing {
                    Some(f) => {
                        let (q, r) = wire::bodies(&relay.taps(), f)?;
                        if f == Framing::Http1 && q.messages != calls {
                            return Err(format!("the relay saw {} requests for {calls} calls", q.messages));
                        }
                        Some((q.bytes as f64 / k, r.bytes as f64 / k))
                    }
                    None => None,
                };
                (counts.up, counts.down, body)
            }
            Meter::JavaSockets => {
                let (up, down) = java_bytes(driver)?;
                (up.saturating_sub(before.0), down.saturating_sub(before.1), None)
            }
        };
        if up == 0 || down == 0 {
            return Err(format!("{up} bytes up and {down} down were counted for {calls} calls"));
        }
        Ok(Wire { up: up as f64 / k, down: down as f64 / k, body })
    }
}

/// A row of experiment 2 while the rounds run: its two series, its live server and client,
/// and the measured round trips so far.
struct Row {
    p: &'static Proto,
    w1: Series,
    w2: Series,
    live: Option<(Driver, Backend)>,
    /// Per list size, per round, the measured round trips (µs).
    w1_us: Vec<Vec<Vec<f64>>>,
    w1_bytes: Vec<(f64, f64)>,
    w2_us: Vec<Vec<f64>>,
    w2_bytes: (f64, f64),
    /// The byte count per list size, then W2's.
    wire: Vec<Option<Wire>>,
}

impl Row {
    /// Marks both of the row's figures as not run: skipped (a peer missing locally) or failed
    /// (the same under CI), with the reason.
    fn not_run(&mut self, skip: bool, why: &str) {
        for s in [&mut self.w1, &mut self.w2] {
            if skip {
                s.skip(why.to_owned())
            } else {
                s.fail(why.to_owned())
            }
        }
    }

    /// Marks the row failed (the reason names the server's death if it died) and stops its
    /// server and client.
    fn fail(&mut self, why: String) {
        let why = match self.live.as_mut() {
            Some((_, server)) => server.check_alive().err().unwrap_or(why),
            None => why,
        };
        self.live = None;
        self.w1.fail(why.clone());
        self.w2.fail(why);
    }

    /// One round's batch: every list size, then W2.
    fn round(&mut self, rt: &Runtime, c: &Counts) -> Result<(), String> {
        let Some((driver, _)) = self.live.as_mut() else { return Ok(()) };
        for (k, &n) in c.sizes.iter().enumerate() {
            let b =
                driver.batch(rt, Work::Items(n), c.batch_warmup, c.measured).map_err(|e| format!("n = {n}: {e}"))?;
            self.w1_us[k].push(b.us);
            self.w1_bytes[k] = (b.req, b.rep);
        }
        let b = driver.batch(rt, Work::Exchange, c.batch_warmup, c.w2_measured).map_err(|e| format!("W2: {e}"))?;
        self.w2_us.push(b.us);
        self.w2_bytes = (b.req, b.rep);
        Ok(())
    }

    /// The byte count, after the rounds: a second client of the row's server (a Java row's
    /// client switches to it, `use`) goes through a counting relay (RMI: the counted stub), and
    /// per list size and W2 makes [`BYTES_WARMUP`] uncounted calls, then `c.byte_calls` counted
    /// ones; every reply checked as in the rounds.
    fn count_bytes(&mut self, rt: &Runtime, c: &Counts) -> Result<(), String> {
        let p = self.p;
        let Some((driver, server)) = self.live.as_mut() else { return Ok(()) };
        let mut target = server.socket_addr()?;
        // SEED_BREAK_RELAY=ID: that row's relay forwards to a port nobody listens on
        // (tests/seed.rs checks that the byte count then fails the row, and the run goes on)
        if std::env::var("SEED_BREAK_RELAY").is_ok_and(|v| v == p.id) {
            let closed = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr());
            target = closed.map_err(|e| format!("SEED_BREAK_RELAY: {e}"))?;
        }
        let relay = || Relay::counting(target).map_err(|e| format!("counting relay: {e}"));
        let mut own = None;
        let meter = match p.kind {
            Kind::Java("rmi", _) => {
                java_use(driver, "counted")?;
                Meter::JavaSockets
            }
            Kind::Java(..) | Kind::JavaPeer(_) | Kind::PythonAmf => {
                let relay = relay()?;
                java_use(driver, &format!("http://{}/bench", relay.local_addr()))?;
                Meter::Relay(relay)
            }
            _ => {
                let relay = relay()?;
                own = Some(rust_client(p, rt, &relay.local_addr().to_string())?);
                Meter::Relay(relay)
            }
        };
        let d = match own.as_mut() {
            Some(d) => d,
            None => driver,
        };
        let works = c.sizes.iter().map(|&n| Work::Items(n)).chain(std::iter::once(Work::Exchange));
        for (k, w) in works.enumerate() {
            let at = |e: String| match w {
                Work::Items(n) => format!("n = {n}: {e}"),
                Work::Exchange => format!("W2: {e}"),
            };
            d.batch(rt, w, BYTES_WARMUP, 0).map_err(at)?;
            let before = meter.start(d).map_err(at)?;
            d.batch(rt, w, 0, c.byte_calls).map_err(at)?;
            self.wire[k] = Some(meter.read(d, before, p.framing(), c.byte_calls).map_err(at)?);
        }
        if matches!(meter, Meter::Relay(_)) && matches!(p.kind, Kind::Java(..) | Kind::JavaPeer(_) | Kind::PythonAmf) {
            java_use(d, "direct")?;
        }
        Ok(())
    }
}

/// Puts a point's byte count into its values: `request_socket_bytes` and `reply_socket_bytes`,
/// and `request_bytes` and `reply_bytes` from the relay's recording where there are bodies. A
/// Rust client's own count of the bodies (`client`, NaN for Java) must agree: the difference, if
/// any, is returned for a note.
fn put_wire(p: &mut Point, w: Option<Wire>, client: (f64, f64)) -> Option<String> {
    let w = w?;
    p.values.insert("request_socket_bytes".into(), w.up);
    p.values.insert("reply_socket_bytes".into(), w.down);
    let Some((q, r)) = w.body else {
        p.values.remove("request_bytes");
        p.values.remove("reply_bytes");
        return None;
    };
    p.values.insert("request_bytes".into(), q);
    p.values.insert("reply_bytes".into(), r);
    let differs = |a: f64, b: f64| a.is_finite() && (a - b).abs() > 0.5;
    (differs(client.0, q) || differs(client.1, r)).then(|| {
        format!(
            "at x = {}: the client counted {:.0} / {:.0} body bytes, the relay's recording {q:.0} / {r:.0}",
            p.x, client.0, client.1
        )
    })
}

/// The paired comparison of a protocol's Rust and Java clients against one server: a Java
/// client row (Caucho's proxy, to Caucho's skeleton or to the Rust server) and a second, Rust
/// client of the same dialect calling that row's server, their W2 calls alternating call by call
/// within each round (the Rust call first in even rounds, the Java call in odd ones), the pairing
/// one more entry in the rounds' rotating order.
struct Pairing {
    /// The Java client's row (an index into the rows).
    java_row: usize,
    series: Series,
    /// The Rust client, while the pairing is live.
    rust: Option<Driver>,
    /// Per round, the Rust and the Java calls' round trips (µs), pair by pair.
    rust_us: Vec<Vec<f64>>,
    java_us: Vec<Vec<f64>>,
}

/// The Rust twin of a Java client row: the dialect of a Rust client speaking the row's protocol
/// (Hessian 2, Hessian 1, Burlap), and the label of the paired figure's row.
fn rust_twin(p: &Proto) -> Option<(Dialect, String)> {
    let Kind::Java(mode, server) = p.kind else { return None };
    let (dialect, name) = match mode {
        "h2" => (Dialect::HESSIAN2, "Hessian 2"),
        "h1" => (Dialect::HESSIAN1, "Hessian 1"),
        "burlap" => (Dialect::BURLAP, "Burlap"),
        _ => return None,
    };
    let server = if server.is_some() { "Java server (Caucho)" } else { "Rust server" };
    Some((dialect, format!("{name} → {server}")))
}

impl Pairing {
    /// The pairing's Rust client of the Java row's server, warmed with `c.w2_warmup` W2 calls.
    fn start(rt: &Runtime, dialect: Dialect, server: &Backend, c: &Counts) -> Result<Driver, String> {
        let client = Client::builder().dialect(dialect).type_maps(false).build();
        let url = format!("http://{}/bench", server.addr());
        let bench = BenchClient::new(client.proxy(&url).map_err(|e| e.to_string())?);
        let mut d = Driver::Hessian(client, bench);
        d.batch(rt, Work::Exchange, c.w2_warmup, 0)?;
        Ok(d)
    }

    /// One round's batch: `c.batch_warmup` unmeasured W2 calls of each client, then
    /// `c.w2_measured` pairs of timed calls, the first of each pair the Rust client's in even
    /// rounds and the Java client's in odd ones.
    fn round(&mut self, java: &mut Driver, rt: &Runtime, c: &Counts, round: usize) -> Result<(), String> {
        let Some(rust) = self.rust.as_mut() else { return Ok(()) };
        rust.batch(rt, Work::Exchange, c.batch_warmup, 0).map_err(|e| format!("Rust client: {e}"))?;
        java.batch(rt, Work::Exchange, c.batch_warmup, 0).map_err(|e| format!("Java client: {e}"))?;
        let one = |d: &mut Driver, who: &str| -> Result<f64, String> {
            let b = d.batch(rt, Work::Exchange, 0, 1).map_err(|e| format!("{who} client: {e}"))?;
            b.us.first().copied().ok_or_else(|| format!("{who} client: no round trip"))
        };
        let (mut r, mut j) = (Vec::with_capacity(c.w2_measured), Vec::with_capacity(c.w2_measured));
        for _ in 0..c.w2_measured {
            if round.is_multiple_of(2) {
                r.push(one(rust, "Rust")?);
                j.push(one(java, "Java")?);
            } else {
                j.push(one(java, "Java")?);
                r.push(one(rust, "Rust")?);
            }
        }
        self.rust_us.push(r);
        self.java_us.push(j);
        Ok(())
    }

    /// The pairing's row of figure `exp2-w2-rust-java`: the Java calls' round trips, the
    /// paired figures (Java ÷ Rust, [`rounds::paired_values`]) with a block per round, and the
    /// spread of the per-round median ratios across rounds.
    fn finish(mut self, c: &Counts) -> Series {
        if self.series.status != Status::Ok {
            return self.series;
        }
        let rust: Vec<f64> = self.rust_us.iter().flatten().copied().collect();
        let java: Vec<f64> = self.java_us.iter().flatten().copied().collect();
        let Some(p) = hessian_bench::negotiation::Paired::of_us(&rust, &java, c.w2_measured) else {
            self.series.fail(format!("{} pairs of calls: too few for a paired comparison", rust.len()));
            return self.series;
        };
        let mut values = rounds::paired_values(&p, "share_java_faster");
        values.insert("rounds".into(), self.rust_us.len() as f64);
        values.insert("rust_median_us".into(), Summary::of_us(rust).median);
        values.insert("java_median_us".into(), Summary::of_us(java.clone()).median);
        let (lo, hi) = p.block_round_range();
        if p.round_ratio > 0.0 {
            values.insert("round_spread".into(), (hi - lo) / p.round_ratio);
        }
        self.series.notes.insert("ratios of medians per round, in order".into(), rounds::block_note(&p));
        self.series.points.push(Point { x: 0.0, time_us: Summary::of_us(java), values });
        self.series
    }
}

fn fig(id: &str, title: &str, kind: &str, x: &str, y: &str, series: Vec<Series>) -> Figure {
    Figure {
        id: id.into(),
        title: title.into(),
        kind: kind.into(),
        x_label: x.into(),
        y_label: y.into(),
        chart: (kind != "table").then(|| format!("{id}.svg")),
        series,
    }
}

/// The selected protocol rows.
pub fn selected(opts: &Options) -> Vec<&'static Proto> {
    PROTOCOLS.iter().filter(|p| opts.protocol(p.id)).collect()
}

/// Runs experiment 2.
pub fn run(opts: &Options, pb: &ProgressBar) -> Experiment {
    let t0 = Instant::now();
    let c = Counts::of(opts.mode);
    let protos = selected(opts);
    let twins = protos.iter().filter(|p| rust_twin(p).is_some()).count();
    pb.set_length((protos.len() * (c.rounds + 2) + twins * c.rounds) as u64 + 1);
    let needs_java = protos.iter().any(|p| p.needs_java());
    let java = if needs_java { Some(javapeer::java()) } else { None };
    let peers = match &java {
        Some(Ok(j)) if protos.iter().any(|p| matches!(p.kind, Kind::JavaPeer(_))) => Some(javapeer::peers(j)),
        _ => None,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot build a tokio runtime: {e}"));
    // every row's server and client first, kept warm for all the rounds
    let mut rows: Vec<Row> = Vec::new();
    for p in &protos {
        pb.set_message(format!("starting {}", p.label));
        let mut row = Row {
            p,
            w1: Series::new(p.id, p.label),
            w2: Series::new(p.id, p.label),
            live: None,
            w1_us: vec![Vec::new(); c.sizes.len()],
            w1_bytes: vec![(f64::NAN, f64::NAN); c.sizes.len()],
            w2_us: Vec::new(),
            w2_bytes: (f64::NAN, f64::NAN),
            wire: vec![None; c.sizes.len() + 1],
        };
        let unavailable = match (&java, &peers, p.kind) {
            (Some(Err(e)), _, _) => Some(e.clone()),
            (_, Some(Err(e)), Kind::JavaPeer(_)) => Some(e.clone()),
            _ => None,
        };
        let java_ok = match (&java, p.needs_java()) {
            (Some(Ok(j)), true) if unavailable.is_none() => Some(j),
            (Some(_), true) => {
                let (skip, why) = unavailable.unwrap_or((false, "Java unavailable".into()));
                row.not_run(skip, &why);
                rows.push(row);
                continue;
            }
            _ => None,
        };
        // the Python AMF client, installed on first use: skipped locally without Python, failed
        // under CI
        if matches!(p.kind, Kind::PythonAmf) {
            if let Err((skip, why)) = crate::seed::amf::python_peer(&[]) {
                row.not_run(skip, &why);
                rows.push(row);
                continue;
            }
        }
        let peers_ok = peers.as_ref().and_then(|p| p.as_ref().ok());
        match rt.as_ref().map_err(String::clone).and_then(|rt| start(p, rt, java_ok, peers_ok, opts.remote.as_ref())) {
            Ok(live) => row.live = Some(live),
            Err(e) => row.fail(e),
        }
        rows.push(row);
    }
    // (no row is live without the runtime)
    let rt = rt.ok();
    // the pre-warm of each row, as when rows ran one after the other
    for row in &mut rows {
        pb.set_message(format!("pre-warm {}", row.p.label));
        if let (Some((driver, _)), Some(rt)) = (row.live.as_mut(), rt.as_ref()) {
            if let Err(e) = driver.prewarm(rt, &c) {
                row.fail(format!("pre-warm: {e}"));
            }
        }
        pb.inc(1);
    }
    // the paired rows: a Rust client beside each Java client of a Hessian or Burlap server
    let mut pairings: Vec<Pairing> = Vec::new();
    for (j, row) in rows.iter_mut().enumerate() {
        let Some((dialect, label)) = rust_twin(row.p) else { continue };
        let mut series = Series::new(&format!("pair-{}", row.p.id), &label);
        let rust = match (row.live.as_ref(), rt.as_ref()) {
            (Some((_, server)), Some(rt)) => {
                pb.set_message(format!("pre-warm the Rust client beside {}", row.p.label));
                Pairing::start(rt, dialect, server, &c).map_err(|e| series.fail(format!("Rust client: {e}"))).ok()
            }
            _ => {
                match row.w2.status {
                    Status::Skipped => series.skip(row.w2.reason.clone().unwrap_or_default()),
                    _ => series.fail(format!("its Java row failed: {}", row.w2.reason.clone().unwrap_or_default())),
                }
                None
            }
        };
        pairings.push(Pairing { java_row: j, series, rust, rust_us: Vec::new(), java_us: Vec::new() });
    }
    // the rounds: every live row's batch and every pairing's, in a rotating order
    for r in 0..c.rounds {
        for i in rounds::order(rows.len() + pairings.len(), r) {
            if let Some(pairing) = i.checked_sub(rows.len()).and_then(|k| pairings.get_mut(k)) {
                let row = &mut rows[pairing.java_row];
                if let (Some((java, _)), Some(rt), true) = (row.live.as_mut(), rt.as_ref(), pairing.rust.is_some()) {
                    pb.set_message(format!("round {}/{}: {}, Rust and Java", r + 1, c.rounds, pairing.series.label));
                    if let Err(e) = pairing.round(java, rt, &c, r) {
                        pairing.rust = None;
                        pairing.series.fail(format!("round {}: {e}", r + 1));
                    }
                } else if pairing.rust.take().is_some() {
                    pairing.series.fail(format!("its Java row failed: {}", row.w2.reason.clone().unwrap_or_default()));
                }
                pb.inc(1);
                continue;
            }
            let row = &mut rows[i];
            if let (true, Some(rt)) = (row.live.is_some(), rt.as_ref()) {
                pb.set_message(format!("round {}/{}: {}", r + 1, c.rounds, row.p.label));
                if let Err(e) = row.round(rt, &c) {
                    row.fail(format!("round {}: {e}", r + 1));
                }
            }
            pb.inc(1);
        }
    }
    // the byte count of every live row, after the rounds (so the timed calls are not relayed)
    for row in &mut rows {
        if let (true, Some(rt)) = (row.live.is_some(), rt.as_ref()) {
            pb.set_message(format!("bytes: {}", row.p.label));
            if let Err(e) = row.count_bytes(rt, &c) {
                row.fail(format!("byte count: {e}"));
            }
        }
        pb.inc(1);
    }
    // a pairing whose Java row failed after the pairing's last round keeps its figures: they
    // were measured; the row's reason is in its own figures
    let paired: Vec<Series> = pairings.into_iter().map(|p| p.finish(&c)).collect();
    let mut w1_rows = Vec::new();
    let mut w2_rows = Vec::new();
    for mut row in rows {
        if row.live.take().is_some() && row.w1.status == Status::Ok {
            let mut checks = Vec::new();
            row.w1.points = c
                .sizes
                .iter()
                .enumerate()
                .map(|(k, &n)| {
                    let mut p = rounds::point(n as f64, &row.w1_us[k], row.w1_bytes[k].0, row.w1_bytes[k].1);
                    checks.extend(put_wire(&mut p, row.wire[k], row.w1_bytes[k]));
                    p
                })
                .collect();
            let mut p = rounds::point(0.0, &row.w2_us, row.w2_bytes.0, row.w2_bytes.1);
            let w2_check = put_wire(&mut p, row.wire[c.sizes.len()], row.w2_bytes);
            row.w2.points = vec![p];
            if !checks.is_empty() {
                row.w1.notes.insert("bytes check".into(), checks.join("; "));
            }
            if let Some(check) = w2_check {
                row.w2.notes.insert("bytes check".into(), check);
            }
        }
        if row.p.framing().is_none() {
            for s in [&mut row.w1, &mut row.w2] {
                s.notes.insert(
                    "bytes".into(),
                    "no HTTP body (JRMP); socket bytes counted by the client's sockets (SeedCountingSockets)".into(),
                );
            }
        }
        w1_rows.push(row.w1);
        w2_rows.push(row.w2);
    }
    pb.set_message("shared Product variant");
    // the shared-Product variant's Java rows run wherever Java is, whichever protocols were picked
    let java = java.or_else(|| Some(javapeer::java()));
    let shared = shared_variant(java.as_ref());
    pb.inc(1);
    let split = |rows: &[Series], keep: &[usize]| -> Vec<Series> {
        rows.iter()
            .map(|s| {
                let mut s = s.clone();
                s.points.retain(|p| keep.contains(&(p.x as usize)));
                s
            })
            .collect()
    };
    let small: Vec<usize> = c.sizes.iter().copied().filter(|n| SMALL.contains(n)).collect();
    let large: Vec<usize> = c.sizes.iter().copied().filter(|n| LARGE.contains(n)).collect();
    let findings = observations(&w1_rows, &w2_rows, &shared);
    Experiment {
        id: "2".into(),
        name: "protocols".into(),
        title: "Experiment 2: protocol comparison (W1 getItems(n), W2 exchange)".into(),
        method: format!(
            "Client and server in separate processes over loopback (HTTP/1.1 keep-alive, \
             TCP_NODELAY; gRPC over HTTP/2; RMI on its own TCP transport). **Measured in rounds**: \
             every row's server (and each Java row's client, a long-lived JVM taking commands) is \
             started first and kept warm; each row is pre-warmed ({} calls of getItems(100), at \
             most {} s of them, for connection set-up and the JIT of the Java sides; then {} \
             warm-up calls per list size and {} W2 calls); then {} rounds, each running every \
             row's batch ({} unmeasured and {} measured calls per list size, then {} unmeasured \
             and {} measured W2 calls), the rows in an order that rotates each round and runs \
             backwards every other round, so that a slow minute of the machine falls on every \
             row alike. A row's median and p99 are over all its measured calls ({} per list \
             size, {} W2); the spread across rounds is the lowest and highest per-round median \
             (in brackets), and ⚠ marks a point whose spread exceeds {:.0} % of its median. \
             Every reply is checked (W1: length and the first, middle and last item; W2: the \
             whole graph). Rust clients run on one current-thread tokio runtime; Java clients \
             and servers with `{}`. **Bytes** are counted apart from the timed calls, after the \
             last round: a second client of each row's server (a Java row's client switches to \
             one) connects through a counting TCP relay in the suite's process and makes, per list \
             size and for W2, {} uncounted calls and then {} counted ones; the relay counts the \
             bytes on the socket in each direction (HTTP headers, chunk and HTTP/2 framing \
             included; the connection's set-up falls in the uncounted calls) and keeps a copy of \
             them, from which the request and reply bodies are read (HTTP/1.1: `Content-Length` \
             or the chunks' sizes; gRPC: the payload of the HTTP/2 DATA frames, i.e. its 5-byte \
             prefix and the protobuf message), so every row's bytes are counted the same way, Java \
             clients included. A Rust client's own count of its bodies in the rounds is checked \
             against the relay's. RMI is not relayed, since its stub connects to the exported \
             object's own port, not the registry's: the Java server exports a second instance \
             with a client socket factory that counts at the socket's streams in the client's JVM \
             (`SeedCountingSockets`), the same bytes a relay would see; JRMP has no HTTP body. \
             **Rust against Java, paired** (figure `exp2-w2-rust-java`): beside each Java client \
             of a Hessian or Burlap server (Caucho's skeleton, or the Rust server for Java to \
             Rust), a second client, the Rust typed client of the same dialect, calls that same \
             server; in each round, as one more entry of the rotating order, the two make {} \
             unmeasured W2 calls each, then {} pairs of calls, alternating call by call (the Rust \
             call first in even rounds, the Java call in odd ones; the Java client times its call \
             itself, a command per call). The figure is the Java median over the Rust median, the \
             median of the per-pair ratios (Java call ÷ Rust call), both with their min–max over \
             the rounds, and the median per-pair difference with the sign test's 95 % interval; \
             ⚠ marks a pairing whose per-round median ratio spreads more than {:.0} %.",
            c.prewarm,
            c.prewarm_secs,
            c.warmup,
            c.w2_warmup,
            c.rounds,
            c.batch_warmup,
            c.measured,
            c.batch_warmup,
            c.w2_measured,
            c.rounds * c.measured,
            c.rounds * c.w2_measured,
            100.0 * rounds::FLAG,
            javapeer::flags(),
            BYTES_WARMUP,
            c.byte_calls,
            c.batch_warmup,
            c.w2_measured,
            100.0 * rounds::FLAG,
        ),
        figures: vec![
            fig(
                "exp2-w1-small",
                "W1 getItems(n), small lists: median round trip",
                "line",
                "list size n",
                "µs",
                split(&w1_rows, &small),
            ),
            fig(
                "exp2-w1-large",
                "W1 getItems(n), large lists: median round trip",
                "line",
                "list size n",
                "µs",
                split(&w1_rows, &large),
            ),
            fig("exp2-w2", "W2 exchange(Order): mean round trip", "bar", "protocol", "µs", w2_rows),
            shared,
            fig(
                "exp2-w2-rust-java",
                "W2 Rust and Java clients of one server, calls alternating: Java ÷ Rust median round trip, \
                 whiskers min–max of the rounds",
                "bar",
                "protocol → server",
                "Java client median ÷ Rust client median",
                paired,
            ),
        ],
        findings,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

/// The W2 graph whose three lines share one `Product` (`Shared`: one object, written once and
/// referenced after in formats that have references).
mod shared {
    use hessian::serde::{Date, Shared};
    use hessian_testkit::structs::w2::{Customer, Money, Product};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename = "com.squarespace.hopper.types.LineItem")]
    pub struct LineItem {
        pub quantity: i32,
        pub product: Shared<Product>,
        pub total: Money,
    }

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename = "com.squarespace.hopper.types.Order")]
    pub struct Order {
        pub id: i64,
        pub customer: Customer,
        pub lines: Vec<LineItem>,
        pub total: Money,
        pub placed: Date,
    }

    /// The W2 request with every line's product the same object (line 1's), or, with
    /// `shared = false`, equal but distinct copies of it.
    pub fn order(shared: bool) -> Order {
        let r = hessian_testkit::structs::w2::request();
        let one = Shared::new(r.lines[0].product.clone());
        let lines = r
            .lines
            .iter()
            .map(|l| LineItem {
                quantity: l.quantity,
                product: if shared { one.clone() } else { Shared::new((*one.0).clone()) },
                total: l.total.clone(),
            })
            .collect();
        Order { id: r.id, customer: r.customer, lines, total: r.total, placed: r.placed }
    }

    pub fn shares(o: &Order) -> bool {
        o.lines.windows(2).all(|w| std::sync::Arc::ptr_eq(&w[0].product.0, &w[1].product.0))
    }
}

type Enc = fn(&shared::Order) -> Result<Vec<u8>, String>;
type Dec = fn(&[u8]) -> Result<shared::Order, String>;

type JavaOrWhyNot = Result<hessian_testkit::java::Java, (bool, String)>;

fn shared_variant(java: Option<&JavaOrWhyNot>) -> Figure {
    let codecs: [(&str, &str, Enc, Dec); 6] = [
        (
            "hessian2",
            "Hessian 2 (Rust)",
            |o| hessian::to_vec(o).map_err(|e| e.to_string()),
            |b| hessian::from_slice(b).map_err(|e| e.to_string()),
        ),
        (
            "hessian1",
            "Hessian 1 (Rust)",
            |o| hessian::serde::h1::to_vec(o).map_err(|e| e.to_string()),
            |b| hessian::serde::h1::from_slice(b).map_err(|e| e.to_string()),
        ),
        (
            "burlap",
            "Burlap (Rust)",
            |o| hessian::serde::burlap::to_vec(o).map_err(|e| e.to_string()),
            |b| hessian::serde::burlap::from_slice(b).map_err(|e| e.to_string()),
        ),
        ("json", "JSON (serde_json)", |o| Codec::Json.encode(o), |b| Codec::Json.decode(b)),
        ("msgpack", "MessagePack (rmp-serde)", |o| Codec::MsgPack.encode(o), |b| Codec::MsgPack.decode(b)),
        ("bincode", "bincode 1", |o| Codec::Bincode.encode(o), |b| Codec::Bincode.decode(b)),
    ];
    let (one, copies) = (shared::order(true), shared::order(false));
    let mut rows = Vec::new();
    for (id, label, enc, dec) in codecs {
        let mut s = Series::new(id, label);
        match (enc(&one), enc(&copies)) {
            (Ok(a), Ok(b)) => match dec(&a) {
                Ok(back) if back == one => {
                    let mut values = BTreeMap::new();
                    values.insert("shared_bytes".into(), a.len() as f64);
                    values.insert("copies_bytes".into(), b.len() as f64);
                    s.points.push(Point { x: 0.0, time_us: Summary::default(), values });
                    let keeps = shared::shares(&back);
                    s.notes.insert(
                        "sharing".into(),
                        if keeps {
                            "kept (one object after decoding)"
                        } else {
                            "duplicated (three copies after decoding)"
                        }
                        .into(),
                    );
                }
                Ok(_) => s.fail("decoded graph differs"),
                Err(e) => s.fail(format!("decode: {e}")),
            },
            (Err(e), _) | (_, Err(e)) => s.fail(format!("encode: {e}")),
        }
        rows.push(s);
    }
    // gRPC and XML-RPC have no references: their messages (protobuf messages, XML-RPC structs)
    // hold a product per line, so the shared graph becomes three copies before it is encoded
    let plain = |o: &shared::Order| w2::Order {
        id: o.id,
        customer: o.customer.clone(),
        lines: o
            .lines
            .iter()
            .map(|l| w2::LineItem { quantity: l.quantity, product: (*l.product.0).clone(), total: l.total.clone() })
            .collect(),
        total: o.total.clone(),
        placed: o.placed,
    };
    type Size = fn(&w2::Order) -> Result<usize, String>;
    let no_refs: [(&str, &str, Size); 2] = [
        ("grpc", "gRPC, protobuf (prost)", |o| Ok(prost::Message::encoded_len(&crate::seed::grpc::order_to_pb(o)) + 5)),
        ("xmlrpc", "XML-RPC (dxr)", |o| crate::seed::xmlrpc::exchange_call(o).map(|b| b.len())),
    ];
    for (id, label, size) in no_refs {
        let mut s = Series::new(id, label);
        match (size(&plain(&one)), size(&plain(&copies))) {
            (Ok(a), Ok(b)) => {
                let mut values = BTreeMap::new();
                values.insert("shared_bytes".into(), a as f64);
                values.insert("copies_bytes".into(), b as f64);
                s.points.push(Point { x: 0.0, time_us: Summary::default(), values });
                s.notes.insert("sharing".into(), "duplicated (the format has no references)".into());
            }
            (Err(e), _) | (_, Err(e)) => s.fail(format!("encode: {e}")),
        }
        rows.push(s);
    }
    rows.extend(java_sharing(java));
    fig("exp2-w2-shared", "W2 with one shared Product: request bytes", "bar", "format", "bytes", rows)
}

const JAVA_SHARING: [(&str, &str); 4] = [
    ("java-hessian2", "Hessian 2 (Java Hessian2Output)"),
    ("java-hessian1", "Hessian 1 (Java HessianOutput)"),
    ("java-burlap", "Burlap (Java BurlapOutput)"),
    ("java-serialization", "Java serialization (RMI, Spring HttpInvoker)"),
];

fn java_sharing(java: Option<&JavaOrWhyNot>) -> Vec<Series> {
    let mut rows: Vec<Series> = JAVA_SHARING.iter().map(|(id, l)| Series::new(id, l)).collect();
    let java = match java {
        Some(Ok(j)) => j,
        Some(Err((skip, why))) => {
            for r in &mut rows {
                if *skip {
                    r.skip(why.clone())
                } else {
                    r.fail(why.clone())
                }
            }
            return rows;
        }
        None => {
            rows.iter_mut().for_each(|r| r.skip(format!("no Java; install with `{}`", javapeer::INSTALL)));
            return rows;
        }
    };
    match procs::run_client("SeedSharing", javapeer::command(java, "SeedSharing"), Duration::from_secs(120)) {
        Ok(out) => {
            for line in out.lines().filter_map(|l| l.strip_prefix("SHARING ")) {
                let f: Vec<&str> = line.split_whitespace().collect();
                let val = |k: &str| f.iter().find_map(|x| x.strip_prefix(k)?.strip_prefix('=')).unwrap_or("");
                let Some(r) = rows.iter_mut().find(|r| f.first().is_some_and(|id| r.id == format!("java-{id}"))) else {
                    continue;
                };
                let mut values = BTreeMap::new();
                values.insert("shared_bytes".into(), val("shared_bytes").parse().unwrap_or(f64::NAN));
                values.insert("copies_bytes".into(), val("copies_bytes").parse().unwrap_or(f64::NAN));
                r.points.push(Point { x: 0.0, time_us: Summary::default(), values });
                r.notes.insert(
                    "sharing".into(),
                    if val("kept") == "true" {
                        "kept (one object after decoding)"
                    } else {
                        "duplicated (three copies after decoding)"
                    }
                    .into(),
                );
            }
            rows.iter_mut().filter(|r| r.points.is_empty()).for_each(|r| r.fail("SeedSharing printed no result"));
        }
        Err(e) => rows.iter_mut().for_each(|r| r.fail(e.clone())),
    }
    rows
}

fn median_at(rows: &[Series], id: &str, x: f64) -> Option<f64> {
    rows.iter().find(|s| s.id == id && s.status == Status::Ok)?.at(x).map(|p| p.time_us.median)
}

fn value_at(rows: &[Series], id: &str, x: f64, key: &str) -> Option<f64> {
    rows.iter().find(|s| s.id == id && s.status == Status::Ok)?.at(x)?.values.get(key).copied()
}

fn fmt(v: Option<f64>) -> String {
    v.map_or("n/a".into(), |v| format!("{v:.0}"))
}

/// What the measured data says, as the report's findings: the rankings, then numbered
/// observations, each computed from this run's figures.
fn observations(w1: &[Series], w2: &[Series], shared: &Figure) -> Vec<String> {
    let mut out = Vec::new();
    let big = LARGE[LARGE.len() - 1] as f64;
    let big = if w1.iter().any(|s| s.at(big).is_some()) { big } else { 500.0 };
    let ranked = |x: f64, rows: &[Series]| -> Vec<(String, f64)> {
        let mut v: Vec<(String, f64)> = rows
            .iter()
            .filter(|s| s.status == Status::Ok)
            .filter_map(|s| Some((s.label.clone(), s.at(x)?.time_us.median)))
            .collect();
        v.sort_by(|a, b| a.1.total_cmp(&b.1));
        v
    };
    let list = |v: &[(String, f64)]| v.iter().map(|(l, t)| format!("{l} {t:.0} µs")).collect::<Vec<_>>().join(", ");
    out.push(format!(
        "**Ranking at n = 1 (fixed cost per call), median:** {}.\n\n**Ranking at n = {big} (cost per item):** {}.\n\n**W2 (object graph):** {}.",
        list(&ranked(1.0, w1)),
        list(&ranked(big, w1)),
        list(&ranked(0.0, w2)),
    ));
    let m = |id: &str, x: f64| median_at(w1, id, x);
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}×", a / b),
        _ => "n/a".into(),
    };
    let rb = |id: &str| value_at(w1, id, big, "reply_bytes");
    let mut obs = Vec::new();
    let first = ranked(1.0, w1);
    if let (Some(a), Some(z)) = (first.first(), first.last()) {
        obs.push(format!(
            "For one item the fixed cost of a call dominates: the spread is {} (fastest) to {} (slowest), {} apart.",
            format_args!("{} {:.0} µs", a.0, a.1),
            format_args!("{} {:.0} µs", z.0, z.1),
            ratio(Some(z.1), Some(a.1))
        ));
    }
    obs.push(format!(
        "Text formats cost most per item: at n = {big} Burlap takes {} and JSON {} the time of Hessian 2 (Rust), \
         with {} and {} its reply bytes.",
        ratio(m("burlap", big), m("hessian2", big)),
        ratio(m("json", big), m("hessian2", big)),
        ratio(rb("burlap"), rb("hessian2")),
        ratio(rb("json"), rb("hessian2")),
    ));
    obs.push(format!(
        "Hessian 2 against Hessian 1: replies at n = {big} are {} of Hessian 1's bytes (the class definition is \
         written once instead of the field names per object), the round trip {} of Hessian 1's.",
        ratio(rb("hessian2"), rb("hessian1")),
        ratio(m("hessian2", big), m("hessian1", big)),
    ));
    obs.push(format!(
        "Among the binary formats, Hessian 2 takes {} of bincode's round trip at n = {big} (bincode writes no \
         names or types at all: {} of Hessian 2's bytes), and MessagePack with field names takes {} of Hessian 2's time.",
        ratio(m("hessian2", big), m("bincode", big)),
        ratio(rb("bincode"), rb("hessian2")),
        ratio(m("msgpack", big), m("hessian2", big)),
    ));
    if m("amf", big).is_some() {
        obs.push(format!(
            "AMF3 (typed objects whose traits go once, strings by reference, as Hessian 2's class definitions): \
             replies at n = {big} are {} of Hessian 2's bytes, the round trip {} of Hessian 2's (Rust); W2 \
             requests {} B against {} B. Py3AMF's client against the same Rust gateway takes {} of the Rust \
             client's round trip at n = 1 and {} at n = {big}.",
            ratio(rb("amf"), rb("hessian2")),
            ratio(m("amf", big), m("hessian2", big)),
            fmt(value_at(w2, "amf", 0.0, "request_bytes")),
            fmt(value_at(w2, "hessian2", 0.0, "request_bytes")),
            ratio(m("amf-python", 1.0), m("amf", 1.0)),
            ratio(m("amf-python", big), m("amf", big)),
        ));
    }
    if m("java-hessian2", big).is_some() {
        obs.push(format!(
            "The same protocol in two implementations: Hessian 2 Java to Java takes {} of Rust to Rust at n = {big}, \
             {} at n = 1. Java RMI takes {} of Java's Hessian 2 at n = {big}; Java's Burlap {} of Java's Hessian 2.",
            ratio(m("java-hessian2", big), m("hessian2", big)),
            ratio(m("java-hessian2", 1.0), m("hessian2", 1.0)),
            ratio(m("java-rmi", big), m("java-hessian2", big)),
            ratio(m("java-burlap", big), m("java-hessian2", big)),
        ));
        obs.push(format!(
            "Crossings, n = {big}, median: the Java client takes {} µs against the Rust server and {} µs against \
             Java's skeleton; the Rust client {} µs against Java's skeleton and {} µs against the Rust server: the \
             server's implementation matters in both directions.",
            fmt(m("java-to-rust", big)),
            fmt(m("java-hessian2", big)),
            fmt(m("rust-to-java", big)),
            fmt(m("hessian2", big)),
        ));
    }
    obs.push(format!(
        "Type negotiation (Hessian 2.1) matters for small messages: W2 requests {} B against {} B for plain Hessian 2; \
         for a 5,000-item list the one class definition is negligible ({} of the reply bytes saved).",
        fmt(value_at(w2, "hessian2.1", 0.0, "request_bytes")),
        fmt(value_at(w2, "hessian2", 0.0, "request_bytes")),
        match (rb("hessian2.1"), rb("hessian2")) {
            (Some(a), Some(b)) if b > 0.0 => format!("{:.2} %", 100.0 * (b - a) / b),
            _ => "n/a".into(),
        }
    ));
    // the socket bytes of one W2 call, both directions, and what the transport adds to the bodies
    let mut wire: Vec<(&str, f64, Option<f64>)> = w2
        .iter()
        .filter(|s| s.status == Status::Ok)
        .filter_map(|s| {
            let v = &s.at(0.0)?.values;
            let socket = v.get("request_socket_bytes")? + v.get("reply_socket_bytes")?;
            let body = v.get("request_bytes").zip(v.get("reply_bytes")).map(|(q, r)| q + r);
            Some((s.label.as_str(), socket, body.map(|b| socket - b)))
        })
        .collect();
    wire.sort_by(|a, b| a.1.total_cmp(&b.1));
    if !wire.is_empty() {
        obs.push(format!(
            "On the socket, one W2 call moves (both directions, fewest first): {}. Beyond the bodies, the \
             transport adds per call: {} (HTTP/1.1 request and status lines and headers, chunk sizes; for gRPC \
             HTTP/2's frame headers, HPACK-coded headers and flow control){}.",
            wire.iter().map(|(l, b, _)| format!("{l} {b:.0} B")).collect::<Vec<_>>().join(", "),
            wire.iter().filter_map(|(l, _, o)| Some(format!("{l} {:.0} B", (*o)?))).collect::<Vec<_>>().join(", "),
            if wire.iter().any(|(_, _, o)| o.is_none()) {
                "; RMI has no HTTP: its JRMP call and return messages, Java serialization of the arguments \
                 and result included, are all it sends"
            } else {
                ""
            }
        ));
    }
    let kept: Vec<&str> = shared
        .series
        .iter()
        .filter(|s| s.notes.get("sharing").is_some_and(|n| n.starts_with("kept")))
        .map(|s| s.label.as_str())
        .collect();
    let dup: Vec<&str> = shared
        .series
        .iter()
        .filter(|s| s.notes.get("sharing").is_some_and(|n| n.starts_with("dup")))
        .map(|s| s.label.as_str())
        .collect();
    obs.push(format!(
        "Shared objects (W2 with one Product in three lines): the sharing is kept by {}; it is duplicated by {}. \
         Formats with object references (Hessian's references, Java serialization's back references) write the \
         product once and decode one object; formats without references write it three times and decode three.",
        if kept.is_empty() { "none measured".into() } else { kept.join(", ") },
        if dup.is_empty() { "none measured".into() } else { dup.join(", ") },
    ));
    let mut text = String::from(
        "**What this run's data says**, each computed from the figures above (the study's own observations \
         follow, checked one by one):\n\n",
    );
    for (i, o) in obs.iter().enumerate() {
        text.push_str(&format!("{}. {o}\n", i + 1));
    }
    out.push(text);
    out.push(crate::seed::study::section(w1));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_answers() {
        assert_eq!(java_times("TIMES 12.5 7.000", 2), Ok(vec![12.5, 7.0]));
        assert_eq!(java_times("TIMES", 0), Ok(vec![]));
        assert!(java_times("TIMES 1.0", 2).is_err_and(|e| e.contains("expected 2")));
        assert!(java_times("TIMES x", 1).is_err());
        assert_eq!(
            java_times("FAIL getItems(10) answered 11 items", 1),
            Err("SeedJavaClient: getItems(10) answered 11 items".into())
        );
    }

    #[test]
    fn counts_per_mode_keep_the_totals() {
        let (quick, full, tiny) = (Counts::of(Mode::Quick), Counts::of(Mode::Full), Counts::of(Mode::Tiny));
        assert_eq!((quick.rounds * quick.measured, quick.rounds * quick.w2_measured), (20, 1000));
        assert_eq!((full.rounds * full.measured, full.rounds * full.w2_measured), (100, 10_000));
        assert_eq!(tiny.rounds, 2);
    }
}
