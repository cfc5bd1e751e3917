//! `hessian proxy` (issue 31): forwarding byte for byte, the decoded lines and records, bad
//! input and failing upstreams, the browser view in headless chromium, and Caucho's Java client
//! through the proxy to Caucho's servlets in Jetty.

mod common;

use hessian_testkit::browser::Browser;
use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn hessian(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hessian")).args(args).output().expect("run hessian")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh empty directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hessian-proxy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A running `hessian proxy`, killed on drop, with its standard output read line by line.
struct Proxy {
    child: Child,
    /// `127.0.0.1:PORT` it listens on.
    addr: String,
    /// `127.0.0.1:PORT` of the browser view, with `--ui`.
    ui: Option<String>,
    lines: mpsc::Receiver<String>,
}

impl Proxy {
    fn start(upstream: &str, extra: &[&str]) -> Proxy {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hessian"))
            .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", upstream])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn hessian proxy");
        let mut banner = String::new();
        BufReader::new(child.stderr.take().expect("stderr")).read_line(&mut banner).expect("banner");
        let after = |marker: &str| {
            banner.split(marker).nth(1).map(|s| s.split([',', '/', ' ', '\n']).next().unwrap_or_default().to_owned())
        };
        let Some(addr) = after("listening on http://") else {
            let _ = child.kill();
            panic!("hessian proxy said {banner:?}");
        };
        let ui = after("browser view on http://");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Proxy { child, addr, ui, lines }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The next line it prints (a call), within ten seconds.
    fn line(&self) -> String {
        self.lines.recv_timeout(Duration::from_secs(10)).expect("a line from hessian proxy")
    }

    /// The next `--json` line.
    fn call(&self) -> Json {
        let l = self.line();
        serde_json::from_str(&l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP exchange over a fresh connection: `request` as is, then everything until close.
fn raw_exchange(addr: &str, request: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request).unwrap();
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    got
}

/// A one-connection upstream: reads `expect` bytes, answers `response`, closes; the thread
/// returns what it read.
fn scripted_upstream(expect: usize, response: Vec<u8>) -> (String, std::thread::JoinHandle<Vec<u8>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let handle = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut got = vec![0; expect];
        s.read_exact(&mut got).unwrap();
        s.write_all(&response).unwrap();
        got
    });
    (addr, handle)
}

#[test]
fn calls_in_each_dialect_are_forwarded_printed_and_recorded_for_replay() {
    let demo = common::Demo::start(0, &["--workers".into(), "1".into()]);
    let upstream = format!("http://127.0.0.1:{}", demo.port);
    let dir = temp_dir("record");
    let rec = dir.join("rec");
    let proxy = Proxy::start(&upstream, &["--json", "--record", rec.to_str().unwrap()]);
    let cases: [(&[&str], &str, &str); 4] = [
        (&["call", "PROXY/test2", "argInt_0x30", "48"], "h2.1", r#"true"#),
        (&["--format", "h1", "call", "PROXY/test2", "argInt_0x30", "48"], "h1", "true"),
        (&["--format", "h1", "call", "--hybrid", "PROXY/test2", "argInt_0x30", "48"], "hybrid", "true"),
        (&["--format", "burlap", "call", "PROXY/test2", "argInt_0x30", "48"], "burlap", "true"),
    ];
    for (id, (args, dialect, reply)) in cases.iter().enumerate() {
        let through: Vec<String> = args.iter().map(|a| a.replace("PROXY", &proxy.url(""))).collect();
        let direct: Vec<String> = args.iter().map(|a| a.replace("PROXY", &upstream)).collect();
        let via = hessian(&through.iter().map(String::as_str).collect::<Vec<_>>());
        let plain = hessian(&direct.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(via.status.success(), "{through:?}: {}", text(&via.stderr));
        assert_eq!(text(&via.stdout), text(&plain.stdout));
        let c = proxy.call();
        assert_eq!(c["id"], id as u64 + 1, "{c}");
        assert_eq!(c["dialect"], *dialect, "{c}");
        assert_eq!(c["method"], "argInt_0x30", "{c}");
        assert_eq!(c["status"], 200, "{c}");
        assert_eq!(c["outcome"], "reply", "{c}");
        assert_eq!(c["request"]["json"]["args"], serde_json::json!([{"int": 48}]), "{c}");
        assert_eq!(c["reply"]["json"]["reply"].to_string(), *reply, "{c}");
        assert!(c["latency_ms"].as_f64().is_some_and(|ms| ms > 0.0), "{c}");
        assert!(c["request"]["head"].as_str().unwrap().starts_with("POST /test2 HTTP/1.1\r\n"), "{c}");
        assert!(c["reply"]["head"].as_str().unwrap().starts_with("HTTP/1.1 200"), "{c}");
    }
    // a fault is a fault
    let fault = hessian(&["call", &proxy.url("/test2"), "noSuchMethod"]);
    assert!(!fault.status.success());
    let c = proxy.call();
    assert_eq!((c["outcome"].as_str(), c["method"].as_str()), (Some("fault"), Some("noSuchMethod")), "{c}");

    // the record: its user's alone, an index line per call, and body files the other commands read
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&rec).unwrap().permissions().mode() & 0o777, 0o700);
    }
    let index = std::fs::read_to_string(rec.join("calls.jsonl")).expect("calls.jsonl");
    let recorded: Vec<Json> = index.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(recorded.len(), 5);
    let burlap_request = rec.join(recorded[3]["request"]["file"].as_str().expect("request file"));
    let decoded = hessian(&["decode", "--compact", burlap_request.to_str().unwrap()]);
    assert_eq!(text(&decoded.stdout).trim(), r#"{"call":"argInt_0x30","args":[{"int":48}]}"#);
    let dump = hessian(&["dump", burlap_request.to_str().unwrap()]);
    assert!(text(&dump.stdout).contains("method \"argInt_0x30\""), "{}", text(&dump.stdout));
    let reply_file = rec.join(recorded[0]["reply"]["file"].as_str().expect("reply file"));
    assert_eq!(
        text(&hessian(&["decode", "--compact", reply_file.to_str().unwrap()]).stdout).trim(),
        r#"{"reply":true}"#
    );
    let load = hessian(&[
        "load",
        "--call",
        burlap_request.to_str().unwrap(),
        &format!("{upstream}/test2"),
        "-n",
        "20",
        "--warmup",
        "0",
        "--json",
    ]);
    assert!(load.status.success(), "{}", text(&load.stderr));
    // a directory that holds a recording is not written over
    let again =
        hessian(&["proxy", "--listen", "127.0.0.1:0", "--upstream", &upstream, "--record", rec.to_str().unwrap()]);
    assert!(
        !again.status.success() && text(&again.stderr).contains("already holds a recording"),
        "{}",
        text(&again.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hessian_2_1_referring_messages_decode_through_the_maps_the_proxy_saw() {
    let demo = common::Demo::start(0, &["--workers".into(), "1".into()]);
    let upstream = format!("http://127.0.0.1:{}", demo.port);
    let dir = temp_dir("h21");
    let rec = dir.join("rec");
    let proxy = Proxy::start(&upstream, &["--json", "--record", rec.to_str().unwrap()]);
    let money = r#"{"object":"com.example.Money","fields":{"cents":{"int":5},"currency":"EUR"}}"#;
    let load = hessian(&["load", "--protocol", "h2.1", &proxy.url("/echo"), "echo", money, "-n", "3", "--warmup", "1"]);
    assert!(load.status.success(), "{}", text(&load.stderr));
    let calls: Vec<Json> = (0..4).map(|_| proxy.call()).collect();
    // the first call is plain and defines the map; the next ones refer to it, both ways
    assert!(calls[0]["request"]["hex"].as_str().unwrap().starts_with("480200"), "{}", calls[0]);
    let arg: Json = serde_json::from_str(money).unwrap();
    for c in &calls[1..] {
        assert!(c["request"]["hex"].as_str().unwrap().starts_with("4802015430"), "not referring: {c}");
        assert_eq!(c["dialect"], "h2.1");
        assert_eq!(c["request"]["json"], serde_json::json!({"call": "echo", "args": [arg]}), "{c}");
        assert_eq!(c["request"]["type_map"].as_str().map(str::len), Some(32), "{c}");
        assert_eq!(c["reply"]["json"], serde_json::json!({"reply": arg}), "{c}");
        assert!(c["reply"]["hex"].as_str().unwrap().starts_with("4802015430"), "reply not referring: {c}");
        assert_eq!(c["reply"]["type_map"].as_str().map(str::len), Some(32), "{c}");
    }
    // the record has the plain message a referring one stands for, which decode reads
    let index = std::fs::read_to_string(rec.join("calls.jsonl")).unwrap();
    let second: Json = serde_json::from_str(index.lines().nth(1).unwrap()).unwrap();
    let raw_file = rec.join(second["request"]["file"].as_str().unwrap());
    let plain_file = rec.join(second["request"]["plain_file"].as_str().expect("plain_file"));
    let decoded = hessian(&["decode", "--compact", plain_file.to_str().unwrap()]);
    assert_eq!(
        serde_json::from_slice::<Json>(&decoded.stdout).unwrap(),
        serde_json::json!({"call": "echo", "args": [arg]})
    );
    // a proxy that did not see the map says which map it lacks, and still forwards the call
    let fresh = Proxy::start(&upstream, &["--json"]);
    let body = std::fs::read(&raw_file).unwrap();
    let mut request =
        format!("POST /echo HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len()).into_bytes();
    request.extend_from_slice(&body);
    let got = text(&raw_exchange(&fresh.addr, &request));
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    let c = fresh.call();
    let why = c["request"]["error"].as_str().unwrap_or_default();
    assert!(
        why.contains("has not seen defined") && why.contains(second["request"]["type_map"].as_str().unwrap()),
        "{c}"
    );
    assert_eq!(c["request"]["offset"], 5, "{c}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn heads_and_bodies_pass_unchanged_and_big_bodies_stream_past_the_capture() {
    // a chunked request with an extension and a trailer, odd header spelling, a body of
    // 3000 bytes, through a proxy that keeps 100 of them
    let mut body = b"H\x02\x00C\x04echo\x91".to_vec();
    body.push(b'S'); // a string of 2990 characters: S len-hi len-lo
    body.extend_from_slice(&(2990u16).to_be_bytes());
    body.extend(std::iter::repeat_n(b'x', 2990));
    let mut request = b"POST /echo?x=1 HTTP/1.1\r\nHost: odd.example\r\nX-Weird:  spaced  \r\nhessian-type-maps: 1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
    for part in body.chunks(1000) {
        request.extend_from_slice(format!("{:x};ext=1\r\n", part.len()).as_bytes());
        request.extend_from_slice(part);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"0\r\nX-Trailer: t\r\n\r\n");
    let response = b"HTTP/1.1 200 OK\r\nContent-Type: x-application/hessian\r\nX-Upstream:yes\r\nContent-Length: 5\r\n\r\nH\x02\x00R\x91".to_vec();
    let (upstream, seen) = scripted_upstream(request.len(), response.clone());
    let proxy = Proxy::start(&format!("http://{upstream}"), &["--json", "--max-capture", "100"]);
    let got = raw_exchange(&proxy.addr, &request);
    assert_eq!(seen.join().unwrap(), request, "the upstream got other bytes than the client sent");
    assert_eq!(got, response, "the client got other bytes than the upstream sent");
    let c = proxy.call();
    assert_eq!(c["request"]["bytes"], 3003, "{c}");
    assert_eq!(
        (c["request"]["captured"].as_u64(), c["request"]["truncated"].as_bool()),
        (Some(100), Some(true)),
        "{c}"
    );
    assert!(c["request"]["error"].as_str().unwrap().contains("--max-capture"), "{c}");
    assert_eq!(c["dialect"], "h2.1", "{c}"); // the negotiation header
    assert_eq!(c["reply"]["json"], serde_json::json!({"reply": {"int": 1}}), "{c}");
}

#[test]
fn slow_bodies_are_streamed_in_both_directions_not_held() {
    // each half of each body goes on only after the other side has seen the first half: a proxy
    // that waited for whole bodies would stall here
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let upstream = listener.local_addr().unwrap().to_string();
    let (to_client, from_upstream) = mpsc::channel::<&str>();
    let (to_upstream, from_client) = mpsc::channel::<&str>();
    let head = b"POST /x HTTP/1.1\r\nContent-Length: 2000\r\n\r\n";
    let server = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut first = vec![0; head.len() + 1000];
        s.read_exact(&mut first).unwrap();
        to_client.send("upstream has the first half").unwrap();
        let mut second = vec![0; 1000];
        s.read_exact(&mut second).unwrap();
        s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n").unwrap();
        s.write_all(&[b'a'; 1000]).unwrap();
        from_client.recv_timeout(Duration::from_secs(10)).expect("the client never saw the first half");
        s.write_all(&[b'b'; 1000]).unwrap();
    });
    let proxy = Proxy::start(&format!("http://{upstream}"), &["--json", "--max-capture", "10"]);
    let mut c = TcpStream::connect(&proxy.addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    c.write_all(head).unwrap();
    c.write_all(&[b'x'; 1000]).unwrap();
    from_upstream.recv_timeout(Duration::from_secs(10)).expect("the upstream never saw the first half");
    c.write_all(&[b'y'; 1000]).unwrap();
    let mut reply_head = Vec::new();
    let mut byte = [0u8; 1];
    while !reply_head.ends_with(b"\r\n\r\n") {
        c.read_exact(&mut byte).unwrap();
        reply_head.push(byte[0]);
    }
    let mut first = vec![0; 1000];
    c.read_exact(&mut first).unwrap();
    assert_eq!(first, [b'a'; 1000]);
    to_upstream.send("client has the first half").unwrap();
    let mut second = vec![0; 1000];
    c.read_exact(&mut second).unwrap();
    assert_eq!(second, [b'b'; 1000]);
    server.join().unwrap();
    let call = proxy.call();
    assert_eq!((call["request"]["bytes"].as_u64(), call["reply"]["bytes"].as_u64()), (Some(2000), Some(2000)));
    assert_eq!((call["request"]["captured"].as_u64(), call["reply"]["truncated"].as_bool()), (Some(10), Some(true)));
}

#[test]
fn an_upload_longer_than_the_timeout_is_not_a_gateway_timeout() {
    // six pieces 400 ms apart: each read is within --timeout 1, the whole upload is not
    let mut request = b"POST /x HTTP/1.1\r\nContent-Length: 6\r\nConnection: close\r\n\r\n".to_vec();
    let body_at = request.len();
    request.extend_from_slice(b"abcdef");
    let response = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".to_vec();
    let (upstream, seen) = scripted_upstream(request.len(), response.clone());
    let proxy = Proxy::start(&format!("http://{upstream}"), &["--timeout", "1"]);
    let mut c = TcpStream::connect(&proxy.addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    c.write_all(&request[..body_at]).unwrap();
    for piece in request[body_at..].chunks(1) {
        std::thread::sleep(Duration::from_millis(400));
        c.write_all(piece).unwrap();
    }
    let mut got = Vec::new();
    let _ = c.read_to_end(&mut got);
    assert_eq!(text(&got), text(&response));
    assert_eq!(seen.join().unwrap(), request);
}

#[test]
fn bad_bodies_are_forwarded_and_shown_and_failing_upstreams_give_502_or_504() {
    // not Hessian: forwarded as is, shown with the decoder's error and offset
    let junk = b"POST /x HTTP/1.1\r\nContent-Length: 9\r\nConnection: close\r\n\r\n\x01\x02junk!!!".to_vec();
    let response = b"HTTP/1.1 500 Oops\r\nContent-Length: 4\r\nConnection: close\r\n\r\nH\x02\x00R".to_vec();
    let (upstream, seen) = scripted_upstream(junk.len(), response.clone());
    let proxy = Proxy::start(&format!("http://{upstream}"), &[]);
    assert_eq!(raw_exchange(&proxy.addr, &junk), response);
    assert_eq!(seen.join().unwrap(), junk);
    let line = proxy.line();
    assert!(line.contains("undecoded at offset"), "{line}");
    assert!(line.contains("-> undecoded at offset 4: unexpected end of input"), "{line}");
    assert!(line.contains(" 500 "), "{line}");
    drop(proxy);

    // beyond the decoder's limits (lists nested 300 deep): forwarded, shown with the limit
    let mut deep = b"H\x02\x00C\x04echo\x91".to_vec();
    deep.extend(std::iter::repeat_n(b'W', 300).chain(std::iter::repeat_n(b'Z', 300)));
    let mut request =
        format!("POST /x HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", deep.len()).into_bytes();
    request.extend_from_slice(&deep);
    let (upstream, seen) = scripted_upstream(request.len(), response.clone());
    let proxy = Proxy::start(&format!("http://{upstream}"), &["--json"]);
    assert_eq!(raw_exchange(&proxy.addr, &request), response);
    assert_eq!(seen.join().unwrap(), request);
    let c = proxy.call();
    assert!(c["request"]["error"].as_str().unwrap().contains("depth limit of 256 exceeded"), "{c}");
    assert_eq!(c["request"]["offset"], 267, "{c}");
    assert_eq!(c["dialect"], "h2", "{c}");
    drop(proxy);

    // the upstream is down: 502, saying so
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let down = closed.local_addr().unwrap().to_string();
    drop(closed);
    let proxy = Proxy::start(&format!("http://{down}"), &["--json"]);
    let got = text(&raw_exchange(&proxy.addr, b"POST /x HTTP/1.1\r\nContent-Length: 1\r\n\r\nN"));
    assert!(got.starts_with("HTTP/1.1 502 Bad Gateway\r\n"), "{got}");
    assert!(got.contains(&format!("upstream {down}: cannot connect")), "{got}");
    let c = proxy.call();
    assert_eq!((c["status"].as_u64(), c["outcome"].as_str()), (Some(502), Some("error")), "{c}");
    assert_eq!(c["request"]["json"], Json::Null, "{c}"); // `N` is Hessian 2's null
    drop(proxy);

    // the upstream accepts and says nothing: 504 after --timeout
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_addr = silent.local_addr().unwrap().to_string();
    let proxy = Proxy::start(&format!("http://{silent_addr}"), &["--timeout", "1"]);
    let started = std::time::Instant::now();
    let got = text(&raw_exchange(&proxy.addr, b"POST /x HTTP/1.1\r\nContent-Length: 1\r\n\r\nN"));
    assert!(got.starts_with("HTTP/1.1 504 Gateway Timeout\r\n"), "{got}");
    assert!(got.contains("did not answer within 1s"), "{got}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(proxy.line().contains(" 504 "));
    drop(silent);

    // cut short: a reply that ends early reaches the client as far as it came
    let cut = b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nH\x02\x00R".to_vec();
    let request = b"POST /x HTTP/1.1\r\nContent-Length: 1\r\n\r\nN".to_vec();
    let (upstream, _seen) = scripted_upstream(request.len(), cut.clone());
    let proxy = Proxy::start(&format!("http://{upstream}"), &["--json"]);
    assert_eq!(raw_exchange(&proxy.addr, &request), cut);
    let c = proxy.call();
    assert!(c["error"].as_str().unwrap().contains("response cut short"), "{c}");
}

#[test]
fn the_view_stays_on_loopback_unless_opened() {
    let refused =
        hessian(&["proxy", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:9", "--ui", "0.0.0.0:0"]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("--ui-open"), "{}", text(&refused.stderr));
    let proxy = Proxy::start("http://127.0.0.1:9", &["--ui", "127.0.0.1:0"]);
    let ui = proxy.ui.clone().expect("ui address");
    let page = text(&raw_exchange(&ui, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    assert!(page.starts_with("HTTP/1.1 200 OK") && page.contains("<title>hessian proxy</title>"), "{page}");
    // a page of another site that resolves its name to 127.0.0.1 (DNS rebinding) gets nothing
    let rebound = text(&raw_exchange(&ui, b"GET /api/calls HTTP/1.1\r\nHost: evil.example:8090\r\n\r\n"));
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
}

#[test]
fn the_browser_view_shows_calls_live_decoded_filtered_and_escaped() {
    let Some(chromium) = hessian_testkit::browser::chromium() else { return };
    let demo = common::Demo::start(0, &["--workers".into(), "1".into()]);
    let proxy = Proxy::start(&format!("http://127.0.0.1:{}", demo.port), &["--ui", "127.0.0.1:0"]);
    let ui = proxy.ui.clone().expect("ui address");
    // the page is open, has polled once and lists nothing
    let mut page = Browser::open(&chromium, &format!("http://{ui}/"));
    let rows = "document.querySelectorAll('#calls tr').length";
    page.wait_for(
        "document.getElementById('state').textContent === 'live: 0 calls'",
        Duration::from_secs(20),
        "the page did not poll",
    );
    assert_eq!(page.evaluate(rows), 0);

    // calls made now appear without a reload
    let hostile = r#"<script>document.title='pwned'</script><b id="injected">bold</b>"#;
    for args in [
        vec!["call".to_owned(), proxy.url("/test2"), "argInt_0x30".into(), "48".into()],
        vec!["call".to_owned(), proxy.url("/echo"), "echo".into(), hostile.into()],
        vec!["--format".to_owned(), "burlap".into(), "call".into(), proxy.url("/echo"), r#"<i id="m">m</i>"#.into()],
        vec![
            "--format".to_owned(),
            "h1".into(),
            "call".into(),
            proxy.url("/test2"),
            "argString_0".into(),
            r#""""#.into(),
        ],
    ] {
        let _ = hessian(&args.iter().map(String::as_str).collect::<Vec<_>>());
        proxy.line();
    }
    page.wait_for(&format!("{rows} === 4"), Duration::from_secs(20), "the calls did not appear live");
    let list = page.evaluate("document.getElementById('calls').textContent").as_str().unwrap_or_default().to_owned();
    for needle in ["argInt_0x30", r#"{"int":48}"#, "argString_0", "echo", "h1", "burlap", "h2.1", "fault"] {
        assert!(list.contains(needle), "{needle} not in the list: {list}");
    }
    // HTML in a string argument and in a method name is text, never markup
    let no_markup = "document.getElementById('injected') === null && document.getElementById('m') === null";
    assert_eq!(page.evaluate(no_markup), true);
    assert_eq!(page.evaluate("document.title"), "hessian proxy");
    let html = page.evaluate("document.body.innerHTML").as_str().unwrap_or_default().to_owned();
    assert!(
        html.contains(r#"&lt;script&gt;document.title='pwned'&lt;/script&gt;&lt;b id=\"injected\"&gt;bold&lt;/b&gt;"#),
        "{html}"
    );
    assert!(html.contains(r#"&lt;i id="m"&gt;m&lt;/i&gt;"#), "{html}");
    assert!(!html.contains(r#"<b id="injected">"#) && !html.contains(r#"<i id="m">"#), "{html}");

    // filters: by method, dialect and outcome
    let filter = |page: &mut Browser, id: &str, value: &str| {
        page.evaluate(&format!(
            "(() => {{ const e = document.getElementById('{id}'); e.value = {value:?}; \
             e.dispatchEvent(new Event('input')); return document.querySelectorAll('#calls tr').length; }})()"
        ))
    };
    assert_eq!(filter(&mut page, "f-method", "argInt"), 1);
    assert_eq!(filter(&mut page, "f-method", ""), 4);
    assert_eq!(filter(&mut page, "f-dialect", "burlap"), 1);
    assert_eq!(filter(&mut page, "f-dialect", ""), 4);
    assert_eq!(filter(&mut page, "f-status", "fault"), 1);
    assert_eq!(filter(&mut page, "f-status", "reply"), 3);
    assert_eq!(filter(&mut page, "f-status", ""), 4);

    // a selected call side by side: typed JSON and the annotated dump of request and reply
    page.evaluate(r#"document.querySelector('#calls tr[data-id="2"]').click()"#);
    let side = |page: &mut Browser, id: &str| {
        page.evaluate(&format!("document.getElementById('{id}').textContent")).as_str().unwrap_or_default().to_owned()
    };
    let (request, reply) = (side(&mut page, "request-side"), side(&mut page, "reply-side"));
    assert!(request.contains(r#""call": "echo""#) && request.contains("pwned"), "{request}");
    assert!(request.contains("meaning") && request.contains(r#"method "echo""#), "no dump: {request}");
    assert!(reply.contains(r#""reply": "<script>"#) && reply.contains("status 200"), "{reply}");
}

/// Whether `a` and `b` recorded the same exchanges, byte for byte: the same heads and bodies.
fn same_records(a: &Path, b: &Path) -> usize {
    let read = |d: &Path| -> Vec<Json> {
        std::fs::read_to_string(d.join("calls.jsonl"))
            .expect("calls.jsonl")
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect()
    };
    // in the order the requests arrived (lines are in the order exchanges ended, which differs
    // when a client leaves before the end of a reply and goes on with a new connection)
    let by_id = |mut r: Vec<Json>| {
        r.sort_by_key(|c| c["id"].as_u64());
        r
    };
    let (ra, rb) = (by_id(read(a)), by_id(read(b)));
    assert_eq!(ra.len(), rb.len());
    for (x, y) in ra.iter().zip(&rb) {
        assert_eq!(x["id"], y["id"]);
        for side in ["request", "reply"] {
            assert_eq!(x[side]["head"], y[side]["head"], "{side} heads differ: {x} / {y}");
            assert_eq!(x[side]["truncated"], false);
            let body = |d: &Path, c: &Json| c[side]["file"].as_str().map(|f| std::fs::read(d.join(f)).expect("body"));
            assert_eq!(body(a, x), body(b, y), "{side} bodies differ: {x}");
        }
    }
    ra.len()
}

/// A Java program of the tests, killed on drop.
struct JavaProcess(Child);

impl Drop for JavaProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the Java server `class` on a free port; returns it and its `http://127.0.0.1:PORT`.
fn start_java(java: &hessian_testkit::java::Java, class: &str) -> (JavaProcess, String) {
    let mut child = java.command(class).arg("0").stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect(class);
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("PORT line");
    let running = JavaProcess(child);
    let port = line.trim().strip_prefix("PORT ").unwrap_or_else(|| panic!("{class} said {line:?}")).to_owned();
    (running, format!("http://127.0.0.1:{port}"))
}

#[test]
fn java_negotiating_client_and_server_speak_2_1_through_the_proxy() {
    let Some(java) = hessian_testkit::java::java() else { return };
    let (_server, base) = start_java(&java, "NegotiatingServer");
    let proxy = Proxy::start(&base, &["--json"]);
    let calls = 20;
    let out = java.try_run("NegotiateCheck", &["w2", &proxy.url(""), &calls.to_string()], b"");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "NegotiateCheck through the proxy: {stdout}\n{}", text(&out.stderr));
    // the negotiation headers went through: the client learned that the server speaks 2.1
    let summary = stdout.lines().find(|l| l.starts_with("summary ")).unwrap_or_else(|| panic!("{stdout}"));
    for want in [format!("ok={calls}"), "failed=0".into(), "support=AWARE".into(), "plain_requests=1".into()] {
        assert!(summary.split_whitespace().any(|kv| kv == want), "{want} not in {summary}");
    }
    let seen: Vec<Json> = (0..calls).map(|_| proxy.call()).collect();
    assert!(
        seen[0]["request"]["head"].as_str().unwrap().to_ascii_lowercase().contains("hessian-type-maps: 1"),
        "{}",
        seen[0]
    );
    assert!(
        seen[0]["reply"]["head"].as_str().unwrap().to_ascii_lowercase().contains("hessian-type-map:"),
        "{}",
        seen[0]
    );
    for c in &seen[1..] {
        assert_eq!((c["dialect"].as_str(), c["method"].as_str()), (Some("h2.1"), Some("exchange")), "{c}");
        assert!(c["request"]["type_map"].is_string(), "not referring: {c}");
        let order = &c["request"]["json"]["args"][0];
        assert_eq!(order["object"], "com.squarespace.hopper.types.Order", "{c}");
        assert_eq!(c["reply"]["json"]["reply"]["object"], "com.squarespace.hopper.types.Order", "{c}");
    }
}

#[test]
fn caucho_client_through_the_proxy_to_caucho_servlets_passes_every_check() {
    let Some(java) = hessian_testkit::java::java_with_jetty() else { return };
    let (_jetty, jetty) = start_java(&java, "JettyProxyPeers");
    // client -> outer proxy -> inner proxy -> Jetty: what the outer one forwards is what the
    // inner one receives, and what the inner one returns is what the outer one hands back
    let dir = temp_dir("java");
    let (outer_rec, inner_rec) = (dir.join("outer"), dir.join("inner"));
    let inner = Proxy::start(&jetty, &["--json", "--record", inner_rec.to_str().unwrap()]);
    let outer = Proxy::start(&inner.url(""), &["--json", "--record", outer_rec.to_str().unwrap()]);
    let run = |base: &str, path: &str, mode: &str, suite: &str| {
        let out = java.try_run("RpcJavaClient", &[&format!("{base}{path}"), mode, suite], b"");
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "RpcJavaClient {base}{path} {mode} {suite}: {stdout}\n{}", text(&out.stderr));
        let ok: Vec<&str> = stdout.lines().filter(|l| l.starts_with("ok ")).collect();
        let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(failed.is_empty(), "{mode} {suite} through {base}: {failed:?}");
        ok.len()
    };
    let mut calls = 0;
    for mode in ["h2", "h1", "hybrid"] {
        let direct = run(&jetty, "/test2", mode, "test2");
        let proxied = run(&outer.url(""), "/test2", mode, "test2");
        assert!(proxied >= 180 && proxied == direct, "{mode}: {proxied} checks through the proxy, {direct} direct");
        eprintln!("{mode}: {proxied} TestHessian2 checks passed through the proxy");
        calls += proxied;
    }
    let direct = run(&jetty, "/burlap/bench", "burlap", "bench");
    let proxied = run(&outer.url(""), "/burlap/bench", "burlap", "bench");
    assert!(proxied >= 11 && proxied == direct, "burlap W1/W2: {proxied} through the proxy, {direct} direct");
    calls += proxied;
    // every call was decoded: a method, and the dialect the client spoke
    let mut by_dialect = std::collections::HashMap::<String, usize>::new();
    let mut exchanges = 0;
    while let Ok(l) = outer.lines.recv_timeout(Duration::from_secs(3)) {
        let c: Json = serde_json::from_str(&l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
        // Java's proxies also send the odd GET (`toString` of a Burlap proxy), which is no call
        if c["http_method"] == "POST" {
            assert!(c["method"].is_string(), "{c}");
            assert!(c["request"]["error"].is_null(), "{c}");
        }
        *by_dialect.entry(c["dialect"].as_str().unwrap_or("-").to_owned()).or_default() += 1;
        exchanges += 1;
    }
    assert!(exchanges >= calls, "{exchanges} exchanges for {calls} checks");
    for d in ["h2", "h1", "hybrid", "burlap"] {
        assert!(by_dialect.get(d).is_some_and(|n| *n > 0), "no {d} call in {by_dialect:?}");
    }
    drop(outer);
    drop(inner);
    assert_eq!(same_records(&outer_rec, &inner_rec), exchanges);
    let _ = std::fs::remove_dir_all(&dir);
}
