//! `hessian gateway` (issue 31 items 3 and 4) against real peers: Caucho's `HessianServlet` and
//! `BurlapServlet` in Jetty 9.4 (`interop/java/src/JettyGateway.java`) answer W1, W2, the
//! TestHessian2 conformance replies and a Java fault through the gateway exactly as `hessian
//! call` prints them, in Hessian 2, Hessian 1 and Burlap; `--api/--service` converts plain JSON
//! for a Java interface compiled by the test (`org.example.gateway.GatewayApi`); bad input, a
//! down, slow or vanishing upstream each get their documented JSON error, the gateway stays up,
//! and no call is ever sent twice.
//!
//! The Jetty tests need Java and Jetty: skipped with a message when missing, a failure under `CI`.

mod common;

use common::Running;
use serde_json::{json, Value as Json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// `hessian [-f FORMAT] gateway --listen 127.0.0.1:0 --upstream URL EXTRA…`, once it listens.
fn gateway(format: &str, upstream: &str, extra: &[&str]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(["-f", format, "gateway", "--listen", "127.0.0.1:0", "--upstream", upstream])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn hessian gateway");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("hessian gateway said {line:?}"))
        .to_owned();
    Running { child, addr }
}

/// `JettyGateway` (Caucho's servlets in Jetty); `None` (a skip) without Java or Jetty, a failure
/// under `CI`.
fn jetty() -> Option<(Running, hessian_testkit::java::Java)> {
    common::jetty("JettyGateway")
}

/// One HTTP exchange on a fresh connection: the status, the `Content-Type` and the body.
fn http(addr: &str, request: &[u8]) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).expect("connect to the gateway");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(request).expect("send");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no HTTP response: {text:?}"));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("status");
    let content_type = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type: ").map(str::to_owned))
        .unwrap_or_default();
    (status, content_type, body.to_owned())
}

fn post(addr: &str, path: &str, body: &str) -> (u16, String) {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (status, content_type, body) = http(addr, req.as_bytes());
    assert_eq!(content_type, "application/json", "{path}: {body}");
    (status, body)
}

fn get(addr: &str, path: &str) -> (u16, Json) {
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let (status, _, body) = http(addr, req.as_bytes());
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}")))
}

/// The gateway's JSON error: (status, kind), checking its shape.
fn error_of(status: u16, body: &str) -> (u16, String) {
    let j: Json = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    let e = &j["error"];
    assert_eq!(e["status"], status, "{body}");
    assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
    (status, e["kind"].as_str().unwrap_or_else(|| panic!("no kind: {body}")).to_owned())
}

/// `hessian -f FORMAT call --compact URL METHOD ARGS…`'s standard output, without its newline.
fn call(format: &str, url: &str, method: &str, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(["-f", format, "call", "--compact", url, method, "--"])
        .args(args)
        .output()
        .expect("run hessian call");
    String::from_utf8_lossy(&out.stdout).trim_end().to_owned()
}

/// The W2 request graph as typed JSON text.
fn w2_request() -> String {
    let v = hessian::serde::to_value(&hessian_testkit::structs::w2::request()).expect("W2 request");
    hessian::json::to_json(&v).to_string()
}

