//! Runs one serde encode or decode N times, for instruction counts that do not depend on machine
//! load: `valgrind --tool=cachegrind --cache-sim=no target/release/examples/serde_probe MODE N`,
//! minus a run of the matching baseline (`none 1` for W1 encodes, `dec-none 1` for W1 decodes),
//! divided by N * 5000; for the one-message modes below, the count of a run of 2N minus that of
//! a run of N, divided by N (or minus `FORMAT-CASE-none 1`).
//!
//! W1, 5000 items per run: `enc-h|enc-b|enc-m|dec-h|dec-b|dec-m` (hessian, bincode, rmp-serde).
//! `enc-w3`: 5000 messages of one W3 Money each.
//!
//! One message per run, `FORMAT-CASE-enc|dec` with FORMAT `h` (this crate, Hessian 2), `h1`
//! and `bu` (this crate, Hessian 1 and Burlap), `hs` (Hessian 2 through a kept `hessian::Session`: `wr`
//! and `dec` only), `m` (rmp-serde named fields, `to_vec_named`)
//! or `b` (bincode), OP `enc` (`to_vec`), `wr` (`to_writer` into a `Vec` cleared before each
//! message), `dec` (`from_slice`) or `rd` (`from_reader` over a byte slice), and CASE `money` (one W3 `Money`), `w2req` and `w2rep` (the W2 `Order`
//! request and reply) or `w1k` (W1, 1,000 items): e.g. `h-money-enc 100000`, `h1-w1k-dec 20`.
//!
//! `--features mimalloc` runs it under mimalloc instead of the system allocator.

use hessian_testkit::structs::{self, w2, Item};
use serde::{de::DeserializeOwned, Serialize};
use std::hint::black_box;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
fn main() {
    let which = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(200);
    if let Some(total) = one_message(&which, n) {
        eprintln!("{which}: {n} messages ({total})");
        return;
    }
    let items = structs::items(5000);
    let dec = which.starts_with("dec");
    let h = if dec { hessian::to_vec(&items).unwrap() } else { vec![] };
    let bc = if dec { bincode::serialize(&items).unwrap() } else { vec![] };
    let mp = if dec { rmp_serde::to_vec(&items).unwrap() } else { vec![] };
    let money = structs::Money::of(1000);
    let mut total = 0usize;
    let t = std::time::Instant::now();
    for _ in 0..n {
        total += match which.as_str() {
            "enc-h" => hessian::to_vec(&items).unwrap().len(),
            "enc-b" => bincode::serialize(&items).unwrap().len(),
            "enc-m" => rmp_serde::to_vec(&items).unwrap().len(),
            "dec-h" => hessian::from_slice::<Vec<Item>>(&h).unwrap().len(),
            "dec-b" => bincode::deserialize::<Vec<Item>>(&bc).unwrap().len(),
            "dec-m" => rmp_serde::from_slice::<Vec<Item>>(&mp).unwrap().len(),
            // One W3 Money per message, 5000 messages (one class definition each).
            "enc-w3" => w3_messages(&money),
            _ => 0,
        };
    }
    eprintln!("{which}: {:?}/iter ({total})", t.elapsed() / n as u32);
}

/// 5000 messages of one W3 Money each (kept out of `main` so that it does not change how the
/// W1 paths are compiled).
#[inline(never)]
fn w3_messages(money: &structs::Money) -> usize {
    (0..5000).map(|_| hessian::to_vec(money).unwrap().len()).sum()
}

/// The one-message modes (`h-money-enc` etc., and `msg-none`); `None` for the W1 modes.
#[inline(never)]
fn one_message(which: &str, n: usize) -> Option<usize> {
    let mut parts = which.splitn(3, '-');
    let (format, case, op) = (parts.next()?, parts.next()?, parts.next()?);
    Some(match case {
        "money" => run(format, op, n, &structs::money()),
        "w2req" => run(format, op, n, &w2::request()),
        "w2rep" => run(format, op, n, &w2::reply()),
        "w1k" => run(format, op, n, &structs::items(1000)),
        _ => return None,
    })
}

