//! `hessian serve-demo` and `hessian call` end to end: the demo server on an ephemeral port,
//! called in every protocol, including a fault and a TestHessian2 argument check.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

struct Demo {
    child: Child,
    addr: String,
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn demo() -> Demo {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(["serve-demo", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn serve-demo");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let addr = line.split("http://").nth(1).and_then(|s| s.split_whitespace().next()).expect("address").to_owned();
    Demo { child, addr }
}

fn call(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hessian")).args(args).output().expect("run hessian call");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn call_the_demo_server_in_every_protocol() {
    let d = demo();
    let bench = format!("http://{}/bench", d.addr);
    let test2 = format!("http://{}/test2", d.addr);
    for fmt in [&["-f", "h2"][..], &["-f", "h1"], &["-f", "burlap"]] {
        let mut a = fmt.to_vec();
        a.extend(["call", "--compact", &bench, "getItems", "2"]);
        let (ok, out) = call(&a);
        assert!(ok, "{a:?}: {out}");
        assert_eq!(out.matches("org.example.remoting.Item").count(), 2, "{out}");
        let mut a = fmt.to_vec();
        a.extend(["call", "--compact", &test2, "argString_1", "\"0\""]);
        assert_eq!(call(&a), (true, "true\n".to_owned()), "{a:?}");
    }
    let (ok, out) = call(&["-f", "h1", "call", "--hybrid", "--compact", &test2, "replyLong_0x80000000"]);
    assert!(ok);
    assert_eq!(out, "{\"long\":2147483648}\n");
    let (ok, out) = call(&["call", "--compact", &bench, "getItems", "--", "-1"]);
    assert!(!ok, "a fault exits with failure");
    assert!(out.starts_with("{\"fault\":{\"code\":\"ServiceException\""), "{out}");
    assert!(out.contains("java.lang.IllegalArgumentException"), "{out}");
}

fn hessian(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hessian")).args(args).output().expect("run hessian")
}

#[test]
fn a_saved_raw_reply_decodes_and_dumps() {
    let d = demo();
    let dir = std::env::temp_dir().join(format!("hessian-call-raw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (fmt, url, method) in
        [("h2", "test2", "replyObject_2a"), ("h1", "bench", "getItems"), ("burlap", "bench", "getItems")]
    {
        let file = dir.join(format!("{fmt}.bin"));
        let file = file.to_str().unwrap();
        let url = format!("http://{}/{url}", d.addr);
        let mut args = vec!["-f", fmt, "call", &url, method, "-o", file];
        if method == "getItems" {
            args.push("3");
        }
        let out = hessian(&args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        // the saved bytes are a complete message: decode and dump read them
        let decoded = hessian(&["decode", "--compact", file]);
        assert!(decoded.status.success(), "{fmt}: {}", String::from_utf8_lossy(&decoded.stderr));
        let json = String::from_utf8_lossy(&decoded.stdout);
        assert!(json.starts_with("{\"reply\":"), "{fmt}: {json}");
        assert!(hessian(&["dump", file]).status.success(), "{fmt}");
        // --raw writes the same bytes to standard output
        let mut raw = args[..args.len() - if method == "getItems" { 3 } else { 2 }].to_vec();
        if method == "getItems" {
            raw.push("3");
        }
        raw.push("--raw");
        let out = hessian(&raw);
        assert!(out.status.success(), "{raw:?}");
        assert_eq!(out.stdout, std::fs::read(file).unwrap(), "{fmt}");
    }
    // a fault is saved as it came (and the call still succeeds: the bytes were asked for)
    let file = dir.join("fault.bin");
    let bench = format!("http://{}/bench", d.addr);
    let out = hessian(&["call", &bench, "getItems", "-o", file.to_str().unwrap(), "--", "-1"]);
    assert!(out.status.success());
    let json = String::from_utf8_lossy(&hessian(&["decode", "--compact", file.to_str().unwrap()]).stdout).into_owned();
    assert!(json.starts_with("{\"fault\":"), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-shot HTTP server that answers `reply` to every request and sends each request head
/// it read down the channel.
fn answering(reply: &'static [u8]) -> (String, std::sync::mpsc::Receiver<String>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/svc", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { return };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // the head, then the body by its Content-Length
            while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                match s.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let text = String::from_utf8_lossy(&buf).into_owned();
            let _ = tx.send(text);
            let _ = s.write_all(reply);
        }
    });
    (url, rx)
}

/// An HTML response with `status`.
fn page(status: u16, reason: &str, html: &str) -> &'static [u8] {
    let r = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{html}",
        html.len()
    );
    Box::leak(r.into_bytes().into_boxed_slice())
}

#[test]
fn a_page_that_is_not_hessian_is_reported_not_printed() {
    let (url, _) = answering(page(200, "OK", "<html><head><title>Sign in</title></head><body>...</body>\n"));
    let out = hessian(&["call", &url, "m"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the reply is not Hessian: HTTP 200, Content-Type text/html: \"Sign in\""), "{err}");
    assert!(out.stdout.is_empty(), "nothing printed as a value");
    let (url, _) = answering(page(503, "Service Unavailable", "<html>\n<body>down for maintenance</body>\n"));
    let err = String::from_utf8_lossy(&hessian(&["call", &url, "m"]).stderr).into_owned();
    assert!(err.contains("HTTP status 503 Service Unavailable (text/html): down for maintenance"), "{err}");
}

#[test]
fn headers_and_basic_auth_are_sent() {
    let reply = b"HTTP/1.1 200 OK\r\nContent-Type: x-application/hessian\r\nConnection: close\r\nContent-Length: 5\r\n\r\nH\x02\x00R\x91";
    let (url, heads) = answering(reply);
    let out = hessian(&["call", "--compact", "-H", "X-Request-Id: 42", "--user", "aladdin:open sesame", &url, "m"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "{\"int\":1}\n");
    let head = heads.recv().unwrap();
    assert!(head.contains("\r\nX-Request-Id: 42\r\n"), "{head}");
    assert!(head.contains("\r\nAuthorization: Basic YWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\n"), "{head}");
    let out = hessian(&["call", "-H", "no colon", &url, "m"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected `Name: value`"));
}

#[test]
fn call_over_https_with_a_custom_root_and_basic_auth() {
    use hessian_rpc::auth::{AuthLayer, Layer};
    let c = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).expect("rcgen");
    let (cert, key) = (c.cert.pem(), c.signing_key.serialize_pem());
    let dir = std::env::temp_dir().join(format!("hessian-call-https-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pem = dir.join("server.pem");
    std::fs::write(&pem, &cert).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let tls = hessian_rpc::tls::server_config_from_pem(cert.as_bytes(), key.as_bytes()).unwrap();
    let server = hessian_demo::demo_builder(&Default::default()).tls(tls).build();
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let url = format!("https://127.0.0.1:{}/test2", listener.local_addr().unwrap().port());
    let guarded = AuthLayer::basic("demo", |u, p| u == "ada" && p == "secret").layer(server.clone());
    rt.spawn(server.serve_service(listener, guarded, std::future::pending()));
    let cacert = pem.to_str().unwrap();
    let out = hessian(&["call", "--compact", "--cacert", cacert, "--user", "ada:secret", &url, "argInt_47", "47"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "true\n");
    // the wrong password, and a client that does not trust the certificate
    let out = hessian(&["call", "--cacert", cacert, "--user", "ada:nope", &url, "replyNull"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("HTTP status 401"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = hessian(&["call", "--user", "ada:secret", &url, "replyNull"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("TLS handshake"), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
