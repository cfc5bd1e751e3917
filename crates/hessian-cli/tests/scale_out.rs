//! Scale-out with a real load balancer (issue 12, item 4): three `hessian serve-demo` processes
//! behind Debian's nginx (round robin, keep-alive connections to the upstreams), one of them
//! with a type-map cache of two maps; a Rust client (Hessian 2, type negotiation on) makes
//! thousands of self-checking calls from four concurrent tasks, mostly W2 `exchange`, while the
//! servers are restarted one at a time on the same ports. Every call must be answered
//! correctly, and every call must have run exactly once: the sum of the runs the servers counted
//! over all their lifetimes (each server's last counters, printed after its graceful drain)
//! equals the number of calls made, method by method. The resends are printed.
//!
//! Restarts are graceful (SIGTERM: the server stops accepting, finishes the requests it has read,
//! closes its idle keep-alive connections and exits), as a rolling restart behind a load balancer
//! is done. nginx is configured with `proxy_next_upstream error non_idempotent` so that a request
//! it wrote on an idle upstream connection at the moment that server closed it (never read, so
//! never run) goes to the next server instead of becoming a 502; the execution count would show
//! any call that ran twice.
//!
//! Needs nginx (`apt-get install nginx`): skipped with a message when it is missing, a failure
//! under `CI` (`.ci/run` installs it).

use hessian_demo::BenchClient;
use hessian_rpc::{Client, Value};
use hessian_testkit::catalogue;
use hessian_testkit::structs::{self, w2};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Calls made at least, and restart rounds (each restarts the three servers one at a time).
const MIN_CALLS: u64 = 10_000;
const ROUNDS: usize = 3;
const TASKS: usize = 4;

/// The nginx binary: Debian's `/usr/sbin/nginx`, or `nginx` on the PATH. `None` with a printed
/// skip message when missing, a panic under `CI`.
fn nginx() -> Option<PathBuf> {
    let debian = Path::new("/usr/sbin/nginx");
    if debian.exists() {
        return Some(debian.to_path_buf());
    }
    if Command::new("nginx").arg("-v").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok() {
        return Some(PathBuf::from("nginx"));
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the scale-out test must run in CI but nginx is missing: run .ci/run, which installs it"
    );
    eprintln!("SKIPPING scale-out test: nginx not installed (apt-get install nginx)");
    None
}

/// Sends SIGTERM to a process this test started.
fn terminate(child: &Child) {
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
}

/// `key=value` pairs of one line, as numbers.
fn pairs(line: &str) -> HashMap<String, u64> {
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .filter_map(|(k, v)| Some((k.to_owned(), v.parse().ok()?)))
        .collect()
}

fn get(m: &HashMap<String, u64>, k: &str) -> u64 {
    *m.get(k).unwrap_or_else(|| panic!("no {k} in {m:?}"))
}

/// One `hessian serve-demo` process.
struct Demo {
    child: Child,
    stdout: BufReader<ChildStdout>,
    port: u16,
    args: Vec<String>,
}

impl Demo {
    /// Starts serve-demo on `port` (0: any free port) with `extra` options; retries while a
    /// restart finds the port still taken.
    fn start(port: u16, extra: &[String]) -> Demo {
        for attempt in 0.. {
            let mut child = Command::new(env!("CARGO_BIN_EXE_hessian"))
                .args(["serve-demo", "--listen", &format!("127.0.0.1:{port}")])
                .args(extra)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn hessian serve-demo");
            let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
            let mut line = String::new();
            let _ = stdout.read_line(&mut line);
            let bound = line
                .split("http://127.0.0.1:")
                .nth(1)
                .and_then(|s| s.split_whitespace().next())
                .and_then(|p| p.parse::<u16>().ok());
            if let Some(p) = bound.filter(|&p| port == 0 || p == port) {
                return Demo { child, stdout, port: p, args: extra.to_vec() };
            }
            let _ = child.kill();
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            let _ = child.wait();
            assert!(attempt < 40, "serve-demo could not listen on port {port}: {line:?} {err}");
            std::thread::sleep(Duration::from_millis(50));
        }
        unreachable!()
    }

    /// `GET /stats`, parsed.
    fn stats(&self) -> HashMap<String, u64> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect for /stats");
        s.write_all(b"GET /stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").expect("send GET /stats");
        let mut text = String::new();
        s.read_to_string(&mut text).expect("read /stats");
        pairs(text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default())
    }

    /// Graceful stop (SIGTERM); returns the counters of the server's whole lifetime, from the
    /// line it prints after draining.
    fn stop(mut self) -> HashMap<String, u64> {
        terminate(&self.child);
        let mut out = String::new();
        let _ = self.stdout.read_to_string(&mut out);
        let status = self.child.wait().expect("wait for serve-demo");
        assert!(status.success(), "serve-demo on port {} exited with {status}:\n{out}", self.port);
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix("hessian serve-demo: stopped: "))
            .unwrap_or_else(|| panic!("no stopped line from serve-demo on port {}:\n{out}", self.port));
        pairs(line)
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// nginx in the foreground with its files in a temporary directory; stopped on drop.
struct Nginx {
    child: Child,
    dir: PathBuf,
}

