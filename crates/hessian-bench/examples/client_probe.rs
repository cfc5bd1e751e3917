//! Profiling probe of the Rust client's side of a W2 round trip (run under valgrind/perf):
//! `client_probe plain|ref N [HESSIAN]` starts `hessian serve-demo` (HESSIAN, default
//! `target/release/hessian`) in a child process, makes 100 warm-up calls of the typed
//! `exchange(Order)` and then N measured ones, with type maps off (`plain`, Hessian 2) or on
//! (`ref`, Hessian 2.1: every measured call refers to both maps). Only this process is
//! profiled; the server is another one, stopped with SIGTERM (so that HESSIAN may be a script
//! that runs `hessian` under valgrind, to profile the server's side instead). Prints the mean
//! round trip.
use hessian_demo::BenchClient;
use hessian_rpc::Client;
use hessian_testkit::structs::w2;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "ref".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let hessian = args.next().unwrap_or_else(|| "target/release/hessian".into());
    let mut child = Command::new(&hessian)
        .args(["serve-demo", "--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start serve-demo");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let addr = line.split("http://").nth(1).and_then(|s| s.split_whitespace().next()).expect("address").to_owned();
    if let Some(kinds) = mode.strip_prefix("pair:") {
        let kinds: Vec<bool> = kinds.split(',').map(|k| k == "ref").collect();
        pair(&addr, &kinds, n);
    } else {
        one(&addr, &mode, n);
    }
    // SIGTERM: serve-demo shuts down gracefully (and a profiler around it writes its output)
    let stopped = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().is_ok_and(|s| s.success());
    if !stopped {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// `pair:plain,ref` (any list of `plain` and `ref`): one client of each kind, their calls
/// interleaved (the order rotating each round); prints each one's median and mean.
fn pair(addr: &str, kinds: &[bool], n: usize) {
    let clients: Vec<Client> = kinds.iter().map(|&k| Client::builder().type_maps(k).build()).collect();
    let benches: Vec<BenchClient> =
        clients.iter().map(|c| BenchClient::new(c.proxy(&format!("http://{addr}/bench")).expect("proxy"))).collect();
    let (request, expected) = (w2::request(), w2::reply());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let mut times = vec![Vec::with_capacity(n); kinds.len()];
    rt.block_on(async {
        for round in 0..n + 500 {
            for k in 0..kinds.len() {
                let i = (k + round) % kinds.len();
                let t = Instant::now();
                assert_eq!(*benches[i].exchange(request.clone()).await.expect("call"), expected);
                if round >= 500 {
                    times[i].push(t.elapsed());
                }
            }
        }
    });
    for (i, t) in times.iter_mut().enumerate() {
        t.sort();
        let mean = t.iter().sum::<std::time::Duration>() / t.len().max(1) as u32;
        let kind = if kinds[i] { "ref" } else { "plain" };
        println!("client {i} ({kind}): median {:?} mean {mean:?}", t[t.len() / 2]);
    }
}

fn one(addr: &str, mode: &str, n: usize) {
    let client = Client::builder().type_maps(mode == "ref").build();
    let bench = BenchClient::new(client.proxy(&format!("http://{addr}/bench")).expect("proxy"));
    let (request, expected) = (w2::request(), w2::reply());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        for _ in 0..100 {
            assert_eq!(*bench.exchange(request.clone()).await.expect("call"), expected);
        }
        let t = Instant::now();
        for _ in 0..n {
            assert_eq!(*bench.exchange(request.clone()).await.expect("call"), expected);
        }
        eprintln!("{mode}: {:?} per call, {:?}", t.elapsed() / n.max(1) as u32, client.type_map_stats());
    });
}
