//! `hessian call` and the client explain themselves (issue 27 item 5), against real servers: the
//! demo server, Caucho's `HessianServlet` in Jetty 9.4 (a fault with a cause chain, and Jetty's
//! HTML error page), and a raw TCP server that cuts a chunked reply short.

mod common;

use common::Running;
use hessian::Value;
use hessian_rpc::{BlockingClient, Client, Error};
use std::io::{Read, Write};
use std::process::{Command, Output};

fn hessian(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hessian")).args(args).output().expect("run hessian")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `hessian serve-demo` on an ephemeral port, on one worker.
fn demo() -> common::Demo {
    common::Demo::start(0, &["--workers".into(), "1".into()])
}

/// `HessianServlet` serving `RpcFaultServiceImpl` at `/faults` in Jetty (`JettyFaults.java`);
/// `None` (a skip) without Java or Jetty, a failure under `CI`.
fn jetty() -> Option<Running> {
    common::jetty("JettyFaults").map(|(running, _)| running)
}

#[test]
fn bare_words_are_strings_and_json_stays_json() {
    let d = demo();
    let echo = format!("http://127.0.0.1:{}/echo", d.port);
    for (arg, want) in [
        ("widget", "\"widget\""),
        ("hello world", "\"hello world\""),
        ("1.2.3", "\"1.2.3\""),
        ("\"42\"", "\"42\""),
        ("42", "{\"int\":42}"),
        ("true", "true"),
        ("null", "null"),
        ("{\"long\": 7}", "{\"long\":7}"),
    ] {
        let out = hessian(&["call", "--compact", &echo, "echo", arg]);
        assert!(out.status.success(), "{arg}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout).trim_end(), want, "{arg}");
    }
    // something that tries to be JSON and is not: the message says what strings need
    let out = hessian(&["call", &echo, "echo", "{\"broken"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("argument 1: invalid JSON") && err.contains("a string needs JSON quotes"), "{err}");
}

#[test]
fn a_java_fault_prints_class_message_causes_and_top_frames() {
    let Some(j) = jetty() else { return };
    let url = format!("http://{}/faults", j.addr);
    let out = hessian(&["call", "--compact", &url, "chain", "boom"]);
    assert!(!out.status.success(), "a fault exits with failure");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the fault as JSON");
    let fault = &json["fault"];
    assert_eq!(fault["code"], "ServiceException");
    assert_eq!(fault["message"], "boom");
    assert_eq!(fault["exception"], "java.lang.IllegalStateException");
    assert_eq!(
        fault["causes"],
        serde_json::json!(["java.io.IOException: disk gone", "java.lang.ArithmeticException: / by zero"])
    );
    assert!(fault.get("detail").is_none(), "no detail without --full: {json}");
    let err = text(&out.stderr);
    assert!(err.starts_with("hessian: error: the server answered with a fault: ServiceException: boom\n"), "{err}");
    assert!(err
        .contains("\njava.lang.IllegalStateException: boom\n\tat RpcFaultServiceImpl.chain(RpcFaultServiceImpl.java:"));
    assert!(err.contains("\nCaused by: java.io.IOException: disk gone\n"), "{err}");
    assert!(err.contains("\nCaused by: java.lang.ArithmeticException: / by zero\n"), "{err}");
    // five frames of each of the three exceptions, and how many were left out
    assert_eq!(err.matches("\n\tat ").count(), 15, "{err}");
    assert_eq!(err.matches(" more\n").count(), 3, "{err}");
    assert!(err.contains("--full prints them all"), "{err}");
    assert!(err.lines().count() < 30, "{} lines:\n{err}", err.lines().count());

    let full = hessian(&["call", "--compact", "--full", &url, "chain", "boom"]);
    assert!(!full.status.success());
    let err = text(&full.stderr);
    assert!(err.matches("\n\tat ").count() > 15, "{err}");
    assert!(!err.contains(" more\n") && !err.contains("--full"), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&full.stdout).expect("the fault as JSON");
    assert!(json["fault"]["detail"].is_object(), "--full keeps the detail: {json}");

    // the client's Debug form of the same fault is a summary, not the frames
    let rt = tokio::runtime::Runtime::new().unwrap();
    let e = rt.block_on(async { Client::new().proxy(&url)?.call("chain", vec![Value::string("boom")]).await });
    let e = e.expect_err("a fault");
    let debug = format!("{e:?}");
    assert!(debug.len() < 600, "{} bytes: {debug}", debug.len());
    assert!(debug.contains("java.lang.IllegalStateException") && debug.contains("java.io.IOException"), "{debug}");
    assert!(debug.contains("frames: "), "{debug}");
}

#[test]
fn jettys_html_error_page_shows_its_title() {
    let Some(j) = jetty() else { return };
    // a Burlap call is not Hessian: HessianServlet fails and Jetty answers its HTML error page
    let url = format!("http://{}/faults", j.addr);
    let out = hessian(&["-f", "burlap", "call", &url, "chain", "boom"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("HTTP status 500 Internal Server Error (text/html;charset=iso-8859-1): Error 500 ")
            && err.contains("java.io.IOException: < 0x3c is an unknown Hessian message code."),
        "{err}"
    );
    assert!(!err.contains("<html>") && !err.contains("<title>"), "{err}");
}

/// A raw HTTP server that reads one request, answers 200 with a chunked body that promises 256
/// bytes in its first chunk, sends 40 of them and closes the connection.
fn cutting_server() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/cut", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { return };
            // the whole request (head and Content-Length body), so that closing sends FIN, not RST
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            loop {
                if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse().ok())
                        .unwrap_or(0);
                    if buf.len() >= end + 4 + len {
                        break;
                    }
                }
                match s.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let mut reply =
                b"HTTP/1.1 200 OK\r\nContent-Type: x-application/hessian\r\nTransfer-Encoding: chunked\r\n\r\n100\r\n"
                    .to_vec();
            reply.extend_from_slice(&[b'x'; 40]);
            let _ = s.write_all(&reply);
            let _ = s.flush();
        }
    });
    url
}

#[test]
fn a_reply_cut_short_says_so() {
    let url = cutting_server();
    let out = hessian(&["call", &url, "m"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "the server closed the connection in the middle of the reply after 40 bytes; see the server's log"
        ),
        "{err}"
    );
    // the same from the library
    let e = BlockingClient::new().proxy(&url).unwrap().call("m", vec![]).expect_err("cut short");
    assert!(matches!(&e, Error::Transport(m) if m.contains("after 40 bytes; see the server's log")), "{e:?}");
}

#[test]
fn blocking_client_new_mirrors_client_new() {
    let d = demo();
    let url = format!("http://127.0.0.1:{}/echo", d.port);
    let blocking = BlockingClient::new();
    assert_eq!(blocking.config().dialect, Client::new().config().dialect);
    let got = blocking.proxy(&url).unwrap().call("echo", vec![Value::string("widget")]).unwrap();
    assert_eq!(got, Value::string("widget"));
    let burlap = BlockingClient::with_builder(Client::builder().dialect(hessian_rpc::Dialect::BURLAP));
    let got = burlap.proxy(&url).unwrap().call("echo", vec![Value::Int(7)]).unwrap();
    assert_eq!(got, Value::Int(7));
    // a bad URL is the proxy's error, as with Client
    assert!(matches!(BlockingClient::new().proxy("ftp://x/y"), Err(Error::InvalidUrl { .. })));
}
