//! Server benchmark: `wrk` against the Rust server (`hessian serve-demo`) and against Caucho's
//! `HessianServlet` in embedded Jetty 9.4 (`interop/java/src/JettyBench.java`), in the same run.
//!
//! ```sh
//! cargo build --release -p hessian-cli -p hessian-bench
//! target/release/server_bench            # full: 10 s runs, 3 runs, 1M-call memory soak
//! target/release/server_bench --quick    # 3 s runs, 200k-call soak
//! target/release/server_bench --tiny     # 1 s runs, one run, 5k-call soak (the CI test)
//! ```
//!
//! The driver only speaks HTTP bytes: it encodes the two calls with the codec (`H 2 0 C`
//! `getItems(100)` for W1 and `exchange(Order)` with the W2 request graph for W2), checks that
//! both servers answer each body with the very same bytes (which must be the codec's encoding of
//! the expected reply) before and after the load, then runs `wrk` with a Lua script that POSTs
//! the body at 1 and 64 connections, three runs each, interleaving the servers. Per run it reads
//! the server's CPU time (`/proc/PID/stat` utime+stime) and RSS (`/proc/PID/status` VmRSS), and
//! prints a Markdown table. Last comes a memory soak of the Rust server (W2, 64 connections, until
//! the call count is reached) sampling its RSS every few seconds.
//!
//! Options: `--quick`, `--tiny`, `--hessian PATH` (the Rust server binary; default
//! `target/release/hessian`), `--duration S`, `--runs N`, `--warmup S`, `--soak N` (calls; 0 to
//! skip). Exits non-zero on any failed check or `wrk` error.

use hessian::h2::message::{call_to_vec, reply_from_slice, reply_to_vec};
use hessian::{Limits, Value};
use hessian_testkit::java::{java_with_jetty, repo_root, Java, TIMING_JVM_OPTS};
use hessian_testkit::workloads::{items, W2Classes};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The JVM of the Jetty server: what the reference needs on Java 17 (module access) with the
/// production JIT and collector the JVM picks (tiered C1+C2, G1 here), and a fixed 1 GiB heap;
/// never the test kit's fast-start flags.
fn jetty_jvm_opts() -> Vec<&'static str> {
    // The `--add-opens` of the timing options (their `sun.net.httpserver` setting is for the JDK's
    // HTTP server, which Jetty does not use).
    let mut o: Vec<&str> = TIMING_JVM_OPTS.iter().copied().filter(|x| x.starts_with("--add-opens")).collect();
    o.extend(["-Xms1g", "-Xmx1g"]);
    assert!(!o.iter().any(|x| x.contains("TieredStopAtLevel") || x.contains("UseSerialGC")));
    o
}

type Res<T> = Result<T, String>;

#[derive(Clone, Debug)]
struct Config {
    mode: &'static str,
    duration: u32,
    runs: usize,
    warmup: u32,
    soak: u64,
    soak_sample: Duration,
    hessian: PathBuf,
    /// Also load `serve-demo --multi-thread` (one work-stealing runtime), interleaved.
    multi_thread_too: bool,
}

