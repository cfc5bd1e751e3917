//! The seed suite end to end in its tiny mode: every experiment and every protocol path runs
//! (Java included when installed, and always under `CI`), and the report, one chart per figure and
//! `results.json` are written and complete. No timing is asserted.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn text(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_owned()
}

#[test]
fn tiny_run_writes_a_complete_report() {
    let out = std::env::temp_dir().join(format!("seed-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_seed")).arg("--tiny").arg("--out").arg(&out).output().expect("run seed");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "seed --tiny failed ({}):\n{stdout}\n{stderr}", run.status);
    assert!(
        stdout.contains("REPORT.md") && stdout.contains("results.json"),
        "does not say where the report is:\n{stdout}"
    );

    let report = std::fs::read_to_string(out.join("REPORT.md")).expect("REPORT.md written");
    let json: Value = serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json written"))
        .expect("results.json is JSON");
    assert_eq!(json["schema"], "hessian-seed/1");
    assert_eq!(json["mode"], "tiny");
    for key in ["cores", "cpu", "memory_mib", "kernel", "rustc", "java", "rust_crates", "java_packages"] {
        assert!(!json["machine"][key].is_null(), "machine.{key} missing");
    }
    assert!(report.starts_with("# Seed suite report") && report.contains("## Machine") && report.contains("| cores |"));

    let ci = std::env::var_os("CI").is_some();
    let experiments = json["experiments"].as_array().expect("experiments");
    let ids: Vec<String> = experiments.iter().map(|e| text(e, "id")).collect();
    assert_eq!(ids, ["1", "2", "3"]);
    // experiment 1: every client → server pair in every protocol, and the six sweeps
    let exp1: Vec<String> =
        experiments[0]["figures"].as_array().expect("figures").iter().map(|f| text(f, "id")).collect();
    assert_eq!(exp1[..2], ["exp1-w2", "exp1-w2-ratio"]);
    for sweep in ["types", "instances", "name-length", "calls-per-conversation", "latency", "bandwidth"] {
        assert!(exp1.contains(&format!("exp1-sweep-{sweep}")), "no {sweep} sweep in {exp1:?}");
    }
    let w2_rows: Vec<String> =
        experiments[0]["figures"][0]["series"].as_array().expect("series").iter().map(|s| text(s, "id")).collect();
    for pair in ["rust-rust", "java-java", "rust-java", "java-rust"] {
        for proto in ["hessian1", "hessian2", "hessian2.1"] {
            assert!(w2_rows.contains(&format!("{pair}-{proto}")), "no {pair}-{proto} row in {w2_rows:?}");
        }
    }
    // the interleaved Hessian 2 / 2.1 comparison of every pairing: the ratio of medians and its
    // spread over the blocks
    let ratios = experiments[0]["figures"][1]["series"].as_array().expect("ratio series");
    for pair in ["rust-rust", "java-java", "rust-java", "java-rust"] {
        let s = ratios
            .iter()
            .find(|s| s["id"] == format!("ratio-{pair}"))
            .unwrap_or_else(|| panic!("no ratio-{pair} in {ratios:?}"));
        if s["status"] == "skipped" {
            continue;
        }
        let v = &s["points"][0]["values"];
        let (r, lo, hi) =
            (v["ratio_of_medians"].as_f64(), v["block_ratio_min"].as_f64(), v["block_ratio_max"].as_f64());
        assert!(matches!((r, lo, hi), (Some(r), Some(lo), Some(hi)) if r > 0.0 && lo > 0.0 && lo <= hi), "{s}");
    }
    assert!(report.contains("2.1 ÷ Hessian 2, medians"), "no ratio table in the report");
    // every W2 row that ran: its bytes on the socket both ways, through the counting relay, more
    // than its bodies (which the relay's recording confirms), and the spread of its blocks
    for s in experiments[0]["figures"][0]["series"].as_array().into_iter().flatten().filter(|s| s["status"] == "ok") {
        let v = &s["points"][0]["values"];
        assert!(s["notes"].get("bytes check").is_none(), "{}: {}", s["id"], s["notes"]);
        for (socket, body) in [("request_socket_bytes", "request_bytes"), ("reply_socket_bytes", "reply_bytes")] {
            assert!(v[socket].as_f64() > v[body].as_f64() && v[body].as_f64() > Some(0.0), "{}: {v}", s["id"]);
        }
        assert_eq!(v["rounds"].as_f64(), Some(5.0), "{}: {v}", s["id"]);
    }
    // the sweeps, the load figure and experiment 3 in rounds: every point has its spread
    for e in &experiments[..] {
        for f in e["figures"].as_array().into_iter().flatten() {
            let id = text(f, "id");
            if !(id.starts_with("exp1-sweep") || id == "exp1-load" || id.starts_with("exp3")) {
                continue;
            }
            for s in f["series"].as_array().into_iter().flatten().filter(|s| s["status"] == "ok") {
                for p in s["points"].as_array().into_iter().flatten() {
                    let v = &p["values"];
                    assert_eq!(v["rounds"].as_f64(), Some(2.0), "{id} {}: {v}", s["id"]);
                    assert!(v["round_spread"].as_f64().is_some_and(|x| x >= 0.0), "{id} {}: {v}", s["id"]);
                }
            }
        }
    }
    let mut java_rows = 0;
    for e in experiments {
        assert!(report.contains(&text(e, "title")), "report lacks experiment {}", text(e, "title"));
        for f in e["figures"].as_array().expect("figures") {
            let id = text(f, "id");
            assert!(report.contains(&text(f, "title")), "report lacks figure {id}");
            let chart = text(f, "chart");
            assert_eq!(chart, format!("{id}.svg"), "figure {id} has no chart");
            let svg = std::fs::read_to_string(out.join(&chart)).unwrap_or_else(|e| panic!("{chart}: {e}"));
            assert!(
                svg.starts_with("<svg") && svg.contains("<text") && svg.trim_end().ends_with("</svg>"),
                "{chart} is not a complete SVG"
            );
            let series = f["series"].as_array().expect("series");
            assert!(!series.is_empty(), "figure {id} has no rows");
            for s in series {
                let (label, status) = (text(s, "label"), text(s, "status"));
                assert!(report.contains(&label), "report lacks row {label} of {id}");
                if text(s, "id").starts_with("java") || label.contains("Java") {
                    java_rows += 1;
                }
                match status.as_str() {
                    "ok" => {
                        let points = s["points"].as_array().expect("points");
                        assert!(!points.is_empty(), "{id}/{label}: ok without points");
                        if f["kind"] == "line" {
                            for p in points {
                                let median = p["time_us"]["median"].as_f64().unwrap_or(0.0);
                                assert!(median > 0.0, "{id}/{label}: no round-trip time at {}", p["x"]);
                            }
                        }
                    }
                    "skipped" => {
                        assert!(!ci, "{id}/{label} skipped under CI: {}", s["reason"]);
                        assert!(report.contains("## Skipped rows") && report.contains("apt-get install"));
                    }
                    other => panic!("{id}/{label} is {other}: {}", s["reason"]),
                }
            }
        }
    }
    assert!(java_rows > 0, "no Java rows listed");
    // the W1 figures have every tiny size, and each size has its byte counts for the Rust rows
    let exp2 = &experiments[1];
    let small = &exp2["figures"][0];
    assert_eq!(text(small, "id"), "exp2-w1-small");
    let h2 = small["series"].as_array().and_then(|s| s.iter().find(|s| s["id"] == "hessian2")).expect("hessian2 row");
    assert_eq!(h2["points"].as_array().map(Vec::len), Some(2));
    assert!(h2["points"][0]["values"]["reply_bytes"].as_f64().unwrap_or(0.0) > 0.0);
    // experiment 2 runs in rounds: every ok row's W1 and W2 points carry the spread across them,
    // Java rows (one long-lived client each) included, and the report says how repeatable it was
    for fig in exp2["figures"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| !["exp2-w2-shared", "exp2-w2-rust-java"].contains(&text(f, "id").as_str()))
    {
        for s in fig["series"].as_array().into_iter().flatten().filter(|s| s["status"] == "ok") {
            for p in s["points"].as_array().into_iter().flatten() {
                let v = &p["values"];
                assert_eq!(v["rounds"].as_f64(), Some(2.0), "{} {}: {v}", text(fig, "id"), s["id"]);
                let (lo, hi) = (v["round_median_min"].as_f64(), v["round_median_max"].as_f64());
                assert!(lo.is_some() && lo <= hi, "{} {}: {v}", text(fig, "id"), s["id"]);
            }
        }
    }
    assert!(report.contains("**Repeatability across 2 rounds:**"), "no repeatability sentence");
    // Rust against Java for one protocol and server: the two clients' W2 calls alternate in
    // every round; the paired figures are there, with their spread across the rounds
    let paired = exp2["figures"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["id"] == "exp2-w2-rust-java"))
        .expect("figure exp2-w2-rust-java");
    let paired = paired["series"].as_array().expect("series");
    for id in ["pair-java-hessian2", "pair-java-hessian1", "pair-java-burlap", "pair-java-to-rust"] {
        let s = paired.iter().find(|s| s["id"] == id).unwrap_or_else(|| panic!("no {id} in {paired:?}"));
        if s["status"] == "skipped" {
            continue;
        }
        let v = &s["points"][0]["values"];
        let num = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        assert_eq!(num("rounds"), 2.0, "{id}: {v}");
        assert_eq!(num("pairs"), 10.0, "{id}: {v}");
        assert!(num("ratio_of_medians") > 0.0 && num("rust_median_us") > 0.0 && num("java_median_us") > 0.0, "{v}");
        assert!(num("block_round_ratio_min") <= num("block_round_ratio_max"), "{id}: {v}");
        assert!(num("round_spread") >= 0.0, "{id}: {v}");
    }
    assert!(report.contains("Java client ÷ Rust client, medians"), "no Rust / Java table in the report");
    // bytes for every row that ran: on the socket both ways (through the counting relay; RMI: its
    // counting sockets), and the bodies wherever there is HTTP, read from the relay's recording,
    // which agrees with what the Rust clients counted themselves
    for fig in exp2["figures"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| !["exp2-w2-shared", "exp2-w2-rust-java"].contains(&text(f, "id").as_str()))
    {
        for s in fig["series"].as_array().into_iter().flatten().filter(|s| s["status"] == "ok") {
            let at = format!("{} {}", text(fig, "id"), s["id"]);
            assert!(s["notes"].get("bytes check").is_none(), "{at}: {}", s["notes"]);
            for p in s["points"].as_array().into_iter().flatten() {
                let v = &p["values"];
                let positive = |k: &str| v[k].as_f64().is_some_and(|b| b > 0.0);
                assert!(positive("request_socket_bytes") && positive("reply_socket_bytes"), "{at}: {v}");
                if s["id"] == "java-rmi" {
                    assert!(v["request_bytes"].is_null(), "{at}: RMI has no HTTP body: {v}");
                } else {
                    assert!(positive("request_bytes") && positive("reply_bytes"), "{at}: {v}");
                    assert!(v["request_socket_bytes"].as_f64() > v["request_bytes"].as_f64(), "{at}: {v}");
                }
            }
        }
    }
    for table in ["Request / reply body bytes per call", "Bytes on the socket per call"] {
        let mut n = 0;
        for part in report.split(table).skip(1) {
            n += 1;
            let cells = part.split("\n\n").nth(1).unwrap_or_default();
            assert!(cells.starts_with("| protocol |"), "{table}: no table after the title: {cells}");
            assert!(
                !cells.contains("not measured") && !cells.contains(" — |"),
                "{table}: a cell without bytes:\n{cells}"
            );
        }
        // the socket table under both W1 figures; the body table also under experiment 1's sweeps
        assert!(n >= 2, "{table}: expected in both W1 figures, found {n}");
    }
    assert!(!report.contains("not measured (Java client)"));
    // the AMF3 rows: Rust to Rust, and Py3AMF's client to the Rust gateway (skipped locally
    // without Python), through W1 and W2 like every row (their bytes checked above)
    for id in ["amf", "amf-python"] {
        for fig in exp2["figures"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| !["exp2-w2-shared", "exp2-w2-rust-java"].contains(&text(f, "id").as_str()))
        {
            let row = fig["series"].as_array().and_then(|v| v.iter().find(|s| s["id"] == id));
            let row = row.unwrap_or_else(|| panic!("no {id} row in {}", text(fig, "id")));
            let ok = row["status"] == "ok" || (id == "amf-python" && row["status"] == "skipped" && !ci);
            assert!(ok, "{id} in {}: {row}", text(fig, "id"));
        }
    }

    // `--compare`: a second run (one protocol of experiment 2) beside this one, row by row
    let again = out.with_extension("again");
    let _ = std::fs::remove_dir_all(&again);
    let run = Command::new(env!("CARGO_BIN_EXE_seed"))
        .args(["--tiny", "--only", "2", "--protocols", "hessian2", "--out"])
        .arg(&again)
        .arg("--compare")
        .arg(&out)
        .output()
        .expect("run seed --compare");
    assert!(run.status.success(), "seed --compare failed:\n{}", String::from_utf8_lossy(&run.stderr));
    let report = std::fs::read_to_string(again.join("REPORT.md")).expect("REPORT.md written");
    assert!(report.contains("## Compared with an earlier run"), "no comparison in the report");
    let json: Value = serde_json::from_slice(&std::fs::read(again.join("results.json")).expect("results.json"))
        .expect("results.json is JSON");
    let points = json["compare"]["points"].as_array().expect("compare.points");
    assert!(!points.is_empty(), "no row matched the earlier run");
    for p in points {
        assert_eq!(p["row"], "hessian2", "{p}");
        assert!(p["ratio"].as_f64().is_some_and(|r| r > 0.0), "{p}");
        // the same build sends the same bytes
        let bytes = p["bytes_ratios"].as_object().expect("bytes_ratios");
        assert!(!bytes.is_empty() && bytes.values().all(|r| r.as_f64() == Some(1.0)), "{p}");
    }
    let _ = std::fs::remove_dir_all(&again);
    let _ = std::fs::remove_dir_all(Path::new(&out));
}

