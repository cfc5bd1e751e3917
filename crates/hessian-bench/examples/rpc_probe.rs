//! Latency probe of the RPC round trip, Rust client -> Rust server over loopback, Hessian 2.
//!
//! `rpc_probe [N] [all|w1|w2|codec]`: the demo server (`hessian_demo::bench_service()`) runs
//! in a child process (this same binary, `rpc_probe serve`), so client and server never share a
//! runtime or a thread. The parent then times N calls of each workload, after N/10 warm-up
//! calls, from
//! - the async [`Client`], called from a task spawned on a multi-thread runtime,
//! - the async [`Client`], called from `block_on` of a current-thread runtime,
//! - [`BlockingClient`],
//!
//! and prints median and p99 in µs. W2 is `exchange(Order)` with the W2 request graph; W1 is
//! `getItems(5000)`, printed next to the codec's own encode + decode time of that reply (`codec`
//! prints just that, with the W2 codec work); W0 is `getItems(0)`, the transport's floor. Defaults:
//! N = 2000. For profiles (`perf stat`, callgrind), `w1`/`w2` run one
//! workload only, and `RPC_PROBE_ONLY=raw|typed` one client kind only (the raw tokio socket, or
//! the typed client on a current-thread runtime): `perf stat --no-inherit` then counts that
//! client's own work, without the server child's. `RPC_PROBE_ONLY=pair` runs the two of them
//! interleaved call by call and prints the typed client's median over the raw socket's, with
//! its spread over 5 blocks of rounds.
use hessian::Value;
use hessian_rpc::{protocol, BlockingClient, Client, Dialect, Format, HessianServer};
use hessian_testkit::workloads::{items, W2Classes};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Prints median, p99 and mean; returns the median in µs.
fn summary(label: &str, mut t: Vec<Duration>) -> f64 {
    t.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let p99 = t[((t.len() as f64 * 0.99).ceil() as usize).clamp(1, t.len()) - 1];
    let mean = t.iter().map(|d| us(*d)).sum::<f64>() / t.len() as f64;
    println!(
        "{label:<44} median {:>8.1} µs  p99 {:>8.1} µs  mean {:>8.1} µs  (n={})",
        us(t[t.len() / 2]),
        us(p99),
        mean,
        t.len()
    );
    us(t[t.len() / 2])
}

/// The child: serves the demo service on loopback, prints `PORT n`, exits when stdin closes.
/// `RPC_PROBE_SERVER=current` runs it on a current-thread runtime instead of the default
/// multi-thread one (to tell the server runtime's own wake-ups apart), `RPC_PROBE_SERVER=workers`
/// on [`HessianServer::spawn_workers`] (a single-threaded runtime per core).
fn serve() {
    let service = || HessianServer::builder().mount("/bench", hessian_demo::bench_service()).build();
    if std::env::var("RPC_PROBE_SERVER").as_deref() == Ok("workers") {
        let addr = "127.0.0.1:0".parse().expect("address");
        let server = service().spawn_workers(addr, 0).expect("bind");
        println!("PORT {}", server.local_addr().port());
        std::io::stdout().flush().expect("flush");
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
        server.shutdown();
        return;
    }
    let rt = if std::env::var("RPC_PROBE_SERVER").as_deref() == Ok("current") {
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
    } else {
        tokio::runtime::Runtime::new().expect("runtime")
    };
    let server = rt.block_on(service().bind("127.0.0.1:0")).expect("bind");
    println!("PORT {}", server.local_addr().port());
    std::io::stdout().flush().expect("flush");
    // wait for stdin to close while the runtime runs (a current-thread one only runs in block_on)
    rt.block_on(async {
        let _ = tokio::task::spawn_blocking(|| std::io::stdin().read_to_end(&mut Vec::new())).await;
    });
    rt.block_on(server.shutdown());
}

#[derive(Clone, Copy, PartialEq)]
enum Work {
    /// `getItems(0)`: an empty list, the transport's own floor.
    W0,
    W1,
    W2,
}

fn workload(w: Work) -> (&'static str, Value) {
    match w {
        Work::W0 => ("getItems", Value::Int(0)),
        Work::W1 => ("getItems", Value::Int(5000)),
        Work::W2 => ("exchange", W2Classes::default().request()),
    }
}

async fn time_async(proxy: &hessian_rpc::Proxy, w: Work, n: usize) -> Vec<Duration> {
    let (method, arg) = workload(w);
    for _ in 0..(n / 10).max(1) {
        std::hint::black_box(proxy.call(method, vec![arg.clone()]).await.expect("warm-up"));
    }
    let mut t = Vec::with_capacity(n);
    for _ in 0..n {
        let args = vec![arg.clone()];
        let t0 = Instant::now();
        let v = proxy.call(method, args).await.expect("call");
        t.push(t0.elapsed());
        std::hint::black_box(v);
    }
    t
}