fn parse_args() -> Res<Config> {
    let mut c = Config {
        mode: "full",
        duration: 10,
        runs: 3,
        warmup: 10,
        soak: 1_000_000,
        soak_sample: Duration::from_secs(3),
        hessian: repo_root().join("target/release/hessian"),
        multi_thread_too: false,
    };
    let mut args = std::env::args().skip(1);
    let mut overrides: Vec<(String, String)> = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => {
                c.mode = "quick";
                c.duration = 3;
                c.warmup = 5;
                c.soak = 200_000;
                c.soak_sample = Duration::from_secs(2);
            }
            "--tiny" => {
                c.mode = "tiny";
                c.duration = 1;
                c.runs = 1;
                c.warmup = 1;
                c.soak = 5_000;
                c.soak_sample = Duration::from_millis(250);
            }
            "--also-multi-thread" => c.multi_thread_too = true,
            "--hessian" | "--duration" | "--runs" | "--warmup" | "--soak" => {
                let v = args.next().ok_or_else(|| format!("{a} needs a value"))?;
                overrides.push((a, v));
            }
            "-h" | "--help" => {
                println!("usage: server_bench [--quick|--tiny] [--hessian PATH] [--duration S] [--runs N] [--warmup S] [--soak CALLS] [--also-multi-thread]");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {a:?} (see --help)")),
        }
    }
    for (k, v) in overrides {
        let num = |v: &str| v.parse::<u64>().map_err(|e| format!("{k} {v}: {e}"));
        match k.as_str() {
            "--hessian" => c.hessian = PathBuf::from(v),
            "--duration" => c.duration = num(&v)?.max(1) as u32,
            "--runs" => c.runs = num(&v)?.max(1) as usize,
            "--warmup" => c.warmup = num(&v)? as u32,
            _ => c.soak = num(&v)?,
        }
    }
    Ok(c)
}

/// A server child process, killed (and reaped) on drop.
struct Server {
    name: &'static str,
    child: Child,
    port: u16,
}

impl Server {
    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn alive(&mut self) -> Res<()> {
        match self.child.try_wait() {
            Ok(None) => Ok(()),
            Ok(Some(status)) => Err(format!("{} server exited ({status})", self.name)),
            Err(e) => Err(format!("{} server: {e}", self.name)),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long a server may take to print its ready line.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Reads stdout lines until `parse` finds the port in one (at most [`START_TIMEOUT`]); a thread
/// keeps draining stdout. Returns the server and the lines printed before the ready line.
fn wait_ready(name: &'static str, mut child: Child, parse: fn(&str) -> Option<u16>) -> Res<(Server, Vec<String>)> {
    let stdout: ChildStdout = match child.stdout.take() {
        Some(s) => s,
        None => return Err(format!("{name}: no stdout")),
    };
    // From here on the child is killed on every error path.
    let mut server = Server { name, child, port: 0 };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            // Once the driver stopped listening the lines are dropped.
            let _ = tx.send(line);
        }
    });
    let deadline = Instant::now() + START_TIMEOUT;
    let mut before = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => match parse(line.trim()) {
                Some(port) => {
                    server.port = port;
                    return Ok((server, before));
                }
                None => before.push(line),
            },
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                return Err(format!("{name} server printed no ready line within {} s", START_TIMEOUT.as_secs()))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                server.alive()?;
                return Err(format!("{name} server closed its stdout before its ready line"));
            }
        }
    }
}

fn start_rust(hessian: &Path, name: &'static str, extra: &[&str]) -> Res<Server> {
    if !hessian.exists() {
        return Err(format!(
            "{} not found: build it first (cargo build --release -p hessian-cli) or pass --hessian PATH",
            hessian.display()
        ));
    }
    let child = Command::new(hessian)
        .args(["serve-demo", "--listen", "127.0.0.1:0"])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("spawn {}: {e}", hessian.display()))?;
    // "hessian serve-demo: listening on http://127.0.0.1:PORT (...)"
    let (server, _) = wait_ready(name, child, |l| {
        let rest = l.split("http://127.0.0.1:").nth(1)?;
        rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    })?;
    Ok(server)
}

/// Starts JettyBench; also returns the JVM's `-XX:+PrintCommandLineFlags` line (the collector and
/// heap it picked).
fn start_jetty(java: &Java) -> Res<(Server, String)> {
    let mut opts = jetty_jvm_opts();
    opts.push("-XX:+PrintCommandLineFlags");
    let child = java
        .command_with(&opts, "JettyBench")
        .arg("0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        // Jetty logs its start-up (five INFO lines) to stderr.
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("spawn java JettyBench: {e}"))?;
    let (server, before) = wait_ready("Jetty", child, |l| l.strip_prefix("PORT ")?.trim().parse().ok())?;
    let flags = before.into_iter().find(|l| l.contains("-XX:")).unwrap_or_default();
    Ok((server, flags))
}