#[test]
fn compare_with_a_directory_without_results_is_refused_before_running() {
    let run = Command::new(env!("CARGO_BIN_EXE_seed"))
        .args(["--tiny", "--compare", "/nonexistent/seed-results"])
        .output()
        .expect("run seed");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--compare: cannot read"));
}

#[test]
fn bad_arguments_are_refused() {
    let run =
        Command::new(env!("CARGO_BIN_EXE_seed")).args(["--protocols", "carrier-pigeon"]).output().expect("run seed");
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown protocol"));
}

#[test]
fn a_failing_peer_fails_its_row_and_the_run() {
    // A server that is not one of the suite's: `seed serve` refuses it, so the row must fail with
    // the reason while the suite still writes its report.
    // A relay that forwards nowhere: the byte count of that row fails, after its rounds.
    let out = std::env::temp_dir().join(format!("seed-fail-{}", std::process::id()));
    let run = Command::new(env!("CARGO_BIN_EXE_seed"))
        .args(["--tiny", "--only", "2", "--protocols", "json,msgpack,bincode"])
        .arg("--out")
        .arg(&out)
        .env("SEED_BREAK_SERVER", "json")
        .env("SEED_BREAK_RELAY", "bincode")
        .output()
        .expect("run seed");
    assert!(!run.status.success(), "a failed row must make the run fail");
    let report = std::fs::read_to_string(out.join("REPORT.md")).expect("report still written");
    assert!(report.contains("## Failed rows") && report.contains("JSON over HTTP"), "{report}");
    // the other row goes on through every round
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).expect("results.json")).expect("json");
    let small = &json["experiments"][0]["figures"][0]["series"];
    let row = |id: &str| small.as_array().and_then(|v| v.iter().find(|s| s["id"] == id)).cloned().unwrap_or_default();
    assert_eq!(row("json")["status"], "failed");
    assert_eq!(row("bincode")["status"], "failed", "{small}");
    assert!(row("bincode")["reason"].as_str().is_some_and(|r| r.starts_with("byte count: n = 1:")), "{small}");
    assert_eq!(row("msgpack")["status"], "ok", "{small}");
    assert_eq!(row("msgpack")["points"][0]["values"]["rounds"].as_f64(), Some(2.0));
    let _ = std::fs::remove_dir_all(&out);
}

