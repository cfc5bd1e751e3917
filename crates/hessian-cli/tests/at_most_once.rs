//! At most once behind real nginx (`docs/negotiation.md` 6.2): a call never runs twice because
//! of the type negotiation extension, whatever the intermediaries do.
//!
//! - Two `hessian serve-demo` upstreams behind nginx (round robin); the second is reached
//!   through one more nginx hop that drops the extension's headers (`proxy_hide_header`, as an
//!   intermediary that knows nothing of the extension may do). `hessian load --protocol h2.1`
//!   calls W2 `exchange` through it, four calls in flight; the executions the servers count
//!   equal the calls, whether both servers already know the W2 map (from other clients) or the
//!   hidden one keeps no map (every refusal it sends is recognised by its body alone).
//! - nginx answers 502, 503 and 504 itself to a referring call (a gateway that cannot know
//!   whether the call ran): the Rust client and the Java client (`NegotiatingProxyFactory`, run
//!   by `interop/java/src/NegotiateCheck.java gateway`) return the error and do not resend it.
//!
//! Needs nginx (and Java for the Java client): skipped with a message when missing, a failure
//! under `CI`.

mod common;

use common::{free_port, get, nginx, start_nginx_with, w2_call_file, Demo};
use hessian_demo::BenchClient;
use hessian_rpc::Client;
use hessian_testkit::structs::w2;
use std::collections::HashMap;
use std::process::Command;

/// Runs `hessian load ARGS --json` and returns its JSON report (the run must succeed).
fn load(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_hessian")).args(["load", "--json"]).args(args).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{args:?}: {text}\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{args:?}: no JSON report ({e}): {text}"))
}

/// One W2 `exchange` from a client of its own, straight to a server (so that it learns the map
/// from "another client").
fn teach(port: u16) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let bench = BenchClient::new(Client::new().proxy(&format!("http://127.0.0.1:{port}/bench")).unwrap());
        assert_eq!(*bench.exchange(w2::request()).await.expect("teach exchange"), w2::reply());
    });
}

fn executions(servers: &[&Demo]) -> (u64, Vec<HashMap<String, u64>>) {
    let stats: Vec<_> = servers.iter().map(|s| s.stats()).collect();
    (stats.iter().map(|m| get(m, "exchange")).sum(), stats)
}

