//! `hessian proxy`: a reverse proxy for Hessian and Burlap services that forwards every request
//! and response byte for byte (heads included) and, beside the forwarding, decodes each call:
//! one line per call on standard output (`--json`: one JSON object per line), each exchange with
//! its raw bodies in a directory (`--record`), and a live page in the browser (`--ui`).
//! See `docs/inspector.md`.

mod exchange;
mod record;
mod relay;
mod type_maps;
mod ui;

use crate::{stdout_err, CliError};
use exchange::Exchange;
use relay::{relay_body, request_head, response_head, Capture, Reader, RelayError};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// Arguments of `hessian proxy`.
#[derive(clap::Args, Debug)]
pub struct ProxyArgs {
    /// Address to listen on, e.g. `127.0.0.1:8081`.
    #[arg(long)]
    pub listen: String,
    /// The service to forward to: `http://HOST:PORT` (request targets are forwarded unchanged).
    #[arg(long)]
    pub upstream: String,
    /// Print one JSON object per call instead of a line of text.
    #[arg(long)]
    pub json: bool,
    /// Record every exchange in this directory: `calls.jsonl` (one JSON object per call, heads
    /// included) and each body as `NNNNNN.request.bin` / `NNNNNN.reply.bin`, which `hessian
    /// decode`, `hessian dump` and `hessian load --call` read.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Bytes of each body kept for decoding; the rest is streamed through unkept and the
    /// capture marked truncated.
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
    pub max_capture: usize,
    /// Seconds to wait for the upstream (to connect, for its response once the whole request went
    /// up, for each read of a body) before answering 504; also how long a client may pause.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub timeout: u64,
    /// Serve the browser view on this address (e.g. `127.0.0.1:8090`).
    #[arg(long, value_name = "ADDR")]
    pub ui: Option<String>,
    /// Allow `--ui` on an address other than loopback: anyone who can reach it sees every
    /// call's arguments and replies.
    #[arg(long)]
    pub ui_open: bool,
    /// Calls the browser view keeps (the oldest are dropped).
    #[arg(long, default_value_t = 1000)]
    pub ui_keep: usize,
}

/// What every connection needs.
struct Config {
    upstream: String,
    max_capture: usize,
    timeout: Duration,
}

/// Runs `hessian proxy` until interrupted.
pub fn proxy(a: ProxyArgs) -> Result<(), CliError> {
    let upstream = upstream_address(&a.upstream)?;
    let ui_addr = match &a.ui {
        Some(addr) => Some(ui::check_address(addr, a.ui_open)?),
        None => None,
    };
    let recorder = match &a.record {
        Some(dir) => Some(record::Recorder::create(dir)?),
        None => None,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| CliError::Io { path: "<runtime>".into(), source })?;
    rt.block_on(async move {
        let io = |what: &str, source| CliError::Io { path: what.to_owned(), source };
        let listener = TcpListener::bind(&a.listen).await.map_err(|e| io(&a.listen, e))?;
        let local = listener.local_addr().map_err(|e| io(&a.listen, e))?;
        let (store, ui_local) = match ui_addr {
            Some(addr) => {
                let store = Arc::new(ui::Store::new(a.ui_keep));
                let bound = ui::serve(addr, a.ui_open, store.clone()).await.map_err(|e| io(&addr.to_string(), e))?;
                (Some(store), Some(bound))
            }
            None => (None, None),
        };
        // the banner goes to standard error: standard output holds only the calls
        eprintln!(
            "hessian proxy: listening on http://{local}, forwarding to http://{upstream}{}",
            ui_local.map(|u| format!(", browser view on http://{u}/")).unwrap_or_default()
        );
        let (tx, rx) = mpsc::channel::<Exchange>(1024);
        // decoding a large body takes a while: on a thread of its own, not a runtime worker
        let json = a.json;
        let (done_tx, mut done_rx) = tokio::sync::oneshot::channel::<()>();
        let sink = std::thread::spawn(move || {
            let r = report(rx, json, recorder, store);
            let _ = done_tx.send(());
            r
        });
        let cfg =
            Arc::new(Config { upstream, max_capture: a.max_capture, timeout: Duration::from_secs(a.timeout.max(1)) });
        let ids = Arc::new(std::sync::atomic::AtomicU64::new(0));
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let Ok((stream, peer)) = accepted else { continue };
                    let _ = stream.set_nodelay(true);
                    tokio::spawn(connection(stream, peer, cfg.clone(), tx.clone(), ids.clone()));
                }
                _ = tokio::signal::ctrl_c() => break,
                // standard output closed (`hessian proxy | head`): nothing can be shown any more
                _ = &mut done_rx => break,
            }
        }
        drop(tx);
        // the calls already finished are reported; connections still open are not waited for
        for _ in 0..20 {
            if sink.is_finished() {
                return sink.join().unwrap_or_else(|_| Err(CliError::Usage("the proxy's reporter failed".into())));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(())
    })
}