/// Live processes (zombies have no environment) whose environment holds `SEED_TEST_MARK=mark`:
/// what a run left behind.
fn marked(mark: &str) -> Vec<String> {
    let needle = format!("SEED_TEST_MARK={mark}");
    let entries = std::fs::read_dir("/proc").into_iter().flatten().flatten();
    entries
        .filter_map(|e| {
            let env = std::fs::read(e.path().join("environ")).ok()?;
            env.split(|b| *b == 0).any(|v| v == needle.as_bytes()).then(|| e.file_name().to_string_lossy().into_owned())
        })
        .collect()
}

/// Waits up to 10 s for no process to carry `mark`; the ones left, if any.
fn none_left(mark: &str) -> Vec<String> {
    let t0 = std::time::Instant::now();
    loop {
        let left = marked(mark);
        if left.is_empty() || t0.elapsed().as_secs() > 10 {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// `seed serve-all`, killed (and so its servers) if the test fails before it stops it.
struct ServeAll(std::process::Child);

impl Drop for ServeAll {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn two_machines_over_loopback() {
    use std::io::BufRead;
    // the server machine: every server of this selection, Java rows included (a Java row needs
    // Java on both sides: its client runs on the client machine)
    let protocols = "hessian2.1,json,grpc,java-hessian2,java-rmi";
    let mark = format!("serve-all-{}", std::process::id());
    let mut serve_all = ServeAll(
        Command::new(env!("CARGO_BIN_EXE_seed"))
            .args(["serve-all", "--listen", "127.0.0.1:0", "--only", "1,2", "--protocols", protocols])
            .env("SEED_TEST_MARK", &mark)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("start seed serve-all"),
    );
    let stdout = serve_all.0.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = std::io::BufReader::new(stdout).lines();
        let _ = tx.send(lines.next().and_then(Result::ok).unwrap_or_default());
        for _ in lines.map_while(Result::ok) {}
    });
    let url = rx.recv_timeout(std::time::Duration::from_secs(240)).expect("serve-all printed its directory");
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/servers"), "first line: {url:?}");

    // the client machine: the tiny suite against them
    let out = std::env::temp_dir().join(format!("seed-remote-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_seed"))
        .args(["--tiny", "--only", "1,2", "--protocols", protocols, "--servers", &url, "--out"])
        .arg(&out)
        .output()
        .expect("run seed --servers");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "seed --servers failed ({}):\n{stdout}\n{stderr}", run.status);
    let report = std::fs::read_to_string(out.join("REPORT.md")).expect("REPORT.md written");
    let json: Value = serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json"))
        .expect("results.json is JSON");
    // both hosts named, the servers said to be remote
    let servers = &json["servers"];
    assert_eq!(servers["remote"], true, "{servers}");
    let (server_host, client_host) = (text(servers, "host"), text(&json["machine"], "host"));
    assert!(!server_host.is_empty() && server_host != "unknown", "{servers}");
    assert!(!client_host.is_empty() && text(servers, "client_host") == client_host, "{servers}");
    assert!(report.contains("## Two machines") && report.contains("The servers were **remote**"), "{report}");
    assert!(report.contains(&format!("ran on **{server_host}**")) && report.contains(&format!("on **{client_host}**")));
    assert!(report.contains(&url) && report.contains("**Servers remote**"));
    assert!(servers["servers"]["exp2-json"].as_str().is_some_and(|a| a.starts_with("127.0.0.1:")), "{servers}");
    // every row ran against the remote servers (Java rows skipped only where Java is missing)
    let ci = std::env::var_os("CI").is_some();
    let mut ran = 0;
    for e in json["experiments"].as_array().expect("experiments") {
        for f in e["figures"].as_array().expect("figures") {
            for s in f["series"].as_array().expect("series") {
                match text(s, "status").as_str() {
                    "ok" => ran += 1,
                    "skipped" => assert!(!ci, "{} {} skipped under CI: {}", f["id"], s["id"], s["reason"]),
                    other => panic!("{} {} is {other}: {}", f["id"], s["id"], s["reason"]),
                }
            }
        }
    }
    assert!(ran > 10, "only {ran} rows ran");
    let exp2 = &json["experiments"][1]["figures"][2]["series"];
    let json_row = exp2.as_array().and_then(|v| v.iter().find(|s| s["id"] == "json")).expect("json row");
    assert!(json_row["points"][0]["values"]["request_socket_bytes"].as_f64().is_some_and(|b| b > 0.0), "{json_row}");

    // SIGTERM stops serve-all and every server it started
    let pid = serve_all.0.id().to_string();
    assert!(marked(&mark).len() > 1, "serve-all's servers are not running");
    let killed = Command::new("kill").args(["-TERM", &pid]).status().expect("kill");
    assert!(killed.success());
    let _ = serve_all.0.wait();
    assert_eq!(none_left(&mark), Vec::<String>::new(), "processes left after serve-all stopped");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn servers_that_do_not_answer_fail_their_rows() {
    // a port nobody listens on
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
    let out = std::env::temp_dir().join(format!("seed-noservers-{}", std::process::id()));
    let mark = format!("no-servers-{}", std::process::id());
    let run = Command::new(env!("CARGO_BIN_EXE_seed"))
        .args(["--tiny", "--only", "1,2", "--protocols", "hessian2,json,java-hessian2"])
        .args(["--servers", &format!("http://127.0.0.1:{port}/servers"), "--out"])
        .arg(&out)
        .env("SEED_TEST_MARK", &mark)
        .output()
        .expect("run seed --servers");
    assert_eq!(run.status.code(), Some(1), "rows without their servers fail the run");
    let report = std::fs::read_to_string(out.join("REPORT.md")).expect("report still written");
    assert!(report.contains("## Failed rows") && report.contains("## Two machines"), "{report}");
    assert!(report.contains("The server directory could not be read"), "{report}");
    let json: Value = serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json"))
        .expect("results.json is JSON");
    assert!(json["servers"]["error"].as_str().is_some_and(|e| e.contains("cannot read the server directory")));
    for e in json["experiments"].as_array().expect("experiments") {
        for f in e["figures"].as_array().expect("figures") {
            if f["id"] == "exp2-w2-shared" {
                continue; // a codec-level figure: no server
            }
            for s in f["series"].as_array().expect("series") {
                if s["status"] == "skipped" {
                    continue; // Java missing here
                }
                assert_eq!(s["status"], "failed", "{} {}", f["id"], s["id"]);
                let reason = text(s, "reason");
                assert!(reason.contains(&format!("127.0.0.1:{port}")), "{} {}: {reason}", f["id"], s["id"]);
            }
        }
    }
    assert_eq!(none_left(&mark), Vec::<String>::new(), "processes left after the run");
    let _ = std::fs::remove_dir_all(&out);
}