/// One POST over a fresh connection (`Connection: close`): status and body (chunked or not).
fn post(port: u16, body: &[u8]) -> Res<(u16, Vec<u8>)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect {port}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(30))).map_err(|e| e.to_string())?;
    let head = format!(
        "POST /bench HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: x-application/hessian\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).and_then(|_| s.write_all(body)).map_err(|e| format!("send: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).map_err(|e| format!("read reply: {e}"))?;
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or("reply without a header end")?;
    let head = String::from_utf8_lossy(&raw[..end]).to_string();
    let rest = &raw[end + 4..];
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line: {head}"))?;
    let header = |name: &str| {
        head.lines().skip(1).find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    };
    let chunked = header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        dechunk(rest)?
    } else if let Some(len) = header("content-length") {
        let len: usize = len.parse().map_err(|e| format!("content-length {len}: {e}"))?;
        rest.get(..len).ok_or("reply shorter than its content-length")?.to_vec()
    } else {
        rest.to_vec()
    };
    Ok((status, body))
}

fn dechunk(mut data: &[u8]) -> Res<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let eol = data.windows(2).position(|w| w == b"\r\n").ok_or("chunk size line")?;
        let size_text = String::from_utf8_lossy(&data[..eol]).to_string();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|e| format!("chunk size {size_text:?}: {e}"))?;
        data = &data[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        out.extend_from_slice(data.get(..size).ok_or("truncated chunk")?);
        data = data.get(size + 2..).ok_or("truncated chunk end")?;
    }
}

/// A benchmarked call: its request body and the bytes both servers must answer.
struct Workload {
    name: &'static str,
    body: Vec<u8>,
    reply: Value,
    expected: Vec<u8>,
    body_file: PathBuf,
}

fn workloads(dir: &Path) -> Res<Vec<Workload>> {
    let w2 = W2Classes::default();
    let enc = |e: hessian::Error| e.to_string();
    let list = [
        (
            "W1 getItems(100)",
            call_to_vec(&hessian::Call::new("getItems", vec![Value::Int(100)])).map_err(enc)?,
            items(100),
        ),
        ("W2 exchange", call_to_vec(&hessian::Call::new("exchange", vec![w2.request()])).map_err(enc)?, w2.reply()),
    ];
    let mut out = Vec::new();
    for (i, (name, body, reply)) in list.into_iter().enumerate() {
        let body_file = dir.join(format!("body-{i}.bin"));
        std::fs::write(&body_file, &body).map_err(|e| format!("{}: {e}", body_file.display()))?;
        let expected = reply_to_vec(&Ok(reply.clone())).map_err(enc)?;
        out.push(Workload { name, body, reply, expected, body_file });
    }
    Ok(out)
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()))
}

/// Both servers must answer `w.body` with exactly `w.expected`.
fn check_bytes(when: &str, servers: &[&Server], w: &Workload) -> Res<()> {
    let mut replies = Vec::new();
    for s in servers {
        let (status, reply) = post(s.port, &w.body).map_err(|e| format!("{} {}: {e}", s.name, w.name))?;
        if status != 200 {
            return Err(format!("{when}: {} answered {} with HTTP {status}", s.name, w.name));
        }
        if reply != w.expected {
            let at = first_difference(&reply, &w.expected);
            let decoded = match reply_from_slice(&reply, Limits::default()) {
                Ok(Ok(v)) => format!("a value{}", if v == w.reply { " equal to the expected one" } else { "" }),
                Ok(Err(f)) => format!("the fault {f}"),
                Err(e) => format!("undecodable bytes ({e})"),
            };
            return Err(format!(
                "{when}: {} answered {} with {} bytes differing from the expected {} bytes at offset {at}; it decodes to {decoded}",
                s.name,
                w.name,
                reply.len(),
                w.expected.len()
            ));
        }
        replies.push(reply);
    }
    let names: Vec<&str> = servers.iter().map(|s| s.name).collect();
    println!(
        "byte check {when}: {}: {} answer the {}-byte body with the same {} bytes (the expected reply)",
        w.name,
        names.join(" and "),
        w.body.len(),
        w.expected.len()
    );
    Ok(())
}