/// `HOST:PORT` of an `http://HOST:PORT` URL (a path other than `/` is refused: targets are
/// forwarded unchanged).
fn upstream_address(url: &str) -> Result<String, CliError> {
    let bad = |why: &str| CliError::Usage(format!("--upstream {url:?}: {why}"));
    let uri: http::Uri = url.parse().map_err(|e| bad(&format!("not a URL ({e})")))?;
    match uri.scheme_str() {
        Some("http") => {}
        Some(other) => return Err(bad(&format!("scheme {other} is not supported (http only)"))),
        None => return Err(bad("give http://HOST:PORT")),
    }
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return Err(bad("give no path: request targets are forwarded unchanged"));
    }
    let host = uri.host().ok_or_else(|| bad("no host"))?;
    Ok(format!("{host}:{}", uri.port_u16().unwrap_or(80)))
}

/// Prints, records and publishes each exchange, in the order they finish.
fn report(
    mut rx: mpsc::Receiver<Exchange>,
    json: bool,
    mut recorder: Option<record::Recorder>,
    store: Option<Arc<ui::Store>>,
) -> Result<(), CliError> {
    let mut maps = type_maps::TypeMaps::default();
    while let Some(ex) = rx.blocking_recv() {
        let decoded = ex.decode(&mut maps);
        let summary = exchange::to_json(&ex, &decoded, false);
        // recorded and shown in the view before the line goes out: a reader of the line finds both
        if let Some(r) = &mut recorder {
            if let Err(e) = r.write(&ex, &decoded, summary.clone()) {
                eprintln!("hessian proxy: recording stopped: {e}");
                recorder = None;
            }
        }
        if let Some(store) = &store {
            store.push(ex.id, exchange::to_json(&ex, &decoded, true));
        }
        {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            let text = if json { summary.to_string() } else { exchange::line(&ex, &decoded) };
            writeln!(out, "{text}").and_then(|()| out.flush()).map_err(stdout_err)?;
        }
    }
    Ok(())
}

/// A connection to the upstream, kept while both sides keep theirs.
struct Upstream {
    reader: Reader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
}

/// Why no response came from the upstream, as the client is told.
fn upstream_failure(cfg: &Config, e: &RelayError) -> (u16, String) {
    match e {
        RelayError::Timeout(_) => {
            (504, format!("hessian proxy: upstream {} did not answer within {:?}", cfg.upstream, cfg.timeout))
        }
        other => (502, format!("hessian proxy: upstream {}: {other}", cfg.upstream)),
    }
}

async fn connect(cfg: &Config) -> Result<Upstream, RelayError> {
    let stream = match tokio::time::timeout(cfg.timeout, TcpStream::connect(&cfg.upstream)).await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Err(RelayError::Connect(e)),
        Err(_) => return Err(RelayError::Timeout(cfg.timeout)),
    };
    let _ = stream.set_nodelay(true);
    let (r, w) = stream.into_split();
    Ok(Upstream { reader: Reader::new(r, cfg.timeout), writer: w })
}

/// The proxy's own answer (a 400, 502 or 504), closing the connection.
async fn respond<W: AsyncWrite + Unpin>(w: &mut W, status: u16, message: &str) {
    let reason = match status {
        400 => "Bad Request",
        502 => "Bad Gateway",
        _ => "Gateway Timeout",
    };
    let text = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{message}\n",
        message.len() + 1
    );
    let _ = w.write_all(text.as_bytes()).await;
    let _ = w.flush().await;
}

