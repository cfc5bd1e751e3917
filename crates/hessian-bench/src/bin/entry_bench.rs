//! The fixed cost per message on the public serde entry points, interleaved: each round times a
//! batch of every (workload, entry point, library) cell in a rotating order, and a cell's
//! figure is the median over rounds; a ratio is the median over rounds of this crate's batch
//! divided by the peer's batch of the same round (so both saw the same machine), with the
//! spread (min–max of the middle 80 % of rounds).
//!
//! Workloads: W3 (one `Money`), the W2 request (`Order`), W1 (5000 `Item`s). Entry points:
//! `to_writer` into a `Vec` cleared before each message, `to_vec`, `from_slice`, `from_reader`
//! (over a byte slice); for this crate (Hessian 2, `hessian::to_writer` and friends, and the
//! same through a kept `hessian::Session`), rmp-serde with named fields (`encode::write_named`,
//! `to_vec_named`, `from_slice`, `from_read`) and bincode 1 (`serialize_into`, `serialize`,
//! `deserialize`, `deserialize_from`). The aims of issue 28 compare `to_writer` and
//! `from_slice`: W3 and W2 against rmp-serde named, W1 against bincode.
//!
//! ```sh
//! cargo build --release -p hessian-bench --bin entry_bench
//! target/release/entry_bench            # 60 rounds (about a minute)
//! target/release/entry_bench --rounds 200
//! target/release/entry_bench --tiny     # 3 short rounds: what the CI test runs
//! ```

use hessian_testkit::structs::{self, w2, Item, Money};
use serde::{de::DeserializeOwned, Serialize};
use std::hint::black_box;
use std::time::Instant;

/// One timed operation: runs `n` messages, returns a checksum.
type Op = Box<dyn FnMut(usize) -> usize>;

struct Cell {
    workload: &'static str,
    entry: &'static str,
    lib: &'static str,
    op: Op,
    /// Messages per batch.
    batch: usize,
    /// ns per message, one per round.
    times: Vec<f64>,
}

fn cells_of<T: Serialize + DeserializeOwned + 'static>(
    workload: &'static str,
    value: T,
    batch: usize,
    cells: &mut Vec<Cell>,
) {
    let value = std::rc::Rc::new(value);
    let h = hessian::to_vec(&*value).expect("hessian encode");
    let m = rmp_serde::to_vec_named(&*value).expect("rmp encode");
    let b = bincode::serialize(&*value).expect("bincode encode");
    let mut add = |entry: &'static str, lib: &'static str, op: Op| {
        cells.push(Cell { workload, entry, lib, op, batch, times: Vec::new() })
    };
    macro_rules! writer {
        ($f:expr) => {{
            let v = value.clone();
            let mut out: Vec<u8> = Vec::new();
            Box::new(move |n| {
                let mut sum = 0;
                for _ in 0..n {
                    out.clear();
                    $f(&mut out, black_box(&*v));
                    sum += black_box(&out).len();
                }
                sum
            })
        }};
    }
    macro_rules! to_vec {
        ($f:expr) => {{
            let v = value.clone();
            Box::new(move |n| (0..n).map(|_| black_box($f(black_box(&*v))).len()).sum())
        }};
    }
    macro_rules! decode {
        ($bytes:expr, $f:expr) => {{
            let bytes = $bytes.clone();
            Box::new(move |n| {
                (0..n)
                    .map(|_| {
                        let x: T = $f(black_box(&bytes[..]));
                        drop(black_box(x));
                        1
                    })
                    .sum()
            })
        }};
    }
    add("to_writer", "hessian", writer!(|o: &mut Vec<u8>, v: &T| hessian::to_writer(o, v).expect("to_writer")));
    let mut session = hessian::Session::new();
    let v = value.clone();
    let mut out: Vec<u8> = Vec::new();
    add(
        "to_writer",
        "hessian Session",
        Box::new(move |n| {
            let mut sum = 0;
            for _ in 0..n {
                out.clear();
                session.to_writer(&mut out, black_box(&*v)).expect("session to_writer");
                sum += black_box(&out).len();
            }
            sum
        }),
    );
    add(
        "to_writer",
        "rmp-serde named",
        writer!(|o: &mut Vec<u8>, v: &T| rmp_serde::encode::write_named(o, v).expect("write_named")),
    );
    add(
        "to_writer",
        "bincode",
        writer!(|o: &mut Vec<u8>, v: &T| bincode::serialize_into(o, v).expect("serialize_into")),
    );
    add("to_vec", "hessian", to_vec!(|v: &T| hessian::to_vec(v).expect("to_vec")));
    add("to_vec", "rmp-serde named", to_vec!(|v: &T| rmp_serde::to_vec_named(v).expect("to_vec_named")));
    add("to_vec", "bincode", to_vec!(|v: &T| bincode::serialize(v).expect("serialize")));
    add("from_slice", "hessian", decode!(h, |b: &[u8]| hessian::from_slice::<T>(b).expect("from_slice")));
    let mut session = hessian::Session::new();
    let hb = h.clone();
    add(
        "from_slice",
        "hessian Session",
        Box::new(move |n| {
            (0..n)
                .map(|_| {
                    let x: T = session.from_slice(black_box(&hb[..])).expect("session from_slice");
                    drop(black_box(x));
                    1
                })
                .sum()
        }),
    );
    add("from_slice", "rmp-serde named", decode!(m, |b: &[u8]| rmp_serde::from_slice::<T>(b).expect("from_slice")));
    add("from_slice", "bincode", decode!(b, |b: &[u8]| bincode::deserialize::<T>(b).expect("deserialize")));
    add("from_reader", "hessian", decode!(h, |b: &[u8]| hessian::from_reader::<_, T>(b).expect("from_reader")));
    add("from_reader", "rmp-serde named", decode!(m, |b: &[u8]| rmp_serde::from_read::<_, T>(b).expect("from_read")));
    add(
        "from_reader",
        "bincode",
        decode!(b, |b: &[u8]| bincode::deserialize_from::<_, T>(b).expect("deserialize_from")),
    );
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    v[v.len() / 2]
}

