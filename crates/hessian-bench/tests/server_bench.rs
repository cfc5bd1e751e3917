//! The server benchmark driver (`src/bin/server_bench.rs`) end to end in its tiny mode, against
//! the Rust server (`hessian serve-demo` on its workers, and with `--multi-thread`) and Caucho's
//! `HessianServlet` in embedded Jetty: all servers answer both calls with the same bytes before and after the load, `wrk` runs, the
//! table and the soak report are printed, and no server process outlives the driver. No timing
//! is asserted. Needs Java, libhessian-java, libjetty9-java and wrk: skipped with a message
//! locally when one is missing, a failure under `CI`.

use hessian_testkit::java::java_with_jetty;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn wrk_present() -> bool {
    Command::new("wrk").arg("-v").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

/// The `hessian` binary of this build's profile, next to the driver; built when missing (a
/// `cargo test --workspace` has built it already for hessian-cli's own tests).
fn hessian_binary() -> PathBuf {
    let driver = PathBuf::from(env!("CARGO_BIN_EXE_server_bench"));
    let dir = driver.parent().expect("driver directory");
    let bin = dir.join("hessian");
    if !bin.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "-p", "hessian-cli", "--bin", "hessian"]);
        if dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("run cargo build -p hessian-cli");
        assert!(status.success(), "cargo build -p hessian-cli failed");
    }
    assert!(bin.exists(), "{} missing after building hessian-cli", bin.display());
    bin
}

fn pids(out: &str, prefix: &str) -> Vec<u32> {
    out.lines()
        .filter(|l| l.starts_with(prefix))
        .filter_map(|l| l.split(" pid ").nth(1)?.split_whitespace().next()?.parse().ok())
        .collect()
}

#[test]
fn server_bench_tiny_mode_end_to_end() {
    let Some(_java) = java_with_jetty() else { return };
    if !wrk_present() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the server benchmark test must run in CI but wrk is missing: run .ci/run"
        );
        eprintln!("SKIPPING server benchmark test: wrk not installed (apt-get install wrk)");
        return;
    }
    let hessian = hessian_binary();
    let out = Command::new(env!("CARGO_BIN_EXE_server_bench"))
        .arg("--tiny")
        .arg("--also-multi-thread")
        .arg("--hessian")
        .arg(&hessian)
        .stdin(Stdio::null())
        .output()
        .expect("run server_bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(out.status.success(), "server_bench --tiny failed ({}):\n{stdout}\n{stderr}", out.status);

    for when in ["before the load", "after the load"] {
        for call in ["W1 getItems(100)", "W2 exchange"] {
            let line = format!("byte check {when}: {call}: Rust and Jetty and Rust multi-thread answer");
            assert!(stdout.contains(&line), "missing {line:?} in:\n{stdout}");
        }
    }
    assert!(stdout.contains("| call | conns | server | req/s | p50 | p99 |"), "no table:\n{stdout}");
    let rows: Vec<&str> =
        stdout.lines().filter(|l| l.starts_with("| W1 getItems(100) |") || l.starts_with("| W2 exchange |")).collect();
    assert_eq!(rows.len(), 12, "2 calls x 2 connection counts x 3 servers:\n{stdout}");
    for conns in ["| 1 |", "| 64 |"] {
        for server in ["| Rust |", "| Jetty |", "| Rust multi-thread |"] {
            assert!(rows.iter().any(|r| r.contains(conns) && r.contains(server)), "no {conns} {server} row:\n{stdout}");
        }
    }
    assert!(stdout.contains("memory soak: Rust server, W2 exchange"), "no soak report:\n{stdout}");
    assert!(stdout.contains("RSS samples every"), "no RSS samples:\n{stdout}");

    // All three servers were stopped and reaped by the driver.
    let servers: Vec<u32> =
        [pids(&stdout, "Rust server:"), pids(&stdout, "Rust multi-thread server:"), pids(&stdout, "Jetty server:")]
            .concat();
    assert_eq!(servers.len(), 3, "server pids in:\n{stdout}");
    for pid in servers {
        // A recycled pid would run something else.
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline);
        assert!(
            !cmdline.contains("serve-demo") && !cmdline.contains("JettyBench"),
            "server process {pid} left behind: {cmdline}"
        );
    }
}
