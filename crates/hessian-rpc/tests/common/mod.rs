//! Shared helpers of the interop tests: a Java server process guard, the Rust services the Java
//! clients call, and a runner for the Java client.
#![allow(dead_code)]

use hessian::Value;
use hessian_demo::{bench_service, test2_service};
use hessian_rpc::{HessianServer, Service, ServiceError};
use hessian_testkit::java::Java;
use hessian_testkit::structs::{self, w2};
use std::io::{BufRead, BufReader};
use std::process::Child;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A Java server process (`RpcJavaServer`, or another that prints `PORT n` first), killed on
/// drop.
pub struct JavaServer {
    child: Child,
    /// The port it listens on (127.0.0.1).
    pub port: u16,
}

impl JavaServer {
    /// Starts `RpcJavaServer` and waits for its `PORT n` line.
    pub fn start(java: &Java) -> JavaServer {
        Self::start_class(java, "RpcJavaServer", &["0"])
    }

    /// Starts `class args…` and waits for its `PORT n` line.
    pub fn start_class(java: &Java, class: &str, args: &[&str]) -> JavaServer {
        Self::start_with(java, hessian_testkit::java::JVM_OPTS, class, args)
    }

    /// [`start_class`](Self::start_class) with the JVM options `opts`.
    pub fn start_with(java: &Java, opts: &[&str], class: &str, args: &[&str]) -> JavaServer {
        let mut child = java.spawn_with(opts, class, args);
        let stdout = child.stdout.take().expect("java stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("read PORT line");
        let port = line.trim().strip_prefix("PORT ").and_then(|p| p.parse().ok());
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{class} {args:?} did not print its port: {line:?}");
        };
        JavaServer { child, port }
    }

    /// Starts `class port extra…` on `port` (a restart in place), retrying while the port is
    /// still taken.
    pub fn start_on(java: &Java, class: &str, port: u16, extra: &[&str]) -> JavaServer {
        Self::start_on_with(java, hessian_testkit::java::JVM_OPTS, class, port, extra)
    }

    /// [`start_on`](Self::start_on) with the JVM options `opts`.
    pub fn start_on_with(java: &Java, opts: &[&str], class: &str, port: u16, extra: &[&str]) -> JavaServer {
        let port_s = port.to_string();
        let args: Vec<&str> = std::iter::once(port_s.as_str()).chain(extra.iter().copied()).collect();
        for _ in 0..20 {
            let mut child = java.spawn_with(opts, class, &args);
            let mut line = String::new();
            let _ = BufReader::new(child.stdout.take().expect("java stdout")).read_line(&mut line);
            if line.trim() == format!("PORT {port}") {
                return JavaServer { child, port };
            }
            let _ = child.kill();
            let _ = child.wait();
            std::thread::sleep(std::time::Duration::from_millis(250));
        }
        panic!("could not start {class} on port {port}");
    }

    /// `GET /stats` of a `NegotiatingServer`: its `key=value` counters.
    pub fn stats(&self) -> std::collections::HashMap<String, String> {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).expect("connect for /stats");
        s.write_all(b"GET /stats HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
        body.split_whitespace().filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_owned(), v.to_owned())).collect()
    }

    /// `http://127.0.0.1:PORT/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{}", self.port, path)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        self.url("")
    }

    /// Stops the server (as dropping it does).
    pub fn stop(self) {}
}

impl Drop for JavaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Rust implementation of `RpcOverloadService` (overloads plus a dialect probe).
pub fn overload_service() -> Service {
    let int = |v: &Value| v.as_i64().unwrap_or_default();
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    Service::builder()
        .api_class("RpcOverloadService")
        .sync_method("add", &["int"], move |a| Ok(Value::String(format!("int:{}", int(&a[0])))))
        .sync_method("add", &["int", "int"], move |a| Ok(Value::String(format!("int,int:{}", int(&a[0]) + int(&a[1])))))
        .sync_method("add", &["string", "string"], move |a| {
            Ok(Value::String(format!("string,string:{}{}", s(&a[0]), s(&a[1]))))
        })
        .method("dialect", &[], |ctx, _| async move { Ok(Value::String(ctx.dialect.to_string())) })
        .build()
}

