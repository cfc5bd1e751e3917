//! `hessian call` (curl for Hessian) and `hessian serve-demo` (the Serving conventions).

use crate::format::Format;
use crate::{parse_json, pretty, stdout_err, CliError};
use bytes::Bytes;
use hessian_demo::{demo_builder, Executions};
use hessian_rpc::fault::ExceptionError;
use hessian_rpc::negotiation::{MapScope, TypeMapConfig};
use hessian_rpc::{Client, Dialect, HessianServer};
use http_body_util::Full;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `hessian call`.
#[derive(clap::Args, Debug)]
pub struct CallArgs {
    /// The service URL, e.g. `http://127.0.0.1:8080/bench` (or `https://…`).
    pub url: String,
    /// The method name (mangled names such as `add_int_int` and `add__2` pass through as is).
    pub method: String,
    /// The arguments, one typed-JSON value each (e.g. `5`, `true`, `null`, `'"text"'`,
    /// `'{"long": 7}'`). A bare word that is not JSON (`widget`) is a string; quote numbers,
    /// `true`, `false` and `null` to send them as strings (`'"42"'`).
    pub args: Vec<String>,
    /// With `--format h1`: send the `c 2 0` call Java's proxy sends and read a Hessian 2 reply.
    #[arg(long)]
    pub hybrid: bool,
    /// Seconds to wait for the reply.
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
    /// Print the JSON on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// For a fault: print every stack frame (not only the top 5 of each exception) and the
    /// fault's whole detail in the JSON.
    #[arg(long)]
    pub full: bool,
    /// An extra request header, `Name: value` (repeatable).
    #[arg(long = "header", short = 'H', value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// HTTP basic authentication, `USER:PASSWORD` (as Java's `HessianProxyFactory.setUser` and
    /// `setPassword` send it).
    #[arg(long, value_name = "USER:PASSWORD")]
    pub user: Option<String>,
    /// Write the reply's raw bytes to FILE instead of printing it as JSON (a complete plain
    /// message, fault or not, that `decode` and `dump` read).
    #[arg(long, short = 'o', value_name = "FILE", conflicts_with = "raw")]
    pub output: Option<std::path::PathBuf>,
    /// Write the reply's raw bytes to standard output instead of printing it as JSON.
    #[arg(long)]
    pub raw: bool,
    /// For https: also trust the certificates in this PEM file (a company CA, or a server's
    /// self-signed certificate), besides the built-in Mozilla roots.
    #[arg(long, value_name = "PEM")]
    pub cacert: Option<std::path::PathBuf>,
}

/// Arguments of `hessian serve-demo`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Most type maps kept for the type negotiation (request and reply maps in one cache; maps
    /// used once are evicted first; default 1024).
    #[arg(long, value_name = "N")]
    pub type_map_cache: Option<usize>,
    /// Most heap bytes of type maps kept (default 4 MiB).
    #[arg(long, value_name = "BYTES")]
    pub type_map_bytes: Option<usize>,
    /// Keep one type-map scope for all clients, instead of one per client (peer address and
    /// `Authorization` header).
    #[arg(long)]
    pub shared_type_maps: bool,
    /// Serve as a plain Hessian 2 server: no type negotiation.
    #[arg(long, conflicts_with_all = ["type_map_cache", "type_map_bytes", "shared_type_maps"])]
    pub no_type_maps: bool,
    /// Worker threads, each with its own single-threaded runtime and listening socket
    /// (`SO_REUSEPORT`); 0, the default, means one per core.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub workers: usize,
    /// Serve from one multi-thread (work-stealing) runtime instead of workers.
    #[arg(long, conflicts_with = "workers")]
    pub multi_thread: bool,
}

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| CliError::Io { path: "<runtime>".into(), source })
}

/// Stack frames of each exception a fault prints without `--full`.
const FAULT_FRAMES: usize = 5;

/// A call's arguments from the command line, one typed-JSON value each (`call` and `load`); a
/// bare word that is not JSON is a string.
pub(crate) fn call_args(texts: &[String]) -> Result<Vec<hessian::Value>, CliError> {
    let mut args = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let index = i + 1;
        let json = match parse_json(text.as_bytes(), &format!("argument {index}")) {
            Ok(json) => json,
            // `widget`, `hello world`, `1.2.3`: not JSON, and not an attempt at an object, an
            // array or a quoted string either
            Err(CliError::JsonSyntax { .. }) if !text.trim_start().starts_with(['{', '[', '"']) => {
                serde_json::Value::String(text.clone())
            }
            Err(CliError::JsonSyntax { source, .. }) => {
                let message = format!(
                    "invalid JSON: {source} (each argument is one typed-JSON value: a string needs JSON quotes, \
                     as in '\"text\"', unless it is a bare word such as widget)"
                );
                return Err(CliError::CallArgument { index, message });
            }
            Err(e) => return Err(e),
        };
        let v = hessian::json::from_json(&json)
            .map_err(|e| CliError::CallArgument { index, message: format!("not valid typed JSON: {e}") })?;
        args.push(v);
    }
    Ok(args)
}

