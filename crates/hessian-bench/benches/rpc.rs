//! RPC round-trip benchmark over loopback (not a timed test): W1 `getItems(n)` for every size
//! and W2 `exchange(Order)`, for each client/server pair that can run here:
//! Rust client (the typed client `#[service]` derives, and the dynamic `Value` client) -> Rust
//! server in every dialect, typed Rust client -> Java server, Java client -> Rust server, Java
//! client -> Java server.
//!
//! Run: `cargo bench -p hessian-bench --bench rpc` (W2: 1,000 warm-up + 5,000 measured calls;
//! `RPC_BENCH_FULL=1` for the 50,000 of the specification). Java rows are skipped when Java or
//! the reference jar is missing.

use hessian::Value;
use hessian_rpc::{protocol, Call, Client, Dialect, HessianServer};
use hessian_testkit::workloads::{items, W2Classes, W1_SIZES};
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

struct Stats {
    mean: f64,
    median: f64,
    p99: f64,
}

fn stats(mut t: Vec<Duration>) -> Stats {
    t.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mean = t.iter().map(|d| us(*d)).sum::<f64>() / t.len() as f64;
    let p99 = t[((t.len() as f64 * 0.99).ceil() as usize).clamp(1, t.len()) - 1];
    Stats { mean, median: us(t[t.len() / 2]), p99: us(p99) }
}

/// Request and reply sizes of one call in a dialect, as this implementation encodes them.
fn sizes(dialect: Dialect, method: &str, arg: Value, reply: &Value) -> (usize, usize) {
    let req = protocol::encode_call(dialect, &Call::new(method, vec![arg])).map(|b| b.len()).unwrap_or(0);
    let rep = protocol::encode_reply(dialect.reply, &Ok(reply.clone())).map(|b| b.len()).unwrap_or(0);
    (req, rep)
}

fn supported(dialect: Dialect) -> bool {
    protocol::encode_call(dialect, &Call::new("x", vec![])).is_ok()
}

async fn rust_client(label: &str, url: &str, dialect: Dialect, w2_calls: usize) {
    let proxy = Client::builder().dialect(dialect).build().proxy(&format!("{url}/bench")).expect("url");
    for n in W1_SIZES {
        let arg = Value::Int(n as i32);
        for _ in 0..10 {
            proxy.call("getItems", vec![arg.clone()]).await.expect("warm-up");
        }
        let mut t = Vec::with_capacity(100);
        for _ in 0..100 {
            let t0 = Instant::now();
            let v = proxy.call("getItems", vec![arg.clone()]).await.expect("getItems");
            t.push(t0.elapsed());
            std::hint::black_box(v);
        }
        let s = stats(t);
        let (req, rep) = sizes(dialect, "getItems", arg, &items(n));
        println!("| {label} | {dialect} | W1 n={n} | {:.1} | {:.1} | {:.1} | {req} | {rep} |", s.mean, s.median, s.p99);
    }
    let w2 = W2Classes::default();
    let request = w2.request();
    for _ in 0..w2_calls.min(1000) {
        proxy.call("exchange", vec![request.clone()]).await.expect("warm-up");
    }
    let mut t = Vec::with_capacity(w2_calls);
    for _ in 0..w2_calls {
        let t0 = Instant::now();
        let v = proxy.call("exchange", vec![request.clone()]).await.expect("exchange");
        t.push(t0.elapsed());
        std::hint::black_box(v);
    }
    let s = stats(t);
    let (req, rep) = sizes(dialect, "exchange", request, &w2.reply());
    println!(
        "| {label} | {dialect} | W2 x{w2_calls} | {:.1} | {:.1} | {:.1} | {req} | {rep} |",
        s.mean, s.median, s.p99
    );
}