/// Relays the requests of one client connection, in order, over one upstream connection.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    cfg: Arc<Config>,
    sink: mpsc::Sender<Exchange>,
    ids: Arc<std::sync::atomic::AtomicU64>,
) {
    let (cr, mut client_w) = stream.into_split();
    let mut client = Reader::new(cr, cfg.timeout);
    let mut upstream: Option<Upstream> = None;
    loop {
        let raw_head = match client.head().await {
            Ok(Some(h)) => h,
            Ok(None)
            | Err(RelayError::Timeout(_) | RelayError::Io(_) | RelayError::Closed(_) | RelayError::Connect(_)) => {
                return
            }
            Err(e) => return respond(&mut client_w, 400, &format!("hessian proxy: {e}")).await,
        };
        let t0 = Instant::now();
        let head = match request_head(&raw_head) {
            Ok(h) => h,
            Err(e) => return respond(&mut client_w, 400, &format!("hessian proxy: {e}")).await,
        };
        let mut ex = Exchange {
            id: ids.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
            started: SystemTime::now(),
            client: peer.to_string(),
            request_head: raw_head,
            http_method: head.method.clone(),
            target: head.target.clone(),
            request: Capture::new(cfg.max_capture),
            negotiating: exchange::negotiating(&head.fields),
            response_head: None,
            status: None,
            reply: Capture::new(cfg.max_capture),
            latency: Duration::ZERO,
            error: None,
        };
        // a kept connection the upstream closed meanwhile is replaced before it is used
        if let Some(u) = &mut upstream {
            if u.reader.closed_now().await {
                upstream = None;
            }
        }
        if upstream.is_none() {
            match connect(&cfg).await {
                Ok(u) => upstream = Some(u),
                Err(e) => {
                    // the body is read (and kept for the record) so that the answer follows it
                    let _ = relay_body(&mut client, &mut tokio::io::sink(), head.framing, &mut ex.request).await;
                    let (status, message) = upstream_failure(&cfg, &e);
                    respond(&mut client_w, status, &message).await;
                    (ex.status, ex.error, ex.latency) = (Some(status), Some(message), t0.elapsed());
                    let _ = sink.send(ex).await;
                    return;
                }
            }
        }
        let Some(Upstream { reader: up_r, writer: up_w }) = upstream.as_mut() else { return };
        let request_capture = &mut ex.request;
        let reply_capture = &mut ex.reply;
        let request_head_bytes = &ex.request_head;
        let client_r = &mut client;
        // the final response head once it went to the client, with its status
        let mut response: Option<(Vec<u8>, u16)> = None;
        let response_ref = &mut response;
        // --timeout counts for the response once the whole request went up (a slow upload is
        // not the upstream's delay)
        let request_sent = std::sync::atomic::AtomicBool::new(false);
        let request_sent_ref = &request_sent;
        let (forwarded, answer) = {
            let forward = async move {
                up_w.write_all(request_head_bytes).await?;
                relay_body(client_r, up_w, head.framing, request_capture).await?;
                up_w.flush().await?;
                request_sent_ref.store(true, std::sync::atomic::Ordering::Relaxed);
                Ok::<(), RelayError>(())
            };
            let method = head.method.as_str();
            let client_w_ref = &mut client_w;
            let backward = async move {
                let mut answered = false;
                loop {
                    let raw = match up_r.head().await {
                        Ok(Some(h)) => h,
                        Ok(None) => return Err((RelayError::Closed(0), answered)),
                        Err(RelayError::Timeout(_)) if !request_sent_ref.load(std::sync::atomic::Ordering::Relaxed) => {
                            continue
                        }
                        Err(e) => return Err((e, answered)),
                    };
                    let h = response_head(&raw, method).map_err(|e| (e, answered))?;
                    client_w_ref.write_all(&raw).await.map_err(|e| (RelayError::Write(e), answered))?;
                    answered = true;
                    if (100..200).contains(&h.status) && h.status != 101 {
                        client_w_ref.flush().await.map_err(|e| (RelayError::Write(e), answered))?;
                        continue; // an interim response: the final one follows
                    }
                    *response_ref = Some((raw, h.status));
                    if h.status == 101 {
                        return Ok(false); // protocol upgrades are not relayed: the connection ends
                    }
                    relay_body(up_r, client_w_ref, h.framing, reply_capture).await.map_err(|e| (e, answered))?;
                    client_w_ref.flush().await.map_err(|e| (RelayError::Write(e), answered))?;
                    return Ok(h.keep_alive);
                }
            };
            tokio::pin!(forward);
            tokio::pin!(backward);
            let mut forwarded: Option<Result<(), RelayError>> = None;
            let answer = loop {
                tokio::select! {
                    r = &mut forward, if forwarded.is_none() => {
                        let failed = r.is_err();
                        forwarded = Some(r);
                        if failed {
                            break None;
                        }
                    }
                    r = &mut backward => break Some(r),
                }
            };
            (forwarded, answer)
        };
        ex.latency = t0.elapsed();
        let client_failed = matches!(forwarded, Some(Err(_)));
        if let Some((raw, status)) = response {
            (ex.response_head, ex.status) = (Some(raw), Some(status));
        }
        let keep = match answer {
            Some(Ok(upstream_keeps)) => {
                let request_done = matches!(forwarded, Some(Ok(())));
                if let Some(Err(e)) = forwarded {
                    ex.error = Some(format!("request: {e}"));
                }
                upstream_keeps && head.keep_alive && request_done
            }
            Some(Err((e, answered))) => {
                if let RelayError::Write(e) = &e {
                    ex.error = Some(format!("the client closed its connection before the response ended: {e}"));
                } else if answered {
                    ex.error = Some(format!("response cut short: {e}"));
                } else if !client_failed {
                    let (status, message) = upstream_failure(&cfg, &e);
                    respond(&mut client_w, status, &message).await;
                    ex.status = Some(status);
                    ex.error = Some(message);
                }
                false
            }
            None => {
                let e = forwarded.and_then(Result::err).map(|e| e.to_string()).unwrap_or_default();
                ex.error = Some(format!("client: {e}"));
                false
            }
        };
        let _ = sink.send(ex).await;
        if !keep {
            return;
        }
    }
}
