//! Child processes of the suite (servers and Java clients): started with a deadline, killed in
//! `Drop`, and killed on Ctrl-C by the handler [`install_interrupt_handler`] sets up, so that no
//! process outlives the suite. Servers also exit by themselves when their stdin closes, which
//! happens when the suite dies in any way.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Process ids of the live children, for the interrupt handler.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn register(pid: u32) {
    if let Ok(mut c) = CHILDREN.lock() {
        c.push(pid);
    }
}

fn unregister(pid: u32) {
    if let Ok(mut c) = CHILDREN.lock() {
        c.retain(|p| *p != pid);
    }
}

/// On SIGINT/SIGTERM: kills every registered child, then exits with status 130.
pub fn install_interrupt_handler() -> Result<(), String> {
    ctrlc::set_handler(|| {
        let pids = CHILDREN.lock().map(|c| c.clone()).unwrap_or_default();
        for pid in pids {
            // SAFETY: kill(2) on a process id this process started and has not yet reaped.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
        eprintln!("\ninterrupted: {} child process(es) killed", CHILDREN.lock().map(|c| c.len()).unwrap_or(0));
        std::process::exit(130);
    })
    .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
}

/// The last lines a child wrote to stderr (for the reason of a failed row).
#[derive(Clone, Default)]
struct Tail(Arc<Mutex<Vec<String>>>);

impl Tail {
    fn collect(&self, r: impl Read + Send + 'static) {
        let t = self.0.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(r).lines().map_while(Result::ok) {
                if let Ok(mut v) = t.lock() {
                    v.push(line);
                    if v.len() > 12 {
                        v.remove(0);
                    }
                }
            }
        });
    }

    fn text(&self) -> String {
        self.0.lock().map(|v| v.join(" | ")).unwrap_or_default()
    }
}

/// A server child process that printed `PORT n`; killed when dropped.
pub struct Server {
    child: Child,
    /// The port it listens on (127.0.0.1).
    pub port: u16,
    name: String,
    stderr: Tail,
}

/// Starts `cmd` with stdin, stdout and stderr piped, registered to be killed with the suite,
/// its stderr collected into a [`Tail`] (for the reason a peer dies).
fn spawn_piped(name: &str, cmd: &mut Command) -> Result<(Child, Tail), String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{name}: cannot start: {e}"))?;
    register(child.id());
    let stderr = Tail::default();
    if let Some(e) = child.stderr.take() {
        stderr.collect(e);
    }
    Ok((child, stderr))
}

