//! Experiment 2, the protocol comparison (seed: the Java remoting study): W1 `getItems(n)` over
//! loopback for every list size, then W2 `exchange(Order)`, for each protocol; client and server
//! in separate processes (the suite re-executes itself as `seed serve PROTOCOL`, Java servers run
//! in their own JVM). Every reply is checked. Plus the shared-`Product` variant of W2 at the codec
//! level: which formats keep one shared object and which duplicate it.

use crate::seed::javapeer;
use crate::seed::peers::{Codec, HttpClient};
use crate::seed::procs::{self, Server};
use crate::seed::results::{Experiment, Figure, Point, Series, Status};
use crate::seed::stats::Summary;
use crate::seed::{Mode, Options};
use hessian_demo::BenchClient;
use hessian_rpc::{Client, Dialect};
use hessian_testkit::structs::{w2, Item};
use indicatif::ProgressBar;
use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

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
    /// Warm-up calls per size.
    pub warmup: usize,
    /// Measured calls per size.
    pub measured: usize,
    /// W2 warm-up calls.
    pub w2_warmup: usize,
    /// W2 measured calls.
    pub w2_measured: usize,
    /// List sizes.
    pub sizes: Vec<usize>,
}

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
                measured: 3,
                w2_warmup: 2,
                w2_measured: 10,
                sizes: vec![1, 10, 500],
            },
            Mode::Quick => Counts {
                prewarm: 1000,
                prewarm_secs: 3.0,
                warmup: 3,
                measured: 20,
                w2_warmup: 1000,
                w2_measured: 1000,
                sizes: all,
            },
            Mode::Full => Counts {
                prewarm: 5000,
                prewarm_secs: 20.0,
                warmup: 10,
                measured: 100,
                w2_warmup: 1000,
                w2_measured: 10_000,
                sizes: all,
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
    fn needs_java(&self) -> bool {
        matches!(self.kind, Kind::Java(..) | Kind::RustToJava | Kind::JavaPeer(_))
    }
}

/// Starts `seed serve WHAT` (this executable) as a child process.
pub fn rust_server(what: &str) -> Result<Server, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the suite's executable: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["serve", what]);
    Server::start(&format!("seed serve {what}"), cmd, Duration::from_secs(20))
}