fn run<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(
    format: &str,
    op: &str,
    n: usize,
    v: &T,
) -> usize {
    let bytes = match format {
        "h" | "hs" => hessian::to_vec(v).unwrap(),
        "m" => rmp_serde::to_vec_named(v).unwrap(),
        "b" => bincode::serialize(v).unwrap(),
        "h1" => hessian::serde::h1::to_vec(v).unwrap(),
        "bu" => hessian::serde::burlap::to_vec(v).unwrap(),
        _ => panic!("format {format}: h, h1, bu, m or b"),
    };
    let mut total = 0usize;
    let mut out: Vec<u8> = Vec::new();
    // `wr`: `to_writer` into one Vec the loop clears before each message; `rd`: `from_reader`
    // over a byte slice
    let mut writer = |f: &dyn Fn(&mut Vec<u8>)| {
        (0..n).for_each(|_| {
            out.clear();
            f(&mut out);
            total += black_box(&out).len();
        })
    };
    match (format, op) {
        ("h", "wr") => writer(&|o| hessian::to_writer(o, black_box(v)).unwrap()),
        ("hs", "wr") => {
            let session = std::cell::RefCell::new(hessian::Session::new());
            writer(&|o| session.borrow_mut().to_writer(o, black_box(v)).unwrap())
        }
        ("hs", "dec") => {
            let mut session = hessian::Session::new();
            (0..n).for_each(|_| drop(black_box(session.from_slice::<T>(black_box(&bytes)).unwrap())))
        }
        ("m", "wr") => writer(&|o| rmp_serde::encode::write_named(o, black_box(v)).unwrap()),
        ("b", "wr") => writer(&|o| bincode::serialize_into(o, black_box(v)).unwrap()),
        ("h1", "wr") => writer(&|o| hessian::serde::h1::to_writer(o, black_box(v)).unwrap()),
        ("bu", "wr") => writer(&|o| hessian::serde::burlap::to_writer(o, black_box(v)).unwrap()),
        ("h", "rd") => {
            (0..n).for_each(|_| drop(black_box(hessian::from_reader::<_, T>(black_box(&bytes[..])).unwrap())))
        }
        ("m", "rd") => {
            (0..n).for_each(|_| drop(black_box(rmp_serde::from_read::<_, T>(black_box(&bytes[..])).unwrap())))
        }
        ("b", "rd") => {
            (0..n).for_each(|_| drop(black_box(bincode::deserialize_from::<_, T>(black_box(&bytes[..])).unwrap())))
        }
        ("h", "enc") => (0..n).for_each(|_| total += hessian::to_vec(black_box(v)).unwrap().len()),
        ("m", "enc") => (0..n).for_each(|_| total += rmp_serde::to_vec_named(black_box(v)).unwrap().len()),
        ("b", "enc") => (0..n).for_each(|_| total += bincode::serialize(black_box(v)).unwrap().len()),
        ("h", "dec") => (0..n).for_each(|_| drop(black_box(hessian::from_slice::<T>(black_box(&bytes)).unwrap()))),
        ("m", "dec") => (0..n).for_each(|_| drop(black_box(rmp_serde::from_slice::<T>(black_box(&bytes)).unwrap()))),
        ("b", "dec") => (0..n).for_each(|_| drop(black_box(bincode::deserialize::<T>(black_box(&bytes)).unwrap()))),
        ("h1", "enc") => (0..n).for_each(|_| total += hessian::serde::h1::to_vec(black_box(v)).unwrap().len()),
        ("bu", "enc") => (0..n).for_each(|_| total += hessian::serde::burlap::to_vec(black_box(v)).unwrap().len()),
        ("h1", "dec") => {
            (0..n).for_each(|_| drop(black_box(hessian::serde::h1::from_slice::<T>(black_box(&bytes)).unwrap())))
        }
        ("bu", "dec") => {
            (0..n).for_each(|_| drop(black_box(hessian::serde::burlap::from_slice::<T>(black_box(&bytes)).unwrap())))
        }
        ("h" | "h1" | "bu" | "m" | "b", "none") => {}
        _ => panic!("operation {op}: enc, wr, dec, rd or none"),
    }
    total + bytes.len()
}
