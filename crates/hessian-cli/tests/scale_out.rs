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

mod common;

use common::{free_port, get, nginx, start_nginx_with, Demo, Nginx};
use hessian_demo::BenchClient;
use hessian_rpc::{Client, Value};
use hessian_testkit::catalogue;
use hessian_testkit::structs::{self, w2};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Calls made at least, and restart rounds (each restarts the three servers one at a time).
const MIN_CALLS: u64 = 10_000;
const ROUNDS: usize = 3;
const TASKS: usize = 4;

fn start_nginx(bin: &Path, upstreams: &[u16]) -> (Nginx, u16) {
    let port = free_port();
    let servers: String = upstreams.iter().map(|p| format!("        server 127.0.0.1:{p} max_fails=0;\n")).collect();
    let http = format!(
        "    upstream demo {{
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
    }}"
    );
    (start_nginx_with(bin, "scale-out", &http, port), port)
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