impl Nginx {
    /// What nginx logged about its upstreams: connections refused (a server between its stop
    /// and its restart) and upstream connections closed under a request (an idle keep-alive
    /// connection closed by a draining server); each was passed to the next server.
    fn upstream_errors(&self) -> (usize, usize) {
        let log = std::fs::read_to_string(self.dir.join("error.log")).unwrap_or_default();
        let refused = log.lines().filter(|l| l.contains("connect() failed")).count();
        let closed = log.lines().filter(|l| l.contains("prematurely closed") || l.contains("reset by peer")).count();
        (refused, closed)
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM lets the master stop its worker (a killed master would leave it running)
        terminate(&self.child);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                let _ = std::fs::remove_dir_all(&self.dir);
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port()
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Uid:").map(|u| u.split_whitespace().nth(1) == Some("0"))))
        .unwrap_or(false)
}

fn start_nginx(bin: &Path, upstreams: &[u16]) -> (Nginx, u16) {
    let dir = std::env::temp_dir().join(format!("hessian-scale-out-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("nginx temp dir");
    let port = free_port();
    let d = dir.display();
    let servers: String = upstreams.iter().map(|p| format!("        server 127.0.0.1:{p} max_fails=0;\n")).collect();
    // As root, the worker would run as `nobody` and could not use the temp dir.
    let user = if running_as_root() { "user root;\n" } else { "" };
    let conf = format!(
        "{user}worker_processes 1;
daemon off;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {d}/client_body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    upstream demo {{
{servers}        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        keepalive_requests 1000000;
        location / {{
            proxy_pass http://demo;
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
            proxy_next_upstream error non_idempotent;
        }}
    }}
}}
"
    );
    let conf_path = dir.join("nginx.conf");
    std::fs::write(&conf_path, conf).expect("write nginx.conf");
    let child = Command::new(bin)
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(&conf_path)
        .arg("-e")
        .arg(dir.join("error.log"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn nginx");
    let mut nginx = Nginx { child, dir };
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = nginx.child.try_wait() {
            let log = std::fs::read_to_string(nginx.dir.join("error.log")).unwrap_or_default();
            panic!("nginx exited ({status}):\n{log}");
        }
        assert!(Instant::now() < deadline, "nginx did not listen on port {port}");
        std::thread::sleep(Duration::from_millis(20));
    }
    (nginx, port)
}

/// What the client made, by method.
#[derive(Default)]
struct Made {
    exchange: AtomicU64,
    get_items: AtomicU64,
    test2: AtomicU64,
}

impl Made {
    fn total(&self) -> u64 {
        self.exchange.load(Ordering::Relaxed)
            + self.get_items.load(Ordering::Relaxed)
            + self.test2.load(Ordering::Relaxed)
    }
}

/// One client task: every tenth call `getItems(10)`, every tenth (offset) `/test2`
/// `replyObject_16` (17 classes), the rest W2 `exchange`; each reply checked.
async fn calls(base: String, client: Client, made: Arc<Made>, stop: Arc<AtomicBool>, task: usize) {
    let bench = BenchClient::new(client.proxy(&format!("{base}/bench")).expect("bench url"));
    let test2 = client.proxy(&format!("{base}/test2")).expect("test2 url");
    let request = w2::request();
    let reply = w2::reply();
    let items = structs::items(10);
    let objects = catalogue::test_hessian2_replies()
        .into_iter()
        .find(|c| c.name == "replyObject_16")
        .expect("replyObject_16 in the catalogue")
        .value;
    let mut i = task;
    while !stop.load(Ordering::Relaxed) {
        match i % 10 {
            3 => {
                let got = bench.get_items(10).await.unwrap_or_else(|e| panic!("call {i} getItems(10): {e}"));
                assert_eq!(got, items, "call {i}: wrong getItems(10) reply");
                made.get_items.fetch_add(1, Ordering::Relaxed);
            }
            7 => {
                let got: Value = test2
                    .call("replyObject_16", vec![])
                    .await
                    .unwrap_or_else(|e| panic!("call {i} replyObject_16: {e}"));
                assert!(catalogue::same_value(&got, &objects), "call {i}: wrong replyObject_16 reply: {got}");
                made.test2.fetch_add(1, Ordering::Relaxed);
            }
            _ => {
                let got = bench.exchange(request.clone()).await.unwrap_or_else(|e| panic!("call {i} exchange: {e}"));
                assert_eq!(*got, reply, "call {i}: wrong exchange reply");
                made.exchange.fetch_add(1, Ordering::Relaxed);
            }
        }
        i += TASKS;
    }
}

#[test]
fn three_servers_behind_nginx_restarted_one_at_a_time_run_every_call_once() {
    let Some(nginx_bin) = nginx() else { return };
    let started = Instant::now();
    let tiny = vec!["--type-map-cache".to_owned(), "2".to_owned()];
    let mut servers: Vec<Option<Demo>> =
        vec![Some(Demo::start(0, &[])), Some(Demo::start(0, &tiny)), Some(Demo::start(0, &[]))];
    let ports: Vec<u16> = servers.iter().flatten().map(|s| s.port).collect();
    let (nginx, port) = start_nginx(&nginx_bin, &ports);
    let base = format!("http://127.0.0.1:{port}");

    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let client = Client::builder().timeout(Duration::from_secs(20)).build();
    let made = Arc::new(Made::default());
    let stop = Arc::new(AtomicBool::new(false));
    let tasks: Vec<_> =
        (0..TASKS).map(|t| rt.spawn(calls(base.clone(), client.clone(), made.clone(), stop.clone(), t))).collect();

    // The restarts, one server at a time, while the calls go on.
    let mut lifetimes: Vec<(u16, HashMap<String, u64>)> = Vec::new();
    let mut restarts = 0;
    for round in 0..ROUNDS {
        for s in servers.iter_mut() {
            let wait = Instant::now();
            let target = made.total() + 400;
            while made.total() < target && !tasks.iter().any(|t| t.is_finished()) {
                assert!(wait.elapsed() < Duration::from_secs(20), "calls stalled at {}", made.total());
                std::thread::sleep(Duration::from_millis(5));
            }
            if tasks.iter().any(|t| t.is_finished()) {
                break; // a task failed: its panic is reported below
            }
            let old = s.take().expect("server");
            let (p, args) = (old.port, old.args.clone());
            println!("round {round}: server :{p} before the restart: {:?}", old.stats());
            lifetimes.push((p, old.stop()));
            *s = Some(Demo::start(p, &args));
            restarts += 1;
        }
    }
    while made.total() < MIN_CALLS && !tasks.iter().any(|t| t.is_finished()) {
        std::thread::sleep(Duration::from_millis(5));
    }
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        if let Err(e) = rt.block_on(t) {
            std::panic::resume_unwind(e.into_panic());
        }
    }
    for s in servers.iter_mut() {
        let old = s.take().expect("server");
        let p = old.port;
        lifetimes.push((p, old.stop()));
    }
    let (refused, closed) = nginx.upstream_errors();
    drop(nginx);

    let stats = client.type_map_stats();
    let sum = |k: &str| lifetimes.iter().map(|(_, m)| get(m, k)).sum::<u64>();
    let total = made.total();
    println!(
        "{total} calls ({} exchange, {} getItems, {} replyObject_16) through nginx to 3 servers, {restarts} restarts, \
         {:.1} s",
        made.exchange.load(Ordering::Relaxed),
        made.get_items.load(Ordering::Relaxed),
        made.test2.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    println!("client: {stats:?}");
    println!(
        "nginx passed to the next server: {refused} requests refused by a stopped server, {closed} requests on \
         upstream connections a draining server closed"
    );
    for (p, m) in &lifetimes {
        let mut kv: Vec<_> = m.iter().collect();
        kv.sort();
        println!("server :{p} lifetime: {kv:?}");
    }
    println!(
        "executions {} for {total} calls (duplicates {}), resends {}, UnknownTypeMap answers {}, evictions {}",
        sum("executions"),
        sum("executions") as i64 - total as i64,
        stats.resends,
        sum("unknown_type_map"),
        sum("evictions")
    );

    assert_eq!(restarts, ROUNDS * 3, "every server restarted {ROUNDS} times");
    assert!(total >= MIN_CALLS, "{total} calls");
    assert_eq!(sum("exchange"), made.exchange.load(Ordering::Relaxed), "exchange ran exactly once per call");
    assert_eq!(sum("get_items"), made.get_items.load(Ordering::Relaxed), "getItems ran exactly once per call");
    assert_eq!(sum("test2"), made.test2.load(Ordering::Relaxed), "replyObject_16 ran exactly once per call");
    assert_eq!(sum("executions"), total, "every call ran exactly once");
    assert_eq!(stats.calls, total, "the client counted every call once");
    // Each UnknownTypeMap answer ran nothing and cost one plain resend.
    assert_eq!(stats.unknown_type_map, sum("unknown_type_map"), "{stats:?}");
    assert_eq!(stats.resends, stats.unknown_type_map + stats.fallbacks, "{stats:?}");
    assert_eq!(stats.fallbacks, 0, "every server speaks the extension: {stats:?}");
    assert!(stats.resends > 0, "restarted servers and the tiny cache must have cost resends: {stats:?}");
    assert!(stats.referring_calls > total / 2, "most calls referred to a map: {stats:?}");
    let tiny_evictions: u64 = lifetimes.iter().filter(|(p, _)| *p == ports[1]).map(|(_, m)| get(m, "evictions")).sum();
    assert!(tiny_evictions > 0, "the two-map server evicted maps");
    assert!(started.elapsed() < Duration::from_secs(120), "took {:?}", started.elapsed());
}
