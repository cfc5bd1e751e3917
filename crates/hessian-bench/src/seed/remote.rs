//! Two machines: `seed serve-all --listen ADDR` starts every server the suite's rows need on one
//! host and serves a directory of them (`GET /servers`, JSON); `seed --servers URL` runs the
//! clients on another host against them instead of starting servers of its own.
//!
//! Each row has its own server process, as in a local run (keys `exp1-rust`, `exp2-json`, …, see
//! [`keys`]); the directory gives each key's port, the server machine's name and description,
//! and the suite's version and commit. A client joins each port with the host of the URL it was
//! given, so the directory holds no address of its own (but RMI stubs carry the host name the
//! server side was told to advertise, `--advertise`).

use crate::seed::machine::Machine;
use crate::seed::procs::Server;
use crate::seed::{exp2, javapeer, Options};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::process::Command;
use std::time::Duration;

/// The schema of the directory.
pub const SCHEMA: &str = "hessian-seed-servers/1";

/// How long a client waits for the directory or a server to accept a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Where a server listens: the suite's own servers on loopback, any free port, or those of
/// `seed serve-all` on its address and ports.
#[derive(Clone, Debug)]
pub struct Bind {
    /// The address to listen on.
    pub ip: IpAddr,
    /// The port (0: any free one). An RMI server uses it and the next two.
    pub port: u16,
    /// The host name RMI stubs carry (how the client machine reaches this one).
    pub advertise: String,
    /// Whether the server was started by `seed serve-all` (the Java servers that otherwise run
    /// until killed then also exit when their stdin closes).
    pub serve_all: bool,
}

impl Bind {
    /// The suite's own servers: 127.0.0.1, any port.
    pub fn local() -> Bind {
        Bind { ip: IpAddr::V4(Ipv4Addr::LOCALHOST), port: 0, advertise: "127.0.0.1".into(), serve_all: false }
    }

    /// `IP:PORT`, for `seed serve WHAT --listen`.
    pub fn listen(&self) -> String {
        SocketAddr::new(self.ip, self.port).to_string()
    }

    /// The JVM options of a Java server (`seed.bind`, `seed.port`, `seed.advertise`,
    /// `seed.lifeline`; see `interop/java/src/SeedJavaServer.java`).
    pub fn jvm_options(&self) -> Vec<String> {
        let mut o = vec![
            format!("-Dseed.bind={}", self.ip),
            format!("-Dseed.port={}", self.port),
            format!("-Dseed.advertise={}", self.advertise),
        ];
        if self.serve_all {
            o.push("-Dseed.lifeline=true".into());
        }
        o
    }
}

/// A row's server: a child process of this suite, or one on the server machine.
pub enum Backend {
    /// Started here, killed when dropped.
    Local(Server),
    /// On the server machine: its directory key and `host:port`.
    Remote {
        /// The directory key (`exp2-json`, …).
        key: String,
        /// `host:port` as the client reaches it.
        addr: String,
    },
}

impl Backend {
    /// `host:port` of the server.
    pub fn addr(&self) -> String {
        match self {
            Backend::Local(s) => format!("127.0.0.1:{}", s.port),
            Backend::Remote { addr, .. } => addr.clone(),
        }
    }

    /// `http://host:port`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr())
    }

    /// The server's socket address (a remote host name resolved).
    pub fn socket_addr(&self) -> Result<SocketAddr, String> {
        let addr = self.addr();
        addr.to_socket_addrs().map_err(|e| format!("{addr}: {e}"))?.next().ok_or_else(|| format!("{addr}: no address"))
    }

    /// Whether the server still runs (a local one) or still accepts connections (a remote one);
    /// the reason if not.
    pub fn check_alive(&mut self) -> Result<(), String> {
        match self {
            Backend::Local(s) => s.check_alive(),
            Backend::Remote { key, addr } => {
                probe(addr).map_err(|e| format!("the server machine's {key} at {addr} no longer answers: {e}"))
            }
        }
    }
}

/// Connects to `addr` once (at most [`CONNECT_TIMEOUT`]).
fn probe(addr: &str) -> Result<(), String> {
    let mut last = format!("{addr}: no address");
    for a in addr.to_socket_addrs().map_err(|e| e.to_string())? {
        match TcpStream::connect_timeout(&a, CONNECT_TIMEOUT) {
            Ok(_) => return Ok(()),
            Err(e) => last = e.to_string(),
        }
    }
    Err(last)
}

