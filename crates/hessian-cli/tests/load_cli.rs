//! `hessian load` end to end: against `hessian serve-demo` in every protocol (typed-JSON
//! arguments and a replayed call file, the bytes per call of Hessian 2 and Hessian 2.1), a fault
//! that fails the run, and against Java's `HessianSkeleton` (Caucho's `RpcJavaServer`). The Java
//! part skips without Java locally and fails under CI.

mod common;

use common::w2_call_file;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a server process and reads its address from the first line it prints.
fn start(mut cmd: Command, marker: &str) -> Server {
    let mut child = cmd.stdout(Stdio::piped()).spawn().expect("spawn server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let addr = match marker {
        "PORT " => format!("127.0.0.1:{}", line.trim().trim_start_matches("PORT ")),
        _ => line.split("http://").nth(1).and_then(|s| s.split_whitespace().next()).expect("address").to_owned(),
    };
    Server { child, addr }
}

fn demo() -> Server {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hessian"));
    cmd.args(["serve-demo", "--listen", "127.0.0.1:0"]);
    start(cmd, "http://")
}

/// Runs `hessian load ARGS --json`: (success, the JSON report).
fn load(args: &[&str]) -> (bool, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_hessian")).args(["load", "--json"]).args(args).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("{args:?}: no JSON report ({e}): {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.success(), json)
}

#[test]
fn loads_the_demo_server_in_every_protocol() {
    let d = demo();
    let url = format!("http://{}/bench", d.addr);
    for protocol in ["h2", "h2.1", "h1", "hybrid", "burlap"] {
        let (ok, r) = load(&[&url, "getItems", "10", "-n", "60", "-c", "3", "--warmup", "5", "--protocol", protocol]);
        assert!(ok, "{protocol}: {r}");
        assert_eq!((r["calls"].as_u64(), r["errors"].as_u64(), r["faults"].as_u64()), (Some(60), Some(0), Some(0)));
        assert_eq!(r["protocol"], protocol);
        assert!(r["latency_us"]["p50"].as_f64().unwrap() > 0.0, "{r}");
        let hist: u64 = r["histogram_us"].as_array().unwrap().iter().map(|b| b[1].as_u64().unwrap()).sum();
        assert_eq!(hist, 60, "{r}");
    }
    // a captured W2 call replayed: plain Hessian 2 sends it whole, Hessian 2.1 refers to its map
    let dir = std::env::temp_dir().join(format!("load-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = w2_call_file(&dir);
    let (ok, r) = load(&[&url, "--call", &file, "-n", "50", "--warmup", "3", "--protocol", "h2"]);
    assert!(ok, "{r}");
    assert_eq!((r["request_bytes_per_call"].as_f64(), r["reply_bytes_per_call"].as_f64()), (Some(578.0), Some(543.0)));
    let (ok, r) = load(&[&url, "--call", &file, "-n", "50", "--warmup", "3", "--protocol", "h2.1"]);
    assert!(ok, "{r}");
    assert_eq!((r["request_bytes_per_call"].as_f64(), r["reply_bytes_per_call"].as_f64()), (Some(228.0), Some(193.0)));
    // the same call re-encoded in Burlap, and for a duration
    let (ok, r) = load(&[&url, "--call", &file, "--duration", "0.3", "--warmup", "0", "--protocol", "burlap"]);
    assert!(ok && r["calls"].as_u64().unwrap() > 0, "{r}");
    // a fault fails the run and is counted
    let (ok, r) = load(&[&url, "-n", "4", "--warmup", "0", "getItems", "--", "-1"]);
    assert!(!ok);
    assert_eq!((r["calls"].as_u64(), r["faults"].as_u64()), (Some(0), Some(4)), "{r}");
    assert!(r["first_error"].as_str().unwrap().contains("IllegalArgumentException"), "{r}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loads_java_hessian_skeleton() {
    let Some(java) = hessian_testkit::java::java() else { return };
    let server = start(java.command("RpcJavaServer"), "PORT ");
    let url = format!("http://{}/bench", server.addr);
    for protocol in ["h2", "hybrid", "h1", "burlap"] {
        let (ok, r) = load(&[&url, "getItems", "100", "-n", "40", "-c", "2", "--warmup", "20", "--protocol", protocol]);
        assert!(ok, "{protocol}: {r}");
        assert_eq!(r["calls"].as_u64(), Some(40), "{protocol}: {r}");
    }
    // Caucho's skeleton does not speak the extension: Hessian 2.1 stays plain, without errors
    let dir = std::env::temp_dir().join(format!("load-cli-java-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = w2_call_file(&dir);
    let (ok, r) = load(&[&url, "--call", &file, "-n", "30", "--warmup", "5", "--protocol", "h2.1"]);
    assert!(ok, "{r}");
    assert_eq!(r["request_bytes_per_call"].as_f64(), Some(578.0), "{r}");
    let _ = std::fs::remove_dir_all(&dir);
}
