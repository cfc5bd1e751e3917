//! How the speed of `hessian::to_writer` depends on where the heap puts the thread's kept
//! serializer: `PAD=N layout_probe` allocates N bytes first (shifting the blocks allocated after
//! it), then times one W3 `Money` through `to_writer` into a cleared `Vec` (best of five loops of
//! 400,000 messages) and prints `N ns`. Run it for N = 0, 64, … 4096 (BENCHMARKS.md).

use hessian_testkit::structs;
use std::hint::black_box;
fn main() {
    let pad: usize = std::env::var("PAD").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let keep = vec![0u8; pad];
    let money = structs::money();
    let mut out = Vec::new();
    hessian::to_writer(&mut out, &money).unwrap();
    let n = 400_000;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        for _ in 0..n {
            out.clear();
            hessian::to_writer(&mut out, black_box(&money)).unwrap();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / n as f64);
    }
    println!("{pad} {best:.1}");
    black_box(keep);
}
