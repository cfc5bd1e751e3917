//! Where a W2 round trip's time goes, plain Hessian 2 against Hessian 2.1
//! (`negotiation_probe N`, default 200,000 rounds of codec work, N/20 round trips):
//!
//! 1. the Rust client's codec work without HTTP: writing the `exchange(Order)` request and
//!    reading the reply, in each form;
//! 2. the Rust server's whole answer (an in-process demo server), driven by a raw blocking
//!    socket that sends pre-encoded requests (a plain call, and a referring call with the
//!    negotiation headers) and reads the replies without decoding them, the two kinds
//!    alternating so that load drift affects both alike.
use hessian::negotiate::TypeMap;
use hessian::serde::message::{
    reply_from_slice, reply_from_slice_negotiated, reply_to_vec, reply_to_vec_referring, CallWriter,
};
use hessian::{Format, Limits};
use hessian_testkit::structs::w2;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

fn time(what: &str, n: usize, mut f: impl FnMut() -> usize) {
    for _ in 0..n / 10 {
        black_box(f());
    }
    let t = Instant::now();
    let mut bytes = 0;
    for _ in 0..n {
        bytes += f();
    }
    let ns = t.elapsed().as_nanos() as f64 / n as f64;
    println!("| {what} | {ns:.0} | {} |", bytes / n.max(1));
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let request = w2::request();
    let reply = w2::reply();

    // the maps, as a negotiating client learns them from the first exchange
    let mut w = CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1)?;
    w.arg(&request)?;
    let (_, classes) = w.finish_with_classes()?;
    let request_map = TypeMap::new(classes)?;
    let plain_reply = reply_to_vec(Format::Hessian2, &reply)?;
    let lookup_none = |_: &hessian::negotiate::Digest| None;
    let first =
        reply_from_slice_negotiated::<w2::Order, _>(Format::Hessian2, &plain_reply, Limits::default(), lookup_none)?;
    let reply_map = Arc::new(TypeMap::new(first.classes)?);
    let referring_reply = reply_to_vec_referring(Format::Hessian2, &reply_map, &reply)?;

    println!("| W2 client work ({n} rounds) | ns per call | bytes |");
    println!("|---|---:|---:|");
    time("write request, plain (`finish`)", n, || {
        let mut w = CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1).expect("writer");
        w.arg(&request).expect("arg");
        w.finish().expect("finish").len()
    });
    time("write request, plain with classes (`finish_with_classes`)", n, || {
        let mut w = CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1).expect("writer");
        w.arg(&request).expect("arg");
        w.finish_with_classes().expect("finish").0.len()
    });
    time("write request, referring", n, || {
        let mut w = CallWriter::referring(Format::Hessian2, &request_map, "exchange", 1, Vec::new()).expect("writer");
        w.arg(&request).expect("arg");
        w.finish_with_classes().expect("finish").0.len()
    });
    time("read reply, plain (`reply_from_slice`)", n, || {
        let r = reply_from_slice::<w2::Order>(Format::Hessian2, &plain_reply, Limits::default()).expect("reply");
        black_box(r).is_ok() as usize * plain_reply.len()
    });
    time("read reply, plain (`reply_from_slice_negotiated`)", n, || {
        let r =
            reply_from_slice_negotiated::<w2::Order, _>(Format::Hessian2, &plain_reply, Limits::default(), lookup_none)
                .expect("reply");
        black_box(r).reply.is_ok() as usize * plain_reply.len()
    });
    time("read reply, referring", n, || {
        let lookup = |_: &hessian::negotiate::Digest| Some(reply_map.clone());
        let r =
            reply_from_slice_negotiated::<w2::Order, _>(Format::Hessian2, &referring_reply, Limits::default(), lookup)
                .expect("reply");
        black_box(r).reply.is_ok() as usize * referring_reply.len()
    });
    time("reply map's hex digest (the `Hessian-Reply-Map` header)", n, || reply_map.hex().len());

    // 2. the server, from raw sockets
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let server = rt.block_on(hessian_demo::demo_server().bind("127.0.0.1:0"))?;
    let addr = server.local_addr();
    let mut w = CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1)?;
    w.arg(&request)?;
    let plain_call = w.finish()?;
    let mut w = CallWriter::referring(Format::Hessian2, &request_map, "exchange", 1, Vec::new())?;
    w.arg(&request)?;
    let referring_call = w.finish_with_classes()?.0;
    let http = |body: &[u8], headers: &str| {
        let mut r = format!(
            "POST /bench HTTP/1.1\r\nHost: {addr}\r\nContent-Type: x-application/hessian\r\n{headers}Content-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        r.extend_from_slice(body);
        r
    };
    let reply_map_header = format!("Hessian-Reply-Map: {}\r\n", reply_map.hex());
    let offer = "Hessian-Type-Maps: 1\r\n";
    let teach = http(&plain_call, offer);
    let plain = http(&plain_call, "");
    let referring = http(&referring_call, &format!("{offer}{reply_map_header}"));
    let mut s = std::net::TcpStream::connect(addr)?;
    s.set_nodelay(true)?;
    let mut exchange = |req: &[u8]| -> Result<(std::time::Duration, usize), Box<dyn std::error::Error>> {
        use std::io::{Read, Write};
        let t0 = Instant::now();
        s.write_all(req)?;
        let mut buf = Vec::with_capacity(1024);
        let mut chunk = [0u8; 4096];
        loop {
            let k = s.read(&mut chunk)?;
            if k == 0 {
                return Err("connection closed".into());
            }
            buf.extend_from_slice(&chunk[..k]);
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                let len: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .ok_or("no content-length")?;
                if buf.len() >= end + 4 + len {
                    return Ok((t0.elapsed(), len));
                }
            }
        }
    };
    exchange(&teach)?; // the server learns the request map and its reply map
    let rounds = (n / 20).max(100);
    let (mut tp, mut tr) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    let (mut bp, mut br) = (0, 0);
    for i in 0..rounds + rounds / 10 {
        let (a, la) = exchange(&plain)?;
        let (b, lb) = exchange(&referring)?;
        if i >= rounds / 10 {
            tp.push(a);
            tr.push(b);
            (bp, br) = (la, lb);
        }
    }
    tp.sort();
    tr.sort();
    let med = |t: &[std::time::Duration]| t[t.len() / 2].as_secs_f64() * 1e6;
    let min = |t: &[std::time::Duration]| t[0].as_secs_f64() * 1e6;
    println!();
    println!("| server round trip from a raw socket ({rounds} rounds, alternating) | median µs | min µs | request body B | reply body B |");
    println!("|---|---:|---:|---:|---:|");
    println!("| plain Hessian 2 call, no offer | {:.1} | {:.1} | {} | {bp} |", med(&tp), min(&tp), plain_call.len());
    println!(
        "| referring call with `Hessian-Type-Maps` and `Hessian-Reply-Map` | {:.1} | {:.1} | {} | {br} |",
        med(&tr),
        min(&tr),
        referring_call.len()
    );
    rt.block_on(server.shutdown());
    Ok(())
}