/// The same calls through the typed client `#[service]` derives (`hessian_demo::BenchClient`): the
/// request written straight from the structs, the reply decoded straight into them.
async fn time_typed(proxy: &hessian_rpc::Proxy, w: Work, n: usize) -> Vec<Duration> {
    use hessian_testkit::structs::w2;
    let bench = hessian_demo::BenchClient::new(proxy.clone());
    let request = w2::request();
    let once = |bench: &hessian_demo::BenchClient| {
        let bench = bench.clone();
        let request = request.clone();
        async move {
            match w {
                Work::W0 => bench.get_items(0).await.map(|v| v.len()),
                Work::W1 => bench.get_items(5000).await.map(|v| v.len()),
                Work::W2 => bench.exchange(request).await.map(|o| o.lines.len()),
            }
        }
    };
    for _ in 0..(n / 10).max(1) {
        std::hint::black_box(once(&bench).await.expect("warm-up"));
    }
    let mut t = Vec::with_capacity(n);
    for _ in 0..n {
        let call = once(&bench);
        let t0 = Instant::now();
        let v = call.await.expect("call");
        t.push(t0.elapsed());
        std::hint::black_box(v);
    }
    t
}

fn time_blocking(proxy: &hessian_rpc::BlockingProxy, w: Work, n: usize) -> Vec<Duration> {
    let (method, arg) = workload(w);
    for _ in 0..(n / 10).max(1) {
        std::hint::black_box(proxy.call(method, vec![arg.clone()]).expect("warm-up"));
    }
    let mut t = Vec::with_capacity(n);
    for _ in 0..n {
        let args = vec![arg.clone()];
        let t0 = Instant::now();
        let v = proxy.call(method, args).expect("call");
        t.push(t0.elapsed());
        std::hint::black_box(v);
    }
    t
}

/// The codec alone on the W1 5000 reply: encode (the server's part) + decode (the client's).
/// Returns the median of encode + decode, in µs.
fn codec(n: usize) -> f64 {
    let reply = Ok(items(5000));
    let bytes = protocol::encode_reply(Format::Hessian2, &reply).expect("encode");
    let limits = hessian_rpc::ClientConfig::default().limits;
    let (mut enc, mut dec, mut both) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let t0 = Instant::now();
        let b = protocol::encode_reply(Format::Hessian2, &reply).expect("encode");
        let t1 = Instant::now();
        let v = protocol::decode_reply(Format::Hessian2, &b, limits).expect("decode");
        let t2 = Instant::now();
        drop(std::hint::black_box(v));
        enc.push(t1 - t0);
        dec.push(t2 - t1);
        both.push(t2 - t0);
    }
    println!("W1 getItems(5000) reply: {} bytes", bytes.len());
    summary("codec W1 5000 encode", enc);
    summary("codec W1 5000 decode", dec);
    let median = summary("codec W1 5000 encode + decode", both);
    let mut build = Vec::new();
    for _ in 0..n {
        let t0 = Instant::now();
        let v = items(5000);
        build.push(t0.elapsed());
        drop(std::hint::black_box(v));
    }
    summary("server building the W1 5000 list", build);
    // W2: both messages, both ways, as the round trip does them
    let w2 = W2Classes::default();
    let (request, reply) = (w2.request(), Ok(w2.reply()));
    let call = hessian::Call::new("exchange", vec![request.clone()]);
    let mut t = Vec::new();
    for _ in 0..n * 10 {
        let t0 = Instant::now();
        let c = protocol::encode_call(Dialect::HESSIAN2, &call).expect("encode");
        let d = protocol::decode_call(Dialect::HESSIAN2, &c, limits).expect("decode");
        let ok = hessian_demo::same_graph(&d.args[0], &request);
        let r = protocol::encode_reply(Format::Hessian2, &reply).expect("encode");
        let v = protocol::decode_reply(Format::Hessian2, &r, limits).expect("decode");
        t.push(t0.elapsed());
        assert!(ok);
        drop(std::hint::black_box(v));
    }
    summary("codec W2 call+reply encode+decode, compare", t);
    median
}

/// The pre-encoded HTTP request of workload `w` to the demo server on `port`, head and body.
fn raw_request(port: u16, w: Work) -> Vec<u8> {
    let (method, arg) = workload(w);
    let body = protocol::encode_call(Dialect::HESSIAN2, &hessian::Call::new(method, vec![arg])).expect("encode");
    let mut req = format!(
        "POST /bench HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: x-application/hessian\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(&body);
    req
}

/// Once `got` holds a response's whole head: the length of head and body (by `Content-Length`).
fn response_len(got: &[u8]) -> Option<usize> {
    let end = got.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&got[..end]).to_ascii_lowercase();
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().parse().expect("length")))
        .expect("content-length");
    Some(end + 4 + len)
}