fn java_server(java: &hessian_testkit::java::Java, what: &str) -> Result<Server, String> {
    let mut cmd = javapeer::command(java, "SeedJavaServer");
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

/// A timed point from durations and byte counts.
pub fn point(x: f64, t: &[Duration], req: f64, rep: f64) -> Point {
    let mut values = BTreeMap::new();
    if req.is_finite() {
        values.insert("request_bytes".into(), req);
        values.insert("reply_bytes".into(), rep);
    }
    Point { x, time_us: Summary::of(t), values }
}

/// Rust typed client to a Hessian server at `base` (`http://127.0.0.1:PORT`): W2 `exchange`,
/// `warmup` then `measured` calls; the point carries the bytes per measured call from the
/// client's counters.
pub async fn hessian_w2(
    base: &str,
    dialect: Dialect,
    type_maps: bool,
    warmup: usize,
    measured: usize,
) -> Result<(Point, hessian_rpc::negotiation::ClientStats), String> {
    let client = Client::builder().dialect(dialect).type_maps(type_maps).build();
    let bench = BenchClient::new(client.proxy(&format!("{base}/bench")).map_err(|e| e.to_string())?);
    let (request, expected) = (w2::request(), w2::reply());
    for _ in 0..warmup {
        let o = bench.exchange(request.clone()).await.map_err(|e| e.to_string())?;
        check_order(o.borrow(), &expected)?;
    }
    let before = client.type_map_stats();
    let mut t = Vec::with_capacity(measured);
    for _ in 0..measured {
        let order = request.clone();
        let t0 = Instant::now();
        let o = bench.exchange(order).await.map_err(|e| e.to_string())?;
        t.push(t0.elapsed());
        check_order(o.borrow(), &expected)?;
    }
    let after = client.type_map_stats();
    let n = measured.max(1) as f64;
    let req = (after.request_bytes - before.request_bytes) as f64 / n;
    let rep = (after.reply_bytes - before.reply_bytes) as f64 / n;
    Ok((point(0.0, &t, req, rep), after))
}

async fn hessian_w1(
    base: &str,
    dialect: Dialect,
    type_maps: bool,
    c: &Counts,
    pb: &ProgressBar,
) -> Result<Vec<Point>, String> {
    let client = Client::builder().dialect(dialect).type_maps(type_maps).build();
    let bench = BenchClient::new(client.proxy(&format!("{base}/bench")).map_err(|e| e.to_string())?);
    let (mut i, t0) = (0, Instant::now());
    while c.prewarming(i, t0) {
        i += 1;
        check_items(&bench.get_items(100).await.map_err(|e| e.to_string())?, 100)?;
    }
    let mut points = Vec::new();
    for &n in &c.sizes {
        for _ in 0..c.warmup {
            check_items(&bench.get_items(n as i32).await.map_err(|e| format!("getItems({n}): {e}"))?, n)?;
        }
        let before = client.type_map_stats();
        let mut t = Vec::with_capacity(c.measured);
        for _ in 0..c.measured {
            let t0 = Instant::now();
            let v = bench.get_items(n as i32).await.map_err(|e| format!("getItems({n}): {e}"))?;
            t.push(t0.elapsed());
            check_items(&v, n)?;
        }
        let after = client.type_map_stats();
        let k = c.measured.max(1) as f64;
        points.push(point(
            n as f64,
            &t,
            (after.request_bytes - before.request_bytes) as f64 / k,
            (after.reply_bytes - before.reply_bytes) as f64 / k,
        ));
        pb.inc(1);
    }
    Ok(points)
}

async fn serde_w1(addr: &str, codec: Codec, c: &Counts, pb: &ProgressBar) -> Result<Vec<Point>, String> {
    let mut client = HttpClient::new(addr, codec);
    let (mut i, t0) = (0, Instant::now());
    while c.prewarming(i, t0) {
        i += 1;
        let (v, _, _): (Vec<Item>, _, _) = client.call("/getItems", &100i32).await?;
        check_items(&v, 100)?;
    }
    let mut points = Vec::new();
    for &n in &c.sizes {
        let arg = n as i32;
        for _ in 0..c.warmup {
            let (v, _, _): (Vec<Item>, _, _) = client.call("/getItems", &arg).await?;
            check_items(&v, n)?;
        }
        let (mut t, mut req, mut rep) = (Vec::with_capacity(c.measured), 0, 0);
        for _ in 0..c.measured {
            let t0 = Instant::now();
            let (v, q, r): (Vec<Item>, _, _) = client.call("/getItems", &arg).await?;
            t.push(t0.elapsed());
            check_items(&v, n)?;
            (req, rep) = (q, r);
        }
        points.push(point(n as f64, &t, req as f64, rep as f64));
        pb.inc(1);
    }
    Ok(points)
}

async fn serde_w2(addr: &str, codec: Codec, c: &Counts) -> Result<Point, String> {
    let mut client = HttpClient::new(addr, codec);
    let request = w2::request();
    measure_w2(c, async || {
        let (o, q, r): (w2::Order, usize, usize) = client.call("/exchange", &request).await?;
        Ok((o, q as f64, r as f64))
    })
    .await
}

/// The W2 row of a protocol: `c.w2_warmup` calls, then `c.w2_measured` timed ones, every reply
/// checked against the W2 reply. `call` makes one call and returns the reply with the request
/// and reply bytes it took.
pub async fn measure_w2(
    c: &Counts,
    mut call: impl AsyncFnMut() -> Result<(w2::Order, f64, f64), String>,
) -> Result<Point, String> {
    let expected = w2::reply();
    for _ in 0..c.w2_warmup {
        check_order(&call().await?.0, &expected)?;
    }
    let (mut t, mut req, mut rep) = (Vec::with_capacity(c.w2_measured), 0.0, 0.0);
    for _ in 0..c.w2_measured {
        let t0 = Instant::now();
        let (o, q, r) = call().await?;
        t.push(t0.elapsed());
        check_order(&o, &expected)?;
        (req, rep) = (q, r);
    }
    Ok(point(0.0, &t, req, rep))
}

/// Runs SeedJavaClient (`cmd`) against `url` and parses its `POINT` lines.
fn java_client(mut cmd: Command, url: &str, mode: &str, workload: &str, c: &Counts) -> Result<Vec<Point>, String> {
    let (warmup, measured) = if workload == "w1" { (c.warmup, c.measured) } else { (c.w2_warmup, c.w2_measured) };
    let prewarm = if workload == "w1" { c.prewarm } else { 0 };
    let prewarm = format!("{prewarm}/{}", c.prewarm_secs);
    cmd.args([url, mode, workload, &prewarm, &warmup.to_string(), &measured.to_string()]);
    if workload == "w1" {
        cmd.args(c.sizes.iter().map(|n| n.to_string()));
    }
    let out = procs::run_client(&format!("SeedJavaClient {mode} {workload}"), cmd, Duration::from_secs(900))?;
    let mut points = Vec::new();
    for line in out.lines().filter_map(|l| l.strip_prefix("POINT ")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let val = |k: &str| {
            f.iter().find_map(|x| x.strip_prefix(k)?.strip_prefix('=')?.parse::<f64>().ok()).unwrap_or(f64::NAN)
        };
        let x = f.first().and_then(|x| x.parse::<f64>().ok()).unwrap_or(f64::NAN);
        let time_us = Summary {
            n: val("n") as usize,
            mean: val("mean_us"),
            median: val("median_us"),
            p99: val("p99_us"),
            min: val("min_us"),
            max: val("max_us"),
        };
        points.push(Point { x, time_us, values: BTreeMap::new() });
    }
    let expected = if workload == "w1" { c.sizes.len() } else { 1 };
    if points.len() != expected {
        return Err(format!("SeedJavaClient printed {} points, expected {expected}", points.len()));
    }
    Ok(points)
}

/// The W1 points and the W2 point of one protocol.
fn run_proto(
    p: &Proto,
    c: &Counts,
    java: Option<&hessian_testkit::java::Java>,
    peers: Option<&javapeer::Peers>,
    pb: &ProgressBar,
) -> Result<(Vec<Point>, Point), String> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    match p.kind {
        Kind::RustHessian(dialect, type_maps) => {
            let server = rust_server("hessian")?;
            let base = server.base_url();
            let w1 = rt.block_on(hessian_w1(&base, dialect, type_maps, c, pb))?;
            let (w2, _) = rt.block_on(hessian_w2(&base, dialect, type_maps, c.w2_warmup, c.w2_measured))?;
            Ok((w1, w2))
        }
        Kind::RustSerde(codec) => {
            let server = rust_server(p.id)?;
            let addr = format!("127.0.0.1:{}", server.port);
            let w1 = rt.block_on(serde_w1(&addr, codec, c, pb))?;
            Ok((w1, rt.block_on(serde_w2(&addr, codec, c))?))
        }
        Kind::Grpc => {
            let server = rust_server("grpc")?;
            let addr = format!("127.0.0.1:{}", server.port);
            let w1 = rt.block_on(crate::seed::grpc::w1(&addr, c, pb))?;
            Ok((w1, rt.block_on(crate::seed::grpc::w2(&addr, c))?))
        }
        Kind::XmlRpc => {
            let server = rust_server("xmlrpc")?;
            let addr = format!("127.0.0.1:{}", server.port);
            let w1 = rt.block_on(crate::seed::xmlrpc::w1(&addr, c, pb))?;
            Ok((w1, rt.block_on(crate::seed::xmlrpc::w2(&addr, c))?))
        }
        Kind::RustToJava => {
            let java = java.ok_or("no Java")?;
            let server = java_server(java, "hessian")?;
            let base = server.base_url();
            let w1 = rt.block_on(hessian_w1(&base, Dialect::HESSIAN2, false, c, pb))?;
            let (w2, _) = rt.block_on(hessian_w2(&base, Dialect::HESSIAN2, false, c.w2_warmup, c.w2_measured))?;
            Ok((w1, w2))
        }
        Kind::Java(mode, server) => {
            let java = java.ok_or("no Java")?;
            let mut server = match server {
                Some(what) => java_server(java, what)?,
                None => rust_server("hessian")?,
            };
            let url = if mode == "rmi" {
                format!("rmi://127.0.0.1:{}/bench", server.port)
            } else {
                format!("{}/bench", server.base_url())
            };
            let client = || javapeer::command(java, "SeedJavaClient");
            let w1 = java_client(client(), &url, mode, "w1", c);
            pb.inc(c.sizes.len() as u64);
            let w1 = w1.map_err(|e| server.check_alive().err().unwrap_or(e))?;
            let w2 = java_client(client(), &url, mode, "w2", c)?;
            Ok((w1, w2.into_iter().next().ok_or("no W2 point")?))
        }
        Kind::JavaPeer(mode) => {
            let peers = peers.ok_or("no Java peers")?;
            let mut cmd = peers.command("SeedPeerServer");
            cmd.arg(mode);
            let mut server = Server::start(&format!("SeedPeerServer {mode}"), cmd, Duration::from_secs(60))?;
            let url = format!("{}/bench", server.base_url());
            let w1 = java_client(peers.command("SeedJavaClient"), &url, mode, "w1", c);
            pb.inc(c.sizes.len() as u64);
            let w1 = w1.map_err(|e| server.check_alive().err().unwrap_or(e))?;
            let w2 = java_client(peers.command("SeedJavaClient"), &url, mode, "w2", c)?;
            Ok((w1, w2.into_iter().next().ok_or("no W2 point")?))
        }
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
    pb.set_length((protos.len() * (c.sizes.len() + 1)) as u64 + 1);
    let needs_java = protos.iter().any(|p| p.needs_java());
    let java = if needs_java { Some(javapeer::java()) } else { None };
    let peers = match &java {
        Some(Ok(j)) if protos.iter().any(|p| matches!(p.kind, Kind::JavaPeer(_))) => Some(javapeer::peers(j)),
        _ => None,
    };
    let mut w1_rows = Vec::new();
    let mut w2_rows = Vec::new();
    for p in &protos {
        pb.set_message(p.label);
        let mut w1 = Series::new(p.id, p.label);
        let mut w2 = Series::new(p.id, p.label);
        let unavailable = match (&java, &peers, p.kind) {
            (Some(Err(e)), _, _) => Some(e.clone()),
            (_, Some(Err(e)), Kind::JavaPeer(_)) => Some(e.clone()),
            _ => None,
        };
        let java_ok = match (&java, p.needs_java()) {
            (Some(Ok(j)), true) if unavailable.is_none() => Some(j),
            (Some(_), true) => {
                let (skip, why) = unavailable.unwrap_or((false, "Java unavailable".into()));
                for s in [&mut w1, &mut w2] {
                    if skip {
                        s.skip(why.clone())
                    } else {
                        s.fail(why.clone())
                    }
                }
                w1_rows.push(w1);
                w2_rows.push(w2);
                pb.inc((c.sizes.len() + 1) as u64);
                continue;
            }
            _ => None,
        };
        let done = pb.position();
        match run_proto(p, &c, java_ok, peers.as_ref().and_then(|p| p.as_ref().ok()), pb) {
            Ok((points, w2p)) => {
                w1.points = points;
                w2.points = vec![w2p];
            }
            Err(e) => {
                w1.fail(e.clone());
                w2.fail(e);
            }
        }
        pb.set_position(done + (c.sizes.len() + 1) as u64);
        if matches!(p.kind, Kind::Java(..) | Kind::JavaPeer(_)) {
            for s in [&mut w1, &mut w2] {
                s.notes.insert("bytes".into(), "not measured (Java client)".into());
            }
        }
        w1_rows.push(w1);
        w2_rows.push(w2);
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
             TCP_NODELAY; gRPC over HTTP/2; RMI on its own TCP transport). Per protocol: {} calls \
             of getItems(100) first, at most {} s of them (connection set-up and the JIT of the Java sides), then per list size {} warm-up and {} measured \
             calls; W2: {} warm-up and {} measured calls. Every reply is checked (W1: length and \
             the first, middle and last item; W2: the whole graph). Rust clients run on a \
             current-thread tokio runtime; Java clients and servers with `{}`. Bytes are HTTP \
             body bytes per call as the Rust client counted them (the Java clients do not count).",
            c.prewarm,
            c.prewarm_secs,
            c.warmup,
            c.measured,
            c.w2_warmup,
            c.w2_measured,
            javapeer::flags()
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
