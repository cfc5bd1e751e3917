//! Debian's `chromium`, headless, for the tests of browser views (`hessian proxy --ui`).

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
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

/// The DOM of `url` after its scripts ran for `budget_ms` of virtual time, as headless chromium
/// serializes it (`--dump-dom`), in a fresh profile, with the background traffic that would
/// flood a closed network turned off. Panics when chromium fails or takes over a minute.
pub fn dump_dom(chromium: &PathBuf, url: &str, budget_ms: u32) -> String {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let profile = std::env::temp_dir().join(format!("hessian-chromium-{}-{run}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::create_dir_all(&profile).expect("chromium profile directory");
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--virtual-time-budget={budget_ms}"))
        .arg("--dump-dom")
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    // read as it comes, so that a large DOM does not fill the pipe and stall chromium
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = pipe.read_to_end(&mut buf);
            buf
        })
    };
    let stdout = reader(Box::new(child.stdout.take().expect("chromium stdout")));
    let stderr = reader(Box::new(child.stderr.take().expect("chromium stderr")));
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait for chromium").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium --dump-dom {url} took over a minute");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = child.wait().expect("chromium status");
    let (stdout, stderr) = (stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
    let _ = std::fs::remove_dir_all(&profile);
    assert!(status.success(), "chromium failed ({status}): {}", String::from_utf8_lossy(&stderr));
    String::from_utf8_lossy(&stdout).into_owned()
}