/// The floor of any client: the same request over a blocking `std::net` socket, no codec (the
/// reply is read by its `Content-Length`, not decoded).
fn time_raw(port: u16, w: Work, n: usize) -> Vec<Duration> {
    let req = raw_request(port, w);
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_nodelay(true).expect("nodelay");
    let mut buf = vec![0u8; 4 << 20];
    let mut one = || {
        s.write_all(&req).expect("write");
        let mut got = 0;
        loop {
            let k = s.read(&mut buf[got..]).expect("read");
            assert!(k > 0, "closed");
            got += k;
            let Some(total) = response_len(&buf[..got]) else { continue };
            while got < total {
                let k = s.read(&mut buf[got..]).expect("read");
                assert!(k > 0, "closed");
                got += k;
            }
            return;
        }
    };
    for _ in 0..(n / 10).max(1) {
        one();
    }
    let mut t = Vec::with_capacity(n);
    for _ in 0..n {
        let t0 = Instant::now();
        one();
        t.push(t0.elapsed());
    }
    t
}

/// One raw exchange on a tokio socket: writes `req` (a whole HTTP request) and reads the
/// response's head and `Content-Length` bytes into `buf`, undecoded.
async fn raw_exchange(s: &mut tokio::net::TcpStream, req: &[u8], buf: &mut [u8]) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    s.write_all(req).await.expect("write");
    let mut got = 0;
    loop {
        let k = s.read(&mut buf[got..]).await.expect("read");
        assert!(k > 0, "closed");
        got += k;
        let Some(total) = response_len(&buf[..got]) else { continue };
        while got < total {
            let k = s.read(&mut buf[got..]).await.expect("read");
            assert!(k > 0, "closed");
            got += k;
        }
        return;
    }
}

/// The same raw exchange over a tokio `TcpStream` on a current-thread runtime: what the async
/// machinery (epoll wait instead of a blocking read) adds, without the client.
fn time_raw_tokio(port: u16, w: Work, n: usize) -> Vec<Duration> {
    let req = raw_request(port, w);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.expect("connect");
        s.set_nodelay(true).expect("nodelay");
        let mut buf = vec![0u8; 4 << 20];
        let mut t = Vec::with_capacity(n);
        for i in 0..n + (n / 10).max(1) {
            let t0 = Instant::now();
            raw_exchange(&mut s, &req, &mut buf).await;
            if i >= (n / 10).max(1) {
                t.push(t0.elapsed());
            }
        }
        t
    })
}

