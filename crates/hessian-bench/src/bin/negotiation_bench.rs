//! The type negotiation benchmark (`hessian_bench::negotiation`, issue 12 item 5): W2 `exchange`
//! in Hessian 1, 2 and 2.1 for Rust and Java clients and servers, then the sweeps.
//!
//! ```sh
//! nice -n 10 cargo build --release -p hessian-cli -p hessian-bench -j 1
//! target/release/negotiation_bench --json negotiation.json          # quick: 1,000 + 5,000 W2 calls
//! target/release/negotiation_bench --calls 50000 --json full.json   # the specification's count
//! target/release/negotiation_bench --tiny                           # what the CI smoke test runs
//! ```
//!
//! The seed suite (`seed`, experiment 1) runs the same benchmark and charts it.

use hessian_bench::negotiation::{parse_args, run};

fn main() {
    let result = parse_args(std::env::args().skip(1)).and_then(|c| match c {
        Some(c) => run(&c).map(|_| ()),
        None => Ok(()),
    });
    if let Err(e) = result {
        eprintln!("negotiation_bench: {e}");
        std::process::exit(1);
    }
}
