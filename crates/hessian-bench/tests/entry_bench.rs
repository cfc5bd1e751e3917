//! The entry-point benchmark (`src/bin/entry_bench.rs`) end to end in its tiny mode: every cell
//! runs (each encode and decode checks its result with `expect`), and the table has a row per
//! cell with a ratio for each of this crate's rows. No timing is asserted.

use std::process::Command;

#[test]
fn entry_bench_tiny_prints_every_cell() {
    let out = Command::new(env!("CARGO_BIN_EXE_entry_bench")).arg("--tiny").output().expect("run entry_bench");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "entry_bench failed: {}\n{text}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| W")).collect();
    // 3 workloads x (4 entry points x 3 libraries + 2 session rows)
    assert_eq!(rows.len(), 3 * 14, "{text}");
    for r in rows.iter().filter(|r| r.contains("| hessian")) {
        assert!(r.contains('×'), "no ratio in {r}");
    }
}