/// The same calls with the typed client `#[service]` derives (`hessian_demo::BenchClient`):
/// arguments and replies straight between the structs and the wire.
async fn rust_typed_client(label: &str, url: &str, dialect: Dialect, w2_calls: usize) {
    use hessian_testkit::structs::w2;
    let proxy = Client::builder().dialect(dialect).build().proxy(&format!("{url}/bench")).expect("url");
    let bench = hessian_demo::BenchClient::new(proxy);
    for n in W1_SIZES {
        for _ in 0..10 {
            bench.get_items(n as i32).await.expect("warm-up");
        }
        let mut t = Vec::with_capacity(100);
        for _ in 0..100 {
            let t0 = Instant::now();
            let v = bench.get_items(n as i32).await.expect("getItems");
            t.push(t0.elapsed());
            assert_eq!(v.len(), n);
            std::hint::black_box(v);
        }
        let s = stats(t);
        let (req, rep) = sizes(dialect, "getItems", Value::Int(n as i32), &items(n));
        println!("| {label} | {dialect} | W1 n={n} | {:.1} | {:.1} | {:.1} | {req} | {rep} |", s.mean, s.median, s.p99);
    }
    let request = w2::request();
    for _ in 0..w2_calls.min(1000) {
        bench.exchange(request.clone()).await.expect("warm-up");
    }
    let mut t = Vec::with_capacity(w2_calls);
    for _ in 0..w2_calls {
        let order = request.clone();
        let t0 = Instant::now();
        let v = bench.exchange(order).await.expect("exchange");
        t.push(t0.elapsed());
        std::hint::black_box(v);
    }
    let s = stats(t);
    let w2v = W2Classes::default();
    let (req, rep) = sizes(dialect, "exchange", w2v.request(), &w2v.reply());
    println!(
        "| {label} | {dialect} | W2 x{w2_calls} | {:.1} | {:.1} | {:.1} | {req} | {rep} |",
        s.mean, s.median, s.p99
    );
}

fn java_client(java: &hessian_testkit::java::Java, label: &str, url: &str, mode: &str, w2_calls: usize) {
    let out = java.run("RpcJavaClient", &[&format!("{url}/bench"), mode, "timing", &w2_calls.to_string()], b"");
    for line in String::from_utf8_lossy(&out).lines() {
        let Some(rest) = line.strip_prefix("RESULT ") else { continue };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let val = |k: &str| f.iter().find_map(|x| x.strip_prefix(k)).unwrap_or("?").to_owned();
        let what = if f[0] == "W1" { format!("W1 {}", f[1]) } else { format!("W2 x{}", val("calls=")) };
        println!(
            "| {label} | Java {mode} | {what} | {} | {} | {} | | |",
            val("mean_us="),
            val("median_us="),
            val("p99_us=")
        );
    }
}

fn main() {
    let w2_calls = if std::env::var_os("RPC_BENCH_FULL").is_some() { 50_000 } else { 5_000 };
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let server = rt
        .block_on(HessianServer::builder().mount("/bench", hessian_demo::bench_service()).build().bind("127.0.0.1:0"))
        .expect("bind");
    let rust_url = format!("http://{}", server.local_addr());
    println!("| client -> server | protocol | workload | mean µs | median µs | p99 µs | request B | reply B |");
    println!("|---|---|---|---|---|---|---|---|");
    for dialect in [Dialect::HESSIAN2, Dialect::HESSIAN1, Dialect::HYBRID, Dialect::BURLAP] {
        if supported(dialect) {
            rt.block_on(rust_typed_client("Rust typed -> Rust", &rust_url, dialect, w2_calls));
            rt.block_on(rust_client("Rust Value -> Rust", &rust_url, dialect, w2_calls));
        }
    }
    let Some(java) = hessian_testkit::java::java() else {
        println!("(Java rows skipped: no Java)");
        return;
    };
    let mut child = java.spawn("RpcJavaServer", &["0"]);
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("PORT line");
    let port: u16 = line.trim().trim_start_matches("PORT ").parse().expect("port");
    let java_url = format!("http://127.0.0.1:{port}");
    for dialect in [Dialect::HESSIAN2, Dialect::HESSIAN1] {
        if supported(dialect) {
            rt.block_on(rust_typed_client("Rust typed -> Java", &java_url, dialect, w2_calls));
        }
    }
    for mode in ["h2", "hybrid"] {
        if mode == "h2" || supported(Dialect::HYBRID) {
            java_client(&java, "Java -> Rust", &rust_url, mode, w2_calls);
        }
        java_client(&java, "Java -> Java", &java_url, mode, w2_calls);
    }
    let _ = child.kill();
    let _ = child.wait();
    rt.block_on(server.shutdown());
}