/// utime + stime of a process, in clock ticks.
fn cpu_ticks(pid: u32) -> Res<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // Fields after the command name (which may hold spaces) start at field 3 (state).
    let after = stat.rsplit_once(')').map(|(_, r)| r).ok_or("unparsable /proc/PID/stat")?;
    let f: Vec<&str> = after.split_whitespace().collect();
    let field = |i: usize| f.get(i - 3).and_then(|v| v.parse::<u64>().ok()).ok_or("unparsable utime/stime");
    Ok(field(14)? + field(15)?)
}

/// VmRSS in KiB.
fn rss_kib(pid: u32) -> Res<u64> {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| format!("/proc/{pid}/status: {e}"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| "no VmRSS".to_string())
}

fn clock_ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|t| *t > 0.0)
        .unwrap_or(100.0)
}

/// The summary the Lua script's `done` prints.
#[derive(Debug, Default, Clone)]
struct WrkResult {
    requests: u64,
    duration_s: f64,
    bytes: u64,
    p50_us: f64,
    p99_us: f64,
}

const WRK_MARK: &str = "SERVER_BENCH";

fn lua_script(body_file: &Path) -> String {
    let path = body_file.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        r#"-- generated by server_bench: POST the Hessian call in the body file
wrk.method = "POST"
wrk.headers["Content-Type"] = "x-application/hessian"
local f = assert(io.open("{path}", "rb"))
wrk.body = f:read("*a")
f:close()

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("{WRK_MARK} requests=%.0f duration_us=%.0f bytes=%.0f p50_us=%.0f p99_us=%.0f connect=%.0f read=%.0f write=%.0f status=%.0f timeout=%.0f\n",
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
"#
    )
}