/// The directory `seed serve-all` serves at `GET /servers`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Directory {
    /// [`SCHEMA`].
    pub schema: String,
    /// The server machine's host name.
    pub host: String,
    /// The host name its RMI stubs carry (`--advertise`).
    pub advertise: String,
    /// The address `serve-all` listens on.
    pub listen: String,
    /// The suite's version (`hessian-bench`'s).
    pub version: String,
    /// The commit it was built from (`git rev-parse HEAD`), or `unknown`.
    pub commit: String,
    /// The server machine ([`Machine`] as JSON).
    pub machine: serde_json::Value,
    /// Key (`exp1-rust`, `exp2-json`, …) → port.
    pub servers: BTreeMap<String, u16>,
    /// Key → process id on the server machine.
    pub pids: BTreeMap<String, u32>,
    /// Keys whose server did not start there → why.
    pub unavailable: BTreeMap<String, String>,
}

/// The server machine as a client sees it: the directory and the host of its URL.
#[derive(Clone, Debug)]
pub struct Remote {
    /// The directory's URL as given to `--servers`.
    pub url: String,
    /// The host part of the URL: where the client connects to every server.
    pub host: String,
    /// The directory.
    pub directory: Directory,
}

impl Remote {
    /// The server of `key`, checked to accept a connection; the reason if there is none.
    pub fn backend(&self, key: &str) -> Result<Backend, String> {
        let d = &self.directory;
        let Some(port) = d.servers.get(key) else {
            return Err(match d.unavailable.get(key) {
                Some(why) => format!("{key} did not start on the server machine ({}): {why}", d.host),
                None => format!(
                    "the server machine ({}) serves no {key}: start `seed serve-all` there with this run's \
                     --only and --protocols",
                    d.host
                ),
            });
        };
        let addr = format!("{}:{port}", self.host);
        probe(&addr).map_err(|e| format!("the server machine's {key} at {addr} does not answer: {e}"))?;
        Ok(Backend::Remote { key: key.to_owned(), addr })
    }
}

/// A row's server: the server machine's `key` with `--servers`, else `local()` started here.
pub fn backend(
    remote: Option<&Result<Remote, String>>,
    key: &str,
    local: impl FnOnce() -> Result<Server, String>,
) -> Result<Backend, String> {
    match remote {
        None => local().map(Backend::Local),
        Some(Ok(r)) => r.backend(key),
        Some(Err(e)) => Err(e.clone()),
    }
}

/// The `(authority, path)` of `url` (`http://host:port/servers`, `host:port`); the path
/// defaults to `/servers`.
fn split_url(url: &str) -> Result<(String, String), String> {
    let rest = url.strip_prefix("http://").unwrap_or(url);
    if rest.contains("://") {
        return Err(format!("--servers {url}: only http:// is served"));
    }
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/servers"),
    };
    if authority.is_empty() {
        return Err(format!("--servers {url}: no host"));
    }
    let authority = if authority.ends_with(']') || !authority.contains(':') {
        format!("{authority}:80")
    } else {
        authority.to_owned()
    };
    let path = if path == "/" { "/servers" } else { path };
    Ok((authority, path.to_owned()))
}

/// Fetches the directory at `url` (`--servers`).
pub fn fetch(url: &str) -> Result<Remote, String> {
    let why = |e: String| format!("cannot read the server directory at {url}: {e}");
    let (authority, path) = split_url(url)?;
    let host = authority.rsplit_once(':').map_or(authority.as_str(), |(h, _)| h).to_owned();
    let addrs: Vec<SocketAddr> = authority.to_socket_addrs().map_err(|e| why(e.to_string()))?.collect();
    let mut stream = None;
    let mut last = "no address".to_owned();
    for a in &addrs {
        match TcpStream::connect_timeout(a, CONNECT_TIMEOUT) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = e.to_string(),
        }
    }
    let mut stream = stream.ok_or_else(|| why(last))?;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {authority}\r\nAccept: application/json\r\n\r\n")
        .map_err(|e| why(e.to_string()))?;
    let mut text = String::new();
    stream.read_to_string(&mut text).map_err(|e| why(e.to_string()))?;
    let (head, body) = text.split_once("\r\n\r\n").ok_or_else(|| why("no HTTP reply".into()))?;
    let status = head.lines().next().unwrap_or_default();
    if status.split_whitespace().nth(1) != Some("200") {
        return Err(why(format!("answered `{status}`")));
    }
    let directory: Directory =
        serde_json::from_str(body).map_err(|e| why(format!("not a directory of `seed serve-all`: {e}")))?;
    if directory.schema != SCHEMA {
        return Err(why(format!("schema {:?}, expected {SCHEMA:?}", directory.schema)));
    }
    Ok(Remote { url: url.to_owned(), host, directory })
}