/// `RpcOverloadService` declared with the `#[service]` macro: Java's overloads as methods
/// sharing one remote name (registered as `add`, `add__N` and the mangled `add_int_int`, …).
#[hessian_rpc::service(api = "RpcOverloadService")]
pub trait Overload {
    /// `String add(int)`.
    #[hessian(name = "add")]
    async fn add_int(&self, a: i32) -> String;
    /// `String add(int, int)`.
    #[hessian(name = "add")]
    async fn add_int_int(&self, a: i32, b: i32) -> String;
    /// `String add(String, String)`.
    #[hessian(name = "add")]
    async fn add_string_string(&self, a: String, b: String) -> String;
    /// Answers `typed` (a typed method has no call context).
    async fn dialect(&self) -> String;
}

/// The implementation behind `/overload-typed`.
pub struct OverloadImpl;

impl Overload for OverloadImpl {
    async fn add_int(&self, a: i32) -> String {
        format!("int:{a}")
    }
    async fn add_int_int(&self, a: i32, b: i32) -> String {
        format!("int,int:{}", a + b)
    }
    async fn add_string_string(&self, a: String, b: String) -> String {
        format!("string,string:{a}{b}")
    }
    async fn dialect(&self) -> String {
        "typed".into()
    }
}

/// The Rust server the Java clients call: `/bench`, `/overload`, `/overload-typed` and `/test2`.
pub fn rust_server() -> HessianServer {
    rust_server_builder().build()
}

/// [`rust_server`]'s builder, for a configuration of the test's own.
pub fn rust_server_builder() -> hessian_rpc::HessianServerBuilder {
    HessianServer::builder()
        .mount("/bench", bench_service())
        .mount("/overload", overload_service())
        .mount("/overload-typed", OverloadImpl.into_service())
        .mount("/test2", test2_service())
}

/// Runs `RpcJavaClient URL MODE SUITE`, panicking with its output unless every check passed;
/// returns its standard output.
pub fn java_client(java: &Java, url: &str, mode: &str, suite: &str) -> String {
    let out = java.try_run("RpcJavaClient", &[url, mode, suite], b"");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "RpcJavaClient {url} {mode} {suite} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("summary: passed="), "{stdout}");
    stdout
}

/// `exchange(Order)` and `getItems(int)`, counting how often `exchange` ran, and `pay(Address,
/// Money)` (whose Money is not in a map learned from an `Address` alone).
pub fn counting_service(runs: Arc<AtomicUsize>) -> Service {
    let pays = runs.clone();
    Service::builder()
        .typed("exchange", move |(order,): (w2::Order,)| {
            runs.fetch_add(1, Ordering::SeqCst);
            async move {
                if order == w2::request() {
                    Ok(w2::reply())
                } else {
                    Err(ServiceError::illegal_argument("not the W2 request"))
                }
            }
        })
        .typed("getItems", |(n,): (i32,)| async move { Ok::<_, ServiceError>(structs::items(n as usize)) })
        .typed("pay", move |(a, m): (w2::Address, Option<w2::Money>)| {
            pays.fetch_add(1, Ordering::SeqCst);
            async move { Ok::<_, ServiceError>(format!("{} {}", a.city, m.map_or(0, |m| m.cents))) }
        })
        .build()
}

/// Binds `server` on `addr` with `rt` (a restart in place: retried while the port is still
/// taken).
pub fn bind_again(
    rt: &tokio::runtime::Runtime,
    server: &HessianServer,
    addr: std::net::SocketAddr,
) -> hessian_rpc::RunningServer {
    for attempt in 0.. {
        match rt.block_on(server.clone().bind(addr)) {
            Ok(r) => return r,
            Err(e) => {
                assert!(attempt < 50, "bind {addr}: {e}");
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        }
    }
    unreachable!()
}
