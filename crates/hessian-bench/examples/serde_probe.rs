//! Runs one W1 (5000 items) serde encode or decode N times, for instruction counts that do not
//! depend on machine load: `valgrind --tool=cachegrind --cache-sim=no` on
//! `serde_probe enc-h|enc-b|enc-m|dec-h|dec-b|dec-m|enc-w3 N` (hessian, bincode, rmp-serde), minus a run
//! of `serde_probe none 1` (or `dec-none 1` for decodes), divided by N * 5000.

//! `--features mimalloc` runs it under mimalloc instead of the system allocator.

use hessian_testkit::structs::{self, Item};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
fn main() {
    let which = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(200);
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