/// This machine's host name (`/proc/sys/kernel/hostname`, else `hostname`).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .or_else(|| {
            let out = Command::new("hostname").output().ok()?;
            Some(String::from_utf8_lossy(&out.stdout).trim().to_owned()).filter(|s| !s.is_empty())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The commit the suite was built from (`git rev-parse HEAD` in the repository), or `unknown`.
pub fn commit() -> String {
    Command::new("git")
        .arg("-C")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".into())
}

/// A server of `serve-all`: its key, how many ports it takes and how it starts on a [`Bind`].
type Starter<'a> = (String, u16, Box<dyn Fn(&Bind) -> Result<Server, String> + Send + Sync + 'a>);

/// A Java server of experiment 1: `class PORT` with the JVM options of `negotiation_bench`'s
/// (`heap`: with the suite's fixed heap, as its load figure starts them).
fn exp1_java(java: &hessian_testkit::java::Java, class: &str, bind: &Bind, heap: bool) -> Result<Server, String> {
    let mut cmd = javapeer::command_at(java, class, bind, heap);
    cmd.arg(bind.port.to_string());
    Server::start(class, cmd, Duration::from_secs(60))
}

/// The keys of the servers `opts` needs, each with its starter: experiment 1's six (the
/// benchmark's demo server on one thread and two Java servers, and the load figure's three),
/// experiment 2's one per selected row. Experiment 3 has no servers.
fn starters<'a>(
    opts: &Options,
    java: &'a Result<hessian_testkit::java::Java, (bool, String)>,
    peers: &'a Option<Result<javapeer::Peers, (bool, String)>>,
) -> Vec<Starter<'a>> {
    let mut out: Vec<Starter<'a>> = Vec::new();
    let java_or = move || java.as_ref().map_err(|(_, why)| why.clone());
    if opts.runs(1) && ["hessian1", "hessian2", "hessian2.1"].iter().any(|p| opts.protocol(p)) {
        out.push(("exp1-rust".into(), 1, Box::new(|b: &Bind| exp2::rust_server_at("demo-1", b))));
        out.push(("exp1-load-rust".into(), 1, Box::new(|b: &Bind| exp2::rust_server_at("demo", b))));
        for (key, class, heap) in [
            ("exp1-java-plain", "RpcJavaServer", false),
            ("exp1-java-negotiating", "NegotiatingServer", false),
            ("exp1-load-java-plain", "RpcJavaServer", true),
            ("exp1-load-java-negotiating", "NegotiatingServer", true),
        ] {
            out.push((key.into(), 1, Box::new(move |b: &Bind| exp1_java(java_or()?, class, b, heap))));
        }
    }
    if opts.runs(2) {
        for p in exp2::selected(opts) {
            let start = move |b: &Bind| {
                let j = if p.needs_java() { Some(java_or()?) } else { None };
                let peers = match peers {
                    Some(Ok(peers)) => Some(peers),
                    Some(Err((_, why))) if p.needs_peers() => return Err(why.clone()),
                    _ => None,
                };
                exp2::row_server(p, j, peers, b)
            };
            out.push((format!("exp2-{}", p.id), p.ports(), Box::new(start)));
        }
    }
    out
}