impl Server {
    /// Starts `cmd` (stdin kept open as the server's lifeline, stdout read for the `PORT n` line)
    /// and waits at most `timeout` for the port.
    pub fn start(name: &str, mut cmd: Command, timeout: Duration) -> Result<Server, String> {
        let (mut child, stderr) = spawn_piped(name, &mut cmd)?;
        let (tx, rx) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                let mut lines = BufReader::new(out).lines();
                for line in lines.by_ref().map_while(Result::ok) {
                    if let Some(p) = line.trim().strip_prefix("PORT ") {
                        let _ = tx.send(p.trim().parse::<u16>().ok());
                        break;
                    }
                }
                // keep draining so the child never blocks on a full pipe
                for _ in lines.map_while(Result::ok) {}
            });
        }
        let mut server = Server { child, port: 0, name: name.to_owned(), stderr };
        match rx.recv_timeout(timeout) {
            Ok(Some(port)) => {
                server.port = port;
                Ok(server)
            }
            Ok(None) => Err(format!("{name}: printed a malformed PORT line")),
            Err(_) => {
                let status = server.child.try_wait().ok().flatten();
                let why = match status {
                    Some(s) => format!("exited ({s}) before listening"),
                    None => format!("did not listen within {} s", timeout.as_secs()),
                };
                // give the stderr reader a moment to catch the last lines
                std::thread::sleep(Duration::from_millis(100));
                Err(format!("{name}: {why}; stderr: {}", server.stderr.text()))
            }
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running; the reason (with its last stderr lines) if not.
    pub fn check_alive(&mut self) -> Result<(), String> {
        match self.child.try_wait() {
            Ok(None) => Ok(()),
            Ok(Some(s)) => Err(format!("{} died ({s}); stderr: {}", self.name, self.stderr.text())),
            Err(e) => Err(format!("{}: {e}", self.name)),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let pid = self.child.id();
        let _ = self.child.kill();
        let _ = self.child.wait();
        unregister(pid);
    }
}

/// Runs a client child process to its end (killed after `timeout`) and returns its stdout; an
/// error names the exit status and the last stderr lines.
pub fn run_client(name: &str, mut cmd: Command, timeout: Duration) -> Result<String, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{name}: cannot start: {e}"))?;
    let pid = child.id();
    register(pid);
    let stderr = Tail::default();
    if let Some(e) = child.stderr.take() {
        stderr.collect(e);
    }
    let (tx, rx) = mpsc::channel();
    if let Some(mut out) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = out.read_to_string(&mut s);
            let _ = tx.send(s);
        });
    }
    let start = Instant::now();
    let result = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let out = rx.recv_timeout(Duration::from_secs(5)).unwrap_or_default();
                std::thread::sleep(Duration::from_millis(50));
                break if status.success() {
                    Ok(out)
                } else {
                    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
                    Err(format!("{name}: exited ({status}); {} stderr: {}", fails.join(" | "), stderr.text()))
                };
            }
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!("{name}: timed out after {} s; stderr: {}", timeout.as_secs(), stderr.text()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => break Err(format!("{name}: {e}")),
        }
    };
    unregister(pid);
    result
}

/// A long-lived client child process driven by commands (a line on its stdin, one line of
/// answer on its stdout): the Java clients of experiment 2's rounds. Killed when dropped; it also
/// exits by itself at the EOF of its stdin.
pub struct Peer {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    lines: mpsc::Receiver<String>,
    name: String,
    stderr: Tail,
}

impl Peer {
    /// Starts `cmd` with its stdin and stdout piped.
    pub fn start(name: &str, mut cmd: Command) -> Result<Peer, String> {
        let (mut child, stderr) = spawn_piped(name, &mut cmd)?;
        let (tx, lines) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let stdin = child.stdin.take();
        Ok(Peer { child, stdin, lines, name: name.to_owned(), stderr })
    }

    /// Sends `command` and waits at most `timeout` for the answer: the first line that starts
    /// with one of `answers` (other lines, a library's log say, are skipped). A process that
    /// exits or does not answer in time is an error naming its last stderr lines, and is
    /// killed.
    pub fn ask(&mut self, command: &str, answers: &[&str], timeout: Duration) -> Result<String, String> {
        use std::io::Write as _;
        let name = self.name.clone();
        let sent = self
            .stdin
            .as_mut()
            .ok_or_else(|| format!("{name}: stopped"))
            .and_then(|w| writeln!(w, "{command}").and_then(|()| w.flush()).map_err(|e| format!("{name}: {e}")));
        if let Err(e) = sent {
            return Err(self.dead(e));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if answers.iter().any(|a| line.starts_with(a)) => return Ok(line),
                Ok(_) => continue,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    self.stdin = None;
                    return Err(format!(
                        "{name}: no answer to `{command}` within {} s; stderr: {}",
                        timeout.as_secs(),
                        self.stderr.text()
                    ));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(self.dead(format!("{name}: closed its output")))
                }
            }
        }
    }

    fn dead(&mut self, why: String) -> String {
        self.stdin = None;
        // give the process and the stderr reader a moment to finish
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(2) && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(50));
        match self.child.try_wait() {
            Ok(Some(s)) => format!("{} exited ({s}); stderr: {}", self.name, self.stderr.text()),
            _ => format!("{why}; stderr: {}", self.stderr.text()),
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let pid = self.child.id();
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        unregister(pid);
    }
}
