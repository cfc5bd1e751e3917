//! Debian's `chromium`, headless, for the tests of browser views (`hessian proxy --ui`): a page
//! opened and driven over the DevTools protocol (a minimal websocket client, no dependency).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The chromium binary, or `None` with a printed skip message when it is missing; under `CI` a
/// missing chromium is a test failure, never a skip.
pub fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser"] {
        let found = Command::new(name).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
        if found.is_ok_and(|s| s.success()) {
            return Some(PathBuf::from(name));
        }
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the browser tests must run in CI but chromium is missing: run .ci/run, which installs it"
    );
    eprintln!("SKIPPING browser test: chromium not installed (apt-get install chromium)");
    None
}

/// A headless chromium showing one page, driven over the DevTools protocol; killed on drop.
pub struct Browser {
    child: Child,
    profile: PathBuf,
    page: TcpStream,
    next_id: u64,
}

/// The flags every run needs: headless as root, a fresh profile, and none of the background
/// traffic that would flood a closed network.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-port=0",
];

/// `GET path` on `127.0.0.1:port`, the body of the answer.
fn http_get(port: u16, path: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect to DevTools");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default()
}

impl Browser {
    /// Starts chromium on `url` and connects to the page's DevTools endpoint.
    pub fn open(chromium: &Path, url: &str) -> Browser {
        static RUNS: AtomicU64 = AtomicU64::new(0);
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        let profile = std::env::temp_dir().join(format!("hessian-chromium-{}-{run}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("chromium profile directory");
        let mut child = Command::new(chromium)
            .args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chromium");
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"; the rest of standard
        // error is drained so that chromium never blocks on it
        let (tx, rx) = std::sync::mpsc::channel();
        let stderr = child.stderr.take().expect("chromium stderr");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("ws://127.0.0.1:").nth(1) {
                    let _ = tx.send(rest.split('/').next().and_then(|p| p.parse::<u16>().ok()));
                }
            }
        });
        let port = match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(Some(p)) => p,
            other => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium did not open its DevTools port: {other:?}");
            }
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        let ws = loop {
            let targets: serde_json::Value = serde_json::from_str(&http_get(port, "/json/list")).unwrap_or_default();
            let page = targets.as_array().into_iter().flatten().find(|t| t["type"] == "page");
            if let Some(ws) = page.and_then(|p| p["webSocketDebuggerUrl"].as_str()) {
                break ws.to_owned();
            }
            assert!(Instant::now() < deadline, "no page target in chromium: {targets}");
            std::thread::sleep(Duration::from_millis(100));
        };
        let path = ws.split_once(&format!("127.0.0.1:{port}")).map(|(_, p)| p.to_owned()).expect("ws path");
        let mut page = TcpStream::connect(("127.0.0.1", port)).expect("connect to the page");
        page.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(
            page,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            page.read_exact(&mut byte).expect("websocket handshake");
            head.push(byte[0]);
        }
        assert!(head.starts_with(b"HTTP/1.1 101"), "websocket refused: {}", String::from_utf8_lossy(&head));
        Browser { child, profile, page, next_id: 1 }
    }

    fn send(&mut self, text: &str) {
        let payload = text.as_bytes();
        let mut frame = vec![0x81u8]; // FIN, text
        match payload.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n <= 0xffff => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        let mask = [0x12u8, 0x34, 0x56, 0x78];
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.page.write_all(&frame).expect("websocket send");
    }

    fn receive(&mut self) -> String {
        let mut message = Vec::new();
        loop {
            let mut h = [0u8; 2];
            self.page.read_exact(&mut h).expect("websocket frame");
            let mut len = u64::from(h[1] & 0x7f);
            if len == 126 {
                let mut b = [0u8; 2];
                self.page.read_exact(&mut b).unwrap();
                len = u64::from(u16::from_be_bytes(b));
            } else if len == 127 {
                let mut b = [0u8; 8];
                self.page.read_exact(&mut b).unwrap();
                len = u64::from_be_bytes(b);
            }
            let mut payload = vec![0u8; len as usize];
            self.page.read_exact(&mut payload).expect("websocket payload");
            let opcode = h[0] & 0x0f;
            if opcode <= 2 {
                message.extend_from_slice(&payload);
                if h[0] & 0x80 != 0 {
                    return String::from_utf8_lossy(&message).into_owned();
                }
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    pub fn evaluate(&mut self, expression: &str) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        let call = serde_json::json!({
            "id": id,
            "method": "Runtime.evaluate",
            "params": {"expression": expression, "returnByValue": true},
        });
        self.send(&call.to_string());
        loop {
            let m: serde_json::Value = serde_json::from_str(&self.receive()).expect("DevTools JSON");
            if m["id"] == id {
                assert!(m["result"]["exceptionDetails"].is_null(), "{expression}: {m}");
                return m["result"]["result"]["value"].clone();
            }
        }
    }

    /// Evaluates `expression` until it is `true`, for at most `timeout`; panics with `what`.
    pub fn wait_for(&mut self, expression: &str, timeout: Duration, what: &str) {
        let deadline = Instant::now() + timeout;
        while self.evaluate(expression) != serde_json::Value::Bool(true) {
            assert!(Instant::now() < deadline, "{what} (waited {timeout:?} for {expression})");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