#[test]
fn a_hop_that_drops_the_extension_headers_never_makes_a_call_run_twice() {
    let Some(bin) = nginx() else { return };
    let dir = std::env::temp_dir().join(format!("hessian-at-most-once-call-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let call = w2_call_file(&dir);
    const CALLS: u64 = 500;
    for both_know_the_map in [true, false] {
        // when the hidden server keeps no map, every referring call it gets is refused, and
        // the refusal (its headers dropped) is recognised by its body alone
        let hidden: Vec<String> = if both_know_the_map { vec![] } else { vec!["--type-map-cache".into(), "0".into()] };
        let (a, b) = (Demo::start(0, &[]), Demo::start(0, &hidden));
        let (front, hop) = (free_port(), free_port());
        let http = format!(
            "    upstream pair {{
        server 127.0.0.1:{a} max_fails=0;
        server 127.0.0.1:{hop} max_fails=0;
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{hop};
        location / {{
            proxy_pass http://127.0.0.1:{b};
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
            proxy_hide_header Hessian-Type-Maps;
            proxy_hide_header Hessian-Type-Map;
            proxy_hide_header Hessian-Type-Map-Unknown;
        }}
    }}
    server {{
        listen 127.0.0.1:{front};
        keepalive_requests 1000000;
        location / {{
            proxy_pass http://pair;
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
        }}
    }}",
            a = a.port,
            b = b.port
        );
        let nginx = start_nginx_with(&bin, "at-most-once", &http, front);
        let taught = if both_know_the_map {
            teach(a.port);
            teach(b.port);
            2
        } else {
            0
        };
        let url = format!("http://127.0.0.1:{front}/bench");
        let n = CALLS.to_string();
        let r = load(&[&url, "--call", &call, "-n", &n, "-c", "4", "--warmup", "0", "--protocol", "h2.1"]);
        let (ran, stats) = executions(&[&a, &b]);
        println!("both servers knew the map: {both_know_the_map}; load: {r}; servers: {stats:?}");
        assert_eq!(r["calls"].as_u64(), Some(CALLS), "{r}");
        assert_eq!(r["errors"].as_u64(), Some(0), "{r}");
        assert_eq!(ran, CALLS + taught, "every call ran exactly once: {stats:?}");
        // how often the extension was used depends on which server answered first (a plain
        // answer without the offer makes the client plain for a while): printed, not asserted
        let refused: u64 = stats.iter().map(|m| get(m, "unknown_type_map")).sum();
        let referring: u64 = stats.iter().map(|m| get(m, "referring_calls")).sum();
        println!("referring calls {referring}, refused {refused}, resends {}", r["resends"]);
        drop(nginx);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gateway_error_to_a_referring_call_is_the_calls_result_and_never_resent() {
    let Some(bin) = nginx() else { return };
    let demo = Demo::start(0, &[]);
    let (nginx, front) = gateway(&bin, &demo, "gateway-errors");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let client = Client::new();
    let bench = BenchClient::new(client.proxy(&format!("http://127.0.0.1:{front}/bench")).unwrap());
    let mut ok = 0;
    rt.block_on(async {
        // the first call is plain and establishes the map
        assert_eq!(*bench.exchange(w2::request()).await.unwrap(), w2::reply());
        ok += 1;
        for status in ["502", "503", "504"] {
            let flag = nginx.dir.join(status);
            std::fs::write(&flag, b"").unwrap();
            let before = client.type_map_stats();
            let err = bench.exchange(w2::request()).await.expect_err("the gateway's error is the call's result");
            let after = client.type_map_stats();
            assert!(err.to_string().contains(status), "{status}: {err}");
            assert_eq!(after.referring_calls - before.referring_calls, 1, "{status}: {after:?}");
            assert_eq!(after.plain_calls - before.plain_calls, 0, "{status}: not resent: {after:?}");
            assert_eq!(after.resends, 0, "{status}: {after:?}");
            std::fs::remove_file(&flag).unwrap();
            // the map is still in use afterwards
            assert_eq!(*bench.exchange(w2::request()).await.unwrap(), w2::reply());
            ok += 1;
        }
    });
    let stats = demo.stats();
    assert_eq!(get(&stats, "exchange"), ok, "{stats:?}");
    assert_eq!(client.type_map_stats().referring_calls, 6, "{:?}", client.type_map_stats());
    drop(nginx);
}

/// nginx in front of `demo` answering 502, 503 or 504 itself while a file of that name exists in
/// its directory; returns nginx and its port.
fn gateway(bin: &std::path::Path, demo: &Demo, name: &str) -> (common::Nginx, u16) {
    let front = free_port();
    let http = format!(
        "    server {{
        listen 127.0.0.1:{front};
        location / {{
            if (-f {{dir}}/502) {{ return 502; }}
            if (-f {{dir}}/503) {{ return 503; }}
            if (-f {{dir}}/504) {{ return 504; }}
            proxy_pass http://127.0.0.1:{port};
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
        }}
    }}",
        port = demo.port
    );
    (start_nginx_with(bin, name, &http, front), front)
}

#[test]
fn the_java_client_never_resends_a_referring_call_a_gateway_answered_with_an_error() {
    let Some(bin) = nginx() else { return };
    let Some(java) = hessian_testkit::java::java() else { return };
    let demo = Demo::start(0, &[]);
    let (nginx, front) = gateway(&bin, &demo, "java-gateway-errors");
    for status in ["502", "503", "504"] {
        let before = get(&demo.stats(), "exchange");
        // one plain call (the map confirmed), READY, then one referring call after the switch
        let mut command = java.command("NegotiateCheck");
        command.args(["gateway", &format!("http://127.0.0.1:{front}")]);
        let flag = nginx.dir.join(status);
        let rest = hessian_testkit::java::run_paused(command, "READY", || std::fs::write(&flag, b"").unwrap());
        std::fs::remove_file(&flag).unwrap();
        let summary: HashMap<&str, &str> = rest
            .lines()
            .find_map(|l| l.strip_prefix("summary "))
            .unwrap_or_else(|| panic!("{status}: no summary:\n{rest}"))
            .split_whitespace()
            .filter_map(|kv| kv.split_once('='))
            .collect();
        assert_eq!(summary["outcome"], "error", "{status}: {rest}");
        assert_eq!(summary["exception"], "com.caucho.hessian.client.HessianConnectionException", "{rest}");
        assert_eq!(summary["referring_requests"], "1", "{status}: the second call referred: {rest}");
        assert_eq!(summary["resends"], "0", "{status}: not resent: {rest}");
        assert_eq!(summary["plain_requests"], "1", "{status}: only the first call was plain: {rest}");
        assert!(rest.contains(&format!("message={status}")), "{status}: {rest}");
        assert_eq!(get(&demo.stats(), "exchange"), before + 1, "{status}: only the first call ran");
    }
    drop(nginx);
}