fn run_wrk(script: &Path, port: u16, conns: u32, secs: u32) -> Res<WrkResult> {
    let threads = if conns > 1 { 2 } else { 1 };
    let out = Command::new("wrk")
        .args(["-t", &threads.to_string(), "-c", &conns.to_string(), "-d", &format!("{secs}s")])
        .args(["--latency", "--timeout", "10s", "-s"])
        .arg(script)
        .arg(format!("http://127.0.0.1:{port}/bench"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("run wrk: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        return Err(format!("wrk failed ({}):\n{text}{}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    let line = text.lines().find(|l| l.starts_with(WRK_MARK)).ok_or_else(|| format!("no summary from wrk:\n{text}"))?;
    let get = |k: &str| -> Res<f64> {
        line.split_whitespace()
            .find_map(|f| f.strip_prefix(k).and_then(|v| v.strip_prefix('=')))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("no {k} in {line}"))
    };
    let errors: Vec<String> = ["connect", "read", "write", "status", "timeout"]
        .iter()
        .filter_map(|k| get(k).ok().filter(|n| *n > 0.0).map(|n| format!("{k} {n}")))
        .collect();
    if !errors.is_empty() {
        return Err(format!("wrk reported errors ({}):\n{text}", errors.join(", ")));
    }
    let r = WrkResult {
        requests: get("requests")? as u64,
        duration_s: get("duration_us")? / 1e6,
        bytes: get("bytes")? as u64,
        p50_us: get("p50_us")?,
        p99_us: get("p99_us")?,
    };
    if r.requests == 0 {
        return Err(format!("wrk completed no request:\n{text}"));
    }
    Ok(r)
}

/// One measured run.
#[derive(Debug, Clone)]
struct Run {
    rps: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_per_10k: f64,
    rss_before_kib: u64,
    rss_after_kib: u64,
}

fn measure(server: &mut Server, script: &Path, w: &Workload, conns: u32, secs: u32, tck: f64) -> Res<Run> {
    server.alive()?;
    let pid = server.pid();
    let rss_before_kib = rss_kib(pid)?;
    let cpu0 = cpu_ticks(pid)?;
    let r =
        run_wrk(script, server.port, conns, secs).map_err(|e| format!("{} {} c={conns}: {e}", server.name, w.name))?;
    let cpu1 = cpu_ticks(pid)?;
    let rss_after_kib = rss_kib(pid)?;
    server.alive()?;
    // Every answer carried at least the expected reply (a fault would be far shorter).
    let per_request = r.bytes / r.requests;
    if per_request < w.expected.len() as u64 {
        return Err(format!(
            "{} {}: {per_request} bytes per response under load, less than the {}-byte reply",
            server.name,
            w.name,
            w.expected.len()
        ));
    }
    let cpu_s = cpu1.saturating_sub(cpu0) as f64 / tck;
    Ok(Run {
        rps: r.requests as f64 / r.duration_s,
        p50_us: r.p50_us,
        p99_us: r.p99_us,
        cpu_per_10k: cpu_s / r.requests as f64 * 10_000.0,
        rss_before_kib,
        rss_after_kib,
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn fmt_us(us: f64) -> String {
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn uptime() -> String {
    Command::new("uptime")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "(uptime unavailable)".into())
}

fn wrk_version() -> Option<String> {
    let out = Command::new("wrk").arg("-v").output().ok()?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    text.lines().next().map(|l| l.trim().to_string())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("server_bench: {e}");
        std::process::exit(1);
    }
}

fn run() -> Res<()> {
    let cfg = parse_args()?;
    let wrk = wrk_version().ok_or("wrk not found (apt-get install wrk)")?;
    let java = match java_with_jetty() {
        Some(j) => j,
        None => return Err("Java, libhessian-java or libjetty9-java missing".into()),
    };
    let dir = std::env::temp_dir().join(format!("server_bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = bench(&cfg, &java, &dir, &wrk);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn bench(cfg: &Config, java: &Java, dir: &Path, wrk: &str) -> Res<()> {
    let tck = clock_ticks_per_second();
    let loads = workloads(dir)?;
    let scripts: Vec<PathBuf> = loads
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let p = dir.join(format!("post-{i}.lua"));
            std::fs::write(&p, lua_script(&w.body_file)).map(|_| p).map_err(|e| e.to_string())
        })
        .collect::<Res<_>>()?;

    println!("# server benchmark ({} mode)", cfg.mode);
    println!("uptime at start: {}", uptime());
    println!("{wrk}; JVM options of Jetty: {}", jetty_jvm_opts().join(" "));

    let mut rust = start_rust(&cfg.hessian, "Rust", &[])?;
    let mut multi = if cfg.multi_thread_too {
        Some(start_rust(&cfg.hessian, "Rust multi-thread", &["--multi-thread"])?)
    } else {
        None
    };
    let (mut jetty, jvm_flags) = start_jetty(java)?;
    println!("Rust server: {} serve-demo (workers) pid {} port {}", cfg.hessian.display(), rust.pid(), rust.port);
    if let Some(m) = &multi {
        println!("Rust multi-thread server: serve-demo --multi-thread pid {} port {}", m.pid(), m.port);
    }
    println!("Jetty server: JettyBench pid {} port {}", jetty.pid(), jetty.port);
    println!("Jetty's JVM flags as the JVM reports them: {}", jvm_flags.trim());

    for w in &loads {
        let mut all = vec![&rust, &jetty];
        all.extend(multi.as_ref());
        check_bytes("before the load", &all, w)?;
    }

    // Warm-up: every server, both calls, at 64 connections (the JIT needs load, not calls).
    if cfg.warmup > 0 {
        for (w, script) in loads.iter().zip(&scripts) {
            let mut all = vec![&mut rust, &mut jetty];
            all.extend(multi.as_mut());
            for s in all {
                measure(s, script, w, 64, cfg.warmup, tck).map_err(|e| format!("warm-up: {e}"))?;
            }
        }
        println!("warm-up: {} s of load per call and server at 64 connections", cfg.warmup);
    }

    let conns_list = [1u32, 64];
    // rows[i] = (workload, conns, runs per server in the order Rust, Jetty[, Rust multi-thread]),
    // runs interleaved Rust, Jetty, …, Rust, Jetty, …
    let mut rows: Vec<(usize, u32, Vec<Vec<Run>>)> = Vec::new();
    for (wi, (w, script)) in loads.iter().zip(&scripts).enumerate() {
        for &conns in &conns_list {
            let mut runs = vec![Vec::new(), Vec::new(), Vec::new()];
            for _ in 0..cfg.runs {
                runs[0].push(measure(&mut rust, script, w, conns, cfg.duration, tck)?);
                runs[1].push(measure(&mut jetty, script, w, conns, cfg.duration, tck)?);
                if let Some(m) = multi.as_mut() {
                    runs[2].push(measure(m, script, w, conns, cfg.duration, tck)?);
                }
            }
            runs.retain(|r| !r.is_empty());
            eprintln!("measured {} c={conns}", w.name);
            rows.push((wi, conns, runs));
        }
    }

    let soak = if cfg.soak > 0 {
        let rate = rows.iter().find(|r| r.0 == 1 && r.1 == 64).map(|r| median(r.2[0].iter().map(|x| x.rps).collect()));
        Some(soak(cfg, &mut rust, &loads[1], &scripts[1], rate.unwrap_or(10_000.0))?)
    } else {
        None
    };

    for w in &loads {
        let mut all = vec![&rust, &jetty];
        all.extend(multi.as_ref());
        check_bytes("after the load", &all, w)?;
    }
    let end_uptime = uptime();
    let names = ["Rust", "Jetty", "Rust multi-thread"];

    println!();
    println!(
        "wrk {} s per run, {} run(s) per row (medians shown), servers interleaved; -t 1 at 1 connection, -t 2 at 64; wrk, the servers and the driver share the machine's {} cores",
        cfg.duration,
        cfg.runs,
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0)
    );
    println!();
    println!("| call | conns | server | req/s | p50 | p99 | server CPU s / 10k req | RSS MiB before → after | ÷ Jetty req/s (min–max) |");
    println!("|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for (wi, conns, per_server) in &rows {
        let jetty_runs = &per_server[1];
        for (si, runs) in per_server.iter().enumerate() {
            let ratio = if si == 1 {
                String::new()
            } else {
                let ratios: Vec<f64> = runs.iter().zip(jetty_runs).map(|(r, j)| r.rps / j.rps).collect();
                let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                format!("{:.2}× ({lo:.2}–{hi:.2})", median(ratios))
            };
            let first = runs.first().map(|r| r.rss_before_kib).unwrap_or(0);
            let last = runs.last().map(|r| r.rss_after_kib).unwrap_or(0);
            println!(
                "| {} | {conns} | {} | {:.0} | {} | {} | {:.3} | {:.1} → {:.1} | {ratio} |",
                loads[*wi].name,
                names[si],
                median(runs.iter().map(|r| r.rps).collect()),
                fmt_us(median(runs.iter().map(|r| r.p50_us).collect())),
                fmt_us(median(runs.iter().map(|r| r.p99_us).collect())),
                median(runs.iter().map(|r| r.cpu_per_10k).collect()),
                mib(first),
                mib(last),
            );
        }
    }
    println!();
    println!("req/s of every run ({}):", names[..rows.first().map_or(2, |r| r.2.len())].join(" / "));
    for (wi, conns, per_server) in &rows {
        let runs: Vec<String> = (0..per_server[0].len())
            .map(|i| per_server.iter().map(|r| format!("{:.0}", r[i].rps)).collect::<Vec<_>>().join(" / "))
            .collect();
        println!("- {} c={conns}: {}", loads[*wi].name, runs.join(", "));
    }
    if let Some(s) = soak {
        println!();
        print!("{s}");
    }
    println!();
    println!("uptime at end: {end_uptime}");
    Ok(())
}

/// Largest RSS growth the soak accepts after its first tenth (4 MiB: about 4 bytes per call over
/// a million calls), beyond which the driver fails.
const SOAK_GROWTH_BOUND_KIB: u64 = 4096;

/// The memory soak: the Rust server answers `cfg.soak` W2 calls (wrk at 64 connections, run for
/// as long as the measured rate says, repeated until the count is reached) while a thread samples
/// its RSS. Returns the report.
fn soak(cfg: &Config, rust: &mut Server, w: &Workload, script: &Path, rate: f64) -> Res<String> {
    let pid = rust.pid();
    let stop = Arc::new(AtomicBool::new(false));
    let t0 = Instant::now();
    let sampler = {
        let stop = stop.clone();
        let every = cfg.soak_sample;
        std::thread::spawn(move || {
            let mut samples = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                if let Ok(kib) = rss_kib(pid) {
                    samples.push((t0.elapsed().as_secs_f64(), kib));
                }
                let until = Instant::now() + every;
                while Instant::now() < until && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
            samples
        })
    };
    let rss_start = rss_kib(pid)?;
    let mut done = 0u64;
    let mut chunks = Vec::new();
    let mut rate = rate.max(100.0);
    let outcome = (|| -> Res<()> {
        while done < cfg.soak {
            let left = (cfg.soak - done) as f64;
            let secs = ((left / rate) * 1.05).ceil().clamp(1.0, 600.0) as u32;
            let r = run_wrk(script, rust.port, 64, secs).map_err(|e| format!("soak: {e}"))?;
            rust.alive()?;
            if r.bytes / r.requests < w.expected.len() as u64 {
                return Err("soak: responses shorter than the W2 reply".into());
            }
            done += r.requests;
            rate = r.requests as f64 / r.duration_s;
            chunks.push((secs, r.requests, rate));
        }
        Ok(())
    })();
    let elapsed = t0.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let samples = sampler.join().map_err(|_| "RSS sampler panicked")?;
    outcome?;
    let rss_end = rss_kib(pid)?;

    let mut s = String::new();
    use std::fmt::Write as _;
    let _ = writeln!(
        s,
        "memory soak: Rust server, W2 exchange, wrk -t 2 -c 64: {done} calls in {elapsed:.1} s ({} wrk run(s): {})",
        chunks.len(),
        chunks.iter().map(|(d, n, r)| format!("{d} s, {n} calls, {r:.0}/s")).collect::<Vec<_>>().join("; ")
    );
    let _ = writeln!(s, "RSS before the soak {:.1} MiB, after {:.1} MiB", mib(rss_start), mib(rss_end));
    let _ = writeln!(s, "RSS samples every {:.2} s (t in s: MiB):", cfg.soak_sample.as_secs_f64());
    let _ = writeln!(
        s,
        "{}",
        samples.iter().map(|(t, k)| format!("{t:.1}: {:.1}", mib(*k))).collect::<Vec<_>>().join(", ")
    );
    // Growth: from the first sample after the first tenth of the soak (the connections and
    // buffers exist by then) to the largest sample after it.
    let settle = elapsed / 10.0;
    let after: Vec<u64> = samples.iter().filter(|(t, _)| *t >= settle).map(|(_, k)| *k).collect();
    if let (Some(first), Some(max), Some(min)) = (after.first(), after.iter().max(), after.iter().min()) {
        let growth = max.saturating_sub(*first);
        let _ = writeln!(
            s,
            "after the first tenth of the soak: RSS {:.1}–{:.1} MiB, largest growth {growth} KiB over the last nine tenths \
             (at most {:.3} bytes per call)",
            mib(*min),
            mib(*max),
            growth as f64 * 1024.0 / (done as f64 * 0.9)
        );
        if growth > SOAK_GROWTH_BOUND_KIB {
            return Err(format!("{s}RSS grew by {growth} KiB during the soak, more than {SOAK_GROWTH_BOUND_KIB} KiB"));
        }
        let _ = writeln!(s, "flat: the growth is within the bound of {SOAK_GROWTH_BOUND_KIB} KiB");
    }
    Ok(s)
}