/// `seed serve-all --listen ADDR [--advertise HOST]`: starts every server `opts` needs (those
/// of `--only` and `--protocols`), prints the directory's URL as its first line, then serves the
/// directory until killed (SIGINT/SIGTERM stop every server: the suite's interrupt handler).
/// With a port in ADDR the servers take the next ports in turn, else any free ones.
pub fn serve_all(listen: &str, advertise: Option<String>, opts: &Options) -> Result<(), String> {
    let addr: SocketAddr = listen
        .to_socket_addrs()
        .map_err(|e| format!("--listen {listen}: {e}"))?
        .next()
        .ok_or_else(|| format!("--listen {listen}: no address"))?;
    let listener = TcpListener::bind(addr).map_err(|e| format!("--listen {listen}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let host = host_name();
    let advertise =
        advertise.unwrap_or_else(|| if addr.ip().is_unspecified() { host.clone() } else { addr.ip().to_string() });
    let java = javapeer::java();
    let peers = match &java {
        Ok(j) if exp2::selected(opts).iter().any(|p| p.needs_peers()) && opts.runs(2) => Some(javapeer::peers(j)),
        _ => None,
    };
    let list = starters(opts, &java, &peers);
    // the ports: the next ones after the directory's, or any
    let mut next = addr.port().checked_add(1);
    let mut binds = Vec::new();
    for (key, ports, _) in &list {
        let port = match (addr.port(), next) {
            (0, _) => 0,
            (_, Some(p)) => p,
            (_, None) => return Err(format!("--listen {listen}: no ports left after it for {key}")),
        };
        next = next.and_then(|p| p.checked_add(*ports));
        binds.push(Bind { ip: addr.ip(), port, advertise: advertise.clone(), serve_all: true });
    }
    // started side by side (the JVMs take seconds each)
    let started: Vec<Result<Server, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = list.iter().zip(&binds).map(|((_, _, start), b)| s.spawn(move || start(b))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("the starting thread panicked".into()))).collect()
    });
    let mut directory = Directory {
        schema: SCHEMA.into(),
        host: host.clone(),
        advertise: advertise.clone(),
        listen: local.to_string(),
        version: env!("CARGO_PKG_VERSION").into(),
        commit: commit(),
        machine: serde_json::to_value(Machine::probe()).unwrap_or_default(),
        servers: BTreeMap::new(),
        pids: BTreeMap::new(),
        unavailable: BTreeMap::new(),
    };
    let mut servers = Vec::new();
    for ((key, _, _), s) in list.iter().zip(started) {
        match s {
            Ok(s) => {
                directory.servers.insert(key.clone(), s.port);
                directory.pids.insert(key.clone(), s.pid());
                servers.push(s);
            }
            Err(e) => {
                directory.unavailable.insert(key.clone(), e);
            }
        }
    }
    let body = serde_json::to_string_pretty(&directory).map_err(|e| e.to_string())?;
    let shown = if local.ip().is_unspecified() {
        let a = if advertise.contains(':') { format!("[{advertise}]") } else { advertise.clone() };
        format!("{a}:{}", local.port())
    } else {
        local.to_string()
    };
    let mut out = std::io::stdout();
    let _ = writeln!(out, "http://{shown}/servers");
    for (key, port) in &directory.servers {
        let _ = writeln!(out, "{key:<28} port {port}");
    }
    for (key, why) in &directory.unavailable {
        let _ = writeln!(out, "{key:<28} NOT STARTED: {why}");
    }
    let _ = writeln!(out, "serving {} server(s) on {host}; stop with Ctrl-C or SIGTERM", servers.len());
    let _ = out.flush();
    for conn in listener.incoming() {
        let Ok(conn) = conn else { continue };
        let body = body.clone();
        std::thread::spawn(move || answer(conn, &body));
    }
    drop(servers);
    Ok(())
}

/// Answers one HTTP request of the directory: `GET /servers` (or `/`) the JSON, else 404.
fn answer(mut conn: TcpStream, body: &str) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(match conn.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // the rest of the head
    let mut h = String::new();
    while reader.read_line(&mut h).is_ok_and(|n| n > 0) && h.trim_end() != "" {
        h.clear();
    }
    let path = line.split_whitespace().nth(1).unwrap_or("");
    let (status, ct, body) = if line.starts_with("GET ") && (path == "/servers" || path == "/") {
        ("200 OK", "application/json", body)
    } else {
        ("404 Not Found", "text/plain", "GET /servers\n")
    };
    let _ = write!(
        conn,
        "HTTP/1.0 {status}\r\nContent-Type: {ct}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(split_url("http://h:9400/servers"), Ok(("h:9400".into(), "/servers".into())));
        assert_eq!(split_url("h:9400"), Ok(("h:9400".into(), "/servers".into())));
        assert_eq!(split_url("http://h/"), Ok(("h:80".into(), "/servers".into())));
        assert_eq!(split_url("http://[::1]:7/x"), Ok(("[::1]:7".into(), "/x".into())));
        assert!(split_url("https://h").is_err());
        assert!(split_url("http:///x").is_err());
    }
}