/// The client dialect of `--format` (and, for Hessian 1, `--hybrid`: the `c 2 0` call Java's
/// proxy sends, answered in Hessian 2).
pub(crate) fn dialect(format: Format, hybrid: bool) -> Dialect {
    match (format, hybrid) {
        (Format::H2, _) => Dialect::HESSIAN2,
        (Format::H1, false) => Dialect::HESSIAN1,
        (Format::H1, true) => Dialect::HYBRID,
        (Format::Burlap, _) => Dialect::BURLAP,
    }
}

/// Runs `hessian call`.
pub fn call(format: Format, a: CallArgs) -> Result<(), CliError> {
    let args = call_args(&a.args)?;
    let mut builder = Client::builder().dialect(dialect(format, a.hybrid)).timeout(Duration::from_secs(a.timeout));
    for h in &a.headers {
        let Some((name, value)) = h.split_once(':') else {
            return Err(CliError::Usage(format!("--header {h:?}: expected `Name: value`")));
        };
        builder = builder.header(name.trim(), value.trim());
    }
    if let Some(path) = &a.cacert {
        let pem = std::fs::read(path).map_err(|source| CliError::Io { path: path.display().to_string(), source })?;
        for cert in hessian_rpc::tls::certificates_from_pem(&pem)? {
            builder = builder.add_root_certificate(cert);
        }
    }
    if let Some(u) = &a.user {
        let Some((user, password)) = u.split_once(':') else {
            return Err(CliError::Usage("--user: expected USER:PASSWORD".into()));
        };
        builder = builder.basic_auth(user, password);
    }
    let rt = runtime()?;
    if a.raw || a.output.is_some() {
        let bytes = rt.block_on(async {
            builder.build().proxy(&a.url)?.call_raw(&hessian::Call::new(a.method.clone(), args)).await
        })?;
        return match &a.output {
            Some(path) => {
                std::fs::write(path, &bytes).map_err(|source| CliError::Io { path: path.display().to_string(), source })
            }
            None => {
                use std::io::IsTerminal;
                if std::io::stdout().is_terminal() {
                    return Err(CliError::BinaryToTerminal);
                }
                let mut out = std::io::stdout().lock();
                out.write_all(&bytes).and_then(|_| out.flush()).map_err(stdout_err)
            }
        };
    }
    let result = rt.block_on(async { builder.build().proxy(&a.url)?.call(&a.method, args).await });
    let (json, fault) = match result {
        Ok(v) => (hessian::json::to_json(&v), None),
        Err(hessian_rpc::Error::Fault(f)) => (fault_json(&f, a.full), Some(fault_text(&f, a.full))),
        Err(e) => return Err(e.into()),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.compact {
        serde_json::to_writer(&mut out, &json).map_err(|e| stdout_err(e.into()))?;
        out.write_all(b"\n").map_err(stdout_err)?;
    } else {
        pretty::write(&mut out, &json).map_err(stdout_err)?;
    }
    out.flush().map_err(stdout_err)?;
    match fault {
        Some(text) => Err(CliError::Fault(text)),
        None => Ok(()),
    }
}

/// A fault as `call` prints it on standard output: `{"fault": {"code", "message", "exception",
/// "causes"}}`, the exception's class and its causes as `class: message`, and with `full` the
/// whole detail as typed JSON.
pub(crate) fn fault_json(f: &hessian_rpc::RemoteFault, full: bool) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("code".into(), f.code().into());
    m.insert("message".into(), f.message().into());
    if let Some(class) = f.exception_class() {
        m.insert("exception".into(), class.into());
    }
    if let Ok(e) = f.exception() {
        let causes: Vec<serde_json::Value> = e
            .chain()
            .skip(1)
            .map(|c| match &c.message {
                Some(message) => format!("{}: {message}", c.class).into(),
                None => c.class.clone().into(),
            })
            .collect();
        if !causes.is_empty() {
            m.insert("causes".into(), causes.into());
        }
    }
    if let (true, Some(d)) = (full, f.detail()) {
        m.insert("detail".into(), hessian::json::to_json(d));
    }
    let mut outer = serde_json::Map::new();
    outer.insert("fault".into(), serde_json::Value::Object(m));
    serde_json::Value::Object(outer)
}

/// A fault as `call` explains it on standard error: code and message, then the Java exception
/// as Java prints it, with the top [`FAULT_FRAMES`] frames of each exception in its cause chain
/// (all of them with `full`).
fn fault_text(f: &hessian_rpc::RemoteFault, full: bool) -> String {
    let mut text = format!("the server answered with a fault: {}: {}", f.code(), f.message().unwrap_or("null"));
    match f.exception() {
        Ok(e) => {
            text.push('\n');
            text.push_str(&e.trace(if full { usize::MAX } else { FAULT_FRAMES }));
            let cut = e.chain().any(|x| x.stack_trace.len() > FAULT_FRAMES);
            if !full && cut {
                text.push_str(&format!(
                    "\n(the top {FAULT_FRAMES} frames of each exception; --full prints them all and the whole detail)"
                ));
            }
        }
        Err(ExceptionError::NoDetail) => {}
        Err(e) => text.push_str(&format!("\n(the detail is not a Java exception: {e}; --full prints it)")),
    }
    text
}