#[test]
fn the_gateway_answers_caucho_servlet_replies_as_call_prints_them() {
    let Some((jetty, _java)) = jetty() else { return };
    let w2 = w2_request();
    for (format, prefix) in [("h2", ""), ("h1", ""), ("burlap", "/burlap")] {
        let base = format!("http://{}{prefix}", jetty.addr);
        // W1 and W2
        let bench = format!("{base}/bench");
        let g = gateway(format, &bench, &[]);
        let (status, body) = post(&g.addr, "/getItems", "[3]");
        assert_eq!(status, 200, "{format}: {body}");
        assert_eq!(body.matches("org.example.remoting.Item").count(), 3, "{format}: {body}");
        assert_eq!(body, call(format, &bench, "getItems", &["3"]), "{format} W1");
        let (status, body) = post(&g.addr, "/exchange", &format!("[{w2}]"));
        assert_eq!(status, 200, "{format}: {body}");
        assert!(body.contains("com.squarespace.hopper.types.Order"), "{format}: {body}");
        assert_eq!(body, call(format, &bench, "exchange", &[&w2]), "{format} W2");
        // a Java fault: its class, message and causes, as call prints them, with status 500
        let faults = format!("{base}/faults");
        let g = gateway(format, &faults, &[]);
        let (status, body) = post(&g.addr, "/chain", "[\"boom\"]");
        assert_eq!(status, 500, "{format}: {body}");
        let fault: Json = serde_json::from_str(&body).unwrap();
        assert_eq!(fault["fault"]["exception"], "java.lang.IllegalStateException", "{format}: {body}");
        assert_eq!(fault["fault"]["message"], "boom", "{format}: {body}");
        assert_eq!(body, call(format, &faults, "chain", &["boom"]), "{format} fault");
        // every TestHessian2 reply, and every argument the conformance service checks
        let test2 = format!("{base}/test2");
        let g = gateway(format, &test2, &[]);
        let mut differences = Vec::new();
        for case in hessian_testkit::catalogue::test_hessian2_replies() {
            let (status, body) = post(&g.addr, &format!("/{}", case.name), "[]");
            let want = call(format, &test2, &case.name, &[]);
            if status != 200 || body != want {
                differences.push(format!("{}: gateway {status} {body}, call {want}", case.name));
            }
        }
        for &name in hessian_testkit::catalogue::ARG_METHODS {
            let arg = hessian_testkit::catalogue::arg_expectation(name).expect("catalogue value");
            let (status, body) = post(&g.addr, &format!("/{name}"), &format!("[{}]", hessian::json::to_json(&arg)));
            if (status, body.as_str()) != (200, "true") {
                differences.push(format!("{name}: {status} {body}"));
            }
        }
        assert!(differences.is_empty(), "{format}: {} differences:\n{}", differences.len(), differences.join("\n"));
        // an unknown method: Caucho's NoSuchMethodException fault, 404
        let (status, body) = post(&g.addr, "/noSuchMethod", "[]");
        assert_eq!(status, 404, "{format}: {body}");
        assert!(body.contains("NoSuchMethodException"), "{format}: {body}");
    }
    // the hybrid call of Java's proxy (`c 2 0`, a Hessian 2 reply), as call --hybrid sends it
    let bench = format!("http://{}/bench", jetty.addr);
    let g = gateway("h1", &bench, &["--hybrid"]);
    let (status, body) = post(&g.addr, "/getItems", "[2]");
    assert_eq!(status, 200, "{body}");
    let out = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(["-f", "h1", "call", "--hybrid", "--compact", &bench, "getItems", "2"])
        .output()
        .expect("run hessian call");
    assert_eq!(body, String::from_utf8_lossy(&out.stdout).trim_end());
}