/// The median and the 10th and 90th percentile of `v`.
fn spread(mut v: Vec<f64>) -> (f64, f64, f64) {
    let m = median(&mut v);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (m, at(0.1), at(0.9))
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tiny = args.iter().any(|a| a == "--tiny");
    let rounds: usize = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(if tiny { 3 } else { 60 });
    let scale = if tiny { 20 } else { 1 };
    let mut cells = Vec::new();
    cells_of::<Money>("W3 Money", structs::money(), 4000 / scale, &mut cells);
    cells_of::<w2::Order>("W2 request", w2::request(), 400 / scale, &mut cells);
    cells_of::<Vec<Item>>("W1 5000 items", structs::items(5000), (2 / scale).max(1), &mut cells);
    println!("entry_bench: {} cells, {rounds} rounds, load before {}", cells.len(), load());
    // warm-up: one batch of each
    for c in &mut cells {
        black_box((c.op)(c.batch));
    }
    for round in 0..rounds {
        let n = cells.len();
        for k in 0..n {
            // rotate the order each round, and reverse it every other round
            let i = if round % 2 == 0 { (k + round) % n } else { (n - 1 - k + round) % n };
            let c = &mut cells[i];
            let t = Instant::now();
            black_box((c.op)(c.batch));
            c.times.push(t.elapsed().as_nanos() as f64 / c.batch as f64);
        }
    }
    println!("load after {}\n", load());
    println!("| workload | entry point | library | median ns | ÷ peer, median of rounds (p10–p90) | peer |");
    println!("|---|---|---|---:|---:|---|");
    for c in &cells {
        let peer_lib = if c.workload.starts_with("W1") { "bincode" } else { "rmp-serde named" };
        let (m, ..) = spread(c.times.clone());
        let ratio = if c.lib.starts_with("hessian") {
            cells.iter().find(|p| p.workload == c.workload && p.entry == c.entry && p.lib == peer_lib).map(|p| {
                let r: Vec<f64> = c.times.iter().zip(&p.times).map(|(a, b)| a / b).collect();
                spread(r)
            })
        } else {
            None
        };
        let r = match ratio {
            Some((m, lo, hi)) => format!("{m:.2}× ({lo:.2}–{hi:.2})"),
            None => String::new(),
        };
        let peer = if ratio.is_some() { peer_lib } else { "" };
        println!("| {} | `{}` | {} | {m:.0} | {r} | {peer} |", c.workload, c.entry, c.lib);
    }
}
