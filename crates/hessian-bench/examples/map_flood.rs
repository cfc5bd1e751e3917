//! A flood of junk type maps against one victim (`docs/negotiation.md` 7): `hessian serve-demo`
//! in a child process with its default type-map cache (4 MiB, per-client scopes); one flooding
//! client sends plain `echo(Object)` calls that offer the extension, each with an object of a
//! class never seen before (so each teaches the server a new map, used once), as fast as one
//! keep-alive connection goes; a victim client makes W2 `exchange` calls with type negotiation
//! on, from the same address (the same scope: only the cache's admission protects it). Prints
//! the victim's resend rate and the server's RSS as the flood goes on.
//!
//! ```sh
//! cargo build --release -p hessian-cli --bin hessian -p hessian-bench --example map_flood
//! target/release/examples/map_flood 1000000          # junk maps (default 1,000,000)
//! target/release/examples/map_flood 1000000 50       # the victim pauses 50 ms between calls
//! target/release/examples/map_flood 1000000 50 PATH  # another `hessian` binary as the server
//! ```
//!
//! A victim that calls between every few junk maps stays in any recency-ordered cache; one that
//! calls rarely (a pause of 50 ms is some 2,000 junk maps at full speed) is where admission
//! matters.
use hessian::serde::message::CallWriter;
use hessian::{ClassDef, Format, Value};
use hessian_demo::BenchClient;
use hessian_rpc::Client;
use hessian_testkit::structs::w2;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The server's resident set, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// A plain `echo` call whose argument is an object of the class `junk.J<i>`.
fn junk_request(i: u64) -> Vec<u8> {
    let class = ClassDef::new(format!("junk.J{i}"), ["a"]);
    let mut w = CallWriter::new(Format::Hessian2, 2, "echo", &[], 1).expect("call");
    w.arg(&Value::object(class, vec![Value::Int(1)])).expect("arg");
    let body = w.finish().expect("finish");
    let mut req = format!(
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: x-application/hessian\r\nHessian-Type-Maps: 1\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(&body);
    req
}

/// Reads one HTTP response with a Content-Length; returns its status.
fn read_response(r: &mut BufReader<TcpStream>) -> u16 {
    let mut line = String::new();
    r.read_line(&mut line).expect("status line");
    let status = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut len = 0;
    loop {
        line.clear();
        r.read_line(&mut line).expect("header");
        if line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).expect("body");
    status
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let junk: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let pause = std::time::Duration::from_millis(args.next().and_then(|s| s.parse().ok()).unwrap_or(0));
    let hessian = match args.next() {
        Some(path) => std::path::PathBuf::from(path),
        None => {
            let exe = std::env::current_exe()?;
            exe.parent().and_then(|p| p.parent()).map(|p| p.join("hessian")).ok_or("no hessian binary")?
        }
    };
    let mut server = Command::new(&hessian)
        .args(["serve-demo", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let mut first = String::new();
    BufReader::new(server.stdout.take().ok_or("stdout")?).read_line(&mut first)?;
    let port: u16 = first
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| format!("no port in {first:?}"))?;
    let pid = server.id();

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let client = Client::new();
    let bench = BenchClient::new(client.proxy(&format!("http://127.0.0.1:{port}/bench"))?);
    let (request, reply) = (w2::request(), w2::reply());
    // the victim's map is established and in use before the flood
    for _ in 0..100 {
        assert_eq!(*rt.block_on(bench.exchange(request.clone()))?, reply);
    }
    let rss0 = rss_kib(pid);
    let before = client.type_map_stats();

    let done = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicU64::new(0));
    let flooder = {
        let (done, sent) = (done.clone(), sent.clone());
        std::thread::spawn(move || {
            let conn = TcpStream::connect(("127.0.0.1", port)).expect("connect");
            conn.set_nodelay(true).expect("nodelay");
            let mut w = conn.try_clone().expect("clone");
            let mut r = BufReader::new(conn);
            for i in 0..junk {
                w.write_all(&junk_request(i)).expect("send junk");
                assert_eq!(read_response(&mut r), 200, "junk call {i}");
                sent.store(i + 1, Ordering::Relaxed);
            }
            done.store(true, Ordering::Relaxed);
        })
    };
    let t0 = Instant::now();
    let (mut victim_calls, mut max_rss, mut next_report) = (0u64, rss0, 0u64);
    println!("| junk maps sent | victim calls | victim resends | server RSS (MiB) |");
    println!("|---:|---:|---:|---:|");
    while !done.load(Ordering::Relaxed) {
        assert_eq!(*rt.block_on(bench.exchange(request.clone()))?, reply);
        victim_calls += 1;
        if !pause.is_zero() {
            std::thread::sleep(pause);
        }
        let n = sent.load(Ordering::Relaxed);
        if n >= next_report {
            let rss = rss_kib(pid);
            max_rss = max_rss.max(rss);
            let s = client.type_map_stats();
            println!("| {n} | {victim_calls} | {} | {:.1} |", s.resends - before.resends, rss as f64 / 1024.0);
            next_report += junk / 10;
        }
    }
    flooder.join().map_err(|_| "flooder panicked")?;
    let s = client.type_map_stats();
    let resends = s.resends - before.resends;
    let referring = s.referring_calls - before.referring_calls;
    let secs = t0.elapsed().as_secs_f64();
    let mut stats = String::new();
    TcpStream::connect(("127.0.0.1", port))
        .and_then(|mut c| {
            c.write_all(b"GET /stats HTTP/1.0\r\nHost: x\r\n\r\n")?;
            c.read_to_string(&mut stats)
        })
        .ok();
    println!(
        "\n{junk} junk maps in {secs:.1} s ({:.0}/s); victim: {victim_calls} calls, {referring} referring, {resends} \
         resends ({:.3} %); server RSS {:.1} MiB before the flood, at most {:.1} MiB during it (+{:.1} MiB)",
        junk as f64 / secs,
        100.0 * resends as f64 / victim_calls.max(1) as f64,
        rss0 as f64 / 1024.0,
        max_rss as f64 / 1024.0,
        (max_rss - rss0) as f64 / 1024.0
    );
    println!("server: {}", stats.split("\r\n\r\n").nth(1).unwrap_or("").trim());
    let _ = server.kill();
    let _ = server.wait();
    Ok(())
}
