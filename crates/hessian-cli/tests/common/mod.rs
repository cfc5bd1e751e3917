//! What the tests that put real nginx in front of `hessian serve-demo` share: finding nginx,
//! starting serve-demo processes and nginx with a configuration of the test's own; and the W2
//! call as a file for `hessian load --call`.
#![allow(dead_code)] // each test file uses a part

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The nginx binary: Debian's `/usr/sbin/nginx`, or `nginx` on the PATH. `None` with a printed
/// skip message when missing, a panic under `CI`.
pub fn nginx() -> Option<PathBuf> {
    let debian = Path::new("/usr/sbin/nginx");
    if debian.exists() {
        return Some(debian.to_path_buf());
    }
    if Command::new("nginx").arg("-v").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok() {
        return Some(PathBuf::from("nginx"));
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the nginx tests must run in CI but nginx is missing: run .ci/run, which installs it"
    );
    eprintln!("SKIPPING: nginx not installed (apt-get install nginx)");
    None
}

/// Sends SIGTERM to a process this test started.
pub fn terminate(child: &Child) {
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
}

/// `key=value` pairs of one line, as numbers.
pub fn pairs(line: &str) -> HashMap<String, u64> {
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .filter_map(|(k, v)| Some((k.to_owned(), v.parse().ok()?)))
        .collect()
}

pub fn get(m: &HashMap<String, u64>, k: &str) -> u64 {
    *m.get(k).unwrap_or_else(|| panic!("no {k} in {m:?}"))
}

/// One `hessian serve-demo` process.
pub struct Demo {
    child: Child,
    stdout: BufReader<ChildStdout>,
    /// The port it listens on.
    pub port: u16,
    /// Its extra options (to restart it alike).
    pub args: Vec<String>,
}

impl Demo {
    /// Starts serve-demo on `port` (0: any free port) with `extra` options; retries while a
    /// restart finds the port still taken.
    pub fn start(port: u16, extra: &[String]) -> Demo {
        for attempt in 0.. {
            let mut child = Command::new(env!("CARGO_BIN_EXE_hessian"))
                .args(["serve-demo", "--listen", &format!("127.0.0.1:{port}")])
                .args(extra)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn hessian serve-demo");
            let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
            let mut line = String::new();
            let _ = stdout.read_line(&mut line);
            let bound = line
                .split("http://127.0.0.1:")
                .nth(1)
                .and_then(|s| s.split_whitespace().next())
                .and_then(|p| p.parse::<u16>().ok());
            if let Some(p) = bound.filter(|&p| port == 0 || p == port) {
                return Demo { child, stdout, port: p, args: extra.to_vec() };
            }
            let _ = child.kill();
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            let _ = child.wait();
            assert!(attempt < 40, "serve-demo could not listen on port {port}: {line:?} {err}");
            std::thread::sleep(Duration::from_millis(50));
        }
        unreachable!()
    }

    /// `GET /stats`, parsed.
    pub fn stats(&self) -> HashMap<String, u64> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect for /stats");
        s.write_all(b"GET /stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").expect("send GET /stats");
        let mut text = String::new();
        s.read_to_string(&mut text).expect("read /stats");
        pairs(text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default())
    }

    /// Graceful stop (SIGTERM); returns the counters of the server's whole lifetime, from the
    /// line it prints after draining.
    pub fn stop(mut self) -> HashMap<String, u64> {
        terminate(&self.child);
        let mut out = String::new();
        let _ = self.stdout.read_to_string(&mut out);
        let status = self.child.wait().expect("wait for serve-demo");
        assert!(status.success(), "serve-demo on port {} exited with {status}:\n{out}", self.port);
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix("hessian serve-demo: stopped: "))
            .unwrap_or_else(|| panic!("no stopped line from serve-demo on port {}:\n{out}", self.port));
        pairs(line)
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// nginx in the foreground with its files in a temporary directory; stopped on drop.
pub struct Nginx {
    child: Child,
    /// Its temporary directory (configuration, logs).
    pub dir: PathBuf,
}

impl Nginx {
    /// What nginx logged about its upstreams: connections refused (a server between its stop
    /// and its restart) and upstream connections closed under a request (an idle keep-alive
    /// connection closed by a draining server); each was passed to the next server.
    pub fn upstream_errors(&self) -> (usize, usize) {
        let log = std::fs::read_to_string(self.dir.join("error.log")).unwrap_or_default();
        let refused = log.lines().filter(|l| l.contains("connect() failed")).count();
        let closed = log.lines().filter(|l| l.contains("prematurely closed") || l.contains("reset by peer")).count();
        (refused, closed)
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM lets the master stop its worker (a killed master would leave it running)
        terminate(&self.child);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                let _ = std::fs::remove_dir_all(&self.dir);
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port()
}

pub fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Uid:").map(|u| u.split_whitespace().nth(1) == Some("0"))))
        .unwrap_or(false)
}

/// Starts nginx in the foreground on the `http` block `http` (upstreams and servers; the
/// temporary paths and logs are added here), in a temporary directory named after `name`, and
/// waits until it listens on `port`. Inside `http`, `{dir}` stands for that directory.
pub fn start_nginx_with(bin: &Path, name: &str, http: &str, port: u16) -> Nginx {
    let dir = std::env::temp_dir().join(format!("hessian-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("nginx temp dir");
    let d = dir.display();
    // As root, the worker would run as `nobody` and could not use the temp dir.
    let user = if running_as_root() { "user root;\n" } else { "" };
    let http = http.replace("{dir}", &d.to_string());
    let conf = format!(
        "{user}worker_processes 1;
daemon off;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {d}/client_body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
{http}
}}
"
    );
    let conf_path = dir.join("nginx.conf");
    std::fs::write(&conf_path, conf).expect("write nginx.conf");
    let child = Command::new(bin)
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(&conf_path)
        .arg("-e")
        .arg(dir.join("error.log"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn nginx");
    let mut nginx = Nginx { child, dir };
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = nginx.child.try_wait() {
            let log = std::fs::read_to_string(nginx.dir.join("error.log")).unwrap_or_default();
            panic!("nginx exited ({status}):\n{log}");
        }
        assert!(Instant::now() < deadline, "nginx did not listen on port {port}");
        std::thread::sleep(Duration::from_millis(20));
    }
    nginx
}

/// The W2 `exchange` call, written to `w2-call.bin` in `dir`, for `hessian load --call`.
pub fn w2_call_file(dir: &Path) -> String {
    let mut w = hessian::serde::message::CallWriter::new(hessian::Format::Hessian2, 2, "exchange", &[], 1).unwrap();
    w.arg(&hessian_testkit::structs::w2::request()).unwrap();
    let path = dir.join("w2-call.bin");
    std::fs::write(&path, w.finish().unwrap()).unwrap();
    path.display().to_string()
}

/// A child process of a test, with the address it listens on, killed on drop.
pub struct Running {
    /// The process.
    pub child: Child,
    /// `host:port`.
    pub addr: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Jetty program `main_class` of `interop/java/src` (one that prints `PORT n` once it
/// serves), and the compiled Java it runs from; `None` (a skip) without Java or Jetty, a failure
/// under `CI`.
pub fn jetty(main_class: &str) -> Option<(Running, hessian_testkit::java::Java)> {
    let java = hessian_testkit::java::java_with_jetty()?;
    let mut child =
        java.command(main_class).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("spawn the Jetty program");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("PORT line");
    let port = line.strip_prefix("PORT ").map(str::trim).unwrap_or_else(|| panic!("{main_class} said {line:?}"));
    Some((Running { child, addr: format!("127.0.0.1:{port}") }, java))
}