/// The typed client against the raw tokio socket, call by call on one current-thread runtime
/// (which one goes first alternating each round), so that the machine's load falls on both
/// alike: prints each one's median, the ratio of the medians with its min–max over 5 blocks of
/// rounds, and the median of the per-round ratios (issue 28 item 4: typed ≤ 1.1 × raw).
fn pair(port: u16, url: &str, w: Work, n: usize) {
    use hessian_testkit::structs::w2;
    let req = raw_request(port, w);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let (raw, typed) = rt.block_on(async {
        let proxy = Client::builder().dialect(Dialect::HESSIAN2).build().proxy(url).expect("url");
        let bench = hessian_demo::BenchClient::new(proxy);
        let request = w2::request();
        let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.expect("connect");
        s.set_nodelay(true).expect("nodelay");
        let mut buf = vec![0u8; 4 << 20];
        let warm = (n / 10).max(1);
        let (mut raw, mut typed) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for round in 0..n + warm {
            for k in 0..2 {
                // the argument the caller hands over is made before the clock starts: building
                // it is the caller's work, not the client's
                let arg = (w == Work::W2 && (k + round) % 2 == 1).then(|| request.clone());
                let t0 = Instant::now();
                if (k + round) % 2 == 0 {
                    raw_exchange(&mut s, &req, &mut buf).await;
                    if round >= warm {
                        raw.push(t0.elapsed());
                    }
                } else {
                    let v = match w {
                        Work::W0 => bench.get_items(0).await.map(|v| v.len()),
                        Work::W1 => bench.get_items(5000).await.map(|v| v.len()),
                        Work::W2 => bench.exchange(arg.expect("argument")).await.map(|o| o.lines.len()),
                    };
                    std::hint::black_box(v.expect("call"));
                    if round >= warm {
                        typed.push(t0.elapsed());
                    }
                }
            }
        }
        (raw, typed)
    });
    let median = |t: &[Duration]| {
        let mut t = t.to_vec();
        t.sort();
        t[t.len() / 2].as_secs_f64() * 1e6
    };
    let ratio = median(&typed) / median(&raw);
    let blocks: Vec<f64> = (0..5)
        .map(|b| {
            let (from, to) = (b * n / 5, (b + 1) * n / 5);
            median(&typed[from..to]) / median(&raw[from..to])
        })
        .collect();
    let mut rounds: Vec<f64> =
        typed.iter().zip(&raw).map(|(t, r)| t.as_secs_f64() / r.as_secs_f64().max(1e-9)).collect();
    rounds.sort_by(f64::total_cmp);
    let (lo, hi) = blocks.iter().fold((f64::MAX, f64::MIN), |(lo, hi), b| (lo.min(*b), hi.max(*b)));
    println!(
        "pair, {n} rounds: raw tokio socket median {:.1} µs, typed client median {:.1} µs; typed ÷ raw {ratio:.3} \
         (5 blocks {lo:.3}–{hi:.3}), per-round ratio median {:.3}",
        median(&raw),
        median(&typed),
        rounds[rounds.len() / 2]
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("serve") {
        return serve();
    }
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let what = args.get(2).map(String::as_str).unwrap_or("all");
    let works: &[Work] = match what {
        "w1" => &[Work::W1],
        "w2" => &[Work::W2],
        "w0" => &[Work::W0],
        "codec" => &[],
        _ => &[Work::W0, Work::W2, Work::W1],
    };
    let codec_us = (what == "all" || what == "codec").then(|| codec(n.min(1000)));
    if works.is_empty() {
        return;
    }
    let mut child = Command::new(std::env::current_exe().expect("current exe"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn the server process");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("PORT line");
    let port: u16 = line.trim().trim_start_matches("PORT ").parse().expect("port");
    let url = format!("http://127.0.0.1:{port}/bench");

    for &w in works {
        // the W1 list is a megabyte each way: a quarter of the calls
        let n = if w == Work::W1 { (n / 4).max(1) } else { n };
        let name = match w {
            Work::W0 => "W0 getItems(0)",
            Work::W1 => "W1 getItems(5000)",
            Work::W2 => "W2 exchange",
        };
        let only = std::env::var("RPC_PROBE_ONLY").ok();
        if only.as_deref() == Some("pair") {
            print!("{name}: ");
            pair(port, &url, w, n);
            continue;
        }
        if let Some(only) = only.as_deref() {
            // one client kind alone, for `perf stat` and `strace -c` of that kind
            let t = match only {
                "raw" => time_raw_tokio(port, w, n),
                _ => {
                    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
                    rt.block_on(async {
                        let proxy = Client::builder().dialect(Dialect::HESSIAN2).build().proxy(&url).expect("url");
                        time_typed(&proxy, w, n).await
                    })
                }
            };
            summary(&format!("{name} {only}"), t);
            continue;
        }
        summary(&format!("{name} raw std::net socket, no codec"), time_raw(port, w, n));
        summary(&format!("{name} raw tokio socket, no codec"), time_raw_tokio(port, w, n));
        // async, from a task of a multi-thread runtime (the usual setting)
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let t = rt.block_on(async {
            let url = url.clone();
            tokio::spawn(async move {
                let proxy = Client::builder().dialect(Dialect::HESSIAN2).build().proxy(&url).expect("url");
                time_async(&proxy, w, n).await
            })
            .await
            .expect("task")
        });
        summary(&format!("{name} async, multi-thread task"), t);
        drop(rt);
        // async, from block_on of a current-thread runtime
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let t = rt.block_on(async {
            let proxy = Client::builder().dialect(Dialect::HESSIAN2).build().proxy(&url).expect("url");
            time_async(&proxy, w, n).await
        });
        summary(&format!("{name} async, current-thread"), t);
        // the typed client, from the same current-thread runtime
        let t = rt.block_on(async {
            let proxy = Client::builder().dialect(Dialect::HESSIAN2).build().proxy(&url).expect("url");
            time_typed(&proxy, w, n).await
        });
        summary(&format!("{name} typed client, current-thread"), t);
        drop(rt);
        // blocking
        let client = BlockingClient::with_builder(Client::builder().dialect(Dialect::HESSIAN2));
        let proxy = client.proxy(&url).expect("url");
        let blocking = summary(&format!("{name} BlockingClient"), time_blocking(&proxy, w, n));
        if let (Work::W1, Some(c)) = (w, codec_us) {
            println!("W1 5000 round trip / codec encode + decode: {:.2} (BlockingClient medians)", blocking / c);
        }
    }
    drop(child.stdin.take());
    let _ = child.wait();
}