/// The type-map settings of `serve-demo`'s options.
fn type_maps(a: &ServeArgs) -> TypeMapConfig {
    let mut c = TypeMapConfig::default();
    c.enabled = !a.no_type_maps;
    if let Some(n) = a.type_map_cache {
        c.max_maps = n;
    }
    if let Some(b) = a.type_map_bytes {
        c.max_bytes = b;
    }
    if a.shared_type_maps {
        c.scope = MapScope::Shared;
    }
    c
}

/// The `GET /stats` text: the demo methods' runs and the type-map cache's counters, as
/// `key=value` pairs on one line.
fn stats_line(server: &HessianServer, executions: &Executions) -> String {
    let t = server.type_map_stats();
    format!(
        "executions={} get_items={} exchange={} echo={} test2={} maps={} bytes={} learned={} evictions={} \
         collisions={} unknown_type_map={} referring_calls={} plain_calls={} referring_replies={}",
        executions.total(),
        executions.get_items(),
        executions.exchange(),
        executions.echo(),
        executions.test2(),
        t.maps,
        t.bytes,
        t.learned,
        t.evictions,
        t.collisions,
        t.unknown_type_map,
        t.referring_calls,
        t.plain_calls,
        t.referring_replies
    )
}

/// Runs `hessian serve-demo` until Ctrl-C (or SIGTERM), then shuts down gracefully (open
/// requests finish) and prints a last `stopped: executions=…` line with the final counters.
pub fn serve_demo(a: ServeArgs) -> Result<(), CliError> {
    let io = |source| CliError::Io { path: a.listen.clone(), source };
    let executions = Arc::new(Executions::default());
    let config = type_maps(&a);
    let e = executions.clone();
    let server = demo_builder(&executions)
        .type_maps(config)
        .http_route("/stats", move |server, req| stats_handler(e.clone(), server, req))
        .build();
    let maps = if config.enabled {
        format!("type maps: at most {} maps, {} bytes", config.max_maps, config.max_bytes)
    } else {
        "no type maps".to_owned()
    };
    let announce = |addr: std::net::SocketAddr, how: String| {
        println!(
            "hessian serve-demo: listening on http://{addr} (/bench: W1/W2, /test2: TestHessian2, /echo; \
             GET /stats; {maps}; {how})"
        );
        let _ = std::io::stdout().flush();
    };
    if a.multi_thread {
        runtime()?.block_on(async {
            let listener = tokio::net::TcpListener::bind(&a.listen).await.map_err(io)?;
            announce(listener.local_addr().map_err(io)?, "one multi-thread runtime".to_owned());
            server.clone().serve_listener(listener, shutdown_signal()).await;
            Ok::<_, CliError>(())
        })?;
    } else {
        let addr = resolve(&a.listen).map_err(io)?;
        let running = server.clone().spawn_workers(addr, a.workers).map_err(io)?;
        announce(running.local_addr(), format!("{} workers", running.workers()));
        let signals = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|source| CliError::Io { path: "<runtime>".into(), source })?;
        signals.block_on(shutdown_signal());
        running.shutdown();
    }
    // whoever started the server may have closed its end of stdout by now: not an error
    let mut out = std::io::stdout();
    let _ = writeln!(out, "hessian serve-demo: stopped: {}", stats_line(&server, &executions));
    let _ = out.flush();
    Ok(())
}

/// The first address `listen` (`host:port`) resolves to.
fn resolve(listen: &str) -> std::io::Result<std::net::SocketAddr> {
    use std::net::ToSocketAddrs;
    listen.to_socket_addrs()?.next().ok_or_else(|| std::io::Error::other(format!("{listen} resolves to no address")))
}

fn text(status: http::StatusCode, body: String) -> http::Response<Full<Bytes>> {
    let mut r = http::Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    r.headers_mut().insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("text/plain; charset=utf-8"));
    r
}

/// The demo's `/stats` route: `GET` answers [`stats_line`].
async fn stats_handler(
    executions: Arc<Executions>,
    server: HessianServer,
    req: http::Request<Full<Bytes>>,
) -> http::Response<Full<Bytes>> {
    if req.method() != http::Method::GET {
        let mut r = text(http::StatusCode::METHOD_NOT_ALLOWED, "GET /stats\n".to_owned());
        r.headers_mut().insert(http::header::ALLOW, http::HeaderValue::from_static("GET"));
        return r;
    }
    text(http::StatusCode::OK, stats_line(&server, &executions) + "\n")
}

/// Resolves at Ctrl-C or SIGTERM.
pub(crate) async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