#[test]
fn an_api_that_cannot_be_read_stops_the_gateway_with_a_message() {
    let out = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(["gateway", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1/x"])
        .args(["--api", "/nonexistent/api.jar", "--service", "com.example.Api"])
        .output()
        .expect("run hessian gateway");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/api.jar"), "{err}");
    // --service without --api is a usage error
    let out = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(["gateway", "--upstream", "http://127.0.0.1:1/x", "--service", "com.example.Api"])
        .output()
        .expect("run hessian gateway");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--api"));
}

#[test]
fn api_mode_converts_plain_json_for_a_compiled_java_interface() {
    let Some((jetty, java)) = jetty() else { return };
    let classes = java.classes_dir().to_str().expect("classes dir").to_owned();
    let service = "org.example.gateway.GatewayApi";
    for (format, prefix) in [("h2", ""), ("h1", ""), ("burlap", "/burlap")] {
        let upstream = format!("http://{}{prefix}/api", jetty.addr);
        let g = gateway(format, &upstream, &["--api", &classes, "--service", service]);
        let ok = |path: &str, body: &str| {
            let (status, reply) = post(&g.addr, path, body);
            assert_eq!(status, 200, "{format} {path} {body}: {reply}");
            serde_json::from_str::<Json>(&reply).unwrap()
        };
        assert_eq!(
            ok("/primitives", r#"[7, 8, 1.5, true, "x", "s"]"#),
            json!("int 7, long 8, double 1.5, boolean true, char x, String s")
        );
        assert_eq!(ok("/boxed", "[null, 5, null]"), json!("null 5 null"));
        let moved = ok("/move", r#"[{"label": "a", "x": 1, "y": 2, "tags": ["t"]}, 10, 20]"#);
        assert_eq!(moved["object"], "org.example.gateway.Point", "{moved}");
        assert_eq!(moved["fields"]["x"], json!({"int": 11}), "{moved}");
        assert_eq!(moved["fields"]["y"], json!({"int": 22}), "{moved}");
        assert_eq!(moved["fields"]["tags"], json!(["t"]), "{moved}");
        // a field left out is Java's default
        let moved = ok("/move", r#"[{"x": 1}, 0, 0]"#);
        assert_eq!(moved["fields"]["label"], Json::Null, "{moved}");
        assert_eq!(moved["fields"]["y"], json!({"int": 0}), "{moved}");
        assert_eq!(ok("/sum", "[[1, 2, 3]]"), json!({"int": 6}));
        assert_eq!(ok("/total", "[[1, 2, 3]]"), json!("java.lang.Long 6"));
        assert_eq!(ok("/lookup", r#"[{"a": 1}, "a"]"#), json!("a=1 (java.lang.Integer)"));
        assert_eq!(ok("/next", r#"["BLUE"]"#)["fields"]["name"], "RED");
        // overloads: by count, by type, by mangled name, by `name__N`
        assert_eq!(ok("/add", "[1]"), json!("add(int) 1"));
        assert_eq!(ok("/add", "[1, 2]"), json!("add(int, int) 3"));
        assert_eq!(ok("/add", r#"["a", "b"]"#), json!("add(String, String) ab"));
        assert_eq!(ok("/add_int_int", "[1, 2]"), json!("add(int, int) 3"));
        assert_eq!(ok("/add__1", "[5]"), json!("add(int) 5"));
        assert_eq!(ok("/scale", "[2.5]"), json!("scale(double) 2.5"));
        assert_eq!(ok("/scale_int", "[2]"), json!("scale(int) 2"));
        // a declared exception: the fault with its class
        let (status, body) = post(&g.addr, "/fail", r#"["oops"]"#);
        assert_eq!(status, 500, "{format}: {body}");
        let fault: Json = serde_json::from_str(&body).unwrap();
        assert_eq!(fault["fault"]["exception"], "org.example.gateway.GatewayException", "{body}");
        assert_eq!(fault["fault"]["message"], "oops", "{body}");
        // what does not fit
        for (path, body, want) in [
            ("/scale", "[2]", (400, "ambiguous-overload")),
            ("/primitives", "[7]", (400, "argument-count")),
            ("/primitives", r#"[7, 8, 1.5, true, "xy", "s"]"#, (400, "bad-argument")),
            ("/primitives", r#"[7, 8, 1.5, true, "x", 5]"#, (400, "bad-argument")),
            ("/primitives", r#"[null, 8, 1.5, true, "x", "s"]"#, (400, "bad-argument")),
            ("/primitives", r#"[2147483648, 8, 1.5, true, "x", "s"]"#, (400, "bad-argument")),
            ("/move", r#"[{"z": 1}, 1, 2]"#, (400, "bad-argument")),
            ("/next", r#"["PURPLE"]"#, (400, "bad-argument")),
            ("/add", "[true, false]", (400, "no-overload-fits")),
            ("/nope", "[]", (404, "unknown-method")),
        ] {
            let (status, reply) = post(&g.addr, path, body);
            assert_eq!(error_of(status, &reply), (want.0, want.1.to_owned()), "{format} {path} {body}: {reply}");
        }
    }
    // GET / lists the methods with their signatures and the paths that call them
    let g = gateway("h2", &format!("http://{}/api", jetty.addr), &["--api", &classes, "--service", service]);
    let (status, listing) = get(&g.addr, "/");
    assert_eq!(status, 200);
    assert_eq!(listing["service"], service);
    assert_eq!(listing["arguments"], "plain-json");
    let methods = listing["methods"].as_array().expect("methods");
    assert_eq!(methods.len(), 13, "{listing}");
    let add_int_int = methods.iter().find(|m| m["path"] == "/add_int_int").expect("add(int, int)");
    assert_eq!(add_int_int["signature"], "String add(int, int)");
    assert_eq!(add_int_int["parameters"], json!([{"type": "int"}, {"type": "int"}]));
    let fail = methods.iter().find(|m| m["name"] == "fail").expect("fail");
    assert_eq!(fail["path"], "/fail");
    assert_eq!(fail["throws"], json!(["org.example.gateway.GatewayException"]));
}

/// What a fake upstream does with each request it has read.
#[derive(Clone, Copy)]
enum Upstream {
    /// Answers this HTTP response.
    Answer(&'static [u8]),
    /// Holds the connection open without answering.
    Hang,
    /// Closes the connection without answering.
    Close,
}

/// A raw HTTP upstream on an ephemeral port; returns its URL and the request bodies it read.
fn fake_upstream(behaviour: Upstream) -> (String, Arc<Mutex<Vec<Vec<u8>>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/svc", listener.local_addr().unwrap());
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let seen = bodies.clone();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { return };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            let body = loop {
                if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length: ").and_then(|n| n.trim().parse().ok()))
                        .unwrap_or(0);
                    if buf.len() >= end + 4 + len {
                        break Some(buf[end + 4..end + 4 + len].to_vec());
                    }
                }
                match s.read(&mut chunk) {
                    Ok(0) | Err(_) => break None,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            };
            let Some(body) = body else { continue };
            seen.lock().unwrap().push(body);
            match behaviour {
                Upstream::Answer(reply) => {
                    let _ = s.write_all(reply);
                }
                Upstream::Hang => held.push(s),
                Upstream::Close => drop(s),
            }
        }
    });
    (url, bodies)
}

/// `hessian decode --compact` of `bytes`, as JSON.
fn decoded(bytes: &[u8]) -> Json {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(["decode", "--compact", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run hessian decode");
    child.stdin.take().expect("stdin").write_all(bytes).expect("write the call");
    let out = child.wait_with_output().expect("decode");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn api_mode_sends_the_java_types_and_caucho_field_order() {
    let Some(java) = hessian_testkit::java::java() else { return };
    let classes = java.classes_dir().to_str().expect("classes dir").to_owned();
    let reply = b"HTTP/1.1 200 OK\r\nContent-Type: x-application/hessian\r\nContent-Length: 5\r\n\r\nH\x02\x00RN";
    let (url, bodies) = fake_upstream(Upstream::Answer(reply));
    let g = gateway("h2", &url, &["--no-type-maps", "--api", &classes, "--service", "org.example.gateway.GatewayApi"]);
    assert_eq!(post(&g.addr, "/primitives", r#"[7, 8, 1.5, true, "x", "s"]"#), (200, "null".to_owned()));
    assert_eq!(post(&g.addr, "/move", r#"[{"tags": ["t"], "y": 2, "x": 1, "label": "a"}, 10, 20]"#).0, 200);
    assert_eq!(post(&g.addr, "/add", "[1, 2]").0, 200);
    assert_eq!(post(&g.addr, "/sum", "[[1, 2]]").0, 200);
    let bodies = bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 4, "one request per call");
    assert_eq!(
        decoded(&bodies[0]),
        json!({"call": "primitives", "args": [{"int": 7}, {"long": 8}, {"double": 1.5}, true, "x", "s"]})
    );
    // Point declares tags, label, x, y; Caucho writes label, x, y (primitive and java.lang), then tags
    let point = &decoded(&bodies[1])["args"][0];
    let order: Vec<&str> = point["fields"].as_object().expect("fields").keys().map(String::as_str).collect();
    assert_eq!(order, ["label", "x", "y", "tags"], "{point}");
    assert_eq!(point["object"], "org.example.gateway.Point");
    // an overloaded method goes by the name Caucho's skeleton mangles for it
    assert_eq!(decoded(&bodies[2])["call"], "add_int_int");
    assert_eq!(decoded(&bodies[3])["args"][0], json!({"type": "[int", "list": [{"int": 1}, {"int": 2}]}));
}

#[test]
fn bad_input_gets_documented_json_errors_and_the_gateway_stays_up() {
    let demo = common::Demo::start(0, &["--workers".into(), "1".into()]);
    let bench = format!("http://127.0.0.1:{}/bench", demo.port);
    let g = gateway("h2", &bench, &["--max-body", "1000"]);
    let good = |g: &Running| {
        let (status, body) = post(&g.addr, "/getItems", "[1]");
        assert_eq!(status, 200, "{body}");
        assert!(body.contains("org.example.remoting.Item"), "{body}");
    };
    good(&g);
    for (path, body, want) in [
        ("/getItems", "{\"n\": 1}", (400, "not-an-array")),
        ("/getItems", "[1,", (400, "not-json")),
        ("/getItems", "\u{1}", (400, "not-json")),
        ("/getItems", "[{\"long\": \"x\"}]", (400, "bad-argument")),
        ("/getItems", &format!("[{}]", "[".repeat(2000) + &"]".repeat(2000)), (413, "body-too-large")),
        ("/getItems", &format!("[\"{}\"]", "x".repeat(2000)), (413, "body-too-large")),
        ("/not-a-method", "[]", (404, "unknown-method")),
    ] {
        let (status, reply) = post(&g.addr, path, body);
        assert_eq!(error_of(status, &reply), (want.0, want.1.to_owned()), "{path} {body:.40}: {reply}");
        good(&g);
    }
    // a fault of the Rust upstream
    let (status, reply) = post(&g.addr, "/getItems", "[-1]");
    assert_eq!(status, 500, "{reply}");
    assert!(reply.contains("java.lang.IllegalArgumentException"), "{reply}");
    // the wrong HTTP method, and garbage instead of HTTP
    let (status, _, reply) = http(&g.addr, b"GET /getItems HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_eq!(error_of(status, &reply), (405, "method-not-allowed".to_owned()));
    let (status, _, reply) = http(&g.addr, b"PUT / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_eq!(error_of(status, &reply), (405, "method-not-allowed".to_owned()));
    let (status, content_type, reply) = http(&g.addr, b"\x16\x03\x01garbage\r\n\r\n");
    assert_eq!(error_of(status, &reply), (400, "bad-request".to_owned()), "{reply}");
    assert_eq!(content_type, "application/json");
    // a client that goes away mid-body
    {
        let mut s = TcpStream::connect(&g.addr).unwrap();
        let _ = s.write_all(b"POST /getItems HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n[1");
    }
    good(&g);
    // GET / describes the gateway
    let (status, about) = get(&g.addr, "/");
    assert_eq!(status, 200);
    assert_eq!(about, json!({"upstream": bench, "format": "h2", "arguments": "typed-json"}));
    // the upstream down: 502
    let down = gateway("h2", &format!("http://127.0.0.1:{}/bench", common::free_port()), &[]);
    let (status, reply) = post(&down.addr, "/getItems", "[1]");
    assert_eq!(error_of(status, &reply), (502, "upstream-failed".to_owned()), "{reply}");
    good(&g);
}

#[test]
fn a_slow_upstream_gets_504_and_no_call_is_ever_sent_twice() {
    // slow: 504 after --timeout, the call sent once
    let (url, bodies) = fake_upstream(Upstream::Hang);
    let g = gateway("h2", &url, &["--timeout", "1"]);
    let started = std::time::Instant::now();
    let (status, reply) = post(&g.addr, "/getItems", "[1]");
    assert_eq!(error_of(status, &reply), (504, "upstream-timeout".to_owned()), "{reply}");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    // an upstream that reads a call and closes without answering: 502, and the call is not
    // sent again (no connection is reused, so the client has no stale connection to retry on)
    let (closing, closed_bodies) = fake_upstream(Upstream::Close);
    let c = gateway("h2", &closing, &[]);
    for _ in 0..3 {
        let (status, reply) = post(&c.addr, "/getItems", "[1]");
        assert_eq!(error_of(status, &reply), (502, "upstream-failed".to_owned()), "{reply}");
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(closed_bodies.lock().unwrap().len(), 3, "each call sent exactly once");
    assert_eq!(bodies.lock().unwrap().len(), 1, "the slow call sent exactly once");
    // after answered calls too: one request per call
    let ok = b"HTTP/1.1 200 OK\r\nContent-Type: x-application/hessian\r\nContent-Length: 5\r\n\r\nH\x02\x00R\x91";
    let (answering, answered) = fake_upstream(Upstream::Answer(ok));
    let a = gateway("h2", &answering, &[]);
    for _ in 0..3 {
        assert_eq!(post(&a.addr, "/m", "[]"), (200, "{\"int\":1}".to_owned()));
    }
    assert_eq!(answered.lock().unwrap().len(), 3);
}

#[test]
fn the_gateway_speaks_2_1_where_the_upstream_does() {
    let demo = common::Demo::start(0, &["--workers".into(), "1".into()]);
    let bench = format!("http://127.0.0.1:{}/bench", demo.port);
    let g = gateway("h2", &bench, &[]);
    let w2 = w2_request();
    for _ in 0..3 {
        let (status, body) = post(&g.addr, "/exchange", &format!("[{w2}]"));
        assert_eq!(status, 200, "{body}");
        assert_eq!(body, call("h2", &bench, "exchange", &[&w2]));
    }
    let stats = demo.stats();
    assert!(common::get(&stats, "learned") >= 1, "{stats:?}");
    assert!(
        common::get(&stats, "referring_calls") >= 1,
        "the gateway's later calls refer to the learned map: {stats:?}"
    );
    // with --no-type-maps, plain Hessian 2: the call runs, and neither offers nor refers
    let plain = gateway("h2", &bench, &["--no-type-maps"]);
    let before = demo.stats();
    assert_eq!(post(&plain.addr, "/exchange", &format!("[{w2}]")).0, 200);
    let after = demo.stats();
    assert_eq!(common::get(&after, "exchange"), common::get(&before, "exchange") + 1, "{after:?}");
    for counter in ["plain_calls", "referring_calls"] {
        assert_eq!(common::get(&after, counter), common::get(&before, counter), "{counter}: {after:?}");
    }
}
